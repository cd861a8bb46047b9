/*
 * segment_bound.h - a proof that no 2-opt move between two segments of a
 * tour can shorten it, from their bounding boxes.
 *
 * Cut the tour into segments of consecutive positions.  Segment s owns the
 * edges (t[k], t[k+1]) for k in its positions, and its box holds every
 * point those edges touch (t[n] is t[0]).  A move (i, j) with i in segment
 * A and j in segment B replaces edges of lengths e_i <= E_A and e_j <= E_B
 * (the segments' longest edges) by (t[i], t[j]) and (t[i+1], t[j+1]), each
 * joining a point of A's box to a point of B's box, so each at least the
 * least distance L between the boxes.  The move shortens the tour only if
 * 2L < e_i + e_j <= E_A + E_B: where 2L >= E_A + E_B no move between the
 * two segments can, and a pass may skip the whole rectangle of pairs
 * without changing its result.  On a good tour (greedy, or a local
 * optimum) consecutive cities lie close together, boxes are small and most
 * pairs of segments lie far apart: a pass then checks a small share of the
 * n^2 / 2 pairs and still finds every improving move.
 *
 * L comes from the gaps between the boxes along x and y, through each
 * metric's own formula, less what its rounding can take away; only the 2D
 * metrics whose distance grows with both gaps have a bound (EUC_2D,
 * CEIL_2D, ATT, MAN_2D, MAX_2D).  The GPU pass applies the same rule to
 * its float distances (src/backend/cuda/pass_pruned.cu, with margins for
 * float's rounding).
 */
#ifndef WT_CORE_SEGMENT_BOUND_H
#define WT_CORE_SEGMENT_BOUND_H

#include <stdbool.h>
#include <stdint.h>

#include "core/instance.h"

/* Box and longest edge of one segment. */
typedef struct wt_segment_box {
    double x0, y0, x1, y1; /* bounding box of the points its edges touch */
    int64_t longest;       /* longest exact edge of the segment */
} wt_segment_box;

/* Whether inst's metric has the bound (false: every pair must be checked). */
bool wt_segment_bound_supported(const wt_instance *inst);

/* Segments of `len` positions: segment s holds positions [s*len, s*len +
 * len) within [0, n).  Fills box[s] for each of the (n + len - 1) / len
 * segments of tour.  inst must be supported. */
void wt_segment_boxes(const wt_instance *inst, const int32_t *tour, int len,
                      wt_segment_box *box);

/* A lower bound on inst's exact distance between any point of a and any
 * point of b. */
double wt_segment_gap_bound(const wt_instance *inst, const wt_segment_box *a,
                            const wt_segment_box *b);

/* Whether some 2-opt move with one edge in segment a and the other in
 * segment b might shorten the tour; false is a proof that none can. */
static inline bool wt_segment_may_improve(const wt_instance *inst, const wt_segment_box *a,
                                          const wt_segment_box *b)
{
    return 2.0 * wt_segment_gap_bound(inst, a, b) < (double)(a->longest + b->longest);
}

/* The segments that may improve with a given one, without testing every
 * pair: a pass over n / 32 segments would otherwise spend O((n / 32)^2)
 * bound tests, more than its checks on a good tour at 100,000 cities and
 * three quarters of its time at a million.  Segments are sorted along the
 * instance's longer axis; a partner must lie within the gap its longest
 * edges allow, so only a window of that order is tested.  The few segments
 * with the longest edges (which widen every window) are tested one by one
 * instead. */
typedef struct wt_segment_index wt_segment_index;

/* An index of the segs boxes (which it keeps a pointer to); NULL when out
 * of memory. */
wt_segment_index *wt_segment_index_build(const wt_instance *inst, const wt_segment_box *box,
                                         int segs);
void wt_segment_index_free(wt_segment_index *ix); /* NULL is a no-op */

/* Writes to out (room for segs entries), in increasing order, every
 * segment s >= g with wt_segment_may_improve(inst, box[g], box[s]): the
 * same set as testing each s in turn.  Returns how many.  Thread-safe. */
int wt_segment_index_partners(const wt_segment_index *ix, int g, int *out);

#endif
