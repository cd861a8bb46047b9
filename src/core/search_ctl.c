/*
 * search_ctl.c - deadlines, stop requests and progress reports for searches.
 */
#include "core/search_ctl.h"

#include <math.h>
#include <omp.h>
#include <time.h>

double wt_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void wt_ctl_init(wt_search_ctl *ctl, const wt_params *params)
{
    wt_ctl_init_at(ctl, params, wt_now());
}

void wt_ctl_init_at(wt_search_ctl *ctl, const wt_params *params, double t_start)
{
    ctl->params = params;
    ctl->t_start = t_start;
    ctl->deadline = params->time_limit_s > 0 ? ctl->t_start + params->time_limit_s : INFINITY;
    ctl->next_report = ctl->t_start + params->progress_interval_s;
    ctl->threads = params->threads > 0 ? params->threads : omp_get_num_procs();
    ctl->stop = WT_STOP_DONE;
    ctl->init_length = 0;
    ctl->kicks = 0;
    ctl->temperature = 0;
    ctl->stall_steps = 0;
    ctl->stall_gain = 0;
    ctl->stall_count = 0;
    ctl->stall_from = 0;
    ctl->bound = 0;
    ctl->bound_source = NULL;
    ctl->bound_user = NULL;
    ctl->fixed = NULL;
    ctl->keep = NULL;
    ctl->shown_best = 0;
    ctl->shown_steps = ctl->shown_climbs = 0;
    ctl->steps_before = 0;
}

void wt_ctl_finish_before(wt_search_ctl *ctl, double finish_s)
{
    double limit = ctl->params->time_limit_s;
    if (!(limit > 0) || !(finish_s > 0)) return;
    ctl->deadline -= finish_s < limit / 2 ? finish_s : limit / 2;
}

/* The stall rule of search_ctl.h, one report further. */
static bool stalled(wt_search_ctl *ctl, int64_t best_length)
{
    if (ctl->stall_steps <= 0) return false;
    if (ctl->stall_count++ == 0) {
        ctl->stall_from = best_length;
        return false;
    }
    if (ctl->stall_count <= ctl->stall_steps) return false;
    bool flat = (double)(ctl->stall_from - best_length) < ctl->stall_gain * (double)ctl->stall_from;
    ctl->stall_count = 1;
    ctl->stall_from = best_length;
    return flat;
}

/* ctl->stop is read and written by several threads of a search; relaxed
 * atomics make that well-defined without ordering costs. */
static wt_stop_reason stop_load(const wt_search_ctl *ctl)
{
    return (wt_stop_reason)__atomic_load_n((const int *)&ctl->stop, __ATOMIC_RELAXED);
}

static void stop_store(wt_search_ctl *ctl, wt_stop_reason r)
{
    __atomic_store_n((int *)&ctl->stop, (int)r, __ATOMIC_RELAXED);
}

bool wt_ctl_expired(wt_search_ctl *ctl)
{
    if (stop_load(ctl) != WT_STOP_DONE) return true;
    const volatile int *flag = ctl->params->stop_flag;
    if (flag && *flag) {
        stop_store(ctl, WT_STOP_INTERRUPTED);
        return true;
    }
    if (wt_now() >= ctl->deadline) {
        stop_store(ctl, WT_STOP_TIME_LIMIT);
        return true;
    }
    return false;
}

bool wt_ctl_report(wt_search_ctl *ctl, int64_t best_length, uint64_t steps, bool force)
{
    return wt_ctl_report_climbs(ctl, best_length, steps, 0, force);
}

/* Calls the progress callback with ctl's figures, when due or forced. */
static void report(wt_search_ctl *ctl, double pass_done, bool force)
{
    const wt_params *p = ctl->params;
    if (!p->progress) return;
    double now = wt_now();
    if (!force && now < ctl->next_report) return;
    wt_progress pr = {
        .elapsed_s = now - ctl->t_start,
        .best_length = ctl->shown_best,
        .init_length = ctl->init_length,
        .steps = ctl->shown_steps,
        .climbs = ctl->shown_climbs,
        .kicks = ctl->kicks,
        .temperature = ctl->temperature,
        .pass_done = pass_done,
        .lower_bound = ctl->bound > 0 ? ctl->bound : 0,
    };
    ctl->next_report = now + p->progress_interval_s;
    if (p->progress(&pr, p->progress_user) && stop_load(ctl) == WT_STOP_DONE)
        stop_store(ctl, WT_STOP_INTERRUPTED);
}

bool wt_ctl_report_climbs(wt_search_ctl *ctl, int64_t best_length, uint64_t steps,
                          uint64_t climbs, bool force)
{
    ctl->shown_best = best_length;
    if (steps > ctl->shown_steps) ctl->shown_steps = steps;
    ctl->shown_climbs = climbs;
    if (ctl->bound_source) {
        int64_t b = ctl->bound_source(ctl->bound_user);
        if (b > ctl->bound) ctl->bound = b;
    }
    report(ctl, WT_NOT_IN_PASS, force);
    return wt_ctl_expired(ctl) || stalled(ctl, best_length) ||
           (ctl->bound > 0 && best_length <= ctl->bound);
}

void wt_ctl_tick(wt_search_ctl *ctl, double pass_done)
{
    if (ctl && ctl->shown_best > 0) report(ctl, pass_done, false);
}
