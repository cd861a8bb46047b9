/*
 * polish.c - 2-opt and Or-opt descent of a finished tour (polish.h).
 *
 * The tour is kept as an array with each city's position (pos), so both
 * kinds of move are reversals of cyclic position ranges:
 *  - 2-opt removing the edges after positions i and j reverses i+1..j, or
 *    the complementary range, whichever is shorter (same cycle);
 *  - Or-opt moving segment S (positions i..i+L-1) into the edge (a b)
 *    exchanges S with the block B = q..a that follows it, or with the block
 *    C = b..p that precedes it, whichever is shorter: three reversals turn
 *    S B into B S (reversing S, B, then both) or, leaving S alone, into
 *    B S^r; likewise C S into S C or S^r C.
 * So every move costs O(min(moved range, n / 2)).
 *
 * Phase 1, the neighbour-list descent: a FIFO queue of cities whose
 * surroundings changed (don't-look bits: initially every city, in tour
 * order).  For the city c taken out, the 2-opt moves that make c adjacent
 * to one of its K nearest cities d, in both tour directions, and the
 * Or-opt moves of the segments of 1..3 cities that start or end at c which
 * put c next to such a d (either side of d, the orientation that makes c
 * the end touching d) are tried in order of d's distance; a 2-opt move is
 * considered only while the new edge (c d) is shorter than the removed edge
 * at c, an Or-opt move only while (c d) is shorter than what taking the
 * segment out saves (the usual gain criterion).  The first improving move
 * is applied and its end cities go back into the queue.
 *
 * Phase 2, for n <= WT_POLISH_FULL_MAX: full sweeps, first improvement.  A
 * 2-opt sweep tries every pair of non-adjacent edges, an Or-opt sweep every
 * segment of 1..3 cities against every edge outside it, in both
 * orientations, reading the distances from rows of distances to the cities
 * at the current position (about n^2 / 2 and n^2 distances per sweep).  They
 * alternate until a 2-opt sweep and the Or-opt sweep after it both apply
 * nothing: then no improving move of either kind exists.  A move found by a
 * sweep is followed at once by the neighbour-list descent from its end
 * cities, which finds the moves it opens up far sooner than the sweep.
 *
 * wt_polisher (end of file) keeps phase 1 running over a tour of its own for
 * ILS with local descents (ils_local.c): it also keeps the exact length (each
 * applied move's delta) and, until a commit, a log of the reversals made,
 * which undo replays backwards (a reversal is its own inverse).
 */
#include "algo/polish.h"

#include <assert.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "core/climb_start.h"
#include "algo/polish_impl.h"
#include "core/error.h"
#include "core/instance.h"
#include "core/neighbours.h"

/* Cities of phase 1 between looks at ctl. */
enum { POLISH_POLL = 64 };

/* Whether to stop; a listed descent (the whole tour's, on the solving
 * thread, seconds long at 100,000 cities) also reports its progress. */
static bool polish_stop(polish *p)
{
    if (!p->ctl) return false;
    if (!p->stopped && p->list_reports) {
        uint64_t moves = p->st.moves_2opt + p->st.moves_oropt + p->st.moves_lk;
        p->stopped = wt_ctl_report(p->ctl, p->length, moves, false);
    } else if (!p->stopped && wt_ctl_expired(p->ctl)) {
        p->stopped = true;
    }
    return p->stopped;
}

/* ------------------------------------------------------------- moves */

/* Records a reversal for wt_polisher_undo; a log that cannot grow is
 * flagged (the polisher then reports running out of memory). */
void polish_log_reversal(polish *p, int from, int len)
{
    if (p->log_len + 2 > p->log_cap) {
        size_t cap = p->log_cap ? 2 * p->log_cap : 1024;
        int32_t *bigger = realloc(p->log, cap * sizeof *bigger);
        if (!bigger) {
            p->log_failed = true;
            return;
        }
        p->log = bigger;
        p->log_cap = cap;
    }
    p->log[p->log_len++] = from;
    p->log[p->log_len++] = len;
}

/* The log holds pairs of ints (from, len for the array's reversals); a
 * list move takes two pairs, its four cities. */
void polish_log_move(polish *p, int a, int b, int c, int d)
{
    polish_log_reversal(p, a, b);
    polish_log_reversal(p, c, d);
}

/* 2-opt: removes the edges after positions i and j (cyclically j follows
 * i), reverses the path between them, or its complement when shorter; on
 * a path, the one that does not hold the closing edge (n - 1, 0). */
static void apply_2opt(polish *p, int i, int j)
{
    int from, len;
    twoopt_range(p, i, j, &from, &len);
    reverse_range(p, from, len);
    p->st.moves_2opt++;
}

/* Or-opt: moves the segment of len cities at position i between city a
 * and its successor (both outside the segment), reversed if rev.  On a
 * path (the segment and the edge then lie inside it), the block exchanged
 * with the segment is the one between them that does not wrap. */
static void apply_oropt(polish *p, int i, int len, int a, bool rev)
{
    int n_b = wrap(p, p->pos[a] - wrap(p, i + len)) + 1; /* q .. a */
    int n_c = p->n - len - n_b;                    /* b .. p */
    if (p->path ? p->pos[a] > i : n_b <= n_c) {
        if (!rev) reverse_range(p, i, len);
        reverse_range(p, wrap(p, i + len), n_b);
        reverse_range(p, i, len + n_b);
    } else {
        int c0 = wrap(p, i - n_c);
        reverse_range(p, c0, n_c);
        if (!rev) reverse_range(p, i, len);
        reverse_range(p, c0, n_c + len);
    }
    p->st.moves_oropt++;
}

