/*
 * test_devices.c - several GPUs in one process, without a GPU: the device
 * list of the parameters (algo/devices.c) and the dealing of a batch's
 * instances and a round's windows over the listed devices (algo/batch.c).
 *
 * The list: a count out of range, a negative device and a device listed
 * twice are refused by wt_solve and wt_solve_batch naming the field; with
 * --backend cpu the list is checked but names no GPU.  The dealing runs on
 * a fake device backend of two "GPUs" whose slots run the CPU's search (as
 * test_alpha.c's fake ascent): every instance is searched exactly once, on
 * one of the two, each device gets its share (one refusing some instances
 * leaves them to the other, or to the host), the tours, lengths and kicks
 * are one device's, and the counters add up; a failing device fails the
 * call, naming it; the set's description names both devices.
 */
#include "batch_test_util.h"

#include <pthread.h>

#include "algo/batch.h"
#include "algo/devices.h"
#include "algo/windows.h"
#include "algo/windows_concurrent.h"
#include "core/error.h"
#include "core/instance.h"

/* ---------------------------------------------------------- the list */

static wt_status batch_with(const int *devices, int count, wt_backend_kind backend,
                            wt_error *err)
{
    wt_instance *in[2] = {wt_test_random_instance(20, 1), wt_test_random_instance(30, 2)};
    wt_batch_params p;
    wt_batch_params_defaults(&p);
    p.backend = backend;
    p.kicks = 10;
    p.threads = 1;
    memcpy(p.devices, devices, (size_t)(count > 0 && count <= 3 ? count : 0) * sizeof *devices);
    p.device_count = count;
    wt_batch_result r;
    wt_status st = wt_solve_batch((const wt_instance *const *)in, 2, &p, &r, err);
    if (st == WT_OK) {
        batch_check_tours(in, &r);
        wt_batch_result_free(&r);
    }
    wt_instance_free(in[0]);
    wt_instance_free(in[1]);
    return st;
}

static wt_status solve_with(const int *devices, int count, wt_error *err)
{
    wt_instance *inst = wt_test_random_instance(40, 3);
    wt_params p;
    wt_params_defaults(&p);
    p.backend = WT_BACKEND_CPU;
    p.kicks = 10;
    p.threads = 1;
    memcpy(p.devices, devices, (size_t)(count > 0 && count <= 3 ? count : 0) * sizeof *devices);
    p.device_count = count;
    wt_result r;
    wt_status st = wt_solve(inst, &p, &r, err);
    if (st == WT_OK) wt_result_free(&r);
    wt_instance_free(inst);
    return st;
}

static void test_list_checked(void **state)
{
    (void)state;
    const struct {
        int devices[3], count;
        const char *names;
    } bad[] = {
        {{0, 1, 0}, 3, "devices[0] and devices[2] are both 0"},
        {{1, -2}, 2, "params.devices[1] is -2"},
        {{0}, 17, "params.device_count is 17"},
        {{0}, -5, "params.device_count is -5"},
    };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        wt_error err = {0};
        assert_int_equal(batch_with(bad[k].devices, bad[k].count, WT_BACKEND_CPU, &err),
                         WT_STATUS_INVALID_ARGUMENT);
        assert_non_null(strstr(err.message, "wt_solve_batch"));
        assert_non_null(strstr(err.message, bad[k].names));
        memset(&err, 0, sizeof err);
        assert_int_equal(solve_with(bad[k].devices, bad[k].count, &err),
                         WT_STATUS_INVALID_ARGUMENT);
        assert_non_null(strstr(err.message, "wt_solve:"));
        assert_non_null(strstr(err.message, bad[k].names));
    }
    /* Good lists: with the CPU backend no GPU is asked for; "all" too. */
    const int good[3] = {2, 0, 1};
    wt_error err = {0};
    assert_int_equal(batch_with(good, 3, WT_BACKEND_CPU, &err), WT_OK);
    assert_int_equal(batch_with(good, WT_DEVICES_ALL, WT_BACKEND_CPU, &err), WT_OK);
    assert_int_equal(solve_with(good, 3, &err), WT_OK);
    assert_int_equal(solve_with(good, WT_DEVICES_ALL, &err), WT_OK);
    assert_int_equal(wt_devices_first(good, 3, 5), 2);
    assert_int_equal(wt_devices_first(good, 0, 5), 5);
    assert_int_equal(wt_devices_first(good, WT_DEVICES_ALL, 5), 0);
}

/* ------------------------------------------- a fake backend of two GPUs */

enum { MAX_INSTANCES = 256 };

