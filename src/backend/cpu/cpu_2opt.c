/*
 * cpu_2opt.c - best-improvement 2-opt on the CPU, the reference climb.
 *
 * Exact integer distances, as the instance's own distance function gives
 * them, every pair evaluated, the strict "<" of Listing 1 so the first
 * (lowest i, then lowest j) of equal gains wins.  The only liberties are
 * the ones that cannot change the answer: the tour's own edge lengths are
 * computed once per scan; planar coordinates are copied into tour order
 * (the same differences, so the same distances), and EUC_2D columns are
 * computed in blocks by vectorized double loops that are exact below 2^50;
 * rows are shared among OpenMP threads whose winners are merged by the same
 * (delta, i, j) order; and a pruned scan (wt_2opt_scan.prune) skips the
 * pairs that the segment bound proves cannot improve (core/segment_bound.h):
 * every improving move is still evaluated, in the same order within its row.
 */
#include "backend/cpu/cpu_2opt.h"

#include <math.h>
#include <omp.h>
#include <stdlib.h>

#include "backend/cpu/cpu_round.h"
#include "core/error.h"
#include "core/segment_bound.h"
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

/* What every row of one scan reads: the tour, its edge lengths and, for
 * the planar metrics, its cities' coordinates in tour order (px[k] =
 * x[t[k]] for k < n, px[n] = px[0]).  A row then streams through memory
 * instead of fetching each city's coordinates at random, which costs a
 * large tour's descent a noticeable share of its time; the differences and
 * so the distances are wt_dist's, bit for bit. */
typedef struct scan_view {
    const wt_instance *inst;
    const int32_t *t;
    int64_t *edge;    /* edge[k] = d(t[k], t[k+1]) */
    double *px, *py;  /* NULL for the other metrics */
    double *edge_d;   /* EUC_2D with exact doubles (cpu_round.h): edge as
                         doubles, for the vectorized columns; else NULL */
} scan_view;

static void scan_view_close(scan_view *v)
{
    free(v->edge);
    free(v->px);
    free(v->py);
    free(v->edge_d);
}

/* Fills v for tour t; false when out of memory. */
static bool scan_view_open(scan_view *v, const wt_instance *inst, const int32_t *t,
                           int threads)
{
    int n = inst->n;
    bool planar = wt_is_planar(inst->type) && inst->x && inst->y;
    bool vec = planar && inst->type == WT_EUC_2D && cpu_coords_small(inst);
    *v = (scan_view){inst, t, malloc((size_t)n * sizeof *v->edge), NULL, NULL, NULL};
    if (planar) {
        v->px = malloc((size_t)(n + 1) * sizeof *v->px);
        v->py = malloc((size_t)(n + 1) * sizeof *v->py);
    }
    if (vec) v->edge_d = malloc((size_t)n * sizeof *v->edge_d);
    if (!v->edge || (planar && (!v->px || !v->py)) || (vec && !v->edge_d)) {
        scan_view_close(v);
        return false;
    }
#pragma omp parallel for num_threads(threads) schedule(static) if (n > 100000)
    for (int k = 0; k < n; k++) {
        v->edge[k] = wt_dist(inst, t[k], t[k + 1 == n ? 0 : k + 1]);
        if (planar) v->px[k] = inst->x[t[k]], v->py[k] = inst->y[t[k]];
        if (vec) v->edge_d[k] = (double)v->edge[k];
    }
    if (planar) v->px[n] = v->px[0], v->py[n] = v->py[0];
    return true;
}

#if defined(__GNUC__)
#define ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define ALWAYS_INLINE inline
#endif

/* scan_cols for a planar metric; type is a constant at each call, so the
 * distance's switch folds away. */
static ALWAYS_INLINE void scan_cols_planar(const scan_view *v, wt_edge_weight_type type, int i,
                                           int j0, int j1, wt_2opt_move *best)
{
    const double *px = v->px, *py = v->py;
    const int64_t *edge = v->edge;
    double ax = px[i], ay = py[i], bx = px[i + 1], by = py[i + 1];
    int64_t dab = edge[i];
    for (int j = j0; j <= j1; j++) {
        int64_t delta = wt_dist_planar(type, ax - px[j], ay - py[j]) +
                        wt_dist_planar(type, bx - px[j + 1], by - py[j + 1]) - dab - edge[j];
        if (delta < best->delta) {
            best->delta = delta;
            best->i = i;
            best->j = j;
        }
    }
}

/* Columns at a time of the vectorized EUC_2D scan: its rows of distances
 * live on the stack. */
#define VEC_COLS 256

/* scan_cols for EUC_2D in loops gcc vectorizes: the two roots of each
 * column, then the roundings and the move's sum in doubles (exact: see
 * cpu_round.h), then the least sum; the scalar loop spends most of its time
 * in the two roots, one at a time. */
