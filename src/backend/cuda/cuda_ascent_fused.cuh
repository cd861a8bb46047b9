/*
 * cuda_ascent_fused.cuh - the GPU ascent's steps in cooperative kernel
 * launches (cuda_ascent_fused.cu): a 1-tree (the pi update, Boruvka's
 * rounds, the special node and the figures) in one launch, or many steps
 * with the step rule on the device in one launch, phases separated by
 * grid-wide barriers instead of kernel launches and host round trips.
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
 * launch of d.fused_blocks blocks, no host synchronisation; the launch's
 * error (cudaErrorCooperativeLaunchTooLarge where a device shared with
 * others, MPS for one, grants fewer resident blocks: nothing ran).  A
 * graph that is not connected leaves d_fig->tree_edges < n - 1. */
cudaError_t fused_tree(DeviceAscent &d, const TreeStep &s);

/* Up to max_steps steps of the ascent, each the pi update, its 1-tree and
 * the step rule run by one device thread on d.d_box (StepsBox: the rule
 * as the host left it, more set), queued on d.stream as one launch; the
 * steps end early when the rule ends the ascent or a tree fails
 * (d_box->failed).  The results equal those of a fused_tree a step with
 * the rule on the host. */
wt_status fused_steps(DeviceAscent &d, int max_steps, wt_error *err);

} // namespace wt_ascent_gpu

#endif
