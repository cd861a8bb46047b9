/*
 * tour.h - the local-search engine's tour: one set of operations over its
 * two representations, so that a move is written once.
 *
 *  - The array: order[i] is the city at position i, pos its inverse.  A
 *    flip reverses one cyclic range of positions, the shorter of the path
 *    and its complement, so it costs up to n / 2; positions also allow the
 *    moves that need them (Or-opt's segment exchanges, LK's alternate step,
 *    the full sweeps), which test wt_ls_tour_positional first.
 *  - The two-level list (core/tour_list.h), while one is open: a flip costs
 *    O(sqrt n) wherever its ends lie, for searches over a large whole tour;
 *    order and pos are stale meanwhile.
 * As LKH hides its one-, two- and three-level lists behind SUC, PRED,
 * BETWEEN and FLIP, the moves see next, prev, between and flip (with its
 * undo) only, whichever representation holds the tour.
 *
 * A path (ILS on segments of a tour) is an array whose closing edge, from
 * its last city back to its first, no move removes (wt_ls_tour_fixed_edge):
 * both ends stay at positions 0 and n - 1.  A whole tour may have fixed
 * edges of its own (wt_ls_tour.fixed: TSPLIB's FIXED_EDGES_SECTION, an open
 * path's closing edge), which no move removes either; so may a path (a
 * segment of such a tour: its fixed edges in its own numbering).
 *
 * The log: while logging, every flip and reversal is recorded, so that
 * wt_ls_tour_undo restores the tour of the last commit exactly (positions
 * included), in about the time the changes took.  An array's entry is a
 * reversed range (from, len), a list's the four cities of its flip.
 */
#ifndef WT_LS_TOUR_H
#define WT_LS_TOUR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/tour_list.h"

typedef struct wt_ls_tour {
    int n;              /* cities (all of the instance's, or a path's) */
    int32_t *order;     /* the array: the city at each position */
    int32_t *pos;       /* pos[order[i]] = i */
    wt_tour_list *list; /* not NULL: the tour is this list; order and pos are stale */
    bool path;          /* the closing edge (last first) stays */
    int32_t first, last;
    const int32_t *fixed; /* NULL, or two cities a city (-1: none): the fixed edges
                             (wt_search_ctl.fixed), which no move removes; in the
                             instance's numbering, or a path's own */
    bool logging;       /* flips and reversals go into the log */
    bool log_failed;    /* the log could not grow: undo is no longer exact */
    int32_t *log;       /* pairs: (from, len) of the array, or half a list flip */
    size_t log_len, log_cap;
} wt_ls_tour;

/* Position i reduced to 0..n-1, for i in -n..2n-1. */
static inline int wt_ls_tour_wrap(const wt_ls_tour *t, int i)
{
    return i < 0 ? i + t->n : i >= t->n ? i - t->n : i;
}

/* The city at position i (array only), i in -n..2n-1. */
static inline int32_t wt_ls_tour_at(const wt_ls_tour *t, int i)
{
    return t->order[wt_ls_tour_wrap(t, i)];
}

/* Whether positions are current: no list is open. */
static inline bool wt_ls_tour_positional(const wt_ls_tour *t) { return !t->list; }

static inline int32_t wt_ls_tour_next(const wt_ls_tour *t, int c)
{
    return t->list ? wt_tour_list_next(t->list, c) : wt_ls_tour_at(t, t->pos[c] + 1);
}

static inline int32_t wt_ls_tour_prev(const wt_ls_tour *t, int c)
{
    return t->list ? wt_tour_list_prev(t->list, c) : wt_ls_tour_at(t, t->pos[c] - 1);
}

/* Whether b lies on the path from a to c in the direction of next (a and c
 * included). */
static inline bool wt_ls_tour_between(const wt_ls_tour *t, int a, int b, int c)
{
    if (t->list) return wt_tour_list_between(t->list, a, b, c);
    int pa = t->pos[a];
    return wt_ls_tour_wrap(t, t->pos[b] - pa) <= wt_ls_tour_wrap(t, t->pos[c] - pa);
}

/* Whether (x y) is a path's closing edge or one of the fixed edges, which
 * no move may remove. */
static inline bool wt_ls_tour_fixed_edge(const wt_ls_tour *t, int x, int y)
{
    if (t->fixed && (t->fixed[2 * x] == y || t->fixed[2 * x + 1] == y)) return true;
    return t->path && ((x == t->last && y == t->first) || (x == t->first && y == t->last));
}

