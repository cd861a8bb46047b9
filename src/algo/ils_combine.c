/*
 * ils_combine.c - the merging meetings of the host's ILS (issue 40): the
 * searches' tours are merged by partition crossover (ls/merge.h) instead
 * of the best one being copied to all, and a search stalled for rounds is
 * diversified.
 *
 * Replicas of one tour, each kicked in its own way for a round, differ
 * from it in a few places each; the merge of two keeps, in every place
 * where they differ and that is a feasible partition, the shorter one's
 * path, so the child gathers the gains of both, and the gains of all T
 * after a tree of T - 1 merges (log2 T levels, side by side), with the
 * meeting's tour merged last (the child is never longer than it).
 *
 * Once the merged tour has not got shorter for some rounds, the searches
 * but the first start their next rounds from it with a diversification:
 * a few kicks at random places, all kept, repaired by one descent (a
 * longer tour, often locally better somewhere); the merge then keeps the
 * places where it is better and drops the others, so the diversified
 * searches cannot make the tour longer, while the first search goes on
 * intensifying.
 *
 * A merge depends only on its tours, and the tree's shape only on T, so
 * the run stays the same for the same seed, kick budget and thread count.
 */
#include "algo/ils_common.h"

#include <stdlib.h>
#include <string.h>

#include "algo/policy.h"
#include "core/error.h"
#include "ls/kicks.h"

int ils_merge_stall(const wt_search_ctl *ctl, int T, int n, bool merged)
{
    return wt_policy_ils_merge_stall(wt_tuning_of(ctl->params)->ils_merge, T, n, merged,
                                     ctl->params->time_limit_s, ctl->threads);
}

int ils_shake_kicks(int n)
{
    int k = n / WT_ILS_SHAKE_CITIES;
    return k > WT_ILS_SHAKE_MIN ? k : WT_ILS_SHAKE_MIN;
}

/* Search t's merger and child, made on first use. */
static wt_status ready(ils_search *s, int n, wt_error *err)
{
    if (!s->merger) {
        wt_status st = wt_merge_open(n, &s->merger, err);
        if (st != WT_OK) return st;
    }
    if (!s->child) {
        s->child = malloc((size_t)n * sizeof *s->child);
        if (!s->child)
            return wt_fail(err, WT_STATUS_OUT_OF_MEMORY, "out of memory for a merge's child");
    }
    return WT_OK;
}

wt_status ils_combine(ils_search *s, int T, int32_t *tour, int n, int64_t *length,
                      const wt_search_ctl *ctl, wt_error *err)
{
    const wt_instance *inst = wt_ls_instance(s[0].w);
    wt_status st = WT_OK;
    for (int t = 0; t < T && st == WT_OK; t += 2) st = ready(&s[t], n, err);
    if (st != WT_OK) return st;
    /* len[t]: the length of search t's tour in the tree so far (its child,
     * once it has merged one). */
    int64_t *len = malloc((size_t)T * sizeof *len);
    if (!len) return wt_fail(err, WT_STATUS_OUT_OF_MEMORY, "out of memory for a merge");
    for (int t = 0; t < T; t++) len[t] = s[t].best_len;
    for (int step = 1; step < T; step *= 2) {
        int pairs = (T + 2 * step - 1) / (2 * step);
#pragma omp parallel for num_threads(ils_team(pairs, ctl)) schedule(static, 1)
        for (int p = 0; p < pairs; p++) {
            int t = p * 2 * step, u = t + step;
            if (u >= T) continue;
            /* t has merged at every step before; u at any, if at the first. */
            const int32_t *a = step == 1 ? wt_ls_order(s[t].w) : s[t].child;
            const int32_t *b = step > 1 && u + 1 < T ? s[u].child : wt_ls_order(s[u].w);
            s[t].st = wt_merge_tours(s[t].merger, inst, a, len[t], b, len[u], s[t].child,
                                     &len[t], NULL, &s[t].err);
        }
        for (int t = 0; t < T; t += 2 * step)
            if (t + step < T && s[t].st != WT_OK) {
                *err = s[t].err;
                st = s[t].st;
            }
        if (st != WT_OK) break;
    }
    if (st == WT_OK) {
        const int32_t *all = T > 1 ? s[0].child : wt_ls_order(s[0].w);
        st = wt_merge_tours(s[0].merger, inst, tour, *length, all, len[0], tour, length, NULL,
                            err);
    }
    free(len);
    return st;
}

wt_status ils_combine_each(ils_search *s, int T, int32_t *tour, int n, int64_t *length,
                           wt_error *err)
{
    wt_status st = ready(&s[0], n, err);
    for (int t = 0; t < T && st == WT_OK; t++)
        st = wt_merge_tours(s[0].merger, wt_ls_instance(s[0].w), tour, *length,
                            wt_ls_order(s[t].w), s[t].best_len, tour, length, NULL, err);
    return st;
}

bool ils_shake(ils_search *s, int n, int count)
{
    s->shake = 0;
    uint64_t seed = s->seed ^ 0xD1B54A32D192ED03ULL;
    for (int k = 0; k < count; k++) {
        uint64_t kick = s->shakes++;
        if (s->walk > 0 && s->region) {
            wt_ls_walk_kick_among(s->w, seed, kick, s->walk, s->region, s->region_m);
        } else if (s->walk > 0) {
            wt_ls_walk_kick(s->w, seed, kick, s->walk);
        } else {
            int p[3];
            if (wt_ls_kick_points(seed, kick, n, p) &&
                wt_ls_bridge_keeps_fixed(s->w, p[0], p[1], p[2]))
                wt_ls_double_bridge(s->w, p[0], p[1], p[2]);
        }
    }
    s->st = wt_ls_descend(s->w, &s->moves, &s->err);
    if (s->st != WT_OK) return false;
    wt_ls_commit(s->w);
    s->best_len = wt_ls_length(s->w);
    return true;
}
