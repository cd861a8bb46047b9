/*
 * test_gpu_ascent_limits.c - the GPU's Held-Karp ascent at its limits
 * (issue 41's GPU tests beside test_gpu_ascent.c's bit-for-bit ones):
 *   - a GPU short of memory (filled by the test itself, gpu_hog.h): the
 *     cuda backend's ascent slot refuses the instance with
 *     WT_STATUS_OUT_OF_MEMORY and a message naming the bytes it needs,
 *     more than are free; wt_solve with --backend auto then runs the
 *     host's ascent instead (algo/alpha.c, beside the search:
 *     algo/alpha_beside.h): a valid tour and the bound of the cpu
 *     backend's ascent for the same steps.  Once the memory is
 *     back, the GPU's ascent runs again, equal to the host's;
 *   - a stop inside the ascent (400,000 cities, the lists asked for, so
 *     that the search waits for it after its first descent): the stop
 *     flag set from another thread a second after the ascent began, and a
 *     time limit landing in it (the ascent's share of the time raised to
 *     all of it): a valid tour, no kick after, and a result that says the
 *     ascent did not complete (no lower bound, no ascent device); the
 *     flip chain's ascent for its bound alone, beside the search, under
 *     the stop flag: a valid tour, a bound only where one completed; under
 *     a limit with the ascent's usual share it ends early with its bound;
 *   - the k-opt step's ascent beside the 2-opt + Or-opt first descent of
 *     a large tour (algo/ils_local.c): the same run as with the ascent
 *     before it under a kick budget; a limit inside that descent ends
 *     the run with a valid tour; under a limit the GPU makes that first
 *     optimum in the host's place (its passes counted);
 *   - a million cities under a 10 s limit (--backend auto, as a user runs
 *     it): a valid tour; and the bound of the GPU's ascent of the million
 *     within a 10 s limit (wt_lower_bound, the search's first period).
 * Seconds are printed, never asserted.  Where the ascent begins is known
 * from the progress callback: with an interval longer than the run, its
 * one call is the forced report of the descended tour, just before the
 * ascent (algo/ils_local.c, ascent_after_descent).
 *
 * Skipped (exit 77) without a usable GPU; WT_TEST_GPU_AS_CPU=1 runs the
 * solves on the cpu backend (the out-of-memory case is then left out).
 */
#include "gpu_test.h"

#include <math.h>
#include <pthread.h>
#include <stdatomic.h>

#include "algo/alpha.h"
#include "backend/backend.h"
#include "core/onetree.h"
#include "core/search_ctl.h"
#include "gpu_hog.h"
#include "warptour_experimental.h"

/* wt_sgraph_create's stop flag, for the calls without a stop. */
static bool sg_stopped;

static bool gpu_is_cpu;

static void check_tour(const wt_instance *inst, const wt_result *r)
{
    assert_int_equal(r->n, wt_instance_n(inst));
    assert_int_equal(wt_tour_validate(r->tour, r->n, NULL), WT_OK);
    assert_int_equal(r->length, wt_tour_length(inst, r->tour));
}

static bool on_gpu(const char *device) { return strncmp(device, "cuda", 4) == 0; }

/* ILS with LK descents (the search that runs the ascent), --backend auto
 * (cpu with WT_TEST_GPU_AS_CPU=1), the GPU taking part from any limit.
 * The flip chain: its ascent for the bound alone runs beside the search
 * from the start (algo/alpha_beside.h); with the lists asked for
 * (lk_alpha 1) after the first descent, whose forced report marks where
 * the ascent begins (the k-opt step's runs before). */
static void lk_params(wt_params *p, wt_tuning *t)
{
    wt_params_defaults(p);
    memset(t, 0, sizeof *t);
    t->auto_device_min_ms = WT_TUNING_OFF;
    t->lk_kopt = WT_TUNING_OFF;
    p->algorithm = WT_ALGO_ILS;
    p->ils_descent = WT_ILS_LK;
    p->backend = gpu_is_cpu ? WT_BACKEND_CPU : WT_BACKEND_AUTO;
    p->seed = 1;
    p->tuning = t;
}

