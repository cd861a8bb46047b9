/*
 * batch_solve.c - wt_solve_batch() and wt_solve_batch_points(), the public
 * entries of a batch (batch.c), with the host's LK ILS (batch_lk.c) for the
 * instances wt_batch_lk gives it.
 *
 * They live apart from batch.c because the LK ILS is wt_solve, whose
 * searches cut large tours into windows that batch.c solves
 * (algo/windows.c): batch.c reaches the LK ILS only through the pointer
 * these entries hand it (wt_batch_from.lk), so no file calls back into
 * itself.
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#include "algo/batch.h"
#include "algo/batch_lk.h"
#include "core/error.h"
#include "core/instance.h"

wt_status wt_solve_batch(const wt_instance *const *insts, int count,
                         const wt_batch_params *params, wt_batch_result *res, wt_error *err)
{
    if (!insts || !params || !res || count < 1)
        return wt_fail(err, WT_STATUS_INVALID_ARGUMENT, "wt_solve_batch: need instances "
                       "(count >= 1), parameters and a result");
    wt_status st = wt_batch_params_check(params, err);
    if (st != WT_OK) return st;
    wt_batch_tour *t = calloc((size_t)count, sizeof *t);
    if (!t) return wt_fail(err, WT_STATUS_OUT_OF_MEMORY, "out of memory for a batch of %d", count);
    wt_batch_from from = {.lk = wt_batch_lk_run};
    st = wt_batch_solve_tours(insts, count, params, &from, t, res, err);
    if (st != WT_OK) free(t);
    return st;
}

/* Instance i of a points batch, or its failure in t. */
static wt_instance *points_instance(const double *xy, int i, int n, wt_edge_weight_type type,
                                    double *x, wt_batch_tour *t)
{
    const double *pt = xy + (size_t)i * (size_t)n * 2;
    for (int c = 0; c < n; c++) {
        x[c] = pt[2 * c];
        x[n + c] = pt[2 * c + 1];
    }
    char name[32];
    snprintf(name, sizeof name, "points%d", i);
    wt_instance *inst = NULL;
    wt_error e = {0};
    wt_status st = wt_instance_from_coords(name, n, type, x, x + n, NULL, &inst, &e);
    if (st != WT_OK) wt_batch_tour_fail(t, i, NULL, st, e.message);
    return inst;
}

wt_status wt_solve_batch_points(const double *xy, int count, int n, wt_edge_weight_type type,
                                const wt_batch_params *params, wt_batch_result *res,
                                wt_error *err)
{
    if (!xy || !params || !res || count < 1)
        return wt_fail(err, WT_STATUS_INVALID_ARGUMENT, "wt_solve_batch_points: need points "
                       "(count >= 1), parameters and a result");
    if (n < 3 || n > WT_BATCH_MAX_CITIES)
        return wt_fail(err, WT_STATUS_INVALID_ARGUMENT, "wt_solve_batch_points: n is %d; "
                       "expected 3..%d", n, WT_BATCH_MAX_CITIES);
    if (type != WT_EUC_2D && type != WT_EUC_2D_REAL && type != WT_HAVERSINE)
        return wt_fail(err, WT_STATUS_INVALID_ARGUMENT, "wt_solve_batch_points: type must be "
                       "WT_EUC_2D, WT_EUC_2D_REAL or WT_HAVERSINE");
    wt_status st = wt_batch_params_check(params, err);
    if (st != WT_OK) return st;
    wt_batch_tour *t = calloc((size_t)count, sizeof *t);
    wt_instance **insts = calloc((size_t)count, sizeof *insts);
    int threads = params->threads > 0 ? params->threads : omp_get_num_procs();
    bool oom = !t || !insts;
#pragma omp parallel num_threads(threads) if (!oom)
    {
        double *x = malloc(2 * (size_t)n * sizeof *x);
#pragma omp for schedule(dynamic, 16)
        for (int i = 0; i < count; i++) {
            if (x) insts[i] = points_instance(xy, i, n, type, x, &t[i]);
            else wt_batch_tour_fail(&t[i], i, NULL, WT_STATUS_OUT_OF_MEMORY, "out of memory");
        }
        free(x);
    }
    wt_batch_from from = {.lk = wt_batch_lk_run};
    st = oom ? wt_fail(err, WT_STATUS_OUT_OF_MEMORY, "out of memory for a batch of %d", count)
             : wt_batch_solve_tours((const wt_instance *const *)insts, count, params, &from, t,
                                    res, err);
    for (int i = 0; insts && i < count; i++) wt_instance_free(insts[i]);
    free(insts);
    if (st != WT_OK) free(t);
    return st;
}
