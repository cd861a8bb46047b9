/*
 * cpu_batch.c - the batch search on the CPU (cpu_batch.h).
 *
 * Each thread takes the next instance from a shared counter and runs the
 * whole Iterated Local Search of core/batch_search.h on it with a private
 * workspace sized for the largest instance: the descent evaluates every
 * item of the active cities in turn and keeps the least (delta, number),
 * which is what the GPU's threads find together, so both take the same
 * steps.  Only this side caches the distances to the k nearest cities
 * (the same exact integers the GPU computes again), as a distance costs a
 * square root here.
 *
 * A stop (the time limit, the stop flag, the progress callback) is polled
 * before each instance, between kicks, and inside descents after every
 * so many active cities scanned (WT_CPU_BS_POLL_CITIES): an instance not
 * begun keeps its start tour, and a descent under way, even the first of
 * 100,000 cities, ends within a few milliseconds, its tour kept as it is.
 */
#include "backend/cpu/cpu_batch.h"

#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "core/batch_search.h"
#include "core/error.h"
#include "core/instance.h"

/* Active cities a descent scans between two polls of the stop: the
 * 64-step rule of the kicks' short descents, and within a step of a
 * first descent (all n cities active), a poll every this many cities.
 * One city is k * V items (8 * 12 to 8 * 28): some hundred microseconds
 * between polls, a few nanoseconds a city for the clock. */
#define WT_CPU_BS_POLL_CITIES 4096

/* One thread's search state, sized for the job's largest instance.  The
 * search kicks the kept tour; the best tour seen is kept apart, since a
 * kept tour may be a little longer than the best (wt_bs_accept_slack). */
typedef struct bs_work {
    const wt_instance *inst;
    const wt_batch_job *job; /* for progress reports */
    int64_t scanned;       /* active cities scanned since the last poll */
    int n;
    wt_bs_lists lists;     /* its k nearest cities, nbd, and its 3-opt breadth */
    int kick_edges;
    bool fixed_ends;       /* the edge of cities 0 and n - 1 stays */
    int32_t *tour, *pos, *kept, *best;
    int64_t *e, *kept_e;
    int64_t *nbd;          /* distances to the k nearest cities */
    int32_t *act;          /* active cities, in no particular order */
    int n_act;
    uint8_t *in_act;       /* whether a city is in act */
    uint8_t *improving;    /* whether an active city had an improving move */
    int64_t length, kept_length, best_length;
} bs_work;

static void work_free(bs_work *w)
{
    free(w->tour);
    free(w->e);
    free(w->nbd);
    free(w->in_act);
}

static bool work_alloc(bs_work *w, int n_max, int k)
{
    size_t n = (size_t)n_max;
    memset(w, 0, sizeof *w);
    w->tour = malloc(5 * n * sizeof(int32_t)); /* tour, pos, kept, best, act */
    w->e = malloc(2 * n * sizeof(int64_t));    /* e, kept_e */
    w->nbd = malloc(n * (size_t)k * sizeof(int64_t));
    w->in_act = calloc(2 * n, 1);              /* in_act, improving */
    if (!w->tour || !w->e || !w->nbd || !w->in_act) {
        work_free(w);
        return false;
    }
    w->pos = w->tour + n;
    w->kept = w->pos + n;
    w->best = w->kept + n;
    w->act = w->best + n;
    w->kept_e = w->e + n;
    w->improving = w->in_act + n;
    return true;
}

static inline int64_t dist(const bs_work *w, int a, int b) { return wt_dist(w->inst, a, b); }

static void activate(bs_work *w, int c)
{
    if (w->in_act[c]) return;
    w->in_act[c] = 1;
    w->act[w->n_act++] = c;
}

