/*
 * tour_out.c - solve's tour output: TSPLIB, list or CSV, to a file or to
 * standard output, and the tour as a JSON array.
 *
 * TSPLIB files are the library's (wt_tour_write_tsplib); list and CSV are
 * for other programs (spreadsheets, scripts) and are written here, the same
 * safe way: a finished file replaces the old one, never a half-written one.
 */
/* realpath() is XSI, beyond the _POSIX_C_SOURCE the build sets. */
#define _XOPEN_SOURCE 700

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

bool cli_tour_format_parse(const char *s, cli_tour_format *out)
{
    static const char *const names[] = {"tsplib", "list", "csv"};
    for (int k = 0; k < 3; k++) {
        if (strcmp(s, names[k]) == 0) {
            *out = (cli_tour_format)k;
            return true;
        }
    }
    return false;
}

static wt_status fail(wt_error *err, wt_status status, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

static wt_status fail(wt_error *err, wt_status status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->message, sizeof err->message, fmt, ap);
    va_end(ap);
    err->status = status;
    return status;
}

/* Writes the cities of tour, 1-based, one a line: formatted by hand into
 * blocks of a few thousand lines (an fprintf a city took three times as
 * long: the larger part of a stopped million-city run's end). */
static void put_city_lines(FILE *f, const int32_t *tour, int n)
{
    char buf[1 << 15];
    size_t used = 0;
    for (int i = 0; i < n; i++) {
        if (used > sizeof buf - 16) {
            fwrite(buf, 1, used, f);
            used = 0;
        }
        char digits[12];
        int k = 0;
        for (uint32_t v = (uint32_t)tour[i] + 1; v > 0; v /= 10) digits[k++] = (char)('0' + v % 10);
        while (k > 0) buf[used++] = digits[--k];
        buf[used++] = '\n';
    }
    fwrite(buf, 1, used, f);
}

/* Writes the tour's cities, 1-based, one a line, after a "city" header for
 * CSV; returns whether f took it all (ferror). */
static bool put_cities(FILE *f, cli_tour_format format, const int32_t *tour, int n)
{
    if (format == CLI_TOUR_CSV) fputs("city\n", f);
    put_city_lines(f, tour, n);
    return !ferror(f);
}

/* Writes list or CSV into the file path (opened and closed here); shown
 * names it in messages. */
static wt_status write_file(const char *path, const char *shown, cli_tour_format format,
                            const int32_t *tour, int n, wt_error *err)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return fail(err, WT_STATUS_IO, "%s: cannot open for writing: %s", shown, strerror(errno));
    bool ok = put_cities(f, format, tour, n);
    int why = errno;
    if (fclose(f) != 0 || !ok)
        return fail(err, WT_STATUS_IO, "%s: write failed: %s", shown, strerror(ok ? errno : why));
    return WT_OK;
}

/* Writes path.part, then renames it over path. */
static wt_status write_by_rename(const char *path, const char *shown, cli_tour_format format,
                                 const int32_t *tour, int n, wt_error *err)
{
    size_t len = strlen(path);
    char *part = malloc(len + sizeof ".part");
    if (!part) return fail(err, WT_STATUS_OUT_OF_MEMORY, "%s: out of memory", shown);
    memcpy(part, path, len);
    memcpy(part + len, ".part", sizeof ".part");
    wt_status s = write_file(part, shown, format, tour, n, err);
    if (s == WT_OK && rename(part, path) != 0)
        s = fail(err, WT_STATUS_IO, "%s: cannot replace it with %s: %s", shown, part,
                 strerror(errno));
    if (s != WT_OK) remove(part);
    free(part);
    return s;
}

/* Writes a TSPLIB tour to standard output.  The library writes files by
 * name; /dev/stdout would be a symbolic link to whatever stdout is, which
 * for a redirected regular file it would replace by rename, so the few
 * lines of the format are written here, as tour.c writes them. */
static bool put_tsplib(FILE *f, const char *name, const char *comment, const int32_t *tour,
                       int n)
{
    const char *text[2] = {name && name[0] ? name : "tour", comment};
    const char *key[2] = {"NAME : ", "COMMENT : "};
    for (int k = 0; k < 2; k++) {
        if (!text[k] || !text[k][0]) continue;
        fputs(key[k], f);
        for (const char *s = text[k]; *s; s++) { /* one header line, whatever bytes */
            unsigned char c = (unsigned char)*s;
            fputc(c < 0x20 || c == 0x7f ? ' ' : c, f);
        }
        fputc('\n', f);
    }
    fprintf(f, "TYPE : TOUR\nDIMENSION : %d\nTOUR_SECTION\n", n);
    put_city_lines(f, tour, n);
    fputs("-1\nEOF\n", f);
    return !ferror(f);
}

