/*
 * ls_impl.h - the engine's state, shared by the files of src/ls: the
 * engine (engine.c), its moves (twoopt.c, oropt.c, lk.c, kopt.c,
 * kopt_nonseq.c, or3opt.c), the kicks (kicks.c) and the polish
 * (polish.c).  Nothing outside src/ls includes it.
 *
 * The moves see the tour through ls/tour.h only; the rest is the
 * engine's: distances, candidate lists, the queue of cities to look at
 * (the don't-look bits), the exact length and the move counts.  Calls go
 * one way: engine.c and polish.c call the moves, the moves call tour.c.
 */
#ifndef WT_LS_LS_IMPL_H
#define WT_LS_LS_IMPL_H

#include <assert.h>
#include <stdbool.h>
#include <stdint.h>

#include "core/init.h"
#include "core/instance.h"
#include "ls/engine.h"
#include "ls/tour.h"

/* Cities of a descent between looks at ctl. */
enum { LS_POLL = 64 };

typedef struct ls_lk ls_lk;
typedef struct ls_kopt ls_kopt;

struct wt_ls {
    const wt_instance *inst;
    wt_ls_tour t;     /* the tour (its order array is the engine's, or the
                         polish's caller's) */
    int32_t *nb;      /* n x k candidate cities, nearest first (-1: none, the rest too) */
    int k;
    bool nb_shared;   /* nb belongs to the engine this one was cloned from */
    wt_ls_moves moves; /* which moves the descent makes */
    ls_lk *lk;        /* the LK step's scratch (moves.lk only) */
    ls_kopt *kopt;    /* the k-opt step's scratch (moves.kopt only) */
    int32_t *queue;   /* ring of n cities */
    uint8_t *queued;  /* city is in the queue */
    int q_head, q_count;
    wt_search_ctl *ctl;
    bool stopped;
    bool list_reports; /* a list descent reports progress through ctl */
    uint64_t moves_2opt, moves_oropt, moves_lk, moves_or3; /* improving moves applied */
    int64_t length;   /* the exact length, kept through every change */
    /* Segment engines only (wt_ls_create_paths): the path's cities are
     * numbered 0..n-1 in their order at adoption, with an instance of their
     * own (local: copies of their coordinates) and candidate lists of their
     * own (the proto's, less the cities off the path), so that a search
     * touches O(n) memory, not the whole instance's.  The tour is a path
     * from 0 to n - 1 (t.path).  ids[c] is city c's number in the
     * instance. */
    int cap, start;      /* room for cap cities; the path's first position */
    struct wt_instance local;
    const wt_instance *src;  /* the whole instance */
    const int32_t *proto_nb; /* its lists */
    int32_t *ids;
    /* The whole tour's fixed edges (the proto's t.fixed; NULL: none) and
     * this path's, in its own numbering: t.fixed, beside the path's
     * closing edge. */
    const int32_t *src_fixed;
    int32_t *local_fixed;
};

static inline int64_t ls_dist(const wt_ls *e, int a, int b) { return wt_dist(e->inst, a, b); }
/* The length under which the k-opt steps measure gains: d(a, b), or with
 * node penalties (moves.pi) pi_scale d(a, b) + pi[a] + pi[b].  Every city
 * of a closed move ends one removed and one added edge, so its penalty
 * cancels in the move's gain, which is pi_scale times the change of
 * length; the partial gains, and with them the gain criterion and the
 * submoves' choice, are LKH's. */
static inline int64_t ls_pi_dist(const wt_ls *e, int a, int b)
{
    const int32_t *pi = e->moves.pi;
    if (!pi) return ls_dist(e, a, b);
    /* A segment engine numbers its cities along its path. */
    int ia = e->ids ? e->ids[a] : a, ib = e->ids ? e->ids[b] : b;
    return (int64_t)e->moves.pi_scale * ls_dist(e, a, b) + pi[ia] + pi[ib];
}

/* The change of length of a closed move whose gain under ls_pi_dist is g. */
static inline int64_t ls_pi_gain(const wt_ls *e, int64_t g)
{
    if (!e->moves.pi) return g;
    assert(g % e->moves.pi_scale == 0);
    return g / e->moves.pi_scale;
}

/* Whether the candidate lists are sorted by distance (the built ones, or
 * given ones made the same way elsewhere), so that a scan may end at the
 * first candidate too far to gain; alpha-nearness lists are not, and are
 * scanned to their end. */
static inline bool ls_by_distance(const wt_ls *e)
{
    return !e->moves.given || e->moves.given_by_distance;
}

