/*
 * test_batch.c - solve-batch on the CPU (algo/batch.c, backend/cpu/cpu_batch.c)
 * and the steps both implementations share (core/batch_search.h).
 *
 * The steps: every item's planned move, applied by its reversals, changes
 * the tour's length by exactly the delta its edges say, on tours of 4 to
 * 40 cities; kicks too.  The batch: valid tours of every instance with
 * their exact lengths, no longer than the start tours; the same tours for
 * the same seed whatever the thread count and whatever else the batch
 * holds; instances that cannot be solved reported one by one with the
 * others' tours intact; a time limit, the stop flag and the progress
 * callback honoured; every parameter checked.  The host's LK ILS
 * (algo/batch_lk.c): valid tours with exact lengths, the same on any
 * thread count for a kick budget, the stops honoured, never for the
 * windows' paths, and auto's choice.
 */
#include "batch_test_util.h"

#include <math.h>
#include <pthread.h>
#include <time.h>

#include "algo/batch.h"
#include "algo/batch_lk.h"
#include "core/batch_search.h"
#include "core/init.h"
#include "core/instance.h"

static double seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* ---------------------------------------------------------- the steps */

/* A tour of inst with its positions and edge lengths. */
typedef struct plain_tour {
    const wt_instance *inst;
    int n;
    int32_t *tour, *pos;
    int64_t *e;
} plain_tour;

static void plain_reverse(plain_tour *t, wt_bs_reversal r)
{
    int n = t->n;
    for (int q = 0; q < r.len / 2; q++) {
        int p1 = wt_bs_wrap(r.from + q, n), p2 = wt_bs_wrap(r.from + r.len - 1 - q, n);
        int32_t c = t->tour[p1];
        t->tour[p1] = t->tour[p2];
        t->tour[p2] = c;
    }
    for (int p = 0; p < n; p++) {
        t->pos[t->tour[p]] = p;
        t->e[p] = wt_dist(t->inst, t->tour[p], t->tour[(p + 1) % n]);
    }
}

static void plain_load(plain_tour *t, const int32_t *tour)
{
    memcpy(t->tour, tour, (size_t)t->n * sizeof *tour);
    plain_reverse(t, (wt_bs_reversal){0, 0});
}

/* Applies m's reversals to t: a tour again, its length changed by the delta
 * of m's edges (the new edge (a, c) its own), a next to c. */
static void check_move(plain_tour *t, const wt_bs_move *m, int a, int c)
{
    const int n = t->n;
    int64_t delta = wt_dist(t->inst, a, c), before = wt_tour_length(t->inst, t->tour);
    for (int q = 0; q < m->n_add; q++) delta += wt_dist(t->inst, m->add_u[q], m->add_w[q]);
    for (int q = 0; q < m->n_rem; q++) delta -= t->e[m->rem[q]];
    wt_bs_reversal r[3];
    int count = wt_bs_reversals(m, n, r);
    for (int q = 0; q < count; q++) {
        assert_true(r[q].len <= n - 2);
        plain_reverse(t, r[q]);
    }
    assert_int_equal(wt_tour_validate(t->tour, n, NULL), WT_OK);
    assert_int_equal(wt_tour_length(t->inst, t->tour) - before, delta);
    int apart = wt_bs_wrap(t->pos[a] - t->pos[c] + n, n);
    assert_true(apart == 1 || apart == n - 1);
    for (int q = 0; q < m->n_add; q++) { /* every new edge is in the tour */
        apart = wt_bs_wrap(t->pos[m->add_u[q]] - t->pos[m->add_w[q]] + n, n);
        assert_true(apart == 1 || apart == n - 1);
    }
}

/* Every item (a, c, variant) of every pair of cities, on random tours:
 * the reversals of a planned move change the length by its delta, and the
 * result is a tour. */
static void test_moves_change_length_by_their_delta(void **state)
{
    (void)state;
    for (int n = 4; n <= 40; n += n < 12 ? 1 : 7) {
        wt_instance *inst = wt_test_random_instance(n, (uint64_t)n);
        plain_tour t = {inst, n, malloc(2 * (size_t)n * sizeof(int32_t)), NULL,
                        malloc((size_t)n * sizeof(int64_t))};
        t.pos = t.tour + n;
        int32_t *start = malloc((size_t)n * sizeof *start);
        for (int trial = 0; trial < 3; trial++) {
            wt_test_random_tour(n, (uint64_t)(100 * n + trial), start);
            for (int a = 0; a < n; a++)
                for (int c = 0; c < n; c++)
                    for (int v = 0; v < WT_BS_VARIANTS && c != a; v++) {
                        plain_load(&t, start);
                        wt_bs_move m;
                        if (!wt_bs_plan(t.tour, t.pos, n, a, c, v, &m)) continue;
                        check_move(&t, &m, a, c);
                    }
        }
        free(start);
        free(t.tour);
        free(t.e);
        wt_instance_free(inst);
    }
}

/* Every sequential 3-opt item of every pair of cities, every city a third
 * (lists of all the others), on random tours: a tour again, its length
 * changed by the delta, every new edge in it, every removed edge distinct,
 * and gains at both levels positive. */
