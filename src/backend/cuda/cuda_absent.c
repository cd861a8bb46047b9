/*
 * cuda_absent.c - the CUDA backend of a build without CUDA: never
 * available, no device, every search slot NULL; and the one entry point
 * below the backend interface that the GPU tests and the pass benchmark
 * call (twoopt_pass.h), answering WT_STATUS_NO_DEVICE.
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

static bool cuda_absent_available(const wt_device *dev, char *desc, size_t size)
{
    (void)dev;
    snprintf(desc, size, "built without CUDA (%s)", WT_CUDA_ABSENT_WHY);
    return false;
}

static int cuda_absent_device_count(void) { return 0; }

const wt_backend wt_backend_cuda = {
    .name = "cuda",
    .kind = WT_BACKEND_CUDA,
    .host = false,
    .available = cuda_absent_available,
    .device_count = cuda_absent_device_count,
    .multistart = NULL,
    .session = NULL,
    .sa = NULL,
    .batch = NULL,
    .batch_place = NULL,
    .windows = NULL,
    .ascent = NULL,
    .neighbours = NULL,
};

wt_status wt_cuda_2opt_scan(const wt_instance *inst, const int32_t *tour, int band,
                            const wt_params *params, wt_kswap_move *out, int *count,
                            double *pass_seconds, uint64_t *checked, wt_error *err)
{
    (void)inst;
    (void)tour;
    (void)band;
    (void)params;
    (void)out;
    (void)pass_seconds;
    (void)checked;
    *count = 0;
    return wt_fail(err, WT_STATUS_NO_DEVICE, "built without CUDA (%s)", WT_CUDA_ABSENT_WHY);
}
