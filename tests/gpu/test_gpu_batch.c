/*
 * test_gpu_batch.c - solve-batch on the GPU against the CPU reference.
 *
 * The GPU computes its distances in double with the host's operations, so
 * for the same seed and kick budget its tours equal the CPU's on every
 * edge weight type but GEO (whose device cosines may differ in the last
 * bit): equal tours, lengths and kick counts for every group size (warps
 * and blocks of 64 to 256 threads), n from 5 to 2000, integer and real
 * coordinates, EXPLICIT matrices.  GEO instances: valid tours with exact
 * lengths.  A batch cut into many parts (a part size forced small) gives
 * the tours of one part; instances too large for shared memory run on the
 * CPU beside the GPU's; a time limit and the stop flag are honoured; ten
 * thousand instances of 100 cities under a time limit all come back valid.
 *
 * Skipped (exit 77) without a usable GPU; WT_TEST_GPU_AS_CPU=1 runs the
 * "GPU" side on the CPU to check the test's own logic.
 */
#include "gpu_test.h"

#include "batch_test_util.h"

#include <math.h>

static bool gpu_is_cpu;

static wt_batch_params params(wt_backend_kind backend, uint64_t kicks)
{
    wt_batch_params p;
    wt_batch_params_defaults(&p);
    p.backend = backend == WT_BACKEND_CUDA && gpu_is_cpu ? WT_BACKEND_CPU : backend;
    p.kicks = kicks;
    p.threads = 4;
    p.search = WT_BATCH_SEARCH_BATCH; /* under time limits too: the GPU's search alone */
    return p;
}

/* Every instance has a valid tour with its exact length. */
static void check_valid(wt_instance *const *in, const wt_batch_result *r)
{
    assert_int_equal(r->failed, 0);
    batch_check_tours(in, r);
}

/* Solves in on both sides with the same settings; checks equal results
 * and that the GPU ran them all. */
static void compare(wt_instance *const *in, int count, wt_batch_params gp)
{
    wt_batch_params cp = gp;
    cp.backend = WT_BACKEND_CPU;
    wt_batch_result g = batch_solve(in, count, &gp), c = batch_solve(in, count, &cp);
    check_valid(in, &g);
    if (!gpu_is_cpu) assert_int_equal(g.on_gpu, count);
    batch_assert_same(&g, &c);
    wt_batch_result_free(&g);
    wt_batch_result_free(&c);
}

/* EUC_2D from 5 to 2000 cities: every default group size. */
static void test_equal_tours_by_size(void **state)
{
    (void)state;
    const int sizes[] = {5, 8, 13, 50, 100, 200, 201, 500, 501, 1000, 2000};
    for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; z++) {
        int count = sizes[z] <= 200 ? 64 : 8;
        wt_instance **in = batch_uniform_set(count, sizes[z], 100 * z);
        print_message("    n %d x %d\n", sizes[z], count);
        compare(in, count, params(WT_BACKEND_CUDA, sizes[z] <= 500 ? 500 : 100));
        batch_set_free(in, count);
    }
}

/* Every group size for the same instances: the same tours. */
static void test_equal_tours_by_group(void **state)
{
    (void)state;
    const int groups[] = {32, 64, 128, 256};
    wt_instance **in = batch_uniform_set(16, 300, 7);
    for (size_t g = 0; g < sizeof groups / sizeof groups[0]; g++) {
        wt_batch_params p = params(WT_BACKEND_CUDA, 300);
        p.gpu_threads = groups[g];
        compare(in, 16, p);
    }
    batch_set_free(in, 16);
}

/* Sequential 3-opt items of breadths 1 to 8, with kicks of three and four
 * edges, on every group size: the same tours. */
static void test_equal_tours_three_opt(void **state)
{
    (void)state;
    const int sizes[] = {13, 100, 300, 1000};
    for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; z++) {
        int count = sizes[z] <= 200 ? 64 : 8;
        wt_instance **in = batch_uniform_set(count, sizes[z], 300 + z);
        for (int breadth = 1; breadth <= 8; breadth += 2 + (breadth == 5)) {
            wt_batch_params p = params(WT_BACKEND_CUDA, sizes[z] <= 300 ? 300 : 100);
            p.three_opt = breadth;
            p.kick_edges = breadth == 3 ? 3 : 0;
            print_message("    n %d x %d, 3-opt breadth %d\n", sizes[z], count, breadth);
            compare(in, count, p);
        }
        batch_set_free(in, count);
    }
}

