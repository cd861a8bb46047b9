/*
 * ascent_finish.c - the candidates and the proven bound under an ascent's
 * best penalties (ascent_finish.h).
 */
#include "core/ascent_finish.h"

#include <omp.h>
#include <stdlib.h>

#include "core/error.h"

enum { LIST_BLOCK = 4096 }; /* cities between two polls of the stop */

static bool asked_stop(const wt_init_stop *stop)
{
    return stop && stop->should_stop && stop->should_stop(stop->user);
}

/* Each city's graph neighbours by (alpha, c_pi, city), the first k, by
 * insertion into the sorted row; keys: 2 k entries a thread. */
static void list_rows(const wt_sgraph *g, const wt_onetree *t, const int64_t *alpha,
                            int k, int threads, const wt_init_stop *stop, int64_t *keys,
                            int32_t *out, bool *stopped)
{
    int n = g->n;
    for (int base = 0; base < n; base += LIST_BLOCK) {
        int end = base + LIST_BLOCK < n ? base + LIST_BLOCK : n;
#pragma omp parallel num_threads(threads) if (end - base > 512)
        {
            int64_t *ra = keys + 2 * (size_t)k * (size_t)omp_get_thread_num(), *rc = ra + k;
#pragma omp for schedule(static)
            for (int i = base; i < end; i++) {
                int32_t *row = out + (size_t)i * (size_t)k;
                int found = 0;
                for (int64_t x = g->off[i]; x < g->off[i + 1]; x++) {
                    int64_t e = g->adj_edge[x], a = alpha[e], c = t->key[e];
                    int32_t j = g->adj_city[x];
                    int at = found;
                    while (at > 0 && (ra[at - 1] > a ||
                                      (ra[at - 1] == a &&
                                       (rc[at - 1] > c || (rc[at - 1] == c && row[at - 1] > j)))))
                        at--;
                    if (at >= k) continue;
                    int last = found < k ? found : k - 1;
                    for (int p = last; p > at; p--) {
                        row[p] = row[p - 1];
                        ra[p] = ra[p - 1];
                        rc[p] = rc[p - 1];
                    }
                    row[at] = j;
                    ra[at] = a;
                    rc[at] = c;
                    if (found < k) found++;
                }
                for (int p = found; p < k; p++) row[p] = -1;
            }
        }
        if (asked_stop(stop)) {
            *stopped = true;
            return;
        }
    }
}

wt_status wt_ascent_finish_lists(const wt_sgraph *g, const wt_onetree *t, const int64_t *alpha,
                                 int k, int threads, const wt_init_stop *stop,
                                 int32_t *candidates, bool *stopped, wt_error *err)
{
    *stopped = false;
    if (threads < 1) threads = 1;
    int64_t *keys = malloc(2 * (size_t)k * (size_t)threads * sizeof *keys);
    if (!keys)
        return wt_fail(err, WT_STATUS_OUT_OF_MEMORY,
                       "out of memory for the candidates of an ascent of %d cities", g->n);
    list_rows(g, t, alpha, k, threads, stop, keys, candidates, stopped);
    free(keys);
    return WT_OK;
}

static int64_t ceil_div(int64_t a, int64_t b)
{
    return a >= 0 ? (a + b - 1) / b : -((-a) / b);
}

/* The proven bound: the complete graph's 1-tree under the same pi; a
 * failure (a length int64 cannot sum) leaves it unknown, not an error. */
bool wt_ascent_finish_bound(const wt_instance *inst, const wt_sgraph *g, const int32_t *pi,
                            int threads, const wt_init_stop *stop, int64_t *lower_bound)
{
    if (!wt_onetree_complete_supported(inst)) return false;
    int64_t bound = 0;
    bool cut = false;
    wt_error ignored;
    if (wt_onetree_complete_bound(inst, pi, g, threads < 1 ? 1 : threads, stop, &bound, &cut,
                                  &ignored) == WT_OK &&
        !cut)
        *lower_bound = ceil_div(bound, WT_ONETREE_SCALE);
    return cut;
}

wt_status wt_ascent_finish(const wt_instance *inst, const wt_sgraph *g, const int32_t *pi, int k,
                           int threads, const wt_init_stop *stop, wt_onetree *t,
                           int32_t *candidates, int64_t *graph_bound, int64_t *lower_bound,
                           bool *stopped, wt_error *err)
{
    *stopped = false;
    if (threads < 1) threads = 1;
    int64_t *alpha = malloc((size_t)(g->m > 0 ? g->m : 1) * sizeof *alpha);
    wt_status st = WT_OK;
    if (!alpha) {
        st = wt_fail(err, WT_STATUS_OUT_OF_MEMORY,
                     "out of memory for the candidates of an ascent of %d cities", g->n);
        goto out;
    }
    st = wt_onetree_sparse(g, pi, threads, stop, t, stopped, err);
    if (st != WT_OK || *stopped) goto out;
    *graph_bound = t->bound;
    st = wt_onetree_alpha(g, t, threads, stop, alpha, stopped, err);
    if (st != WT_OK || *stopped) goto out;
    st = wt_ascent_finish_lists(g, t, alpha, k, threads, stop, candidates, stopped, err);
    if (st != WT_OK || *stopped) goto out;

    *stopped = wt_ascent_finish_bound(inst, g, pi, threads, stop, lower_bound);
out:
    free(alpha);
    return st;
}
