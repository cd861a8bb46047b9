/*
 * test_segment_bound.c - the segment bound (core/segment_bound.h) and the
 * pruned 2-opt scan built on it (cpu_2opt.c).
 *
 * The bound must never rule out an improving move: checked by brute force
 * on every pair of segments it rules out, for each metric that has it,
 * on random, greedy, locally optimal and kicked tours, clustered points,
 * duplicate points and negative coordinates.  The pruned scan must give
 * exactly the candidates of the full one (row bests and band bests, lowest
 * j among equals), at any thread count, and check fewer pairs on a good
 * tour.
 */
#include "test_util.h"

#include <inttypes.h>

#include "backend/cpu/cpu_2opt.h"
#include "core/instance.h"
#include "core/segment_bound.h"

static uint64_t rng_next(uint64_t *s)
{
    *s += 0x9E3779B97F4A7C15ULL;
    uint64_t z = *s;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* Coordinate shapes of the test instances. */
enum shape { UNIFORM, CLUSTERED, DUPLICATES, NEGATIVE_FRACTIONS, N_SHAPES };

/* A TSPLIB instance of n cities of `type` in `shape`; owned by the caller. */
static wt_instance *make_instance(const char *type, int n, enum shape shape, uint64_t seed)
{
    size_t size = 200 + (size_t)n * 64;
    char *text = malloc(size);
    int len = snprintf(text, size, "NAME: t\nTYPE: TSP\nDIMENSION: %d\nEDGE_WEIGHT_TYPE: %s\n"
                       "NODE_COORD_SECTION\n", n, type);
    uint64_t s = seed;
    for (int c = 0; c < n; c++) {
        double x = (double)(rng_next(&s) % 10000), y = (double)(rng_next(&s) % 10000);
        if (shape == CLUSTERED) { /* 8 tight clusters far apart */
            int k = (int)(rng_next(&s) % 8);
            x = (k % 4) * 3000 + x / 50;
            y = (k / 4) * 5000 + y / 50;
        } else if (shape == DUPLICATES) { /* few distinct points */
            x = (double)(rng_next(&s) % 5) * 7;
            y = (double)(rng_next(&s) % 5) * 3;
        } else if (shape == NEGATIVE_FRACTIONS) {
            x = x / 7.0 - 700.0;
            y = -y / 3.0;
        }
        len += snprintf(text + len, size - (size_t)len, "%d %.6f %.6f\n", c + 1, x, y);
    }
    snprintf(text + len, size - (size_t)len, "EOF\n");
    wt_instance *inst = wt_test_parse(text);
    free(text);
    return inst;
}

/* Best improvement to a 2-opt local optimum, for locally optimal tours. */
static void descend(const wt_instance *inst, int32_t *t)
{
    wt_2opt_move m;
    while (wt_2opt_best_move(inst, t, 1, NULL, &m) && m.i >= 0) wt_2opt_apply(t, m.i, m.j);
}

/* Tour kinds: 0 random, 1 greedy, 2 local optimum, 3 local optimum kicked. */
static void make_tour(const wt_instance *inst, int kind, uint64_t seed, int32_t *t)
{
    int n = wt_instance_n(inst);
    wt_tour_init(inst, kind == 0 ? WT_INIT_RANDOM : WT_INIT_GREEDY, seed, t, NULL);
    if (kind >= 2) descend(inst, t);
    if (kind == 3 && n >= 8) { /* double bridge: A B C D -> A C B D */
        int p1 = n / 4, p2 = n / 2, p3 = 3 * n / 4;
        int32_t *buf = malloc((size_t)n * sizeof *buf);
        memcpy(buf, t, (size_t)n * sizeof *t);
        int k = p1;
        for (int i = p2; i < p3; i++) t[k++] = buf[i];
        for (int i = p1; i < p2; i++) t[k++] = buf[i];
        free(buf);
    }
}

static const char *const bound_types[] = {"EUC_2D", "CEIL_2D", "ATT", "MAN_2D", "MAX_2D"};
#define N_BOUND_TYPES (sizeof bound_types / sizeof bound_types[0])

/* Every pair of segments the bound rules out holds no improving move. */
static void check_ruled_out_pairs(const wt_instance *inst, const int32_t *t, int len)
{
    int n = wt_instance_n(inst), segs = (n + len - 1) / len;
    wt_segment_box *box = malloc((size_t)segs * sizeof *box);
    wt_segment_boxes(inst, t, len, box);
    for (int a = 0; a < segs; a++)
        for (int b = a; b < segs; b++) {
            if (wt_segment_may_improve(inst, &box[a], &box[b])) continue;
            for (int i = a * len; i < (a + 1) * len && i < n - 2; i++)
                for (int j = b * len; j < (b + 1) * len && j < n; j++)
                    if (j >= i + 2) assert_true(wt_2opt_move_delta(inst, t, i, j) >= 0);
        }
    /* and the gap bound is below every distance between the boxes' points */
    for (int a = 0; a < segs; a++)
        for (int b = a; b < segs; b++) {
            double l = wt_segment_gap_bound(inst, &box[a], &box[b]);
            for (int i = a * len; i <= (a + 1) * len && i <= n; i++)
                for (int j = b * len; j <= (b + 1) * len && j <= n; j++)
                    assert_true(l <= (double)wt_dist(inst, t[i % n], t[j % n]));
        }
    free(box);
}

static void test_bound_never_rules_out_an_improving_move(void **state)
{
    (void)state;
    static const int sizes[] = {5, 33, 97, 200};
    static const int lens[] = {1, 4, 32};
    int32_t *t = malloc(200 * sizeof *t);
    for (size_t ty = 0; ty < N_BOUND_TYPES; ty++)
        for (int shape = 0; shape < N_SHAPES; shape++)
            for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
                wt_instance *inst = make_instance(bound_types[ty], sizes[k], shape,
                                                  11 + ty * 7 + (uint64_t)shape);
                assert_true(wt_segment_bound_supported(inst));
                for (int kind = 0; kind < 4; kind++) {
                    make_tour(inst, kind, 5 + (uint64_t)kind, t);
                    for (size_t l = 0; l < sizeof lens / sizeof lens[0]; l++)
                        check_ruled_out_pairs(inst, t, lens[l]);
                }
                wt_instance_free(inst);
            }
    free(t);
}

