/*
 * test_tour.c - tour validation, exact lengths, TSPLIB TOUR files, SVG.
 */
#include "test_util.h"

#include <sys/stat.h>
#include <unistd.h>

static const char square_tsp[] =
    "NAME: square\nTYPE: TSP\nDIMENSION: 4\nEDGE_WEIGHT_TYPE: EUC_2D\n"
    "NODE_COORD_SECTION\n1 0 0\n2 0 3\n3 4 3\n4 4 0\nEOF\n";

/* Writes len bytes of text (NULs allowed) to a fresh temporary file; returns
 * its malloc'ed path. */
static char *temp_file_n(const char *text, size_t len)
{
    char *path = strdup("/tmp/wt_test_tour_XXXXXX");
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, text, len), (ssize_t)len);
    close(fd);
    return path;
}

static char *temp_file(const char *text) { return temp_file_n(text, strlen(text)); }

static void test_validate(void **state)
{
    (void)state;
    int32_t good[] = {2, 0, 3, 1}, dup[] = {2, 0, 2, 1}, out[] = {0, 1, 4, 3};
    wt_error err = {0};
    assert_int_equal(wt_tour_validate(good, 4, &err), WT_OK);
    assert_int_equal(wt_tour_validate(dup, 4, &err), WT_STATUS_INVALID_TOUR);
    assert_non_null(strstr(err.message, "repeats city 3"));
    assert_int_equal(wt_tour_validate(out, 4, &err), WT_STATUS_INVALID_TOUR);
    assert_non_null(strstr(err.message, "outside"));
}

static void test_length_is_exact(void **state)
{
    (void)state;
    wt_instance *inst = wt_test_parse(square_tsp);
    int32_t around[] = {0, 1, 2, 3}, crossed[] = {0, 2, 1, 3};
    assert_int_equal(wt_tour_length(inst, around), 14);
    assert_int_equal(wt_tour_length(inst, crossed), 5 + 4 + 5 + 4);
    wt_instance_free(inst);
}

static void test_write_read_roundtrip(void **state)
{
    (void)state;
    wt_instance *inst = wt_test_random_instance(500, 4);
    int32_t *t = malloc(500 * sizeof *t), *back = NULL;
    assert_int_equal(wt_tour_init(inst, WT_INIT_RANDOM, 2, t, NULL), WT_OK);
    char *path = temp_file("");
    wt_error err = {0};
    assert_int_equal(wt_tour_write_tsplib(path, "r500", "a test", t, 500, &err), WT_OK);
    assert_int_equal(wt_tour_read_tsplib(path, 500, &back, &err), WT_OK);
    assert_memory_equal(t, back, 500 * sizeof *t);
    /* The same file is not a tour of a 400-city instance. */
    int32_t *none = NULL;
    assert_int_equal(wt_tour_read_tsplib(path, 400, &none, &err), WT_STATUS_INVALID_TOUR);
    assert_null(none);
    unlink(path);
    free(path);
    free(t);
    free(back);
    wt_instance_free(inst);
}

/* Reads len bytes of text as a tour of 4 cities and checks the status and
 * that the message holds needle and is one line. */
static void expect_tour_error_n(const char *text, size_t len, wt_status want,
                                const char *needle)
{
    char *path = temp_file_n(text, len);
    int32_t *t = NULL;
    wt_error err = {0};
    wt_status st = wt_tour_read_tsplib(path, 4, &t, &err);
    if (st != want || !strstr(err.message, needle) || strchr(err.message, '\n'))
        fail_msg("status %d message '%s' (wanted %d with '%s')", st, err.message, want, needle);
    assert_null(t);
    unlink(path);
    free(path);
}

static void expect_tour_error(const char *text, wt_status want, const char *needle)
{
    expect_tour_error_n(text, strlen(text), want, needle);
}

#define EXPECT_TOUR_ERROR_N(text, want, needle) \
    expect_tour_error_n(text, sizeof(text) - 1, want, needle)

