/*
 * test_gpu_parity.c - one parity loop over backend x algorithm x metric.
 *
 * Each row of the table is one case: a backend under test, an algorithm
 * with its options, a metric and an instance; the loop runs wt_solve with
 * the same parameters and seed on that backend and on the CPU backend, the
 * oracle, and checks both results (parity.h): finished, valid tours whose
 * exact lengths are the reported ones, then either the same run (the same
 * tour city for city and the counters of the row's mask: where float
 * computes every distance and delta exactly) or, where it does not, a
 * tour 2-optimal to the row's tolerance.  A new kernel or backend joins
 * by a row (ggml's test-backend-ops is the model); the other test_gpu_*.c
 * files test what a row cannot say (kernel shapes, pass candidates, out
 * of memory, concurrency).
 *
 * WT_TEST_GPU_AS_CPU=1 runs the backends under test on the CPU, to check
 * the table and the loop on a machine without a GPU.
 */
#include "gpu_test.h"
#include "parity.h"

#define PARITY_LIMIT_S 300.0 /* a run that never ends fails instead of hanging */

/* How a case compares the backend with the oracle. */
typedef enum parity_mode {
    PARITY_SAME,  /* the same run: tour, length and the counters of mask */
    PARITY_VALID  /* each valid and (descents) 2-optimal to tol, float not being exact */
} parity_mode;

typedef struct parity_case {
    wt_backend_kind backend;   /* under test; the CPU backend is the oracle */
    wt_algorithm algorithm;
    wt_edge_weight_type metric;
    int n;                     /* cities, integer coordinates below span */
    int span;
    uint64_t seed;             /* the instance's and the search's */
    void (*options)(wt_params *p); /* the algorithm's options, or NULL */
    const char *label;         /* what the options are, for messages */
    parity_mode mode;
    unsigned mask;             /* PARITY_SAME: the counters compared (PARITY_*) */
    int64_t tol;               /* PARITY_VALID, descents: the 2-opt tolerance */
} parity_case;

/* ------------------------------------------------------------ options */

static void random_start_one_move(wt_params *p)
{
    p->init = WT_INIT_RANDOM;
    p->swaps = 1; /* best improvement, one move a pass */
}

static void random_start_kswap(wt_params *p)
{
    p->init = WT_INIT_RANDOM;
    p->swaps = 0; /* k-swap: every compatible move of a pass */
}

static void twenty_climbs(wt_params *p) { p->restarts = 20; }

/* ILS with full descents on both backends (auto: local on the CPU). */
static void ils_full_50_kicks(wt_params *p)
{
    p->ils_descent = WT_ILS_FULL;
    p->kicks = 50;
    p->swaps = 1;
}

static void ils_full_kswap_50_kicks(wt_params *p)
{
    ils_full_50_kicks(p);
    p->swaps = 0;
}

/* A short schedule (Ts 100 to Te 10, alpha 0.8: 11 steps), 7 searches of
 * 12 moves; the GPU's PSPM equals the CPU's PSSM run for run. */
static void sa_short(wt_params *p)
{
    p->sa_cpu = WT_SA_PSSM;
    p->sa_searches = 7;
    p->sa_moves = 12;
    p->sa_t_start = 100.0;
    p->sa_t_end = 10.0;
    p->sa_alpha = 0.8;
    p->sa_sweeps = 1;
    p->sa_exchange = 3;
}

/* ------------------------------------------------------------ the table */

#define DESCENT_COUNTERS (PARITY_STEPS | PARITY_PASSES)
#define CUDA WT_BACKEND_CUDA

static const parity_case cases[] = {
    /* 2opt: descents from a random tour, exact metrics move for move. */
    {CUDA, WT_ALGO_2OPT, WT_EUC_2D, 300, 400, 1, random_start_one_move, "swaps 1", PARITY_SAME,
     DESCENT_COUNTERS, 0},
    {CUDA, WT_ALGO_2OPT, WT_EUC_2D, 1000, 400, 2, random_start_kswap, "k-swap", PARITY_SAME,
     DESCENT_COUNTERS, 0},
    {CUDA, WT_ALGO_2OPT, WT_CEIL_2D, 700, 400, 3, random_start_one_move, "swaps 1",
     PARITY_SAME, DESCENT_COUNTERS, 0},
    {CUDA, WT_ALGO_2OPT, WT_ATT, 500, 5000, 4, random_start_one_move, "swaps 1", PARITY_VALID,
     0, 8},
    /* multistart: 20 climbs from the seed's random tours. */
    {CUDA, WT_ALGO_MULTISTART, WT_EUC_2D, 200, 400, 5, twenty_climbs, "20 climbs",
     PARITY_SAME, PARITY_STEPS | PARITY_MOVES | PARITY_CLIMB, 0},
    {CUDA, WT_ALGO_MULTISTART, WT_CEIL_2D, 150, 5000, 6, twenty_climbs, "20 climbs",
     PARITY_VALID, 0, 4},
    {CUDA, WT_ALGO_MULTISTART, WT_ATT, 150, 5000, 7, twenty_climbs, "20 climbs", PARITY_VALID,
     0, 4},
    /* ils: full descents after each kick, from the greedy tour. */
    {CUDA, WT_ALGO_ILS, WT_EUC_2D, 500, 400, 8, ils_full_50_kicks, "full, 50 kicks",
     PARITY_SAME, DESCENT_COUNTERS | PARITY_KICKS, 0},
    {CUDA, WT_ALGO_ILS, WT_EUC_2D, 500, 400, 9, ils_full_kswap_50_kicks,
     "full, k-swap, 50 kicks", PARITY_SAME, DESCENT_COUNTERS | PARITY_KICKS, 0},
    /* sa: integer moves, the same run on every metric. */
    {CUDA, WT_ALGO_SA, WT_EUC_2D, 120, 400, 10, sa_short, "7 x 12, short", PARITY_SAME,
     PARITY_SA, 0},
    {CUDA, WT_ALGO_SA, WT_CEIL_2D, 90, 5000, 11, sa_short, "7 x 12, short", PARITY_SAME,
     PARITY_SA, 0},
    {CUDA, WT_ALGO_SA, WT_ATT, 100, 5000, 12, sa_short, "7 x 12, short", PARITY_SAME,
     PARITY_SA, 0},
};

