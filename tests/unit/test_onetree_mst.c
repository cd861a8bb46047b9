/*
 * test_onetree_mst.c - the sparse 1-tree's two spanning-tree methods
 * (core/onetree.h, wt_onetree_mst; core/onetree_boruvka.h): Boruvka's
 * rounds on 1, 2 and 3 threads give Kruskal's 1-tree exactly (edges,
 * degrees, a leaf's tree edge, the special node and edge, weight, bound)
 * on graphs where lengths tie everywhere, and the same error on a graph
 * that is not connected; a stop lands inside a round (a stop polled
 * but never asking changes no tree); graphs past the edges the trees
 * index are refused.
 */
#include "test_util.h"

#include "core/instance.h"
#include "core/neighbours.h"
#include "core/onetree.h"
#include "core/onetree_boruvka.h"

/* wt_sgraph_create's stop flag, for the calls without a stop. */
static bool sg_stopped;

static void random_pi(int n, int32_t spread, uint64_t seed, int32_t *pi)
{
    wt_rng rng;
    wt_rng_seed(&rng, seed);
    for (int i = 0; i < n; i++)
        pi[i] = (int32_t)wt_rng_below(&rng, 2 * (uint64_t)spread + 1) - spread;
}

/* n cities on a side x side grid of step 10, drawn at random: most have
 * twins (edges of length 0) and lengths tie everywhere. */
static wt_instance *grid_instance(int n, int side, uint64_t seed)
{
    wt_rng rng;
    wt_rng_seed(&rng, seed);
    double *x = malloc(2 * (size_t)n * sizeof *x), *y = x + n;
    for (int i = 0; i < n; i++) {
        x[i] = (double)(10 * wt_rng_below(&rng, (uint64_t)side));
        y[i] = (double)(10 * wt_rng_below(&rng, (uint64_t)side));
    }
    wt_instance *inst = NULL;
    wt_error err = {0};
    assert_int_equal(wt_instance_from_coords("grid", n, WT_EUC_2D, x, y, NULL, &inst, &err),
                     WT_OK);
    free(x);
    return inst;
}

static int32_t *quadrant_rows(const wt_instance *inst, int k)
{
    int32_t *rows = malloc((size_t)inst->n * (size_t)k * sizeof *rows);
    bool stopped = false;
    wt_error err = {0};
    if (wt_quadrant_lists_until(inst, k, 1, NULL, rows, &stopped, &err) != WT_OK)
        fail_msg("quadrant lists: %s", err.message);
    return rows;
}

/* The 1-tree of g under pi by method on `threads`, into t (allocated). */
static wt_status tree_by(const wt_sgraph *g, const int32_t *pi, wt_onetree_mst method,
                         int threads, wt_onetree *t, wt_error *err)
{
    bool stopped = true;
    t->mst = method;
    wt_status st = wt_onetree_sparse(g, pi, threads, NULL, t, &stopped, err);
    assert_false(stopped);
    return st;
}

/* b is a's 1-tree in every output its consumers read. */
static void assert_same_onetree(const wt_sgraph *g, const wt_onetree *a, const wt_onetree *b)
{
    assert_memory_equal(a->in_tree, b->in_tree, (size_t)g->m);
    assert_memory_equal(a->degree, b->degree, (size_t)g->n * sizeof *a->degree);
    assert_int_equal(a->special, b->special);
    assert_int_equal(a->special_to, b->special_to);
    assert_int_equal(a->special_cost, b->special_cost);
    assert_int_equal(a->special_edge, b->special_edge);
    assert_int_equal(a->weight, b->weight);
    assert_int_equal(a->bound, b->bound);
    for (int u = 0; u < g->n; u++) { /* a leaf's tree edge: its second edge's exclusion */
        int tree_degree = a->degree[u] - (u == a->special) - (u == a->special_to);
        if (tree_degree == 1) assert_int_equal(a->tree_edge[u], b->tree_edge[u]);
    }
}