static void test_three_opt_moves(void **state)
{
    (void)state;
    for (int n = 5; n <= 33; n += n < 12 ? 1 : 7) {
        wt_instance *inst = wt_test_random_instance(n, (uint64_t)n + 50);
        plain_tour t = {inst, n, malloc(2 * (size_t)n * sizeof(int32_t)), NULL,
                        malloc((size_t)n * sizeof(int64_t))};
        t.pos = t.tour + n;
        int k = n - 1;
        int32_t *nb = malloc((size_t)n * (size_t)k * sizeof *nb);
        int64_t *nbd = malloc((size_t)n * (size_t)k * sizeof *nbd);
        for (int a = 0; a < n; a++)
            for (int s = 0; s < k; s++) {
                nb[a * k + s] = (a + 1 + s) % n;
                nbd[a * k + s] = wt_dist(inst, a, nb[a * k + s]);
            }
        wt_bs_lists L = {nb, nbd, k, k};
        int32_t *start = malloc((size_t)n * sizeof *start);
        int planned = 0;
        for (int trial = 0; trial < 2; trial++) {
            wt_test_random_tour(n, (uint64_t)(300 * n + trial), start);
            for (int a = 0; a < n; a++)
                for (int s = 0; s < k; s++)
                    for (int v = WT_BS_VARIANTS; v < wt_bs_variants(k); v++) {
                        plain_load(&t, start);
                        wt_bs_move m;
                        if (!wt_bs_plan_item(t.tour, t.pos, t.e, n, &L, a, s, v, &m)) continue;
                        planned++;
                        assert_true(m.seq3 && m.n_rem == 3 && m.n_add == 2);
                        assert_true(m.rem[0] != m.rem[1] && m.rem[1] != m.rem[2] &&
                                    m.rem[0] != m.rem[2]);
                        int c = nb[a * k + s];
                        int64_t g1 = t.e[m.rem[0]] - wt_dist(inst, a, c);
                        assert_true(g1 > 0);
                        assert_true(g1 + t.e[m.rem[1]] - wt_dist(inst, m.add_u[0], m.add_w[0]) >
                                    0);
                        check_move(&t, &m, a, c);
                    }
        }
        assert_true(planned > 0);
        free(start);
        free(nb);
        free(nbd);
        free(t.tour);
        free(t.e);
        wt_instance_free(inst);
    }
}

/* Kicks swap two segments or reverse the order of three: the three or four
 * edges they name go (none comes back where every part has two cities or
 * more), as many come, and the same (seed, instance, kick) draws the same
 * cuts. */
static void test_kicks(void **state)
{
    (void)state;
    for (int n = 8; n <= 60; n += 13) {
        wt_instance *inst = wt_test_random_instance(n, 7);
        plain_tour t = {inst, n, malloc(2 * (size_t)n * sizeof(int32_t)), NULL,
                        malloc((size_t)n * sizeof(int64_t))};
        t.pos = t.tour + n;
        int32_t *start = malloc((size_t)n * sizeof *start);
        wt_test_random_tour(n, 3, start);
        plain_load(&t, start);
        for (uint64_t k = 0; k < 1000; k++) {
            int window = k % 2 ? 3 + (int)(k % 17) : INT32_MAX, edges = k % 4 < 2 ? 3 : 4;
            wt_bs_kick_cut cut = wt_bs_kick(9, 4, k, n, window, -1, edges),
                           again = wt_bs_kick(9, 4, k, n, window, -1, edges);
            assert_memory_equal(&cut, &again, sizeof cut);
            assert_true(cut.l1 >= 1 && cut.l2 >= 1 && cut.l1 + cut.l2 + cut.l3 <= n - 1);
            int rem[4], add[4];
            assert_int_equal(wt_bs_kick_edges(cut, n, false, rem), edges);
            int64_t before = wt_tour_length(inst, t.tour), delta = 0;
            for (int q = 0; q < edges; q++) delta -= t.e[rem[q]];
            int32_t was[4][2]; /* the removed edges' cities */
            for (int q = 0; q < edges; q++) {
                was[q][0] = t.tour[rem[q]];
                was[q][1] = t.tour[(rem[q] + 1) % n];
            }
            wt_bs_reversal r[4];
            int count = wt_bs_kick_reversals(cut, n, r);
            for (int q = 0; q < count; q++) plain_reverse(&t, r[q]);
            assert_int_equal(wt_bs_kick_edges(cut, n, true, add), edges);
            for (int q = 0; q < edges; q++) delta += t.e[add[q]];
            assert_int_equal(wt_tour_validate(t.tour, n, NULL), WT_OK);
            assert_int_equal(wt_tour_length(inst, t.tour) - before, delta);
            bool long_parts = cut.l1 > 1 && cut.l2 > 1 && (edges == 3 || cut.l3 > 1) &&
                              n - cut.l1 - cut.l2 - cut.l3 > 1;
            for (int q = 0; q < edges && long_parts; q++) { /* every removed edge is gone */
                int apart = wt_bs_wrap(t.pos[was[q][0]] - t.pos[was[q][1]] + n, n);
                assert_true(apart != 1 && apart != n - 1);
            }
        }
        free(start);
        free(t.tour);
        free(t.e);
        wt_instance_free(inst);
    }
}

/* ---------------------------------------------------------- the batch */

static wt_batch_params cpu_params(uint64_t kicks, int threads)
{
    wt_batch_params p;
    wt_batch_params_defaults(&p);
    p.backend = WT_BACKEND_CPU;
    p.kicks = kicks;
    p.threads = threads;
    return p;
}

static void test_valid_exact_and_better(void **state)
{
    (void)state;
    enum { COUNT = 12 };
    wt_instance **in = batch_uniform_set(COUNT, 150, 1);
    wt_batch_params p = cpu_params(300, 2);
    wt_batch_result r = batch_solve(in, COUNT, &p);
    assert_int_equal(r.count, COUNT);
    assert_int_equal(r.failed, 0);
    assert_int_equal(r.on_gpu, 0);
    assert_string_equal(r.backend, "cpu");
    assert_int_equal(r.stop, WT_STOP_DONE);
    assert_int_equal(r.kicks, 300 * COUNT);
    batch_check_tours(in, &r);
    for (int i = 0; i < COUNT; i++) {
        assert_int_equal(r.tours[i].kicks, 300);
        assert_true(r.tours[i].length < r.tours[i].init_length);
        assert_false(r.tours[i].on_gpu);
    }
    wt_batch_result_free(&r);
    wt_batch_result_free(&r); /* zeroed: a second free is a no-op */
    wt_batch_result_free(NULL);
    batch_set_free(in, COUNT);
}

