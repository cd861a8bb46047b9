/*
 * init.h - start tours with a thread count (the library's internal side of
 * wt_tour_init, which uses every core).
 */
#ifndef WT_CORE_INIT_H
#define WT_CORE_INIT_H

#include <stdbool.h>

#include "warptour.h"

/* wt_tour_init on up to `threads` CPU threads (< 1: all cores).  The tour is
 * the same for every thread count: only greedy and spacefill use more than
 * one, on parts whose result does not depend on who computes them. */
wt_status wt_tour_init_threads(const wt_instance *inst, wt_init_method method, uint64_t seed,
                               int threads, int32_t *tour, wt_error *err);

/* Polled while a start tour is built; true asks the builder to finish now
 * (a time limit, Ctrl-C). */
typedef struct wt_init_stop {
    bool (*should_stop)(void *user);
    void *user;
} wt_init_stop;

/* What a stop did to a start tour (wt_tour_init_until). */
typedef enum wt_init_cut {
    WT_INIT_WHOLE = 0,    /* built to its end */
    WT_INIT_CUT_CHAINED,  /* nearest: the cities not yet chained were appended in
                             Hilbert-curve order */
    WT_INIT_CUT_SPACEFILL /* greedy: the spacefill tour instead */
} wt_init_cut;

/* wt_tour_init_threads that polls stop (NULL: never stops), from the
 * calling thread only: between the phases of greedy, every 4096 rows of its
 * neighbour queries, every 2^20 edges of its matching, every 65,536 cities
 * of its walk to the paths' ends, before chaining (greedy, nearest) and
 * every 65,536 cities of it.  Asked to stop, it still returns a valid tour
 * soon (*cut, may be NULL, says how): the longest wait is a phase that is
 * not polled (the k-d tree's build, the sort of the candidate edges) plus
 * the spacefill tour (bench/RESULTS.md, "Why a time limit cuts greedy to
 * the spacefill tour").  A cut tour depends on when the stop came.  Random
 * and spacefill tours are built whole. */
wt_status wt_tour_init_until(const wt_instance *inst, wt_init_method method, uint64_t seed,
                             int threads, const wt_init_stop *stop, int32_t *tour,
                             wt_init_cut *cut, wt_error *err);

/* A Quick-Boruvka tour (WT_INIT_BORUVKA) whose rounds take the cities in
 * the order of their projections on the direction at angle radians from
 * the x axis (ties by city number) instead of the k-d tree's leaf order:
 * start tours of the same kind that differ, for searches that try several
 * (algo/ils_first.c).  Polls stop and reports a cut as wt_tour_init_until.
 * Instances with coordinates only (not EXPLICIT); angle finite. */
wt_status wt_tour_init_sweep(const wt_instance *inst, double angle, int threads,
                             const wt_init_stop *stop, int32_t *tour, wt_init_cut *cut,
                             wt_error *err);

/* A greedy tour (WT_INIT_GREEDY's matching and chaining) over the m edges
 * of pairs, given in the order to take them: edge e joins cities
 * pairs[e] >> 32 and pairs[e] & 0xffffffff (both below inst's n); an edge
 * is kept where both ends have degree < 2 and it closes no cycle, and the
 * paths left are chained as greedy's.  For start tours from other
 * candidate sets (algo/ils_local.c: the alpha lists).  Polls stop and
 * reports a cut as wt_tour_init_until. */
wt_status wt_tour_init_greedy_pairs(const wt_instance *inst, const uint64_t *pairs, size_t m,
                                    uint64_t seed, int threads, const wt_init_stop *stop,
                                    int32_t *tour, wt_init_cut *cut, wt_error *err);

#endif
