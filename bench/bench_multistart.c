/*
 * bench_multistart.c - `warptour-bench multistart`: 2-opt moves evaluated
 * per second by random-restart hill climbing on the first n cities of
 * d18512, for the GPU kernel, the climber-per-thread GPU baseline and the
 * CPU (O'Neil & Burtscher 2015, section 4 and Figure 6).
 */
#include <inttypes.h>
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "algo/bench_hooks.h" /* the cuda-thread baseline */
#include "bench.h"

/* Calibration of a multistart measurement: a run of `climbs` climbs should
 * fill the device and last about the target time.  The first run takes a
 * count that fills the device (a climber per resident block or thread on
 * every SM, one per CPU thread); later runs scale the count by the target
 * over the time measured, until a run lasts MS_ENOUGH of the target.  When
 * even the first count does not finish within the target (large n: a climb
 * of 5000 cities is about 8e10 moves), or a later run overshoots past its
 * time limit, the measurement runs are cut by a time limit of the target
 * instead; moves_evaluated then counts the scans done until the stop, those
 * of the climbs cut short included. */
#define MS_CALIBRATION_RUNS 6      /* at most this many calibration runs */
#define MS_ENOUGH 0.8              /* a calibration run this close to the target ends it */
#define MS_AIM 1.1                 /* scaling aims at this many targets */
#define MS_MAX_SCALE 1000.0        /* largest growth of the count per calibration run */
#define MS_MAX_CLIMBS (1ULL << 30) /* the sensible cap on climbs per run */
#define MS_SAFETY_LIMIT 3.0        /* time limit of runs after the first, in targets */
#define MS_CPU_TARGET_MAX 1.0      /* the cpu variant aims at min(--seconds, this) */

typedef struct ms_variant {
    const char *name;            /* the value of --variants */
    wt_backend_kind backend;
    wt_multistart_kernel kernel;
    bool gpu;
} ms_variant;

static const ms_variant ms_variants[] = {
    {"cuda", WT_BACKEND_CUDA, WT_MS_KERNEL_BLOCK, true},
    {"cuda-thread", WT_BACKEND_CUDA, WT_MS_KERNEL_THREAD, true},
    {"cpu", WT_BACKEND_CPU, WT_MS_KERNEL_BLOCK, false},
};
/* In the order of bench.h's MS_* indices, which --variants sets. */
_Static_assert(sizeof ms_variants / sizeof ms_variants[0] == MS_N_VARIANTS,
               "one ms_variants entry per MS_* index");

/* One measured cell of the table. */
typedef struct ms_cell {
    bool done;
    double moves_per_s;
} ms_cell;

/* Streaming multiprocessors named in the device description ("..., 132 SMs,
 * ..."), or 0.  Only a hint for the first climb count. */
static int gpu_sm_count(void)
{
    char device[160];
    if (!wt_cuda_available(device, sizeof device)) return 0;
    const char *p = strstr(device, " SMs");
    if (!p) return 0;
    while (p > device && p[-1] >= '0' && p[-1] <= '9') p--;
    return atoi(p);
}

/* Climbs that keep every parallel unit of the variant busy. */
static uint64_t ms_fill_climbs(const ms_variant *v)
{
    if (!v->gpu) return (uint64_t)omp_get_max_threads();
    int sms = gpu_sm_count();
    if (sms <= 0) sms = 132; /* an H100's count, if the description does not say */
    /* 32 resident blocks or 2048 resident threads per SM: the most any
     * current GPU holds, so the device is full whatever the launch shape. */
    return (uint64_t)sms * (v->kernel == WT_MS_KERNEL_BLOCK ? 32 : 2048);
}

static wt_status ms_run(const wt_instance *inst, const ms_variant *v, uint64_t climbs,
                        double time_limit, const bench_opts *o, wt_result *res, wt_error *err)
{
    wt_params p;
    bench_params_defaults(o, &p);
    p.algorithm = WT_ALGO_MULTISTART;
    p.backend = v->backend;
    p.restarts = climbs;
    p.time_limit_s = time_limit;
    p.seed = o->seed;
    return wt_solve_ms_kernel(inst, &p, v->kernel, res, err);
}

