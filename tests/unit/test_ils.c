/*
 * test_ils.c - Iterated Local Search on the CPU backend.
 *
 * Kick points are valid and reproducible; a double bridge keeps the tour a
 * permutation and is what it says (A B C D -> A C B D); ILS returns valid
 * tours that are 2-opt local optima (brute force), no longer than plain
 * 2-opt from the same start, the same for the same seed, and it honours the
 * kick budget and the time limit.
 */
#include "test_util.h"

#include "algo/ils.h"
#include "algo/ils_local.h"
#include "algo/policy.h"
#include "backend/cpu/cpu_2opt.h"
#include "backend/cpu/cpu_session.h"
#include "ls/kicks.h"

static void test_kick_points(void **state)
{
    (void)state;
    int p[3], q[3];
    assert_false(wt_ls_kick_points(1, 0, 7, p));
    for (int n = 8; n < 400; n += 37)
        for (uint64_t k = 0; k < 200; k++) {
            assert_true(wt_ls_kick_points(9, k, n, p));
            assert_true(0 < p[0] && p[0] < p[1] && p[1] < p[2] && p[2] < n);
            assert_true(p[2] - p[0] < 100);
            wt_ls_kick_points(9, k, n, q);
            assert_memory_equal(p, q, sizeof p);
        }
}

static void test_double_bridge(void **state)
{
    (void)state;
    wt_instance *inst = wt_test_random_instance(12, 1);
    int32_t t[12], out[12];
    for (int i = 0; i < 12; i++) t[i] = i;
    wt_params params;
    wt_params_defaults(&params);
    params.algorithm = WT_ALGO_2OPT; /* the default is ils */
    params.threads = 1;
    wt_search_ctl ctl;
    wt_ctl_init(&ctl, &params);
    const wt_session_ops *ops = &wt_cpu_session_ops;
    wt_device host;
    wt_device_host(&host);
    wt_tour_session *s = NULL;
    assert_int_equal(ops->open(&host, inst, t, &ctl, &s, NULL), WT_OK);
    assert_int_equal(ops->kick(s, 2, 5, 9, NULL), WT_OK); /* A=0,1 B=2..4 C=5..8 D=9..11 */
    ops->keep(s);
    assert_int_equal(ops->read_best(s, out, NULL), WT_OK);
    const int32_t want[12] = {0, 1, 5, 6, 7, 8, 2, 3, 4, 9, 10, 11};
    assert_memory_equal(out, want, sizeof want);
    assert_int_equal(ops->length(s), wt_tour_length(inst, want));
    assert_int_equal(ops->kick(s, 5, 5, 9, NULL), WT_STATUS_INVALID_ARGUMENT);
    ops->close(s);
    wt_instance_free(inst);
}

/* ILS on the CPU (the reference; tests/gpu cover cuda) with tuning t from
 * the given start tour method. */
static wt_result ils_run(const wt_instance *inst, const wt_tuning *t, wt_init_method init,
                         uint64_t seed, uint64_t kicks, int swaps, wt_ils_descent descent,
                         int threads)
{
    wt_params p;
    wt_params_defaults(&p);
    p.tuning = t;
    p.threads = threads;
    p.algorithm = WT_ALGO_ILS;
    p.backend = WT_BACKEND_CPU;
    p.ils_descent = descent;
    p.init = init;
    p.seed = seed;
    p.kicks = kicks;
    p.swaps = swaps;
    wt_result res = {0};
    wt_error err = {0};
    if (wt_solve(inst, &p, &res, &err) != WT_OK) fail_msg("ils: %s", err.message);
    return res;
}

/* searches: tuning.ils_searches (0: the default, by the kick budget). */
static wt_result ils_searching(const wt_instance *inst, uint64_t seed, uint64_t kicks, int swaps,
                               wt_ils_descent descent, int threads, int searches)
{
    wt_tuning t = {.ils_searches = searches};
    return ils_run(inst, &t, WT_INIT_RANDOM, seed, kicks, swaps, descent, threads);
}

static wt_result ils_with(const wt_instance *inst, uint64_t seed, uint64_t kicks, int swaps,
                          wt_ils_descent descent, int threads)
{
    return ils_searching(inst, seed, kicks, swaps, descent, threads, 0);
}

