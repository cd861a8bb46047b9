/*
 * test_windows.c - the window search of one large tour on the CPU
 * (algo/windows.c) and the fixed edge of core/batch_search.h it runs on.
 *
 * Kicks never cut the fixed edge; a round keeps the tour valid, each
 * window's two ends in their positions and its cities inside it, with one
 * search a window or several (replicas, the shortest put back); its gain
 * is the tour's change of length, exactly, on every metric (EUC_2D,
 * EUC_2D_REAL, CEIL_2D, ATT, GEO, EXPLICIT); the same seed gives the same
 * tour whatever the thread count, also with lists cut from the large
 * instance's candidates.  Concurrent windows (algo/windows_concurrent.c)
 * splice exact improved paths into the host's tour that keep one cycle,
 * only where their old paths are whole, also inside ILS with LK.
 */
#include "batch_test_util.h"

#include "algo/ils_local.h"
#include "algo/windows.h"
#include "algo/windows_concurrent.h"
#include "core/batch_search.h"
#include "core/fixed_edges.h"
#include "core/neighbours.h"
#include "core/search_ctl.h"

/* Kicks of three and four edges on tours of 8 to 60 cities never take the
 * edge at `fixed`. */
static void test_kicks_keep_the_fixed_edge(void **state)
{
    (void)state;
    for (int edges = 3; edges <= 4; edges++)
        for (int n = 8; n <= 60; n += 13)
            for (int fixed = 0; fixed < n; fixed += 3)
                for (int window = 3; window <= n + 5; window += n / 2)
                    for (uint64_t k = 0; k < 200; k++) {
                        wt_bs_kick_cut cut = wt_bs_kick(3, 7, k, n, window, fixed, edges);
                        int e[4];
                        assert_int_equal(wt_bs_kick_edges(cut, n, false, e), edges);
                        for (int q = 0; q < edges; q++) assert_int_not_equal(e[q], fixed);
                        assert_true(cut.l1 >= 1 && cut.l2 >= 1 && cut.l1 + cut.l2 + cut.l3 < n);
                        assert_true(edges == 3 ? cut.l3 == 0 : cut.l3 >= 1);
                    }
    /* Without a fixed edge, the stream of the batch search is unchanged. */
    wt_bs_kick_cut a = wt_bs_kick(3, 7, 11, 100, 1 << 30, -1, 3);
    wt_bs_kick_cut b = wt_bs_kick(3, 7, 11, 100, 1 << 30, -1, 3);
    assert_memory_equal(&a, &b, sizeof a);
}

/* The host's device, which the windows' options point to. */
static const wt_device *host(void)
{
    static wt_device d;
    wt_device_host(&d);
    return &d;
}

static wt_windows_opts cpu_opts(int window, int offset, uint64_t kicks, int threads)
{
    wt_windows_opts o = {0};
    o.window = window;
    o.offset = offset;
    o.kicks = kicks;
    o.seed = 5;
    o.device = host();
    o.threads = threads;
    o.replicas = 2; /* the shorter of two searches a window */
    return o;
}

/* Runs one round on tour and checks it: valid, the gain exact, each
 * window's ends in place and its cities its own. */
static wt_windows_round checked_round(const wt_instance *inst, int32_t *tour,
                                      const wt_windows_opts *o)
{
    int n = wt_instance_n(inst), count = n / o->window > 0 ? n / o->window : 1;
    int32_t *before = malloc((size_t)n * sizeof *before);
    memcpy(before, tour, (size_t)n * sizeof *tour);
    int64_t len0 = wt_tour_length(inst, tour);
    wt_windows_round e;
    wt_error err = {0};
    if (wt_windows_round_run(inst, tour, o, &e, &err) != WT_OK)
        fail_msg("wt_windows_round_run: %s", err.message);
    assert_int_equal(wt_tour_validate(tour, n, NULL), WT_OK);
    assert_int_equal(len0 - wt_tour_length(inst, tour), e.gain);
    assert_true(e.gain >= 0);
    assert_int_equal(e.windows, count);
    char *seen = calloc((size_t)n, 1);
    for (int w = 0; w < count; w++) {
        int first = (int)((int64_t)w * n / count), last = (int)((int64_t)(w + 1) * n / count) - 1;
        int p0 = (o->offset + first) % n, p1 = (o->offset + last) % n;
        assert_int_equal(tour[p0], before[p0]);
        assert_int_equal(tour[p1], before[p1]);
        for (int i = first; i <= last; i++) seen[before[(o->offset + i) % n]] = (char)(w + 1);
        for (int i = first; i <= last; i++)
            assert_int_equal(seen[tour[(o->offset + i) % n]], (char)(w + 1));
    }
    free(seen);
    free(before);
    return e;
}

