/*
 * test_neighbours.c - the neighbour lists (src/core/neighbours.c) and the
 * stops of their builders.
 *
 * The lists must equal a brute-force scan (Euclidean distance, then lower
 * city number) for any thread count and with or without a stop that never
 * fires; a stop that fires at once must end wt_neighbour_lists_until (and
 * wt_kdtree_create_until) promptly with its documented outcome: WT_OK with
 * *stopped set (no tree), having polled the stop from the calling thread
 * only.  "Promptly" is asserted loosely (well under the full build's time)
 * since CI machines are slow and shared; benchmarks measure, tests do not.
 */
#include "test_util.h"

#include <pthread.h>
#include <time.h>

#include "core/instance.h"
#include "core/kdtree.h"
#include "core/neighbours.h"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static wt_instance *uniform(int n)
{
    wt_instance *inst = NULL;
    assert_int_equal(wt_instance_generate(WT_GEN_UNIFORM, n, 7, &inst, NULL), WT_OK);
    return inst;
}

/* A stop that fires at its `fire_at`th call (1: at once; 0: never) and
 * records whether any call came from a thread other than `caller`. */
typedef struct stop_probe {
    int calls, fire_at;
    pthread_t caller;
    bool foreign;
} stop_probe;

static bool probe_should_stop(void *user)
{
    stop_probe *p = user;
    if (!pthread_equal(pthread_self(), p->caller)) p->foreign = true;
    p->calls++;
    return p->fire_at > 0 && p->calls >= p->fire_at;
}

static stop_probe probe(int fire_at)
{
    return (stop_probe){0, fire_at, pthread_self(), false};
}

/* Brute force: row c of k cities, by squared Euclidean distance then city. */
static void brute_row(const wt_instance *inst, int c, int k, int32_t *row)
{
    const double *x, *y;
    assert_true(wt_instance_coords(inst, &x, &y));
    int n = wt_instance_n(inst), m = 0;
    double *best = malloc((size_t)k * sizeof *best);
    for (int d = 0; d < n; d++) {
        if (d == c) continue;
        double dd = (x[c] - x[d]) * (x[c] - x[d]) + (y[c] - y[d]) * (y[c] - y[d]);
        if (m == k && dd >= best[k - 1]) continue; /* d > every kept city: loses ties */
        int at = m < k ? m++ : k - 1;
        for (; at > 0 && best[at - 1] > dd; at--) {
            best[at] = best[at - 1];
            row[at] = row[at - 1];
        }
        best[at] = dd;
        row[at] = d;
    }
    free(best);
}

static void test_lists_match_brute_force(void **state)
{
    (void)state;
    int n = 600, k = 8;
    wt_instance *inst = uniform(n);
    int32_t *nb = malloc((size_t)n * k * sizeof *nb), *want = malloc((size_t)k * sizeof *want);
    for (int threads = 1; threads <= 3; threads++) {
        stop_probe never = probe(0);
        wt_init_stop stop = {probe_should_stop, &never};
        bool stopped = true;
        memset(nb, 0xff, (size_t)n * k * sizeof *nb);
        assert_int_equal(wt_neighbour_lists_until(inst, k, threads, &stop, nb, &stopped, NULL),
                         WT_OK);
        assert_false(stopped);
        assert_false(never.foreign);
        for (int c = 0; c < n; c++) {
            brute_row(inst, c, k, want);
            assert_memory_equal(nb + (size_t)c * k, want, (size_t)k * sizeof *want);
        }
        /* Without a stop, the lists of the functions that take none. */
        int32_t *again = malloc((size_t)n * k * sizeof *again);
        assert_int_equal(wt_neighbour_lists_threads(inst, k, threads, again, NULL), WT_OK);
        assert_memory_equal(again, nb, (size_t)n * k * sizeof *nb);
        assert_int_equal(wt_neighbour_lists_until(inst, k, threads, NULL, again, &stopped, NULL),
                         WT_OK);
        assert_false(stopped);
        assert_memory_equal(again, nb, (size_t)n * k * sizeof *nb);
        free(again);
    }
    free(want);
    free(nb);
    wt_instance_free(inst);
}

