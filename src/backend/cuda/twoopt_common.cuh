/*
 * twoopt_common.cuh - what the kernel families of the whole-GPU 2-opt pass
 * share (pass_full, pass_pruned, pass_recover, pass_band, pass_apply,
 * pass_tour, and the plan in twoopt_pass.cu): the metric dispatch, launch
 * checks, the move term every family computes bit for bit alike, the cost
 * model of the pair space's row blocks, and Hopper's dependent launches.
 */
#ifndef WT_BACKEND_CUDA_TWOOPT_COMMON_CUH
#define WT_BACKEND_CUDA_TWOOPT_COMMON_CUH

#include "backend/cuda/twoopt_pass.cuh"
#include "core/error.h"

/* Threads per block of the pass kernel.  Its warps are independent, so
 * the block size only sets how many blocks the GPU launches for one wave:
 * at R = 8, 512-thread blocks when the wave fills the GPU (fewer, larger
 * launches, faster at mid sizes than 128: bench/RESULTS.md, "2-opt pass:
 * one full pass (bench pass)", and the sweeps it points to), else 128, so
 * that a small tour's few warps spread over more SMs (tuning.pass_block
 * forces one, for measurements). */
constexpr int PASS_THREADS = 128, PASS_THREADS_FULL = 512;

/* The term of move (i, j) that the pass minimizes over j:
 * (M - e_j + d(p_i, q_j)) + d(p_i+1, q_j+1) = M + delta + e_i, each FADD
 * rounding its raw distance as TSPLIB does.  The sum stays in [2^23,
 * 2^24), where floats are exact integers, whenever distances are: so e_i
 * can be subtracted once per row, after the minimum, which saves one FADD
 * per move.  Bit for bit the value warp_rows computes. */
template <class M>
__device__ __forceinline__ float pass_row_term(typename M::Pt pi, typename M::Pt pn,
                                               typename M::Pt qj, typename M::Pt qn, float mcj)
{
    return M::add(M::add(mcj, M::raw(pi, qj)), M::raw(pn, qn));
}

/* Column steps of row blocks [0, I): row block I scans columns
 * I*wr + 2 .. n-1, n - 2 - I*wr of them (wr = 32R rows per row block). */
__host__ __device__ __forceinline__ long long steps_before(int n, int wr, long long I)
{
    return I * (long long)(n - 2) - (long long)wr * I * (I - 1) / 2;
}

__host__ __device__ __forceinline__ int row_blocks(int n, int wr) { return (n - 2 + wr - 1) / wr; }

/* The shares are equal in cost, not in columns: a row block's first
 * wr - 1 columns reach below the diagonal and take the masked loop, about
 * half as dear again as a plain column (an ISETP and an FSEL per move,
 * and at 96 registers a few spills, by the SASS of the loops with and
 * without clamps: bench/RESULTS.md, "2-opt pass: one full pass (bench
 * pass)", and the sweeps it points to); counted as such, the warps that
 * hold them finish with the others.  Costs in units: PLAIN_COST per plain
 * column, MASKED_COST per masked one. */
constexpr long long PLAIN_COST = 2, MASKED_COST = 3;

__host__ __device__ __forceinline__ int block_columns(int n, int wr, int I)
{
    return n - 2 - I * wr;
}
__host__ __device__ __forceinline__ int block_masked(int n, int wr, int I)
{
    return min(wr - 1, block_columns(n, wr, I));
}

/* Cost of row blocks [0, I): all but the last have wr - 1 masked columns. */
__host__ __device__ __forceinline__ long long cost_before(int n, int wr, int I)
{
    long long masked =
        I < row_blocks(n, wr) ? (long long)(wr - 1) * I
                              : (long long)(wr - 1) * (I - 1) + block_masked(n, wr, I - 1);
    return PLAIN_COST * steps_before(n, wr, I) + (MASKED_COST - PLAIN_COST) * masked;
}

/* Columns per piece: a row's column is recovered within one piece, at
 * most PIECE_MAX / 128 rounds of its warp (recover_kernel).  Shorter
 * pieces spend fewer recovery rounds and more offers (tuning.pass_piece
 * overrides the default, for measurements). */
constexpr int PIECE_DEFAULT = 512, PIECE_MAX = 1024;

/* Lets the recovery kernel, launched behind this one with programmatic
 * stream serialization (pass_collect), start its launch now: its blocks
 * take the SMs this wave leaves and wait there (griddepcontrol.wait) for
 * the pass to finish, so no launch gap separates the two.  A no-op before
 * Hopper. */
__device__ __forceinline__ void let_dependents_launch()
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
#endif
}

/* Waits until the kernels this one depends on have finished and their
 * writes are visible (a no-op when it was launched without programmatic
 * serialization, or before Hopper). */
__device__ __forceinline__ void wait_for_prerequisites()
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
}

/* The metrics whose pass takes the integer loop where the plan allows it:
 * the 2D Euclidean family, which TSPLIB's large instances use.  The others
 * keep the float loop and compile one kernel less each. */
template <class M>
struct DpxLoop {
    static constexpr bool value = false;
};
template <>
struct DpxLoop<MetricEuc2D> {
    static constexpr bool value = true;
};
template <>
struct DpxLoop<MetricCeil2D> {
    static constexpr bool value = true;
};
template <>
struct DpxLoop<MetricAtt> {
    static constexpr bool value = true;
};

/* Calls f(M()) with the metric of type. */
template <class F>
wt_status with_metric(wt_edge_weight_type type, wt_error *err, F &&f)
{
    switch (type) {
    case WT_EUC_2D: return f(MetricEuc2D());
    case WT_CEIL_2D: return f(MetricCeil2D());
    case WT_ATT: return f(MetricAtt());
    case WT_GEO: return f(MetricGeo());
    case WT_MAN_2D: return f(MetricMan2D());
    case WT_MAX_2D: return f(MetricMax2D());
    case WT_EUC_3D: return f(MetricEuc3D());
    case WT_EXPLICIT: return f(MetricExplicit());
    case WT_HAVERSINE: return f(MetricHaversine());
    case WT_EUC_2D_REAL: /* kept as EUC_2D / EUC_3D: never an instance's type */
    case WT_EUC_3D_REAL: break;
    }
    return wt_fail(err, WT_STATUS_UNSUPPORTED, "2-opt pass: unknown edge weight type");
}

/* Checks a launch; names the kernel in the message. */
inline wt_status launched(const char *what, wt_error *err)
{
    cudaError_t e = cudaGetLastError();
    if (e == cudaSuccess) return WT_OK;
    return wt_fail(err, WT_STATUS_DEVICE, "%s kernel launch failed: %s", what,
                   cudaGetErrorString(e));
}

/* Blocks of 256 threads for a grid-stride loop over items (1 .. 65535). */
inline unsigned grid_for(long long items)
{
    long long blocks = (items + 255) / 256;
    return (unsigned)(blocks < 1 ? 1 : blocks > 65535 ? 65535 : blocks);
}

#endif
