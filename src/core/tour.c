/*
 * tour.c - tours as permutations: validation, exact length, TSPLIB TOUR files.
 *
 * A tour is an int32_t array of n distinct cities; the TSPLIB file format
 * numbers cities from 1 and ends the TOUR_SECTION with -1.  Lengths are
 * summed in int64_t from the exact integer distances, so they are the
 * official TSPLIB lengths whatever backend produced the tour.
 */
/* realpath() (XSI) for writing through symbolic links. */
#define _XOPEN_SOURCE 700

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/error.h"
#include "core/instance.h"
#include "core/textfile.h"

wt_status wt_tour_validate(const int32_t *tour, int n, wt_error *err)
{
    if (!tour || n < 1) return wt_fail(err, WT_STATUS_INVALID_ARGUMENT, "tour: empty tour");
    unsigned char *seen = calloc((size_t)n, 1);
    if (!seen) return wt_fail(err, WT_STATUS_OUT_OF_MEMORY, "tour: out of memory");
    wt_status st = WT_OK;
    for (int i = 0; i < n && st == WT_OK; i++) {
        int32_t c = tour[i];
        if (c < 0 || c >= n)
            st = wt_fail(err, WT_STATUS_INVALID_TOUR,
                         "tour position %d holds city %ld, outside 1..%d", i + 1, (long)c + 1, n);
        else if (seen[c]++)
            st = wt_fail(err, WT_STATUS_INVALID_TOUR,
                         "tour position %d repeats city %ld", i + 1, (long)c + 1);
    }
    free(seen);
    return st;
}

int64_t wt_tour_length(const wt_instance *inst, const int32_t *tour)
{
    if (!inst || !tour) return -1;
    int n = inst->n;
    /* A city outside 0..n-1 would index past the coordinates; a repeat only
     * makes the sum that of a closed walk, which is left to the caller. */
    for (int i = 0; i < n; i++)
        if (tour[i] < 0 || tour[i] >= n) return -1;
    int64_t len = wt_dist(inst, tour[n - 1], tour[0]);
    for (int i = 0; i + 1 < n; i++) len += wt_dist(inst, tour[i], tour[i + 1]);
    return len;
}

/* Reads the integers of a TOUR_SECTION into tour; stops at -1 or EOF (a
 * section may hold several tours, each ended by -1: TSPLIB; the first is
 * read).  A repeated city is reported at its line; seen has n zeroed
 * bytes. */
static wt_status read_tour_section(wt_textfile *tf, int n, int32_t *tour, unsigned char *seen,
                                   wt_error *err)
{
    int count = 0;
    long long v;
    for (;;) {
        int r = wt_textfile_next_int(tf, &v);
        if (r == 0) break; /* end of file or an EOF token: accept like -1 */
        if (r == -2) /* too long to parse: outside 1..n like any other */
            return wt_fail(err, WT_STATUS_INVALID_TOUR, "%s:%ld: city %s is outside 1..%d",
                           tf->path, tf->line, tf->token.s, n);
        if (r < 0)
            return wt_fail(err, WT_STATUS_PARSE, "%s:%ld: expected a city number or -1 in "
                           "TOUR_SECTION, found '%s'", tf->path, tf->line, tf->token.s);
        if (v == -1) break;
        if (v < 1 || v > n)
            return wt_fail(err, WT_STATUS_INVALID_TOUR, "%s:%ld: city %lld is outside 1..%d",
                           tf->path, tf->line, v, n);
        if (count == n)
            return wt_fail(err, WT_STATUS_INVALID_TOUR,
                           "%s:%ld: more than %d cities in TOUR_SECTION", tf->path, tf->line, n);
        if (seen[v - 1]++)
            return wt_fail(err, WT_STATUS_INVALID_TOUR, "%s:%ld: city %lld repeats in "
                           "TOUR_SECTION; expected each city 1..%d once", tf->path, tf->line,
                           v, n);
        tour[count++] = (int32_t)(v - 1);
    }
    if (count < n)
        return wt_fail(err, WT_STATUS_INVALID_TOUR, "%s:%ld: TOUR_SECTION has %d cities, "
                       "expected %d", tf->path, tf->line, count, n);
    return WT_OK;
}

/* Whether a and b are equal but for the case of ASCII letters. */
static bool equal_nocase(const char *a, const char *b)
{
    for (; *a && *b; a++, b++)
        if (toupper((unsigned char)*a) != toupper((unsigned char)*b)) return false;
    return *a == *b;
}

/* Checks one header keyword of a TOUR file read for n cities: TYPE must be
 * TOUR, DIMENSION (if any) n; others are skipped.  Keywords are upper case,
 * as in the instance reader: "tour_section" is named in the message rather
 * than skipped as unknown (the cities below it would then be blamed).  at is
 * the line. */
