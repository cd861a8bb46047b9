/*
 * test_multistart.c - the CPU multistart climbs exactly as the reference 2-opt.
 *
 * The multistart backend re-implements best-improvement 2-opt for speed
 * (coordinates in tour order, one distance per move, TSPLIB rounding in
 * double arithmetic), so it is checked against the plain reference
 * (cpu_2opt.c): every row of distances equals wt_dist for every edge weight
 * type, each climb ends in the very tour, after the very number of steps,
 * that wt_2opt_best_move/wt_2opt_apply reach from the same start, and
 * through wt_solve the run keeps the least climb (ties to the lower index),
 * counts its work, does not depend on the thread count and stops cleanly.
 *
 * The file includes cpu_multistart.c itself so that its row loops and single
 * climbs, which are static, can be tested directly.
 */
#include "test_util.h"

#include "backend/cpu/cpu_multistart.c"

/* ------------------------------------------------------------ instances */

/* How coordinates are drawn. */
typedef enum coord_style {
    STYLE_INTEGER, /* integers in [0, 1000): the usual TSPLIB case */
    STYLE_HALVES,  /* multiples of 0.5 in [0, 10): many ties, many x.5 roundings */
    STYLE_REAL,    /* arbitrary reals in [0, 1000) */
    STYLE_HUGE     /* reals in [0, 1e16): too large for the fast rows */
} coord_style;

static double draw_coord(wt_rng *rng, coord_style style)
{
    switch (style) {
    case STYLE_INTEGER: return (double)wt_rng_below(rng, 1000);
    case STYLE_HALVES: return 0.5 * (double)wt_rng_below(rng, 20);
    case STYLE_REAL: return 1000.0 * wt_rng_uniform(rng);
    case STYLE_HUGE: return 1e16 * wt_rng_uniform(rng);
    }
    return 0.0;
}

/* TSPLIB GEO coordinate DDD.MM with |DDD| < max_deg. */
static double draw_geo(wt_rng *rng, int max_deg)
{
    double deg = (double)wt_rng_below(rng, (uint64_t)max_deg);
    double v = deg + (double)wt_rng_below(rng, 60) / 100.0;
    return wt_rng_below(rng, 2) ? -v : v;
}

static wt_instance *coord_instance(wt_edge_weight_type type, int n, coord_style style,
                                   uint64_t seed)
{
    wt_rng rng;
    wt_rng_seed(&rng, seed);
    double *x = malloc(3 * (size_t)n * sizeof *x), *y = x + n, *z = y + n;
    for (int i = 0; i < n; i++) {
        x[i] = type == WT_GEO ? draw_geo(&rng, 90) : draw_coord(&rng, style);
        y[i] = type == WT_GEO ? draw_geo(&rng, 180) : draw_coord(&rng, style);
        z[i] = draw_coord(&rng, style);
    }
    wt_instance *inst = NULL;
    wt_error err = {0};
    if (wt_instance_from_coords("ms", n, type, x, y, z, &inst, &err) != WT_OK)
        fail_msg("from_coords: %s", err.message);
    free(x);
    return inst;
}

/* An EXPLICIT instance from a TSPLIB text with small weights (many ties). */
static wt_instance *explicit_instance(int n, uint64_t seed)
{
    wt_rng rng;
    wt_rng_seed(&rng, seed);
    size_t cap = 256 + (size_t)n * (size_t)n * 4, len = 0;
    char *text = malloc(cap);
    len += (size_t)snprintf(text, cap,
                            "NAME: ex\nTYPE: TSP\nDIMENSION: %d\nEDGE_WEIGHT_TYPE: EXPLICIT\n"
                            "EDGE_WEIGHT_FORMAT: UPPER_ROW\nEDGE_WEIGHT_SECTION\n", n);
    for (int i = 0; i < n - 1; i++) {
        for (int j = i + 1; j < n; j++)
            len += (size_t)snprintf(text + len, cap - len, " %d", 1 + (int)wt_rng_below(&rng, 30));
        len += (size_t)snprintf(text + len, cap - len, "\n");
    }
    snprintf(text + len, cap - len, "EOF\n");
    wt_instance *inst = wt_test_parse(text);
    free(text);
    return inst;
}

/* Every kind of instance the climbs are checked on. */
typedef struct kind {
    wt_edge_weight_type type;
    coord_style style;
} kind;

