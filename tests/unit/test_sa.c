/*
 * test_sa.c - simulated annealing: the relocation move, the light weight
 * bookkeeping and the CPU runs (SSPM and PSSM).
 *
 * The move must keep the doubly linked list a tour and its O(1) cost must
 * be the exact change of the tour length, for every kind of move (a city
 * put right after its successor, the cities on either side of city 0, where
 * the array form of the list wraps around).  The search must never accept
 * a worsening move near zero temperature, and its lazily stored best must
 * be the shortest tour it passed through.  Runs must be reproducible: the
 * same seed gives the same tour, whatever the number of threads, and both
 * CPU schemes compute the same run for the same searches and moves.  The
 * CUDA warp kernel's look-ahead draws (backend/cuda/sa_look.h, plain C)
 * must draw the very moves of core/sa_moves.h, which is checked here, without a
 * GPU.
 *
 * The file includes cpu_sa.c itself so that the list helpers and a single
 * search's loop, which are static, can be driven directly.
 */
#include "test_util.h"

#include "backend/cpu/cpu_sa.c"
#include "backend/cuda/sa_look.h"
#include "core/neighbours.h"

/* ------------------------------------------------------------ helpers */

/* Asserts that prev/next form one cycle through all n cities. */
static void check_list(const int32_t *prev, const int32_t *next, int n)
{
    for (int c = 0; c < n; c++) {
        assert_true(next[c] >= 0 && next[c] < n);
        assert_int_equal(prev[next[c]], c);
    }
    int32_t c = 0;
    for (int i = 1; i < n; i++) {
        c = next[c];
        assert_int_not_equal(c, 0); /* back at 0 too early: more than one cycle */
    }
    assert_int_equal(next[c], 0);
}

static int64_t list_length(const wt_instance *inst, const int32_t *next, int32_t *scratch)
{
    sa_tour_from_next(next, wt_instance_n(inst), scratch);
    assert_int_equal(wt_tour_validate(scratch, wt_instance_n(inst), NULL), WT_OK);
    return wt_tour_length(inst, scratch);
}

/* A move of every kind: mostly uniform pairs (null moves included), then
 * a next to c, and c or a at the wrap-around of the array form (city 0,
 * its predecessor and successor). */
static wt_sa_move any_move(wt_rng *rng, int n, const int32_t *prev, const int32_t *next)
{
    wt_sa_move m;
    m.c = (int32_t)wt_rng_below(rng, (uint64_t)n);
    m.a = (int32_t)wt_rng_below(rng, (uint64_t)n);
    int32_t ends[3] = {0, prev[0], next[0]};
    switch (wt_rng_below(rng, 6)) {
    case 0: m.a = next[m.c]; break;                         /* swap c and its successor */
    case 1: m.a = prev[prev[m.c]]; break;                   /* swap c and its predecessor */
    case 2: m.c = ends[wt_rng_below(rng, 3)]; break;        /* move the head or tail */
    case 3: m.a = ends[wt_rng_below(rng, 3)]; break;        /* insert at the wrap-around */
    default: break;
    }
    return m;
}

/* Instances of several distance types. */
static wt_instance *typed_instance(wt_edge_weight_type type, int n, uint64_t seed)
{
    wt_rng rng;
    wt_rng_seed(&rng, seed);
    double *x = malloc(3 * (size_t)n * sizeof *x), *y = x + n, *z = y + n;
    for (int i = 0; i < n; i++) {
        if (type == WT_GEO) { /* DDD.MM */
            x[i] = (double)wt_rng_below(&rng, 80) + (double)wt_rng_below(&rng, 60) / 100.0;
            y[i] = (double)wt_rng_below(&rng, 170) + (double)wt_rng_below(&rng, 60) / 100.0;
        } else {
            x[i] = 1000.0 * wt_rng_uniform(&rng);
            y[i] = 1000.0 * wt_rng_uniform(&rng);
        }
        z[i] = 1000.0 * wt_rng_uniform(&rng);
    }
    wt_instance *inst = NULL;
    wt_error err = {0};
    if (wt_instance_from_coords("sa", n, type, x, y, z, &inst, &err) != WT_OK)
        fail_msg("from_coords: %s", err.message);
    free(x);
    return inst;
}

