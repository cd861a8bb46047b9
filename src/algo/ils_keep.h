/*
 * ils_keep.h - what a host ILS keeps from one wt_solve to the next on the
 * same instance, so that a search in epochs (MPI islands, src/mpi) sets up
 * once: the candidate lists, and the tour the last search ended on.
 *
 * Every epoch of an island is a wt_solve from a new start tour (the
 * islands' merged best).  Without a keep each builds its candidate lists
 * again and descends from every city of a start tour that is a local
 * optimum but where the merge and the kick changed it: at 200,000 cities
 * on the development VM about 0.9 s of lists and 0.8 s of descent an
 * epoch (bench/RESULTS.md, "MPI islands' epochs").  With a keep
 * (wt_solve_kept), the engines take the lists the first search built
 * (the same lists: the same moves), and a search whose start tour follows
 * a finished search descends first from the cities whose tour neighbours
 * differ from the last tour's alone (their don't-look bits reset, as
 * after a kick), without the long edges' pass that the first search made.
 *
 * Only ILS with LK or local descents on the host's engines uses it
 * (ils_local.c), on whole tours without fixed edges; other searches
 * ignore it.  One keep serves one instance and one search at a time.
 */
#ifndef WT_ALGO_ILS_KEEP_H
#define WT_ALGO_ILS_KEEP_H

#include <stdbool.h>
#include <stdint.h>

#include "warptour.h"

typedef struct wt_ils_keep wt_ils_keep;

/* An empty keep for tours of n >= 1 cities; WT_STATUS_OUT_OF_MEMORY. */
wt_status wt_ils_keep_open(int n, wt_ils_keep **out, wt_error *err);
void wt_ils_keep_free(wt_ils_keep *k); /* NULL is a no-op */

/* wt_solve with k (NULL: plain wt_solve) keeping the set-up across calls
 * on inst (of k's n cities, else WT_STATUS_INVALID_ARGUMENT): the same
 * checks, result and errors.  Each call's params may
 * differ in seed, kicks, time limit, start tour and progress; the lists
 * are kept only while the candidates asked for stay the same. */
wt_status wt_solve_kept(const wt_instance *inst, const wt_params *params, wt_ils_keep *k,
                        wt_result *res, wt_error *err);

/* ---- for solve.c and ils_local.c */

/* The cities of k's tours. */
int wt_ils_keep_n(const wt_ils_keep *k);

/* The lists kept for engines of lk (or 2-opt) moves of `candidates` a
 * city (n rows of that width), or NULL where none are kept for those. */
const int32_t *wt_ils_keep_lists(const wt_ils_keep *k, bool lk, int candidates);
/* Keeps the lists nb (n rows of width, as an engine of those moves holds
 * them), unless a stop left them empty (row 0's first entry -1). */
void wt_ils_keep_set_lists(wt_ils_keep *k, bool lk, int candidates, const int32_t *nb,
                           int width);
/* The cities of tour whose two neighbours differ from those in the last
 * tour kept, into cities (room for n); their count, or -1 where no last
 * tour is kept. */
int wt_ils_keep_changed(const wt_ils_keep *k, const int32_t *tour, int32_t *cities);
/* Keeps tour as the last one, where done (its search's descents ended);
 * else forgets the last tour. */
void wt_ils_keep_set_last(wt_ils_keep *k, const int32_t *tour, bool done);

#endif
