/*
 * cli_common.h - what the two programs, warptour (cli/) and warptour-bench
 * (bench/), share: exit statuses, messages under the program's name,
 * strict number parsing, instance reading, and the one table of the
 * options that set wt_params (param_opts.c).  Public header only; built
 * once as the static library warptour_progs.
 */
#ifndef WT_CLI_COMMON_H
#define WT_CLI_COMMON_H

#include <getopt.h>
#include <stdbool.h>
#include <stdint.h>

#include "warptour.h"
#include "warptour_experimental.h"

/* Exit statuses, documented in `warptour --help` and the README. */
enum {
    EXIT_OK = 0,          /* success (check: the tour is valid) */
    EXIT_FAILURE_RUN = 1, /* a run-time failure: writing a file, memory, GPU */
    EXIT_USAGE = 2,       /* bad command line */
    EXIT_BAD_INPUT = 3,   /* an instance or tour file is malformed or unsupported */
    EXIT_BAD_TOUR = 4,    /* check: the tour is not a valid tour of the instance */
    EXIT_TIME_LIMIT = 5,  /* solve: the time limit stopped the search early */
    EXIT_INTERRUPTED = 130 /* solve: stopped by Ctrl-C (SIGINT); best tour written;
                              SIGTERM, SIGHUP: 128 + the signal */
};

/* The program's name in messages ("warptour", "warptour-bench"): main sets
 * it once, before any message. */
void cli_set_program(const char *name);
const char *cli_program(void);

/* Prints "PROGRAM: message" to stderr; returns the exit status for status. */
int cli_report_error(const wt_error *err);
int cli_exit_status(wt_status status);

/* Whether a file can be written at path (an existing file that is writable
 * and not a folder, or a new one in a writable folder), checked before a
 * long run so that its result is not lost to a wrong path; nothing is
 * created.  Prints why not and returns EXIT_USAGE for an existing file that
 * is not writable (replacing it would go against its mode), EXIT_FAILURE_RUN
 * for the rest, else EXIT_OK. */
int cli_check_writable(const char *path);

/* Whether paths a and b name the same file: equal strings, or one regular
 * file reached both ways (links, "./x" and "x"). */
bool cli_same_file(const char *a, const char *b);

/* Prints "PROGRAM CMD: msg" ("PROGRAM: msg" when cmd is NULL or empty) and
 * a hint to use --help; returns EXIT_USAGE. */
