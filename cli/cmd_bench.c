/*
 * cmd_bench.c - `warptour bench`: measurements, printed as plain lines.
 *
 * Benchmarks are CLI modes with fixed seeds that print what they measured,
 * the machine, the commit and the command, one "key=value" result per line
 * so that scripts can collect them (zstd's -b mode is the model).  They are
 * never pass/fail tests.  bench/README.md says how to run them and how to
 * record results in bench/RESULTS.md.
 *
 *   bench io-init      reading a TSPLIB file of n cities and building each
 *                      start tour (single thread, as the start tours are)
 *   bench multistart   2-opt moves evaluated per second by random-restart hill
 *                      climbing on the first n cities of d18512, for the GPU
 *                      kernel, the climber-per-thread GPU baseline and the
 *                      CPU (O'Neil & Burtscher 2015, section 4 and Figure 6)
 *   bench quality      gap to the optimum of multistart on the TSPLIB
 *                      instances up to a size, binned by size (Figure 7)
 */
#include <dirent.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"

#ifndef WT_GIT_COMMIT
#define WT_GIT_COMMIT "unknown"
#endif

static const char bench_help[] =
    "Usage: warptour bench NAME [OPTIONS]\n"
    "\n"
    "Benchmarks (NAME): io-init, multistart, quality.  Each prints the commit, the\n"
    "machine and the command first, then one 'bench=NAME key=value ...' line per\n"
    "result, then (multistart, quality) a summary table.\n"
    "\n"
    "io-init [--n N] [--seed S] [--repeat R]\n"
    "  Writes a uniform random instance of N cities (default 1000000) to a temporary\n"
    "  file, times reading it back, then times each start tour (random, spacefill,\n"
    "  nearest, greedy) on it; best of R runs (default 3).\n"
    "\n"
    "multistart [--instance PATH] [--sizes LIST] [--variants LIST] [--seconds S]\n"
    "           [--repeat R] [--seed S]\n"
    "  Throughput of random-restart 2-opt hill climbing, in 2-opt moves evaluated\n"
    "  per second ((n-1)(n-2)/2 per IHC step), on the first n cities of d18512\n"
    "  (O'Neil & Burtscher 2015, Figure 6).  Variants: cuda (one climber per thread\n"
    "  block: ours), cuda-thread (one climber per thread: the prior-art baseline),\n"
    "  cpu (one climber per core).  The number of climbs is calibrated so that a\n"
    "  run fills the device and lasts about S seconds (default 1.2; the cpu variant\n"
    "  aims at min(S, 1)); best of R runs (default 3).  CUDA variants are skipped\n"
    "  with a note when no GPU is usable.\n"
    "  --instance PATH   default: $WT_TSPLIB_DIR/d18512.tsp, else\n"
    "                    ../shared/tsplib/d18512.tsp, else gpu-data/tsplib/d18512.tsp\n"
    "  --sizes LIST      city counts, comma-separated (default 100,200,500,1000,2000,5000)\n"
    "  --variants LIST   default cuda,cuda-thread,cpu\n"
    "\n"
    "quality [--dir DIR] [--max-n N] [--climbs C] [--backend B] [--seed S]\n"
    "  Runs multistart with C climbs (default 100000) on every TSPLIB instance in DIR\n"
    "  with at most N cities (default 2000) and coordinates (EXPLICIT ones are left\n"
    "  out), and reports the gap of the best tour to the known optimum and the wall\n"
    "  time, per instance and per size bin (1-250, 251-500, 501-1000, 1001-1500,\n"
    "  1501-2000, as in Figure 7 of the paper; 2001+ above).  --backend: auto\n"
    "  (default), cpu, cuda.  DIR defaults as --instance does, without the file.\n"
    "\n"
    "Examples:\n"
    "  warptour bench multistart\n"
    "  warptour bench multistart --variants cpu --sizes 100,200 --seconds 0.3\n"
    "  warptour bench quality --max-n 200 --climbs 1000\n";

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The CPU model from /proc/cpuinfo (Linux), or "?". */
static void cpu_model(char *buf, size_t size)
{
    snprintf(buf, size, "?");
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f) return;
    char line[256];
    while (fgets(line, sizeof line, f)) {
        char *colon = strchr(line, ':');
        if (strncmp(line, "model name", 10) == 0 && colon) {
            colon += 1 + (colon[1] == ' ');
            colon[strcspn(colon, "\n")] = '\0';
            snprintf(buf, size, "%s", colon);
            break;
        }
    }
    fclose(f);
}

