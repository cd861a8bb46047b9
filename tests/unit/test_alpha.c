/*
 * test_alpha.c - where the search's Held-Karp ascent runs (algo/alpha.h):
 * the device wt_alpha_device picks (the host's on a machine or a build
 * without a GPU's ascent), the host's ascent in place of a device's slot
 * that refuses an instance (UNSUPPORTED, OUT_OF_MEMORY) with the same
 * result, a device's other errors passed on, the share and first period
 * by device (algo/policy.h), the graph's clusters joined the same way
 * on any thread count, and the bound of instances whose distances the
 * ascent's fixed point cannot hold (real-valued points, coordinates in
 * the billions), from a scaled copy, the graph's repair where its
 * quadrant graph is too sparse, and its lists from a device's slot
 * (backend.h, neighbours) with the host's in place of a refusal; the
 * bound's ascent beside a search (algo/alpha_beside.h): the bound of the
 * same plan in place, the host's where the device refuses, a prompt stop,
 * its bound in the search's reports, and the local descents' policy.
 */
#include "test_util.h"

#include <math.h>
#include <time.h>

#include "algo/alpha.h"
#include "algo/alpha_beside.h"
#include "algo/policy.h"
#include "backend/backend.h"
#include "core/error.h"
#include "core/neighbours.h"
#include "core/tuning.h"

/* --backend cpu: the host's.  auto and cuda: a device only where its
 * backend has an ascent slot and the device is usable (so the host's on
 * CI, which has no GPU, and in a build whose cuda backend has no slot). */
static void test_device_choice(void **state)
{
    (void)state;
    wt_params p;
    wt_params_defaults(&p);
    const wt_backend_kind kinds[] = {WT_BACKEND_CPU, WT_BACKEND_AUTO, WT_BACKEND_CUDA};
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
        p.backend = kinds[i];
        wt_device d;
        wt_alpha_device(&p, &d);
        if (kinds[i] == WT_BACKEND_CPU || d.backend->host) {
            assert_true(d.backend->host);
            assert_string_equal(d.name, "cpu");
            continue;
        }
        char desc[128];
        assert_non_null(d.backend->ascent);
        assert_true(wt_device_usable(&d, desc, sizeof desc));
    }
    /* A device number the machine lacks: the host's. */
    p.backend = WT_BACKEND_AUTO;
    p.cuda_device = 1000;
    wt_device d;
    wt_alpha_device(&p, &d);
    assert_true(d.backend->host);
}

/* A device backend whose ascent slot answers fake_status: a GPU that
 * refuses the instance (or fails); WT_OK: the host's slot runs it. */
static wt_status fake_status;
static int fake_calls;

static bool fake_available(const wt_device *dev, char *desc, size_t size)
{
    (void)dev;
    snprintf(desc, size, "fake");
    return true;
}

static wt_status fake_ascent(const wt_device *dev, const wt_instance *inst, wt_ascent_job *job,
                             wt_search_ctl *ctl, wt_error *err)
{
    (void)dev;
    fake_calls++;
    if (fake_status == WT_OK) {
        wt_device host;
        wt_device_host(&host);
        return host.backend->ascent(&host, inst, job, ctl, err);
    }
    job->pi[0] = 12345; /* garbage the host's run must not start from */
    job->iterations_done = 7;
    return wt_fail(err, fake_status, "fake device: %s", wt_status_str(fake_status));
}

static const wt_backend fake_backend = {
    .name = "fake", .kind = WT_BACKEND_CUDA, .host = false,
    .available = fake_available, .ascent = fake_ascent};
static const wt_backend fake_no_slot = {
    .name = "fake", .kind = WT_BACKEND_CUDA, .host = false, .available = fake_available};

/* A device whose neighbours slot answers fake_lists_status, with the
 * host's quadrant lists where that is WT_OK (a GPU's lists equal the
 * host's, backend.h). */
static wt_status fake_lists_status;
static int fake_lists_calls;

static wt_status fake_neighbours(const wt_device *dev, const wt_instance *inst, int k,
                                 bool quadrant, int32_t *nb, wt_search_ctl *ctl, bool *stopped,
                                 wt_error *err)
{
    (void)dev;
    (void)ctl;
    fake_lists_calls++;
    assert_true(quadrant);
    if (fake_lists_status != WT_OK) {
        nb[0] = -7; /* garbage the host's lists must overwrite */
        return wt_fail(err, fake_lists_status, "fake lists: %s", wt_status_str(fake_lists_status));
    }
    return wt_quadrant_lists_until(inst, k, 1, NULL, nb, stopped, err);
}

