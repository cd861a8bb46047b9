/*
 * test_tour_changes.c - core/tour_changes.h against a walk of the whole
 * tour.
 *
 * Sets of changes come from replicas of a tour, each changed by a few
 * random reversals (2-opt moves) and segment moves (Or-opt moves), as ILS's
 * merged replicas are (algo/ils_merged.c): a set is the cities whose
 * neighbours differ from the tour's (not the merge's).  Sets are tried one
 * after another, those that share a city with an accepted one left out (as
 * the merge does); each answer must be the oracle's: every city's
 * neighbours agree with theirs (both ends see each edge) and one walk from
 * city 0 visits every city once before it comes back.
 */
#include "test_util.h"

#include "core/tour_changes.h"
#include "core/tour_ops.h"

/* The oracle: adj is one cycle through all n cities, each edge seen from
 * both ends. */
static bool one_cycle(const int32_t *adj, int n, uint8_t *seen)
{
    for (int c = 0; c < n; c++)
        for (int s = 0; s < 2; s++) {
            int32_t d = adj[2 * c + s];
            if (d < 0 || d >= n || d == c || (adj[2 * d] != c && adj[2 * d + 1] != c))
                return false;
        }
    memset(seen, 0, (size_t)n);
    int32_t prev = adj[1], cur = 0;
    for (int i = 0; i < n; i++) {
        if (seen[cur]++) return false;
        int32_t next = adj[2 * cur] == prev ? adj[2 * cur + 1] : adj[2 * cur];
        prev = cur;
        cur = next;
    }
    return cur == 0;
}

static uint64_t next_random(uint64_t *x)
{
    *x = *x * 6364136223846793005ULL + 1442695040888963407ULL;
    return *x >> 33;
}

static void reverse(int32_t *t, int n, int i, int len)
{
    for (int a = 0, b = len - 1; a < b; a++, b--) {
        int32_t c = t[(i + a) % n];
        t[(i + a) % n] = t[(i + b) % n];
        t[(i + b) % n] = c;
    }
}

/* A replica of tour with `moves` local moves: reversals of up to 40
 * positions, or a segment of 1-3 cities moved up to 40 positions on
 * (three reversals), all within positions from .. from + 80. */
static void changed_replica(const int32_t *tour, int n, int from, int moves, uint64_t *rng,
                            int32_t *out)
{
    memcpy(out, tour, (size_t)n * sizeof *out);
    for (int k = 0; k < moves; k++) {
        int i = from + (int)(next_random(rng) % 40);
        if (next_random(rng) % 2) {
            reverse(out, n, i, 2 + (int)(next_random(rng) % 39));
        } else { /* S B -> B S: reverse S, B, then both */
            int s = 1 + (int)(next_random(rng) % 3), b = 1 + (int)(next_random(rng) % 40);
            reverse(out, n, i, s);
            reverse(out, n, i + s, b);
            reverse(out, n, i, s + b);
        }
    }
}

