/*
 * ils_first.c - the first descent of the host's ILS: from every city of
 * the start tour, before the kicks.
 *
 * From WT_ILS_SEGMENT_DESCENT_MIN cities a thread, the segments' descents
 * run first, side by side, and the descent of the whole tour after them
 * finds what lies between segments (the start tour's long edges above
 * all); most cities have nothing left to do by then.  A 2-opted tour has
 * no long edges left, and the whole tour's descent on one thread takes
 * seconds at millions of cities: a second round of segments, cut half a
 * segment further, takes its place.  Otherwise the whole tour's descent
 * alone; from WT_ILS_PLAIN_LIST_MIN cities its 2-opt moves first on the
 * tour held as a two-level list, where a move between far positions costs
 * O(sqrt n), not a reversal of up to half the array.  The longest edges,
 * which the candidate lists may have no shorter edge to replace with, are
 * then revisited over all pairs (wt_ls_long_edges).
 *
 * Where the whole tour's descent would take seconds on one thread (the
 * k-opt step chaining as LKH's, wt_policy_ils_merged_starts), each search
 * descends from a start tour of its own instead, and their tours are
 * merged (ils_merged_first_descent).
 *
 * Large tours with LK descents (above WT_ILS_LK_REPLICAS_MAX cities): by
 * default the list descent, LK on the whole tour held as a two-level list
 * on one thread, from one or more start tours side by side; else (the
 * k-opt step's above WT_ILS_KOPT_LIST_DESCENT_MAX cities,
 * wt_policy_lk_list_descent) a 2-opt + Or-opt first descent (the GPU's
 * first optimum and the segments' rounds after it, where a GPU searches
 * concurrent windows: ils_local.c), then LK on segments.  The k-opt step's short runs
 * where ties abound (wt_policy_lk_tied_short) also descend from one start
 * tour a search side by side, on the array (ils_tied_first_descent).
 */
#include "algo/ils_common.h"

#include <omp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "algo/alpha.h"
#include "algo/policy.h"
#include "core/error.h"
#include "core/init.h"
#include "core/instance.h"

/* The descent of the whole tour from every city: from
 * wt_policy_plain_list_descent's size its 2-opt moves on the list first
 * (committed: the first descent is never undone), then the array's. */
static wt_status whole_descent(wt_ls *whole, int n, const wt_search_ctl *ctl,
                               wt_search_stats *stats, wt_error *err)
{
    const wt_ls_moves *m = wt_ls_moves_of(whole);
    int64_t tuned = wt_tuning_of(ctl->params)->ils_plain_list_min;
    if (wt_policy_plain_list_descent(tuned, n, m->lk, m->directed)) {
        wt_ls_touch_all(whole);
        wt_status st = wt_ls_descend_list(whole, false, &stats->steps, err);
        if (st != WT_OK) return st;
    }
    wt_ls_touch_all(whole);
    return wt_ls_descend(whole, &stats->steps, err);
}

wt_status ils_first_descent(wt_ls *whole, int32_t *tour, bool on_segments, bool two_opted,
                            bool large_lk, int n, wt_search_ctl *ctl, int T,
                            wt_search_stats *stats, wt_error *err)
{
    int64_t length = wt_ls_length(whole);
    /* Large tours with LK descents: segments too, two rounds of them, as
     * for a 2-opted tour: LK's flips on the whole tour would cost up to
     * half of it each. */
    two_opted = two_opted || large_lk;
    if (on_segments && (n / T >= WT_ILS_SEGMENT_DESCENT_MIN || large_lk)) {
        ils_segments k;
        wt_status st = ils_segments_open(whole, n, ctl, T, &k, err);
        if (st != WT_OK) return st;
        int halt = 0;
        uint64_t done = 0;
        st = ils_segments_round(&k, T, tour, n, 0, 0, ctl, &done, &length, &halt, err);
        if (st == WT_OK && two_opted && !halt)
            st = ils_segments_round(&k, T, tour, n, n / (2 * T * k.turns), 0, ctl, &done,
                                    &length, &halt, err);
        for (int t = 0; t < T; t++) stats->steps += k.s[t].moves;
        ils_segments_close(&k, T);
        if (st != WT_OK) return st;
        wt_ls_adopt(whole, tour, length);
        if (two_opted) return WT_OK;
    }
    wt_status st = whole_descent(whole, n, ctl, stats, err);
    /* The longest edges, then a descent from the new ends. */
    for (int r = 0; st == WT_OK && r < WT_ILS_LONG_EDGE_PASSES && !two_opted &&
                    !wt_ctl_expired(ctl) && wt_ls_long_edges(whole, WT_ILS_LONG_EDGES, ils_team(T, ctl)) > 0;
         r++)
        st = wt_ls_descend(whole, &stats->steps, err);
    if (st != WT_OK) return st;
    wt_ls_commit(whole);
    memcpy(tour, wt_ls_order(whole), (size_t)n * sizeof *tour);
    return WT_OK;
}

