/*
 * util.c - what both programs (warptour, warptour-bench) share besides the
 * option table: error reporting under the program's name, strict number
 * parsing, the writable-file check and instance reading (standard input
 * included).
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli_common.h"

/* The program's name in messages: set once by main. */
static const char *program_name = "warptour";

void cli_set_program(const char *name) { program_name = name; }

const char *cli_program(void) { return program_name; }

int cli_exit_status(wt_status status)
{
    switch (status) {
    case WT_OK: return EXIT_OK;
    case WT_STATUS_INVALID_ARGUMENT: return EXIT_USAGE;
    case WT_STATUS_PARSE:
    case WT_STATUS_UNSUPPORTED:
    case WT_STATUS_TOO_LARGE: return EXIT_BAD_INPUT;
    case WT_STATUS_INVALID_TOUR: return EXIT_BAD_TOUR;
    default: return EXIT_FAILURE_RUN;
    }
}

int cli_report_error(const wt_error *err)
{
    fprintf(stderr, "%s: %s\n", program_name,
            err->message[0] ? err->message : wt_status_str(err->status));
    return cli_exit_status(err->status);
}

int cli_check_writable(const char *path)
{
    struct stat st;
    if (stat(path, &st) == 0) {
        if (S_ISDIR(st.st_mode)) {
            fprintf(stderr, "%s: %s: cannot write: it is a folder\n", program_name, path);
            return EXIT_FAILURE_RUN;
        }
        if (access(path, W_OK) != 0) {
            /* The tour would replace it by rename all the same: refuse. */
            fprintf(stderr, "%s: %s: will not replace it: %s\n", program_name, path,
                    strerror(errno));
            return EXIT_USAGE;
        }
        return EXIT_OK;
    }
    if (errno != ENOENT) {
        fprintf(stderr, "%s: %s: cannot write: %s\n", program_name, path, strerror(errno));
        return EXIT_FAILURE_RUN;
    }
    /* A new file: its folder must exist and take new entries. */
    size_t cut = strlen(path);
    while (cut > 0 && path[cut - 1] != '/') cut--;
    char *dir = malloc(cut + 2);
    if (!dir) return EXIT_FAILURE_RUN;
    if (cut == 0) strcpy(dir, ".");
    else if (cut == 1) strcpy(dir, "/");
    else {
        memcpy(dir, path, cut - 1);
        dir[cut - 1] = '\0';
    }
    int ok = access(dir, W_OK | X_OK) == 0;
    if (!ok)
        fprintf(stderr, "%s: %s: cannot create: %s: %s\n", program_name, path, dir,
                strerror(errno));
    free(dir);
    return ok ? EXIT_OK : EXIT_FAILURE_RUN;
}

bool cli_same_file(const char *a, const char *b)
{
    if (strcmp(a, b) == 0) return true;
    struct stat sa, sb;
    return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev &&
           sa.st_ino == sb.st_ino && S_ISREG(sa.st_mode);
}

int cli_usage_error(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    const char *sep = cmd && cmd[0] ? " " : "";
    if (!cmd) cmd = "";
    fprintf(stderr, "%s%s%s: ", program_name, sep, cmd);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\nTry '%s%s%s --help'.\n", program_name, sep, cmd);
    return EXIT_USAGE;
}

int cli_option_error(const char *cmd, int c, char **argv, int optind)
{
    if (c == ':') return cli_usage_error(cmd, "option '%s' needs a value", argv[optind - 1]);
    return cli_usage_error(cmd, "unknown option '%s'", argv[optind - 1]);
}

bool cli_parse_int64(const char *s, int64_t min, int64_t max, int64_t *out)
{
    char *end;
    errno = 0;
    /* strtoll would skip blanks: " 0" is no number a user meant to type. */
    if (isspace((unsigned char)*s)) return false;
    long long v = strtoll(s, &end, 10);
    if (errno || end == s || *end || v < min || v > max) return false;
    *out = v;
    return true;
}