/* ---------------------------------------------------------- the move */

static void test_moves_keep_a_tour(void **state)
{
    (void)state;
    const int sizes[] = {3, 4, 5, 8, 61};
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        int n = sizes[k];
        int32_t *tour = malloc((size_t)n * sizeof *tour), *prev = malloc((size_t)n * sizeof *prev),
                *next = malloc((size_t)n * sizeof *next);
        wt_test_random_tour(n, 7 + (uint64_t)n, tour);
        sa_list_from_tour(tour, n, prev, next);
        check_list(prev, next, n);
        wt_rng rng;
        wt_rng_seed(&rng, 99 + (uint64_t)n);
        for (int i = 0; i < 20000; i++) {
            wt_sa_move m = any_move(&rng, n, prev, next);
            bool null = wt_sa_move_is_null(prev, m);
            int32_t a_next = next[m.a];
            wt_sa_commit(prev, next, m);
            check_list(prev, next, n);
            if (!null) { /* c now sits between a and a's old successor */
                assert_int_equal(prev[m.c], m.a);
                assert_int_equal(next[m.a], m.c);
                assert_int_equal(next[m.c], a_next);
            }
        }
        sa_tour_from_next(next, n, tour);
        assert_int_equal(wt_tour_validate(tour, n, NULL), WT_OK);
        free(tour);
        free(prev);
        free(next);
    }
}

/* The O(1) delta equals the exact difference of the tour lengths. */
static void check_deltas(const wt_instance *inst, int moves)
{
    int n = wt_instance_n(inst);
    int32_t *tour = malloc((size_t)n * sizeof *tour), *prev = malloc((size_t)n * sizeof *prev),
            *next = malloc((size_t)n * sizeof *next);
    wt_test_random_tour(n, 3, tour);
    sa_list_from_tour(tour, n, prev, next);
    int64_t len = wt_tour_length(inst, tour);
    wt_rng rng;
    wt_rng_seed(&rng, 5);
    for (int i = 0; i < moves; i++) {
        wt_sa_move m = any_move(&rng, n, prev, next);
        int64_t delta = wt_sa_delta(inst, prev, next, m);
        wt_sa_commit(prev, next, m);
        int64_t after = list_length(inst, next, tour);
        if (after - len != delta)
            fail_msg("%s n=%d: move (%d, %d) has delta %lld, lengths say %lld",
                     wt_edge_weight_type_name(wt_instance_type(inst)), n, m.c, m.a,
                     (long long)delta, (long long)(after - len));
        len = after;
    }
    free(tour);
    free(prev);
    free(next);
}

static void test_delta_is_exact(void **state)
{
    (void)state;
    const wt_edge_weight_type types[] = {WT_EUC_2D, WT_CEIL_2D, WT_ATT, WT_GEO,
                                         WT_MAN_2D, WT_MAX_2D, WT_EUC_3D};
    for (size_t t = 0; t < sizeof types / sizeof types[0]; t++)
        for (int n = 3; n <= 40; n += 37) {
            wt_instance *inst = typed_instance(types[t], n, 11 + t);
            check_deltas(inst, 3000);
            wt_instance_free(inst);
        }
    wt_instance *inst = wt_test_parse("NAME: ex\nTYPE: TSP\nDIMENSION: 5\n"
                                      "EDGE_WEIGHT_TYPE: EXPLICIT\nEDGE_WEIGHT_FORMAT: UPPER_ROW\n"
                                      "EDGE_WEIGHT_SECTION\n3 9 4 1\n7 2 8\n6 5\n10\nEOF\n");
    check_deltas(inst, 3000);
    wt_instance_free(inst);
}

/* Lemire's method as written first: the rejection threshold up front. */
static uint64_t reference_below(wt_rng *r, uint64_t bound)
{
    uint64_t threshold = (0 - bound) % bound;
    for (;;) {
        uint64_t x = wt_rng_next(r);
        if (x * bound >= threshold) return wt_mulhi64(x, bound);
    }
}

/* Drawn moves are never null, cover every other city, and wt_rng_below,
 * which computes the threshold only when a draw may be rejected, draws
 * exactly what the reference draws. */
