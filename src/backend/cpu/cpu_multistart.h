/*
 * cpu_multistart.h - random-restart 2-opt hill climbing on the CPU.
 *
 * One climber per OpenMP thread, as the paper's OpenMP `cpu` code; the
 * semantics are those of the backend's multistart slot (backend.h).
 */
#ifndef WT_BACKEND_CPU_MULTISTART_H
#define WT_BACKEND_CPU_MULTISTART_H

#include "backend/backend.h"

wt_status wt_cpu_multistart(const wt_instance *inst, const wt_multistart_job *job,
                            wt_search_ctl *ctl, int32_t *best_tour, wt_search_stats *stats,
                            wt_error *err);

#endif
