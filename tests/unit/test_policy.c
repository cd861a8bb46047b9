/*
 * test_policy.c - the automatic choices of algo/policy.h at their
 * boundaries: the descent auto picks, the kicks of an unbounded run, the
 * hand-over of the device's first descent, the size of concurrent windows,
 * the time limit from which auto's LK searches use a GPU, and the defaults
 * of the batch and window searches that read the table.
 */
#include "test_util.h"

#include "algo/batch.h"
#include "algo/policy.h"
#include "algo/windows.h"
#include "core/instance.h"

/* auto: LK up to WT_AUTO_LK_MAX_CITIES under any limit; above, LK up to
 * WT_AUTO_LK_LONG_MAX_CITIES under a limit of WT_AUTO_LK_LONG_S_PER_CITY a
 * city or more (WT_AUTO_LK_DEVICE_FIXED_S plus
 * WT_AUTO_LK_DEVICE_THREAD_S_PER_CITY thread-seconds with the GPU's ascent),
 * local
 * otherwise; any other descent as asked. */
static void test_auto_descent(void **state)
{
    (void)state;
    const int lk_max = WT_AUTO_LK_MAX_CITIES, long_max = WT_AUTO_LK_LONG_MAX_CITIES;
    assert_int_equal(wt_policy_ils_descent(WT_ILS_AUTO, 8, 0, 0), WT_ILS_LK);
    assert_int_equal(wt_policy_ils_descent(WT_ILS_AUTO, lk_max, 0, 0), WT_ILS_LK);
    assert_int_equal(wt_policy_ils_descent(WT_ILS_AUTO, lk_max, 1, 0), WT_ILS_LK);
    assert_int_equal(wt_policy_ils_descent(WT_ILS_AUTO, lk_max + 1, 0, 0), WT_ILS_LOCAL);
    assert_int_equal(wt_policy_ils_descent(WT_ILS_AUTO, lk_max + 1, -1, 0), WT_ILS_LOCAL);
    /* Just above and below the limit's bound, at the largest size it admits. */
    double bound = WT_AUTO_LK_LONG_S_PER_CITY * long_max;
    assert_int_equal(wt_policy_ils_descent(WT_ILS_AUTO, long_max, bound * 1.001, 0), WT_ILS_LK);
    assert_int_equal(wt_policy_ils_descent(WT_ILS_AUTO, long_max, bound * 0.999, 0),
                     WT_ILS_LOCAL);
    assert_int_equal(wt_policy_ils_descent(WT_ILS_AUTO, lk_max + 1,
                                           WT_AUTO_LK_LONG_S_PER_CITY * (lk_max + 1) * 1.001, 0),
                     WT_ILS_LK);
    /* With the GPU's ascent, from WT_AUTO_LK_DEVICE_FIXED_S plus
     * WT_AUTO_LK_DEVICE_THREAD_S_PER_CITY thread-seconds a city. */
    double device = WT_AUTO_LK_DEVICE_FIXED_S + WT_AUTO_LK_DEVICE_THREAD_S_PER_CITY * long_max / 16;
    assert_int_equal(wt_policy_ils_descent(WT_ILS_AUTO, long_max, device + 0.01, 16), WT_ILS_LK);
    assert_int_equal(wt_policy_ils_descent(WT_ILS_AUTO, long_max, device - 0.01, 16),
                     WT_ILS_LOCAL);
    assert_int_equal(wt_policy_ils_descent(WT_ILS_AUTO, long_max, device + 0.01, 8),
                     WT_ILS_LOCAL);
    assert_int_equal(wt_policy_ils_descent(WT_ILS_AUTO, long_max, device * 1.001, 0),
                     WT_ILS_LOCAL);
    assert_int_equal(wt_policy_ils_descent(WT_ILS_AUTO, long_max, 0, 16), WT_ILS_LOCAL);
    /* Larger tours stay local whatever the limit. */
    assert_int_equal(wt_policy_ils_descent(WT_ILS_AUTO, long_max + 1, 1e9, 0), WT_ILS_LOCAL);
    const wt_ils_descent asked[] = {WT_ILS_FULL, WT_ILS_LOCAL, WT_ILS_LK, WT_ILS_WINDOWS};
    for (size_t i = 0; i < sizeof asked / sizeof asked[0]; i++) {
        assert_int_equal(wt_policy_ils_descent(asked[i], 100, 0, 0), asked[i]);
        assert_int_equal(wt_policy_ils_descent(asked[i], long_max + 1, 1e9, 16), asked[i]);
    }
    /* After window descents: LK up to WT_AUTO_LK_MAX_CITIES, whatever the limit. */
    assert_true(wt_policy_lk_after_windows(lk_max));
    assert_false(wt_policy_lk_after_windows(lk_max + 1));
}

/* Without a time limit or a kick count: as many kicks as cities, at least
 * WT_ILS_MIN_KICKS; WT_ILS_FULL_KICKS with full descents. */
static void test_unbounded_kicks(void **state)
{
    (void)state;
    assert_int_equal(wt_policy_ils_kicks(false, 8), WT_ILS_MIN_KICKS);
    assert_int_equal(wt_policy_ils_kicks(false, WT_ILS_MIN_KICKS), WT_ILS_MIN_KICKS);
    assert_int_equal(wt_policy_ils_kicks(false, WT_ILS_MIN_KICKS + 1), WT_ILS_MIN_KICKS + 1);
    assert_int_equal(wt_policy_ils_kicks(false, 3000000), 3000000);
    assert_int_equal(wt_policy_ils_kicks(true, 8), WT_ILS_FULL_KICKS);
    assert_int_equal(wt_policy_ils_kicks(true, 3000000), WT_ILS_FULL_KICKS);
}