/* ------------------------------------------------------------ the loop */

static bool gpu_is_cpu; /* WT_TEST_GPU_AS_CPU: the backends under test run on the CPU */

static const char *metric_name(wt_edge_weight_type t)
{
    switch (t) {
    case WT_EUC_2D: return "EUC_2D";
    case WT_CEIL_2D: return "CEIL_2D";
    case WT_ATT: return "ATT";
    case WT_MAN_2D: return "MAN_2D";
    case WT_MAX_2D: return "MAX_2D";
    default: return "another metric";
    }
}

static void solve_case(const parity_case *c, const wt_instance *inst, wt_backend_kind backend,
                       wt_result *res, const char *what)
{
    wt_params p;
    wt_params_defaults(&p);
    p.algorithm = c->algorithm;
    p.backend = backend;
    p.seed = c->seed;
    p.time_limit_s = PARITY_LIMIT_S;
    if (c->options) c->options(&p);
    wt_error err = {0};
    if (wt_solve(inst, &p, res, &err) != WT_OK)
        fail_msg("%s: %s: %s", what, wt_backend_name(backend), err.message);
}

static void run_case(const parity_case *c)
{
    wt_instance *inst = parity_instance(c->metric, c->n, c->seed, c->span, false);
    wt_backend_kind under_test = gpu_is_cpu ? WT_BACKEND_CPU : c->backend;
    char what[160];
    snprintf(what, sizeof what, "%s %s (%s), %s, seed %" PRIu64, wt_backend_name(c->backend),
             wt_algorithm_name(c->algorithm), c->label, metric_name(c->metric), c->seed);
    wt_result got, want;
    solve_case(c, inst, under_test, &got, what);
    solve_case(c, inst, WT_BACKEND_CPU, &want, what);
    parity_check_result(inst, &got, what);
    parity_check_result(inst, &want, what);
    bool descent = c->algorithm == WT_ALGO_2OPT || c->algorithm == WT_ALGO_MULTISTART ||
                   c->algorithm == WT_ALGO_ILS;
    if (c->mode == PARITY_SAME) {
        parity_check_same(inst, &got, &want, c->mask, what);
        if (descent) parity_check_locally_optimal(inst, got.tour, 0, what);
    } else if (descent) {
        parity_check_locally_optimal(inst, got.tour, c->tol, what);
        parity_check_locally_optimal(inst, want.tour, 0, what);
    }
    print_message("    %-58s %s: %" PRId64 ", cpu %" PRId64 "\n", what,
                  c->mode == PARITY_SAME ? "same" : "valid", got.length, want.length);
    wt_result_free(&got);
    wt_result_free(&want);
    wt_instance_free(inst);
}

static void test_case(void **state)
{
    run_case(*state);
}

enum { N_CASES = sizeof cases / sizeof cases[0] };

/* One cmocka test a row, named "cuda/2opt/EUC_2D/swaps 1" and so on, so
 * that WT_TEST_FILTER picks rows and a failing row does not hide the rest. */
int main(void)
{
    int begin = gpu_test_begin(&gpu_is_cpu);
    if (begin) return begin;
    gpu_test_filters();
    static char names[N_CASES][96];
    struct CMUnitTest tests[N_CASES];
    for (size_t k = 0; k < N_CASES; k++) {
        const parity_case *c = &cases[k];
        snprintf(names[k], sizeof names[k], "%s/%s/%s/%s", wt_backend_name(c->backend),
                 wt_algorithm_name(c->algorithm), metric_name(c->metric), c->label);
        tests[k] = (struct CMUnitTest){names[k], test_case, gpu_test_timer_start,
                                       gpu_test_timer_stop, (void *)c};
    }
    return cmocka_run_group_tests_name("test_gpu_parity", tests, NULL, NULL);
}
