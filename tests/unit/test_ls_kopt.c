/*
 * test_ls_kopt.c - the LK step whose basic move is a sequential k-opt move
 * (ls/kopt.c, wt_ls_moves.kopt).
 *
 * Every step is made one at a time (ls_kopt_try, through the engine's
 * internals) and checked against oracles that share no code with src/ls:
 * the tour stays a permutation, the length the engine keeps equals the
 * tour's recomputed length (so every claimed gain was the exact change),
 * fixed edges and a path's ends stay; on the array and on the two-level
 * list, for k = 3, 4, 5, with and without submoves, their chains restricted
 * as Lin & Kernighan's and as LKH's, and under node penalties (LKH's
 * pi-transformed distances).  Steps from every city
 * until none moves leave no sequential 3-opt move (2-opt included) over the
 * candidates that the gain criterion admits: checked by brute force, each
 * candidate move's result built edge by edge.  ILS with the step gives the
 * same tour twice for one seed and kick budget, on quadrant neighbours and
 * on alpha lists (whose ascent runs before the first descent), and is the
 * default from WT_LK_KOPT_MIN_CITIES cities.  With double bridges
 * (moves.nonseq) the steps stay exact, and leave none that the search
 * reaches (an oracle built edge by edge).
 */
#include "test_util.h"

#include "algo/policy.h"
#include "core/fixed_edges.h"
#include "core/instance.h"
#include "core/search_ctl.h"
#include "core/tuning.h"
#include "ls/engine.h"
#include "ls/ls_impl.h"

static int64_t d(const wt_instance *inst, int a, int b) { return wt_instance_dist(inst, a, b); }

static wt_ls_moves kopt_moves(int k, int submoves)
{
    wt_ls_moves m = wt_policy_ls_moves(true);
    m.kopt = k;
    m.kopt_submoves = submoves;
    return m;
}

/* The engine's tour as it is now (from the list when one is open). */
static void current(const wt_ls *w, int32_t *out) { wt_ls_walk(w, out); }

/* Whether every fixed edge (adj, two cities a city) is in the tour. */
static bool holds(const int32_t *tour, int n, const int32_t *adj)
{
    return !adj || wt_tour_holds_fixed(tour, n, adj);
}

/* Steps from every city, each checked, until a round moves nothing; the
 * steps that moved. */
static int steps_checked(wt_ls *w, const int32_t *adj)
{
    const wt_instance *inst = w->inst;
    int n = w->t.n, moved = 0;
    int32_t *tour = malloc((size_t)n * sizeof *tour);
    int first = w->t.path ? w->t.order[0] : -1, last = w->t.path ? w->t.order[n - 1] : -1;
    for (bool again = true; again;) {
        again = false;
        for (int c = 0; c < n; c++) {
            int64_t before = w->length;
            if (!ls_kopt_try(w, c)) {
                assert_int_equal(w->length, before);
                continue;
            }
            again = true;
            moved++;
            assert_true(w->length < before);
            current(w, tour);
            assert_int_equal(wt_tour_validate(tour, n, NULL), WT_OK);
            assert_int_equal(w->length, wt_tour_length(inst, tour));
            assert_true(holds(tour, n, adj));
            if (first >= 0) { /* a path: its ends stay at its two ends */
                assert_int_equal(w->t.order[0], first);
                assert_int_equal(w->t.order[n - 1], last);
            }
        }
    }
    free(tour);
    w->q_count = 0;
    memset(w->queued, 0, (size_t)n);
    return moved;
}

/* Fixed edges: every seventh edge of the tour. */
static int32_t *every_seventh(const int32_t *tour, int n)
{
    int count = n / 7;
    int32_t *pairs = malloc(2 * (size_t)count * sizeof *pairs);
    int32_t *adj = malloc(2 * (size_t)n * sizeof *adj);
    for (int i = 0; i < count; i++) {
        pairs[2 * i] = tour[7 * i];
        pairs[2 * i + 1] = tour[7 * i + 1];
    }
    wt_fixed_adjacency(pairs, count, n, adj);
    free(pairs);
    return adj;
}

