/*
 * twoopt.c - 2-opt moves of the engine: the neighbour-list move of a
 * descent and the long-edge pass (wt_ls_long_edges).
 *
 * A 2-opt move removes two non-adjacent edges (a b) and (c d) and
 * reconnects the tour as (a c) (b d): one flip of the tour (ls/tour.h).
 * The neighbour-list move from a city c tries, in both tour directions,
 * the moves that make c adjacent to one of its candidates d, in order of
 * d's distance, while the new edge (c d) is shorter than the removed edge
 * at c (the usual gain criterion); the first improving one is applied.
 */
#include <omp.h>
#include <stdlib.h>

#include "ls/ls_impl.h"

void ls_2opt_apply(wt_ls *e, int i, int j)
{
    int from, len;
    wt_ls_tour_twoopt_range(&e->t, i, j, &from, &len);
    wt_ls_tour_reverse(&e->t, from, len);
    e->moves_2opt++;
}

/* With b the successor of c (forward) or its predecessor, and e the same
 * of d, edges (c b) (d e) become (c d) (b e). */
bool ls_2opt_try(wt_ls *e, int c)
{
    wt_ls_tour *t = &e->t;
    const int32_t *nb = e->nb + (size_t)c * (size_t)e->k;
    for (int dir = 0; dir < 2; dir++) {
        int b = dir == 0 ? wt_ls_tour_next(t, c) : wt_ls_tour_prev(t, c);
        if (wt_ls_tour_fixed_edge(t, c, b)) continue;
        int64_t dcb = ls_dist(e, c, b);
        for (int x = 0; x < e->k; x++) {
            int d = nb[x];
            if (d < 0) break; /* a path's list ends early */
            int64_t dcd = ls_dist(e, c, d);
            if (dcd >= dcb) {
                if (ls_by_distance(e)) break;
                continue;
            }
            int f = dir == 0 ? wt_ls_tour_next(t, d) : wt_ls_tour_prev(t, d);
            if (d == b || f == c || wt_ls_tour_fixed_edge(t, d, f)) continue;
            int64_t delta = dcd + ls_dist(e, b, f) - dcb - ls_dist(e, d, f);
            if (delta >= 0) continue;
            e->length += delta;
            /* forward: c b .. d f -> c d .. b f; backward: f d .. b c -> f b .. d c */
            wt_ls_tour_flip(t, c, b, d, f);
            /* Counted on the array only: a list descent's step count leaves
             * its 2-opt moves out (its LK steps are counted). */
            if (wt_ls_tour_positional(t)) e->moves_2opt++;
            ls_push(e, c);
            ls_push(e, b);
            ls_push(e, d);
            ls_push(e, f);
            return true;
        }
    }
    return false;
}

/* --------------------------------------------------------- long edges */

/* Rounds of wt_ls_long_edges, each m * n distances. */
enum { LONG_EDGE_ROUNDS = 4 };

/* Positions i of the `count` longest edges (i, i+1), longest first; how
 * many (count at most, n at most). */
