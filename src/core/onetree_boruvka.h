/*
 * onetree_boruvka.h - the minimum spanning tree of a sparse graph by
 * Boruvka's rounds on the caller's threads: the spanning-tree step of
 * wt_onetree_sparse (core/onetree.h) on large graphs, where Kruskal's loop
 * over the sorted edges would run on one thread.
 *
 * Under the total order of onetree.h, (c_pi, edge index), the minimum
 * spanning tree is unique, so this tree is Kruskal's edge for edge, and so
 * is everything derived from it (degrees, a leaf's tree edge, the weight).
 * Internal to src/core: onetree.c is its only caller.
 */
#ifndef WT_CORE_ONETREE_BORUVKA_H
#define WT_CORE_ONETREE_BORUVKA_H

#include <stdbool.h>
#include <stdint.h>

#include "core/init.h"
#include "core/onetree.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Whether m >= 1 edges whose c_pi span key_range (max - min, >= 0) fit
 * the packed 63-bit keys (c_pi - min) << bits(m - 1) | edge that Boruvka
 * compares, and int32 edge indices (m <= 2^31); where not, the caller
 * takes Kruskal. */
bool wt_onetree_boruvka_fits(int64_t m, int64_t key_range);

/* The minimum spanning forest of g under the c_pi in t->key (kmin their
 * least; wt_onetree_boruvka_fits must hold): writes t->in_tree (every
 * edge), t->degree (degrees in the forest), t->tree_edge (a city's one
 * forest edge, wherever it has exactly one) and *weight (the forest's
 * c_pi); returns its edge count, n - 1 when g is connected.  Scratch:
 * t->uf, t->link, t->cheapest, t->order, t->order_tmp.  stop (NULL: never)
 * is polled from the calling thread every few thousand edges or cities of
 * a round's loops and between rounds; when it asks, *stopped is set and
 * the outputs are unusable (a stop already asked: none of the first round
 * past its first few thousand edges).  Threads: up to `threads`;
 * the same outputs for any count. */
int wt_onetree_boruvka(const wt_sgraph *g, int64_t kmin, int threads, const wt_init_stop *stop,
                       wt_onetree *t, int64_t *weight, bool *stopped);

#ifdef __cplusplus
}
#endif

#endif