static void scan_cols_euc_2d(const scan_view *v, int i, int j0, int j1, wt_2opt_move *best)
{
    const double *restrict px = v->px, *restrict py = v->py, *restrict e = v->edge_d;
    double ax = px[i], ay = py[i], bx = px[i + 1], by = py[i + 1], dab = e[i];
    double sum[VEC_COLS], root[VEC_COLS];
    for (int j = j0; j <= j1; j += VEC_COLS) {
        int m = j1 - j + 1 < VEC_COLS ? j1 - j + 1 : VEC_COLS;
        const double *restrict cx = px + j, *restrict cy = py + j, *restrict ej = e + j;
        for (int k = 0; k < m; k++) {
            double dx = ax - cx[k], dy = ay - cy[k];
            sum[k] = sqrt(dx * dx + dy * dy);
        }
        for (int k = 0; k < m; k++) {
            double dx = bx - cx[k + 1], dy = by - cy[k + 1];
            root[k] = sqrt(dx * dx + dy * dy);
        }
        double least = INFINITY;
#pragma omp simd reduction(min : least)
        for (int k = 0; k < m; k++) {
            sum[k] = cpu_nint(sum[k]) + cpu_nint(root[k]) - dab - ej[k];
            least = sum[k] < least ? sum[k] : least;
        }
        if (least < (double)best->delta) { /* the first column of the least sum */
            int k = 0;
            while (sum[k] != least) k++;
            *best = (wt_2opt_move){(int64_t)least, i, j + k};
        }
    }
}

/* Best move of row i over columns j0..j1; best holds the best so far
 * (strict "<": the lowest j of a delta wins). */
static void scan_cols(const scan_view *v, int i, int j0, int j1, wt_2opt_move *best)
{
    if (v->edge_d) {
        scan_cols_euc_2d(v, i, j0, j1, best);
        return;
    }
    if (v->px) {
        switch (v->inst->type) {
        case WT_EUC_2D: scan_cols_planar(v, WT_EUC_2D, i, j0, j1, best); return;
        case WT_CEIL_2D: scan_cols_planar(v, WT_CEIL_2D, i, j0, j1, best); return;
        case WT_ATT: scan_cols_planar(v, WT_ATT, i, j0, j1, best); return;
        case WT_MAN_2D: scan_cols_planar(v, WT_MAN_2D, i, j0, j1, best); return;
        case WT_MAX_2D: scan_cols_planar(v, WT_MAX_2D, i, j0, j1, best); return;
        default: break;
        }
    }
    const wt_instance *inst = v->inst;
    const int32_t *t = v->t;
    int n = inst->n;
    int a = t[i], b = t[i + 1];
    int64_t dab = v->edge[i];
    for (int j = j0; j <= j1; j++) {
        int c = t[j], d = t[j + 1 == n ? 0 : j + 1];
        int64_t delta = wt_dist(inst, a, c) + wt_dist(inst, b, d) - dab - v->edge[j];
        if (delta < best->delta) {
            best->delta = delta;
            best->i = i;
            best->j = j;
        }
    }
}

/* Best move of row i (all j) into *best and, when band_best is not NULL,
 * the best with j <= i + band into *band_best: the band's columns come
 * first, so the row's best starts from the band's.  Moves with delta >= 0
 * leave i = j = -1. */
static void scan_row(const scan_view *v, int i, int band, wt_2opt_move *best,
                     wt_2opt_move *band_best)
{
    int n = v->inst->n;
    *best = (wt_2opt_move){0, -1, -1};
    int split = band_best && (int64_t)i + band < n - 1 ? i + band : n - 1;
    scan_cols(v, i, i + 2, split, best);
    if (band_best) *band_best = *best;
    scan_cols(v, i, split + 1, n - 1, best);
}

/* Pairs a thread checks between two looks at ctl: a few milliseconds of
 * scanning, so that a time limit or Ctrl-C ends a scan within that much
 * whatever the size of a row or row group (a million-city row group of a
 * random tour checks 32 million pairs), and a look (the clock, a flag)
 * costs nothing next to the work between two. */
#define POLL_PAIRS (1u << 20)

/* Whether the scan should stop: polls ctl once a thread has checked
 * POLL_PAIRS pairs since its last poll (*since, which the caller adds the
 * pairs of each row or group to) and raises *stopped for all.  The solving
 * thread (the master of an outermost team: a scan inside another parallel
 * region, such as a multistart climb, is not on it) also reports progress
 * then, with `done`, the share of the scan behind it: at millions of
 * cities one scan lasts long enough to want it. */