static wt_result solve(const wt_instance *inst, const wt_params *p)
{
    wt_result r;
    wt_error err = {0};
    if (wt_solve(inst, p, &r, &err) != WT_OK) fail_msg("solve: %s", err.message);
    return r;
}

/* ------------------------------------------------- a GPU short of memory */

#define HOG_LEAVE ((size_t)8 << 20) /* device bytes left free while "full" */
enum { OOM_N = 200000, OOM_STEPS = 20, OOM_PERIOD = 100, OOM_KICKS = 50, CAND_K = 5 };

/* One ascent on b's slot of device 0 over graph for `steps` steps (first
 * period OOM_PERIOD) from pi = 0: its status, *job its outputs (free
 * job->pi and job->candidates). */
static wt_status slot_run(const wt_backend *b, const wt_instance *inst, const int32_t *graph,
                          int width, int steps, wt_ascent_job *job, wt_error *err)
{
    int n = wt_instance_n(inst);
    *job = (wt_ascent_job){.graph = graph, .graph_k = width, .iterations = steps,
                           .period = OOM_PERIOD, .until = INFINITY, .lower_bound = -1,
                           .pi = calloc((size_t)n, sizeof(int32_t)),
                           .candidates = malloc((size_t)n * CAND_K * sizeof(int32_t)),
                           .candidates_k = CAND_K};
    assert_non_null(job->pi);
    assert_non_null(job->candidates);
    wt_params p;
    wt_params_defaults(&p);
    wt_search_ctl ctl;
    wt_ctl_init(&ctl, &p);
    wt_device dev;
    wt_device_of(b, 0, &dev);
    return b->ascent(&dev, inst, job, &ctl, err);
}

static int32_t *graph_of(const wt_instance *inst, int *width)
{
    wt_params p;
    wt_params_defaults(&p);
    wt_search_ctl ctl;
    wt_ctl_init(&ctl, &p);
    bool stopped = false;
    wt_status st = WT_OK;
    wt_error err = {0};
    int32_t *graph = wt_alpha_graph(inst, NULL, &ctl, width, NULL, &stopped, &st, &err);
    if (!graph) fail_msg("the ascent's graph: %s", err.message);
    return graph;
}

/* The least the GPU's ascent asks for graph (cuda_ascent.cu, device_open:
 * 20 bytes an edge and 40 a city for the steps, CUB's scratch besides; a
 * refusal names the steps' bytes, the finish's left to the host then). */
static size_t least_need(const wt_instance *inst, const int32_t *graph, int width)
{
    wt_sgraph g;
    wt_error err = {0};
    if (wt_sgraph_create(inst, graph, width, 4, NULL, &g, &sg_stopped, &err) != WT_OK) fail_msg("%s", err.message);
    size_t need = (size_t)g.m * 20 + (size_t)g.n * 40;
    wt_sgraph_free(&g);
    return need;
}

/* The bytes an ascent's refusal names: "... need N bytes of GPU memory". */
static size_t bytes_named(const char *message)
{
    const char *at = strstr(message, " need ");
    unsigned long long bytes = 0;
    if (!at || sscanf(at, " need %llu bytes of GPU memory", &bytes) != 1) return 0;
    return (size_t)bytes;
}

/* The GPU's ascent equal to the host's on n uniform cities: before the
 * GPU is filled, so that its kernels are loaded (the runtime loads them on
 * their first use, into device memory) and its refusal is the ascent's
 * own; after, to show it usable again once the memory is back. */