/* The same seed: the same tours for 1, 2 and 5 threads; another seed
 * gives other kicks. */
static void test_reproducible_across_threads(void **state)
{
    (void)state;
    enum { COUNT = 7 };
    wt_instance **in = batch_uniform_set(COUNT, 120, 40);
    wt_batch_params p = cpu_params(400, 1);
    wt_batch_result one = batch_solve(in, COUNT, &p);
    p.threads = 2;
    wt_batch_result two = batch_solve(in, COUNT, &p);
    p.threads = 5;
    wt_batch_result five = batch_solve(in, COUNT, &p);
    batch_assert_same(&one, &two);
    batch_assert_same(&one, &five);
    p.seed = 2;
    wt_batch_result other = batch_solve(in, COUNT, &p);
    int differ = 0;
    for (int i = 0; i < COUNT; i++)
        differ += memcmp(one.tours[i].tour, other.tours[i].tour, 120 * sizeof(int32_t)) != 0;
    assert_true(differ > 0);
    wt_batch_result_free(&one);
    wt_batch_result_free(&two);
    wt_batch_result_free(&five);
    wt_batch_result_free(&other);
    batch_set_free(in, COUNT);
}

/* Instance i's tour depends on i and itself, not on what else the batch
 * holds. */
static void test_independent_of_the_others(void **state)
{
    (void)state;
    wt_instance **in = batch_uniform_set(3, 90, 7);
    wt_batch_params p = cpu_params(200, 2);
    wt_batch_result all = batch_solve(in, 3, &p);
    wt_instance *first_two[2] = {in[0], in[1]};
    wt_batch_result some = batch_solve(first_two, 2, &p);
    for (int i = 0; i < 2; i++)
        assert_memory_equal(all.tours[i].tour, some.tours[i].tour, 90 * sizeof(int32_t));
    wt_batch_result_free(&all);
    wt_batch_result_free(&some);
    batch_set_free(in, 3);
}

/* Every edge weight type and tiny instances: valid, exact; the small
 * TSPLIB ones of tests/data reach their optimum. */
static void test_types_and_sizes(void **state)
{
    (void)state;
    const char *files[] = {"berlin52.tsp", "att48.tsp", "ulysses22.tsp", "gr24.tsp",
                           "bays29.tsp", "fri26.tsp"};
    enum { FILES = sizeof files / sizeof files[0], TINY = 6 };
    wt_instance *in[FILES + TINY];
    for (int f = 0; f < FILES; f++) {
        char *path = wt_test_path(wt_test_data_dir(), files[f]);
        wt_error err = {0};
        if (wt_instance_read(path, &in[f], &err) != WT_OK) fail_msg("%s", err.message);
        free(path);
    }
    for (int t = 0; t < TINY; t++) in[FILES + t] = wt_test_random_instance(3 + t, 50 + (uint64_t)t);
    wt_batch_params p = cpu_params(3000, 2);
    wt_batch_result r = batch_solve(in, FILES + TINY, &p);
    assert_int_equal(r.failed, 0);
    batch_check_tours(in, &r);
    for (int f = 0; f < FILES; f++)
        assert_int_equal(r.tours[f].length, wt_instance_known_optimum(in[f]));
    for (int t = 0; t < TINY; t++) /* no kicks below 8 cities */
        assert_int_equal(r.tours[FILES + t].kicks, 3 + t < WT_BS_MIN_KICK_CITIES ? 0 : 3000);
    wt_batch_result_free(&r);
    for (int i = 0; i < FILES + TINY; i++) wt_instance_free(in[i]);
}

/* One instance repeated in a row (its lists computed once and copied)
 * gives the tours of equal instances held apart. */
static void test_repeated_instance(void **state)
{
    (void)state;
    wt_instance **apart = batch_uniform_set(1, 300, 21), **more = batch_uniform_set(1, 300, 21);
    wt_instance **third = batch_uniform_set(1, 300, 21);
    wt_instance *same[3] = {apart[0], apart[0], apart[0]}, *held[3] = {apart[0], more[0], third[0]};
    wt_batch_params p = cpu_params(200, 2);
    wt_batch_result a = batch_solve(same, 3, &p), b = batch_solve(held, 3, &p);
    assert_int_equal(a.failed, 0);
    batch_assert_same(&a, &b);
    wt_batch_result_free(&a);
    wt_batch_result_free(&b);
    batch_set_free(apart, 1);
    batch_set_free(more, 1);
    batch_set_free(third, 1);
}

/* A NULL instance and one too large fail alone; the others' tours equal
 * those of a batch without them... at the same index. */
static void test_bad_instances_reported_alone(void **state)
{
    (void)state;
    wt_instance **good = batch_uniform_set(3, 80, 11);
    wt_instance *big = wt_test_random_instance(WT_BATCH_MAX_CITIES + 1, 1);
    wt_instance *in[5] = {good[0], NULL, good[1], big, good[2]};
    wt_batch_params p = cpu_params(100, 2);
    wt_batch_result r = batch_solve(in, 5, &p);
    assert_int_equal(r.failed, 2);
    assert_int_equal(r.tours[1].status, WT_STATUS_INVALID_ARGUMENT);
    assert_non_null(strstr(r.tours[1].message, "instance 1"));
    assert_null(r.tours[1].tour);
    assert_int_equal(r.tours[1].length, -1);
    assert_int_equal(r.tours[3].status, WT_STATUS_TOO_LARGE);
    assert_non_null(strstr(r.tours[3].message, "instance 3"));
    assert_null(r.tours[3].tour);
    for (int i = 0; i < 5; i += 2) assert_int_equal(r.tours[i].status, WT_OK);
    batch_check_tours(in, &r);
    wt_batch_result_free(&r);
    wt_instance_free(big);
    batch_set_free(good, 3);
}

