/*
 * batch.c - the search of a batch (wt_solve_batch, wt_solve_batch_points:
 * batch_solve.c; wt_batch_solve_from): many instances, each solved by an
 * Iterated Local Search of its own (core/batch_search.h, or the host's LK
 * ILS of batch_lk.c through wt_batch_from.lk).
 *
 * The call checks its parameters, then prepares every instance on the
 * host's threads: the greedy start tour and each city's k nearest cities,
 * the two things both implementations start from.  An instance that cannot
 * be prepared (NULL, too large, out of memory) gets its own status and the
 * others go on.  Once the time limit or a stop comes, the instances not yet
 * prepared get a start tour only (the strip tour, a fraction of
 * greedy's time, where none is given) and are not searched: they keep it.
 * The devices are chosen once, at the entry (choose_devices:
 * params.backend, params.cuda_device and params.devices; the window search
 * hands its own).  Each instance is then placed: on one of those devices
 * when they are not the host and the instance fits there (a GPU: a group's
 * shared memory; each device's batch_place slot, since the GPUs of a
 * machine may differ), else on the host.  With several devices the
 * instances are dealt one by one to the device that fits them with the
 * fewest cities so far (ties to the earlier in the list), and each device
 * ranks its own (the time shares of batch_run.h).  The devices' instances
 * run first, all devices at once, each through its backend's slot on a
 * host thread of its own while the calling thread reports progress; then
 * the host's, through the host's batch slot (windows slot for the windows
 * of algo/windows.c); under a time limit the devices' part gets their
 * instances' share of the time.  Lengths are recomputed on the host at the
 * end, so every reported length is exact.
 *
 * Where an instance runs does not change its tour: the search of an
 * instance is a function of its start tour, its lists, the job's settings
 * and its random stream (seed, index), which is its number in the whole
 * batch whichever device or job it lands in (batch_run.h), so a batch on
 * several GPUs gives one GPU's tours (and the CPU's) for the same seed and
 * kick budget.  Each device adds to counters of its own, which the calling
 * thread sums for progress reports and the result: two devices never
 * write the same counter.
 * An instance the stop came to before its first descent ended (or began)
 * makes the result's stop "time-limit" (or "interrupted"): the time was
 * not enough for the batch.
 */
#include "algo/batch.h"

#include <limits.h>
#include <math.h>
#include <omp.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "algo/alpha.h"
#include "algo/policy.h"
#include "backend/backend.h"
#include "core/error.h"
#include "core/init.h"
#include "core/instance.h"
#include "core/neighbours.h"
#include "core/search_ctl.h"

void wt_batch_params_defaults(wt_batch_params *p)
{
    if (!p) return;
    memset(p, 0, sizeof *p);
    p->backend = WT_BACKEND_AUTO;
    p->seed = 1;
    p->accept_equal = true;
    p->progress_interval_s = 0.5;
}

int wt_batch_neighbours(const wt_batch_params *p)
{
    return p->neighbours ? p->neighbours : WT_BATCH_NEIGHBOURS;
}

int wt_batch_three_opt(const wt_batch_params *p, int *from)
{
    int k = wt_batch_neighbours(p);
    *from = p->three_opt ? 0 : WT_BATCH_THREE_OPT_FROM;
    if (p->three_opt == WT_TUNING_OFF) return 0;
    if (p->three_opt) return p->three_opt;
    return WT_BATCH_THREE_OPT < k ? WT_BATCH_THREE_OPT : k;
}

bool wt_batch_alpha(const wt_batch_params *p, int n, bool fixed_ends)
{
    if (p->candidates == WT_BATCH_CANDIDATES_AUTO)
        return !fixed_ends && n >= WT_BATCH_ALPHA_FROM;
    return p->candidates == WT_BATCH_CANDIDATES_ALPHA;
}

bool wt_batch_lk(const wt_batch_params *p, int n, int count, int threads, bool fixed_ends)
{
    if (fixed_ends || p->search == WT_BATCH_SEARCH_BATCH) return false;
    if (p->search == WT_BATCH_SEARCH_LK) return true;
    return n >= WT_BATCH_LK_FROM && p->time_limit_s > 0 &&
           p->time_limit_s * threads >= (double)count * n * WT_BATCH_LK_CORE_S_PER_CITY;
}

uint64_t wt_batch_kicks(const wt_batch_params *p, int n)
{
    if (p->kicks > 0) return p->kicks;
    return p->time_limit_s > 0 ? 0 : WT_BATCH_DEFAULT_KICKS(n);
}

void wt_batch_result_free(wt_batch_result *res)
{
    if (!res) return;
    for (int i = 0; res->tours && i < res->count; i++) free(res->tours[i].tour);
    free(res->tours);
    memset(res, 0, sizeof *res);
}

