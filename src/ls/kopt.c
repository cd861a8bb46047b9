/*
 * kopt.c - the LK step whose basic move is a sequential k-opt move
 * (wt_ls_moves.kopt = 3, 4 or 5), after Helsgaun 2000 ("An effective
 * implementation of the Lin-Kernighan traveling salesman heuristic", EJOR
 * 126: LKH's sequential 5-opt basic move) and Helsgaun 2009 ("General
 * k-opt submoves for the Lin-Kernighan TSP heuristic", Math. Prog. Comp. 1:
 * the feasibility test of a k-opt move by sorting its t's, the submoves).
 *
 * The basic move.  From t1 and t2, a tour neighbour of t1, the edge (t1 t2)
 * is removed; then, level by level, t(2i+1) is a candidate of t(2i) and
 * t(2i+2) either tour neighbour of t(2i+1): (t2i t2i+1) is added, (t2i+1
 * t2i+2) removed, while the partial gain G (lengths removed less lengths
 * added) stays positive after every added edge (the gain criterion).  The
 * tour is not changed while the move is searched, so every alternative of
 * every level is tried (depth first, up to k removed edges): unlike the flip
 * chain of lk.c, the levels between need not be tours.  From two removed
 * edges on, closing the move with (t2i t1) is tested: when that gains and
 * gives one cycle (the feasibility test below), the move is made at once
 * (first improvement, as LKH does).  An added edge is never a tour edge nor
 * added twice, a removed edge never removed twice or fixed
 * (wt_ls_tour_fixed_edge), so the t's describe a real exchange of i edges.
 *
 * The feasibility test (Helsgaun 2009's, in a form of our own):
 * the removed edges cut the tour into i segments.  Orient the tour so that
 * t2 follows t1; each removed edge has one end, lo, that the other follows,
 * and distinct edges have distinct lo's.  Sorting the edges by the position
 * of lo from t2 on (O(i log i) comparisons: positions on the array,
 * wt_ls_tour_between on the list) gives the segments in tour order, each
 * from the far end of one removed edge to the lo of the next.  Every t is
 * one end of one segment and one end of one added edge; walking from
 * segment to segment along the added edges visits all i segments before it
 * returns iff the move gives a tour.  The walk also says in which order and
 * direction the new tour passes the segments: a signed permutation.
 *
 * Making a move: the signed permutation is sorted by reversals of runs of
 * segments, each a flip (ls/tour.h), with one segment held still (one
 * of more than one city, so that no flip is empty).  The shortest sequence
 * of reversals for every signed permutation of up to k - 1 segments is found
 * once per engine by a breadth-first search (at most 384 permutations of
 * four segments, five reversals at most); a one-city segment's direction
 * does not matter, so the sequence taken is the shortest over its two
 * directions.  Flips go through the tour's interface, so the array and the
 * two-level list both work and the engine's log can undo them.
 *
 * Submoves: when no closed move gains, the best closed move of k edges (by
 * G before closing) is made anyway if G is positive, and the search goes on
 * from t1 and t(2k), the edge (t2k t1) counted as removed again: LKH's
 * sequence of basic moves.  At most `kopt_submoves` such moves precede one
 * that gains; when none gains the step's flips are undone.  What the
 * earlier submoves' edges allow: by default (Lin & Kernighan's
 * restrictions, over the whole step) edges they added are not removed
 * again, edges they removed not added again; with moves.kopt_lkh_chains
 * (LKH's) only the last edge each submove removes must be one the chain
 * neither added nor removed before, which is what ends LKH's chains, and
 * every other edge is free.  LKH's chains are longer and reach shorter
 * tours: usa13509's first 5-opt descent from greedy ends 0.36% above the
 * optimum instead of 0.51%, in 2.4 s instead of 0.5 s (bench/RESULTS.md,
 * "LKH-3's LK against ours").
 *
 * Gains under node penalties (moves.pi, an ascent's): as in LKH, whose
 * costs after its ascent are the pi-transformed distances d(a, b) + pi(a)
 * + pi(b) of the best penalties found, the step's partial gains are
 * measured on those, under which the 1-tree is nearly a tour; the gain
 * criterion then admits other moves, and the submoves' best differs.
 * Measured: usa13509's first descent ends 0.47% above the optimum on them
 * and 0.94% on d (bench/RESULTS.md, "The k-opt step against the flip
 * chain (LK)").  A
 * closed move's gain is the same either way (every t ends one removed and
 * one added edge), so the tour's length is kept exact (kdist, real_gain).
 */