/* On g under pi: Kruskal on one thread, then Boruvka on 1, 2, 3 threads. */
static void check_methods_agree(const wt_sgraph *g, const int32_t *pi)
{
    wt_error err = {0};
    wt_onetree kruskal, boruvka;
    assert_int_equal(wt_onetree_alloc(g, &kruskal, &err), WT_OK);
    assert_int_equal(wt_onetree_alloc(g, &boruvka, &err), WT_OK);
    assert_int_equal(tree_by(g, pi, WT_ONETREE_MST_KRUSKAL, 1, &kruskal, &err), WT_OK);
    for (int threads = 1; threads <= 3; threads++) {
        assert_int_equal(tree_by(g, pi, WT_ONETREE_MST_BORUVKA, threads, &boruvka, &err), WT_OK);
        assert_same_onetree(g, &kruskal, &boruvka);
    }
    /* Kruskal's sort on more threads than the tree had counts for: the
     * counts grow (and move) before the sort reads them. */
    for (int threads = 2; threads <= 3; threads++) {
        wt_onetree more;
        assert_int_equal(wt_onetree_alloc(g, &more, &err), WT_OK);
        assert_int_equal(tree_by(g, pi, WT_ONETREE_MST_KRUSKAL, threads, &more, &err), WT_OK);
        assert_same_onetree(g, &kruskal, &more);
        wt_onetree_free(&more);
    }
    wt_onetree_free(&kruskal);
    wt_onetree_free(&boruvka);
}

static void test_boruvka_equals_kruskal(void **state)
{
    (void)state;
    /* Grids with twins: 4,000 cities on 40 x 40 points give a graph big
     * enough for the parallel rounds (the late ones run on one thread). */
    const struct {
        int n, side, k;
        int32_t spread;
    } cases[] = {{4000, 40, 10, 0}, {4000, 40, 10, 3}, {4000, 40, 10, 400}, {300, 6, 8, 2},
                 {2000, 1000, 6, 20000}, {8000, 90, 10, 3}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        wt_instance *inst = grid_instance(cases[c].n, cases[c].side, 11 + c);
        int32_t *rows = quadrant_rows(inst, cases[c].k);
        int32_t *pi = malloc((size_t)cases[c].n * sizeof *pi);
        random_pi(cases[c].n, cases[c].spread, 3 + c, pi);
        wt_sgraph g;
        wt_error err = {0};
        assert_int_equal(wt_sgraph_create(inst, rows, cases[c].k, 2, NULL, &g, &sg_stopped, &err), WT_OK);
        if (c == 0) assert_true(g.m >= 1 << 14); /* the parallel rounds' size */
        if (c == 5) assert_true(g.m >= 1 << 15); /* the parallel radix sort's */
        check_methods_agree(&g, pi);
        wt_sgraph_free(&g);
        free(pi);
        free(rows);
        wt_instance_free(inst);
    }
    /* 40 cities at one point, the complete graph: every edge ties. */
    enum { N = 40 };
    double x[N] = {0}, y[N] = {0};
    wt_instance *inst = NULL;
    wt_error err = {0};
    assert_int_equal(wt_instance_from_coords("point", N, WT_EUC_2D, x, y, NULL, &inst, &err),
                     WT_OK);
    int32_t rows[N * (N - 1)], pi[N] = {0};
    for (int i = 0; i < N; i++)
        for (int j = 0, r = 0; j < N; j++)
            if (j != i) rows[i * (N - 1) + r++] = j;
    wt_sgraph g;
    assert_int_equal(wt_sgraph_create(inst, rows, N - 1, 1, NULL, &g, &sg_stopped, &err), WT_OK);
    check_methods_agree(&g, pi);
    wt_sgraph_free(&g);
    wt_instance_free(inst);
}

static bool stop_at_poll(void *user)
{
    int *polls_left = user;
    return (*polls_left)-- <= 0;
}

