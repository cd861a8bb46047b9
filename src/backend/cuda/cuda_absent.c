/*
 * cuda_absent.c - the CUDA backend of a build without CUDA: never available.
 */
#include <stdio.h>

#include "backend/backend.h"
#include "backend/cuda/twoopt_pass.h"
#include "core/error.h"

/* Why there is no CUDA backend (CMake says: WT_CUDA=OFF, no GPU driver when
 * make ran, no nvcc). */
#ifndef WT_CUDA_ABSENT_WHY
#define WT_CUDA_ABSENT_WHY "no nvcc at build time"
#endif

static bool cuda_absent_available(char *device, size_t size)
{
    snprintf(device, size, "built without CUDA (%s)", WT_CUDA_ABSENT_WHY);
    return false;
}

const wt_backend wt_backend_cuda = {
    .name = "cuda",
    .available = cuda_absent_available,
    .twoopt_descend = NULL,
    .multistart = NULL,
    .session = NULL,
    .sa = NULL,
};

wt_status wt_cuda_2opt_row_bests(const wt_instance *inst, const int32_t *tour,
                                 wt_kswap_move *out, int *count, double *pass_seconds,
                                 wt_error *err)
{
    (void)inst;
    (void)tour;
    (void)out;
    (void)pass_seconds;
    *count = 0;
    return wt_fail(err, WT_STATUS_NO_DEVICE, "built without CUDA (%s)", WT_CUDA_ABSENT_WHY);
}

wt_status wt_cuda_2opt_scan(const wt_instance *inst, const int32_t *tour, int band, bool prune,
                            wt_kswap_move *out, int *count, double *pass_seconds,
                            uint64_t *checked, wt_error *err)
{
    (void)band;
    (void)prune;
    (void)checked;
    return wt_cuda_2opt_row_bests(inst, tour, out, count, pass_seconds, err);
}

wt_status wt_cuda_2opt_candidates(const wt_instance *inst, const int32_t *tour, int band,
                                  wt_kswap_move *out, int *count, double *pass_seconds,
                                  wt_error *err)
{
    (void)band;
    return wt_cuda_2opt_row_bests(inst, tour, out, count, pass_seconds, err);
}
