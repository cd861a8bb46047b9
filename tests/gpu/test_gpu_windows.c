/*
 * test_gpu_windows.c - the window search of one large tour on the GPU
 * (algo/windows.c over backend/cuda/batch.cu) against the host's.
 *
 * The GPU's distances are the host's (double, same operations), so a
 * round's windows come out equal to the host's for the same seed and kick
 * budget on every metric but GEO: the same tour and gain, every window on
 * the GPU.  GEO: a valid tour, ends kept, the gain exact.  A million
 * uniform cities: rounds of a thousand windows under a time limit
 * complete with a valid tour whose gain is exact; the line it prints
 * (windows_million ...) gives the GPU kernels' share of the search's wall
 * time.  Concurrent windows next to the host's LK searches (auto, a time
 * limit): a valid tour of exact length within the limit, the GPU's kernels
 * busy; one round's improved paths spliced into the tour exactly.
 * Resident windows (the instance and its lists kept on the GPU, the
 * windows made there): the same tours, gains and kicks as the rounds that
 * cut them on the host, on one GPU and over two.
 *
 * Skipped (exit 77) without a usable GPU; WT_TEST_GPU_AS_CPU=1 runs the
 * "GPU" side on the CPU to check the test's own logic.
 */
#include "gpu_test.h"
#include "warptour_experimental.h"

#include "batch_test_util.h"

#include "algo/devices.h"
#include "algo/windows.h"
#include "algo/windows_concurrent.h"
#include "core/neighbours.h"
#include "core/search_ctl.h"

static bool gpu_is_cpu;

/* The device that backend b runs on here: GPU 0, or the host's (also for
 * the GPU when gpu_is_cpu). */
static const wt_device *device_of(wt_backend_kind b)
{
    static wt_device host, gpu;
    wt_device_host(&host);
    wt_device_of(wt_backend_of(WT_BACKEND_CUDA), 0, &gpu);
    return b == WT_BACKEND_CUDA && !gpu_is_cpu ? &gpu : &host;
}

static wt_windows_opts opts(wt_backend_kind backend, int window, int offset, uint64_t kicks)
{
    wt_windows_opts o = {0};
    o.window = window;
    o.offset = offset;
    o.kicks = kicks;
    o.seed = 7;
    o.device = device_of(backend);
    o.replicas = 3;
    return o;
}

static int32_t *start_tour(const wt_instance *inst, wt_init_method method)
{
    int32_t *t = malloc((size_t)wt_instance_n(inst) * sizeof *t);
    wt_error err = {0};
    if (wt_tour_init(inst, method, 1, t, &err) != WT_OK) fail_msg("%s", err.message);
    return t;
}

/* One round on tour; checks validity, kept ends and the exact gain. */
static wt_windows_round run_round(const wt_instance *inst, int32_t *tour, const wt_windows_opts *o)
{
    int n = wt_instance_n(inst), count = n / o->window > 0 ? n / o->window : 1;
    int32_t *before = malloc((size_t)n * sizeof *before);
    memcpy(before, tour, (size_t)n * sizeof *tour);
    int64_t len0 = wt_tour_length(inst, tour);
    wt_windows_round e;
    wt_error err = {0};
    if (wt_windows_round_run(inst, tour, o, &e, &err) != WT_OK)
        fail_msg("wt_windows_round_run: %s", err.message);
    assert_int_equal(wt_tour_validate(tour, n, NULL), WT_OK);
    assert_int_equal(len0 - wt_tour_length(inst, tour), e.gain);
    for (int w = 0; w < count; w++) {
        int p0 = (int)((o->offset + (int64_t)w * n / count) % n);
        int p1 = (int)((o->offset + (int64_t)(w + 1) * n / count - 1) % n);
        assert_int_equal(tour[p0], before[p0]);
        assert_int_equal(tour[p1], before[p1]);
    }
    free(before);
    return e;
}

/* The round of o (with candidates) over the first `gpus` GPUs, from the
 * start tour of method, on resident windows (algo/windows.h) and cutting
 * its windows on the host: the same tour, gain and kicks. */
