/*
 * bench_timeline.c - `warptour-bench timeline`: the best tour length against
 * wall-clock time from process start, ours beside peer programs'.
 *
 * What a user of a solver sees is the wall clock from the moment the
 * program starts, reading the instance included, so every run here is a
 * fresh process: the bench execs its own binary (/proc/self/exe, so Linux
 * only) in a hidden child mode (`warptour-bench timeline --child T0 ...`) that reads
 * the instance and runs wt_solve with a progress callback every 0.02 s,
 * printing "best LENGTH" on each change, "bound LENGTH" when the run proved
 * a lower bound, and "end LENGTH BACKEND/ALGORITHM STOP INIT ..." at the end
 * (INIT: the start tour it made); --init and --tune
 * reach it as given.  Exec rather than a bare fork: the parent has asked
 * CUDA whether a GPU is there (the header), and a CUDA context does not
 * survive fork.  The child's time limit is max(--at) counted from T0, the
 * parent's clock just before fork, so the reading eats into it as it would
 * for a user.
 *
 * Every line a run prints, ours and the peers' alike, is timestamped by the
 * parent's clock as it arrives (timeline_proc.c), so all are measured the
 * same way.  The best length at time t is the last one that arrived at or
 * before t ("none" when none had).  Runs never overlap: the backends one
 * after another, then each peer (timeline_peers.c) once for each count of
 * --peer-runs, its N processes at once; a run still going at max(--at) +
 * TL_GRACE_S gets SIGTERM, then SIGKILL a second later.
 *
 * The gap is against the instance's known optimum (gap_ref=optimum) or,
 * for a uniform random instance in a square (as `warptour gen uniform`
 * makes), the Beardwood-Halton-Hammersley estimate 0.7124 sqrt(n A) of the
 * optimal length, A the area of the points' bounding box (gap_ref=bhh;
 * an estimate, off by a few tenths of a percent at 100,000 cities).  Where
 * our runs proved a lower bound (wt_result.lower_bound), every column also
 * gets its gap to the largest of them: unlike the other two, a gap that the
 * tour is certainly within.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"
#include "timeline.h"

enum {
    TL_MAX_AT = 16,
    TL_MAX_BACKENDS = 3,
    TL_MAX_INSTANCES = 32,
    TL_MAX_FORWARD = 32,
    TL_MAX_PEERS = 4,       /* --peer options */
    TL_MAX_PEER_RUNS = 4,   /* counts in --peer-runs */
    TL_MAX_PEER_PROCS = 1024, /* processes of a peer at once */
    TL_MAX_COLUMNS = TL_MAX_BACKENDS + TL_MAX_PEERS * TL_MAX_PEER_RUNS,
};

#define TL_GRACE_S 2.0        /* past max(--at) before a run is stopped */
#define TL_INTERVAL_S 0.02    /* our progress callback's interval */
#define TL_BHH 0.7124         /* Beardwood-Halton-Hammersley constant (Johnson et al.) */

typedef struct tl_opts {
    double at[TL_MAX_AT];                     /* ascending */
    int n_at;
    wt_algorithm algorithm;
    wt_ils_descent ils_descent;
    wt_backend_kind backends[TL_MAX_BACKENDS];
    int n_backends;
    int threads;
    uint64_t seed;
    wt_init_method init;                      /* --init (solve's default: greedy) */
    wt_tuning tuning;                         /* --tune NAME=VALUE, repeatable */
    const char *forward[2 * TL_MAX_FORWARD];  /* --init and --tune as given, option and
                                                 value, passed on to our runs */
    int n_forward;
    tl_peer peers[TL_MAX_PEERS];              /* --peer NAME=PATH, in the order given */
    int n_peers;
    int peer_runs[TL_MAX_PEER_RUNS];          /* --peer-runs: processes at once (default 1) */
    int n_peer_runs;
    const char *paths[TL_MAX_INSTANCES];      /* instance files */
    int n_paths;
    int64_t gen_n[TL_MAX_INSTANCES];          /* --gen-uniform sizes */
    int n_gen;
    double child_t0;                          /* --child: the parent's clock at fork; <0: parent */
} tl_opts;

static double max_at(const tl_opts *o) { return o->at[o->n_at - 1]; }

/* ------------------------------------------------------------ the child */

