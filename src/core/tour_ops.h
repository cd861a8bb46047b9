/*
 * tour_ops.h - in-place operations on tours that searches share.
 */
#ifndef WT_CORE_TOUR_OPS_H
#define WT_CORE_TOUR_OPS_H

#include <stdbool.h>
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

/* Each city's two neighbours in tour (n cities) into adj (2 n entries). */
static inline void wt_tour_neighbours(const int32_t *tour, int n, int32_t *adj)
{
    for (int i = 0; i < n; i++) {
        adj[2 * tour[i]] = tour[i == 0 ? n - 1 : i - 1];
        adj[2 * tour[i] + 1] = tour[i == n - 1 ? 0 : i + 1];
    }
}

/* Whether adj (2 n entries, as wt_tour_neighbours writes) is one cycle
 * through all n cities; if so and tour is not NULL, that cycle from city
 * `from` into tour. */
static inline bool wt_tour_of_neighbours(const int32_t *adj, int n, int from, int32_t *tour)
{
    int prev = adj[2 * from], c = from;
    for (int i = 0; i < n; i++) {
        if (i > 0 && c == from) return false;
        if (tour) tour[i] = c;
        int next = adj[2 * c] != prev ? adj[2 * c] : adj[2 * c + 1];
        prev = c;
        c = next;
    }
    return c == from;
}

#endif
