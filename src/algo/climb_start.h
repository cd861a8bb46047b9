/*
 * climb_start.h - the random start tour of climb number r of a multistart run.
 *
 * Random-restart hill climbing (O'Neil & Burtscher 2015) starts every climb
 * from its own random tour.  Each climb's tour is a function of (seed, r)
 * alone, computed the same way on the host and in device code, so the CPU
 * and GPU backends climb from identical tours, any climb can be replayed on
 * its own, and the result does not depend on which thread or block ran it.
 */
#ifndef WT_ALGO_CLIMB_START_H
#define WT_ALGO_CLIMB_START_H

#include <stdint.h>

#include "core/rng.h"

/* Seeds rng for climb r of a run seeded with seed. */
static inline WT_HD void wt_climb_rng(wt_rng *rng, uint64_t seed, uint64_t r)
{
    uint64_t st = seed ^ (0x632be59bd9b4e019ULL * (r + 1));
    wt_rng_seed(rng, wt_splitmix64(&st));
}

/* Fills tour[0..n-1] with climb r's random permutation (Fisher-Yates). */
static inline WT_HD void wt_climb_start_tour(uint64_t seed, uint64_t r, int n, int32_t *tour)
{
    wt_rng rng;
    wt_climb_rng(&rng, seed, r);
    for (int i = 0; i < n; i++) tour[i] = i;
    for (int i = n - 1; i > 0; i--) {
        int k = (int)wt_rng_below(&rng, (uint64_t)i + 1);
        int32_t t = tour[i];
        tour[i] = tour[k];
        tour[k] = t;
    }
}

#endif