static void test_moves_exact(void **state)
{
    (void)state;
    const int sizes[] = {50, 120, 300};
    for (int z = 0; z < 3; z++)
        for (int k = 3; k <= 5; k++)
            for (int variant = 0; variant < 8; variant++) {
                int n = sizes[z];
                bool list = variant & 1, fixed = variant & 2, lkh_chains = variant & 4;
                wt_instance *inst = wt_test_random_instance(n, 100 + (uint64_t)(z * 10 + k));
                int32_t *tour = malloc((size_t)n * sizeof *tour);
                wt_test_random_tour(n, (uint64_t)(7 * z + k + variant), tour);
                int32_t *adj = fixed ? every_seventh(tour, n) : NULL;
                wt_params params;
                wt_params_defaults(&params);
                wt_search_ctl ctl;
                wt_ctl_init(&ctl, &params);
                ctl.fixed = adj;
                /* Long chains of submoves too (the default's), on the list
                 * with fixed edges. */
                int sub = (variant & 3) == 1 ? 0 : (variant & 3) == 3 ? WT_LK_KOPT_SUBMOVES : 2;
                wt_ls_moves m = kopt_moves(k, sub);
                m.kopt_lkh_chains = lkh_chains;
                wt_ls *w = NULL;
                assert_int_equal(wt_ls_create(inst, tour, &ctl, &m, &w, NULL), WT_OK);
                if (list) assert_int_equal(wt_ls_list_open(w, NULL), WT_OK);
                assert_true(steps_checked(w, adj) > n / 10);
                wt_ls_free(w);
                free(adj);
                free(tour);
                wt_instance_free(inst);
            }
}

/* On a segment engine's path (the closing edge stays). */
static void test_moves_exact_on_paths(void **state)
{
    (void)state;
    int n = 400, m = 250;
    wt_instance *inst = wt_test_random_instance(n, 31);
    int32_t *tour = malloc((size_t)n * sizeof *tour), *where = malloc((size_t)n * sizeof *where);
    wt_test_random_tour(n, 5, tour);
    for (int i = 0; i < n; i++) where[tour[i]] = i;
    wt_ls_moves mv = kopt_moves(5, 2);
    wt_ls *whole = NULL, *w = NULL;
    assert_int_equal(wt_ls_create(inst, tour, NULL, &mv, &whole, NULL), WT_OK);
    assert_int_equal(wt_ls_create_paths(whole, m, &w, NULL), WT_OK);
    wt_ls_adopt_path(w, tour, where, n, n - 100, m); /* wraps around position 0 */
    assert_true(steps_checked(w, NULL) > 20);
    wt_ls_free(w);
    wt_ls_free(whole);
    free(where);
    free(tour);
    wt_instance_free(inst);
}

/* Under node penalties (an ascent's, moves.pi): the gains the step
 * measures are pi_scale times the changes of length plus penalties that
 * cancel, so every step still shortens the tour by what the engine
 * counts; on the array, on the list and on a segment engine's path, whose
 * cities are numbered along it. */
static void test_moves_exact_with_penalties(void **state)
{
    (void)state;
    int n = 300, m = 200;
    wt_instance *inst = wt_test_random_instance(n, 41);
    int32_t *tour = malloc((size_t)n * sizeof *tour), *where = malloc((size_t)n * sizeof *where);
    int32_t *pi = malloc((size_t)n * sizeof *pi);
    for (int i = 0; i < n; i++) pi[i] = (int32_t)((i * 7919) % 2001) - 1000;
    for (int variant = 0; variant < 3; variant++) {
        wt_test_random_tour(n, (uint64_t)(11 + variant), tour);
        for (int i = 0; i < n; i++) where[tour[i]] = i;
        wt_ls_moves mv = kopt_moves(5, WT_LK_KOPT_SUBMOVES);
        mv.pi = pi;
        mv.pi_scale = 100;
        mv.kopt_lkh_chains = variant != 0;
        wt_ls *whole = NULL, *w = NULL;
        assert_int_equal(wt_ls_create(inst, tour, NULL, &mv, &whole, NULL), WT_OK);
        if (variant == 1) assert_int_equal(wt_ls_list_open(whole, NULL), WT_OK);
        if (variant == 2) {
            assert_int_equal(wt_ls_create_paths(whole, m, &w, NULL), WT_OK);
            wt_ls_adopt_path(w, tour, where, n, n - 50, m);
        }
        assert_true(steps_checked(w ? w : whole, NULL) > m / 10);
        wt_ls_free(w);
        wt_ls_free(whole);
    }
    free(pi);
    free(where);
    free(tour);
    wt_instance_free(inst);
}

