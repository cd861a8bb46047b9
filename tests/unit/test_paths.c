/*
 * test_paths.c - open paths, fixed ends and fixed edges (issue 42).
 *
 * FIXED_EDGES_SECTION is read (pairs, -1) and its errors name file:line;
 * every algorithm that accepts fixed edges returns a tour that holds them
 * (ILS with LK or local descents, all thread counts, small instances
 * solved exactly), the others refuse them (WT_STATUS_UNSUPPORTED); open
 * paths are valid permutations whose length, recomputed here, leaves out
 * the closing edge, with their ends where asked and never longer than the
 * closed tour of the same run less its longest edge.  Kick budgets only,
 * no time limits.
 */
#include "test_util.h"

#include "core/fixed_edges.h"
#include "core/instance.h"
#include "warptour_experimental.h"

/* berlin52's header and cities as TSPLIB text, with `extra` (a section)
 * before EOF. */
static char *with_section(int n, uint64_t seed, const char *extra)
{
    wt_rng rng;
    wt_rng_seed(&rng, seed);
    size_t cap = 256 + (size_t)n * 40 + strlen(extra);
    char *text = malloc(cap);
    size_t len = (size_t)snprintf(text, cap, "NAME: t%d\nTYPE: TSP\nDIMENSION: %d\n"
                                  "EDGE_WEIGHT_TYPE: EUC_2D\nNODE_COORD_SECTION\n", n, n);
    for (int i = 0; i < n; i++)
        len += (size_t)snprintf(text + len, cap - len, "%d %d %d\n", i + 1,
                                (int)wt_rng_below(&rng, 1000), (int)wt_rng_below(&rng, 1000));
    snprintf(text + len, cap - len, "%sEOF\n", extra);
    return text;
}

static wt_status parse_text(const char *text, wt_instance **inst, wt_error *err)
{
    return wt_instance_parse_tsplib(text, strlen(text), "f.tsp", inst, err);
}

/* Whether tour (n cities) is a permutation. */
static bool is_permutation(const int32_t *tour, int n)
{
    bool *seen = calloc((size_t)n, 1), ok = true;
    for (int i = 0; i < n && ok; i++) {
        ok = tour[i] >= 0 && tour[i] < n && !seen[tour[i]];
        if (ok) seen[tour[i]] = true;
    }
    free(seen);
    return ok;
}

/* Whether cities a and b follow each other in tour (cyclically unless
 * open). */
static bool adjacent(const int32_t *tour, int n, int a, int b, bool open)
{
    for (int i = 0; i < n; i++) {
        int j = i + 1 == n ? 0 : i + 1;
        if (open && j == 0) break;
        if ((tour[i] == a && tour[j] == b) || (tour[i] == b && tour[j] == a)) return true;
    }
    return false;
}

static int64_t path_length(const wt_instance *inst, const int32_t *tour, int n)
{
    int64_t s = 0;
    for (int i = 0; i + 1 < n; i++) s += wt_instance_dist(inst, tour[i], tour[i + 1]);
    return s;
}

static void assert_holds_fixed(const wt_instance *inst, const wt_result *r)
{
    const int32_t *pairs;
    int count = wt_instance_fixed_edges(inst, &pairs);
    for (int i = 0; i < count; i++)
        assert_true(adjacent(r->tour, r->n, pairs[2 * i], pairs[2 * i + 1], r->open));
}

static const char fixed5[] = "FIXED_EDGES_SECTION\n1 2\n2 3\n10 40\n52 1\n7 30\n-1\n";

static void test_parse_fixed_edges(void **state)
{
    (void)state;
    char *text = with_section(52, 1, fixed5);
    wt_instance *inst = wt_test_parse(text);
    const int32_t *pairs;
    assert_int_equal(wt_instance_fixed_edges(inst, &pairs), 5);
    assert_int_equal(pairs[0], 0);
    assert_int_equal(pairs[1], 1);
    assert_int_equal(pairs[8], 6);
    assert_int_equal(pairs[9], 29);
    wt_instance_free(inst);
    free(text);
}

