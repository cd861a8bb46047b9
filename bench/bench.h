/*
 * bench.h - what the benchmarks of warptour-bench share.
 *
 * main.c parses the command line into one bench_opts, prints the
 * header (commit, machine, command) and calls the benchmark; each benchmark
 * lives in its own bench_NAME.c and reads only its own options.
 * bench_util.c holds what several of them use: the clock, splitting the
 * comma-separated values of list options, finding TSPLIB files, the
 * instance lists of --instances, the 2-opt runs of pass, ls and
 * kswap, duration formatting, and the published figures printed beside
 * ours.  bench/README.md describes every benchmark.
 */
#ifndef WT_BENCH_H
#define WT_BENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cli_common.h"

enum { BENCH_MAX_LIST = 64 }; /* entries of any list option */

/* The benchmarks, in the order of `warptour-bench --help`. */
typedef enum bench_id {
    BENCH_IO_INIT = 0,
    BENCH_MULTISTART,
    BENCH_QUALITY,
    BENCH_PASS,
    BENCH_LS,
    BENCH_KSWAP,
    BENCH_ILS,
    BENCH_SA,
    BENCH_COUNT
} bench_id;

/* Indices into bench_opts.variant_on: multistart's --variants, and those of
 * pass, ls and kswap (the 2-opt benchmarks). */
enum { MS_CUDA = 0, MS_CUDA_THREAD, MS_CPU, MS_N_VARIANTS };
enum { TWO_CUDA = 0, TWO_CPU, TWO_N_VARIANTS };
/* bench sa's --variants: the GPU's PSPM and the paper's two CPU schemes. */
enum { SA_CUDA = 0, SA_SSPM, SA_PSSM, SA_N_VARIANTS };

/* Start tours of bench kswap (--starts). */
enum { KS_START_RANDOM = 0, KS_START_GREEDY, KS_N_STARTS };

/* Everything the command line sets; each benchmark reads its own fields. */
typedef struct bench_opts {
    uint64_t seed;                  /* every benchmark (default 1) */
    int64_t repeat;                 /* io-init, multistart, pass: best of this many */
    int64_t n;                      /* io-init: cities */
    const char *instance;           /* multistart: the instance file */
    int64_t sizes[BENCH_MAX_LIST];  /* multistart: city counts */
    int n_sizes;
    bool variant_on[MS_N_VARIANTS]; /* multistart (MS_*); pass, ls, kswap (TWO_*) */
    double seconds;                 /* multistart: calibration target; ils: per instance */
    double time_limit;              /* ls, kswap: per run, 0 = none */
    const char *dir;                /* TSPLIB folder (quality, pass, ls, kswap, ils) */
    int64_t max_n;                  /* quality; pass, ls, kswap (greedy starts): 0 = default */
    int64_t min_n;                  /* quality: smallest instance (0: any) */
    int64_t max_n_random;           /* kswap, random starts: 0 = default */
    uint64_t climbs;                /* quality */
    wt_backend_kind backend;        /* quality, ils */
    const char *instances[BENCH_MAX_LIST]; /* pass, ls, kswap, ils: names (into names_buf) */
    int n_instances;
    char names_buf[4096];
    wt_init_method init;            /* pass, ls: the start tour */
    int swaps[BENCH_MAX_LIST];      /* ls: --swaps, 0 = all, ascending with all last */
    int n_swaps;
    int ks[BENCH_MAX_LIST];         /* kswap: --ks, the same way */
    int n_ks;
    bool start_on[KS_N_STARTS];     /* kswap: --starts */
    bool nested;                    /* ls, kswap: --nested (wt_params.kswap_nested) */
    int band;                       /* ls, kswap: --band (wt_params.kswap_band) */
    int prune;                      /* pass, ls, kswap, ils: --prune (wt_params.prune):
                                       1 on, 0 off, -1 the benchmark's default (pass:
                                       off, the papers' full pass; others: on) */
    wt_ils_descent ils_descent;     /* ils: --ils-descent (default auto) */
    int threads;                    /* pass, ls, kswap, ils: CPU threads, 0 = all */
    double interval;                /* ils: seconds between samples */
    int64_t runs;                   /* sa: runs per instance and variant (default 10) */
    bool tpb_sweep;                 /* sa: Table 4 instead of Tables 2 and 3 */
    int sa_searches, sa_moves;      /* sa: TB (cuda) and TPB / Pm (cuda, cpu-sspm); 0 = default */
    int parallel_runs;              /* sa: runs of an instance at once, each in its own host
                                       thread; 0 = default (all for cuda, 1 for cpu) */
    int sa_near;                    /* sa: local moves, wt_params.sa_near (cpu variants) */
    int device;                     /* all but io-init: --device (wt_params.cuda_device) */
    wt_tuning tuning;               /* all but io-init: --tune (wt_params.tuning points
                                       here) */
} bench_opts;

