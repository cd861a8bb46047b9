/*
 * onetree_boruvka.c - the sparse graph's minimum spanning tree by
 * Boruvka's rounds (Boruvka 1926; the GPU ascent's method, whose trees
 * this equals: backend/cuda/cuda_ascent.cu), on OpenMP threads.
 *
 * Each edge's key is (c_pi - min c_pi) << bits(m - 1) | e: comparing keys
 * is comparing (c_pi, edge index), the total order of onetree.h, and no
 * two edges tie.  A round:
 *   1. over the live edges (those that joined two components last round),
 *      drop the edges inside one component, and give each component the
 *      least key of its outgoing edges (a 64-bit compare-and-swap minimum:
 *      the minimum is the same whichever thread writes last);
 *   2. each component root hooks onto the component at the other end of
 *      its cheapest edge and adds that edge to the tree.  Under a total
 *      order the only cycles among these choices are two components that
 *      chose the same edge: of those the lower root stays a root and adds
 *      the edge, the higher hooks without adding it;
 *   3. each old root's label walks up the hooks to its new root (labels
 *      only move up, so a walk that reads a label another thread is
 *      rewriting still ends at the root), then every city takes its old
 *      root's new label.
 * Components at least halve each round, and the live edges shrink with
 * them: about log2 n rounds, the first over all m edges.  A round with no
 * outgoing edge left ends the forest (the graph is not connected).
 *
 * Stops: a first round over millions of edges takes longer than a stop
 * may wait, so the calling thread (thread 0 of the rounds' teams) polls
 * the stop every POLL_STRIDE items of each loop and raises a flag that
 * every thread reads at the same stride and at each loop's start.  A loop
 * that sees the flag does no more of its items, and the steps after it
 * none: a hook skipped leaves a root's link unset, and step 3 must not
 * walk it, so step 3 runs only where step 2 ran whole.
 */
#include "core/onetree_boruvka.h"

#include <omp.h>
#include <string.h>

enum {
    PARALLEL_MIN_EDGES = 1 << 14, /* fewer live edges and cities: one thread */
    PARALLEL_MIN_CITIES = 1 << 15,
    MAX_THREADS = 256, /* the rounds' threads at most: room for their counts on the stack */
    POLL_STRIDE = 1 << 13 /* a loop's items (edges, cities) between two polls of the stop:
                             well under a millisecond */
};

#define NO_EDGE UINT64_MAX /* a component with no outgoing edge (yet) */

static int bit_width(uint64_t v)
{
    int b = 0;
    for (; v; v >>= 1) b++;
    return b;
}

bool wt_onetree_boruvka_fits(int64_t m, int64_t key_range)
{
    return m >= 1 && m <= WT_ONETREE_MAX_EDGES && key_range >= 0 &&
           bit_width((uint64_t)key_range) + bit_width((uint64_t)(m - 1)) <= 63;
}

