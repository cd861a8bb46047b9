/*
 * solve.c - wt_solve(): start tour, backend choice, search, result.
 *
 * The one entry point of the library's searches.  It picks the device,
 * once (--backend auto takes the GPU that params.cuda_device numbers when
 * it is usable and its backend has a kernel for the algorithm, else the
 * CPU), builds or copies the start tour, runs the algorithm against the
 * backend interface on that device and packs the result.  The best
 * tour is returned even when the search is stopped by the time limit or the
 * caller, so the CLI can always write it.
 */
#include <math.h>
#include <omp.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "core/climb_start.h"
#include "algo/alpha.h"
#include "algo/batch.h"
#include "algo/bench_hooks.h"
#include "algo/descent.h"
#include "algo/descent_split.h"
#include "algo/devices.h"
#include "algo/ils.h"
#include "algo/ils_keep.h"
#include "algo/ils_local.h"
#include "algo/policy.h"
#include "algo/windows.h"
#include "algo/polish.h"
#include "core/search_ctl.h"
#include "backend/backend.h"
#include "core/error.h"
#include "core/fixed_edges.h"
#include "core/init.h"
#include "core/instance.h"
#include "core/instance_subset.h"

void wt_params_defaults(wt_params *p)
{
    if (!p) return;
    memset(p, 0, sizeof *p);
    p->algorithm = WT_ALGO_ILS; /* the CLI's solve and Python's default */
    p->backend = WT_BACKEND_AUTO;
    p->init = WT_INIT_GREEDY;
    p->seed = 1;
    p->time_limit_s = 0;
    p->threads = 0;
    p->progress_interval_s = 0.5;
    p->swaps = 0;
    p->kswap_nested = true;
    p->kswap_band = 64;
    p->prune = true;
    p->restarts = 0;
    p->kicks = 0;
    p->accept_equal = false;
    p->ils_descent = WT_ILS_AUTO;
    /* Lam et al., Table 1. */
    p->sa_searches = 0;
    p->sa_moves = 0;
    p->sa_t_start = 10000.0;
    p->sa_t_end = 0.1;
    p->sa_alpha = 0.99;
    p->sa_sweeps = 10;
    p->sa_exchange = 100;
    p->sa_cpu = WT_SA_SSPM;
    p->sa_polish = true;
    p->open = false;
    p->start_city = -1;
    p->end_city = -1;
}

void wt_result_free(wt_result *res)
{
    if (!res) return;
    free(res->tour);
    memset(res, 0, sizeof *res);
}

/* Whether ILS repairs each kick on the host's threads (local, LK or window
 * descents, the last handing over to the host's) rather than by the
 * backend's full 2-opt passes: every descent but WT_ILS_FULL, auto
 * included, which takes LK or local descents by the tour's size and the
 * time limit (wt_policy_ils_descent, algo/policy.h).  On a device backend
 * the first descent, from the start tour, is the device's full 2-opt
 * descent; --backend auto keeps ILS with LK descents on the host
 * (auto_on_host). */
static bool ils_local(const wt_params *p)
{
    return p->algorithm == WT_ALGO_ILS && p->ils_descent != WT_ILS_FULL;
}

/* Whether a GPU would run the ascent of p's LK search for its alpha lists:
 * auto lets the GPU take part under p's limit, the tuning leaves the lists
 * on, and wt_alpha_device finds a usable GPU (which makes its context). */
static bool device_alpha_lists(const wt_params *p)
{
    const wt_tuning *t = wt_tuning_of(p);
    if (t->lk_alpha == WT_TUNING_OFF || t->lk_alpha == 2 ||
        !wt_policy_auto_device(p->time_limit_s, t->auto_device_min_ms))
        return false;
    wt_device dev; /* the host's for --backend cpu */
    wt_alpha_device(p, &dev);
    return !dev.backend->host;
}

/* The host threads of p's search. */
static int run_threads(const wt_params *p)
{
    return p->threads > 0 ? p->threads : omp_get_num_procs();
}

/* The descent ILS runs after each kick: auto resolved for n cities.  The
 * GPU is asked only where the answer depends on it. */
static wt_ils_descent ils_descent_run(const wt_params *p, int n)
{
    double limit = p->time_limit_s;
    int T = run_threads(p);
    wt_ils_descent without = wt_policy_ils_descent(p->ils_descent, n, limit, 0);
    wt_ils_descent with = wt_policy_ils_descent(p->ils_descent, n, limit, T);
    return with != without && device_alpha_lists(p) ? with : without;
}

/* Whether --backend auto runs the search on the host alone: ILS with LK
 * descents, whose kicks run on the host's threads anyway, and for which
 * the GPU's first descent (a full 2-opt optimum) is a worse start than the
 * host's LK descent from the start tour (bench/RESULTS.md, "Why LK runs on
 * the host, not after the GPU's 2-opt descent"). */
static bool auto_on_host(const wt_params *p, int n)
{
    return p->backend == WT_BACKEND_AUTO && p->algorithm == WT_ALGO_ILS &&
           ils_descent_run(p, n) == WT_ILS_LK;
}

/* Whether auto's ILS with LK descents leaves the GPU out altogether: no
 * context, no concurrent windows, the ascent on the host, under a time
 * limit too short for the GPU's start-up to pay (wt_policy_auto_device).
 * A run without a time limit keeps its GPU ascent: a kick budget gives
 * the same tour as ever. */
static bool auto_host_only(const wt_params *p, int n)
{
    return auto_on_host(p, n) &&
           !wt_policy_auto_device(p->time_limit_s, wt_tuning_of(p)->auto_device_min_ms);
}

/* Whether auto's ILS with LK or local descents under a time limit has the
 * GPU, where one is usable, search windows of the tour concurrently with
 * the host's threads (windows_concurrent.h): on tours that
 * wt_policy_concurrent_windows_size admits (tuning.ils_concurrent_min), with
 * more than one thread, no kick budget and a limit from which the GPU
 * pays (auto_host_only).  With local descents the GPU's first descent
 * stays: only LK's runs on the host. */
static bool concurrent_windows_wanted(const wt_params *p, int n)
{
    wt_ils_descent d = ils_descent_run(p, n);
    return p->backend == WT_BACKEND_AUTO && p->algorithm == WT_ALGO_ILS &&
           !auto_host_only(p, n) && (d == WT_ILS_LK || d == WT_ILS_LOCAL) &&
           p->time_limit_s > 0 && p->kicks == 0 &&
           wt_policy_concurrent_windows_size(n, wt_tuning_of(p)->ils_concurrent_min) &&
           p->threads != 1;
}

/* Kicks of an ILS run: as asked, else unbounded under a time limit, else
 * wt_policy_ils_kicks's. */
static uint64_t ils_kicks(const wt_params *p, int n)
{
    if (p->kicks > 0) return p->kicks;
    if (p->time_limit_s > 0) return 0;
    return wt_policy_ils_kicks(!ils_local(p), n);
}

/* Whether params.cuda_device names one of b's devices, where b is a
 * device backend and the machine has any. */
static wt_status check_device(const wt_backend *b, const wt_params *p, wt_error *err)
{
    int count = b->host ? 0 : wt_backend_devices(b);
    if (count > 0 && p->cuda_device >= count)
        return wt_fail(err, WT_STATUS_INVALID_ARGUMENT, "wt_solve: params.cuda_device is %d; "
                       "this machine has %d %s device%s (0..%d)", p->cuda_device, count,
                       b->name, count == 1 ? "" : "s", count - 1);
    return WT_OK;
}

/* The device of the backend params.backend names, if it can run the
 * search here. */
static wt_status named_device(const wt_params *p, wt_device *out, char *device,
                              size_t device_size, wt_error *err)
{
    const wt_backend *b = wt_backend_of(p->backend);
    wt_status st = check_device(b, p, err);
    if (st != WT_OK) return st;
    wt_device dev;
    wt_device_of(b, b->host ? 0 : p->cuda_device, &dev);
    if (!wt_device_usable(&dev, device, device_size))
        return wt_fail(err, WT_STATUS_NO_DEVICE, "the %s backend is not available: %s",
                       b->name, device);
    if (!wt_backend_has(b, p->algorithm))
        return wt_fail(err, WT_STATUS_NO_DEVICE, "the %s backend has no kernel for "
                       "--algorithm %s yet; use --backend cpu or auto", b->name,
                       wt_algorithm_name(p->algorithm));
    if (!wt_backend_runs(b, p))
        return wt_fail(err, WT_STATUS_NO_DEVICE, "the %s backend draws no local sa moves "
                       "(--near); use --backend cpu or auto", b->name);
    *out = dev;
    return WT_OK;
}

/* --backend auto: the device params.cuda_device numbers of the first
 * device backend of the registry that can run the search, where it is
 * usable, else the device of the first host backend that can. */
