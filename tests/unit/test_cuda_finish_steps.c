/*
 * test_cuda_finish_steps.c - the GPU ascent finish's per-element steps
 * (backend/cuda/cuda_ascent_finish_steps.h, the code each GPU thread runs)
 * run on the host in loops, in the kernels' order, with the sorts and the
 * scan done plainly: the alpha-values equal wt_onetree_alpha's and the
 * candidate lists wt_ascent_finish_lists's bit for bit.  The tree's edge
 * list is shuffled first (the GPU's Boruvka adds its edges in no fixed
 * order).  Instances: uniform cities, clustered ones, points on a small
 * grid (twins and equal lengths everywhere), and penalties 0 and random.
 * The kernels themselves run only on a GPU (tests/gpu/test_gpu_ascent.c).
 */
#include "test_util.h"

#include "backend/cuda/cuda_ascent_finish_steps.h"
#include "core/ascent_finish.h"
#include "core/instance.h"
#include "core/neighbours.h"
#include "core/onetree.h"

/* A stable sort of count (key, value) pairs by key in [0, keys): a
 * counting sort, as stable as CUB's radix sort. */
static void stable_sort(const int32_t *key, const int32_t *val, int64_t count, int keys,
                        int32_t *key_out, int32_t *val_out)
{
    int64_t *at = calloc((size_t)keys + 1, sizeof *at);
    for (int64_t i = 0; i < count; i++) at[key[i] + 1]++;
    for (int c = 0; c < keys; c++) at[c + 1] += at[c];
    for (int64_t i = 0; i < count; i++) {
        int64_t p = at[key[i]]++;
        key_out[p] = key[i];
        val_out[p] = val[i];
    }
    free(at);
}

/* The GPU finish's alpha-values and lists from t (the minimum 1-tree of g,
 * t->key its c_pi) by the steps' functions. */
