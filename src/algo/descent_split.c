/*
 * descent_split.c - the first descent split over several GPUs
 * (descent_split.h): cut the plane into regions, descend each region's tour
 * on its GPU on a host thread of its own, join the regions' tours, descend
 * the whole for the seams.
 */
#include "algo/descent_split.h"

#include <math.h>
#include <omp.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "algo/descent.h"
#include "algo/policy.h"
#include "core/error.h"
#include "core/instance_subset.h"
#include "core/kdtree.h"

/* Neighbours of a city of one tour among the cities of the other, each
 * tried for the exchange that joins the two; */
enum { JOIN_NEIGHBOURS = 6 };
/* the cities of each side nearest the cut between them that the join
 * looks at: the cheapest exchange lies where the two tours meet, and a join
 * that read every city would take seconds at a hundred million. */
enum { JOIN_BAND = 1 << 16 };

bool wt_descent_split_wanted(const wt_instance *inst, const int32_t *fixed)
{
    bool planar = inst->x && inst->y && !inst->z && !inst->lat && !inst->matrix &&
                  (inst->type == WT_EUC_2D || inst->type == WT_CEIL_2D ||
                   inst->type == WT_ATT || inst->type == WT_MAN_2D || inst->type == WT_MAX_2D);
    return inst->n >= WT_DESCENT_SPLIT_CITIES && planar && !fixed && !inst->directed;
}

/* ------------------------------------------------------------- regions */

static void swap_keys(double *a, double *b)
{
    double t = *a;
    *a = *b;
    *b = t;
}

/* The k-th smallest (0-based) of keys[0..m), which it reorders: Hoare's
 * selection with the median of three as pivot. */
static double select_kth(double *keys, int m, int k)
{
    int lo = 0, hi = m - 1;
    while (hi > lo) {
        int mid = lo + (hi - lo) / 2;
        if (keys[mid] < keys[lo]) swap_keys(&keys[mid], &keys[lo]);
        if (keys[hi] < keys[lo]) swap_keys(&keys[hi], &keys[lo]);
        if (keys[hi] < keys[mid]) swap_keys(&keys[hi], &keys[mid]);
        double pivot = keys[mid];
        int i = lo, j = hi;
        while (i <= j) {
            while (keys[i] < pivot) i++;
            while (keys[j] > pivot) j--;
            if (i <= j) swap_keys(&keys[i++], &keys[j--]);
        }
        if (k <= j) hi = j;
        else if (k >= i) lo = i;
        else return keys[k];
    }
    return keys[k];
}

/* The coordinate of city c that the cut across axis (0: x, 1: y) compares. */
static double coord(const wt_instance *inst, int axis, int32_t c)
{
    return axis == 0 ? inst->x[c] : inst->y[c];
}

/* Cuts cities[0..m) at the median of their wider side into the first k
 * (those below the cut, and of those on it the first in order) and the
 * rest, each in the order they came; where, into *c. */
static void cut(const wt_instance *inst, int32_t *cities, int m, int k, double *keys,
                int32_t *scratch, int threads, wt_descent_cut *c)
{
    double lo0 = INFINITY, lo1 = INFINITY, hi0 = -INFINITY, hi1 = -INFINITY;
#pragma omp parallel for num_threads(threads) reduction(min : lo0, lo1) reduction(max : hi0, hi1)
    for (int i = 0; i < m; i++) {
        double x = coord(inst, 0, cities[i]), y = coord(inst, 1, cities[i]);
        lo0 = x < lo0 ? x : lo0;
        hi0 = x > hi0 ? x : hi0;
        lo1 = y < lo1 ? y : lo1;
        hi1 = y > hi1 ? y : hi1;
    }
    int axis = hi1 - lo1 > hi0 - lo0;
#pragma omp parallel for num_threads(threads)
    for (int i = 0; i < m; i++) keys[i] = coord(inst, axis, cities[i]);
    double at = select_kth(keys, m, k);
    int below = 0;
#pragma omp parallel for num_threads(threads) reduction(+ : below)
    for (int i = 0; i < m; i++) below += coord(inst, axis, cities[i]) < at;
    int on_left = k - below, left = 0, right = k; /* cities on the cut that go left */
    for (int i = 0; i < m; i++) {
        double v = coord(inst, axis, cities[i]);
        bool goes_left = v < at || (v == at && on_left-- > 0);
        scratch[goes_left ? left++ : right++] = cities[i];
    }
    memcpy(cities, scratch, (size_t)m * sizeof *cities);
    *c = (wt_descent_cut){.axis = axis, .at = at};
}

