/*
 * test_gpu_devices.c - several GPUs in one process (params.devices).
 *
 * A batch dealt over two GPUs gives, instance by instance, the tours,
 * lengths and kick counts of one GPU for the same seed and kick budget
 * (instances of 200 and of 2,000 cities, warps and blocks), every one on a
 * GPU; under a time limit the progress reports' counts of the two GPUs
 * add up and never go back, and the stop flag stops both.  One large
 * tour: a solve of 200,000 uniform cities with window descents (8 s), and
 * with --backend auto's concurrent windows (20 s), over GPUs 0 and 1 gives
 * a valid tour of exact length, the windows' kernels having run.  The
 * first descent split over GPUs 0 and 1 (algo/descent_split.h): the same
 * valid tour every run, shorter than the start and about as short as one
 * GPU's whole descent; a solve of 2,000,000 cities (where the split
 * begins) over both, valid and exact.
 *
 * Skipped (exit 77) without a usable GPU, and with a message when fewer
 * than two are usable.
 */
#include "gpu_test.h"

#include "batch_test_util.h"

#include "algo/descent.h"
#include "algo/descent_split.h"
#include "algo/policy.h"
#include "core/instance.h"
#include "core/search_ctl.h"

static wt_batch_params on_gpus(int count, uint64_t kicks)
{
    wt_batch_params p;
    wt_batch_params_defaults(&p);
    p.backend = WT_BACKEND_CUDA;
    p.kicks = kicks;
    p.threads = 8;
    p.device_count = count;
    for (int d = 0; d < count; d++) p.devices[d] = d;
    p.search = WT_BATCH_SEARCH_BATCH; /* under time limits too: the GPUs' search alone */
    return p;
}

/* The same tours on GPUs 0 and 1 as on GPU 0, all on a GPU, half each. */
static void same_as_one(int count, int n, uint64_t kicks)
{
    wt_instance **in = batch_uniform_set(count, n, 1000 + (uint64_t)n);
    wt_batch_params one = on_gpus(1, kicks), two = on_gpus(2, kicks);
    double t0 = now_s();
    wt_batch_result a = batch_solve(in, count, &one);
    double t1 = now_s();
    wt_batch_result b = batch_solve(in, count, &two);
    double t2 = now_s();
    print_message("    %d x %d, %llu kicks each: 1 GPU %.3f s, 2 GPUs %.3f s (%s)\n", count, n,
                  (unsigned long long)kicks, t1 - t0, t2 - t1, b.device);
    batch_check_tours(in, &b);
    assert_int_equal(b.failed, 0);
    assert_int_equal(b.on_gpu, count);
    batch_assert_same(&a, &b);
    assert_non_null(strstr(b.device, "2 GPUs"));
    assert_true(b.gpu_time_s > 0);
    wt_batch_result_free(&a);
    wt_batch_result_free(&b);
    batch_set_free(in, count);
}

static void test_batch_same_as_one_gpu(void **state)
{
    (void)state;
    same_as_one(2000, 200, 300);
    same_as_one(64, 2000, 100);
}

typedef struct seen {
    uint64_t kicks;
    int done, calls;
    bool back; /* a count went back */
} seen;

static int watch(const wt_batch_progress *p, void *user)
{
    seen *s = user;
    s->back = s->back || p->kicks < s->kicks || p->done < s->done;
    s->kicks = p->kicks;
    s->done = p->done;
    s->calls++;
    return 0;
}

/* Under a time limit: progress from both GPUs, the limit kept. */
static void test_batch_time_limit_progress(void **state)
{
    (void)state;
    enum { COUNT = 4000 };
    wt_instance **in = batch_uniform_set(COUNT, 200, 7);
    wt_batch_params p = on_gpus(2, 0);
    p.time_limit_s = 2.0;
    p.progress_interval_s = 0.1;
    seen s = {0};
    p.progress = watch;
    p.progress_user = &s;
    double t0 = now_s();
    wt_batch_result r = batch_solve(in, COUNT, &p);
    double took = now_s() - t0;
    print_message("    %.3f s, %llu kicks, %d reports, last %llu kicks %d done\n", took,
                  (unsigned long long)r.kicks, s.calls, (unsigned long long)s.kicks, s.done);
    batch_check_tours(in, &r);
    assert_int_equal(r.on_gpu, COUNT);
    assert_true(took < 2.5);
    assert_true(s.calls >= 5);
    assert_false(s.back);
    assert_true(s.kicks <= r.kicks && s.kicks > r.kicks / 2);
    wt_batch_result_free(&r);
    batch_set_free(in, COUNT);
}

