/*
 * test_gpu_sa.c - the CUDA simulated annealing (PSPM) against the CPU.
 *
 * The CPU backend is the oracle.  Both backends draw candidate j of search s
 * from the same stream and compute exact integer cost changes, so for the
 * same seed, searches (TB) and moves (TPB) they must compute the same run:
 * the same tour and the same counters, for every distance type but GEO
 * (whose cos/acos may differ in the last bit between the device and libm).
 * Also: every tour valid with the GPU's tracked best length equal to the
 * exact length recomputed on the host; lists in shared memory and lists
 * forced into global memory giving the same run; lists too large for shared
 * memory; the same seed giving the same run; near zero temperature no
 * worsening move accepted; and runs from several host threads at once
 * giving the runs they give alone.  Local moves (job.near = K) too: the
 * GPU draws them from the same lists as the CPU, so with the warp kernel,
 * the block kernel and global lists alike it must compute the CPU's run.
 * Schedules are short (a few temperature steps) so that the CPU side stays
 * cheap.
 *
 * Built only with the CUDA backend, labelled "gpu"; exits 77 (skipped) when
 * no GPU is usable.  WT_TEST_GPU_AS_CPU=1 runs the "GPU" side on the CPU
 * backend (PSSM) to check the tests themselves on a machine without a GPU;
 * the GPU-only read-outs (where the lists were, the tracked length, the
 * worsening count) are then not checked.
 */
#include "gpu_test.h"
#include "parity.h"

#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <time.h>

#include "core/sa_moves.h"
#include "backend/cpu/cpu_sa.h"
#include "backend/cuda/sa.h"

static bool gpu_is_cpu; /* WT_TEST_GPU_AS_CPU: the "GPU" side runs on the CPU */

/* A short schedule: Ts = 100, Te = 10, alpha = 0.8 is 11 steps, exchanges
 * every 3 steps, one sweep (n iterations) per step. */
static wt_sa_job short_job(uint64_t seed, int searches, int moves)
{
    wt_sa_job j = {
        .seed = seed, .searches = searches, .moves = moves, .t_start = 100.0, .t_end = 10.0,
        .alpha = 0.8, .sweeps = 1, .exchange = 3, .cpu = WT_SA_PSSM,
    };
    return j;
}

/* What one run gave. */
typedef struct sa_out {
    int32_t *tour;
    int64_t length;          /* exact, recomputed on the host */
    int64_t start_length;
    wt_search_stats stats;
    wt_sa_job job;           /* with the searches and moves used */
    wt_cuda_sa_opts opts;    /* GPU read-outs */
    wt_stop_reason stop;
} sa_out;

static void sa_out_free(sa_out *o) { free(o->tour); }

/* A random start tour from seed. */
static void start_tour(int n, uint64_t seed, int32_t *tour)
{
    wt_test_random_tour(n, seed ^ 0x5a5a, tour);
}

/* Runs job on the GPU (gpu) or the CPU from the start tour of job->seed;
 * force_block keeps the GPU off its warp kernel. */
static sa_out run_on(const wt_instance *inst, wt_sa_job job, bool gpu, bool force_global,
                     bool force_block)
{
    sa_out o;
    memset(&o, 0, sizeof o);
    int n = wt_instance_n(inst);
    o.tour = malloc((size_t)n * sizeof *o.tour);
    assert_non_null(o.tour);
    start_tour(n, job.seed, o.tour);
    o.start_length = wt_tour_length(inst, o.tour);
    wt_params p;
    wt_params_defaults(&p);
    p.algorithm = WT_ALGO_2OPT; /* the default is ils */
    p.time_limit_s = 300; /* a kernel that never ends fails instead of hanging */
    wt_search_ctl ctl;
    wt_ctl_init(&ctl, &p);
    ctl.init_length = o.start_length;
    wt_error err = {0};
    wt_status st;
    o.opts.force_global = force_global;
    o.opts.force_block = force_block;
    if (gpu && !gpu_is_cpu)
        st = wt_cuda_sa_run(inst, &job, &ctl, o.tour, &o.stats, &o.opts, &err);
    else
        st = wt_cpu_sa(inst, &job, &ctl, o.tour, &o.stats, &err);
    if (st != WT_OK)
        fail_msg("%s sa on %s (TB %d, TPB %d, near %d, seed %" PRIu64 "%s): %s",
                 gpu ? "GPU" : "CPU", wt_instance_name(inst), job.searches, job.moves, job.near,
                 job.seed, force_global ? ", global lists" : "", err.message);
    o.job = job;
    o.stop = ctl.stop;
    o.length = wt_tour_length(inst, o.tour);
    return o;
}

