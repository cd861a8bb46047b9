/*
 * onetree.h - minimum 1-trees under integer node penalties, the
 * alpha-nearness of a graph's edges, and the exact minimum 1-tree of the
 * complete graph (the Held-Karp lower bound).
 *
 * Lengths are the ascent's fixed-point transformed lengths (backend.h,
 * wt_ascent_job): c_pi(i, j) = WT_ONETREE_SCALE * d(i, j) + pi[i] + pi[j],
 * in int64.  Edges are totally ordered by (c_pi, lower city, higher city),
 * so every minimum spanning tree below is THE minimum spanning tree under
 * that order, whichever algorithm finds it (Kruskal or Boruvka in a
 * sparse graph, Prim or Boruvka in the complete one), and every result is
 * a function of the instance, the graph and pi alone, for any thread count.
 *
 * The 1-tree (Held & Karp 1970; the form Helsgaun 2000, section 4.1, and
 * Volgenant & Jonker 1982 compute): the minimum spanning tree of all n
 * nodes plus one special edge.  For a leaf s of the tree, whose tree edge
 * is its cheapest edge, the tree without s plus the two cheapest edges at
 * s is a minimum 1-tree with special node s: the tree plus s's second
 * cheapest edge.  The special node is the leaf whose second cheapest edge
 * is the most expensive (ties: the lower city), which gives the highest
 * bound among these 1-trees.  Every such 1-tree weighs at most a tour, so
 *   w(pi) = c_pi(T) - 2 * sum(pi)
 * is a lower bound on the optimal tour's length (times the scale) where T
 * is taken in the complete graph; in a sparse graph it is not a proof.
 *
 * Alpha-nearness (Helsgaun 2000, section 4.1): alpha(i, j) = the increase
 * of the 1-tree's weight when it must contain edge {i, j}: 0 for edges of
 * the 1-tree; c_pi(s, j) - (the special edge's c_pi) for other edges at
 * the special node s (the new edge replaces the dearer of s's two edges,
 * the special one); otherwise c_pi(i, j) minus the dearest edge on the
 * tree's path from i to j (which never passes the leaf s).  Path maxima
 * come from binary lifting over the tree rooted at city 0: O(m log n).
 *
 * The exact complete-graph tree: a dense Prim, O(n^2), for EXPLICIT
 * instances and up to WT_ONETREE_DENSE_MAX cities of any type; beyond it,
 * for the metrics of k-d tree pruning (EUC_2D, CEIL_2D, ATT, MAN_2D,
 * MAX_2D, EUC_3D: distances that never decrease as coordinate differences
 * grow), a Boruvka whose "cheapest edge leaving a component" queries walk
 * the k-d tree (kdtree.h, wt_kdtree_cheapest).  GEO above the dense size
 * has none.
 *
 * Stops: the functions that take a wt_init_stop (NULL: never) poll it from
 * the calling thread only, every few milliseconds of work at most (between
 * radix passes, every 64K edges of Kruskal, every 8K edges or cities of
 * Boruvka's rounds and between them, every 1024-65536 cities of a
 * parallel loop, every 64 steps of Prim), and end with *stopped set and
 * their outputs unusable.
 *
 * No globals; nothing printed.  Threads: OpenMP, up to `threads`; every
 * result (trees, alpha, bounds, the graph's arrays) is the same for any
 * count: the parallel steps either write disjoint outputs or reduce under
 * a total order.
 */
#ifndef WT_CORE_ONETREE_H
#define WT_CORE_ONETREE_H

#include <stdbool.h>
#include <stdint.h>

#include "core/init.h"
#include "core/instance.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The transformed lengths' scale; backend.h's WT_ASCENT_SCALE. */
#define WT_ONETREE_SCALE 100

/* Up to this many cities the complete graph's tree is a dense Prim. */
#define WT_ONETREE_DENSE_MAX 5000

/* WT_OK when inst's lengths suit the fixed point: WT_ONETREE_SCALE times
 * the longest distance two of its cities can have (from the bounding box,
 * or the matrix) at most 2^30, so that penalties of that size stay in
 * int32 and n transformed lengths sum within int64, and 3 <= n < 2^28;
 * else UNSUPPORTED (INVALID_ARGUMENT for n < 3) with a message.  Real-valued
 * instances (2^40 units across) are refused. */
wt_status wt_onetree_check_lengths(const wt_instance *inst, wt_error *err);

/* The most edges a graph of the 1-trees may have: their trees keep an
 * edge's index in 32 bits (wt_onetree.tree_edge, Boruvka's packed keys). */
#define WT_ONETREE_MAX_EDGES ((int64_t)INT32_MAX + 1)