static wt_status auto_device(const wt_params *p, wt_device *out, char *device,
                             size_t device_size, wt_error *err)
{
    const wt_backend *b, *host = NULL;
    for (int i = 0; (b = wt_backend_at(i)) != NULL; i++) {
        if (!wt_backend_runs(b, p)) continue;
        if (b->host) {
            if (!host) host = b;
            continue;
        }
        wt_status st = check_device(b, p, err);
        if (st != WT_OK) return st;
        wt_device_of(b, p->cuda_device, out);
        if (wt_device_usable(out, device, device_size)) return WT_OK;
    }
    if (!host)
        return wt_fail(err, WT_STATUS_NO_DEVICE, "no backend runs --algorithm %s here",
                       wt_algorithm_name(p->algorithm));
    wt_device_of(host, 0, out);
    return WT_OK;
}

/* Whether params.cuda_device names a device of every device backend, for
 * auto's runs that keep the search on the host but may still use the GPU
 * (its ascent, its windows): the same check as a run on the GPU. */
static wt_status check_devices(const wt_params *p, wt_error *err)
{
    const wt_backend *b;
    for (int i = 0; (b = wt_backend_at(i)) != NULL; i++) {
        wt_status st = b->host ? WT_OK : check_device(b, p, err);
        if (st != WT_OK) return st;
    }
    return WT_OK;
}

static wt_status choose_device(const wt_params *p, wt_device *out, char *device,
                               size_t device_size, wt_error *err)
{
    if (p->backend == WT_BACKEND_AUTO) return auto_device(p, out, device, device_size, err);
    return named_device(p, out, device, device_size, err);
}

static bool ctl_stop_asked(void *ctl) { return wt_ctl_expired(ctl); }

/* The choice of a device, made on a thread of its own while the host builds
 * the start tour: asking whether a GPU is usable creates its context, a
 * fraction of a second that a short run would otherwise spend before the
 * start tour (bench/RESULTS.md, "The million's first seconds"). */
typedef struct device_choice {
    const wt_params *params;
    wt_device device;
    char description[128];
    wt_status status;
    wt_error err;
} device_choice;

static void *choose_device_thread(void *arg)
{
    device_choice *c = arg;
    c->status = choose_device(c->params, &c->device, c->description, sizeof c->description,
                              &c->err);
    return NULL;
}

/* Whether the choice asks a device and cannot fail but for a bad
 * cuda_device, so that it can run during the start tour's build: auto
 * (which falls back on the host) where a device backend can run the
 * search.  An explicit backend is checked first, so that a missing GPU is
 * reported before the build. */
static bool choice_during_build(const wt_params *p)
{
    if (p->backend != WT_BACKEND_AUTO) return false;
    const wt_backend *b;
    for (int i = 0; (b = wt_backend_at(i)) != NULL; i++)
        if (!b->host && wt_backend_runs(b, p)) return true;
    return false;
}

/* Fills tour from params->start_tour or the configured start heuristic;
 * *cut: what a stop did to the heuristic. */
static wt_status make_start_tour(const wt_instance *inst, wt_search_ctl *ctl, int32_t *tour,
                                 wt_init_cut *cut, wt_error *err)
{
    const wt_params *p = ctl->params;
    /* Multistart climbs make their own start tours; this one only keeps the
     * tour valid should the run return none of its own. */
    if (p->algorithm == WT_ALGO_MULTISTART) {
        wt_climb_start_tour(p->seed, 0, inst->n, tour);
        return WT_OK;
    }
    wt_status st;
    if (!p->start_tour) {
        /* A time limit or Ctrl-C during a long build (greedy takes seconds
         * at millions of cities) cuts it short: a valid tour at once. */
        wt_init_stop stop = {ctl_stop_asked, ctl};
        st = wt_tour_init_until(inst, p->init, p->seed, p->threads, &stop, tour, cut, err);
    } else {
        st = wt_tour_validate(p->start_tour, inst->n, err);
        if (st == WT_OK) memcpy(tour, p->start_tour, (size_t)inst->n * sizeof *tour);
    }
    if (st != WT_OK || !ctl->fixed) return st;
    /* Fixed edges: their chains spliced into the tour where it meets them
     * (a tour that holds them all is only rotated). */
    int32_t *out = malloc((size_t)inst->n * sizeof *out);
    unsigned char *placed = malloc((size_t)inst->n);
    if (out && placed) wt_tour_force_fixed(tour, inst->n, ctl->fixed, out, placed);
    free(out);
    free(placed);
    if (!out || !placed)
        return wt_fail(err, WT_STATUS_OUT_OF_MEMORY, "out of memory for the start tour");
    return WT_OK;
}

/* The shortest tour of a few cities (n <= 9) that holds the fixed edges,
 * by trying every order from city 0 (8! at most): the engines need 8
 * cities for a kick. */
static void exhaustive_fixed(const wt_instance *inst, const int32_t *fixed, int32_t *tour)
{
    int n = inst->n, perm[9], best[9];
    int64_t best_len = INT64_MAX;
    for (int i = 0; i < n; i++) perm[i] = i;
    /* Heap's algorithm over perm[1..n-1]. */
    int c[9] = {0}, m = n - 1;
    for (int i = 0;;) {
        bool holds = true;
        int64_t len = 0;
        for (int k = 0; k < n && holds; k++) {
            int a = perm[k], b = perm[(k + 1) % n];
            len += wt_dist(inst, a, b);
            for (int side = 0; side < 2; side++) {
                int f = fixed[2 * a + side];
                if (f >= 0 && f != b && f != perm[(k + n - 1) % n]) holds = false;
            }
        }
        if (holds && len < best_len) {
            best_len = len;
            memcpy(best, perm, sizeof best);
        }
        while (i < m && c[i] >= i) c[i++] = 0;
        if (i >= m) break;
        int j = i % 2 == 0 ? 0 : c[i];
        int t = perm[1 + j];
        perm[1 + j] = perm[1 + i];
        perm[1 + i] = t;
        c[i]++;
        i = 0;
    }
    if (best_len < INT64_MAX)
        for (int k = 0; k < n; k++) tour[k] = best[k];
}

/* What runs where, for wt_result.device: device holds the chosen device's
 * description on entry (the GPU's, for concurrent windows), the run's on
 * exit; gpu_first: the GPU of the concurrent windows made the host's
 * first optimum too (ils_local.c, LK on large tours). */
static void describe_run(const wt_params *params, int n, const wt_backend *backend, int threads,
                         bool concurrent, bool gpu_first, char *device, size_t size)
{
    char gpu[128];
    snprintf(gpu, sizeof gpu, "%s", device);
    const char *s = threads == 1 ? "" : "s";
    wt_ils_descent run_as = ils_descent_run(params, n);
    const char *descents = run_as == WT_ILS_LK        ? "LK descents"
                           : run_as == WT_ILS_WINDOWS ? "window searches"
                                                      : "local descents";
    if (concurrent && backend->host)
        snprintf(device, size, "CPU, %d thread%s, %s; %.50s: %sconcurrent window searches",
                 threads, s, descents, gpu, gpu_first ? "first optimum, " : "");
    else if (concurrent)
        snprintf(device, size, "%.40s: first descent, concurrent windows; CPU, %d thread%s: "
                 "local descents", gpu, threads, s);
    else if (ils_local(params) && !backend->host && run_as == WT_ILS_WINDOWS)
        snprintf(device, size, "%.40s: first descent, window searches; then CPU, %d thread%s: "
                 "%s descents", gpu, threads, s, wt_policy_lk_after_windows(n) ? "LK" : "local");
    else if (ils_local(params) && !backend->host)
        snprintf(device, size, "%.60s: first descent; CPU, %d thread%s: %s", gpu, threads, s,
                 descents);
    else if (ils_local(params))
        snprintf(device, size, "CPU, %d thread%s, %s", threads, s, descents);
    else if (backend->host)
        snprintf(device, size, "CPU, %d thread%s", threads, s);
}

/* Climbs to run: as asked, else unbounded under a time limit, else
 * WT_MULTISTART_RESTARTS. */
static uint64_t multistart_restarts(const wt_params *p)
{
    if (p->restarts > 0) return p->restarts;
    return p->time_limit_s > 0 ? 0 : WT_MULTISTART_RESTARTS;
}

static wt_status run_multistart(const wt_device *dev, const wt_instance *inst, int32_t *tour,
                                wt_search_ctl *ctl, wt_multistart_kernel kernel,
                                wt_search_stats *stats, wt_error *err)
{
    const wt_params *p = ctl->params;
    wt_multistart_job job = {p->seed, multistart_restarts(p), kernel};
    wt_status st = dev->backend->multistart(dev, inst, &job, ctl, tour, stats, err);
    if (st != WT_OK) return st;
    /* Climbing "for as long as the time limit allows" ends normally there,
     * once a climb has reached its local optimum; a limit that cut short
     * every climb stopped the run early. */
    if (job.restarts == 0 && ctl->stop == WT_STOP_TIME_LIMIT && stats->climbs > 0)
        ctl->stop = WT_STOP_DONE;
    /* The start tour worth reporting is the one the winning climb began from. */
    int32_t *start = malloc((size_t)inst->n * sizeof *start);
    if (start) {
        wt_climb_start_tour(p->seed, stats->best_climb, inst->n, start);
        ctl->init_length = wt_tour_length(inst, start);
        free(start);
    }
    return WT_OK;
}

