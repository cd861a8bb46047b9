/*
 * polish.h - the polish of a finished tour: SA's tour descended to a local
 * optimum of 2-opt and Or-opt (ls/polish.h says how), with the defaults of
 * algo/policy.h.
 *
 * Simulated annealing stops at a low temperature, not at a local optimum of
 * anything: its relocation moves never reverse a segment, so its best tour
 * usually still holds improving 2-opt moves and segment moves.  The polish
 * removes them (wt_solve applies it to sa's result, params.sa_polish).
 */
#ifndef WT_ALGO_POLISH_H
#define WT_ALGO_POLISH_H

#include "ls/polish.h"

typedef wt_ls_polish_stats wt_polish_stats;

/* wt_ls_polish with WT_POLISH_NEIGHBOURS candidates a city and the full
 * sweeps up to WT_POLISH_FULL_MAX cities. */
wt_status wt_polish(const wt_instance *inst, int32_t *tour, wt_search_ctl *ctl,
                    wt_polish_stats *stats, wt_error *err);

#endif
