/*
 * polish_impl.h - the state of a polish and its O(1) tour queries, shared
 * by polish.c (2-opt, Or-opt, the polisher) and lk.c (Lin-Kernighan steps).
 * Internal to src/algo: nothing outside these two files includes it.
 *
 * The tour is an array with each city's position (pos); every change is a
 * reversal of a cyclic range of positions (reverse_range), logged while a
 * polisher keeps a log, so that undo can replay it backwards.
 */
#ifndef WT_ALGO_POLISH_IMPL_H
#define WT_ALGO_POLISH_IMPL_H

#include <stdbool.h>
#include <stdint.h>

#include "algo/polish.h"
#include "core/init.h"
#include "core/instance.h"
#include "core/tour_list.h"

typedef struct lk_work lk_work;

typedef struct polish {
    const wt_instance *inst;
    int n;            /* cities in tour (all of the instance's, or a path's) */
    int32_t *tour;    /* the caller's tour, changed in place */
    int32_t *pos;     /* pos[tour[i]] = i */
    int32_t *nb;      /* n x k candidate cities, nearest first (-1: none, the rest too) */
    int k;
    wt_polish_moves moves; /* which moves the neighbour-list descent makes */
    lk_work *lk;      /* the LK step's scratch (moves.lk only) */
    int32_t *queue;   /* phase 1: ring of n cities */
    uint8_t *queued;  /* phase 1: city is in the queue */
    int q_head, q_count;
    int64_t *el;      /* phase 2: el[i] = length of the edge after position i */
    int64_t *rows[3]; /* phase 2: distance rows (sweep_2opt, sweep_oropt), in */
    int64_t *row_mem; /* this block of 3 n */
    wt_search_ctl *ctl;
    wt_polish_stats st;
    bool stopped;
    /* wt_polisher only: the exact length, kept through every change, and the
     * reversals since the last commit (from, len pairs), to undo them. */
    int64_t length;
    bool logging, log_failed;
    bool nb_shared;   /* nb belongs to the polisher this one was cloned from */
    /* Path polishers only (wt_polisher_create_paths): the path's cities are
     * numbered 0..n-1 in their order at adoption, with an instance of their
     * own (local: copies of their coordinates) and neighbour lists of their
     * own (the proto's, less the cities off the path), so that a search
     * touches O(n) memory, not the whole instance's.  tour is a path from
     * 0 to n - 1, whose closing edge no move removes: both ends stay at
     * positions 0 and n - 1.  ids[c] is city c's number in the instance. */
    bool path;
    int32_t first, last;
    int cap, start;      /* room for cap cities; the path's first position */
    struct wt_instance local;
    const wt_instance *src;  /* the whole instance */
    const int32_t *proto_nb; /* its lists */
    int32_t *ids;
    int32_t *log;
    size_t log_len, log_cap;
    /* While a listed descent runs (wt_polisher_descend_listed): the tour
     * as a two-level list, which the tour's neighbours and the LK and 2-opt
     * moves use instead of the array (tour, pos: stale until it ends);
     * and between wt_polisher_list_open and _close, where the log holds
     * the list's 2-opt moves (four cities each).  list_reports: the
     * descent reports progress through ctl (a listed first descent). */
    wt_tour_list *list;
    bool list_reports;
} polish;

static inline int64_t pd(const polish *p, int a, int b) { return wt_dist(p->inst, a, b); }

/* Position i reduced to 0..n-1, for i in -n..2n-1. */
static inline int wrap(const polish *p, int i)
{
    return i < 0 ? i + p->n : i >= p->n ? i - p->n : i;
}

static inline int32_t at(const polish *p, int i) { return p->tour[wrap(p, i)]; }

static inline int32_t succ(const polish *p, int c)
{
    return p->list ? wt_tour_list_next(p->list, c) : at(p, p->pos[c] + 1);
}

static inline int32_t pred(const polish *p, int c)
{
    return p->list ? wt_tour_list_prev(p->list, c) : at(p, p->pos[c] - 1);
}

/* Records a 2-opt move on the list for wt_polisher_undo (polish.c). */
void polish_log_move(polish *p, int a, int b, int c, int d);

/* On the list: the 2-opt move that removes the tour's edges (a b) and
 * (c d), d following c as b follows a, and adds (a c) and (b d); logged as
 * its four cities (the move (a c) (b d) undoes it, whichever way the list
 * then runs). */
static inline void list_2opt(polish *p, int a, int b, int c, int d)
{
    if (p->logging) polish_log_move(p, a, b, c, d);
    if (wt_tour_list_next(p->list, a) == b) wt_tour_list_reverse(p->list, b, c);
    else wt_tour_list_reverse(p->list, c, b);
}

/* Whether city c lies in the segment of len positions from position i. */
static inline bool in_segment(const polish *p, int c, int i, int len)
{
    return wrap(p, p->pos[c] - i) < len;
}

/* Whether (x y) is a path's closing edge, which no move may remove. */
static inline bool fixed_edge(const polish *p, int x, int y)
{
    return p->path && ((x == p->last && y == p->first) || (x == p->first && y == p->last));
}

/* Records a reversal for wt_polisher_undo (polish.c). */
void polish_log_reversal(polish *p, int from, int len);

/* Reverses the len positions from position from (cyclically) exactly. */
static inline void reverse_range(polish *p, int from, int len)
{
    if (p->logging) polish_log_reversal(p, from, len);
    int32_t *t = p->tour;
    for (int a = from, b = wrap(p, from + len - 1), m = len / 2; m > 0; m--) {
        int32_t ca = t[a], cb = t[b];
        t[a] = cb;
        t[b] = ca;
        p->pos[cb] = a;
        p->pos[ca] = b;
        a = a + 1 == p->n ? 0 : a + 1;
        b = b == 0 ? p->n - 1 : b - 1;
    }
}

/* The range a 2-opt move reverses when it removes the edges after positions
 * i and j (cyclically j follows i): i+1..j, or its complement when shorter;
 * on a path, the one that does not hold the closing edge (n - 1, 0). */
static inline void twoopt_range(const polish *p, int i, int j, int *from, int *len)
{
    *from = wrap(p, i + 1);
    *len = wrap(p, j - i);
    if (p->path ? j < i : 2 * *len > p->n) {
        *from = wrap(p, j + 1);
        *len = p->n - *len;
    }
}

/* Queues city c for the neighbour-list descent (a no-op when queued). */
static inline void push(polish *p, int c)
{
    if (p->queued[c]) return;
    p->queued[c] = 1;
    p->queue[wrap(p, p->q_head + p->q_count)] = c;
    p->q_count++;
}

/* lk.c: the LK step from city c (see lk.c); true when it shortened the
 * tour (p->length follows, the cities whose edges changed are queued). */
bool lk_try(polish *p, int c);
/* lk.c: scratch for the LK steps of p (moves.lk); false when out of memory. */
bool lk_work_create(polish *p);
void lk_work_free(polish *p);
/* lk.c: the candidate lists of the LK moves (k = moves.candidates a city):
 * quadrant neighbours for planar coordinates when moves.quadrant, else the
 * k nearest; built as wt_neighbour_lists_until, which stop can end
 * (*stopped: nb is then unusable). */
wt_status lk_candidates(const wt_instance *inst, const wt_polish_moves *m, int k, int threads,
                        const wt_init_stop *stop, int32_t *nb, bool *stopped, wt_error *err);

#endif
