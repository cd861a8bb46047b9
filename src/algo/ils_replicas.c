/*
 * ils_replicas.c - ILS on replicas: each of the T searches an engine of
 * its own on a copy of the whole tour, with its own stream of kicks, run
 * in rounds of ils_round_kicks kicks each (under a time limit alone,
 * rounds that grow up to that: wt_policy_timed_round); at the end of a
 * round every search takes up the best tour among them (ties to the
 * lowest search), as Lam et al.'s searches meet at their exchanges.
 *
 * With tuning.ils_merge (the default) the meeting merges the searches'
 * tours instead (ils_combine.c): the tour all take up is no longer than
 * the best one and has the gains of the others where they lie apart; and
 * after rounds without a shorter tour the searches but the first start
 * their rounds with a diversification.
 *
 * A round's work depends only on the tour at its start, so a run is the
 * same for the same seed, kick budget and thread count.
 */
#include "algo/ils_common.h"

#include <string.h>

#include "core/error.h"
#include "core/tuning.h"

wt_status ils_replicas_open(wt_ls *whole, int64_t length, wt_search_ctl *ctl, int T,
                            ils_search **out, wt_error *err)
{
    ils_search *s = ils_searches_new(whole, ctl, T, err);
    if (!s) return WT_STATUS_OUT_OF_MEMORY;
    s[0].w = whole;
    wt_status st = WT_OK;
    for (int t = 1; t < T && st == WT_OK; t++) st = wt_ls_clone(whole, &s[t].w, err);
    if (st != WT_OK) {
        s[0].w = NULL; /* whole is the caller's */
        ils_searches_free(s, T);
        return st;
    }
    for (int t = 0; t < T; t++) s[t].best_len = s[t].shown = length;
    *out = s;
    return WT_OK;
}

void ils_replicas_close(ils_search *s, int T)
{
    if (!s) return;
    s[0].w = NULL; /* whole is the caller's */
    ils_searches_free(s, T);
}

/* The search with the shortest committed tour (the lowest on ties). */
static int best_search(const ils_search *s, int T)
{
    int b = 0;
    for (int t = 1; t < T; t++)
        if (s[t].best_len < s[b].best_len) b = t;
    return b;
}

void ils_replicas_meet(ils_search *s, int T, int b, const int32_t *tour, int64_t length,
                       const wt_search_ctl *ctl)
{
    const int32_t *from = b < 0 ? tour : wt_ls_order(s[b].w);
    int64_t len = b < 0 ? length : s[b].best_len;
#pragma omp parallel for num_threads(ils_team(T, ctl)) schedule(static, 1)
    for (int t = 0; t < T; t++)
        if (t != b && (b < 0 || s[t].best_len != len)) {
            wt_ls_adopt(s[t].w, from, len);
            s[t].best_len = s[t].shown = len;
        }
}

wt_status ils_replicas_round(ils_search *s, int T, int32_t *tour, int n, uint64_t quota,
                             wt_search_ctl *ctl, uint64_t done, int64_t *length, int *halt,
                             wt_error *err)
{
#pragma omp parallel for num_threads(ils_team(T, ctl)) schedule(static, 1)
    for (int t = 0; t < T; t++) {
        if (s[t].shake > 0 && !ils_shake(&s[t], n, s[t].shake)) {
            ils_set_halt(halt);
            continue;
        }
        ils_run_round(s, t, T, ils_share(quota, (uint64_t)T, (uint64_t)t), n, ctl, done, NULL,
                      halt);
    }
    wt_status st = WT_OK;
    for (int t = 0; t < T; t++)
        if (s[t].st != WT_OK) {
            *err = s[t].err;
            st = s[t].st;
        }
    if (st == WT_OK && ils_merge_stall(ctl, T, n, false) > 0) {
        st = ils_combine(s, T, tour, n, length, ctl, err);
        ils_replicas_meet(s, T, -1, tour, *length, ctl);
        return st;
    }
    int b = best_search(s, T);
    ils_replicas_meet(s, T, b, tour, *length, ctl);
    *length = s[b].best_len;
    memcpy(tour, wt_ls_order(s[b].w), (size_t)n * sizeof *tour);
    return st;
}

wt_status ils_kick_replicas(wt_ls *whole, int32_t *tour, int n, wt_search_ctl *ctl, int T,
                            uint64_t kicks, int64_t *length, wt_search_stats *stats,
                            wt_error *err)
{
    ils_search *s = NULL;
    wt_status st = ils_replicas_open(whole, *length, ctl, T, &s, err);
    if (st != WT_OK) return st;
    int halt = 0, stall = ils_merge_stall(ctl, T, n, false), still = 0;
    const wt_tuning *tune = wt_tuning_of(ctl->params);
    uint64_t done = 0, most = ils_round_kicks(tune), round = 0;
    /* Under a time limit alone the rounds on a tour of up to
     * WT_ILS_LK_REPLICAS_MAX cities grow from short ones, which share the
     * best tour often (policy.h). */
    double limit = kicks == 0 && n <= WT_ILS_LK_REPLICAS_MAX ? ctl->params->time_limit_s : 0,
           round_s = 0;
    while (st == WT_OK && !halt && (kicks == 0 || done < kicks)) {
        round = wt_policy_timed_round(round, round_s, limit, most, tune->ils_round_kicks != 0);
        uint64_t quota = (uint64_t)T * round;
        if (kicks > 0 && kicks - done < quota) quota = kicks - done;
        int64_t before = *length;
        double t0 = wt_now();
        st = ils_replicas_round(s, T, tour, n, quota, ctl, done, length, &halt, err);
        round_s = wt_now() - t0;
        done = ils_kicks_of(s, T);
        /* Rounds without a shorter tour: the next diversifies. */
        still = *length < before ? 0 : still + 1;
        for (int t = 1; stall > 0 && still >= stall && t < T; t++)
            s[t].shake = ils_shake_kicks(n);
    }
    ils_add_stats(stats, s, T);
    ils_replicas_close(s, T);
    return st;
}
