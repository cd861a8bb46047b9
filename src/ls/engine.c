/*
 * engine.c - the local-search engine (engine.h): its state, clones and
 * segment engines, the descent's queue, commit and undo.  The moves are in
 * twoopt.c, oropt.c and lk.c, the kicks in kicks.c.
 */
#include "ls/engine.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/instance.h"
#include "core/neighbours.h"
#include "ls/ls_impl.h"

/* ------------------------------------------------------------ descent */

void ls_drain(wt_ls *e)
{
    bool lk = e->moves.lk, directed = e->moves.directed && !e->t.path;
    for (unsigned polls = 0; e->q_count > 0; polls++) {
        if (polls % LS_POLL == 0 && ls_stop(e)) return;
        int c = ls_pop(e);
        bool positional = wt_ls_tour_positional(&e->t);
        /* LK's breadth leaves some plain 2-opt moves untried.  Or-opt moves
         * and exchanges work on positions: not on a list.  Directed: Or-opt
         * first (its moves without reversal are exchanges too), whose short
         * insertions before the longer exchanges reached ftv38's optimum in
         * a quarter of the kicks (bench/RESULTS.md, asymmetric instances). */
        bool moved = directed ? positional && (ls_oropt_try(e, c) || ls_or3_try(e, c))
                              : (lk && ls_lk_try(e, c)) || ls_2opt_try(e, c) ||
                                    (positional && ls_oropt_try(e, c));
        if (moved) ls_push(e, c);
    }
}

/* ------------------------------------------------------------- state */

static void free_local(wt_instance *l)
{
    free(l->x);
    free(l->y);
    free(l->z);
    free(l->lat);
    free(l->lon);
}

void ls_release(wt_ls *e)
{
    ls_lk_free(e);
    wt_ls_tour_release(&e->t);
    free(e->ids);
    free(e->local_fixed);
    free_local(&e->local);
    free(e->t.pos);
    if (!e->nb_shared) free(e->nb);
    free(e->queue);
    free(e->queued);
}

static bool ctl_stop_asked(void *ctl) { return wt_ctl_expired(ctl); }

/* The given lists' first k entries a row (k is below the rows' width
 * where the instance has fewer cities than the lists ask). */
static void copy_given(wt_ls *e)
{
    size_t width = (size_t)e->moves.candidates, k = (size_t)e->k;
    for (size_t c = 0; c < (size_t)e->t.n; c++)
        memcpy(e->nb + c * k, e->moves.given + c * width, k * sizeof *e->nb);
}

wt_status ls_init(wt_ls *e, wt_error *err)
{
    size_t n = (size_t)e->t.n;
    int want = e->moves.candidates;
    e->k = e->t.n - 1 < want ? e->t.n - 1 : want;
    e->t.pos = malloc(n * sizeof *e->t.pos);
    e->nb = malloc(n * (size_t)e->k * sizeof *e->nb);
    e->queue = malloc(n * sizeof *e->queue);
    e->queued = calloc(n, sizeof *e->queued);
    if (!e->t.pos || !e->nb || !e->queue || !e->queued || (e->moves.lk && !ls_lk_create(e))) {
        ls_release(e);
        return wt_fail(err, WT_STATUS_OUT_OF_MEMORY, "local search: out of memory for %d cities",
                       e->t.n);
    }
    /* On threads: ILS builds its engines as its searches start.  The lists
     * take seconds at millions of cities: a stop (time limit, Ctrl-C) ends
     * their build, and the engine then has none, so its descents move
     * nothing and the caller's tour stays as it is. */
    if (e->moves.given) {
        copy_given(e);
        for (int i = 0; i < e->t.n; i++) e->t.pos[e->t.order[i]] = i;
        return WT_OK;
    }
    int threads = e->ctl && e->ctl->threads > 1 ? e->ctl->threads : 1;
    wt_init_stop stop = {ctl_stop_asked, e->ctl};
    bool stopped = false;
    wt_status st = e->moves.lk ? ls_lk_candidates(e->inst, &e->moves, e->k, threads,
                                                  e->ctl ? &stop : NULL, e->nb, &stopped, err)
                               : wt_neighbour_lists_until(e->inst, e->k, threads,
                                                          e->ctl ? &stop : NULL, e->nb,
                                                          &stopped, err);
    if (st != WT_OK) {
        ls_release(e);
        return st;
    }
    if (stopped) {
        e->stopped = true;
        for (size_t x = 0; x < n * (size_t)e->k; x++) e->nb[x] = -1;
    }
    for (int i = 0; i < e->t.n; i++) e->t.pos[e->t.order[i]] = i;
    return WT_OK;
}