static const kind kinds[] = {
    {WT_EUC_2D, STYLE_INTEGER}, {WT_EUC_2D, STYLE_HALVES},  {WT_EUC_2D, STYLE_REAL},
    {WT_CEIL_2D, STYLE_INTEGER}, {WT_CEIL_2D, STYLE_HALVES}, {WT_ATT, STYLE_INTEGER},
    {WT_ATT, STYLE_HALVES},     {WT_MAN_2D, STYLE_INTEGER}, {WT_MAN_2D, STYLE_HALVES},
    {WT_MAX_2D, STYLE_INTEGER}, {WT_MAX_2D, STYLE_HALVES},  {WT_EUC_3D, STYLE_INTEGER},
    {WT_EUC_3D, STYLE_HALVES},  {WT_GEO, STYLE_REAL},       {WT_EXPLICIT, STYLE_INTEGER},
    {WT_EUC_2D, STYLE_HUGE},
};
#define N_KINDS (sizeof kinds / sizeof kinds[0])

static wt_instance *kind_instance(const kind *k, int n, uint64_t seed)
{
    if (k->type == WT_EXPLICIT) return explicit_instance(n, seed);
    return coord_instance(k->type, n, k->style, seed);
}

/* ------------------------------------------------------------ reference */

/* Climb r of a run seeded with seed, by the reference scan; returns steps. */
static uint64_t reference_climb(const wt_instance *inst, uint64_t seed, uint64_t r,
                                int32_t *tour)
{
    wt_climb_start_tour(seed, r, wt_instance_n(inst), tour);
    uint64_t steps = 0;
    for (;;) {
        wt_2opt_move m;
        assert_true(wt_2opt_best_move(inst, tour, 1, NULL, &m));
        if (m.delta >= 0) return steps;
        wt_2opt_apply(tour, m.i, m.j);
        steps++;
    }
}

/* Brute force over Listing 1's pair space with the exact delta. */
static bool is_local_optimum(const wt_instance *inst, const int32_t *t)
{
    int n = wt_instance_n(inst);
    for (int i = 0; i < n - 2; i++)
        for (int j = i + 2; j < n; j++)
            if (wt_2opt_move_delta(inst, t, i, j) < 0) return false;
    return true;
}

/* A search control as wt_solve would make it, for direct backend calls. */
static void make_ctl(wt_params *p, wt_search_ctl *ctl, int threads)
{
    wt_params_defaults(p);
    p->algorithm = WT_ALGO_2OPT; /* the default is ils */
    p->threads = threads;
    wt_ctl_init(ctl, p);
}

/* Climb r through the backend's own climber; returns its steps. */
static uint64_t backend_climb(const wt_instance *inst, uint64_t seed, uint64_t r, int32_t *tour)
{
    wt_params p;
    wt_search_ctl ctl;
    make_ctl(&p, &ctl, 1);
    wt_multistart_job job = {seed, 1, WT_MS_KERNEL_BLOCK};
    ms_shared sh = {.inst = inst, .job = &job, .ctl = &ctl, .best_tour = tour,
                    .best_len = INT64_MAX, .best_climb = UINT64_MAX};
    ms_climber c;
    assert_true(ms_climber_init(&c, inst, 0));
    ms_climber_start(&c, seed, r);
    assert_true(ms_climb(&c, &sh));
    assert_int_equal(c.scans, c.steps + 1);
    assert_int_equal(c.len, wt_tour_length(inst, c.ids));
    memcpy(tour, c.ids, (size_t)c.n * sizeof *tour);
    uint64_t steps = c.steps;
    ms_climber_free(&c);
    return steps;
}

/* --------------------------------------------------------------- tests */

static void check_rows(const wt_instance *inst)
{
    ms_climber c;
    assert_true(ms_climber_init(&c, inst, 0));
    assert_non_null(c.row);
    int n = c.n;
    for (uint64_t r = 0; r < 3; r++) {
        ms_climber_start(&c, 5, r);
        for (int i = 0; i < n; i++) {
            int hi = i > 0 ? n : n - 1;
            c.row(&c, i, i + 1, hi, c.cur);
            for (int k = i + 1; k <= hi; k++)
                if (c.cur[k] != (double)wt_dist(inst, c.ids[i], c.ids[k]))
                    fail_msg("%s: D(%d, %d) = %.1f, wt_dist says %lld",
                             wt_edge_weight_type_name(inst->type), c.ids[i], c.ids[k], c.cur[k],
                             (long long)wt_dist(inst, c.ids[i], c.ids[k]));
        }
    }
    ms_climber_free(&c);
}

