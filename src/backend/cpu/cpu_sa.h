/*
 * cpu_sa.h - simulated annealing on the CPU: the SSPM and PSSM schemes of
 * Lam et al. §4.3; the semantics are those of the backend's sa slot
 * (backend.h).
 */
#ifndef WT_BACKEND_CPU_SA_H
#define WT_BACKEND_CPU_SA_H

#include "backend/backend.h"

wt_status wt_cpu_sa(const wt_instance *inst, wt_sa_job *job, wt_search_ctl *ctl, int32_t *tour,
                    wt_search_stats *stats, wt_error *err);

#endif