static void compare_resident(const wt_instance *inst, wt_init_method method,
                             const wt_windows_opts *o, int gpus)
{
    if (gpu_is_cpu) return; /* the host keeps no resident windows */
    int n = wt_instance_n(inst), most = 2 * o->window - 1 < n ? 2 * o->window - 1 : n;
    wt_device_set set;
    int listed[2] = {0, 1};
    char names[128];
    wt_error err = {0};
    if (wt_devices_expand(o->device, listed, gpus, true, &set, names, sizeof names, &err) != WT_OK)
        fail_msg("wt_devices_expand: %s", err.message);
    wt_windows_opts r = *o;
    r.devices = gpus > 1 ? &set : NULL;
    int32_t *cut = start_tour(inst, method), *t = start_tour(inst, method);
    wt_windows_round e = run_round(inst, cut, &r);
    if (wt_windows_resident_open(inst, o->device, r.devices, o->candidates, o->candidates_k, most,
                                 &r.resident, &err) != WT_OK)
        fail_msg("wt_windows_resident_open: %s", err.message);
    wt_windows_round er = run_round(inst, t, &r);
    print_message("    resident on %d GPU%s: gain %lld, GPU %.3f s, round %.3f s (cut on the "
                  "host: %.3f s)\n", gpus, gpus > 1 ? "s" : "", (long long)er.gain, er.gpu_s,
                  er.wall_s, e.wall_s);
    assert_int_equal(er.windows, e.windows);
    assert_int_equal(er.gain, e.gain);
    assert_int_equal(er.kicks, e.kicks);
    assert_memory_equal(t, cut, (size_t)n * sizeof *t);
    wt_windows_resident_close(r.resident);
    free(cut);
    free(t);
}

/* The same round on both sides: equal tours, gains and kicks.  cand: the
 * windows' lists cut from these (n rows of 10), else their own nearest;
 * three_opt: the windows' 3-opt breadth (wt_windows_opts). */
static void compare_moves(const wt_instance *inst, wt_init_method method, int window, int offset,
                          uint64_t kicks, const int32_t *cand, int three_opt)
{
    int n = wt_instance_n(inst);
    int32_t *g = start_tour(inst, method), *c = start_tour(inst, method);
    wt_windows_opts go = opts(WT_BACKEND_CUDA, window, offset, kicks);
    wt_windows_opts co = opts(WT_BACKEND_CPU, window, offset, kicks);
    go.three_opt = co.three_opt = three_opt;
    go.candidates = co.candidates = cand;
    go.candidates_k = co.candidates_k = 10;
    wt_windows_round eg = run_round(inst, g, &go), ec = run_round(inst, c, &co);
    print_message("    %d cities, %d windows: gain %lld, GPU %.3f s of %.3f s\n", n, eg.windows,
                  (long long)eg.gain, eg.gpu_s, eg.search_s);
    if (!gpu_is_cpu) assert_int_equal(eg.on_gpu, eg.windows);
    assert_int_equal(eg.gain, ec.gain);
    assert_int_equal(eg.kicks, ec.kicks);
    assert_memory_equal(g, c, (size_t)n * sizeof *g);
    if (cand) compare_resident(inst, method, &go, 1);
    free(g);
    free(c);
}

static void compare(const wt_instance *inst, wt_init_method method, int window, int offset,
                    uint64_t kicks, const int32_t *cand)
{
    compare_moves(inst, method, window, offset, kicks, cand, 0);
}

/* Uniform and clustered-like integer points, real points, window sizes
 * from a warp's to a block's; 3-opt items of two breadths. */
static void test_equal_to_host(void **state)
{
    (void)state;
    wt_instance *inst = wt_test_random_instance(20000, 5);
    compare(inst, WT_INIT_GREEDY, 150, 123, 40, NULL);
    compare(inst, WT_INIT_GREEDY, 1000, 19999, 40, NULL);
    compare(inst, WT_INIT_SPACEFILL, 3000, 7, 20, NULL);
    int32_t *cand = malloc(20000 * 10 * sizeof *cand);
    wt_error e = {0};
    if (wt_neighbour_lists(inst, 10, cand, &e) != WT_OK) fail_msg("%s", e.message);
    compare(inst, WT_INIT_GREEDY, 1000, 77, 40, cand);
    compare_moves(inst, WT_INIT_GREEDY, 1000, 5, 40, cand, 3);
    compare_moves(inst, WT_INIT_SPACEFILL, 150, 9, 40, NULL, 5);
    free(cand);
    wt_instance_free(inst);
    double x[5000], y[5000];
    for (int i = 0; i < 5000; i++) {
        x[i] = 0.001 * (double)((i * 7919) % 5003) + 1e-4 * (double)(i % 7);
        y[i] = 0.001 * (double)((i * 104729) % 4999);
    }
    wt_instance *real = NULL;
    wt_error err = {0};
    assert_int_equal(wt_instance_from_coords("real", 5000, WT_EUC_2D_REAL, x, y, NULL, &real, &err),
                     WT_OK);
    compare(real, WT_INIT_GREEDY, 400, 11, 40, NULL);
    wt_instance_free(real);
}