static void test_draws(void **state)
{
    (void)state;
    const uint64_t bounds[] = {1, 2, 3, 7, 1000, 1ull << 33, (1ull << 63) + 12345, UINT64_MAX};
    for (size_t b = 0; b < sizeof bounds / sizeof bounds[0]; b++) {
        wt_rng r1, r2;
        wt_sa_rng(&r1, 42, b, 1);
        r2 = r1;
        for (int i = 0; i < 2000; i++) {
            uint64_t x = wt_rng_below(&r1, bounds[b]);
            assert_true(x == reference_below(&r2, bounds[b]));
        }
        assert_memory_equal(&r1, &r2, sizeof r1);
    }
    int n = 9;
    int32_t tour[9], prev[9], next[9];
    wt_test_random_tour(n, 1, tour);
    sa_list_from_tour(tour, n, prev, next);
    int seen[9][9] = {{0}};
    wt_rng rng;
    wt_sa_rng(&rng, 1, 0, 1);
    for (int i = 0; i < 20000; i++) {
        wt_sa_move m = wt_sa_draw(&rng, n, prev);
        assert_false(wt_sa_move_is_null(prev, m));
        seen[m.c][m.a]++;
    }
    for (int c = 0; c < n; c++)
        for (int a = 0; a < n; a++)
            if (a != c && a != prev[c]) assert_true(seen[c][a] > 0);
    /* Streams of different searches and candidates differ. */
    wt_rng s00, s01, s10;
    wt_sa_rng(&s00, 1, 0, 0);
    wt_sa_rng(&s01, 1, 0, 1);
    wt_sa_rng(&s10, 1, 1, 0);
    assert_true(wt_rng_next(&s00) != wt_rng_next(&s01));
    wt_sa_rng(&s00, 1, 0, 0);
    assert_true(wt_rng_next(&s00) != wt_rng_next(&s10));
}

/* Local moves: never null, always right after or right before one of c's
 * k nearest cities, every such slot drawn. */
static void test_near_draws(void **state)
{
    (void)state;
    enum { N = 30, K = 4 };
    wt_instance *inst = wt_test_random_instance(N, 3);
    int32_t nb[N * K], tour[N], prev[N], next[N];
    assert_int_equal(wt_neighbour_lists(inst, K, nb, NULL), WT_OK);
    wt_test_random_tour(N, 2, tour);
    sa_list_from_tour(tour, N, prev, next);
    int seen[N][N] = {{0}};
    wt_rng rng;
    wt_sa_rng(&rng, 5, 0, 1);
    for (int i = 0; i < 100000; i++) {
        wt_sa_move m = wt_sa_draw_near(&rng, N, prev, nb, K);
        assert_false(wt_sa_move_is_null(prev, m));
        bool slot = false;
        for (int x = 0; x < K; x++) {
            int d = nb[m.c * K + x];
            slot = slot || m.a == d || m.a == prev[d];
        }
        assert_true(slot);
        seen[m.c][m.a]++;
    }
    for (int c = 0; c < N; c++)
        for (int x = 0; x < K; x++) {
            int d = nb[c * K + x];
            if (d != prev[c]) assert_true(seen[c][d] > 0);
            if (prev[d] != c) assert_true(seen[c][prev[d]] > 0);
        }
    wt_instance_free(inst);
}

/* The CUDA warp kernel's look-ahead streams (backend/cuda/sa_look.h) draw
 * the numbers of wt_rng_below, rejected ones included, and the moves of
 * wt_sa_draw and wt_sa_draw_near, the near draw's redrawn slots included,
 * and leave the stream where those leave it: on tiny tours (where the near
 * draw often lands on a null slot and draws again), on larger ones, with K
 * clamped to n - 1 as both backends clamp it, and on a tour that changes
 * as the moves are committed. */
