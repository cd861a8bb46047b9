/*
 * onetree_complete.c - the minimum 1-tree of the COMPLETE graph under
 * penalties: the Held-Karp bound that the ascent proves (onetree.h).
 *
 * Two ways to the same tree (THE minimum spanning tree under the total
 * order (c_pi, lower city, higher city)) and the same special edge:
 *
 * Dense Prim, O(n^2) distances: each city outside the tree keeps its
 * cheapest edge into it (among equal c_pi the lower tree city: for one
 * fixed end, the total order ranks equal c_pi by the other end), and the
 * tree takes the cheapest of those by the whole order.  A leaf's second
 * edge is a scan of its row.
 *
 * Boruvka over a k-d tree: in each round every city asks for its cheapest
 * edge to another component (wt_kdtree_cheapest, boxes pruned by a lower
 * bound of c_pi over the box and by a component label they all share);
 * every component takes the cheapest of its cities' answers by the whole
 * order, and all those edges join the forest (with distinct keys they make
 * no cycle; an edge two components chose is taken once).  A city's answer
 * stays its answer while its city is foreign, and is a lower bound of its
 * next one after: so a round asks again only the cities without an answer
 * whose bound may still beat their component's best answer.  The rounds at
 * least halve the components.  A leaf's second edge is one more query that
 * skips its tree neighbour.  The sparse graph, where given, seeds each
 * query with its best answer among the city's graph neighbours, which
 * prunes most boxes at once; the answers do not depend on it.
 *
 * The threads share every per-city pass of a round (the queries, the
 * answers that went stale, each component's winner by a compare-and-swap
 * under the total order, the list of cities to ask, the new labels); what
 * stays on one thread is the joining itself, O(components) a round, since
 * the union-find links roots only.
 */
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/kdtree.h"
#include "core/onetree.h"

enum { POLL_PRIM = 64, POLL_CITIES = 1024 };

static bool asked_stop(const wt_init_stop *stop)
{
    return stop && stop->should_stop && stop->should_stop(stop->user);
}

static inline int64_t cpi(const wt_instance *inst, const int32_t *pi, int a, int b)
{
    return WT_ONETREE_SCALE * wt_dist(inst, a, b) + pi[a] + pi[b];
}

/* Whether edge (c1, a1-b1) comes before (c2, a2-b2) in the total order. */
static inline bool edge_less(int64_t c1, int a1, int b1, int64_t c2, int a2, int b2)
{
    if (c1 != c2) return c1 < c2;
    int l1 = a1 < b1 ? a1 : b1, h1 = a1 < b1 ? b1 : a1;
    int l2 = a2 < b2 ? a2 : b2, h2 = a2 < b2 ? b2 : a2;
    return l1 != l2 ? l1 < l2 : h1 < h2;
}

/* The longest distance any two cities can have, from the bounding box (the
 * supported formulas grow with the differences) or the matrix; GEO: half
 * the earth's circumference in TSPLIB's formula; HAVERSINE: the great
 * circle of the chord across the unit vectors' box. */
static int64_t longest_distance(const wt_instance *inst)
{
    int n = inst->n;
    if (inst->type == WT_EXPLICIT) {
        int64_t mx = 0;
        for (size_t i = 0; i < (size_t)n * (size_t)n; i++)
            if (inst->matrix[i] > mx) mx = inst->matrix[i];
        return mx;
    }
    if (inst->type == WT_GEO) return 20040;
    double lo[3] = {inst->x[0], inst->y[0], inst->z ? inst->z[0] : 0};
    double hi[3] = {lo[0], lo[1], lo[2]};
    for (int i = 1; i < n; i++) {
        double c[3] = {inst->x[i], inst->y[i], inst->z ? inst->z[i] : 0};
        for (int a = 0; a < 3; a++) {
            if (c[a] < lo[a]) lo[a] = c[a];
            if (c[a] > hi[a]) hi[a] = c[a];
        }
    }
    double dx = hi[0] - lo[0], dy = hi[1] - lo[1], dz = hi[2] - lo[2];
    if (inst->type == WT_HAVERSINE) { /* the box of the unit vectors bounds every chord */
        double c = fmin(2.0, sqrt(dx * dx + dy * dy + dz * dz));
        return wt_nint(WT_EARTH_RADIUS_M * 2.0 * asin(0.5 * c)) + 1;
    }
    if (inst->type == WT_EUC_3D) return wt_nint(sqrt(dx * dx + dy * dy + dz * dz));
    return wt_dist_planar(inst->type, dx, dy);
}

