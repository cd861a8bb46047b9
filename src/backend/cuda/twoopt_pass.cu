/*
 * twoopt_pass.cu - a full 2-opt pass of one tour spread over the whole GPU
 * (Rocki & Suda 2013), register-tiled (Lee 2014), with the per-row bests
 * that k-swap selection needs (Robinson et al. 2018, §3.4).
 *
 * Work division (any n): every warp is a climber of its own share of the
 * triangular pair space 0 <= i < n-2, i+2 <= j < n, with no shared memory
 * and no block barrier.  Its 32 lanes hold R consecutive rows each in
 * registers (R+1 points: rows i and i+1 are both needed), a row block of
 * 32R rows, and walk a range of that row block's columns, every lane
 * loading the same column's point and edge term (one broadcast load per
 * column, two columns ahead).  The row blocks' column ranges, laid end to
 * end, are cut into shares of equal cost, one per resident warp, so a pass
 * is one wave with no tail at any n (Rocki's division of the pair space,
 * balanced per warp instead of per tile; an earlier kernel that gave
 * 2048-row tiles to blocks round robin ran 1.1-2x slower at 13k-240k
 * cities: bench/RESULTS.md).  R is 8 below PASS_R8_BELOW cities (more warps
 * per SM to hide the latencies of short shares), 16 above (fewer square
 * roots per move).
 *
 * Move (i, j) is
 *     (d(p_i, q_j) - e_i) + (d(p_i+1, q_j+1) - e_j)
 * and the distance d(p_r, q_c) serves as the second term of row r-1's
 * move at column c-1 and as the first term of row r's move at column c: each
 * distance is computed once and used twice, (R+1)/R square roots per move.
 * Distances enter unrounded (M::raw, device_instance.cuh): M::add, one
 * FADD, rounds a raw distance the metric's way and adds it to an integer
 * near M = 1.5 * 2^23 (ulp 1).  So the column term kept per row,
 * b = M - e_j + d(p_i, q_j), is one FADD of the raw distance to the
 * column's M - e_j, and the move's value b + d(p_i+1, q_j+1) one more: per
 * move one raw distance, two FADDs and an FMNMX (the multistart kernel's
 * Strip does the same); for EUC_2D, CEIL_2D and ATT at 8 rows per lane an
 * integer form of the loop (warp_rows_dpx) rounds each distance once and
 * spends one VIADDMNMX a move instead.  The best is tracked as a plain fminf per row,
 * without index bookkeeping: at the end of each piece of at most plan.piece
 * columns a row whose minimum is improving offers (delta, first column of
 * the piece) with a 64-bit atomicMin on an order-preserving key, and after
 * the pass a warp per row finds the lowest column of the winning piece
 * that has that delta (recover_kernel).  This loop is written by hand
 * because its speed is the register layout and the once-computed,
 * twice-used distances: no library primitive expresses that.  The
 * compaction, scans and sums around it are CUB's.
 */
#include <cub/warp/warp_reduce.cuh>
#include <cuda/functional>

#include <climits>
#include <cmath>

#include "backend/cuda/float_order.cuh"
#include "backend/cuda/twoopt_pass.cuh"