static wt_result ils(const wt_instance *inst, uint64_t seed, uint64_t kicks, int swaps)
{
    return ils_with(inst, seed, kicks, swaps, WT_ILS_FULL, 0);
}

static void test_ils_gives_local_optima_no_worse_than_2opt(void **state)
{
    (void)state;
    const int sizes[] = {5, 8, 50, 200};
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        int n = sizes[k];
        wt_instance *inst = wt_test_random_instance(n, 40 + (uint64_t)n);
        int swaps = k % 2 ? 1 : 0;
        /* The first kick of both runs is the same, and the best only improves. */
        wt_result plain = ils(inst, 3, 1, swaps);
        wt_result r = ils(inst, 3, 60, swaps);
        assert_int_equal(wt_tour_validate(r.tour, n, NULL), WT_OK);
        assert_int_equal(r.length, wt_tour_length(inst, r.tour));
        assert_true(r.length <= plain.length);
        assert_int_equal(r.ils.kicks, n < 8 ? 0 : 60); /* below 8 cities no kick exists */
        for (int i = 0; i < n - 2; i++)
            for (int j = i + 2; j < n; j++)
                assert_true(wt_2opt_move_delta(inst, r.tour, i, j) >= 0);
        wt_result again = ils(inst, 3, 60, swaps);
        assert_memory_equal(r.tour, again.tour, (size_t)n * sizeof(int32_t));
        wt_result_free(&plain);
        wt_result_free(&r);
        wt_result_free(&again);
        wt_instance_free(inst);
    }
}

/* Both descents: with a time limit and no kick budget, kicking until the
 * limit is the natural end. */
static void test_ils_time_limit(void **state)
{
    (void)state;
    wt_instance *inst = wt_test_random_instance(150, 7);
    for (int local = 0; local <= 1; local++) {
        wt_params p;
        wt_params_defaults(&p);
        p.algorithm = WT_ALGO_ILS;
        p.backend = local ? WT_BACKEND_AUTO : WT_BACKEND_CPU;
        p.ils_descent = local ? WT_ILS_LOCAL : WT_ILS_FULL;
        p.threads = 2;
        /* auto may start a GPU, whose context alone can take 0.3 s. */
        p.time_limit_s = local ? 1.5 : 0.3;
        wt_result res = {0};
        assert_int_equal(wt_solve(inst, &p, &res, NULL), WT_OK);
        assert_int_equal(res.stop, WT_STOP_DONE);
        /* how many kicks fit in the limit depends on the machine's load */
        assert_int_equal(wt_tour_validate(res.tour, 150, NULL), WT_OK);
        assert_int_equal(res.length, wt_tour_length(inst, res.tour));
        assert_true(res.time_s < 5.0);
        wt_result_free(&res);
    }
    wt_instance_free(inst);
}

/* A time limit that cuts the first descent short is no natural end: the
 * tour is not even a 2-opt local optimum, so the run says it stopped early. */
static void test_ils_time_limit_before_first_kick(void **state)
{
    (void)state;
    wt_instance *inst = wt_test_random_instance(3000, 7);
    const wt_ils_descent descents[] = {WT_ILS_FULL, WT_ILS_LOCAL, WT_ILS_AUTO};
    for (int d = 0; d < 3; d++) {
        wt_params p;
        wt_params_defaults(&p);
        p.algorithm = WT_ALGO_ILS;
        p.backend = WT_BACKEND_CPU;
        p.ils_descent = descents[d];
        p.init = WT_INIT_RANDOM;
        p.threads = 1;
        p.time_limit_s = 1e-6;
        wt_result res = {0};
        assert_int_equal(wt_solve(inst, &p, &res, NULL), WT_OK);
        assert_int_equal(res.ils.kicks, 0);
        assert_int_equal(res.stop, WT_STOP_TIME_LIMIT);
        assert_int_equal(wt_tour_validate(res.tour, 3000, NULL), WT_OK);
        wt_result_free(&res);
    }
    wt_instance_free(inst);
}

/* Fewer than 8 cities have no double bridge: the run ends at its first local
 * optimum, a natural end, instead of kicking in vain until the time limit. */