/* The device's first descent hands over on a stall from
 * WT_DEVICE_STALL_CITIES cities only. */
static void test_device_stall(void **state)
{
    (void)state;
    assert_int_equal(wt_policy_device_stall_passes(WT_DEVICE_STALL_CITIES - 1), 0);
    assert_int_equal(wt_policy_device_stall_passes(WT_DEVICE_STALL_CITIES),
                     WT_DEVICE_STALL_PASSES);
    assert_true(WT_DEVICE_STALL_GAIN > 0 && WT_DEVICE_STALL_GAIN < 1);
}

/* Concurrent windows from WT_CONCURRENT_MIN_CITIES cities, or the tuned
 * size; never with WT_TUNING_OFF; their cities by the host's descents. */
static void test_concurrent_size(void **state)
{
    (void)state;
    assert_false(wt_policy_concurrent_windows_size(WT_CONCURRENT_MIN_CITIES - 1, 0));
    assert_true(wt_policy_concurrent_windows_size(WT_CONCURRENT_MIN_CITIES, 0));
    assert_false(wt_policy_concurrent_windows_size(499, 500));
    assert_true(wt_policy_concurrent_windows_size(500, 500));
    assert_false(wt_policy_concurrent_windows_size(WT_MAX_CITIES, WT_TUNING_OFF));
    /* A window's cities: by the host's descents, or as tuned. */
    assert_int_equal(wt_policy_concurrent_window(0, true), WT_WINDOW_CITIES);
    assert_int_equal(wt_policy_concurrent_window(0, false), WT_CONCURRENT_LOCAL_WINDOW);
    assert_int_equal(wt_policy_concurrent_window(2000, false), 2000);
    assert_int_equal(wt_policy_concurrent_window(700, true), 700);
    /* The cities renumbered by place: from WT_RENUMBER_MIN_CITIES, or as
     * tuned. */
    assert_false(wt_policy_renumber(0, WT_RENUMBER_MIN_CITIES - 1));
    assert_true(wt_policy_renumber(0, WT_RENUMBER_MIN_CITIES));
    assert_true(wt_policy_renumber(100, 100));
    assert_false(wt_policy_renumber(100, 99));
    assert_false(wt_policy_renumber(WT_TUNING_OFF, WT_MAX_CITIES));
    /* ... where more than half of the curve's neighbours lie more than
     * WT_RENUMBER_JUMP numbers apart, or whatever the numbering where
     * tuned. */
    enum { N = 4 * WT_RENUMBER_JUMP };
    static int32_t order[N];
    for (int i = 0; i < N; i++) order[i] = i;
    assert_false(wt_policy_renumber_scattered(false, order, N));
    assert_true(wt_policy_renumber_scattered(true, order, N));
    /* every step a jump across half the numbers: all far */
    for (int i = 0; i < N; i++) order[i] = i % 2 ? i / 2 + N / 2 : i / 2;
    assert_true(wt_policy_renumber_scattered(false, order, N));
    for (int i = 0; i < N / 2; i++) order[i] = i;
    for (int i = N / 2; i < N; i++) order[i] = i % 2 ? i / 2 + N / 2 : i / 2;
    assert_false(wt_policy_renumber_scattered(false, order, N)); /* half far, less one */
}

/* The batch search's defaults: WT_BATCH_NEIGHBOURS, and 3-opt items of
 * WT_BATCH_THREE_OPT (at most the neighbours) from WT_BATCH_THREE_OPT_FROM
 * cities; a set breadth applies from any size. */
static void test_batch_defaults(void **state)
{
    (void)state;
    wt_batch_params p;
    wt_batch_params_defaults(&p);
    assert_int_equal(wt_batch_neighbours(&p), WT_BATCH_NEIGHBOURS);
    int from = -1;
    assert_int_equal(wt_batch_three_opt(&p, &from), WT_BATCH_THREE_OPT);
    assert_int_equal(from, WT_BATCH_THREE_OPT_FROM);
    p.neighbours = 4;
    assert_int_equal(wt_batch_three_opt(&p, &from), 4);
    p.three_opt = 2;
    assert_int_equal(wt_batch_three_opt(&p, &from), 2);
    assert_int_equal(from, 0);
    p.three_opt = WT_TUNING_OFF;
    assert_int_equal(wt_batch_three_opt(&p, &from), 0);
}

/* A round's searches: replicas to fill WT_WINDOW_FILL, between 1 and
 * WT_WINDOW_MAX_REPLICAS, unless asked. */
/* The LK step: by default the k-opt step, the flip chain for an
 * asymmetric instance's transformation, without the alpha lists, below
 * WT_LK_KOPT_MIN_CITIES cities, under
 * a time limit shorter than WT_LK_KOPT_S_PER_CITY a city
 * (WT_LK_KOPT_LARGE_S_PER_CITY above WT_ILS_LK_REPLICAS_MAX cities) and
 * where the threads' seconds reach WT_LK_KOPT_MAX_THREAD_S_PER_CITY a
 * city below WT_LK_KOPT_RICH_MAX_CITIES cities; the
 * flip chain when the tuning turns it off, the k it asks otherwise; the
 * ascent before the first descent takes WT_LK_ALPHA_FIRST_SHARE of the
 * time up to WT_ILS_LK_REPLICAS_MAX cities on the host, unless the tuning
 * sets a share. */