wt_status cli_write_tour(const char *path, cli_tour_format format, const char *name,
                         const char *comment, const int32_t *tour, int n, wt_error *err)
{
    /* Validated first, as the library does: nothing is written for a bad tour. */
    wt_error why = {0};
    wt_status s = wt_tour_validate(tour, n, &why);
    if (s != WT_OK) return fail(err, s, "%s: not written: %s", path, why.message);
    if (cli_is_stdin(path)) {
        bool ok = format == CLI_TOUR_TSPLIB ? put_tsplib(stdout, name, comment, tour, n)
                                            : put_cities(stdout, format, tour, n);
        if (fflush(stdout) != 0 || !ok)
            return fail(err, WT_STATUS_IO, "<stdout>: write failed: %s", strerror(errno));
        return WT_OK;
    }
    if (format == CLI_TOUR_TSPLIB) return wt_tour_write_tsplib(path, name, comment, tour, n, err);
    struct stat st;
    if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode)) {
        char *target = realpath(path, NULL);
        if (!target) return write_file(path, path, format, tour, n, err); /* dangling */
        bool regular = stat(target, &st) == 0 && S_ISREG(st.st_mode);
        s = regular ? write_by_rename(target, path, format, tour, n, err)
                    : write_file(target, path, format, tour, n, err);
        free(target);
        return s;
    }
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode))
        return write_file(path, path, format, tour, n, err);
    return write_by_rename(path, path, format, tour, n, err);
}

/* A dangling symbolic link is written through, creating its target: its
 * target's folder must take a new file. */
static int check_dangling(const char *path)
{
    char to[PATH_MAX];
    ssize_t k = readlink(path, to, sizeof to - 1);
    if (k < 0) {
        fprintf(stderr, "%s: %s: cannot write: %s\n", cli_program(), path, strerror(errno));
        return EXIT_FAILURE_RUN;
    }
    to[k] = '\0';
    /* The target's folder: relative to the link's own folder. */
    char dir[2 * PATH_MAX + 2];
    const char *slash = strrchr(path, '/');
    if (to[0] == '/' || !slash)
        snprintf(dir, sizeof dir, "%s", to);
    else
        snprintf(dir, sizeof dir, "%.*s/%s", (int)(slash - path), path, to);
    char *cut = strrchr(dir, '/');
    if (!cut) snprintf(dir, sizeof dir, ".");
    else if (cut == dir) dir[1] = '\0';
    else *cut = '\0';
    if (access(dir, W_OK | X_OK) == 0) return EXIT_OK;
    fprintf(stderr, "%s: %s: cannot write: it links to %s, and %s: %s\n",
            cli_program(), path, to, dir, strerror(errno));
    return EXIT_FAILURE_RUN;
}

/* A FIFO opened without blocking: with no reader it fails with ENXIO,
 * refused now rather than an open() that blocks after the search. */
static int check_fifo(const char *path, const char *shown, int *hold)
{
    int fd = open(path, O_WRONLY | O_NONBLOCK);
    if (fd >= 0) {
        *hold = fd;
        return EXIT_OK;
    }
    if (errno == ENXIO)
        fprintf(stderr, "%s: %s: cannot write: a FIFO that no process reads\n", cli_program(),
                shown);
    else
        fprintf(stderr, "%s: %s: cannot write: %s\n", cli_program(), shown, strerror(errno));
    return EXIT_FAILURE_RUN;
}

int cli_check_output(const char *path, bool by_rename, int *hold)
{
    *hold = -1;
    struct stat st;
    char *target = NULL;
    if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode)) {
        target = realpath(path, NULL);
        if (!target && errno == ENOENT) return check_dangling(path);
        if (!target) {
            fprintf(stderr, "%s: %s: cannot write: %s\n", cli_program(), path, strerror(errno));
            return EXIT_FAILURE_RUN;
        }
    }
    const char *file = target ? target : path;
    int status;
    bool exists = stat(file, &st) == 0;
    if (exists && S_ISFIFO(st.st_mode))
        status = check_fifo(file, path, hold);
    else
        status = cli_check_writable(file);
    /* A regular file, or a new one, is written as FILE.part first. */
    if (status == EXIT_OK && by_rename && (!exists || S_ISREG(st.st_mode))) {
        size_t len = strlen(file);
        char *part = malloc(len + sizeof ".part");
        if (!part) {
            status = EXIT_FAILURE_RUN;
            fprintf(stderr, "%s: %s: out of memory\n", cli_program(), path);
        } else {
            memcpy(part, file, len);
            memcpy(part + len, ".part", sizeof ".part");
            if (lstat(part, &st) == 0 && S_ISDIR(st.st_mode)) {
                fprintf(stderr, "%s: %s: cannot write: %s, where it is written first, is a "
                        "folder\n", cli_program(), path, part);
                status = EXIT_FAILURE_RUN;
            }
            free(part);
        }
    }
    free(target);
    return status;
}

bool cli_json_add_tour(cJSON *obj, const char *key, const int32_t *tour, int n)
{
    /* 11 bytes a city at most ("1073741824,"), brackets and the NUL. */
    size_t cap = (size_t)n * 11 + 3, k = 0;
    char *text = malloc(cap);
    if (!text) return false;
    text[k++] = '[';
    for (int i = 0; i < n; i++)
        k += (size_t)snprintf(text + k, cap - k, "%s%" PRId32, i ? "," : "", tour[i] + 1);
    text[k++] = ']';
    text[k] = '\0';
    bool ok = cJSON_AddRawToObject(obj, key, text) != NULL;
    free(text);
    return ok;
}