static void test_ils_too_small_to_kick(void **state)
{
    (void)state;
    for (int n = 3; n < 8; n++) {
        wt_instance *inst = wt_test_random_instance(n, (uint64_t)n);
        wt_params p;
        wt_params_defaults(&p);
        p.algorithm = WT_ALGO_ILS;
        p.backend = WT_BACKEND_CPU;
        p.threads = 1;
        p.time_limit_s = 5;
        wt_result res = {0};
        assert_int_equal(wt_solve(inst, &p, &res, NULL), WT_OK);
        assert_int_equal(res.ils.kicks, 0);
        assert_int_equal(res.stop, WT_STOP_DONE);
        assert_true(res.time_s < 4.0); /* not a wait for the limit */
        assert_int_equal(wt_tour_validate(res.tour, n, NULL), WT_OK);
        wt_result_free(&res);
        wt_instance_free(inst);
    }
}

/* Local descents (params.ils_descent = WT_ILS_LOCAL, algo/ils_local.c):
 * valid tours of exact length, no worse with more kicks, the same tour for
 * the same seed; below 8 cities the run is the full one. */
/* Local descents: `searches` searches (the threads' count when 0). */
static wt_result ils_local(const wt_instance *inst, uint64_t seed, uint64_t kicks, int threads,
                           int searches)
{
    return ils_searching(inst, seed, kicks, 0, WT_ILS_LOCAL, threads,
                         searches ? searches : threads);
}

static void test_ils_local_descents(void **state)
{
    (void)state;
    const int sizes[] = {5, 8, 60, 700};
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        int n = sizes[k];
        wt_instance *inst = wt_test_random_instance(n, 50 + (uint64_t)n);
        /* 1 thread, and 3 searches that meet every round (2000 kicks each). */
        int threads = k % 2 ? 3 : 1;
        wt_result few = ils_local(inst, 4, 1, threads, 0), r = ils_local(inst, 4, 9000, threads, 0);
        wt_result again = ils_local(inst, 4, 9000, threads, 0);
        assert_int_equal(wt_tour_validate(r.tour, n, NULL), WT_OK);
        assert_int_equal(r.length, wt_tour_length(inst, r.tour));
        assert_true(r.length <= few.length);
        assert_int_equal(r.ils.kicks, n < 8 ? 0 : 9000);
        assert_string_equal(r.backend, "cpu");
        assert_memory_equal(r.tour, again.tour, (size_t)n * sizeof(int32_t));
        if (n >= 60) assert_true(r.length < few.length); /* the kicks found something */
        wt_result_free(&few);
        wt_result_free(&r);
        wt_result_free(&again);
        wt_instance_free(inst);
    }
    /* auto, the default, is lk at this size: the same run. */
    wt_instance *inst = wt_test_random_instance(100, 3);
    wt_result a = ils_with(inst, 4, 500, 0, WT_ILS_AUTO, 2), l = ils_with(inst, 4, 500, 0,
                                                                         WT_ILS_LK, 2);
    assert_string_equal(a.backend, "cpu");
    assert_int_equal(a.ils.descent, WT_ILS_LK);
    assert_memory_equal(a.tour, l.tour, 100 * sizeof(int32_t));
    wt_result_free(&a);
    wt_result_free(&l);
    wt_result f = ils_with(inst, 4, 5, 0, WT_ILS_FULL, 2);
    assert_int_equal(f.ils.descent, WT_ILS_FULL);
    wt_result_free(&f);
    /* Beyond 250,000 cities auto is lk under a time limit of 45 us a city
     * or more, else local (a stop already asked for: no search runs). */
    wt_instance *big = wt_test_random_instance(250001, 5);
    double limits[] = {11.0, 11.3, 0};
    wt_ils_descent expect[] = {WT_ILS_LOCAL, WT_ILS_LK, WT_ILS_LOCAL};
    for (int i = 0; i < 3; i++) {
        wt_params q;
        wt_params_defaults(&q);
        q.algorithm = WT_ALGO_ILS;
        q.backend = WT_BACKEND_CPU;
        q.threads = 2;
        q.time_limit_s = limits[i];
        volatile int stop = 1;
        q.stop_flag = &stop;
        wt_result r = {0};
        wt_error e = {0};
        assert_int_equal(wt_solve(big, &q, &r, &e), WT_OK);
        assert_int_equal(r.ils.descent, expect[i]);
        wt_result_free(&r);
    }
    wt_instance_free(big);
    /* On the cuda backend the first descent runs on the GPU (tests/gpu);
     * without one, asking for it is the usual missing-device error. */
    wt_params p;
    wt_params_defaults(&p);
    p.algorithm = WT_ALGO_ILS;
    p.backend = WT_BACKEND_CUDA;
    p.ils_descent = WT_ILS_LOCAL;
    p.kicks = 50;
    wt_result res = {0};
    wt_error err = {0};
    char device[160];
    if (wt_cuda_available(device, sizeof device)) {
        assert_int_equal(wt_solve(inst, &p, &res, &err), WT_OK);
        assert_string_equal(res.backend, "cuda");
        assert_int_equal(res.ils.descent, WT_ILS_LOCAL);
        assert_int_equal(wt_tour_validate(res.tour, 100, NULL), WT_OK);
        wt_result_free(&res);
    } else {
        assert_int_equal(wt_solve(inst, &p, &res, &err), WT_STATUS_NO_DEVICE);
    }
    wt_instance_free(inst);
}

