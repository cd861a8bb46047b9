/*
 * test_twoopt.c - the CPU reference 2-opt and wt_solve on random instances.
 *
 * Properties: tours stay permutations; after the descent no improving move
 * remains (checked by brute force with the exact delta); the scan's winner is
 * the lowest (i, j) among equal best deltas; the same seed gives the same
 * tour; thread count does not change the result; a stop request still
 * returns a valid tour.
 */
#include "test_util.h"

#include <inttypes.h>

#include "backend/cpu/cpu_2opt.h"

static bool is_permutation(const int32_t *t, int n)
{
    return wt_tour_validate(t, n, NULL) == WT_OK;
}

/* Brute force over Listing 1's pair space with the exact delta. */
static int64_t brute_best_delta(const wt_instance *inst, const int32_t *t, int *bi, int *bj)
{
    int n = wt_instance_n(inst);
    int64_t best = 0;
    *bi = *bj = -1;
    for (int i = 0; i < n - 2; i++)
        for (int j = i + 2; j < n; j++) {
            int64_t d = wt_2opt_move_delta(inst, t, i, j);
            if (d < best) {
                best = d;
                *bi = i;
                *bj = j;
            }
        }
    return best;
}

static void solve_2opt_swaps(const wt_instance *inst, wt_init_method init, uint64_t seed,
                             int threads, int swaps, wt_result *res)
{
    wt_params p;
    wt_params_defaults(&p);
    p.algorithm = WT_ALGO_2OPT; /* the default is ils */
    p.swaps = swaps;
    p.backend = WT_BACKEND_CPU;
    p.init = init;
    p.seed = seed;
    p.threads = threads;
    wt_error err = {0};
    if (wt_solve(inst, &p, res, &err) != WT_OK) fail_msg("solve: %s", err.message);
}

static void solve_2opt(const wt_instance *inst, wt_init_method init, uint64_t seed, int threads,
                       wt_result *res)
{
    solve_2opt_swaps(inst, init, seed, threads, 0, res);
}

static void test_delta_matches_length_difference(void **state)
{
    (void)state;
    wt_instance *inst = wt_test_random_instance(60, 3);
    int32_t t[60];
    assert_int_equal(wt_tour_init(inst, WT_INIT_RANDOM, 9, t, NULL), WT_OK);
    for (int i = 0; i < 58; i += 5)
        for (int j = i + 2; j < 60; j += 7) {
            int32_t u[60];
            memcpy(u, t, sizeof t);
            int64_t before = wt_tour_length(inst, u);
            wt_2opt_apply(u, i, j);
            assert_true(is_permutation(u, 60));
            assert_int_equal(wt_tour_length(inst, u) - before, wt_2opt_move_delta(inst, t, i, j));
        }
    wt_instance_free(inst);
}

static void test_scan_finds_brute_force_best(void **state)
{
    (void)state;
    for (int n = 5; n <= 200; n += 39) {
        wt_instance *inst = wt_test_random_instance(n, (uint64_t)n);
        int32_t *t = malloc((size_t)n * sizeof *t);
        wt_tour_init(inst, WT_INIT_RANDOM, 1, t, NULL);
        int bi, bj;
        int64_t bd = brute_best_delta(inst, t, &bi, &bj);
        for (int threads = 1; threads <= 3; threads++) {
            wt_2opt_move m;
            assert_true(wt_2opt_best_move(inst, t, threads, NULL, &m));
            assert_int_equal(m.delta, bd);
            assert_int_equal(m.i, bi);
            assert_int_equal(m.j, bj);
        }
        free(t);
        wt_instance_free(inst);
    }
}

/* Every row's best improving move, lowest j among equals, by brute force
 * with wt_dist; the rows without one are left out, as in row_bests. */
static int brute_row_bests(const wt_instance *inst, const int32_t *t, wt_kswap_move *out)
{
    int n = wt_instance_n(inst), count = 0;
    for (int i = 0; i < n - 2; i++) {
        wt_kswap_move best = {0, -1, -1};
        for (int j = i + 2; j < n; j++) {
            int64_t d = wt_2opt_move_delta(inst, t, i, j);
            if (d < best.delta) best = (wt_kswap_move){d, i, j};
        }
        if (best.i >= 0) out[count++] = best;
    }
    return count;
}

