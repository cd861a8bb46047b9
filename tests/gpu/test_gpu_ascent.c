/*
 * test_gpu_ascent.c - the Held-Karp ascent on the GPU (the cuda backend's
 * ascent slot, backend/cuda/cuda_ascent.cu) against the host's (the cpu
 * backend's, the reference): for the same job and the same cap of steps,
 * every output equal bit for bit: the penalties, the graph's bound, the
 * proven bound, the candidate lists and the steps made.
 *
 * The graph is the one the LKH-class search builds (algo/alpha.c): 10
 * quadrant neighbours a city (the nearest for a matrix) and a spare column
 * that chains the components, if several.  Instances: the shipped TSPLIB
 * ones of every metric (EUC_2D, ATT, GEO, CEIL_2D, EXPLICIT), 20,000
 * uniform cities, clustered ones, and points with many duplicates (equal
 * lengths everywhere: the ties).  Also: a deadline already passed returns
 * at once with the start penalties and their lists; a stop flag set
 * before the call gives job.stopped.  The GPU's two ways of computing a
 * tree (cuda_ascent.h, wt_cuda_ascent_tuning): the default, one cooperative
 * kernel a tree, everywhere above; a launch a phase (the path of a device
 * without cooperative launch) and the cooperative kernel on a small grid
 * (one block an SM: every thread loops over several cities and edges),
 * and the device's step rule with a few steps a launch, compared the same
 * way on a few instances.  The finish (the last tree, alpha-values, lists
 * and bounds under the best pi): on the GPU (the default) everywhere
 * above, and on the host (wt_cuda_ascent_tuning.finish_on_gpu false, the
 * fallback) beside it on 100, 5,000 and 100,000 uniform cities.  The
 * graph's edges: built on the GPU (the default) everywhere above, and on
 * the host (graph_on_gpu false) beside it; rows with repeats, the row's
 * own city and garbage after its end; a bad row's error, as the host's.
 * With two GPUs, the steps split over both (wt_ascent_job.split_with, at
 * any size), with the rounds on the whole graph and on lists, equal to
 * the host's on 1,002 to 200,000 cities.
 *
 * Skipped (exit 77) without a usable GPU; WT_TEST_GPU_AS_CPU=1 runs the
 * "GPU" side on the CPU to check the test's own logic.
 */
#include "gpu_test.h"
#include "gpu_hog.h"

#include <math.h>

#include "algo/alpha.h"
#include "backend/backend.h"
#include "backend/cuda/cuda_ascent.h"
#include "core/neighbours.h"
#include "core/search_ctl.h"

enum { GRAPH_K = 10, CAND_K = 6 };

static bool gpu_is_cpu;
static const wt_device *split_with; /* test_split_steps: the jobs' second GPU */

static const wt_backend *backend_for(bool gpu)
{
    return wt_backend_of(gpu && !gpu_is_cpu ? WT_BACKEND_CUDA : WT_BACKEND_CPU);
}

static int find_root(int32_t *parent, int c)
{
    while (parent[c] != c) {
        parent[c] = parent[parent[c]];
        c = parent[c];
    }
    return c;
}

/* alpha.c's graph: k quadrant neighbours, then a spare column that chains
 * each component's lowest city to the next's. */
static int32_t *ascent_graph(const wt_instance *inst, int k)
{
    int n = wt_instance_n(inst), width = k + 1;
    int32_t *lists = malloc((size_t)n * (size_t)k * sizeof *lists);
    int32_t *graph = malloc((size_t)n * (size_t)width * sizeof *graph);
    bool stopped = false;
    wt_error err = {0};
    if (wt_quadrant_lists_until(inst, k, 2, NULL, lists, &stopped, &err) != WT_OK)
        fail_msg("quadrant lists: %s", err.message);
    for (size_t c = 0; c < (size_t)n; c++) {
        for (size_t j = 0; j < (size_t)k; j++) graph[c * width + j] = lists[c * k + j];
        graph[c * width + (size_t)k] = -1;
    }
    int32_t *parent = lists;
    for (int c = 0; c < n; c++) parent[c] = c;
    for (int c = 0; c < n; c++)
        for (int j = 0; j < k; j++) {
            int d = graph[(size_t)c * width + (size_t)j];
            if (d < 0) break;
            int a = find_root(parent, c), b = find_root(parent, d);
            if (a != b) parent[a > b ? a : b] = a < b ? a : b;
        }
    int prev = -1;
    for (int c = 0; c < n; c++) {
        if (find_root(parent, c) != c) continue;
        if (prev >= 0) graph[(size_t)prev * width + (size_t)k] = c;
        prev = c;
    }
    free(lists);
    return graph;
}

