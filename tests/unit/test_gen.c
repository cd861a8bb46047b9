/*
 * test_gen.c - the random instance generator (src/core/gen.c).
 *
 * Generated instances are reproducible from their seed, have the size, name
 * and type promised in warptour.h, and (for the uniform kind) integer
 * coordinates inside [0, 1e6)^2; invalid sizes are refused.
 */
#include "test_util.h"

#include <math.h>

static wt_instance *generate(wt_gen_kind kind, int n, uint64_t seed)
{
    wt_instance *inst = NULL;
    wt_error err = {0};
    if (wt_instance_generate(kind, n, seed, &inst, &err) != WT_OK)
        fail_msg("generate failed: %s", err.message);
    return inst;
}

/* Whether two instances have the same coordinates. */
static bool same_points(const wt_instance *a, const wt_instance *b)
{
    const double *ax, *ay, *bx, *by;
    assert_true(wt_instance_coords(a, &ax, &ay));
    assert_true(wt_instance_coords(b, &bx, &by));
    if (wt_instance_n(a) != wt_instance_n(b)) return false;
    for (int i = 0; i < wt_instance_n(a); i++)
        if (ax[i] != bx[i] || ay[i] != by[i]) return false;
    return true;
}

static void test_same_seed_same_instance(void **state)
{
    (void)state;
    for (int kind = WT_GEN_UNIFORM; kind <= WT_GEN_CLUSTERED; kind++) {
        wt_instance *a = generate((wt_gen_kind)kind, 1000, 42);
        wt_instance *b = generate((wt_gen_kind)kind, 1000, 42);
        wt_instance *c = generate((wt_gen_kind)kind, 1000, 43);
        assert_true(same_points(a, b));
        assert_false(same_points(a, c));
        wt_instance_free(a);
        wt_instance_free(b);
        wt_instance_free(c);
    }
}

static void test_uniform_in_range(void **state)
{
    (void)state;
    wt_instance *inst = generate(WT_GEN_UNIFORM, 5000, 7);
    const double *x, *y;
    assert_true(wt_instance_coords(inst, &x, &y));
    double lo = 1e9, hi = -1e9;
    for (int i = 0; i < 5000; i++) {
        assert_true(x[i] >= 0 && x[i] < 1e6 && x[i] == floor(x[i]));
        assert_true(y[i] >= 0 && y[i] < 1e6 && y[i] == floor(y[i]));
        lo = fmin(lo, fmin(x[i], y[i]));
        hi = fmax(hi, fmax(x[i], y[i]));
    }
    assert_true(lo < 1e4 && hi > 99e4); /* spread over the whole square */
    wt_instance_free(inst);
}

static void test_names_and_sizes(void **state)
{
    (void)state;
    wt_instance *u = generate(WT_GEN_UNIFORM, 1000, 42);
    assert_int_equal(wt_instance_n(u), 1000);
    assert_string_equal(wt_instance_name(u), "uniform-1000-s42");
    assert_int_equal(wt_instance_type(u), WT_EUC_2D);
    assert_non_null(strstr(wt_instance_comment(u), "portgen"));
    wt_instance *c = generate(WT_GEN_CLUSTERED, 1000, 42);
    assert_int_equal(wt_instance_n(c), 1000);
    assert_string_equal(wt_instance_name(c), "clustered-1000-s42");
    assert_int_equal(wt_instance_type(c), WT_EUC_2D);
    assert_non_null(strstr(wt_instance_comment(c), "portcgen"));
    wt_instance *small = generate(WT_GEN_CLUSTERED, 3, 1); /* a single centre */
    assert_int_equal(wt_instance_n(small), 3);
    wt_instance_free(u);
    wt_instance_free(c);
    wt_instance_free(small);
}

/* Clustered cities have integer coordinates and lie closer to their nearest
 * neighbour than uniform ones: ten cities per centre spread by 1e6/sqrt(n),
 * about the spacing of uniform cities, so the effect is real but modest. */
static void test_clustered_is_clustered(void **state)
{
    (void)state;
    enum { n = 2000 };
    wt_instance *c = generate(WT_GEN_CLUSTERED, n, 5);
    wt_instance *u = generate(WT_GEN_UNIFORM, n, 5);
    const double *x, *y;
    assert_true(wt_instance_coords(c, &x, &y));
    for (int i = 0; i < n; i++) assert_true(x[i] == floor(x[i]) && y[i] == floor(y[i]));
    double sum_c = 0, sum_u = 0;
    for (int a = 0; a < n; a++) {
        int64_t best_c = INT64_MAX, best_u = INT64_MAX;
        for (int b = 0; b < n; b++) {
            if (b == a) continue;
            int64_t dc = wt_instance_dist(c, a, b), du = wt_instance_dist(u, a, b);
            if (dc < best_c) best_c = dc;
            if (du < best_u) best_u = du;
        }
        sum_c += (double)best_c;
        sum_u += (double)best_u;
    }
    assert_true(sum_c < 0.95 * sum_u); /* about 0.9: portcgen's clusters are mild */
    wt_instance_free(c);
    wt_instance_free(u);
}

static void test_bad_arguments(void **state)
{
    (void)state;
    wt_instance *inst = NULL;
    wt_error err = {0};
    const int bad_n[] = {-1, 0, 1, 2};
    for (size_t i = 0; i < sizeof bad_n / sizeof bad_n[0]; i++) {
        assert_int_equal(wt_instance_generate(WT_GEN_UNIFORM, bad_n[i], 1, &inst, &err),
                         WT_STATUS_INVALID_ARGUMENT);
        assert_int_equal(err.status, WT_STATUS_INVALID_ARGUMENT);
    }
    assert_int_equal(wt_instance_generate((wt_gen_kind)7, 10, 1, &inst, &err),
                     WT_STATUS_INVALID_ARGUMENT);
    assert_int_equal(wt_instance_generate(WT_GEN_UNIFORM, 10, 1, NULL, &err),
                     WT_STATUS_INVALID_ARGUMENT);
    assert_null(inst);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_same_seed_same_instance),
        cmocka_unit_test(test_uniform_in_range),
        cmocka_unit_test(test_names_and_sizes),
        cmocka_unit_test(test_clustered_is_clustered),
        cmocka_unit_test(test_bad_arguments),
    };
    return cmocka_run_group_tests_name("gen", tests, NULL, NULL);
}