/* A sparse undirected graph on n cities: m edges {eu[e], ev[e]} with
 * eu[e] < ev[e], sorted by (eu, ev), no duplicates; adjacency in CSR form;
 * the scaled distances WT_ONETREE_SCALE * d(eu, ev). */
typedef struct wt_sgraph {
    int n;
    int64_t m;
    int32_t *eu, *ev; /* m entries each */
    int64_t *d100;    /* m entries: WT_ONETREE_SCALE * d */
    int64_t *off;     /* n + 1 entries: city i's edges are adj[off[i] .. off[i+1]) */
    int32_t *adj_city; /* 2m entries: the other end */
    int64_t *adj_edge; /* 2m entries: the edge's index */
} wt_sgraph;

/* Builds the graph of n rows of k cities (-1 after a row's last; j in i's
 * row is the edge {i, j}; j == i is ignored).  Errors: INVALID_ARGUMENT (a
 * city out of range, k < 1), UNSUPPORTED (lengths that int64 cannot sum:
 * WT_ONETREE_SCALE * d above 2^30 for some edge; more than
 * WT_ONETREE_MAX_EDGES distinct edges), OUT_OF_MEMORY.  stop (NULL: none)
 * is polled between its phases and the sort's passes (tens of ms apart at
 * a million cities): asked, it returns WT_OK with *stopped and no graph. */
wt_status wt_sgraph_create(const wt_instance *inst, const int32_t *rows, int k, int threads,
                           const wt_init_stop *stop, wt_sgraph *g, bool *stopped,
                           wt_error *err);
void wt_sgraph_free(wt_sgraph *g); /* NULL or a zeroed graph: no-op */

/* The most WT_ONETREE_SCALE * d a graph edge may have (lengths that int64
 * sums and int32 penalties hold). */
#define WT_ONETREE_D100_MAX ((int64_t)1 << 30)

/* wt_sgraph_create's errors, for builders of the same graph elsewhere (a
 * GPU's): INVALID_ARGUMENT for entry `bad` (row-major) of rows, n rows
 * of k, whose city is out of range; UNSUPPORTED for the edge {a, b} too
 * long for WT_ONETREE_D100_MAX; UNSUPPORTED for m edges beyond
 * WT_ONETREE_MAX_EDGES (WT_OK when m fits). */
wt_status wt_sgraph_bad_row(const int32_t *rows, int k, int64_t bad, int n, wt_error *err);
wt_status wt_sgraph_too_long(const wt_instance *inst, int a, int b, wt_error *err);
wt_status wt_sgraph_edges_fit(int64_t m, wt_error *err);

/* How wt_onetree_sparse finds the spanning tree: the same tree either
 * way (the minimum under the total order), at different costs. */
typedef enum wt_onetree_mst {
    WT_ONETREE_MST_AUTO = 0, /* Boruvka from the sizes below, else Kruskal */
    WT_ONETREE_MST_KRUSKAL,  /* sort the edges, join them on one thread */
    WT_ONETREE_MST_BORUVKA   /* rounds on all threads, no sort (Kruskal where keys do not pack) */
} wt_onetree_mst;

/* WT_ONETREE_MST_AUTO takes Boruvka from this many threads and edges.  On
 * 4, 8 and 16 free cores of an H200 machine Boruvka's rounds took 0.17 to
 * 0.68 times Kruskal's sort and loop (pla85900, a million and ten million
 * uniform cities; bench/RESULTS.md, "The host's spanning tree"), while on
 * one or two threads of a loaded 2-core VM they took 1.0 to 2.3 times as
 * long: the rounds share out over threads, Kruskal's loop cannot. */
#define WT_ONETREE_BORUVKA_MIN_THREADS 4
#define WT_ONETREE_BORUVKA_MIN_EDGES ((int64_t)1 << 17)

/* A 1-tree of a graph (wt_onetree_sparse) or of the complete graph. */
typedef struct wt_onetree {
    int n;
    int32_t *degree;   /* n: degree in the 1-tree (the special edge counted) */
    int32_t special;   /* the special node s (a leaf of the tree) */
    int32_t special_to; /* the special edge's other end */
    int64_t special_cost; /* its c_pi */
    int64_t special_edge; /* sparse: its index in the graph */
    int64_t weight;    /* c_pi of the 1-tree: the tree's edges plus the special edge */
    int64_t bound;     /* weight - 2 * sum(pi): w(pi), scaled */
    /* Sparse only: */
    uint8_t *in_tree;  /* m: edge e is a tree edge */
    int64_t *key;      /* m: c_pi of every edge (scratch of the last tree) */
    void *order, *order_tmp; /* m (key, edge) pairs each: scratch of the sort, of
                                Boruvka's live edge lists */
    int32_t *uf;       /* n: scratch of Kruskal (union-find), of Boruvka (components) */
    int32_t *link;     /* n: scratch of Boruvka (hooks) */
    uint64_t *cheapest; /* n: scratch of Boruvka (a component's cheapest edge) */
    wt_onetree_mst mst; /* the spanning tree's method; wt_onetree_alloc sets AUTO */
    int32_t *tree_edge; /* n: for a leaf, its tree edge's index (scratch) */
    int64_t *count;    /* the radix sort's counts, count_threads blocks (scratch) */
    int count_threads; /* the sort's threads count has room for */
    int64_t m;         /* sparse: the graph's edges t was allocated for */
} wt_onetree;

