/*
 * test_gpu_session.c - the whole-GPU 2-opt (one pass, k-swap descent, tour
 * sessions, ILS) against the CPU reference.
 *
 * Where float computes every distance exactly (integer coordinates below
 * 400) the GPU pass must find exactly the CPU's row bests and band bests
 * (k-swap candidates), so descents with the same k, k-swap rule (disjoint
 * or nested) and band, and ILS runs with the same seed, must end in the
 * same tours, move for move.  Elsewhere tours must be valid and 2-optimal up to the
 * float tolerance, with their exact lengths reported.  Also: a 1M-city
 * descent, and determinism.
 *
 * Built only with the CUDA backend, labelled "gpu"; exits 77 (skipped) when
 * no GPU is usable.  WT_TEST_GPU_AS_CPU=1 runs the "GPU" side on the CPU
 * backend, to check the tests themselves without a GPU (the 1M case is
 * then skipped).  WT_TEST_FILTER / WT_TEST_SKIP select tests by name.
 */
#include "gpu_test.h"
#include "parity.h"

#include <inttypes.h>
#include <omp.h>
#include <time.h>

#include "backend/cpu/cpu_2opt.h"
#include "backend/cuda/twoopt_pass.h"
#include "warptour_experimental.h"

/* A row's float best may differ from its exact best by the rounding of
 * four distances on each of two moves: an exact improving move of at most
 * 8 may remain where float arithmetic is not exact (see twoopt_pass.cu). */
#define GPU_FLOAT_TOL 8
#define SOLVE_LIMIT_S 300.0
#define MILLION_LIMIT_S 300.0

static wt_backend_kind gpu_backend = WT_BACKEND_CUDA;
static bool gpu_is_cpu;
static bool solve_prune = true; /* wt_params.prune of the solves below */

/* The tuning of every pass and solve below (SESSION_TEST resets it before
 * each test): the pruned pass at every size (the library prunes from
 * 16,384 cities), so that small tours exercise its tiles, row blocks and
 * slot widths; some tests force the pass's shape too. */
static const wt_tuning default_tuning = {.pass_prune_min = 1};
static wt_tuning tuning;

static int reset_tuning(void **state)
{
    tuning = default_tuning;
    return gpu_test_timer_start(state);
}

#define SESSION_TEST(f) cmocka_unit_test_setup_teardown(f, reset_tuning, gpu_test_timer_stop)

/* ------------------------------------------------------------ helpers */

/* Integer coordinates below 400 (GRID: a unit grid, many equal deltas):
 * float computes every distance and delta exactly (parity.h). */
static wt_instance *typed_instance(int n, bool grid, uint64_t seed, wt_edge_weight_type type)
{
    return parity_instance(type, n, seed, 400, grid);
}

static wt_instance *exact_instance(int n, bool grid, uint64_t seed)
{
    return typed_instance(n, grid, seed, WT_EUC_2D);
}

static int32_t *random_tour(int n, uint64_t seed)
{
    int32_t *t = malloc((size_t)n * sizeof *t);
    assert_non_null(t);
    uint64_t s = seed;
    for (int i = 0; i < n; i++) t[i] = i;
    for (int i = n - 1; i > 0; i--) {
        int k = (int)(parity_rng_next(&s) % (uint64_t)(i + 1));
        int32_t v = t[i];
        t[i] = t[k];
        t[k] = v;
    }
    return t;
}

static int32_t *init_tour(const wt_instance *inst, wt_init_method m)
{
    int32_t *t = malloc((size_t)wt_instance_n(inst) * sizeof *t);
    assert_non_null(t);
    wt_error err = {0};
    if (wt_tour_init(inst, m, 1, t, &err) != WT_OK) fail_msg("start tour: %s", err.message);
    return t;
}

/* The k-swap rule and band of a run; NULL stands for the library's defaults. */
typedef struct kswap_opts {
    bool nested;
    int band;
} kswap_opts;

static wt_status run_solve_opts(const wt_instance *inst, wt_algorithm algo,
                                wt_backend_kind backend, const int32_t *start, int swaps,
                                const kswap_opts *ks, uint64_t kicks, uint64_t seed, double limit,
                                wt_result *res, wt_error *err)
{
    wt_params p;
    wt_params_defaults(&p);
    if (ks) {
        p.kswap_nested = ks->nested;
        p.kswap_band = ks->band;
    }
    p.algorithm = algo;
    p.backend = backend;
    p.ils_descent = WT_ILS_FULL; /* the same ILS on both backends (auto: local on the CPU) */
    p.prune = solve_prune;
    p.tuning = &tuning;
    p.start_tour = start;
    p.swaps = swaps;
    p.kicks = kicks;
    p.seed = seed;
    p.time_limit_s = limit;
    return wt_solve(inst, &p, res, err);
}

