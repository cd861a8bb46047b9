/*
 * test_ascent.c - the Held-Karp ascent of the cpu backend and the 1-trees
 * under it (core/onetree.h, backend/cpu/cpu_ascent.h): the sparse 1-tree
 * is a minimum 1-tree, the k-d tree's complete-graph tree is the dense
 * one, the complete tree's edges span the cities, alpha-values are the tree path rule's, the bound never passes a
 * known optimum, threads do not change a result (the whole ascent, and the
 * finish alone on cities with twins and ties), and a stop is prompt.
 */
#include "test_util.h"

#include <math.h>

#include "backend/backend.h"
#include "backend/cpu/cpu_ascent.h"
#include "core/ascent_finish.h"
#include "core/instance.h"
#include "core/neighbours.h"
#include "core/onetree.h"

/* wt_sgraph_create's stop flag, for the calls without a stop. */
static bool sg_stopped;

static int64_t cpi(const wt_instance *inst, const int32_t *pi, int a, int b)
{
    return 100 * wt_dist(inst, a, b) + pi[a] + pi[b];
}

static void random_pi(int n, int32_t spread, uint64_t seed, int32_t *pi)
{
    wt_rng rng;
    wt_rng_seed(&rng, seed);
    for (int i = 0; i < n; i++)
        pi[i] = (int32_t)wt_rng_below(&rng, 2 * (uint64_t)spread + 1) - spread;
}