namespace {

/* Threads per block of the pass kernel.  Its warps are independent, so
 * the block size only sets how many blocks the GPU launches for one wave:
 * at R = 8, 512-thread blocks when the wave fills the GPU (fewer, larger
 * launches: 4-7% faster at 13k-34k cities than 128, H100, bench/RESULTS.md),
 * else 128, so that a small tour's few warps spread over more SMs
 * (tuning.pass_block forces one, for measurements). */
constexpr int PASS_THREADS = 128, PASS_THREADS_FULL = 512;

__device__ __forceinline__ unsigned long long row_key(float d, int j)
{
    return ((unsigned long long)float_order(d) << 32) | (unsigned)j;
}

template <class M>
struct PassArgs {
    DevInst inst;
    const typename M::Pt *pts;
    const float *me;
    unsigned long long *rowkey;
    const int *stop;
    int n;
    int piece; /* columns per offer (see offer_rows) */
};

/* The term of move (i, j) that the pass minimizes over j:
 * (M - e_j + d(p_i, q_j)) + d(p_i+1, q_j+1) = M + delta + e_i, each FADD
 * rounding its raw distance as TSPLIB does.  The sum stays in [2^23,
 * 2^24), where floats are exact integers, whenever distances are: so e_i
 * can be subtracted once per row, after the minimum, which saves one FADD
 * per move.  Bit for bit the value warp_rows computes. */
template <class M>
__device__ __forceinline__ float pass_row_term(typename M::Pt pi, typename M::Pt pn,
                                               typename M::Pt qj, typename M::Pt qn, float mcj)
{
    return M::add(M::add(mcj, M::raw(pi, qj)), M::raw(pn, qn));
}

constexpr long long MIN_WARP_STEPS = 32; /* fewer warps than that on small tours */

/* Column steps of row blocks [0, I): row block I scans columns
 * I*wr + 2 .. n-1, n - 2 - I*wr of them (wr = 32R rows per row block). */
__host__ __device__ __forceinline__ long long steps_before(int n, int wr, long long I)
{
    return I * (long long)(n - 2) - (long long)wr * I * (I - 1) / 2;
}

__host__ __device__ __forceinline__ int row_blocks(int n, int wr) { return (n - 2 + wr - 1) / wr; }

/* The shares are equal in cost, not in columns: a row block's first
 * wr - 1 columns reach below the diagonal and take the masked loop, about
 * half as dear again as a plain column (an ISETP and an FSEL per move,
 * and at 96 registers a few spills; measured so in session 4, 1.24x at 8
 * rows and 1.32x at 16 in the SASS of the loops without clamps); counted
 * as such, the warps that hold them finish with the others.  Costs in units: PLAIN_COST per plain
 * column, MASKED_COST per masked one. */
constexpr long long PLAIN_COST = 2, MASKED_COST = 3;

__host__ __device__ __forceinline__ int block_columns(int n, int wr, int I) { return n - 2 - I * wr; }
__host__ __device__ __forceinline__ int block_masked(int n, int wr, int I)
{
    return min(wr - 1, block_columns(n, wr, I));
}

/* Cost of row blocks [0, I): all but the last have wr - 1 masked columns. */
__host__ __device__ __forceinline__ long long cost_before(int n, int wr, int I)
{
    long long masked = I < row_blocks(n, wr) ? (long long)(wr - 1) * I
                                             : (long long)(wr - 1) * (I - 1) + block_masked(n, wr, I - 1);
    return PLAIN_COST * steps_before(n, wr, I) + (MASKED_COST - PLAIN_COST) * masked;
}

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

/* Row minima of the lane's R rows over columns ja .. jb-1, in the form
 * M + delta + e_r (see pass_row_term), columns read from global memory two
 * ahead.  MASK: moves left of the diagonal (j < i+2) do not count.  Per
 * move: one M::raw, the FADD that completes this move, the FADD that
 * rounds the distance into the next column's term, one FMNMX. */
template <class M, int R, bool MASK>
__device__ __forceinline__ void warp_rows(const typename M::Pt p[R + 1], const typename M::Pt *pts,
                                          const float *me, int n, int i0, int ja, int jb,
                                          float mn[R])
{
    if (ja >= jb) return;
    float b[R];
    {
        typename M::Pt q = pts[ja];
        float mc = __fsub_rn(2.0f * WT_MAGIC, me[ja]);
#pragma unroll
        for (int r = 0; r < R; r++) b[r] = M::add(mc, M::raw(p[r], q));
    }
    /* Two columns ahead: the compiler issues a prefetch at the end of the
     * iteration, so one ahead would wait at the top of the next.  The loads
     * run up to three entries past the tour (PASS_READ_AHEAD), never used:
     * no clamps, and the addresses step with the column.  Two columns per
     * iteration, so that the rotation of q1, q2, e1, e2 is a renaming, not
     * moves (the loop was 153 instructions per column at R = 16, 19 of them
     * clamps, moves, and reloads of the arrays' addresses). */
    const typename M::Pt *qp = pts + ja;
    const float *ep = me + ja;
    typename M::Pt q1 = qp[1], q2 = qp[2];
    float e1 = ep[1], e2 = ep[2];
#pragma unroll 2
    for (int j = ja; j < jb; j++) {
        typename M::Pt q = q1;
        float mc = __fsub_rn(2.0f * WT_MAGIC, e1);
        q1 = q2;
        e1 = e2;
        q2 = qp[3];
        e2 = ep[3];
        qp++;
        ep++;
        float s = M::raw(p[0], q);
#pragma unroll
        for (int r = 0; r < R; r++) {
            float sn = M::raw(p[r + 1], q);
            float d = M::add(b[r], sn);
            if (MASK && j < i0 + r + 2) d = INFINITY;
            mn[r] = fminf(mn[r], d);
            b[r] = M::add(mc, s);
            s = sn;
        }
    }
}

/* The integer form of the same loop (Hopper's DPX instructions).  Above,
 * each distance is rounded twice, once into each of its two moves, and a
 * move costs two FADDs and an FMNMX.  Here each distance is rounded once,
 * into a value u(r, c) = M + o_c + d(p_r, q_c) whose float bits are an
 * integer (MAGIC_BITS + o_c + d: floats in [2^23, 2^24) step by one), and
 * a move is the integer sum of its two distances' values: one VIADDMNMX,
 * min(a + b, m), adds and keeps the row minimum in one instruction.  For
 * the sum to be the move's term, the offsets must carry the column's edge:
 * o_c + o_{c+1} = -e_c, so o_{c+1} = -e_c - o_c, a chain along the columns
 * (next_offset, one IADD3 a column, the same in every lane).  The chain's
 * offsets are alternating sums of edges and grow; every `period` columns
 * it restarts at 0 (an anchor column, whose distances are rounded twice:
 * with the old chain for the moves that end there, with 0 for those that
 * start there), and pass_plan picks the period so that no value leaves
 * [2^23, 2^24): an offset at most period / 2 edges long plus a distance,
 * below 2^22.  The sum of a move is then 2 MAGIC_BITS + d + d' - e_c,
 * whose difference from MAGIC_BITS is exactly the float loop's
 * M + delta + e_i in bits (dpx_row_min): offers and recovery are
 * unchanged, and so is every value, bit for bit.  Only at 8 rows per lane
 * (below PASS_R8_BELOW cities): at 16 the integer loop needs more than
 * the 96 registers of five 128-thread blocks an SM, spills in its loop
 * and ran 10% slower than the float loop (bench/RESULTS.md). */
constexpr unsigned MAGIC_BITS = 0x4B400000u; /* the bits of WT_MAGIC */
/* Every sum is below 0x97000000 (two values below 2^24, 0x4B800000);
 * row minima start above (0xFFFFFFFF, "no move"). */
constexpr unsigned NO_SUM = 0xA0000000u;

/* The offset of the column after one with offset `off` and edge term me. */
__device__ __forceinline__ unsigned next_offset(unsigned off, float me)
{
    return 3u * MAGIC_BITS - __float_as_uint(me) - off;
}

/* One column of the integer loop: finishes the moves of the column before
 * with this column's distances rounded at offset `off`, then leaves u[r]
 * for this column's moves, at offset `off` or, on an anchor, 0 (magic M).
 * No diagonal mask: the masked columns take the float loop. */
template <class M, int R, bool ANCHOR>
__device__ __forceinline__ void dpx_column(const typename M::Pt p[R + 1], typename M::Pt q,
                                           unsigned off, unsigned u[R], unsigned mn[R])
{
    const float o = __uint_as_float(off);
    float s[R + 1];
#pragma unroll
    for (int r = 0; r <= R; r++) s[r] = M::raw(p[r], q);
#pragma unroll
    for (int r = 0; r < R; r++)
        mn[r] = __viaddmin_u32(u[r], __float_as_uint(M::add(o, s[r + 1])), mn[r]);
    const float a = ANCHOR ? WT_MAGIC : o;
#pragma unroll
    for (int r = 0; r < R; r++) u[r] = __float_as_uint(M::add(a, s[r]));
}

/* The columns of warp_rows_dpx, read two ahead as warp_rows reads them
 * (its loads run up to PASS_READ_AHEAD entries past the tour).  pair()
 * steps two columns, so that the rotation of the prefetched columns is a
 * renaming; the second may be an anchor. */
template <class M, int R>
struct DpxColumns {
    const typename M::Pt *qp;
    const float *ep;
    typename M::Pt q1, q2;
    float e1, e2;
    unsigned off; /* offset of the next column */
    int c;        /* the next column */

