/*
 * bench_ascent.c - `warptour-bench ascent`: the Held-Karp ascent of each
 * backend (backend.h, the ascent slot) on the same sparse graph, side by
 * side, in the same run.
 *
 * Per instance the graph is built once on the host (algo/alpha.h,
 * wt_alpha_graph: what wt_solve's ascent runs on), and again by each
 * device backend's candidate lists where it has them (backend.h,
 * neighbours: "bench=ascent-graph", its time against the host's and
 * whether the graphs are equal edge for edge), then each backend of
 * --backends runs its slot on it for the same steps (--iterations, the
 * first period --period), from pi = 0: wall time, steps made, the graph's
 * bound and the proven bound, the bound's gap below the known optimum, the
 * time a step.  Every slot must give the same pi, bounds and candidate
 * lists bit for bit (backend.h, wt_ascent_job), so each backend's are
 * compared with the first's ("equal: yes/no"), and the first backend's
 * time is divided by each other's for the speed ratio.  The host's finish
 * (core/ascent_finish.h) is done again from the first backend's pi, part
 * by part, for the time of each ("bench=ascent-finish": the graph's
 * arrays, the last tree, alpha, the lists, the k-d tree, the complete
 * graph's bound), which every slot's wall time includes, and the last tree
 * by each spanning-tree method, Kruskal and Boruvka, for their times and
 * whether they agree ("bench=ascent-tree").  With --step-time each
 * backend runs once more for a single step, and the difference of the two
 * times over the further steps is the time a step alone
 * ("bench=ascent-step ... per_step_ms").
 *
 * With --stop-after S each backend's run is a stopped one instead: a
 * thread sets the run's stop flag (wt_params.stop_flag, what Ctrl-C sets)
 * S seconds after the slot was called, and "bench=ascent-stop" says how
 * long after that the slot returned ("returned_after_stop_s": issue 41
 * wants 0.2 s at most), how many steps it had made and whether the stop
 * cut its lists ("stopped"); the bit-for-bit comparison and the finish's
 * parts are left out (stopped runs differ by design).
 *
 * --finish says where a GPU's slot does its finish (the last tree,
 * alpha-values, lists and the complete graph's bound from the best pi):
 * gpu (its default: on the GPU, the bound on host threads beside it), host
 * (wt_cuda_ascent_tuning.finish_on_gpu false: all on the host, as before
 * the GPU's finish), or both: each GPU backend runs twice, the second
 * named "BACKEND+host-finish", and both are compared with the first run.
 * --gpu-steps runs each GPU backend once more for each variant of its
 * Boruvka rounds (wt_cuda_ascent_tuning.compact_edges), named "+plain" or
 * "+compact", or of its fused kernel's blocks an SM
 * (wt_cuda_ascent_tuning.blocks_per_sm), named "+blocksN", or with its
 * steps split with device N at any size (wt_ascent_job.split_with,
 * wt_cuda_ascent_tuning.split_edges 0), named "+splitN", compared with
 * the first run.
 * --gpu-profile prints each GPU run's fused phases, device time a tree
 * ("bench=ascent-phases", wt_cuda_ascent_profile), and its slot's wall
 * clock by part ("bench=ascent-slot-parts").
 *
 * A backend without an ascent slot in this build, or without a usable
 * device, is named in a "# note:" line and left out; when none of
 * --backends can run, the bench fails (exit 1).  It parses its own
 * options (argv[0] is "ascent").
 */
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "algo/alpha.h"
#include "algo/policy.h"
#include "backend/backend.h"
#include "bench.h"
#include "core/ascent_finish.h"
#include "core/error.h"
#include "core/kdtree.h"
#include "core/onetree.h"
#ifdef WT_HAVE_CUDA
#include "backend/cuda/cuda_ascent.h"
#include "backend/cuda/cuda_bound.h"
#endif

enum {
    AB_MAX_BACKENDS = 4,
    AB_MAX_FILES = 64,
    AB_MAX_STEPS = 6, /* --gpu-steps variants */
    AB_MAX_RUNS = 2 * AB_MAX_BACKENDS + AB_MAX_STEPS
};

/* A --gpu-steps variant: how the fused path's Boruvka rounds read the
 * graph (wt_cuda_ascent_tuning.compact_edges), or its blocks an SM
 * (wt_cuda_ascent_tuning.blocks_per_sm). */
typedef struct ab_steps {
    bool set;       /* false: the slot's defaults */
    bool edges_set; /* compact says how the rounds read the graph */
    bool compact;   /* the edges still between components listed, at any size */
    int blocks;     /* > 0: the fused kernel's blocks an SM */
    bool split;     /* the steps split with device split_device */
    int split_device;
} ab_steps;

/* --finish: where a GPU's slot does its finish. */
typedef enum ab_finish { AB_FINISH_GPU, AB_FINISH_HOST, AB_FINISH_BOTH } ab_finish;

/* The summary table's rows, one per instance and backend. */
typedef struct ab_table {
    char rows[AB_MAX_FILES * AB_MAX_RUNS][200];
    int count;
} ab_table;

typedef struct ab_opts {
    const char *files[AB_MAX_FILES];
    int n_files;
    const wt_backend *backends[AB_MAX_BACKENDS];
    int n_backends;
    int64_t iterations; /* 0: the backend's default (the step rule's end) */
    int64_t period;     /* the first period; default the search's (WT_ASCENT_PERIOD) */
    int64_t candidates; /* a city's alpha candidates */
    int64_t threads;    /* host threads; 0: all cores */
    int64_t device;     /* a device backend's device number */
    uint64_t seed;      /* generated instances (uniformN) */
    bool step_time;     /* each backend again for one step: the time a step alone */
    double stop_after;  /* --stop-after: seconds into each run at which its stop
                           flag is set; < 0: none (whole runs) */
    ab_finish finish;   /* --finish */
    ab_steps steps[AB_MAX_STEPS]; /* --gpu-steps: a GPU's slot once for each */
    int n_steps;
    bool gpu_profile;   /* --gpu-profile: a GPU's phase times after each run */
} ab_opts;

