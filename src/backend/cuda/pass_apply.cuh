/*
 * pass_apply.cuh - applying k independent 2-opt moves to a tour on the
 * device at once (pass_apply.cu).
 */
#ifndef WT_BACKEND_CUDA_PASS_APPLY_CUH
#define WT_BACKEND_CUDA_PASS_APPLY_CUH

#include "backend/cuda/twoopt_pass.cuh"

/* Applies count independent moves (disjoint [i, j]) to t at once:
 * offs[c] must be the exclusive prefix sum of (j - i) / 2 over moves, and
 * swaps their total.  Two kernels: one swap per thread, then the edge
 * terms of the reversed segments. */
wt_status pass_apply(const DevInst &I, DevTour t, const wt_kswap_move *moves,
                     const long long *offs, int count, long long swaps, cudaStream_t stream,
                     wt_error *err);

#endif
