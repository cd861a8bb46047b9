/*
 * kdtree.c - the k-d tree of kdtree.h: build by median split, k-nearest and
 * nearest-live queries, removal.
 *
 * Layout.  The m points are copied, with their embedded coordinates, into one
 * array that the build reorders in place; a node owns a contiguous range
 * [lo, hi) of it.  Nodes are numbered like a binary heap (root 1, children 2i
 * and 2i+1) and a node's range follows from its number alone: the root owns
 * [0, m) and a node splits its range at mid = lo + (hi - lo) / 2.  A node whose
 * range holds at most KD_BUCKET points is a leaf.  So the tree needs no child
 * pointers and no per-node allocation: one array of points, one of nodes, one
 * map from city to position.
 *
 * Build.  Each node takes the tight bounding box of its points, splits along
 * its widest side, and moves the median point (by coordinate, then by city
 * number, a strict total order even for duplicate points) to mid with a
 * quickselect.  Every level costs O(m), so the build is O(m log m).
 *
 * Queries search subtrees depth-first, nearer child first, and prune a
 * subtree when it holds no live point or when its box is farther than the
 * current answer.  A query from a point of the tree (the usual case) starts
 * at that point's leaf and climbs, searching the subtree beside each ancestor,
 * and stops as soon as the ball holding the answer fits inside an ancestor's
 * box (Bentley's bottom-up search); other queries start at the root.
 * A box exactly as far as the current answer is still visited if it may hold
 * a lower city number (each node knows its lowest one), which keeps answers
 * exact under the "lower city wins ties" rule without visiting the whole tree
 * when many points coincide.  Box distances are computed with the same
 * rounded operations as point distances, and those are monotone, so pruning
 * never drops a point that would win.
 */
#include "core/kdtree.h"

#include <math.h>
#include <omp.h>
#include <stdlib.h>

#include "core/error.h"

enum { KD_BUCKET = 8 };

typedef enum kd_metric { KD_L2SQ = 0, KD_L1, KD_LINF } kd_metric;

typedef struct kd_point {
    double c[3];   /* embedded coordinates; c[2] = 0 for planar types */
    int32_t city;
    int32_t live;  /* 1 until removed */
} kd_point;

typedef struct kd_node {
    double lo[3], hi[3]; /* tight bounding box of all its points, live or not */
    int32_t live;        /* live points below this node */
    int32_t min_city;    /* lowest city number below this node */
} kd_node;

struct wt_kdtree {
    const wt_instance *inst;
    kd_metric metric;
    int dims;         /* 2, or 3 for EUC_3D and GEO */
    int m;            /* points */
    kd_point *pts;    /* m points in leaf order */
    kd_node *nodes;   /* indexed 1..n_nodes-1 (heap numbering) */
    size_t n_nodes;
    int32_t *pos;     /* inst->n entries: position of a city in pts, or -1 */
    const wt_init_stop *stop; /* during the build: polled, NULL: never stops */
    int stopped;      /* during the build: the stop came (read and set atomically) */
};

/* ---------------------------------------------------------------- metric */

static kd_metric metric_of(wt_edge_weight_type type)
{
    switch (type) {
    case WT_MAN_2D: return KD_L1;
    case WT_MAX_2D: return KD_LINF;
    default: return KD_L2SQ;
    }
}

/* Writes the embedded coordinates of city into c[3]. */
static void embed_city(const wt_instance *inst, int city, double c[3])
{
    switch (inst->type) {
    case WT_GEO: {
        double clat = cos(inst->lat[city]);
        c[0] = clat * cos(inst->lon[city]);
        c[1] = clat * sin(inst->lon[city]);
        c[2] = sin(inst->lat[city]);
        return;
    }
    case WT_EUC_3D:
    case WT_HAVERSINE: /* its unit vectors: the chord orders as the great circle */
        c[0] = inst->x[city];
        c[1] = inst->y[city];
        c[2] = inst->z[city];
        return;
    default:
        c[0] = inst->x[city];
        c[1] = inst->y[city];
        c[2] = 0.0;
        return;
    }
}