/* Sets of changes tried as the merge of replicas tries them. */
static void tries_match_the_oracle(int n, int replicas, uint64_t seed, int *accepted,
                                   int *refused)
{
    int32_t *tour = malloc((size_t)n * sizeof *tour);
    int32_t *replica = malloc((size_t)n * sizeof *replica);
    int32_t *base = malloc(2 * (size_t)n * sizeof *base);
    int32_t *orig = malloc(2 * (size_t)n * sizeof *orig);
    int32_t *mine = malloc(2 * (size_t)n * sizeof *mine);
    int32_t *touched = malloc((size_t)n * sizeof *touched);
    int32_t *saved = malloc(2 * (size_t)n * sizeof *saved);
    uint8_t *used = calloc((size_t)n, 1), *seen = malloc((size_t)n);
    wt_test_random_tour(n, seed, tour);
    wt_tour_neighbours(tour, n, base);
    memcpy(orig, base, 2 * (size_t)n * sizeof *orig);
    wt_tour_changes *c = wt_tour_changes_open(n);
    assert_non_null(c);
    wt_tour_changes_begin(c, tour, 2);
    uint64_t rng = seed;
    int around = (int)(next_random(&rng) % (uint64_t)n);
    for (int k = 0; k < replicas; k++) {
        /* Replicas near each other (their changes meet, some cross), now
         * and then across the wrap of the tour's positions. */
        int from = (around + (int)(next_random(&rng) % 200)) % n;
        changed_replica(tour, n, from, 1 + (int)(next_random(&rng) % 2), &rng, replica);
        wt_tour_neighbours(replica, n, mine);
        int m = 0;
        bool clash = false;
        for (int x = 0; x < n; x++) {
            bool same = (mine[2 * x] == orig[2 * x] && mine[2 * x + 1] == orig[2 * x + 1]) ||
                        (mine[2 * x] == orig[2 * x + 1] && mine[2 * x + 1] == orig[2 * x]);
            if (!same && m < n) touched[m++] = x;
        }
        for (int i = 0; i < m; i++) clash = clash || used[touched[i]];
        if (m == 0 || clash) continue;
        for (int i = 0; i < m; i++) {
            saved[2 * i] = base[2 * touched[i]];
            saved[2 * i + 1] = base[2 * touched[i] + 1];
            base[2 * touched[i]] = mine[2 * touched[i]];
            base[2 * touched[i] + 1] = mine[2 * touched[i] + 1];
        }
        bool expect = one_cycle(base, n, seen);
        bool got = wt_tour_changes_try(c, base, touched, m);
        if (got != expect)
            fail_msg("replica %d of n %d seed %llu: %d changed cities, the oracle says %d, "
                     "tour_changes %d", k, n, (unsigned long long)seed, m, expect, got);
        if (got) {
            for (int i = 0; i < m; i++) used[touched[i]] = 1;
            ++*accepted;
        } else {
            for (int i = 0; i < m; i++) {
                base[2 * touched[i]] = saved[2 * i];
                base[2 * touched[i] + 1] = saved[2 * i + 1];
            }
            ++*refused;
        }
    }
    wt_tour_changes_close(c);
    free(tour);
    free(replica);
    free(base);
    free(orig);
    free(mine);
    free(touched);
    free(saved);
    free(used);
    free(seen);
}

static void test_sets_of_changes(void **state)
{
    (void)state;
    int accepted = 0, refused = 0;
    int sizes[] = {3, 5, 8, 50, 200, 2000};
    for (int i = 0; i < 6; i++)
        for (uint64_t seed = 1; seed <= 40; seed++)
            tries_match_the_oracle(sizes[i], sizes[i] < 50 ? 3 : 60, seed, &accepted, &refused);
    print_message("    %d sets accepted, %d refused\n", accepted, refused);
    /* Both answers came up many times. */
    assert_true(accepted > 100);
    assert_true(refused > 100);
}

/* Two 2-opt moves that cross: each keeps one cycle alone, not together;
 * a set whose city disagrees with an unchanged neighbour is refused. */
static void test_crossing_moves_and_one_sided_edges(void **state)
{
    (void)state;
    enum { N = 20 };
    int32_t tour[N], adj[2 * N];
    for (int i = 0; i < N; i++) tour[i] = (i * 7) % N; /* not the identity */
    wt_tour_neighbours(tour, N, adj);
    wt_tour_changes *c = wt_tour_changes_open(N);
    assert_non_null(c);
    wt_tour_changes_begin(c, tour, 1);
    /* 2-opt A: (t2 t3) (t8 t9) -> (t2 t8) (t3 t9). */
    int32_t a[4] = {tour[2], tour[3], tour[8], tour[9]};
    adj[2 * a[0] + 1] = a[2];
    adj[2 * a[1]] = a[3];
    adj[2 * a[2] + 1] = a[0];
    adj[2 * a[3]] = a[1];
    assert_true(wt_tour_changes_try(c, adj, a, 4));
    /* 2-opt B on the first tour: (t5 t6) (t12 t13), crossing A: refused. */
    int32_t b[4] = {tour[5], tour[6], tour[12], tour[13]};
    int32_t keep[8];
    for (int i = 0; i < 4; i++) {
        keep[2 * i] = adj[2 * b[i]];
        keep[2 * i + 1] = adj[2 * b[i] + 1];
    }
    adj[2 * b[0] + 1] = b[2];
    adj[2 * b[1]] = b[3];
    adj[2 * b[2] + 1] = b[0];
    adj[2 * b[3]] = b[1];
    assert_false(wt_tour_changes_try(c, adj, b, 4));
    for (int i = 0; i < 4; i++) {
        adj[2 * b[i]] = keep[2 * i];
        adj[2 * b[i] + 1] = keep[2 * i + 1];
    }
    /* A city whose new neighbour (unchanged) does not have it: refused. */
    int32_t one = tour[15];
    adj[2 * one + 1] = tour[17];
    assert_false(wt_tour_changes_try(c, adj, &one, 1));
    wt_tour_changes_close(c);
    assert_null(wt_tour_changes_open(2));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sets_of_changes),
        cmocka_unit_test(test_crossing_moves_and_one_sided_edges),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