static void finish_by_steps(const wt_sgraph *g, const wt_onetree *t, int k, uint64_t seed,
                            int64_t *alpha, int32_t *cand)
{
    int n = g->n;
    int64_t m = g->m, arcs = 2 * ((int64_t)n - 1);
    int levels = wt_fin_levels(n);
    size_t sa = (size_t)arcs, sn = (size_t)n;
    int32_t *tree_list = malloc(sn * sizeof *tree_list);
    int tree = 0;
    for (int64_t e = 0; e < m; e++)
        if (t->in_tree[e]) tree_list[tree++] = (int32_t)e;
    assert_int_equal(tree, n - 1);
    wt_rng rng;
    wt_rng_seed(&rng, seed);
    for (int i = tree - 1; i > 0; i--) {
        int j = (int)wt_rng_below(&rng, (uint64_t)i + 1);
        int32_t x = tree_list[i];
        tree_list[i] = tree_list[j];
        tree_list[j] = x;
    }
    int32_t *src = calloc(sa, sizeof *src), *arc = calloc(sa, sizeof *arc);
    int32_t *s_src = malloc(sa * sizeof *s_src), *s_arc = malloc(sa * sizeof *s_arc);
    int32_t *succ[2] = {malloc(sa * sizeof(int32_t)), malloc(sa * sizeof(int32_t))};
    int32_t *dist[2] = {malloc(sa * sizeof(int32_t)), malloc(sa * sizeof(int32_t))};
    int32_t *first = malloc(sn * sizeof *first), *depth = malloc(sn * sizeof *depth);
    int32_t *up = malloc((size_t)levels * sn * sizeof *up);
    int64_t *mx = malloc((size_t)levels * sn * sizeof *mx);
    const int64_t *cost = t->key;

    for (int64_t a = 0; a < arcs; a++) wt_fin_arc_keys(a, tree_list, g->eu, g->ev, src, arc);
    stable_sort(src, arc, arcs, n, s_src, s_arc);
    int32_t *pos = src, *twin = arc;
    for (int64_t p = 0; p < arcs; p++) wt_fin_arc_place(p, s_src, s_arc, pos, first);
    for (int64_t p = 0; p < arcs; p++)
        wt_fin_tour_next(p, arcs, s_src, s_arc, pos, first, twin, succ[0], dist[0]);
    int at = 0, rounds = 0;
    while (((int64_t)1 << rounds) < arcs) rounds++;
    for (int r = rounds; r > 0; r--, at ^= 1)
        for (int64_t p = 0; p < arcs; p++)
            wt_fin_rank_round(p, succ[at], dist[at], succ[at ^ 1], dist[at ^ 1]);
    /* the tour's places: a permutation of 0 .. arcs - 1 */
    for (int64_t p = 0; p < arcs; p++) succ[at][p] = 0;
    for (int64_t p = 0; p < arcs; p++) {
        int64_t place = arcs - 1 - dist[at][p];
        assert_true(place >= 0 && place < arcs);
        succ[at][place]++;
    }
    for (int64_t p = 0; p < arcs; p++) assert_int_equal(succ[at][p], 1);
    int32_t *step = succ[0], *scan = succ[1], *down_at = first;
    for (int64_t p = 0; p < arcs; p++)
        wt_fin_orient(p, arcs, dist[at], twin, s_src, s_arc, tree_list, cost, up, mx, down_at,
                      step);
    int32_t sum = 0;
    for (int64_t p = 0; p < arcs; p++) scan[p] = sum += step[p];
    for (int64_t v = 0; v < n; v++) wt_fin_depth(v, down_at, scan, depth);
    for (int j = 1; j < levels; j++)
        for (int64_t v = 0; v < n; v++)
            wt_fin_lift(v, up + (size_t)(j - 1) * sn, mx + (size_t)(j - 1) * sn, up + (size_t)j * sn,
                        mx + (size_t)j * sn);
    wt_fin_tree ft = {n, levels, up, mx, depth, t->special, t->special_edge, t->special_cost};
    for (int64_t e = 0; e < m; e++) alpha[e] = wt_fin_alpha(&ft, e, g->eu[e], g->ev[e], cost[e]);

    int32_t *seq = malloc((size_t)m * sizeof *seq), *in_city = malloc((size_t)m * sizeof *in_city);
    int32_t *in_edge = malloc((size_t)m * sizeof *in_edge);
    int32_t *out_off = malloc((sn + 1) * sizeof *out_off), *in_off = malloc((sn + 1) * sizeof *in_off);
    for (int64_t e = 0; e < m; e++) seq[e] = (int32_t)e;
    stable_sort(g->ev, seq, m, n, in_city, in_edge);
    for (int64_t i = 0; i <= n; i++) {
        out_off[i] = wt_fin_lower_bound(g->eu, m, (int32_t)i);
        in_off[i] = wt_fin_lower_bound(in_city, m, (int32_t)i);
    }
    for (size_t x = 0; x < sn * (size_t)k; x++) cand[x] = -1;
    wt_fin_graph fg = {m, g->eu, g->ev, in_edge, out_off, in_off, alpha, cost};
    for (int64_t x = 0; x < 2 * m; x++) wt_fin_list_arc(x, &fg, k, cand);

    free(tree_list);
    free(src);
    free(arc);
    free(s_src);
    free(s_arc);
    free(succ[0]);
    free(succ[1]);
    free(dist[0]);
    free(dist[1]);
    free(first);
    free(depth);
    free(up);
    free(mx);
    free(seq);
    free(in_city);
    free(in_edge);
    free(out_off);
    free(in_off);
}

/* The host's finish and the steps' on inst's quadrant graph of k under
 * penalties of the given spread: equal alpha-values and lists. */
