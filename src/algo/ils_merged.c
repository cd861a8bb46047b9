/*
 * ils_merged.c - ILS on merged replicas: each of the T searches kicks its
 * own copy of the whole tour held as a two-level list (wt_ls_list_open),
 * where a flip costs O(sqrt n) wherever its ends lie and a kick's repair
 * can reach the whole tour, as in Applegate, Cook & Rohe's chained LK.
 * With T > 1 each search kicks from the cities of its own part of the
 * tour, and after every round the replicas' changes are merged into one
 * tour (merge_replicas); the parts move with the tour's rotation, drawn
 * from the seed every round.  LK searches take this way from
 * WT_ILS_MERGED_MIN cities.
 *
 * With tuning.ils_merge (the default) the tour is then merged with each
 * replica by partition crossover (ils_combine.c, combine_replicas), which
 * adds the gains of the changes that clashed, in the places where they
 * form feasible partitions, and after rounds without a shorter tour the
 * searches but the first start their rounds with a diversification in
 * their parts.
 *
 * With concurrent windows (windows_concurrent.h) the kicks keep off the
 * windows the GPU searches meanwhile, and the windows' improved paths go
 * in at the merges; the run then depends on timing.
 */
#include "algo/ils_common.h"

#include <stdlib.h>
#include <string.h>

#include "algo/policy.h"
#include "core/error.h"
#include "core/tour_changes.h"
#include "core/tour_ops.h"

bool ils_merged_on(const wt_tuning *t, int n, bool tied_short)
{
    if (t->ils_merged_min == WT_TUNING_OFF) return false;
    if (t->ils_merged_min) return n >= t->ils_merged_min;
    return !tied_short && n >= WT_ILS_MERGED_MIN;
}

/* The replicas' tours and the scratch of their merge. */
typedef struct merge {
    int32_t *adj;     /* T + 1 blocks of 2 n: each search's tour's neighbours, then the merge's */
    int32_t *touched; /* T blocks of n: the cities whose neighbours a search changed */
    int *count;       /* how many each */
    uint8_t *used;    /* n: a city an applied change touched */
    wt_tour_changes *cycle; /* whether the applied changes keep one cycle */
} merge;

static void close_merge(merge *g)
{
    free(g->adj);
    free(g->touched);
    free(g->count);
    free(g->used);
    wt_tour_changes_close(g->cycle);
}

static bool open_merge(merge *g, int n, int T)
{
    *g = (merge){malloc((size_t)(T + 1) * 2 * (size_t)n * sizeof(int32_t)),
                 malloc((size_t)T * (size_t)n * sizeof(int32_t)), malloc((size_t)T * sizeof(int)),
                 malloc((size_t)n), wt_tour_changes_open(n)};
    if (g->adj && g->touched && g->count && g->used && g->cycle) return true;
    close_merge(g);
    return false;
}

static bool same_neighbours(const int32_t *a, const int32_t *b)
{
    return (a[0] == b[0] && a[1] == b[1]) || (a[0] == b[1] && a[1] == b[0]);
}

static void swap_neighbours(int32_t *a, int32_t *b)
{
    for (int i = 0; i < 2; i++) {
        int32_t x = a[i];
        a[i] = b[i];
        b[i] = x;
    }
}

/* The tour of n cities (tour, *length), whose replicas the T searches
 * improved, gets their changes: each search's, the largest gain first,
 * where it touches no city an earlier one touched and the tour stays one
 * cycle.  A search's changes lie around the cities its kicks started from
 * (its region), so that most go in side by side.  The tour is then written
 * from city `from`. */
