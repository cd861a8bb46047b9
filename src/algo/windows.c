/*
 * windows.c - the window search of one large tour (windows.h).
 *
 * A round cuts the tour, from a given position on, into windows of
 * consecutive positions.  Window w, the path c_0 .. c_{m-1}, becomes a
 * small instance of its own: city i of it is c_i, with c_i's coordinates
 * (or, for EXPLICIT, the sub-matrix), the very data of the large instance,
 * so every distance in it is the large instance's distance, exactly, on
 * every metric (EUC_2D's rounding, GEO, ATT, ...).  Its start tour is
 * 0, 1, .., m - 1, whose closing edge (m - 1, 0) stands for the rest of
 * the large tour: the batch search (core/batch_search.h) runs with fixed
 * ends, so no move and no kick removes that edge, and every tour it keeps
 * is a path from 0 to m - 1 closed by it.  The path's gain is then the
 * cycle's, exactly, and the path goes back between the same two neighbours
 * outside the window.
 *
 * All windows of a round are one batch (wt_batch_solve_from) for the
 * backends' windows slot on the device the caller hands: on the GPU each
 * is searched by a warp or a block in shared memory, thousands at once
 * (backend/cuda/batch.cu), on the CPU one a thread (cpu_batch.c); the two
 * take the same steps.  With several GPUs the batch deals the windows over
 * them (algo/batch.c), all searching at once.  A window's random stream is
 * its number in the round, under the round's seed, so a round is
 * reproducible on either, and on any number of GPUs.
 */
#include "algo/windows.h"

#include <math.h>
#include <omp.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "algo/batch.h"
#include "algo/policy.h"
#include "core/climb_start.h"
#include "core/error.h"
#include "core/instance.h"
#include "core/instance_subset.h"
#include "core/search_ctl.h"

int wt_windows_offset(uint64_t seed, uint64_t e, int n)
{
    wt_rng rng;
    wt_climb_rng(&rng, seed ^ 0x3c6ef372fe94f82bULL, e);
    return (int)wt_rng_below(&rng, (uint64_t)n);
}

int wt_windows_count(int n, int window) { return n / window > 0 ? n / window : 1; }

int wt_windows_first(int n, int count, int w) { return (int)((int64_t)w * n / count); }

bool wt_windows_searched(const wt_windows_opts *o, int w)
{
    return o->stride <= 1 || w % o->stride == o->phase;
}

/* Windows of all that o's stride and phase search. */
static int searched_of(const wt_windows_opts *o, int all)
{
    if (o->stride <= 1) return all;
    return o->phase < all ? (all - o->phase + o->stride - 1) / o->stride : 0;
}

int wt_windows_replicas(const wt_windows_opts *o, int n)
{
    if (o->replicas > 0) return o->replicas;
    int windows = searched_of(o, wt_windows_count(n, o->window));
    if (windows < 1) windows = 1;
    int fill = WT_WINDOW_FILL * (o->devices ? o->devices->count : 1); /* every GPU full */
    int r = fill / windows;
    return r < 1 ? 1 : r > WT_WINDOW_MAX_REPLICAS ? WT_WINDOW_MAX_REPLICAS : r;
}

/* The windows of a round: window w starts at position offset + first[w]
 * and has first[w + 1] - first[w] cities; count of them are searched,
 * which[0 .. count). */
typedef struct round_state {
    int count;
    int replicas;              /* searches of each window */
    int *first;                /* a window's first, and one past the last */
    int *which;                /* count: the windows searched */
    int32_t *cities;           /* n: the cities in window order */
    wt_instance **inst;        /* count: searched window i's instance */
    const wt_instance **runs;  /* count * replicas: search i * replicas + r is
                                  replica r of searched window i */
    int32_t **start;           /* count * replicas: 0, 1, .. m - 1 each (one
                                  shared array) */
    int32_t *identity;
    int32_t *lists;            /* with given candidates: n rows, window w's
                                  from row first[w] on; else NULL */
    const int32_t **nb;        /* count * replicas: each search's rows in lists */
} round_state;

