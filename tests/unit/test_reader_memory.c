/*
 * test_reader_memory.c - the instance readers hold memory to the text they
 * have read, not to what a header claims (issue 39, fault 9).
 *
 * A gzip file declaring DIMENSION 1000000000 and repeating "1 1 1" must be
 * refused at its line 7 (the repeated node id) with WT_STATUS_PARSE, in a
 * child process whose address space is limited to 1 GiB (a forked child
 * with setrlimit: the reader once reached 6.1 GB before "out of memory");
 * the child's peak resident size is checked too.  ASan reserves terabytes
 * of address space, so a sanitized build runs the same reads without the
 * limit and the size check.  The rest checks what the streaming reader
 * must keep: errors far into a file name their line, ids out of order land
 * where they say, every matrix format and a matrix on one line longer than
 * the window read as from a buffer.
 */
#include "test_util.h"

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>

#include "core/instance.h"

#if defined(__SANITIZE_ADDRESS__)
#define SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SANITIZED 1
#endif
#endif
#ifndef SANITIZED
#define SANITIZED 0
#endif

#define LIMIT_AS ((rlim_t)1 << 30)  /* the child's address space */
#define MAX_RSS_KB (100L * 1024)    /* the child's peak resident size */

/* ---------------------------------------------------------------- helpers */

static char *temp_path(const char *suffix)
{
    char tmpl[] = "/tmp/wt_reader_memory_XXXXXX";
    int fd = mkstemp(tmpl);
    assert_true(fd >= 0);
    close(fd);
    unlink(tmpl);
    char *path = malloc(strlen(tmpl) + strlen(suffix) + 1);
    assert_non_null(path);
    strcpy(path, tmpl);
    strcat(path, suffix);
    return path;
}

/* Text written piece by piece to a plain or a gzip file. */
typedef struct out {
    FILE *f;
    gzFile gz;
} out;

static out out_open(const char *path, bool gzip)
{
    out o = {NULL, NULL};
    if (gzip) o.gz = gzopen(path, "wb1");
    else o.f = fopen(path, "wb");
    assert_true(o.f || o.gz);
    return o;
}

static void out_write(out *o, const char *s, size_t len)
{
    if (o->gz) assert_int_equal(gzwrite(o->gz, s, (unsigned)len), (int)len);
    else assert_int_equal(fwrite(s, 1, len, o->f), len);
}

static void out_puts(out *o, const char *s) { out_write(o, s, strlen(s)); }

static void out_close(out *o)
{
    if (o->gz) assert_int_equal(gzclose(o->gz), Z_OK);
    else assert_int_equal(fclose(o->f), 0);
}

/* Writes line `repeats` times, in chunks of about 1 MiB. */
static void out_repeat(out *o, const char *line, long repeats)
{
    size_t len = strlen(line), per = ((size_t)1 << 20) / len;
    char *chunk = malloc(per * len);
    assert_non_null(chunk);
    for (size_t i = 0; i < per; i++) memcpy(chunk + i * len, line, len);
    while (repeats > 0) {
        size_t k = (size_t)repeats < per ? (size_t)repeats : per;
        out_write(o, chunk, k * len);
        repeats -= (long)k;
    }
    free(chunk);
}

typedef wt_status (*reader)(const char *path, wt_instance **out, wt_error *err);

/* Reads path with read in a child process limited to LIMIT_AS bytes of
 * address space, and expects status want with a one-line message that
 * starts with "path:line: " and names word; the child's peak resident
 * size must stay under MAX_RSS_KB.  Sanitized builds read without the
 * limits. */