/* Whether city c lies in the len positions from position i (array only). */
static inline bool wt_ls_tour_in_segment(const wt_ls_tour *t, int c, int i, int len)
{
    return wt_ls_tour_wrap(t, t->pos[c] - i) < len;
}

/* Appends the pair (x, y) to the log; a log that cannot grow sets
 * log_failed. */
void wt_ls_tour_log(wt_ls_tour *t, int32_t x, int32_t y);

/* Reverses the len positions from position from (cyclically) exactly
 * (array only); logged. */
static inline void wt_ls_tour_reverse(wt_ls_tour *t, int from, int len)
{
    if (t->logging) wt_ls_tour_log(t, from, len);
    int32_t *o = t->order;
    for (int a = from, b = wt_ls_tour_wrap(t, from + len - 1), m = len / 2; m > 0; m--) {
        int32_t ca = o[a], cb = o[b];
        o[a] = cb;
        o[b] = ca;
        t->pos[cb] = a;
        t->pos[ca] = b;
        a = a + 1 == t->n ? 0 : a + 1;
        b = b == 0 ? t->n - 1 : b - 1;
    }
}

/* The range a 2-opt move reverses when it removes the edges after positions
 * i and j (cyclically j follows i): i+1..j, or its complement when shorter;
 * on a path, the one that does not hold the closing edge (n - 1, 0). */
static inline void wt_ls_tour_twoopt_range(const wt_ls_tour *t, int i, int j, int *from,
                                           int *len)
{
    *from = wt_ls_tour_wrap(t, i + 1);
    *len = wt_ls_tour_wrap(t, j - i);
    if (t->path ? j < i : 2 * *len > t->n) {
        *from = wt_ls_tour_wrap(t, j + 1);
        *len = t->n - *len;
    }
}

/* The flip (a 2-opt move): removes the edges (a b) and (c d), where d
 * follows c as b follows a (both by next, or both by prev), and adds (a c)
 * and (b d).  On the array it reverses the range between the two edges'
 * positions that wt_ls_tour_twoopt_range picks; on the list the shorter
 * side, after which next and prev may have traded places.  Logged. */
static inline void wt_ls_tour_flip(wt_ls_tour *t, int a, int b, int c, int d)
{
    if (t->list) {
        if (t->logging) {
            wt_ls_tour_log(t, a, b);
            wt_ls_tour_log(t, c, d);
        }
        if (wt_tour_list_next(t->list, a) == b) wt_tour_list_reverse(t->list, b, c);
        else wt_tour_list_reverse(t->list, c, b);
        return;
    }
    int i, j, from, len;
    if (wt_ls_tour_next(t, a) == b) { /* a b ... c d */
        i = t->pos[a];
        j = t->pos[c];
    } else { /* d c ... b a */
        i = t->pos[d];
        j = t->pos[b];
    }
    wt_ls_tour_twoopt_range(t, i, j, &from, &len);
    wt_ls_tour_reverse(t, from, len);
}

/* Undoes wt_ls_tour_flip(t, a, b, c, d), the last change made, exactly
 * (on the array the same range turns back, so positions are restored too),
 * and drops it from the log. */
void wt_ls_tour_unflip(wt_ls_tour *t, int a, int b, int c, int d);
/* Undoes wt_ls_tour_reverse(t, from, len), the last change made, and drops
 * it from the log. */
void wt_ls_tour_unreverse(wt_ls_tour *t, int from, int len);

/* Forgets the log: the current tour is the one undo returns to. */
static inline void wt_ls_tour_commit(wt_ls_tour *t) { t->log_len = 0; }
/* Back to the tour of the last commit, replaying the log backwards. */
void wt_ls_tour_undo(wt_ls_tour *t);

/* Opens the list over the array's tour (n >= 3); commits.  Also
 * WT_STATUS_OUT_OF_MEMORY. */
wt_status wt_ls_tour_list_open(wt_ls_tour *t, wt_error *err);
/* Writes the list back into the array from the city at position 0 before
 * the open, frees the list and commits; no list: a no-op. */
void wt_ls_tour_list_close(wt_ls_tour *t);
/* The tour as it is now into out[0..n-1] (from the list while one is open,
 * starting at some city, in either direction). */
void wt_ls_tour_walk(const wt_ls_tour *t, int32_t *out);
/* Frees the log and the list (not order, pos: their owner's). */
void wt_ls_tour_release(wt_ls_tour *t);

#endif