/* Queues city c for the descent (a no-op when queued). */
static inline void ls_push(wt_ls *e, int c)
{
    if (e->queued[c]) return;
    e->queued[c] = 1;
    e->queue[wt_ls_tour_wrap(&e->t, e->q_head + e->q_count)] = c;
    e->q_count++;
}

static inline int ls_pop(wt_ls *e)
{
    int c = e->queue[e->q_head];
    e->q_head = wt_ls_tour_wrap(&e->t, e->q_head + 1);
    e->q_count--;
    e->queued[c] = 0;
    return c;
}

static inline void ls_clear_queue(wt_ls *e)
{
    while (e->q_count > 0) ls_pop(e);
}

/* Whether to stop; a list descent that reports (the whole tour's, on the
 * solving thread, seconds long on a large tour) also reports its
 * progress. */
static inline bool ls_stop(wt_ls *e)
{
    if (!e->ctl) return false;
    if (!e->stopped && e->list_reports) {
        uint64_t moves = e->moves_2opt + e->moves_oropt + e->moves_lk + e->moves_or3;
        e->stopped = wt_ctl_report(e->ctl, e->length, moves, false);
    } else if (!e->stopped && wt_ctl_expired(e->ctl)) {
        e->stopped = true;
    }
    return e->stopped;
}

/* engine.c: the state of e->t.order (n = e->t.n >= 4, set): positions,
 * candidate lists, queue.  Frees what it made on failure. */
wt_status ls_init(wt_ls *e, wt_error *err);
/* engine.c: frees what ls_init and the segment engines made, not
 * e->t.order. */
void ls_release(wt_ls *e);
/* engine.c: runs the queue empty (stops early once ctl expires). */
void ls_drain(wt_ls *e);

/* twoopt.c: the 2-opt moves that join c to a candidate; true when one was
 * applied (its cities queued). */
bool ls_2opt_try(wt_ls *e, int c);
/* twoopt.c: the 2-opt move that removes the edges after positions i and j
 * (array only; the length is the caller's to update). */
void ls_2opt_apply(wt_ls *e, int i, int j);

/* oropt.c: the longest Or-opt segment for this tour. */
static inline int ls_or_max(const wt_ls *e)
{
    return e->t.n - 2 < WT_LS_OR_MAX ? e->t.n - 2 : WT_LS_OR_MAX;
}
/* oropt.c: the Or-opt moves of the segments that start or end at c which
 * put c next to a candidate (array only); true when one was applied. */
bool ls_oropt_try(wt_ls *e, int c);
/* oropt.c: moves the segment of len cities at position i between city a
 * and its successor (both outside it), reversed if rev (array only; the
 * length is the caller's to update). */
void ls_oropt_apply(wt_ls *e, int i, int len, int a, bool rev);

/* or3opt.c: the direction-keeping 3-opt moves (segment exchanges without
 * reversal) from city c (whole tours on the array only); true when one was
 * applied (the length follows, its cities queued). */
bool ls_or3_try(wt_ls *e, int c);
/* or3opt.c: joins the three paths between the edges after positions i, j
 * and k (distinct, any order) again as the one tour that keeps every
 * path's direction (array only; the length is the caller's to update). */
void ls_or3_apply(wt_ls *e, int i, int j, int k);

/* lk.c: the LK step from city c; true when it shortened the tour (the
 * length follows, the cities whose edges changed are queued). */
bool ls_lk_try(wt_ls *e, int c);
/* lk.c: scratch for the LK steps of e (moves.lk); false when out of
 * memory. */
bool ls_lk_create(wt_ls *e);
void ls_lk_free(wt_ls *e);
/* kopt.c: the LK step whose basic move is a sequential k-opt move
 * (moves.kopt), from city c; true when it shortened the tour (the length
 * follows, the cities whose edges changed are queued). */
bool ls_kopt_try(wt_ls *e, int c);
/* kopt_nonseq.c: an improving double bridge from city t1 (moves.nonseq,
 * where the k-opt step found nothing), made and its cities queued; its
 * gain (0: none found, the tour as it was). */
int64_t ls_double_bridge(wt_ls *e, int t1);
/* kopt.c: its scratch (moves.kopt); false when out of memory. */
bool ls_kopt_create(wt_ls *e);
void ls_kopt_free(wt_ls *e);
/* lk.c: the candidate lists of the LK moves (k = moves.candidates a city):
 * quadrant neighbours for planar coordinates when moves.quadrant, else the
 * k nearest; built as wt_neighbour_lists_until, which stop can end
 * (*stopped: nb is then unusable). */
wt_status ls_lk_candidates(const wt_instance *inst, const wt_ls_moves *m, int k, int threads,
                           const wt_init_stop *stop, int32_t *nb, bool *stopped, wt_error *err);

#endif
