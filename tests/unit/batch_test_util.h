/*
 * batch_test_util.h - what the tests of solve-batch share (test_batch.c on
 * the CPU, tests/gpu/test_gpu_batch.c on the GPU) and of the window
 * searches (test_windows.c, test_gpu_windows.c): sets of generated
 * instances, a solve that must succeed and the checks of its tours.
 */
#ifndef WT_TEST_BATCH_UTIL_H
#define WT_TEST_BATCH_UTIL_H

#include "test_util.h"

/* count uniform instances of n cities, seeds seed, seed + 1, ... */
static inline wt_instance **batch_uniform_set(int count, int n, uint64_t seed)
{
    wt_instance **in = calloc((size_t)count, sizeof *in);
    for (int i = 0; i < count; i++) in[i] = wt_test_random_instance(n, seed + (uint64_t)i);
    return in;
}

static inline void batch_set_free(wt_instance **in, int count)
{
    for (int i = 0; i < count; i++) wt_instance_free(in[i]);
    free(in);
}

/* wt_solve_batch, which must succeed as a call. */
static inline wt_batch_result batch_solve(wt_instance *const *in, int count,
                                          const wt_batch_params *p)
{
    wt_batch_result r;
    wt_error err = {0};
    if (wt_solve_batch((const wt_instance *const *)in, count, p, &r, &err) != WT_OK)
        fail_msg("wt_solve_batch: %s", err.message);
    return r;
}

/* Every tour (of the instances that have one) valid, its length exact and
 * no longer than the start's. */
static inline void batch_check_tours(wt_instance *const *in, const wt_batch_result *r)
{
    for (int i = 0; i < r->count; i++) {
        const wt_batch_tour *t = &r->tours[i];
        if (t->status != WT_OK) continue;
        assert_int_equal(t->n, wt_instance_n(in[i]));
        assert_int_equal(wt_tour_validate(t->tour, t->n, NULL), WT_OK);
        assert_int_equal(t->length, wt_tour_length(in[i], t->tour));
        assert_true(t->length <= t->init_length);
    }
}

/* The same tours, lengths and kick counts, instance by instance. */
static inline void batch_assert_same(const wt_batch_result *a, const wt_batch_result *b)
{
    assert_int_equal(a->count, b->count);
    for (int i = 0; i < a->count; i++) {
        const wt_batch_tour *x = &a->tours[i], *y = &b->tours[i];
        if (x->length != y->length || memcmp(x->tour, y->tour, (size_t)x->n * sizeof(int32_t)))
            fail_msg("instance %d (n %d): lengths %lld and %lld, or other tours", i, x->n,
                     (long long)x->length, (long long)y->length);
        assert_int_equal(x->kicks, y->kicks);
    }
}

#endif