static wt_status check_range(const wt_instance *inst, const int32_t *pi, wt_error *err)
{
    int64_t pmax = 0;
    for (int i = 0; i < inst->n; i++) {
        int64_t a = pi[i] < 0 ? -(int64_t)pi[i] : pi[i];
        if (a > pmax) pmax = a;
    }
    int64_t dmax = longest_distance(inst);
    int64_t edge = WT_ONETREE_SCALE * dmax + 2 * pmax; /* dmax < 2^53: no overflow */
    if (dmax > ((int64_t)1 << 53) / WT_ONETREE_SCALE || edge > (INT64_MAX / 4) / inst->n)
        return wt_fail(err, WT_STATUS_UNSUPPORTED,
                       "%s: a 1-tree's fixed-point length could overflow 64 bits (distances up "
                       "to %lld, %d cities)",
                       inst->name, (long long)dmax, inst->n);
    return WT_OK;
}

wt_status wt_onetree_check_lengths(const wt_instance *inst, wt_error *err)
{
    if (!inst) return wt_fail(err, WT_STATUS_INVALID_ARGUMENT, "ascent: NULL instance");
    if (inst->n < 3)
        return wt_fail(err, WT_STATUS_INVALID_ARGUMENT, "%s: a 1-tree needs 3 cities or more",
                       inst->name);
    if (inst->n >= (1 << 28))
        return wt_fail(err, WT_STATUS_UNSUPPORTED, "%s: the ascent takes fewer than 2^28 cities",
                       inst->name);
    int64_t dmax = longest_distance(inst), cap = ((int64_t)1 << 30) / WT_ONETREE_SCALE;
    if (dmax > cap)
        return wt_fail(err, WT_STATUS_UNSUPPORTED,
                       "%s: distances up to %lld; the ascent's fixed-point penalties (int32, "
                       "1/%d of the unit) take distances up to %lld",
                       inst->name, (long long)dmax, WT_ONETREE_SCALE, (long long)cap);
    return WT_OK;
}

bool wt_onetree_complete_supported(const wt_instance *inst)
{
    if (inst->n < 3) return false;
    if (inst->type == WT_EXPLICIT || inst->n <= WT_ONETREE_DENSE_MAX) return true;
    return wt_kdtree_cheapest_supported(inst);
}

/* ----------------------------------------------------------- dense Prim */

