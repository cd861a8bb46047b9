/*
 * test_gpu_neighbours.c - the cuda backend's candidate lists (backend.h,
 * neighbours; cuda_neighbours.cu) against the host's, bit for bit:
 *   - the k nearest and the k quadrant neighbours (core/neighbours.h) of
 *     uniform instances of 100, 5,000 and 100,000 cities, of clustered
 *     ones, and of points on a 1,000 x 1,000 lattice (distances tie
 *     everywhere, some points repeat), for every planar metric and a
 *     real-valued one; rows from 5 to the slot's most (64) nearest;
 *   - the ascent's sparse graph (algo/alpha.h, wt_alpha_graph) built with
 *     the GPU's lists equal to the host's, edge for edge, and what a layout
 *     too uneven for the grid (every city on one of a few points) or a
 *     metric without coordinates gets: UNSUPPORTED from the slot and the
 *     host's graph from wt_alpha_graph;
 *   - a million uniform cities: equal lists, the seconds of both printed
 *     (never asserted);
 *   - a host ILS on the GPU's lists (ils_local.c, device_lists) against
 *     one on the host's (tuning.ils_device_lists_min off): the same tour
 *     for the same seed and kicks, local descents and LK.
 * Skipped (exit 77) without a usable GPU (the slot is the GPU's alone).
 */
#include "gpu_test.h"
#include "grid_instances.h"

#include "algo/alpha.h"
#include "backend/backend.h"
#include "core/neighbours.h"
#include "core/search_ctl.h"
#include "warptour_experimental.h"

static bool gpu_is_cpu;

static void cuda_device(wt_device *dev) { wt_device_of(wt_backend_of(WT_BACKEND_CUDA), 0, dev); }

/* The GPU's lists and the host's (4 threads) of k a city, equal; the
 * slot's status otherwise (then nothing is compared). */
static wt_status lists_match(const wt_instance *inst, int k, bool quadrant, double *gpu_s,
                             double *host_s)
{
    int n = wt_instance_n(inst);
    int32_t *gpu = malloc((size_t)n * (size_t)k * sizeof *gpu);
    int32_t *host = malloc((size_t)n * (size_t)k * sizeof *host);
    assert_non_null(gpu);
    assert_non_null(host);
    wt_device dev;
    cuda_device(&dev);
    wt_error err = {0};
    bool stopped = true;
    double t0 = now_s();
    wt_status st = dev.backend->neighbours(&dev, inst, k, quadrant, gpu, NULL, &stopped, &err);
    double t1 = now_s();
    if (st == WT_OK) {
        assert_false(stopped);
        bool host_stopped = true;
        assert_int_equal(quadrant ? wt_quadrant_lists_until(inst, k, 4, NULL, host,
                                                            &host_stopped, &err)
                                  : wt_neighbour_lists_until(inst, k, 4, NULL, host,
                                                             &host_stopped, &err),
                         WT_OK);
        assert_false(host_stopped);
        for (size_t x = 0; x < (size_t)n * (size_t)k; x++)
            if (gpu[x] != host[x])
                fail_msg("%s, k %d, quadrant %d: city %zu's entry %zu is %d on the GPU, %d on "
                         "the host",
                         wt_instance_name(inst), k, quadrant, x / (size_t)k, x % (size_t)k,
                         gpu[x], host[x]);
    }
    if (gpu_s) *gpu_s = t1 - t0;
    if (host_s) *host_s = now_s() - t1;
    free(gpu);
    free(host);
    return st;
}

static wt_instance *generated(wt_gen_kind kind, int n, uint64_t seed)
{
    wt_instance *inst = NULL;
    wt_error err = {0};
    if (wt_instance_generate(kind, n, seed, &inst, &err) != WT_OK) fail_msg("%s", err.message);
    return inst;
}