static void gpu_ascent_matches_host(int n, uint64_t seed)
{
    wt_instance *inst = wt_test_random_instance(n, seed);
    int width;
    int32_t *graph = graph_of(inst, &width);
    wt_ascent_job g, c;
    wt_error err = {0};
    wt_status gs = slot_run(wt_backend_of(WT_BACKEND_CUDA), inst, graph, width, 30, &g, &err);
    if (gs != WT_OK) fail_msg("the GPU's ascent: %s", err.message);
    assert_int_equal(slot_run(wt_backend_of(WT_BACKEND_CPU), inst, graph, width, 30, &c, &err),
                     WT_OK);
    int differ = 0, first = -1;
    for (int i = 0; i < n; i++)
        if (g.pi[i] != c.pi[i] && differ++ == 0) first = i;
    print_message("    %d cities: steps %d / %d, graph bound %lld / %lld, bound %lld / %lld, "
                  "%d penalties differ (first %d)\n",
                  n, g.iterations_done, c.iterations_done, (long long)g.graph_bound,
                  (long long)c.graph_bound, (long long)g.lower_bound, (long long)c.lower_bound,
                  differ, first);
    assert_int_equal(g.iterations_done, c.iterations_done);
    assert_true(g.lower_bound == c.lower_bound);
    assert_memory_equal(g.pi, c.pi, (size_t)wt_instance_n(inst) * sizeof(int32_t));
    free(g.pi);
    free(g.candidates);
    free(c.pi);
    free(c.candidates);
    free(graph);
    wt_instance_free(inst);
}

static void test_gpu_short_of_memory(void **state)
{
    (void)state;
    if (gpu_is_cpu) {
        print_message("    skipped: the GPU side runs on the CPU\n");
        return;
    }
    gpu_ascent_matches_host(2000, 24);
    wt_instance *inst = wt_test_random_instance(OOM_N, 21);
    int width;
    int32_t *graph = graph_of(inst, &width);
    size_t least = least_need(inst, graph, width);
    /* The reference: the host's bound for the steps the fallback makes. */
    wt_params p;
    wt_tuning t;
    lk_params(&p, &t);
    t.ascent_iterations = OOM_STEPS;
    t.ascent_period = OOM_PERIOD;
    t.renumber_min = WT_TUNING_OFF; /* the solve below in the reference's numbers */
    p.backend = WT_BACKEND_CPU;
    wt_bound ref;
    wt_error err = {0};
    if (wt_lower_bound(inst, &p, &ref, &err) != WT_OK) fail_msg("bound: %s", err.message);
    assert_true(ref.lower_bound > 0);

    gpu_hog hog;
    gpu_hog_take(&hog, HOG_LEAVE);
    if (hog.left == (size_t)-1 || hog.left > least / 2) {
        gpu_hog_give(&hog);
        free(graph);
        wt_instance_free(inst);
        fail_msg("could not fill the GPU: %zu bytes still free, the ascent needs %zu", hog.left,
                 least);
    }
    /* (a) the slot itself refuses, naming the bytes */
    wt_ascent_job job;
    wt_error slot_err = {0};
    wt_status slot_st =
        slot_run(wt_backend_of(WT_BACKEND_CUDA), inst, graph, width, OOM_STEPS, &job, &slot_err);
    free(job.pi);
    free(job.candidates);
    /* (b) the search takes the host's ascent: the GPU still counts as
     * usable, so "cpu" below is the fallback's */
    p.backend = WT_BACKEND_AUTO;
    p.kicks = OOM_KICKS;
    wt_device chosen;
    wt_alpha_device(&p, &chosen);
    wt_result r;
    wt_status solve_st = wt_solve(inst, &p, &r, &err);
    gpu_hog_give(&hog);

    print_message("    %zu MB free; the slot: %s: %s\n", hog.left >> 20, wt_status_str(slot_st),
                  slot_err.message);
    assert_int_equal(slot_st, WT_STATUS_OUT_OF_MEMORY);
    assert_false(chosen.backend->host);
    size_t named = bytes_named(slot_err.message);
    assert_true(named >= least);
    assert_true(named > hog.left);
    if (solve_st != WT_OK) fail_msg("solve on a full GPU: %s", err.message);
    print_message("    solve on a full GPU: ascent on %s, %d steps, bound %lld (host alone %lld), "
                  "length %lld, %.2f s\n", r.ascent.device, r.ascent.iterations,
                  (long long)r.lower_bound, (long long)ref.lower_bound, (long long)r.length,
                  r.time_s);
    check_tour(inst, &r);
    assert_int_equal(r.ils.kicks, OOM_KICKS);
    assert_string_equal(r.ascent.device, "cpu");
    assert_int_equal(r.ascent.iterations, ref.iterations);
    assert_true(r.lower_bound == ref.lower_bound);
    assert_true(r.lower_bound <= r.length);
    wt_result_free(&r);
    free(graph);
    wt_instance_free(inst);
    gpu_ascent_matches_host(5000, 23);
}