/* Points: a NaN spoils its own instance only; EUC_2D and EUC_2D_REAL. */
static void test_points(void **state)
{
    (void)state;
    enum { COUNT = 4, N = 60 };
    double *xy = malloc(COUNT * N * 2 * sizeof *xy);
    wt_rng rng;
    wt_rng_seed(&rng, 5);
    for (int i = 0; i < COUNT * N * 2; i++) xy[i] = wt_rng_uniform(&rng);
    xy[2 * N + 7] = NAN; /* instance 1 */
    wt_batch_params p = cpu_params(200, 2);
    wt_batch_result r;
    wt_error err = {0};
    assert_int_equal(wt_solve_batch_points(xy, COUNT, N, WT_EUC_2D_REAL, &p, &r, &err), WT_OK);
    assert_int_equal(r.failed, 1);
    assert_int_equal(r.tours[1].status, WT_STATUS_INVALID_ARGUMENT);
    assert_non_null(strstr(r.tours[1].message, "instance 1"));
    for (int i = 0; i < COUNT; i++) {
        if (i == 1) continue;
        assert_int_equal(r.tours[i].status, WT_OK);
        assert_int_equal(wt_tour_validate(r.tours[i].tour, N, NULL), WT_OK);
        assert_true(r.tours[i].length_real > 1 && r.tours[i].length_real < N);
    }
    wt_batch_result_free(&r);
    for (int i = 0; i < COUNT * N * 2; i++) xy[i] = floor(1000 * wt_rng_uniform(&rng));
    assert_int_equal(wt_solve_batch_points(xy, COUNT, N, WT_EUC_2D, &p, &r, &err), WT_OK);
    assert_int_equal(r.failed, 0);
    assert_true(r.tours[0].length == (int64_t)r.tours[0].length_real);
    wt_batch_result_free(&r);
    assert_int_equal(wt_solve_batch_points(xy, COUNT, 2, WT_EUC_2D, &p, &r, &err),
                     WT_STATUS_INVALID_ARGUMENT);
    assert_int_equal(wt_solve_batch_points(xy, COUNT, N, WT_GEO, &p, &r, &err),
                     WT_STATUS_INVALID_ARGUMENT);
    assert_int_equal(wt_solve_batch_points(NULL, COUNT, N, WT_EUC_2D, &p, &r, &err),
                     WT_STATUS_INVALID_ARGUMENT);
    free(xy);
}

/* Under a time limit without a kick budget, instances share the time: the
 * call ends (soon after the limit; the bound leaves room for a loaded
 * machine), every tour valid, stop "done".  How many kicks each share
 * holds depends on the machine, so none is asserted. */
static void test_time_limit_shared(void **state)
{
    (void)state;
    enum { COUNT = 40 };
    wt_instance **in = batch_uniform_set(COUNT, 200, 3);
    wt_batch_params p = cpu_params(0, 2);
    p.time_limit_s = 1.0;
    double t0 = seconds();
    wt_batch_result r = batch_solve(in, COUNT, &p);
    double took = seconds() - t0;
    print_message("    40 x 200 cities, 1 s: %.3f s, %llu kicks\n", took,
                  (unsigned long long)r.kicks);
    assert_true(took < 1.0 + 5.0);
    /* "done", or "time-limit" where a loaded machine had not ended some
     * instance's first descent by then (issue 42: no work is asserted). */
    assert_true(r.stop == WT_STOP_DONE || r.stop == WT_STOP_TIME_LIMIT);
    batch_check_tours(in, &r);
    wt_batch_result_free(&r);
    batch_set_free(in, COUNT);
}

/* A kick budget the limit cuts short ends with stop "time-limit". */
static void test_time_limit_cuts_kicks(void **state)
{
    (void)state;
    wt_instance **in = batch_uniform_set(4, 300, 9);
    wt_batch_params p = cpu_params(100000000, 2);
    p.time_limit_s = 0.3;
    double t0 = seconds();
    wt_batch_result r = batch_solve(in, 4, &p);
    assert_true(seconds() - t0 < 0.3 + 5.0); /* room for a loaded machine */
    assert_int_equal(r.stop, WT_STOP_TIME_LIMIT);
    batch_check_tours(in, &r);
    wt_batch_result_free(&r);
    batch_set_free(in, 4);
}

static int stop_at_once(const wt_batch_progress *pr, void *user)
{
    int *calls = user;
    (*calls)++;
    assert_true(pr->count == 6 && pr->done >= 0 && pr->done <= 6);
    return 1;
}

/* The stop flag and the progress callback stop a batch of six instances
 * with parameters p: stop "interrupted", every tour still valid. */
static void check_stops(wt_instance **in, wt_batch_params p)
{
    volatile int flag = 1;
    p.stop_flag = &flag;
    wt_batch_result r = batch_solve(in, 6, &p);
    assert_int_equal(r.stop, WT_STOP_INTERRUPTED);
    assert_int_equal(r.kicks, 0);
    batch_check_tours(in, &r);
    wt_batch_result_free(&r);
    int calls = 0;
    p.stop_flag = NULL;
    p.progress = stop_at_once;
    p.progress_user = &calls;
    p.progress_interval_s = 0.01;
    double t0 = seconds();
    r = batch_solve(in, 6, &p);
    assert_true(seconds() - t0 < 5.0);
    assert_true(calls >= 1);
    assert_int_equal(r.stop, WT_STOP_INTERRUPTED);
    batch_check_tours(in, &r);
    wt_batch_result_free(&r);
}

/* The stop flag and the progress callback stop the kicks. */
static void test_stops(void **state)
{
    (void)state;
    wt_instance **in = batch_uniform_set(6, 200, 21);
    check_stops(in, cpu_params(100000000, 2));
    batch_set_free(in, 6);
}

