/*
 * test_polish.c - the 2-opt + Or-opt polish (algo/polish.h) and its use at
 * the end of simulated annealing.
 *
 * The oracle is brute force and shares no code with src/ls: every 2-opt
 * move and every Or-opt move (a segment of 1..3 cities into any edge outside
 * it, both orientations) is built as a new tour array and its length
 * recomputed from scratch.  A polished tour must be valid, no longer than
 * the input, and no such move may shorten it.  The same input must give the
 * same output.  Sizes from 3 to 8 cities exercise the edge cases (segments
 * that leave two cities, moves that wrap around position 0); larger random
 * instances of every edge weight type, EXPLICIT included, exercise the
 * neighbour lists; one instance above WT_POLISH_FULL_MAX exercises the
 * neighbour-list descent alone.
 */
#include "test_util.h"

#include "algo/policy.h"
#include "algo/polish.h"
#include "core/instance.h"
#include "core/rng.h"
#include "core/search_ctl.h"

/* ------------------------------------------------------------ helpers */

/* A 2-opt move that shortens tour, or false: reverses every tour[i+1..j]
 * whose two removed edges are not adjacent. */
static bool find_2opt(const wt_instance *inst, const int32_t *tour, int64_t len, int32_t *work)
{
    int n = wt_instance_n(inst);
    for (int i = 0; i < n; i++)
        for (int j = i + 2; j < n; j++) {
            if (i == 0 && j == n - 1) continue; /* the two edges at tour[0] */
            memcpy(work, tour, (size_t)n * sizeof *work);
            for (int a = i + 1, b = j; a < b; a++, b--) {
                int32_t t = work[a];
                work[a] = work[b];
                work[b] = t;
            }
            if (wt_tour_length(inst, work) < len) return true;
        }
    return false;
}

/* An Or-opt move that shortens tour, or false: every segment of 1..3
 * cities (at most n - 2) put into every edge (a b) of the rest of the tour,
 * both orientations. */
static bool find_oropt(const wt_instance *inst, const int32_t *tour, int64_t len, int32_t *work,
                       int32_t *rest)
{
    int n = wt_instance_n(inst);
    for (int i = 0; i < n; i++)
        for (int sl = 1; sl <= 3 && sl <= n - 2; sl++) {
            /* rest: the cities after the segment, in tour order, to its start */
            int m = n - sl;
            for (int k = 0; k < m; k++) rest[k] = tour[(i + sl + k) % n];
            for (int e = 0; e + 1 < m; e++) /* the edge rest[e] rest[e + 1] */
                for (int rev = 0; rev < 2; rev++) {
                    int w = 0;
                    for (int k = 0; k <= e; k++) work[w++] = rest[k];
                    for (int k = 0; k < sl; k++)
                        work[w++] = tour[(i + (rev ? sl - 1 - k : k)) % n];
                    for (int k = e + 1; k < m; k++) work[w++] = rest[k];
                    assert_int_equal(wt_tour_validate(work, n, NULL), WT_OK);
                    if (wt_tour_length(inst, work) < len) return true;
                }
        }
    return false;
}

/* Polishes a copy of start and checks everything about the result; returns
 * the polished length.  out (n entries) receives the tour when not NULL. */
static int64_t polish_and_check(const wt_instance *inst, const int32_t *start, bool brute,
                                int32_t *out)
{
    int n = wt_instance_n(inst);
    int32_t *a = malloc((size_t)n * sizeof *a), *b = malloc((size_t)n * sizeof *b);
    memcpy(a, start, (size_t)n * sizeof *a);
    memcpy(b, start, (size_t)n * sizeof *b);
    wt_polish_stats st;
    wt_error err = {0};
    if (wt_polish(inst, a, NULL, &st, &err) != WT_OK) fail_msg("polish: %s", err.message);
    assert_true(st.complete);
    assert_int_equal(st.full, n <= WT_POLISH_FULL_MAX);
    assert_int_equal(wt_tour_validate(a, n, NULL), WT_OK);
    int64_t len = wt_tour_length(inst, a), before = wt_tour_length(inst, start);
    assert_true(len <= before);
    if (len < before) assert_true(st.moves_2opt + st.moves_oropt > 0);
    /* Deterministic: the same input gives the same tour and counts. */
    wt_polish_stats st2;
    assert_int_equal(wt_polish(inst, b, NULL, &st2, NULL), WT_OK);
    assert_memory_equal(a, b, (size_t)n * sizeof *a);
    assert_int_equal(st.moves_2opt, st2.moves_2opt);
    assert_int_equal(st.moves_oropt, st2.moves_oropt);
    if (brute) {
        int32_t *work = malloc((size_t)n * sizeof *work), *rest = malloc((size_t)n * sizeof *rest);
        assert_false(find_2opt(inst, a, len, work));
        assert_false(find_oropt(inst, a, len, work, rest));
        free(work);
        free(rest);
    }
    if (out) memcpy(out, a, (size_t)n * sizeof *out);
    free(a);
    free(b);
    return len;
}

