/*
 * ils_segments.c - ILS on segments: on a large tour replicas would throw
 * away the work of all but one search at every meeting (their kicks land
 * far apart and improve different places) and copy n cities into each.
 * So the tour is cut into T segments of consecutive positions instead, one
 * per search, each searched as a path whose two ends stay in place
 * (wt_ls_adopt_path): every search's gains are kept, and the segments go
 * back into the tour's positions side by side.  Every round cuts the tour
 * at an offset drawn from the seed, so that moves across one round's cuts
 * are found in another's.
 *
 * A move between cities that never share a segment (far apart along the
 * tour, side by side in the plane) is never made, which costs more than
 * the few such candidate pairs suggest (the improving moves are often
 * those); so segments pay only from WT_ILS_SEGMENT_MIN cities a thread
 * (WT_ILS_LK_SEGMENT_MIN for LK searches, whose flips cost more on longer
 * tours), and below WT_ILS_REPLICA_EVERY_BELOW cities a segment every
 * WT_ILS_REPLICA_EVERY-th round is a round of replicas, which make those
 * moves.  A search takes segments of at most WT_ILS_SEGMENT_MAX cities
 * (WT_ILS_LK_SEGMENT_MAX for LK searches), several in turn where its share
 * of the tour is longer: a move's reversal on a segment's array costs up
 * to the segment's length.
 *
 * A round's work depends only on the tour at its start, so a run is the
 * same for the same seed, kick budget and thread count.
 */
#include "algo/ils_common.h"

#include <limits.h>
#include <stdlib.h>

#include "algo/policy.h"
#include "core/error.h"

long long ils_segment_min(const wt_tuning *t, bool lk)
{
    if (t->ils_segment_min == 0) return lk ? WT_ILS_LK_SEGMENT_MIN : WT_ILS_SEGMENT_MIN;
    return t->ils_segment_min == WT_TUNING_OFF ? LLONG_MAX : t->ils_segment_min;
}

/* Kicks of each segment's search a round: about one for every two of its
 * cities, so that the round's fixed work (the descent from every city of
 * the segment) stays small beside it. */
static uint64_t segment_round_kicks(const wt_tuning *t, int cap)
{
    if (t->ils_round_kicks != 0) return ils_round_kicks(t);
    return (uint64_t)cap / 2 > WT_ILS_ROUND_KICKS ? (uint64_t)cap / 2 : WT_ILS_ROUND_KICKS;
}

/* Search t's round on segment j of `count`: takes up the path, descends
 * from every city, makes `mine` kicks, and puts the path back. */
static void run_segment(ils_search *all, int t, int T, int j, int count, int32_t *tour,
                        const int32_t *where, int n, int offset, uint64_t mine,
                        wt_search_ctl *ctl, uint64_t done_before, const int64_t *tour_len,
                        int *halt)
{
    ils_search *s = &all[t];
    long long lo = (long long)j * n / count, hi = (long long)(j + 1) * n / count;
    s->start = (int)((offset + lo) % n);
    s->m = (int)(hi - lo);
    wt_ls_adopt_path(s->w, tour, where, n, s->start, s->m);
    s->base = s->best_len = wt_ls_length(s->w);
#pragma omp atomic write
    s->shown = s->acc;
    wt_ls_touch_all(s->w);
    s->st = wt_ls_descend(s->w, &s->moves, &s->err);
    if (s->st == WT_OK) {
        wt_ls_commit(s->w);
        s->best_len = wt_ls_length(s->w);
#pragma omp atomic write
        s->shown = s->best_len - s->base + s->acc;
        ils_run_round(all, t, T, mine, s->m, ctl, done_before, tour_len, halt);
    } else {
        ils_set_halt(halt);
    }
    /* Committed or undone after every kick: the path is the best one. */
    wt_ls_store_path(s->w, tour, n);
    s->acc += s->best_len - s->base;
}

/* Search t's round on its `turns` segments (t, t + T, ...), one after
 * another; stops after the first one that a halt cut short. */
