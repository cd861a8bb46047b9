/*
 * batch.h - the inside of wt_solve_batch (batch.c) that tests reach.
 *
 * The public entry points are in warptour.h.  What is here decides, for a
 * batch, how many neighbours and kicks each instance gets and where it
 * runs; batch.c does the rest.
 */
#ifndef WT_ALGO_BATCH_H
#define WT_ALGO_BATCH_H

#include <stdbool.h>
#include <stdint.h>

#include "warptour.h"

/* Defaults of the experimental fields (warptour.h). */
enum { WT_BATCH_NEIGHBOURS = 8, WT_BATCH_ACCEPT_SLACK = 1000 };

/* Neighbours per city that params ask for (its default resolved). */
int wt_batch_neighbours(const wt_batch_params *p);

/* Kicks instance of n cities gets per params: params->kicks, or 0 (until
 * its time share) under a time limit, else WT_BATCH_DEFAULT_KICKS(n). */
uint64_t wt_batch_kicks(const wt_batch_params *p, int n);

/* wt_solve_batch from given start tours (start[i]: a tour of instance i,
 * read only) instead of greedy ones.  With fixed_ends, each start tour
 * joins its instance's cities 0 and n - 1, and every tour of the search
 * keeps that edge (core/batch_search.h: wt_bs_fixed_at): the windows of a
 * large tour (algo/windows.c), paths whose ends stay in place.  nb, when
 * not NULL, gives each instance's candidate lists instead of its nearest
 * cities: nb[i] holds n rows of wt_batch_neighbours(params) cities of
 * instance i (0 .. n - 1, not the row's own), -1 after a row's last. */
wt_status wt_batch_solve_from(const wt_instance *const *insts, int count,
                              const wt_batch_params *params, const int32_t *const *start,
                              const int32_t *const *nb, bool fixed_ends, wt_batch_result *res,
                              wt_error *err);

#endif