    __device__ __forceinline__ typename M::Pt next_point(float *e, int ahead)
    {
        typename M::Pt q = q1;
        *e = e1;
        q1 = q2;
        e1 = e2;
        q2 = qp[ahead];
        e2 = ep[ahead];
        return q;
    }

    template <bool ANCHOR>
    __device__ __forceinline__ void pair(const typename M::Pt p[R + 1], unsigned u[R],
                                         unsigned mn[R])
    {
        float e;
        typename M::Pt q = next_point(&e, 3);
        dpx_column<M, R, false>(p, q, off, u, mn);
        off = next_offset(off, e);
        q = next_point(&e, 4);
        qp += 2;
        ep += 2;
        dpx_column<M, R, ANCHOR>(p, q, off, u, mn);
        off = next_offset(ANCHOR ? MAGIC_BITS : off, e);
        c += 2;
    }
};

/* warp_rows in the integer form, for columns right of the diagonal: row
 * minima mn[r] as sums (NO_SUM and above: none).  Column ja starts a
 * chain; then blocks of PERIOD columns (even), each PERIOD / 2 - 1 plain
 * pairs and a pair whose second column is an anchor, written apart so
 * that the plain columns share their roundings (one FADD a distance); then
 * the columns left, plain. */
template <class M, int R, int PERIOD>
__device__ __forceinline__ void warp_rows_dpx(const typename M::Pt p[R + 1],
                                              const typename M::Pt *pts, const float *me, int ja,
                                              int jb, unsigned mn[R])
{
    if (ja >= jb) return;
    unsigned u[R];
    {
        typename M::Pt q = pts[ja];
#pragma unroll
        for (int r = 0; r < R; r++) u[r] = __float_as_uint(M::add(WT_MAGIC, M::raw(p[r], q)));
    }
    DpxColumns<M, R> cols;
    cols.qp = pts + ja;
    cols.ep = me + ja;
    cols.q1 = cols.qp[1];
    cols.q2 = cols.qp[2];
    cols.e1 = cols.ep[1];
    cols.e2 = cols.ep[2];
    cols.off = next_offset(MAGIC_BITS, me[ja]);
    cols.c = ja + 1;
    /* Columns c .. jb finish the moves of columns c-1 .. jb-1. */
    while (cols.c + PERIOD - 1 <= jb) {
#pragma unroll
        for (int k = 0; k < PERIOD / 2 - 1; k++) cols.template pair<false>(p, u, mn);
        cols.template pair<true>(p, u, mn);
    }
    while (cols.c < jb) cols.template pair<false>(p, u, mn);
    if (cols.c == jb) dpx_column<M, R, false>(p, cols.q1, cols.off, u, mn);
}

/* A row minimum of the integer loop in warp_rows's float form
 * (M + delta + e_i), INFINITY where the row had no move. */
__device__ __forceinline__ float dpx_row_min(unsigned m)
{
    return m >= NO_SUM ? INFINITY : __uint_as_float(m - MAGIC_BITS);
}

/* Offers each of the lane's rows whose best float move among columns
 * js .. (the piece) is improving, keyed by (delta, js): rowkey[i] ends up
 * with the row's least delta and the first piece holding it, which
 * recover_kernel turns into the lowest such column.  Fire-and-forget
 * atomics: finding the column here would make the warp re-scan the piece
 * row after row, each step waiting on global loads; after the pass a warp
 * per row does it, all rows at once.  The load of rowkey first spares
 * the atomics of rows that a better move elsewhere already decided. */
template <int R>
__device__ __forceinline__ void offer_rows(const float *me, unsigned long long *rowkey, int n,
                                           int i0, int js, const float mn[R])
{
#pragma unroll
    for (int r = 0; r < R; r++) {
        int i = i0 + r;
        if (i >= n - 2 || mn[r] == INFINITY) continue;
        float delta = __fsub_rn(mn[r], me[i]);
        if (!(delta < 0.0f)) continue;
        unsigned long long key = row_key(delta, js);
        if (key < __ldcg(rowkey + i)) atomicMin(rowkey + i, key);
    }
}

/* Columns per piece: a row's column is recovered within one piece, at
 * most PIECE_MAX / 128 rounds of its warp (recover_kernel).  Shorter
 * pieces spend fewer recovery rounds and more offers (tuning.pass_piece
 * overrides the default, for measurements). */
constexpr int PIECE_DEFAULT = 512, PIECE_MAX = 1024;

/* One row block's columns ja .. jb-1 for the warp, piece by piece, in the
 * float loop (PERIOD 0) or the integer one. */
template <class M, int R, int PERIOD>
__device__ __forceinline__ void warp_segment(const PassArgs<M> &a, int I, int ja, int jb)
{
    const int n = a.n, lane = threadIdx.x & 31;
    constexpr int WR = 32 * R;
    const int i0 = I * WR + lane * R;
    /* Columns below this one reach below some row's diagonal (j < i + 2). */
    const int jdiag = I * WR + WR + 1;
    typename M::Pt p[R + 1];
#pragma unroll
    for (int r = 0; r <= R; r++) p[r] = a.pts[min(i0 + r, n)];
    for (int js = ja; js < jb; js += a.piece) {
        const int je = min(js + a.piece, jb), jm = min(max(jdiag, js), je);
        float mn[R];
#pragma unroll
        for (int r = 0; r < R; r++) mn[r] = INFINITY;
        warp_rows<M, R, true>(p, a.pts, a.me, n, i0, js, jm, mn);
        if constexpr (PERIOD > 0) {
            unsigned m[R];
#pragma unroll
            for (int r = 0; r < R; r++) m[r] = 0xFFFFFFFFu;
            warp_rows_dpx<M, R, PERIOD>(p, a.pts, a.me, jm, je, m);
#pragma unroll
            for (int r = 0; r < R; r++) mn[r] = fminf(mn[r], dpx_row_min(m[r]));
        } else {
            warp_rows<M, R, false>(p, a.pts, a.me, n, i0, jm, je, mn);
        }
        offer_rows<R>(a.me, a.rowkey, n, i0, js, mn);
    }
}

/* Lets the recovery kernel, launched behind this one with programmatic
 * stream serialization (pass_collect), start its launch now: its blocks
 * take the SMs this wave leaves and wait there (griddepcontrol.wait) for
 * the pass to finish, so no launch gap separates the two.  A no-op before
 * Hopper. */
__device__ __forceinline__ void let_dependents_launch()
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
#endif
}

