/*
 * twoopt_pass.cuh - one tour on the whole GPU: the kernels of a 2-opt pass,
 * of applying k independent moves, and of the tour's lengths (CUDA side).
 *
 * The tour lives in device memory as three arrays in tour order (Rocki &
 * Suda 2013 keep coordinates in tour order so that a pass reads them
 * sequentially): city ids, points (pts[n] repeats pts[0], so the closing
 * edge needs no modulo) and edge terms me[k] = M + d(pts[k], pts[k+1]) in
 * the magic form of device_instance.cuh.  A pass writes, for each row i,
 * the best float move of the row as a packed 64-bit key (order-preserving
 * float bits of the delta, then j) into rowkey[i]; rows without an
 * improving float move keep PASS_NO_MOVE.  pass_collect turns those into
 * moves with their EXACT delta (session.cu compacts the negative ones);
 * pass_band adds each row's best move within a band of columns.
 * session.cu drives these; twoopt_pass.h is the C-callable side.
 */
#ifndef WT_BACKEND_CUDA_TWOOPT_PASS_CUH
#define WT_BACKEND_CUDA_TWOOPT_PASS_CUH

#include <cstdint>

#include "core/kswap.h"
#include "backend/cuda/device_instance.cuh"

#define PASS_NO_MOVE 0xFFFFFFFFFFFFFFFFULL

/* Entries that pts and me hold past the tour: the pass reads that far
 * ahead of its last column (and never uses what it reads), so that its
 * loop needs no bounds clamps.  Allocate them, zeroed. */
#define PASS_READ_AHEAD 3

/* A tour in device memory (see above); pts holds the metric's Pt type. */
struct DevTour {
    void *pts;   /* n+1 points in tour order, then PASS_READ_AHEAD spare */
    float *me;   /* n edge terms, M + d, then PASS_READ_AHEAD spare */
    int32_t *id; /* n cities in tour order */
};

/* Bytes of one point of inst's metric. */
size_t pass_point_bytes(wt_edge_weight_type type);

/* pts and me from id (after upload or a kick); on stream. */
wt_status pass_refresh_tour(const DevInst &I, DevTour t, cudaStream_t stream, wt_error *err);

/* Work layout of a pass: computed once per tour size and device. */
struct PassPlan {
    int grid;          /* blocks */
    int block;         /* threads per block (independent warps) */
    int rows_per_lane; /* 8 or 16 */
    int warps;         /* warps sharing the pair space */
    int piece;         /* columns per offer of a row's best (twoopt_pass.cu) */
    bool chained;      /* recovery launched behind the pass with programmatic
                          serialization (Hopper's dependent launch) */
    long long cost;    /* cost of all row blocks' column steps (twoopt_pass.cu) */
    int period;        /* columns per offset chain of the integer (DPX) loop;
                          0: the float loop (twoopt_pass.cu) */
    bool prune;        /* skip what the segment bound rules out (pass_bound_kernel) */
    int width;         /* pruned pass: column tiles a warp tests at once (1..32) */
};

/* Columns per tile of the pruned pass: the segments of core/segment_bound.h
 * on the column side; a row block (32R rows) is the segment on the row
 * side. */
#define PASS_TILE 32

/* Boxes and longest float edges of the tour's column tiles, then of its
 * row blocks (pass_boxes_count entries each), refreshed by every pruned
 * pass; and what the last pruned pass evaluated. */
struct PassBoxes {
    float4 *box;                  /* (x0, y0, x1, y1) */
    float *longest;
    unsigned long long *checked;  /* rows x columns of the rectangles evaluated */
};

/* Entries of PassBoxes::box and ::longest for n cities. */
size_t pass_boxes_count(int n);
/* An upper bound on inst's distances as the pass computes them (INFINITY
 * where the pass has no use for one). */
double pass_max_distance(const wt_instance *inst);
/* The plan for I, whose distances are at most max_dist; prune asks for
 * the pruned pass, which the plan takes where the metric has the bound
 * and float sums stay exact (max_dist below 2^21); tuning may force its
 * shape (wt_tuning's pass_ fields). */
wt_status pass_plan(const DevInst &I, double max_dist, bool prune, const wt_tuning *tuning,
                    PassPlan *plan, wt_error *err);

/* One full pass over the pair space; rowkey (n entries) must hold
 * PASS_NO_MOVE on entry.  Blocks stop early (leaving rowkey incomplete)
 * once *d_stop is nonzero.  With plan.prune it first refreshes boxes and
 * then skips the rectangles of pairs they rule out: rowkey ends the same. */
wt_status pass_launch(const DevInst &I, DevTour t, const PassPlan &plan, PassBoxes boxes,
                      unsigned long long *rowkey, const int *d_stop, cudaStream_t stream,
                      wt_error *err);

/* Turns rowkey into cand[i] = {exact delta, i, j} for every row (delta 0
 * when the row has no candidate) and resets rowkey to PASS_NO_MOVE, first
 * finding each row's column (recover_kernel): a pass is pass_launch and
 * pass_collect together. */
wt_status pass_collect(const DevInst &I, DevTour t, const PassPlan &plan,
                       unsigned long long *rowkey, wt_kswap_move *cand, cudaStream_t stream,
                       wt_error *err);

/* After pass_collect: writes cand[n-2+i] = {exact delta, i, j} for the best
 * float move of row i with j in [i+2, i+band] (lowest j among equal float
 * deltas; the pass's own float operations), when its float delta is
 * negative and j differs from cand[i].j (the row's best, which it then
 * duplicates); else {0, i, -1}.  cand needs 2(n-2) entries; band >= 1. */
wt_status pass_band(const DevInst &I, DevTour t, int band, wt_kswap_move *cand,
                    cudaStream_t stream, wt_error *err);

/* Applies count independent moves (disjoint [i, j]) to t at once:
 * offs[c] must be the exclusive prefix sum of (j - i) / 2 over moves, and
 * swaps their total.  Two kernels: one swap per thread, then the edge
 * terms of the reversed segments. */
wt_status pass_apply(const DevInst &I, DevTour t, const wt_kswap_move *moves,
                     const long long *offs, int count, long long swaps, cudaStream_t stream,
                     wt_error *err);

/* Writes exact[k] = exact length of edge k of the tour id (for a sum). */
wt_status pass_exact_edges(const DevInst &I, const int32_t *id, long long *exact,
                           cudaStream_t stream, wt_error *err);

#endif
