/*
 * session.h - the CUDA backend's tour sessions and 2-opt descent slots
 * (see backend.h): one tour at a time in device memory, searched by the
 * whole GPU (session.cu, twoopt_pass.cu).
 */
#ifndef WT_BACKEND_CUDA_SESSION_H
#define WT_BACKEND_CUDA_SESSION_H

#include "backend/backend.h"

#ifdef __cplusplus
extern "C" {
#endif

extern const wt_session_ops wt_cuda_session_ops;

/* backend.h's twoopt_descend: open, descend, keep, read_best. */
wt_status wt_cuda_twoopt_descend(const wt_instance *inst, int32_t *tour, wt_search_ctl *ctl,
                                 wt_search_stats *stats, wt_error *err);

#ifdef __cplusplus
}
#endif
#endif
