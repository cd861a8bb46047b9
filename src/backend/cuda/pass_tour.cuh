/*
 * pass_tour.cuh - a tour's points and edge terms in device memory, rebuilt
 * from its city ids, and its exact edge lengths (pass_tour.cu).
 */
#ifndef WT_BACKEND_CUDA_PASS_TOUR_CUH
#define WT_BACKEND_CUDA_PASS_TOUR_CUH

#include "backend/cuda/twoopt_pass.cuh"

/* Bytes of one point of inst's metric. */
size_t pass_point_bytes(wt_edge_weight_type type);

/* pts and me from id (after upload or a kick); on stream. */
wt_status pass_refresh_tour(const DevInst &I, DevTour t, cudaStream_t stream, wt_error *err);

/* Writes exact[k] = exact length of edge k of the tour id (for a sum). */
wt_status pass_exact_edges(const DevInst &I, const int32_t *id, long long *exact,
                           cudaStream_t stream, wt_error *err);

#endif
