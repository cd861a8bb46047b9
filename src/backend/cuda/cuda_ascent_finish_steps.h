/*
 * cuda_ascent_finish_steps.h - what one GPU thread does at each step of
 * the ascent's finish on the GPU (cuda_ascent_finish.cu): the minimum
 * spanning tree rooted by an Euler tour, the alpha-value of every graph
 * edge by binary lifting, each city's candidates by rank.  Plain C and
 * WT_HD, so that a host test (tests/unit/test_cuda_finish_steps.c) runs the
 * same steps in loops over the same arrays and checks them against the
 * host's alpha-values (core/onetree.h) and lists (core/ascent_finish.h),
 * where no GPU is there to run the kernels.
 *
 * Each function is one element's work (an arc, a city or an edge) of a
 * data-parallel step; the steps run in this order, each after the last
 * has finished everywhere:
 *   1. wt_fin_arc_keys:  tree edge i is arc 2i (eu -> ev) and arc 2i + 1
 *                        (ev -> eu), keyed by their source;
 *      (a stable sort of the arcs by source: each city's arcs in a block)
 *   2. wt_fin_arc_place: each arc's sorted position, each city's first;
 *   3. wt_fin_tour_next: the Euler tour's successor of each arc (after
 *                        u -> v, the arc after v -> u in v's block,
 *                        cyclically), the tour cut before city 0's first
 *                        arc, so that it is a list from city 0 back to it;
 *   4. wt_fin_rank_round: Wyllie's pointer jumping, ceil(log2 arcs) rounds
 *                        on double buffers: each arc's distance to the
 *                        list's end, hence its place in the tour;
 *   5. wt_fin_orient:    of an arc and its twin, the one the tour takes
 *                        first goes down the tree from city 0: the parent,
 *                        the cost of the edge up and +1 (down) or -1 (up)
 *                        at the arc's place in the tour;
 *      (an inclusive scan of those: the depth after each arc)
 *   6. wt_fin_depth:     a city's depth, the scan at the arc into it;
 *   7. wt_fin_lift:      binary lifting: the 2^j-th ancestor and the
 *                        dearest edge on the way, level by level;
 *   8. wt_fin_alpha:     an edge's alpha-value, the rules of
 *                        wt_onetree_alpha (onetree.h): 0 on the 1-tree,
 *                        c_pi - the special edge's at the special node,
 *                        else c_pi - the path maximum;
 *   9. wt_fin_list_arc:  (over the graph's edges sorted by their higher
 *                        end too, so that each city's edges are two
 *                        ranges) an edge at one of its ends: its rank
 *                        among that city's edges by (alpha, c_pi, city),
 *                        the place it takes in the city's row if below k.
 * A path maximum is a function of the tree alone, whatever the root and
 * the order the tree was walked in, so these alpha-values are the host's
 * bit for bit although the host walks the tree depth first.
 */
#ifndef WT_BACKEND_CUDA_ASCENT_FINISH_STEPS_H
#define WT_BACKEND_CUDA_ASCENT_FINISH_STEPS_H

#include <stdbool.h>
#include <stdint.h>

#include "core/rng.h" /* WT_HD */

/* Lifting levels for n cities: the least L with 2^L >= n (at least 1), as
 * wt_onetree_alpha's; a city also fits L bits. */
static inline WT_HD int wt_fin_levels(int64_t n)
{
    int levels = 1;
    while (((int64_t)1 << levels) < n) levels++;
    return levels;
}

/* The source city of arc a of the tree's edge list. */
static inline WT_HD int32_t wt_fin_arc_source(const int32_t *tree_list, const int32_t *eu,
                                              const int32_t *ev, int64_t a)
{
    int32_t e = tree_list[a >> 1];
    return (a & 1) ? ev[e] : eu[e];
}

/* Step 1, arc a: its source (the sort's key) and itself (the value). */
static inline WT_HD void wt_fin_arc_keys(int64_t a, const int32_t *tree_list, const int32_t *eu,
                                         const int32_t *ev, int32_t *src, int32_t *arc)
{
    src[a] = wt_fin_arc_source(tree_list, eu, ev, a);
    arc[a] = (int32_t)a;
}

/* Step 2, sorted position p (s_src, s_arc: the sorted sources and arcs):
 * pos[arc] = p, first[city] = the position of its first arc. */
