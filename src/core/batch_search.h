/*
 * batch_search.h - the steps of solve-batch's search, shared by the CPU and
 * GPU implementations so that both take the very same steps.
 *
 * Each instance of a batch is solved by Iterated Local Search (Lourenço,
 * Martin & Stützle, "Iterated Local Search", 2003): a descent from the start
 * tour, then kicks, each followed by a descent, keeping the kicked tour when
 * it is shorter (or, when asked, not longer) and going back otherwise.
 *
 * The tour is an array of cities with each city's position beside it, and
 * the length of the edge leaving each position (e[p]: tour[p] to
 * tour[p + 1], cyclically), exact integers.  A descent looks for moves
 * around a set of active cities only (don't-look bits, Bentley 1992): for
 * each active city a, each of its k nearest cities c and each of 12
 * variants, one move that makes (a, c) a tour edge:
 *
 *   variant 0, 1   2-opt: a's and c's successor edges (0) or predecessor
 *                  edges (1) are replaced by (a, c) and the edge between
 *                  their other ends;
 *   variant 2-11   Or-opt (Or 1976): a segment of 1, 2 or 3 cities with a at
 *                  one end leaves its place (its neighbours are joined) and
 *                  goes between c and c's successor or predecessor, a next
 *                  to c (1 city: 2 variants; 2 and 3 cities: a at the
 *                  front or the back, 4 each);
 *   variant 12..   with a breadth b > 0, 2 b sequential 3-opt moves (Lin &
 *                  Kernighan 1973, depth 3): the 2-opt of variant 0 (the
 *                  first b) or 1, whose closing edge (t1, t4) joins a's and
 *                  c's old neighbours, followed by a second 2-opt that
 *                  removes that edge again and joins t4 to t5, one of t4's
 *                  b nearest cities, and t5's tour neighbour t6 to t1.
 *
 * Every item (a, slot, variant) has a number, (a * k + slot) * V +
 * variant with V = 12 + 2 b, and a step applies the move of least exact
 * delta, ties to the
 * lower number: best improvement over the active cities' moves, whatever
 * order (or thread) evaluated them.  Items whose new edge (a, c) is not
 * shorter than the longest edge they remove at a are not evaluated (Lin &
 * Kernighan's gain criterion, wt_bs_gain_ok), nor 3-opt items whose gain
 * after the edge (t4, t5) is not positive.  Cities with no improving
 * move become inactive; the ends of every edge a move or kick changes
 * become active.
 * The descent ends when no active city has an improving move.
 *
 * A move is applied as at most three reversals of cyclic ranges of
 * positions (wt_bs_reversals), the shorter way round the cycle; each
 * reversal reverses the edge lengths inside its range and recomputes the
 * two at its ends.  Kicks are segment swaps (A B C -> A C B, three cuts)
 * or double bridges (A B C D -> A D C B, four cuts: what no sequential
 * 3-opt move undoes) within a window of consecutive positions, the whole
 * tour by default (wt_bs_kick), drawn from a random stream that is a function of
 * (seed, instance number, kick number) alone; a kicked tour is kept when
 * its descent ends shorter, equal, or a little longer (wt_bs_accept_slack),
 * and the best tour seen is the result.
 *
 * All of it is integer work on arrays that the caller owns; distances are
 * the caller's (exact TSPLIB distances on both sides), so the functions
 * here are the same code on the host and in device code (WT_HD).
 */
#ifndef WT_CORE_BATCH_SEARCH_H
#define WT_CORE_BATCH_SEARCH_H

#include <stdbool.h>
#include <stdint.h>

#include "core/climb_start.h"
#include "core/rng.h"

enum {
    WT_BS_VARIANTS = 12,      /* moves per (city, neighbour): 2 2-opt, 10 Or-opt */
    WT_BS_MAX_BREADTH = 16,   /* 3-opt items: most of t4's nearest cities tried */
    WT_BS_MIN_KICK_CITIES = 8 /* fewer cities: no kicks, the first descent only */
};

/* A planned move: the edges it removes (positions) and the new edges whose
 * lengths the caller computes; the new edge (a, c) is the item's own. */
