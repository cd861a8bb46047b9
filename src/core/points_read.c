/*
 * points_read.c - point files: real-valued points, one per line, as an
 * instance of the real Euclidean metric (WT_EUC_2D_REAL, WT_EUC_3D_REAL).
 *
 * A point line holds 2 or 3 numbers separated by blanks and/or commas, so
 * that whitespace-separated text and CSV both read.  The first data line
 * fixes the count for the whole file.  A first line that is not all numbers
 * is a header row and skipped; anywhere else a non-number is an error that
 * names file:line.  '#' starts a comment that runs to the end of the line.
 * strtod reads the numbers (the C locale's '.'), and NaN and infinities are
 * refused: a distance to them means nothing.  The text is parsed as it
 * arrives (wt_stream, textfile.h), so a bad line is refused after reading
 * about as much as comes before it, and the arrays grow with the points.
 *
 * Places on the Earth (WT_HAVERSINE) are two columns of decimal degrees: a
 * header of two names, one of latitude ("lat", "latitude") and one of
 * longitude ("lon", "lng", "long", "longitude"), any case, quoted or not,
 * says their order and, under WT_POINTS_AUTO, the metric; without one,
 * WT_POINTS_HAVERSINE takes latitude first.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/error.h"
#include "core/instance_build.h"
#include "core/textfile.h"

#define MAX_FIELDS 3

static bool is_sep(char c)
{
    return c == ',' || c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

/* The growing coordinate arrays of the points read so far. */
typedef struct points {
    double *c[MAX_FIELDS];
    size_t n, cap;
    int dims; /* 0 until the first point line */
} points;

static void points_free(points *p)
{
    for (int k = 0; k < MAX_FIELDS; k++) free(p->c[k]);
}

static bool points_push(points *p, const double *v)
{
    if (p->n == p->cap) {
        size_t cap = p->cap ? 2 * p->cap : 1024;
        for (int k = 0; k < p->dims; k++) {
            double *q = realloc(p->c[k], cap * sizeof(double));
            if (!q) return false;
            p->c[k] = q;
        }
        p->cap = cap;
    }
    for (int k = 0; k < p->dims; k++) p->c[k][p->n] = v[k];
    p->n++;
    return true;
}

/* Splits [s, e) into fields.  Returns the number of fields (up to
 * MAX_FIELDS + 1: more than allowed is reported as MAX_FIELDS + 1), with
 * their bounds in fs/fe. */
static int split_fields(const char *s, const char *e, const char **fs, const char **fe)
{
    int nf = 0;
    while (s < e) {
        while (s < e && is_sep(*s)) s++;
        if (s == e) break;
        const char *t = s;
        while (t < e && !is_sep(*t)) t++;
        if (nf <= MAX_FIELDS) {
            fs[nf] = s;
            fe[nf] = t;
        }
        if (nf <= MAX_FIELDS) nf++;
        s = t;
    }
    return nf;
}

/* 1 when [s, e) names a latitude column, 2 a longitude one, else 0. */
static int degree_name(const char *s, const char *e)
{
    while (s < e && (*s == '"' || *s == '\'')) s++;
    while (e > s && (e[-1] == '"' || e[-1] == '\'')) e--;
    static const char *const lat[] = {"lat", "latitude"};
    static const char *const lon[] = {"lon", "lng", "long", "longitude"};
    size_t len = (size_t)(e - s);
    for (size_t k = 0; k < sizeof lat / sizeof lat[0]; k++)
        if (strlen(lat[k]) == len && strncasecmp(s, lat[k], len) == 0) return 1;
    for (size_t k = 0; k < sizeof lon / sizeof lon[0]; k++)
        if (strlen(lon[k]) == len && strncasecmp(s, lon[k], len) == 0) return 2;
    return 0;
}

/* Reads [s, e) as one number into *v; false when it is not exactly one. */
static bool parse_number(const char *s, const char *e, double *v)
{
    char buf[128];
    size_t len = (size_t)(e - s);
    if (len == 0 || len >= sizeof buf) return false;
    memcpy(buf, s, len);
    buf[len] = '\0';
    if (memchr(buf, '\0', len)) return false; /* an embedded NUL byte */
    char *end;
    errno = 0;
    *v = strtod(buf, &end);
    return end == buf + len;
}

wt_status wt_instance_parse_points_stream(wt_stream *in, const char *source,
                                          wt_instance **out, wt_error *err)
{
    return wt_instance_parse_points_stream_as(in, source, WT_POINTS_AUTO, NULL, out, err);
}

