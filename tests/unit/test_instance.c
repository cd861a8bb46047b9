/*
 * test_instance.c - the TSPLIB reader, the distance functions and the table
 * of known optima, on small inline files.
 *
 * Every error class the reader promises to catch has a test that checks the
 * status, the "test:LINE:" prefix of the message and a word of what was
 * expected.  Texts are handed to the parser in heap copies of their exact
 * length, with no NUL after them, so a sanitizer build catches any read past
 * the end of the data.
 */
#include "test_util.h"

#include <unistd.h>

#include "core/instance.h"

/* ---------------------------------------------------------------- helpers */

/* Parses len bytes of text from an exactly-sized heap copy. */
static wt_status parse_exact(const char *text, size_t len, const char *source, wt_instance **out,
                             wt_error *err)
{
    char *copy = malloc(len ? len : 1);
    assert_non_null(copy);
    memcpy(copy, text, len);
    wt_status st = wt_instance_parse_tsplib(copy, len, source, out, err);
    free(copy);
    return st;
}

/* A message is one line that starts with `where` and names `word`. */
static void check_message(const wt_error *err, const char *where, const char *word,
                          const char *file, int line)
{
    if (strncmp(err->message, where, strlen(where)) != 0 || !strstr(err->message, word) ||
        strchr(err->message, '\n')) {
        print_error("message '%s' should start with '%s' and mention '%s'\n", err->message,
                    where, word);
        _fail(file, line);
    }
}

static void expect_error_at(const char *text, size_t len, wt_status want, const char *where,
                            const char *word, const char *file, int line)
{
    wt_instance *inst = NULL;
    wt_error err = {0};
    wt_status st = parse_exact(text, len, "test", &inst, &err);
    if (st != want) {
        wt_instance_free(inst);
        print_error("status %d (%s), expected %d; message: %s\n", st, wt_status_str(st), want,
                    err.message);
        _fail(file, line);
    }
    assert_null(inst);
    assert_int_equal(err.status, want);
    check_message(&err, where, word, file, line);
}

/* Asserts that a literal text fails with status st, its message starting
 * with where ("test:LINE:") and mentioning word. */
#define EXPECT_ERROR(text, st, where, word) \
    expect_error_at(text, sizeof(text) - 1, st, where, word, __FILE__, __LINE__)

static wt_instance *parse_ok(const char *text, size_t len)
{
    wt_instance *inst = NULL;
    wt_error err = {0};
    wt_status st = parse_exact(text, len, "test", &inst, &err);
    if (st != WT_OK) fail_msg("parse failed: %s", err.message);
    return inst;
}

#define PARSE_OK(text) parse_ok(text, sizeof(text) - 1)

#define HEAD3 "NAME : t\nTYPE : TSP\nDIMENSION : 3\nEDGE_WEIGHT_TYPE : EUC_2D\n"

/* A 4-city EUC_2D instance with the 4 points of a 3x4 rectangle. */
static const char rect4[] =
    "NAME : rect\nTYPE : TSP\nDIMENSION : 4\nEDGE_WEIGHT_TYPE : EUC_2D\n"
    "NODE_COORD_SECTION\n1 0 0\n2 3 0\n3 3 4\n4 0 4\nEOF\n";

/* ---------------------------------------------------------- empty header */

static void test_empty_file(void **state)
{
    (void)state;
    EXPECT_ERROR("", WT_STATUS_PARSE, "test:1:", "empty file");
    EXPECT_ERROR("\n  \r\n\t\n", WT_STATUS_PARSE, "test:4:", "empty file");
    /* NULL with no bytes is an empty buffer (it once did NULL + 0, which
     * clang's UBSan reports). */
    wt_instance *inst = NULL;
    wt_error err = {0};
    assert_int_equal(wt_instance_parse_tsplib(NULL, 0, "test", &inst, &err), WT_STATUS_PARSE);
    assert_null(inst);
    check_message(&err, "test:1:", "empty file", __FILE__, __LINE__);
    assert_int_equal(wt_instance_parse_tsplib(NULL, 5, "test", &inst, &err),
                     WT_STATUS_INVALID_ARGUMENT);
}

static void test_missing_dimension(void **state)
{
    (void)state;
    EXPECT_ERROR("NAME : t\nTYPE : TSP\nEDGE_WEIGHT_TYPE : EUC_2D\nEOF\n", WT_STATUS_PARSE,
                 "test:4:", "no DIMENSION");
    EXPECT_ERROR("NAME : t\nTYPE : TSP\nEDGE_WEIGHT_TYPE : EUC_2D\n", WT_STATUS_PARSE,
                 "test:4:", "DIMENSION");
}

/* Keywords are upper case; a lower-case one is named at its own line rather
 * than skipped as unknown (which would blame a later line). */
static void test_lower_case_keyword(void **state)
{
    (void)state;
    EXPECT_ERROR("NAME : t\ndimension : 3\nEDGE_WEIGHT_TYPE : EUC_2D\nNODE_COORD_SECTION\n"
                 "1 0 0\n2 1 1\n3 2 0\nEOF\n", WT_STATUS_PARSE, "test:2:", "DIMENSION");
    EXPECT_ERROR("NAME : t\nDIMENSION : 3\nEdge_Weight_Type : EUC_2D\n", WT_STATUS_PARSE,
                 "test:3:", "upper case");
}

static void test_bad_dimension(void **state)
{
    (void)state;
    EXPECT_ERROR("NAME : t\nDIMENSION : abc\n", WT_STATUS_PARSE, "test:2:", "not an integer");
    EXPECT_ERROR("NAME : t\nDIMENSION : 10 cities\n", WT_STATUS_PARSE, "test:2:",
                 "not an integer");
    EXPECT_ERROR("NAME : t\nDIMENSION : 1e3\n", WT_STATUS_PARSE, "test:2:", "not an integer");
    EXPECT_ERROR("NAME : t\nDIMENSION :\n", WT_STATUS_PARSE, "test:2:", "expected");
    EXPECT_ERROR("DIMENSION : -5\n", WT_STATUS_PARSE, "test:1:", "at least 3");
    EXPECT_ERROR("DIMENSION : 0\n", WT_STATUS_PARSE, "test:1:", "at least 3");
    EXPECT_ERROR("DIMENSION : 1\n", WT_STATUS_PARSE, "test:1:", "at least 3");
    EXPECT_ERROR("DIMENSION : 2\n", WT_STATUS_PARSE, "test:1:", "at least 3");
    EXPECT_ERROR("DIMENSION : 2000000000\n", WT_STATUS_TOO_LARGE, "test:1:", "at most");
    EXPECT_ERROR("DIMENSION : 99999999999999999999999999\n", WT_STATUS_TOO_LARGE, "test:1:",
                 "99999999999999999999999999");
}

static void test_conflicting_dimension(void **state)
{
    (void)state;
    EXPECT_ERROR("DIMENSION : 3\nDIMENSION : 4\n", WT_STATUS_PARSE, "test:2:", "contradicts");
    /* the same value twice is harmless */
    wt_instance *inst =
        PARSE_OK("DIMENSION : 3\n" HEAD3 "NODE_COORD_SECTION\n1 0 0\n2 1 0\n3 0 1\n");
    assert_int_equal(wt_instance_n(inst), 3);
    wt_instance_free(inst);
}

/* A DIMENSION the rest of the file cannot back fails before any allocation
 * of that size (the sanitizer build would report a 16 GB request). */
static void test_dimension_larger_than_file(void **state)
{
    (void)state;
    EXPECT_ERROR("NAME : t\nTYPE : TSP\nDIMENSION : 1000000000\nEDGE_WEIGHT_TYPE : EUC_2D\n"
                 "NODE_COORD_SECTION\n1 0 0\n2 1 0\n3 0 1\n4 1 1\n5 2 2\nEOF\n",
                 WT_STATUS_PARSE, "test:5:", "cannot hold");
    EXPECT_ERROR("NAME : t\nTYPE : TSP\nDIMENSION : 2000000000\nEDGE_WEIGHT_TYPE : EUC_2D\n"
                 "NODE_COORD_SECTION\n1 0 0\n2 1 0\n3 0 1\n4 1 1\n5 2 2\nEOF\n",
                 WT_STATUS_TOO_LARGE, "test:3:", "DIMENSION");
    EXPECT_ERROR("DIMENSION : 40000\nEDGE_WEIGHT_TYPE : EXPLICIT\nEDGE_WEIGHT_FORMAT : UPPER_ROW\n"
                 "EDGE_WEIGHT_SECTION\n1 2 3 4 5\n",
                 WT_STATUS_PARSE, "test:4:", "cannot hold");
    EXPECT_ERROR("NAME : t\nDIMENSION : 1000000000\nEDGE_WEIGHT_TYPE : EXPLICIT\n"
                 "DISPLAY_DATA_SECTION\n1 0 0\n", WT_STATUS_PARSE, "test:4:", "cannot hold");
}