/* Each bad section, the line its message must name and words it holds. */
static void test_parse_fixed_edges_errors(void **state)
{
    (void)state;
    /* 5 header lines and 10 city lines: the section's line is 16. */
    const struct { const char *section; int line; const char *words; } bad[] = {
        {"FIXED_EDGES_SECTION\n1 2\n3\n-1\n", 18, "expected a fixed edge"},
        {"FIXED_EDGES_SECTION\n1 x\n-1\n", 17, "expected a fixed edge"},
        {"FIXED_EDGES_SECTION\n1 2\n2 11\n-1\n", 18, "city 11 is not one of the cities"},
        {"FIXED_EDGES_SECTION\n0 2\n-1\n", 17, "city 0 is not one"},
        {"FIXED_EDGES_SECTION\n4 4\n-1\n", 17, "to itself"},
        {"FIXED_EDGES_SECTION\n1 2\n3 4\n2 1\n-1\n", 19, "fixed twice"},
        {"FIXED_EDGES_SECTION\n1 2\n1 3\n1 4\n-1\n", 19, "third fixed edge"},
        {"FIXED_EDGES_SECTION\n1 2\n2 3\n3 1\n-1\n", 19, "closes a cycle of 3 cities"},
        {"FIXED_EDGES_SECTION\n1 2\n", 18, "does not end"},
        {"FIXED_EDGES_SECTION\n1 2\n-1\nFIXED_EDGES_SECTION\n-1\n", 19, "a second"},
    };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        char *text = with_section(10, 2, bad[k].section);
        wt_instance *inst = NULL;
        wt_error err = {0};
        assert_int_equal(parse_text(text, &inst, &err), WT_STATUS_PARSE);
        char where[32];
        snprintf(where, sizeof where, "f.tsp:%d: ", bad[k].line);
        if (!strstr(err.message, where) || !strstr(err.message, bad[k].words))
            fail_msg("case %zu: '%s' lacks '%s' or '%s'", k, err.message, where, bad[k].words);
        free(text);
    }
    /* A Hamiltonian cycle of fixed edges is a tour, not an error. */
    char *text = with_section(4, 3, "FIXED_EDGES_SECTION\n1 2\n2 3\n3 4\n4 1\n-1\n");
    wt_instance *inst = wt_test_parse(text);
    assert_int_equal(wt_instance_fixed_edges(inst, NULL), 4);
    wt_instance_free(inst);
    free(text);
}

static void test_set_fixed_edges(void **state)
{
    (void)state;
    wt_instance *inst = wt_test_random_instance(20, 4);
    wt_error err = {0};
    const int32_t ok[] = {0, 5, 5, 9}, loop[] = {0, 1, 1, 2, 2, 0}, far[] = {0, 20};
    assert_int_equal(wt_instance_set_fixed_edges(inst, ok, 2, &err), WT_OK);
    assert_int_equal(wt_instance_fixed_edges(inst, NULL), 2);
    assert_int_equal(wt_instance_set_fixed_edges(inst, loop, 3, &err),
                     WT_STATUS_INVALID_ARGUMENT);
    assert_non_null(strstr(err.message, "edge 3"));
    assert_int_equal(wt_instance_set_fixed_edges(inst, far, 1, &err),
                     WT_STATUS_INVALID_ARGUMENT);
    assert_int_equal(wt_instance_set_fixed_edges(inst, NULL, 1, &err),
                     WT_STATUS_INVALID_ARGUMENT);
    assert_int_equal(wt_instance_fixed_edges(inst, NULL), 2); /* kept */
    assert_int_equal(wt_instance_set_fixed_edges(inst, NULL, 0, &err), WT_OK);
    assert_int_equal(wt_instance_fixed_edges(inst, NULL), 0);
    wt_instance_free(inst);
}

/* Two cities made neighbours by the cheaper of the two 2-opt moves that
 * join them: every pair of a random tour of 40 cities, against both moves
 * made by hand. */
