/*
 * sa.h - the CUDA backend's simulated annealing slot (see backend.h), and
 * an entry with knobs and read-outs that only the tests use.
 *
 * The knobs are internal rather than user options: where the lists live is
 * decided by the GPU's shared memory alone, and a user gains nothing by
 * moving them; the tests need to force the global-memory path on instances
 * small enough to check against the CPU.
 */
#ifndef WT_BACKEND_CUDA_SA_H
#define WT_BACKEND_CUDA_SA_H

#include <stdbool.h>

#include "backend/backend.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct wt_cuda_sa_opts {
    int device;          /* in: the CUDA device ordinal (wt_device.index) */
    bool force_global;   /* in: lists and coordinates in global memory even when they fit
                            in shared memory */
    bool force_block;    /* in: the general block kernel even where the warp kernel
                            (EUC_2D, at most 32 moves, shared lists) applies */
    bool warp_kernel;    /* out: the warp kernel ran */
    bool lists_shared;   /* out: the lists were in shared memory */
    bool coords_shared;  /* out: the coordinates were copied to shared memory */
    int64_t device_best; /* out: the exact length the GPU tracked for the returned tour;
                            -1 when no kernel ran */
    uint64_t worsened;   /* out: accepted moves that lengthened a search's tour */
} wt_cuda_sa_opts;

/* The sa slot: wt_cuda_sa_run with default options.  Both may be called
 * from several host threads at once (distinct tours, jobs and ctls): each
 * run keeps to its own streams and buffers. */
wt_status wt_cuda_sa(const wt_device *dev, const wt_instance *inst, wt_sa_job *job,
                     wt_search_ctl *ctl, int32_t *tour, wt_search_stats *stats, wt_error *err);

/* The same run; opts (not NULL) sets the knobs and receives the read-outs. */
wt_status wt_cuda_sa_run(const wt_instance *inst, wt_sa_job *job, wt_search_ctl *ctl,
                         int32_t *tour, wt_search_stats *stats, wt_cuda_sa_opts *opts,
                         wt_error *err);

#ifdef __cplusplus
}
#endif
#endif
