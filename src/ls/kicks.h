/*
 * kicks.h - the host's kicks of Iterated Local Search: double bridges,
 * which change four edges in a way that no sequential move undoes at once,
 * placed so that the descent after them repairs one neighbourhood of the
 * tour instead of joining far-apart cities.
 *
 *  - Segment-restricted (wt_ls_kick_points): three cut points within a
 *    window of KICK_WINDOW positions (kicks.c), drawn from (seed, kick
 *    number) alone, so that every backend's tour session makes the same
 *    kicks.  A B C D -> A C B D.
 *  - Random-walk (wt_ls_walk_kick): the cuts lie before a random city and
 *    before the ends of three random walks from it on the candidate lists
 *    (Applegate, Cook & Rohe's kick for chained LK), so they are near in
 *    the plane whatever the tour's order.
 * Each queues the cities whose edges changed, for the descent that follows.
 */
#ifndef WT_LS_KICKS_H
#define WT_LS_KICKS_H

#include <stdbool.h>
#include <stdint.h>

#include "ls/engine.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The double-bridge cut points 0 < p[0] < p[1] < p[2] < n of kick number k
 * of a run seeded with seed; false when n is too small to kick (n < 8). */
bool wt_ls_kick_points(uint64_t seed, uint64_t k, int n, int p[3]);

/* Whether the double bridge at positions p1 < p2 < p3 (array only) cuts
 * none of the tour's fixed edges (wt_ls_tour.fixed). */
bool wt_ls_bridge_keeps_fixed(const wt_ls *e, int p1, int p2, int p3);

/* A B C D -> A C B D at positions 0 < p1 < p2 < p3 < n (wt_ls_kick_points:
 * B = p1..p2-1, C = p2..p3-1), queueing the six cities whose edges change
 * (not while a list is open). */
void wt_ls_double_bridge(wt_ls *e, int p1, int p2, int p3);
/* The double bridge of four cuts, before the positions q[0] < q[1] < q[2]
 * < q[3] (< n): the four segments between them go in reverse order, each
 * kept as it runs (S1 S2 S3 S4 -> S1 S4 S3 S2); queues the eight cities
 * whose edges changed.  On a path, q[0] > 0.  Not while a list is open. */
void wt_ls_double_bridge4(wt_ls *e, const int q[4]);
/* A double bridge near one place of the plane: its cuts lie before a
 * random city and before the ends of three random walks of `steps` steps
 * from it on the candidate lists, drawn from (seed, kick) alone.  false
 * (nothing done) when no four distinct cuts were found in a few tries, or
 * n < 8.  On the array or, while one is open, the list. */
bool wt_ls_walk_kick(wt_ls *e, uint64_t seed, uint64_t kick, int steps);
/* The same with the random city drawn from cities[0..m-1] (m >= 1): kicks
 * in one part of the tour (ILS's merged replicas). */
bool wt_ls_walk_kick_among(wt_ls *e, uint64_t seed, uint64_t kick, int steps,
                           const int32_t *cities, int m);

#ifdef __cplusplus
}
#endif
#endif