static wt_status run_solve(const wt_instance *inst, wt_algorithm algo, wt_backend_kind backend,
                           const int32_t *start, int swaps, uint64_t kicks, uint64_t seed,
                           double limit, wt_result *res, wt_error *err)
{
    return run_solve_opts(inst, algo, backend, start, swaps, NULL, kicks, seed, limit, res, err);
}

static void solve_opts(const wt_instance *inst, wt_algorithm algo, wt_backend_kind backend,
                       const int32_t *start, int swaps, const kswap_opts *ks, uint64_t kicks,
                       uint64_t seed, wt_result *res)
{
    wt_error err = {0};
    if (run_solve_opts(inst, algo, backend, start, swaps, ks, kicks, seed, SOLVE_LIMIT_S, res,
                       &err) != WT_OK)
        fail_msg("%s %s on %s (swaps %d, nested %s, band %d, seed %" PRIu64 "): %s",
                 wt_backend_name(backend), algo == WT_ALGO_ILS ? "ils" : "2opt",
                 wt_instance_name(inst), swaps, !ks ? "default" : ks->nested ? "on" : "off",
                 ks ? ks->band : -1, seed, err.message);
}

static void solve(const wt_instance *inst, wt_algorithm algo, wt_backend_kind backend,
                  const int32_t *start, int swaps, uint64_t kicks, uint64_t seed, wt_result *res)
{
    solve_opts(inst, algo, backend, start, swaps, NULL, kicks, seed, res);
}

/* Finished, valid, and its exact length is the one reported. */
static void check_result(const wt_instance *inst, const wt_result *r, const char *what)
{
    parity_check_result(inst, r, what);
}

static void check_locally_optimal(const wt_instance *inst, const wt_result *r, int64_t tol,
                                  const char *what)
{
    parity_check_locally_optimal(inst, r->tour, tol, what);
}

/* Tours, lengths and step counts must agree exactly. */
static void check_same(const wt_instance *inst, const wt_result *g, const wt_result *c,
                       const char *what)
{
    parity_check_same(inst, g, c, PARITY_STEPS | PARITY_PASSES | PARITY_KICKS, what);
}

/* One GPU pass (wt_cuda_2opt_scan) with the tuning above. */
static wt_status gpu_scan(const wt_instance *inst, const int32_t *t, int band, bool prune,
                          wt_kswap_move *out, int *count, double *secs, uint64_t *checked,
                          wt_error *err)
{
    wt_params p;
    wt_params_defaults(&p);
    p.algorithm = WT_ALGO_2OPT; /* the default is ils */
    p.prune = prune;
    p.tuning = &tuning;
    return wt_cuda_2opt_scan(inst, t, band, &p, out, count, secs, checked, err);
}

/* ------------------------------------------------ (a) one pass: row bests */

static int gpu_row_bests(const wt_instance *inst, const int32_t *t, wt_kswap_move *out,
                         double *secs)
{
    int count = 0;
    wt_error err = {0};
    if (gpu_is_cpu) return wt_2opt_row_bests(inst, t, 1, NULL, out);
    if (gpu_scan(inst, t, 0, false, out, &count, secs, NULL, &err) != WT_OK)
        fail_msg("GPU pass on %s: %s", wt_instance_name(inst), err.message);
    return count;
}

static void compare_row_bests(const wt_instance *inst, const int32_t *t, const char *start)
{
    int n = wt_instance_n(inst);
    wt_kswap_move *g = malloc((size_t)n * sizeof *g), *c = malloc((size_t)n * sizeof *c);
    assert_non_null(g);
    assert_non_null(c);
    double secs = 0;
    int ng = gpu_row_bests(inst, t, g, &secs);
    int nc = wt_2opt_row_bests(inst, t, omp_get_max_threads(), NULL, c);
    int k = 0;
    while (k < ng && k < nc && g[k].delta == c[k].delta && g[k].i == c[k].i && g[k].j == c[k].j)
        k++;
    if (ng != nc || k < nc)
        fail_msg("row bests on %s (%s tour): gpu %d rows, cpu %d; first difference at entry %d: "
                 "gpu (i %d, j %d, delta %" PRId64 ") cpu (i %d, j %d, delta %" PRId64 ")",
                 wt_instance_name(inst), start, ng, nc, k, k < ng ? g[k].i : -1,
                 k < ng ? g[k].j : -1, k < ng ? g[k].delta : 0, k < nc ? c[k].i : -1,
                 k < nc ? c[k].j : -1, k < nc ? c[k].delta : 0);
    if (n >= 1000)
        print_message("    n=%d %s: %d rows improve, pass kernel %.3f ms (%.3g checks/s)\n", n,
                      start, ng, secs * 1e3,
                      secs > 0 ? (double)wt_2opt_moves_per_scan(n) / secs : 0.0);
    free(g);
    free(c);
}