/* One backend's run on one instance. */
typedef struct ab_run {
    const wt_backend *backend;
    wt_device dev;
    bool host_finish; /* a GPU's slot with its finish on the host */
    ab_steps steps;   /* a GPU's slot with these steps */
#ifdef WT_HAVE_CUDA
    wt_cuda_ascent_profile profile; /* --gpu-profile */
#endif
    bool ran;
    double seconds;
    wt_ascent_job job;
} ab_run;

/* ---------------------------------------------------------- the runs */

typedef struct ab_name {
    char s[64];
} ab_name;

/* The run's name in the output: the backend's, "+host-finish" after it
 * for a GPU's slot with its finish on the host. */
static ab_name run_name(const ab_run *r)
{
    ab_name name;
    char steps[24] = "";
    if (r->steps.edges_set) snprintf(steps, sizeof steps, r->steps.compact ? "+compact" : "+plain");
    if (r->steps.blocks > 0) snprintf(steps, sizeof steps, "+blocks%d", r->steps.blocks);
    if (r->steps.split) snprintf(steps, sizeof steps, "+split%d", r->steps.split_device);
    snprintf(name.s, sizeof name.s, "%s%s%s", r->backend->name,
             r->host_finish ? "+host-finish" : "", steps);
    return name;
}

/* A run of r's backend, device and settings, not yet run. */
static ab_run run_like(const ab_run *r)
{
    return (ab_run){.backend = r->backend, .dev = r->dev, .host_finish = r->host_finish,
                    .steps = r->steps};
}

static bool backend_named(const char *name, const wt_backend **out)
{
    const wt_backend *b;
    for (int i = 0; (b = wt_backend_at(i)) != NULL; i++)
        if (strcmp(b->name, name) == 0) {
            *out = b;
            return true;
        }
    return false;
}

/* Whether b can run the ascent here; if not, a "# note:" line says why. */
static bool backend_live(const ab_opts *o, const wt_backend *b, wt_device *dev)
{
    wt_device_of(b, b->host ? 0 : (int)o->device, dev);
    char desc[160];
    bool usable = wt_device_usable(dev, desc, sizeof desc);
    if (!b->ascent) {
        printf("# note: no ascent on %s in this build (%s)\n", b->name,
               usable ? "its backend has no ascent slot" : desc);
        return false;
    }
    if (!usable) {
        printf("# note: no ascent on %s: %s\n", b->name, desc);
        return false;
    }
    return true;
}

/* iterations: the steps at most (0: the rule's end); stop_flag: the run's
 * (NULL: none). */
static wt_status run_slot(const ab_opts *o, const wt_instance *inst, const int32_t *graph,
                          int width, int iterations, const volatile int *stop_flag, ab_run *r,
                          wt_error *err)
{
    int n = wt_instance_n(inst), k = (int)o->candidates < n - 1 ? (int)o->candidates : n - 1;
    r->job = (wt_ascent_job){.graph = graph, .graph_k = width, .iterations = iterations,
                             .period = (int)o->period, .until = INFINITY, .lower_bound = -1,
                             .candidates_k = k};
    r->job.pi = calloc((size_t)n, sizeof *r->job.pi);
    r->job.candidates = malloc((size_t)n * (size_t)k * sizeof *r->job.candidates);
    if (!r->job.pi || !r->job.candidates)
        return wt_fail(err, WT_STATUS_OUT_OF_MEMORY, "out of memory for the ascent");
    wt_params p;
    wt_params_defaults(&p);
    p.threads = (int)o->threads;
    p.stop_flag = stop_flag;
    wt_search_ctl ctl;
    wt_ctl_init(&ctl, &p);
    double t0 = bench_now();
    wt_status st;
#ifdef WT_HAVE_CUDA
    if (!r->backend->host && (r->host_finish || r->steps.set || o->gpu_profile)) {
        wt_cuda_ascent_tuning tuning;
        wt_cuda_ascent_tuning_defaults(&tuning);
        tuning.finish_on_gpu = !r->host_finish;
        if (o->gpu_profile) tuning.profile = &r->profile;
        if (r->steps.edges_set) tuning.compact_edges = r->steps.compact ? 0 : -1;
        if (r->steps.blocks > 0) tuning.blocks_per_sm = r->steps.blocks;
        wt_device split_dev;
        if (r->steps.split) {
            wt_device_of(r->backend, r->steps.split_device, &split_dev);
            r->job.split_with = &split_dev;
            tuning.split_edges = 0;
        }
        st = wt_cuda_ascent_tuned(&r->dev, inst, &r->job, &ctl, &tuning, err);
        r->job.split_with = NULL;
    } else
#endif
        st = r->backend->ascent(&r->dev, inst, &r->job, &ctl, err);
    r->seconds = bench_now() - t0;
    r->ran = st == WT_OK;
    return st;
}

static void run_free(ab_run *r)
{
    free(r->job.pi);
    free(r->job.candidates);
    r->job.pi = NULL;
    r->job.candidates = NULL;
}

/* One small ascent on each live backend, so that none pays for starting
 * its threads or its GPU context in the measurements. */
