/*
 * test_gpu_multistart.c - the CUDA multistart against the CPU reference.
 *
 * The CPU backend is the oracle (as ggml's test-backend-ops checks every
 * backend against the CPU): both backends climb from the same start tours
 * (wt_climb_start_tour(seed, r)) by the same rule (best improvement, ties to
 * the lowest (i, j)), so where float arithmetic computes every distance
 * exactly they must end in the same tour, move for move.  Elsewhere the GPU
 * tour must be valid and 2-optimal up to the float tolerance, with its exact
 * length reported (great-circle instances too).  Also: many climbs, the
 * climber-per-thread kernel, a GPU out of memory, and determinism.
 *
 * Built only with the CUDA backend (WT_HAVE_CUDA), labelled "gpu"; exits 77
 * (skipped) when no GPU is usable, as on CI.  WT_TEST_GPU_AS_CPU=1 runs the
 * "GPU" side on the CPU backend instead, to check the tests themselves on a
 * machine without a GPU (the out-of-memory case is then skipped).
 */
#include "gpu_test.h"
#include "parity.h"

#include <inttypes.h>
#include <time.h>

#include <cuda_runtime_api.h>

#include "algo/bench_hooks.h"
#include "warptour_experimental.h"
#include "backend/cpu/cpu_2opt.h"

/* Tolerance, in exact TSPLIB units, of the local-optimality check on
 * instances whose distances float arithmetic does not compute exactly.  The
 * GPU rounds each distance from float arithmetic, which may land one unit
 * away from the exact (double) TSPLIB distance; a move's delta adds four
 * distances, so a tour the GPU sees as 2-optimal may still hold an exact
 * improving move of at most 4. */
#define GPU_FLOAT_TOL 4

/* Time limits of each search, so that a climb that never ends (a kernel that
 * keeps applying moves) fails its test in seconds instead of hanging the
 * suite: every GPU search here takes well under a second on an H100, the
 * single-threaded CPU climbs of 1000 cities a few seconds. */
#define GPU_SOLVE_LIMIT_S 20.0
#define CPU_SOLVE_LIMIT_S 300.0

static wt_backend_kind gpu_backend = WT_BACKEND_CUDA;
static bool gpu_is_cpu; /* WT_TEST_GPU_AS_CPU: the "GPU" side runs on the CPU */

/* ------------------------------------------------------------ helpers */

static wt_instance *from_coords(const char *name, int n, const double *x, const double *y)
{
    wt_instance *inst = NULL;
    wt_error err = {0};
    if (wt_instance_from_coords(name, n, WT_EUC_2D, x, y, NULL, &inst, &err) != WT_OK)
        fail_msg("from_coords: %s", err.message);
    return inst;
}

/* Exact instances: integer coordinates below 400, so dx*dx + dy*dy is exact
 * in float and sqrtf rounds to the same TSPLIB integer as double does. */
enum exact_kind { UNIFORM400, GRID, SPARSE };

static const char *exact_name(enum exact_kind k)
{
    return k == UNIFORM400 ? "uniform400" : k == GRID ? "grid" : "sparse";
}

/* UNIFORM400: uniform integer points in [0, 400)^2.  GRID: a unit grid
 * (straight and diagonal neighbours are both 1 apart: many ties).  SPARSE:
 * all cities on one point but every 256th, which sit on a coarse grid: a
 * large n whose climbs take few steps, and equal deltas everywhere. */