/* Raises *flag `after` seconds after it starts (a Ctrl-C). */
typedef struct flag_raiser {
    volatile int *flag;
    double after;
} flag_raiser;

static void *raise_flag_later(void *arg)
{
    const flag_raiser *r = arg;
    struct timespec ts = {(time_t)r->after, (long)((r->after - (time_t)r->after) * 1e9)};
    nanosleep(&ts, NULL);
    *r->flag = 1;
    return NULL;
}

/* The checks of a batch cut short: every tour valid with its exact length,
 * most instances never searched (no kicks, their start tours' length), and
 * among them one whose tour is exactly the greedy tour the library starts
 * from (instance 0 is prepared first, before any stop). */
static void check_cut_batch(wt_instance *const *in, int count, const wt_batch_result *r,
                            uint64_t seed)
{
    batch_check_tours(in, r);
    assert_int_equal(r->failed, 0);
    int kept = 0, tried = 0;
    bool greedy_kept = false;
    int32_t *greedy = malloc((size_t)wt_instance_n(in[0]) * sizeof *greedy);
    for (int i = 0; i < count; i++) {
        const wt_batch_tour *t = &r->tours[i];
        if (t->kicks != 0 || t->length != t->init_length) continue;
        kept++;
        if (greedy_kept || tried++ >= 100) continue;
        wt_error err = {0};
        assert_int_equal(wt_tour_init_threads(in[i], WT_INIT_GREEDY, seed, 1, greedy, &err),
                         WT_OK);
        greedy_kept = memcmp(greedy, t->tour, (size_t)t->n * sizeof *greedy) == 0;
    }
    free(greedy);
    print_message("    %d of %d instances kept their start tours\n", kept, count);
    assert_true(kept >= count / 2);
    assert_true(greedy_kept);
}

/* Issue 39: a time limit far shorter than the batch's work (2,000 x 1,000
 * cities: about 1.5 s for the start tours and lists alone on 2 threads,
 * then a first descent each) ends the call soon after it: the instances
 * not reached keep their start tours, and the stop says "time-limit" (not
 * "done": the time was not enough).  It took the whole first descents
 * before (34 s for 3,000 such instances).  Wall-time bounds are loose. */
static void test_time_limit_cuts_the_batch(void **state)
{
    (void)state;
    enum { COUNT = 2000 };
    wt_instance **in = batch_uniform_set(COUNT, 1000, 5);
    wt_batch_params p = cpu_params(0, 2);
    p.time_limit_s = 0.5;
    double t0 = seconds();
    wt_batch_result r = batch_solve(in, COUNT, &p);
    double took = seconds() - t0;
    print_message("    2000 x 1000 cities, 0.5 s: %.3f s\n", took);
    assert_true(took < 0.5 + 9.5);
    assert_int_equal(r.stop, WT_STOP_TIME_LIMIT);
    check_cut_batch(in, COUNT, &r, p.seed);
    wt_batch_result_free(&r);
    batch_set_free(in, COUNT);
}

/* Issue 39: the stop flag raised by another thread 0.3 s in ends such a
 * batch as soon, stop "interrupted". */
static void test_stop_flag_cuts_the_batch(void **state)
{
    (void)state;
    enum { COUNT = 2000 };
    wt_instance **in = batch_uniform_set(COUNT, 1000, 5);
    wt_batch_params p = cpu_params(0, 2);
    volatile int flag = 0;
    p.stop_flag = &flag;
    flag_raiser raiser = {&flag, 0.3};
    pthread_t th;
    double t0 = seconds();
    assert_int_equal(pthread_create(&th, NULL, raise_flag_later, &raiser), 0);
    wt_batch_result r = batch_solve(in, COUNT, &p);
    double took = seconds() - t0;
    pthread_join(th, NULL);
    print_message("    2000 x 1000 cities, stopped at 0.3 s: %.3f s\n", took);
    assert_true(took < 0.3 + 9.7);
    assert_int_equal(r.stop, WT_STOP_INTERRUPTED);
    check_cut_batch(in, COUNT, &r, p.seed);
    wt_batch_result_free(&r);
    batch_set_free(in, COUNT);
}

/* Issue 39: a first descent under way stops within a bounded amount of
 * work: one instance of 100,000 cities, whose start tour and lists leave
 * its first descent part of the 1 s limit: a valid tour, no longer than
 * its start, no kicks, stop "time-limit". */
static void test_time_limit_cuts_a_first_descent(void **state)
{
    (void)state;
    wt_instance *in = wt_test_random_instance(WT_BATCH_MAX_CITIES, 2);
    wt_batch_params p = cpu_params(0, 2);
    p.search = WT_BATCH_SEARCH_BATCH; /* its descents' polls */
    p.time_limit_s = 1.0;
    double t0 = seconds();
    wt_batch_result r = batch_solve(&in, 1, &p);
    double took = seconds() - t0;
    print_message("    100000 cities, 1 s: %.3f s\n", took);
    assert_true(took < 1.0 + 5.0);
    assert_int_equal(r.stop, WT_STOP_TIME_LIMIT);
    batch_check_tours(&in, &r);
    assert_int_equal(r.tours[0].kicks, 0);
    wt_batch_result_free(&r);
    wt_instance_free(in);
}

/* An instance larger than a batch takes is refused in words that say what
 * to use instead. */
static void test_too_large_message(void **state)
{
    (void)state;
    wt_instance *big = wt_test_random_instance(WT_BATCH_MAX_CITIES + 1, 1);
    wt_batch_params p = cpu_params(10, 1);
    wt_batch_result r = batch_solve(&big, 1, &p);
    assert_int_equal(r.tours[0].status, WT_STATUS_TOO_LARGE);
    assert_non_null(strstr(r.tours[0].message, "100001 cities; an instance of a batch may have "
                                               "up to 100000 cities (solve takes more)"));
    wt_batch_result_free(&r);
    wt_instance_free(big);
}