/* The command as typed: getopt_long reorders argv, so it is kept first. */
static char command_line[1024];

static void save_command(int argc, char **argv)
{
    size_t used = 0;
    command_line[0] = '\0';
    for (int i = 0; i < argc && used < sizeof command_line; i++)
        used += (size_t)snprintf(command_line + used, sizeof command_line - used, " %s", argv[i]);
}

/* The commit built, or where the build could not ask git (a copy of the
 * working tree on a GPU machine), the one $WT_GIT_COMMIT names. */
static const char *bench_commit(void)
{
    const char *env = getenv("WT_GIT_COMMIT");
    if (strcmp(WT_GIT_COMMIT, "unknown") == 0 && env && env[0]) return env;
    return WT_GIT_COMMIT;
}

static void print_header(void)
{
    char host[128] = "?", cpu[128];
    gethostname(host, sizeof host);
    cpu_model(cpu, sizeof cpu);
    char gpu[160];
    bool has_gpu = wt_cuda_available(gpu, sizeof gpu);
    printf("# warptour %s, commit %s\n", WT_VERSION, bench_commit());
    printf("# machine: %s, %s, %d CPU cores; GPU: %s\n", host, cpu, omp_get_num_procs(),
           has_gpu ? gpu : "none");
    printf("# command: warptour%s\n", command_line);
    fflush(stdout);
}

/* ---------------------------------------------------------------- io-init */

/* Best-of-repeat seconds to read path; keeps the last instance in *out. */
static int time_read(const char *path, int repeat, double *best, wt_instance **out)
{
    *best = 1e300;
    for (int r = 0; r < repeat; r++) {
        wt_instance *inst = NULL;
        wt_error err = {0};
        double t0 = now_s();
        if (wt_instance_read_tsplib(path, &inst, &err) != WT_OK) return cli_report_error(&err);
        double dt = now_s() - t0;
        if (dt < *best) *best = dt;
        wt_instance_free(*out);
        *out = inst;
    }
    return EXIT_OK;
}

static int bench_io_init(int64_t n, uint64_t seed, int repeat)
{
    char path[] = "/tmp/warptour-bench-XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0) return EXIT_FAILURE_RUN;
    FILE *f = fdopen(fd, "w");
    wt_instance *gen = NULL, *inst = NULL;
    wt_error err = {0};
    int status = EXIT_OK;
    if (wt_instance_generate(WT_GEN_UNIFORM, (int)n, seed, &gen, &err) != WT_OK ||
        wt_instance_write_tsplib(gen, f, &err) != WT_OK)
        status = cli_report_error(&err);
    fclose(f);
    wt_instance_free(gen);
    double best;
    if (status == EXIT_OK) status = time_read(path, repeat, &best, &inst);
    unlink(path);
    if (status != EXIT_OK) return status;
    printf("bench=io-init n=%" PRId64 " step=read seconds=%.4f\n", n, best);
    int32_t *tour = malloc((size_t)n * sizeof *tour);
    const wt_init_method methods[] = {WT_INIT_RANDOM, WT_INIT_SPACEFILL, WT_INIT_NEAREST,
                                      WT_INIT_GREEDY};
    for (size_t m = 0; tour && m < sizeof methods / sizeof methods[0]; m++) {
        best = 1e300;
        for (int r = 0; r < repeat && status == EXIT_OK; r++) {
            double t0 = now_s();
            if (wt_tour_init(inst, methods[m], seed, tour, &err) != WT_OK)
                status = cli_report_error(&err);
            double dt = now_s() - t0;
            if (dt < best) best = dt;
        }
        if (status != EXIT_OK) break;
        printf("bench=io-init n=%" PRId64 " step=init-%s seconds=%.4f length=%" PRId64 "\n", n,
               wt_init_method_name(methods[m]), best, wt_tour_length(inst, tour));
        fflush(stdout);
    }
    if (!tour) status = EXIT_FAILURE_RUN;
    free(tour);
    wt_instance_free(inst);
    return status;
}

/* ------------------------------------------------- finding TSPLIB files */

/* Finds file (or, when file is NULL, the folder itself) in the TSPLIB
 * folders searched in order: $WT_TSPLIB_DIR, ../shared/tsplib (the shared
 * copy beside a checkout), gpu-data/tsplib (what scripts/fetch-gpu-deps.sh
 * prepares for GPU machines).  Writes the path to out; false if none. */