static sa_out run(const wt_instance *inst, wt_sa_job job, bool gpu, bool force_global)
{
    return run_on(inst, job, gpu, force_global, false);
}

/* A run's own consistency: finished, valid tour, no longer than the start,
 * every iteration run, and (GPU) the tracked best equal to the exact length. */
static void check_run(const wt_instance *inst, const sa_out *o, bool gpu)
{
    int n = wt_instance_n(inst);
    const char *name = wt_instance_name(inst), *side = gpu ? "GPU" : "CPU";
    wt_error err = {0};
    if (o->stop != WT_STOP_DONE)
        fail_msg("%s: the %s run stopped early (%s)", name, side, wt_stop_reason_name(o->stop));
    if (wt_tour_validate(o->tour, n, &err) != WT_OK)
        fail_msg("%s: the %s tour is invalid: %s", name, side, err.message);
    if (o->length > o->start_length)
        fail_msg("%s: the %s best tour (%" PRId64 ") is longer than the start (%" PRId64 ")",
                 name, side, o->length, o->start_length);
    uint64_t steps = 0, s = 0;
    double t = o->job.t_start;
    while (wt_sa_schedule(&t, &s, o->job.t_end, o->job.alpha, 1)) steps++;
    uint64_t want = (uint64_t)o->job.searches * steps * (uint64_t)n * (uint64_t)o->job.sweeps;
    if (o->stats.iterations != want)
        fail_msg("%s: %s ran %" PRIu64 " iterations, expected %d searches x %" PRIu64
                 " steps x %d = %" PRIu64, name, side, o->stats.iterations, o->job.searches,
                 steps, n * o->job.sweeps, want);
    if (gpu && !gpu_is_cpu && o->opts.device_best != o->length)
        fail_msg("%s: the GPU tracked a best length of %" PRId64 " but its tour is %" PRId64
                 " long (exact, on the host)", name, o->opts.device_best, o->length);
}

/* Two runs must be the same run: tour, length and counters. */
static void check_same(const wt_instance *inst, const sa_out *a, const sa_out *b,
                       const char *what)
{
    int n = wt_instance_n(inst), first = -1;
    for (int i = 0; i < n && first < 0; i++)
        if (a->tour[i] != b->tour[i]) first = i;
    char ha[160], hb[160];
    if (first >= 0 || a->length != b->length)
        fail_msg("%s on %s (TB %d, TPB %d, near %d, seed %" PRIu64 "): lengths %" PRId64
                 " %s and %" PRId64 " %s; tours first differ at position %d", what,
                 wt_instance_name(inst), a->job.searches, a->job.moves, a->job.near, a->job.seed,
                 a->length, parity_tour_head(a->tour, n, ha, sizeof ha), b->length,
                 parity_tour_head(b->tour, n, hb, sizeof hb), first);
    if (a->stats.iterations != b->stats.iterations || a->stats.accepted != b->stats.accepted ||
        a->stats.steps != b->stats.steps || a->stats.temperature != b->stats.temperature)
        fail_msg("%s on %s: same tour but counters differ: iterations %" PRIu64 "/%" PRIu64
                 ", accepted %" PRIu64 "/%" PRIu64 ", improving %" PRIu64 "/%" PRIu64
                 ", final temperature %g/%g", what, wt_instance_name(inst), a->stats.iterations,
                 b->stats.iterations, a->stats.accepted, b->stats.accepted, a->stats.steps,
                 b->stats.steps, a->stats.temperature, b->stats.temperature);
}

