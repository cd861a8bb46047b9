/*
 * tour_list.h - a tour as a two-level list (Fredman, Johnson, McGeoch &
 * Ostheimer 1995, "Data structures for traveling salesmen"): next, prev,
 * between and the reversal of a path in O(sqrt n) each, where an array
 * with positions reverses up to n / 2 cities.
 *
 * The tour is a cyclic sequence of segments of at most `cap` cities (about
 * sqrt n).  A segment is a run of a storage array with a reversal bit, so
 * that reversing a run of whole segments costs one bit and one rank each;
 * the segments' order is an array of their ids by rank.  A reversal cuts the
 * two segments at the path's ends (the smaller piece of each is copied
 * into a segment of its own), reverses the shorter of the path and its
 * complement as a run of whole segments, and merges each segment at a cut
 * with a neighbour while the two fit into one: any two neighbours then hold
 * more than cap cities, so there are at most 2 n / cap + 1 segments.
 *
 * Reversing the complement instead of the path gives the same cycle walked
 * the other way: after wt_tour_list_reverse(a, b) the edges are those of the
 * path's reversal, but next and prev may have traded places everywhere.
 * Callers that need a direction look at the edges again (as 2-opt moves do).
 */
#ifndef WT_CORE_TOUR_LIST_H
#define WT_CORE_TOUR_LIST_H

#include <stdbool.h>
#include <stdint.h>

#include "core/error.h"

typedef struct wt_tour_list {
    int n;            /* cities */
    int cap;          /* most cities a segment holds */
    int m;            /* segments in the tour */
    int max_segs;     /* segment ids */
    int32_t *store;   /* max_segs * cap: segment s's cities at s * cap + off[s] .. + len[s] - 1 */
    int32_t *seg_of;  /* city -> its segment */
    int32_t *at;      /* city -> its index in store */
    int32_t *order;   /* rank -> segment, m of them in tour order */
    int32_t *off, *len, *rank; /* per segment */
    uint8_t *rev;     /* per segment: its storage runs against the tour's direction */
    int32_t *free_ids;
    int n_free;
} wt_tour_list;

/* A list holding tour[0..n-1] (a permutation of 0..n-1, n >= 3) in
 * segments of about sqrt n cities (cap > 0: at most cap, for tests).
 * WT_STATUS_OUT_OF_MEMORY or WT_STATUS_INVALID_ARGUMENT, with err set. */
wt_status wt_tour_list_create(const int32_t *tour, int n, int cap, wt_tour_list **out,
                              wt_error *err);
void wt_tour_list_free(wt_tour_list *l);

/* The first and last city of segment s in the tour's direction. */
static inline int32_t wt_tour_list_first(const wt_tour_list *l, int s)
{
    int32_t base = s * l->cap + l->off[s];
    return l->store[l->rev[s] ? base + l->len[s] - 1 : base];
}

static inline int32_t wt_tour_list_last(const wt_tour_list *l, int s)
{
    int32_t base = s * l->cap + l->off[s];
    return l->store[l->rev[s] ? base : base + l->len[s] - 1];
}

static inline int32_t wt_tour_list_next(const wt_tour_list *l, int c)
{
    int s = l->seg_of[c], i = l->at[c], lo = s * l->cap + l->off[s], hi = lo + l->len[s] - 1;
    if (l->rev[s] ? i > lo : i < hi) return l->store[l->rev[s] ? i - 1 : i + 1];
    int r = l->rank[s] + 1;
    return wt_tour_list_first(l, l->order[r == l->m ? 0 : r]);
}

static inline int32_t wt_tour_list_prev(const wt_tour_list *l, int c)
{
    int s = l->seg_of[c], i = l->at[c], lo = s * l->cap + l->off[s], hi = lo + l->len[s] - 1;
    if (l->rev[s] ? i < hi : i > lo) return l->store[l->rev[s] ? i + 1 : i - 1];
    int r = l->rank[s] - 1;
    return wt_tour_list_last(l, l->order[r < 0 ? l->m - 1 : r]);
}

/* City c's place in the tour's direction, from the first segment's first
 * city: comparable between cities while the list does not change. */
static inline int64_t wt_tour_list_key(const wt_tour_list *l, int c)
{
    int s = l->seg_of[c], lo = s * l->cap + l->off[s];
    int inner = l->rev[s] ? lo + l->len[s] - 1 - l->at[c] : l->at[c] - lo;
    return (int64_t)l->rank[s] * l->cap + inner;
}

/* Whether b lies on the path from a to c in the tour's direction (a and c
 * included). */
static inline bool wt_tour_list_between(const wt_tour_list *l, int a, int b, int c)
{
    int64_t ka = wt_tour_list_key(l, a), kb = wt_tour_list_key(l, b), kc = wt_tour_list_key(l, c);
    return ka <= kc ? ka <= kb && kb <= kc : kb >= ka || kb <= kc;
}

/* Reverses the path from a to b (in the tour's direction; a == b: nothing);
 * see above for the direction afterwards. */
void wt_tour_list_reverse(wt_tour_list *l, int a, int b);

/* The tour from city `from` in the list's direction into tour[0..n-1]. */
void wt_tour_list_walk(const wt_tour_list *l, int from, int32_t *tour);

#endif