/* ------------------------------------------------------- node sections */

/* 6 header lines, then 5 of 10 nodes (long enough lines that the room check
 * does not fire first). */
#define HEAD10 "NAME : t\nCOMMENT : ten\nTYPE : TSP\nDIMENSION : 10\nEDGE_WEIGHT_TYPE : EUC_2D\n" \
               "NODE_COORD_SECTION\n"
#define FIVE_NODES "1 100.5 200.25\n2 100.5 200.25\n3 100.5 200.25\n4 100.5 200.25\n" \
                   "5 100.5 200.25\n"

static void test_too_few_nodes(void **state)
{
    (void)state;
    EXPECT_ERROR(HEAD10 FIVE_NODES, WT_STATUS_PARSE, "test:12:",
                 "expected node line 6 of 10 in NODE_COORD_SECTION, found end of file");
    EXPECT_ERROR(HEAD10 FIVE_NODES "EOF\n", WT_STATUS_PARSE, "test:12:",
                 "expected node line 6 of 10 in NODE_COORD_SECTION, found 'EOF'");
    EXPECT_ERROR(HEAD10 FIVE_NODES "DISPLAY_DATA_SECTION\n", WT_STATUS_PARSE, "test:12:",
                 "expected node line 6");
}

static void test_too_many_nodes(void **state)
{
    (void)state;
    EXPECT_ERROR(HEAD3 "NODE_COORD_SECTION\n1 0 0\n2 1 0\n3 0 1\n4 1 1\nEOF\n", WT_STATUS_PARSE,
                 "test:9:", "more node lines");
    EXPECT_ERROR(HEAD3 "NODE_COORD_SECTION\n1 0 0\n2 1 0\n3 0 1\n\n-1\n", WT_STATUS_PARSE,
                 "test:10:", "more node lines");
}

static void test_node_id_out_of_range(void **state)
{
    (void)state;
    EXPECT_ERROR(HEAD3 "NODE_COORD_SECTION\n1 0 0\n0 1 0\n3 0 1\n", WT_STATUS_PARSE, "test:7:",
                 "1..3");
    EXPECT_ERROR(HEAD3 "NODE_COORD_SECTION\n1 0 0\n4 1 0\n3 0 1\n", WT_STATUS_PARSE, "test:7:",
                 "1..3");
    EXPECT_ERROR(HEAD3 "NODE_COORD_SECTION\n1 0 0\n-2 1 0\n3 0 1\n", WT_STATUS_PARSE, "test:7:",
                 "1..3");
    EXPECT_ERROR(HEAD3 "NODE_COORD_SECTION\n1 0 0\n1.5 1 0\n3 0 1\n", WT_STATUS_PARSE, "test:7:",
                 "not an integer");
    EXPECT_ERROR(HEAD3 "NODE_COORD_SECTION\n1 0 0\n99999999999999999999999 1 0\n3 0 1\n",
                 WT_STATUS_PARSE, "test:7:", "1..3");
    /* a line that starts with a letter is no node line at all */
    EXPECT_ERROR(HEAD3 "NODE_COORD_SECTION\n1 0 0\nx 1 0\n3 0 1\n", WT_STATUS_PARSE, "test:7:",
                 "expected node line 2 of 3");
}

static void test_node_id_repeated(void **state)
{
    (void)state;
    EXPECT_ERROR(HEAD3 "NODE_COORD_SECTION\n1 0 0\n2 1 0\n2 0 1\n", WT_STATUS_PARSE, "test:8:",
                 "appears twice");
}

static void test_missing_coordinate(void **state)
{
    (void)state;
    EXPECT_ERROR(HEAD3 "NODE_COORD_SECTION\n1 10 10\n2 5\n3 10 10\n", WT_STATUS_PARSE, "test:7:",
                 "no y coordinate");
    EXPECT_ERROR(HEAD3 "NODE_COORD_SECTION\n1 10 10\n2\n3 10 10\n", WT_STATUS_PARSE, "test:7:",
                 "no x coordinate");
    EXPECT_ERROR("DIMENSION : 3\nEDGE_WEIGHT_TYPE : EUC_3D\nNODE_COORD_SECTION\n1 0 0 0\n2 1 0\n"
                 "3 0 1 1\n", WT_STATUS_PARSE, "test:5:", "'id x y z'");
    EXPECT_ERROR(HEAD3 "NODE_COORD_SECTION\n1 0 0\n2 1 0 7\n3 0 1\n", WT_STATUS_PARSE, "test:7:",
                 "extra text '7'");
}

static void test_bad_coordinate(void **state)
{
    (void)state;
    const char *bad[] = {"abc", "1.2.3", "0x10", "1,5", "1e", "1e+", "--1", ".", "+", "1d3",
                         "12abc", "0x1p3", "1_000"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char text[200];
        int len = snprintf(text, sizeof text, HEAD3 "NODE_COORD_SECTION\n1 0 0\n2 5 %s\n3 0 1\n",
                           bad[i]);
        expect_error_at(text, (size_t)len, WT_STATUS_PARSE, "test:7:", "not a number", __FILE__,
                        __LINE__);
    }
    EXPECT_ERROR(HEAD3 "NODE_COORD_SECTION\n1 0 0\n2 5 1\x00" "2\n3 0 1\n", WT_STATUS_PARSE,
                 "test:7:", "\\x00");
}

static void test_nan_and_infinite_coordinates(void **state)
{
    (void)state;
    const char *bad[] = {"nan", "NaN", "inf", "-inf", "infinity", "-Infinity", "nan(0x1)"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char text[200];
        int len = snprintf(text, sizeof text, HEAD3 "NODE_COORD_SECTION\n1 0 0\n2 %s 1\n3 0 1\n",
                           bad[i]);
        expect_error_at(text, (size_t)len, WT_STATUS_PARSE, "test:7:", "x coordinate of node 2",
                        __FILE__, __LINE__);
    }
    EXPECT_ERROR(HEAD3 "NODE_COORD_SECTION\n1 0 0\n2 1e999 1\n3 0 1\n", WT_STATUS_PARSE,
                 "test:7:", "finite");
    EXPECT_ERROR(HEAD3 "NODE_COORD_SECTION\n1 0 0\n2 1 -1e400\n3 0 1\n", WT_STATUS_PARSE,
                 "test:7:", "finite");
}

/* Coordinates whose tour lengths could overflow int64 are refused (by
 * wt_instance_finish), and the message still names the file. */
static void test_coordinates_too_wide(void **state)
{
    (void)state;
    EXPECT_ERROR(HEAD3 "NODE_COORD_SECTION\n1 0 0\n2 1e300 0\n3 -1e300 1\n", WT_STATUS_TOO_LARGE,
                 "test:5:", "overflow");
}

/* The message of that check once began with the file's NAME, raw: a long one
 * pushed the reason out of the message, control bytes went to the terminal. */
