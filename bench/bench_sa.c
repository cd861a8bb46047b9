/*
 * bench_sa.c - `warptour-bench sa`: simulated annealing as in Lam et al.'s
 * Tables 2, 3 and 4.
 *
 * For each instance and variant (cuda: the GPU's PSPM; cpu-sspm, cpu-pssm:
 * the paper's CPU baselines, §4.3) it anneals --runs times from Ts = 10000
 * to Te = 0.1 (Table 1), seeds --seed, --seed + 1, ..., and reports the mean
 * SSES (equation 4: moves explored per second, i.e. TB x TPB x iterations
 * over the search time) and the mean SEC (equation 5: % above the optimum).
 * Table 3's throughput experiment times each run until it first reaches a
 * threshold length.  The paper does not list its thresholds, only how they
 * were chosen: the shortest length CPU SSPM reached in the Table 2 runs.
 * So ours is the shortest cpu-sspm length of this invocation (when that
 * variant runs), and the time is when a progress report (every 10 ms; the
 * GPU publishes its best every 1024 iterations, read every 50 ms) first
 * shows a length at or below it.  The paper's C2050 / Xeon X5650 figures
 * are printed beside ours; its Table 3 time is 1 / TC.
 * --tpb-sweep repeats Table 4: cuda with TPB and cpu-sspm with Pm of 4, 8,
 * 12, 24, 32 and 48, mean SSES and SEC over the instances.
 *
 * Every anneal ends with the library's 2-opt + Or-opt polish (wt_params
 * sa_polish, on by default); SEC is reported for the polished tour and, as
 * "raw", for the annealed one (wt_result sa_unpolished_length), which is
 * what the paper's figures compare with.
 *
 * The R runs of an instance run --parallel-runs at a time, each in a host
 * thread of its own calling wt_solve (default: all R on the GPU, whose
 * searches of one run leave most of it idle, and one at a time on the CPU,
 * where a run takes every core).  Run r has seed --seed + r whichever
 * thread runs it, and the lines are printed in run order once all are
 * done, so the output does not depend on the scheduling, timings aside:
 * concurrent runs share the device, so a run's SSES is its share.
 */
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

enum { SA_MAX_RUNS = 1000 };

static const char *const sa_variant_label[SA_N_VARIANTS] = {"cuda", "cpu-sspm", "cpu-pssm"};

/* Lam et al. Table 2 (SSES in 1e6 moves/s, SEC in %) and Table 3 (TC in
 * 1e-2 solutions/s) on a Tesla C2050 and two Xeon X5650. */
typedef struct sa_paper_row {
    const char *name;
    double sspm_sses, sspm_sec, pssm_sses, pssm_sec, gpu_sses, gpu_sec;
    double tc_sspm, tc_gpu;
} sa_paper_row;

static const sa_paper_row sa_paper[] = {
    {"rd100", 4.6, 2.4, 19.4, 31.2, 456.8, 0.14, 0.99, 48.31},
    {"eil101", 4.3, 3.8, 19.6, 19.4, 447.8, 0.49, 4.57, 35.34},
    {"bier127", 3.6, 4.0, 17.6, 23.4, 466.4, 0.92, 8.85, 66.67},
    {"ch150", 5.5, 2.9, 16.2, 35.9, 459.4, 1.19, 0.45, 32.36},
    {"kroA150", 4.2, 5.1, 16.1, 39.5, 461.5, 1.08, 1.97, 43.67},
    {"pr152", 4.6, 1.9, 16.1, 75.8, 466.6, 0.17, 0.26, 29.85},
    {"u159", 4.6, 4.3, 15.4, 40.7, 463.8, 1.00, 0.50, 37.31},
    {"rat195", 4.3, 6.2, 13.9, 37.0, 446.2, 2.50, 1.69, 21.98},
    {"ts225", 5.6, 5.5, 11.9, 28.4, 468.7, 1.06, 2.27, 44.84},
    {"tsp225", 5.4, 4.6, 12.1, 35.2, 447.9, 2.37, 0.09, 19.80},
    {"gil262", 4.0, 6.1, 11.3, 50.7, 447.0, 2.19, 1.58, 16.13},
    {"pr264", 4.8, 11.2, 11.3, 116.0, 462.1, 4.20, 0.93, 24.04},
    {"a280", 4.6, 5.9, 11.1, 53.2, 443.9, 2.75, 1.01, 15.13},
    {"pr299", 5.6, 5.7, 10.7, 48.7, 463.2, 1.81, 0.31, 16.26},
    {"lin318", 4.5, 9.1, 10.4, 63.6, 465.8, 3.63, 0.69, 18.52},
    {"rd400", 4.8, 7.5, 9.1, 40.5, 453.0, 3.62, 1.21, 12.14},
    {"fl417", 4.4, 6.6, 8.8, 116.2, 449.6, 1.41, 0.93, 9.43},
    {"pr439", 4.7, 10.5, 8.6, 72.1, 462.2, 5.16, 2.66, 16.42},
    {"pcb442", 4.5, 7.5, 8.4, 43.5, 458.2, 3.81, 1.39, 13.02},
    {"d493", 4.7, 6.7, 7.7, 47.0, 452.0, 4.30, 0.49, 9.09},
};