/* ------------------------------------------------- stops inside the ascent */

/* Large enough that an ascent with a first period of 1,000,000 outlasts
 * the stops below: its periods still end after WT_ASCENT_STALL steps
 * without a rise, so the step's halvings down to 0 take thousands of
 * steps; at 200,000 cities an H200 ran 1,081 steps and the finish in
 * 0.59 s, too few seconds to be sure of the stops' place. */
enum { STOP_N = 400000 };
#define STOP_DELAY_S 1.0 /* the flag, this long after the ascent began */

/* What the progress callback and the stopping thread share. */
typedef struct watch {
    _Atomic double began;   /* wt_now() of the report before the ascent; 0: none */
    _Atomic double began_s; /* the same, seconds into the run */
    double delay;           /* the stopper sets flag this long after began */
    volatile int flag;      /* the run's stop flag */
    _Atomic double flagged; /* wt_now() when it was set; 0: not set */
    atomic_bool done;       /* the run returned: the stopper leaves */
    double returned;        /* now_s() when the run returned */
} watch;

static int on_progress(const wt_progress *pr, void *user)
{
    watch *w = user;
    if (atomic_load(&w->began) == 0) {
        atomic_store(&w->began_s, pr->elapsed_s);
        atomic_store(&w->began, wt_now());
    }
    return 0;
}

static void *stopper(void *user)
{
    watch *w = user;
    const struct timespec ms = {0, 1000000};
    while (!atomic_load(&w->done)) {
        double began = atomic_load(&w->began);
        if (began > 0 && wt_now() >= began + w->delay) {
            w->flag = 1;
            atomic_store(&w->flagged, wt_now());
            return NULL;
        }
        nanosleep(&ms, NULL);
    }
    return NULL;
}

/* p's run watched by w (its progress callback; with stop, the stopper
 * thread too); *wall: its seconds. */
static wt_result watched_solve(const wt_instance *inst, wt_params *p, watch *w, bool stop,
                               double *wall)
{
    p->progress = on_progress;
    p->progress_user = w;
    p->progress_interval_s = 1e6; /* the forced report alone */
    pthread_t thread;
    if (stop) {
        p->stop_flag = &w->flag;
        assert_int_equal(pthread_create(&thread, NULL, stopper, w), 0);
    }
    double t0 = now_s();
    wt_result r = solve(inst, p);
    w->returned = now_s();
    *wall = w->returned - t0;
    atomic_store(&w->done, true);
    if (stop) pthread_join(thread, NULL);
    return r;
}

/* The result of a run whose ascent did not complete: no bound, no
 * ascent device, no kick after. */
static void check_ascent_cut(const wt_result *r)
{
    assert_true(r->lower_bound == -1);
    assert_string_equal(r->ascent.device, "");
    assert_true(r->ils.kicks == 0);
}

