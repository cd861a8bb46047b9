/*
 * test_kdtree.c - the k-d tree (src/core/kdtree.c) against brute force.
 *
 * For every embedding (L2 in the plane, L1, L-infinity, L2 in space, and the
 * unit sphere of GEO) the k-nearest and nearest-live answers must equal a
 * brute-force scan under the same rule (embedding distance, then lower city
 * number), also after many removals, with many duplicate points, and for
 * trees over a subset of the cities.  The brute force computes its own
 * distances from the coordinates, so it does not trust the tree's metric;
 * for GEO, whose embedding it would have to copy, it checks instead that the
 * answers are nearest in the exact TSPLIB distance.
 */
#include "test_util.h"

#include <math.h>

#include "core/instance_build.h"
#include "core/kdtree.h"
#include "core/rng.h"

/* An instance of n random points of the given type.  grid > 0 draws integer
 * coordinates in [0, grid), which makes duplicates and distance ties common;
 * grid == 0 draws real coordinates in a range suited to the type. */
static wt_instance *random_instance(wt_edge_weight_type type, int n, int grid, uint64_t seed)
{
    wt_rng rng;
    wt_rng_seed(&rng, seed);
    double *c[3];
    for (int k = 0; k < 3; k++) c[k] = malloc((size_t)n * sizeof(double));
    for (int i = 0; i < n; i++) {
        for (int k = 0; k < 3; k++) {
            if (grid > 0)
                c[k][i] = (double)wt_rng_below(&rng, (uint64_t)grid);
            else if (type == WT_GEO)
                c[k][i] = (k == 0 ? 170.0 : 350.0) * (wt_rng_uniform(&rng) - 0.5);
            else
                c[k][i] = 1000.0 * wt_rng_uniform(&rng);
        }
    }
    wt_instance *inst = NULL;
    wt_error err = {0};
    wt_status st = wt_instance_from_coords("kd", n, type, c[0], c[1], c[2], &inst, &err);
    for (int k = 0; k < 3; k++) free(c[k]);
    if (st != WT_OK) fail_msg("from_coords: %s", err.message);
    return inst;
}

/* The test's own embedding distance; GEO is compared by exact distance. */
static double brute_dist(const wt_instance *inst, int a, int b)
{
    double dx = inst->x[a] - inst->x[b], dy = inst->y[a] - inst->y[b];
    switch (inst->type) {
    case WT_MAN_2D: return fabs(dx) + fabs(dy);
    case WT_MAX_2D: return fabs(dx) > fabs(dy) ? fabs(dx) : fabs(dy);
    case WT_EUC_3D: {
        double dz = inst->z[a] - inst->z[b];
        return dx * dx + dy * dy + dz * dz;
    }
    case WT_GEO: return (double)wt_dist(inst, a, b);
    default: return dx * dx + dy * dy;
    }
}

typedef struct ranked {
    double d;
    int city;
} ranked;

static int compare_ranked(const void *pa, const void *pb)
{
    const ranked *a = pa, *b = pb;
    if (a->d != b->d) return a->d < b->d ? -1 : 1;
    return (a->city > b->city) - (a->city < b->city);
}

/* Live cities other than q, sorted by (distance to q, city); returns count. */
static int brute_rank(const wt_instance *inst, const bool *live, int q, ranked *out)
{
    int m = 0;
    for (int c = 0; c < inst->n; c++)
        if (live[c] && c != q) out[m++] = (ranked){brute_dist(inst, q, c), c};
    qsort(out, (size_t)m, sizeof *out, compare_ranked);
    return m;
}

