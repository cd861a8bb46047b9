/*
 * bench_ils.c - `warptour-bench ils`: Iterated Local Search's gap to the
 * optimum over time.
 *
 * Runs ILS (Rocki & Suda 2013, Algorithm 1: 2-opt, then double-bridge kick
 * + 2-opt, keeping improvements) for --seconds per instance, from the
 * greedy start tour, and samples the best length through the progress
 * callback every --interval seconds (progress_interval_s).  Times are
 * wt_progress.elapsed_s: since wt_solve began, the start tour included, as
 * is the time limit.  Each trace starts with the start tour (at
 * init_time_s) and ends with the result (at time_s).  A callback comes
 * between 2-opt scans or kicks, so while one scan takes longer than the
 * interval (about n^2/2 checks: seconds at n = 85900 on a CPU) samples are
 * that far apart.  The target quoted is "within 10 s at most 3% above
 * optimal"; whether a run met it is reported as a fact, not a verdict.
 * scripts/plot_bench.py draws the bench=ils-trace lines (gap against log
 * time).
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

#define ILS_TARGET_GAP 3.0 /* percent above the optimum ... */
#define ILS_TARGET_S 10.0  /* ... within this many seconds */

typedef struct ils_sample {
    double t;       /* seconds since wt_solve began */
    int64_t length; /* best length then */
} ils_sample;

typedef struct ils_trace {
    char name[64];
    char backend[32];
    int n;
    int64_t optimum; /* -1: unknown */
    ils_sample *s;
    size_t count, cap;
    bool lost;       /* a sample could not be stored (out of memory) */
    double seconds;  /* time_s of the run */
    uint64_t kicks, kicks_accepted;
    double first_within; /* first sample within the target gap, -1: none */
} ils_trace;

static void trace_add(ils_trace *tr, double t, int64_t length)
{
    if (tr->count == tr->cap) {
        size_t cap = tr->cap ? 2 * tr->cap : 256;
        ils_sample *grown = realloc(tr->s, cap * sizeof *grown);
        if (!grown) {
            tr->lost = true;
            return;
        }
        tr->s = grown;
        tr->cap = cap;
    }
    tr->s[tr->count++] = (ils_sample){t, length};
}

static wt_status samples_oom(wt_error *err)
{
    err->status = WT_STATUS_OUT_OF_MEMORY;
    snprintf(err->message, sizeof err->message, "out of memory for the samples");
    return WT_STATUS_OUT_OF_MEMORY;
}

static int on_progress(const wt_progress *p, void *user)
{
    trace_add(user, p->elapsed_s, p->best_length);
    return 0;
}

/* ------------------------------------------------------------- the runs */

/* "yes", "no", or "n/a" (optimum unknown, or a run shorter than the target
 * time that had not reached the gap). */
static const char *ils_target_met(const ils_trace *t)
{
    if (t->optimum <= 0) return "n/a";
    if (t->first_within >= 0 && t->first_within <= ILS_TARGET_S) return "yes";
    return t->seconds >= ILS_TARGET_S ? "no" : "n/a";
}

/* Runs one instance into tr and prints its lines.  Returns WT_OK,
 * WT_STATUS_NO_DEVICE (noted: nothing more to run) or a failure. */
static wt_status ils_run(const wt_instance *inst, const bench_opts *o, ils_trace *tr,
                         wt_error *err)
{
    wt_params p;
    bench_params_defaults(o, &p);
    p.algorithm = WT_ALGO_ILS;
    p.backend = o->backend;
    p.ils_descent = o->ils_descent;
    if (o->prune >= 0) p.prune = o->prune;
    p.seed = o->seed;
    p.threads = o->threads;
    p.time_limit_s = o->seconds;
    p.kicks = 0; /* as many as the time allows */
    p.progress = on_progress;
    p.progress_user = tr;
    p.progress_interval_s = o->interval;
    /* The start tour first (its time and length known at the end), the
     * samples, the result last. */
    trace_add(tr, 0, 0);
    if (tr->count != 1) return samples_oom(err);
    wt_result res;
    wt_status st = wt_solve(inst, &p, &res, err);
    if (st == WT_STATUS_NO_DEVICE) {
        printf("# note: cuda backend skipped: %s\n", err->message);
        return st;
    }
    if (st != WT_OK) return st;
    tr->s[0] = (ils_sample){res.init_time_s, res.init_length};
    trace_add(tr, res.time_s, res.length);
    /* Where it ran and how it descended after each kick: cpu/local,
     * cuda/local (the first descent on the GPU), cuda/full, cpu/full. */
    snprintf(tr->backend, sizeof tr->backend, "%s/%s", res.backend,
             wt_ils_descent_name(res.ils.descent));
    tr->seconds = res.time_s;
    tr->kicks = res.ils.kicks;
    tr->kicks_accepted = res.ils.kicks_accepted;
    tr->first_within = -1;
    char g[32];
    for (size_t k = 0; k < tr->count; k++) {
        double gap = bench_gap(tr->s[k].length, tr->optimum);
        if (tr->first_within < 0 && gap <= ILS_TARGET_GAP) tr->first_within = tr->s[k].t;
        printf("bench=ils-trace instance=%s backend=%s elapsed_s=%.3f best_length=%" PRId64
               " gap_percent=%s\n", tr->name, tr->backend, tr->s[k].t, tr->s[k].length,
               bench_fmt_gap(gap, g, sizeof g));
    }
    if (tr->lost) printf("# note: %s: some samples were lost (out of memory)\n", tr->name);
    char opt[32], ig[32], fw[32];
    if (tr->optimum > 0) snprintf(opt, sizeof opt, "%" PRId64, tr->optimum);
    else snprintf(opt, sizeof opt, "unknown");
    if (tr->first_within >= 0) snprintf(fw, sizeof fw, "%.3f", tr->first_within);
    else snprintf(fw, sizeof fw, "none");
    printf("bench=ils instance=%s n=%d backend=%s seconds=%.3f init_seconds=%.4f init_length=%"
           PRId64 " length=%" PRId64 " optimum=%s init_gap_percent=%s gap_percent=%s kicks=%"
           PRIu64 " kicks_accepted=%" PRIu64 " steps=%" PRIu64 " first_within_%gpct_s=%s "
           "within_%gpct_by_%gs=%s\n",
           tr->name, tr->n, tr->backend, res.time_s, res.init_time_s, res.init_length,
           res.length, opt, bench_fmt_gap(bench_gap(res.init_length, tr->optimum), ig, sizeof ig),
           bench_fmt_gap(bench_gap(res.length, tr->optimum), g, sizeof g), res.ils.kicks,
           res.ils.kicks_accepted, res.steps, ILS_TARGET_GAP, fw, ILS_TARGET_GAP, ILS_TARGET_S,
           ils_target_met(tr));
    fflush(stdout);
    wt_result_free(&res);
    return WT_OK;
}

