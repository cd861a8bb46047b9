/*
 * multistart_kernels.cuh - the launchers of the two multistart kernels.
 *
 * multistart.cu prepares a run (context, instance upload, run state with
 * its stop flag) and calls one of these; each picks its launch
 * configuration from the device and n, launches on the context's stream,
 * and calls L.wait, which polls the run until the kernel ends.
 */
#ifndef WT_BACKEND_CUDA_MULTISTART_KERNELS_CUH
#define WT_BACKEND_CUDA_MULTISTART_KERNELS_CUH

#include "core/tuning.h"
#include "backend/cuda/context.cuh"
#include "backend/cuda/ms_run.cuh"

struct MsLaunch {
    int n;
    unsigned long long restarts;            /* 0: unbounded */
    const CudaContext *ctx;                 /* the device; its stream runs the kernel */
    wt_status (*wait)(void *ctx, wt_error *err); /* polls until the kernel is done */
    void *wait_ctx;
    const wt_tuning *tuning;                /* the block kernel's shape and scan */
};

/* One climber per thread block, register-tiled (multistart_block.cu). */
wt_status ms_launch_block(const MsLaunch &L, const MsArgs &args, wt_error *err);
/* Its kernels by metric (multistart_block_*.cu): EUC_2D, CEIL_2D and ATT;
 * MAN_2D, MAX_2D and EUC_3D; GEO; HAVERSINE; EXPLICIT. */
wt_status ms_launch_block_plane(const MsLaunch &L, const MsArgs &args, wt_error *err);
wt_status ms_launch_block_norms(const MsLaunch &L, const MsArgs &args, wt_error *err);
wt_status ms_launch_block_geo(const MsLaunch &L, const MsArgs &args, wt_error *err);
wt_status ms_launch_block_haversine(const MsLaunch &L, const MsArgs &args, wt_error *err);
wt_status ms_launch_block_matrix(const MsLaunch &L, const MsArgs &args, wt_error *err);

/* One climber per thread: the prior-art baseline (multistart_thread.cu). */
wt_status ms_launch_thread(const MsLaunch &L, const MsArgs &args, wt_error *err);

#endif