static int32_t *greedy(const wt_instance *inst)
{
    int32_t *t = malloc((size_t)wt_instance_n(inst) * sizeof *t);
    wt_error err = {0};
    if (wt_tour_init(inst, WT_INIT_GREEDY, 1, t, &err) != WT_OK) fail_msg("%s", err.message);
    return t;
}

/* Rounds on 5,000 uniform cities from several cuts: each checked, each
 * improving on the greedy tour at first. */
static void test_rounds_keep_ends_and_exact_gains(void **state)
{
    (void)state;
    wt_instance *inst = wt_test_random_instance(5000, 3);
    int32_t *tour = greedy(inst);
    int64_t len0 = wt_tour_length(inst, tour), total = 0;
    for (uint64_t ep = 0; ep < 4; ep++) {
        wt_windows_opts o = cpu_opts(300 + 100 * (int)ep, wt_windows_offset(5, ep, 5000), 40, 2);
        wt_windows_round e = checked_round(inst, tour, &o);
        if (ep == 0) assert_true(e.gain > 0 && e.improved > 0);
        assert_true(e.kicks > 0);
        assert_int_equal(e.on_gpu, 0);
        total += e.gain;
    }
    assert_int_equal(len0 - wt_tour_length(inst, tour), total);
    free(tour);
    wt_instance_free(inst);
}

/* The same tour for the same seed, on 1 and 2 threads. */
static void test_reproducible(void **state)
{
    (void)state;
    wt_instance *inst = wt_test_random_instance(3000, 4);
    int32_t *a = greedy(inst), *b = greedy(inst);
    for (uint64_t ep = 0; ep < 2; ep++) {
        wt_windows_opts o1 = cpu_opts(400, wt_windows_offset(9, ep, 3000), 30, 1);
        wt_windows_opts o2 = o1;
        o2.threads = 2;
        wt_windows_round e1 = checked_round(inst, a, &o1), e2 = checked_round(inst, b, &o2);
        assert_int_equal(e1.gain, e2.gain);
        assert_int_equal(e1.kicks, e2.kicks);
        assert_memory_equal(a, b, 3000 * sizeof *a);
    }
    free(a);
    free(b);
    wt_instance_free(inst);
}

/* Windows whose lists are cut from the large instance's candidates: each
 * round checked, improving the greedy tour, the same tour on 1 and 2
 * threads; lists with no candidates leave (almost) nothing to gain, so the
 * lists are the ones given; candidates without their count are refused. */
