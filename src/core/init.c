/*
 * init.c - start tours for the local search: random, nearest neighbour,
 * greedy (Multiple Fragment) and space-filling curve.
 *
 * Every method is a deterministic function of the instance and the seed, and
 * every one is fast enough for a million cities on one core: the geometric
 * questions go to a k-d tree (kdtree.h), sorting to an LSD radix sort.
 * Greedy, the default, also spreads its tree, its 10 n neighbour queries and
 * its sort over threads (wt_tour_init_threads), with the same result for
 * any thread count: at ten million cities it is the longest step before the
 * first GPU pass.
 *
 *  random     Fisher-Yates shuffle driven by wt_rng.
 *  nearest    From a city the seed picks, go to the nearest city not yet
 *             visited (k-d tree with deletion; ties to the lower city number
 *             among cities equally near in the tree's embedding).
 *  greedy     Multiple Fragment (Bentley 1992; the start tour of Rocki and
 *             Suda 2013): candidate edges are the 10 nearest neighbours of
 *             every city, taken in increasing exact TSPLIB length (ties by
 *             lower, then higher endpoint); an edge is kept when both ends
 *             still have degree < 2 and it closes no cycle (union-find).  The
 *             paths left over (and lone cities) are then chained exactly like
 *             a nearest-neighbour tour over path endpoints: walk a path, and
 *             from its far end jump to the nearest endpoint of a path not yet
 *             walked.  The seed picks only the first path.
 *  boruvka    Quick-Boruvka (Applegate, Cook & Rohe 2003, the start tour
 *             of their chained Lin-Kernighan): the cities in the k-d tree's
 *             leaf order, each of degree < 2 in turn joined to the nearest
 *             city that still can be (degree < 2, another path: the first
 *             such of its 10 nearest, else the nearest in a k-d tree of
 *             the cities of degree < 2), in rounds until the paths are
 *             one; a city that gained an edge in a round chooses no
 *             other before the next.  Searching beyond the 10 nearest
 *             matters: chaining the paths they leave as greedy's does gave
 *             a start from which linkern's first pass ended further from
 *             the optimum on pla85900 (bench/RESULTS.md, "Why greedy stays
 *             the start tour (LK)").
 *  spacefill  Cities in the order of their cell on a Hilbert curve laid over
 *             the bounding square of x and y, ties by city number.  EUC_3D
 *             uses x and y only (z is ignored), GEO uses its raw (latitude,
 *             longitude) as a plane, HAVERSINE its (longitude, latitude)
 *             degrees, EXPLICIT uses its DISPLAY_DATA when it
 *             has some and otherwise returns the identity order 0..n-1.
 *
 * EXPLICIT instances have no coordinates to index (n <= 46340), so nearest
 * and greedy use plain O(n^2) scans of the matrix there instead of the tree.
 *
 * Memory is O(n), except that greedy holds its 10 n candidate edges: about
 * 20 bytes per edge at the peak (neighbour lists, sort keys, sort scratch),
 * 200 MB for a million cities, released before the paths are chained.
 */
#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/init.h"
#include "core/instance.h"
#include "core/kdtree.h"
#include "core/rng.h"

/* Candidate neighbours per city for greedy. */
enum { GREEDY_K = 10 };

static const char *const method_names[] = {
    [WT_INIT_RANDOM] = "random",
    [WT_INIT_NEAREST] = "nearest",
    [WT_INIT_GREEDY] = "greedy",
    [WT_INIT_SPACEFILL] = "spacefill",
    [WT_INIT_BORUVKA] = "boruvka",
};
enum { N_METHODS = sizeof method_names / sizeof method_names[0] };

const char *wt_init_method_name(wt_init_method m)
{
    if ((unsigned)m >= N_METHODS) return "unknown";
    return method_names[m];
}

wt_status wt_init_method_parse(const char *name, wt_init_method *out)
{
    if (!name || !out) return WT_STATUS_INVALID_ARGUMENT;
    for (unsigned i = 0; i < N_METHODS; i++) {
        if (strcmp(name, method_names[i]) == 0) {
            *out = (wt_init_method)i;
            return WT_OK;
        }
    }
    return WT_STATUS_INVALID_ARGUMENT;
}

static wt_status out_of_memory(const wt_instance *inst, wt_init_method m, wt_error *err)
{
    return wt_fail(err, WT_STATUS_OUT_OF_MEMORY, "%s: out of memory building a %s start tour",
                   inst->name, method_names[m]);
}

/* Number of bits needed to write v (0 for 0). */
static int bit_width(uint64_t v)
{
    int b = 0;
    while (v) {
        b++;
        v >>= 1;
    }
    return b;
}

static bool stop_asked(const wt_init_stop *stop);

enum { RADIX_DIGIT = 11, RADIX_BUCKETS = 1 << RADIX_DIGIT };
enum { RADIX_PARALLEL_MIN = 1 << 20 }; /* fewer keys sort on one thread */

/* One pass of the radix sort over the digit at `shift`: the keys are cut
 * into one block per thread, each thread counts its block's digits into
 * count[t], and the slots are laid out bucket by bucket and, within a bucket,
 * block by block, so the scatter is stable and the same as one thread's.
 * Returns false (and moves nothing) when every key has the same digit. */
static bool radix_pass(const uint64_t *src, uint64_t *dst, size_t m, int shift, int threads,
                       size_t (*count)[RADIX_BUCKETS])
{
    bool moved = true;
#pragma omp parallel num_threads(threads)
    {
        int t = omp_get_thread_num(), team = omp_get_num_threads();
        size_t lo = m * (size_t)t / (size_t)team, hi = m * (size_t)(t + 1) / (size_t)team;
        size_t *mine = count[t];
        memset(mine, 0, sizeof count[t]);
        for (size_t i = lo; i < hi; i++) mine[(src[i] >> shift) & (RADIX_BUCKETS - 1)]++;
#pragma omp barrier
#pragma omp single
        {
            size_t sum = 0;
            for (int b = 0; b < RADIX_BUCKETS; b++) {
                size_t start = sum;
                for (int u = 0; u < team; u++) {
                    size_t c = count[u][b];
                    count[u][b] = sum;
                    sum += c;
                }
                if (sum - start == m) moved = false;
            }
        }
        if (moved)
            for (size_t i = lo; i < hi; i++)
                dst[mine[(src[i] >> shift) & (RADIX_BUCKETS - 1)]++] = src[i];
    }
    return moved;
}

/* Sorts keys[0..m) ascending by their bits from..bits-1 (higher bits must
 * be zero; lower ones are not looked at: keys equal in the sorted bits keep
 * their order).  LSD radix sort with 11-bit digits, which keeps a thread's
 * histogram in L1 cache; a pass whose digit is the same for every key is
 * skipped.  tmp is scratch space of m keys.  Up to `threads` threads (one
 * below RADIX_PARALLEL_MIN keys, or when the counts cannot be had); the
 * result does not depend on their number.  Polls stop before each pass and
 * returns false, the order lost, when stopped. */
