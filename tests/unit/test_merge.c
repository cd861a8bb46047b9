/*
 * test_merge.c - partition crossover of two tours (ls/merge.h).
 *
 * On random instances of every distance type and random, 2-opt-optimal and
 * ILS-optimized parents: the child is a permutation, its length as given
 * is wt_tour_length's and no more than the shorter parent's; identical
 * parents (also rotated and reversed) give the parent back; merges are
 * deterministic and symmetric in length; two parents each improved in its
 * own half of a common tour give a child shorter than both.  ILS whose
 * meetings merge (tuning.ils_merge), on replicas and merged replicas, with
 * diversifications: valid tours of exact length, the kick budget spent,
 * the same tour for the same seed; one thread runs as before.
 */
#include "test_util.h"

#include "core/instance.h"
#include "ls/merge.h"
#include "warptour_experimental.h"

/* First-improvement 2-opt on positions [lo, hi) of tour (both edges of a
 * move inside the range), until none improves. */
static void two_opt_range(const wt_instance *inst, int32_t *tour, int n, int lo, int hi)
{
    bool better = true;
    while (better) {
        better = false;
        for (int i = lo; i < hi - 2; i++)
            for (int j = i + 2; j < hi - 1; j++) {
                int32_t a = tour[i], b = tour[i + 1], c = tour[j], d = tour[(j + 1) % n];
                int64_t delta = wt_dist(inst, a, c) + wt_dist(inst, b, d) - wt_dist(inst, a, b) -
                                wt_dist(inst, c, d);
                if (delta < 0) {
                    for (int x = i + 1, y = j; x < y; x++, y--) {
                        int32_t t = tour[x];
                        tour[x] = tour[y];
                        tour[y] = t;
                    }
                    better = true;
                }
            }
    }
}

/* Checks one merge of a and b: a valid child of exact length, no longer
 * than the shorter parent; returns its length. */
static int64_t check_merge(wt_merge *m, const wt_instance *inst, const int32_t *a,
                           const int32_t *b, int32_t *child, wt_merge_info *info)
{
    int n = wt_instance_n(inst);
    int64_t la = wt_tour_length(inst, a), lb = wt_tour_length(inst, b), lc = -1;
    wt_merge_info got;
    assert_int_equal(wt_merge_tours(m, inst, a, la, b, lb, child, &lc, &got, NULL), WT_OK);
    assert_int_equal(wt_tour_validate(child, n, NULL), WT_OK);
    assert_int_equal(lc, wt_tour_length(inst, child));
    assert_true(lc <= (la < lb ? la : lb));
    assert_int_equal(got.fallback, 0);
    assert_int_equal(got.gain, (la < lb ? la : lb) - lc);
    if (info) *info = got;
    return lc;
}

static void test_identical_parents(void **state)
{
    (void)state;
    const int sizes[] = {3, 4, 5, 8, 50, 333};
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        int n = sizes[k];
        wt_instance *inst = wt_test_random_instance(n, 10 + (uint64_t)n);
        int32_t *a = malloc((size_t)n * sizeof *a), *b = malloc((size_t)n * sizeof *b);
        int32_t *c = malloc((size_t)n * sizeof *c);
        wt_test_random_tour(n, 3, a);
        wt_merge *m = NULL;
        assert_int_equal(wt_merge_open(n, &m, NULL), WT_OK);
        wt_merge_info info;
        check_merge(m, inst, a, a, c, &info);
        assert_memory_equal(a, c, (size_t)n * sizeof *a);
        assert_int_equal(info.components, 0);
        /* Rotated and reversed: the same cycle, the first parent as written. */
        for (int i = 0; i < n; i++) b[i] = a[(n - 1 - i + 2) % n];
        check_merge(m, inst, a, b, c, &info);
        assert_memory_equal(a, c, (size_t)n * sizeof *a);
        /* In place: the child over a parent. */
        memcpy(c, a, (size_t)n * sizeof *a);
        int64_t len = wt_tour_length(inst, a), got = 0;
        assert_int_equal(wt_merge_tours(m, inst, c, len, a, len, c, &got, NULL, NULL), WT_OK);
        assert_memory_equal(a, c, (size_t)n * sizeof *a);
        assert_int_equal(got, len);
        wt_merge_free(m);
        free(a);
        free(b);
        free(c);
        wt_instance_free(inst);
    }
    /* Bad arguments. */
    wt_merge *m = NULL;
    assert_int_equal(wt_merge_open(0, &m, NULL), WT_STATUS_INVALID_ARGUMENT);
    wt_merge_free(NULL);
}

