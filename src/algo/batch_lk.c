/*
 * batch_lk.c - a batch's instances searched by the host's ILS with LK
 * descents (batch_lk.h).
 *
 * The batch search of core/batch_search.h makes cheap kicks of 2-opt,
 * Or-opt and 3-opt moves, thousands of instances at once on a GPU; the
 * host's ILS (wt_solve: a Held-Karp ascent's alpha-nearness candidates,
 * LK moves up to LKH's 5-opt, double bridges) buys far more a kick, and
 * given about a core-second an instance of 1,000 cities it ends much
 * closer to the optimum (bench/RESULTS.md, "Batches: the host's LK ILS").
 * Each thread takes the next instance and runs wt_solve on it with one
 * thread, the batch's greedy tour as its start, so that an instance's
 * tour is a function of its start tour, its seed and its kick budget (or
 * its time share) alone, as in the batch search.
 *
 * wt_solve polls its own time limit and the batch's stop flag; the
 * batch's progress callback (and its stop) reaches it through wt_solve's
 * progress callback, which every instance's search calls every few
 * milliseconds: thread 0 reports the batch's progress from there, and
 * every thread returns the batch's stop.
 */
#include "algo/batch_lk.h"

#include <math.h>
#include <omp.h>
#include <string.h>

#include "core/error.h"
#include "core/instance.h"
#include "core/rng.h"

/* How often an instance's search calls lk_progress: often enough for a
 * stop asked by the batch's progress callback to end every instance's
 * search within a few hundredths of a second. */
#define WT_BATCH_LK_POLL_S 0.01

/* What an instance's progress callback is given. */
typedef struct lk_thread {
    const wt_batch_job *job;
    wt_search_ctl *ctl;   /* the batch's */
    bool reports;         /* thread 0, the calling thread: the batch's reports */
    uint64_t kicks_before; /* the job's kicks when this instance began */
} lk_thread;

/* The batch's progress from thread 0, with the kicks of the instance under
 * way; the batch's stop for every thread. */
static int lk_progress(const wt_progress *pr, void *user)
{
    lk_thread *t = user;
    if (t->reports) {
        uint64_t done;
#pragma omp atomic read
        done = t->job->counters->done;
        t->ctl->kicks = t->kicks_before + pr->kicks;
        (void)wt_ctl_report_climbs(t->ctl, 0, 0, done, false);
    }
    return wt_ctl_expired(t->ctl);
}

/* Instance q's seed: a function of the batch's seed and q's index alone. */
static uint64_t lk_seed(uint64_t seed, uint64_t index)
{
    uint64_t state = seed ^ wt_splitmix64(&index);
    return wt_splitmix64(&state);
}

/* Instance q of job by wt_solve on one thread, until its budget or `until`. */
static wt_status solve_one(const wt_batch_job *job, int q, double until, lk_thread *t,
                           wt_error *err)
{
    const wt_instance *inst = job->inst[q];
    wt_params wp;
    wt_params_defaults(&wp);
    wp.algorithm = WT_ALGO_ILS;
    wp.ils_descent = WT_ILS_LK;
    wp.backend = WT_BACKEND_CPU;
    wp.threads = 1;
    wp.seed = lk_seed(job->seed, job->index[q]);
    wp.start_tour = job->tour[q];
    wp.kicks = job->budget[q];
    wp.stop_flag = t->ctl->params->stop_flag;
    wp.progress = lk_progress;
    wp.progress_user = t;
    wp.progress_interval_s = WT_BATCH_LK_POLL_S;
    if (isfinite(until)) {
        double left = until - wt_now();
        if (left <= 0) return WT_OK; /* its time is over: the start tour stays */
        wp.time_limit_s = left;
    }
#pragma omp atomic read
    t->kicks_before = job->counters->kicks;
    wt_result res;
    wt_status st = wt_solve(inst, &wp, &res, err);
    if (st != WT_OK) return st;
    memcpy(job->tour[q], res.tour, (size_t)inst->n * sizeof *res.tour);
    /* Kicks come after the first descent only; a search that ended on
     * its own had its first descent whole. */
    bool whole = res.stop == WT_STOP_DONE || res.ils.kicks > 0;
    job->length[q] = whole ? res.length : -1;
    job->kicks[q] = res.ils.kicks;
    /* The batch's deadline cut a kick budget short, or a stop came: the
     * batch's stop (a time share's end is the natural one). */
    int done = WT_STOP_DONE;
    if (res.stop == WT_STOP_INTERRUPTED || (res.stop == WT_STOP_TIME_LIMIT && job->budget[q] > 0))
        __atomic_compare_exchange_n((int *)&t->ctl->stop, &done, (int)res.stop, false,
                                    __ATOMIC_RELAXED, __ATOMIC_RELAXED);
#pragma omp atomic
    job->counters->kicks += res.ils.kicks;
    wt_result_free(&res);
    return WT_OK;
}

wt_status wt_batch_lk_run(const wt_batch_job *job, wt_search_ctl *ctl, wt_error *err)
{
    int threads = ctl->threads < job->count ? ctl->threads : job->count;
    int next = 0, failed_at = job->count;
    wt_error first = {0};
#pragma omp parallel num_threads(threads)
    {
        lk_thread t = {job, ctl, omp_get_thread_num() == 0, 0};
        for (;;) {
            int q;
#pragma omp atomic capture
            q = next++;
            if (q >= job->count) break;
            if (!job->inst[q]) continue;
            if (t.reports) {
                uint64_t done;
#pragma omp atomic read
                done = job->counters->done;
                (void)wt_ctl_report_climbs(ctl, 0, 0, done, false);
            }
            if (wt_ctl_expired(ctl)) continue; /* not begun: its start tour stays */
            double until = job->budget[q] > 0 ? ctl->deadline
                                              : wt_batch_time_share(wt_now(), ctl->deadline,
                                                                    job->ranked - job->rank[q],
                                                                    (uint64_t)threads);
            wt_error e = {0};
            if (solve_one(job, q, until, &t, &e) != WT_OK) {
#pragma omp critical(wt_batch_lk_failure)
                if (q < failed_at) {
                    failed_at = q;
                    first = e;
                }
            }
#pragma omp atomic
            job->counters->done++;
        }
    }
    /* A stop flag an instance's own search saw first is the batch's stop. */
    const volatile int *flag = ctl->params->stop_flag;
    if (flag && *flag) ctl->stop = WT_STOP_INTERRUPTED;
    if (failed_at < job->count) {
        if (err) *err = first;
        return first.status != WT_OK ? first.status : WT_STATUS_OUT_OF_MEMORY;
    }
    return WT_OK;
}
