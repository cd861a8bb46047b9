/*
 * test_params.c - what the library does with bad arguments: wt_solve's
 * parameter checks, and NULL or out-of-range arguments to the public
 * functions (documented returns, never a crash).
 */
#include "test_util.h"

#include "algo/bench_hooks.h"
#include "warptour_experimental.h"

#include <math.h>

static wt_instance *square(void)
{
    static const double x[] = {0, 0, 4, 4}, y[] = {0, 3, 3, 0};
    wt_instance *inst = NULL;
    assert_int_equal(wt_instance_from_coords("sq", 4, WT_EUC_2D, x, y, NULL, &inst, NULL), WT_OK);
    return inst;
}

/* wt_solve refuses p with WT_STATUS_INVALID_ARGUMENT naming field. */
static void refused(const wt_instance *inst, const wt_params *p, const char *field)
{
    wt_result res = {0};
    wt_error err = {0};
    assert_int_equal(wt_solve(inst, p, &res, &err), WT_STATUS_INVALID_ARGUMENT);
    if (!strstr(err.message, field)) fail_msg("'%s' does not name %s", err.message, field);
    assert_null(res.tour);
}

static void test_solve_checks_every_field(void **state)
{
    (void)state;
    wt_instance *inst = square();
    for (int k = 0; k < 58; k++) {
        wt_params p;
        wt_params_defaults(&p);
        wt_tuning t = {0};
        p.tuning = &t;
        const char *field = NULL;
        switch (k) {
        case 0: p.threads = 100000; field = "threads"; break;
        case 1: p.threads = -1; field = "threads"; break;
        case 2: p.threads = WT_MAX_THREADS + 1; field = "threads"; break;
        case 3: p.algorithm = (wt_algorithm)99; field = "algorithm"; break;
        case 4: p.backend = (wt_backend_kind)-1; field = "backend"; break;
        case 5: p.init = (wt_init_method)7; field = "init"; break;
        case 6: p.time_limit_s = NAN; field = "time_limit_s"; break;
        case 7: p.time_limit_s = INFINITY; field = "time_limit_s"; break;
        case 8: p.swaps = -1; field = "swaps"; break;
        case 9: p.kswap_band = -5; field = "kswap_band"; break;
        case 10: p.kswap_band = INT32_MIN; field = "kswap_band"; break;
        case 11: p.ils_descent = (wt_ils_descent)42; field = "ils_descent"; break;
        case 12: p.sa_t_start = NAN; field = "sa_t_start"; break;
        case 13: p.sa_t_end = INFINITY; field = "sa_t_end"; break;
        case 14: p.sa_alpha = NAN; field = "sa_alpha"; break;
        case 15: p.sa_searches = -1; field = "sa_searches"; break;
        case 16: p.sa_cpu = (wt_sa_cpu_scheme)5; field = "sa_cpu"; break;
        case 17: p.progress_interval_s = NAN; field = "progress_interval_s"; break;
        case 18: p.progress_interval_s = -1; field = "progress_interval_s"; break;
        case 19: p.sa_near = 1; field = "sa_near"; break;
        case 20: p.sa_sweeps = 0; field = "sa_sweeps"; break;
        case 21: p.cuda_device = -1; field = "cuda_device"; break;
        case 22: t.ils_round_kicks = -2; field = "tuning.ils_round_kicks"; break;
        case 23: t.ils_segment_min = -3; field = "tuning.ils_segment_min"; break;
        case 24: t.ils_replica_every = -2; field = "tuning.ils_replica_every"; break;
        case 25: t.pass_rows = 12; field = "tuning.pass_rows"; break;
        case 26: t.pass_block = 64; field = "tuning.pass_block"; break;
        case 27: t.pass_prune_min = -1; field = "tuning.pass_prune_min"; break;
        case 28: t.ms_tc = 32; field = "tuning.ms_tc"; break;
        case 29: t.ms_scan = (wt_ms_scan)4; field = "tuning.ms_scan"; break;
        case 30: t.ms_gap_c = 9; field = "tuning.ms_gap_c"; break;
        case 31: t.ils_list_descent_min = -2; field = "tuning.ils_list_descent_min"; break;
        case 32: t.lk_candidates = 17; field = "lk_candidates"; break;
        case 33: t.lk_depth = -1; field = "lk_depth"; break;
        case 34: t.lk_breadth1 = 13; field = "lk_breadth1"; break;
        case 35: t.lk_breadth3 = -1; field = "lk_breadth3"; break;
        case 36: t.lk_walk = 1001; field = "lk_walk"; break;
        case 37: t.ils_merged_min = -2; field = "ils_merged_min"; break;
        case 38: t.ils_starts = -2; field = "ils_starts"; break;
        case 39: t.ils_concurrent_min = -2; field = "ils_concurrent_min"; break;
        case 40: t.ils_concurrent_round_ms = 99; field = "ils_concurrent_round_ms"; break;
        case 41: t.ils_merge = -2; field = "ils_merge"; break;
        case 42: t.auto_device_min_ms = -2; field = "auto_device_min_ms"; break;
        case 43: t.auto_device_min_ms = 3600001; field = "auto_device_min_ms"; break;
        case 44: t.lk_kick_candidates = 17; field = "lk_kick_candidates"; break;
        case 45: t.lk_kick_pi = 2; field = "lk_kick_pi"; break;
        case 46: t.lk_nonseq = 2; field = "lk_nonseq"; break;
        case 47: t.lk_kopt_chains = 3; field = "lk_kopt_chains"; break;
        case 48: t.ils_concurrent_ahead = 65; field = "ils_concurrent_ahead"; break;
        case 49: t.ils_window_resident = 1; field = "ils_window_resident"; break;
        case 50: t.ils_segment_max = 7; field = "ils_segment_max"; break;
        case 51: t.ils_segment_max = -2; field = "ils_segment_max"; break;
        case 52: t.ils_share_round_every = -2; field = "ils_share_round_every"; break;
        case 53: t.ils_device_lists_min = -2; field = "ils_device_lists_min"; break;
        case 54: t.ils_lk_large_min = -2; field = "ils_lk_large_min"; break;
        case 55: t.lk_alpha_beside = 1; field = "lk_alpha_beside"; break;
        case 56: t.ils_lk_device_first = 2; field = "ils_lk_device_first"; break;
        case 57: t.ils_plain_list_min = -2; field = "ils_plain_list_min"; break;
        }
        refused(inst, &p, field);
    }
    wt_params p;
    wt_params_defaults(&p);
    assert_int_equal(p.algorithm, WT_ALGO_ILS); /* warptour solve's default (issue 42) */
    p.threads = 2;
    wt_result res = {0};
    assert_int_equal(wt_solve(inst, &p, &res, NULL), WT_OK);
    wt_result_free(&res);
    assert_int_equal(wt_solve(NULL, &p, &res, NULL), WT_STATUS_INVALID_ARGUMENT);
    assert_int_equal(wt_solve(inst, NULL, &res, NULL), WT_STATUS_INVALID_ARGUMENT);
    assert_int_equal(wt_solve(inst, &p, NULL, NULL), WT_STATUS_INVALID_ARGUMENT);
    /* The benchmarks' kernel choice (algo/bench_hooks.h) is checked too. */
    wt_error err = {0};
    assert_int_equal(wt_solve_ms_kernel(inst, &p, (wt_multistart_kernel)3, &res, &err),
                     WT_STATUS_INVALID_ARGUMENT);
    assert_non_null(strstr(err.message, "kernel"));
    assert_null(res.tour);
    wt_params_defaults(NULL);
    wt_instance_free(inst);
}

