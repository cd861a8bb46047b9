/*
 * cpu_session.c - tour sessions on the CPU (backend.h's wt_session_ops).
 *
 * The current and the best tour are two arrays; a scan is the k-swap pass
 * of cpu_2opt.c (candidates: the row bests, and with a band also each row's
 * best short move; with wt_params.prune the scan skips what the segment
 * bound rules out), and the moves algo/descent.c keeps are applied one
 * after another in the order it gives; a kick rotates two segments through
 * a buffer.
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
    free(s);
}

static wt_status cpu_session_open(const wt_device *dev, const wt_instance *inst,
                                  const int32_t *tour, wt_search_ctl *ctl, wt_tour_session **out,
                                  wt_error *err)
{
    (void)dev; /* the host has one */
    size_t n = (size_t)inst->n;
    wt_tour_session *s = calloc(1, sizeof *s);
    if (s) {
        s->cur = malloc(n * sizeof *s->cur);
        s->best = malloc(n * sizeof *s->best);
        s->buf = malloc(n * sizeof *s->buf);
        s->moves = malloc(2 * n * sizeof *s->moves);
    }
    if (!s || !s->cur || !s->best || !s->buf || !s->moves) {
        cpu_session_close(s);
        return wt_fail(err, WT_STATUS_OUT_OF_MEMORY, "out of memory for a tour session");
    }
    s->inst = inst;
    s->ctl = ctl;
    s->prune = ctl->params ? ctl->params->prune : true;
    memcpy(s->cur, tour, n * sizeof *tour);
    memcpy(s->best, tour, n * sizeof *tour);
    s->cur_len = s->best_len = wt_tour_length(inst, tour);
    *out = s;
    return WT_OK;
}

static wt_status cpu_session_scan(wt_tour_session *s, int band, wt_kswap_move **moves,
                                  int *count, uint64_t *checked, double *seconds, wt_error *err)
{
    double t0 = wt_now();
    wt_2opt_scan scan = {
        .threads = s->ctl->threads, .ctl = s->ctl, .band = band, .prune = s->prune};
    *count = wt_2opt_scan_candidates(s->inst, s->cur, &scan, s->moves);
    if (*count == -2) return wt_fail(err, WT_STATUS_OUT_OF_MEMORY, "2opt: out of memory");
    *moves = s->moves;
    *checked = scan.checked;
    *seconds = wt_now() - t0;
    return WT_OK;
}

static wt_status cpu_session_apply(wt_tour_session *s, const wt_kswap_choice *choice,
                                   wt_error *err)
{
    (void)err;
    s->cur_len += wt_kswap_apply(s->cur, s->moves, choice->kept);
    return WT_OK;
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
    .scan = cpu_session_scan,
    .apply = cpu_session_apply,
    .kick = cpu_session_kick,
    .length = cpu_session_length,
    .keep = cpu_session_keep,
    .revert = cpu_session_revert,
    .read_best = cpu_session_read_best,
};