/* The scan's rows against brute force where its loops take other paths:
 * rows longer than its blocks of columns, half-unit coordinates (roots that
 * round from exactly .5, many equal deltas), each planar metric, and
 * coordinates too large for exact doubles (the scalar loop). */
static void test_row_bests_match_brute_force(void **state)
{
    (void)state;
    static const wt_edge_weight_type types[] = {WT_EUC_2D, WT_CEIL_2D, WT_ATT, WT_MAN_2D,
                                                WT_MAX_2D};
    int n = 700;
    double *x = malloc((size_t)n * sizeof *x), *y = malloc((size_t)n * sizeof *y);
    int32_t *t = malloc((size_t)n * sizeof *t);
    wt_kswap_move *got = malloc((size_t)n * sizeof *got), *want = malloc((size_t)n * sizeof *want);
    uint64_t r = 12345;
    for (int scale = 0; scale < 2; scale++)
        for (size_t ty = 0; ty < sizeof types / sizeof types[0]; ty++) {
            for (int c = 0; c < n; c++) { /* a 0.5 grid; scale 1: x spans 2^51 */
                r = r * 6364136223846793005ULL + 1442695040888963407ULL;
                x[c] = (double)((r >> 33) % 60) * (scale ? 0x1p45 : 0.5);
                y[c] = (double)((r >> 13) % 60) * 0.5;
            }
            wt_instance *inst;
            assert_int_equal(wt_instance_from_coords("rows", n, types[ty], x, y, NULL, &inst,
                                                     NULL), WT_OK);
            wt_tour_init(inst, WT_INIT_RANDOM, 3, t, NULL);
            int nw = brute_row_bests(inst, t, want);
            for (int threads = 1; threads <= 2; threads++) {
                int ng = wt_2opt_row_bests(inst, t, threads, NULL, got);
                assert_int_equal(ng, nw);
                for (int k = 0; k < nw; k++)
                    if (got[k].i != want[k].i || got[k].j != want[k].j ||
                        got[k].delta != want[k].delta)
                        fail_msg("type %d scale %d row %d: (%d, %" PRId64 ") against (%d, %"
                                 PRId64 ")", (int)types[ty], scale, want[k].i, got[k].j,
                                 got[k].delta, want[k].j, want[k].delta);
            }
            wt_instance_free(inst);
        }
    free(x);
    free(y);
    free(t);
    free(got);
    free(want);
}

static void test_ties_go_to_lowest_pair(void **state)
{
    (void)state;
    /* A regular grid has many moves of equal gain. */
    double x[36], y[36];
    for (int i = 0; i < 36; i++) {
        x[i] = (i % 6) * 10;
        y[i] = (i / 6) * 10;
    }
    wt_instance *inst;
    assert_int_equal(wt_instance_from_coords("grid", 36, WT_EUC_2D, x, y, NULL, &inst, NULL),
                     WT_OK);
    int32_t t[36];
    wt_tour_init(inst, WT_INIT_RANDOM, 5, t, NULL);
    int bi, bj;
    int64_t bd = brute_best_delta(inst, t, &bi, &bj);
    wt_2opt_move m;
    assert_true(wt_2opt_best_move(inst, t, 2, NULL, &m));
    assert_int_equal(m.delta, bd);
    assert_int_equal(m.i, bi);
    assert_int_equal(m.j, bj);
    wt_instance_free(inst);
}

static void test_descent_reaches_local_optimum(void **state)
{
    (void)state;
    const int sizes[] = {3, 4, 5, 17, 100, 300};
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        int n = sizes[k];
        wt_instance *inst = wt_test_random_instance(n, 100 + (uint64_t)n);
        wt_result res = {0};
        solve_2opt(inst, WT_INIT_RANDOM, 7, 2, &res);
        assert_true(is_permutation(res.tour, n));
        assert_int_equal(res.stop, WT_STOP_DONE);
        assert_int_equal(res.length, wt_tour_length(inst, res.tour));
        assert_true(res.length <= res.init_length);
        int bi, bj;
        assert_true(brute_best_delta(inst, res.tour, &bi, &bj) == 0);
        wt_result_free(&res);
        wt_instance_free(inst);
    }
}

