/*
 * or3opt.c - direction-keeping 3-opt moves of the engine (wt_ls_moves.or3):
 * segment exchanges without reversal, Or's segment insertion grown to any
 * length (the "or3" move of Johnson & McGeoch 1997, section 3.2; the pure
 * 3-opt reconnection a'b'c').
 *
 * Removing three edges cuts the tour into three paths A B C; exactly one
 * way of joining them again keeps every path's direction: A C B.  On the
 * symmetric instance of an asymmetric one (core/atsp.c: city i, its twin
 * n + i joined by a fixed edge of cost 0, costs M between two cities or
 * two twins) every tour alternates fixed twin edges with real ones, so a
 * reversal of any path either removes a fixed edge or adds an edge of cost
 * M: 2-opt and every flip of LK's step (lk.c) find nothing there, Or-opt
 * only the relocation of one city with its twin.  This move is the 3-opt
 * that remains (together with the double bridge of the kicks, which keeps
 * directions too).
 *
 * Sequential search from a city t1, in each tour direction (next, or prev
 * for the mirror image): t2 follows t1; the edge (t1 t2) goes, (t2 t3)
 * comes for a candidate t3 of t2, (t3 t4) goes with t4 following t3, (t4
 * t5) comes for a candidate t5 of t4 lying on the path t2 .. t3 (t5 !=
 * t3), (t5 t6) goes with t6 following t5, and (t6 t1) closes: the tour
 * t1 [t6 .. t3] [t2 .. t5] t4.  The partial gains stay positive (lists
 * sorted by distance end each scan early, as LK's gain criterion); the
 * first improving move is applied.  No fixed edge is removed.
 *
 * Where no single exchange gains, a chain of them: the closing edge (t6
 * t1) of one exchange is the first edge the next removes, so the chain is
 * a variable-depth move whose step is the exchange, as LK's step is the
 * flip (lk.c); up to CHAIN_DEPTH levels, the best alternatives by partial
 * gain at the first two (3, then 2), one below, and the best closed prefix
 * is kept.  One exchange alone leaves ftv38 and kro124p stuck a few tenths
 * of a percent above their optima on every seed; the chains reach them
 * (bench/RESULTS.md, "Why direction-keeping exchanges, in chains").
 *
 * On the array the exchange of two adjacent paths is three reversals
 * (reverse each, then both), and since A C B, B A C and C B A are one
 * cyclic tour, the two adjacent paths exchanged are the shortest pair: a
 * move costs at most 2n / 3 positions.  Whole tours only (not paths), not
 * on a list.
 */
#include "ls/ls_impl.h"

/* Levels of a chain of exchanges (or_chain), and the alternatives tried
 * at its first levels (one at every deeper level): 10 deep against 6 and
 * 16, breadth 3, 2 against 5, 3, 2 and 2, 1 reached the ATSP optima
 * soonest (bench/RESULTS.md, "Why direction-keeping exchanges"). */
enum { CHAIN_DEPTH = 10, CHAIN_BREADTH_MAX = 3 };
static int chain_breadth(int level)
{
    static const int first[] = {CHAIN_BREADTH_MAX, 2};
    return level < 2 ? first[level] : 1;
}

/* The position after which the tour edge (a b) lies (array order). */
static int cut_after(const wt_ls_tour *t, int a, int b)
{
    return wt_ls_tour_next(t, a) == b ? t->pos[a] : t->pos[b];
}

/* Exchanges the adjacent ranges of positions from..from+l1-1 and the l2
 * after it (cyclically), each keeping its direction: three reversals,
 * noted in rev (from, len pairs) when not NULL. */
static void swap_ranges(wt_ls_tour *t, int from, int l1, int l2, int32_t *rev)
{
    const int32_t r[6] = {from, l1, wt_ls_tour_wrap(t, from + l1), l2, from, l1 + l2};
    for (int x = 0; x < 6; x += 2) wt_ls_tour_reverse(t, r[x], r[x + 1]);
    if (rev)
        for (int x = 0; x < 6; x++) rev[x] = r[x];
}