/* Waits until the kernels this one depends on have finished and their
 * writes are visible (a no-op when it was launched without programmatic
 * serialization, or before Hopper). */
__device__ __forceinline__ void wait_for_prerequisites()
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
}

/* R = 8: 64 registers whatever the block size up to 512 (32 warps an SM);
 * R = 16: 96 registers, five blocks of 128. */
template <int R>
struct PassBounds {
    static constexpr int threads = R >= 16 ? PASS_THREADS : PASS_THREADS_FULL;
    static constexpr int blocks = R >= 16 ? 5 : 2;
};

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

/* The metrics whose pass takes the integer loop where the plan allows it:
 * the 2D Euclidean family, which TSPLIB's large instances use.  The others
 * keep the float loop and compile one kernel less each. */
template <class M>
struct DpxLoop {
    static constexpr bool value = false;
};
template <>
struct DpxLoop<MetricEuc2D> {
    static constexpr bool value = true;
};
template <>
struct DpxLoop<MetricCeil2D> {
    static constexpr bool value = true;
};
template <>
struct DpxLoop<MetricAtt> {
    static constexpr bool value = true;
};

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
    static __device__ __forceinline__ float of(float gx, float gy) { return sqrtf(gx * gx + gy * gy); }
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

/* Calls f(M()) with the metric of type. */
template <class F>
wt_status with_metric(wt_edge_weight_type type, wt_error *err, F &&f)
{
    switch (type) {
    case WT_EUC_2D: return f(MetricEuc2D());
    case WT_CEIL_2D: return f(MetricCeil2D());
    case WT_ATT: return f(MetricAtt());
    case WT_GEO: return f(MetricGeo());
    case WT_MAN_2D: return f(MetricMan2D());
    case WT_MAX_2D: return f(MetricMax2D());
    case WT_EUC_3D: return f(MetricEuc3D());
    case WT_EXPLICIT: return f(MetricExplicit());
    case WT_EUC_2D_REAL: /* kept as EUC_2D / EUC_3D: never an instance's type */
    case WT_EUC_3D_REAL: break;
    }
    return wt_fail(err, WT_STATUS_UNSUPPORTED, "2-opt pass: unknown edge weight type");
}

