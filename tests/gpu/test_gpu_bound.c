/*
 * test_gpu_bound.c - the complete graph's 1-tree bound on the GPU
 * (cuda_bound.h) against the host's (core/onetree.h,
 * wt_onetree_complete_bound), equal to the unit:
 *   - uniform and clustered instances of 6,000 to 200,000 cities, with
 *     penalties 0, random ones and an ascent's;
 *   - points on a 1,000 x 1,000 lattice (lengths tie everywhere, so only
 *     the order (c_pi, lower city, higher city) makes the tree the
 *     host's) for every planar type, and real-valued points;
 *   - the refusals (a metric without planar coordinates, every city on
 *     one of four points) and a stop before the first round;
 *   - a bound prepared once and computed under several penalties;
 *   - the ascent slot's proven bound with the bound on the GPU and on the
 *     host (wt_cuda_ascent_tuning.bound_on_gpu), equal.
 * Skipped (exit 77) without a usable GPU.
 */
#include "gpu_test.h"
#include "grid_instances.h"

#include <math.h>

#include "algo/alpha.h"
#include "backend/backend.h"
#include "backend/cuda/cuda_ascent.h"
#include "backend/cuda/cuda_bound.h"
#include "core/onetree.h"
#include "core/search_ctl.h"

static bool gpu_is_cpu;

static wt_instance *generated(wt_gen_kind kind, int n, uint64_t seed)
{
    wt_instance *inst = NULL;
    wt_error err = {0};
    if (wt_instance_generate(kind, n, seed, &inst, &err) != WT_OK) fail_msg("%s", err.message);
    return inst;
}

/* Penalties: 0 (spread 0), or uniform in [-spread, spread]. */
static int32_t *penalties(int n, int spread, uint64_t seed)
{
    int32_t *pi = malloc((size_t)n * sizeof *pi);
    wt_rng rng;
    wt_rng_seed(&rng, seed);
    for (int i = 0; i < n; i++)
        pi[i] = spread ? (int32_t)wt_rng_below(&rng, 2 * (uint64_t)spread + 1) - spread : 0;
    return pi;
}

/* The GPU's bound under pi against the host's; the GPU's status. */
static wt_status bound_matches(const wt_instance *inst, const int32_t *pi)
{
    int64_t gpu = 0, host = 0;
    bool stopped = true;
    wt_error err = {0};
    double t0 = now_s();
    wt_status st = wt_cuda_complete_bound(0, inst, pi, NULL, &gpu, &stopped, &err);
    double t1 = now_s();
    if (st != WT_OK) {
        print_message("    %s: %s\n", wt_instance_name(inst), err.message);
        return st;
    }
    assert_false(stopped);
    assert_int_equal(wt_onetree_complete_bound(inst, pi, NULL, 4, NULL, &host, &stopped, &err),
                     WT_OK);
    print_message("    %s (%d cities): GPU %.3f s, host %.3f s\n", wt_instance_name(inst),
                  wt_instance_n(inst), t1 - t0, now_s() - t1);
    if (gpu != host)
        fail_msg("%s: bound %lld on the GPU, %lld on the host", wt_instance_name(inst),
                 (long long)gpu, (long long)host);
    return WT_OK;
}

static void test_generated(void **state)
{
    (void)state;
    const int sizes[] = {6000, 50000, 200000};
    for (size_t s = 0; s < 3; s++)
        for (int kind = 0; kind < 2; kind++) {
            wt_instance *inst = generated(kind ? WT_GEN_CLUSTERED : WT_GEN_UNIFORM, sizes[s], s + 1);
            int n = wt_instance_n(inst);
            const int spreads[] = {0, 20000, 400000};
            for (size_t p = 0; p < 3; p++) {
                int32_t *pi = penalties(n, spreads[p], 7 + p);
                wt_status st = bound_matches(inst, pi);
                if (!(kind && st == WT_STATUS_UNSUPPORTED)) assert_int_equal(st, WT_OK);
                free(pi);
            }
            wt_instance_free(inst);
        }
}

static void test_types_and_ties(void **state)
{
    (void)state;
    const wt_edge_weight_type types[] = {WT_EUC_2D, WT_CEIL_2D, WT_ATT, WT_MAN_2D, WT_MAX_2D};
    for (size_t t = 0; t < sizeof types / sizeof *types; t++) {
        wt_instance *inst = grid_test_lattice(types[t], 60000, 3 + t);
        int32_t *pi = penalties(60000, t % 2 ? 300 : 0, 11);
        assert_int_equal(bound_matches(inst, pi), WT_OK);
        free(pi);
        wt_instance_free(inst);
    }
    int n = 30000;
    wt_instance *inst = grid_test_real(n, 5);
    int32_t *pi = penalties(n, 1000, 2);
    assert_int_equal(bound_matches(inst, pi), WT_OK);
    free(pi);
    wt_instance_free(inst);
}

static bool stop_now(void *user)
{
    (void)user;
    return true;
}

