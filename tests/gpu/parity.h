/*
 * parity.h - how the GPU tests compare a backend with the CPU oracle
 * (ggml's test-backend-ops compares every backend against the CPU the same
 * way): a result is finished, its tour valid and its length the exact one
 * recomputed on the host; a descent's tour is 2-optimal by the exact
 * deltas, to a tolerance where float is not exact; two results are the
 * same run (the same tour city for city, the same length, the counters
 * asked for); and test instances of a metric whose distances float
 * computes exactly.  test_gpu_parity.c's table runs every (backend x
 * algorithm x metric) case through these; the other test_gpu_*.c files
 * use them for their own cases.
 */
#ifndef WT_TESTS_GPU_PARITY_H
#define WT_TESTS_GPU_PARITY_H

#include <inttypes.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "backend/cpu/cpu_2opt.h" /* wt_2opt_move_delta: the exact deltas */
#include "test_util.h"

/* splitmix64: the tests' own stream, independent of the library's. */
static inline uint64_t parity_rng_next(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* n cities of metric type at integer coordinates below span (grid: a unit
 * grid, many equal deltas).  With span <= 400 float computes every
 * EUC_2D and CEIL_2D distance and delta exactly, so GPU and CPU must agree
 * move for move. */
static inline wt_instance *parity_instance(wt_edge_weight_type type, int n, uint64_t seed,
                                           int span, bool grid)
{
    double *x = malloc((size_t)n * sizeof *x), *y = malloc((size_t)n * sizeof *y);
    assert_non_null(x);
    assert_non_null(y);
    uint64_t s = seed * 7919 + (uint64_t)n;
    int w = 1;
    while (w * w < n) w++;
    for (int i = 0; i < n; i++) {
        x[i] = grid ? i % w : (double)(parity_rng_next(&s) % (uint64_t)span);
        y[i] = grid ? i / w : (double)(parity_rng_next(&s) % (uint64_t)span);
    }
    char name[64];
    snprintf(name, sizeof name, "%s%d-%d", grid ? "grid" : "uniform", grid ? w : span, n);
    wt_instance *inst = NULL;
    wt_error err = {0};
    if (wt_instance_from_coords(name, n, type, x, y, NULL, &inst, &err) != WT_OK)
        fail_msg("from_coords: %s", err.message);
    free(x);
    free(y);
    return inst;
}

/* "[3 1 4 ...]": the first cities of a tour, for failure messages. */
static inline const char *parity_tour_head(const int32_t *t, int n, char *buf, size_t size)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < n && i < 12 && used < size; i++)
        used += (size_t)snprintf(buf + used, size - used, "%s%d", i ? " " : "[", t[i]);
    if (used < size) snprintf(buf + used, size - used, "%s", n > 12 ? " ...]" : "]");
    return buf;
}

/* Whether two tours are the same cycle (same edges), written differently. */
static inline bool parity_same_cycle(const int32_t *a, const int32_t *b, int n)
{
    int32_t *next = malloc(2 * (size_t)n * sizeof *next);
    assert_non_null(next);
    for (int i = 0; i < n; i++) { /* both neighbours of each city in a */
        next[2 * a[i]] = a[(i + 1) % n];
        next[2 * a[(i + 1) % n] + 1] = a[i];
    }
    bool same = true;
    for (int i = 0; i < n && same; i++) {
        int u = b[i], v = b[(i + 1) % n];
        same = next[2 * u] == v || next[2 * u + 1] == v;
    }
    free(next);
    return same;
}

/* A result's own consistency: the search finished (WT_STOP_DONE), its tour
 * is a valid tour of inst and its exact length, recomputed here, is the
 * one reported. */
static inline void parity_check_result(const wt_instance *inst, const wt_result *r,
                                       const char *what)
{
    int n = wt_instance_n(inst);
    wt_error err = {0};
    if (r->stop != WT_STOP_DONE)
        fail_msg("%s on %s: the %s search did not finish: stopped by the %s after %.1f s, "
                 "%" PRIu64 " improving moves", what, wt_instance_name(inst), r->backend,
                 wt_stop_reason_name(r->stop), r->search_time_s, r->steps);
    if (r->n != n || wt_tour_validate(r->tour, n, &err) != WT_OK)
        fail_msg("%s on %s: the %s tour is invalid: %s", what, wt_instance_name(inst),
                 r->backend, err.message);
    int64_t len = wt_tour_length(inst, r->tour);
    if (r->length != len)
        fail_msg("%s on %s: %s reported length %" PRId64 " but the tour is %" PRId64 " long",
                 what, wt_instance_name(inst), r->backend, r->length, len);
}