static int child_progress(const wt_progress *p, void *user)
{
    int64_t *last = user;
    if (p->best_length > 0 && p->best_length != *last) {
        *last = p->best_length;
        printf("best %" PRId64 "\n", p->best_length);
        fflush(stdout);
    }
    return 0;
}

/* The hidden child mode: one run of our search on one instance. */
static int timeline_child(const tl_opts *o)
{
    if (o->n_paths != 1 || o->n_backends != 1) return EXIT_USAGE;
    int status;
    wt_instance *inst = cli_read_instance(o->paths[0], &status);
    if (!inst) return status;
    wt_params p;
    wt_params_defaults(&p);
    p.algorithm = o->algorithm;
    p.ils_descent = o->ils_descent;
    p.backend = o->backends[0];
    p.seed = o->seed;
    p.threads = o->threads;
    p.init = o->init;
    p.tuning = &o->tuning;
    p.time_limit_s = o->child_t0 + max_at(o) - bench_now();
    if (p.time_limit_s < 1e-3) p.time_limit_s = 1e-3; /* the reading took it all */
    int64_t last = 0;
    p.progress = child_progress;
    p.progress_user = &last;
    p.progress_interval_s = TL_INTERVAL_S;
    wt_result res;
    wt_error err = {0};
    if (wt_solve(inst, &p, &res, &err) != WT_OK) {
        wt_instance_free(inst);
        return cli_report_error(&err);
    }
    double returned = bench_now() - o->child_t0;
    /* The GPU's kernels' share of the search's wall time (issue 25's busy
     * GPU), 0 where no kernel ran after the start tour: the windows' kernels
     * and, where the GPU made the first descent (a 2-opt descent on cuda),
     * its passes' evaluation kernels (the moves' application kernels, a
     * small part, are not timed). */
    double kernels = res.ils.gpu_time_s + (res.host ? 0 : res.scan.time_s);
    double busy = res.search_time_s > 0 ? kernels / res.search_time_s : 0;
    double span = res.ils.concurrent_windows_s;
    double concurrent = span > 0 ? res.ils.gpu_time_s / span : 0;
    /* The bound before the end line, so that the run's record is whole when
     * the end arrives; none (-1) prints nothing. */
    if (res.lower_bound > 0) printf("bound %" PRId64 "\n", res.lower_bound);
    printf("end %" PRId64 " %s/%s %s %s %.3f %.3f %.3f\n", res.length, res.backend,
           wt_algorithm_name(o->algorithm), wt_stop_reason_name(res.stop),
           wt_init_method_name(res.init_made), busy, concurrent, returned);
    wt_result_free(&res);
    wt_instance_free(inst);
    return EXIT_OK;
}

/* ------------------------------------------------------------ our runs */

/* The child's lines: "best L", "bound B", "end ...". */
static void our_line(tl_run *r, double t, char *line)
{
    int64_t len;
    char ran[48], stop[32], init[32];
    double busy = 0, concurrent = 0, returned = 0;
    if (sscanf(line, "best %" SCNd64, &len) == 1) {
        tl_run_add(r, t, len);
    } else if (sscanf(line, "bound %" SCNd64, &len) == 1) {
        if (len > 0) r->bound = len;
    } else if (sscanf(line, "end %" SCNd64 " %47s %31s %31s %lf %lf %lf", &len, ran, stop, init,
                      &busy, &concurrent, &returned) == 7) {
        r->returned_s = returned;
        r->gpu_busy = busy;
        r->gpu_busy_concurrent = concurrent;
        tl_run_add(r, t, len);
        snprintf(r->ran, sizeof r->ran, "%s", ran);
        snprintf(r->stop, sizeof r->stop, "%s", stop);
        snprintf(r->init, sizeof r->init, "%s", init);
    }
}

/* ------------------------------------------------------------- reporting */

/* The reference of an instance's gaps: its known optimum, else for a
 * uniform random instance the BHH estimate; *kind says which ("none": no
 * gap). */
