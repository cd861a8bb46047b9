/*
 * neighbours.c - k nearest cities of every city (neighbours.h).
 */
#include "core/neighbours.h"

#include <omp.h>
#include <stdlib.h>

#include "core/error.h"
#include "core/instance.h"
#include "core/kdtree.h"

/* Whether stop (may be NULL) asks to end now. */
static bool asked(const wt_init_stop *stop)
{
    return stop && stop->should_stop && stop->should_stop(stop->user);
}

/* A matrix: every row scanned, the k least kept by insertion; stop polled
 * every 64 rows. */
static wt_status lists_from_matrix(const wt_instance *inst, int k, const wt_init_stop *stop,
                                   int32_t *nb, bool *stopped, wt_error *err)
{
    int n = inst->n;
    int64_t *best = malloc((size_t)k * sizeof *best);
    if (!best) return wt_fail(err, WT_STATUS_OUT_OF_MEMORY, "out of memory for neighbour lists");
    for (int c = 0; c < n; c++) {
        if (c % 64 == 0 && asked(stop)) {
            *stopped = true;
            break;
        }
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
    bool stopped;
    return wt_neighbour_lists_until(inst, k, threads, NULL, nb, &stopped, err);
}

/* Cities per block of the k-d tree's queries: the unit of work handed to a
 * thread, and how often the calling thread polls the stop. */
enum { NB_BLOCK = 1024 };

wt_status wt_neighbour_lists_until(const wt_instance *inst, int k, int threads,
                                   const wt_init_stop *stop, int32_t *nb, bool *stopped,
                                   wt_error *err)
{
    if (!inst || !nb || !stopped || k < 1 || k >= inst->n)
        return wt_fail(err, WT_STATUS_INVALID_ARGUMENT, "neighbour lists: bad arguments");
    *stopped = false;
    if (inst->type == WT_EXPLICIT) return lists_from_matrix(inst, k, stop, nb, stopped, err);
    if (threads < 1) threads = 1;
    wt_kdtree *tree = NULL;
    wt_status st = wt_kdtree_create_until(inst, NULL, inst->n, threads, stop, &tree, err);
    if (st != WT_OK) return st;
    if (!tree) { /* the stop came during the build */
        *stopped = true;
        return WT_OK;
    }
    double *dist = malloc((size_t)threads * (size_t)k * sizeof *dist);
    if (!dist) {
        wt_kdtree_free(tree);
        return wt_fail(err, WT_STATUS_OUT_OF_MEMORY, "out of memory for neighbour lists");
    }
    /* Each answer depends on its city alone, so any split gives the same
     * lists.  Thread 0 is the calling thread: it alone polls the stop, at
     * each of its blocks, and the others see the flag it raises. */
    int n = inst->n, blocks = (n + NB_BLOCK - 1) / NB_BLOCK, flag = 0;
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1)
    for (int b = 0; b < blocks; b++) {
        if (__atomic_load_n(&flag, __ATOMIC_RELAXED)) continue;
        if (omp_get_thread_num() == 0 && asked(stop)) {
            __atomic_store_n(&flag, 1, __ATOMIC_RELAXED);
            continue;
        }
        double *d = dist + (size_t)omp_get_thread_num() * (size_t)k;
        int end = (b + 1) * NB_BLOCK < n ? (b + 1) * NB_BLOCK : n;
        for (int c = b * NB_BLOCK; c < end; c++) /* finds k: k < n */
            (void)wt_kdtree_knn(tree, c, k, nb + (size_t)c * (size_t)k, d);
    }
    free(dist);
    wt_kdtree_free(tree);
    *stopped = flag != 0;
    return WT_OK;
}
