/*
 * multistart_block_norms.cu - the block kernels of the other norms: MAN_2D, MAX_2D, EUC_3D
 * (multistart_block.cuh).
 */
#include "backend/cuda/multistart_block.cuh"

wt_status ms_launch_block_norms(const MsLaunch &L, const MsArgs &args, wt_error *err)
{
    switch (args.inst.type) {
    case WT_MAN_2D: return launch_metric<MetricMan2D>(L, args, err);
    case WT_MAX_2D: return launch_metric<MetricMax2D>(L, args, err);
    case WT_EUC_3D: return launch_metric<MetricEuc3D>(L, args, err);
    default: break;
    }
    return wt_fail(err, WT_STATUS_UNSUPPORTED, "multistart: edge weight type %d is not one of "
                   "ms_launch_block_norms's", (int)args.inst.type);
}