static bool radix_sort(uint64_t *keys, uint64_t *tmp, size_t m, int from, int bits, int threads,
                       const wt_init_stop *stop)
{
    size_t one[1][RADIX_BUCKETS];
    size_t (*count)[RADIX_BUCKETS] = one;
    if (threads > 1 && m >= RADIX_PARALLEL_MIN) count = malloc((size_t)threads * sizeof *count);
    if (!count || count == one) {
        count = one;
        threads = 1;
    }
    uint64_t *src = keys, *dst = tmp;
    bool stopped = false;
    for (int shift = from; shift < bits && !stopped; shift += RADIX_DIGIT) {
        stopped = stop_asked(stop);
        if (stopped || !radix_pass(src, dst, m, shift, threads, count)) continue;
        uint64_t *t = src;
        src = dst;
        dst = t;
    }
    if (src != keys && !stopped) memcpy(keys, src, m * sizeof *keys);
    if (count != one) free(count);
    return !stopped;
}

/* ------------------------------------------------------------------ random */

static void init_random(int n, uint64_t seed, int32_t *tour)
{
    wt_rng rng;
    wt_rng_seed(&rng, seed);
    for (int i = 0; i < n; i++) tour[i] = i;
    for (int i = n - 1; i > 0; i--) {
        int j = (int)wt_rng_below(&rng, (uint64_t)i + 1);
        int32_t t = tour[i];
        tour[i] = tour[j];
        tour[j] = t;
    }
}

/* Whether the caller asked the builder to finish now (called from the
 * calling thread only). */
static bool stop_asked(const wt_init_stop *stop)
{
    return stop && stop->should_stop && stop->should_stop(stop->user);
}

/* ------------------------------------------------ the set of cities to reach */

/* Cities not yet reached while a tour is being chained together: a k-d tree
 * for coordinate instances, an unordered list scanned in full for EXPLICIT
 * ones (small by definition, and the matrix is all there is). */
typedef struct live_set {
    const wt_instance *inst;
    wt_kdtree *tree;  /* coordinate instances */
    int32_t *list;    /* EXPLICIT: the live cities, unordered */
    int32_t *slot;    /* EXPLICIT: index of a city in list, -1 when not live */
    int count;        /* EXPLICIT: live cities */
} live_set;

static void live_set_free(live_set *s)
{
    wt_kdtree_free(s->tree);
    free(s->list);
    free(s->slot);
}

/* A set of the m cities in cities[] (all n cities when cities is NULL); the
 * tree is built on up to `threads` threads (the same tree for any count). */
static wt_status live_set_init(live_set *s, const wt_instance *inst, const int32_t *cities,
                               int m, int threads, wt_error *err)
{
    memset(s, 0, sizeof *s);
    s->inst = inst;
    if (inst->type != WT_EXPLICIT)
        return wt_kdtree_create_threads(inst, cities, m, threads, &s->tree, err);
    s->list = malloc((size_t)m * sizeof *s->list);
    s->slot = malloc((size_t)inst->n * sizeof *s->slot);
    if (!s->list || !s->slot) {
        live_set_free(s);
        return WT_STATUS_OUT_OF_MEMORY;
    }
    for (int i = 0; i < inst->n; i++) s->slot[i] = -1;
    for (int i = 0; i < m; i++) {
        int c = cities ? cities[i] : i;
        s->list[i] = c;
        s->slot[c] = i;
    }
    s->count = m;
    return WT_OK;
}

static int live_set_count(const live_set *s)
{
    return s->tree ? wt_kdtree_live(s->tree) : s->count;
}

static void live_set_remove(live_set *s, int city)
{
    if (s->tree) {
        wt_kdtree_remove(s->tree, city);
        return;
    }
    int i = s->slot[city];
    if (i < 0) return;
    int last = s->list[--s->count];
    s->list[i] = last;
    s->slot[last] = i;
    s->slot[city] = -1;
}

/* Nearest live city to city (exact distance, then lower number); -1 if none. */
static int live_set_nearest(const live_set *s, int city)
{
    if (s->tree) return wt_kdtree_nearest(s->tree, city);
    int best = -1;
    int64_t best_d = 0;
    for (int i = 0; i < s->count; i++) {
        int c = s->list[i];
        if (c == city) continue;
        int64_t d = wt_dist(s->inst, city, c);
        if (best < 0 || d < best_d || (d == best_d && c < best)) {
            best = c;
            best_d = d;
        }
    }
    return best;
}

/* ------------------------------------------------------- chaining the paths */

/* How the matching numbered the cities: owner[q] the city at place q,
 * place[c] the place of city c; both NULL: by the cities' own numbers. */
typedef struct numbering {
    const int32_t *owner, *place;
} numbering;

static inline int place_of(const numbering *num, int city)
{
    return num->place ? num->place[city] : city;
}

static inline int city_of(const numbering *num, int place)
{
    return num->owner ? num->owner[place] : place;
}

/* Paths over the cities, as greedy matching leaves them: adj[2q] and
 * adj[2q+1] are the neighbours of the city at place q on its path (places
 * of num), -1 where it has none.  With adj NULL every city is a path of
 * its own: the nearest-neighbour tour. */
typedef struct paths {
    const int32_t *adj;
    numbering num;
    const int32_t *ends;      /* the endpoints, cities (NULL: all cities) */
    int n_ends;
    const int32_t *other_end; /* per endpoint, the far end of its path */
} paths;

/* Writes the path that starts at endpoint start into tour[k..]; returns the
 * new k. */
static int append_path(const paths *p, int start, int32_t *tour, int k)
{
    if (!p->adj) {
        tour[k] = start;
        return k + 1;
    }
    int prev = -1;
    for (int q = place_of(&p->num, start); q >= 0;) {
        tour[k++] = city_of(&p->num, q);
        int a0 = p->adj[2 * q], a1 = p->adj[2 * q + 1];
        int next = a0 != prev ? a0 : a1;
        prev = q;
        q = next;
    }
    return k;
}

/* Cities chained between two polls of the stop callback. */
enum { CHAIN_POLL = 1 << 16 };

static bool hilbert_order(const wt_instance *inst, const int32_t *cities, int m, int threads,
                          int32_t *out);

/* A stop came when k cities were chained.  Nearest (single-city paths)
 * appends the cities not reached (reached[] marks the others) in
 * Hilbert-curve order, or in city order when out of memory for the sort
 * (WT_INIT_CUT_CHAINED).  Greedy gives up, its tour unfinished
 * (WT_INIT_CUT_SPACEFILL): finishing a cut greedy tour took longer than
 * building the whole one, and the spacefill tour takes a fraction of that
 * (bench/RESULTS.md, "Why a time limit cuts greedy to the spacefill tour"). */
