/*
 * cpu_2opt.h - the CPU reference 2-opt: the yardstick for every GPU kernel.
 *
 * Positions i < j of a tour name the move that removes edges (t[i], t[i+1])
 * and (t[j], t[j+1]) (indices mod n) and reconnects the tour by reversing
 * t[i+1..j].  The pair space is O'Neil & Burtscher's Listing 1:
 * 0 <= i < n-2, i+2 <= j < n, which is (n-1)(n-2)/2 moves.
 */
#ifndef WT_BACKEND_CPU_2OPT_H
#define WT_BACKEND_CPU_2OPT_H

#include <stdint.h>

#include "core/instance.h"
#include "core/kswap.h"
#include "core/search_ctl.h"
#include "core/tour_ops.h"

typedef struct wt_2opt_move {
    int64_t delta; /* change of tour length; < 0 improves */
    int i, j;      /* positions, i < j; -1 when there is no move */
} wt_2opt_move;


/* Exact length change of the move (i, j) on tour. */
int64_t wt_2opt_move_delta(const wt_instance *inst, const int32_t *tour, int i, int j);

/* Best move of the whole pair space: the most negative delta, ties to the
 * lowest (i, j); delta 0 and i = j = -1 when nothing improves.  Uses
 * `threads` OpenMP threads; returns false (move undefined) if ctl expired
 * during the scan.  ctl may be NULL. */
bool wt_2opt_best_move(const wt_instance *inst, const int32_t *tour, int threads,
                       wt_search_ctl *ctl, wt_2opt_move *best);

/* The best improving move of each row i (lowest j among equals), for the
 * rows that have one, into out[] (room for n entries); returns how many,
 * -1 if ctl expired during the scan, -2 when out of memory. */
int wt_2opt_row_bests(const wt_instance *inst, const int32_t *tour, int threads,
                      wt_search_ctl *ctl, wt_kswap_move *out);

/* The candidates of a k-swap pass: first the row bests, as
 * wt_2opt_row_bests gives them; then, when band > 0, for each row i in
 * increasing order, the best improving move with j in [i+2, i+band] (lowest
 * j among equals) when the row has one and it is not the row's best
 * already.  out needs room for n entries, 2n when band > 0.  Returns how
 * many, -1 if ctl expired during the scan, -2 when out of memory.  The band
 * costs nothing extra: its columns are the first ones each row scans. */
int wt_2opt_candidates(const wt_instance *inst, const int32_t *tour, int threads,
                       wt_search_ctl *ctl, int band, wt_kswap_move *out);

/* How wt_2opt_scan_candidates scans, and what it counted. */
typedef struct wt_2opt_scan {
    int threads;          /* OpenMP threads */
    wt_search_ctl *ctl;   /* may be NULL */
    int band;             /* as wt_2opt_candidates */
    bool prune;           /* skip the pairs of tour segments that cannot hold an
                             improving move (core/segment_bound.h); the same
                             candidates, fewer checks; ignored for metrics
                             without the bound */
    uint64_t checked;     /* out: pairs evaluated */
} wt_2opt_scan;

/* wt_2opt_candidates with the options of scan. */
int wt_2opt_scan_candidates(const wt_instance *inst, const int32_t *tour, wt_2opt_scan *scan,
                            wt_kswap_move *out);

/* Applies move (i, j): reverses tour[i+1..j]. */
void wt_2opt_apply(int32_t *tour, int i, int j);

#endif
