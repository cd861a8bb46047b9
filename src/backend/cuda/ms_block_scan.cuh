/*
 * ms_block_scan.cuh - the scan of one IHC step of the block climber
 * (multistart_block.cuh): a block's tour in shared or global memory, a
 * column strip in registers, and the two ways its threads share the pair
 * space.
 *
 * The evaluation is written by hand, because what makes it fast is a data
 * layout no library primitive expresses.  The pair space is cut into column
 * strips TC columns wide; a thread walks rows of a strip keeping the
 * strip's TC+1 points and edge terms in registers and streaming one row
 * point per row.  A move (i, j) needs d(i, j) + d(i+1, j+1): row i+1's
 * distances serve as second terms of row i's moves and as first terms of
 * its own, so each distance is computed once and used twice: (TC+1)/TC
 * square roots per move.  Distances stay in the "magic" form M + d
 * (device_instance.cuh), in which one FADD both rounds a distance and adds
 * it to another term, so a move costs one distance, two FADDs and one
 * FMNMX (Strip).  The best is tracked per row (a min over TC moves, then
 * one compare).  The paper's shared-memory tiling of the j-loop (§3.2) is
 * subsumed: a thread's columns live in registers for a whole strip, and
 * rows stream from shared memory or the L1 cache.
 *
 * Both ways of sharing the pair space cut it into TC x TC squares: row
 * block k (rows k*TC .. k*TC+TC-1) against column strip J (columns J*TC ..
 * J*TC+TC-1).
 *  - Units (TC <= 8): every square with J >= k, the diagonal ones masked
 *    row by row at compile time, all run by one code path.
 *  - Chunks and diagonal pieces (TC = 16): the squares with J > k, unmasked,
 *    then the diagonal's rows in pieces of their own, masked per move.
 * Units keep a warp's lanes in step and are the faster at TC = 8 (the
 * diagonal pieces' loop of their own weighs on a small tour's scan); at
 * TC = 16 the units' 16 unrolled rows run slower than the chunks' two-row
 * loop (bench/RESULTS.md, "Multistart: throughput (bench multistart)", and
 * the sweeps it points to), so each width keeps the scan it is fastest with.
 * Either way a thread ends with its best move (d, i, strip); the block's
 * reduction and resolve_column (multistart_block.cuh) finish the step.
 */
#ifndef WT_BACKEND_CUDA_MS_BLOCK_SCAN_CUH
#define WT_BACKEND_CUDA_MS_BLOCK_SCAN_CUH

#include <climits>
#include <cmath>

#include "backend/cuda/device_instance.cuh"
#include "backend/cuda/float_order.cuh"

namespace ms_block {

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

/* (d, i, j) order for folding one candidate into another (j may still
 * hold a strip number: strips ascend with their columns). */
__device__ __forceinline__ void fold_move(MoveKey &best, const MoveKey &m)
{
    if (m.d < best.d || (m.d == best.d && (m.i < best.i || (m.i == best.i && m.j < best.j))))
        best = m;
}

/*
 * The block's tour: points in tour order (pts[n] = pts[0]), M + the length
 * of edge k (me), and the cities (id), in shared or global memory.  Points
 * and edges are stored with one gap after every TC entries: the lanes of a
 * warp load the columns of TC-apart strips at once, and without the gap
 * those loads would all fall into the same shared-memory bank.  Both arrays
 * run on to the end of the last strip (column S*TC, S strips): padding
 * points are finite copies and padding edges -inf, so a strip loads its
 * columns at fixed offsets, with no bounds checks, and moves to padding
 * columns come out +inf (see Strip::load).
 */
template <class Pt, int TC>
struct TourView {
    static constexpr int SHIFT = TC == 16 ? 4 : TC == 8 ? 3 : 2; /* log2(TC) */
    Pt *pts;
    float *me;
    int32_t *id;

