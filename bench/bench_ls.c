/*
 * bench_ls.c - `warptour-bench ls`: from the greedy tour to the first 2-opt
 * local minimum.
 *
 * The last columns of Rocki & Suda's Table II (2013) give the time from the
 * Multiple Fragment (greedy) tour to the first 2-opt local minimum on a GTX
 * 680, applying one move per pass.  This benchmark builds the same start
 * tour once per instance (--init, default greedy; its time is reported
 * apart) and runs 2opt from it to the local minimum for each --swaps value:
 * 1 is their method (best improvement), all applies every independent
 * improving move per pass (k-swap).  The time is search_time_s of the run,
 * the start tour excluded; passes are the result's passes,
 * the last scan (which finds nothing) included.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

#define LS_CPU_MAX_N 5000   /* default --max-n of the cpu: swaps 1 takes ~n/10 passes */
/* Default --max-n of cuda: up to pla33810, where the paper's GTX 680 took
 * over a minute (bench/RESULTS.md, "2-opt to the first local minimum (bench ls)"). */
#define LS_CUDA_MAX_N 40000

typedef struct ls_cell {
    bool done;
    bool stopped; /* by --time-limit: seconds is a lower bound */
    double seconds;
    uint64_t passes;
    int64_t length;
} ls_cell;

typedef struct ls_row {
    char name[64];
    int n, variant;
    int64_t init_length, optimum;
    ls_cell cell[BENCH_MAX_LIST]; /* per --swaps value */
} ls_row;

static void fmt_swaps(int k, char *buf, size_t size)
{
    if (k == 0) snprintf(buf, size, "all");
    else snprintf(buf, size, "%d", k);
}

static void ls_print_table(const bench_opts *o, const ls_row *rows, int count)
{
    printf("\n# 2-opt from the %s tour to the first local minimum (time without the start "
           "tour, passes, gap to the optimum); GTX 680: Rocki & Suda 2013, Table II, one move "
           "per pass\n", wt_init_method_name(o->init));
    printf("%-20s | %8s | %4s | %7s", "instance", "n", "var", "start %");
    for (int s = 0; s < o->n_swaps; s++) {
        char k[16], head[32];
        fmt_swaps(o->swaps[s], k, sizeof k);
        snprintf(head, sizeof head, "swaps=%s", k);
        printf(" | %10s | %6s | %6s", head, "passes", "gap %");
    }
    printf(" | %10s\n", "GTX 680");
    printf("---------------------+----------+------+--------");
    for (int s = 0; s < o->n_swaps; s++) printf("+------------+--------+--------");
    printf("+-----------\n");
    for (int i = 0; i < count; i++) {
        const ls_row *r = &rows[i];
        char a[32], b[32];
        printf("%-20s | %8d | %4s | %7s", r->name, r->n, bench_two_names[r->variant],
               bench_fmt_num("%.2f", bench_gap(r->init_length, r->optimum), a, sizeof a));
        for (int s = 0; s < o->n_swaps; s++) {
            const ls_cell *c = &r->cell[s];
            char p[32];
            if (c->done) snprintf(p, sizeof p, "%" PRIu64, c->passes);
            else snprintf(p, sizeof p, "-");
            bench_fmt_duration(c->done ? c->seconds : -1, a, sizeof a);
            if (c->stopped) bench_mark_lower_bound(a, sizeof a);
            printf(" | %10s | %6s | %6s", a, p,
                   bench_fmt_num("%.2f", c->done ? bench_gap(c->length, r->optimum) : NAN, b,
                                 sizeof b));
        }
        const bench_paper_2opt *paper = bench_rocki_suda(r->name);
        printf(" | %10s\n", bench_fmt_duration(paper ? paper->first_min_s : -1, a, sizeof a));
    }
}

