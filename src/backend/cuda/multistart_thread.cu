/*
 * multistart_thread.cu - the prior-art baseline: one climber per thread.
 *
 * The design O'Neil & Burtscher improve upon (their "calc" comparison, after
 * Rocki & Suda): each thread climbs its own tour, coordinates kept in tour
 * order and every distance recomputed from them (Listing 2: three per move).
 * It exists to be measured beside the block kernel in `warptour-bench
 * multistart` (reached through algo/bench_hooks.h, not the public API).
 * Same start tours, same rounding, same tie rule (the first of equal moves
 * in (i, j) order), so its climbs end where the CPU's do.
 * Each thread's arrays are interleaved with its neighbours' in global memory
 * so a warp's accesses coalesce, as local memory would lay them out.
 */
#include "core/climb_start.h"
#include "backend/cuda/ms_run.cuh"
#include "backend/cuda/multistart_kernels.cuh"

namespace {

typedef MetricEuc2D M;

struct ThreadTour {
    float2 *pts; /* pts[k * stride], k = 0..n (pts[n] = pts[0]) */
    int32_t *id; /* id[k * stride] */
    size_t stride;

    __device__ float2 p(int k) const { return pts[(size_t)k * stride]; }
};

/* Best move of the whole pair space, first in (i, j) order among equals. */
__device__ void best_move(const ThreadTour &t, int n, float &best, int &bi, int &bj)
{
    best = 0.0f;
    bi = bj = -1;
    for (int i = 0; i < n - 2; i++) {
        float2 a = t.p(i), b = t.p(i + 1);
        float me_i = M::x(a, b);
        for (int j = i + 2; j < n; j++) {
            float2 c = t.p(j), d = t.p(j + 1);
            float delta = (M::x(a, c) - me_i) + (M::x(b, d) - M::x(c, d));
            if (delta < best) {
                best = delta;
                bi = i;
                bj = j;
            }
        }
    }
}

/* Whether move (i, j) shortens the tour exactly: float may see a gain that
 * is not there, and applying such moves could go on forever. */
__device__ bool exactly_improving(const DevInst &I, const ThreadTour &t, int i, int j)
{
    int a = t.id[(size_t)i * t.stride], b = t.id[(size_t)(i + 1) * t.stride];
    int c = t.id[(size_t)j * t.stride], d = t.id[(size_t)((j + 1) % I.n) * t.stride];
    return dev_exact_2opt_delta(I, a, b, c, d) < 0;
}

__device__ void reverse(const ThreadTour &t, int i, int j)
{
    for (int p = i + 1, q = j; p < q; p++, q--) {
        size_t sp = (size_t)p * t.stride, sq = (size_t)q * t.stride;
        float2 tp = t.pts[sp];
        t.pts[sp] = t.pts[sq];
        t.pts[sq] = tp;
        int32_t tc = t.id[sp];
        t.id[sp] = t.id[sq];
        t.id[sq] = tc;
    }
}

__device__ long long exact_length(const DevInst &I, const ThreadTour &t)
{
    long long len = 0;
    for (int k = 0; k < I.n; k++)
        len += dev_exact_dist(I, t.id[(size_t)k * t.stride],
                              t.id[(size_t)((k + 1) % I.n) * t.stride]);
    return len;
}

__device__ void offer(const MsArgs &a, const ThreadTour &t, long long len, unsigned long long climb)
{
    if (!ms_better(a.run, len, climb)) return;
    ms_lock(a.run);
    if (ms_better(a.run, len, climb)) {
        for (int k = 0; k < a.inst.n; k++) a.best_tour[k] = t.id[(size_t)k * t.stride];
        __threadfence();
        a.run->best_len = len;
        a.run->best_climb = climb;
    }
    ms_unlock(a.run);
}

__global__ void ms_thread_kernel(MsArgs a, size_t nthreads)
{
    size_t tid = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (tid >= nthreads) return;
    int n = a.inst.n;
    ThreadTour t;
    t.stride = nthreads;
    t.pts = (float2 *)a.scratch + tid;
    t.id = (int32_t *)(a.scratch + (size_t)(n + 1) * nthreads * sizeof(float2)) + tid;
    for (;;) {
        unsigned long long climb = ms_take_climb(a);
        if (climb == MS_NO_CLIMB) return;
        wt_climb_start_tour_strided(a.seed, climb, n, t.id, t.stride);
        for (int k = 0; k <= n; k++)
            t.pts[(size_t)k * t.stride] =
                M::point(a.inst, t.id[(size_t)(k < n ? k : 0) * t.stride]);
        unsigned long long steps = 0, scans = 0;
        bool completed = false;
        for (;;) {
            float best;
            int bi, bj;
            best_move(t, n, best, bi, bj);
            scans++;
            if (!(best < 0.0f) || !exactly_improving(a.inst, t, bi, bj)) {
                completed = true;
                break;
            }
            if (ms_stop_requested(a)) break;
            reverse(t, bi, bj);
            steps++;
        }
        ms_count(a, steps, scans, completed);
        offer(a, t, exact_length(a.inst, t), climb);
    }
}

} // namespace

wt_status ms_launch_thread(const MsLaunch &L, const MsArgs &args_in, wt_error *err)
{
    if (args_in.inst.type != WT_EUC_2D)
        return wt_fail(err, WT_STATUS_UNSUPPORTED, "the climber-per-thread baseline kernel "
                       "handles EUC_2D instances only");
    const int block = 128, sms = L.ctx->sms;
    int per_sm = 0;
    WT_CUDA_CHECK(err, cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, ms_thread_kernel,
                                                                     block, 0));
    size_t threads = (size_t)sms * (size_t)(per_sm > 0 ? per_sm : 1) * block;
    if (L.restarts && L.restarts < threads) threads = (size_t)L.restarts;
    /* Bounded by memory too: each thread owns a tour. */
    size_t per_thread = (size_t)(L.n + 1) * (sizeof(float2) + sizeof(int32_t));
    size_t free_b = 0, total_b = 0;
    WT_CUDA_CHECK(err, cudaMemGetInfo(&free_b, &total_b));
    size_t cap = free_b / 2 / per_thread;
    if (cap < threads) threads = cap > 0 ? cap : 1;
    MsArgs args = args_in;
    void *scratch = nullptr;
    WT_CUDA_CHECK(err, cudaMalloc(&scratch, per_thread * threads));
    args.scratch = (unsigned char *)scratch;
    unsigned blocks = (unsigned)((threads + block - 1) / block);
    ms_thread_kernel<<<blocks, block, 0, L.ctx->stream>>>(args, threads);
    cudaError_t e = cudaGetLastError();
    wt_status st = e == cudaSuccess ? L.wait(L.wait_ctx, err)
                                    : wt_fail(err, WT_STATUS_DEVICE, "baseline kernel launch "
                                              "failed: %s", cudaGetErrorString(e));
    cudaFree(scratch);
    return st;
}