static void test_rows_match_wt_dist(void **state)
{
    (void)state;
    for (size_t k = 0; k < N_KINDS; k++) {
        if (kinds[k].style == STYLE_HUGE) continue;
        for (int n = 5; n <= 200; n += 65) {
            wt_instance *inst = kind_instance(&kinds[k], n, 31 * (uint64_t)n + k);
            check_rows(inst);
            wt_instance_free(inst);
        }
    }
    /* Differences of exactly x.5 in one or both axes, Pythagorean triples
     * (sqrt exact) and ATT's d2/10 a perfect square (225 + 25 = 250). */
    double x[] = {0, 0.5, 1.5, 2.5, 3, 15, 0.25, 7.5, 0, 100.5, 1e6 + 0.5};
    double y[] = {0, 0, 0.5, 0, 4, 5, 0.75, 2.5, 1.5, 0, 0.5};
    double z[] = {0, 0.5, 0, 1.5, 12, 0, 0.25, 0.5, 2.5, 0, 0};
    for (wt_edge_weight_type t = WT_EUC_2D; t <= WT_EUC_3D; t++) {
        if (t == WT_GEO) continue;
        wt_instance *inst;
        assert_int_equal(wt_instance_from_coords("half", 11, t, x, y, z, &inst, NULL), WT_OK);
        check_rows(inst);
        wt_instance_free(inst);
    }
}

static void test_huge_coordinates_take_the_reference_scan(void **state)
{
    (void)state;
    wt_instance *inst = coord_instance(WT_EUC_2D, 20, STYLE_HUGE, 3);
    assert_null(ms_row_for(inst));
    wt_instance_free(inst);
    inst = coord_instance(WT_EUC_2D, 20, STYLE_REAL, 3);
    assert_non_null(ms_row_for(inst));
    wt_instance_free(inst);
}

/* Climbs 0..climbs-1 of one instance, by the backend's climber and by the
 * reference; and climb 0 through the whole backend entry point. */
static void check_climbs(const wt_instance *inst, uint64_t seed, uint64_t climbs)
{
    int n = wt_instance_n(inst);
    int32_t *want = malloc((size_t)n * sizeof *want), *got = malloc((size_t)n * sizeof *got);
    for (uint64_t r = 0; r < climbs; r++) {
        uint64_t want_steps = reference_climb(inst, seed, r, want);
        uint64_t got_steps = backend_climb(inst, seed, r, got);
        assert_memory_equal(got, want, (size_t)n * sizeof *got);
        assert_int_equal(got_steps, want_steps);
        if (r > 0) continue;
        wt_params p;
        wt_search_ctl ctl;
        make_ctl(&p, &ctl, 2);
        wt_multistart_job job = {seed, 1, WT_MS_KERNEL_BLOCK};
        wt_search_stats stats = {0};
        assert_int_equal(wt_cpu_multistart(inst, &job, &ctl, got, &stats, NULL), WT_OK);
        assert_memory_equal(got, want, (size_t)n * sizeof *got);
        assert_int_equal(stats.climbs, 1);
        assert_int_equal(stats.best_climb, 0);
        assert_int_equal(stats.steps, want_steps);
        assert_int_equal(stats.moves_evaluated, wt_2opt_moves_per_scan(n) * (want_steps + 1));
    }
    free(want);
    free(got);
}

static void test_climbs_match_reference(void **state)
{
    (void)state;
    const int sizes[] = {5, 6, 17, 64, 150};
    for (size_t k = 0; k < N_KINDS; k++)
        for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
            int n = sizes[s];
            wt_instance *inst = kind_instance(&kinds[k], n, 1000 + 7 * (uint64_t)n + k);
            check_climbs(inst, 11 + k, n >= 150 ? 1 : 4);
            wt_instance_free(inst);
        }
}

static void solve_multistart(const wt_instance *inst, uint64_t restarts, int threads,
                             wt_result *res)
{
    wt_params p;
    wt_params_defaults(&p);
    p.algorithm = WT_ALGO_MULTISTART;
    p.backend = WT_BACKEND_CPU;
    p.seed = 77;
    p.restarts = restarts;
    p.threads = threads;
    wt_error err = {0};
    if (wt_solve(inst, &p, res, &err) != WT_OK) fail_msg("solve: %s", err.message);
}