/* Combines per-axis differences (or box gaps) into the embedding distance. */
static inline double combine(kd_metric metric, double dx, double dy, double dz)
{
    if (metric == KD_L2SQ) return dx * dx + dy * dy + dz * dz;
    dx = fabs(dx);
    dy = fabs(dy);
    dz = fabs(dz);
    if (metric == KD_L1) return dx + dy + dz;
    double m = dx > dy ? dx : dy;
    return m > dz ? m : dz;
}

static inline double point_dist(kd_metric metric, const double *q, const double *p)
{
    return combine(metric, q[0] - p[0], q[1] - p[1], q[2] - p[2]);
}

/* Gap between q and [lo, hi] along one axis; 0 inside. */
static inline double axis_gap(double q, double lo, double hi)
{
    if (q < lo) return lo - q;
    if (q > hi) return q - hi;
    return 0.0;
}

/* Lower bound on the distance from q to any point in the node's box. */
static inline double box_dist(kd_metric metric, const kd_node *nd, const double *q)
{
    return combine(metric, axis_gap(q[0], nd->lo[0], nd->hi[0]),
                   axis_gap(q[1], nd->lo[1], nd->hi[1]), axis_gap(q[2], nd->lo[2], nd->hi[2]));
}

/* ----------------------------------------------------------------- build */

static inline bool point_less(const kd_point *a, const kd_point *b, int axis)
{
    return a->c[axis] < b->c[axis] || (a->c[axis] == b->c[axis] && a->city < b->city);
}

static const kd_point *median_of_three(const kd_point *a, const kd_point *b, const kd_point *c,
                                       int axis)
{
    if (point_less(a, b, axis)) {
        if (point_less(b, c, axis)) return b;
        return point_less(a, c, axis) ? c : a;
    }
    if (point_less(a, c, axis)) return a;
    return point_less(b, c, axis) ? c : b;
}

/* Reorders p[0..n) so that p[k] is the element of rank k along axis, smaller
 * ones before it and larger ones after (Hoare's FIND with a median-of-three
 * pivot; the keys are distinct, so the partition always shrinks). */
static void select_rank(kd_point *p, ptrdiff_t n, ptrdiff_t k, int axis)
{
    ptrdiff_t lo = 0, hi = n - 1;
    while (lo < hi) {
        kd_point pivot = *median_of_three(&p[lo], &p[lo + (hi - lo) / 2], &p[hi], axis);
        ptrdiff_t i = lo, j = hi;
        while (i <= j) {
            while (point_less(&p[i], &pivot, axis)) i++;
            while (point_less(&pivot, &p[j], axis)) j--;
            if (i <= j) {
                kd_point t = p[i];
                p[i] = p[j];
                p[j] = t;
                i++;
                j--;
            }
        }
        if (j < k) lo = i;
        if (k < i) hi = j;
    }
}

/* Fills the node's box, live count and lowest city from its points. */
static void summarize_node(kd_node *nd, const kd_point *p, int count)
{
    for (int a = 0; a < 3; a++) nd->lo[a] = nd->hi[a] = p[0].c[a];
    nd->min_city = p[0].city;
    for (int i = 1; i < count; i++) {
        for (int a = 0; a < 3; a++) {
            if (p[i].c[a] < nd->lo[a]) nd->lo[a] = p[i].c[a];
            if (p[i].c[a] > nd->hi[a]) nd->hi[a] = p[i].c[a];
        }
        if (p[i].city < nd->min_city) nd->min_city = p[i].city;
    }
    nd->live = count;
}

static int widest_axis(const kd_node *nd)
{
    int best = 0;
    for (int a = 1; a < 3; a++)
        if (nd->hi[a] - nd->lo[a] > nd->hi[best] - nd->lo[best]) best = a;
    return best;
}

/* Subtrees of at least this many points are built as OpenMP tasks of their
 * own: the two halves of a node touch disjoint points and nodes, and each is
 * the same whichever thread builds it, so the tree does not depend on the
 * thread count.  Smaller ones stay with their parent's thread (a task costs
 * more than a small subtree). */
enum { KD_TASK_MIN = 1 << 15 };

/* Nodes of at least this many points look at the stop: at most 2 m / 4096
 * looks, and between two of them the calling thread does at most a few
 * milliseconds of work (a node's select and the small subtrees below it),
 * besides the root's select, which is one pass of quickselect over all m
 * points (tens of milliseconds at a million). */