static void test_given_candidates(void **state)
{
    (void)state;
    int n = 4000, k = 10;
    wt_instance *inst = wt_test_random_instance(n, 6);
    int32_t *a = greedy(inst), *b = greedy(inst);
    int32_t *cand = malloc((size_t)n * (size_t)k * sizeof *cand);
    wt_error err = {0};
    assert_int_equal(wt_neighbour_lists(inst, k, cand, &err), WT_OK);
    int64_t first_gain = 0;
    for (uint64_t ep = 0; ep < 2; ep++) {
        wt_windows_opts o1 = cpu_opts(500, wt_windows_offset(4, ep, n), 30, 1);
        o1.candidates = cand;
        o1.candidates_k = k;
        wt_windows_opts o2 = o1;
        o2.threads = 2;
        wt_windows_round e1 = checked_round(inst, a, &o1), e2 = checked_round(inst, b, &o2);
        if (ep == 0) first_gain = e1.gain;
        assert_int_equal(e1.gain, e2.gain);
        assert_memory_equal(a, b, (size_t)n * sizeof *a);
    }
    assert_true(first_gain > 0);
    /* No candidates: only a kick that happens to shorten a path is kept. */
    for (size_t q = 0; q < (size_t)n * (size_t)k; q++) cand[q] = -1;
    int32_t *c = greedy(inst);
    wt_windows_opts o = cpu_opts(500, wt_windows_offset(4, 0, n), 30, 2);
    o.candidates = cand;
    o.candidates_k = k;
    assert_true(checked_round(inst, c, &o).gain < first_gain / 10);
    free(c);
    o.candidates_k = 0;
    wt_windows_round e;
    assert_int_equal(wt_windows_round_run(inst, a, &o, &e, &err), WT_STATUS_INVALID_ARGUMENT);
    free(cand);
    free(a);
    free(b);
    wt_instance_free(inst);
}

/* Every other window (stride 2): those of the phase improve the greedy
 * tour, keep their ends and cities, the others stay as they were; a phase
 * at or past the stride is refused. */
static void test_stride(void **state)
{
    (void)state;
    int n = 3000, window = 300, all = wt_windows_count(n, window);
    wt_instance *inst = wt_test_random_instance(n, 12);
    int32_t *tour = greedy(inst), *before = malloc((size_t)n * sizeof *before);
    memcpy(before, tour, (size_t)n * sizeof *tour);
    wt_windows_opts o = cpu_opts(window, 123, 20, 2);
    o.stride = 2;
    o.phase = 1;
    wt_windows_round e;
    wt_error err = {0};
    int64_t len0 = wt_tour_length(inst, tour);
    assert_int_equal(wt_windows_round_run(inst, tour, &o, &e, &err), WT_OK);
    assert_int_equal(e.windows, all / 2);
    assert_true(e.gain > 0);
    assert_int_equal(wt_tour_validate(tour, n, NULL), WT_OK);
    assert_int_equal(len0 - wt_tour_length(inst, tour), e.gain);
    for (int w = 0; w < all; w++) {
        int lo = wt_windows_first(n, all, w), hi = wt_windows_first(n, all, w + 1);
        bool changed = false;
        for (int q = lo; q < hi; q++) changed |= tour[(123 + q) % n] != before[(123 + q) % n];
        if (w % 2 == 0) assert_false(changed);
        assert_int_equal(tour[(123 + lo) % n], before[(123 + lo) % n]);
        assert_int_equal(tour[(123 + hi - 1) % n], before[(123 + hi - 1) % n]);
    }
    o.phase = 2;
    assert_int_equal(wt_windows_round_run(inst, tour, &o, &e, &err), WT_STATUS_INVALID_ARGUMENT);
    free(before);
    free(tour);
    wt_instance_free(inst);
}

/* A tour shorter than two windows is one window with one fixed edge; a
 * time limit instead of kicks ends the round. */
static void test_one_window_and_time_limit(void **state)
{
    (void)state;
    wt_instance *inst = wt_test_random_instance(500, 8);
    int32_t *tour = greedy(inst);
    wt_windows_opts o = cpu_opts(300, 499, 0, 2);
    o.time_limit_s = 0.2;
    wt_windows_round e = checked_round(inst, tour, &o);
    assert_int_equal(e.windows, 1);
    assert_true(e.gain > 0);
    assert_true(e.wall_s < 2.0);
    free(tour);
    wt_instance_free(inst);
}

/* Exact gains and kept ends on the other metrics: real-valued points and
 * TSPLIB instances of CEIL_2D, ATT, GEO and EXPLICIT. */