/* *x = min(*x, v); atomic where threads share x. */
static inline void min_into(uint64_t *x, uint64_t v, bool shared)
{
    if (!shared) {
        if (v < *x) *x = v;
        return;
    }
    uint64_t old = __atomic_load_n(x, __ATOMIC_RELAXED);
    while (v < old &&
           !__atomic_compare_exchange_n(x, &old, v, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
    }
}

/* The labels that threads read while others write them (step 3). */
static inline int32_t load_label(const int32_t *x, bool shared)
{
    return shared ? __atomic_load_n(x, __ATOMIC_RELAXED) : *x;
}

static inline void store_label(int32_t *x, int32_t v, bool shared)
{
    if (shared) __atomic_store_n(x, v, __ATOMIC_RELAXED);
    else *x = v;
}

/* The state of the rounds. */
typedef struct boruvka {
    const wt_sgraph *g;
    const int64_t *key; /* c_pi of every edge */
    int64_t kmin;
    int shift;          /* bits of an edge index in a packed key */
    uint64_t edge_mask;
    int32_t *comp;      /* n: each city's component root */
    int32_t *link;      /* n: at a root, the root it hooks onto, then its new root */
    uint64_t *cheapest; /* n: at a root, its outgoing edges' least packed key */
    int32_t *live, *kept; /* m each: the live edges; room for the next round's */
    bool listed;          /* live holds them; else they are edges 0 .. count */
    bool swap;            /* the round left them in kept */
    const wt_init_stop *stop; /* NULL: never */
    int halt;             /* stop asked: set by thread 0 only, read by all (atomic) */
} boruvka;

/* Whether the rounds are to end: thread 0 (me_polls) asks the stop first;
 * every thread reads the flag. */
static bool poll_halt(boruvka *b, bool me_polls)
{
    const wt_init_stop *stop = b->stop;
    if (me_polls && stop && stop->should_stop && stop->should_stop(stop->user))
        __atomic_store_n(&b->halt, 1, __ATOMIC_RELAXED);
    return __atomic_load_n(&b->halt, __ATOMIC_RELAXED) != 0;
}

/* poll_halt at every POLL_STRIDE-th item (i counts a thread's items). */
static inline bool halt_at(boruvka *b, int64_t i, int me)
{
    return (i & (POLL_STRIDE - 1)) == POLL_STRIDE - 1 && poll_halt(b, me == 0);
}

/* The flag as it stands (read after a barrier: the same for every thread). */
static inline bool halted(boruvka *b)
{
    return __atomic_load_n(&b->halt, __ATOMIC_RELAXED) != 0;
}

/* Step 1 on thread me of all over the live edges: b->live[0 .. *count),
 * or edges 0 .. *count while !b->listed; in round 1 (`singletons`) every
 * component is one city and every edge joins two.  Keeps the edges between
 * two components, in the same order, in b->live (b->listed from then on),
 * and gives the components their cheapest keys.  Each thread filters its
 * share in place; with more than one, the shares then go one after the
 * other into b->kept (place: all + 1 entries), which becomes b->live. */
static void cheapest_edges(boruvka *b, int64_t *count, bool singletons, int64_t *place, int me,
                           int all)
{
    const wt_sgraph *g = b->g;
    bool shared = all > 1;
    int64_t lo = *count * me / all, hi = *count * (me + 1) / all, w = lo;
    if (singletons) {
        for (int64_t e = lo; e < hi && !halt_at(b, e - lo, me); e++) {
            uint64_t k = (uint64_t)(b->key[e] - b->kmin) << b->shift | (uint64_t)e;
            min_into(&b->cheapest[g->eu[e]], k, shared);
            min_into(&b->cheapest[g->ev[e]], k, shared);
        }
#pragma omp barrier
        return; /* the minima final; all edges live, still unlisted */
    }
    for (int64_t i = lo; i < hi && !halt_at(b, i - lo, me); i++) {
        int32_t e = b->listed ? b->live[i] : (int32_t)i;
        int32_t ca = b->comp[g->eu[e]], cb = b->comp[g->ev[e]];
        if (ca == cb) continue;
        b->live[w++] = e; /* w <= i: the share's entries not yet read stay */
        uint64_t k = (uint64_t)(b->key[e] - b->kmin) << b->shift | (uint64_t)e;
        min_into(&b->cheapest[ca], k, shared);
        min_into(&b->cheapest[cb], k, shared);
    }
    place[me + 1] = w - lo;
#pragma omp barrier
#pragma omp single
    {
        place[0] = 0;
        for (int t = 0; t < all; t++) place[t + 1] += place[t];
        *count = place[all];
        b->listed = true;
    }
    if (!shared) return;
    /* the next step reads neither list: the caller swaps them after the round */
    memcpy(b->kept + place[me], b->live + lo, (size_t)(w - lo) * sizeof *b->live);
    if (me == 0) b->swap = true;
}

/* Step 2 for root r: its hook into link[r], its edge into the tree. */
static void hook(boruvka *b, wt_onetree *t, int32_t r, bool shared, int64_t *weight, int *added)
{
    const wt_sgraph *g = b->g;
    uint64_t k = b->cheapest[r];
    b->link[r] = r;
    if (k == NO_EDGE) return;
    int64_t e = (int64_t)(k & b->edge_mask);
    int32_t u = g->eu[e], v = g->ev[e], cu = b->comp[u];
    int32_t other = cu == r ? b->comp[v] : cu;
    bool mutual = b->cheapest[other] == k;
    if (!mutual || r < other) {
        t->in_tree[e] = 1; /* only r adds e: its ends lie in r and other alone */
        if (shared) {
            __atomic_fetch_add(&t->degree[u], 1, __ATOMIC_RELAXED);
            __atomic_fetch_add(&t->degree[v], 1, __ATOMIC_RELAXED);
        } else {
            t->degree[u]++;
            t->degree[v]++;
        }
        /* read only where the city has one tree edge: then one writer */
        store_label(&t->tree_edge[u], (int32_t)e, shared);
        store_label(&t->tree_edge[v], (int32_t)e, shared);
        *weight += b->key[e];
        (*added)++;
    }
    if (!mutual || r > other) b->link[r] = other;
}

/* Step 3's walk for old root r. */
static void find_root(boruvka *b, int32_t r, bool shared)
{
    int32_t x = load_label(&b->link[r], shared);
    for (int32_t up = load_label(&b->link[x], shared); up != x;
         up = load_label(&b->link[x], shared))
        x = up;
    store_label(&b->link[r], x, shared);
}

/* One round on up to `threads`: returns the tree edges it added (b->halt
 * set: the round was cut short, its outputs unusable).  Each loop starts
 * after a barrier (cheapest_edges ends with one, each omp for too), where
 * every thread reads the same flag. */
static int round_of(boruvka *b, wt_onetree *t, int64_t *count, bool singletons, int64_t *place,
                    int threads, int64_t *weight)
{
    int n = b->g->n, added = 0;
    int64_t w = 0;
    bool par = threads > 1 && (*count >= PARALLEL_MIN_EDGES || n >= PARALLEL_MIN_CITIES);
#pragma omp parallel num_threads(threads) if (par) reduction(+ : w, added)
    {
        int me = omp_get_thread_num(), all = omp_get_num_threads();
        bool shared = all > 1;
        cheapest_edges(b, count, singletons, place, me, all); /* the minima final: hook */
        bool skip = halted(b);
        int64_t seen = 0; /* this thread's items, for the polls' stride */
#pragma omp for schedule(static)
        for (int r = 0; r < n; r++) {
            if (skip || (skip = halt_at(b, seen++, me))) continue;
            if (b->comp[r] == r) hook(b, t, r, shared, &w, &added);
        }
        skip = halted(b); /* a hook skipped: no walk over its link */
#pragma omp for schedule(static)
        for (int r = 0; r < n; r++) {
            if (skip || (skip = halt_at(b, seen++, me))) continue;
            if (b->comp[r] == r) find_root(b, r, shared);
        }
        skip = halted(b);
#pragma omp for schedule(static) nowait
        for (int i = 0; i < n; i++) {
            if (skip || (skip = halt_at(b, seen++, me))) continue;
            int32_t c = b->link[b->comp[i]];
            b->comp[i] = c;
            if (c == i) b->cheapest[i] = NO_EDGE;
        }
    }
    if (b->swap) {
        int32_t *x = b->live;
        b->live = b->kept;
        b->kept = x;
        b->swap = false;
    }
    *weight += w;
    return added;
}

int wt_onetree_boruvka(const wt_sgraph *g, int64_t kmin, int threads, const wt_init_stop *stop,
                       wt_onetree *t, int64_t *weight, bool *stopped)
{
    *stopped = false;
    *weight = 0;
    int n = g->n;
    if (threads < 1) threads = 1;
    int shift = bit_width((uint64_t)(g->m > 0 ? g->m - 1 : 0));
    boruvka b = {
        .g = g,
        .key = t->key,
        .kmin = kmin,
        .shift = shift,
        .edge_mask = ((uint64_t)1 << shift) - 1,
        .comp = t->uf,
        .link = t->link,
        .cheapest = t->cheapest,
        .live = t->order, /* room for m (key, edge) pairs: for m indices */
        .kept = t->order_tmp,
        .listed = false,
        .stop = stop,
    };
    int64_t place[MAX_THREADS + 1];
    if (threads > MAX_THREADS) threads = MAX_THREADS;
    bool par = threads > 1 && (g->m >= PARALLEL_MIN_EDGES || n >= PARALLEL_MIN_CITIES);
#pragma omp parallel for num_threads(threads) schedule(static) if (par)
    for (int i = 0; i < n; i++) {
        b.comp[i] = i;
        b.cheapest[i] = NO_EDGE;
        t->degree[i] = 0;
    }
    memset(t->in_tree, 0, (size_t)g->m);
    int joined = 0;
    int64_t count = g->m;
    for (bool singletons = true; joined < n - 1 && count > 0; singletons = false) {
        int added = round_of(&b, t, &count, singletons, place, threads, weight);
        if (halted(&b)) { /* before the count: a round cut short adds few or none */
            *stopped = true;
            break;
        }
        if (added == 0) break; /* no component has an outgoing edge: not connected */
        joined += added;
        if (joined < n - 1 && poll_halt(&b, true)) {
            *stopped = true;
            break;
        }
    }
    return joined;
}