/* The list descent of a large tour with LK, then the longest edges' moves
 * (see the top of the file); report: through ctl, as the solving thread
 * does. */
static wt_status list_descent(wt_ls *w, bool report, int threads, wt_search_ctl *ctl,
                              uint64_t *moves, wt_error *err)
{
    wt_ls_touch_all(w);
    wt_status st = wt_ls_descend_list(w, report, moves, err);
    for (int r = 0; st == WT_OK && r < WT_ILS_LONG_EDGE_PASSES && !wt_ctl_expired(ctl) &&
                    wt_ls_long_edges(w, WT_ILS_LONG_EDGES, threads) > 0;
         r++)
        st = wt_ls_descend_list(w, report, moves, err);
    return st;
}

/* The first descent of a tour held as an array, from every city, then the
 * longest edges' moves, committed: ils_first_descent's on one thread. */
static wt_status array_descent(wt_ls *w, int threads, wt_search_ctl *ctl, uint64_t *moves,
                               wt_error *err)
{
    wt_ls_touch_all(w);
    wt_status st = wt_ls_descend(w, moves, err);
    for (int r = 0; st == WT_OK && r < WT_ILS_LONG_EDGE_PASSES && !wt_ctl_expired(ctl) &&
                    wt_ls_long_edges(w, WT_ILS_LONG_EDGES, threads) > 0;
         r++)
        st = wt_ls_descend(w, moves, err);
    if (st == WT_OK) wt_ls_commit(w);
    return st;
}

/* A start's descent: the list descent (list) or the array's; report: the
 * solving thread's, through ctl (the array's does not report). */
static wt_status start_descent(wt_ls *w, bool list, bool report, int threads, wt_search_ctl *ctl,
                               uint64_t *moves, wt_error *err)
{
    return list ? list_descent(w, report, threads, ctl, moves, err)
                : array_descent(w, threads, ctl, moves, err);
}

/* Start tours whose first descents run side by side, one a thread, the
 * shortest result kept: the given start tour and S - 1 Quick-Boruvka tours
 * swept at evenly spaced angles (wt_tour_init_sweep), where ils_mostly_tied;
 * a start tour the caller gave is kept as given.  tuning.ils_starts: 0,
 * that default (one a thread, at most WT_ILS_STARTS_MAX); else at most
 * that many starts, tied or not, and one a thread. */
static int start_count(const wt_ls *whole, const wt_search_ctl *ctl, const wt_instance *inst,
                       int T)
{
    int want = wt_tuning_of(ctl->params)->ils_starts;
    /* Other starts would not hold the fixed edges (the given one was made to). */
    if (want == WT_TUNING_OFF || ctl->params->start_tour || ctl->fixed ||
        inst->n > WT_ILS_STARTS_MAX_CITIES)
        return 1;
    if (want > 0) return want < T ? want : T;
    if (!ils_mostly_tied(whole, inst)) return 1;
    return T < WT_ILS_STARTS_MAX ? T : WT_ILS_STARTS_MAX;
}

static bool ctl_stop_asked(void *ctl) { return wt_ctl_expired(ctl); }

/* Start i of S > 1 (i >= 1) in *w, a clone of the solving engine: the
 * sweep's tour and its descent (list: the list descent).  Where it fails
 * (out of memory), *w is freed and NULL: that start is left out. */
static void other_start(wt_ls **w, const wt_instance *inst, int i, int S, bool list,
                        wt_search_ctl *ctl, uint64_t *moves)
{
    const double two_pi = 6.283185307179586;
    wt_error e;
    wt_init_stop stop = {ctl_stop_asked, ctl};
    int32_t *tour = malloc((size_t)inst->n * sizeof *tour);
    wt_status st = tour ? WT_OK : WT_STATUS_OUT_OF_MEMORY;
    if (st == WT_OK)
        st = wt_tour_init_sweep(inst, two_pi * (i - 1) / (S - 1), 1, &stop, tour, NULL, &e);
    if (st == WT_OK) {
        wt_ls_adopt(*w, tour, wt_tour_length(inst, tour));
        st = start_descent(*w, list, false, 1, ctl, moves, &e);
    }
    free(tour);
    if (st != WT_OK) {
        wt_ls_free(*w);
        *w = NULL;
    }
}