static void test_metrics(void **state)
{
    (void)state;
    double x[2000], y[2000];
    for (int i = 0; i < 2000; i++) {
        x[i] = 0.001 * (double)((i * 7919) % 2003) + 1e-4 * (double)(i % 7);
        y[i] = 0.001 * (double)((i * 104729) % 1999);
    }
    wt_instance *real = NULL;
    wt_error err = {0};
    assert_int_equal(wt_instance_from_coords("real", 2000, WT_EUC_2D_REAL, x, y, NULL, &real, &err),
                     WT_OK);
    int32_t *tour = greedy(real);
    wt_windows_opts o = cpu_opts(250, 17, 30, 2);
    assert_true(checked_round(real, tour, &o).gain > 0);
    free(tour);
    wt_instance_free(real);

    const char *dir = wt_test_tsplib_dir();
    if (!dir) return; /* the TSPLIB collection is not here: the rest is skipped */
    const char *files[] = {"dsj1000.tsp", "att532.tsp", "ali535.tsp", "gr431.tsp", "gr120.tsp"};
    for (size_t f = 0; f < sizeof files / sizeof *files; f++) {
        char *path = wt_test_path(dir, files[f]);
        wt_instance *inst = NULL;
        if (wt_instance_read_tsplib(path, &inst, &err) != WT_OK)
            fail_msg("%s: %s", path, err.message);
        free(path);
        tour = greedy(inst);
        o = cpu_opts(wt_instance_n(inst) / 3, 5, 20, 2);
        checked_round(inst, tour, &o);
        free(tour);
        wt_instance_free(inst);
    }
}

static void test_bad_options(void **state)
{
    (void)state;
    wt_instance *inst = wt_test_random_instance(100, 8);
    int32_t *tour = greedy(inst);
    wt_windows_round e;
    wt_windows_opts o = cpu_opts(4, 0, 10, 1);
    assert_int_equal(wt_windows_round_run(inst, tour, &o, &e, NULL), WT_STATUS_INVALID_ARGUMENT);
    o = cpu_opts(50, 100, 10, 1);
    assert_int_equal(wt_windows_round_run(inst, tour, &o, &e, NULL), WT_STATUS_INVALID_ARGUMENT);
    o = cpu_opts(50, 0, 0, 1);
    assert_int_equal(wt_windows_round_run(inst, tour, &o, &e, NULL), WT_STATUS_INVALID_ARGUMENT);
    free(tour);
    wt_instance_free(inst);
}

/* Concurrent windows on one CPU thread. */
static wt_concurrent_opts concurrent_cpu(uint64_t seed, double round_s, int window)
{
    return (wt_concurrent_opts){.device = host(), .seed = seed, .round_s = round_s,
                                .window = window};
}

/* One concurrent round (on one CPU thread, 0.3 s) from the greedy tour of
 * 5,000 cities, spliced into the adjacency of `base`: 0, that tour; 1, that tour
 * with its middle third reversed; 2, a random tour; 3, that tour with
 * positions 8 j + 2 .. 8 j + 5 reversed.  with_candidates: the windows'
 * lists cut from the host's (the 10 nearest).  Returns the gain spliced;
 * the tour from adj is valid and exactly that much shorter than base's. */
