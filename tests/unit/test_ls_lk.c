/*
 * test_ls_lk.c - the Lin-Kernighan descent (ls/lk.c through the engine of
 * ls/engine.h) and ILS with LK descents.
 *
 * The oracles share no code with src/ls: lengths are recomputed from the
 * tour, and the local optimum is checked by brute force over the moves the
 * descent promises to leave none of: every 2-opt move that makes a city
 * adjacent to one of its candidates with a positive first gain, and every
 * Or-opt move (a segment of 1..3 cities) that puts a segment end next to
 * one of its candidates for less than taking the segment out saves.
 */
#include "test_util.h"

#include <math.h>

#include "algo/ils_common.h"
#include "algo/policy.h"
#include "core/instance.h"
#include "core/rng.h"
#include "core/search_ctl.h"
#include "ls/engine.h"
#include "ls/kicks.h"


static wt_instance *typed(wt_edge_weight_type type, int n, uint64_t seed)
{
    wt_rng rng;
    wt_rng_seed(&rng, seed);
    double *x = malloc(3 * (size_t)n * sizeof *x), *y = x + n, *z = y + n;
    for (int i = 0; i < n; i++) {
        /* clusters as well as spread points: a fifth of the cities sit in
         * a small square, where quadrant lists differ from nearest ones */
        int spread = i % 5 == 0 ? 50 : 5000;
        x[i] = (double)wt_rng_below(&rng, (uint64_t)spread);
        y[i] = (double)wt_rng_below(&rng, (uint64_t)spread);
        z[i] = (double)wt_rng_below(&rng, 1000);
    }
    wt_instance *inst = NULL;
    wt_error err = {0};
    if (wt_instance_from_coords("lk", n, type, x, y, z, &inst, &err) != WT_OK)
        fail_msg("from_coords: %s", err.message);
    free(x);
    return inst;
}

static int64_t d(const wt_instance *inst, int a, int b) { return wt_instance_dist(inst, a, b); }

/* Position of every city of tour. */
static int32_t *positions(const int32_t *tour, int n)
{
    int32_t *pos = malloc((size_t)n * sizeof *pos);
    for (int i = 0; i < n; i++) pos[tour[i]] = i;
    return pos;
}

/* An improving 2-opt move joining a city a to a candidate c: with b the
 * successor (or predecessor) of a, and e the same of c, edges (a b) (c e)
 * become (a c) (b e), where d(a b) > d(a c). */
static bool candidate_2opt_left(const wt_instance *inst, const int32_t *tour, const int32_t *nb,
                                int k)
{
    int n = wt_instance_n(inst);
    int32_t *pos = positions(tour, n);
    bool found = false;
    for (int a = 0; a < n && !found; a++)
        for (int dir = -1; dir <= 1 && !found; dir += 2) {
            int b = tour[(pos[a] + dir + n) % n];
            for (int x = 0; x < k && !found; x++) {
                int c = nb[(size_t)a * (size_t)k + (size_t)x];
                if (c < 0) break;
                int e = tour[(pos[c] + dir + n) % n];
                if (c == b || e == a) continue;
                if (d(inst, a, b) <= d(inst, a, c)) continue;
                found = d(inst, a, b) + d(inst, c, e) - d(inst, a, c) - d(inst, b, e) > 0;
            }
        }
    free(pos);
    return found;
}

/* An improving Or-opt move of the kind the descent looks for: a segment of
 * 1..3 cities with an end s next to a candidate c, joined for less than
 * taking the segment out saves. */
static bool candidate_oropt_left(const wt_instance *inst, const int32_t *tour, const int32_t *nb,
                                 int k)
{
    int n = wt_instance_n(inst);
    int32_t *pos = positions(tour, n);
    bool found = false;
    for (int i = 0; i < n && !found; i++)
        for (int len = 1; len <= 3 && !found; len++) {
            int s1 = tour[i], sl = tour[(i + len - 1) % n];
            int pv = tour[(i - 1 + n) % n], q = tour[(i + len) % n];
            int64_t out = d(inst, pv, s1) + d(inst, sl, q) - d(inst, pv, q);
            for (int end = 0; end < 2 && !found; end++) {
                int s = end ? sl : s1, other = end ? s1 : sl;
                for (int x = 0; x < k && !found; x++) {
                    int c = nb[(size_t)s * (size_t)k + (size_t)x];
                    if (c < 0) break;
                    if ((pos[c] - i + n) % n < len || d(inst, s, c) >= out) continue;
                    for (int side = -1; side <= 1 && !found; side += 2) {
                        int e = tour[(pos[c] + side + n) % n];
                        if ((pos[e] - i + n) % n < len) continue;
                        int64_t delta = d(inst, s, c) + d(inst, other, e) - d(inst, c, e) - out;
                        found = delta < 0;
                    }
                }
            }
        }
    free(pos);
    return found;
}

/* Descends from a random tour with LK moves and checks the result; on_list:
 * on the two-level list (wt_ls_descend_list), which makes no Or-opt
 * moves; breadth: the step's alternatives at each level (NULL: the
 * default's). */