static int kopt_on(int lk_kopt, int lk_alpha, int n, bool directed, double time_limit_s,
                   int threads)
{
    wt_tuning t = {.lk_kopt = lk_kopt, .lk_alpha = lk_alpha};
    return wt_policy_lk_kopt(&t, n, directed, time_limit_s, threads, false);
}

static int kopt(int lk_kopt, int lk_alpha, int n, bool directed, double time_limit_s)
{
    return kopt_on(lk_kopt, lk_alpha, n, directed, time_limit_s, 1);
}

static void test_lk_kopt(void **state)
{
    (void)state;
    const int small = WT_ILS_LK_REPLICAS_MAX, large = WT_ILS_LK_REPLICAS_MAX + 1;
    assert_int_equal(kopt(0, 0, WT_LK_KOPT_MIN_CITIES, false, 0), WT_LK_KOPT_DEFAULT);
    assert_int_equal(kopt(0, 0, WT_LK_KOPT_MIN_CITIES - 1, false, 0), 0);
    assert_int_equal(kopt(0, 1, 1000, false, 0), WT_LK_KOPT_DEFAULT);
    assert_int_equal(kopt(0, 2, 1000, false, 0), 0);
    assert_int_equal(kopt(0, WT_TUNING_OFF, 1000, false, 0), 0);
    assert_int_equal(kopt(0, 0, 1000, true, 0), 0);
    assert_int_equal(kopt(0, 0, small, false, WT_LK_KOPT_S_PER_CITY * small), WT_LK_KOPT_DEFAULT);
    assert_int_equal(kopt(0, 0, small, false, 0.99 * WT_LK_KOPT_S_PER_CITY * small), 0);
    assert_int_equal(kopt(0, 0, large, false, WT_LK_KOPT_LARGE_S_PER_CITY * large),
                     WT_LK_KOPT_DEFAULT);
    assert_int_equal(kopt(0, 0, large, false, 0.99 * WT_LK_KOPT_LARGE_S_PER_CITY * large), 0);
    /* with the ascent on a GPU, from WT_LK_KOPT_DEVICE_S_PER_CITY there */
    wt_tuning d = {0};
    const double dev_s = WT_LK_KOPT_DEVICE_S_PER_CITY * large;
    assert_int_equal(wt_policy_lk_kopt(&d, large, false, dev_s, 16, true), WT_LK_KOPT_DEFAULT);
    assert_int_equal(wt_policy_lk_kopt(&d, large, false, 0.99 * dev_s, 16, true), 0);
    /* there from WT_AUTO_LK_DEVICE_FIXED_S plus
     * WT_AUTO_LK_DEVICE_THREAD_S_PER_CITY thread-seconds a city */
    const int huge = WT_AUTO_LK_MAX_CITIES + 1;
    const double huge_s =
        WT_AUTO_LK_DEVICE_FIXED_S + WT_AUTO_LK_DEVICE_THREAD_S_PER_CITY * huge / 16;
    assert_int_equal(wt_policy_lk_kopt(&d, huge, false, huge_s * 1.001, 16, true),
                     WT_LK_KOPT_DEFAULT);
    assert_int_equal(wt_policy_lk_kopt(&d, huge, false, 0.99 * huge_s, 16, true), 0);
    assert_int_equal(wt_policy_lk_kopt(&d, huge, false, huge_s * 1.001, 4, true), 0);
    assert_int_equal(wt_policy_lk_kopt(&d, huge, false, huge_s * 1.001, 16, false), 0);
    assert_int_equal(wt_policy_lk_kopt(&d, small, false, 0.99 * WT_LK_KOPT_S_PER_CITY * small, 1,
                                       true), 0);
    /* the first descent of a large tour: the list descent but for the
     * k-opt step above WT_ILS_KOPT_LIST_DESCENT_MAX cities; tuned: from
     * that many cities a thread, or never */
    const int kmax = WT_ILS_KOPT_LIST_DESCENT_MAX;
    assert_true(wt_policy_lk_list_descent(0, 1000000, 16, 0));
    assert_true(wt_policy_lk_list_descent(0, kmax, 16, WT_LK_KOPT_DEFAULT));
    assert_false(wt_policy_lk_list_descent(0, kmax + 1, 16, WT_LK_KOPT_DEFAULT));
    assert_false(wt_policy_lk_list_descent(WT_TUNING_OFF, 30000, 16, 0));
    assert_true(wt_policy_lk_list_descent(1000, 16000, 16, WT_LK_KOPT_DEFAULT));
    assert_false(wt_policy_lk_list_descent(1001, 16000, 16, 0));
    /* a large tour above WT_ILS_LK_REPLICAS_MAX cities; tuned: from that
     * many cities, or never */
    assert_false(wt_policy_lk_large(0, WT_ILS_LK_REPLICAS_MAX));
    assert_true(wt_policy_lk_large(0, WT_ILS_LK_REPLICAS_MAX + 1));
    assert_true(wt_policy_lk_large(3000, 3000));
    assert_false(wt_policy_lk_large(3001, 3000));
    assert_false(wt_policy_lk_large(WT_TUNING_OFF, 1000000));
    /* the whole tour's 2-opt moves on a list first from
     * WT_ILS_PLAIN_LIST_MIN cities; tuned: from that many, or never; never
     * for LK's engines or directed costs */
    assert_false(wt_policy_plain_list_descent(0, WT_ILS_PLAIN_LIST_MIN - 1, false, false));
    assert_true(wt_policy_plain_list_descent(0, WT_ILS_PLAIN_LIST_MIN, false, false));
    assert_true(wt_policy_plain_list_descent(2000, 2000, false, false));
    assert_false(wt_policy_plain_list_descent(2001, 2000, false, false));
    assert_false(wt_policy_plain_list_descent(WT_TUNING_OFF, 10000000, false, false));
    assert_false(wt_policy_plain_list_descent(0, 10000000, true, false));
    assert_false(wt_policy_plain_list_descent(0, 10000000, false, true));
    assert_int_equal(kopt(WT_TUNING_OFF, 1, 1000, false, 0), 0);
    assert_int_equal(kopt(3, 0, 1000, false, 0), 3);
    assert_int_equal(kopt(4, WT_TUNING_OFF, 1000, true, 1e-3), 4);
    /* many thread-seconds a city below WT_LK_KOPT_RICH_MAX_CITIES cities:
     * the flip chain; a kick budget never */
    const int few = WT_LK_KOPT_RICH_MAX_CITIES - 1;
    const double rich = WT_LK_KOPT_MAX_THREAD_S_PER_CITY * few;
    assert_int_equal(kopt_on(0, 0, few, false, 0.99 * rich / 16, 16), WT_LK_KOPT_DEFAULT);
    assert_int_equal(kopt_on(0, 0, few, false, rich / 16, 16), 0);
    assert_int_equal(kopt_on(0, 0, few, false, rich, 1), 0);
    assert_int_equal(kopt_on(0, 0, few, false, 0, 16), WT_LK_KOPT_DEFAULT);
    assert_int_equal(kopt_on(5, 0, few, false, rich, 16), 5);
    const double rich_small = WT_LK_KOPT_MAX_THREAD_S_PER_CITY * small;
    assert_int_equal(kopt_on(0, 0, few + 1, false, rich_small, 1), WT_LK_KOPT_DEFAULT);
    assert_int_equal(kopt_on(0, 0, small, false, rich_small / 16, 16), WT_LK_KOPT_DEFAULT);

    /* mostly tied (the caller's measure) above WT_LK_KOPT_TIED_MAX_CITIES:
     * the flip chain, unless the tuning asks for a step */
    assert_false(wt_policy_lk_kopt_tied_off(0, WT_LK_KOPT_TIED_MAX_CITIES));
    assert_true(wt_policy_lk_kopt_tied_off(0, WT_LK_KOPT_TIED_MAX_CITIES + 1));
    assert_false(wt_policy_lk_kopt_tied_off(5, WT_LK_KOPT_TIED_MAX_CITIES + 1));
    /* The deeper step's depth: shallower on few threads under a limit. */
    assert_int_equal(wt_policy_lk_deep_depth(2, 10), WT_LK_DEPTH);
    int few_threads = WT_ILS_LK_DEEP_DEPTH_MIN_THREADS - 1;
    assert_int_equal(wt_policy_lk_deep_depth(few_threads, 60), WT_LK_DEPTH);
    assert_int_equal(wt_policy_lk_deep_depth(WT_ILS_LK_DEEP_DEPTH_MIN_THREADS, 10),
                     WT_ILS_LK_DEEP_DEPTH);
    assert_int_equal(wt_policy_lk_deep_depth(16, 10), WT_ILS_LK_DEEP_DEPTH);
    assert_int_equal(wt_policy_lk_deep_depth(2, 0), WT_ILS_LK_DEEP_DEPTH); /* a kick budget */
    /* The deeper step from WT_ILS_LK_DEEP_MIN cities: more candidates,
     * deeper, broader; below, the moves as given. */
    wt_ls_moves lk = wt_policy_ls_moves(true);
    wt_ls_moves below = wt_policy_lk_deep_moves(lk, WT_ILS_LK_DEEP_MIN - 1, 16, 10);
    assert_memory_equal(&below, &lk, sizeof lk);
    wt_ls_moves deep = wt_policy_lk_deep_moves(lk, WT_ILS_LK_DEEP_MIN, 16, 10);
    assert_int_equal(deep.candidates, WT_ILS_LK_DEEP_CANDIDATES);
    assert_int_equal(deep.depth, WT_ILS_LK_DEEP_DEPTH);
    assert_int_equal(deep.breadth[0], WT_ILS_LK_DEEP_BREADTH1);
    assert_int_equal(deep.breadth[2], WT_ILS_LK_DEEP_BREADTH3);
    assert_int_equal(deep.breadth[4], WT_ILS_LK_DEEP_BREADTH5);
    assert_true(deep.lk && deep.quadrant);
    assert_false(wt_policy_lk_kopt_tied_off(WT_TUNING_OFF, WT_LK_KOPT_TIED_MAX_CITIES + 1));
    /* LKH's chains: the first descent's, on tours up to a size, given time */
    int most = WT_LK_KOPT_CHAINS_MAX_CITIES;
    double enough = WT_LK_KOPT_CHAINS_S_PER_CITY * most;
    assert_true(wt_policy_lk_kopt_chains(0, true, most, enough));
    assert_true(wt_policy_lk_kopt_chains(0, true, most, 0)); /* a kick budget */
    assert_false(wt_policy_lk_kopt_chains(0, true, most, 0.99 * enough));
    assert_false(wt_policy_lk_kopt_chains(0, true, most + 1, 0));
    assert_false(wt_policy_lk_kopt_chains(0, false, most, enough));
    assert_true(wt_policy_lk_kopt_chains(1, false, most + 1, 1));
    assert_true(wt_policy_lk_kopt_chains(2, true, most + 1, 1));
    assert_false(wt_policy_lk_kopt_chains(2, false, most, 0));
    assert_false(wt_policy_lk_kopt_chains(WT_TUNING_OFF, true, most, 0));

    /* Merged start tours: one a search, at most WT_ILS_STARTS_MAX, from a
     * size where the first descent chains as LKH's; a tuned count forces */
    int from = WT_ILS_MERGED_STARTS_MIN;
    assert_int_equal(wt_policy_ils_merged_starts(0, true, from, 16), 16);
    assert_int_equal(wt_policy_ils_merged_starts(0, true, from, 64), WT_ILS_STARTS_MAX);
    assert_int_equal(wt_policy_ils_merged_starts(0, true, from, 1), 1);
    assert_int_equal(wt_policy_ils_merged_starts(0, true, from - 1, 16), 1);
    assert_int_equal(wt_policy_ils_merged_starts(0, false, from, 16), 1);
    assert_int_equal(wt_policy_ils_merged_starts(WT_TUNING_OFF, true, from, 16), 1);
    assert_int_equal(wt_policy_ils_merged_starts(3, false, 100, 16), 3);
    assert_int_equal(wt_policy_ils_merged_starts(3, false, 100, 2), 2);

    /* Merging meetings: merged replicas' on tours up to a size with enough
     * searches; a tuned stall forces them, off or one search never */
    int many = WT_ILS_MERGE_MIN_SEARCHES, big = WT_ILS_MERGE_MAX_CITIES;
    double ample = WT_ILS_MERGE_THREAD_S_PER_CITY * big / 16; /* on 16 threads */
    assert_int_equal(wt_policy_ils_merge_stall(0, many, big, true, ample, 16), WT_ILS_MERGE_STALL);
    assert_int_equal(wt_policy_ils_merge_stall(0, many, big, true, 0, 16), WT_ILS_MERGE_STALL);
    assert_int_equal(wt_policy_ils_merge_stall(0, many, big, true, 0.9 * ample, 16), 0);
    assert_int_equal(wt_policy_ils_merge_stall(0, many - 1, big, true, ample, 16), 0);
    assert_int_equal(wt_policy_ils_merge_stall(0, many, big + 1, true, 0, 16), 0);
    assert_int_equal(wt_policy_ils_merge_stall(0, many, big, false, ample, 16), 0);
    assert_int_equal(wt_policy_ils_merge_stall(5, 2, big + 1, false, 1, 2), 5);
    assert_int_equal(wt_policy_ils_merge_stall(5, 1, 100, true, 0, 1), 0);
    assert_int_equal(wt_policy_ils_merge_stall(WT_TUNING_OFF, many, big, true, 0, 16), 0);

    wt_tuning t = {0};
    assert_true(wt_policy_ascent_first(&t, true, small).share == WT_LK_ALPHA_FIRST_SHARE);
    assert_true(wt_policy_ascent_first(&t, true, large).share == wt_policy_ascent(&t, true).share);
    assert_true(wt_policy_ascent_first(&t, false, small).share ==
                wt_policy_ascent(&t, false).share);
    /* After the first descent: a bound-only ascent on the host in a short
     * run takes the smaller share; lists, a device, time enough or a tuned
     * share keep theirs */
    int cities = 85900;
    double shortish = 0.5 * WT_LK_KICK_SHORT_THREAD_S_PER_CITY * cities / 2; /* 2 threads */
    assert_true(wt_policy_ascent_after(&t, true, true, cities, shortish, 2).share ==
                WT_ASCENT_BOUND_SHORT_SHARE);
    assert_true(wt_policy_ascent_after(&t, true, false, cities, shortish, 2).share ==
                WT_ASCENT_SHARE);
    assert_true(wt_policy_ascent_after(&t, false, true, cities, shortish, 2).share ==
                WT_ASCENT_DEVICE_SHARE);
    assert_true(wt_policy_ascent_after(&t, true, true, cities, 4 * shortish, 2).share ==
                WT_ASCENT_SHARE);
    assert_true(wt_policy_ascent_after(&t, true, true, cities, 0, 2).share == WT_ASCENT_SHARE);
    /* Beside the search on a GPU: its own share, the device's period */
    assert_true(wt_policy_ascent_beside(&t).share == WT_ASCENT_BESIDE_SHARE);
    assert_int_equal(wt_policy_ascent_beside(&t).period, wt_policy_ascent(&t, false).period);
    t.ascent_share_pct = 7;
    assert_true(wt_policy_ascent_first(&t, true, small).share == 0.07);
    assert_true(wt_policy_ascent_after(&t, true, true, cities, shortish, 2).share == 0.07);
    assert_true(wt_policy_ascent_beside(&t).share == 0.07);
}