#include <stdlib.h>
#include <string.h>

#include "ls/ls_impl.h"

/* Most edges a basic move removes. */
enum { KOPT_MAX = 5 };
/* Signed permutations of the KOPT_MAX - 1 segments that move: 4! 2^4. */
enum { KOPT_STATES = 384 };
/* Most flips of one basic move: the reversal distance of a signed
 * permutation of four is at most five. */
enum { KOPT_FLIPS = 8 };

/* Slots of the filter over the cities of a step's submoves: a power of
 * two. */
enum { KOPT_FILTER = 1024 };

/* The shortest reversal sequences for signed permutations of m segments:
 * state s (kopt_rank) is reached from parent[s] by reversing positions
 * from[s]..to[s]; dist[s] reversals from the identity. */
typedef struct kopt_plan {
    int16_t parent[KOPT_STATES];
    int8_t from[KOPT_STATES], to[KOPT_STATES], dist[KOPT_STATES];
} kopt_plan;

/* A closed move: t[1..2j] (j removed edges), closed by (t2j t1). */
typedef struct kopt_move {
    int32_t t[2 * KOPT_MAX + 1];
    bool lo_first[KOPT_MAX]; /* t[2r+2] follows t[2r+1] in the orientation */
    int j;
    int64_t g; /* G before the closing edge; the gain is g - d(t2j, t1) */
} kopt_move;

struct ls_kopt {
    int k;            /* edges a basic move removes at most (3..KOPT_MAX) */
    int submoves;     /* non-gaining basic moves before one that gains, at most */
    bool fwd;         /* the orientation: t2 follows t1 by next */
    bool want_best;   /* a submove may follow: keep the best closed move */
    int32_t t[2 * KOPT_MAX + 1]; /* the move searched, t[1..] */
    bool lo_first[KOPT_MAX];     /* as kopt_move's, known from the side taken */
    kopt_move found;  /* the gaining move (found.j > 0) */
    kopt_move best;   /* the best closed move of k edges that does not gain */
    /* The step's submoves made: their flips (four cities each), edges
     * added and removed (pairs), cities touched. */
    int32_t *flips, *added, *removed, *touched;
    int n_flips, n_added, n_removed, n_touched;
    /* Counts of the touched cities by their low bits: an edge whose ends
     * are not both counted is none of the submoves' edges, which spares
     * the scan of their lists (searched for every candidate). */
    uint16_t filter[KOPT_FILTER];
    kopt_plan plans[KOPT_MAX]; /* by segments that move, 1..KOPT_MAX - 1 */
};

/* ------------------------------------------------- reversal sequences */

/* The rank of a signed permutation of m (values +-1..m): Lehmer code of
 * the values, times 2^m, plus the signs as bits. */
static int kopt_rank(const int8_t *a, int m)
{
    int rank = 0, signs = 0;
    for (int i = 0; i < m; i++) {
        int smaller = 0, v = abs(a[i]);
        for (int j = i + 1; j < m; j++) smaller += abs(a[j]) < v;
        rank = rank * (m - i) + smaller;
        signs |= (a[i] < 0) << i;
    }
    return (rank << m) | signs;
}

/* Reverses positions from..to of a and turns each around. */
static void kopt_reverse(int8_t *a, int from, int to)
{
    for (; from < to; from++, to--) {
        int8_t x = a[from];
        a[from] = (int8_t)-a[to];
        a[to] = (int8_t)-x;
    }
    if (from == to) a[from] = (int8_t)-a[from];
}

