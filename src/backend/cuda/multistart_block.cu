/*
 * multistart_block.cu - random-restart 2-opt with one climber per thread
 * block (O'Neil & Burtscher 2015, §3.1), register-tiled after Lee 2014.
 *
 * A block holds one tour: the points in tour order (the paper's permuted
 * coordinate arrays), the city numbers alongside, and the tour's edge
 * lengths, in shared memory when they fit and in a per-block slice of
 * global memory otherwise, so n is limited by device memory only.  Each IHC
 * step evaluates the whole pair space (Listing 1: 0 <= i < n-2,
 * i+2 <= j < n), reduces to the best move with ties to the lowest (i, j),
 * reverses the segment in parallel, and repeats until nothing improves.
 *
 * The evaluation of a step, the one loop written by hand, is in
 * ms_block_scan.cuh.  Each thread ends it with the best move it saw, as
 * (delta, row, strip); the block reduces those (REDUX in a one-warp block,
 * CUB's BlockReduce in larger ones), and one warp turns the strip into the
 * move's column, a lane per column of the winning row (resolve_column).
 *
 * A climb applies only moves that improve the exact length (see
 * exactly_improving), so it always ends, whatever float does.
 */
#include <cub/block/block_reduce.cuh>
#include <cfloat>
#include <climits>
#include <cstdlib>

#include "algo/climb_start.h"
#include "backend/cuda/ms_run.cuh"
#include "backend/cuda/ms_block_scan.cuh"
#include "backend/cuda/multistart_kernels.cuh"