static wt_status dense_bound(const wt_instance *inst, const int32_t *pi,
                             const wt_init_stop *stop, int64_t *bound, int32_t *ends,
                             bool *stopped, wt_error *err)
{
    int n = inst->n;
    int64_t *bestc = malloc((size_t)n * sizeof *bestc);
    int32_t *bestu = malloc((size_t)n * sizeof *bestu);
    int32_t *deg = calloc((size_t)n, sizeof *deg);
    int32_t *nbr = malloc((size_t)n * sizeof *nbr);
    uint8_t *in = calloc((size_t)n, 1);
    wt_status st = WT_OK;
    if (!bestc || !bestu || !deg || !nbr || !in) {
        st = wt_fail(err, WT_STATUS_OUT_OF_MEMORY, "out of memory for a 1-tree of %d cities", n);
        goto out;
    }
    in[0] = 1;
    for (int v = 1; v < n; v++) {
        bestc[v] = cpi(inst, pi, 0, v);
        bestu[v] = 0;
    }
    int64_t weight = 0;
    for (int step = 1; step < n; step++) {
        if (step % POLL_PRIM == 0 && asked_stop(stop)) {
            *stopped = true;
            goto out;
        }
        int v = -1;
        for (int w = 1; w < n; w++)
            if (!in[w] && (v < 0 || edge_less(bestc[w], bestu[w], w, bestc[v], bestu[v], v)))
                v = w;
        int u = bestu[v];
        in[v] = 1;
        weight += bestc[v];
        deg[u]++;
        deg[v]++;
        nbr[u] = v;
        nbr[v] = u;
        if (ends) {
            ends[2 * (size_t)(step - 1)] = u;
            ends[2 * (size_t)(step - 1) + 1] = v;
        }
        for (int w = 1; w < n; w++) {
            if (in[w]) continue;
            int64_t c = cpi(inst, pi, v, w);
            if (edge_less(c, v, w, bestc[w], bestu[w], w)) {
                bestc[w] = c;
                bestu[w] = v;
            }
        }
    }
    int64_t special = INT64_MIN;
    for (int u = 0; u < n; u++) {
        if (deg[u] != 1) continue;
        if (u % POLL_PRIM == 0 && asked_stop(stop)) {
            *stopped = true;
            goto out;
        }
        int64_t c2 = INT64_MAX;
        for (int w = 0; w < n; w++) {
            if (w == u || w == nbr[u]) continue;
            int64_t c = cpi(inst, pi, u, w);
            if (c < c2) c2 = c;
        }
        if (c2 > special) special = c2;
    }
    int64_t sum_pi = 0;
    for (int i = 0; i < n; i++) sum_pi += pi[i];
    *bound = weight + special - 2 * sum_pi;
out:
    free(bestc);
    free(bestu);
    free(deg);
    free(nbr);
    free(in);
    return st;
}

wt_status wt_onetree_complete_dense(const wt_instance *inst, const int32_t *pi,
                                    const wt_init_stop *stop, int64_t *bound, bool *stopped,
                                    wt_error *err)
{
    if (!inst || !pi || !bound || !stopped)
        return wt_fail(err, WT_STATUS_INVALID_ARGUMENT, "wt_onetree_complete_dense: NULL argument");
    *stopped = false;
    if (inst->n < 3)
        return wt_fail(err, WT_STATUS_INVALID_ARGUMENT, "a 1-tree needs 3 cities or more");
    wt_status st = check_range(inst, pi, err);
    if (st != WT_OK) return st;
    return dense_bound(inst, pi, stop, bound, NULL, stopped, err);
}

/* ------------------------------------------------------ Boruvka, k-d tree */

static int32_t find_root(int32_t *uf, int32_t x)
{
    while (uf[x] != x) {
        uf[x] = uf[uf[x]];
        x = uf[x];
    }
    return x;
}

/* The best graph neighbour of u outside u's component (label NULL: any)
 * and other than skip, as a first bar of the query: its cost as the query
 * counts it, without pi[u]. */
static void graph_bar(const wt_instance *inst, const int32_t *pi, const wt_sgraph *g, int u,
                      int skip, const int32_t *label, int32_t *best, int64_t *cost)
{
    if (!g) return;
    for (int64_t x = g->off[u]; x < g->off[u + 1]; x++) {
        int32_t w = g->adj_city[x];
        if (w == skip || (label && label[w] == label[u])) continue;
        int64_t c = cpi(inst, pi, u, w) - pi[u];
        if (c < *cost || (c == *cost && w < *best)) {
            *cost = c;
            *best = w;
        }
    }
}

/* Offers u's answer (bestc[u], u-bestv[u]) to its component's slot:
 * the slot keeps the city whose answer is first in the total order.  The
 * answers of one component's cities are distinct edges (each leaves the
 * component at its own city), so the winner is the same in whatever
 * order the threads offer them.  shared: threads offer at once (a
 * compare-and-swap; else a plain store). */
