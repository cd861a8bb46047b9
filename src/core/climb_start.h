/*
 * climb_start.h - the random start tour of climb number r of a multistart run.
 *
 * Random-restart hill climbing (O'Neil & Burtscher 2015) starts every climb
 * from its own random tour.  Each climb's tour is a function of (seed, r)
 * alone, computed the same way on the host and in device code, so the CPU
 * and GPU backends climb from identical tours, any climb can be replayed on
 * its own, and the result does not depend on which thread or block ran it.
 */
#ifndef WT_CORE_CLIMB_START_H
#define WT_CORE_CLIMB_START_H

#include <stddef.h>
#include <stdint.h>

#include "core/rng.h"

/* Seeds rng for climb r of a run seeded with seed. */
static inline WT_HD void wt_climb_rng(wt_rng *rng, uint64_t seed, uint64_t r)
{
    uint64_t st = seed ^ (0x632be59bd9b4e019ULL * (r + 1));
    wt_rng_seed(rng, wt_splitmix64(&st));
}

/* Fills tour[0], tour[stride], ..., tour[(n-1)*stride] with climb r's
 * random permutation (Fisher-Yates).  The stride lets a GPU thread write
 * its tour interleaved with its neighbours'. */
static inline WT_HD void wt_climb_start_tour_strided(uint64_t seed, uint64_t r, int n,
                                                     int32_t *tour, size_t stride)
{
    wt_rng rng;
    wt_climb_rng(&rng, seed, r);
    for (int i = 0; i < n; i++) tour[(size_t)i * stride] = i;
    for (int i = n - 1; i > 0; i--) {
        size_t k = (size_t)wt_rng_below(&rng, (uint64_t)i + 1) * stride;
        int32_t t = tour[(size_t)i * stride];
        tour[(size_t)i * stride] = tour[k];
        tour[k] = t;
    }
}

/* Fills tour[0..n-1] with climb r's random permutation. */
static inline WT_HD void wt_climb_start_tour(uint64_t seed, uint64_t r, int n, int32_t *tour)
{
    wt_climb_start_tour_strided(seed, r, n, tour, 1);
}

#endif