/* Loads an instance with its start tour; every city active. */
static void load(bs_work *w, const wt_instance *inst, const int32_t *nb, int k, int breadth,
                 const int32_t *start)
{
    int n = inst->n;
    w->inst = inst;
    w->n = n;
    w->lists = (wt_bs_lists){nb, w->nbd, k, breadth};
    memcpy(w->tour, start, (size_t)n * sizeof *start);
    w->length = 0;
    for (int p = 0; p < n; p++) {
        w->pos[w->tour[p]] = p;
        w->e[p] = dist(w, w->tour[p], w->tour[p + 1 < n ? p + 1 : 0]);
        w->length += w->e[p];
    }
    for (size_t q = 0; q < (size_t)n * (size_t)k; q++)
        w->nbd[q] = nb[q] < 0 ? 0 : dist(w, (int)(q / (size_t)k), nb[q]);
    memset(w->in_act, 0, 2 * (size_t)n);
    w->n_act = 0;
    for (int c = 0; c < n; c++) activate(w, c);
}

/* Reverses the cyclic range r of positions with its edges. */
static void reverse(bs_work *w, wt_bs_reversal r)
{
    const int n = w->n;
    if (r.len < 2) return;
    for (int q = 0; q < r.len / 2; q++) {
        int p1 = wt_bs_wrap(r.from + q, n), p2 = wt_bs_wrap(r.from + r.len - 1 - q, n);
        int32_t t = w->tour[p1];
        w->tour[p1] = w->tour[p2];
        w->tour[p2] = t;
        w->pos[w->tour[p1]] = p1;
        w->pos[w->tour[p2]] = p2;
    }
    for (int q = 0; q < (r.len - 1) / 2; q++) {
        int p1 = wt_bs_wrap(r.from + q, n), p2 = wt_bs_wrap(r.from + r.len - 2 - q, n);
        int64_t t = w->e[p1];
        w->e[p1] = w->e[p2];
        w->e[p2] = t;
    }
    int left = wt_bs_wrap(r.from - 1, n), right = wt_bs_wrap(r.from + r.len - 1, n);
    w->e[left] = dist(w, w->tour[left], w->tour[r.from]);
    w->e[right] = dist(w, w->tour[right], w->tour[wt_bs_wrap(right + 1, n)]);
}

/* Activates both ends of the edges at positions rem[0..count). */
static void activate_edges(bs_work *w, const int *rem, int count)
{
    for (int q = 0; q < count; q++) {
        activate(w, w->tour[rem[q]]);
        activate(w, w->tour[wt_bs_wrap(rem[q] + 1, w->n)]);
    }
}

/* Exact delta of move m, which makes the edge (a, c) of length dac. */
static int64_t move_delta(const bs_work *w, const wt_bs_move *m, int64_t dac)
{
    int64_t d = dac;
    for (int q = 0; q < m->n_add; q++) d += dist(w, m->add_u[q], m->add_w[q]);
    for (int q = 0; q < m->n_rem; q++) d -= w->e[m->rem[q]];
    return d;
}

/* Thread 0 (the calling thread) reports progress when due. */
static void report(wt_search_ctl *ctl, const wt_batch_job *job)
{
    if (omp_get_thread_num() != 0) return;
    uint64_t done, kicks;
#pragma omp atomic read
    done = job->counters->done;
#pragma omp atomic read
    kicks = job->counters->kicks;
    ctl->kicks = kicks;
    (void)wt_ctl_report_climbs(ctl, 0, 0, done, false);
}

/* Counts `cities` active cities scanned; polls ctl (with a progress report
 * from thread 0) once WT_CPU_BS_POLL_CITIES were.  True: stop. */
static bool must_stop(bs_work *w, int64_t cities, wt_search_ctl *ctl)
{
    w->scanned += cities;
    if (w->scanned < WT_CPU_BS_POLL_CITIES) return false;
    w->scanned = 0;
    report(ctl, w->job);
    return wt_ctl_expired(ctl);
}

/* What best_move found. */
typedef enum { BS_NONE, BS_FOUND, BS_STOPPED } bs_found;

/* The best improving move of the active cities' items into *best, its
 * delta added to the length (BS_FOUND; BS_NONE: none); marks which active
 * cities have an improving move.  BS_STOPPED, the tour untouched: ctl
 * expired during the scan. */