/* Longest Or-opt segment for this n: the rest of the tour keeps an edge. */
static int or_max(const polish *p)
{
    return p->n - 2 < WT_POLISH_OR_MAX ? p->n - 2 : WT_POLISH_OR_MAX;
}

/* ------------------------------------------------ phase 1: neighbour lists */

static int pop(polish *p)
{
    int c = p->queue[p->q_head];
    p->q_head = wrap(p, p->q_head + 1);
    p->q_count--;
    p->queued[c] = 0;
    return c;
}

/* The 2-opt moves that join c to a neighbour d: with b the successor of c
 * (forward) or its predecessor, and e the same of d, edges (c b) (d e)
 * become (c d) (b e). */
static bool try_2opt(polish *p, int c)
{
    const int32_t *nb = p->nb + (size_t)c * (size_t)p->k;
    for (int dir = 0; dir < 2; dir++) {
        int b = dir == 0 ? succ(p, c) : pred(p, c);
        if (fixed_edge(p, c, b)) continue;
        int64_t dcb = pd(p, c, b);
        for (int x = 0; x < p->k; x++) {
            int d = nb[x];
            if (d < 0) break; /* a path's list ends early */
            int64_t dcd = pd(p, c, d);
            if (dcd >= dcb) break;
            int e = dir == 0 ? succ(p, d) : pred(p, d);
            if (d == b || e == c || fixed_edge(p, d, e)) continue;
            int64_t delta = dcd + pd(p, b, e) - dcb - pd(p, d, e);
            if (delta >= 0) continue;
            p->length += delta;
            /* forward: c b .. d e -> c d .. b e; backward: e d .. b c -> e b .. d c */
            if (p->list) list_2opt(p, c, b, d, e);
            else if (dir == 0) apply_2opt(p, p->pos[c], p->pos[d]);
            else apply_2opt(p, p->pos[e], p->pos[b]);
            push(p, c);
            push(p, b);
            push(p, d);
            push(p, e);
            return true;
        }
    }
    return false;
}

/* The Or-opt moves of the segments that start or end at c which put c
 * next to a neighbour d. */
static bool try_oropt(polish *p, int c)
{
    const int32_t *nb = p->nb + (size_t)c * (size_t)p->k;
    for (int len = 1; len <= or_max(p); len++) {
        for (int c_last = 0; c_last < (len > 1 ? 2 : 1); c_last++) {
            int i = wrap(p, p->pos[c] - (c_last ? len - 1 : 0));
            if (p->path && (i == 0 || i + len >= p->n)) continue; /* would cut (n - 1, 0) */
            int s1 = at(p, i), sl = at(p, i + len - 1), pp = at(p, i - 1), q = at(p, i + len);
            int64_t gain = pd(p, pp, s1) + pd(p, sl, q) - pd(p, pp, q);
            if (gain <= 0) continue;
            int other = c_last ? s1 : sl; /* the segment's far end from c */
            for (int x = 0; x < p->k; x++) {
                int d = nb[x];
                if (d < 0) break;
                int64_t dcd = pd(p, c, d);
                if (dcd >= gain) break;
                if (in_segment(p, d, i, len)) continue;
                /* d then c: into (d, succ d); c then d: into (pred d, d). */
                for (int side = 0; side < 2; side++) {
                    int a = side == 0 ? d : pred(p, d), b = side == 0 ? succ(p, d) : d;
                    int e = side == 0 ? b : a; /* the edge's other end, joined to `other` */
                    if (in_segment(p, e, i, len) || fixed_edge(p, a, b)) continue;
                    int64_t delta = dcd + pd(p, other, e) - pd(p, a, b) - gain;
                    if (delta >= 0) continue;
                    p->length += delta;
                    /* c is s1 and follows a, or is sl and precedes b: as is */
                    bool rev = (side == 0) == (bool)c_last;
                    apply_oropt(p, i, len, a, rev && len > 1);
                    push(p, pp);
                    push(p, q);
                    push(p, s1);
                    push(p, sl);
                    push(p, a);
                    push(p, b);
                    return true;
                }
            }
        }
    }
    return false;
}

/* Runs the queue empty. */
static void drain(polish *p)
{
    bool lk = p->moves.lk;
    for (unsigned polls = 0; p->q_count > 0; polls++) {
        if (polls % POLISH_POLL == 0 && polish_stop(p)) return;
        int c = pop(p);
        /* LK's breadth leaves some plain 2-opt moves untried.  Or-opt moves
         * work on positions: not on a list. */
        if ((lk && lk_try(p, c)) || try_2opt(p, c) || (!p->list && try_oropt(p, c))) push(p, c);
    }
}

static void descend_neighbours(polish *p)
{
    for (int i = 0; i < p->n; i++) push(p, p->tour[i]);
    drain(p);
}

/* ------------------------------------------------- phase 2: full sweeps */

static void edge_lengths(polish *p)
{
    for (int i = 0; i < p->n; i++) p->el[i] = pd(p, p->tour[i], at(p, i + 1));
}

/* After a move of a full sweep: the neighbour-list descent from its end
 * cities, which usually finds the moves it opened up far sooner than the
 * sweep would, then fresh edge lengths. */
static void after_full_move(polish *p, const int *ends, int count)
{
    for (int x = 0; x < count; x++) push(p, ends[x]);
    drain(p);
    edge_lengths(p);
}

/* row[x] = distance from city c to the city at position x, for x in
 * [from, n) and x = 0 (the position after n - 1). */
static void fill_row(polish *p, int64_t *row, int c, int from)
{
    for (int x = from; x < p->n; x++) row[x] = pd(p, c, p->tour[x]);
    row[0] = pd(p, c, p->tour[0]);
}

