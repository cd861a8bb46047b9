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
 * The evaluation is the one loop written by hand, because what makes it fast
 * is a data layout no library primitive expresses.  The pair space is cut
 * into column strips TC columns wide; a thread walks rows of a strip
 * keeping the strip's TC+1 points and edge terms in registers and streaming
 * one row point per row.  A move (i, j) needs d(i, j) + d(i+1, j+1): row
 * i+1's distances serve as second terms of row i's moves and as first terms
 * of its own, so each distance is computed once and used twice: (TC+1)/TC
 * square roots per move.  Distances stay in the "magic" form M + d
 * (device_instance.cuh), in which one FADD both rounds a distance and adds
 * it to another term, so a move costs one distance, two FADDs and one FMNMX
 * (Strip below).  The best is tracked per row (a min over TC moves, then
 * one compare), the column recovered afterwards by re-evaluating that
 * single row.  Rows are dealt to threads as equal contiguous ranges of the
 * flattened strip-by-row space, so every thread gets the same amount of
 * work whatever n is.  The paper's shared-memory tiling of the j-loop
 * (§3.2) is subsumed: a thread's columns live in registers for a whole
 * strip, and rows stream from shared memory or the L1 cache.
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
#include "backend/cuda/multistart_kernels.cuh"

namespace {

/* Columns per strip: (TC+1)/TC square roots per move.  Wider strips save
 * square roots and per-row work but cost registers and per-strip set-up,
 * which small tours (small blocks, few rows per thread) cannot amortize. */
template <int BLOCK>
struct StripWidth {
    static constexpr int value = BLOCK >= 512 ? 16 : 8;
};

/* A candidate move; ordered by (d, i, j). */
struct MoveKey {
    float d;
    int i, j;
};

struct MoveKeyMin {
    __device__ __forceinline__ MoveKey operator()(const MoveKey &a, const MoveKey &b) const
    {
        if (a.d != b.d) return a.d < b.d ? a : b;
        if (a.i != b.i) return a.i < b.i ? a : b;
        return a.j <= b.j ? a : b;
    }
};

/* (d, i, j) order for folding one candidate into another. */
__device__ __forceinline__ void fold_move(MoveKey &best, const MoveKey &m)
{
    if (m.d < best.d || (m.d == best.d && m.i < best.i)) best = m;
}

/* Rows of strip J that hold moves: i in [0, min(j0+TC-1, n-1) - 1). */
template <int TC>
__device__ __forceinline__ long long strip_rows(int J, int n)
{
    int last = min(J * TC + TC - 1, n - 1);
    return last > 1 ? last - 1 : 0;
}

/* Rows of all strips before J (every strip before the last is full). */
template <int TC>
__device__ __forceinline__ long long rows_before(long long J)
{
    return (long long)TC * J * (J + 1) / 2 - 2 * J;
}

/* The strip holding flattened row r: the largest J with rows_before(J) <= r. */
template <int TC>
__device__ __forceinline__ int strip_of_row(long long r, int strips)
{
    int lo = 0, hi = strips - 1;
    while (lo < hi) {
        int mid = (lo + hi + 1) / 2;
        if (rows_before<TC>(mid) <= r) lo = mid;
        else hi = mid - 1;
    }
    return lo;
}

/* The block's tour: where its arrays live (shared or global memory). */
template <class Pt>
struct TourView {
    Pt *pts;     /* n+1: points in tour order, pts[n] = pts[0] */
    float *me;   /* n: M + d(pts[k], pts[k+1]) */
    int32_t *id; /* n: cities in tour order */
};

/*
 * One strip's registers and the row recurrence.  With X(r, c) the distance
 * from row point r to column point c, move (i, j0+c) has delta
 *   X(i, c) + X(i+1, c+1) - e_i - e_c.
 * B[c] = M + X(i, c) - e_c is carried from one row to the next: row i+1's
 * raw distances s[c] give both this row's candidates, B[c] + s[c+1] (one
 * FADD that also rounds s[c+1]: B is an integer of magnitude about M, whose
 * ulp is 1), and the next row's B[c] = s[c] + (M - e_c), another single
 * FADD.  Per move: one distance (5 instructions with its square root), two
 * FADDs and one FMNMX; the row's minimum then pays for e_i once.
 */
template <class M, int TC>
struct Strip {
    typename M::Pt q[TC + 1];
    float mc[TC]; /* M - e_c, or +inf for columns past n-1 (their moves never win) */
    int j0;