/* Whether the fixed edges (two cities a city, -1: none) of n cities are
 * one edge alone (an open path's closing edge), *a and *b its ends. */
static bool one_fixed_edge(const int32_t *fixed, int n, int *a, int *b)
{
    int ends = 0;
    *a = *b = -1;
    for (int c = 0; c < n && ends <= 2; c++) {
        if (fixed[2 * c + 1] >= 0) return false;
        if (fixed[2 * c] < 0) continue;
        if (ends++ == 0) *a = c;
        else *b = c;
    }
    return ends == 2 && fixed[2 * *a] == *b;
}

/* Whether GPU chosen makes the first descent of an open path (fixed: its
 * closing edge alone) for the host's local descents: of its cities as a
 * tour, as for a closed tour of that size, the ends joined again after. */
static bool path_first_on(const wt_device *chosen, const wt_instance *inst,
                          const wt_params *p, const int32_t *fixed)
{
    int a, b;
    return fixed && !chosen->backend->host && p->algorithm == WT_ALGO_ILS &&
           ils_descent_run(p, inst->n) == WT_ILS_LOCAL && one_fixed_edge(fixed, inst->n, &a, &b);
}

/* ILS on device dev; concurrent (NULL: none) the device of the concurrent
 * windows; path_gpu (NULL: none) the GPU that makes an open path's first
 * descent (path_first_on). */
static wt_status run_ils(const wt_device *dev, const wt_instance *inst, int32_t *tour,
                         wt_search_ctl *ctl, const wt_device *concurrent,
                         const wt_device *path_gpu, wt_search_stats *stats, wt_error *err)
{
    const wt_backend *b = dev->backend;
    const wt_params *p = ctl->params;
    uint64_t kicks = ils_kicks(p, inst->n);
    /* Stopped already (a limit shorter than the start tour's build): not
     * even the set-up, which is long on large tours. */
    if (wt_ctl_expired(ctl)) return WT_OK;
    /* Below 8 cities there is no kick, and the backend's descent is exact. */
    if (!ils_local(p) || inst->n < 8)
        return wt_ils_run(dev, inst, tour, ctl, kicks, stats, err);
    bool two_opted = !b->host;
    int a = -1, z = -1;
    if (!b->host || ils_descent_run(p, inst->n) == WT_ILS_WINDOWS) {
        /* The first optimum on the device (on the host too for window
         * descents, which cannot repair edges between windows alone); the
         * host's threads take it from there (a stop during this descent
         * leaves them nothing to do). */
        wt_status st = wt_descent_first_handover(dev, inst, tour, ctl, stats, err);
        if (st != WT_OK || wt_ctl_expired(ctl)) return st;
    } else if (path_gpu && one_fixed_edge(ctl->fixed, inst->n, &a, &z)) {
        /* An open path (its closing edge fixed): the GPU's first optimum of
         * its cities as a tour, the ends then joined again by one 2-opt
         * move, which the host's first descent repairs where it cost. */
        wt_status st = wt_descent_first_handover(path_gpu, inst, tour, ctl, stats, err);
        wt_tour_make_neighbours(inst, tour, inst->n, a, z);
        if (st != WT_OK || wt_ctl_expired(ctl)) return st;
        two_opted = true;
    }
    bool lk = ils_descent_run(p, inst->n) == WT_ILS_LK;
    if (ils_descent_run(p, inst->n) == WT_ILS_WINDOWS) {
        /* Windows until their gains dry up, then the host's descents (LK
         * where auto takes it) for the moves between windows. */
        bool handed_over = false;
        wt_device on = *dev; /* the host's where dev's backend has no window search */
        if (!b->windows) wt_device_host(&on);
        wt_status st = wt_windows_search(inst, tour, ctl, &on, wt_tuning_of(p)->ils_window,
                                         WT_WINDOW_HANDOVER, &handed_over, stats, err);
        if (st != WT_OK || !handed_over) return st;
        lk = wt_policy_lk_after_windows(inst->n);
    }
    /* The whole tour's lists from the run's GPU, or the concurrent windows' */
    const wt_device *lists_on = b->host ? concurrent : dev;
    return wt_ils_local_run(inst, tour, ctl, two_opted, lk, concurrent, lists_on, kicks, stats,
                            err);
}

/* The sa job that params ask for. */
static wt_sa_job sa_job_of(const wt_params *p)
{
    return (wt_sa_job){
        .seed = p->seed, .searches = p->sa_searches, .moves = p->sa_moves,
        .t_start = p->sa_t_start, .t_end = p->sa_t_end, .alpha = p->sa_alpha,
        .sweeps = p->sa_sweeps, .exchange = p->sa_exchange, .cpu = p->sa_cpu,
        .near = p->sa_near,
    };
}

/* Simulated annealing runs until its schedule ends (the temperature is no
 * longer above t_end).  A time limit that comes first cuts the anneal
 * short, which is not its normal end: the run reports WT_STOP_TIME_LIMIT.
 * A complete anneal is then polished on the host (algo/polish.h), whatever
 * the backend, unless params->sa_polish is off. */
static wt_status run_sa(const wt_device *dev, const wt_instance *inst, int32_t *tour,
                        wt_search_ctl *ctl, wt_search_stats *stats, wt_sa_job *job, wt_error *err)
{
    const wt_params *p = ctl->params;
    *job = sa_job_of(p); /* checked by validate_params */
    wt_status st = dev->backend->sa(dev, inst, job, ctl, tour, stats, err);
    if (st != WT_OK) return st;
    stats->unpolished_length = wt_tour_length(inst, tour);
    /* An anneal stopped early is returned as it is: the caller wants it now. */
    if (!p->sa_polish || ctl->stop != WT_STOP_DONE || wt_ctl_expired(ctl)) return WT_OK;
    double t0 = wt_now();
    wt_polish_stats ps = {0};
    st = wt_polish(inst, tour, ctl, &ps, err);
    stats->polish_moves = ps.moves_2opt + ps.moves_oropt;
    stats->polish_time_s = wt_now() - t0;
    return st;
}

static wt_status run_algorithm(const wt_device *dev, const wt_instance *inst, int32_t *tour,
                               wt_search_ctl *ctl, wt_multistart_kernel kernel,
                               const wt_device *concurrent, const wt_device *path_gpu,
                               wt_search_stats *stats, wt_sa_job *sa, wt_error *err)
{
    switch (ctl->params->algorithm) {
    case WT_ALGO_2OPT: return wt_twoopt_descend(dev, inst, tour, ctl, stats, err);
    case WT_ALGO_MULTISTART: return run_multistart(dev, inst, tour, ctl, kernel, stats, err);
    case WT_ALGO_ILS: return run_ils(dev, inst, tour, ctl, concurrent, path_gpu, stats, err);
    case WT_ALGO_SA: return run_sa(dev, inst, tour, ctl, stats, sa, err);
    }
    return wt_fail(err, WT_STATUS_INVALID_ARGUMENT, "unknown algorithm");
}

/* Whether d is a finite number no smaller than lo. */
static bool finite_from(double d, double lo) { return isfinite(d) && d >= lo; }

/* Checks tuning field `field` of value v: 0 (the default) or one of the
 * 0-terminated list allowed. */
static wt_status check_choice(const char *field, int v, const int *allowed, wt_error *err)
{
    if (v == 0) return WT_OK;
    char list[64] = ""; /* ", 8, 16" */
    size_t used = 0;
    for (const int *a = allowed; *a; a++) {
        if (v == *a) return WT_OK;
        used += (size_t)snprintf(list + used, sizeof list - used, ", %d", *a);
    }
    return wt_fail(err, WT_STATUS_INVALID_ARGUMENT, "wt_solve: params.tuning.%s is %d; "
                   "expected 0 (the default)%s", field, v, list);
}

/* Checks a tuning against what warptour_experimental.h lists for each
 * field. */