/* ---------------------------------------------------------- instances */

static wt_instance *typed(wt_edge_weight_type type, int n, uint64_t seed, double span)
{
    wt_rng rng;
    wt_rng_seed(&rng, seed);
    double *x = malloc(3 * (size_t)n * sizeof *x), *y = x + n, *z = y + n;
    assert_non_null(x);
    for (int i = 0; i < n; i++) {
        if (type == WT_GEO) { /* DDD.MM */
            x[i] = (double)wt_rng_below(&rng, 80) + (double)wt_rng_below(&rng, 60) / 100.0;
            y[i] = (double)wt_rng_below(&rng, 170) + (double)wt_rng_below(&rng, 60) / 100.0;
        } else { /* with decimals: float would not be exact, double is */
            x[i] = span * wt_rng_uniform(&rng);
            y[i] = span * wt_rng_uniform(&rng);
        }
        z[i] = span * wt_rng_uniform(&rng);
    }
    wt_instance *inst = NULL;
    wt_error err = {0};
    if (wt_instance_from_coords("sa", n, type, x, y, z, &inst, &err) != WT_OK)
        fail_msg("from_coords: %s", err.message);
    free(x);
    return inst;
}

static wt_instance *explicit_instance(int n, uint64_t seed)
{
    wt_rng rng;
    wt_rng_seed(&rng, seed);
    size_t cap = 64 + (size_t)n * (size_t)n * 6;
    char *t = malloc(cap);
    assert_non_null(t);
    size_t len = (size_t)snprintf(t, cap, "NAME: ex%d\nTYPE: TSP\nDIMENSION: %d\n"
                                  "EDGE_WEIGHT_TYPE: EXPLICIT\nEDGE_WEIGHT_FORMAT: UPPER_ROW\n"
                                  "EDGE_WEIGHT_SECTION\n", n, n);
    for (int i = 0; i < n; i++) {
        for (int j = i + 1; j < n; j++)
            len += (size_t)snprintf(t + len, cap - len, " %d", 1 + (int)wt_rng_below(&rng, 999));
        len += (size_t)snprintf(t + len, cap - len, "\n");
    }
    snprintf(t + len, cap - len, "EOF\n");
    wt_instance *inst = wt_test_parse(t);
    free(t);
    return inst;
}

/* --------------------------------------------------------------- tests */

/* GPU and CPU compute the same run, for block sizes around the warp, several
 * candidates per thread (TPB > 256), one search (no exchange) and several. */
static void test_matches_cpu(void **state)
{
    (void)state;
    static const struct { int tb, tpb; } shapes[] = {
        {1, 1}, {1, 32}, {7, 12}, {5, 33}, {3, 300}, {16, 64},
    };
    static const wt_edge_weight_type types[] = {WT_EUC_2D, WT_CEIL_2D, WT_ATT, WT_MAN_2D,
                                                WT_MAX_2D, WT_EUC_3D};
    for (size_t k = 0; k < sizeof types / sizeof types[0]; k++) {
        wt_instance *inst = typed(types[k], 61 + 13 * (int)k, 3 + k, 5000.0);
        for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
            wt_sa_job job = short_job(11 + s, shapes[s].tb, shapes[s].tpb);
            sa_out g = run(inst, job, true, false), c = run(inst, job, false, false);
            check_run(inst, &g, true);
            check_run(inst, &c, false);
            check_same(inst, &g, &c, "GPU vs CPU PSSM");
            sa_out_free(&g);
            sa_out_free(&c);
        }
        wt_instance_free(inst);
    }
    wt_instance *ex = explicit_instance(70, 5);
    wt_sa_job job = short_job(3, 9, 32);
    sa_out g = run(ex, job, true, false), c = run(ex, job, false, false);
    check_run(ex, &g, true);
    check_same(ex, &g, &c, "GPU vs CPU PSSM (EXPLICIT)");
    sa_out_free(&g);
    sa_out_free(&c);
    wt_instance_free(ex);
}

/* The device's own choice of TB and TPB (equation 3), checked against the
 * CPU with the same values; a smaller instance keeps the CPU side cheap. */
