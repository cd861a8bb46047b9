/*
 * ms_run.cuh - what the multistart kernels share: the work queue of climbs,
 * the global best tour, counters, and the host's stop flag.
 *
 * A fixed set of resident blocks (or threads) pulls climb numbers from one
 * atomic counter (Robinson et al. 2018, §3.3), so any number of climbs runs
 * in memory bounded by the resident set.  The best tour is kept under a
 * spin lock taken by one thread; the comparison is on (exact length, climb
 * number), so the winner does not depend on which block finished first.
 *
 * All of it lives in device memory.  The host raises `stop` and reads the
 * counters for progress with small asynchronous copies on a second stream
 * while the kernel runs.  (Host-mapped memory was tried first: every block
 * reading a mapped flag at every IHC step capped the whole GPU at about one
 * million steps per second, the rate of small reads over PCIe.)
 */
#ifndef WT_BACKEND_CUDA_MS_RUN_CUH
#define WT_BACKEND_CUDA_MS_RUN_CUH

#include <cstdint>

#include "backend/cuda/device_instance.cuh"

#define MS_NO_CLIMB 0xFFFFFFFFFFFFFFFFULL

/* Device-resident state of one run (zeroed, best_len = INT64_MAX, before launch). */
struct MsRun {
    unsigned long long next_climb; /* the work queue */
    unsigned long long climbs;     /* completed climbs */
    unsigned long long steps;      /* improving moves applied */
    unsigned long long scans;      /* full evaluations of the pair space */
    long long best_len;            /* exact length of best_tour */
    unsigned long long best_climb;
    int lock;
    int stop;                      /* set by the host: every block stops */
};

struct MsArgs {
    DevInst inst;
    unsigned long long seed;
    unsigned long long restarts;  /* 0: until run->stop */
    MsRun *run;
    int32_t *best_tour;           /* n entries */
    unsigned char *scratch;       /* per-block (or per-thread) tours in global memory */
    size_t scratch_stride;        /* bytes per block in scratch */
};

/* Whether the host asked to stop (a load from L2, not cached in L1). */
__device__ __forceinline__ int ms_stop_requested(const MsArgs &a)
{
    return *(volatile const int *)&a.run->stop;
}

/* Next climb for the caller, or MS_NO_CLIMB when the queue is done or the
 * host asked to stop.  One thread calls it. */
__device__ __forceinline__ unsigned long long ms_take_climb(const MsArgs &a)
{
    if (ms_stop_requested(a)) return MS_NO_CLIMB;
    unsigned long long c = atomicAdd(&a.run->next_climb, 1ULL);
    if (a.restarts && c >= a.restarts) return MS_NO_CLIMB;
    return c;
}

/* Whether (len, climb) beats the recorded best. */
__device__ __forceinline__ bool ms_better(const MsRun *run, long long len, unsigned long long climb)
{
    long long best = *(volatile const long long *)&run->best_len;
    unsigned long long bc = *(volatile const unsigned long long *)&run->best_climb;
    return len < best || (len == best && climb < bc);
}

__device__ __forceinline__ void ms_lock(MsRun *run)
{
    while (atomicCAS(&run->lock, 0, 1) != 0) __nanosleep(64);
    __threadfence();
}

__device__ __forceinline__ void ms_unlock(MsRun *run)
{
    __threadfence();
    atomicExch(&run->lock, 0);
}

/* Counts a finished climb (completed = ran to its local optimum). */
__device__ __forceinline__ void ms_count(const MsArgs &a, unsigned long long steps,
                                         unsigned long long scans, bool completed)
{
    atomicAdd(&a.run->steps, steps);
    atomicAdd(&a.run->scans, scans);
    if (completed) atomicAdd(&a.run->climbs, 1ULL);
}

#endif
