/*
 * lk.c - Lin-Kernighan steps for the engine's descent (wt_ls_moves.lk),
 * after Lin & Kernighan 1973 and the flip-based formulation of Johnson &
 * McGeoch 1997 (section 3.3) and Applegate, Cook & Rohe 2003.
 *
 * A step starts at a city t1 and a tour neighbour t2 and considers the edge
 * (t1 t2) removed; g, the partial gain, is the length removed minus the
 * length added so far.  At every level the free end `last` of the chain
 * (t2 at first) takes a candidate t3 as its new neighbour while
 * g - d(last, t3) stays above the best closed gain seen, and the edge
 * (t3 t4) is removed with t4 the neighbour of t3 on the side that keeps a
 * tour: the tour then is t1 t4 ... last t3 ..., one flip (ls/tour.h), and
 * closing it costs d(t4, t1).  The chain goes on from t4 to `depth`
 * levels, remembering where the closed tour was shortest; the flips past
 * that point are undone, and the step made if its gain is positive.
 *  - Breadth: levels 1..3 try up to breadth[0..2] alternatives t3 (the
 *    ones with the largest d(t3, t4) - d(last, t3) first), deeper levels
 *    the best one only; an alternative is abandoned (its flip undone) when
 *    no chain below it closes with a gain.
 *  - Lin & Kernighan's restrictions keep a chain from undoing itself: an
 *    edge it added is never removed again, an edge it removed never added.
 *  - Mak-Morton moves: when no candidate of the free end qualifies at some
 *    level below the first, the chain grows from its other end (t1 takes a
 *    new neighbour, and the removed edge's far end becomes the new t1):
 *    the same gain bookkeeping, with the ends' roles exchanged.
 *  - The alternate step (moves.alternate, off by default: bench/RESULTS.md,
 *    "Why the alternate step is off (LK)"): where the standard step finds
 *    nothing, at the first level or any later one, t4 is taken on the side
 *    that would close a cycle, which the next exchange opens again: a
 *    sequential 3-opt move no flip makes, after which the chain goes on.
 *    It reverses ranges of positions, so it is taken on the array only.
 * Every gain is an exact integer of the instance's distance.  The plain
 * 2-opt and Or-opt moves (segment insertions that flips cannot reach in
 * one level) are tried when the step finds nothing (engine.c).
 *
 * A flip costs the length of the range it reverses on the array (so large
 * tours are searched in segments or on a list, algo/ils_*.c), O(sqrt n) on
 * the two-level list.
 */
#include <stdlib.h>

#include "core/error.h"
#include "core/neighbours.h"
#include "ls/ls_impl.h"

/* The most alternatives any level tries (breadth values are capped here). */
enum { LK_MAX_BREADTH = 12 };
/* Longest segment from which an alternate first step goes on as a chain
 * (its reversals cost the segment's length); longer ones are taken only
 * as closed 3-opt moves. */
enum { ALT_CHAIN_MAX = 50 };

/* Slots of an edge set's filter: a power of two. */
enum { EDGE_FILTER = 4096 };

/* The edges a chain added (or removed), as city pairs, with a counting
 * filter over their ends: the test of an edge, made for every candidate at
 * every level, scans the pairs only when both ends' slots are in use (a
 * chain holds at most 2 depth + 4 ends), so a deep chain's tests stay O(1). */
typedef struct edge_set {
    int32_t *pairs;
    int count;
    uint16_t filter[EDGE_FILTER];
} edge_set;

static bool edge_set_has(const edge_set *s, int a, int b)
{
    if (!s->filter[a & (EDGE_FILTER - 1)] || !s->filter[b & (EDGE_FILTER - 1)]) return false;
    for (int i = 0; i < 2 * s->count; i += 2)
        if ((s->pairs[i] == a && s->pairs[i + 1] == b) ||
            (s->pairs[i] == b && s->pairs[i + 1] == a))
            return true;
    return false;
}

static void edge_set_add(edge_set *s, int a, int b)
{
    s->pairs[2 * s->count] = a;
    s->pairs[2 * s->count + 1] = b;
    s->count++;
    s->filter[a & (EDGE_FILTER - 1)]++;
    s->filter[b & (EDGE_FILTER - 1)]++;
}

