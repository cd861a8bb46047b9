/*
 * twoopt_pass.cu - the plan of a whole-GPU 2-opt pass (rows per lane,
 * blocks, warps, the integer loop's period, pruning) for a tour size and
 * device, and the launch of the pass it plans: the full one
 * (pass_full.cu) or the pruned one (pass_pruned.cu).  pass_loop.cuh says
 * how a pass works.
 */
#include <cmath>

#include "backend/cuda/pass_full.cuh"
#include "backend/cuda/pass_pruned.cuh"
#include "backend/cuda/twoopt_common.cuh"

namespace {

constexpr long long MIN_WARP_STEPS = 32; /* fewer warps than that on small tours */

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
wt_status pass_warps(const CudaContext &ctx, const DevInst &I, const PassPlan &plan, int block,
                     long long *warps, bool *full, wt_error *err)
{
    int per_sm = 0;
    const void *kernel = pass_full_kernel(I.type, plan.rows_per_lane, plan.period);
    WT_CUDA_CHECK(err, cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, block, 0));
    if (per_sm < 1)
        return wt_fail(err, WT_STATUS_DEVICE, "2-opt pass: no block of %d threads fits "
                       "on this GPU", block);
    const int wr = 32 * plan.rows_per_lane;
    long long steps = I.n < 4 ? 0 : steps_before(I.n, wr, row_blocks(I.n, wr));
    long long resident = (long long)ctx.sms * per_sm * (block / 32);
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

/* Largest distance at which the pruned pass's float sums stay exact
 * integers: M plus two distances below 2^24. */
constexpr double PRUNE_MAX_DIST = 0x1p21;

/* Fewest cities for the pruned pass: below, the box kernel and the slots'
 * tests cost more than the pairs they spare (bench/RESULTS.md, "Why the GPU
 * prunes from 16,384 cities").  tuning.pass_prune_min overrides it (tests,
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

} // namespace

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

wt_status pass_plan(const CudaContext &ctx, const DevInst &I, double max_dist, bool prune,
                    const wt_tuning *tuning, PassPlan *plan, wt_error *err)
{
    return with_metric(I.type, err, [&](auto m) {
        using M = decltype(m);
        pass_shape(I.n, tuning, plan);
        plan->period = plan->rows_per_lane == 8 ? pass_period<M>(max_dist, tuning) : 0;
        long long warps = 0;
        bool full = false;
        int block = plan->block ? plan->block : PASS_THREADS_FULL;
        wt_status st = pass_warps(ctx, I, *plan, block, &warps, &full, err);
        if (st == WT_OK && !plan->block && !full) {
            block = PASS_THREADS;
            st = pass_warps(ctx, I, *plan, block, &warps, &full, err);
        }
        if (st != WT_OK) return st;
        const int wr = 32 * plan->rows_per_lane;
        plan->block = block;
        plan->warps = (int)warps;
        plan->cost = I.n < 4 ? 0 : cost_before(I.n, wr, row_blocks(I.n, wr));
        plan->grid = (int)((warps + block / 32 - 1) / (block / 32));
        plan->prune = prune && pass_pruned_metric(I.type) && max_dist < PRUNE_MAX_DIST &&
                      I.n >= 4 && I.n >= pass_knob(tuning->pass_prune_min, PRUNE_MIN_N);
        plan->width = pass_width(I.n, wr, warps);
        return WT_OK;
    });
}

wt_status pass_launch(const DevInst &I, DevTour t, const PassPlan &plan, PassBoxes boxes,
                      unsigned long long *rowkey, const int *d_stop, cudaStream_t stream,
                      wt_error *err)
{
    if (I.n < 4) return WT_OK; /* no pair of non-adjacent edges */
    if (plan.prune) return pass_pruned_launch(I, t, plan, boxes, rowkey, d_stop, stream, err);
    return pass_full_launch(I, t, plan, rowkey, d_stop, stream, err);
}
