/*
 * cpu_ascent.c - the Held-Karp ascent on the host (Held & Karp 1970, 1971)
 * with the step rule of Volgenant & Jonker 1982 as Helsgaun 2000, section
 * 4.2, describes it, then alpha-nearness candidates (section 4.1).
 *
 * The subgradient ascent.  Each step takes the minimum 1-tree of the sparse
 * graph under pi (core/onetree.h) and its degree excesses v = degree - 2;
 * the bound w(pi) is a lower bound (in that graph) and v its subgradient.
 * The step rule and the pi update are core/ascent_rule.h's (the GPU's
 * ascent drives the same): pi[i] += t * (7 v[i] + 3 v_prev[i]) / 10.  The
 * ascent also ends at job->until, or when ctl expires; pi is the best
 * step's.  Then core/ascent_finish.h: the candidates by alpha-nearness
 * under the best pi, and the proven bound.
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
#include <stdlib.h>
#include <string.h>

#include "core/ascent_finish.h"
#include "core/ascent_rule.h"
#include "core/error.h"
#include "core/onetree.h"

_Static_assert(WT_ASCENT_SCALE == WT_ONETREE_SCALE, "one fixed point for the ascent");

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

/* v = degree - 2 of t; returns sum v^2. */
static int64_t excess(const wt_onetree *t, int n, int32_t *v)
{
    int64_t norm = 0;
    for (int i = 0; i < n; i++) {
        v[i] = t->degree[i] - 2;
        norm += (int64_t)v[i] * v[i];
    }
    return norm;
}

/* The steps from the tree under pi (t holds it): pi and best_pi end as
 * the last and the best step's; *best_bound the best bound. */
static wt_status ascend(const wt_sgraph *g, wt_ascent_job *job, wt_search_ctl *ctl, int threads,
                        const wt_init_stop *stop, wt_onetree *t, int32_t *pi, int32_t *best_pi,
                        int32_t *v, int32_t *v_prev, int64_t *best_bound, wt_error *err)
{
    int n = g->n;
    size_t bytes = (size_t)n * sizeof *pi;
    int64_t norm = excess(t, n, v);
    memcpy(v_prev, v, (size_t)n * sizeof *v);
    wt_ascent_rule r;
    wt_ascent_rule_start(&r, n, job->period, job->iterations, t->bound, norm);
    while (wt_ascent_rule_more(&r) && !stop->should_stop(stop->user)) {
        for (int i = 0; i < n; i++) {
            pi[i] = wt_ascent_pi_next(pi[i], v[i], v_prev[i], r.step);
            v_prev[i] = v[i];
        }
        bool cut = false; /* a step cut short is dropped */
        wt_status st = wt_onetree_sparse(g, pi, threads, stop, t, &cut, err);
        if (st != WT_OK) return st;
        if (cut) break;
        wt_ctl_tick(ctl, WT_NOT_IN_PASS); /* the progress callback, when due */
        job->iterations_done = r.iterations_done + 1;
        if (wt_ascent_rule_record(&r, t->bound, excess(t, n, v))) memcpy(best_pi, pi, bytes);
    }
    *best_bound = r.best_bound;
    return WT_OK;
}

wt_status wt_cpu_ascent(const wt_instance *inst, wt_ascent_job *job, wt_search_ctl *ctl,
                        wt_error *err)
{
    wt_status st = wt_ascent_job_check(inst, job, err);
    if (st != WT_OK) return st;
    job->lower_bound = -1;
    job->iterations_done = 0;
    job->stopped = false;
    int n = inst->n, threads = ctl && ctl->threads > 0 ? ctl->threads : 1;
    ascent_stop steps_ctx = {ctl, job->until}, final_ctx = {ctl, INFINITY};
    wt_init_stop steps_stop = {stop_asked, &steps_ctx}, final_stop = {stop_asked, &final_ctx};

    wt_sgraph g;
    bool graph_stopped = false; /* by ctl only: the steps' until leaves the set-up be */
    st = wt_sgraph_create(inst, job->graph, job->graph_k, threads, &final_stop, &g, &graph_stopped,
                          err);
    if (st != WT_OK || graph_stopped) {
        job->stopped = graph_stopped;
        return st;
    }
    wt_onetree t;
    st = wt_onetree_alloc(&g, &t, err);
    if (st != WT_OK) {
        wt_sgraph_free(&g);
        return st;
    }
    size_t sn = (size_t)n;
    int32_t *pi = malloc(sn * sizeof *pi), *best_pi = malloc(sn * sizeof *best_pi);
    /* zeroed: GCC 13 cannot see that excess() writes v before it is copied */
    int32_t *v = calloc(sn, sizeof *v), *v_prev = calloc(sn, sizeof *v_prev);
    if (!pi || !best_pi || !v || !v_prev) {
        st = wt_fail(err, WT_STATUS_OUT_OF_MEMORY, "out of memory for an ascent of %d cities", n);
        goto out;
    }
    memcpy(pi, job->pi, sn * sizeof *pi);
    memcpy(best_pi, pi, sn * sizeof *pi);
    job->graph_bound = INT64_MIN;

    /* The ascent: the first tree under the start pi, then the steps. */
    bool stopped = false;
    st = wt_onetree_sparse(&g, pi, threads, &steps_stop, &t, &stopped, err);
    if (st != WT_OK) goto out;
    if (!stopped) {
        st = ascend(&g, job, ctl, threads, &steps_stop, &t, pi, best_pi, v, v_prev,
                    &job->graph_bound, err);
        if (st != WT_OK) goto out;
    }
    memcpy(job->pi, best_pi, sn * sizeof *pi);

    /* The candidates and the bound under the best pi; ctl alone stops them. */
    st = wt_ascent_finish(inst, &g, best_pi, job->candidates_k, threads, &final_stop, &t,
                          job->candidates, &job->graph_bound, &job->lower_bound, &stopped, err);
    if (st == WT_OK && stopped) job->stopped = true;
out:
    free(pi);
    free(best_pi);
    free(v);
    free(v_prev);
    wt_onetree_free(&t);
    wt_sgraph_free(&g);
    return st;
}