static const wt_backend fake_lister = {
    .name = "fake", .kind = WT_BACKEND_CUDA, .host = false,
    .available = fake_available, .neighbours = fake_neighbours};

static wt_status run_on(const wt_backend *b, const wt_instance *inst, wt_search_ctl *ctl,
                        wt_alpha *out, wt_error *err)
{
    wt_device dev;
    if (b) wt_device_of(b, 0, &dev);
    /* A device's plan of more steps than the host's: the fallback must run
     * the host's. */
    wt_alpha_plan on_host = {INFINITY, 40, 20}, on_device = {INFINITY, 400, 20};
    return wt_alpha_run(inst, b ? &dev : NULL, ctl, b ? &on_device : &on_host, &on_host, 5, out,
                        err);
}

/* UNSUPPORTED or OUT_OF_MEMORY from the device, or no slot at all: the
 * host's ascent from pi = 0, as the host's plan says, the same lists and
 * bound as the host's own run; another error is the caller's. */
static void test_fallback_to_host(void **state)
{
    (void)state;
    wt_instance *inst = wt_test_random_instance(200, 3);
    wt_params p;
    wt_params_defaults(&p);
    p.threads = 2;
    wt_search_ctl ctl;
    wt_ctl_init(&ctl, &p);
    wt_error err = {0};
    wt_alpha host;
    assert_int_equal(run_on(NULL, inst, &ctl, &host, &err), WT_OK);
    assert_non_null(host.candidates);
    assert_string_equal(host.device, "cpu");
    assert_string_equal(host.fallback, "");
    assert_true(host.lower_bound > 0);
    assert_int_equal(host.iterations, 40);

    const wt_status refusals[] = {WT_STATUS_UNSUPPORTED, WT_STATUS_OUT_OF_MEMORY};
    for (size_t i = 0; i < 2; i++) {
        fake_status = refusals[i];
        fake_calls = 0;
        wt_alpha a;
        assert_int_equal(run_on(&fake_backend, inst, &ctl, &a, &err), WT_OK);
        assert_int_equal(fake_calls, 1);
        assert_string_equal(a.device, "cpu");
        assert_non_null(strstr(a.fallback, "fake device"));
        assert_int_equal(a.lower_bound, host.lower_bound);
        assert_int_equal(a.graph_bound, host.graph_bound);
        assert_int_equal(a.iterations, host.iterations);
        assert_memory_equal(a.candidates, host.candidates, 200 * 5 * sizeof *a.candidates);
        wt_alpha_free(&a);
    }
    wt_alpha a;
    assert_int_equal(run_on(&fake_no_slot, inst, &ctl, &a, &err), WT_OK);
    assert_string_equal(a.device, "cpu");
    assert_memory_equal(a.candidates, host.candidates, 200 * 5 * sizeof *a.candidates);
    wt_alpha_free(&a);

    fake_status = WT_STATUS_DEVICE;
    assert_int_equal(run_on(&fake_backend, inst, &ctl, &a, &err), WT_STATUS_DEVICE);
    assert_non_null(strstr(err.message, "fake device"));
    assert_null(a.candidates);

    /* The result's figures. */
    wt_search_stats stats = {0};
    wt_alpha_stats(&host, &stats);
    assert_string_equal(stats.ascent_device, "cpu");
    assert_int_equal(stats.ascent_iterations, 40);
    assert_true(stats.ascent_s >= host.ascent_s && host.ascent_s > 0);
    wt_alpha_free(&host);
    wt_instance_free(inst);
}

/* The share and first period: the host's and the device's constants, each
 * overridden by the tuning. */
static void test_plan_by_device(void **state)
{
    (void)state;
    wt_tuning t;
    memset(&t, 0, sizeof t);
    wt_ascent_plan h = wt_policy_ascent(&t, true), d = wt_policy_ascent(&t, false);
    assert_true(h.share == WT_ASCENT_SHARE && h.period == WT_ASCENT_PERIOD);
    assert_true(d.share == WT_ASCENT_DEVICE_SHARE && d.period == WT_ASCENT_DEVICE_PERIOD);
    t.ascent_share_pct = 30;
    t.ascent_period = 500;
    for (int host = 0; host < 2; host++) {
        wt_ascent_plan x = wt_policy_ascent(&t, host);
        assert_true(fabs(x.share - 0.3) < 1e-12);
        assert_int_equal(x.period, 500);
    }
}