wt_status wt_batch_params_check(const wt_batch_params *p, wt_error *err)
{
#define BAD(...) wt_fail(err, WT_STATUS_INVALID_ARGUMENT, "wt_solve_batch: " __VA_ARGS__)
    if (!wt_backend_name(p->backend))
        return BAD("params.backend %d is no wt_backend_kind", (int)p->backend);
    if (!isfinite(p->time_limit_s))
        return BAD("params.time_limit_s must be a finite number (<= 0: none)");
    if (p->threads < 0 || p->threads > WT_MAX_THREADS)
        return BAD("params.threads is %d; expected 0 (all cores) or 1..%d", p->threads,
                   WT_MAX_THREADS);
    if (!isfinite(p->progress_interval_s) || p->progress_interval_s < 0)
        return BAD("params.progress_interval_s must be a finite number of seconds >= 0");
    if (p->cuda_device < 0)
        return BAD("params.cuda_device is %d; expected 0 or more", p->cuda_device);
    wt_status st = wt_devices_check(p->devices, p->device_count, "wt_solve_batch", err);
    if (st != WT_OK) return st;
    if (p->candidates != WT_BATCH_CANDIDATES_AUTO && p->candidates != WT_BATCH_CANDIDATES_NEAREST &&
        p->candidates != WT_BATCH_CANDIDATES_ALPHA)
        return BAD("params.candidates %d is no wt_batch_candidates", (int)p->candidates);
    if (p->search != WT_BATCH_SEARCH_AUTO && p->search != WT_BATCH_SEARCH_BATCH &&
        p->search != WT_BATCH_SEARCH_LK)
        return BAD("params.search %d is no wt_batch_search", (int)p->search);
    if (p->alpha_steps < 0 || p->alpha_steps > 1000000)
        return BAD("params.alpha_steps is %d; expected 0 (the default) or 1..1000000",
                   p->alpha_steps);
    if (p->alpha_period < 0 || p->alpha_period > 1000000)
        return BAD("params.alpha_period is %d; expected 0 (the default) or 1..1000000",
                   p->alpha_period);
    if (p->neighbours != 0 && (p->neighbours < 2 || p->neighbours > 16))
        return BAD("params.neighbours is %d; expected 0 (the default) or 2..16", p->neighbours);
    if (p->kick_window != 0 && p->kick_window < 3)
        return BAD("params.kick_window is %d; expected 0 (the whole tour) or at least 3",
                   p->kick_window);
    if (p->accept_slack != 0 && p->accept_slack != WT_TUNING_OFF &&
        (p->accept_slack < 1 || p->accept_slack > 100000))
        return BAD("params.accept_slack is %d; expected 0 (the default), WT_TUNING_OFF or "
                   "1..100000", p->accept_slack);
    if (p->three_opt != 0 && p->three_opt != WT_TUNING_OFF &&
        (p->three_opt < 1 || p->three_opt > wt_batch_neighbours(p)))
        return BAD("params.three_opt is %d; expected 0 (the default), WT_TUNING_OFF or 1..%d "
                   "(params.neighbours)", p->three_opt, wt_batch_neighbours(p));
    if (p->kick_edges != 0 && p->kick_edges != 3 && p->kick_edges != 4)
        return BAD("params.kick_edges is %d; expected 0 (the default), 3 or 4", p->kick_edges);
    if (p->gpu_threads != 0 && p->gpu_threads != 32 && p->gpu_threads != 64 &&
        p->gpu_threads != 128 && p->gpu_threads != 256)
        return BAD("params.gpu_threads is %d; expected 0 (by n), 32, 64, 128 or 256",
                   p->gpu_threads);
    return WT_OK;
#undef BAD
}

/* Everything one call allocates besides the result's tours. */
typedef struct batch_state {
    int count, k;
    wt_batch_from from;                        /* what wt_batch_solve_from was given
                                                  (start NULL: greedy start tours) */
    wt_device_set devs;                        /* where the search runs, with the host */
    const wt_instance **host_inst;             /* each instance on the host, else NULL */
    const wt_instance **dev_inst;              /* devs.count rows of count: row d holds
                                                  the instances device d runs, else NULL */
    const wt_instance **lk_inst;               /* each instance the host's LK ILS
                                                  searches, else NULL (batch_lk.h) */
    int32_t **twin;                            /* count: where an instance of lk_inst
                                                  runs on a device too, the device's
                                                  tour (a copy of the start tour),
                                                  else NULL */
    int32_t **dev_tour;                        /* count: the device's tours (twin, else
                                                  tour), with twins */
    int64_t *dev_length;                       /* count: their lengths, and */
    uint64_t *dev_kicks;                       /* their kicks, with twins */
    int *on_dev;                               /* count: the device of each (-1: none) */
    int placed[WT_MAX_DEVICES];                /* instances each device runs */
    int32_t **tour, **nb;                      /* nb[i] NULL: not to be searched */
    uint64_t *index, *budget, *rank, *kicks;
    uint64_t *dev_rank;                        /* the ranks of the devices' instances */
    int64_t *length;                           /* -1: the first descent cut short
                                                  or never begun (batch_run.h) */
} batch_state;

static void state_free(batch_state *s)
{
    for (int i = 0; s->nb && i < s->count; i++) {
        free(s->tour[i]);
        free(s->nb[i]);
        if (s->twin) free(s->twin[i]);
    }
    free(s->host_inst);
    free(s->lk_inst);
    free(s->twin);
    free(s->dev_tour);
    free(s->dev_length);
    free(s->dev_kicks);
    free(s->dev_inst);
    free(s->on_dev);
    free(s->tour);
    free(s->nb);
    free(s->index);
    free(s->length);
}

static bool state_alloc(batch_state *s, int count, int k, const wt_device_set *devs)
{
    size_t c = (size_t)count;
    memset(s, 0, sizeof *s);
    s->count = count;
    s->k = k;
    s->devs = *devs;
    s->host_inst = calloc(c, sizeof *s->host_inst);
    s->lk_inst = calloc(c, sizeof *s->lk_inst);
    s->twin = calloc(c, sizeof *s->twin);
    s->dev_tour = calloc(c, sizeof *s->dev_tour);
    s->dev_length = calloc(c, sizeof *s->dev_length);
    s->dev_kicks = calloc(c, sizeof *s->dev_kicks);
    s->dev_inst = calloc(c * (size_t)devs->count, sizeof *s->dev_inst);
    s->on_dev = malloc(c * sizeof *s->on_dev);
    s->tour = calloc(c, sizeof *s->tour);
    s->nb = calloc(c, sizeof *s->nb);
    s->index = calloc(5 * c, sizeof *s->index); /* index, budget, rank, kicks, dev_rank */
    s->length = calloc(c, sizeof *s->length);
    if (!s->host_inst || !s->dev_inst || !s->on_dev || !s->tour || !s->nb || !s->index ||
        !s->length || !s->lk_inst || !s->twin || !s->dev_tour || !s->dev_length ||
        !s->dev_kicks) {
        state_free(s);
        return false;
    }
    s->budget = s->index + c;
    s->rank = s->budget + c;
    s->kicks = s->rank + c;
    s->dev_rank = s->kicks + c;
    return true;
}

void wt_batch_tour_fail(wt_batch_tour *t, int i, const wt_instance *inst, wt_status st,
                     const char *why)
{
    t->status = st;
    snprintf(t->message, sizeof t->message, "instance %d%s%.60s%s: %.160s", i, inst ? " (" : "",
             inst ? inst->name : "", inst ? ")" : "", why);
    t->length = -1;
}

/* The k nearest cities of every city of inst, as n rows of k entries: for
 * an instance of n <= k cities, n - 1 cities and -1 after them. */
static wt_status neighbour_rows(const wt_instance *inst, int k, int32_t *nb, wt_error *err)
{
    int n = inst->n, have = k < n - 1 ? k : n - 1;
    wt_status st = wt_neighbour_lists(inst, have, nb, err);
    if (st != WT_OK || have == k) return st;
    for (int c = n - 1; c >= 0; c--) { /* spread the rows of `have` out to k */
        size_t row = (size_t)c * (size_t)k, was = (size_t)c * (size_t)have;
        for (int q = k - 1; q >= 0; q--) nb[row + (size_t)q] = q < have ? nb[was + (size_t)q] : -1;
    }
    return WT_OK;
}

