/*
 * test_kswap.c - choosing 2-opt moves to apply together (Robinson et al.
 * §3.4), under the disjoint and the laminar (nested) rule, and the band
 * candidates of a k-swap pass.
 *
 * Crafted move sets: nested (several levels), crossing, sharing an edge,
 * touching, disjoint, the wrap-around moves (0, j) and (i, n-1),
 * duplicates, the k limit, order by gain.  Properties on random tours and
 * random candidate sets: wt_kswap_choose keeps exactly what a brute-force
 * greedy keeps (and, under the disjoint rule, what wt_kswap_select keeps);
 * its groups are disjoint and come innermost first; applying them a group
 * at a time (each group at once, as the GPU does) gives the tour that
 * applying the moves one by one in a valid order gives, and the length
 * changes by the sum of the deltas.  Band candidates equal a brute force.
 * Descents with every combination of the options end at 2-opt local
 * optima (brute force), are deterministic, do not depend on the thread
 * count, and leave --swaps 1 untouched.
 */
#include "test_util.h"

#include "core/kswap.h"
#include "backend/cpu/cpu_2opt.h"

/* ------------------------------------------------------------ helpers */

static uint64_t rng_next(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static int rng_below(uint64_t *s, int n) { return (int)(rng_next(s) % (uint64_t)n); }

static int select_moves(wt_kswap_move *m, int count, int k)
{
    wt_kswap_move scratch[64];
    return wt_kswap_select(m, count, k, scratch);
}

/* wt_kswap_choose with a workspace of its own (tours of n cities). */
static wt_kswap_choice choose(wt_kswap_move *m, int count, int k, bool nested, int n,
                              int *level_start_copy)
{
    wt_kswap_ws *ws = wt_kswap_ws_create(n, count);
    assert_non_null(ws);
    wt_kswap_choice ch = wt_kswap_choose(ws, m, count, k, nested);
    for (int g = 0; g <= ch.levels; g++) level_start_copy[g] = ch.level_start[g];
    ch.level_start = level_start_copy;
    wt_kswap_ws_free(ws);
    return ch;
}

static bool disjoint(wt_kswap_move a, wt_kswap_move b) { return a.j < b.i || b.j < a.i; }

/* b lies strictly inside a's reversed segment. */
static bool inside(wt_kswap_move b, wt_kswap_move a) { return a.i < b.i && b.j < a.j; }

static bool compatible(wt_kswap_move a, wt_kswap_move b, bool nested)
{
    return disjoint(a, b) || (nested && (inside(a, b) || inside(b, a)));
}

static int by_gain(const void *pa, const void *pb)
{
    const wt_kswap_move *a = pa, *b = pb;
    if (a->delta != b->delta) return a->delta < b->delta ? -1 : 1;
    if (a->i != b->i) return a->i < b->i ? -1 : 1;
    return (a->j > b->j) - (a->j < b->j);
}

static int by_position(const void *pa, const void *pb)
{
    const wt_kswap_move *a = pa, *b = pb;
    if (a->i != b->i) return a->i < b->i ? -1 : 1;
    return (a->j > b->j) - (a->j < b->j);
}

/* The greedy by brute force: kept moves sorted by position; returns how many. */
static int brute_choose(const wt_kswap_move *m, int count, int k, bool nested,
                        wt_kswap_move *out)
{
    wt_kswap_move *sorted = malloc((size_t)(count ? count : 1) * sizeof *sorted);
    assert_non_null(sorted);
    memcpy(sorted, m, (size_t)count * sizeof *m);
    qsort(sorted, (size_t)count, sizeof *sorted, by_gain);
    int kept = 0;
    for (int c = 0; c < count && sorted[c].delta < 0 && (k <= 0 || kept < k); c++) {
        bool ok = true;
        for (int d = 0; d < kept && ok; d++) ok = compatible(sorted[c], out[d], nested);
        if (ok) out[kept++] = sorted[c];
    }
    qsort(out, (size_t)kept, sizeof *out, by_position);
    free(sorted);
    return kept;
}

/* Groups are non-empty, disjoint inside, sorted by i, and every move comes
 * after all moves nested inside it; moves of different groups are
 * compatible. */
static void check_groups(const wt_kswap_move *m, wt_kswap_choice ch, bool nested)
{
    assert_int_equal(ch.level_start[0], 0);
    assert_int_equal(ch.level_start[ch.levels], ch.kept);
    if (!nested) assert_int_equal(ch.levels, ch.kept > 0 ? 1 : 0);
    int *group = malloc((size_t)(ch.kept ? ch.kept : 1) * sizeof *group);
    assert_non_null(group);
    for (int g = 0; g < ch.levels; g++) {
        assert_true(ch.level_start[g] < ch.level_start[g + 1]);
        for (int c = ch.level_start[g]; c < ch.level_start[g + 1]; c++) {
            group[c] = g;
            if (c > ch.level_start[g]) assert_true(m[c - 1].j < m[c].i);
        }
    }
    for (int a = 0; a < ch.kept; a++)
        for (int b = 0; b < ch.kept; b++) {
            if (a == b) continue;
            assert_true(compatible(m[a], m[b], nested));
            if (inside(m[b], m[a])) assert_true(group[b] < group[a]);
        }
    free(group);
}

/* Applies moves[first..last) at once, as the GPU's swap kernel does: every
 * position of every segment reads the tour as it was before the group. */
static void apply_group_at_once(int32_t *t, int n, const wt_kswap_move *m, int first, int last)
{
    int32_t *old = malloc((size_t)n * sizeof *old);
    assert_non_null(old);
    memcpy(old, t, (size_t)n * sizeof *t);
    for (int c = first; c < last; c++)
        for (int p = m[c].i + 1; p <= m[c].j; p++) t[p] = old[m[c].i + 1 + m[c].j - p];
    free(old);
}

static int by_length(const void *pa, const void *pb)
{
    const wt_kswap_move *a = pa, *b = pb;
    int la = a->j - a->i, lb = b->j - b->i;
    if (la != lb) return la < lb ? -1 : 1;
    return by_position(pa, pb);
}

/* Random candidates on tour t: pairs i + 2 <= j < n, exact deltas, some
 * repeated. */
static int random_candidates(const wt_instance *inst, const int32_t *t, uint64_t *s,
                             wt_kswap_move *out, int count)
{
    int n = wt_instance_n(inst), c = 0;
    while (c < count) {
        if (c > 0 && rng_below(s, 20) == 0) { /* a duplicate */
            out[c] = out[rng_below(s, c)];
            c++;
            continue;
        }
        int i = rng_below(s, n - 2);
        int span = rng_below(s, 3) == 0 ? 40 : n; /* short moves too */
        int hi = i + span < n - 1 ? i + span : n - 1;
        int j = i + 2 + rng_below(s, hi - i - 1);
        out[c++] = (wt_kswap_move){wt_2opt_move_delta(inst, t, i, j), i, j};
    }
    return c;
}

/* -------------------------------------------------- the disjoint rule */

static void test_nested_and_overlapping_dropped(void **state)
{
    (void)state;
    wt_kswap_move m[] = {{-5, 10, 20}, {-9, 2, 30}, {-3, 15, 40}};
    /* (2,30) is best; (10,20) nests inside it, (15,40) overlaps it. */
    assert_int_equal(select_moves(m, 3, 0), 1);
    assert_int_equal(m[0].i, 2);
    assert_int_equal(m[0].j, 30);
    wt_kswap_move c[] = {{-5, 10, 20}, {-9, 2, 30}, {-3, 15, 40}};
    int ls[8];
    wt_kswap_choice ch = choose(c, 3, 0, false, 64, ls);
    assert_int_equal(ch.kept, 1);
    assert_int_equal(ch.levels, 1);
    assert_int_equal(c[0].i, 2);
}

static void test_touching_dropped_disjoint_kept(void **state)
{
    (void)state;
    /* (10,20) and (20,30) share edge 20: the second is dropped;
     * (21,30) only meets it at a node, which is fine. */
    wt_kswap_move touching[] = {{-5, 10, 20}, {-4, 20, 30}};
    assert_int_equal(select_moves(touching, 2, 0), 1);
    wt_kswap_move disjoint_set[] = {{-4, 21, 30}, {-5, 10, 20}, {-1, 0, 2}};
    assert_int_equal(select_moves(disjoint_set, 3, 0), 3);
    /* Kept moves come back sorted by i. */
    assert_int_equal(disjoint_set[0].i, 0);
    assert_int_equal(disjoint_set[1].i, 10);
    assert_int_equal(disjoint_set[2].i, 21);
}

static void test_wrap_around_move_excludes_all(void **state)
{
    (void)state;
    wt_kswap_move m[] = {{-2, 3, 5}, {-7, 0, 49}, {-1, 10, 12}};
    assert_int_equal(select_moves(m, 3, 0), 1);
    assert_int_equal(m[0].j, 49);
    wt_kswap_move last[] = {{-2, 3, 5}, {-1, 47, 49}};
    assert_int_equal(select_moves(last, 2, 0), 2);
}

static void test_k_limit_and_gain_order(void **state)
{
    (void)state;
    wt_kswap_move m[] = {{-1, 0, 2}, {-3, 10, 12}, {-2, 20, 22}, {0, 30, 32}, {4, 40, 42}};
    assert_int_equal(select_moves(m, 5, 2), 2);
    assert_int_equal(m[0].delta + m[1].delta, -5);
    wt_kswap_move n[] = {{-1, 0, 2}, {-3, 10, 12}, {-2, 20, 22}, {0, 30, 32}, {4, 40, 42}};
    assert_int_equal(select_moves(n, 5, 0), 3); /* non-improving ones never */
    wt_kswap_move ties[] = {{-2, 10, 30}, {-2, 5, 15}};
    assert_int_equal(select_moves(ties, 2, 0), 1);
    assert_int_equal(ties[0].i, 5); /* equal gains: lowest (i, j) first */
}

static void test_kept_deltas_add_up(void **state)
{
    (void)state;
    for (int n = 6; n <= 300; n += 42) {
        wt_instance *inst = wt_test_random_instance(n, (uint64_t)n);
        int32_t *t = malloc((size_t)n * sizeof *t);
        wt_kswap_move *moves = malloc((size_t)n * sizeof *moves);
        wt_kswap_move *scratch = malloc((size_t)n * sizeof *scratch);
        wt_tour_init(inst, WT_INIT_RANDOM, 3, t, NULL);
        for (int pass = 0; pass < 5; pass++) {
            int found = wt_2opt_row_bests(inst, t, 2, NULL, moves);
            assert_true(found >= 0);
            int kept = wt_kswap_select(moves, found, 0, scratch);
            for (int c = 1; c < kept; c++) assert_true(moves[c - 1].j < moves[c].i);
            int64_t before = wt_tour_length(inst, t);
            int64_t sum = wt_kswap_apply(t, moves, kept);
            assert_int_equal(wt_tour_validate(t, n, NULL), WT_OK);
            assert_int_equal(wt_tour_length(inst, t) - before, sum);
        }
        free(t);
        free(moves);
        free(scratch);
        wt_instance_free(inst);
    }
}

/* wt_kswap_choose's disjoint rule is wt_kswap_select's, on sets full of
 * overlaps, ties, duplicates and non-improving moves. */
static void test_choose_disjoint_equals_select(void **state)
{
    (void)state;
    uint64_t s = 17;
    enum { N = 300, MAXC = 400 };
    wt_kswap_move a[MAXC], b[MAXC], scratch[MAXC];
    int ls[MAXC + 2];
    for (int trial = 0; trial < 300; trial++) {
        int n = 5 + rng_below(&s, N - 5), count = rng_below(&s, MAXC);
        for (int c = 0; c < count; c++) {
            int i = rng_below(&s, n - 2), j = i + 2 + rng_below(&s, n - i - 2);
            a[c] = (wt_kswap_move){rng_below(&s, 12) - 9, i, j};
        }
        memcpy(b, a, sizeof a);
        int k = rng_below(&s, 4) == 0 ? 1 + rng_below(&s, 5) : 0;
        int kept = wt_kswap_select(a, count, k, scratch);
        wt_kswap_choice ch = choose(b, count, k, false, n, ls);
        assert_int_equal(ch.kept, kept);
        for (int c = 0; c < kept; c++) {
            assert_int_equal(a[c].i, b[c].i);
            assert_int_equal(a[c].j, b[c].j);
            assert_int_equal(a[c].delta, b[c].delta);
        }
        check_groups(b, ch, false);
    }
}

/* --------------------------------------------------- the laminar rule */

static void expect_group(const wt_kswap_move *m, wt_kswap_choice ch, int g,
                         const int (*ij)[2], int count)
{
    assert_int_equal(ch.level_start[g + 1] - ch.level_start[g], count);
    for (int c = 0; c < count; c++) {
        assert_int_equal(m[ch.level_start[g] + c].i, ij[c][0]);
        assert_int_equal(m[ch.level_start[g] + c].j, ij[c][1]);
    }
}

static void test_nested_levels(void **state)
{
    (void)state;
    /* (0,40) > (5,30) > (10,20) > (12,18); (5,30) > (25,28); (50,60) apart. */
    wt_kswap_move m[] = {{-2, 25, 28}, {-9, 0, 40}, {-4, 10, 20}, {-1, 50, 60},
                         {-5, 5, 30},  {-3, 12, 18}};
    int ls[8];
    wt_kswap_choice ch = choose(m, 6, 0, true, 64, ls);
    assert_int_equal(ch.kept, 6);
    assert_int_equal(ch.levels, 4);
    static const int g0[][2] = {{12, 18}}, g1[][2] = {{10, 20}, {25, 28}}, g2[][2] = {{5, 30}},
                     g3[][2] = {{0, 40}, {50, 60}};
    expect_group(m, ch, 0, g0, 1);
    expect_group(m, ch, 1, g1, 2);
    expect_group(m, ch, 2, g2, 1);
    expect_group(m, ch, 3, g3, 2);
    check_groups(m, ch, true);
    /* The same moves, the outer ones found last: the levels are the same. */
    wt_kswap_move r[] = {{-9, 25, 28}, {-1, 0, 40}, {-8, 10, 20}, {-9, 50, 60},
                         {-2, 5, 30},  {-9, 12, 18}};
    ch = choose(r, 6, 0, true, 64, ls);
    assert_int_equal(ch.kept, 6);
    assert_int_equal(ch.levels, 4);
    expect_group(r, ch, 0, g0, 1);
    expect_group(r, ch, 3, g3, 2);
}

static void test_crossing_and_shared_edges_dropped(void **state)
{
    (void)state;
    int ls[16];
    /* (10,30) kept; crossing (20,40), (5,10) and (30,40) (share edge 10 or
     * 30: j1 == i2), same start (10,25), same end (15,30) are dropped;
     * strictly nested (11,29) and touching (31,40), (2,9) are kept. */
    wt_kswap_move m[] = {{-9, 10, 30}, {-8, 20, 40}, {-7, 30, 40}, {-6, 10, 25},
                         {-5, 15, 30}, {-4, 5, 10},  {-3, 11, 29}, {-2, 31, 40},
                         {-1, 2, 9}};
    wt_kswap_choice ch = choose(m, 9, 0, true, 64, ls);
    assert_int_equal(ch.kept, 4);
    assert_int_equal(ch.levels, 2);
    static const int inner[][2] = {{11, 29}}, outer[][2] = {{2, 9}, {10, 30}, {31, 40}};
    expect_group(m, ch, 0, inner, 1);
    expect_group(m, ch, 1, outer, 3);
    /* A crossing pair in either order: only the better one. */
    wt_kswap_move x[] = {{-1, 10, 30}, {-2, 5, 20}};
    ch = choose(x, 2, 0, true, 64, ls);
    assert_int_equal(ch.kept, 1);
    assert_int_equal(x[0].i, 5);
    /* Nested but one inside sharing the outer's edge: dropped. */
    wt_kswap_move y[] = {{-5, 10, 30}, {-4, 10, 12}, {-3, 28, 30}, {-2, 11, 13}};
    ch = choose(y, 4, 0, true, 64, ls);
    assert_int_equal(ch.kept, 2);
    assert_int_equal(y[0].i, 11);
    assert_int_equal(y[1].i, 10);
}

static void test_nested_wrap_around(void **state)
{
    (void)state;
    int ls[16];
    /* (0,49) on 50 cities reverses positions 1..49: moves strictly inside
     * it go with it; those using edge 0 or edge 49 (the closing edge) do
     * not. */
    wt_kswap_move m[] = {{-7, 0, 49}, {-2, 3, 5}, {-1, 0, 20}, {-1, 30, 49}, {-1, 10, 12},
                         {-1, 1, 48}};
    wt_kswap_choice ch = choose(m, 6, 0, true, 50, ls);
    assert_int_equal(ch.kept, 4);
    assert_int_equal(ch.levels, 3);
    static const int g0[][2] = {{3, 5}, {10, 12}}, g1[][2] = {{1, 48}}, g2[][2] = {{0, 49}};
    expect_group(m, ch, 0, g0, 2);
    expect_group(m, ch, 1, g1, 1);
    expect_group(m, ch, 2, g2, 1);
    /* (i, n-1) moves: (40,49) and (45,49) share the closing edge. */
    wt_kswap_move e[] = {{-3, 40, 49}, {-2, 45, 49}, {-1, 42, 47}};
    ch = choose(e, 3, 0, true, 50, ls);
    assert_int_equal(ch.kept, 2);
}

static void test_nested_duplicates_k_and_gains(void **state)
{
    (void)state;
    int ls[16];
    wt_kswap_move d[] = {{-3, 10, 20}, {-3, 10, 20}, {-3, 10, 20}, {-1, 12, 14}};
    wt_kswap_choice ch = choose(d, 4, 0, true, 64, ls);
    assert_int_equal(ch.kept, 2); /* a move offered twice is kept once */
    wt_kswap_move k[] = {{-1, 0, 60}, {-4, 10, 20}, {-3, 12, 14}, {-2, 30, 40}, {0, 50, 55},
                         {3, 41, 44}};
    ch = choose(k, 6, 2, true, 64, ls);
    assert_int_equal(ch.kept, 2);
    assert_int_equal(k[0].i, 12); /* the two best, the inner one first */
    assert_int_equal(k[1].i, 10);
    ch = choose(k, 6, 0, true, 64, ls);
    assert_int_equal(ch.kept, 4); /* never a move that does not improve */
    wt_kswap_move none[] = {{0, 1, 5}, {2, 7, 9}};
    ch = choose(none, 2, 0, true, 64, ls);
    assert_int_equal(ch.kept, 0);
    assert_int_equal(ch.levels, 0);
    ch = choose(none, 0, 0, true, 64, ls);
    assert_int_equal(ch.kept, 0);
}

/* wt_kswap_choose keeps what the brute-force greedy keeps, in valid groups,
 * on random sets (many crossings, nestings, ties, duplicates). */
static void test_choose_equals_brute_force(void **state)
{
    (void)state;
    uint64_t s = 99;
    enum { N = 400, MAXC = 500 };
    wt_kswap_move m[MAXC], ref[MAXC], sorted[MAXC];
    int ls[MAXC + 2];
    for (int trial = 0; trial < 400; trial++) {
        bool nested = trial % 4 != 0;
        int n = 4 + rng_below(&s, N - 4), count = rng_below(&s, MAXC);
        int reach = rng_below(&s, 2) ? n : 30;
        for (int c = 0; c < count; c++) {
            int i = rng_below(&s, n - 2);
            int hi = i + reach < n - 1 ? i + reach : n - 1;
            int j = i + 2 + rng_below(&s, hi - i - 1);
            m[c] = (wt_kswap_move){rng_below(&s, 40) - 30, i, j};
            if (c > 0 && rng_below(&s, 10) == 0) m[c] = m[rng_below(&s, c)];
        }
        int k = rng_below(&s, 5) == 0 ? 1 + rng_below(&s, 20) : 0;
        int kept = brute_choose(m, count, k, nested, ref);
        wt_kswap_choice ch = choose(m, count, k, nested, n, ls);
        assert_int_equal(ch.kept, kept);
        check_groups(m, ch, nested);
        memcpy(sorted, m, (size_t)kept * sizeof *m);
        qsort(sorted, (size_t)kept, sizeof *sorted, by_position);
        for (int c = 0; c < kept; c++) {
            assert_int_equal(sorted[c].i, ref[c].i);
            assert_int_equal(sorted[c].j, ref[c].j);
            assert_int_equal(sorted[c].delta, ref[c].delta);
        }
    }
}

/* One workspace over many calls: each call leaves it clean. */
static void test_workspace_reuse(void **state)
{
    (void)state;
    uint64_t s = 5;
    enum { N = 200, MAXC = 300 };
    wt_kswap_ws *ws = wt_kswap_ws_create(N, MAXC);
    assert_non_null(ws);
    wt_kswap_move m[MAXC], ref[MAXC], sorted[MAXC];
    for (int trial = 0; trial < 200; trial++) {
        bool nested = trial % 3 != 0;
        int count = rng_below(&s, MAXC);
        for (int c = 0; c < count; c++) {
            int i = rng_below(&s, N - 2), j = i + 2 + rng_below(&s, N - i - 2);
            m[c] = (wt_kswap_move){rng_below(&s, 10) - 8, i, j};
        }
        int kept = brute_choose(m, count, 0, nested, ref);
        wt_kswap_choice ch = wt_kswap_choose(ws, m, count, 0, nested);
        assert_int_equal(ch.kept, kept);
        check_groups(m, ch, nested);
        memcpy(sorted, m, (size_t)kept * sizeof *m);
        qsort(sorted, (size_t)kept, sizeof *sorted, by_position);
        for (int c = 0; c < kept; c++) assert_int_equal(sorted[c].i, ref[c].i);
    }
    wt_kswap_ws_free(ws);
    wt_kswap_ws_free(NULL);
    assert_null(wt_kswap_ws_create(0, 5));
}

/* On real tours: the groups applied one at a time, each at once, give the
 * tour that applying the kept moves one by one (innermost first) gives, and
 * the exact length changes by the sum of their deltas. */
static void test_levels_apply_like_sequential_moves(void **state)
{
    (void)state;
    uint64_t s = 2024;
    for (int n = 5; n <= 700; n += 27) {
        wt_instance *inst = wt_test_random_instance(n, 40 + (uint64_t)n);
        int32_t *t = malloc((size_t)n * sizeof *t), *u = malloc((size_t)n * sizeof *u);
        int32_t *v = malloc((size_t)n * sizeof *v);
        int cap = 2 * n + 50;
        wt_kswap_move *m = malloc((size_t)cap * sizeof *m),
                      *by_len = malloc((size_t)cap * sizeof *m);
        int *ls = malloc((size_t)(cap + 2) * sizeof *ls);
        assert_non_null(m);
        wt_tour_init(inst, WT_INIT_RANDOM, (uint64_t)n, t, NULL);
        for (int round = 0; round < 6; round++) {
            bool nested = round % 3 != 2;
            int count = round < 3 ? wt_2opt_candidates(inst, t, 2, NULL, 1 + rng_below(&s, n), m)
                                  : random_candidates(inst, t, &s, m, rng_below(&s, cap));
            assert_true(count >= 0);
            wt_kswap_choice ch = choose(m, count, round == 5 ? 7 : 0, nested, n, ls);
            check_groups(m, ch, nested);
            int64_t before = wt_tour_length(inst, t), sum = 0;
            memcpy(u, t, (size_t)n * sizeof *t);
            memcpy(v, t, (size_t)n * sizeof *t);
            for (int g = 0; g < ch.levels; g++)
                apply_group_at_once(u, n, m, ch.level_start[g], ch.level_start[g + 1]);
            memcpy(by_len, m, (size_t)ch.kept * sizeof *m);
            qsort(by_len, (size_t)ch.kept, sizeof *by_len, by_length);
            for (int c = 0; c < ch.kept; c++) {
                wt_2opt_apply(v, by_len[c].i, by_len[c].j);
                sum += by_len[c].delta;
            }
            int64_t applied = wt_kswap_apply(t, m, ch.kept);
            assert_int_equal(applied, sum);
            assert_int_equal(wt_tour_validate(t, n, NULL), WT_OK);
            assert_memory_equal(t, u, (size_t)n * sizeof *t);
            assert_memory_equal(t, v, (size_t)n * sizeof *t);
            assert_int_equal(wt_tour_length(inst, t) - before, sum);
            if (ch.kept > 0) assert_true(sum < 0);
        }
        free(t);
        free(u);
        free(v);
        free(m);
        free(by_len);
        free(ls);
        wt_instance_free(inst);
    }
}

/* --------------------------------------------------- band candidates */

static void test_band_candidates_match_brute_force(void **state)
{
    (void)state;
    static const int bands[] = {1, 2, 3, 8, 64, 1000};
    for (int n = 5; n <= 160; n += 31) {
        wt_instance *inst = wt_test_random_instance(n, 7 + (uint64_t)n);
        int32_t *t = malloc((size_t)n * sizeof *t);
        wt_kswap_move *got = malloc(2 * (size_t)n * sizeof *got);
        wt_kswap_move *want = malloc(2 * (size_t)n * sizeof *want);
        wt_kswap_move *row = malloc((size_t)n * sizeof *row);
        for (int start = 0; start < 2; start++) {
            wt_tour_init(inst, start ? WT_INIT_GREEDY : WT_INIT_RANDOM, 3, t, NULL);
            for (size_t b = 0; b < sizeof bands / sizeof bands[0]; b++) {
                int band = bands[b], count = 0;
                for (int i = 0; i < n - 2; i++) { /* row bests, lowest j of a delta */
                    row[i] = (wt_kswap_move){0, i, -1};
                    for (int j = i + 2; j < n; j++) {
                        int64_t d = wt_2opt_move_delta(inst, t, i, j);
                        if (d < row[i].delta) row[i] = (wt_kswap_move){d, i, j};
                    }
                    if (row[i].j >= 0) want[count++] = row[i];
                }
                for (int i = 0; i < n - 2; i++) {
                    wt_kswap_move best = {0, i, -1};
                    for (int j = i + 2; j < n && j <= i + band; j++) {
                        int64_t d = wt_2opt_move_delta(inst, t, i, j);
                        if (d < best.delta) best = (wt_kswap_move){d, i, j};
                    }
                    if (best.j >= 0 && best.j != row[i].j) want[count++] = best;
                }
                for (int threads = 1; threads <= 2; threads++) {
                    int found = wt_2opt_candidates(inst, t, threads, NULL, band, got);
                    assert_int_equal(found, count);
                    for (int c = 0; c < count; c++) {
                        assert_int_equal(got[c].i, want[c].i);
                        assert_int_equal(got[c].j, want[c].j);
                        assert_int_equal(got[c].delta, want[c].delta);
                    }
                }
                /* band 0: the row bests alone, as wt_2opt_row_bests */
                int rows = wt_2opt_candidates(inst, t, 2, NULL, 0, got);
                assert_int_equal(rows, wt_2opt_row_bests(inst, t, 2, NULL, want));
            }
        }
        free(t);
        free(got);
        free(want);
        free(row);
        wt_instance_free(inst);
    }
}

/* ------------------------------------------------------------ descents */

static int64_t min_exact_delta(const wt_instance *inst, const int32_t *t)
{
    int n = wt_instance_n(inst);
    int64_t best = 0;
    for (int i = 0; i < n - 2; i++)
        for (int j = i + 2; j < n; j++) {
            int64_t d = wt_2opt_move_delta(inst, t, i, j);
            if (d < best) best = d;
        }
    return best;
}

static void descend(const wt_instance *inst, wt_init_method init, int swaps, bool nested,
                    int band, int threads, wt_result *res)
{
    wt_params p;
    wt_params_defaults(&p);
    p.algorithm = WT_ALGO_2OPT; /* the default is ils */
    p.backend = WT_BACKEND_CPU;
    p.init = init;
    p.seed = 4;
    p.swaps = swaps;
    p.kswap_nested = nested;
    p.kswap_band = band;
    p.threads = threads;
    wt_error err = {0};
    if (wt_solve(inst, &p, res, &err) != WT_OK) fail_msg("solve: %s", err.message);
}

static void test_descents_reach_local_optima_deterministically(void **state)
{
    (void)state;
    static const int bands[] = {0, 1, 5, 64, 100000};
    static const int swaps[] = {0, 3};
    for (int n = 7; n <= 307; n += 150) {
        wt_instance *inst = wt_test_random_instance(n, 300 + (uint64_t)n);
        for (int init = 0; init < 2; init++) {
            wt_init_method m = init ? WT_INIT_GREEDY : WT_INIT_RANDOM;
            for (size_t k = 0; k < sizeof swaps / sizeof swaps[0]; k++)
                for (int nested = 0; nested < 2; nested++)
                    for (size_t b = 0; b < sizeof bands / sizeof bands[0]; b++) {
                        if (swaps[k] != 0 && bands[b] != 0 && bands[b] != 64) continue;
                        wt_result a, c;
                        descend(inst, m, swaps[k], nested, bands[b], 2, &a);
                        descend(inst, m, swaps[k], nested, bands[b], 1, &c);
                        assert_int_equal(a.stop, WT_STOP_DONE);
                        assert_int_equal(wt_tour_validate(a.tour, n, NULL), WT_OK);
                        assert_int_equal(a.length, wt_tour_length(inst, a.tour));
                        assert_true(min_exact_delta(inst, a.tour) >= 0);
                        assert_memory_equal(a.tour, c.tour, (size_t)n * sizeof *a.tour);
                        assert_int_equal(a.steps, c.steps);
                        wt_result_free(&a);
                        wt_result_free(&c);
                    }
            /* --swaps 1 is plain best improvement whatever the options say. */
            wt_result one, other;
            descend(inst, m, 1, false, 0, 2, &one);
            descend(inst, m, 1, true, 64, 2, &other);
            assert_true(min_exact_delta(inst, one.tour) >= 0);
            assert_memory_equal(one.tour, other.tour, (size_t)n * sizeof *one.tour);
            assert_int_equal(one.steps, other.steps);
            assert_int_equal(one.moves_evaluated, other.moves_evaluated);
            wt_result_free(&one);
            wt_result_free(&other);
        }
        wt_instance_free(inst);
    }
    wt_instance *inst = wt_test_random_instance(20, 1);
    wt_params p;
    wt_params_defaults(&p);
    p.algorithm = WT_ALGO_2OPT; /* the default is ils */
    p.backend = WT_BACKEND_CPU;
    p.kswap_band = -1;
    wt_result r;
    wt_error err = {0};
    assert_int_equal(wt_solve(inst, &p, &r, &err), WT_STATUS_INVALID_ARGUMENT);
    wt_instance_free(inst);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_nested_and_overlapping_dropped),
        cmocka_unit_test(test_touching_dropped_disjoint_kept),
        cmocka_unit_test(test_wrap_around_move_excludes_all),
        cmocka_unit_test(test_k_limit_and_gain_order),
        cmocka_unit_test(test_kept_deltas_add_up),
        cmocka_unit_test(test_choose_disjoint_equals_select),
        cmocka_unit_test(test_nested_levels),
        cmocka_unit_test(test_crossing_and_shared_edges_dropped),
        cmocka_unit_test(test_nested_wrap_around),
        cmocka_unit_test(test_nested_duplicates_k_and_gains),
        cmocka_unit_test(test_choose_equals_brute_force),
        cmocka_unit_test(test_workspace_reuse),
        cmocka_unit_test(test_levels_apply_like_sequential_moves),
        cmocka_unit_test(test_band_candidates_match_brute_force),
        cmocka_unit_test(test_descents_reach_local_optima_deterministically),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