/* Forgets the last `edges` edges. */
static void edge_set_pop(edge_set *s, int edges)
{
    for (; edges > 0; edges--) {
        s->count--;
        s->filter[s->pairs[2 * s->count] & (EDGE_FILTER - 1)]--;
        s->filter[s->pairs[2 * s->count + 1] & (EDGE_FILTER - 1)]--;
    }
}

struct ls_lk {
    int depth;
    /* The chain's levels: a flip (its four cities in flips, which undo it)
     * or, for an alternate step, up to three reversals of position ranges
     * (from, len pairs in rev; level_revs counts them, 0 for a flip), and
     * up to four cities whose edges changed (touched, -1 where fewer). */
    int32_t *flips, *rev, *level_revs, *touched;
    int levels, n_rev;
    /* Edges the chain added and removed. */
    edge_set added, removed;
    int64_t best_gain; /* of the best closed tour so far (0: none better) */
    int best_levels;   /* levels that make it */
};

bool ls_lk_create(wt_ls *e)
{
    if (e->moves.kopt && !ls_kopt_create(e)) return false;
    size_t d = (size_t)e->moves.depth;
    ls_lk *w = calloc(1, sizeof *w);
    if (!w) return false;
    w->depth = (int)d;
    w->flips = malloc((4 * d + 4) * sizeof *w->flips);
    w->rev = malloc((6 * d + 6) * sizeof *w->rev);
    w->level_revs = malloc((d + 1) * sizeof *w->level_revs);
    w->touched = malloc((4 * d + 4) * sizeof *w->touched);
    w->added.pairs = malloc((4 * d + 8) * sizeof *w->added.pairs);
    if (!w->flips || !w->rev || !w->level_revs || !w->touched || !w->added.pairs) {
        e->lk = w;
        ls_lk_free(e);
        return false;
    }
    w->removed.pairs = w->added.pairs + 2 * d + 4;
    e->lk = w;
    return true;
}

void ls_lk_free(wt_ls *e)
{
    ls_kopt_free(e);
    ls_lk *w = e->lk;
    if (!w) return;
    free(w->flips);
    free(w->rev);
    free(w->level_revs);
    free(w->touched);
    free(w->added.pairs);
    free(w);
    e->lk = NULL;
}

/* ----------------------------------------------------------- bookkeeping */

/* Opens a level that changes the edges of the cities c[0..3] (-1: none). */
static void open_level(ls_lk *w, int c0, int c1, int c2, int c3)
{
    int32_t *t = w->touched + 4 * w->levels;
    t[0] = c0;
    t[1] = c1;
    t[2] = c2;
    t[3] = c3;
    w->level_revs[w->levels++] = 0;
}

/* Reverses a range of positions as part of the open level. */
static void level_reverse(wt_ls *e, ls_lk *w, int from, int len)
{
    wt_ls_tour_reverse(&e->t, from, len);
    w->rev[2 * w->n_rev] = from;
    w->rev[2 * w->n_rev + 1] = len;
    w->n_rev++;
    w->level_revs[w->levels - 1]++;
}

/* Removes (fix last) and (t4 t3), adds (last t3) and (fix t4): one flip,
 * as one level. */
static void flip(wt_ls *e, ls_lk *w, int fix, int last, int t3, int t4)
{
    wt_ls_tour_flip(&e->t, fix, last, t4, t3);
    open_level(w, t3, t4, -1, -1);
    int32_t *f = w->flips + 4 * (w->levels - 1);
    f[0] = fix;
    f[1] = last;
    f[2] = t4;
    f[3] = t3;
    edge_set_add(&w->added, last, t3);
    edge_set_add(&w->removed, t3, t4);
}

/* Undoes the chain's last level: its flip or reversals, their entries in
 * the engine's log, and its edges (two added, two removed at most). */