/* Row `row` of k cities of city c kept its first entry of each city but c,
 * in order, then filled from `fill` (a row of k, NULL: none) with the
 * cities not in it, then with -1. */
static void fill_row(int32_t *row, int k, int c, const int32_t *fill)
{
    int have = 0;
    for (int q = 0; q < k + (fill ? k : 0) && have < k; q++) {
        int32_t d = q < k ? row[q] : fill[q - k];
        bool there = d < 0 || d == c;
        for (int x = 0; x < have && !there; x++) there = row[x] == d;
        if (!there) row[have++] = d;
    }
    for (int x = have; x < k; x++) row[x] = -1;
}

/* Whether some row of nb (n rows of k) repeats a city or names its own. */
static bool rows_repeat(const int32_t *nb, int n, int k)
{
    for (int c = 0; c < n; c++) {
        const int32_t *row = nb + (size_t)c * (size_t)k;
        for (int q = 0; q < k; q++) {
            if (row[q] == c) return true;
            for (int x = 0; x < q; x++)
                if (row[q] >= 0 && row[x] == row[q]) return true;
        }
    }
    return false;
}

/* The k candidates of every city of inst by alpha-nearness into nb, as n
 * rows of k (algo/alpha.h): a short ascent of the instance on the host's
 * slot with one thread (the caller's threads take an instance each), of
 * p's steps and period; where the ascent's row repeats a city (its graph
 * had fewer than k neighbours to fill it), the repeats give way to the
 * nearest cities not in the row.  The stop is ctl's, polled by the
 * ascent; its progress stays with the calling thread (prepare_one), so
 * the ascent runs on a copy that reports nothing (a real-valued
 * instance's runs on its scaled copy: wt_alpha_run).  *made false with nb
 * untouched when the instance has no ascent (fewer than 8 cities, k >= n,
 * a metric the host's slot refuses) or ctl stopped it (*stopped). */
static wt_status alpha_rows(const wt_instance *inst, int k, const wt_batch_params *p,
                            const wt_search_ctl *ctl, int32_t *nb, bool *made, bool *stopped,
                            wt_error *err)
{
    wt_search_ctl one = *ctl;
    one.threads = 1;
    one.shown_best = 0; /* wt_ctl_tick is silent */
    one.next_report = INFINITY;
    wt_device host;
    wt_device_host(&host);
    int steps = p->alpha_steps ? p->alpha_steps : WT_BATCH_ALPHA_STEPS;
    int period = p->alpha_period ? p->alpha_period : WT_BATCH_ALPHA_PERIOD;
    wt_alpha a = {.candidates = NULL};
    wt_alpha_plan plan = {INFINITY, steps, period};
    wt_status st = wt_alpha_run(inst, &host, &one, &plan, NULL, k, &a, err);
    *made = st == WT_OK && a.candidates;
    *stopped = st == WT_OK && !a.candidates && wt_ctl_expired(&one);
    if (!*made) return st;
    int n = inst->n;
    memcpy(nb, a.candidates, (size_t)n * (size_t)k * sizeof *nb);
    wt_alpha_free(&a);
    if (!rows_repeat(nb, n, k)) return WT_OK;
    int32_t *near = malloc((size_t)n * (size_t)k * sizeof *near);
    if (!near) return wt_fail(err, WT_STATUS_OUT_OF_MEMORY, "out of memory");
    st = neighbour_rows(inst, k, near, err);
    for (int c = 0; st == WT_OK && c < n; c++)
        fill_row(nb + (size_t)c * (size_t)k, k, c, near + (size_t)c * (size_t)k);
    free(near);
    return st;
}

/* Each city's k candidates of instance inst into nb, as p asks
 * (wt_batch_alpha): by alpha-nearness, else (or where the instance has no
 * ascent) its nearest.  *stopped: ctl stopped the ascent first (nb not to
 * be used). */
static wt_status candidate_rows(const wt_instance *inst, int k, bool fixed_ends,
                                const wt_batch_params *p, const wt_search_ctl *ctl, int32_t *nb,
                                bool *stopped, wt_error *err)
{
    *stopped = false;
    if (wt_batch_alpha(p, inst->n, fixed_ends)) {
        bool made = false;
        wt_status st = alpha_rows(inst, k, p, ctl, nb, &made, stopped, err);
        if (st != WT_OK || made || *stopped) return st;
    }
    return neighbour_rows(inst, k, nb, err);
}

wt_status wt_batch_lists(const wt_instance *inst, const wt_batch_params *p, int32_t *nb,
                         wt_error *err)
{
    wt_params wp;
    memset(&wp, 0, sizeof wp);
    wp.threads = 1;
    wt_search_ctl ctl;
    wt_ctl_init(&ctl, &wp);
    bool stopped;
    return candidate_rows(inst, wt_batch_neighbours(p), false, p, &ctl, nb, &stopped, err);
}

/* A city of a strip, by its x. */
typedef struct strip_city {
    double x;
    int32_t c;
} strip_city;

static int strip_city_cmp(const void *a, const void *b)
{
    const strip_city *u = a, *v = b;
    return u->x < v->x ? -1 : u->x > v->x ? 1 : (u->c > v->c) - (u->c < v->c);
}

/* Sorts a strip's m cities by x, ties by number: by insertion when short
 * (the strips of a uniform instance hold about 2 sqrt(n / 2) cities). */
static void strip_sort(strip_city *b, size_t m)
{
    if (m > 64) {
        qsort(b, m, sizeof *b, strip_city_cmp);
        return;
    }
    for (size_t i = 1; i < m; i++) {
        strip_city v = b[i];
        size_t j = i;
        for (; j > 0 && strip_city_cmp(&b[j - 1], &v) > 0; j--) b[j] = b[j - 1];
        b[j] = v;
    }
}

/* The strip tour of inst into tour (Beardwood, Halton & Hammersley 1959,
 * section 4): about sqrt(n / 2) horizontal strips of the bounding box,
 * each walked by x, alternately left to right and back; the cities in
 * order where the instance has no coordinates.  The start tour of the
 * instances a stop came before: some 20 microseconds at 1,000 cities (a
 * counting sort into strips, each sorted), where the spacefill tour's
 * Hilbert keys take 0.2 ms and greedy 0.8 ms, and about as long (25% above
 * the optimum on uniform points).  False when out of memory. */
