/*
 * bench_util.c - helpers the benchmarks of warptour-bench share.
 *
 * Splitting the values of list options, finding TSPLIB files, reading or
 * generating the instances that --instances names, the 2-opt runs of bench
 * pass, ls and kswap with their cuda/cpu variants, formatting for the
 * tables, and the figures of Rocki & Suda's Table II that pass and ls print
 * beside ours.
 */
#include <ctype.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "bench.h"

double bench_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void bench_params_defaults(const bench_opts *o, wt_params *p)
{
    wt_params_defaults(p);
    p->algorithm = WT_ALGO_2OPT; /* the default is ils */
    p->cuda_device = o->device;
    p->tuning = &o->tuning;
}

int bench_each_listed(const char *list, char *buf, size_t size, bench_take_fn *take,
                      void *user)
{
    size_t len = strlen(list);
    if (len >= size) return BENCH_LIST_TOO_LONG;
    memcpy(buf, list, len + 1);
    int taken = 0;
    for (char *save = NULL, *item = strtok_r(buf, ",", &save); item;
         item = strtok_r(NULL, ",", &save)) {
        if (!take(item, user)) return BENCH_LIST_REFUSED;
        taken++;
    }
    return taken;
}

bool bench_find_tsplib(const char *file, char *out, size_t size)
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

int bench_tsplib_not_found(const char *what, const char *option)
{
    const char *env = getenv("WT_TSPLIB_DIR");
    fprintf(stderr,
            "warptour-bench: cannot find %s: looked in $WT_TSPLIB_DIR (%s), ../shared/tsplib "
            "and gpu-data/tsplib; name it with %s\n",
            what, env && env[0] ? env : "unset", option);
    return EXIT_FAILURE_RUN;
}

bool bench_has_suffix(const char *s, const char *suffix)
{
    size_t ls = strlen(s), lx = strlen(suffix);
    return ls >= lx && strcmp(s + ls - lx, suffix) == 0;
}

uint64_t bench_checks_per_pass(int n)
{
    return n < 3 ? 0 : (uint64_t)(n - 1) * (uint64_t)(n - 2) / 2;
}

double bench_gap(int64_t length, int64_t optimum)
{
    return optimum > 0 ? cli_gap_percent(length, optimum) : NAN;
}

const char *bench_fmt_duration(double s, char *buf, size_t size)
{
    if (!(s >= 0)) snprintf(buf, size, "-");
    else if (s < 1e-3) snprintf(buf, size, "%.1f us", s * 1e6);
    else if (s < 1) snprintf(buf, size, "%.2f ms", s * 1e3);
    else if (s < 1000) snprintf(buf, size, "%.2f s", s);
    else snprintf(buf, size, "%.0f s", s);
    return buf;
}

void bench_mark_lower_bound(char *buf, size_t size)
{
    size_t len = strlen(buf);
    if (size < 2 || buf[0] == '-') return;
    if (len + 1 >= size) len = size - 2;
    memmove(buf + 1, buf, len);
    buf[0] = '>';
    buf[len + 1] = '\0';
}

const char *bench_fmt_num(const char *fmt, double v, char *buf, size_t size)
{
    if (isnan(v)) snprintf(buf, size, "-");
    else snprintf(buf, size, fmt, v);
    return buf;
}

const char *bench_fmt_gap(double gap, char *buf, size_t size)
{
    if (isnan(gap)) snprintf(buf, size, "unknown");
    else snprintf(buf, size, "%.3f", gap);
    return buf;
}

const char *bench_instance_dir(const bench_opts *o, char *buf, size_t size)
{
    if (o->dir) snprintf(buf, size, "%s", o->dir);
    else if (!bench_find_tsplib(NULL, buf, size)) snprintf(buf, size, "(no TSPLIB folder found)");
    return buf;
}

/* uniformN, N digits with an optional K or M: the city count, else 0. */
static int64_t generated_size(const char *name)
{
    if (strncmp(name, "uniform", 7) != 0) return 0;
    const char *p = name + 7;
    if (!isdigit((unsigned char)*p)) return 0;
    int64_t n = 0;
    for (; isdigit((unsigned char)*p); p++) {
        n = 10 * n + (*p - '0');
        if (n > WT_MAX_CITIES) return 0;
    }
    if (*p == 'K' || *p == 'k') n *= 1000, p++;
    else if (*p == 'M' || *p == 'm') n *= 1000000, p++;
    return *p == '\0' && n >= 3 && n <= WT_MAX_CITIES ? n : 0;
}

/* Where a TSPLIB name's file is: DIR/NAME.tsp or DIR/large/NAME.tsp, for
 * --dir or each of the folders bench_find_tsplib searches. */