static void check_descent_on(const wt_instance *inst, uint64_t seed, bool alternate, bool on_list,
                             const int *breadth)
{
    int n = wt_instance_n(inst);
    int32_t *tour = malloc((size_t)n * sizeof *tour);
    wt_test_random_tour(n, seed, tour);
    wt_ls_moves m = wt_policy_ls_moves(true);
    m.alternate = alternate;
    if (breadth) memcpy(m.breadth, breadth, sizeof m.breadth);
    wt_ls *w = NULL;
    assert_int_equal(wt_ls_create(inst, tour, NULL, &m, &w, NULL), WT_OK);
    /* A descent from the queue can leave a move whose cities it never
     * looked at again; descents from every city until one makes none. */
    uint64_t moves;
    do {
        moves = 0;
        wt_ls_touch_all(w);
        if (on_list) assert_int_equal(wt_ls_descend_list(w, true, &moves, NULL), WT_OK);
        else assert_int_equal(wt_ls_descend(w, &moves, NULL), WT_OK);
    } while (moves > 0);
    const int32_t *t = wt_ls_order(w);
    assert_int_equal(wt_tour_validate(t, n, NULL), WT_OK);
    assert_int_equal(wt_ls_length(w), wt_tour_length(inst, t));
    assert_true(wt_ls_length(w) <= wt_tour_length(inst, tour));
    int k;
    const int32_t *nb = wt_ls_candidates(w, &k);
    assert_false(candidate_2opt_left(inst, t, nb, k));
    if (!on_list) assert_false(candidate_oropt_left(inst, t, nb, k));
    wt_ls_free(w);
    free(tour);
}

static void check_descent(const wt_instance *inst, uint64_t seed, bool alternate)
{
    check_descent_on(inst, seed, alternate, false, NULL);
}

static void test_descent_is_locally_optimal(void **state)
{
    (void)state;
    const wt_edge_weight_type types[] = {WT_EUC_2D, WT_CEIL_2D, WT_ATT, WT_MAN_2D,
                                         WT_MAX_2D, WT_EUC_3D, WT_GEO};
    const int sizes[] = {8, 9, 13, 60, 400};
    for (size_t t = 0; t < sizeof types / sizeof types[0]; t++)
        for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; z++) {
            if (types[t] == WT_GEO) continue; /* GEO wants degrees; below */
            wt_instance *inst = typed(types[t], sizes[z], 11 + z);
            check_descent(inst, 5 + t, z % 2 == 0);
            wt_instance_free(inst);
        }
    wt_instance *inst = wt_test_random_instance(2000, 3);
    check_descent(inst, 1, false);
    check_descent(inst, 2, true);
    wt_instance_free(inst);
}

/* The step with alternatives at all five levels (every sequential 5-opt
 * move its candidates reach, then one alternative a level): on the array
 * and on the list, every move keeps a valid tour whose kept length is its
 * exact length, and no candidate 2-opt move is left (nor Or-opt move on
 * the array). */
static void test_five_level_step(void **state)
{
    (void)state;
    const int breadth[WT_LK_LEVELS] = {5, 5, 3, 3, 3};
    const int sizes[] = {9, 60, 700};
    for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; z++)
        for (int on_list = 0; on_list < 2; on_list++) {
            wt_instance *inst = wt_test_random_instance(sizes[z], 31 + (uint64_t)z);
            check_descent_on(inst, 8 + (uint64_t)z, false, on_list, breadth);
            wt_instance_free(inst);
        }
}

/* LK on the two-level list: every move's gain exact (the length kept is
 * the tour's), a valid tour, no candidate 2-opt move left; the same tour
 * for the same start. */
static void test_list_descent(void **state)
{
    (void)state;
    const wt_edge_weight_type types[] = {WT_EUC_2D, WT_CEIL_2D, WT_ATT, WT_EUC_3D};
    const int sizes[] = {5, 9, 60, 400};
    for (size_t t = 0; t < sizeof types / sizeof types[0]; t++)
        for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; z++) {
            wt_instance *inst = typed(types[t], sizes[z], 31 + z);
            check_descent_on(inst, 7 + t, false, true, NULL);
            wt_instance_free(inst);
        }
    wt_instance *inst = wt_test_random_instance(5000, 4);
    check_descent_on(inst, 1, false, true, NULL);
    int n = 5000;
    int32_t *tour = malloc((size_t)n * sizeof *tour), *first = malloc((size_t)n * sizeof *first);
    wt_test_random_tour(n, 9, tour);
    wt_ls_moves m = wt_policy_ls_moves(true);
    for (int run = 0; run < 2; run++) {
        wt_ls *w = NULL;
        assert_int_equal(wt_ls_create(inst, tour, NULL, &m, &w, NULL), WT_OK);
        wt_ls_touch_all(w);
        assert_int_equal(wt_ls_descend_list(w, true, NULL, NULL), WT_OK);
        if (run == 0) memcpy(first, wt_ls_order(w), (size_t)n * sizeof *first);
        else assert_memory_equal(first, wt_ls_order(w), (size_t)n * sizeof *first);
        wt_ls_free(w);
    }
    free(tour);
    free(first);
    wt_instance_free(inst);
}

/* The Held-Karp ascent's steps in most ILS runs below (tuning
 * ascent_iterations): those tests are about the search after the ascent,
 * which takes the same paths after 20 steps as after a kick budget's
 * default of 20,000,000 / n (src/algo/policy.h: about 1,000 on 21,000
 * cities), and the default's would be over half of each run's work.
 * test_ils_lk_solve keeps the default. */