/* ------------------------------------------------------------- tests */

/* n = 3..8: every start tour of several instances ends locally optimal. */
static void test_small_tours(void **state)
{
    (void)state;
    int32_t start[8];
    for (int n = 3; n <= 8; n++)
        for (uint64_t seed = 0; seed < 30; seed++) {
            wt_instance *inst = wt_test_typed_instance(seed % 3 == 2 ? WT_EXPLICIT : WT_EUC_2D, n,
                                                       100 * (uint64_t)n + seed);
            wt_test_random_tour(n, seed, start);
            polish_and_check(inst, start, true, NULL);
            wt_instance_free(inst);
        }
}

/* Every edge weight type, random starts, brute-force check. */
static void test_types_are_locally_optimal(void **state)
{
    (void)state;
    const wt_edge_weight_type types[] = {WT_EUC_2D, WT_CEIL_2D, WT_ATT, WT_GEO,
                                         WT_MAN_2D, WT_MAX_2D, WT_EUC_3D, WT_EXPLICIT};
    enum { N = 45 };
    int32_t start[N];
    for (size_t t = 0; t < sizeof types / sizeof types[0]; t++)
        for (uint64_t seed = 0; seed < 3; seed++) {
            wt_instance *inst = wt_test_typed_instance(types[t], N, 7 * t + seed);
            wt_test_random_tour(N, 50 + seed, start);
            polish_and_check(inst, start, true, NULL);
            wt_instance_free(inst);
        }
}

/* Clustered points, many equal distances (a small grid), a tour that is
 * already optimal: still valid, optimal, unchanged in length. */
static void test_degenerate_instances(void **state)
{
    (void)state;
    enum { N = 36 };
    double x[N], y[N];
    for (int i = 0; i < N; i++) {
        x[i] = i % 6;
        y[i] = i / 6;
    }
    wt_instance *grid;
    assert_int_equal(wt_instance_from_coords("grid", N, WT_EUC_2D, x, y, NULL, &grid, NULL),
                     WT_OK);
    int32_t start[N], out[N];
    wt_test_random_tour(N, 3, start);
    int64_t len = polish_and_check(grid, start, true, out);
    assert_int_equal(polish_and_check(grid, out, true, NULL), len); /* idempotent */
    /* Coincident cities: all at two points. */
    for (int i = 0; i < N; i++) x[i] = y[i] = (double)(i % 2);
    wt_instance *two;
    assert_int_equal(wt_instance_from_coords("two", N, WT_EUC_2D, x, y, NULL, &two, NULL), WT_OK);
    assert_int_equal(polish_and_check(two, start, true, NULL), 2);
    wt_instance_free(grid);
    wt_instance_free(two);
}

/* A few hundred cities: brute force on the result, and far shorter than a
 * random start. */
static void test_random_starts_improve(void **state)
{
    (void)state;
    enum { N = 150 };
    wt_instance *inst = wt_test_random_instance(N, 21);
    int32_t start[N];
    wt_test_random_tour(N, 22, start);
    int64_t len = polish_and_check(inst, start, true, NULL);
    assert_true(len < wt_tour_length(inst, start) / 3);
    wt_instance_free(inst);
}

/* Above WT_POLISH_FULL_MAX only the neighbour lists run; the result is
 * still valid and much shorter. */
static void test_large_uses_neighbour_lists(void **state)
{
    (void)state;
    int n = WT_POLISH_FULL_MAX + 500;
    wt_instance *inst = wt_test_random_instance(n, 23);
    int32_t *start = malloc((size_t)n * sizeof *start);
    assert_int_equal(wt_tour_init(inst, WT_INIT_SPACEFILL, 1, start, NULL), WT_OK);
    int64_t len = polish_and_check(inst, start, false, NULL);
    assert_true(len < wt_tour_length(inst, start) * 9 / 10);
    free(start);
    wt_instance_free(inst);
}

