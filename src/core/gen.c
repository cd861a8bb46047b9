/*
 * gen.c - random EUC_2D instances in the style of the DIMACS TSP Challenge
 * generators, reproducible from a seed.
 *
 *  uniform    (portgen)  n integer points uniform in [0, 1e6)^2.
 *  clustered  (portcgen) max(1, n/10) centres uniform in [0, 1e6)^2; each
 *             city picks a centre uniformly and is displaced by a normal
 *             offset of standard deviation 1e6/sqrt(n) on each axis, rounded
 *             to the nearest integer.  Cities may fall outside the square.
 *
 * The random numbers come from wt_rng (xoshiro256**) seeded with the seed,
 * not from the DIMACS generators' own RNG, so the instances follow the same
 * distributions but are not the DIMACS files.  Normal deviates use the
 * Box-Muller transform; its libm calls (log, sqrt, cos, sin) could round
 * differently on another C library, so clustered instances are reproducible
 * on one platform, uniform ones everywhere.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/error.h"
#include "core/instance_build.h"
#include "core/rng.h"

#define GEN_SIDE 1000000 /* coordinates are integers in [0, GEN_SIDE) */

static void generate_uniform(int n, wt_rng *rng, double *x, double *y)
{
    for (int i = 0; i < n; i++) {
        x[i] = (double)wt_rng_below(rng, GEN_SIDE);
        y[i] = (double)wt_rng_below(rng, GEN_SIDE);
    }
}

/* Two independent standard normal deviates (Box-Muller). */
static void normal_pair(wt_rng *rng, double *a, double *b)
{
    double u1 = 1.0 - wt_rng_uniform(rng); /* (0, 1]: log stays finite */
    double u2 = wt_rng_uniform(rng);
    double r = sqrt(-2.0 * log(u1));
    double t = 2.0 * 3.14159265358979323846 * u2;
    *a = r * cos(t);
    *b = r * sin(t);
}

/* centre_x/centre_y: scratch for the cluster centres. */
static void generate_clustered(int n, wt_rng *rng, double *centre_x, double *centre_y,
                               double *x, double *y)
{
    int n_centres = n / 10 > 1 ? n / 10 : 1;
    generate_uniform(n_centres, rng, centre_x, centre_y);
    double sigma = GEN_SIDE / sqrt((double)n);
    for (int i = 0; i < n; i++) {
        int c = (int)wt_rng_below(rng, (uint64_t)n_centres);
        double dx, dy;
        normal_pair(rng, &dx, &dy);
        x[i] = floor(centre_x[c] + sigma * dx + 0.5);
        y[i] = floor(centre_y[c] + sigma * dy + 0.5);
    }
}

/* Replaces the instance's (empty) comment with one saying how it was made. */
static bool set_comment(wt_instance *inst, wt_gen_kind kind, int n, uint64_t seed)
{
    char buf[256];
    if (kind == WT_GEN_UNIFORM)
        snprintf(buf, sizeof buf,
                 "%d integer points uniform in [0,%d)^2 (like DIMACS portgen), "
                 "wt_rng seed %llu", n, GEN_SIDE, (unsigned long long)seed);
    else
        snprintf(buf, sizeof buf,
                 "%d points in %d normal clusters, sigma %d/sqrt(n), centres uniform in "
                 "[0,%d)^2 (like DIMACS portcgen), wt_rng seed %llu",
                 n, n / 10 > 1 ? n / 10 : 1, GEN_SIDE, GEN_SIDE, (unsigned long long)seed);
    char *copy = wt_strdup(buf);
    if (!copy) return false;
    free(inst->comment);
    inst->comment = copy;
    return true;
}

/* Draws the points into x, y (cx, cy: scratch for cluster centres) and
 * builds the named instance from them. */
static wt_status build_instance(wt_gen_kind kind, int n, uint64_t seed, double *x, double *y,
                                double *cx, double *cy, wt_instance **out, wt_error *err)
{
    wt_rng rng;
    wt_rng_seed(&rng, seed);
    if (kind == WT_GEN_UNIFORM)
        generate_uniform(n, &rng, x, y);
    else
        generate_clustered(n, &rng, cx, cy, x, y);
    char name[96];
    snprintf(name, sizeof name, "%s-%d-s%llu", kind == WT_GEN_UNIFORM ? "uniform" : "clustered",
             n, (unsigned long long)seed);
    wt_instance *inst = NULL;
    wt_status st = wt_instance_from_coords(name, n, WT_EUC_2D, x, y, NULL, &inst, err);
    if (st != WT_OK) return st;
    if (!set_comment(inst, kind, n, seed)) {
        wt_instance_free(inst);
        return wt_fail(err, WT_STATUS_OUT_OF_MEMORY, "out of memory generating %d cities", n);
    }
    *out = inst;
    return WT_OK;
}

wt_status wt_instance_generate(wt_gen_kind kind, int n, uint64_t seed, wt_instance **out,
                               wt_error *err)
{
    if (!out || (kind != WT_GEN_UNIFORM && kind != WT_GEN_CLUSTERED))
        return wt_fail(err, WT_STATUS_INVALID_ARGUMENT,
                       "wt_instance_generate: unknown kind or NULL output");
    if (n < 3 || n > WT_MAX_CITIES)
        return wt_fail(err, WT_STATUS_INVALID_ARGUMENT,
                       "wt_instance_generate: n = %d is outside 3..%d", n, WT_MAX_CITIES);
    size_t n_centres = kind == WT_GEN_CLUSTERED && n / 10 > 1 ? (size_t)(n / 10) : 1;
    double *x = malloc((size_t)n * sizeof *x);
    double *y = malloc((size_t)n * sizeof *y);
    double *cx = malloc(n_centres * sizeof *cx);
    double *cy = malloc(n_centres * sizeof *cy);
    wt_status st;
    if (x && y && cx && cy)
        st = build_instance(kind, n, seed, x, y, cx, cy, out, err);
    else
        st = wt_fail(err, WT_STATUS_OUT_OF_MEMORY, "out of memory generating %d cities", n);
    free(x);
    free(y);
    free(cx);
    free(cy);
    return st;
}
