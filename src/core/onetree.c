/*
 * onetree.c - the sparse graph, its minimum 1-trees under penalties and
 * the alpha-nearness of its edges (onetree.h says what each computes).
 *
 * The minimum spanning tree is Kruskal's or Boruvka's (t->mst; the same
 * tree).  Kruskal: the edges, kept in (eu, ev) order, are sorted by c_pi
 * with a stable LSD radix sort (up to 16 bits a pass over c_pi - min c_pi,
 * as many passes as its range needs), so equal c_pi keep the (eu, ev)
 * order and the sort realises the total order of onetree.h; a union-find
 * (path halving, union by size) takes, on one thread, the edges that join
 * two components.  Boruvka (onetree_boruvka.c): rounds on all threads and
 * no sort, which pays where threads are many and the graph large: on one
 * thread it is the slower (bench ascent's "bench=ascent-tree" line times
 * both).  The special node is then the leaf whose
 * cheapest non-tree edge (its second cheapest: a leaf's tree edge is its
 * cheapest) is the dearest.
 *
 * Alpha: the tree is rooted at city 0 by a depth-first walk; binary
 * lifting tables, kept in the walk's preorder, hold each node's 2^j-th
 * ancestor and the dearest edge on the way to it, and the dearest edge on
 * the path between i and j is the larger of the two climbs to their
 * lowest common ancestor.
 */
#include "core/onetree.h"

#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/onetree_boruvka.h"

enum {
    RADIX_BITS = 16,
    POLL_EDGES = 1 << 16, /* Kruskal: edges between two polls */
    POLL_CITIES = 4096,   /* parallel loops: cities between two polls */
    RADIX_PARALLEL_MIN = 1 << 15 /* fewer pairs: one thread sorts them */
};

/* The largest scaled edge length an ascent takes: pi and the sums of n
 * c_pi then stay far inside int32 and int64. */

static bool asked_stop(const wt_init_stop *stop)
{
    return stop && stop->should_stop && stop->should_stop(stop->user);
}

/* ------------------------------------------------------------ radix sort */

typedef struct kv {
    uint64_t key;
    int64_t val;
} kv;

/* Stable LSD radix sort of a[0..m) by key, whose values are below
 * 2^bits, in as few passes of at most RADIX_BITS bits as bits needs
 * (equal widths); tmp has m entries.  Each of up to `threads` threads
 * counts the digits of its own contiguous share, and the digit-major,
 * share-minor sums of those counts place every share's keys after the
 * earlier shares' equal digits: the same stable order for any thread
 * count.  count: 2^RADIX_BITS entries a thread.  Returns the array that
 * holds the sorted pairs (a or tmp), or NULL when stop asked between two
 * passes. */
static kv *radix_sort(kv *a, kv *tmp, int64_t *count, int64_t m, int bits, int threads,
                      const wt_init_stop *stop)
{
    int passes = (bits + RADIX_BITS - 1) / RADIX_BITS;
    if (passes == 0) return a;
    int width = (bits + passes - 1) / passes;
    uint64_t mask = ((uint64_t)1 << width) - 1;
    if (threads < 1 || m < RADIX_PARALLEL_MIN) threads = 1;
    for (int pass = 0, shift = 0; pass < passes; pass++, shift += width) {
#pragma omp parallel num_threads(threads) if (threads > 1)
        {
            int me = omp_get_thread_num(), all = omp_get_num_threads();
            int64_t lo = m * me / all, hi = m * (me + 1) / all;
            int64_t *mine = count + (size_t)me * ((size_t)mask + 1);
            memset(mine, 0, ((size_t)mask + 1) * sizeof *mine);
            for (int64_t i = lo; i < hi; i++) mine[(a[i].key >> shift) & mask]++;
#pragma omp barrier
#pragma omp single
            {
                int64_t sum = 0;
                for (uint64_t d = 0; d <= mask; d++)
                    for (int t = 0; t < all; t++) {
                        int64_t *c = count + (size_t)t * ((size_t)mask + 1) + d;
                        int64_t here = *c;
                        *c = sum;
                        sum += here;
                    }
            }
            for (int64_t i = lo; i < hi; i++) tmp[mine[(a[i].key >> shift) & mask]++] = a[i];
        }
        kv *x = a;
        a = tmp;
        tmp = x;
        if (pass + 1 < passes && asked_stop(stop)) return NULL;
    }
    return a;
}

