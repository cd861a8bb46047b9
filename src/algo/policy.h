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

/* ======================================= local search and the ILS drivers
 * The local-search engine (src/ls) and Iterated Local Search on the host
 * (algo/ils_local.c and the drivers algo/ils_replicas.c, ils_segments.c,
 * ils_merged.c).  The engine's own limits (the longest Or-opt segment
 * WT_LS_OR_MAX, LK's breadth cap, the segment-restricted kick's window)
 * define its moves and stay in src/ls. */

/* --- the polish of SA's tour (algo/polish.c) */
/* Candidate neighbours per city in the polish's neighbour-list descent. */
#define WT_POLISH_NEIGHBOURS 10
/* Largest n whose polish ends with full-neighbourhood sweeps (O(n^2) each). */
#define WT_POLISH_FULL_MAX 5000

/* --- the LK step (wt_policy_ls_moves; tuning.lk_*) */
/* Candidate cities a city of the LK descents (quadrant neighbours). */
#define WT_LK_CANDIDATES 8
/* Most flips of one LK step. */
#define WT_LK_DEPTH 25
/* Alternatives an LK step tries at its levels 1, 2 and 3. */
#define WT_LK_BREADTH1 3
#define WT_LK_BREADTH2 2
#define WT_LK_BREADTH3 1
/* From this many cities the kicks' repairs take the deeper LK step below
 * (the first descent keeps the default breadth); measured: bench/RESULTS.md. */
#define WT_ILS_LK_DEEP_MIN 50000
/* The deeper step: candidates, depth and breadth at levels 1, 2, 3. */
#define WT_ILS_LK_DEEP_CANDIDATES 12
#define WT_ILS_LK_DEEP_DEPTH 50
#define WT_ILS_LK_DEEP_BREADTH1 5
#define WT_ILS_LK_DEEP_BREADTH2 3
#define WT_ILS_LK_DEEP_BREADTH3 2
/* Steps of the random walks that place an LK search's kicks (tuning.lk_walk);
 * the 2-opt + Or-opt searches make segment-restricted kicks. */
#define WT_ILS_LK_WALK_STEPS 25

/* --- rounds: kicks between two meetings of the threads (tuning.ils_epoch) */
/* Kicks of each search a round of replicas (and the least a round of
 * segments): milliseconds of work, so that a meeting stays cheap. */
#define WT_ILS_ROUND_KICKS 2000
/* Kicks of each search a round of merged replicas; longer rounds lose more
 * of the replicas' work at the merge. */
#define WT_ILS_MERGED_ROUND_KICKS 250
/* The merged replicas' kicks end this many times the last round's tail
 * (its first search's last kick to its merge's end) before the deadline. */
#define WT_ILS_MERGED_TAIL_MARGIN 1.2

/* --- how the threads share the kicks */
/* Cities a thread from which 2-opt + Or-opt searches kick on segments
 * instead of replicas (tuning.ils_stretch). */
#define WT_ILS_SEGMENT_MIN 6000
/* The same for LK searches, whose flips cost more on longer tours. */
#define WT_ILS_LK_SEGMENT_MIN 500
/* Longest segment of LK searches (a search then takes several in turn);
 * the 2-opt + Or-opt searches take one segment a thread whatever its
 * length. */
#define WT_ILS_LK_SEGMENT_MAX 12000
/* Above this many cities LK searches use no replicas of the array (their
 * flips would cost up to half the tour): the first descent runs on a list
 * or on segments, and the kicks on merged replicas or segments. */
#define WT_ILS_LK_REPLICAS_MAX 20000
/* Below this many cities a segment, every WT_ILS_REPLICA_EVERY-th round of
 * segments is a round of replicas, which make the moves across segments
 * (tuning.ils_mix). */
#define WT_ILS_REPLICA_EVERY_BELOW 30000
#define WT_ILS_REPLICA_EVERY 4
/* Cities from which LK searches kick merged replicas (tuning.ils_whole). */
#define WT_ILS_MERGED_MIN 2000

/* --- the first descent */
/* Cities a thread from which the first descent starts on segments. */
#define WT_ILS_SEGMENT_DESCENT_MIN 5000
/* Longest edges the first descent revisits over all pairs, and how many
 * times (wt_ls_long_edges). */
#define WT_ILS_LONG_EDGES 50
#define WT_ILS_LONG_EDGE_PASSES 3
/* Up to this many cities the first list descent tries other start tours on
 * the threads that would wait for it (tuning.ils_starts). */
#define WT_ILS_STARTS_MAX_CITIES 250000
/* Other start tours run by default only where at least this percentage of
 * the cities have their two nearest candidates at one length. */
#define WT_ILS_TIED_SHARE 45
/* Most start tours by default. */
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
