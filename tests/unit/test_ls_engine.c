/*
 * test_ls_engine.c - the local-search engine (ls/engine.h) behind ILS's
 * local descents: its exact length and exact undo after kicks and
 * descents, segment engines on disjoint paths of one tour, and the
 * long-edge pass against brute force.  The oracles recompute lengths from
 * scratch and share no code with src/ls.
 */
#include "test_util.h"

#include "algo/policy.h"
#include "core/instance.h"
#include "core/neighbours.h"
#include "core/rng.h"
#include "ls/engine.h"
#include "ls/kicks.h"

/* The engine behind ILS's local descents: after kicks and descents its
 * length is the tour's exact length, and undo returns exactly to the tour
 * of the last commit. */
static void test_engine_tracks_and_undoes(void **state)
{
    (void)state;
    const wt_ls_moves plain = wt_policy_ls_moves(false);
    const int sizes[] = {8, 50, 300, 2000};
    for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; z++) {
        int n = sizes[z];
        wt_instance *inst = wt_test_random_instance(n, 90 + (uint64_t)n);
        int32_t *tour = malloc((size_t)n * sizeof *tour), *kept = malloc((size_t)n * sizeof *kept);
        wt_test_random_tour(n, 3, tour);
        wt_ls *w = NULL;
        assert_int_equal(wt_ls_create(inst, tour, NULL, &plain, &w, NULL), WT_OK);
        assert_int_equal(wt_ls_length(w), wt_tour_length(inst, tour));
        wt_ls_touch_all(w);
        uint64_t moves = 0;
        assert_int_equal(wt_ls_descend(w, &moves, NULL), WT_OK);
        assert_true(moves > 0);
        assert_int_equal(wt_ls_length(w), wt_tour_length(inst, wt_ls_order(w)));
        wt_ls_commit(w);
        memcpy(kept, wt_ls_order(w), (size_t)n * sizeof *kept);
        int64_t kept_len = wt_ls_length(w);
        for (uint64_t k = 0; k < 300; k++) {
            int p[3];
            assert_true(wt_ls_kick_points(7, k, n, p));
            wt_ls_double_bridge(w, p[0], p[1], p[2]);
            assert_int_equal(wt_ls_length(w), wt_tour_length(inst, wt_ls_order(w)));
            assert_int_equal(wt_ls_descend(w, NULL, NULL), WT_OK);
            const int32_t *t = wt_ls_order(w);
            assert_int_equal(wt_tour_validate(t, n, NULL), WT_OK);
            assert_int_equal(wt_ls_length(w), wt_tour_length(inst, t));
            if (k % 3 == 0) { /* keep */
                wt_ls_commit(w);
                memcpy(kept, t, (size_t)n * sizeof *kept);
                kept_len = wt_ls_length(w);
            } else {
                wt_ls_undo(w, kept_len);
                assert_memory_equal(wt_ls_order(w), kept, (size_t)n * sizeof *kept);
                assert_int_equal(wt_ls_length(w), kept_len);
            }
        }
        wt_ls_free(w);
        free(tour);
        free(kept);
        wt_instance_free(inst);
    }
}

/* Lists given to the engine (an ascent's alpha-nearness lists) need not
 * be sorted by distance: a descent on the nearest lists reversed, farthest
 * first, still leaves no improving 2-opt move between a city and a listed
 * one (a scan that ended at the first far candidate would leave many), and
 * LK descents on them keep an exact length. */
static bool two_opt_optimal(const wt_instance *inst, const int32_t *tour, const int32_t *nb,
                            int k)
{
    int n = inst->n;
    int32_t *pos = malloc((size_t)n * sizeof *pos);
    for (int i = 0; i < n; i++) pos[tour[i]] = i;
    bool optimal = true;
    for (int c = 0; c < n && optimal; c++)
        for (int x = 0; x < k; x++) {
            int d = nb[(size_t)c * (size_t)k + (size_t)x];
            for (int dir = 1; dir >= -1; dir -= 2) {
                int b = tour[(pos[c] + dir + n) % n], f = tour[(pos[d] + dir + n) % n];
                if (d == b || f == c) continue;
                int64_t delta = wt_dist(inst, c, d) + wt_dist(inst, b, f) - wt_dist(inst, c, b) -
                                wt_dist(inst, d, f);
                if (delta < 0) optimal = false;
            }
        }
    free(pos);
    return optimal;
}

