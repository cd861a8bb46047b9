/*
 * ils_local.c - a tour session on the host whose descent is local: the
 * neighbour-list 2-opt + Or-opt descent of polish.c (wt_polisher), run only
 * from the cities a kick reconnected (params.ils_descent = WT_ILS_LOCAL).
 *
 * The full descent (the backends' sessions) scans all n^2/2 pairs at least
 * once after every kick, on the GPU in microseconds for a few thousand
 * cities, on CPU cores in milliseconds to seconds.  After a segment-
 * restricted double bridge only a few cities have new surroundings, and the
 * don't-look bits of all others stay set: a kick and its repair then cost
 * about the moves made (Johnson & McGeoch's ILS-2opt/3opt practice), so a
 * CPU makes thousands of kicks a second at any n.  The optimum reached is
 * one of the neighbour lists' moves only (10 nearest cities; see polish.h),
 * and the first descent is the neighbour-list descent from every city.
 * Rejected kicks are undone through the polisher's log; the best tour is
 * copied out only when a kick is kept.
 */
#include "algo/ils_local.h"

#include <stdlib.h>
#include <string.h>

#include "algo/polish.h"
#include "core/error.h"
#include "core/instance.h"

struct wt_tour_session {
    const wt_instance *inst;
    wt_polisher *w;
    int32_t *best;
    int64_t best_len;
    bool first; /* the next descent is the first: from every city */
};

static void local_close(wt_tour_session *s)
{
    if (!s) return;
    wt_polisher_free(s->w);
    free(s->best);
    free(s);
}

static wt_status local_open(const wt_instance *inst, const int32_t *tour, wt_search_ctl *ctl,
                            wt_tour_session **out, wt_error *err)
{
    wt_tour_session *s = calloc(1, sizeof *s);
    if (s) s->best = malloc((size_t)inst->n * sizeof *s->best);
    if (!s || !s->best) {
        local_close(s);
        return wt_fail(err, WT_STATUS_OUT_OF_MEMORY, "out of memory for a tour session");
    }
    wt_status st = wt_polisher_create(inst, tour, ctl, &s->w, err);
    if (st != WT_OK) {
        local_close(s);
        return st;
    }
    s->inst = inst;
    s->first = true;
    memcpy(s->best, tour, (size_t)inst->n * sizeof *tour);
    s->best_len = wt_polisher_length(s->w);
    *out = s;
    return WT_OK;
}

/* swaps does not apply: the descent applies one move at a time. */
static wt_status local_descend(wt_tour_session *s, int swaps, wt_search_stats *stats,
                               wt_error *err)
{
    (void)swaps;
    if (s->first) wt_polisher_touch_all(s->w);
    s->first = false;
    return wt_polisher_descend(s->w, &stats->steps, err);
}

static wt_status local_kick(wt_tour_session *s, int p1, int p2, int p3, wt_error *err)
{
    if (!(0 < p1 && p1 < p2 && p2 < p3 && p3 < s->inst->n))
        return wt_fail(err, WT_STATUS_INVALID_ARGUMENT, "double bridge needs 0 < p1 < p2 < p3 < n");
    wt_polisher_double_bridge(s->w, p1, p2, p3);
    return WT_OK;
}

static int64_t local_length(const wt_tour_session *s) { return wt_polisher_length(s->w); }

static void local_keep(wt_tour_session *s)
{
    wt_polisher_commit(s->w);
    memcpy(s->best, wt_polisher_tour(s->w), (size_t)s->inst->n * sizeof *s->best);
    s->best_len = wt_polisher_length(s->w);
}

static void local_revert(wt_tour_session *s) { wt_polisher_undo(s->w, s->best_len); }

static wt_status local_read_best(const wt_tour_session *s, int32_t *tour, wt_error *err)
{
    (void)err;
    memcpy(tour, s->best, (size_t)s->inst->n * sizeof *tour);
    return WT_OK;
}

const wt_session_ops wt_local_session_ops = {
    .open = local_open,
    .close = local_close,
    .descend = local_descend,
    .kick = local_kick,
    .length = local_length,
    .keep = local_keep,
    .revert = local_revert,
    .read_best = local_read_best,
};