/* Table 4: TPB (GPU) = Pm (CPU SSPM); SSES 1e6 moves/s, SEC %. */
static const struct {
    int tpb;
    double cpu_sses, cpu_sec, gpu_sses, gpu_sec;
} sa_paper_tpb[] = {
    {4, 2.9, 9.0, 154.8, 2.2},  {8, 3.8, 6.5, 305.5, 2.1},  {12, 4.7, 5.9, 457.1, 2.2},
    {24, 5.4, 4.2, 756.8, 1.5}, {32, 2.5, 4.0, 909.7, 1.4}, {48, 2.0, 3.6, 652.2, 1.1},
};

static const sa_paper_row *sa_paper_find(const char *name)
{
    for (size_t i = 0; i < sizeof sa_paper / sizeof sa_paper[0]; i++)
        if (strcmp(sa_paper[i].name, name) == 0) return &sa_paper[i];
    return NULL;
}

/* Means over the runs of one variant on one instance. */
typedef struct sa_cell {
    int runs;               /* completed */
    double sses, sec, secs; /* sums: moves/s, % above optimum, search seconds */
    double sec_raw;         /* sum: % above optimum of the annealed tour, before the polish */
    int64_t best;           /* shortest length */
    int searches, moves;
    int reached;            /* runs that reached the threshold */
    double reach_s;         /* sum of their times to it */
    double wall_s;          /* wall time of all the runs, overlapping ones counted once */
    int parallel;           /* runs at a time */
} sa_cell;

/* The progress callback's view of a run: when the threshold fell. */
typedef struct sa_watch {
    int64_t threshold; /* <= 0: none */
    double first;      /* seconds since wt_solve began; -1 not yet */
} sa_watch;

static int sa_on_progress(const wt_progress *p, void *user)
{
    sa_watch *w = user;
    if (w->threshold > 0 && w->first < 0 && p->best_length <= w->threshold)
        w->first = p->elapsed_s;
    return 0;
}

static void sa_params(const bench_opts *o, int v, int moves, uint64_t seed, wt_params *p)
{
    bench_params_defaults(o, p);
    p->algorithm = WT_ALGO_SA;
    p->backend = v == SA_CUDA ? WT_BACKEND_CUDA : WT_BACKEND_CPU;
    p->sa_cpu = v == SA_PSSM ? WT_SA_PSSM : WT_SA_SSPM;
    p->seed = seed;
    p->threads = o->threads;
    p->time_limit_s = o->seconds;
    if (v == SA_CUDA) {
        p->sa_searches = o->sa_searches;
        p->sa_moves = moves;
    } else if (v == SA_SSPM) {
        p->sa_moves = moves;
    }
    p->sa_near = o->sa_near;
}

/* One run's outcome, kept until all runs of the batch are over, so that
 * they are printed in run order however they were scheduled. */
typedef struct sa_outcome {
    bool done;               /* wt_solve succeeded */
    char error[512];         /* else why (empty: not run, the cuda variant had failed) */
    int searches, moves;
    double search_s, time_s, polish_s;
    uint64_t moves_evaluated;
    int64_t length, unpolished;
    wt_stop_reason stop;
    double first;            /* when the threshold fell; -1 never */
} sa_outcome;