    static __host__ __device__ __forceinline__ int strips(int n) { return (n + TC - 1) / TC; }
    /* Cells of pts and me: positions 0 .. S*TC with their gaps. */
    static __host__ __device__ __forceinline__ size_t padded(int n)
    {
        return (size_t)strips(n) * (TC + 1) + 1;
    }
    __device__ __forceinline__ Pt &P(int k) const { return pts[k + (k >> SHIFT)]; }
    __device__ __forceinline__ float &E(int k) const { return me[k + (k >> SHIFT)]; }
    /* Strip J's columns J*TC + c start at cell J*(TC+1); column TC of the
     * strip (the next strip's first) is one gap further on. */
    __device__ __forceinline__ const Pt *strip_points(int J) const { return pts + J * (TC + 1); }
    __device__ __forceinline__ const float *strip_edges(int J) const { return me + J * (TC + 1); }
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
    float mc[TC]; /* M - e_c, or +inf for padding columns (their moves never win) */

    __device__ __forceinline__ void load(const TourView<typename M::Pt, TC> &t, int J)
    {
        const typename M::Pt *sp = t.strip_points(J);
        const float *se = t.strip_edges(J);
#pragma unroll
        for (int c = 0; c < TC; c++) q[c] = sp[c];
        q[TC] = sp[TC + 1];
        /* Padding edges are -inf: their columns get +inf. */
#pragma unroll
        for (int c = 0; c < TC; c++) mc[c] = __fsub_rn(2.0f * WT_MAGIC, se[c]);
    }

    /* B[] of row point p. */
    __device__ __forceinline__ void first_terms(typename M::Pt p, float B[TC]) const
    {
#pragma unroll
        for (int c = 0; c < TC; c++) B[c] = M::add(mc[c], M::raw(p, q[c]));
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
            v[c] = M::add(B[c], s[c + 1]);
            B[c] = M::add(mc[c], s[c]);
        }
    }
};

template <int TC>
__device__ __forceinline__ float min_range(const float v[TC], int a, int b)
{
    float m = INFINITY;
#pragma unroll
    for (int c = 0; c < TC; c++)
        if (c >= a && c < b) m = fminf(m, v[c]);
    return m;
}

/*
 * The pair space of a block's tour, cut into units that keep the 32 lanes
 * of a warp in step: unit (k, J), k <= J, is row block k (rows k*TC ..
 * k*TC+TC-1) against column strip J.  Every unit runs the same code, TC
 * rows of TC columns, so a warp's lanes never wait for one another (a
 * warp whose lanes take different paths runs the paths one after the
 * other: diagonal pieces with a loop of their own weigh on a small tour's
 * scan, bench/RESULTS.md, "Multistart: throughput (bench multistart)", and
 * the sweeps it points to).  Which pairs of a unit are moves (j >= i+2)
 * depends on the row only where the unit touches the diagonal, and rows
 * are unrolled, so the masks are decided at compile time per row, with
 * one select per row rather than one per move:
 *  - a diagonal unit (J = k) keeps columns c >= r+2 of row r;
 *  - an adjacent unit (J = k+1) drops column 0 of its last row (j = i+1);
 *  - rows and columns past the tour are padding whose moves come out
 *    +inf (TourView).
 * Units are dealt to threads round robin in (k, J) order, so the lanes of
 * a warp share their rows (loads broadcast) and take neighbouring strips
 * (spread over the banks by the gaps).  Each move is evaluated once.
 */
template <class M, int TC>
__device__ __forceinline__ void scan_unit(const TourView<typename M::Pt, TC> &t, int k, int J,
                                          MoveKey &best)
{
    Strip<M, TC> s;
    s.load(t, J);
    const int i0 = k * TC;
    const bool diag = J == k, adjacent = J == k + 1;
    /* Row r's point is row_pts[r + (r >> SHIFT)], its edge row_me[r]. */
    const typename M::Pt *row_pts = t.strip_points(k);
    const float *row_me = t.strip_edges(k);
    constexpr int SHIFT = TourView<typename M::Pt, TC>::SHIFT;
    float B[TC], v[TC];
    s.first_terms(row_pts[0], B);
    MoveKey sb = {INFINITY, INT_MAX, J};
#pragma unroll
    for (int r = 0; r < TC; r++) {
        s.row(row_pts[r + 1 + ((r + 1) >> SHIFT)], B, v);
        /* Columns r+2.. are moves in every unit; 1..r+1 and 0 only off the
         * diagonal, and 0 not in an adjacent unit's last row. */
        float m = min_range<TC>(v, r + 2, TC);
        float low = fminf(min_range<TC>(v, 1, r + 2), r == TC - 1 && adjacent ? INFINITY : v[0]);
        m = diag ? m : fminf(m, low);
        float d = __fsub_rn(m, row_me[r]);
        /* Rows ascend: a strict < keeps the lowest among equals. */
        if (d < sb.d) { sb.d = d; sb.i = i0 + r; }
    }
    fold_move(best, sb); /* best.j holds the strip for now */
}