static bool locate(const bench_opts *o, const char *name, char *path, size_t size)
{
    struct stat st;
    if (strchr(name, '/')) {
        snprintf(path, size, "%s", name);
        return stat(path, &st) == 0 && S_ISREG(st.st_mode);
    }
    const char *sub[] = {"", "large/"};
    for (int i = 0; i < 2; i++) {
        char file[512];
        snprintf(file, sizeof file, "%s%s.tsp", sub[i], name);
        if (o->dir) {
            snprintf(path, size, "%s/%s", o->dir, file);
            if (stat(path, &st) == 0 && S_ISREG(st.st_mode)) return true;
        } else if (bench_find_tsplib(file, path, size)) {
            return true;
        }
    }
    return false;
}

wt_instance *bench_load_instance(const bench_opts *o, const char *name, int64_t max_n,
                                 int *status)
{
    *status = EXIT_OK;
    int64_t gen_n = generated_size(name);
    wt_instance *inst = NULL;
    wt_error err = {0};
    if (gen_n > 0) {
        if (gen_n > max_n) {
            printf("# note: skipped %s (%" PRId64 " cities): above --max-n %" PRId64 "\n", name,
                   gen_n, max_n);
            return NULL;
        }
        if (wt_instance_generate(WT_GEN_UNIFORM, (int)gen_n, o->seed, &inst, &err) != WT_OK) {
            *status = cli_report_error(&err);
            return NULL;
        }
        return inst;
    }
    char path[4096];
    if (!locate(o, name, path, sizeof path)) {
        char dir[4096];
        if (strchr(name, '/'))
            printf("# note: skipped %s: no such file\n", name);
        else
            printf("# note: skipped %s: no %s.tsp in %s or its large/ folder\n", name, name,
                   bench_instance_dir(o, dir, sizeof dir));
        return NULL;
    }
    inst = cli_read_instance(path, status);
    if (!inst) return NULL;
    if (wt_instance_n(inst) > max_n) {
        printf("# note: skipped %s (%d cities): above --max-n %" PRId64 "\n", name,
               wt_instance_n(inst), max_n);
        wt_instance_free(inst);
        return NULL;
    }
    return inst;
}

const char *const bench_two_names[TWO_N_VARIANTS] = {"cuda", "cpu"};

void bench_two_live(const bench_opts *o, bool live[TWO_N_VARIANTS])
{
    for (int v = 0; v < TWO_N_VARIANTS; v++) live[v] = o->variant_on[v];
    char gpu[160];
    if (live[TWO_CUDA] && !wt_cuda_available(gpu, sizeof gpu)) {
        printf("# note: cuda variant skipped: %s\n", gpu);
        live[TWO_CUDA] = false;
    }
    fflush(stdout);
}

const char *bench_fmt_cap(int64_t cap, char *buf, size_t size)
{
    if (cap >= WT_MAX_CITIES) snprintf(buf, size, "none");
    else snprintf(buf, size, "%" PRId64, cap);
    return buf;
}

void bench_warm_up(const bench_opts *o, wt_algorithm algorithm, wt_backend_kind backend)
{
    wt_instance *inst = NULL;
    if (wt_instance_generate(WT_GEN_UNIFORM, 100, o->seed, &inst, NULL) != WT_OK) return;
    wt_params p;
    bench_params_defaults(o, &p);
    p.algorithm = algorithm;
    p.backend = backend;
    p.seed = o->seed;
    p.threads = o->threads;
    p.kicks = 1;
    wt_result res;
    if (wt_solve(inst, &p, &res, NULL) == WT_OK) wt_result_free(&res);
    wt_instance_free(inst);
}

void bench_two_warm_up(const bench_opts *o, bool live[TWO_N_VARIANTS])
{
    wt_instance *inst = NULL;
    int32_t start[100];
    if (wt_instance_generate(WT_GEN_UNIFORM, 100, o->seed, &inst, NULL) != WT_OK) return;
    if (wt_tour_init(inst, WT_INIT_RANDOM, o->seed, start, NULL) == WT_OK)
        for (int v = 0; v < TWO_N_VARIANTS; v++) {
            wt_result res;
            wt_error err = {0};
            if (live[v] && bench_2opt(inst, start, 0, v, o, NULL, live, &res, &err) == WT_OK)
                wt_result_free(&res);
        }
    wt_instance_free(inst);
}

int64_t bench_cap(int64_t given, int variant, int64_t cpu_default, int64_t cuda_default)
{
    if (given > 0) return given;
    return variant == TWO_CPU ? cpu_default : cuda_default;
}