static int bits_of(uint64_t v)
{
    int b = 0;
    while (v) {
        b++;
        v >>= 1;
    }
    return b;
}

/* ----------------------------------------------------------------- graph */

void wt_sgraph_free(wt_sgraph *g)
{
    if (!g) return;
    free(g->eu);
    free(g->ev);
    free(g->d100);
    free(g->off);
    free(g->adj_city);
    free(g->adj_edge);
    memset(g, 0, sizeof *g);
}

/* The share [*lo, *hi) of [0, count) that thread me of all takes in the
 * two-pass compactions below (each thread counts its share, the counts'
 * sums place the shares in order: the output of one thread). */
static void share(int64_t count, int me, int all, int64_t *lo, int64_t *hi)
{
    *lo = count * me / all;
    *hi = count * (me + 1) / all;
}

/* Row i's entries before its first negative one. */
static int row_length(const int32_t *rows, int k, int i)
{
    int r = 0;
    while (r < k && rows[(size_t)i * (size_t)k + (size_t)r] >= 0) r++;
    return r;
}

/* The rows' edges as keys lo * n + hi, row by row, into pairs (n k room);
 * *m their count.  Returns the first entry (row-major) out of range, or
 * -1.  at: threads + 1 entries. */
static int64_t row_pairs(const int32_t *rows, int n, int k, int threads, int64_t *at, kv *pairs,
                         int64_t *m)
{
    int64_t bad = INT64_MAX;
    at[0] = 0;
    at[1] = 0;
#pragma omp parallel num_threads(threads) if ((int64_t)n * k > 65536) reduction(min : bad)
    {
        int me = omp_get_thread_num(), all = omp_get_num_threads();
        int64_t lo, hi;
        share(n, me, all, &lo, &hi);
        if (all > 1) { /* one thread writes from 0 at once */
            int64_t c = 0;
            for (int i = (int)lo; i < (int)hi; i++) {
                int len = row_length(rows, k, i);
                for (int r = 0; r < len; r++) {
                    int32_t j = rows[(size_t)i * (size_t)k + (size_t)r];
                    c += j != i && j < n;
                }
            }
            at[me + 1] = c;
#pragma omp barrier
#pragma omp single
            for (int t = 0; t < all; t++) at[t + 1] += at[t];
        }
        int64_t w = at[me];
        for (int i = (int)lo; i < (int)hi; i++) {
            int len = row_length(rows, k, i);
            for (int r = 0; r < len; r++) {
                int32_t j = rows[(size_t)i * (size_t)k + (size_t)r];
                if (j >= n && bad == INT64_MAX) bad = (int64_t)i * k + r;
                if (j == i || j >= n) continue;
                uint64_t a = (uint64_t)(i < j ? i : j), b = (uint64_t)(i < j ? j : i);
                pairs[w++] = (kv){a * (uint64_t)n + b, 0};
            }
        }
        if (me == all - 1) *m = w;
    }
    return bad == INT64_MAX ? -1 : bad;
}

/* The distinct keys of sorted[0..m) as edges {eu, ev} into g (room for m);
 * returns their count.  at: threads + 1 entries. */
static int64_t unique_edges(const kv *sorted, int64_t m, int n, int threads, int64_t *at,
                            wt_sgraph *g)
{
    int64_t count = 0;
    at[0] = 0;
#pragma omp parallel num_threads(threads) if (m > 65536)
    {
        int me = omp_get_thread_num(), all = omp_get_num_threads();
        int64_t lo, hi;
        share(m, me, all, &lo, &hi);
        if (all > 1) { /* one thread writes from 0 at once */
            int64_t c = 0;
            for (int64_t i = lo; i < hi; i++) c += i == 0 || sorted[i].key != sorted[i - 1].key;
            at[me + 1] = c;
#pragma omp barrier
#pragma omp single
            for (int t = 0; t < all; t++) at[t + 1] += at[t];
        }
        int64_t w = at[me];
        for (int64_t i = lo; i < hi; i++)
            if (i == 0 || sorted[i].key != sorted[i - 1].key) {
                g->eu[w] = (int32_t)(sorted[i].key / (uint64_t)n);
                g->ev[w++] = (int32_t)(sorted[i].key % (uint64_t)n);
            }
        if (me == all - 1) count = w;
    }
    return count;
}

