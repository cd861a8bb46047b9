/*
 * kswap.c - greedy selection of 2-opt moves that can be applied together
 * (see kswap.h for the two rules and why they are sound).
 *
 * wt_kswap_choose tests each candidate against everything kept so far in
 * O(log n) with one segment tree over the edge positions 0..n-1 that holds,
 * per position, a count of kept intervals; range add and range minimum,
 * each node keeping its own pending add (never pushed down) and the
 * minimum of its range including that add.
 *
 *  - Disjoint rule: a kept [c, d] adds -1 over c..d; [a, b] is free iff
 *    the minimum over a..b is 0.
 *
 *  - Laminar rule: a kept [c, d] adds +1 over c..d-1, so D(p) counts the
 *    kept intervals with c <= p < d; and each kept interval marks its two
 *    endpoints.  Read as brackets, the kept family is a well-formed
 *    sequence: an opening bracket at c, a closing one at d.  A new [a, b]
 *    whose endpoints are unmarked conflicts exactly with the kept intervals
 *    that have one endpoint inside (a, b) and the other outside, i.e. iff
 *    the brackets inside (a, b) are not balanced, i.e. iff the running
 *    count D(p) - D(a) over p in a..b-1 dips below 0 or does not end at 0.
 *    (A closing bracket inside whose opening one lies left of a: the first
 *    such one makes the count negative, since an opening bracket inside
 *    still open there would cross it.  Otherwise an opening bracket inside
 *    whose closing one lies right of b leaves the count positive.)  So
 *    [a, b] is accepted iff a and b are unmarked, D(b-1) = D(a) and the
 *    minimum of D over a..b-1 is D(a).  A shared endpoint is always a
 *    conflict (i1 == i2 or j1 == j2 shares an edge; j1 == i2 too), and with
 *    distinct endpoints the marks catch what the count cannot see: a kept
 *    interval that starts (or ends) exactly at a or b.
 *
 * After the greedy pass the tree and the marks are cleared by undoing the
 * kept intervals' adds, so a call costs O(count log count + kept log n)
 * and nothing in n.  Laminar choices are then sorted by i, and a stack
 * sweep gives each its nesting depth (how many kept intervals contain it);
 * the groups are the depths, deepest first.
 */
#include "algo/kswap.h"

#include "core/tour_ops.h"

#include <stdlib.h>
#include <string.h>

struct wt_kswap_ws {
    int n, capacity;
    int size;               /* leaves: the least power of two >= n */
    int32_t *add, *mn;      /* 2 * size nodes in heap order (root 1, leaf p at size + p) */
    unsigned char *mark;    /* n: position is an endpoint of a kept move (laminar rule) */
    wt_kswap_move *kept;    /* capacity: kept moves in greedy order */
    int *depth, *aux;       /* capacity each */
    int *level_start;       /* capacity + 2 */
};

static int move_order(const void *pa, const void *pb)
{
    const wt_kswap_move *a = pa, *b = pb;
    if (a->delta != b->delta) return a->delta < b->delta ? -1 : 1;
    if (a->i != b->i) return a->i < b->i ? -1 : 1;
    return (a->j > b->j) - (a->j < b->j);
}

static int position_order(const void *pa, const void *pb)
{
    const wt_kswap_move *a = pa, *b = pb;
    if (a->i != b->i) return a->i < b->i ? -1 : 1;
    return (a->j > b->j) - (a->j < b->j);
}

/* ------------------------------------------- the plain disjoint rule */

/* Index of the first kept interval starting after pos (kept sorted by i). */
static int first_after(const wt_kswap_move *kept, int nkept, int32_t pos)
{
    int lo = 0, hi = nkept;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (kept[mid].i > pos) hi = mid;
        else lo = mid + 1;
    }
    return lo;
}