static wt_status validate_tuning(const wt_tuning *t, wt_error *err)
{
#define BAD(...) wt_fail(err, WT_STATUS_INVALID_ARGUMENT, "wt_solve: params.tuning." __VA_ARGS__)
    static const int rows[] = {8, 16, 0}, blocks[] = {128, 256, 512, 0},
                     pieces[] = {256, 512, 1024, 0}, periods[] = {2, 4, 8, 0},
                     ms_blocks[] = {32, 64, 128, 256, 512, 0}, ms_tcs[] = {4, 8, 16, 0},
                     gap_cs[] = {7, 8, 10, 0};
    const struct { const char *field; int value; const int *allowed; } choices[] = {
        {"pass_rows", t->pass_rows, rows},     {"pass_block", t->pass_block, blocks},
        {"pass_piece", t->pass_piece, pieces}, {"pass_period", t->pass_period, periods},
        {"ms_block", t->ms_block, ms_blocks},  {"ms_tc", t->ms_tc, ms_tcs},
        {"ms_gap_c", t->ms_gap_c, gap_cs},
    };
    for (size_t k = 0; k < sizeof choices / sizeof choices[0]; k++) {
        wt_status st = check_choice(choices[k].field, choices[k].value, choices[k].allowed, err);
        if (st != WT_OK) return st;
    }
    /* 0 (the default), WT_TUNING_OFF or more */
    const struct { const char *field; int64_t value; } or_more[] = {
        {"ils_round_kicks", t->ils_round_kicks},
        {"ils_segment_min", t->ils_segment_min},
        {"ils_list_descent_min", t->ils_list_descent_min},
        {"ils_merged_min", t->ils_merged_min},
        {"ils_concurrent_min", t->ils_concurrent_min},
        {"ils_device_lists_min", t->ils_device_lists_min},
        {"renumber_min", t->renumber_min},
        {"ils_lk_large_min", t->ils_lk_large_min},
        {"ils_plain_list_min", t->ils_plain_list_min},
        {"ils_starts", t->ils_starts},
        {"ils_replica_every", t->ils_replica_every},
        {"ils_share_round_every", t->ils_share_round_every},
        {"ils_merge", t->ils_merge},
    };
    for (size_t k = 0; k < sizeof or_more / sizeof or_more[0]; k++)
        if (or_more[k].value < WT_TUNING_OFF)
            return BAD("%s is %lld; expected 0 (the default), WT_TUNING_OFF or more",
                       or_more[k].field, (long long)or_more[k].value);
    if (t->ils_segment_max != 0 && t->ils_segment_max != WT_TUNING_OFF && t->ils_segment_max < 8)
        return BAD("ils_segment_max is %lld; expected 0 (the default), WT_TUNING_OFF or >= 8",
                   (long long)t->ils_segment_max);
    if (t->ils_window != 0 && t->ils_window < 8)
        return BAD("ils_window is %d; expected 0 (the default) or at least 8", t->ils_window);
    const struct { const char *field; int value, most; } ranges[] = {
        {"lk_candidates", t->lk_candidates, 16}, {"lk_depth", t->lk_depth, 100},
        {"lk_breadth1", t->lk_breadth1, 12},     {"lk_breadth2", t->lk_breadth2, 12},
        {"lk_breadth3", t->lk_breadth3, 12},     {"lk_walk", t->lk_walk, 1000},
        {"lk_breadth4", t->lk_breadth4, 12},     {"lk_breadth5", t->lk_breadth5, 12},
        {"ascent_iterations", t->ascent_iterations, 1000000},
        {"ascent_share_pct", t->ascent_share_pct, 100},
        {"ascent_period", t->ascent_period, 1000000},
        {"ils_searches", t->ils_searches, 256},
    };
    for (size_t k = 0; k < sizeof ranges / sizeof ranges[0]; k++)
        if (ranges[k].value < 0 || ranges[k].value > ranges[k].most)
            return BAD("%s is %d; expected 0 (the default) or 1 to %d", ranges[k].field,
                       ranges[k].value, ranges[k].most);
    if (t->ils_window_3opt != 0 && t->ils_window_3opt != WT_TUNING_OFF &&
        (t->ils_window_3opt < 1 || t->ils_window_3opt > WT_BATCH_NEIGHBOURS))
        return BAD("ils_window_3opt is %d; expected 0 (the default), WT_TUNING_OFF or 1..%d",
                   t->ils_window_3opt, WT_BATCH_NEIGHBOURS);
    if (t->lk_kopt_chains != 0 && t->lk_kopt_chains != WT_TUNING_OFF &&
        (t->lk_kopt_chains < 1 || t->lk_kopt_chains > 2))
        return BAD("lk_kopt_chains is %d; expected 0 (the default), WT_TUNING_OFF, 1 or 2",
                   t->lk_kopt_chains);
    if (t->lk_nonseq != 0 && t->lk_nonseq != WT_TUNING_OFF && t->lk_nonseq != 1)
        return BAD("lk_nonseq is %d; expected 0 (the default), WT_TUNING_OFF or 1", t->lk_nonseq);
    if (t->lk_kopt != 0 && t->lk_kopt != WT_TUNING_OFF && (t->lk_kopt < 3 || t->lk_kopt > 5))
        return BAD("lk_kopt is %d; expected 0 (the default), WT_TUNING_OFF (the flip chain) or "
                   "3 to 5",
                   t->lk_kopt);
    if (t->lk_kopt_submoves != 0 && t->lk_kopt_submoves != WT_TUNING_OFF &&
        (t->lk_kopt_submoves < 1 || t->lk_kopt_submoves > 100))
        return BAD("lk_kopt_submoves is %d; expected 0 (the default), WT_TUNING_OFF or 1 to 100",
                   t->lk_kopt_submoves);
    if (t->lk_kick_candidates != 0 && t->lk_kick_candidates != WT_TUNING_OFF &&
        (t->lk_kick_candidates < 1 || t->lk_kick_candidates > 16))
        return BAD("lk_kick_candidates is %d; expected 0 (the default), WT_TUNING_OFF or 1 to 16",
                   t->lk_kick_candidates);
    if (t->lk_kick_pi != 0 && t->lk_kick_pi != WT_TUNING_OFF && t->lk_kick_pi != 1)
        return BAD("lk_kick_pi is %d; expected 0 (the default), WT_TUNING_OFF or 1",
                   t->lk_kick_pi);
    if (t->lk_alpha != 0 && t->lk_alpha != WT_TUNING_OFF && t->lk_alpha != 1 && t->lk_alpha != 2)
        return BAD("lk_alpha is %d; expected 0 (the default), WT_TUNING_OFF, 1 or 2",
                   t->lk_alpha);
    if (t->lk_alpha_start != 0 && t->lk_alpha_start != WT_TUNING_OFF && t->lk_alpha_start != 1)
        return BAD("lk_alpha_start is %d; expected 0 (the default), WT_TUNING_OFF or 1",
                   t->lk_alpha_start);
    if (t->lk_alpha_beside != 0 && t->lk_alpha_beside != WT_TUNING_OFF)
        return BAD("lk_alpha_beside is %d; expected 0 (the default) or WT_TUNING_OFF",
                   t->lk_alpha_beside);
    if (t->ils_lk_device_first != 0 && t->ils_lk_device_first != WT_TUNING_OFF)
        return BAD("ils_lk_device_first is %d; expected 0 (the default) or WT_TUNING_OFF",
                   t->ils_lk_device_first);
    int round_ms = t->ils_concurrent_round_ms;
    if (round_ms != 0 && (round_ms < 100 || round_ms > 60000))
        return BAD("ils_concurrent_round_ms is %d; expected 0 (the default) or 100 to 60000",
                   round_ms);
    if (t->ils_window_resident != 0 && t->ils_window_resident != WT_TUNING_OFF)
        return BAD("ils_window_resident is %d; expected 0 (the default) or WT_TUNING_OFF",
                   t->ils_window_resident);
    if (t->ils_concurrent_ahead < 0 || t->ils_concurrent_ahead > WT_CONCURRENT_AHEAD_MAX)
        return BAD("ils_concurrent_ahead is %d; expected 0 (the default) or 1 to %d",
                   t->ils_concurrent_ahead, WT_CONCURRENT_AHEAD_MAX);
    if (t->auto_device_min_ms != 0 && t->auto_device_min_ms != WT_TUNING_OFF &&
        (t->auto_device_min_ms < 1 || t->auto_device_min_ms > 3600000))
        return BAD("auto_device_min_ms is %d; expected 0 (the default), WT_TUNING_OFF or 1 to "
                   "3600000", t->auto_device_min_ms);
    if (t->pass_prune_min < 0)
        return BAD("pass_prune_min is %d; expected 0 (the default) or more", t->pass_prune_min);
    if ((unsigned)t->ms_scan > WT_MS_SCAN_ROUNDS)
        return BAD("ms_scan %d is no wt_ms_scan", (int)t->ms_scan);
    return WT_OK;
#undef BAD
}

/* Checks every field of p against what warptour.h documents, before any of
 * them sizes an allocation, a thread team (libgomp aborts the process on a
 * team it cannot create) or a loop.  Every algorithm's fields are checked
 * whichever runs: a bad value is a caller's bug either way.  The message
 * names the field. */