wt_status wt_instance_parse_points_stream_as(wt_stream *in, const char *source,
                                             wt_points_metric metric, wt_points_info *info,
                                             wt_instance **out, wt_error *err)
{
    if (!source) source = "<points>";
    if (metric != WT_POINTS_AUTO && metric != WT_POINTS_EUCLIDEAN &&
        metric != WT_POINTS_HAVERSINE)
        return wt_fail(err, WT_STATUS_INVALID_ARGUMENT, "%s: unknown point metric %d", source,
                       (int)metric);
    points p = {{NULL}, 0, 0, 0};
    wt_points_info told = {0, 0, false};
    bool degrees = metric == WT_POINTS_HAVERSINE;
    int lat_col = 0; /* the column of latitudes (0 or 1) */
    /* The line end is told from the first window (textfile.h). */
    const char eol = wt_line_break(in->buf, in->len);
    const char *s = in->buf, *end = in->buf + in->len;
    size_t scanned = 0; /* bytes from s known to hold no line end */
    long line = 0, first_line = 0;
    bool seen_content = false;
    wt_status st = WT_OK;
    for (;;) {
        const char *e = memchr(s + scanned, eol, (size_t)(end - s) - scanned);
        if (!e && !in->end) { /* the line goes on past the window: read more */
            scanned = (size_t)(end - s);
            st = wt_stream_more(in, (size_t)(s - in->buf), err);
            if (st != WT_OK) goto fail;
            s = in->buf;
            end = in->buf + in->len;
            continue;
        }
        scanned = 0;
        if (s >= end) break;
        line++;
        if (!e) e = end;
        const char *next = e < end ? e + 1 : end;
        const char *hash = memchr(s, '#', (size_t)(e - s));
        if (hash) e = hash;
        const char *fs[MAX_FIELDS + 1], *fe[MAX_FIELDS + 1];
        int nf = split_fields(s, e, fs, fe);
        s = next;
        if (nf == 0) continue;
        double v[MAX_FIELDS];
        int bad = -1;
        for (int k = 0; k < nf && k < MAX_FIELDS && bad < 0; k++)
            if (!parse_number(fs[k], fe[k], &v[k])) bad = k;
        if (!seen_content) {
            seen_content = true;
            if (bad >= 0) { /* a header row: does it name degrees' columns? */
                told.header_line = line;
                int a = nf == 2 ? degree_name(fs[0], fe[0]) : 0;
                int b = nf == 2 ? degree_name(fs[1], fe[1]) : 0;
                if (a && b && a != b && metric != WT_POINTS_EUCLIDEAN) {
                    degrees = true;
                    told.from_header = true;
                    lat_col = a == 1 ? 0 : 1;
                }
                continue;
            }
        }
        if (bad >= 0) {
            st = wt_fail(err, WT_STATUS_PARSE, "%s:%ld: expected a number, found '%s'", source,
                         line, wt_quote(fs[bad], fe[bad]).s);
            goto fail;
        }
        if (p.dims == 0 && degrees && nf != 2) {
            st = wt_fail(err, WT_STATUS_PARSE,
                         "%s:%ld: expected a place of 2 numbers, latitude and longitude in "
                         "decimal degrees, found %s%d", source, line,
                         nf > MAX_FIELDS ? "more than " : "", nf > MAX_FIELDS ? MAX_FIELDS : nf);
            goto fail;
        }
        if (p.dims == 0) {
            if (nf < 2 || nf > MAX_FIELDS) {
                st = wt_fail(err, WT_STATUS_PARSE,
                             "%s:%ld: expected a point of 2 or 3 coordinates (x y or x y z), "
                             "found %s%d number%s",
                             source, line, nf > MAX_FIELDS ? "more than " : "",
                             nf > MAX_FIELDS ? MAX_FIELDS : nf, nf == 1 ? "" : "s");
                goto fail;
            }
            p.dims = nf;
            first_line = line;
        } else if (nf != p.dims) {
            st = wt_fail(err, WT_STATUS_PARSE,
                         "%s:%ld: expected %d coordinates, as on line %ld, found %s%d", source,
                         line, p.dims, first_line, nf > MAX_FIELDS ? "more than " : "",
                         nf > MAX_FIELDS ? MAX_FIELDS : nf);
            goto fail;
        }
        for (int k = 0; k < p.dims; k++) {
            if (!isfinite(v[k])) {
                st = wt_fail(err, WT_STATUS_PARSE,
                             "%s:%ld: coordinate '%s' is not a finite number", source, line,
                             wt_quote(fs[k], fe[k]).s);
                goto fail;
            }
        }
        if (degrees) {
            double la = v[lat_col], lo = v[1 - lat_col];
            v[0] = la;
            v[1] = lo;
            if (!wt_degrees_ok(la, lo)) {
                bool lat_bad = !(la >= -90.0 && la <= 90.0);
                st = wt_fail(err, WT_STATUS_PARSE,
                             "%s:%ld: %s %g is outside %s (decimal degrees, column %d)%s",
                             source, line, lat_bad ? "latitude" : "longitude",
                             lat_bad ? la : lo, lat_bad ? "[-90, 90]" : "[-180, 360)",
                             lat_bad ? lat_col + 1 : 2 - lat_col,
                             lat_bad && lo >= -90.0 && lo <= 90.0
                                 ? told.from_header ? "" : "; if longitude comes first, "
                                                           "say so in a header line: lon,lat"
                                 : "");
                goto fail;
            }
        }
        if (p.n >= (size_t)WT_MAX_CITIES) {
            st = wt_fail(err, WT_STATUS_TOO_LARGE, "%s:%ld: more than %d points", source, line,
                         WT_MAX_CITIES);
            goto fail;
        }
        if (!points_push(&p, v)) {
            st = wt_fail(err, WT_STATUS_OUT_OF_MEMORY, "%s:%ld: out of memory", source, line);
            goto fail;
        }
    }
    /* The whole file is read: valid gzip, within its bound. */
    st = wt_stream_drain(in, err);
    if (st != WT_OK) goto fail;
    if (p.n < 3) {
        st = wt_fail(err, WT_STATUS_PARSE, "%s: need at least 3 points, found %zu", source, p.n);
        goto fail;
    }

    /* The name: the file name without directory and extension. */
    const char *base = strrchr(source, '/');
    base = base ? base + 1 : source;
    char name[256];
    snprintf(name, sizeof name, "%s", base);
    char *dot = strrchr(name, '.');
    if (dot && dot != name) *dot = '\0';

    wt_instance *inst = wt_instance_alloc(
        name, (int)p.n, degrees ? WT_HAVERSINE : p.dims == 3 ? WT_EUC_3D_REAL : WT_EUC_2D_REAL);
    if (!inst) {
        st = wt_fail(err, WT_STATUS_OUT_OF_MEMORY, "%s: out of memory", source);
        goto fail;
    }
    /* Hand the arrays over, trimmed to size (a failed shrink keeps them). */
    double **dst[MAX_FIELDS] = {&inst->x, &inst->y, &inst->z};
    for (int k = 0; k < p.dims; k++) {
        double *q = realloc(p.c[k], p.n * sizeof(double));
        *dst[k] = q ? q : p.c[k];
        p.c[k] = NULL;
    }
    wt_error why = {0};
    st = wt_instance_finish(inst, &why);
    if (st != WT_OK) {
        wt_fail(err, st, "%s: %s", source, why.message);
        wt_instance_free(inst);
        goto fail;
    }
    if (degrees) told.lat_column = lat_col + 1;
    if (info) *info = told;
    *out = inst;
    return WT_OK;
fail:
    points_free(&p);
    return st;
}

