/*
 * kswap.h - choosing several 2-opt moves that can be applied together.
 *
 * Robinson et al. 2018, §3.4: a pass collects many improving moves (e.g. the
 * best of each row), orders them by gain and applies, in one step, up to k
 * of them whose reversals do not interfere.  Move (i, j) removes the tour
 * edges at positions i and j (edge p joins positions p and p+1) and reverses
 * positions i+1..j, so it touches the closed interval [i, j] of edge
 * positions.  Two moves are independent exactly when those intervals are
 * disjoint: then each one's delta, computed on the unchanged tour, is still
 * its delta after the other is applied, and the deltas add up.  Moves that
 * nest, overlap or share an edge (j1 == i2) are dropped, never applied on
 * stale positions.  Since i < j <= n-1, the closing edge n-1 belongs only to
 * moves with j = n-1, so wrap-around needs no special case.
 */
#ifndef WT_ALGO_KSWAP_H
#define WT_ALGO_KSWAP_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct wt_kswap_move {
    int64_t delta; /* change of tour length; < 0 improves */
    int32_t i, j;  /* positions, 0 <= i < j < n */
} wt_kswap_move;

/* Orders moves[0..count) by (delta, i, j), then keeps, greedily in that
 * order, the improving moves whose [i, j] intervals are disjoint from all
 * kept ones, at most k of them (k <= 0: no limit).  The kept moves end up in
 * moves[0..result), sorted by i.  scratch must hold count moves.  Returns
 * the number kept. */
int wt_kswap_select(wt_kswap_move *moves, int count, int k, wt_kswap_move *scratch);

/* Applies independent moves (as chosen by wt_kswap_select) to tour and
 * returns the sum of their deltas. */
int64_t wt_kswap_apply(int32_t *tour, const wt_kswap_move *moves, int count);

#ifdef __cplusplus
}
#endif
#endif