/* The index's partners of every segment against testing every pair. */
static void check_index_partners(const wt_instance *inst, const int32_t *t, int len)
{
    int n = wt_instance_n(inst), segs = (n + len - 1) / len;
    wt_segment_box *box = malloc((size_t)segs * sizeof *box);
    int *got = malloc((size_t)segs * sizeof *got);
    wt_segment_boxes(inst, t, len, box);
    wt_segment_index *ix = wt_segment_index_build(inst, box, segs);
    assert_non_null(ix);
    for (int g = 0; g < segs; g++) {
        int count = wt_segment_index_partners(ix, g, got), k = 0;
        for (int s = g; s < segs; s++) {
            if (!wt_segment_may_improve(inst, &box[g], &box[s])) continue;
            if (k >= count || got[k] != s)
                fail_msg("segment %d of %d (len %d): partner %d missing or out of order", g,
                         segs, len, s);
            k++;
        }
        assert_int_equal(k, count);
    }
    wt_segment_index_free(ix);
    free(got);
    free(box);
}

/* The index finds exactly the partners a test of every pair finds, on
 * tours whose boxes are small (greedy), large (random) or mixed (greedy
 * cut by kicks: a few long edges), in every shape and metric. */
static void test_index_partners_are_every_pair(void **state)
{
    (void)state;
    int n = 3000;
    int32_t *t = malloc((size_t)n * sizeof *t), *buf = malloc((size_t)n * sizeof *buf);
    for (size_t ty = 0; ty < N_BOUND_TYPES; ty++)
        for (int shape = 0; shape < N_SHAPES; shape++) {
            wt_instance *inst = make_instance(bound_types[ty], n, shape, 40 + ty + (uint64_t)shape);
            for (int kind = 0; kind < 3; kind++) {
                make_tour(inst, kind == 0 ? 0 : 1, 7, t);
                for (int kick = 0; kind == 2 && kick < 20; kick++) { /* A B C -> A C B */
                    int p1 = 100 + kick * 97, p2 = p1 + 50 + kick * 13;
                    memcpy(buf, t + p1, (size_t)(p2 - p1) * sizeof *t);
                    memmove(t + p1, t + p2, (size_t)(n - p2) * sizeof *t);
                    memcpy(t + n - (p2 - p1), buf, (size_t)(p2 - p1) * sizeof *t);
                }
                check_index_partners(inst, t, 4);
                check_index_partners(inst, t, 32);
            }
            wt_instance_free(inst);
        }
    free(t);
    free(buf);
}

/* The pruned scan's candidates against the full scan's, entry for entry;
 * returns the pairs it checked. */