/* Runs every --swaps value of one (instance, variant) row. */
static int ls_measure_row(const wt_instance *inst, const int32_t *start, double init_s,
                          const bench_opts *o, bool live[], ls_row *row)
{
    int v = row->variant;
    for (int s = 0; s < o->n_swaps && live[v]; s++) {
        wt_result res;
        wt_error err = {0};
        wt_status st = bench_2opt(inst, start, o->swaps[s], v, o, NULL, live, &res, &err);
        if (st == WT_STATUS_NO_DEVICE && v == TWO_CUDA) return EXIT_OK;
        if (st != WT_OK) {
            printf("# %s on %s failed: %s\n", row->name, bench_two_names[v], err.message);
            return cli_report_error(&err);
        }
        ls_cell *c = &row->cell[s];
        *c = (ls_cell){true, res.stop == WT_STOP_TIME_LIMIT, res.search_time_s,
                       res.scan.passes, res.length};
        char k[16], og[32], ig[32], fg[32];
        fmt_swaps(o->swaps[s], k, sizeof k);
        if (row->optimum > 0) snprintf(og, sizeof og, "%" PRId64, row->optimum);
        else snprintf(og, sizeof og, "unknown");
        printf("bench=ls instance=%s n=%d variant=%s backend=%s init=%s swaps=%s init_length=%"
               PRId64 " length=%" PRId64 " optimum=%s init_gap_percent=%s gap_percent=%s steps=%"
               PRIu64 " passes=%" PRIu64 " seconds=%.6g init_seconds=%.6g stop=%s\n",
               row->name, row->n, bench_two_names[v], res.backend, wt_init_method_name(o->init),
               k, row->init_length, res.length, og,
               bench_fmt_gap(bench_gap(row->init_length, row->optimum), ig, sizeof ig),
               bench_fmt_gap(bench_gap(res.length, row->optimum), fg, sizeof fg),
               res.steps, c->passes, res.search_time_s, init_s, wt_stop_reason_name(res.stop));
        fflush(stdout);
        wt_result_free(&res);
    }
    return EXIT_OK;
}

int bench_ls(const bench_opts *o)
{
    bool live[TWO_N_VARIANTS];
    int64_t cap[TWO_N_VARIANTS];
    bench_two_begin(o, LS_CPU_MAX_N, LS_CUDA_MAX_N, cap, live);
    ls_row *rows = calloc(2 * BENCH_MAX_LIST, sizeof *rows);
    if (!rows) return EXIT_FAILURE_RUN;
    int count = 0, status = EXIT_OK;
    for (int i = 0; i < o->n_instances && status == EXIT_OK; i++) {
        int64_t max_n = 0;
        for (int v = 0; v < TWO_N_VARIANTS; v++)
            if (live[v] && cap[v] > max_n) max_n = cap[v];
        if (max_n == 0) break;
        wt_instance *inst = bench_load_instance(o, o->instances[i], max_n, &status);
        if (!inst) continue;
        int n = wt_instance_n(inst);
        double init_s = 0;
        int32_t *start = bench_start_tour(inst, o->init, o, &init_s, &status);
        for (int v = 0; start && v < TWO_N_VARIANTS && status == EXIT_OK; v++) {
            if (!live[v]) continue;
            if (n > cap[v]) {
                printf("# note: %s (%d cities) skipped on %s: above --max-n %" PRId64 "\n",
                       wt_instance_name(inst), n, bench_two_names[v], cap[v]);
                continue;
            }
            ls_row *row = &rows[count];
            *row = (ls_row){.n = n, .variant = v, .init_length = wt_tour_length(inst, start),
                            .optimum = wt_instance_known_optimum(inst)};
            snprintf(row->name, sizeof row->name, "%s", wt_instance_name(inst));
            status = ls_measure_row(inst, start, init_s, o, live, row);
            if (live[v]) count++;
        }
        free(start);
        wt_instance_free(inst);
    }
    if (count > 0) ls_print_table(o, rows, count);
    free(rows);
    return status;
}