static int ran[MAX_INSTANCES];          /* searches of each instance (atomic) */
static int ran_on[MAX_INSTANCES];       /* the fake device that searched it */
static int refuse_on_1_below = 0;       /* device 1 fits no instance of fewer cities */
static int fail_device = -1;            /* this device's slot fails */
static int refuse_above = 1 << 30;      /* no device fits an instance of more cities */
static int fake_devices = 2;            /* what device_count says */
static int unusable = -1;               /* this device is present but not usable */

static bool fake_available(const wt_device *dev, char *desc, size_t size)
{
    snprintf(desc, size, "Fake GPU (device %d)", dev->index);
    return dev->index < fake_devices && dev->index != unusable;
}

static int fake_count(void) { return fake_devices; }

static wt_status fake_run(const wt_device *dev, const wt_batch_job *job, wt_search_ctl *ctl,
                          bool windows, wt_error *err)
{
    if (dev->index == fail_device)
        return wt_fail(err, WT_STATUS_DEVICE, "fake device %s failed", dev->name);
    for (int i = 0; i < job->count && i < MAX_INSTANCES; i++)
        if (job->inst[i]) {
            __atomic_add_fetch(&ran[i], 1, __ATOMIC_RELAXED);
            ran_on[i] = dev->index;
        }
    wt_device host;
    wt_device_host(&host);
    return windows ? host.backend->windows(&host, job, ctl, err)
                   : host.backend->batch(&host, job, ctl, err);
}

static wt_status fake_batch(const wt_device *dev, const wt_batch_job *job, wt_search_ctl *ctl,
                            wt_error *err)
{
    return fake_run(dev, job, ctl, false, err);
}

static wt_status fake_windows(const wt_device *dev, const wt_batch_job *job, wt_search_ctl *ctl,
                              wt_error *err)
{
    return fake_run(dev, job, ctl, true, err);
}

static void fake_place(const wt_device *dev, const wt_instance *const *inst, int count,
                       int threads, bool *fits)
{
    (void)threads;
    for (int i = 0; i < count; i++)
        fits[i] = inst[i] && !(dev->index == 1 && inst[i]->n < refuse_on_1_below) &&
                  inst[i]->n <= refuse_above;
}

static const wt_backend fake_backend = {
    .name = "fake", .kind = WT_BACKEND_CUDA, .host = false,
    .available = fake_available, .device_count = fake_count,
    .batch = fake_batch, .batch_place = fake_place, .windows = fake_windows};

/* The set of fake devices 0 and 1 (count 2) or 0 alone (count 1). */
static wt_device_set fake_set(int count)
{
    wt_device_set set = {.count = count};
    for (int d = 0; d < count; d++) wt_device_of(&fake_backend, d, &set.at[d]);
    return set;
}

static void reset_fakes(void)
{
    memset(ran, 0, sizeof ran);
    memset(ran_on, -1, sizeof ran_on);
    refuse_on_1_below = 0;
    refuse_above = 1 << 30;
    fail_device = -1;
    fake_devices = 2;
    unusable = -1;
}

static int progress_calls;
static uint64_t progress_kicks;

static int count_progress(const wt_batch_progress *p, void *user)
{
    (void)user;
    progress_calls++;
    progress_kicks = p->kicks;
    return 0;
}

static wt_status solve_on(wt_instance **in, int count, const wt_device_set *set,
                          const wt_batch_params *p, wt_batch_result *r, wt_error *err)
{
    wt_batch_from from = {.devices = set};
    return wt_batch_solve_from((const wt_instance *const *)in, count, p, &from, r, err);
}

/* Two devices: every instance searched once, about half on each, the
 * tours of one device, and the kicks of all. */
static void test_batch_dealt_over_two(void **state)
{
    (void)state;
    enum { COUNT = 24 };
    wt_instance **in = batch_uniform_set(COUNT, 60, 11);
    wt_batch_params p;
    wt_batch_params_defaults(&p);
    p.kicks = 100;
    p.threads = 2;
    p.progress = count_progress;
    p.progress_interval_s = 0;
    wt_device_set one = fake_set(1), two = fake_set(2);
    wt_batch_result a, b;
    wt_error err = {0};
    reset_fakes();
    assert_int_equal(solve_on(in, COUNT, &one, &p, &a, &err), WT_OK);
    reset_fakes();
    progress_calls = 0;
    assert_int_equal(solve_on(in, COUNT, &two, &p, &b, &err), WT_OK);
    int on[2] = {0, 0};
    for (int i = 0; i < COUNT; i++) {
        assert_int_equal(ran[i], 1);
        assert_true(ran_on[i] == 0 || ran_on[i] == 1);
        on[ran_on[i]]++;
        assert_true(b.tours[i].on_gpu);
    }
    assert_int_equal(on[0], COUNT / 2); /* equal sizes: dealt in turn */
    assert_int_equal(on[1], COUNT / 2);
    batch_check_tours(in, &b);
    batch_assert_same(&a, &b);
    assert_int_equal(b.on_gpu, COUNT);
    assert_int_equal(b.kicks, (uint64_t)COUNT * 100);
    assert_int_equal(a.kicks, b.kicks);
    assert_true(progress_kicks <= b.kicks);
    assert_string_equal(b.backend, "fake");
    assert_non_null(strstr(b.device, "fake:0, fake:1"));
    /* The CPU's own tours for the same seed and kicks. */
    p.backend = WT_BACKEND_CPU;
    p.progress = NULL;
    wt_batch_result c = batch_solve(in, COUNT, &p);
    batch_assert_same(&b, &c);
    wt_batch_result_free(&a);
    wt_batch_result_free(&b);
    wt_batch_result_free(&c);
    batch_set_free(in, COUNT);
}