/* Breadth-first from the identity over reversals of m signed segments. */
static void kopt_plan_build(kopt_plan *p, int m)
{
    int8_t queue[KOPT_STATES][KOPT_MAX];
    memset(p->dist, -1, sizeof p->dist);
    for (int i = 0; i < m; i++) queue[0][i] = (int8_t)(i + 1);
    int root = kopt_rank(queue[0], m), head = 0, tail = 1;
    p->dist[root] = 0;
    p->parent[root] = (int16_t)root;
    while (head < tail) {
        const int8_t *a = queue[head++];
        int from_rank = kopt_rank(a, m);
        for (int x = 0; x < m; x++)
            for (int y = x; y < m; y++) {
                int8_t b[KOPT_MAX];
                memcpy(b, a, (size_t)m);
                kopt_reverse(b, x, y);
                int r = kopt_rank(b, m);
                if (p->dist[r] >= 0) continue;
                p->dist[r] = (int8_t)(p->dist[from_rank] + 1);
                p->parent[r] = (int16_t)from_rank;
                p->from[r] = (int8_t)x;
                p->to[r] = (int8_t)y;
                memcpy(queue[tail++], b, (size_t)m);
            }
    }
}

bool ls_kopt_create(wt_ls *e)
{
    ls_kopt *w = calloc(1, sizeof *w);
    if (!w) return false;
    w->k = e->moves.kopt;
    w->submoves = e->moves.kopt_submoves;
    size_t moves = (size_t)w->submoves + 1;
    w->flips = malloc(moves * KOPT_FLIPS * 4 * sizeof *w->flips);
    w->added = malloc(moves * 2 * KOPT_MAX * sizeof *w->added);
    w->removed = malloc(moves * 2 * KOPT_MAX * sizeof *w->removed);
    w->touched = malloc(moves * 2 * KOPT_MAX * sizeof *w->touched);
    e->kopt = w;
    if (!w->flips || !w->added || !w->removed || !w->touched) {
        ls_kopt_free(e);
        return false;
    }
    for (int m = 1; m < KOPT_MAX; m++) kopt_plan_build(&w->plans[m], m);
    return true;
}

void ls_kopt_free(wt_ls *e)
{
    ls_kopt *w = e->kopt;
    if (!w) return;
    free(w->flips);
    free(w->added);
    free(w->removed);
    free(w->touched);
    free(w);
    e->kopt = NULL;
}

/* ------------------------------------------------------------ the tour */

/* Whether x comes before y on the oriented tour from t2 (x != y, neither
 * t1). */
static bool before(const wt_ls *e, const ls_kopt *w, int x, int y)
{
    const wt_ls_tour *t = &e->t;
    int t2 = w->t[2];
    if (wt_ls_tour_positional(t)) {
        int p2 = t->pos[t2];
        int px = w->fwd ? t->pos[x] - p2 : p2 - t->pos[x];
        int py = w->fwd ? t->pos[y] - p2 : p2 - t->pos[y];
        return wt_ls_tour_wrap(t, px) < wt_ls_tour_wrap(t, py);
    }
    return w->fwd ? wt_ls_tour_between(t, t2, x, y) : wt_ls_tour_between(t, y, x, t2);
}

/* Whether (a b) is one of count pairs of the submoves' edges. */
static bool pair_in(const ls_kopt *w, const int32_t *pairs, int count, int a, int b)
{
    if (!w->filter[a & (KOPT_FILTER - 1)] || !w->filter[b & (KOPT_FILTER - 1)]) return false;
    for (int i = 0; i < 2 * count; i += 2)
        if ((pairs[i] == a && pairs[i + 1] == b) || (pairs[i] == b && pairs[i + 1] == a))
            return true;
    return false;
}

/* ------------------------------------------------ the feasibility test */

/* The segments of the move t[1..2j]: segment s runs (in the orientation)
 * from t[start[s]] to t[end[s]]; t[x] is an end of segment seg[x], its
 * start when at_start[x]. */
