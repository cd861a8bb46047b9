/*
 * pass_apply.cu - the reversal kernels of a group of independent moves:
 * one swap of two positions per thread, laid out by the moves' prefix sum
 * of half-lengths, then the edge terms of the reversed segments.
 */
#include "backend/cuda/pass_apply.cuh"
#include "backend/cuda/twoopt_common.cuh"

namespace {

/* The move holding swap s: the last c with offs[c] <= s. */
__device__ __forceinline__ int move_of(const long long *offs, int count, long long s)
{
    int lo = 0, hi = count - 1;
    while (lo < hi) {
        int mid = (lo + hi + 1) / 2;
        if (offs[mid] <= s) lo = mid;
        else hi = mid - 1;
    }
    return lo;
}

/* One swap per thread: reversing i+1..j swaps positions i+1+k and j-k. */
template <class M>
__global__ void swap_kernel(typename M::Pt *pts, int32_t *id, const wt_kswap_move *moves,
                            const long long *offs, int count, long long swaps)
{
    for (long long s = blockIdx.x * (long long)blockDim.x + threadIdx.x; s < swaps;
         s += (long long)gridDim.x * blockDim.x) {
        int c = move_of(offs, count, s);
        int k = (int)(s - offs[c]);
        int p = moves[c].i + 1 + k, q = moves[c].j - k;
        typename M::Pt tp = pts[p];
        pts[p] = pts[q];
        pts[q] = tp;
        int32_t ti = id[p];
        id[p] = id[q];
        id[q] = ti;
    }
}

/* Edges i..j of each applied move: swap k refreshes edges i+k and j-k;
 * swap 0 also the one or two in the middle. */
template <class M>
__global__ void edge_kernel(typename M::Pt *pts, float *me, const wt_kswap_move *moves,
                            const long long *offs, int count, long long swaps)
{
    for (long long s = blockIdx.x * (long long)blockDim.x + threadIdx.x; s < swaps;
         s += (long long)gridDim.x * blockDim.x) {
        int c = move_of(offs, count, s);
        int k = (int)(s - offs[c]);
        int i = moves[c].i, j = moves[c].j;
        me[i + k] = M::x(pts[i + k], pts[i + k + 1]);
        me[j - k] = M::x(pts[j - k], pts[j - k + 1]);
        if (k == 0) {
            int h = (j - i) / 2;
            me[i + h] = M::x(pts[i + h], pts[i + h + 1]);
            me[j - h] = M::x(pts[j - h], pts[j - h + 1]);
        }
    }
}

} // namespace

wt_status pass_apply(const DevInst &I, DevTour t, const wt_kswap_move *moves,
                     const long long *offs, int count, long long swaps, cudaStream_t stream,
                     wt_error *err)
{
    if (count == 0 || swaps == 0) return WT_OK;
    return with_metric(I.type, err, [&](auto m) {
        using M = decltype(m);
        typename M::Pt *pts = (typename M::Pt *)t.pts;
        swap_kernel<M><<<grid_for(swaps), 256, 0, stream>>>(pts, t.id, moves, offs, count, swaps);
        wt_status st = launched("k-swap reversal", err);
        if (st != WT_OK) return st;
        edge_kernel<M><<<grid_for(swaps), 256, 0, stream>>>(pts, t.me, moves, offs, count, swaps);
        return launched("k-swap edge refresh", err);
    });
}