static void test_stop_in_ascent(void **state)
{
    (void)state;
    wt_instance *inst = wt_test_random_instance(STOP_N, 22);
    wt_params p;
    wt_tuning t;

    /* The stop flag, a second into an ascent that would not end by itself
     * for minutes (a kick budget, no time limit).  The lists asked for
     * (lk_alpha 1): the search waits for that ascent after its first
     * descent (the flip chain's bound alone runs beside, below). */
    lk_params(&p, &t);
    t.lk_alpha = 1;
    t.ascent_iterations = 1000000;
    t.ascent_period = 1000000;
    p.kicks = 1000;
    watch w = {.delay = STOP_DELAY_S};
    double wall;
    wt_result r = watched_solve(inst, &p, &w, true, &wall);
    double flagged = atomic_load(&w.flagged), descent_s = atomic_load(&w.began_s);
    print_message("    stop flag: the ascent began %.2f s into the run, the flag %.2f s later; "
                  "the run returned %.3f s after the flag (%.2f s in all, %s)\n", descent_s,
                  STOP_DELAY_S, flagged > 0 ? w.returned - flagged : NAN, wall,
                  wt_stop_reason_name(r.stop));
    check_tour(inst, &r);
    assert_true(atomic_load(&w.began) > 0);
    assert_true(flagged > 0);
    assert_int_equal(r.stop, WT_STOP_INTERRUPTED);
    check_ascent_cut(&r);
    wt_result_free(&r);

    /* A time limit a second into the ascent, which has all the time left
     * (its steps end at the limit, and its lists with them).  A second, as
     * the flag's: the first descent of a fresh run varies by half a second
     * (5.6 against 6.1 s on an H200), and with 3.4 s for this ascent (its
     * steps halve down to 0 after stalls) a run there ended "done". */
    lk_params(&p, &t);
    t.lk_alpha = 1;
    t.ascent_iterations = 1000000;
    t.ascent_period = 1000000;
    t.ascent_share_pct = 100;
    p.time_limit_s = descent_s + STOP_DELAY_S;
    watch l = {.delay = 0};
    r = watched_solve(inst, &p, &l, false, &wall);
    double began = atomic_load(&l.began_s);
    print_message("    time limit %.2f s: the ascent began at %.2f s; the run took %.3f s "
                  "(%+.3f s past the limit, %s; %d steps, bound %lld)\n", p.time_limit_s,
                  began, r.time_s, r.time_s - p.time_limit_s, wt_stop_reason_name(r.stop),
                  r.ascent.iterations, (long long)r.lower_bound);
    check_tour(inst, &r);
    if (r.lower_bound > 0 && r.ascent.device[0]) {
        /* This run's first descent ended far sooner than the flag's run's
         * (4.6 against 6.3 s on an H200): the ascent ended before the
         * limit, and the kicks ran up to it. */
        print_message("    the ascent ended before the limit this time: not a stop inside it\n");
    } else {
        assert_int_equal(r.stop, WT_STOP_TIME_LIMIT);
        if (atomic_load(&l.began) > 0) check_ascent_cut(&r);
        else print_message("    the limit came before the ascent this time: not a stop inside it\n");
    }
    wt_result_free(&r);

    /* The flip chain's bound alone, its ascent beside the search from the
     * start (algo/alpha_beside.h), the stop flag a second after the first
     * descent: the run ends as promptly, with a valid tour, and a bound
     * only where the ascent completed one. */
    lk_params(&p, &t);
    t.ascent_iterations = 1000000;
    t.ascent_period = 1000000;
    p.kicks = 1000;
    watch b = {.delay = STOP_DELAY_S};
    r = watched_solve(inst, &p, &b, true, &wall);
    flagged = atomic_load(&b.flagged);
    print_message("    beside, stop flag: the run returned %.3f s after the flag (%.2f s in all, "
                  "%s; ascent on %s, %d steps, bound %lld)\n",
                  flagged > 0 ? b.returned - flagged : NAN, wall, wt_stop_reason_name(r.stop),
                  r.ascent.device, r.ascent.iterations, (long long)r.lower_bound);
    check_tour(inst, &r);
    assert_true(flagged > 0);
    assert_int_equal(r.stop, WT_STOP_INTERRUPTED);
    assert_true(r.lower_bound == -1 || (r.lower_bound > 0 && r.lower_bound <= r.length));
    wt_result_free(&r);

    /* The ascent's usual share of a limit: it ends early at its share,
     * with its bound, and the kicks go on to the limit (beside the search,
     * the flip chain's). */
    lk_params(&p, &t);
    p.time_limit_s = ceil(descent_s) + 4;
    watch s = {.delay = 0};
    r = watched_solve(inst, &p, &s, false, &wall);
    print_message("    time limit %.0f s, the usual share: ascent on %s, %d steps, %.2f s; "
                  "bound %lld, %.3f%% below the tour; %llu kicks; %.3f s in all\n",
                  p.time_limit_s, r.ascent.device, r.ascent.iterations, r.ascent.time_s,
                  (long long)r.lower_bound, r.gap_to_bound_percent,
                  (unsigned long long)r.ils.kicks, r.time_s);
    check_tour(inst, &r);
    if (atomic_load(&s.began) > 0) {
        /* Its steps may be none where the graph took the share (a slow
         * host): the bound of the first tree, still a bound. */
        assert_true(r.lower_bound > 0 && r.lower_bound <= r.length);
        assert_true(gpu_is_cpu ? strcmp(r.ascent.device, "cpu") == 0 : on_gpu(r.ascent.device));
    }
    wt_result_free(&r);
    wt_instance_free(inst);
}