static void expect_in_child(reader read, const char *path, wt_status want, long line,
                            const char *word)
{
    char where[300];
    snprintf(where, sizeof where, "%s:%ld: ", path, line);
    fflush(NULL);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        struct rlimit lim = {LIMIT_AS, LIMIT_AS};
        if (!SANITIZED && setrlimit(RLIMIT_AS, &lim) != 0) _exit(2);
        wt_instance *inst = NULL;
        wt_error err = {0};
        wt_status st = read(path, &inst, &err);
        bool good = st == want && !inst && strncmp(err.message, where, strlen(where)) == 0 &&
                    strstr(err.message, word) && !strchr(err.message, '\n');
        if (!good)
            fprintf(stderr, "status %d (%s), expected %d; message: %s; expected '%s...%s'\n",
                    st, wt_status_str(st), want, err.message, where, word);
        wt_instance_free(inst);
        _exit(good ? 0 : 1);
    }
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    struct rusage use; /* the largest peak of the children waited for: this one's or less */
    assert_int_equal(getrusage(RUSAGE_CHILDREN, &use), 0);
    if (!WIFEXITED(status)) fail_msg("the reader died of signal %d", WTERMSIG(status));
    assert_int_equal(WEXITSTATUS(status), 0);
    if (!SANITIZED && use.ru_maxrss > MAX_RSS_KB)
        fail_msg("the reader held %ld KiB, expected under %ld", use.ru_maxrss, MAX_RSS_KB);
}

static void assert_same_instance(const wt_instance *a, const wt_instance *b)
{
    assert_int_equal(a->n, b->n);
    assert_int_equal(a->type, b->type);
    size_t n = (size_t)a->n;
    const double *ca[3] = {a->x, a->y, a->z}, *cb[3] = {b->x, b->y, b->z};
    for (int d = 0; d < 3; d++) {
        assert_true((ca[d] == NULL) == (cb[d] == NULL));
        if (ca[d]) assert_memory_equal(ca[d], cb[d], n * sizeof(double));
    }
    assert_true((a->matrix == NULL) == (b->matrix == NULL));
    if (a->matrix) assert_memory_equal(a->matrix, b->matrix, n * n * sizeof(int32_t));
}

static wt_instance *parse_ok(const char *text, size_t len)
{
    wt_instance *inst = NULL;
    wt_error err = {0};
    if (wt_instance_parse_tsplib(text, len, "test", &inst, &err) != WT_OK)
        fail_msg("parse failed: %s", err.message);
    return inst;
}

/* ------------------------------------------------------------------ tests */

/* Five lines: the node lines start at line 6. */
static const char huge_head[] = "NAME : huge\nTYPE : TSP\nDIMENSION : 1000000000\n"
                                "EDGE_WEIGHT_TYPE : EUC_2D\nNODE_COORD_SECTION\n";

/* The file: a huge DIMENSION, then "1 1 1" over and over (50 MB of
 * text): refused at line 7, the first repeat, by both readers. */
static void test_huge_dimension_gzip(void **state)
{
    (void)state;
    char *path = temp_path(".tsp.gz");
    out o = out_open(path, true);
    out_puts(&o, huge_head);
    out_repeat(&o, "1 1 1\n", 50000000 / 6);
    out_close(&o);
    expect_in_child(wt_instance_read, path, WT_STATUS_PARSE, 7, "node id 1 appears twice");
    expect_in_child(wt_instance_read_tsplib, path, WT_STATUS_PARSE, 7, "appears twice");
    unlink(path);
    free(path);
}

/* The same header with a million good node lines before a bad one, in a
 * plain and a gzip file: the error names its line, far past the first
 * window, and memory follows the nodes read. */
static void test_huge_dimension_late_error(void **state)
{
    (void)state;
    const long good = 1000000;
    for (int gzip = 0; gzip < 2; gzip++) {
        char *path = temp_path(gzip ? ".tsp.gz" : ".tsp");
        out o = out_open(path, gzip);
        out_puts(&o, huge_head);
        char line[64];
        for (long i = 1; i <= good; i++) {
            snprintf(line, sizeof line, "%ld %ld %ld\n", i, i % 1000, i / 1000);
            out_puts(&o, line);
        }
        out_puts(&o, "1000001 1 x\n");
        out_close(&o);
        /* A regular plain file's size is known: its DIMENSION is refused at
         * the section's head, as before; a gzip file's is not. */
        if (gzip)
            expect_in_child(wt_instance_read, path, WT_STATUS_PARSE, 5 + good + 1,
                            "the y coordinate of node 1000001, 'x', is not a number");
        else
            expect_in_child(wt_instance_read, path, WT_STATUS_PARSE, 5, "cannot hold");
        unlink(path);
        free(path);
    }
}