/* Start i's engine: whole for 0, else other[i] (NULL where left out). */
static wt_ls *start_engine(wt_ls *whole, wt_ls **other, int i)
{
    return i == 0 ? whole : other[i];
}

/* The S descended start tours (whole's and other's, some NULL) merged,
 * shortest first (ties: the lower start), by partition crossover into
 * whole, whose merged tour is then descended from every city again. */
static wt_status merge_starts(wt_ls *whole, wt_ls **other, int S, uint64_t *moves,
                              wt_error *err)
{
    const wt_instance *inst = wt_ls_instance(whole);
    int n = inst->n;
    wt_merge *merger = NULL;
    int32_t *child = malloc((size_t)n * sizeof *child);
    bool *merged = calloc((size_t)S, sizeof *merged);
    wt_status st = child && merged ? wt_merge_open(n, &merger, err)
                                   : wt_fail(err, WT_STATUS_OUT_OF_MEMORY,
                                             "out of memory for merging the start tours");
    int64_t len = 0;
    for (int round = 0; round < S && st == WT_OK; round++) {
        int next = -1; /* the shortest start not merged yet */
        for (int i = 0; i < S; i++) {
            const wt_ls *w = start_engine(whole, other, i);
            if (w && !merged[i] &&
                (next < 0 || wt_ls_length(w) < wt_ls_length(start_engine(whole, other, next))))
                next = i;
        }
        if (next < 0) break;
        merged[next] = true;
        const wt_ls *w = start_engine(whole, other, next);
        if (round == 0) {
            memcpy(child, wt_ls_order(w), (size_t)n * sizeof *child);
            len = wt_ls_length(w);
        } else {
            st = wt_merge_tours(merger, inst, child, len, wt_ls_order(w), wt_ls_length(w), child,
                                &len, NULL, err);
        }
    }
    if (st == WT_OK) {
        wt_ls_adopt(whole, child, len);
        wt_ls_touch_all(whole);
        st = wt_ls_descend(whole, moves, err);
        if (st == WT_OK) wt_ls_commit(whole);
    }
    wt_merge_free(merger);
    free(merged);
    free(child);
    return st;
}

/* The first descents from start_count's start tours side by side (list:
 * list descents), whole ending on the shortest, copied into tour; ties:
 * the given start, then the lowest angle.  merge: from T start tours,
 * whole ending on their merge (merge_starts). */
static wt_status starts_first_descent(wt_ls *whole, int32_t *tour, const wt_instance *inst,
                                      wt_search_ctl *ctl, int T, bool list, bool merge,
                                      wt_search_stats *stats, wt_error *err)
{
    int n = inst->n, S = merge ? T : start_count(whole, ctl, inst, T);
    wt_ls **other = calloc((size_t)S, sizeof *other);
    uint64_t *moves = calloc((size_t)S, sizeof *moves);
    if (!other || !moves) S = 1; /* the given start alone */
    for (int i = 1; i < S; i++) {
        wt_error e;
        if (wt_ls_clone(whole, &other[i], &e) != WT_OK) other[i] = NULL;
    }
    wt_status st = WT_OK;
    if (S == 1) {
        st = start_descent(whole, list, true, ils_team(T, ctl), ctl, &stats->steps, err);
    } else {
        /* Start 0 first on thread 0: the solving thread reports progress. */
#pragma omp parallel for num_threads(ils_team(S, ctl)) schedule(static, 1)
        for (int i = 0; i < S; i++) {
            if (i == 0) st = start_descent(whole, list, true, 1, ctl, &moves[0], err);
            else if (other[i]) other_start(&other[i], inst, i, S, list, ctl, &moves[i]);
        }
        int best = 0;
        int64_t best_len = wt_ls_length(whole);
        for (int i = 1; i < S; i++) {
            stats->steps += moves[i];
            if (other[i] && wt_ls_length(other[i]) < best_len) {
                best = i;
                best_len = wt_ls_length(other[i]);
            }
        }
        stats->steps += moves[0];
        if (st == WT_OK && merge) {
            st = merge_starts(whole, other, S, &stats->steps, err);
            best = 0;
        }
        if (st == WT_OK && best > 0) {
            wt_ls_adopt(whole, wt_ls_order(other[best]), best_len);
            stats->start_swept = true;
        }
        for (int i = 1; i < S; i++) wt_ls_free(other[i]);
    }
    free(other);
    free(moves);
    if (st != WT_OK) return st;
    memcpy(tour, wt_ls_order(whole), (size_t)n * sizeof *tour);
    return WT_OK;
}

