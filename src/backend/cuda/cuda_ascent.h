/*
 * cuda_ascent.h - the CUDA backend's Held-Karp ascent slot (backend.h,
 * wt_ascent_job): the subgradient steps on the GPU, results equal to the
 * cpu backend's bit for bit (cuda_ascent.cu says how).
 */
#ifndef WT_BACKEND_CUDA_ASCENT_H
#define WT_BACKEND_CUDA_ASCENT_H

#include <stdbool.h>

#include "backend/backend.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The ascent slot's semantics (backend.h) on CUDA device dev->index; ctl
 * may be NULL (one host thread for the finish, no stop).  Errors: those of
 * the cpu slot (wt_ascent_job_check, a graph that is not connected),
 * UNSUPPORTED (2^31 graph edges or more), OUT_OF_MEMORY (the GPU's free
 * memory is short: the message names the bytes needed and free), DEVICE
 * (a CUDA call failed). */
wt_status wt_cuda_ascent(const wt_device *dev, const wt_instance *inst, wt_ascent_job *job,
                         wt_search_ctl *ctl, wt_error *err);

/* The fused path's device time by phase (cuda_ascent_fused.cu names
 * them), read by one thread's clock between the grid-wide barriers and
 * summed over every tree of the ascent, its finish's included. */
typedef struct wt_cuda_ascent_profile {
    double start_s, cheapest_s, hook_s, root_s, second_s, sums_s, rule_s;
    long long rounds; /* Boruvka rounds */
    long long trees;
    /* The slot's wall clock by part, on the calling thread: the sparse
     * graph's arrays (wt_sgraph_create), the device's memory and uploads,
     * the first tree and the steps, the GPU's finish (its tree and the
     * candidates), the wait for the bound's thread after it, and the
     * memory freed.  bound_s: the bound's own time from the best pi (its
     * grid and memory were prepared during the steps). */
    double graph_s, open_s, steps_s, finish_s, bound_wait_s, close_s, bound_s;
    bool split; /* the steps were split with the job's second device (the
                   phases above are the first device's) */
} wt_cuda_ascent_profile;

/* Experimental: the knobs that only tests and benchmarks turn.  Every
 * setting gives the same results bit for bit; only the time differs. */
typedef struct wt_cuda_ascent_tuning {
    bool fused;        /* a tree in one cooperative kernel launch where the
                          device can launch one (the default); false, or a
                          device that cannot: a launch a phase and a host
                          synchronisation a Boruvka round */
    int blocks_per_sm; /* the fused kernel's resident blocks an SM; 0 (the
                          default): as many as fit; more than fit: as many
                          as fit */
    int steps_per_launch; /* the fused path's steps a launch, the step rule
                             run on the device between them; 0 (the
                             default): as many as take about 10 ms, so
                             that stops are polled that often */
    bool finish_on_gpu; /* the finish (cuda_ascent.cu says what) on the GPU,
                           the complete graph's bound beside it (bound_on_gpu
                           says where; the default; on the host after all where the
                           GPU's free memory takes the steps but not the
                           finish); false: all of it on the host, after the
                           steps (core/ascent_finish.h) */
    bool bound_on_gpu; /* the complete graph's bound beside the GPU's finish
                          computed on the GPU too (cuda_bound.h) where it
                          takes the instance (the default); false: on the
                          host's threads */
    bool graph_on_gpu; /* the sparse graph's edges built on the GPU from the
                          job's rows where the points are planar and the
                          GPU's free memory takes them (the default); false:
                          on the host (core/onetree.h), uploaded */
    long long compact_edges; /* from this many graph edges (the default:
                           2^24), the fused path's Boruvka rounds after the
                           second read a list of the edges still between
                           two components, where the GPU's free memory
                           takes the lists' 32 bytes an edge; 0: always;
                           -1: never, every round reads the whole graph */
    long long split_edges; /* from this many graph edges (the default: 2^24),
                           the steps after the first tree are split with
                           job->split_with's device where the job names one
                           of this backend, the two devices read each other's
                           memory and both launch the fused kernel (else dev
                           alone runs them); 0: at any size; -1: never */
    wt_cuda_ascent_profile *profile; /* NULL (the default); else filled
                           with the fused path's phase times (zero where
                           the fused path did not run) */
} wt_cuda_ascent_tuning;

void wt_cuda_ascent_tuning_defaults(wt_cuda_ascent_tuning *t);

/* wt_cuda_ascent with tuning (not NULL; blocks_per_sm and
 * steps_per_launch >= 0, compact_edges and split_edges >= -1, else
 * INVALID_ARGUMENT). */
wt_status wt_cuda_ascent_tuned(const wt_device *dev, const wt_instance *inst, wt_ascent_job *job,
                               wt_search_ctl *ctl, const wt_cuda_ascent_tuning *tuning,
                               wt_error *err);

#ifdef __cplusplus
}
#endif

#endif