/* Random parents and 2-opt optima from random starts, on every distance
 * type; the merge in both orders, twice. */
static void test_random_and_two_opt_parents(void **state)
{
    (void)state;
    const wt_edge_weight_type types[] = {WT_EUC_2D, WT_CEIL_2D, WT_ATT, WT_GEO, WT_EXPLICIT};
    const int sizes[] = {6, 9, 40, 150};
    for (size_t t = 0; t < sizeof types / sizeof types[0]; t++)
        for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
            int n = sizes[k];
            wt_instance *inst = wt_test_typed_instance(types[t], n, 7 * t + k);
            int32_t *a = malloc((size_t)n * sizeof *a), *b = malloc((size_t)n * sizeof *b);
            int32_t *c = malloc((size_t)n * sizeof *c), *d = malloc((size_t)n * sizeof *d);
            wt_merge *m = NULL;
            assert_int_equal(wt_merge_open(n, &m, NULL), WT_OK);
            for (int trial = 0; trial < 12; trial++) {
                wt_test_random_tour(n, 100 + (uint64_t)trial, a);
                wt_test_random_tour(n, 200 + (uint64_t)trial, b);
                if (trial % 2) {
                    two_opt_range(inst, a, n, 0, n);
                    two_opt_range(inst, b, n, 0, n);
                }
                int64_t ab = check_merge(m, inst, a, b, c, NULL);
                int64_t again = check_merge(m, inst, a, b, d, NULL);
                assert_int_equal(ab, again);
                assert_memory_equal(c, d, (size_t)n * sizeof *c);
                assert_int_equal(check_merge(m, inst, b, a, d, NULL), ab);
            }
            wt_merge_free(m);
            free(a);
            free(b);
            free(c);
            free(d);
            wt_instance_free(inst);
        }
}

/* A common tour, one parent 2-opted in its first half only, the other in
 * its second half: the child takes both halves' gains. */
static void test_disjoint_improvements(void **state)
{
    (void)state;
    int n = 400;
    int strict = 0, trials = 10;
    for (int trial = 0; trial < trials; trial++) {
        wt_instance *inst = wt_test_random_instance(n, 900 + (uint64_t)trial);
        int32_t *w = malloc((size_t)n * sizeof *w), *a = malloc((size_t)n * sizeof *a);
        int32_t *b = malloc((size_t)n * sizeof *b), *c = malloc((size_t)n * sizeof *c);
        assert_int_equal(wt_tour_init(inst, WT_INIT_GREEDY, 1, w, NULL), WT_OK);
        memcpy(a, w, (size_t)n * sizeof *w);
        memcpy(b, w, (size_t)n * sizeof *w);
        two_opt_range(inst, a, n, 0, n / 2);
        two_opt_range(inst, b, n, n / 2, n);
        int64_t lw = wt_tour_length(inst, w), la = wt_tour_length(inst, a),
                lb = wt_tour_length(inst, b);
        wt_merge *m = NULL;
        assert_int_equal(wt_merge_open(n, &m, NULL), WT_OK);
        wt_merge_info info;
        int64_t lc = check_merge(m, inst, a, b, c, &info);
        /* Both halves' gains, exactly, where the halves' changes are
         * feasible groups of their own (most often; a full 2-opt descent
         * of each half changes it much). */
        if (lc == lw - (lw - la) - (lw - lb)) strict++;
        assert_true(lc >= lw - (lw - la) - (lw - lb));
        if (la < lw && lb < lw) assert_true(lc < (la < lb ? la : lb));
        wt_merge_free(m);
        free(w);
        free(a);
        free(b);
        free(c);
        wt_instance_free(inst);
    }
    assert_true(strict >= trials / 2); /* 6 of 10 when written */
}

/* Parents that ILS with LK descents made from different seeds (one
 * thread, a small kick budget): locally optimal tours that differ in many
 * places. */