/* ------------------------------- the ascent beside the plain first descent */

enum { BESIDE_N = 30000, BESIDE_KICKS = 300, BESIDE_CUT_N = 200000 };
#define BESIDE_LIMIT_S 3.0

/* The k-opt step on alpha lists over a large tour whose first descent
 * begins with 2-opt + Or-opt (the list descent off), on 4 threads. */
static void beside_params(wt_params *p, wt_tuning *t)
{
    lk_params(p, t);
    t->lk_kopt = 5;
    t->lk_alpha = 1;
    t->ils_list_descent_min = WT_TUNING_OFF;
    p->threads = 4;
}

/* The GPU's ascent beside that descent (algo/ils_local.c,
 * descend_beside_ascent) or before it (lk_alpha_beside off): the same
 * run under a kick budget, tour, bound and steps; and a time limit that
 * lands in the descent beside the ascent ends the run with a valid tour. */
static void test_ascent_beside_first_descent(void **state)
{
    (void)state;
    wt_instance *inst = wt_test_random_instance(BESIDE_N, 23);
    wt_params p;
    wt_tuning t;
    beside_params(&p, &t);
    p.kicks = BESIDE_KICKS;
    wt_result beside = solve(inst, &p);
    t.lk_alpha_beside = WT_TUNING_OFF;
    wt_result before = solve(inst, &p);
    print_message("    %d cities, %d kicks: beside %.3f s, before %.3f s; length %lld; ascent on "
                  "%s, %d steps, %.2f s\n", BESIDE_N, BESIDE_KICKS, beside.time_s,
                  before.time_s, (long long)beside.length, beside.ascent.device,
                  beside.ascent.iterations, beside.ascent.time_s);
    check_tour(inst, &beside);
    assert_int_equal(beside.length, before.length);
    assert_memory_equal(beside.tour, before.tour, (size_t)beside.n * sizeof *beside.tour);
    assert_true(beside.lower_bound > 0 && beside.lower_bound == before.lower_bound);
    assert_int_equal(beside.ascent.iterations, before.ascent.iterations);
    assert_string_equal(beside.ascent.device, before.ascent.device);
    if (!gpu_is_cpu) assert_true(on_gpu(beside.ascent.device));
    wt_result_free(&beside);
    wt_result_free(&before);
    wt_instance_free(inst);

    inst = wt_test_random_instance(BESIDE_CUT_N, 24);
    beside_params(&p, &t);
    p.time_limit_s = 1.0;
    double t0 = now_s();
    wt_result r = solve(inst, &p);
    double wall = now_s() - t0;
    print_message("    %d cities, limit 1 s: %.3f s in all (%s), %llu kicks, ascent on '%s'\n",
                  BESIDE_CUT_N, wall, wt_stop_reason_name(r.stop),
                  (unsigned long long)r.ils.kicks, r.ascent.device);
    check_tour(inst, &r);
    assert_int_equal(r.stop, WT_STOP_TIME_LIMIT);
    wt_result_free(&r);

    /* Under a limit the GPU searches concurrent windows, and makes the
     * first optimum (2-opt + Or-opt) in the host's place: its passes are
     * counted; ils_lk_device_first off leaves it to the host. */
    for (int off = 0; off < 2; off++) {
        beside_params(&p, &t);
        p.time_limit_s = BESIDE_LIMIT_S;
        if (off) t.ils_lk_device_first = WT_TUNING_OFF;
        r = solve(inst, &p);
        print_message("    %d cities, limit %.0f s, first optimum on the %s: %s, length %lld, "
                      "%llu GPU passes, %llu kicks, ascent on '%s' (%s)\n", BESIDE_CUT_N,
                      BESIDE_LIMIT_S, off ? "host" : "GPU", wt_stop_reason_name(r.stop),
                      (long long)r.length, (unsigned long long)r.scan.passes,
                      (unsigned long long)r.ils.kicks, r.ascent.device, r.device);
        check_tour(inst, &r);
        if (!gpu_is_cpu) {
            assert_true(off ? r.scan.passes == 0 : r.scan.passes > 0);
            /* the result says where the first optimum was made */
            assert_true((strstr(r.device, "first optimum") != NULL) == !off);
        }
        wt_result_free(&r);
    }
    wt_instance_free(inst);
}