static void test_look_ahead_draws(void **state)
{
    (void)state;
    const uint64_t bounds[] = {1, 2, 3, 7, 80, 1ull << 33, (1ull << 63) + 12345, UINT64_MAX};
    for (size_t b = 0; b < sizeof bounds / sizeof bounds[0]; b++) {
        wt_rng r;
        wt_sa_rng(&r, 7, b, 3);
        sa_look g = sa_look_from(r);
        for (int i = 0; i < 2000; i++)
            assert_true(sa_look_below(&g, bounds[b]) == wt_rng_below(&r, bounds[b]));
        assert_true(sa_look_take(&g) == wt_rng_next(&r));
    }
    static const int sizes[] = {3, 4, 5, 8, 41, 300};
    static const int ks[] = {2, 3, 10, 40};
    uint64_t redrawn = 0;
    for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
        int n = sizes[si];
        wt_instance *inst = wt_test_random_instance(n, 40 + (uint64_t)n);
        int32_t *tour = malloc(3 * (size_t)n * sizeof *tour), *prev = tour + n, *next = prev + n;
        int32_t *nb = malloc((size_t)n * 40 * sizeof *nb);
        assert_non_null(tour);
        assert_non_null(nb);
        for (size_t ki = 0; ki <= sizeof ks / sizeof ks[0]; ki++) {
            bool uniform = ki == sizeof ks / sizeof ks[0];
            int k = uniform ? 0 : ks[ki] < n - 1 ? ks[ki] : n - 1;
            if (k > 0) assert_int_equal(wt_neighbour_lists(inst, k, nb, NULL), WT_OK);
            wt_test_random_tour(n, 3 + ki, tour);
            sa_list_from_tour(tour, n, prev, next);
            wt_rng r;
            wt_sa_rng(&r, 5, (uint64_t)n, 1 + ki);
            sa_look g = sa_look_from(r);
            for (int i = 0; i < 20000; i++) {
                wt_rng before = r;
                wt_sa_move want = uniform ? wt_sa_draw(&r, n, prev)
                                          : wt_sa_draw_near(&r, n, prev, nb, k);
                wt_sa_move got = uniform ? sa_look_draw(&g, n, prev)
                                         : sa_look_draw_near(&g, n, prev, nb, k);
                if (want.c != got.c || want.a != got.a)
                    fail_msg("n %d, k %d, draw %d: the look-ahead drew (%d, %d), core/sa_moves.h "
                             "(%d, %d)", n, k, i, got.c, got.a, want.c, want.a);
                assert_false(wt_sa_move_is_null(prev, got));
                /* More than two numbers: a rejected number or a redrawn slot. */
                wt_rng_next(&before);
                wt_rng_next(&before);
                redrawn += memcmp(&before, &r, sizeof r) != 0;
                if (i % 3 == 0) wt_sa_commit(prev, next, got);
            }
            check_list(prev, next, n);
            assert_true(sa_look_take(&g) == wt_rng_next(&r));
        }
        free(tour);
        free(nb);
        wt_instance_free(inst);
    }
    assert_true(redrawn > 0); /* the redraw path was taken */
}

static void test_schedule(void **state)
{
    (void)state;
    /* Table 1: 10000 -> 0.1 by 0.99 takes ceil(log(1e-5) / log(0.99)) steps. */
    double t = 10000.0;
    uint64_t step = 0, total = 0, m;
    while ((m = wt_sa_schedule(&t, &step, 0.1, 0.99, 100)) > 0) {
        assert_true(m <= 100);
        total += m;
    }
    assert_int_equal(total, 1146);
    assert_int_equal(step, 1146);
    assert_true(t <= 0.1 && t / 0.99 > 0.1);
    /* t_start <= t_end: one step. */
    t = 1e-9;
    step = 0;
    assert_int_equal(wt_sa_schedule(&t, &step, 1e-9, 0.5, 100), 1);
    assert_int_equal(wt_sa_schedule(&t, &step, 1e-9, 0.5, 100), 0);
}

/* ------------------------------------------------- one search, by hand */

/* A one-search run set up as wt_cpu_sa does, to drive sa_segment. */
typedef struct hand_run {
    wt_params p;
    wt_search_ctl ctl;
    wt_sa_job job;
    sa_run r;
    sa_worker w;
} hand_run;

static void hand_open(hand_run *h, const wt_instance *inst, const int32_t *tour, double t)
{
    memset(h, 0, sizeof *h);
    wt_params_defaults(&h->p);
    h->p.algorithm = WT_ALGO_2OPT; /* the default is ils */
    h->p.threads = 1;
    wt_ctl_init(&h->ctl, &h->p);
    h->job = (wt_sa_job){.seed = 3, .searches = 1, .moves = 4, .t_start = t, .t_end = t,
                         .alpha = 0.5, .sweeps = 1, .exchange = 1, .cpu = WT_SA_SSPM};
    h->r = (sa_run){.inst = inst, .job = &h->job, .ctl = &h->ctl, .n = wt_instance_n(inst),
                    .step_iters = 1, .threads = 1};
    assert_true(sa_alloc(&h->r, true));
    sa_init_searches(&h->r, tour);
    h->w = (sa_worker){.tid = 0, .team = 1, .reporter = true, .first = 0, .last = 4,
                       .prev = h->r.searches[0].prev, .next = h->r.searches[0].next};
}