/* The ascent: from WT_LK_ALPHA_MIN_CITIES by default, its lists with the
 * k-opt step, its bound alone with the flip chain; never when the tuning
 * turns it off, lists or the bound alone when it asks, whatever the step. */
static void test_lk_alpha(void **state)
{
    (void)state;
    assert_int_equal(wt_policy_lk_alpha(0, WT_LK_ALPHA_MIN_CITIES - 1, 5), WT_ALPHA_NONE);
    assert_int_equal(wt_policy_lk_alpha(0, WT_LK_ALPHA_MIN_CITIES, 5), WT_ALPHA_LISTS);
    assert_int_equal(wt_policy_lk_alpha(0, WT_LK_ALPHA_MIN_CITIES, 0), WT_ALPHA_BOUND);
    assert_int_equal(wt_policy_lk_alpha(WT_TUNING_OFF, 100000, 5), WT_ALPHA_NONE);
    assert_int_equal(wt_policy_lk_alpha(1, 5, 0), WT_ALPHA_LISTS);
    assert_int_equal(wt_policy_lk_alpha(2, 5, 5), WT_ALPHA_BOUND);
}

/* The k-opt step's kick repairs in a short run (under
 * WT_LK_KICK_SHORT_THREAD_S_PER_CITY thread-seconds a city, or where ties
 * abound WT_LK_KICK_SHORT_TIED_THREAD_S_PER_CITY): on
 * WT_LK_KOPT_KICK_CANDIDATES of the first descent's candidates, never more
 * than it has; in a longer run or with a kick budget all of them; all when
 * the tuning turns the rule off, the tuning's count in any run where it
 * sets one; the flip chain's lists untouched.  Gains under the penalties
 * except in a short run where ties abound, unless the tuning says always
 * or never. */