static void state_free(round_state *s)
{
    for (int w = 0; s->inst && w < s->count; w++) wt_instance_free(s->inst[w]);
    free(s->inst);
    free(s->runs);
    free(s->start);
    free(s->first);
    free(s->which);
    free(s->cities);
    free(s->identity);
    free(s->lists);
    free(s->nb);
}

/* Window w's candidate lists (k a city) from the large instance's cand
 * (ck a city): each row the entries of the large row that lie in window w,
 * as the window's cities, in the large row's order; -1 after the last.
 * at[c] is city c's position from the offset. */
static void window_lists(const round_state *s, int w, const int32_t *at, int n,
                         const int32_t *cand, int ck, int k)
{
    int lo = s->first[w], hi = s->first[w + 1];
    enum { AHEAD = 8 }; /* rows fetched ahead: the cities' rows lie anywhere */
    for (int i = lo; i < hi; i++) {
        if (i + AHEAD < hi) __builtin_prefetch(cand + (size_t)s->cities[i + AHEAD] * (size_t)ck);
        const int32_t *row = cand + (size_t)s->cities[i] * (size_t)ck;
        int32_t *out = s->lists + (size_t)i * (size_t)k;
        int got = 0;
        for (int j = 0; j < ck && got < k; j++) {
            int p = row[j] < 0 || row[j] >= n ? -1 : at[row[j]];
            if (p >= lo && p < hi && p != i) out[got++] = p - lo;
        }
        while (got < k) out[got++] = -1;
    }
}

/* Every window's lists from o's candidates, and each search's pointer to
 * its window's; false when out of memory. */
static bool given_lists(round_state *s, const wt_windows_opts *o, int n, int threads)
{
    int k = WT_BATCH_NEIGHBOURS;
    size_t runs = (size_t)s->count * (size_t)s->replicas;
    int32_t *at = malloc((size_t)n * sizeof *at);
    s->lists = malloc((size_t)n * (size_t)k * sizeof *s->lists);
    s->nb = malloc(runs * sizeof *s->nb);
    if (!at || !s->lists || !s->nb) {
        free(at);
        return false;
    }
    for (int p = 0; p < n; p++) at[s->cities[p]] = p;
#pragma omp parallel for num_threads(threads) schedule(dynamic, 16)
    for (int i = 0; i < s->count; i++) {
        int w = s->which[i];
        window_lists(s, w, at, n, o->candidates, o->candidates_k, k);
        for (int r = 0; r < s->replicas; r++)
            s->nb[(size_t)i * (size_t)s->replicas + (size_t)r] =
                s->lists + (size_t)s->first[w] * (size_t)k;
    }
    free(at);
    return true;
}

/* Cuts tour (n cities) into windows from offset on, those o searches
 * made instances; false when out of memory. */
static bool cut(round_state *s, const wt_instance *inst, const int32_t *tour,
                const wt_windows_opts *o, int replicas, int threads)
{
    int n = inst->n, all = wt_windows_count(n, o->window);
    memset(s, 0, sizeof *s);
    s->count = searched_of(o, all);
    s->replicas = replicas;
    size_t count = (size_t)s->count, runs = count * (size_t)replicas;
    s->first = malloc(((size_t)all + 1) * sizeof *s->first);
    s->which = malloc((count + 1) * sizeof *s->which);
    s->cities = malloc((size_t)n * sizeof *s->cities);
    s->inst = calloc(count + 1, sizeof *s->inst);
    s->runs = malloc((runs + 1) * sizeof *s->runs);
    s->start = malloc((runs + 1) * sizeof *s->start);
    int m_max = n / all + 1;
    s->identity = malloc((size_t)m_max * sizeof *s->identity);
    if (!s->first || !s->which || !s->cities || !s->inst || !s->runs || !s->start ||
        !s->identity)
        return false;
    for (int w = 0; w <= all; w++) s->first[w] = wt_windows_first(n, all, w);
    for (int i = 0, w = 0; w < all; w++)
        if (wt_windows_searched(o, w)) s->which[i++] = w;
    for (int p = 0; p < n; p++) s->cities[p] = tour[(o->offset + p) % n];
    for (int i = 0; i < m_max; i++) s->identity[i] = i;
    int failed = 0;
    for (size_t q = 0; q < runs; q++) s->start[q] = s->identity;
#pragma omp parallel for num_threads(threads) schedule(dynamic, 4)
    for (int i = 0; i < s->count; i++) {
        int w = s->which[i];
        s->inst[i] = wt_instance_subset(inst, "window", s->cities + s->first[w],
                                        s->first[w + 1] - s->first[w]);
        for (int r = 0; r < replicas; r++)
            s->runs[(size_t)i * (size_t)replicas + (size_t)r] = s->inst[i];
        if (!s->inst[i]) {
#pragma omp atomic write
            failed = 1;
        }
    }
    return !failed;
}