static void test_refusals_and_stop(void **state)
{
    (void)state;
    wt_instance *inst = wt_test_typed_instance(WT_GEO, 6000, 1);
    int32_t *pi = penalties(6000, 0, 1);
    assert_int_equal(bound_matches(inst, pi), WT_STATUS_UNSUPPORTED);
    wt_instance_free(inst);
    inst = grid_test_four_points(6000);
    assert_int_equal(bound_matches(inst, pi), WT_STATUS_UNSUPPORTED);
    wt_instance_free(inst);
    inst = generated(WT_GEN_UNIFORM, 6000, 1);
    wt_init_stop stop = {stop_now, NULL};
    int64_t bound = -5;
    bool stopped = false;
    wt_error err = {0};
    assert_int_equal(wt_cuda_complete_bound(0, inst, pi, &stop, &bound, &stopped, &err), WT_OK);
    assert_true(stopped);
    free(pi);
    wt_instance_free(inst);
}

/* A bound prepared once (wt_cuda_bound_open) and computed under three
 * penalties in turn: the host's bound each time; a stop as the whole
 * call's. */
static void test_prepared(void **state)
{
    (void)state;
    int n = 50000;
    wt_instance *inst = generated(WT_GEN_UNIFORM, n, 3);
    wt_cuda_bound *b = NULL;
    wt_error err = {0};
    assert_int_equal(wt_cuda_bound_open(0, inst, &b, &err), WT_OK);
    assert_non_null(b);
    const int spreads[] = {20000, 0, 400000};
    for (size_t p = 0; p < 3; p++) {
        int32_t *pi = penalties(n, spreads[p], 21 + p);
        int64_t gpu = 0, host = 1;
        bool stopped = true;
        assert_int_equal(wt_cuda_bound_compute(b, pi, NULL, &gpu, &stopped, &err), WT_OK);
        assert_false(stopped);
        assert_int_equal(wt_onetree_complete_bound(inst, pi, NULL, 4, NULL, &host, &stopped, &err),
                         WT_OK);
        assert_int_equal(gpu, host);
        free(pi);
    }
    int32_t *pi = penalties(n, 0, 1);
    wt_init_stop stop = {stop_now, NULL};
    int64_t bound = -5;
    bool stopped = false;
    assert_int_equal(wt_cuda_bound_compute(b, pi, &stop, &bound, &stopped, &err), WT_OK);
    assert_true(stopped);
    wt_cuda_bound_close(b);
    wt_cuda_bound_close(NULL);
    wt_instance *geo = wt_test_typed_instance(WT_GEO, 6000, 1);
    b = (wt_cuda_bound *)&err; /* open sets NULL on a refusal */
    assert_int_equal(wt_cuda_bound_open(0, geo, &b, &err), WT_STATUS_UNSUPPORTED);
    assert_null(b);
    free(pi);
    wt_instance_free(geo);
    wt_instance_free(inst);
}

/* The ascent slot on the GPU with the bound on the GPU and on the host:
 * the same proven bound (and everything else). */
static void test_ascent_bound(void **state)
{
    (void)state;
    wt_instance *insts[] = {generated(WT_GEN_UNIFORM, 100000, 3),
                            grid_test_lattice(WT_ATT, 20000, 9)};
    wt_params p;
    wt_params_defaults(&p);
    p.threads = 4;
    wt_search_ctl ctl;
    wt_ctl_init(&ctl, &p);
    wt_device dev;
    wt_device_of(wt_backend_of(WT_BACKEND_CUDA), 0, &dev);
    for (size_t i = 0; i < 2; i++) {
        int n = wt_instance_n(insts[i]), width = 0;
        bool stopped = false;
        wt_status st;
        wt_error err = {0};
        int32_t *graph = wt_alpha_graph(insts[i], NULL, &ctl, &width, NULL, &stopped, &st, &err);
        assert_non_null(graph);
        int64_t bounds[2];
        for (int on_gpu = 0; on_gpu < 2; on_gpu++) {
            int32_t *pi = calloc((size_t)n, sizeof *pi), *cand = malloc((size_t)n * 5 * sizeof *cand);
            wt_ascent_job job = {.graph = graph, .graph_k = width, .iterations = 40, .period = 20,
                                 .until = INFINITY, .pi = pi, .candidates = cand,
                                 .candidates_k = 5, .lower_bound = -1};
            wt_cuda_ascent_tuning tuning;
            wt_cuda_ascent_tuning_defaults(&tuning);
            tuning.bound_on_gpu = on_gpu;
            assert_int_equal(wt_cuda_ascent_tuned(&dev, insts[i], &job, &ctl, &tuning, &err), WT_OK);
            bounds[on_gpu] = job.lower_bound;
            free(pi);
            free(cand);
        }
        print_message("    %s: proven bound %lld (host) and %lld (GPU)\n",
                      wt_instance_name(insts[i]), (long long)bounds[0], (long long)bounds[1]);
        assert_true(bounds[0] > 0);
        assert_int_equal(bounds[0], bounds[1]);
        free(graph);
        wt_instance_free(insts[i]);
    }
}

int main(void)
{
    int skip = gpu_test_begin(&gpu_is_cpu);
    if (skip) return skip;
    if (gpu_is_cpu) {
        fprintf(stderr, "skipped: the bound is the GPU's alone\n");
        return WT_TEST_SKIP_CODE;
    }
    gpu_test_filters();
    const struct CMUnitTest tests[] = {
        GPU_TEST(test_generated),
        GPU_TEST(test_types_and_ties),
        GPU_TEST(test_refusals_and_stop),
        GPU_TEST(test_prepared),
        GPU_TEST(test_ascent_bound),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
