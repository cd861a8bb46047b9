/*
 * batch_run.h - what the batch and window slots of a backend (backend.h;
 * CPU: backend/cpu/cpu_batch.c, GPU: backend/cuda/batch.cu) are given and
 * give back.
 *
 * algo/batch.c prepares every instance (start tour, neighbour lists), then
 * hands a job to the chosen device's backend, and the instances that do
 * not fit that device to the host's; each runs the search of
 * core/batch_search.h on the instances it is given and writes their best
 * tours in place.  The two take the same steps, so an instance's tour does
 * not depend on which ran it (but for GEO, whose device cosines may differ
 * from the host's in the last bit).
 */
#ifndef WT_BACKEND_BATCH_RUN_H
#define WT_BACKEND_BATCH_RUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/search_ctl.h"
#include "warptour.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Counters both implementations add to while they run; read by the thread
 * that reports progress (relaxed atomics). */
typedef struct wt_batch_counters {
    uint64_t done;  /* instances finished */
    uint64_t kicks; /* kicks made, all instances */
    double gpu_s;   /* seconds the GPU's kernels ran (CUDA events) */
} wt_batch_counters;

/* The instances of a job and the settings of their search. */
typedef struct wt_batch_job {
    int count;                      /* entries below */
    const wt_instance *const *inst; /* NULL: not to be solved (failed before) */
    int32_t *const *tour;           /* in: the start tour; out: the best tour */
    const int32_t *const *nb;       /* each city's k nearest cities (n * k) */
    const uint64_t *index;          /* each instance's number in the batch: its
                                       random stream */
    const uint64_t *budget;         /* each instance's kicks; 0: until its time
                                       share of ctl's deadline ends */
    const uint64_t *rank;           /* each instance's place among the job's
                                       instances (0 .. ranked - 1): time shares */
    int64_t *length;                /* in: -1; out: exact length of each tour
                                       whose first descent ended; -1 stays
                                       where a stop came before that (the
                                       tour as far as the descent went) or
                                       before the instance began (its start
                                       tour) */
    uint64_t *kicks;                /* out: kicks made on each */
    int k;                          /* neighbours per city, >= 1 (< n) */
    int breadth;                    /* 3-opt items' breadth (wt_bs_lists), 0 .. k, */
    int breadth_from;               /* for instances of this many cities or more
                                       (wt_bs_breadth_of) */
    int window;                     /* kick window, >= 3 */
    int kick_edges;                 /* edges a kick changes: 3 or 4 (wt_bs_kick);
                                       0: by the breadth (wt_bs_kick_edges_of) */
    int slack;                      /* acceptance slack (wt_bs_accept_slack), >= 0 */
    bool accept_equal;              /* keep kicked tours of equal length */
    uint64_t seed;
    uint64_t ranked;                /* instances this job solves */
    wt_batch_counters *counters;
    int threads;                    /* a device's threads an instance; 0: by n
                                       (the host ignores it) */
    size_t part_bytes;              /* the most device memory a part of the job
                                       takes; 0: free memory decides (the host
                                       ignores it) */
} wt_batch_job;

/* A round of windows of one large tour for a backend's resident windows
 * (backend.h, windows_open): the windows that algo/windows.c would cut into
 * instances for the windows slot, searched as that slot searches them (the
 * same tours for the same job), with no instance made on the host: the
 * device holds the large instance and its candidate lists, and makes each
 * window's coordinates, lists (the entries of its cities' rows that lie in
 * the window, the first settings->k of each, -1 after them) and start tour
 * (0 .. m - 1) itself from the tour. */
typedef struct wt_windows_job {
    const wt_batch_job *settings; /* k, breadth, breadth_from, window, kick_edges,
                                     slack, accept_equal, seed, threads and
                                     counters; its instances unused */
    int offset;                   /* the round's first position in the tour */
    int count;                    /* windows searched, >= 1 */
    const int *start;             /* count: each window's first position counted
                                     from offset, ascending, the windows disjoint */
    const int *size;              /* count: each window's cities, >= 3 */
    int replicas;                 /* searches a window, >= 1: search i * replicas + r
                                     (its rank among the job's) */
    uint64_t index_from;          /* window i's number in the whole round is
                                     index_from + i: its searches' random streams
                                     are (index_from + i) * replicas + r */
    uint64_t budget;              /* kicks a search; 0: time shares of ctl's
                                     deadline (wt_batch_time_share) */
} wt_windows_job;

/* What a round of resident windows did. */
typedef struct wt_windows_tally {
    int improved;   /* windows whose path got shorter */
    int64_t gain;   /* exact: the tour's length before minus after */
    uint64_t kicks; /* all searches */
    double gpu_s;   /* seconds its kernels ran */
} wt_windows_tally;

/* A backend's resident windows (backend.h), opaque. */
typedef struct wt_windows_resident wt_windows_resident;

/* The deadline of an instance's search under a time limit: instances share
 * the time left evenly.  An instance started at `now` with `remaining`
 * instances not yet started (itself included) and `slots` searches running
 * side by side gets the time left over the rounds of slots still to run. */
static inline double wt_batch_time_share(double now, double deadline, uint64_t remaining,
                                         uint64_t slots)
{
    uint64_t rounds = (remaining + slots - 1) / slots;
    return now + (deadline - now) / (double)(rounds ? rounds : 1);
}

#ifdef __cplusplus
}
#endif
#endif