static void warm_up(const ab_opts *o, ab_run *runs, int count)
{
    wt_instance *inst = NULL;
    if (wt_instance_generate(WT_GEN_UNIFORM, 200, 1, &inst, NULL) != WT_OK) return;
    ab_opts small = *o;
    small.iterations = 5;
    int width;
    bool stopped;
    wt_status st;
    wt_params p;
    wt_params_defaults(&p);
    wt_search_ctl ctl;
    wt_ctl_init(&ctl, &p);
    int32_t *graph = wt_alpha_graph(inst, NULL, &ctl, &width, NULL, &stopped, &st, NULL);
    for (int b = 0; graph && b < count; b++) {
        ab_run r = {.backend = runs[b].backend, .dev = runs[b].dev};
        wt_error err = {0};
        run_slot(&small, inst, graph, width, (int)small.iterations, NULL, &r, &err);
        run_free(&r);
    }
    free(graph);
    wt_instance_free(inst);
}

/* ------------------------------------------------------------ printing */

static const char *yes_no(bool b) { return b ? "yes" : "no"; }

static bool same_ints(const int32_t *a, const int32_t *b, size_t count)
{
    return memcmp(a, b, count * sizeof *a) == 0;
}

/* The bound's gap below the optimum, percent; NAN without either. */
static double bound_gap(int64_t bound, int64_t optimum)
{
    return bound > 0 && optimum > 0 ? 100.0 * (double)(optimum - bound) / (double)optimum : NAN;
}

static void print_run(const char *name, int n, const ab_opts *o, double graph_s, int64_t optimum,
                      const ab_run *r, int threads, ab_table *t)
{
    char gap[32], per[32], lb[32], opt[32] = "unknown";
    if (optimum > 0) snprintf(opt, sizeof opt, "%" PRId64, optimum);
    int done = r->job.iterations_done;
    double per_step = done > 0 ? r->seconds / done : NAN;
    if (r->job.lower_bound > 0) snprintf(lb, sizeof lb, "%" PRId64, r->job.lower_bound);
    else snprintf(lb, sizeof lb, "none");
    printf("bench=ascent instance=%s n=%d backend=%s device=%s threads=%d graph_s=%.4f "
           "iterations_asked=%" PRId64 " period=%" PRId64 " iterations=%d ascent_s=%.4f "
           "per_iteration_ms=%s graph_bound=%.2f lower_bound=%s optimum=%s bound_gap_percent=%s\n",
           name, n, run_name(r).s, r->dev.name, threads, graph_s, o->iterations, o->period,
           done, r->seconds, bench_fmt_num("%.4f", per_step * 1e3, per, sizeof per),
           (double)r->job.graph_bound / WT_ASCENT_SCALE, lb, opt,
           bench_fmt_num("%.4f", bound_gap(r->job.lower_bound, optimum), gap, sizeof gap));
    if (t->count == AB_MAX_FILES * AB_MAX_RUNS) return;
    char g[24], a[24], s[24];
    snprintf(t->rows[t->count++], sizeof t->rows[0], "| %s | %d | %s | %s | %s | %d | %s | %s | %s |",
             name, n, r->dev.name, bench_fmt_duration(graph_s, g, sizeof g),
             bench_fmt_duration(r->seconds, a, sizeof a), done,
             bench_fmt_duration(per_step, s, sizeof s), lb, gap);
}

/* --step-time: r's slot again for one step; what r's run took beyond that
 * one-step run (the upload, the first tree, the finish), divided by its
 * further steps, is the time a step alone. */
static wt_status print_step_time(const ab_opts *o, const wt_instance *inst, const int32_t *graph,
                                 int width, const ab_run *r, wt_error *err)
{
    int done = r->job.iterations_done;
    if (done < 2) return WT_OK;
    ab_run one = run_like(r);
    wt_status st = run_slot(o, inst, graph, width, 1, NULL, &one, err);
    if (st == WT_OK) {
        char per[32];
        double step = (r->seconds - one.seconds) / (done - 1);
        printf("bench=ascent-step instance=%s backend=%s iterations=%d ascent_s=%.4f "
               "one_step_s=%.4f per_step_ms=%s\n",
               wt_instance_name(inst), run_name(r).s, done, r->seconds, one.seconds,
               bench_fmt_num("%.4f", step * 1e3, per, sizeof per));
    }
    run_free(&one);
    return st;
}

/* --gpu-profile: r's fused phases, ms a tree, and its rounds a tree. */
static void print_profile(const char *name, const ab_run *r)
{
#ifdef WT_HAVE_CUDA
    const wt_cuda_ascent_profile *p = &r->profile;
    if (r->backend->host || p->trees == 0) return;
    double per = 1e3 / (double)p->trees;
    printf("bench=ascent-phases instance=%s backend=%s trees=%lld rounds_per_tree=%.2f "
           "start_ms=%.4f cheapest_ms=%.4f hook_ms=%.4f root_ms=%.4f second_ms=%.4f "
           "sums_ms=%.4f rule_ms=%.4f split=%s\n",
           name, run_name(r).s, p->trees, (double)p->rounds / (double)p->trees,
           p->start_s * per, p->cheapest_s * per, p->hook_s * per, p->root_s * per,
           p->second_s * per, p->sums_s * per, p->rule_s * per, p->split ? "yes" : "no");
    printf("bench=ascent-slot-parts instance=%s backend=%s slot_ms=%.2f graph_ms=%.2f "
           "open_ms=%.2f steps_ms=%.2f finish_ms=%.2f bound_wait_ms=%.2f bound_ms=%.2f "
           "close_ms=%.2f\n",
           name, run_name(r).s, r->seconds * 1e3, p->graph_s * 1e3, p->open_s * 1e3,
           p->steps_s * 1e3, p->finish_s * 1e3, p->bound_wait_s * 1e3, p->bound_s * 1e3,
           p->close_s * 1e3);
#else
    (void)name;
    (void)r;
#endif
}

