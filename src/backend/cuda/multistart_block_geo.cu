/*
 * multistart_block_geo.cu - the block kernels of TSPLIB's GEO distances
 * (multistart_block.cuh).
 */
#include "backend/cuda/multistart_block.cuh"

wt_status ms_launch_block_geo(const MsLaunch &L, const MsArgs &args, wt_error *err)
{
    switch (args.inst.type) {
    case WT_GEO: return launch_metric<MetricGeo>(L, args, err);
    default: break;
    }
    return wt_fail(err, WT_STATUS_UNSUPPORTED, "multistart: edge weight type %d is not one of "
                   "ms_launch_block_geo's", (int)args.inst.type);
}
