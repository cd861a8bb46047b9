/*
 * cuda_neighbours.cu - candidate lists on the GPU (the cuda backend's
 * neighbours slot, cuda_neighbours.h): each city's `wide` nearest cities by
 * the uniform grid of cuda_grid.cuh, and from them its k quadrant
 * neighbours, equal to the host's lists (core/neighbours.h: the k-d tree's
 * answers, ordered by (embedding distance, city), and wt_quadrant_pick)
 * bit for bit.
 *
 * A thread a city in the cells' order (a warp's cities are neighbours, so
 * they read the same cells): rings of cells around the city's own, ring r
 * every cell r cells away in x or y, each city of them offered to a sorted
 * list of the `wide` best by (distance, city) as the host's k-d tree
 * orders them, until the list is full and no city beyond the rings read
 * can be as near as its last.  Then the quadrant pick of
 * core/neighbours.c, on the quadrant recorded with each offer.
 * Hand-written: the search of a variable neighbourhood with a bounded
 * sorted list has no library primitive.  The distances are the k-d tree's
 * embedding (squared Euclidean, L1, L-infinity) in double with the same
 * IEEE operations as the host's, each rounded on its own (__dmul_rn,
 * __dadd_rn: no fused multiply-add), so that every comparison and every
 * tie comes out as on the host.
 *
 * Memory on the GPU: the grid's (cuda_grid.cuh: 48 bytes a city, 8 a
 * cell, CUB's scratch) and the rows, 4 k bytes a city; checked against
 * cudaMemGetInfo first.
 */
#include <cmath>
#include <cstdint>
#include <cstring>

#include "backend/cuda/cuda_common.cuh"
#include "backend/cuda/cuda_grid.cuh"
#include "backend/cuda/cuda_neighbours.h"
#include "core/instance.h"
#include "core/neighbours.h"
#include "core/search_ctl.h"

namespace {

using wt_grid::Grid;
using wt_grid::GridBuffers;

enum Metric { L2SQ, L1, LINF };

/* Cities a launch of queries: the slot polls ctl between launches. */
constexpr int QUERY_BATCH = 1 << 20;

/* The host's embedding distance (core/kdtree.c, combine), operation for
 * operation: (dx dx + dy dy) + 0 for the square, |dx| + |dy| + 0, and the
 * maximum of |dx|, |dy| and 0. */
__device__ __forceinline__ double embed_dist(Metric m, double qx, double qy, double px, double py)
{
    double dx = __dsub_rn(qx, px), dy = __dsub_rn(qy, py);
    if (m == L2SQ) return __dadd_rn(__dmul_rn(dx, dx), __dmul_rn(dy, dy));
    dx = fabs(dx);
    dy = fabs(dy);
    if (m == L1) return __dadd_rn(dx, dy);
    return dx > dy ? dx : dy;
}

/* The embedding distance of a gap of g along one axis, the least any city
 * beyond the rings read can have. */
__device__ __forceinline__ double gap_dist(Metric m, double g)
{
    return m == L2SQ ? __dmul_rn(g, g) : g;
}

/* Offers (d, c, q) to the sorted list of *found of at most wide entries,
 * as the host's k-d tree (kdtree.c, offer): by distance, ties to the lower
 * city. */
__device__ __forceinline__ void offer(double *bd, int32_t *bc, uint8_t *bq, int *found, int wide,
                                      double d, int32_t c, uint8_t q)
{
    if (*found == wide &&
        !(d < bd[wide - 1] || (d == bd[wide - 1] && c < bc[wide - 1])))
        return;
    int i = *found < wide ? (*found)++ : wide - 1;
    while (i > 0 && (d < bd[i - 1] || (d == bd[i - 1] && c < bc[i - 1]))) {
        bd[i] = bd[i - 1];
        bc[i] = bc[i - 1];
        bq[i] = bq[i - 1];
        i--;
    }
    bd[i] = d;
    bc[i] = c;
    bq[i] = q;
}

/* The rows of the cities at sorted places [begin, end): the `wide` nearest,
 * then (pick) the k quadrant neighbours among them as wt_quadrant_pick
 * chooses, or (not pick, wide == k) the nearest themselves. */
__global__ void query_kernel(const double *sx, const double *sy, const int32_t *scity,
                             const int32_t *skey, const int32_t *start, Grid g, Metric m,
                             int wide, int k, bool pick, int32_t *out, int begin, int end)
{
    int i = begin + blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= end) return;
    double bd[WT_CUDA_NEIGHBOURS_WIDE_MAX];
    int32_t bc[WT_CUDA_NEIGHBOURS_WIDE_MAX];
    uint8_t bq[WT_CUDA_NEIGHBOURS_WIDE_MAX];
    int found = 0;
    const int32_t self = scity[i];
    const double qx = sx[i], qy = sy[i];
    const int cell = skey[i], cx = cell % g.gx, cy = cell / g.gx;
    const int last = wt_grid::last_ring(g, cx, cy);
    const double delta = wt_grid::GRID_DELTA * g.side;
    for (int r = 0; r <= last; r++) {
        wt_grid::ring_cells(g, cx, cy, r, [&](int c, int, int) {
            for (int j = start[c]; j < start[c + 1]; j++) {
                int32_t p = scity[j];
                if (p == self) continue;
                double px = sx[j], py = sy[j];
                uint8_t q = (uint8_t)((px < qx) + 2 * (py < qy));
                offer(bd, bc, bq, &found, wide, embed_dist(m, qx, qy, px, py), p, q);
            }
        });
        double gap = r * g.side - 2 * delta;
        if (found == wide && gap > 0 && gap_dist(m, gap) > bd[wide - 1]) break;
    }
    int32_t *row = out + (size_t)self * (size_t)k;
    if (!pick) {
        for (int x = 0; x < k; x++) row[x] = x < found ? bc[x] : -1;
        return;
    }
    /* wt_quadrant_pick (core/neighbours.c), on the recorded quadrants */
    int per = k / 4 > 0 ? k / 4 : 1, in_q[4] = {0, 0, 0, 0}, taken = 0;
    bool chosen[WT_CUDA_NEIGHBOURS_WIDE_MAX];
    for (int x = 0; x < found; x++) chosen[x] = false;
    for (int x = 0; x < found && taken < k; x++)
        if (in_q[bq[x]] < per) {
            in_q[bq[x]]++;
            chosen[x] = true;
            taken++;
        }
    for (int x = 0; x < found && taken < k; x++)
        if (!chosen[x]) {
            chosen[x] = true;
            taken++;
        }
    int at = 0;
    for (int x = 0; x < found && at < k; x++)
        if (chosen[x]) row[at++] = bc[x];
    while (at < k) row[at++] = -1;
}

