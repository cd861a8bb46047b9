/*
 * bench_timeline.c - `warptour-bench timeline`: the best tour length against
 * wall-clock time from process start, ours beside a peer program's.
 *
 * What a user of a solver sees is the wall clock from the moment the
 * program starts, reading the instance included, so every run here is a
 * fresh process: the bench execs its own binary (/proc/self/exe, so Linux
 * only) in a hidden child mode (`warptour-bench timeline --child T0 ...`) that reads
 * the instance and runs wt_solve with a progress callback every 0.02 s,
 * printing "best LENGTH" on each change and "end LENGTH BACKEND/ALGORITHM
 * STOP INIT" at the end (INIT: the start tour it made); --init and --tune
 * reach it as given.  Exec rather than a bare fork: the parent has asked
 * CUDA whether a GPU is there (the header), and a CUDA context does not
 * survive fork.  The child's time limit is max(--at) counted from T0, the
 * parent's clock just before fork, so the reading eats into it as it would
 * for a user.
 *
 * Every line a run prints, ours and the peer's alike, is timestamped by the
 * parent's monotonic clock from the fork as it arrives on the pipe (the
 * peer, Concorde's linkern, flushes each "Best: LENGTH" line), so both are
 * measured the same way.  The best length at time t is the last one that
 * arrived at or before t ("none" when none had).  Runs never overlap: the
 * backends one after another, then the peer; a run still going at
 * max(--at) + TL_GRACE_S gets SIGTERM, then SIGKILL a second later.
 *
 * The gap is against the instance's known optimum (gap_ref=optimum) or,
 * for a uniform random instance in a square (as `warptour gen uniform`
 * makes), the Beardwood-Halton-Hammersley estimate 0.7124 sqrt(n A) of the
 * optimal length, A the area of the points' bounding box (gap_ref=bhh;
 * an estimate, off by a few tenths of a percent at 100,000 cities).
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench.h"

enum { TL_MAX_AT = 16, TL_MAX_BACKENDS = 3, TL_MAX_INSTANCES = 32, TL_MAX_FORWARD = 32 };

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
    const char *peer;                         /* linkern's path, NULL: none */
    const char *paths[TL_MAX_INSTANCES];      /* instance files */
    int n_paths;
    int64_t gen_n[TL_MAX_INSTANCES];          /* --gen-uniform sizes */
    int n_gen;
    double child_t0;                          /* --child: the parent's clock at fork; <0: parent */
} tl_opts;

/* One timestamped length of a run. */
typedef struct tl_sample {
    double t;
    int64_t length;
} tl_sample;

/* What one run (ours on a backend, or the peer) produced. */
typedef struct tl_run {
    tl_sample *s;
    size_t count, cap;
    double exit_s;     /* when its process ended (or was stopped) */
    double returned_s; /* ours: when wt_solve returned, before the process's teardown */
    bool killed;       /* stopped by the bench at max(--at) + grace */
    int status;        /* exit status, -1: killed by a signal */
    char ran[48];      /* ours: "cpu/ils", the backend and algorithm that ran */
    char stop[32];     /* ours: wt_stop_reason_name */
    char init[32];     /* ours: the start tour it made (wt_result.init_made) */
    double gpu_busy;   /* ours: the GPU kernels' seconds over the search's */
    double gpu_busy_concurrent; /* ours: over the concurrent windows' seconds */
} tl_run;

static double max_at(const tl_opts *o) { return o->at[o->n_at - 1]; }

static void run_add(tl_run *r, double t, int64_t length)
{
    if (r->count == r->cap) {
        size_t cap = r->cap ? 2 * r->cap : 64;
        tl_sample *grown = realloc(r->s, cap * sizeof *grown);
        if (!grown) return; /* a lost sample only makes a later one count */
        r->s = grown;
        r->cap = cap;
    }
    r->s[r->count++] = (tl_sample){t, length};
}