enum { KD_POLL_MIN = 1 << 12 };

/* Whether the build should end: once the stop came; the calling thread
 * (thread 0 of the team: the stop is polled from it alone, as init.h
 * promises) asks at the nodes of KD_POLL_MIN points and more. */
static bool build_stopping(wt_kdtree *t, int count)
{
    if (!t->stop) return false;
    if (__atomic_load_n(&t->stopped, __ATOMIC_RELAXED)) return true;
    if (count < KD_POLL_MIN || omp_get_thread_num() != 0) return false;
    if (!t->stop->should_stop(t->stop->user)) return false;
    __atomic_store_n(&t->stopped, 1, __ATOMIC_RELAXED);
    return true;
}

static void build_node(wt_kdtree *t, size_t node, int lo, int hi)
{
    if (build_stopping(t, hi - lo)) return; /* the tree is thrown away */
    kd_node *nd = &t->nodes[node];
    summarize_node(nd, t->pts + lo, hi - lo);
    if (hi - lo <= KD_BUCKET) return;
    int mid = lo + (hi - lo) / 2;
    select_rank(t->pts + lo, hi - lo, mid - lo, widest_axis(nd));
    if (hi - lo >= KD_TASK_MIN) {
#pragma omp task
        build_node(t, 2 * node, lo, mid);
#pragma omp task
        build_node(t, 2 * node + 1, mid, hi);
        return; /* the team's closing barrier waits for the tasks */
    }
    build_node(t, 2 * node, lo, mid);
    build_node(t, 2 * node + 1, mid, hi);
}

/* Size of the node array: heap numbers go up to 2^(depth+1) - 1, where depth
 * is the number of halvings until a range fits in a bucket. */
static size_t node_count(int m)
{
    int depth = 0;
    for (int size = m; size > KD_BUCKET; size = size - size / 2) depth++;
    return (size_t)1 << (depth + 1);
}

static wt_status check_cities(const wt_instance *inst, const int32_t *cities, int m,
                              wt_error *err)
{
    if (inst->type == WT_EXPLICIT || !inst->x)
        return wt_fail(err, WT_STATUS_UNSUPPORTED,
                       "%s: a k-d tree needs coordinates; EXPLICIT instances have none",
                       inst->name);
    if (m < 1 || m > inst->n || (!cities && m != inst->n))
        return wt_fail(err, WT_STATUS_INVALID_ARGUMENT,
                       "wt_kdtree_create: %d points for an instance of %d cities", m, inst->n);
    for (int i = 0; cities && i < m; i++)
        if (cities[i] < 0 || cities[i] >= inst->n)
            return wt_fail(err, WT_STATUS_INVALID_ARGUMENT,
                           "wt_kdtree_create: city %d out of range", (int)cities[i]);
    return WT_OK;
}

wt_status wt_kdtree_create(const wt_instance *inst, const int32_t *cities, int m,
                           wt_kdtree **out, wt_error *err)
{
    return wt_kdtree_create_threads(inst, cities, m, 1, out, err);
}

wt_status wt_kdtree_create_threads(const wt_instance *inst, const int32_t *cities, int m,
                                   int threads, wt_kdtree **out, wt_error *err)
{
    return wt_kdtree_create_until(inst, cities, m, threads, NULL, out, err);
}

