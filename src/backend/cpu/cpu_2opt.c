/*
 * cpu_2opt.c - best-improvement 2-opt on the CPU, the reference climb.
 *
 * Kept deliberately plain: exact integer distances from the instance's own
 * distance function, every pair evaluated, the strict "<" of Listing 1 so
 * the first (lowest i, then lowest j) of equal gains wins.  The only
 * liberties are the ones that cannot change the answer: the tour's own edge
 * lengths are computed once per scan, and rows are shared among OpenMP
 * threads whose winners are merged by the same (delta, i, j) order.
 */
#include "backend/cpu/cpu_2opt.h"

#include <stdlib.h>

#include "core/error.h"
#include "core/tour_ops.h"

int64_t wt_2opt_move_delta(const wt_instance *inst, const int32_t *t, int i, int j)
{
    int n = inst->n;
    int a = t[i], b = t[i + 1], c = t[j], d = t[(j + 1) % n];
    return wt_dist(inst, a, c) + wt_dist(inst, b, d) - wt_dist(inst, a, b) - wt_dist(inst, c, d);
}

/* (delta, i, j) order: the lexicographically smaller move wins. */
static bool move_better(const wt_2opt_move *x, const wt_2opt_move *y)
{
    if (x->delta != y->delta) return x->delta < y->delta;
    if (x->i != y->i) return x->i < y->i;
    return x->j < y->j;
}

/* Best move of row i (all j), given the tour's edge lengths. */
static void scan_row(const wt_instance *inst, const int32_t *t, const int64_t *edge, int i,
                     wt_2opt_move *best)
{
    int n = inst->n;
    int a = t[i], b = t[i + 1];
    int64_t dab = edge[i];
    for (int j = i + 2; j < n; j++) {
        int c = t[j], d = t[j + 1 == n ? 0 : j + 1];
        int64_t delta = wt_dist(inst, a, c) + wt_dist(inst, b, d) - dab - edge[j];
        if (delta < best->delta) {
            best->delta = delta;
            best->i = i;
            best->j = j;
        }
    }
}

/* Fills row[i] with the best improving move of row i (i = -1 when none),
 * rows shared among OpenMP threads.  Returns 1, 0 if ctl expired during the
 * scan, -1 when out of memory. */
static int scan_rows(const wt_instance *inst, const int32_t *t, int threads, wt_search_ctl *ctl,
                     wt_2opt_move *row)
{
    int n = inst->n;
    int64_t *edge = malloc((size_t)n * sizeof *edge);
    if (!edge) return -1;
    for (int i = 0; i < n; i++) edge[i] = wt_dist(inst, t[i], t[i + 1 == n ? 0 : i + 1]);
    bool stopped = false;
#pragma omp parallel for num_threads(threads) schedule(dynamic, 8)
    for (int i = 0; i < n - 2; i++) {
        bool already;
#pragma omp atomic read
        already = stopped;
        if (already) continue;
        if (ctl && (i & 63) == 0 && wt_ctl_expired(ctl)) {
#pragma omp atomic write
            stopped = true;
        }
        row[i] = (wt_2opt_move){0, -1, -1};
        scan_row(inst, t, edge, i, &row[i]);
    }
    free(edge);
    return stopped ? 0 : 1;
}

bool wt_2opt_best_move(const wt_instance *inst, const int32_t *t, int threads,
                       wt_search_ctl *ctl, wt_2opt_move *best)
{
    int n = inst->n;
    wt_2opt_move result = {0, -1, -1};
    wt_2opt_move *row = malloc((size_t)n * sizeof *row);
    int scanned = row ? scan_rows(inst, t, threads, ctl, row) : -1;
    if (scanned < 0) { /* out of memory: evaluate every move on the fly, serially */
        for (int i = 0; i < n - 2; i++)
            for (int j = i + 2; j < n; j++) {
                wt_2opt_move m = {wt_2opt_move_delta(inst, t, i, j), i, j};
                if (m.delta < result.delta) result = m;
            }
    }
    /* Each row's best already has the lowest j of its delta; in row order a
     * strictly better delta is needed to win, so ties go to the lowest i. */
    for (int i = 0; scanned > 0 && i < n - 2; i++)
        if (row[i].i >= 0 && move_better(&row[i], &result)) result = row[i];
    free(row);
    *best = result;
    return scanned != 0;
}

int wt_2opt_row_bests(const wt_instance *inst, const int32_t *t, int threads,
                      wt_search_ctl *ctl, wt_kswap_move *out)
{
    int n = inst->n;
    wt_2opt_move *row = malloc((size_t)n * sizeof *row);
    int scanned = row ? scan_rows(inst, t, threads, ctl, row) : -1;
    int count = 0;
    for (int i = 0; scanned > 0 && i < n - 2; i++)
        if (row[i].i >= 0) out[count++] = (wt_kswap_move){row[i].delta, row[i].i, row[i].j};
    free(row);
    return scanned < 0 ? -2 : scanned == 0 ? -1 : count;
}

void wt_2opt_apply(int32_t *tour, int i, int j)
{
    wt_tour_reverse_segment(tour, i + 1, j);
}