/* Bad parameters: refused naming the field, the result untouched. */
static void test_params_checked(void **state)
{
    (void)state;
    wt_instance **in = batch_uniform_set(1, 20, 1);
    const wt_instance *const *cin = (const wt_instance *const *)in;
    wt_batch_result r;
    memset(&r, 0x5a, sizeof r);
    wt_batch_result before = r;
    wt_error err = {0};
    wt_batch_params p;
#define REFUSED(field, assign)                                                                     \
    do {                                                                                           \
        wt_batch_params_defaults(&p);                                                              \
        assign;                                                                                    \
        assert_int_equal(wt_solve_batch(cin, 1, &p, &r, &err), WT_STATUS_INVALID_ARGUMENT);        \
        assert_non_null(strstr(err.message, field));                                               \
        assert_memory_equal(&r, &before, sizeof r);                                                \
    } while (0)
    REFUSED("backend", p.backend = (wt_backend_kind)9);
    REFUSED("time_limit_s", p.time_limit_s = NAN);
    REFUSED("threads", p.threads = -1);
    REFUSED("threads", p.threads = WT_MAX_THREADS + 1);
    REFUSED("progress_interval_s", p.progress_interval_s = -1);
    REFUSED("cuda_device", p.cuda_device = -2);
    REFUSED("neighbours", p.neighbours = 1);
    REFUSED("neighbours", p.neighbours = 17);
    REFUSED("kick_window", p.kick_window = 2);
    REFUSED("accept_slack", p.accept_slack = -7);
    REFUSED("gpu_threads", p.gpu_threads = 48);
    REFUSED("three_opt", p.three_opt = -3);
    REFUSED("three_opt", p.three_opt = 9);
    REFUSED("three_opt", (p.neighbours = 4, p.three_opt = 5));
    REFUSED("candidates", p.candidates = (wt_batch_candidates)3);
    REFUSED("alpha_steps", p.alpha_steps = -1);
    REFUSED("alpha_period", p.alpha_period = 1000001);
    REFUSED("search", p.search = (wt_batch_search)3);
#undef REFUSED
    wt_batch_params_defaults(&p);
    assert_int_equal(wt_solve_batch(cin, 0, &p, &r, &err), WT_STATUS_INVALID_ARGUMENT);
    assert_int_equal(wt_solve_batch(NULL, 1, &p, &r, &err), WT_STATUS_INVALID_ARGUMENT);
    assert_int_equal(wt_solve_batch(cin, 1, NULL, &r, &err), WT_STATUS_INVALID_ARGUMENT);
    wt_batch_params_defaults(NULL);
    batch_set_free(in, 1);
}

/* Without a usable GPU, asking for cuda fails; auto runs on the CPU. */
static void test_backends(void **state)
{
    (void)state;
    char device[128];
    if (wt_cuda_available(device, sizeof device)) skip();
    wt_instance **in = batch_uniform_set(2, 30, 1);
    wt_batch_params p = cpu_params(50, 1);
    p.backend = WT_BACKEND_CUDA;
    wt_batch_result r;
    wt_error err = {0};
    assert_int_equal(wt_solve_batch((const wt_instance *const *)in, 2, &p, &r, &err),
                     WT_STATUS_NO_DEVICE);
    p.backend = WT_BACKEND_AUTO;
    r = batch_solve(in, 2, &p);
    assert_string_equal(r.backend, "cpu");
    wt_batch_result_free(&r);
    batch_set_free(in, 2);
}

/* Tuning: other neighbours, windows and slack give valid tours, the same
 * for the same settings. */
static void test_tuning(void **state)
{
    (void)state;
    wt_instance **in = batch_uniform_set(3, 100, 30);
    wt_batch_params p = cpu_params(300, 2);
    p.neighbours = 5;
    p.kick_window = 10;
    p.accept_slack = WT_TUNING_OFF;
    p.accept_equal = false;
    wt_batch_result a = batch_solve(in, 3, &p), b = batch_solve(in, 3, &p);
    batch_check_tours(in, &a);
    batch_assert_same(&a, &b);
    wt_batch_result_free(&a);
    wt_batch_result_free(&b);
    batch_set_free(in, 3);
}

/* With 3-opt items: valid tours, the same for the same seed and on any
 * number of threads; by default only from 1,000 cities. */
static void test_three_opt_batch(void **state)
{
    (void)state;
    wt_instance **in = batch_uniform_set(4, 150, 31);
    wt_batch_params p = cpu_params(200, 2);
    p.three_opt = 5;
    wt_batch_result a = batch_solve(in, 4, &p);
    p.threads = 1;
    wt_batch_result b = batch_solve(in, 4, &p);
    batch_check_tours(in, &a);
    batch_assert_same(&a, &b);
    p.three_opt = WT_TUNING_OFF;
    wt_batch_result c = batch_solve(in, 4, &p);
    batch_check_tours(in, &c);
    /* The default: none below 1,000 cities, breadth 5 from there. */
    p.three_opt = 0;
    wt_batch_result d = batch_solve(in, 4, &p);
    batch_assert_same(&c, &d);
    wt_instance **big = batch_uniform_set(1, 1000, 32);
    p.kicks = 20;
    wt_batch_result e = batch_solve(big, 1, &p);
    p.three_opt = 5;
    wt_batch_result f = batch_solve(big, 1, &p);
    batch_assert_same(&e, &f);
    p.three_opt = WT_TUNING_OFF;
    wt_batch_result g = batch_solve(big, 1, &p);
    assert_true(memcmp(e.tours[0].tour, g.tours[0].tour, 1000 * sizeof(int32_t)) != 0);
    wt_batch_result_free(&g);
    wt_batch_result_free(&a);
    wt_batch_result_free(&b);
    wt_batch_result_free(&c);
    wt_batch_result_free(&d);
    wt_batch_result_free(&e);
    wt_batch_result_free(&f);
    batch_set_free(in, 4);
    batch_set_free(big, 1);
}

