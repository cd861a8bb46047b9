/*
 * alpha.h - alpha-nearness candidates and the Held-Karp bound, as the
 * searches use them: the sparse graph, the ascent on a device (a
 * backend's ascent slot, backend/backend.h: the GPU's where one can run
 * it, else the host's) and what it leaves.
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

#include "backend/backend.h"
#include "core/search_ctl.h"
#include "warptour.h"

/* Quadrant neighbours a city in the ascent's graph. */
#define WT_ALPHA_GRAPH_K 10

/* The graph's repair (wt_alpha_run): where the ascent's best 1-tree of
 * the graph weighs more than the complete graph's under the same
 * penalties by over a WT_ALPHA_REPAIR_SHARE-th, the graph lacks edges
 * that the complete graph's tree takes (rl1889; pla33810, whose missing
 * edges join cities of a row beside a dense block), and the ascent raises
 * the graph's bound by penalties that lower the proven one (bench/RESULTS.md, "The ascent's
 * graph repair").  The complete tree's missing edges are then added and
 * the ascent runs once more from its best penalties, within what is left
 * of its plan. */
#define WT_ALPHA_REPAIR_SHARE 2000

typedef struct wt_alpha {
    int32_t *candidates;  /* n rows of k cities by increasing alpha (full rows) */
    int32_t *pi;          /* n: the penalties the lists were made under, in
                             1 / WT_ASCENT_SCALE of a length unit (backend.h);
                             NULL where the ascent ran on a scaled copy */
    int k;
    int64_t lower_bound;  /* proven, or -1 */
    int64_t graph_bound;  /* the ascent's best bound in its graph, scaled by
                             WT_ASCENT_SCALE (backend.h) */
    int iterations;       /* subgradient steps made (both runs, with a repair) */
    int repair_edges;     /* edges the graph's repair added; 0: none ran */
    double seconds;       /* the graph, the ascent and the lists */
    double graph_s;       /* of which the sparse graph's build */
    bool graph_on_device; /* the graph's lists came from the device's slot
                             (backend.h, neighbours), not the host's */
    double ascent_s;      /* of which the slot that ran (steps, lists, bound) */
    char device[16];      /* the device whose slot ran ("cpu", "cuda:0",
                             "cuda:0+cuda:1" where a second GPU shared its
                             steps); empty when none did (stopped in the
                             graph, no ascent) */
    char fallback[128];   /* why the device asked for gave way to the host
                             (its slot's message); empty when it did not */
} wt_alpha;

/* The device whose ascent slot a search with parameters p runs the ascent
 * on, into *out: for --backend cpu the host's; for auto the device that
 * p->cuda_device numbers of the first device backend of the registry with
 * an ascent slot, where it is usable; for a device backend named by
 * p->backend, its device of that number where it has an ascent slot and is
 * usable; the host's otherwise (a machine without a GPU, a build without
 * CUDA, a backend without the slot).  Asking whether a GPU is usable
 * starts its context (backend.h, available): only a backend with the slot
 * is asked. */
void wt_alpha_device(const wt_params *p, wt_device *out);

/* How long an ascent runs: at most `iterations` steps (0: the backend's
 * default), a first period of `period` steps (0: the backend's default)
 * and no step after `until` (wt_now() seconds; INFINITY: none). */
typedef struct wt_alpha_plan {
    double until;
    int iterations;
    int period;
} wt_alpha_plan;

/* The ascent on device on (NULL: the host's) with ctl->threads host
 * threads, as *plan says (and the graph's repair, above, within what is
 * left of the plan), then k candidates a city by alpha into out
 * (1 <= k < n).  Where on has no ascent slot, or its slot answers
 * WT_STATUS_UNSUPPORTED or WT_STATUS_OUT_OF_MEMORY (an instance too large
 * for the GPU, a metric it lacks), the host's slot runs it from the start
 * as *host_plan says (NULL: *plan), since a step on the host costs about
 * thirty on a GPU (out->device says which ran, out->fallback why); a
 * *host_plan of negative iterations asks for no host ascent (no lists and
 * no bound where the device refuses, as for a metric without one).  When
 * ctl stops it before the lists are complete, or the instance has no
 * ascent (fewer than 8 cities, or a metric the host refuses), returns
 * WT_OK with out->candidates NULL and out->lower_bound -1: the caller
 * searches with its usual lists.  WT_STATUS_OUT_OF_MEMORY and the
 * backends' other errors otherwise. */
wt_status wt_alpha_run(const wt_instance *inst, const wt_device *on, wt_search_ctl *ctl,
                       const wt_alpha_plan *plan, const wt_alpha_plan *host_plan, int k,
                       wt_alpha *out, wt_error *err);
void wt_alpha_free(wt_alpha *a); /* its lists and penalties; NULL is a no-op */

/* The result's figures of a completed ascent a (its device, steps and
 * seconds) into stats; nothing where none completed. */
void wt_alpha_stats(const wt_alpha *a, wt_search_stats *stats);

/* The ascent's sparse graph of inst: min(WT_ALPHA_GRAPH_K, n - 1) quadrant
 * (for a matrix, nearest) neighbours a city and a spare column, made
 * connected, as n rows of *width cities (-1 after a row's last): the
 * job's graph and graph_k (backend.h).  The lists come from device on's
 * neighbours slot where it has one (*on_device, when on_device is not
 * NULL), or where that slot answers UNSUPPORTED or OUT_OF_MEMORY (or on
 * is NULL) from the host's threads: the same graph either way.  NULL with
 * *stopped when ctl stopped its build, NULL with *st set on an error (out
 * of memory, the device's).  Free with free().  wt_alpha_run builds its
 * graph so; for benchmarks and tests that call the ascent slots
 * themselves (bench ascent). */
int32_t *wt_alpha_graph(const wt_instance *inst, const wt_device *on, wt_search_ctl *ctl,
                        int *width, bool *on_device, bool *stopped, wt_status *st, wt_error *err);

#endif