/* ------------------------------------------------------------ engines */

wt_status wt_ls_create(const wt_instance *inst, const int32_t *tour, wt_search_ctl *ctl,
                       const wt_ls_moves *moves, wt_ls **out, wt_error *err)
{
    bool lk_ok = moves && (!moves->lk || (moves->depth >= 1 && moves->breadth[0] >= 1 &&
                                          moves->breadth[1] >= 1 && moves->breadth[2] >= 1 &&
                                          (moves->kopt == 0 ||
                                           (moves->kopt >= 3 && moves->kopt <= 5)) &&
                                          moves->kopt_submoves >= 0 &&
                                          (!moves->pi || moves->pi_scale >= 1)));
    if (!inst || !tour || !out || inst->n < 4 || !lk_ok || moves->candidates < 1)
        return wt_fail(err, WT_STATUS_INVALID_ARGUMENT, "wt_ls_create: bad arguments");
    wt_ls *e = calloc(1, sizeof *e);
    int32_t *copy = malloc((size_t)inst->n * sizeof *copy);
    if (!e || !copy) {
        free(e);
        free(copy);
        return wt_fail(err, WT_STATUS_OUT_OF_MEMORY, "local search: out of memory for %d cities",
                       inst->n);
    }
    memcpy(copy, tour, (size_t)inst->n * sizeof *copy);
    *e = (wt_ls){.inst = inst,
                 .t = {.n = inst->n, .order = copy, .logging = true,
                       .fixed = ctl ? ctl->fixed : NULL},
                 .ctl = ctl, .moves = *moves};
    wt_status st = ls_init(e, err);
    if (st != WT_OK) {
        free(copy);
        free(e);
        return st;
    }
    e->length = wt_tour_length(inst, copy);
    *out = e;
    return WT_OK;
}

wt_status wt_ls_clone(const wt_ls *proto, wt_ls **out, wt_error *err)
{
    const wt_ls *q = proto;
    if (q->t.path)
        return wt_fail(err, WT_STATUS_INVALID_ARGUMENT, "wt_ls_clone: a segment engine");
    size_t n = (size_t)q->t.n;
    wt_ls *e = calloc(1, sizeof *e);
    if (e) {
        *e = (wt_ls){.inst = q->inst, .t = {.n = q->t.n, .logging = true, .fixed = q->t.fixed},
                     .k = q->k,
                     .ctl = q->ctl, .length = q->length, .nb = q->nb, .nb_shared = true,
                     .moves = q->moves};
        e->t.order = malloc(n * sizeof *e->t.order);
        e->t.pos = malloc(n * sizeof *e->t.pos);
        e->queue = malloc(n * sizeof *e->queue);
        e->queued = calloc(n, sizeof *e->queued);
    }
    if (!e || !e->t.order || !e->t.pos || !e->queue || !e->queued ||
        (q->moves.lk && !ls_lk_create(e))) {
        wt_ls_free(e);
        return wt_fail(err, WT_STATUS_OUT_OF_MEMORY, "local search: out of memory for %d cities",
                       q->t.n);
    }
    memcpy(e->t.order, q->t.order, n * sizeof *e->t.order);
    memcpy(e->t.pos, q->t.pos, n * sizeof *e->t.pos);
    *out = e;
    return WT_OK;
}

/* The arrays of a segment engine's local instance (those its type reads). */
static bool alloc_local(wt_ls *e, const wt_instance *inst, size_t cap)
{
    wt_instance *l = &e->local;
    /* Every field the distance reads but the per-city arrays, which follow. */
    *l = *inst;
    l->name = l->comment = NULL;
    l->x = l->y = l->z = l->lat = l->lon = NULL;
    l->matrix = NULL;
    l->known_optimum = -1;
    bool geo = inst->type == WT_GEO, z = wt_has_z(inst->type);
    l->x = malloc(cap * sizeof *l->x);
    l->y = malloc(cap * sizeof *l->y);
    if (z) l->z = malloc(cap * sizeof *l->z);
    if (geo) {
        l->lat = malloc(cap * sizeof *l->lat);
        l->lon = malloc(cap * sizeof *l->lon);
    }
    return l->x && l->y && (!z || l->z) && (!geo || (l->lat && l->lon));
}