/* Near zero temperature no worsening move is accepted: the current length
 * never grows, and the best is never stored (it is stored only before a
 * worsening move).  Both lengths stay exact. */
static void test_cold_search_never_worsens(void **state)
{
    (void)state;
    wt_instance *inst = wt_test_random_instance(40, 8);
    int32_t tour[40], scratch[40];
    wt_test_random_tour(40, 2, tour);
    int64_t start = wt_tour_length(inst, tour);
    hand_run h;
    hand_open(&h, inst, tour, 1e-9);
    sa_search *se = &h.r.searches[0];
    for (int i = 0; i < 20000; i++) {
        int64_t before = se->cur_len;
        assert_true(sa_segment(&h.r, 0, &h.w, 1e-9, 1));
        assert_true(se->cur_len <= before);
        if (i % 97 == 0) assert_int_equal(se->cur_len, list_length(inst, se->next, scratch));
    }
    assert_int_equal(se->iterations, 20000);
    assert_true(se->cur_len < start);
    assert_int_equal(se->best_len, start);
    assert_int_equal(list_length(inst, se->best_next, scratch), start);
    check_list(se->prev, se->next, 40);
    sa_free(&h.r);

    /* The same through wt_solve: Ts = Te = 1e-9 runs one step. */
    wt_params p;
    wt_params_defaults(&p);
    p.algorithm = WT_ALGO_SA;
    p.backend = WT_BACKEND_CPU;
    p.init = WT_INIT_RANDOM;
    p.sa_t_start = p.sa_t_end = 1e-9;
    p.sa_sweeps = 50;
    p.threads = 2;
    wt_result res = {0};
    assert_int_equal(wt_solve(inst, &p, &res, NULL), WT_OK);
    assert_int_equal(res.sa.iterations, 40 * 50);
    assert_true(res.length < res.init_length);
    assert_true(res.sa.temperature_final < 1e-9);
    wt_result_free(&res);
    wt_instance_free(inst);
}

/* Hot: the lazily stored best, settled, is the least current length ever
 * seen, and lengths stay exact. */
static void test_lazy_best_is_the_least_seen(void **state)
{
    (void)state;
    wt_instance *inst = wt_test_random_instance(30, 9);
    int32_t tour[30], scratch[30];
    wt_test_random_tour(30, 4, tour);
    hand_run h;
    hand_open(&h, inst, tour, 1e5);
    sa_search *se = &h.r.searches[0];
    int64_t least = se->cur_len;
    uint64_t worse = 0;
    double t = 1e5; /* edges are about 1e5 long: most moves pass at first */
    for (int i = 0; i < 30000; i++, t *= 0.9998) {
        int64_t before = se->cur_len;
        assert_true(sa_segment(&h.r, 0, &h.w, t, 1));
        worse += se->cur_len > before;
        least = se->cur_len < least ? se->cur_len : least;
        assert_true(se->best_len >= least);
        if (i % 101 == 0) {
            assert_int_equal(se->cur_len, list_length(inst, se->next, scratch));
            assert_int_equal(se->best_len, list_length(inst, se->best_next, scratch));
        }
    }
    assert_true(worse > 100); /* the test did exercise the lazy store */
    sa_settle(&h.r);
    assert_int_equal(se->best_len, least);
    assert_int_equal(list_length(inst, se->best_next, scratch), least);
    sa_free(&h.r);
    wt_instance_free(inst);
}

/* ------------------------------------------------------- whole runs */

