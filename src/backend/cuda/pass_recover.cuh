/*
 * pass_recover.cuh - after a pass, each row's best column and its move's
 * exact delta (pass_recover.cu).
 */
#ifndef WT_BACKEND_CUDA_PASS_RECOVER_CUH
#define WT_BACKEND_CUDA_PASS_RECOVER_CUH

#include "backend/cuda/twoopt_pass.cuh"

/* Turns rowkey into cand[i] = {exact delta, i, j} for every row (delta 0
 * when the row has no candidate) and resets rowkey to PASS_NO_MOVE, first
 * finding each row's column (recover_kernel): a pass is pass_launch and
 * pass_collect together. */
wt_status pass_collect(const DevInst &I, DevTour t, const PassPlan &plan,
                       unsigned long long *rowkey, wt_kswap_move *cand, cudaStream_t stream,
                       wt_error *err);

#endif