wt_status bench_2opt(const wt_instance *inst, const int32_t *start, int swaps, int v,
                     const bench_opts *o, wt_progress_fn progress, bool live[TWO_N_VARIANTS],
                     wt_result *res, wt_error *err)
{
    wt_params p;
    bench_params_defaults(o, &p);
    p.algorithm = WT_ALGO_2OPT;
    p.backend = v == TWO_CUDA ? WT_BACKEND_CUDA : WT_BACKEND_CPU;
    p.seed = o->seed;
    p.threads = o->threads;
    p.start_tour = start;
    p.swaps = swaps;
    p.kswap_nested = o->nested;
    p.kswap_band = o->band;
    if (o->prune >= 0) p.prune = o->prune;
    p.time_limit_s = o->time_limit;
    if (progress) {
        p.progress = progress;
        p.progress_interval_s = 0; /* due before every scan */
    }
    wt_status st = wt_solve(inst, &p, res, err);
    if (st == WT_STATUS_NO_DEVICE && v == TWO_CUDA) {
        printf("# note: cuda variant skipped: %s\n", err->message);
        fflush(stdout);
        live[TWO_CUDA] = false;
    }
    return st;
}

int32_t *bench_start_tour(const wt_instance *inst, wt_init_method m, const bench_opts *o,
                          double *seconds, int *status)
{
    int32_t *tour = malloc((size_t)wt_instance_n(inst) * sizeof *tour);
    wt_error err = {0};
    if (!tour) {
        fprintf(stderr, "warptour-bench: out of memory for a start tour\n");
        *status = EXIT_FAILURE_RUN;
        return NULL;
    }
    double t0 = bench_now();
    if (wt_tour_init(inst, m, o->seed, tour, &err) != WT_OK) {
        *status = cli_report_error(&err);
        free(tour);
        return NULL;
    }
    *seconds = bench_now() - t0;
    return tour;
}

/* Table II of Rocki & Suda, "High performance GPU accelerated local
 * optimization in TSP" (IPDPSW 2013): columns "GPU kernel time full 2-opt"
 * and "time to first minimum 2-opt from MF", GTX 680, every row. */
static const bench_paper_2opt rocki_suda_table2[] = {
    {"berlin52", 20e-6, 687e-6},      {"kroE100", 21e-6, 897e-6},
    {"ch130", 21e-6, 1183e-6},        {"ch150", 23e-6, 1342e-6},
    {"kroA200", 24e-6, 2.547e-3},     {"ts225", 24e-6, 1.090e-3},
    {"pr299", 26e-6, 2.555e-3},       {"pr439", 32e-6, 3.067e-3},
    {"rat783", 53e-6, 8.827e-3},      {"vm1084", 80e-6, 11.862e-3},
    {"pr2392", 299e-6, 89.577e-3},    {"pcb3038", 471e-6, 168.02e-3},
    {"fl3795", 723e-6, 256.19e-3},    {"fnl4461", 746e-6, 327.1e-3},
    {"rl5934", 1009e-6, 291.09e-3},   {"pla7397", 1547e-6, 870.2e-3},
    {"usa13509", 4728e-6, 6.5251},    {"d15112", 5963e-6, 8.6757},
    {"d18512", 8928e-6, 14.975},      {"sw24978", 14.99e-3, 37.284},
    {"pla33810", 26.81e-3, 68.67},    {"pla85900", 168.4e-3, 1109.2},
    {"sra104815", 249.5e-3, 2093.4},  {"usa115475", 302.3e-3, 3337.8},
    {"ara238025", 1.2934, 26497},     {"lra498378", 5.6369, 3078 * 60.0},
    {"lrb744710", 12.634, 203.8 * 3600.0},
};

const bench_paper_2opt *bench_rocki_suda(const char *name)
{
    for (size_t i = 0; i < sizeof rocki_suda_table2 / sizeof rocki_suda_table2[0]; i++)
        if (strcmp(rocki_suda_table2[i].name, name) == 0) return &rocki_suda_table2[i];
    return NULL;
}

void bench_two_begin(const bench_opts *o, int64_t cpu_default, int64_t cuda_default,
                     int64_t cap[TWO_N_VARIANTS], bool live[TWO_N_VARIANTS])
{
    for (int v = 0; v < TWO_N_VARIANTS; v++)
        cap[v] = bench_cap(o->max_n, v, cpu_default, cuda_default);
    char dir[4096], c0[32], c1[32];
    printf("# instances: %d named, looked up in %s; --max-n %s on the cpu, %s on cuda; start "
           "tour %s, seed %" PRIu64 "\n",
           o->n_instances, bench_instance_dir(o, dir, sizeof dir),
           bench_fmt_cap(cap[TWO_CPU], c0, sizeof c0), bench_fmt_cap(cap[TWO_CUDA], c1, sizeof c1),
           wt_init_method_name(o->init), o->seed);
    bench_two_live(o, live);
    bench_two_warm_up(o, live);
}