/* The optimal tour length of inst (n <= 12) by Held and Karp's dynamic
 * programme over subsets, in the instance's integer unit. */
static int64_t optimum_by_dp(const wt_instance *inst)
{
    int n = wt_instance_n(inst), m = n - 1;
    size_t states = (size_t)1 << m;
    int64_t *best = malloc(states * (size_t)m * sizeof *best);
    assert_non_null(best);
    for (size_t s = 0; s < states * (size_t)m; s++) best[s] = INT64_MAX;
    for (int j = 0; j < m; j++) best[((size_t)1 << j) * (size_t)m + (size_t)j] =
        wt_instance_dist(inst, 0, j + 1);
    for (size_t s = 1; s < states; s++)
        for (int j = 0; j < m; j++) {
            int64_t b = best[s * (size_t)m + (size_t)j];
            if (!(s >> j & 1) || b == INT64_MAX) continue;
            for (int k = 0; k < m; k++) {
                if (s >> k & 1) continue;
                size_t t = (s | (size_t)1 << k) * (size_t)m + (size_t)k;
                int64_t c = b + wt_instance_dist(inst, j + 1, k + 1);
                if (c < best[t]) best[t] = c;
            }
        }
    int64_t opt = INT64_MAX;
    for (int j = 0; j < m; j++) {
        int64_t c = best[(states - 1) * (size_t)m + (size_t)j] + wt_instance_dist(inst, j + 1, 0);
        if (c < opt) opt = c;
    }
    free(best);
    return opt;
}

/* An instance of n points in [0, side)^2 of the given type. */
static wt_instance *points_instance(int n, double side, wt_edge_weight_type type, uint64_t seed)
{
    double *x = malloc(2 * (size_t)n * sizeof *x);
    assert_non_null(x);
    uint64_t r = seed * 0x9E3779B97F4A7C15ull + 1;
    for (int i = 0; i < 2 * n; i++) {
        r ^= r << 13, r ^= r >> 7, r ^= r << 17;
        x[i] = side * (double)(r >> 11) / 0x1p53;
    }
    wt_instance *inst = NULL;
    wt_error err = {0};
    assert_int_equal(wt_instance_from_coords("points", n, type, x, x + n, NULL, &inst, &err),
                     WT_OK);
    free(x);
    return inst;
}

static int64_t bound_of(const wt_instance *inst)
{
    wt_params p;
    wt_params_defaults(&p);
    p.backend = WT_BACKEND_CPU;
    p.threads = 1;
    wt_bound b;
    wt_error err = {0};
    assert_int_equal(wt_lower_bound(inst, &p, &b, &err), WT_OK);
    return b.lower_bound;
}

/* A time limit that ends the ascent before its first step still gives a
 * bound: the complete graph's tree under the penalties it has (all 0). */
static void test_bound_under_time_limit(void **state)
{
    (void)state;
    wt_instance *inst = wt_test_random_instance(3000, 5);
    wt_params p;
    wt_params_defaults(&p);
    p.backend = WT_BACKEND_CPU;
    p.threads = 2;
    p.time_limit_s = 1e-9;
    wt_bound b;
    wt_error err = {0};
    assert_int_equal(wt_lower_bound(inst, &p, &b, &err), WT_OK);
    assert_int_equal(b.stop, WT_STOP_TIME_LIMIT);
    assert_int_equal(b.iterations, 0);
    assert_true(b.lower_bound > 0);
    int64_t tree_only = b.lower_bound;
    p.time_limit_s = 0;
    assert_int_equal(wt_lower_bound(inst, &p, &b, &err), WT_OK);
    assert_int_equal(b.stop, WT_STOP_DONE);
    assert_true(b.iterations > 0);
    assert_true(b.lower_bound >= tree_only);
    wt_instance_free(inst);
}

/* Under a time limit the tuning leaves the period to, an ascent of the
 * search's period, then one of the longest first period the time left
 * fits (wt_policy_bound_period), the higher bound kept: with time to
 * spare, the better of the two ascents run alone, their steps summed. */
