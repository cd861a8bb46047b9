/*
 * cli.h - what the subcommands of the warptour program share.
 *
 * The CLI uses only the public header: it maps flags onto wt_params, calls
 * the library, and decides what to print and which exit status to return.
 */
#ifndef WT_CLI_H
#define WT_CLI_H

#include <cjson/cJSON.h>
#include <stdint.h>

#include "warptour.h"

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

int cmd_solve(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_info(int argc, char **argv);
int cmd_gen(int argc, char **argv);
int cmd_devices(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_batch(int argc, char **argv);

/* Prints "warptour: message" to stderr; returns the exit status for status. */
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

/* Prints "warptour CMD: msg" and a hint to use --help; returns EXIT_USAGE. */
int cli_usage_error(const char *cmd, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* Strict number parsing of a whole string; false on junk or overflow. */
bool cli_parse_int64(const char *s, int64_t min, int64_t max, int64_t *out);
bool cli_parse_uint64(const char *s, uint64_t *out);
bool cli_parse_double(const char *s, double min, double max, double *out);

/* --tune NAME=VALUE (tune.c): sets field NAME of the experimental tuning;
 * --device N: *device = N.  -1 when fine, else the exit status after a
 * usage error for cmd. */
int cli_parse_tune(const char *cmd, const char *arg, wt_tuning *t);
int cli_parse_device(const char *cmd, const char *arg, int *device);

/* Gap in percent of length over optimum; only when optimum > 0. */
double cli_gap_percent(int64_t length, int64_t optimum);

/* JSON helpers: exact 64-bit integers (cJSON numbers are doubles), text from
 * files and the command line made valid UTF-8 (each stray byte becomes
 * U+FFFD: JSON must be UTF-8, a TSPLIB name or comment need not be), and null
 * for absent values (otherwise as cli_json_add_text). */
void cli_json_add_int64(cJSON *obj, const char *key, int64_t v);
void cli_json_add_uint64(cJSON *obj, const char *key, uint64_t v);
void cli_json_add_text(cJSON *obj, const char *key, const char *s);
void cli_json_add_string_or_null(cJSON *obj, const char *key, const char *s);
void cli_json_add_optimum_and_gap(cJSON *obj, int64_t length, int64_t optimum);
/* Prints obj on one line to stdout and frees it; false if printing failed. */
bool cli_json_print(cJSON *obj);

/* Reads an instance, printing the error; returns NULL on failure and sets
 * *status to the exit status.  path "-" reads standard input (refused with
 * EXIT_USAGE when it is a terminal), named "<stdin>" in messages; gzip
 * input is read by the library, from files and standard input alike. */
wt_instance *cli_read_instance(const char *path, int *status);

/* Whether path is "-", standard input (or output, for --output). */
bool cli_is_stdin(const char *path);
/* path as messages and reports show it: "<stdin>" for "-". */
const char *cli_source_name(const char *path);

/* How solve writes a tour (--output-format). */
typedef enum cli_tour_format {
    CLI_TOUR_TSPLIB = 0, /* a TSPLIB TOUR file (the library's writer) */
    CLI_TOUR_LIST,       /* one 1-based city a line */
    CLI_TOUR_CSV         /* a header line "city", then one 1-based city a line */
} cli_tour_format;

/* Parses "tsplib", "list" or "csv"; false for anything else. */
bool cli_tour_format_parse(const char *s, cli_tour_format *out);

/* Writes the tour (0-based cities, n of them) in format to path, "-" being
 * standard output (written directly, then flushed).  A TSPLIB file goes
 * through wt_tour_write_tsplib; list and csv files are written as the
 * library writes its tours: a regular (or new) file as path.part renamed
 * over path, a symbolic link through to its target, anything else
 * directly.  WT_OK, or the failure in err. */
wt_status cli_write_tour(const char *path, cli_tour_format format, const char *name,
                         const char *comment, const int32_t *tour, int n, wt_error *err);

/* A JSON array of the tour's 1-based cities, added to obj as key without
 * building a cJSON node a city (tours may have millions); false when out of
 * memory. */
bool cli_json_add_tour(cJSON *obj, const char *key, const int32_t *tour, int n);

#endif