/* The runs of one variant on one instance, shared by the threads that run
 * them: each takes the next run number, so run r has seed --seed + r
 * whichever thread runs it and whenever. */
typedef struct sa_batch {
    const wt_instance *inst;
    const bench_opts *o;
    int v, moves;
    int64_t threshold;
    int runs;
    sa_outcome *out;         /* runs */
    int next;                /* the next run to start (atomic) */
    int failed;              /* a cuda run failed: skip the rest (atomic) */
} sa_batch;

static void sa_one(sa_batch *b, int r)
{
    sa_outcome *out = &b->out[r];
    wt_params p;
    sa_params(b->o, b->v, b->moves, b->o->seed + (uint64_t)r, &p);
    sa_watch w = {b->threshold, -1};
    p.progress = sa_on_progress;
    p.progress_user = &w;
    p.progress_interval_s = 0.01;
    wt_result res;
    wt_error err = {0};
    if (wt_solve(b->inst, &p, &res, &err) != WT_OK) {
        snprintf(out->error, sizeof out->error, "%s", err.message[0] ? err.message : "failed");
        if (b->v == SA_CUDA) __atomic_store_n(&b->failed, 1, __ATOMIC_RELAXED);
        return;
    }
    if (b->threshold > 0 && w.first < 0 && res.length <= b->threshold) w.first = res.time_s;
    *out = (sa_outcome){
        .done = true, .searches = res.sa.searches, .moves = res.sa.moves_per_search,
        .search_s = res.search_time_s, .time_s = res.time_s, .polish_s = res.sa.polish_time_s,
        .moves_evaluated = res.moves_evaluated, .length = res.length,
        .unpolished = res.sa.unpolished_length, .stop = res.stop, .first = w.first,
    };
    wt_result_free(&res);
}

static void *sa_worker(void *arg)
{
    sa_batch *b = arg;
    for (;;) {
        int r = __atomic_fetch_add(&b->next, 1, __ATOMIC_RELAXED);
        if (r >= b->runs) return NULL;
        if (b->v == SA_CUDA && __atomic_load_n(&b->failed, __ATOMIC_RELAXED)) continue;
        sa_one(b, r);
    }
}

/* Runs at a time for variant v: --parallel-runs, else all of them on the
 * GPU (one run leaves most of it idle) and one on the CPU (a run takes
 * every core). */
static int sa_parallel(const bench_opts *o, int v)
{
    int64_t p = o->parallel_runs > 0 ? o->parallel_runs : v == SA_CUDA ? o->runs : 1;
    return (int)(p < o->runs ? p : o->runs);
}

/* Runs the batch on `threads` threads, the calling one included; fewer
 * when the system refuses more (the runs are the same, only later). */
static void sa_run_batch(sa_batch *b, int threads)
{
    pthread_t th[SA_MAX_RUNS];
    int started = 0;
    for (; started < threads - 1; started++)
        if (pthread_create(&th[started], NULL, sa_worker, b) != 0) break;
    sa_worker(b);
    for (int k = 0; k < started; k++) pthread_join(th[k], NULL);
}

/* Prints run r's line and adds it to cell. */
static void sa_record(const wt_instance *inst, const sa_batch *b, int r, sa_cell *cell)
{
    const sa_outcome *out = &b->out[r];
    uint64_t seed = b->o->seed + (uint64_t)r;
    if (!out->done) {
        if (out->error[0])
            printf("# note: %s on %s (seed %" PRIu64 ") failed: %s\n", sa_variant_label[b->v],
                   wt_instance_name(inst), seed, out->error);
        return;
    }
    int64_t opt = wt_instance_known_optimum(inst);
    double sses = out->search_s > 0 ? (double)out->moves_evaluated / out->search_s : 0;
    double sec = bench_gap(out->length, opt), sec_raw = bench_gap(out->unpolished, opt);
    char g[32], g_raw[32];
    printf("bench=sa instance=%s n=%d variant=%s seed=%" PRIu64 " searches=%d moves=%d "
           "seconds=%.4f moves_evaluated=%" PRIu64 " sses=%.4g length=%" PRId64 " sec_percent=%s "
           "stop=%s threshold=%" PRId64 " threshold_s=%.4f unpolished_length=%" PRId64
           " sec_unpolished_percent=%s polish_s=%.4f parallel=%d\n",
           wt_instance_name(inst), wt_instance_n(inst), sa_variant_label[b->v], seed,
           out->searches, out->moves, out->search_s, out->moves_evaluated, sses, out->length,
           bench_fmt_gap(sec, g, sizeof g), wt_stop_reason_name(out->stop), b->threshold,
           out->first, out->unpolished, bench_fmt_gap(sec_raw, g_raw, sizeof g_raw),
           out->polish_s, cell->parallel);
    cell->runs++;
    cell->sses += sses;
    cell->sec += sec;
    cell->sec_raw += sec_raw;
    cell->secs += out->search_s;
    cell->best = cell->best < 0 || out->length < cell->best ? out->length : cell->best;
    cell->searches = out->searches;
    cell->moves = out->moves;
    if (out->first >= 0) {
        cell->reached++;
        cell->reach_s += out->first;
    }
}