static void unflip(wt_ls *e, ls_lk *w, int edges)
{
    int count = w->level_revs[--w->levels];
    if (count == 0) {
        const int32_t *f = w->flips + 4 * w->levels;
        wt_ls_tour_unflip(&e->t, f[0], f[1], f[2], f[3]);
    }
    for (int r = 0; r < count; r++) {
        w->n_rev--;
        wt_ls_tour_unreverse(&e->t, w->rev[2 * w->n_rev], w->rev[2 * w->n_rev + 1]);
    }
    edge_set_pop(&w->added, edges);
    edge_set_pop(&w->removed, edges);
}

/* ------------------------------------------------------------- the chain */

typedef struct lk_alt {
    int32_t t3, t4;
    int64_t score; /* d(t3, t4) - d(last, t3) */
} lk_alt;

/* The (up to) `breadth` best alternatives for the free end `last` of a
 * chain whose other end is fix, best first; how many. */
static int alternatives(const wt_ls *e, const ls_lk *w, int fix, int last, int64_t g,
                        int breadth, lk_alt *alt)
{
    const wt_ls_tour *t = &e->t;
    const int32_t *nb = e->nb + (size_t)last * (size_t)e->k;
    bool fwd = wt_ls_tour_next(t, fix) == last;
    int count = 0;
    for (int x = 0; x < e->k; x++) {
        int t3 = nb[x];
        if (t3 < 0) break; /* a path's list ends early */
        int64_t d_add = ls_dist(e, last, t3);
        if (g - d_add <= w->best_gain) {
            if (ls_by_distance(e)) break;
            continue;
        }
        if (t3 == fix) continue;
        int t4 = fwd ? wt_ls_tour_prev(t, t3) : wt_ls_tour_next(t, t3);
        if (t4 == last || wt_ls_tour_fixed_edge(t, t3, t4)) continue;
        if (edge_set_has(&w->added, t3, t4) || edge_set_has(&w->removed, last, t3))
            continue;
        lk_alt a = {t3, t4, ls_dist(e, t3, t4) - d_add};
        int y = count < breadth ? count++ : breadth;
        if (y == breadth && a.score <= alt[breadth - 1].score) continue;
        if (y == breadth) y = breadth - 1;
        for (; y > 0 && alt[y - 1].score < a.score; y--) alt[y] = alt[y - 1];
        alt[y] = a;
    }
    return count;
}

/* Alternatives tried at a level (0-based): moves.breadth's, capped; one
 * below the levels it sets. */
static int level_breadth(const wt_ls *e, int level)
{
    int b = level < WT_LK_LEVELS ? e->moves.breadth[level] : 1;
    return b < 1 ? 1 : b > LK_MAX_BREADTH ? LK_MAX_BREADTH : b;
}

static bool extend(wt_ls *e, ls_lk *w, int fix, int last, int64_t g, int level);
static bool alternate_step(wt_ls *e, ls_lk *w, int t1, int t2, int64_t g0, int level);

/* One alternative at this level: flip, note the closed gain, go deeper;
 * true once some closed tour of the chain beat the start (the flips then
 * stay for the caller to trim), else the flip is undone. */
static bool try_alternative(wt_ls *e, ls_lk *w, int fix, int last, int64_t g, int level,
                            const lk_alt *a)
{
    int64_t g2 = g - ls_dist(e, last, a->t3) + ls_dist(e, a->t3, a->t4);
    flip(e, w, fix, last, a->t3, a->t4);
    int64_t closed = g2 - ls_dist(e, a->t4, fix);
    if (closed > w->best_gain) {
        w->best_gain = closed;
        w->best_levels = w->levels;
    }
    if (level + 1 < w->depth && extend(e, w, fix, a->t4, g2, level + 1)) return true;
    if (w->best_gain > 0) return true;
    unflip(e, w, 1);
    return false;
}

/* The chain from level `level` on: the tour holds the edge (fix last),
 * which the chain counts as removed, g its partial gain. */
