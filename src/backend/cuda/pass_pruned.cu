/*
 * pass_pruned.cu - the 2-opt pass that skips what the segment bound rules
 * out: a kernel for the boxes of the tour's column tiles and row blocks,
 * then the pass over the rectangles they leave (pass_loop.cuh's loop).
 */
#include <cub/warp/warp_reduce.cuh>
#include <cuda/functional>

#include "backend/cuda/pass_loop.cuh"
#include "backend/cuda/pass_pruned.cuh"

namespace {

/* ------------------------------------------------------------ pruned pass
 *
 * The segment bound of core/segment_bound.h on the device: the pass skips
 * every rectangle (a row block's 32R rows, a tile of PASS_TILE columns)
 * whose boxes lie too far apart for any of its moves to be improving, as
 * the pass computes moves.  A float distance between points of the two
 * boxes is at least the gap between them through the same formula (float
 * subtraction, products and sums round monotonically), less the few ulp
 * of the approximate root (BOUND_SHRINK) and the rounding to an integer
 * (BOUND_SLACK, with a unit to spare); edges are the float ones of me, so
 * the rule is about the float deltas, which pass_plan keeps exact integers
 * (max distance below 2^21) wherever it prunes.  A skipped move is then
 * not improving by the pass's own arithmetic, never offered: rowkey ends
 * as after the full pass, bit for bit, with the float loop and wherever
 * float is exact.  (Elsewhere the integer loop may round a distance ending
 * in exactly .5 the other way, its chains starting where the runs of
 * columns do: see least_column.) */
#define BOUND_SHRINK 0.99998474f /* 1 - 2^-16 */
#define BOUND_SLACK 1.5f

/* Metrics with the bound: the distance of gaps gx, gy >= 0, unrounded. */
template <class M>
struct BoxGap {
    static constexpr bool value = false;
    static __device__ __forceinline__ float of(float, float) { return 0.0f; }
};
template <>
struct BoxGap<MetricEuc2D> {
    static constexpr bool value = true;
    static __device__ __forceinline__ float of(float gx, float gy)
    {
        return sqrtf(gx * gx + gy * gy);
    }
};
template <>
struct BoxGap<MetricCeil2D> : BoxGap<MetricEuc2D> {};
template <>
struct BoxGap<MetricAtt> {
    static constexpr bool value = true;
    static __device__ __forceinline__ float of(float gx, float gy)
    {
        return sqrtf(gx * gx + gy * gy) * 0.31622776f;
    }
};
template <>
struct BoxGap<MetricMan2D> {
    static constexpr bool value = true;
    static __device__ __forceinline__ float of(float gx, float gy) { return gx + gy; }
};
template <>
struct BoxGap<MetricMax2D> {
    static constexpr bool value = true;
    static __device__ __forceinline__ float of(float gx, float gy) { return fmaxf(gx, gy); }
};

/* Whether a move with one edge in box a (longest float edge ea) and the
 * other in box b might be improving. */
template <class M>
__device__ __forceinline__ bool boxes_may_improve(float4 a, float ea, float4 b, float eb)
{
    float gx = fmaxf(0.0f, fmaxf(b.x - a.z, a.x - b.z));
    float gy = fmaxf(0.0f, fmaxf(b.y - a.w, a.y - b.w));
    float least = BoxGap<M>::of(gx, gy) * BOUND_SHRINK - BOUND_SLACK;
    return 2.0f * least < ea + eb;
}

constexpr int BOX_WARPS = 8; /* warps per block of box_kernel */

/* A warp per column tile (the first `tiles` warps) or row block of wr rows
 * (the next `blocks`): the box of the points its edges touch and its
 * longest float edge.  Also zeroes the pass's count of pairs evaluated. */
template <class M>
__global__ void box_kernel(const typename M::Pt *pts, const float *me, int n, int wr, int tiles,
                           int blocks, PassBoxes b)
{
    using WarpReduce = cub::WarpReduce<float>;
    __shared__ typename WarpReduce::TempStorage temp[BOX_WARPS];
    const int lane = threadIdx.x & 31, wib = threadIdx.x / 32;
    const long long g = (long long)blockIdx.x * BOX_WARPS + wib;
    if (g == 0 && lane == 0) *b.checked = 0;
    if (g >= tiles + blocks) return; /* whole warps */
    const long long first = g < tiles ? g * PASS_TILE : (g - tiles) * wr;
    const long long last = min(first + (g < tiles ? PASS_TILE : wr), (long long)n);
    float x0 = INFINITY, y0 = INFINITY, x1 = -INFINITY, y1 = -INFINITY, e = WT_MAGIC;
    for (long long k = first + lane; k <= last; k += 32) { /* pts[n] is pts[0] */
        typename M::Pt p = pts[k];
        x0 = fminf(x0, p.x);
        y0 = fminf(y0, p.y);
        x1 = fmaxf(x1, p.x);
        y1 = fmaxf(y1, p.y);
        if (k < last) e = fmaxf(e, me[k]);
    }
    WarpReduce r(temp[wib]);
    x0 = r.Reduce(x0, cuda::minimum<>{});
    __syncwarp();
    y0 = r.Reduce(y0, cuda::minimum<>{});
    __syncwarp();
    x1 = r.Reduce(x1, cuda::maximum<>{});
    __syncwarp();
    y1 = r.Reduce(y1, cuda::maximum<>{});
    __syncwarp();
    e = r.Reduce(e, cuda::maximum<>{});
    if (lane == 0) {
        b.box[g] = make_float4(x0, y0, x1, y1);
        b.longest[g] = e - WT_MAGIC;
    }
}

/* The pass with the bound.  The rectangles are dealt to warps in slots of
 * `width` consecutive column tiles of one row block, slot s to warp
 * s mod warps, so that the few rectangles that survive (near the diagonal,
 * and where the tour comes back near itself) spread over all warps; a
 * slot's tiles are tested one per lane, and each run of surviving tiles is
 * one warp_segment, the loop of the full pass.  pass_plan narrows the
 * slots on small tours so that there are several per warp. */
template <class M, int R, int PERIOD>
__global__ void __launch_bounds__(PassBounds<R>::threads, PassBounds<R>::blocks)
    pass_bound_kernel(PassArgs<M> a, int warps, int width, PassBoxes b)
{
    let_dependents_launch();
    const int n = a.n, lane = threadIdx.x & 31;
    const long long w = (long long)blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
    if (w >= warps) return; /* whole warps */
    constexpr int WR = 32 * R;
    const int tiles = (n + PASS_TILE - 1) / PASS_TILE, groups = (tiles + width - 1) / width;
    const long long slots = (long long)row_blocks(n, WR) * groups;
    unsigned long long columns = 0;
    int polls = 0;
    for (long long s = w; s < slots; s += warps) {
        const int I = (int)(s / groups), t0 = (int)(s % groups) * width;
        const int diagonal = I * R; /* the tile of column I * WR */
        if (t0 + width <= diagonal) continue;
        if ((++polls & 31) == 0 && *(volatile const int *)a.stop) break;
        const int t = t0 + lane;
        bool keep = false;
        if (lane < width && t >= diagonal && t < tiles)
            keep = boxes_may_improve<M>(b.box[tiles + I], b.longest[tiles + I], b.box[t],
                                        b.longest[t]);
        unsigned mask = __ballot_sync(0xFFFFFFFFu, keep);
        while (mask) {
            const int lo = __ffs(mask) - 1;
            const unsigned rest = mask >> lo;
            const int run = rest == 0xFFFFFFFFu ? 32 : __ffs(~rest) - 1;
            mask = lo + run >= 32 ? 0u : mask & (0xFFFFFFFFu << (lo + run));
            const int ja = max((t0 + lo) * PASS_TILE, I * WR + 2);
            const int jb = min((t0 + lo + run) * PASS_TILE, n);
            if (ja < jb) {
                warp_segment<M, R, PERIOD>(a, I, ja, jb);
                columns += (unsigned long long)(jb - ja);
            }
        }
    }
    if (lane == 0 && columns) atomicAdd(b.checked, columns * WR);
}

/* The pruned pass kernel of metric M with R rows per lane and the plan's
 * period; NULL for metrics without the bound. */
template <class M, int R>
const void *pass_bound_kernel_for(int period)
{
    if constexpr (!BoxGap<M>::value) {
        return nullptr;
    } else {
        if constexpr (DpxLoop<M>::value && R == 8) {
            if (period == 2) return (const void *)pass_bound_kernel<M, R, 2>;
            if (period == 4) return (const void *)pass_bound_kernel<M, R, 4>;
            if (period == 8) return (const void *)pass_bound_kernel<M, R, 8>;
        }
        return (const void *)pass_bound_kernel<M, R, 0>;
    }
}

/* Boxes, then the pruned pass. */
template <class M, int R>
cudaError_t launch_bound_pass(const PassPlan &plan, PassArgs<M> a, PassBoxes boxes,
                              cudaStream_t stream)
{
    if constexpr (!BoxGap<M>::value) {
        return cudaErrorInvalidValue; /* pass_plan never prunes these */
    } else {
        const int n = a.n, wr = 32 * R;
        const int tiles = (n + PASS_TILE - 1) / PASS_TILE, blocks = row_blocks(n, wr);
        const unsigned grid = (unsigned)((tiles + blocks + BOX_WARPS - 1) / BOX_WARPS);
        box_kernel<M><<<grid, 32 * BOX_WARPS, 0, stream>>>(a.pts, a.me, n, wr, tiles, blocks,
                                                          boxes);
        cudaError_t e = cudaGetLastError();
        if (e != cudaSuccess) return e;
        int warps = plan.warps, width = plan.width;
        void *args[] = {&a, &warps, &width, &boxes};
        return cudaLaunchKernel(pass_bound_kernel_for<M, R>(plan.period), dim3(plan.grid),
                                dim3(plan.block), args, 0, stream);
    }
}

} // namespace

bool pass_pruned_metric(wt_edge_weight_type type)
{
    bool bound = false;
    with_metric(type, nullptr, [&](auto m) {
        bound = BoxGap<decltype(m)>::value;
        return WT_OK;
    });
    return bound;
}

wt_status pass_pruned_launch(const DevInst &I, DevTour t, const PassPlan &plan, PassBoxes boxes,
                             unsigned long long *rowkey, const int *d_stop, cudaStream_t stream,
                             wt_error *err)
{
    return with_metric(I.type, err, [&](auto m) {
        using M = decltype(m);
        PassArgs<M> a = pass_args<M>(I, t, plan, rowkey, d_stop);
        cudaError_t e = plan.rows_per_lane == 8 ? launch_bound_pass<M, 8>(plan, a, boxes, stream)
                                                : launch_bound_pass<M, 16>(plan, a, boxes, stream);
        if (e != cudaSuccess)
            return wt_fail(err, WT_STATUS_DEVICE, "2-opt pass kernel launch failed: %s",
                           cudaGetErrorString(e));
        return launched("2-opt pass", err);
    });
}
