/*
 * init.h - start tours with a thread count (the library's internal side of
 * wt_tour_init, which uses every core).
 */
#ifndef WT_CORE_INIT_H
#define WT_CORE_INIT_H

#include "warptour.h"

/* wt_tour_init on up to `threads` CPU threads (< 1: all cores).  The tour is
 * the same for every thread count: only greedy and spacefill use more than
 * one, on parts whose result does not depend on who computes them. */
wt_status wt_tour_init_threads(const wt_instance *inst, wt_init_method method, uint64_t seed,
                               int threads, int32_t *tour, wt_error *err);

#endif