/* ---------------------------------------- the 3-opt oracle, edge by edge */

/* Whether removing the edges (r[2i] r[2i+1]) from tour and adding (a[2i]
 * a[2i+1]), count of each, gives one cycle through all n cities. */
static bool one_cycle(const int32_t *tour, int n, const int *r, const int *a, int count)
{
    int32_t *adj = malloc(2 * (size_t)n * sizeof *adj);
    for (int i = 0; i < n; i++) {
        adj[2 * tour[i]] = tour[(i + n - 1) % n];
        adj[2 * tour[i] + 1] = tour[(i + 1) % n];
    }
    bool ok = true;
    for (int e = 0; e < count && ok; e++) /* remove */
        for (int s = 0; s < 2; s++) {
            int x = r[2 * e + s], y = r[2 * e + 1 - s];
            if (adj[2 * x] == y) adj[2 * x] = -1;
            else if (adj[2 * x + 1] == y) adj[2 * x + 1] = -1;
            else ok = false;
        }
    for (int e = 0; e < count && ok; e++) /* add */
        for (int s = 0; s < 2; s++) {
            int x = a[2 * e + s], y = a[2 * e + 1 - s];
            if (adj[2 * x] == -1) adj[2 * x] = y;
            else if (adj[2 * x + 1] == -1) adj[2 * x + 1] = y;
            else ok = false;
        }
    int seen = 0;
    for (int prev = -1, c = 0; ok;) {
        seen++;
        int next = adj[2 * c] != prev ? adj[2 * c] : adj[2 * c + 1];
        if (adj[2 * c] == adj[2 * c + 1]) next = adj[2 * c]; /* a 2-cycle */
        prev = c;
        c = next;
        if (c == 0 || seen > n) break;
    }
    free(adj);
    return ok && seen == n;
}

static bool tour_edge(const int32_t *pos, const int32_t *tour, int n, int a, int b)
{
    return tour[(pos[a] + 1) % n] == b || tour[(pos[a] + n - 1) % n] == b;
}

/* Whether some sequential 2- or 3-opt move over the candidates gains, its
 * partial gains positive (what the step searches). */