/* Window path r (a cycle of 0 .. m - 1 holding the edge (m - 1, 0)) as the
 * path from 0 to m - 1, mapped to the large instance's cities into out. */
static void path_of(const int32_t *r, int m, const int32_t *cities, int32_t *out)
{
    int p0 = 0;
    while (r[p0] != 0) p0++;
    bool back = r[(p0 + 1) % m] == m - 1;
    for (int i = 0; i < m; i++) out[i] = cities[r[back ? (p0 - i + m) % m : (p0 + i) % m]];
}

/* The batch parameters of a round as o asks: the windows slot's and the
 * resident windows' searches take their settings from these alike. */
static void round_params(const wt_windows_opts *o, wt_batch_params *bp)
{
    wt_batch_params_defaults(bp);
    bp->seed = o->seed;
    bp->kicks = o->kicks;
    bp->kick_window = o->kick_window;
    bp->three_opt = o->three_opt ? o->three_opt : WT_TUNING_OFF;
    bp->time_limit_s = o->kicks ? 0 : o->time_limit_s;
    bp->threads = o->threads;
    bp->stop_flag = o->stop_flag;
}

/* ------------------------------------------------------ resident windows */

struct wt_windows_resident_set {
    int count, n;
    wt_device at[WT_MAX_DEVICES];
    wt_windows_resident *on[WT_MAX_DEVICES];
    int32_t *copies; /* with several devices: each one's copy of the tour (n each) */
};

void wt_windows_resident_close(wt_windows_resident_set *r)
{
    if (!r) return;
    for (int d = 0; d < r->count; d++) r->at[d].backend->windows_close(r->on[d]);
    free(r->copies);
    free(r);
}

wt_status wt_windows_resident_open(const wt_instance *inst, const wt_device *device,
                                   const wt_device_set *devices, const int32_t *cand, int ck,
                                   int most, wt_windows_resident_set **out, wt_error *err)
{
    *out = NULL;
    wt_device_set one;
    wt_devices_one(device, &one);
    const wt_device_set *set = devices ? devices : &one;
    wt_windows_resident_set *r = calloc(1, sizeof *r);
    if (r && set->count > 1 &&
        !(r->copies = malloc((size_t)set->count * (size_t)inst->n * sizeof *r->copies))) {
        free(r);
        r = NULL;
    }
    if (!r) return wt_fail(err, WT_STATUS_OUT_OF_MEMORY, "out of memory for resident windows");
    r->n = inst->n;
    for (int d = 0; d < set->count; d++) {
        const wt_backend *b = set->at[d].backend;
        if (!b->windows_open) {
            wt_windows_resident_close(r);
            return wt_fail(err, WT_STATUS_UNSUPPORTED, "the %s backend keeps no resident windows",
                           b->name);
        }
        wt_status st = b->windows_open(&set->at[d], inst, cand, ck, most, &r->on[d], err);
        if (st != WT_OK) {
            wt_windows_resident_close(r);
            return st;
        }
        r->at[d] = set->at[d];
        r->count = d + 1;
    }
    *out = r;
    return WT_OK;
}

/* One device's share of a resident round: windows [from, to) of the
 * searched ones, into the tour (one device) or its own copy of it. */
