/*
 * cuda_backend.cu - the CUDA backend: finding the GPU and checking it runs.
 *
 * The backend answers whether a usable GPU is present, and runs the
 * searches that have kernels (multistart.cu, session.cu, sa.cu, batch.cu,
 * cuda_ascent.cu, cuda_neighbours.cu);
 * its devices are the CUDA devices, `cuda:0`, `cuda:1`, ...
 * "Usable" is decided by launching a tiny probe kernel, not just by counting
 * devices: a binary built for other architectures (WT_CUDA_ARCH) than the
 * GPU's fails only at launch, and users should hear that before a search.
 * The library is linked against the static CUDA runtime, so a machine with
 * no driver runs the CPU backend and is told why the GPU one is absent.
 */
#include <cstdio>

#include "backend/backend.h"
#include "backend/cuda/batch.h"
#include "backend/cuda/cuda_ascent.h"
#include "backend/cuda/cuda_common.cuh"
#include "backend/cuda/cuda_neighbours.h"
#include "backend/cuda/multistart.h"
#include "backend/cuda/sa.h"
#include "backend/cuda/session.h"

/* Writes a known pattern so the host can tell the kernel really ran. */
static __global__ void probe_kernel(int *out)
{
    out[threadIdx.x] = (int)threadIdx.x * 3 + 1;
}

/* Runs probe_kernel on the current device; describes a failure in why. */
static bool probe_launch(char *why, size_t size)
{
    enum { N = 32 };
    int *d_out = nullptr, h_out[N] = {0};
    (void)cudaGetLastError(); /* an earlier run's non-sticky error is not this probe's */
    cudaError_t e = cudaMalloc(&d_out, N * sizeof(int));
    if (e == cudaSuccess) {
        probe_kernel<<<1, N>>>(d_out);
        e = cudaGetLastError();
    }
    if (e == cudaSuccess) e = cudaMemcpy(h_out, d_out, sizeof h_out, cudaMemcpyDeviceToHost);
    cudaFree(d_out);
    if (e != cudaSuccess) {
        snprintf(why, size, "GPU present but unusable: %s%s", cudaGetErrorString(e),
                 e == cudaErrorNoKernelImageForDevice
                     ? " (rebuild with WT_CUDA_ARCH set to this GPU's compute capability)"
                     : "");
        return false;
    }
    for (int i = 0; i < N; i++)
        if (h_out[i] != i * 3 + 1) {
            snprintf(why, size, "GPU present but the probe kernel returned wrong data");
            return false;
        }
    return true;
}

static int cuda_device_count(void)
{
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess) {
        (void)cudaGetLastError();
        return 0;
    }
    return count;
}

static bool cuda_available(const wt_device *dev, char *desc, size_t size)
{
    const int device = dev->index;
    int count = 0;
    cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess || count == 0) {
        snprintf(desc, size, "no usable CUDA driver or device (%s)",
                 e != cudaSuccess ? cudaGetErrorString(e) : "none found");
        return false;
    }
    if (device < 0 || device >= count) {
        snprintf(desc, size, "no CUDA device %d (devices 0..%d)", device, count - 1);
        return false;
    }
    cudaDeviceProp prop;
    if (cudaSetDevice(device) != cudaSuccess ||
        cudaGetDeviceProperties(&prop, device) != cudaSuccess) {
        (void)cudaGetLastError();
        snprintf(desc, size, "no CUDA device (cannot read the properties of device %d)", device);
        return false;
    }
    if (!probe_launch(desc, size)) return false;
    snprintf(desc, size, "%s (sm_%d%d, %d SMs, %.1f GiB)", prop.name, prop.major,
             prop.minor, prop.multiProcessorCount,
             (double)prop.totalGlobalMem / (1024.0 * 1024.0 * 1024.0));
    return true;
}

static wt_status cuda_batch(const wt_device *dev, const wt_batch_job *job, wt_search_ctl *ctl,
                            wt_error *err)
{
    return wt_cuda_batch_run(dev, job, false, ctl, err);
}

static wt_status cuda_windows(const wt_device *dev, const wt_batch_job *job,
                              wt_search_ctl *ctl, wt_error *err)
{
    return wt_cuda_batch_run(dev, job, true, ctl, err);
}

extern "C" const wt_backend wt_backend_cuda = {
    /* .name = */ "cuda",
    /* .kind = */ WT_BACKEND_CUDA,
    /* .host = */ false,
    /* .available = */ cuda_available,
    /* .device_count = */ cuda_device_count,
    /* .multistart = */ wt_cuda_multistart,
    /* .session = */ &wt_cuda_session_ops,
    /* .sa = */ wt_cuda_sa,   /* PSPM simulated annealing (sa.cu) */
    /* .sa_near = */ true,    /* local moves too: the CPU's draws (sa.cu) */
    /* .batch = */ cuda_batch,
    /* .batch_place = */ wt_cuda_batch_place,
    /* .windows = */ cuda_windows,
    /* .windows_open = */ wt_cuda_windows_open, /* resident windows (batch.cu) */
    /* .windows_round = */ wt_cuda_windows_round,
    /* .windows_close = */ wt_cuda_windows_close,
    /* .ascent = */ wt_cuda_ascent, /* the Held-Karp ascent's steps (cuda_ascent.cu) */
    /* .neighbours = */ wt_cuda_neighbours, /* candidate lists by a grid (cuda_neighbours.cu) */
};
