/*
 * cuda_grid.cu - the uniform grid of cuda_grid.cuh: its cells, the cities
 * sorted by cell and each cell's first place.
 */
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>

#include <cmath>

#include "backend/cuda/cuda_common.cuh"
#include "backend/cuda/cuda_grid.cuh"
#include "backend/cuda/device_arena.cuh"

namespace wt_grid {
namespace {

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

int key_bits_of(const Grid &g)
{
    int cells = g.gx * g.gy, bits = 1;
    while (bits < 31 && (1 << bits) < cells) bits++;
    return bits;
}

/* CUB's scratch for the sort, the scan and the maximum. */
wt_status temp_bytes(int n, const Grid &g, size_t *bytes, wt_error *err)
{
    int cells = g.gx * g.gy;
    size_t sort = 0, scan = 0, most = 0;
    WT_CUDA_CHECK(err, cub::DeviceRadixSort::SortPairs(nullptr, sort, (const int32_t *)nullptr,
                                                       (int32_t *)nullptr,
                                                       (const int32_t *)nullptr,
                                                       (int32_t *)nullptr, n, 0, key_bits_of(g)));
    WT_CUDA_CHECK(err, cub::DeviceScan::ExclusiveSum(nullptr, scan, (const int32_t *)nullptr,
                                                     (int32_t *)nullptr, cells + 1));
    WT_CUDA_CHECK(err, cub::DeviceReduce::Max(nullptr, most, (const int32_t *)nullptr,
                                              (int32_t *)nullptr, cells));
    *bytes = sort > scan ? sort : scan;
    if (most > *bytes) *bytes = most;
    return WT_OK;
}

/* The grid's arrays in one block (device_arena.cuh). */
wt_status allocate(int n, const Grid &g, size_t temp, GridBuffers &b, wt_error *err)
{
    int64_t cells = (int64_t)g.gx * g.gy;
    wt_cuda::ArenaPlan plan;
    double **coords[] = {&b.x, &b.y, &b.sx, &b.sy};
    for (double **a : coords) plan.add(a, n);
    int32_t **city_arrays[] = {&b.key, &b.skey, &b.city, &b.scity};
    for (int32_t **a : city_arrays) plan.add(a, n);
    plan.add(&b.count, cells + 1);
    plan.add(&b.start, cells + 1);
    plan.add(&b.d_most, 1);
    plan.add_bytes(&b.temp, temp);
    WT_CUDA_CHECK(err, plan.allocate(&b.block));
    return WT_OK;
}

} // namespace

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

wt_status grid_open(const wt_instance *inst, const Grid &g, size_t extra, const char *who,
                    GridBuffers &b, wt_error *err)
{
    int n = inst->n, cells = g.gx * g.gy, threads = 256;
    b.g = g;
    b.n = n;
    WT_CUDA_CHECK(err, cudaStreamCreateWithFlags(&b.stream, cudaStreamNonBlocking));
    size_t temp = 0;
    wt_status st = temp_bytes(n, g, &temp, err);
    if (st != WT_OK) return st;
    size_t need = (size_t)n * 48 + (size_t)(cells + 1) * 8 + temp + extra, free_b = 0,
           total_b = 0;
    WT_CUDA_CHECK(err, cudaMemGetInfo(&free_b, &total_b));
    if (need > free_b)
        return wt_fail(err, WT_STATUS_OUT_OF_MEMORY,
                       "%s: %d cities need %zu bytes of GPU memory; %zu of %zu are free", who, n,
                       need, free_b, total_b);
    st = allocate(n, g, temp, b, err);
    if (st != WT_OK) return st;
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
                                                       b.scity, n, 0, key_bits_of(g), s));
    bytes = temp;
    WT_CUDA_CHECK(err, cub::DeviceReduce::Max(b.temp, bytes, b.count, b.d_most, cells, s));
    bytes = temp;
    WT_CUDA_CHECK(err,
                  cub::DeviceScan::ExclusiveSum(b.temp, bytes, b.count, b.start, cells + 1, s));
    gather_kernel<<<blocks, threads, 0, s>>>(b.x, b.y, b.scity, b.sx, b.sy, n);
    WT_CUDA_CHECK(err, cudaGetLastError());
    WT_CUDA_CHECK(err, cudaMemcpyAsync(&b.most, b.d_most, sizeof(int32_t), cudaMemcpyDeviceToHost, s));
    WT_CUDA_CHECK(err, cudaStreamSynchronize(s));
    return WT_OK;
}

void grid_close(GridBuffers &b)
{
    if (b.block) cudaFree(b.block);
    if (b.stream) cudaStreamDestroy(b.stream);
    b = GridBuffers{};
}

} // namespace wt_grid