static bool gaining_3opt_left(const wt_instance *inst, const int32_t *tour, const int32_t *nb,
                              int k)
{
    int n = wt_instance_n(inst);
    int32_t *pos = malloc((size_t)n * sizeof *pos);
    for (int i = 0; i < n; i++) pos[tour[i]] = i;
    bool found = false;
    for (int t1 = 0; t1 < n && !found; t1++)
        for (int s2 = -1; s2 <= 1 && !found; s2 += 2) {
            int t2 = tour[(pos[t1] + s2 + n) % n];
            for (int x = 0; x < k && !found; x++) {
                int t3 = nb[(size_t)t2 * (size_t)k + (size_t)x];
                int64_t g1 = d(inst, t1, t2) - d(inst, t2, t3);
                if (t3 < 0 || g1 <= 0 || tour_edge(pos, tour, n, t2, t3)) continue;
                for (int s4 = -1; s4 <= 1 && !found; s4 += 2) {
                    int t4 = tour[(pos[t3] + s4 + n) % n];
                    if ((t3 == t1 && t4 == t2) || (t3 == t2 && t4 == t1)) continue;
                    int64_t g2 = g1 + d(inst, t3, t4);
                    int r2[4] = {t1, t2, t3, t4}, a2[4] = {t2, t3, t4, t1};
                    if (!tour_edge(pos, tour, n, t4, t1) && g2 - d(inst, t4, t1) > 0 &&
                        one_cycle(tour, n, r2, a2, 2))
                        found = true;
                    for (int y = 0; y < k && !found; y++) {
                        int t5 = nb[(size_t)t4 * (size_t)k + (size_t)y];
                        if (t5 < 0 || g2 - d(inst, t4, t5) <= 0) continue;
                        if (tour_edge(pos, tour, n, t4, t5)) continue;
                        for (int s6 = -1; s6 <= 1 && !found; s6 += 2) {
                            int t6 = tour[(pos[t5] + s6 + n) % n];
                            int r3[6] = {t1, t2, t3, t4, t5, t6}, a3[6] = {t2, t3, t4, t5, t6, t1};
                            int64_t gain = g2 - d(inst, t4, t5) + d(inst, t5, t6) - d(inst, t6, t1);
                            if (gain > 0 && !tour_edge(pos, tour, n, t6, t1) &&
                                one_cycle(tour, n, r3, a3, 3))
                                found = true;
                        }
                    }
                }
            }
        }
    free(pos);
    return found;
}


/* The oracle has moves to find: a descent of 2-opt and Or-opt moves leaves
 * some on every instance here; the k-opt steps leave none. */
static void test_steps_leave_no_3opt_move(void **state)
{
    (void)state;
    for (int seed = 1; seed <= 3; seed++) {
        int n = 100 + 50 * seed;
        wt_instance *inst = wt_test_random_instance(n, 200 + (uint64_t)seed);
        int32_t *tour = malloc((size_t)n * sizeof *tour);
        wt_test_random_tour(n, (uint64_t)seed, tour);
        wt_ls_moves m = kopt_moves(5, 2), local = wt_policy_ls_moves(false);
        wt_ls *w = NULL, *plain = NULL;
        assert_int_equal(wt_ls_create(inst, tour, NULL, &m, &w, NULL), WT_OK);
        assert_int_equal(wt_ls_create(inst, tour, NULL, &local, &plain, NULL), WT_OK);
        wt_ls_touch_all(plain);
        assert_int_equal(wt_ls_descend(plain, NULL, NULL), WT_OK);
        int k;
        const int32_t *nb = wt_ls_candidates(w, &k);
        assert_true(gaining_3opt_left(inst, wt_ls_order(plain), nb, k));
        steps_checked(w, NULL);
        assert_false(gaining_3opt_left(inst, wt_ls_order(w), nb, k));
        wt_ls_free(plain);
        wt_ls_free(w);
        free(tour);
        wt_instance_free(inst);
    }
}

/* --------------------------------------------- double bridges (nonseq) */

/* With double bridges (moves.nonseq) every step keeps a valid tour of
 * the exact length, fixed edges and a path's ends: on the array, on the
 * list with fixed edges, on a path, under penalties. */