/* The run keeps the least climb, the lowest index among equals, and its
 * counters add up, with one thread or three. */
static void check_solve(const wt_instance *inst, uint64_t restarts)
{
    int n = wt_instance_n(inst);
    int32_t *t = malloc((size_t)n * sizeof *t);
    int64_t best = INT64_MAX;
    uint64_t best_r = 0, steps = 0;
    for (uint64_t r = 0; r < restarts; r++) {
        steps += reference_climb(inst, 77, r, t);
        int64_t len = wt_tour_length(inst, t);
        if (len < best) {
            best = len;
            best_r = r;
        }
    }
    wt_result a = {0}, b = {0};
    solve_multistart(inst, restarts, 1, &a);
    solve_multistart(inst, restarts, 3, &b);
    assert_int_equal(wt_tour_validate(a.tour, n, NULL), WT_OK);
    assert_true(is_local_optimum(inst, a.tour));
    assert_int_equal(a.stop, WT_STOP_DONE);
    assert_int_equal(a.length, best);
    assert_int_equal(a.multistart.best_climb, best_r);
    reference_climb(inst, 77, best_r, t);
    assert_memory_equal(a.tour, t, (size_t)n * sizeof *t);
    assert_int_equal(a.multistart.climbs, restarts);
    assert_int_equal(a.steps, steps);
    assert_int_equal(a.moves_evaluated,
                     wt_2opt_moves_per_scan(n) * (a.steps + a.multistart.climbs));
    assert_memory_equal(b.tour, a.tour, (size_t)n * sizeof *t);
    assert_int_equal(b.length, a.length);
    assert_int_equal(b.multistart.best_climb, a.multistart.best_climb);
    assert_int_equal(b.steps, a.steps);
    assert_int_equal(b.moves_evaluated, a.moves_evaluated);
    assert_int_equal(b.multistart.climbs, a.multistart.climbs);
    wt_result_free(&a);
    wt_result_free(&b);
    free(t);
}

static void test_solve_keeps_least_climb(void **state)
{
    (void)state;
    wt_instance *inst = wt_test_random_instance(60, 21);
    check_solve(inst, 10);
    wt_instance_free(inst);
    /* A 3 x 3 grid: most climbs reach the optimum, so the tie rule decides. */
    double x[9], y[9];
    for (int i = 0; i < 9; i++) {
        x[i] = 10.0 * (i % 3);
        y[i] = 10.0 * (i / 3);
    }
    assert_int_equal(wt_instance_from_coords("grid", 9, WT_EUC_2D, x, y, NULL, &inst, NULL), WT_OK);
    check_solve(inst, 24);
    wt_instance_free(inst);
}

static void test_time_limited_run(void **state)
{
    (void)state;
    wt_instance *inst = wt_test_random_instance(300, 4);
    wt_params p;
    wt_params_defaults(&p);
    p.algorithm = WT_ALGO_MULTISTART;
    p.backend = WT_BACKEND_CPU;
    p.threads = 2;
    /* One climb of 300 cities takes about 50 ms optimised, 250 ms under
     * AddressSanitizer at -O1. */
#ifdef __SANITIZE_ADDRESS__
    p.time_limit_s = 1.0;
#else
    p.time_limit_s = 0.2;
#endif
    wt_result res = {0};
    assert_int_equal(wt_solve(inst, &p, &res, NULL), WT_OK);
    assert_int_equal(wt_tour_validate(res.tour, 300, NULL), WT_OK);
    assert_int_equal(res.length, wt_tour_length(inst, res.tour));
    /* how many climbs end in the limit depends on the machine's load: the
     * tour is valid either way (a cut climb's tour competes too), and the
     * stop follows the rule, not the load: done once a climb finished
     * (none may have, on a loaded machine: issue 42) */
    assert_int_equal(res.stop, res.multistart.climbs >= 1 ? WT_STOP_DONE : WT_STOP_TIME_LIMIT);
    /* Climbs cut short count their steps and complete scans, not themselves. */
    assert_int_equal(res.moves_evaluated,
                     wt_2opt_moves_per_scan(300) * (res.steps + res.multistart.climbs));
    wt_result_free(&res);
    wt_instance_free(inst);
}

/* Climbing as long as the limit allows ends normally only once a climb
 * finished: a limit that cuts short every climb stopped the run early. */