/* Instances device 1 refuses go to device 0; those no device takes
 * (larger than either fits) to the host; each searched once. */
static void test_batch_places_by_device(void **state)
{
    (void)state;
    enum { COUNT = 12 };
    wt_instance *in[COUNT];
    for (int i = 0; i < COUNT; i++)
        in[i] = wt_test_random_instance(i == 5 ? 150 : i % 2 ? 30 : 80, 40 + (uint64_t)i);
    wt_batch_params p;
    wt_batch_params_defaults(&p);
    p.kicks = 50;
    p.threads = 2;
    wt_device_set two = fake_set(2);
    wt_batch_result r;
    wt_error err = {0};
    reset_fakes();
    refuse_on_1_below = 50; /* device 1 takes only the instances of 80 cities */
    refuse_above = 100;     /* and neither the one of 150: the host's */
    assert_int_equal(solve_on(in, COUNT, &two, &p, &r, &err), WT_OK);
    int on1 = 0;
    for (int i = 0; i < COUNT; i++) {
        assert_int_equal(ran[i], i == 5 ? 0 : 1);
        assert_true(r.tours[i].on_gpu == (i != 5));
        if (in[i]->n < 50) assert_int_equal(ran_on[i], 0);
        on1 += ran_on[i] == 1;
    }
    assert_true(on1 >= 2); /* the 80-city ones shared */
    assert_string_equal(r.backend, "fake+cpu");
    batch_check_tours(in, &r);
    wt_batch_result c;
    p.backend = WT_BACKEND_CPU;
    c = batch_solve(in, COUNT, &p);
    batch_assert_same(&r, &c);
    wt_batch_result_free(&c);
    wt_batch_result_free(&r);
    for (int i = 0; i < COUNT; i++) wt_instance_free(in[i]);
}

/* A device that fails fails the call, naming it, after the other ended. */
static void test_batch_device_fails(void **state)
{
    (void)state;
    wt_instance **in = batch_uniform_set(8, 40, 3);
    wt_batch_params p;
    wt_batch_params_defaults(&p);
    p.kicks = 20;
    p.threads = 1;
    wt_device_set two = fake_set(2);
    wt_batch_result r;
    wt_error err = {0};
    reset_fakes();
    fail_device = 1;
    assert_int_equal(solve_on(in, 8, &two, &p, &r, &err), WT_STATUS_DEVICE);
    assert_non_null(strstr(err.message, "fake:1"));
    batch_set_free(in, 8);
}

/* A round's windows dealt over two devices: the tour of one. */
static void test_windows_dealt_over_two(void **state)
{
    (void)state;
    wt_instance *inst = wt_test_random_instance(1200, 9);
    int32_t *t1 = malloc(1200 * sizeof *t1), *t2 = malloc(1200 * sizeof *t2);
    wt_test_random_tour(1200, 4, t1);
    memcpy(t2, t1, 1200 * sizeof *t1);
    wt_device_set two = fake_set(2);
    wt_windows_opts o = {.window = 60, .offset = 17, .kicks = 20, .seed = 5, .replicas = 2,
                         .device = &two.at[0], .threads = 2};
    wt_windows_round r1, r2;
    wt_error err = {0};
    reset_fakes();
    assert_int_equal(wt_windows_round_run(inst, t1, &o, &r1, &err), WT_OK);
    for (int i = 0; i < 40; i++) assert_int_equal(ran_on[i], 0);
    o.devices = &two;
    reset_fakes();
    assert_int_equal(wt_windows_round_run(inst, t2, &o, &r2, &err), WT_OK);
    int on1 = 0;
    for (int i = 0; i < 40; i++) { /* 20 windows, 2 replicas each */
        assert_int_equal(ran[i], 1);
        on1 += ran_on[i] == 1;
    }
    assert_int_equal(on1, 20);
    assert_memory_equal(t1, t2, 1200 * sizeof *t1);
    assert_int_equal(r1.gain, r2.gain);
    assert_true(r2.gain > 0);
    assert_int_equal(wt_tour_validate(t2, 1200, NULL), WT_OK);
    free(t1);
    free(t2);
    wt_instance_free(inst);
}