static bool strip_tour(const wt_instance *inst, int32_t *tour)
{
    const int n = inst->n;
    const double *x, *y;
    if (!wt_instance_coords(inst, &x, &y)) {
        for (int c = 0; c < n; c++) tour[c] = c;
        return true;
    }
    double lo = y[0], hi = y[0];
    for (int c = 1; c < n; c++) {
        if (y[c] < lo) lo = y[c];
        if (y[c] > hi) hi = y[c];
    }
    int strips = (int)sqrt(n / 2.0);
    if (strips < 1) strips = 1;
    int *start = calloc((size_t)strips + 1, sizeof *start);
    strip_city *at = malloc((size_t)n * sizeof *at);
    if (!start || !at) {
        free(start);
        free(at);
        return false;
    }
    double scale = hi > lo ? strips / (hi - lo) : 0.0;
    for (int c = 0; c < n; c++) { /* tour[c]: c's strip, for now */
        int q = (int)((y[c] - lo) * scale);
        tour[c] = q < 0 ? 0 : q >= strips ? strips - 1 : q;
        start[tour[c] + 1]++;
    }
    for (int q = 0; q < strips; q++) start[q + 1] += start[q];
    for (int c = 0; c < n; c++) at[start[tour[c]]++] = (strip_city){x[c], c};
    for (int q = strips; q > 0; q--) start[q] = start[q - 1]; /* back to the strips' starts */
    start[0] = 0;
    for (int q = 0; q < strips; q++) {
        strip_city *b = at + start[q];
        size_t m = (size_t)(start[q + 1] - start[q]);
        strip_sort(b, m);
        for (size_t r = 0; r < m; r++) tour[start[q] + (int)r] = b[q % 2 ? m - 1 - r : r].c;
    }
    free(start);
    free(at);
    return true;
}

/* Start tour and neighbour lists of instance i, or its failure in t; the
 * lists copied from nb_from when given (the caller's, or the same
 * instance's).  Once ctl has expired the instance is not to be searched:
 * it gets its start tour only, without lists (s->nb[i] NULL), and where
 * none is given and greedy's is not built yet, the strip tour (greedy and
 * the lists take 1.4 ms at 1,000 cities: 3,000 such instances on 2
 * threads, 2 s after the stop). */
static void prepare_one(batch_state *s, const wt_instance *inst, int i,
                        const wt_batch_params *p, const int32_t *nb_from, wt_search_ctl *ctl,
                        wt_batch_tour *t)
{
    if (t->status != WT_OK) return; /* failed before (wt_solve_batch_points) */
    if (omp_get_thread_num() == 0) /* the calling thread: progress, and its stop */
        (void)wt_ctl_report_climbs(ctl, 0, 0, 0, false);
    /* Messages number an instance as the whole batch does (an MPI rank's
     * share is a part of it). */
    int at = s->from.index ? (int)s->from.index[i] : i;
    if (!inst) {
        wt_batch_tour_fail(t, at, NULL, WT_STATUS_INVALID_ARGUMENT, "no instance (NULL)");
        return;
    }
    int n = inst->n;
    t->n = n;
    if (inst->sym) {
        wt_batch_tour_fail(t, at, inst, WT_STATUS_UNSUPPORTED, "an asymmetric instance (TYPE: ATSP): "
                 "a batch cannot keep the fixed edges of its symmetric form; use solve");
        return;
    }
    if (inst->fixed_count > 0) { /* no batch search keeps them */
        wt_batch_tour_fail(t, at, inst, WT_STATUS_UNSUPPORTED, "fixed edges (FIXED_EDGES_SECTION): a "
                 "batch cannot keep them; use solve");
        return;
    }
    if (n > WT_BATCH_MAX_CITIES) {
        char why[128];
        snprintf(why, sizeof why, "%d cities; an instance of a batch may have up to %d cities "
                 "(solve takes more)", n, WT_BATCH_MAX_CITIES);
        wt_batch_tour_fail(t, at, inst, WT_STATUS_TOO_LARGE, why);
        return;
    }
    wt_error e = {0};
    bool search = !wt_ctl_expired(ctl);
    s->tour[i] = malloc((size_t)n * sizeof(int32_t));
    wt_status st = WT_OK;
    if (!s->tour[i])
        st = wt_fail(&e, WT_STATUS_OUT_OF_MEMORY, "out of memory");
    else if (s->from.start)
        memcpy(s->tour[i], s->from.start[i], (size_t)n * sizeof(int32_t));
    else if (!search && !strip_tour(inst, s->tour[i]))
        st = wt_fail(&e, WT_STATUS_OUT_OF_MEMORY, "out of memory");
    else if (search)
        st = wt_tour_init_threads(inst, WT_INIT_GREEDY, p->seed, 1, s->tour[i], &e);
    search = search && !wt_ctl_expired(ctl); /* no lists after the stop either */
    bool stopped = false;
    if (st == WT_OK && search) {
        s->nb[i] = malloc((size_t)n * (size_t)s->k * sizeof(int32_t));
        if (!s->nb[i])
            st = wt_fail(&e, WT_STATUS_OUT_OF_MEMORY, "out of memory");
        else if (nb_from)
            memcpy(s->nb[i], nb_from, (size_t)n * (size_t)s->k * sizeof *nb_from);
        else
            st = candidate_rows(inst, s->k, s->from.fixed_ends, p, ctl, s->nb[i], &stopped, &e);
    }
    if (stopped) { /* no lists after the stop: the start tour stays */
        free(s->nb[i]);
        s->nb[i] = NULL;
    }
    if (st != WT_OK) {
        wt_batch_tour_fail(t, at, inst, st, e.message);
        return;
    }
    t->init_length = wt_tour_length(inst, s->tour[i]);
    s->index[i] = s->from.index ? s->from.index[i] : (uint64_t)i;
    s->budget[i] = wt_batch_kicks(p, n);
}

/* Prepares every instance on ctl's threads, polling ctl (prepare_one).
 * An instance repeated in a row (the replicas of a window, algo/windows.c)
 * gets its lists once: the first of the run computes them, the others
 * copy. */