typedef struct run {
    wt_ascent_job job;
    wt_status status;
    double seconds;
} run;

/* r->job, prepared, on the GPU (gpu) or the host: r->status and seconds;
 * stop: a stop flag set before; tuning: the GPU's (NULL: the backend's
 * slot, its defaults). */
static void run_job(run *r, const wt_instance *inst, bool stop, bool gpu,
                    const wt_cuda_ascent_tuning *tuning)
{
    wt_params p;
    wt_params_defaults(&p);
    volatile int flag = stop ? 1 : 0;
    p.stop_flag = &flag;
    wt_search_ctl ctl;
    wt_ctl_init(&ctl, &p);
    const wt_backend *b = backend_for(gpu);
    wt_device dev;
    wt_device_of(b, 0, &dev);
    wt_error err = {0};
    if (gpu) r->job.split_with = split_with;
    double t0 = now_s();
    if (gpu && !gpu_is_cpu && tuning)
        r->status = wt_cuda_ascent_tuned(&dev, inst, &r->job, &ctl, tuning, &err);
    else
        r->status = b->ascent(&dev, inst, &r->job, &ctl, &err);
    r->seconds = now_s() - t0;
    if (r->status != WT_OK)
        print_message("    %s ascent: %s\n", gpu ? "GPU" : "host", err.message);
}

/* One ascent on the test's graph from a start pi that is not all 0. */
static run ascend_tuned(const wt_instance *inst, const int32_t *graph, int iterations,
                        double until, bool stop, bool gpu, const wt_cuda_ascent_tuning *tuning)
{
    int n = wt_instance_n(inst);
    run r = {0};
    r.job = (wt_ascent_job){.graph = graph, .graph_k = GRAPH_K + 1, .iterations = iterations,
                            .until = until, .pi = calloc((size_t)n, sizeof(int32_t)),
                            .candidates = malloc((size_t)n * CAND_K * sizeof(int32_t)),
                            .candidates_k = CAND_K};
    for (int i = 0; i < n; i++) r.job.pi[i] = (int32_t)((i * 37) % 11) - 5; /* not all 0 */
    run_job(&r, inst, stop, gpu, tuning);
    return r;
}

static run ascend(const wt_instance *inst, const int32_t *graph, int iterations, double until,
                  bool stop, bool gpu)
{
    return ascend_tuned(inst, graph, iterations, until, stop, gpu, NULL);
}

static void run_free(run *r)
{
    free(r->job.pi);
    free(r->job.candidates);
}

static void assert_same(const run *g, const run *c, int n)
{
    assert_int_equal(g->status, c->status);
    assert_int_equal(g->job.iterations_done, c->job.iterations_done);
    assert_true(g->job.graph_bound == c->job.graph_bound);
    assert_true(g->job.lower_bound == c->job.lower_bound);
    assert_int_equal(g->job.stopped, c->job.stopped);
    assert_memory_equal(g->job.pi, c->job.pi, (size_t)n * sizeof(int32_t));
    assert_memory_equal(g->job.candidates, c->job.candidates, (size_t)n * CAND_K * sizeof(int32_t));
}

/* The same job on both sides for each cap of steps: equal outputs; the
 * GPU tuned by tuning (NULL: its defaults). */