static void test_too_wide_message_leaves_name_out(void **state)
{
    (void)state;
    static const char tail[] = "\nDIMENSION : 3\nEDGE_WEIGHT_TYPE : EUC_2D\nNODE_COORD_SECTION\n"
                               "1 0 0\n2 1e300 0\n3 -1e300 1\n";
    size_t name_len = 600, len = strlen("NAME : ") + name_len + strlen(tail);
    char *text = malloc(len + 1);
    assert_non_null(text);
    memcpy(text, "NAME : ", 7);
    memset(text + 7, 'n', name_len);
    memcpy(text + 7 + name_len, tail, sizeof tail);
    expect_error_at(text, len, WT_STATUS_TOO_LARGE, "test:4: coordinates span", "overflow",
                    __FILE__, __LINE__);
    free(text);
    EXPECT_ERROR("NAME : \x1b[31m\nDIMENSION : 3\nEDGE_WEIGHT_TYPE : EUC_2D\nNODE_COORD_SECTION\n"
                 "1 0 0\n2 1e300 0\n3 -1e300 1\n", WT_STATUS_TOO_LARGE,
                 "test:4: coordinates span", "overflow");
    /* wt_instance_from_coords still names its instance */
    double x[3] = {0, 1e300, -1e300}, y[3] = {0, 0, 1};
    wt_instance *inst = NULL;
    wt_error err = {0};
    assert_int_equal(wt_instance_from_coords("wide", 3, WT_EUC_2D, x, y, NULL, &inst, &err),
                     WT_STATUS_TOO_LARGE);
    assert_null(inst);
    check_message(&err, "wide: coordinates span", "overflow", __FILE__, __LINE__);
}

/* ----------------------------------------------------- header keywords */

static void test_unsupported_type(void **state)
{
    (void)state;
    const char *types[] = {"HCP", "CVRP", "SOP", "TOUR"};
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++) {
        char text[200];
        int len = snprintf(text, sizeof text, "NAME : t\nTYPE : %s\nDIMENSION : 3\n", types[i]);
        expect_error_at(text, (size_t)len, WT_STATUS_UNSUPPORTED, "test:2:", "expected TSP",
                        __FILE__, __LINE__);
    }
    EXPECT_ERROR("TYPE : TSPX\n", WT_STATUS_PARSE, "test:1:", "expected TSP");
    EXPECT_ERROR("TYPE : TSP junk\n", WT_STATUS_PARSE, "test:1:", "expected TSP");
    EXPECT_ERROR("TYPE : tsp\n", WT_STATUS_PARSE, "test:1:", "expected TSP");
    EXPECT_ERROR("TYPE :\n", WT_STATUS_PARSE, "test:1:", "expected TSP");
    /* TYPE is checked wherever it stands, even after the data */
    EXPECT_ERROR("DIMENSION : 3\nEDGE_WEIGHT_TYPE : EUC_2D\nNODE_COORD_SECTION\n1 0 0\n2 1 0\n"
                 "3 0 1\nTYPE : HCP\n", WT_STATUS_UNSUPPORTED, "test:7:", "HCP");
    /* ATSP is a FULL_MATRIX of directed costs */
    EXPECT_ERROR("DIMENSION : 3\nEDGE_WEIGHT_TYPE : EUC_2D\nNODE_COORD_SECTION\n1 0 0\n2 1 0\n"
                 "3 0 1\nTYPE : ATSP\n", WT_STATUS_UNSUPPORTED, "test:2:", "EXPLICIT");
}

static void test_unsupported_edge_weight_type(void **state)
{
    (void)state;
    const char *types[] = {"GEOM", "XRAY1", "XRAY2", "SPECIAL", "MAN_3D", "MAX_3D", "CEIL_3D",
                           "ATT_2D", "euc_2d", ""};
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++) {
        char text[200];
        int len = snprintf(text, sizeof text, "NAME : t\nDIMENSION : 3\nEDGE_WEIGHT_TYPE : %s\n",
                           types[i]);
        expect_error_at(text, (size_t)len, WT_STATUS_UNSUPPORTED, "test:3:", "EUC_2D", __FILE__,
                        __LINE__);
    }
    EXPECT_ERROR("EDGE_WEIGHT_TYPE : EUC_2D\nEDGE_WEIGHT_TYPE : ATT\n", WT_STATUS_PARSE,
                 "test:2:", "contradicts");
}

static void test_missing_edge_weight_type(void **state)
{
    (void)state;
    EXPECT_ERROR("NAME : t\nTYPE : TSP\nDIMENSION : 3\nEOF\n", WT_STATUS_PARSE, "test:4:",
                 "no EDGE_WEIGHT_TYPE");
    EXPECT_ERROR("NAME : t\nTYPE : TSP\nDIMENSION : 3\nNODE_COORD_SECTION\n1 0 0\n2 1 0\n3 0 1\n",
                 WT_STATUS_PARSE, "test:4:", "before EDGE_WEIGHT_TYPE");
}

static void test_section_before_dimension(void **state)
{
    (void)state;
    EXPECT_ERROR("NAME : t\nEDGE_WEIGHT_TYPE : EUC_2D\nNODE_COORD_SECTION\n1 0 0\n2 1 0\n3 0 1\n"
                 "DIMENSION : 3\n", WT_STATUS_PARSE, "test:3:", "before DIMENSION");
    EXPECT_ERROR("EDGE_WEIGHT_TYPE : EXPLICIT\nEDGE_WEIGHT_FORMAT : UPPER_ROW\n"
                 "EDGE_WEIGHT_SECTION\n1 2 3\nDIMENSION : 3\n", WT_STATUS_PARSE, "test:3:",
                 "before DIMENSION");
    EXPECT_ERROR("DISPLAY_DATA_SECTION\n1 0 0\n", WT_STATUS_PARSE, "test:1:", "before DIMENSION");
}

static void test_missing_node_section(void **state)
{
    (void)state;
    EXPECT_ERROR(HEAD3 "EOF\n", WT_STATUS_PARSE, "test:5:", "no NODE_COORD_SECTION");
    EXPECT_ERROR(HEAD3 "NODE_COORD_SECTION\n1 0 0\n2 1 0\n3 0 1\nNODE_COORD_SECTION\n1 0 0\n",
                 WT_STATUS_PARSE, "test:9:", "second NODE_COORD_SECTION");
    EXPECT_ERROR(HEAD3 "EDGE_WEIGHT_SECTION\n1 2 3\n", WT_STATUS_PARSE, "test:5:",
                 "EXPLICIT");
}

static void test_neither_keyword_nor_data(void **state)
{
    (void)state;
    EXPECT_ERROR("NAME : t\n%% a comment?\n", WT_STATUS_PARSE, "test:2:",
                 "expected a keyword line");
    EXPECT_ERROR("NAME : t\nTYPE TSP\n", WT_STATUS_PARSE, "test:2:", "expected a keyword line");
    EXPECT_ERROR("NAME : t\nDIMENSION\n", WT_STATUS_PARSE, "test:2:", "expected a keyword line");
    EXPECT_ERROR("NAME : t\n1 2 3\n", WT_STATUS_PARSE, "test:2:", "expected a keyword line");
    EXPECT_ERROR("NAME : t\nNODE_COORD_SECTION : 1 2 3\n", WT_STATUS_PARSE, "test:2:",
                 "alone");
}

/* --------------------------------------------------------- bad bytes */

static void test_binary_garbage(void **state)
{
    (void)state;
    EXPECT_ERROR("\x00\x01\x02\x03\xff\xfe", WT_STATUS_PARSE, "test:1:",
                 "expected a keyword line");
    EXPECT_ERROR("\x00\x00\x00\x00", WT_STATUS_PARSE, "test:1:", "'\\x00\\x00\\x00\\x00'");
    EXPECT_ERROR("NAME : t\nTYPE : TSP\n\x7f" "ELF\x02\x01\x01\x00\x00\n", WT_STATUS_PARSE,
                 "test:3:", "expected a keyword line");
    EXPECT_ERROR("NAME\x00 : t\n", WT_STATUS_PARSE, "test:1:", "expected a keyword line");
}

/* Random bytes never crash the reader and always get a one-line message
 * that names the source. */
static void test_random_bytes(void **state)
{
    (void)state;
    uint64_t s = 0x9e3779b97f4a7c15u;
    char buf[3000];
    for (int round = 0; round < 400; round++) {
        size_t len = (size_t)(round * 7 % (int)sizeof buf);
        for (size_t i = 0; i < len; i++) {
            s = s * 6364136223846793005u + 1442695040888963407u;
            /* mostly printable and newlines, sometimes anything */
            unsigned b = (unsigned)(s >> 56);
            buf[i] = round % 3 == 0 ? (char)b : (b % 9 == 0 ? '\n' : (char)(' ' + b % 95));
        }
        wt_instance *inst = NULL;
        wt_error err = {0};
        wt_status st = parse_exact(buf, len, "test", &inst, &err);
        assert_int_not_equal(st, WT_OK);
        assert_null(inst);
        check_message(&err, "test:", " ", __FILE__, __LINE__);
    }
}