/* A tuning of listed values is taken, on any backend; a cuda_device beyond
 * the machine's GPUs is refused where the cuda backend may run, and
 * ignored where none can. */
static void test_tuning_and_device(void **state)
{
    (void)state;
    wt_instance *inst = square();
    wt_params p;
    wt_params_defaults(&p);
    p.threads = 1;
    const wt_tuning t = {.ils_round_kicks = WT_TUNING_OFF, .ils_segment_min = 50,
                         .ils_replica_every = 2, .ils_list_descent_min = 9,
                         .ils_merged_min = 9, .ils_starts = 3, .ils_concurrent_min = 9,
                         .ils_concurrent_round_ms = 500, .auto_device_min_ms = 2000,
                         .ils_merge = 2, .lk_candidates = 12, .lk_depth = 50,
                         .lk_breadth1 = 5, .lk_breadth2 = 3, .lk_breadth3 = 2, .lk_kopt = 5,
                         .lk_kopt_submoves = 3, .lk_kick_candidates = 3, .lk_kick_pi = 1,
                         .lk_walk = 50, .pass_rows = 16, .pass_block = 256,
                         .pass_piece = 1024,
                         .pass_period = 4, .pass_float_loop = true, .pass_unchained = true,
                         .pass_prune_min = 1, .ms_block = 64, .ms_tc = 4,
                         .ms_scan = WT_MS_SCAN_ROUNDS, .ms_gap_c = 10};
    p.tuning = &t;
    wt_result res = {0};
    assert_int_equal(wt_solve(inst, &p, &res, NULL), WT_OK);
    wt_result_free(&res);
    p.cuda_device = 1 << 20;
    if (wt_cuda_available(NULL, 0)) {
        refused(inst, &p, "cuda_device");
    } else {
        assert_int_equal(wt_solve(inst, &p, &res, NULL), WT_OK);
        assert_string_equal(res.backend, "cpu");
        wt_result_free(&res);
    }
    p.backend = WT_BACKEND_CPU; /* no GPU asked for: the index is not looked at */
    assert_int_equal(wt_solve(inst, &p, &res, NULL), WT_OK);
    assert_true(res.host);
    wt_result_free(&res);
    wt_instance_free(inst);
}