/* R runs of variant v on inst into cell, sa_parallel(o, v) at a time. */
static void sa_runs(const wt_instance *inst, const bench_opts *o, int v, int moves,
                    int64_t threshold, sa_cell *cell, bool *cuda_dead)
{
    memset(cell, 0, sizeof *cell);
    cell->best = -1;
    cell->parallel = sa_parallel(o, v);
    if (v == SA_CUDA && *cuda_dead) return;
    sa_batch b = {.inst = inst, .o = o, .v = v, .moves = moves, .threshold = threshold,
                  .runs = (int)o->runs, .out = calloc((size_t)o->runs, sizeof *b.out)};
    if (!b.out) {
        printf("# note: %s on %s: out of memory\n", sa_variant_label[v], wt_instance_name(inst));
        return;
    }
    double t0 = bench_now();
    sa_run_batch(&b, cell->parallel);
    cell->wall_s = bench_now() - t0;
    for (int r = 0; r < b.runs; r++) sa_record(inst, &b, r, cell);
    if (b.failed) *cuda_dead = true;
    free(b.out);
}

static double sa_mean(double sum, int n) { return n > 0 ? sum / n : NAN; }

/* The summary table: ours beside the paper's, per instance.  "raw" is
 * the annealed tour, before the polish; the paper has no polish. */