static void test_default_plan_matches_cpu(void **state)
{
    (void)state;
    wt_instance *inst = typed(WT_EUC_2D, 40, 8, 1000.0);
    wt_sa_job job = short_job(21, 0, 0);
    job.t_end = 50.0; /* 4 steps */
    sa_out g = run(inst, job, true, false);
    check_run(inst, &g, true);
    print_message("    default plan: TB %d, TPB %d\n", g.job.searches, g.job.moves);
    if (!gpu_is_cpu && (g.job.searches < 1 || g.job.moves < 1))
        fail_msg("the GPU chose TB %d, TPB %d", g.job.searches, g.job.moves);
    sa_out c = run(inst, g.job, false, false);
    check_same(inst, &g, &c, "GPU default plan vs CPU");
    sa_out_free(&g);
    sa_out_free(&c);
    wt_instance_free(inst);
}

/* Lists in shared memory and lists forced into global memory: same run. */
static void test_shared_and_global_lists(void **state)
{
    (void)state;
    static const int sizes[] = {100, 2000};
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        wt_instance *inst = typed(WT_EUC_2D, sizes[k], 40 + k, 10000.0);
        wt_sa_job job = short_job(7, 24, 32);
        job.t_end = 60.0; /* 3 steps */
        job.exchange = 1;
        sa_out sh = run(inst, job, true, false), gl = run(inst, job, true, true);
        check_run(inst, &sh, true);
        check_run(inst, &gl, true);
        if (!gpu_is_cpu && (!sh.opts.lists_shared || gl.opts.lists_shared || gl.opts.coords_shared))
            fail_msg("%d cities: lists shared %d (want 1) by default, %d (want 0) when forced "
                     "global", sizes[k], sh.opts.lists_shared, gl.opts.lists_shared);
        check_same(inst, &sh, &gl, "shared vs global lists");
        /* EUC_2D with 32 moves and shared lists: the warp kernel, unless
         * forced onto the block kernel; both are the same run. */
        sa_out bl = run_on(inst, job, true, false, true);
        check_run(inst, &bl, true);
        if (!gpu_is_cpu && (!sh.opts.warp_kernel || bl.opts.warp_kernel))
            fail_msg("%d cities: warp kernel %d (want 1) by default, %d (want 0) when forced "
                     "onto the block kernel", sizes[k], sh.opts.warp_kernel, bl.opts.warp_kernel);
        check_same(inst, &sh, &bl, "warp vs block kernel");
        sa_out_free(&bl);
        sa_out_free(&sh);
        sa_out_free(&gl);
        wt_instance_free(inst);
    }
}

/* Lists too large for any shared memory (8n bytes above 228 KiB): global
 * lists chosen on their own, still the CPU's run.  One temperature step. */
static void test_large_global(void **state)
{
    (void)state;
    wt_instance *inst = typed(WT_EUC_2D, 40000, 77, 1e6);
    wt_sa_job job = short_job(9, 4, 32);
    job.t_start = 5.0; /* below t_end: step 0 only */
    sa_out g = run(inst, job, true, false), c = run(inst, job, false, false);
    check_run(inst, &g, true);
    if (!gpu_is_cpu && g.opts.lists_shared)
        fail_msg("40000 cities: the lists (320 KB) were said to fit in shared memory");
    check_same(inst, &g, &c, "GPU (global lists) vs CPU, 40000 cities");
    sa_out_free(&g);
    sa_out_free(&c);
    wt_instance_free(inst);
}

/* Local moves (near = K): for K = 10 and 40, the CPU's run on the warp
 * kernel (EUC_2D, 32 moves or fewer, shared lists), on the block kernel
 * forced, and with global lists (which take the block kernel too); then
 * shapes that only the block kernel runs (TPB above 32, several candidates
 * per thread beyond 256, other metrics, EXPLICIT), and K above n - 1,
 * which both backends clamp to n - 1. */