/* Checks a launch; names the kernel in the message. */
wt_status launched(const char *what, wt_error *err)
{
    cudaError_t e = cudaGetLastError();
    if (e == cudaSuccess) return WT_OK;
    return wt_fail(err, WT_STATUS_DEVICE, "%s kernel launch failed: %s", what,
                   cudaGetErrorString(e));
}

unsigned grid_for(long long items)
{
    long long blocks = (items + 255) / 256;
    return (unsigned)(blocks < 1 ? 1 : blocks > 65535 ? 65535 : blocks);
}

template <class M>
__global__ void refresh_kernel(DevInst I, typename M::Pt *pts, float *me, const int32_t *id)
{
    int n = I.n;
    for (long long k = blockIdx.x * (long long)blockDim.x + threadIdx.x; k <= n;
         k += (long long)gridDim.x * blockDim.x) {
        typename M::Pt a = M::point(I, id[k < n ? k : 0]);
        pts[k] = a;
        if (k < n) me[k] = M::x(a, M::point(I, id[k + 1 < n ? k + 1 : 0]));
    }
}

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
 * two cities, their coordinates), and the recovery of a 13,509-city pass
 * is a sixth of it (bench/RESULTS.md).  Launched behind the pass with
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
            m.delta = dev_exact_2opt_delta_warp(I, a, b, id[found], id[found + 1 < n ? found + 1 : 0]);
            m.j = found;
        }
        if (lane == 0) {
            cand[i] = m;
            if (key != PASS_NO_MOVE) rowkey[i] = PASS_NO_MOVE;
        }
    }
}

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