/* From 6000 cities a search, the searches kick segments of the tour
 * (ils_segments.c): 13,000 cities on 2 threads, 30,000 kicks (three rounds
 * of segments, then one of replicas, then segments again).  Valid tours of
 * exact length, the kick budget spent over several rounds, the same tour
 * for the same seed, and shorter with more kicks. */
static void test_ils_local_segments(void **state)
{
    (void)state;
    int n = 13000;
    wt_instance *inst = wt_test_random_instance(n, 77);
    wt_result few = ils_local(inst, 6, 1, 2, 0), r = ils_local(inst, 6, 30000, 2, 0);
    wt_result again = ils_local(inst, 6, 30000, 2, 0);
    assert_int_equal(wt_tour_validate(r.tour, n, NULL), WT_OK);
    assert_int_equal(r.length, wt_tour_length(inst, r.tour));
    assert_int_equal(wt_tour_validate(few.tour, n, NULL), WT_OK);
    assert_int_equal(few.length, wt_tour_length(inst, few.tour));
    assert_int_equal(r.ils.kicks, 30000);
    assert_true(r.ils.kicks_accepted > 0);
    assert_true(r.length < few.length);
    assert_int_equal(r.length, again.length);
    assert_memory_equal(r.tour, again.tour, (size_t)n * sizeof(int32_t));
    wt_result_free(&few);
    wt_result_free(&r);
    wt_result_free(&again);
    /* A time limit in the segments' first descent, and one in their kicks:
     * valid tours of exact length either way (no kick budget). */
    const double limits[] = {0.001, 0.4};
    for (int k = 0; k < 2; k++) {
        wt_params p;
        wt_params_defaults(&p);
        p.algorithm = WT_ALGO_ILS;
        p.backend = WT_BACKEND_CPU;
        p.ils_descent = WT_ILS_LOCAL;
        p.init = WT_INIT_RANDOM;
        p.threads = 2;
        p.time_limit_s = limits[k];
        wt_result res = {0};
        assert_int_equal(wt_solve(inst, &p, &res, NULL), WT_OK);
        assert_int_equal(wt_tour_validate(res.tour, n, NULL), WT_OK);
        assert_int_equal(res.length, wt_tour_length(inst, res.tour));
        if (k == 0) assert_int_equal(res.stop, WT_STOP_TIME_LIMIT);
        wt_result_free(&res);
    }
    wt_instance_free(inst);
}

/* The first descent's whole-tour 2-opt moves on a two-level list first
 * (tuning ils_plain_list_min lowered to this 13,000-city greedy tour, on 2
 * searches: segments, then the whole tour): valid tours of exact length,
 * the same tour again and on 1 and 3 threads, the first descent within
 * 0.5% of the array's alone, and shorter after kicks. */