static bool find_tsplib(const char *file, char *out, size_t size)
{
    const char *dirs[] = {getenv("WT_TSPLIB_DIR"), "../shared/tsplib", "gpu-data/tsplib"};
    for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++) {
        if (!dirs[i] || !dirs[i][0]) continue;
        struct stat st;
        if (file) {
            snprintf(out, size, "%s/%s", dirs[i], file);
            if (stat(out, &st) == 0 && S_ISREG(st.st_mode)) return true;
        } else {
            snprintf(out, size, "%s", dirs[i]);
            if (stat(out, &st) == 0 && S_ISDIR(st.st_mode)) return true;
        }
    }
    return false;
}

static int tsplib_not_found(const char *what, const char *option)
{
    const char *env = getenv("WT_TSPLIB_DIR");
    fprintf(stderr,
            "warptour bench: cannot find %s: looked in $WT_TSPLIB_DIR (%s), ../shared/tsplib "
            "and gpu-data/tsplib; name it with %s\n",
            what, env && env[0] ? env : "unset", option);
    return EXIT_FAILURE_RUN;
}

/* ------------------------------------------------------------- multistart */

/* Calibration of a multistart measurement: a run of `climbs` climbs should
 * fill the device and last about the target time.  The first run takes a
 * count that fills the device (a climber per resident block or thread on
 * every SM, one per CPU thread); later runs scale the count by the target
 * over the time measured, until a run lasts MS_ENOUGH of the target.  When
 * even the first count does not finish within the target (large n: a climb
 * of 5000 cities is about 8e10 moves), or a later run overshoots past its
 * time limit, the measurement runs are cut by a time limit of the target
 * instead; moves_evaluated then counts the scans done until the stop, those
 * of the climbs cut short included. */
#define MS_CALIBRATION_RUNS 6      /* at most this many calibration runs */
#define MS_ENOUGH 0.8              /* a calibration run this close to the target ends it */
#define MS_AIM 1.1                 /* scaling aims at this many targets */
#define MS_MAX_SCALE 1000.0        /* largest growth of the count per calibration run */
#define MS_MAX_CLIMBS (1ULL << 30) /* the sensible cap on climbs per run */
#define MS_SAFETY_LIMIT 3.0        /* time limit of runs after the first, in targets */
#define MS_CPU_TARGET_MAX 1.0      /* the cpu variant aims at min(--seconds, this) */

typedef struct ms_variant {
    const char *name;            /* the value of --variants */
    wt_backend_kind backend;
    wt_multistart_kernel kernel;
    bool gpu;
} ms_variant;

static const ms_variant ms_variants[] = {
    {"cuda", WT_BACKEND_CUDA, WT_MS_KERNEL_BLOCK, true},
    {"cuda-thread", WT_BACKEND_CUDA, WT_MS_KERNEL_THREAD, true},
    {"cpu", WT_BACKEND_CPU, WT_MS_KERNEL_BLOCK, false},
};
enum { MS_N_VARIANTS = sizeof ms_variants / sizeof ms_variants[0], MS_MAX_SIZES = 64 };

typedef struct bench_opts {
    int64_t n, repeat;         /* io-init; repeat also multistart */
    uint64_t seed;
    const char *instance;      /* multistart */
    int64_t sizes[MS_MAX_SIZES];
    int n_sizes;
    bool variant_on[MS_N_VARIANTS];
    double seconds;
    const char *dir;           /* quality */
    int64_t max_n;
    uint64_t climbs;
    wt_backend_kind backend;
} bench_opts;

/* One measured cell of the table. */
typedef struct ms_cell {
    bool done;
    double moves_per_s;
} ms_cell;

/* Streaming multiprocessors named in the device description ("..., 132 SMs,
 * ..."), or 0.  Only a hint for the first climb count. */
static int gpu_sm_count(void)
{
    char device[160];
    if (!wt_cuda_available(device, sizeof device)) return 0;
    const char *p = strstr(device, " SMs");
    if (!p) return 0;
    while (p > device && p[-1] >= '0' && p[-1] <= '9') p--;
    return atoi(p);
}

/* Climbs that keep every parallel unit of the variant busy. */
static uint64_t ms_fill_climbs(const ms_variant *v)
{
    if (!v->gpu) return (uint64_t)omp_get_max_threads();
    int sms = gpu_sm_count();
    if (sms <= 0) sms = 132; /* an H100's count, if the description does not say */
    /* 32 resident blocks or 2048 resident threads per SM: the most any
     * current GPU holds, so the device is full whatever the launch shape. */
    return (uint64_t)sms * (v->kernel == WT_MS_KERNEL_BLOCK ? 32 : 2048);
}

