/*
 * test_real_metric.c - the real-valued Euclidean types (WT_EUC_2D_REAL,
 * WT_EUC_3D_REAL) and the point-file reader.
 *
 * Distances are checked against hypot of the points as given (within half
 * a length unit and double's rounding), lengths against the sum of the
 * integer distances (exact) and against the real sum, and searches on such
 * instances against the tour validator.  Point files are parsed from
 * exactly-sized heap copies so a sanitizer build catches reads past the end.
 */
#include "test_util.h"

#include <math.h>

#include "core/instance.h"

/* A reproducible uniform double in [0, 1). */
static double unit_rand(uint64_t *s)
{
    *s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
    return (double)(*s >> 11) * 0x1p-53;
}

static wt_instance *random_real(int n, double lo, double span, bool three, uint64_t seed)
{
    double *x = malloc((size_t)n * sizeof *x), *y = malloc((size_t)n * sizeof *y);
    double *z = malloc((size_t)n * sizeof *z);
    assert_true(x && y && z);
    for (int i = 0; i < n; i++) {
        x[i] = lo + span * unit_rand(&seed);
        y[i] = lo + span * unit_rand(&seed);
        z[i] = lo + span * unit_rand(&seed);
    }
    wt_instance *inst = NULL;
    wt_error err = {0};
    wt_status st = wt_instance_from_coords("r", n, three ? WT_EUC_3D_REAL : WT_EUC_2D_REAL, x, y,
                                           three ? z : NULL, &inst, &err);
    if (st != WT_OK) fail_msg("%s", err.message);
    free(x);
    free(y);
    free(z);
    return inst;
}

static wt_status parse_points(const char *text, wt_instance **out, wt_error *err)
{
    size_t len = strlen(text);
    char *copy = malloc(len ? len : 1);
    assert_non_null(copy);
    memcpy(copy, text, len);
    wt_status st = wt_instance_parse_points(copy, len, "dir/pts.csv", out, err);
    free(copy);
    return st;
}

/* ------------------------------------------------------------- the metric */

static void test_names_and_type(void **state)
{
    (void)state;
    assert_string_equal(wt_edge_weight_type_name(WT_EUC_2D_REAL), "EUC_2D_REAL");
    assert_string_equal(wt_edge_weight_type_name(WT_EUC_3D_REAL), "EUC_3D_REAL");
    assert_int_equal(WT_EXPLICIT, 7); /* the TSPLIB types keep their numbers */
    wt_instance *inst = random_real(10, 0.0, 1.0, false, 1);
    assert_int_equal(wt_instance_type(inst), WT_EUC_2D_REAL);
    assert_true(wt_instance_is_real(inst));
    assert_int_equal(wt_instance_known_optimum(inst), -1);
    wt_instance_free(inst);
    inst = wt_test_parse("NAME: t\nTYPE: TSP\nDIMENSION: 3\nEDGE_WEIGHT_TYPE: EUC_2D\n"
                         "NODE_COORD_SECTION\n1 0 0\n2 3 4\n3 0 1\nEOF\n");
    assert_false(wt_instance_is_real(inst));
    assert_true(wt_instance_length_unit(inst) == 1.0);
    assert_true(wt_length_real(inst, 12) == 12.0);
    wt_instance_free(inst);
}

/* Each distance is within half a unit (plus double's rounding) of hypot. */
static void check_distances(double lo, double span, bool three)
{
    wt_instance *inst = random_real(200, lo, span, three, 7);
    double unit = wt_instance_length_unit(inst);
    assert_true(unit > 0.0 && unit == ldexp(1.0, ilogb(unit))); /* a power of two */
    double maxd = 0.0;
    /* The points again, as random_real made them. */
    uint64_t seed = 7;
    double x[200], y[200], z[200];
    for (int i = 0; i < 200; i++) {
        x[i] = lo + span * unit_rand(&seed);
        y[i] = lo + span * unit_rand(&seed);
        z[i] = lo + span * unit_rand(&seed);
    }
    for (int a = 0; a < 200; a++)
        for (int b = 0; b < 200; b++) {
            if (a == b) continue;
            double h = three ? sqrt((x[a] - x[b]) * (x[a] - x[b]) + (y[a] - y[b]) * (y[a] - y[b]) +
                                    (z[a] - z[b]) * (z[a] - z[b]))
                             : hypot(x[a] - x[b], y[a] - y[b]);
            int64_t d = wt_instance_dist(inst, a, b);
            assert_true(d == wt_instance_dist(inst, b, a));
            double err = fabs((double)d * unit - h);
            if (!(err <= 0.5 * unit + 1e-12 * span)) fail_msg("d(%d,%d) off by %g", a, b, err);
            if ((double)d > maxd) maxd = (double)d;
        }
    /* The unit spends the 40 bits: the longest distance is 2^38 .. 2^40 units. */
    assert_true(maxd <= 0x1p40 && maxd >= 0x1p37);
    wt_instance_free(inst);
}