/* Resident windows at 200,000 cities: every other window (both phases),
 * the searches a window that WT_WINDOW_FILL asks for, 3-opt items, the
 * lists cut from twelve candidates: the host's tour on one GPU, and the
 * rounds that cut their windows on the host on one GPU and (where there
 * are two) over two. */
static void test_resident(void **state)
{
    (void)state;
    enum { N = 200000 };
    wt_instance *inst = wt_test_random_instance(N, 12);
    int32_t *cand = malloc((size_t)N * 12 * sizeof *cand);
    wt_error e = {0};
    if (wt_neighbour_lists(inst, 12, cand, &e) != WT_OK) fail_msg("%s", e.message);
    for (int phase = 0; phase < 2; phase++) {
        wt_windows_opts go = opts(WT_BACKEND_CUDA, 500, 1000 + 77 * phase, 15);
        go.replicas = 0;
        go.stride = 2;
        go.phase = phase;
        go.three_opt = 5;
        go.candidates = cand;
        go.candidates_k = 12;
        wt_windows_opts co = go;
        co.device = device_of(WT_BACKEND_CPU);
        int32_t *g = start_tour(inst, WT_INIT_GREEDY), *c = start_tour(inst, WT_INIT_GREEDY);
        wt_windows_round eg = run_round(inst, g, &go), ec = run_round(inst, c, &co);
        assert_int_equal(eg.gain, ec.gain);
        assert_memory_equal(g, c, (size_t)N * sizeof *g);
        compare_resident(inst, WT_INIT_GREEDY, &go, 1);
        if (wt_devices_cuda_count() >= 2) compare_resident(inst, WT_INIT_GREEDY, &go, 2);
        free(g);
        free(c);
    }
    free(cand);
    wt_instance_free(inst);
}

/* TSPLIB instances of other metrics (skipped without the collection):
 * ATT, CEIL_2D and EXPLICIT equal the host's; GEO valid and exact. */
static void test_tsplib_metrics(void **state)
{
    (void)state;
    const char *dir = wt_test_tsplib_dir();
    if (!dir) {
        print_message("    no TSPLIB collection: skipped\n");
        return;
    }
    const char *files[] = {"att532.tsp", "dsj1000.tsp", "gr431.tsp", "usa13509.tsp", "ali535.tsp"};
    for (size_t f = 0; f < sizeof files / sizeof *files; f++) {
        char *path = wt_test_path(dir, files[f]);
        wt_instance *inst = NULL;
        wt_error err = {0};
        if (wt_instance_read_tsplib(path, &inst, &err) != WT_OK)
            fail_msg("%s: %s", path, err.message);
        free(path);
        int n = wt_instance_n(inst), w = n > 3000 ? 1000 : n / 3;
        if (strcmp(files[f], "ali535.tsp") != 0) {
            compare(inst, WT_INIT_GREEDY, w, 3, 30, NULL);
        } else {
            int32_t *g = start_tour(inst, WT_INIT_GREEDY);
            wt_windows_opts o = opts(WT_BACKEND_CUDA, w, 3, 30);
            run_round(inst, g, &o);
            free(g);
        }
        wt_instance_free(inst);
    }
}

/* A million uniform cities: one round by kicks, then a timed search of
 * rounds; the tour valid and the gains exact throughout. */