void wt_descent_split_regions(const wt_instance *inst, int32_t *cities, int m, int parts,
                              int threads, int *starts, wt_descent_cut *cuts, double *keys,
                              int32_t *scratch)
{
    starts[0] = 0;
    starts[parts] = m;
    if (parts == 1) return;
    int first = parts / 2;
    int k = (int)((int64_t)m * first / parts);
    cut(inst, cities, m, k, keys, scratch, threads > 0 ? threads : 1, &cuts[first]);
    wt_descent_split_regions(inst, cities, k, first, threads, starts, cuts, keys, scratch);
    wt_descent_split_regions(inst, cities + k, m - k, parts - first, threads, starts + first,
                             cuts + first, keys, scratch);
    for (int r = first; r <= parts; r++) starts[r] += k;
}

/* ----------------------------------------------------- regions' descents */

typedef struct region_run {
    const wt_device *dev;
    const wt_instance *inst;
    const int32_t *cities; /* the region's cities in the start tour's order */
    int m;
    int32_t *out;          /* m entries: the region's tour, as cities of inst */
    wt_params quiet;       /* the caller's, without progress, stopped by the watcher */
    wt_search_ctl ctl;
    wt_search_stats stats;
    wt_status status;
    wt_error err;
    pthread_t thread;
    bool threaded;
    int finished;          /* set (atomic) when status is final */
} region_run;

/* Descends the tour of r's cities in their order as an instance of its own. */
static wt_status descend_region(region_run *r)
{
    wt_instance *sub = wt_instance_subset(r->inst, r->inst->name, r->cities, r->m);
    if (!sub)
        return wt_fail(&r->err, WT_STATUS_OUT_OF_MEMORY, "out of memory for a region of %d cities",
                       r->m);
    for (int i = 0; i < r->m; i++) r->out[i] = i;
    wt_status st = wt_twoopt_descend(r->dev, sub, r->out, &r->ctl, &r->stats, &r->err);
    for (int i = 0; i < r->m; i++) r->out[i] = r->cities[r->out[i]];
    wt_instance_free(sub);
    return st;
}

static void *region_thread(void *arg)
{
    region_run *r = arg;
    r->status = descend_region(r);
    __atomic_store_n(&r->finished, 1, __ATOMIC_RELEASE);
    return NULL;
}

/* The calling thread while the regions descend: progress reports of the
 * start length every few milliseconds; the caller's stop (flag, callback,
 * deadline) or a region's failure raises stop_all, which every region's
 * search polls as its stop flag. */
static void watch_regions(region_run *runs, int parts, wt_search_ctl *ctl, int64_t length,
                          volatile int *stop_all)
{
    wt_search_ctl watch = *ctl;
    watch.stall_steps = 0;
    watch.bound = 0;
    for (;;) {
        /* Reported before the regions are looked at: a caller's stop is
         * heard even when they end first. */
        if (wt_ctl_report(&watch, length, ctl->shown_steps, false)) *stop_all = 1;
        int finished = 0;
        for (int r = 0; r < parts; r++) {
            bool over = __atomic_load_n(&runs[r].finished, __ATOMIC_ACQUIRE);
            finished += over;
            if (over && runs[r].status != WT_OK) *stop_all = 1;
        }
        if (finished == parts) break;
        struct timespec pause = {0, 5 * 1000 * 1000};
        nanosleep(&pause, NULL);
    }
    ctl->next_report = watch.next_report;
    if (watch.stop != WT_STOP_DONE && ctl->stop == WT_STOP_DONE) ctl->stop = watch.stop;
}

static void add_stats(wt_search_stats *to, const wt_search_stats *from)
{
    to->steps += from->steps;
    to->moves_evaluated += from->moves_evaluated;
    to->passes += from->passes;
    to->scan_time_s += from->scan_time_s;
    to->gpu_time_s += from->gpu_time_s;
}

/* Descends every region of tours (regions as starts, cities as
 * wt_descent_split_regions left them) on its device at once, each region's
 * tour into out at its offset. */
