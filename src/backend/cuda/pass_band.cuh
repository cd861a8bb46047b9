/*
 * pass_band.cuh - each row's best move within a band of columns, the
 * k-swap candidates that long moves do not block (pass_band.cu).
 */
#ifndef WT_BACKEND_CUDA_PASS_BAND_CUH
#define WT_BACKEND_CUDA_PASS_BAND_CUH

#include "backend/cuda/twoopt_pass.cuh"

/* After pass_collect: writes cand[n-2+i] = {exact delta, i, j} for the best
 * float move of row i with j in [i+2, i+band] (lowest j among equal float
 * deltas; the pass's own float operations), when its float delta is
 * negative and j differs from cand[i].j (the row's best, which it then
 * duplicates); else {0, i, -1}.  cand needs 2(n-2) entries; band >= 1. */
wt_status pass_band(const DevInst &I, DevTour t, int band, wt_kswap_move *cand,
                    cudaStream_t stream, wt_error *err);

#endif