/* ls_or3_apply, noting its reversals in rev (NULL: not). */
static void exchange(wt_ls_tour *t, int i, int j, int k, int32_t *rev)
{
    /* In cyclic order from i: the paths X = i+1..j, Y = j+1..k, Z = k+1..i. */
    int dj = wt_ls_tour_wrap(t, j - i), dk = wt_ls_tour_wrap(t, k - i);
    if (dk < dj) {
        int s = j;
        j = k;
        k = s;
        s = dj;
        dj = dk;
        dk = s;
    }
    int lx = dj, ly = dk - dj, lz = t->n - dk;
    if (lx + ly <= ly + lz && lx + ly <= lz + lx)
        swap_ranges(t, wt_ls_tour_wrap(t, i + 1), lx, ly, rev);
    else if (ly + lz <= lz + lx)
        swap_ranges(t, wt_ls_tour_wrap(t, j + 1), ly, lz, rev);
    else
        swap_ranges(t, wt_ls_tour_wrap(t, k + 1), lz, lx, rev);
}

void ls_or3_apply(wt_ls *e, int i, int j, int k)
{
    exchange(&e->t, i, j, k, NULL);
    e->moves_or3++;
}

/* The exchange that removes (t1 t2), (t3 t4), (t5 t6) and adds (t2 t3),
 * (t4 t5), (t6 t1): c[0..5] = t1..t6. */
static void exchange_cities(wt_ls_tour *t, const int32_t c[6], int32_t *rev)
{
    exchange(t, cut_after(t, c[0], c[1]), cut_after(t, c[2], c[3]), cut_after(t, c[4], c[5]),
             rev);
}

/* ------------------------------------------------------ one exchange */

/* The exchanges with (t1 t2) removed, t2 following t1 in direction fwd;
 * the first that shortens the tour is made (true). */
static bool try_from(wt_ls *e, int t1, bool fwd)
{
    wt_ls_tour *t = &e->t;
    int t2 = fwd ? wt_ls_tour_next(t, t1) : wt_ls_tour_prev(t, t1);
    if (wt_ls_tour_fixed_edge(t, t1, t2)) return false;
    int64_t g0 = ls_dist(e, t1, t2);
    const int32_t *nb2 = e->nb + (size_t)t2 * (size_t)e->k;
    for (int x = 0; x < e->k; x++) {
        int t3 = nb2[x];
        if (t3 < 0) break;
        int64_t g1 = g0 - ls_dist(e, t2, t3);
        if (g1 <= 0) {
            if (ls_by_distance(e)) break;
            continue;
        }
        if (t3 == t1) continue;
        int t4 = fwd ? wt_ls_tour_next(t, t3) : wt_ls_tour_prev(t, t3);
        if (wt_ls_tour_fixed_edge(t, t3, t4)) continue;
        int64_t g2 = g1 + ls_dist(e, t3, t4);
        const int32_t *nb4 = e->nb + (size_t)t4 * (size_t)e->k;
        for (int y = 0; y < e->k; y++) {
            int t5 = nb4[y];
            if (t5 < 0) break;
            int64_t g3 = g2 - ls_dist(e, t4, t5);
            if (g3 <= 0) {
                if (ls_by_distance(e)) break;
                continue;
            }
            /* t5 on the path t2 .. t3 in direction fwd, not t3. */
            if (t5 == t3 || !(fwd ? wt_ls_tour_between(t, t2, t5, t3)
                                  : wt_ls_tour_between(t, t3, t5, t2)))
                continue;
            int t6 = fwd ? wt_ls_tour_next(t, t5) : wt_ls_tour_prev(t, t5);
            if (wt_ls_tour_fixed_edge(t, t5, t6)) continue;
            int64_t gain = g3 + ls_dist(e, t5, t6) - ls_dist(e, t6, t1);
            if (gain <= 0) continue;
            const int32_t c[6] = {t1, t2, t3, t4, t5, t6};
            e->length -= gain;
            exchange_cities(t, c, NULL);
            e->moves_or3++;
            for (int z = 0; z < 6; z++) ls_push(e, c[z]);
            return true;
        }
    }
    return false;
}

