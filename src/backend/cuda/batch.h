/*
 * batch.h - the batch search on the GPU (batch.cu), behind the CUDA
 * backend's batch, batch_place and windows slots (cuda_backend.cu).
 *
 * One group of threads (a warp, or a whole block for larger instances)
 * holds one instance in shared memory and runs the search of
 * core/batch_search.h on it, taking the same steps as the CPU's
 * implementation (cpu_batch.c).  A batch whose data does not fit the GPU's
 * memory at once runs in parts.
 */
#ifndef WT_BACKEND_CUDA_BATCH_H
#define WT_BACKEND_CUDA_BATCH_H

#include "backend/backend.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The batch_place slot: which of inst[0..count-1] (NULL entries: none) fit
 * the shared memory of a block of groups of `threads` threads each (0: the
 * default for its n) on dev, a usable GPU: fits[i]. */
void wt_cuda_batch_place(const wt_device *dev, const wt_instance *const *inst, int count,
                         int threads, bool *fits);

/* Solves every instance of job with a non-NULL entry on GPU dev (each must
 * fit: wt_cuda_batch_place), as wt_cpu_batch_run does on the CPU: the same
 * tours, lengths and kick counts for the same job, unless the time limit or
 * a stop ends the kicks.  fixed_ends: the windows slot's paths.  Polls ctl
 * (stop flag, deadline) and reports progress from the calling thread while
 * the kernels run.  Errors: WT_STATUS_DEVICE (a CUDA call failed; its
 * message names it), WT_STATUS_NO_DEVICE, WT_STATUS_OUT_OF_MEMORY. */
wt_status wt_cuda_batch_run(const wt_device *dev, const wt_batch_job *job, bool fixed_ends,
                            wt_search_ctl *ctl, wt_error *err);

/* The resident windows slots (backend.h, windows_open): the large
 * instance's coordinates (two axes: not EXPLICIT, not 3D) and candidate
 * lists on GPU dev; each round makes its windows' instances there (tour
 * positions, coordinates, lists cut from the candidates, identity start
 * tours), runs the batch kernel on them with fixed ends, and puts each
 * window's best path back into the tour on the GPU; only the tour
 * crosses to and from the host. */
wt_status wt_cuda_windows_open(const wt_device *dev, const wt_instance *inst, const int32_t *cand,
                               int ck, int most, wt_windows_resident **out, wt_error *err);
wt_status wt_cuda_windows_round(wt_windows_resident *w, const wt_windows_job *job, int32_t *tour,
                                wt_search_ctl *ctl, wt_windows_tally *tally, wt_error *err);
void wt_cuda_windows_close(wt_windows_resident *w);

#ifdef __cplusplus
}
#endif
#endif