static void prepare_all(batch_state *s, const wt_instance *const *insts,
                        const wt_batch_params *p, wt_search_ctl *ctl, wt_batch_tour *t)
{
#pragma omp parallel for num_threads(ctl->threads) schedule(dynamic, 8)
    for (int i = 0; i < s->count; i++)
        if (i == 0 || !insts[i] || insts[i] != insts[i - 1])
            prepare_one(s, insts[i], i, p, s->from.nb ? s->from.nb[i] : NULL, ctl, &t[i]);
#pragma omp parallel for num_threads(ctl->threads) schedule(dynamic, 8)
    for (int i = 1; i < s->count; i++) {
        if (!insts[i] || insts[i] != insts[i - 1]) continue;
        int f = i - 1;
        while (f > 0 && insts[f - 1] == insts[i]) f--;
        prepare_one(s, insts[i], i, p, t[f].status == WT_OK ? s->nb[f] : NULL, ctl, &t[i]);
    }
}

/* Which of s->host_inst device d fits, into fits (count). */
static void device_fits(const batch_state *s, int d, const wt_batch_params *p, bool *fits)
{
    const wt_device *dev = &s->devs.at[d];
    if (dev->backend->batch_place)
        dev->backend->batch_place(dev, s->host_inst, s->count, p->gpu_threads, fits);
    else
        for (int i = 0; i < s->count; i++) fits[i] = true;
}

/* Instance i, which the host's LK ILS searches, on device d too: the
 * device searches a copy of its start tour (false: out of memory). */
static bool add_twin(batch_state *s, int i, int d)
{
    size_t bytes = (size_t)s->host_inst[i]->n * sizeof(int32_t);
    s->twin[i] = malloc(bytes);
    if (!s->twin[i]) return false;
    memcpy(s->twin[i], s->tour[i], bytes);
    s->dev_inst[(size_t)d * (size_t)s->count + (size_t)i] = s->host_inst[i];
    return true;
}

/* Places every instance prepared to be searched: on the host's LK ILS
 * where wt_batch_lk says (with auto, on a device of s->devs too where one
 * fits it: twins), else on a device when they are not the host and the
 * instance fits one (dealt as the top of the file says), else on the
 * host's batch search; sets ranks within each device, the host's LK and
 * the host's batch search.  Returns the number placed on the devices
 * (twins included), or -1 when out of memory; into *on_lk and *on_host
 * the host's. */
static int place(batch_state *s, const wt_instance *const *insts, const wt_batch_tour *t,
                 const wt_batch_params *p, int threads, int *on_lk, int *on_host)
{
    int devices = s->devs.at[0].backend->host ? 0 : s->devs.count;
    bool *fits = calloc((size_t)s->count * (size_t)(devices > 0 ? devices : 1), sizeof *fits);
    if (!fits) return -1;
    int searched = 0;
    for (int i = 0; i < s->count; i++) {
        s->host_inst[i] = t[i].status == WT_OK && s->nb[i] ? insts[i] : NULL;
        s->on_dev[i] = -1;
        s->dev_tour[i] = s->tour[i];
        searched += s->host_inst[i] != NULL;
    }
    for (int d = 0; d < devices; d++) device_fits(s, d, p, fits + (size_t)d * (size_t)s->count);
    double cities[WT_MAX_DEVICES] = {0};
    int dev = 0, host = 0, lk = 0;
    bool oom = false;
    for (int i = 0; i < s->count && !oom; i++) {
        if (!s->host_inst[i]) continue;
        bool on_lk = s->from.lk &&
                     wt_batch_lk(p, s->host_inst[i]->n, searched, threads, s->from.fixed_ends);
        int to = -1;
        for (int d = 0; d < devices && (!on_lk || p->search == WT_BATCH_SEARCH_AUTO); d++)
            if (fits[(size_t)d * (size_t)s->count + (size_t)i] && (to < 0 || cities[d] < cities[to]))
                to = d;
        if (on_lk) {
            s->lk_inst[i] = s->host_inst[i];
            s->rank[i] = (uint64_t)lk++;
            if (to >= 0 && !add_twin(s, i, to)) oom = true;
        } else if (to < 0) {
            s->rank[i] = (uint64_t)host++;
            continue;
        } else {
            s->dev_inst[(size_t)to * (size_t)s->count + (size_t)i] = s->host_inst[i];
        }
        if (to >= 0) {
            s->on_dev[i] = to;
            s->dev_rank[i] = (uint64_t)s->placed[to]++;
            cities[to] += s->host_inst[i]->n;
            dev++;
        }
        s->host_inst[i] = NULL;
    }
    for (int i = 0; i < s->count; i++)
        if (s->twin[i]) s->dev_tour[i] = s->twin[i];
    free(fits);
    *on_lk = lk;
    *on_host = host;
    return oom ? -1 : dev;
}

/* The user's callback, behind search_ctl's. */
typedef struct progress_relay {
    const wt_batch_params *params;
    int count;
} progress_relay;

static int relay_progress(const wt_progress *p, void *user)
{
    const progress_relay *r = user;
    /* An instance that both the host's LK ILS and a device search counts
     * on each side: done never passes the count. */
    int done = p->climbs < (uint64_t)r->count ? (int)p->climbs : r->count;
    wt_batch_progress bp = {p->elapsed_s, done, r->count, p->kicks};
    return r->params->progress(&bp, r->params->progress_user);
}

wt_batch_job wt_batch_settings(const wt_batch_params *p, wt_batch_counters *counters)
{
    int from, breadth = wt_batch_three_opt(p, &from);
    return (wt_batch_job){
        .k = wt_batch_neighbours(p), .breadth = breadth, .breadth_from = from,
        .kick_edges = p->kick_edges,
        .window = p->kick_window ? p->kick_window : INT_MAX,
        .slack = p->accept_slack == WT_TUNING_OFF ? 0
                 : p->accept_slack ? p->accept_slack : WT_BATCH_ACCEPT_SLACK,
        .accept_equal = p->accept_equal, .seed = p->seed,
        .counters = counters,
        .threads = p->gpu_threads, .part_bytes = p->gpu_part_bytes,
    };
}

/* The job of one side: the instances in inst, the rest NULL; on a device
 * (`device`) with the devices' tours, ranks, lengths and kicks. */
static wt_batch_job side_job(const batch_state *s, const wt_instance **inst, int ranked,
                             const wt_batch_params *p, wt_batch_counters *counters, bool device)
{
    wt_batch_job job = wt_batch_settings(p, counters);
    job.count = s->count;
    job.inst = inst;
    job.tour = device ? s->dev_tour : s->tour;
    job.nb = (const int32_t *const *)s->nb;
    job.index = s->index;
    job.budget = s->budget;
    job.rank = device ? s->dev_rank : s->rank;
    job.length = device ? s->dev_length : s->length;
    job.kicks = device ? s->dev_kicks : s->kicks;
    job.k = s->k;
    job.ranked = (uint64_t)ranked;
    return job;
}