static double gap_reference(const wt_instance *inst, const char **kind)
{
    int64_t opt = wt_instance_known_optimum(inst);
    if (opt > 0) {
        *kind = "optimum";
        return (double)opt;
    }
    double lo[3], hi[3];
    bool uniform = strncmp(wt_instance_name(inst), "uniform-", 8) == 0 ||
                   strstr(wt_instance_comment(inst), "uniform in [") != NULL;
    if (uniform && wt_instance_bbox(inst, lo, hi) && hi[0] > lo[0] && hi[1] > lo[1]) {
        *kind = "bhh";
        return TL_BHH * sqrt((double)wt_instance_n(inst) * (hi[0] - lo[0]) * (hi[1] - lo[1]));
    }
    *kind = "none";
    return NAN;
}

static double gap_of(int64_t length, double ref)
{
    return length > 0 && ref > 0 ? 100.0 * ((double)length - ref) / ref : NAN;
}

static const char *fmt_len(int64_t length, char *buf, size_t size)
{
    if (length < 0) snprintf(buf, size, "none");
    else snprintf(buf, size, "%" PRId64, length);
    return buf;
}

/* A column of the results: one of our backends, or a peer run as `runs`
 * processes at once. */
typedef struct tl_column {
    char key[48];    /* backend= of the bench= lines: "cpu", "linkern", "lkh-x16" */
    char label[48];  /* the table's heading: "cpu", "linkern", "16 lkhs" */
    int backend;     /* ours: the index into tl_opts.backends; -1: a peer */
    int peer, runs;  /* a peer: the index into tl_opts.peers, its processes at once */
} tl_column;

/* The columns every instance gets: our backends, then each peer once for
 * each count of --peer-runs. */
static int build_columns(const tl_opts *o, tl_column *cols)
{
    int m = 0;
    for (int b = 0; b < o->n_backends; b++) {
        tl_column *c = &cols[m++];
        *c = (tl_column){.backend = b, .peer = -1, .runs = 1};
        const char *name = wt_backend_name(o->backends[b]);
        snprintf(c->key, sizeof c->key, "%s", name);
        snprintf(c->label, sizeof c->label, "%s", name);
    }
    for (int p = 0; p < o->n_peers; p++)
        for (int k = 0; k < o->n_peer_runs; k++) {
            tl_column *c = &cols[m++];
            *c = (tl_column){.backend = -1, .peer = p, .runs = o->peer_runs[k]};
            tl_peer_names(&o->peers[p], c->runs, c->key, sizeof c->key, c->label,
                          sizeof c->label);
        }
    return m;
}

/* One instance's results, a run per column. */
typedef struct tl_instance {
    char name[64];
    int n;
    double ref;
    const char *ref_kind;
    int64_t bound;    /* the largest lower bound our runs proved, -1: none */
    tl_run runs[TL_MAX_COLUMNS];
    bool ok[TL_MAX_COLUMNS]; /* the run's cells hold what it did */
} tl_instance;

/* The gap of a length at t to the instance's lower bound, NAN without one
 * (or without a tour). */
static double bound_gap(const tl_instance *ti, int64_t length)
{
    return ti->bound > 0 ? gap_of(length, (double)ti->bound) : NAN;
}

static void print_samples(const tl_opts *o, const tl_instance *ti, const tl_column *col,
                          const tl_run *r)
{
    char lb[32];
    fmt_len(ti->bound, lb, sizeof lb);
    for (int a = 0; a < o->n_at; a++) {
        char l[32], g[32], gb[32];
        int64_t len = tl_run_best_at(r, o->at[a]);
        double gap = gap_of(len, ti->ref), gapb = bound_gap(ti, len);
        printf("bench=timeline instance=%s n=%d backend=%s t=%g length=%s gap_percent=%s "
               "gap_ref=%s bound=%s gap_to_bound_percent=%s\n", ti->name, ti->n, col->key,
               o->at[a], fmt_len(len, l, sizeof l),
               isnan(gap) ? "none" : bench_fmt_num("%.3f", gap, g, sizeof g), ti->ref_kind, lb,
               isnan(gapb) ? "none" : bench_fmt_num("%.3f", gapb, gb, sizeof gb));
    }
    char busy[96] = "", seeds[64] = "", stopped[48] = "", bound[48] = "";
    if (r->returned_s > 0) snprintf(busy, sizeof busy, " returned_s=%.3f", r->returned_s);
    if (r->gpu_busy > 0)
        snprintf(busy + strlen(busy), sizeof busy - strlen(busy), " gpu_busy=%.3f", r->gpu_busy);
    if (r->gpu_busy_concurrent > 0)
        snprintf(busy + strlen(busy), sizeof busy - strlen(busy), " gpu_busy_concurrent=%.3f",
                 r->gpu_busy_concurrent);
    if (col->runs > 1)
        snprintf(seeds, sizeof seeds, " seeds=%" PRIu64 "..%" PRIu64, o->seed,
                 o->seed + (uint64_t)col->runs - 1);
    if (r->killed && col->runs > 1)
        snprintf(stopped, sizeof stopped, " (stopped by the bench: %d of %d)", r->killed,
                 col->runs);
    else if (r->killed)
        snprintf(stopped, sizeof stopped, " (stopped by the bench)");
    if (r->bound > 0) snprintf(bound, sizeof bound, " lower_bound=%" PRId64, r->bound);
    printf("# run: instance=%s backend=%s%s%s%s%s%s%s%s%s ended_s=%.3f%s exit=%d%s\n", ti->name,
           col->key, seeds, r->ran[0] ? " ran=" : "", r->ran, r->init[0] ? " init=" : "",
           r->init, r->stop[0] ? " stop=" : "", r->stop, busy, r->exit_s, stopped, r->status,
           bound);
    fflush(stdout);
}