static inline WT_HD void wt_fin_arc_place(int64_t p, const int32_t *s_src, const int32_t *s_arc,
                                          int32_t *pos, int32_t *first)
{
    pos[s_arc[p]] = (int32_t)p;
    if (p == 0 || s_src[p - 1] != s_src[p]) first[s_src[p]] = (int32_t)p;
}

/* Step 3, position p of `arcs`: twin[p], the position of the reverse arc;
 * succ[p], the position the tour takes next (-1 at its end: the arc that
 * would lead back to city 0's first arc); dist[p], 1 to the next, 0 at
 * the end. */
static inline WT_HD void wt_fin_tour_next(int64_t p, int64_t arcs, const int32_t *s_src,
                                          const int32_t *s_arc, const int32_t *pos,
                                          const int32_t *first, int32_t *twin, int32_t *succ,
                                          int32_t *dist)
{
    int32_t q = pos[s_arc[p] ^ 1]; /* v -> u, in v's block */
    int32_t v = s_src[q];
    int32_t next = q + 1 < arcs && s_src[q + 1] == v ? q + 1 : first[v];
    bool end = next == first[0];
    twin[p] = q;
    succ[p] = end ? -1 : next;
    dist[p] = end ? 0 : 1;
}

/* Step 4, position p: one round of pointer jumping from (succ, dist) into
 * (succ2, dist2).  Rounds: the least R with 2^R >= arcs. */
static inline WT_HD void wt_fin_rank_round(int64_t p, const int32_t *succ, const int32_t *dist,
                                           int32_t *succ2, int32_t *dist2)
{
    int32_t s = succ[p];
    if (s < 0) {
        succ2[p] = -1;
        dist2[p] = dist[p];
    } else {
        succ2[p] = succ[s];
        dist2[p] = dist[p] + dist[s];
    }
}

/* Step 5, position p (dist: the arcs to the tour's end; cost: c_pi of
 * every graph edge): parent, cost_up and down_at (the arc's place in the
 * tour) of the city the arc goes down to, and step[place] = +1 or -1.
 * City 0, the root: its own parent, cost_up INT64_MIN (no edge: never a
 * maximum), down_at -1. */
static inline WT_HD void wt_fin_orient(int64_t p, int64_t arcs, const int32_t *dist,
                                       const int32_t *twin, const int32_t *s_src,
                                       const int32_t *s_arc, const int32_t *tree_list,
                                       const int64_t *cost, int32_t *parent, int64_t *cost_up,
                                       int32_t *down_at, int32_t *step)
{
    int32_t q = twin[p];
    int32_t place = (int32_t)(arcs - 1 - dist[p]), twin_place = (int32_t)(arcs - 1 - dist[q]);
    bool down = place < twin_place;
    step[place] = down ? 1 : -1;
    if (down) {
        int32_t v = s_src[q];
        parent[v] = s_src[p];
        cost_up[v] = cost[tree_list[s_arc[p] >> 1]];
        down_at[v] = place;
    }
    if (p == 0) {
        parent[0] = 0;
        cost_up[0] = INT64_MIN;
        down_at[0] = -1;
    }
}

/* Step 6, city v: its depth from the inclusive scan of the steps. */
static inline WT_HD void wt_fin_depth(int64_t v, const int32_t *down_at, const int32_t *scan,
                                      int32_t *depth)
{
    depth[v] = v == 0 ? 0 : scan[down_at[v]];
}

/* Step 7, city v, level j >= 1 from level j - 1 (up0, mx0): the 2^j-th
 * ancestor (the root past the root) and the dearest edge on the way. */
static inline WT_HD void wt_fin_lift(int64_t v, const int32_t *up0, const int64_t *mx0,
                                     int32_t *up1, int64_t *mx1)
{
    int32_t mid = up0[v];
    up1[v] = up0[mid];
    mx1[v] = mx0[v] > mx0[mid] ? mx0[v] : mx0[mid];
}

/* The rooted tree and the 1-tree's special edge, for step 8. */
typedef struct wt_fin_tree {
    int64_t n;            /* cities: each level's length */
    int levels;           /* wt_fin_levels(n) */
    const int32_t *up;    /* levels * n: level 0 the parent */
    const int64_t *mx;    /* levels * n: level 0 the cost of the edge up */
    const int32_t *depth; /* n */
    int32_t special;      /* the special node */
    int64_t special_edge; /* its edge's index */
    int64_t special_cost; /* its edge's c_pi */
} wt_fin_tree;

