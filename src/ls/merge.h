/*
 * merge.h - merging two tours of one instance into a child no longer than
 * the shorter of them: partition crossover (GPX, Whitley, Hains & Howe
 * 2009, with a fusion of infeasible components in the spirit of GPX2,
 * Tinos, Whitley & Ochoa 2018), written from the papers' descriptions.
 *
 * The union graph of the two parents, less their common edges, falls into
 * connected components (each vertex of a component has at least one edge
 * the other parent lacks).  The common edges and the runs of cities whose
 * both edges are common join the components into a ring; a run or common
 * edge between two components is a crossing.  A component (or a group of
 * neighbouring components fused together) that has exactly two crossings
 * is entered and left once by both parents through the same two portal
 * cities, so inside it each parent is one path between the same ends over
 * the same cities: either path can go in, independently of every other
 * component.  The child takes, in each such component, the shorter
 * parent's path, and elsewhere the parent that is shorter on all the other
 * components together; so it is never longer than the shorter parent, and
 * shorter wherever the two parents' good parts lie in different feasible
 * components.  The child is checked to be one cycle through all cities
 * (it always is by the argument above; the check keeps a bug from
 * breaking a tour) and falls back to the shorter parent otherwise.
 *
 * O(n) time and memory a merge (near-linear: a union-find), no
 * allocation after wt_merge_open; exact integer lengths (wt_dist).  A
 * merge depends only on its two tours (the child's start city and
 * direction are the base parent's), so it is deterministic.  A merger is
 * used by one thread at a time.
 */
#ifndef WT_LS_MERGE_H
#define WT_LS_MERGE_H

#include <stdint.h>

#include "warptour.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct wt_merge wt_merge;

/* What a merge found (for tests and measurements). */
typedef struct wt_merge_info {
    int components;   /* connected components of the differing edges */
    int feasible;     /* components or fused groups of two crossings (or none) */
    int taken;        /* of those, how many took the path of the parent other
                         than the base */
    int64_t gain;     /* shorter parent's length less the child's (>= 0) */
    int fallback;     /* 1: the child was no single cycle, the shorter parent
                         was returned (a bug if ever seen) */
} wt_merge_info;

/* Scratch for merges of tours of n cities (n >= 1).
 * WT_STATUS_INVALID_ARGUMENT, WT_STATUS_OUT_OF_MEMORY. */
wt_status wt_merge_open(int n, wt_merge **out, wt_error *err);
void wt_merge_free(wt_merge *m); /* NULL is a no-op */

/* Merges the tours a and b (permutations of inst's n cities, the merger's
 * n, of lengths len_a and len_b, which the caller knows exactly) into
 * child (n cities; it may be a or b), *child_len its exact length, never
 * more than min(len_a, len_b); info (may be NULL) what was found.
 * Identical tours (as cycles) give the shorter parent back as it is
 * written.  WT_STATUS_INVALID_ARGUMENT when the sizes differ or m/out
 * pointers are NULL. */
wt_status wt_merge_tours(wt_merge *m, const wt_instance *inst, const int32_t *a, int64_t len_a,
                         const int32_t *b, int64_t len_b, int32_t *child, int64_t *child_len,
                         wt_merge_info *info, wt_error *err);

#ifdef __cplusplus
}
#endif
#endif