static void test_ils_local_list_first_descent(void **state)
{
    (void)state;
    int n = 13000;
    wt_instance *inst = wt_test_random_instance(n, 91);
    wt_tuning list = {.ils_searches = 2, .ils_plain_list_min = 1000};
    wt_tuning array = {.ils_searches = 2, .ils_plain_list_min = WT_TUNING_OFF};
    wt_result a = ils_run(inst, &array, WT_INIT_GREEDY, 3, 1, 0, WT_ILS_LOCAL, 2);
    wt_result l = ils_run(inst, &list, WT_INIT_GREEDY, 3, 1, 0, WT_ILS_LOCAL, 2);
    wt_result k = ils_run(inst, &list, WT_INIT_GREEDY, 3, 4000, 0, WT_ILS_LOCAL, 2);
    for (int threads = 1; threads <= 3; threads += 2) {
        wt_result again = ils_run(inst, &list, WT_INIT_GREEDY, 3, 4000, 0, WT_ILS_LOCAL, threads);
        assert_int_equal(again.length, k.length);
        assert_memory_equal(again.tour, k.tour, (size_t)n * sizeof(int32_t));
        wt_result_free(&again);
    }
    const wt_result *all[] = {&a, &l, &k};
    for (int i = 0; i < 3; i++) {
        assert_int_equal(wt_tour_validate(all[i]->tour, n, NULL), WT_OK);
        assert_int_equal(all[i]->length, wt_tour_length(inst, all[i]->tour));
        assert_true(all[i]->length < all[i]->init_length);
    }
    assert_true((double)l.length <= 1.005 * (double)a.length);
    assert_true(k.length < l.length);
    wt_result_free(&a);
    wt_result_free(&l);
    wt_result_free(&k);
    wt_instance_free(inst);
}

/* A kick budget fixes the searches (wt_policy_ils_searches), so the same
 * seed and budget give the same tour on 1, 2 and 3 threads, whichever way
 * the searches share the kicks (their thresholds lowered to a 400-city
 * instance): replicas (local and LK descents, 3 searches), merged replicas
 * (LK, 3 searches), segments (local and LK, 2 searches; local also with
 * four segments a search in turn), LK with the flip
 * chain (no ascent) and with the default step of larger tours (the ascent,
 * whose steps a kick budget caps, then the 5-opt step on its alpha lists);
 * and the default
 * number, by the budget (12,000 kicks: 2 searches). */
enum share { REPLICAS, MERGED, SEGMENTS, SEGMENT_TURNS };
enum step { FLIP_CHAIN, DEFAULT_STEP };

static wt_result greedy_ils(const wt_instance *inst, uint64_t kicks, wt_ils_descent descent,
                            int threads, int searches, enum share share, enum step step)
{
    wt_tuning t = {0};
    t.ils_searches = searches;
    if (step == FLIP_CHAIN) t.lk_alpha = WT_TUNING_OFF; /* no ascent, so the flip chain */
    /* the default's step from WT_LK_KOPT_MIN_CITIES cities, on its lists */
    if (step == DEFAULT_STEP) t.lk_kopt = WT_LK_KOPT_DEFAULT;
    t.ils_merged_min = share == MERGED ? 100 : WT_TUNING_OFF;
    t.ils_segment_min = share >= SEGMENTS ? 100 : WT_TUNING_OFF;
    /* 200 cities a search: four segments of 50 in turn */
    if (share == SEGMENT_TURNS) t.ils_segment_max = 60;
    /* greedy: a short first descent */
    return ils_run(inst, &t, WT_INIT_GREEDY, 5, kicks, 0, descent, threads);
}

static void same_on_threads(const wt_instance *inst, uint64_t kicks, wt_ils_descent descent,
                            int searches, enum share share, enum step step)
{
    int n = wt_instance_n(inst);
    wt_result one = greedy_ils(inst, kicks, descent, 1, searches, share, step);
    assert_int_equal(wt_tour_validate(one.tour, n, NULL), WT_OK);
    assert_int_equal(one.length, wt_tour_length(inst, one.tour));
    assert_int_equal(one.ils.kicks, kicks);
    for (int threads = 2; threads <= 3; threads++) {
        wt_result other = greedy_ils(inst, kicks, descent, threads, searches, share, step);
        assert_int_equal(other.length, one.length);
        assert_memory_equal(other.tour, one.tour, (size_t)n * sizeof(int32_t));
        wt_result_free(&other);
    }
    wt_result_free(&one);
}