static void test_lk_kicks(void **state)
{
    (void)state;
    const int k = WT_LK_ALPHA_CANDIDATES, n = 10000;
    const double edge = WT_LK_KICK_SHORT_THREAD_S_PER_CITY * n; /* thread-seconds */
    const double shorter = 0.99 * edge;
    const double tied_edge = WT_LK_KICK_SHORT_TIED_THREAD_S_PER_CITY * n;
    const double tied_shorter = 0.99 * tied_edge;
    const int four = WT_LK_KOPT_KICK_CANDIDATES;
    for (int tied = 0; tied < 2; tied++) { /* short for both */
        assert_int_equal(wt_policy_lk_kick_candidates(0, k, 5, tied, n, shorter, 1), four);
        assert_int_equal(wt_policy_lk_kick_candidates(0, k, 5, tied, n, shorter / 2, 2), four);
        assert_int_equal(wt_policy_lk_kick_candidates(0, k, 5, tied, n, 0, 1), k);
        assert_int_equal(wt_policy_lk_kick_candidates(0, four - 1, 5, tied, n, shorter, 1),
                         four - 1);
        assert_int_equal(wt_policy_lk_kick_candidates(0, k, 0, tied, n, shorter, 1), k);
        assert_int_equal(wt_policy_lk_kick_candidates(3, k, 0, tied, n, shorter, 1), k);
        assert_int_equal(wt_policy_lk_kick_candidates(WT_TUNING_OFF, k, 5, tied, n, shorter, 1),
                         k);
        assert_int_equal(wt_policy_lk_kick_candidates(3, k, 5, tied, n, 0, 1), 3);
        assert_int_equal(wt_policy_lk_kick_candidates(16, k, 5, tied, n, shorter, 1), k);
    }
    /* Between the two bounds a run is short only where tied. */
    assert_int_equal(wt_policy_lk_kick_candidates(0, k, 5, false, n, edge, 1), k);
    assert_int_equal(wt_policy_lk_kick_candidates(0, k, 5, false, n, edge / 2, 2), k);
    assert_int_equal(wt_policy_lk_kick_candidates(0, k, 5, true, n, edge, 1), four);
    assert_int_equal(wt_policy_lk_kick_candidates(0, k, 5, true, n, tied_shorter / 2, 2), four);
    assert_int_equal(wt_policy_lk_kick_candidates(0, k, 5, true, n, tied_edge, 1), k);
    assert_int_equal(wt_policy_lk_kick_candidates(0, k, 5, true, n, tied_edge / 2, 2), k);
    assert_true(wt_policy_lk_kick_pi(0, false, n, shorter, 1));
    assert_false(wt_policy_lk_kick_pi(0, true, n, shorter, 1));
    assert_false(wt_policy_lk_kick_pi(0, true, n, tied_shorter, 1));
    assert_true(wt_policy_lk_kick_pi(0, true, n, tied_edge, 1));
    assert_false(wt_policy_lk_kick_pi(0, true, n, tied_shorter / 2, 2));
    assert_true(wt_policy_lk_kick_pi(0, true, n, tied_edge / 2, 2));
    assert_true(wt_policy_lk_kick_pi(0, true, n, 0, 1));
    assert_true(wt_policy_lk_kick_pi(1, true, n, shorter, 1));
    assert_false(wt_policy_lk_kick_pi(WT_TUNING_OFF, false, n, 0, 1));
}