static void sa_params(wt_params *p, wt_sa_cpu_scheme scheme, int threads, int searches,
                      int moves)
{
    wt_params_defaults(p);
    p->algorithm = WT_ALGO_SA;
    p->backend = WT_BACKEND_CPU;
    p->seed = 17;
    p->threads = threads;
    p->sa_cpu = scheme;
    p->sa_searches = searches;
    p->sa_moves = moves;
    p->sa_t_start = 200.0;
    p->sa_t_end = 2.0;
    p->sa_alpha = 0.9;
    p->sa_sweeps = 5;
    p->sa_exchange = 7;
}

static void solve_ok(const wt_instance *inst, const wt_params *p, wt_result *res)
{
    wt_error err = {0};
    if (wt_solve(inst, p, res, &err) != WT_OK) fail_msg("solve: %s", err.message);
    int n = wt_instance_n(inst);
    assert_int_equal(wt_tour_validate(res->tour, n, NULL), WT_OK);
    assert_int_equal(res->length, wt_tour_length(inst, res->tour));
    assert_int_equal(res->moves_evaluated, res->sa.iterations * (uint64_t)res->sa.moves_per_search);
    assert_true(res->sa.accepted <= res->sa.iterations);
    assert_true(res->steps <= res->sa.accepted);
}

static void assert_same_run(const wt_result *a, const wt_result *b)
{
    assert_int_equal(a->n, b->n);
    assert_memory_equal(a->tour, b->tour, (size_t)a->n * sizeof *a->tour);
    assert_int_equal(a->length, b->length);
    assert_int_equal(a->sa.iterations, b->sa.iterations);
    assert_int_equal(a->sa.accepted, b->sa.accepted);
    assert_int_equal(a->steps, b->steps);
    assert_int_equal(a->moves_evaluated, b->moves_evaluated);
    assert_true(a->sa.temperature_final == b->sa.temperature_final);
}

/* Steps of the schedule of p: T = Ts, Ts*alpha, ... while above Te. */
static uint64_t schedule_steps(const wt_params *p)
{
    double t = p->sa_t_start;
    uint64_t step = 0;
    while (wt_sa_schedule(&t, &step, p->sa_t_end, p->sa_alpha, 1000) > 0) continue;
    return step;
}

static void test_runs_are_valid_and_counted(void **state)
{
    (void)state;
    wt_instance *inst = wt_test_random_instance(50, 12);
    for (int scheme = WT_SA_SSPM; scheme <= WT_SA_PSSM; scheme++) {
        wt_params p;
        sa_params(&p, (wt_sa_cpu_scheme)scheme, 3, 0, 0);
        wt_result res = {0};
        solve_ok(inst, &p, &res);
        /* Derived shape: SSPM one search of a move per thread, PSSM the reverse. */
        assert_int_equal(res.sa.searches, scheme == WT_SA_SSPM ? 1 : 3);
        assert_int_equal(res.sa.moves_per_search, scheme == WT_SA_SSPM ? 3 : 1);
        assert_int_equal(res.stop, WT_STOP_DONE);
        assert_int_equal(res.sa.iterations,
                         schedule_steps(&p) * 50 * 5 * (uint64_t)res.sa.searches);
        assert_true(res.sa.temperature_final <= p.sa_t_end);
        assert_true(res.sa.temperature_final / p.sa_alpha > p.sa_t_end);
        assert_true(res.length < res.init_length * 3 / 2);
        wt_result_free(&res);
    }
    /* The smallest instance, every edge weight type, a start tour. */
    double x[3] = {0, 3, 0}, y[3] = {0, 0, 4};
    wt_instance *tri;
    assert_int_equal(wt_instance_from_coords("tri", 3, WT_EUC_2D, x, y, NULL, &tri, NULL), WT_OK);
    wt_params p;
    sa_params(&p, WT_SA_PSSM, 2, 0, 2);
    wt_result res = {0};
    solve_ok(tri, &p, &res);
    assert_int_equal(res.length, 12);
    wt_result_free(&res);
    wt_instance_free(tri);
    const wt_edge_weight_type types[] = {WT_CEIL_2D, WT_ATT, WT_GEO, WT_MAN_2D, WT_EUC_3D};
    for (size_t t = 0; t < sizeof types / sizeof types[0]; t++) {
        wt_instance *ti = typed_instance(types[t], 25, 40 + t);
        int32_t start[25];
        wt_test_random_tour(25, 6, start);
        sa_params(&p, WT_SA_SSPM, 2, 2, 3);
        p.start_tour = start;
        solve_ok(ti, &p, &res);
        assert_int_equal(res.init_length, wt_tour_length(ti, start));
        wt_result_free(&res);
        wt_instance_free(ti);
    }
    wt_instance_free(inst);
}