static void test_bad_tour_files(void **state)
{
    (void)state;
    expect_tour_error("", WT_STATUS_PARSE, "no TOUR_SECTION");
    expect_tour_error("TOUR_SECTION\n1\n2\n3\n-1\n", WT_STATUS_INVALID_TOUR, "has 3 cities");
    expect_tour_error("TOUR_SECTION\n1\n2\n3\n4\n1\n-1\n", WT_STATUS_INVALID_TOUR, "more than 4");
    expect_tour_error("TOUR_SECTION\n1\n2\n2\n4\n-1\n", WT_STATUS_INVALID_TOUR,
                      ":4: city 2 repeats");
    expect_tour_error("TOUR_SECTION\n1\n2\n5\n4\n-1\n", WT_STATUS_INVALID_TOUR, ":4: city 5");
    expect_tour_error("TOUR_SECTION\n1\n2\nx3\n4\n-1\n", WT_STATUS_PARSE, ":4: expected a city");
    /* a number too long to parse is out of range like any other */
    expect_tour_error("TOUR_SECTION\n1\n2\n99999999999999999999999\n4\n-1\n",
                      WT_STATUS_INVALID_TOUR, ":4: city 99999999999999999999999 is outside");
    expect_tour_error("DIMENSION: 5\nTOUR_SECTION\n1 2 3 4 -1\n", WT_STATUS_INVALID_TOUR,
                      "does not match");
    expect_tour_error("TYPE: TSP\nTOUR_SECTION\n1 2 3 4 -1\n", WT_STATUS_PARSE, "expected TOUR");
    expect_tour_error("TYPE: TOURX\nTOUR_SECTION\n1 2 3 4 -1\n", WT_STATUS_PARSE, "expected TOUR");
    /* Header errors name the header line, not the one after it. */
    expect_tour_error("NAME: t\nDIMENSION: 5\nTOUR_SECTION\n1 2 3 4 -1\n",
                      WT_STATUS_INVALID_TOUR, ":2: tour DIMENSION '5' does not match");
    expect_tour_error("NAME: t\n\nTYPE: TSP\nTOUR_SECTION\n1 2 3 4 -1\n", WT_STATUS_PARSE,
                      ":3: TYPE is 'TSP'");
    expect_tour_error("DIMENSION: 4x\nTOUR_SECTION\n1 2 3 4 -1\n", WT_STATUS_PARSE,
                      ":1: tour DIMENSION '4x' is not a number");
    expect_tour_error("DIMENSION: 4 5\nTOUR_SECTION\n1 2 3 4 -1\n", WT_STATUS_PARSE,
                      "not a number of cities");
    expect_tour_error("DIMENSION\nTOUR_SECTION\n1 2 3 4 -1\n", WT_STATUS_PARSE,
                      ":1: tour DIMENSION '' is not a number");
    expect_tour_error("\x01\x02garbage\n", WT_STATUS_PARSE, ":1: expected");
    /* CR-only lines are counted as lines */
    expect_tour_error("NAME: t\rTOUR_SECTION\r1\r2\r2\r4\r-1\r", WT_STATUS_INVALID_TOUR,
                      ":5: city 2 repeats");
}

/* Header values and bad tokens are shown quoted: control bytes as \xNN, a
 * NUL byte included (a C string would cut "1\0" to "1", a city number). */
static void test_tour_messages_quote_input(void **state)
{
    (void)state;
    expect_tour_error("TYPE: \x1b[2Jx\ry\nTOUR_SECTION\n1 2 3 4 -1\n", WT_STATUS_PARSE,
                      ":1: TYPE is '\\x1b[2Jx\\x0dy', expected TOUR");
    EXPECT_TOUR_ERROR_N("TOUR_SECTION\n1 2\0 3 4 -1\n", WT_STATUS_PARSE,
                        ":2: expected a city number or -1 in TOUR_SECTION, found '2\\x00'");
    /* "DIMENSION: 4\0junk" is not DIMENSION 4. */
    EXPECT_TOUR_ERROR_N("DIMENSION: 4\0junk\nTOUR_SECTION\n1 2 3 4 -1\n", WT_STATUS_PARSE,
                        ":1: expected a 'KEYWORD : value' line, found 'DIMENSION: 4\\x00junk'");
    expect_tour_error("NAME: t\n1 2 3 4\n", WT_STATUS_PARSE, ":2: expected a 'KEYWORD : "
                      "value' line, found '1 2 3 4'");
    /* a huge city number is cut short in the message, not in the check */
    expect_tour_error("TOUR_SECTION\n1 2 1234567890123456789012345678901234567890 4 -1\n",
                      WT_STATUS_INVALID_TOUR, ":2: city 12345678901234567890123456789012... "
                      "is outside 1..4");
    expect_tour_error("TOUR_SECTION\n1 2 12345678901234567890x 4 -1\n", WT_STATUS_PARSE,
                      "found '12345678901234567890x'");
}