static wt_status ms_run(const wt_instance *inst, const ms_variant *v, uint64_t climbs,
                        double time_limit, uint64_t seed, wt_result *res, wt_error *err)
{
    wt_params p;
    wt_params_defaults(&p);
    p.algorithm = WT_ALGO_MULTISTART;
    p.backend = v->backend;
    p.multistart_kernel = v->kernel;
    p.restarts = climbs;
    p.time_limit_s = time_limit;
    p.seed = seed;
    return wt_solve(inst, &p, res, err);
}

static double ms_rate(const wt_result *r)
{
    return r->search_time_s > 0 ? (double)r->moves_evaluated / r->search_time_s : 0.0;
}

/* Finds the climb count of a measurement (see MS_CALIBRATION_RUNS); sets
 * *time_limited when runs must be cut by a time limit of the target. */
static wt_status ms_calibrate(const wt_instance *inst, const ms_variant *v, double target,
                              uint64_t seed, uint64_t *climbs, bool *time_limited,
                              wt_error *err)
{
    uint64_t c = ms_fill_climbs(v);
    *time_limited = false;
    double t = 0;
    int runs = 0;
    while (runs < MS_CALIBRATION_RUNS) {
        wt_result res;
        double limit = runs == 0 ? target : MS_SAFETY_LIMIT * target;
        wt_status st = ms_run(inst, v, c, limit, seed, &res, err);
        if (st != WT_OK) return st;
        runs++;
        t = res.search_time_s;
        bool stopped = res.stop == WT_STOP_TIME_LIMIT;
        wt_result_free(&res);
        if (stopped) {
            *time_limited = true;
            break;
        }
        if (t >= MS_ENOUGH * target || c >= MS_MAX_CLIMBS) break;
        double scale = t > 0 ? MS_AIM * target / t : MS_MAX_SCALE;
        if (scale > MS_MAX_SCALE) scale = MS_MAX_SCALE;
        if (scale < 1.25) scale = 1.25;
        double next = ceil((double)c * scale);
        c = next >= (double)MS_MAX_CLIMBS ? MS_MAX_CLIMBS : (uint64_t)next;
    }
    *climbs = c;
    if (*time_limited)
        printf("# n=%d variant=%s: %" PRIu64 " climbs did not finish in time; runs are cut "
               "at %.2f s\n", wt_instance_n(inst), v->name, c, target);
    else
        printf("# n=%d variant=%s: calibrated to %" PRIu64 " climbs in %d run%s (last %.3f s)\n",
               wt_instance_n(inst), v->name, c, runs, runs == 1 ? "" : "s", t);
    fflush(stdout);
    return WT_OK;
}

/* Calibrates and measures one (n, variant) cell; prints its result line. */
static wt_status ms_measure(const wt_instance *inst, const ms_variant *v, const bench_opts *o,
                            ms_cell *cell, wt_error *err)
{
    double target = v->gpu ? o->seconds : fmin(o->seconds, MS_CPU_TARGET_MAX);
    uint64_t climbs;
    bool time_limited;
    wt_status st = ms_calibrate(inst, v, target, o->seed, &climbs, &time_limited, err);
    if (st != WT_OK) return st;
    double limit = time_limited ? target : MS_SAFETY_LIMIT * target;
    wt_result best = {0};
    for (int r = 0; r < o->repeat; r++) {
        wt_result res;
        st = ms_run(inst, v, climbs, limit, o->seed, &res, err);
        if (st != WT_OK) break;
        if (!best.tour || ms_rate(&res) > ms_rate(&best)) {
            wt_result_free(&best);
            best = res;
        } else {
            wt_result_free(&res);
        }
    }
    if (st == WT_OK) {
        cell->done = true;
        cell->moves_per_s = ms_rate(&best);
        printf("bench=multistart n=%d variant=%s backend=%s restarts=%" PRIu64
               " climbs=%" PRIu64 " steps=%" PRIu64 " moves=%" PRIu64 " seconds=%.4f"
               " moves_per_s=%.4e best_length=%" PRId64 " stop=%s\n",
               wt_instance_n(inst), v->name, best.backend, climbs, best.climbs, best.steps,
               best.moves_evaluated, best.search_time_s, cell->moves_per_s, best.length,
               wt_stop_reason_name(best.stop));
        fflush(stdout);
    }
    wt_result_free(&best);
    return st;
}