/* The registry's devices: the CPU first, usable, with every algorithm;
 * then at least the one entry of the cuda backend, usable or saying why
 * not; a short list still counts them all. */
static void test_device_list(void **state)
{
    (void)state;
    int count = wt_device_list(NULL, 0);
    assert_true(count >= 2);
    wt_device_info *d = calloc((size_t)count, sizeof *d);
    assert_non_null(d);
    assert_int_equal(wt_device_list(d, count), count);
    assert_int_equal(d[0].backend, WT_BACKEND_CPU);
    assert_string_equal(d[0].backend_name, "cpu");
    assert_true(d[0].host && d[0].usable);
    assert_int_equal(d[0].algorithms, 0xFu);
    assert_non_null(strstr(d[0].description, "cores"));
    for (int i = 1; i < count; i++) {
        assert_int_equal(d[i].backend, WT_BACKEND_CUDA);
        assert_int_equal(d[i].index, i - 1);
        assert_false(d[i].host);
        assert_true(d[i].description[0] != '\0');
    }
    assert_int_equal(d[1].usable, wt_cuda_available(NULL, 0));
    wt_device_info first;
    assert_int_equal(wt_device_list(&first, 1), count);
    assert_int_equal(first.backend, WT_BACKEND_CPU);
    free(d);
}