int wt_kswap_select(wt_kswap_move *moves, int count, int k, wt_kswap_move *scratch)
{
    qsort(moves, (size_t)count, sizeof *moves, move_order);
    int nkept = 0;
    for (int c = 0; c < count && moves[c].delta < 0 && (k <= 0 || nkept < k); c++) {
        wt_kswap_move m = moves[c];
        /* Kept intervals are disjoint, so sorted by start they are sorted by
         * end too: only the last one starting at or before m.j can reach m. */
        int p = first_after(scratch, nkept, m.j);
        if (p > 0 && scratch[p - 1].j >= m.i) continue;
        memmove(scratch + p + 1, scratch + p, (size_t)(nkept - p) * sizeof *scratch);
        scratch[p] = m;
        nkept++;
    }
    memcpy(moves, scratch, (size_t)nkept * sizeof *moves);
    return nkept;
}

int64_t wt_kswap_apply(int32_t *tour, const wt_kswap_move *moves, int count)
{
    int64_t total = 0;
    for (int c = 0; c < count; c++) {
        wt_tour_reverse_segment(tour, moves[c].i + 1, moves[c].j);
        total += moves[c].delta;
    }
    return total;
}

/* ------------------------------------------------------ the workspace */

wt_kswap_ws *wt_kswap_ws_create(int n, int capacity)
{
    if (n < 1 || capacity < 0) return NULL;
    wt_kswap_ws *ws = calloc(1, sizeof *ws);
    if (!ws) return NULL;
    ws->n = n;
    ws->capacity = capacity;
    ws->size = 1;
    while (ws->size < n) ws->size *= 2;
    size_t nodes = 2 * (size_t)ws->size, cap = (size_t)capacity;
    ws->add = calloc(nodes, sizeof *ws->add);
    ws->mn = calloc(nodes, sizeof *ws->mn);
    ws->mark = calloc((size_t)n, sizeof *ws->mark);
    ws->kept = malloc((cap ? cap : 1) * sizeof *ws->kept);
    ws->depth = malloc((cap ? cap : 1) * sizeof *ws->depth);
    ws->aux = malloc((cap ? cap : 1) * sizeof *ws->aux);
    ws->level_start = malloc((cap + 2) * sizeof *ws->level_start);
    if (!ws->add || !ws->mn || !ws->mark || !ws->kept || !ws->depth || !ws->aux ||
        !ws->level_start) {
        wt_kswap_ws_free(ws);
        return NULL;
    }
    return ws;
}

void wt_kswap_ws_free(wt_kswap_ws *ws)
{
    if (!ws) return;
    free(ws->add);
    free(ws->mn);
    free(ws->mark);
    free(ws->kept);
    free(ws->depth);
    free(ws->aux);
    free(ws->level_start);
    free(ws);
}

/* ---------------------------------------------------- the segment tree */

/* Adds x over positions l..r (within node v, which spans lo..hi). */
static void tree_add(wt_kswap_ws *ws, int v, int lo, int hi, int l, int r, int32_t x)
{
    if (l <= lo && hi <= r) {
        ws->add[v] += x;
        ws->mn[v] += x;
        return;
    }
    int mid = lo + (hi - lo) / 2;
    if (l <= mid) tree_add(ws, 2 * v, lo, mid, l, r, x);
    if (r > mid) tree_add(ws, 2 * v + 1, mid + 1, hi, l, r, x);
    int32_t a = ws->mn[2 * v], b = ws->mn[2 * v + 1];
    ws->mn[v] = ws->add[v] + (a < b ? a : b);
}

/* Minimum over positions l..r, which meet node v's span lo..hi, without
 * the adds of v's ancestors. */
static int32_t tree_min(const wt_kswap_ws *ws, int v, int lo, int hi, int l, int r)
{
    if (l <= lo && hi <= r) return ws->mn[v];
    int mid = lo + (hi - lo) / 2;
    int32_t m = INT32_MAX;
    if (l <= mid) m = tree_min(ws, 2 * v, lo, mid, l, r);
    if (r > mid) {
        int32_t x = tree_min(ws, 2 * v + 1, mid + 1, hi, l, r);
        if (x < m) m = x;
    }
    return m + ws->add[v];
}