typedef struct kopt_segments {
    int start[KOPT_MAX], end[KOPT_MAX];
    int seg[2 * KOPT_MAX + 1];
    bool at_start[2 * KOPT_MAX + 1];
} kopt_segments;

static void segments_of(const wt_ls *e, const ls_kopt *w, int j, kopt_segments *s)
{
    const int32_t *t = w->t;
    int lo[KOPT_MAX], hi[KOPT_MAX]; /* indices into t of each edge's ends */
    for (int r = 0; r < j; r++) {
        bool first_lo = r == 0 || w->lo_first[r];
        lo[r] = first_lo ? 2 * r + 1 : 2 * r + 2;
        hi[r] = first_lo ? 2 * r + 2 : 2 * r + 1;
    }
    /* Edges 1..j-1 by the position of lo (insertion sort); edge 0, (t1 t2),
     * first: its lo, t1, is the tour's last city from t2. */
    int order[KOPT_MAX] = {0};
    for (int r = 1; r < j; r++) {
        int x = r;
        for (; x > 1 && before(e, w, t[lo[r]], t[lo[order[x - 1]]]); x--) order[x] = order[x - 1];
        order[x] = r;
    }
    for (int q = 0; q < j; q++) {
        s->start[q] = hi[order[q]];
        s->end[q] = lo[order[(q + 1) % j]];
        s->seg[s->start[q]] = s->seg[s->end[q]] = q;
        s->at_start[s->start[q]] = true;
        s->at_start[s->end[q]] = false;
    }
}

/* The t joined to t[x] by an added edge (closing edge (t2j t1) included). */
static int added_partner(int x, int j)
{
    if (x == 1) return 2 * j;
    if (x == 2 * j) return 1;
    return x % 2 == 0 ? x + 1 : x - 1;
}

/* The walk from the start of segment `from` along the move: the segments
 * in the new tour's order (walk[0] = from) with their direction (+1: as
 * now, -1: reversed), sign[]; how many it passes before it is back. */
static int walk_segments(const kopt_segments *s, int j, int from, int *walk, int *sign)
{
    int x = s->start[from], count = 0;
    do {
        int q = s->seg[x];
        walk[count] = q;
        sign[count] = s->at_start[x] ? 1 : -1;
        count++;
        int out = s->at_start[x] ? s->end[q] : s->start[q];
        x = added_partner(out, j);
    } while (x != s->start[from] && count <= j);
    return count;
}

static bool feasible(const wt_ls *e, const ls_kopt *w, int j)
{
    kopt_segments s;
    segments_of(e, w, j, &s);
    int walk[KOPT_MAX + 1], sign[KOPT_MAX + 1];
    return walk_segments(&s, j, 0, walk, sign) == j;
}

/* ----------------------------------------------------------- the search */

/* Whether (a b) is added in the move t[1..2i] so far (i removed edges). */
static bool added_in_move(const ls_kopt *w, int i, int a, int b)
{
    for (int r = 1; r < i; r++) {
        int x = w->t[2 * r], y = w->t[2 * r + 1];
        if ((x == a && y == b) || (x == b && y == a)) return true;
    }
    return false;
}

static bool removed_in_move(const ls_kopt *w, int i, int a, int b)
{
    for (int r = 0; r < i; r++) {
        int x = w->t[2 * r + 1], y = w->t[2 * r + 2];
        if ((x == a && y == b) || (x == b && y == a)) return true;
    }
    return false;
}

static void keep(kopt_move *m, const ls_kopt *w, int j, int64_t g)
{
    memcpy(m->t, w->t, (size_t)(2 * j + 1) * sizeof m->t[0]);
    memcpy(m->lo_first, w->lo_first, sizeof m->lo_first);
    m->j = j;
    m->g = g;
}

