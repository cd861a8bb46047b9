/*
 * cpu_ascent.c - the Held-Karp ascent on the host (Held & Karp 1970, 1971)
 * with the step rule of Volgenant & Jonker 1982 as Helsgaun 2000, section
 * 4.2, describes it, then alpha-nearness candidates (section 4.1).
 *
 * The subgradient ascent.  Each step takes the minimum 1-tree of the sparse
 * graph under pi (core/onetree.h) and its degree excesses v = degree - 2;
 * the bound w(pi) is a lower bound (in that graph) and v its subgradient.
 * Then
 *   pi[i] += t * (7 v[i] + 3 v_prev[i]) / 10       (integer arithmetic)
 * where v_prev is the previous step's v: the mix damps the zigzag of plain
 * subgradient steps.  The step size t starts at WT_ASCENT_SCALE (one unit
 * of length) and stays the same for a period of max(n / 2, 100) steps;
 * after each period both the period and t are halved.  During the first
 * period t doubles at every step that raises the best bound, until a step
 * does not (the initial phase).  A period whose last step raised the best
 * bound is doubled.  The ascent ends when t or the period reaches 0, when
 * every degree is 2 (the 1-tree is a tour: the bound is its length and the
 * tour optimal in the graph), after job->iterations steps (0: no such
 * cap), at job->until, or when ctl expires; pi is the best step's.
 *
 * Then the candidates: the minimum 1-tree under the best pi again, the
 * alpha-value of every graph edge, and each city's graph neighbours by
 * increasing (alpha, c_pi, city), the first candidates_k of them.  Last
 * the proven bound, the complete graph's minimum 1-tree under the best pi.
 *
 * Everything is integer and every tie is broken by city numbers, so the
 * result depends on the instance, the graph, the start pi and the number
 * of steps alone; the threads (ctl->threads) only share the work.  Stops:
 * the steps poll job->until and ctl (inside a step too: a step cut short is
 * dropped); the candidates and the bound poll ctl alone, from the calling
 * thread, every few milliseconds (core/onetree.h).
 */
#include "backend/cpu/cpu_ascent.h"

#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/onetree.h"

_Static_assert(WT_ASCENT_SCALE == WT_ONETREE_SCALE, "one fixed point for the ascent");

enum { MIN_PERIOD = 100 };

/* Penalties stay within +-2^30: with distances times the scale up to 2^30
 * (wt_onetree_check_lengths) every c_pi fits int32 thrice over. */
#define PI_LIMIT ((int64_t)1 << 30)

typedef struct ascent_stop {
    wt_search_ctl *ctl;
    double until; /* INFINITY: only ctl */
} ascent_stop;

static bool stop_asked(void *user)
{
    ascent_stop *s = user;
    if (s->ctl && wt_ctl_expired(s->ctl)) return true;
    return s->until < INFINITY && wt_now() >= s->until;
}

static wt_status check_job(const wt_instance *inst, const wt_ascent_job *job, wt_error *err)
{
    if (!inst || !job)
        return wt_fail(err, WT_STATUS_INVALID_ARGUMENT, "ascent: NULL instance or job");
    if (!job->graph || !job->pi || !job->candidates)
        return wt_fail(err, WT_STATUS_INVALID_ARGUMENT,
                       "ascent: the job's graph, pi and candidates must not be NULL");
    if (job->graph_k < 1 || job->candidates_k < 1)
        return wt_fail(err, WT_STATUS_INVALID_ARGUMENT,
                       "ascent: graph_k (%d) and candidates_k (%d) must be >= 1", job->graph_k,
                       job->candidates_k);
    if (job->iterations < 0)
        return wt_fail(err, WT_STATUS_INVALID_ARGUMENT, "ascent: iterations %d < 0",
                       job->iterations);
    if (isnan(job->until))
        return wt_fail(err, WT_STATUS_INVALID_ARGUMENT, "ascent: until is NaN");
    wt_status st = wt_onetree_check_lengths(inst, err);
    if (st != WT_OK) return st;
    for (int i = 0; i < inst->n; i++)
        if (job->pi[i] > PI_LIMIT || job->pi[i] < -PI_LIMIT)
            return wt_fail(err, WT_STATUS_INVALID_ARGUMENT,
                           "ascent: start penalty pi[%d] = %d beyond +-2^30", i,
                           (int)job->pi[i]);
    return WT_OK;
}

