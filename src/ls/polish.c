/*
 * polish.c - the polish (polish.h): the engine's neighbour-list descent
 * of 2-opt and Or-opt moves over the caller's tour, in place and without a
 * log, then full sweeps of both neighbourhoods.
 *
 * The sweeps, first improvement: a 2-opt sweep tries every pair of
 * non-adjacent edges, an Or-opt sweep every segment of 1..WT_LS_OR_MAX
 * cities against every edge outside it, in both orientations, reading the
 * distances from rows of distances to the cities at the current position
 * (about n^2 / 2 and n^2 distances per sweep).  They alternate until a
 * 2-opt sweep and the Or-opt sweep after it both apply nothing: then no
 * improving move of either kind exists.  A move found by a sweep is
 * followed at once by the neighbour-list descent from its end cities,
 * which finds the moves it opens up far sooner than the sweep.
 */
#include "ls/polish.h"

#include <stdlib.h>

#include "core/error.h"
#include "ls/ls_impl.h"

/* The engine over the caller's tour and the sweeps' scratch. */
typedef struct ls_polish {
    wt_ls e;
    int64_t *el;                 /* el[i] = length of the edge after position i */
    int64_t *rows[WT_LS_OR_MAX]; /* distance rows (sweep_2opt, sweep_oropt), in */
    int64_t *row_mem;            /* this block of WT_LS_OR_MAX n */
} ls_polish;

static void edge_lengths(ls_polish *p)
{
    const wt_ls_tour *t = &p->e.t;
    for (int i = 0; i < t->n; i++)
        p->el[i] = ls_dist(&p->e, t->order[i], wt_ls_tour_at(t, i + 1));
}

/* After a move of a full sweep: the neighbour-list descent from its end
 * cities, which usually finds the moves it opened up far sooner than the
 * sweep would, then fresh edge lengths. */
static void after_full_move(ls_polish *p, const int *ends, int count)
{
    for (int x = 0; x < count; x++) ls_push(&p->e, ends[x]);
    ls_drain(&p->e);
    edge_lengths(p);
}

/* row[x] = distance from city c to the city at position x, for x in
 * [from, n) and x = 0 (the position after n - 1). */
static void fill_row(const ls_polish *p, int64_t *row, int c, int from)
{
    const wt_ls_tour *t = &p->e.t;
    for (int x = from; x < t->n; x++) row[x] = ls_dist(&p->e, c, t->order[x]);
    row[0] = ls_dist(&p->e, c, t->order[0]);
}

/* Every pair of non-adjacent edges (a b) at position i, (c d) at j > i;
 * returns whether a move was applied.  The distances from a and b come
 * from two rows, and b's row of position i is a's row of i + 1, so a sweep
 * computes about n^2 / 2 distances. */
static bool sweep_2opt(ls_polish *p)
{
    const int32_t *order = p->e.t.order;
    int n = p->e.t.n;
    bool moved = false, fresh = false; /* fresh: rb holds the row of order[i] */
    int64_t *ra = p->rows[0], *rb = p->rows[1];
    edge_lengths(p);
    for (int i = 0; i + 2 < n; i++) {
        if (ls_stop(&p->e)) return moved;
        if (fresh) {
            int64_t *t = ra;
            ra = rb;
            rb = t;
        } else {
            fill_row(p, ra, order[i], i + 2);
        }
        fill_row(p, rb, order[i + 1], i + 3);
        fresh = true;
        int last = i == 0 ? n - 2 : n - 1; /* edges i and n - 1 share city order[0] */
        for (int j = i + 2; j <= last; j++) {
            int jd = j + 1 == n ? 0 : j + 1;
            if (ra[j] + rb[jd] - p->el[i] - p->el[j] >= 0) continue;
            int a = order[i], b = order[i + 1], c = order[j], d = order[jd];
            ls_2opt_apply(&p->e, i, j);
            after_full_move(p, (int[]){a, b, c, d}, 4);
            moved = true;
            fresh = false;
            i--; /* position i again, on the new tour */
            break;
        }
    }
    return moved;
}

/* Every segment of 1..WT_LS_OR_MAX cities against every edge outside it,
 * both orientations; returns whether a move was applied.  rows[k] holds
 * the distances from the city at position i + k to every position: the
 * segment's ends, so the scan of the edges reads rows only; the rows roll
 * on with i, one new row (n distances) per position. */