static int64_t concurrent_round(int base, bool with_candidates)
{
    int n = 5000;
    wt_instance *inst = wt_test_random_instance(n, 7);
    int32_t *tour = greedy(inst), *other = malloc((size_t)n * sizeof *other);
    int32_t *after = malloc((size_t)n * sizeof *after);
    memcpy(other, tour, (size_t)n * sizeof *tour);
    if (base == 1)
        for (int i = n / 3, j = 2 * n / 3; i < j; i++, j--) {
            int32_t c = other[i];
            other[i] = other[j];
            other[j] = c;
        }
    if (base == 2) wt_test_random_tour(n, 11, other);
    if (base == 3) /* positions 8 j + 2 .. 8 j + 5 reversed: most inner paths reordered */
        for (int j = 0; 8 * j + 5 < n; j++) {
            int32_t *q = other + 8 * j + 2, c0 = q[0], c1 = q[1];
            q[0] = q[3];
            q[1] = q[2];
            q[2] = c1;
            q[3] = c0;
        }
    if (base == 4) /* the same tour backwards, from another city */
        for (int i = 0; i < n; i++) other[i] = tour[(3 * n / 4 - i + n) % n];
    memcpy(after, other, (size_t)n * sizeof *after);
    wt_concurrent_windows *b = NULL;
    wt_error err = {0};
    wt_concurrent_opts o = concurrent_cpu(3, 1.0, WT_WINDOW_CITIES);
    int32_t *cand = NULL;
    if (with_candidates) { /* the host's lists: 10 nearest */
        cand = malloc((size_t)n * 10 * sizeof *cand);
        assert_int_equal(wt_neighbour_lists(inst, 10, cand, &err), WT_OK);
        o.candidates = cand;
        o.candidates_k = 10;
    }
    assert_int_equal(wt_concurrent_open(inst, &o, &b, &err), WT_OK);
    double deadline = wt_now() + 0.3;
    wt_concurrent_start(b, tour, deadline);
    assert_true(wt_concurrent_running(b));
    while (wt_now() < deadline + 0.1) {} /* a splice that waits asks the round to end */
    int64_t gain = 0;
    assert_true(wt_concurrent_splice(b, after, true, &gain));
    assert_false(wt_concurrent_running(b));
    assert_int_equal(wt_concurrent_rounds(b), 1);
    assert_int_equal(wt_tour_validate(after, n, NULL), WT_OK);
    assert_int_equal(wt_tour_length(inst, other) - wt_tour_length(inst, after), gain);
    wt_concurrent_close(b);
    free(cand);
    free(after);
    free(other);
    free(tour);
    wt_instance_free(inst);
    return gain;
}

/* Improved paths go into the tour they came from (all of them, also where it runs
 * backwards from another city), into one where a 2-opt move changed two
 * edges, into one whose short segments were reversed (those whose inside
 * stays between their ends), and none into an unrelated tour. */
static void test_concurrent_improved_paths(void **state)
{
    (void)state;
    assert_true(concurrent_round(0, false) > 0);
    assert_true(concurrent_round(1, false) > 0);
    assert_int_equal(concurrent_round(2, false), 0);
    int64_t whole = concurrent_round(0, false), reordered = concurrent_round(3, false);
    int64_t backwards = concurrent_round(4, false);
    print_message("    gain into the same tour %lld, into it backwards %lld, into one reordered "
                  "inside %lld\n", (long long)whole, (long long)backwards, (long long)reordered);
    /* Backwards from another city every improved path fits: about the same gain
     * (rounds of a time limit, so not the same). */
    assert_true(backwards > whole / 4);
    /* An improved path goes in where its inside was reordered between its ends
     * (about half the gain here; a tenth of a percent where only improved paths
     * with all their old edges went in). */
    assert_true(reordered > whole / 10);
    assert_true(concurrent_round(1, true) > 0);
    /* Bad arguments are refused; closing nothing is fine. */
    wt_concurrent_windows *b = (wt_concurrent_windows *)&b;
    wt_concurrent_opts o = concurrent_cpu(1, 1.0, WT_WINDOW_CITIES);
    assert_int_equal(wt_concurrent_open(NULL, &o, &b, NULL), WT_STATUS_INVALID_ARGUMENT);
    assert_null(b);
    wt_instance *inst = wt_test_random_instance(100, 1);
    int32_t cand[100] = {0};
    wt_concurrent_opts bad[] = {concurrent_cpu(1, 0.0, 1000), concurrent_cpu(1, 1.0, 7),
                                concurrent_cpu(1, 1.0, 1000), concurrent_cpu(1, 1.0, 1000),
                                concurrent_cpu(1, 1.0, 1000)};
    bad[2].device = NULL;
    bad[3].candidates = cand; /* without candidates_k */
    bad[4].ahead = WT_CONCURRENT_AHEAD_MAX + 1;
    for (int k = 0; k < 5; k++) {
        b = (wt_concurrent_windows *)&b;
        assert_int_equal(wt_concurrent_open(inst, &bad[k], &b, NULL), WT_STATUS_INVALID_ARGUMENT);
        assert_null(b);
    }
    assert_int_equal(wt_concurrent_open(inst, NULL, &b, NULL), WT_STATUS_INVALID_ARGUMENT);
    wt_instance_free(inst);
    wt_concurrent_close(NULL);
}