wt_status wt_ls_create_paths(const wt_ls *proto, int cap, wt_ls **out, wt_error *err)
{
    const wt_ls *q = proto;
    if (!q || q->t.path || !out || cap < 4 || cap > q->t.n ||
        q->inst->type == WT_EXPLICIT)
        return wt_fail(err, WT_STATUS_INVALID_ARGUMENT, "wt_ls_create_paths: bad arguments");
    size_t c = (size_t)cap;
    wt_ls *e = calloc(1, sizeof *e);
    if (e) {
        *e = (wt_ls){.inst = &e->local, .t = {.logging = true, .path = true}, .k = q->k,
                     .ctl = q->ctl, .cap = cap, .proto_nb = q->nb, .moves = q->moves};
        e->t.order = malloc(c * sizeof *e->t.order);
        e->t.pos = malloc(c * sizeof *e->t.pos);
        e->queue = malloc(c * sizeof *e->queue);
        e->queued = calloc(c, sizeof *e->queued);
        e->nb = malloc(c * (size_t)q->k * sizeof *e->nb);
        e->ids = malloc(c * sizeof *e->ids);
        e->src_fixed = q->t.fixed;
        if (q->t.fixed) e->t.fixed = e->local_fixed = malloc(2 * c * sizeof *e->local_fixed);
    }
    if (!e || !e->t.order || !e->t.pos || !e->queue || !e->queued || !e->nb || !e->ids ||
        (e->src_fixed && !e->local_fixed) ||
        !alloc_local(e, q->inst, c) || (q->moves.lk && !ls_lk_create(e))) {
        wt_ls_free(e);
        return wt_fail(err, WT_STATUS_OUT_OF_MEMORY, "local search: out of memory for %d cities",
                       cap);
    }
    e->src = q->inst;
    *out = e;
    return WT_OK;
}

/* City c of the instance as local city i: its coordinates. */
static void copy_city(wt_ls *e, int i, int c)
{
    const wt_instance *g = e->src;
    wt_instance *l = &e->local;
    l->x[i] = g->x[c];
    l->y[i] = g->y[c];
    if (l->z) l->z[i] = g->z[c];
    if (l->lat) {
        l->lat[i] = g->lat[c];
        l->lon[i] = g->lon[c];
    }
}

/* The fixed edges among the path's m cities (ids), in its numbering: a
 * city's fixed partner is its neighbour on the path, since the whole tour
 * holds every fixed edge; the ends' partners off the path are left out
 * (their edges are not the path's, and its ends stay where they are). */
static void local_fixed_edges(wt_ls *e, int m)
{
    for (int i = 0; i < m; i++)
        for (int side = 0; side < 2; side++) {
            int32_t f = e->src_fixed[2 * (size_t)e->ids[i] + side], at = -1;
            if (f >= 0 && i > 0 && e->ids[i - 1] == f) at = i - 1;
            if (f >= 0 && i + 1 < m && e->ids[i + 1] == f) at = i + 1;
            e->local_fixed[2 * i + side] = at;
        }
}

void wt_ls_adopt_path(wt_ls *e, const int32_t *tour, const int32_t *where, int n, int start,
                      int m)
{
    wt_ls_tour *t = &e->t;
    assert(t->path && m >= 4 && m <= e->cap && m <= n);
    ls_clear_queue(e);
    t->n = e->local.n = m;
    e->start = start;
    for (int i = 0, x = start; i < m; i++, x = x + 1 == n ? 0 : x + 1) {
        e->ids[i] = tour[x];
        t->order[i] = t->pos[i] = i;
        copy_city(e, i, tour[x]);
    }
    if (e->src_fixed) local_fixed_edges(e, m);
    /* The proto's lists, each city by its place on the path (order kept). */
    for (int i = 0; i < m; i++) {
        const int32_t *from = e->proto_nb + (size_t)e->ids[i] * (size_t)e->k;
        int32_t *to = e->nb + (size_t)i * (size_t)e->k;
        int kept = 0;
        for (int x = 0; x < e->k; x++) {
            int j = where[from[x]] - start;
            if (j < 0) j += n;
            if (j < m) to[kept++] = j;
        }
        while (kept < e->k) to[kept++] = -1;
    }
    int64_t length = 0;
    for (int i = 1; i < m; i++) length += ls_dist(e, i - 1, i);
    t->first = 0;
    t->last = m - 1;
    e->length = length + ls_dist(e, m - 1, 0);
    e->q_head = 0;
    wt_ls_tour_commit(t);
}

