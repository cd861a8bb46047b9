/*
 * test_kswap.c - selecting independent 2-opt moves (Robinson et al. §3.4).
 *
 * Crafted move sets: nested, overlapping, touching (sharing an edge) and
 * disjoint segments, the wrap-around move (0, n-1), the k limit, order by
 * gain; then the property that makes k-swap correct: on random tours the
 * kept moves' deltas, computed on the unchanged tour, add up to the exact
 * change of length when all are applied.
 */
#include "test_util.h"

#include "algo/kswap.h"
#include "backend/cpu/cpu_2opt.h"

static int select_moves(wt_kswap_move *m, int count, int k)
{
    wt_kswap_move scratch[64];
    return wt_kswap_select(m, count, k, scratch);
}

static void test_nested_and_overlapping_dropped(void **state)
{
    (void)state;
    wt_kswap_move m[] = {{-5, 10, 20}, {-9, 2, 30}, {-3, 15, 40}};
    /* (2,30) is best; (10,20) nests inside it, (15,40) overlaps it. */
    assert_int_equal(select_moves(m, 3, 0), 1);
    assert_int_equal(m[0].i, 2);
    assert_int_equal(m[0].j, 30);
}

static void test_touching_dropped_disjoint_kept(void **state)
{
    (void)state;
    /* (10,20) and (20,30) share edge 20: the second is dropped;
     * (21,30) only meets it at a node, which is fine. */
    wt_kswap_move touching[] = {{-5, 10, 20}, {-4, 20, 30}};
    assert_int_equal(select_moves(touching, 2, 0), 1);
    wt_kswap_move disjoint[] = {{-4, 21, 30}, {-5, 10, 20}, {-1, 0, 2}};
    assert_int_equal(select_moves(disjoint, 3, 0), 3);
    /* Kept moves come back sorted by i. */
    assert_int_equal(disjoint[0].i, 0);
    assert_int_equal(disjoint[1].i, 10);
    assert_int_equal(disjoint[2].i, 21);
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_nested_and_overlapping_dropped),
        cmocka_unit_test(test_touching_dropped_disjoint_kept),
        cmocka_unit_test(test_wrap_around_move_excludes_all),
        cmocka_unit_test(test_k_limit_and_gain_order),
        cmocka_unit_test(test_kept_deltas_add_up),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
