/*
 * pass_pruned.cuh - the pruned 2-opt pass: the full pass's moves without
 * the rectangles of pairs the segment bound rules out (pass_pruned.cu).
 */
#ifndef WT_BACKEND_CUDA_PASS_PRUNED_CUH
#define WT_BACKEND_CUDA_PASS_PRUNED_CUH

#include "backend/cuda/twoopt_pass.cuh"

/* Whether type's metric has the bound (the 2D metrics but GEO). */
bool pass_pruned_metric(wt_edge_weight_type type);

/* Refreshes boxes, then launches the pruned pass of plan over t on stream
 * (see pass_launch); type must have the bound. */
wt_status pass_pruned_launch(const DevInst &I, DevTour t, const PassPlan &plan, PassBoxes boxes,
                             unsigned long long *rowkey, const int *d_stop, cudaStream_t stream,
                             wt_error *err);

#endif