typedef struct resident_share {
    wt_windows_resident_set *r;
    int device;
    wt_batch_job settings;       /* the round's, with counters of its own */
    wt_batch_counters counters;
    wt_windows_job job;
    const int32_t *from; /* the round's tour, where tour is the device's copy */
    int32_t *tour;
    wt_search_ctl ctl;
    wt_windows_tally tally;
    wt_status status;
    wt_error err;
    pthread_t thread;
    bool threaded;
} resident_share;

static void *resident_share_run(void *arg)
{
    resident_share *s = arg;
    const wt_device *dev = &s->r->at[s->device];
    if (s->from) memcpy(s->tour, s->from, (size_t)s->r->n * sizeof *s->tour);
    s->status = dev->backend->windows_round(s->r->on[s->device], &s->job, s->tour, &s->ctl,
                                            &s->tally, &s->err);
    return NULL;
}

/* The searched windows of a round as o asks: their first positions from
 * the offset and their cities, into start and size (count entries). */
static int searched_windows(const wt_windows_opts *o, int n, int *start, int *size)
{
    int all = wt_windows_count(n, o->window), count = 0;
    for (int w = 0; w < all; w++)
        if (wt_windows_searched(o, w)) {
            start[count] = wt_windows_first(n, all, w);
            size[count++] = wt_windows_first(n, all, w + 1) - wt_windows_first(n, all, w);
        }
    return count;
}

/* A device's copy of the tour: its windows' positions back into tour. */
static void take_share(const resident_share *s, int n, int32_t *tour)
{
    const wt_windows_job *j = &s->job;
    int lo = j->start[0], hi = j->start[j->count - 1] + j->size[j->count - 1];
    for (int p = lo; p < hi; p++) {
        int q = (int)(((int64_t)j->offset + p) % n);
        tour[q] = s->tour[q];
    }
}

/* A round on o->resident (wt_windows_round_run's contract): the searched
 * windows dealt over its devices in runs of consecutive ones, each device's
 * share on a thread of its own (the first on the calling thread). */
static wt_status resident_round(const wt_instance *inst, int32_t *tour, const wt_windows_opts *o,
                                wt_windows_round *out, wt_error *err)
{
    int n = inst->n, all = wt_windows_count(n, o->window);
    wt_windows_resident_set *r = o->resident;
    int *start = malloc((size_t)all * sizeof *start), *size = malloc((size_t)all * sizeof *size);
    resident_share *share = calloc((size_t)r->count, sizeof *share);
    if (!start || !size || !share) {
        free(start);
        free(size);
        free(share);
        return wt_fail(err, WT_STATUS_OUT_OF_MEMORY, "out of memory for a round of windows");
    }
    int count = searched_windows(o, n, start, size), replicas = wt_windows_replicas(o, n);
    wt_batch_params bp;
    round_params(o, &bp);
    wt_batch_job settings = wt_batch_settings(&bp, NULL);
    wt_params wp;
    memset(&wp, 0, sizeof wp);
    wp.time_limit_s = o->kicks ? 0 : o->time_limit_s;
    wp.stop_flag = o->stop_flag;
    wt_search_ctl ctl;
    wt_ctl_init(&ctl, &wp);
    ctl.deadline -= WT_BATCH_FINISH_S + n * WT_WINDOWS_RESIDENT_FINISH_S_PER_CITY;
    int devices = r->count < count ? r->count : count;
    for (int d = 0; d < devices; d++) {
        resident_share *s = &share[d];
        int from = (int)((int64_t)d * count / devices), to = (int)((int64_t)(d + 1) * count / devices);
        s->r = r;
        s->device = d;
        s->settings = settings;
        s->settings.counters = &s->counters;
        s->job = (wt_windows_job){&s->settings, o->offset, to - from, start + from, size + from,
                                  replicas, (uint64_t)from, o->kicks};
        s->ctl = ctl;
        s->tour = devices == 1 ? tour : r->copies + (size_t)d * (size_t)n;
        s->from = devices == 1 ? NULL : tour; /* copied on the share's thread */
    }
    for (int d = 1; d < devices; d++)
        share[d].threaded = pthread_create(&share[d].thread, NULL, resident_share_run, &share[d]) == 0;
    for (int d = 0; d < devices; d++)
        if (!share[d].threaded) resident_share_run(&share[d]);
    wt_status st = WT_OK;
    for (int d = 0; d < devices; d++) {
        if (share[d].threaded) pthread_join(share[d].thread, NULL);
        if (st == WT_OK && share[d].status != WT_OK) {
            st = share[d].status;
            if (err) *err = share[d].err;
        }
    }
    for (int d = 0; d < devices; d++) {
        if (st == WT_OK && devices > 1) take_share(&share[d], n, tour);
        out->improved += share[d].tally.improved;
        out->gain += share[d].tally.gain;
        out->kicks += share[d].tally.kicks;
        out->gpu_s += share[d].tally.gpu_s;
    }
    out->windows = out->on_gpu = count;
    out->replicas = replicas;
    free(start);
    free(size);
    free(share);
    return st;
}