/* Every pair of non-adjacent edges (a b) at position i, (c d) at j > i;
 * returns whether a move was applied.  The distances from a and b come
 * from two rows, and b's row of position i is a's row of i + 1, so a sweep
 * computes about n^2 / 2 distances. */
static bool sweep_2opt(polish *p)
{
    int n = p->n;
    bool moved = false, fresh = false; /* fresh: rb holds the row of tour[i] */
    int64_t *ra = p->rows[0], *rb = p->rows[1];
    edge_lengths(p);
    for (int i = 0; i + 2 < n; i++) {
        if (polish_stop(p)) return moved;
        if (fresh) {
            int64_t *t = ra;
            ra = rb;
            rb = t;
        } else {
            fill_row(p, ra, p->tour[i], i + 2);
        }
        fill_row(p, rb, p->tour[i + 1], i + 3);
        fresh = true;
        int last = i == 0 ? n - 2 : n - 1; /* edges i and n - 1 share city tour[0] */
        for (int j = i + 2; j <= last; j++) {
            int jd = j + 1 == n ? 0 : j + 1;
            if (ra[j] + rb[jd] - p->el[i] - p->el[j] >= 0) continue;
            int a = p->tour[i], b = p->tour[i + 1], c = p->tour[j], d = p->tour[jd];
            apply_2opt(p, i, j);
            after_full_move(p, (int[]){a, b, c, d}, 4);
            moved = true;
            fresh = false;
            i--; /* position i again, on the new tour */
            break;
        }
    }
    return moved;
}

/* Every segment of 1..3 cities against every edge outside it, both
 * orientations; returns whether a move was applied.  rows[k] holds the
 * distances from the city at position i + k to every position: the
 * segment's ends, so the scan of the edges reads rows only; the rows roll
 * on with i, one new row (n distances) per position. */
static bool sweep_oropt(polish *p)
{
    int n = p->n, have = 0; /* rows[0 .. have) are valid for position i */
    bool moved = false;
    int64_t **r = p->rows;
    edge_lengths(p);
    for (int i = 0; i < n; i++) {
        if (polish_stop(p)) return moved;
        for (int len = 1; len <= or_max(p); len++) {
            for (; have < len; have++) fill_row(p, r[have], at(p, i + have), 0);
            const int64_t *r1 = r[0], *rl = r[len - 1];
            int s1 = p->tour[i], sl = at(p, i + len - 1), pp = at(p, i - 1),
                q = at(p, i + len);
            int64_t gain = pd(p, pp, s1) + pd(p, sl, q) - pd(p, pp, q);
            /* The edges q .. p: n - len - 1 of them, from position i + len. */
            for (int m = 0, e = wrap(p, i + len); m < n - len - 1; m++, e = wrap(p, e + 1)) {
                int eb = e + 1 == n ? 0 : e + 1;
                bool rev = false;
                if (r1[e] + rl[eb] - p->el[e] >= gain) {
                    if (len == 1 || rl[e] + r1[eb] - p->el[e] >= gain) continue;
                    rev = true;
                }
                int a = p->tour[e], b = p->tour[eb];
                apply_oropt(p, i, len, a, rev);
                after_full_move(p, (int[]){pp, q, s1, sl, a, b}, 6);
                moved = true;
                have = 0;
                break; /* the segment at i is another one now */
            }
        }
        if (have > 0) { /* roll: the row of i + 1 becomes the first */
            int64_t *t = r[0];
            r[0] = r[1];
            r[1] = r[2];
            r[2] = t;
            have--;
        }
    }
    return moved;
}

static void descend_full(polish *p)
{
    for (;;) {
        bool moved = sweep_2opt(p);
        if (p->stopped) return;
        moved = sweep_oropt(p) || moved;
        if (p->stopped || !moved) return;
    }
}

/* ------------------------------------------------------------- entry */

static void free_local(wt_instance *l);

wt_polish_moves wt_polish_moves_default(bool lk)
{
    if (!lk) return (wt_polish_moves){.candidates = WT_POLISH_NEIGHBOURS};
    return (wt_polish_moves){.lk = true, .candidates = 8, .quadrant = true, .depth = 25,
                             .breadth = {3, 2, 1}, .alternate = false};
}

static void polish_free(polish *p)
{
    lk_work_free(p);
    wt_tour_list_free(p->list);
    free(p->log);
    free(p->ids);
    free_local(&p->local);
    free(p->pos);
    if (!p->nb_shared) free(p->nb);
    free(p->queue);
    free(p->queued);
    free(p->el);
    free(p->row_mem);
}

static bool ctl_stop_asked(void *ctl) { return wt_ctl_expired(ctl); }

/* Phase 1's state for p->tour (n >= 4): positions, neighbour lists, queue;
 * with `full`, phase 2's rows too.  Frees what it made on failure. */