/* Concurrent windows over a list of two: the rounds' windows go to both,
 * and the GPUs are named after the last round was waited for (the final
 * splice joins the rounds' thread before the result is described). */
static void test_concurrent_names_both(void **state)
{
    (void)state;
    int n = 3000, list[2] = {0, 1};
    wt_instance *inst = wt_test_random_instance(n, 12);
    int32_t *tour = malloc((size_t)n * sizeof *tour);
    wt_test_random_tour(n, 5, tour);
    wt_device_set two = fake_set(2);
    wt_concurrent_opts o = {.device = &two.at[0], .seed = 2, .round_s = 0.2, .window = 100,
                            .devices = list, .device_count = 2};
    wt_concurrent_windows *cw = NULL;
    wt_error err = {0};
    reset_fakes();
    assert_int_equal(wt_concurrent_open(inst, &o, &cw, &err), WT_OK);
    wt_concurrent_start(cw, tour, wt_now() + 0.5);
    int64_t gain = 0;
    while (wt_concurrent_rounds(cw) == 0 && wt_concurrent_running(cw))
        (void)wt_concurrent_splice(cw, tour, false, &gain);
    (void)wt_concurrent_splice(cw, tour, true, &gain);
    assert_int_equal(wt_tour_validate(tour, n, NULL), WT_OK);
    char named[128];
    wt_concurrent_devices_named(cw, named, sizeof named);
    assert_string_equal(named, "2 GPUs: Fake GPU \u00d72");
    bool on1 = false;
    for (int i = 0; i < MAX_INSTANCES; i++) on1 |= ran_on[i] == 1;
    assert_true(on1);
    wt_concurrent_close(cw);
    free(tour);
    wt_instance_free(inst);
}

/* The set a list makes: the first, then the others in the list's order;
 * a device past the machine's refused by name, an unusable one left out
 * (or refused when strict); the description names them. */
static void test_expand(void **state)
{
    (void)state;
    reset_fakes();
    fake_devices = 3;
    wt_device first;
    wt_device_of(&fake_backend, 2, &first);
    const int list[3] = {2, 0, 1};
    wt_device_set set;
    char desc[128] = "Fake GPU (device 2)";
    wt_error err = {0};
    assert_int_equal(wt_devices_expand(&first, list, 3, true, &set, desc, sizeof desc, &err),
                     WT_OK);
    assert_int_equal(set.count, 3);
    assert_int_equal(set.at[0].index, 2);
    assert_int_equal(set.at[1].index, 0);
    assert_int_equal(set.at[2].index, 1);
    assert_string_equal(desc, "3 GPUs: Fake GPU \u00d73");
    snprintf(desc, sizeof desc, "Fake GPU (device 2)");
    assert_int_equal(wt_devices_expand(&first, list, WT_DEVICES_ALL, true, &set, desc,
                                       sizeof desc, &err), WT_OK);
    assert_int_equal(set.count, 3);
    assert_int_equal(set.at[1].index, 0);
    const int past[2] = {0, 3};
    assert_int_equal(wt_devices_in_range(&fake_backend, past, 2, "wt_solve_batch", &err),
                     WT_STATUS_NO_DEVICE);
    assert_non_null(strstr(err.message, "params.devices[1] is fake:3"));
    /* Device 1 present but not usable: left out, or refused when strict. */
    unusable = 1;
    const int with_bad[2] = {2, 1};
    assert_int_equal(wt_devices_expand(&first, with_bad, 2, false, &set, desc, sizeof desc,
                                       &err), WT_OK);
    assert_int_equal(set.count, 1);
    assert_int_equal(wt_devices_expand(&first, with_bad, 2, true, &set, desc, sizeof desc,
                                       &err), WT_STATUS_NO_DEVICE);
    assert_non_null(strstr(err.message, "fake:1"));
    /* The host, or a list of one: the first alone. */
    wt_device host;
    wt_device_host(&host);
    assert_int_equal(wt_devices_expand(&host, list, 3, true, &set, desc, sizeof desc, &err),
                     WT_OK);
    assert_int_equal(set.count, 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_list_checked),
        cmocka_unit_test(test_batch_dealt_over_two),
        cmocka_unit_test(test_batch_places_by_device),
        cmocka_unit_test(test_batch_device_fails),
        cmocka_unit_test(test_windows_dealt_over_two),
        cmocka_unit_test(test_concurrent_names_both),
        cmocka_unit_test(test_expand),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