static void test_same_seed_same_run(void **state)
{
    (void)state;
    wt_instance *inst = wt_test_random_instance(60, 13);
    wt_params p;
    wt_result a = {0}, b = {0}, c = {0};
    /* SSPM: one search of 5 moves with 1 and 3 threads; two searches too. */
    for (int searches = 1; searches <= 2; searches++) {
        sa_params(&p, WT_SA_SSPM, 1, searches, 5);
        solve_ok(inst, &p, &a);
        sa_params(&p, WT_SA_SSPM, 3, searches, 5);
        solve_ok(inst, &p, &b);
        assert_same_run(&a, &b);
        /* PSSM computes the very same run, with any number of threads. */
        sa_params(&p, WT_SA_PSSM, 2, searches, 5);
        solve_ok(inst, &p, &c);
        assert_same_run(&a, &c);
        wt_result_free(&a);
        wt_result_free(&b);
        wt_result_free(&c);
    }
    /* PSSM: the same seed twice; 1 and 3 threads for 3 searches. */
    sa_params(&p, WT_SA_PSSM, 3, 0, 0);
    solve_ok(inst, &p, &a);
    solve_ok(inst, &p, &b);
    assert_same_run(&a, &b);
    sa_params(&p, WT_SA_PSSM, 1, 3, 1);
    solve_ok(inst, &p, &c);
    assert_same_run(&a, &c);
    wt_result_free(&b);
    wt_result_free(&c);
    /* Another seed, another run. */
    p.seed = 18;
    solve_ok(inst, &p, &b);
    assert_true(b.sa.accepted != a.sa.accepted ||
                memcmp(a.tour, b.tour, (size_t)a.n * sizeof *a.tour) != 0);
    wt_result_free(&a);
    wt_result_free(&b);
    wt_instance_free(inst);
}

/* --near: valid runs, the same run for both CPU schemes and any number of
 * threads, another run than without it; auto and cuda take the GPU when
 * one is usable, which computes the same run (tests/gpu/test_gpu_sa.c
 * checks that at length), else auto takes the CPU and cuda refuses. */
static void test_near_runs(void **state)
{
    (void)state;
    wt_instance *inst = wt_test_random_instance(80, 17);
    wt_params p;
    wt_result a = {0}, b = {0}, c = {0};
    sa_params(&p, WT_SA_SSPM, 1, 2, 4);
    p.sa_near = 8;
    solve_ok(inst, &p, &a);
    sa_params(&p, WT_SA_PSSM, 2, 2, 4);
    p.sa_near = 8;
    solve_ok(inst, &p, &b);
    assert_same_run(&a, &b);
    p.sa_near = 0;
    solve_ok(inst, &p, &c);
    assert_true(c.sa.accepted != a.sa.accepted ||
                memcmp(a.tour, c.tour, (size_t)a.n * sizeof *a.tour) != 0);
    wt_result_free(&b);
    wt_result_free(&c);
    p.sa_near = 500; /* more than n - 1: all the other cities */
    solve_ok(inst, &p, &b);
    wt_result_free(&b);
    p.sa_near = 8;
    p.backend = WT_BACKEND_AUTO;
    solve_ok(inst, &p, &b);
    char device[160];
    bool gpu = wt_cuda_available(device, sizeof device);
    assert_string_equal(b.backend, gpu ? "cuda" : "cpu");
    assert_same_run(&a, &b);
    wt_result_free(&b);
    p.backend = WT_BACKEND_CUDA;
    wt_error err = {0};
    if (gpu) {
        solve_ok(inst, &p, &b);
        assert_same_run(&a, &b);
        wt_result_free(&b);
    } else {
        assert_int_equal(wt_solve(inst, &p, &b, &err), WT_STATUS_NO_DEVICE);
    }
    wt_result_free(&a);
    wt_instance_free(inst);
}