static double ms_rate(const wt_result *r)
{
    return r->search_time_s > 0 ? (double)r->moves_evaluated / r->search_time_s : 0.0;
}

/* Finds the climb count of a measurement (see MS_CALIBRATION_RUNS); sets
 * *time_limited when runs must be cut by a time limit of the target. */
static wt_status ms_calibrate(const wt_instance *inst, const ms_variant *v, double target,
                              const bench_opts *o, uint64_t *climbs, bool *time_limited,
                              wt_error *err)
{
    uint64_t c = ms_fill_climbs(v);
    *time_limited = false;
    double t = 0;
    int runs = 0;
    while (runs < MS_CALIBRATION_RUNS) {
        wt_result res;
        double limit = runs == 0 ? target : MS_SAFETY_LIMIT * target;
        wt_status st = ms_run(inst, v, c, limit, o, &res, err);
        if (st != WT_OK) return st;
        runs++;
        t = res.search_time_s;
        bool stopped = res.stop == WT_STOP_TIME_LIMIT;
        wt_result_free(&res);
        if (stopped) {
            *time_limited = true;
            break;
        }
        if (t >= MS_ENOUGH * target || c >= MS_MAX_CLIMBS) break;
        double scale = t > 0 ? MS_AIM * target / t : MS_MAX_SCALE;
        if (scale > MS_MAX_SCALE) scale = MS_MAX_SCALE;
        if (scale < 1.25) scale = 1.25;
        double next = ceil((double)c * scale);
        c = next >= (double)MS_MAX_CLIMBS ? MS_MAX_CLIMBS : (uint64_t)next;
    }
    *climbs = c;
    if (*time_limited)
        printf("# n=%d variant=%s: %" PRIu64 " climbs did not finish in time; runs are cut "
               "at %.2f s\n", wt_instance_n(inst), v->name, c, target);
    else
        printf("# n=%d variant=%s: calibrated to %" PRIu64 " climbs in %d run%s (last %.3f s)\n",
               wt_instance_n(inst), v->name, c, runs, runs == 1 ? "" : "s", t);
    fflush(stdout);
    return WT_OK;
}

/* Calibrates and measures one (n, variant) cell; prints its result line. */
static wt_status ms_measure(const wt_instance *inst, const ms_variant *v, const bench_opts *o,
                            ms_cell *cell, wt_error *err)
{
    double target = v->gpu ? o->seconds : fmin(o->seconds, MS_CPU_TARGET_MAX);
    uint64_t climbs;
    bool time_limited;
    wt_status st = ms_calibrate(inst, v, target, o, &climbs, &time_limited, err);
    if (st != WT_OK) return st;
    double limit = time_limited ? target : MS_SAFETY_LIMIT * target;
    wt_result best = {0};
    for (int r = 0; r < o->repeat; r++) {
        wt_result res;
        st = ms_run(inst, v, climbs, limit, o, &res, err);
        if (st != WT_OK) break;
        if (!best.tour || ms_rate(&res) > ms_rate(&best)) {
            wt_result_free(&best);
            best = res;
        } else {
            wt_result_free(&res);
        }
    }
    if (st == WT_OK) {
        cell->done = true;
        cell->moves_per_s = ms_rate(&best);
        printf("bench=multistart n=%d variant=%s backend=%s restarts=%" PRIu64
               " climbs=%" PRIu64 " steps=%" PRIu64 " moves=%" PRIu64 " seconds=%.4f"
               " moves_per_s=%.4e best_length=%" PRId64 " stop=%s\n",
               wt_instance_n(inst), v->name, best.backend, climbs, best.multistart.climbs,
               best.steps, best.moves_evaluated, best.search_time_s, cell->moves_per_s, best.length,
               wt_stop_reason_name(best.stop));
        fflush(stdout);
    }
    wt_result_free(&best);
    return st;
}

/* "12.34" (G moves/s) or "-" when the cell was not measured. */
static const char *fmt_rate(const ms_cell *c, char *buf, size_t size)
{
    if (!c->done) return "-";
    snprintf(buf, size, "%.3f", c->moves_per_s / 1e9);
    return buf;
}