static wt_instance *exact_instance(enum exact_kind kind, int n, uint64_t seed)
{
    double *x = malloc((size_t)n * sizeof *x), *y = malloc((size_t)n * sizeof *y);
    assert_non_null(x);
    assert_non_null(y);
    uint64_t s = seed * 7919 + (uint64_t)n;
    int w = 1;
    while (w * w < n) w++;
    for (int i = 0; i < n; i++) {
        if (kind == UNIFORM400) {
            x[i] = (double)(parity_rng_next(&s) % 400);
            y[i] = (double)(parity_rng_next(&s) % 400);
        } else if (kind == GRID) {
            x[i] = i % w;
            y[i] = i / w;
        } else if (i % 256 == 0) {
            x[i] = (i / 256) % 4 * 97;
            y[i] = (i / 256) / 4 * 89;
        } else {
            x[i] = 200;
            y[i] = 150;
        }
    }
    char name[64];
    snprintf(name, sizeof name, "%s-%d", exact_name(kind), n);
    wt_instance *inst = from_coords(name, n, x, y);
    free(x);
    free(y);
    return inst;
}

/* The tuning of the runs below: the library's (zero) but where a test
 * forces the block kernel's shape or scan; MS_TEST resets it before each
 * test. */
static wt_tuning tuning;

static int reset_tuning(void **state)
{
    tuning = (wt_tuning){0};
    return gpu_test_timer_start(state);
}

#define MS_TEST(f) cmocka_unit_test_setup_teardown(f, reset_tuning, gpu_test_timer_stop)

static wt_status try_multistart(const wt_instance *inst, wt_backend_kind backend,
                                wt_multistart_kernel kernel, uint64_t restarts, uint64_t seed,
                                wt_result *res, wt_error *err)
{
    wt_params p;
    wt_params_defaults(&p);
    p.tuning = &tuning;
    p.algorithm = WT_ALGO_MULTISTART;
    p.backend = backend;
    p.restarts = restarts;
    p.seed = seed;
    p.time_limit_s = backend == WT_BACKEND_CPU && !gpu_is_cpu ? CPU_SOLVE_LIMIT_S
                                                              : GPU_SOLVE_LIMIT_S;
    return wt_solve_ms_kernel(inst, &p, kernel, res, err);
}

static void multistart(const wt_instance *inst, wt_backend_kind backend,
                       wt_multistart_kernel kernel, uint64_t restarts, uint64_t seed,
                       wt_result *res)
{
    wt_error err = {0};
    if (try_multistart(inst, backend, kernel, restarts, seed, res, &err) != WT_OK)
        fail_msg("%s multistart on %s (%" PRIu64 " climbs, seed %" PRIu64 "): %s",
                 wt_backend_name(backend), wt_instance_name(inst), restarts, seed, err.message);
}

/* A result's own consistency (parity.h: finished, valid, its exact length
 * the one reported), and every climb asked for completed. */
static void check_result(const wt_instance *inst, const wt_result *r, uint64_t restarts)
{
    parity_check_result(inst, r, "multistart");
    if (r->multistart.climbs != restarts || r->multistart.best_climb >= restarts)
        fail_msg("%s: %" PRIu64 " climbs done (best %" PRIu64 "), %" PRIu64 " asked",
                 wt_instance_name(inst), r->multistart.climbs, r->multistart.best_climb, restarts);
}

static void check_locally_optimal(const wt_instance *inst, const wt_result *r, int64_t tol)
{
    parity_check_locally_optimal(inst, r->tour, tol, "multistart");
}

/* GPU and CPU results must agree exactly: tour, length, climb, counters. */
static void check_same(const wt_instance *inst, const wt_result *gpu, const wt_result *cpu,
                       const char *what)
{
    parity_check_same(inst, gpu, cpu, PARITY_CLIMB | PARITY_STEPS | PARITY_MOVES, what);
}

/* Runs `restarts` climbs on both backends and requires the same answer. */
static void compare_backends(const wt_instance *inst, wt_multistart_kernel kernel,
                             uint64_t restarts, uint64_t seed)
{
    wt_result g, c;
    multistart(inst, gpu_backend, kernel, restarts, seed, &g);
    multistart(inst, WT_BACKEND_CPU, WT_MS_KERNEL_BLOCK, restarts, seed, &c);
    check_result(inst, &g, restarts);
    check_result(inst, &c, restarts);
    char what[96];
    snprintf(what, sizeof what, "%s kernel, %" PRIu64 " climbs, seed %" PRIu64,
             kernel == WT_MS_KERNEL_THREAD ? "thread" : "block", restarts, seed);
    check_same(inst, &g, &c, what);
    check_locally_optimal(inst, &g, 0);
    wt_result_free(&g);
    wt_result_free(&c);
}

