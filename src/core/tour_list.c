/*
 * tour_list.c - the two-level list of tour_list.h: cuts, merges and the
 * reversal of runs of whole segments.
 */
#include "core/tour_list.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static void list_free_arrays(wt_tour_list *l)
{
    free(l->store);
    free(l->seg_of);
    free(l->at);
    free(l->order);
    free(l->off);
    free(l->len);
    free(l->rank);
    free(l->rev);
    free(l->free_ids);
}

void wt_tour_list_free(wt_tour_list *l)
{
    if (!l) return;
    list_free_arrays(l);
    free(l);
}

static bool list_alloc(wt_tour_list *l)
{
    size_t n = (size_t)l->n, s = (size_t)l->max_segs;
    l->store = malloc(s * (size_t)l->cap * sizeof *l->store);
    l->seg_of = malloc(n * sizeof *l->seg_of);
    l->at = malloc(n * sizeof *l->at);
    l->order = malloc(s * sizeof *l->order);
    l->off = malloc(s * sizeof *l->off);
    l->len = malloc(s * sizeof *l->len);
    l->rank = malloc(s * sizeof *l->rank);
    l->rev = malloc(s);
    l->free_ids = malloc(s * sizeof *l->free_ids);
    return l->store && l->seg_of && l->at && l->order && l->off && l->len && l->rank && l->rev &&
           l->free_ids;
}

/* Segment s holds cities[0..count-1] in the tour's direction from storage
 * index s * cap + off. */
static void fill_segment(wt_tour_list *l, int s, const int32_t *cities, int count, int off)
{
    int32_t base = s * l->cap + off;
    for (int k = 0; k < count; k++) {
        l->store[base + k] = cities[k];
        l->seg_of[cities[k]] = s;
        l->at[cities[k]] = base + k;
    }
    l->off[s] = off;
    l->len[s] = count;
    l->rev[s] = 0;
}

wt_status wt_tour_list_create(const int32_t *tour, int n, int cap, wt_tour_list **out,
                              wt_error *err)
{
    if (!tour || !out || n < 3)
        return wt_fail(err, WT_STATUS_INVALID_ARGUMENT,
                       "tour list: need a tour of 3 cities or more");
    *out = NULL;
    wt_tour_list *l = calloc(1, sizeof *l);
    if (!l) return wt_fail(err, WT_STATUS_OUT_OF_MEMORY, "out of memory for a tour list");
    l->n = n;
    l->cap = cap > 0 ? cap : (int)sqrt((double)n) + 1;
    if (l->cap < 8 && cap <= 0) l->cap = 8;
    if (l->cap > n) l->cap = n;
    /* Any two neighbours hold more than cap cities: at most 2 n / cap + 1
     * segments, and two more while a reversal has cut but not merged. */
    l->max_segs = 2 * (n / l->cap) + 8;
    if (!list_alloc(l)) {
        wt_tour_list_free(l);
        return wt_fail(err, WT_STATUS_OUT_OF_MEMORY, "out of memory for a tour list of %d cities",
                       n);
    }
    for (int c = 0; c < n; c++) l->seg_of[c] = -1;
    for (int i = 0; i < n; i++) {
        if (tour[i] < 0 || tour[i] >= n || l->seg_of[tour[i]] >= 0) {
            wt_tour_list_free(l);
            return wt_fail(err, WT_STATUS_INVALID_ARGUMENT,
                           "tour list: the tour is no permutation");
        }
        l->seg_of[tour[i]] = 0;
    }
    l->m = (n + l->cap - 1) / l->cap;
    for (int s = 0; s < l->m; s++) {
        int from = s * l->cap, count = n - from < l->cap ? n - from : l->cap;
        fill_segment(l, s, tour + from, count, 0);
        l->order[s] = s;
        l->rank[s] = s;
    }
    l->n_free = 0;
    for (int s = l->max_segs - 1; s >= l->m; s--) l->free_ids[l->n_free++] = s;
    *out = l;
    return WT_OK;
}

/* ------------------------------------------------------------- the order */

static void set_ranks(wt_tour_list *l, int from)
{
    for (int r = from; r < l->m; r++) l->rank[l->order[r]] = r;
}

static void insert_at_rank(wt_tour_list *l, int s, int r)
{
    memmove(l->order + r + 1, l->order + r, (size_t)(l->m - r) * sizeof *l->order);
    l->order[r] = s;
    l->m++;
    set_ranks(l, r);
}

static void remove_segment(wt_tour_list *l, int s)
{
    int r = l->rank[s];
    memmove(l->order + r, l->order + r + 1, (size_t)(l->m - r - 1) * sizeof *l->order);
    l->m--;
    set_ranks(l, r);
    l->free_ids[l->n_free++] = s;
}

/* ------------------------------------------------------------------ cuts */

/* City c's offset from its segment's first city in the tour's direction. */
static int inner_of(const wt_tour_list *l, int c)
{
    int s = l->seg_of[c], lo = s * l->cap + l->off[s];
    return l->rev[s] ? lo + l->len[s] - 1 - l->at[c] : l->at[c] - lo;
}

/* Makes c the first city of a segment: the smaller of the two pieces of its
 * segment moves into a new segment beside it. */