static void merge_replicas(ils_search *s, int T, int team, merge *g, int32_t *tour, int n,
                           int64_t *length, int from, wt_concurrent_windows *concurrent)
{
    int32_t *base = g->adj + (size_t)T * 2 * (size_t)n;
    wt_tour_neighbours(tour, n, base);
    wt_tour_changes_begin(g->cycle, tour, T);
#pragma omp parallel for num_threads(team) schedule(static, 1)
    for (int t = 0; t < T; t++) {
        int32_t *adj = g->adj + (size_t)t * 2 * (size_t)n, *touched = g->touched + (size_t)t * n;
        g->count[t] = 0;
        if (s[t].best_len >= *length) continue;
        wt_tour_neighbours(wt_ls_order(s[t].w), n, adj);
        for (int c = 0; c < n; c++)
            if (!same_neighbours(adj + 2 * c, base + 2 * c)) touched[g->count[t]++] = c;
    }
    memset(g->used, 0, (size_t)n);
    int64_t before = *length, gain = 0;
    for (int k = 0; k < T; k++) {
        int t = -1; /* the largest gain left */
        for (int u = 0; u < T; u++)
            if (g->count[u] > 0 && (t < 0 || s[u].best_len < s[t].best_len)) t = u;
        if (t < 0) break;
        int32_t *adj = g->adj + (size_t)t * 2 * (size_t)n;
        const int32_t *touched = g->touched + (size_t)t * n;
        int m = g->count[t];
        g->count[t] = 0;
        bool clash = false;
        for (int i = 0; i < m && !clash; i++) clash = g->used[touched[i]];
        if (clash) continue;
        /* The search's neighbours into the merge; adj keeps the merge's old. */
        for (int i = 0; i < m; i++) swap_neighbours(base + 2 * touched[i], adj + 2 * touched[i]);
        if (wt_tour_changes_try(g->cycle, base, touched, m)) {
            for (int i = 0; i < m; i++) g->used[touched[i]] = 1;
            gain += before - s[t].best_len; /* its edges are its cities' alone */
        } else {
            for (int i = 0; i < m; i++)
                swap_neighbours(base + 2 * touched[i], adj + 2 * touched[i]);
        }
    }
    wt_tour_of_neighbours(base, n, from, tour);
    /* The windows' improved paths where the host's changes left their
     * insides between their ends. */
    if (concurrent) wt_concurrent_splice(concurrent, tour, false, &gain);
    *length = before - gain;
}

/* merge_replicas, then the tour merged with each replica by partition
 * crossover (ils_combine_each), which adds the gains of the changes that
 * clashed (never a longer tour), and written from city `from` again. */
static wt_status combine_replicas(ils_search *s, int T, int team, merge *g, int32_t *tour, int n,
                                  int64_t *length, int32_t from,
                                  wt_concurrent_windows *concurrent, wt_error *err)
{
    merge_replicas(s, T, team, g, tour, n, length, from, concurrent);
    wt_status st = ils_combine_each(s, T, tour, n, length, err);
    if (st != WT_OK) return st;
    int32_t *rot = s[0].child; /* free again after the merge */
    int at = 0;
    while (tour[at] != from) at++;
    memcpy(rot, tour + at, (size_t)(n - at) * sizeof *rot);
    memcpy(rot + (n - at), tour, (size_t)at * sizeof *rot);
    memcpy(tour, rot, (size_t)n * sizeof *tour);
    return WT_OK;
}

/* One round of the T searches on replicas of the tour (length `length`),
 * each on a list, search t kicking from the cities of the t-th part of
 * kick_from (m cities of the tour, in its order, at least T). */
static void merged_round(ils_search *s, int T, const int32_t *tour, int n,
                         const int32_t *kick_from, int m, uint64_t quota, wt_search_ctl *ctl,
                         uint64_t done, int64_t length, bool adopt, int *halt)
{
#pragma omp parallel for num_threads(ils_team(T, ctl)) schedule(static, 1)
    for (int t = 0; t < T; t++) {
        ils_search *x = &s[t];
        double t0 = wt_now();
        uint64_t k0 = x->kicks;
        if (adopt) wt_ls_adopt(x->w, tour, length);
        x->best_len = x->shown = length;
        long long lo = (long long)t * m / T, hi = (long long)(t + 1) * m / T;
        x->region = T > 1 ? kick_from + lo : NULL;
        x->region_m = (int)(hi - lo);
        x->st = wt_ls_list_open(x->w, &x->err);
        if (x->st == WT_OK && x->shake > 0 && !ils_shake(x, n, x->shake)) ils_set_halt(halt);
        if (x->st == WT_OK && !ils_halted(halt))
            ils_run_round(s, t, T, ils_share(quota, (uint64_t)T, (uint64_t)t), n, ctl, done,
                          NULL, halt);
        else
            ils_set_halt(halt);
        x->kicked = wt_now();
        x->kick_s = x->kicks > k0 ? (x->kicked - t0) / (double)(x->kicks - k0) : 0;
        wt_ls_list_close(x->w); /* committed or undone after every kick */
    }
}