/* ------------------------------------------- exact instances: same tours */

static void test_single_climb_matches_cpu(void **state)
{
    (void)state;
    static const int sizes[] = {5, 31, 32, 33, 100, 1000};
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        int n = sizes[s];
        /* One climb of 1000 cities is ~6e8 moves on one CPU thread: 2 seeds. */
        uint64_t seeds = n >= 1000 ? 2 : 4;
        for (uint64_t seed = 1; seed <= seeds; seed++) {
            wt_instance *u = exact_instance(UNIFORM400, n, seed);
            compare_backends(u, WT_MS_KERNEL_BLOCK, 1, seed);
            wt_instance_free(u);
        }
        wt_instance *g = exact_instance(GRID, n, 0);
        for (uint64_t seed = 1; seed <= seeds; seed++)
            compare_backends(g, WT_MS_KERNEL_BLOCK, 1, seed * 11);
        wt_instance_free(g);
    }
}

/* 350 - 999 cities: the rectangle's tiles in rounds of 32 (one round at 500,
 * whose last row group shares a lane with the one before), where the grid
 * gives ties across a lane's tiles. */
static void test_rounds_of_tiles_match_cpu(void **state)
{
    (void)state;
    static const int sizes[] = {350, 400, 500, 733, 999};
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        int n = sizes[s];
        wt_instance *u = exact_instance(UNIFORM400, n, (uint64_t)n);
        compare_backends(u, WT_MS_KERNEL_BLOCK, 1, 3);
        wt_instance_free(u);
        wt_instance *g = exact_instance(GRID, n, 0);
        compare_backends(g, WT_MS_KERNEL_BLOCK, 1, 7);
        wt_instance_free(g);
    }
}

/* Every shape of the block kernel (wt_tuning.ms_block x ms_tc, squares)
 * and every forced scan of one-warp climbers (squares, the rectangle in
 * one round or several, each tile width): the same climbs as the CPU's. */
static void test_every_shape_and_scan_matches_cpu(void **state)
{
    (void)state;
    static const int shapes[][2] = {{32, 8},   {32, 16},  {64, 4},  {64, 8},  {128, 8},
                                    {128, 16}, {256, 8}, {256, 16}, {512, 16}};
    static const int sizes[] = {100, 600};
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        wt_instance *u = exact_instance(UNIFORM400, sizes[s], 5 + s);
        for (size_t k = 0; k < sizeof shapes / sizeof shapes[0]; k++) {
            tuning = (wt_tuning){.ms_block = shapes[k][0], .ms_tc = shapes[k][1]};
            compare_backends(u, WT_MS_KERNEL_BLOCK, 1, 3 + k);
        }
        static const wt_ms_scan scans[] = {WT_MS_SCAN_SQUARES, WT_MS_SCAN_GAPS,
                                           WT_MS_SCAN_ROUNDS};
        static const int widths[] = {0, 7, 8, 10};
        for (size_t c = 0; c < sizeof scans / sizeof scans[0]; c++)
            for (size_t w = 0; w < sizeof widths / sizeof widths[0]; w++) {
                tuning = (wt_tuning){.ms_scan = scans[c], .ms_gap_c = widths[w]};
                compare_backends(u, WT_MS_KERNEL_BLOCK, 1, 20 + 4 * c + w);
            }
        wt_instance_free(u);
    }
}