static void sa_table(const bool live[SA_N_VARIANTS], char names[][64],
                     sa_cell (*cells)[SA_N_VARIANTS], int count, double wall_s)
{
    printf("\n%-9s %-9s %7s %10s %7s %7s %9s %9s | %10s %7s %9s\n", "instance", "variant",
           "TBxTPB", "SSES M/s", "raw %", "SEC %", "to thr", "mean s", "paper SSES", "SEC %",
           "to thr");
    double avg_sses[SA_N_VARIANTS] = {0}, avg_sec[SA_N_VARIANTS] = {0};
    double avg_raw[SA_N_VARIANTS] = {0}, total_s[SA_N_VARIANTS] = {0};
    double total_wall[SA_N_VARIANTS] = {0};
    int total_runs[SA_N_VARIANTS] = {0}, avg_n[SA_N_VARIANTS] = {0};
    int parallel[SA_N_VARIANTS] = {0};
    for (int i = 0; i < count; i++) {
        const sa_paper_row *pr = sa_paper_find(names[i]);
        for (int v = 0; v < SA_N_VARIANTS; v++) {
            const sa_cell *c = &cells[i][v];
            if (!live[v] && c->runs == 0) continue;
            double ps = NAN, pe = NAN, pt = NAN;
            if (pr) {
                ps = v == SA_CUDA ? pr->gpu_sses : v == SA_SSPM ? pr->sspm_sses : pr->pssm_sses;
                pe = v == SA_CUDA ? pr->gpu_sec : v == SA_SSPM ? pr->sspm_sec : pr->pssm_sec;
                double tc = v == SA_CUDA ? pr->tc_gpu : v == SA_SSPM ? pr->tc_sspm : NAN;
                pt = tc > 0 ? 100.0 / tc : NAN;
            }
            char shape[24], a[32], b[32], b2[32], d[32], e[32], f[32], g[32], h[32];
            snprintf(shape, sizeof shape, "%dx%d", c->searches, c->moves);
            double sses = sa_mean(c->sses, c->runs) / 1e6, sec = sa_mean(c->sec, c->runs);
            double raw = sa_mean(c->sec_raw, c->runs);
            printf("%-9s %-9s %7s %10s %7s %7s %9s %9s | %10s %7s %9s\n", names[i],
                   sa_variant_label[v], shape, bench_fmt_num("%.1f", sses, a, sizeof a),
                   bench_fmt_num("%.2f", raw, b2, sizeof b2),
                   bench_fmt_num("%.2f", sec, b, sizeof b),
                   bench_fmt_duration(c->reached ? c->reach_s / c->reached : -1, d, sizeof d),
                   bench_fmt_num("%.3f", sa_mean(c->secs, c->runs), e, sizeof e),
                   bench_fmt_num("%.1f", ps, f, sizeof f), bench_fmt_num("%.2f", pe, g, sizeof g),
                   bench_fmt_duration(isnan(pt) ? -1 : pt, h, sizeof h));
            total_s[v] += c->secs;
            total_wall[v] += c->wall_s;
            total_runs[v] += c->runs;
            parallel[v] = c->parallel;
            if (c->runs > 0 && !isnan(sec)) {
                avg_sses[v] += sses;
                avg_sec[v] += sec;
                avg_raw[v] += raw;
                avg_n[v]++;
            }
        }
    }
    static const double paper_avg_sses[SA_N_VARIANTS] = {457.1, 4.7, 12.8};
    static const double paper_avg_sec[SA_N_VARIANTS] = {2.2, 5.9, 50.9};
    for (int v = 0; v < SA_N_VARIANTS; v++) {
        if (avg_n[v] == 0) continue;
        char a[32], b[32], b2[32];
        printf("%-9s %-9s %7s %10s %7s %7s %9s %9s | %10.1f %7.2f %9s\n", "average",
               sa_variant_label[v], "", bench_fmt_num("%.1f", avg_sses[v] / avg_n[v], a, sizeof a),
               bench_fmt_num("%.2f", avg_raw[v] / avg_n[v], b2, sizeof b2),
               bench_fmt_num("%.2f", avg_sec[v] / avg_n[v], b, sizeof b), "", "",
               paper_avg_sses[v], paper_avg_sec[v], "");
    }
    for (int v = 0; v < SA_N_VARIANTS; v++)
        if (total_runs[v] > 0)
            printf("whole table: %.1f s of %s time (%s, %d runs, searches only), %.1f s wall "
                   "with %d run%s at a time\n", total_s[v], v == SA_CUDA ? "GPU" : "CPU",
                   sa_variant_label[v], total_runs[v], total_wall[v], parallel[v],
                   parallel[v] == 1 ? "" : "s");
    printf("whole table: %.1f s wall in all\n", wall_s);
}

/* Table 4: mean SSES and SEC over the instances for each TPB / Pm. */
static int sa_tpb_sweep(const bench_opts *o, const bool live[SA_N_VARIANTS], double t0)
{
    bool cuda_dead = !live[SA_CUDA];
    printf("\n%5s %-9s %10s %7s %7s | %10s %7s\n", "TPB", "variant", "SSES M/s", "raw %",
           "SEC %", "paper SSES", "SEC %");
    for (size_t k = 0; k < sizeof sa_paper_tpb / sizeof sa_paper_tpb[0]; k++) {
        for (int v = SA_CUDA; v <= SA_SSPM; v++) {
            if (!live[v] || (v == SA_CUDA && cuda_dead)) continue;
            double sses = 0, sec = 0, raw = 0;
            int n = 0;
            for (int i = 0; i < o->n_instances; i++) {
                int status;
                wt_instance *inst = bench_load_instance(o, o->instances[i], WT_MAX_CITIES, &status);
                if (!inst) continue;
                sa_cell c;
                sa_runs(inst, o, v, sa_paper_tpb[k].tpb, -1, &c, &cuda_dead);
                if (c.runs > 0) {
                    sses += c.sses / c.runs / 1e6;
                    sec += c.sec / c.runs;
                    raw += c.sec_raw / c.runs;
                    n++;
                }
                wt_instance_free(inst);
            }
            char a[32], b[32], b2[32];
            printf("%5d %-9s %10s %7s %7s | %10.1f %7.1f\n", sa_paper_tpb[k].tpb,
                   sa_variant_label[v], bench_fmt_num("%.1f", n ? sses / n : NAN, a, sizeof a),
                   bench_fmt_num("%.2f", n ? raw / n : NAN, b2, sizeof b2),
                   bench_fmt_num("%.2f", n ? sec / n : NAN, b, sizeof b),
                   v == SA_CUDA ? sa_paper_tpb[k].gpu_sses : sa_paper_tpb[k].cpu_sses,
                   v == SA_CUDA ? sa_paper_tpb[k].gpu_sec : sa_paper_tpb[k].cpu_sec);
            fflush(stdout);
        }
    }
    printf("whole sweep: %.1f s wall\n", bench_now() - t0);
    return EXIT_OK;
}