static void test_double_bridges_exact(void **state)
{
    (void)state;
    int n = 300, m = 200;
    wt_instance *inst = wt_test_random_instance(n, 57);
    int32_t *tour = malloc((size_t)n * sizeof *tour), *where = malloc((size_t)n * sizeof *where);
    int32_t *pi = malloc((size_t)n * sizeof *pi);
    for (int i = 0; i < n; i++) pi[i] = (int32_t)((i * 104729) % 1001) - 500;
    for (int variant = 0; variant < 4; variant++) {
        wt_test_random_tour(n, (uint64_t)(21 + variant), tour);
        for (int i = 0; i < n; i++) where[tour[i]] = i;
        int32_t *adj = variant == 1 ? every_seventh(tour, n) : NULL;
        wt_params params;
        wt_params_defaults(&params);
        wt_search_ctl ctl;
        wt_ctl_init(&ctl, &params);
        ctl.fixed = adj;
        wt_ls_moves mv = kopt_moves(5, WT_LK_KOPT_SUBMOVES);
        mv.nonseq = true;
        if (variant == 3) {
            mv.pi = pi;
            mv.pi_scale = 100;
        }
        wt_ls *whole = NULL, *w = NULL;
        assert_int_equal(wt_ls_create(inst, tour, &ctl, &mv, &whole, NULL), WT_OK);
        if (variant == 1) assert_int_equal(wt_ls_list_open(whole, NULL), WT_OK);
        if (variant == 2) {
            assert_int_equal(wt_ls_create_paths(whole, m, &w, NULL), WT_OK);
            wt_ls_adopt_path(w, tour, where, n, n - 50, m);
        }
        assert_true(steps_checked(w ? w : whole, adj) > m / 10);
        wt_ls_free(w);
        wt_ls_free(whole);
        free(adj);
    }
    free(pi);
    free(where);
    free(tour);
    wt_instance_free(inst);
}

/* The oracle of the double bridges the step searches on a tour of at most
 * 2 NONSEQ_SCAN + 1 cities (kopt.c; every city of the smaller cycle
 * scanned), built edge by edge: some (t1 t2), t3 a candidate of t2 (t1
 * t2 longer than t2 t3, t3 no neighbour of t2), t4 after t3 in the
 * orientation where t2 follows t1; the smaller cycle (X = t2 .. t3 on a
 * tie) holds p, q its tour neighbour there, r a candidate of q in the
 * other cycle with the partial gain positive, s a tour neighbour of r;
 * removing (t1 t2) (t3 t4) (p q) (r s) and adding (t2 t3) (t4 t1) (q r)
 * (s p) gains and gives one cycle. */
static bool gaining_double_bridge_left(const wt_instance *inst, const int32_t *tour,
                                       const int32_t *nb, int k)
{
    int n = wt_instance_n(inst);
    int32_t *pos = malloc((size_t)n * sizeof *pos);
    for (int i = 0; i < n; i++) pos[tour[i]] = i;
    bool found = false;
    for (int p1 = 0; p1 < n && !found; p1++)
        for (int dir = 1; dir >= -1 && !found; dir -= 2) {
            int t1 = tour[p1], t2 = tour[(p1 + dir + n) % n];
            for (int x = 0; x < k && !found; x++) {
                int t3 = nb[(size_t)t2 * (size_t)k + (size_t)x];
                if (t3 < 0 || t3 == t1 || tour_edge(pos, tour, n, t2, t3)) continue;
                int64_t g1 = d(inst, t1, t2) - d(inst, t2, t3);
                int t4 = tour[(pos[t3] + dir + n) % n];
                if (g1 <= 0 || t4 == t1 || tour_edge(pos, tour, n, t4, t1)) continue;
                int64_t g = g1 + d(inst, t3, t4) - d(inst, t4, t1);
                /* steps from t2 to t3 in the orientation: X's size less one */
                int lx = ((pos[t3] - pos[t2]) * dir + n) % n + 1, ly = n - lx;
                bool in_x = lx <= ly;
                for (int q1 = 0; q1 < n && !found; q1++) {
                    int p = tour[q1];
                    int off = ((pos[p] - pos[t2]) * dir + n) % n; /* from t2 */
                    if ((off < lx) != in_x) continue;
                    for (int side = -1; side <= 1 && !found; side += 2) {
                        int q = tour[(pos[p] + side + n) % n];
                        int offq = ((pos[q] - pos[t2]) * dir + n) % n;
                        if ((offq < lx) != in_x) continue; /* across a first-half edge */
                        for (int y = 0; y < k && !found; y++) {
                            int r = nb[(size_t)q * (size_t)k + (size_t)y];
                            if (r < 0) continue;
                            int offr = ((pos[r] - pos[t2]) * dir + n) % n;
                            int64_t gr = g + d(inst, p, q) - d(inst, q, r);
                            if (gr <= 0 || (offr < lx) == in_x) continue;
                            for (int side2 = -1; side2 <= 1 && !found; side2 += 2) {
                                int s = tour[(pos[r] + side2 + n) % n];
                                int offs = ((pos[s] - pos[t2]) * dir + n) % n;
                                if ((offs < lx) != (offr < lx)) continue;
                                int rm[8] = {t1, t2, t3, t4, p, q, r, s};
                                int ad[8] = {t2, t3, t4, t1, q, r, s, p};
                                if (gr + d(inst, r, s) - d(inst, s, p) > 0 &&
                                    one_cycle(tour, n, rm, ad, 4))
                                    found = true;
                            }
                        }
                    }
                }
            }
        }
    free(pos);
    return found;
}