/* The slot of backend b that runs s's instances: the windows slot for
 * windows (paths with fixed ends), else the batch slot. */
static wt_status run_slot(const batch_state *s, const wt_device *dev, const wt_batch_job *job,
                          wt_search_ctl *ctl, wt_error *err)
{
    const wt_backend *b = dev->backend;
    return s->from.fixed_ends ? b->windows(dev, job, ctl, err) : b->batch(dev, job, ctl, err);
}

/* One device's share of the batch, run on a host thread of its own. */
typedef struct device_run {
    const batch_state *s;
    const wt_device *dev;
    wt_batch_job job;
    wt_search_ctl ctl;          /* the search's, with `quiet` as its params */
    wt_params quiet;            /* no progress callback (the calling thread
                                   reports); the stop flag: stop_all */
    wt_batch_counters counters; /* this device's alone */
    wt_status status;
    wt_error err;
    int finished;               /* set (atomic, release) once the slot returned */
    pthread_t thread;
    bool threaded;              /* thread runs it; else the calling thread did */
} device_run;

static void *device_thread(void *arg)
{
    device_run *r = arg;
    r->status = run_slot(r->s, r->dev, &r->job, &r->ctl, &r->err);
    __atomic_store_n(&r->finished, 1, __ATOMIC_RELEASE);
    return NULL;
}

static uint64_t load_u64(const uint64_t *x) { return __atomic_load_n(x, __ATOMIC_RELAXED); }

/* The calling thread while the devices run: every few milliseconds the
 * devices' counts since `before` added to base's (the host's so far) in a
 * progress report; the caller's stop
 * (flag or callback) or a device's failure raises stop_all, which every
 * device's search polls as its stop flag. */
static void watch_devices(device_run *runs, int count, wt_search_ctl *ctl,
                          const wt_batch_counters *before, const wt_batch_counters *base,
                          volatile int *stop_all)
{
    wt_search_ctl watch = *ctl;
    watch.deadline = INFINITY; /* each device keeps its own deadline */
    for (;;) {
        int finished = 0;
        uint64_t done = base->done, kicks = base->kicks; /* and the devices' since before */
        for (int d = 0; d < count; d++) {
            bool over = __atomic_load_n(&runs[d].finished, __ATOMIC_ACQUIRE);
            finished += over;
            if (over && runs[d].status != WT_OK) *stop_all = 1;
            done += load_u64(&runs[d].counters.done) - before->done; /* each counts on */
            kicks += load_u64(&runs[d].counters.kicks) - before->kicks; /* from before */
        }
        if (finished == count) break;
        watch.kicks = kicks;
        if (wt_ctl_report_climbs(&watch, 0, 0, done, false)) *stop_all = 1;
        struct timespec pause = {0, 5 * 1000 * 1000};
        nanosleep(&pause, NULL);
    }
    ctl->next_report = watch.next_report;
    if (watch.stop == WT_STOP_INTERRUPTED) ctl->stop = WT_STOP_INTERRUPTED;
}

/* Runs every device's share at once (part: the devices' search control,
 * its deadline their share of the time), and meanwhile on the calling
 * thread the host's LK job lk (NULL: none) under lk_ctl; the devices'
 * counters added to counters, part->stop the most severe of their stops.
 * The first failure, the host's LK job's, then in the list's order, is
 * the call's. */
static wt_status run_devices(batch_state *s, const wt_batch_params *p, wt_search_ctl *part,
                             const wt_batch_job *lk, wt_search_ctl *lk_ctl,
                             wt_batch_counters *counters, wt_error *err)
{
    int count = s->devs.count;
    device_run *runs = calloc((size_t)count, sizeof *runs);
    if (!runs) return wt_fail(err, WT_STATUS_OUT_OF_MEMORY, "out of memory for %d devices", count);
    volatile int stop_all = 0;
    for (int d = 0; d < count; d++) {
        device_run *r = &runs[d];
        r->s = s;
        r->dev = &s->devs.at[d];
        r->quiet = *part->params;
        r->quiet.progress = NULL;
        r->quiet.stop_flag = &stop_all;
        r->ctl = *part;
        r->ctl.params = &r->quiet;
        r->counters.done = counters->done; /* the host's progress counts from here */
        r->counters.kicks = counters->kicks;
        r->job = side_job(s, s->dev_inst + (size_t)d * (size_t)s->count, s->placed[d], p,
                          &r->counters, true);
    }
    wt_batch_counters before = *counters;
    for (int d = 0; d < count; d++)
        runs[d].threaded = s->placed[d] > 0 &&
                           pthread_create(&runs[d].thread, NULL, device_thread, &runs[d]) == 0;
    for (int d = 0; d < count; d++) /* empty shares, or no thread to be had: here */
        if (!runs[d].threaded) {
            if (s->placed[d] > 0) device_thread(&runs[d]);
            else __atomic_store_n(&runs[d].finished, 1, __ATOMIC_RELEASE);
        }
    /* The host's LK searches report the progress meanwhile (their own
     * counts); a stop that ends them ends the devices' search too. */
    wt_status st = lk ? s->from.lk(lk, lk_ctl, err) : WT_OK;
    if (st != WT_OK || (lk && lk_ctl->stop == WT_STOP_INTERRUPTED)) stop_all = 1;
    watch_devices(runs, count, part, &before, counters, &stop_all);
    for (int d = 0; d < count; d++)
        if (runs[d].threaded) pthread_join(runs[d].thread, NULL);
    for (int d = 0; d < count; d++) {
        device_run *r = &runs[d];
        counters->done += r->counters.done - before.done;
        counters->kicks += r->counters.kicks - before.kicks;
        counters->gpu_s += r->counters.gpu_s;
        if (st == WT_OK && r->status != WT_OK) {
            st = r->status;
            if (err) *err = r->err;
        }
        /* An interruption is the caller's (watch_devices) or a failure's. */
        if (r->ctl.stop == WT_STOP_TIME_LIMIT && part->stop == WT_STOP_DONE)
            part->stop = WT_STOP_TIME_LIMIT;
    }
    free(runs);
    return st;
}

/* Each instance the devices ran takes the device's length and kicks; a
 * twin (an instance the host's LK ILS searched too) keeps the shorter of
 * the two tours (the host's on a tie), its length -1 only where neither
 * side's first descent ended, and the kicks of both. */
