/*
 * device_instance.cu - copying an instance to the GPU.
 *
 * Coordinates go up twice: as float for the searches' hot loops and as
 * double for exact lengths (GEO as radians, both times).  EXPLICIT
 * instances send their matrix.
 */
#include <cstdlib>
#include <cstring>
#include <vector>

#include "backend/cuda/device_instance.cuh"

void dev_instance_free(DevInstBuffers *buf)
{
    for (void *&p : buf->allocs) {
        if (p) cudaFree(p);
        p = nullptr;
    }
}

/* Uploads n values as float and as double into slots k and k+1. */
static wt_status upload_axis(DevInstBuffers *buf, int k, const double *h, int n,
                             const float **f_out, const double **d_out, wt_error *err)
{
    std::vector<float> f(h, h + n);
    WT_CUDA_CHECK(err, cudaMalloc(&buf->allocs[k], (size_t)n * sizeof(float)));
    WT_CUDA_CHECK(err, cudaMalloc(&buf->allocs[k + 1], (size_t)n * sizeof(double)));
    WT_CUDA_CHECK(err, cudaMemcpy(buf->allocs[k], f.data(), (size_t)n * sizeof(float),
                                  cudaMemcpyHostToDevice));
    WT_CUDA_CHECK(err, cudaMemcpy(buf->allocs[k + 1], h, (size_t)n * sizeof(double),
                                  cudaMemcpyHostToDevice));
    *f_out = (const float *)buf->allocs[k];
    *d_out = (const double *)buf->allocs[k + 1];
    return WT_OK;
}

static wt_status upload_all(const wt_instance *inst, DevInstBuffers *buf, wt_error *err)
{
    DevInst &I = buf->inst;
    int n = inst->n;
    wt_status st = WT_OK;
    if (inst->type == WT_EXPLICIT) {
        size_t bytes = (size_t)n * (size_t)n * sizeof(int32_t);
        WT_CUDA_CHECK(err, cudaMalloc(&buf->allocs[6], bytes));
        WT_CUDA_CHECK(err, cudaMemcpy(buf->allocs[6], inst->matrix, bytes, cudaMemcpyHostToDevice));
        I.matrix = (const int32_t *)buf->allocs[6];
        return WT_OK;
    }
    const double *hx = inst->type == WT_GEO ? inst->lat : inst->x;
    const double *hy = inst->type == WT_GEO ? inst->lon : inst->y;
    st = upload_axis(buf, 0, hx, n, &I.xf, &I.xd, err);
    if (st == WT_OK) st = upload_axis(buf, 2, hy, n, &I.yf, &I.yd, err);
    if (st == WT_OK && wt_has_z(inst->type))
        st = upload_axis(buf, 4, inst->z, n, &I.zf, &I.zd, err);
    return st;
}

wt_status dev_instance_upload(const wt_instance *inst, DevInstBuffers *buf, wt_error *err)
{
    memset(buf, 0, sizeof *buf);
    buf->inst.n = inst->n;
    buf->inst.type = inst->type;
    wt_status st = upload_all(inst, buf, err);
    /* cudaMemcpy from pageable memory may return before its DMA lands, and
     * the contexts' streams (non-blocking) are not ordered after the legacy
     * stream's copies: no kernel may read the instance before they end. */
    cudaError_t e = st == WT_OK ? cudaDeviceSynchronize() : cudaSuccess;
    if (e != cudaSuccess) {
        (void)cudaGetLastError();
        st = wt_fail(err, WT_STATUS_DEVICE, "the instance's upload: %s", cudaGetErrorString(e));
    }
    if (st != WT_OK) dev_instance_free(buf);
    return st;
}
