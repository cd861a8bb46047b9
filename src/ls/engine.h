/*
 * engine.h - the local-search engine: a tour of its own (ls/tour.h), its
 * candidate lists, don't-look bits and undo log, running neighbour-list
 * descents of 2-opt and Or-opt moves (twoopt.c, oropt.c) or of
 * Lin-Kernighan steps (lk.c, or kopt.c's of k-opt basic moves), or where reversals cost (moves.directed)
 * of Or-opt moves and direction-keeping exchanges (or3opt.c), and the
 * kicks of ILS (kicks.h).
 *
 * The descent: a FIFO queue of cities whose surroundings changed (the
 * don't-look bits: a city off the queue is not looked at).  For the city
 * taken out, its moves are tried (an LK step, then 2-opt, then Or-opt;
 * directed: Or-opt, then an exchange or a chain of them); the
 * first improving one is applied and the cities whose edges it changed go
 * back into the queue.  A kick queues the cities it reconnects, so a kick
 * and its repair cost about the moves made, not O(n) (Johnson & McGeoch's
 * practice for ILS).  Every change since the last commit is logged, so
 * undo restores the tour of the commit exactly, in about the time the
 * changes took.  The length is exact throughout (each move's delta is the
 * integer wt_dist change).  n >= 4.
 *
 * An engine is used by one thread at a time; clones and segment engines
 * share their proto's candidate lists (read only), so that threads search
 * side by side.
 */
#ifndef WT_LS_ENGINE_H
#define WT_LS_ENGINE_H

#include <stdbool.h>
#include <stdint.h>

#include "core/init.h"
#include "core/search_ctl.h"
#include "warptour.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Longest segment an Or-opt move relocates: part of the neighbourhood's
 * definition (the polish's sweeps keep a distance row for each of its
 * cities). */
#define WT_LS_OR_MAX 3

/* Breadth levels of an LK step: alternatives tried at its first levels.
 * Five, so that the step can search every sequential 5-opt move its
 * candidates reach (Helsgaun 2009's basic move) before it goes on one
 * alternative a level. */
#define WT_LK_LEVELS 5

/* The moves of an engine's descents (algo/policy.h has the defaults). */
typedef struct wt_ls_moves {
    bool lk;         /* Lin-Kernighan steps (lk.c), 2-opt and Or-opt; false:
                        2-opt and Or-opt */
    int candidates;  /* candidate cities a city (neighbour lists), >= 1 */
    bool quadrant;   /* lk: quadrant neighbours where coordinates are planar */
    int depth;       /* lk: most flips (levels) of one step, >= 1 */
    int breadth[WT_LK_LEVELS]; /* lk: alternatives tried at levels 1..5 (>= 1 at
                                  levels 1..3; 0 at levels 4, 5 is one); one at
                                  every deeper level */
    int kopt;        /* lk: 0: the step is the flip chain (lk.c); 3, 4, 5: its
                        basic move is a sequential k-opt move of up to this
                        many edges (kopt.c, LKH's step) */
    int kopt_submoves; /* lk, kopt: non-gaining basic moves a step makes
                          before one that gains, at most (>= 0) */
    bool kopt_lkh_chains; /* lk, kopt: the chain of submoves restricted as LKH's
                        (only each submove's last removed edge must be one
                        the chain neither added nor removed before) instead
                        of as Lin & Kernighan's (no edge the chain added is
                        removed, none it removed added again): longer,
                        slower steps that reach shorter tours (kopt.c) */
    bool nonseq;     /* lk, kopt: where the k-opt step finds nothing from a
                        city, an improving double bridge (a non-sequential
                        4-opt move: two 2-opt halves, each of which alone
                        would split the tour; Helsgaun 2009's
                        non-sequential moves; kopt_nonseq.c), its first
                        added edge from the candidates */
    bool alternate;  /* lk: Lin & Kernighan's alternate step (a sequential 3-opt
                        move) where the standard step finds nothing, at any level */
    bool directed;   /* the descents make direction-keeping exchanges only
                        (or3opt.c: 3-opt moves without reversal and chains of
                        them; whole tours, on the array) instead of LK steps,
                        2-opt and Or-opt: for instances where every reversal
                        costs (wt_instance.directed, core/atsp.c) */
    const int32_t *given; /* NULL: the engine builds its candidate lists (nearest
                             or quadrant neighbours); else n rows of `candidates`
                             cities to use instead (an ascent's alpha-nearness
                             lists), -1 after a shorter row's last, read only:
                             they must outlive the engine and its clones */
    bool given_by_distance; /* given: the rows are each city's nearest (or
                             quadrant) neighbours by increasing distance, as
                             the engine builds them, made elsewhere (a GPU, an
                             earlier search), so that a scan may end at the
                             first candidate too far to gain; false: scanned
                             to the row's end (alpha-nearness lists) */
    const int32_t *pi; /* kopt: NULL, or n node penalties (an ascent's, by the
                          instance's city numbers) under which the k-opt step
                          measures its gains: pi_scale d(a, b) + pi[a] + pi[b]
                          (LKH's pi-transformed distances; a closed move's
                          gain is pi_scale times its gain in d); read only,
                          outliving the engine and its clones */
    int pi_scale;      /* kopt with pi: the distances' factor, >= 1 */
} wt_ls_moves;

