/*
 * kdtree.h - a k-d tree over the cities of an instance (or a subset of them)
 * for the nearest-neighbour questions that start tours ask.
 *
 * The tree does not search in TSPLIB distances, which are rounded and (for
 * GEO) expensive, but in an embedding where the TSPLIB distance is a
 * non-decreasing function of the embedding distance, so that a nearest point
 * in the embedding is also a nearest point in the instance's own distance:
 *   EUC_2D, CEIL_2D, ATT  (x, y) with squared Euclidean distance
 *   MAN_2D                (x, y) with L1 distance
 *   MAX_2D                (x, y) with L-infinity distance
 *   EUC_3D                (x, y, z) with squared Euclidean distance
 *   GEO                   the point of the unit sphere at (lat, lon), with
 *                         squared chord length (monotone in the arc length)
 * EXPLICIT instances have no such embedding and are refused.
 *
 * Ties in embedding distance are broken by the lower city number, so every
 * answer is a deterministic function of the instance and the set of live
 * points.  Points can be removed ("deleted") one at a time; queries then see
 * only the live ones.  Memory is O(m) for m points: an array of points in
 * leaf order and an implicit (heap-numbered) array of nodes, each with its
 * bounding box, its live count and its lowest city number.
 *
 * Thread safety: queries only read the tree, so several threads may query an
 * unmodified tree at once; wt_kdtree_remove must not run concurrently with
 * anything else on the same tree.
 */
#ifndef WT_CORE_KDTREE_H
#define WT_CORE_KDTREE_H

#include <stdbool.h>
#include <stdint.h>

#include "core/init.h"
#include "core/instance.h"

typedef struct wt_kdtree wt_kdtree;

/* Builds a tree over the cities cities[0..m-1] of inst (distinct, 0-based),
 * or over all cities when cities is NULL (then m must equal the instance's
 * n).  O(m log m) time.  inst must outlive the tree.  Errors:
 * WT_STATUS_UNSUPPORTED for EXPLICIT instances, WT_STATUS_INVALID_ARGUMENT
 * for m < 1 or a city out of range, WT_STATUS_OUT_OF_MEMORY. */
wt_status wt_kdtree_create(const wt_instance *inst, const int32_t *cities, int m,
                           wt_kdtree **out, wt_error *err);

/* The same tree, built by up to `threads` threads (< 1: one).  The tree and
 * every answer are the same for any thread count. */
wt_status wt_kdtree_create_threads(const wt_instance *inst, const int32_t *cities, int m,
                                   int threads, wt_kdtree **out, wt_error *err);

/* wt_kdtree_create_threads that polls stop (NULL: never stops) from the
 * calling thread, at every node of 4096 points or more: between two looks
 * it builds for a few milliseconds, besides the root's median (one
 * quickselect over all m points: tens of milliseconds at a million).  When
 * stop asks, it returns WT_OK with *out = NULL (no tree; nothing to free):
 * the caller gives up what needed the tree. */
wt_status wt_kdtree_create_until(const wt_instance *inst, const int32_t *cities, int m,
                                 int threads, const wt_init_stop *stop, wt_kdtree **out,
                                 wt_error *err);

/* Releases the tree; NULL is a no-op. */
void wt_kdtree_free(wt_kdtree *tree);

/* Number of points the tree was built over, live or not. */
int wt_kdtree_size(const wt_kdtree *tree);

/* Number of points not yet removed. */
int wt_kdtree_live(const wt_kdtree *tree);

/* The city stored at position i (0 <= i < size) of the leaf order.  Walking
 * the positions in order visits the cities in a spatially coherent order,
 * which keeps a batch of queries cache-friendly. */
int wt_kdtree_city_at(const wt_kdtree *tree, int i);

/* Whether city is a point of the tree that has not been removed. */
bool wt_kdtree_is_live(const wt_kdtree *tree, int city);

/* Marks city removed; a no-op when it is not a live point.  O(log m). */
void wt_kdtree_remove(wt_kdtree *tree, int city);

/* The live point nearest to city (any city of the instance, member of the
 * tree or not), city itself excluded; ties go to the lower city number.
 * Returns -1 when no other live point is left. */
int wt_kdtree_nearest(const wt_kdtree *tree, int city);

/* The (up to) k nearest live points to city, city itself excluded, in
 * increasing order of (embedding distance, city number).  Fills out[] with
 * the cities and dist[] with their embedding distances (both k entries,
 * k >= 1) and returns how many were found (less than k only when fewer live
 * points exist). */
int wt_kdtree_knn(const wt_kdtree *tree, int city, int k, int32_t *out, double *dist);

/* Embedding distance between two cities of the instance, as the tree
 * compares them (squared for the Euclidean embeddings). */
double wt_kdtree_distance(const wt_kdtree *tree, int a, int b);

/* ------------------------------------------------ penalised queries
 * For the exact minimum spanning tree under node penalties (Boruvka,
 * core/onetree.h): the cheapest c(u, v) = scale * d(u, v) + value[v] over
 * the tree's live points v, where d is the instance's own distance.  A box
 * is pruned by scale * (the distance from u to the box's nearest point,
 * computed with the instance's formula) + the least value in it, a lower
 * bound wherever the distance never decreases as the coordinate
 * differences grow: EUC_2D, CEIL_2D, ATT, MAN_2D, MAX_2D and EUC_3D
 * (wt_kdtree_cheapest_supported); and, with labels, by a box whose points
 * all carry u's own label. */

/* Whether wt_kdtree_cheapest answers for inst's type. */
bool wt_kdtree_cheapest_supported(const wt_instance *inst);

/* Size of the per-node arrays below (nodes are numbered 1 .. size-1). */
size_t wt_kdtree_node_slots(const wt_kdtree *tree);

/* node_min[x] = the least value[v] over the points v of node x, live or
 * not.  O(size), by up to `threads` threads (< 1: one); the same for any. */
void wt_kdtree_node_min(const wt_kdtree *tree, const int32_t *value, int threads,
                        int32_t *node_min);

/* node_label[x] = the label all points of node x share, or -1 when they
 * differ (labels >= 0).  O(size), threads as above. */
void wt_kdtree_node_label(const wt_kdtree *tree, const int32_t *label, int threads,
                          int32_t *node_label);

/* The cheapest live v != city, v != skip (skip < 0: none), with
 * label[v] != label[city] when label is not NULL (node_label then from
 * wt_kdtree_node_label of the same labels), of c = scale * d(city, v) +
 * value[v] (node_min from wt_kdtree_node_min of the same values), ties to
 * the lower v.  (*best, *cost) is a bar on entry: a known candidate (one
 * the rules admit) or (-1, INT64_MAX); on return the answer, unchanged
 * when nothing beats the bar.  Only reads the tree: threads may query at
 * once. */
void wt_kdtree_cheapest(const wt_kdtree *tree, int city, int skip, int64_t scale,
                        const int32_t *value, const int32_t *node_min, const int32_t *label,
                        const int32_t *node_label, int32_t *best, int64_t *cost);

#endif