/* What the chain's earlier submoves allow.  Lin & Kernighan's rule (the
 * default): no edge they added is removed, none they removed added again.
 * LKH's (moves.kopt_lkh_chains): only the last edge a submove removes must
 * be one the chain neither added nor removed, which ends the chain's loops
 * as LKH's exclusions do (Helsgaun 2000); every other edge is free. */
static bool may_add(const wt_ls *e, const ls_kopt *w, int a, int b)
{
    return e->moves.kopt_lkh_chains || !pair_in(w, w->removed, w->n_removed, a, b);
}

static bool may_remove(const wt_ls *e, const ls_kopt *w, int a, int b)
{
    return e->moves.kopt_lkh_chains || !pair_in(w, w->added, w->n_added, a, b);
}

/* (a b) as the last edge a submove removes. */
static bool may_remove_last(const wt_ls *e, const ls_kopt *w, int a, int b)
{
    if (!e->moves.kopt_lkh_chains) return may_remove(e, w, a, b);
    return !pair_in(w, w->added, w->n_added, a, b) && !pair_in(w, w->removed, w->n_removed, a, b);
}

/* Notes the move t[1..2j] closed by (t2j t1): true when it gains (kept in
 * found); one of k edges that does not gain is kept in best when its G is
 * the highest yet. */
static bool try_close(const wt_ls *e, ls_kopt *w, int j, int64_t g)
{
    const wt_ls_tour *t = &e->t;
    int t1 = w->t[1], last = w->t[2 * j];
    if (last == wt_ls_tour_next(t, t1) || last == wt_ls_tour_prev(t, t1) ||
        added_in_move(w, j, last, t1) || !may_add(e, w, last, t1))
        return false;
    int64_t gain = g - ls_pi_dist(e, last, t1);
    if (gain > 0 && feasible(e, w, j)) {
        keep(&w->found, w, j, g);
        return true;
    }
    if (w->want_best && j == w->k && g > w->best.g &&
        may_remove_last(e, w, w->t[2 * j - 1], last) &&
        feasible(e, w, j))
        keep(&w->best, w, j, g);
    return false;
}

/* The moves that extend t[1..2i] (i removed edges, G = g): true once one
 * gains (w->found). */
static bool search(const wt_ls *e, ls_kopt *w, int i, int64_t g)
{
    const wt_ls_tour *t = &e->t;
    int from = w->t[2 * i];
    const int32_t *nb = e->nb + (size_t)from * (size_t)e->k;
    int prev = wt_ls_tour_prev(t, from), next = wt_ls_tour_next(t, from);
    for (int x = 0; x < e->k; x++) {
        int c = nb[x];
        if (c < 0) break; /* a path's list ends early */
        int64_t g1 = g - ls_pi_dist(e, from, c);
        if (g1 <= 0) {
            if (ls_by_distance(e)) break;
            continue;
        }
        if (c == prev || c == next || added_in_move(w, i, from, c) ||
            !may_add(e, w, from, c))
            continue;
        w->t[2 * i + 1] = c;
        for (int side = 0; side < 2; side++) {
            int d = side == 0 ? wt_ls_tour_next(t, c) : wt_ls_tour_prev(t, c);
            if (wt_ls_tour_fixed_edge(t, c, d) || removed_in_move(w, i, c, d) ||
                !may_remove(e, w, c, d))
                continue;
            w->t[2 * i + 2] = d;
            w->lo_first[i] = (side == 0) == w->fwd;
            int64_t g2 = g1 + ls_pi_dist(e, c, d);
            if (try_close(e, w, i + 1, g2)) return true;
            if (i + 1 < w->k && search(e, w, i + 1, g2)) return true;
        }
    }
    return false;
}

/* ------------------------------------------------------ making a move */

/* The first and last city of a segment passed in direction sign. */
static int seg_first(const kopt_move *m, const kopt_segments *s, int q, int sign)
{
    return m->t[sign > 0 ? s->start[q] : s->end[q]];
}

static int seg_last(const kopt_move *m, const kopt_segments *s, int q, int sign)
{
    return m->t[sign > 0 ? s->end[q] : s->start[q]];
}

