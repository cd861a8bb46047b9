/*
 * twoopt_pass.h - one whole-GPU 2-opt pass, callable from C, for the GPU
 * tests and the pass benchmark (the searches use it through session.cu).
 *
 * A build without CUDA has a stub (cuda_absent.c) that answers
 * WT_STATUS_NO_DEVICE, so callers need no #ifdef.
 */
#ifndef WT_BACKEND_CUDA_TWOOPT_PASS_H
#define WT_BACKEND_CUDA_TWOOPT_PASS_H

#include "algo/kswap.h"
#include "warptour.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One full pass over tour (n cities of inst) on the GPU: writes into out
 * (room for n moves) the row bests, as the CPU's wt_2opt_row_bests does:
 * for each row i with one, the row's best float move (lowest j among equal
 * float deltas) with its exact delta, kept only when that is negative, in
 * increasing i; *count says how many.  pass_seconds (may be NULL) receives
 * the pass kernel's own time (CUDA events), without uploads, candidate
 * compaction or copies. */
wt_status wt_cuda_2opt_row_bests(const wt_instance *inst, const int32_t *tour,
                                 wt_kswap_move *out, int *count, double *pass_seconds,
                                 wt_error *err);

#ifdef __cplusplus
}
#endif
#endif