/* Every row of nb (n rows of k): cities of the instance, not its own,
 * none twice, -1 only after its last; returns the rows that are full. */
static int check_rows(const int32_t *nb, int n, int k)
{
    int full = 0;
    for (int c = 0; c < n; c++) {
        const int32_t *row = nb + (size_t)c * (size_t)k;
        int have = 0;
        while (have < k && row[have] >= 0) have++;
        for (int q = 0; q < k; q++) {
            if (q >= have) {
                assert_int_equal(row[q], -1);
                continue;
            }
            assert_true(row[q] < n && row[q] != c);
            for (int x = 0; x < q; x++) assert_int_not_equal(row[x], row[q]);
        }
        full += have == k;
    }
    return full;
}

/* Alpha lists: valid rows, full where the instance has k other cities,
 * not the nearest cities' (the ascent reorders them), of the same length
 * the nearest rows take for an instance too small for an ascent; with 16
 * a city (more than the ascent's graph may give some), still full and
 * valid (the nearest fill them). */
static void test_alpha_lists(void **state)
{
    (void)state;
    enum { N = 200 };
    wt_instance *inst = wt_test_random_instance(N, 5);
    wt_batch_params p = cpu_params(0, 1);
    wt_error err = {0};
    int32_t *alpha = malloc(N * 16 * sizeof *alpha), *near = malloc(N * 16 * sizeof *near);
    p.candidates = WT_BATCH_CANDIDATES_ALPHA;
    assert_int_equal(wt_batch_lists(inst, &p, alpha, &err), WT_OK);
    assert_int_equal(check_rows(alpha, N, 8), N);
    p.candidates = WT_BATCH_CANDIDATES_NEAREST;
    assert_int_equal(wt_batch_lists(inst, &p, near, &err), WT_OK);
    assert_int_equal(check_rows(near, N, 8), N);
    assert_true(memcmp(alpha, near, N * 8 * sizeof *near) != 0);
    p.candidates = WT_BATCH_CANDIDATES_AUTO; /* nearest below WT_BATCH_ALPHA_FROM cities */
    assert_int_equal(wt_batch_lists(inst, &p, alpha, &err), WT_OK);
    assert_memory_equal(alpha, near, N * 8 * sizeof *near);
    p.candidates = WT_BATCH_CANDIDATES_ALPHA;
    p.neighbours = 16;
    assert_int_equal(wt_batch_lists(inst, &p, alpha, &err), WT_OK);
    assert_int_equal(check_rows(alpha, N, 16), N);
    wt_instance *tiny = wt_test_random_instance(6, 5);
    p.neighbours = 0;
    assert_int_equal(wt_batch_lists(tiny, &p, alpha, &err), WT_OK);
    assert_int_equal(check_rows(alpha, 6, 8), 0);
    for (int c = 0; c < 6; c++) assert_int_equal(alpha[c * 8 + 5], -1);
    wt_instance_free(tiny);
    wt_instance_free(inst);
    free(alpha);
    free(near);
}

/* A batch with alpha lists: valid tours of exact length, the same for the
 * same seed and kicks on 1 and 2 threads, other tours than the nearest
 * lists give. */
static void test_alpha_batch(void **state)
{
    (void)state;
    enum { COUNT = 3, N = 200 };
    wt_instance **in = batch_uniform_set(COUNT, N, 60);
    wt_batch_params p = cpu_params(150, 2);
    p.candidates = WT_BATCH_CANDIDATES_ALPHA;
    wt_batch_result a = batch_solve(in, COUNT, &p);
    p.threads = 1;
    wt_batch_result b = batch_solve(in, COUNT, &p);
    p.candidates = WT_BATCH_CANDIDATES_NEAREST;
    wt_batch_result c = batch_solve(in, COUNT, &p);
    assert_int_equal(a.failed, 0);
    assert_int_equal(a.stop, WT_STOP_DONE);
    batch_check_tours(in, &a);
    batch_assert_same(&a, &b);
    int differ = 0;
    for (int i = 0; i < COUNT; i++)
        differ += memcmp(a.tours[i].tour, c.tours[i].tour, N * sizeof(int32_t)) != 0;
    assert_true(differ > 0);
    wt_batch_result_free(&a);
    wt_batch_result_free(&b);
    wt_batch_result_free(&c);
    batch_set_free(in, COUNT);
}

/* ------------------------------------------------- the host's LK ILS */

static wt_batch_params lk_params(uint64_t kicks, int threads)
{
    wt_batch_params p = cpu_params(kicks, threads);
    p.search = WT_BATCH_SEARCH_LK;
    return p;
}

/* Valid tours with exact lengths, shorter than greedy's, each with its
 * budget of kicks; the same tours on 1 and 2 threads; another seed, other
 * tours.  Tiny instances (no kick below 8 cities) and a TSPLIB one too. */