static void test_make_neighbours(void **state)
{
    (void)state;
    int n = 40;
    wt_instance *inst = wt_test_random_instance(n, 5);
    int32_t tour[40], t[40], alt[40];
    wt_test_random_tour(n, 9, tour);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            if (i == j) continue;
            int a = tour[i], b = tour[j];
            memcpy(t, tour, sizeof t);
            wt_tour_make_neighbours(inst, t, n, a, b);
            assert_true(is_permutation(t, n));
            assert_true(adjacent(t, n, a, b, false));
            int k = (j - i + n) % n;
            if (k == 1 || k == n - 1) {
                assert_memory_equal(t, tour, sizeof t);
                continue;
            }
            int64_t best = INT64_MAX;
            for (int move = 0; move < 2; move++) { /* places k..n-1 or 1..k from a, reversed */
                for (int q = 0; q < n; q++) alt[q] = tour[(i + q) % n];
                for (int lo = move ? 1 : k, hi = move ? k : n - 1; lo < hi; lo++, hi--) {
                    int32_t c = alt[lo];
                    alt[lo] = alt[hi];
                    alt[hi] = c;
                }
                int64_t len = wt_tour_length(inst, alt);
                if (len < best) best = len;
            }
            assert_int_equal(wt_tour_length(inst, t), best);
        }
    wt_instance_free(inst);
}

static void test_force_fixed(void **state)
{
    (void)state;
    enum { N = 30 };
    const int32_t pairs[] = {3, 17, 17, 8, 20, 2, 29, 0, 0, 11};
    int32_t adj[2 * N], tour[N], out[N];
    unsigned char placed[N];
    wt_fixed_adjacency(pairs, 5, N, adj);
    for (uint64_t seed = 1; seed < 50; seed++) {
        wt_test_random_tour(N, seed, tour);
        wt_tour_force_fixed(tour, N, adj, out, placed);
        assert_true(is_permutation(tour, N));
        assert_true(wt_tour_holds_fixed(tour, N, adj));
        /* A tour that holds them already keeps its edges. */
        int32_t again[N];
        memcpy(again, tour, sizeof again);
        wt_tour_force_fixed(again, N, adj, out, placed);
        for (int i = 0; i < N; i++)
            assert_true(adjacent(again, N, tour[i], tour[(i + 1) % N], false));
    }
}

/* Every algorithm and descent: ILS with LK or local descents keeps the
 * fixed edges (on 1 and 2 threads, auto and cpu backends), the others
 * refuse the instance. */
static void test_fixed_edges_kept_or_refused(void **state)
{
    (void)state;
    const int sizes[] = {7, 9, 52, 300};
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        int n = sizes[s];
        const char *section = n >= 52 ? fixed5 : "FIXED_EDGES_SECTION\n1 2\n2 3\n5 7\n-1\n";
        char *text = with_section(n, 10 + (uint64_t)n, section);
        wt_instance *inst = wt_test_parse(text);
        free(text);
        for (int algo = WT_ALGO_2OPT; wt_algorithm_name((wt_algorithm)algo); algo++)
            for (int d = WT_ILS_AUTO; wt_ils_descent_name((wt_ils_descent)d); d++)
                for (int threads = 1; threads <= 2; threads++) {
                    if (algo != WT_ALGO_ILS && d != WT_ILS_AUTO) continue;
                    wt_params p;
                    wt_params_defaults(&p);
                    p.algorithm = (wt_algorithm)algo;
                    p.ils_descent = (wt_ils_descent)d;
                    p.threads = threads;
                    p.kicks = 300;
                    p.restarts = 2;
                    p.sa_t_start = 10;
                    p.sa_t_end = 5;
                    p.backend = threads == 1 ? WT_BACKEND_AUTO : WT_BACKEND_CPU;
                    wt_result r;
                    wt_error err = {0};
                    wt_status st = wt_solve(inst, &p, &r, &err);
                    bool keeps = algo == WT_ALGO_ILS &&
                                 (d == WT_ILS_AUTO || d == WT_ILS_LK || d == WT_ILS_LOCAL);
                    if (!keeps) {
                        assert_int_equal(st, WT_STATUS_UNSUPPORTED);
                        assert_non_null(strstr(err.message, "keeps fixed edges"));
                        continue;
                    }
                    if (st != WT_OK) fail_msg("n %d: %s", n, err.message);
                    assert_true(is_permutation(r.tour, n));
                    assert_holds_fixed(inst, &r);
                    assert_int_equal(r.length, wt_tour_length(inst, r.tour));
                    wt_result_free(&r);
                }
        /* The GPU's searches: refused by name. */
        wt_params p;
        wt_params_defaults(&p);
        p.algorithm = WT_ALGO_ILS;
        p.backend = WT_BACKEND_CUDA;
        wt_result r;
        wt_error err = {0};
        assert_int_equal(wt_solve(inst, &p, &r, &err), WT_STATUS_UNSUPPORTED);
        assert_non_null(strstr(err.message, "host"));
        wt_instance_free(inst);
    }
}