static wt_status descend_regions(const wt_device_set *set, const wt_instance *inst,
                                 const int32_t *cities, const int *starts, int32_t *out,
                                 wt_search_ctl *ctl, int64_t length, wt_search_stats *stats,
                                 wt_error *err)
{
    int parts = set->count;
    region_run *runs = calloc((size_t)parts, sizeof *runs);
    if (!runs) return wt_fail(err, WT_STATUS_OUT_OF_MEMORY, "out of memory for %d regions", parts);
    volatile int stop_all = 0;
    int threads = ctl->threads / parts > 0 ? ctl->threads / parts : 1;
    for (int r = 0; r < parts; r++) {
        region_run *run = &runs[r];
        run->dev = &set->at[r];
        run->inst = inst;
        run->cities = cities + starts[r];
        run->m = starts[r + 1] - starts[r];
        run->out = out + starts[r];
        run->quiet = *ctl->params;
        run->quiet.progress = NULL;
        run->quiet.stop_flag = &stop_all;
        run->ctl = *ctl;
        run->ctl.params = &run->quiet;
        run->ctl.threads = threads;
        run->ctl.stall_count = 0;
        run->ctl.bound = 0;
        run->ctl.keep = NULL;
    }
    for (int r = 0; r < parts; r++)
        runs[r].threaded = pthread_create(&runs[r].thread, NULL, region_thread, &runs[r]) == 0;
    for (int r = 0; r < parts; r++) /* no thread to be had: here, one after another */
        if (!runs[r].threaded) region_thread(&runs[r]);
    watch_regions(runs, parts, ctl, length, &stop_all);
    wt_status st = WT_OK;
    for (int r = 0; r < parts; r++) {
        region_run *run = &runs[r];
        if (run->threaded) pthread_join(run->thread, NULL);
        add_stats(stats, &run->stats);
        if (st == WT_OK && run->status != WT_OK) {
            st = run->status;
            if (err) *err = run->err;
        }
        if (run->ctl.stop == WT_STOP_TIME_LIMIT && ctl->stop == WT_STOP_DONE)
            ctl->stop = WT_STOP_TIME_LIMIT;
    }
    free(runs);
    return st;
}

/* ------------------------------------------------------------- joining */

/* An exchange that joins two tours: the edge from u (at j, of the tour
 * joined) to its neighbour there in direction du (+1, -1) and the edge from
 * v (at i, of the tours before) to its neighbour in direction dv give way to
 * (u, v) and the edge between those neighbours. */
typedef struct join_move {
    int64_t gain;
    int j, i, du, dv;
} join_move;

/* Whether m beats best: the larger gain, then the lower j, i, du, dv, so
 * that the choice does not depend on the threads'. */
static bool join_better(const join_move *m, const join_move *best)
{
    if (m->gain != best->gain) return m->gain > best->gain;
    if (m->j != best->j) return m->j < best->j;
    if (m->i != best->i) return m->i < best->i;
    if (m->du != best->du) return m->du < best->du;
    return m->dv < best->dv;
}

/* Scratch of the joins: where (n entries) each city of cities_a lies in
 * the pair of tours joined; near_a, near_b (JOIN_BAND each): the places of
 * each side's cities nearest the cut, cities_a (JOIN_BAND) the first
 * side's cities there; keys (n, the caller's); order (n): the joined tour
 * being written. */
typedef struct join_space {
    int32_t *where, *near_a, *near_b, *cities_a, *order;
    double *keys;
} join_space;

/* The places (at most JOIN_BAND, in order) in cities[0..m) of the cities
 * nearest the cut c, into near, each plus offset; how many. */
static int near_cut(const wt_instance *inst, const int32_t *cities, int m, int offset,
                    const wt_descent_cut *c, int threads, int32_t *near, double *keys)
{
    int k = 0;
    if (m <= JOIN_BAND) {
        for (; k < m; k++) near[k] = offset + k;
        return k;
    }
    int axis = c->axis;
    double at = c->at;
#pragma omp parallel for num_threads(threads)
    for (int i = 0; i < m; i++) keys[i] = fabs(coord(inst, axis, cities[i]) - at);
    double limit = select_kth(keys, m, JOIN_BAND - 1);
    int closer = 0;
#pragma omp parallel for num_threads(threads) reduction(+ : closer)
    for (int i = 0; i < m; i++) closer += fabs(coord(inst, axis, cities[i]) - at) < limit;
    int on_limit = JOIN_BAND - closer; /* cities at the limit taken, in order */
    for (int i = 0; i < m; i++) {
        double d = fabs(coord(inst, axis, cities[i]) - at);
        if (d < limit || (d == limit && on_limit-- > 0)) near[k++] = offset + i;
    }
    return k;
}

/* The best exchange that joins the tour tour[a..a+b) to the tour
 * tour[0..a), over the near neighbours among the cities of tour[0..a)
 * nearest their cut of each city of tour[a..a+b) nearest it: where the two
 * tours meet, which is where the cheapest exchange lies. */