/* An EXPLICIT instance of the largest DIMENSION allowed (a matrix of 8.6
 * GB) with a bad weight after 8 MB of good ones: refused at that weight. */
static void test_huge_explicit_gzip(void **state)
{
    (void)state;
    char *path = temp_path(".tsp.gz");
    out o = out_open(path, true);
    out_puts(&o, "NAME : m\nTYPE : TSP\nDIMENSION : 46340\nEDGE_WEIGHT_TYPE : EXPLICIT\n"
                 "EDGE_WEIGHT_FORMAT : UPPER_ROW\nEDGE_WEIGHT_SECTION\n");
    out_repeat(&o, "1 1 1 1 1 1 1 1 1 1\n", 400000);
    out_puts(&o, "1 1 -1\n");
    out_close(&o);
    expect_in_child(wt_instance_read, path, WT_STATUS_PARSE, 6 + 400000 + 1,
                    "weight 4000003, '-1', is not an integer");
    unlink(path);
    free(path);
}

/* A file whose text ends inside its section: the message of a DIMENSION
 * the rest cannot hold, for a gzip file (length unknown until its end) as
 * for the same text in a buffer. */
static void test_short_gzip_names_dimension(void **state)
{
    (void)state;
    static const char text[] = "NAME : s\nTYPE : TSP\nDIMENSION : 1000\n"
                               "EDGE_WEIGHT_TYPE : EUC_2D\nNODE_COORD_SECTION\n1 0 0\n2 1 1\n";
    char *path = temp_path(".tsp.gz");
    out o = out_open(path, true);
    out_puts(&o, text);
    out_close(&o);
    expect_in_child(wt_instance_read, path, WT_STATUS_PARSE, 5, "cannot hold that many node");
    unlink(path);
    free(path);
}

/* Expects the len bytes of text, with its line `line` replaced by a node
 * line of id `id`, to be refused at that line for repeating the id. */
static void expect_repeat_at(const char *text, size_t len, int line, int id)
{
    const char *p = text;
    for (int k = 1; k < line; k++) p = strchr(p, '\n') + 1;
    const char *rest = strchr(p, '\n') + 1;
    char *copy = malloc(len + 64);
    assert_non_null(copy);
    size_t at = (size_t)(p - text);
    memcpy(copy, text, at);
    at += (size_t)snprintf(copy + at, 64, "%d 1 1 1\n", id);
    memcpy(copy + at, rest, len - (size_t)(rest - text));
    at += len - (size_t)(rest - text);
    wt_instance *inst = NULL;
    wt_error err = {0};
    assert_int_equal(wt_instance_parse_tsplib(copy, at, "test", &inst, &err), WT_STATUS_PARSE);
    free(copy);
    char where[64];
    snprintf(where, sizeof where, "test:%d: node id %d appears twice", line, id);
    if (strncmp(err.message, where, strlen(where)) != 0)
        fail_msg("message '%s', expected '%s...'", err.message, where);
}

/* Node ids in order up to node line 70000 (past the arrays' first size),
 * then in any order, land where they say; a repeat is named at its line
 * in the ordered part as in the rest. */