static wt_status check_tour_keyword(const wt_textfile *tf, long at, const char *key,
                                    const char *value, int n, wt_error *err)
{
    static const char *const known[] = {"NAME", "TYPE", "COMMENT", "DIMENSION", "TOUR_SECTION"};
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
        if (strcmp(key, known[i]) != 0 && equal_nocase(key, known[i]))
            return wt_fail(err, WT_STATUS_PARSE, "%s:%ld: '%s' is not a TSPLIB keyword; "
                           "expected %s (keywords are upper case)", tf->path, at,
                           wt_quote(key, key + strlen(key)).s, known[i]);
    wt_excerpt shown = wt_quote(value, value + strlen(value)); /* untrusted bytes */
    bool tour_type = strncmp(value, "TOUR", 4) == 0 &&
                     (value[4] == '\0' || isspace((unsigned char)value[4]));
    if (strcmp(key, "TYPE") == 0 && !tour_type)
        return wt_fail(err, WT_STATUS_PARSE, "%s:%ld: TYPE is '%s', expected TOUR", tf->path,
                       at, shown.s);
    /* A city after "TOUR_SECTION :" would be dropped as the keyword's value. */
    if (strcmp(key, "TOUR_SECTION") == 0 && value[0])
        return wt_fail(err, WT_STATUS_PARSE, "%s:%ld: TOUR_SECTION has data '%s' on its own "
                       "line; expected the keyword alone, the cities on the lines below",
                       tf->path, at, shown.s);
    if (strcmp(key, "DIMENSION") != 0) return WT_OK;
    char *end;
    errno = 0;
    long d = strtol(value, &end, 10);
    if (errno || end == value || *end != '\0' || d < 1)
        return wt_fail(err, WT_STATUS_PARSE, "%s:%ld: tour DIMENSION '%s' is not a number of "
                       "cities; expected a positive integer", tf->path, at, shown.s);
    if (d != n)
        return wt_fail(err, WT_STATUS_INVALID_TOUR, "%s:%ld: tour DIMENSION '%s' does not "
                       "match the instance's %d cities", tf->path, at, shown.s, n);
    return WT_OK;
}

/* Scans header lines up to TOUR_SECTION, checking TYPE and DIMENSION and
 * copying the first NAME into name (name_size > 0). */
static wt_status read_tour_header(wt_textfile *tf, int n, char *name, size_t name_size,
                                  wt_error *err)
{
    bool named = false;
    char key[64];
    const char *value;
    for (;;) {
        int r = wt_textfile_next_keyword(tf, key, sizeof key, &value);
        if (r == 0)
            return wt_fail(err, WT_STATUS_PARSE, "%s:%ld: no TOUR_SECTION found",
                           tf->path, tf->line);
        if (r < 0)
            return wt_fail(err, WT_STATUS_PARSE, "%s:%ld: expected a 'KEYWORD : value' line, "
                           "found '%s'", tf->path, tf->line, tf->token.s);
        wt_status st = check_tour_keyword(tf, tf->key_line, key, value, n, err);
        if (st != WT_OK || strcmp(key, "TOUR_SECTION") == 0) return st;
        if (!named && strcmp(key, "NAME") == 0) {
            snprintf(name, name_size, "%s", value);
            named = true;
        }
    }
}

wt_status wt_tour_read_tsplib(const char *path, int n, int32_t **tour_out, wt_error *err)
{
    return wt_tour_read_tsplib_named(path, n, tour_out, NULL, 0, err);
}

wt_status wt_tour_read_tsplib_named(const char *path, int n, int32_t **tour_out, char *name,
                                    size_t name_size, wt_error *err)
{
    if (!path || !tour_out || n < 1 || n > WT_MAX_CITIES || (!name && name_size > 0))
        return wt_fail(err, WT_STATUS_INVALID_ARGUMENT, "wt_tour_read_tsplib: need a path, "
                       "an output pointer and 1..%d cities", WT_MAX_CITIES);
    /* The NAME goes to name only on success (outputs stay untouched on failure). */
    size_t name_room = name_size > 0 ? name_size : 1;
    char *got = malloc(name_room);
    if (!got) return wt_fail(err, WT_STATUS_OUT_OF_MEMORY, "%s: out of memory", path);
    got[0] = '\0';
    wt_textfile tf;
    wt_status st = wt_textfile_open(&tf, path, (size_t)n + 1, err);
    if (st != WT_OK) {
        free(got);
        return st;
    }
    int32_t *tour = malloc((size_t)n * sizeof *tour);
    unsigned char *seen = calloc((size_t)n, 1);
    if (!tour || !seen) st = wt_fail(err, WT_STATUS_OUT_OF_MEMORY, "%s: out of memory", path);
    if (st == WT_OK) st = read_tour_header(&tf, n, got, name_room, err);
    if (st == WT_OK) st = read_tour_section(&tf, n, tour, seen, err);
    free(seen);
    if (st == WT_OK) {
        /* Its own status: an out-of-memory there is no invalid tour. */
        wt_error verr;
        wt_status vst = wt_tour_validate(tour, n, &verr);
        if (vst != WT_OK) st = wt_fail(err, vst, "%s: %s", path, verr.message);
    }
    wt_textfile_close(&tf);
    if (st != WT_OK) {
        free(tour);
        free(got);
        return st;
    }
    if (name_size > 0) memcpy(name, got, name_size);
    free(got);
    *tour_out = tour;
    return WT_OK;
}