static void test_bound_ladder(void **state)
{
    (void)state;
    assert_int_equal(wt_policy_bound_period(11849, 0, 1e-3), 0);
    assert_int_equal(wt_policy_bound_period(11849, 1, 0), 0);
    assert_int_equal(wt_policy_bound_period(11849, 3.0, 1e-3), 1000);
    assert_int_equal(wt_policy_bound_period(11849, 1e6, 1e-3), 5924);
    assert_int_equal(wt_policy_bound_period(50, 1e6, 1e-3), WT_ASCENT_PERIOD);
    wt_instance *inst = wt_test_random_instance(1500, 8);
    wt_params p;
    wt_params_defaults(&p);
    p.backend = WT_BACKEND_CPU;
    p.threads = 1;
    wt_bound whole, first, ladder;
    wt_error err = {0};
    assert_int_equal(wt_lower_bound(inst, &p, &whole, &err), WT_OK); /* period n / 2 */
    struct wt_tuning t = {0};
    t.ascent_period = WT_ASCENT_PERIOD;
    p.tuning = &t;
    assert_int_equal(wt_lower_bound(inst, &p, &first, &err), WT_OK);
    p.tuning = NULL;
    p.time_limit_s = 1e6;
    assert_int_equal(wt_lower_bound(inst, &p, &ladder, &err), WT_OK);
    assert_int_equal(ladder.stop, WT_STOP_DONE);
    assert_int_equal(ladder.iterations, whole.iterations + first.iterations);
    assert_true(ladder.lower_bound ==
                (whole.lower_bound > first.lower_bound ? whole.lower_bound : first.lower_bound));
    wt_instance_free(inst);
}

/* Real-valued points (2^40 units across) and EUC_2D points billions of
 * units apart: the bound of the scaled copy, mapped back, is a bound (at
 * most the optimum, by a dynamic programme on 11 cities), and close to
 * it on 2,000 cities (within 3% of a short search's tour). */
static void test_bound_beyond_fixed_point(void **state)
{
    (void)state;
    const wt_edge_weight_type types[] = {WT_EUC_2D_REAL, WT_EUC_2D};
    const double sides[] = {1000.0, 4e9};
    for (int t = 0; t < 2; t++) {
        for (uint64_t seed = 1; seed <= 8; seed++) {
            wt_instance *inst = points_instance(11, sides[t], types[t], seed);
            int64_t opt = optimum_by_dp(inst), b = bound_of(inst);
            assert_true(b > 0);
            assert_true(b <= opt);
            assert_true((double)b > 0.8 * (double)opt);
            wt_instance_free(inst);
        }
        wt_instance *inst = points_instance(2000, sides[t], types[t], 9);
        wt_params p;
        wt_params_defaults(&p);
        p.backend = WT_BACKEND_CPU;
        p.threads = 1;
        p.kicks = 200;
        wt_result r = {0};
        wt_error err = {0};
        assert_int_equal(wt_solve(inst, &p, &r, &err), WT_OK);
        assert_true(r.lower_bound > 0);
        assert_true(r.lower_bound <= r.length);
        assert_true((double)r.lower_bound > 0.97 * (double)r.length);
        wt_result_free(&r);
        wt_instance_free(inst);
    }
}

/* The ascent's graph of four far-apart clusters, their cities mixed in
 * number: the same on 1, 2 and 3 threads, each cluster's lowest city
 * chained to the next one's in the spare last column, and nothing else
 * there. */