void wt_ls_store_path(const wt_ls *e, int32_t *tour, int n)
{
    const wt_ls_tour *t = &e->t;
    for (int i = 0, x = e->start; i < t->n; i++, x = x + 1 == n ? 0 : x + 1)
        tour[x] = e->ids[t->order[i]];
}

void wt_ls_adopt(wt_ls *e, const int32_t *tour, int64_t length)
{
    wt_ls_tour *t = &e->t;
    memcpy(t->order, tour, (size_t)t->n * sizeof *t->order);
    for (int i = 0; i < t->n; i++) t->pos[tour[i]] = i;
    e->length = length;
    wt_ls_tour_commit(t);
    ls_clear_queue(e);
}

void wt_ls_free(wt_ls *e)
{
    if (!e) return;
    free(e->t.order);
    ls_release(e);
    free(e);
}

const int32_t *wt_ls_order(const wt_ls *e) { return e->t.order; }

void wt_ls_set_breadth(wt_ls *e, const int breadth[WT_LK_LEVELS])
{
    for (int i = 0; i < WT_LK_LEVELS; i++) e->moves.breadth[i] = breadth[i];
}

void wt_ls_set_kopt_chains(wt_ls *e, bool lkh) { e->moves.kopt_lkh_chains = lkh; }

const wt_ls_moves *wt_ls_moves_of(const wt_ls *e) { return &e->moves; }

const wt_instance *wt_ls_instance(const wt_ls *e) { return e->src ? e->src : e->inst; }

const int32_t *wt_ls_candidates(const wt_ls *e, int *k)
{
    *k = e->k;
    return e->nb;
}

int64_t wt_ls_length(const wt_ls *e) { return e->length; }

void wt_ls_touch_all(wt_ls *e)
{
    for (int i = 0; i < e->t.n; i++) ls_push(e, e->t.order[i]);
}

void wt_ls_touch(wt_ls *e, const int32_t *cities, int count)
{
    for (int i = 0; i < count; i++) ls_push(e, cities[i]);
}

wt_status wt_ls_descend(wt_ls *e, uint64_t *moves, wt_error *err)
{
    uint64_t before = e->moves_2opt + e->moves_oropt + e->moves_lk + e->moves_or3;
    ls_drain(e);
    if (moves) *moves += e->moves_2opt + e->moves_oropt + e->moves_lk + e->moves_or3 - before;
    if (e->t.log_failed)
        return wt_fail(err, WT_STATUS_OUT_OF_MEMORY,
                       "local search: out of memory for the move log");
    return WT_OK;
}

wt_status wt_ls_descend_list(wt_ls *e, bool report, uint64_t *moves, wt_error *err)
{
    if (e->t.path || e->t.n < 3) return wt_ls_descend(e, moves, err);
    wt_status st = wt_ls_list_open(e, err);
    if (st != WT_OK) return st;
    e->t.logging = false; /* committed at the end: nothing to undo */
    e->list_reports = report;
    st = wt_ls_descend(e, moves, err);
    e->list_reports = false;
    e->t.logging = true;
    wt_ls_list_close(e);
    return st;
}

wt_status wt_ls_list_open(wt_ls *e, wt_error *err)
{
    if (e->t.path || e->t.list)
        return wt_fail(err, WT_STATUS_INVALID_ARGUMENT, "local search: no list here");
    return wt_ls_tour_list_open(&e->t, err);
}

void wt_ls_list_close(wt_ls *e) { wt_ls_tour_list_close(&e->t); }

void wt_ls_walk(const wt_ls *e, int32_t *out) { wt_ls_tour_walk(&e->t, out); }

void wt_ls_commit(wt_ls *e) { wt_ls_tour_commit(&e->t); }

void wt_ls_undo(wt_ls *e, int64_t length)
{
    wt_ls_tour_undo(&e->t);
    e->length = length;
    ls_clear_queue(e); /* nothing is left to look at */
}