static void test_given_lists_unsorted(void **state)
{
    (void)state;
    int n = 500, k = 8;
    wt_instance *inst = wt_test_random_instance(n, 77);
    int32_t *nb = malloc((size_t)n * (size_t)k * sizeof *nb);
    int32_t *tour = malloc((size_t)n * sizeof *tour);
    assert_int_equal(wt_neighbour_lists(inst, k, nb, NULL), WT_OK);
    for (int c = 0; c < n; c++)
        for (int x = 0; x < k / 2; x++) {
            int32_t *row = nb + (size_t)c * (size_t)k, keep = row[x];
            row[x] = row[k - 1 - x];
            row[k - 1 - x] = keep;
        }
    for (int lk = 0; lk < 2; lk++) {
        wt_ls_moves m = wt_policy_ls_moves(lk);
        m.candidates = k;
        m.given = nb;
        wt_test_random_tour(n, 5 + (uint64_t)lk, tour);
        wt_ls *w = NULL;
        assert_int_equal(wt_ls_create(inst, tour, NULL, &m, &w, NULL), WT_OK);
        int kk = 0;
        assert_memory_equal(wt_ls_candidates(w, &kk), nb, (size_t)n * (size_t)k * sizeof *nb);
        wt_ls_touch_all(w);
        assert_int_equal(wt_ls_descend(w, NULL, NULL), WT_OK);
        const int32_t *t = wt_ls_order(w);
        assert_int_equal(wt_tour_validate(t, n, NULL), WT_OK);
        assert_int_equal(wt_ls_length(w), wt_tour_length(inst, t));
        if (!lk) assert_true(two_opt_optimal(inst, t, nb, k));
        wt_ls_free(w);
    }
    free(nb);
    free(tour);
    wt_instance_free(inst);
}

/* Length of the closed path p[0..m-1] (its closing edge included). */
static int64_t closed_length(const wt_instance *inst, const int32_t *p, int m)
{
    int64_t len = wt_dist(inst, p[m - 1], p[0]);
    for (int i = 1; i < m; i++) len += wt_dist(inst, p[i - 1], p[i]);
    return len;
}

static int cmp_city(const void *a, const void *b)
{
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return (x > y) - (x < y);
}

/* Whether path p (m cities) holds the cities of tour[start..] (cyclic), its
 * ends in place. */
static bool same_segment(const int32_t *tour, int n, int start, const int32_t *p, int m)
{
    int32_t *a = malloc((size_t)m * sizeof *a), *b = malloc((size_t)m * sizeof *b);
    for (int i = 0; i < m; i++) a[i] = tour[(start + i) % n];
    bool ends = p[0] == a[0] && p[m - 1] == a[m - 1];
    memcpy(b, p, (size_t)m * sizeof *b);
    qsort(a, (size_t)m, sizeof *a, cmp_city);
    qsort(b, (size_t)m, sizeof *b, cmp_city);
    bool same = ends && memcmp(a, b, (size_t)m * sizeof *a) == 0;
    free(a);
    free(b);
    return same;
}

/* The path of w in the instance's numbering, as it would go back into
 * tour's positions start.. (through a scratch copy of tour). */
static void path_cities(const wt_ls *w, const int32_t *tour, int n, int start, int m,
                        int32_t *scratch, int32_t *out)
{
    memcpy(scratch, tour, (size_t)n * sizeof *scratch);
    wt_ls_store_path(w, scratch, n);
    for (int i = 0; i < m; i++) out[i] = scratch[(start + i) % n];
}

/* wt_ls_long_edges: from random tours of every planar type, the gain
 * it returns is the exact change of the length, the tour stays valid, the
 * thread count changes nothing, and once it returns 0 no 2-opt move over
 * all pairs (brute force) shortens the tour by removing one
 * of the `count` longest edges.  Other types are left alone. */