static int longest_edges(const wt_ls *e, int count, int32_t *at_pos, int64_t *len)
{
    int m = 0;
    for (int i = 0; i < e->t.n; i++) {
        int64_t d = ls_dist(e, e->t.order[i], wt_ls_tour_at(&e->t, i + 1));
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
 * jump through the instance at random.  Planar instances only. */
typedef struct tour_xy {
    double *x, *y;
    int64_t *el;
} tour_xy;

static bool tour_xy_open(const wt_ls *e, tour_xy *g)
{
    size_t m = (size_t)e->t.n + 1;
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

static void tour_xy_fill(const wt_ls *e, tour_xy *g, int threads)
{
    const wt_instance *in = e->inst;
    int n = e->t.n;
#pragma omp parallel for num_threads(threads) schedule(static)
    for (int j = 0; j <= n; j++) {
        int c = e->t.order[j == n ? 0 : j];
        g->x[j] = in->x[c];
        g->y[j] = in->y[c];
        g->el[j] = ls_dist(e, c, wt_ls_tour_at(&e->t, j + 1));
    }
}

/* Follows wt_ls_tour_reverse(t, from, len) in g: the coordinates of the
 * range turn around, and the edges from the one before it to its last
 * change. */
static void tour_xy_reverse(const wt_ls *e, tour_xy *g, int from, int len)
{
    const wt_ls_tour *t = &e->t;
    int n = t->n;
    for (int s = 0; s < len / 2; s++) {
        int u = wt_ls_tour_wrap(t, from + s), v = wt_ls_tour_wrap(t, from + len - 1 - s);
        double x = g->x[u], y = g->y[u];
        g->x[u] = g->x[v];
        g->y[u] = g->y[v];
        g->x[v] = x;
        g->y[v] = y;
    }
    g->x[n] = g->x[0];
    g->y[n] = g->y[0];
    for (int s = -1; s < len; s++) {
        int q = wt_ls_tour_wrap(t, from + s);
        g->el[q] = wt_dist_planar(e->inst->type, g->x[q] - g->x[q + 1], g->y[q] - g->y[q + 1]);
    }
}

/* The best 2-opt move that removes the edge after position i and another,
 * over all edges: the other edge's first position (-1: none improves),
 * *gain; ties go to the lowest position, whatever the thread count. */
static int best_partner(const wt_ls *e, const tour_xy *g, int i, int threads, int64_t *gain)
{
    const wt_ls_tour *t = &e->t;
    int n = t->n, best_j = -1;
    wt_edge_weight_type type = e->inst->type;
    double xa = g->x[i], ya = g->y[i], xb = g->x[i + 1], yb = g->y[i + 1];
    int64_t dab = g->el[i], best = 0;
#pragma omp parallel num_threads(threads)
    {
        int64_t mine = 0;
        int mine_j = -1;
#pragma omp for schedule(static)
        for (int j = 0; j < n; j++) {
            if (j == i || j == wt_ls_tour_wrap(t, i + 1) || j == wt_ls_tour_wrap(t, i - 1))
                continue;
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

int64_t wt_ls_long_edges(wt_ls *e, int count, int threads)
{
    wt_ls_tour *t = &e->t;
    if (t->path || t->fixed || t->n < 8 || count < 1 || !wt_is_planar(e->inst->type))
        return 0;
    if (count > 64) count = 64;
    if (threads < 1) threads = 1;
    tour_xy g;
    if (!tour_xy_open(e, &g)) { /* an optional pass: skipped without memory */
        tour_xy_close(&g);
        return 0;
    }
    int32_t at_pos[64], from[64];
    int64_t len[64], total = 0, round_gain;
    int rounds = 0;
    do { /* a move can leave a long edge improvable that was not before */
        round_gain = 0;
        int m = longest_edges(e, count, at_pos, len);
        for (int x = 0; x < m; x++) from[x] = t->order[at_pos[x]];
        tour_xy_fill(e, &g, threads);
        for (int x = 0; x < m && !ls_stop(e); x++) { /* a scan is O(n) */
            int a = from[x], b = wt_ls_tour_next(t, a), i = t->pos[a];
            if (ls_dist(e, a, b) != len[x]) continue; /* an earlier move took it */
            int64_t gain;
            int j = best_partner(e, &g, i, threads, &gain);
            if (j < 0) continue;
            int c = t->order[j], d = wt_ls_tour_at(t, j + 1), f, l;
            wt_ls_tour_twoopt_range(t, i, j, &f, &l);
            wt_ls_tour_reverse(t, f, l);
            tour_xy_reverse(e, &g, f, l);
            e->length -= gain;
            round_gain += gain;
            int ends[4] = {a, b, c, d};
            for (int y = 0; y < 4; y++) ls_push(e, ends[y]);
        }
        total += round_gain;
    } while (round_gain > 0 && ++rounds < LONG_EDGE_ROUNDS && !ls_stop(e));
    tour_xy_close(&g);
    return total;
}