static wt_status best_join(const wt_instance *inst, const int32_t *tour, int a, int b,
                           const wt_descent_cut *c, join_space *sp, int threads,
                           join_move *out, wt_error *err)
{
    int ka = near_cut(inst, tour, a, 0, c, threads, sp->near_a, sp->keys);
    int kb = near_cut(inst, tour + a, b, a, c, threads, sp->near_b, sp->keys);
    for (int k = 0; k < ka; k++) { /* the tree's cities, and where they lie */
        sp->cities_a[k] = tour[sp->near_a[k]];
        sp->where[sp->cities_a[k]] = sp->near_a[k];
    }
    wt_kdtree *tree = NULL;
    wt_status st = wt_kdtree_create_threads(inst, sp->cities_a, ka, threads, &tree, err);
    if (st != WT_OK) return st;
    join_move best = {.gain = INT64_MIN, .j = -1};
    const int32_t *where = sp->where, *near_b = sp->near_b;
#pragma omp parallel num_threads(threads)
    {
        join_move mine = {.gain = INT64_MIN, .j = -1};
        int32_t near[JOIN_NEIGHBOURS];
        double dist[JOIN_NEIGHBOURS];
#pragma omp for schedule(static)
        for (int q = 0; q < kb; q++) {
            int j = near_b[q];
            int32_t u = tour[j];
            int found = wt_kdtree_knn(tree, u, JOIN_NEIGHBOURS, near, dist);
            for (int f = 0; f < found; f++) {
                int32_t v = near[f];
                int i = where[v];
                for (int du = -1; du <= 1; du += 2)
                    for (int dv = -1; dv <= 1; dv += 2) {
                        int32_t su = tour[a + (j - a + du + b) % b];
                        int32_t sv = tour[(i + dv + a) % a];
                        join_move m = {.gain = wt_dist(inst, u, su) + wt_dist(inst, v, sv) -
                                               wt_dist(inst, u, v) - wt_dist(inst, su, sv),
                                       .j = j, .i = i, .du = du, .dv = dv};
                        if (join_better(&m, &mine)) mine = m;
                    }
            }
        }
#pragma omp critical
        if (mine.j >= 0 && (best.j < 0 || join_better(&mine, &best))) best = mine;
    }
    wt_kdtree_free(tree);
    *out = best;
    return WT_OK;
}

/* Joins the tour tour[a..a+b) to the tour tour[0..a) into one tour in
 * tour[0..a+b), by the best exchange of best_join. */
static wt_status join_tours(const wt_instance *inst, int32_t *tour, int a, int b,
                            const wt_descent_cut *c, int threads, join_space *sp, wt_error *err)
{
    join_move m;
    wt_status st = best_join(inst, tour, a, b, c, sp, threads, &m, err);
    if (st != WT_OK) return st;
    int k = 0;
    /* The tour before, from v's neighbour away from v to v; then u, away
     * from u's neighbour, to it; the neighbours' edge closes the tour. */
    for (int t = 1; t <= a; t++) sp->order[k++] = tour[((m.i + m.dv * t) % a + a) % a];
    int ju = m.j - a;
    for (int t = 0; t < b; t++) sp->order[k++] = tour[a + ((ju - m.du * t) % b + b) % b];
    memcpy(tour, sp->order, (size_t)(a + b) * sizeof *tour);
    return WT_OK;
}

/* Joins the tours of regions p0 .. p1 - 1 (out, regions at starts) into
 * one, as wt_descent_split_regions cut them: each half's first, then the
 * two halves across their cut. */
static wt_status join_range(const wt_instance *inst, int32_t *out, const int *starts,
                            const wt_descent_cut *cuts, int p0, int p1, int threads,
                            join_space *sp, wt_error *err)
{
    if (p1 - p0 < 2) return WT_OK;
    int mid = p0 + (p1 - p0) / 2;
    wt_status st = join_range(inst, out, starts, cuts, p0, mid, threads, sp, err);
    if (st == WT_OK) st = join_range(inst, out, starts, cuts, mid, p1, threads, sp, err);
    if (st != WT_OK) return st;
    return join_tours(inst, out + starts[p0], starts[mid] - starts[p0], starts[p1] - starts[mid],
                      &cuts[mid], threads, sp, err);
}

