/*
 * polish.h - the polish: a 2-opt and Or-opt descent of a finished tour to
 * a local optimum of both neighbourhoods (algo/polish.h applies it to SA's
 * tour with the defaults of algo/policy.h).
 *
 * The neighbourhoods, on a tour of n >= 3 cities:
 *  - 2-opt: remove two non-adjacent edges (a b) and (c d), reconnect as
 *    (a c) (b d), i.e. reverse the path b..c;
 *  - Or-opt: take out a segment of 1 to WT_LS_OR_MAX consecutive cities
 *    (at most n - 2), close the gap, and insert it, in either orientation,
 *    into an edge of the tour both of whose ends lie outside the segment.
 * Every delta is the exact integer change of the tour length (wt_dist), and
 * only strictly improving moves are applied, so the tour never gets longer
 * and the descent ends.
 *
 * Method (polish.c): first the engine's neighbour-list descent (the
 * `candidates` nearest cities of each, don't-look bits), which finds most
 * improving moves in about O(n K) work per round; then, for n <= full_max,
 * sweeps of the full neighbourhoods (O(n^2) distances each) alternate
 * until one 2-opt sweep and the Or-opt sweep after it both find nothing:
 * the tour is then a local optimum of both neighbourhoods exactly.  Above
 * full_max cities only the neighbour-list descent runs: its result is
 * locally optimal only for the moves that join a city to one of its
 * candidates with a gain, which leaves some long-edge moves undone.
 *
 * Deterministic: the same tour and instance give the same result.  Uses no
 * global state; distinct tours may be polished from distinct threads.
 */
#ifndef WT_LS_POLISH_H
#define WT_LS_POLISH_H

#include <stdbool.h>
#include <stdint.h>

#include "core/search_ctl.h"
#include "warptour.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct wt_ls_polish_stats {
    uint64_t moves_2opt;   /* improving 2-opt moves applied */
    uint64_t moves_oropt;  /* improving Or-opt moves applied */
    bool full;             /* the full-neighbourhood sweeps ran (n <= full_max) */
    bool complete;         /* the descent ended at a local optimum, not stopped by ctl */
} wt_ls_polish_stats;

/* Improves tour (n = wt_instance_n(inst) cities, a valid tour) in place by
 * the descent above, on `candidates` (>= 1) nearest cities a city.  ctl
 * may be NULL; otherwise the descent polls wt_ctl_expired(ctl) (deadline,
 * stop flag) and, once it has expired, stops with the tour as it is:
 * valid, and never longer than at entry.  stats may be NULL.  Errors:
 * WT_STATUS_INVALID_ARGUMENT (NULL inst or tour, candidates < 1),
 * WT_STATUS_OUT_OF_MEMORY (the tour is then untouched). */
wt_status wt_ls_polish(const wt_instance *inst, int32_t *tour, int candidates, int full_max,
                       wt_search_ctl *ctl, wt_ls_polish_stats *stats, wt_error *err);

#ifdef __cplusplus
}
#endif
#endif