static void test_pass_row_bests(void **state)
{
    (void)state;
    static const int sizes[] = {5,    6,    7,    8,    9,    31,   32,   33,   63,  64,
                                65,   127,  128,  129,  255,  256,  257,  258,  259, 511,
                                512,  513,  514,  1000, 1023, 1024, 1025, 1026, 2047, 2048,
                                2049, 4097, 8193, 20000};
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        int n = sizes[s];
        for (int grid = 0; grid < 2; grid++) {
            wt_instance *inst = exact_instance(n, grid, 1 + s);
            int32_t *t = random_tour(n, 100 + s + 7 * (uint64_t)grid);
            compare_row_bests(inst, t, "random");
            free(t);
            if (!grid && n >= 8) { /* few improving rows, long ranges without any */
                t = init_tour(inst, WT_INIT_GREEDY);
                compare_row_bests(inst, t, "greedy");
                free(t);
            }
            wt_instance_free(inst);
        }
    }
}

/* compare_row_bests on a random tour (seed) and, from 8 cities, the
 * greedy tour of inst. */
static void compare_random_and_greedy(const wt_instance *inst, uint64_t seed)
{
    int n = wt_instance_n(inst);
    int32_t *t = random_tour(n, seed);
    compare_row_bests(inst, t, "random");
    free(t);
    if (n >= 8) {
        t = init_tour(inst, WT_INIT_GREEDY);
        compare_row_bests(inst, t, "greedy");
        free(t);
    }
}

/* The same with 16 rows per lane, the pass's shape for large tours
 * (tuning.pass_rows forces it; rows blocks of 512, pieces of 1024 columns). */
static void test_pass_row_bests_r16(void **state)
{
    (void)state;
    static const int sizes[] = {5, 9, 33, 511, 512, 513, 514, 515, 1025, 1026, 2049, 4097, 20000};
    tuning.pass_rows = 16;
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        int n = sizes[s];
        wt_instance *inst = exact_instance(n, false, 40 + s);
        compare_random_and_greedy(inst, 400 + s);
        wt_instance_free(inst);
    }
}

/* The pass's loops for the 2D Euclidean metrics: the integer loop at each
 * period (an offset chain restarted every 2, 4 or 8 columns) and the float
 * loop, at 8 and 16 rows per lane (tuning.pass_period, pass_float_loop,
 * pass_rows), on EUC_2D and CEIL_2D (exact below 700: coordinates below
 * 400).  The other tests run the default, the longest period these small
 * coordinates allow. */
static void test_pass_row_bests_loops(void **state)
{
    (void)state;
    static const int sizes[] = {5, 9, 33, 257, 514, 1025, 2049, 4097};
    static const int periods[] = {2, 4, 0}; /* 0: the float loop */
    static const int rows[] = {8, 16};
    for (int v = 0; v < 3; v++) {
        tuning.pass_period = periods[v];
        tuning.pass_float_loop = periods[v] == 0;
        for (int k = 0; k < 2; k++) {
            tuning.pass_rows = rows[k];
            for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
                int n = sizes[s];
                wt_instance *inst = typed_instance(n, s % 2 == 1, 60 + s,
                                                   s % 3 == 2 ? WT_CEIL_2D : WT_EUC_2D);
                compare_random_and_greedy(inst, 600 + s + 31 * (uint64_t)v);
                wt_instance_free(inst);
            }
        }
    }
}

/* One pass's k-swap candidates with a band: the row bests, then the band
 * bests (wt_2opt_candidates), equal to the CPU's entry for entry. */
static void compare_candidates(const wt_instance *inst, const int32_t *t, int band,
                               const char *start)
{
    int n = wt_instance_n(inst), ng = 0;
    wt_kswap_move *g = malloc(2 * (size_t)n * sizeof *g), *c = malloc(2 * (size_t)n * sizeof *c);
    assert_non_null(g);
    assert_non_null(c);
    wt_error err = {0};
    if (gpu_is_cpu) ng = wt_2opt_candidates(inst, t, 1, NULL, band, g);
    else if (gpu_scan(inst, t, band, false, g, &ng, NULL, NULL, &err) != WT_OK)
        fail_msg("GPU pass with band %d on %s: %s", band, wt_instance_name(inst), err.message);
    int nc = wt_2opt_candidates(inst, t, omp_get_max_threads(), NULL, band, c);
    int k = 0;
    while (k < ng && k < nc && g[k].delta == c[k].delta && g[k].i == c[k].i && g[k].j == c[k].j)
        k++;
    if (ng != nc || k < nc)
        fail_msg("candidates with band %d on %s (%s tour): gpu %d, cpu %d; first difference at "
                 "entry %d: gpu (i %d, j %d, delta %" PRId64 ") cpu (i %d, j %d, delta %" PRId64
                 ")", band, wt_instance_name(inst), start, ng, nc, k, k < ng ? g[k].i : -1,
                 k < ng ? g[k].j : -1, k < ng ? g[k].delta : 0, k < nc ? c[k].i : -1,
                 k < nc ? c[k].j : -1, k < nc ? c[k].delta : 0);
    free(g);
    free(c);
}