/* The complete graph's rows (k = n - 1). */
static int32_t *complete_rows(int n)
{
    int32_t *rows = malloc((size_t)n * (size_t)(n - 1) * sizeof *rows);
    for (int i = 0; i < n; i++)
        for (int j = 0, r = 0; j < n; j++)
            if (j != i) rows[(size_t)i * (size_t)(n - 1) + (size_t)r++] = j;
    return rows;
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

/* Plain Prim over the cost matrix c (INT64_MAX: no edge), skipping node
 * `skip` (-1: none): the minimum spanning tree's weight. */
static int64_t prim_weight(int n, const int64_t *c, int skip)
{
    int64_t *best = malloc((size_t)n * sizeof *best);
    bool *in = calloc((size_t)n, sizeof *in);
    int start = skip == 0 ? 1 : 0;
    for (int v = 0; v < n; v++) best[v] = c[(size_t)start * (size_t)n + (size_t)v];
    in[start] = true;
    if (skip >= 0) in[skip] = true;
    int64_t w = 0;
    for (;;) {
        int v = -1;
        for (int x = 0; x < n; x++)
            if (!in[x] && (v < 0 || best[x] < best[v])) v = x;
        if (v < 0) break;
        assert_true(best[v] != INT64_MAX);
        in[v] = true;
        w += best[v];
        for (int x = 0; x < n; x++)
            if (!in[x] && c[(size_t)v * (size_t)n + (size_t)x] < best[x])
                best[x] = c[(size_t)v * (size_t)n + (size_t)x];
    }
    free(best);
    free(in);
    return w;
}

/* The minimum 1-tree with special node s, from scratch: the spanning tree
 * of the others plus s's two cheapest edges. */
static int64_t onetree_at(int n, const int64_t *c, int s)
{
    int64_t a = INT64_MAX, b = INT64_MAX;
    for (int x = 0; x < n; x++) {
        int64_t v = x == s ? INT64_MAX : c[(size_t)s * (size_t)n + (size_t)x];
        if (v < a) {
            b = a;
            a = v;
        } else if (v < b) {
            b = v;
        }
    }
    return prim_weight(n, c, s) + a + b;
}

static int64_t *cost_matrix(const wt_instance *inst, const wt_sgraph *g, const int32_t *pi)
{
    int n = inst->n;
    int64_t *c = malloc((size_t)n * (size_t)n * sizeof *c);
    for (size_t i = 0; i < (size_t)n * (size_t)n; i++) c[i] = INT64_MAX;
    for (int64_t e = 0; e < g->m; e++) {
        int a = g->eu[e], b = g->ev[e];
        c[(size_t)a * (size_t)n + (size_t)b] = c[(size_t)b * (size_t)n + (size_t)a] =
            cpi(inst, pi, a, b);
    }
    return c;
}

/* The sparse 1-tree is the minimum 1-tree at its special node, the best of
 * those at the tree's leaves, and its tree part a minimum spanning tree. */
static void check_sparse_onetree(const wt_instance *inst, const int32_t *rows, int k,
                                 const int32_t *pi)
{
    int n = inst->n;
    wt_sgraph g;
    wt_onetree t;
    wt_error err = {0};
    bool stopped = true;
    assert_int_equal(wt_sgraph_create(inst, rows, k, 1, NULL, &g, &sg_stopped, &err), WT_OK);
    assert_int_equal(wt_onetree_alloc(&g, &t, &err), WT_OK);
    assert_int_equal(wt_onetree_sparse(&g, pi, 1, NULL, &t, &stopped, &err), WT_OK);
    assert_false(stopped);
    int64_t *c = cost_matrix(inst, &g, pi);
    int64_t sum_pi = 0, degrees = 0;
    for (int i = 0; i < n; i++) {
        sum_pi += pi[i];
        degrees += t.degree[i];
    }
    assert_int_equal(degrees, 2 * n);
    assert_int_equal(t.weight - t.special_cost, prim_weight(n, c, -1));
    assert_int_equal(t.weight, onetree_at(n, c, t.special));
    assert_int_equal(t.bound, t.weight - 2 * sum_pi);
    for (int s = 0; s < n; s++) {
        int tree_degree = t.degree[s] - (s == t.special) - (s == t.special_to);
        if (tree_degree == 1) assert_true(onetree_at(n, c, s) <= t.weight);
    }
    free(c);
    wt_onetree_free(&t);
    wt_sgraph_free(&g);
}

static void test_sparse_onetree_is_minimum(void **state)
{
    (void)state;
    for (uint64_t seed = 1; seed <= 6; seed++) {
        int n = 8 + (int)(seed * 7);
        wt_instance *inst = wt_test_typed_instance(seed % 2 ? WT_EUC_2D : WT_EXPLICIT, n, seed);
        int32_t *pi = malloc((size_t)n * sizeof *pi);
        random_pi(n, seed < 3 ? 0 : 30000, seed, pi);
        int32_t *rows = complete_rows(n);
        check_sparse_onetree(inst, rows, n - 1, pi);
        free(rows);
        wt_instance_free(inst);
        /* a sparse graph: quadrant neighbours */
        inst = wt_test_typed_instance(WT_EUC_2D, 4 * n, seed + 100);
        pi = realloc(pi, (size_t)(4 * n) * sizeof *pi);
        random_pi(4 * n, 20000, seed + 7, pi);
        rows = quadrant_rows(inst, 6);
        check_sparse_onetree(inst, rows, 6, pi);
        free(rows);
        free(pi);
        wt_instance_free(inst);
    }
}

/* The dearest edge on the tree path from a to b (tree: adjacency matrix
 * of costs, INT64_MAX off the tree), by a depth-first walk. */
static bool path_max(int n, const int64_t *tree, int a, int b, int from, int64_t *mx)
{
    if (a == b) return true;
    for (int x = 0; x < n; x++) {
        int64_t w = tree[(size_t)a * (size_t)n + (size_t)x];
        if (x == from || w == INT64_MAX) continue;
        int64_t sub = INT64_MIN;
        if (path_max(n, tree, x, b, a, &sub)) {
            *mx = w > sub ? w : sub;
            return true;
        }
    }
    return false;
}

static void test_alpha_matches_brute_force(void **state)
{
    (void)state;
    for (uint64_t seed = 1; seed <= 4; seed++) {
        int n = 40 + 20 * (int)seed, k = 6;
        wt_instance *inst = wt_test_typed_instance(seed == 4 ? WT_ATT : WT_EUC_2D, n, seed);
        int32_t *pi = malloc((size_t)n * sizeof *pi), *rows = quadrant_rows(inst, k);
        random_pi(n, seed == 1 ? 0 : 15000, seed * 3, pi);
        wt_sgraph g;
        wt_onetree t;
        wt_error err = {0};
        bool stopped = true;
        assert_int_equal(wt_sgraph_create(inst, rows, k, 1, NULL, &g, &sg_stopped, &err), WT_OK);
        assert_int_equal(wt_onetree_alloc(&g, &t, &err), WT_OK);
        assert_int_equal(wt_onetree_sparse(&g, pi, 1, NULL, &t, &stopped, &err), WT_OK);
        int64_t *alpha = malloc((size_t)g.m * sizeof *alpha);
        assert_int_equal(wt_onetree_alpha(&g, &t, 2, NULL, alpha, &stopped, &err), WT_OK);
        assert_false(stopped);
        int64_t *tree = malloc((size_t)n * (size_t)n * sizeof *tree);
        for (size_t i = 0; i < (size_t)n * (size_t)n; i++) tree[i] = INT64_MAX;
        for (int64_t e = 0; e < g.m; e++)
            if (t.in_tree[e])
                tree[(size_t)g.eu[e] * (size_t)n + (size_t)g.ev[e]] =
                    tree[(size_t)g.ev[e] * (size_t)n + (size_t)g.eu[e]] =
                        cpi(inst, pi, g.eu[e], g.ev[e]);
        for (int64_t e = 0; e < g.m; e++) {
            int a = g.eu[e], b = g.ev[e];
            int64_t c = cpi(inst, pi, a, b), want;
            if (t.in_tree[e] || (a == t.special && b == t.special_to) ||
                (b == t.special && a == t.special_to)) {
                want = 0;
            } else if (a == t.special || b == t.special) {
                want = c - t.special_cost;
            } else {
                int64_t mx = INT64_MIN;
                assert_true(path_max(n, tree, a, b, -1, &mx));
                want = c - mx;
            }
            assert_true(want >= 0);
            if (alpha[e] != want)
                fail_msg("seed %d edge %d-%d: alpha %lld, brute force %lld", (int)seed, a, b,
                         (long long)alpha[e], (long long)want);
        }
        free(tree);
        free(alpha);
        free(pi);
        free(rows);
        wt_onetree_free(&t);
        wt_sgraph_free(&g);
        wt_instance_free(inst);
    }
}

static void test_complete_kd_equals_dense(void **state)
{
    (void)state;
    const struct {
        wt_edge_weight_type type;
        int n;
    } cases[] = {{WT_EUC_2D, 300}, {WT_EUC_2D, 1500}, {WT_CEIL_2D, 700}, {WT_ATT, 900},
                 {WT_MAN_2D, 400}, {WT_MAX_2D, 400},  {WT_EUC_3D, 500}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        int n = cases[c].n;
        wt_instance *inst = wt_test_typed_instance(cases[c].type, n, 40 + c);
        int32_t *pi = malloc((size_t)n * sizeof *pi), *rows = quadrant_rows(inst, 5);
        wt_sgraph g;
        wt_error err = {0};
        assert_int_equal(wt_sgraph_create(inst, rows, 5, 1, NULL, &g, &sg_stopped, &err), WT_OK);
        for (int round = 0; round < 2; round++) {
            random_pi(n, round ? 8000 : 0, c * 10 + (uint64_t)round, pi);
            int64_t dense = 0, kd = 0, kd2 = 0;
            bool stopped = true;
            assert_int_equal(wt_onetree_complete_dense(inst, pi, NULL, &dense, &stopped, &err),
                             WT_OK);
            assert_false(stopped);
            assert_int_equal(wt_onetree_complete_kd(inst, pi, NULL, 1, NULL, &kd, &stopped, &err),
                             WT_OK);
            assert_false(stopped);
            assert_int_equal(wt_onetree_complete_kd(inst, pi, &g, 2, NULL, &kd2, &stopped, &err),
                             WT_OK);
            if (kd != dense || kd2 != dense)
                fail_msg("type %d n %d: dense %lld, k-d %lld, k-d seeded %lld",
                         (int)cases[c].type, n, (long long)dense, (long long)kd, (long long)kd2);
        }
        wt_sgraph_free(&g);
        free(pi);
        free(rows);
        wt_instance_free(inst);
    }
}

static int32_t uf_root(int32_t *uf, int32_t x)
{
    while (uf[x] != x) x = uf[x] = uf[uf[x]];
    return x;
}

/* wt_onetree_complete_tree, by dense Prim (1,500 cities) and by the k-d
 * tree (6,000): the bound of wt_onetree_complete_bound, and n - 1 edges
 * that span every city without a cycle, no heavier than the quadrant
 * graph's spanning tree under the same penalties. */
static void test_complete_tree_edges(void **state)
{
    (void)state;
    const int sizes[] = {1500, 6000};
    for (size_t c = 0; c < 2; c++) {
        int n = sizes[c];
        wt_instance *inst = wt_test_random_instance(n, 60 + c);
        int32_t *pi = malloc((size_t)n * sizeof *pi), *rows = quadrant_rows(inst, 5);
        int32_t *ends = malloc(2 * (size_t)(n - 1) * sizeof *ends);
        int32_t *uf = malloc((size_t)n * sizeof *uf);
        random_pi(n, 8000, 70 + c, pi);
        wt_error err = {0};
        bool stopped = true;
        int64_t bound = 0, tree_bound = 1;
        assert_int_equal(wt_onetree_complete_bound(inst, pi, NULL, 2, NULL, &bound, &stopped, &err),
                         WT_OK);
        assert_int_equal(wt_onetree_complete_tree(inst, pi, NULL, 2, NULL, &tree_bound, ends,
                                                  &stopped, &err),
                         WT_OK);
        assert_false(stopped);
        assert_int_equal(tree_bound, bound);
        for (int i = 0; i < n; i++) uf[i] = i;
        int64_t weight = 0;
        for (size_t e = 0; e < (size_t)(n - 1); e++) {
            int a = ends[2 * e], b = ends[2 * e + 1];
            assert_true(a >= 0 && a < n && b >= 0 && b < n);
            int ra = uf_root(uf, a), rb = uf_root(uf, b);
            assert_true(ra != rb); /* no cycle: n - 1 such edges span all */
            uf[ra] = rb;
            weight += WT_ONETREE_SCALE * wt_dist(inst, a, b) + pi[a] + pi[b];
        }
        wt_sgraph g;
        wt_onetree t;
        assert_int_equal(wt_sgraph_create(inst, rows, 5, 1, NULL, &g, &sg_stopped, &err), WT_OK);
        assert_int_equal(wt_onetree_alloc(&g, &t, &err), WT_OK);
        assert_int_equal(wt_onetree_sparse(&g, pi, 1, NULL, &t, &stopped, &err), WT_OK);
        assert_true(weight <= t.weight - t.special_cost);
        assert_int_equal(wt_onetree_complete_tree(inst, pi, NULL, 1, NULL, &tree_bound, NULL,
                                                  &stopped, &err),
                         WT_STATUS_INVALID_ARGUMENT);
        wt_onetree_free(&t);
        wt_sgraph_free(&g);
        free(pi);
        free(rows);
        free(ends);
        free(uf);
        wt_instance_free(inst);
    }
}

/* The ascent of job on inst with its graph of rows (k a row), threads. */
static wt_status run_ascent(const wt_instance *inst, wt_ascent_job *job, int threads,
                            double deadline, const volatile int *flag, wt_error *err)
{
    wt_params p;
    wt_params_defaults(&p);
    p.algorithm = WT_ALGO_2OPT; /* the default is ils */
    p.threads = threads;
    p.stop_flag = flag;
    wt_search_ctl ctl;
    wt_ctl_init(&ctl, &p);
    ctl.deadline = deadline;
    const wt_backend *cpu = wt_backend_of(WT_BACKEND_CPU);
    wt_device dev;
    wt_device_host(&dev);
    return cpu->ascent(&dev, inst, job, &ctl, err);
}

typedef struct ascent_run {
    int32_t *rows, *pi, *cand;
    wt_ascent_job job;
} ascent_run;

static void ascent_setup(ascent_run *r, const wt_instance *inst, int k, int ck, int iterations)
{
    r->rows = quadrant_rows(inst, k);
    r->pi = calloc((size_t)inst->n, sizeof *r->pi);
    r->cand = malloc((size_t)inst->n * (size_t)ck * sizeof *r->cand);
    r->job = (wt_ascent_job){.graph = r->rows,
                             .graph_k = k,
                             .iterations = iterations,
                             .until = INFINITY,
                             .pi = r->pi,
                             .candidates = r->cand,
                             .candidates_k = ck};
}

static void ascent_free(ascent_run *r)
{
    free(r->rows);
    free(r->pi);
    free(r->cand);
}

static void test_bound_below_known_optima(void **state)
{
    (void)state;
    const char *names[] = {"a280",     "att48", "bayg29", "bays29",   "berlin52", "fri26",
                           "gr24",     "gr96",  "pr1002", "ulysses22", "pla33810"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        char file[64];
        bool big = strcmp(names[i], "pla33810") == 0;
        snprintf(file, sizeof file, "%s.tsp%s", names[i], big ? ".gz" : "");
        char *path = wt_test_path(wt_test_data_dir(), file);
        wt_instance *inst = NULL;
        wt_error err = {0};
        if (wt_instance_read_tsplib(path, &inst, &err) != WT_OK)
            fail_msg("%s: %s", path, err.message);
        int64_t opt = wt_instance_known_optimum(inst);
        assert_true(opt > 0);
        ascent_run r;
        ascent_setup(&r, inst, 10, 5, big ? 5 : 1000);
        assert_int_equal(run_ascent(inst, &r.job, 2, INFINITY, NULL, &err), WT_OK);
        assert_false(r.job.stopped);
        int64_t lb = r.job.lower_bound;
        double gap = 100.0 * (double)(opt - lb) / (double)opt;
        if (lb < 0 || lb > opt || gap > (big ? 10.0 : 2.5))
            fail_msg("%s: lower bound %lld, optimum %lld (%.3f%% below), graph bound %lld, "
                     "%d steps",
                     names[i], (long long)lb, (long long)opt, gap,
                     (long long)r.job.graph_bound, r.job.iterations_done);
        /* every row: graph neighbours, no repeats, itself never */
        for (int c = 0; c < inst->n; c++) {
            const int32_t *row = r.cand + (size_t)c * 5;
            assert_true(row[0] >= 0);
            for (int a = 0; a < 5 && row[a] >= 0; a++) {
                assert_true(row[a] != c && row[a] < inst->n);
                for (int b = 0; b < a; b++) assert_true(row[a] != row[b]);
            }
        }
        ascent_free(&r);
        wt_instance_free(inst);
        free(path);
    }
}

static void test_threads_do_not_change_results(void **state)
{
    (void)state;
    wt_instance *inst = wt_test_random_instance(6000, 5);
    ascent_run a, b;
    ascent_setup(&a, inst, 8, 6, 60);
    ascent_setup(&b, inst, 8, 6, 60);
    wt_error err = {0};
    assert_int_equal(run_ascent(inst, &a.job, 1, INFINITY, NULL, &err), WT_OK);
    assert_int_equal(run_ascent(inst, &b.job, 2, INFINITY, NULL, &err), WT_OK);
    assert_int_equal(a.job.iterations_done, 60);
    assert_int_equal(b.job.iterations_done, 60);
    assert_int_equal(a.job.graph_bound, b.job.graph_bound);
    assert_int_equal(a.job.lower_bound, b.job.lower_bound);
    assert_true(a.job.lower_bound > 0);
    assert_memory_equal(a.pi, b.pi, (size_t)inst->n * sizeof *a.pi);
    assert_memory_equal(a.cand, b.cand, (size_t)inst->n * 6 * sizeof *a.cand);
    ascent_free(&a);
    ascent_free(&b);
    wt_instance_free(inst);
}

/* The finish alone (core/ascent_finish.h) under random penalties, on 1, 2
 * and 3 threads: the same graph bound, proven bound and lists.  The
 * cities sit on a 60 x 60 grid, so that most have twins (edges of length
 * 0) and lengths tie everywhere: every choice then rests on the
 * tie-breaks.  6,000 cities take the k-d Boruvka (above
 * WT_ONETREE_DENSE_MAX) and a graph big enough for the parallel sort. */
static void test_finish_same_on_any_threads(void **state)
{
    (void)state;
    enum { N = 6000, K = 12, CK = 6 };
    wt_rng rng;
    wt_rng_seed(&rng, 77);
    double *x = malloc(2 * (size_t)N * sizeof *x), *y = x + N;
    for (int i = 0; i < N; i++) {
        x[i] = (double)(10 * wt_rng_below(&rng, 60));
        y[i] = (double)(10 * wt_rng_below(&rng, 60));
    }
    wt_instance *inst = NULL;
    wt_error err = {0};
    assert_int_equal(wt_instance_from_coords("grid", N, WT_EUC_2D, x, y, NULL, &inst, &err),
                     WT_OK);
    free(x);
    assert_true(N > WT_ONETREE_DENSE_MAX);
    int32_t *rows = quadrant_rows(inst, K), *pi = malloc((size_t)N * sizeof *pi);
    wt_sgraph g;
    assert_int_equal(wt_sgraph_create(inst, rows, K, 3, NULL, &g, &sg_stopped, &err), WT_OK);
    assert_true(g.m >= 1 << 15);
    int32_t *cand[3];
    wt_onetree t[3];
    for (int round = 0; round < 2; round++) {
        random_pi(N, round ? 300 : 0, 5 + (uint64_t)round, pi);
        int64_t graph_bound[3], lower_bound[3];
        for (int th = 1; th <= 3; th++) {
            assert_int_equal(wt_onetree_alloc(&g, &t[th - 1], &err), WT_OK);
            cand[th - 1] = malloc((size_t)N * CK * sizeof *cand[0]);
            bool stopped = true;
            lower_bound[th - 1] = -1;
            wt_status st = wt_ascent_finish(inst, &g, pi, CK, th, NULL, &t[th - 1],
                                            cand[th - 1], &graph_bound[th - 1],
                                            &lower_bound[th - 1], &stopped, &err);
            if (st != WT_OK) fail_msg("finish on %d threads: %s", th, err.message);
            assert_false(stopped);
        }
        assert_true(lower_bound[0] > 0);
        for (int th = 2; th <= 3; th++) { /* the last tree itself, then the outputs */
            assert_memory_equal(t[th - 1].in_tree, t[0].in_tree, (size_t)g.m);
            assert_memory_equal(t[th - 1].degree, t[0].degree, (size_t)N * sizeof *t[0].degree);
            assert_int_equal(t[th - 1].special, t[0].special);
            assert_int_equal(t[th - 1].special_to, t[0].special_to);
            assert_int_equal(graph_bound[th - 1], graph_bound[0]);
            assert_int_equal(lower_bound[th - 1], lower_bound[0]);
            assert_memory_equal(cand[th - 1], cand[0], (size_t)N * CK * sizeof *cand[0]);
        }
        /* the complete graph's bound: the k-d tree's, unseeded too */
        int64_t kd = 0;
        bool stopped = true;
        assert_int_equal(wt_onetree_complete_kd(inst, pi, NULL, 3, NULL, &kd, &stopped, &err),
                         WT_OK);
        assert_int_equal((kd + WT_ONETREE_SCALE - 1) / WT_ONETREE_SCALE, lower_bound[0]);
        for (int th = 0; th < 3; th++) {
            free(cand[th]);
            wt_onetree_free(&t[th]);
        }
    }
    wt_sgraph_free(&g);
    free(rows);
    free(pi);
    wt_instance_free(inst);
}

static void test_stops(void **state)
{
    (void)state;
    wt_instance *inst = wt_test_random_instance(3000, 9);
    wt_error err = {0};
    /* stop flag already set: nothing listed, the start pi kept */
    volatile int flag = 1;
    ascent_run r;
    ascent_setup(&r, inst, 8, 5, 0);
    for (int i = 0; i < inst->n; i++) r.pi[i] = i % 7;
    double t0 = wt_now();
    assert_int_equal(run_ascent(inst, &r.job, 2, INFINITY, &flag, &err), WT_OK);
    assert_true(wt_now() - t0 < 1.0);
    assert_true(r.job.stopped);
    assert_int_equal(r.job.iterations_done, 0);
    assert_int_equal(r.job.lower_bound, -1);
    for (int i = 0; i < inst->n; i++) assert_int_equal(r.pi[i], i % 7);
    /* the deadline already past: the same */
    r.job.stopped = false;
    assert_int_equal(run_ascent(inst, &r.job, 2, wt_now() - 1.0, NULL, &err), WT_OK);
    assert_true(r.job.stopped);
    assert_int_equal(r.job.iterations_done, 0);
    assert_int_equal(r.job.lower_bound, -1);
    /* until already past: no step, but the lists and the bound under the
     * start pi, as an ascent of 0 steps would give them */
    r.job.until = wt_now() - 1.0;
    assert_int_equal(run_ascent(inst, &r.job, 2, INFINITY, NULL, &err), WT_OK);
    assert_false(r.job.stopped);
    assert_int_equal(r.job.iterations_done, 0);
    assert_true(r.job.lower_bound > 0);
    for (int i = 0; i < inst->n; i++) assert_int_equal(r.pi[i], i % 7);
    ascent_run one;
    ascent_setup(&one, inst, 8, 5, 1);
    assert_int_equal(run_ascent(inst, &one.job, 2, INFINITY, NULL, &err), WT_OK);
    assert_int_equal(one.job.iterations_done, 1);
    assert_true(one.job.graph_bound >= 0);
    ascent_free(&one);
    ascent_free(&r);
    wt_instance_free(inst);
}

static void test_bad_arguments(void **state)
{
    (void)state;
    wt_instance *inst = wt_test_random_instance(50, 3);
    wt_error err = {0};
    ascent_run r;
    ascent_setup(&r, inst, 6, 5, 10);
    r.job.graph_k = 0;
    assert_int_equal(run_ascent(inst, &r.job, 1, INFINITY, NULL, &err),
                     WT_STATUS_INVALID_ARGUMENT);
    r.job.graph_k = 6;
    r.job.candidates = NULL;
    assert_int_equal(run_ascent(inst, &r.job, 1, INFINITY, NULL, &err),
                     WT_STATUS_INVALID_ARGUMENT);
    r.job.candidates = r.cand;
    r.rows[7] = 50; /* out of range */
    assert_int_equal(run_ascent(inst, &r.job, 1, INFINITY, NULL, &err),
                     WT_STATUS_INVALID_ARGUMENT);
    /* two halves with no edge between them */
    for (int i = 0; i < 50; i++)
        for (int j = 0; j < 6; j++) r.rows[i * 6 + j] = (i < 25 ? 0 : 25) + (i + j + 1) % 25;
    assert_int_equal(run_ascent(inst, &r.job, 1, INFINITY, NULL, &err),
                     WT_STATUS_INVALID_ARGUMENT);
    assert_non_null(strstr(err.message, "not connected"));
    ascent_free(&r);
    wt_instance_free(inst);
    /* lengths beyond the fixed point */
    double x[3] = {0, 2e7, 0}, y[3] = {0, 0, 1e7};
    assert_int_equal(wt_instance_from_coords("far", 3, WT_EUC_2D, x, y, NULL, &inst, &err), WT_OK);
    ascent_setup(&r, inst, 2, 2, 10);
    assert_int_equal(run_ascent(inst, &r.job, 1, INFINITY, NULL, &err), WT_STATUS_UNSUPPORTED);
    ascent_free(&r);
    wt_instance_free(inst);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sparse_onetree_is_minimum),
        cmocka_unit_test(test_alpha_matches_brute_force),
        cmocka_unit_test(test_complete_kd_equals_dense),
        cmocka_unit_test(test_complete_tree_edges),
        cmocka_unit_test(test_bound_below_known_optima),
        cmocka_unit_test(test_threads_do_not_change_results),
        cmocka_unit_test(test_finish_same_on_any_threads),
        cmocka_unit_test(test_stops),
        cmocka_unit_test(test_bad_arguments),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
