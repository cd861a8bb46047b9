/*
 * kopt_nonseq.c - the k-opt step's non-sequential move (moves.nonseq): an
 * improving double bridge from a city whose sequential step found nothing,
 * after Helsgaun 2009's non-sequential moves in their simplest form.
 *
 * A first 2-opt half removes (t1 t2) and (t3 t4), t3 a candidate of t2,
 * and adds (t2 t3) and (t4 t1): alone it would split the tour into two
 * cycles.  A second half removes an edge of each cycle, (p q) and (r s),
 * r a candidate of q, and adds (q r) and (s p), which joins them into one
 * tour: four edges out, four in, a move no sequential step makes.  Partial
 * gains stay positive as in the sequential search (under the same
 * pi-transformed lengths, ls_pi_dist), and the first move that gains is
 * made by two or three flips through the tour's interface (array or
 * two-level list; logged, so undo takes it back).
 */
#include "ls/ls_impl.h"

/* Most cities of the smaller cycle whose every edge the double bridge's
 * second half tries; beyond, only the cities among the first half's
 * candidates. */
enum { NONSEQ_SCAN = 50 };

/* A double bridge: the first half removes (t1 t2) and (t3 t4) and adds
 * (t2 t3) and (t4 t1), which splits the tour into the cycle X (t2 .. t3 in
 * the orientation, closed by (t3 t2)) and the cycle Y (t4 .. t1); the
 * second half removes (p q) of one cycle and (r s) of the other and adds
 * (q r) and (s p), which joins them into one tour. */
typedef struct nonseq_move {
    int t1, t2, t3, t4, p, q, r, s;
    bool fwd;     /* the orientation: t2 follows t1 by next */
    int64_t gain; /* under ls_pi_dist */
} nonseq_move;

static int next_o(const wt_ls *e, bool fwd, int c)
{
    return fwd ? wt_ls_tour_next(&e->t, c) : wt_ls_tour_prev(&e->t, c);
}

static int prev_o(const wt_ls *e, bool fwd, int c)
{
    return fwd ? wt_ls_tour_prev(&e->t, c) : wt_ls_tour_next(&e->t, c);
}

/* Whether c lies on the path from a to b in the orientation. */
static bool on_path(const wt_ls *e, bool fwd, int a, int c, int b)
{
    return fwd ? wt_ls_tour_between(&e->t, a, c, b) : wt_ls_tour_between(&e->t, b, c, a);
}

/* Cities of the path from a to b in the orientation, or cap + 1 when more. */
static int span_upto(const wt_ls *e, bool fwd, int a, int b, int cap)
{
    const wt_ls_tour *t = &e->t;
    if (wt_ls_tour_positional(t)) {
        int len = wt_ls_tour_wrap(t, fwd ? t->pos[b] - t->pos[a] : t->pos[a] - t->pos[b]) + 1;
        return len <= cap ? len : cap + 1;
    }
    int len = 1;
    for (int c = a; c != b; c = next_o(e, fwd, c))
        if (++len > cap) return cap + 1;
    return len;
}

/* Whether (a b) is one of the first half's removed edges. */
static bool first_half_removed(const nonseq_move *m, int a, int b)
{
    return (a == m->t1 && b == m->t2) || (a == m->t2 && b == m->t1) ||
           (a == m->t3 && b == m->t4) || (a == m->t4 && b == m->t3);
}

/* The second half from p (in X when in_x): true with *m complete when
 * the whole move gains, m->gain holding the first half's G on entry. */
static bool second_half(const wt_ls *e, nonseq_move *m, int p, bool in_x)
{
    const wt_ls_tour *t = &e->t;
    int first = in_x ? m->t2 : m->t4, last = in_x ? m->t3 : m->t1;
    int o_first = in_x ? m->t4 : m->t2, o_last = in_x ? m->t1 : m->t3;
    for (int side = 0; side < 2; side++) {
        if (p == (side == 0 ? last : first)) continue;
        int q = side == 0 ? next_o(e, m->fwd, p) : prev_o(e, m->fwd, p);
        if (wt_ls_tour_fixed_edge(t, p, q)) continue;
        int64_t gq = m->gain + ls_pi_dist(e, p, q);
        const int32_t *nb = e->nb + (size_t)q * (size_t)e->k;
        for (int x = 0; x < e->k; x++) {
            int r = nb[x];
            if (r < 0) break;
            int64_t g = gq - ls_pi_dist(e, q, r);
            if (g <= 0) {
                if (ls_by_distance(e)) break;
                continue;
            }
            if (first_half_removed(m, q, r) || !on_path(e, m->fwd, o_first, r, o_last)) continue;
            for (int side2 = 0; side2 < 2; side2++) {
                int s = side2 == 0 ? next_o(e, m->fwd, r) : prev_o(e, m->fwd, r);
                if (first_half_removed(m, r, s) || first_half_removed(m, s, p) ||
                    wt_ls_tour_fixed_edge(t, r, s))
                    continue;
                int64_t gain = g + ls_pi_dist(e, r, s) - ls_pi_dist(e, s, p);
                if (gain > 0) {
                    m->p = p;
                    m->q = q;
                    m->r = r;
                    m->s = s;
                    m->gain = gain;
                    return true;
                }
            }
        }
    }
    return false;
}