/* A raised stop flag or a past deadline: the tour comes back as it was. */
static void test_stop_leaves_the_tour(void **state)
{
    (void)state;
    enum { N = 200 };
    wt_instance *inst = wt_test_random_instance(N, 24);
    int32_t start[N], tour[N];
    wt_test_random_tour(N, 25, start);
    volatile int flag = 1;
    wt_params p;
    wt_params_defaults(&p);
    p.algorithm = WT_ALGO_2OPT; /* the default is ils */
    p.stop_flag = &flag;
    wt_search_ctl ctl;
    wt_ctl_init(&ctl, &p);
    memcpy(tour, start, sizeof tour);
    wt_polish_stats st;
    assert_int_equal(wt_polish(inst, tour, &ctl, &st, NULL), WT_OK);
    assert_false(st.complete);
    assert_memory_equal(tour, start, sizeof tour);
    assert_int_equal(ctl.stop, WT_STOP_INTERRUPTED);
    assert_int_equal(wt_polish(inst, NULL, NULL, NULL, NULL), WT_STATUS_INVALID_ARGUMENT);
    wt_instance_free(inst);
}

/* ------------------------------------------------- in simulated annealing */

static void sa_params(wt_params *p, bool polish)
{
    wt_params_defaults(p);
    p->algorithm = WT_ALGO_SA;
    p->backend = WT_BACKEND_CPU;
    p->threads = 2;
    p->seed = 5;
    p->sa_cpu = WT_SA_PSSM;
    p->sa_searches = 2;
    p->sa_moves = 2;
    p->sa_t_start = 100.0;
    p->sa_t_end = 1.0;
    p->sa_alpha = 0.8;
    p->sa_sweeps = 3;
    p->sa_exchange = 5;
    p->sa_polish = polish;
}

/* The same seed with and without the polish: the anneal is the same, the
 * polished tour no longer, and a local optimum of both neighbourhoods. */
static void test_sa_polish_on_off(void **state)
{
    (void)state;
    enum { N = 70 };
    wt_instance *inst = wt_test_random_instance(N, 26);
    wt_params p;
    wt_params_defaults(&p);
    p.algorithm = WT_ALGO_2OPT; /* the default is ils */
    assert_true(p.sa_polish); /* on by default */
    for (uint64_t seed = 5; seed < 8; seed++) {
        wt_result off = {0}, on = {0};
        wt_error err = {0};
        sa_params(&p, false);
        p.seed = seed;
        if (wt_solve(inst, &p, &off, &err) != WT_OK) fail_msg("solve: %s", err.message);
        sa_params(&p, true);
        p.seed = seed;
        if (wt_solve(inst, &p, &on, &err) != WT_OK) fail_msg("solve: %s", err.message);
        assert_int_equal(off.stop, WT_STOP_DONE);
        assert_int_equal(on.stop, WT_STOP_DONE);
        assert_int_equal(off.sa.unpolished_length, off.length);
        assert_int_equal(off.sa.polish_moves, 0);
        assert_int_equal(on.sa.unpolished_length, off.length);
        assert_int_equal(on.sa.iterations, off.sa.iterations);
        assert_int_equal(on.sa.accepted, off.sa.accepted);
        assert_true(on.length <= off.length);
        assert_int_equal(on.length, wt_tour_length(inst, on.tour));
        assert_int_equal(wt_tour_validate(on.tour, N, NULL), WT_OK);
        int32_t work[N], rest[N];
        assert_false(find_2opt(inst, on.tour, on.length, work));
        assert_false(find_oropt(inst, on.tour, on.length, work, rest));
        wt_result_free(&off);
        wt_result_free(&on);
    }
    /* Stopped before it ran: no polish either, the start tour stands. */
    volatile int flag = 1;
    sa_params(&p, true);
    p.stop_flag = &flag;
    wt_result res = {0};
    assert_int_equal(wt_solve(inst, &p, &res, NULL), WT_OK);
    assert_int_equal(res.stop, WT_STOP_INTERRUPTED);
    assert_int_equal(res.length, res.init_length);
    assert_int_equal(res.sa.unpolished_length, res.length);
    assert_int_equal(res.sa.polish_moves, 0);
    wt_result_free(&res);
    wt_instance_free(inst);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_small_tours),
        cmocka_unit_test(test_types_are_locally_optimal),
        cmocka_unit_test(test_degenerate_instances),
        cmocka_unit_test(test_random_starts_improve),
        cmocka_unit_test(test_large_uses_neighbour_lists),
        cmocka_unit_test(test_stop_leaves_the_tour),
        cmocka_unit_test(test_sa_polish_on_off),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