static void test_graph_joins_clusters(void **state)
{
    (void)state;
    enum { N = 6000, CLUSTERS = 4 };
    wt_rng rng;
    wt_rng_seed(&rng, 11);
    double *x = malloc(2 * (size_t)N * sizeof *x), *y = x + N;
    int lowest[CLUSTERS];
    for (int c = 0; c < CLUSTERS; c++) lowest[c] = -1;
    for (int i = 0; i < N; i++) {
        int c = (int)wt_rng_below(&rng, CLUSTERS);
        if (lowest[c] < 0) lowest[c] = i;
        x[i] = 1e6 * (c & 1) + (double)wt_rng_below(&rng, 1000);
        y[i] = 1e6 * (c >> 1) + (double)wt_rng_below(&rng, 1000);
    }
    wt_instance *inst = NULL;
    wt_error err = {0};
    assert_int_equal(wt_instance_from_coords("clusters", N, WT_EUC_2D, x, y, NULL, &inst, &err),
                     WT_OK);
    free(x);
    int32_t *graph[3] = {NULL, NULL, NULL};
    int width = 0;
    for (int th = 1; th <= 3; th++) {
        wt_params p;
        wt_params_defaults(&p);
        p.threads = th;
        wt_search_ctl ctl;
        wt_ctl_init(&ctl, &p);
        bool stopped = true;
        wt_status st = WT_STATUS_OUT_OF_MEMORY;
        graph[th - 1] = wt_alpha_graph(inst, NULL, &ctl, &width, NULL, &stopped, &st, &err);
        assert_non_null(graph[th - 1]);
        assert_int_equal(st, WT_OK);
        assert_false(stopped);
    }
    for (int th = 2; th <= 3; th++)
        assert_memory_equal(graph[th - 1], graph[0], (size_t)N * (size_t)width * sizeof(int32_t));
    int sorted[CLUSTERS], chained = 0;
    for (int c = 0; c < CLUSTERS; c++) { /* the lowest cities, increasing */
        int at = c;
        while (at > 0 && sorted[at - 1] > lowest[c]) {
            sorted[at] = sorted[at - 1];
            at--;
        }
        sorted[at] = lowest[c];
    }
    for (int i = 0; i < N; i++) {
        int32_t spare = graph[0][(size_t)i * (size_t)width + (size_t)(width - 1)];
        if (spare < 0) continue;
        assert_int_equal(i, sorted[chained]);
        assert_int_equal(spare, sorted[chained + 1]);
        chained++;
    }
    assert_int_equal(chained, CLUSTERS - 1);
    for (int th = 0; th < 3; th++) free(graph[th]);
    wt_instance_free(inst);
}

/* rl1889, whose quadrant graph lacks edges that the complete graph's tree
 * takes under the ascent's penalties: the repair adds them and runs the
 * ascent again, and its proven bound (at most the optimum) beats the
 * first run's alone, the host's slot on the same graph and plan. */
static void test_graph_repair(void **state)
{
    (void)state;
    char *path = wt_test_path(wt_test_data_dir(), "rl1889.tsp");
    wt_instance *inst = NULL;
    wt_error err = {0};
    if (wt_instance_read_tsplib(path, &inst, &err) != WT_OK) fail_msg("%s", err.message);
    free(path);
    int n = wt_instance_n(inst);
    wt_params p;
    wt_params_defaults(&p);
    p.backend = WT_BACKEND_CPU;
    p.threads = 2;
    wt_search_ctl ctl;
    wt_ctl_init(&ctl, &p);
    wt_alpha_plan plan = {INFINITY, 0, 100};
    wt_alpha a;
    assert_int_equal(wt_alpha_run(inst, NULL, &ctl, &plan, NULL, 5, &a, &err), WT_OK);
    assert_non_null(a.candidates);
    assert_true(a.repair_edges > 0);

    int width = 0;
    bool stopped = false;
    wt_status st = WT_OK;
    int32_t *graph = wt_alpha_graph(inst, NULL, &ctl, &width, NULL, &stopped, &st, &err);
    assert_non_null(graph);
    int32_t *pi = calloc((size_t)n, sizeof *pi), *cand = malloc((size_t)n * 5 * sizeof *cand);
    wt_ascent_job job = {.graph = graph, .graph_k = width, .period = 100, .until = INFINITY,
                         .pi = pi, .candidates = cand, .candidates_k = 5};
    wt_device host;
    wt_device_host(&host);
    assert_int_equal(host.backend->ascent(&host, inst, &job, &ctl, &err), WT_OK);
    /* The first run's graph bound is far above its proven bound (1.1%
     * above; 2.2% below the optimum); the repair's proven bound is 1.8%
     * below it, 24 edges added. */
    int64_t opt = wt_instance_known_optimum(inst);
    assert_true(job.graph_bound - job.lower_bound * WT_ASCENT_SCALE >
                job.graph_bound / WT_ALPHA_REPAIR_SHARE);
    assert_true(a.lower_bound > job.lower_bound);
    assert_true(a.lower_bound <= opt);
    assert_true(a.iterations > job.iterations_done);
    free(graph);
    free(pi);
    free(cand);
    wt_alpha_free(&a);
    wt_instance_free(inst);
}

