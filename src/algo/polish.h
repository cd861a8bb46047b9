/*
 * polish.h - a final local search of a finished tour: 2-opt and Or-opt
 * descent to a local optimum of both neighbourhoods.
 *
 * Simulated annealing stops at a low temperature, not at a local optimum of
 * anything: its relocation moves never reverse a segment, so its best tour
 * usually still holds improving 2-opt moves and segment moves.  The polish
 * removes them (wt_solve applies it to sa's result, params.sa_polish).
 *
 * The neighbourhoods, on a tour of n >= 3 cities:
 *  - 2-opt: remove two non-adjacent edges (a b) and (c d), reconnect as
 *    (a c) (b d), i.e. reverse the path b..c;
 *  - Or-opt: take out a segment of 1 to WT_POLISH_OR_MAX consecutive cities
 *    (at most n - 2), close the gap, and insert it, in either orientation,
 *    into an edge of the tour both of whose ends lie outside the segment.
 * Every delta is the exact integer change of the tour length (wt_dist), and
 * only strictly improving moves are applied, so the tour never gets longer
 * and the descent ends.
 *
 * Method (polish.c): first a neighbour-list descent (the K nearest cities of
 * each, don't-look bits), which finds most improving moves in about O(n K)
 * work per round; then, for n <= WT_POLISH_FULL_MAX, sweeps of the full
 * neighbourhoods (O(n^2) distances each) alternate until one 2-opt sweep
 * and the Or-opt sweep after it both find nothing: the tour is then a local
 * optimum of both neighbourhoods exactly.  Measured on one core of the
 * development machine from greedy tours: pcb442 5 ms, pr2392 0.2 s,
 * fnl4461 0.6 s.  Above WT_POLISH_FULL_MAX cities only the neighbour-list
 * descent runs (usa13509: 0.02 s, where the full sweeps would take 8 s):
 * its result is locally optimal only for the moves that join a city to one
 * of its K nearest with a gain, which leaves some long-edge moves undone.
 *
 * Deterministic: the same tour and instance give the same result.  Uses no
 * global state; distinct tours may be polished from distinct threads.
 */
#ifndef WT_ALGO_POLISH_H
#define WT_ALGO_POLISH_H

#include <stdbool.h>
#include <stdint.h>

#include "core/search_ctl.h"
#include "warptour.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Longest segment an Or-opt move relocates. */
#define WT_POLISH_OR_MAX 3
/* Largest n whose polish ends with full-neighbourhood sweeps. */
#define WT_POLISH_FULL_MAX 5000
/* Candidate neighbours per city in the neighbour-list descent. */
#define WT_POLISH_NEIGHBOURS 10

/* Breadth levels of an LK step: alternatives tried at its first levels. */
#define WT_LK_LEVELS 3

/* The moves of a polisher's neighbour-list descent. */
typedef struct wt_polish_moves {
    bool lk;         /* Lin-Kernighan steps (lk.c) and Or-opt; false: 2-opt and
                        Or-opt (the polish's own) */
    int candidates;  /* candidate cities a city (neighbour lists), >= 1 */
    bool quadrant;   /* lk: quadrant neighbours where coordinates are planar */
    int depth;       /* lk: most flips (levels) of one step, >= 1 */
    int breadth[WT_LK_LEVELS]; /* lk: alternatives tried at levels 1..3 (>= 1);
                                  one at every deeper level */
    bool alternate;  /* lk: Lin & Kernighan's alternate step (a sequential 3-opt
                        move) where the standard step finds nothing, at any level */
} wt_polish_moves;

/* The polish's moves (lk false) or the LK defaults (lk true). */
wt_polish_moves wt_polish_moves_default(bool lk);

typedef struct wt_polish_stats {
    uint64_t moves_2opt;   /* improving 2-opt moves applied */
    uint64_t moves_oropt;  /* improving Or-opt moves applied */
    uint64_t moves_lk;     /* improving LK steps applied (moves.lk) */
    bool full;             /* the full-neighbourhood sweeps ran (n <= WT_POLISH_FULL_MAX) */
    bool complete;         /* the descent ended at a local optimum, not stopped by ctl */
} wt_polish_stats;

