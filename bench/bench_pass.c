/*
 * bench_pass.c - `warptour-bench pass`: the time of one full 2-opt pass.
 *
 * Rocki & Suda (2013) report in Table II the GPU time of "full 2-opt": one
 * evaluation of all (n-1)(n-2)/2 pairs of a tour, and the checks per second
 * it makes.  Through the public API one pass is a 2opt run with --swaps 1
 * from a given start tour whose progress callback, called before every
 * scan (progress_interval_s = 0), asks to stop as soon as one improving
 * move was applied: the run then made exactly one scan, which the result's
 * passes confirms.  Should a backend report progress less often, the run
 * makes more scans; times per pass are divided by the scans counted, and
 * the line says how many.
 *
 * By default the pass checks every pair, as the paper's does (--prune off);
 * with --prune on it skips the pairs of tour segments that the segment
 * bound rules out (core/segment_bound.h), and the line says how many pairs
 * it checked (checked=, share=).  checks_per_s always divides the whole
 * pair space by the time: with --prune on it is the rate at which the pass
 * covers the pair space, not a count of distances computed.
 *
 * The main figure is scan_time_s, the time spent evaluating moves (on a GPU
 * the pass kernel's time from CUDA events, as Table II's "kernel time"; on
 * the CPU the wall time of the scan).  search_time_s, which adds what
 * surrounds the scan (copying the tour in, the one reversal applied, on a
 * GPU the uploads, candidate compaction and transfers), is shown beside it
 * as "with copies": at mid-size n it is mostly that overhead.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "bench.h"

#define PASS_CPU_MAX_N 20000  /* default --max-n of the cpu: one pass at 1M is 5e11 checks */
#define PASS_REPEAT_ALONE 1.0 /* a pass this long (s) is not repeated */

typedef struct pass_cell {
    bool done;
    double seconds;  /* scan (kernel) time per pass, best of the runs */
    double copies;   /* search_time_s per pass of that run ("with copies") */
    uint64_t scans;  /* scans of the best run */
    uint64_t checked; /* pairs evaluated per scan in the best run */
} pass_cell;

typedef struct pass_row {
    char name[64];
    int n;
    pass_cell cell[TWO_N_VARIANTS];
} pass_row;

/* Stops the 2-opt run once a move was applied, that is after its first scan. */
static int stop_after_first_scan(const wt_progress *p, void *user)
{
    (void)user;
    return p->steps >= 1;
}

/* One cell: best of --repeat single-pass runs; prints its line.  Returns
 * WT_OK, WT_STATUS_NO_DEVICE (cuda skipped, noted) or a failure. */
static wt_status pass_measure(const wt_instance *inst, const int32_t *start, int v,
                              const bench_opts *o, bool live[], pass_cell *cell, wt_error *err)
{
    int n = wt_instance_n(inst);
    uint64_t per_scan = bench_checks_per_pass(n);
    char backend[16] = "";
    for (int r = 0; r < o->repeat; r++) {
        wt_result res;
        wt_status st = bench_2opt(inst, start, 1, v, o, stop_after_first_scan, live, &res, err);
        if (st != WT_OK) return st;
        uint64_t scans = res.scan.passes, checked = scans ? res.moves_evaluated / scans : 0;
        double t = scans ? res.scan.time_s / (double)scans : -1;
        double tc = scans ? res.search_time_s / (double)scans : -1;
        snprintf(backend, sizeof backend, "%s", res.backend);
        wt_result_free(&res);
        if (scans == 0) {
            printf("# note: %s on %s: a run ended before one full scan\n", wt_instance_name(inst),
                   bench_two_names[v]);
            if (!cell->done) return WT_OK;
            break;
        }
        if (!cell->done || t < cell->seconds) {
            cell->seconds = t;
            cell->copies = tc;
            cell->scans = scans;
            cell->checked = checked;
        }
        cell->done = true;
        if (tc > PASS_REPEAT_ALONE) break;
    }
    printf("bench=pass instance=%s n=%d variant=%s backend=%s init=%s scans=%" PRIu64
           " checks=%" PRIu64 " seconds=%.6g checks_per_s=%.4e with_copies_seconds=%.6g"
           " with_copies_checks_per_s=%.4e prune=%s checked=%" PRIu64 " share=%.4g\n",
           wt_instance_name(inst), n, bench_two_names[v], backend, wt_init_method_name(o->init),
           cell->scans, per_scan, cell->seconds, (double)per_scan / cell->seconds, cell->copies,
           (double)per_scan / cell->copies, o->prune ? "on" : "off", cell->checked,
           per_scan ? (double)cell->checked / (double)per_scan : 0.0);
    if (cell->scans != 1)
        printf("# note: %s on %s: the run made %" PRIu64 " scans; seconds is per scan\n",
               wt_instance_name(inst), bench_two_names[v], cell->scans);
    fflush(stdout);
    return WT_OK;
}

