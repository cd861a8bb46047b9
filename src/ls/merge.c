/*
 * merge.c - partition crossover of two tours (merge.h says what and why).
 *
 * The steps of a merge, each O(n):
 *  1. each parent's neighbours of every city (adjacency);
 *  2. the components of the differing edges (a union-find over the cities;
 *     a city all of whose edges are common belongs to none);
 *  3. feasibility: walking a parent round its cycle, the component cities
 *     come in runs of one group each (a run's ends are its portals, where
 *     the parent comes in and goes out over common edges); a group is
 *     feasible when both parents pair its portals alike (each run of one
 *     parent joins the same two portals as a run of the other).  With two
 *     portals that always holds (GPX's test); with more it is GPX2's
 *     test.  Putting one parent's runs in place of the other's then keeps
 *     the cycle in one piece, for every feasible group at once;
 *  4. fusion: components that are infeasible and next to each other along
 *     a are fused into one group each, and step 3 tries those groups;
 *  5. each group's difference in length: the lengths of its cities'
 *     differing edges in a less those in b (each edge counted at both its
 *     ends, so twice the difference);
 *  6. the base parent: the one shorter on the infeasible groups together
 *     (ties: the shorter parent, then a); the child is the base's
 *     neighbours, except in the feasible groups where the other parent's
 *     runs are shorter, whose cities take the other's neighbours;
 *  7. the child written from its neighbours, checked to be one cycle.
 */
#include "ls/merge.h"

#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/instance.h"
#include "core/tour_ops.h"

struct wt_merge {
    int n;
    int32_t *adj_a, *adj_b; /* 2 n each: the parents' neighbours */
    int32_t *adj_c;         /* 2 n: the child's */
    int32_t *comp;          /* n: a city's component (its root city), -1: none */
    int32_t *group;         /* n: a city's group (a root city), -1: none */
    int32_t *up;            /* n: union-find of cities, then of components */
    int32_t *bad;           /* n: a group's (by root) portals paired unlike */
    int32_t *pair_a, *pair_b; /* n: a portal's partner in a's and b's runs */
    int64_t *diff;          /* n: a group's (by root) length in a less in b, doubled */
};

void wt_merge_free(wt_merge *m)
{
    if (!m) return;
    free(m->adj_a);
    free(m->adj_b);
    free(m->adj_c);
    free(m->comp);
    free(m->group);
    free(m->up);
    free(m->bad);
    free(m->pair_a);
    free(m->pair_b);
    free(m->diff);
    free(m);
}

wt_status wt_merge_open(int n, wt_merge **out, wt_error *err)
{
    if (!out || n < 1)
        return wt_fail(err, WT_STATUS_INVALID_ARGUMENT, "wt_merge_open: n is %d", n);
    *out = NULL;
    wt_merge *m = calloc(1, sizeof *m);
    if (!m) return wt_fail(err, WT_STATUS_OUT_OF_MEMORY, "out of memory for a merge");
    size_t k = (size_t)n;
    m->n = n;
    m->adj_a = malloc(2 * k * sizeof(int32_t));
    m->adj_b = malloc(2 * k * sizeof(int32_t));
    m->adj_c = malloc(2 * k * sizeof(int32_t));
    m->comp = malloc(k * sizeof(int32_t));
    m->group = malloc(k * sizeof(int32_t));
    m->up = malloc(k * sizeof(int32_t));
    m->bad = malloc(k * sizeof(int32_t));
    m->pair_a = malloc(k * sizeof(int32_t));
    m->pair_b = malloc(k * sizeof(int32_t));
    m->diff = malloc(k * sizeof(int64_t));
    if (!m->adj_a || !m->adj_b || !m->adj_c || !m->comp || !m->group || !m->up || !m->bad ||
        !m->pair_a || !m->pair_b || !m->diff) {
        wt_merge_free(m);
        return wt_fail(err, WT_STATUS_OUT_OF_MEMORY, "out of memory for a merge of %d cities",
                       n);
    }
    *out = m;
    return WT_OK;
}