static void chain_cut(const wt_instance *inst, const paths *p, int threads,
                      const unsigned char *reached, int32_t *tour, int k, wt_init_cut *cut)
{
    if (p->adj) {
        *cut = WT_INIT_CUT_SPACEFILL;
        return;
    }
    int m = 0;
    for (int c = 0; c < inst->n; c++)
        if (!reached[c]) tour[k + m++] = c;
    (void)hilbert_order(inst, tour + k, m, threads, tour + k);
    *cut = WT_INIT_CUT_CHAINED;
}

/* Walks the paths into one tour: the first path is picked by the seed, each
 * next one is the path with the endpoint nearest to the current far end.
 * Polls stop before it starts and every CHAIN_POLL cities (chain_cut says
 * what a stop does). */
static wt_status chain_paths(const wt_instance *inst, const paths *p, uint64_t seed, int threads,
                             const wt_init_stop *stop, int32_t *tour, wt_init_cut *cut,
                             wt_error *err)
{
    bool track = stop && !p->adj; /* nearest's cities reached, for a cut */
    unsigned char *reached = track ? calloc((size_t)inst->n, 1) : NULL;
    if (track && !reached) return WT_STATUS_OUT_OF_MEMORY;
    if (stop_asked(stop)) { /* not even the tree */
        chain_cut(inst, p, threads, reached, tour, 0, cut);
        free(reached);
        return WT_OK;
    }
    live_set set;
    wt_status st = live_set_init(&set, inst, p->ends, p->n_ends, threads, err);
    if (st != WT_OK) {
        free(reached);
        return st;
    }
    wt_rng rng;
    wt_rng_seed(&rng, seed);
    int pick = (int)wt_rng_below(&rng, (uint64_t)p->n_ends);
    int cur = p->ends ? p->ends[pick] : pick;
    int k = 0, next_poll = CHAIN_POLL;
    for (;;) {
        int far = p->other_end ? p->other_end[cur] : cur;
        live_set_remove(&set, cur);
        live_set_remove(&set, far);
        if (reached) reached[cur] = 1;
        k = append_path(p, cur, tour, k);
        if (live_set_count(&set) == 0) break;
        if (k >= next_poll) {
            next_poll = k + CHAIN_POLL;
            if (stop_asked(stop)) {
                chain_cut(inst, p, threads, reached, tour, k, cut);
                break;
            }
        }
        cur = live_set_nearest(&set, far);
    }
    free(reached);
    live_set_free(&set);
    return WT_OK;
}

static wt_status init_nearest(const wt_instance *inst, uint64_t seed, int threads,
                              const wt_init_stop *stop, int32_t *tour, wt_init_cut *cut,
                              wt_error *err)
{
    paths p = {.adj = NULL, .ends = NULL, .n_ends = inst->n, .other_end = NULL};
    wt_status st = chain_paths(inst, &p, seed, threads, stop, tour, cut, err);
    if (st == WT_STATUS_OUT_OF_MEMORY) return out_of_memory(inst, WT_INIT_NEAREST, err);
    return st;
}

/* -------------------------------------------------- greedy: candidate edges */

/* k neighbours for each of n rows: row r belongs to city owner[r] and lists
 * its neighbours in nbr[r*k .. r*k+k-1], the exact lengths of those edges in
 * dist[r*k .. r*k+k-1].  dist is owned by the caller (it becomes the sort
 * keys, which saves computing every distance twice). */
typedef struct candidates {
    int n, k;
    int threads;
    int32_t *owner;
    int32_t *nbr;
    uint64_t *dist;
    int64_t max_d;  /* longest candidate edge */
    int64_t min_d;  /* shortest; only a malformed matrix makes it negative */
    const wt_init_stop *stop;
    int stopped;    /* the stop came while the rows were filled: they are not all */
} candidates;

static void candidates_free(candidates *c)
{
    free(c->owner);
    free(c->nbr);
}

/* Rows between two polls of the stop callback while the candidates are
 * found. */
enum { ROW_POLL = 4096 };

/* Rows in the tree's leaf order, so that consecutive queries touch the same
 * nodes and points and stay in cache; each thread takes a run of rows (the
 * queries only read the tree, and row r is the same whoever fills it). */
static wt_status fill_candidates_tree(const wt_instance *inst, candidates *c, wt_error *err)
{
    wt_kdtree *tree = NULL;
    /* The tree's build polls too: at a million cities it is a tenth of a
     * second before the first row. */
    wt_status st = wt_kdtree_create_until(inst, NULL, inst->n, c->threads, c->stop, &tree, err);
    if (st != WT_OK) return st;
    if (!tree) { /* stopped while built */
        c->stopped = 1;
        return WT_OK;
    }
    int64_t max_d = c->max_d;
#pragma omp parallel for num_threads(c->threads) schedule(static) reduction(max : max_d)
    for (int r = 0; r < c->n; r++) {
        if (r % ROW_POLL == 0 && c->stop) {
            /* The calling thread asks; every thread then skips its rows. */
            if (omp_get_thread_num() == 0 && stop_asked(c->stop)) {
#pragma omp atomic write
                c->stopped = 1;
            }
        }
        int stopped;
#pragma omp atomic read
        stopped = c->stopped;
        if (stopped) continue;
        double dist[GREEDY_K];
        int city = wt_kdtree_city_at(tree, r);
        size_t first = (size_t)r * (size_t)c->k;
        c->owner[r] = city;
        wt_kdtree_knn(tree, city, c->k, c->nbr + first, dist); /* finds k: n-1 >= k others */
        for (int j = 0; j < c->k; j++) {
            int64_t d = wt_dist(inst, city, c->nbr[first + j]);
            c->dist[first + j] = (uint64_t)d;
            if (d > max_d) max_d = d;
        }
    }
    c->max_d = max_d;
    wt_kdtree_free(tree);
    return WT_OK;
}

/* Inserts (d, b) into the sorted top-k list row/dist of which `have` are
 * filled; returns the new fill. */
static int top_k_insert(int32_t *row, int64_t *dist, int have, int k, int64_t d, int b)
{
    if (have == k && (d > dist[k - 1] || (d == dist[k - 1] && b > row[k - 1]))) return have;
    int i = have < k ? have++ : k - 1;
    while (i > 0 && (d < dist[i - 1] || (d == dist[i - 1] && b < row[i - 1]))) {
        row[i] = row[i - 1];
        dist[i] = dist[i - 1];
        i--;
    }
    row[i] = b;
    dist[i] = d;
    return have;
}

static void fill_candidates_matrix(const wt_instance *inst, candidates *c)
{
    int64_t dist[GREEDY_K];
    for (int a = 0; a < c->n; a++) {
        size_t first = (size_t)a * (size_t)c->k;
        int have = 0;
        c->owner[a] = a;
        for (int b = 0; b < c->n; b++) {
            if (b == a) continue;
            have = top_k_insert(c->nbr + first, dist, have, c->k, wt_dist(inst, a, b), b);
        }
        for (int j = 0; j < have; j++) {
            c->dist[first + (size_t)j] = (uint64_t)dist[j];
            if (dist[j] > c->max_d) c->max_d = dist[j];
            if (dist[j] < c->min_d) c->min_d = dist[j];
        }
    }
}

