/*
 * ils.c - Iterated Local Search (Rocki & Suda 2013, Algorithm 1).
 *
 * s* = 2-opt(s0); then, until the time limit or the kick budget: kick s*
 * with a double bridge, descend again with 2-opt, and keep the result if it
 * is shorter (or, with accept_equal, not longer), else go back to s*.
 * Written once against the backend's tour session, so on the GPU the tour
 * never leaves the device: each kick costs the host two lengths.
 *
 * The double bridge cuts the tour at three points and swaps the two middle
 * segments (A B C D -> A C B D), a change 2-opt cannot undo in one move: the
 * segment-restricted double bridge of ls/kicks.h, whose points come from
 * (seed, kick number) alone, so the CPU and GPU backends make identical
 * kicks.
 */
#include "algo/ils.h"

#include "algo/descent.h"
#include "core/error.h"
#include "ls/kicks.h"

/* Fewer cities admit no double bridge (wt_ls_kick_points). */
enum { MIN_KICK_CITIES = 8 };

/* One kick and descent d; keeps the result or reverts.  *best is updated. */
static wt_status kick_once(const wt_session_ops *ops, wt_tour_session *s, wt_descent *d,
                           wt_search_ctl *ctl, uint64_t k, int n, int64_t *best,
                           wt_search_stats *stats, wt_error *err)
{
    int p[3];
    if (!wt_ls_kick_points(ctl->params->seed, k, n, p)) return WT_OK;
    wt_status st = ops->kick(s, p[0], p[1], p[2], err);
    if (st == WT_OK) st = wt_descent_run(d, ops, s, ctl, *best, stats, err);
    if (st != WT_OK) return st;
    int64_t len = ops->length(s);
    if (len < *best || (ctl->params->accept_equal && len == *best)) {
        ops->keep(s);
        *best = len;
        stats->kicks_accepted++;
    } else {
        ops->revert(s);
    }
    return WT_OK;
}

wt_status wt_ils_run(const wt_device *dev, const wt_instance *inst, int32_t *tour,
                     wt_search_ctl *ctl, uint64_t kicks, wt_search_stats *stats, wt_error *err)
{
    const wt_session_ops *ops = dev->backend->session;
    wt_tour_session *s = NULL;
    wt_descent d = {0};
    wt_status st = wt_descent_open(&d, wt_instance_n(inst), ctl->params, err);
    if (st == WT_OK) st = ops->open(dev, inst, tour, ctl, &s, err);
    if (st != WT_OK) {
        wt_descent_close(&d);
        return st;
    }
    st = wt_descent_run(&d, ops, s, ctl, ops->length(s), stats, err);
    ops->keep(s);
    int64_t best = ops->length(s);
    bool at_optimum = ctl->stop == WT_STOP_DONE; /* the descent was not cut short */
    /* Below MIN_KICK_CITIES there is no double bridge: the local optimum is
     * the result, with or without a time limit to wait for. */
    bool can_kick = wt_instance_n(inst) >= MIN_KICK_CITIES;
    for (uint64_t k = 0; st == WT_OK && can_kick && (kicks == 0 || k < kicks); k++) {
        if (wt_ctl_report(ctl, best, stats->steps, false)) break;
        st = kick_once(ops, s, &d, ctl, k, wt_instance_n(inst), &best, stats, err);
        /* A kick whose descent was cut short was reverted or kept whole;
         * either way the best tour is valid. */
        stats->kicks++;
        ctl->kicks = stats->kicks;
    }
    /* Kicking "for as long as the time limit allows" (kicks == 0) ends
     * normally there, once the first descent has reached a local optimum; a
     * limit that cut that descent short stopped the run early. */
    if (kicks == 0 && at_optimum && ctl->stop == WT_STOP_TIME_LIMIT) ctl->stop = WT_STOP_DONE;
    if (st == WT_OK) st = ops->read_best(s, tour, err);
    ops->close(s);
    wt_descent_close(&d);
    return st;
}
