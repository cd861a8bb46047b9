/*
 * kicks.c - the host's kicks (kicks.h).
 *
 * The double bridge on the array is three or four reversals of position
 * ranges (B C -> C B: reverse each, then both); on the list, four flips,
 * which the log can undo as any other.
 */
#include "ls/kicks.h"

#include "core/climb_start.h"
#include "ls/ls_impl.h"

/* The window of a segment-restricted kick's points: a kick then disturbs
 * one neighbourhood, which the descent repairs far more often on large
 * instances than a kick that joins far-apart cities.  Fewer than
 * MIN_KICK_CITIES cities admit no double bridge. */
enum { KICK_WINDOW = 100, MIN_KICK_CITIES = 8 };

bool wt_ls_kick_points(uint64_t seed, uint64_t k, int n, int p[3])
{
    if (n < MIN_KICK_CITIES) return false;
    wt_rng rng;
    wt_climb_rng(&rng, seed ^ 0x5bd1e9955bd1e995ULL, k);
    int w = n - 1 < KICK_WINDOW ? n - 1 : KICK_WINDOW; /* positions 1..n-1 hold points */
    int start = 1 + (int)wt_rng_below(&rng, (uint64_t)(n - w));
    /* Three distinct offsets in [0, w), sorted. */
    int a = (int)wt_rng_below(&rng, (uint64_t)w);
    int b = (int)wt_rng_below(&rng, (uint64_t)(w - 1));
    int c = (int)wt_rng_below(&rng, (uint64_t)(w - 2));
    if (b >= a) b++;
    int lo = a < b ? a : b, hi = a < b ? b : a;
    if (c >= lo) c++;
    if (c >= hi) c++;
    int v[3] = {a, b, c};
    for (int i = 0; i < 3; i++)
        for (int j = i + 1; j < 3; j++)
            if (v[j] < v[i]) {
                int t = v[i];
                v[i] = v[j];
                v[j] = t;
            }
    for (int i = 0; i < 3; i++) p[i] = start + v[i];
    return true;
}

bool wt_ls_bridge_keeps_fixed(const wt_ls *e, int p1, int p2, int p3)
{
    const wt_ls_tour *t = &e->t;
    if (!t->fixed) return true;
    const int p[3] = {p1, p2, p3};
    for (int i = 0; i < 3; i++)
        if (wt_ls_tour_fixed_edge(t, wt_ls_tour_at(t, p[i] - 1), wt_ls_tour_at(t, p[i])))
            return false;
    return true;
}

void wt_ls_double_bridge(wt_ls *e, int p1, int p2, int p3)
{
    wt_ls_tour *t = &e->t;
    int a = t->order[p1 - 1], b0 = t->order[p1], b1 = t->order[p2 - 1];
    int c0 = t->order[p2], c1 = t->order[p3 - 1], d = wt_ls_tour_at(t, p3);
    e->length += ls_dist(e, a, c0) + ls_dist(e, c1, b0) + ls_dist(e, b1, d) -
                 ls_dist(e, a, b0) - ls_dist(e, b1, c0) - ls_dist(e, c1, d);
    /* B C -> C B: reverse each, then both. */
    wt_ls_tour_reverse(t, p1, p2 - p1);
    wt_ls_tour_reverse(t, p2, p3 - p2);
    wt_ls_tour_reverse(t, p1, p3 - p1);
    int ends[6] = {a, b0, b1, c0, c1, d};
    for (int i = 0; i < 6; i++) ls_push(e, ends[i]);
}

void wt_ls_double_bridge4(wt_ls *e, const int q[4])
{
    wt_ls_tour *t = &e->t;
    int n = t->n, len[4], ends[8];
    for (int i = 0; i < 4; i++) {
        len[i] = i < 3 ? q[i + 1] - q[i] : q[0] + n - q[3];
        ends[2 * i] = t->order[q[i]];                      /* segment i's first city */
        ends[2 * i + 1] = wt_ls_tour_at(t, q[i] + len[i] - 1); /* and its last */
    }
    int64_t delta = 0;
    for (int i = 0; i < 4; i++) { /* i's last city goes from i+1's first to i-1's */
        delta -= ls_dist(e, ends[2 * i + 1], ends[2 * ((i + 1) % 4)]);
        delta += ls_dist(e, ends[2 * i + 1], ends[2 * ((i + 3) % 4)]);
    }
    e->length += delta;
    /* The anchor stays in place: the longest segment, or on a path the one
     * that holds the closing edge (the last). */
    int a = 3;
    for (int i = 0; !t->path && i < 3; i++)
        if (len[i] > len[a]) a = i;
    int from = wt_ls_tour_wrap(t, q[a] + len[a]), rest = n - len[a];
    wt_ls_tour_reverse(t, from, rest);
    /* The three others now lie reversed in reverse order; each back. */
    for (int x = 0, at_pos = from; x < 3; x++) {
        int seg = (a + 3 - x) % 4;
        wt_ls_tour_reverse(t, at_pos, len[seg]);
        at_pos = wt_ls_tour_wrap(t, at_pos + len[seg]);
    }
    for (int i = 0; i < 8; i++) ls_push(e, ends[i]);
}

