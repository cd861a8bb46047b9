/*
 * search_ctl.h - when a search must stop, and telling the caller how it goes.
 *
 * Every algorithm and backend polls one wt_search_ctl: it holds the deadline
 * from --time-limit, the caller's stop flag (set by a SIGINT handler in the
 * CLI) and the progress callback.  Backends call wt_ctl_expired() from any
 * thread inside their hot loops (it only reads a flag and the clock) and
 * wt_ctl_report() from the solving thread between steps.
 */
#ifndef WT_CORE_SEARCH_CTL_H
#define WT_CORE_SEARCH_CTL_H

#include <stdint.h>

#include "core/tuning.h"
#include "warptour.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct wt_search_ctl {
    const wt_params *params;
    double t_start;          /* monotonic seconds at wt_solve entry */
    double deadline;         /* monotonic seconds; INFINITY without a limit */
    double next_report;      /* when the progress callback is due next */
    int threads;             /* CPU threads to use (>= 1) */
    wt_stop_reason stop;     /* why the search ended (WT_STOP_DONE if it did not stop early) */
    int64_t init_length;
    uint64_t kicks;          /* ils: kicks so far, shown in progress reports */
    double temperature;      /* sa: current temperature, shown in progress reports */
    /* Optional stall rule (0: off): wt_ctl_report returns true, without
     * expiring ctl, once stall_steps reports in a row brought the best length
     * down by less than stall_gain of it.  Deterministic: counted in reports,
     * and a descent reports once a step (the device's 2-opt descent: once a
     * pass). */
    int stall_steps;
    double stall_gain;
    int stall_count;         /* reports in the current window */
    int64_t stall_from;      /* the best length at its start */
    /* A proven lower bound on every tour's length (0: none): a search whose
     * best tour reaches it has an optimal tour, and wt_ctl_report then
     * tells it to stop (ctl->stop stays as it is). */
    int64_t bound;
    /* NULL, or where a bound proven beside the search appears while it
     * runs (algo/alpha_beside.h): wt_ctl_report asks it, on the solving
     * thread, and raises bound to its answer (0: none yet). */
    int64_t (*bound_source)(const void *user);
    const void *bound_user;
    /* NULL, or the fixed edges as two cities a city (-1: none), 2n entries:
     * edges that the searches given them (the engines of ls/engine.h, on
     * whole tours) never remove and their kicks never cut (solve.c). */
    const int32_t *fixed;
    /* NULL, or what a host ILS keeps from one search to the next on the
     * same instance (algo/ils_keep.h: wt_solve_kept). */
    struct wt_ils_keep *keep;
    /* The figures of the last wt_ctl_report, repeated by wt_ctl_tick
     * (shown_steps: the most steps reported, so that the progress's count
     * never goes back when a phase's own count begins). */
    int64_t shown_best;
    uint64_t shown_steps, shown_climbs;
    /* ils: the steps of the phases before the kicks (the first descent),
     * which the kicks' reports add to their own moves. */
    uint64_t steps_before;
} wt_search_ctl;

/* Counters a search keeps for the result. */
typedef struct wt_search_stats {
    uint64_t steps;            /* improving moves applied */
    uint64_t moves_evaluated;  /* candidate moves evaluated */
    uint64_t passes;           /* 2opt, ils: full 2-opt passes (scans) run */
    uint64_t climbs;           /* multistart: climbs completed */
    uint64_t best_climb;       /* multistart: the climb the returned tour came from */
    uint64_t kicks;            /* ils: kicks made */
    uint64_t kicks_accepted;   /* ils: kicks kept */
    uint64_t iterations;       /* sa: Metropolis iterations, summed over searches */
    uint64_t accepted;         /* sa: accepted moves */
    double temperature;        /* sa: temperature at the end */
    double scan_time_s;        /* 2opt, ils: seconds evaluating moves in the counted scans */
    int64_t unpolished_length; /* sa: the annealed tour's length before the polish */
    uint64_t polish_moves;     /* sa: improving moves of the polish */
    double polish_time_s;      /* sa: seconds of the polish */
    double gpu_time_s;         /* ils with window descents: seconds the GPU's
                                  kernels ran (CUDA events) */
    double concurrent_windows_s; /* ils with concurrent windows: seconds from their
                                    first round's start to the end of the search */
    char windows_devices[128]; /* ils with concurrent windows over several GPUs:
                                  those GPUs ("2 GPUs: ..."); empty: one device */
    int64_t lower_bound;       /* ils with alpha-nearness candidates: the ascent's
                                  proven bound (algo/alpha.h); 0: none */
    char ascent_device[16];    /* the device whose ascent ran; empty: none */
    int ascent_iterations;     /* its subgradient steps */
    double ascent_s;           /* its seconds, graph and lists included */
    bool start_swept;          /* ils: the first descent kept one of the other start
                                  tours, a Quick-Boruvka sweep (algo/ils_first.c) */
} wt_search_stats;

/* Monotonic clock in seconds. */
double wt_now(void);

void wt_ctl_init(wt_search_ctl *ctl, const wt_params *params);

/* wt_ctl_init with the clock started at t_start (a wt_now() before it):
 * the time limit and the reports count from there, for work the caller did
 * before the search on its behalf. */
void wt_ctl_init_at(wt_search_ctl *ctl, const wt_params *params, double t_start);

/* Moves ctl's deadline (where it has one) finish_s seconds earlier, for the
 * work that follows a stop (at most half the limit, so that a search still
 * gets the other half). */
void wt_ctl_finish_before(wt_search_ctl *ctl, double finish_s);

/* True once the deadline passed or the stop flag is set; records the reason.
 * Safe to call from several threads (it writes only the same values). */
bool wt_ctl_expired(wt_search_ctl *ctl);

/* Calls the progress callback when due (or when force), then checks expiry
 * and the stall rule.  Returns true when the search must stop.  Solving
 * thread only. */
bool wt_ctl_report(wt_search_ctl *ctl, int64_t best_length, uint64_t steps, bool force);

/* Same, with the climbs finished so far in the report (multistart). */
bool wt_ctl_report_climbs(wt_search_ctl *ctl, int64_t best_length, uint64_t steps,
                          uint64_t climbs, bool force);

/* A progress report from inside one long step (a full 2-opt pass at
 * millions of cities lasts seconds to minutes): when due, repeats the last
 * wt_ctl_report's figures with pass_done, the share of the step done (0..1),
 * or WT_PASS_SHARE_UNKNOWN.  Solving thread only. */
void wt_ctl_tick(wt_search_ctl *ctl, double pass_done);

#ifdef __cplusplus
}
#endif

#endif