/* Room for 1-trees of g; free with wt_onetree_free (NULL-safe fields).
 * UNSUPPORTED (nothing allocated) for a graph of more than
 * WT_ONETREE_MAX_EDGES edges, OUT_OF_MEMORY. */
wt_status wt_onetree_alloc(const wt_sgraph *g, wt_onetree *t, wt_error *err);
void wt_onetree_free(wt_onetree *t);

/* The minimum 1-tree of g under pi into t (allocated for g).  Its
 * spanning tree by t->mst: Kruskal over the edges sorted by (c_pi, eu, ev)
 * (a stable LSD radix sort of c_pi over the edges in (eu, ev) order, 16
 * bits a pass at most), or Boruvka's rounds (core/onetree_boruvka.h); the
 * same tree, degrees and special node either way.  Errors: INVALID_ARGUMENT when g is
 * not connected or no leaf of its tree has a second edge in g (no 1-tree
 * of this form).  *stopped: stop came first (t then unusable). */
wt_status wt_onetree_sparse(const wt_sgraph *g, const int32_t *pi, int threads,
                            const wt_init_stop *stop, wt_onetree *t, bool *stopped,
                            wt_error *err);

/* alpha[e] for every edge of g (m entries), from t, the minimum 1-tree of
 * g under the same pi (t->key holds the c_pi).  O(m log n) time, O(n log n)
 * memory.  *stopped as above. */
wt_status wt_onetree_alpha(const wt_sgraph *g, const wt_onetree *t, int threads,
                           const wt_init_stop *stop, int64_t *alpha, bool *stopped,
                           wt_error *err);

/* Whether inst has an exact complete-graph 1-tree here (dense or k-d). */
bool wt_onetree_complete_supported(const wt_instance *inst);

/* The weight bound w(pi) (scaled) of the minimum 1-tree of the COMPLETE
 * graph of inst under pi, of the form above: *bound.  g (may be NULL) only
 * seeds the k-d queries with good first answers; the result does not
 * depend on it.  UNSUPPORTED where wt_onetree_complete_supported is false
 * or lengths could overflow int64; *stopped as above. */
wt_status wt_onetree_complete_bound(const wt_instance *inst, const int32_t *pi,
                                    const wt_sgraph *g, int threads, const wt_init_stop *stop,
                                    int64_t *bound, bool *stopped, wt_error *err);

/* wt_onetree_complete_bound, and the edges of that 1-tree's spanning
 * tree (the minimum of the complete graph under pi in the total order):
 * n - 1 pairs of cities into ends (2 (n - 1) entries, not NULL), in the
 * order the tree took them.  For the ascent's graph repair (algo/alpha.c):
 * the edges a sparse graph lacks.  Errors as wt_onetree_complete_bound's;
 * ends is unusable after an error or a stop. */
wt_status wt_onetree_complete_tree(const wt_instance *inst, const int32_t *pi,
                                   const wt_sgraph *g, int threads, const wt_init_stop *stop,
                                   int64_t *bound, int32_t *ends, bool *stopped, wt_error *err);

/* The same by the k-d tree's Boruvka whatever n (types of
 * wt_kdtree_cheapest_supported; else UNSUPPORTED): the path
 * wt_onetree_complete_bound takes above WT_ONETREE_DENSE_MAX cities. */
wt_status wt_onetree_complete_kd(const wt_instance *inst, const int32_t *pi, const wt_sgraph *g,
                                 int threads, const wt_init_stop *stop, int64_t *bound,
                                 bool *stopped, wt_error *err);

/* The same by a dense O(n^2) Prim whatever the type and n (the reference
 * the k-d path is tested against). */
wt_status wt_onetree_complete_dense(const wt_instance *inst, const int32_t *pi,
                                    const wt_init_stop *stop, int64_t *bound, bool *stopped,
                                    wt_error *err);

#ifdef __cplusplus
}
#endif

#endif
