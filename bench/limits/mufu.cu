/*
 * mufu.cu - square roots an SM finishes per clock (wt-limit-mufu).
 *
 * The 2-opt pass computes one distance, one MUFU.SQRT, per move (9 per 8
 * moves at 8 rows per lane), so the special-function unit's rate caps it.
 * Eight independent chains per thread and every resident warp keep the
 * unit busy; the rate is reported per SM and clock (the driver's maximum
 * clock), beside RSQ, RSQ with the multiply that turns it into a root, and
 * plain FMUL + FADD for scale.
 */
#include "limit_common.cuh"

__device__ __forceinline__ float sqrt_approx(float v)
{
    float r;
    asm volatile("sqrt.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(v));
    return r;
}

__device__ __forceinline__ float rsqrt_approx(float v)
{
    float r;
    asm volatile("rsqrt.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(v));
    return r;
}

enum Op { OP_SQRT, OP_RSQRT, OP_RSQRT_MUL, OP_FMUL_FADD };

template <Op OP>
__global__ void chains_kernel(float *sink, int iters, float c)
{
    float v[8];
#pragma unroll
    for (int k = 0; k < 8; k++) v[k] = threadIdx.x * 0.001f + k + 2.0f;
    for (int it = 0; it < iters; it++) {
#pragma unroll
        for (int k = 0; k < 8; k++) {
            if (OP == OP_SQRT) v[k] = sqrt_approx(v[k]);
            else if (OP == OP_RSQRT) v[k] = rsqrt_approx(v[k]);
            else if (OP == OP_RSQRT_MUL) v[k] = v[k] * rsqrt_approx(v[k]);
            else v[k] = __fadd_rn(v[k] * c, c);
        }
    }
    float s = 0;
#pragma unroll
    for (int k = 0; k < 8; k++) s += v[k];
    if (s == 12345.0f) sink[0] = s; /* keeps the chains alive */
}

template <Op OP>
static void measure(const char *what, const LimitDevice &d, float *sink)
{
    const int blocks = d.sms * 8, threads = 256, iters = 20000;
    float ms = limit_time_ms([&] { chains_kernel<OP><<<blocks, threads>>>(sink, iters, 1.0f); });
    double ops = (double)blocks * threads * iters * 8;
    printf("%-12s %8.3f ms  %6.3f T/s  %5.2f per clock per SM\n", what, ms, ops / ms * 1e-9,
           ops / (ms * 1e-3) / d.sms / (d.ghz * 1e9));
}

int main(void)
{
    LimitDevice d = limit_device();
    float *sink = nullptr;
    LIMIT_CHECK(cudaMalloc(&sink, sizeof *sink));
    measure<OP_SQRT>("sqrt", d, sink);
    measure<OP_RSQRT>("rsqrt", d, sink);
    measure<OP_RSQRT_MUL>("x*rsqrt(x)", d, sink);
    measure<OP_FMUL_FADD>("fmul+fadd", d, sink);
    LIMIT_CHECK(cudaFree(sink));
    return 0;
}
