/*
 * ms_run.cuh - what the multistart kernels share: the work queue of climbs,
 * the global best tour, counters, and the host's stop flag.
 *
 * A fixed set of resident blocks (or threads) pulls climb numbers from one
 * atomic counter (Robinson et al. 2018, §3.3), so any number of climbs runs
 * in memory bounded by the resident set.  The best tour is kept under a
 * spin lock taken by one thread; the comparison is on (exact length, climb
 * number), so the winner does not depend on which block finished first.
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
};

/* Host-mapped mirror the host polls for progress while the kernel runs. */
struct MsStatus {
    long long best_len;
    unsigned long long climbs;
};

struct MsArgs {
    DevInst inst;
    unsigned long long seed;
    unsigned long long restarts;  /* 0: until *stop */
    MsRun *run;
    int32_t *best_tour;           /* n entries */
    const volatile int *stop;     /* host-mapped: nonzero asks every block to stop */
    volatile MsStatus *status;    /* host-mapped */
    unsigned char *scratch;       /* per-block (or per-thread) tours in global memory */
    size_t scratch_stride;        /* bytes per block in scratch */
};

/* Next climb for the caller, or MS_NO_CLIMB when the queue is done or the
 * host asked to stop.  One thread calls it. */
__device__ __forceinline__ unsigned long long ms_take_climb(const MsArgs &a)
{
    if (*a.stop) return MS_NO_CLIMB;
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

/* Publishes a new best to the host-mapped status (lock held). */
__device__ __forceinline__ void ms_publish(const MsArgs &a, long long len)
{
    a.status->best_len = len;
    __threadfence_system();
}

/* Counts a finished climb (completed = ran to its local optimum). */
__device__ __forceinline__ void ms_count(const MsArgs &a, unsigned long long steps,
                                         unsigned long long scans, bool completed)
{
    atomicAdd(&a.run->steps, steps);
    atomicAdd(&a.run->scans, scans);
    if (completed) {
        unsigned long long done = atomicAdd(&a.run->climbs, 1ULL) + 1;
        a.status->climbs = done; /* progress only: a stale value is harmless */
    }
}

#endif
