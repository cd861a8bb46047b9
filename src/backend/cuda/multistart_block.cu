/*
 * multistart_block.cu - random-restart 2-opt with one climber per thread
 * block: the launch by metric, whose kernels lie in five files
 * (multistart_block_plane.cu, _norms.cu, _geo.cu, _haversine.cu,
 * _matrix.cu; multistart_block.cuh says how a block climbs).
 */
#include "backend/cuda/multistart_kernels.cuh"

wt_status ms_launch_block(const MsLaunch &L, const MsArgs &args, wt_error *err)
{
    switch (args.inst.type) {
    case WT_EUC_2D:
    case WT_CEIL_2D:
    case WT_ATT: return ms_launch_block_plane(L, args, err);
    case WT_MAN_2D:
    case WT_MAX_2D:
    case WT_EUC_3D: return ms_launch_block_norms(L, args, err);
    case WT_GEO: return ms_launch_block_geo(L, args, err);
    case WT_HAVERSINE: return ms_launch_block_haversine(L, args, err);
    case WT_EXPLICIT: return ms_launch_block_matrix(L, args, err);
    case WT_EUC_2D_REAL: /* kept as EUC_2D / EUC_3D: never an instance's type */
    case WT_EUC_3D_REAL: break;
    }
    return wt_fail(err, WT_STATUS_UNSUPPORTED, "multistart: unknown edge weight type");
}
