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
    /* Each answer depends on its city alone, so any split and any order
     * give the same lists: the cities in the tree's leaf order, so that a
     * block's queries walk the same few branches (in the instance's order
     * a random layout sends each query to another corner of the tree).
     * Thread 0 is the calling thread: it alone polls the stop, at each of
     * its blocks, and the others see the flag it raises. */
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
        for (int i = b * NB_BLOCK; i < end; i++) { /* finds k: k < n */
            int c = wt_kdtree_city_at(tree, i);
            (void)wt_kdtree_knn(tree, c, k, nb + (size_t)c * (size_t)k, d);
        }
    }
    free(dist);
    wt_kdtree_free(tree);
    *stopped = flag != 0;
    return WT_OK;
}

bool wt_quadrant_planar(const wt_instance *inst)
{
    switch (inst->type) {
    case WT_EUC_2D:
    case WT_CEIL_2D:
    case WT_ATT:
    case WT_MAN_2D:
    case WT_MAX_2D:
        return true;
    default:
        return false;
    }
}

void wt_quadrant_pick(const wt_instance *inst, int c, const int32_t *row, int wide, int k,
                      int32_t *out)
{
    int per = k / 4 > 0 ? k / 4 : 1, in_q[4] = {0, 0, 0, 0}, taken = 0;
    uint8_t chosen[WT_QUADRANT_WIDE_MAX] = {0};
    for (int x = 0; x < wide && taken < k; x++) {
        int d = row[x];
        int q = (inst->x[d] < inst->x[c]) + 2 * (inst->y[d] < inst->y[c]);
        if (in_q[q] < per) {
            in_q[q]++;
            chosen[x] = 1;
            taken++;
        }
    }
    for (int x = 0; x < wide && taken < k; x++)
        if (!chosen[x]) {
            chosen[x] = 1;
            taken++;
        }
    int m = 0;
    for (int x = 0; x < wide && m < k; x++)
        if (chosen[x]) out[m++] = row[x];
    while (m < k) out[m++] = -1;
}

wt_status wt_quadrant_lists_until(const wt_instance *inst, int k, int threads,
                                  const wt_init_stop *stop, int32_t *nb, bool *stopped,
                                  wt_error *err)
{
    if (!inst || !nb || !stopped || k < 1 || k >= inst->n)
        return wt_fail(err, WT_STATUS_INVALID_ARGUMENT, "quadrant lists: bad arguments");
    int n = inst->n, wide = wt_quadrant_wide(n, k);
    if (!wt_quadrant_planar(inst) || wide <= k)
        return wt_neighbour_lists_until(inst, k, threads, stop, nb, stopped, err);
    int32_t *near = malloc((size_t)n * (size_t)wide * sizeof *near);
    if (!near) return wt_fail(err, WT_STATUS_OUT_OF_MEMORY, "out of memory for candidate lists");
    wt_status st = wt_neighbour_lists_until(inst, wide, threads, stop, near, stopped, err);
    if (st == WT_OK && !*stopped) {
#pragma omp parallel for num_threads(threads > 0 ? threads : 1) schedule(static, 4096)
        for (int c = 0; c < n; c++)
            wt_quadrant_pick(inst, c, near + (size_t)c * (size_t)wide, wide, k,
                             nb + (size_t)c * (size_t)k);
    }
    free(near);
    return st;
}