/* Step 8, edge e = {a, b} of c_pi c: its alpha-value.  A tree edge: the
 * only graph edge between a city and its parent (the graph has no
 * duplicate edges).  The path from a to b never passes the special node,
 * a leaf of the tree, unless it ends there, which the rule before takes. */
static inline WT_HD int64_t wt_fin_alpha(const wt_fin_tree *t, int64_t e, int32_t a, int32_t b,
                                         int64_t c)
{
    const int32_t *up = t->up;
    const int64_t *mx = t->mx;
    int64_t n = t->n;
    if (up[a] == b || up[b] == a || e == t->special_edge) return 0;
    if (a == t->special || b == t->special) return c - t->special_cost;
    int64_t best = INT64_MIN;
    if (t->depth[a] < t->depth[b]) {
        int32_t s = a;
        a = b;
        b = s;
    }
    int32_t diff = t->depth[a] - t->depth[b];
    for (int j = 0; diff; j++, diff >>= 1) {
        if (!(diff & 1)) continue;
        int64_t at = (int64_t)j * n + a;
        if (mx[at] > best) best = mx[at];
        a = up[at];
    }
    if (a != b) {
        for (int j = t->levels - 1; j >= 0; j--) {
            int64_t pa = (int64_t)j * n + a, pb = (int64_t)j * n + b;
            if (up[pa] == up[pb]) continue;
            if (mx[pa] > best) best = mx[pa];
            if (mx[pb] > best) best = mx[pb];
            a = up[pa];
            b = up[pb];
        }
        if (mx[a] > best) best = mx[a];
        if (mx[b] > best) best = mx[b];
    }
    return c - best;
}

/* The first index of sorted (count entries) whose value is >= x. */
static inline WT_HD int32_t wt_fin_lower_bound(const int32_t *sorted, int64_t count, int32_t x)
{
    int64_t lo = 0, hi = count;
    while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2;
        if (sorted[mid] < x)
            lo = mid + 1;
        else
            hi = mid;
    }
    return (int32_t)lo;
}

/* Whether (a2, c2, j2) comes before (a, c, j): the lists' order. */
static inline WT_HD bool wt_fin_before(int64_t a2, int64_t c2, int32_t j2, int64_t a, int64_t c,
                                       int32_t j)
{
    return a2 < a || (a2 == a && (c2 < c || (c2 == c && j2 < j)));
}

/* The graph's edges at each city, for step 9: edges eu[e] == i are
 * [out_off[i], out_off[i + 1]) (the edges are sorted by (eu, ev)); edges
 * ev[e] == i are in_edge[in_off[i] .. in_off[i + 1]) (in_edge: the edges
 * sorted by ev, stably). */
typedef struct wt_fin_graph {
    int64_t m;
    const int32_t *eu, *ev;
    const int32_t *in_edge; /* m */
    const int32_t *out_off, *in_off; /* n + 1 each */
    const int64_t *alpha, *cost;     /* m each */
} wt_fin_graph;

/* Step 9, x of 2 m: edge x at eu (x < m), or edge in_edge[x - m] at its
 * ev.  Its rank among the city's edges by (alpha, c_pi, other city): its
 * place in the city's row of k (cand, n k entries, -1 before this step)
 * when below k.  Ranks are distinct: a city has one edge to each other. */
static inline WT_HD void wt_fin_list_arc(int64_t x, const wt_fin_graph *g, int k, int32_t *cand)
{
    int64_t e;
    int32_t i, j;
    if (x < g->m) {
        e = x;
        i = g->eu[e];
        j = g->ev[e];
    } else {
        e = g->in_edge[x - g->m];
        i = g->ev[e];
        j = g->eu[e];
    }
    int64_t a = g->alpha[e], c = g->cost[e];
    int rank = 0;
    for (int64_t y = g->out_off[i]; y < g->out_off[i + 1] && rank < k; y++)
        rank += wt_fin_before(g->alpha[y], g->cost[y], g->ev[y], a, c, j);
    for (int64_t y = g->in_off[i]; y < g->in_off[i + 1] && rank < k; y++) {
        int64_t f = g->in_edge[y];
        rank += wt_fin_before(g->alpha[f], g->cost[f], g->eu[f], a, c, j);
    }
    if (rank < k) cand[(int64_t)i * k + rank] = j;
}

#endif