/* This thread's best move (d, i, strip), over its units. */
template <class M, int TC, int BLOCK>
__device__ MoveKey thread_best_move_units(const TourView<typename M::Pt, TC> &t, int n)
{
    MoveKey best = {INFINITY, INT_MAX, INT_MAX};
    const int strips = TourView<typename M::Pt, TC>::strips(n);
    /* Unit number c of row block k is (k, k+c); block k has strips-k. */
    int k = 0, c = threadIdx.x;
    for (;;) {
        while (k < strips && c >= strips - k) {
            c -= strips - k;
            k++;
        }
        if (k >= strips) break;
        scan_unit<M, TC>(t, k, k + c, best);
        c += BLOCK;
    }
    return best;
}

/* The diagonal's row: min over the columns c >= lo of row i's candidates
 * (as Strip::row, without keeping them: fewer live registers); B[] becomes
 * row i+1's. */
template <class M, int TC>
__device__ __forceinline__ float masked_row_min(const Strip<M, TC> &st, typename M::Pt pn,
                                                float B[TC], int lo)
{
    float sp = M::raw(pn, st.q[0]), m = INFINITY;
#pragma unroll
    for (int c = 0; c < TC; c++) {
        float sn = M::raw(pn, st.q[c + 1]);
        float v = M::add(B[c], sn);
        m = fminf(m, c < lo ? INFINITY : v);
        B[c] = M::add(st.mc[c], sp);
        sp = sn;
    }
    return m;
}

template <int TC>
__device__ __forceinline__ float min_of(const float v[TC])
{
    float m = v[0];
#pragma unroll
    for (int c = 1; c < TC; c++) m = fminf(m, v[c]);
    return m;
}

/*
 * The pair space of a block's tour, cut into pieces that keep the 32 lanes
 * of a warp in step (a warp whose lanes run different trip counts idles
 * the others, as threads that walk row ranges of their own do:
 * bench/RESULTS.md, "Multistart: throughput (bench multistart)", and the
 * sweeps it points to).
 *  - Chunks: row block k (rows k*TC .. k*TC+TC-1) against column strip
 *    J > k (columns J*TC .. J*TC+TC-1).  Every move there has j >= i+2, so
 *    no masking, and every chunk is TC rows long; the one row that touches
 *    the diagonal (i = J*TC - 1, only in chunk (J-1, J)) is left to the
 *    diagonal pieces.  Chunks are dealt to threads round robin in (k, J)
 *    order, so the lanes of a warp share their rows (loads broadcast) and
 *    take neighbouring strips (spread over the banks by the gaps).
 *  - Diagonal pieces: strip J's rows J*TC - 1 .. J*TC + TC - 3, masked,
 *    one strip per thread: about n rows in all.
 * Chunks cover rows below J*TC - 1 of strip J, diagonal pieces the rest, so
 * each move is evaluated once.
 */