bool cli_parse_uint64(const char *s, uint64_t *out)
{
    char *end;
    errno = 0;
    /* Digits only: strtoull would skip blanks and wrap " -1" to 2^64 - 1. */
    if (!isdigit((unsigned char)*s)) return false;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || end == s || *end) return false;
    *out = v;
    return true;
}

bool cli_parse_double(const char *s, double min, double max, double *out)
{
    char *end;
    errno = 0;
    if (isspace((unsigned char)*s)) return false; /* as cli_parse_int64 */
    double v = strtod(s, &end);
    if (errno || end == s || *end || !isfinite(v) || v < min || v > max) return false;
    *out = v;
    return true;
}

double cli_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

double cli_limit_left(double limit_s, double spent_s)
{
    if (!(limit_s > 0)) return limit_s;
    double left = limit_s - spent_s;
    return left > 1e-3 ? left : 1e-3;
}

double cli_gap_percent(int64_t length, int64_t optimum)
{
    return 100.0 * (double)(length - optimum) / (double)optimum;
}

bool cli_is_stdin(const char *path)
{
    return strcmp(path, "-") == 0;
}

const char *cli_source_name(const char *path)
{
    return cli_is_stdin(path) ? "<stdin>" : path;
}

/* Standard input is read through /dev/stdin, so the library's bounds for
 * pipes and its gzip detection apply to it unchanged; the messages that
 * name that path then name "<stdin>", what the user typed being "-". */
#define STDIN_PATH "/dev/stdin"

bool cli_metric_parse(const char *s, wt_points_metric *out)
{
    if (strcmp(s, "auto") == 0) *out = WT_POINTS_AUTO;
    else if (strcmp(s, "euclidean") == 0) *out = WT_POINTS_EUCLIDEAN;
    else if (strcmp(s, "haversine") == 0 || strcmp(s, "geo-degrees") == 0)
        *out = WT_POINTS_HAVERSINE;
    else return false;
    return true;
}

wt_instance *cli_read_instance(const char *path, int *status)
{
    return cli_read_instance_as(path, WT_POINTS_AUTO, status);
}

void cli_note_points(const char *path, const wt_points_info *info)
{
    if (!info->lat_column) return;
    int lat = info->lat_column, lon = 3 - lat;
    if (info->from_header)
        fprintf(stderr, "%s: note: %s: places on the Earth (haversine, lengths in metres): "
                "latitude in column %d, longitude in column %d, as the header on line %ld "
                "names them\n", program_name, cli_source_name(path), lat, lon,
                info->header_line);
    else
        fprintf(stderr, "%s: note: %s: places on the Earth (haversine, lengths in metres): "
                "latitude in column 1, longitude in column 2 (no header names them; a "
                "header line 'lon,lat' says the other order)\n", program_name,
                cli_source_name(path));
}

wt_instance *cli_read_instance_as(const char *path, wt_points_metric metric, int *status)
{
    return cli_read_instance_noted(path, metric, true, status);
}

wt_instance *cli_read_instance_noted(const char *path, wt_points_metric metric, bool note,
                                     int *status)
{
    wt_instance *inst = NULL;
    wt_points_info info = {0, 0, false};
    wt_error err = {0};
    bool in = cli_is_stdin(path);
    if (in && isatty(STDIN_FILENO)) {
        fprintf(stderr, "%s: INSTANCE '-' reads standard input, which is a terminal: "
                "pipe or redirect the instance into it\n", program_name);
        *status = EXIT_USAGE;
        return NULL;
    }
    /* TSPLIB, or a point file (real-valued points) when it does not start
     * with a keyword line: wt_instance_read decides by the content. */
    if (wt_instance_read_as(in ? STDIN_PATH : path, metric, &info, &inst, &err) != WT_OK) {
        size_t k = strlen(STDIN_PATH);
        if (in && strncmp(err.message, STDIN_PATH, k) == 0) {
            /* "<stdin>" is shorter than the path: the message only shrinks. */
            size_t name = strlen("<stdin>");
            memmove(err.message + name, err.message + k, strlen(err.message + k) + 1);
            memcpy(err.message, "<stdin>", name);
        }
        *status = cli_report_error(&err);
        return NULL;
    }
    if (note) cli_note_points(path, &info);
    return inst;
}