/* A valid file cut at every byte either still parses (a cut that only loses
 * trailing digits of the last node or the EOF line) or fails cleanly. */
static void test_truncated_files(void **state)
{
    (void)state;
    static const char full[] =
        "NAME : cut\nTYPE : TSP\nDIMENSION : 4\nEDGE_WEIGHT_TYPE : EUC_2D\n"
        "NODE_COORD_SECTION\n1 10.5 20.25\n2 30 40\n3 -5e1 60\n4 70 80\nEOF\n";
    static const char explicit_full[] =
        "NAME : cutx\nTYPE : TSP\nDIMENSION : 4\nEDGE_WEIGHT_TYPE : EXPLICIT\n"
        "EDGE_WEIGHT_FORMAT : UPPER_ROW\nEDGE_WEIGHT_SECTION\n10 20\n30 40 50\n60\n"
        "DISPLAY_DATA_SECTION\n1 0 0\n2 1 0\n3 1 1\n4 0 1\nEOF\n";
    const char *texts[] = {full, explicit_full};
    size_t lens[] = {sizeof full - 1, sizeof explicit_full - 1};
    for (int t = 0; t < 2; t++) {
        int ok = 0;
        for (size_t cut = 0; cut <= lens[t]; cut++) {
            wt_instance *inst = NULL;
            wt_error err = {0};
            wt_status st = parse_exact(texts[t], cut, "test", &inst, &err);
            if (st == WT_OK) {
                assert_int_equal(wt_instance_n(inst), 4);
                ok++;
            } else {
                /* UNSUPPORTED for a type cut short: "EDGE_WEIGHT_TYPE : EUC_" */
                assert_true(st == WT_STATUS_PARSE || st == WT_STATUS_UNSUPPORTED);
                check_message(&err, "test:", "expected", __FILE__, __LINE__);
            }
            wt_instance_free(inst);
        }
        assert_true(ok >= 5); /* at least the EOF line can go */
    }
    EXPECT_ERROR("NAME : t\nTYPE : TSP\nDIMENSION : 3\nEDGE_WEIGHT_TYPE : EUC_2D\n"
                 "NODE_COORD_SECTION\n1 10 10\n2 10 10\n3 1", WT_STATUS_PARSE, "test:8:",
                 "no y coordinate");
    EXPECT_ERROR("NAME : t\nTYPE : TSP\nDIMENS", WT_STATUS_PARSE, "test:3:",
                 "expected a keyword line");
    EXPECT_ERROR("NAME : t\nTYPE : TSP\nDIMENSION : 3\nEDGE_WEIGHT_TYPE : EUC_2D\n"
                 "NODE_COORD_SEC", WT_STATUS_PARSE, "test:5:", "expected a keyword line");
}

/* ------------------------------------------------------------ EXPLICIT */

#define XHEAD(fmt) "NAME : x\nTYPE : TSP\nDIMENSION : 4\nEDGE_WEIGHT_TYPE : EXPLICIT\n" \
                   "EDGE_WEIGHT_FORMAT : " fmt "\n"

static void test_explicit_too_few_weights(void **state)
{
    (void)state;
    EXPECT_ERROR(XHEAD("UPPER_ROW") "EDGE_WEIGHT_SECTION\n10 20 30\n40 50\n", WT_STATUS_PARSE,
                 "test:9:", "expected weight 6 of 6 in EDGE_WEIGHT_SECTION (UPPER_ROW), found end");
    EXPECT_ERROR(XHEAD("UPPER_ROW") "EDGE_WEIGHT_SECTION\n10 20 30\n40 50\nEOF\n", WT_STATUS_PARSE,
                 "test:9:", "found 'EOF'");
    EXPECT_ERROR(XHEAD("FULL_MATRIX") "EDGE_WEIGHT_SECTION\n0 1 2 3\n1 0 4 5\n2 4 0 6\n3 5 6\n"
                 "DISPLAY_DATA_SECTION\n", WT_STATUS_PARSE, "test:11:", "expected weight 16 of 16");
}

static void test_explicit_too_many_weights(void **state)
{
    (void)state;
    EXPECT_ERROR(XHEAD("UPPER_ROW") "EDGE_WEIGHT_SECTION\n1 2 3\n4 5 6 7\n", WT_STATUS_PARSE,
                 "test:8:", "more weights");
    EXPECT_ERROR(XHEAD("UPPER_ROW") "EDGE_WEIGHT_SECTION\n1 2 3\n4 5 6\n7\nEOF\n",
                 WT_STATUS_PARSE, "test:9:", "more weights");
}

static void test_explicit_without_format(void **state)
{
    (void)state;
    EXPECT_ERROR("NAME : x\nDIMENSION : 4\nEDGE_WEIGHT_TYPE : EXPLICIT\nEDGE_WEIGHT_SECTION\n"
                 "1 2 3 4 5 6\n", WT_STATUS_PARSE, "test:4:", "EDGE_WEIGHT_FORMAT");
    EXPECT_ERROR("NAME : x\nDIMENSION : 4\nEDGE_WEIGHT_TYPE : EXPLICIT\nEOF\n", WT_STATUS_PARSE,
                 "test:4:", "without a matrix EDGE_WEIGHT_FORMAT");
    EXPECT_ERROR(XHEAD("FUNCTION") "EDGE_WEIGHT_SECTION\n1 2 3 4 5 6\n", WT_STATUS_PARSE,
                 "test:6:", "UPPER_ROW");
    EXPECT_ERROR(XHEAD("UPPER_ROWS"), WT_STATUS_PARSE, "test:5:", "FULL_MATRIX");
    EXPECT_ERROR(XHEAD("UPPER_ROW") "EOF\n", WT_STATUS_PARSE, "test:6:", "no EDGE_WEIGHT_SECTION");
}

static void test_explicit_bad_weights(void **state)
{
    (void)state;
    EXPECT_ERROR(XHEAD("UPPER_ROW") "EDGE_WEIGHT_SECTION\n1 2 -3\n4 5 6\n", WT_STATUS_PARSE,
                 "test:7:", "weight 3, '-3', is not an integer in 0..2147483647");
    EXPECT_ERROR(XHEAD("UPPER_ROW") "EDGE_WEIGHT_SECTION\n1 2 3\n4 -5.5 6\n", WT_STATUS_PARSE,
                 "test:8:", "'-5.5'");
    EXPECT_ERROR(XHEAD("UPPER_ROW") "EDGE_WEIGHT_SECTION\n1 2 3\n4 2147483648 6\n",
                 WT_STATUS_PARSE, "test:8:", "0..2147483647");
    EXPECT_ERROR(XHEAD("UPPER_ROW") "EDGE_WEIGHT_SECTION\n1 2 3\n4 x 6\n", WT_STATUS_PARSE,
                 "test:8:", "'x'");
    wt_instance *inst = PARSE_OK(XHEAD("UPPER_ROW") "EDGE_WEIGHT_SECTION\n1 2 2147483647\n4 5 6\n");
    assert_int_equal(wt_instance_dist(inst, 0, 3), 2147483647);
    wt_instance_free(inst);
    /* Real weights: fixed point, as wt_instance_from_matrix holds them */
    inst = PARSE_OK(XHEAD("UPPER_ROW") "EDGE_WEIGHT_SECTION\n1 2 3\n4 5.5 6\n");
    double unit = wt_instance_length_unit(inst);
    assert_true(unit < 1.0);
    assert_true(wt_instance_dist(inst, 1, 3) * unit == 5.5);
    assert_true(wt_instance_dist(inst, 3, 1) * unit == 5.5);
    assert_true(wt_instance_dist(inst, 0, 1) * unit == 1.0);
    assert_false(wt_instance_is_asymmetric(inst));
    wt_instance_free(inst);
}

