/*
 * kswap.c - greedy selection of 2-opt moves that can be applied together
 * (see kswap.h for the two rules and why they are sound).
 *
 * wt_kswap_choose sorts the candidates by (delta, i, j) and tests each
 * against everything kept so far in O(log n), with an array `tree` of n
 * or 2n ints over the edge positions whose use depends on the rule:
 *
 *  - Disjoint rule: [a, b] meets a kept [c, d] iff c <= b and d >= a, so
 *    it fits iff the largest end d among kept moves with c <= b is below a:
 *    a Fenwick tree of prefix maxima, the end d stored at position c.
 *
 *  - Laminar rule: with its endpoints marked (a shared edge always
 *    conflicts), each kept [c, d] contains the positions c+1..d-1.  With
 *    all endpoints distinct, a kept interval conflicts with [a, b] exactly
 *    when it contains one of a, b and not the other (it crosses [a, b]);
 *    one containing both holds [a, b] strictly inside, one containing
 *    neither lies inside [a, b] or apart from it.  So [a, b] fits iff a and
 *    b are unmarked and contained by the same kept intervals.  Those
 *    containing a position form a chain of nested intervals, identified by
 *    its innermost member, the one with the largest start; so [a, b] fits
 *    iff M(a) = M(b), where M(x) is the largest start c of a kept interval
 *    containing x (-1 for none).  Keeping [c, d] raises M to at least c
 *    over c+1..d-1 (a kept interval containing x has a smaller start when
 *    it contains [c, d] and a larger one when it lies inside), which a
 *    segment tree of "chmax" tags does in O(log n), M(x) being the largest
 *    tag on the path from leaf x to the root.
 *
 * After the greedy pass the tree and the marks are reset by walking the
 * kept moves' updates again, so a call costs O(count log n) plus the sort
 * and nothing in n.  The sort is an LSD radix sort of (delta, i, j) packed
 * into 64-bit keys (a comparison sort of 10^6 moves took longer than all
 * the tests); qsort when the key does not fit.  Laminar choices are then
 * sorted by i, and a stack sweep gives each its nesting depth (how many
 * kept intervals contain it); the groups are the depths, deepest first.
 */
#include "core/kswap.h"

#include "core/tour_ops.h"

#include <stdlib.h>
#include <string.h>

struct wt_kswap_ws {
    int n, capacity;
    int size;               /* the least power of two >= n */
    int32_t *tree;          /* 2 * size, all -1 between calls: a Fenwick tree (disjoint
                               rule, entries 1..n) or a segment tree of tags in heap
                               order, root 1, leaf x at size + x (laminar rule) */
    unsigned char *mark;    /* n: position is an endpoint of a kept move (laminar rule) */
    wt_kswap_move *kept;    /* capacity: kept moves in greedy order */
    uint64_t *keys, *tmp;   /* capacity each: the radix sort */
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
    size_t cap = capacity ? (size_t)capacity : 1;
    ws->tree = malloc(2 * (size_t)ws->size * sizeof *ws->tree);
    ws->mark = calloc((size_t)n, sizeof *ws->mark);
    ws->kept = malloc(cap * sizeof *ws->kept);
    ws->keys = malloc(cap * sizeof *ws->keys);
    ws->tmp = malloc(cap * sizeof *ws->tmp);
    ws->depth = malloc(cap * sizeof *ws->depth);
    ws->aux = malloc(cap * sizeof *ws->aux);
    ws->level_start = malloc((cap + 2) * sizeof *ws->level_start);
    if (!ws->tree || !ws->mark || !ws->kept || !ws->keys || !ws->tmp || !ws->depth ||
        !ws->aux || !ws->level_start) {
        wt_kswap_ws_free(ws);
        return NULL;
    }
    for (size_t v = 0; v < 2 * (size_t)ws->size; v++) ws->tree[v] = -1;
    return ws;
}

void wt_kswap_ws_free(wt_kswap_ws *ws)
{
    if (!ws) return;
    free(ws->tree);
    free(ws->mark);
    free(ws->kept);
    free(ws->keys);
    free(ws->tmp);
    free(ws->depth);
    free(ws->aux);
    free(ws->level_start);
    free(ws);
}

/* ------------------------------------------------- the two structures */

static inline int32_t max32(int32_t a, int32_t b) { return a > b ? a : b; }

/* Disjoint rule: the largest end among kept moves starting at or before b. */
static int32_t fenwick_max(const wt_kswap_ws *ws, int b)
{
    int32_t m = -1;
    for (int p = b + 1; p > 0; p -= p & -p) m = max32(m, ws->tree[p]);
    return m;
}

/* Disjoint rule: stores end d at start c, or (d = -1) resets what that
 * did: every entry it reached was -1 before the call, and all go back. */
static void fenwick_put(wt_kswap_ws *ws, int c, int32_t d)
{
    for (int p = c + 1; p <= ws->n; p += p & -p) ws->tree[p] = d < 0 ? -1 : max32(ws->tree[p], d);
}