/* ------------------------------------------------- chains of exchanges */

/* A chain of exchanges from t1 in direction fwd: each level is an
 * exchange whose first removed edge is the closing edge (t1 last) of the
 * level before, so that the chain is a variable-depth move built of
 * direction-keeping 3-opt steps, as LK's is of flips (lk.c; LKH's
 * sequential moves hold the same reconnections).  g is the partial gain:
 * removed minus added, the closing edge not counted.  Lin & Kernighan's
 * restrictions: an edge added is not removed again, one removed not
 * added. */
typedef struct or_chain {
    int t1;
    bool fwd;
    int levels;
    int32_t cities[6 * CHAIN_DEPTH]; /* t1..t6 of each level */
    int32_t rev[6 * CHAIN_DEPTH];    /* each level's three reversals */
    int32_t added[4 * CHAIN_DEPTH], removed[4 * CHAIN_DEPTH + 2]; /* pairs */
    int n_added, n_removed;
    int64_t best_gain; /* of the best closed tour so far (0: none better) */
    int best_levels;
} or_chain;

typedef struct or_alt {
    int32_t c[6];  /* t1..t6 */
    int64_t g;     /* the partial gain after it */
} or_alt;

static bool has_edge(const int32_t *pairs, int count, int a, int b)
{
    for (int x = 0; x < 2 * count; x += 2)
        if ((pairs[x] == a && pairs[x + 1] == b) || (pairs[x] == b && pairs[x + 1] == a))
            return true;
    return false;
}

/* Inserts a into alt[0..*count-1], sorted by g (largest first), keeping
 * the breadth best. */
static void keep_alt(or_alt *alt, int *count, int breadth, const or_alt *a)
{
    int y = *count < breadth ? (*count)++ : breadth;
    if (y == breadth && a->g <= alt[breadth - 1].g) return;
    if (y == breadth) y = breadth - 1;
    for (; y > 0 && alt[y - 1].g < a->g; y--) alt[y] = alt[y - 1];
    alt[y] = *a;
}

/* The breadth best exchanges from the chain's free end `last` (partial
 * gain g), by the partial gain after them; how many. */
static int chain_alternatives(const wt_ls *e, const or_chain *ch, int last, int64_t g,
                              int breadth, or_alt *alt)
{
    const wt_ls_tour *t = &e->t;
    bool fwd = ch->fwd;
    int count = 0;
    const int32_t *nb2 = e->nb + (size_t)last * (size_t)e->k;
    for (int x = 0; x < e->k; x++) {
        int t3 = nb2[x];
        if (t3 < 0) break;
        int64_t g1 = g - ls_dist(e, last, t3);
        if (g1 <= ch->best_gain) {
            if (ls_by_distance(e)) break;
            continue;
        }
        if (t3 == ch->t1) continue;
        int t4 = fwd ? wt_ls_tour_next(t, t3) : wt_ls_tour_prev(t, t3);
        if (wt_ls_tour_fixed_edge(t, t3, t4) || has_edge(ch->added, ch->n_added, t3, t4) ||
            has_edge(ch->removed, ch->n_removed, last, t3))
            continue;
        int64_t g2 = g1 + ls_dist(e, t3, t4);
        const int32_t *nb4 = e->nb + (size_t)t4 * (size_t)e->k;
        for (int y = 0; y < e->k; y++) {
            int t5 = nb4[y];
            if (t5 < 0) break;
            int64_t g3 = g2 - ls_dist(e, t4, t5);
            if (g3 <= ch->best_gain) {
                if (ls_by_distance(e)) break;
                continue;
            }
            if (t5 == t3 || !(fwd ? wt_ls_tour_between(t, last, t5, t3)
                                  : wt_ls_tour_between(t, t3, t5, last)))
                continue;
            int t6 = fwd ? wt_ls_tour_next(t, t5) : wt_ls_tour_prev(t, t5);
            if (wt_ls_tour_fixed_edge(t, t5, t6) || has_edge(ch->added, ch->n_added, t5, t6) ||
                has_edge(ch->removed, ch->n_removed, t4, t5))
                continue;
            or_alt a = {{ch->t1, last, t3, t4, t5, t6}, g3 + ls_dist(e, t5, t6)};
            keep_alt(alt, &count, breadth, &a);
        }
    }
    return count;
}