/* A round's improved paths keep the fixed edges (every fifth edge of the
 * greedy tour of 5,000 cities): where one would remove one it is dropped,
 * the others go in, and the gain is exact. */
static void test_concurrent_keeps_fixed(void **state)
{
    (void)state;
    int n = 5000, count = n / 5;
    wt_instance *inst = wt_test_random_instance(n, 7);
    int32_t *tour = greedy(inst), *after = malloc((size_t)n * sizeof *after);
    int32_t *pairs = malloc(2 * (size_t)count * sizeof *pairs);
    int32_t *adj = malloc(2 * (size_t)n * sizeof *adj);
    for (int j = 0; j < count; j++) {
        pairs[2 * j] = tour[5 * j];
        pairs[2 * j + 1] = tour[5 * j + 1];
    }
    wt_fixed_adjacency(pairs, count, n, adj);
    memcpy(after, tour, (size_t)n * sizeof *after);
    wt_concurrent_windows *b = NULL;
    wt_error err = {0};
    wt_concurrent_opts o = concurrent_cpu(3, 1.0, WT_WINDOW_CITIES);
    o.fixed = adj;
    assert_int_equal(wt_concurrent_open(inst, &o, &b, &err), WT_OK);
    double deadline = wt_now() + 0.3;
    wt_concurrent_start(b, tour, deadline);
    while (wt_now() < deadline + 0.1) {}
    int64_t gain = 0;
    assert_true(wt_concurrent_splice(b, after, true, &gain));
    assert_int_equal(wt_tour_validate(after, n, NULL), WT_OK);
    assert_true(wt_tour_holds_fixed(after, n, adj));
    assert_int_equal(wt_tour_length(inst, tour) - wt_tour_length(inst, after), gain);
    assert_true(gain > 0);
    wt_concurrent_close(b);
    free(adj);
    free(pairs);
    free(after);
    free(tour);
    wt_instance_free(inst);
}

/* Rounds of 0.1 s one after another until three were spliced (at most
 * 20 s: sanitizers and a loaded machine slow them), next to a stand-in for
 * the host that splices their improved paths every 20 ms and reverses a segment of
 * its tour now and then (longer or shorter): every round's improved paths go in
 * where they fit, the tour stays one cycle and its length is exact
 * throughout; every other window is a round's, the rest of the tour free
 * for the host's kicks while it runs, all of it after. */
static void test_concurrent_rounds_one_after_another(void **state)
{
    (void)state;
    int n = 5000;
    wt_instance *inst = wt_test_random_instance(n, 9);
    int32_t *tour = greedy(inst);
    int64_t length = wt_tour_length(inst, tour);
    wt_concurrent_windows *b = NULL;
    wt_concurrent_opts o = concurrent_cpu(5, 0.1, WT_WINDOW_CITIES);
    o.alternate = true;
    assert_int_equal(wt_concurrent_open(inst, &o, &b, NULL), WT_OK);
    int32_t *free_cities = malloc((size_t)n * sizeof *free_cities);
    char *seen = malloc((size_t)n);
    bool owned = false;
    double deadline = wt_now() + 20;
    wt_concurrent_start(b, tour, deadline);
    uint64_t rng = 12345;
    for (int merge = 0; wt_concurrent_rounds(b) < 3 && wt_now() < deadline; merge++) {
        for (double until = wt_now() + 0.02; wt_now() < until;) {}
        int64_t gain = 0;
        if (wt_concurrent_splice(b, tour, false, &gain)) length -= gain;
        assert_int_equal(wt_tour_validate(tour, n, NULL), WT_OK);
        assert_int_equal(wt_tour_length(inst, tour), length);
        /* Every other window is the round's: about half the cities are
         * free, each once. */
        int m = wt_concurrent_host_cities(b, tour, free_cities);
        if (m > 0) {
            owned = true;
            assert_true(m > n / 4 && m < 3 * n / 4);
            memset(seen, 0, (size_t)n);
            for (int i = 0; i < m; i++) assert_int_equal(seen[free_cities[i]]++, 0);
        }
        if (merge % 5 != 4) continue;
        /* The host's move: one reversal, and the tour turned around. */
        rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
        int i = 1 + (int)((rng >> 33) % (uint64_t)(n - 200)), j = i + 50;
        for (int x = i, y = j; x < y; x++, y--) {
            int32_t c = tour[x];
            tour[x] = tour[y];
            tour[y] = c;
        }
        for (int x = 0, y = n - 1; x < y; x++, y--) {
            int32_t c = tour[x];
            tour[x] = tour[y];
            tour[y] = c;
        }
        length = wt_tour_length(inst, tour);
    }
    int64_t gain = 0;
    if (wt_concurrent_splice(b, tour, true, &gain)) length -= gain;
    assert_false(wt_concurrent_running(b));
    assert_true(wt_concurrent_rounds(b) >= 3);
    assert_true(owned);
    assert_int_equal(wt_concurrent_host_cities(b, tour, free_cities), 0); /* none runs */
    free(free_cities);
    free(seen);
    assert_int_equal(wt_tour_validate(tour, n, NULL), WT_OK);
    assert_int_equal(wt_tour_length(inst, tour), length);
    wt_concurrent_close(b);
    free(tour);
    wt_instance_free(inst);
}

