/*
 * multistart_block_haversine.cu - the block kernels of great-circle (HAVERSINE) distances
 * (multistart_block.cuh).
 */
#include "backend/cuda/multistart_block.cuh"

wt_status ms_launch_block_haversine(const MsLaunch &L, const MsArgs &args, wt_error *err)
{
    switch (args.inst.type) {
    case WT_HAVERSINE: return launch_metric<MetricHaversine>(L, args, err);
    default: break;
    }
    return wt_fail(err, WT_STATUS_UNSUPPORTED, "multistart: edge weight type %d is not one of "
                   "ms_launch_block_haversine's", (int)args.inst.type);
}