static void test_atsp(void **state)
{
    (void)state;
    /* the diagonal (9999, -1) ignored; directed costs kept */
    wt_instance *inst = PARSE_OK("NAME : a\nTYPE : ATSP\nDIMENSION : 3\nEDGE_WEIGHT_TYPE : "
                                 "EXPLICIT\nEDGE_WEIGHT_FORMAT : FULL_MATRIX\n"
                                 "EDGE_WEIGHT_SECTION\n9999 1 7\n8 -1 2\n3 9 9999\nEOF\n");
    assert_true(wt_instance_is_asymmetric(inst));
    assert_int_equal(wt_instance_n(inst), 3);
    assert_int_equal(wt_instance_dist(inst, 0, 1), 1);
    assert_int_equal(wt_instance_dist(inst, 1, 0), 8);
    assert_int_equal(wt_instance_dist(inst, 1, 1), 0);
    int32_t fwd[3] = {0, 1, 2}, back[3] = {0, 2, 1};
    assert_int_equal(wt_tour_length(inst, fwd), 1 + 2 + 3);
    assert_int_equal(wt_tour_length(inst, back), 7 + 9 + 8);
    wt_params p;
    wt_params_defaults(&p);
    p.threads = 1;
    p.kicks = 10;
    wt_result r;
    wt_error err;
    assert_int_equal(wt_solve(inst, &p, &r, &err), WT_OK);
    assert_int_equal(r.n, 3);
    assert_int_equal(r.length, 6);
    assert_int_equal(wt_tour_length(inst, r.tour), 6);
    wt_result_free(&r);
    p.algorithm = WT_ALGO_2OPT;
    assert_int_equal(wt_solve(inst, &p, &r, &err), WT_STATUS_UNSUPPORTED);
    assert_non_null(strstr(err.message, "asymmetric"));
    wt_instance_free(inst);
    EXPECT_ERROR("TYPE : ATSP\nDIMENSION : 3\nEDGE_WEIGHT_TYPE : EXPLICIT\nEDGE_WEIGHT_FORMAT : "
                 "FULL_MATRIX\nEDGE_WEIGHT_SECTION\n0 1 2\n3 0 4\n5 6 0\nFIXED_EDGES_SECTION\n"
                 "1 2\n-1\n", WT_STATUS_UNSUPPORTED, "test:9:", "fixed arcs");
    /* from a matrix: asymmetric accepted, the symmetric call refuses it */
    double d[9] = {0, 1, 7, 8, 0, 2, 3, 9, 0};
    assert_int_equal(wt_instance_from_asymmetric_matrix("m", 3, d, &inst, &err), WT_OK);
    assert_int_equal(wt_instance_dist(inst, 2, 0), 3);
    wt_instance_free(inst);
    assert_int_equal(wt_instance_from_matrix("m", 3, d, &inst, &err),
                     WT_STATUS_INVALID_ARGUMENT);
    assert_non_null(strstr(err.message, "not symmetric"));
}

static void test_explicit_asymmetric(void **state)
{
    (void)state;
    EXPECT_ERROR(XHEAD("FULL_MATRIX") "EDGE_WEIGHT_SECTION\n0 1 2 3\n1 0 4 5\n2 4 0 6\n3 9 6 0\n",
                 WT_STATUS_PARSE, "test:10:", "matrix is not symmetric at (4,2)");
}

static void test_explicit_too_large(void **state)
{
    (void)state;
    /* named at the DIMENSION line, the value at fault */
    EXPECT_ERROR("NAME : big\nDIMENSION : 46341\nEDGE_WEIGHT_TYPE : EXPLICIT\n"
                 "EDGE_WEIGHT_FORMAT : UPPER_ROW\nEDGE_WEIGHT_SECTION\n1 2 3\n",
                 WT_STATUS_TOO_LARGE, "test:2:", "at most 46340");
}

/* The 5-city matrix d(i,j) = 10*i + j for cities i < j numbered from 1,
 * written by hand in each of the nine formats, wrapped at odd places. */
static void test_explicit_formats(void **state)
{
    (void)state;
    static const struct {
        const char *format, *weights;
    } cases[] = {
        {"FULL_MATRIX", "0 12 13 14 15\n12 0 23 24 25\n13 23 0 34 35\n14 24 34 0 45\n"
                        "15 25 35 45 0\n"},
        {"UPPER_ROW", "12 13 14 15 23\n24 25\n34 35 45\n"},
        {"LOWER_ROW", "12\n13 23\n14 24 34\n15 25 35 45\n"},
        {"UPPER_DIAG_ROW", "0 12 13 14 15 0 23 24 25 0 34 35 0 45 0\n"},
        {"LOWER_DIAG_ROW", "0\n12 0\n13 23 0\n14 24 34 0\n15 25 35 45 0\n"},
        {"UPPER_COL", "12\n13 23\n14 24 34\n15 25 35 45\n"},
        {"LOWER_COL", "12 13 14 15\n23 24 25\n34 35\n45\n"},
        {"UPPER_DIAG_COL", "0 12 0 13 23\n0 14 24 34 0 15 25 35 45 0\n"},
        {"LOWER_DIAG_COL", "0 12 13 14 15\n0 23 24 25\n0 34 35\n0 45\n0\n"},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        char text[400];
        int len = snprintf(text, sizeof text, "NAME : m\nTYPE : TSP\nDIMENSION : 5\n"
                           "EDGE_WEIGHT_TYPE : EXPLICIT\nEDGE_WEIGHT_FORMAT : %s\n"
                           "EDGE_WEIGHT_SECTION\n%sEOF\n", cases[c].format, cases[c].weights);
        wt_instance *inst = parse_ok(text, (size_t)len);
        assert_int_equal(wt_instance_type(inst), WT_EXPLICIT);
        for (int i = 0; i < 5; i++)
            for (int j = 0; j < 5; j++) {
                int lo = i < j ? i : j, hi = i < j ? j : i;
                int64_t want = i == j ? 0 : 10 * (lo + 1) + hi + 1;
                if (inst->matrix[i * 5 + j] != want)
                    fail_msg("%s: d(%d,%d) = %d, expected %lld", cases[c].format, i + 1, j + 1,
                             inst->matrix[i * 5 + j], (long long)want);
            }
        const double *x, *y;
        assert_false(wt_instance_coords(inst, &x, &y));
        wt_instance_free(inst);
    }
}

/* --------------------------------------------------------- distances */

/* Parses a 3-city (or 4-city) instance of the given type and points. */
static wt_instance *points(const char *type, const char *nodes, int n)
{
    char text[600];
    int len = snprintf(text, sizeof text, "NAME : d\nTYPE : TSP\nDIMENSION : %d\n"
                       "EDGE_WEIGHT_TYPE : %s\nNODE_COORD_SECTION\n%s", n, type, nodes);
    return parse_ok(text, (size_t)len);
}

static void test_dist_euc_2d(void **state)
{
    (void)state;
    wt_instance *inst = points("EUC_2D", "1 0 0\n2 3 4\n3 1.5 2\n4 1 1\n", 4);
    assert_int_equal(wt_instance_dist(inst, 0, 1), 5);
    assert_int_equal(wt_instance_dist(inst, 0, 2), 3); /* 2.5 rounds half up */
    assert_int_equal(wt_instance_dist(inst, 0, 3), 1); /* 1.414 */
    assert_int_equal(wt_instance_dist(inst, 1, 3), 4); /* sqrt(13) = 3.606 */
    assert_int_equal(wt_instance_dist(inst, 3, 1), 4);
    wt_instance_free(inst);
}

static void test_dist_ceil_2d(void **state)
{
    (void)state;
    wt_instance *inst = points("CEIL_2D", "1 0 0\n2 3 4\n3 1 1\n4 0 0.1\n", 4);
    assert_int_equal(wt_instance_dist(inst, 0, 1), 5); /* an exact integer stays */
    assert_int_equal(wt_instance_dist(inst, 0, 2), 2);
    assert_int_equal(wt_instance_dist(inst, 0, 3), 1);
    wt_instance_free(inst);
}

static void test_dist_att(void **state)
{
    (void)state;
    wt_instance *inst = points("ATT", "1 0 0\n2 10 0\n3 10 30\n4 3 4\n", 4);
    assert_int_equal(wt_instance_dist(inst, 0, 1), 4);  /* r = 3.162: rounds up */
    assert_int_equal(wt_instance_dist(inst, 0, 2), 10); /* r = 10 exactly: stays */
    assert_int_equal(wt_instance_dist(inst, 0, 3), 2);  /* r = 1.58 */
    wt_instance_free(inst);
}