enum { ASCENT_STEPS = 20 };

/* Tours searched the large tours' way below (tuning ils_lk_large_min: a
 * first list descent or one on segments, several start tours, segments
 * throughout, as above 20,000 cities by default), so that the tests of
 * that way need not search 20,000 cities. */
enum { LARGE = 2500 };

/* ILS with LK descents on the CPU, `kicks` kicks on two threads. */
static wt_params ils_lk_params(uint64_t kicks)
{
    wt_params p;
    wt_params_defaults(&p);
    p.algorithm = WT_ALGO_ILS;
    p.ils_descent = WT_ILS_LK;
    p.backend = WT_BACKEND_CPU;
    p.kicks = kicks;
    p.threads = 2;
    return p;
}

/* Solves twice: a valid tour of exact length, shorter than the start, the
 * same both times; the first result is left in *a. */
static void solve_twice(const wt_instance *inst, const wt_params *p, wt_result *a)
{
    wt_result b;
    wt_error err = {0};
    if (wt_solve(inst, p, a, &err) != WT_OK) fail_msg("solve: %s", err.message);
    assert_int_equal(wt_tour_validate(a->tour, a->n, NULL), WT_OK);
    assert_int_equal(a->length, wt_tour_length(inst, a->tour));
    assert_true(a->length < a->init_length);
    assert_int_equal(wt_solve(inst, p, &b, NULL), WT_OK);
    assert_memory_equal(a->tour, b.tour, (size_t)a->n * sizeof *a->tour);
    wt_result_free(&b);
}

/* ILS with LK on a large tour, its first descent and kicks on lists (the
 * default) or both on segments (tuning.ils_list_descent_min,
 * ils_merged_min), on the cities renumbered by place (renumber_min). */
static void test_ils_lk_list_first_descent(void **state)
{
    (void)state;
    wt_instance *inst = wt_test_random_instance(LARGE, 8);
    wt_params p = ils_lk_params(500);
    const int64_t list_min[] = {1, WT_TUNING_OFF};
    wt_tuning tune = {.ils_searches = 2, /* one a thread */
                       .ascent_iterations = ASCENT_STEPS,
                       .ils_lk_large_min = LARGE,
                       .renumber_min = 2};
    p.tuning = &tune;
    for (int v = 0; v < 2; v++) {
        tune.ils_list_descent_min = list_min[v];
        /* lists, or segments throughout */
        tune.ils_merged_min = list_min[v] == 1 ? 0 : WT_TUNING_OFF;
        wt_result a;
        solve_twice(inst, &p, &a);
        wt_result_free(&a);
    }
    wt_instance_free(inst);
}

/* The lengths a run's progress callback saw. */
typedef struct seen_lengths {
    int64_t first, least, last;
    int calls, rises;
} seen_lengths;

static int on_progress(const wt_progress *pr, void *user)
{
    seen_lengths *s = user;
    if (s->calls++ == 0) s->first = s->least = pr->best_length;
    if (pr->best_length > s->last && s->calls > 1) s->rises++;
    if (pr->best_length < s->least) s->least = pr->best_length;
    s->last = pr->best_length;
    return 0;
}

/* The segments' progress, the first descent's turns included: every
 * length shown is a tour's the run had, so none is shorter than the
 * result and none rises after a shorter one. */
static void test_segments_progress(void **state)
{
    (void)state;
    wt_instance *inst = wt_test_random_instance(LARGE, 9);
    wt_params p = ils_lk_params(600);
    wt_tuning tune = {.ils_searches = 2,
                       .ascent_iterations = ASCENT_STEPS,
                       .ils_lk_large_min = LARGE,
                       .ils_list_descent_min = WT_TUNING_OFF,
                       .ils_merged_min = WT_TUNING_OFF,
                       .ils_segment_max = 200}; /* several turns a search */
    p.tuning = &tune;
    seen_lengths seen = {0};
    p.progress = on_progress;
    p.progress_user = &seen;
    p.progress_interval_s = 0;
    wt_result r;
    wt_error err = {0};
    if (wt_solve(inst, &p, &r, &err) != WT_OK) fail_msg("solve: %s", err.message);
    assert_int_equal(r.length, wt_tour_length(inst, r.tour));
    assert_true(seen.calls > 10);
    assert_true(seen.least >= r.length);
    assert_int_equal(seen.rises, 0);
    assert_true(seen.first > r.length);
    wt_result_free(&r);
    wt_instance_free(inst);
}

/* n cities on the points of a square lattice of side x side points 10
 * apart, in order, each point taken (holed) with probability 2/3 drawn
 * from seed, else every one. */
static wt_instance *lattice_instance(const char *name, int n, int side, bool holed,
                                     uint64_t seed)
{
    double *x = malloc((size_t)n * sizeof *x), *y = malloc((size_t)n * sizeof *y);
    wt_rng r;
    wt_rng_seed(&r, seed);
    int m = 0;
    for (int i = 0; m < n; i = (i + 1) % (side * side))
        if (!holed || wt_rng_below(&r, 3) < 2) {
            x[m] = 10.0 * (i % side);
            y[m++] = 10.0 * (i / side);
        }
    wt_instance *inst = NULL;
    assert_int_equal(wt_instance_from_coords(name, n, WT_EUC_2D, x, y, NULL, &inst, NULL),
                     WT_OK);
    free(x);
    free(y);
    return inst;
}