static void compare_tuned(const char *what, const wt_instance *inst, const int *caps, int count,
                          const wt_cuda_ascent_tuning *tuning)
{
    int n = wt_instance_n(inst);
    int32_t *graph = ascent_graph(inst, GRAPH_K);
    for (int i = 0; i < count; i++) {
        run g = ascend_tuned(inst, graph, caps[i], INFINITY, false, true, tuning);
        run c = ascend(inst, graph, caps[i], INFINITY, false, false);
        print_message("    %s n=%d cap=%d steps=%d graph_bound=%lld lower_bound=%lld "
                      "gpu_s=%.3f host_s=%.3f\n",
                      what, n, caps[i], c.job.iterations_done, (long long)c.job.graph_bound,
                      (long long)c.job.lower_bound, g.seconds, c.seconds);
        assert_int_equal(c.status, WT_OK);
        assert_same(&g, &c, n);
        run_free(&g);
        run_free(&c);
    }
    free(graph);
}

static void compare(const char *what, const wt_instance *inst, const int *caps, int count)
{
    compare_tuned(what, inst, caps, count, NULL);
}

static wt_instance *shipped(const char *file)
{
    char *path = wt_test_path(wt_test_data_dir(), file);
    wt_instance *inst = NULL;
    wt_error err = {0};
    if (wt_instance_read_tsplib(path, &inst, &err) != WT_OK) fail_msg("%s: %s", path, err.message);
    free(path);
    return inst;
}

/* The shipped instances: each metric; the whole ascent (cap 0) on the
 * small ones. */
static void test_shipped_instances(void **state)
{
    (void)state;
    const int all[] = {0, 1, 37, 300}, capped[] = {1, 37, 300};
    const char *small[] = {"bays29.tsp", "gr96.tsp", "att48.tsp", "a280.tsp", "pr1002.tsp"};
    for (size_t f = 0; f < sizeof small / sizeof *small; f++) {
        wt_instance *inst = shipped(small[f]);
        compare(small[f], inst, all, 4);
        wt_instance_free(inst);
    }
    wt_instance *pla = shipped("pla33810.tsp.gz");
    compare("pla33810", pla, capped, 3);
    wt_instance_free(pla);
}

/* 20,000 uniform cities, clustered ones, and duplicates. */
static void test_generated_instances(void **state)
{
    (void)state;
    const int caps[] = {1, 37, 300}, all[] = {0, 1, 37, 300};
    wt_instance *uniform = wt_test_random_instance(20000, 3);
    compare("uniform", uniform, caps, 3);
    wt_instance_free(uniform);
    wt_instance *clustered = NULL;
    wt_error err = {0};
    if (wt_instance_generate(WT_GEN_CLUSTERED, 10000, 5, &clustered, &err) != WT_OK)
        fail_msg("%s", err.message);
    compare("clustered", clustered, caps, 3);
    wt_instance_free(clustered);
    /* 3,000 points on a 40 x 40 grid: about two a point, every length
     * many times over. */
    enum { DUP = 3000 };
    double x[DUP], y[DUP];
    wt_rng rng;
    wt_rng_seed(&rng, 9);
    for (int i = 0; i < DUP; i++) {
        x[i] = (double)wt_rng_below(&rng, 40);
        y[i] = (double)wt_rng_below(&rng, 40);
    }
    wt_instance *dup = NULL;
    if (wt_instance_from_coords("dup", DUP, WT_EUC_2D, x, y, NULL, &dup, &err) != WT_OK)
        fail_msg("%s", err.message);
    compare("duplicates", dup, all, 4);
    wt_instance_free(dup);
}

/* A deadline already passed: no step, the start penalties and their lists,
 * as on the host; a stop flag: stopped. */