/* Values from the TSPLIB formula by hand (Python).  38.59 is 38 degrees 59
 * minutes: truncating the degrees gives 110 between the first two cities;
 * rounding them (the PDF's "nint") would give 36. */
static void test_dist_geo(void **state)
{
    (void)state;
    wt_instance *inst = points("GEO", "1 38.59 20.00\n2 38.00 20.00\n3 -12.50 -70.30\n"
                               "4 38.00 20.00\n", 4);
    assert_int_equal(wt_instance_dist(inst, 0, 1), 110);
    assert_int_equal(wt_instance_dist(inst, 0, 2), 10956);
    assert_int_equal(wt_instance_dist(inst, 1, 2), 10938);
    assert_int_equal(wt_instance_dist(inst, 1, 3), 1); /* the same place is 1 km: +1 always */
    wt_instance_free(inst);
    EXPECT_ERROR("DIMENSION : 3\nEDGE_WEIGHT_TYPE : GEO\nNODE_COORD_SECTION\n1 0 0\n2 1e76 0\n"
                 "3 0 1\n", WT_STATUS_PARSE, "test:5:", "degrees.minutes");
    EXPECT_ERROR("DIMENSION : 3\nEDGE_WEIGHT_TYPE : GEO\nNODE_COORD_SECTION\n1 0 0\n2 0 -360.01\n"
                 "3 0 1\n", WT_STATUS_PARSE, "test:5:", "y coordinate of node 2");
}

static void test_dist_man_max_2d(void **state)
{
    (void)state;
    wt_instance *man = points("MAN_2D", "1 0 0\n2 3 4.4\n3 1.25 1.25\n", 3);
    assert_int_equal(wt_instance_dist(man, 0, 1), 7);
    assert_int_equal(wt_instance_dist(man, 0, 2), 3); /* 2.5 rounds up */
    wt_instance_free(man);
    wt_instance *max = points("MAX_2D", "1 0 0\n2 3 4.6\n3 -2.5 1\n", 3);
    assert_int_equal(wt_instance_dist(max, 0, 1), 5);
    assert_int_equal(wt_instance_dist(max, 0, 2), 3);
    assert_int_equal(wt_instance_dist(max, 1, 2), 6); /* max(nint 5.5, nint 3.6) */
    wt_instance_free(max);
}

static void test_dist_euc_3d(void **state)
{
    (void)state;
    wt_instance *inst = points("EUC_3D", "1 0 0 0\n2 1 2 2\n3 1 1 1\n", 3);
    assert_int_equal(wt_instance_dist(inst, 0, 1), 3);
    assert_int_equal(wt_instance_dist(inst, 0, 2), 2); /* 1.732 */
    assert_int_equal(wt_instance_dist(inst, 1, 2), 1); /* 1.414 */
    double lo[3], hi[3];
    assert_true(wt_instance_bbox(inst, lo, hi));
    assert_true(hi[2] == 2.0);
    wt_instance_free(inst);
}

/* ------------------------------------------------------- odd but valid */

static void test_three_and_four_cities(void **state)
{
    (void)state;
    wt_instance *inst = PARSE_OK(HEAD3 "NODE_COORD_SECTION\n1 0 0\n2 3 0\n3 0 4\nEOF\n");
    assert_int_equal(wt_instance_n(inst), 3);
    assert_int_equal(wt_instance_dist(inst, 1, 2), 5);
    assert_string_equal(wt_instance_name(inst), "t");
    assert_string_equal(wt_instance_comment(inst), "");
    wt_instance_free(inst);
    inst = PARSE_OK(rect4);
    assert_int_equal(wt_instance_n(inst), 4);
    assert_int_equal(wt_instance_dist(inst, 0, 2), 5);
    assert_int_equal(wt_instance_known_optimum(inst), -1);
    wt_instance_free(inst);
}

static void test_degenerate_points(void **state)
{
    (void)state;
    wt_instance *same = PARSE_OK(HEAD3 "NODE_COORD_SECTION\n1 7 7\n2 7 7\n3 7 7\n");
    assert_int_equal(wt_instance_dist(same, 0, 1), 0);
    assert_int_equal(wt_instance_dist(same, 1, 2), 0);
    wt_instance_free(same);
    wt_instance *line = PARSE_OK(HEAD3 "NODE_COORD_SECTION\n1 0 0\n2 5 5\n3 10 10\n");
    assert_int_equal(wt_instance_dist(line, 0, 2), 14);
    assert_int_equal(wt_instance_dist(line, 0, 1), 7);
    wt_instance_free(line);
}

static void test_large_and_negative_coordinates(void **state)
{
    (void)state;
    wt_instance *inst = PARSE_OK(HEAD3 "NODE_COORD_SECTION\n1 -1e12 0\n2 1e12 0\n"
                                 "3 -1000000000000 -2.5E+3\n");
    assert_int_equal(wt_instance_dist(inst, 0, 1), 2000000000000LL);
    assert_int_equal(wt_instance_dist(inst, 0, 2), 2500);
    wt_instance_free(inst);
}

static void test_long_comment(void **state)
{
    (void)state;
    size_t big = 2u << 20;
    const char *head = "NAME : c\nCOMMENT : ";
    const char *tail = "\nCOMMENT: second\nTYPE : TSP\nDIMENSION : 3\nEDGE_WEIGHT_TYPE : EUC_2D\n"
                       "NODE_COORD_SECTION\n1 0 0\n2 1 0\n3 0 1\nEOF\n";
    size_t hl = strlen(head), tl = strlen(tail), len = hl + big + tl;
    char *text = malloc(len);
    assert_non_null(text);
    memcpy(text, head, hl);
    memset(text + hl, 'c', big);
    memcpy(text + hl + big, tail, tl);
    wt_instance *inst = parse_ok(text, len);
    free(text);
    const char *comment = wt_instance_comment(inst);
    assert_int_equal(strlen(comment), big + strlen("; second"));
    assert_string_equal(comment + big, "; second");
    assert_int_equal(wt_instance_n(inst), 3);
    wt_instance_free(inst);
}

static void test_line_ends_and_spacing(void **state)
{
    (void)state;
    wt_instance *inst = PARSE_OK("NAME:crlf\r\nTYPE :TSP\r\nDIMENSION\t:\t4\r\n"
                                 "  EDGE_WEIGHT_TYPE  :   EUC_2D  \r\nNODE_COORD_SECTION\r\n"
                                 "\t1\t0\t0\r\n  2  3 0 \r\n3 3 4\r\n\r\n4 0\t4\r\n EOF \r\n");
    assert_int_equal(wt_instance_n(inst), 4);
    assert_string_equal(wt_instance_name(inst), "crlf");
    assert_int_equal(wt_instance_dist(inst, 0, 2), 5);
    wt_instance_free(inst);
    /* no EOF and no final newline */
    inst = PARSE_OK(HEAD3 "NODE_COORD_SECTION\n1 0 0\n2 3 0\n3 0 4");
    assert_int_equal(wt_instance_dist(inst, 1, 2), 5);
    wt_instance_free(inst);
    /* a byte order mark, and what follows EOF, are ignored */
    inst = PARSE_OK("\xef\xbb\xbf" HEAD3
                    "NODE_COORD_SECTION\n1 0 0\n2 3 0\n3 0 4\nEOF\ngarbage\x01\n");
    assert_int_equal(wt_instance_n(inst), 3);
    wt_instance_free(inst);
}

/* A list of points without a header is told what it lacks; numbers later
 * in a file are not taken for one. */
static void test_bare_coordinates(void **state)
{
    (void)state;
    EXPECT_ERROR("\n1 0.5 2\n2 3 4\n", WT_STATUS_PARSE, "test:2:", "bare coordinates need a "
                 "TSPLIB header first (NAME, DIMENSION, EDGE_WEIGHT_TYPE, NODE_COORD_SECTION)");
    wt_instance *inst = NULL;
    wt_error err = {0};
    static const char late[] = "NAME : x\n1 2 3\n";
    assert_int_equal(wt_instance_parse_tsplib(late, sizeof late - 1, "t", &inst, &err),
                     WT_STATUS_PARSE);
    assert_null(strstr(err.message, "bare"));
}