/* A table cell: the gap of len, "none" without a tour. */
static const char *gap_cell(int64_t len, double gap, char *buf, size_t size)
{
    if (len < 0) snprintf(buf, size, "none");
    else bench_fmt_num("%.3f", gap, buf, size);
    return buf;
}

static int width(const char *label, int least)
{
    int w = (int)strlen(label);
    return w > least ? w : least;
}

static void print_table(const tl_opts *o, const tl_instance *ti, int count,
                        const tl_column *cols, int n_cols)
{
    bool bounds = false; /* the bound columns only where a run of ours proved one */
    for (int i = 0; i < count; i++) bounds |= ti[i].bound > 0;
    printf("\n# gap %% to the reference (optimum, or bhh: the BHH estimate) at wall-clock time t "
           "from process start; ratio A/P = A's gap / peer P's; shorter: the shortest tour at "
           "t\n");
    if (bounds)
        printf("# NAME lb: gap %% to the largest lower bound our runs proved (no tour is "
               "shorter: the tour is at most this far above the optimum); - where none\n");
    char head[128]; /* "ratio A/B" of two labels */
    printf("%-22s | %7s | %7s", "instance", "t", "ref");
    for (int c = 0; c < n_cols; c++) {
        printf(" | %*s", width(cols[c].label, 9), cols[c].label);
        snprintf(head, sizeof head, "%s lb", cols[c].label);
        if (bounds) printf(" | %*s", width(head, 9), head);
    }
    for (int b = 0; b < n_cols; b++)
        for (int c = 0; c < n_cols; c++)
            if (cols[b].backend >= 0 && cols[c].peer >= 0) {
                snprintf(head, sizeof head, "ratio %s/%s", cols[b].label, cols[c].label);
                printf(" | %*s", width(head, 10), head);
            }
    printf(" | shorter\n");
    for (int i = 0; i < count; i++) {
        const tl_instance *t = &ti[i];
        for (int a = 0; a < o->n_at; a++) {
            double at = o->at[a];
            printf("%-22s | %7g | %7s", t->name, at, t->ref_kind);
            int64_t best = -1;
            const char *winner = "-";
            bool tie = false;
            double gap[TL_MAX_COLUMNS];
            for (int c = 0; c < n_cols; c++) {
                char g[32];
                int64_t len = t->ok[c] ? tl_run_best_at(&t->runs[c], at) : -1;
                gap[c] = gap_of(len, t->ref);
                printf(" | %*s", width(cols[c].label, 9), gap_cell(len, gap[c], g, sizeof g));
                snprintf(head, sizeof head, "%s lb", cols[c].label);
                if (bounds)
                    printf(" | %*s", width(head, 9), gap_cell(len, bound_gap(t, len), g,
                                                              sizeof g));
                if (len > 0 && (best < 0 || len < best)) {
                    best = len, winner = cols[c].label, tie = false;
                } else if (len > 0 && len == best) {
                    tie = true;
                }
            }
            for (int b = 0; b < n_cols; b++)
                for (int c = 0; c < n_cols; c++)
                    if (cols[b].backend >= 0 && cols[c].peer >= 0) {
                        char g[32];
                        double ratio = gap[c] > 0 ? gap[b] / gap[c] : NAN;
                        snprintf(head, sizeof head, "ratio %s/%s", cols[b].label,
                                 cols[c].label);
                        printf(" | %*s", width(head, 10),
                               bench_fmt_num("%.2f", ratio, g, sizeof g));
                    }
            printf(" | %s\n", tie ? "tie" : winner);
        }
    }
}

