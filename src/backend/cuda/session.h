/*
 * session.h - the CUDA backend's tour sessions (see backend.h): one tour at
 * a time in device memory, searched by the whole GPU (session.cu,
 * twoopt_pass.cuh).
 */
#ifndef WT_BACKEND_CUDA_SESSION_H
#define WT_BACKEND_CUDA_SESSION_H

#include "backend/backend.h"

#ifdef __cplusplus
extern "C" {
#endif

extern const wt_session_ops wt_cuda_session_ops;

#ifdef __cplusplus
}
#endif
#endif
