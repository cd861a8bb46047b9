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
 * On the array the exchange of two adjacent paths is three reversals
 * (reverse each, then both), and since A C B, B A C and C B A are one
 * cyclic tour, the two adjacent paths exchanged are the shortest pair: a
 * move costs at most 2n / 3 positions.  Whole tours only (not paths), not
 * on a list.
 */
#include "ls/ls_impl.h"

/* The position after which the tour edge (a b) lies (array order). */
static int cut_after(const wt_ls_tour *t, int a, int b)
{
    return wt_ls_tour_next(t, a) == b ? t->pos[a] : t->pos[b];
}

/* Exchanges the adjacent ranges of positions from..from+l1-1 and the l2
 * after it (cyclically), each keeping its direction. */
static void swap_ranges(wt_ls_tour *t, int from, int l1, int l2)
{
    wt_ls_tour_reverse(t, from, l1);
    wt_ls_tour_reverse(t, wt_ls_tour_wrap(t, from + l1), l2);
    wt_ls_tour_reverse(t, from, l1 + l2);
}

void ls_or3_apply(wt_ls *e, int i, int j, int k)
{
    wt_ls_tour *t = &e->t;
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
        swap_ranges(t, wt_ls_tour_wrap(t, i + 1), lx, ly);
    else if (ly + lz <= lz + lx)
        swap_ranges(t, wt_ls_tour_wrap(t, j + 1), ly, lz);
    else
        swap_ranges(t, wt_ls_tour_wrap(t, k + 1), lz, lx);
    e->moves_or3++;
}

/* Makes the move t1 [t6 .. t3] [t2 .. t5] t4 of gain `gain` (> 0). */
static void make_move(wt_ls *e, const int c[6], int64_t gain)
{
    const wt_ls_tour *t = &e->t;
    e->length -= gain;
    ls_or3_apply(e, cut_after(t, c[0], c[1]), cut_after(t, c[2], c[3]),
                 cut_after(t, c[4], c[5]));
    for (int x = 0; x < 6; x++) ls_push(e, c[x]);
}

/* The moves with (t1 t2) removed, t2 following t1 in direction fwd; true
 * when one was made. */
static bool try_from(wt_ls *e, int t1, bool fwd)
{
    const wt_ls_tour *t = &e->t;
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
            const int c[6] = {t1, t2, t3, t4, t5, t6};
            make_move(e, c, gain);
            return true;
        }
    }
    return false;
}

bool ls_or3_try(wt_ls *e, int c)
{
    return try_from(e, c, true) || try_from(e, c, false);
}