wt_status wt_kdtree_create_until(const wt_instance *inst, const int32_t *cities, int m,
                                 int threads, const wt_init_stop *stop, wt_kdtree **out,
                                 wt_error *err)
{
    if (!inst || !out)
        return wt_fail(err, WT_STATUS_INVALID_ARGUMENT, "wt_kdtree_create: NULL argument");
    wt_status st = check_cities(inst, cities, m, err);
    if (st != WT_OK) return st;
    wt_kdtree *t = calloc(1, sizeof *t);
    if (!t) return wt_fail(err, WT_STATUS_OUT_OF_MEMORY, "out of memory for a k-d tree");
    t->inst = inst;
    t->metric = metric_of(inst->type);
    t->dims = wt_has_z(inst->type) || inst->type == WT_GEO ? 3 : 2;
    t->m = m;
    t->n_nodes = node_count(m);
    t->stop = stop && stop->should_stop ? stop : NULL;
    t->pts = malloc((size_t)m * sizeof *t->pts);
    t->nodes = malloc(t->n_nodes * sizeof *t->nodes);
    t->pos = malloc((size_t)inst->n * sizeof *t->pos);
    if (!t->pts || !t->nodes || !t->pos) {
        wt_kdtree_free(t);
        return wt_fail(err, WT_STATUS_OUT_OF_MEMORY, "out of memory for a k-d tree of %d points",
                       m);
    }
    if (threads < 1 || m < 2 * KD_TASK_MIN) threads = 1;
#pragma omp parallel for num_threads(threads) schedule(static)
    for (int i = 0; i < m; i++) {
        int city = cities ? cities[i] : i;
        embed_city(inst, city, t->pts[i].c);
        t->pts[i].city = city;
        t->pts[i].live = 1;
    }
    /* master: the calling thread builds the root and polls the stop; the
     * tasks it makes are run by the team at the region's closing barrier. */
#pragma omp parallel num_threads(threads)
#pragma omp master
    build_node(t, 1, 0, m);
    if (t->stopped) {
        wt_kdtree_free(t);
        *out = NULL;
        return WT_OK;
    }
    t->stop = NULL;
    for (int i = 0; i < inst->n; i++) t->pos[i] = -1;
    for (int i = 0; i < m; i++) t->pos[t->pts[i].city] = i;
    *out = t;
    return WT_OK;
}

void wt_kdtree_free(wt_kdtree *tree)
{
    if (!tree) return;
    free(tree->pts);
    free(tree->nodes);
    free(tree->pos);
    free(tree);
}

int wt_kdtree_size(const wt_kdtree *tree) { return tree->m; }
int wt_kdtree_live(const wt_kdtree *tree) { return tree->nodes[1].live; }
int wt_kdtree_city_at(const wt_kdtree *tree, int i) { return tree->pts[i].city; }

bool wt_kdtree_is_live(const wt_kdtree *tree, int city)
{
    if (city < 0 || city >= tree->inst->n) return false;
    int p = tree->pos[city];
    return p >= 0 && tree->pts[p].live;
}

void wt_kdtree_remove(wt_kdtree *tree, int city)
{
    if (!wt_kdtree_is_live(tree, city)) return;
    int p = tree->pos[city];
    tree->pts[p].live = 0;
    size_t node = 1;
    int lo = 0, hi = tree->m;
    for (;;) {
        tree->nodes[node].live--;
        if (hi - lo <= KD_BUCKET) return;
        int mid = lo + (hi - lo) / 2;
        node *= 2;
        if (p < mid) {
            hi = mid;
        } else {
            lo = mid;
            node++;
        }
    }
}

double wt_kdtree_distance(const wt_kdtree *tree, int a, int b)
{
    double ca[3], cb[3];
    embed_city(tree->inst, a, ca);
    embed_city(tree->inst, b, cb);
    return point_dist(tree->metric, ca, cb);
}

/* --------------------------------------------------------------- queries */

/* State of one k-nearest query; k = 1 is the nearest-live query.  The
 * answers so far are kept sorted by (distance, city); once k are held, the
 * last one is the bar a new point has to clear. */
typedef struct kd_search {
    double q[3];
    int32_t self;   /* the query city, never an answer */
    int k, found;
    int32_t *city;  /* k entries */
    double *dist;   /* k entries */
} kd_search;

/* Whether (d, city) would enter the current answer. */
static inline bool beats_bar(const kd_search *s, double d, int32_t city)
{
    if (s->found < s->k) return true;
    double bar = s->dist[s->k - 1];
    return d < bar || (d == bar && city < s->city[s->k - 1]);
}

static void offer(kd_search *s, double d, int32_t city)
{
    if (!beats_bar(s, d, city)) return;
    int i = s->found < s->k ? s->found++ : s->k - 1;
    while (i > 0 && (d < s->dist[i - 1] || (d == s->dist[i - 1] && city < s->city[i - 1]))) {
        s->dist[i] = s->dist[i - 1];
        s->city[i] = s->city[i - 1];
        i--;
    }
    s->dist[i] = d;
    s->city[i] = city;
}