/* The double bridge of wt_ls_double_bridge4 on the list, cutting before the
 * cities q[0..3] (in the list's direction): S0 S1 S2 S3 -> S0 S3 S2 S1 as
 * four flips (S1 S2 S3 reversed, then each of them back). */
static void list_double_bridge(wt_ls *e, const int32_t q[4])
{
    wt_ls_tour *t = &e->t;
    int b[4], f[4], ends[8];
    for (int i = 0; i < 4; i++) {
        b[i] = q[i];
        f[i] = wt_ls_tour_prev(t, q[(i + 1) % 4]);
        ends[2 * i] = b[i];
        ends[2 * i + 1] = f[i];
    }
    int64_t delta = 0;
    for (int i = 0; i < 4; i++) /* f[i] leaves b[i+1] for b[i-1] */
        delta += ls_dist(e, f[i], b[(i + 3) % 4]) - ls_dist(e, f[i], b[(i + 1) % 4]);
    e->length += delta;
    wt_ls_tour_flip(t, f[0], b[1], f[3], b[0]); /* S0 S3' S2' S1' */
    wt_ls_tour_flip(t, f[0], f[3], b[3], f[2]); /* S0 S3 S2' S1' */
    wt_ls_tour_flip(t, f[3], f[2], b[2], f[1]); /* S0 S3 S2 S1' */
    wt_ls_tour_flip(t, f[2], f[1], b[1], b[0]); /* S0 S3 S2 S1 */
    for (int i = 0; i < 8; i++) ls_push(e, ends[i]);
}

/* The end of a random walk of `steps` steps on the candidate lists from c. */
static int walk(const wt_ls *e, wt_rng *rng, int c, int steps)
{
    for (int s = 0; s < steps; s++) {
        const int32_t *nb = e->nb + (size_t)c * (size_t)e->k;
        int valid = 0;
        while (valid < e->k && nb[valid] >= 0) valid++;
        if (valid == 0) break;
        c = nb[wt_rng_below(rng, (uint64_t)valid)];
    }
    return c;
}

/* A kick's random city: one of cities[0..m-1], or of all when cities is NULL. */
static int32_t draw_city(const wt_ls *e, wt_rng *rng, const int32_t *cities, int m)
{
    if (!cities) return (int32_t)wt_rng_below(rng, (uint64_t)e->t.n);
    return cities[wt_rng_below(rng, (uint64_t)m)];
}

/* City c's place along the tour: its position, or its key on the list. */
static int64_t order_key(const wt_ls_tour *t, int c)
{
    return t->list ? wt_tour_list_key(t->list, c) : t->pos[c];
}

bool wt_ls_walk_kick(wt_ls *e, uint64_t seed, uint64_t kick, int steps)
{
    return wt_ls_walk_kick_among(e, seed, kick, steps, NULL, 0);
}

bool wt_ls_walk_kick_among(wt_ls *e, uint64_t seed, uint64_t kick, int steps,
                           const int32_t *cities, int m)
{
    wt_ls_tour *t = &e->t;
    if (t->n < 8) return false;
    wt_rng rng;
    wt_climb_rng(&rng, seed ^ 0x7f4a7c159e3779b9ULL, kick);
    for (int attempt = 0; attempt < 8; attempt++) {
        int32_t c[4];
        int64_t key[4];
        c[0] = draw_city(e, &rng, cities, m);
        for (int i = 1; i < 4; i++) c[i] = walk(e, &rng, c[0], steps);
        /* Fixed edges: a cut before c[i] that would remove (prev c[i],
         * c[i]) moves on along the tour to the first edge that is not
         * fixed.  Redrawing instead would never end where every city's
         * walk reaches is bound to a fixed edge before it (an asymmetric
         * instance's twins: its cheap edges join cities to twins, so an
         * odd walk from a city ends at a twin whose fixed edge comes
         * first, in one direction of the tour). */
        bool cut_ok = true;
        for (int i = 0; t->fixed && i < 4 && cut_ok; i++)
            for (int moved = 0; wt_ls_tour_fixed_edge(t, wt_ls_tour_prev(t, c[i]), c[i]);) {
                c[i] = wt_ls_tour_next(t, c[i]);
                if (++moved >= t->n) cut_ok = false;
                if (!cut_ok) break;
            }
        if (!cut_ok) continue;
        for (int i = 0; i < 4; i++) key[i] = order_key(t, c[i]);
        for (int i = 1; i < 4; i++) /* in tour order */
            for (int j = i; j > 0 && key[j] < key[j - 1]; j--) {
                int64_t tk = key[j];
                key[j] = key[j - 1];
                key[j - 1] = tk;
                int32_t tc = c[j];
                c[j] = c[j - 1];
                c[j - 1] = tc;
            }
        if (key[0] == key[1] || key[1] == key[2] || key[2] == key[3]) continue;
        if (t->list) {
            list_double_bridge(e, c);
        } else {
            /* A cut before position 0 would remove a path's closing edge. */
            if (t->path && key[0] == 0) continue;
            int q[4] = {(int)key[0], (int)key[1], (int)key[2], (int)key[3]};
            wt_ls_double_bridge4(e, q);
        }
        return true;
    }
    return false;
}