/* The benchmarks (bench_NAME.c); each returns an exit status. */
int bench_io_init(const bench_opts *o);
int bench_multistart(const bench_opts *o);
int bench_quality(const bench_opts *o);
int bench_pass(const bench_opts *o);
int bench_ls(const bench_opts *o);
int bench_kswap(const bench_opts *o);
int bench_ils(const bench_opts *o);
int bench_sa(const bench_opts *o);
/* bench timeline parses its own options (argv[0] is "timeline") and calls
 * print_header itself, in the parent process only (its runs re-execute the
 * binary in a hidden child mode). */
int bench_timeline(int argc, char **argv, void (*print_header)(void));
/* bench batch parses its own options too (argv[0] is "batch"). */
int bench_batch(int argc, char **argv, void (*print_header)(void));
/* So does bench ascent (argv[0] is "ascent"). */
int bench_ascent(int argc, char **argv, void (*print_header)(void));

/* ------------------------------------------------------- bench_util.c */

/* Monotonic clock in seconds. */
double bench_now(void);

/* wt_params_defaults with the benchmarks' shared options: --device and
 * --tune. */
void bench_params_defaults(const bench_opts *o, wt_params *p);

/* Takes one item of a comma-separated list: true when it is good (and
 * kept), false to refuse it and stop the list there. */
typedef bool bench_take_fn(const char *item, void *user);

/* What bench_each_listed returns when it does not get through the list. */
enum {
    BENCH_LIST_TOO_LONG = -1, /* list does not fit in buf; take was never called */
    BENCH_LIST_REFUSED = -2   /* take refused an item; a message is take's or the caller's */
};

/* Copies list, an option's comma-separated value, into buf (size bytes),
 * cuts it at the commas and hands the items in order to take(item, user);
 * empty items are skipped (",a,,b," is a and b).  The items point into buf,
 * so a caller may keep them as long as buf lives.  Returns how many items
 * were taken (0 for an empty list or commas only), else BENCH_LIST_TOO_LONG
 * (buf untouched) or BENCH_LIST_REFUSED.  Prints nothing: the messages are
 * the callers'. */
int bench_each_listed(const char *list, char *buf, size_t size, bench_take_fn *take,
                      void *user);

/* Finds file (or, when file is NULL, the folder itself) in the TSPLIB
 * folders searched in order: $WT_TSPLIB_DIR, ../shared/tsplib (the shared
 * copy beside a checkout), gpu-data/tsplib (what scripts/fetch-gpu-deps.sh
 * prepares for GPU machines).  Writes the path to out; false if none. */
bool bench_find_tsplib(const char *file, char *out, size_t size);

/* Prints where the TSPLIB folders were looked for; returns EXIT_FAILURE_RUN. */
int bench_tsplib_not_found(const char *what, const char *option);

bool bench_has_suffix(const char *s, const char *suffix);

/* Moves of one full 2-opt scan, (n-1)(n-2)/2: Listing 1's pairs i < j - 1. */
uint64_t bench_checks_per_pass(int n);

/* Gap in percent, or NAN when the optimum is unknown (<= 0). */
double bench_gap(int64_t length, int64_t optimum);

/* "12.3 us", "4.56 ms", "7.89 s": a duration readable in a table; "-" for
 * a negative one (not measured). */
const char *bench_fmt_duration(double seconds, char *buf, size_t size);

/* Prefixes buf (a formatted figure) with '>': the run was stopped, the
 * true value is at least this. */
void bench_mark_lower_bound(char *buf, size_t size);