/* ----------------------------------------------------------- the parent */

/* A temporary folder for generated instances and the peer's tours. */
static bool make_tmp_dir(char *dir, size_t size)
{
    const char *base = getenv("TMPDIR");
    snprintf(dir, size, "%s/warptour-timeline-XXXXXX", base && base[0] ? base : "/tmp");
    if (mkdtemp(dir)) return true;
    fprintf(stderr, "warptour-bench: cannot create %s: %s\n", dir, strerror(errno));
    return false;
}

/* Writes a uniform instance of n cities (seed 1, as `gen uniform N --seed
 * 1`) to dir/uniformN.tsp; its path into path. */
static bool write_uniform(const char *dir, int64_t n, char *path, size_t size)
{
    snprintf(path, size, "%s/uniform%" PRId64 ".tsp", dir, n);
    FILE *f = fopen(path, "w");
    wt_instance *inst = NULL;
    wt_error err = {0};
    wt_status st = f ? wt_instance_generate(WT_GEN_UNIFORM, (int)n, 1, &inst, &err) : WT_STATUS_IO;
    if (st == WT_OK) st = wt_instance_write_tsplib(inst, f, &err);
    wt_instance_free(inst);
    if (f && fclose(f) != 0 && st == WT_OK) st = WT_STATUS_IO;
    if (st != WT_OK) {
        fprintf(stderr, "warptour-bench: cannot write %s: %s\n", path,
                err.message[0] ? err.message : strerror(errno));
        unlink(path);
        return false;
    }
    return true;
}

/* Our run of one instance on backend b in a fresh process. */
static void run_ours(const tl_opts *o, const char *path, wt_backend_kind b, tl_run *r)
{
    char t0[64], at[32], seed[32], threads[16];
    snprintf(at, sizeof at, "%.17g", max_at(o));
    snprintf(seed, sizeof seed, "%" PRIu64, o->seed);
    snprintf(threads, sizeof threads, "%d", o->threads);
    /* T0 is the parent's clock at fork; tl_run_processes takes it just before. */
    snprintf(t0, sizeof t0, "%.9f", bench_now());
    char *argv[18 + 2 * TL_MAX_FORWARD + 1] = {
        "/proc/self/exe", "timeline", "--child", t0,
        "--algorithm", (char *)wt_algorithm_name(o->algorithm),
        "--ils-descent", (char *)wt_ils_descent_name(o->ils_descent),
        "--backends", (char *)wt_backend_name(b), "--seed", seed, "--at", at,
        (char *)path};
    int argc = 15;
    if (o->threads != 0) { /* 0, all cores, is the default */
        argv[argc++] = "--threads";
        argv[argc++] = threads;
    }
    for (int k = 0; k < o->n_forward; k++) argv[argc++] = (char *)o->forward[k];
    argv[argc] = NULL;
    char **argvs[1] = {argv};
    tl_run_processes(argvs, 1, NULL, max_at(o) + TL_GRACE_S, our_line, r);
}

/* Every column's run on one instance: ours first, all of them before their
 * lines are printed (the lines carry the instance's bound, the largest of
 * our runs'), then each peer's, printed as it ends. */
