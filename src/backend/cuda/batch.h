/*
 * batch.h - the batch search on the GPU (batch.cu), and its stand-ins in a
 * build without CUDA (batch_absent.c).
 *
 * One group of threads (a warp, or a whole block for larger instances)
 * holds one instance in shared memory and runs the search of
 * core/batch_search.h on it, taking the same steps as the CPU's
 * implementation (cpu_batch.c).  A batch whose data does not fit the GPU's
 * memory at once runs in parts.
 */
#ifndef WT_BACKEND_CUDA_BATCH_H
#define WT_BACKEND_CUDA_BATCH_H

#include "backend/batch_run.h"

#ifdef __cplusplus
extern "C" {
#endif

/* How the GPU runs a job. */
typedef struct wt_cuda_batch_opts {
    int device;        /* CUDA device number */
    int threads;       /* threads per instance; 0: by n (32, 64, 128 or 256) */
    size_t part_bytes; /* most device memory a part takes; 0: free memory decides */
} wt_cuda_batch_opts;

/* Whether GPU `device` is usable by the batch kernels (present, and they
 * run on it); name gets its name or why not. */
bool wt_cuda_batch_device(int device, char *name, size_t name_size);

/* Which of inst[0..count-1] (NULL entries: none) fit the shared memory of
 * a block of groups of `threads` threads each (0: the default for its n) on
 * `device`, a usable GPU (wt_cuda_batch_device): fits[i]. */
void wt_cuda_batch_place(const wt_instance *const *inst, int count, int device, int threads,
                         bool *fits);

/* Solves every instance of job with a non-NULL entry on the GPU (each must
 * fit: wt_cuda_batch_place), as wt_cpu_batch_run does on the CPU: the same
 * tours, lengths and kick counts for the same job, unless the time limit or
 * a stop ends the kicks.  Polls ctl (stop flag, deadline) and reports
 * progress from the calling thread while the kernels run.  Errors:
 * WT_STATUS_DEVICE (a CUDA call failed; its message names it),
 * WT_STATUS_NO_DEVICE, WT_STATUS_OUT_OF_MEMORY. */
wt_status wt_cuda_batch_run(const wt_batch_job *job, const wt_cuda_batch_opts *opts,
                            wt_search_ctl *ctl, wt_error *err);

#ifdef __cplusplus
}
#endif
#endif