/* Checks knn(q, k) and nearest(q) against the brute-force ranking. */
static void check_queries(const wt_kdtree *tree, const wt_instance *inst, const bool *live,
                          int q, int k, ranked *scratch)
{
    int m = brute_rank(inst, live, q, scratch);
    int32_t got[16];
    double dist[16];
    int found = wt_kdtree_knn(tree, q, k, got, dist);
    assert_int_equal(found, m < k ? m : k);
    int nearest = wt_kdtree_nearest(tree, q);
    if (m == 0) {
        assert_int_equal(nearest, -1);
        return;
    }
    if (inst->type == WT_GEO) { /* same exact distances, cities may differ on ties */
        assert_true(wt_dist(inst, q, nearest) == (int64_t)scratch[0].d);
        for (int i = 0; i < found; i++)
            assert_true(wt_dist(inst, q, got[i]) == (int64_t)scratch[i].d);
        return;
    }
    assert_int_equal(nearest, scratch[0].city);
    for (int i = 0; i < found; i++) {
        assert_int_equal(got[i], scratch[i].city);
        assert_true(dist[i] == scratch[i].d);
    }
}

/* Queries every few cities, removes a random fraction, and repeats until
 * the tree is empty; the tree holds all cities. */
static void check_with_removals(wt_edge_weight_type type, int n, int grid, uint64_t seed)
{
    wt_instance *inst = random_instance(type, n, grid, seed);
    wt_kdtree *tree = NULL;
    assert_int_equal(wt_kdtree_create(inst, NULL, n, &tree, NULL), WT_OK);
    bool *live = malloc((size_t)n);
    ranked *scratch = malloc((size_t)n * sizeof *scratch);
    for (int i = 0; i < n; i++) live[i] = true;
    wt_rng rng;
    wt_rng_seed(&rng, seed ^ 0x5eed);
    int n_live = n;
    while (n_live > 0) {
        for (int t = 0; t < 12; t++) {
            int q = (int)wt_rng_below(&rng, (uint64_t)n);
            check_queries(tree, inst, live, q, 1 + (int)wt_rng_below(&rng, 12), scratch);
        }
        int drop = n_live / 4 + 1;
        for (int t = 0; t < drop; t++) {
            int c = (int)wt_rng_below(&rng, (uint64_t)n);
            if (live[c]) n_live--;
            live[c] = false;
            wt_kdtree_remove(tree, c); /* also on dead cities: must be a no-op */
        }
        assert_int_equal(wt_kdtree_live(tree), n_live);
    }
    check_queries(tree, inst, live, 0, 3, scratch);
    free(live);
    free(scratch);
    wt_kdtree_free(tree);
    wt_instance_free(inst);
}

static void test_euc_2d(void **state)
{
    (void)state;
    check_with_removals(WT_EUC_2D, 600, 0, 1);
    check_with_removals(WT_EUC_2D, 600, 30, 2); /* duplicates and ties */
    check_with_removals(WT_CEIL_2D, 100, 0, 3);
    check_with_removals(WT_ATT, 100, 10, 4);
}

static void test_man_2d(void **state)
{
    (void)state;
    check_with_removals(WT_MAN_2D, 600, 0, 5);
    check_with_removals(WT_MAN_2D, 600, 25, 6);
}

static void test_max_2d(void **state)
{
    (void)state;
    check_with_removals(WT_MAX_2D, 600, 0, 7);
    check_with_removals(WT_MAX_2D, 600, 25, 8);
}

static void test_euc_3d(void **state)
{
    (void)state;
    check_with_removals(WT_EUC_3D, 600, 0, 9);
    check_with_removals(WT_EUC_3D, 600, 8, 10);
}

static void test_geo(void **state)
{
    (void)state;
    check_with_removals(WT_GEO, 400, 0, 11);
}

/* Every point on one spot: answers are the lowest live city numbers. */
static void test_all_points_equal(void **state)
{
    (void)state;
    check_with_removals(WT_EUC_2D, 500, 1, 12);
    check_with_removals(WT_MAX_2D, 50, 1, 13);
}

static void test_small_trees(void **state)
{
    (void)state;
    for (int n = 3; n <= 20; n++) check_with_removals(WT_EUC_2D, n, n % 2 ? 0 : 4, 100 + n);
}

/* A tree over a subset answers only with members, and queries from cities
 * outside the subset work. */
