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

/* One full pass over tour (n cities of inst) on the GPU: writes into out
 * (room for n moves) the row bests, as the CPU's wt_2opt_row_bests does:
 * for each row i with one, the row's best float move (lowest j among equal
 * float deltas) with its exact delta, kept only when that is negative, in
 * increasing i; *count says how many.  pass_seconds (may be NULL) receives
 * the pass's GPU time (CUDA events around the pass kernel and the recovery
 * of each row's column, queued behind a short hold so that the host's
 * launch time is not counted), without uploads, candidate compaction or
 * copies. */
wt_status wt_cuda_2opt_row_bests(const wt_instance *inst, const int32_t *tour,
                                 wt_kswap_move *out, int *count, double *pass_seconds,
                                 wt_error *err);

/* The same pass with the candidates of a k-swap descent, as the CPU's
 * wt_2opt_candidates gives them: the row bests above, then, when band > 0,
 * for each row i in increasing order its best float move with j in
 * [i+2, i+band] (lowest j among equal float deltas) with its exact delta,
 * kept when that is negative and the move is not the row's best already.
 * out needs room for n moves, 2n when band > 0. */
wt_status wt_cuda_2opt_candidates(const wt_instance *inst, const int32_t *tour, int band,
                                  wt_kswap_move *out, int *count, double *pass_seconds,
                                  wt_error *err);

/* wt_cuda_2opt_candidates with or without the segment bound (prune,
 * wt_params.prune): the same candidates either way.  checked (may be NULL)
 * receives the pairs the pass evaluated ((n-1)(n-2)/2 when it checked
 * all; pruned: rows x columns of the rectangles it evaluated). */
wt_status wt_cuda_2opt_scan(const wt_instance *inst, const int32_t *tour, int band, bool prune,
                            wt_kswap_move *out, int *count, double *pass_seconds,
                            uint64_t *checked, wt_error *err);

#ifdef __cplusplus
}
#endif
#endif