static void test_init_made(void **state)
{
    (void)state;
    wt_instance *inst = square();
    wt_params p;
    wt_params_defaults(&p);
    p.threads = 1;
    wt_result res = {0};
    p.algorithm = WT_ALGO_MULTISTART;
    p.restarts = 2;
    assert_int_equal(wt_solve(inst, &p, &res, NULL), WT_OK);
    assert_int_equal(res.init_made, WT_INIT_RANDOM);
    assert_false(res.init_given);
    wt_result_free(&res);
    int32_t start[] = {0, 2, 1, 3};
    p.algorithm = WT_ALGO_2OPT;
    p.start_tour = start;
    assert_int_equal(wt_solve(inst, &p, &res, NULL), WT_OK);
    assert_true(res.init_given);
    wt_result_free(&res);
    p.start_tour = NULL;
    assert_int_equal(wt_solve(inst, &p, &res, NULL), WT_OK);
    assert_false(res.init_given);
    assert_int_equal(res.init_made, WT_INIT_GREEDY);
    wt_result_free(&res);
    wt_instance_free(inst);
}

static void test_null_and_range_arguments(void **state)
{
    (void)state;
    wt_instance *inst = square();
    wt_algorithm a = WT_ALGO_SA;
    assert_int_equal(wt_algorithm_parse(NULL, &a), WT_STATUS_INVALID_ARGUMENT);
    assert_int_equal(wt_algorithm_parse("ils", NULL), WT_STATUS_INVALID_ARGUMENT);
    assert_int_equal(a, WT_ALGO_SA);
    wt_backend_kind b;
    assert_int_equal(wt_backend_parse(NULL, &b), WT_STATUS_INVALID_ARGUMENT);
    assert_int_equal(wt_backend_parse("cpu", NULL), WT_STATUS_INVALID_ARGUMENT);
    wt_ils_descent d;
    assert_int_equal(wt_ils_descent_parse(NULL, &d), WT_STATUS_INVALID_ARGUMENT);
    assert_int_equal(wt_ils_descent_parse("full", NULL), WT_STATUS_INVALID_ARGUMENT);
    wt_init_method m;
    assert_int_equal(wt_init_method_parse(NULL, &m), WT_STATUS_INVALID_ARGUMENT);
    (void)wt_cuda_available(NULL, 0);

    assert_int_equal(wt_instance_dist(NULL, 0, 1), -1);
    assert_int_equal(wt_instance_dist(inst, -1, 1), -1);
    assert_int_equal(wt_instance_dist(inst, 0, 4), -1);
    assert_int_equal(wt_instance_dist(inst, 2, 2), 0);
    assert_int_equal(wt_instance_dist(inst, 0, 2), 5);

    int32_t tour[] = {0, 1, 2, 3}, bad[] = {0, 1, 2, 9};
    assert_int_equal(wt_tour_length(NULL, tour), -1);
    assert_int_equal(wt_tour_length(inst, NULL), -1);
    assert_int_equal(wt_tour_length(inst, bad), -1);
    assert_int_equal(wt_tour_length(inst, tour), 14);

    wt_error err = {0};
    assert_int_equal(wt_tour_write_svg(NULL, inst, tour, NULL, &err), WT_STATUS_INVALID_ARGUMENT);
    assert_int_equal(wt_tour_write_svg("/tmp/x.svg", NULL, tour, NULL, &err),
                     WT_STATUS_INVALID_ARGUMENT);
    assert_int_equal(wt_tour_write_svg("/tmp/wt_never.svg", inst, bad, NULL, &err),
                     WT_STATUS_INVALID_TOUR);
    wt_instance_free(inst);
}

/* The library's table of wt_tuning: every field once, inside the struct,
 * with the size its kind says; setting each through its offset is what
 * wt_solve then sees (a refused value names that field); each is found by
 * its name and by its old name, no name twice. */
