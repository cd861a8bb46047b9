/*
 * cuda_grid.cuh - a uniform grid over an instance's planar points on the
 * GPU, for searches of the nearest cities around each city: the
 * candidate lists (cuda_neighbours.cu) and the complete graph's minimum
 * 1-tree (cuda_bound.cu).
 *
 * Square cells of side s over the points' bounding box, about two cities
 * a cell; the cities sorted by cell (cub::DeviceRadixSort, stable: a
 * cell's cities consecutive, in increasing city order), each cell's first
 * place by a count a cell and cub::DeviceScan, the largest count by
 * cub::DeviceReduce::Max.  A city r + 1 cells away from another's cell
 * lies more than r s - 2 delta away from it, delta covering the rounding
 * of the cells' computation (GRID_DELTA of a side).
 */
#ifndef WT_BACKEND_CUDA_GRID_CUH
#define WT_BACKEND_CUDA_GRID_CUH

#include <cstdint>

#include <cuda_runtime.h>

#include "core/error.h"
#include "core/instance.h"

namespace wt_grid {

/* The share of a side that bounds the rounding of a city's cell. */
constexpr double GRID_DELTA = 1e-6;

struct Grid {
    double min_x, min_y, side, inv_side;
    int gx, gy;
};

/* The grid's cell of (x, y), clamped into the grid. */
__device__ __forceinline__ int cell_of(const Grid &g, double x, double y)
{
    int cx = (int)floor(__dmul_rn(__dsub_rn(x, g.min_x), g.inv_side));
    int cy = (int)floor(__dmul_rn(__dsub_rn(y, g.min_y), g.inv_side));
    cx = cx < 0 ? 0 : (cx >= g.gx ? g.gx - 1 : cx);
    cy = cy < 0 ? 0 : (cy >= g.gy ? g.gy - 1 : cy);
    return cy * g.gx + cx;
}

/* The least separation along one axis of two cities whose cells lie
 * `cells` apart on it (0 for neighbouring or equal cells). */
__device__ __forceinline__ double cells_gap(const Grid &g, int cells)
{
    cells = cells < 0 ? -cells : cells;
    double gap = (cells - 1) * g.side - 2 * GRID_DELTA * g.side;
    return gap > 0 ? gap : 0;
}

/* The last ring worth reading around cell (cx, cy): the farthest the grid
 * reaches from it, in cells along x or y. */
__device__ __forceinline__ int last_ring(const Grid &g, int cx, int cy)
{
    int far_x = cx > g.gx - 1 - cx ? cx : g.gx - 1 - cx;
    int far_y = cy > g.gy - 1 - cy ? cy : g.gy - 1 - cy;
    return far_x > far_y ? far_x : far_y;
}

/* visit(c, dx, dy) for every cell c of the grid r cells away from (cx, cy)
 * along x or y (ring 0: the cell itself), (dx, dy) its offset. */
template <typename Visit>
__device__ __forceinline__ void ring_cells(const Grid &g, int cx, int cy, int r, Visit &&visit)
{
    for (int y = cy - r; y <= cy + r; y++) {
        if (y < 0 || y >= g.gy) continue;
        int step = (y == cy - r || y == cy + r) ? 1 : 2 * r; /* a side row, or its ends */
        for (int x = cx - r; x <= cx + r; x += step > 0 ? step : 1) {
            if (x >= 0 && x < g.gx) visit(y * g.gx + x, x - cx, y - cy);
            if (r == 0) return;
        }
    }
}

/* The device arrays of a grid, by sorted place: the cities (scity), their
 * coordinates (sx, sy) and cells (skey); start: cells + 1 first places. */
struct GridBuffers {
    Grid g{};
    int n = 0, most = 0;             /* cities; the largest cell's count */
    double *x = nullptr, *y = nullptr, *sx = nullptr, *sy = nullptr;
    int32_t *key = nullptr, *skey = nullptr, *city = nullptr, *scity = nullptr;
    int32_t *count = nullptr, *start = nullptr, *d_most = nullptr;
    void *temp = nullptr;
    void *block = nullptr;         /* the one allocation of the arrays above */
    cudaStream_t stream = nullptr; /* its own: other work on the device goes on */
};

/* The grid over inst's points, about two cities a cell; false where the
 * points' extent is not finite or the cells would not fit an int32. */
bool grid_of(const wt_instance *inst, Grid *g);

/* Builds grid g of inst on the current device into b (on a stream of its
 * own), b.most set, once the device's free memory takes the grid and
 * `extra` bytes more (the caller's arrays): else OUT_OF_MEMORY naming
 * `who`, the bytes needed and those free.  grid_close frees it, also after
 * a failure. */
wt_status grid_open(const wt_instance *inst, const Grid &g, size_t extra, const char *who,
                    GridBuffers &b, wt_error *err);
void grid_close(GridBuffers &b);

} // namespace wt_grid

#endif