/* A city on the TOUR_SECTION line would be taken as the keyword's value and
 * dropped; the file is refused instead, as the instance reader does. */
static void test_tour_section_with_data(void **state)
{
    (void)state;
    expect_tour_error("TOUR_SECTION : 4\n3 2 1 -1\n", WT_STATUS_PARSE,
                      ":1: TOUR_SECTION has data '4' on its own line");
    expect_tour_error("NAME: t\nTOUR_SECTION: 1\n1 2 3 4 -1\n", WT_STATUS_PARSE,
                      ":2: TOUR_SECTION has data '1'");
}

static void test_good_tour_variants(void **state)
{
    (void)state;
    const char *texts[] = {
        "NAME : t\r\nTYPE : TOUR\r\nDIMENSION : 4\r\nTOUR_SECTION\r\n4\r\n3\r\n2\r\n1\r\n-1\r\n"
        "EOF\r\n",
        "TOUR_SECTION\n4 3\n2 1\n",         /* no -1, no EOF */
        "TYPE:TOUR\nTOUR_SECTION\n\t4\t3 2 1 -1\nEOF",
        "TOUR_SECTION :\n4 3 2 1 -1\n",   /* a colon with no value */
        "NAME : t\rTYPE : TOUR\rTOUR_SECTION\r4\r3\r2\r1\r-1\rEOF\r", /* CR-only lines */
    };
    for (size_t k = 0; k < sizeof texts / sizeof texts[0]; k++) {
        char *path = temp_file(texts[k]);
        int32_t *t = NULL;
        wt_error err = {0};
        if (wt_tour_read_tsplib(path, 4, &t, &err) != WT_OK) fail_msg("%s", err.message);
        assert_int_equal(t[0], 3);
        assert_int_equal(t[3], 0);
        free(t);
        unlink(path);
        free(path);
    }
}

static void test_missing_file(void **state)
{
    (void)state;
    int32_t *t = NULL;
    wt_error err = {0};
    assert_int_equal(wt_tour_read_tsplib("/nonexistent/x.tour", 4, &t, &err), WT_STATUS_IO);
    assert_non_null(strstr(err.message, "/nonexistent/x.tour"));
}

static void test_svg(void **state)
{
    (void)state;
    wt_instance *inst = wt_test_random_instance(30000, 6);
    int32_t *t = malloc(30000 * sizeof *t);
    wt_tour_init(inst, WT_INIT_SPACEFILL, 1, t, NULL);
    char *path = temp_file("");
    assert_int_equal(wt_tour_write_svg(path, inst, t, "a <title> & more", NULL), WT_OK);
    FILE *f = fopen(path, "r");
    char head[4096] = {0};
    assert_true(fread(head, 1, sizeof head - 1, f) > 0);
    fclose(f);
    assert_non_null(strstr(head, "<svg"));
    assert_non_null(strstr(head, "a &lt;title&gt; &amp; more"));
    assert_non_null(strstr(head, "<path"));
    unlink(path);
    free(path);
    free(t);
    wt_instance_free(inst);
}

/* The whole of an SVG file written by write(), as a string to free. */
static char *svg_text(const char *path)
{
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    rewind(f);
    char *text = calloc((size_t)size + 1, 1);
    assert_int_equal(fread(text, 1, (size_t)size, f), (size_t)size);
    fclose(f);
    return text;
}

/* The edges drawn: the 'L's of every path's d="...", and whether one
 * closes with 'Z' (which draws one more). */