/* Flips (a b) (c d) to (a c) (b d), noted for the step's undo. */
static void kopt_flip(wt_ls *e, ls_kopt *w, int a, int b, int c, int d)
{
    wt_ls_tour_flip(&e->t, a, b, c, d);
    int32_t *f = w->flips + 4 * w->n_flips++;
    f[0] = a;
    f[1] = b;
    f[2] = c;
    f[3] = d;
}

/* The reversals that turn the segments' order into the move's signed
 * permutation perm (m segments after the one held still, values +-1..m):
 * the shortest over the directions of one-city segments (single: bit i
 * for value i + 1); into ops (from, to pairs, in the order to make);
 * how many. */
static int plan_reversals(const kopt_plan *p, const int8_t *perm, int m, unsigned single,
                          int *ops)
{
    int best = -1;
    for (unsigned mask = 0; mask < 1u << m; mask++) {
        if (mask & ~single) continue;
        int8_t v[KOPT_MAX];
        for (int i = 0; i < m; i++)
            v[i] = (mask >> (abs(perm[i]) - 1)) & 1 ? (int8_t)-perm[i] : perm[i];
        int r = kopt_rank(v, m);
        if (best < 0 || p->dist[r] < p->dist[best]) best = r;
    }
    int count = p->dist[best];
    for (int x = count - 1, r = best; x >= 0; x--, r = p->parent[r]) {
        ops[2 * x] = p->from[r];
        ops[2 * x + 1] = p->to[r];
    }
    return count;
}

/* The new tour of the move (segments s, feasible) as a signed permutation
 * of the j - 1 segments after the one held still (label q: segment (still
 * + q) % j), into perm; the labels of one-city segments as bits of
 * *single (bit q - 1 for label q). */
static void move_permutation(const kopt_move *m, const kopt_segments *s, int still,
                             int8_t *perm, unsigned *single)
{
    int j = m->j, walk[KOPT_MAX + 1], sign[KOPT_MAX + 1];
    walk_segments(s, j, still, walk, sign);
    *single = 0;
    for (int x = 1; x < j; x++) {
        perm[x - 1] = (int8_t)(sign[x] * ((walk[x] - still + j) % j));
        int seg = (still + x) % j;
        if (m->t[s->start[seg]] == m->t[s->end[seg]]) *single |= 1u << (x - 1);
    }
}

/* Makes the reversals ops[0..count) of runs of segments as flips: cur is
 * the arrangement as they go, label 0 (the segment held still, never
 * turned) at position 0. */
static void flip_runs(wt_ls *e, ls_kopt *w, const kopt_move *m, const kopt_segments *s,
                      int still, const int *ops, int count)
{
    int j = m->j;
    int8_t cur[KOPT_MAX];
    for (int q = 0; q < j; q++) cur[q] = (int8_t)q;
    for (int x = 0; x < count; x++) {
        int a = ops[2 * x] + 1, b = ops[2 * x + 1] + 1, after = (b + 1) % j;
        int8_t pa = cur[a - 1], pb = cur[after];
        int left = seg_last(m, s, (still + abs(pa)) % j, pa >= 0 ? 1 : -1);
        int right = seg_first(m, s, (still + abs(pb)) % j, pb >= 0 ? 1 : -1);
        int fa = seg_first(m, s, (still + abs(cur[a])) % j, cur[a] > 0 ? 1 : -1);
        int lb = seg_last(m, s, (still + abs(cur[b])) % j, cur[b] > 0 ? 1 : -1);
        kopt_flip(e, w, left, fa, lb, right);
        kopt_reverse(cur + 1, a - 1, b - 1);
    }
}

/* Makes the closed move m (feasible) by flips; false when every segment
 * is one city (a tour of j cities: nothing to hold still), the tour then
 * as it was. */
