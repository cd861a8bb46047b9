/*
 * policy.h - the automatic choices and defaults of the solver, in one
 * table: which method runs at which size, and with what settings.  Each
 * constant says what it decides; the measurements behind the values are in
 * bench/RESULTS.md, not here.  The tuning fields of wt_params (warptour.h)
 * override some of them for measurements: a field that is 0 keeps the
 * value below.
 */
#ifndef WT_ALGO_POLICY_H
#define WT_ALGO_POLICY_H

#include <stdbool.h>

#include "ls/engine.h"

/* ======================================== local search and the ILS drivers
 * The local-search engine (src/ls) as SA's polish and ILS on the host use
 * it (algo/polish.c, algo/ils_local.c and the drivers ils_replicas.c,
 * ils_segments.c, ils_merged.c, ils_first.c).  A tuning field named in
 * brackets overrides the value.  The engine's own limits, which define its
 * moves (WT_LS_OR_MAX, LK's breadth cap and alternate-step chain, the
 * long-edge pass's rounds, the segment-restricted kick's window), stay in
 * src/ls.  The values were measured: bench/RESULTS.md. */

/* Candidate cities a city in the polish's and the 2-opt + Or-opt descents. */
#define WT_POLISH_NEIGHBOURS 10
/* Largest tour whose polish ends with full-neighbourhood sweeps (O(n^2) each). */
#define WT_POLISH_FULL_MAX 5000

/* Candidate cities a city of the LK descents, quadrant neighbours [lk_candidates]. */
#define WT_LK_CANDIDATES 8
/* Most flips (levels) of one LK step [lk_depth]. */
#define WT_LK_DEPTH 25
/* Alternatives an LK step tries at levels 1, 2, 3 [lk_breadth1..3]. */
#define WT_LK_BREADTH1 3
#define WT_LK_BREADTH2 2
#define WT_LK_BREADTH3 1
/* Tours from which the kicks' repairs take the deeper LK step below. */
#define WT_ILS_LK_DEEP_MIN 50000
/* The deeper LK step: candidates, depth, and breadth at levels 1, 2, 3. */
#define WT_ILS_LK_DEEP_CANDIDATES 12
#define WT_ILS_LK_DEEP_DEPTH 50
#define WT_ILS_LK_DEEP_BREADTH1 5
#define WT_ILS_LK_DEEP_BREADTH2 3
#define WT_ILS_LK_DEEP_BREADTH3 2
/* Steps of the random walks that place an LK search's kicks [lk_walk]. */
#define WT_ILS_LK_WALK_STEPS 25

/* Kicks of each search a round of replicas, the least of segments [ils_round_kicks]. */
#define WT_ILS_ROUND_KICKS 2000
/* Kicks of each search a round of merged replicas [ils_round_kicks]. */
#define WT_ILS_MERGED_ROUND_KICKS 250
/* Merged replicas stop kicking this many last rounds' tails before the deadline. */
#define WT_ILS_MERGED_TAIL_MARGIN 1.2

/* Cities a thread from which 2-opt + Or-opt searches kick segments [ils_segment_min]. */
#define WT_ILS_SEGMENT_MIN 6000
/* Cities a thread from which LK searches kick segments [ils_segment_min]. */
#define WT_ILS_LK_SEGMENT_MIN 500
/* Longest segment of an LK search, which then takes several in turn. */
#define WT_ILS_LK_SEGMENT_MAX 12000
/* Tours above which LK searches use no replicas of the array nor a first array descent. */
#define WT_ILS_LK_REPLICAS_MAX 20000
/* Cities a segment below which every few rounds of segments is one of replicas. */
#define WT_ILS_REPLICA_EVERY_BELOW 30000
/* Every this many rounds of segments, one of replicas, there [ils_replica_every]. */
#define WT_ILS_REPLICA_EVERY 4
/* Tours from which LK searches kick merged replicas [ils_merged_min]. */
#define WT_ILS_MERGED_MIN 2000

/* Cities a thread from which the first descent starts on segments. */
#define WT_ILS_SEGMENT_DESCENT_MIN 5000
/* Longest edges the first descent revisits over all pairs (wt_ls_long_edges). */
#define WT_ILS_LONG_EDGES 50
/* Passes of the first descent over the longest edges. */
#define WT_ILS_LONG_EDGE_PASSES 3
/* Largest tour whose first list descent tries other start tours [ils_starts]. */
#define WT_ILS_STARTS_MAX_CITIES 250000
/* Percentage of cities with two equidistant nearest from which other starts run. */
#define WT_ILS_TIED_SHARE 45
/* Most start tours of the first list descent by default. */
#define WT_ILS_STARTS_MAX 16

/* The moves of the engine's descents by default: 2-opt and Or-opt on
 * WT_POLISH_NEIGHBOURS candidates, or (lk) the LK step above. */
static inline wt_ls_moves wt_policy_ls_moves(bool lk)
{
    if (!lk) return (wt_ls_moves){.candidates = WT_POLISH_NEIGHBOURS};
    return (wt_ls_moves){.lk = true, .candidates = WT_LK_CANDIDATES, .quadrant = true,
                         .depth = WT_LK_DEPTH,
                         .breadth = {WT_LK_BREADTH1, WT_LK_BREADTH2, WT_LK_BREADTH3},
                         .alternate = false};
}

#endif