static void run_segments(ils_search *all, int t, int T, int turns, int32_t *tour,
                         const int32_t *where, int n, int offset, uint64_t quota,
                         wt_search_ctl *ctl, uint64_t done_before, const int64_t *tour_len,
                         int *halt)
{
    uint64_t parts = (uint64_t)T * (uint64_t)turns, mine_before = all[t].kicks;
    all[t].acc = 0;
    for (int r = 0; r < turns && !ils_halted(halt); r++) {
        /* The progress line's count: this round's earlier turns, T times. */
        uint64_t done = done_before + (all[t].kicks - mine_before) * (uint64_t)T;
        /* A first descent makes no kicks, whose polls would see a stop and
         * report: its turns do, the segments' gains so far shown. */
        ils_report_round(all, t, T, ctl, done, tour_len, halt);
        if (ils_halted(halt)) break;
        int j = r * T + t;
        run_segment(all, t, T, j, T * turns, tour, where, n, offset,
                    ils_share(quota, parts, (uint64_t)j), ctl, done, tour_len, halt);
    }
}

void ils_segments_close(ils_segments *k, int T)
{
    ils_searches_free(k->s, T);
    free(k->where);
}

/* The longest segment (LLONG_MAX: none), by the searches' descents. */
static long long segment_max(const wt_tuning *t, bool lk)
{
    if (t->ils_segment_max == 0) return lk ? WT_ILS_LK_SEGMENT_MAX : WT_ILS_SEGMENT_MAX;
    return t->ils_segment_max == WT_TUNING_OFF ? LLONG_MAX : t->ils_segment_max;
}

/* Segments each search takes in turn, for tours of n cities on T. */
static int segment_turns(const wt_ls *whole, const wt_tuning *t, int n, int T)
{
    long long per = ((long long)n + T - 1) / T, most = segment_max(t, wt_ls_moves_of(whole)->lk);
    return per <= most ? 1 : (int)((per + most - 1) / most);
}

wt_status ils_segments_open(const wt_ls *whole, int n, wt_search_ctl *ctl, int T,
                            ils_segments *out, wt_error *err)
{
    int turns = segment_turns(whole, wt_tuning_of(ctl->params), n, T);
    /* Local descents' engines hold a whole share, for the rounds that take
     * it as one segment; LK's hold one of the shorter segments. */
    bool share_room = !wt_ls_moves_of(whole)->lk;
    long long count = share_room ? T : (long long)T * turns;
    int cap = (int)(((long long)n + count - 1) / count);
    *out = (ils_segments){ils_searches_new(whole, ctl, T, err),
                          malloc((size_t)n * sizeof(int32_t)), turns, turns, share_room};
    if (!out->s || !out->where) {
        ils_segments_close(out, T);
        return wt_fail(err, WT_STATUS_OUT_OF_MEMORY, "out of memory for %d searches", T);
    }
    wt_status st = WT_OK;
    for (int t = 0; t < T && st == WT_OK; t++)
        st = wt_ls_create_paths(whole, cap, &out->s[t].w, err);
    if (st != WT_OK) ils_segments_close(out, T);
    return st;
}

wt_status ils_segments_round(ils_segments *k, int T, int32_t *tour, int n, int offset,
                             uint64_t quota, wt_search_ctl *ctl, uint64_t *done,
                             int64_t *length, int *halt, wt_error *err)
{
    ils_search *s = k->s;
    int32_t *where = k->where;
#pragma omp parallel for num_threads(ils_team(T, ctl)) schedule(static)
    for (int x = 0; x < n; x++) where[tour[x]] = x;
    int turns = k->turns;
    /* No gain yet this round: the progress reports add these to *length,
     * which holds the last round's gains already. */
    for (int t = 0; t < T; t++) s[t].shown = 0;
#pragma omp parallel for num_threads(ils_team(T, ctl)) schedule(static, 1)
    for (int t = 0; t < T; t++)
        run_segments(s, t, T, turns, tour, where, n, offset, quota, ctl, *done, length, halt);
    wt_status st = WT_OK;
    *done = 0;
    for (int t = 0; t < T; t++) {
        *done += s[t].kicks;
        *length += s[t].acc;
        if (s[t].st != WT_OK) {
            *err = s[t].err;
            st = s[t].st;
        }
    }
    return st;
}

