/*
 * bench_kswap.c - `warptour-bench kswap`: k-swap against best improvement.
 *
 * Robinson et al. (2018, Figure 6) apply up to k independent improving
 * moves per 2-opt pass instead of one, and report the speedup of the climb
 * to the local minimum over k = 1 (6a) and the tour length relative to
 * k = 1 (6b), on fl1400, fl3795, fnl4461, pla7397, usa13509 and pla33810
 * from random tours.  Here each instance runs from a random and from a
 * greedy start tour (--starts; built once per instance and start), 2opt
 * with --swaps k for each k of --ks to the local minimum; the time is
 * search_time_s (start tour excluded).  From random tours a climb takes
 * about n passes of (n-1)(n-2)/2 checks at k = 1, hence a separate, lower
 * size limit for random starts (--max-n-random).
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

#define KS_CPU_MAX_N 5000          /* default --max-n (greedy starts) on the cpu */
#define KS_CPU_MAX_N_RANDOM 2000   /* default --max-n-random on the cpu */
#define KS_CUDA_MAX_N_RANDOM 15000 /* default --max-n-random on cuda */

static const wt_init_method start_method[KS_N_STARTS] = {WT_INIT_RANDOM, WT_INIT_GREEDY};

typedef struct ks_cell {
    bool done;
    bool stopped; /* by --time-limit: seconds is a lower bound */
    double seconds;
    int64_t length;
} ks_cell;

typedef struct ks_row {
    char name[64];
    int n, variant, start;
    ks_cell cell[BENCH_MAX_LIST]; /* per --ks value */
} ks_row;

static void fmt_k(int k, char *buf, size_t size)
{
    if (k == 0) snprintf(buf, size, "k=all");
    else snprintf(buf, size, "k=%d", k);
}

/* The cell of k = 1, or NULL when --ks has no 1 or it was not measured. */
static const ks_cell *k1_cell(const bench_opts *o, const ks_row *r)
{
    for (int k = 0; k < o->n_ks; k++)
        if (o->ks[k] == 1) return r->cell[k].done ? &r->cell[k] : NULL;
    return NULL;
}

/* what: 0 seconds, 1 speedup over k = 1, 2 length over k = 1. */
static void ks_print_table(const bench_opts *o, const ks_row *rows, int count, int what)
{
    static const char *const titles[] = {
        "seconds from the start tour to the 2-opt local minimum",
        "speedup over k=1 (Robinson et al. 2018, Figure 6a)",
        "tour length relative to k=1 (Robinson et al. 2018, Figure 6b)"};
    printf("\n# k-swap: %s\n", titles[what]);
    printf("%-18s | %7s | %-6s | %4s", "instance", "n", "start", "var");
    for (int k = 0; k < o->n_ks; k++) {
        char h[32];
        fmt_k(o->ks[k], h, sizeof h);
        printf(" | %10s", h);
    }
    printf("\n-------------------+---------+--------+------");
    for (int k = 0; k < o->n_ks; k++) printf("+------------");
    printf("\n");
    for (int i = 0; i < count; i++) {
        const ks_row *r = &rows[i];
        const ks_cell *base = k1_cell(o, r);
        printf("%-18s | %7d | %-6s | %4s", r->name, r->n,
               wt_init_method_name(start_method[r->start]), bench_two_names[r->variant]);
        for (int k = 0; k < o->n_ks; k++) {
            const ks_cell *c = &r->cell[k];
            char buf[32];
            double v = NAN;
            if (what == 0 && c->done) {
                bench_fmt_duration(c->seconds, buf, sizeof buf);
                if (c->stopped) bench_mark_lower_bound(buf, sizeof buf);
            } else {
                /* A stopped run's speedup is unknown; over a stopped k = 1, a bound. */
                bool bound = what == 1 && base && base->stopped && !c->stopped;
                if (what == 1 && c->done && !c->stopped && base && c->seconds > 0)
                    v = base->seconds / c->seconds;
                if (what == 2 && c->done && !c->stopped && base && !base->stopped &&
                    base->length > 0)
                    v = (double)c->length / (double)base->length;
                bench_fmt_num(what == 1 ? "%.2fx" : "%.4f", v, buf, sizeof buf);
                if (bound && !isnan(v)) bench_mark_lower_bound(buf, sizeof buf);
            }
            printf(" | %10s", buf);
        }
        printf("\n");
    }
}