static void chain_push(or_chain *ch, const or_alt *a, wt_ls_tour *t)
{
    int32_t *c = ch->cities + 6 * ch->levels;
    for (int x = 0; x < 6; x++) c[x] = a->c[x];
    exchange_cities(t, c, ch->rev + 6 * ch->levels);
    ch->levels++;
    int32_t *ad = ch->added + 2 * ch->n_added, *rm = ch->removed + 2 * ch->n_removed;
    ad[0] = c[1], ad[1] = c[2], ad[2] = c[3], ad[3] = c[4];
    rm[0] = c[2], rm[1] = c[3], rm[2] = c[4], rm[3] = c[5];
    ch->n_added += 2;
    ch->n_removed += 2;
}

static void chain_pop(or_chain *ch, wt_ls_tour *t)
{
    ch->levels--;
    const int32_t *r = ch->rev + 6 * ch->levels;
    for (int x = 4; x >= 0; x -= 2) wt_ls_tour_unreverse(t, r[x], r[x + 1]);
    ch->n_added -= 2;
    ch->n_removed -= 2;
}

/* The chain from `level` on, its free end last and partial gain g; true
 * once some closed tour of the chain beat the start (its levels then stay
 * for the caller to trim), else everything it did is undone. */
static bool chain_extend(wt_ls *e, or_chain *ch, int last, int64_t g, int level)
{
    or_alt alt[CHAIN_BREADTH_MAX];
    int count = chain_alternatives(e, ch, last, g, chain_breadth(level), alt);
    for (int i = 0; i < count; i++) {
        chain_push(ch, &alt[i], &e->t);
        int64_t closed = alt[i].g - ls_dist(e, alt[i].c[5], ch->t1);
        if (closed > ch->best_gain) {
            ch->best_gain = closed;
            ch->best_levels = ch->levels;
        }
        if (level + 1 < CHAIN_DEPTH && chain_extend(e, ch, alt[i].c[5], alt[i].g, level + 1))
            return true;
        if (ch->best_gain > 0) return true;
        chain_pop(ch, &e->t);
    }
    return false;
}

/* The chain from t1 in direction fwd; true when it shortened the tour. */
static bool chain_from(wt_ls *e, int t1, bool fwd)
{
    wt_ls_tour *t = &e->t;
    int t2 = fwd ? wt_ls_tour_next(t, t1) : wt_ls_tour_prev(t, t1);
    if (wt_ls_tour_fixed_edge(t, t1, t2)) return false;
    or_chain ch = {.t1 = t1, .fwd = fwd, .removed = {t1, t2}, .n_removed = 1};
    if (!chain_extend(e, &ch, t2, ls_dist(e, t1, t2), 0)) return false;
    while (ch.levels > ch.best_levels) chain_pop(&ch, t);
    e->length -= ch.best_gain;
    e->moves_or3++;
    for (int x = 0; x < 6 * ch.levels; x++) ls_push(e, ch.cities[x]);
    return true;
}

bool ls_or3_try(wt_ls *e, int c)
{
    return try_from(e, c, true) || try_from(e, c, false) || chain_from(e, c, true) ||
           chain_from(e, c, false);
}