/* "12.34" (G moves/s) or "-" when the cell was not measured. */
static const char *fmt_rate(const ms_cell *c, char *buf, size_t size)
{
    if (!c->done) return "-";
    snprintf(buf, size, "%.3f", c->moves_per_s / 1e9);
    return buf;
}

static const char *fmt_ratio(const ms_cell *a, const ms_cell *b, char *buf, size_t size)
{
    if (!a->done || !b->done || b->moves_per_s <= 0) return "-";
    snprintf(buf, size, "%.2fx", a->moves_per_s / b->moves_per_s);
    return buf;
}

static void ms_print_table(const bench_opts *o, ms_cell cells[][MS_N_VARIANTS])
{
    printf("\n# multistart throughput, G moves/s (2-opt moves evaluated per second, best of %d)\n",
           (int)o->repeat);
    printf("%8s | %12s | %15s | %10s | %13s | %8s\n", "n", "ours (cuda)", "thread-baseline",
           "cpu", "ours/baseline", "ours/cpu");
    printf("---------+--------------+-----------------+------------+---------------+---------\n");
    for (int s = 0; s < o->n_sizes; s++) {
        char a[32], b[32], c[32], d[32], e[32];
        ms_cell *row = cells[s];
        printf("%8" PRId64 " | %12s | %15s | %10s | %13s | %8s\n", o->sizes[s],
               fmt_rate(&row[0], a, sizeof a), fmt_rate(&row[1], b, sizeof b),
               fmt_rate(&row[2], c, sizeof c), fmt_ratio(&row[0], &row[1], d, sizeof d),
               fmt_ratio(&row[0], &row[2], e, sizeof e));
    }
}

static int bench_multistart(const bench_opts *o)
{
    char path[4096];
    if (o->instance) snprintf(path, sizeof path, "%s", o->instance);
    else if (!find_tsplib("d18512.tsp", path, sizeof path))
        return tsplib_not_found("d18512.tsp", "--instance PATH");
    int status = EXIT_OK;
    wt_instance *full = cli_read_instance(path, &status);
    if (!full) return status;
    const double *x, *y;
    if (!wt_instance_coords(full, &x, &y)) {
        fprintf(stderr, "warptour bench: %s has no coordinates\n", path);
        wt_instance_free(full);
        return EXIT_BAD_INPUT;
    }
    for (int s = 0; s < o->n_sizes; s++)
        if (o->sizes[s] > wt_instance_n(full)) {
            fprintf(stderr, "warptour bench: --sizes asks for %" PRId64 " cities but %s has "
                    "%d\n", o->sizes[s], path, wt_instance_n(full));
            wt_instance_free(full);
            return EXIT_USAGE;
        }
    printf("# instance: first n cities of %s (%s, %d cities) as EUC_2D\n", path,
           wt_instance_name(full), wt_instance_n(full));
    char gpu[160];
    bool has_gpu = wt_cuda_available(gpu, sizeof gpu);
    if (!has_gpu && (o->variant_on[0] || o->variant_on[1]))
        printf("# note: cuda variants skipped: %s\n", gpu);
    fflush(stdout);

    ms_cell cells[MS_MAX_SIZES][MS_N_VARIANTS];
    memset(cells, 0, sizeof cells);
    for (int s = 0; s < o->n_sizes; s++) {
        int n = (int)o->sizes[s];
        char name[64];
        snprintf(name, sizeof name, "%s-first%d", wt_instance_name(full), n);
        wt_instance *inst = NULL;
        wt_error err = {0};
        if (wt_instance_from_coords(name, n, WT_EUC_2D, x, y, NULL, &inst, &err) != WT_OK) {
            status = cli_report_error(&err);
            break;
        }
        for (int v = 0; v < MS_N_VARIANTS; v++) {
            if (!o->variant_on[v] || (ms_variants[v].gpu && !has_gpu)) continue;
            if (ms_measure(inst, &ms_variants[v], o, &cells[s][v], &err) != WT_OK) {
                /* One failed cell (a GPU error, say) does not lose the others. */
                printf("# n=%d variant=%s failed: %s\n", n, ms_variants[v].name, err.message);
                fflush(stdout);
                status = cli_report_error(&err);
            }
        }
        wt_instance_free(inst);
    }
    wt_instance_free(full);
    ms_print_table(o, cells);
    return status;
}

/* ---------------------------------------------------------------- quality */