typedef struct wt_bs_move {
    bool or_opt;      /* else 2-opt, or 3-opt when seq3 */
    bool seq3;        /* sequential 3-opt: the 2-opt of x and y, then that of
                         x2 and y2 on the tour it makes */
    int x, y;         /* 2-opt: the edges at positions x and y are replaced */
    int x2, y2;
    int s, len, g;    /* Or-opt: the segment at positions s .. s+len-1 goes
                         into the edge at position g */
    bool flip;        /* Or-opt: the segment goes in reversed */
    int at_a;         /* the removed edge at a: rem[at_a] (Or-opt of one city: both
                         rem[0] and rem[1]) */
    int n_rem;        /* removed edges: 2 (2-opt) or 3 (Or-opt) */
    int rem[3];       /* their positions */
    int n_add;        /* new edges besides (a, c): 1 (2-opt) or 2 (Or-opt) */
    int32_t add_u[2], add_w[2];
} wt_bs_move;

/* A reversal of the len positions from `from` on, cyclically. */
typedef struct wt_bs_reversal {
    int from, len;
} wt_bs_reversal;

/* A kick: the segments at positions from+1 .. from+l1 and the l2 after them
 * swap places (l3 = 0: three edges change), or with the l3 after those
 * the three come back in the reverse order, each as it was (a double
 * bridge: four edges change). */
typedef struct wt_bs_kick_cut {
    int from, l1, l2, l3;
} wt_bs_kick_cut;

/* p modulo n for p in [-n, 2n). */
static inline WT_HD int wt_bs_wrap(int p, int n)
{
    return p < 0 ? p + n : p >= n ? p - n : p;
}

/* The 3-opt breadth of an instance of n cities in a search that gives
 * breadth to instances of `from` cities or more, and the edges of its
 * kicks: kick_edges, or where that is 0, four with 3-opt items (which
 * undo most kicks of three) and three without. */
static inline WT_HD int wt_bs_breadth_of(int n, int breadth, int from)
{
    return n >= from ? breadth : 0;
}

static inline WT_HD int wt_bs_kick_edges_of(int breadth, int kick_edges)
{
    return kick_edges ? kick_edges : breadth > 0 ? 4 : 3;
}

/* Items per (city, slot) with 3-opt items of breadth b (0: none). */
static inline WT_HD int wt_bs_variants(int breadth) { return WT_BS_VARIANTS + 2 * breadth; }

/* The tie-break number of item (a, slot, variant v), k slots a city and
 * `per` variants a slot (wt_bs_variants). */
static inline WT_HD int32_t wt_bs_item_id(int a, int slot, int v, int k, int per)
{
    return ((int32_t)a * k + slot) * per + v;
}

/* Or-opt variant v (2..11): segment length, a at its front, c before it. */
static inline WT_HD void wt_bs_or_variant(int v, int *len, bool *a_first, bool *after)
{
    int o = v - 2;
    if (o < 2) {
        *len = 1;
        *a_first = true;
        *after = o == 0;
        return;
    }
    o -= 2;
    *len = 2 + o / 4;
    *a_first = (o & 2) == 0;
    *after = (o & 1) == 0;
}

/* A 2-opt flip of the edges at positions x and y, the shorter way round. */
static inline WT_HD wt_bs_reversal wt_bs_flip(int x, int y, int n)
{
    int inner = wt_bs_wrap(y - x, n); /* positions x+1 .. y */
    if (inner <= n - inner) return (wt_bs_reversal){wt_bs_wrap(x + 1, n), inner};
    return (wt_bs_reversal){wt_bs_wrap(y + 1, n), n - inner};
}

/* 2-opt on the edges at positions x and y: false when they touch. */
static inline WT_HD bool wt_bs_plan_2opt(const int32_t *tour, int n, int x, int y, bool succ,
                                         wt_bs_move *m)
{
    int gap = wt_bs_wrap(y - x, n);
    if (gap <= 1 || gap == n - 1) return false;
    m->or_opt = false;
    m->seq3 = false;
    m->at_a = 0;
    m->x = x;
    m->y = y;
    m->n_rem = 2;
    m->rem[0] = x;
    m->rem[1] = y;
    m->n_add = 1;
    m->add_u[0] = succ ? tour[wt_bs_wrap(x + 1, n)] : tour[x];
    m->add_w[0] = succ ? tour[wt_bs_wrap(y + 1, n)] : tour[y];
    return true;
}

