/*
 * descent.h - the 2-opt descent of a backend's tour session, written once
 * for every backend (descent.c says how it goes).
 */
#ifndef WT_ALGO_DESCENT_H
#define WT_ALGO_DESCENT_H

#include "backend/backend.h"

/* What a descent keeps between passes: the k-swap choice's workspace and
 * the rules of ctl->params (see wt_descent_open). */
typedef struct wt_descent {
    wt_kswap_ws *ks; /* the choice's workspace, for tours of the session's size */
    int swaps;       /* params.swaps: moves applied per pass, 0 = all */
    bool nested;     /* params.kswap_nested: the laminar rule, else the disjoint one */
    int band;        /* params.kswap_band, 0 = off */
} wt_descent;

/* Sets d up for tours of n cities with p's swaps, kswap_nested and
 * kswap_band. */
wt_status wt_descent_open(wt_descent *d, int n, const wt_params *p, wt_error *err);
void wt_descent_close(wt_descent *d); /* a zeroed d is fine */

/* 2-opt on the current tour of session s (of ops) until no improving move
 * remains or ctl expires, applying up to d->swaps independent moves per
 * pass (k-swap, core/kswap.h; 1 = best improvement, O'Neil & Burtscher's
 * Listing 1, ties to the lowest (i, j)): the nested rule or the disjoint
 * one, and each row's best move within the band among the candidates
 * (never with swaps = 1, which stays plain best improvement).  The choice
 * is wt_kswap_choose's on the host for every backend, so equal candidates
 * give equal tours.  best: the least length the caller has (the session's
 * best tour's); progress reports show the shorter of it and the current
 * tour's.  The tour is valid at every moment and never gets longer. */
wt_status wt_descent_run(wt_descent *d, const wt_session_ops *ops, wt_tour_session *s,
                         wt_search_ctl *ctl, int64_t best, wt_search_stats *stats,
                         wt_error *err);

/* The 2opt algorithm in a session on device dev (whose backend has
 * sessions): tour, in place, descended as wt_descent_run with
 * ctl->params's rules. */
wt_status wt_twoopt_descend(const wt_device *dev, const wt_instance *inst, int32_t *tour,
                            wt_search_ctl *ctl, wt_search_stats *stats, wt_error *err);

#endif