static void test_pass_band_candidates(void **state)
{
    (void)state;
    static const int sizes[] = {5, 6, 33, 64, 65, 200, 1000, 2049, 4097};
    static const int bands[] = {1, 2, 3, 64, 128, 100000};
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        int n = sizes[s];
        for (int grid = 0; grid < 2; grid++) {
            wt_instance *inst = exact_instance(n, grid, 40 + s);
            int32_t *r = random_tour(n, 200 + s + 7 * (uint64_t)grid);
            int32_t *gr = n >= 8 && !grid ? init_tour(inst, WT_INIT_GREEDY) : NULL;
            for (size_t b = 0; b < sizeof bands / sizeof bands[0]; b++) {
                compare_candidates(inst, r, bands[b], "random");
                if (gr) compare_candidates(inst, gr, bands[b], "greedy");
            }
            free(r);
            free(gr);
            wt_instance_free(inst);
        }
    }
}

/* ------------------------------- (b), (c) descents: same as the CPU, optimal */

static void compare_descent_opts(const wt_instance *inst, const int32_t *start, int swaps,
                                 const kswap_opts *ks)
{
    wt_result g, c;
    char what[96];
    if (ks)
        snprintf(what, sizeof what, "2opt descent with swaps %d, nested %s, band %d", swaps,
                 ks->nested ? "on" : "off", ks->band);
    else
        snprintf(what, sizeof what, "2opt descent with swaps %d", swaps);
    solve_opts(inst, WT_ALGO_2OPT, gpu_backend, start, swaps, ks, 0, 1, &g);
    solve_opts(inst, WT_ALGO_2OPT, WT_BACKEND_CPU, start, swaps, ks, 0, 1, &c);
    check_result(inst, &g, what);
    check_result(inst, &c, what);
    check_same(inst, &g, &c, what);
    check_locally_optimal(inst, &g, 0, what);
    wt_result_free(&g);
    wt_result_free(&c);
}

static void compare_descent(const wt_instance *inst, const int32_t *start, int swaps)
{
    compare_descent_opts(inst, start, swaps, NULL);
}

static void test_descent_swaps1_matches_cpu(void **state)
{
    (void)state;
    static const int sizes[] = {5, 33, 200, 1000};
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        wt_instance *inst = exact_instance(sizes[s], false, 3);
        int32_t *t = random_tour(sizes[s], 5 + s);
        compare_descent(inst, t, 1);
        free(t);
        wt_instance_free(inst);
    }
    wt_instance *grid = exact_instance(400, true, 0);
    int32_t *t = random_tour(400, 9);
    compare_descent(grid, t, 1);
    free(t);
    wt_instance_free(grid);
}

static void test_descent_kswap(void **state)
{
    (void)state;
    static const int sizes[] = {100, 500, 2000};
    static const int swaps[] = {0, 8, 2};
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
        for (size_t k = 0; k < sizeof swaps / sizeof swaps[0]; k++) {
            wt_instance *inst = exact_instance(sizes[s], false, 4 + s);
            int32_t *t = random_tour(sizes[s], 11 + s);
            compare_descent(inst, t, swaps[k]);
            free(t);
            wt_instance_free(inst);
        }
    wt_instance *grid = exact_instance(900, true, 0);
    int32_t *t = random_tour(900, 13);
    compare_descent(grid, t, 0);
    free(t);
    wt_instance_free(grid);
}

/* Every k-swap rule and band: the GPU's descents are the CPU's, move for
 * move, from random tours (long moves, deep nesting) and greedy ones. */
static void test_descent_kswap_options(void **state)
{
    (void)state;
    static const kswap_opts opts[] = {{false, 0}, {true, 0}, {false, 64}, {true, 64},
                                      {true, 7}, {true, 100000}};
    static const int sizes[] = {50, 700, 3000};
    static const int swaps[] = {0, 16};
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        wt_instance *inst = exact_instance(sizes[s], false, 60 + s);
        int32_t *r = random_tour(sizes[s], 70 + s), *gr = init_tour(inst, WT_INIT_GREEDY);
        for (size_t o = 0; o < sizeof opts / sizeof opts[0]; o++)
            for (size_t k = 0; k < sizeof swaps / sizeof swaps[0]; k++) {
                if (sizes[s] >= 3000 && (swaps[k] != 0 || o == 0)) continue; /* slow on the CPU */
                compare_descent_opts(inst, r, swaps[k], &opts[o]);
                compare_descent_opts(inst, gr, swaps[k], &opts[o]);
            }
        free(r);
        free(gr);
        wt_instance_free(inst);
    }
    wt_instance *grid = exact_instance(900, true, 0);
    int32_t *t = random_tour(900, 17);
    compare_descent_opts(grid, t, 0, &opts[3]);
    compare_descent_opts(grid, t, 0, &opts[1]);
    free(t);
    wt_instance_free(grid);
}

/* ------------------------------------------------------------ (d) ILS */

