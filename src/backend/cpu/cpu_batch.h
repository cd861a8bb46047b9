/*
 * cpu_batch.h - the batch search on the CPU: the reference implementation
 * of core/batch_search.h, one instance per OpenMP thread at a time, behind
 * the CPU backend's batch and windows slots (cpu_backend.c).
 */
#ifndef WT_BACKEND_CPU_BATCH_H
#define WT_BACKEND_CPU_BATCH_H

#include "backend/batch_run.h"

/* Solves every instance of job with a non-NULL entry, on up to ctl->threads
 * threads, each instance wholly on one thread; instances are taken in order
 * as threads come free.  An instance's tour is a function of its start
 * tour, its lists, job's settings and its job->index alone, unless the time
 * limit or a stop ends its kicks (time shares: batch_run.h, with one slot
 * per thread).  fixed_ends: every instance is a path whose cities 0 and
 * n - 1 stay joined (the windows slot; wt_bs_fixed_at).  Reports progress
 * (ctl's callback, climbs = instances done) from the calling thread.
 * Errors: WT_STATUS_OUT_OF_MEMORY. */
wt_status wt_cpu_batch_run(const wt_batch_job *job, bool fixed_ends, wt_search_ctl *ctl,
                           wt_error *err);

#endif