/* A square grid of side x side cities 10 apart (every city's nearest
 * tied). */
static wt_instance *grid_instance(int side)
{
    return lattice_instance("grid", side * side, side, false, 0);
}

/* n cities on a lattice with holes: most cities have two nearest at one
 * length, and the holes leave the search work to do. */
static wt_instance *holed_grid_instance(int n, uint64_t seed)
{
    return lattice_instance("holed", n, (int)ceil(sqrt(1.5 * n)) + 1, true, seed);
}

/* The array's first descent from merged start tours (tuning.ils_starts
 * forces them on a small tour): valid, exact, the same tour twice and on
 * one thread as on three (the searches, not the threads, make the run);
 * the other starts' descents count in its steps, and it is a run of its
 * own, not the one start's. */
static void test_ils_lk_merged_starts(void **state)
{
    (void)state;
    wt_instance *inst = wt_test_random_instance(1200, 17);
    wt_params p = ils_lk_params(200);
    p.threads = 3;
    wt_tuning tune = {.ils_searches = 3, .ils_starts = 3};
    p.tuning = &tune;
    wt_result merged, one_thread, alone;
    solve_twice(inst, &p, &merged);
    p.threads = 1;
    assert_int_equal(wt_solve(inst, &p, &one_thread, NULL), WT_OK);
    assert_memory_equal(merged.tour, one_thread.tour, (size_t)inst->n * sizeof *merged.tour);
    tune.ils_starts = WT_TUNING_OFF;
    solve_twice(inst, &p, &alone);
    assert_true(merged.steps > alone.steps);
    assert_memory_not_equal(merged.tour, alone.tour, (size_t)inst->n * sizeof *merged.tour);
    wt_result_free(&merged);
    wt_result_free(&one_thread);
    wt_result_free(&alone);
    wt_instance_free(inst);
}

/* On a large tour the first list descent can also run from
 * Quick-Boruvka sweeps, one a thread (tuning.ils_starts): valid, exact,
 * reproducible on three threads.  By default only where most cities have
 * their two nearest at one length: on uniform random points (next to no
 * ties) the default run is the configured start's alone, as with the
 * sweeps off or a start tour given (the greedy tour); on a grid (all
 * tied) it is the run of one start a thread, whose steps count the moves
 * of every start's descent; where a sweep's descent is kept, the result
 * says so (init_made). */
static void test_ils_lk_starts(void **state)
{
    (void)state;
    wt_instance *inst = wt_test_random_instance(LARGE, 11);
    wt_params p = ils_lk_params(50);
    p.threads = 3;
    /* one a thread, as a time limit makes them; the flip chain, cheaper a
     * descent (the default step's list descent: test_ils_lk_list_first_descent) */
    wt_tuning tune = {.ils_searches = 3, .lk_kopt = WT_TUNING_OFF,
                       .ascent_iterations = ASCENT_STEPS, .ils_lk_large_min = LARGE};
    /* the instance's own numbers, so that the greedy tour given below is
     * the one the search builds (greedy breaks ties by city number) */
    tune.renumber_min = WT_TUNING_OFF;
    p.tuning = &tune;
    wt_result on, off, fallback, given;
    tune.ils_starts = 3;
    solve_twice(inst, &p, &on);
    tune.ils_starts = WT_TUNING_OFF;
    solve_twice(inst, &p, &off);
    tune.ils_starts = 0;
    assert_int_equal(wt_solve(inst, &p, &fallback, NULL), WT_OK);
    assert_memory_equal(fallback.tour, off.tour, (size_t)inst->n * sizeof *off.tour);
    int32_t *start = malloc((size_t)inst->n * sizeof *start);
    assert_int_equal(wt_tour_init(inst, WT_INIT_GREEDY, p.seed, start, NULL), WT_OK);
    tune.ils_starts = 3;
    p.start_tour = start;
    assert_int_equal(wt_solve(inst, &p, &given, NULL), WT_OK);
    assert_memory_equal(given.tour, off.tour, (size_t)inst->n * sizeof *start);
    free(start);
    wt_result_free(&on);
    wt_result_free(&off);
    wt_result_free(&fallback);
    wt_result_free(&given);
    wt_instance_free(inst);

    enum { SIDE = 50 }; /* 2,500 cities */
    wt_instance *grid = grid_instance(SIDE);
    p = ils_lk_params(50);
    p.threads = 3;
    tune.ils_starts = 0;
    tune.ils_searches = 3;
    p.tuning = &tune;
    wt_result tied, three;
    assert_int_equal(wt_solve(grid, &p, &tied, NULL), WT_OK);
    tune.ils_starts = 3;
    assert_int_equal(wt_solve(grid, &p, &three, NULL), WT_OK);
    assert_memory_equal(tied.tour, three.tour, (size_t)SIDE * SIDE * sizeof *tied.tour);
    assert_int_equal(tied.length, wt_tour_length(grid, tied.tour));
    assert_int_equal(tied.steps, three.steps);
    tune.ils_starts = WT_TUNING_OFF; /* the moves of the sweeps' descents count too */
    wt_result alone;
    assert_int_equal(wt_solve(grid, &p, &alone, NULL), WT_OK);
    assert_true(tied.steps > alone.steps);
    assert_int_equal(three.init_made, WT_INIT_GREEDY); /* the greedy start kept */
    wt_result_free(&tied);
    wt_result_free(&three);
    wt_result_free(&alone);
    wt_instance_free(grid);

    /* Where a sweep's descent ends shortest (a holed grid, three starts:
     * the greedy tour and two sweeps, in the instance's own numbers), the
     * result names Quick-Boruvka as its start tour's heuristic. */
    wt_instance *holed = holed_grid_instance(LARGE, 8);
    p = ils_lk_params(20);
    p.threads = 3;
    wt_tuning three_starts = {.ils_starts = 3, .ils_searches = 3,
                              .ascent_iterations = ASCENT_STEPS,
                              .renumber_min = WT_TUNING_OFF, .ils_lk_large_min = LARGE};
    p.tuning = &three_starts;
    wt_result swept, greedy;
    assert_int_equal(wt_solve(holed, &p, &swept, NULL), WT_OK);
    three_starts.ils_starts = WT_TUNING_OFF;
    assert_int_equal(wt_solve(holed, &p, &greedy, NULL), WT_OK);
    assert_int_equal(swept.init_made, WT_INIT_BORUVKA);
    assert_int_equal(greedy.init_made, WT_INIT_GREEDY);
    assert_true(swept.length < greedy.length);
    wt_result_free(&swept);
    wt_result_free(&greedy);
    wt_instance_free(holed);
}