/* ------------------------------------------------------ --stop-after */

/* The thread that sets a run's stop flag at bench_now() == at, unless the
 * run ended first (ended, under lock; wake wakes it then). */
typedef struct ab_stopper {
    pthread_mutex_t lock;
    pthread_cond_t wake; /* on CLOCK_MONOTONIC, bench_now()'s clock */
    bool ended;
    double at;
    volatile int flag; /* the run's stop flag */
    double set_at;     /* bench_now() when flag was set; NAN: not set */
} ab_stopper;

static void *stopper_main(void *arg)
{
    ab_stopper *s = arg;
    pthread_mutex_lock(&s->lock);
    while (!s->ended) {
        double now = bench_now();
        if (now >= s->at) {
            s->flag = 1;
            s->set_at = bench_now();
            break;
        }
        double at = s->at;
        struct timespec ts = {.tv_sec = (time_t)at,
                              .tv_nsec = (long)((at - floor(at)) * 1e9)};
        pthread_cond_timedwait(&s->wake, &s->lock, &ts);
    }
    pthread_mutex_unlock(&s->lock);
    return NULL;
}

static bool stopper_start(ab_stopper *s, pthread_t *thread, double at)
{
    *s = (ab_stopper){.at = at, .set_at = NAN};
    pthread_condattr_t attr;
    if (pthread_condattr_init(&attr) != 0) return false;
    bool ok = pthread_condattr_setclock(&attr, CLOCK_MONOTONIC) == 0 &&
              pthread_cond_init(&s->wake, &attr) == 0;
    pthread_condattr_destroy(&attr);
    if (!ok) return false;
    if (pthread_mutex_init(&s->lock, NULL) != 0) {
        pthread_cond_destroy(&s->wake);
        return false;
    }
    if (pthread_create(thread, NULL, stopper_main, s) != 0) {
        pthread_mutex_destroy(&s->lock);
        pthread_cond_destroy(&s->wake);
        return false;
    }
    return true;
}

/* Ends the thread (the run returned); *set_at as stopper_main left it. */
static void stopper_end(ab_stopper *s, pthread_t thread)
{
    pthread_mutex_lock(&s->lock);
    s->ended = true;
    pthread_cond_signal(&s->wake);
    pthread_mutex_unlock(&s->lock);
    pthread_join(thread, NULL);
    pthread_mutex_destroy(&s->lock);
    pthread_cond_destroy(&s->wake);
}

/* r's slot for the whole ascent (--iterations) with its stop flag set
 * o->stop_after seconds after the call: "bench=ascent-stop ...
 * returned_after_stop_s", and a row of the table. */
static wt_status run_stopped(const ab_opts *o, const wt_instance *inst, const int32_t *graph,
                             int width, int threads, ab_run *r, ab_table *t, wt_error *err)
{
    ab_stopper s;
    pthread_t thread;
    /* The stopper's clock starts where run_slot's does, give or take the
     * thread's start (microseconds). */
    if (!stopper_start(&s, &thread, bench_now() + o->stop_after))
        return wt_fail(err, WT_STATUS_OUT_OF_MEMORY, "out of memory for the --stop-after thread");
    wt_status st = run_slot(o, inst, graph, width, (int)o->iterations, &s.flag, r, err);
    double returned = bench_now();
    stopper_end(&s, thread);
    if (st != WT_OK) return st;
    const char *name = wt_instance_name(inst);
    char after[32], lb[32] = "none";
    bench_fmt_num("%.4f", returned - s.set_at, after, sizeof after);
    if (r->job.lower_bound > 0) snprintf(lb, sizeof lb, "%" PRId64, r->job.lower_bound);
    printf("bench=ascent-stop instance=%s n=%d backend=%s device=%s threads=%d "
           "stop_after_s=%.3f flag_set=%s ascent_s=%.4f returned_after_stop_s=%s iterations=%d "
           "stopped=%s lower_bound=%s\n",
           name, wt_instance_n(inst), run_name(r).s, r->dev.name, threads, o->stop_after,
           yes_no(!isnan(s.set_at)), r->seconds, after, r->job.iterations_done,
           yes_no(r->job.stopped), lb);
    if (isnan(s.set_at))
        printf("# note: %s's ascent of %s ended %.3f s in, before the stop\n", r->dev.name, name,
               r->seconds);
    if (t->count < AB_MAX_FILES * AB_MAX_RUNS) {
        char a[24];
        snprintf(t->rows[t->count++], sizeof t->rows[0], "| %s | %d | %s | %.3f s | %s | %s | %d |",
                 name, wt_instance_n(inst), r->dev.name, o->stop_after,
                 bench_fmt_duration(r->seconds, a, sizeof a),
                 isnan(s.set_at) ? "not stopped" : after, r->job.iterations_done);
    }
    return WT_OK;
}

/* The spanning tree's two methods (core/onetree.h, wt_onetree_mst) under
 * pi, each the best of 5 trees: "bench=ascent-tree ... kruskal_ms
 * boruvka_ms", and whether their 1-trees are the same (they must be). */