/* *x + 1 into *x; returns the old *x; atomic where threads share x. */
static inline int64_t bump(int64_t *x, bool shared)
{
    return shared ? __atomic_fetch_add(x, 1, __ATOMIC_RELAXED) : (*x)++;
}

/* The CSR adjacency of g's edges: city a's list holds first its edges to
 * higher cities (e increasing: contiguous in the edge order), then those
 * to lower ones (e increasing).  Threads scatter the second parts in any
 * order, then each part is sorted by e: the same lists on any thread
 * count.  first: n + 1 entries, fill: n, scratch; g->off zeroed. */
static void adjacency(wt_sgraph *g, int threads, int64_t *first, int64_t *fill)
{
    int n = g->n;
    int64_t m = g->m;
    if (m <= 65536) threads = 1;
    bool shared = threads > 1; /* one thread: plain increments, cheaper than atomic ones */
    /* first[a]: a's first edge as the lower end (the edges are sorted by
     * it), from the places where eu changes; off: the lower ends' counts,
     * then the higher ends' added. */
#pragma omp parallel num_threads(threads) if (shared)
    {
#pragma omp for schedule(static)
        for (int64_t e = 0; e <= m; e++) {
            int from = e == 0 ? 0 : g->eu[e - 1] + 1, to = e == m ? n : g->eu[e];
            for (int a = from; a <= to; a++) first[a] = e;
        }
#pragma omp for schedule(static)
        for (int a = 0; a < n; a++) g->off[a + 1] = first[a + 1] - first[a];
#pragma omp for schedule(static)
        for (int64_t e = 0; e < m; e++) bump(&g->off[g->ev[e] + 1], shared);
    }
    for (int i = 0; i < n; i++) g->off[i + 1] += g->off[i];
#pragma omp parallel num_threads(threads) if (shared)
    {
#pragma omp for schedule(static)
        for (int a = 0; a < n; a++) {
            int64_t at = g->off[a];
            for (int64_t e = first[a]; e < first[a + 1]; e++, at++) {
                g->adj_city[at] = g->ev[e];
                g->adj_edge[at] = e;
            }
            fill[a] = at;
        }
#pragma omp for schedule(static)
        for (int64_t e = 0; e < m; e++) {
            int64_t at = bump(&fill[g->ev[e]], shared);
            g->adj_city[at] = g->eu[e];
            g->adj_edge[at] = e;
        }
#pragma omp for schedule(static)
        for (int b = 0; b < n; b++) { /* insertion sort: a part holds a few edges */
            int64_t lo = g->off[b] + (first[b + 1] - first[b]);
            for (int64_t x = lo + 1; x < g->off[b + 1]; x++) {
                int64_t e = g->adj_edge[x], y = x;
                int32_t c = g->adj_city[x];
                for (; y > lo && g->adj_edge[y - 1] > e; y--) {
                    g->adj_edge[y] = g->adj_edge[y - 1];
                    g->adj_city[y] = g->adj_city[y - 1];
                }
                g->adj_edge[y] = e;
                g->adj_city[y] = c;
            }
        }
    }
}

wt_status wt_sgraph_edges_fit(int64_t m, wt_error *err)
{
    if (m <= WT_ONETREE_MAX_EDGES) return WT_OK;
    return wt_fail(err, WT_STATUS_UNSUPPORTED, "ascent: a graph of %lld edges; its 1-trees "
                   "index edges in 32 bits, up to %lld edges", (long long)m,
                   (long long)WT_ONETREE_MAX_EDGES);
}

wt_status wt_sgraph_bad_row(const int32_t *rows, int k, int64_t bad, int n, wt_error *err)
{
    return wt_fail(err, WT_STATUS_INVALID_ARGUMENT, "ascent: graph row %d holds city %d of %d",
                   (int)(bad / k), (int)rows[bad], n);
}

