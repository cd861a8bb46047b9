/*
 * test_gpu_ils_lk.c - ILS with Lin-Kernighan descents on the cuda backend:
 * the GPU's 2-opt first descent, then LK kicks on the host's threads.
 *
 * The oracle is the CPU reference: the hybrid's tour is a valid tour whose
 * reported length is its exact length; the run is the same for the same
 * seed; and a time limit is honoured, a million cities with a 1 s limit
 * included.
 */
#include "gpu_test.h"

#include "core/instance.h"

static bool gpu_is_cpu;

static wt_backend_kind gpu(void) { return gpu_is_cpu ? WT_BACKEND_CPU : WT_BACKEND_CUDA; }

static wt_result ils_lk(const wt_instance *inst, uint64_t kicks, double limit)
{
    wt_params p;
    wt_params_defaults(&p);
    p.algorithm = WT_ALGO_ILS;
    p.ils_descent = WT_ILS_LK;
    p.backend = gpu();
    p.kicks = kicks;
    p.time_limit_s = limit;
    p.threads = 4;
    wt_result r;
    wt_error err = {0};
    if (wt_solve(inst, &p, &r, &err) != WT_OK) fail_msg("solve: %s", err.message);
    return r;
}

static void check_tour(const wt_instance *inst, const wt_result *r)
{
    assert_int_equal(wt_tour_validate(r->tour, r->n, NULL), WT_OK);
    assert_int_equal(r->length, wt_tour_length(inst, r->tour));
    assert_true(r->length <= r->init_length);
    assert_int_equal(r->ils.descent, WT_ILS_LK);
}

/* Kick budgets: valid, exact, reproducible, shorter than the start. */
static void test_valid_and_reproducible(void **state)
{
    (void)state;
    const int sizes[] = {200, 5000, 30000};
    for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; z++) {
        wt_instance *inst = wt_test_random_instance(sizes[z], 7 + z);
        wt_result a = ils_lk(inst, 2000, 0), b = ils_lk(inst, 2000, 0);
        check_tour(inst, &a);
        assert_true(a.length < a.init_length);
        assert_int_equal(a.ils.kicks, 2000);
        assert_memory_equal(a.tour, b.tour, (size_t)a.n * sizeof *a.tour);
        if (!gpu_is_cpu) assert_string_equal(a.backend, "cuda");
        wt_result_free(&a);
        wt_result_free(&b);
        wt_instance_free(inst);
    }
}

/* Time limits: the run ends within 0.3 s of the limit with a valid tour,
 * from 20,000 cities to a million (1 s, where the start tour and the GPU's
 * set-up share the second). */
static void test_time_limits(void **state)
{
    (void)state;
    const int sizes[] = {20000, 1000000};
    const double limits[] = {2.0, 1.0};
    for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; z++) {
        wt_instance *inst = NULL;
        assert_int_equal(wt_instance_generate(WT_GEN_UNIFORM, sizes[z], 1, &inst, NULL), WT_OK);
        double t0 = now_s();
        wt_result r = ils_lk(inst, 0, limits[z]);
        double took = now_s() - t0;
        print_message("    n %d, limit %.1f s: %.3f s, %s, length %lld (start %lld)\n", sizes[z],
                      limits[z], took, wt_stop_reason_name(r.stop), (long long)r.length,
                      (long long)r.init_length);
        check_tour(inst, &r);
        assert_true(took < limits[z] + 0.3);
        wt_result_free(&r);
        wt_instance_free(inst);
    }
}

int main(void)
{
    int skip = gpu_test_begin(&gpu_is_cpu);
    if (skip) return skip;
    const struct CMUnitTest tests[] = {
        GPU_TEST(test_valid_and_reproducible),
        GPU_TEST(test_time_limits),
    };
    gpu_test_filters();
    return cmocka_run_group_tests(tests, NULL, NULL);
}