/* n points of type (coordinates in [0, scale), integers when whole). */
static wt_instance *points(int n, wt_edge_weight_type type, double scale, bool whole,
                           uint64_t seed)
{
    wt_rng rng;
    wt_rng_seed(&rng, seed);
    double *x = malloc(3 * (size_t)n * sizeof *x);
    for (int i = 0; i < 3 * n; i++) {
        x[i] = scale * wt_rng_uniform(&rng);
        if (whole) x[i] = floor(x[i]);
    }
    wt_instance *inst = NULL;
    wt_error err = {0};
    bool three = type == WT_EUC_3D || type == WT_EUC_3D_REAL;
    if (wt_instance_from_coords("p", n, type, x, x + n, three ? x + 2 * n : NULL, &inst, &err) !=
        WT_OK)
        fail_msg("from_coords: %s", err.message);
    free(x);
    return inst;
}

/* Every metric but GEO, and real coordinates: equal tours. */
static void test_equal_tours_by_type(void **state)
{
    (void)state;
    const wt_edge_weight_type types[] = {WT_EUC_2D, WT_CEIL_2D, WT_ATT, WT_MAN_2D,
                                         WT_MAX_2D, WT_EUC_3D, WT_EUC_2D_REAL, WT_EUC_3D_REAL};
    enum { T = sizeof types / sizeof types[0], PER = 6 };
    wt_instance *in[T * PER + 3];
    int count = 0;
    for (int t = 0; t < T; t++)
        for (int k = 0; k < PER; k++)
            in[count++] = points(60 + 37 * k, types[t], k % 2 ? 1e6 : 1000,
                                 types[t] < WT_EUC_2D_REAL, (uint64_t)(10 * t + k));
    const char *files[] = {"gr24.tsp", "bays29.tsp", "fri26.tsp"}; /* EXPLICIT */
    for (int f = 0; f < 3; f++) {
        char *path = wt_test_path(wt_test_data_dir(), files[f]);
        wt_error err = {0};
        if (wt_instance_read(path, &in[count++], &err) != WT_OK) fail_msg("%s", err.message);
        free(path);
    }
    compare(in, count, params(WT_BACKEND_CUDA, 400));
    for (int i = 0; i < count; i++) wt_instance_free(in[i]);
}

/* GEO: the device's cosines may differ in the last bit, so only valid
 * tours with exact lengths are asked for. */
static void test_geo_valid(void **state)
{
    (void)state;
    char *path = wt_test_path(wt_test_data_dir(), "ulysses22.tsp");
    wt_instance *in[1];
    wt_error err = {0};
    if (wt_instance_read(path, &in[0], &err) != WT_OK) fail_msg("%s", err.message);
    free(path);
    wt_batch_params p = params(WT_BACKEND_CUDA, 2000);
    wt_batch_result r = batch_solve(in, 1, &p);
    check_valid(in, &r);
    assert_int_equal(r.tours[0].length, wt_instance_known_optimum(in[0]));
    wt_batch_result_free(&r);
    wt_instance_free(in[0]);
}

/* A part size forced small: hundreds of parts, the tours of one. */
static void test_parts(void **state)
{
    (void)state;
    enum { COUNT = 700 };
    wt_instance **in = batch_uniform_set(COUNT, 100, 5);
    wt_batch_params whole = params(WT_BACKEND_CUDA, 200), parts = whole;
    parts.gpu_part_bytes = 64 * 1024; /* about 5 instances a part */
    wt_batch_result a = batch_solve(in, COUNT, &whole), b = batch_solve(in, COUNT, &parts);
    check_valid(in, &b);
    batch_assert_same(&b, &a);
    wt_batch_result_free(&a);
    wt_batch_result_free(&b);
    compare(in, 50, parts);
    batch_set_free(in, COUNT);
}

/* Instances too large for a group's shared memory run on the CPU, the
 * others on the GPU; both sides' tours are the CPU's. */
static void test_mixed_sides(void **state)
{
    (void)state;
    wt_instance *in[4] = {wt_test_random_instance(100, 1), wt_test_random_instance(5000, 2),
                          wt_test_random_instance(300, 3), wt_test_random_instance(50, 4)};
    wt_batch_params gp = params(WT_BACKEND_CUDA, 20), cp = gp;
    cp.backend = WT_BACKEND_CPU;
    wt_batch_result g = batch_solve(in, 4, &gp), c = batch_solve(in, 4, &cp);
    check_valid(in, &g);
    if (!gpu_is_cpu) {
        assert_false(g.tours[1].on_gpu);
        assert_true(g.tours[0].on_gpu && g.tours[2].on_gpu && g.tours[3].on_gpu);
        assert_string_equal(g.backend, "cuda+cpu");
    }
    batch_assert_same(&g, &c);
    wt_batch_result_free(&g);
    wt_batch_result_free(&c);
    for (int i = 0; i < 4; i++) wt_instance_free(in[i]);
}