/* Row i's best float move with j in [i+2, i+band], by pass_row_term, the
 * pass's own float operations, so that where float is exact it is the
 * CPU's band best (wt_2opt_candidates); its exact delta as collect_kernel
 * computes it.  A thread per row, its columns read straight from global
 * memory (neighbouring threads read neighbouring points): n * band
 * evaluations, a small fraction of a pass's n^2 / 2 when band << n. */
template <class M>
__global__ void band_kernel(DevInst I, const typename M::Pt *pts, const float *me,
                            const int32_t *id, int band, wt_kswap_move *cand)
{
    int n = I.n, rows = n - 2;
    for (long long k = blockIdx.x * (long long)blockDim.x + threadIdx.x; k < rows;
         k += (long long)gridDim.x * blockDim.x) {
        int i = (int)k;
        typename M::Pt pi = pts[i], pn = pts[i + 1];
        int last = (long long)i + band < n - 1 ? i + band : n - 1;
        float best = INFINITY;
        int bj = -1;
        for (int j = i + 2; j <= last; j++) {
            float mcj = __fsub_rn(2.0f * WT_MAGIC, me[j]); /* as load_columns */
            float d = pass_row_term<M>(pi, pn, pts[j], pts[j + 1], mcj);
            if (d < best) { /* ascending j: "<" keeps the lowest j */
                best = d;
                bj = j;
            }
        }
        wt_kswap_move m = {0, i, -1};
        if (bj >= 0 && __fsub_rn(best, me[i]) < 0.0f && bj != cand[i].j) {
            m.delta = dev_exact_2opt_delta(I, id[i], id[i + 1], id[bj], id[bj + 1 < n ? bj + 1 : 0]);
            m.j = bj;
        }
        cand[rows + i] = m;
    }
}

__global__ void exact_edge_kernel(DevInst I, const int32_t *id, long long *exact)
{
    int n = I.n;
    for (long long k = blockIdx.x * (long long)blockDim.x + threadIdx.x; k < n;
         k += (long long)gridDim.x * blockDim.x)
        exact[k] = dev_exact_dist(I, id[k], id[k + 1 < n ? k + 1 : 0]);
}

} // namespace

size_t pass_point_bytes(wt_edge_weight_type type)
{
    size_t bytes = 0;
    with_metric(type, nullptr, [&](auto m) {
        bytes = sizeof(typename decltype(m)::Pt);
        return WT_OK;
    });
    return bytes;
}

wt_status pass_refresh_tour(const DevInst &I, DevTour t, cudaStream_t stream, wt_error *err)
{
    return with_metric(I.type, err, [&](auto m) {
        using M = decltype(m);
        refresh_kernel<M><<<grid_for(I.n + 1), 256, 0, stream>>>(I, (typename M::Pt *)t.pts,
                                                                 t.me, t.id);
        return launched("tour refresh", err);
    });
}

/* Rows per lane of the pass: 16 (fewer square roots per move,
 * 20 warps per SM) for large tours, 8 (32 warps per SM, to hide the
 * latencies of short shares) below PASS_R8_BELOW cities. */
constexpr int PASS_R8_BELOW = 50000;