static void time_tree_methods(const char *name, const wt_sgraph *g, const int32_t *pi,
                              int threads)
{
    enum { REPEATS = 5 };
    wt_onetree t[2];
    const wt_onetree_mst method[2] = {WT_ONETREE_MST_KRUSKAL, WT_ONETREE_MST_BORUVKA};
    double best[2] = {INFINITY, INFINITY};
    wt_error err = {0};
    bool ok = true, stopped = false;
    if (wt_onetree_alloc(g, &t[0], &err) != WT_OK) return;
    if (wt_onetree_alloc(g, &t[1], &err) != WT_OK) {
        wt_onetree_free(&t[0]);
        return;
    }
    for (int rep = 0; rep < REPEATS && ok; rep++)
        for (int x = 0; x < 2 && ok; x++) {
            t[x].mst = method[x];
            double t0 = bench_now();
            ok = wt_onetree_sparse(g, pi, threads, NULL, &t[x], &stopped, &err) == WT_OK;
            double dt = bench_now() - t0;
            if (dt < best[x]) best[x] = dt;
        }
    bool same = ok && t[0].weight == t[1].weight && t[0].special == t[1].special &&
                t[0].special_to == t[1].special_to &&
                memcmp(t[0].in_tree, t[1].in_tree, (size_t)g->m) == 0 &&
                memcmp(t[0].degree, t[1].degree, (size_t)g->n * sizeof *t[0].degree) == 0;
    if (ok)
        printf("bench=ascent-tree instance=%s n=%d m=%" PRId64
               " threads=%d kruskal_ms=%.3f boruvka_ms=%.3f same_tree=%s\n",
               name, g->n, g->m, threads, best[0] * 1e3, best[1] * 1e3, yes_no(same));
    wt_onetree_free(&t[0]);
    wt_onetree_free(&t[1]);
}

/* The complete graph's bound on GPU `gpu` (cuda_bound.h) from pi, where
 * this build and machine have one: its time against the host's (host_s)
 * and whether it equals the host's bound (host_bound; -1: none)
 * ("bench=ascent-gpu-bound"); a refusal is a "# note:" line. */
static void time_gpu_bound(const wt_instance *inst, int gpu, const int32_t *pi,
                           int64_t host_bound, double host_s)
{
#ifdef WT_HAVE_CUDA
    char desc[128];
    if (!wt_cuda_available(desc, sizeof desc)) return;
    int64_t bound = 0;
    bool stopped = false;
    wt_error err = {0};
    double t0 = bench_now();
    wt_status st = wt_cuda_complete_bound(gpu, inst, pi, NULL, &bound, &stopped, &err);
    double gpu_s = bench_now() - t0;
    if (st != WT_OK) {
        printf("# note: no bound of %s on the GPU: %s\n", wt_instance_name(inst), err.message);
        return;
    }
    char hs[32];
    printf("bench=ascent-gpu-bound instance=%s n=%d gpu_bound_s=%.4f host_bound_s=%s "
           "equal=%s\n",
           wt_instance_name(inst), wt_instance_n(inst), gpu_s,
           bench_fmt_num("%.4f", host_s, hs, sizeof hs),
           host_bound < 0 ? "n/a" : yes_no(bound == host_bound));
#else
    (void)inst;
    (void)gpu;
    (void)pi;
    (void)host_bound;
    (void)host_s;
#endif
}

/* The host's finish (core/ascent_finish.h) again from r's pi, part by part:
 * the graph's arrays (wt_sgraph_create), the last tree, the alpha-values,
 * the candidate lists, the k-d tree the complete graph's bound builds, and
 * that bound (its k-d tree included).  *bound_s and *same: the bound's
 * seconds and whether it is r's (NAN when the instance has none).  Then
 * the same bound on GPU `gpu` (time_gpu_bound). */
static void time_finish(const wt_instance *inst, const int32_t *graph, int width,
                        const ab_run *r, int threads, int gpu, double *bound_s, bool *same)
{
    *bound_s = NAN;
    *same = false;
    int n = wt_instance_n(inst), k = r->job.candidates_k;
    wt_error err = {0};
    bool stopped = false;
    wt_sgraph g;
    wt_onetree t;
    double t0 = bench_now();
    if (wt_sgraph_create(inst, graph, width, threads, NULL, &g, &stopped, &err) != WT_OK) return;
    double t1 = bench_now();
    if (wt_onetree_alloc(&g, &t, &err) != WT_OK) {
        wt_sgraph_free(&g);
        return;
    }
    int64_t *alpha = malloc((size_t)(g.m > 0 ? g.m : 1) * sizeof *alpha);
    int32_t *cand = malloc((size_t)n * (size_t)k * sizeof *cand);
    double t2 = bench_now(), t3 = t2, t4 = t2, t5 = t2, t6 = t2, t7 = t2;
    if (!alpha || !cand ||
        wt_onetree_sparse(&g, r->job.pi, threads, NULL, &t, &stopped, &err) != WT_OK)
        goto out;
    t3 = bench_now();
    if (wt_onetree_alpha(&g, &t, threads, NULL, alpha, &stopped, &err) != WT_OK) goto out;
    t4 = bench_now();
    if (wt_ascent_finish_lists(&g, &t, alpha, k, threads, NULL, cand, &stopped, &err) != WT_OK)
        goto out;
    t5 = bench_now();
    wt_kdtree *tree = NULL;
    if (n > WT_ONETREE_DENSE_MAX && wt_kdtree_cheapest_supported(inst) &&
        wt_kdtree_create_threads(inst, NULL, n, threads, &tree, &err) == WT_OK)
        wt_kdtree_free(tree);
    t6 = bench_now();
    int64_t bound = 0;
    if (wt_onetree_complete_supported(inst) &&
        wt_onetree_complete_bound(inst, r->job.pi, &g, threads, NULL, &bound, &stopped, &err) ==
            WT_OK) {
        t7 = bench_now();
        *bound_s = t7 - t6;
        int64_t proven = (bound + WT_ASCENT_SCALE - 1) / WT_ASCENT_SCALE; /* bound > 0 here */
        *same = proven == r->job.lower_bound;
    }
    time_gpu_bound(inst, gpu, r->job.pi, isnan(*bound_s) ? -1 : bound, *bound_s);
    char bs[32];
    printf("bench=ascent-finish instance=%s n=%d threads=%d graph_arrays_s=%.4f tree_s=%.4f "
           "alpha_s=%.4f lists_s=%.4f kdtree_s=%.4f bound_s=%s lists_equal=%s\n",
           wt_instance_name(inst), n, threads, t1 - t0, t3 - t2, t4 - t3, t5 - t4, t6 - t5,
           bench_fmt_num("%.4f", *bound_s, bs, sizeof bs),
           yes_no(same_ints(cand, r->job.candidates, (size_t)n * (size_t)k)));
    time_tree_methods(wt_instance_name(inst), &g, r->job.pi, threads);
out:
    free(alpha);
    free(cand);
    wt_onetree_free(&t);
    wt_sgraph_free(&g);
}