static void test_ils_same_tour_on_any_threads(void **state)
{
    (void)state;
    wt_instance *inst = wt_test_random_instance(400, 91);
    same_on_threads(inst, 3000, WT_ILS_LOCAL, 3, REPLICAS, FLIP_CHAIN);
    for (enum step step = FLIP_CHAIN; step <= DEFAULT_STEP; step++) {
        uint64_t kicks = step == FLIP_CHAIN ? 600 : 300; /* 5-opt kicks cost more */
        same_on_threads(inst, kicks, WT_ILS_LK, 3, REPLICAS, step);
        same_on_threads(inst, kicks, WT_ILS_LK, 3, MERGED, step);
        same_on_threads(inst, kicks, WT_ILS_LK, 2, SEGMENTS, step);
    }
    same_on_threads(inst, 3000, WT_ILS_LOCAL, 2, SEGMENTS, FLIP_CHAIN);
    same_on_threads(inst, 3000, WT_ILS_LOCAL, 2, SEGMENT_TURNS, FLIP_CHAIN);
    same_on_threads(inst, 12000, WT_ILS_LOCAL, 0, REPLICAS, FLIP_CHAIN);
    wt_instance_free(inst);
}

/* The stall rule of search_ctl.h: a report returns true once stall_steps
 * reports in a row gained less than stall_gain, without expiring ctl. */
static void test_ctl_stall_rule(void **state)
{
    (void)state;
    wt_params p;
    wt_params_defaults(&p);
    p.algorithm = WT_ALGO_2OPT; /* the default is ils */
    wt_search_ctl ctl;
    wt_ctl_init(&ctl, &p);
    ctl.stall_steps = 3;
    ctl.stall_gain = 0.01;
    const int64_t lengths[] = {1000, 990, 980, 970, 969, 968, 967};
    for (int i = 0; i < 7; i++)
        assert_int_equal(wt_ctl_report(&ctl, lengths[i], 0, false), i == 6);
    assert_int_equal(ctl.stop, WT_STOP_DONE);
}

/* Local ILS from a 2-opted tour (the cuda backend's first descent) on
 * segments: the first descent is two rounds of segments instead of a
 * descent of the whole tour.  Valid, exact, the same for the same seed. */
static void test_ils_local_from_2opted(void **state)
{
    (void)state;
    int n = 13000;
    wt_instance *inst = wt_test_random_instance(n, 78);
    int32_t *a = malloc((size_t)n * sizeof *a), *b = malloc((size_t)n * sizeof *b);
    assert_int_equal(wt_tour_init(inst, WT_INIT_SPACEFILL, 1, a, NULL), WT_OK);
    memcpy(b, a, (size_t)n * sizeof *a);
    int64_t start = wt_tour_length(inst, a);
    wt_params p;
    wt_params_defaults(&p);
    p.algorithm = WT_ALGO_2OPT; /* the default is ils */
    p.threads = 2;
    for (int r = 0; r < 2; r++) {
        wt_search_ctl ctl;
        wt_ctl_init(&ctl, &p);
        wt_search_stats stats = {0};
        wt_status st = wt_ils_local_run(inst, r ? b : a, &ctl, true, false, NULL, NULL, 3000,
                                        &stats, NULL);
        assert_int_equal(st, WT_OK);
        assert_int_equal(stats.kicks, 3000);
    }
    assert_int_equal(wt_tour_validate(a, n, NULL), WT_OK);
    assert_true(wt_tour_length(inst, a) < start);
    assert_memory_equal(a, b, (size_t)n * sizeof *a);
    free(a);
    free(b);
    wt_instance_free(inst);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_kick_points),
        cmocka_unit_test(test_double_bridge),
        cmocka_unit_test(test_ils_gives_local_optima_no_worse_than_2opt),
        cmocka_unit_test(test_ils_time_limit),
        cmocka_unit_test(test_ils_time_limit_before_first_kick),
        cmocka_unit_test(test_ils_too_small_to_kick),
        cmocka_unit_test(test_ils_local_descents),
        cmocka_unit_test(test_ils_local_segments),
        cmocka_unit_test(test_ils_local_list_first_descent),
        cmocka_unit_test(test_ils_same_tour_on_any_threads),
        cmocka_unit_test(test_ctl_stall_rule),
        cmocka_unit_test(test_ils_local_from_2opted),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