static wt_status validate_params(const wt_params *p, wt_error *err)
{
#define BAD(...) wt_fail(err, WT_STATUS_INVALID_ARGUMENT, "wt_solve: " __VA_ARGS__)
    if (!wt_algorithm_name(p->algorithm))
        return BAD("params.algorithm %d is no wt_algorithm", (int)p->algorithm);
    if (!wt_backend_name(p->backend))
        return BAD("params.backend %d is no wt_backend_kind", (int)p->backend);
    if ((unsigned)p->init > WT_INIT_BORUVKA)
        return BAD("params.init %d is no wt_init_method", (int)p->init);
    if (isnan(p->time_limit_s) || isinf(p->time_limit_s))
        return BAD("params.time_limit_s must be a finite number (<= 0: none)");
    if (p->threads < 0 || p->threads > WT_MAX_THREADS)
        return BAD("params.threads is %d; expected 0 (all cores) or 1..%d", p->threads,
                   WT_MAX_THREADS);
    if (p->swaps < 0) return BAD("params.swaps is %d; expected 0 (all) or more", p->swaps);
    if (p->kswap_band < 0)
        return BAD("params.kswap_band is %d; expected 0 (off) or more", p->kswap_band);
    if (!wt_ils_descent_name(p->ils_descent))
        return BAD("params.ils_descent %d is no wt_ils_descent", (int)p->ils_descent);
    wt_sa_job sa = sa_job_of(p);
    wt_status st = wt_sa_job_check(&sa, "wt_solve", err);
    if (st != WT_OK) return st;
    if (!finite_from(p->progress_interval_s, 0))
        return BAD("params.progress_interval_s must be a finite number of seconds >= 0");
    if (p->cuda_device < 0)
        return BAD("params.cuda_device is %d; expected 0 or more", p->cuda_device);
    st = wt_devices_check(p->devices, p->device_count, "wt_solve", err);
    if (st != WT_OK) return st;
    return validate_tuning(wt_tuning_of(p), err);
#undef BAD
}

/* p as out with the device list's first in cuda_device's place (the
 * device of everything but the window searches, which deal their windows
 * over the whole list: windows.c), once every device it lists is one of
 * the machine's. */
static wt_status with_device_list(const wt_params *p, wt_params *out, wt_error *err)
{
    *out = *p;
    out->cuda_device = wt_devices_first(p->devices, p->device_count, p->cuda_device);
    return wt_devices_for_backend(p->backend, p->devices, p->device_count, "wt_solve", err);
}

/* One ascent of wt_lower_bound as *plan says into *out: its steps added,
 * its bound and device kept where it proves a higher bound than *out's. */
static wt_status bound_run(const wt_instance *inst, const wt_device *dev, wt_search_ctl *ctl,
                           const wt_alpha_plan *plan, wt_bound *out, wt_error *err)
{
    wt_alpha alpha;
    wt_status st = wt_alpha_run(inst, dev, ctl, plan, NULL, 1, &alpha, err);
    if (st == WT_OK) {
        out->iterations += alpha.iterations;
        if (alpha.lower_bound > 0 && alpha.lower_bound > out->lower_bound) {
            out->lower_bound = alpha.lower_bound;
            snprintf(out->device, sizeof out->device, "%s", alpha.device);
        }
    }
    wt_alpha_free(&alpha);
    return st;
}

wt_status wt_lower_bound(const wt_instance *inst, const wt_params *params, wt_bound *out,
                         wt_error *err)
{
    if (!inst || !params || !out)
        return wt_fail(err, WT_STATUS_INVALID_ARGUMENT, "wt_lower_bound: need an instance, "
                       "parameters and a result");
    wt_params listed;
    wt_status st = validate_params(params, err);
    if (st == WT_OK) st = with_device_list(params, &listed, err);
    if (st != WT_OK) return st;
    params = &listed;
    /* Every asymmetric tour is a tour of the symmetric instance of the same
     * length (atsp.c): a bound on those is a bound on it. */
    if (inst->sym) inst = inst->sym;
    wt_search_ctl ctl;
    wt_ctl_init(&ctl, params);
    const wt_tuning *t = wt_tuning_of(params);
    wt_device dev;
    wt_alpha_device(params, &dev);
    /* The time limit ends the steps, not the finish: the bound is the
     * complete graph's tree under the best penalties so far (the stop flag
     * still ends both). */
    double until = ctl.deadline;
    ctl.deadline = INFINITY;
    bool ladder = isfinite(until) && t->ascent_period == 0 && t->ascent_iterations == 0;
    wt_alpha_plan plan = {until, t->ascent_iterations, ladder ? WT_ASCENT_PERIOD : t->ascent_period};
    *out = (wt_bound){.lower_bound = -1, .stop = WT_STOP_DONE};
    double t0 = wt_now();
    st = bound_run(inst, &dev, &ctl, &plan, out, err);
    if (st == WT_OK && ladder && ctl.stop == WT_STOP_DONE && out->iterations > 0) {
        plan.period = wt_policy_bound_period(inst->n, until - wt_now(),
                                             (wt_now() - t0) / out->iterations);
        if (plan.period > WT_ASCENT_PERIOD) st = bound_run(inst, &dev, &ctl, &plan, out, err);
    }
    if (st != WT_OK) return st;
    out->stop = ctl.stop;
    if (out->stop == WT_STOP_DONE && wt_now() >= until) out->stop = WT_STOP_TIME_LIMIT;
    out->time_s = wt_now() - ctl.t_start;
    return WT_OK;
}

wt_status wt_solve(const wt_instance *inst, const wt_params *params, wt_result *res,
                   wt_error *err)
{
    return wt_solve_ms_kernel(inst, params, WT_MS_KERNEL_BLOCK, res, err);
}

