/*
 * tour_changes.h - whether new neighbours for some cities of a tour keep it
 * one cycle, in time that grows with the changed cities, not the tour.
 *
 * A tour's cities get new neighbours in sets, one after another (the
 * changes of merged replicas of the tour, merged into it:
 * algo/ils_merged.c): each set is tried against the tour with every set
 * accepted so far, and accepted when all of them together still make one
 * cycle through every city.
 * Between the changed cities, in the tour's order, lie paths of unchanged
 * cities, which keep their neighbours: so the new cycle is followed from
 * changed city to changed city, a path at a time, after sorting the changed
 * cities by their places in the tour.  A walk of the whole tour costs n
 * steps (tens of milliseconds at a million cities) for every set tried.
 */
#ifndef WT_CORE_TOUR_CHANGES_H
#define WT_CORE_TOUR_CHANGES_H

#include <stdbool.h>
#include <stdint.h>

typedef struct wt_tour_changes wt_tour_changes;

/* For tours of n >= 3 cities; NULL when out of memory. */
wt_tour_changes *wt_tour_changes_open(int n);
void wt_tour_changes_close(wt_tour_changes *c);

/* Starts from tour (n cities in order, valid), with no change accepted;
 * `threads` for the pass over the tour. */
void wt_tour_changes_begin(wt_tour_changes *c, const int32_t *tour, int threads);

/* The m cities of `cities` (distinct, none in an accepted set) get the
 * neighbours adj holds for them (adj: 2 n entries, each city's two
 * neighbours, as wt_tour_neighbours writes; the accepted sets' cities hold
 * theirs, every other city its neighbours in the tour): returns whether
 * that is one cycle through all cities, every neighbour pair seen from both
 * ends, and if so accepts the set. */
bool wt_tour_changes_try(wt_tour_changes *c, const int32_t *adj, const int32_t *cities, int m);

#endif
