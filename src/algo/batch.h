/*
 * batch.h - the inside of wt_solve_batch (batch.c) that tests reach.
 *
 * The public entry points are in warptour.h (batch_solve.c).  What is here
 * decides, for a batch, how many neighbours and kicks each instance gets,
 * which search and where it runs; batch.c does the rest, through the
 * backends' batch and windows slots (backend.h) and the host's LK ILS
 * (batch_lk.h).
 */
#ifndef WT_ALGO_BATCH_H
#define WT_ALGO_BATCH_H

#include <stdbool.h>
#include <stdint.h>

#include "algo/devices.h"
#include "algo/policy.h" /* the defaults: WT_BATCH_NEIGHBOURS, ... */
#include "backend/backend.h"
#include "warptour.h"

/* Neighbours per city that params ask for (0: WT_BATCH_NEIGHBOURS). */
int wt_batch_neighbours(const wt_batch_params *p);

/* The 3-opt items' breadth that params ask for (0: none), and into *from
 * the fewest cities of an instance that gets it (by default
 * WT_BATCH_THREE_OPT from WT_BATCH_THREE_OPT_FROM cities). */
int wt_batch_three_opt(const wt_batch_params *p, int *from);

/* Whether an instance of n cities gets candidates by alpha-nearness
 * (params.candidates; AUTO: from WT_BATCH_ALPHA_FROM cities, never for
 * the paths of a search with fixed ends, the windows of algo/windows.c,
 * which hand their own lists or take the nearest). */
bool wt_batch_alpha(const wt_batch_params *p, int n, bool fixed_ends);

/* The candidate lists instance inst of a batch with parameters p gets
 * (not a window's), into nb: n rows of wt_batch_neighbours(p) cities, -1
 * after a row's last, as the batch's search takes them.  One thread, no
 * stop.  For tests. */
wt_status wt_batch_lists(const wt_instance *inst, const wt_batch_params *p, int32_t *nb,
                         wt_error *err);

/* The host's LK ILS (wt_batch_params.search; batch_lk.h) under auto: for
 * instances of this many cities or more (fewer take no kick), */
#define WT_BATCH_LK_FROM 8
/* whose share of the time limit gives them at least this many of the
 * host's core-seconds a city: time limit x threads / instances >= n x
 * this.  On the CPU it ended closer to the optimum than the batch search
 * at every share measured, down to this one, at 30, 100 and 1,000 cities
 * (bench/RESULTS.md, "Batches: the host's LK ILS"); without a time limit
 * the batch search stays, whose kicks give the same tours on the CPU and
 * the GPU. */
#define WT_BATCH_LK_CORE_S_PER_CITY 1e-5

/* Whether instance of n cities of a batch of count instances, searched on
 * `threads` host threads, gets the host's LK ILS (params.search; AUTO:
 * from WT_BATCH_LK_FROM cities under a time limit whose share gives each
 * instance WT_BATCH_LK_CORE_S_PER_CITY core-seconds a city; never for the
 * paths of a search with fixed ends, the windows of algo/windows.c). */
bool wt_batch_lk(const wt_batch_params *p, int n, int count, int threads, bool fixed_ends);

/* Kicks instance of n cities gets per params: params->kicks, or 0 (until
 * its time share) under a time limit, else WT_BATCH_DEFAULT_KICKS(n). */
uint64_t wt_batch_kicks(const wt_batch_params *p, int n);

/* A job's search settings from p (k, breadth, breadth_from, kick_edges,
 * window, slack, accept_equal, seed, threads, part_bytes) and its counters;
 * the rest zero: the batch's own jobs, and the resident windows' rounds
 * (algo/windows.c), which must search as the windows slot does. */
wt_batch_job wt_batch_settings(const wt_batch_params *p, wt_batch_counters *counters);

/* Checks every field of p against warptour.h (WT_STATUS_INVALID_ARGUMENT,
 * the message naming the field). */
wt_status wt_batch_params_check(const wt_batch_params *p, wt_error *err);

/* The host's LK ILS's runner (batch_lk.h: wt_batch_lk_run). */
typedef wt_status (*wt_batch_lk_fn)(const wt_batch_job *job, wt_search_ctl *ctl, wt_error *err);

/* What wt_batch_solve_from is given besides the instances. */
typedef struct wt_batch_from {
    const int32_t *const *start; /* optional: start[i], a tour of instance i
                                    (read only), instead of a greedy one */
    const int32_t *const *nb;    /* optional: each instance's candidate lists
                                    instead of its nearest cities: nb[i] holds
                                    n rows of wt_batch_neighbours(params)
                                    cities of instance i (not the row's own),
                                    -1 after a row's last */
    bool fixed_ends;             /* each start tour joins its instance's
                                    cities 0 and n - 1, and every tour of the
                                    search keeps that edge (batch_search.h:
                                    wt_bs_fixed_at): the windows of a large
                                    tour (algo/windows.c), paths whose ends
                                    stay in place; run by the backends'
                                    windows slot */
    const uint64_t *index;       /* optional: index[i], instance i's number in
                                    a larger batch of which these are a part
                                    (its random stream (seed, index[i])), so
                                    that the part gets the tours the whole
                                    would (mpi/: one rank's share); NULL: i */
    const wt_device_set *devices; /* optional: the devices to search on (with the
                                    host for what fits none of them), chosen and
                                    checked by the caller (algo/devices.h); NULL:
                                    params.backend, params.cuda_device and
                                    params.devices choose */
    wt_batch_lk_fn lk;           /* optional: the host's LK ILS (wt_batch_lk_run),
                                    for the instances wt_batch_lk gives it; NULL:
                                    the batch search for every instance.  A
                                    pointer, so that batch.c, which the LK ILS's
                                    window searches call (algo/windows.c), does
                                    not call it back */
} wt_batch_from;

/* wt_solve_batch from what `from` gives. */
wt_status wt_batch_solve_from(const wt_instance *const *insts, int count,
                              const wt_batch_params *params, const wt_batch_from *from,
                              wt_batch_result *res, wt_error *err);

/* The same with each instance's outcome in t (count entries, zeroed or
 * failed already: wt_batch_tour_fail), which res takes on success (else
 * the caller frees it); params checked by the caller.  from may be NULL. */
wt_status wt_batch_solve_tours(const wt_instance *const *insts, int count,
                               const wt_batch_params *params, const wt_batch_from *from,
                               wt_batch_tour *t, wt_batch_result *res, wt_error *err);

/* Records in t why instance i (inst: NULL where there is none) has no
 * tour. */
void wt_batch_tour_fail(wt_batch_tour *t, int i, const wt_instance *inst, wt_status st,
                        const char *why);

#endif