/* The ascent's graph from a device's candidate lists where its slot gives
 * them; the host's lists where it refuses (UNSUPPORTED, OUT_OF_MEMORY) or
 * has no slot, the same graph every way; its other errors passed on. */
static void test_graph_lists_on_device(void **state)
{
    (void)state;
    wt_instance *inst = wt_test_random_instance(3000, 9);
    int n = wt_instance_n(inst);
    wt_params p;
    wt_params_defaults(&p);
    p.threads = 2;
    wt_search_ctl ctl;
    wt_ctl_init(&ctl, &p);
    int hw = 0, w = 0;
    bool stopped = true, on_device = true;
    wt_status st = WT_STATUS_DEVICE;
    wt_error err = {0};
    int32_t *host = wt_alpha_graph(inst, NULL, &ctl, &hw, &on_device, &stopped, &st, &err);
    assert_non_null(host);
    assert_int_equal(st, WT_OK);
    assert_false(stopped);
    assert_false(on_device);
    const wt_backend *backends[] = {&fake_lister, &fake_lister, &fake_lister, &fake_no_slot};
    const wt_status answers[] = {WT_OK, WT_STATUS_UNSUPPORTED, WT_STATUS_OUT_OF_MEMORY, WT_OK};
    for (size_t i = 0; i < 4; i++) {
        wt_device dev;
        wt_device_of(backends[i], 0, &dev);
        fake_lists_status = answers[i];
        fake_lists_calls = 0;
        int32_t *g = wt_alpha_graph(inst, &dev, &ctl, &w, &on_device, &stopped, &st, &err);
        assert_non_null(g);
        assert_int_equal(st, WT_OK);
        assert_int_equal(fake_lists_calls, backends[i] == &fake_lister ? 1 : 0);
        assert_int_equal(on_device, i == 0);
        assert_int_equal(w, hw);
        assert_memory_equal(g, host, (size_t)n * (size_t)w * sizeof *g);
        free(g);
    }
    wt_device dev;
    wt_device_of(&fake_lister, 0, &dev);
    fake_lists_status = WT_STATUS_DEVICE;
    assert_null(wt_alpha_graph(inst, &dev, &ctl, &w, &on_device, &stopped, &st, &err));
    assert_int_equal(st, WT_STATUS_DEVICE);
    assert_non_null(strstr(err.message, "fake lists"));
    /* wt_alpha_run reports where its graph's lists came from */
    fake_lists_status = WT_OK;
    wt_alpha_plan plan = {INFINITY, 20, 10};
    wt_alpha a;
    assert_int_equal(wt_alpha_run(inst, &dev, &ctl, &plan, NULL, 5, &a, &err), WT_OK);
    assert_true(a.graph_on_device);
    assert_string_equal(a.device, "cpu"); /* the fake has no ascent slot */
    wt_alpha_free(&a);
    free(host);
    wt_instance_free(inst);
}

/* ------------------------------------- the bound's ascent beside a search */

/* A search's parameters and control on two threads. */
static void two_threads(wt_params *p, wt_search_ctl *ctl)
{
    wt_params_defaults(p);
    p->threads = 2;
    wt_ctl_init(ctl, p);
}

/* The ascent beside (algo/alpha_beside.h) started on the fake device for
 * the search ctl, as plan and host_plan (NULL: none) say. */
static wt_alpha_beside *beside_on_fake(const wt_instance *inst, const wt_search_ctl *ctl,
                                       const wt_alpha_plan *plan, const wt_alpha_plan *host_plan)
{
    wt_device dev;
    wt_device_of(&fake_backend, 0, &dev);
    fake_calls = 0;
    wt_alpha_beside *b = NULL;
    wt_alpha_beside_start(inst, &dev, ctl, plan, host_plan, 0, 2, &b);
    assert_non_null(b);
    return b;
}

/* That ascent stopped at once (stop) or left to end; what it left in
 * *stats. */
static void beside_run(const wt_instance *inst, const wt_alpha_plan *plan,
                       const wt_alpha_plan *host_plan, bool stop, wt_search_stats *stats)
{
    wt_params p;
    wt_search_ctl ctl;
    two_threads(&p, &ctl);
    wt_alpha_beside *b = beside_on_fake(inst, &ctl, plan, host_plan);
    *stats = (wt_search_stats){0};
    wt_alpha_beside_end(b, stop, stats);
}