/* The root of x, halving the path on the way. */
static int32_t find(int32_t *up, int32_t x)
{
    while (up[x] != x) {
        up[x] = up[up[x]];
        x = up[x];
    }
    return x;
}

/* Joins the sets of x and y (the lower root stays: deterministic). */
static void join(int32_t *up, int32_t x, int32_t y)
{
    x = find(up, x);
    y = find(up, y);
    if (x < y)
        up[y] = x;
    else if (y < x)
        up[x] = y;
}

static inline int has_edge(const int32_t *adj, int32_t u, int32_t v)
{
    return adj[2 * u] == v || adj[2 * u + 1] == v;
}

/* The portals of tour t's runs (n cities; group: each city's group, -1
 * none) and their partners: pair[x] is the other end of the run that x
 * ends, for every portal x (other component cities are left alone). */
static void pair_portals(const int32_t *t, int n, const int32_t *group, int32_t *pair)
{
    /* A city where a run starts: its group differs from the last
     * component city's before it. */
    int last = -1, start = -1;
    for (int i = n - 1; i >= 0 && last < 0; i--)
        if (group[t[i]] >= 0) last = i;
    for (int i = 0; i < n && start < 0; i++) {
        int32_t x = t[i];
        if (group[x] < 0) continue;
        if (group[x] != group[t[last]]) start = i;
        last = i;
    }
    if (start < 0) return; /* one group, no portals */
    int32_t entry = t[start], prev = t[start];
    for (int k = 1; k <= n; k++) {
        int i = start + k < n ? start + k : start + k - n;
        int32_t x = t[i];
        if (group[x] < 0) continue;
        if (group[x] != group[prev]) {
            pair[entry] = prev;
            pair[prev] = entry;
            entry = x;
        }
        prev = x;
    }
}

/* Marks in m->bad (by group root) the groups of `group` whose portals a
 * and b pair unlike. */
static void check_groups(wt_merge *m, const int32_t *a, const int32_t *b)
{
    int n = m->n;
    const int32_t *group = m->group;
    for (int32_t u = 0; u < n; u++) {
        m->pair_a[u] = m->pair_b[u] = -1;
        if (group[u] == u) m->bad[u] = 0;
    }
    pair_portals(a, n, group, m->pair_a);
    pair_portals(b, n, group, m->pair_b);
    for (int32_t u = 0; u < n; u++)
        if (group[u] >= 0 && m->pair_a[u] != m->pair_b[u]) m->bad[group[u]]++;
}