/* A stop that fires at once or soon ends the build well before its end. */
static void test_stop_ends_the_lists_promptly(void **state)
{
    (void)state;
    int n = 100000, k = 40;
    wt_instance *inst = uniform(n);
    int32_t *nb = malloc((size_t)n * k * sizeof *nb);
    double t0 = now_s();
    bool stopped = true;
    assert_int_equal(wt_neighbour_lists_threads(inst, k, 2, nb, NULL), WT_OK);
    double whole = now_s() - t0;
    /* At once (the tree's root), at the 3rd look (in the tree's build) and
     * at the 40th (among the queries), on one thread and on two. */
    int fire[] = {1, 3, 40};
    for (int threads = 1; threads <= 2; threads++)
        for (size_t f = 0; f < sizeof fire / sizeof fire[0]; f++) {
            stop_probe p = probe(fire[f]);
            wt_init_stop stop = {probe_should_stop, &p};
            stopped = false;
            t0 = now_s();
            assert_int_equal(wt_neighbour_lists_until(inst, k, threads, &stop, nb, &stopped, NULL),
                             WT_OK);
            double took = now_s() - t0;
            assert_true(stopped);
            assert_int_equal(p.calls, fire[f]); /* not polled again once it fired */
            assert_false(p.foreign);
            if (fire[f] == 1) assert_true(took < 0.5 * whole + 0.05);
        }
    free(nb);
    wt_instance_free(inst);
}

static void test_kdtree_create_until(void **state)
{
    (void)state;
    int n = 50000;
    wt_instance *inst = uniform(n);
    stop_probe p = probe(1);
    wt_init_stop stop = {probe_should_stop, &p};
    wt_kdtree *tree = (wt_kdtree *)&p; /* must be overwritten */
    assert_int_equal(wt_kdtree_create_until(inst, NULL, n, 2, &stop, &tree, NULL), WT_OK);
    assert_null(tree);
    assert_int_equal(p.calls, 1);
    /* Never firing: the tree create_threads builds, the same answers. */
    stop_probe never = probe(0);
    stop.user = &never;
    wt_kdtree *a = NULL, *b = NULL;
    assert_int_equal(wt_kdtree_create_until(inst, NULL, n, 2, &stop, &a, NULL), WT_OK);
    assert_int_equal(wt_kdtree_create_threads(inst, NULL, n, 1, &b, NULL), WT_OK);
    assert_non_null(a);
    assert_true(never.calls > 0);
    assert_false(never.foreign);
    for (int i = 0; i < n; i++) assert_int_equal(wt_kdtree_city_at(a, i), wt_kdtree_city_at(b, i));
    int32_t ka[5], kb[5];
    double da[5], db[5];
    for (int c = 0; c < n; c += 997) {
        assert_int_equal(wt_kdtree_knn(a, c, 5, ka, da), 5);
        assert_int_equal(wt_kdtree_knn(b, c, 5, kb, db), 5);
        assert_memory_equal(ka, kb, sizeof ka);
    }
    wt_kdtree_free(a);
    wt_kdtree_free(b);
    wt_instance_free(inst);
}

static const char matrix_text[] =
    "NAME : m5\nTYPE : TSP\nDIMENSION : 5\nEDGE_WEIGHT_TYPE : EXPLICIT\n"
    "EDGE_WEIGHT_FORMAT : FULL_MATRIX\nEDGE_WEIGHT_SECTION\n"
    "0 3 4 2 7\n3 0 4 6 3\n4 4 0 5 8\n2 6 5 0 6\n7 3 8 6 0\nEOF\n";

static void test_matrix_lists_and_stop(void **state)
{
    (void)state;
    wt_instance *inst = wt_test_parse(matrix_text);
    int32_t nb[5 * 2];
    bool stopped = true;
    assert_int_equal(wt_neighbour_lists_until(inst, 2, 1, NULL, nb, &stopped, NULL), WT_OK);
    assert_false(stopped);
    int32_t want[] = {3, 1, 0, 4, 0, 1, 0, 2, 1, 3}; /* ties to the lower city */
    assert_memory_equal(nb, want, sizeof want);
    stop_probe p = probe(1);
    wt_init_stop stop = {probe_should_stop, &p};
    assert_int_equal(wt_neighbour_lists_until(inst, 2, 1, &stop, nb, &stopped, NULL), WT_OK);
    assert_true(stopped);
    wt_instance_free(inst);
}

static void test_bad_arguments(void **state)
{
    (void)state;
    wt_instance *inst = uniform(10);
    int32_t nb[10 * 3];
    bool stopped;
    wt_error err = {0};
    assert_int_equal(wt_neighbour_lists_until(inst, 3, 1, NULL, nb, NULL, &err),
                     WT_STATUS_INVALID_ARGUMENT);
    assert_int_equal(wt_neighbour_lists_until(inst, 10, 1, NULL, nb, &stopped, &err),
                     WT_STATUS_INVALID_ARGUMENT);
    assert_int_equal(wt_neighbour_lists_until(inst, 0, 1, NULL, nb, &stopped, &err),
                     WT_STATUS_INVALID_ARGUMENT);
    wt_instance_free(inst);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lists_match_brute_force),
        cmocka_unit_test(test_stop_ends_the_lists_promptly),
        cmocka_unit_test(test_kdtree_create_until),
        cmocka_unit_test(test_matrix_lists_and_stop),
        cmocka_unit_test(test_bad_arguments),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