/* Improves tour (n = wt_instance_n(inst) cities, a valid tour) in place by
 * the descent above.  ctl may be NULL; otherwise the descent polls
 * wt_ctl_expired(ctl) (deadline, stop flag) and, once it has expired, stops
 * with the tour as it is: valid, and never longer than at entry.  stats may
 * be NULL.  Errors: WT_STATUS_INVALID_ARGUMENT (NULL inst or tour),
 * WT_STATUS_OUT_OF_MEMORY (the tour is then untouched). */
wt_status wt_polish(const wt_instance *inst, int32_t *tour, wt_search_ctl *ctl,
                    wt_polish_stats *stats, wt_error *err);

/* ------------------------------------------------ a polisher for ILS
 * The neighbour-list descent of wt_polish (phase 1), kept running over a
 * tour of its own for Iterated Local Search with local kicks (ils_local.c):
 * a double bridge queues the six cities it reconnects, a descent runs the
 * queue empty (the don't-look bits of every other city stay set), so a kick
 * and its repair cost about the moves made, not O(n).  Every change since
 * the last commit is logged as reversals, so undo restores the tour of the
 * commit exactly, in about the time the changes took.  The length is exact
 * throughout (each move's delta is the integer wt_dist change).  n >= 4. */
typedef struct wt_polisher wt_polisher;

/* A polisher of tour making the moves of *moves (NULL: 2-opt and Or-opt
 * to the 10 nearest cities); clones and path polishers made from it make
 * the same. */
wt_status wt_polisher_create(const wt_instance *inst, const int32_t *tour, wt_search_ctl *ctl,
                             const wt_polish_moves *moves, wt_polisher **out, wt_error *err);
/* A second polisher on the same tour, for a search in another thread: its
 * own tour, queue and log; the neighbour lists (read only) are proto's, so
 * proto must be freed last.  Not for path polishers. */
wt_status wt_polisher_clone(const wt_polisher *proto, wt_polisher **out, wt_error *err);
/* Path polishers, for searches on disjoint stretches of one tour at once
 * (ils_local.c): a polisher of no tour yet, with room for paths of up to
 * cap cities (4 <= cap <= n), whose neighbour lists come from proto's (a
 * polisher of a whole tour, which must outlive it).  Not for EXPLICIT
 * instances (a path keeps copies of its cities' coordinates). */
wt_status wt_polisher_create_paths(const wt_polisher *proto, int cap, wt_polisher **out,
                                   wt_error *err);
/* Takes up the path of the m cities tour[start], tour[start + 1], ...
 * (cyclically in tour's n positions; 4 <= m <= cap) and commits it; where
 * is tour's inverse (where[tour[x]] = x).  The path's closing edge, from
 * its last city back to its first, stays: no move or kick removes it, so
 * the path's ends stay in place and it can go back into the same positions
 * of tour (wt_polisher_store_path) whatever the other stretches did
 * meanwhile.  Moves reach only the path's cities (a neighbour off the path
 * is dropped from the lists).  The length is the closed path's, closing
 * edge included.  wt_polisher_tour then gives the path in the path's own
 * numbering (city i is tour[start + i] at adoption), and kicks take
 * positions in it (0 < p1 < p2 < p3 < m). */
void wt_polisher_adopt_path(wt_polisher *w, const int32_t *tour, const int32_t *where, int n,
                            int start, int m);
/* Writes the path, in the instance's numbering, back into the positions of
 * tour (n cities) it was taken from. */
void wt_polisher_store_path(const wt_polisher *w, int32_t *tour, int n);
/* Replaces the tour by tour (of that exact length) and commits it (not for
 * path polishers). */
void wt_polisher_adopt(wt_polisher *w, const int32_t *tour, int64_t length);
void wt_polisher_free(wt_polisher *w); /* NULL is a no-op */
/* The tour (of a path polisher: the path, in its own numbering). */
const int32_t *wt_polisher_tour(const wt_polisher *w);
int64_t wt_polisher_length(const wt_polisher *w);
/* The moves its descents make. */
const wt_polish_moves *wt_polisher_moves(const wt_polisher *w);
/* Sets the LK step's breadth (moves.breadth, values >= 1) for the
 * descents from now on; clones and path polishers made later take it. */
void wt_polisher_set_breadth(wt_polisher *w, const int breadth[WT_LK_LEVELS]);
/* Its candidate lists: *k cities a city (in a path polisher's numbering;
 * -1 ends a shorter list). */