wt_status wt_merge_tours(wt_merge *m, const wt_instance *inst, const int32_t *a, int64_t len_a,
                         const int32_t *b, int64_t len_b, int32_t *child, int64_t *child_len,
                         wt_merge_info *info, wt_error *err)
{
    if (!m || !inst || !a || !b || !child || !child_len)
        return wt_fail(err, WT_STATUS_INVALID_ARGUMENT, "wt_merge_tours: a NULL argument");
    int n = m->n;
    if (inst->n != n)
        return wt_fail(err, WT_STATUS_INVALID_ARGUMENT,
                       "wt_merge_tours: tours of %d cities for a merger of %d", inst->n, n);
    wt_merge_info got = {0};
    int32_t *adj_a = m->adj_a, *adj_b = m->adj_b, *adj_c = m->adj_c;
    int32_t *comp = m->comp, *group = m->group, *up = m->up, *bad = m->bad;
    int64_t *diff = m->diff;
    int shorter_is_a = len_a <= len_b;
    int64_t shorter = shorter_is_a ? len_a : len_b;
    if (n < 5) { /* too few cities for two different tours to share anything */
        const int32_t *p = shorter_is_a ? a : b;
        if (child != p) memmove(child, p, (size_t)n * sizeof *child);
        *child_len = shorter;
        if (info) *info = got;
        return WT_OK;
    }
    /* 1. */
    wt_tour_neighbours(a, n, adj_a);
    wt_tour_neighbours(b, n, adj_b);
    int32_t first_a = a[0], first_b = b[0];
    /* 2. */
    for (int32_t u = 0; u < n; u++) up[u] = u;
    int any = 0;
    for (int32_t u = 0; u < n; u++) {
        comp[u] = -1;
        for (int s = 0; s < 2; s++) {
            int32_t v = adj_a[2 * u + s], w = adj_b[2 * u + s];
            if (!has_edge(adj_b, u, v)) {
                join(up, u, v);
                comp[u] = 0;
            }
            if (!has_edge(adj_a, u, w)) {
                join(up, u, w);
                comp[u] = 0;
            }
        }
        any |= comp[u] == 0;
    }
    if (!any) { /* one cycle twice */
        const int32_t *adj = shorter_is_a ? adj_a : adj_b;
        wt_tour_of_neighbours(adj, n, shorter_is_a ? first_a : first_b, child);
        *child_len = shorter;
        if (info) *info = got;
        return WT_OK;
    }
    for (int32_t u = 0; u < n; u++)
        if (comp[u] == 0) comp[u] = find(up, u);
    for (int32_t u = 0; u < n; u++) {
        group[u] = comp[u];
        if (comp[u] == u) got.components++;
    }
    /* 3. */
    check_groups(m, a, b);
    /* 4.  up becomes the union-find of the components (by root city):
     * infeasible ones next to each other along a join. */
    int fuse = 0;
    for (int32_t u = 0; u < n; u++)
        if (comp[u] == u) up[u] = u;
    int32_t prev = -1;
    for (int k = 0; k <= n; k++) {
        int32_t x = a[k < n ? k : 0];
        if (comp[x] < 0) continue;
        if (prev >= 0 && comp[x] != comp[prev] && bad[comp[x]] && bad[comp[prev]]) {
            join(up, comp[x], comp[prev]);
            fuse = 1;
        }
        prev = x;
    }
    if (fuse) {
        for (int32_t u = 0; u < n; u++)
            if (comp[u] >= 0) group[u] = find(up, comp[u]);
        check_groups(m, a, b);
    }
    /* 5. */
    for (int32_t u = 0; u < n; u++)
        if (group[u] == u) diff[u] = 0;
    for (int32_t u = 0; u < n; u++) {
        if (group[u] < 0) continue;
        int64_t d = 0;
        for (int s = 0; s < 2; s++) {
            int32_t v = adj_a[2 * u + s], w = adj_b[2 * u + s];
            if (!has_edge(adj_b, u, v)) d += wt_dist(inst, u, v);
            if (!has_edge(adj_a, u, w)) d -= wt_dist(inst, u, w);
        }
        diff[group[u]] += d;
    }
    /* 6.  diff > 0: b's runs are the shorter there. */
    int64_t infeasible = 0;
    for (int32_t u = 0; u < n; u++)
        if (group[u] == u) {
            if (bad[u] == 0)
                got.feasible++;
            else
                infeasible += diff[u];
        }
    int base_a = infeasible < 0 || (infeasible == 0 && shorter_is_a);
    const int32_t *adj_base = base_a ? adj_a : adj_b, *adj_other = base_a ? adj_b : adj_a;
    memcpy(adj_c, adj_base, 2 * (size_t)n * sizeof *adj_c);
    int64_t len = base_a ? len_a : len_b;
    for (int32_t u = 0; u < n; u++) {
        int32_t g = group[u];
        if (g < 0 || bad[g] || (base_a ? diff[g] : -diff[g]) <= 0) continue;
        adj_c[2 * u] = adj_other[2 * u];
        adj_c[2 * u + 1] = adj_other[2 * u + 1];
        if (g == u) {
            got.taken++;
            len -= (base_a ? diff[g] : -diff[g]) / 2;
        }
    }
    /* 7. */
    int32_t from = base_a ? first_a : first_b;
    if (len <= shorter && wt_tour_of_neighbours(adj_c, n, from, NULL)) {
        wt_tour_of_neighbours(adj_c, n, from, child);
        *child_len = len;
        got.gain = shorter - len;
    } else {
        got.fallback = 1;
        got.taken = 0;
        wt_tour_of_neighbours(shorter_is_a ? adj_a : adj_b, n, shorter_is_a ? first_a : first_b,
                              child);
        *child_len = shorter;
    }
    if (info) *info = got;
    return WT_OK;
}