static bs_found best_move(bs_work *w, wt_bs_move *best, wt_search_ctl *ctl)
{
    int64_t best_d = 0;
    int32_t best_id = -1;
    const int fixed = w->fixed_ends ? wt_bs_fixed_at(w->pos, w->n) : -1;
    const int per = wt_bs_variants(w->lists.breadth);
    for (int q = 0; q < w->n_act; q++) {
        if ((q & 1023) == 1023 && must_stop(w, 1024, ctl)) return BS_STOPPED;
        int a = w->act[q];
        bool improving = false;
        const int k = w->lists.k;
        for (int s = 0; s < k; s++) {
            int c = w->lists.nb[(size_t)a * (size_t)k + (size_t)s];
            if (c < 0) break; /* lists of instances with fewer than k + 1 cities */
            int64_t dac = w->nbd[(size_t)a * (size_t)k + (size_t)s];
            for (int v = 0; v < per; v++) {
                wt_bs_move m;
                if (!wt_bs_plan_item(w->tour, w->pos, w->e, w->n, &w->lists, a, s, v, &m) ||
                    !wt_bs_keeps(&m, fixed) || !wt_bs_gain_ok(&m, w->e, dac))
                    continue;
                int64_t d = move_delta(w, &m, dac);
                if (d >= 0) continue;
                improving = true;
                int32_t id = wt_bs_item_id(a, s, v, k, per);
                if (best_id < 0 || wt_bs_before(d, id, best_d, best_id)) {
                    best_d = d;
                    best_id = id;
                    *best = m;
                }
            }
        }
        w->improving[a] = improving;
    }
    if (best_id >= 0) w->length += best_d;
    return best_id >= 0 ? BS_FOUND : BS_NONE;
}

/* Keeps the active cities that had an improving move. */
static void drop_idle(bs_work *w)
{
    int kept = 0;
    for (int q = 0; q < w->n_act; q++) {
        int a = w->act[q];
        if (w->improving[a]) w->act[kept++] = a;
        else w->in_act[a] = 0;
    }
    w->n_act = kept;
}

/* Best-improvement steps until no active city has an improving move
 * (true), or ctl expires (false).  A step counts as 64 cities besides its
 * active ones, whose thousands best_move counts itself: the short
 * descents after kicks poll about every 64 steps, a first descent every
 * few steps and within them. */
static bool descend(bs_work *w, wt_search_ctl *ctl)
{
    wt_bs_move m;
    while (w->n_act > 0) {
        if (must_stop(w, 64 + w->n_act % 1024, ctl)) return false;
        bs_found found = best_move(w, &m, ctl);
        if (found == BS_STOPPED) return false;
        if (found == BS_NONE) {
            for (int q = 0; q < w->n_act; q++) w->in_act[w->act[q]] = 0;
            w->n_act = 0;
            break;
        }
        drop_idle(w);
        activate_edges(w, m.rem, m.n_rem);
        wt_bs_reversal r[3];
        int count = wt_bs_reversals(&m, w->n, r);
        for (int q = 0; q < count; q++) reverse(w, r[q]);
    }
    return true;
}

/* Kick number `kick_no` of the instance with stream `index`: applied,
 * the ends of its edges active. */
static void kick(bs_work *w, const wt_batch_job *job, uint64_t index, uint64_t kick_no)
{
    wt_bs_kick_cut cut = wt_bs_kick(job->seed, index, kick_no, w->n, job->window,
                                    w->fixed_ends ? wt_bs_fixed_at(w->pos, w->n) : -1,
                                    w->kick_edges);
    int before[4], after[4];
    int edges = wt_bs_kick_edges(cut, w->n, false, before);
    activate_edges(w, before, edges);
    for (int q = 0; q < edges; q++) w->length -= w->e[before[q]];
    wt_bs_reversal r[4];
    int count = wt_bs_kick_reversals(cut, w->n, r);
    for (int q = 0; q < count; q++) reverse(w, r[q]);
    wt_bs_kick_edges(cut, w->n, true, after);
    for (int q = 0; q < edges; q++) w->length += w->e[after[q]];
}