static const char *fmt_ratio(const ms_cell *a, const ms_cell *b, char *buf, size_t size)
{
    if (!a->done || !b->done || b->moves_per_s <= 0) return "-";
    snprintf(buf, size, "%.2fx", a->moves_per_s / b->moves_per_s);
    return buf;
}

static void ms_print_table(const bench_opts *o, ms_cell cells[][MS_N_VARIANTS])
{
    printf("\n# multistart throughput, G moves/s (2-opt moves evaluated per second, best of %d)\n",
           (int)o->repeat);
    printf("%8s | %12s | %15s | %10s | %13s | %8s\n", "n", "ours (cuda)", "thread-baseline",
           "cpu", "ours/baseline", "ours/cpu");
    printf("---------+--------------+-----------------+------------+---------------+---------\n");
    for (int s = 0; s < o->n_sizes; s++) {
        char a[32], b[32], c[32], d[32], e[32];
        ms_cell *row = cells[s];
        printf("%8" PRId64 " | %12s | %15s | %10s | %13s | %8s\n", o->sizes[s],
               fmt_rate(&row[0], a, sizeof a), fmt_rate(&row[1], b, sizeof b),
               fmt_rate(&row[2], c, sizeof c), fmt_ratio(&row[0], &row[1], d, sizeof d),
               fmt_ratio(&row[0], &row[2], e, sizeof e));
    }
}

int bench_multistart(const bench_opts *o)
{
    char path[4096];
    if (o->instance) snprintf(path, sizeof path, "%s", o->instance);
    else if (!bench_find_tsplib("d18512.tsp", path, sizeof path))
        return bench_tsplib_not_found("d18512.tsp", "--instance PATH");
    int status = EXIT_OK;
    wt_instance *full = cli_read_instance(path, &status);
    if (!full) return status;
    const double *x, *y;
    if (!wt_instance_coords(full, &x, &y)) {
        fprintf(stderr, "warptour-bench: %s has no coordinates\n", path);
        wt_instance_free(full);
        return EXIT_BAD_INPUT;
    }
    for (int s = 0; s < o->n_sizes; s++)
        if (o->sizes[s] > wt_instance_n(full)) {
            fprintf(stderr, "warptour-bench: --sizes asks for %" PRId64 " cities but %s has "
                    "%d\n", o->sizes[s], path, wt_instance_n(full));
            wt_instance_free(full);
            return EXIT_USAGE;
        }
    printf("# instance: first n cities of %s (%s, %d cities) as EUC_2D\n", path,
           wt_instance_name(full), wt_instance_n(full));
    char gpu[160];
    bool has_gpu = wt_cuda_available(gpu, sizeof gpu);
    if (!has_gpu && (o->variant_on[0] || o->variant_on[1]))
        printf("# note: cuda variants skipped: %s\n", gpu);
    fflush(stdout);

    ms_cell cells[BENCH_MAX_LIST][MS_N_VARIANTS];
    memset(cells, 0, sizeof cells);
    for (int s = 0; s < o->n_sizes; s++) {
        int n = (int)o->sizes[s];
        char name[64];
        snprintf(name, sizeof name, "%s-first%d", wt_instance_name(full), n);
        wt_instance *inst = NULL;
        wt_error err = {0};
        if (wt_instance_from_coords(name, n, WT_EUC_2D, x, y, NULL, &inst, &err) != WT_OK) {
            status = cli_report_error(&err);
            break;
        }
        for (int v = 0; v < MS_N_VARIANTS; v++) {
            if (!o->variant_on[v] || (ms_variants[v].gpu && !has_gpu)) continue;
            if (ms_measure(inst, &ms_variants[v], o, &cells[s][v], &err) != WT_OK) {
                /* One failed cell (a GPU error, say) does not lose the others. */
                printf("# n=%d variant=%s failed: %s\n", n, ms_variants[v].name, err.message);
                fflush(stdout);
                status = cli_report_error(&err);
            }
        }
        wt_instance_free(inst);
    }
    wt_instance_free(full);
    ms_print_table(o, cells);
    return status;
}