wt_status wt_windows_round_run(const wt_instance *inst, int32_t *tour, const wt_windows_opts *o,
                               wt_windows_round *out, wt_error *err)
{
    double t0 = wt_now();
    memset(out, 0, sizeof *out);
    if (!inst || !tour || !o || !o->device || o->window < 8 || o->offset < 0 ||
        o->offset >= inst->n || (o->kicks == 0 && !(o->time_limit_s > 0)) ||
        (o->candidates && o->candidates_k < 1) || o->stride < 0 || o->phase < 0 ||
        (o->stride > 1 && o->phase >= o->stride))
        return wt_fail(err, WT_STATUS_INVALID_ARGUMENT, "wt_windows_round_run: need an "
                       "instance, a tour, a device, a window of at least 8 cities, an offset "
                       "in the tour, kicks or a time limit, candidate lists of at least 1 "
                       "city if any, and a phase below the stride");
    int n = inst->n;
    if (n < 8) return WT_OK;
    if (o->resident && o->candidates) {
        double t1 = wt_now();
        wt_status st = resident_round(inst, tour, o, out, err);
        out->search_s = wt_now() - t1;
        out->wall_s = wt_now() - t0;
        return st;
    }
    int threads = o->threads > 0 ? o->threads : omp_get_num_procs();
    round_state s;
    int replicas = wt_windows_replicas(o, n);
    if (!cut(&s, inst, tour, o, replicas, threads) ||
        (o->candidates && s.count > 0 && !given_lists(&s, o, n, threads))) {
        state_free(&s);
        return wt_fail(err, WT_STATUS_OUT_OF_MEMORY, "out of memory for the windows of %d "
                       "cities", n);
    }
    if (s.count == 0) { /* the stride's phase lies past the last window */
        state_free(&s);
        out->wall_s = wt_now() - t0;
        return WT_OK;
    }
    wt_batch_params bp;
    round_params(o, &bp);
    wt_batch_result r;
    double t1 = wt_now();
    wt_device_set one;
    wt_devices_one(o->device, &one);
    wt_batch_from from = {.start = (const int32_t *const *)s.start,
                          .nb = (const int32_t *const *)s.nb,
                          .fixed_ends = true,
                          .devices = o->devices ? o->devices : &one};
    wt_status st = wt_batch_solve_from(s.runs, s.count * replicas, &bp, &from, &r, err);
    out->search_s = wt_now() - t1;
    if (st != WT_OK) {
        state_free(&s);
        return st;
    }
    for (int q = 0; q < s.count * replicas; q++)
        if (r.tours[q].status != WT_OK) {
            st = wt_fail(err, r.tours[q].status, "window %d: %s", s.which[q / replicas],
                         r.tours[q].message);
            break;
        }
    if (st == WT_OK) {
        int64_t gain = 0;
        int improved = 0;
#pragma omp parallel for num_threads(threads) schedule(dynamic, 4) reduction(+ : gain, improved)
        for (int i = 0; i < s.count; i++) {
            /* The shortest replica, ties to the first. */
            const wt_batch_tour *first = &r.tours[(size_t)i * (size_t)replicas], *t = first;
            int w = s.which[i];
            for (int q = 1; q < replicas; q++)
                if (first[q].length < t->length) t = &first[q];
            if (t->length >= t->init_length) continue;
            int m = s.first[w + 1] - s.first[w];
            int32_t *path = malloc((size_t)m * sizeof *path);
            if (!path) continue; /* the window stays as it was: still a valid tour */
            path_of(t->tour, m, s.cities + s.first[w], path);
            for (int i = 0; i < m; i++) tour[(o->offset + s.first[w] + i) % n] = path[i];
            free(path);
            gain += t->init_length - t->length;
            improved++;
        }
        out->windows = s.count;
        out->improved = improved;
        out->gain = gain;
        out->kicks = r.kicks;
        out->on_gpu = r.on_gpu / replicas;
        out->replicas = replicas;
        out->gpu_s = r.gpu_time_s;
    }
    wt_batch_result_free(&r);
    state_free(&s);
    out->wall_s = wt_now() - t0;
    return st;
}