/* The tour becomes the kept one (and the best, when it is). */
static void keep(bs_work *w)
{
    memcpy(w->kept, w->tour, (size_t)w->n * sizeof *w->kept);
    memcpy(w->kept_e, w->e, (size_t)w->n * sizeof *w->kept_e);
    w->kept_length = w->length;
    if (w->length < w->best_length) {
        memcpy(w->best, w->tour, (size_t)w->n * sizeof *w->best);
        w->best_length = w->length;
    }
}

/* Back to the kept tour. */
static void revert(bs_work *w)
{
    memcpy(w->tour, w->kept, (size_t)w->n * sizeof *w->tour);
    memcpy(w->e, w->kept_e, (size_t)w->n * sizeof *w->e);
    for (int p = 0; p < w->n; p++) w->pos[w->tour[p]] = p;
    w->length = w->kept_length;
}

/* Instance q of job, until its kick budget or time share (`until`) ends;
 * job->length[q] stays -1 when ctl expired before the first descent
 * ended (its tour: as far as that descent went). */
static void solve_one(bs_work *w, const wt_batch_job *job, bool fixed_ends, int q, double until,
                      wt_search_ctl *ctl)
{
    const wt_instance *inst = job->inst[q];
    int breadth = wt_bs_breadth_of(inst->n, job->breadth, job->breadth_from);
    load(w, inst, job->nb[q], job->k, breadth, job->tour[q]);
    w->kick_edges = wt_bs_kick_edges_of(breadth, job->kick_edges);
    w->fixed_ends = fixed_ends;
    w->job = job;
    bool whole = descend(w, ctl);
    w->best_length = INT64_MAX;
    keep(w);
    uint64_t kicks = 0, budget = job->budget[q];
    while (inst->n >= WT_BS_MIN_KICK_CITIES && (budget == 0 || kicks < budget)) {
        report(ctl, job);
        if (wt_ctl_expired(ctl) || (budget == 0 && wt_now() >= until)) break;
        kick(w, job, job->index[q], kicks);
        descend(w, ctl);
        int64_t slack = wt_bs_accept_slack(job->seed, job->index[q], kicks, w->kept_length, w->n,
                                           job->slack);
        kicks++;
#pragma omp atomic
        job->counters->kicks++;
        if (w->length < w->kept_length + slack ||
            (job->accept_equal && w->length == w->kept_length))
            keep(w);
        else
            revert(w);
    }
    memcpy(job->tour[q], w->best, (size_t)inst->n * sizeof *w->best);
    job->length[q] = whole ? w->best_length : -1;
    job->kicks[q] = kicks;
}

wt_status wt_cpu_batch_run(const wt_batch_job *job, bool fixed_ends, wt_search_ctl *ctl,
                           wt_error *err)
{
    int n_max = 0;
    for (int q = 0; q < job->count; q++)
        if (job->inst[q] && job->inst[q]->n > n_max) n_max = job->inst[q]->n;
    if (n_max == 0) return WT_OK;
    int threads = ctl->threads < job->count ? ctl->threads : job->count;
    int next = 0, failed = 0;
#pragma omp parallel num_threads(threads)
    {
        bs_work w;
        bool ok = work_alloc(&w, n_max, job->k);
        if (!ok) {
#pragma omp atomic write
            failed = 1;
        }
        for (;;) {
            int q;
#pragma omp atomic capture
            q = next++;
            if (!ok || q >= job->count) break;
            if (!job->inst[q]) continue;
            report(ctl, job);
            if (wt_ctl_expired(ctl)) continue; /* not begun: its start tour stays */
            double until = wt_batch_time_share(wt_now(), ctl->deadline,
                                               job->ranked - job->rank[q], (uint64_t)threads);
            solve_one(&w, job, fixed_ends, q, until, ctl);
#pragma omp atomic
            job->counters->done++;
        }
        if (ok) work_free(&w);
    }
    if (failed)
        return wt_fail(err, WT_STATUS_OUT_OF_MEMORY, "solve-batch: out of memory for the "
                       "search of %d cities", n_max);
    return WT_OK;
}