static wt_status candidates_build(const wt_instance *inst, int k, int threads,
                                  const wt_init_stop *stop, uint64_t *dist, candidates *c,
                                  wt_error *err)
{
    memset(c, 0, sizeof *c);
    c->stop = stop;
    c->n = inst->n;
    c->k = k;
    c->threads = threads;
    c->dist = dist;
    c->owner = malloc((size_t)c->n * sizeof *c->owner);
    c->nbr = malloc((size_t)c->n * (size_t)k * sizeof *c->nbr);
    if (!c->owner || !c->nbr) {
        candidates_free(c);
        return WT_STATUS_OUT_OF_MEMORY;
    }
    if (inst->type == WT_EXPLICIT) {
        fill_candidates_matrix(inst, c);
        return WT_OK;
    }
    wt_status st = fill_candidates_tree(inst, c, err);
    if (st != WT_OK) candidates_free(c);
    return st;
}

/* -------------------------------------------- greedy: edges in greedy order */

/* The sorted candidate edges come out as one uint64 per edge, lower endpoint
 * in the high 32 bits, higher endpoint in the low 32 bits. */
static inline uint64_t pack_pair(int a, int b) { return (uint64_t)a << 32 | (uint64_t)b; }

/* Sorts by (distance, lower end, higher end) packed into one integer key when
 * that fits 64 bits, which it does unless candidate edges are very long;
 * duplicates (edges found from both ends) become neighbours and are dropped.
 * The keys are built in place over c->dist. */
static size_t sort_edges_radix(const candidates *c, int id_bits, uint64_t *tmp,
                               const wt_init_stop *stop)
{
    size_t m = (size_t)c->n * (size_t)c->k;
    uint64_t *keys = c->dist;
    uint64_t id_mask = ((uint64_t)1 << id_bits) - 1;
#pragma omp parallel for num_threads(c->threads) schedule(static)
    for (size_t e = 0; e < m; e++) {
        int a = c->owner[e / (size_t)c->k], b = c->nbr[e];
        int lo = a < b ? a : b, hi = a < b ? b : a;
        keys[e] = keys[e] << (2 * id_bits) | (uint64_t)lo << id_bits | (uint64_t)hi;
    }
    int bits = bit_width((uint64_t)c->max_d) + 2 * id_bits;
    if (!radix_sort(keys, tmp, m, 0, bits, c->threads, stop)) return SIZE_MAX;
    size_t out = 0;
    uint64_t prev = 0;
    for (size_t e = 0; e < m; e++) {
        uint64_t key = keys[e]; /* the pairs overwrite the keys behind us */
        if (e > 0 && key == prev) continue;
        prev = key;
        keys[out++] = pack_pair((int)((key >> id_bits) & id_mask), (int)(key & id_mask));
    }
    return out;
}

typedef struct weighted_edge {
    int64_t d;
    int32_t lo, hi;
} weighted_edge;

static int compare_edges(const void *pa, const void *pb)
{
    const weighted_edge *a = pa, *b = pb;
    if (a->d != b->d) return a->d < b->d ? -1 : 1;
    if (a->lo != b->lo) return a->lo < b->lo ? -1 : 1;
    if (a->hi != b->hi) return a->hi < b->hi ? -1 : 1;
    return 0;
}

/* Edges sorted apart in one run (and merged between two polls) by
 * sort_edges_polled. */
enum { SORT_RUN = 1 << 16 };

/* Merges the sorted a[0..na) and b[0..nb) into out. */
static void merge_edges(const weighted_edge *a, size_t na, const weighted_edge *b, size_t nb,
                        weighted_edge *out)
{
    size_t i = 0, j = 0, o = 0;
    while (i < na && j < nb) out[o++] = compare_edges(&b[j], &a[i]) < 0 ? b[j++] : a[i++];
    while (i < na) out[o++] = a[i++];
    while (j < nb) out[o++] = b[j++];
}

/* Sorts edges[0..m) as qsort would (compare_edges is a total order and equal
 * records are identical, so every sort gives the same array), in a form that
 * can stop: runs of SORT_RUN edges are qsorted on the team, then merged
 * pairwise on the calling thread, which polls stop between its runs (a
 * static schedule: as many polls in every sort) and between merged blocks,
 * a few milliseconds apart (one qsort of ten million edges lasts seconds).
 * Returns false, the order lost, when stopped. */
static bool sort_edges_polled(weighted_edge *edges, weighted_edge *tmp, size_t m, int threads,
                              const wt_init_stop *stop)
{
    size_t runs = (m + SORT_RUN - 1) / SORT_RUN;
    int stopped = 0;
#pragma omp parallel for num_threads(threads) schedule(static)
    for (size_t r = 0; r < runs; r++) {
        if (__atomic_load_n(&stopped, __ATOMIC_RELAXED)) continue;
        if (omp_get_thread_num() == 0 && stop_asked(stop)) {
            __atomic_store_n(&stopped, 1, __ATOMIC_RELAXED);
            continue;
        }
        size_t lo = r * SORT_RUN, hi = lo + SORT_RUN < m ? lo + SORT_RUN : m;
        qsort(edges + lo, hi - lo, sizeof *edges, compare_edges);
    }
    if (stopped) return false;
    weighted_edge *src = edges, *dst = tmp;
    for (size_t w = SORT_RUN; w < m; w *= 2) {
        for (size_t lo = 0; lo < m; lo += 2 * w) {
            if (stop_asked(stop)) return false;
            size_t mid = lo + w < m ? lo + w : m, hi = lo + 2 * w < m ? lo + 2 * w : m;
            merge_edges(src + lo, mid - lo, src + mid, hi - mid, dst + lo);
        }
        weighted_edge *t = src;
        src = dst;
        dst = t;
    }
    if (src != edges) memcpy(edges, src, m * sizeof *edges);
    return true;
}

/* The same order when the key does not fit 64 bits (the real-valued points'
 * fixed-point lengths at a million cities): a sort of full records.  The
 * packed pairs are written over c->dist.  Returns SIZE_MAX when stopped. */
static size_t sort_edges_records(const candidates *c, weighted_edge *edges,
                                 weighted_edge *tmp, const wt_init_stop *stop)
{
    size_t m = (size_t)c->n * (size_t)c->k;
    uint64_t *keys = c->dist;
    for (size_t e = 0; e < m; e++) {
        int a = c->owner[e / (size_t)c->k], b = c->nbr[e];
        edges[e].d = (int64_t)c->dist[e];
        edges[e].lo = a < b ? a : b;
        edges[e].hi = a < b ? b : a;
    }
    if (!sort_edges_polled(edges, tmp, m, c->threads, stop)) return SIZE_MAX;
    size_t out = 0;
    for (size_t e = 0; e < m; e++) {
        if (e > 0 && compare_edges(&edges[e], &edges[e - 1]) == 0) continue;
        keys[out++] = pack_pair(edges[e].lo, edges[e].hi);
    }
    return out;
}

