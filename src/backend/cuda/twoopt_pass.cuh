/*
 * twoopt_pass.cuh - one tour on the whole GPU: its layout in device memory,
 * the plan of a 2-opt pass over it and the pass's launch (twoopt_pass.cu).
 * The kernel families around the pass have their own headers:
 * pass_recover.cuh (each row's column and exact delta), pass_band.cuh (the
 * band candidates), pass_apply.cuh (k independent moves at once) and
 * pass_tour.cuh (a tour's points, edges and exact lengths); the pass
 * itself is pass_full.cu or pass_pruned.cu, around pass_loop.cuh.
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
 * session.cu drives them; twoopt_pass.h is the C-callable side.
 */
#ifndef WT_BACKEND_CUDA_TWOOPT_PASS_CUH
#define WT_BACKEND_CUDA_TWOOPT_PASS_CUH

#include <cstdint>

#include "core/kswap.h"
#include "core/tuning.h"
#include "backend/cuda/context.cuh"
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

/* Work layout of a pass: computed once per tour size and device. */
struct PassPlan {
    int grid;          /* blocks */
    int block;         /* threads per block (independent warps) */
    int rows_per_lane; /* 8 or 16 */
    int warps;         /* warps sharing the pair space */
    int piece;         /* columns per offer of a row's best (pass_loop.cuh) */
    bool chained;      /* recovery launched behind the pass with programmatic
                          serialization (Hopper's dependent launch) */
    long long cost;    /* cost of all row blocks' column steps (twoopt_common.cuh) */
    int period;        /* columns per offset chain of the integer (DPX) loop;
                          0: the float loop (pass_loop.cuh) */
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
/* The plan for I on ctx's device, whose distances are at most max_dist;
 * prune asks for the pruned pass, which the plan takes where the metric
 * has the bound and float sums stay exact (max_dist below 2^21); tuning
 * may force its shape (wt_tuning's pass_ fields). */
wt_status pass_plan(const CudaContext &ctx, const DevInst &I, double max_dist, bool prune,
                    const wt_tuning *tuning, PassPlan *plan, wt_error *err);

/* One full pass over the pair space; rowkey (n entries) must hold
 * PASS_NO_MOVE on entry.  Blocks stop early (leaving rowkey incomplete)
 * once *d_stop is nonzero.  With plan.prune it first refreshes boxes and
 * then skips the rectangles of pairs they rule out: rowkey ends the same. */
wt_status pass_launch(const DevInst &I, DevTour t, const PassPlan &plan, PassBoxes boxes,
                      unsigned long long *rowkey, const int *d_stop, cudaStream_t stream,
                      wt_error *err);

#endif
