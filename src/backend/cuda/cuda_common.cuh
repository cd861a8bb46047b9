/*
 * cuda_common.cuh - what every CUDA file of the backend shares.
 *
 * WT_CUDA_CHECK records the failing call with file and line into a wt_error
 * and returns WT_STATUS_DEVICE from the enclosing function: the library
 * never aborts on a GPU failure, the caller decides.
 */
#ifndef WT_BACKEND_CUDA_COMMON_CUH
#define WT_BACKEND_CUDA_COMMON_CUH

#include <cuda_runtime.h>

#include "core/error.h"

#define WT_CUDA_CHECK(err, call)                                                        \
    do {                                                                                \
        cudaError_t wt_e_ = (call);                                                     \
        if (wt_e_ != cudaSuccess) {                                                     \
            (void)cudaGetLastError(); /* a later, unrelated check must not see it */    \
            return wt_fail((err), WT_STATUS_DEVICE, "%s failed at %s:%d: %s", #call,    \
                           __FILE__, __LINE__, cudaGetErrorString(wt_e_));              \
        }                                                                               \
    } while (0)

/* Loads kernels on the current device now: CUDA loads a kernel lazily, at
 * its first launch, which would fall on the time of the work that first
 * launches it.  For a thread that waits beside other work anyway.  Errors
 * are dropped: a kernel not loaded now loads at its launch. */
static inline void wt_cuda_load_kernels(const void *const *kernels, size_t count)
{
    cudaFuncAttributes a;
    for (size_t i = 0; i < count; i++) (void)cudaFuncGetAttributes(&a, kernels[i]);
    (void)cudaGetLastError();
}

#endif