static void test_uniform_and_clustered(void **state)
{
    (void)state;
    const int sizes[] = {100, 5000, 100000};
    const int ks[] = {5, 8, 10, 16, 21};
    for (size_t s = 0; s < 3; s++)
        for (int kind = 0; kind < 2; kind++) {
            wt_instance *inst = generated(kind ? WT_GEN_CLUSTERED : WT_GEN_UNIFORM, sizes[s],
                                          (uint64_t)s + 1);
            for (size_t i = 0; i < sizeof ks / sizeof *ks; i++)
                for (int quadrant = 0; quadrant < 2; quadrant++) {
                    wt_status st = lists_match(inst, ks[i], quadrant, NULL, NULL);
                    /* clusters may leave a cell too full for the grid */
                    if (!(kind && st == WT_STATUS_UNSUPPORTED)) assert_int_equal(st, WT_OK);
                }
            wt_instance_free(inst);
        }
}

/* Every planar metric on the lattice's points (ties everywhere), and real
 * coordinates. */
static void test_metrics_and_ties(void **state)
{
    (void)state;
    const wt_edge_weight_type types[] = {WT_EUC_2D, WT_CEIL_2D, WT_ATT, WT_MAN_2D, WT_MAX_2D};
    const int sizes[] = {100, 5000, 100000};
    for (size_t t = 0; t < sizeof types / sizeof *types; t++)
        for (size_t s = 0; s < 3; s++) {
            wt_instance *inst = wt_test_typed_instance(types[t], sizes[s], 7 + s);
            assert_int_equal(lists_match(inst, 10, true, NULL, NULL), WT_OK);
            assert_int_equal(lists_match(inst, 8, false, NULL, NULL), WT_OK);
            wt_instance_free(inst);
        }
    wt_instance *inst = grid_test_real(20000, 3);
    assert_int_equal(lists_match(inst, 10, true, NULL, NULL), WT_OK);
    assert_int_equal(lists_match(inst, 64, false, NULL, NULL), WT_OK);
    wt_instance_free(inst);
}

/* The slot's refusals: rows from more than 64 nearest, a metric without
 * planar coordinates, every city on one of four points. */
static void test_refusals(void **state)
{
    (void)state;
    wt_instance *inst = generated(WT_GEN_UNIFORM, 1000, 1);
    assert_int_equal(lists_match(inst, 65, false, NULL, NULL), WT_STATUS_UNSUPPORTED);
    assert_int_equal(lists_match(inst, 22, true, NULL, NULL), WT_STATUS_UNSUPPORTED); /* 66 */
    wt_instance_free(inst);
    inst = wt_test_typed_instance(WT_GEO, 500, 1);
    assert_int_equal(lists_match(inst, 8, true, NULL, NULL), WT_STATUS_UNSUPPORTED);
    wt_instance_free(inst);
    inst = grid_test_four_points(4000);
    assert_int_equal(lists_match(inst, 10, true, NULL, NULL), WT_STATUS_UNSUPPORTED);
    wt_instance_free(inst);
}

/* wt_alpha_graph with the GPU: on the device, the host's graph edge for
 * edge; where the slot refuses, the host's graph, not on the device. */
static void test_alpha_graph(void **state)
{
    (void)state;
    wt_params p;
    wt_params_defaults(&p);
    p.threads = 4;
    wt_search_ctl ctl;
    wt_ctl_init(&ctl, &p);
    wt_device dev;
    cuda_device(&dev);
    wt_instance *insts[] = {generated(WT_GEN_UNIFORM, 100000, 5),
                            generated(WT_GEN_CLUSTERED, 20000, 2),
                            wt_test_typed_instance(WT_GEO, 3000, 4)};
    for (size_t i = 0; i < 3; i++) {
        int hw = 0, gw = 0;
        bool stopped = true, on_device = true;
        wt_status st;
        wt_error err = {0};
        int32_t *host = wt_alpha_graph(insts[i], NULL, &ctl, &hw, &on_device, &stopped, &st, &err);
        assert_non_null(host);
        assert_false(on_device);
        int32_t *gpu = wt_alpha_graph(insts[i], &dev, &ctl, &gw, &on_device, &stopped, &st, &err);
        assert_non_null(gpu);
        print_message("    %s: graph on the device: %s\n", wt_instance_name(insts[i]),
                      on_device ? "yes" : "no");
        if (i == 0) assert_true(on_device);
        if (i == 2) assert_false(on_device); /* GEO: the host's lists */
        assert_int_equal(gw, hw);
        assert_memory_equal(gpu, host, (size_t)wt_instance_n(insts[i]) * (size_t)hw * sizeof *gpu);
        free(host);
        free(gpu);
        wt_instance_free(insts[i]);
    }
}