/* The graph's set-up polls its stop between phases: a stop asked at any
 * poll leaves no graph (and stopped); never asked, the same graph. */
static void test_graph_setup_stops(void **state)
{
    (void)state;
    enum { N = 3000, K = 8 };
    wt_instance *inst = wt_test_random_instance(N, 6);
    int32_t *rows = malloc(sizeof(int32_t) * N * K);
    assert_non_null(rows);
    for (int i = 0; i < N; i++)
        for (int j = 0; j < K; j++) rows[i * K + j] = (i + j * 37 + 1) % N;
    wt_sgraph ref, g;
    wt_error err = {0};
    bool stopped = true;
    assert_int_equal(wt_sgraph_create(inst, rows, K, 2, NULL, &ref, &stopped, &err), WT_OK);
    assert_false(stopped);
    int polls = 0, never = 1 << 30;
    for (int at = 0; at < 64; at++) {
        polls = at;
        wt_init_stop stop = {stop_at_poll, &polls};
        assert_int_equal(wt_sgraph_create(inst, rows, K, 2, &stop, &g, &stopped, &err), WT_OK);
        if (!stopped) { /* past the last poll: the whole graph */
            assert_int_equal(g.m, ref.m);
            assert_memory_equal(g.d100, ref.d100, (size_t)g.m * sizeof *g.d100);
            wt_sgraph_free(&g);
            break;
        }
        assert_int_equal(g.m, 0);
        assert_null(g.eu);
    }
    assert_false(stopped);
    wt_init_stop no_stop = {stop_at_poll, &never};
    assert_int_equal(wt_sgraph_create(inst, rows, K, 2, &no_stop, &g, &stopped, &err), WT_OK);
    assert_false(stopped);
    assert_int_equal(g.m, ref.m);
    wt_sgraph_free(&g);
    wt_sgraph_free(&ref);
    free(rows);
    wt_instance_free(inst);
}

static void test_disconnected_same_error(void **state)
{
    (void)state;
    enum { N = 60, K = 5 };
    wt_instance *inst = wt_test_random_instance(N, 4);
    int32_t rows[N * K], pi[N] = {0};
    for (int i = 0; i < N; i++) /* three rings of 20 */
        for (int j = 0; j < K; j++) rows[i * K + j] = i / 20 * 20 + (i + j + 1) % 20;
    wt_sgraph g;
    wt_error err = {0};
    assert_int_equal(wt_sgraph_create(inst, rows, K, 1, NULL, &g, &sg_stopped, &err), WT_OK);
    wt_onetree t;
    assert_int_equal(wt_onetree_alloc(&g, &t, &err), WT_OK);
    const wt_onetree_mst method[2] = {WT_ONETREE_MST_KRUSKAL, WT_ONETREE_MST_BORUVKA};
    for (int x = 0; x < 2; x++)
        for (int threads = 1; threads <= 2; threads++) {
            wt_error e = {0};
            assert_int_equal(tree_by(&g, pi, method[x], threads, &t, &e),
                             WT_STATUS_INVALID_ARGUMENT);
            assert_non_null(strstr(e.message, "not connected (3 components)"));
        }
    wt_onetree_free(&t);
    wt_sgraph_free(&g);
    wt_instance_free(inst);
}

static void test_boruvka_fits(void **state)
{
    (void)state;
    assert_true(wt_onetree_boruvka_fits(1, 0));
    assert_true(wt_onetree_boruvka_fits((int64_t)1 << 31, ((int64_t)1 << 32) - 1));
    assert_false(wt_onetree_boruvka_fits(((int64_t)1 << 31) + 1, 0)); /* int32 edge indices */
    assert_false(wt_onetree_boruvka_fits((int64_t)1 << 20, (int64_t)1 << 43));
    assert_false(wt_onetree_boruvka_fits(0, 0));
}

/* A stop that asks from its `at`-th poll on (0: never), counting polls. */
typedef struct counted_stop {
    int polls, at;
} counted_stop;