/* Joins the regions' tours (out, regions at starts) into one. */
static wt_status join_regions(const wt_instance *inst, int32_t *out, const int *starts,
                              const wt_descent_cut *cuts, int parts, double *keys, int threads,
                              wt_error *err)
{
    size_t n = (size_t)inst->n;
    join_space sp = {.where = malloc(n * sizeof *sp.where),
                     .near_a = malloc(JOIN_BAND * sizeof *sp.near_a),
                     .near_b = malloc(JOIN_BAND * sizeof *sp.near_b),
                     .cities_a = malloc(JOIN_BAND * sizeof *sp.cities_a),
                     .order = malloc(n * sizeof *sp.order),
                     .keys = keys};
    wt_status st = sp.where && sp.near_a && sp.near_b && sp.cities_a && sp.order
                       ? join_range(inst, out, starts, cuts, 0, parts, threads, &sp, err)
                       : wt_fail(err, WT_STATUS_OUT_OF_MEMORY, "out of memory joining %d regions",
                                 parts);
    free(sp.where);
    free(sp.near_a);
    free(sp.near_b);
    free(sp.cities_a);
    free(sp.order);
    return st;
}

/* ---------------------------------------------------------- the descent */

/* The length of tour, on `threads` threads: at a hundred million cities one
 * thread's sum takes seconds. */
static int64_t length_of(const wt_instance *inst, const int32_t *tour, int threads)
{
    int n = inst->n;
    int64_t sum = 0;
#pragma omp parallel for num_threads(threads) reduction(+ : sum)
    for (int i = 0; i < n; i++) sum += wt_dist(inst, tour[i], tour[i + 1 < n ? i + 1 : 0]);
    return sum;
}

wt_status wt_descent_split(const wt_device_set *set, const wt_instance *inst, int32_t *tour,
                           wt_search_ctl *ctl, wt_search_stats *stats, wt_error *err)
{
    if (wt_ctl_expired(ctl)) return WT_OK;
    int n = inst->n, parts = set->count, threads = ctl->threads;
    int64_t length = length_of(inst, tour, threads);
    int32_t *cities = malloc((size_t)n * sizeof *cities);
    int32_t *out = malloc((size_t)n * sizeof *out);
    double *keys = malloc((size_t)n * sizeof *keys);
    int *starts = malloc((size_t)(parts + 1) * sizeof *starts);
    wt_descent_cut *cuts = malloc((size_t)parts * sizeof *cuts);
    wt_status st = cities && out && keys && starts && cuts
                       ? WT_OK
                       : wt_fail(err, WT_STATUS_OUT_OF_MEMORY,
                                 "out of memory splitting a descent of %d cities", n);
    if (st == WT_OK) {
        memcpy(cities, tour, (size_t)n * sizeof *cities);
        wt_descent_split_regions(inst, cities, n, parts, threads, starts, cuts, keys, out);
        st = descend_regions(set, inst, cities, starts, out, ctl, length, stats, err);
    }
    if (st == WT_OK) st = join_regions(inst, out, starts, cuts, parts, keys, threads, err);
    if (st == WT_OK && !wt_ctl_expired(ctl)) {
        /* The seams: the whole on the first device, under the stall rule. */
        ctl->stall_count = 0;
        st = wt_twoopt_descend(&set->at[0], inst, out, ctl, stats, err);
    }
    /* A stop before the seams are mended may leave the joined tour longer
     * than the start tour: the start tour is kept then. */
    if (st == WT_OK && length_of(inst, out, threads) < length)
        memcpy(tour, out, (size_t)n * sizeof *tour);
    free(cities);
    free(out);
    free(keys);
    free(starts);
    free(cuts);
    return st;
}

wt_status wt_descent_first(const wt_device *dev, const wt_instance *inst, int32_t *tour,
                           wt_search_ctl *ctl, wt_search_stats *stats, wt_error *err)
{
    const wt_params *p = ctl->params;
    bool many = !dev->backend->host && p->device_count != 0 && p->device_count != 1;
    if (!many || !wt_descent_split_wanted(inst, ctl->fixed))
        return wt_twoopt_descend(dev, inst, tour, ctl, stats, err);
    wt_device_set set;
    char names[128] = "";
    wt_status st = wt_devices_expand(dev, p->devices, p->device_count, false, &set, names,
                                     sizeof names, err);
    if (st != WT_OK) return st;
    if (set.count < 2) return wt_twoopt_descend(dev, inst, tour, ctl, stats, err);
    return wt_descent_split(&set, inst, tour, ctl, stats, err);
}

wt_status wt_descent_first_handover(const wt_device *dev, const wt_instance *inst,
                                    int32_t *tour, wt_search_ctl *ctl, wt_search_stats *stats,
                                    wt_error *err)
{
    wt_search_ctl device = *ctl;
    device.fixed = NULL;
    device.stall_steps = wt_policy_device_stall_passes(inst->n);
    device.stall_gain = WT_DEVICE_STALL_GAIN;
    device.stall_count = 0;
    wt_status st = wt_descent_first(dev, inst, tour, &device, stats, err);
    ctl->stop = device.stop;
    ctl->next_report = device.next_report;
    return st;
}
