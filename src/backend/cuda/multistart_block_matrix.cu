/*
 * multistart_block_matrix.cu - the block kernels of a distance matrix: EXPLICIT
 * (multistart_block.cuh).
 */
#include "backend/cuda/multistart_block.cuh"

wt_status ms_launch_block_matrix(const MsLaunch &L, const MsArgs &args, wt_error *err)
{
    switch (args.inst.type) {
    case WT_EXPLICIT: return launch_metric<MetricExplicit>(L, args, err);
    default: break;
    }
    return wt_fail(err, WT_STATUS_UNSUPPORTED, "multistart: edge weight type %d is not one of "
                   "ms_launch_block_matrix's", (int)args.inst.type);
}