static void test_until_and_stop(void **state)
{
    (void)state;
    wt_instance *inst = wt_test_random_instance(20000, 4);
    int n = wt_instance_n(inst);
    int32_t *graph = ascent_graph(inst, GRAPH_K);
    double past = now_s() - 1;
    run g = ascend(inst, graph, 0, past, false, true);
    run c = ascend(inst, graph, 0, past, false, false);
    print_message("    until passed: GPU %.3f s, host %.3f s\n", g.seconds, c.seconds);
    assert_int_equal(g.status, WT_OK);
    assert_int_equal(g.job.iterations_done, 0);
    assert_false(g.job.stopped);
    for (int i = 0; i < n; i++) assert_int_equal(g.job.pi[i], (int32_t)((i * 37) % 11) - 5);
    assert_same(&g, &c, n);
    run_free(&g);
    run_free(&c);
    run s = ascend(inst, graph, 0, INFINITY, true, true);
    assert_int_equal(s.status, WT_OK);
    assert_true(s.job.stopped);
    assert_int_equal(s.job.iterations_done, 0);
    run_free(&s);
    free(graph);
    wt_instance_free(inst);
}

/* One ascent of `steps` steps, first period `period`, from pi = 0 over the
 * search's own graph (wt_alpha_graph), on the GPU (tuned, NULL: defaults)
 * or the host. */
static run ascend_search_graph(const wt_instance *inst, const int32_t *graph, int width, int steps,
                               int period, bool gpu, const wt_cuda_ascent_tuning *tuning)
{
    int n = wt_instance_n(inst);
    run r = {0};
    r.job = (wt_ascent_job){.graph = graph, .graph_k = width, .iterations = steps,
                            .period = period, .until = INFINITY, .lower_bound = -1,
                            .pi = calloc((size_t)n, sizeof(int32_t)),
                            .candidates = malloc((size_t)n * CAND_K * sizeof(int32_t)),
                            .candidates_k = CAND_K};
    run_job(&r, inst, false, gpu, tuning);
    return r;
}

/* Fills the device's free memory (all but 256 MB) with a non-zero byte
 * and gives it back, so that the next allocations hold garbage, as after
 * other work in the same process: an ascent that read memory it never
 * wrote would then differ from the host's. */
static void dirty_free_memory(void)
{
    if (gpu_is_cpu) return;
    gpu_hog hog;
    gpu_hog_take(&hog, (size_t)256 << 20);
    for (int i = 0; i < hog.count; i++) (void)cudaMemset(hog.block[i], 0xA5, hog.bytes[i]);
    (void)cudaDeviceSynchronize();
    gpu_hog_give(&hog);
}

/* The search's graph (the quadrant lists and their joins of
 * wt_alpha_graph), pi from 0, a first period of 100 and of n / 2, 30
 * steps: the GPU (three runs fused, one a launch a phase; all but the
 * first on memory that other work left dirty) equal to the host, run
 * after run. */
static void test_search_graph_repeatable(void **state)
{
    (void)state;
    const int sizes[] = {2000, 5000, 20000};
    const uint64_t seeds[] = {24, 23, 5};
    wt_cuda_ascent_tuning launches;
    wt_cuda_ascent_tuning_defaults(&launches);
    launches.fused = false;
    int differ = 0;
    for (int s = 0; s < 3; s++) {
        wt_instance *inst = wt_test_random_instance(sizes[s], seeds[s]);
        int n = wt_instance_n(inst), width = 0;
        wt_params p;
        wt_params_defaults(&p);
        wt_search_ctl ctl;
        wt_ctl_init(&ctl, &p);
        bool stopped = false;
        wt_status st = WT_OK;
        wt_error err = {0};
        int32_t *graph = wt_alpha_graph(inst, NULL, &ctl, &width, NULL, &stopped, &st, &err);
        if (!graph) fail_msg("graph: %s", err.message);
        const int periods[] = {100, 0};
        for (int q = 0; q < 2; q++) {
            run c = ascend_search_graph(inst, graph, width, 30, periods[q], false, NULL);
            for (int r = 0; r < 4; r++) {
                if (r >= 1) dirty_free_memory(); /* runs 1-3 on dirty memory */
                run g = ascend_search_graph(inst, graph, width, 30, periods[q], true,
                                            r == 3 ? &launches : NULL);
                int pis = 0;
                for (int i = 0; i < n; i++) pis += g.job.pi[i] != c.job.pi[i];
                bool same = pis == 0 && g.job.graph_bound == c.job.graph_bound &&
                            g.job.lower_bound == c.job.lower_bound &&
                            g.job.iterations_done == c.job.iterations_done;
                print_message("    n=%d period=%d run %d (%s): steps %d/%d graph bound %lld/%lld "
                              "%d penalties differ%s\n",
                              n, periods[q], r, r == 3 ? "launches" : "fused",
                              g.job.iterations_done, c.job.iterations_done,
                              (long long)g.job.graph_bound, (long long)c.job.graph_bound, pis,
                              same ? "" : "  <-- DIFFERS");
                differ += !same;
                run_free(&g);
            }
            run_free(&c);
        }
        free(graph);
        wt_instance_free(inst);
    }
    assert_int_equal(differ, 0);
}