static int svg_edges(const char *text, bool *closed)
{
    int edges = 0;
    *closed = false;
    for (const char *d = strstr(text, " d=\""); d; d = strstr(d, " d=\"")) {
        d += 4;
        for (; *d != '"'; d++) {
            if (*d == 'L') edges++;
            if (*d == 'Z') *closed = true;
        }
    }
    return edges + (*closed ? 1 : 0);
}

/* An open path is drawn without its closing edge, its ends marked; a tour
 * keeps its closing edge; both in one path and in many (over 10,000 cities). */
static void test_svg_open_path(void **state)
{
    (void)state;
    int sizes[] = {20, 30000};
    for (int k = 0; k < 2; k++) {
        int n = sizes[k];
        wt_instance *inst = wt_test_random_instance(n, 8);
        int32_t *t = malloc((size_t)n * sizeof *t);
        for (int i = 0; i < n; i++) t[i] = (i + 3) % n; /* from city 4 to city 3 */
        char *path = temp_file("");
        bool closed;
        assert_int_equal(wt_tour_write_svg(path, inst, t, "tour", NULL), WT_OK);
        char *text = svg_text(path);
        assert_int_equal(svg_edges(text, &closed), n);
        assert_null(strstr(text, "path-start"));
        free(text);

        assert_int_equal(wt_open_path_write_svg(path, inst, t, "open", NULL), WT_OK);
        text = svg_text(path);
        assert_int_equal(svg_edges(text, &closed), n - 1);
        assert_false(closed);
        assert_non_null(strstr(text, "class=\"path-start\""));
        assert_non_null(strstr(text, "<title>start: city 4</title>"));
        assert_non_null(strstr(text, "class=\"path-end\""));
        char end[64];
        snprintf(end, sizeof end, "<title>end: city %d</title>", 3);
        assert_non_null(strstr(text, end));
        free(text);
        wt_error err = {0};
        assert_int_equal(wt_open_path_write_svg(path, inst, NULL, NULL, &err),
                         WT_STATUS_INVALID_ARGUMENT);
        unlink(path);
        free(path);
        free(t);
        wt_instance_free(inst);
    }
}

static void test_write_checks_and_one_line_header(void **state)
{
    (void)state;
    char *path = temp_file("old\n");
    int32_t good[] = {1, 0, 2}, dup[] = {1, 1, 2};
    wt_error err = {0};
    assert_int_equal(wt_tour_write_tsplib(NULL, "x", NULL, good, 3, &err),
                     WT_STATUS_INVALID_ARGUMENT);
    assert_int_equal(wt_tour_write_tsplib(path, "x", NULL, NULL, 3, &err),
                     WT_STATUS_INVALID_ARGUMENT);
    assert_int_equal(wt_tour_write_tsplib(path, "x", NULL, good, 0, &err),
                     WT_STATUS_INVALID_ARGUMENT);
    assert_int_equal(wt_tour_write_tsplib(path, "x", NULL, dup, 3, &err),
                     WT_STATUS_INVALID_TOUR);
    FILE *f = fopen(path, "r"); /* nothing written over the old file */
    char line[64];
    assert_non_null(fgets(line, sizeof line, f));
    assert_string_equal(line, "old\n");
    fclose(f);
    /* Line ends in a name or comment cannot add header lines. */
    assert_int_equal(wt_tour_write_tsplib(path, "a\nDIMENSION : 99", "c\r\nTYPE : TSP", good, 3,
                                          &err), WT_OK);
    int32_t *back = NULL;
    char name[64];
    assert_int_equal(wt_tour_read_tsplib_named(path, 3, &back, name, sizeof name, &err), WT_OK);
    assert_string_equal(name, "a DIMENSION : 99");
    free(back);
    unlink(path);
    free(path);
}