/* Which variants run: those asked for, cuda only where a GPU is usable. */
static void sa_live(const bench_opts *o, bool live[SA_N_VARIANTS])
{
    for (int v = 0; v < SA_N_VARIANTS; v++) live[v] = o->variant_on[v];
    char gpu[160];
    if (live[SA_CUDA] && !wt_cuda_available(gpu, sizeof gpu)) {
        printf("# note: cuda variant skipped: %s\n", gpu);
        live[SA_CUDA] = false;
    }
}

int bench_sa(const bench_opts *o)
{
    char dir[4096];
    printf("# instances: %d named, looked up in %s; %" PRId64 " runs each, seeds %" PRIu64
           "..; Ts 10000, Te 0.1, alpha 0.99, Sp 10, Se 100; time limit per run: %s\n",
           o->n_instances, bench_instance_dir(o, dir, sizeof dir), o->runs, o->seed,
           o->seconds > 0 ? "--seconds" : "none");
    printf("# threshold (Table 3): the paper lists none; ours is the shortest cpu-sspm length "
           "of these runs, when cpu-sspm runs first\n");
    bool live[SA_N_VARIANTS];
    sa_live(o, live);
    printf("# runs at a time: %d for cuda, %d for the cpu variants (--parallel-runs); "
           "every anneal is polished (2-opt + Or-opt), raw %% is before the polish; moves: %s\n",
           sa_parallel(o, SA_CUDA), sa_parallel(o, SA_SSPM),
           o->sa_near > 0 ? "local (--near)" : "the paper's (insertion anywhere)");
    if (o->sa_near > 0) printf("# local moves: next to one of the %d nearest cities\n", o->sa_near);
    double t0 = bench_now();
    if (o->tpb_sweep) return sa_tpb_sweep(o, live, t0);
    sa_cell(*cells)[SA_N_VARIANTS] = calloc((size_t)o->n_instances, sizeof *cells);
    char(*names)[64] = calloc((size_t)o->n_instances, sizeof *names);
    if (!cells || !names) {
        free(cells);
        free(names);
        fprintf(stderr, "warptour-bench: out of memory\n");
        return EXIT_FAILURE_RUN;
    }
    bool cuda_dead = !live[SA_CUDA];
    int count = 0, status = EXIT_OK;
    /* cpu-sspm first: its best length is the others' threshold. */
    static const int order[SA_N_VARIANTS] = {SA_SSPM, SA_CUDA, SA_PSSM};
    for (int i = 0; i < o->n_instances && status == EXIT_OK; i++) {
        wt_instance *inst = bench_load_instance(o, o->instances[i], WT_MAX_CITIES, &status);
        if (!inst) continue;
        snprintf(names[count], sizeof names[count], "%s", wt_instance_name(inst));
        int64_t threshold = -1;
        for (int k = 0; k < SA_N_VARIANTS; k++) {
            int v = order[k];
            if (!live[v]) continue;
            sa_runs(inst, o, v, o->sa_moves, threshold, &cells[count][v], &cuda_dead);
            if (v == SA_SSPM) threshold = cells[count][v].best;
            fflush(stdout);
        }
        count++;
        wt_instance_free(inst);
    }
    sa_table(live, names, cells, count, bench_now() - t0);
    free(cells);
    free(names);
    return status;
}