/* The exact answer for a few cities: every order tried. */
static void test_fixed_edges_small_exact(void **state)
{
    (void)state;
    char *text = with_section(8, 77, "FIXED_EDGES_SECTION\n1 5\n2 6\n-1\n");
    wt_instance *inst = wt_test_parse(text);
    free(text);
    int perm[8] = {0, 1, 2, 3, 4, 5, 6, 7};
    int64_t best = INT64_MAX;
    /* Brute force over orders from city 0 (lexicographic next permutation). */
    for (;;) {
        bool ok = adjacent((int32_t[]){perm[0], perm[1], perm[2], perm[3], perm[4], perm[5],
                                       perm[6], perm[7]}, 8, 0, 4, false) &&
                  adjacent((int32_t[]){perm[0], perm[1], perm[2], perm[3], perm[4], perm[5],
                                       perm[6], perm[7]}, 8, 1, 5, false);
        if (ok) {
            int64_t len = 0;
            for (int i = 0; i < 8; i++) len += wt_instance_dist(inst, perm[i], perm[(i + 1) % 8]);
            if (len < best) best = len;
        }
        int i = 6;
        while (i >= 1 && perm[i] > perm[i + 1]) i--;
        if (i < 1) break;
        int j = 7;
        while (perm[j] < perm[i]) j--;
        int t = perm[i]; perm[i] = perm[j]; perm[j] = t;
        for (int a = i + 1, b = 7; a < b; a++, b--) { t = perm[a]; perm[a] = perm[b]; perm[b] = t; }
    }
    wt_params p;
    wt_params_defaults(&p);
    p.algorithm = WT_ALGO_ILS;
    wt_result r;
    wt_error err = {0};
    assert_int_equal(wt_solve(inst, &p, &r, &err), WT_OK);
    assert_holds_fixed(inst, &r);
    assert_int_equal(r.length, best);
    wt_result_free(&r);
    wt_instance_free(inst);
}

/* Longest edge of a closed tour. */
static int64_t longest_edge(const wt_instance *inst, const int32_t *tour, int n)
{
    int64_t m = 0;
    for (int i = 0; i < n; i++) {
        int64_t d = wt_instance_dist(inst, tour[i], tour[(i + 1) % n]);
        if (d > m) m = d;
    }
    return m;
}

static void solve_ok(const wt_instance *inst, const wt_params *p, wt_result *r)
{
    wt_error err = {0};
    if (wt_solve(inst, p, r, &err) != WT_OK) fail_msg("%s", err.message);
    assert_true(is_permutation(r->tour, r->n));
}