static void test_near_matches_cpu(void **state)
{
    (void)state;
    static const int ks[] = {10, 40};
    static const struct { int tb, tpb; } shapes[] = {{1, 1}, {7, 12}, {24, 32}};
    wt_instance *inst = typed(WT_EUC_2D, 300, 31, 5000.0);
    for (size_t k = 0; k < sizeof ks / sizeof ks[0]; k++) {
        for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
            wt_sa_job job = short_job(50 + 3 * k + s, shapes[s].tb, shapes[s].tpb);
            job.near = ks[k];
            sa_out c = run(inst, job, false, false);
            sa_out w = run_on(inst, job, true, false, false);
            sa_out b = run_on(inst, job, true, false, true);
            sa_out g = run_on(inst, job, true, true, false);
            check_run(inst, &c, false);
            check_run(inst, &w, true);
            check_run(inst, &b, true);
            check_run(inst, &g, true);
            if (!gpu_is_cpu && (!w.opts.warp_kernel || b.opts.warp_kernel ||
                                g.opts.warp_kernel || g.opts.lists_shared))
                fail_msg("near %d, TB %d, TPB %d: warp kernel %d (want 1) by default, %d and "
                         "%d (want 0) forced onto the block kernel and global lists; global "
                         "lists shared %d (want 0)", ks[k], shapes[s].tb, shapes[s].tpb,
                         w.opts.warp_kernel, b.opts.warp_kernel, g.opts.warp_kernel,
                         g.opts.lists_shared);
            if (w.job.near != ks[k] || c.job.near != ks[k])
                fail_msg("near %d became %d on the GPU, %d on the CPU", ks[k], w.job.near,
                         c.job.near);
            check_same(inst, &w, &c, "near: GPU warp kernel vs CPU");
            check_same(inst, &b, &c, "near: GPU block kernel vs CPU");
            check_same(inst, &g, &c, "near: GPU global lists vs CPU");
            /* Local moves are another run than the paper's. */
            job.near = 0;
            sa_out u = run(inst, job, true, false);
            if (u.length == w.length && u.stats.accepted == w.stats.accepted)
                fail_msg("near %d gave the run of uniform moves: is near ignored?", ks[k]);
            sa_out_free(&u);
            sa_out_free(&c);
            sa_out_free(&w);
            sa_out_free(&b);
            sa_out_free(&g);
        }
    }
    wt_instance_free(inst);

    /* The block kernel's own shapes: TPB 33 (a block of 64), TPB 300
     * (several candidates per thread, streams in global memory), ATT and
     * EUC_3D, EXPLICIT; and K clamped. */
    static const struct { wt_edge_weight_type type; int n, tb, tpb, near, want; } more[] = {
        {WT_EUC_2D, 150, 5, 33, 10, 10}, {WT_EUC_2D, 150, 3, 300, 40, 40},
        {WT_ATT, 120, 9, 32, 40, 40},    {WT_EUC_3D, 90, 4, 16, 10, 10},
        {WT_EUC_2D, 25, 8, 32, 40, 24},  {WT_EUC_2D, 3, 2, 4, 10, 2},
    };
    for (size_t m = 0; m < sizeof more / sizeof more[0]; m++) {
        wt_instance *in = typed(more[m].type, more[m].n, 60 + m, 5000.0);
        wt_sa_job job = short_job(70 + m, more[m].tb, more[m].tpb);
        job.near = more[m].near;
        sa_out c = run(in, job, false, false), gp = run(in, job, true, false);
        check_run(in, &c, false);
        check_run(in, &gp, true);
        if (gp.job.near != more[m].want || c.job.near != more[m].want)
            fail_msg("%d cities, near %d: became %d on the GPU, %d on the CPU (want %d)",
                     more[m].n, more[m].near, gp.job.near, c.job.near, more[m].want);
        check_same(in, &gp, &c, "near: GPU vs CPU");
        sa_out_free(&c);
        sa_out_free(&gp);
        wt_instance_free(in);
    }
    wt_instance *ex = explicit_instance(70, 9);
    wt_sa_job job = short_job(4, 9, 32);
    job.near = 10;
    sa_out g = run(ex, job, true, false), c = run(ex, job, false, false);
    check_run(ex, &g, true);
    check_same(ex, &g, &c, "near: GPU vs CPU (EXPLICIT)");
    sa_out_free(&g);
    sa_out_free(&c);
    wt_instance_free(ex);
}

