/*
 * cuda_ascent_graph.cuh - the ascent's sparse graph built on the GPU from
 * the job's rows: the edges of core/onetree.h's wt_sgraph_create, in its
 * order and with its scaled lengths, bit for bit.
 *
 * On the host the graph's arrays cost the ascent's slot nearly as much as
 * its steps at scale (0.34 s on 16 threads at a million cities against
 * 0.44 s for 300 steps; 9 ms on pla85900, H200 machine): here the
 * rows are uploaded, each entry becomes a key lo * n + hi (n^2 for an
 * entry that is none: past a row's end or the row's own city), CUB sorts
 * the keys and keeps the distinct ones (DeviceRadixSort, DeviceSelect::
 * Unique: the host's radix sort and unique pass), and each edge gets its
 * ends and 100 d from the points (dev_planar_dist: the host's formulas in
 * the same IEEE operations).  For planar points only; elsewhere the host
 * builds the graph.  The errors are the host's, with its messages.
 */
#ifndef WT_BACKEND_CUDA_ASCENT_GRAPH_CUH
#define WT_BACKEND_CUDA_ASCENT_GRAPH_CUH

#include <cuda_runtime.h>

#include <cstdint>

#include "core/error.h"
#include "core/instance.h"

namespace wt_ascent_gpu {

/* The graph's distinct edges as increasing keys lo * n + hi on the
 * device, and the points their lengths come from. */
struct GraphKeys {
    int n = 0;
    int64_t m = 0;              /* distinct edges */
    uint64_t *d_keys = nullptr; /* m keys, increasing */
    double *d_x = nullptr, *d_y = nullptr;
    unsigned long long *d_long = nullptr; /* graph_edges' first edge too long */
    void *block = nullptr;      /* the one allocation behind them */
};

/* Whether the GPU builds inst's graph: planar points. */
bool graph_on_gpu(const wt_instance *inst);

/* The keys of n rows of k (wt_sgraph_create's rows) on stream s into
 * out.  INVALID_ARGUMENT for a city out of range, UNSUPPORTED for more
 * than WT_ONETREE_MAX_EDGES edges (the host's messages), OUT_OF_MEMORY
 * where the GPU's free memory is short (the caller builds the graph on
 * the host then), DEVICE.  graph_keys_free frees out, also after a
 * failure. */
wt_status graph_keys(const wt_instance *inst, const int32_t *rows, int k, cudaStream_t s,
                     GraphKeys &out, wt_error *err);
void graph_keys_free(GraphKeys &keys);

/* The edges of keys into device arrays of keys.m: their ends and 100 d.
 * UNSUPPORTED for an edge too long for the fixed point (the host's
 * message, its first such edge). */
wt_status graph_edges(const wt_instance *inst, const GraphKeys &keys, int32_t *eu, int32_t *ev,
                      int32_t *d100, cudaStream_t s, wt_error *err);

} // namespace wt_ascent_gpu

#endif