/* Beyond 4096 cities (tiles, shared memory limits), on the cheap SPARSE kind. */
static void test_single_climb_matches_cpu_large(void **state)
{
    (void)state;
    wt_instance *inst = exact_instance(SPARSE, 4097, 0);
    for (uint64_t seed = 1; seed <= 2; seed++) compare_backends(inst, WT_MS_KERNEL_BLOCK, 1, seed);
    wt_instance_free(inst);
}

static void test_twenty_climbs_match_cpu(void **state)
{
    (void)state;
    for (uint64_t seed = 1; seed <= 3; seed++) {
        wt_instance *u = exact_instance(UNIFORM400, 100 + 50 * (int)seed, seed);
        compare_backends(u, WT_MS_KERNEL_BLOCK, 20, seed);
        wt_instance_free(u);
    }
    wt_instance *g = exact_instance(GRID, 100, 0);
    compare_backends(g, WT_MS_KERNEL_BLOCK, 20, 5);
    wt_instance_free(g);
    wt_instance *g33 = exact_instance(GRID, 33, 0);
    compare_backends(g33, WT_MS_KERNEL_BLOCK, 20, 6);
    wt_instance_free(g33);
}

static void test_thread_kernel_matches_cpu(void **state)
{
    (void)state;
    static const int sizes[] = {5, 33, 100, 200};
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
        for (uint64_t seed = 1; seed <= 2; seed++) {
            wt_instance *u = exact_instance(UNIFORM400, sizes[s], seed);
            compare_backends(u, WT_MS_KERNEL_THREAD, 1, seed);
            compare_backends(u, WT_MS_KERNEL_THREAD, 20, seed);
            wt_instance_free(u);
        }
    wt_instance *g = exact_instance(GRID, 100, 0);
    compare_backends(g, WT_MS_KERNEL_THREAD, 20, 3);
    wt_instance_free(g);
}

static void test_many_climbs(void **state)
{
    (void)state;
    wt_instance *inst = exact_instance(UNIFORM400, 100, 9);
    wt_result g, c;
    multistart(inst, gpu_backend, WT_MS_KERNEL_BLOCK, 2000, 4, &g);
    check_result(inst, &g, 2000);
    check_locally_optimal(inst, &g, 0);
    multistart(inst, WT_BACKEND_CPU, WT_MS_KERNEL_BLOCK, 2000, 4, &c);
    check_same(inst, &g, &c, "2000 climbs");
    wt_result_free(&g);
    wt_result_free(&c);
    wt_instance_free(inst);
}

/* ---------------------------------- other distances: valid and 2-optimal */

/* Appends printf-style text to a growing buffer. */
typedef struct text {
    char *s;
    size_t len, cap;
} text;

static void put(text *t, const char *fmt, ...)
{
    va_list ap;
    for (;;) {
        va_start(ap, fmt);
        int k = vsnprintf(t->s + t->len, t->cap - t->len, fmt, ap);
        va_end(ap);
        if (k >= 0 && t->len + (size_t)k < t->cap) {
            t->len += (size_t)k;
            return;
        }
        t->cap = t->cap ? 2 * t->cap : 4096;
        t->s = realloc(t->s, t->cap);
        assert_non_null(t->s);
    }
}

/* A TSPLIB text of n random cities of the given type (coordinates with
 * decimals, around `base`), or of a random symmetric matrix for EXPLICIT. */