static bool make_move(wt_ls *e, ls_kopt *w, const kopt_move *m)
{
    int j = m->j;
    memcpy(w->t, m->t, (size_t)(2 * j + 1) * sizeof w->t[0]);
    memcpy(w->lo_first, m->lo_first, sizeof w->lo_first);
    kopt_segments s;
    segments_of(e, w, j, &s);
    int still = 0;
    while (still < j && m->t[s.start[still]] == m->t[s.end[still]]) still++;
    if (still == j) return false;
    int8_t perm[KOPT_MAX];
    unsigned single;
    move_permutation(m, &s, still, perm, &single);
    int ops[2 * KOPT_FLIPS];
    int count = plan_reversals(&w->plans[j - 1], perm, j - 1, single, ops);
    flip_runs(e, w, m, &s, still, ops, count);
    return true;
}

/* ------------------------------------------------------------- the step */

/* Notes the edges and cities of the submove m, made. */
static void note_submove(ls_kopt *w, const kopt_move *m)
{
    for (int r = 0; r < m->j; r++) {
        int32_t *rm = w->removed + 2 * w->n_removed++;
        rm[0] = m->t[2 * r + 1];
        rm[1] = m->t[2 * r + 2];
        if (r > 0) {
            int32_t *ad = w->added + 2 * w->n_added++;
            ad[0] = m->t[2 * r];
            ad[1] = m->t[2 * r + 1];
        }
    }
    for (int x = 1; x <= 2 * m->j; x++) {
        w->touched[w->n_touched++] = m->t[x];
        w->filter[m->t[x] & (KOPT_FILTER - 1)]++;
    }
}

/* Undoes the step's flips, last first. */
static void undo_flips(wt_ls *e, ls_kopt *w)
{
    while (w->n_flips > 0) {
        const int32_t *f = w->flips + 4 * --w->n_flips;
        wt_ls_tour_unflip(&e->t, f[0], f[1], f[2], f[3]);
    }
}

/* The step from t1 and t2: basic moves from (t1 t2) until one gains, up to
 * w->submoves non-gaining ones before it; the gain (0: the tour as it was). */
static int64_t step(wt_ls *e, ls_kopt *w, int t1, int t2)
{
    for (int x = 0; x < w->n_touched; x++) w->filter[w->touched[x] & (KOPT_FILTER - 1)]--;
    w->n_flips = w->n_added = w->n_removed = w->n_touched = 0;
    int64_t g = ls_pi_dist(e, t1, t2);
    for (int sub = 0;; sub++) {
        w->fwd = wt_ls_tour_next(&e->t, t1) == t2;
        w->t[1] = t1;
        w->t[2] = t2;
        w->found.j = w->best.j = 0;
        w->best.g = 0;
        w->want_best = sub < w->submoves;
        if (search(e, w, 1, g)) {
            if (make_move(e, w, &w->found)) {
                note_submove(w, &w->found);
                return ls_pi_gain(e, w->found.g - ls_pi_dist(e, w->found.t[2 * w->found.j], t1));
            }
            break;
        }
        if (sub >= w->submoves || w->best.j == 0 || !make_move(e, w, &w->best)) break;
        note_submove(w, &w->best);
        g = w->best.g;
        t2 = w->best.t[2 * w->best.j];
    }
    undo_flips(e, w);
    return 0;
}

bool ls_kopt_try(wt_ls *e, int t1)
{
    ls_kopt *w = e->kopt;
    for (int dir = 0; dir < 2; dir++) {
        const wt_ls_tour *t = &e->t;
        int t2 = dir == 0 ? wt_ls_tour_next(t, t1) : wt_ls_tour_prev(t, t1);
        if (wt_ls_tour_fixed_edge(t, t1, t2)) continue;
        int64_t gain = step(e, w, t1, t2);
        if (gain <= 0) continue;
        e->length -= gain;
        e->moves_lk++;
        for (int x = 0; x < w->n_touched; x++) ls_push(e, w->touched[x]);
        return true;
    }
    int64_t gain = e->moves.nonseq ? ls_double_bridge(e, t1) : 0;
    if (gain <= 0) return false;
    e->length -= gain;
    e->moves_lk++;
    return true;
}
