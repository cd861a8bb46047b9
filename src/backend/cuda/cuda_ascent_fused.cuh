/*
 * cuda_ascent_fused.cuh - the GPU ascent's 1-tree in one cooperative
 * kernel launch (cuda_ascent_fused.cu): the pi update, Boruvka's rounds,
 * the special node and the figures, phases separated by grid-wide
 * barriers instead of kernel launches and host round trips.
 */
#ifndef WT_BACKEND_CUDA_ASCENT_FUSED_CUH
#define WT_BACKEND_CUDA_ASCENT_FUSED_CUH

#include "backend/cuda/cuda_ascent_state.cuh"
#include "core/error.h"

namespace wt_ascent_gpu {

/* The cooperative kernel's grid on device for m edges: at most
 * blocks_per_sm resident blocks an SM (0: as many as fit), never more than
 * fit at once (a grid-wide barrier needs every block resident) nor more
 * than the edges need.  *blocks = 0 when the device cannot launch
 * cooperative kernels (the caller then launches a kernel a phase). */
wt_status fused_grid(int device, int blocks_per_sm, int64_t m, int *blocks, wt_error *err);

/* The 1-tree of step s under d's penalties into d.d_fig, d.d_degree (the
 * special edge included) and d.d_tree_edge, queued on d.stream: one
 * launch of d.fused_blocks blocks, no host synchronisation.  A graph that
 * is not connected leaves d_fig->tree_edges < n - 1. */
wt_status fused_tree(DeviceAscent &d, const TreeStep &s, wt_error *err);

} // namespace wt_ascent_gpu

#endif