/* "12.345" G checks/s, or "-". */
static const char *fmt_rate(bool have, int n, double seconds, char *buf, size_t size)
{
    double rate = have && seconds > 0 ? (double)bench_checks_per_pass(n) / seconds / 1e9 : NAN;
    return bench_fmt_num("%.3f", rate, buf, size);
}

static void pass_print_table(const bench_opts *o, const pass_row *rows, int count)
{
    printf("\n# one full 2-opt pass ((n-1)(n-2)/2 checks) from the %s tour, best of %d: "
           "scan time (cuda: kernel) and checks/s from it; +copies: the whole search per pass; "
           "GTX 680: Rocki & Suda 2013, Table II (kernel time; checks/s derived from it)\n",
           wt_init_method_name(o->init), (int)o->repeat);
    if (o->prune)
        printf("# --prune on: pairs ruled out by the segment bound are skipped; checks/s is "
               "the pair space over the time (see the checked= share of each line)\n");
    printf("%-20s | %8s | %10s | %9s | %10s | %10s | %10s | %10s | %10s | %9s\n", "instance",
           "n", "cpu pass", "cpu Gck/s", "+copies", "cuda pass", "cuda Gck/s", "+copies",
           "GTX 680", "680 Gck/s");
    printf("---------------------+----------+------------+-----------+------------"
           "+------------+------------+------------+------------+----------\n");
    for (int i = 0; i < count; i++) {
        const pass_row *r = &rows[i];
        const pass_cell *cpu = &r->cell[TWO_CPU], *cuda = &r->cell[TWO_CUDA];
        const bench_paper_2opt *paper = bench_rocki_suda(r->name);
        char a[32], b[32], a2[32], c[32], d[32], c2[32], e[32], f[32];
        printf("%-20s | %8d | %10s | %9s | %10s | %10s | %10s | %10s | %10s | %9s\n", r->name,
               r->n, bench_fmt_duration(cpu->done ? cpu->seconds : -1, a, sizeof a),
               fmt_rate(cpu->done, r->n, cpu->seconds, b, sizeof b),
               bench_fmt_duration(cpu->done ? cpu->copies : -1, a2, sizeof a2),
               bench_fmt_duration(cuda->done ? cuda->seconds : -1, c, sizeof c),
               fmt_rate(cuda->done, r->n, cuda->seconds, d, sizeof d),
               bench_fmt_duration(cuda->done ? cuda->copies : -1, c2, sizeof c2),
               bench_fmt_duration(paper ? paper->pass_s : -1, e, sizeof e),
               fmt_rate(paper != NULL, r->n, paper ? paper->pass_s : 0, f, sizeof f));
    }
}

int bench_pass(const bench_opts *given)
{
    bench_opts opts = *given;
    const bench_opts *o = &opts;
    if (opts.prune < 0) opts.prune = 0; /* the paper's pass: every pair */
    bool live[TWO_N_VARIANTS];
    int64_t cap[TWO_N_VARIANTS];
    bench_two_begin(o, PASS_CPU_MAX_N, WT_MAX_CITIES, cap, live);
    pass_row rows[BENCH_MAX_LIST];
    int count = 0, status = EXIT_OK;
    for (int i = 0; i < o->n_instances && status == EXIT_OK; i++) {
        int64_t max_n = 0;
        for (int v = 0; v < TWO_N_VARIANTS; v++)
            if (live[v] && cap[v] > max_n) max_n = cap[v];
        if (max_n == 0) break; /* no variant left to run */
        wt_instance *inst = bench_load_instance(o, o->instances[i], max_n, &status);
        if (!inst) continue;
        int n = wt_instance_n(inst);
        double init_s;
        int32_t *start = bench_start_tour(inst, o->init, o, &init_s, &status);
        pass_row *row = &rows[count++];
        *row = (pass_row){.n = n};
        snprintf(row->name, sizeof row->name, "%s", wt_instance_name(inst));
        for (int v = 0; start && v < TWO_N_VARIANTS; v++) {
            if (!live[v]) continue;
            if (n > cap[v]) {
                printf("# note: %s (%d cities) skipped on %s: above --max-n %" PRId64 "\n",
                       row->name, n, bench_two_names[v], cap[v]);
                continue;
            }
            wt_error err = {0};
            wt_status st = pass_measure(inst, start, v, o, live, &row->cell[v], &err);
            if (st != WT_OK && st != WT_STATUS_NO_DEVICE) {
                printf("# %s on %s failed: %s\n", row->name, bench_two_names[v], err.message);
                status = cli_report_error(&err);
            }
        }
        fflush(stdout);
        free(start);
        wt_instance_free(inst);
    }
    if (count > 0) pass_print_table(o, rows, count);
    return status;
}