/* Or-opt variant v (2..11) joining a (at position i) to c (at j). */
static inline WT_HD bool wt_bs_plan_or(const int32_t *tour, int n, int i, int j, int v,
                                       wt_bs_move *m)
{
    int len;
    bool a_first, after;
    wt_bs_or_variant(v, &len, &a_first, &after);
    if (n < len + 3) return false;
    int s = a_first ? i : wt_bs_wrap(i - len + 1, n);
    int xp = after ? wt_bs_wrap(j + 1, n) : wt_bs_wrap(j - 1, n); /* c's partner */
    if (wt_bs_wrap(j - s, n) < len || wt_bs_wrap(xp - s, n) < len) return false;
    int last = wt_bs_wrap(s + len - 1, n);
    m->or_opt = true;
    m->seq3 = false;
    m->s = s;
    m->len = len;
    m->g = after ? j : xp;
    m->flip = a_first != after; /* a must come out next to c */
    m->at_a = a_first ? 0 : 1;
    m->n_rem = 3;
    m->rem[0] = wt_bs_wrap(s - 1, n);
    m->rem[1] = last;
    m->rem[2] = m->g;
    m->n_add = 2;
    m->add_u[0] = tour[m->rem[0]]; /* the segment's neighbours, joined */
    m->add_w[0] = tour[wt_bs_wrap(s + len, n)];
    m->add_u[1] = a_first ? tour[last] : tour[s]; /* its other end, to c's partner */
    m->add_w[1] = tour[xp];
    return true;
}

/* Plans variant v of the move that joins a to c (a != c) on a tour of n
 * cities; false when the variant does not apply (edges that touch, c
 * inside the segment, too few cities). */
static inline WT_HD bool wt_bs_plan(const int32_t *tour, const int32_t *pos, int n, int a, int c,
                                    int v, wt_bs_move *m)
{
    const int i = pos[a], j = pos[c];
    if (v == 0) return wt_bs_plan_2opt(tour, n, i, j, true, m);
    if (v == 1)
        return wt_bs_plan_2opt(tour, n, wt_bs_wrap(i - 1, n), wt_bs_wrap(j - 1, n), false, m);
    return wt_bs_plan_or(tour, n, i, j, v, m);
}

/* Where position p lies after the reversal r. */
static inline WT_HD int wt_bs_reflect(int p, wt_bs_reversal r, int n)
{
    int off = wt_bs_wrap(p - r.from, n);
    return off < r.len ? wt_bs_wrap(r.from + r.len - 1 - off, n) : p;
}

/* The city lists a descent's items are drawn from: each city's k nearest
 * (n rows of k, -1 past the last) with their lengths, and the 3-opt items'
 * breadth (0 .. k; 0: none). */
typedef struct wt_bs_lists {
    const int32_t *nb;
    const int64_t *nbd;
    int k, breadth;
} wt_bs_lists;

/* Sequential 3-opt item o (0 .. 2 breadth - 1) joining a to c (the
 * slot's city, dac away): the 2-opt of variant 0 (o < breadth) or 1 whose
 * closing edge (t1, t4) the second 2-opt takes out again, joining t4 to
 * t5 (its list's entry o % breadth) and t1 to t5's neighbour t6 on the
 * side that makes a tour.  False where an end coincides, or where the
 * gain after (a, c) or after (t4, t5) is not positive (Lin & Kernighan's
 * criterion at both levels). */
