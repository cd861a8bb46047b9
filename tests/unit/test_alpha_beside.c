/*
 * test_alpha_beside.c - the bound's ascent in a thread beside the search
 * (algo/alpha_beside.h), on a fake device whose ascent slot is the
 * host's: the same bound as the same ascent run in place; a device that
 * refuses the instance: the host's ascent in its place, as its own plan
 * says; a stop ends it at once, with a bound only where one was complete;
 * the local descents' bound by the policy (algo/policy.h).
 */
#include "test_util.h"

#include <math.h>

#include "algo/alpha.h"
#include "algo/alpha_beside.h"
#include "algo/policy.h"
#include "backend/backend.h"
#include "core/error.h"
#include "core/tuning.h"

/* A device whose ascent slot is the host's (fake_refusal WT_OK), or
 * refuses the instance with fake_refusal; fake_calls counts its calls. */
static wt_status fake_refusal;
static int fake_calls;

static bool fake_available(const wt_device *dev, char *desc, size_t size)
{
    (void)dev;
    snprintf(desc, size, "fake");
    return true;
}

static wt_status fake_ascent(const wt_device *dev, const wt_instance *inst, wt_ascent_job *job,
                             wt_search_ctl *ctl, wt_error *err)
{
    (void)dev;
    fake_calls++;
    if (fake_refusal != WT_OK)
        return wt_fail(err, fake_refusal, "fake device: %s", wt_status_str(fake_refusal));
    wt_device host;
    wt_device_host(&host);
    return host.backend->ascent(&host, inst, job, ctl, err);
}

static const wt_backend fake_backend = {
    .name = "fake", .kind = WT_BACKEND_CUDA, .host = false,
    .available = fake_available, .ascent = fake_ascent};

static void ctl_for(wt_params *p, wt_search_ctl *ctl)
{
    wt_params_defaults(p);
    p->threads = 2;
    wt_ctl_init(ctl, p);
}

/* Left to end by its plan: the bound of the same plan run in place, the
 * device named, its steps counted. */
static void test_same_bound_as_in_place(void **state)
{
    (void)state;
    wt_instance *inst = wt_test_random_instance(1500, 4);
    wt_params p;
    wt_search_ctl ctl;
    ctl_for(&p, &ctl);
    wt_device dev;
    wt_device_of(&fake_backend, 0, &dev);
    fake_refusal = WT_OK;
    wt_alpha_plan plan = {INFINITY, 60, 20};
    wt_alpha in_place;
    wt_error err = {0};
    assert_int_equal(wt_alpha_run(inst, &dev, &ctl, &plan, NULL, 5, &in_place, &err), WT_OK);
    assert_true(in_place.lower_bound > 0);
    wt_alpha_beside *b = NULL;
    wt_alpha_beside_start(inst, &dev, &ctl, &plan, &plan, 2, &b);
    assert_non_null(b);
    wt_search_stats stats = {0};
    wt_alpha_beside_end(b, false, &stats);
    assert_int_equal(stats.lower_bound, in_place.lower_bound);
    assert_string_equal(stats.ascent_device, dev.name);
    assert_int_equal(stats.ascent_iterations, in_place.iterations);
    assert_true(stats.ascent_s > 0);
    wt_alpha_free(&in_place);
    wt_instance_free(inst);
}

/* A device that refuses the instance (too little memory): the host's
 * ascent in its place, as the host's plan says (fewer steps here), the
 * same bound as the host's own run of that plan. */
static void test_refusal_runs_the_host(void **state)
{
    (void)state;
    wt_instance *inst = wt_test_random_instance(500, 5);
    wt_params p;
    wt_search_ctl ctl;
    ctl_for(&p, &ctl);
    wt_device dev, host;
    wt_device_of(&fake_backend, 0, &dev);
    wt_device_host(&host);
    wt_alpha_plan plan = {INFINITY, 300, 10}, host_plan = {INFINITY, 30, 10};
    wt_alpha in_place;
    wt_error err = {0};
    assert_int_equal(wt_alpha_run(inst, &host, &ctl, &host_plan, NULL, 5, &in_place, &err), WT_OK);
    const wt_status refusals[] = {WT_STATUS_UNSUPPORTED, WT_STATUS_OUT_OF_MEMORY};
    for (size_t i = 0; i < 2; i++) {
        fake_refusal = refusals[i];
        fake_calls = 0;
        wt_alpha_beside *b = NULL;
        wt_alpha_beside_start(inst, &dev, &ctl, &plan, &host_plan, 2, &b);
        assert_non_null(b);
        wt_search_stats stats = {0};
        wt_alpha_beside_end(b, false, &stats);
        assert_int_equal(fake_calls, 1);
        assert_int_equal(stats.lower_bound, in_place.lower_bound);
        assert_string_equal(stats.ascent_device, "cpu");
        assert_int_equal(stats.ascent_iterations, in_place.iterations);
    }
    wt_alpha_free(&in_place);
    wt_instance_free(inst);
}

/* A stop right after the start ends it (no hang over a plan of a million
 * steps); whatever bound it reports is a bound of the instance's tours
 * (its bound in place from more steps is at least as high). */
static void test_stop_ends_it(void **state)
{
    (void)state;
    wt_instance *inst = wt_test_random_instance(3000, 6);
    wt_params p;
    wt_search_ctl ctl;
    ctl_for(&p, &ctl);
    wt_device dev;
    wt_device_of(&fake_backend, 0, &dev);
    fake_refusal = WT_OK;
    wt_alpha_plan plan = {INFINITY, 1000000, 100000};
    wt_alpha_beside *b = NULL;
    wt_alpha_beside_start(inst, &dev, &ctl, &plan, &plan, 2, &b);
    assert_non_null(b);
    wt_search_stats stats = {0};
    wt_alpha_beside_end(b, true, &stats);
    wt_alpha_plan longer = {INFINITY, 200, 100};
    wt_alpha in_place;
    wt_error err = {0};
    assert_int_equal(wt_alpha_run(inst, &dev, &ctl, &longer, NULL, 5, &in_place, &err), WT_OK);
    assert_true(stats.lower_bound >= 0);
    assert_true(stats.lower_bound <= in_place.lower_bound || stats.ascent_iterations > 200);
    wt_alpha_free(&in_place);
    wt_instance_free(inst);
}

/* The local descents take the bound, never the lists; lk_alpha off and
 * tiny tours take none. */
static void test_local_policy(void **state)
{
    (void)state;
    assert_int_equal(wt_policy_local_alpha(0, 1000), WT_ALPHA_BOUND);
    assert_int_equal(wt_policy_local_alpha(1, 1000), WT_ALPHA_BOUND);
    assert_int_equal(wt_policy_local_alpha(WT_TUNING_OFF, 1000), WT_ALPHA_NONE);
    assert_int_equal(wt_policy_local_alpha(0, WT_LK_ALPHA_MIN_CITIES - 1), WT_ALPHA_NONE);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_same_bound_as_in_place),
        cmocka_unit_test(test_refusal_runs_the_host),
        cmocka_unit_test(test_stop_ends_it),
        cmocka_unit_test(test_local_policy),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
