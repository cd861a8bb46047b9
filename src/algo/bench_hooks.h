/*
 * bench_hooks.h - what warptour-bench and the tests reach below the public
 * header: wt_solve with multistart's climbs on a chosen GPU kernel, the
 * thread-per-climber baseline (O'Neil & Burtscher's prior art) among them.
 *
 * The baseline is a measuring stick, not a choice a user makes, so it is
 * not in warptour.h; programs built against the installed library cannot
 * name it.  The static library (and the objects of a build) hold the
 * function, which the shared library does not export.
 */
#ifndef WT_ALGO_BENCH_HOOKS_H
#define WT_ALGO_BENCH_HOOKS_H

#include "backend/backend.h"
#include "warptour.h"

#ifdef __cplusplus
extern "C" {
#endif

/* wt_solve(inst, params, res, err) with multistart's climbs (WT_ALGO_MULTISTART
 * on a GPU) run by kernel; wt_solve itself is this with WT_MS_KERNEL_BLOCK.
 * Other algorithms and the CPU backend ignore kernel.  A kernel that is no
 * wt_multistart_kernel gives WT_STATUS_INVALID_ARGUMENT. */
wt_status wt_solve_ms_kernel(const wt_instance *inst, const wt_params *params,
                             wt_multistart_kernel kernel, wt_result *res, wt_error *err);

#ifdef __cplusplus
}
#endif

#endif