/* Rounds of 0.1 s beside a stand-in for the host that splices every 0.45 s
 * and reverses a segment of its tour after each splice: with `ahead` rounds
 * allowed to wait for a splice, the rounds go on meanwhile, each from the
 * last with its improved paths, and a splice takes in up to `ahead` of them
 * (all where they fit), the tour one cycle of exact length throughout;
 * `window` cities a window, the host's splices on `threads` threads, the
 * waiting rounds' improved paths `cities` cities at most (0: the default).
 * Returns the most rounds one splice took in.  A round starts from the
 * last one's result while that one is cut where no splice came between
 * them: never with one round ahead, at least once where a splice took in
 * three (the second and third started with none between). */
static uint64_t rounds_between_splices(int ahead, int window, int threads, int64_t cities)
{
    int n = 5000;
    wt_instance *inst = wt_test_random_instance(n, 10);
    int32_t *tour = greedy(inst);
    int64_t length = wt_tour_length(inst, tour), gained = 0;
    wt_concurrent_windows *b = NULL;
    wt_concurrent_opts o = concurrent_cpu(6, 0.1, window);
    o.ahead = ahead;
    o.ahead_cities = cities;
    o.host_threads = threads;
    assert_int_equal(wt_concurrent_open(inst, &o, &b, NULL), WT_OK);
    double deadline = wt_now() + 20;
    wt_concurrent_start(b, tour, deadline);
    uint64_t most = 0;
    for (int merge = 0; merge < 4 && wt_now() < deadline; merge++) {
        for (double until = wt_now() + 0.45; wt_now() < until;) {}
        uint64_t before = wt_concurrent_rounds(b);
        int64_t gain = 0;
        if (wt_concurrent_splice(b, tour, false, &gain)) length -= gain;
        gained += gain;
        uint64_t took = wt_concurrent_rounds(b) - before;
        if (took > most) most = took;
        assert_true(took <= (uint64_t)(ahead ? ahead : WT_CONCURRENT_AHEAD));
        assert_int_equal(wt_tour_validate(tour, n, NULL), WT_OK);
        assert_int_equal(wt_tour_length(inst, tour), length);
        for (int x = 100 + 300 * merge, y = x + 40; x < y; x++, y--) { /* the host's move */
            int32_t c = tour[x];
            tour[x] = tour[y];
            tour[y] = c;
        }
        length = wt_tour_length(inst, tour);
    }
    int64_t gain = 0;
    if (wt_concurrent_splice(b, tour, true, &gain)) length -= gain;
    assert_int_equal(wt_tour_validate(tour, n, NULL), WT_OK);
    assert_int_equal(wt_tour_length(inst, tour), length);
    assert_true(gained + gain > 0);
    uint64_t chained = wt_concurrent_chained(b);
    if (ahead == 1) assert_int_equal(chained, 0);
    if (most >= 3) assert_true(chained >= 1);
    wt_concurrent_close(b);
    free(tour);
    wt_instance_free(inst);
    return most;
}