static bool scan_stopping(wt_search_ctl *ctl, uint64_t *since, double done, bool *stopped)
{
    bool already;
#pragma omp atomic read
    already = *stopped;
    if (already) return true;
    if (!ctl || *since < POLL_PAIRS) return false;
    *since = 0;
    if (omp_get_level() == 1 && omp_get_thread_num() == 0) wt_ctl_tick(ctl, done);
    if (wt_ctl_expired(ctl)) {
#pragma omp atomic write
        *stopped = true;
        return true;
    }
    return false;
}

/* The share of a triangular scan's pairs in the rows before row i. */
static double rows_done(int i, int n)
{
    double left = (double)(n - i) / n;
    return 1.0 - left * left;
}

/* Fills row[i] with the best improving move of row i (i = -1 when none)
 * and, when band_row is not NULL, band_row[i] with the best improving move
 * with j <= i + band; rows shared among OpenMP threads.  Returns 1, 0 if
 * ctl expired during the scan, -1 when out of memory. */
static int scan_rows(const wt_instance *inst, const int32_t *t, int threads, wt_search_ctl *ctl,
                     int band, wt_2opt_move *row, wt_2opt_move *band_row)
{
    int n = inst->n;
    scan_view v;
    if (!scan_view_open(&v, inst, t, threads)) return -1;
    bool stopped = false;
#pragma omp parallel num_threads(threads)
    {
        uint64_t since = 0; /* pairs this thread checked since it last polled */
#pragma omp for schedule(dynamic, 8)
        for (int i = 0; i < n - 2; i++) {
            if (scan_stopping(ctl, &since, rows_done(i, n), &stopped)) continue;
            scan_row(&v, i, band, &row[i], band_row ? &band_row[i] : NULL);
            since += (uint64_t)(n - i);
        }
    }
    scan_view_close(&v);
    return stopped ? 0 : 1;
}

/* Positions per segment of the pruned scan: a row group and a column tile
 * (core/segment_bound.h).  Short enough that a segment's box is small on a
 * good tour, long enough that a bound test is rare next to the 32 x 32
 * pairs it decides. */
#define SEGMENT_LEN 32

/* A run of columns [from, to] that a row group checks. */
typedef struct column_run {
    int from, to;
} column_run;

/* The columns that rows of segment g must check: the segments from g on
 * that may hold an improving move with it, merged into runs.  partner:
 * room for every segment. */
static int group_runs(const wt_instance *inst, const wt_segment_index *ix, int g, int *partner,
                      column_run *runs)
{
    int n = inst->n, count = 0;
    int partners = wt_segment_index_partners(ix, g, partner);
    for (int k = 0; k < partners; k++) {
        int s = partner[k];
        int from = s * SEGMENT_LEN, to = (from + SEGMENT_LEN < n ? from + SEGMENT_LEN : n) - 1;
        if (count > 0 && runs[count - 1].to == from - 1) runs[count - 1].to = to;
        else runs[count++] = (column_run){from, to};
    }
    return count;
}

/* scan_row over the columns of runs only (the others hold no improving
 * move, so the bests are scan_row's); returns the pairs checked. */
static uint64_t scan_row_runs(const scan_view *v, int i, int band, const column_run *runs,
                              int count, wt_2opt_move *best, wt_2opt_move *band_best)
{
    int n = v->inst->n;
    uint64_t checked = 0;
    *best = (wt_2opt_move){0, -1, -1};
    int split = band_best && (int64_t)i + band < n - 1 ? i + band : n - 1;
    for (int part = 0; part < 2; part++) { /* the band's columns, then the rest */
        int lo = part == 0 ? i + 2 : split + 1, hi = part == 0 ? split : n - 1;
        for (int r = 0; r < count; r++) {
            int from = runs[r].from > lo ? runs[r].from : lo;
            int to = runs[r].to < hi ? runs[r].to : hi;
            if (from > to) continue;
            scan_cols(v, i, from, to, best);
            checked += (uint64_t)(to - from + 1);
        }
        if (part == 0 && band_best) *band_best = *best;
    }
    return checked;
}

/* The row groups of scan_rows_pruned, shared among threads; returns the
 * pairs evaluated. */