static void test_distances_against_hypot(void **state)
{
    (void)state;
    check_distances(0.0, 1.0, false);
    check_distances(-3e-7, 1e-6, false);
    check_distances(1e6, 0.25, false); /* far from the origin */
    check_distances(-5e9, 1e10, false);
    check_distances(0.0, 1.0, true);
}

/* Points in [0, 1]: a real length near the true one, not TSPLIB's rounding. */
static void test_unit_square_length(void **state)
{
    (void)state;
    const double x[] = {0, 1, 1, 0, 0.5}, y[] = {0, 0, 1, 1, 0.5};
    wt_instance *inst = NULL;
    wt_error err = {0};
    assert_int_equal(wt_instance_from_coords("sq", 5, WT_EUC_2D_REAL, x, y, NULL, &inst, &err),
                     WT_OK);
    const int32_t t5[] = {0, 4, 1, 2, 3};
    int64_t len = wt_tour_length(inst, t5);
    int64_t sum = 0;
    for (int i = 0; i < 5; i++) sum += wt_instance_dist(inst, t5[i], t5[(i + 1) % 5]);
    assert_true(len == sum); /* integer lengths add exactly */
    double expect = 3.0 + sqrt(2.0);
    double real = wt_length_real(inst, len);
    assert_true(fabs(real - expect) <= 5 * wt_instance_length_unit(inst));
    assert_true(fabs(real - expect) < 1e-9);
    /* The square's side is a whole number of units: exact. */
    assert_true(wt_length_real(inst, wt_instance_dist(inst, 0, 1)) == 1.0);
    wt_instance_free(inst);
}

static void test_from_coords_errors(void **state)
{
    (void)state;
    wt_instance *inst = NULL;
    wt_error err = {0};
    double x[] = {0, 1, 2}, y[] = {0, 1, NAN};
    assert_int_equal(wt_instance_from_coords("e", 3, WT_EUC_2D_REAL, x, y, NULL, &inst, &err),
                     WT_STATUS_INVALID_ARGUMENT);
    y[2] = 2;
    assert_int_equal(wt_instance_from_coords("e", 3, WT_EUC_3D_REAL, x, y, NULL, &inst, &err),
                     WT_STATUS_INVALID_ARGUMENT);
    double big[] = {-1e308, 1e308, 0};
    assert_int_equal(wt_instance_from_coords("e", 3, WT_EUC_2D_REAL, big, y, NULL, &inst, &err),
                     WT_STATUS_TOO_LARGE);
    double tiny[] = {0, 1e-300, 2e-300}, zero[] = {0, 0, 0};
    assert_int_equal(wt_instance_from_coords("e", 3, WT_EUC_2D_REAL, tiny, zero, NULL, &inst,
                                             &err),
                     WT_STATUS_TOO_LARGE);
    assert_null(inst);
    /* All points equal: every distance 0, still an instance. */
    assert_int_equal(wt_instance_from_coords("e", 3, WT_EUC_2D_REAL, zero, zero, NULL, &inst,
                                             &err),
                     WT_OK);
    assert_int_equal(wt_instance_dist(inst, 0, 2), 0);
    wt_instance_free(inst);
}

/* Written as TSPLIB, a real instance reads back with the same distances. */
static void test_write_reads_back(void **state)
{
    (void)state;
    wt_instance *inst = random_real(30, 0.0, 1.0, false, 3);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    assert_int_equal(wt_instance_write_tsplib(inst, f, NULL), WT_OK);
    fclose(f);
    wt_instance *back = NULL;
    wt_error err = {0};
    if (wt_instance_parse_tsplib(buf, len, "w", &back, &err) != WT_OK)
        fail_msg("%s", err.message);
    assert_int_equal(wt_instance_type(back), WT_EUC_2D);
    for (int a = 0; a < 30; a++)
        for (int b = 0; b < 30; b++)
            if (a != b) assert_true(wt_instance_dist(inst, a, b) == wt_instance_dist(back, a, b));
    free(buf);
    wt_instance_free(back);
    wt_instance_free(inst);
}