static inline WT_HD bool wt_bs_plan_3opt(const int32_t *tour, const int32_t *pos,
                                         const int64_t *e, int n, const wt_bs_lists *L, int a,
                                         int c, int64_t dac, int o, wt_bs_move *m)
{
    const bool succ = o < L->breadth;
    const int i = pos[a], j = pos[c];
    const int x = succ ? i : wt_bs_wrap(i - 1, n), y = succ ? j : wt_bs_wrap(j - 1, n);
    const int64_t g1 = e[x] - dac;
    if (g1 <= 0 || !wt_bs_plan_2opt(tour, n, x, y, succ, m)) return false;
    const int32_t t1 = m->add_u[0], t4 = m->add_w[0];
    const int s2 = succ ? o : o - L->breadth;
    const int32_t t5 = L->nb[t4 * L->k + s2];
    if (t5 < 0 || t5 == t1 || t5 == c || g1 + e[y] - L->nbd[t4 * L->k + s2] <= 0) return false;
    /* Positions on the tour after the first flip: t1 and t4 are neighbours
     * there, joined by the edge at P; t5 and t6 by the edge at Q. */
    const wt_bs_reversal r1 = wt_bs_flip(x, y, n);
    const int p1 = wt_bs_reflect(pos[t1], r1, n), p4 = wt_bs_reflect(pos[t4], r1, n);
    const int p5 = wt_bs_reflect(pos[t5], r1, n);
    const bool t4_after = wt_bs_wrap(p1 + 1, n) == p4;
    const int P = t4_after ? p1 : p4, Q = t4_after ? wt_bs_wrap(p5 - 1, n) : p5;
    const int gap = wt_bs_wrap(Q - P, n);
    if (gap <= 1 || gap == n - 1) return false;
    const int32_t t6 = tour[wt_bs_reflect(t4_after ? Q : wt_bs_wrap(Q + 1, n), r1, n)];
    if (t5 == a && t6 == c) return false; /* the edge just made */
    m->seq3 = true;
    m->x2 = P;
    m->y2 = Q;
    m->n_rem = 3;
    m->rem[2] = wt_bs_wrap(pos[t5] + 1, n) == pos[t6] ? pos[t5] : pos[t6];
    m->n_add = 2;
    m->add_u[0] = t4;
    m->add_w[0] = t5;
    m->add_u[1] = t6;
    m->add_w[1] = t1;
    return true;
}

/* Plans item (a, slot, v) of L's lists: false where there is no such move. */
static inline WT_HD bool wt_bs_plan_item(const int32_t *tour, const int32_t *pos,
                                         const int64_t *e, int n, const wt_bs_lists *L, int a,
                                         int slot, int v, wt_bs_move *m)
{
    const int32_t c = L->nb[a * L->k + slot];
    if (c < 0) return false;
    if (v < WT_BS_VARIANTS) return wt_bs_plan(tour, pos, n, a, c, v, m);
    return wt_bs_plan_3opt(tour, pos, e, n, L, a, c, L->nbd[a * L->k + slot], v - WT_BS_VARIANTS,
                           m);
}

/* The position of the fixed edge of an instance searched with fixed ends:
 * the edge that joins its cities 0 and n - 1, which no move and no kick
 * removes (a window of a larger tour: a path from city 0 to city n - 1,
 * closed by that edge).  The tour must hold it. */
static inline WT_HD int wt_bs_fixed_at(const int32_t *pos, int n)
{
    int p0 = pos[0], p1 = pos[n - 1];
    return wt_bs_wrap(p0 + 1, n) == p1 ? p0 : p1;
}

/* Whether m keeps the edge at position fixed (-1: none is fixed). */
static inline WT_HD bool wt_bs_keeps(const wt_bs_move *m, int fixed)
{
    return m->rem[0] != fixed && m->rem[1] != fixed && (m->n_rem < 3 || m->rem[2] != fixed);
}

/* Whether m passes Lin & Kernighan's gain criterion (1973): the new edge
 * (a, c), of length dac, is shorter than the longest removed edge at a.
 * Items that fail are not evaluated: on both sides alike, so the steps stay
 * the same, and most items fail at the cost of one comparison (1,000
 * cities: twice the kicks a second, no worse a tour after as many;
 * docs/batch.md). */
static inline WT_HD bool wt_bs_gain_ok(const wt_bs_move *m, const int64_t *e, int64_t dac)
{
    int64_t e0 = e[m->rem[0]], e1 = e[m->rem[1]]; /* constant indices: registers on a GPU */
    int64_t at = m->at_a ? e1 : e0;
    if (m->or_opt && m->len == 1 && e1 > at) at = e1;
    return dac < at;
}

/* The reversals that apply m, in order, into r; returns their number
 * (1-3).  Each goes the shorter way round the cycle. */