static bool extend(wt_ls *e, ls_lk *w, int fix, int last, int64_t g, int level)
{
    int breadth = level_breadth(e, level);
    lk_alt alt[LK_MAX_BREADTH];
    int count = alternatives(e, w, fix, last, g, breadth, alt);
    for (int i = 0; i < count; i++)
        if (try_alternative(e, w, fix, last, g, level, &alt[i])) return true;
    if (count > 0 || level == 0) return false;
    if (e->moves.alternate && wt_ls_tour_positional(&e->t) && level + 2 < w->depth &&
        alternate_step(e, w, fix, last, g, level))
        return true;
    /* Mak-Morton: grow the chain from its other end. */
    count = alternatives(e, w, last, fix, g, breadth, alt);
    for (int i = 0; i < count; i++)
        if (try_alternative(e, w, last, fix, g, level, &alt[i])) return true;
    return false;
}

/* ------------------------------------------- the alternate first step */

/* Whether city c lies on the path from a to b (inclusive) that runs in the
 * direction `fwd` (succ when true). */
static bool on_path(const wt_ls_tour *t, bool fwd, int a, int c, int b)
{
    return fwd ? wt_ls_tour_between(t, a, c, b) : wt_ls_tour_between(t, b, c, a);
}

/* The level made by an alternate first step on the segment S = t2 .. t3
 * (in the direction from t1 to t2), split at (t5 t6): with t6 after t5 the
 * two parts swap places, t1 [t6 .. t3] [t2 .. t5] t4; with t6 before t5
 * each part turns around in place, t1 [t6 .. t2] [t3 .. t5] t4. */
static void alternate_level(wt_ls *e, ls_lk *w, bool fwd, int t2, int t3, int t4,
                            int t5, int t6, bool swap)
{
    const wt_ls_tour *t = &e->t;
    /* S in array order: from its first position, of len positions. */
    int s0 = t->pos[fwd ? t2 : t3], len = wt_ls_tour_wrap(t, t->pos[fwd ? t3 : t2] - s0) + 1;
    /* The first part in array order ends at the split. */
    int split = wt_ls_tour_wrap(t, t->pos[fwd == swap ? t5 : t6] - s0) + 1;
    open_level(w, t3, t4, t5, t6);
    level_reverse(e, w, s0, split);
    level_reverse(e, w, wt_ls_tour_wrap(t, s0 + split), len - split);
    if (swap) level_reverse(e, w, s0, len);
    edge_set_add(&w->added, t2, t3);
    edge_set_add(&w->added, t4, t5);
    edge_set_add(&w->removed, t3, t4);
    edge_set_add(&w->removed, t5, t6);
}

/* Lin & Kernighan's alternate first step, for when the standard one found
 * nothing: t4 is the neighbour of t3 that would close a cycle t2 .. t3,
 * which the next exchange, (t4 t5) in and (t5 t6) out with t5 on that
 * cycle, opens again: a sequential 3-opt move that no flip makes, after
 * which the chain goes on as usual from t6. */
static int seg_len(const wt_ls_tour *t, bool fwd, int a, int b)
{
    return wt_ls_tour_wrap(t, fwd ? t->pos[b] - t->pos[a] : t->pos[a] - t->pos[b]) + 1;
}