wt_status wt_instance_parse_points(const char *data, size_t len, const char *source,
                                   wt_instance **out, wt_error *err)
{
    if (!data || !out)
        return wt_fail(err, WT_STATUS_INVALID_ARGUMENT,
                       "wt_instance_parse_points: need data and an output pointer");
    wt_stream in;
    wt_stream_over(&in, data, len);
    return wt_instance_parse_points_stream(&in, source, out, err);
}

wt_status wt_instance_parse_points_as(const char *data, size_t len, const char *source,
                                      wt_points_metric metric, wt_points_info *info,
                                      wt_instance **out, wt_error *err)
{
    if (!data || !out)
        return wt_fail(err, WT_STATUS_INVALID_ARGUMENT,
                       "wt_instance_parse_points_as: need data and an output pointer");
    wt_stream in;
    wt_stream_over(&in, data, len);
    return wt_instance_parse_points_stream_as(&in, source, metric, info, out, err);
}

wt_status wt_instance_read_points(const char *path, wt_instance **out, wt_error *err)
{
    if (!path || !out)
        return wt_fail(err, WT_STATUS_INVALID_ARGUMENT,
                       "wt_instance_read_points: need a path and an output pointer");
    wt_stream in;
    wt_status st = wt_stream_open(&in, path, false, 0, err);
    if (st != WT_OK) return st;
    st = wt_instance_parse_points_stream(&in, path, out, err);
    wt_stream_close(&in);
    return st;
}