    __device__ __forceinline__ void load(const TourView<typename M::Pt> &t, int J, int n)
    {
        j0 = J * TC;
#pragma unroll
        for (int c = 0; c <= TC; c++) q[c] = t.pts[min(j0 + c, n)];
#pragma unroll
        for (int c = 0; c < TC; c++)
            mc[c] = j0 + c <= n - 1 ? __fsub_rn(2.0f * WT_MAGIC, t.me[j0 + c]) : INFINITY;
    }

    /* B[] of row point p. */
    __device__ __forceinline__ void first_terms(typename M::Pt p, float B[TC]) const
    {
#pragma unroll
        for (int c = 0; c < TC; c++) B[c] = __fadd_rn(M::raw(p, q[c]), mc[c]);
    }

    /* Candidates v[c] = M + X(i, c) + X(i+1, c+1) - e_c of row i, from its
     * B[] and row i+1's point pn; then B[] becomes row i+1's. */
    __device__ __forceinline__ void row(typename M::Pt pn, float B[TC], float v[TC]) const
    {
        float s[TC + 1];
#pragma unroll
        for (int c = 0; c <= TC; c++) s[c] = M::raw(pn, q[c]);
#pragma unroll
        for (int c = 0; c < TC; c++) {
            v[c] = __fadd_rn(B[c], s[c + 1]);
            B[c] = __fadd_rn(s[c], mc[c]);
        }
    }
};

template <int TC>
__device__ __forceinline__ float min_of(const float v[TC])
{
    float m = v[0];
#pragma unroll
    for (int c = 1; c < TC; c++) m = fminf(m, v[c]);
    return m;
}

/* Walks rows [ia, ib) of strip J, folding each row's best into best.
 * Rows below j0 - 1 have all TC columns right of the diagonal (j >= i+2):
 * they run without masking, two at a time so that one row's square roots
 * overlap the other's adds.  Within a strip rows ascend, so a strict < keeps
 * the lowest row among equals. */
template <class M, int TC>
__device__ __forceinline__ void scan_segment(const TourView<typename M::Pt> &t, int n, int J,
                                             int ia, int ib, MoveKey &best)
{
    Strip<M, TC> s;
    s.load(t, J, n);
    float B[TC], v[TC];
    s.first_terms(t.pts[ia], B);
    MoveKey sb = {INFINITY, INT_MAX, J};
    int full_end = min(ib, max(ia, s.j0 - 1));
    int i = ia;
    for (; i + 1 < full_end; i += 2) {
        s.row(t.pts[i + 1], B, v);
        float d0 = __fsub_rn(min_of<TC>(v), t.me[i]);
        s.row(t.pts[i + 2], B, v);
        float d1 = __fsub_rn(min_of<TC>(v), t.me[i + 1]);
        if (d0 < sb.d) { sb.d = d0; sb.i = i; }
        if (d1 < sb.d) { sb.d = d1; sb.i = i + 1; }
    }
    for (; i < ib; i++) { /* the last full row, then rows on the diagonal */
        s.row(t.pts[i + 1], B, v);
#pragma unroll
        for (int c = 0; c < TC; c++)
            if (s.j0 + c < i + 2) v[c] = INFINITY;
        float d = __fsub_rn(min_of<TC>(v), t.me[i]);
        if (d < sb.d) { sb.d = d; sb.i = i; }
    }
    fold_move(best, sb); /* best.j holds the strip for now */
}

/* Turns best.j from a strip number into the lowest column of row best.i
 * that attains best.d, by evaluating that row again with the same float
 * operations. */
template <class M, int TC>
__device__ __forceinline__ void resolve_column(const TourView<typename M::Pt> &t, int n,
                                               MoveKey &best)
{
    if (best.i == INT_MAX) return;
    Strip<M, TC> s;
    s.load(t, best.j, n);
    float B[TC], v[TC];
    s.first_terms(t.pts[best.i], B);
    s.row(t.pts[best.i + 1], B, v);
    int col = TC - 1;
#pragma unroll
    for (int c = TC - 1; c >= 0; c--)
        if (s.j0 + c >= best.i + 2 && __fsub_rn(v[c], t.me[best.i]) == best.d) col = c;
    best.j = s.j0 + col;
}

/* A thread's share of the flattened rows: `rows` rows from row i of strip
 * J on.  It depends on n alone, so it is worked out once per kernel, not
 * at every step (64-bit divisions and a binary search). */
struct RowShare {
    int J, i;
    long long rows;
};

template <int TC>
__device__ RowShare row_share(int n, int tid, int nthreads)
{
    int strips = (n + TC - 1) / TC;
    long long total = rows_before<TC>(strips - 1) + strip_rows<TC>(strips - 1, n);
    long long r = total * tid / nthreads, r_end = total * (tid + 1) / nthreads;
    RowShare sh = {0, 0, r_end - r};
    if (sh.rows > 0) {
        sh.J = strip_of_row<TC>(r, strips);
        sh.i = (int)(r - rows_before<TC>(sh.J));
    }
    return sh;
}

/* This thread's best move over its share of the rows. */
template <class M, int TC>
__device__ MoveKey thread_best_move(const TourView<typename M::Pt> &t, int n, RowShare sh)
{
    MoveKey best = {INFINITY, INT_MAX, INT_MAX};
    int J = sh.J, i = sh.i;
    for (long long left = sh.rows; left > 0; J++, i = 0) {
        int ib = (int)min(strip_rows<TC>(J, n), i + left);
        if (ib > i) scan_segment<M, TC>(t, n, J, i, ib, best);
        left -= ib - i;
    }
    resolve_column<M, TC>(t, n, best);
    return best;
}

/* Reverses tour positions i+1..j and refreshes the edges that changed. */
template <class M, int BLOCK>
__device__ __forceinline__ void apply_move(const TourView<typename M::Pt> &t, int i, int j)
{
    int len = j - i; /* positions i+1..j */
    for (int k = threadIdx.x; k < len / 2; k += BLOCK) {
        int p = i + 1 + k, q = j - k;
        typename M::Pt tp = t.pts[p];
        t.pts[p] = t.pts[q];
        t.pts[q] = tp;
        int32_t tc = t.id[p];
        t.id[p] = t.id[q];
        t.id[q] = tc;
    }
    __syncthreads();
    for (int k = i + threadIdx.x; k <= j; k += BLOCK) t.me[k] = M::x(t.pts[k], t.pts[k + 1]);
    __syncthreads();
}

/* Lays out the block's arrays in one buffer: points first (16-byte aligned). */
template <class Pt>
__device__ __forceinline__ TourView<Pt> tour_view(unsigned char *base, int n)
{
    TourView<Pt> t;
    size_t pts_bytes = ((size_t)(n + 1) * sizeof(Pt) + 15) / 16 * 16;
    t.pts = (Pt *)base;
    t.me = (float *)(base + pts_bytes);
    t.id = (int32_t *)(base + pts_bytes + ((size_t)(n + 1) * sizeof(float) + 15) / 16 * 16);
    return t;
}

template <int BLOCK>
union BlockTemp {
    typename cub::BlockReduce<MoveKey, BLOCK>::TempStorage move;
    typename cub::BlockReduce<long long, BLOCK>::TempStorage length;
};

/* Starts climb `climb`: its random tour, the points, the edges. */
template <class M, int BLOCK>
__device__ void start_climb(const MsArgs &a, const TourView<typename M::Pt> &t,
                            unsigned long long climb)
{
    int n = a.inst.n;
    if (threadIdx.x == 0) wt_climb_start_tour(a.seed, climb, n, t.id);
    __syncthreads();
    for (int k = threadIdx.x; k <= n; k += BLOCK) t.pts[k] = M::point(a.inst, t.id[k < n ? k : 0]);
    __syncthreads();
    for (int k = threadIdx.x; k < n; k += BLOCK) t.me[k] = M::x(t.pts[k], t.pts[k + 1]);
    __syncthreads();
}

/* Whether move (i, j) shortens the tour under the exact metric.  The scan
 * ranks moves in float; where float distances are inexact (large or
 * fractional coordinates) a move may look improving without being so, and
 * applying it could undo an earlier one forever.  Applying only exactly
 * improving moves makes every climb end; what float overlooked is bounded
 * by its rounding (README, "Precision"). */
__device__ __forceinline__ bool exactly_improving(const DevInst &I, const int32_t *id, int i,
                                                  int j)
{
    int a = id[i], b = id[i + 1], c = id[j], d = id[j + 1 < I.n ? j + 1 : 0];
    long long delta = dev_exact_dist(I, a, c) + dev_exact_dist(I, b, d) -
                      dev_exact_dist(I, a, b) - dev_exact_dist(I, c, d);
    return delta < 0;
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

template <class M, int BLOCK, bool SMEM>
__global__ void __launch_bounds__(BLOCK) ms_block_kernel(MsArgs a)
{
    extern __shared__ __align__(16) unsigned char smem[];
    __shared__ BlockTemp<BLOCK> tmp;
    __shared__ MoveKey s_move;
    __shared__ unsigned long long s_climb;
    __shared__ int s_stop, s_won;

    const int n = a.inst.n;
    unsigned char *base = SMEM ? smem : a.scratch + (size_t)blockIdx.x * a.scratch_stride;
    TourView<typename M::Pt> t = tour_view<typename M::Pt>(base, n);
    constexpr int TC = StripWidth<BLOCK>::value;
    const RowShare share = row_share<TC>(n, threadIdx.x, BLOCK);
    for (;;) {
        if (threadIdx.x == 0) s_climb = ms_take_climb(a);
        __syncthreads();
        unsigned long long climb = s_climb;
        if (climb == MS_NO_CLIMB) return;
        start_climb<M, BLOCK>(a, t, climb);
        unsigned long long steps = 0, scans = 0;
        bool completed = false;
        for (;;) {
            /* Issued before the scan, so the L2 round trip hides behind it. */
            int stop_now = threadIdx.x == 0 ? ms_stop_requested(a) : 0;
            MoveKey mine = thread_best_move<M, TC>(t, n, share);
            MoveKey best = cub::BlockReduce<MoveKey, BLOCK>(tmp.move).Reduce(mine, MoveKeyMin());
            if (threadIdx.x == 0) {
                if (best.d < 0.0f && !exactly_improving(a.inst, t.id, best.i, best.j))
                    best.d = 0.0f; /* float saw a gain the exact metric denies: stop here */
                s_move = best;
                s_stop = stop_now;
            }
            __syncthreads();
            best = s_move;
            scans++;
            if (!(best.d < 0.0f)) {
                completed = true;
                break;
            }
            if (s_stop) break; /* the tour stays valid: stop before changing it */
            apply_move<M, BLOCK>(t, best.i, best.j);
            steps++;
        }
        long long len = exact_length<BLOCK>(a.inst, t.id, tmp);
        if (threadIdx.x == 0) ms_count(a, steps, scans, completed);
        offer_best<BLOCK>(a, t.id, len, climb, &s_won);
    }
}

/* Bytes of one block's tour arrays. */
template <class Pt>
size_t tour_bytes(int n)
{
    return ((size_t)(n + 1) * sizeof(Pt) + 15) / 16 * 16 +
           ((size_t)(n + 1) * sizeof(float) + 15) / 16 * 16 + (size_t)(n + 1) * sizeof(int32_t);
}

/* Picks the block size, shared or global memory, and the grid; launches. */
template <class M, int BLOCK>
wt_status launch_with_block(const MsLaunch &L, MsArgs args, wt_error *err)
{
    size_t bytes = tour_bytes<typename M::Pt>(L.n);
    int dev = 0, smem_optin = 0, sms = 0;
    WT_CUDA_CHECK(err, cudaGetDevice(&dev));
    WT_CUDA_CHECK(err, cudaDeviceGetAttribute(&smem_optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
    WT_CUDA_CHECK(err, cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    int static_smem = (int)sizeof(BlockTemp<BLOCK>) + 64;
    bool in_smem = bytes + (size_t)static_smem <= (size_t)smem_optin;
    void (*kernel)(MsArgs) = in_smem ? ms_block_kernel<M, BLOCK, true> : ms_block_kernel<M, BLOCK, false>;
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

template <class M>
wt_status launch_metric(const MsLaunch &L, const MsArgs &args, wt_error *err)
{
    /* Small tours have few rows per thread; smaller blocks keep per-step
     * synchronization short and let more climbers share an SM. */
    long long rows = (long long)L.n * L.n / 16; /* strips of 8 */
    int block = rows < 6000 ? 64 : rows < 50000 ? 256 : 512; /* measured on an H100 */
    /* A tuning knob for benchmarks, not a user option: WT_MS_BLOCK=64|256|512. */
    const char *force = getenv("WT_MS_BLOCK");
    if (force) block = atoi(force);
    if (block == 64) return launch_with_block<M, 64>(L, args, err);
    if (block == 256) return launch_with_block<M, 256>(L, args, err);
    return launch_with_block<M, 512>(L, args, err);
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