/* The same plan's ascent in place on backend b's device (NULL: the host). */
static wt_alpha in_place(const wt_instance *inst, const wt_backend *b, const wt_alpha_plan *plan)
{
    wt_params p;
    wt_search_ctl ctl;
    two_threads(&p, &ctl);
    wt_device dev;
    if (b) wt_device_of(b, 0, &dev);
    wt_alpha a;
    wt_error err = {0};
    assert_int_equal(wt_alpha_run(inst, b ? &dev : NULL, &ctl, plan, NULL, 5, &a, &err), WT_OK);
    assert_true(a.lower_bound > 0);
    return a;
}

/* Left to end by its plan on a device (the fake's slot is the host's):
 * the bound, device and steps of the same plan run in place. */
static void test_beside_as_in_place(void **state)
{
    (void)state;
    wt_instance *inst = wt_test_random_instance(1500, 4);
    fake_status = WT_OK;
    wt_alpha_plan plan = {INFINITY, 60, 20};
    wt_alpha ref = in_place(inst, &fake_backend, &plan);
    wt_search_stats stats;
    beside_run(inst, &plan, &plan, false, &stats);
    assert_int_equal(stats.lower_bound, ref.lower_bound);
    assert_string_equal(stats.ascent_device, ref.device);
    assert_int_equal(stats.ascent_iterations, ref.iterations);
    assert_true(stats.ascent_s > 0);
    wt_alpha_free(&ref);
    wt_instance_free(inst);
}

/* With lists asked for (k a city) and taken when it ends: the lists,
 * penalties, bound and steps of the same plan run in place; stopped at
 * once, no lists and no bound (or a complete ascent, where it ended
 * first). */
static void test_beside_lists_taken(void **state)
{
    (void)state;
    wt_instance *inst = wt_test_random_instance(1500, 4);
    int n = wt_instance_n(inst);
    fake_status = WT_OK;
    wt_alpha_plan plan = {INFINITY, 60, 20};
    wt_alpha ref = in_place(inst, &fake_backend, &plan);
    wt_params p;
    wt_search_ctl ctl;
    two_threads(&p, &ctl);
    wt_device dev;
    wt_device_of(&fake_backend, 0, &dev);
    wt_alpha_beside *b = NULL;
    wt_alpha_beside_start(inst, &dev, &ctl, &plan, &plan, 5, 2, &b);
    assert_non_null(b);
    wt_alpha a;
    wt_error err = {0};
    assert_int_equal(wt_alpha_beside_take(b, false, &a, &err), WT_OK);
    assert_non_null(a.candidates);
    assert_int_equal(a.k, 5);
    assert_memory_equal(a.candidates, ref.candidates, (size_t)n * 5 * sizeof *a.candidates);
    assert_memory_equal(a.pi, ref.pi, (size_t)n * sizeof *a.pi);
    assert_int_equal(a.lower_bound, ref.lower_bound);
    assert_int_equal(a.iterations, ref.iterations);
    wt_alpha_free(&a);

    wt_alpha_plan endless = {INFINITY, 1000000, 100000};
    wt_alpha_beside_start(inst, &dev, &ctl, &endless, &endless, 5, 2, &b);
    assert_non_null(b);
    assert_int_equal(wt_alpha_beside_take(b, true, &a, &err), WT_OK);
    assert_true(a.candidates ? a.lower_bound > 0 : a.lower_bound == -1);
    wt_alpha_free(&a);
    wt_alpha_free(&ref);
    wt_instance_free(inst);
}

/* A device that refuses the instance: the host's ascent in its place, as
 * the host's plan says (fewer steps here): the host's own run of it;
 * without a host plan, no ascent at all (no bound, no device). */
static void test_beside_refused_runs_the_host(void **state)
{
    (void)state;
    wt_instance *inst = wt_test_random_instance(500, 5);
    wt_alpha_plan plan = {INFINITY, 300, 10}, host_plan = {INFINITY, 30, 10};
    wt_alpha ref = in_place(inst, NULL, &host_plan);
    const wt_status refusals[] = {WT_STATUS_UNSUPPORTED, WT_STATUS_OUT_OF_MEMORY};
    for (size_t i = 0; i < 2; i++) {
        fake_status = refusals[i];
        wt_search_stats stats;
        beside_run(inst, &plan, &host_plan, false, &stats);
        assert_int_equal(fake_calls, 1);
        assert_int_equal(stats.lower_bound, ref.lower_bound);
        assert_string_equal(stats.ascent_device, "cpu");
        assert_int_equal(stats.ascent_iterations, ref.iterations);
        beside_run(inst, &plan, NULL, false, &stats);
        assert_int_equal(fake_calls, 1);
        assert_int_equal(stats.lower_bound, 0);
        assert_string_equal(stats.ascent_device, "");
        assert_int_equal(stats.ascent_iterations, 0);
    }
    wt_alpha_free(&ref);
    wt_instance_free(inst);
}