/* 2-opt and ILS on a real instance end in valid tours with a real length. */
static void test_search(void **state)
{
    (void)state;
    wt_instance *inst = random_real(300, 0.0, 1.0, false, 11);
    const wt_algorithm algos[] = {WT_ALGO_2OPT, WT_ALGO_ILS, WT_ALGO_MULTISTART, WT_ALGO_SA};
    for (size_t k = 0; k < sizeof algos / sizeof algos[0]; k++) {
        wt_params p;
        wt_params_defaults(&p);
        p.algorithm = algos[k];
        p.backend = WT_BACKEND_CPU;
        p.threads = 2;
        p.kicks = 200;
        p.restarts = 4;
        p.sa_t_start = 1e-3 / wt_instance_length_unit(inst);
        p.sa_t_end = 1e-6 / wt_instance_length_unit(inst);
        p.sa_alpha = 0.8;
        wt_result r;
        wt_error err = {0};
        if (wt_solve(inst, &p, &r, &err) != WT_OK) fail_msg("%s", err.message);
        assert_int_equal(wt_tour_validate(r.tour, r.n, NULL), WT_OK);
        assert_true(r.length == wt_tour_length(inst, r.tour));
        assert_true(r.length_real == wt_length_real(inst, r.length));
        /* 300 uniform points in the unit square: about 0.7124 sqrt(300 * 1). */
        if (!(r.length_real > 10.0 && r.length_real < 20.0))
            fail_msg("%s: length %g", wt_algorithm_name(algos[k]), r.length_real);
        wt_result_free(&r);
    }
    wt_instance *inst3 = random_real(100, 0.0, 1.0, true, 5);
    wt_params p;
    wt_params_defaults(&p);
    p.algorithm = WT_ALGO_2OPT; /* the default is ils */
    p.backend = WT_BACKEND_CPU;
    p.threads = 2;
    wt_result r;
    assert_int_equal(wt_solve(inst3, &p, &r, NULL), WT_OK);
    assert_int_equal(wt_tour_validate(r.tour, r.n, NULL), WT_OK);
    assert_true(r.length_real > 1.0 && r.length_real < 30.0);
    wt_result_free(&r);
    wt_instance_free(inst3);
    wt_instance_free(inst);
}

/* A matrix: integers taken exactly, other values in fixed point. */
static void test_from_matrix(void **state)
{
    (void)state;
    double d[16] = {0, 3, 4, 5, 3, 0, 5, 4, 4, 5, 0, 3, 5, 4, 3, 0};
    wt_instance *inst = NULL;
    wt_error err = {0};
    assert_int_equal(wt_instance_from_matrix("m", 4, d, &inst, &err), WT_OK);
    assert_int_equal(wt_instance_type(inst), WT_EXPLICIT);
    assert_true(wt_instance_length_unit(inst) == 1.0);
    const int32_t t[] = {0, 1, 3, 2};
    assert_int_equal(wt_tour_length(inst, t), 3 + 4 + 3 + 4);
    wt_instance_free(inst);
    for (int i = 0; i < 16; i++) d[i] /= 7.0; /* not integers any more */
    assert_int_equal(wt_instance_from_matrix("m", 4, d, &inst, &err), WT_OK);
    double u = wt_instance_length_unit(inst);
    assert_true(u < 1e-8 && u == ldexp(1.0, ilogb(u)));
    assert_true(fabs(wt_length_real(inst, wt_tour_length(inst, t)) - 14.0 / 7.0) <= 2 * u);
    assert_false(wt_instance_is_real(inst));
    assert_int_equal(wt_instance_known_optimum(inst), -1);
    wt_instance_free(inst);
    inst = NULL;
    d[1] = 1.0; /* d[0][1] != d[1][0] */
    assert_int_equal(wt_instance_from_matrix("m", 4, d, &inst, &err), WT_STATUS_INVALID_ARGUMENT);
    assert_non_null(strstr(err.message, "symmetric"));
    d[1] = d[4];
    d[6] = d[9] = -1.0;
    assert_int_equal(wt_instance_from_matrix("m", 4, d, &inst, &err), WT_STATUS_INVALID_ARGUMENT);
    d[6] = d[9] = NAN;
    assert_int_equal(wt_instance_from_matrix("m", 4, d, &inst, &err), WT_STATUS_INVALID_ARGUMENT);
    d[6] = d[9] = 3e9;
    assert_int_equal(wt_instance_from_matrix("m", 4, d, &inst, &err), WT_STATUS_TOO_LARGE);
    assert_int_equal(wt_instance_from_matrix("m", 2, d, &inst, &err), WT_STATUS_INVALID_ARGUMENT);
    assert_null(inst);
}