static int timeline_instance(const tl_opts *o, const char *dir, const char *path,
                             const tl_column *cols, int n_cols, tl_instance *ti)
{
    int status;
    wt_instance *inst = cli_read_instance(path, &status);
    if (!inst) return status;
    snprintf(ti->name, sizeof ti->name, "%s", wt_instance_name(inst));
    ti->n = wt_instance_n(inst);
    ti->ref = gap_reference(inst, &ti->ref_kind);
    ti->bound = -1;
    wt_instance_free(inst);
    for (int c = 0; c < n_cols; c++) {
        if (cols[c].backend < 0) continue;
        tl_run *r = &ti->runs[c];
        r->bound = -1;
        run_ours(o, path, o->backends[cols[c].backend], r);
        ti->ok[c] = r->status == 0 || r->killed;
        if (!ti->ok[c])
            printf("# note: %s on %s failed (exit %d); its cells are empty\n", cols[c].key,
                   ti->name, r->status);
        else if (r->bound > ti->bound)
            ti->bound = r->bound;
    }
    for (int c = 0; c < n_cols; c++)
        if (cols[c].backend >= 0 && ti->ok[c]) print_samples(o, ti, &cols[c], &ti->runs[c]);
    for (int c = 0; c < n_cols; c++) {
        if (cols[c].peer < 0) continue;
        tl_run *r = &ti->runs[c];
        r->bound = -1;
        ti->ok[c] = tl_peer_run(&o->peers[cols[c].peer], cols[c].runs, o->seed, max_at(o),
                                max_at(o) + TL_GRACE_S, dir, path, ti->n, r);
        if (ti->ok[c]) print_samples(o, ti, &cols[c], r);
        else printf("# note: %s on %s could not run; its cells are empty\n", cols[c].key,
                    ti->name);
    }
    return EXIT_OK;
}

static int timeline_parent(const tl_opts *o, void (*print_header)(void))
{
    print_header();
    char algo[32];
    snprintf(algo, sizeof algo, "%s", wt_algorithm_name(o->algorithm));
    printf("# timeline: --algorithm %s, seed %" PRIu64 ", threads %s, init %s", algo, o->seed,
           o->threads ? "as given" : "all cores", wt_init_method_name(o->init));
    for (int k = 0; k + 1 < o->n_forward; k += 2)
        if (strcmp(o->forward[k], "--tune") == 0) printf(", tune %s", o->forward[k + 1]);
    printf(", at");
    for (int a = 0; a < o->n_at; a++) printf("%s%g", a ? "," : " ", o->at[a]);
    printf(" s of wall-clock time from process start (reading included); a run is stopped at "
           "max + %g s\n", TL_GRACE_S);
    for (int p = 0; p < o->n_peers; p++) tl_peer_describe(&o->peers[p]);
    if (o->n_peers > 0) {
        printf("# peers run after ours, never beside them; each");
        for (int k = 0; k < o->n_peer_runs; k++)
            printf("%s %d", k ? (k + 1 < o->n_peer_runs ? "," : " and") : "",
                   o->peer_runs[k]);
        printf(" process%s at once, seeds %" PRIu64 " on, the best length of any at t\n",
               o->n_peer_runs == 1 && o->peer_runs[0] == 1 ? "" : "es", o->seed);
    }
    char gpu[160];
    if (!wt_cuda_available(gpu, sizeof gpu))
        printf("# note: no usable GPU (%s): auto runs on the cpu\n", gpu);
    tl_column cols[TL_MAX_COLUMNS];
    int n_cols = build_columns(o, cols);
    char dir[2048];
    tl_instance *ti = calloc(TL_MAX_INSTANCES, sizeof *ti);
    if (!ti || !make_tmp_dir(dir, sizeof dir)) {
        free(ti);
        return EXIT_FAILURE_RUN;
    }
    int count = 0, status = EXIT_OK;
    for (int i = 0; i < o->n_gen + o->n_paths && status == EXIT_OK; i++) {
        char tmp[4096];
        const char *path = i < o->n_gen ? tmp : o->paths[i - o->n_gen];
        if (i < o->n_gen && !write_uniform(dir, o->gen_n[i], tmp, sizeof tmp)) {
            status = EXIT_FAILURE_RUN;
            break;
        }
        status = timeline_instance(o, dir, path, cols, n_cols, &ti[count]);
        if (i < o->n_gen) unlink(tmp);
        if (status == EXIT_OK) count++;
    }
    rmdir(dir);
    if (count > 0) print_table(o, ti, count, cols, n_cols);
    for (int i = 0; i < TL_MAX_INSTANCES; i++)
        for (int c = 0; c < TL_MAX_COLUMNS; c++) free(ti[i].runs[c].s);
    free(ti);
    return status;
}

/* ------------------------------------------------------------- options */

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static bool take_at(const char *item, void *user)
{
    tl_opts *o = user;
    if (o->n_at == TL_MAX_AT || !cli_parse_double(item, 0.001, 86400, &o->at[o->n_at]))
        return false;
    o->n_at++;
    return true;
}