/* The best length at or before t, -1 when none. */
static int64_t run_best_at(const tl_run *r, double t)
{
    int64_t best = -1;
    for (size_t i = 0; i < r->count && r->s[i].t <= t; i++)
        if (best < 0 || r->s[i].length < best) best = r->s[i].length;
    return best;
}

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
    printf("end %" PRId64 " %s/%s %s %s %.3f %.3f %.3f\n", res.length, res.backend,
           wt_algorithm_name(o->algorithm), wt_stop_reason_name(res.stop),
           wt_init_method_name(res.init_made), busy, concurrent, returned);
    wt_result_free(&res);
    wt_instance_free(inst);
    return EXIT_OK;
}

/* ------------------------------------------------------- running a process */

/* Called with each line a process prints and its arrival time. */
typedef void (*tl_line_fn)(tl_run *r, double t, char *line);

static void our_line(tl_run *r, double t, char *line)
{
    int64_t len;
    char ran[48], stop[32], init[32];
    double busy = 0, concurrent = 0, returned = 0;
    if (sscanf(line, "best %" SCNd64, &len) == 1) {
        run_add(r, t, len);
    } else if (sscanf(line, "end %" SCNd64 " %47s %31s %31s %lf %lf %lf", &len, ran, stop, init,
                      &busy, &concurrent, &returned) == 7) {
        r->returned_s = returned;
        r->gpu_busy = busy;
        r->gpu_busy_concurrent = concurrent;
        run_add(r, t, len);
        snprintf(r->ran, sizeof r->ran, "%s", ran);
        snprintf(r->stop, sizeof r->stop, "%s", stop);
        snprintf(r->init, sizeof r->init, "%s", init);
    }
}

/* linkern: "N Steps   Best: LENGTH   T seconds" and "Final Cycle: LENGTH". */
static void peer_line(tl_run *r, double t, char *line)
{
    const char *keys[] = {"Best: ", "Final Cycle: "};
    for (int k = 0; k < 2; k++) {
        char *at = strstr(line, keys[k]);
        if (!at) continue;
        char *end;
        double len = strtod(at + strlen(keys[k]), &end);
        if (end != at + strlen(keys[k]) && len > 0) run_add(r, t, llround(len));
        return;
    }
}

/* Hands each complete line of buf[0..*used) to fn and keeps the rest. */
static void take_lines(char *buf, size_t *used, tl_run *r, double t, tl_line_fn fn)
{
    size_t start = 0;
    for (size_t i = 0; i < *used; i++)
        if (buf[i] == '\n') {
            buf[i] = '\0';
            fn(r, t, buf + start);
            start = i + 1;
        }
    memmove(buf, buf + start, *used - start);
    *used -= start;
    if (*used == 4095) *used = 0; /* a line this long is nobody's result line */
}

/* Runs argv with its stdout on a pipe, its lines timestamped from the fork,
 * until it ends or until `stop_at` seconds, when it gets SIGTERM, then
 * SIGKILL a second later.  False (after a message) when it could not start. */