/* Mostly tied instances above WT_LK_KOPT_TIED_MAX_CITIES take the flip
 * chain by default: ils_instance_tied finds a holed grid tied and uniform
 * random points not; on a holed grid just above that size the default run
 * (20 kicks, two threads) gives the tour of the flip chain asked for, and
 * on one of 1,600 cities (below it) the 5-opt step's. */
static void test_ils_lk_tied_flip_chain(void **state)
{
    (void)state;
    wt_instance *grid = holed_grid_instance(WT_LK_KOPT_TIED_MAX_CITIES + 1, 5);
    wt_instance *small = holed_grid_instance(1600, 5);
    wt_instance *uniform = wt_test_random_instance(WT_LK_KOPT_TIED_MAX_CITIES + 1, 3);
    assert_true(ils_instance_tied(grid, 2));
    assert_true(ils_instance_tied(small, 1));
    assert_false(ils_instance_tied(uniform, 2));
    wt_instance_free(uniform);
    wt_instance *sides[] = {grid, small};
    for (int i = 0; i < 2; i++) {
        wt_params p = ils_lk_params(20);
        wt_tuning tune = {.ascent_iterations = ASCENT_STEPS};
        p.tuning = &tune;
        wt_result by_default, flip;
        assert_int_equal(wt_solve(sides[i], &p, &by_default, NULL), WT_OK);
        tune.lk_kopt = i == 0 ? WT_TUNING_OFF : WT_LK_KOPT_DEFAULT;
        assert_int_equal(wt_solve(sides[i], &p, &flip, NULL), WT_OK);
        int n = sides[i]->n;
        assert_int_equal(wt_tour_validate(by_default.tour, n, NULL), WT_OK);
        assert_int_equal(by_default.length, wt_tour_length(sides[i], by_default.tour));
        assert_memory_equal(by_default.tour, flip.tour, (size_t)n * sizeof *flip.tour);
        wt_result_free(&by_default);
        wt_result_free(&flip);
    }
    wt_instance_free(grid);
    wt_instance_free(small);
}

/* The k-opt step's short runs where ties abound (a time limit under 10 ms
 * of thread time a city: wt_policy_lk_tied_short) descend first from one
 * start tour a search (up to WT_ILS_TIED_STARTS_SEARCHES_MAX), side by
 * side on the array, the shortest kept: on a grid of 2,500 cities, 2
 * threads, 8 s and 20 kicks (the kicks end it long before the limit), a
 * valid tour of exact length; where no run was cut by the limit, the
 * default's is the run of 2 starts (tuning.ils_starts), whose steps count
 * every start's descent, more than with the starts off. */
static void test_ils_lk_tied_starts(void **state)
{
    (void)state;
    enum { SIDE = 50 };
    wt_instance *grid = grid_instance(SIDE);
    wt_params p = ils_lk_params(20);
    p.threads = 2;
    p.time_limit_s = 8;
    wt_tuning tune = {.ils_searches = 2};
    p.tuning = &tune;
    wt_result starts, two, alone;
    assert_int_equal(wt_solve(grid, &p, &starts, NULL), WT_OK);
    tune.ils_starts = 2;
    assert_int_equal(wt_solve(grid, &p, &two, NULL), WT_OK);
    tune.ils_starts = WT_TUNING_OFF;
    assert_int_equal(wt_solve(grid, &p, &alone, NULL), WT_OK);
    const wt_result *all[] = {&starts, &two, &alone};
    bool cut = false;
    for (int i = 0; i < 3; i++) {
        assert_int_equal(wt_tour_validate(all[i]->tour, all[i]->n, NULL), WT_OK);
        assert_int_equal(all[i]->length, wt_tour_length(grid, all[i]->tour));
        cut |= all[i]->stop != WT_STOP_DONE;
    }
    if (!cut) {
        assert_memory_equal(starts.tour, two.tour, (size_t)SIDE * SIDE * sizeof *starts.tour);
        assert_true(starts.steps > alone.steps);
    }
    wt_result_free(&starts);
    wt_result_free(&two);
    wt_result_free(&alone);
    wt_instance_free(grid);
}

