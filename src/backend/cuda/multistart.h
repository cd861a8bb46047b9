/*
 * multistart.h - the CUDA backend's multistart slot (see backend.h).
 */
#ifndef WT_BACKEND_CUDA_MULTISTART_H
#define WT_BACKEND_CUDA_MULTISTART_H

#include "backend/backend.h"

#ifdef __cplusplus
extern "C" {
#endif

wt_status wt_cuda_multistart(const wt_device *dev, const wt_instance *inst,
                             const wt_multistart_job *job, wt_search_ctl *ctl,
                             int32_t *best_tour, wt_search_stats *stats, wt_error *err);

#ifdef __cplusplus
}
#endif
#endif