/* Writes s to f with every control character (line ends above all, which
 * would start a header line of their own) as a blank: a NAME or COMMENT
 * stays one line whatever bytes it came with. */
static void put_one_line(FILE *f, const char *s)
{
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        fputc(c < 0x20 || c == 0x7f ? ' ' : c, f);
    }
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

static wt_status write_tour_file(const char *path, const char *shown, const char *name,
                                 const char *comment, const int32_t *tour, int n, wt_error *err)
{
    FILE *f = fopen(path, "w");
    if (!f) return wt_fail(err, WT_STATUS_IO, "%s: cannot open for writing: %s", shown,
                           strerror(errno));
    fputs("NAME : ", f);
    put_one_line(f, name && name[0] ? name : "tour");
    fputc('\n', f);
    if (comment && comment[0]) {
        fputs("COMMENT : ", f);
        put_one_line(f, comment);
        fputc('\n', f);
    }
    fprintf(f, "TYPE : TOUR\nDIMENSION : %d\nTOUR_SECTION\n", n);
    put_city_lines(f, tour, n);
    fprintf(f, "-1\nEOF\n");
    int bad = ferror(f);
    int why = errno;
    if (fclose(f) != 0 || bad)
        return wt_fail(err, WT_STATUS_IO, "%s: write failed: %s", shown,
                       strerror(bad ? why : errno));
    return WT_OK;
}

/* Writes a regular file as path.part, renamed over path once complete: a
 * tour of millions of cities takes a while to write, and a process killed
 * meanwhile (a second Ctrl-C) or a full disk must not leave a truncated
 * tour under path, nor destroy the tour that was there.  shown names the
 * file in messages. */
static wt_status write_by_rename(const char *path, const char *shown, const char *name,
                                 const char *comment, const int32_t *tour, int n, wt_error *err)
{
    size_t len = strlen(path);
    char *part = malloc(len + sizeof ".part");
    if (!part) return wt_fail(err, WT_STATUS_OUT_OF_MEMORY, "%s: out of memory", shown);
    memcpy(part, path, len);
    memcpy(part + len, ".part", sizeof ".part");
    wt_status s = write_tour_file(part, shown, name, comment, tour, n, err);
    if (s == WT_OK && rename(part, path) != 0)
        s = wt_fail(err, WT_STATUS_IO, "%s: cannot replace it with %s: %s", shown, part,
                    strerror(errno));
    if (s != WT_OK) remove(part);
    free(part);
    return s;
}

/* Where the tour goes decides how it is written.  A regular file (or a new
 * one) is written by rename.  A symbolic link is written through: the file
 * it points to gets the tour, by rename beside that file, and the link
 * stays (a dangling one creates its target directly).  Anything else
 * (/dev/stdout, a pipe, a terminal) is written directly: a rename would
 * replace the device node or pipe with a regular file. */
wt_status wt_tour_write_tsplib(const char *path, const char *name, const char *comment,
                               const int32_t *tour, int n, wt_error *err)
{
    if (!path || !path[0] || !tour || n < 1)
        return wt_fail(err, WT_STATUS_INVALID_ARGUMENT, "wt_tour_write_tsplib: need a path "
                       "and a tour of at least one city");
    wt_error why;
    wt_status s = wt_tour_validate(tour, n, &why);
    if (s != WT_OK) return wt_fail(err, s, "%s: not written: %s", path, why.message);
    struct stat st;
    if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode)) {
        char *target = realpath(path, NULL);
        if (!target) /* dangling (or unreadable): fopen follows it */
            return write_tour_file(path, path, name, comment, tour, n, err);
        bool regular = stat(target, &st) == 0 && S_ISREG(st.st_mode);
        s = regular ? write_by_rename(target, path, name, comment, tour, n, err)
                    : write_tour_file(target, path, name, comment, tour, n, err);
        free(target);
        return s;
    }
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode))
        return write_tour_file(path, path, name, comment, tour, n, err);
    return write_by_rename(path, path, name, comment, tour, n, err);
}