/* Each later run against the first: time ratio and equality. */
static void print_compare(const char *name, int n, const ab_run *runs, int count, double bound_s,
                          bool bound_same)
{
    const ab_run *a = &runs[0];
    char bs[32];
    printf("bench=ascent-bound instance=%s backend=%s host_bound_s=%s same_bound=%s\n", name,
           run_name(a).s, bench_fmt_num("%.4f", bound_s, bs, sizeof bs),
           isnan(bound_s) ? "n/a" : yes_no(bound_same));
    for (int b = 1; b < count; b++) {
        const ab_run *r = &runs[b];
        if (!r->ran) continue;
        bool pi = same_ints(a->job.pi, r->job.pi, (size_t)n);
        bool cand = same_ints(a->job.candidates, r->job.candidates,
                              (size_t)n * (size_t)a->job.candidates_k);
        bool bounds = a->job.graph_bound == r->job.graph_bound &&
                      a->job.lower_bound == r->job.lower_bound;
        bool steps = a->job.iterations_done == r->job.iterations_done;
        printf("bench=ascent-compare instance=%s base=%s other=%s base_s=%.4f other_s=%.4f "
               "ratio=%.2f same_iterations=%s pi_equal=%s bounds_equal=%s candidates_equal=%s "
               "equal=%s\n",
               name, run_name(a).s, run_name(r).s, a->seconds, r->seconds,
               r->seconds > 0 ? a->seconds / r->seconds : 0.0, yes_no(steps), yes_no(pi),
               yes_no(bounds), yes_no(cand), yes_no(steps && pi && bounds && cand));
    }
}

/* ----------------------------------------------------------- instances */

static wt_instance *load(const ab_opts *o, const char *name, int *status)
{
    struct stat st;
    if (stat(name, &st) == 0 && S_ISREG(st.st_mode)) return cli_read_instance(name, status);
    bench_opts bo;
    memset(&bo, 0, sizeof bo);
    bo.seed = o->seed;
    return bench_load_instance(&bo, name, WT_MAX_CITIES, status);
}

/* The graph built again with dev's candidate lists (backend.h, the
 * neighbours slot), where it has the slot: its time against the host's
 * (host_s) and whether it is the host's graph, edge for edge
 * ("bench=ascent-graph"); a refusal is a "# note:" line. */
static void time_graph_on(const wt_instance *inst, const wt_device *dev, wt_search_ctl *ctl,
                          const int32_t *host_graph, int host_width, double host_s)
{
    if (dev->backend->host || !dev->backend->neighbours) return;
    int width;
    bool on_device = false, stopped = false;
    wt_status st;
    wt_error err = {0};
    double t0 = bench_now();
    int32_t *graph = wt_alpha_graph(inst, dev, ctl, &width, &on_device, &stopped, &st, &err);
    double graph_s = bench_now() - t0;
    if (!graph || !on_device) {
        printf("# note: %s built no graph of %s: %s\n", dev->name, wt_instance_name(inst),
               graph ? "its lists were refused, the host listed" : err.message);
        free(graph);
        return;
    }
    bool same = width == host_width &&
                same_ints(graph, host_graph, (size_t)wt_instance_n(inst) * (size_t)width);
    printf("bench=ascent-graph instance=%s n=%d device=%s graph_s=%.4f host_graph_s=%.4f "
           "speedup=%.1f equal=%s\n",
           wt_instance_name(inst), wt_instance_n(inst), dev->name, graph_s, host_s,
           graph_s > 0 ? host_s / graph_s : 0.0, yes_no(same));
    free(graph);
}