static wt_status polish_init(polish *p, bool full, wt_error *err)
{
    size_t n = (size_t)p->n;
    int want = p->moves.candidates;
    p->k = p->n - 1 < want ? p->n - 1 : want;
    p->pos = malloc(n * sizeof *p->pos);
    p->nb = malloc(n * (size_t)p->k * sizeof *p->nb);
    p->queue = malloc(n * sizeof *p->queue);
    p->queued = calloc(n, sizeof *p->queued);
    if (full) {
        p->el = malloc(n * sizeof *p->el);
        p->row_mem = malloc(3 * n * sizeof *p->row_mem);
        for (size_t k = 0; p->row_mem && k < 3; k++) p->rows[k] = p->row_mem + k * n;
    }
    if (!p->pos || !p->nb || !p->queue || !p->queued || (full && (!p->el || !p->row_mem)) ||
        (p->moves.lk && !lk_work_create(p))) {
        polish_free(p);
        return wt_fail(err, WT_STATUS_OUT_OF_MEMORY, "polish: out of memory for %d cities",
                       p->n);
    }
    /* On threads: ILS builds its polishers as its searches start.  The
     * lists take seconds at millions of cities: a stop (time limit, Ctrl-C)
     * ends their build, and the polisher then has none, so its descents
     * move nothing and the caller's tour stays as it is. */
    int threads = p->ctl && p->ctl->threads > 1 ? p->ctl->threads : 1;
    wt_init_stop stop = {ctl_stop_asked, p->ctl};
    bool stopped = false;
    wt_status st = p->moves.lk ? lk_candidates(p->inst, &p->moves, p->k, threads,
                                               p->ctl ? &stop : NULL, p->nb, &stopped, err)
                               : wt_neighbour_lists_until(p->inst, p->k, threads,
                                                          p->ctl ? &stop : NULL, p->nb,
                                                          &stopped, err);
    if (st != WT_OK) {
        polish_free(p);
        return st;
    }
    if (stopped) {
        p->stopped = true;
        for (size_t x = 0; x < n * (size_t)p->k; x++) p->nb[x] = -1;
    }
    for (int i = 0; i < p->n; i++) p->pos[p->tour[i]] = i;
    return WT_OK;
}

wt_status wt_polish(const wt_instance *inst, int32_t *tour, wt_search_ctl *ctl,
                    wt_polish_stats *stats, wt_error *err)
{
    if (!inst || !tour) return wt_fail(err, WT_STATUS_INVALID_ARGUMENT, "wt_polish: bad arguments");
    polish p = {.inst = inst, .n = inst->n, .tour = tour, .ctl = ctl,
                .moves = wt_polish_moves_default(false)};
    p.st.full = p.n <= WT_POLISH_FULL_MAX;
    if (p.n < 4) { /* every tour of 3 cities has the same length */
        p.st.complete = true;
        if (stats) *stats = p.st;
        return WT_OK;
    }
    wt_status st = polish_init(&p, p.st.full, err);
    if (st != WT_OK) return st;
    descend_neighbours(&p);
    if (p.st.full && !p.stopped) descend_full(&p);
    p.st.complete = !p.stopped;
    polish_free(&p);
    if (stats) *stats = p.st;
    return WT_OK;
}

/* ------------------------------------------------------ the polisher */

struct wt_polisher {
    polish p;
};

wt_status wt_polisher_create(const wt_instance *inst, const int32_t *tour, wt_search_ctl *ctl,
                             const wt_polish_moves *moves, wt_polisher **out, wt_error *err)
{
    wt_polish_moves m = moves ? *moves : wt_polish_moves_default(false);
    bool lk_ok = !m.lk || (m.depth >= 1 && m.breadth[0] >= 1 && m.breadth[1] >= 1 &&
                           m.breadth[2] >= 1);
    if (!inst || !tour || !out || inst->n < 4 || m.candidates < 1 || !lk_ok)
        return wt_fail(err, WT_STATUS_INVALID_ARGUMENT, "wt_polisher_create: bad arguments");
    wt_polisher *w = calloc(1, sizeof *w);
    int32_t *copy = malloc((size_t)inst->n * sizeof *copy);
    if (!w || !copy) {
        free(w);
        free(copy);
        return wt_fail(err, WT_STATUS_OUT_OF_MEMORY, "polish: out of memory for %d cities",
                       inst->n);
    }
    memcpy(copy, tour, (size_t)inst->n * sizeof *copy);
    w->p = (polish){.inst = inst, .n = inst->n, .tour = copy, .ctl = ctl, .logging = true,
                    .moves = m};
    wt_status st = polish_init(&w->p, false, err);
    if (st != WT_OK) {
        free(copy);
        free(w);
        return st;
    }
    w->p.length = wt_tour_length(inst, copy);
    *out = w;
    return WT_OK;
}

wt_status wt_polisher_clone(const wt_polisher *proto, wt_polisher **out, wt_error *err)
{
    const polish *q = &proto->p;
    if (q->path)
        return wt_fail(err, WT_STATUS_INVALID_ARGUMENT, "wt_polisher_clone: a path polisher");
    size_t n = (size_t)q->n;
    wt_polisher *w = calloc(1, sizeof *w);
    if (w) {
        w->p = (polish){.inst = q->inst, .n = q->n, .k = q->k, .ctl = q->ctl, .logging = true,
                        .length = q->length, .nb = q->nb, .nb_shared = true,
                        .moves = q->moves};
        w->p.tour = malloc(n * sizeof *w->p.tour);
        w->p.pos = malloc(n * sizeof *w->p.pos);
        w->p.queue = malloc(n * sizeof *w->p.queue);
        w->p.queued = calloc(n, sizeof *w->p.queued);
    }
    if (!w || !w->p.tour || !w->p.pos || !w->p.queue || !w->p.queued ||
        (q->moves.lk && !lk_work_create(&w->p))) {
        wt_polisher_free(w);
        return wt_fail(err, WT_STATUS_OUT_OF_MEMORY, "polish: out of memory for %d cities",
                       q->n);
    }
    memcpy(w->p.tour, q->tour, n * sizeof *w->p.tour);
    memcpy(w->p.pos, q->pos, n * sizeof *w->p.pos);
    *out = w;
    return WT_OK;
}