/* Each city's graph neighbours by (alpha, c_pi, city), the first k, by
 * insertion into the sorted row; keys: 2 k entries a thread. */
static void list_candidates(const wt_sgraph *g, const wt_onetree *t, const int64_t *alpha,
                            int k, int threads, const wt_init_stop *stop, int64_t *keys,
                            int32_t *out, bool *stopped)
{
    int n = g->n;
    for (int base = 0; base < n; base += 4096) {
        int end = base + 4096 < n ? base + 4096 : n;
#pragma omp parallel num_threads(threads) if (end - base > 512)
        {
            int64_t *ra = keys + 2 * (size_t)k * (size_t)omp_get_thread_num(), *rc = ra + k;
#pragma omp for schedule(static)
            for (int i = base; i < end; i++) {
                int32_t *row = out + (size_t)i * (size_t)k;
                int found = 0;
                for (int64_t x = g->off[i]; x < g->off[i + 1]; x++) {
                    int64_t e = g->adj_edge[x], a = alpha[e], c = t->key[e];
                    int32_t j = g->adj_city[x];
                    int at = found;
                    while (at > 0 && (ra[at - 1] > a ||
                                      (ra[at - 1] == a &&
                                       (rc[at - 1] > c || (rc[at - 1] == c && row[at - 1] > j)))))
                        at--;
                    if (at >= k) continue;
                    int last = found < k ? found : k - 1;
                    for (int p = last; p > at; p--) {
                        row[p] = row[p - 1];
                        ra[p] = ra[p - 1];
                        rc[p] = rc[p - 1];
                    }
                    row[at] = j;
                    ra[at] = a;
                    rc[at] = c;
                    if (found < k) found++;
                }
                for (int p = found; p < k; p++) row[p] = -1;
            }
        }
        if (stop && stop->should_stop(stop->user)) {
            *stopped = true;
            return;
        }
    }
}

static int64_t ceil_div(int64_t a, int64_t b)
{
    return a >= 0 ? (a + b - 1) / b : -((-a) / b);
}