static bool parse_at(const char *s, tl_opts *o)
{
    char buf[512];
    o->n_at = 0;
    if (bench_each_listed(s, buf, sizeof buf, take_at, o) <= 0) return false;
    qsort(o->at, (size_t)o->n_at, sizeof o->at[0], cmp_double);
    return true;
}

static bool take_backend(const char *item, void *user)
{
    tl_opts *o = user;
    if (o->n_backends == TL_MAX_BACKENDS ||
        wt_backend_parse(item, &o->backends[o->n_backends]) != WT_OK)
        return false;
    o->n_backends++;
    return true;
}

static bool parse_backends(const char *s, tl_opts *o)
{
    char buf[256];
    o->n_backends = 0;
    return bench_each_listed(s, buf, sizeof buf, take_backend, o) > 0;
}

static bool take_peer_runs(const char *item, void *user)
{
    tl_opts *o = user;
    int64_t v;
    if (o->n_peer_runs == TL_MAX_PEER_RUNS || !cli_parse_int64(item, 1, TL_MAX_PEER_PROCS, &v))
        return false;
    o->peer_runs[o->n_peer_runs++] = (int)v;
    return true;
}

static bool parse_peer_runs(const char *s, tl_opts *o)
{
    char buf[256];
    o->n_peer_runs = 0;
    return bench_each_listed(s, buf, sizeof buf, take_peer_runs, o) > 0;
}

static bool take_path(const char *item, void *user)
{
    tl_opts *o = user;
    if (o->n_paths == TL_MAX_INSTANCES) return false;
    o->paths[o->n_paths++] = item;
    return true;
}

/* --instances (repeatable): the paths are kept in store after those of the
 * earlier ones, *used bytes of it. */
static bool add_paths(const char *s, tl_opts *o, char *store, size_t size, size_t *used)
{
    if (*used >= size || bench_each_listed(s, store + *used, size - *used, take_path, o) < 0)
        return false;
    *used += strlen(s) + 1;
    return true;
}

/* timeline's own options; --algorithm, --ils-descent, --threads, --seed,
 * --init and --tune are solve's, from the shared table (TL_PARAMS). */
enum { TL_AT = 300, TL_BACKENDS, TL_PEER, TL_PEER_RUNS, TL_INSTANCES, TL_GEN, TL_CHILD };

#define TL_PARAMS                                                                         \
    (CLI_PARAM(CLI_OPT_ALGORITHM) | CLI_PARAM(CLI_OPT_ILS_DESCENT) |                      \
     CLI_PARAM(CLI_OPT_THREADS) | CLI_PARAM(CLI_OPT_SEED) | CLI_PARAM(CLI_OPT_INIT) |      \
     CLI_PARAM(CLI_OPT_TUNE))

static const struct option tl_own_opts[] = {
    {"at", required_argument, 0, TL_AT},
    {"backends", required_argument, 0, TL_BACKENDS},
    {"peer", required_argument, 0, TL_PEER},
    {"peer-runs", required_argument, 0, TL_PEER_RUNS},
    {"instances", required_argument, 0, TL_INSTANCES},
    {"gen-uniform", required_argument, 0, TL_GEN},
    {"child", required_argument, 0, TL_CHILD},
    {0, 0, 0, 0}};

/* Parses one of timeline's own options into o, or a shared one into
 * shared; -1 when fine, else an exit status. */