static void test_subset(void **state)
{
    (void)state;
    enum { n = 500 };
    wt_instance *inst = random_instance(WT_EUC_2D, n, 40, 21);
    int32_t members[n];
    bool live[n];
    int m = 0;
    for (int c = 0; c < n; c++) {
        live[c] = c % 3 == 1;
        if (live[c]) members[m++] = c;
    }
    wt_kdtree *tree = NULL;
    assert_int_equal(wt_kdtree_create(inst, members, m, &tree, NULL), WT_OK);
    assert_int_equal(wt_kdtree_size(tree), m);
    assert_int_equal(wt_kdtree_live(tree), m);
    ranked *scratch = malloc((size_t)n * sizeof *scratch);
    for (int q = 0; q < n; q += 7) check_queries(tree, inst, live, q, 10, scratch);
    wt_kdtree_remove(tree, 0); /* not a member: no-op */
    assert_int_equal(wt_kdtree_live(tree), m);
    for (int i = 0; i < m; i += 2) {
        wt_kdtree_remove(tree, members[i]);
        live[members[i]] = false;
    }
    for (int q = 0; q < n; q += 5) check_queries(tree, inst, live, q, 7, scratch);
    free(scratch);
    wt_kdtree_free(tree);
    wt_instance_free(inst);
}

/* city_at lists every member exactly once; is_live follows removals. */
static void test_leaf_order(void **state)
{
    (void)state;
    enum { n = 300 };
    wt_instance *inst = random_instance(WT_EUC_2D, n, 0, 31);
    wt_kdtree *tree = NULL;
    assert_int_equal(wt_kdtree_create(inst, NULL, n, &tree, NULL), WT_OK);
    bool seen[n];
    memset(seen, 0, sizeof seen);
    for (int i = 0; i < n; i++) {
        int c = wt_kdtree_city_at(tree, i);
        assert_true(c >= 0 && c < n && !seen[c]);
        seen[c] = true;
    }
    assert_true(wt_kdtree_is_live(tree, 17));
    wt_kdtree_remove(tree, 17);
    assert_false(wt_kdtree_is_live(tree, 17));
    assert_false(wt_kdtree_is_live(tree, -1));
    assert_false(wt_kdtree_is_live(tree, n));
    assert_true(wt_kdtree_distance(tree, 1, 2) == brute_dist(inst, 1, 2));
    wt_kdtree_free(tree);
    wt_kdtree_free(NULL);
    wt_instance_free(inst);
}

static void test_bad_arguments(void **state)
{
    (void)state;
    wt_instance *inst = random_instance(WT_EUC_2D, 10, 0, 41);
    wt_kdtree *tree = NULL;
    wt_error err = {0};
    int32_t bad[2] = {3, 10};
    assert_int_equal(wt_kdtree_create(inst, NULL, 5, &tree, &err), WT_STATUS_INVALID_ARGUMENT);
    assert_int_equal(wt_kdtree_create(inst, bad, 2, &tree, &err), WT_STATUS_INVALID_ARGUMENT);
    assert_int_equal(wt_kdtree_create(inst, bad, 0, &tree, &err), WT_STATUS_INVALID_ARGUMENT);
    assert_null(tree);
    wt_instance_free(inst);

    wt_instance *ex = wt_instance_alloc("explicit", 3, WT_EXPLICIT);
    assert_non_null(ex);
    assert_int_equal(wt_kdtree_create(ex, NULL, 3, &tree, &err), WT_STATUS_UNSUPPORTED);
    assert_int_equal(err.status, WT_STATUS_UNSUPPORTED);
    assert_non_null(strstr(err.message, "EXPLICIT"));
    assert_null(tree);
    wt_instance_free(ex);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_euc_2d),           cmocka_unit_test(test_man_2d),
        cmocka_unit_test(test_max_2d),           cmocka_unit_test(test_euc_3d),
        cmocka_unit_test(test_geo),              cmocka_unit_test(test_all_points_equal),
        cmocka_unit_test(test_small_trees),      cmocka_unit_test(test_subset),
        cmocka_unit_test(test_leaf_order),       cmocka_unit_test(test_bad_arguments),
    };
    return cmocka_run_group_tests_name("kdtree", tests, NULL, NULL);
}