wt_status wt_sgraph_too_long(const wt_instance *inst, int a, int b, wt_error *err)
{
    return wt_fail(err, WT_STATUS_UNSUPPORTED,
                   "ascent: the edge %d-%d is %lld long; the fixed-point penalties take "
                   "lengths up to %lld",
                   a, b, (long long)wt_dist(inst, a, b),
                   (long long)(WT_ONETREE_D100_MAX / WT_ONETREE_SCALE));
}

wt_status wt_sgraph_create(const wt_instance *inst, const int32_t *rows, int k, int threads,
                           const wt_init_stop *stop, wt_sgraph *g, bool *stopped,
                           wt_error *err)
{
    if (!inst || !rows || !g || !stopped)
        return wt_fail(err, WT_STATUS_INVALID_ARGUMENT, "wt_sgraph_create: NULL argument");
    memset(g, 0, sizeof *g);
    *stopped = false;
    int n = inst->n;
    if (k < 1) return wt_fail(err, WT_STATUS_INVALID_ARGUMENT, "ascent: graph_k %d < 1", k);
    if (threads < 1) threads = 1;
    int64_t cap = (int64_t)n * k, m = 0;
    size_t sn = (size_t)n;
    kv *pairs = malloc((size_t)(cap > 0 ? cap : 1) * sizeof *pairs);
    kv *tmp = malloc((size_t)(cap > 0 ? cap : 1) * sizeof *tmp);
    int64_t *count = malloc((size_t)threads * ((size_t)1 << RADIX_BITS) * sizeof *count);
    int64_t *at = malloc(((size_t)threads + 1) * sizeof *at);
    int64_t *first = malloc((sn + 1) * sizeof *first), *fill = malloc(sn * sizeof *fill);
    wt_status st = WT_OK;
    if (!pairs || !tmp || !count || !at || !first || !fill) {
        st = wt_fail(err, WT_STATUS_OUT_OF_MEMORY, "out of memory for a graph of %d cities", n);
        goto out;
    }
    int64_t bad = row_pairs(rows, n, k, threads, at, pairs, &m);
    if (bad >= 0) {
        st = wt_sgraph_bad_row(rows, k, bad, n, err);
        goto out;
    }
    if ((*stopped = asked_stop(stop))) goto out;
    kv *sorted =
        radix_sort(pairs, tmp, count, m, bits_of((uint64_t)n * (uint64_t)n), threads, stop);
    if ((*stopped = !sorted || asked_stop(stop))) goto out;
    size_t ms = (size_t)(m > 0 ? m : 1);
    g->n = n;
    g->eu = malloc(ms * sizeof *g->eu);
    g->ev = malloc(ms * sizeof *g->ev);
    if (!g->eu || !g->ev) {
        st = wt_fail(err, WT_STATUS_OUT_OF_MEMORY, "out of memory for a graph of %d cities", n);
        goto out;
    }
    m = g->m = unique_edges(sorted, m, n, threads, at, g);
    free(pairs);
    free(tmp);
    pairs = tmp = NULL;
    if ((st = wt_sgraph_edges_fit(m, err)) != WT_OK) goto out;
    if ((*stopped = asked_stop(stop))) goto out;
    ms = (size_t)(m > 0 ? m : 1);
    g->d100 = malloc(ms * sizeof *g->d100);
    g->off = calloc(sn + 1, sizeof *g->off);
    g->adj_city = malloc(2 * ms * sizeof *g->adj_city);
    g->adj_edge = malloc(2 * ms * sizeof *g->adj_edge);
    if (!g->d100 || !g->off || !g->adj_city || !g->adj_edge) {
        st = wt_fail(err, WT_STATUS_OUT_OF_MEMORY, "out of memory for a graph of %d cities", n);
        goto out;
    }
    int64_t too_long = INT64_MAX; /* the first edge too long, for the message */
#pragma omp parallel for num_threads(threads) schedule(static) if (m > 65536)              \
    reduction(min : too_long)
    for (int64_t e = 0; e < m; e++) {
        g->d100[e] = WT_ONETREE_SCALE * wt_dist(inst, g->eu[e], g->ev[e]);
        if ((g->d100[e] > WT_ONETREE_D100_MAX || g->d100[e] < 0) && e < too_long) too_long = e;
    }
    if (too_long < INT64_MAX) {
        st = wt_sgraph_too_long(inst, g->eu[too_long], g->ev[too_long], err);
        goto out;
    }
    if ((*stopped = asked_stop(stop))) goto out;
    adjacency(g, threads, first, fill);
out:
    if (st != WT_OK || *stopped) wt_sgraph_free(g);
    free(pairs);
    free(tmp);
    free(count);
    free(at);
    free(first);
    free(fill);
    return st;
}