/* The distinct candidate edges in greedy order, as packed pairs in a new
 * array *pairs_out of *count_out entries; none (NULL, 0) when the stop came
 * while they were found.  *owner_out (NULL where not asked): a new array
 * of the candidates' rows' cities (the k-d tree's leaf order: cities near
 * each other in space are near each other in it), or NULL with none. */
static wt_status sorted_candidate_edges(const wt_instance *inst, int k, int threads,
                                        const wt_init_stop *stop, uint64_t **pairs_out,
                                        size_t *count_out, int32_t **owner_out, wt_error *err)
{
    size_t m = (size_t)inst->n * (size_t)k;
    uint64_t *keys = malloc(m * sizeof *keys);
    if (!keys) return WT_STATUS_OUT_OF_MEMORY;
    candidates c;
    wt_status st = candidates_build(inst, k, threads, stop, keys, &c, err);
    if (st != WT_OK) {
        free(keys);
        return st;
    }
    if (c.stopped) {
        free(keys);
        candidates_free(&c);
        *pairs_out = NULL;
        *count_out = 0;
        return WT_OK;
    }
    int id_bits = bit_width((uint64_t)(c.n - 1));
    bool fits = c.min_d >= 0 && bit_width((uint64_t)c.max_d) + 2 * id_bits <= 64;
    void *scratch = malloc(m * (fits ? sizeof(uint64_t) : 2 * sizeof(weighted_edge)));
    if (!scratch) {
        free(keys);
        candidates_free(&c);
        return WT_STATUS_OUT_OF_MEMORY;
    }
    size_t count = fits ? sort_edges_radix(&c, id_bits, scratch, stop)
                        : sort_edges_records(&c, scratch, (weighted_edge *)scratch + m, stop);
    free(scratch);
    if (owner_out) {
        *owner_out = c.owner;
        c.owner = NULL;
    }
    candidates_free(&c);
    if (count == SIZE_MAX) { /* stopped while sorted */
        free(keys);
        keys = NULL;
        count = 0;
    }
    *count_out = count;
    *pairs_out = keys;
    return WT_OK;
}

/* ------------------------------------------------------ greedy: matching */

static int uf_find(int32_t *parent, int x)
{
    while (parent[x] != x) {
        parent[x] = parent[parent[x]]; /* path halving */
        x = parent[x];
    }
    return x;
}

/* Joins the sets of roots ra != rb, union by rank. */
static void uf_union(int32_t *parent, uint8_t *rank, int ra, int rb)
{
    if (rank[ra] < rank[rb]) {
        parent[ra] = rb;
    } else {
        parent[rb] = ra;
        if (rank[ra] == rank[rb]) rank[ra]++;
    }
}

/* Paths under construction: adj holds each city's two neighbours (-1 =
 * none), the union-find which path it lies on. */
typedef struct forest {
    int32_t *adj, *parent;
    uint8_t *rank;
} forest;

/* n lone cities, into adj (2 n entries, the caller's). */
static bool forest_open(forest *f, int n, int32_t *adj)
{
    f->adj = adj;
    f->parent = malloc((size_t)n * sizeof *f->parent);
    f->rank = calloc((size_t)n, 1);
    if (!f->parent || !f->rank) {
        free(f->parent);
        free(f->rank);
        return false;
    }
    for (int i = 0; i < n; i++) f->parent[i] = i;
    for (size_t i = 0; i < 2 * (size_t)n; i++) adj[i] = -1;
    return true;
}

static void forest_close(forest *f)
{
    free(f->parent);
    free(f->rank);
}

/* Adds the edge (a b) when both ends have degree < 2 and lie on different
 * paths; whether it did. */
static bool join(forest *f, int a, int b)
{
    int32_t *adj = f->adj;
    if (adj[2 * a + 1] >= 0 || adj[2 * b + 1] >= 0) return false; /* degree 2 */
    int ra = uf_find(f->parent, a), rb = uf_find(f->parent, b);
    if (ra == rb) return false;
    uf_union(f->parent, f->rank, ra, rb);
    adj[2 * a + (adj[2 * a] >= 0)] = b;
    adj[2 * b + (adj[2 * b] >= 0)] = a;
    return true;
}

/* Edges matched between two polls of the stop callback. */
enum { EDGE_POLL = 1 << 20 };

/* Greedy matching of the sorted edges into paths.  A stop ends it early
 * (*stopped): the paths so far are still paths (degree <= 2, no cycle). */
static wt_status match_edges(int n, const uint64_t *pairs, size_t m, const wt_init_stop *stop,
                             int32_t *adj, bool *stopped)
{
    forest f;
    if (!forest_open(&f, n, adj)) return WT_STATUS_OUT_OF_MEMORY;
    int joined = 0;
    for (size_t e = 0; e < m && joined < n - 1; e++) {
        if (e % EDGE_POLL == 0 && e > 0 && stop_asked(stop)) {
            *stopped = true;
            break;
        }
        int a = (int)(pairs[e] >> 32), b = (int)(pairs[e] & 0xffffffffu);
        joined += join(&f, a, b);
    }
    forest_close(&f);
    return WT_OK;
}

/* The cities renumbered by place for the matching (owner[r]: the city at
 * place r) into place, and pairs (in place) with them.  With places near
 * each other for cities near each other (the k-d tree's leaf order), an
 * edge's two ends and their paths' records share cache lines, where the
 * instance's numbering may scatter them (a random layout: a miss or two
 * an end on millions of cities); the matching keeps the same edges, since
 * every join depends on degrees and on which path a city lies on, not on
 * the numbers. */
static void renumber_by_place(int n, uint64_t *pairs, size_t m, const int32_t *owner,
                              int threads, int32_t *place)
{
#pragma omp parallel num_threads(threads)
    {
#pragma omp for schedule(static)
        for (int r = 0; r < n; r++) place[owner[r]] = r;
#pragma omp for schedule(static)
        for (size_t e = 0; e < m; e++)
            pairs[e] = pack_pair(place[pairs[e] >> 32], place[pairs[e] & 0xffffffffu]);
    }
}

/* Lists the path endpoints (cities of degree < 2, a lone city once) and,
 * for each, the far end of its path; -1 when asked to stop (polled every
 * CHAIN_POLL cities: on large instances the walk is one of greedy's long
 * phases, bench/RESULTS.md, "Why a time limit cuts greedy to the spacefill
 * tour"). */
static int find_path_ends(int n, const int32_t *adj, const numbering *num,
                          const wt_init_stop *stop, int32_t *ends, int32_t *other_end)
{
    int n_ends = 0;
    for (int i = 0; i < n; i++) other_end[i] = -1;
    for (int c = 0; c < n; c++) {
        if (c % CHAIN_POLL == 0 && c > 0 && stop_asked(stop)) return -1;
        int q = place_of(num, c);
        if (adj[2 * q + 1] >= 0 || other_end[c] >= 0) continue;
        int prev = -1;
        for (;;) {
            int a0 = adj[2 * q], a1 = adj[2 * q + 1];
            int next = a0 != prev ? a0 : a1;
            if (next < 0) break;
            prev = q;
            q = next;
        }
        int x = city_of(num, q);
        other_end[c] = x;
        other_end[x] = c;
        ends[n_ends++] = c;
        if (x != c) ends[n_ends++] = x;
    }
    return n_ends;
}