/* The stop flag stops both GPUs at once. */
static void test_batch_stop_flag(void **state)
{
    (void)state;
    wt_instance **in = batch_uniform_set(400, 200, 9);
    wt_batch_params p = on_gpus(2, 100000000);
    volatile int flag = 1;
    p.stop_flag = &flag;
    double t0 = now_s();
    wt_batch_result r = batch_solve(in, 400, &p);
    assert_true(now_s() - t0 < 3.0);
    assert_int_equal(r.stop, WT_STOP_INTERRUPTED);
    batch_check_tours(in, &r);
    wt_batch_result_free(&r);
    batch_set_free(in, 400);
}

/* 200,000 cities over GPUs 0 and 1: valid, exact, the windows searched. */
static void solve_large(wt_backend_kind backend, wt_ils_descent descent, double seconds)
{
    wt_instance *inst = NULL;
    wt_error err = {0};
    if (wt_instance_generate(WT_GEN_UNIFORM, 200000, 1, &inst, &err) != WT_OK)
        fail_msg("generate: %s", err.message);
    wt_params p;
    wt_params_defaults(&p);
    p.backend = backend;
    p.ils_descent = descent;
    p.time_limit_s = seconds;
    p.device_count = 2;
    p.devices[0] = 0;
    p.devices[1] = 1;
    wt_result r;
    if (wt_solve(inst, &p, &r, &err) != WT_OK) fail_msg("wt_solve: %s", err.message);
    print_message("    %s: length %lld from %lld, %.2f s, GPU kernels %.2f s, %s\n",
                  wt_ils_descent_name(r.ils.descent), (long long)r.length,
                  (long long)r.init_length, r.time_s, r.ils.gpu_time_s, r.device);
    assert_int_equal(wt_tour_validate(r.tour, r.n, NULL), WT_OK);
    assert_int_equal(r.length, wt_tour_length(inst, r.tour));
    assert_true(r.length <= r.init_length); /* a time limit promises no work */
    /* The concurrent rounds begin after the host's first descent: a loaded
     * host may leave them no time. */
    if (descent == WT_ILS_WINDOWS) assert_true(r.ils.gpu_time_s > 0);
    /* Concurrent windows that ran name both GPUs. */
    if (descent != WT_ILS_WINDOWS && r.ils.concurrent_windows_s > 0)
        assert_non_null(strstr(r.device, "2 GPUs"));
    wt_result_free(&r);
    wt_instance_free(inst);
}

static void test_large_windows(void **state)
{
    (void)state;
    solve_large(WT_BACKEND_CUDA, WT_ILS_WINDOWS, 8.0);
}

static void test_large_concurrent(void **state)
{
    (void)state;
    solve_large(WT_BACKEND_AUTO, WT_ILS_AUTO, 20.0);
}

/* The descent of inst's greedy tour on `count` GPUs: split where count > 1,
 * else the whole on GPU 0. */
static int32_t *descend_on(const wt_instance *inst, int count, double *seconds)
{
    int32_t *tour = malloc((size_t)inst->n * sizeof *tour);
    wt_error err = {0};
    assert_int_equal(wt_tour_init(inst, WT_INIT_GREEDY, 1, tour, &err), WT_OK);
    wt_params p;
    wt_params_defaults(&p);
    p.threads = 8;
    wt_search_ctl ctl;
    wt_ctl_init(&ctl, &p);
    wt_search_stats stats = {0};
    wt_device_set set = {.count = count};
    for (int d = 0; d < count; d++) wt_device_of(wt_backend_of(WT_BACKEND_CUDA), d, &set.at[d]);
    double t0 = now_s();
    wt_status st = count > 1 ? wt_descent_split(&set, inst, tour, &ctl, &stats, &err)
                             : wt_twoopt_descend(&set.at[0], inst, tour, &ctl, &stats, &err);
    *seconds = now_s() - t0;
    if (st != WT_OK) fail_msg("descent on %d GPUs: %s", count, err.message);
    assert_int_equal(wt_tour_validate(tour, inst->n, NULL), WT_OK);
    return tour;
}