static wt_instance *random_tsplib(const char *type, int n, double base, double span,
                                  uint64_t seed)
{
    text t = {0};
    put(&t, "NAME: rand-%s-%d\nTYPE: TSP\nDIMENSION: %d\nEDGE_WEIGHT_TYPE: %s\n", type, n, n,
        type);
    uint64_t s = seed;
    if (strcmp(type, "EXPLICIT") == 0) {
        put(&t, "EDGE_WEIGHT_FORMAT: UPPER_ROW\nEDGE_WEIGHT_SECTION\n");
        for (int i = 0; i < n; i++) {
            for (int j = i + 1; j < n; j++) put(&t, " %d", 1 + (int)(parity_rng_next(&s) % 1000));
            put(&t, "\n");
        }
    } else {
        put(&t, "NODE_COORD_SECTION\n");
        bool three = strcmp(type, "EUC_3D") == 0, geo = strcmp(type, "GEO") == 0;
        for (int i = 0; i < n; i++) {
            double c[3];
            for (int k = 0; k < 3; k++) {
                if (geo) { /* DDD.MM: degrees and minutes below 60 */
                    double deg = (double)(parity_rng_next(&s) % 120) - 60;
                    c[k] = deg + (deg < 0 ? -1 : 1) * (double)(parity_rng_next(&s) % 60) / 100;
                } else {
                    c[k] = base + span * (double)(parity_rng_next(&s) % 1000000) / 1e6;
                }
            }
            if (three) put(&t, "%d %.4f %.4f %.4f\n", i + 1, c[0], c[1], c[2]);
            else put(&t, "%d %.4f %.4f\n", i + 1, c[0], c[1]);
        }
    }
    put(&t, "EOF\n");
    wt_instance *inst = wt_test_parse(t.s);
    free(t.s);
    return inst;
}

static wt_instance *data_instance(const char *file)
{
    char *path = wt_test_path(wt_test_shipped_dir(), file);
    wt_instance *inst = NULL;
    wt_error err = {0};
    if (wt_instance_read_tsplib(path, &inst, &err) != WT_OK)
        fail_msg("%s: %s", path, err.message);
    free(path);
    return inst;
}

/* Our kernel on every distance type; the climber-per-thread baseline, which
 * exists for the benchmarks on d18512, on EUC_2D ones only, and small ones:
 * a single thread scanning 1000 cities climbs at a few hundred steps a
 * second. */
static void check_valid_and_optimal(wt_instance *inst, uint64_t restarts)
{
    int kernels = wt_instance_type(inst) == WT_EUC_2D && wt_instance_n(inst) <= 500 ? 2 : 1;
    for (uint64_t seed = 1; seed <= 2; seed++)
        for (int k = 0; k < kernels; k++) {
            wt_result g;
            multistart(inst, gpu_backend, k ? WT_MS_KERNEL_THREAD : WT_MS_KERNEL_BLOCK, restarts,
                       seed, &g);
            check_result(inst, &g, restarts);
            check_locally_optimal(inst, &g, GPU_FLOAT_TOL);
            wt_result_free(&g);
        }
    wt_instance_free(inst);
}

static void test_other_distances(void **state)
{
    (void)state;
    check_valid_and_optimal(data_instance("att48.tsp"), 30);     /* ATT */
    check_valid_and_optimal(data_instance("ulysses22.tsp"), 30); /* GEO */
    check_valid_and_optimal(random_tsplib("CEIL_2D", 150, 0, 5000, 1), 30);
    check_valid_and_optimal(random_tsplib("ATT", 150, 0, 9000, 2), 30);
    check_valid_and_optimal(random_tsplib("GEO", 100, 0, 0, 3), 30);
    check_valid_and_optimal(random_tsplib("EUC_3D", 120, 0, 3000, 4), 30);
    check_valid_and_optimal(random_tsplib("MAN_2D", 120, 0, 3000, 5), 30);
    check_valid_and_optimal(random_tsplib("MAX_2D", 120, 0, 3000, 6), 30);
    check_valid_and_optimal(random_tsplib("EXPLICIT", 60, 0, 0, 7), 30);
    /* Coordinates near 1e6 with decimals: float keeps ~0.06 of them. */
    check_valid_and_optimal(random_tsplib("EUC_2D", 300, 1e6, 20000, 8), 30);
    check_valid_and_optimal(random_tsplib("CEIL_2D", 300, 1e6, 20000, 9), 30);
    /* Generated instances: distances up to 1.4e6. */
    check_valid_and_optimal(wt_test_random_instance(1000, 10), 8);
    wt_instance *clustered = NULL;
    assert_int_equal(wt_instance_generate(WT_GEN_CLUSTERED, 500, 11, &clustered, NULL), WT_OK);
    check_valid_and_optimal(clustered, 16);
}