/* solve_core's search on inst as given, its clock started at t_start. */
static wt_status solve_search(const wt_instance *inst, const wt_params *params,
                              wt_multistart_kernel kernel, const int32_t *fixed,
                              wt_ils_keep *keep, double t_start, wt_result *res, wt_error *err)
{
    wt_search_ctl ctl;
    wt_ctl_init_at(&ctl, params, t_start);
    wt_ctl_finish_before(&ctl, WT_SOLVE_FINISH_S_PER_CITY * inst->n);
    ctl.fixed = fixed;
    ctl.keep = keep;
    int32_t *tour = malloc((size_t)inst->n * sizeof *tour);
    if (!tour) return wt_fail(err, WT_STATUS_OUT_OF_MEMORY, "out of memory for the tour");
    /* auto keeps ILS with LK descents on the host (see auto_on_host), with
     * the GPU's concurrent window searches where wanted and a GPU is
     * usable; under a short time limit it leaves the GPU out, the ascent's
     * slot too (auto_host_only: the search's params are then the host's,
     * which wt_alpha_device reads). */
    wt_params on_host = *params;
    bool concurrent_wanted = concurrent_windows_wanted(params, inst->n);
    if (auto_on_host(params, inst->n) && !concurrent_wanted) on_host.backend = WT_BACKEND_CPU;
    if (auto_host_only(params, inst->n)) {
        ctl.params = &on_host;
    } else if (on_host.backend != params->backend) {
        wt_status checked = check_devices(params, err);
        if (checked != WT_OK) {
            free(tour);
            return checked;
        }
    }
    device_choice choice = {.params = &on_host};
    pthread_t chooser;
    bool threaded = choice_during_build(&on_host) &&
                    pthread_create(&chooser, NULL, choose_device_thread, &choice) == 0;
    if (!threaded) choose_device_thread(&choice);
    wt_init_cut init_cut = WT_INIT_WHOLE;
    wt_status st = make_start_tour(inst, &ctl, tour, &init_cut, err);
    if (threaded) pthread_join(chooser, NULL);
    if (choice.status != WT_OK || st != WT_OK) {
        if (choice.status != WT_OK) {
            if (err) *err = choice.err;
            st = choice.status;
        }
        free(tour);
        return st;
    }
    /* The search runs on run_on; the chosen device, where it is a GPU,
     * searches concurrent windows of the tour as well where wanted.  It
     * serves LK's searches on the host that way; with local descents it
     * makes the first descent too. */
    const wt_device chosen = choice.device;
    wt_device run_on = chosen;
    char device[128];
    memcpy(device, choice.description, sizeof device);
    bool concurrent = concurrent_wanted && !chosen.backend->host;
    if (concurrent && auto_on_host(params, inst->n)) wt_device_host(&run_on);
    /* Fixed edges: the host's descents only (the device's passes would
     * not keep them); a GPU searches the concurrent windows, and an open
     * path's first descent where path_first_on says. */
    if (fixed) wt_device_host(&run_on);
    const wt_device *path_gpu = path_first_on(&chosen, inst, params, fixed) ? &chosen : NULL;
    const wt_backend *backend = path_gpu ? chosen.backend : run_on.backend;
    char gpu_name[128];
    memcpy(gpu_name, device, sizeof gpu_name);
    describe_run(params, inst->n, backend, ctl.threads, concurrent, false, device, sizeof device);

    double search_start = wt_now(), init_time = search_start - ctl.t_start;
    wt_search_stats stats = {0};
    wt_sa_job sa = {0};
    ctl.init_length = wt_tour_length(inst, tour);
    if (fixed && inst->n <= 9) exhaustive_fixed(inst, fixed, tour);
    else
        st = run_algorithm(&run_on, inst, tour, &ctl, kernel, concurrent ? &chosen : NULL, path_gpu,
                           &stats, &sa, err);
    if (st != WT_OK) {
        free(tour);
        return st;
    }
    memset(res, 0, sizeof *res);
    res->tour = tour;
    res->n = inst->n;
    res->length = wt_tour_length(inst, tour);
    res->length_real = wt_length_real(inst, res->length);
    res->init_length = ctl.init_length;
    res->stop = ctl.stop;
    res->time_s = wt_now() - ctl.t_start;
    res->init_time_s = init_time;
    res->init_cut = init_cut != WT_INIT_WHOLE;
    res->lower_bound = stats.lower_bound > 0 ? stats.lower_bound : -1;
    res->gap_to_bound_percent =
        stats.lower_bound > 0
            ? 100.0 * (double)(res->length - stats.lower_bound) / (double)stats.lower_bound
            : -1;
    /* Multistart's climbs start from random tours (make_start_tour). */
    res->init_given = params->start_tour && params->algorithm != WT_ALGO_MULTISTART;
    res->init_made = params->algorithm == WT_ALGO_MULTISTART ? WT_INIT_RANDOM
                     : stats.start_swept                 ? WT_INIT_BORUVKA
                     : init_cut == WT_INIT_CUT_SPACEFILL ? WT_INIT_SPACEFILL
                                                         : params->init;
    res->search_time_s = wt_now() - search_start - stats.polish_time_s;
    res->steps = stats.steps;
    res->moves_evaluated = stats.moves_evaluated;
    res->scan.passes = stats.passes;
    res->scan.time_s = stats.scan_time_s;
    res->multistart.climbs = stats.climbs;
    res->multistart.best_climb = stats.best_climb;
    res->ils.descent = params->algorithm != WT_ALGO_ILS ? WT_ILS_AUTO
                       : ils_local(params) && inst->n >= 8 ? ils_descent_run(params, inst->n)
                                                           : WT_ILS_FULL;
    res->ils.kicks = stats.kicks;
    res->ils.kicks_accepted = stats.kicks_accepted;
    res->ils.gpu_time_s = stats.gpu_time_s;
    res->ils.concurrent_windows_s = stats.concurrent_windows_s;
    res->sa.searches = sa.searches;
    res->sa.moves_per_search = sa.moves;
    res->sa.iterations = stats.iterations;
    res->sa.accepted = stats.accepted;
    res->sa.temperature_final = stats.temperature;
    res->sa.unpolished_length = stats.unpolished_length;
    res->sa.polish_moves = stats.polish_moves;
    res->sa.polish_time_s = stats.polish_time_s;
    snprintf(res->ascent.device, sizeof res->ascent.device, "%s", stats.ascent_device);
    res->ascent.iterations = stats.ascent_iterations;
    res->ascent.time_s = stats.ascent_s;
    snprintf(res->backend, sizeof res->backend, "%s", backend->name);
    res->host = backend->host;
    /* The concurrent windows ran over several GPUs, or the host's search
     * had the first optimum of the windows' GPU (its passes counted). */
    bool gpu_first = concurrent && backend->host && stats.passes > 0;
    if (stats.windows_devices[0] || gpu_first) {
        snprintf(device, sizeof device, "%s",
                 stats.windows_devices[0] ? stats.windows_devices : gpu_name);
        describe_run(params, inst->n, backend, ctl.threads, concurrent, gpu_first, device,
                     sizeof device);
    }
    snprintf(res->device, sizeof res->device, "%s", device);
    return WT_OK;
}

/* ------------------------------------------- the cities renumbered by place */

/* An instance's cities renumbered in the order of the Hilbert curve
 * (the spacefill tour): city[i] is the instance's city that the copy
 * numbers i; start and fixed, the caller's start tour and fixed edges in
 * the copy's numbers (NULL: none given). */
typedef struct renumbered {
    wt_instance *inst;
    int32_t *city, *start, *fixed;
} renumbered;

/* Frees what r holds and empties it. */
static void renumbered_free(renumbered *r)
{
    wt_instance_free(r->inst);
    free(r->city);
    free(r->start);
    free(r->fixed);
    memset(r, 0, sizeof *r);
}

/* Cities from which the renumbering's loops over all cities (gathers and
 * scatters, a cache miss a city) run on the search's threads. */
enum { RENUMBER_THREADS_FROM = 1 << 20 };

/* Whether solve_core searches inst's cities renumbered (wt_policy_renumber):
 * ILS with the host's descents (ils_local: the full descents' sessions hold
 * their tours by position), on coordinates, symmetric. */
static bool renumber_wanted(const wt_instance *inst, const wt_params *p)
{
    bool coords = inst->type != WT_EXPLICIT && (inst->x || inst->lat);
    return ils_local(p) && coords && !inst->directed &&
           wt_policy_renumber(wt_tuning_of(p)->renumber_min, inst->n);
}

/* Fills r for inst, the start tour (checked here: the copy's numbers come
 * from its entries) and the fixed edges' adjacency (NULL: none); r->inst
 * stays NULL where inst's numbering does not scatter its cities
 * (wt_policy_renumber_scattered). */
static wt_status renumber(const wt_instance *inst, const wt_params *p, const int32_t *fixed,
                          renumbered *r, wt_error *err)
{
    int n = inst->n;
    memset(r, 0, sizeof *r);
    if (p->start_tour) {
        wt_status st = wt_tour_validate(p->start_tour, n, err);
        if (st != WT_OK) return st;
    }
    r->city = malloc((size_t)n * sizeof *r->city);
    int32_t *index = malloc((size_t)n * sizeof *index); /* index[c]: the copy's number of c */
    bool ok = r->city && index &&
              wt_tour_init_threads(inst, WT_INIT_SPACEFILL, p->seed, p->threads, r->city, NULL) ==
                  WT_OK;
    bool tuned = wt_tuning_of(p)->renumber_min != 0;
    if (ok && !wt_policy_renumber_scattered(tuned, r->city, n)) {
        free(index);
        renumbered_free(r);
        return WT_OK;
    }
    int threads = run_threads(p);
    if (ok) {
#pragma omp parallel for num_threads(threads) schedule(static) if (n >= RENUMBER_THREADS_FROM)
        for (int i = 0; i < n; i++) index[r->city[i]] = i;
        ok = (r->inst = wt_instance_subset(inst, inst->name, r->city, n)) != NULL;
    }
    if (ok && p->start_tour && (ok = (r->start = malloc((size_t)n * sizeof *r->start)) != NULL))
#pragma omp parallel for num_threads(threads) schedule(static) if (n >= RENUMBER_THREADS_FROM)
        for (int i = 0; i < n; i++) r->start[i] = index[p->start_tour[i]];
    if (ok && fixed && (ok = (r->fixed = malloc(2 * (size_t)n * sizeof *r->fixed)) != NULL))
        for (int c = 0; c < n; c++)
            for (int k = 0; k < 2; k++) {
                int32_t to = fixed[2 * c + k];
                r->fixed[2 * index[c] + k] = to < 0 ? to : index[to];
            }
    free(index);
    if (ok) return WT_OK;
    renumbered_free(r);
    return wt_fail(err, WT_STATUS_OUT_OF_MEMORY,
                   "out of memory for the cities of %d renumbered by place", n);
}

/* The search of a checked params; fixed (NULL: none) the fixed edges as
 * two cities a city, which the start tour is made to hold and the search
 * keeps (ILS with LK or local descents on the host: the caller sees to
 * it); keep (NULL: none) what the host's ILS keeps across calls
 * (ils_keep.h: every call renumbers an instance alike, so what it keeps
 * stays in the same numbers).  Large tours whose numbering scatters their
 * cities are searched with the cities renumbered by place (renumber_wanted,
 * renumber), the result's tour given back in inst's numbers; the clock
 * counts that work. */
static wt_status solve_core(const wt_instance *inst, const wt_params *params,
                            wt_multistart_kernel kernel, const int32_t *fixed,
                            wt_ils_keep *keep, wt_result *res, wt_error *err)
{
    double t_start = wt_now();
    if (!renumber_wanted(inst, params))
        return solve_search(inst, params, kernel, fixed, keep, t_start, res, err);
    renumbered r;
    wt_status st = renumber(inst, params, fixed, &r, err);
    /* Out of memory for the copy: the search in inst's own numbers, which
     * needs none of it (not with a keep, whose lists are in the copy's
     * numbers from its other calls). */
    if (st == WT_STATUS_OUT_OF_MEMORY && !keep) {
        if (err) *err = (wt_error){0};
        st = WT_OK;
    }
    if (st != WT_OK) return st;
    if (!r.inst) return solve_search(inst, params, kernel, fixed, keep, t_start, res, err);
    wt_params q = *params;
    if (r.start) q.start_tour = r.start;
    st = solve_search(r.inst, &q, kernel, r.fixed, keep, t_start, res, err);
    int threads = run_threads(params);
    if (st == WT_OK)
#pragma omp parallel for num_threads(threads) schedule(static) if (res->n >= RENUMBER_THREADS_FROM)
        for (int i = 0; i < res->n; i++) res->tour[i] = r.city[res->tour[i]];
    renumbered_free(&r);
    return st;
}