typedef struct wt_ls wt_ls;

/* An engine on a copy of tour, making the moves of *moves (not NULL).
 * The candidate lists are built on ctl->threads threads; a stop of ctl
 * while they are built leaves an engine without candidates, whose descents
 * move nothing.  WT_STATUS_INVALID_ARGUMENT (n < 4, bad moves),
 * WT_STATUS_OUT_OF_MEMORY. */
wt_status wt_ls_create(const wt_instance *inst, const int32_t *tour, wt_search_ctl *ctl,
                       const wt_ls_moves *moves, wt_ls **out, wt_error *err);
/* A second engine on the same tour, for a search in another thread: its
 * own tour, queue and log; the candidate lists (read only) are proto's, so
 * proto must be freed last.  Not for segment engines. */
wt_status wt_ls_clone(const wt_ls *proto, wt_ls **out, wt_error *err);
/* Segment engines, for searches on disjoint segments of one tour at once
 * (ILS on segments): an engine of no tour yet, with room for paths of up
 * to cap cities (4 <= cap <= n), whose candidate lists come from proto's
 * (an engine of a whole tour, which must outlive it).  Not for EXPLICIT
 * instances (a path keeps copies of its cities' coordinates). */
wt_status wt_ls_create_paths(const wt_ls *proto, int cap, wt_ls **out, wt_error *err);
/* Takes up the path of the m cities tour[start], tour[start + 1], ...
 * (cyclically in tour's n positions; 4 <= m <= cap) and commits it; where
 * is tour's inverse (where[tour[x]] = x).  The path's closing edge, from
 * its last city back to its first, stays: no move or kick removes it, so
 * the path's ends stay in place and it can go back into the same positions
 * of tour (wt_ls_store_path) whatever the other segments did meanwhile.
 * Moves reach only the path's cities (a candidate off the path is dropped
 * from the lists).  The length is the closed path's, closing edge
 * included.  wt_ls_order then gives the path in the path's own numbering
 * (city i is tour[start + i] at adoption), and kicks take positions in it
 * (0 < p1 < p2 < p3 < m). */
void wt_ls_adopt_path(wt_ls *e, const int32_t *tour, const int32_t *where, int n, int start,
                      int m);
/* Writes the path, in the instance's numbering, back into the positions of
 * tour (n cities) it was taken from. */
void wt_ls_store_path(const wt_ls *e, int32_t *tour, int n);
/* Replaces the tour by tour (of that exact length) and commits it (not for
 * segment engines). */
void wt_ls_adopt(wt_ls *e, const int32_t *tour, int64_t length);
void wt_ls_free(wt_ls *e); /* NULL is a no-op */
/* The tour (of a segment engine: the path, in its own numbering); stale
 * while a list is open (wt_ls_walk). */