/* Steps from every city until none moves, of the 3-opt step without and
 * with double bridges: the oracle finds gaining double bridges left by
 * the sequential steps (on three of the six instances), none left by the
 * steps with them. */
static void test_double_bridges_leave_none(void **state)
{
    (void)state;
    int left = 0;
    for (int seed = 1; seed <= 6; seed++) {
        int n = 70 + 5 * seed;
        wt_instance *inst = wt_test_random_instance(n, 400 + (uint64_t)seed);
        int32_t *tour = malloc((size_t)n * sizeof *tour);
        wt_test_random_tour(n, (uint64_t)seed, tour);
        wt_ls_moves seq = kopt_moves(3, 0), both = seq;
        both.nonseq = true;
        wt_ls *a = NULL, *b = NULL;
        assert_int_equal(wt_ls_create(inst, tour, NULL, &seq, &a, NULL), WT_OK);
        assert_int_equal(wt_ls_create(inst, tour, NULL, &both, &b, NULL), WT_OK);
        int k;
        const int32_t *nb = wt_ls_candidates(b, &k);
        steps_checked(a, NULL);
        left += gaining_double_bridge_left(inst, wt_ls_order(a), nb, k);
        steps_checked(b, NULL);
        assert_false(gaining_double_bridge_left(inst, wt_ls_order(b), nb, k));
        wt_ls_free(a);
        wt_ls_free(b);
        free(tour);
        wt_instance_free(inst);
    }
    assert_true(left > 0);
}

/* ILS with LK descents on the cpu backend, kicks kicks on threads
 * threads from seed, with tuning t (NULL: the library's). */
static wt_params lk_params(const wt_tuning *t, uint64_t kicks, int threads, uint64_t seed)
{
    wt_params p;
    wt_params_defaults(&p);
    p.algorithm = WT_ALGO_ILS;
    p.ils_descent = WT_ILS_LK;
    p.backend = WT_BACKEND_CPU;
    p.kicks = kicks;
    p.threads = threads;
    p.seed = seed;
    p.tuning = t;
    return p;
}

/* ILS with the 5-opt step, without and with double bridges: one seed and
 * kick budget, one tour. */
static void test_ils_same_tour_twice(void **state)
{
    (void)state;
    wt_instance *inst = wt_test_random_instance(600, 9);
    for (int nonseq = 0; nonseq < 2; nonseq++) {
        const wt_tuning tune = {.lk_kopt = 5, .lk_alpha = WT_TUNING_OFF,
                                .lk_nonseq = nonseq ? 1 : 0};
        wt_params p = lk_params(&tune, 300, 2, 3);
        wt_result a, b;
        wt_error err = {0};
        if (wt_solve(inst, &p, &a, &err) != WT_OK) fail_msg("solve: %s", err.message);
        assert_int_equal(wt_tour_validate(a.tour, a.n, NULL), WT_OK);
        assert_int_equal(a.length, wt_tour_length(inst, a.tour));
        assert_true(a.length < a.init_length);
        assert_int_equal(wt_solve(inst, &p, &b, NULL), WT_OK);
        assert_memory_equal(a.tour, b.tour, (size_t)a.n * sizeof *a.tour);
        wt_result_free(&a);
        wt_result_free(&b);
    }
    wt_instance_free(inst);
}

