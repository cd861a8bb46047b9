/*
 * ms_gap_scan.cuh - the scan of one IHC step for small tours: the pair
 * space as a rectangle of rows and gaps, one tile a lane.
 *
 * A 2-opt move removes two edges of the cycle that are not neighbours:
 * edge i (positions i, i+1) and edge i+g, g = 2 .. n/2 positions further
 * round the cycle.  Counted that way the pair space is a rectangle, n rows
 * by G = n/2 - 1 gaps, with no diagonal: the triangle of (i, j) pairs that
 * ms_block_scan.cuh cuts into squares wastes the lower half of every
 * square on its diagonal, and at 100 cities its 91 squares take three
 * rounds of a warp for the work of two and a half.  Here each lane takes
 * one tile of R rows by C gaps (C fixed at compile time) and a 100-city
 * step is 28 tiles of 25 x 7 on one warp: 175 moves a lane where the
 * squares took 192, with no per-square set-up.  Larger rectangles (250
 * and 350 - 999 cities) take several tiles a lane, in rounds of 32
 * (gap_best_move_rounds).
 *
 * Along a row the tile's columns are i+g0 .. i+g0+C-1, a window that slides
 * one position a row: a row loads one new column point and edge, and the
 * window lives in registers whose roles rotate (slot (k + r) mod C holds
 * gap k at row r; the rows are unrolled C at a time, so every index is a
 * compile-time constant).  As in Strip (ms_block_scan.cuh), row i+1's
 * distances are this row's second terms and the next row's first terms: a
 * move costs one distance, two FADDs (which also round) and one FMNMX.
 *
 * Positions past n wrap round: the block's arrays run on to n + G + 2 with
 * copies of the first entries (refreshed after every move), so no index is
 * reduced mod n.  When C does not divide G, or R does not divide n, the last
 * gap or row group starts early and overlaps the one before: some moves are
 * evaluated twice, with bit-identical results, which the resolution below
 * treats as the same move.
 *
 * Ties go to the lowest (i, j) in the usual order (i < j, positions), as in
 * the CPU reference.  A row's minimum hides which of its gaps won, and a
 * move (i, g) is (i, i+g) or, past the end, (i+g-n, i): tile order is not
 * that order.  So a lane tracks its best row and whether another of its rows
 * reached the same value; when no lane saw such a tie, the lanes holding the
 * warp's minimum each recompute their one row's C moves (a lane per gap, the
 * scan's own float operations, so the same values) and the lowest (i, j)
 * among the hits wins.  When one did (equal deltas on a grid, say), the
 * warp recomputes that lane's whole tile, 32 moves at a time (rare enough
 * to cost a climb little).
 */
#ifndef WT_BACKEND_CUDA_MS_GAP_SCAN_CUH
#define WT_BACKEND_CUDA_MS_GAP_SCAN_CUH

#include <climits>
#include <cmath>

#include "backend/cuda/device_instance.cuh"
#include "backend/cuda/ms_block_scan.cuh"