const int32_t *wt_polisher_candidates(const wt_polisher *w, int *k);
/* Queues every city (the first descent). */
void wt_polisher_touch_all(wt_polisher *w);
/* Runs the queue empty, adding the moves applied to *moves (may be NULL);
 * stops early once ctl expires.  WT_STATUS_OUT_OF_MEMORY when the log could
 * not grow (undo is then no longer exact). */
wt_status wt_polisher_descend(wt_polisher *w, uint64_t *moves, wt_error *err);
/* The same on a whole tour held as a two-level list while it runs, so that
 * LK's flips cost O(sqrt n) instead of up to n / 2 (core/tour_list.h):
 * for descents from many cities of a large tour.  Or-opt moves and LK's
 * alternate step are not made; the descent is committed (undo cannot take
 * it back); with report, it reports its progress through ctl (the solving
 * thread only: other threads' descents only poll it for the stop).  A path
 * polisher descends as wt_polisher_descend.  Also WT_STATUS_OUT_OF_MEMORY
 * for the list. */
wt_status wt_polisher_descend_listed(wt_polisher *w, bool report, uint64_t *moves,
                                     wt_error *err);
/* The whole tour held as a two-level list from wt_polisher_list_open to
 * wt_polisher_list_close, for kicks on a large tour (ILS): descents, walk
 * kicks (wt_polisher_walk_kick), commit and undo then work on the list in
 * O(sqrt n) a flip, without Or-opt moves or LK's alternate step;
 * wt_polisher_tour is stale until the close writes the list back, and the
 * other calls (adopt, double_bridge, long_edges) are not for this time.
 * Open commits the tour, and so does close.  Not for path polishers
 * (WT_STATUS_INVALID_ARGUMENT), and WT_STATUS_OUT_OF_MEMORY. */
wt_status wt_polisher_list_open(wt_polisher *w, wt_error *err);
void wt_polisher_list_close(wt_polisher *w); /* no list: a no-op */
/* The tour as it is now, from the list while one is open (starting at
 * some city, in either direction), into out[0..n-1]. */
void wt_polisher_walk(const wt_polisher *w, int32_t *out);
/* 2-opt moves over all pairs of edges that remove one of the `count`
 * longest edges of the tour, the best for each in turn, until none is
 * left (on `threads` threads; planar instances only, not paths).  The neighbour-list
 * descents never add an edge longer than their lists reach, and a start
 * tour's longest edges (a greedy tour's last joins) are often replaced
 * only by other long ones: on pla7397 LK from the greedy tour left one edge
 * of 481,241, 2% of the tour.  Queues the cities whose edges changed (a
 * descent should follow); returns the gain.  Stops early once ctl expires. */
int64_t wt_polisher_long_edges(wt_polisher *w, int count, int threads);
/* A B C D -> A C B D at positions 0 < p1 < p2 < p3 < n (wt_ils_kick_points:
 * B = p1..p2-1, C = p2..p3-1), queueing the six cities whose edges change. */
void wt_polisher_double_bridge(wt_polisher *w, int p1, int p2, int p3);
/* The double bridge of four cuts, before the positions q[0] < q[1] < q[2]
 * < q[3] (< n): the four segments between them go in reverse order, each
 * kept as it runs (S1 S2 S3 S4 -> S1 S4 S3 S2), which changes four edges
 * in a way no sequential move undoes at once; queues the eight cities whose
 * edges changed.  On a path, q[0] > 0. */
void wt_polisher_double_bridge4(wt_polisher *w, const int q[4]);
/* A double bridge near one place of the plane: its cuts lie before a
 * random city and before the ends of three random walks of `steps` steps
 * from it on the candidate lists (Applegate, Cook & Rohe's random-walk
 * kick), drawn from (seed, kick) alone.  false (nothing done) when no four
 * distinct cuts were found in a few tries, or n < 8. */
bool wt_polisher_walk_kick(wt_polisher *w, uint64_t seed, uint64_t kick, int steps);
/* The same with the random city drawn from cities[0..m-1] (m >= 1): kicks
 * in one part of the tour (ILS's searches on copies of a whole tour). */
bool wt_polisher_walk_kick_among(wt_polisher *w, uint64_t seed, uint64_t kick, int steps,
                                 const int32_t *cities, int m);
/* Forgets the log: the current tour is the one undo returns to. */
void wt_polisher_commit(wt_polisher *w);
/* Back to the tour of the last commit, whose length the caller passes;
 * empties the queue. */
void wt_polisher_undo(wt_polisher *w, int64_t length);

#ifdef __cplusplus
}
#endif
#endif