static void test_million(void **state)
{
    (void)state;
    wt_instance *inst = generated(WT_GEN_UNIFORM, 1000000, 1);
    double gpu_s = 0, host_s = 0;
    assert_int_equal(lists_match(inst, 10, true, &gpu_s, &host_s), WT_OK);
    print_message("    1,000,000 cities, 10 quadrant neighbours: GPU %.3f s, host (4 threads) "
                  "%.3f s\n",
                  gpu_s, host_s);
    wt_instance_free(inst);
}

/* ILS with a kick budget on 250,000 uniform cities (the GPU's first
 * descent, then the host's descents of the given kind): its lists from the
 * GPU (the default from WT_ILS_DEVICE_LISTS_CITIES) or from the host. */
static wt_result ils_run(const wt_instance *inst, wt_ils_descent descent, bool device_lists)
{
    wt_params p;
    wt_params_defaults(&p);
    p.algorithm = WT_ALGO_ILS;
    p.backend = WT_BACKEND_CUDA;
    p.ils_descent = descent;
    p.kicks = 3000;
    p.threads = 4;
    p.seed = 3;
    wt_tuning t = {0};
    if (!device_lists) t.ils_device_lists_min = WT_TUNING_OFF;
    p.tuning = &t;
    wt_result r = {0};
    wt_error err = {0};
    if (wt_solve(inst, &p, &r, &err) != WT_OK) fail_msg("wt_solve: %s", err.message);
    assert_int_equal(wt_tour_validate(r.tour, wt_instance_n(inst), NULL), WT_OK);
    assert_int_equal(wt_tour_length(inst, r.tour), r.length);
    return r;
}

static void test_ils_lists(void **state)
{
    (void)state;
    wt_instance *inst = generated(WT_GEN_UNIFORM, 250000, 4);
    int n = wt_instance_n(inst);
    const wt_ils_descent kinds[] = {WT_ILS_LOCAL, WT_ILS_LK};
    for (int k = 0; k < 2; k++) {
        wt_result gpu = ils_run(inst, kinds[k], true), host = ils_run(inst, kinds[k], false);
        print_message("    ILS %s, 250,000 cities, 3,000 kicks: %lld on the GPU's lists "
                      "(%.2f s), %lld on the host's (%.2f s)\n",
                      wt_ils_descent_name(kinds[k]), (long long)gpu.length, gpu.search_time_s,
                      (long long)host.length, host.search_time_s);
        assert_true(gpu.length == host.length);
        assert_memory_equal(gpu.tour, host.tour, (size_t)n * sizeof *gpu.tour);
        wt_result_free(&gpu);
        wt_result_free(&host);
    }
    wt_instance_free(inst);
}

int main(void)
{
    int skip = gpu_test_begin(&gpu_is_cpu);
    if (skip) return skip;
    if (gpu_is_cpu) {
        fprintf(stderr, "skipped: the neighbours slot is the GPU's alone\n");
        return WT_TEST_SKIP_CODE;
    }
    gpu_test_filters();
    const struct CMUnitTest tests[] = {
        GPU_TEST(test_uniform_and_clustered),
        GPU_TEST(test_metrics_and_ties),
        GPU_TEST(test_refusals),
        GPU_TEST(test_alpha_graph),
        GPU_TEST(test_million),
        GPU_TEST(test_ils_lists),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
