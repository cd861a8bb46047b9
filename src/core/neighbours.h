/*
 * neighbours.h - each city's k nearest cities (candidate lists).
 *
 * Local searches look for moves that join a city to one of its nearest
 * cities (the polish's neighbour-list descent, simulated annealing's local
 * insertion moves).  Coordinate instances find them with the k-d tree
 * (core/kdtree.h: exact in the TSPLIB distance, since its embedding
 * distance is monotone in it); EXPLICIT instances by scanning every row of
 * the matrix, O(n^2).  Large instances take long to list, so a search
 * under a time limit builds them with wt_neighbour_lists_until, which
 * gives up when told to.
 */
#ifndef WT_CORE_NEIGHBOURS_H
#define WT_CORE_NEIGHBOURS_H

#include <stdbool.h>
#include <stdint.h>

#include "core/init.h"
#include "warptour.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Fills nb[c * k .. c * k + k - 1] with the k nearest cities of each city c,
 * nearest first, ties to the lower city number; 1 <= k < n.  nb holds n * k
 * entries.  Deterministic.  Errors: WT_STATUS_INVALID_ARGUMENT (k out of
 * range), WT_STATUS_OUT_OF_MEMORY. */
wt_status wt_neighbour_lists(const wt_instance *inst, int k, int32_t *nb, wt_error *err);
/* The same lists, found by up to `threads` threads (< 1: one). */
wt_status wt_neighbour_lists_threads(const wt_instance *inst, int k, int threads, int32_t *nb,
                                     wt_error *err);

/* wt_neighbour_lists_threads that polls stop (NULL: never stops) from the
 * calling thread only: in the k-d tree's build (kdtree.h), then every 1024
 * cities the calling thread answers (a few milliseconds at k = 40), or
 * every 64 rows of a matrix.  Returns WT_OK with *stopped false and the
 * lists complete, or, as soon as stop asks, WT_OK with *stopped true and
 * nb's contents unspecified: the caller must not use the lists then, and
 * ends what needed them (a search returns its best tour so far).  Errors
 * as wt_neighbour_lists. */
wt_status wt_neighbour_lists_until(const wt_instance *inst, int k, int threads,
                                   const wt_init_stop *stop, int32_t *nb, bool *stopped,
                                   wt_error *err);

/* The quadrant neighbours of Johnson & McGeoch: among each city's `wide`
 * nearest (wt_quadrant_wide), the nearest k / 4 (at least 1) of each
 * quadrant around it (by the signs of dx and dy: quadrant 0..3 is
 * (x_d < x_c) + 2 (y_d < y_c)), then the nearest others up to k; a row
 * in nearest-first order.  Lists for the LK moves and the ascent's
 * sparse graph: they join a city to every side, which keeps the graph
 * of clustered instances connected where the k nearest would not. */
#define WT_QUADRANT_WIDE_FACTOR 3
#define WT_QUADRANT_WIDE_MAX 255

/* Whether inst's quadrant lists are quadrant neighbours: planar
 * coordinates (EUC_2D, CEIL_2D, ATT, MAN_2D, MAX_2D). */
bool wt_quadrant_planar(const wt_instance *inst);

/* The nearest cities a row of k quadrant neighbours is chosen among for n
 * cities: min(3 k, n - 1, 255).  Where it is not above k, the quadrant
 * lists are the k nearest. */
static inline int wt_quadrant_wide(int n, int k)
{
    int wide = WT_QUADRANT_WIDE_FACTOR * k;
    if (wide > n - 1) wide = n - 1;
    return wide < WT_QUADRANT_WIDE_MAX ? wide : WT_QUADRANT_WIDE_MAX;
}

/* Row c's k quadrant neighbours (out: k entries, -1 after the last) from
 * row (c's `wide` nearest, nearest first). */
void wt_quadrant_pick(const wt_instance *inst, int c, const int32_t *row, int wide, int k,
                      int32_t *out);

/* k quadrant neighbours a city into nb (n rows of k) for planar
 * instances with wt_quadrant_wide(n, k) > k; the k nearest otherwise
 * (wt_neighbour_lists_until).  Stops and errors as
 * wt_neighbour_lists_until. */
wt_status wt_quadrant_lists_until(const wt_instance *inst, int k, int threads,
                                  const wt_init_stop *stop, int32_t *nb, bool *stopped,
                                  wt_error *err);

#ifdef __cplusplus
}
#endif
#endif
