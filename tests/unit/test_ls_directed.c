/*
 * test_ls_directed.c - the engine's direction-keeping exchanges
 * (wt_ls_moves.directed, ls/or3opt.c), the descents of asymmetric
 * instances' transformations: after every descent the length kept is the
 * tour's exact length (so every move's gain was its exact change), the
 * tour is a permutation that keeps the fixed twin edges and, on the
 * transformation, no edge of cost M; undo after kicks returns exactly to
 * the committed tour.  The oracles recompute lengths from scratch and
 * share no code with src/ls.
 */
#include "test_util.h"

#include "algo/policy.h"
#include "core/fixed_edges.h"
#include "core/instance.h"
#include "core/rng.h"
#include "core/search_ctl.h"
#include "ls/engine.h"
#include "ls/kicks.h"

/* A random asymmetric instance of n cities, costs 1..1000. */
static wt_instance *random_atsp(int n, uint64_t seed)
{
    double *d = malloc((size_t)n * (size_t)n * sizeof *d);
    wt_rng rng;
    wt_rng_seed(&rng, seed);
    for (int i = 0; i < n * n; i++) d[i] = 1 + (double)wt_rng_below(&rng, 1000);
    wt_instance *inst = NULL;
    wt_error err = {0};
    if (wt_instance_from_asymmetric_matrix("a", n, d, &inst, &err) != WT_OK)
        fail_msg("from_asymmetric_matrix: %s", err.message);
    free(d);
    return inst;
}

/* Whether every edge of tour (n cities of inst) costs less than big. */
static bool no_edge_of(const wt_instance *inst, const int32_t *tour, int n, int64_t big)
{
    for (int i = 0; i < n; i++)
        if (wt_dist(inst, tour[i], tour[(i + 1) % n]) >= big) return false;
    return true;
}

/* Descends from tour, then kicks and descends `kicks` times keeping every
 * third; checks the invariants after each change.  adj: the fixed edges
 * (NULL: none); big: the transformation's M (0: none). */
static void check_descents(const wt_instance *inst, const int32_t *tour, const int32_t *adj,
                           int64_t big, int kicks)
{
    int n = inst->n;
    wt_params params;
    wt_params_defaults(&params);
    params.threads = 1;
    wt_search_ctl ctl;
    wt_ctl_init(&ctl, &params);
    ctl.fixed = adj;
    wt_ls_moves m = wt_policy_directed_moves(wt_policy_ls_moves(true), 0);
    wt_ls *w = NULL;
    assert_int_equal(wt_ls_create(inst, tour, &ctl, &m, &w, NULL), WT_OK);
    int64_t start = wt_ls_length(w);
    assert_int_equal(start, wt_tour_length(inst, tour));
    wt_ls_touch_all(w);
    uint64_t moves = 0;
    assert_int_equal(wt_ls_descend(w, &moves, NULL), WT_OK);
    if (n >= 20) assert_true(moves > 0);
    int32_t *kept = malloc((size_t)n * sizeof *kept);
    memcpy(kept, wt_ls_order(w), (size_t)n * sizeof *kept);
    int64_t kept_len = wt_ls_length(w);
    assert_true(kept_len <= start);
    for (int k = 0; k <= kicks; k++) {
        const int32_t *t = wt_ls_order(w);
        assert_int_equal(wt_tour_validate(t, n, NULL), WT_OK);
        assert_int_equal(wt_ls_length(w), wt_tour_length(inst, t));
        if (adj) assert_true(wt_tour_holds_fixed(t, n, adj));
        if (big > 0) assert_true(no_edge_of(inst, t, n, big));
        if (k == kicks) break;
        if (k % 3 == 0) {
            wt_ls_commit(w);
            memcpy(kept, t, (size_t)n * sizeof *kept);
            kept_len = wt_ls_length(w);
        } else if (k > 0) {
            wt_ls_undo(w, kept_len);
            assert_memory_equal(wt_ls_order(w), kept, (size_t)n * sizeof *kept);
        }
        if (!wt_ls_walk_kick(w, 5, (uint64_t)k, 10)) continue;
        assert_int_equal(wt_ls_descend(w, NULL, NULL), WT_OK);
    }
    free(kept);
    wt_ls_free(w);
}

/* On asymmetric instances' transformations: the moves keep the twin
 * edges, never add an edge of cost M, and track the length exactly; the
 * descent shortens a random tour. */
static void test_transformation(void **state)
{
    (void)state;
    const int sizes[] = {4, 9, 30, 120};
    for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; z++) {
        int n = sizes[z];
        wt_instance *a = random_atsp(n, 40 + (uint64_t)n);
        const wt_instance *sym = a->sym;
        assert_non_null(sym);
        assert_true(sym->directed);
        int64_t big = wt_dist(sym, 0, 1); /* two cities: M */
        int32_t *adj = malloc(4 * (size_t)n * sizeof *adj);
        wt_fixed_adjacency(sym->fixed, sym->fixed_count, 2 * n, adj);
        /* A random asymmetric tour as the symmetric tour n+i, i, ... */
        int32_t *order = malloc((size_t)n * sizeof *order);
        int32_t *tour = malloc(2 * (size_t)n * sizeof *tour);
        wt_test_random_tour(n, 7 + (uint64_t)n, order);
        for (int k = 0; k < n; k++) {
            tour[2 * k] = n + order[k];
            tour[2 * k + 1] = order[k];
        }
        assert_int_equal(wt_tour_length(sym, tour), wt_tour_length(a, order));
        check_descents(sym, tour, adj, big, 60);
        free(order);
        free(tour);
        free(adj);
        wt_instance_free(a);
    }
}

/* The same moves on an ordinary instance (no fixed edges): every path the
 * exchanges move, wrapping round position 0 or not, and the chains' undo
 * leave the length exact. */
static void test_planar(void **state)
{
    (void)state;
    const int sizes[] = {8, 60, 400};
    for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; z++) {
        int n = sizes[z];
        wt_instance *inst = wt_test_random_instance(n, 300 + (uint64_t)n);
        int32_t *tour = malloc((size_t)n * sizeof *tour);
        wt_test_random_tour(n, 11, tour);
        check_descents(inst, tour, NULL, 0, 60);
        free(tour);
        wt_instance_free(inst);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_transformation),
        cmocka_unit_test(test_planar),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