/* Classic Mac OS text: lines end in a lone CR, and errors count them. */
static void test_cr_line_ends(void **state)
{
    (void)state;
    wt_instance *inst = PARSE_OK("NAME : mac\rTYPE : TSP\rDIMENSION : 3\r"
                                 "EDGE_WEIGHT_TYPE : EUC_2D\rNODE_COORD_SECTION\r"
                                 "1 0 0\r2 3 0\r\r3 0 4\rEOF\r");
    assert_string_equal(wt_instance_name(inst), "mac");
    assert_int_equal(wt_instance_dist(inst, 1, 2), 5);
    wt_instance_free(inst);
    EXPECT_ERROR("NAME : mac\rTYPE : TSP\rDIMENSION : 3\rEDGE_WEIGHT_TYPE : EUC_2D\r"
                 "NODE_COORD_SECTION\r1 0 0\r2 3 x\r3 0 4\r",
                 WT_STATUS_PARSE, "test:7:", "node 2");
    /* With an LF anywhere, a CR is a blank: here one inside the NAME. */
    inst = PARSE_OK("NAME : a\rb\nTYPE : TSP\nDIMENSION : 3\nEDGE_WEIGHT_TYPE : EUC_2D\n"
                    "NODE_COORD_SECTION\n1 0 0\n2 3 0\n3 0 4\n");
    assert_int_equal(wt_instance_n(inst), 3);
    wt_instance_free(inst);
}

static void test_odd_order_and_skipped_parts(void **state)
{
    (void)state;
    wt_instance *inst = PARSE_OK(
        "EDGE_WEIGHT_TYPE: EUC_2D\nCAPACITY : 100\nDIMENSION: 3\nNODE_COORD_TYPE : TWOD_COORDS\n"
        "DISPLAY_DATA_TYPE : COORD_DISPLAY\nFOO_BAR : baz\n"
        "FIXED_EDGES_SECTION\n1 2\n-1\nDEMAND_SECTION\n1 0\n2 5\n3 5\n"
        "NODE_COORD_SECTION\n3 0 4\n1 0 0\n2 3 0\n"
        "TOUR_SECTION\n1 2 3 -1\n-1\nDEPOT_SECTION\n1\n-1\nMYSTERY_SECTION\n9 9 9\n"
        "NAME : late.tsp\nCOMMENT : one\nCOMMENT :\nCOMMENT : two\nTYPE: TSP (remark)\nEOF\n");
    assert_int_equal(wt_instance_n(inst), 3);
    assert_string_equal(wt_instance_name(inst), "late");
    assert_string_equal(wt_instance_comment(inst), "one; two");
    assert_int_equal(wt_instance_dist(inst, 0, 2), 4); /* ids out of order land in place */
    assert_int_equal(wt_instance_dist(inst, 1, 2), 5);
    wt_instance_free(inst);
}

static void test_display_data(void **state)
{
    (void)state;
    /* after EDGE_WEIGHT_SECTION; kept for drawing, never for distances */
    wt_instance *inst = PARSE_OK(XHEAD("UPPER_ROW") "EDGE_WEIGHT_SECTION\n1 2 3\n4 5 6\n"
                                 "DISPLAY_DATA_SECTION\n1 0 0\n2 100 0\n3 100 100\n4 0 100\nEOF\n");
    const double *x, *y;
    assert_true(wt_instance_coords(inst, &x, &y));
    assert_true(x[1] == 100.0 && y[2] == 100.0);
    assert_int_equal(wt_instance_dist(inst, 0, 1), 1);
    assert_int_equal(wt_instance_dist(inst, 2, 3), 6);
    wt_instance_free(inst);
    /* in a coordinate instance it is checked and skipped */
    inst = PARSE_OK(HEAD3 "DISPLAY_DATA_SECTION\n1 50 50\n2 60 60\n3 70 70\n"
                    "NODE_COORD_SECTION\n1 0 0\n2 3 0\n3 0 4\n");
    assert_true(wt_instance_coords(inst, &x, &y));
    assert_true(x[1] == 3.0);
    wt_instance_free(inst);
    EXPECT_ERROR(HEAD3 "DISPLAY_DATA_SECTION\n1 50 50\n2 60 60\n2 70 70\n", WT_STATUS_PARSE,
                 "test:8:", "twice");
    EXPECT_ERROR(XHEAD("UPPER_ROW") "EDGE_WEIGHT_SECTION\n1 2 3\n4 5 6\nDISPLAY_DATA_SECTION\n"
                 "1 0 0\n2 1 0\n3 1 1\n4 0 1\nDISPLAY_DATA_SECTION\n", WT_STATUS_PARSE, "test:14:",
                 "second DISPLAY_DATA_SECTION");
}

static void test_name_from_source(void **state)
{
    (void)state;
    static const char text[] = "DIMENSION : 3\nEDGE_WEIGHT_TYPE : EUC_2D\nNODE_COORD_SECTION\n"
                               "1 0 0\n2 3 0\n3 0 4\n";
    wt_instance *inst = NULL;
    wt_error err = {0};
    assert_int_equal(parse_exact(text, sizeof text - 1, "some/dir/my.file.tsp", &inst, &err),
                     WT_OK);
    assert_string_equal(wt_instance_name(inst), "my.file");
    wt_instance_free(inst);
    assert_int_equal(parse_exact(text, sizeof text - 1, NULL, &inst, &err), WT_OK);
    wt_instance_free(inst);
}

/* ------------------------------------------------------------- files */

static char *write_temp(const char *text, size_t len)
{
    char tmpl[] = "/tmp/wt_test_instance_XXXXXX";
    int fd = mkstemp(tmpl);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, text, len), (ssize_t)len);
    close(fd);
    return strdup(tmpl);
}

static void test_read_file(void **state)
{
    (void)state;
    char *path = write_temp(rect4, sizeof rect4 - 1);
    wt_instance *inst = NULL;
    wt_error err = {0};
    assert_int_equal(wt_instance_read_tsplib(path, &inst, &err), WT_OK);
    assert_int_equal(wt_instance_n(inst), 4);
    assert_string_equal(wt_instance_name(inst), "rect");
    wt_instance_free(inst);
    unlink(path);
    free(path);

    static const char bad[] = "NAME : b\nDIMENSION : x\n";
    path = write_temp(bad, sizeof bad - 1);
    assert_int_equal(wt_instance_read_tsplib(path, &inst, &err), WT_STATUS_PARSE);
    char where[100];
    snprintf(where, sizeof where, "%s:2:", path);
    check_message(&err, where, "integer", __FILE__, __LINE__);
    unlink(path);
    free(path);
}

static void test_read_errors(void **state)
{
    (void)state;
    wt_instance *inst = NULL;
    wt_error err = {0};
    assert_int_equal(wt_instance_read_tsplib("/nonexistent/x.tsp", &inst, &err), WT_STATUS_IO);
    check_message(&err, "/nonexistent/x.tsp:", "cannot open", __FILE__, __LINE__);
    assert_int_equal(wt_instance_read_tsplib("/tmp", &inst, &err), WT_STATUS_IO);
    assert_null(inst);
    /* An endless stream without a line end is refused at once, not read
     * until memory runs out. */
    if (access("/dev/zero", R_OK) == 0) {
        assert_int_equal(wt_instance_read_tsplib("/dev/zero", &inst, &err), WT_STATUS_PARSE);
        check_message(&err, "/dev/zero:1:", "no line end", __FILE__, __LINE__);
        assert_null(inst);
    }
    assert_int_equal(wt_instance_read_tsplib(NULL, &inst, &err), WT_STATUS_INVALID_ARGUMENT);
    assert_int_equal(wt_instance_parse_tsplib("x", 1, "t", NULL, &err),
                     WT_STATUS_INVALID_ARGUMENT);
    assert_int_equal(wt_instance_parse_tsplib(NULL, 5, "t", &inst, &err),
                     WT_STATUS_INVALID_ARGUMENT);
    /* a NULL wt_error is allowed */
    assert_int_equal(wt_instance_parse_tsplib("x", 1, "t", &inst, NULL), WT_STATUS_PARSE);
}

