/*
 * context.cu - a search's GPU: properties, streams, and the wait for its
 * work (context.cuh says how the searches use it).
 */
#include <unistd.h>

#include "backend/cuda/context.cuh"
#include "core/search_ctl.h"

wt_status cuda_context_open(int device, CudaContext *c, wt_error *err)
{
    *c = CudaContext{};
    c->device = device;
    int pools = 0;
    WT_CUDA_CHECK(err, cudaSetDevice(device));
    WT_CUDA_CHECK(err, cudaDeviceGetAttribute(&c->sms, cudaDevAttrMultiProcessorCount, device));
    WT_CUDA_CHECK(err, cudaDeviceGetAttribute(&c->smem_optin,
                                              cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
    WT_CUDA_CHECK(err, cudaDeviceGetAttribute(&c->warp_size, cudaDevAttrWarpSize, device));
    WT_CUDA_CHECK(err, cudaDeviceGetAttribute(&pools, cudaDevAttrMemoryPoolsSupported, device));
    c->pools = pools != 0;
    WT_CUDA_CHECK(err, cudaStreamCreateWithFlags(&c->stream, cudaStreamNonBlocking));
    WT_CUDA_CHECK(err, cudaStreamCreateWithFlags(&c->control, cudaStreamNonBlocking));
    return WT_OK;
}

void cuda_context_close(CudaContext *c)
{
    if (c->stream) cudaStreamDestroy(c->stream);
    if (c->control) cudaStreamDestroy(c->control);
    c->stream = c->control = nullptr;
}

wt_status cuda_stop(const CudaContext &c, int *d_stop, wt_error *err)
{
    WT_CUDA_CHECK(err, cudaMemsetAsync(d_stop, 1, sizeof *d_stop, c.control)); /* 0x01010101 */
    WT_CUDA_CHECK(err, cudaStreamSynchronize(c.control));
    return WT_OK;
}

wt_status cuda_wait(const CudaContext &c, const CudaWatch &w, bool *stopped, wt_error *err)
{
    const double t0 = wt_now();
    for (;;) {
        cudaError_t e = cudaStreamQuery(c.stream);
        if (e == cudaSuccess) return WT_OK;
        if (e != cudaErrorNotReady) {
            (void)cudaGetLastError();
            return wt_fail(err, WT_STATUS_DEVICE, "%s on the GPU failed: %s", w.what,
                           cudaGetErrorString(e));
        }
        const double waited = wt_now() - t0;
        if (!*stopped) {
            bool stop = false;
            wt_status st = w.look(w.user, waited, &stop, err);
            if (st == WT_OK && stop) st = cuda_stop(c, w.d_stop, err);
            if (st != WT_OK) return st;
            *stopped = stop;
        }
        if (waited > w.spin_s) usleep(w.sleep_us);
    }
}