static void test_ils_matches_cpu(void **state)
{
    (void)state;
    wt_instance *inst = exact_instance(500, false, 21);
    int32_t *t = init_tour(inst, WT_INIT_GREEDY);
    for (int swaps = 0; swaps <= 1; swaps++) {
        wt_result g, c;
        char what[64];
        snprintf(what, sizeof what, "ils, 50 kicks, swaps %d", swaps);
        solve(inst, WT_ALGO_ILS, gpu_backend, t, swaps, 50, 7, &g);
        solve(inst, WT_ALGO_ILS, WT_BACKEND_CPU, t, swaps, 50, 7, &c);
        check_result(inst, &g, what);
        check_result(inst, &c, what);
        check_same(inst, &g, &c, what);
        if (g.ils.kicks != 50) fail_msg("%s: %" PRIu64 " kicks made", what, g.ils.kicks);
        check_locally_optimal(inst, &g, 0, what);
        wt_result_free(&g);
        wt_result_free(&c);
    }
    free(t);
    wt_instance_free(inst);
}

/* ILS with local descents on the cuda backend: the GPU's 2-opt descent from
 * the start tour, then the host's local kicks from its optimum.  The same
 * run must therefore equal the GPU's 2opt descent followed by a CPU ILS
 * with local descents started from that descent's tour. */
static void ils_local_run(const wt_instance *inst, wt_backend_kind backend, const int32_t *start,
                          wt_result *res)
{
    wt_params p;
    wt_params_defaults(&p);
    p.algorithm = WT_ALGO_ILS;
    p.backend = backend;
    p.ils_descent = WT_ILS_LOCAL;
    p.start_tour = start;
    p.kicks = 5000;
    p.seed = 9;
    p.threads = 2;
    p.tuning = &tuning;
    wt_error err = {0};
    if (wt_solve(inst, &p, res, &err) != WT_OK)
        fail_msg("%s ils, local descents: %s", wt_backend_name(backend), err.message);
}

static void test_ils_local_descents_after_gpu_descent(void **state)
{
    (void)state;
    wt_instance *inst = exact_instance(3000, false, 31);
    int32_t *t = init_tour(inst, WT_INIT_GREEDY);
    wt_result g, d, c;
    ils_local_run(inst, gpu_backend, t, &g);
    solve(inst, WT_ALGO_2OPT, gpu_backend, t, 0, 0, 1, &d);
    ils_local_run(inst, WT_BACKEND_CPU, d.tour, &c);
    check_result(inst, &g, "ils, local descents after the GPU's");
    check_result(inst, &c, "ils, local descents from the GPU's optimum");
    if (g.ils.descent != WT_ILS_LOCAL || g.ils.kicks != 5000)
        fail_msg("ils on %s: descent %s, %" PRIu64 " kicks", g.backend,
                 wt_ils_descent_name(g.ils.descent), g.ils.kicks);
    /* (As a stand-in the CPU backend makes its first optimum by the host's
     * neighbour-list descent, not by 2-opt passes: nothing more to compare.) */
    if (!gpu_is_cpu && (strcmp(g.backend, "cuda") != 0 || g.scan.passes != d.scan.passes))
        fail_msg("ran on %s with %" PRIu64 " passes (2opt: %" PRIu64 ")", g.backend, g.scan.passes,
                 d.scan.passes);
    if (!gpu_is_cpu && (g.length != c.length || memcmp(g.tour, c.tour, 3000 * sizeof *g.tour) != 0))
        fail_msg("ils after the GPU's descent: %" PRId64 ", from its optimum on the CPU: %" PRId64,
                 g.length, c.length);
    wt_result_free(&g);
    wt_result_free(&d);
    wt_result_free(&c);
    free(t);
    wt_instance_free(inst);
}

/* ------------------------------------- (e) large coordinates, other types */

static void check_valid_descent(wt_instance *inst, int swaps, uint64_t seed)
{
    int n = wt_instance_n(inst);
    int32_t *t = random_tour(n, seed);
    wt_result g;
    char what[64];
    snprintf(what, sizeof what, "2opt descent with swaps %d", swaps);
    solve(inst, WT_ALGO_2OPT, gpu_backend, t, swaps, 0, 1, &g);
    check_result(inst, &g, what);
    check_locally_optimal(inst, &g, GPU_FLOAT_TOL, what);
    wt_result_free(&g);
    free(t);
}

static void test_large_coordinates(void **state)
{
    (void)state;
    for (int k = 0; k < 3; k++) {
        /* Generated uniform: coordinates up to 1e6, distances up to 1.4e6. */
        wt_instance *inst = wt_test_random_instance(k == 2 ? 3000 : 700, 30 + (uint64_t)k);
        check_valid_descent(inst, k == 1 ? 1 : 0, 40 + (uint64_t)k);
        wt_instance_free(inst);
    }
    wt_instance *clustered = NULL;
    assert_int_equal(wt_instance_generate(WT_GEN_CLUSTERED, 1500, 5, &clustered, NULL), WT_OK);
    check_valid_descent(clustered, 0, 50);
    wt_instance_free(clustered);
}