static void test_ids_out_of_order(void **state)
{
    (void)state;
    enum { N = 100000, ORDERED = 70000 };
    static int order[N];
    for (int i = 0; i < N; i++) order[i] = i;
    wt_rng rng;
    wt_rng_seed(&rng, 39);
    for (int i = N - 1; i > ORDERED; i--) {
        int j = ORDERED + (int)wt_rng_below(&rng, (uint64_t)(i - ORDERED) + 1);
        int t = order[i];
        order[i] = order[j];
        order[j] = t;
    }
    size_t cap = 64 * (size_t)N + 200;
    char *sorted = malloc(cap), *shuffled = malloc(cap);
    assert_non_null(sorted);
    assert_non_null(shuffled);
    const char *head = "NAME : o\nTYPE : TSP\nDIMENSION : 100000\nEDGE_WEIGHT_TYPE : EUC_3D\n"
                       "NODE_COORD_SECTION\n";
    size_t a = (size_t)snprintf(sorted, cap, "%s", head);
    size_t b = (size_t)snprintf(shuffled, cap, "%s", head);
    for (int i = 0; i < N; i++) {
        int k = order[i];
        a += (size_t)snprintf(sorted + a, cap - a, "%d %d %d %d\n", i + 1, i * 7 % 1001,
                              i * 13 % 997, i % 17);
        b += (size_t)snprintf(shuffled + b, cap - b, "%d %d %d %d\n", k + 1, k * 7 % 1001,
                              k * 13 % 997, k % 17);
    }
    assert_true(order[ORDERED + 1] != ORDERED + 1); /* the order does break there */
    wt_instance *want = parse_ok(sorted, a);
    wt_instance *got = parse_ok(shuffled, b);
    assert_same_instance(want, got);
    wt_instance_free(want);
    wt_instance_free(got);
    /* Node line 90001 repeats the id of node line 80001, node line 3001
     * that of node line 11 (the node lines start at line 6). */
    expect_repeat_at(shuffled, b, 5 + 90001, order[80000] + 1);
    expect_repeat_at(shuffled, b, 5 + 3001, order[10] + 1);
    free(sorted);
    free(shuffled);
}

/* A random symmetric matrix written in each of the nine formats, with
 * enough weights that the array grows, reads as the full matrix. */
static void test_matrix_formats_agree(void **state)
{
    (void)state;
    enum { N = 120 };
    static const char *const formats[] = {
        "FULL_MATRIX", "UPPER_ROW", "LOWER_ROW", "UPPER_DIAG_ROW", "LOWER_DIAG_ROW",
        "UPPER_COL", "LOWER_COL", "UPPER_DIAG_COL", "LOWER_DIAG_COL"};
    static int32_t m[N][N];
    wt_rng rng;
    wt_rng_seed(&rng, 9);
    for (int i = 0; i < N; i++)
        for (int j = 0; j <= i; j++)
            m[i][j] = m[j][i] = i == j ? 0 : (int32_t)wt_rng_below(&rng, 1000);
    size_t cap = 8 * (size_t)N * N + 400;
    char *text = malloc(cap);
    assert_non_null(text);
    for (size_t f = 0; f < sizeof formats / sizeof formats[0]; f++) {
        size_t len = (size_t)snprintf(text, cap, "NAME : m\nTYPE : TSP\nDIMENSION : %d\n"
                                      "EDGE_WEIGHT_TYPE : EXPLICIT\nEDGE_WEIGHT_FORMAT : %s\n"
                                      "EDGE_WEIGHT_SECTION\n", N, formats[f]);
        for (int i = 0; i < N; i++) {
            /* The entries of row i each format lists (TSPLIB95): a column
             * format lists the transposed triangle, which for a symmetric
             * matrix is the opposite row format's. */
            int lo = 0, hi = N;
            switch (f) {
            case 1: case 6: lo = i + 1; break;     /* UPPER_ROW, LOWER_COL */
            case 2: case 5: hi = i; break;         /* LOWER_ROW, UPPER_COL */
            case 3: case 8: lo = i; break;         /* UPPER_DIAG_ROW, LOWER_DIAG_COL */
            case 4: case 7: hi = i + 1; break;     /* LOWER_DIAG_ROW, UPPER_DIAG_COL */
            default: break;
            }
            for (int j = lo; j < hi; j++)
                len += (size_t)snprintf(text + len, cap - len, "%d ", m[i][j]);
            text[len++] = '\n';
        }
        len += (size_t)snprintf(text + len, cap - len, "EOF\n");
        wt_instance *inst = parse_ok(text, len);
        for (int i = 0; i < N; i++)
            for (int j = 0; j < N; j++)
                if (inst->matrix[i * N + j] != m[i][j])
                    fail_msg("%s: d(%d,%d) = %d, expected %d", formats[f], i + 1, j + 1,
                             inst->matrix[i * N + j], m[i][j]);
        wt_instance_free(inst);
    }
    free(text);
}