/* A knob of the tuning (wt_solve checked it): its value, or fallback for
 * 0, the default. */
int pass_knob(int value, int fallback) { return value ? value : fallback; }

/* The plan's shape: rows per lane, block size (0: pass_plan picks),
 * piece, chaining; tuning.pass_rows, pass_block (R = 8 only), pass_piece
 * and pass_unchained force them, for measurements. */
void pass_shape(int n, const wt_tuning *t, PassPlan *plan)
{
    plan->rows_per_lane = pass_knob(t->pass_rows, n < PASS_R8_BELOW ? 8 : 16);
    plan->block = plan->rows_per_lane == 8 ? t->pass_block : PASS_THREADS;
    plan->piece = min(pass_knob(t->pass_piece, PIECE_DEFAULT), PIECE_MAX);
    plan->chained = !t->pass_unchained;
}

/* Warps of a pass with blocks of `block` threads: every resident warp,
 * unless that leaves them too little each; *full says whether that is
 * every resident warp. */
template <class M>
wt_status pass_warps(const DevInst &I, const PassPlan &plan, int block, long long *warps,
                     bool *full, wt_error *err)
{
    int dev = 0, sms = 0, per_sm = 0;
    WT_CUDA_CHECK(err, cudaGetDevice(&dev));
    WT_CUDA_CHECK(err, cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    const void *kernel = plan.rows_per_lane == 8 ? pass_kernel<M, 8>(plan.period)
                                                 : pass_kernel<M, 16>(plan.period);
    WT_CUDA_CHECK(err, cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, block, 0));
    if (per_sm < 1)
        return wt_fail(err, WT_STATUS_DEVICE, "2-opt pass: no block of %d threads fits "
                       "on this GPU", block);
    const int wr = 32 * plan.rows_per_lane;
    long long steps = I.n < 4 ? 0 : steps_before(I.n, wr, row_blocks(I.n, wr));
    long long resident = (long long)sms * per_sm * (block / 32);
    *warps = resident;
    if (*warps * MIN_WARP_STEPS > steps) *warps = steps / MIN_WARP_STEPS;
    if (*warps < 1) *warps = 1;
    *full = *warps == resident;
    return WT_OK;
}

/* Longest offset chain of the integer loop (warp_rows_dpx): offsets are
 * alternating sums of at most period / 2 edges, and an offset plus a
 * distance must stay below 2^22, so (period / 2 + 1) * max_dist < 2^22.
 * Longer chains spend fewer anchors (an extra R FADDs each). */
constexpr int PERIOD_MAX = 8;

/* The plan's period: the longest power of two up to PERIOD_MAX (or
 * tuning.pass_period, 2 or 4, if shorter) that keeps the offsets in
 * range; 0, the float loop, where even 2 does not, for metrics without the
 * integer loop, or with tuning.pass_float_loop. */
template <class M>
int pass_period(double max_dist, const wt_tuning *t)
{
    if (!DpxLoop<M>::value || t->pass_float_loop) return 0;
    int period = pass_knob(t->pass_period, PERIOD_MAX);
    while (period >= 2 && !((period / 2 + 1) * max_dist < 0x1p22)) period /= 2;
    return period >= 2 ? period : 0;
}

double pass_max_distance(const wt_instance *inst)
{
    double lo[3], hi[3];
    if (!wt_instance_bbox(inst, lo, hi)) return INFINITY;
    switch (inst->type) {
    case WT_EUC_2D:
    case WT_CEIL_2D:
    case WT_ATT: /* ATT's distances are a third of the plain ones */
        return hypot(hi[0] - lo[0], hi[1] - lo[1]) + 2.0;
    case WT_MAN_2D: return (hi[0] - lo[0]) + (hi[1] - lo[1]) + 2.0; /* no integer loop */
    case WT_MAX_2D: return fmax(hi[0] - lo[0], hi[1] - lo[1]) + 2.0;
    default: return INFINITY;
    }
}

size_t pass_boxes_count(int n)
{
    size_t tiles = ((size_t)n + PASS_TILE - 1) / PASS_TILE;
    return 2 * tiles; /* row blocks are fewer than tiles */
}

/* Largest distance at which the pruned pass's float sums stay exact
 * integers: M plus two distances below 2^24. */
constexpr double PRUNE_MAX_DIST = 0x1p21;

