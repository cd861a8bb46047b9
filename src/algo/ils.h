/*
 * ils.h - Iterated Local Search over a backend's tour session.
 */
#ifndef WT_ALGO_ILS_H
#define WT_ALGO_ILS_H

#include "backend/backend.h"

/* Runs ILS from tour (improved in place to the best tour found) on the tour
 * sessions of device dev's backend, opened on dev; `kicks` kicks, or until ctl expires when 0.
 * With kicks == 0 a time limit that ends the kicking is the natural end
 * (ctl->stop becomes WT_STOP_DONE), unless it cut the first descent short.
 * Fewer than 8 cities admit no kick: the run ends at the first optimum.
 * Deterministic in ctl->params->seed for a fixed number of kicks. */
wt_status wt_ils_run(const wt_device *dev, const wt_instance *inst, int32_t *tour,
                     wt_search_ctl *ctl, uint64_t kicks, wt_search_stats *stats, wt_error *err);

#endif