static void test_symlink_written_through(void **state)
{
    (void)state;
    char *target = temp_file("old\n");
    char link[64];
    snprintf(link, sizeof link, "%s.link", target);
    assert_int_equal(symlink(target, link), 0);
    int32_t good[] = {1, 0, 2};
    wt_error err = {0};
    assert_int_equal(wt_tour_write_tsplib(link, "t", NULL, good, 3, &err), WT_OK);
    struct stat st;
    assert_int_equal(lstat(link, &st), 0);
    assert_true(S_ISLNK(st.st_mode));
    int32_t *back = NULL;
    assert_int_equal(wt_tour_read_tsplib(target, 3, &back, &err), WT_OK);
    assert_int_equal(back[0], 1);
    free(back);
    unlink(link);
    unlink(target);
    free(target);
}

static void test_bom_case_and_name(void **state)
{
    (void)state;
    wt_error err = {0};
    int32_t *t = NULL;
    char *p = temp_file("\xef\xbb\xbfNAME : sq.opt.tour\nTYPE : TOUR\nTOUR_SECTION\n1\n2\n3\n-1\n");
    char name[8];
    assert_int_equal(wt_tour_read_tsplib_named(p, 3, &t, name, sizeof name, &err), WT_OK);
    assert_string_equal(name, "sq.opt."); /* cut to the buffer */
    free(t);
    t = NULL;
    unlink(p);
    free(p);
    p = temp_file("NAME : x\ntour_section\n1\n2\n3\n-1\n");
    assert_int_equal(wt_tour_read_tsplib(p, 3, &t, &err), WT_STATUS_PARSE);
    assert_non_null(strstr(err.message, "'tour_section'"));
    assert_non_null(strstr(err.message, ":2:"));
    assert_null(t);
    unlink(p);
    free(p);
}

static void test_big_input_refused_early(void **state)
{
    (void)state;
    /* 2 MiB of comment lines: no TOUR_SECTION in the first MiB. */
    size_t len = (size_t)2 << 20;
    char *text = malloc(len);
    for (size_t i = 0; i < len; i++) text[i] = i % 64 == 63 ? '\n' : 'c';
    memcpy(text, "COMMENT : ", 10);
    char *p = temp_file_n(text, len);
    wt_error err = {0};
    int32_t *t = NULL;
    assert_int_equal(wt_tour_read_tsplib(p, 3, &t, &err), WT_STATUS_PARSE);
    assert_non_null(strstr(err.message, "_SECTION"));
    unlink(p);
    free(p);
    /* Random bytes: line ends, but no text. */
    uint64_t r = 88172645463325252ULL;
    for (size_t i = 0; i < len; i++) {
        r ^= r << 13, r ^= r >> 7, r ^= r << 17;
        text[i] = (char)(r >> 24);
    }
    p = temp_file_n(text, len);
    wt_instance *inst = NULL;
    assert_int_equal(wt_instance_read_tsplib(p, &inst, &err), WT_STATUS_PARSE);
    assert_non_null(strstr(err.message, "not a text file"));
    unlink(p);
    free(p);
    /* A header of 3 cities, then far more data than 3 cities can need. */
    const char *head = "NAME : x\nTYPE : TOUR\nDIMENSION : 3\nTOUR_SECTION\n";
    memcpy(text, head, strlen(head));
    for (size_t i = strlen(head); i < len; i++) text[i] = i % 2 ? '\n' : '1';
    p = temp_file_n(text, len);
    assert_int_equal(wt_tour_read_tsplib(p, 3, &t, &err), WT_STATUS_PARSE);
    assert_non_null(strstr(err.message, "longer than"));
    unlink(p);
    free(p);
    free(text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_validate),
        cmocka_unit_test(test_length_is_exact),
        cmocka_unit_test(test_write_read_roundtrip),
        cmocka_unit_test(test_bad_tour_files),
        cmocka_unit_test(test_tour_messages_quote_input),
        cmocka_unit_test(test_tour_section_with_data),
        cmocka_unit_test(test_good_tour_variants),
        cmocka_unit_test(test_missing_file),
        cmocka_unit_test(test_svg),
        cmocka_unit_test(test_svg_open_path),
        cmocka_unit_test(test_write_checks_and_one_line_header),
        cmocka_unit_test(test_symlink_written_through),
        cmocka_unit_test(test_bom_case_and_name),
        cmocka_unit_test(test_big_input_refused_early),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
