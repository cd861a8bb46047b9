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

#ifdef __cplusplus
}
#endif
#endif
