/*
 * ils_local.h - Iterated Local Search with local descents on the host, on
 * ctl->threads searches that meet every few thousand kicks
 * (params.ils_descent = WT_ILS_LOCAL; ils_local.c says how it works).
 */
#ifndef WT_ALGO_ILS_LOCAL_H
#define WT_ALGO_ILS_LOCAL_H

#include <stdbool.h>

#include "backend/backend.h"
#include "core/search_ctl.h"
#include "warptour.h"

/* Improves tour (n >= 8 cities) in place to the best tour found: the
 * neighbour-list descent from every city, then `kicks` kicks in all (0:
 * until ctl expires), each repaired by a local descent and kept only if the
 * tour got shorter (or not longer, with accept_equal).  two_opted: tour
 * comes from a full 2-opt descent (the device's), so it has no long edges
 * left for the first descent to look for across the whole tour.  lk: the
 * descents make Lin-Kernighan steps and Or-opt moves (ls/engine.h,
 * wt_ls_moves), else 2-opt and Or-opt moves.  on (NULL: none):
 * with merged replicas (LK) or segments, more than one thread and kicks 0
 * (until ctl's deadline), windows of the tour are searched concurrently on
 * that device (windows_concurrent.h; a GPU, or the host's device for tests;
 * stats->gpu_time_s its kernels' seconds); the run then depends on timing.
 * Otherwise deterministic for a given seed, kick budget, thread count and
 * tour.  lists_on (NULL: none): a GPU whose neighbours slot lists the whole
 * tour's candidates from wt_policy_device_lists's size (the same lists as
 * the host's, so the same run). */
wt_status wt_ils_local_run(const wt_instance *inst, int32_t *tour, wt_search_ctl *ctl,
                           bool two_opted, bool lk, const wt_device *on,
                           const wt_device *lists_on, uint64_t kicks, wt_search_stats *stats,
                           wt_error *err);

#endif