/* ------------------------------------------------------------- 1-trees */

void wt_onetree_free(wt_onetree *t)
{
    if (!t) return;
    free(t->degree);
    free(t->in_tree);
    free(t->key);
    free(t->order);
    free(t->order_tmp);
    free(t->uf);
    free(t->link);
    free(t->cheapest);
    free(t->tree_edge);
    free(t->count);
    memset(t, 0, sizeof *t);
}

wt_status wt_onetree_alloc(const wt_sgraph *g, wt_onetree *t, wt_error *err)
{
    memset(t, 0, sizeof *t);
    wt_status st = wt_sgraph_edges_fit(g->m, err);
    if (st != WT_OK) return st;
    size_t n = (size_t)g->n, m = (size_t)(g->m > 0 ? g->m : 1);
    t->n = g->n;
    t->m = g->m;
    t->count_threads = 1;
    t->degree = malloc(n * sizeof *t->degree);
    t->in_tree = malloc(m);
    t->key = malloc(m * sizeof *t->key);
    t->order = malloc(m * sizeof(kv));
    t->order_tmp = malloc(m * sizeof(kv));
    t->uf = malloc(n * sizeof *t->uf);
    t->link = malloc(n * sizeof *t->link);
    t->cheapest = malloc(n * sizeof *t->cheapest);
    t->mst = WT_ONETREE_MST_AUTO;
    t->tree_edge = malloc(n * sizeof *t->tree_edge);
    t->count = malloc(((size_t)1 << RADIX_BITS) * sizeof *t->count);
    if (!t->count || !t->degree || !t->in_tree || !t->key || !t->order || !t->order_tmp || !t->uf ||
        !t->link || !t->cheapest || !t->tree_edge) {
        wt_onetree_free(t);
        return wt_fail(err, WT_STATUS_OUT_OF_MEMORY, "out of memory for 1-trees of %d cities",
                       g->n);
    }
    return WT_OK;
}

/* How many threads' digit counts t->count holds once grown for up to
 * `threads` (a sort with fewer threads gives the same order, so a failed
 * growth only costs time). */
static int count_room(wt_onetree *t, int threads)
{
    if (threads <= t->count_threads || t->m < RADIX_PARALLEL_MIN) return t->count_threads;
    int64_t *more = realloc(t->count, (size_t)threads * ((size_t)1 << RADIX_BITS) * sizeof *more);
    if (!more) return t->count_threads;
    t->count = more;
    t->count_threads = threads;
    return threads;
}

static int32_t uf_find(int32_t *uf, int32_t x)
{
    while (uf[x] >= 0 && uf[uf[x]] >= 0) {
        uf[x] = uf[uf[x]];
        x = uf[x];
    }
    return uf[x] >= 0 ? uf[x] : x;
}

/* A leaf and its second cheapest edge (city -1: none). */
typedef struct leaf_pick {
    int32_t city, to;
    int64_t cost, edge;
} leaf_pick;

/* Leaf u's cheapest edge besides its tree edge, by (c_pi, other city);
 * city -1 when it has none. */
static leaf_pick second_edge(const wt_sgraph *g, const wt_onetree *t, int u)
{
    leaf_pick p = {.city = -1, .to = -1, .edge = -1};
    int64_t te = t->tree_edge[u];
    for (int64_t x = g->off[u]; x < g->off[u + 1]; x++) {
        int64_t e = g->adj_edge[x];
        if (e == te) continue;
        int32_t v = g->adj_city[x];
        int64_t c = t->key[e];
        if (p.edge < 0 || c < p.cost || (c == p.cost && v < p.to)) p = (leaf_pick){u, v, c, e};
    }
    return p;
}