/* The arrays of a path polisher's local instance (those its type reads). */
static bool alloc_local(polish *p, const wt_instance *inst, size_t cap)
{
    wt_instance *l = &p->local;
    /* Every field the distance reads but the per-city arrays, which follow. */
    *l = *inst;
    l->name = l->comment = NULL;
    l->x = l->y = l->z = l->lat = l->lon = NULL;
    l->matrix = NULL;
    l->known_optimum = -1;
    bool geo = inst->type == WT_GEO, z = inst->type == WT_EUC_3D;
    l->x = malloc(cap * sizeof *l->x);
    l->y = malloc(cap * sizeof *l->y);
    if (z) l->z = malloc(cap * sizeof *l->z);
    if (geo) {
        l->lat = malloc(cap * sizeof *l->lat);
        l->lon = malloc(cap * sizeof *l->lon);
    }
    return l->x && l->y && (!z || l->z) && (!geo || (l->lat && l->lon));
}

static void free_local(wt_instance *l)
{
    free(l->x);
    free(l->y);
    free(l->z);
    free(l->lat);
    free(l->lon);
}

wt_status wt_polisher_create_paths(const wt_polisher *proto, int cap, wt_polisher **out,
                                   wt_error *err)
{
    const polish *q = proto ? &proto->p : NULL;
    if (!q || q->path || !out || cap < 4 || cap > q->n || q->inst->type == WT_EXPLICIT)
        return wt_fail(err, WT_STATUS_INVALID_ARGUMENT, "wt_polisher_create_paths: bad arguments");
    size_t c = (size_t)cap;
    wt_polisher *w = calloc(1, sizeof *w);
    if (w) {
        w->p = (polish){.inst = &w->p.local, .k = q->k, .ctl = q->ctl, .logging = true,
                        .path = true, .cap = cap, .proto_nb = q->nb, .moves = q->moves};
        w->p.tour = malloc(c * sizeof *w->p.tour);
        w->p.pos = malloc(c * sizeof *w->p.pos);
        w->p.queue = malloc(c * sizeof *w->p.queue);
        w->p.queued = calloc(c, sizeof *w->p.queued);
        w->p.nb = malloc(c * (size_t)q->k * sizeof *w->p.nb);
        w->p.ids = malloc(c * sizeof *w->p.ids);
    }
    if (!w || !w->p.tour || !w->p.pos || !w->p.queue || !w->p.queued || !w->p.nb || !w->p.ids ||
        !alloc_local(&w->p, q->inst, c) || (q->moves.lk && !lk_work_create(&w->p))) {
        wt_polisher_free(w);
        return wt_fail(err, WT_STATUS_OUT_OF_MEMORY, "polish: out of memory for %d cities", cap);
    }
    w->p.src = q->inst;
    *out = w;
    return WT_OK;
}

/* City c of the instance as local city i: its coordinates. */
static void copy_city(polish *p, int i, int c)
{
    const wt_instance *g = p->src;
    wt_instance *l = &p->local;
    l->x[i] = g->x[c];
    l->y[i] = g->y[c];
    if (l->z) l->z[i] = g->z[c];
    if (l->lat) {
        l->lat[i] = g->lat[c];
        l->lon[i] = g->lon[c];
    }
}

void wt_polisher_adopt_path(wt_polisher *w, const int32_t *tour, const int32_t *where, int n,
                            int start, int m)
{
    polish *p = &w->p;
    assert(p->path && m >= 4 && m <= p->cap && m <= n);
    while (p->q_count > 0) pop(p);
    p->n = p->local.n = m;
    p->start = start;
    for (int i = 0, x = start; i < m; i++, x = x + 1 == n ? 0 : x + 1) {
        p->ids[i] = tour[x];
        p->tour[i] = p->pos[i] = i;
        copy_city(p, i, tour[x]);
    }
    /* The proto's lists, each city by its place on the path (order kept). */
    for (int i = 0; i < m; i++) {
        const int32_t *from = p->proto_nb + (size_t)p->ids[i] * (size_t)p->k;
        int32_t *to = p->nb + (size_t)i * (size_t)p->k;
        int kept = 0;
        for (int x = 0; x < p->k; x++) {
            int j = where[from[x]] - start;
            if (j < 0) j += n;
            if (j < m) to[kept++] = j;
        }
        while (kept < p->k) to[kept++] = -1;
    }
    int64_t length = 0;
    for (int i = 1; i < m; i++) length += pd(p, i - 1, i);
    p->first = 0;
    p->last = m - 1;
    p->length = length + pd(p, m - 1, 0);
    p->q_head = 0;
    p->log_len = 0;
}

void wt_polisher_store_path(const wt_polisher *w, int32_t *tour, int n)
{
    const polish *p = &w->p;
    for (int i = 0, x = p->start; i < p->n; i++, x = x + 1 == n ? 0 : x + 1)
        tour[x] = p->ids[p->tour[i]];
}

void wt_polisher_adopt(wt_polisher *w, const int32_t *tour, int64_t length)
{
    polish *p = &w->p;
    memcpy(p->tour, tour, (size_t)p->n * sizeof *p->tour);
    for (int i = 0; i < p->n; i++) p->pos[tour[i]] = i;
    p->length = length;
    p->log_len = 0;
    while (p->q_count > 0) pop(p);
}

void wt_polisher_free(wt_polisher *w)
{
    if (!w) return;
    free(w->p.tour);
    polish_free(&w->p);
    free(w);
}

const int32_t *wt_polisher_tour(const wt_polisher *w) { return w->p.tour; }

void wt_polisher_set_breadth(wt_polisher *w, const int breadth[WT_LK_LEVELS])
{
    for (int i = 0; i < WT_LK_LEVELS; i++) w->p.moves.breadth[i] = breadth[i];
}
const wt_polish_moves *wt_polisher_moves(const wt_polisher *w) { return &w->p.moves; }