static void test_open_paths(void **state)
{
    (void)state;
    const int sizes[] = {9, 60, 400};
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        int n = sizes[s];
        wt_instance *inst = wt_test_random_instance(n, 31 + (uint64_t)n);
        for (int threads = 1; threads <= 2; threads++) {
            wt_params p;
            wt_params_defaults(&p);
            p.algorithm = WT_ALGO_ILS;
            p.kicks = 200;
            p.threads = threads;
            wt_result closed, path, ends, from, to, rot;
            solve_ok(inst, &p, &closed);
            assert_false(closed.open);
            p.open = true;
            solve_ok(inst, &p, &path);
            assert_true(path.open);
            assert_int_equal(path.length, path_length(inst, path.tour, n));
            /* never longer than the closed tour less its longest edge */
            assert_true(path.length <=
                        closed.length - longest_edge(inst, closed.tour, n));
            assert_int_equal(path.lower_bound, -1);
            /* both ends */
            p.start_city = 3;
            p.end_city = n - 2;
            solve_ok(inst, &p, &ends);
            assert_int_equal(ends.tour[0], 3);
            assert_int_equal(ends.tour[n - 1], n - 2);
            assert_int_equal(ends.length, path_length(inst, ends.tour, n));
            /* the start alone */
            p.end_city = -1;
            solve_ok(inst, &p, &from);
            assert_int_equal(from.tour[0], 3);
            assert_int_equal(from.length, path_length(inst, from.tour, n));
            assert_true(from.length <= closed.length - wt_instance_dist(inst, 3, from.tour[n - 1]));
            /* the end alone implies open */
            p.open = false;
            p.start_city = -1;
            p.end_city = 5;
            solve_ok(inst, &p, &to);
            assert_true(to.open);
            assert_int_equal(to.tour[n - 1], 5);
            assert_int_equal(to.length, path_length(inst, to.tour, n));
            /* a start on a closed tour: the same tour, rotated */
            p.end_city = -1;
            p.start_city = 7;
            solve_ok(inst, &p, &rot);
            assert_false(rot.open);
            assert_int_equal(rot.tour[0], 7);
            assert_int_equal(rot.length, closed.length);
            for (int i = 0; i < n; i++)
                assert_true(adjacent(rot.tour, n, closed.tour[i], closed.tour[(i + 1) % n],
                                     false));
            wt_result_free(&closed);
            wt_result_free(&path);
            wt_result_free(&ends);
            wt_result_free(&from);
            wt_result_free(&to);
            wt_result_free(&rot);
        }
        wt_instance_free(inst);
    }
}

/* An open path with fixed edges; ends that cannot go with them. */
static void test_open_with_fixed_edges(void **state)
{
    (void)state;
    char *text = with_section(52, 5, fixed5);
    wt_instance *inst = wt_test_parse(text);
    free(text);
    wt_params p;
    wt_params_defaults(&p);
    p.algorithm = WT_ALGO_ILS;
    p.kicks = 200;
    p.open = true;
    wt_result r;
    solve_ok(inst, &p, &r);
    assert_holds_fixed(inst, &r);
    assert_int_equal(r.length, path_length(inst, r.tour, 52));
    wt_result_free(&r);
    p.start_city = 2; /* city 3, in one fixed edge */
    p.end_city = 4;
    solve_ok(inst, &p, &r);
    assert_holds_fixed(inst, &r);
    assert_int_equal(r.tour[0], 2);
    assert_int_equal(r.tour[51], 4);
    wt_result_free(&r);
    wt_error err = {0};
    p.start_city = 1; /* city 2: in two fixed edges, no end */
    assert_int_equal(wt_solve(inst, &p, &r, &err), WT_STATUS_INVALID_ARGUMENT);
    assert_non_null(strstr(err.message, "third fixed edge"));
    p.start_city = 0; /* cities 1 and 2: fixed to each other */
    p.end_city = 1;
    assert_int_equal(wt_solve(inst, &p, &r, &err), WT_STATUS_INVALID_ARGUMENT);
    wt_instance_free(inst);
}

/* Every instance renumbered by place (renumber_min 2): the tour comes
 * back in the instance's numbers, its length the instance's own, the
 * fixed edges and the path's ends where asked, a start tour taken in the
 * instance's numbers and a bad one refused before it is read as numbers. */