/* A launch a phase; the cooperative kernels on one block an SM, a step a
 * launch (the rule's state crossing between launches every step); 7 steps
 * a launch (launches that end inside a period); Boruvka's rounds on the
 * whole graph each (plain) and on the listed edges (compact, which the
 * default takes only for larger graphs); the phase clock on
 * (wt_cuda_ascent_profile). */
static void test_tunings(void **state)
{
    (void)state;
    wt_cuda_ascent_tuning plain, compact;
    wt_cuda_ascent_tuning_defaults(&plain);
    plain.compact_edges = -1;
    wt_cuda_ascent_tuning_defaults(&compact);
    compact.compact_edges = 0;
    wt_cuda_ascent_tuning launches, small_grid, seven;
    wt_cuda_ascent_tuning_defaults(&launches);
    launches.fused = false;
    wt_cuda_ascent_tuning_defaults(&small_grid);
    small_grid.blocks_per_sm = 1;
    small_grid.steps_per_launch = 1;
    wt_cuda_ascent_tuning_defaults(&seven);
    seven.steps_per_launch = 7;
    const int all[] = {0, 37}, caps[] = {1, 300};
    wt_instance *pr = shipped("pr1002.tsp");
    compare_tuned("pr1002 launches", pr, all, 2, &launches);
    compare_tuned("pr1002 small grid", pr, all, 2, &small_grid);
    compare_tuned("pr1002 7 steps a launch", pr, all, 2, &seven);
    compare_tuned("pr1002 plain rounds", pr, all, 2, &plain);
    compare_tuned("pr1002 compact rounds", pr, all, 2, &compact);
    wt_instance_free(pr);
    wt_instance *uniform = wt_test_random_instance(20000, 5);
    compare_tuned("uniform launches", uniform, caps, 2, &launches);
    compare_tuned("uniform small grid", uniform, caps, 2, &small_grid);
    compare_tuned("uniform plain rounds", uniform, caps, 2, &plain);
    compare_tuned("uniform compact rounds", uniform, caps, 2, &compact);
    wt_cuda_ascent_profile profile;
    wt_cuda_ascent_tuning profiled;
    wt_cuda_ascent_tuning_defaults(&profiled);
    profiled.profile = &profile;
    compare_tuned("uniform profiled", uniform, caps, 2, &profiled);
    if (!gpu_is_cpu) { /* the last run's: 300 steps and the finish's tree */
        assert_true(profile.trees >= 300);
        assert_true(profile.rounds >= profile.trees);
        assert_true(profile.cheapest_s > 0);
    }
    wt_instance_free(uniform);
}

/* Both finishes, the GPU's (the default) and the host's, against one run
 * of the host's slot on 100, 5,000 and 100,000 uniform cities: the whole
 * ascent on the smaller two, a cap of steps on all three. */