/* printf(fmt, v) into buf, or "-" when v is NAN. */
const char *bench_fmt_num(const char *fmt, double v, char *buf, size_t size);

/* A gap for a bench= line: "%.3f", or "unknown" when NAN. */
const char *bench_fmt_gap(double gap, char *buf, size_t size);

/* The folder that names on --instances are looked up in, for the
 * "# instances:" line: --dir, else the first TSPLIB folder found. */
const char *bench_instance_dir(const bench_opts *o, char *buf, size_t size);

/* Reads or generates the instance that a --instances name stands for:
 * NAME.tsp in the TSPLIB folder (--dir, else as bench_find_tsplib) or its
 * large/ subfolder; a path when the name holds a '/'; uniformN a uniform
 * random instance of N cities (N may end in K or M) from --seed.  Larger
 * than max_n cities: skipped.  A skipped or missing instance gives NULL,
 * a "# note:" line and *status EXIT_OK; a file that does not read gives
 * NULL, the error on stderr and *status set. */
wt_instance *bench_load_instance(const bench_opts *o, const char *name, int64_t max_n,
                                 int *status);

/* Which 2-opt variants (TWO_*) run: the ones --variants asks for, the cuda
 * one only where a GPU is usable (else a "# note:" line says why). */
void bench_two_live(const bench_opts *o, bool live[TWO_N_VARIANTS]);

extern const char *const bench_two_names[TWO_N_VARIANTS]; /* "cuda", "cpu" */

/* One small run (100 cities) of each live variant before the measurements,
 * so that none of them pays for starting the OpenMP threads or the CUDA
 * context; a cuda variant without a 2-opt kernel is found (and noted) here. */
void bench_two_warm_up(const bench_opts *o, bool live[TWO_N_VARIANTS]);

/* The same for one algorithm on one backend (ils); failures are ignored. */
void bench_warm_up(const bench_opts *o, wt_algorithm algorithm, wt_backend_kind backend);

/* A variant's size limit: --max-n (given) when nonzero, else its default. */
int64_t bench_cap(int64_t given, int variant, int64_t cpu_default, int64_t cuda_default);

/* The start of a one-size-cap cpu/cuda benchmark (pass, ls): sets cap[] from
 * --max-n and the defaults, prints the instance line, finds which variants
 * run (live[]) and warms them up. */
void bench_two_begin(const bench_opts *o, int64_t cpu_default, int64_t cuda_default,
                     int64_t cap[TWO_N_VARIANTS], bool live[TWO_N_VARIANTS]);

/* A size limit for the "# instances:" line: the number, or "none". */
const char *bench_fmt_cap(int64_t cap, char *buf, size_t size);

/* One 2-opt run (WT_ALGO_2OPT) of variant v from start with `swaps` (0 =
 * all), --nested, --band, --threads and --seed, and the optional progress callback (called
 * before every scan when given).  When the cuda backend answers
 * WT_STATUS_NO_DEVICE (no kernel for 2-opt yet), prints a "# note:" line,
 * clears live[TWO_CUDA] and returns WT_STATUS_NO_DEVICE: the caller skips
 * the cell and goes on.  Other failures are the caller's to report. */
wt_status bench_2opt(const wt_instance *inst, const int32_t *start, int swaps, int v,
                     const bench_opts *o, wt_progress_fn progress, bool live[TWO_N_VARIANTS],
                     wt_result *res, wt_error *err);

/* Builds the start tour of method m (seed --seed) into a new array; NULL
 * after printing the error (out of memory) with *status set.  *seconds: the
 * time it took. */
int32_t *bench_start_tour(const wt_instance *inst, wt_init_method m, const bench_opts *o,
                          double *seconds, int *status);

/* Rocki & Suda 2013, Table II (GTX 680, CUDA): the kernel time of one full
 * 2-opt pass, and the time from the Multiple Fragment (greedy) tour to the
 * first local minimum, one move applied per pass. */
typedef struct bench_paper_2opt {
    const char *name;    /* TSPLIB name */
    double pass_s;       /* "GPU kernel time full 2-opt" */
    double first_min_s;  /* "time to first minimum 2-opt from MF" */
} bench_paper_2opt;

/* The row of Table II for an instance name, or NULL. */
const bench_paper_2opt *bench_rocki_suda(const char *name);

#endif
