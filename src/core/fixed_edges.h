/*
 * fixed_edges.h - fixed edges (TSPLIB's FIXED_EDGES_SECTION, an open
 * path's closing edge): their check, their adjacency and start tours that
 * hold them.
 */
#ifndef WT_CORE_FIXED_EDGES_H
#define WT_CORE_FIXED_EDGES_H

#include <stddef.h>
#include <stdint.h>

#include "warptour.h"

/* Checks count edges of an n-city instance, edge i from pairs[2i] to
 * pairs[2i + 1] (0-based): both ends in 0..n-1 and distinct, no edge twice,
 * no city in more than two, no cycle but one through all n cities.
 * Returns -1 when they are fine, WT_FIXED_EDGES_NO_MEMORY when the check
 * ran out of memory (nothing is known then), else the index of the first
 * edge found wrong, with why (why_size bytes, may be 0) saying what is
 * wrong. */
#define WT_FIXED_EDGES_NO_MEMORY (-2)
int wt_fixed_edges_check(const int32_t *pairs, int count, int n, char *why, size_t why_size);

/* The adjacency of checked edges: adj[2c], adj[2c + 1] the cities joined to
 * c by fixed edges (-1: none); 2n entries. */
void wt_fixed_adjacency(const int32_t *pairs, int count, int n, int32_t *adj);

/* Whether tour (n cities) holds every edge of adj. */
bool wt_tour_holds_fixed(const int32_t *tour, int n, const int32_t *adj);

/* Makes cities a and b (distinct, of inst's n) neighbours in tour by the
 * cheaper of the two 2-opt moves that join them (reversing the places from
 * b to a's predecessor, or from a's successor to b): the path from a to b
 * round the tour then loses one edge and gains one.  A tour where they are
 * neighbours already is left as it is. */
void wt_tour_make_neighbours(const wt_instance *inst, int32_t *tour, int n, int a, int b);

/* Makes tour hold every edge of adj: the chains of fixed edges go in
 * whole, each where the tour first meets one of its cities, the other
 * cities in the tour's order; a tour that holds them already is only
 * rotated.  scratch: n bytes.  */
void wt_tour_force_fixed(int32_t *tour, int n, const int32_t *adj, int32_t *out,
                         unsigned char *placed);

#endif