static void test_finish_paths(void **state)
{
    (void)state;
    wt_cuda_ascent_tuning on_gpu, on_host;
    wt_cuda_ascent_tuning_defaults(&on_gpu);
    wt_cuda_ascent_tuning_defaults(&on_host);
    on_host.finish_on_gpu = false;
    const int sizes[] = {100, 5000, 100000};
    for (int s = 0; s < 3; s++) {
        wt_instance *inst = wt_test_random_instance(sizes[s], 41 + (uint64_t)s);
        int n = wt_instance_n(inst);
        int32_t *graph = ascent_graph(inst, GRAPH_K);
        const int caps[] = {sizes[s] < 100000 ? 0 : 1, 37};
        for (int i = 0; i < 2; i++) {
            run c = ascend(inst, graph, caps[i], INFINITY, false, false);
            run g = ascend_tuned(inst, graph, caps[i], INFINITY, false, true, &on_gpu);
            run h = ascend_tuned(inst, graph, caps[i], INFINITY, false, true, &on_host);
            print_message("    finish paths n=%d cap=%d steps=%d lower_bound=%lld: host %.3f s, "
                          "GPU with its finish %.3f s, GPU with the host's finish %.3f s\n",
                          n, caps[i], c.job.iterations_done, (long long)c.job.lower_bound,
                          c.seconds, g.seconds, h.seconds);
            assert_int_equal(c.status, WT_OK);
            assert_same(&g, &c, n);
            assert_same(&h, &c, n);
            run_free(&c);
            run_free(&g);
            run_free(&h);
        }
        free(graph);
        wt_instance_free(inst);
    }
}

/* The steps split over two GPUs at any size (split_edges 0), the rounds
 * on the whole graph and on the listed edges, against the host's slot:
 * equal outputs, from 37 steps to whole ascents.  Skipped with one GPU. */
static void test_split_steps(void **state)
{
    (void)state;
    if (gpu_is_cpu || wt_backend_devices(backend_for(true)) < 2) {
        print_message("    one GPU: nothing to split over\n");
        return;
    }
    wt_device second;
    wt_device_of(backend_for(true), 1, &second);
    split_with = &second;
    wt_cuda_ascent_tuning plain, compact;
    wt_cuda_ascent_tuning_defaults(&plain);
    plain.split_edges = 0;
    plain.compact_edges = -1;
    compact = plain;
    compact.compact_edges = 0;
    wt_cuda_ascent_profile profile;
    compact.profile = &profile;
    const int all[] = {0, 37}, capped[] = {37, 300};
    wt_instance *pr = shipped("pr1002.tsp");
    compare_tuned("pr1002 split, plain rounds", pr, all, 2, &plain);
    compare_tuned("pr1002 split, compact rounds", pr, all, 2, &compact);
    assert_true(profile.split);
    wt_instance_free(pr);
    wt_instance *uniform = wt_test_random_instance(20000, 9);
    compare_tuned("uniform split, plain rounds", uniform, all, 2, &plain);
    compare_tuned("uniform split, compact rounds", uniform, all, 2, &compact);
    wt_instance_free(uniform);
    wt_instance *large = wt_test_random_instance(200000, 10);
    compare_tuned("200,000 split, compact rounds", large, capped, 2, &compact);
    assert_true(profile.split);
    wt_instance_free(large);
    split_with = NULL;
}

/* The graph's edges built on the GPU (the default for planar points)
 * against the host's (wt_cuda_ascent_tuning.graph_on_gpu false) and the
 * host's slot: rows with repeats, the row's own city, and entries after a
 * row's end (-1) that lie out of range and must be ignored: equal outputs;
 * a city out of range before a row's end: the host's error, message and
 * all. */