/* Size bins of the paper's Figure 7, and one beyond it for --max-n > 2000. */
static const struct {
    int lo, hi;
    const char *label;
} q_bins[] = {{1, 250, "1-250"},       {251, 500, "251-500"},     {501, 1000, "501-1000"},
              {1001, 1500, "1001-1500"}, {1501, 2000, "1501-2000"}, {2001, WT_MAX_CITIES, "2001+"}};
enum { Q_N_BINS = sizeof q_bins / sizeof q_bins[0] };

typedef struct q_entry {
    char *path;
    wt_instance *inst;
} q_entry;

static int q_entry_cmp(const void *a, const void *b)
{
    const q_entry *x = a, *y = b;
    int nx = wt_instance_n(x->inst), ny = wt_instance_n(y->inst);
    if (nx != ny) return nx < ny ? -1 : 1;
    return strcmp(wt_instance_name(x->inst), wt_instance_name(y->inst));
}

static bool has_suffix(const char *s, const char *suffix)
{
    size_t ls = strlen(s), lx = strlen(suffix);
    return ls >= lx && strcmp(s + ls - lx, suffix) == 0;
}

/* Reads the instances of dir that the quality benchmark takes (coordinates,
 * n <= max_n, known optimum), sorted by size.  Notes the others it skips. */
static int q_collect(const char *dir, int64_t max_n, q_entry **out, int *count)
{
    DIR *d = opendir(dir);
    if (!d) {
        fprintf(stderr, "warptour bench: cannot open folder %s\n", dir);
        return EXIT_FAILURE_RUN;
    }
    q_entry *list = NULL;
    int n = 0, cap = 0, status = EXIT_OK;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (!has_suffix(e->d_name, ".tsp")) continue;
        size_t len = strlen(dir) + strlen(e->d_name) + 2;
        char *path = malloc(len);
        if (!path) {
            status = EXIT_FAILURE_RUN;
            break;
        }
        snprintf(path, len, "%s/%s", dir, e->d_name);
        wt_instance *inst = NULL;
        wt_error err = {0};
        const char *why = NULL;
        if (wt_instance_read_tsplib(path, &inst, &err) != WT_OK) why = err.message;
        else if (wt_instance_n(inst) > max_n) why = "";
        else if (wt_instance_type(inst) == WT_EXPLICIT) why = "EXPLICIT (no coordinates)";
        else if (wt_instance_known_optimum(inst) <= 0) why = "no known optimum";
        if (why) {
            if (why[0]) printf("# skipped %s: %s\n", e->d_name, why);
            wt_instance_free(inst);
            free(path);
            continue;
        }
        if (n == cap) {
            cap = cap ? 2 * cap : 64;
            q_entry *grown = realloc(list, (size_t)cap * sizeof *list);
            if (!grown) {
                wt_instance_free(inst);
                free(path);
                status = EXIT_FAILURE_RUN;
                break;
            }
            list = grown;
        }
        list[n].path = path;
        list[n].inst = inst;
        n++;
    }
    closedir(d);
    if (n > 1) qsort(list, (size_t)n, sizeof *list, q_entry_cmp);
    *out = list;
    *count = n;
    return status;
}

