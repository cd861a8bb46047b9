/*
 * tour_changes.c - whether new neighbours for some cities keep a tour one
 * cycle (tour_changes.h).
 *
 * The changed cities (the accepted sets' and the one tried) are kept as
 * their positions in the tour, sorted.  The walk follows the new
 * neighbours from changed city to changed city: a neighbour that is
 * changed too is the next step; one that is not lies next to the city in
 * the tour (else the two disagree about their edge), and the tour's path
 * from there runs through unchanged cities alone up to the next changed
 * position that way, which is the next step, all of the path's cities
 * counted at once.  The new neighbours are one cycle through all n cities
 * when the walk comes back to where it started, from the side it left by,
 * having counted n cities, and every step's two ends agreed about their
 * edge.
 */
#include "core/tour_changes.h"

#include <stdlib.h>
#include <string.h>

struct wt_tour_changes {
    int n;
    const int32_t *tour;
    int32_t *pos;    /* n: each city's position in tour */
    uint32_t *stamp; /* n: the cities changed in the walk's set have `now` */
    uint32_t now;
    int32_t *idx;    /* n: a changed city's rank among the changed positions */
    int32_t *acc;    /* the accepted sets' positions, sorted: acc_m of them */
    int acc_m;
    int32_t *all;    /* scratch: acc and the set tried, sorted */
    int32_t *tried;  /* scratch: the set tried, sorted */
};

wt_tour_changes *wt_tour_changes_open(int n)
{
    if (n < 3) return NULL;
    wt_tour_changes *c = calloc(1, sizeof *c);
    if (!c) return NULL;
    size_t m = (size_t)n;
    c->n = n;
    c->pos = malloc(m * sizeof *c->pos);
    c->stamp = calloc(m, sizeof *c->stamp);
    c->idx = malloc(m * sizeof *c->idx);
    c->acc = malloc(m * sizeof *c->acc);
    c->all = malloc(m * sizeof *c->all);
    c->tried = malloc(m * sizeof *c->tried);
    if (!c->pos || !c->stamp || !c->idx || !c->acc || !c->all || !c->tried) {
        wt_tour_changes_close(c);
        return NULL;
    }
    return c;
}

void wt_tour_changes_close(wt_tour_changes *c)
{
    if (!c) return;
    free(c->pos);
    free(c->stamp);
    free(c->idx);
    free(c->acc);
    free(c->all);
    free(c->tried);
    free(c);
}

void wt_tour_changes_begin(wt_tour_changes *c, const int32_t *tour, int threads)
{
    c->tour = tour;
    c->acc_m = 0;
#pragma omp parallel for num_threads(threads) schedule(static)
    for (int i = 0; i < c->n; i++) c->pos[tour[i]] = i;
}

static int by_value(const void *a, const void *b)
{
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return (x > y) - (x < y);
}

/* acc and the m positions of tried (sorted) into all; their count. */
static int merge_sorted(const wt_tour_changes *c, int m)
{
    int i = 0, j = 0, k = 0;
    while (i < c->acc_m || j < m) {
        if (j == m || (i < c->acc_m && c->acc[i] < c->tried[j]))
            c->all[k++] = c->acc[i++];
        else
            c->all[k++] = c->tried[j++];
    }
    return k;
}

/* The next step of the walk from changed city *cur, which it entered from
 * *prev: the next changed city and the city before it, into *cur and
 * *prev; the cities passed, or -1 where cur does not have prev for a
 * neighbour or its next neighbour, unchanged, is not next to it in the
 * tour. */
static long long step(const wt_tour_changes *c, const int32_t *adj, int all_m, int32_t *cur,
                      int32_t *prev)
{
    int n = c->n;
    int32_t a0 = adj[2 * *cur], a1 = adj[2 * *cur + 1];
    int32_t next = a0 == *prev ? a1 : a1 == *prev ? a0 : -1;
    if (next < 0) return -1;
    if (c->stamp[next] == c->now) {
        *prev = *cur;
        *cur = next;
        return 1;
    }
    int pc = c->pos[*cur], pn = c->pos[next], i = c->idx[*cur], q;
    long long passed;
    if (pn == (pc + 1 == n ? 0 : pc + 1)) {
        q = c->all[i + 1 == all_m ? 0 : i + 1];
        passed = ((long long)q - pc - 1 + n) % n;
        *prev = c->tour[q == 0 ? n - 1 : q - 1];
    } else if (pn == (pc == 0 ? n - 1 : pc - 1)) {
        q = c->all[i == 0 ? all_m - 1 : i - 1];
        passed = ((long long)pc - q - 1 + n) % n;
        *prev = c->tour[q + 1 == n ? 0 : q + 1];
    } else {
        return -1;
    }
    *cur = c->tour[q];
    return 1 + passed;
}

bool wt_tour_changes_try(wt_tour_changes *c, const int32_t *adj, const int32_t *cities, int m)
{
    if (m <= 0) return true;
    for (int i = 0; i < m; i++) c->tried[i] = c->pos[cities[i]];
    qsort(c->tried, (size_t)m, sizeof *c->tried, by_value);
    int all_m = merge_sorted(c, m);
    if (++c->now == 0) {
        memset(c->stamp, 0, (size_t)c->n * sizeof *c->stamp);
        c->now = 1;
    }
    for (int i = 0; i < all_m; i++) {
        int32_t city = c->tour[c->all[i]];
        c->stamp[city] = c->now;
        c->idx[city] = i;
    }
    int32_t start = c->tour[c->all[0]], cur = start, prev = adj[2 * start + 1];
    long long counted = 0;
    do {
        long long passed = step(c, adj, all_m, &cur, &prev);
        if (passed < 0) return false;
        counted += passed;
        if (counted > c->n) return false;
    } while (cur != start);
    if (counted != c->n || prev != adj[2 * start + 1]) return false;
    int32_t *t = c->acc;
    c->acc = c->all;
    c->all = t;
    c->acc_m = all_m;
    return true;
}
