/*
 * instance_matrix.c - instances from distance matrices: the fixed point
 * that holds a matrix's entries (instance.h), and wt_instance_from_matrix
 * and wt_instance_from_asymmetric_matrix, whose asymmetric instances get
 * their symmetric 2n-city form from atsp.c.
 */
#include <limits.h>
#include <math.h>
#include <stdlib.h>

#include "core/error.h"
#include "core/instance.h"
#include "core/instance_build.h"

/* The exponent k that holds the entries of d as multiples of 2^-k
 * (instance.h): the largest entry off the diagonal, times n when
 * asymmetric, is the quantity kept in range. */
int wt_matrix_unit_exp(int n, const double *d, bool asymmetric)
{
    double max = 0.0;
    bool integral = true;
    size_t un = (size_t)n;
    for (size_t i = 0; i < un; i++)
        for (size_t j = 0; j < un; j++) {
            double v = d[i * un + j];
            if (i == j) continue;
            if (v > max) max = v;
            if (integral && v != floor(v)) integral = false;
        }
    if (!asymmetric && max > (double)INT32_MAX) return INT_MIN; /* too large either way */
    double top = asymmetric ? max * (double)n : max;
    if ((integral && top < (double)INT32_MAX) || max == 0.0) return 0;
    int e;
    frexp(top, &e); /* 2^(e-1) <= top < 2^e: top * 2^(30-e) < 2^30 */
    return 30 - e;
}

wt_status wt_instance_set_matrix(wt_instance *inst, const double *d, bool asymmetric,
                                 wt_error *err)
{
    int n = inst->n;
    size_t un = (size_t)n;
    int k = wt_matrix_unit_exp(n, d, asymmetric);
    if (k == INT_MIN)
        return wt_fail(err, WT_STATUS_TOO_LARGE, "matrix entries above %d are not supported",
                       INT32_MAX);
    free(inst->matrix);
    inst->matrix = malloc(un * un * sizeof(int32_t));
    if (!inst->matrix)
        return wt_fail(err, WT_STATUS_OUT_OF_MEMORY, "out of memory for a %d x %d matrix", n, n);
    inst->unit_exp = k;
    for (size_t i = 0; i < un; i++)
        for (size_t j = 0; j < un; j++)
            inst->matrix[i * un + j] =
                i == j ? 0 : (int32_t)nearbyint(ldexp(d[i * un + j], k));
    return WT_OK;
}

/* wt_instance_from_matrix and wt_instance_from_asymmetric_matrix. */
static wt_status from_matrix(const char *fn, const char *name, int n, const double *d,
                             bool asymmetric, wt_instance **out, wt_error *err)
{
    int most = asymmetric ? WT_MAX_EXPLICIT_CITIES / 2 : WT_MAX_EXPLICIT_CITIES;
    if (!out || !d || n < 3 || n > most)
        return wt_fail(err, WT_STATUS_INVALID_ARGUMENT,
                       "%s: need an n x n matrix, 3 <= n <= %d", fn, most);
    size_t un = (size_t)n;
    for (size_t i = 0; i < un; i++)
        for (size_t j = 0; j < un; j++) {
            double v = d[i * un + j];
            if (i == j) continue; /* the diagonal is ignored */
            if (!isfinite(v) || v < 0.0)
                return wt_fail(err, WT_STATUS_INVALID_ARGUMENT,
                               "%s: entry [%zu][%zu] = %g is not a finite distance >= 0", fn,
                               i, j, v);
            if (!asymmetric && j < i && v != d[j * un + i])
                return wt_fail(err, WT_STATUS_INVALID_ARGUMENT,
                               "%s: not symmetric: [%zu][%zu] = %.17g but [%zu][%zu] = %.17g "
                               "(wt_instance_from_asymmetric_matrix takes asymmetric costs)",
                               fn, i, j, v, j, i, d[j * un + i]);
        }
    wt_instance *inst = wt_instance_alloc(name, n, WT_EXPLICIT);
    if (!inst) return wt_fail(err, WT_STATUS_OUT_OF_MEMORY, "out of memory");
    wt_error why = {0};
    wt_status st = wt_instance_set_matrix(inst, d, asymmetric, &why);
    if (st == WT_OK) st = wt_instance_finish(inst, &why);
    if (st == WT_OK && asymmetric) st = wt_atsp_attach(inst, &why);
    if (st != WT_OK) {
        wt_fail(err, st, "%s: %s: %s", fn, inst->name, why.message);
        wt_instance_free(inst);
        return st;
    }
    *out = inst;
    return WT_OK;
}

wt_status wt_instance_from_matrix(const char *name, int n, const double *d, wt_instance **out,
                                  wt_error *err)
{
    return from_matrix("wt_instance_from_matrix", name, n, d, false, out, err);
}

wt_status wt_instance_from_asymmetric_matrix(const char *name, int n, const double *d,
                                             wt_instance **out, wt_error *err)
{
    return from_matrix("wt_instance_from_asymmetric_matrix", name, n, d, true, out, err);
}