static bool alternate_step(wt_ls *e, ls_lk *w, int t1, int t2, int64_t g0, int level)
{
    const wt_ls_tour *t = &e->t;
    bool fwd = wt_ls_tour_next(t, t1) == t2;
    const int32_t *nb2 = e->nb + (size_t)t2 * (size_t)e->k;
    int breadth = level_breadth(e, level);
    int tried3 = 0;
    for (int x = 0; x < e->k && tried3 < breadth; x++) {
        int t3 = nb2[x];
        if (t3 < 0) break;
        int64_t g1 = g0 - ls_dist(e, t2, t3);
        if (g1 <= w->best_gain) {
            if (ls_by_distance(e)) break;
            continue;
        }
        int t4 = fwd ? wt_ls_tour_next(t, t3) : wt_ls_tour_prev(t, t3);
        if (t3 == t1 || t4 == t1 || t3 == (fwd ? wt_ls_tour_next(t, t2) : wt_ls_tour_prev(t, t2)))
            continue;
        if (wt_ls_tour_fixed_edge(t, t3, t4)) continue;
        if (edge_set_has(&w->removed, t2, t3) || edge_set_has(&w->added, t3, t4))
            continue;
        /* S = t2 .. t3 must not hold a path's closing edge. */
        if (t->path && (fwd ? t->pos[t3] < t->pos[t2] : t->pos[t2] < t->pos[t3])) continue;
        tried3++;
        const int32_t *nb4 = e->nb + (size_t)t4 * (size_t)e->k;
        for (int y = 0; y < e->k; y++) {
            int t5 = nb4[y];
            if (t5 < 0) break;
            int64_t g2 = g1 + ls_dist(e, t3, t4) - ls_dist(e, t4, t5);
            if (g2 <= w->best_gain) {
                if (ls_by_distance(e)) break;
                continue;
            }
            if (t5 == t3 || !on_path(t, fwd, t2, t5, t3)) continue;
            if (edge_set_has(&w->removed, t4, t5)) continue;
            for (int side = 0; side < 2; side++) {
                bool swap = side == 0;
                if ((swap && t5 == t3) || (!swap && t5 == t2)) continue;
                int t6 = swap == fwd ? wt_ls_tour_next(t, t5) : wt_ls_tour_prev(t, t5);
                if (edge_set_has(&w->added, t5, t6) || wt_ls_tour_fixed_edge(t, t5, t6)) continue;
                int64_t g3 = g2 + ls_dist(e, t5, t6);
                int64_t closed = g3 - ls_dist(e, t6, t1);
                /* Chains go on from short segments only: the level's
                 * reversals cost the segment's length. */
                if (closed <= 0 && seg_len(t, fwd, t2, t3) > ALT_CHAIN_MAX) continue;
                alternate_level(e, w, fwd, t2, t3, t4, t5, t6, swap);
                if (closed > w->best_gain) {
                    w->best_gain = closed;
                    w->best_levels = w->levels;
                }
                if (level + 2 < w->depth && extend(e, w, t1, t6, g3, level + 2)) return true;
                if (w->best_gain > 0) return true;
                unflip(e, w, 2);
            }
        }
    }
    return false;
}

bool ls_lk_try(wt_ls *e, int t1)
{
    if (e->kopt) return ls_kopt_try(e, t1);
    ls_lk *w = e->lk;
    const wt_ls_tour *t = &e->t;
    for (int alt = 0; alt < (e->moves.alternate && wt_ls_tour_positional(&e->t) ? 2 : 1); alt++)
        for (int dir = 0; dir < 2; dir++) {
            int t2 = dir == 0 ? wt_ls_tour_next(t, t1) : wt_ls_tour_prev(t, t1);
            if (wt_ls_tour_fixed_edge(t, t1, t2)) continue;
            w->levels = w->n_rev = 0;
            edge_set_pop(&w->added, w->added.count);
            edge_set_pop(&w->removed, w->removed.count);
            edge_set_add(&w->removed, t1, t2);
            w->best_gain = 0;
            w->best_levels = 0;
            bool found = alt == 0 ? extend(e, w, t1, t2, ls_dist(e, t1, t2), 0)
                                  : alternate_step(e, w, t1, t2, ls_dist(e, t1, t2), 0);
            if (!found) continue;
            while (w->levels > w->best_levels) unflip(e, w, 0);
            e->length -= w->best_gain;
            e->moves_lk++;
            ls_push(e, t1);
            ls_push(e, t2);
            for (int x = 0; x < 4 * w->levels; x++)
                if (w->touched[x] >= 0) ls_push(e, w->touched[x]);
            return true;
        }
    return false;
}

/* ------------------------------------------------------ candidate lists */

wt_status ls_lk_candidates(const wt_instance *inst, const wt_ls_moves *m, int k, int threads,
                        const wt_init_stop *stop, int32_t *nb, bool *stopped, wt_error *err)
{
    return m->quadrant ? wt_quadrant_lists_until(inst, k, threads, stop, nb, stopped, err)
                       : wt_neighbour_lists_until(inst, k, threads, stop, nb, stopped, err);
}