int cli_usage_error(const char *cmd, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* The usage error for what getopt_long returned as c, '?' or ':' (with
 * ":" leading its option string), for the option at argv[optind - 1]: an
 * unknown option, or one that needs a value.  Returns EXIT_USAGE. */
int cli_option_error(const char *cmd, int c, char **argv, int optind);

/* Strict number parsing of a whole string; false on junk or overflow. */
bool cli_parse_int64(const char *s, int64_t min, int64_t max, int64_t *out);
bool cli_parse_uint64(const char *s, uint64_t *out);
bool cli_parse_double(const char *s, double min, double max, double *out);

/* --tune NAME=VALUE (tune.c): sets field NAME of the experimental tuning,
 * by its name or, for one release, its name of version 0.1.0
 * (cli_parse_batch_tune: of wt_batch_params' experimental fields);
 * --device N: *device = N.  -1 when fine, else the exit status after a
 * usage error for cmd. */
int cli_parse_tune(const char *cmd, const char *arg, wt_tuning *t);
int cli_parse_batch_tune(const char *cmd, const char *arg, wt_batch_params *p);
int cli_parse_device(const char *cmd, const char *arg, int *device);

/* --devices all|N,N,...: every GPU (*count WT_DEVICES_ALL), or up to
 * WT_MAX_DEVICES GPU numbers, no two the same, into devices[0 .. *count).
 * -1 when fine, else the exit status after a usage error for cmd that
 * names the bad list. */
int cli_parse_devices(const char *cmd, const char *arg, int *devices, int *count);

/* --device and --devices both given (device, devices: whether each was):
 * the list names every GPU to use, the first in --device's stead, so the
 * two together are a usage error for cmd; -1 when at most one was given. */
int cli_check_device_choice(const char *cmd, bool device, bool devices);

/* Monotonic seconds (CLOCK_MONOTONIC), for the commands' own clocks. */
double cli_now(void);

/* What is left of a time limit (limit_s, 0 or less: none) after spent_s
 * seconds of the command's own (reading the input): limit_s - spent_s, at
 * least a millisecond, so that a spent limit still gets its valid tours;
 * no limit stays none. */
double cli_limit_left(double limit_s, double spent_s);

/* Gap in percent of length over optimum; only when optimum > 0. */
double cli_gap_percent(int64_t length, int64_t optimum);

/* Reads an instance, printing the error; returns NULL on failure and sets
 * *status to the exit status.  path "-" reads standard input (refused with
 * EXIT_USAGE when it is a terminal), named "<stdin>" in messages; gzip
 * input is read by the library, from files and standard input alike. */
wt_instance *cli_read_instance(const char *path, int *status);

/* As cli_read_instance with the metric of a point file (--metric); a
 * haversine instance gets a note on stderr saying which column is the
 * latitude and why. */
wt_instance *cli_read_instance_as(const char *path, wt_points_metric metric, int *status);
/* The same; note false leaves that note out (--quiet). */
wt_instance *cli_read_instance_noted(const char *path, wt_points_metric metric, bool note,
                                     int *status);
/* That note, for a point file read as places on the Earth (info->lat_column
 * set; nothing otherwise), path as the user gave it. */
void cli_note_points(const char *path, const wt_points_info *info);

/* --metric's value: "auto", "euclidean", "haversine" (or its alias
 * "geo-degrees"); false for any other. */
bool cli_metric_parse(const char *s, wt_points_metric *out);

/* --metric's lines of --help, shared by solve, info and check. */
#define CLI_METRIC_HELP                                                                     \
    "  --metric M        point files: auto (default: haversine when a header line\n"         \
    "                    names lat and lon columns, else euclidean), euclidean, or\n"        \
    "                    haversine (alias geo-degrees: latitude, longitude in decimal\n"     \
    "                    degrees; great-circle metres on the mean Earth radius)\n"

/* Whether path is "-", standard input (or output, for --output). */
bool cli_is_stdin(const char *path);
/* path as messages and reports show it: "<stdin>" for "-". */
const char *cli_source_name(const char *path);

/* ------------------------------------------- the shared options (param_opts.c)
 *
 * One table of the options that set a field of wt_params, for solve and
 * warptour-bench alike: a program takes the ones of its mask, appends them
 * to its own getopt_long options (cli_options_build) and hands each of
 * their codes to cli_parse_param, which checks the value and stores it.
 * A program's own codes stay below CLI_OPT_ALGORITHM. */
typedef enum cli_param_opt {
    CLI_OPT_ALGORITHM = 512, /* --algorithm: params.algorithm */
    CLI_OPT_BACKEND,         /* --backend */
    CLI_OPT_INIT,            /* --init */
    CLI_OPT_SEED,            /* --seed */
    CLI_OPT_TIME_LIMIT,      /* --time-limit: time_limit_s */
    CLI_OPT_THREADS,         /* --threads */
    CLI_OPT_RESTARTS,        /* --restarts */
    CLI_OPT_SWAPS,           /* --swaps */
    CLI_OPT_NESTED,          /* --nested: kswap_nested */
    CLI_OPT_BAND,            /* --band: kswap_band */
    CLI_OPT_PRUNE,           /* --prune */
    CLI_OPT_KICKS,           /* --kicks */
    CLI_OPT_ACCEPT,          /* --accept: accept_equal */
    CLI_OPT_ILS_DESCENT,     /* --ils-descent */
    CLI_OPT_SEARCHES,        /* --searches: sa_searches */
    CLI_OPT_MOVES,           /* --moves: sa_moves */
    CLI_OPT_T_START,         /* --t-start */
    CLI_OPT_T_END,           /* --t-end */
    CLI_OPT_ALPHA,           /* --alpha */
    CLI_OPT_SWEEPS,          /* --sweeps */
    CLI_OPT_EXCHANGE,        /* --exchange */
    CLI_OPT_SA_CPU,          /* --sa-cpu */
    CLI_OPT_POLISH,          /* --polish: sa_polish */
    CLI_OPT_NEAR,            /* --near: sa_near */
    CLI_OPT_DEVICE,          /* --device: cuda_device */
    CLI_OPT_DEVICES,         /* --devices all|0,1,...: devices, device_count */
    CLI_OPT_TUNE,            /* --tune NAME=VALUE: tuning (repeatable) */
    CLI_OPT_PARAM_END        /* past the last code */
} cli_param_opt;

enum { CLI_N_PARAM_OPTS = CLI_OPT_PARAM_END - CLI_OPT_ALGORITHM };

/* The bit of a shared option in a mask, and every one of them. */
#define CLI_PARAM(code) (UINT64_C(1) << ((code) - CLI_OPT_ALGORITHM))
#define CLI_PARAM_ALL ((UINT64_C(1) << CLI_N_PARAM_OPTS) - 1)

/* Whether code is one of the table's. */
bool cli_is_param(int code);

/* "--algorithm" for CLI_OPT_ALGORITHM, and so on; NULL for another code. */
const char *cli_param_name(int code);

/* Writes to out a getopt_long table: own's entries up to its zero entry,
 * then the shared options whose bits are in mask, then a zero entry.
 * false (out unchanged past cap) when cap entries are too few. */
bool cli_options_build(struct option *out, size_t cap, const struct option *own, uint64_t mask);

/* Parses arg, the value of shared option code, into p; --tune into
 * *tuning, at which it then points p->tuning (tuning may be NULL where the
 * mask has no --tune).  -1 when fine, else the exit status after a usage
 * error for cmd (cli_usage_error). */
int cli_parse_param(const char *cmd, int code, const char *arg, wt_params *p,
                    wt_tuning *tuning);

/* The shared options that wt_batch_params has a field for (solve-batch,
 * warptour-bench batch): the same names, checks and messages as solve's;
 * --tune sets the batch's experimental fields instead of wt_tuning. */
#define CLI_BATCH_PARAMS                                                                   \
    (CLI_PARAM(CLI_OPT_BACKEND) | CLI_PARAM(CLI_OPT_SEED) | CLI_PARAM(CLI_OPT_TIME_LIMIT) |  \
     CLI_PARAM(CLI_OPT_THREADS) | CLI_PARAM(CLI_OPT_KICKS) | CLI_PARAM(CLI_OPT_DEVICE) |     \
     CLI_PARAM(CLI_OPT_DEVICES) | CLI_PARAM(CLI_OPT_TUNE))

/* Parses arg, the value of shared option code (one of CLI_BATCH_PARAMS),
 * into b, as cli_parse_param does into a wt_params.  -1 when fine, else the
 * exit status after a usage error for cmd. */
int cli_parse_batch_param(const char *cmd, int code, const char *arg, wt_batch_params *b);

#endif
