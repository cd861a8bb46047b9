/*
 * mpi_path_instance.c - the instance of one path of a large tour
 * (mpi_path_instance.h).
 *
 * Built from the internal representation rather than through
 * wt_instance_from_coords, so that every type keeps its exact distances:
 * the _REAL types' scaled points, GEO's radians and EXPLICIT matrices are
 * copied as they are held, never converted back and forth.  (The window
 * searches of algo/windows.c build their instances the same way.)
 */
#include "mpi/mpi_path_instance.h"

#include <stdlib.h>

#include "core/instance_build.h"

/* Copies the m entries of from at cities into a new array; NULL when out of
 * memory. */
static double *pick(const double *from, const int32_t *cities, int m)
{
    double *to = malloc((size_t)m * sizeof *to);
    for (int i = 0; to && i < m; i++) to[i] = from[cities[i]];
    return to;
}

wt_instance *wt_mpi_path_instance(const wt_instance *inst, const int32_t *cities, int m)
{
    wt_instance *p = wt_instance_alloc("part", m, inst->type);
    if (!p) return NULL;
    p->real = inst->real;
    p->unit_exp = inst->unit_exp;
    bool ok = true;
    if (inst->x && inst->y) {
        ok = (p->x = pick(inst->x, cities, m)) && (p->y = pick(inst->y, cities, m));
        if (ok && inst->z) ok = (p->z = pick(inst->z, cities, m)) != NULL;
    }
    if (ok && inst->lat) ok = (p->lat = pick(inst->lat, cities, m)) &&
                              (p->lon = pick(inst->lon, cities, m));
    if (ok && inst->matrix) {
        size_t mm = (size_t)m, n = (size_t)inst->n;
        p->matrix = malloc(mm * mm * sizeof *p->matrix);
        ok = p->matrix != NULL;
        for (size_t i = 0; ok && i < mm; i++)
            for (size_t j = 0; j < mm; j++)
                p->matrix[i * mm + j] = inst->matrix[(size_t)cities[i] * n + (size_t)cities[j]];
    }
    if (!ok) {
        wt_instance_free(p);
        return NULL;
    }
    return p;
}