static bool run_process(char *const argv[], double stop_at, tl_line_fn fn, tl_run *r)
{
    int fd[2];
    if (pipe(fd) != 0) {
        fprintf(stderr, "warptour-bench: pipe: %s\n", strerror(errno));
        return false;
    }
    fflush(stdout);
    fflush(stderr);
    double t0 = bench_now();
    pid_t pid = fork();
    if (pid < 0) {
        fprintf(stderr, "warptour-bench: fork: %s\n", strerror(errno));
        close(fd[0]);
        close(fd[1]);
        return false;
    }
    if (pid == 0) {
        dup2(fd[1], STDOUT_FILENO);
        close(fd[0]);
        close(fd[1]);
        execv(argv[0], argv);
        fprintf(stderr, "warptour-bench: cannot run %s: %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    close(fd[1]);
    char buf[4096];
    size_t used = 0;
    bool termed = false, open = true;
    while (open) {
        double now = bench_now() - t0;
        if (now >= stop_at + (termed ? 1.0 : 0.0)) {
            kill(pid, termed ? SIGKILL : SIGTERM);
            if (!termed) r->killed = true, r->exit_s = now;
            if (termed) break;
            termed = true;
            continue;
        }
        double wait_s = stop_at + (termed ? 1.0 : 0.0) - now;
        struct pollfd pf = {fd[0], POLLIN, 0};
        int ready = poll(&pf, 1, (int)(wait_s * 1000) + 1);
        if (ready < 0 && errno != EINTR) break;
        if (ready <= 0) continue;
        ssize_t got = read(fd[0], buf + used, sizeof buf - 1 - used);
        double t = bench_now() - t0;
        if (got <= 0) {
            if (got < 0 && errno == EINTR) continue;
            open = false;
            if (!r->killed) r->exit_s = t;
            break;
        }
        used += (size_t)got;
        take_lines(buf, &used, r, t, fn);
    }
    close(fd[0]);
    int ws = 0;
    while (waitpid(pid, &ws, 0) < 0 && errno == EINTR) {}
    if (!r->killed) r->exit_s = bench_now() - t0;
    r->status = WIFEXITED(ws) ? WEXITSTATUS(ws) : -1;
    return true;
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

/* One instance's results: our runs per backend, then the peer's. */
typedef struct tl_instance {
    char name[64];
    int n;
    double ref;
    const char *ref_kind;
    tl_run ours[TL_MAX_BACKENDS];
    bool ours_ok[TL_MAX_BACKENDS];
    tl_run peer;
    bool peer_ok;
} tl_instance;

static void print_samples(const tl_opts *o, const tl_instance *ti, const tl_run *r,
                          const char *backend)
{
    for (int a = 0; a < o->n_at; a++) {
        char l[32], g[32];
        int64_t len = run_best_at(r, o->at[a]);
        double gap = gap_of(len, ti->ref);
        printf("bench=timeline instance=%s n=%d backend=%s t=%g length=%s gap_percent=%s "
               "gap_ref=%s\n", ti->name, ti->n, backend, o->at[a], fmt_len(len, l, sizeof l),
               isnan(gap) ? "none" : bench_fmt_num("%.3f", gap, g, sizeof g), ti->ref_kind);
    }
    char busy[96] = "";
    if (r->returned_s > 0) snprintf(busy, sizeof busy, " returned_s=%.3f", r->returned_s);
    if (r->gpu_busy > 0)
        snprintf(busy + strlen(busy), sizeof busy - strlen(busy), " gpu_busy=%.3f", r->gpu_busy);
    if (r->gpu_busy_concurrent > 0)
        snprintf(busy + strlen(busy), sizeof busy - strlen(busy), " gpu_busy_concurrent=%.3f",
                 r->gpu_busy_concurrent);
    printf("# run: instance=%s backend=%s%s%s%s%s%s%s%s ended_s=%.3f%s exit=%d\n", ti->name,
           backend, r->ran[0] ? " ran=" : "", r->ran, r->init[0] ? " init=" : "", r->init,
           r->stop[0] ? " stop=" : "", r->stop, busy, r->exit_s,
           r->killed ? " (stopped by the bench)" : "", r->status);
    fflush(stdout);
}

static void print_table(const tl_opts *o, const tl_instance *ti, int count)
{
    printf("\n# gap %% to the reference (optimum, or bhh: the BHH estimate) at wall-clock time t "
           "from process start; ratio = ours / peer gap; shorter: the shortest tour at t\n");
    printf("%-22s | %7s | %7s", "instance", "t", "ref");
    for (int b = 0; b < o->n_backends; b++) printf(" | %9s", wt_backend_name(o->backends[b]));
    if (o->peer) {
        printf(" | %9s", "linkern");
        for (int b = 0; b < o->n_backends; b++)
            printf(" | ratio %-4s", wt_backend_name(o->backends[b]));
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
            double ours_gap[TL_MAX_BACKENDS];
            for (int b = 0; b < o->n_backends; b++) {
                char g[32];
                int64_t len = t->ours_ok[b] ? run_best_at(&t->ours[b], at) : -1;
                ours_gap[b] = gap_of(len, t->ref);
                printf(" | %9s",
                       len < 0 ? "none" : bench_fmt_num("%.3f", ours_gap[b], g, sizeof g));
                if (len > 0 && (best < 0 || len < best)) {
                    best = len, winner = wt_backend_name(o->backends[b]), tie = false;
                } else if (len > 0 && len == best) {
                    tie = true;
                }
            }
            if (o->peer) {
                char g[32];
                int64_t len = t->peer_ok ? run_best_at(&t->peer, at) : -1;
                double pg = gap_of(len, t->ref);
                printf(" | %9s", len < 0 ? "none" : bench_fmt_num("%.3f", pg, g, sizeof g));
                for (int b = 0; b < o->n_backends; b++) {
                    double ratio = pg > 0 ? ours_gap[b] / pg : NAN;
                    printf(" | %10s", bench_fmt_num("%.2f", ratio, g, sizeof g));
                }
                if (len > 0 && (best < 0 || len < best)) winner = "linkern", tie = false;
                else if (len > 0 && len == best) tie = true;
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
    /* T0 is the parent's clock at fork; run_process takes it just before. */
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
    run_process(argv, max_at(o) + TL_GRACE_S, our_line, r);
}

/* The peer on one instance, after ours. */
static bool run_peer(const tl_opts *o, const char *dir, const char *path, tl_run *r)
{
    char tour[4096], seed[32], secs[32];
    snprintf(tour, sizeof tour, "%s/peer.tour", dir);
    snprintf(seed, sizeof seed, "%" PRIu64, o->seed);
    snprintf(secs, sizeof secs, "%g", max_at(o));
    char *argv[] = {(char *)o->peer, "-s", seed, "-t", secs, "-R", "1000000000", "-o", tour,
                    (char *)path, NULL};
    bool ok = run_process(argv, max_at(o) + TL_GRACE_S, peer_line, r);
    unlink(tour);
    return ok;
}

static int timeline_instance(const tl_opts *o, const char *dir, const char *path,
                             tl_instance *ti)
{
    int status;
    wt_instance *inst = cli_read_instance(path, &status);
    if (!inst) return status;
    snprintf(ti->name, sizeof ti->name, "%s", wt_instance_name(inst));
    ti->n = wt_instance_n(inst);
    ti->ref = gap_reference(inst, &ti->ref_kind);
    wt_instance_free(inst);
    for (int b = 0; b < o->n_backends; b++) {
        const char *name = wt_backend_name(o->backends[b]);
        run_ours(o, path, o->backends[b], &ti->ours[b]);
        ti->ours_ok[b] = ti->ours[b].status == 0 || ti->ours[b].killed;
        if (!ti->ours_ok[b]) {
            printf("# note: %s on %s failed (exit %d); its cells are empty\n", name, ti->name,
                   ti->ours[b].status);
            continue;
        }
        print_samples(o, ti, &ti->ours[b], name);
    }
    if (o->peer) {
        ti->peer_ok = run_peer(o, dir, path, &ti->peer);
        if (ti->peer_ok) print_samples(o, ti, &ti->peer, "linkern");
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
    if (o->peer) printf("# peer: linkern = %s, run after ours, never beside them\n", o->peer);
    char gpu[160];
    if (!wt_cuda_available(gpu, sizeof gpu))
        printf("# note: no usable GPU (%s): auto runs on the cpu\n", gpu);
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
        status = timeline_instance(o, dir, path, &ti[count]);
        if (i < o->n_gen) unlink(tmp);
        if (status == EXIT_OK) count++;
    }
    rmdir(dir);
    if (count > 0) print_table(o, ti, count);
    for (int i = 0; i < TL_MAX_INSTANCES; i++) {
        for (int b = 0; b < TL_MAX_BACKENDS; b++) free(ti[i].ours[b].s);
        free(ti[i].peer.s);
    }
    free(ti);
    return status;
}

/* ------------------------------------------------------------- options */

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static bool parse_at(const char *s, tl_opts *o)
{
    char buf[512];
    if (strlen(s) >= sizeof buf) return false;
    snprintf(buf, sizeof buf, "%s", s);
    o->n_at = 0;
    for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok;
         tok = strtok_r(NULL, ",", &save)) {
        if (o->n_at == TL_MAX_AT || !cli_parse_double(tok, 0.001, 86400, &o->at[o->n_at]))
            return false;
        o->n_at++;
    }
    qsort(o->at, (size_t)o->n_at, sizeof o->at[0], cmp_double);
    return o->n_at > 0;
}

static bool parse_backends(const char *s, tl_opts *o)
{
    char buf[256];
    if (strlen(s) >= sizeof buf) return false;
    snprintf(buf, sizeof buf, "%s", s);
    o->n_backends = 0;
    for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok;
         tok = strtok_r(NULL, ",", &save)) {
        if (o->n_backends == TL_MAX_BACKENDS ||
            wt_backend_parse(tok, &o->backends[o->n_backends]) != WT_OK)
            return false;
        o->n_backends++;
    }
    return o->n_backends > 0;
}

static bool add_paths(const char *s, tl_opts *o, char *store, size_t size)
{
    if (strlen(s) >= size) return false;
    snprintf(store, size, "%s", s);
    for (char *save = NULL, *tok = strtok_r(store, ",", &save); tok;
         tok = strtok_r(NULL, ",", &save)) {
        if (o->n_paths == TL_MAX_INSTANCES) return false;
        o->paths[o->n_paths++] = tok;
    }
    return true;
}

/* timeline's own options; --algorithm, --ils-descent, --threads, --seed,
 * --init and --tune are solve's, from the shared table (TL_PARAMS). */
enum { TL_AT = 300, TL_BACKENDS, TL_PEER, TL_INSTANCES, TL_GEN, TL_CHILD };

#define TL_PARAMS                                                                         \
    (CLI_PARAM(CLI_OPT_ALGORITHM) | CLI_PARAM(CLI_OPT_ILS_DESCENT) |                      \
     CLI_PARAM(CLI_OPT_THREADS) | CLI_PARAM(CLI_OPT_SEED) | CLI_PARAM(CLI_OPT_INIT) |      \
     CLI_PARAM(CLI_OPT_TUNE))

static const struct option tl_own_opts[] = {
    {"at", required_argument, 0, TL_AT},
    {"backends", required_argument, 0, TL_BACKENDS},
    {"peer", required_argument, 0, TL_PEER},
    {"instances", required_argument, 0, TL_INSTANCES},
    {"gen-uniform", required_argument, 0, TL_GEN},
    {"child", required_argument, 0, TL_CHILD},
    {0, 0, 0, 0}};

/* Parses one of timeline's own options into o, or a shared one into
 * shared; -1 when fine, else an exit status. */
static int tl_option(int c, const char *arg, tl_opts *o, wt_params *shared, char *store,
                     size_t size)
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
        if (strncmp(arg, "linkern=", 8) != 0 || !arg[8])
            return cli_usage_error(NULL, "--peer needs NAME=PATH, NAME linkern (the only "
                                   "peer known), got '%s'", arg);
        o->peer = arg + 8;
        break;
    case TL_INSTANCES:
        if (!add_paths(arg, o, store, size))
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
    tl_opts o = {.backends = {WT_BACKEND_AUTO}, .n_backends = 1, .child_t0 = -1};
    struct option tl_longopts[sizeof tl_own_opts / sizeof tl_own_opts[0] + CLI_N_PARAM_OPTS];
    cli_options_build(tl_longopts, sizeof tl_longopts / sizeof tl_longopts[0], tl_own_opts,
                      TL_PARAMS);
    parse_at("1,10,60", &o);
    char store[4096];
    optind = 1;
    opterr = 0;
    int c;
    while ((c = getopt_long(argc, argv, ":", tl_longopts, NULL)) != -1) {
        if (c == ':') return cli_usage_error(NULL, "option '%s' needs a value", argv[optind - 1]);
        if (c == '?') return cli_usage_error(NULL, "bad option '%s' for timeline",
                                             argv[optind - 1]);
        int st = tl_option(c, optarg, &o, &shared, store, sizeof store);
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
    return timeline_parent(&o, print_header);
}