static int64_t brute_long_gain(const wt_instance *inst, const int32_t *t, int count)
{
    int n = wt_instance_n(inst);
    int64_t best = 0;
    for (int e = 0; e < count; e++) { /* the e-th longest edge, by brute force */
        int i_max = -1;
        int64_t d_max = -1;
        for (int i = 0; i < n; i++) {
            int64_t d = wt_instance_dist(inst, t[i], t[(i + 1) % n]);
            int rank = 0; /* edges strictly longer, or as long at lower positions */
            for (int k = 0; k < n; k++) {
                int64_t dk = wt_instance_dist(inst, t[k], t[(k + 1) % n]);
                rank += dk > d || (dk == d && k < i);
            }
            if (rank == e) {
                i_max = i;
                d_max = d;
            }
        }
        for (int j = 0; j < n; j++) {
            int i = i_max;
            if (j == i || j == (i + 1) % n || (j + 1) % n == i) continue;
            int64_t g = d_max + wt_instance_dist(inst, t[j], t[(j + 1) % n]) -
                        wt_instance_dist(inst, t[i], t[j]) -
                        wt_instance_dist(inst, t[(i + 1) % n], t[(j + 1) % n]);
            if (g > best) best = g;
        }
    }
    return best;
}

static void test_long_edges(void **state)
{
    (void)state;
    const wt_edge_weight_type types[] = {WT_EUC_2D, WT_CEIL_2D, WT_ATT, WT_MAN_2D, WT_MAX_2D,
                                         WT_GEO};
    const int n = 120, count = 6;
    int32_t *start = malloc(n * sizeof *start);
    for (size_t k = 0; k < sizeof types / sizeof *types; k++) {
        wt_instance *inst = wt_test_typed_instance(types[k], n, 31 + k);
        wt_test_random_tour(n, 7 + k, start);
        int32_t *tours[2];
        for (int threads = 1; threads <= 3; threads += 2) {
            wt_ls *w = NULL;
            wt_ls_moves m = wt_policy_ls_moves(false);
            assert_int_equal(wt_ls_create(inst, start, NULL, &m, &w, NULL), WT_OK);
            int64_t len = wt_tour_length(inst, start), gain;
            do {
                gain = wt_ls_long_edges(w, count, threads);
                assert_true(gain >= 0);
                len -= gain;
                assert_int_equal(wt_ls_length(w), len);
                assert_int_equal(wt_tour_length(inst, wt_ls_order(w)), len);
                assert_int_equal(wt_tour_validate(wt_ls_order(w), n, NULL), WT_OK);
            } while (gain > 0);
            if (types[k] == WT_GEO)
                assert_int_equal(len, wt_tour_length(inst, start));
            else
                assert_int_equal(brute_long_gain(inst, wt_ls_order(w), count), 0);
            tours[threads / 2] = malloc(n * sizeof *start);
            memcpy(tours[threads / 2], wt_ls_order(w), n * sizeof *start);
            wt_ls_free(w);
        }
        assert_memory_equal(tours[0], tours[1], n * sizeof *start);
        free(tours[0]);
        free(tours[1]);
        wt_instance_free(inst);
    }
    free(start);
}

/* Segment engines (ILS on segments of a tour): two segments of one tour,
 * one of them across position 0, searched side by side.  Each keeps its
 * cities and its ends, its length is the closed path's exactly through
 * kicks, descents and undos (on the path's own copies of the coordinates),
 * and both go back into the tour as a valid tour of the summed length. */