/* Runs every k of one (instance, start, variant) row; prints the lines. */
static int ks_measure_row(const wt_instance *inst, const int32_t *start, const bench_opts *o,
                          bool live[], ks_row *row)
{
    int v = row->variant;
    int64_t init_length = wt_tour_length(inst, start);
    for (int k = 0; k < o->n_ks && live[v]; k++) {
        wt_result res;
        wt_error err = {0};
        wt_status st = bench_2opt(inst, start, o->ks[k], v, o, NULL, live, &res, &err);
        if (st == WT_STATUS_NO_DEVICE && v == TWO_CUDA) return EXIT_OK;
        if (st != WT_OK) {
            printf("# %s on %s failed: %s\n", row->name, bench_two_names[v], err.message);
            return cli_report_error(&err);
        }
        row->cell[k] = (ks_cell){true, res.stop == WT_STOP_TIME_LIMIT, res.search_time_s,
                                 res.length};
        const ks_cell *base = k1_cell(o, row);
        char kname[16], speedup[32];
        fmt_k(o->ks[k], kname, sizeof kname);
        bench_fmt_num("%.3f", base && res.search_time_s > 0 ? base->seconds / res.search_time_s
                                                            : NAN,
                      speedup, sizeof speedup);
        printf("bench=kswap instance=%s n=%d variant=%s backend=%s start=%s k=%s init_length=%"
               PRId64 " length=%" PRId64 " steps=%" PRIu64 " passes=%" PRIu64
               " seconds=%.6g speedup=%s stop=%s nested=%s band=%d\n",
               row->name, row->n, bench_two_names[v], res.backend,
               wt_init_method_name(start_method[row->start]), kname + 2, init_length,
               res.length, res.steps, res.scan.passes,
               res.search_time_s, speedup, wt_stop_reason_name(res.stop),
               o->nested ? "on" : "off", o->band);
        fflush(stdout);
        wt_result_free(&res);
    }
    return EXIT_OK;
}

int bench_kswap(const bench_opts *o)
{
    bool live[TWO_N_VARIANTS];
    int64_t cap[KS_N_STARTS][TWO_N_VARIANTS];
    for (int v = 0; v < TWO_N_VARIANTS; v++) {
        cap[KS_START_GREEDY][v] = bench_cap(o->max_n, v, KS_CPU_MAX_N, WT_MAX_CITIES);
        cap[KS_START_RANDOM][v] =
            bench_cap(o->max_n_random, v, KS_CPU_MAX_N_RANDOM, KS_CUDA_MAX_N_RANDOM);
    }
    char dir[4096];
    char c[4][32];
    printf("# instances: %d named, looked up in %s; --max-n %s on the cpu, %s on cuda; "
           "--max-n-random %s on the cpu, %s on cuda; seed %" PRIu64 "; --nested %s, "
           "--band %d (k > 1)\n",
           o->n_instances, bench_instance_dir(o, dir, sizeof dir),
           bench_fmt_cap(cap[KS_START_GREEDY][TWO_CPU], c[0], sizeof c[0]),
           bench_fmt_cap(cap[KS_START_GREEDY][TWO_CUDA], c[1], sizeof c[1]),
           bench_fmt_cap(cap[KS_START_RANDOM][TWO_CPU], c[2], sizeof c[2]),
           bench_fmt_cap(cap[KS_START_RANDOM][TWO_CUDA], c[3], sizeof c[3]), o->seed,
           o->nested ? "on" : "off", o->band);
    bench_two_live(o, live);
    bench_two_warm_up(o, live);
    ks_row *rows = calloc((size_t)KS_N_STARTS * TWO_N_VARIANTS * BENCH_MAX_LIST, sizeof *rows);
    if (!rows) return EXIT_FAILURE_RUN;
    int count = 0, status = EXIT_OK;
    for (int i = 0; i < o->n_instances && status == EXIT_OK; i++) {
        int64_t max_n = 0;
        for (int s = 0; s < KS_N_STARTS; s++)
            for (int v = 0; v < TWO_N_VARIANTS; v++)
                if (o->start_on[s] && live[v] && cap[s][v] > max_n) max_n = cap[s][v];
        if (max_n == 0) break;
        wt_instance *inst = bench_load_instance(o, o->instances[i], max_n, &status);
        if (!inst) continue;
        int n = wt_instance_n(inst);
        for (int s = 0; s < KS_N_STARTS && status == EXIT_OK; s++) {
            if (!o->start_on[s]) continue;
            int32_t *start = NULL;
            for (int v = 0; v < TWO_N_VARIANTS && status == EXIT_OK; v++) {
                if (!live[v]) continue;
                if (n > cap[s][v]) {
                    printf("# note: %s (%d cities) from %s skipped on %s: above %s %" PRId64
                           "\n", wt_instance_name(inst), n, wt_init_method_name(start_method[s]),
                           bench_two_names[v], s == KS_START_RANDOM ? "--max-n-random"
                                                                    : "--max-n", cap[s][v]);
                    continue;
                }
                double init_s;
                if (!start && !(start = bench_start_tour(inst, start_method[s], o, &init_s,
                                                         &status)))
                    break;
                ks_row *row = &rows[count];
                *row = (ks_row){.n = n, .variant = v, .start = s};
                snprintf(row->name, sizeof row->name, "%s", wt_instance_name(inst));
                status = ks_measure_row(inst, start, o, live, row);
                if (live[v]) count++;
            }
            free(start);
        }
        wt_instance_free(inst);
    }
    if (count > 0)
        for (int what = 0; what < 3; what++) ks_print_table(o, rows, count, what);
    free(rows);
    return status;
}
