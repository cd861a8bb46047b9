/*
 * cpu_session.c - tour sessions on the CPU (backend.h's wt_session_ops).
 *
 * The current and the best tour are two arrays; descending is the k-swap
 * 2-opt of cpu_2opt.c (candidates: the row bests, and with a band also each
 * row's best short move; with wt_params.prune the scan skips what the
 * segment bound rules out), the choice core/kswap.c's, the kept moves applied
 * one after another in the order it gives; a kick rotates two segments
 * through a buffer.
 */
#include <stdlib.h>
#include <string.h>

#include "backend/backend.h"
#include "backend/cpu/cpu_2opt.h"
#include "backend/cpu/cpu_session.h"
#include "core/error.h"

struct wt_tour_session {
    const wt_instance *inst;
    wt_search_ctl *ctl;
    int32_t *cur, *best, *buf;  /* n each; buf: scratch for kicks */
    wt_kswap_move *moves;       /* 2n: a pass's candidates */
    wt_kswap_ws *ks;            /* the k-swap choice */
    bool nested;                /* ctl->params->kswap_nested */
    int band;                   /* ctl->params->kswap_band */
    bool prune;                 /* ctl->params->prune */
    int64_t cur_len, best_len;
};

static void cpu_session_close(wt_tour_session *s)
{
    if (!s) return;
    free(s->cur);
    free(s->best);
    free(s->buf);
    free(s->moves);
    wt_kswap_ws_free(s->ks);
    free(s);
}

static wt_status cpu_session_open(const wt_instance *inst, const int32_t *tour,
                                  wt_search_ctl *ctl, wt_tour_session **out, wt_error *err)
{
    size_t n = (size_t)inst->n;
    wt_tour_session *s = calloc(1, sizeof *s);
    if (s) {
        s->cur = malloc(n * sizeof *s->cur);
        s->best = malloc(n * sizeof *s->best);
        s->buf = malloc(n * sizeof *s->buf);
        s->moves = malloc(2 * n * sizeof *s->moves);
        s->ks = wt_kswap_ws_create(inst->n, 2 * inst->n);
    }
    if (!s || !s->cur || !s->best || !s->buf || !s->moves || !s->ks) {
        cpu_session_close(s);
        return wt_fail(err, WT_STATUS_OUT_OF_MEMORY, "out of memory for a tour session");
    }
    s->inst = inst;
    s->ctl = ctl;
    wt_params defaults;
    wt_params_defaults(&defaults);
    const wt_params *p = ctl->params ? ctl->params : &defaults;
    s->nested = p->kswap_nested;
    s->band = p->kswap_band > 0 ? p->kswap_band : 0;
    s->prune = p->prune;
    memcpy(s->cur, tour, n * sizeof *tour);
    memcpy(s->best, tour, n * sizeof *tour);
    s->cur_len = s->best_len = wt_tour_length(inst, tour);
    *out = s;
    return WT_OK;
}

static wt_status cpu_session_descend(wt_tour_session *s, int swaps, wt_search_stats *stats,
                                     wt_error *err)
{
    for (;;) {
        /* The best length seen is the lower of the two tours'. */
        int64_t shown = s->cur_len < s->best_len ? s->cur_len : s->best_len;
        if (wt_ctl_report(s->ctl, shown, stats->steps, false)) return WT_OK;
        double t0 = wt_now();
        int band = swaps == 1 ? 0 : s->band; /* best improvement stays Listing 1's */
        wt_2opt_scan scan = {
            .threads = s->ctl->threads, .ctl = s->ctl, .band = band, .prune = s->prune};
        int found = wt_2opt_scan_candidates(s->inst, s->cur, &scan, s->moves);
        if (found == -2) return wt_fail(err, WT_STATUS_OUT_OF_MEMORY, "2opt: out of memory");
        if (found < 0) return WT_OK; /* stopped: the tour is valid as it is */
        stats->scan_time_s += wt_now() - t0;
        stats->moves_evaluated += scan.checked;
        stats->passes++;
        wt_kswap_choice ch = wt_kswap_choose(s->ks, s->moves, found, swaps, s->nested);
        if (ch.kept == 0) return WT_OK;
        s->cur_len += wt_kswap_apply(s->cur, s->moves, ch.kept);
        stats->steps += (uint64_t)ch.kept;
    }
}

static wt_status cpu_session_kick(wt_tour_session *s, int p1, int p2, int p3, wt_error *err)
{
    int n = s->inst->n;
    if (!(0 < p1 && p1 < p2 && p2 < p3 && p3 < n))
        return wt_fail(err, WT_STATUS_INVALID_ARGUMENT, "double bridge needs 0 < p1 < p2 < p3 < n");
    /* A B C D -> A C B D: copy C then B behind A, D stays. */
    size_t lb = (size_t)(p2 - p1), lc = (size_t)(p3 - p2);
    memcpy(s->buf, s->cur + p2, lc * sizeof *s->buf);
    memcpy(s->buf + lc, s->cur + p1, lb * sizeof *s->buf);
    memcpy(s->cur + p1, s->buf, (lb + lc) * sizeof *s->buf);
    s->cur_len = wt_tour_length(s->inst, s->cur);
    return WT_OK;
}

static int64_t cpu_session_length(const wt_tour_session *s) { return s->cur_len; }

static void cpu_session_keep(wt_tour_session *s)
{
    memcpy(s->best, s->cur, (size_t)s->inst->n * sizeof *s->cur);
    s->best_len = s->cur_len;
}

static void cpu_session_revert(wt_tour_session *s)
{
    memcpy(s->cur, s->best, (size_t)s->inst->n * sizeof *s->cur);
    s->cur_len = s->best_len;
}

static wt_status cpu_session_read_best(const wt_tour_session *s, int32_t *tour, wt_error *err)
{
    (void)err;
    memcpy(tour, s->best, (size_t)s->inst->n * sizeof *tour);
    return WT_OK;
}

const wt_session_ops wt_cpu_session_ops = {
    .open = cpu_session_open,
    .close = cpu_session_close,
    .descend = cpu_session_descend,
    .kick = cpu_session_kick,
    .length = cpu_session_length,
    .keep = cpu_session_keep,
    .revert = cpu_session_revert,
    .read_best = cpu_session_read_best,
};
