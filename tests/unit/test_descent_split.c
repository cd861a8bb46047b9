/*
 * test_descent_split.c - the first descent split over several GPUs
 * (algo/descent_split.h), without a GPU: a fake device backend of "GPUs"
 * whose tour sessions are the CPU's.
 *
 * The regions: each region's cities in the order they came, the regions of
 * equal size give or take one, two regions on either side of a cut.  The
 * split descent: a valid tour, shorter than the start, a 2-opt optimum of
 * the whole (the seams mended), the same for any thread count and run; a
 * stop keeps a valid tour no longer than the start.  When it is wanted:
 * large planar instances without fixed edges only.
 */
#include "test_util.h"

#include "algo/descent.h"
#include "algo/descent_split.h"
#include "algo/policy.h"
#include "backend/cpu/cpu_session.h"
#include "core/error.h"
#include "core/instance.h"
#include "core/search_ctl.h"

static bool fake_available(const wt_device *dev, char *desc, size_t size)
{
    snprintf(desc, size, "Fake GPU (device %d)", dev->index);
    return true;
}

static int fake_count(void) { return 4; }

static const wt_backend fake_backend = {
    .name = "fake", .kind = WT_BACKEND_CUDA, .host = false,
    .available = fake_available, .device_count = fake_count,
    .session = &wt_cpu_session_ops};

static wt_device_set fake_set(int count)
{
    wt_device_set set = {.count = count};
    for (int d = 0; d < count; d++) wt_device_of(&fake_backend, d, &set.at[d]);
    return set;
}

/* ------------------------------------------------------------- regions */

/* Whether region [a0, a1) lies on one side of region [b0, b1) by x or y. */
static bool apart(const wt_instance *inst, const int32_t *c, int a0, int a1, int b0, int b1)
{
    const double *axes[2] = {inst->x, inst->y};
    for (int k = 0; k < 2; k++) {
        double amax = -1e300, bmin = 1e300, amin = 1e300, bmax = -1e300;
        for (int i = a0; i < a1; i++) {
            amax = fmax(amax, axes[k][c[i]]);
            amin = fmin(amin, axes[k][c[i]]);
        }
        for (int i = b0; i < b1; i++) {
            bmin = fmin(bmin, axes[k][c[i]]);
            bmax = fmax(bmax, axes[k][c[i]]);
        }
        if (amax <= bmin || bmax <= amin) return true;
    }
    return false;
}

static void test_regions(void **state)
{
    (void)state;
    enum { M = 1001 };
    wt_instance *inst = wt_test_random_instance(M, 3);
    int32_t order[M], cities[M], scratch[M], pos[M];
    double keys[M];
    wt_test_random_tour(M, 5, order);
    for (int i = 0; i < M; i++) pos[order[i]] = i;
    for (int parts = 1; parts <= 5; parts++) {
        int starts[6];
        wt_descent_cut cuts[5];
        memcpy(cities, order, sizeof cities);
        wt_descent_split_regions(inst, cities, M, parts, 2, starts, cuts, keys, scratch);
        assert_int_equal(starts[0], 0);
        assert_int_equal(starts[parts], M);
        wt_error err = {0};
        assert_int_equal(wt_tour_validate(cities, M, &err), WT_OK);
        for (int r = 0; r < parts; r++) {
            int size = starts[r + 1] - starts[r];
            assert_true(size >= M / parts - 1 && size <= M / parts + 1);
            for (int i = starts[r] + 1; i < starts[r + 1]; i++) /* the order kept */
                assert_true(pos[cities[i]] > pos[cities[i - 1]]);
        }
        if (parts == 2) {
            assert_true(apart(inst, cities, 0, starts[1], starts[1], M));
            const double *along = cuts[1].axis ? inst->y : inst->x; /* the cut between them */
            for (int i = 0; i < M; i++)
                assert_true(i < starts[1] ? along[cities[i]] <= cuts[1].at
                                          : along[cities[i]] >= cuts[1].at);
        }
    }
    wt_instance_free(inst);
}

/* ----------------------------------------------------- the split descent */

/* The split descent of inst's greedy tour over `parts` fake GPUs on
 * `threads` threads; the stop flag, when given, set from the start. */
static wt_status split_run(const wt_instance *inst, int parts, int threads, int32_t *tour,
                           const volatile int *stop_flag, wt_search_ctl *ctl_out)
{
    wt_error err = {0};
    assert_int_equal(wt_tour_init(inst, WT_INIT_GREEDY, 1, tour, &err), WT_OK);
    wt_params p;
    wt_params_defaults(&p);
    p.threads = threads;
    p.stop_flag = stop_flag;
    wt_search_ctl ctl;
    wt_ctl_init(&ctl, &p);
    wt_search_stats stats = {0};
    wt_device_set set = fake_set(parts);
    wt_status st = wt_descent_split(&set, inst, tour, &ctl, &stats, &err);
    ctl.params = NULL;
    if (ctl_out) *ctl_out = ctl;
    return st;
}

/* Steps a plain descent of the whole on the host still finds in tour. */
static uint64_t steps_left(const wt_instance *inst, int32_t *tour)
{
    wt_params p;
    wt_params_defaults(&p);
    p.threads = 1;
    wt_search_ctl ctl;
    wt_ctl_init(&ctl, &p);
    wt_search_stats stats = {0};
    wt_device host;
    wt_device_host(&host);
    wt_error err = {0};
    assert_int_equal(wt_twoopt_descend(&host, inst, tour, &ctl, &stats, &err), WT_OK);
    return stats.steps;
}