/* ILS with LK on a large tour kicking merged replicas on lists
 * (tuning.ils_merged_min): one search, and three whose changes are merged
 * every round (short rounds, so that several merges run); valid, exact,
 * reproducible, and the kicks shorten the first descent's tour. */
static void test_ils_lk_merged_replicas(void **state)
{
    (void)state;
    wt_instance *inst = wt_test_random_instance(LARGE, 9);
    wt_params p = ils_lk_params(1); /* about the first descent alone */
    /* the flip chain, cheaper a kick (merged replicas with the default
     * step: test_ils.c, test_ils_same_tour_on_any_threads) */
    wt_tuning tune = {.lk_kopt = WT_TUNING_OFF, .ascent_iterations = ASCENT_STEPS,
                      .ils_lk_large_min = LARGE};
    p.tuning = &tune;
    wt_result none;
    p.threads = 1;
    assert_int_equal(wt_solve(inst, &p, &none, NULL), WT_OK);
    tune.ils_merged_min = 1;
    tune.ils_round_kicks = 100;
    const int threads[] = {1, 3};
    for (int v = 0; v < 2; v++) {
        p.threads = threads[v];
        tune.ils_searches = threads[v];
        p.kicks = 600;
        wt_result a;
        solve_twice(inst, &p, &a);
        assert_true(a.length < none.length);
        assert_int_equal(a.ils.kicks, 600u);
        wt_result_free(&a);
    }
    wt_result_free(&none);
    wt_instance_free(inst);
}

/* The kicks' repairs by the deeper LK step, as from 50,000 cities
 * (wt_policy_lk_deep_moves; here tuned on a large tour of fewer), the
 * first descent with the default breadth: valid, exact, reproducible. */
static void test_ils_lk_broad_repairs(void **state)
{
    (void)state;
    wt_instance *inst = wt_test_random_instance(LARGE, 10);
    wt_params p = ils_lk_params(400);
    wt_tuning tune = {.ascent_iterations = ASCENT_STEPS,
                      .ils_lk_large_min = LARGE,
                      .lk_depth = WT_ILS_LK_DEEP_DEPTH,
                      .lk_breadth1 = WT_ILS_LK_DEEP_BREADTH1,
                      .lk_breadth2 = WT_ILS_LK_DEEP_BREADTH2,
                      .lk_breadth3 = WT_ILS_LK_DEEP_BREADTH3,
                      .lk_breadth4 = WT_ILS_LK_DEEP_BREADTH4,
                      .lk_breadth5 = WT_ILS_LK_DEEP_BREADTH5};
    p.tuning = &tune;
    wt_result a;
    solve_twice(inst, &p, &a);
    assert_int_equal(a.ils.kicks, 400u);
    wt_result_free(&a);
    wt_instance_free(inst);
}

/* Walk kicks (and segment kicks), LK repairs, kept or undone exactly; the
 * length follows every change exactly. */
static void test_kicks_undo_exactly(void **state)
{
    (void)state;
    const int sizes[] = {8, 12, 40, 500};
    for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; z++) {
        int n = sizes[z];
        wt_instance *inst = typed(WT_EUC_2D, n, 40 + z);
        int32_t *tour = malloc((size_t)n * sizeof *tour), *kept = malloc((size_t)n * sizeof *kept);
        wt_test_random_tour(n, 9, tour);
        wt_ls_moves m = wt_policy_ls_moves(true);
        m.alternate = z % 2 == 1;
        wt_ls *w = NULL;
        assert_int_equal(wt_ls_create(inst, tour, NULL, &m, &w, NULL), WT_OK);
        wt_ls_touch_all(w);
        assert_int_equal(wt_ls_descend(w, NULL, NULL), WT_OK);
        wt_ls_commit(w);
        memcpy(kept, wt_ls_order(w), (size_t)n * sizeof *kept);
        int64_t kept_len = wt_ls_length(w);
        for (uint64_t k = 0; k < 400; k++) {
            if (k % 2) {
                if (!wt_ls_walk_kick(w, 3, k, 1 + (int)(k % 20))) continue;
            } else {
                int p[3];
                assert_true(wt_ls_kick_points(7, k, n, p));
                wt_ls_double_bridge(w, p[0], p[1], p[2]);
            }
            assert_int_equal(wt_ls_length(w), wt_tour_length(inst, wt_ls_order(w)));
            assert_int_equal(wt_ls_descend(w, NULL, NULL), WT_OK);
            const int32_t *t = wt_ls_order(w);
            assert_int_equal(wt_tour_validate(t, n, NULL), WT_OK);
            assert_int_equal(wt_ls_length(w), wt_tour_length(inst, t));
            if (wt_ls_length(w) < kept_len) {
                wt_ls_commit(w);
                memcpy(kept, t, (size_t)n * sizeof *kept);
                kept_len = wt_ls_length(w);
            } else {
                wt_ls_undo(w, kept_len);
                assert_memory_equal(wt_ls_order(w), kept, (size_t)n * sizeof *kept);
            }
        }
        wt_ls_free(w);
        free(tour);
        free(kept);
        wt_instance_free(inst);
    }
}