static void range_add(wt_kswap_ws *ws, int l, int r, int32_t x)
{
    tree_add(ws, 1, 0, ws->size - 1, l, r, x);
}

static int32_t range_min(const wt_kswap_ws *ws, int l, int r)
{
    return tree_min(ws, 1, 0, ws->size - 1, l, r);
}

/* The value at position p: the adds on its path to the root. */
static int32_t point_value(const wt_kswap_ws *ws, int p)
{
    int32_t s = 0;
    for (int v = ws->size + p; v >= 1; v >>= 1) s += ws->add[v];
    return s;
}

/* Whether [a, b] goes with every kept interval, under the rule. */
static bool fits(const wt_kswap_ws *ws, int a, int b, bool nested)
{
    if (!nested) return range_min(ws, a, b) >= 0;
    if (ws->mark[a] || ws->mark[b]) return false;
    int32_t da = point_value(ws, a);
    return point_value(ws, b - 1) == da && range_min(ws, a, b - 1) >= da;
}

/* Records [a, b] as kept (sign +1), or undoes that (sign -1). */
static void record(wt_kswap_ws *ws, int a, int b, bool nested, int sign)
{
    if (nested) {
        range_add(ws, a, b - 1, sign);
        ws->mark[a] = ws->mark[b] = sign > 0;
    } else {
        range_add(ws, a, b, -sign);
    }
}

/* ------------------------------------------------------------- choice */

/* kept[0..count) (sorted by i, laminar) into moves, deepest level first;
 * fills level_start and returns the number of levels. */
static int group_by_depth(wt_kswap_ws *ws, wt_kswap_move *moves, int count)
{
    const wt_kswap_move *kept = ws->kept;
    int *depth = ws->depth, *stack = ws->aux, top = 0, deepest = 0;
    for (int c = 0; c < count; c++) {
        /* The stack holds the chain of kept intervals that contain the
         * current one's start; those ending before it are behind us. */
        while (top > 0 && kept[stack[top - 1]].j < kept[c].i) top--;
        depth[c] = top;
        if (top > deepest) deepest = top;
        stack[top++] = c;
    }
    int levels = count > 0 ? deepest + 1 : 0;
    int *start = ws->level_start, *next = ws->aux;
    for (int g = 0; g <= levels; g++) start[g] = 0;
    for (int c = 0; c < count; c++) start[deepest - depth[c] + 1]++;
    for (int g = 0; g < levels; g++) start[g + 1] += start[g];
    for (int g = 0; g < levels; g++) next[g] = start[g];
    for (int c = 0; c < count; c++) moves[next[deepest - depth[c]]++] = kept[c];
    return levels;
}

wt_kswap_choice wt_kswap_choose(wt_kswap_ws *ws, wt_kswap_move *moves, int count, int k,
                                bool nested)
{
    if (count > ws->capacity) count = ws->capacity;
    qsort(moves, (size_t)count, sizeof *moves, move_order);
    int nkept = 0;
    for (int c = 0; c < count && moves[c].delta < 0 && (k <= 0 || nkept < k); c++) {
        int a = moves[c].i, b = moves[c].j;
        if (a < 0 || b >= ws->n || b <= a || !fits(ws, a, b, nested)) continue;
        record(ws, a, b, nested, +1);
        ws->kept[nkept++] = moves[c];
    }
    for (int c = 0; c < nkept; c++) record(ws, ws->kept[c].i, ws->kept[c].j, nested, -1);
    qsort(ws->kept, (size_t)nkept, sizeof *ws->kept, position_order);
    wt_kswap_choice ch = {nkept, 0, ws->level_start};
    if (nested) {
        ch.levels = group_by_depth(ws, moves, nkept);
    } else {
        memcpy(moves, ws->kept, (size_t)nkept * sizeof *moves);
        ch.levels = nkept > 0;
        ws->level_start[0] = 0;
        ws->level_start[1] = nkept;
    }
    return ch;
}
