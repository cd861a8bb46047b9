/*
 * ils_common.c - what the host's ILS drivers share (ils_common.h): the
 * searches, a kick and its repair, a round of kicks on one thread, and the
 * count of ties that picks the rules of tied instances.
 *
 * A kick queues only the cities it reconnects and the engine's descent
 * runs from those (the don't-look bits of all others stay set), so a kick
 * and its repair cost about the moves made; a rejected kick is undone from
 * the engine's log.
 */
#include "algo/ils_common.h"

#include <stdlib.h>

#include "algo/policy.h"
#include "core/climb_start.h"
#include "core/error.h"
#include "core/instance.h"
#include "core/kdtree.h"
#include "ls/kicks.h"

/* Kicks between looks at the clock and the progress callback. */
enum { ILS_POLL = 64 };

uint64_t ils_round_kicks(const wt_tuning *t)
{
    if (t->ils_round_kicks == 0) return WT_ILS_ROUND_KICKS;
    if (t->ils_round_kicks == WT_TUNING_OFF || t->ils_round_kicks > (1LL << 40))
        return 1ULL << 40; /* never; T * k must fit */
    return (uint64_t)t->ils_round_kicks;
}

/* The two shortest edges from city c to the k cities of row (entries
 * below 0 ended it): *d1 <= *d2, both INT64_MAX where it has fewer. */
static void two_shortest(const wt_instance *inst, int c, const int32_t *row, int k, int64_t *d1,
                         int64_t *d2)
{
    *d1 = *d2 = INT64_MAX;
    for (int j = 0; j < k && row[j] >= 0; j++) {
        int64_t d = wt_dist(inst, c, row[j]);
        if (d < *d1) {
            *d2 = *d1;
            *d1 = d;
        } else if (d < *d2) {
            *d2 = d;
        }
    }
}

bool ils_mostly_tied(const wt_ls *w, const wt_instance *inst)
{
    int k, n = inst->n;
    const int32_t *nb = wt_ls_candidates(w, &k);
    long long tied = 0;
    for (int c = 0; k >= 2 && c < n; c++) {
        int64_t d1, d2;
        two_shortest(inst, c, nb + (size_t)c * (size_t)k, k, &d1, &d2);
        tied += d2 != INT64_MAX && d1 == d2;
    }
    return tied * 100 >= (long long)WT_ILS_TIED_SHARE * n;
}

bool ils_instance_tied(const wt_instance *inst, int threads)
{
    int n = inst->n;
    wt_kdtree *tree = NULL;
    if (n < 3 || wt_kdtree_create_threads(inst, NULL, n, threads, &tree, NULL) != WT_OK)
        return false;
    int m = n < WT_ILS_TIED_SAMPLE ? n : WT_ILS_TIED_SAMPLE;
    long long tied = 0;
    for (int i = 0; i < m; i++) {
        int c = (int)((long long)i * n / m);
        int32_t nb[2];
        double d[2];
        if (wt_kdtree_knn(tree, c, 2, nb, d) == 2)
            tied += wt_dist(inst, c, nb[0]) == wt_dist(inst, c, nb[1]);
    }
    wt_kdtree_free(tree);
    return tied * 100 >= (long long)WT_ILS_TIED_SHARE * m;
}

/* One kick and its repair; keeps or undoes it.  false when a descent failed. */
static bool kick_and_repair(ils_search *s, int n, bool accept_equal)
{
    if (s->walk > 0) {
        if (!wt_ls_walk_kick_among(s->w, s->seed, s->next++, s->walk, s->region, s->region_m))
            return true;
    } else {
        int p[3];
        if (!wt_ls_kick_points(s->seed, s->next++, n, p)) return true;
        /* Fixed edges: the next points of the run, a few tries. */
        for (int tries = 0; !wt_ls_bridge_keeps_fixed(s->w, p[0], p[1], p[2]); tries++)
            if (tries == 16 || !wt_ls_kick_points(s->seed, s->next++, n, p)) return true;
        wt_ls_double_bridge(s->w, p[0], p[1], p[2]);
    }
    s->st = wt_ls_descend(s->w, &s->moves, &s->err);
    if (s->st != WT_OK) return false;
    int64_t len = wt_ls_length(s->w);
    s->kicks++;
    if (len < s->best_len || (accept_equal && len == s->best_len)) {
        wt_ls_commit(s->w);
        s->best_len = len;
        s->kept++;
#pragma omp atomic write
        s->shown = len - s->base + s->acc;
    } else {
        wt_ls_undo(s->w, s->best_len);
    }
    return true;
}

void ils_set_halt(int *halt)
{
#pragma omp atomic write
    *halt = 1;
}

bool ils_halted(int *halt)
{
    int h;
#pragma omp atomic read
    h = *halt;
    return h != 0;
}

