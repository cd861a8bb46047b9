/*
 * pass_full.cu - the full 2-opt pass: the row blocks' column ranges, laid
 * end to end, cut into shares of equal cost, one per resident warp
 * (pass_loop.cuh says how a warp scans its share).
 */
#include "backend/cuda/pass_full.cuh"
#include "backend/cuda/pass_loop.cuh"

namespace {

/* A place in the pair space: row block I, its column offset o (column
 * I*wr + 2 + o). */
struct ColumnPos {
    int I, o;
};

/* The first column whose cost starts at or after c (c <= the total). */
__device__ __forceinline__ ColumnPos column_at_cost(int n, int wr, long long c)
{
    int lo = 0, hi = row_blocks(n, wr) - 1;
    while (lo < hi) {
        int mid = (lo + hi + 1) / 2;
        if (cost_before(n, wr, mid) <= c) lo = mid;
        else hi = mid - 1;
    }
    long long r = c - cost_before(n, wr, lo), m = block_masked(n, wr, lo);
    long long o = r <= MASKED_COST * m ? (r + MASKED_COST - 1) / MASKED_COST
                                       : m + (r - MASKED_COST * m + PLAIN_COST - 1) / PLAIN_COST;
    return ColumnPos{lo, (int)min(o, (long long)block_columns(n, wr, lo))};
}

template <class M, int R, int PERIOD>
__global__ void __launch_bounds__(PassBounds<R>::threads, PassBounds<R>::blocks)
    pass_warp_kernel(PassArgs<M> a, int warps, long long cost)
{
    let_dependents_launch();
    const int n = a.n;
    const long long w = (long long)blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
    if (w >= warps) return; /* whole warps */
    constexpr int WR = 32 * R;
    ColumnPos at = column_at_cost(n, WR, w * cost / warps);
    const ColumnPos end = column_at_cost(n, WR, (w + 1) * cost / warps);
    while (at.I < end.I || (at.I == end.I && at.o < end.o)) {
        if (*(volatile const int *)a.stop) return;
        int stop_at = at.I == end.I ? end.o : block_columns(n, WR, at.I);
        int j0 = at.I * WR + 2;
        warp_segment<M, R, PERIOD>(a, at.I, j0 + at.o, j0 + stop_at);
        at = ColumnPos{at.I + 1, 0};
    }
}

/* The pass kernel of metric M with R rows per lane and the plan's period
 * (0: the float loop). */
template <class M, int R>
const void *pass_kernel(int period)
{
    if constexpr (DpxLoop<M>::value && R == 8) {
        if (period == 2) return (const void *)pass_warp_kernel<M, R, 2>;
        if (period == 4) return (const void *)pass_warp_kernel<M, R, 4>;
        if (period == 8) return (const void *)pass_warp_kernel<M, R, 8>;
    }
    return (const void *)pass_warp_kernel<M, R, 0>;
}

template <class M, int R>
cudaError_t launch_pass_kernel(const PassPlan &plan, PassArgs<M> a, cudaStream_t stream)
{
    int warps = plan.warps;
    long long cost = plan.cost;
    void *args[] = {&a, &warps, &cost};
    return cudaLaunchKernel(pass_kernel<M, R>(plan.period), dim3(plan.grid), dim3(plan.block),
                            args, 0, stream);
}

} // namespace

const void *pass_full_kernel(wt_edge_weight_type type, int rows_per_lane, int period)
{
    const void *kernel = nullptr;
    with_metric(type, nullptr, [&](auto m) {
        using M = decltype(m);
        kernel = rows_per_lane == 8 ? pass_kernel<M, 8>(period) : pass_kernel<M, 16>(period);
        return WT_OK;
    });
    return kernel;
}

wt_status pass_full_launch(const DevInst &I, DevTour t, const PassPlan &plan,
                           unsigned long long *rowkey, const int *d_stop, cudaStream_t stream,
                           wt_error *err)
{
    return with_metric(I.type, err, [&](auto m) {
        using M = decltype(m);
        PassArgs<M> a = pass_args<M>(I, t, plan, rowkey, d_stop);
        cudaError_t e = plan.rows_per_lane == 8 ? launch_pass_kernel<M, 8>(plan, a, stream)
                                                : launch_pass_kernel<M, 16>(plan, a, stream);
        if (e != cudaSuccess)
            return wt_fail(err, WT_STATUS_DEVICE, "2-opt pass kernel launch failed: %s",
                           cudaGetErrorString(e));
        return launched("2-opt pass", err);
    });
}