namespace {

using namespace ms_block;

/* The best move of a warp's lanes, ties to the lowest (i, j), in every
 * lane: three warp-wide integer minima (REDUX) on d's bits in order, then
 * on i, then on j. */
__device__ __forceinline__ MoveKey warp_min_move(MoveKey m)
{
    const unsigned all = 0xFFFFFFFFu;
    unsigned u = __float_as_uint(m.d);
    u ^= (u >> 31) ? 0xFFFFFFFFu : 0x80000000u; /* float order as unsigned order */
    unsigned umin = __reduce_min_sync(all, u);
    unsigned imin = __reduce_min_sync(all, u == umin ? (unsigned)m.i : UINT_MAX);
    unsigned jmin = __reduce_min_sync(all, u == umin && (unsigned)m.i == imin ? (unsigned)m.j : UINT_MAX);
    MoveKey r;
    r.d = __uint_as_float(umin ^ ((umin >> 31) ? 0x80000000u : 0xFFFFFFFFu));
    r.i = (int)imin;
    r.j = (int)jmin;
    return r;
}

/* Turns best.j from a strip number into the lowest column of row best.i
 * that attains best.d: lane c takes column c of the strip with the scan's
 * own float operations, so it finds the value the scan found.  Called by a
 * whole warp with the same best. */
template <class M, int TC>
__device__ __forceinline__ void resolve_column(const TourView<typename M::Pt, TC> &t, MoveKey &best)
{
    if (best.i == INT_MAX) return;
    const int lane = threadIdx.x & 31, c = lane & (TC - 1), j0 = best.j * TC, i = best.i;
    float mc = __fsub_rn(2.0f * WT_MAGIC, t.E(j0 + c));
    float B = M::add(mc, M::raw(t.P(i), t.P(j0 + c)));
    float v = M::add(B, M::raw(t.P(i + 1), t.P(j0 + c + 1)));
    bool hit = lane < TC && j0 + c >= i + 2 && __fsub_rn(v, t.E(i)) == best.d;
    unsigned hits = __ballot_sync(0xFFFFFFFFu, hit);
    best.j = j0 + (hits ? __ffs(hits) - 1 : TC - 1);
}

/* Reverses tour positions i+1..j and refreshes the edges that changed. */
template <class M, int TC, int BLOCK>
__device__ __forceinline__ void apply_move(const TourView<typename M::Pt, TC> &t, int i, int j)
{
    int len = j - i; /* positions i+1..j */
    for (int k = threadIdx.x; k < len / 2; k += BLOCK) {
        int p = i + 1 + k, q = j - k;
        typename M::Pt tp = t.P(p);
        t.P(p) = t.P(q);
        t.P(q) = tp;
        int32_t tc = t.id[p];
        t.id[p] = t.id[q];
        t.id[q] = tc;
    }
    __syncthreads();
    for (int k = i + threadIdx.x; k <= j; k += BLOCK) t.E(k) = M::x(t.P(k), t.P(k + 1));
    __syncthreads();
}

/* Bytes of one block's tour arrays: points, edges, cities, each 16-byte
 * aligned. */
template <class Pt, int TC>
__host__ __device__ __forceinline__ size_t tour_bytes(int n, size_t *pts_bytes,
                                                      size_t *me_bytes)
{
    size_t cells = TourView<Pt, TC>::padded(n);
    *pts_bytes = (cells * sizeof(Pt) + 15) / 16 * 16;
    *me_bytes = (cells * sizeof(float) + 15) / 16 * 16;
    return *pts_bytes + *me_bytes + (size_t)(n + 1) * sizeof(int32_t);
}

/* Lays out the block's arrays in one buffer. */
template <class Pt, int TC>
__device__ __forceinline__ TourView<Pt, TC> tour_view(unsigned char *base, int n)
{
    size_t pts_bytes, me_bytes;
    tour_bytes<Pt, TC>(n, &pts_bytes, &me_bytes);
    TourView<Pt, TC> t;
    t.pts = (Pt *)base;
    t.me = (float *)(base + pts_bytes);
    t.id = (int32_t *)(base + pts_bytes + me_bytes);
    return t;
}

template <int BLOCK>
union BlockTemp {
    typename cub::BlockReduce<MoveKey, BLOCK>::TempStorage move;
    typename cub::BlockReduce<long long, BLOCK>::TempStorage length;
};

/* Starts climb `climb`: its random tour, the points, the edges, and the
 * padding to the end of the last strip (finite points, -inf edges). */
template <class M, int TC, int BLOCK>
__device__ void start_climb(const MsArgs &a, const TourView<typename M::Pt, TC> &t,
                            unsigned long long climb)
{
    int n = a.inst.n, end = TourView<typename M::Pt, TC>::strips(n) * TC;
    if (threadIdx.x == 0) wt_climb_start_tour(a.seed, climb, n, t.id);
    __syncthreads();
    for (int k = threadIdx.x; k <= end; k += BLOCK)
        t.P(k) = M::point(a.inst, t.id[k < n ? k : 0]);
    __syncthreads();
    for (int k = threadIdx.x; k < end; k += BLOCK)
        t.E(k) = k < n ? M::x(t.P(k), t.P(k + 1)) : -INFINITY;
    __syncthreads();
}

/* Whether move (i, j) shortens the tour under the exact metric.  The scan
 * ranks moves in float; where float distances are inexact (large or
 * fractional coordinates) a move may look improving without being so, and
 * applying it could undo an earlier one forever.  Applying only exactly
 * improving moves makes every climb end; what float overlooked is bounded
 * by its rounding (README, "Precision").  Called by a whole warp with the
 * same (i, j): lanes 0-3 take one distance each, so the block waits for
 * one exact distance rather than four in a row. */
__device__ __forceinline__ bool exactly_improving(const DevInst &I, const int32_t *id, int i,
                                                  int j)
{
    return dev_exact_2opt_delta_warp(I, id[i], id[i + 1], id[j], id[j + 1 < I.n ? j + 1 : 0]) < 0;
}

/* Exact length of the block's tour (block-wide; result valid in thread 0). */
template <int BLOCK>
__device__ long long exact_length(const DevInst &I, const int32_t *id, BlockTemp<BLOCK> &tmp)
{
    long long part = 0;
    for (int k = threadIdx.x; k < I.n; k += BLOCK)
        part += dev_exact_dist(I, id[k], id[k + 1 < I.n ? k + 1 : 0]);
    return cub::BlockReduce<long long, BLOCK>(tmp.length).Sum(part);
}

/* Offers the block's tour as the global best (block-wide). */
template <int BLOCK>
__device__ void offer_best(const MsArgs &a, const int32_t *id, long long len,
                           unsigned long long climb, int *s_won)
{
    if (threadIdx.x == 0) {
        int won = 0;
        if (ms_better(a.run, len, climb)) {
            ms_lock(a.run);
            won = ms_better(a.run, len, climb);
            if (!won) ms_unlock(a.run);
        }
        *s_won = won;
    }
    __syncthreads();
    if (*s_won) {
        for (int k = threadIdx.x; k < a.inst.n; k += BLOCK) a.best_tour[k] = id[k];
        __threadfence();
        __syncthreads();
        if (threadIdx.x == 0) {
            a.run->best_len = len;
            a.run->best_climb = climb;
            ms_unlock(a.run);
        }
    }
    __syncthreads();
}

/* Blocks per SM that the register allocation must allow: without a bound
 * the compiler takes registers freely and small blocks lose warps; with a
 * tighter one the strip spills.  (128 x 16 capped at 96 registers for five
 * blocks an SM instead of four measured 5-25% slower on an H100.) */
template <int BLOCK, int TC>
struct MinBlocks {
    static constexpr int value = BLOCK == 32 ? (TC == 16 ? 16 : 32)
                                 : TC == 4 ? 18 : TC == 8 ? (BLOCK == 64 ? 12 : 2048 / BLOCK / 2)
                                 : BLOCK == 128 ? 4 : BLOCK == 256 ? 2 : 1;
};

template <class M, int BLOCK, int TC, bool SMEM>
__global__ void __launch_bounds__(BLOCK, (MinBlocks<BLOCK, TC>::value)) ms_block_kernel(MsArgs a)
{
    extern __shared__ __align__(16) unsigned char smem[];
    __shared__ BlockTemp<BLOCK> tmp;
    __shared__ MoveKey s_move;
    __shared__ unsigned long long s_climb;
    __shared__ int s_stop, s_won;

    const int n = a.inst.n;
    unsigned char *base = SMEM ? smem : a.scratch + (size_t)blockIdx.x * a.scratch_stride;
    const TourView<typename M::Pt, TC> t = tour_view<typename M::Pt, TC>(base, n);
    for (;;) {
        if (threadIdx.x == 0) s_climb = ms_take_climb(a);
        __syncthreads();
        unsigned long long climb = s_climb;
        if (climb == MS_NO_CLIMB) return;
        start_climb<M, TC, BLOCK>(a, t, climb);
        unsigned long long steps = 0, scans = 0;
        bool completed = false;
        for (;;) {
            /* Issued before the scan, so the L2 round trip hides behind it. */
            int stop_now = threadIdx.x == 0 ? ms_stop_requested(a) : 0;
            MoveKey mine = thread_best_move<M, TC, BLOCK>(t, n), best;
            if (BLOCK == 32) {
                best = warp_min_move(mine);
            } else {
                best = cub::BlockReduce<MoveKey, BLOCK>(tmp.move).Reduce(mine, MoveKeyMin());
                if (threadIdx.x < 32) { /* the reduction's result is in thread 0 */
                    best.d = __shfl_sync(0xFFFFFFFFu, best.d, 0);
                    best.i = __shfl_sync(0xFFFFFFFFu, best.i, 0);
                    best.j = __shfl_sync(0xFFFFFFFFu, best.j, 0);
                }
            }
            if (threadIdx.x < 32) {
                resolve_column<M, TC>(t, best);
                bool exact = best.d < 0.0f && exactly_improving(a.inst, t.id, best.i, best.j);
                if (threadIdx.x == 0) {
                    if (!exact) best.d = 0.0f; /* float saw a gain the exact metric denies: stop */
                    s_move = best;
                    s_stop = stop_now;
                }
            }
            __syncthreads();
            best = s_move;
            scans++;
            if (!(best.d < 0.0f)) {
                completed = true;
                break;
            }
            if (s_stop) break; /* the tour stays valid: stop before changing it */
            apply_move<M, TC, BLOCK>(t, best.i, best.j);
            steps++;
        }
        long long len = exact_length<BLOCK>(a.inst, t.id, tmp);
        if (threadIdx.x == 0) ms_count(a, steps, scans, completed);
        offer_best<BLOCK>(a, t.id, len, climb, &s_won);
    }
}

/* Picks the block size, shared or global memory, and the grid; launches. */
template <class M, int BLOCK, int TC>
wt_status launch_with_block(const MsLaunch &L, MsArgs args, wt_error *err)
{
    size_t pts_bytes, me_bytes;
    size_t bytes = tour_bytes<typename M::Pt, TC>(L.n, &pts_bytes, &me_bytes);
    int dev = 0, smem_optin = 0, sms = 0;
    WT_CUDA_CHECK(err, cudaGetDevice(&dev));
    WT_CUDA_CHECK(err, cudaDeviceGetAttribute(&smem_optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
    WT_CUDA_CHECK(err, cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    int static_smem = (int)sizeof(BlockTemp<BLOCK>) + 64;
    bool in_smem = bytes + (size_t)static_smem <= (size_t)smem_optin;
    void (*kernel)(MsArgs) =
        in_smem ? ms_block_kernel<M, BLOCK, TC, true> : ms_block_kernel<M, BLOCK, TC, false>;
    size_t dyn = in_smem ? bytes : 0;
    WT_CUDA_CHECK(err, cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)dyn));
    int per_sm = 0;
    WT_CUDA_CHECK(err, cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, BLOCK, dyn));
    if (per_sm < 1)
        return wt_fail(err, WT_STATUS_DEVICE, "multistart: no block of %d threads with %zu bytes "
                       "of shared memory fits on this GPU", BLOCK, dyn);
    unsigned long long grid = (unsigned long long)sms * per_sm;
    if (L.restarts && L.restarts < grid) grid = L.restarts;
    void *scratch = nullptr;
    if (!in_smem) {
        args.scratch_stride = (bytes + 255) / 256 * 256;
        WT_CUDA_CHECK(err, cudaMalloc(&scratch, args.scratch_stride * grid));
        args.scratch = (unsigned char *)scratch;
    }
    kernel<<<(unsigned)grid, BLOCK, dyn, L.stream>>>(args);
    cudaError_t e = cudaGetLastError();
    wt_status st = WT_OK;
    if (e != cudaSuccess)
        st = wt_fail(err, WT_STATUS_DEVICE, "multistart kernel launch failed (%u blocks of %d "
                     "threads, %zu bytes shared): %s", (unsigned)grid, BLOCK, dyn,
                     cudaGetErrorString(e));
    else
        st = L.wait(L.wait_ctx, err);
    if (scratch) cudaFree(scratch);
    return st;
}

/*
 * Block size and strip width (columns per strip).  Wider strips spend
 * fewer square roots and less per-row and per-chunk work on a move, but
 * hold more registers (fewer warps per SM) and cut the pair space into
 * fewer TC x TC chunks, which balance worse over a block's threads; small
 * tours want small blocks, so that a step's fixed costs (reduction, exact
 * check, reversal, barriers) are shared by fewer threads and more climbers
 * share an SM: below 1000 cities a block is one warp, a climber per warp,
 * whose barriers cost next to nothing (32 blocks, the most an SM holds).
 */
struct BlockShape {
    int block, tc;
};

BlockShape block_shape(int n)
{
    /* Crossovers of a sweep of every shape over n = 100 ... 5000 on an
     * H100 (bench/RESULTS.md). */
    BlockShape s = n < 400 ? BlockShape{32, 8} : n < 1000 ? BlockShape{32, 16}
                 : n < 3000 ? BlockShape{128, 16} : BlockShape{256, 16};
    /* Tuning knobs for benchmarks, not user options: WT_MS_BLOCK=32|64|128|256|512
     * and WT_MS_TC=4|8|16 (the shapes launch_metric lists). */
    const char *block = getenv("WT_MS_BLOCK"), *tc = getenv("WT_MS_TC");
    if (block) s.block = atoi(block);
    if (tc) s.tc = atoi(tc);
    return s;
}

template <class M>
wt_status launch_metric(const MsLaunch &L, const MsArgs &args, wt_error *err)
{
    BlockShape s = block_shape(L.n);
    /* GEO's and EXPLICIT's points take four registers: a 16-column strip's
     * 17 points alone would hold 68, so they get 8-column strips. */
    if (sizeof(typename M::Pt) >= 16 && s.tc == 16 && !getenv("WT_MS_TC")) s.tc = 8;
    if (s.block == 32 && s.tc == 8) return launch_with_block<M, 32, 8>(L, args, err);
    if (s.block == 32 && s.tc == 16) return launch_with_block<M, 32, 16>(L, args, err);
    if (s.block == 64 && s.tc == 4) return launch_with_block<M, 64, 4>(L, args, err);
    if (s.block == 64 && s.tc == 8) return launch_with_block<M, 64, 8>(L, args, err);
    if (s.block == 128 && s.tc == 8) return launch_with_block<M, 128, 8>(L, args, err);
    if (s.block == 128 && s.tc == 16) return launch_with_block<M, 128, 16>(L, args, err);
    if (s.block == 256 && s.tc == 8) return launch_with_block<M, 256, 8>(L, args, err);
    if (s.block == 256 && s.tc == 16) return launch_with_block<M, 256, 16>(L, args, err);
    if (s.block == 512 && s.tc == 16) return launch_with_block<M, 512, 16>(L, args, err);
    return wt_fail(err, WT_STATUS_INVALID_ARGUMENT, "multistart: no kernel for WT_MS_BLOCK=%d with "
                   "WT_MS_TC=%d", s.block, s.tc);
}

} // namespace

wt_status ms_launch_block(const MsLaunch &L, const MsArgs &args, wt_error *err)
{
    switch (args.inst.type) {
    case WT_EUC_2D: return launch_metric<MetricEuc2D>(L, args, err);
    case WT_CEIL_2D: return launch_metric<MetricCeil2D>(L, args, err);
    case WT_ATT: return launch_metric<MetricAtt>(L, args, err);
    case WT_GEO: return launch_metric<MetricGeo>(L, args, err);
    case WT_MAN_2D: return launch_metric<MetricMan2D>(L, args, err);
    case WT_MAX_2D: return launch_metric<MetricMax2D>(L, args, err);
    case WT_EUC_3D: return launch_metric<MetricEuc3D>(L, args, err);
    case WT_EXPLICIT: return launch_metric<MetricExplicit>(L, args, err);
    }
    return wt_fail(err, WT_STATUS_UNSUPPORTED, "multistart: unknown edge weight type");
}
