/*
 * cuda_ascent_graph.cu - the ascent's sparse graph on the GPU
 * (cuda_ascent_graph.cuh says what and why).
 */
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_select.cuh>

#include "backend/cuda/cuda_ascent_graph.cuh"
#include "backend/cuda/cuda_common.cuh"
#include "backend/cuda/device_arena.cuh"
#include "backend/cuda/device_instance.cuh"
#include "core/onetree.h"

namespace wt_ascent_gpu {
namespace {

constexpr int THREADS = 256;
constexpr unsigned long long NO_ENTRY = ~0ull; /* no bad row entry, no long edge */

int blocks_of(int64_t count)
{
    int64_t b = (count + THREADS - 1) / THREADS;
    return (int)(b < 1 ? 1 : b > 65535 ? 65535 : b);
}

int bits_of(uint64_t v)
{
    int b = 0;
    for (; v; v >>= 1) b++;
    return b;
}

/* Row i's entries as keys lo * n + hi, none (n^2) past the row's end
 * (its first negative entry), for the row's own city and for a city out
 * of range, whose first place (row-major) goes into *bad. */
__global__ void keys_kernel(const int32_t *rows, int n, int k, uint64_t *keys,
                            unsigned long long *bad)
{
    uint64_t none = (uint64_t)n * (uint64_t)n;
    for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n;
         i += (int64_t)gridDim.x * blockDim.x) {
        bool ended = false;
        for (int r = 0; r < k; r++) {
            int64_t at = i * k + r;
            int32_t j = rows[at];
            ended = ended || j < 0;
            uint64_t key = none;
            if (!ended && j >= n) atomicMin(bad, (unsigned long long)at);
            else if (!ended && j != i) {
                uint64_t a = (uint64_t)(i < j ? i : j), b = (uint64_t)(i < j ? j : i);
                key = a * (uint64_t)n + b;
            }
            keys[at] = key;
        }
    }
}

/* Each edge's ends and 100 d; the first edge too long for the fixed point
 * into *long_edge. */
__global__ void edges_kernel(const uint64_t *keys, int64_t m, int n, const double *x,
                             const double *y, wt_edge_weight_type type, int32_t *eu, int32_t *ev,
                             int32_t *d100, unsigned long long *long_edge)
{
    for (int64_t e = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; e < m;
         e += (int64_t)gridDim.x * blockDim.x) {
        int32_t a = (int32_t)(keys[e] / (uint64_t)n), b = (int32_t)(keys[e] % (uint64_t)n);
        int64_t d = WT_ONETREE_SCALE *
                    dev_planar_dist(type, __dsub_rn(x[a], x[b]), __dsub_rn(y[a], y[b]));
        if (d > WT_ONETREE_D100_MAX || d < 0) atomicMin(long_edge, (unsigned long long)e);
        eu[e] = a;
        ev[e] = b;
        d100[e] = (int32_t)d;
    }
}

/* What graph_keys reads back: the first bad entry, the distinct keys'
 * count and the last of them (the none key where some entry was none). */
struct KeysBack {
    unsigned long long bad;
    int64_t count;
    uint64_t last;
};

} // namespace

bool graph_on_gpu(const wt_instance *inst)
{
    return wt_is_planar(inst->type) && inst->x && inst->y && inst->n >= 2;
}

void graph_keys_free(GraphKeys &keys)
{
    if (keys.block) cudaFree(keys.block);
    keys = GraphKeys{};
}