static inline WT_HD int wt_bs_reversals(const wt_bs_move *m, int n, wt_bs_reversal r[3])
{
    if (m->seq3) {
        r[0] = wt_bs_flip(m->x, m->y, n);
        r[1] = wt_bs_flip(m->x2, m->y2, n);
        return 2;
    }
    if (!m->or_opt) {
        r[0] = wt_bs_flip(m->x, m->y, n);
        return 1;
    }
    /* The segment S moves forward over G (positions s+len .. g) or back
     * over H (g+1 .. s-1): [S G] -> [G S'] or [H S] -> [S' H], each a
     * reversal of the block, then of its two parts (S' = S reversed when
     * flip, so its part is left as the block's reversal made it). */
    int len = m->len, k = 0;
    int G = wt_bs_wrap(m->g - m->s - len, n) + 1, H = n - len - G;
    if (G <= H) {
        r[k++] = (wt_bs_reversal){m->s, len + G};
        r[k++] = (wt_bs_reversal){m->s, G};
        if (!m->flip && len > 1) r[k++] = (wt_bs_reversal){wt_bs_wrap(m->s + G, n), len};
    } else {
        int from = wt_bs_wrap(m->g + 1, n);
        r[k++] = (wt_bs_reversal){from, len + H};
        r[k++] = (wt_bs_reversal){wt_bs_wrap(from + len, n), H};
        if (!m->flip && len > 1) r[k++] = (wt_bs_reversal){from, len};
    }
    return k;
}

/* Seeds the stream of kick number `kick` of instance `instance` of a batch
 * seeded with seed: a counter-based stream, so any kick can be drawn alone
 * (climb_start.h's streams, one family an instance). */
static inline WT_HD void wt_bs_kick_rng(wt_rng *rng, uint64_t seed, uint64_t instance,
                                        uint64_t kick)
{
    uint64_t st = instance ^ 0x6a09e667f3bcc909ULL;
    wt_climb_rng(rng, seed ^ wt_splitmix64(&st), kick);
}

/* Kick number `kick` of an instance of n >= WT_BS_MIN_KICK_CITIES cities:
 * `edges` (3 or 4) distinct cuts among the `window` edges from a position
 * uniform over the tour (window >= 3; at least `edges` and at most n - 1
 * are used), none of them the edge at position fixed (-1: none is fixed;
 * cuts that take it are drawn again from the same stream, and after 64
 * draws the first cut goes just past it, from where no other can reach
 * it).  Three cuts make three segments, of which any two neighbours
 * swapped give the same tour: the two of least length are moved.  Four
 * make four, and any three neighbours coming back in reverse order give
 * the same tour: the longest stays. */
static inline WT_HD wt_bs_kick_cut wt_bs_kick(uint64_t seed, uint64_t instance, uint64_t kick,
                                              int n, int window, int fixed, int edges)
{
    wt_rng rng;
    wt_bs_kick_rng(&rng, seed, instance, kick);
    int w = window < edges ? edges : window;
    if (w > n - 1) w = n - 1;
    int from, u, t, v = 0;
    for (int draw = 0;; draw++) {
        from = (int)wt_rng_below(&rng, (uint64_t)n);
        /* Distinct offsets in [1, w): the other cuts. */
        u = 1 + (int)wt_rng_below(&rng, (uint64_t)(w - 1));
        t = 1 + (int)wt_rng_below(&rng, (uint64_t)(w - 2));
        if (t >= u) t++;
        if (edges == 4) {
            int lo = u < t ? u : t, hi = u < t ? t : u;
            v = 1 + (int)wt_rng_below(&rng, (uint64_t)(w - 3));
            if (v >= lo) v++;
            if (v >= hi) v++;
        }
        if (fixed < 0) break;
        if (draw == 64) from = wt_bs_wrap(fixed + 1, n);
        int off = wt_bs_wrap(fixed - from + n, n); /* fixed's offset from the first cut */
        if (off != 0 && off != u && off != t && (edges < 4 || off != v)) break;
    }
    int lo = u < t ? u : t, hi = u < t ? t : u;
    if (edges == 4) {
        int o1 = v < lo ? v : lo, o3 = v > hi ? v : hi, o2 = u + t + v - o1 - o3;
        int len[4] = {o1, o2 - o1, o3 - o2, n - o3}, at[4] = {from, 0, 0, 0}, most = 0;
        for (int q = 1; q < 4; q++) {
            at[q] = wt_bs_wrap(at[q - 1] + len[q - 1], n);
            if (len[q] > len[most]) most = q;
        }
        int f = (most + 1) & 3; /* the block: the three after the longest */
        return (wt_bs_kick_cut){at[f], len[f], len[(f + 1) & 3], len[(f + 2) & 3]};
    }
    int b = lo, c = hi - lo, a = n - b - c;
    if (b + c <= c + a && b + c <= a + b) return (wt_bs_kick_cut){from, b, c, 0};
    if (c + a <= a + b) return (wt_bs_kick_cut){wt_bs_wrap(from + b, n), c, a, 0};
    return (wt_bs_kick_cut){wt_bs_wrap(from + b + c, n), a, b, 0};
}