static void test_split_descent(void **state)
{
    (void)state;
    enum { N = 3000 };
    wt_instance *inst = wt_test_random_instance(N, 7);
    int32_t *start = malloc(N * sizeof *start), *a = malloc(N * sizeof *a),
            *b = malloc(N * sizeof *b);
    wt_error err = {0};
    assert_int_equal(wt_tour_init(inst, WT_INIT_GREEDY, 1, start, &err), WT_OK);
    int64_t start_length = wt_tour_length(inst, start);
    for (int parts = 2; parts <= 3; parts++) {
        assert_int_equal(split_run(inst, parts, 2, a, NULL, NULL), WT_OK);
        assert_int_equal(wt_tour_validate(a, N, &err), WT_OK);
        assert_true(wt_tour_length(inst, a) < start_length);
        assert_int_equal(split_run(inst, parts, 1, b, NULL, NULL), WT_OK);
        assert_memory_equal(a, b, N * sizeof *a); /* any thread count, any run */
        assert_int_equal(steps_left(inst, a), 0); /* the seams mended */
    }
    free(start);
    free(a);
    free(b);
    wt_instance_free(inst);
}

/* Regions larger than the join's band (its cities nearest the cut): the
 * joins still give a valid tour, shorter than the start. */
static void test_split_large_regions(void **state)
{
    (void)state;
    enum { N = 140000 };
    wt_instance *inst = wt_test_random_instance(N, 13);
    int32_t *start = malloc(N * sizeof *start), *tour = malloc(N * sizeof *tour);
    wt_error err = {0};
    assert_int_equal(wt_tour_init(inst, WT_INIT_GREEDY, 1, start, &err), WT_OK);
    assert_int_equal(split_run(inst, 2, 2, tour, NULL, NULL), WT_OK);
    assert_int_equal(wt_tour_validate(tour, N, &err), WT_OK);
    assert_true(wt_tour_length(inst, tour) < wt_tour_length(inst, start));
    free(start);
    free(tour);
    wt_instance_free(inst);
}

static void test_split_stopped(void **state)
{
    (void)state;
    enum { N = 2000 };
    wt_instance *inst = wt_test_random_instance(N, 9);
    int32_t *start = malloc(N * sizeof *start), *tour = malloc(N * sizeof *tour);
    wt_error err = {0};
    assert_int_equal(wt_tour_init(inst, WT_INIT_GREEDY, 1, start, &err), WT_OK);
    volatile int stop = 1;
    wt_search_ctl ctl;
    assert_int_equal(split_run(inst, 2, 2, tour, &stop, &ctl), WT_OK);
    assert_int_equal(ctl.stop, WT_STOP_INTERRUPTED);
    assert_memory_equal(tour, start, N * sizeof *tour);
    free(start);
    free(tour);
    wt_instance_free(inst);
}

/* A progress callback that stops the search at its first call, while the
 * regions descend. */
static int stop_at_once(const wt_progress *pr, void *user)
{
    (void)pr;
    (*(int *)user)++;
    return 1;
}

static void test_split_interrupted_in_regions(void **state)
{
    (void)state;
    enum { N = 4000 };
    wt_instance *inst = wt_test_random_instance(N, 11);
    int32_t *tour = malloc(N * sizeof *tour);
    wt_error err = {0};
    assert_int_equal(wt_tour_init(inst, WT_INIT_RANDOM, 1, tour, &err), WT_OK);
    int64_t start_length = wt_tour_length(inst, tour);
    wt_params p;
    wt_params_defaults(&p);
    p.threads = 2;
    int calls = 0;
    p.progress = stop_at_once;
    p.progress_user = &calls;
    p.progress_interval_s = 0;
    wt_search_ctl ctl;
    wt_ctl_init(&ctl, &p);
    wt_search_stats stats = {0};
    wt_device_set set = fake_set(2);
    assert_int_equal(wt_descent_split(&set, inst, tour, &ctl, &stats, &err), WT_OK);
    assert_int_equal(ctl.stop, WT_STOP_INTERRUPTED);
    assert_true(calls >= 1);
    assert_int_equal(wt_tour_validate(tour, N, &err), WT_OK);
    assert_true(wt_tour_length(inst, tour) <= start_length);
    free(tour);
    wt_instance_free(inst);
}

static void test_wanted(void **state)
{
    (void)state;
    wt_instance *small = wt_test_random_instance(1000, 1);
    assert_false(wt_descent_split_wanted(small, NULL));
    wt_instance_free(small);
    wt_instance *large = wt_test_random_instance(WT_DESCENT_SPLIT_CITIES, 1);
    assert_true(wt_descent_split_wanted(large, NULL));
    int32_t fixed[4] = {1, -1, 0, -1};
    assert_false(wt_descent_split_wanted(large, fixed));
    large->type = WT_GEO; /* no cut by x and y */
    assert_false(wt_descent_split_wanted(large, NULL));
    large->type = WT_EUC_2D;
    wt_instance_free(large);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_regions),
        cmocka_unit_test(test_split_descent),
        cmocka_unit_test(test_split_large_regions),
        cmocka_unit_test(test_split_stopped),
        cmocka_unit_test(test_split_interrupted_in_regions),
        cmocka_unit_test(test_wanted),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
