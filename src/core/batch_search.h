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
 *                  front or the back, 4 each).
 *
 * Every item (a, slot, variant) has a number, (a * k + slot) * 12 +
 * variant, and a step applies the move of least exact delta, ties to the
 * lower number: best improvement over the active cities' moves, whatever
 * order (or thread) evaluated them.  Items whose new edge (a, c) is not
 * shorter than the longest edge they remove at a are not evaluated (Lin &
 * Kernighan's gain criterion, wt_bs_gain_ok).  Cities with no improving
 * move become inactive; the ends of every edge a move or kick changes
 * become active.
 * The descent ends when no active city has an improving move.
 *
 * A move is applied as at most three reversals of cyclic ranges of
 * positions (wt_bs_reversals), the shorter way round the cycle; each
 * reversal reverses the edge lengths inside its range and recomputes the
 * two at its ends.  Kicks are double bridges (segment swaps A B C -> A C B)
 * at three cuts within a window of consecutive positions, the whole tour by
 * default (wt_bs_kick), drawn from a random stream that is a function of
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
    WT_BS_MIN_KICK_CITIES = 8 /* fewer cities: no kicks, the first descent only */
};

/* A planned move: the edges it removes (positions) and the new edges whose
 * lengths the caller computes; the new edge (a, c) is the item's own. */
typedef struct wt_bs_move {
    bool or_opt;      /* else 2-opt */
    int x, y;         /* 2-opt: the edges at positions x and y are replaced */
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
 * swap places. */
typedef struct wt_bs_kick_cut {
    int from, l1, l2;
} wt_bs_kick_cut;

/* p modulo n for p in [-n, 2n). */
static inline WT_HD int wt_bs_wrap(int p, int n)
{
    return p < 0 ? p + n : p >= n ? p - n : p;
}

/* The tie-break number of item (a, slot, variant v), k slots a city. */
static inline WT_HD int32_t wt_bs_item_id(int a, int slot, int v, int k)
{
    return ((int32_t)a * k + slot) * WT_BS_VARIANTS + v;
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
 * three distinct cuts among the `window` edges from a position uniform
 * over the tour (window >= 3; at most n - 1 are used), none of them the
 * edge at position fixed (-1: none is fixed; cuts that take it are drawn
 * again from the same stream, and after 64 draws the first cut goes just
 * past it, from where no other can reach it).  Of the three segments the
 * cuts make, any two neighbours swapped give the same tour; the two of
 * least length are the ones moved. */
static inline WT_HD wt_bs_kick_cut wt_bs_kick(uint64_t seed, uint64_t instance, uint64_t kick,
                                              int n, int window, int fixed)
{
    wt_rng rng;
    wt_bs_kick_rng(&rng, seed, instance, kick);
    int w = window < n - 1 ? window : n - 1;
    int from, u, t;
    for (int draw = 0;; draw++) {
        from = (int)wt_rng_below(&rng, (uint64_t)n);
        /* Two distinct offsets in [1, w): the second and third cut. */
        u = 1 + (int)wt_rng_below(&rng, (uint64_t)(w - 1));
        t = 1 + (int)wt_rng_below(&rng, (uint64_t)(w - 2));
        if (t >= u) t++;
        if (fixed < 0) break;
        if (draw == 64) from = wt_bs_wrap(fixed + 1, n);
        int off = wt_bs_wrap(fixed - from + n, n); /* fixed's offset from the first cut */
        if (off != 0 && off != u && off != t) break;
    }
    int b = u < t ? u : t, c = (u < t ? t : u) - b, a = n - b - c;
    if (b + c <= c + a && b + c <= a + b) return (wt_bs_kick_cut){from, b, c};
    if (c + a <= a + b) return (wt_bs_kick_cut){wt_bs_wrap(from + b, n), c, a};
    return (wt_bs_kick_cut){wt_bs_wrap(from + b + c, n), a, b};
}

/* How much longer than the kept tour a kicked tour may come out of its
 * descent and still be kept: u times the mean edge of the kept tour times
 * slack / 1000, and times 300 / n above 300 cities, u uniform in [0, 1)
 * from the kick's own stream (0 when slack is 0).  Integer arithmetic, so
 * both sides keep the same tours.  A little slack lets a search leave a
 * local optimum that every kick leads back to (100 cities, 5000 kicks:
 * mean gap 0.080% without, 0.011% with a slack of 1000); larger instances,
 * far from that point after as many kicks a city, want less (1000 cities,
 * 20,000 kicks: 0.46% without, 0.63% with 1000), but not too little after
 * many kicks (128 x 1000 cities, 20 s on an H100, about 500,000 kicks each:
 * 0.278% without, 0.238% with 100 (the earlier rule, 100 / n), 0.182% with
 * 300; docs/batch.md). */
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

/* The reversals of kick k: [B C] -> [C B]; returns 3. */
static inline WT_HD int wt_bs_kick_reversals(wt_bs_kick_cut k, int n, wt_bs_reversal r[3])
{
    int b = wt_bs_wrap(k.from + 1, n);
    r[0] = (wt_bs_reversal){b, k.l1 + k.l2};
    r[1] = (wt_bs_reversal){b, k.l2};
    r[2] = (wt_bs_reversal){wt_bs_wrap(b + k.l2, n), k.l1};
    return 3;
}

/* The positions of the edges kick k removes (before) or makes (after). */
static inline WT_HD void wt_bs_kick_edges(wt_bs_kick_cut k, int n, bool after, int e[3])
{
    e[0] = k.from;
    e[1] = wt_bs_wrap(k.from + (after ? k.l2 : k.l1), n);
    e[2] = wt_bs_wrap(k.from + k.l1 + k.l2, n);
}

/* Whether (d1, id1) ranks before (d2, id2): the lower delta, ties to the
 * lower item number. */
static inline WT_HD bool wt_bs_before(int64_t d1, int32_t id1, int64_t d2, int32_t id2)
{
    return d1 < d2 || (d1 == d2 && id1 < id2);
}

#endif
