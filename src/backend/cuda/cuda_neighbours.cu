/*
 * cuda_neighbours.cu - candidate lists on the GPU (the cuda backend's
 * neighbours slot, cuda_neighbours.h): each city's `wide` nearest cities by
 * a uniform grid, and from them its k quadrant neighbours, equal to the
 * host's lists (core/neighbours.h: the k-d tree's answers, ordered by
 * (embedding distance, city), and wt_quadrant_pick) bit for bit.
 *
 *   1. the grid: square cells of side s over the points' bounding box,
 *      about two cities a cell; each city's cell as an int32 key.
 *   2. cub::DeviceRadixSort (stable) of (cell, city) pairs: the cities of
 *      a cell consecutive and in increasing city order; a cell's first
 *      place by a count a cell (atomics) and cub::DeviceScan; the largest
 *      count by cub::DeviceReduce::Max, against WT_CUDA_NEIGHBOURS_CELL_MAX.
 *   3. the queries, a thread a city in the cells' order (a warp's cities
 *      are neighbours, so they read the same cells): rings of cells
 *      around the city's own, ring r every cell r cells away in x or y,
 *      each city of them offered to a sorted list of the `wide` best by
 *      (distance, city) as the host's k-d tree orders them, until the list
 *      is full and no city beyond the rings read can be as near as its
 *      last (a city r + 1 cells away lies more than r s - 2 delta away,
 *      delta covering the rounding of the cell's computation).  Then the
 *      quadrant pick of core/neighbours.c, on the quadrant recorded with
 *      each offer.  Hand-written: the search of a variable neighbourhood
 *      with a bounded sorted list has no library primitive.
 * The distances are the k-d tree's embedding (squared Euclidean, L1,
 * L-infinity) in double with the same IEEE operations as the host's,
 * each rounded on its own (__dmul_rn, __dadd_rn: no fused multiply-add),
 * so that every comparison and every tie comes out as on the host.
 *
 * Memory on the GPU: 48 + 4 k bytes a city (coordinates twice, keys and
 * cities twice, the rows) and 8 bytes a cell, plus CUB's scratch; checked
 * against cudaMemGetInfo first.
 */
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>

#include <cmath>
#include <cstdint>
#include <cstring>

#include "backend/cuda/cuda_common.cuh"
#include "backend/cuda/cuda_neighbours.h"
#include "core/instance.h"
#include "core/neighbours.h"
#include "core/search_ctl.h"

namespace {

enum Metric { L2SQ, L1, LINF };

/* Cities a launch of queries: the slot polls ctl between launches. */
constexpr int QUERY_BATCH = 1 << 20;

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

__global__ void cell_kernel(const double *x, const double *y, Grid g, int32_t *key,
                            int32_t *city, int32_t *count, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        int c = cell_of(g, x[i], y[i]);
        key[i] = c;
        city[i] = i;
        atomicAdd(&count[c], 1);
    }
}