/* A tied short run: the k-opt step where ties abound, under a time limit of
 * less than WT_LK_KICK_SHORT_TIED_THREAD_S_PER_CITY thread-seconds a
 * city; never the flip chain, untied tours or a kick budget. */
static void test_lk_tied_short(void **state)
{
    (void)state;
    const int n = 10000;
    const double edge = WT_LK_KICK_SHORT_TIED_THREAD_S_PER_CITY * n;
    assert_true(wt_policy_lk_tied_short(5, true, n, 0.99 * edge, 1));
    assert_true(wt_policy_lk_tied_short(5, true, n, 0.99 * edge / 4, 4));
    assert_false(wt_policy_lk_tied_short(5, true, n, edge, 1));
    assert_false(wt_policy_lk_tied_short(5, true, n, edge / 4, 4));
    assert_false(wt_policy_lk_tied_short(5, true, n, 0, 1));
    assert_false(wt_policy_lk_tied_short(5, false, n, 0.1 * edge, 1));
    assert_false(wt_policy_lk_tied_short(0, true, n, 0.1 * edge, 1));
    /* Above WT_ILS_LK_REPLICAS_MAX cities: never, and the kicks' rules
     * of untied runs. */
    const int big = WT_ILS_LK_REPLICAS_MAX + 1;
    const double big_short = 0.99 * WT_LK_KICK_SHORT_THREAD_S_PER_CITY * big;
    const double big_between = 2 * WT_LK_KICK_SHORT_THREAD_S_PER_CITY * big;
    assert_true(wt_policy_lk_tied_short(5, true, WT_ILS_LK_REPLICAS_MAX, 0.1, 1));
    assert_false(wt_policy_lk_tied_short(5, true, big, big_short, 1));
    assert_int_equal(wt_policy_lk_kick_candidates(0, 5, 5, true, big, big_short, 1),
                     WT_LK_KOPT_KICK_CANDIDATES);
    assert_int_equal(wt_policy_lk_kick_candidates(0, 5, 5, true, big, big_between, 1), 5);
    assert_false(wt_policy_lk_kick_pi(0, true, big, big_short, 1));
    assert_true(wt_policy_lk_kick_pi(0, true, big, big_between, 1));
    assert_int_equal(wt_policy_lk_walk(0, 5, true, big, big_short, 1),
                     WT_ILS_LK_KOPT_WALK_STEPS);
}