static void test_lk_batch(void **state)
{
    (void)state;
    enum { COUNT = 5 };
    wt_instance **in = batch_uniform_set(COUNT, 200, 60);
    wt_instance_free(in[3]);
    in[3] = wt_test_random_instance(5, 1);
    wt_instance_free(in[4]);
    char *path = wt_test_path(wt_test_data_dir(), "berlin52.tsp");
    wt_error err = {0};
    if (wt_instance_read(path, &in[4], &err) != WT_OK) fail_msg("%s", err.message);
    free(path);
    wt_batch_params p = lk_params(30, 1);
    wt_batch_result one = batch_solve(in, COUNT, &p);
    p.threads = 2;
    wt_batch_result two = batch_solve(in, COUNT, &p);
    assert_int_equal(one.failed, 0);
    assert_int_equal(one.stop, WT_STOP_DONE);
    assert_string_equal(one.backend, "cpu");
    batch_check_tours(in, &one);
    batch_assert_same(&one, &two);
    for (int i = 0; i < 3; i++) {
        assert_int_equal(one.tours[i].kicks, 30);
        assert_true(one.tours[i].length < one.tours[i].init_length);
    }
    assert_int_equal(one.tours[4].length, 7542); /* berlin52's optimum */
    p.seed = 2;
    wt_batch_result other = batch_solve(in, 3, &p);
    int differ = 0;
    for (int i = 0; i < 3; i++)
        differ += memcmp(one.tours[i].tour, other.tours[i].tour, 200 * sizeof(int32_t)) != 0;
    assert_true(differ > 0);
    wt_batch_result_free(&one);
    wt_batch_result_free(&two);
    wt_batch_result_free(&other);
    batch_set_free(in, COUNT);
}

/* The stop flag and the progress callback end the LK searches too. */
static void test_lk_stops(void **state)
{
    (void)state;
    wt_instance **in = batch_uniform_set(6, 200, 70);
    check_stops(in, lk_params(100000000, 2));
    batch_set_free(in, 6);
}

/* The windows' paths (fixed ends, algo/windows.c) keep the batch search
 * whatever params.search says: the same paths as with the batch search,
 * ends in place. */
static void test_lk_not_for_windows(void **state)
{
    (void)state;
    enum { COUNT = 2, N = 300 };
    wt_instance **in = batch_uniform_set(COUNT, N, 80);
    int32_t *start = malloc(N * sizeof *start);
    for (int c = 0; c < N; c++) start[c] = c;
    const int32_t *starts[COUNT] = {start, start};
    wt_batch_from from = {.start = starts, .fixed_ends = true, .lk = wt_batch_lk_run};
    wt_batch_result r[2];
    for (int s = 0; s < 2; s++) {
        wt_batch_params p = cpu_params(40, 2);
        p.search = s ? WT_BATCH_SEARCH_LK : WT_BATCH_SEARCH_BATCH;
        wt_error err = {0};
        assert_int_equal(wt_batch_solve_from((const wt_instance *const *)in, COUNT, &p, &from,
                                             &r[s], &err),
                         WT_OK);
    }
    batch_assert_same(&r[0], &r[1]);
    for (int i = 0; i < COUNT; i++) { /* the path still joins 0 and N - 1 */
        const int32_t *t = r[1].tours[i].tour;
        int at = 0;
        while (t[at] != 0) at++;
        assert_true(t[(at + 1) % N] == N - 1 || t[(at + N - 1) % N] == N - 1);
    }
    wt_batch_result_free(&r[0]);
    wt_batch_result_free(&r[1]);
    free(start);
    batch_set_free(in, COUNT);
}

/* auto: the LK ILS from WT_BATCH_LK_FROM cities, under a time limit that
 * gives each instance its core-seconds, never for the windows; lk and
 * batch as asked (lk not for the windows either). */
static void test_lk_choice(void **state)
{
    (void)state;
    wt_batch_params p;
    wt_batch_params_defaults(&p);
    int n = 1000;
    double enough = n * WT_BATCH_LK_CORE_S_PER_CITY; /* core-seconds an instance */
    assert_false(wt_batch_lk(&p, n, 128, 16, false)); /* no time limit: kicks */
    p.time_limit_s = enough * 128 / 16 * 1.001; /* a little more: no rounding decides */
    assert_true(wt_batch_lk(&p, n, 128, 16, false));
    assert_false(wt_batch_lk(&p, n, 129, 16, false));
    assert_false(wt_batch_lk(&p, n, 128, 15, false));
    assert_false(wt_batch_lk(&p, WT_BATCH_LK_FROM - 1, 1, 16, false));
    assert_false(wt_batch_lk(&p, n, 128, 16, true));
    p.search = WT_BATCH_SEARCH_BATCH;
    assert_false(wt_batch_lk(&p, n, 128, 16, false));
    p.search = WT_BATCH_SEARCH_LK;
    p.time_limit_s = 0;
    assert_true(wt_batch_lk(&p, 10, 100000, 1, false));
    assert_false(wt_batch_lk(&p, n, 1, 16, true));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_moves_change_length_by_their_delta),
        cmocka_unit_test(test_three_opt_moves),
        cmocka_unit_test(test_kicks),
        cmocka_unit_test(test_valid_exact_and_better),
        cmocka_unit_test(test_reproducible_across_threads),
        cmocka_unit_test(test_independent_of_the_others),
        cmocka_unit_test(test_types_and_sizes),
        cmocka_unit_test(test_bad_instances_reported_alone),
        cmocka_unit_test(test_repeated_instance),
        cmocka_unit_test(test_points),
        cmocka_unit_test(test_time_limit_shared),
        cmocka_unit_test(test_time_limit_cuts_kicks),
        cmocka_unit_test(test_stops),
        cmocka_unit_test(test_time_limit_cuts_the_batch),
        cmocka_unit_test(test_stop_flag_cuts_the_batch),
        cmocka_unit_test(test_time_limit_cuts_a_first_descent),
        cmocka_unit_test(test_too_large_message),
        cmocka_unit_test(test_params_checked),
        cmocka_unit_test(test_backends),
        cmocka_unit_test(test_tuning),
        cmocka_unit_test(test_three_opt_batch),
        cmocka_unit_test(test_alpha_lists),
        cmocka_unit_test(test_alpha_batch),
        cmocka_unit_test(test_lk_batch),
        cmocka_unit_test(test_lk_stops),
        cmocka_unit_test(test_lk_not_for_windows),
        cmocka_unit_test(test_lk_choice),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
