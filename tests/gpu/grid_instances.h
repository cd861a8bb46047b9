/*
 * grid_instances.h - instances that test the GPU's grid searches
 * (cuda_grid.cuh: the candidate lists and the complete graph's bound)
 * where a grid is hardest: ties everywhere, real-valued points in a thin
 * box far from the origin, and cities piled on a few points.
 */
#ifndef WT_TESTS_GPU_GRID_INSTANCES_H
#define WT_TESTS_GPU_GRID_INSTANCES_H

#include "test_util.h"

/* n cities of type at x[i], y[i] (n entries each, freed here). */
static inline wt_instance *grid_test_points(const char *name, int n, wt_edge_weight_type type, double *x,
                                     double *y)
{
    wt_instance *inst = NULL;
    wt_error err = {0};
    if (wt_instance_from_coords(name, n, type, x, y, NULL, &inst, &err) != WT_OK)
        fail_msg("%s: %s", name, err.message);
    free(x);
    return inst;
}

/* n points of type on a 1,000 x 1,000 lattice: lengths tie everywhere,
 * some points repeat. */
static inline wt_instance *grid_test_lattice(wt_edge_weight_type type, int n, uint64_t seed)
{
    double *x = malloc(2 * (size_t)n * sizeof *x);
    wt_rng rng;
    wt_rng_seed(&rng, seed);
    for (int i = 0; i < n; i++) {
        x[i] = (double)wt_rng_below(&rng, 1000);
        x[n + i] = (double)wt_rng_below(&rng, 1000);
    }
    return grid_test_points("lattice", n, type, x, x + n);
}

/* n real-valued points (EUC_2D_REAL) in a box of 3.7 x 0.9 at y = -12.25. */
static inline wt_instance *grid_test_real(int n, uint64_t seed)
{
    double *x = malloc(2 * (size_t)n * sizeof *x);
    wt_rng rng;
    wt_rng_seed(&rng, seed);
    for (int i = 0; i < n; i++) {
        x[i] = wt_rng_uniform(&rng) * 3.7;
        x[n + i] = wt_rng_uniform(&rng) * 0.9 - 12.25;
    }
    return grid_test_points("real", n, WT_EUC_2D_REAL, x, x + n);
}

/* n cities (EUC_2D) on the four corners of a square of side 1,000: a
 * grid cell far fuller than the slots take. */
static inline wt_instance *grid_test_four_points(int n)
{
    double *x = malloc(2 * (size_t)n * sizeof *x);
    for (int i = 0; i < n; i++) {
        x[i] = (double)(i % 2) * 1000.0;
        x[n + i] = (double)(i / 2 % 2) * 1000.0;
    }
    return grid_test_points("four", n, WT_EUC_2D, x, x + n);
}

#endif