static void test_renumbered_by_place(void **state)
{
    (void)state;
    char *text = with_section(52, 7, fixed5);
    wt_instance *inst = wt_test_parse(text);
    free(text);
    wt_tuning t = {.renumber_min = 2};
    wt_params p;
    wt_params_defaults(&p);
    p.tuning = &t;
    p.kicks = 200;
    p.open = true;
    p.start_city = 2;
    p.end_city = 4;
    wt_result r;
    solve_ok(inst, &p, &r);
    assert_true(is_permutation(r.tour, 52));
    assert_holds_fixed(inst, &r);
    assert_int_equal(r.tour[0], 2);
    assert_int_equal(r.tour[51], 4);
    assert_int_equal(r.length, path_length(inst, r.tour, 52));
    wt_result_free(&r);
    /* a closed tour from a start tour, without fixed edges */
    text = with_section(52, 7, "");
    wt_instance *plain = wt_test_parse(text);
    free(text);
    int32_t start[52];
    for (int i = 0; i < 52; i++) start[i] = 51 - i;
    wt_params_defaults(&p);
    p.tuning = &t;
    p.kicks = 100;
    p.start_tour = start;
    solve_ok(plain, &p, &r);
    assert_true(is_permutation(r.tour, 52));
    assert_int_equal(r.length, wt_tour_length(plain, r.tour));
    assert_true(r.length <= wt_tour_length(plain, start));
    wt_result_free(&r);
    start[3] = start[4]; /* no permutation */
    wt_error err = {0};
    assert_int_equal(wt_solve(plain, &p, &r, &err), WT_STATUS_INVALID_TOUR);
    wt_instance_free(plain);
    wt_instance_free(inst);
}

static void test_path_params_checked(void **state)
{
    (void)state;
    wt_instance *inst = wt_test_random_instance(20, 8);
    wt_params p;
    wt_params_defaults(&p);
    assert_false(p.open);
    assert_int_equal(p.start_city, -1);
    assert_int_equal(p.end_city, -1);
    wt_result r;
    wt_error err = {0};
    p.start_city = 20;
    assert_int_equal(wt_solve(inst, &p, &r, &err), WT_STATUS_INVALID_ARGUMENT);
    assert_non_null(strstr(err.message, "start_city"));
    p.start_city = -2;
    assert_int_equal(wt_solve(inst, &p, &r, &err), WT_STATUS_INVALID_ARGUMENT);
    p.start_city = 4;
    p.end_city = 4;
    assert_int_equal(wt_solve(inst, &p, &r, &err), WT_STATUS_INVALID_ARGUMENT);
    assert_non_null(strstr(err.message, "end_city"));
    /* an open path on an algorithm that cannot keep its closing edge */
    p.end_city = -1;
    p.open = true;
    p.algorithm = WT_ALGO_2OPT;
    assert_int_equal(wt_solve(inst, &p, &r, &err), WT_STATUS_UNSUPPORTED);
    /* a start alone on a closed tour: every algorithm */
    p.open = false;
    p.algorithm = WT_ALGO_2OPT;
    solve_ok(inst, &p, &r);
    assert_int_equal(r.tour[0], 4);
    wt_result_free(&r);
    wt_instance_free(inst);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse_fixed_edges),
        cmocka_unit_test(test_parse_fixed_edges_errors),
        cmocka_unit_test(test_set_fixed_edges),
        cmocka_unit_test(test_force_fixed),
        cmocka_unit_test(test_make_neighbours),
        cmocka_unit_test(test_fixed_edges_kept_or_refused),
        cmocka_unit_test(test_fixed_edges_small_exact),
        cmocka_unit_test(test_open_paths),
        cmocka_unit_test(test_open_with_fixed_edges),
        cmocka_unit_test(test_path_params_checked),
        cmocka_unit_test(test_renumbered_by_place),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