wt_status ils_list_first_descent(wt_ls *whole, int32_t *tour, const wt_instance *inst,
                                 wt_search_ctl *ctl, int T, wt_search_stats *stats,
                                 wt_error *err)
{
    return starts_first_descent(whole, tour, inst, ctl, T, true, false, stats, err);
}

wt_status ils_tied_first_descent(wt_ls *whole, int32_t *tour, const wt_instance *inst,
                                 wt_search_ctl *ctl, int T, wt_search_stats *stats,
                                 wt_error *err)
{
    return starts_first_descent(whole, tour, inst, ctl, T, false, false, stats, err);
}

wt_status ils_merged_first_descent(wt_ls *whole, int32_t *tour, const wt_instance *inst,
                                   wt_search_ctl *ctl, int S, wt_search_stats *stats,
                                   wt_error *err)
{
    return starts_first_descent(whole, tour, inst, ctl, S, false, true, stats, err);
}

/* Its descent of the whole tour removes the start tour's long edges, which
 * LK's segments cannot reach. */
wt_status ils_plain_first_descent(const wt_instance *inst, int32_t *tour, bool two_opted,
                                  wt_search_ctl *ctl, int T, wt_search_stats *stats,
                                  wt_error *err)
{
    wt_ls *plain = NULL;
    wt_ls_moves moves = wt_policy_ls_moves(false);
    wt_status st = wt_ls_create(inst, tour, ctl, &moves, &plain, err);
    if (st != WT_OK) return st;
    st = ils_first_descent(plain, tour, T > 1, two_opted, false, inst->n, ctl, T, stats, err);
    wt_ls_free(plain);
    return st;
}

/* A candidate edge of the alpha lists: its pi-transformed length (the
 * ascent's scale) and its cities, lower first, packed as greedy takes
 * them. */
typedef struct keyed_pair {
    int64_t key;
    uint64_t pair;
} keyed_pair;

static int keyed_pair_cmp(const void *a, const void *b)
{
    const keyed_pair *x = a, *y = b;
    if (x->key != y->key) return x->key < y->key ? -1 : 1;
    return (x->pair > y->pair) - (x->pair < y->pair);
}

wt_status ils_alpha_start_tour(const wt_instance *inst, const wt_alpha *alpha, wt_search_ctl *ctl,
                               int32_t *tour, wt_error *err)
{
    int n = inst->n, k = alpha->k;
    size_t m = (size_t)n * (size_t)k, count = 0;
    keyed_pair *edges = malloc(m * sizeof *edges);
    uint64_t *pairs = malloc(m * sizeof *pairs);
    if (!edges || !pairs) {
        free(edges);
        free(pairs);
        return wt_fail(err, WT_STATUS_OUT_OF_MEMORY, "out of memory for the alpha start tour");
    }
    for (int c = 0; c < n; c++)
        for (int j = 0; j < k; j++) {
            int b = alpha->candidates[(size_t)c * (size_t)k + (size_t)j];
            if (b < 0 || b == c) continue;
            int lo = c < b ? c : b, hi = c < b ? b : c;
            int64_t key = wt_dist(inst, lo, hi) * WT_ASCENT_SCALE;
            if (alpha->pi) key += (int64_t)alpha->pi[lo] + alpha->pi[hi];
            edges[count++] = (keyed_pair){key, (uint64_t)lo << 32 | (uint64_t)hi};
        }
    qsort(edges, count, sizeof *edges, keyed_pair_cmp);
    size_t distinct = 0;
    for (size_t e = 0; e < count; e++)
        if (e == 0 || edges[e].pair != edges[e - 1].pair) pairs[distinct++] = edges[e].pair;
    free(edges);
    /* Into a copy: a stop during it leaves the start tour as it was, not
     * the spacefill tour of a cut greedy. */
    int32_t *remade = malloc((size_t)n * sizeof *remade);
    wt_init_stop stop = {ctl_stop_asked, ctl};
    wt_init_cut cut = WT_INIT_WHOLE;
    wt_status st = remade ? wt_tour_init_greedy_pairs(inst, pairs, distinct, ctl->params->seed,
                                                      ctl->threads, &stop, remade, &cut, err)
                          : wt_fail(err, WT_STATUS_OUT_OF_MEMORY,
                                    "out of memory for the alpha start tour");
    if (st == WT_OK && cut == WT_INIT_WHOLE) memcpy(tour, remade, (size_t)n * sizeof *tour);
    free(remade);
    free(pairs);
    return st;
}