static void take_devices(batch_state *s, const wt_instance *const *insts)
{
    for (int i = 0; i < s->count; i++) {
        if (s->on_dev[i] < 0) continue;
        if (!s->twin[i]) {
            s->length[i] = s->dev_length[i];
            s->kicks[i] = s->dev_kicks[i];
            continue;
        }
        int64_t on_host = wt_tour_length(insts[i], s->tour[i]);
        int64_t on_dev = wt_tour_length(insts[i], s->twin[i]);
        bool whole = s->length[i] >= 0 || s->dev_length[i] >= 0;
        s->kicks[i] += s->dev_kicks[i];
        if (on_dev < on_host) {
            int32_t *kept = s->tour[i];
            s->tour[i] = s->twin[i];
            s->twin[i] = kept;
        } else {
            s->on_dev[i] = -1; /* the host's tour: not the GPU's */
        }
        s->length[i] = whole ? (on_dev < on_host ? on_dev : on_host) : -1;
    }
}

/* The host's part of ctl's time for `part` of its `of` instances: until
 * the deadline where part is all, else that share of the time left. */
static wt_search_ctl share_of(const wt_search_ctl *ctl, int part, int of)
{
    wt_search_ctl share = *ctl;
    if (part < of && isfinite(ctl->deadline)) {
        double now = wt_now();
        share.deadline = now + (ctl->deadline - now) * part / of;
    }
    return share;
}

/* Runs the devices' part, then the host's; with instances for the host's
 * LK ILS (on_lk), the devices' part (twins included) runs alongside
 * those, in their share of the time, and the host's batch search runs
 * after them in the rest. */
static wt_status run_sides(batch_state *s, const wt_instance *const *insts,
                           const wt_batch_params *p, int on_dev, int on_lk, int on_host,
                           wt_search_ctl *ctl, wt_batch_counters *counters, wt_error *err)
{
    wt_batch_job lk = side_job(s, s->lk_inst, on_lk, p, counters, false);
    wt_search_ctl lk_ctl = share_of(ctl, on_lk, on_lk + on_host);
    if (on_dev > 0) {
        /* Without instances of the host's LK ILS the devices go first, with
         * their share of the time, else alongside the LK ILS with its share;
         * the host's batch search after them. */
        wt_search_ctl part = on_lk > 0 ? lk_ctl : share_of(ctl, on_dev, on_dev + on_host);
        wt_status st;
        if (s->devs.count == 1 && on_lk == 0) {
            wt_batch_job job = side_job(s, s->dev_inst, on_dev, p, counters, true);
            st = run_slot(s, &s->devs.at[0], &job, &part, err);
        } else {
            st = run_devices(s, p, &part, on_lk > 0 ? &lk : NULL, &lk_ctl, counters, err);
        }
        if (st != WT_OK) return st;
        take_devices(s, insts);
        if (part.stop == WT_STOP_INTERRUPTED || part.deadline == ctl->deadline)
            ctl->stop = part.stop;
        ctl->next_report = part.next_report;
    } else if (on_lk > 0) {
        wt_status st = s->from.lk(&lk, &lk_ctl, err);
        if (st != WT_OK) return st;
        ctl->next_report = lk_ctl.next_report;
    }
    if (on_lk > 0 && (lk_ctl.stop == WT_STOP_INTERRUPTED || lk_ctl.deadline == ctl->deadline))
        ctl->stop = lk_ctl.stop == WT_STOP_DONE ? ctl->stop : lk_ctl.stop;
    if (on_host == 0) return WT_OK;
    wt_device host;
    wt_device_host(&host);
    wt_batch_job job = side_job(s, s->host_inst, on_host, p, counters, false);
    return run_slot(s, &host, &job, ctl, err);
}

/* Moves the tours into t and fills the result's totals. */
static void pack(batch_state *s, const wt_instance *const *insts, wt_batch_tour *t,
                 const wt_batch_params *p, const wt_search_ctl *ctl, wt_batch_result *res)
{
    memset(res, 0, sizeof *res);
    res->count = s->count;
    res->tours = t;
#pragma omp parallel for num_threads(ctl->threads) schedule(dynamic, 64)
    for (int i = 0; i < s->count; i++) {
        if (t[i].status != WT_OK) continue;
        t[i].tour = s->tour[i];
        s->tour[i] = NULL;
        t[i].length = wt_tour_length(insts[i], t[i].tour);
        t[i].length_real = wt_length_real(insts[i], t[i].length);
    }
    int cut = 0; /* instances whose first descent the stop cut short or forestalled */
    for (int i = 0; i < s->count; i++) {
        if (t[i].status != WT_OK) {
            res->failed++;
            continue;
        }
        t[i].kicks = s->kicks[i];
        t[i].on_gpu = s->on_dev[i] >= 0;
        res->on_gpu += t[i].on_gpu;
        res->kicks += t[i].kicks;
        cut += s->length[i] < 0;
    }
    res->stop = ctl->stop;
    /* Kicking for as long as the time allows ends there normally, once
     * every instance had its first descent; the device's share of the
     * time ending before that is the time limit too. */
    if (res->stop == WT_STOP_TIME_LIMIT && p->kicks == 0 && cut == 0) res->stop = WT_STOP_DONE;
    if (res->stop == WT_STOP_DONE && cut > 0) res->stop = WT_STOP_TIME_LIMIT;
    res->time_s = wt_now() - ctl->t_start;
    int solved = s->count - res->failed;
    wt_device host;
    wt_device_host(&host);
    const char *on_dev = s->devs.at[0].backend->name, *on_host = host.backend->name;
    if (res->on_gpu == 0 || res->on_gpu == solved)
        snprintf(res->backend, sizeof res->backend, "%s", res->on_gpu ? on_dev : on_host);
    else
        snprintf(res->backend, sizeof res->backend, "%s+%s", on_dev, on_host);
}

/* Seconds the call takes after the search: tours back from the GPU and
 * every length recomputed (pack), with the kicks under way when the search
 * ends (WT_BATCH_FINISH_S and WT_BATCH_FINISH_S_PER_CITY). */
static double finish_seconds(const wt_instance *const *insts, int count, const wt_batch_tour *t)
{
    double cities = 0;
    for (int i = 0; i < count; i++)
        if (t[i].status == WT_OK && insts[i]) cities += insts[i]->n;
    return WT_BATCH_FINISH_S + cities * WT_BATCH_FINISH_S_PER_CITY;
}