wt_status ils_kick_merged(wt_ls *whole, int32_t *tour, int n, wt_search_ctl *ctl, int T,
                          uint64_t kicks, wt_concurrent_windows *concurrent, int64_t *length,
                          wt_search_stats *stats, wt_error *err)
{
    ils_search *s = NULL;
    wt_status st = ils_replicas_open(whole, *length, ctl, T, &s, err);
    if (st != WT_OK) return st;
    merge g = {0};
    if (T > 1 && !open_merge(&g, n, T)) {
        ils_replicas_close(s, T);
        return wt_fail(err, WT_STATUS_OUT_OF_MEMORY, "out of memory for %d replicas' merge", T);
    }
    const wt_tuning *tune = wt_tuning_of(ctl->params);
    uint64_t per = tune->ils_round_kicks ? ils_round_kicks(tune) : WT_ILS_MERGED_ROUND_KICKS;
    uint64_t done = 0;
    int halt = 0;
    /* Out of memory for it: the kicks go anywhere. */
    int32_t *free_cities = concurrent ? malloc((size_t)n * sizeof *free_cities) : NULL;
    double tail = 0; /* the last round's seconds from its last search's last kick to its
                        merge's end, and a kick (the slowest search's mean): the last
                        round's kicks end that much earlier */
    int stall = ils_merge_stall(ctl, T, n, true), still = 0; /* rounds without a shorter tour */
    for (uint64_t r = 1; st == WT_OK && !halt && (kicks == 0 || done < kicks); r++) {
        uint64_t quota = T == 1 ? UINT64_MAX : (uint64_t)T * per;
        if (kicks > 0 && kicks - done < quota) quota = kicks - done;
        if (concurrent) wt_concurrent_start(concurrent, tour, ctl->deadline);
        /* The kicks keep off the windows the GPU searches meanwhile. */
        int m = free_cities ? wt_concurrent_host_cities(concurrent, tour, free_cities) : 0;
        double until = kicks == 0 ? ctl->deadline - WT_ILS_MERGED_TAIL_MARGIN * tail : 0;
        for (int t = 0; t < T; t++) s[t].until = until;
        merged_round(s, T, tour, n, m >= T ? free_cities : tour, m >= T ? m : n, quota, ctl,
                     done, *length, r > 1, &halt);
        for (int t = 0; t < T; t++)
            if (s[t].st != WT_OK) {
                *err = s[t].err;
                st = s[t].st;
            }
        done = ils_kicks_of(s, T);
        int64_t before = *length;
        if (T > 1 && stall > 0) {
            if (st == WT_OK)
                st = combine_replicas(s, T, ils_team(T, ctl), &g, tour, n, length,
                                      tour[ils_round_offset(ctl->params->seed, r, n)],
                                      concurrent, err);
            still = *length < before ? 0 : still + 1;
            for (int t = 1; still >= stall && t < T; t++) s[t].shake = ils_shake_kicks(n);
        } else if (T > 1) {
            merge_replicas(s, T, ils_team(T, ctl), &g, tour, n, length,
                           tour[ils_round_offset(ctl->params->seed, r, n)], concurrent);
        } else {
            memcpy(tour, wt_ls_order(s[0].w), (size_t)n * sizeof *tour);
            *length = s[0].best_len;
        }
        /* Every search stops at `until`, within a kick: the last round's
         * searches end together, so the tail is its merge and a kick.  The
         * spread of a round that ran its full quota (its slowest search's
         * surplus) is no part of it: counted in, it would end a short run
         * a whole round early. */
        double last = s[0].kicked, kick_s = s[0].kick_s;
        for (int t = 1; t < T; t++) {
            last = s[t].kicked > last ? s[t].kicked : last;
            kick_s = s[t].kick_s > kick_s ? s[t].kick_s : kick_s;
        }
        tail = wt_now() - last + kick_s;
    }
    /* The last round's improved paths: its windows end at the deadline too. */
    if (concurrent && st == WT_OK) ils_splice_windows(concurrent, tour, length, true);
    ils_add_stats(stats, s, T);
    free(free_cities);
    close_merge(&g);
    ils_replicas_close(s, T);
    return st;
}
