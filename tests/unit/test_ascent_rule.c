/*
 * test_ascent_rule.c - the Held-Karp ascent's step rule and pi update
 * (core/ascent_rule.h), the code the host's and the GPU's ascents share:
 * integer rounding toward 0, the clamp, the initial phase and its
 * patience, the periods, their longest and their stall.
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

/* Rising bounds double the step in the first period; a first period
 * shorter than the patience ends the initial phase with it; then each
 * period halves. */
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
    /* 100, 200 (doubled after the first rise), 400, then the first period
     * and the phase end; the second rise came at step 2 of 3: no longer
     * period.  Then periods of 1 (3 / 2), 0: end. */
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

/* The steps of a rule whose bound rises where rises[i] says (false after
 * the array's end), into steps (at most max); returns how many. */
static int run_rule(wt_ascent_rule *r, const bool *rises, int n_rises, int64_t *steps, int max)
{
    int count = 0;
    int64_t bound = r->best_bound;
    while (wt_ascent_rule_more(r) && count < max) {
        steps[count] = r->step;
        bool up = count < n_rises && rises[count];
        bound += up ? 10 : 0;
        wt_ascent_rule_record(r, bound, 4);
        count++;
    }
    return count;
}

/* A first step that does not rise (ties at pi = 0) leaves the doubling
 * on; WT_ASCENT_PATIENCE steps in a row without a rise end it, and the
 * first period starts again at the step reached. */
static void test_rule_patience(void **state)
{
    (void)state;
    enum { PERIOD = 40 };
    bool rises[4] = {false, true, true, true};
    int64_t steps[1024];
    wt_ascent_rule r;
    wt_ascent_rule_start(&r, 1000, PERIOD, 0, 0, 4);
    int count = run_rule(&r, rises, 4, steps, 1024);
    assert_true(steps[0] == 100 && steps[1] == 100 && steps[2] == 200 && steps[3] == 400);
    /* 800 from step 4: the patience's misses, then a whole first period. */
    int at = 4;
    while (at < count && steps[at] == 800) at++;
    assert_int_equal(at, 4 + WT_ASCENT_PATIENCE + PERIOD);
    assert_true(steps[at] == 400); /* then the periods halve: 20 steps at 400 */
    assert_true(steps[at + 19] == 400 && steps[at + 20] == 200);
    assert_int_equal(r.best_bound, 30);
}

/* A period whose last step rises doubles, but never beyond the first
 * period's length: a rule whose every step rises still ends. */
static void test_rule_period_stays_within_the_first(void **state)
{
    (void)state;
    int64_t steps[1024];
    wt_ascent_rule r;
    wt_ascent_rule_start(&r, 1000, 4, 0, 0, 4);
    int longest = 0;
    int count = 0;
    int64_t bound = 0;
    while (wt_ascent_rule_more(&r) && count < 1024) {
        steps[count++] = r.step;
        if (r.period > longest) longest = r.period;
        wt_ascent_rule_record(&r, bound += 10, 4);
    }
    assert_int_equal(longest, 4);
    assert_true(count < 1024); /* the step reached 0 */
    assert_true(steps[0] == 100 && steps[3] == 800); /* the first period doubles */
    assert_true(steps[4] == 800);                    /* then halves with the period */
}

/* A long period whose steps stop raising the bound ends after
 * WT_ASCENT_STALL of them (the step halves sooner); a period shorter than
 * that runs whole. */
static void test_rule_stalled_period_ends(void **state)
{
    (void)state;
    int64_t steps[2048];
    wt_ascent_rule r;
    wt_ascent_rule_start(&r, 1000, 1000, 0, 0, 4);
    int count = run_rule(&r, NULL, 0, steps, 2048);
    /* 10 steps of the initial phase at 100, then 200 a period at 100, 50
     * and 25 (periods of 1000, 500, 250 cut short), then whole periods of
     * 125, 62, 31, 15 at 12, 6, 3, 1. */
    assert_int_equal(WT_ASCENT_PATIENCE, 10);
    assert_int_equal(WT_ASCENT_STALL, 200);
    assert_int_equal(count, 10 + 3 * 200 + 125 + 62 + 31 + 15);
    assert_true(steps[209] == 100 && steps[210] == 50);
    assert_true(steps[409] == 50 && steps[410] == 25);
    assert_true(steps[609] == 25 && steps[610] == 12);
    assert_true(steps[734] == 12 && steps[735] == 6);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pi_update_rounds_toward_zero_and_clamps),
        cmocka_unit_test(test_rule_steps),
        cmocka_unit_test(test_rule_patience),
        cmocka_unit_test(test_rule_period_stays_within_the_first),
        cmocka_unit_test(test_rule_stalled_period_ends),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