/* swaps = 1 is Listing 1's best improvement: the same tour as iterating the
 * reference scan by hand; any k also ends at a local optimum. */
static void test_swaps(void **state)
{
    (void)state;
    wt_instance *inst = wt_test_random_instance(200, 21);
    int32_t ref[200];
    wt_tour_init(inst, WT_INIT_RANDOM, 4, ref, NULL);
    for (;;) {
        wt_2opt_move m;
        wt_2opt_best_move(inst, ref, 1, NULL, &m);
        if (m.delta >= 0) break;
        wt_2opt_apply(ref, m.i, m.j);
    }
    const int ks[] = {1, 2, 7, 0};
    for (size_t k = 0; k < sizeof ks / sizeof ks[0]; k++) {
        wt_result res = {0};
        solve_2opt_swaps(inst, WT_INIT_RANDOM, 4, 2, ks[k], &res);
        assert_true(is_permutation(res.tour, 200));
        int bi, bj;
        assert_int_equal(brute_best_delta(inst, res.tour, &bi, &bj), 0);
        if (ks[k] == 1) assert_memory_equal(res.tour, ref, sizeof ref);
        wt_result_free(&res);
    }
    wt_instance_free(inst);
}

static void test_same_seed_same_tour_any_threads(void **state)
{
    (void)state;
    wt_instance *inst = wt_test_random_instance(250, 11);
    wt_result a = {0}, b = {0}, c = {0};
    solve_2opt(inst, WT_INIT_RANDOM, 42, 1, &a);
    solve_2opt(inst, WT_INIT_RANDOM, 42, 3, &b);
    solve_2opt(inst, WT_INIT_RANDOM, 43, 2, &c);
    assert_memory_equal(a.tour, b.tour, 250 * sizeof(int32_t));
    assert_int_equal(a.steps, b.steps);
    assert_true(memcmp(a.tour, c.tour, 250 * sizeof(int32_t)) != 0);
    wt_result_free(&a);
    wt_result_free(&b);
    wt_result_free(&c);
    wt_instance_free(inst);
}

static int stop_after_three(const wt_progress *p, void *user)
{
    (void)user;
    return p->steps >= 3;
}

static void test_stop_returns_valid_tour(void **state)
{
    (void)state;
    wt_instance *inst = wt_test_random_instance(400, 5);
    wt_params p;
    wt_params_defaults(&p);
    p.algorithm = WT_ALGO_2OPT; /* the default is ils */
    p.backend = WT_BACKEND_CPU;
    p.init = WT_INIT_RANDOM;
    p.swaps = 1;
    p.progress = stop_after_three;
    p.progress_interval_s = 0;
    wt_result res = {0};
    assert_int_equal(wt_solve(inst, &p, &res, NULL), WT_OK);
    assert_int_equal(res.stop, WT_STOP_INTERRUPTED);
    assert_int_equal(res.steps, 3);
    assert_true(is_permutation(res.tour, 400));
    assert_true(res.length < res.init_length);
    wt_result_free(&res);

    volatile int flag = 1; /* already set: stops before the first move */
    wt_params_defaults(&p);
    p.algorithm = WT_ALGO_2OPT; /* the default is ils */
    p.backend = WT_BACKEND_CPU;
    p.stop_flag = &flag;
    assert_int_equal(wt_solve(inst, &p, &res, NULL), WT_OK);
    assert_int_equal(res.stop, WT_STOP_INTERRUPTED);
    assert_int_equal(res.length, res.init_length);
    assert_true(is_permutation(res.tour, 400));
    wt_result_free(&res);
    wt_instance_free(inst);
}

/* What the reports from inside passes showed. */
typedef struct pass_reports {
    int inside, outside, bad;
    double stop_at; /* stop once a pass is this far scanned; > 1: never */
} pass_reports;

static int note_pass_share(const wt_progress *p, void *user)
{
    pass_reports *r = user;
    if (p->pass_done == WT_NOT_IN_PASS) r->outside++;
    else if (p->pass_done >= 0 && p->pass_done < 1) r->inside++;
    else r->bad++;
    return p->pass_done >= r->stop_at;
}

/* A long pass reports how far it got, from the solving thread, pruned or
 * not, and a callback can stop the search from there. */