/* Keeps in *best the dearer of the two picks, the lower city on a tie:
 * the special node's rule, the same in any order of offers. */
static void leaf_offer(leaf_pick *best, leaf_pick p)
{
    if (p.city < 0) return;
    if (best->city < 0 || p.cost > best->cost || (p.cost == best->cost && p.city < best->city))
        *best = p;
}

/* Kruskal's spanning tree of g under the keys t->key (kmin, kmax their
 * least and largest) into t->in_tree, t->degree, t->tree_edge and
 * *weight: the edges by a stable radix sort, then one thread joins them.
 * Returns the tree's edge count; *stopped when stop asked. */
static int kruskal(const wt_sgraph *g, int64_t kmin, int64_t kmax, int threads,
                   const wt_init_stop *stop, wt_onetree *t, int64_t *weight, bool *stopped)
{
    int n = g->n;
    int64_t m = g->m;
    kv *a = t->order;
#pragma omp parallel for num_threads(threads) schedule(static) if (m > 100000)
    for (int64_t e = 0; e < m; e++) {
        a[e].key = (uint64_t)(t->key[e] - kmin);
        a[e].val = e;
    }
    if (asked_stop(stop)) {
        *stopped = true;
        return 0;
    }
    int sort_threads = count_room(t, threads); /* may move t->count: before reading it */
    a = radix_sort(a, t->order_tmp, t->count, m, bits_of((uint64_t)(kmax - kmin)), sort_threads,
                   stop);
    if (!a) {
        *stopped = true;
        return 0;
    }
    for (int i = 0; i < n; i++) {
        t->uf[i] = -1;
        t->degree[i] = 0;
    }
    memset(t->in_tree, 0, (size_t)m);
    int joined = 0;
    *weight = 0;
    for (int64_t i = 0; i < m && joined < n - 1; i++) {
        if ((i & (POLL_EDGES - 1)) == POLL_EDGES - 1 && asked_stop(stop)) {
            *stopped = true;
            return joined;
        }
        int64_t e = a[i].val;
        int32_t ru = uf_find(t->uf, g->eu[e]), rv = uf_find(t->uf, g->ev[e]);
        if (ru == rv) continue;
        if (t->uf[ru] > t->uf[rv]) { /* union by size: ru the larger */
            int32_t s = ru;
            ru = rv;
            rv = s;
        }
        t->uf[ru] += t->uf[rv];
        t->uf[rv] = ru;
        t->in_tree[e] = 1;
        t->degree[g->eu[e]]++;
        t->degree[g->ev[e]]++;
        t->tree_edge[g->eu[e]] = (int32_t)e;
        t->tree_edge[g->ev[e]] = (int32_t)e;
        *weight += t->key[e];
        joined++;
    }
    return joined;
}

/* Whether t->mst asks for Boruvka on g and `threads` (where its keys pack). */
static bool takes_boruvka(const wt_onetree *t, const wt_sgraph *g, int threads,
                          int64_t key_range)
{
    bool asked = t->mst == WT_ONETREE_MST_BORUVKA ||
                 (t->mst == WT_ONETREE_MST_AUTO && threads >= WT_ONETREE_BORUVKA_MIN_THREADS &&
                  g->m >= WT_ONETREE_BORUVKA_MIN_EDGES);
    return asked && wt_onetree_boruvka_fits(g->m, key_range);
}