/* Ten thousand instances of 100 cities under a 3 s limit (the issue's
 * first set): all valid, the limit kept. */
static void test_ten_thousand_time_limit(void **state)
{
    (void)state;
    enum { COUNT = 10000 };
    wt_instance **in = batch_uniform_set(COUNT, 100, 1);
    wt_batch_params p = params(WT_BACKEND_CUDA, 0);
    p.threads = 0;
    p.time_limit_s = 3.0;
    double t0 = now_s();
    wt_batch_result r = batch_solve(in, COUNT, &p);
    double took = now_s() - t0;
    uint64_t least = UINT64_MAX;
    for (int i = 0; i < COUNT; i++) least = r.tours[i].kicks < least ? r.tours[i].kicks : least;
    print_message("    %.3f s, %llu kicks (%.0f/s), least kicks an instance %llu, %s\n", took,
                  (unsigned long long)r.kicks, (double)r.kicks / took, (unsigned long long)least,
                  r.device);
    check_valid(in, &r);
    assert_true(took < 3.5);
    assert_int_equal(r.stop, WT_STOP_DONE);
    wt_batch_result_free(&r);
    batch_set_free(in, COUNT);
}

/* The stop flag: kicks stop at once, every tour still valid. */
static void test_stop_flag(void **state)
{
    (void)state;
    wt_instance **in = batch_uniform_set(200, 200, 9);
    wt_batch_params p = params(WT_BACKEND_CUDA, 100000000);
    volatile int flag = 1;
    p.stop_flag = &flag;
    double t0 = now_s();
    wt_batch_result r = batch_solve(in, 200, &p);
    assert_true(now_s() - t0 < 3.0);
    assert_int_equal(r.stop, WT_STOP_INTERRUPTED);
    check_valid(in, &r);
    wt_batch_result_free(&r);
    batch_set_free(in, 200);
}

/* auto under a time limit: the host's LK ILS, with the GPU's batch search
 * on the same instances beside it; every tour valid and exact, the limit
 * kept, the progress never going back. */
static int progress_forward(const wt_batch_progress *pr, void *user)
{
    uint64_t *last = user;
    assert_true(pr->kicks >= last[0] && (uint64_t)pr->done >= last[1]);
    assert_true(pr->done <= pr->count);
    last[0] = pr->kicks;
    last[1] = (uint64_t)pr->done;
    return 0;
}

static void test_beside_the_hosts_lk(void **state)
{
    (void)state;
    enum { COUNT = 64 };
    wt_instance **in = batch_uniform_set(COUNT, 300, 11);
    wt_batch_params p = params(WT_BACKEND_CUDA, 0);
    p.search = WT_BATCH_SEARCH_AUTO;
    p.time_limit_s = 1.5;
    p.progress_interval_s = 0.05;
    uint64_t last[2] = {0, 0};
    p.progress = progress_forward;
    p.progress_user = last;
    double t0 = now_s();
    wt_batch_result r = batch_solve(in, COUNT, &p);
    double took = now_s() - t0;
    print_message("    %.3f s, %llu kicks, %d of %d tours the GPU's, %s\n", took,
                  (unsigned long long)r.kicks, r.on_gpu, COUNT, r.backend);
    check_valid(in, &r);
    assert_true(took < 2.0);
    assert_int_equal(r.stop, WT_STOP_DONE);
    wt_batch_result_free(&r);
    batch_set_free(in, COUNT);
}

int main(void)
{
    int st = gpu_test_begin(&gpu_is_cpu);
    if (st) return st;
    gpu_test_filters();
    const struct CMUnitTest tests[] = {
        GPU_TEST(test_equal_tours_by_size),     GPU_TEST(test_equal_tours_by_group),
        GPU_TEST(test_equal_tours_by_type),     GPU_TEST(test_geo_valid),
        GPU_TEST(test_parts),                   GPU_TEST(test_mixed_sides),
        GPU_TEST(test_ten_thousand_time_limit), GPU_TEST(test_stop_flag),
        GPU_TEST(test_equal_tours_three_opt),   GPU_TEST(test_beside_the_hosts_lk),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