static void segment_engines_on(wt_instance *inst)
{
    const wt_ls_moves plain = wt_policy_ls_moves(false);
    int n = 600;
    size_t bytes = (size_t)n * sizeof(int32_t);
    int32_t *tour = malloc(bytes), *kept = malloc(bytes), *where = malloc(bytes);
    int32_t *scratch = malloc(bytes), *path = malloc(bytes);
    wt_test_random_tour(n, 5, tour);
    for (int x = 0; x < n; x++) where[tour[x]] = x;
    int64_t length = wt_tour_length(inst, tour);
    wt_ls *whole = NULL, *w[2] = {NULL, NULL}, *clone = NULL;
    assert_int_equal(wt_ls_create(inst, tour, NULL, &plain, &whole, NULL), WT_OK);
    assert_int_equal(wt_ls_create_paths(whole, 350, &w[0], NULL), WT_OK);
    assert_int_equal(wt_ls_create_paths(whole, 350, &w[1], NULL), WT_OK);
    assert_int_equal(wt_ls_clone(w[0], &clone, NULL), WT_STATUS_INVALID_ARGUMENT);
    const int start[2] = {500, 150}, m[2] = {250, 350};
    for (int s = 0; s < 2; s++) {
        wt_ls_adopt_path(w[s], tour, where, n, start[s], m[s]);
        int64_t base = wt_ls_length(w[s]);
        path_cities(w[s], tour, n, start[s], m[s], scratch, path);
        assert_int_equal(base, closed_length(inst, path, m[s]));
        wt_ls_touch_all(w[s]);
        assert_int_equal(wt_ls_descend(w[s], NULL, NULL), WT_OK);
        wt_ls_commit(w[s]);
        int64_t kept_len = wt_ls_length(w[s]);
        assert_true(kept_len < base);
        memcpy(kept, wt_ls_order(w[s]), (size_t)m[s] * sizeof *kept);
        for (uint64_t k = 0; k < 200; k++) {
            int p[3];
            assert_true(wt_ls_kick_points(9, k, m[s], p));
            wt_ls_double_bridge(w[s], p[0], p[1], p[2]);
            assert_int_equal(wt_ls_descend(w[s], NULL, NULL), WT_OK);
            path_cities(w[s], tour, n, start[s], m[s], scratch, path);
            assert_true(same_segment(tour, n, start[s], path, m[s]));
            assert_int_equal(wt_ls_length(w[s]), closed_length(inst, path, m[s]));
            if (wt_ls_length(w[s]) < kept_len) {
                wt_ls_commit(w[s]);
                kept_len = wt_ls_length(w[s]);
                memcpy(kept, wt_ls_order(w[s]), (size_t)m[s] * sizeof *kept);
            } else {
                wt_ls_undo(w[s], kept_len);
                assert_memory_equal(wt_ls_order(w[s]), kept, (size_t)m[s] * sizeof *kept);
            }
        }
        length += kept_len - base;
    }
    for (int s = 0; s < 2; s++) wt_ls_store_path(w[s], tour, n); /* back into the tour */
    assert_int_equal(wt_tour_validate(tour, n, NULL), WT_OK);
    assert_int_equal(wt_tour_length(inst, tour), length);
    /* A second adoption forgets the first path's cities. */
    for (int x = 0; x < n; x++) where[tour[x]] = x;
    wt_ls_adopt_path(w[0], tour, where, n, 0, 100);
    wt_ls_touch_all(w[0]);
    assert_int_equal(wt_ls_descend(w[0], NULL, NULL), WT_OK);
    path_cities(w[0], tour, n, 0, 100, scratch, path);
    assert_true(same_segment(tour, n, 0, path, 100));
    wt_ls_free(w[1]);
    wt_ls_free(w[0]);
    wt_ls_free(whole);
    free(tour);
    free(kept);
    free(where);
    free(scratch);
    free(path);
    wt_instance_free(inst);
}

static void test_segment_engines(void **state)
{
    (void)state;
    const wt_ls_moves plain = wt_policy_ls_moves(false);
    segment_engines_on(wt_test_random_instance(600, 17));
    const wt_edge_weight_type types[] = {WT_GEO, WT_EUC_3D, WT_ATT, WT_CEIL_2D};
    for (size_t t = 0; t < sizeof types / sizeof types[0]; t++)
        segment_engines_on(wt_test_typed_instance(types[t], 600, 40 + t));
    wt_ls *whole = NULL, *w = NULL; /* a matrix has no coordinates to copy */
    wt_instance *m = wt_test_typed_instance(WT_EXPLICIT, 30, 3);
    int32_t tour[30];
    wt_test_random_tour(30, 1, tour);
    assert_int_equal(wt_ls_create(m, tour, NULL, &plain, &whole, NULL), WT_OK);
    assert_int_equal(wt_ls_create_paths(whole, 10, &w, NULL), WT_STATUS_INVALID_ARGUMENT);
    wt_ls_free(whole);
    wt_instance_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_engine_tracks_and_undoes),
        cmocka_unit_test(test_segment_engines),
        cmocka_unit_test(test_long_edges),
        cmocka_unit_test(test_given_lists_unsorted),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