static void test_million(void **state)
{
    (void)state;
    enum { N = 1000000 };
    wt_instance *inst = wt_test_random_instance(N, 1);
    int32_t *tour = start_tour(inst, WT_INIT_SPACEFILL);
    int64_t len0 = wt_tour_length(inst, tour);
    wt_windows_opts o = opts(WT_BACKEND_CUDA, 1000, 4321, 20);
    o.replicas = 0; /* 1,000 windows: one search each */
    double t0 = now_s();
    wt_windows_round e = run_round(inst, tour, &o);
    print_message("    windows_round n=%d windows=%d kicks=%llu gain=%lld wall_s=%.3f "
                  "search_s=%.3f gpu_kernel_s=%.3f\n", N, e.windows, (unsigned long long)e.kicks,
                  (long long)e.gain, now_s() - t0, e.search_s, e.gpu_s);
    assert_int_equal(e.windows, 1000);
    assert_true(e.gain > 0);

    wt_params p;
    wt_params_defaults(&p);
    p.algorithm = WT_ALGO_2OPT; /* the default is ils */
    p.time_limit_s = 6;
    p.seed = 3;
    wt_search_ctl ctl;
    wt_ctl_init(&ctl, &p);
    wt_search_stats stats = {0};
    int64_t len1 = wt_tour_length(inst, tour);
    wt_error err = {0};
    t0 = now_s();
    bool handed_over = true;
    wt_status st = wt_windows_search(inst, tour, &ctl, device_of(WT_BACKEND_CUDA), 0, 0,
                                     &handed_over, &stats, &err);
    double wall = now_s() - t0;
    if (st != WT_OK) fail_msg("wt_windows_search: %s", err.message);
    assert_int_equal(wt_tour_validate(tour, N, NULL), WT_OK);
    int64_t len2 = wt_tour_length(inst, tour);
    print_message("    windows_million n=%d start=%lld after_round=%lld end=%lld rounds=%llu "
                  "kicks=%llu wall_s=%.3f gpu_kernel_s=%.3f gpu_busy=%.3f\n", N, (long long)len0,
                  (long long)len1, (long long)len2, (unsigned long long)stats.passes,
                  (unsigned long long)stats.kicks, wall, stats.gpu_time_s,
                  stats.gpu_time_s / wall);
    assert_true(len2 < len1);
    assert_false(handed_over);
    assert_true(wall < 8.0);
    free(tour);
    wt_instance_free(inst);
}

/* One concurrent round on the GPU from the greedy tour of 20,000 cities, its
 * windows' lists cut from the host's: its improved paths keep one cycle and their
 * gain is exact. */
static void test_concurrent_round(void **state)
{
    (void)state;
    enum { N = 20000 };
    wt_instance *inst = wt_test_random_instance(N, 5);
    int32_t *tour = start_tour(inst, WT_INIT_GREEDY), *after = malloc(N * sizeof *after);
    memcpy(after, tour, N * sizeof *after);
    wt_concurrent_windows *b = NULL;
    wt_error err = {0};
    int32_t *cand = malloc(N * 10 * sizeof *cand);
    if (wt_neighbour_lists(inst, 10, cand, &err) != WT_OK) fail_msg("%s", err.message);
    wt_concurrent_opts o = {.device = device_of(WT_BACKEND_CUDA), .seed = 3, .round_s = 1.0,
                            .window = WT_WINDOW_CITIES, .candidates = cand, .candidates_k = 10};
    if (wt_concurrent_open(inst, &o, &b, &err) != WT_OK)
        fail_msg("wt_concurrent_open: %s", err.message);
    double deadline = wt_now() + 0.5; /* the library's clock */
    wt_concurrent_start(b, tour, deadline);
    while (wt_now() < deadline + 0.2) {} /* a splice that waits asks the round to end */
    int64_t gain = 0;
    assert_true(wt_concurrent_splice(b, after, true, &gain));
    assert_int_equal(wt_tour_validate(after, N, NULL), WT_OK);
    assert_true(gain > 0);
    assert_int_equal(wt_tour_length(inst, tour) - wt_tour_length(inst, after), gain);
    print_message("    concurrent_round n=%d gain=%lld gpu_kernel_s=%.3f\n", N, (long long)gain,
                  wt_concurrent_gpu_s(b));
    wt_concurrent_close(b);
    free(cand);
    free(after);
    free(tour);
    wt_instance_free(inst);
}

/* ILS under auto and a limit of `seconds` on n uniform cities: the host's
 * LK searches (30,000 cities) or local ones after the GPU's first descent
 * (300,000) with the GPU's concurrent windows. */