/* The second halves of the first half in *m: from every city of the
 * smaller cycle where it has at most NONSEQ_SCAN, else from the
 * candidates of t1 .. t4. */
static bool second_halves(const wt_ls *e, nonseq_move *m)
{
    int lx = span_upto(e, m->fwd, m->t2, m->t3, NONSEQ_SCAN);
    int ly = span_upto(e, m->fwd, m->t4, m->t1, NONSEQ_SCAN);
    if (lx <= NONSEQ_SCAN || ly <= NONSEQ_SCAN) {
        bool in_x = lx <= ly;
        int last = in_x ? m->t3 : m->t1;
        for (int p = in_x ? m->t2 : m->t4;; p = next_o(e, m->fwd, p)) {
            if (second_half(e, m, p, in_x)) return true;
            if (p == last) return false;
        }
    }
    const int ts[4] = {m->t1, m->t2, m->t3, m->t4};
    for (int i = 0; i < 4; i++) {
        const int32_t *nb = e->nb + (size_t)ts[i] * (size_t)e->k;
        for (int x = 0; x < e->k && nb[x] >= 0; x++) {
            int p = nb[x];
            if (second_half(e, m, p, on_path(e, m->fwd, m->t2, p, m->t3))) return true;
        }
    }
    return false;
}

/* An improving double bridge from t1 (first improvement) into *m. */
static bool find_double_bridge(const wt_ls *e, int t1, nonseq_move *m)
{
    const wt_ls_tour *t = &e->t;
    for (int dir = 0; dir < 2; dir++) {
        int t2 = dir == 0 ? wt_ls_tour_next(t, t1) : wt_ls_tour_prev(t, t1);
        if (wt_ls_tour_fixed_edge(t, t1, t2)) continue;
        bool fwd = dir == 0;
        int prev2 = prev_o(e, fwd, t2), next2 = next_o(e, fwd, t2);
        int64_t g0 = ls_pi_dist(e, t1, t2);
        const int32_t *nb = e->nb + (size_t)t2 * (size_t)e->k;
        for (int x = 0; x < e->k; x++) {
            int t3 = nb[x];
            if (t3 < 0) break;
            int64_t g1 = g0 - ls_pi_dist(e, t2, t3);
            if (g1 <= 0) {
                if (ls_by_distance(e)) break;
                continue;
            }
            if (t3 == prev2 || t3 == next2) continue;
            int t4 = next_o(e, fwd, t3);
            if (t4 == t1 || next_o(e, fwd, t4) == t1 || wt_ls_tour_fixed_edge(t, t3, t4)) continue;
            *m = (nonseq_move){.t1 = t1, .t2 = t2, .t3 = t3, .t4 = t4, .fwd = fwd};
            m->gain = g1 + ls_pi_dist(e, t3, t4) - ls_pi_dist(e, t4, t1);
            if (second_halves(e, m)) return true;
        }
    }
    return false;
}

/* Makes the double bridge m (found in the orientation m->fwd): with X cut
 * into X1 X2 and Y into Y1 Y2 by the second half's edges, the tour X1 X2
 * Y1 Y2 becomes X1 Y1' Y2' X2 (reversed) or X1 Y2 Y1 X2, as the second
 * half's added edges say: two or three flips. */
static void make_double_bridge(wt_ls *e, const nonseq_move *m)
{
    bool p_in_x = on_path(e, m->fwd, m->t2, m->p, m->t3);
    int xa = p_in_x ? m->p : m->r, xb = p_in_x ? m->q : m->s;
    int ya = p_in_x ? m->r : m->p, yb = p_in_x ? m->s : m->q;
    bool x_fwd = next_o(e, m->fwd, xa) == xb, y_fwd = next_o(e, m->fwd, ya) == yb;
    int x_e = x_fwd ? xa : xb, x_s = x_fwd ? xb : xa;
    int y_e = y_fwd ? ya : yb, y_s = y_fwd ? yb : ya;
    /* (q r) is (x_e y_s) or (x_s y_e): no reversal. */
    bool straight = (m->q == x_e && m->r == y_s) || (m->q == y_s && m->r == x_e) ||
                    (m->q == x_s && m->r == y_e) || (m->q == y_e && m->r == x_s);
    wt_ls_tour *t = &e->t;
    wt_ls_tour_flip(t, x_e, x_s, y_e, y_s); /* X1 Y1' X2' Y2 */
    wt_ls_tour_flip(t, m->t4, m->t3, m->t1, m->t2); /* X1 Y1' Y2' X2 */
    if (straight) wt_ls_tour_flip(t, x_e, y_e, y_s, x_s); /* X1 Y2 Y1 X2 */
}

int64_t ls_double_bridge(wt_ls *e, int t1)
{
    nonseq_move m;
    if (!find_double_bridge(e, t1, &m)) return 0;
    make_double_bridge(e, &m);
    const int touched[8] = {m.t1, m.t2, m.t3, m.t4, m.p, m.q, m.r, m.s};
    for (int i = 0; i < 8; i++) ls_push(e, touched[i]);
    return ls_pi_gain(e, m.gain);
}