wt_status graph_keys(const wt_instance *inst, const int32_t *rows, int k, cudaStream_t s,
                     GraphKeys &out, wt_error *err)
{
    int n = inst->n;
    int64_t slots = (int64_t)n * k;
    uint64_t none = (uint64_t)n * (uint64_t)n;
    int end_bit = bits_of(none);
    out.n = n;
    /* CUB's scratch for the sort and the unique pass over `slots` keys */
    size_t sort_temp = 0, unique_temp = 0;
    cub::DoubleBuffer<uint64_t> buf(nullptr, nullptr);
    WT_CUDA_CHECK(err, cub::DeviceRadixSort::SortKeys(nullptr, sort_temp, buf, slots, 0, end_bit, s));
    WT_CUDA_CHECK(err, cub::DeviceSelect::Unique(nullptr, unique_temp, (uint64_t *)nullptr,
                                                 (uint64_t *)nullptr, (int64_t *)nullptr, slots,
                                                 s));
    size_t temp = sort_temp > unique_temp ? sort_temp : unique_temp;
    int32_t *d_rows = nullptr;
    uint64_t *d_a = nullptr, *d_b = nullptr;
    KeysBack *d_back = nullptr;
    void *d_temp = nullptr;
    wt_cuda::ArenaPlan plan;
    plan.add(&d_rows, slots);
    plan.add(&d_a, slots);
    plan.add(&d_b, slots);
    plan.add(&out.d_x, n);
    plan.add(&out.d_y, n);
    plan.add(&d_back, 1);
    plan.add(&out.d_long, 1);
    plan.add_bytes(&d_temp, temp);
    size_t free_b = 0, total_b = 0;
    WT_CUDA_CHECK(err, cudaMemGetInfo(&free_b, &total_b));
    if (plan.bytes() > free_b)
        return wt_fail(err, WT_STATUS_OUT_OF_MEMORY,
                       "ascent: the graph of %d cities needs %zu bytes of GPU memory; %zu of %zu "
                       "are free",
                       n, plan.bytes(), free_b, total_b);
    WT_CUDA_CHECK(err, plan.allocate(&out.block));
    KeysBack init = {NO_ENTRY, 0, 0};
    WT_CUDA_CHECK(err, cudaMemcpyAsync(d_back, &init, sizeof init, cudaMemcpyHostToDevice, s));
    WT_CUDA_CHECK(err, cudaMemcpyAsync(out.d_long, &init.bad, sizeof init.bad,
                                       cudaMemcpyHostToDevice, s));
    WT_CUDA_CHECK(err, cudaMemcpyAsync(d_rows, rows, (size_t)slots * sizeof *rows,
                                       cudaMemcpyHostToDevice, s));
    WT_CUDA_CHECK(err, cudaMemcpyAsync(out.d_x, inst->x, (size_t)n * sizeof(double),
                                       cudaMemcpyHostToDevice, s));
    WT_CUDA_CHECK(err, cudaMemcpyAsync(out.d_y, inst->y, (size_t)n * sizeof(double),
                                       cudaMemcpyHostToDevice, s));
    keys_kernel<<<blocks_of(n), THREADS, 0, s>>>(d_rows, n, k, d_a, &d_back->bad);
    WT_CUDA_CHECK(err, cudaGetLastError());
    buf = cub::DoubleBuffer<uint64_t>(d_a, d_b);
    size_t bytes = temp;
    WT_CUDA_CHECK(err, cub::DeviceRadixSort::SortKeys(d_temp, bytes, buf, slots, 0, end_bit, s));
    uint64_t *sorted = buf.Current(), *distinct = buf.Alternate();
    bytes = temp;
    WT_CUDA_CHECK(err, cub::DeviceSelect::Unique(d_temp, bytes, sorted, distinct, &d_back->count,
                                                 slots, s));
    KeysBack back;
    WT_CUDA_CHECK(err, cudaMemcpyAsync(&back, d_back, sizeof back, cudaMemcpyDeviceToHost, s));
    WT_CUDA_CHECK(err, cudaStreamSynchronize(s));
    if (back.bad != NO_ENTRY) return wt_sgraph_bad_row(rows, k, (int64_t)back.bad, n, err);
    if (back.count > 0)
        WT_CUDA_CHECK(err, cudaMemcpyAsync(&back.last, distinct + back.count - 1,
                                           sizeof back.last, cudaMemcpyDeviceToHost, s));
    WT_CUDA_CHECK(err, cudaStreamSynchronize(s));
    out.m = back.count - (back.count > 0 && back.last == none ? 1 : 0);
    out.d_keys = distinct;
    return wt_sgraph_edges_fit(out.m, err);
}

wt_status graph_edges(const wt_instance *inst, const GraphKeys &keys, int32_t *eu, int32_t *ev,
                      int32_t *d100, cudaStream_t s, wt_error *err)
{
    edges_kernel<<<blocks_of(keys.m), THREADS, 0, s>>>(keys.d_keys, keys.m, keys.n, keys.d_x,
                                                      keys.d_y, inst->type, eu, ev, d100,
                                                      keys.d_long);
    WT_CUDA_CHECK(err, cudaGetLastError());
    unsigned long long long_edge = NO_ENTRY;
    WT_CUDA_CHECK(err, cudaMemcpyAsync(&long_edge, keys.d_long, sizeof long_edge,
                                       cudaMemcpyDeviceToHost, s));
    WT_CUDA_CHECK(err, cudaStreamSynchronize(s));
    if (long_edge == NO_ENTRY) return WT_OK;
    uint64_t key = 0;
    WT_CUDA_CHECK(err, cudaMemcpyAsync(&key, keys.d_keys + long_edge, sizeof key,
                                       cudaMemcpyDeviceToHost, s));
    WT_CUDA_CHECK(err, cudaStreamSynchronize(s));
    return wt_sgraph_too_long(inst, (int)(key / (uint64_t)keys.n), (int)(key % (uint64_t)keys.n),
                              err);
}

} // namespace wt_ascent_gpu