bool metric_of(wt_edge_weight_type type, Metric *m)
{
    switch (type) {
    case WT_EUC_2D:
    case WT_CEIL_2D:
    case WT_ATT: *m = L2SQ; return true;
    case WT_MAN_2D: *m = L1; return true;
    case WT_MAX_2D: *m = LINF; return true;
    default: return false;
    }
}

/* The rows of every city into nb, in launches of QUERY_BATCH cities with
 * ctl polled between them. */
wt_status run_queries(const GridBuffers &b, Metric m, int wide, int k, bool pick, int32_t *out,
                      int32_t *nb, wt_search_ctl *ctl, bool *stopped, wt_error *err)
{
    const int threads = 128, n = b.n;
    for (int begin = 0; begin < n; begin += QUERY_BATCH) {
        if (ctl && wt_ctl_expired(ctl)) {
            *stopped = true;
            return WT_OK;
        }
        int end = n - begin > QUERY_BATCH ? begin + QUERY_BATCH : n;
        int blocks = (end - begin + threads - 1) / threads;
        query_kernel<<<blocks, threads, 0, b.stream>>>(b.sx, b.sy, b.scity, b.skey, b.start, b.g,
                                                       m, wide, k, pick, out, begin, end);
        WT_CUDA_CHECK(err, cudaGetLastError());
        WT_CUDA_CHECK(err, cudaStreamSynchronize(b.stream));
    }
    WT_CUDA_CHECK(err, cudaMemcpyAsync(nb, out, (size_t)n * (size_t)k * sizeof(int32_t),
                                       cudaMemcpyDeviceToHost, b.stream));
    WT_CUDA_CHECK(err, cudaStreamSynchronize(b.stream));
    return WT_OK;
}

wt_status neighbours_on(int device, const wt_instance *inst, const Grid &g, Metric m, int wide,
                        int k, bool pick, int32_t *nb, wt_search_ctl *ctl, bool *stopped,
                        GridBuffers &b, int32_t **out, wt_error *err)
{
    size_t rows = (size_t)inst->n * (size_t)k * sizeof(int32_t);
    WT_CUDA_CHECK(err, cudaSetDevice(device));
    wt_status st = grid_open(inst, g, rows, "neighbours", b, err);
    if (st != WT_OK) return st;
    if (b.most > WT_CUDA_NEIGHBOURS_CELL_MAX)
        return wt_fail(err, WT_STATUS_UNSUPPORTED,
                       "neighbours: a grid cell holds %d cities (more than %d): the layout is "
                       "too uneven for the GPU's grid",
                       b.most, WT_CUDA_NEIGHBOURS_CELL_MAX);
    WT_CUDA_CHECK(err, cudaMalloc((void **)out, rows));
    return run_queries(b, m, wide, k, pick, *out, nb, ctl, stopped, err);
}

} // namespace

extern "C" wt_status wt_cuda_neighbours(const wt_device *dev, const wt_instance *inst, int k,
                                        bool quadrant, int32_t *nb, wt_search_ctl *ctl,
                                        bool *stopped, wt_error *err)
{
    if (!dev || !inst || !nb || !stopped || k < 1 || k >= inst->n)
        return wt_fail(err, WT_STATUS_INVALID_ARGUMENT, "neighbours: bad arguments");
    *stopped = false;
    Metric m;
    if (!metric_of(inst->type, &m) || !inst->x || !inst->y)
        return wt_fail(err, WT_STATUS_UNSUPPORTED,
                       "neighbours: the GPU lists planar coordinates only");
    int wide = k;
    bool pick = quadrant && wt_quadrant_planar(inst) && wt_quadrant_wide(inst->n, k) > k;
    if (pick) wide = wt_quadrant_wide(inst->n, k);
    if (wide > WT_CUDA_NEIGHBOURS_WIDE_MAX)
        return wt_fail(err, WT_STATUS_UNSUPPORTED,
                       "neighbours: rows from %d nearest (the GPU takes %d)", wide,
                       WT_CUDA_NEIGHBOURS_WIDE_MAX);
    Grid g;
    if (!wt_grid::grid_of(inst, &g))
        return wt_fail(err, WT_STATUS_UNSUPPORTED, "neighbours: no grid fits the points' extent");
    GridBuffers b;
    int32_t *out = nullptr;
    wt_status st =
        neighbours_on(dev->index, inst, g, m, wide, k, pick, nb, ctl, stopped, b, &out, err);
    cudaFree(out);
    wt_grid::grid_close(b);
    return st;
}