/* The kicks' searches: the first descent's T, or at least
 * WT_ILS_TIED_SHORT_SEARCHES in a tied short run under a time limit alone
 * where the tuning sets none; a kick budget's searches stay as they are,
 * so that its run repeats. */
static void test_kick_searches(void **state)
{
    (void)state;
    assert_int_equal(wt_policy_ils_kick_searches(1, 0, 0, true), WT_ILS_TIED_SHORT_SEARCHES);
    assert_int_equal(wt_policy_ils_kick_searches(1, 0, 0, false), 1);
    assert_int_equal(wt_policy_ils_kick_searches(1, 0, 3000, true), 1);
    assert_int_equal(wt_policy_ils_kick_searches(1, 1, 0, true), 1);
    assert_int_equal(wt_policy_ils_kick_searches(16, 0, 0, true), 16);
    assert_int_equal(wt_policy_ils_kick_searches(WT_ILS_TIED_SHORT_SEARCHES, 0, 0, true),
                     WT_ILS_TIED_SHORT_SEARCHES);
}

/* The kicks' walks: WT_ILS_LK_WALK_STEPS for the flip chain,
 * WT_ILS_LK_KOPT_WALK_STEPS for the k-opt step, and
 * WT_ILS_LK_TIED_WALK_STEPS for it in a short run where ties abound (under
 * WT_LK_KICK_SHORT_TIED_THREAD_S_PER_CITY thread-seconds a city); the
 * tuning's steps wherever it sets them. */
static void test_lk_walk(void **state)
{
    (void)state;
    const int n = 10000;
    const double tied_edge = WT_LK_KICK_SHORT_TIED_THREAD_S_PER_CITY * n;
    const double shorter = 0.99 * tied_edge;
    assert_int_equal(wt_policy_lk_walk(0, 0, true, n, shorter, 1), WT_ILS_LK_WALK_STEPS);
    assert_int_equal(wt_policy_lk_walk(0, 5, false, n, shorter, 1), WT_ILS_LK_KOPT_WALK_STEPS);
    assert_int_equal(wt_policy_lk_walk(0, 5, true, n, shorter, 1), WT_ILS_LK_TIED_WALK_STEPS);
    assert_int_equal(wt_policy_lk_walk(0, 5, true, n, shorter / 2, 2),
                     WT_ILS_LK_TIED_WALK_STEPS);
    assert_int_equal(wt_policy_lk_walk(0, 5, true, n, tied_edge, 1), WT_ILS_LK_KOPT_WALK_STEPS);
    assert_int_equal(wt_policy_lk_walk(0, 5, true, n, tied_edge / 2, 2),
                     WT_ILS_LK_KOPT_WALK_STEPS);
    assert_int_equal(wt_policy_lk_walk(0, 5, true, n, 0, 1), WT_ILS_LK_KOPT_WALK_STEPS);
    assert_int_equal(wt_policy_lk_walk(7, 5, true, n, shorter, 1), 7);
    assert_int_equal(wt_policy_lk_walk(7, 0, false, n, 0, 1), 7);
}

/* Rounds under a time limit alone: the first of WT_ILS_TIMED_FIRST_ROUND_KICKS,
 * then twice as long after one shorter than half of the limit's
 * WT_ILS_TIMED_ROUND_SHARE, half as long after one longer than it, the
 * same between, always within [first, most]; with a kick budget, or where
 * the tuning sets the rounds, most. */
static void test_timed_rounds(void **state)
{
    (void)state;
    const uint64_t first = WT_ILS_TIMED_FIRST_ROUND_KICKS, most = 2000;
    const double limit = 10, slice = WT_ILS_TIMED_ROUND_SHARE * limit;
    assert_int_equal(wt_policy_timed_round(0, 0, limit, most, false), first);
    assert_int_equal(wt_policy_timed_round(first, 0.49 * slice, limit, most, false), 2 * first);
    assert_int_equal(wt_policy_timed_round(first, 0.51 * slice, limit, most, false), first);
    assert_int_equal(wt_policy_timed_round(4 * first, 1.01 * slice, limit, most, 0),
                     2 * first);
    assert_int_equal(wt_policy_timed_round(first, 2 * slice, limit, most, false), first);
    assert_int_equal(wt_policy_timed_round(most, 0, limit, most, false), most);
    assert_int_equal(wt_policy_timed_round(0, 0, limit, first / 2, false), first / 2);
    assert_int_equal(wt_policy_timed_round(0, 0, 0, most, false), most);
    assert_int_equal(wt_policy_timed_round(0, 0, limit, most, true), most);
}