static bool counted_should_stop(void *user)
{
    counted_stop *c = user;
    c->polls++;
    return c->at > 0 && c->polls >= c->at;
}

static void test_boruvka_stops_inside_a_round(void **state)
{
    (void)state;
    /* 8,000 cities, k 10: a first round of tens of thousands of edges. */
    enum { N = 8000, K = 10 };
    wt_instance *inst = grid_instance(N, 90, 5);
    int32_t *rows = quadrant_rows(inst, K);
    int32_t *pi = calloc(N, sizeof *pi);
    wt_sgraph g;
    wt_error err = {0};
    assert_int_equal(wt_sgraph_create(inst, rows, K, 2, NULL, &g, &sg_stopped, &err), WT_OK);
    assert_true(g.m >= 1 << 15);
    wt_onetree kruskal, t;
    assert_int_equal(wt_onetree_alloc(&g, &kruskal, &err), WT_OK);
    assert_int_equal(wt_onetree_alloc(&g, &t, &err), WT_OK);
    assert_int_equal(tree_by(&g, pi, WT_ONETREE_MST_KRUSKAL, 1, &kruskal, &err), WT_OK);
    t.mst = WT_ONETREE_MST_BORUVKA;
    for (int threads = 1; threads <= 3; threads++) {
        /* Polled, never asking: Kruskal's tree. */
        counted_stop never = {0, 0};
        wt_init_stop stop = {counted_should_stop, &never};
        bool stopped = true;
        assert_int_equal(wt_onetree_sparse(&g, pi, threads, &stop, &t, &stopped, &err), WT_OK);
        assert_false(stopped);
        assert_same_onetree(&g, &kruskal, &t);
        /* Asked from the first poll on: stopped within the first round's
         * first step, before any edge joined the tree. */
        counted_stop now = {0, 1};
        stop.user = &now;
        assert_int_equal(wt_onetree_sparse(&g, pi, threads, &stop, &t, &stopped, &err), WT_OK);
        assert_true(stopped);
        assert_int_equal(now.polls, 1);
        for (int64_t e = 0; e < g.m; e++) assert_int_equal(t.in_tree[e], 0);
        /* Asked at later polls: cut short anywhere, never past its end. */
        for (int at = 2; at <= never.polls; at += 3) {
            counted_stop later = {0, at};
            stop.user = &later;
            assert_int_equal(wt_onetree_sparse(&g, pi, threads, &stop, &t, &stopped, &err),
                             WT_OK);
            assert_true(stopped);
            assert_int_equal(later.polls, at);
        }
    }
    wt_onetree_free(&kruskal);
    wt_onetree_free(&t);
    wt_sgraph_free(&g);
    free(pi);
    free(rows);
    wt_instance_free(inst);
}

static void test_edge_limit(void **state)
{
    (void)state;
    /* A graph past the limit is refused before anything is allocated: its
     * arrays are never read (none here). */
    wt_sgraph g = {.n = 4, .m = WT_ONETREE_MAX_EDGES + 1};
    wt_onetree t;
    wt_error err = {0};
    assert_int_equal(wt_onetree_alloc(&g, &t, &err), WT_STATUS_UNSUPPORTED);
    assert_non_null(strstr(err.message, "2147483649 edges"));
    assert_null(t.in_tree);
    wt_onetree_free(&t);
    /* Kruskal's limit is Boruvka's: both keep 32-bit edge indices. */
    assert_true(wt_onetree_boruvka_fits(WT_ONETREE_MAX_EDGES, 0));
    assert_false(wt_onetree_boruvka_fits(WT_ONETREE_MAX_EDGES + 1, 0));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_boruvka_equals_kruskal),
        cmocka_unit_test(test_graph_setup_stops),
        cmocka_unit_test(test_disconnected_same_error),
        cmocka_unit_test(test_boruvka_fits),
        cmocka_unit_test(test_boruvka_stops_inside_a_round),
        cmocka_unit_test(test_edge_limit),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
