/*
 * cuda_ascent_finish.cuh - the end of the GPU ascent on the GPU
 * (cuda_ascent_finish.cu): from the minimum 1-tree under the best
 * penalties, the alpha-value of every graph edge and each city's
 * candidates, equal to core/ascent_finish.h's bit for bit.
 */
#ifndef WT_BACKEND_CUDA_ASCENT_FINISH_CUH
#define WT_BACKEND_CUDA_ASCENT_FINISH_CUH

#include <cstddef>
#include <cstdint>

#include "backend/cuda/cuda_ascent_state.cuh"
#include "backend/cuda/device_arena.cuh"
#include "core/error.h"

namespace wt_ascent_gpu {

/* The finish's device memory, beside DeviceAscent's. */
struct DeviceFinish {
    int n = 0, k = 0, levels = 0;
    int64_t m = 0, arcs = 0;      /* arcs: 2 (n - 1), the tree's edges both ways */
    int32_t *d_src = nullptr;     /* arcs: the sort's keys, then an arc's sorted position */
    int32_t *d_arc = nullptr;     /* arcs: the sort's values, then the twin's position */
    int32_t *d_s_src = nullptr, *d_s_arc = nullptr; /* arcs: sorted by source */
    int32_t *d_succ[2] = {nullptr, nullptr};        /* arcs: pointer jumping, then the
                                                       steps and their scan */
    int32_t *d_dist[2] = {nullptr, nullptr};        /* arcs: pointer jumping */
    int32_t *d_first = nullptr;   /* n: a city's first arc, then the place of the arc into it */
    int32_t *d_depth = nullptr;   /* n */
    int32_t *d_up = nullptr;      /* levels * n: the 2^j-th ancestors */
    int64_t *d_mx = nullptr;      /* levels * n: the dearest edge on the way */
    int64_t *d_alpha = nullptr;   /* m */
    int32_t *d_seq = nullptr, *d_in_city = nullptr, *d_in_edge = nullptr; /* m */
    int32_t *d_out_off = nullptr, *d_in_off = nullptr;                   /* n + 1 */
    int32_t *d_cand = nullptr;    /* n k */
};

/* Loads the finish's own kernels on the current device
 * (wt_cuda_load_kernels): for a thread that waits beside the steps. */
void finish_load_kernels();

/* CUB's scratch that the finish needs on stream (its two sorts and its
 * scan): *bytes. */
wt_status finish_temp_bytes(int n, int64_t m, cudaStream_t stream, size_t *bytes, wt_error *err);

/* f's arrays for n cities, m edges and rows of k, added to plan: they
 * live in the owner's block (DeviceAscent's). */
void finish_plan(DeviceFinish &f, int n, int64_t m, int k, wt_cuda::ArenaPlan &plan);

/* From the minimum 1-tree that d's last tree left (d_tree_list, d_key,
 * d_cheapest: the special node's second edge; the tree under the penalties
 * the candidates are for) and special, its special node: the candidates
 * into candidates (host, n rows of f.k), on d.stream with d's CUB scratch.
 * d_key becomes every edge's c_pi as int64 (the keys are no longer needed:
 * the steps are over).  stop (may be NULL) is polled between the phases;
 * *stopped: it came first (candidates unusable). */
wt_status finish_candidates(DeviceAscent &d, DeviceFinish &f, int32_t special,
                            bool (*stop)(void *), void *stop_user, int32_t *candidates,
                            bool *stopped, wt_error *err);

} // namespace wt_ascent_gpu

#endif
