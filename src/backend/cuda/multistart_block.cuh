/*
 * multistart_block.cuh - random-restart 2-opt with one climber per thread
 * block (O'Neil & Burtscher 2015, §3.1), register-tiled after Lee 2014:
 * the kernels' templates and launch_metric<M>, which picks a metric's
 * kernel shape and launches it.  Included only by the multistart_block_*.cu
 * files, each instantiating one to three metrics, so that the nine
 * metrics' kernels (about four minutes of one core in all) compile side by
 * side; multistart_block.cu dispatches.
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
#ifndef WT_BACKEND_CUDA_MULTISTART_BLOCK_CUH
#define WT_BACKEND_CUDA_MULTISTART_BLOCK_CUH

#include <cub/block/block_reduce.cuh>
#include <cfloat>
#include <climits>

#include "core/climb_start.h"
#include "backend/cuda/ms_run.cuh"
#include "backend/cuda/ms_block_scan.cuh"
#include "backend/cuda/ms_gap_scan.cuh"
#include "backend/cuda/multistart_kernels.cuh"

namespace {

using namespace ms_block;

/* The best move of a warp's lanes, ties to the lowest (i, j), in every
 * lane: three warp-wide integer minima (REDUX) on d's bits in order, then
 * on i, then on j. */
__device__ __forceinline__ MoveKey warp_min_move(MoveKey m)
{
    const unsigned all = 0xFFFFFFFFu;
    unsigned u = float_order(m.d);
    unsigned umin = __reduce_min_sync(all, u);
    unsigned imin = __reduce_min_sync(all, u == umin ? (unsigned)m.i : UINT_MAX);
    unsigned jmin =
        __reduce_min_sync(all, u == umin && (unsigned)m.i == imin ? (unsigned)m.j : UINT_MAX);
    MoveKey r;
    r.d = float_unorder(umin);
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
 * blocks an SM instead of four runs slower: bench/RESULTS.md, "Multistart:
 * throughput (bench multistart)", and the sweeps it points to.) */
template <int BLOCK, int TC>
struct MinBlocks {
    static constexpr int value = BLOCK == 32 ? (TC == 16 ? 16 : 32)
                                 : TC == 4 ? 18 : TC == 8 ? (BLOCK == 64 ? 12 : 2048 / BLOCK / 2)
                                 : BLOCK == 128 ? 4 : BLOCK == 256 ? 2 : 1;
};

/*
 * The two scans, as the kernel sees them: the tour's layout in the block's
 * buffer, how a climb starts, the step's best move (its d, i and j valid in
 * the first warp) and how a move is applied.
 */

/* TC x TC squares of the (i, j) triangle (ms_block_scan.cuh), any block size. */
template <class M, int BLOCK_, int TC>
struct SquareScan {
    static constexpr int BLOCK = BLOCK_, MIN_BLOCKS = MinBlocks<BLOCK, TC>::value;
    static constexpr bool GLOBAL_MEMORY = true;
    typedef TourView<typename M::Pt, TC> View;
    struct Plan {};
    struct Lane {};

    static __device__ Lane lane(Plan, int) { return {}; }

    static size_t bytes(int n, Plan)
    {
        size_t pts_bytes, me_bytes;
        return tour_bytes<typename M::Pt, TC>(n, &pts_bytes, &me_bytes);
    }
    static __device__ View view(unsigned char *base, int n, Plan)
    {
        return tour_view<typename M::Pt, TC>(base, n);
    }

    /* Climb `climb`'s random tour, the points, the edges, and the padding
     * to the end of the last strip (finite points, -inf edges). */
    static __device__ void start(const MsArgs &a, const View &t, Plan, unsigned long long climb)
    {
        int n = a.inst.n, end = View::strips(n) * TC;
        if (threadIdx.x == 0) wt_climb_start_tour(a.seed, climb, n, t.id);
        __syncthreads();
        for (int k = threadIdx.x; k <= end; k += BLOCK)
            t.P(k) = M::point(a.inst, t.id[k < n ? k : 0]);
        __syncthreads();
        for (int k = threadIdx.x; k < end; k += BLOCK)
            t.E(k) = k < n ? M::x(t.P(k), t.P(k + 1)) : -INFINITY;
        __syncthreads();
    }

    static __device__ MoveKey best_move(const View &t, Plan, Lane, int n, BlockTemp<BLOCK> &tmp)
    {
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
        if (threadIdx.x < 32) resolve_column<M, TC>(t, best);
        return best;
    }

    static __device__ void apply(const View &t, Plan, int, int i, int j)
    {
        apply_move<M, TC, BLOCK>(t, i, j);
    }
};

/* Tiles of the (row, gap) rectangle (ms_gap_scan.cuh), one warp: a tile a
 * lane, or with ROUNDS several a lane. */
template <class M, int C, bool ROUNDS>
struct GapScan {
    /* Tours of fewer than 1000 cities: always in shared memory. */
    static constexpr int BLOCK = 32, MIN_BLOCKS = 32;
    static constexpr bool GLOBAL_MEMORY = false;
    typedef ms_gap::GapView<typename M::Pt> View;
    typedef ms_gap::GapPlan Plan;
    typedef ms_gap::LaneTile Lane;

    static __device__ Lane lane(Plan p, int n) { return ms_gap::lane_tile<C>(p, n); }

    static size_t bytes(int n, Plan p)
    {
        size_t cells = (size_t)p.cells;
        return (cells * sizeof(typename M::Pt) + 15) / 16 * 16 +
               (cells * sizeof(float) + 15) / 16 * 16 + (size_t)(n + 1) * sizeof(int32_t);
    }
    static __device__ View view(unsigned char *base, int, Plan p)
    {
        View t;
        size_t pts_bytes = ((size_t)p.cells * sizeof(typename M::Pt) + 15) / 16 * 16;
        t.pts = (typename M::Pt *)base;
        t.me = (float *)(base + pts_bytes);
        t.id = (int32_t *)(base + pts_bytes + ((size_t)p.cells * sizeof(float) + 15) / 16 * 16);
        return t;
    }

    /* Climb `climb`'s random tour, its points and edges, with the copies
     * past n (cells < 2n). */
    static __device__ void start(const MsArgs &a, const View &t, Plan p, unsigned long long climb)
    {
        const int n = a.inst.n;
        if (threadIdx.x == 0) wt_climb_start_tour(a.seed, climb, n, t.id);
        __syncthreads();
        for (int k = threadIdx.x; k < p.cells; k += BLOCK)
            t.pts[k] = M::point(a.inst, t.id[k < n ? k : k - n]);
        __syncthreads();
        for (int k = threadIdx.x; k < p.cells; k += BLOCK) {
            int e = k < n ? k : k - n;
            t.me[k] = M::x(t.pts[e], t.pts[e + 1]);
        }
        __syncthreads();
    }

    static __device__ MoveKey best_move(const View &t, Plan p, Lane l, int n, BlockTemp<BLOCK> &)
    {
        if constexpr (ROUNDS) return ms_gap::gap_best_move_rounds<M, C>(t, p, n);
        else return ms_gap::gap_best_move<M, C>(t, p, l, n);
    }

    /* Reverses positions i+1..j, refreshes the edges that changed, then
     * the copies past n of what changed. */
    static __device__ void apply(const View &t, Plan p, int n, int i, int j)
    {
        for (int k = threadIdx.x; k < (j - i) / 2; k += BLOCK) {
            int a = i + 1 + k, b = j - k;
            typename M::Pt tp = t.pts[a];
            t.pts[a] = t.pts[b];
            t.pts[b] = tp;
            int32_t tc = t.id[a];
            t.id[a] = t.id[b];
            t.id[b] = tc;
        }
        __syncthreads();
        for (int k = i + threadIdx.x; k <= j; k += BLOCK) t.me[k] = M::x(t.pts[k], t.pts[k + 1]);
        __syncthreads();
        for (int k = i + threadIdx.x; k <= j && k < p.cells - n; k += BLOCK) {
            t.pts[n + k] = t.pts[k];
            t.me[n + k] = t.me[k];
        }
        __syncthreads();
    }
};

template <class S, bool SMEM>
__global__ void __launch_bounds__(S::BLOCK, S::MIN_BLOCKS)
    ms_block_kernel(MsArgs a, typename S::Plan p)
{
    constexpr int BLOCK = S::BLOCK;
    extern __shared__ __align__(16) unsigned char smem[];
    __shared__ BlockTemp<BLOCK> tmp;
    __shared__ MoveKey s_move;
    __shared__ unsigned long long s_climb;
    __shared__ int s_stop, s_won;

    const int n = a.inst.n;
    unsigned char *base = SMEM ? smem : a.scratch + (size_t)blockIdx.x * a.scratch_stride;
    const typename S::View t = S::view(base, n, p);
    const typename S::Lane lane = S::lane(p, n);
    for (;;) {
        if (threadIdx.x == 0) s_climb = ms_take_climb(a);
        __syncthreads();
        unsigned long long climb = s_climb;
        if (climb == MS_NO_CLIMB) return;
        S::start(a, t, p, climb);
        unsigned long long steps = 0, scans = 0;
        bool completed = false;
        for (;;) {
            /* Issued before the scan, so the L2 round trip hides behind it. */
            int stop_now = threadIdx.x == 0 ? ms_stop_requested(a) : 0;
            MoveKey best = S::best_move(t, p, lane, n, tmp);
            if (threadIdx.x < 32) {
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
            S::apply(t, p, n, best.i, best.j);
            steps++;
        }
        long long len = exact_length<BLOCK>(a.inst, t.id, tmp);
        if (threadIdx.x == 0) ms_count(a, steps, scans, completed);
        offer_best<BLOCK>(a, t.id, len, climb, &s_won);
    }
}

/* Picks shared or global memory and the grid; launches. */
template <class S>
wt_status launch_scan(const MsLaunch &L, MsArgs args, typename S::Plan plan, wt_error *err)
{
    constexpr int BLOCK = S::BLOCK;
    size_t bytes = S::bytes(L.n, plan);
    const int smem_optin = L.ctx->smem_optin, sms = L.ctx->sms;
    int static_smem = (int)sizeof(BlockTemp<BLOCK>) + 64;
    bool in_smem = bytes + (size_t)static_smem <= (size_t)smem_optin;
    void (*kernel)(MsArgs, typename S::Plan) = ms_block_kernel<S, true>;
    if constexpr (S::GLOBAL_MEMORY) {
        if (!in_smem) kernel = ms_block_kernel<S, false>;
    } else if (!in_smem) {
        return wt_fail(err, WT_STATUS_DEVICE, "multistart: %zu bytes of tour do not fit in "
                       "shared memory", bytes);
    }
    size_t dyn = in_smem ? bytes : 0;
    WT_CUDA_CHECK(err, cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                            (int)dyn));
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
    kernel<<<(unsigned)grid, BLOCK, dyn, L.ctx->stream>>>(args, plan);
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

template <class M, int BLOCK, int TC>
wt_status launch_with_block(const MsLaunch &L, const MsArgs &args, wt_error *err)
{
    return launch_scan<SquareScan<M, BLOCK, TC>>(L, args, {}, err);
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

BlockShape block_shape(int n, const wt_tuning *t)
{
    /* Crossovers of a sweep of every shape over n = 100 ... 5000
     * (bench/RESULTS.md, "Multistart: throughput (bench multistart)", and
     * the sweeps it points to). */
    BlockShape s = n < 400 ? BlockShape{32, 8} : n < 1000 ? BlockShape{32, 16}
                 : n < 3000 ? BlockShape{128, 16} : BlockShape{256, 16};
    /* For benchmarks: tuning.ms_block and ms_tc (the shapes launch_metric
     * lists). */
    if (t->ms_block) s.block = t->ms_block;
    if (t->ms_tc) s.tc = t->ms_tc;
    return s;
}

/*
 * Below 1000 cities a climber is one warp, and its scan is 8-column squares
 * of the (i, j) triangle (below 400 cities) or tiles of the (row, gap)
 * rectangle (ms_gap_scan.cuh), a tile a lane or in rounds of 32 tiles,
 * whichever costs less a step by this model, fitted to the kernels' SASS
 * and to H200 runs (bench/RESULTS.md, "Why gap tiles and rounds below 1,000
 * cities (multistart)"): a round of 8-column squares (one a lane, with its
 * dealing) issues about 760 instructions; a row of a C-gap tile 8C + 11,
 * but the rows left over after the last full group of C (unrolled one by
 * one behind a branch) run about 1.8 times as long; a tile's set-up 12C;
 * the rest of a step about 550.  A tile row's four shared-memory loads
 * conflict in the banks when the lanes' columns lie a multiple of 64 bytes
 * apart (C = 8 with many tiles in one row group ran slower than the model
 * said), so a row costs 0.7 more for every wavefront beyond the 8 of the
 * usual pattern.  The rectangle must beat the squares by 3% (the model put
 * it level with them where it ran behind); from 400 cities it always takes
 * the 16-column squares' place.  So: 100 cities take 25-row tiles of 7
 * gaps, 200 one round of 10 gaps, 500 125 tiles of 100 x 10 in four rounds.
 */
double square_step_cost(int n)
{
    const int strips = (n + 7) / 8, rounds = (strips * (strips + 1) / 2 + 31) / 32;
    return 760.0 * rounds + 550.0;
}

/* Shared-memory wavefronts of one warp-wide load of `words` words a lane
 * at word offsets at[0 .. lanes-1]: the most distinct addresses any of the
 * 32 banks must serve. */
int smem_wavefronts(const int *at, int lanes, int words)
{
    int most = 1;
    for (int bank = 0; bank < 32; bank++) {
        int seen[32], count = 0;
        for (int l = 0; l < lanes; l++) {
            bool hits = false;
            for (int w = 0; w < words; w++) hits |= (at[l] + w) % 32 == bank;
            bool again = false;
            for (int k = 0; k < count; k++) again |= seen[k] == at[l];
            if (hits && !again) seen[count++] = at[l];
        }
        most = count > most ? count : most;
    }
    return most;
}

/* Wavefronts of a tile row's four loads (row point and edge, new column
 * point and edge) over the first round's lanes, points of pt_words words. */
int gap_row_wavefronts(const ms_gap::GapPlan &p, int n, int c, int pt_words)
{
    int lanes = p.tiles < 32 ? p.tiles : 32, row[32], col[32], row_pt[32], col_pt[32];
    for (int l = 0; l < lanes; l++) {
        ms_gap::LaneTile t = ms_gap::tile_corner_of(p, n, c, l);
        row[l] = t.i0 + 1;
        col[l] = t.i0 + t.g0 + c;
        row_pt[l] = row[l] * pt_words;
        col_pt[l] = col[l] * pt_words;
    }
    return smem_wavefronts(row_pt, lanes, pt_words) + smem_wavefronts(row, lanes, 1) +
           smem_wavefronts(col_pt, lanes, pt_words) + smem_wavefronts(col, lanes, 1);
}

double gap_plan_cost(const ms_gap::GapPlan &p, int n, int c, int pt_words)
{
    if (!p.rows) return INFINITY;
    const int full = p.rows / c * c, rest = p.rows - full, rounds = (p.tiles + 31) / 32;
    const int conflicts = gap_row_wavefronts(p, n, c, pt_words) - (3 * pt_words + 2);
    const double row = 8.0 * c + 11.0 + (conflicts > 0 ? 0.7 * conflicts : 0.0);
    return rounds * (row * (full + 1.8 * rest) + 12.0 * c) + 550.0;
}

/* A rectangle scan: tiles of c gaps (0: squares), in rounds or not, cut as
 * plan. */
struct GapChoice {
    int c;
    bool rounds;
    ms_gap::GapPlan plan;
};

/* The cheapest scan of a one-warp climber for n cities by the model above,
 * unless tuning.ms_scan forces one (for benchmarks and tests) or
 * tuning.ms_gap_c the tiles' width. */
GapChoice gap_choice(int n, int pt_words, const wt_tuning *t)
{
    GapChoice best = {0, false, {}};
    if (t->ms_scan == WT_MS_SCAN_SQUARES) return best;
    const bool forced = t->ms_scan == WT_MS_SCAN_GAPS || t->ms_scan == WT_MS_SCAN_ROUNDS;
    const bool only_rounds = t->ms_scan == WT_MS_SCAN_ROUNDS;
    double cost = forced || n >= 400 ? INFINITY : 0.97 * square_step_cost(n);
    static const int widths[] = {7, 8, 10};
    for (int c : widths) {
        if (t->ms_gap_c && t->ms_gap_c != c) continue;
        ms_gap::GapPlan one = ms_gap::gap_plan(n, c);
        double x = gap_plan_cost(one, n, c, pt_words);
        if (!only_rounds && x < cost) best = {c, false, one}, cost = x;
        for (int groups = 1; groups <= 256; groups++) {
            ms_gap::GapPlan p = ms_gap::gap_plan_rows(n, c, groups);
            if (!p.rows || p.tiles <= 32) continue;
            x = gap_plan_cost(p, n, c, pt_words);
            if (x < cost) best = {c, true, p}, cost = x;
        }
    }
    return best;
}

/* Launches the rectangle scan g. */
template <class M, int C>
wt_status launch_gaps(const MsLaunch &L, const MsArgs &args, const GapChoice &g, wt_error *err)
{
    if (g.rounds) return launch_scan<GapScan<M, C, true>>(L, args, g.plan, err);
    return launch_scan<GapScan<M, C, false>>(L, args, g.plan, err);
}

template <class M>
wt_status launch_metric(const MsLaunch &L, const MsArgs &args, wt_error *err)
{
    const wt_tuning *t = L.tuning;
    BlockShape s = block_shape(L.n, t);
    /* GEO's and EXPLICIT's points take four registers: a 16-column strip's
     * 17 points alone would hold 68, so they get 8-column strips. */
    if (sizeof(typename M::Pt) >= 16 && s.tc == 16 && !t->ms_tc) s.tc = 8;
    if (s.block == 32 && L.n < 1000 && !t->ms_block && !t->ms_tc) {
        GapChoice g = gap_choice(L.n, (int)(sizeof(typename M::Pt) / 4), t);
        if (g.c == 7) return launch_gaps<M, 7>(L, args, g, err);
        if (g.c == 8) return launch_gaps<M, 8>(L, args, g, err);
        if (g.c == 10) return launch_gaps<M, 10>(L, args, g, err);
    }
    if (s.block == 32 && s.tc == 8) return launch_with_block<M, 32, 8>(L, args, err);
    if (s.block == 32 && s.tc == 16) return launch_with_block<M, 32, 16>(L, args, err);
    if (s.block == 64 && s.tc == 4) return launch_with_block<M, 64, 4>(L, args, err);
    if (s.block == 64 && s.tc == 8) return launch_with_block<M, 64, 8>(L, args, err);
    if (s.block == 128 && s.tc == 8) return launch_with_block<M, 128, 8>(L, args, err);
    if (s.block == 128 && s.tc == 16) return launch_with_block<M, 128, 16>(L, args, err);
    if (s.block == 256 && s.tc == 8) return launch_with_block<M, 256, 8>(L, args, err);
    if (s.block == 256 && s.tc == 16) return launch_with_block<M, 256, 16>(L, args, err);
    if (s.block == 512 && s.tc == 16) return launch_with_block<M, 512, 16>(L, args, err);
    return wt_fail(err, WT_STATUS_INVALID_ARGUMENT, "multistart: no kernel for tuning.ms_block "
                   "%d with tuning.ms_tc %d", s.block, s.tc);
}

} // namespace

#endif