/* GEO: the device's cos/acos may differ from libm in the last bit, so only
 * validity and the exact tracked length are required. */
static void test_geo_valid(void **state)
{
    (void)state;
    wt_instance *inst = typed(WT_GEO, 150, 12, 0);
    sa_out g = run(inst, short_job(4, 32, 32), true, false);
    check_run(inst, &g, true);
    sa_out_free(&g);
    wt_instance_free(inst);
}

/* The TSPLIB instances of the issue beyond the paper's sizes, when present:
 * valid tours, exact tracked lengths, one temperature step. */
static void test_tsplib_large(void **state)
{
    (void)state;
    const char *dir = wt_test_tsplib_dir();
    static const char *const names[] = {"pr2392.tsp", "large/usa13509.tsp", "usa13509.tsp"};
    for (size_t k = 0; dir && k < sizeof names / sizeof names[0]; k++) {
        char *path = wt_test_path(dir, names[k]);
        wt_instance *inst = NULL;
        wt_error err = {0};
        bool ok = wt_instance_read_tsplib(path, &inst, &err) == WT_OK;
        free(path);
        if (!ok) continue;
        wt_sa_job job = short_job(2, 0, 0);
        job.t_start = 5.0;
        sa_out g = run(inst, job, true, false);
        check_run(inst, &g, true);
        print_message("    %s: TB %d, TPB %d, lists %s, %" PRId64 " -> %" PRId64 "\n",
                      wt_instance_name(inst), g.job.searches, g.job.moves,
                      g.opts.lists_shared ? "shared" : "global", g.start_length, g.length);
        sa_out_free(&g);
        wt_instance_free(inst);
    }
}

static void test_same_seed_same_result(void **state)
{
    (void)state;
    wt_instance *inst = typed(WT_EUC_2D, 300, 2, 1000.0);
    wt_sa_job job = short_job(5, 64, 32);
    sa_out a = run(inst, job, true, false), b = run(inst, job, true, false);
    check_run(inst, &a, true);
    check_same(inst, &a, &b, "two GPU runs, same seed");
    sa_out_free(&a);
    sa_out_free(&b);
    wt_instance_free(inst);
}

/* One run of a concurrent batch: a host thread of its own, no cmocka
 * assertion inside (they are not thread-safe); checked afterwards. */
typedef struct sa_task {
    const wt_instance *inst;
    wt_sa_job job;
    bool force_block;
    sa_out out;
    wt_status status;
    char message[512];
} sa_task;

static void *sa_task_run(void *arg)
{
    sa_task *t = arg;
    int n = wt_instance_n(t->inst);
    memset(&t->out, 0, sizeof t->out);
    t->out.tour = malloc((size_t)n * sizeof *t->out.tour);
    if (!t->out.tour) {
        t->status = WT_STATUS_OUT_OF_MEMORY;
        return NULL;
    }
    start_tour(n, t->job.seed, t->out.tour);
    t->out.start_length = wt_tour_length(t->inst, t->out.tour);
    wt_params p;
    wt_params_defaults(&p);
    p.algorithm = WT_ALGO_2OPT; /* the default is ils */
    p.time_limit_s = 300;
    wt_search_ctl ctl;
    wt_ctl_init(&ctl, &p);
    ctl.init_length = t->out.start_length;
    wt_error err = {0};
    wt_sa_job job = t->job;
    t->out.opts.force_block = t->force_block;
    if (gpu_is_cpu)
        t->status = wt_cpu_sa(t->inst, &job, &ctl, t->out.tour, &t->out.stats, &err);
    else
        t->status = wt_cuda_sa_run(t->inst, &job, &ctl, t->out.tour, &t->out.stats,
                                   &t->out.opts, &err);
    snprintf(t->message, sizeof t->message, "%s", err.message);
    t->out.job = job;
    t->out.stop = ctl.stop;
    t->out.length = wt_tour_length(t->inst, t->out.tour);
    return NULL;
}