/* Most negative exact 2-opt delta over the whole pair space (0 when the
 * tour is 2-optimal). */
static inline int64_t parity_min_exact_delta(const wt_instance *inst, const int32_t *t)
{
    int n = wt_instance_n(inst);
    int64_t best = 0;
#pragma omp parallel for reduction(min : best) schedule(dynamic, 16)
    for (int i = 0; i < n - 2; i++)
        for (int j = i + 2; j < n; j++) {
            int64_t d = wt_2opt_move_delta(inst, t, i, j);
            if (d < best) best = d;
        }
    return best;
}

/* No exact improving 2-opt move longer than tol remains (tol > 0 where the
 * backend's float arithmetic is not exact: docs/precision.md). */
static inline void parity_check_locally_optimal(const wt_instance *inst, const int32_t *tour,
                                                int64_t tol, const char *what)
{
    int64_t d = parity_min_exact_delta(inst, tour);
    if (d < -tol)
        fail_msg("%s on %s: an exact improving move of %" PRId64 " remains (tolerance %" PRId64
                 ")", what, wt_instance_name(inst), d, tol);
}

/* The same tour city for city and the same length; says where they part
 * and whether they are the same cycle written differently. */
static inline void parity_check_same_tour(const wt_instance *inst, const int32_t *a,
                                          int64_t a_len, const int32_t *b, int64_t b_len,
                                          const char *what)
{
    int n = wt_instance_n(inst), first = -1;
    for (int i = 0; i < n && first < 0; i++)
        if (a[i] != b[i]) first = i;
    if (first < 0 && a_len == b_len) return;
    char ha[160], hb[160];
    fail_msg("%s on %s: lengths %" PRId64 " %s and %" PRId64 " %s; tours first differ at "
             "position %d (%s)", what, wt_instance_name(inst), a_len,
             parity_tour_head(a, n, ha, sizeof ha), b_len, parity_tour_head(b, n, hb, sizeof hb),
             first, first < 0 ? "equal tours"
                    : parity_same_cycle(a, b, n) ? "the same cycle written differently"
                                                 : "different cycles");
}

/* The counters of wt_result that parity_check_same compares, by bit. */
enum {
    PARITY_STEPS = 1u << 0,   /* steps: improving moves applied */
    PARITY_PASSES = 1u << 1,  /* passes: 2-opt scans */
    PARITY_MOVES = 1u << 2,   /* moves_evaluated */
    PARITY_CLIMB = 1u << 3,   /* best_climb (multistart) */
    PARITY_KICKS = 1u << 4,   /* kicks and kicks_accepted (ils) */
    PARITY_SA = 1u << 5       /* iterations and accepted (sa) */
};

/* Two results are the same run: the same tour and length, and equal
 * counters of mask (PARITY_*). */
static inline void parity_check_same(const wt_instance *inst, const wt_result *a,
                                     const wt_result *b, unsigned mask, const char *what)
{
    parity_check_same_tour(inst, a->tour, a->length, b->tour, b->length, what);
    static const struct {
        unsigned bit;
        const char *name;
        size_t at;
    } counters[] = {
        {PARITY_STEPS, "steps", offsetof(wt_result, steps)},
        {PARITY_PASSES, "passes", offsetof(wt_result, scan.passes)},
        {PARITY_MOVES, "moves_evaluated", offsetof(wt_result, moves_evaluated)},
        {PARITY_CLIMB, "best_climb", offsetof(wt_result, multistart.best_climb)},
        {PARITY_KICKS, "kicks", offsetof(wt_result, ils.kicks)},
        {PARITY_KICKS, "kicks_accepted", offsetof(wt_result, ils.kicks_accepted)},
        {PARITY_SA, "iterations", offsetof(wt_result, sa.iterations)},
        {PARITY_SA, "accepted", offsetof(wt_result, sa.accepted)},
    };
    for (size_t k = 0; k < sizeof counters / sizeof counters[0]; k++) {
        if (!(mask & counters[k].bit)) continue;
        uint64_t x = *(const uint64_t *)((const char *)a + counters[k].at);
        uint64_t y = *(const uint64_t *)((const char *)b + counters[k].at);
        if (x != y)
            fail_msg("%s on %s: the same tour, but %s %" PRIu64 " (%s) and %" PRIu64 " (%s)",
                     what, wt_instance_name(inst), counters[k].name, x, a->backend, y,
                     b->backend);
    }
}

#endif
