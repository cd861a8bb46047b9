/*
 * twoopt_pass.h - one whole-GPU 2-opt pass, callable from C, for the GPU
 * tests and the pass benchmark (the searches use it through session.cu).
 *
 * A build without CUDA has a stub (cuda_absent.c) that answers
 * WT_STATUS_NO_DEVICE, so callers need no #ifdef.
 */
#ifndef WT_BACKEND_CUDA_TWOOPT_PASS_H
#define WT_BACKEND_CUDA_TWOOPT_PASS_H

#include "core/kswap.h"
#include "warptour.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One full pass over tour (n cities of inst) on the GPU, with the
 * candidates of a k-swap descent as the CPU's wt_2opt_candidates gives
 * them: first the row bests (wt_2opt_row_bests): for each row i with one,
 * the row's best float move (lowest j among equal float deltas) with its
 * exact delta, kept only when that is negative, in increasing i; then,
 * when band > 0, for each row i in increasing order its best float move
 * with j in [i+2, i+band] (lowest j among equal float deltas) with its
 * exact delta, kept when that is negative and the move is not the row's
 * best already.  out needs room for n moves, 2n when band > 0; *count says
 * how many.  params (NULL: wt_params_defaults with prune off) gives the
 * device (cuda_device), the segment bound (prune: the same candidates
 * either way) and the pass's shape (tuning).  pass_seconds (may be NULL)
 * receives the pass's GPU time (CUDA events around the pass kernel and the
 * recovery of each row's column, queued behind a short hold so that the
 * host's launch time is not counted), without uploads, candidate
 * compaction or copies.  checked (may be NULL) receives the pairs the pass
 * evaluated ((n-1)(n-2)/2 when it checked all; pruned: rows x columns of
 * the rectangles it evaluated). */
wt_status wt_cuda_2opt_scan(const wt_instance *inst, const int32_t *tour, int band,
                            const wt_params *params, wt_kswap_move *out, int *count,
                            double *pass_seconds, uint64_t *checked, wt_error *err);

#ifdef __cplusplus
}
#endif
#endif