/* Great-circle instances (WT_HAVERSINE: metres, up to 2e7): the kernels
 * judge moves on float unit vectors, a few metres off at that scale, and
 * every applied move is checked in double, so the tours are valid with
 * exact lengths and 2-optimal within the float's error.  Points spread over
 * both hemispheres and across the date line, around the poles, and within
 * one city (short edges, where the float's error matters most). */
enum { HAVERSINE_TOL = 32 }; /* metres: four distances of a 2-opt move, float-judged */

static wt_instance *random_places(const char *name, int n, double lat0, double lat_span,
                                  double lon0, double lon_span, uint64_t seed)
{
    double *lat = malloc((size_t)n * sizeof *lat), *lon = malloc((size_t)n * sizeof *lon);
    assert_true(lat && lon);
    uint64_t s = seed;
    for (int i = 0; i < n; i++) {
        lat[i] = lat0 + lat_span * (double)(parity_rng_next(&s) % 1000000) / 1e6;
        lon[i] = lon0 + lon_span * (double)(parity_rng_next(&s) % 1000000) / 1e6;
    }
    wt_instance *inst = NULL;
    wt_error err = {0};
    if (wt_instance_from_coords(name, n, WT_HAVERSINE, lat, lon, NULL, &inst, &err) != WT_OK)
        fail_msg("%s: %s", name, err.message);
    free(lat);
    free(lon);
    return inst;
}

static void check_places(wt_instance *inst)
{
    for (uint64_t seed = 1; seed <= 2; seed++) {
        wt_result g;
        multistart(inst, gpu_backend, WT_MS_KERNEL_BLOCK, 30, seed, &g);
        check_result(inst, &g, 30);
        check_locally_optimal(inst, &g, HAVERSINE_TOL);
        wt_result_free(&g);
    }
    wt_instance_free(inst);
}

static void test_haversine(void **state)
{
    (void)state;
    check_places(random_places("world", 300, -80, 160, -180, 360, 21));
    check_places(random_places("date-line", 200, -40, 80, 160, 40, 22)); /* lon 160 .. 200 */
    check_places(random_places("north-pole", 150, 85, 5, -180, 360, 23));
    check_places(random_places("south-pole", 150, -90, 5, -180, 360, 24));
    check_places(random_places("one-city", 400, 48.80, 0.1, 2.25, 0.2, 25));
}

/* ---------------------------------------------------- determinism, memory */

static void test_same_seed_same_result(void **state)
{
    (void)state;
    wt_instance *inst = wt_test_random_instance(200, 12);
    for (int k = 0; k < 2; k++) {
        wt_multistart_kernel kernel = k ? WT_MS_KERNEL_THREAD : WT_MS_KERNEL_BLOCK;
        wt_result a, b;
        multistart(inst, gpu_backend, kernel, 300, 77, &a);
        multistart(inst, gpu_backend, kernel, 300, 77, &b);
        check_result(inst, &a, 300);
        check_result(inst, &b, 300);
        check_same(inst, &a, &b, k ? "thread kernel twice" : "block kernel twice");
        wt_result_free(&a);
        wt_result_free(&b);
    }
    wt_instance_free(inst);
}

enum { HOG_MAX = 4096 };
#define HOG_LEAVE (64u << 20) /* device bytes left free while the GPU is "full" */

/* Takes all but about HOG_LEAVE bytes of device memory; returns the count of
 * allocations made (in hog[]) and the bytes then free in *left. */
