/*
 * multistart_block_plane.cu - the block kernels of the plane's rounded metrics: EUC_2D, CEIL_2D, ATT
 * (multistart_block.cuh).
 */
#include "backend/cuda/multistart_block.cuh"

wt_status ms_launch_block_plane(const MsLaunch &L, const MsArgs &args, wt_error *err)
{
    switch (args.inst.type) {
    case WT_EUC_2D: return launch_metric<MetricEuc2D>(L, args, err);
    case WT_CEIL_2D: return launch_metric<MetricCeil2D>(L, args, err);
    case WT_ATT: return launch_metric<MetricAtt>(L, args, err);
    default: break;
    }
    return wt_fail(err, WT_STATUS_UNSUPPORTED, "multistart: edge weight type %d is not one of "
                   "ms_launch_block_plane's", (int)args.inst.type);
}