/* ------------------------------------------- open paths and fixed edges */

/* Whether params' search keeps fixed edges: ILS with LK or local descents
 * (the engines of ls/engine.h, whose moves and kicks never remove one), on
 * the host; else WT_STATUS_UNSUPPORTED naming what asked for them. */
static wt_status check_keeps_fixed(const wt_params *p, const char *what, wt_error *err)
{
    bool descents = p->ils_descent == WT_ILS_AUTO || p->ils_descent == WT_ILS_LK ||
                    p->ils_descent == WT_ILS_LOCAL;
    if (p->algorithm != WT_ALGO_ILS || !descents)
        return wt_fail(err, WT_STATUS_UNSUPPORTED, "%s: only --algorithm ils with lk or local "
                       "descents (the default) keeps fixed edges and open paths; --algorithm "
                       "%s%s%s cannot", what, wt_algorithm_name(p->algorithm),
                       p->algorithm == WT_ALGO_ILS ? " --ils-descent " : "",
                       p->algorithm == WT_ALGO_ILS ? wt_ils_descent_name(p->ils_descent) : "");
    if (p->backend != WT_BACKEND_AUTO && p->backend != WT_BACKEND_CPU)
        return wt_fail(err, WT_STATUS_UNSUPPORTED, "%s: fixed edges and open paths are kept "
                       "on the host only; use --backend cpu or auto, not %s", what,
                       wt_backend_name(p->backend));
    return WT_OK;
}

/* Rotates tour (n cities) to begin at city c, keeping its direction. */
static void rotate_to(int32_t *tour, int n, int c)
{
    int at = 0;
    while (at < n && tour[at] != c) at++;
    if (at == 0 || at == n) return;
    int32_t *tmp = malloc((size_t)n * sizeof *tmp);
    if (tmp) {
        memcpy(tmp, tour + at, (size_t)(n - at) * sizeof *tmp);
        memcpy(tmp + n - at, tour, (size_t)at * sizeof *tmp);
        memcpy(tour, tmp, (size_t)n * sizeof *tmp);
        free(tmp);
        return;
    }
    /* Without memory: three reversals. */
    for (int i = 0, j = at - 1; i < j; i++, j--) { int32_t t = tour[i]; tour[i] = tour[j]; tour[j] = t; }
    for (int i = at, j = n - 1; i < j; i++, j--) { int32_t t = tour[i]; tour[i] = tour[j]; tour[j] = t; }
    for (int i = 0, j = n - 1; i < j; i++, j--) { int32_t t = tour[i]; tour[i] = tour[j]; tour[j] = t; }
}

/* The tour holding the edge (e s) as the path from s to e. */
static void orient_path(int32_t *tour, int n, int s, int e)
{
    rotate_to(tour, n, s);
    if (tour[1] == e) /* s e ...: the path runs the other way */
        for (int i = 1, j = n - 1; i < j; i++, j--) {
            int32_t t = tour[i];
            tour[i] = tour[j];
            tour[j] = t;
        }
}

static bool edge_fixed(const int32_t *adj, int a, int b)
{
    return adj && (adj[2 * a] == b || adj[2 * a + 1] == b);
}

/* An open path's ends from a closed tour (n cities) that holds the fixed
 * edges adj (NULL: none): the ends of its longest edge that is not fixed,
 * or of the longer such edge at the given end (*s or *e >= 0).  false when
 * there is none. */
static bool ends_from_tour(const wt_instance *inst, const int32_t *tour, const int32_t *adj,
                           int *s, int *e)
{
    int n = inst->n, given = *s >= 0 ? *s : *e, best_a = -1, best_b = -1;
    int64_t best = -1;
    for (int i = 0; i < n; i++) {
        int a = tour[i], b = tour[(i + 1) % n];
        if (given >= 0 && a != given && b != given) continue;
        if (edge_fixed(adj, a, b)) continue;
        int64_t d = wt_dist(inst, a, b);
        if (d > best) {
            best = d;
            best_a = a;
            best_b = b;
        }
    }
    if (best < 0) return false;
    if (*s >= 0) *e = best_a == *s ? best_b : best_a;
    else if (*e >= 0) *s = best_a == *e ? best_b : best_a;
    else {
        *s = best_b; /* the path from the edge's second end round to its first */
        *e = best_a;
    }
    return true;
}

/* Fixed edges, open paths, or both: the closed tour first where an open
 * path's ends are to be chosen (half the time limit; the kick budget
 * each), then the path as a tour whose closing edge (e s) is fixed. */
static wt_status solve_constrained(const wt_instance *inst, const wt_params *params,
                                   wt_multistart_kernel kernel, wt_result *res, wt_error *err)
{
    int n = inst->n, count = inst->fixed_count;
    bool open = params->open || params->end_city >= 0;
    const char *what = count > 0 ? "an instance with fixed edges (FIXED_EDGES_SECTION)"
                                 : "an open path";
    wt_status st = check_keeps_fixed(params, what, err);
    if (st != WT_OK) return st;
    wt_params p = *params;
    /* auto: the descents a closed tour's search takes by its size and time
     * limit (local ones where LK's list descent would take the run), on
     * the host, with a GPU's concurrent windows where a closed tour's
     * search would have them (their splices keep the fixed edges) and an
     * open path's first descent for local ones (path_first_on).  Not for
     * an asymmetric instance's: its windows' paths would all be dropped
     * (every other edge fixed, every reversal costly). */
    p.ils_descent = ils_descent_run(&p, n);
    bool path_first = p.ils_descent == WT_ILS_LOCAL && count == 0 && open;
    if (inst->directed || (!concurrent_windows_wanted(&p, n) && !path_first))
        p.backend = WT_BACKEND_CPU;
    p.open = false;
    p.start_city = p.end_city = -1;
    int32_t *pairs = malloc(2 * ((size_t)count + 1) * sizeof *pairs);
    int32_t *adj = malloc(2 * (size_t)n * sizeof *adj);
    if (!pairs || !adj) {
        free(pairs);
        free(adj);
        return wt_fail(err, WT_STATUS_OUT_OF_MEMORY, "out of memory for the fixed edges");
    }
    if (count > 0) memcpy(pairs, inst->fixed, 2 * (size_t)count * sizeof *pairs);
    wt_fixed_adjacency(pairs, count, n, adj);
    if (!open) {
        st = solve_core(inst, &p, kernel, adj, NULL, res, err);
        if (st == WT_OK && params->start_city >= 0) rotate_to(res->tour, n, params->start_city);
        free(pairs);
        free(adj);
        return st;
    }
    int s = params->start_city, e = params->end_city;
    wt_result closed = {0};
    double t0 = wt_now();
    if (s < 0 || e < 0) {
        wt_params first = p;
        if (params->time_limit_s > 0) first.time_limit_s = params->time_limit_s / 2;
        st = solve_core(inst, &first, kernel, count > 0 ? adj : NULL, NULL, &closed, err);
        if (st == WT_OK && !ends_from_tour(inst, closed.tour, count > 0 ? adj : NULL, &s, &e))
            st = wt_fail(err, WT_STATUS_INVALID_ARGUMENT, "wt_solve: no edge of the tour %s%d "
                         "is free to leave out for an open path: %s", s >= 0 || e >= 0 ?
                         "at city " : "", (s >= 0 ? s : e >= 0 ? e : 0) + 1,
                         "the fixed edges hold them all");
        if (st != WT_OK) {
            wt_result_free(&closed);
            free(pairs);
            free(adj);
            return st;
        }
        p.start_tour = closed.tour;
        p.init = params->init;
        if (params->time_limit_s > 0) {
            double left = params->time_limit_s - (wt_now() - t0);
            p.time_limit_s = left > 1e-6 ? left : 1e-6;
        }
    }
    /* The path from s to e: the tour with the edge (e s) fixed. */
    pairs[2 * count] = e;
    pairs[2 * count + 1] = s;
    char why[160];
    int bad = wt_fixed_edges_check(pairs, count + 1, n, why, sizeof why);
    if (bad == WT_FIXED_EDGES_NO_MEMORY) {
        wt_result_free(&closed);
        free(pairs);
        free(adj);
        return wt_fail(err, WT_STATUS_OUT_OF_MEMORY, "out of memory for the path's fixed edges");
    }
    if (bad >= 0) {
        wt_result_free(&closed);
        free(pairs);
        free(adj);
        return wt_fail(err, WT_STATUS_INVALID_ARGUMENT, "wt_solve: no path from city %d to "
                       "city %d holds the fixed edges: with its closing edge, %s", s + 1,
                       e + 1, why);
    }
    wt_fixed_adjacency(pairs, count + 1, n, adj);
    st = solve_core(inst, &p, kernel, adj, NULL, res, err);
    if (st == WT_OK) {
        orient_path(res->tour, n, s, e);
        int64_t closing = wt_dist(inst, e, s);
        res->open = true;
        res->length = wt_tour_length(inst, res->tour) - closing;
        res->length_real = wt_length_real(inst, res->length);
        res->init_length = (closed.tour ? closed.init_length : res->init_length) - closing;
        res->lower_bound = -1;
        res->gap_to_bound_percent = -1;
        if (closed.tour) {
            res->time_s = wt_now() - t0;
            res->init_time_s = closed.init_time_s;
            res->init_cut = closed.init_cut;
            res->init_made = closed.init_made;
            res->init_given = closed.init_given;
            res->search_time_s += closed.search_time_s;
            res->steps += closed.steps;
            res->ils.kicks += closed.ils.kicks;
            res->ils.kicks_accepted += closed.ils.kicks_accepted;
            if (closed.stop != WT_STOP_DONE) res->stop = closed.stop;
        }
    }
    wt_result_free(&closed);
    free(pairs);
    free(adj);
    return st;
}