const int32_t *wt_polisher_candidates(const wt_polisher *w, int *k)
{
    *k = w->p.k;
    return w->p.nb;
}
int64_t wt_polisher_length(const wt_polisher *w) { return w->p.length; }

void wt_polisher_touch_all(wt_polisher *w)
{
    for (int i = 0; i < w->p.n; i++) push(&w->p, w->p.tour[i]);
}

wt_status wt_polisher_descend(wt_polisher *w, uint64_t *moves, wt_error *err)
{
    polish *p = &w->p;
    uint64_t before = p->st.moves_2opt + p->st.moves_oropt + p->st.moves_lk;
    drain(p);
    if (moves) *moves += p->st.moves_2opt + p->st.moves_oropt + p->st.moves_lk - before;
    if (p->log_failed)
        return wt_fail(err, WT_STATUS_OUT_OF_MEMORY, "polish: out of memory for the move log");
    return WT_OK;
}

wt_status wt_polisher_descend_listed(wt_polisher *w, bool report, uint64_t *moves,
                                     wt_error *err)
{
    polish *p = &w->p;
    if (p->path || p->n < 3) return wt_polisher_descend(w, moves, err);
    wt_status st = wt_polisher_list_open(w, err);
    if (st != WT_OK) return st;
    p->logging = false; /* committed at the end: nothing to undo */
    p->list_reports = report;
    st = wt_polisher_descend(w, moves, err);
    p->list_reports = false;
    p->logging = true;
    wt_polisher_list_close(w);
    return st;
}

wt_status wt_polisher_list_open(wt_polisher *w, wt_error *err)
{
    polish *p = &w->p;
    if (p->path || p->list) return wt_fail(err, WT_STATUS_INVALID_ARGUMENT, "polish: no list here");
    wt_status st = wt_tour_list_create(p->tour, p->n, 0, &p->list, err);
    p->log_len = 0; /* committed: the log holds list moves from here */
    return st;
}

void wt_polisher_walk(const wt_polisher *w, int32_t *out)
{
    const polish *p = &w->p;
    if (p->list) wt_tour_list_walk(p->list, p->tour[0], out);
    else memcpy(out, p->tour, (size_t)p->n * sizeof *out);
}

void wt_polisher_list_close(wt_polisher *w)
{
    polish *p = &w->p;
    if (!p->list) return;
    wt_tour_list_walk(p->list, p->tour[0], p->tour);
    for (int i = 0; i < p->n; i++) p->pos[p->tour[i]] = i;
    wt_tour_list_free(p->list);
    p->list = NULL;
    p->log_len = 0; /* committed: the log's list moves are gone */
}

void wt_polisher_double_bridge(wt_polisher *w, int p1, int p2, int p3)
{
    polish *p = &w->p;
    int a = p->tour[p1 - 1], b0 = p->tour[p1], b1 = p->tour[p2 - 1];
    int c0 = p->tour[p2], c1 = p->tour[p3 - 1], d = at(p, p3);
    p->length += pd(p, a, c0) + pd(p, c1, b0) + pd(p, b1, d) - pd(p, a, b0) - pd(p, b1, c0) -
                 pd(p, c1, d);
    /* B C -> C B: reverse each, then both. */
    reverse_range(p, p1, p2 - p1);
    reverse_range(p, p2, p3 - p2);
    reverse_range(p, p1, p3 - p1);
    int ends[6] = {a, b0, b1, c0, c1, d};
    for (int i = 0; i < 6; i++) push(p, ends[i]);
}

/* --------------------------------------------------------- long edges */

/* Rounds of wt_polisher_long_edges, each m * n distances. */
enum { LONG_EDGE_ROUNDS = 4 };

/* Positions i of the `count` longest edges (i, i+1), longest first; how
 * many (count at most, n at most). */
static int longest_edges(const polish *p, int count, int32_t *at_pos, int64_t *len)
{
    int m = 0;
    for (int i = 0; i < p->n; i++) {
        int64_t d = pd(p, p->tour[i], at(p, i + 1));
        if (m == count && d <= len[m - 1]) continue;
        int y = m < count ? m++ : m - 1;
        for (; y > 0 && len[y - 1] < d; y--) {
            len[y] = len[y - 1];
            at_pos[y] = at_pos[y - 1];
        }
        len[y] = d;
        at_pos[y] = i;
    }
    return m;
}

/* The tour's coordinates in tour order (n + 1 entries, the last the
 * first's again) and the length of the edge after each position: the scan
 * over all edges then reads memory in order, where looking cities up would
 * jump through the instance at random (at 85,900 cities, ten times the
 * time).  Planar instances only. */
typedef struct tour_xy {
    double *x, *y;
    int64_t *el;
} tour_xy;

static bool tour_xy_open(const polish *p, tour_xy *g)
{
    size_t m = (size_t)p->n + 1;
    g->x = malloc(m * sizeof *g->x);
    g->y = malloc(m * sizeof *g->y);
    g->el = malloc(m * sizeof *g->el);
    return g->x && g->y && g->el;
}

static void tour_xy_close(tour_xy *g)
{
    free(g->x);
    free(g->y);
    free(g->el);
}

static void tour_xy_fill(const polish *p, tour_xy *g, int threads)
{
    const wt_instance *in = p->inst;
    int n = p->n;
#pragma omp parallel for num_threads(threads) schedule(static)
    for (int j = 0; j <= n; j++) {
        int c = p->tour[j == n ? 0 : j];
        g->x[j] = in->x[c];
        g->y[j] = in->y[c];
        g->el[j] = pd(p, c, at(p, j + 1));
    }
}