/* Whether round r of local descents' kicks takes each search's share as one
 * segment: every WT_ILS_SHARE_ROUND_EVERY-th (ils_share_round_every), where
 * the shares are longer than a segment, so that moves between cities
 * further apart along the tour than a segment are made too. */
static bool share_round(const ils_segments *k, const wt_tuning *t, uint64_t r)
{
    int every = t->ils_share_round_every == 0 ? WT_ILS_SHARE_ROUND_EVERY
                : t->ils_share_round_every == WT_TUNING_OFF ? 0
                                                            : t->ils_share_round_every;
    return k->share_room && k->shorter > 1 && every > 0 && r % (uint64_t)every == 0;
}

/* Every k-th round of segments a round of replicas (0: none), by the
 * cities a segment (tuning.ils_replica_every sets another k). */
static int replica_every(const wt_tuning *t, int cap)
{
    if (t->ils_replica_every != 0)
        return t->ils_replica_every == WT_TUNING_OFF ? 0 : t->ils_replica_every;
    return cap < WT_ILS_REPLICA_EVERY_BELOW ? WT_ILS_REPLICA_EVERY : 0;
}

wt_status ils_kick_segments(wt_ls *whole, int32_t *tour, int n, wt_search_ctl *ctl, int T,
                            uint64_t kicks, bool large_lk, wt_concurrent_windows *concurrent,
                            int64_t *length, wt_search_stats *stats, wt_error *err)
{
    ils_segments k;
    ils_search *c = NULL;
    const wt_tuning *tune = wt_tuning_of(ctl->params);
    /* No replicas of a large tour for LK searches (flips on the whole tour). */
    int every = large_lk ? 0 : replica_every(tune, (n + T - 1) / T);
    wt_status st = ils_segments_open(whole, n, ctl, T, &k, err);
    if (st != WT_OK) return st;
    if (every > 0) st = ils_replicas_open(whole, *length, ctl, T, &c, err);
    if (concurrent) wt_concurrent_start(concurrent, tour, ctl->deadline);
    uint64_t done = 0, per = segment_round_kicks(tune, (n + T - 1) / T), on_replicas = 0;
    int halt = 0;
    /* Under a time limit alone the rounds of a tour that replicas may copy
     * grow from short ones (policy.h). */
    double limit = kicks == 0 && !large_lk && n <= WT_ILS_LK_REPLICAS_MAX
                       ? ctl->params->time_limit_s
                       : 0,
           round_s = 0;
    uint64_t round = 0;
    for (uint64_t r = 1; st == WT_OK && !halt && (kicks == 0 || done < kicks); r++) {
        bool replicas = every > 0 && r % (uint64_t)every == 0;
        round = wt_policy_timed_round(round, round_s, limit,
                                      replicas ? ils_round_kicks(tune) : per,
                                      tune->ils_round_kicks != 0);
        uint64_t quota = (uint64_t)T * round;
        if (kicks > 0 && kicks - done < quota) quota = kicks - done;
        double t0 = wt_now();
        uint64_t on_segments = ils_kicks_of(k.s, T);
        if (replicas) {
            ils_replicas_meet(c, T, -1, tour, *length, ctl);
            st = ils_replicas_round(c, T, tour, n, quota, ctl, done, length, &halt, err);
            on_replicas = ils_kicks_of(c, T);
        } else {
            int offset = ils_round_offset(ctl->params->seed, r, n);
            k.turns = share_round(&k, tune, r) ? 1 : k.shorter;
            uint64_t d = done; /* in: for the progress report; out: the segments' kicks */
            st = ils_segments_round(&k, T, tour, n, offset, quota, ctl, &d, length, &halt, err);
            on_segments = d;
        }
        round_s = wt_now() - t0;
        done = on_segments + on_replicas;
        if (concurrent && st == WT_OK) ils_splice_windows(concurrent, tour, length, false);
    }
    if (concurrent && st == WT_OK) ils_splice_windows(concurrent, tour, length, true);
    ils_add_stats(stats, k.s, T);
    if (c) ils_add_stats(stats, c, T);
    ils_replicas_close(c, T);
    ils_segments_close(&k, T);
    return st;
}
