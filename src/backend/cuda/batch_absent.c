/*
 * batch_absent.c - the GPU batch search of a build without CUDA: never
 * usable, so every instance runs on the CPU.
 */
#include <stdio.h>

#include "backend/cuda/batch.h"
#include "core/error.h"

#ifndef WT_CUDA_ABSENT_WHY
#define WT_CUDA_ABSENT_WHY "no nvcc at build time"
#endif

bool wt_cuda_batch_device(int device, char *name, size_t name_size)
{
    (void)device;
    snprintf(name, name_size, "built without CUDA (%s)", WT_CUDA_ABSENT_WHY);
    return false;
}

void wt_cuda_batch_place(const wt_instance *const *inst, int count, int device, int threads,
                         bool *fits)
{
    (void)inst;
    (void)device;
    (void)threads;
    for (int i = 0; i < count; i++) fits[i] = false;
}

wt_status wt_cuda_batch_run(const wt_batch_job *job, const wt_cuda_batch_opts *opts,
                            wt_search_ctl *ctl, wt_error *err)
{
    (void)job;
    (void)opts;
    (void)ctl;
    return wt_fail(err, WT_STATUS_NO_DEVICE, "built without CUDA (%s)", WT_CUDA_ABSENT_WHY);
}