__global__ void gather_kernel(const double *x, const double *y, const int32_t *city, double *sx,
                              double *sy, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        sx[i] = x[city[i]];
        sy[i] = y[city[i]];
    }
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
    int far_x = cx > g.gx - 1 - cx ? cx : g.gx - 1 - cx;
    int far_y = cy > g.gy - 1 - cy ? cy : g.gy - 1 - cy;
    const int last_ring = far_x > far_y ? far_x : far_y;
    const double delta = 1e-6 * g.side;
    for (int r = 0; r <= last_ring; r++) {
        for (int y = cy - r; y <= cy + r; y++) {
            if (y < 0 || y >= g.gy) continue;
            bool edge_row = y == cy - r || y == cy + r;
            for (int x = cx - r; x <= cx + r; x += edge_row ? 1 : 2 * r) {
                if (x >= 0 && x < g.gx) {
                    int c = y * g.gx + x;
                    for (int j = start[c]; j < start[c + 1]; j++) {
                        int32_t p = scity[j];
                        if (p == self) continue;
                        double px = sx[j], py = sy[j];
                        uint8_t q = (uint8_t)((px < qx) + 2 * (py < qy));
                        offer(bd, bc, bq, &found, wide, embed_dist(m, qx, qy, px, py), p, q);
                    }
                }
                if (r == 0) break;
            }
        }
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

/* The grid over inst's points, about two cities a cell; false where the
 * points' extent is not finite or the cells would not fit an int32. */
bool grid_of(const wt_instance *inst, Grid *g)
{
    int n = inst->n;
    double lx = inst->x[0], hx = lx, ly = inst->y[0], hy = ly;
    for (int i = 1; i < n; i++) {
        lx = fmin(lx, inst->x[i]);
        hx = fmax(hx, inst->x[i]);
        ly = fmin(ly, inst->y[i]);
        hy = fmax(hy, inst->y[i]);
    }
    double w = hx - lx, h = hy - ly, cells = n / 2.0 > 1 ? n / 2.0 : 1;
    if (!std::isfinite(w) || !std::isfinite(h)) return false;
    /* at least the longer side over the cells, so that a thin strip of
     * points gets no more than about three cells a city either */
    double side = fmax(sqrt(w * h / cells), fmax(w, h) / cells);
    if (!(side > 0)) side = 1; /* every point alike: one cell */
    double gx = floor(w / side) + 1, gy = floor(h / side) + 1;
    if (gx * gy > (double)(1 << 30)) return false;
    *g = Grid{lx, ly, side, 1.0 / side, (int)gx, (int)gy};
    return true;
}

/* The device arrays of one call, freed by close_all. */
struct Buffers {
    double *x = nullptr, *y = nullptr, *sx = nullptr, *sy = nullptr;
    int32_t *key = nullptr, *skey = nullptr, *city = nullptr, *scity = nullptr;
    int32_t *count = nullptr, *start = nullptr, *out = nullptr, *most = nullptr;
    void *temp = nullptr;
    cudaStream_t stream = nullptr; /* its own: other work on the device goes on */
    void close_all()
    {
        void *all[] = {x, y, sx, sy, key, skey, city, scity, count, start, out, most, temp};
        for (void *p : all) cudaFree(p);
        if (stream) cudaStreamDestroy(stream);
    }
};

/* CUB's scratch for the sort, the scan and the maximum of this call. */
wt_status temp_bytes(int n, int cells, int key_bits, size_t *bytes, wt_error *err)
{
    size_t sort = 0, scan = 0, most = 0;
    WT_CUDA_CHECK(err, cub::DeviceRadixSort::SortPairs(nullptr, sort, (const int32_t *)nullptr,
                                                       (int32_t *)nullptr,
                                                       (const int32_t *)nullptr,
                                                       (int32_t *)nullptr, n, 0, key_bits));
    WT_CUDA_CHECK(err, cub::DeviceScan::ExclusiveSum(nullptr, scan, (const int32_t *)nullptr,
                                                     (int32_t *)nullptr, cells + 1));
    WT_CUDA_CHECK(err, cub::DeviceReduce::Max(nullptr, most, (const int32_t *)nullptr,
                                              (int32_t *)nullptr, cells));
    *bytes = sort > scan ? sort : scan;
    if (most > *bytes) *bytes = most;
    return WT_OK;
}

template <typename T> cudaError_t alloc(T **p, size_t count)
{
    return cudaMalloc((void **)p, (count > 0 ? count : 1) * sizeof(T));
}

/* Steps 1 and 2: the sorted cities and the cells' first places on the
 * device; *most the largest cell's count. */
wt_status build_grid(const wt_instance *inst, const Grid &g, int key_bits, Buffers &b,
                     size_t temp, int *most, wt_error *err)
{
    int n = inst->n, cells = g.gx * g.gy, threads = 256;
    int blocks = (n + threads - 1) / threads < 65535 ? (n + threads - 1) / threads : 65535;
    cudaStream_t s = b.stream;
    size_t row = (size_t)n * sizeof(double);
    WT_CUDA_CHECK(err, cudaMemcpyAsync(b.x, inst->x, row, cudaMemcpyHostToDevice, s));
    WT_CUDA_CHECK(err, cudaMemcpyAsync(b.y, inst->y, row, cudaMemcpyHostToDevice, s));
    WT_CUDA_CHECK(err, cudaMemsetAsync(b.count, 0, (size_t)(cells + 1) * sizeof(int32_t), s));
    cell_kernel<<<blocks, threads, 0, s>>>(b.x, b.y, g, b.key, b.city, b.count, n);
    WT_CUDA_CHECK(err, cudaGetLastError());
    size_t bytes = temp;
    WT_CUDA_CHECK(err, cub::DeviceRadixSort::SortPairs(b.temp, bytes, b.key, b.skey, b.city,
                                                       b.scity, n, 0, key_bits, s));
    bytes = temp;
    WT_CUDA_CHECK(err, cub::DeviceReduce::Max(b.temp, bytes, b.count, b.most, cells, s));
    bytes = temp;
    WT_CUDA_CHECK(err,
                  cub::DeviceScan::ExclusiveSum(b.temp, bytes, b.count, b.start, cells + 1, s));
    gather_kernel<<<blocks, threads, 0, s>>>(b.x, b.y, b.scity, b.sx, b.sy, n);
    WT_CUDA_CHECK(err, cudaGetLastError());
    WT_CUDA_CHECK(err, cudaMemcpyAsync(most, b.most, sizeof(int32_t), cudaMemcpyDeviceToHost, s));
    WT_CUDA_CHECK(err, cudaStreamSynchronize(s));
    return WT_OK;
}

/* Step 3, in launches of QUERY_BATCH cities with ctl polled between them,
 * and the rows back into nb. */
wt_status run_queries(const Grid &g, Metric m, int n, int wide, int k, bool pick, Buffers &b,
                      int32_t *nb, wt_search_ctl *ctl, bool *stopped, wt_error *err)
{
    const int threads = 128;
    for (int begin = 0; begin < n; begin += QUERY_BATCH) {
        if (ctl && wt_ctl_expired(ctl)) {
            *stopped = true;
            return WT_OK;
        }
        int end = n - begin > QUERY_BATCH ? begin + QUERY_BATCH : n;
        int blocks = (end - begin + threads - 1) / threads;
        query_kernel<<<blocks, threads, 0, b.stream>>>(b.sx, b.sy, b.scity, b.skey, b.start, g,
                                                       m, wide, k, pick, b.out, begin, end);
        WT_CUDA_CHECK(err, cudaGetLastError());
        WT_CUDA_CHECK(err, cudaStreamSynchronize(b.stream));
    }
    WT_CUDA_CHECK(err, cudaMemcpyAsync(nb, b.out, (size_t)n * (size_t)k * sizeof(int32_t),
                                       cudaMemcpyDeviceToHost, b.stream));
    WT_CUDA_CHECK(err, cudaStreamSynchronize(b.stream));
    return WT_OK;
}

wt_status neighbours_on(int device, const wt_instance *inst, const Grid &g, Metric m, int wide,
                        int k, bool pick, int32_t *nb, wt_search_ctl *ctl, bool *stopped,
                        Buffers &b, wt_error *err)
{
    int n = inst->n, cells = g.gx * g.gy, key_bits = 1;
    while (key_bits < 31 && (1 << key_bits) < cells) key_bits++;
    WT_CUDA_CHECK(err, cudaSetDevice(device));
    WT_CUDA_CHECK(err, cudaStreamCreateWithFlags(&b.stream, cudaStreamNonBlocking));
    size_t temp = 0;
    wt_status st = temp_bytes(n, cells, key_bits, &temp, err);
    if (st != WT_OK) return st;
    size_t need = (size_t)n * (48 + 4 * (size_t)k) + (size_t)(cells + 1) * 8 + temp, free_b = 0,
           total_b = 0;
    WT_CUDA_CHECK(err, cudaMemGetInfo(&free_b, &total_b));
    if (need > free_b)
        return wt_fail(err, WT_STATUS_OUT_OF_MEMORY,
                       "neighbours: %d cities need %zu bytes of GPU memory; %zu of %zu are free",
                       n, need, free_b, total_b);
    WT_CUDA_CHECK(err, alloc(&b.x, n));
    WT_CUDA_CHECK(err, alloc(&b.y, n));
    WT_CUDA_CHECK(err, alloc(&b.sx, n));
    WT_CUDA_CHECK(err, alloc(&b.sy, n));
    int32_t **city_arrays[] = {&b.key, &b.skey, &b.city, &b.scity};
    for (int32_t **a : city_arrays) WT_CUDA_CHECK(err, alloc(a, n));
    WT_CUDA_CHECK(err, alloc(&b.count, (size_t)cells + 1));
    WT_CUDA_CHECK(err, alloc(&b.start, (size_t)cells + 1));
    WT_CUDA_CHECK(err, alloc(&b.most, 1));
    WT_CUDA_CHECK(err, alloc(&b.out, (size_t)n * (size_t)k));
    WT_CUDA_CHECK(err, cudaMalloc(&b.temp, temp > 0 ? temp : 1));
    int most = 0;
    st = build_grid(inst, g, key_bits, b, temp, &most, err);
    if (st != WT_OK) return st;
    if (most > WT_CUDA_NEIGHBOURS_CELL_MAX)
        return wt_fail(err, WT_STATUS_UNSUPPORTED,
                       "neighbours: a grid cell holds %d cities (more than %d): the layout is "
                       "too uneven for the GPU's grid",
                       most, WT_CUDA_NEIGHBOURS_CELL_MAX);
    return run_queries(g, m, n, wide, k, pick, b, nb, ctl, stopped, err);
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
    if (!grid_of(inst, &g))
        return wt_fail(err, WT_STATUS_UNSUPPORTED, "neighbours: no grid fits the points' extent");
    Buffers b;
    wt_status st = neighbours_on(dev->index, inst, g, m, wide, k, pick, nb, ctl, stopped, b, err);
    b.close_all();
    return st;
}