wt_status wt_onetree_sparse(const wt_sgraph *g, const int32_t *pi, int threads,
                            const wt_init_stop *stop, wt_onetree *t, bool *stopped,
                            wt_error *err)
{
    *stopped = false;
    int n = g->n;
    int64_t m = g->m;
    if (threads < 1) threads = 1;
    int64_t kmin = INT64_MAX, kmax = INT64_MIN;
#pragma omp parallel for num_threads(threads) schedule(static) if (m > 100000)              \
    reduction(min : kmin) reduction(max : kmax)
    for (int64_t e = 0; e < m; e++) {
        int64_t c = g->d100[e] + pi[g->eu[e]] + pi[g->ev[e]];
        t->key[e] = c;
        if (c < kmin) kmin = c;
        if (c > kmax) kmax = c;
    }
    if (m == 0) kmin = kmax = 0;
    int64_t weight = 0;
    int joined = takes_boruvka(t, g, threads, kmax - kmin)
                     ? wt_onetree_boruvka(g, kmin, threads, stop, t, &weight, stopped)
                     : kruskal(g, kmin, kmax, threads, stop, t, &weight, stopped);
    if (*stopped) return WT_OK;
    if (joined < n - 1)
        return wt_fail(err, WT_STATUS_INVALID_ARGUMENT,
                       "ascent: the graph is not connected (%d components)", n - joined);
    /* The special node: over the leaves, the dearest second edge. */
    leaf_pick s = {.city = -1};
    for (int base = 0; base < n; base += 16 * POLL_CITIES) {
        int end = base + 16 * POLL_CITIES < n ? base + 16 * POLL_CITIES : n;
#pragma omp parallel num_threads(threads) if (end - base > POLL_CITIES)
        {
            leaf_pick mine = {.city = -1};
#pragma omp for schedule(static) nowait
            for (int u = base; u < end; u++)
                if (t->degree[u] == 1) leaf_offer(&mine, second_edge(g, t, u));
#pragma omp critical(wt_onetree_leaf)
            leaf_offer(&s, mine);
        }
        if (asked_stop(stop)) {
            *stopped = true;
            return WT_OK;
        }
    }
    if (s.city < 0)
        return wt_fail(err, WT_STATUS_INVALID_ARGUMENT,
                       "ascent: no leaf of the graph's spanning tree has a second edge");
    t->special = s.city;
    t->special_to = s.to;
    t->special_cost = s.cost;
    t->special_edge = s.edge;
    t->degree[s.city]++;
    t->degree[s.to]++;
    weight += s.cost;
    int64_t sum_pi = 0;
    for (int i = 0; i < n; i++) sum_pi += pi[i];
    t->weight = weight;
    t->bound = weight - 2 * sum_pi;
    return WT_OK;
}

/* ----------------------------------------------------------------- alpha */