/* The 5-opt step on alpha lists, whose ascent runs before the first
 * descent: a valid tour of exact length, above the ascent's bound, the
 * same on 1 and 2 threads for one seed and kick budget. */
static void test_ils_alpha_lists_first(void **state)
{
    (void)state;
    wt_instance *inst = wt_test_random_instance(500, 12);
    const wt_tuning tune = {.lk_kopt = 5, .lk_alpha = 1};
    wt_params p = lk_params(&tune, 200, 1, 5);
    wt_result a, b;
    wt_error err = {0};
    if (wt_solve(inst, &p, &a, &err) != WT_OK) fail_msg("solve: %s", err.message);
    assert_int_equal(wt_tour_validate(a.tour, a.n, NULL), WT_OK);
    assert_int_equal(a.length, wt_tour_length(inst, a.tour));
    assert_true(a.ascent.iterations > 0);
    assert_true(a.lower_bound > 0 && a.lower_bound <= a.length);
    assert_true(a.length < a.init_length);
    p.threads = 2;
    assert_int_equal(wt_solve(inst, &p, &b, NULL), WT_OK);
    assert_memory_equal(a.tour, b.tour, (size_t)a.n * sizeof *a.tour);
    wt_result_free(&a);
    wt_result_free(&b);
    wt_instance_free(inst);
}

/* One solve of ILS with LK descents on inst, 100 kicks, one thread, with
 * tuning t (NULL: the library's); its tour into *out. */
static void lk_solve(const wt_instance *inst, const wt_tuning *t, wt_result *out)
{
    wt_params p = lk_params(t, 100, 1, 2);
    wt_error err = {0};
    if (wt_solve(inst, &p, out, &err) != WT_OK) fail_msg("solve: %s", err.message);
}

/* The default step from WT_LK_KOPT_MIN_CITIES cities is the 5-opt step on
 * alpha lists (the same tour as lk_kopt 5 and lk_alpha 1 asked for), and
 * lk_kopt off the flip chain with the ascent's bound alone (the same tour
 * as lk_alpha 2, which takes the lists away and with them the k-opt
 * step); the two differ. */
static void test_default_step(void **state)
{
    (void)state;
    wt_instance *inst = wt_test_random_instance(WT_LK_KOPT_MIN_CITIES, 4);
    const wt_tuning lkh = {.lk_kopt = 5, .lk_alpha = 1}, off = {.lk_kopt = WT_TUNING_OFF},
                    bound = {.lk_alpha = 2};
    wt_result def, asked, flip, bound_only;
    lk_solve(inst, NULL, &def);
    lk_solve(inst, &lkh, &asked);
    lk_solve(inst, &off, &flip);
    lk_solve(inst, &bound, &bound_only);
    size_t bytes = (size_t)inst->n * sizeof *def.tour;
    assert_memory_equal(def.tour, asked.tour, bytes);
    assert_memory_equal(flip.tour, bound_only.tour, bytes);
    assert_true(memcmp(def.tour, flip.tour, bytes) != 0);
    assert_true(def.lower_bound > 0 && flip.lower_bound > 0);
    wt_result_free(&def);
    wt_result_free(&asked);
    wt_result_free(&flip);
    wt_result_free(&bound_only);
    wt_instance_free(inst);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_moves_exact),
        cmocka_unit_test(test_moves_exact_on_paths),
        cmocka_unit_test(test_moves_exact_with_penalties),
        cmocka_unit_test(test_steps_leave_no_3opt_move),
        cmocka_unit_test(test_double_bridges_exact),
        cmocka_unit_test(test_double_bridges_leave_none),
        cmocka_unit_test(test_ils_same_tour_twice),
        cmocka_unit_test(test_ils_alpha_lists_first),
        cmocka_unit_test(test_default_step),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
