/*
 * limit_common.cuh - what the chip-limit microbenchmarks share: timing a
 * kernel with events and printing a rate against the SM clock.
 *
 * These programs measure the GPU, not warptour: how many square roots an
 * SM finishes a clock, and how fast the 2-opt pass's column loop can run
 * when nothing else (share set-up, offers, recovery) is in its way.  They
 * give the ceilings that bench/RESULTS.md compares `warptour-bench pass`
 * against.  Built with the CUDA backend (wt-limit-mufu,
 * wt-limit-pass-loop); each prints one line per measurement.
 */
#ifndef WT_BENCH_LIMIT_COMMON_CUH
#define WT_BENCH_LIMIT_COMMON_CUH

#include <cstdio>
#include <cstdlib>

/* Exits with the CUDA error's text: these are measurement programs, not
 * library code. */
#define LIMIT_CHECK(call)                                                                 \
    do {                                                                                  \
        cudaError_t e_ = (call);                                                          \
        if (e_ != cudaSuccess) {                                                          \
            fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_));   \
            exit(1);                                                                      \
        }                                                                                 \
    } while (0)

struct LimitDevice {
    int sms;
    double ghz; /* the SM clock the driver reports as its maximum */
    char name[256];
};

static inline LimitDevice limit_device(void)
{
    LimitDevice d;
    int khz = 0;
    cudaDeviceProp prop;
    LIMIT_CHECK(cudaGetDeviceProperties(&prop, 0));
    LIMIT_CHECK(cudaDeviceGetAttribute(&d.sms, cudaDevAttrMultiProcessorCount, 0));
    LIMIT_CHECK(cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, 0));
    d.ghz = khz * 1e-6;
    snprintf(d.name, sizeof d.name, "%s", prop.name);
    printf("# %s, %d SMs, SM clock up to %.2f GHz\n", d.name, d.sms, d.ghz);
    return d;
}

/* Milliseconds of one launch of f (a callable that launches), after a
 * warm-up launch. */
template <class F>
static inline float limit_time_ms(F &&f)
{
    cudaEvent_t a, b;
    LIMIT_CHECK(cudaEventCreate(&a));
    LIMIT_CHECK(cudaEventCreate(&b));
    f();
    LIMIT_CHECK(cudaDeviceSynchronize());
    LIMIT_CHECK(cudaEventRecord(a));
    f();
    LIMIT_CHECK(cudaEventRecord(b));
    LIMIT_CHECK(cudaEventSynchronize(b));
    LIMIT_CHECK(cudaGetLastError());
    float ms = 0;
    LIMIT_CHECK(cudaEventElapsedTime(&ms, a, b));
    LIMIT_CHECK(cudaEventDestroy(a));
    LIMIT_CHECK(cudaEventDestroy(b));
    return ms;
}

#endif
