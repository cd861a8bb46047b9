/*
 * gpu_test.h - what every GPU test program shares: a timer that prints each
 * test's time, the check for a usable GPU (the program is skipped, exit 77,
 * without one, as in CI), the WT_TEST_GPU_AS_CPU=1 stand-in that runs the
 * "GPU" side on the CPU backend (to check a test's own logic on a machine
 * without a GPU), and name filters: WT_TEST_FILTER=pattern runs only the
 * matching tests, WT_TEST_SKIP=pattern leaves them out (cmocka's * and ?).
 */
#ifndef WT_TESTS_GPU_TEST_H
#define WT_TESTS_GPU_TEST_H

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "test_util.h"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static double gpu_test_started;

static int gpu_test_timer_start(void **state)
{
    (void)state;
    gpu_test_started = now_s();
    return 0;
}

static int gpu_test_timer_stop(void **state)
{
    (void)state;
    print_message("    took %.2f s\n", now_s() - gpu_test_started);
    return 0;
}

#define GPU_TEST(f) cmocka_unit_test_setup_teardown(f, gpu_test_timer_start, gpu_test_timer_stop)

/* Sets *as_cpu from WT_TEST_GPU_AS_CPU and names the device; returns 0 to
 * run the tests, WT_TEST_SKIP_CODE when there is no usable GPU. */
static int gpu_test_begin(bool *as_cpu)
{
    const char *env = getenv("WT_TEST_GPU_AS_CPU");
    *as_cpu = env && strcmp(env, "1") == 0;
    if (*as_cpu) {
        fprintf(stderr, "WT_TEST_GPU_AS_CPU=1: the GPU side runs on the CPU backend\n");
        return 0;
    }
    char device[160];
    if (!wt_cuda_available(device, sizeof device)) {
        fprintf(stderr, "skipped: no usable GPU (%s)\n", device);
        return WT_TEST_SKIP_CODE;
    }
    fprintf(stderr, "GPU: %s\n", device);
    return 0;
}

static void gpu_test_filters(void)
{
    const char *filter = getenv("WT_TEST_FILTER"), *skip = getenv("WT_TEST_SKIP");
    if (filter && filter[0]) cmocka_set_test_filter(filter);
    if (skip && skip[0]) cmocka_set_skip_filter(skip);
}

#endif