static wt_status greedy_chain(const wt_instance *inst, const int32_t *adj, const numbering *num,
                              uint64_t seed, int threads, const wt_init_stop *stop, int32_t *tour,
                              wt_init_cut *cut, wt_error *err)
{
    int n = inst->n;
    int32_t *ends = malloc((size_t)n * sizeof *ends);
    int32_t *other_end = malloc((size_t)n * sizeof *other_end);
    if (!ends || !other_end) {
        free(ends);
        free(other_end);
        return WT_STATUS_OUT_OF_MEMORY;
    }
    paths p = {.adj = adj, .num = *num, .ends = ends, .other_end = other_end};
    p.n_ends = find_path_ends(n, adj, num, stop, ends, other_end);
    wt_status st = WT_OK;
    if (p.n_ends < 0) *cut = WT_INIT_CUT_SPACEFILL;
    else st = chain_paths(inst, &p, seed, threads, stop, tour, cut, err);
    free(ends);
    free(other_end);
    return st;
}

static wt_status init_spacefill(const wt_instance *inst, int threads, int32_t *tour,
                                wt_error *err);

/* The tour from the paths in adj (freed here; its places by num) that
 * `method` matched, st its status so far.  Stopped before the paths were all made: the
 * spacefill tour, a sort away (joining part-made paths gave longer tours).
 * Stopped later, greedy_chain gives up too (chain_paths says why). */
static wt_status tour_from_paths(const wt_instance *inst, wt_init_method method, int32_t *adj,
                                 const numbering *num, wt_status st, bool stopped, uint64_t seed,
                                 int threads, const wt_init_stop *stop, int32_t *tour,
                                 wt_init_cut *cut, wt_error *err)
{
    if (st == WT_OK && stopped) {
        free(adj);
        *cut = WT_INIT_CUT_SPACEFILL;
        return init_spacefill(inst, threads, tour, err);
    }
    if (st == WT_OK) st = greedy_chain(inst, adj, num, seed, threads, stop, tour, cut, err);
    free(adj);
    if (st == WT_OK && *cut == WT_INIT_CUT_SPACEFILL)
        return init_spacefill(inst, threads, tour, err);
    if (st == WT_STATUS_OUT_OF_MEMORY) return out_of_memory(inst, method, err);
    return st;
}

static wt_status init_greedy(const wt_instance *inst, uint64_t seed, int threads,
                             const wt_init_stop *stop, int32_t *tour, wt_init_cut *cut,
                             wt_error *err)
{
    int n = inst->n;
    int k = n - 1 < GREEDY_K ? n - 1 : GREEDY_K;
    uint64_t *pairs = NULL;
    int32_t *owner = NULL;
    size_t m = 0;
    int32_t *adj = malloc(2 * (size_t)n * sizeof *adj);
    wt_status st = adj ? WT_OK : WT_STATUS_OUT_OF_MEMORY;
    bool stopped = stop_asked(stop);
    if (st == WT_OK && k > 0 && !stopped) {
        st = sorted_candidate_edges(inst, k, threads, stop, &pairs, &m, &owner, err);
        if (st == WT_OK) stopped = !pairs || stop_asked(stop); /* none: cut while found */
    }
    int32_t *place = NULL; /* the matching's numbering: by place where owner came */
    if (st == WT_OK && !stopped && owner) {
        place = malloc((size_t)n * sizeof *place);
        if (place) renumber_by_place(n, pairs, m, owner, threads > 0 ? threads : 1, place);
        else st = WT_STATUS_OUT_OF_MEMORY;
    }
    if (st == WT_OK && !stopped) st = match_edges(n, pairs, m, stop, adj, &stopped);
    free(pairs);
    numbering num = {place ? owner : NULL, place};
    st = tour_from_paths(inst, WT_INIT_GREEDY, adj, &num, st, stopped, seed, threads, stop, tour,
                         cut, err);
    free(owner);
    free(place);
    return st;
}

wt_status wt_tour_init_greedy_pairs(const wt_instance *inst, const uint64_t *pairs, size_t m,
                                    uint64_t seed, int threads, const wt_init_stop *stop,
                                    int32_t *tour, wt_init_cut *cut, wt_error *err)
{
    int n = inst->n;
    wt_init_cut ignored;
    if (!cut) cut = &ignored;
    *cut = WT_INIT_WHOLE;
    for (size_t e = 0; e < m; e++)
        if ((pairs[e] >> 32) >= (uint64_t)n || (pairs[e] & 0xffffffffu) >= (uint64_t)n)
            return wt_fail(err, WT_STATUS_INVALID_ARGUMENT,
                           "greedy over given edges: edge %zu has a city out of range", e);
    int32_t *adj = malloc(2 * (size_t)n * sizeof *adj);
    wt_status st = adj ? WT_OK : WT_STATUS_OUT_OF_MEMORY;
    bool stopped = stop_asked(stop);
    if (st == WT_OK && !stopped) st = match_edges(n, pairs, m, stop, adj, &stopped);
    numbering by_city = {NULL, NULL};
    return tour_from_paths(inst, WT_INIT_GREEDY, adj, &by_city, st, stopped, seed, threads, stop,
                           tour, cut, err);
}

/* ----------------------------------------------------------- Quick-Boruvka */

/* The two nearest live cities to city (exact distance, then lower number),
 * into out[]; how many there are (0 to 2). */
static int live_set_nearest2(const live_set *s, int city, int32_t out[2])
{
    if (s->tree) {
        double d[2];
        return wt_kdtree_knn(s->tree, city, 2, out, d);
    }
    int have = 0;
    int64_t dist[2];
    for (int i = 0; i < s->count; i++) {
        int c = s->list[i];
        if (c != city) have = top_k_insert(out, dist, have, 2, wt_dist(s->inst, city, c), c);
    }
    return have;
}

/* Joins a to the nearest city that can still be joined: the first of its
 * candidate row that can, else the nearest of the live cities (those of
 * degree < 2) but its own path's other end.  Cities that reach degree 2
 * leave the live set.  The city a was joined to, or -1. */
static int boruvka_join(forest *f, live_set *live, const int32_t *row, int k, int a)
{
    int b = -1;
    for (int j = 0; j < k && b < 0; j++)
        if (join(f, a, row[j])) b = row[j];
    if (b < 0) {
        int32_t near[2];
        int got = live_set_nearest2(live, a, near);
        for (int j = 0; j < got && b < 0; j++)
            if (join(f, a, near[j])) b = near[j];
    }
    if (b < 0) return -1;
    if (f->adj[2 * a + 1] >= 0) live_set_remove(live, a);
    if (f->adj[2 * b + 1] >= 0) live_set_remove(live, b);
    return b;
}