template <class M, int TC>
__device__ __forceinline__ void scan_chunk(const TourView<typename M::Pt, TC> &t, int n, int k,
                                           int J, MoveKey &best)
{
    Strip<M, TC> s;
    s.load(t, J);
    const int i0 = k * TC, last = J == k + 1 ? TC - 1 : TC;
    float B[TC], v[TC];
    s.first_terms(t.P(i0), B);
    MoveKey sb = {INFINITY, INT_MAX, J};
    /* Two rows per iteration, so one row's square roots overlap the other's
     * adds.  Rows ascend: a strict < keeps the lowest among equals. */
#pragma unroll 1
    for (int r = 0; r < TC; r += 2) {
        int i = i0 + r;
        s.row(t.P(i + 1), B, v);
        float d0 = __fsub_rn(min_of<TC>(v), t.E(i));
        s.row(t.P(i + 2), B, v);
        float d1 = __fsub_rn(min_of<TC>(v), t.E(i + 1));
        if (r + 1 >= last) d1 = INFINITY;
        if (d0 < sb.d) { sb.d = d0; sb.i = i; }
        if (d1 < sb.d) { sb.d = d1; sb.i = i + 1; }
    }
    fold_move(best, sb); /* best.j holds the strip for now */
}

template <class M, int TC>
__device__ __forceinline__ void scan_diagonal(const TourView<typename M::Pt, TC> &t, int n,
                                              int J, int part, int parts, MoveKey &best)
{
    const int j0 = J * TC, ia = max(j0 - 1, 0), ib = min(j0 + TC - 1, n - 1) - 1;
    if (ia >= ib) return;
    /* Rows [ia, ib) of the piece, cut into `parts` equal runs. */
    const int len = (ib - ia + parts - 1) / parts, ra = ia + part * len, rb = min(ra + len, ib);
    if (ra >= rb) return;
    Strip<M, TC> s;
    s.load(t, J);
    float B[TC];
    s.first_terms(t.P(ra), B);
    MoveKey sb = {INFINITY, INT_MAX, J};
#pragma unroll 1
    for (int i = ra; i < rb; i++) {
        float d = __fsub_rn(masked_row_min<M, TC>(s, t.P(i + 1), B, i + 2 - j0), t.E(i));
        if (d < sb.d) { sb.d = d; sb.i = i; }
    }
    fold_move(best, sb);
}

/* This thread's best move: its diagonal pieces, then its chunks.  Chunks
 * are dealt from thread 0 up, so when their count C does not divide evenly
 * the last BLOCK - C % BLOCK threads have one chunk fewer.  The diagonal
 * pieces (each about a chunk's work) go to those threads, from the last
 * one down, which evens out the step's slowest thread; when there are more
 * pieces than such threads, pieces are cut in halves, so that a thread with
 * a full share of chunks gets half a piece more, not a whole one. */
template <class M, int TC, int BLOCK>
__device__ MoveKey thread_best_move_chunks(const TourView<typename M::Pt, TC> &t, int n)
{
    MoveKey best = {INFINITY, INT_MAX, INT_MAX};
    const int strips = TourView<typename M::Pt, TC>::strips(n);
    const int chunks = strips * (strips - 1) / 2, light = BLOCK - chunks % BLOCK;
    const int parts = strips <= light || TC < 8 ? 1 : 2; /* a 4-row piece is all set-up */
    for (int h = BLOCK - 1 - (int)threadIdx.x; h < parts * strips; h += BLOCK)
        scan_diagonal<M, TC>(t, n, h / parts, h % parts, parts, best);
    /* Chunk number c of row block k is (k, k+1+c); block k has strips-1-k. */
    int k = 0, c = threadIdx.x;
    for (;;) {
        while (k < strips - 1 && c >= strips - 1 - k) {
            c -= strips - 1 - k;
            k++;
        }
        if (k >= strips - 1) break;
        scan_chunk<M, TC>(t, n, k, k + 1 + c, best);
        c += BLOCK;
    }
    return best;
}

/* This thread's best move (d, i, strip) of the step. */
template <class M, int TC, int BLOCK>
__device__ __forceinline__ MoveKey thread_best_move(const TourView<typename M::Pt, TC> &t, int n)
{
    if constexpr (TC <= 8) return thread_best_move_units<M, TC, BLOCK>(t, n);
    else return thread_best_move_chunks<M, TC, BLOCK>(t, n);
}

} // namespace ms_block

#endif
