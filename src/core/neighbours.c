/*
 * neighbours.c - k nearest cities of every city (neighbours.h).
 */
#include "core/neighbours.h"

#include <omp.h>
#include <stdlib.h>

#include "core/error.h"
#include "core/instance.h"
#include "core/kdtree.h"

/* A matrix: every row scanned, the k least kept by insertion. */
static wt_status lists_from_matrix(const wt_instance *inst, int k, int32_t *nb, wt_error *err)
{
    int n = inst->n;
    int64_t *best = malloc((size_t)k * sizeof *best);
    if (!best) return wt_fail(err, WT_STATUS_OUT_OF_MEMORY, "out of memory for neighbour lists");
    for (int c = 0; c < n; c++) {
        int32_t *row = nb + (size_t)c * (size_t)k;
        int m = 0;
        for (int d = 0; d < n; d++) {
            if (d == c) continue;
            int64_t dd = wt_dist(inst, c, d);
            if (m == k && dd >= best[k - 1]) continue;
            int x = m < k ? m++ : k - 1;
            for (; x > 0 && best[x - 1] > dd; x--) {
                best[x] = best[x - 1];
                row[x] = row[x - 1];
            }
            best[x] = dd;
            row[x] = d;
        }
    }
    free(best);
    return WT_OK;
}

wt_status wt_neighbour_lists(const wt_instance *inst, int k, int32_t *nb, wt_error *err)
{
    return wt_neighbour_lists_threads(inst, k, 1, nb, err);
}

wt_status wt_neighbour_lists_threads(const wt_instance *inst, int k, int threads, int32_t *nb,
                                     wt_error *err)
{
    if (!inst || !nb || k < 1 || k >= inst->n)
        return wt_fail(err, WT_STATUS_INVALID_ARGUMENT, "neighbour lists: bad arguments");
    if (inst->type == WT_EXPLICIT) return lists_from_matrix(inst, k, nb, err);
    if (threads < 1) threads = 1;
    wt_kdtree *tree = NULL;
    wt_status st = wt_kdtree_create_threads(inst, NULL, inst->n, threads, &tree, err);
    if (st != WT_OK) return st;
    double *dist = malloc((size_t)threads * (size_t)k * sizeof *dist);
    if (!dist) {
        wt_kdtree_free(tree);
        return wt_fail(err, WT_STATUS_OUT_OF_MEMORY, "out of memory for neighbour lists");
    }
    /* Each answer depends on its city alone, so any split gives the same lists. */
#pragma omp parallel for num_threads(threads) schedule(static, 4096)
    for (int c = 0; c < inst->n; c++) /* finds k: k < n */
        (void)wt_kdtree_knn(tree, c, k, nb + (size_t)c * (size_t)k,
                            dist + (size_t)omp_get_thread_num() * (size_t)k);
    free(dist);
    wt_kdtree_free(tree);
    return WT_OK;
}