/* Fewest cities for the pruned pass: below, the box kernel and the slots'
 * tests cost more than the pairs they spare (usa13509 from greedy: 67.6 us
 * pruned, 57.8 us full; d18512: 70.8 us against 86.7; H200,
 * bench/RESULTS.md).  tuning.pass_prune_min overrides it (tests,
 * measurements). */
constexpr int PRUNE_MIN_N = 16384;

/* Tiles per slot of the pruned pass: all 32 lanes while that leaves
 * at least 4 slots right of the diagonal per warp, else fewer. */
int pass_width(int n, int wr, long long warps)
{
    long long tiles = (n + PASS_TILE - 1) / PASS_TILE, units = tiles * row_blocks(n, wr) / 2;
    int width = 32;
    while (width > 1 && units / width < 4 * warps) width /= 2;
    return width;
}

wt_status pass_plan(const DevInst &I, double max_dist, bool prune, const wt_tuning *tuning,
                    PassPlan *plan, wt_error *err)
{
    return with_metric(I.type, err, [&](auto m) {
        using M = decltype(m);
        pass_shape(I.n, tuning, plan);
        plan->period = plan->rows_per_lane == 8 ? pass_period<M>(max_dist, tuning) : 0;
        long long warps = 0;
        bool full = false;
        int block = plan->block ? plan->block : PASS_THREADS_FULL;
        wt_status st = pass_warps<M>(I, *plan, block, &warps, &full, err);
        if (st == WT_OK && !plan->block && !full) {
            block = PASS_THREADS;
            st = pass_warps<M>(I, *plan, block, &warps, &full, err);
        }
        if (st != WT_OK) return st;
        const int wr = 32 * plan->rows_per_lane;
        plan->block = block;
        plan->warps = (int)warps;
        plan->cost = I.n < 4 ? 0 : cost_before(I.n, wr, row_blocks(I.n, wr));
        plan->grid = (int)((warps + block / 32 - 1) / (block / 32));
        plan->prune = prune && BoxGap<M>::value && max_dist < PRUNE_MAX_DIST && I.n >= 4 &&
                      I.n >= pass_knob(tuning->pass_prune_min, PRUNE_MIN_N);
        plan->width = pass_width(I.n, wr, warps);
        return WT_OK;
    });
}

wt_status pass_launch(const DevInst &I, DevTour t, const PassPlan &plan, PassBoxes boxes,
                      unsigned long long *rowkey, const int *d_stop, cudaStream_t stream,
                      wt_error *err)
{
    if (I.n < 4) return WT_OK; /* no pair of non-adjacent edges */
    return with_metric(I.type, err, [&](auto m) {
        using M = decltype(m);
        PassArgs<M> a;
        a.inst = I;
        a.pts = (const typename M::Pt *)t.pts;
        a.me = t.me;
        a.rowkey = rowkey;
        a.stop = d_stop;
        a.n = I.n;
        a.piece = plan.piece;
        cudaError_t e;
        if (plan.prune)
            e = plan.rows_per_lane == 8 ? launch_bound_pass<M, 8>(plan, a, boxes, stream)
                                        : launch_bound_pass<M, 16>(plan, a, boxes, stream);
        else
            e = plan.rows_per_lane == 8 ? launch_pass_kernel<M, 8>(plan, a, stream)
                                        : launch_pass_kernel<M, 16>(plan, a, stream);
        if (e != cudaSuccess)
            return wt_fail(err, WT_STATUS_DEVICE, "2-opt pass kernel launch failed: %s",
                           cudaGetErrorString(e));
        return launched("2-opt pass", err);
    });
}

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

wt_status pass_band(const DevInst &I, DevTour t, int band, wt_kswap_move *cand,
                    cudaStream_t stream, wt_error *err)
{
    if (I.n < 3 || band < 1) return WT_OK; /* no rows */
    return with_metric(I.type, err, [&](auto m) {
        using M = decltype(m);
        band_kernel<M><<<grid_for(I.n - 2), 256, 0, stream>>>(
            I, (const typename M::Pt *)t.pts, t.me, t.id, band, cand);
        return launched("2-opt band candidates", err);
    });
}

wt_status pass_exact_edges(const DevInst &I, const int32_t *id, long long *exact,
                           cudaStream_t stream, wt_error *err)
{
    exact_edge_kernel<<<grid_for(I.n), 256, 0, stream>>>(I, id, exact);
    return launched("exact edge lengths", err);
}
