/*
 * test_tour_list.c - the two-level list (core/tour_list.h) against a plain
 * array under long random sequences of reversals and queries.
 *
 * The array is the oracle: reversing the path a..b of a cycle held in an
 * array is a few lines that cannot be wrong in the ways the list can (cuts,
 * merges, reversal bits, ranks).  After every reversal the list must hold
 * the array's cycle (walked either way), answer next, prev and between as
 * the array does in the list's direction, and keep its segment bound.
 */
#include "test_util.h"

#include "core/tour_list.h"

typedef struct model {
    int n;
    int32_t *tour, *pos;
} model;

static void model_reverse(model *m, int a, int b)
{
    int i = m->pos[a], len = (m->pos[b] - i + m->n) % m->n + 1;
    for (int x = 0, y = len - 1; x < y; x++, y--) {
        int pi = (i + x) % m->n, pj = (i + y) % m->n;
        int32_t t = m->tour[pi];
        m->tour[pi] = m->tour[pj];
        m->tour[pj] = t;
        m->pos[m->tour[pi]] = pi;
        m->pos[m->tour[pj]] = pj;
    }
}

/* The list's cycle equals the model's, and which way the list runs. */
static bool same_cycle(const wt_tour_list *l, const model *m, bool *forward)
{
    int c0 = m->tour[0];
    *forward = wt_tour_list_next(l, c0) == m->tour[1 % m->n];
    for (int i = 0; i < m->n; i++) {
        int c = m->tour[i], nx = m->tour[(i + 1) % m->n], pv = m->tour[(i + m->n - 1) % m->n];
        if (wt_tour_list_next(l, c) != (*forward ? nx : pv)) return false;
        if (wt_tour_list_prev(l, c) != (*forward ? pv : nx)) return false;
    }
    return true;
}

/* Whether b is on the model's path from a to c in the given direction. */
static bool model_between(const model *m, bool forward, int a, int b, int c)
{
    int pa = m->pos[a], pb = m->pos[b], pc = m->pos[c], n = m->n;
    if (!forward) {
        pa = n - 1 - pa;
        pb = n - 1 - pb;
        pc = n - 1 - pc;
    }
    return (pb - pa + n) % n <= (pc - pa + n) % n;
}

static void run_sequence(int n, int cap, int ops, uint64_t seed, int max_path)
{
    wt_rng rng;
    wt_rng_seed(&rng, seed);
    model m = {n, malloc((size_t)n * sizeof(int32_t)), malloc((size_t)n * sizeof(int32_t))};
    for (int i = 0; i < n; i++) m.tour[i] = i;
    for (int i = n - 1; i > 0; i--) {
        int j = (int)wt_rng_below(&rng, (uint64_t)i + 1);
        int32_t t = m.tour[i];
        m.tour[i] = m.tour[j];
        m.tour[j] = t;
    }
    for (int i = 0; i < n; i++) m.pos[m.tour[i]] = i;
    wt_tour_list *l = NULL;
    assert_int_equal(wt_tour_list_create(m.tour, n, cap, &l, NULL), WT_OK);
    for (int op = 0; op < ops; op++) {
        bool forward;
        assert_true(same_cycle(l, &m, &forward));
        /* A path a..b in the list's direction: short ones (LK's flips) or
         * any length. */
        int a = (int)wt_rng_below(&rng, (uint64_t)n);
        int len = 1 + (int)wt_rng_below(&rng, (uint64_t)(max_path < n ? max_path : n));
        int b = a;
        for (int k = 1; k < len; k++) b = wt_tour_list_next(l, b);
        for (int q = 0; q < 4; q++) {
            int x = (int)wt_rng_below(&rng, (uint64_t)n), y = (int)wt_rng_below(&rng, (uint64_t)n);
            int z = (int)wt_rng_below(&rng, (uint64_t)n);
            if (wt_tour_list_between(l, x, y, z) != model_between(&m, forward, x, y, z))
                fail_msg("n %d cap %d op %d: between(%d, %d, %d) differs", n, cap, op, x, y, z);
        }
        if (forward) model_reverse(&m, a, b);
        else model_reverse(&m, b, a);
        wt_tour_list_reverse(l, a, b);
        assert_true(l->m <= 2 * n / l->cap + 1);
        for (int s = 0; s < l->m; s++) assert_true(l->len[l->order[s]] >= 1);
    }
    bool forward;
    assert_true(same_cycle(l, &m, &forward));
    int32_t *walked = malloc((size_t)n * sizeof *walked);
    wt_tour_list_walk(l, m.tour[0], walked);
    for (int i = 0; i < n; i++) assert_int_equal(walked[i], m.tour[forward ? i : (n - i) % n]);
    free(walked);
    wt_tour_list_free(l);
    free(m.tour);
    free(m.pos);
}

static void test_agrees_with_array_short_paths(void **state)
{
    (void)state;
    run_sequence(1000, 0, 20000, 1, 40);
    run_sequence(997, 7, 20000, 2, 40);
}

static void test_agrees_with_array_any_paths(void **state)
{
    (void)state;
    run_sequence(1000, 0, 20000, 3, 1000);
    run_sequence(50, 3, 20000, 4, 50);
    run_sequence(3, 0, 200, 5, 3);
    run_sequence(10, 0, 2000, 6, 10); /* one segment */
}

static void test_bad_arguments(void **state)
{
    (void)state;
    int32_t tour[4] = {0, 1, 2, 2};
    wt_tour_list *l = NULL;
    wt_error err = {0};
    assert_int_equal(wt_tour_list_create(tour, 4, 0, &l, &err), WT_STATUS_INVALID_ARGUMENT);
    assert_null(l);
    assert_int_equal(wt_tour_list_create(tour, 2, 0, &l, &err), WT_STATUS_INVALID_ARGUMENT);
    assert_int_equal(wt_tour_list_create(NULL, 4, 0, &l, &err), WT_STATUS_INVALID_ARGUMENT);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_agrees_with_array_short_paths),
        cmocka_unit_test(test_agrees_with_array_any_paths),
        cmocka_unit_test(test_bad_arguments),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
