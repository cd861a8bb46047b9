/*
 * cuda_bound.h - the complete graph's minimum 1-tree bound on the GPU:
 * the proven bound of the Held-Karp ascent (core/onetree.h,
 * wt_onetree_complete_bound) by Boruvka's rounds over the uniform grid of
 * cuda_grid.cuh, equal to the host's bit for bit (cuda_bound.cu says how).
 */
#ifndef WT_BACKEND_CUDA_BOUND_H
#define WT_BACKEND_CUDA_BOUND_H

#include <stdbool.h>
#include <stdint.h>

#include "core/error.h"
#include "core/init.h"
#include "core/instance.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The most cities in one cell of the grid that the bound takes (about two
 * a cell on average): a denser layout somewhere answers UNSUPPORTED. */
#define WT_CUDA_BOUND_CELL_MAX 48

/* *bound: the weight w(pi) (scaled) of the minimum 1-tree of inst's
 * complete graph under pi (n penalties within +-2^30), as
 * wt_onetree_complete_bound computes it, on CUDA device `device`.  Planar
 * types only (EUC_2D, CEIL_2D, ATT, MAN_2D, MAX_2D, real-valued points
 * among them).  UNSUPPORTED for the others, for a grid cell of more than
 * WT_CUDA_BOUND_CELL_MAX cities and where a city's cheapest edge may lie
 * beyond the rings of cells the search reads (far-apart clusters): the
 * host's k-d tree answers those; OUT_OF_MEMORY naming the bytes needed;
 * DEVICE where a CUDA call failed.  stop (NULL: never) is polled between
 * Boruvka's rounds: *stopped, *bound then unusable. */
wt_status wt_cuda_complete_bound(int device, const wt_instance *inst, const int32_t *pi,
                                 const wt_init_stop *stop, int64_t *bound, bool *stopped,
                                 wt_error *err);

/* The same bound in two parts, for a caller that knows the instance
 * before its penalties (the ascent slot, whose steps make them): open
 * builds the grid and allocates the arrays on `device` (and loads the
 * kernels), so that each compute under given penalties costs Boruvka's
 * rounds alone.  open's errors are wt_cuda_complete_bound's but for the
 * rings (*out NULL after an error); compute's are the rest, a stop as
 * wt_cuda_complete_bound's; compute may run any number of times, from one
 * thread at a time; close (NULL: a no-op) frees everything. */
typedef struct wt_cuda_bound wt_cuda_bound;
wt_status wt_cuda_bound_open(int device, const wt_instance *inst, wt_cuda_bound **out,
                             wt_error *err);
wt_status wt_cuda_bound_compute(wt_cuda_bound *b, const int32_t *pi, const wt_init_stop *stop,
                                int64_t *bound, bool *stopped, wt_error *err);
void wt_cuda_bound_close(wt_cuda_bound *b);

#ifdef __cplusplus
}
#endif

#endif