wt_status wt_windows_search(const wt_instance *inst, int32_t *tour, wt_search_ctl *ctl,
                            const wt_device *device, int window, double handover,
                            bool *handed_over, wt_search_stats *stats, wt_error *err)
{
    *handed_over = false;
    const wt_params *p = ctl->params;
    int n = inst->n, w = window > 0 ? window : WT_WINDOW_CITIES;
    int64_t length = wt_tour_length(inst, tour);
    double overhead = 0; /* the last round's seconds outside the batch search */
    bool timed = isfinite(ctl->deadline);
    wt_device_set devices;
    char names[128] = "";
    wt_status listed = wt_devices_expand(device, p->devices, p->device_count, false, &devices,
                                         names, sizeof names, err);
    if (listed != WT_OK) return listed;
    for (uint64_t e = 0; n >= 8; e++) {
        if (wt_ctl_report(ctl, length, stats->steps, false)) break;
        if (!timed && e == WT_WINDOW_UNTIMED_ROUNDS) break;
        wt_windows_opts o = {0};
        o.window = w;
        int three_opt = wt_tuning_of(p)->ils_window_3opt;
        o.three_opt = three_opt ? three_opt : WT_WINDOW_THREE_OPT;
        o.offset = wt_windows_offset(p->seed, e, n);
        o.seed = p->seed ^ (e * 0x9e3779b97f4a7c15ULL);
        o.device = device;
        o.devices = devices.count > 1 ? &devices : NULL;
        o.threads = ctl->threads;
        o.stop_flag = p->stop_flag;
        if (timed) {
            /* Long enough that the cutting and putting back (the GPU idles)
             * take a small share of a round; the last one ends at the
             * deadline, less what its overhead will take. */
            double left = ctl->deadline - wt_now() - overhead;
            double round_s = WT_WINDOW_ROUND_OVERHEADS * overhead;
            if (round_s < WT_WINDOW_MIN_ROUND_S) round_s = WT_WINDOW_MIN_ROUND_S;
            if (left < 2 * round_s) round_s = left;
            if (round_s <= 0.01) break;
            o.time_limit_s = round_s;
        } else {
            o.kicks = (uint64_t)(w / WT_WINDOW_UNTIMED_CITIES_PER_KICK);
        }
        wt_windows_round rd;
        wt_status st = wt_windows_round_run(inst, tour, &o, &rd, err);
        if (st != WT_OK) return st;
        overhead = rd.wall_s - rd.search_s;
        length -= rd.gain;
        stats->kicks += rd.kicks;
        stats->steps += (uint64_t)rd.improved;
        stats->gpu_time_s += rd.gpu_s;
        stats->passes++; /* rounds */
        ctl->kicks = stats->kicks;
        /* The windows' gains dried up: what is left lies between them. */
        if (timed && handover > 0 && (double)rd.gain < handover * (double)length * rd.wall_s) {
            *handed_over = !wt_ctl_expired(ctl);
            if (*handed_over) return WT_OK;
        }
    }
    /* Searching for as long as the time limit allows ends normally there. */
    if (ctl->stop == WT_STOP_TIME_LIMIT) ctl->stop = WT_STOP_DONE;
    return WT_OK;
}