static void scan_leaf(const wt_kdtree *t, kd_search *s, int lo, int hi)
{
    for (int i = lo; i < hi; i++) {
        const kd_point *p = &t->pts[i];
        if (!p->live || p->city == s->self) continue;
        offer(s, point_dist(t->metric, s->q, p->c), p->city);
    }
}

/* Whether the subtree at node, whose box is at distance d, may improve s. */
static inline bool worth_visiting(const wt_kdtree *t, const kd_search *s, size_t node, double d)
{
    return t->nodes[node].live > 0 && beats_bar(s, d, t->nodes[node].min_city);
}

static void search_node(const wt_kdtree *t, kd_search *s, size_t node, int lo, int hi)
{
    if (hi - lo <= KD_BUCKET) {
        scan_leaf(t, s, lo, hi);
        return;
    }
    int mid = lo + (hi - lo) / 2;
    size_t left = 2 * node, right = left + 1;
    double dl = box_dist(t->metric, &t->nodes[left], s->q);
    double dr = box_dist(t->metric, &t->nodes[right], s->q);
    if (dl <= dr) {
        if (worth_visiting(t, s, left, dl)) search_node(t, s, left, lo, mid);
        if (worth_visiting(t, s, right, dr)) search_node(t, s, right, mid, hi);
    } else {
        if (worth_visiting(t, s, right, dr)) search_node(t, s, right, mid, hi);
        if (worth_visiting(t, s, left, dl)) search_node(t, s, left, lo, mid);
    }
}

/* Whether the ball around q that holds the current answer lies strictly
 * inside the box of node, an ancestor of q's own point (so q is in the box).
 * Every point outside the node lies beyond one of the box's faces, or on a
 * split plane that is one of them, so then none can enter the answer.  The
 * ball reaches equally far along each axis in all three metrics. */
static bool ball_inside(const wt_kdtree *t, const kd_search *s, size_t node)
{
    if (s->found < s->k) return false;
    double bar = s->dist[s->k - 1];
    const kd_node *nd = &t->nodes[node];
    for (int a = 0; a < t->dims; a++) {
        double below = s->q[a] - nd->lo[a], above = nd->hi[a] - s->q[a];
        if (!(combine(t->metric, below, 0, 0) > bar && combine(t->metric, above, 0, 0) > bar))
            return false;
    }
    return true;
}

/* Searches outward from position p: its leaf first, then on the way up the
 * subtree beside each ancestor, until the answer's ball fits inside an
 * ancestor's box.  A query from a point of the tree then mostly ends a few
 * levels up, where a search from the root would walk down the whole depth. */
static void search_up_from(const wt_kdtree *t, kd_search *s, int p)
{
    struct { int lo, hi; } range[64]; /* of the ancestors, by depth */
    size_t node = 1;
    int depth = 0, lo = 0, hi = t->m;
    while (hi - lo > KD_BUCKET) {
        range[depth].lo = lo;
        range[depth].hi = hi;
        depth++;
        int mid = lo + (hi - lo) / 2;
        node *= 2;
        if (p < mid) {
            hi = mid;
        } else {
            lo = mid;
            node++;
        }
    }
    if (t->nodes[node].live > 0) scan_leaf(t, s, lo, hi);
    while (depth > 0) {
        depth--;
        int plo = range[depth].lo, phi = range[depth].hi, mid = plo + (phi - plo) / 2;
        size_t sibling = node ^ 1;
        double d = box_dist(t->metric, &t->nodes[sibling], s->q);
        if (worth_visiting(t, s, sibling, d)) {
            if (sibling & 1)
                search_node(t, s, sibling, mid, phi);
            else
                search_node(t, s, sibling, plo, mid);
        }
        node /= 2;
        if (ball_inside(t, s, node)) return;
    }
}

static void run_search(const wt_kdtree *t, kd_search *s, int city)
{
    int p = t->pos[city];
    if (p >= 0) {
        for (int a = 0; a < 3; a++) s->q[a] = t->pts[p].c[a];
    } else {
        embed_city(t->inst, city, s->q);
    }
    s->self = city;
    s->found = 0;
    if (t->nodes[1].live == 0) return;
    if (p >= 0)
        search_up_from(t, s, p);
    else
        search_node(t, s, 1, 0, t->m);
}