static void test_graph_rows(void **state)
{
    (void)state;
    wt_cuda_ascent_tuning on_host;
    wt_cuda_ascent_tuning_defaults(&on_host);
    on_host.graph_on_gpu = false;
    wt_instance *inst = wt_test_random_instance(3000, 17);
    int n = wt_instance_n(inst), width = GRAPH_K + 1;
    const int caps[] = {0, 25};
    compare_tuned("graph on the host", inst, caps, 2, &on_host);
    int32_t *graph = ascent_graph(inst, GRAPH_K);
    for (int c = 0; c < n; c += 7) {
        int32_t *row = graph + (size_t)c * width;
        row[GRAPH_K - 1] = row[0];     /* a repeat */
        row[GRAPH_K - 2] = c;          /* its own city */
        if (row[GRAPH_K] < 0) {        /* no spare edge: an end, then garbage */
            row[GRAPH_K - 3] = -1;
            row[GRAPH_K] = n + 5;
        }
    }
    for (int i = 0; i < 2; i++) {
        run c = ascend(inst, graph, caps[i], INFINITY, false, false);
        run g = ascend_tuned(inst, graph, caps[i], INFINITY, false, true, NULL);
        assert_int_equal(c.status, WT_OK);
        assert_same(&g, &c, n);
        run_free(&c);
        run_free(&g);
    }
    graph[(size_t)1234 * width + 2] = n + 3; /* out of range, before the row's end */
    wt_params p;
    wt_params_defaults(&p);
    wt_search_ctl ctl;
    wt_ctl_init(&ctl, &p);
    wt_error host_err = {0}, gpu_err = {0};
    run c = ascend(inst, graph, 5, INFINITY, false, false);
    run g = ascend(inst, graph, 5, INFINITY, false, true);
    assert_int_equal(c.status, WT_STATUS_INVALID_ARGUMENT);
    assert_int_equal(g.status, c.status);
    wt_device host_dev, gpu_dev;
    wt_device_of(backend_for(false), 0, &host_dev);
    wt_device_of(backend_for(true), 0, &gpu_dev);
    assert_int_equal(backend_for(false)->ascent(&host_dev, inst, &c.job, &ctl, &host_err),
                     WT_STATUS_INVALID_ARGUMENT);
    assert_int_equal(backend_for(true)->ascent(&gpu_dev, inst, &g.job, &ctl, &gpu_err),
                     WT_STATUS_INVALID_ARGUMENT);
    assert_string_equal(gpu_err.message, host_err.message);
    assert_non_null(strstr(host_err.message, "row 1234 holds city"));
    run_free(&c);
    run_free(&g);
    free(graph);
    wt_instance_free(inst);
}

/* A graph of two components (each half of the cities joined to its next
 * four in a ring of its half): the GPU, each way of its rounds, refuses it
 * as the host does. */
static void test_disconnected(void **state)
{
    (void)state;
    enum { N = 200, HALF = N / 2, WIDTH = GRAPH_K + 1 };
    wt_instance *inst = wt_test_random_instance(N, 9);
    int32_t *graph = malloc((size_t)N * WIDTH * sizeof *graph);
    for (int c = 0; c < N; c++) {
        int base = c < HALF ? 0 : HALF;
        for (int j = 0; j < WIDTH; j++)
            graph[c * WIDTH + j] = j < 4 ? base + (c - base + 1 + j) % HALF : -1;
    }
    wt_cuda_ascent_tuning compact, launches;
    wt_cuda_ascent_tuning_defaults(&compact);
    compact.compact_edges = 0;
    wt_cuda_ascent_tuning_defaults(&launches);
    launches.fused = false;
    const wt_cuda_ascent_tuning *tunings[] = {NULL, &compact, &launches};
    run c = ascend(inst, graph, 5, INFINITY, false, false);
    assert_int_equal(c.status, WT_STATUS_INVALID_ARGUMENT);
    for (int t = 0; t < 3; t++) {
        run g = ascend_tuned(inst, graph, 5, INFINITY, false, true, tunings[t]);
        assert_int_equal(g.status, c.status);
        run_free(&g);
    }
    run_free(&c);
    free(graph);
    wt_instance_free(inst);
}

int main(void)
{
    int skip = gpu_test_begin(&gpu_is_cpu);
    if (skip) return skip;
    gpu_test_filters();
    const struct CMUnitTest tests[] = {
        GPU_TEST(test_shipped_instances),
        GPU_TEST(test_generated_instances),
        GPU_TEST(test_until_and_stop),
        GPU_TEST(test_tunings),
        GPU_TEST(test_search_graph_repeatable),
        GPU_TEST(test_finish_paths),
        GPU_TEST(test_split_steps),
        GPU_TEST(test_graph_rows),
        GPU_TEST(test_disconnected),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