/* ----------------------------------------------------------- point files */

static void test_points_formats(void **state)
{
    (void)state;
    wt_instance *inst = NULL;
    wt_error err = {0};
    const char *txt = "# my points\n\n0 0\n1.5 0   # a comment\n  1.5\t2\r\n0 2\n";
    if (parse_points(txt, &inst, &err) != WT_OK) fail_msg("%s", err.message);
    assert_int_equal(wt_instance_n(inst), 4);
    assert_int_equal(wt_instance_type(inst), WT_EUC_2D_REAL);
    assert_string_equal(wt_instance_name(inst), "pts");
    assert_true(wt_length_real(inst, wt_instance_dist(inst, 0, 2)) == 2.5);
    wt_instance_free(inst);

    inst = NULL;
    if (parse_points("x,y,z\n0,0,0\n3,4,0\n3,4,12\n", &inst, &err) != WT_OK)
        fail_msg("%s", err.message);
    assert_int_equal(wt_instance_type(inst), WT_EUC_3D_REAL);
    assert_int_equal(wt_instance_n(inst), 3);
    assert_true(wt_length_real(inst, wt_instance_dist(inst, 0, 2)) == 13.0);
    wt_instance_free(inst);

    inst = NULL;
    if (parse_points("1e-3, -2E+1\n.5,7\n-0.25 , 3\n", &inst, &err) != WT_OK)
        fail_msg("%s", err.message);
    assert_int_equal(wt_instance_n(inst), 3);
    wt_instance_free(inst);
}

static void expect_error(const char *text, wt_status status, const char *where, const char *word)
{
    wt_instance *inst = NULL;
    wt_error err = {0};
    assert_int_equal(parse_points(text, &inst, &err), status);
    assert_null(inst);
    if (strncmp(err.message, where, strlen(where)) != 0 || !strstr(err.message, word))
        fail_msg("message '%s' should start with '%s' and mention '%s'", err.message, where,
                 word);
}

static void test_points_errors(void **state)
{
    (void)state;
    expect_error("0 0\n1 1\n2 x\n", WT_STATUS_PARSE, "dir/pts.csv:3:", "number");
    expect_error("0 0\n1 nan\n2 2\n", WT_STATUS_PARSE, "dir/pts.csv:2:", "finite");
    expect_error("0 0\n1 1\ninf 2\n", WT_STATUS_PARSE, "dir/pts.csv:3:", "finite");
    expect_error("0 0\n1 1 1\n2 2\n", WT_STATUS_PARSE, "dir/pts.csv:2:", "line 1");
    expect_error("x y\n0 0\n1 1\n", WT_STATUS_PARSE, "dir/pts.csv:", "at least 3");
    expect_error("", WT_STATUS_PARSE, "dir/pts.csv:", "at least 3");
    expect_error("5\n1\n2\n", WT_STATUS_PARSE, "dir/pts.csv:1:", "2 or 3");
    expect_error("1 2 3 4\n", WT_STATUS_PARSE, "dir/pts.csv:1:", "more than 3");
    expect_error("0 0\n1e400 1\n2 2\n", WT_STATUS_PARSE, "dir/pts.csv:2:", "finite");
}

static void test_detect(void **state)
{
    (void)state;
    const char *yes[] = {"NAME : x\n", "NAME: x", "  \nNODE_COORD_SECTION\n", "TYPE:TSP"};
    const char *no[] = {"1 2\n", "x,y\n1,2\n", "x y\n", "# NAME: x\n", "", "-1 2\n"};
    for (size_t i = 0; i < sizeof yes / sizeof yes[0]; i++)
        assert_true(wt_looks_like_tsplib(yes[i], strlen(yes[i])));
    for (size_t i = 0; i < sizeof no / sizeof no[0]; i++)
        assert_false(wt_looks_like_tsplib(no[i], strlen(no[i])));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_names_and_type),
        cmocka_unit_test(test_distances_against_hypot),
        cmocka_unit_test(test_unit_square_length),
        cmocka_unit_test(test_from_coords_errors),
        cmocka_unit_test(test_write_reads_back),
        cmocka_unit_test(test_search),
        cmocka_unit_test(test_from_matrix),
        cmocka_unit_test(test_points_formats),
        cmocka_unit_test(test_points_errors),
        cmocka_unit_test(test_detect),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
