/*
 * batch_lk.h - the instances of a batch that the host's LK ILS searches
 * (wt_batch_params.search; batch.c places them): one instance a thread at
 * a time, each through wt_solve on one thread.
 */
#ifndef WT_ALGO_BATCH_LK_H
#define WT_ALGO_BATCH_LK_H

#include "backend/backend.h"

/* Solves every instance of job with a non-NULL entry by wt_solve's ILS
 * with LK descents on the host, one thread an instance, up to ctl->threads
 * threads, the instances taken in order as threads come free.  Of job it
 * reads inst, tour (the start tours, replaced by the best tours), index
 * (instance q's seed is a function of job->seed and index[q] alone),
 * budget (kicks; 0: until the instance's time share of ctl's deadline,
 * batch_run.h), rank and ranked (the shares), and writes length (-1 where
 * a stop came before the first descent ended), kicks and counters.  The
 * same seed and budgets give the same tours on any thread count.  A stop
 * (ctl's deadline, its stop flag, its progress callback, which thread 0
 * calls) ends the instances under way with their best tours; those not
 * begun keep their start tours.  Errors: wt_solve's (out of memory), the
 * first in the instances' order. */
wt_status wt_batch_lk_run(const wt_batch_job *job, wt_search_ctl *ctl, wt_error *err);

#endif
