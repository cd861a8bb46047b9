/*
 * instance_subset.c - the instance of some of an instance's cities
 * (instance_subset.h).
 *
 * Built from the internal representation rather than through
 * wt_instance_from_coords, so that every type keeps its exact distances:
 * the _REAL types' scaled points, GEO's radians and EXPLICIT matrices are
 * copied as they are held, never converted back and forth.
 */
#include "core/instance_subset.h"

#include <stdlib.h>

#include "core/instance_build.h"

/* Cities from which a copy's coordinates are gathered on all cores. */
enum { PICK_THREADS_FROM = 1 << 20 };

/* Copies the m entries of from at cities into a new array; NULL when out of
 * memory. */
static double *pick(const double *from, const int32_t *cities, int m)
{
    double *to = malloc((size_t)m * sizeof *to);
    if (!to) return NULL;
    /* All of a large instance's cities (a renumbering, algo/solve.c): a
     * cache miss each, on all cores. */
#pragma omp parallel for schedule(static) if (m >= PICK_THREADS_FROM)
    for (int i = 0; i < m; i++) to[i] = from[cities[i]];
    return to;
}

/* The m x m matrix of inst's entries between cities; NULL when out of memory. */
static int32_t *pick_matrix(const wt_instance *inst, const int32_t *cities, int m)
{
    size_t mm = (size_t)m, n = (size_t)inst->n;
    int32_t *to = malloc(mm * mm * sizeof *to);
    for (size_t i = 0; to && i < mm; i++)
        for (size_t j = 0; j < mm; j++)
            to[i * mm + j] = inst->matrix[(size_t)cities[i] * n + (size_t)cities[j]];
    return to;
}

wt_instance *wt_instance_subset(const wt_instance *inst, const char *name,
                                const int32_t *cities, int m)
{
    wt_instance *s = wt_instance_alloc(name, m, inst->type);
    if (!s) return NULL;
    s->real = inst->real;
    s->unit_exp = inst->unit_exp;
    bool ok = true;
    if (inst->x && inst->y) {
        ok = (s->x = pick(inst->x, cities, m)) && (s->y = pick(inst->y, cities, m));
        if (ok && inst->z) ok = (s->z = pick(inst->z, cities, m)) != NULL;
    }
    if (ok && inst->lat)
        ok = (s->lat = pick(inst->lat, cities, m)) && (s->lon = pick(inst->lon, cities, m));
    if (ok && inst->matrix) ok = (s->matrix = pick_matrix(inst, cities, m)) != NULL;
    if (!ok) {
        wt_instance_free(s);
        return NULL;
    }
    return s;
}