wt_status wt_cpu_ascent(const wt_instance *inst, wt_ascent_job *job, wt_search_ctl *ctl,
                        wt_error *err)
{
    wt_status st = check_job(inst, job, err);
    if (st != WT_OK) return st;
    job->lower_bound = -1;
    job->iterations_done = 0;
    job->stopped = false;
    int n = inst->n, threads = ctl && ctl->threads > 0 ? ctl->threads : 1;
    ascent_stop steps_ctx = {ctl, job->until}, final_ctx = {ctl, INFINITY};
    wt_init_stop steps_stop = {stop_asked, &steps_ctx}, final_stop = {stop_asked, &final_ctx};

    wt_sgraph g;
    st = wt_sgraph_create(inst, job->graph, job->graph_k, threads, &g, err);
    if (st != WT_OK) return st;
    wt_onetree t;
    st = wt_onetree_alloc(&g, &t, err);
    if (st != WT_OK) {
        wt_sgraph_free(&g);
        return st;
    }
    size_t sn = (size_t)n;
    int32_t *pi = malloc(sn * sizeof *pi), *best_pi = malloc(sn * sizeof *best_pi);
    int32_t *v = malloc(sn * sizeof *v), *v_prev = malloc(sn * sizeof *v_prev);
    int64_t *alpha = malloc((size_t)(g.m > 0 ? g.m : 1) * sizeof *alpha);
    int64_t *keys = malloc(2 * (size_t)job->candidates_k * (size_t)threads * sizeof *keys);
    if (!pi || !best_pi || !v || !v_prev || !alpha || !keys) {
        st = wt_fail(err, WT_STATUS_OUT_OF_MEMORY, "out of memory for an ascent of %d cities", n);
        goto out;
    }
    memcpy(pi, job->pi, sn * sizeof *pi);
    memcpy(best_pi, pi, sn * sizeof *pi);
    bool stopped = false, have_best = false;
    int64_t best_w = INT64_MIN;

    /* The ascent: the first tree under the start pi, then the steps. */
    st = wt_onetree_sparse(&g, pi, threads, &steps_stop, &t, &stopped, err);
    if (st != WT_OK) goto out;
    if (!stopped) {
        have_best = true;
        best_w = t.bound;
        int64_t norm = 0;
        for (int i = 0; i < n; i++) {
            v[i] = t.degree[i] - 2;
            v_prev[i] = v[i];
            norm += (int64_t)v[i] * v[i];
        }
        int64_t step = WT_ASCENT_SCALE;
        int period = job->period > 0            ? job->period
                     : n / 2 > MIN_PERIOD ? n / 2
                                          : MIN_PERIOD;
        bool initial = true;
        int cap = job->iterations > 0 ? job->iterations : WT_CPU_ASCENT_DEFAULT_ITERATIONS;
        for (; period > 0 && step > 0 && norm != 0 && !stopped; period /= 2, step /= 2) {
            for (int p = 1; p <= period && step > 0 && norm != 0; p++) {
                if ((cap > 0 && job->iterations_done >= cap) || stop_asked(&steps_ctx)) {
                    stopped = true;
                    break;
                }
                for (int i = 0; i < n; i++) {
                    int64_t d = step * (7 * (int64_t)v[i] + 3 * (int64_t)v_prev[i]) / 10;
                    int64_t x = pi[i] + d;
                    if (x > PI_LIMIT) x = PI_LIMIT;
                    if (x < -PI_LIMIT) x = -PI_LIMIT;
                    pi[i] = (int32_t)x;
                    v_prev[i] = v[i];
                }
                bool cut = false;
                st = wt_onetree_sparse(&g, pi, threads, &steps_stop, &t, &cut, err);
                if (st != WT_OK) goto out;
                if (cut) {
                    stopped = true;
                    break;
                }
                job->iterations_done++;
                wt_ctl_tick(ctl, WT_NOT_IN_PASS); /* the progress callback, when due */
                norm = 0;
                for (int i = 0; i < n; i++) {
                    v[i] = t.degree[i] - 2;
                    norm += (int64_t)v[i] * v[i];
                }
                if (t.bound > best_w || (norm == 0 && t.bound >= best_w)) {
                    best_w = t.bound;
                    memcpy(best_pi, pi, sn * sizeof *pi);
                    if (initial && step < PI_LIMIT) step *= 2;
                    if (p == period && period < (1 << 29)) period *= 2;
                } else if (initial) {
                    initial = false;
                }
            }
        }
    }
    memcpy(job->pi, best_pi, sn * sizeof *pi);
    job->graph_bound = have_best ? best_w : INT64_MIN;

    /* The candidates under the best pi; ctl alone stops them. */
    stopped = false;
    st = wt_onetree_sparse(&g, best_pi, threads, &final_stop, &t, &stopped, err);
    if (st != WT_OK) goto out;
    if (!stopped) {
        job->graph_bound = t.bound;
        st = wt_onetree_alpha(&g, &t, threads, &final_stop, alpha, &stopped, err);
        if (st != WT_OK) goto out;
    }
    if (!stopped)
        list_candidates(&g, &t, alpha, job->candidates_k, threads, &final_stop, keys,
                        job->candidates, &stopped);
    if (stopped) {
        job->stopped = true;
        goto out;
    }

    /* The proven bound: the complete graph's 1-tree under the same pi. */
    if (wt_onetree_complete_supported(inst)) {
        int64_t bound = 0;
        bool cut = false;
        wt_error ignored;
        if (wt_onetree_complete_bound(inst, best_pi, &g, threads, &final_stop, &bound, &cut,
                                      &ignored) == WT_OK &&
            !cut)
            job->lower_bound = ceil_div(bound, WT_ASCENT_SCALE);
    }
out:
    free(pi);
    free(best_pi);
    free(v);
    free(v_prev);
    free(alpha);
    free(keys);
    wt_onetree_free(&t);
    wt_sgraph_free(&g);
    return st;
}