/* ------------------------------------------------------ (f) one million */

static void test_million_cities(void **state)
{
    (void)state;
    if (gpu_is_cpu) {
        print_message("1M-city case skipped: the GPU side runs on the CPU\n");
        return;
    }
    int n = 1000000;
    wt_instance *inst = wt_test_random_instance(n, 60);
    double t0 = now_s();
    int32_t *t = init_tour(inst, WT_INIT_GREEDY);
    double t_init = now_s() - t0;
    wt_result g;
    wt_error err = {0};
    wt_status st = run_solve(inst, WT_ALGO_2OPT, gpu_backend, t, 0, 0, 1, MILLION_LIMIT_S, &g,
                             &err);
    if (st != WT_OK) fail_msg("1M-city descent: %s", err.message);
    uint64_t passes = g.scan.passes;
    print_message("    1M cities: greedy %.2f s, length %" PRId64 "; descent %.2f s, %" PRIu64
                  " passes, %" PRIu64 " moves applied, length %" PRId64 " (%.2f%% shorter), "
                  "%.3g checks/s\n", t_init, g.init_length, g.search_time_s, passes, g.steps,
                  g.length, 100.0 * (double)(g.init_length - g.length) / (double)g.init_length,
                  (double)(passes * wt_2opt_moves_per_scan(n)) / g.search_time_s);
    check_result(inst, &g, "1M-city descent from greedy");
    if (g.length >= g.init_length) fail_msg("1M-city descent did not shorten the greedy tour");
    wt_result_free(&g);
    free(t);
    wt_instance_free(inst);
}

/* ---------------------------------------------------------- (g) determinism */

static void test_same_seed_same_tour(void **state)
{
    (void)state;
    wt_instance *inst = wt_test_random_instance(1500, 70);
    int32_t *t = init_tour(inst, WT_INIT_GREEDY);
    wt_result a, b;
    solve(inst, WT_ALGO_ILS, gpu_backend, t, 0, 40, 3, &a);
    solve(inst, WT_ALGO_ILS, gpu_backend, t, 0, 40, 3, &b);
    check_result(inst, &a, "ils twice (first)");
    check_result(inst, &b, "ils twice (second)");
    for (int i = 0; i < wt_instance_n(inst); i++)
        if (a.tour[i] != b.tour[i])
            fail_msg("same seed twice: tours differ at position %d (lengths %" PRId64
                     " and %" PRId64 ")", i, a.length, b.length);
    if (a.steps != b.steps || a.ils.kicks_accepted != b.ils.kicks_accepted)
        fail_msg("same seed twice: %" PRIu64 "/%" PRIu64 " steps, %" PRIu64 "/%" PRIu64
                 " kicks kept", a.steps, b.steps, a.ils.kicks_accepted, b.ils.kicks_accepted);
    wt_result_free(&a);
    wt_result_free(&b);
    free(t);
    wt_instance_free(inst);
}

/* ------------------------------------------------ (h) the pruned pass */

/* A 2-opt local optimum of inst from the greedy tour, by the CPU. */
static int32_t *optimal_tour(const wt_instance *inst)
{
    int32_t *t = init_tour(inst, WT_INIT_GREEDY);
    wt_result r;
    wt_error err = {0};
    if (run_solve(inst, WT_ALGO_2OPT, WT_BACKEND_CPU, t, 0, 0, 1, SOLVE_LIMIT_S, &r, &err) != WT_OK)
        fail_msg("CPU descent on %s: %s", wt_instance_name(inst), err.message);
    memcpy(t, r.tour, (size_t)r.n * sizeof *t);
    wt_result_free(&r);
    return t;
}

/* The tour after a double bridge at its quarters. */
static void kick_tour(int32_t *t, int n)
{
    int32_t *buf = malloc((size_t)n * sizeof *buf);
    assert_non_null(buf);
    memcpy(buf, t, (size_t)n * sizeof *t);
    int k = n / 4;
    for (int i = n / 2; i < 3 * n / 4; i++) t[k++] = buf[i];
    for (int i = n / 4; i < n / 2; i++) t[k++] = buf[i];
    free(buf);
}

/* One pass with band: the pruned GPU pass's candidates against `want`
 * (count nw), entry for entry; returns the share of pairs it checked. */