const int32_t *wt_ls_order(const wt_ls *e);
int64_t wt_ls_length(const wt_ls *e);
/* The moves its descents make. */
const wt_ls_moves *wt_ls_moves_of(const wt_ls *e);
/* The instance its tour is of (a segment engine's: the whole instance). */
const wt_instance *wt_ls_instance(const wt_ls *e);
/* Sets the LK step's breadth (moves.breadth, values >= 1) for the
 * descents from now on; clones and segment engines made later take it. */
void wt_ls_set_breadth(wt_ls *e, const int breadth[WT_LK_LEVELS]);
/* Sets moves.kopt_lkh_chains for the descents from now on; clones and
 * segment engines made later take it. */
void wt_ls_set_kopt_chains(wt_ls *e, bool lkh);
/* Its candidate lists: *k cities a city (in a segment engine's numbering;
 * -1 ends a shorter list). */
const int32_t *wt_ls_candidates(const wt_ls *e, int *k);
/* Queues every city (a first descent). */
void wt_ls_touch_all(wt_ls *e);
/* Queues the count cities given (a descent from where a tour changed). */
void wt_ls_touch(wt_ls *e, const int32_t *cities, int count);
/* Runs the queue empty, adding the moves applied to *moves (may be NULL);
 * stops early once ctl expires.  WT_STATUS_OUT_OF_MEMORY when the log could
 * not grow (undo is then no longer exact). */
wt_status wt_ls_descend(wt_ls *e, uint64_t *moves, wt_error *err);
/* The list descent: the same on a whole tour held as a two-level list while
 * it runs, so that LK's flips cost O(sqrt n) instead of up to n / 2: for
 * descents from many cities of a large tour.  Or-opt moves and LK's
 * alternate step are not made; the descent is committed (undo cannot take
 * it back); with report, it reports its progress through ctl (the solving
 * thread only: other threads' descents only poll it for the stop).  A
 * segment engine descends as wt_ls_descend.  Also WT_STATUS_OUT_OF_MEMORY
 * for the list. */
wt_status wt_ls_descend_list(wt_ls *e, bool report, uint64_t *moves, wt_error *err);
/* The whole tour held as a two-level list from wt_ls_list_open to
 * wt_ls_list_close, for kicks on a large tour (ILS): descents, walk kicks
 * (wt_ls_walk_kick), commit and undo then work on the list in O(sqrt n) a
 * flip, without Or-opt moves or LK's alternate step; wt_ls_order is stale
 * until the close writes the list back, and the other calls (adopt,
 * double_bridge, long_edges) are not for this time.  Open commits the
 * tour, and so does close.  Not for segment engines
 * (WT_STATUS_INVALID_ARGUMENT), and WT_STATUS_OUT_OF_MEMORY. */
wt_status wt_ls_list_open(wt_ls *e, wt_error *err);
void wt_ls_list_close(wt_ls *e); /* no list: a no-op */
/* The tour as it is now, from the list while one is open (starting at
 * some city, in either direction), into out[0..n-1]. */
void wt_ls_walk(const wt_ls *e, int32_t *out);
/* twoopt.c: 2-opt moves over all pairs of edges that remove one of the
 * `count` longest edges of the tour, the best for each in turn, until none
 * is left (on `threads` threads; planar instances only, not paths).  The
 * neighbour-list descents never add an edge longer than their lists reach,
 * and a start tour's longest edges (a greedy tour's last joins) are often
 * replaced only by other long ones.  Queues the cities whose edges changed
 * (a descent should follow); returns the gain.  Stops early once ctl
 * expires. */
int64_t wt_ls_long_edges(wt_ls *e, int count, int threads);
/* Forgets the log: the current tour is the one undo returns to. */
void wt_ls_commit(wt_ls *e);
/* Back to the tour of the last commit, whose length the caller passes;
 * empties the queue. */
void wt_ls_undo(wt_ls *e, int64_t length);

#ifdef __cplusplus
}
#endif
#endif