int wt_kdtree_nearest(const wt_kdtree *tree, int city)
{
    int32_t best_city;
    double best_dist;
    kd_search s = {.k = 1, .city = &best_city, .dist = &best_dist};
    run_search(tree, &s, city);
    return s.found ? best_city : -1;
}

int wt_kdtree_knn(const wt_kdtree *tree, int city, int k, int32_t *out, double *dist)
{
    if (k < 1) return 0;
    kd_search s = {.k = k, .city = out, .dist = dist};
    run_search(tree, &s, city);
    return s.found;
}

/* ------------------------------------------------------ penalised queries */

bool wt_kdtree_cheapest_supported(const wt_instance *inst)
{
    return wt_is_planar(inst->type) || inst->type == WT_EUC_3D;
}

size_t wt_kdtree_node_slots(const wt_kdtree *tree) { return tree->n_nodes; }

/* The node summaries below recurse like the build: subtrees of
 * KD_SUMMARY_TASK_MIN points or more are tasks of their own when a team
 * runs them (a summary is lighter work than a build, so smaller subtrees
 * pay for a task), each node's value a function of its points alone, so
 * any thread count gives the same arrays. */
enum { KD_SUMMARY_TASK_MIN = 1 << 12 };

static int32_t summarize_min(const wt_kdtree *t, const int32_t *value, int32_t *out, size_t node,
                             int lo, int hi)
{
    int32_t m;
    if (hi - lo <= KD_BUCKET) {
        m = value[t->pts[lo].city];
        for (int i = lo + 1; i < hi; i++)
            if (value[t->pts[i].city] < m) m = value[t->pts[i].city];
    } else {
        int mid = lo + (hi - lo) / 2;
        int32_t a, b;
        if (hi - lo >= KD_SUMMARY_TASK_MIN) {
#pragma omp task shared(a)
            a = summarize_min(t, value, out, 2 * node, lo, mid);
            b = summarize_min(t, value, out, 2 * node + 1, mid, hi);
#pragma omp taskwait
        } else {
            a = summarize_min(t, value, out, 2 * node, lo, mid);
            b = summarize_min(t, value, out, 2 * node + 1, mid, hi);
        }
        m = a < b ? a : b;
    }
    out[node] = m;
    return m;
}

void wt_kdtree_node_min(const wt_kdtree *tree, const int32_t *value, int threads,
                        int32_t *node_min)
{
    if (threads < 1) threads = 1;
#pragma omp parallel num_threads(threads) if (threads > 1 && tree->m >= KD_SUMMARY_TASK_MIN)
#pragma omp single
    summarize_min(tree, value, node_min, 1, 0, tree->m);
}

static int32_t summarize_label(const wt_kdtree *t, const int32_t *label, int32_t *out,
                               size_t node, int lo, int hi)
{
    int32_t l;
    if (hi - lo <= KD_BUCKET) {
        l = label[t->pts[lo].city];
        for (int i = lo + 1; i < hi && l >= 0; i++)
            if (label[t->pts[i].city] != l) l = -1;
    } else {
        int mid = lo + (hi - lo) / 2;
        int32_t a, b;
        if (hi - lo >= KD_SUMMARY_TASK_MIN) {
#pragma omp task shared(a)
            a = summarize_label(t, label, out, 2 * node, lo, mid);
            b = summarize_label(t, label, out, 2 * node + 1, mid, hi);
#pragma omp taskwait
        } else {
            a = summarize_label(t, label, out, 2 * node, lo, mid);
            b = summarize_label(t, label, out, 2 * node + 1, mid, hi);
        }
        l = a == b ? a : -1;
    }
    out[node] = l;
    return l;
}

void wt_kdtree_node_label(const wt_kdtree *tree, const int32_t *label, int threads,
                          int32_t *node_label)
{
    if (threads < 1) threads = 1;
#pragma omp parallel num_threads(threads) if (threads > 1 && tree->m >= KD_SUMMARY_TASK_MIN)
#pragma omp single
    summarize_label(tree, label, node_label, 1, 0, tree->m);
}