static void test_ils_parents(void **state)
{
    (void)state;
    int n = 1000;
    wt_instance *inst = wt_test_random_instance(n, 4242);
    int32_t *tours[4];
    int64_t lens[4];
    for (int s = 0; s < 4; s++) {
        wt_params p;
        wt_params_defaults(&p);
        p.algorithm = WT_ALGO_ILS;
        p.backend = WT_BACKEND_CPU;
        p.ils_descent = WT_ILS_LK;
        p.threads = 1;
        p.seed = 1 + (uint64_t)s;
        p.kicks = 30;
        wt_result r = {0};
        assert_int_equal(wt_solve(inst, &p, &r, NULL), WT_OK);
        tours[s] = malloc((size_t)n * sizeof(int32_t));
        memcpy(tours[s], r.tour, (size_t)n * sizeof(int32_t));
        lens[s] = r.length;
        wt_result_free(&r);
    }
    wt_merge *m = NULL;
    assert_int_equal(wt_merge_open(n, &m, NULL), WT_OK);
    int32_t *c = malloc((size_t)n * sizeof *c);
    int better = 0;
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++) {
            if (i == j) continue;
            wt_merge_info info;
            int64_t lc = check_merge(m, inst, tours[i], tours[j], c, &info);
            assert_true(info.components > 0);
            if (lc < (lens[i] < lens[j] ? lens[i] : lens[j])) better++;
        }
    assert_true(better > 0); /* partition crossover finds something */
    free(c);
    wt_merge_free(m);
    for (int s = 0; s < 4; s++) free(tours[s]);
    wt_instance_free(inst);
}

static wt_result ils_tuned(const wt_instance *inst, int threads, const wt_tuning *tune,
                           uint64_t kicks)
{
    wt_params p;
    wt_params_defaults(&p);
    p.algorithm = WT_ALGO_ILS;
    p.backend = WT_BACKEND_CPU;
    p.ils_descent = WT_ILS_LK;
    p.init = WT_INIT_RANDOM;
    p.threads = threads;
    p.seed = 5;
    p.kicks = kicks;
    /* one search a thread: by the kick budget alone the run would make one
     * search, which never meets another */
    wt_tuning t = *tune;
    t.ils_searches = threads;
    p.tuning = &t;
    wt_result r = {0};
    wt_error err = {0};
    if (wt_solve(inst, &p, &r, &err) != WT_OK) fail_msg("ils: %s", err.message);
    return r;
}

static void test_ils_merging_meetings(void **state)
{
    (void)state;
    int n = 500;
    wt_instance *inst = wt_test_random_instance(n, 31);
    /* Replicas (merged replicas off), and merged replicas; rounds short
     * enough for several meetings (five on two threads), a diversification
     * after each round without gain. */
    for (int merged = 0; merged <= 1; merged++) {
        wt_tuning on = {.ils_round_kicks = 150, .ils_merge = 1,
                        .ils_merged_min = merged ? 1 : WT_TUNING_OFF};
        wt_tuning off = on;
        off.ils_merge = WT_TUNING_OFF;
        uint64_t kicks = 1500;
        wt_result a = ils_tuned(inst, 2, &on, kicks), b = ils_tuned(inst, 2, &on, kicks);
        wt_result c = ils_tuned(inst, 2, &off, kicks);
        wt_result one = ils_tuned(inst, 1, &on, kicks), one_off = ils_tuned(inst, 1, &off, kicks);
        assert_int_equal(wt_tour_validate(a.tour, n, NULL), WT_OK);
        assert_int_equal(a.length, wt_tour_length(inst, a.tour));
        assert_int_equal(wt_tour_validate(c.tour, n, NULL), WT_OK);
        assert_int_equal(c.length, wt_tour_length(inst, c.tour));
        assert_int_equal(a.ils.kicks, kicks);
        assert_memory_equal(a.tour, b.tour, (size_t)n * sizeof(int32_t));
        /* One search: no meeting to merge, the same run either way. */
        assert_memory_equal(one.tour, one_off.tour, (size_t)n * sizeof(int32_t));
        wt_result_free(&a);
        wt_result_free(&b);
        wt_result_free(&c);
        wt_result_free(&one);
        wt_result_free(&one_off);
    }
    wt_instance_free(inst);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_identical_parents),
        cmocka_unit_test(test_random_and_two_opt_parents),
        cmocka_unit_test(test_disjoint_improvements),
        cmocka_unit_test(test_ils_parents),
        cmocka_unit_test(test_ils_merging_meetings),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