/* ------------------------------------------------------------- optima */

static void test_optima_lookup(void **state)
{
    (void)state;
    bool proven = false;
    assert_int_equal(wt_optima_lookup("berlin52", 52, &proven), 7542);
    assert_true(proven);
    assert_int_equal(wt_optima_lookup("berlin52", 51, &proven), -1);
    assert_int_equal(wt_optima_lookup("berlin5", 52, &proven), -1);
    assert_int_equal(wt_optima_lookup("", 52, &proven), -1);
    assert_int_equal(wt_optima_lookup("a280", 280, NULL), 2579);
    assert_int_equal(wt_optima_lookup("zi929", 929, &proven), 95345);
    assert_true(proven);
    assert_int_equal(wt_optima_lookup("usa115475", 115475, &proven), 6204999);
    assert_false(proven);
    assert_int_equal(wt_optima_lookup("sra104815", 104814, &proven), 251342);
}

static void test_known_optimum_by_name(void **state)
{
    (void)state;
    /* berlin52's NAME and 52 cities (the points do not matter for the match) */
    char text[4000];
    int len = snprintf(text, sizeof text, "NAME : berlin52.tsp\nTYPE : TSP\nDIMENSION : 52\n"
                       "EDGE_WEIGHT_TYPE : EUC_2D\nNODE_COORD_SECTION\n");
    for (int i = 1; i <= 52; i++)
        len += snprintf(text + len, sizeof text - (size_t)len, "%d %d %d\n", i, i * 7 % 53, i);
    wt_instance *inst = parse_ok(text, (size_t)len);
    assert_string_equal(wt_instance_name(inst), "berlin52");
    assert_int_equal(wt_instance_known_optimum(inst), 7542);
    assert_true(wt_instance_optimum_is_proven(inst));
    wt_instance_free(inst);
    /* same name, other size: no yardstick */
    inst = PARSE_OK("NAME : berlin52\nDIMENSION : 3\nEDGE_WEIGHT_TYPE : EUC_2D\n"
                    "NODE_COORD_SECTION\n1 0 0\n2 1 0\n3 0 1\n");
    assert_int_equal(wt_instance_known_optimum(inst), -1);
    assert_false(wt_instance_optimum_is_proven(inst));
    wt_instance_free(inst);
}

/* NULL arguments are refused, never dereferenced (the status-returning
 * functions say WT_STATUS_INVALID_ARGUMENT, the accessors false). */
static void test_null_arguments(void **state)
{
    (void)state;
    wt_instance *inst = wt_test_parse("NAME : t\nTYPE : TSP\nDIMENSION : 3\n"
                                      "EDGE_WEIGHT_TYPE : EUC_2D\nNODE_COORD_SECTION\n"
                                      "1 0 0\n2 3 0\n3 0 4\nEOF\n");
    wt_error err = {0};
    assert_int_equal(wt_instance_write_tsplib(NULL, stdout, &err), WT_STATUS_INVALID_ARGUMENT);
    assert_non_null(strstr(err.message, "wt_instance_write_tsplib"));
    assert_int_equal(wt_instance_write_tsplib(inst, NULL, &err), WT_STATUS_INVALID_ARGUMENT);
    assert_int_equal(wt_instance_write_tsplib(inst, NULL, NULL), WT_STATUS_INVALID_ARGUMENT);
    const double *x = NULL, *y = NULL;
    assert_false(wt_instance_coords(inst, NULL, NULL));
    assert_false(wt_instance_coords(inst, &x, NULL));
    assert_false(wt_instance_coords(NULL, &x, &y));
    assert_null(x);
    double lo[3], hi[3];
    assert_false(wt_instance_bbox(inst, NULL, NULL));
    assert_false(wt_instance_bbox(inst, lo, NULL));
    assert_false(wt_instance_bbox(NULL, lo, hi));
    assert_true(wt_instance_coords(inst, &x, &y));
    assert_true(wt_instance_bbox(inst, lo, hi));
    assert_true(hi[0] == 3.0 && hi[1] == 4.0);
    wt_instance_free(inst);
}

/* A TSPLIB file that starts with a UTF-8 byte order mark is TSPLIB, read as
 * such by wt_instance_read (not taken for a point file). */
static void test_byte_order_mark(void **state)
{
    (void)state;
    const char text[] = "\xef\xbb\xbfNAME : bom\nTYPE : TSP\nDIMENSION : 3\n"
                        "EDGE_WEIGHT_TYPE : EUC_2D\nNODE_COORD_SECTION\n"
                        "1 0 0\n2 3 0\n3 0 4\nEOF\n";
    assert_true(wt_looks_like_tsplib(text, sizeof text - 1));
    char path[] = "/tmp/wt_bom_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    fwrite(text, 1, sizeof text - 1, f);
    fclose(f);
    wt_instance *inst = NULL;
    wt_error err = {0};
    assert_int_equal(wt_instance_read(path, &inst, &err), WT_OK);
    assert_string_equal(wt_instance_name(inst), "bom");
    assert_int_equal(wt_instance_type(inst), WT_EUC_2D);
    wt_instance_free(inst);
    remove(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_empty_file),
        cmocka_unit_test(test_missing_dimension),
        cmocka_unit_test(test_lower_case_keyword),
        cmocka_unit_test(test_bad_dimension),
        cmocka_unit_test(test_conflicting_dimension),
        cmocka_unit_test(test_dimension_larger_than_file),
        cmocka_unit_test(test_too_few_nodes),
        cmocka_unit_test(test_too_many_nodes),
        cmocka_unit_test(test_node_id_out_of_range),
        cmocka_unit_test(test_node_id_repeated),
        cmocka_unit_test(test_missing_coordinate),
        cmocka_unit_test(test_bad_coordinate),
        cmocka_unit_test(test_nan_and_infinite_coordinates),
        cmocka_unit_test(test_coordinates_too_wide),
        cmocka_unit_test(test_too_wide_message_leaves_name_out),
        cmocka_unit_test(test_unsupported_type),
        cmocka_unit_test(test_unsupported_edge_weight_type),
        cmocka_unit_test(test_missing_edge_weight_type),
        cmocka_unit_test(test_section_before_dimension),
        cmocka_unit_test(test_missing_node_section),
        cmocka_unit_test(test_neither_keyword_nor_data),
        cmocka_unit_test(test_binary_garbage),
        cmocka_unit_test(test_random_bytes),
        cmocka_unit_test(test_truncated_files),
        cmocka_unit_test(test_explicit_too_few_weights),
        cmocka_unit_test(test_explicit_too_many_weights),
        cmocka_unit_test(test_explicit_without_format),
        cmocka_unit_test(test_explicit_bad_weights),
        cmocka_unit_test(test_explicit_asymmetric),
        cmocka_unit_test(test_atsp),
        cmocka_unit_test(test_explicit_too_large),
        cmocka_unit_test(test_explicit_formats),
        cmocka_unit_test(test_dist_euc_2d),
        cmocka_unit_test(test_dist_ceil_2d),
        cmocka_unit_test(test_dist_att),
        cmocka_unit_test(test_dist_geo),
        cmocka_unit_test(test_dist_man_max_2d),
        cmocka_unit_test(test_dist_euc_3d),
        cmocka_unit_test(test_three_and_four_cities),
        cmocka_unit_test(test_degenerate_points),
        cmocka_unit_test(test_large_and_negative_coordinates),
        cmocka_unit_test(test_long_comment),
        cmocka_unit_test(test_line_ends_and_spacing),
        cmocka_unit_test(test_cr_line_ends),
        cmocka_unit_test(test_bare_coordinates),
        cmocka_unit_test(test_odd_order_and_skipped_parts),
        cmocka_unit_test(test_display_data),
        cmocka_unit_test(test_name_from_source),
        cmocka_unit_test(test_read_file),
        cmocka_unit_test(test_read_errors),
        cmocka_unit_test(test_optima_lookup),
        cmocka_unit_test(test_known_optimum_by_name),
        cmocka_unit_test(test_null_arguments),
        cmocka_unit_test(test_byte_order_mark),
    };
    return cmocka_run_group_tests_name("instance", tests, NULL, NULL);
}
