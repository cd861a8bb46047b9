/*
 * kswap.h - choosing several 2-opt moves that can be applied together.
 *
 * Robinson et al. 2018, §3.4: a pass collects many improving moves (e.g. the
 * best of each row), orders them by gain and applies, in one step, up to k
 * of them whose reversals do not interfere.  Move (i, j) removes the tour
 * edges at positions i and j (edge p joins positions p and p+1) and reverses
 * positions i+1..j, so it touches the closed interval [i, j] of edge
 * positions.  Since i < j <= n-1, the closing edge n-1 belongs only to moves
 * with j = n-1, so wrap-around needs no special case.
 *
 * Two rules say which moves go together:
 *
 *  - disjoint (Robinson's rule): the kept intervals are pairwise disjoint.
 *    Each move's delta, computed on the unchanged tour, is still its delta
 *    after the others are applied, so the deltas add up, and the moves can
 *    be applied in any order, or all at once.  Moves that nest, cross or
 *    share an edge (j1 == i2) are dropped.
 *
 *  - laminar (nested moves allowed): two moves may also be kept together
 *    when one lies strictly inside the other's reversed segment, i1 < i2 and
 *    j2 < j1.  Both edges of the inner move are then edges inside positions
 *    i1+1..j1, which the outer reversal carries along without touching, and
 *    the outer move's two edges lie outside the inner segment.  So applying
 *    the inner move first, then the outer one, both at their original
 *    positions, changes the length by the sum of the two deltas computed
 *    on the unchanged tour.  Only crossing intervals (i1 < i2 <= j1 < j2)
 *    and moves that share an edge position (i1 == i2, j1 == j2, j1 == i2)
 *    conflict.  The kept family is laminar (any two are disjoint or
 *    nested); it is returned as levels by nesting depth, each level a set
 *    of disjoint moves, applied deepest level first: when a level is
 *    applied, every move nested inside one of its moves has been applied
 *    already, and none of the moves containing it has.
 *
 * wt_kswap_choose finds the greedy choice in O(log n) per candidate (a
 * radix sort, then a Fenwick or a segment tree over the edge positions; see
 * kswap.c), since a pass may offer up to two candidates per row and the
 * choice is made on the host every pass.
 */
#ifndef WT_CORE_KSWAP_H
#define WT_CORE_KSWAP_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct wt_kswap_move {
    int64_t delta; /* change of tour length; < 0 improves */
    int32_t i, j;  /* positions, 0 <= i < j < n */
} wt_kswap_move;

/* The disjoint rule, the plain way (kept as a reference): orders
 * moves[0..count) by (delta, i, j), then keeps, greedily in that order, the
 * improving moves whose [i, j] intervals are disjoint from all kept ones,
 * at most k of them (k <= 0: no limit).  The kept moves end up in
 * moves[0..result), sorted by i.  scratch must hold count moves.  Returns
 * the number kept.  O(kept) per candidate; wt_kswap_choose gives the same
 * moves faster. */
int wt_kswap_select(wt_kswap_move *moves, int count, int k, wt_kswap_move *scratch);

/* Applies moves[0..count) one after another, in that order, to tour and
 * returns the sum of their deltas.  With the moves of wt_kswap_choose (in
 * its order), or of wt_kswap_select, that sum is the exact change of
 * length. */
int64_t wt_kswap_apply(int32_t *tour, const wt_kswap_move *moves, int count);

/* Workspace of wt_kswap_choose: a tree over the n edge positions, endpoint
 * marks, sort keys, the kept moves and their levels (at most 17 bytes per
 * city and 44 per unit of capacity).  One per descent (algo/descent.h);
 * not to be shared between threads. */
typedef struct wt_kswap_ws wt_kswap_ws;

/* A workspace for tours of n >= 1 cities and up to capacity >= 0 candidate
 * moves per call; NULL when out of memory. */
wt_kswap_ws *wt_kswap_ws_create(int n, int capacity);

/* NULL is a no-op. */
void wt_kswap_ws_free(wt_kswap_ws *ws);

/* What wt_kswap_choose kept. */
typedef struct wt_kswap_choice {
    int kept;               /* moves kept: moves[0..kept), in the order to apply them */
    int levels;             /* groups of independent moves (0 when none kept; 1 for the
                               disjoint rule) */
    const int *level_start; /* levels + 1 offsets into moves, from 0 to kept: group g is
                               moves[level_start[g] .. level_start[g+1]), pairwise
                               disjoint and sorted by i; groups are applied in order
                               g = 0, 1, ... (deepest nesting first).  Owned by the
                               workspace, valid until its next use. */
} wt_kswap_choice;

/* Orders the improving moves (delta < 0) of moves[0..count) (count <= the
 * workspace's capacity; moves with positions outside 0 <= i < j < n are
 * ignored) by (delta, i, j) and keeps, greedily in that order, each one
 * that goes with all moves kept before it:
 * disjoint from each (nested = false), or disjoint from or strictly nested
 * with each (nested = true); at most k moves (k <= 0: no limit).  The kept
 * moves are written to moves[0..kept) in the order to apply them (see
 * wt_kswap_choice); applied so, one after another (wt_kswap_apply) or a
 * group at a time with each group's moves at once, the tour's length
 * changes by exactly the sum of their deltas.  A move that appears twice is
 * kept at most once.  moves[kept..count) are left in no particular order.
 * With nested = false the kept moves equal wt_kswap_select's. */
wt_kswap_choice wt_kswap_choose(wt_kswap_ws *ws, wt_kswap_move *moves, int count, int k,
                                bool nested);

#ifdef __cplusplus
}
#endif
#endif