/* Laminar rule: M(x), the largest tag from leaf x to the root. */
static int32_t tags_at(const wt_kswap_ws *ws, int x)
{
    int32_t m = -1;
    for (int v = ws->size + x; v >= 1; v >>= 1) m = max32(m, ws->tree[v]);
    return m;
}

/* Laminar rule: raises M to at least c over positions l..r (nothing when
 * l > r), or (c = -1) resets the tags that did so. */
static void tags_raise(wt_kswap_ws *ws, int l, int r, int32_t c)
{
    int32_t *t = ws->tree;
    for (int lo = l + ws->size, hi = r + ws->size + 1; lo < hi; lo >>= 1, hi >>= 1) {
        if (lo & 1) {
            t[lo] = c < 0 ? -1 : max32(t[lo], c);
            lo++;
        }
        if (hi & 1) {
            hi--;
            t[hi] = c < 0 ? -1 : max32(t[hi], c);
        }
    }
}

/* Whether [a, b] goes with every kept interval, under the rule. */
static bool fits(const wt_kswap_ws *ws, int a, int b, bool nested)
{
    if (!nested) return fenwick_max(ws, b) < a;
    return !ws->mark[a] && !ws->mark[b] && tags_at(ws, a) == tags_at(ws, b);
}

/* Records [a, b] as kept, or (keep = false) resets what that did. */
static void record(wt_kswap_ws *ws, int a, int b, bool nested, bool keep)
{
    if (nested) {
        tags_raise(ws, a + 1, b - 1, keep ? a : -1);
        ws->mark[a] = ws->mark[b] = keep;
    } else {
        fenwick_put(ws, a, keep ? b : -1);
    }
}

/* ------------------------------------------------------------ sorting */

/* Sorts keys[0..count) (tmp: as many) by LSD radix, a byte at a time,
 * skipping bytes that all keys share. */
static void radix_sort(uint64_t *keys, uint64_t *tmp, int count)
{
    size_t hist[8][256];
    memset(hist, 0, sizeof hist);
    for (int c = 0; c < count; c++)
        for (int d = 0; d < 8; d++) hist[d][(keys[c] >> (8 * d)) & 0xFF]++;
    uint64_t *src = keys, *dst = tmp;
    for (int d = 0; d < 8 && count > 0; d++) {
        size_t *h = hist[d];
        if (h[(keys[0] >> (8 * d)) & 0xFF] == (size_t)count) continue; /* a shared byte */
        size_t sum = 0;
        for (int v = 0; v < 256; v++) {
            size_t x = h[v];
            h[v] = sum;
            sum += x;
        }
        for (int c = 0; c < count; c++) dst[h[(src[c] >> (8 * d)) & 0xFF]++] = src[c];
        uint64_t *t = src;
        src = dst;
        dst = t;
    }
    if (src != keys) memcpy(keys, src, (size_t)count * sizeof *keys);
}

static int bits_for(uint64_t v)
{
    int b = 0;
    while (b < 64 && (v >> b) != 0) b++;
    return b;
}

/* moves[0..count) (improving, 0 <= i < j < n) sorted by (delta, i, j). */
static void sort_moves(wt_kswap_ws *ws, wt_kswap_move *moves, int count)
{
    if (count < 2) return;
    int64_t lo = moves[0].delta, hi = moves[0].delta;
    for (int c = 1; c < count; c++) {
        if (moves[c].delta < lo) lo = moves[c].delta;
        if (moves[c].delta > hi) hi = moves[c].delta;
    }
    int bn = bits_for((uint64_t)ws->n - 1), bd = bits_for((uint64_t)hi - (uint64_t)lo);
    if (bd + 2 * bn > 64) {
        qsort(moves, (size_t)count, sizeof *moves, move_order);
        return;
    }
    for (int c = 0; c < count; c++)
        ws->keys[c] = ((uint64_t)moves[c].delta - (uint64_t)lo) << (2 * bn) |
                      (uint64_t)moves[c].i << bn | (uint64_t)moves[c].j;
    radix_sort(ws->keys, ws->tmp, count);
    uint64_t low = ((uint64_t)1 << bn) - 1;
    for (int c = 0; c < count; c++) {
        uint64_t k = ws->keys[c];
        moves[c].delta = (int64_t)((uint64_t)lo + (k >> (2 * bn)));
        moves[c].i = (int32_t)((k >> bn) & low);
        moves[c].j = (int32_t)(k & low);
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
    int live = 0; /* improving, well-formed moves to the front: only they can be kept */
    for (int c = 0; c < count; c++) {
        wt_kswap_move m = moves[c];
        if (m.delta < 0 && m.i >= 0 && m.j < ws->n && m.i < m.j) {
            moves[c] = moves[live];
            moves[live++] = m;
        }
    }
    sort_moves(ws, moves, live);
    int nkept = 0;
    for (int c = 0; c < live && (k <= 0 || nkept < k); c++) {
        int a = moves[c].i, b = moves[c].j;
        if (!fits(ws, a, b, nested)) continue;
        record(ws, a, b, nested, true);
        ws->kept[nkept++] = moves[c];
    }
    for (int c = 0; c < nkept; c++) record(ws, ws->kept[c].i, ws->kept[c].j, nested, false);
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