static void test_concurrent_rounds_ahead(void **state)
{
    (void)state;
    uint64_t one = rounds_between_splices(1, WT_WINDOW_CITIES, 1, 0);
    uint64_t three = rounds_between_splices(3, WT_WINDOW_CITIES, 1, 0);
    uint64_t by_default = rounds_between_splices(0, WT_WINDOW_CITIES, 1, 0);
    /* Windows of 16 cities: hundreds of improved paths a round, which the
     * host's two threads splice side by side. */
    assert_true(rounds_between_splices(0, 16, 2, 0) >= 2);
    /* The waiting rounds' cities bounded to one: a round starts only where
     * those waiting improved nothing, and the tour stays exact throughout. */
    (void)rounds_between_splices(8, 16, 2, 1);
    print_message("    most rounds a splice took in: %llu with 1 ahead, %llu with 3, %llu by "
                  "default\n", (unsigned long long)one, (unsigned long long)three,
                  (unsigned long long)by_default);
    assert_int_equal(one, 1);
    assert_true(three >= 2);
    assert_true(by_default >= 2);
}

/* ILS on two threads for 1.5 s with concurrent windows on a host thread, lk:
 * with LK descents (the improved paths go in at the merged replicas' merges),
 * else with local ones on segments of 1000 cities (at the segments' rounds):
 * the tour stays valid and its length exact (ils_local.c asserts it in debug
 * builds). */
static void concurrent_in_ils(bool lk)
{
    int n = 6000;
    wt_instance *inst = wt_test_random_instance(n, 8);
    int32_t *tour = greedy(inst);
    int64_t start = wt_tour_length(inst, tour);
    wt_params p;
    wt_params_defaults(&p);
    p.algorithm = WT_ALGO_ILS;
    p.threads = 2;
    p.time_limit_s = 1.5;
    /* the flip chain: the k-opt step's ascent and first descent may take
     * the whole 1.5 s on a loaded machine, and no window would go in */
    const wt_tuning tuning = {.ils_segment_min = 1000, .lk_kopt = WT_TUNING_OFF};
    p.tuning = &tuning;
    wt_search_ctl ctl;
    wt_ctl_init(&ctl, &p);
    wt_search_stats stats = {0};
    wt_error err = {0};
    wt_status st = wt_ils_local_run(inst, tour, &ctl, false, lk, host(), NULL, 0, &stats, &err);
    if (st != WT_OK) fail_msg("wt_ils_local_run: %s", err.message);
    assert_int_equal(wt_tour_validate(tour, n, NULL), WT_OK);
    assert_true(wt_tour_length(inst, tour) <= start); /* how far it got depends on the load */
    assert_true(stats.gpu_time_s == 0);
    free(tour);
    wt_instance_free(inst);
}

static void test_concurrent_in_ils(void **state)
{
    (void)state;
    concurrent_in_ils(true);
    concurrent_in_ils(false);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_kicks_keep_the_fixed_edge),
        cmocka_unit_test(test_rounds_keep_ends_and_exact_gains),
        cmocka_unit_test(test_reproducible),
        cmocka_unit_test(test_given_candidates),
        cmocka_unit_test(test_stride),
        cmocka_unit_test(test_one_window_and_time_limit),
        cmocka_unit_test(test_metrics),
        cmocka_unit_test(test_bad_options),
        cmocka_unit_test(test_concurrent_improved_paths),
        cmocka_unit_test(test_concurrent_keeps_fixed),
        cmocka_unit_test(test_concurrent_rounds_one_after_another),
        cmocka_unit_test(test_concurrent_rounds_ahead),
        cmocka_unit_test(test_concurrent_in_ils),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