/* A stop right after the start ends it (no hang over a plan of a million
 * steps); whatever bound it reports is no longer than a tour. */
static void test_beside_stopped(void **state)
{
    (void)state;
    wt_instance *inst = wt_test_random_instance(3000, 6);
    int n = wt_instance_n(inst);
    fake_status = WT_OK;
    wt_alpha_plan plan = {INFINITY, 1000000, 100000};
    wt_search_stats stats;
    beside_run(inst, &plan, &plan, true, &stats);
    int32_t *tour = malloc((size_t)n * sizeof *tour);
    assert_non_null(tour);
    for (int i = 0; i < n; i++) tour[i] = i;
    assert_true(stats.lower_bound >= 0);
    assert_true(stats.lower_bound <= wt_tour_length(inst, tour));
    free(tour);
    wt_instance_free(inst);
}

/* Its bound appears to the search's reports once proven (the one it ends
 * with), and a report of a tour at that bound ends the search. */
static void test_beside_bound_in_reports(void **state)
{
    (void)state;
    wt_instance *inst = wt_test_random_instance(1500, 7);
    fake_status = WT_OK;
    wt_alpha_plan plan = {INFINITY, 60, 20};
    wt_alpha ref = in_place(inst, &fake_backend, &plan);
    wt_params p;
    wt_search_ctl ctl;
    two_threads(&p, &ctl);
    wt_alpha_beside *b = beside_on_fake(inst, &ctl, &plan, &plan);
    ctl.bound_source = wt_alpha_beside_bound;
    ctl.bound_user = b;
    const struct timespec ms = {0, 1000000};
    for (int i = 0; i < 600000 && wt_alpha_beside_bound(b) == 0; i++) nanosleep(&ms, NULL);
    int64_t far = 10 * ref.lower_bound;
    assert_false(wt_ctl_report(&ctl, far, 1, false));
    assert_true(ctl.bound == ref.lower_bound);
    assert_true(wt_ctl_report(&ctl, ref.lower_bound, 2, false)); /* a tour at the bound: optimal */
    wt_search_stats stats = {0};
    wt_alpha_beside_end(b, false, &stats);
    assert_int_equal(stats.lower_bound, ref.lower_bound);
    wt_alpha_free(&ref);
    wt_instance_free(inst);
}

/* The local descents take the bound, never the lists; lk_alpha off and
 * tiny tours take none. */
static void test_local_policy(void **state)
{
    (void)state;
    assert_int_equal(wt_policy_local_alpha(0, 1000), WT_ALPHA_BOUND);
    assert_int_equal(wt_policy_local_alpha(1, 1000), WT_ALPHA_BOUND);
    assert_int_equal(wt_policy_local_alpha(WT_TUNING_OFF, 1000), WT_ALPHA_NONE);
    assert_int_equal(wt_policy_local_alpha(0, WT_LK_ALPHA_MIN_CITIES - 1), WT_ALPHA_NONE);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_device_choice),
        cmocka_unit_test(test_fallback_to_host),
        cmocka_unit_test(test_plan_by_device),
        cmocka_unit_test(test_bound_beyond_fixed_point),
        cmocka_unit_test(test_bound_under_time_limit),
        cmocka_unit_test(test_bound_ladder),
        cmocka_unit_test(test_graph_joins_clusters),
        cmocka_unit_test(test_graph_repair),
        cmocka_unit_test(test_graph_lists_on_device),
        cmocka_unit_test(test_beside_as_in_place),
        cmocka_unit_test(test_beside_lists_taken),
        cmocka_unit_test(test_beside_refused_runs_the_host),
        cmocka_unit_test(test_beside_stopped),
        cmocka_unit_test(test_beside_bound_in_reports),
        cmocka_unit_test(test_local_policy),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