/* The searches of a host ILS run: one a thread under a time limit alone,
 * else fixed by the kick budget (the tuning's where set); the ascent's
 * steps without a time limit: by the size, more on a device. */
static void test_searches_and_ascent_steps(void **state)
{
    (void)state;
    assert_int_equal(wt_policy_ils_searches(0, 7, 0), 7);
    assert_int_equal(wt_policy_ils_searches(0, 7, 100), 1);
    assert_int_equal(wt_policy_ils_searches(0, 1, 12000), 2);
    assert_int_equal(wt_policy_ils_searches(0, 64, 12000), 2);
    assert_int_equal(wt_policy_ils_searches(0, 2, 10000000), WT_ILS_BUDGET_SEARCHES_MAX);
    assert_int_equal(wt_policy_ils_searches(5, 2, 0), 5);
    wt_tuning t = {0};
    assert_int_equal(wt_policy_ascent_steps(&t, true, 1000, true), 0);
    assert_int_equal(wt_policy_ascent_steps(&t, true, 40000, false), 500);
    assert_int_equal(wt_policy_ascent_steps(&t, false, 40000, false), 15000);
    assert_int_equal(wt_policy_ascent_steps(&t, true, 100000000, false), WT_ASCENT_MIN_STEPS);
    t.ascent_iterations = 77;
    assert_int_equal(wt_policy_ascent_steps(&t, true, 40000, true), 77);
}

/* auto's ILS with LK descents lets the GPU take part without a time limit
 * and from WT_AUTO_DEVICE_MIN_S (or the tuned milliseconds) on, never
 * under it; WT_TUNING_OFF: under any limit. */
static void test_auto_device(void **state)
{
    (void)state;
    assert_true(wt_policy_auto_device(0, 0));
    assert_true(wt_policy_auto_device(-1, 5000));
    assert_true(wt_policy_auto_device(WT_AUTO_DEVICE_MIN_S, 0));
    assert_false(wt_policy_auto_device(WT_AUTO_DEVICE_MIN_S * 0.999, 0));
    assert_false(wt_policy_auto_device(1, 0));
    assert_true(wt_policy_auto_device(0.5, 500));
    assert_false(wt_policy_auto_device(0.499, 500));
    assert_false(wt_policy_auto_device(WT_AUTO_DEVICE_MIN_S, 3600000));
    assert_true(wt_policy_auto_device(0.001, WT_TUNING_OFF));
}

/* A kick budget without a time limit is the same run whatever the limit
 * from which the GPU takes part: the same tour and bound with the
 * default, the longest limit and WT_TUNING_OFF (auto, LK descents). */
static void test_kick_budget_unchanged(void **state)
{
    (void)state;
    wt_instance *inst = wt_test_random_instance(600, 11);
    const int settings[] = {0, 3600000, WT_TUNING_OFF};
    wt_result res[3] = {{0}};
    for (int k = 0; k < 3; k++) {
        wt_params p;
        wt_params_defaults(&p);
        wt_tuning t = {.auto_device_min_ms = settings[k]};
        p.tuning = &t;
        p.kicks = 300;
        p.threads = 2;
        assert_int_equal(wt_solve(inst, &p, &res[k], NULL), WT_OK);
        assert_int_equal(res[k].ils.descent, WT_ILS_LK);
    }
    for (int k = 1; k < 3; k++) {
        assert_int_equal(res[k].length, res[0].length);
        assert_int_equal(res[k].lower_bound, res[0].lower_bound);
        assert_memory_equal(res[k].tour, res[0].tour, (size_t)inst->n * sizeof *res[0].tour);
    }
    for (int k = 0; k < 3; k++) wt_result_free(&res[k]);
    wt_instance_free(inst);
}

static void test_window_replicas(void **state)
{
    (void)state;
    wt_windows_opts o = {.window = WT_WINDOW_CITIES};
    assert_int_equal(wt_windows_replicas(&o, WT_WINDOW_CITIES), WT_WINDOW_MAX_REPLICAS);
    int windows = WT_WINDOW_FILL / 4;
    assert_int_equal(wt_windows_replicas(&o, windows * WT_WINDOW_CITIES), 4);
    assert_int_equal(wt_windows_replicas(&o, 4 * WT_WINDOW_FILL * WT_WINDOW_CITIES), 1);
    o.replicas = 3;
    assert_int_equal(wt_windows_replicas(&o, WT_WINDOW_CITIES), 3);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_auto_descent),    cmocka_unit_test(test_unbounded_kicks),
        cmocka_unit_test(test_device_stall),    cmocka_unit_test(test_concurrent_size),
        cmocka_unit_test(test_batch_defaults),  cmocka_unit_test(test_window_replicas),
        cmocka_unit_test(test_lk_kopt),
        cmocka_unit_test(test_lk_alpha),
        cmocka_unit_test(test_lk_kicks),        cmocka_unit_test(test_lk_walk),
        cmocka_unit_test(test_lk_tied_short),   cmocka_unit_test(test_kick_searches),
        cmocka_unit_test(test_timed_rounds),
        cmocka_unit_test(test_searches_and_ascent_steps),
        cmocka_unit_test(test_auto_device),     cmocka_unit_test(test_kick_budget_unchanged),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