wt_status wt_onetree_alpha(const wt_sgraph *g, const wt_onetree *t, int threads,
                           const wt_init_stop *stop, int64_t *alpha, bool *stopped,
                           wt_error *err)
{
    *stopped = false;
    int n = g->n;
    int64_t m = g->m;
    if (threads < 1) threads = 1;
    int levels = 1;
    while ((1 << levels) < n) levels++;
    size_t sn = (size_t)n;
    int32_t *parent = malloc(sn * sizeof *parent), *depth = malloc(sn * sizeof *depth);
    int32_t *queue = malloc(sn * sizeof *queue), *place = malloc(sn * sizeof *place);
    int32_t *pdepth = malloc(sn * sizeof *pdepth);
    int64_t *key_up = malloc(sn * sizeof *key_up);
    int64_t *toff = calloc(sn + 1, sizeof *toff);
    int32_t *tadj = malloc(2 * sn * sizeof *tadj);
    int64_t *tkey = malloc(2 * sn * sizeof *tkey);
    int32_t *up = malloc((size_t)levels * sn * sizeof *up);
    int64_t *mx = malloc((size_t)levels * sn * sizeof *mx);
    wt_status st = WT_OK;
    if (!parent || !depth || !queue || !place || !pdepth || !key_up || !toff || !tadj || !tkey ||
        !up || !mx) {
        st = wt_fail(err, WT_STATUS_OUT_OF_MEMORY, "out of memory for alpha-values of %d cities",
                     n);
        goto out;
    }
    /* The tree's adjacency, then a breadth-first walk from city 0. */
    for (int64_t e = 0; e < m; e++) {
        if (!t->in_tree[e]) continue;
        toff[g->eu[e] + 1]++;
        toff[g->ev[e] + 1]++;
    }
    for (int i = 0; i < n; i++) toff[i + 1] += toff[i];
    for (int64_t e = 0; e < m; e++) {
        if (!t->in_tree[e]) continue;
        int a = g->eu[e], b = g->ev[e];
        tadj[toff[a]] = b;
        tkey[toff[a]++] = t->key[e];
        tadj[toff[b]] = a;
        tkey[toff[b]++] = t->key[e];
    }
    for (int i = n; i > 0; i--) toff[i] = toff[i - 1];
    toff[0] = 0;
    /* Depth-first from city 0 (queue: the stack); a city's place is its
     * rank in preorder, and the lifting tables are kept by place: a climb
     * mostly goes a few steps up one of the tree's long chains, whose
     * cities then sit at nearby places. */
    for (int i = 0; i < n; i++) parent[i] = -2;
    int top = 0, next = 0;
    queue[top++] = 0;
    parent[0] = 0;
    depth[0] = 0;
    key_up[0] = INT64_MIN;
    while (top > 0) {
        int u = queue[--top];
        place[u] = next++;
        for (int64_t x = toff[u]; x < toff[u + 1]; x++) {
            int v = tadj[x];
            if (parent[v] != -2) continue;
            parent[v] = u;
            depth[v] = depth[u] + 1;
            key_up[v] = tkey[x];
            queue[top++] = v;
        }
    }
#pragma omp parallel for num_threads(threads) schedule(static) if (n > 50000)
    for (int v = 0; v < n; v++) {
        int32_t p = place[v];
        up[p] = place[parent[v]];
        mx[p] = key_up[v];
        pdepth[p] = depth[v];
    }
    if (asked_stop(stop)) {
        *stopped = true;
        goto out;
    }
    for (int j = 1; j < levels; j++) {
        const int32_t *up0 = up + (size_t)(j - 1) * sn;
        const int64_t *mx0 = mx + (size_t)(j - 1) * sn;
        int32_t *up1 = up + (size_t)j * sn;
        int64_t *mx1 = mx + (size_t)j * sn;
#pragma omp parallel for num_threads(threads) schedule(static) if (n > 50000)
        for (int v = 0; v < n; v++) {
            int32_t mid = up0[v];
            up1[v] = up0[mid];
            mx1[v] = mx0[v] > mx0[mid] ? mx0[v] : mx0[mid];
        }
    }
    for (int64_t base = 0; base < m; base += 16 * POLL_CITIES) {
        int64_t end = base + 16 * POLL_CITIES < m ? base + 16 * POLL_CITIES : m;
#pragma omp parallel for num_threads(threads) schedule(static) if (end - base > 8192)
        for (int64_t e = base; e < end; e++) {
            int a = g->eu[e], b = g->ev[e];
            int64_t c = t->key[e];
            if (t->in_tree[e] || e == t->special_edge) {
                alpha[e] = 0;
            } else if (a == t->special || b == t->special) {
                alpha[e] = c - t->special_cost;
            } else {
                int64_t best = INT64_MIN;
                a = place[a];
                b = place[b];
                if (pdepth[a] < pdepth[b]) {
                    int s = a;
                    a = b;
                    b = s;
                }
                int diff = pdepth[a] - pdepth[b];
                for (int j = 0; diff; j++, diff >>= 1) {
                    if (!(diff & 1)) continue;
                    size_t at = (size_t)j * sn + (size_t)a;
                    if (mx[at] > best) best = mx[at];
                    a = up[at];
                }
                if (a != b) {
                    for (int j = levels - 1; j >= 0; j--) {
                        size_t pa = (size_t)j * sn + (size_t)a, pb = (size_t)j * sn + (size_t)b;
                        if (up[pa] == up[pb]) continue;
                        if (mx[pa] > best) best = mx[pa];
                        if (mx[pb] > best) best = mx[pb];
                        a = up[pa];
                        b = up[pb];
                    }
                    if (mx[a] > best) best = mx[a];
                    if (mx[b] > best) best = mx[b];
                }
                alpha[e] = c - best;
            }
        }
        if (asked_stop(stop)) {
            *stopped = true;
            goto out;
        }
    }
out:
    free(parent);
    free(depth);
    free(queue);
    free(place);
    free(pdepth);
    free(key_up);
    free(toff);
    free(tadj);
    free(tkey);
    free(up);
    free(mx);
    return st;
}