static void test_progress_inside_a_pass(void **state)
{
    (void)state;
    wt_instance *inst = wt_test_random_instance(4000, 12);
    for (int prune = 0; prune < 2; prune++) {
        wt_params p;
        wt_params_defaults(&p);
        p.algorithm = WT_ALGO_2OPT; /* the default is ils */
        p.backend = WT_BACKEND_CPU;
        p.init = WT_INIT_RANDOM;
        p.threads = 1; /* the solving thread then scans every row: ticks at fixed rows */
        p.prune = prune;
        p.progress = note_pass_share;
        p.progress_interval_s = 0;
        pass_reports r = {0, 0, 0, 2.0};
        p.progress_user = &r;
        p.time_limit_s = 0.3;
        wt_result res = {0};
        assert_int_equal(wt_solve(inst, &p, &res, NULL), WT_OK);
        assert_true(r.inside > 0);
        assert_true(r.outside > 0);
        assert_int_equal(r.bad, 0);
        wt_result_free(&res);

        r = (pass_reports){0, 0, 0, 0.5};
        p.time_limit_s = 0; /* the callback alone stops it, however slow the machine */
        assert_int_equal(wt_solve(inst, &p, &res, NULL), WT_OK);
        assert_int_equal(res.stop, WT_STOP_INTERRUPTED);
        assert_int_equal(res.steps, 0); /* the first pass, stopped half-way */
        assert_int_equal(res.length, res.init_length);
        assert_int_equal(wt_tour_validate(res.tour, 4000, NULL), WT_OK);
        wt_result_free(&res);
    }
    wt_instance_free(inst);
}

static void test_start_tour_is_used_and_checked(void **state)
{
    (void)state;
    wt_instance *inst = wt_test_random_instance(50, 8);
    int32_t start[50];
    for (int i = 0; i < 50; i++) start[i] = 49 - i;
    wt_params p;
    wt_params_defaults(&p);
    p.algorithm = WT_ALGO_2OPT; /* the default is ils */
    p.backend = WT_BACKEND_CPU;
    p.start_tour = start;
    wt_result res = {0};
    assert_int_equal(wt_solve(inst, &p, &res, NULL), WT_OK);
    assert_int_equal(res.init_length, wt_tour_length(inst, start));
    wt_result_free(&res);
    start[3] = start[4];
    wt_error err = {0};
    assert_int_equal(wt_solve(inst, &p, &res, &err), WT_STATUS_INVALID_TOUR);
    assert_non_null(strstr(err.message, "repeats"));
    wt_instance_free(inst);
}

/* --backend cuda without a usable GPU fails with a message that says so;
 * with one, it runs. */
static void test_cuda_request_fails_cleanly_without_gpu(void **state)
{
    (void)state;
    wt_instance *inst = wt_test_random_instance(20, 1);
    wt_params p;
    wt_params_defaults(&p);
    p.algorithm = WT_ALGO_2OPT; /* the default is ils */
    p.backend = WT_BACKEND_CUDA;
    wt_result res = {0};
    wt_error err = {0};
    char device[128];
    if (wt_cuda_available(device, sizeof device)) {
        assert_int_equal(wt_solve(inst, &p, &res, &err), WT_OK);
        assert_int_equal(wt_tour_validate(res.tour, 20, &err), WT_OK);
        wt_result_free(&res);
    } else {
        assert_int_equal(wt_solve(inst, &p, &res, &err), WT_STATUS_NO_DEVICE);
        assert_non_null(strstr(err.message, "cuda"));
        assert_null(res.tour);
    }
    wt_instance_free(inst);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_delta_matches_length_difference),
        cmocka_unit_test(test_scan_finds_brute_force_best),
        cmocka_unit_test(test_row_bests_match_brute_force),
        cmocka_unit_test(test_ties_go_to_lowest_pair),
        cmocka_unit_test(test_descent_reaches_local_optimum),
        cmocka_unit_test(test_swaps),
        cmocka_unit_test(test_same_seed_same_tour_any_threads),
        cmocka_unit_test(test_stop_returns_valid_tour),
        cmocka_unit_test(test_progress_inside_a_pass),
        cmocka_unit_test(test_start_tour_is_used_and_checked),
        cmocka_unit_test(test_cuda_request_fails_cleanly_without_gpu),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