static void test_time_limit_before_any_climb(void **state)
{
    (void)state;
    wt_instance *inst = wt_test_random_instance(3000, 4);
    wt_params p;
    wt_params_defaults(&p);
    p.algorithm = WT_ALGO_MULTISTART;
    p.backend = WT_BACKEND_CPU;
    p.threads = 2;
    p.time_limit_s = 1e-6;
    wt_result res = {0};
    assert_int_equal(wt_solve(inst, &p, &res, NULL), WT_OK);
    assert_int_equal(wt_tour_validate(res.tour, 3000, NULL), WT_OK);
    assert_int_equal(res.multistart.climbs, 0);
    assert_int_equal(res.stop, WT_STOP_TIME_LIMIT);
    wt_result_free(&res);
    wt_instance_free(inst);
}

static void test_stop_flag_already_set(void **state)
{
    (void)state;
    wt_instance *inst = wt_test_random_instance(300, 4);
    volatile int flag = 1;
    wt_params p;
    wt_params_defaults(&p);
    p.algorithm = WT_ALGO_MULTISTART;
    p.backend = WT_BACKEND_CPU;
    p.threads = 3;
    p.stop_flag = &flag;
    wt_result res = {0};
    assert_int_equal(wt_solve(inst, &p, &res, NULL), WT_OK);
    assert_int_equal(wt_tour_validate(res.tour, 300, NULL), WT_OK);
    assert_int_equal(res.length, wt_tour_length(inst, res.tour));
    assert_int_equal(res.multistart.climbs, 0);
    assert_int_equal(res.steps, 0);
    assert_int_equal(res.stop, WT_STOP_INTERRUPTED);
    wt_result_free(&res);
    wt_instance_free(inst);
}

static int stop_after_two_climbs(const wt_progress *p, void *user)
{
    (void)user;
    return p->climbs >= 2;
}

static void test_progress_can_stop(void **state)
{
    (void)state;
    wt_instance *inst = wt_test_random_instance(80, 6);
    wt_params p;
    wt_params_defaults(&p);
    p.algorithm = WT_ALGO_MULTISTART;
    p.backend = WT_BACKEND_CPU;
    p.threads = 2;
    p.restarts = 100000;
    p.progress = stop_after_two_climbs;
    p.progress_interval_s = 0;
    wt_result res = {0};
    assert_int_equal(wt_solve(inst, &p, &res, NULL), WT_OK);
    assert_int_equal(res.stop, WT_STOP_INTERRUPTED);
    assert_true(res.multistart.climbs >= 2 && res.multistart.climbs < 100000);
    assert_int_equal(wt_tour_validate(res.tour, 80, NULL), WT_OK);
    assert_int_equal(res.length, wt_tour_length(inst, res.tour));
    wt_result_free(&res);
    wt_instance_free(inst);
}

static int stop_at_once(const wt_progress *p, void *user)
{
    (void)p;
    (void)user;
    return 1;
}

/* One climb, three threads: whichever thread draws it, the calling thread
 * keeps consulting the callback and the climb is stopped. */
static void test_progress_while_others_climb(void **state)
{
    (void)state;
    wt_instance *inst = wt_test_random_instance(300, 8);
    wt_params p;
    wt_params_defaults(&p);
    p.algorithm = WT_ALGO_MULTISTART;
    p.backend = WT_BACKEND_CPU;
    p.threads = 3;
    p.restarts = 1;
    p.progress = stop_at_once;
    p.progress_interval_s = 0;
    wt_result res = {0};
    assert_int_equal(wt_solve(inst, &p, &res, NULL), WT_OK);
    assert_int_equal(res.stop, WT_STOP_INTERRUPTED);
    assert_int_equal(res.multistart.climbs, 0);
    assert_int_equal(res.multistart.best_climb, 0);
    assert_int_equal(wt_tour_validate(res.tour, 300, NULL), WT_OK);
    wt_result_free(&res);
    wt_instance_free(inst);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rows_match_wt_dist),
        cmocka_unit_test(test_huge_coordinates_take_the_reference_scan),
        cmocka_unit_test(test_climbs_match_reference),
        cmocka_unit_test(test_solve_keeps_least_climb),
        cmocka_unit_test(test_time_limited_run),
        cmocka_unit_test(test_time_limit_before_any_climb),
        cmocka_unit_test(test_stop_flag_already_set),
        cmocka_unit_test(test_progress_can_stop),
        cmocka_unit_test(test_progress_while_others_climb),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
