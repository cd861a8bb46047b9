/*
 * cpu_ascent.h - the Held-Karp ascent on the host: the backend's ascent
 * slot (backend.h, wt_ascent_job), the reference of every other backend's.
 */
#ifndef WT_BACKEND_CPU_ASCENT_H
#define WT_BACKEND_CPU_ASCENT_H

#include "backend/backend.h"

#include "core/ascent_rule.h"

/* The default subgradient steps at most when job->iterations is 0
 * (core/ascent_rule.h: none, the step rule alone ends the ascent). */
#define WT_CPU_ASCENT_DEFAULT_ITERATIONS WT_ASCENT_DEFAULT_ITERATIONS

/* The ascent slot's semantics (backend.h), on ctl->threads threads (ctl
 * may be NULL: one thread, no stop).  Results do not depend on the thread
 * count.  Errors: INVALID_ARGUMENT (NULL arrays, k < 1, n < 3, a city out
 * of range in the graph, a graph that is not connected, start penalties
 * beyond +-2^30), UNSUPPORTED (wt_onetree_check_lengths: distances too
 * long for the fixed point), OUT_OF_MEMORY. */
wt_status wt_cpu_ascent(const wt_instance *inst, wt_ascent_job *job, wt_search_ctl *ctl,
                        wt_error *err);

#endif