static void ils_print_table(const bench_opts *o, const ils_trace *tr, int count)
{
    printf("\n# Iterated Local Search, %g s per instance (start tour included), seed %" PRIu64
           "; the target: within %g s at most %g%% above optimal\n", o->seconds, o->seed,
           ILS_TARGET_S, ILS_TARGET_GAP);
    printf("%-18s | %7s | %10s | %8s | %8s | %11s | %11s | %13s | %s\n", "instance", "n",
           "backend", "seconds", "kicks", "start gap %", "final gap %", "first <= 3%",
           "<= 3% within 10 s");
    printf("-------------------+---------+------------+----------+----------+-------------"
           "+-------------+---------------+------------------\n");
    for (int i = 0; i < count; i++) {
        const ils_trace *t = &tr[i];
        char a[32], b[32], c[32];
        printf("%-18s | %7d | %10s | %8.2f | %8" PRIu64 " | %11s | %11s | %13s | %s\n", t->name,
               t->n, t->backend, t->seconds, t->kicks,
               bench_fmt_num("%.2f", t->count ? bench_gap(t->s[0].length, t->optimum) : NAN, a,
                             sizeof a),
               bench_fmt_num("%.2f",
                             t->count ? bench_gap(t->s[t->count - 1].length, t->optimum) : NAN,
                             b, sizeof b),
               bench_fmt_duration(t->first_within, c, sizeof c), ils_target_met(t));
    }
}

int bench_ils(const bench_opts *o)
{
    char dir[4096];
    printf("# instances: %d named, looked up in %s; %g s each, --backend %s, --ils-descent %s, "
           "greedy start, seed %" PRIu64 ", a sample every %g s\n",
           o->n_instances, bench_instance_dir(o, dir, sizeof dir), o->seconds,
           wt_backend_name(o->backend), wt_ils_descent_name(o->ils_descent),
           o->seed, o->interval);
    char gpu[160];
    if (o->backend == WT_BACKEND_AUTO && !wt_cuda_available(gpu, sizeof gpu))
        printf("# note: cuda backend not used: %s; --backend auto runs on the cpu\n", gpu);
    fflush(stdout);
    bench_warm_up(o, WT_ALGO_ILS, o->backend);
    ils_trace *tr = calloc(BENCH_MAX_LIST, sizeof *tr);
    if (!tr) return EXIT_FAILURE_RUN;
    int count = 0, status = EXIT_OK;
    for (int i = 0; i < o->n_instances && status == EXIT_OK; i++) {
        wt_instance *inst = bench_load_instance(o, o->instances[i], WT_MAX_CITIES, &status);
        if (!inst) continue;
        ils_trace *t = &tr[count];
        snprintf(t->name, sizeof t->name, "%s", wt_instance_name(inst));
        t->n = wt_instance_n(inst);
        t->optimum = wt_instance_known_optimum(inst);
        wt_error err = {0};
        wt_status st = ils_run(inst, o, t, &err);
        wt_instance_free(inst);
        if (st == WT_STATUS_NO_DEVICE) {
            free(t->s);
            *t = (ils_trace){0};
            break;
        }
        if (st != WT_OK) {
            printf("# %s failed: %s\n", t->name, err.message);
            status = cli_report_error(&err);
            free(t->s);
            *t = (ils_trace){0};
            break;
        }
        count++;
    }
    if (count > 0) ils_print_table(o, tr, count);
    for (int i = 0; i < count; i++) free(tr[i].s);
    free(tr);
    return status;
}