/* Follows reverse_range(p, from, len) in g: the coordinates of the range
 * turn around, and the edges from the one before it to its last change. */
static void tour_xy_reverse(const polish *p, tour_xy *g, int from, int len)
{
    int n = p->n;
    for (int t = 0; t < len / 2; t++) {
        int u = wrap(p, from + t), v = wrap(p, from + len - 1 - t);
        double x = g->x[u], y = g->y[u];
        g->x[u] = g->x[v];
        g->y[u] = g->y[v];
        g->x[v] = x;
        g->y[v] = y;
    }
    g->x[n] = g->x[0];
    g->y[n] = g->y[0];
    for (int t = -1; t < len; t++) {
        int q = wrap(p, from + t);
        g->el[q] = wt_dist_planar(p->inst->type, g->x[q] - g->x[q + 1], g->y[q] - g->y[q + 1]);
    }
}

/* The best 2-opt move that removes the edge after position i and another,
 * over all edges: the other edge's first position (-1: none improves),
 * *gain; ties go to the lowest position, whatever the thread count. */
static int best_partner(const polish *p, const tour_xy *g, int i, int threads, int64_t *gain)
{
    int n = p->n, best_j = -1;
    wt_edge_weight_type type = p->inst->type;
    double xa = g->x[i], ya = g->y[i], xb = g->x[i + 1], yb = g->y[i + 1];
    int64_t dab = g->el[i], best = 0;
#pragma omp parallel num_threads(threads)
    {
        int64_t mine = 0;
        int mine_j = -1;
#pragma omp for schedule(static)
        for (int j = 0; j < n; j++) {
            if (j == i || j == wrap(p, i + 1) || j == wrap(p, i - 1)) continue;
            int64_t g2 = dab + g->el[j] - wt_dist_planar(type, xa - g->x[j], ya - g->y[j]) -
                         wt_dist_planar(type, xb - g->x[j + 1], yb - g->y[j + 1]);
            if (g2 > mine) {
                mine = g2;
                mine_j = j;
            }
        }
#pragma omp critical
        if (mine > best || (mine == best && mine > 0 && mine_j < best_j)) {
            best = mine;
            best_j = mine_j;
        }
    }
    *gain = best;
    return best_j;
}

int64_t wt_polisher_long_edges(wt_polisher *w, int count, int threads)
{
    polish *p = &w->p;
    if (p->path || p->n < 8 || count < 1 || !wt_is_planar(p->inst->type)) return 0;
    if (count > 64) count = 64;
    if (threads < 1) threads = 1;
    tour_xy g;
    if (!tour_xy_open(p, &g)) { /* an optional pass: skipped without memory */
        tour_xy_close(&g);
        return 0;
    }
    int32_t at_pos[64], from[64];
    int64_t len[64], total = 0, round_gain;
    int rounds = 0;
    do { /* a move can leave a long edge improvable that was not before */
        round_gain = 0;
        int m = longest_edges(p, count, at_pos, len);
        for (int e = 0; e < m; e++) from[e] = p->tour[at_pos[e]];
        tour_xy_fill(p, &g, threads);
        for (int e = 0; e < m && !polish_stop(p); e++) { /* a scan is O(n) */
            int a = from[e], b = succ(p, a), i = p->pos[a];
            if (pd(p, a, b) != len[e]) continue; /* an earlier move took it */
            int64_t gain;
            int j = best_partner(p, &g, i, threads, &gain);
            if (j < 0) continue;
            int c = p->tour[j], d = at(p, j + 1), f, l;
            twoopt_range(p, i, j, &f, &l);
            reverse_range(p, f, l);
            tour_xy_reverse(p, &g, f, l);
            p->length -= gain;
            round_gain += gain;
            int ends[4] = {a, b, c, d};
            for (int x = 0; x < 4; x++) push(p, ends[x]);
        }
        total += round_gain;
    } while (round_gain > 0 && ++rounds < LONG_EDGE_ROUNDS && !polish_stop(p));
    tour_xy_close(&g);
    return total;
}

/* The end of a random walk of `steps` steps on the candidate lists from c. */
static int walk(const polish *p, wt_rng *rng, int c, int steps)
{
    for (int s = 0; s < steps; s++) {
        const int32_t *nb = p->nb + (size_t)c * (size_t)p->k;
        int valid = 0;
        while (valid < p->k && nb[valid] >= 0) valid++;
        if (valid == 0) break;
        c = nb[wt_rng_below(rng, (uint64_t)valid)];
    }
    return c;
}

void wt_polisher_double_bridge4(wt_polisher *w, const int q[4])
{
    polish *p = &w->p;
    int n = p->n, len[4], ends[8];
    for (int i = 0; i < 4; i++) {
        len[i] = i < 3 ? q[i + 1] - q[i] : q[0] + n - q[3];
        ends[2 * i] = p->tour[q[i]];                   /* segment i's first city */
        ends[2 * i + 1] = at(p, q[i] + len[i] - 1);    /* and its last */
    }
    int64_t delta = 0;
    for (int i = 0; i < 4; i++) { /* i's last city goes from i+1's first to i-1's */
        delta -= pd(p, ends[2 * i + 1], ends[2 * ((i + 1) % 4)]);
        delta += pd(p, ends[2 * i + 1], ends[2 * ((i + 3) % 4)]);
    }
    p->length += delta;
    /* The anchor stays in place: the longest segment, or on a path the one
     * that holds the closing edge (the last). */
    int a = 3;
    for (int i = 0; !p->path && i < 3; i++)
        if (len[i] > len[a]) a = i;
    int from = wrap(p, q[a] + len[a]), rest = n - len[a];
    reverse_range(p, from, rest);
    /* The three others now lie reversed in reverse order; each back. */
    for (int x = 0, at_pos = from; x < 3; x++) {
        int seg = (a + 3 - x) % 4;
        reverse_range(p, at_pos, len[seg]);
        at_pos = wrap(p, at_pos + len[seg]);
    }
    for (int i = 0; i < 8; i++) push(p, ends[i]);
}