static bool sweep_oropt(ls_polish *p)
{
    const wt_ls_tour *t = &p->e.t;
    const int32_t *order = t->order;
    int n = t->n, have = 0; /* rows[0 .. have) are valid for position i */
    bool moved = false;
    int64_t **r = p->rows;
    edge_lengths(p);
    for (int i = 0; i < n; i++) {
        if (ls_stop(&p->e)) return moved;
        for (int len = 1; len <= ls_or_max(&p->e); len++) {
            for (; have < len; have++) fill_row(p, r[have], wt_ls_tour_at(t, i + have), 0);
            const int64_t *r1 = r[0], *rl = r[len - 1];
            int s1 = order[i], sl = wt_ls_tour_at(t, i + len - 1), pp = wt_ls_tour_at(t, i - 1),
                q = wt_ls_tour_at(t, i + len);
            int64_t gain = ls_dist(&p->e, pp, s1) + ls_dist(&p->e, sl, q) - ls_dist(&p->e, pp, q);
            /* The edges q .. p: n - len - 1 of them, from position i + len. */
            for (int m = 0, e = wt_ls_tour_wrap(t, i + len); m < n - len - 1;
                 m++, e = wt_ls_tour_wrap(t, e + 1)) {
                int eb = e + 1 == n ? 0 : e + 1;
                bool rev = false;
                if (r1[e] + rl[eb] - p->el[e] >= gain) {
                    if (len == 1 || rl[e] + r1[eb] - p->el[e] >= gain) continue;
                    rev = true;
                }
                int a = order[e], b = order[eb];
                ls_oropt_apply(&p->e, i, len, a, rev);
                after_full_move(p, (int[]){pp, q, s1, sl, a, b}, 6);
                moved = true;
                have = 0;
                break; /* the segment at i is another one now */
            }
        }
        if (have > 0) { /* roll: the row of i + 1 becomes the first */
            int64_t *first = r[0];
            for (int k = 0; k + 1 < WT_LS_OR_MAX; k++) r[k] = r[k + 1];
            r[WT_LS_OR_MAX - 1] = first;
            have--;
        }
    }
    return moved;
}

static void descend_full(ls_polish *p)
{
    for (;;) {
        bool moved = sweep_2opt(p);
        if (p->e.stopped) return;
        moved = sweep_oropt(p) || moved;
        if (p->e.stopped || !moved) return;
    }
}

static void polish_free(ls_polish *p)
{
    ls_release(&p->e);
    free(p->el);
    free(p->row_mem);
}

wt_status wt_ls_polish(const wt_instance *inst, int32_t *tour, int candidates, int full_max,
                       wt_search_ctl *ctl, wt_ls_polish_stats *stats, wt_error *err)
{
    if (!inst || !tour || candidates < 1)
        return wt_fail(err, WT_STATUS_INVALID_ARGUMENT, "wt_polish: bad arguments");
    ls_polish p = {.e = {.inst = inst, .t = {.n = inst->n, .order = tour}, .ctl = ctl,
                         .moves = {.candidates = candidates}}};
    wt_ls_polish_stats st = {.full = inst->n <= full_max};
    if (inst->n < 4) { /* every tour of 3 cities has the same length */
        st.complete = true;
        if (stats) *stats = st;
        return WT_OK;
    }
    if (st.full) {
        size_t n = (size_t)inst->n;
        p.el = malloc(n * sizeof *p.el);
        p.row_mem = malloc(WT_LS_OR_MAX * n * sizeof *p.row_mem);
        for (size_t k = 0; p.row_mem && k < WT_LS_OR_MAX; k++) p.rows[k] = p.row_mem + k * n;
        if (!p.el || !p.row_mem) {
            polish_free(&p);
            return wt_fail(err, WT_STATUS_OUT_OF_MEMORY, "polish: out of memory for %d cities",
                           inst->n);
        }
    }
    wt_status s = ls_init(&p.e, err);
    if (s != WT_OK) {
        free(p.el);
        free(p.row_mem);
        return s;
    }
    wt_ls_touch_all(&p.e);
    ls_drain(&p.e);
    if (st.full && !p.e.stopped) descend_full(&p);
    st.complete = !p.e.stopped;
    st.moves_2opt = p.e.moves_2opt;
    st.moves_oropt = p.e.moves_oropt;
    polish_free(&p);
    if (stats) *stats = st;
    return WT_OK;
}