static void compare_on(const char *what, const wt_instance *inst, int32_t spread, uint64_t seed)
{
    enum { GRAPH_K = 10, CAND_K = 6 };
    int n = inst->n;
    wt_error err = {0};
    bool stopped = false;
    int32_t *rows = malloc((size_t)n * GRAPH_K * sizeof *rows);
    if (wt_quadrant_lists_until(inst, GRAPH_K, 1, NULL, rows, &stopped, &err) != WT_OK)
        fail_msg("quadrant lists: %s", err.message);
    wt_sgraph g;
    if (wt_sgraph_create(inst, rows, GRAPH_K, 1, NULL, &g, &stopped, &err) != WT_OK)
        fail_msg("graph: %s", err.message);
    int32_t *pi = malloc((size_t)n * sizeof *pi);
    wt_rng rng;
    wt_rng_seed(&rng, seed);
    for (int i = 0; i < n; i++)
        pi[i] = spread ? (int32_t)wt_rng_below(&rng, 2 * (uint64_t)spread + 1) - spread : 0;
    wt_onetree t;
    assert_int_equal(wt_onetree_alloc(&g, &t, &err), WT_OK);
    if (wt_onetree_sparse(&g, pi, 1, NULL, &t, &stopped, &err) != WT_OK)
        fail_msg("%s: tree: %s", what, err.message);
    size_t sm = (size_t)g.m, rows_bytes = (size_t)n * CAND_K * sizeof(int32_t);
    int64_t *alpha_host = malloc(sm * sizeof(int64_t)), *alpha_steps = malloc(sm * sizeof(int64_t));
    int32_t *cand_host = malloc(rows_bytes), *cand_steps = malloc(rows_bytes);
    assert_int_equal(wt_onetree_alpha(&g, &t, 1, NULL, alpha_host, &stopped, &err), WT_OK);
    assert_int_equal(wt_ascent_finish_lists(&g, &t, alpha_host, CAND_K, 1, NULL, cand_host,
                                            &stopped, &err),
                     WT_OK);
    finish_by_steps(&g, &t, CAND_K, seed + 1, alpha_steps, cand_steps);
    int64_t differ = 0;
    for (size_t e = 0; e < sm; e++) differ += alpha_host[e] != alpha_steps[e];
    print_message("    %s n=%d m=%lld spread=%d special=%d: %lld alpha-values differ\n", what, n,
                  (long long)g.m, spread, t.special, (long long)differ);
    assert_int_equal(differ, 0);
    assert_memory_equal(cand_steps, cand_host, rows_bytes);
    free(alpha_host);
    free(alpha_steps);
    free(cand_host);
    free(cand_steps);
    wt_onetree_free(&t);
    free(pi);
    wt_sgraph_free(&g);
    free(rows);
}

static void test_uniform_and_clustered(void **state)
{
    (void)state;
    wt_instance *small = wt_test_random_instance(100, 3);
    compare_on("uniform", small, 0, 1);
    compare_on("uniform", small, 3000000, 2);
    wt_instance_free(small);
    wt_instance *uniform = wt_test_random_instance(5000, 4);
    compare_on("uniform", uniform, 0, 3);
    compare_on("uniform", uniform, 1000000, 4);
    wt_instance_free(uniform);
    wt_instance *clustered = NULL;
    wt_error err = {0};
    assert_int_equal(wt_instance_generate(WT_GEN_CLUSTERED, 3000, 5, &clustered, &err), WT_OK);
    compare_on("clustered", clustered, 300000, 5);
    wt_instance_free(clustered);
}

/* 2,000 points on a 30 x 30 grid: twins, equal lengths, many ties. */
static void test_ties(void **state)
{
    (void)state;
    enum { N = 2000 };
    double x[N], y[N];
    wt_rng rng;
    wt_rng_seed(&rng, 11);
    for (int i = 0; i < N; i++) {
        x[i] = (double)wt_rng_below(&rng, 30);
        y[i] = (double)wt_rng_below(&rng, 30);
    }
    wt_instance *inst = NULL;
    wt_error err = {0};
    assert_int_equal(wt_instance_from_coords("grid", N, WT_EUC_2D, x, y, NULL, &inst, &err),
                     WT_OK);
    compare_on("grid", inst, 0, 6);
    compare_on("grid", inst, 3, 7);
    compare_on("grid", inst, 60, 8);
    wt_instance_free(inst);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_uniform_and_clustered),
        cmocka_unit_test(test_ties),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