static double compare_pruned(const wt_instance *inst, const int32_t *t, int band,
                             const wt_kswap_move *want, int nw, const char *what)
{
    int n = wt_instance_n(inst), ng = 0;
    wt_kswap_move *g = malloc(2 * (size_t)n * sizeof *g);
    assert_non_null(g);
    wt_error err = {0};
    uint64_t checked = 0;
    if (gpu_is_cpu) {
        wt_2opt_scan scan = {.threads = 1, .band = band, .prune = true};
        ng = wt_2opt_scan_candidates(inst, t, &scan, g);
        checked = scan.checked;
    } else if (gpu_scan(inst, t, band, true, g, &ng, NULL, &checked, &err) != WT_OK) {
        fail_msg("pruned GPU pass on %s: %s", wt_instance_name(inst), err.message);
    }
    int k = 0;
    while (k < ng && k < nw && g[k].delta == want[k].delta && g[k].i == want[k].i &&
           g[k].j == want[k].j)
        k++;
    if (ng != nw || k < nw)
        fail_msg("pruned pass, band %d, on %s (%s): %d candidates, want %d; first difference at "
                 "entry %d: got (i %d, j %d, delta %" PRId64 ") want (i %d, j %d, delta %" PRId64
                 ")", band, wt_instance_name(inst), what, ng, nw, k, k < ng ? g[k].i : -1,
                 k < ng ? g[k].j : -1, k < ng ? g[k].delta : 0, k < nw ? want[k].i : -1,
                 k < nw ? want[k].j : -1, k < nw ? want[k].delta : 0);
    free(g);
    return (double)checked / (double)wt_2opt_moves_per_scan(n);
}

/* Where float is exact: the pruned GPU pass gives the CPU's candidates, on
 * every metric with the bound, on random, greedy, locally optimal and
 * kicked tours, at sizes straddling the tiles, row blocks (8 and 16 rows
 * a lane) and slot widths. */
static void test_pruned_pass_matches_cpu(void **state)
{
    (void)state;
    static const int sizes[] = {5, 33, 257, 1000, 4097, 20000, 60000};
    static const wt_edge_weight_type types[] = {WT_EUC_2D, WT_CEIL_2D, WT_ATT, WT_MAN_2D,
                                                WT_MAX_2D};
    static const char *const kinds[] = {"random", "greedy", "2-opt optimum", "kicked optimum"};
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
        for (size_t ty = 0; ty < sizeof types / sizeof types[0]; ty++) {
            int n = sizes[s];
            if (n >= 20000 && ty > 1) continue; /* the large sizes on two metrics */
            wt_instance *inst = typed_instance(n, s % 2 == 1, 90 + s, types[ty]);
            int32_t *opt = n >= 8 ? optimal_tour(inst) : NULL;
            wt_kswap_move *want = malloc(2 * (size_t)n * sizeof *want);
            assert_non_null(want);
            for (int kind = 0; kind < 4; kind++) {
                int32_t *t = kind == 0 ? random_tour(n, 300 + s) : NULL;
                if (kind > 0 && !opt) continue;
                if (kind == 1) t = init_tour(inst, WT_INIT_GREEDY);
                if (kind >= 2) {
                    t = malloc((size_t)n * sizeof *t);
                    assert_non_null(t);
                    memcpy(t, opt, (size_t)n * sizeof *t);
                    if (kind == 3) kick_tour(t, n);
                }
                for (int band = 0; band <= 64; band += 64) {
                    /* the oracle: the CPU's full scan; above 10,000 cities its pruned
                     * one, which test_segment_bound checks against the full one */
                    wt_2opt_scan scan = {.threads = omp_get_max_threads(), .band = band,
                                         .prune = n > 10000};
                    int nw = wt_2opt_scan_candidates(inst, t, &scan, want);
                    double share = compare_pruned(inst, t, band, want, nw, kinds[kind]);
                    if (band == 0 && n >= 20000)
                        print_message("    %s: %s tour, %.3g%% of the pairs checked\n",
                                      wt_instance_name(inst), kinds[kind], 100.0 * share);
                }
                free(t);
            }
            free(want);
            free(opt);
            wt_instance_free(inst);
        }
}

/* Row bests of two passes where float is not exact: a row's moves may
 * differ by the rounding of a distance that ends in exactly .5 (the
 * integer loop rounds it to even at its chain's offset), so a row found by
 * one pass only must be within the float tolerance, and a row found by
 * both must have deltas within it.  Every candidate's delta must be its
 * move's exact delta. */
static void compare_rows_within_tolerance(const wt_instance *inst, const int32_t *t,
                                          const wt_kswap_move *a, int na, const wt_kswap_move *b,
                                          int nb)
{
    int n = wt_instance_n(inst);
    for (int k = 0; k < na + nb; k++) {
        const wt_kswap_move *m = k < na ? &a[k] : &b[k - na];
        int64_t exact = wt_2opt_move_delta(inst, t, m->i, m->j);
        if (m->delta != exact || exact >= 0)
            fail_msg("%s pass on %s: candidate (i %d, j %d) says delta %" PRId64 ", exact %" PRId64,
                     k < na ? "full" : "pruned", wt_instance_name(inst), m->i, m->j, m->delta,
                     exact);
    }
    int64_t *da = calloc((size_t)n, sizeof *da), *db = calloc((size_t)n, sizeof *db);
    assert_non_null(da);
    assert_non_null(db);
    for (int k = 0; k < na; k++) da[a[k].i] = a[k].delta;
    for (int k = 0; k < nb; k++) db[b[k].i] = b[k].delta;
    for (int i = 0; i < n; i++) {
        int64_t diff = da[i] > db[i] ? da[i] - db[i] : db[i] - da[i];
        if (diff > GPU_FLOAT_TOL)
            fail_msg("row %d of %s: full pass delta %" PRId64 ", pruned %" PRId64 " (0: none)",
                     i, wt_instance_name(inst), da[i], db[i]);
    }
    free(da);
    free(db);
}