/* How much longer than the kept tour a kicked tour may come out of its
 * descent and still be kept: u times the mean edge of the kept tour times
 * slack / 1000, and times 300 / n above 300 cities, u uniform in [0, 1)
 * from the kick's own stream (0 when slack is 0).  Integer arithmetic, so
 * both sides keep the same tours.  A little slack lets a search leave a
 * local optimum that every kick leads back to; larger instances, far from
 * that point after as many kicks a city, want less, but not too little
 * after many kicks (docs/batch.md compares the rules; bench/RESULTS.md,
 * "Batches: solve-batch on issue 25's sets (bench batch)"). */
static inline WT_HD int64_t wt_bs_accept_slack(uint64_t seed, uint64_t instance, uint64_t kick,
                                               int64_t kept, int n, int slack)
{
    if (slack <= 0) return 0;
    wt_rng rng;
    wt_bs_kick_rng(&rng, ~seed, instance, kick);
    int64_t u = (int64_t)wt_rng_below(&rng, 65536);
    int64_t t = ((kept / n) * u >> 16) * slack / 1000;
    return n > 300 ? t * 300 / n : t;
}

/* The reversals of kick k, [B C] -> [C B] or [B C D] -> [D C B]; returns
 * their number (3 or 4). */
static inline WT_HD int wt_bs_kick_reversals(wt_bs_kick_cut k, int n, wt_bs_reversal r[4])
{
    int b = wt_bs_wrap(k.from + 1, n);
    if (k.l3 == 0) {
        r[0] = (wt_bs_reversal){b, k.l1 + k.l2};
        r[1] = (wt_bs_reversal){b, k.l2};
        r[2] = (wt_bs_reversal){wt_bs_wrap(b + k.l2, n), k.l1};
        return 3;
    }
    r[0] = (wt_bs_reversal){b, k.l1 + k.l2 + k.l3};
    r[1] = (wt_bs_reversal){b, k.l3};
    r[2] = (wt_bs_reversal){wt_bs_wrap(b + k.l3, n), k.l2};
    r[3] = (wt_bs_reversal){wt_bs_wrap(b + k.l3 + k.l2, n), k.l1};
    return 4;
}

/* The positions of the edges kick k removes (before) or makes (after);
 * returns their number (3 or 4). */
static inline WT_HD int wt_bs_kick_edges(wt_bs_kick_cut k, int n, bool after, int e[4])
{
    e[0] = k.from;
    if (k.l3 == 0) {
        e[1] = wt_bs_wrap(k.from + (after ? k.l2 : k.l1), n);
        e[2] = wt_bs_wrap(k.from + k.l1 + k.l2, n);
        return 3;
    }
    e[1] = wt_bs_wrap(k.from + (after ? k.l3 : k.l1), n);
    e[2] = wt_bs_wrap(k.from + (after ? k.l3 + k.l2 : k.l1 + k.l2), n);
    e[3] = wt_bs_wrap(k.from + k.l1 + k.l2 + k.l3, n);
    return 4;
}

/* Whether (d1, id1) ranks before (d2, id2): the lower delta, ties to the
 * lower item number. */
static inline WT_HD bool wt_bs_before(int64_t d1, int32_t id1, int64_t d2, int32_t id2)
{
    return d1 < d2 || (d1 == d2 && id1 < id2);
}

#endif