/* tour rotated to start at city 0, in the direction of its smaller
 * neighbour there: equal cycles give equal arrays. */
static void canonical(const int32_t *tour, int n, int32_t *out)
{
    int z = 0;
    while (tour[z] != 0) z++;
    int step = tour[(z + 1) % n] < tour[(z + n - 1) % n] ? 1 : n - 1;
    for (int i = 0; i < n; i++) out[i] = tour[(z + (size_t)i * step) % n];
}

/* Kicks on the whole tour held as a list: the length stays exact, the
 * tour valid, undo restores the committed cycle exactly, and closing the
 * list gives back the committed tour. */
static void test_list_kicks_undo_exactly(void **state)
{
    (void)state;
    const int sizes[] = {8, 12, 40, 700};
    for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; z++) {
        int n = sizes[z];
        wt_instance *inst = typed(WT_EUC_2D, n, 60 + z);
        int32_t *tour = malloc((size_t)n * sizeof *tour), *now = malloc((size_t)n * sizeof *now);
        int32_t *kept = malloc((size_t)n * sizeof *kept), *c = malloc((size_t)n * sizeof *c);
        wt_test_random_tour(n, 5, tour);
        wt_ls_moves m = wt_policy_ls_moves(true);
        wt_ls *w = NULL;
        assert_int_equal(wt_ls_create(inst, tour, NULL, &m, &w, NULL), WT_OK);
        assert_int_equal(wt_ls_list_open(w, NULL), WT_OK);
        wt_ls_touch_all(w);
        assert_int_equal(wt_ls_descend(w, NULL, NULL), WT_OK);
        wt_ls_commit(w);
        wt_ls_walk(w, now);
        canonical(now, n, kept);
        int64_t kept_len = wt_ls_length(w), kept_count = 0;
        for (uint64_t k = 0; k < 600; k++) {
            if (!wt_ls_walk_kick(w, 11, k, 1 + (int)(k % 30))) continue;
            wt_ls_walk(w, now);
            assert_int_equal(wt_tour_validate(now, n, NULL), WT_OK);
            assert_int_equal(wt_ls_length(w), wt_tour_length(inst, now));
            assert_int_equal(wt_ls_descend(w, NULL, NULL), WT_OK);
            wt_ls_walk(w, now);
            assert_int_equal(wt_tour_validate(now, n, NULL), WT_OK);
            assert_int_equal(wt_ls_length(w), wt_tour_length(inst, now));
            if (wt_ls_length(w) < kept_len) {
                wt_ls_commit(w);
                canonical(now, n, kept);
                kept_len = wt_ls_length(w);
                kept_count++;
            } else {
                wt_ls_undo(w, kept_len);
                wt_ls_walk(w, now);
                canonical(now, n, c);
                assert_memory_equal(c, kept, (size_t)n * sizeof *kept);
            }
        }
        if (n >= 700) assert_true(kept_count > 0); /* kicks do find better tours */
        wt_ls_list_close(w);
        canonical(wt_ls_order(w), n, c);
        assert_memory_equal(c, kept, (size_t)n * sizeof *kept);
        assert_int_equal(wt_ls_length(w), wt_tour_length(inst, wt_ls_order(w)));
        wt_ls_free(w);
        free(tour);
        free(now);
        free(kept);
        free(c);
        wt_instance_free(inst);
    }
}

/* Segment engines with LK: the path's ends stay, every city stays on it. */
static void test_paths_keep_their_ends(void **state)
{
    (void)state;
    int n = 3000, m = 700;
    wt_instance *inst = typed(WT_EUC_2D, n, 77);
    int32_t *tour = malloc((size_t)n * sizeof *tour), *where = malloc((size_t)n * sizeof *where);
    wt_test_random_tour(n, 4, tour);
    wt_ls_moves mv = wt_policy_ls_moves(true);
    mv.alternate = true;
    wt_ls *whole = NULL, *w = NULL;
    assert_int_equal(wt_ls_create(inst, tour, NULL, &mv, &whole, NULL), WT_OK);
    assert_int_equal(wt_ls_create_paths(whole, m, &w, NULL), WT_OK);
    for (int i = 0; i < n; i++) where[tour[i]] = i;
    int start = n - 300; /* the path wraps around position 0 */
    int first = tour[start], last = tour[(start + m - 1) % n];
    wt_ls_adopt_path(w, tour, where, n, start, m);
    int64_t before = wt_ls_length(w);
    wt_ls_touch_all(w);
    assert_int_equal(wt_ls_descend(w, NULL, NULL), WT_OK);
    for (uint64_t k = 0; k < 200; k++) {
        wt_ls_commit(w);
        int64_t len = wt_ls_length(w);
        if (wt_ls_walk_kick(w, 5, k, 8)) {
            assert_int_equal(wt_ls_descend(w, NULL, NULL), WT_OK);
            if (wt_ls_length(w) >= len) wt_ls_undo(w, len);
        }
    }
    assert_true(wt_ls_length(w) < before);
    int64_t gain = before - wt_ls_length(w);
    int64_t whole_before = wt_tour_length(inst, tour);
    wt_ls_store_path(w, tour, n);
    assert_int_equal(wt_tour_validate(tour, n, NULL), WT_OK);
    assert_int_equal(tour[start], first);
    assert_int_equal(tour[(start + m - 1) % n], last);
    assert_int_equal(wt_tour_length(inst, tour), whole_before - gain);
    wt_ls_free(w);
    wt_ls_free(whole);
    free(tour);
    free(where);
    wt_instance_free(inst);
}