/* One penalised query (wt_kdtree_cheapest). */
typedef struct kd_cheap {
    const wt_kdtree *t;
    const double *q; /* the query city's coordinates (x, y, z) */
    int32_t self, skip, own; /* own: the query's label, or -1 without labels */
    int64_t scale;
    const int32_t *value, *node_min, *label, *node_label;
    int32_t best;
    int64_t cost;
} kd_cheap;

/* The instance's distance from q to the nearest point of node's box: no
 * more than its distance to any point in the box, for the supported types
 * (the per-axis gaps are no larger than any point's differences, after
 * rounding too, and the formulas never decrease in them). */
static int64_t box_inst_dist(const kd_cheap *s, const kd_node *nd)
{
    double gx = axis_gap(s->q[0], nd->lo[0], nd->hi[0]);
    double gy = axis_gap(s->q[1], nd->lo[1], nd->hi[1]);
    if (s->t->inst->type == WT_EUC_3D) {
        double gz = axis_gap(s->q[2], nd->lo[2], nd->hi[2]);
        return wt_nint(sqrt(gx * gx + gy * gy + gz * gz));
    }
    return wt_dist_planar(s->t->inst->type, gx, gy);
}

/* The lower bound of node's box, or INT64_MAX when the node cannot hold an
 * answer (all its points carry the query's label, or none is live). */
static int64_t cheap_bound(const kd_cheap *s, size_t node)
{
    const kd_node *nd = &s->t->nodes[node];
    if (nd->live == 0) return INT64_MAX;
    if (s->own >= 0 && s->node_label[node] == s->own) return INT64_MAX;
    return s->scale * box_inst_dist(s, nd) + s->node_min[node];
}

static inline bool cheap_beats(const kd_cheap *s, int64_t c, int32_t city)
{
    return c < s->cost || (c == s->cost && city < s->best);
}

static void cheap_node(kd_cheap *s, size_t node, int lo, int hi)
{
    const wt_kdtree *t = s->t;
    if (hi - lo <= KD_BUCKET) {
        for (int i = lo; i < hi; i++) {
            const kd_point *p = &t->pts[i];
            int32_t v = p->city;
            if (!p->live || v == s->self || v == s->skip) continue;
            if (s->own >= 0 && s->label[v] == s->own) continue;
            int64_t c = s->scale * wt_dist(t->inst, s->self, v) + s->value[v];
            if (cheap_beats(s, c, v)) {
                s->cost = c;
                s->best = v;
            }
        }
        return;
    }
    int mid = lo + (hi - lo) / 2;
    size_t left = 2 * node, right = left + 1;
    int64_t bl = cheap_bound(s, left), br = cheap_bound(s, right);
    bool left_first = bl <= br;
    for (int pass = 0; pass < 2; pass++) {
        bool go_left = (pass == 0) == left_first;
        size_t child = go_left ? left : right;
        int64_t b = go_left ? bl : br;
        if (b == INT64_MAX || !cheap_beats(s, b, t->nodes[child].min_city)) continue;
        if (go_left)
            cheap_node(s, left, lo, mid);
        else
            cheap_node(s, right, mid, hi);
    }
}

void wt_kdtree_cheapest(const wt_kdtree *tree, int city, int skip, int64_t scale,
                        const int32_t *value, const int32_t *node_min, const int32_t *label,
                        const int32_t *node_label, int32_t *best, int64_t *cost)
{
    double q[3];
    embed_city(tree->inst, city, q);
    kd_cheap s = {.t = tree,
                  .q = q,
                  .self = city,
                  .skip = skip,
                  .own = label ? label[city] : -1,
                  .scale = scale,
                  .value = value,
                  .node_min = node_min,
                  .label = label,
                  .node_label = node_label,
                  .best = *best,
                  .cost = *cost};
    int64_t b = cheap_bound(&s, 1);
    if (b != INT64_MAX && cheap_beats(&s, b, tree->nodes[1].min_city))
        cheap_node(&s, 1, 0, tree->m);
    *best = s.best;
    *cost = s.cost;
}