static void test_split_first_descent(void **state)
{
    (void)state;
    wt_instance *inst = NULL;
    wt_error err = {0};
    if (wt_instance_generate(WT_GEN_UNIFORM, 300000, 2, &inst, &err) != WT_OK)
        fail_msg("generate: %s", err.message);
    int32_t *start = malloc((size_t)inst->n * sizeof *start);
    assert_int_equal(wt_tour_init(inst, WT_INIT_GREEDY, 1, start, &err), WT_OK);
    double s1, s2, s3;
    int32_t *one = descend_on(inst, 1, &s1), *a = descend_on(inst, 2, &s2),
            *b = descend_on(inst, 2, &s3);
    int64_t l0 = wt_tour_length(inst, start), l1 = wt_tour_length(inst, one),
            l2 = wt_tour_length(inst, a);
    print_message("    300,000 cities from %lld: one GPU %lld in %.2f s, split over two %lld in "
                  "%.2f s and %.2f s\n", (long long)l0, (long long)l1, s1, (long long)l2, s2, s3);
    assert_memory_equal(a, b, (size_t)inst->n * sizeof *a);
    assert_true(l2 < l0);
    assert_true((double)l2 <= 1.01 * (double)l1);
    free(start);
    free(one);
    free(a);
    free(b);
    wt_instance_free(inst);
}

/* A solve where the first descent splits: valid and exact. */
static void test_split_solve(void **state)
{
    (void)state;
    wt_instance *inst = NULL;
    wt_error err = {0};
    if (wt_instance_generate(WT_GEN_UNIFORM, WT_DESCENT_SPLIT_CITIES, 3, &inst, &err) != WT_OK)
        fail_msg("generate: %s", err.message);
    wt_params p;
    wt_params_defaults(&p);
    p.time_limit_s = 30;
    p.device_count = 2;
    p.devices[0] = 0;
    p.devices[1] = 1;
    wt_result r;
    if (wt_solve(inst, &p, &r, &err) != WT_OK) fail_msg("wt_solve: %s", err.message);
    print_message("    %d cities: length %lld from %lld, %.2f s, %llu kicks, %s\n", inst->n,
                  (long long)r.length, (long long)r.init_length, r.time_s,
                  (unsigned long long)r.ils.kicks, r.device);
    assert_int_equal(wt_tour_validate(r.tour, r.n, NULL), WT_OK);
    assert_int_equal(r.length, wt_tour_length(inst, r.tour));
    assert_true(r.length <= r.init_length); /* a time limit promises no work */
    wt_result_free(&r);
    wt_instance_free(inst);
}

/* How many GPUs are usable. */
static int usable_gpus(void)
{
    wt_device_info info[32];
    int count = wt_device_list(info, 32), gpus = 0;
    for (int i = 0; i < count && i < 32; i++) gpus += !info[i].host && info[i].usable;
    return gpus;
}

int main(void)
{
    bool as_cpu;
    int st = gpu_test_begin(&as_cpu);
    if (st) return st;
    int gpus = as_cpu ? 0 : usable_gpus();
    if (gpus < 2) {
        fprintf(stderr, "skipped: several GPUs are needed, %d usable%s\n", gpus,
                as_cpu ? " (WT_TEST_GPU_AS_CPU)" : "");
        return WT_TEST_SKIP_CODE;
    }
    gpu_test_filters();
    const struct CMUnitTest tests[] = {
        GPU_TEST(test_batch_same_as_one_gpu), GPU_TEST(test_batch_time_limit_progress),
        GPU_TEST(test_batch_stop_flag),       GPU_TEST(test_large_windows),
        GPU_TEST(test_large_concurrent),      GPU_TEST(test_split_first_descent),
        GPU_TEST(test_split_solve),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
