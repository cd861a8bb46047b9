/*
 * ascent_finish.h - the end of a Held-Karp ascent, one code for every
 * backend's ascent slot: under the best penalties the steps found, the
 * minimum 1-tree of the sparse graph again, the alpha-value of every graph
 * edge, each city's candidates by alpha-nearness (Helsgaun 2000, section
 * 4.1), and the proven bound from the complete graph's minimum 1-tree
 * (core/onetree.h computes the trees and the alpha-values).
 */
#ifndef WT_CORE_ASCENT_FINISH_H
#define WT_CORE_ASCENT_FINISH_H

#include <stdbool.h>
#include <stdint.h>

#include "core/init.h"
#include "core/instance.h"
#include "core/onetree.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Under pi (n penalties), with t scratch allocated for g (wt_onetree_alloc)
 * and up to `threads` threads:
 *   *graph_bound: the 1-tree bound of g under pi, scaled (left as it was
 *                 when stop came first);
 *   candidates:   n rows of k cities, each city's graph neighbours by
 *                 increasing (alpha, c_pi, city), -1 after a row's last;
 *   *lower_bound: the complete graph's 1-tree bound under pi in the
 *                 instance's unit, rounded up; left as it was where there
 *                 is no exact complete-graph tree (or it failed).
 * stop (NULL: never) is polled every few milliseconds; *stopped: it came
 * before the candidates and the bound were complete (they are then not to
 * be used: a stop is the run's end, and the ascent's result is left out
 * whichever of its parts the stop cut, so that a stop inside the ascent
 * ends the run alike on every backend).  Errors: those of wt_onetree_sparse and wt_onetree_alpha,
 * OUT_OF_MEMORY. */
wt_status wt_ascent_finish(const wt_instance *inst, const wt_sgraph *g, const int32_t *pi, int k,
                           int threads, const wt_init_stop *stop, wt_onetree *t,
                           int32_t *candidates, int64_t *graph_bound, int64_t *lower_bound,
                           bool *stopped, wt_error *err);

/* The candidates step of wt_ascent_finish alone (benchmarks time it):
 * from t, the minimum 1-tree of g, and alpha (wt_onetree_alpha of t), the
 * n rows of k cities described above, by up to `threads` threads.  stop
 * and *stopped as above.  Errors: OUT_OF_MEMORY. */
wt_status wt_ascent_finish_lists(const wt_sgraph *g, const wt_onetree *t, const int64_t *alpha,
                                 int k, int threads, const wt_init_stop *stop,
                                 int32_t *candidates, bool *stopped, wt_error *err);

/* The proven bound step of wt_ascent_finish alone (the GPU's finish runs
 * it on a host thread beside its own steps): *lower_bound, the complete
 * graph's 1-tree bound of inst under pi (g seeds its queries; it does not
 * change the result), in the instance's unit, rounded up; left as it was
 * where wt_onetree_complete_supported is false, the bound fails or stop
 * (NULL: never) came first.  Up to `threads` threads.  Returns whether stop
 * came first. */
bool wt_ascent_finish_bound(const wt_instance *inst, const wt_sgraph *g, const int32_t *pi,
                            int threads, const wt_init_stop *stop, int64_t *lower_bound);

#ifdef __cplusplus
}
#endif

#endif