/* ILS with LK descents through wt_solve: valid, exact, reproducible, and
 * closer than the start tour; a time limit keeps the best tour (never
 * longer than the start). */
static void test_ils_lk_solve(void **state)
{
    (void)state;
    wt_instance *inst = wt_test_random_instance(2000, 21);
    wt_params p = ils_lk_params(300);
    wt_result a, b;
    solve_twice(inst, &p, &a);
    assert_int_equal(a.ils.descent, WT_ILS_LK);
    p.kicks = 0;
    p.time_limit_s = 0.3;
    assert_int_equal(wt_solve(inst, &p, &b, NULL), WT_OK);
    assert_int_equal(wt_tour_validate(b.tour, b.n, NULL), WT_OK);
    assert_int_equal(b.length, wt_tour_length(inst, b.tour));
    assert_true(b.length <= b.init_length); /* how far it got depends on the load */
    wt_result_free(&b);
    wt_result_free(&a);
    wt_instance_free(inst);
}

/* The start tour remade from the alpha lists (tuning.lk_alpha_start): a
 * valid tour of exact length, the same twice, not the default's; a given
 * start tour is kept as given (the same tour with it or without). */
static void test_ils_lk_alpha_start(void **state)
{
    (void)state;
    enum { ALPHA_N = 2000 };
    wt_instance *inst = wt_test_random_instance(ALPHA_N, 23);
    wt_params p = ils_lk_params(50);
    wt_tuning tune = {.ascent_iterations = ASCENT_STEPS};
    p.tuning = &tune;
    wt_result by_default, remade, given, given_remade;
    assert_int_equal(wt_solve(inst, &p, &by_default, NULL), WT_OK);
    tune.lk_alpha_start = 1;
    solve_twice(inst, &p, &remade);
    assert_memory_not_equal(remade.tour, by_default.tour, ALPHA_N * sizeof *remade.tour);
    int32_t *start = malloc(ALPHA_N * sizeof *start);
    assert_int_equal(wt_tour_init(inst, WT_INIT_GREEDY, p.seed, start, NULL), WT_OK);
    p.start_tour = start;
    assert_int_equal(wt_solve(inst, &p, &given_remade, NULL), WT_OK);
    tune.lk_alpha_start = 0;
    assert_int_equal(wt_solve(inst, &p, &given, NULL), WT_OK);
    assert_memory_equal(given.tour, given_remade.tour, ALPHA_N * sizeof *given.tour);
    free(start);
    wt_result_free(&by_default);
    wt_result_free(&remade);
    wt_result_free(&given);
    wt_result_free(&given_remade);
    wt_instance_free(inst);
}

/* A stop that comes while the candidate lists are built leaves an engine
 * without moves: its descent keeps the tour as it is, exactly. */
static void test_stop_during_set_up(void **state)
{
    (void)state;
    int n = 5000;
    wt_instance *inst = wt_test_random_instance(n, 8);
    int32_t *tour = malloc((size_t)n * sizeof *tour);
    wt_test_random_tour(n, 2, tour);
    wt_params p;
    wt_params_defaults(&p);
    p.algorithm = WT_ALGO_2OPT; /* the default is ils */
    volatile int stop = 1;
    p.stop_flag = &stop;
    wt_search_ctl ctl;
    wt_ctl_init(&ctl, &p);
    for (int lk = 0; lk < 2; lk++) {
        wt_ls_moves m = wt_policy_ls_moves(lk);
        wt_ls *w = NULL;
        assert_int_equal(wt_ls_create(inst, tour, &ctl, &m, &w, NULL), WT_OK);
        wt_ls_touch_all(w);
        uint64_t moves = 0;
        assert_int_equal(wt_ls_descend(w, &moves, NULL), WT_OK);
        assert_int_equal(moves, 0);
        assert_memory_equal(wt_ls_order(w), tour, (size_t)n * sizeof *tour);
        assert_int_equal(wt_ls_length(w), wt_tour_length(inst, tour));
        wt_ls_free(w);
    }
    free(tour);
    wt_instance_free(inst);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_descent_is_locally_optimal),
        cmocka_unit_test(test_list_descent),
        cmocka_unit_test(test_five_level_step),
        cmocka_unit_test(test_ils_lk_list_first_descent),
        cmocka_unit_test(test_segments_progress),
        cmocka_unit_test(test_ils_lk_merged_starts),
        cmocka_unit_test(test_ils_lk_starts),
        cmocka_unit_test(test_ils_lk_tied_starts),
        cmocka_unit_test(test_ils_lk_tied_flip_chain),
        cmocka_unit_test(test_ils_lk_merged_replicas),
        cmocka_unit_test(test_ils_lk_broad_repairs),
        cmocka_unit_test(test_kicks_undo_exactly),
        cmocka_unit_test(test_list_kicks_undo_exactly),
        cmocka_unit_test(test_paths_keep_their_ends),
        cmocka_unit_test(test_ils_lk_solve),
        cmocka_unit_test(test_ils_lk_alpha_start),
        cmocka_unit_test(test_stop_during_set_up),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