/* The best length so far, as the searches run: the shortest of their
 * tours, or with segments (*tour_len: the tour's length at the round's
 * start) that length plus every segment's gain. */
static int64_t shown_length(ils_search *all, int T, const int64_t *tour_len)
{
    int64_t best = INT64_MAX, sum = tour_len ? *tour_len : 0;
    for (int u = 0; u < T; u++) {
        int64_t v;
#pragma omp atomic read
        v = all[u].shown;
        if (v < best) best = v;
        sum += v;
    }
    return tour_len ? sum : best;
}

uint64_t ils_share(uint64_t quota, uint64_t parts, uint64_t u)
{
    return quota / parts + (u < quota % parts);
}

void ils_report_round(ils_search *all, int t, int T, wt_search_ctl *ctl, uint64_t done_before,
                      const int64_t *tour_len, int *halt)
{
    bool stop;
    if (t == 0) {
        ctl->kicks = done_before;
        stop = wt_ctl_report(ctl, shown_length(all, T, tour_len),
                             ctl->steps_before + all[t].moves, false);
    } else {
        stop = wt_ctl_expired(ctl);
    }
    if (stop) ils_set_halt(halt);
}

void ils_run_round(ils_search *all, int t, int T, uint64_t mine, int n, wt_search_ctl *ctl,
                   uint64_t done_before, const int64_t *tour_len, int *halt)
{
    ils_search *s = &all[t];
    bool accept_equal = ctl->params->accept_equal;
    for (uint64_t k = 0; k < mine; k++) {
        if (k % ILS_POLL == 0) {
            ils_report_round(all, t, T, ctl, done_before + k * (uint64_t)T, tour_len, halt);
            if (ils_halted(halt)) return;
        }
        /* No kick after `until`, looked at before every kick: a kick of the
         * 5-opt step takes a millisecond or more on large tours, and a poll's
         * 64 of them would push the run's last round a tenth of a second
         * earlier (ils_merged.c's tail). */
        if (s->until > 0 && wt_now() >= s->until) {
            ils_set_halt(halt);
            return;
        }
        if (!kick_and_repair(s, n, accept_equal)) {
            ils_set_halt(halt);
            return;
        }
    }
}

void ils_add_stats(wt_search_stats *stats, const ils_search *s, int T)
{
    for (int t = 0; t < T; t++) {
        stats->kicks += s[t].kicks;
        stats->kicks_accepted += s[t].kept;
        stats->steps += s[t].moves;
    }
}

uint64_t ils_kicks_of(const ils_search *s, int T)
{
    uint64_t k = 0;
    for (int t = 0; t < T; t++) k += s[t].kicks;
    return k;
}

void ils_searches_free(ils_search *s, int T)
{
    for (int t = T - 1; t >= 0 && s; t--) {
        wt_ls_free(s[t].w);
        wt_merge_free(s[t].merger);
        free(s[t].child);
    }
    free(s);
}

ils_search *ils_searches_new(const wt_ls *proto, wt_search_ctl *ctl, int T, wt_error *err)
{
    const wt_ls_moves *m = wt_ls_moves_of(proto);
    const wt_instance *inst = wt_ls_instance(proto);
    int tuned = wt_tuning_of(ctl->params)->lk_walk;
    /* Ties, counted on the kicks' lists only where the rule asks for them
     * (an O(n k) pass): on the tied instances measured (75-88% of their
     * cities) the count on the first descent's lists agrees. */
    bool tied = m->lk && m->kopt && !tuned && ctl->params->time_limit_s > 0 &&
                ils_mostly_tied(proto, inst);
    int walk = m->lk ? wt_policy_lk_walk(tuned, m->kopt, tied, inst->n,
                                         ctl->params->time_limit_s, ctl->threads)
                     : 0;
    ils_search *s = calloc((size_t)T, sizeof *s);
    if (!s) {
        wt_fail(err, WT_STATUS_OUT_OF_MEMORY, "out of memory for %d searches", T);
        return NULL;
    }
    for (int t = 0; t < T; t++) {
        s[t].seed = ctl->params->seed + (uint64_t)t * 0x9E3779B97F4A7C15ULL;
        s[t].walk = walk;
    }
    return s;
}

int ils_round_offset(uint64_t seed, uint64_t r, int n)
{
    if (r == 0) return 0;
    wt_rng rng;
    wt_climb_rng(&rng, seed ^ 0x2545F4914F6CDD1DULL, r);
    return (int)wt_rng_below(&rng, (uint64_t)n);
}

void ils_splice_windows(wt_concurrent_windows *concurrent, int32_t *tour, int64_t *length,
                        bool wait)
{
    int64_t gain = 0;
    wt_concurrent_splice(concurrent, tour, wait, &gain);
    *length -= gain;
}