/* Rounds over the candidate rows (in the order of rows[]; NULL: the tree's
 * leaf order): each city of degree < 2 joins the nearest city that can
 * still be joined (the live set answers where the row has none), until the
 * paths are one.  A city that
 * gained an edge in a round, chosen or choosing, makes no choice of its own
 * until the next round: paths then grow from many places at once rather
 * than as a walk along the leaf order (on pla85900 linkern's first pass
 * from such a start ends nearer the optimum: bench/RESULTS.md, "Why greedy
 * stays the start tour (LK)").
 * A stop ends it early (*stopped), the paths still paths. */
static wt_status boruvka_paths(const wt_instance *inst, const candidates *c,
                               const int32_t *rows, const wt_init_stop *stop, int threads,
                               int32_t *adj, bool *stopped, wt_error *err)
{
    int n = c->n;
    live_set live;
    wt_status st = live_set_init(&live, inst, NULL, n, threads, err);
    if (st != WT_OK) return st;
    forest f;
    int32_t *joined_in = malloc((size_t)n * sizeof *joined_in); /* round of a city's last edge */
    if (!joined_in || !forest_open(&f, n, adj)) {
        free(joined_in);
        live_set_free(&live);
        return WT_STATUS_OUT_OF_MEMORY;
    }
    for (int i = 0; i < n; i++) joined_in[i] = -1;
    int joined = 0, before = -1;
    for (int round = 0; joined < n - 1 && joined > before && !*stopped; round++) {
        before = joined;
        for (int i = 0; i < n && joined < n - 1; i++) {
            if (i % ROW_POLL == 0 && i > 0 && stop_asked(stop)) {
                *stopped = true;
                break;
            }
            int r = rows ? rows[i] : i, a = c->owner[r];
            if (adj[2 * a + 1] >= 0 || joined_in[a] == round) continue;
            int b = boruvka_join(&f, &live, c->nbr + (size_t)r * c->k, c->k, a);
            if (b >= 0) {
                joined_in[a] = joined_in[b] = round;
                joined++;
            }
        }
    }
    forest_close(&f);
    free(joined_in);
    live_set_free(&live);
    return WT_OK;
}

/* Sort key of a candidate row: its city's place along the sweep. */
typedef struct sweep_key {
    double along;
    int32_t city, row;
} sweep_key;

static int sweep_key_cmp(const void *a, const void *b)
{
    const sweep_key *x = a, *y = b;
    if (x->along != y->along) return x->along < y->along ? -1 : 1;
    return (x->city > y->city) - (x->city < y->city);
}

/* The candidate rows in the order of their cities' projections on the
 * direction at angle radians (ties by city number); NULL when out of
 * memory. */
static int32_t *sweep_rows(const wt_instance *inst, const candidates *c, double angle)
{
    int n = c->n;
    sweep_key *key = malloc((size_t)n * sizeof *key);
    int32_t *rows = malloc((size_t)n * sizeof *rows);
    if (key && rows) {
        double ux = cos(angle), uy = sin(angle);
        for (int r = 0; r < n; r++) {
            int32_t city = c->owner[r];
            key[r] = (sweep_key){ux * inst->x[city] + uy * inst->y[city], city, r};
        }
        qsort(key, (size_t)n, sizeof *key, sweep_key_cmp);
        for (int i = 0; i < n; i++) rows[i] = key[i].row;
    } else {
        free(rows);
        rows = NULL;
    }
    free(key);
    return rows;
}

/* Quick-Boruvka, its rounds in the tree's leaf order, or along the sweep
 * at angle when sweep. */
static wt_status init_boruvka(const wt_instance *inst, uint64_t seed, int threads, bool sweep,
                              double angle, const wt_init_stop *stop, int32_t *tour,
                              wt_init_cut *cut, wt_error *err)
{
    int n = inst->n;
    if (n < 3) return init_greedy(inst, seed, threads, stop, tour, cut, err); /* one tour */
    int k = n - 1 < GREEDY_K ? n - 1 : GREEDY_K;
    int32_t *adj = malloc(2 * (size_t)n * sizeof *adj);
    uint64_t *dist = malloc((size_t)n * (size_t)k * sizeof *dist);
    wt_status st = adj && dist ? WT_OK : WT_STATUS_OUT_OF_MEMORY;
    bool stopped = stop_asked(stop);
    candidates c;
    if (st == WT_OK && !stopped) {
        st = candidates_build(inst, k, threads, stop, dist, &c, err);
        if (st == WT_OK) {
            stopped = c.stopped || stop_asked(stop);
            int32_t *rows = sweep && !stopped ? sweep_rows(inst, &c, angle) : NULL;
            if (sweep && !stopped && !rows) st = WT_STATUS_OUT_OF_MEMORY;
            if (st == WT_OK && !stopped)
                st = boruvka_paths(inst, &c, rows, stop, threads, adj, &stopped, err);
            free(rows);
            candidates_free(&c);
        }
    }
    free(dist);
    numbering by_city = {NULL, NULL};
    return tour_from_paths(inst, WT_INIT_BORUVKA, adj, &by_city, st, stopped, seed, threads, stop,
                           tour, cut, err);
}

/* --------------------------------------------------------------- spacefill */

/* The Hilbert curve that fills a 2^order square (order <= 31), by the
 * classic bit-by-bit rotation algorithm: at each level from the top, the
 * quadrant (rx, ry) of the cell gives two digits of the position, (3 rx) ^ ry,
 * and where ry = 0 the lower levels are mirrored (rx = 1) and transposed.
 * The mirrors and transpositions met so far compose into one of four states
 * (transposed or not, mirrored or not), so four levels at a time are a look-up
 * in a table of 4 states x 256 cells of 4 levels, built once a sort (the
 * branches of the level-by-level loop mispredicted: most of the spacefill
 * tour's time).  A table entry holds the 8 digits and, from bit 8, the state
 * after them. */
enum { HILBERT_STATES = 4, HILBERT_CELLS4 = 256 };

static void hilbert_table(uint16_t table[HILBERT_STATES * HILBERT_CELLS4])
{
    for (unsigned state = 0; state < HILBERT_STATES; state++)
        for (unsigned v = 0; v < HILBERT_CELLS4; v++) {
            unsigned transposed = state & 1, mirrored = state >> 1, digits = 0;
            for (int level = 3; level >= 0; level--) {
                unsigned bx = (v >> (4 + level)) & 1, by = (v >> level) & 1;
                unsigned rx = (transposed ? by : bx) ^ mirrored;
                unsigned ry = (transposed ? bx : by) ^ mirrored;
                digits = digits << 2 | ((3 * rx) ^ ry);
                if (ry == 0) {
                    transposed ^= 1;
                    mirrored ^= rx;
                }
            }
            unsigned next = transposed | mirrored << 1;
            table[state * HILBERT_CELLS4 + v] = (uint16_t)(digits | next << 8);
        }
}

/* Position of cell (x, y) along the Hilbert curve of `order`.  The curve is
 * walked from a multiple of four levels: levels of zero bits above the top
 * add no digit and transpose once each, hence the start state. */