/* ------------------------------------------------------ asymmetric costs */

/* The asymmetric tour (n cities) that the symmetric tour sym (2n cities:
 * city i, its twin n + i) holds, in the tour's direction: read so that
 * each twin comes before its city (n+i, i, n+j, j, ...: the arc i -> j).
 * Where a twin is not beside its city (not after a search that kept the
 * fixed edges) the cities are still taken in order: a permutation. */
static void tour_from_sym(const int32_t *sym, int n, int32_t *tour)
{
    int m = 2 * n, at = 0;
    while (at < m && sym[at] != 0) at++;
    int next = sym[(at + 1) % m];
    bool forward = next != n; /* city 0 after its twin, not before it */
    for (int k = 0, c = 0; k < m && c < n; k++) {
        int v = sym[forward ? (at + k) % m : (at - k + m) % m];
        if (v < n) tour[c++] = v;
    }
}

/* The symmetric tour of an asymmetric tour: n+i, i for each city i. */
static void sym_from_tour(const int32_t *tour, int n, int32_t *sym)
{
    for (int k = 0; k < n; k++) {
        sym[2 * k] = n + tour[k];
        sym[2 * k + 1] = tour[k];
    }
}

/* The nearest-neighbour tour of the directed costs from city 0: an
 * asymmetric tour to start from, so that the search (which keeps its best
 * tour) never ends on a symmetric tour with an edge of cost M. */
static void nearest_directed(const wt_instance *inst, int32_t *tour, unsigned char *used)
{
    int n = inst->n;
    memset(used, 0, (size_t)n);
    tour[0] = 0;
    used[0] = 1;
    for (int k = 1; k < n; k++) {
        int a = tour[k - 1], best = -1;
        int64_t best_d = INT64_MAX;
        for (int b = 0; b < n; b++)
            if (!used[b] && wt_dist(inst, a, b) < best_d) {
                best_d = wt_dist(inst, a, b);
                best = b;
            }
        tour[k] = best;
        used[best] = 1;
    }
}

/* An asymmetric instance: its symmetric instance of 2n cities (atsp.c),
 * whose n twin edges are fixed, solved from the start tour given or the
 * directed nearest-neighbour tour, the tour read back in its direction. */
static wt_status solve_asymmetric(const wt_instance *inst, const wt_params *params,
                                  wt_multistart_kernel kernel, wt_result *res, wt_error *err)
{
    int n = inst->n;
    if (params->open || params->end_city >= 0)
        return wt_fail(err, WT_STATUS_UNSUPPORTED, "an asymmetric instance (TYPE: ATSP): "
                       "open paths and --end are not supported; --start rotates the tour");
    wt_status st = check_keeps_fixed(params, "an asymmetric instance (TYPE: ATSP, solved as a "
                                     "symmetric instance with fixed edges)", err);
    if (st != WT_OK) return st;
    int32_t *start = malloc((size_t)n * sizeof *start);
    int32_t *sym = malloc(2 * (size_t)n * sizeof *sym);
    unsigned char *used = malloc((size_t)n);
    if (!start || !sym || !used) {
        free(start);
        free(sym);
        free(used);
        return wt_fail(err, WT_STATUS_OUT_OF_MEMORY, "out of memory for the start tour");
    }
    double t0 = wt_now();
    if (params->start_tour) {
        st = wt_tour_validate(params->start_tour, n, err);
        if (st == WT_OK) memcpy(start, params->start_tour, (size_t)n * sizeof *start);
    } else {
        nearest_directed(inst, start, used);
    }
    double init_time = wt_now() - t0;
    free(used);
    if (st != WT_OK) {
        free(start);
        free(sym);
        return st;
    }
    sym_from_tour(start, n, sym);
    wt_params p = *params;
    p.start_tour = sym;
    p.start_city = -1;
    wt_result r = {0};
    st = solve_constrained(inst->sym, &p, kernel, &r, err);
    free(sym);
    if (st != WT_OK) {
        free(start);
        return st;
    }
    /* The result in the original cities; the start tour's buffer takes it. */
    tour_from_sym(r.tour, n, start);
    free(r.tour);
    r.tour = start;
    r.n = n;
    r.length = wt_tour_length(inst, start);
    r.length_real = wt_length_real(inst, r.length);
    r.init_given = params->start_tour != NULL;
    r.init_made = WT_INIT_NEAREST;
    r.init_time_s += init_time;
    r.gap_to_bound_percent = r.lower_bound > 0 ? 100.0 * (double)(r.length - r.lower_bound) /
                                                     (double)r.lower_bound
                                               : -1;
    if (params->start_city >= 0) rotate_to(r.tour, n, params->start_city);
    *res = r;
    return WT_OK;
}

/* wt_solve_ms_kernel with keep (NULL: none), which only the plain path
 * (no asymmetric costs, fixed edges or open path) takes. */
static wt_status solve_entry(const wt_instance *inst, const wt_params *params,
                             wt_multistart_kernel kernel, wt_ils_keep *keep, wt_result *res,
                             wt_error *err)
{
    if (!inst || !params || !res)
        return wt_fail(err, WT_STATUS_INVALID_ARGUMENT, "wt_solve: need an instance, "
                       "parameters and a result");
    if (kernel != WT_MS_KERNEL_BLOCK && kernel != WT_MS_KERNEL_THREAD)
        return wt_fail(err, WT_STATUS_INVALID_ARGUMENT, "wt_solve: kernel %d is no "
                       "wt_multistart_kernel", (int)kernel);
    wt_params listed;
    wt_status valid = validate_params(params, err);
    if (valid == WT_OK) valid = with_device_list(params, &listed, err);
    if (valid != WT_OK) return valid;
    params = &listed;
    int n = inst->n;
    if (params->start_city < -1 || params->start_city >= n)
        return wt_fail(err, WT_STATUS_INVALID_ARGUMENT, "wt_solve: params.start_city is %d; "
                       "expected -1 (none) or a city, 0 to %d", params->start_city, n - 1);
    if (params->end_city < -1 || params->end_city >= n)
        return wt_fail(err, WT_STATUS_INVALID_ARGUMENT, "wt_solve: params.end_city is %d; "
                       "expected -1 (none) or a city, 0 to %d", params->end_city, n - 1);
    if (params->end_city >= 0 && params->end_city == params->start_city)
        return wt_fail(err, WT_STATUS_INVALID_ARGUMENT, "wt_solve: params.start_city and "
                       "end_city are both %d; an open path's ends are two cities",
                       params->end_city);
    if (inst->sym) return solve_asymmetric(inst, params, kernel, res, err);
    if (inst->fixed_count > 0 || params->open || params->end_city >= 0)
        return solve_constrained(inst, params, kernel, res, err);
    wt_status st = solve_core(inst, params, kernel, NULL, keep, res, err);
    if (st == WT_OK && params->start_city >= 0) rotate_to(res->tour, n, params->start_city);
    return st;
}

wt_status wt_solve_ms_kernel(const wt_instance *inst, const wt_params *params,
                             wt_multistart_kernel kernel, wt_result *res, wt_error *err)
{
    return solve_entry(inst, params, kernel, NULL, res, err);
}

wt_status wt_solve_kept(const wt_instance *inst, const wt_params *params, wt_ils_keep *keep,
                        wt_result *res, wt_error *err)
{
    if (keep && inst && wt_ils_keep_n(keep) != inst->n)
        return wt_fail(err, WT_STATUS_INVALID_ARGUMENT, "wt_solve_kept: a keep of %d cities "
                       "for an instance of %d", wt_ils_keep_n(keep), inst->n);
    return solve_entry(inst, params, WT_MS_KERNEL_BLOCK, keep, res, err);
}