static void offer(int32_t *slot, int u, const int64_t *bestc, const int32_t *bestv, bool shared)
{
    int32_t x = shared ? __atomic_load_n(slot, __ATOMIC_RELAXED) : *slot;
    while (x < 0 || edge_less(bestc[u], u, bestv[u], bestc[x], x, bestv[x])) {
        if (!shared) {
            *slot = u;
            return;
        }
        if (__atomic_compare_exchange_n(slot, &x, u, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
            return;
    }
}

/* The cities to ask this round, in the k-d tree's leaf order (each
 * thread compacts its share of the positions; the shares' counts place
 * them): those without an exact answer whose lower bound may still beat
 * their component's best.  Returns their count; at: threads + 1 entries. */
static int round_queries(const wt_kdtree *tree, const int32_t *comp, const uint8_t *exact,
                         const int64_t *bestc, const int32_t *cbest, int threads, int *at,
                         int32_t *todo)
{
    int n = wt_kdtree_size(tree), count = 0;
    at[0] = 0;
#pragma omp parallel num_threads(threads) if (n > 4 * POLL_CITIES)
    {
        int me = omp_get_thread_num(), all = omp_get_num_threads();
        int lo = (int)((int64_t)n * me / all), hi = (int)((int64_t)n * (me + 1) / all);
        if (all > 1) { /* one thread writes from 0 at once */
            int c = 0;
            for (int i = lo; i < hi; i++) {
                int u = wt_kdtree_city_at(tree, i), x = cbest[comp[u]];
                c += !exact[u] && (x < 0 || bestc[u] <= bestc[x]);
            }
            at[me + 1] = c;
#pragma omp barrier
#pragma omp single
            for (int t = 0; t < all; t++) at[t + 1] += at[t];
        }
        int w = at[me];
        for (int i = lo; i < hi; i++) {
            int u = wt_kdtree_city_at(tree, i), x = cbest[comp[u]];
            if (!exact[u] && (x < 0 || bestc[u] <= bestc[x])) todo[w++] = u;
        }
        if (me == all - 1) count = w;
    }
    return count;
}

static wt_status kd_bound(const wt_instance *inst, const int32_t *pi, const wt_sgraph *g,
                          int threads, const wt_init_stop *stop, int64_t *bound, int32_t *ends,
                          bool *stopped, wt_error *err)
{
    int n = inst->n;
    if (g && g->n != n) g = NULL;
    wt_kdtree *tree = NULL;
    wt_status st = wt_kdtree_create_until(inst, NULL, n, threads, stop, &tree, err);
    if (st != WT_OK) return st;
    if (!tree) {
        *stopped = true;
        return WT_OK;
    }
    size_t slots = wt_kdtree_node_slots(tree);
    int32_t *node_min = malloc(slots * sizeof *node_min);
    int32_t *node_label = malloc(slots * sizeof *node_label);
    int32_t *uf = malloc((size_t)n * sizeof *uf), *comp = malloc((size_t)n * sizeof *comp);
    int32_t *roots = malloc((size_t)n * sizeof *roots); /* the components' roots */
    int32_t *bestv = malloc((size_t)n * sizeof *bestv);
    int64_t *bestc = malloc((size_t)n * sizeof *bestc);
    int32_t *cbest = malloc((size_t)n * sizeof *cbest); /* per root: the city whose answer wins */
    int32_t *deg = calloc((size_t)n, sizeof *deg), *nbr = malloc((size_t)n * sizeof *nbr);
    int32_t *todo = malloc((size_t)n * sizeof *todo);
    int *at = malloc(((size_t)threads + 1) * sizeof *at);
    uint8_t *exact = malloc((size_t)n);
    if (!node_min || !node_label || !uf || !comp || !roots || !bestv || !bestc || !cbest || !deg ||
        !nbr || !todo || !at || !exact) {
        st = wt_fail(err, WT_STATUS_OUT_OF_MEMORY, "out of memory for a 1-tree of %d cities", n);
        goto out;
    }
    wt_kdtree_node_min(tree, pi, threads, node_min);
    for (int i = 0; i < n; i++) {
        uf[i] = comp[i] = roots[i] = i;
        bestc[i] = INT64_MIN; /* no lower bound yet */
        exact[i] = 0;
    }
    /* comp[u]: u's component's root, for every city, at each round's
     * start; uf links only roots (a root of an earlier round to the root
     * it joined), so a round's own work is O(components) but for the
     * per-city passes, which run on the threads. */
    int components = n;
    int64_t weight = 0;
    bool shared = threads > 1 && n > 4 * POLL_CITIES; /* the per-city passes on threads */
    while (components > 1) {
        wt_kdtree_node_label(tree, comp, threads, node_label);
        /* An answer whose city is still foreign is still the answer (the
         * foreign cities only lose members); one that joined u's component
         * leaves its cost as a lower bound of u's next answer. */
#pragma omp parallel num_threads(threads) if (shared)
        {
#pragma omp for schedule(static)
            for (int i = 0; i < components; i++) cbest[roots[i]] = -1;
#pragma omp for schedule(static)
            for (int u = 0; u < n; u++)
                if (exact[u] && comp[bestv[u]] == comp[u]) exact[u] = 0;
#pragma omp for schedule(static)
            for (int u = 0; u < n; u++)
                if (exact[u]) offer(&cbest[comp[u]], u, bestc, bestv, shared);
        }
        /* Queries only where the lower bound may still beat the component's
         * best exact answer: the others cannot change its choice. */
        int todo_n = round_queries(tree, comp, exact, bestc, cbest, threads, at, todo);
        for (int base = 0; base < todo_n; base += POLL_CITIES) {
            int end = base + POLL_CITIES < todo_n ? base + POLL_CITIES : todo_n;
#pragma omp parallel for num_threads(threads) schedule(dynamic, 16)
            for (int i = base; i < end; i++) {
                int u = todo[i];
                int32_t b = -1;
                int64_t c = INT64_MAX;
                graph_bar(inst, pi, g, u, -1, comp, &b, &c);
                wt_kdtree_cheapest(tree, u, -1, WT_ONETREE_SCALE, pi, node_min, comp, node_label,
                                   &b, &c);
                bestv[u] = b;
                bestc[u] = c + pi[u];
                exact[u] = 1;
            }
            if (asked_stop(stop)) {
                *stopped = true;
                goto out;
            }
        }
        bool todo_shared = shared && todo_n > 4 * POLL_CITIES;
#pragma omp parallel for num_threads(threads) schedule(static) if (todo_shared)
        for (int i = 0; i < todo_n; i++)
            offer(&cbest[comp[todo[i]]], todo[i], bestc, bestv, todo_shared);
        /* Each component joins along its winner (an edge two components
         * chose joins them once); then every old root learns its new
         * root, and the cities their components'. */
        int old = components;
        for (int i = 0; i < old; i++) {
            int u = cbest[roots[i]], v = bestv[u];
            int ru = find_root(uf, comp[u]), rv = find_root(uf, comp[v]);
            if (ru == rv) continue; /* the other component chose the same edge */
            uf[rv] = ru;
            weight += bestc[u];
            deg[u]++;
            deg[v]++;
            nbr[u] = v;
            nbr[v] = u;
            if (ends) {
                size_t e = (size_t)(n - components); /* the tree's edges so far */
                ends[2 * e] = u;
                ends[2 * e + 1] = v;
            }
            components--;
        }
        int kept = 0;
        for (int i = 0; i < old; i++) {
            int r = roots[i];
            uf[r] = find_root(uf, r);
            if (uf[r] == r) roots[kept++] = r;
        }
#pragma omp parallel for num_threads(threads) schedule(static) if (shared)
        for (int u = 0; u < n; u++) comp[u] = uf[comp[u]];
    }
    int64_t special = INT64_MIN;
    for (int base = 0; base < n; base += POLL_CITIES) {
        int end = base + POLL_CITIES < n ? base + POLL_CITIES : n;
#pragma omp parallel for num_threads(threads) schedule(dynamic, 64) reduction(max : special)
        for (int i = base; i < end; i++) {
            int u = wt_kdtree_city_at(tree, i);
            if (deg[u] != 1) continue;
            int32_t b = -1;
            int64_t c = INT64_MAX;
            graph_bar(inst, pi, g, u, nbr[u], NULL, &b, &c);
            wt_kdtree_cheapest(tree, u, nbr[u], WT_ONETREE_SCALE, pi, node_min, NULL, NULL, &b,
                               &c);
            if (c + pi[u] > special) special = c + pi[u];
        }
        if (asked_stop(stop)) {
            *stopped = true;
            goto out;
        }
    }
    int64_t sum_pi = 0;
    for (int i = 0; i < n; i++) sum_pi += pi[i];
    *bound = weight + special - 2 * sum_pi;
out:
    wt_kdtree_free(tree);
    free(node_min);
    free(node_label);
    free(uf);
    free(comp);
    free(bestv);
    free(bestc);
    free(cbest);
    free(deg);
    free(nbr);
    free(todo);
    free(at);
    free(roots);
    free(exact);
    return st;
}

/* wt_onetree_complete_bound, and the tree's edges into ends where it is
 * not NULL. */
static wt_status complete_tree(const wt_instance *inst, const int32_t *pi, const wt_sgraph *g,
                               int threads, const wt_init_stop *stop, int64_t *bound,
                               int32_t *ends, bool *stopped, wt_error *err)
{
    if (!inst || !pi || !bound || !stopped)
        return wt_fail(err, WT_STATUS_INVALID_ARGUMENT, "wt_onetree_complete_bound: NULL argument");
    *stopped = false;
    if (!wt_onetree_complete_supported(inst))
        return wt_fail(err, WT_STATUS_UNSUPPORTED,
                       "%s: no exact complete-graph 1-tree for this type at %d cities",
                       inst->name, inst->n);
    wt_status st = check_range(inst, pi, err);
    if (st != WT_OK) return st;
    if (threads < 1) threads = 1;
    if (inst->type == WT_EXPLICIT || inst->n <= WT_ONETREE_DENSE_MAX)
        return dense_bound(inst, pi, stop, bound, ends, stopped, err);
    return kd_bound(inst, pi, g, threads, stop, bound, ends, stopped, err);
}

wt_status wt_onetree_complete_bound(const wt_instance *inst, const int32_t *pi,
                                    const wt_sgraph *g, int threads, const wt_init_stop *stop,
                                    int64_t *bound, bool *stopped, wt_error *err)
{
    return complete_tree(inst, pi, g, threads, stop, bound, NULL, stopped, err);
}

wt_status wt_onetree_complete_tree(const wt_instance *inst, const int32_t *pi,
                                   const wt_sgraph *g, int threads, const wt_init_stop *stop,
                                   int64_t *bound, int32_t *ends, bool *stopped, wt_error *err)
{
    if (!ends)
        return wt_fail(err, WT_STATUS_INVALID_ARGUMENT, "wt_onetree_complete_tree: NULL ends");
    return complete_tree(inst, pi, g, threads, stop, bound, ends, stopped, err);
}

wt_status wt_onetree_complete_kd(const wt_instance *inst, const int32_t *pi, const wt_sgraph *g,
                                 int threads, const wt_init_stop *stop, int64_t *bound,
                                 bool *stopped, wt_error *err)
{
    if (!inst || !pi || !bound || !stopped)
        return wt_fail(err, WT_STATUS_INVALID_ARGUMENT, "wt_onetree_complete_kd: NULL argument");
    *stopped = false;
    if (inst->n < 3 || !wt_kdtree_cheapest_supported(inst))
        return wt_fail(err, WT_STATUS_UNSUPPORTED, "%s: no k-d 1-tree for this instance",
                       inst->name);
    wt_status st = check_range(inst, pi, err);
    if (st != WT_OK) return st;
    return kd_bound(inst, pi, g, threads < 1 ? 1 : threads, stop, bound, NULL, stopped, err);
}
