/*
 * oropt.c - Or-opt moves of the engine: take out a segment of 1 to
 * WT_LS_OR_MAX consecutive cities (at most n - 2), close the gap, and
 * insert it, in either orientation, into an edge both of whose ends lie
 * outside the segment.
 *
 * On the array, moving segment S (positions i..i+L-1) into the edge (a b)
 * exchanges S with the block B = q..a that follows it, or with the block
 * C = b..p that precedes it, whichever is shorter: three reversals turn
 * S B into B S (reversing S, B, then both) or, leaving S alone, into
 * B S^r; likewise C S into S C or S^r C.  So a move costs O(min(moved
 * range, n / 2)).  The moves work on positions: not on a list.
 *
 * The neighbour-list move from a city c tries the segments of 1..3 cities
 * that start or end at c which put c next to a candidate d (either side of
 * d, the orientation that makes c the end touching d), in order of d's
 * distance, while (c d) is shorter than what taking the segment out saves.
 */
#include "ls/ls_impl.h"

void ls_oropt_apply(wt_ls *e, int i, int len, int a, bool rev)
{
    wt_ls_tour *t = &e->t;
    int n_b = wt_ls_tour_wrap(t, t->pos[a] - wt_ls_tour_wrap(t, i + len)) + 1; /* q .. a */
    int n_c = t->n - len - n_b;                                                /* b .. p */
    /* On a path (the segment and the edge then lie inside it), the block
     * exchanged is the one between them that does not wrap. */
    if (t->path ? t->pos[a] > i : n_b <= n_c) {
        if (!rev) wt_ls_tour_reverse(t, i, len);
        wt_ls_tour_reverse(t, wt_ls_tour_wrap(t, i + len), n_b);
        wt_ls_tour_reverse(t, i, len + n_b);
    } else {
        int c0 = wt_ls_tour_wrap(t, i - n_c);
        wt_ls_tour_reverse(t, c0, n_c);
        if (!rev) wt_ls_tour_reverse(t, i, len);
        wt_ls_tour_reverse(t, c0, n_c + len);
    }
    e->moves_oropt++;
}

bool ls_oropt_try(wt_ls *e, int c)
{
    wt_ls_tour *t = &e->t;
    const int32_t *nb = e->nb + (size_t)c * (size_t)e->k;
    for (int len = 1; len <= ls_or_max(e); len++) {
        for (int c_last = 0; c_last < (len > 1 ? 2 : 1); c_last++) {
            int i = wt_ls_tour_wrap(t, t->pos[c] - (c_last ? len - 1 : 0));
            if (t->path && (i == 0 || i + len >= t->n)) continue; /* would cut (n - 1, 0) */
            int s1 = wt_ls_tour_at(t, i), sl = wt_ls_tour_at(t, i + len - 1);
            int pp = wt_ls_tour_at(t, i - 1), q = wt_ls_tour_at(t, i + len);
            if (t->fixed && (wt_ls_tour_fixed_edge(t, pp, s1) || wt_ls_tour_fixed_edge(t, sl, q)))
                continue; /* would cut a fixed edge */
            int64_t gain = ls_dist(e, pp, s1) + ls_dist(e, sl, q) - ls_dist(e, pp, q);
            if (gain <= 0) continue;
            int other = c_last ? s1 : sl; /* the segment's far end from c */
            for (int x = 0; x < e->k; x++) {
                int d = nb[x];
                if (d < 0) break;
                int64_t dcd = ls_dist(e, c, d);
                if (dcd >= gain) {
                    if (ls_by_distance(e)) break;
                    continue;
                }
                if (wt_ls_tour_in_segment(t, d, i, len)) continue;
                /* d then c: into (d, next d); c then d: into (prev d, d). */
                for (int side = 0; side < 2; side++) {
                    int a = side == 0 ? d : wt_ls_tour_prev(t, d);
                    int b = side == 0 ? wt_ls_tour_next(t, d) : d;
                    int f = side == 0 ? b : a; /* the edge's other end, joined to `other` */
                    if (wt_ls_tour_in_segment(t, f, i, len) || wt_ls_tour_fixed_edge(t, a, b))
                        continue;
                    int64_t delta = dcd + ls_dist(e, other, f) - ls_dist(e, a, b) - gain;
                    if (delta >= 0) continue;
                    e->length += delta;
                    /* c is s1 and follows a, or is sl and precedes b: as is */
                    bool rev = (side == 0) == (bool)c_last;
                    ls_oropt_apply(e, i, len, a, rev && len > 1);
                    ls_push(e, pp);
                    ls_push(e, q);
                    ls_push(e, s1);
                    ls_push(e, sl);
                    ls_push(e, a);
                    ls_push(e, b);
                    return true;
                }
            }
        }
    }
    return false;
}