/* The runs of one instance; EXIT_OK or why not. */
static int bench_one(const ab_opts *o, const char *name, ab_run *live, int count, ab_table *t)
{
    int status;
    wt_instance *inst = load(o, name, &status);
    if (!inst) return status;
    int n = wt_instance_n(inst);
    if (n < 8) {
        printf("# note: skipped %s: %d cities (the ascent needs 8)\n", name, n);
        wt_instance_free(inst);
        return EXIT_OK;
    }
    wt_params p;
    wt_params_defaults(&p);
    p.threads = (int)o->threads;
    wt_search_ctl ctl;
    wt_ctl_init(&ctl, &p);
    int width;
    bool stopped;
    wt_status st;
    wt_error err = {0};
    double t0 = bench_now();
    int32_t *graph = wt_alpha_graph(inst, NULL, &ctl, &width, NULL, &stopped, &st, &err);
    double graph_s = bench_now() - t0;
    if (!graph) {
        wt_instance_free(inst);
        return cli_report_error(&err);
    }
    for (int b = 0; b < count; b++) time_graph_on(inst, &live[b].dev, &ctl, graph, width, graph_s);
    ab_run runs[AB_MAX_RUNS];
    int ran = 0;
    status = EXIT_OK;
    for (int b = 0; b < count && status == EXIT_OK; b++) {
        ab_run *r = &runs[ran];
        *r = run_like(&live[b]);
        st = o->stop_after >= 0
                 ? run_stopped(o, inst, graph, width, ctl.threads, r, t, &err)
                 : run_slot(o, inst, graph, width, (int)o->iterations, NULL, r, &err);
        if (st == WT_STATUS_UNSUPPORTED || st == WT_STATUS_OUT_OF_MEMORY) {
            printf("# note: %s refused %s: %s\n", r->dev.name, wt_instance_name(inst),
                   err.message);
            run_free(r);
            continue;
        }
        if (st != WT_OK) {
            status = cli_report_error(&err);
            run_free(r);
            break;
        }
        ran++;
        if (o->stop_after >= 0) continue;
        print_run(wt_instance_name(inst), n, o, graph_s, wt_instance_known_optimum(inst), r,
                  ctl.threads, t);
        if (o->gpu_profile) print_profile(wt_instance_name(inst), r);
        if (o->step_time && print_step_time(o, inst, graph, width, r, &err) != WT_OK)
            status = cli_report_error(&err);
        fflush(stdout);
    }
    if (status == EXIT_OK && ran > 0 && o->stop_after < 0) {
        bool same = false;
        double bound_s;
        time_finish(inst, graph, width, &runs[0], ctl.threads, (int)o->device, &bound_s, &same);
        print_compare(wt_instance_name(inst), n, runs, ran, bound_s, same);
    }
    for (int b = 0; b < ran; b++) run_free(&runs[b]);
    free(graph);
    wt_instance_free(inst);
    fflush(stdout);
    return status;
}

/* ------------------------------------------------------------- options */

static const struct option ab_longopts[] = {
    {"backends", required_argument, 0, 'b'},   {"iterations", required_argument, 0, 'i'},
    {"period", required_argument, 0, 'p'},     {"candidates", required_argument, 0, 'k'},
    {"threads", required_argument, 0, 'j'},    {"device", required_argument, 0, 'd'},
    {"seed", required_argument, 0, 's'},       {"step-time", no_argument, 0, 'T'},
    {"stop-after", required_argument, 0, 'S'}, {"finish", required_argument, 0, 'F'},
    {"gpu-steps", required_argument, 0, 'G'}, {"gpu-profile", no_argument, 0, 'P'},
    {0, 0, 0, 0}};

/* Hands the items of the list option's value arg (at most 255 characters)
 * to take, which prints the usage error of an item it refuses; -1 when
 * every item was taken, else EXIT_USAGE. */
static int ab_listed(const char *arg, const char *option, bench_take_fn *take, ab_opts *o)
{
    char buf[256];
    int taken = bench_each_listed(arg, buf, sizeof buf, take, o);
    if (taken == BENCH_LIST_TOO_LONG)
        return cli_usage_error(NULL, "ascent %s is too long", option);
    return taken == BENCH_LIST_REFUSED ? EXIT_USAGE : -1;
}

static bool take_backend(const char *name, void *user)
{
    ab_opts *o = user;
    const wt_backend *b;
    if (!backend_named(name, &b)) {
        cli_usage_error(NULL, "ascent --backends takes cpu and cuda, not '%s'", name);
        return false;
    }
    bool twice = false;
    for (int i = 0; i < o->n_backends; i++) twice |= o->backends[i] == b;
    if (!twice && o->n_backends < AB_MAX_BACKENDS) o->backends[o->n_backends++] = b;
    return true;
}

static int parse_backends(const char *arg, ab_opts *o)
{
    o->n_backends = 0;
    int status = ab_listed(arg, "--backends", take_backend, o);
    if (status >= 0) return status;
    if (o->n_backends == 0) return cli_usage_error(NULL, "ascent --backends names none");
    return -1;
}

/* --gpu-steps plain,compact,blocksN,splitN: "plain" every round on the
 * whole graph, "compact" the later rounds on the listed edges, at any
 * size, "blocksN" the fused kernel at N blocks an SM (1 to 64), "splitN"
 * the steps shared with device N (0 to 15), at any size. */
static bool take_steps(const char *name, void *user)
{
    ab_opts *o = user;
    bool plain = strcmp(name, "plain") == 0;
    int64_t blocks = 0, split = -1;
    if (strncmp(name, "blocks", 6) == 0 && !cli_parse_int64(name + 6, 1, 64, &blocks)) blocks = -1;
    if (strncmp(name, "split", 5) == 0 && !cli_parse_int64(name + 5, 0, 15, &split)) split = -2;
    if (blocks < 0 || split < -1 ||
        (!plain && blocks == 0 && split < 0 && strcmp(name, "compact") != 0)) {
        cli_usage_error(NULL, "ascent --gpu-steps takes plain, compact, blocksN (N 1..64) and "
                              "splitN (N 0..15), not '%s'",
                        name);
        return false;
    }
    if (o->n_steps == AB_MAX_STEPS) {
        cli_usage_error(NULL, "ascent --gpu-steps takes %d variants at most", AB_MAX_STEPS);
        return false;
    }
    ab_steps v = {.set = true};
    if (blocks > 0) {
        v.blocks = (int)blocks;
    } else if (split >= 0) {
        v.split = true;
        v.split_device = (int)split;
    } else {
        v.edges_set = true;
        v.compact = !plain;
    }
    o->steps[o->n_steps++] = v;
    return true;
}

static int parse_steps(const char *arg, ab_opts *o)
{
    o->n_steps = 0;
    return ab_listed(arg, "--gpu-steps", take_steps, o);
}

