/*
 * pass_full.cuh - the full 2-opt pass: every pair of the tour checked once
 * (pass_full.cu; the loop is pass_loop.cuh's).
 */
#ifndef WT_BACKEND_CUDA_PASS_FULL_CUH
#define WT_BACKEND_CUDA_PASS_FULL_CUH

#include "backend/cuda/twoopt_pass.cuh"

/* The pass kernel of type's metric with rows_per_lane (8, 16) and the
 * integer loop's period (0: the float loop), for occupancy queries. */
const void *pass_full_kernel(wt_edge_weight_type type, int rows_per_lane, int period);

/* Launches the full pass of plan over t on stream (see pass_launch). */
wt_status pass_full_launch(const DevInst &I, DevTour t, const PassPlan &plan,
                           unsigned long long *rowkey, const int *d_stop, cudaStream_t stream,
                           wt_error *err);

#endif