/* Where float is not exact (coordinates up to 1e6): the pruned GPU pass
 * against the full one, bit for bit with the float loop, within the float
 * tolerance with the integer loop; and few pairs checked on good tours. */
static void test_pruned_pass_matches_full_pass(void **state)
{
    (void)state;
    if (gpu_is_cpu) {
        print_message("skipped: the GPU side runs on the CPU\n");
        return;
    }
    static const int sizes[] = {3000, 49999, 200000};
    for (int loop = 0; loop < 2; loop++) {
        tuning.pass_float_loop = loop == 0;
        for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
            int n = sizes[s];
            wt_instance *inst = wt_test_random_instance(n, 80 + (uint64_t)s);
            int32_t *t = init_tour(inst, WT_INIT_GREEDY);
            wt_kswap_move *want = malloc(2 * (size_t)n * sizeof *want);
            wt_kswap_move *g = malloc(2 * (size_t)n * sizeof *g);
            assert_non_null(want);
            assert_non_null(g);
            for (int round = 0; round < 2; round++) {
                const char *what = round ? "kicked greedy" : "greedy";
                if (round == 1) kick_tour(t, n);
                int nw = 0, ng = 0;
                double full_s = 0, pruned_s = 0;
                uint64_t checked = 0;
                wt_error err = {0};
                if (gpu_scan(inst, t, 0, false, want, &nw, &full_s, NULL, &err) != WT_OK)
                    fail_msg("full GPU pass on %s: %s", wt_instance_name(inst), err.message);
                if (gpu_scan(inst, t, 0, true, g, &ng, &pruned_s, &checked, &err) != WT_OK)
                    fail_msg("pruned GPU pass on %s: %s", wt_instance_name(inst), err.message);
                if (loop == 0) compare_pruned(inst, t, 0, want, nw, what);
                else compare_rows_within_tolerance(inst, t, want, nw, g, ng);
                double share = (double)checked / (double)wt_2opt_moves_per_scan(n);
                print_message("    %s loop, n=%d %s: full pass %.3f ms, pruned %.3f ms, %.3g%% of "
                              "the pairs checked\n", loop ? "integer" : "float", n, what,
                              full_s * 1e3, pruned_s * 1e3, 100.0 * share);
                if (n >= 49999 && share > 0.25)
                    fail_msg("pruned pass on %s checked %.3g%% of the pairs",
                             wt_instance_name(inst), 100.0 * share);
            }
            free(g);
            free(want);
            free(t);
            wt_instance_free(inst);
        }
    }
}

/* Descents with every pair checked, and pruned at every size: the same
 * tours on both backends. */
static void test_descent_prune_modes(void **state)
{
    (void)state;
    static const int sizes[] = {200, 3000};
    for (int mode = 0; mode < 2; mode++) {
        solve_prune = mode == 1;
        for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
            wt_instance *inst = exact_instance(sizes[s], false, 110 + s);
            int32_t *t = init_tour(inst, WT_INIT_GREEDY);
            compare_descent(inst, t, 0);
            compare_descent(inst, t, 1);
            free(t);
            wt_instance_free(inst);
        }
    }
    solve_prune = true;
}

/* ---------------------------------------------------------------- main */

int main(void)
{
    int skip = gpu_test_begin(&gpu_is_cpu);
    if (skip) return skip;
    if (gpu_is_cpu) gpu_backend = WT_BACKEND_CPU;
    const struct CMUnitTest tests[] = {
        SESSION_TEST(test_pass_row_bests),
        SESSION_TEST(test_pass_row_bests_r16),
        SESSION_TEST(test_pass_row_bests_loops),
        SESSION_TEST(test_descent_swaps1_matches_cpu),
        SESSION_TEST(test_descent_kswap),
        SESSION_TEST(test_pass_band_candidates),
        SESSION_TEST(test_descent_kswap_options),
        SESSION_TEST(test_ils_matches_cpu),
        SESSION_TEST(test_ils_local_descents_after_gpu_descent),
        SESSION_TEST(test_large_coordinates),
        SESSION_TEST(test_same_seed_same_tour),
        SESSION_TEST(test_million_cities),
        SESSION_TEST(test_pruned_pass_matches_cpu),
        SESSION_TEST(test_pruned_pass_matches_full_pass),
        SESSION_TEST(test_descent_prune_modes),
    };
    gpu_test_filters();
    return cmocka_run_group_tests(tests, NULL, NULL);
}