static int bench_quality(const bench_opts *o)
{
    char dir[4096];
    if (o->dir) snprintf(dir, sizeof dir, "%s", o->dir);
    else if (!find_tsplib(NULL, dir, sizeof dir))
        return tsplib_not_found("the TSPLIB folder", "--dir DIR");
    printf("# instances: %s/*.tsp with coordinates, at most %" PRId64 " cities; %" PRIu64
           " climbs each, --backend %s, seed %" PRIu64 "\n",
           dir, o->max_n, o->climbs, wt_backend_name(o->backend), o->seed);
    fflush(stdout);
    q_entry *list = NULL;
    int count = 0;
    int status = q_collect(dir, o->max_n, &list, &count);
    if (status == EXIT_OK && count == 0) {
        fprintf(stderr, "warptour bench: no instance in %s fits --max-n %" PRId64 "\n", dir,
                o->max_n);
        status = EXIT_FAILURE_RUN;
    }
    struct {
        int count;
        double gap_sum, gap_max, seconds;
    } bins[Q_N_BINS];
    memset(bins, 0, sizeof bins);
    double t_all = 0;
    int measured = 0;
    for (int i = 0; i < count && status == EXIT_OK; i++) {
        const wt_instance *inst = list[i].inst;
        wt_params p;
        wt_params_defaults(&p);
        p.algorithm = WT_ALGO_MULTISTART;
        p.backend = o->backend;
        p.restarts = o->climbs;
        p.seed = o->seed;
        wt_result res;
        wt_error err = {0};
        if (wt_solve(inst, &p, &res, &err) != WT_OK) {
            printf("# %s failed: %s\n", wt_instance_name(inst), err.message);
            status = cli_report_error(&err);
            break;
        }
        int n = wt_instance_n(inst);
        int64_t opt = wt_instance_known_optimum(inst);
        double gap = cli_gap_percent(res.length, opt);
        printf("bench=quality instance=%s n=%d type=%s backend=%s climbs=%" PRIu64
               " best_climb=%" PRIu64 " length=%" PRId64 " optimum=%" PRId64
               " gap_percent=%.3f seconds=%.3f\n",
               wt_instance_name(inst), n, wt_edge_weight_type_name(wt_instance_type(inst)),
               res.backend, res.climbs, res.best_climb, res.length, opt, gap, res.time_s);
        fflush(stdout);
        t_all += res.time_s;
        measured++;
        for (int b = 0; b < Q_N_BINS; b++)
            if (n >= q_bins[b].lo && n <= q_bins[b].hi) {
                bins[b].count++;
                bins[b].gap_sum += gap;
                if (gap > bins[b].gap_max) bins[b].gap_max = gap;
                bins[b].seconds += res.time_s;
            }
        wt_result_free(&res);
    }
    if (measured > 0) {
        printf("\n# multistart quality, %" PRIu64 " climbs per instance (bins of the paper's "
               "Figure 7)\n", o->climbs);
        printf("%10s | %9s | %10s | %9s | %9s\n", "cities", "instances", "mean gap %",
               "max gap %", "seconds");
        printf("-----------+-----------+------------+-----------+----------\n");
        for (int b = 0; b < Q_N_BINS; b++) {
            if (!bins[b].count) continue;
            printf("%10s | %9d | %10.3f | %9.3f | %9.2f\n", q_bins[b].label, bins[b].count,
                   bins[b].gap_sum / bins[b].count, bins[b].gap_max, bins[b].seconds);
        }
        printf("%10s | %9d | %10s | %9s | %9.2f\n", "all", measured, "", "", t_all);
    }
    for (int i = 0; i < count; i++) {
        free(list[i].path);
        wt_instance_free(list[i].inst);
    }
    free(list);
    return status;
}

/* ------------------------------------------------------------ arguments */

/* Parses "a,b,c" into sizes; false on junk, sizes < 5 or too many. */
static bool parse_sizes(const char *s, bench_opts *o)
{
    o->n_sizes = 0;
    char buf[1024];
    if (strlen(s) >= sizeof buf) return false;
    snprintf(buf, sizeof buf, "%s", s);
    for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok;
         tok = strtok_r(NULL, ",", &save)) {
        if (o->n_sizes == MS_MAX_SIZES ||
            !cli_parse_int64(tok, 5, WT_MAX_CITIES, &o->sizes[o->n_sizes]))
            return false;
        o->n_sizes++;
    }
    return o->n_sizes > 0;
}

static bool parse_variants(const char *s, bench_opts *o)
{
    memset(o->variant_on, 0, sizeof o->variant_on);
    char buf[256];
    if (strlen(s) >= sizeof buf) return false;
    snprintf(buf, sizeof buf, "%s", s);
    bool any = false;
    for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok;
         tok = strtok_r(NULL, ",", &save)) {
        int v = 0;
        while (v < MS_N_VARIANTS && strcmp(tok, ms_variants[v].name) != 0) v++;
        if (v == MS_N_VARIANTS) return false;
        o->variant_on[v] = any = true;
    }
    return any;
}

/* Which benchmark each option belongs to: bit 0 io-init, 1 multistart, 2 quality. */
enum { FOR_IO = 1, FOR_MS = 2, FOR_Q = 4 };

static const struct option bench_longopts[] = {
    {"n", required_argument, 0, 'n'},        {"seed", required_argument, 0, 's'},
    {"repeat", required_argument, 0, 'r'},   {"instance", required_argument, 0, 'I'},
    {"sizes", required_argument, 0, 'z'},    {"variants", required_argument, 0, 'v'},
    {"seconds", required_argument, 0, 'S'},  {"dir", required_argument, 0, 'd'},
    {"max-n", required_argument, 0, 'm'},    {"climbs", required_argument, 0, 'c'},
    {"backend", required_argument, 0, 'b'},  {"help", no_argument, 0, 'h'},
    {0, 0, 0, 0}};