namespace ms_gap {

using ms_block::MoveKey;

/* The cut of a tour's rectangle into tiles, computed once per launch. */
struct GapPlan {
    int row_groups, gap_groups; /* tile t is row group t / gap_groups, gap group t % gap_groups */
    int tiles;                  /* row_groups * gap_groups */
    int rows;                   /* R, rows of a tile */
    int last_gap0;              /* first gap of the last gap group: G + 2 - C */
    int cells;                  /* entries of pts and me: n + G + 2 */
};

/* The plan for n cities, C gaps a tile and about `groups` row groups (rows
 * = ceil(n / groups), then as few groups as those rows need), or rows = 0
 * when the rectangle has fewer than C gaps or is too large for a row's
 * number to share an int with its tile's (see gap_best_move_rounds). */
__host__ __device__ inline GapPlan gap_plan_rows(int n, int C, int groups)
{
    GapPlan p = {0, 0, 0, 0, 0, 0};
    const int G = n / 2 - 1;
    if (n < 8 || n >= 65536 || G < C || groups < 1) return p;
    const int gc = (G + C - 1) / C, rows = (n + groups - 1) / groups;
    p.gap_groups = gc;
    p.rows = rows;
    p.row_groups = (n + rows - 1) / rows;
    p.tiles = p.row_groups * gc;
    p.last_gap0 = G + 2 - C;
    p.cells = n + G + 2;
    if (p.tiles >= 32768) p.rows = 0;
    return p;
}

/* The one-round plan, a tile a lane: as many row groups as 32 lanes hold
 * whole gap rows of tiles; rows = 0 when a gap row alone takes more than 32
 * tiles (G > 32 C). */
__host__ __device__ inline GapPlan gap_plan(int n, int C)
{
    const int gc = (n / 2 - 1 + C - 1) / C;
    return gap_plan_rows(n, C, gc >= 1 && gc <= 32 ? 32 / gc : 0);
}

/* A block's tour: points in tour order, M + edge lengths, cities; points
 * and edges run on to plan.cells with copies of the first entries. */
template <class Pt>
struct GapView {
    Pt *pts;
    float *me;
    int32_t *id;
};

/* The best of a lane's rows so far: the least delta, its row, and the
 * second least over the rows (equal to the least when two rows tie). */
struct LaneBest {
    float d, d2;
    int row;
};

/* One row of a tile: row i's moves to gaps g0 .. g0+C-1, from B[] (row i's
 * first terms) and row i+1's point pn, with the window's new column point
 * and edge (column i+g0+C, row i+1's last) going into slot rr; B[] becomes
 * row i+1's.  rr = r mod C, a compile-time constant once unrolled. */
template <class M, int C>
__device__ __forceinline__ void gap_row(int rr, typename M::Pt pn, float en,
                                        typename M::Pt pnew, float enew, typename M::Pt W[C],
                                        float MC[C], float B[C], int i, LaneBest &lb)
{
    W[rr] = pnew;
    MC[rr] = __fsub_rn(2.0f * WT_MAGIC, enew);
    float m;
#pragma unroll
    for (int k = 0; k < C; k++) {
        const int slot = (k + rr + 1) % C; /* gap k's column at row i+1 */
        float s = M::raw(pn, W[slot]);
        float v = M::add(B[k], s);
        B[k] = M::add(MC[slot], s);
        m = k == 0 ? v : fminf(m, v);
    }
    float d = __fsub_rn(m, en);
    /* Rows ascend: a strict < keeps the first of equal rows. */
    lb.d2 = fminf(lb.d2, fmaxf(lb.d, d));
    lb.row = d < lb.d ? i : lb.row;
    lb.d = fminf(lb.d, d);
}

/* A tile, rows i0 .. i0+R-1 by gaps g0 .. g0+C-1, folded into lb; row i
 * is known there as id0 + i. */
template <class M, int C>
__device__ __forceinline__ void scan_tile_into(const GapView<typename M::Pt> &t, int i0, int g0,
                                               int R, int id0, LaneBest &lb)
{
    typedef typename M::Pt Pt;
    Pt W[C];
    float MC[C], B[C];
    const Pt p0 = t.pts[i0];
#pragma unroll
    for (int k = 0; k < C; k++) {
        W[k] = t.pts[i0 + g0 + k];
        MC[k] = __fsub_rn(2.0f * WT_MAGIC, t.me[i0 + g0 + k]);
        B[k] = M::add(MC[k], M::raw(p0, W[k]));
    }
    /* Row r reads P(i+1), E(i) and its new column P(i+g0+C), E(i+g0+C). */
    const Pt *rp = t.pts + i0 + 1, *cp = t.pts + i0 + g0 + C;
    const float *re = t.me + i0, *ce = t.me + i0 + g0 + C;
    int i = id0 + i0;
    const int full = R / C, rem = R - full * C;
#pragma unroll 1
    for (int it = 0; it < full; it++) {
#pragma unroll
        for (int rr = 0; rr < C; rr++)
            gap_row<M, C>(rr, rp[rr], re[rr], cp[rr], ce[rr], W, MC, B, i + rr, lb);
        rp += C;
        cp += C;
        re += C;
        ce += C;
        i += C;
    }
    /* The rest starts with the slots in their first roles again. */
#pragma unroll
    for (int rr = 0; rr < C - 1; rr++)
        if (rr < rem) gap_row<M, C>(rr, rp[rr], re[rr], cp[rr], ce[rr], W, MC, B, i + rr, lb);
}

/* The lane's one tile, rows known by their positions. */
template <class M, int C>
__device__ __forceinline__ LaneBest scan_tile(const GapView<typename M::Pt> &t, int i0, int g0,
                                              int R)
{
    LaneBest lb = {INFINITY, INFINITY, INT_MAX};
    scan_tile_into<M, C>(t, i0, g0, R, 0, lb);
    return lb;
}

/* Move (i, g)'s position pair, lowest first, packed so that integer order
 * is (i, j) order, if its delta, computed as the scan does, is d; else
 * UINT_MAX. */
template <class M>
__device__ __forceinline__ unsigned move_key_if(const GapView<typename M::Pt> &t, int n, int i,
                                                int g, float d)
{
    const int j = i + g;
    float B = M::add(__fsub_rn(2.0f * WT_MAGIC, t.me[j]), M::raw(t.pts[i], t.pts[j]));
    float v = M::add(B, M::raw(t.pts[i + 1], t.pts[j + 1]));
    if (__fsub_rn(v, t.me[i]) != d) return UINT_MAX;
    const unsigned a = j < n ? i : j - n, b = j < n ? j : i;
    return a << 16 | b;
}

/* A lane's tile, fixed for a launch: rows i0 .. i0+R-1 by gaps g0 ..
 * g0+C-1; an idle lane (past row_groups * gap_groups) scans a copy of the
 * last row group's tile and reports nothing. */
struct LaneTile {
    int i0, g0;
    bool idle;
};

/* Tile `tile`'s first row and gap, for tiles of C gaps; the last row and
 * gap groups start early, overlapping the ones before. */
__host__ __device__ __forceinline__ LaneTile tile_corner_of(const GapPlan &p, int n, int C,
                                                            int tile)
{
    const int a = tile / p.gap_groups, b = tile - a * p.gap_groups;
    LaneTile t;
    t.idle = a >= p.row_groups;
    t.i0 = a * p.rows < n - p.rows ? a * p.rows : n - p.rows;
    t.g0 = b == p.gap_groups - 1 ? p.last_gap0 : 2 + b * C;
    return t;
}

template <int C>
__device__ __forceinline__ LaneTile tile_corner(const GapPlan &p, int n, int tile)
{
    return tile_corner_of(p, n, C, tile);
}

template <int C>
__device__ __forceinline__ LaneTile lane_tile(const GapPlan &p, int n)
{
    return tile_corner<C>(p, n, threadIdx.x & 31);
}

/* The lowest move of lane src's tile whose delta is d, every lane taking
 * every 32nd move of it: the tile of a lane that saw two rows reach its
 * minimum (its row tells nothing then). */
template <class M, int C>
__device__ __forceinline__ unsigned tile_min_key(const GapView<typename M::Pt> &t, int n, int i0,
                                                 int g0, int R, float d)
{
    unsigned key = UINT_MAX;
#pragma unroll 1
    for (int m = threadIdx.x & 31; m < R * C; m += 32)
        key = min(key, move_key_if<M>(t, n, i0 + m / C, g0 + m % C, d));
    return key;
}

/* The warp's least delta, from each lane's best, into best.d (i and j
 * still INT_MAX); *cands gets the lanes that hold it, *tied those of them
 * that saw it in two rows.  False when nothing improves. */
__device__ __forceinline__ bool warp_candidates(const LaneBest &lb, MoveKey &best,
                                                unsigned *cands, unsigned *tied)
{
    const unsigned all = 0xFFFFFFFFu;
    const unsigned u = float_order(lb.d), umin = __reduce_min_sync(all, u);
    best = {float_unorder(umin), INT_MAX, INT_MAX};
    if (!(best.d < 0.0f)) return false;
    const bool cand = u == umin;
    *tied = __ballot_sync(all, cand && lb.d2 == lb.d);
    *cands = __ballot_sync(all, cand);
    return true;
}

/* The lowest of the lanes' keys as best's (i, j). */
__device__ __forceinline__ MoveKey warp_key_move(unsigned key, MoveKey best)
{
    key = __reduce_min_sync(0xFFFFFFFFu, key);
    if (key == UINT_MAX) { /* cannot happen: the candidates' tiles hold the minimum */
        best.d = 0.0f;
        return best;
    }
    best.i = (int)(key >> 16);
    best.j = (int)(key & 0xFFFFu);
    return best;
}

/* The step's best move (d, i, j), i < j positions, in every lane of the
 * one-warp block; i = INT_MAX when nothing improves (d >= 0).  The lanes
 * holding the warp's minimum are resolved one after the other, by the
 * whole warp: a lane's one best row by C lanes, a tile with two rows at its
 * minimum move by move.  Duplicate moves (overlapping tiles) resolve to the
 * same (i, j). */
template <class M, int C>
__device__ MoveKey gap_best_move(const GapView<typename M::Pt> &t, const GapPlan &p,
                                 const LaneTile &lt, int n)
{
    const unsigned all = 0xFFFFFFFFu;
    const int lane = threadIdx.x & 31;
    LaneBest lb = scan_tile<M, C>(t, lt.i0, lt.g0, p.rows);
    if (lt.idle) lb.d = INFINITY;
    MoveKey best;
    unsigned cands, tied, key = UINT_MAX;
    if (!warp_candidates(lb, best, &cands, &tied)) return best;
    for (; cands; cands &= cands - 1) {
        const int src = __ffs(cands) - 1;
        const int g0 = __shfl_sync(all, lt.g0, src);
        if (tied >> src & 1) {
            const int i0 = __shfl_sync(all, lt.i0, src);
            key = min(key, tile_min_key<M, C>(t, n, i0, g0, p.rows, best.d));
        } else {
            const int i = __shfl_sync(all, lb.row, src);
            if (lane < C) key = min(key, move_key_if<M>(t, n, i, g0 + lane, best.d));
        }
    }
    return warp_key_move(key, best);
}

/*
 * Rounds of tiles, for rectangles cut into more than 32 (the launcher's
 * model takes them at 250 and at 350 - 999 cities): lane l scans tiles l,
 * l+32, l+64, ... into one LaneBest, a row known as tile << 16 | position.
 * Resolution as in gap_best_move, except that a lane which saw a tie
 * recomputes all its tiles.  A separate function, not a loop round
 * gap_best_move, so that the one-round kernel keeps its code (a shared loop
 * slows it: bench/RESULTS.md, "Why gap tiles and rounds below 1,000 cities
 * (multistart)").
 */
template <class M, int C>
__device__ MoveKey gap_best_move_rounds(const GapView<typename M::Pt> &t, const GapPlan &p, int n)
{
    const unsigned all = 0xFFFFFFFFu;
    const int lane = threadIdx.x & 31;
    LaneBest lb = {INFINITY, INFINITY, INT_MAX};
#pragma unroll 1
    for (int tile = lane; tile < p.tiles; tile += 32) {
        const LaneTile lt = tile_corner<C>(p, n, tile);
        scan_tile_into<M, C>(t, lt.i0, lt.g0, p.rows, tile << 16, lb);
    }
    MoveKey best;
    unsigned cands, tied, key = UINT_MAX;
    if (!warp_candidates(lb, best, &cands, &tied)) return best;
    for (; cands; cands &= cands - 1) {
        const int src = __ffs(cands) - 1;
        if (tied >> src & 1) {
#pragma unroll 1
            for (int tile = src; tile < p.tiles; tile += 32) {
                const LaneTile lt = tile_corner<C>(p, n, tile);
                key = min(key, tile_min_key<M, C>(t, n, lt.i0, lt.g0, p.rows, best.d));
            }
        } else {
            const int row = __shfl_sync(all, lb.row, src);
            const LaneTile lt = tile_corner<C>(p, n, row >> 16);
            if (lane < C) key = min(key, move_key_if<M>(t, n, row & 0xFFFF, lt.g0 + lane, best.d));
        }
    }
    return warp_key_move(key, best);
}

} // namespace ms_gap

#endif
