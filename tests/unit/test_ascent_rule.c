/*
 * test_ascent_rule.c - the Held-Karp ascent's step rule and pi update
 * (core/ascent_rule.h), the code the host's and the GPU's ascents share:
 * integer rounding toward 0, the clamp, the initial phase, the periods.
 */
#include "test_util.h"

#include "core/ascent_rule.h"

static void test_pi_update_rounds_toward_zero_and_clamps(void **state)
{
    (void)state;
    assert_int_equal(wt_ascent_pi_next(0, 1, 0, 100), 70);
    assert_int_equal(wt_ascent_pi_next(0, 1, 1, 1), 1);  /* 10 / 10 */
    assert_int_equal(wt_ascent_pi_next(0, -1, 0, 1), 0); /* -7 / 10 -> 0 */
    assert_int_equal(wt_ascent_pi_next(5, -1, -1, 3), 2);
    assert_int_equal(wt_ascent_pi_next(1 << 30, 3, 3, 1 << 30), 1 << 30);
    assert_int_equal(wt_ascent_pi_next(-(1 << 30), -3, -3, 1 << 30), -(1 << 30));
}

/* Rising bounds double the step in the first period; the first step
 * that does not rise ends the initial phase; then each period halves. */
static void test_rule_steps(void **state)
{
    (void)state;
    wt_ascent_rule r;
    wt_ascent_rule_start(&r, 10, 3, 0, 1000, 4); /* a period of 3 steps */
    int64_t steps[64];
    int count = 0;
    int64_t bound = 1000;
    while (wt_ascent_rule_more(&r) && count < 64) {
        steps[count] = r.step;
        bound += count < 2 ? 10 : -1; /* two rises, then falls */
        wt_ascent_rule_record(&r, bound, 4);
        count++;
    }
    /* 100, 200 (doubled after the first rise), 400, then the phase ends;
     * the second rise came at step 2 of 3: no longer period.  Then periods
     * of 1 (3 / 2), 0: end. */
    assert_true(count >= 4);
    assert_true(steps[0] == 100 && steps[1] == 200 && steps[2] == 400);
    assert_true(steps[3] == 200); /* the next period: halved */
    assert_int_equal(count, 4);
    assert_int_equal(r.iterations_done, 4);
    assert_true(r.best_bound == 1020);

    /* A cap of steps; a tour (norm 0) ends the rule. */
    wt_ascent_rule_start(&r, 1000, 0, 5, 0, 2);
    assert_int_equal(r.period, 500);
    count = 0;
    while (wt_ascent_rule_more(&r)) {
        wt_ascent_rule_record(&r, -1, 2);
        count++;
    }
    assert_int_equal(count, 5);
    wt_ascent_rule_start(&r, 10, 0, 0, 0, 2);
    assert_int_equal(r.period, 100);
    assert_true(wt_ascent_rule_more(&r));
    assert_true(wt_ascent_rule_record(&r, 0, 0)); /* a tour as good as the best */
    assert_false(wt_ascent_rule_more(&r));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pi_update_rounds_toward_zero_and_clamps),
        cmocka_unit_test(test_rule_steps),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