static void cut_before(wt_tour_list *l, int c)
{
    int s = l->seg_of[c], k1 = inner_of(l, c);
    if (k1 == 0) return;
    int k2 = l->len[s] - k1, u = l->free_ids[--l->n_free];
    int32_t lo = s * l->cap + l->off[s], hi = lo + l->len[s] - 1;
    bool move_first = k1 <= k2, rev = l->rev[s];
    /* The moved piece in storage order: the first piece sits at the low end
     * of the storage unless the segment runs backwards. */
    int count = move_first ? k1 : k2;
    int32_t from = move_first == !rev ? lo : hi - count + 1;
    fill_segment(l, u, l->store + from, count, 0);
    l->rev[u] = rev;
    if (from == lo) l->off[s] += count;
    l->len[s] -= count;
    insert_at_rank(l, u, l->rank[s] + (move_first ? 0 : 1));
}

/* ---------------------------------------------------------------- merges */

/* Moves segment s's cities so that `room` cells are free on the storage
 * side `high` (true: after its last storage cell). */
static void make_room(wt_tour_list *l, int s, int room, bool high)
{
    int len = l->len[s], off = l->off[s];
    if (high ? off + len + room <= l->cap : off >= room) return;
    int to = high ? 0 : l->cap - len;
    int32_t *base = l->store + (size_t)s * (size_t)l->cap;
    memmove(base + to, base + off, (size_t)len * sizeof *base);
    for (int k = 0; k < len; k++) l->at[base[to + k]] = s * l->cap + to + k;
    l->off[s] = to;
}

/* Appends segment o (which follows k in the tour) to k's end, or prepends
 * o (which precedes k) to k's start, then drops o. */
static void absorb(wt_tour_list *l, int k, int o, bool at_end)
{
    int count = l->len[o];
    /* k's tour end lies at its storage's high side unless k runs backwards. */
    bool high = at_end != (l->rev[k] != 0);
    make_room(l, k, count, high);
    int32_t lo = k * l->cap + l->off[k];
    int32_t olo = o * l->cap + l->off[o];
    /* Cell for o's x-th city in the tour's direction. */
    for (int x = 0; x < count; x++) {
        int32_t src = l->rev[o] ? olo + count - 1 - x : olo + x;
        int32_t c = l->store[src], dst;
        if (high) dst = at_end ? lo + l->len[k] + x : lo + l->len[k] + count - 1 - x;
        else dst = at_end ? lo - 1 - x : lo - count + x;
        l->store[dst] = c;
        l->seg_of[c] = k;
        l->at[c] = dst;
    }
    if (!high) l->off[k] -= count;
    l->len[k] += count;
    remove_segment(l, o);
}

/* Merges segment s with a neighbour while the two fit into one. */
static void settle(wt_tour_list *l, int c)
{
    for (;;) {
        if (l->m < 2) return;
        int s = l->seg_of[c], r = l->rank[s];
        int next = l->order[r + 1 == l->m ? 0 : r + 1], prev = l->order[r == 0 ? l->m - 1 : r - 1];
        if (l->len[s] + l->len[next] <= l->cap && next != s) {
            if (l->len[s] >= l->len[next]) absorb(l, s, next, true);
            else absorb(l, next, s, false);
        } else if (l->len[s] + l->len[prev] <= l->cap && prev != s) {
            if (l->len[s] >= l->len[prev]) absorb(l, s, prev, false);
            else absorb(l, prev, s, true);
        } else {
            return;
        }
    }
}

/* -------------------------------------------------------------- reversal */

/* Reverses the run of k segments from rank r0 on (cyclically). */
static void reverse_run(wt_tour_list *l, int r0, int k)
{
    int m = l->m;
    for (int x = 0, y = k - 1; x < y; x++, y--) {
        int rx = (r0 + x) % m, ry = (r0 + y) % m;
        int32_t t = l->order[rx];
        l->order[rx] = l->order[ry];
        l->order[ry] = t;
    }
    for (int x = 0; x < k; x++) {
        int s = l->order[(r0 + x) % m];
        l->rev[s] ^= 1;
        l->rank[s] = (r0 + x) % m;
    }
}

/* Reverses the path a..b in place when it lies inside one segment (from
 * a on, not around the tour): most of LK's flips are such short paths. */
static bool reverse_inside(wt_tour_list *l, int a, int b)
{
    int s = l->seg_of[a];
    if (l->seg_of[b] != s || inner_of(l, a) > inner_of(l, b)) return false;
    int32_t i = l->at[a], j = l->at[b];
    if (i > j) {
        int32_t t = i;
        i = j;
        j = t;
    }
    for (; i < j; i++, j--) {
        int32_t ci = l->store[i], cj = l->store[j];
        l->store[i] = cj;
        l->store[j] = ci;
        l->at[cj] = i;
        l->at[ci] = j;
    }
    return true;
}

void wt_tour_list_reverse(wt_tour_list *l, int a, int b)
{
    if (a == b) return;
    int before = wt_tour_list_prev(l, a), after = wt_tour_list_next(l, b);
    if (after == a) return; /* the whole cycle: the same edges */
    /* The path, or its complement, inside one segment. */
    if (reverse_inside(l, a, b) || reverse_inside(l, after, before)) return;
    cut_before(l, a);
    cut_before(l, after);
    int ra = l->rank[l->seg_of[a]], rb = l->rank[l->seg_of[b]];
    int k = (rb - ra + l->m) % l->m + 1;
    if (2 * k <= l->m) reverse_run(l, ra, k);
    else reverse_run(l, (rb + 1) % l->m, l->m - k);
    settle(l, a);
    settle(l, b);
    settle(l, before);
    settle(l, after);
}

void wt_tour_list_walk(const wt_tour_list *l, int from, int32_t *tour)
{
    int c = from;
    for (int i = 0; i < l->n; i++) {
        tour[i] = c;
        c = wt_tour_list_next(l, c);
    }
}