static int tl_option(int c, const char *arg, tl_opts *o, wt_params *shared, char *store,
                     size_t size, size_t *used)
{
    int64_t v;
    switch (c) {
    case TL_AT:
        if (!parse_at(arg, o))
            return cli_usage_error(NULL, "--at needs a comma-separated list of at most %d "
                                   "times in 0.001..86400 s, got '%s'", TL_MAX_AT, arg);
        break;
    case TL_BACKENDS:
        if (!parse_backends(arg, o))
            return cli_usage_error(NULL, "--backends needs a comma-separated list of at most "
                                   "%d of auto, cpu, cuda, got '%s'", TL_MAX_BACKENDS, arg);
        break;
    case TL_PEER:
        if (o->n_peers == TL_MAX_PEERS)
            return cli_usage_error(NULL, "at most %d --peer", TL_MAX_PEERS);
        if (!tl_peer_parse(arg, &o->peers[o->n_peers]))
            return cli_usage_error(NULL, "--peer needs NAME=PATH, NAME linkern or lkh, got "
                                   "'%s'", arg);
        o->n_peers++;
        break;
    case TL_PEER_RUNS:
        if (!parse_peer_runs(arg, o))
            return cli_usage_error(NULL, "--peer-runs needs a comma-separated list of at most "
                                   "%d process counts in 1..%d, got '%s'", TL_MAX_PEER_RUNS,
                                   TL_MAX_PEER_PROCS, arg);
        break;
    case TL_INSTANCES:
        if (!add_paths(arg, o, store, size, used))
            return cli_usage_error(NULL, "--instances: at most %d paths", TL_MAX_INSTANCES);
        break;
    case TL_GEN:
        if (o->n_gen == TL_MAX_INSTANCES || !cli_parse_int64(arg, 5, WT_MAX_CITIES, &v))
            return cli_usage_error(NULL, "--gen-uniform needs a city count >= 5, got '%s'",
                                   arg);
        o->gen_n[o->n_gen++] = v;
        break;
    case TL_CHILD:
        if (!cli_parse_double(arg, 0, 1e12, &o->child_t0))
            return cli_usage_error(NULL, "--child needs the parent's clock");
        break;
    default: {
        int st = cli_parse_param(NULL, c, arg, shared, &o->tuning);
        if (st >= 0 || (c != CLI_OPT_INIT && c != CLI_OPT_TUNE)) return st;
        /* our runs get them as given, the child parses them again */
        if (o->n_forward == 2 * TL_MAX_FORWARD)
            return cli_usage_error(NULL, "timeline takes at most %d --init and --tune",
                                   TL_MAX_FORWARD);
        o->forward[o->n_forward++] = cli_param_name(c);
        o->forward[o->n_forward++] = arg;
    }
    }
    return -1;
}

int bench_timeline(int argc, char **argv, void (*print_header)(void))
{
    wt_params shared;
    wt_params_defaults(&shared);
    shared.algorithm = WT_ALGO_ILS; /* solve's default */
    tl_opts o = {.backends = {WT_BACKEND_AUTO}, .n_backends = 1, .peer_runs = {1},
                 .n_peer_runs = 1, .child_t0 = -1};
    struct option tl_longopts[sizeof tl_own_opts / sizeof tl_own_opts[0] + CLI_N_PARAM_OPTS];
    cli_options_build(tl_longopts, sizeof tl_longopts / sizeof tl_longopts[0], tl_own_opts,
                      TL_PARAMS);
    parse_at("1,10,60", &o);
    char store[4096];
    size_t store_used = 0;
    optind = 1;
    opterr = 0;
    int c;
    while ((c = getopt_long(argc, argv, ":", tl_longopts, NULL)) != -1) {
        if (c == ':') return cli_usage_error(NULL, "option '%s' needs a value", argv[optind - 1]);
        if (c == '?') return cli_usage_error(NULL, "bad option '%s' for timeline",
                                             argv[optind - 1]);
        int st = tl_option(c, optarg, &o, &shared, store, sizeof store, &store_used);
        if (st >= 0) return st;
    }
    o.algorithm = shared.algorithm;
    o.ils_descent = shared.ils_descent;
    o.threads = shared.threads;
    o.seed = shared.seed;
    o.init = shared.init; /* --tune went into o.tuning itself */
    for (int i = optind; i < argc; i++) {
        if (o.n_paths == TL_MAX_INSTANCES)
            return cli_usage_error(NULL, "at most %d instances", TL_MAX_INSTANCES);
        o.paths[o.n_paths++] = argv[i];
    }
    if (o.child_t0 >= 0) return timeline_child(&o);
    if (o.n_paths + o.n_gen == 0)
        return cli_usage_error(NULL, "timeline needs instances: paths, --instances LIST or "
                               "--gen-uniform N");
    if (o.n_paths + o.n_gen > TL_MAX_INSTANCES)
        return cli_usage_error(NULL, "at most %d instances", TL_MAX_INSTANCES);
    for (int p = 0; p < o.n_peers; p++) /* before any run, not after minutes of ours */
        if (!tl_peer_check(&o.peers[p])) return EXIT_USAGE;
    return timeline_parent(&o, print_header);
}