static uint64_t hilbert_index(const uint16_t *table, uint32_t x, uint32_t y, int order)
{
    int levels = (order + 3) & ~3;
    unsigned state = (unsigned)(levels - order) & 1;
    uint64_t d = 0;
    for (int shift = levels - 4; shift >= 0; shift -= 4) {
        unsigned v = ((x >> shift) & 15) << 4 | ((y >> shift) & 15);
        unsigned e = table[state * HILBERT_CELLS4 + v];
        d = d << 8 | (e & 255);
        state = e >> 8;
    }
    return d;
}

/* Maps v in [lo, lo + span] onto a cell 0..cells-1. */
static uint32_t grid_cell(double v, double lo, double scale, uint32_t cells)
{
    double g = (v - lo) * scale;
    if (!(g > 0.0)) return 0;
    if (g >= (double)(cells - 1)) return cells - 1;
    return (uint32_t)g;
}

/* Writes cities[0..m) (0..m-1 when cities is NULL) into out in the order of
 * their cells on the Hilbert curve, ties by city number; in the given order
 * when the instance has no coordinates.  false when out of memory. */
static bool hilbert_order(const wt_instance *inst, const int32_t *cities, int m, int threads,
                          int32_t *out)
{
    double lo[3], hi[3];
    if (!wt_instance_bbox(inst, lo, hi)) { /* EXPLICIT without DISPLAY_DATA */
        for (int i = 0; i < m; i++) out[i] = cities ? cities[i] : i;
        return true;
    }
    /* HAVERSINE: its degrees as a plane (longitude, latitude), as GEO's. */
    const double *px = inst->x, *py = inst->y;
    if (inst->type == WT_HAVERSINE) {
        px = inst->lon;
        py = inst->lat;
        lo[0] = hi[0] = px[0];
        lo[1] = hi[1] = py[0];
        for (int i = 1; i < inst->n; i++) {
            lo[0] = fmin(lo[0], px[i]), hi[0] = fmax(hi[0], px[i]);
            lo[1] = fmin(lo[1], py[i]), hi[1] = fmax(hi[1], py[i]);
        }
    }
    int id_bits = bit_width((uint64_t)(inst->n - 1));
    if (id_bits < 1) id_bits = 1;
    int order = (64 - id_bits) / 2 < 31 ? (64 - id_bits) / 2 : 31;
    uint32_t cells = (uint32_t)1 << order;
    double span = hi[0] - lo[0] > hi[1] - lo[1] ? hi[0] - lo[0] : hi[1] - lo[1];
    double scale = span > 0.0 ? (double)cells / span : 0.0; /* a square keeps the shape */
    uint64_t *keys = malloc((size_t)m * sizeof *keys);
    uint64_t *tmp = malloc((size_t)m * sizeof *tmp);
    if (!keys || !tmp) {
        free(keys);
        free(tmp);
        return false;
    }
    uint16_t table[HILBERT_STATES * HILBERT_CELLS4];
    hilbert_table(table);
    /* Cities given in ascending order (all of them, or the ones a cut
     * nearest tour did not reach) are in their ties' order already: the
     * stable sort then skips the city numbers' passes. */
    int from = id_bits;
    for (int i = 1; cities && i < m && from > 0; i++)
        if (cities[i] <= cities[i - 1]) from = 0;
#pragma omp parallel for num_threads(threads) schedule(static)
    for (int i = 0; i < m; i++) {
        int c = cities ? cities[i] : i;
        uint32_t gx = grid_cell(px[c], lo[0], scale, cells);
        uint32_t gy = grid_cell(py[c], lo[1], scale, cells);
        keys[i] = hilbert_index(table, gx, gy, order) << id_bits | (uint64_t)c;
    }
    radix_sort(keys, tmp, (size_t)m, from, 2 * order + id_bits, threads, NULL);
    uint64_t id_mask = ((uint64_t)1 << id_bits) - 1;
    for (int i = 0; i < m; i++) out[i] = (int32_t)(keys[i] & id_mask);
    free(keys);
    free(tmp);
    return true;
}

static wt_status init_spacefill(const wt_instance *inst, int threads, int32_t *tour,
                                wt_error *err)
{
    if (!hilbert_order(inst, NULL, inst->n, threads, tour))
        return out_of_memory(inst, WT_INIT_SPACEFILL, err);
    return WT_OK;
}

/* ------------------------------------------------------------------ entry */

wt_status wt_tour_init(const wt_instance *inst, wt_init_method method, uint64_t seed,
                       int32_t *tour, wt_error *err)
{
    return wt_tour_init_threads(inst, method, seed, 0, tour, err);
}

wt_status wt_tour_init_threads(const wt_instance *inst, wt_init_method method, uint64_t seed,
                               int threads, int32_t *tour, wt_error *err)
{
    return wt_tour_init_until(inst, method, seed, threads, NULL, tour, NULL, err);
}

wt_status wt_tour_init_until(const wt_instance *inst, wt_init_method method, uint64_t seed,
                             int threads, const wt_init_stop *stop, int32_t *tour, wt_init_cut *cut,
                             wt_error *err)
{
    wt_init_cut cut_here;
    if (!cut) cut = &cut_here;
    *cut = WT_INIT_WHOLE;
    if (!inst || !tour || inst->n < 1)
        return wt_fail(err, WT_STATUS_INVALID_ARGUMENT,
                       "wt_tour_init: need an instance and a tour");
    if (threads < 1) threads = omp_get_num_procs();
    switch (method) {
    case WT_INIT_RANDOM: init_random(inst->n, seed, tour); return WT_OK;
    case WT_INIT_NEAREST: return init_nearest(inst, seed, threads, stop, tour, cut, err);
    case WT_INIT_GREEDY: return init_greedy(inst, seed, threads, stop, tour, cut, err);
    case WT_INIT_SPACEFILL: return init_spacefill(inst, threads, tour, err);
    case WT_INIT_BORUVKA:
        return init_boruvka(inst, seed, threads, false, 0, stop, tour, cut, err);
    }
    return wt_fail(err, WT_STATUS_INVALID_ARGUMENT, "wt_tour_init: unknown method %d",
                   (int)method);
}

wt_status wt_tour_init_sweep(const wt_instance *inst, double angle, int threads,
                             const wt_init_stop *stop, int32_t *tour, wt_init_cut *cut,
                             wt_error *err)
{
    wt_init_cut cut_here;
    if (!cut) cut = &cut_here;
    *cut = WT_INIT_WHOLE;
    if (!inst || !tour || inst->n < 1 || inst->type == WT_EXPLICIT || !isfinite(angle))
        return wt_fail(err, WT_STATUS_INVALID_ARGUMENT, "wt_tour_init_sweep: need an instance "
                       "with coordinates, a tour and a finite angle");
    if (threads < 1) threads = omp_get_num_procs();
    return init_boruvka(inst, 1, threads, true, angle, stop, tour, cut, err);
}
