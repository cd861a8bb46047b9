/*
 * alpha.h - alpha-nearness candidates and the Held-Karp bound, as the
 * searches use them: the sparse graph, the ascent on the host's backend
 * (its ascent slot, backend/backend.h) and what it leaves.
 *
 * LKH's candidates (Helsgaun 2000, section 4): each city's five best
 * edges by alpha-nearness, the increase of the minimum 1-tree's weight
 * when the edge is forced into it, under the node penalties pi that a
 * subgradient ascent found to raise the 1-tree bound.  The edges of an
 * optimal tour are mostly among a city's few best by alpha, fewer of them
 * among its nearest, so an LK step looks at fewer cities and misses fewer
 * good moves.  The ascent runs over a sparse graph (quadrant neighbours,
 * WT_ALPHA_GRAPH_K a city, made connected) and its bound is proven on
 * the complete graph (backend.h, wt_ascent_job.lower_bound).
 */
#ifndef WT_ALGO_ALPHA_H
#define WT_ALGO_ALPHA_H

#include <stdint.h>

#include "core/search_ctl.h"
#include "warptour.h"

/* Quadrant neighbours a city in the ascent's graph. */
#define WT_ALPHA_GRAPH_K 10

typedef struct wt_alpha {
    int32_t *candidates;  /* n rows of k cities by increasing alpha (full rows) */
    int k;
    int64_t lower_bound;  /* proven, or -1 */
    int64_t graph_bound;  /* the ascent's best bound in its graph, scaled by
                             WT_ASCENT_SCALE (backend.h) */
    int iterations;       /* subgradient steps made */
    double seconds;       /* the graph, the ascent and the lists */
} wt_alpha;

/* The ascent on the host's threads (ctl->threads) with at most
 * `iterations` steps (0: the backend's default), a first period of
 * `period` steps (0: the backend's default) and no step after `until`
 * (wt_now() seconds; INFINITY: none), then k candidates a city by alpha
 * into out (1 <= k < n).  When ctl stops it before the lists are complete,
 * or the instance has no ascent (fewer than 8 cities, or a metric the
 * backend refuses), returns WT_OK with out->candidates NULL and
 * out->lower_bound -1: the caller searches with its usual lists.
 * WT_STATUS_OUT_OF_MEMORY and the backend's errors otherwise. */
wt_status wt_alpha_run(const wt_instance *inst, wt_search_ctl *ctl, double until, int iterations,
                       int period, int k, wt_alpha *out, wt_error *err);
void wt_alpha_free(wt_alpha *a); /* its lists; NULL is a no-op */

#endif