/* ------------------------------------------------------ a million cities */

static void test_million_cities(void **state)
{
    (void)state;
    wt_instance *inst = wt_test_random_instance(1000000, 1);
    wt_params p;
    wt_tuning t = {0};
    wt_params_defaults(&p);
    t.auto_device_min_ms = WT_TUNING_OFF;
    p.backend = gpu_is_cpu ? WT_BACKEND_CPU : WT_BACKEND_AUTO;
    p.time_limit_s = 10;
    p.tuning = &t;
    wt_result r = solve(inst, &p);
    print_message("    solve, 10 s: %.3f s (%s), %s descents, length %lld, bound %lld "
                  "(ascent on '%s', %.2f s)\n", r.time_s, wt_stop_reason_name(r.stop),
                  wt_ils_descent_name(r.ils.descent), (long long)r.length,
                  (long long)r.lower_bound, r.ascent.device, r.ascent.time_s);
    check_tour(inst, &r);
    assert_true(r.lower_bound == -1 || (r.lower_bound > 0 && r.lower_bound <= r.length));

    /* The bound alone, the search's first period (wt_lower_bound's own,
     * n / 2, runs for far longer), under the same limit. */
    t.ascent_period = 100;
    wt_bound b;
    wt_error err = {0};
    if (wt_lower_bound(inst, &p, &b, &err) != WT_OK) fail_msg("bound: %s", err.message);
    print_message("    bound, 10 s: %.3f s (%s) on %s, %d steps, bound %lld, %.3f%% below the "
                  "tour\n", b.time_s, wt_stop_reason_name(b.stop), b.device, b.iterations,
                  (long long)b.lower_bound,
                  b.lower_bound > 0 ? 100.0 * (double)(r.length - b.lower_bound) /
                                          (double)b.lower_bound
                                    : NAN);
    if (!gpu_is_cpu) {
        assert_int_equal(b.stop, WT_STOP_DONE);
        assert_true(on_gpu(b.device));
        assert_true(b.lower_bound > 0 && b.lower_bound <= r.length);
    }
    wt_result_free(&r);
    wt_instance_free(inst);
}

int main(void)
{
    int skip = gpu_test_begin(&gpu_is_cpu);
    if (skip) return skip;
    gpu_test_filters();
    const struct CMUnitTest tests[] = {
        GPU_TEST(test_gpu_short_of_memory),
        GPU_TEST(test_stop_in_ascent),
        GPU_TEST(test_ascent_beside_first_descent),
        GPU_TEST(test_million_cities),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