/* The device that p asks for into *dev, and its description into desc:
 * the host with WT_BACKEND_CPU; with WT_BACKEND_CUDA the device that
 * params.cuda_device numbers (the device list's first: solve_batch), which
 * must be usable; with WT_BACKEND_AUTO that device of the first device
 * backend with a batch search where it is usable, else the host. */
static wt_status choose_device(const wt_batch_params *p, wt_device *dev, char *desc,
                               size_t desc_size, wt_error *err)
{
    wt_device_host(dev);
    if (p->backend == WT_BACKEND_CPU) return WT_OK;
    if (p->backend != WT_BACKEND_AUTO) {
        wt_device_of(wt_backend_of(p->backend), p->cuda_device, dev);
        if (!wt_device_usable(dev, desc, desc_size))
            return wt_fail(err, WT_STATUS_NO_DEVICE, "the %s backend is not available: %s",
                           dev->backend->name, desc);
        if (!dev->backend->batch || !dev->backend->windows)
            return wt_fail(err, WT_STATUS_NO_DEVICE, "the %s backend has no batch search",
                           dev->backend->name);
        return WT_OK;
    }
    const wt_backend *b;
    for (int i = 0; (b = wt_backend_at(i)) != NULL; i++) {
        if (b->host || !b->batch || !b->windows) continue;
        wt_device d;
        wt_device_of(b, p->cuda_device, &d);
        if (wt_device_usable(&d, desc, desc_size)) {
            *dev = d;
            return WT_OK;
        }
    }
    return WT_OK;
}

/* The devices that p asks for into *set (choose_device's first, then the
 * rest of the device list), and their description into desc.  A device the
 * list names past the machine's fails the call; one that is not usable
 * too with WT_BACKEND_CUDA, and with auto is left out. */
static wt_status choose_devices(const wt_batch_params *p, wt_device_set *set, char *desc,
                                size_t desc_size, wt_error *err)
{
    wt_device first;
    wt_status st = wt_devices_for_backend(p->backend, p->devices, p->device_count,
                                          "wt_solve_batch", err);
    if (st != WT_OK) return st;
    st = choose_device(p, &first, desc, desc_size, err);
    if (st != WT_OK) return st;
    return wt_devices_expand(&first, p->devices, p->device_count,
                             p->backend != WT_BACKEND_AUTO, set, desc, desc_size, err);
}

/* The batch of count instances, some of which may have failed already
 * (t[i].status set).  params' device list stands in for cuda_device. */
wt_status wt_batch_solve_tours(const wt_instance *const *insts, int count,
                               const wt_batch_params *params, const wt_batch_from *from,
                               wt_batch_tour *t, wt_batch_result *res, wt_error *err)
{
    wt_batch_params listed = *params;
    listed.cuda_device = wt_devices_first(params->devices, params->device_count,
                                          params->cuda_device);
    const wt_batch_params *p = &listed;
    /* The search's controller: the batch's own fields, the rest zero (no
     * algorithm of wt_solve's reads them here). */
    wt_params wp;
    memset(&wp, 0, sizeof wp);
    progress_relay relay = {p, count};
    wp.time_limit_s = p->time_limit_s;
    wp.threads = p->threads;
    wp.stop_flag = p->stop_flag;
    wp.progress = p->progress ? relay_progress : NULL;
    wp.progress_user = &relay;
    wp.progress_interval_s = p->progress_interval_s;
    wt_search_ctl ctl;
    wt_ctl_init(&ctl, &wp);

    char device[128] = "";
    wt_device_set chosen;
    if (from && from->devices) {
        chosen = *from->devices;
        for (int d = 0; d < chosen.count; d++) {
            const wt_backend *b = chosen.at[d].backend;
            if (!(from->fixed_ends ? b->windows : b->batch))
                return wt_fail(err, WT_STATUS_NO_DEVICE, "the %s backend has no %s search",
                               b->name, from->fixed_ends ? "window" : "batch");
        }
        snprintf(device, sizeof device, "%s", chosen.at[0].name);
        for (int d = 1; d < chosen.count; d++)
            snprintf(device + strlen(device), sizeof device - strlen(device), ", %s",
                     chosen.at[d].name);
    } else {
        wt_status st = choose_devices(p, &chosen, device, sizeof device, err);
        if (st != WT_OK) return st;
    }
    batch_state s;
    if (!state_alloc(&s, count, wt_batch_neighbours(p), &chosen))
        return wt_fail(err, WT_STATUS_OUT_OF_MEMORY, "out of memory for a batch of %d", count);
    if (from) s.from = *from;
    /* The preparation and the search end early enough for the tours to
     * come back and their lengths to be recomputed within the limit. */
    double limit = ctl.deadline;
    ctl.deadline -= finish_seconds(insts, count, t);
    prepare_all(&s, insts, p, &ctl, t);
    int on_lk = 0, on_host = 0, on_dev = place(&s, insts, t, p, ctl.threads, &on_lk, &on_host);
    for (int i = 0; i < count; i++) /* set by the first descents */
        s.length[i] = s.dev_length[i] = -1;
    wt_batch_counters counters = {0, 0, 0};
    wt_status st = on_dev < 0
                       ? wt_fail(err, WT_STATUS_OUT_OF_MEMORY, "out of memory for a batch")
                       : run_sides(&s, insts, p, on_dev, on_lk, on_host, &ctl, &counters, err);
    ctl.deadline = limit;
    if (st == WT_OK) {
        pack(&s, insts, t, p, &ctl, res);
        res->gpu_time_s = counters.gpu_s;
        if (on_dev == 0)
            snprintf(device, sizeof device, "CPU, %d thread%s", ctl.threads,
                     ctl.threads == 1 ? "" : "s");
        snprintf(res->device, sizeof res->device, "%s", device);
    }
    state_free(&s);
    return st;
}

wt_status wt_batch_solve_from(const wt_instance *const *insts, int count,
                              const wt_batch_params *params, const wt_batch_from *from,
                              wt_batch_result *res, wt_error *err)
{
    if (!insts || !params || !from || !res || count < 1)
        return wt_fail(err, WT_STATUS_INVALID_ARGUMENT, "wt_batch_solve_from: need instances "
                       "(count >= 1), parameters and a result");
    wt_status st = wt_batch_params_check(params, err);
    if (st != WT_OK) return st;
    wt_batch_tour *t = calloc((size_t)count, sizeof *t);
    if (!t) return wt_fail(err, WT_STATUS_OUT_OF_MEMORY, "out of memory for a batch of %d", count);
    st = wt_batch_solve_tours(insts, count, params, from, t, res, err);
    if (st != WT_OK) free(t);
    return st;
}