/* A matrix on one line of about 6 MB (longer than the window) and a long
 * line in a skipped section, read from a plain and a gzip file, give what
 * the same text gives from a buffer. */
static void test_long_lines_across_windows(void **state)
{
    (void)state;
    enum { N = 1600 };
    size_t cap = 6 * (size_t)N * N + 4096;
    char *text = malloc(cap);
    assert_non_null(text);
    size_t len = (size_t)snprintf(text, cap, "NAME : long\nTYPE : TSP\nDIMENSION : %d\n"
                                  "EDGE_WEIGHT_TYPE : EXPLICIT\nEDGE_WEIGHT_FORMAT : UPPER_ROW\n"
                                  "EDGE_WEIGHT_SECTION\n", N);
    for (int i = 0; i < N; i++)
        for (int j = i + 1; j < N; j++)
            len += (size_t)snprintf(text + len, cap - len, "%d ", (i * 31 + j * 17) % 9973);
    len += (size_t)snprintf(text + len, cap - len, "\nTOUR_SECTION\n"); /* skipped */
    for (int i = 0; i < 300000; i++) len += (size_t)snprintf(text + len, cap - len, "1 2 ");
    len += (size_t)snprintf(text + len, cap - len, "\n-1\nEOF\n");
    assert_true(len > 6 * ((size_t)1 << 20));
    wt_instance *want = parse_ok(text, len);
    for (int gzip = 0; gzip < 2; gzip++) {
        char *path = temp_path(gzip ? ".tsp.gz" : ".tsp");
        out o = out_open(path, gzip);
        out_write(&o, text, len);
        out_close(&o);
        wt_instance *got = NULL;
        wt_error err = {0};
        if (wt_instance_read(path, &got, &err) != WT_OK) fail_msg("%s", err.message);
        assert_same_instance(want, got);
        wt_instance_free(got);
        unlink(path);
        free(path);
    }
    wt_instance_free(want);
    free(text);
}

/* A coordinate file of several windows with CRLF line ends, read from a
 * gzip file: the same instance as from a buffer. */
static void test_stream_matches_buffer(void **state)
{
    (void)state;
    enum { N = 300000 };
    size_t cap = 40 * (size_t)N + 200;
    char *text = malloc(cap);
    assert_non_null(text);
    size_t len = (size_t)snprintf(text, cap, "NAME : s\r\nTYPE : TSP\r\nDIMENSION : %d\r\n"
                                  "EDGE_WEIGHT_TYPE : EUC_2D\r\nNODE_COORD_SECTION\r\n", N);
    for (int i = 1; i <= N; i++)
        len += (size_t)snprintf(text + len, cap - len, "%d %d.5 %d\r\n", i, i * 7 % 100003,
                                i * 11 % 99991);
    len += (size_t)snprintf(text + len, cap - len, "EOF\r\n");
    wt_instance *want = parse_ok(text, len);
    char *path = temp_path(".tsp.gz");
    out o = out_open(path, true);
    out_write(&o, text, len);
    out_close(&o);
    wt_instance *got = NULL;
    wt_error err = {0};
    if (wt_instance_read(path, &got, &err) != WT_OK) fail_msg("%s", err.message);
    assert_same_instance(want, got);
    wt_instance_free(got);
    wt_instance_free(want);
    unlink(path);
    free(path);
    free(text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_huge_dimension_gzip),
        cmocka_unit_test(test_huge_dimension_late_error),
        cmocka_unit_test(test_huge_explicit_gzip),
        cmocka_unit_test(test_short_gzip_names_dimension),
        cmocka_unit_test(test_ids_out_of_order),
        cmocka_unit_test(test_matrix_formats_agree),
        cmocka_unit_test(test_long_lines_across_windows),
        cmocka_unit_test(test_stream_matches_buffer),
    };
    return cmocka_run_group_tests_name("reader_memory", tests, NULL, NULL);
}