static void concurrent_solve(int N, double seconds)
{
    wt_instance *inst = wt_test_random_instance(N, 6);
    wt_params p;
    wt_params_defaults(&p);
    p.algorithm = WT_ALGO_ILS;
    p.time_limit_s = seconds;
    wt_tuning t = {0}; /* the GPU takes part under any limit, 3 s too */
    t.auto_device_min_ms = WT_TUNING_OFF;
    p.tuning = &t;
    wt_result r = {0};
    wt_error err = {0};
    double t0 = now_s();
    if (wt_solve(inst, &p, &r, &err) != WT_OK) fail_msg("wt_solve: %s", err.message);
    double wall = now_s() - t0;
    assert_int_equal(wt_tour_validate(r.tour, N, NULL), WT_OK);
    assert_int_equal(wt_tour_length(inst, r.tour), r.length);
    double span = r.ils.concurrent_windows_s;
    print_message("    concurrent_solve n=%d length=%lld stop=%s kicks=%llu wall_s=%.3f "
                  "search_s=%.3f "
                  "gpu_kernel_s=%.3f gpu_busy=%.3f concurrent_windows_s=%.3f "
                  "busy_from_first_round=%.3f device=%s\n", N, (long long)r.length,
                  wt_stop_reason_name(r.stop), (unsigned long long)r.ils.kicks, wall,
                  r.search_time_s, r.ils.gpu_time_s, r.ils.gpu_time_s / r.search_time_s, span,
                  span > 0 ? r.ils.gpu_time_s / span : 0.0, r.device);
    assert_true(wall < p.time_limit_s + 0.3);
    if (!gpu_is_cpu) {
        assert_non_null(strstr(r.device, "concurrent"));
        assert_true(r.ils.gpu_time_s > 0);
    }
    wt_result_free(&r);
    wt_instance_free(inst);
}

/* An open path of n uniform cities from city 0 to city n / 2 under auto's
 * backend and local descents (auto takes LK there from 200 µs of thread
 * time a city with the GPU's ascent) and a limit of `seconds` (both ends
 * fixed), or without one
 * and `kicks` kicks: the GPU's first descent of the cities as a tour, the
 * ends joined again, and under the limit its concurrent windows, whose
 * splices keep the closing edge; the path runs between its ends, its
 * length exact. */
static void concurrent_open_path(int N, double seconds, uint64_t kicks)
{
    wt_instance *inst = wt_test_random_instance(N, 8);
    wt_params p;
    wt_params_defaults(&p);
    p.algorithm = WT_ALGO_ILS;
    p.ils_descent = WT_ILS_LOCAL;
    p.time_limit_s = seconds;
    p.kicks = kicks;
    p.start_city = 0;
    p.end_city = N / 2;
    wt_result r = {0};
    wt_error err = {0};
    double t0 = now_s();
    if (wt_solve(inst, &p, &r, &err) != WT_OK) fail_msg("wt_solve: %s", err.message);
    double wall = now_s() - t0;
    assert_true(r.open);
    assert_int_equal(wt_tour_validate(r.tour, N, NULL), WT_OK);
    assert_int_equal(r.tour[0], 0);
    assert_int_equal(r.tour[N - 1], N / 2);
    int64_t len = 0;
    for (int i = 0; i + 1 < N; i++) len += wt_instance_dist(inst, r.tour[i], r.tour[i + 1]);
    assert_int_equal(r.length, len);
    print_message("    concurrent_open_path n=%d length=%lld init=%lld stop=%s kicks=%llu "
                  "wall_s=%.3f gpu_kernel_s=%.3f device=%s\n", N, (long long)r.length,
                  (long long)r.init_length, wt_stop_reason_name(r.stop),
                  (unsigned long long)r.ils.kicks, wall, r.ils.gpu_time_s, r.device);
    if (seconds > 0) assert_true(wall < p.time_limit_s + 0.5);
    if (!gpu_is_cpu) {
        assert_non_null(strstr(r.device, "first descent"));
        assert_non_null(strstr(r.device, "local descents"));
        assert_true(r.scan.passes > 0); /* the GPU's first descent */
        if (seconds > 0) {
            assert_non_null(strstr(r.device, "concurrent"));
            assert_true(r.ils.gpu_time_s > 0); /* the windows' kernels */
        }
    }
    wt_result_free(&r);
    wt_instance_free(inst);
}

static void test_concurrent_open_path(void **state)
{
    (void)state;
    concurrent_open_path(300000, 5, 0);
    concurrent_open_path(300000, 0, 20000);
}

static void test_concurrent_solve(void **state)
{
    (void)state;
    concurrent_solve(30000, 3);
    concurrent_solve(300000, 5);
}

int main(void)
{
    int st = gpu_test_begin(&gpu_is_cpu);
    if (st) return st;
    gpu_test_filters();
    const struct CMUnitTest tests[] = {
        GPU_TEST(test_equal_to_host),
        GPU_TEST(test_resident),
        GPU_TEST(test_tsplib_metrics),
        GPU_TEST(test_million),
        GPU_TEST(test_concurrent_round),
        GPU_TEST(test_concurrent_solve),
        GPU_TEST(test_concurrent_open_path),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