/* Runs from several host threads at once (as bench sa does) are the runs
 * they are alone: two sizes on the warp kernel and on the block kernel (a
 * kernel's shared-memory limit is process-wide, so runs of different sizes
 * must not trip each other), and ATT, which takes the block kernel and the
 * uploaded instance; half of them with local moves (their own lists). */
static void test_concurrent_runs(void **state)
{
    (void)state;
    enum { K = 8 };
    wt_instance *insts[3] = {typed(WT_EUC_2D, 200, 11, 1000.0), typed(WT_EUC_2D, 700, 12, 1000.0),
                             typed(WT_ATT, 300, 13, 5000.0)};
    sa_task alone[K], together[K];
    for (int k = 0; k < K; k++) {
        sa_task t = {.inst = insts[k % 3], .job = short_job(20 + (uint64_t)k, 64, 32),
                     .force_block = k % 4 == 3};
        t.job.near = k % 2 ? 10 : 0;
        alone[k] = together[k] = t;
    }
    for (int k = 0; k < K; k++) sa_task_run(&alone[k]);
    pthread_t th[K];
    int started = 0;
    for (; started < K; started++)
        if (pthread_create(&th[started], NULL, sa_task_run, &together[started]) != 0) break;
    for (int k = 0; k < started; k++) pthread_join(th[k], NULL);
    assert_int_equal(started, K);
    for (int k = 0; k < K; k++) {
        if (alone[k].status != WT_OK || together[k].status != WT_OK)
            fail_msg("run %d failed: alone: %s; together: %s", k, alone[k].message,
                     together[k].message);
        check_run(alone[k].inst, &together[k].out, true);
        check_same(alone[k].inst, &alone[k].out, &together[k].out,
                   together[k].force_block ? "block kernel, alone and concurrently"
                                           : "alone and concurrently");
        sa_out_free(&alone[k].out);
        sa_out_free(&together[k].out);
    }
    for (int i = 0; i < 3; i++) wt_instance_free(insts[i]);
}

/* Near zero temperature no worsening move is accepted; at a high one some
 * are (so the count is really counted). */
static void test_cold_never_worsens(void **state)
{
    (void)state;
    wt_instance *inst = typed(WT_EUC_2D, 200, 6, 1000.0);
    wt_sa_job cold = short_job(3, 16, 32), hot = short_job(3, 16, 32);
    cold.t_start = 1e-9;
    cold.t_end = 1e-10; /* 4 steps */
    cold.alpha = 0.5;
    hot.t_start = 1e6;
    hot.t_end = 5e5;
    hot.alpha = 0.9;
    sa_out c = run(inst, cold, true, false), h = run(inst, hot, true, false);
    check_run(inst, &c, true);
    check_run(inst, &h, true);
    if (!gpu_is_cpu && c.opts.worsened != 0)
        fail_msg("at temperature 1e-9 the GPU accepted %" PRIu64 " worsening moves",
                 c.opts.worsened);
    if (!gpu_is_cpu && h.opts.worsened == 0)
        fail_msg("at temperature 1e6 the GPU accepted no worsening move: not counted?");
    if (c.stats.accepted == 0)
        fail_msg("at temperature 1e-9 not even an improving move was accepted");
    sa_out_free(&c);
    sa_out_free(&h);
    wt_instance_free(inst);
}

int main(void)
{
    int skip = gpu_test_begin(&gpu_is_cpu);
    if (skip) return skip;
    const struct CMUnitTest tests[] = {
        GPU_TEST(test_matches_cpu),
        GPU_TEST(test_default_plan_matches_cpu),
        GPU_TEST(test_shared_and_global_lists),
        GPU_TEST(test_near_matches_cpu),
        GPU_TEST(test_large_global),
        GPU_TEST(test_geo_valid),
        GPU_TEST(test_tsplib_large),
        GPU_TEST(test_same_seed_same_result),
        GPU_TEST(test_cold_never_worsens),
        GPU_TEST(test_concurrent_runs),
    };
    gpu_test_filters();
    return cmocka_run_group_tests(tests, NULL, NULL);
}
