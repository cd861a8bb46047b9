/*
 * cuda_neighbours.h - the CUDA backend's candidate-list slot (backend.h,
 * neighbours): each city's nearest cities, or its quadrant neighbours, by
 * a uniform grid on the GPU, equal to the host's k-d tree lists bit for
 * bit (cuda_neighbours.cu says how).
 */
#ifndef WT_BACKEND_CUDA_NEIGHBOURS_H
#define WT_BACKEND_CUDA_NEIGHBOURS_H

#include <stdbool.h>
#include <stdint.h>

#include "backend/backend.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The most nearest cities a row is chosen from on the GPU (k, or
 * wt_quadrant_wide(n, k) for quadrant lists): beyond it the slot answers
 * UNSUPPORTED and the host lists. */
#define WT_CUDA_NEIGHBOURS_WIDE_MAX 64

/* The most cities in one cell of the grid (about two a cell on average)
 * that the slot takes: a layout denser than that somewhere (clusters,
 * repeated points) answers UNSUPPORTED, since each query reads the cells
 * around it and the host's k-d tree adapts where a grid cannot. */
#define WT_CUDA_NEIGHBOURS_CELL_MAX 48

/* The neighbours slot's semantics (backend.h) on CUDA device dev->index
 * for the planar metrics (EUC_2D, CEIL_2D, ATT, MAN_2D, MAX_2D);
 * UNSUPPORTED for the others, for rows chosen from more than
 * WT_CUDA_NEIGHBOURS_WIDE_MAX nearest and for a grid cell of more than
 * WT_CUDA_NEIGHBOURS_CELL_MAX cities; OUT_OF_MEMORY naming the bytes
 * needed where the GPU's free memory is short; DEVICE where a CUDA call
 * failed.  ctl (may be NULL) is polled between batches of queries. */
wt_status wt_cuda_neighbours(const wt_device *dev, const wt_instance *inst, int k, bool quadrant,
                             int32_t *nb, wt_search_ctl *ctl, bool *stopped, wt_error *err);

#ifdef __cplusplus
}
#endif

#endif