static uint64_t compare_scans(const wt_instance *inst, const int32_t *t, int band, int threads)
{
    int n = wt_instance_n(inst);
    wt_kswap_move *full = malloc(2 * (size_t)n * sizeof *full);
    wt_kswap_move *pruned = malloc(2 * (size_t)n * sizeof *pruned);
    wt_2opt_scan a = {.threads = threads, .band = band, .prune = false};
    wt_2opt_scan b = {.threads = threads, .band = band, .prune = true};
    int nf = wt_2opt_scan_candidates(inst, t, &a, full);
    int np = wt_2opt_scan_candidates(inst, t, &b, pruned);
    assert_int_equal(nf, np);
    for (int c = 0; c < nf; c++) {
        assert_int_equal(full[c].i, pruned[c].i);
        assert_int_equal(full[c].j, pruned[c].j);
        assert_int_equal(full[c].delta, pruned[c].delta);
    }
    assert_int_equal(a.checked, wt_2opt_moves_per_scan(n));
    assert_true(b.checked <= a.checked);
    free(full);
    free(pruned);
    return b.checked;
}

static void test_pruned_scan_equals_full_scan(void **state)
{
    (void)state;
    static const int sizes[] = {3, 4, 5, 31, 32, 33, 64, 65, 130, 400};
    static const int bands[] = {0, 1, 64};
    int32_t *t = malloc(400 * sizeof *t);
    for (size_t ty = 0; ty < N_BOUND_TYPES; ty++)
        for (int shape = 0; shape < N_SHAPES; shape++)
            for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
                int n = sizes[k];
                wt_instance *inst = make_instance(bound_types[ty], n, shape, 3 + (uint64_t)n);
                for (int kind = 0; kind < 4; kind++) {
                    make_tour(inst, kind, 9 + (uint64_t)kind, t);
                    for (size_t b = 0; b < sizeof bands / sizeof bands[0]; b++)
                        for (int threads = 1; threads <= 2; threads++)
                            compare_scans(inst, t, bands[b], threads);
                }
                wt_instance_free(inst);
            }
    free(t);
}

/* On a good tour of spread-out points most pairs are ruled out. */
static void test_pruned_scan_checks_few_pairs_on_good_tours(void **state)
{
    (void)state;
    int n = 2000;
    wt_instance *inst = wt_test_random_instance(n, 21);
    int32_t *t = malloc((size_t)n * sizeof *t);
    wt_tour_init(inst, WT_INIT_GREEDY, 1, t, NULL);
    uint64_t greedy = compare_scans(inst, t, 64, 2);
    descend(inst, t);
    uint64_t optimum = compare_scans(inst, t, 64, 2);
    wt_tour_init(inst, WT_INIT_RANDOM, 1, t, NULL); /* a random tour: little to skip */
    uint64_t random = compare_scans(inst, t, 64, 2);
    print_message("pairs checked of %" PRIu64 ": greedy %" PRIu64 ", 2-opt optimum %" PRIu64
                  ", random %" PRIu64 "\n", wt_2opt_moves_per_scan(n), greedy, optimum, random);
    assert_true(greedy < wt_2opt_moves_per_scan(n) / 2);
    assert_true(optimum < wt_2opt_moves_per_scan(n) / 5);
    assert_true(random > greedy);
    free(t);
    wt_instance_free(inst);
}

/* Metrics without the bound check every pair, and still agree. */
static void test_other_metrics_check_every_pair(void **state)
{
    (void)state;
    static const char *const types[] = {"GEO", "EUC_3D"};
    for (size_t ty = 0; ty < 2; ty++) {
        int n = 50;
        size_t size = 200 + (size_t)n * 64;
        char *text = malloc(size);
        int len = snprintf(text, size, "NAME: t\nTYPE: TSP\nDIMENSION: %d\nEDGE_WEIGHT_TYPE: %s\n"
                           "NODE_COORD_SECTION\n", n, types[ty]);
        uint64_t s = 77;
        for (int c = 0; c < n; c++)
            len += snprintf(text + len, size - (size_t)len, ty == 0 ? "%d %d.%02d %d.%02d\n"
                                                                     : "%d %d %d %d.%02d\n",
                            c + 1, (int)(rng_next(&s) % 80), (int)(rng_next(&s) % 60),
                            (int)(rng_next(&s) % 170), (int)(rng_next(&s) % 60));
        snprintf(text + len, size - (size_t)len, "EOF\n");
        wt_instance *inst = wt_test_parse(text);
        free(text);
        assert_false(wt_segment_bound_supported(inst));
        int32_t *t = malloc((size_t)n * sizeof *t);
        make_tour(inst, 2, 1, t);
        assert_int_equal(compare_scans(inst, t, 64, 2), wt_2opt_moves_per_scan(n));
        free(t);
        wt_instance_free(inst);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bound_never_rules_out_an_improving_move),
        cmocka_unit_test(test_index_partners_are_every_pair),
        cmocka_unit_test(test_pruned_scan_equals_full_scan),
        cmocka_unit_test(test_pruned_scan_checks_few_pairs_on_good_tours),
        cmocka_unit_test(test_other_metrics_check_every_pair),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