static uint64_t scan_groups(const scan_view *v, const wt_segment_index *ix, int threads,
                            wt_search_ctl *ctl, int band, wt_2opt_move *row,
                            wt_2opt_move *band_row, bool *stopped, bool *failed)
{
    const wt_instance *inst = v->inst;
    int n = inst->n, segs = (n + SEGMENT_LEN - 1) / SEGMENT_LEN;
    uint64_t total = 0;
#pragma omp parallel num_threads(threads) reduction(+ : total)
    {
        column_run *runs = malloc((size_t)segs * sizeof *runs);
        int *partner = malloc((size_t)segs * sizeof *partner);
        uint64_t since = 0; /* pairs (and bound tests) since this thread last polled */
        if (!runs || !partner) {
#pragma omp atomic write
            *failed = true;
        }
#pragma omp for schedule(dynamic, 1)
        for (int g = 0; g < segs; g++) {
            if (!runs || !partner || scan_stopping(ctl, &since, (double)g / segs, stopped))
                continue;
            int count = group_runs(inst, ix, g, partner, runs);
            int end = g * SEGMENT_LEN + SEGMENT_LEN < n - 2 ? g * SEGMENT_LEN + SEGMENT_LEN : n - 2;
            since += SEGMENT_LEN * SEGMENT_LEN; /* the group's own costs */
            for (int i = g * SEGMENT_LEN; i < end; i++) {
                /* A group of a random tour checks 32 rows of n pairs: it
                 * polls between its rows too (a stopped scan's rows are
                 * thrown away, finished or not). */
                if (scan_stopping(ctl, &since, (double)g / segs, stopped)) break;
                uint64_t pairs = scan_row_runs(v, i, band, runs, count, &row[i],
                                               band_row ? &band_row[i] : NULL);
                total += pairs;
                since += pairs;
            }
        }
        free(runs);
        free(partner);
    }
    return total;
}

/* scan_rows skipping the pairs of segments that core/segment_bound.h
 * proves hold no improving move: the same row and band bests, in row
 * groups of SEGMENT_LEN rows; *checked gets the pairs evaluated. */
static int scan_rows_pruned(const wt_instance *inst, const int32_t *t, int threads,
                            wt_search_ctl *ctl, int band, wt_2opt_move *row,
                            wt_2opt_move *band_row, uint64_t *checked)
{
    int segs = (inst->n + SEGMENT_LEN - 1) / SEGMENT_LEN;
    scan_view v;
    bool viewed = scan_view_open(&v, inst, t, threads);
    wt_segment_box *box = malloc((size_t)segs * sizeof *box);
    wt_segment_index *ix = NULL;
    if (viewed && box) {
        wt_segment_boxes(inst, t, SEGMENT_LEN, box);
        ix = wt_segment_index_build(inst, box, segs);
    }
    bool stopped = false, failed = !ix;
    if (!failed)
        *checked = scan_groups(&v, ix, threads, ctl, band, row, band_row, &stopped, &failed);
    wt_segment_index_free(ix);
    if (viewed) scan_view_close(&v);
    free(box);
    return failed ? -1 : stopped ? 0 : 1;
}

bool wt_2opt_best_move(const wt_instance *inst, const int32_t *t, int threads,
                       wt_search_ctl *ctl, wt_2opt_move *best)
{
    int n = inst->n;
    wt_2opt_move result = {0, -1, -1};
    wt_2opt_move *row = malloc((size_t)n * sizeof *row);
    int scanned = row ? scan_rows(inst, t, threads, ctl, 0, row, NULL) : -1;
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

int wt_2opt_scan_candidates(const wt_instance *inst, const int32_t *t, wt_2opt_scan *scan,
                            wt_kswap_move *out)
{
    int n = inst->n, band = scan->band;
    bool banded = band > 0, pruned = scan->prune && wt_segment_bound_supported(inst);
    wt_2opt_move *row = malloc((size_t)n * (banded ? 2 : 1) * sizeof *row);
    wt_2opt_move *band_row = row && banded ? row + n : NULL;
    int scanned = -1;
    scan->checked = wt_2opt_moves_per_scan(n);
    if (row && pruned)
        scanned = scan_rows_pruned(inst, t, scan->threads, scan->ctl, band, row, band_row,
                                   &scan->checked);
    else if (row)
        scanned = scan_rows(inst, t, scan->threads, scan->ctl, band, row, band_row);
    int count = 0;
    for (int i = 0; scanned > 0 && i < n - 2; i++)
        if (row[i].i >= 0) out[count++] = (wt_kswap_move){row[i].delta, row[i].i, row[i].j};
    for (int i = 0; scanned > 0 && banded && i < n - 2; i++)
        if (band_row[i].i >= 0 && band_row[i].j != row[i].j)
            out[count++] = (wt_kswap_move){band_row[i].delta, band_row[i].i, band_row[i].j};
    free(row);
    return scanned < 0 ? -2 : scanned == 0 ? -1 : count;
}

int wt_2opt_candidates(const wt_instance *inst, const int32_t *t, int threads,
                       wt_search_ctl *ctl, int band, wt_kswap_move *out)
{
    wt_2opt_scan scan = {.threads = threads, .ctl = ctl, .band = band, .prune = false};
    return wt_2opt_scan_candidates(inst, t, &scan, out);
}

int wt_2opt_row_bests(const wt_instance *inst, const int32_t *t, int threads,
                      wt_search_ctl *ctl, wt_kswap_move *out)
{
    return wt_2opt_candidates(inst, t, threads, ctl, 0, out);
}

void wt_2opt_apply(int32_t *tour, int i, int j)
{
    wt_tour_reverse_segment(tour, i + 1, j);
}