static unsigned option_owners(int c)
{
    switch (c) {
    case 'n': return FOR_IO;
    case 's': return FOR_IO | FOR_MS | FOR_Q;
    case 'r': return FOR_IO | FOR_MS;
    case 'I': case 'z': case 'v': case 'S': return FOR_MS;
    default: return FOR_Q; /* d, m, c, b */
    }
}

/* Parses one option's value into o; -1 when fine, else an exit status. */
static int parse_bench_option(int c, const char *arg, bench_opts *o)
{
    switch (c) {
    case 'n':
        if (!cli_parse_int64(arg, 3, WT_MAX_CITIES, &o->n))
            return cli_usage_error("bench", "--n needs an integer >= 3");
        break;
    case 's':
        if (!cli_parse_uint64(arg, &o->seed))
            return cli_usage_error("bench", "--seed needs a non-negative integer");
        break;
    case 'r':
        if (!cli_parse_int64(arg, 1, 1000, &o->repeat))
            return cli_usage_error("bench", "--repeat needs an integer in 1..1000");
        break;
    case 'I': o->instance = arg; break;
    case 'z':
        if (!parse_sizes(arg, o))
            return cli_usage_error("bench", "--sizes needs a comma-separated list of at most "
                                   "%d city counts >= 5, got '%s'", MS_MAX_SIZES, arg);
        break;
    case 'v':
        if (!parse_variants(arg, o))
            return cli_usage_error("bench", "--variants needs a comma-separated list of "
                                   "cuda, cuda-thread, cpu, got '%s'", arg);
        break;
    case 'S':
        if (!cli_parse_double(arg, 0.01, 3600, &o->seconds))
            return cli_usage_error("bench", "--seconds needs a number in 0.01..3600, got '%s'",
                                   arg);
        break;
    case 'd': o->dir = arg; break;
    case 'm':
        if (!cli_parse_int64(arg, 3, WT_MAX_CITIES, &o->max_n))
            return cli_usage_error("bench", "--max-n needs an integer >= 3, got '%s'", arg);
        break;
    case 'c':
        if (!cli_parse_uint64(arg, &o->climbs) || o->climbs == 0)
            return cli_usage_error("bench", "--climbs needs a positive integer, got '%s'", arg);
        break;
    case 'b':
        if (wt_backend_parse(arg, &o->backend) != WT_OK)
            return cli_usage_error("bench", "unknown --backend '%s' (expected auto, cpu, cuda)",
                                   arg);
        break;
    }
    return -1;
}

static const char *option_name(int c)
{
    for (const struct option *lo = bench_longopts; lo->name; lo++)
        if (lo->val == c) return lo->name;
    return "?";
}

int cmd_bench(int argc, char **argv)
{
    bench_opts o = {.n = 1000000, .repeat = 3, .seed = 1, .seconds = 1.2, .max_n = 2000,
                    .climbs = 100000, .backend = WT_BACKEND_AUTO};
    parse_sizes("100,200,500,1000,2000,5000", &o);
    parse_variants("cuda,cuda-thread,cpu", &o);
    int given[64], n_given = 0; /* options seen, checked against the benchmark below */
    save_command(argc, argv);
    optind = 1;
    opterr = 0;
    int c;
    while ((c = getopt_long(argc, argv, ":h", bench_longopts, NULL)) != -1) {
        if (c == 'h') {
            fputs(bench_help, stdout);
            return EXIT_OK;
        }
        if (c == ':') return cli_usage_error("bench", "option '%s' needs a value", argv[optind - 1]);
        if (c == '?') return cli_usage_error("bench", "bad option '%s'", argv[optind - 1]);
        int st = parse_bench_option(c, optarg, &o);
        if (st >= 0) return st;
        if (n_given < 64) given[n_given++] = c;
    }
    static const char *const names[] = {"io-init", "multistart", "quality"};
    int which = -1;
    if (argc - optind == 1)
        for (int k = 0; k < 3; k++)
            if (strcmp(argv[optind], names[k]) == 0) which = k;
    if (which < 0)
        return cli_usage_error("bench", "expected one benchmark name: io-init, multistart or "
                               "quality");
    for (int i = 0; i < n_given; i++)
        if (!(option_owners(given[i]) & (1u << which)))
            return cli_usage_error("bench", "--%s does not apply to bench %s",
                                   option_name(given[i]), names[which]);
    print_header();
    switch (which) {
    case 0: return bench_io_init(o.n, o.seed, (int)o.repeat);
    case 1: return bench_multistart(&o);
    default: return bench_quality(&o);
    }
}