/* The double bridge of wt_polisher_double_bridge4 on the list, cutting
 * before the cities q[0..3] (in the list's direction): S0 S1 S2 S3 ->
 * S0 S3 S2 S1 as four 2-opt moves (S1 S2 S3 reversed, then each of them
 * back), which the log can undo as any other. */
static void list_double_bridge(polish *p, const int32_t q[4])
{
    int b[4], e[4], ends[8];
    for (int i = 0; i < 4; i++) {
        b[i] = q[i];
        e[i] = wt_tour_list_prev(p->list, q[(i + 1) % 4]);
        ends[2 * i] = b[i];
        ends[2 * i + 1] = e[i];
    }
    int64_t delta = 0;
    for (int i = 0; i < 4; i++) /* e[i] leaves b[i+1] for b[i-1] */
        delta += pd(p, e[i], b[(i + 3) % 4]) - pd(p, e[i], b[(i + 1) % 4]);
    p->length += delta;
    list_2opt(p, e[0], b[1], e[3], b[0]); /* S0 S3' S2' S1' */
    list_2opt(p, e[0], e[3], b[3], e[2]); /* S0 S3 S2' S1' */
    list_2opt(p, e[3], e[2], b[2], e[1]); /* S0 S3 S2 S1' */
    list_2opt(p, e[2], e[1], b[1], b[0]); /* S0 S3 S2 S1 */
    for (int i = 0; i < 8; i++) push(p, ends[i]);
}

/* A kick's random city: one of cities[0..m-1], or of all when cities is NULL. */
static int32_t draw_city(const polish *p, wt_rng *rng, const int32_t *cities, int m)
{
    if (!cities) return (int32_t)wt_rng_below(rng, (uint64_t)p->n);
    return cities[wt_rng_below(rng, (uint64_t)m)];
}

/* wt_polisher_walk_kick on the list: the cuts' order from the list's keys. */
static bool list_walk_kick(polish *p, wt_rng *rng, int steps, const int32_t *cities, int m)
{
    for (int attempt = 0; attempt < 8; attempt++) {
        int32_t q[4];
        int64_t key[4];
        q[0] = draw_city(p, rng, cities, m);
        for (int i = 1; i < 4; i++) q[i] = walk(p, rng, q[0], steps);
        for (int i = 0; i < 4; i++) key[i] = wt_tour_list_key(p->list, q[i]);
        for (int i = 1; i < 4; i++) /* sorted by key */
            for (int j = i; j > 0 && key[j] < key[j - 1]; j--) {
                int64_t tk = key[j];
                key[j] = key[j - 1];
                key[j - 1] = tk;
                int32_t tq = q[j];
                q[j] = q[j - 1];
                q[j - 1] = tq;
            }
        if (key[0] == key[1] || key[1] == key[2] || key[2] == key[3]) continue;
        list_double_bridge(p, q);
        return true;
    }
    return false;
}

bool wt_polisher_walk_kick(wt_polisher *w, uint64_t seed, uint64_t kick, int steps)
{
    return wt_polisher_walk_kick_among(w, seed, kick, steps, NULL, 0);
}

bool wt_polisher_walk_kick_among(wt_polisher *w, uint64_t seed, uint64_t kick, int steps,
                                 const int32_t *cities, int m)
{
    polish *p = &w->p;
    if (p->n < 8) return false;
    wt_rng rng;
    wt_climb_rng(&rng, seed ^ 0x7f4a7c159e3779b9ULL, kick);
    if (p->list) return list_walk_kick(p, &rng, steps, cities, m);
    for (int attempt = 0; attempt < 8; attempt++) {
        int c = draw_city(p, &rng, cities, m), q[4] = {p->pos[c]};
        for (int i = 1; i < 4; i++) q[i] = p->pos[walk(p, &rng, c, steps)];
        for (int i = 1; i < 4; i++) /* sorted */
            for (int j = i; j > 0 && q[j] < q[j - 1]; j--) {
                int t = q[j];
                q[j] = q[j - 1];
                q[j - 1] = t;
            }
        if (q[0] == q[1] || q[1] == q[2] || q[2] == q[3]) continue;
        /* A cut before position 0 would remove a path's closing edge. */
        if (p->path && q[0] == 0) continue;
        wt_polisher_double_bridge4(w, q);
        return true;
    }
    return false;
}

void wt_polisher_commit(wt_polisher *w) { w->p.log_len = 0; }

void wt_polisher_undo(wt_polisher *w, int64_t length)
{
    polish *p = &w->p;
    p->logging = false; /* a reversal undone is not logged again */
    while (p->list && p->log_len >= 4) { /* (a b) (c d) -> (a c) (b d), back */
        int d = p->log[--p->log_len], c = p->log[--p->log_len];
        int b = p->log[--p->log_len], a = p->log[--p->log_len];
        list_2opt(p, a, c, b, d);
    }
    while (!p->list && p->log_len > 0) {
        int len = p->log[--p->log_len];
        int from = p->log[--p->log_len];
        reverse_range(p, from, len);
    }
    p->logging = true;
    p->length = length;
    while (p->q_count > 0) pop(p); /* nothing is left to look at */
}