static void test_tuning_fields(void **state)
{
    (void)state;
    size_t count = 0, bytes = 0;
    const wt_tuning_field *f = wt_tuning_fields(&count);
    assert_int_equal(count, 53);
    assert_ptr_equal(wt_tuning_fields(NULL), f);
    static const size_t size_of[] = {[WT_TUNING_I64] = sizeof(int64_t),
                                     [WT_TUNING_INT] = sizeof(int),
                                     [WT_TUNING_FLAG] = sizeof(bool),
                                     [WT_TUNING_SCAN] = sizeof(wt_ms_scan)};
    wt_instance *inst = square();
    for (size_t k = 0; k < count; k++) {
        assert_true(f[k].offset + size_of[f[k].kind] <= sizeof(wt_tuning));
        bytes += size_of[f[k].kind];
        assert_ptr_equal(wt_tuning_field_named(f[k].name), &f[k]);
        if (f[k].old_name) assert_ptr_equal(wt_tuning_field_named(f[k].old_name), &f[k]);
        for (size_t j = 0; j < k; j++) {
            assert_true(strcmp(f[j].name, f[k].name) != 0);
            assert_true(!f[j].old_name || strcmp(f[j].old_name, f[k].name) != 0);
            assert_true(!f[k].old_name || strcmp(f[j].name, f[k].old_name) != 0);
            assert_true(f[j].offset != f[k].offset);
        }
        if (f[k].kind == WT_TUNING_FLAG) continue; /* any bool is a valid flag */
        wt_params p;
        wt_params_defaults(&p);
        wt_tuning t = {0};
        p.tuning = &t;
        char *at = (char *)&t + f[k].offset;
        if (f[k].kind == WT_TUNING_I64) *(int64_t *)at = -7;
        else if (f[k].kind == WT_TUNING_INT) *(int *)at = -7;
        else *(wt_ms_scan *)at = (wt_ms_scan)-7;
        char field[64];
        snprintf(field, sizeof field, "tuning.%s", f[k].name);
        refused(inst, &p, field);
    }
    assert_true(bytes <= sizeof(wt_tuning));
    assert_ptr_equal(wt_tuning_field_named("ils_epoch"), wt_tuning_field_named("ils_round_kicks"));
    assert_null(wt_tuning_field_named("epoch"));
    assert_null(wt_tuning_field_named(NULL));
    wt_instance_free(inst);
    /* No tuning (the default) is the all-zero one. */
    inst = wt_test_random_instance(500, 4);
    wt_params p;
    wt_params_defaults(&p);
    assert_null(p.tuning);
    p.algorithm = WT_ALGO_ILS;
    p.kicks = 500;
    p.threads = 2;
    wt_result none = {0}, zero = {0};
    assert_int_equal(wt_solve(inst, &p, &none, NULL), WT_OK);
    const wt_tuning zeros = {0};
    p.tuning = &zeros;
    assert_int_equal(wt_solve(inst, &p, &zero, NULL), WT_OK);
    assert_memory_equal(none.tour, zero.tour, (size_t)none.n * sizeof *none.tour);
    wt_result_free(&none);
    wt_result_free(&zero);
    wt_instance_free(inst);
    const char *scans[] = {"auto", "squares", "gaps", "rounds"};
    for (int s = 0; s < 4; s++) assert_string_equal(wt_ms_scan_name((wt_ms_scan)s), scans[s]);
    assert_null(wt_ms_scan_name((wt_ms_scan)4));
}

/* The version macros agree with each other and with the library. */
static void test_version(void **state)
{
    (void)state;
    assert_int_equal(WT_VERSION_NUMBER,
                     WT_VERSION_MAJOR * 10000 + WT_VERSION_MINOR * 100 + WT_VERSION_PATCH);
    assert_int_equal(wt_version_number(), WT_VERSION_NUMBER);
    char text[32];
    snprintf(text, sizeof text, "%d.%d.%d", WT_VERSION_MAJOR, WT_VERSION_MINOR,
             WT_VERSION_PATCH);
    assert_string_equal(WT_VERSION, text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_solve_checks_every_field),
        cmocka_unit_test(test_tuning_and_device),
        cmocka_unit_test(test_tuning_fields),
        cmocka_unit_test(test_version),
        cmocka_unit_test(test_device_list),
        cmocka_unit_test(test_init_made),
        cmocka_unit_test(test_null_and_range_arguments),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
