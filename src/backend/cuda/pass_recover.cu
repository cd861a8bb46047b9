/*
 * pass_recover.cu - the recovery kernel behind every pass: a pass offers
 * only (delta, piece) per row; a warp per row finds the lowest column of
 * the piece with that delta and computes the move's exact delta.
 */
#include <cub/warp/warp_reduce.cuh>

#include <climits>

#include "backend/cuda/float_order.cuh"
#include "backend/cuda/pass_recover.cuh"
#include "backend/cuda/twoopt_common.cuh"

namespace {

/* Recovery looks at this many columns of a row per round: the loads of a
 * round's four 32-column steps go out together, so a row costs a round
 * trip to memory per 128 columns rather than per 32. */
constexpr int RECOVER_STEPS = 4;

/* Lowest column of [from, stop) whose float delta, by the pass's own
 * operations, has the order bits want; -1 if none.  Whole warp. */
template <class M>
__device__ __forceinline__ int find_column(typename M::Pt pi, typename M::Pt pn, float mei,
                                           const typename M::Pt *pts, const float *me, int from,
                                           int stop, unsigned want)
{
    const int lane = threadIdx.x & 31;
    for (int base = from; base < stop; base += 32 * RECOVER_STEPS) {
        unsigned hits[RECOVER_STEPS];
#pragma unroll
        for (int k = 0; k < RECOVER_STEPS; k++) {
            int j = base + 32 * k + lane;
            bool hit = false;
            if (j < stop) {
                float mcj = __fsub_rn(2.0f * WT_MAGIC, me[j]);
                float d = __fsub_rn(pass_row_term<M>(pi, pn, pts[j], pts[j + 1], mcj), mei);
                hit = float_order(d) == want;
            }
            hits[k] = __ballot_sync(0xFFFFFFFFu, hit);
        }
#pragma unroll
        for (int k = 0; k < RECOVER_STEPS; k++)
            if (hits[k]) return base + 32 * k + __ffs(hits[k]) - 1;
    }
    return -1;
}

/* Lowest column of [from, stop) with the least float delta by
 * pass_row_term; -1 if the range is empty.  Whole warp; temp is the warp's
 * own.  recover_kernel's fallback, for a row whose key find_column does not
 * match: where float is not exact, the integer loop rounds a distance that
 * ends in exactly .5 to even at its chain's offset, which may differ by one
 * from the float form's rounding of the same move (a chain starts wherever
 * a pass's range of columns does), so the key's value may not be found.
 * The move found instead is within that rounding of the key's, and its
 * exact delta decides, as for every candidate. */
using ColumnMin = cub::WarpReduce<cub::KeyValuePair<int, float>>;

template <class M>
__device__ __forceinline__ int least_column(typename M::Pt pi, typename M::Pt pn, float mei,
                                            const typename M::Pt *pts, const float *me, int from,
                                            int stop, ColumnMin::TempStorage &temp)
{
    cub::KeyValuePair<int, float> best(INT_MAX, INFINITY);
    for (int j = from + (threadIdx.x & 31); j < stop; j += 32) {
        float mcj = __fsub_rn(2.0f * WT_MAGIC, me[j]);
        float d = __fsub_rn(pass_row_term<M>(pi, pn, pts[j], pts[j + 1], mcj), mei);
        if (d < best.value) best = cub::KeyValuePair<int, float>(j, d); /* ascending j */
    }
    best = ColumnMin(temp).Reduce(best, cub::ArgMin());
    const int key = __shfl_sync(0xFFFFFFFFu, best.key, 0); /* the aggregate is lane 0's */
    return key == INT_MAX ? -1 : key;
}

constexpr int RECOVER_WARPS = 8; /* warps per block of recover_kernel */

/* After the pass: rowkey[i] = (delta, first column of the piece holding
 * it).  A warp per row walks the piece from there and takes the first
 * column whose float delta, computed with the pass's own operations, is
 * exactly the key's: the row's lowest-j best move.  Then the move with its
 * exact delta into cand[i] (delta 0, j -1 for a row without one), and
 * rowkey[i] reset.  The row's own data are read with its key, in the same
 * round trip to memory: a row costs about four round trips (key, columns,
 * two cities, their coordinates), and the recovery is a sizeable share of
 * a mid-size pass (bench/RESULTS.md, "Where a mid-size pass goes, and the
 * chip's ceilings").  Launched behind the pass with
 * programmatic serialization: it waits for the pass here, already
 * resident. */
template <class M>
__global__ void recover_kernel(DevInst I, const typename M::Pt *pts, const float *me,
                               const int32_t *id, unsigned long long *rowkey,
                               wt_kswap_move *cand, int piece)
{
    __shared__ ColumnMin::TempStorage temp[RECOVER_WARPS];
    wait_for_prerequisites();
    const int n = I.n, lane = threadIdx.x & 31;
    const long long warps = (long long)gridDim.x * (blockDim.x / 32);
    for (long long k = (long long)blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32; k < n - 2;
         k += warps) {
        const int i = (int)k;
        const unsigned long long key = rowkey[i];
        const typename M::Pt pi = pts[i], pn = pts[i + 1];
        const float mei = me[i];
        const int a = id[i], b = id[i + 1];
        int found = -1;
        if (key != PASS_NO_MOVE) {
            const int js = (int)(unsigned)(key & 0xFFFFFFFFu), from = max(js, i + 2);
            /* Bounded by the piece; n only as a guard. */
            const int stop = min(n, from + piece);
            found = find_column<M>(pi, pn, mei, pts, me, from, stop, (unsigned)(key >> 32));
            if (found < 0)
                found = least_column<M>(pi, pn, mei, pts, me, from, stop,
                                        temp[threadIdx.x / 32]);
        }
        wt_kswap_move m = {0, i, -1};
        if (found >= 0) {
            m.delta = dev_exact_2opt_delta_warp(I, a, b, id[found],
                                                id[found + 1 < n ? found + 1 : 0]);
            m.j = found;
        }
        if (lane == 0) {
            cand[i] = m;
            if (key != PASS_NO_MOVE) rowkey[i] = PASS_NO_MOVE;
        }
    }
}

} // namespace

wt_status pass_collect(const DevInst &I, DevTour t, const PassPlan &plan,
                       unsigned long long *rowkey, wt_kswap_move *cand, cudaStream_t stream,
                       wt_error *err)
{
    if (I.n < 3) return WT_OK;
    return with_metric(I.type, err, [&](auto m) {
        using M = decltype(m);
        /* A warp per row. */
        long long blocks = ((long long)I.n + RECOVER_WARPS - 1) / RECOVER_WARPS;
        cudaLaunchConfig_t cfg = {};
        cfg.gridDim = dim3((unsigned)(blocks > 65535 ? 65535 : blocks));
        cfg.blockDim = dim3(32 * RECOVER_WARPS);
        cfg.stream = stream;
        cudaLaunchAttribute chain[1];
        chain[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
        chain[0].val.programmaticStreamSerializationAllowed = 1;
        cfg.attrs = chain;
        cfg.numAttrs = plan.chained ? 1 : 0;
        cudaError_t e = cudaLaunchKernelEx(&cfg, recover_kernel<M>, I,
                                           (const typename M::Pt *)t.pts, (const float *)t.me,
                                           (const int32_t *)t.id, rowkey, cand, plan.piece);
        if (e != cudaSuccess)
            return wt_fail(err, WT_STATUS_DEVICE, "2-opt candidates kernel launch failed: %s",
                           cudaGetErrorString(e));
        return launched("2-opt candidates", err);
    });
}