static int hog_device(void **hog, size_t *left)
{
    int k = 0;
    size_t chunk = (size_t)1 << 30;
    size_t free_b = 0, total_b = 0;
    while (k < HOG_MAX && chunk >= ((size_t)1 << 20)) {
        if (cudaMemGetInfo(&free_b, &total_b) != cudaSuccess) break;
        if (free_b <= HOG_LEAVE + chunk) {
            chunk /= 2;
            continue;
        }
        if (cudaMalloc(&hog[k], chunk) == cudaSuccess) k++;
        else chunk /= 2;
    }
    (void)cudaGetLastError(); /* failed cudaMalloc calls leave an error behind */
    *left = cudaMemGetInfo(&free_b, &total_b) == cudaSuccess ? free_b : (size_t)-1;
    return k;
}

/* A GPU out of memory must end in an error naming the failed allocation, not
 * in a wrong answer, and leave the GPU usable.  The device is filled first by
 * this test itself (cheaper and surer than an instance too large for it:
 * 150 million cities fit an 80 GB card), then a 10-million-city instance
 * (its coordinates alone take 240 MB on the device) is solved. */
static void test_out_of_memory(void **state)
{
    (void)state;
    if (gpu_is_cpu) {
        print_message("out-of-memory case skipped: the GPU side runs on the CPU\n");
        return;
    }
    wt_instance *big = wt_test_random_instance(10000000, 13);
    static void *hog[HOG_MAX];
    size_t left;
    int k = hog_device(hog, &left);
    wt_result res;
    wt_error err = {0};
    wt_status st = WT_OK;
    bool hogged = left <= 2 * (size_t)HOG_LEAVE;
    if (hogged) {
        wt_params p;
        wt_params_defaults(&p);
        p.algorithm = WT_ALGO_MULTISTART;
        p.backend = WT_BACKEND_CUDA;
        p.restarts = 1;
        p.time_limit_s = 20; /* a guard, should the run fit after all */
        st = wt_solve(big, &p, &res, &err);
        if (st == WT_OK) wt_result_free(&res);
    }
    for (int i = 0; i < k; i++) cudaFree(hog[i]);
    wt_instance_free(big);
    if (!hogged) {
        print_message("out-of-memory case skipped: %zu MB still free after filling the GPU\n",
                      left >> 20);
        return;
    }
    print_message("out of memory reported as: %s: %s\n", wt_status_str(st), err.message);
    if (st != WT_STATUS_DEVICE && st != WT_STATUS_OUT_OF_MEMORY)
        fail_msg("a full GPU gave status '%s' (%s)", wt_status_str(st), err.message);
    if (!strstr(err.message, "alloc") && !strstr(err.message, "memory"))
        fail_msg("the message does not name the failed allocation: %s", err.message);
    /* The GPU works again once memory is back: the failed cudaMalloc must not
     * linger as the runtime's "last error" and make the next call (its
     * availability probe, say) fail. */
    wt_instance *small = exact_instance(UNIFORM400, 100, 1);
    compare_backends(small, WT_MS_KERNEL_BLOCK, 20, 1);
    wt_instance_free(small);
}

int main(void)
{
    int skip = gpu_test_begin(&gpu_is_cpu);
    if (skip) return skip;
    if (gpu_is_cpu) gpu_backend = WT_BACKEND_CPU;
    const struct CMUnitTest tests[] = {
        MS_TEST(test_single_climb_matches_cpu),
        MS_TEST(test_single_climb_matches_cpu_large),
        MS_TEST(test_rounds_of_tiles_match_cpu),
        MS_TEST(test_every_shape_and_scan_matches_cpu),
        MS_TEST(test_twenty_climbs_match_cpu),
        MS_TEST(test_thread_kernel_matches_cpu),
        MS_TEST(test_many_climbs),
        MS_TEST(test_other_distances),
        MS_TEST(test_haversine),
        MS_TEST(test_same_seed_same_result),
        MS_TEST(test_out_of_memory),
    };
    gpu_test_filters();
    return cmocka_run_group_tests(tests, NULL, NULL);
}