static void test_stop_flag_keeps_the_start_tour(void **state)
{
    (void)state;
    wt_instance *inst = wt_test_random_instance(80, 14);
    volatile int flag = 1;
    for (int scheme = WT_SA_SSPM; scheme <= WT_SA_PSSM; scheme++) {
        wt_params p;
        sa_params(&p, (wt_sa_cpu_scheme)scheme, 3, 0, 0);
        p.stop_flag = &flag;
        wt_result res = {0};
        solve_ok(inst, &p, &res);
        assert_int_equal(res.stop, WT_STOP_INTERRUPTED);
        assert_int_equal(res.sa.iterations, 0);
        assert_int_equal(res.length, res.init_length);
        assert_true(res.sa.temperature_final == p.sa_t_start);
        wt_result_free(&res);
    }
    wt_instance_free(inst);
}

typedef struct seen {
    int calls;
    double temperature;
} seen;

static int stop_on_third_report(const wt_progress *pr, void *user)
{
    seen *s = user;
    s->calls++;
    s->temperature = pr->temperature;
    return s->calls >= 3;
}

/* The progress callback sees the temperature and can stop either scheme;
 * a time limit ends an anneal early as WT_STOP_TIME_LIMIT. */
static void test_progress_and_time_limit(void **state)
{
    (void)state;
    wt_instance *inst = wt_test_random_instance(200, 15);
    for (int scheme = WT_SA_SSPM; scheme <= WT_SA_PSSM; scheme++) {
        wt_params p;
        sa_params(&p, (wt_sa_cpu_scheme)scheme, 2, 0, 0);
        p.sa_t_start = 10000.0;
        p.sa_t_end = 0.1;
        p.sa_alpha = 0.9999; /* far too long a run to finish */
        seen s = {0, 0.0};
        p.progress = stop_on_third_report;
        p.progress_user = &s;
        p.progress_interval_s = 0;
        wt_result res = {0};
        solve_ok(inst, &p, &res);
        assert_int_equal(res.stop, WT_STOP_INTERRUPTED);
        assert_int_equal(s.calls, 3);
        assert_true(s.temperature > 0.1 && s.temperature <= 10000.0);
        assert_true(res.sa.iterations > 0);
        wt_result_free(&res);

        p.progress = NULL;
        p.time_limit_s = 0.2;
        solve_ok(inst, &p, &res);
        assert_int_equal(res.stop, WT_STOP_TIME_LIMIT);
        assert_true(res.sa.temperature_final > p.sa_t_end);
        wt_result_free(&res);
    }
    wt_instance_free(inst);
}

static void test_bad_parameters(void **state)
{
    (void)state;
    wt_instance *inst = wt_test_random_instance(10, 16);
    for (int k = 0; k < 9; k++) {
        wt_params p;
        sa_params(&p, WT_SA_SSPM, 1, 0, 0);
        switch (k) {
        case 7: p.sa_near = 1; break;
        case 8: p.sa_near = -2; break;
        case 0: p.sa_alpha = 1.0; break;
        case 1: p.sa_alpha = 0.0; break;
        case 2: p.sa_t_start = 0.0; break;
        case 3: p.sa_t_end = -1.0; break;
        case 4: p.sa_sweeps = 0; break;
        case 5: p.sa_exchange = 0; break;
        case 6: p.sa_moves = -1; break;
        }
        wt_result res = {0};
        wt_error err = {0};
        assert_int_equal(wt_solve(inst, &p, &res, &err), WT_STATUS_INVALID_ARGUMENT);
        assert_non_null(strstr(err.message, "sa:"));
        assert_null(res.tour);
    }
    wt_instance_free(inst);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_moves_keep_a_tour),
        cmocka_unit_test(test_delta_is_exact),
        cmocka_unit_test(test_draws),
        cmocka_unit_test(test_near_draws),
        cmocka_unit_test(test_look_ahead_draws),
        cmocka_unit_test(test_near_runs),
        cmocka_unit_test(test_schedule),
        cmocka_unit_test(test_cold_search_never_worsens),
        cmocka_unit_test(test_lazy_best_is_the_least_seen),
        cmocka_unit_test(test_runs_are_valid_and_counted),
        cmocka_unit_test(test_same_seed_same_run),
        cmocka_unit_test(test_stop_flag_keeps_the_start_tour),
        cmocka_unit_test(test_progress_and_time_limit),
        cmocka_unit_test(test_bad_parameters),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
