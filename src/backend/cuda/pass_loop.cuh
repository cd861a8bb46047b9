/*
 * pass_loop.cuh - the hot loop of a full 2-opt pass of one tour spread over
 * the whole GPU (Rocki & Suda 2013), register-tiled (Lee 2014), with the
 * per-row bests that k-swap selection needs (Robinson et al. 2018, §3.4):
 * what the full pass (pass_full.cu) and the pruned one (pass_pruned.cu)
 * both run.
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
 * balanced per warp instead of per tile: 2048-row tiles dealt to blocks
 * round robin ran slower from mid sizes up; bench/RESULTS.md, "2-opt
 * pass: one full pass (bench pass)", and the sweeps it points to).  R is 8
 * below PASS_R8_BELOW cities (more warps per SM to hide the latencies of
 * short shares), 16 above (fewer square roots per move).
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
#ifndef WT_BACKEND_CUDA_PASS_LOOP_CUH
#define WT_BACKEND_CUDA_PASS_LOOP_CUH

#include "backend/cuda/float_order.cuh"
#include "backend/cuda/twoopt_common.cuh"

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

/* The arguments of a pass over tour t. */
template <class M>
PassArgs<M> pass_args(const DevInst &I, DevTour t, const PassPlan &plan,
                      unsigned long long *rowkey, const int *d_stop)
{
    PassArgs<M> a;
    a.inst = I;
    a.pts = (const typename M::Pt *)t.pts;
    a.me = t.me;
    a.rowkey = rowkey;
    a.stop = d_stop;
    a.n = I.n;
    a.piece = plan.piece;
    return a;
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
 * and runs slower than the float loop (bench/RESULTS.md, "Why the integer
 * loop at 8 rows (pass)"). */
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

/* R = 8: 64 registers whatever the block size up to 512 (32 warps an SM);
 * R = 16: 96 registers, five blocks of 128. */
template <int R>
struct PassBounds {
    static constexpr int threads = R >= 16 ? PASS_THREADS : PASS_THREADS_FULL;
    static constexpr int blocks = R >= 16 ? 5 : 2;
};

#endif
