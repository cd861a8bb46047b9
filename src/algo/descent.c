/*
 * descent.c - the 2-opt descent, once for every backend: report progress,
 * scan a pass (the session's scan slot: every row's best move, and with a
 * band each row's best short one), choose the moves that go together
 * (wt_kswap_choose: the k-swap rule of Robinson et al. 2018), apply them
 * (the session's apply slot), until a pass finds nothing or ctl expires.
 */
#include "algo/descent.h"

#include "core/error.h"

wt_status wt_descent_open(wt_descent *d, int n, const wt_params *p, wt_error *err)
{
    d->ks = wt_kswap_ws_create(n, 2 * n);
    if (!d->ks) return wt_fail(err, WT_STATUS_OUT_OF_MEMORY, "out of memory for a 2-opt descent");
    d->swaps = p->swaps;
    d->nested = p->kswap_nested;
    d->band = p->kswap_band > 0 ? p->kswap_band : 0;
    return WT_OK;
}

void wt_descent_close(wt_descent *d)
{
    wt_kswap_ws_free(d->ks);
    d->ks = NULL;
}

wt_status wt_descent_run(wt_descent *d, const wt_session_ops *ops, wt_tour_session *s,
                         wt_search_ctl *ctl, int64_t best, wt_search_stats *stats,
                         wt_error *err)
{
    int band = d->swaps == 1 ? 0 : d->band; /* best improvement stays Listing 1's */
    for (;;) {
        int64_t cur = ops->length(s), shown = cur < best ? cur : best;
        if (wt_ctl_report(ctl, shown, stats->steps, false)) return WT_OK;
        wt_kswap_move *moves = NULL;
        int count = 0;
        uint64_t checked = 0;
        double seconds = 0;
        wt_status st = ops->scan(s, band, &moves, &count, &checked, &seconds, err);
        if (st != WT_OK || count < 0) return st; /* stopped: the tour is as it was */
        stats->moves_evaluated += checked;
        stats->passes++;
        stats->scan_time_s += seconds;
        wt_kswap_choice ch = wt_kswap_choose(d->ks, moves, count, d->swaps, d->nested);
        if (ch.kept == 0) return WT_OK;
        st = ops->apply(s, &ch, err);
        if (st != WT_OK) return st;
        stats->steps += (uint64_t)ch.kept;
    }
}

wt_status wt_twoopt_descend(const wt_device *dev, const wt_instance *inst, int32_t *tour,
                            wt_search_ctl *ctl, wt_search_stats *stats, wt_error *err)
{
    const wt_session_ops *ops = dev->backend->session;
    /* Stopped already (a limit shorter than the start tour's build): not
     * even the session's set-up, which grows with the tour. */
    if (wt_ctl_expired(ctl)) return WT_OK;
    wt_descent d = {0};
    wt_tour_session *s = NULL;
    wt_status st = wt_descent_open(&d, wt_instance_n(inst), ctl->params, err);
    if (st == WT_OK) st = ops->open(dev, inst, tour, ctl, &s, err);
    if (st == WT_OK) {
        st = wt_descent_run(&d, ops, s, ctl, ops->length(s), stats, err);
        ops->keep(s);
        if (st == WT_OK) st = ops->read_best(s, tour, err);
    }
    ops->close(s);
    wt_descent_close(&d);
    return st;
}
