/*
 * tour_ops.h - in-place operations on tours that searches share.
 */
#ifndef WT_CORE_TOUR_OPS_H
#define WT_CORE_TOUR_OPS_H

#include <stdint.h>

/* 2-opt moves one full scan of a tour of n cities evaluates: every pair of
 * non-adjacent edges. */
static inline uint64_t wt_2opt_moves_per_scan(int n)
{
    return (uint64_t)(n - 1) * (uint64_t)(n - 2) / 2;
}

/* Reverses tour[from..to] (inclusive); nothing when from >= to. */
static inline void wt_tour_reverse_segment(int32_t *tour, int from, int to)
{
    for (; from < to; from++, to--) {
        int32_t t = tour[from];
        tour[from] = tour[to];
        tour[to] = t;
    }
}

#endif