static int ab_option(int c, const char *arg, ab_opts *o)
{
    switch (c) {
    case 'b': return parse_backends(arg, o);
    case 'i':
        if (!cli_parse_int64(arg, 0, 1000000, &o->iterations))
            return cli_usage_error(NULL, "ascent --iterations needs 0..1000000 (0: the step "
                                   "rule's end)");
        return -1;
    case 'p':
        if (!cli_parse_int64(arg, 0, 1000000, &o->period))
            return cli_usage_error(NULL, "ascent --period needs 0..1000000 (0: max(n / 2, 100))");
        return -1;
    case 'k':
        if (!cli_parse_int64(arg, 1, 16, &o->candidates))
            return cli_usage_error(NULL, "ascent --candidates needs 1..16");
        return -1;
    case 'j':
        if (!cli_parse_int64(arg, 0, WT_MAX_THREADS, &o->threads))
            return cli_usage_error(NULL, "ascent --threads needs 0..%d (0: all cores)",
                                   WT_MAX_THREADS);
        return -1;
    case 'd':
        if (!cli_parse_int64(arg, 0, 1023, &o->device))
            return cli_usage_error(NULL, "ascent --device needs a device number");
        return -1;
    case 's':
        if (!cli_parse_uint64(arg, &o->seed))
            return cli_usage_error(NULL, "ascent --seed needs a non-negative integer");
        return -1;
    case 'T': o->step_time = true; return -1;
    case 'F':
        if (strcmp(arg, "gpu") == 0) o->finish = AB_FINISH_GPU;
        else if (strcmp(arg, "host") == 0) o->finish = AB_FINISH_HOST;
        else if (strcmp(arg, "both") == 0) o->finish = AB_FINISH_BOTH;
        else return cli_usage_error(NULL, "ascent --finish takes gpu, host or both");
        return -1;
    case 'G': return parse_steps(arg, o);
    case 'P': o->gpu_profile = true; return -1;
    case 'S':
        if (!cli_parse_double(arg, 0, 3600, &o->stop_after))
            return cli_usage_error(NULL, "ascent --stop-after needs 0..3600 seconds");
        return -1;
    }
    return cli_usage_error(NULL, "bad option for ascent");
}

int bench_ascent(int argc, char **argv, void (*print_header)(void))
{
    ab_opts o = {.period = WT_ASCENT_PERIOD, .candidates = WT_LK_ALPHA_CANDIDATES, .seed = 1,
                 .stop_after = -1};
    parse_backends("cpu,cuda", &o);
    optind = 1;
    opterr = 0;
    int c;
    while ((c = getopt_long(argc, argv, ":", ab_longopts, NULL)) != -1) {
        if (c == ':') return cli_usage_error(NULL, "option '%s' needs a value", argv[optind - 1]);
        if (c == '?')
            return cli_usage_error(NULL, "bad option '%s' for ascent", argv[optind - 1]);
        int st = ab_option(c, optarg, &o);
        if (st >= 0) return st;
    }
    for (int i = optind; i < argc; i++) {
        if (o.n_files == AB_MAX_FILES)
            return cli_usage_error(NULL, "ascent takes %d instances at most", AB_MAX_FILES);
        o.files[o.n_files++] = argv[i];
    }
    if (o.n_files == 0)
        return cli_usage_error(NULL, "ascent needs instances: files, TSPLIB names or uniformN");
    print_header();
    printf("# ascent: iterations %" PRId64 "%s, first period %" PRId64 "%s, %" PRId64
           " candidates a city, seed %" PRIu64 " (uniformN)\n",
           o.iterations, o.iterations ? "" : " (the step rule's end)", o.period,
           o.period ? "" : " (max(n / 2, 100))", o.candidates, o.seed);
    if (o.stop_after >= 0)
        printf("# ascent: the stop flag set %.3f s into each run\n", o.stop_after);
    ab_run live[AB_MAX_RUNS];
    int count = 0;
    for (int b = 0; b < o.n_backends; b++) {
        wt_device dev;
        if (!backend_live(&o, o.backends[b], &dev)) continue;
        const wt_backend *be = o.backends[b];
        /* a GPU's slot once or twice as --finish says; the host's once */
        if (be->host || o.finish != AB_FINISH_HOST)
            live[count++] = (ab_run){.backend = be, .dev = dev};
        if (!be->host && o.finish != AB_FINISH_GPU)
            live[count++] = (ab_run){.backend = be, .dev = dev, .host_finish = true};
        for (int v = 0; !be->host && v < o.n_steps; v++)
            live[count++] = (ab_run){.backend = be, .dev = dev, .steps = o.steps[v]};
    }
    fflush(stdout);
    if (count == 0) {
        fprintf(stderr, "warptour-bench: ascent: no backend of --backends can run the ascent "
                        "here (the notes above say why)\n");
        return EXIT_FAILURE_RUN;
    }
    warm_up(&o, live, count);
    int status = EXIT_OK;
    ab_table *t = calloc(1, sizeof *t);
    if (!t) return EXIT_FAILURE_RUN;
    for (int f = 0; f < o.n_files && status == EXIT_OK; f++)
        status = bench_one(&o, o.files[f], live, count, t);
    if (status == EXIT_OK && t->count > 0) {
        if (o.stop_after >= 0)
            printf("\n| instance | n | device | stop after | returned | returned after the "
                   "stop | steps |\n| --- | --- | --- | --- | --- | --- | --- |\n");
        else
            printf("\n| instance | n | device | graph | ascent | steps | a step | lower bound | "
                   "below optimum %% |\n| --- | --- | --- | --- | --- | --- | --- | --- | --- |\n");
        for (int i = 0; i < t->count; i++) printf("%s\n", t->rows[i]);
    }
    free(t);
    return status;
}
