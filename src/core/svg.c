/*
 * svg.c - a picture of an instance and a tour, as an SVG file.
 *
 * The drawing is scaled to a fixed canvas whatever the coordinates are, and
 * the strokes and dots shrink with the number of cities so that both a
 * 100-city and a 100,000-city tour stay readable: dots are drawn only while
 * there are few enough of them to be seen, and the tour is a run of paths
 * of at most MAX_PATH_POINTS points each (librsvg refuses a single path of
 * megabytes), with coordinates rounded to a tenth of a pixel to keep files
 * small.  An open path (wt_open_path_write_svg) has no closing edge, and
 * its two ends are marked.
 */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "core/error.h"
#include "core/instance.h"

enum { MARGIN = 20, MAX_DOTS = 20000, MAX_PATH_POINTS = 10000 };

typedef struct svg_frame {
    double canvas;              /* width in pixels */
    double title;               /* height of the title band; the font grows with the canvas */
    double min_x, min_y, scale; /* world -> pixels */
    double height;              /* pixel height of the drawing area */
    bool geo;                   /* GEO: draw longitude across, latitude up */
    const double *across, *up;  /* the arrays drawn on each axis */
} svg_frame;

static void frame_init(svg_frame *fr, const wt_instance *inst)
{
    /* Big tours get a bigger canvas (10 px per sqrt(city), 1000 to 4000 px)
     * so that a viewer's zoom still separates their edges. */
    fr->canvas = fmin(4000.0, fmax(1000.0, 10.0 * sqrt((double)inst->n)));
    fr->title = 0.03 * fr->canvas;
    fr->geo = inst->type == WT_GEO || inst->type == WT_HAVERSINE;
    /* HAVERSINE keeps its degrees in lat/lon (x, y, z are unit vectors). */
    const double *lat = inst->type == WT_HAVERSINE ? inst->lat : inst->x;
    const double *lon = inst->type == WT_HAVERSINE ? inst->lon : inst->y;
    fr->across = fr->geo ? lon : inst->x;
    fr->up = fr->geo ? lat : inst->y;
    double lo_a = INFINITY, hi_a = -INFINITY, lo_u = INFINITY, hi_u = -INFINITY;
    for (int i = 0; i < inst->n; i++) {
        lo_a = fmin(lo_a, fr->across[i]);
        hi_a = fmax(hi_a, fr->across[i]);
        lo_u = fmin(lo_u, fr->up[i]);
        hi_u = fmax(hi_u, fr->up[i]);
    }
    double span = fmax(hi_a - lo_a, hi_u - lo_u);
    fr->scale = span > 0 ? (fr->canvas - 2.0 * MARGIN) / span : 1.0;
    fr->min_x = lo_a;
    fr->min_y = lo_u;
    fr->height = (hi_u - lo_u) * fr->scale;
}

static double px(const svg_frame *fr, int c)
{
    return MARGIN + (fr->across[c] - fr->min_x) * fr->scale;
}
/* SVG's y grows downwards; TSPLIB's (and a map's) upwards. */
static double py(const svg_frame *fr, int c)
{
    return fr->title + MARGIN + fr->height - (fr->up[c] - fr->min_y) * fr->scale;
}

static void write_escaped(FILE *f, const char *s)
{
    for (; *s; s++) {
        switch (*s) {
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '&': fputs("&amp;", f); break;
        default: fputc(*s, f);
        }
    }
}

/* The tour as consecutive paths in one group, each of at most
 * MAX_PATH_POINTS - 1 edges, each starting where the one before ended; a
 * closed tour's last edge returns to the first city (a single path closes
 * with 'Z'), an open path's stops at its last city. */
static void write_tour_path(FILE *f, const svg_frame *fr, const int32_t *tour, int n, bool open,
                            double width)
{
    fprintf(f, "<g fill=\"none\" stroke=\"#1f5fa8\" stroke-width=\"%.3g\" "
               "stroke-linejoin=\"round\">\n", width);
    int edges = open ? n - 1 : n;
    for (int first = 0; first < edges; first += MAX_PATH_POINTS - 1) {
        int last = first + MAX_PATH_POINTS - 1; /* the edges first .. last-1 */
        if (last > edges) last = edges;
        bool close = !open && first == 0 && last == edges; /* the whole tour: 'Z' */
        int points = close ? n : last - first + 1; /* cities tour[first ...] drawn */
        fputs("<path d=\"M", f);
        for (int k = 0; k < points; k++) {
            int c = tour[(first + k) % n];
            fprintf(f, "%.1f %.1f%s", px(fr, c), py(fr, c), k + 1 < points ? "L" : "");
            if (k % 8 == 7) fputc('\n', f);
        }
        if (close) fputc('Z', f);
        fputs("\"/>\n", f);
    }
    fputs("</g>\n", f);
}

/* An open path's ends, drawn over the cities: its first city a green
 * circle, its last a dark square, each with a <title> naming it. */
static void write_path_ends(FILE *f, const svg_frame *fr, const int32_t *tour, int n,
                            double radius)
{
    double r = fmax(4.0, 2.5 * radius);
    int a = tour[0], b = tour[n - 1];
    fprintf(f, "<g stroke=\"white\" stroke-width=\"%.3g\">\n", r / 4);
    fprintf(f, "<circle class=\"path-start\" cx=\"%.1f\" cy=\"%.1f\" r=\"%.3g\" "
               "fill=\"#1e8c3a\"><title>start: city %d</title></circle>\n",
            px(fr, a), py(fr, a), r, a + 1);
    fprintf(f, "<rect class=\"path-end\" x=\"%.1f\" y=\"%.1f\" width=\"%.3g\" "
               "height=\"%.3g\" fill=\"#222222\"><title>end: city %d</title></rect>\n",
            px(fr, b) - r, py(fr, b) - r, 2 * r, 2 * r, b + 1);
    fputs("</g>\n", f);
}

static void write_dots(FILE *f, const svg_frame *fr, int n, double radius)
{
    fprintf(f, "<g fill=\"#c0392b\">\n");
    for (int c = 0; c < n; c++)
        fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%.3g\"/>\n", px(fr, c), py(fr, c), radius);
    fputs("</g>\n", f);
}

static wt_status write_svg(const char *path, const wt_instance *inst, const int32_t *tour,
                           bool open, const char *title, wt_error *err)
{
    if (!path || !path[0] || !inst)
        return wt_fail(err, WT_STATUS_INVALID_ARGUMENT, "%s: need a path and an instance",
                       open ? "wt_open_path_write_svg" : "wt_tour_write_svg");
    if (tour) {
        wt_error why;
        wt_status valid = wt_tour_validate(tour, inst->n, &why);
        if (valid != WT_OK) return wt_fail(err, valid, "%s: not drawn: %s", path, why.message);
    }
    if (!inst->x || !inst->y)
        return wt_fail(err, WT_STATUS_UNSUPPORTED,
                       "%s: cannot draw %s: the instance has no coordinates", path, inst->name);
    FILE *f = fopen(path, "w");
    if (!f) return wt_fail(err, WT_STATUS_IO, "%s: cannot open for writing: %s", path,
                           strerror(errno));
    svg_frame fr;
    frame_init(&fr, inst);
    int n = inst->n;
    /* Strokes thin out like the typical edge length, ~ 1/sqrt(n) of the canvas. */
    double edge = (fr.canvas - 2.0 * MARGIN) / sqrt((double)n);
    double width = fmin(1.8, fmax(0.3, edge / 12.0));
    double radius = fmin(3.0, fmax(0.5, edge / 10.0));
    int w = (int)fr.canvas, h = (int)ceil(fr.height + fr.title) + 2 * MARGIN;

    fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
               "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
               "viewBox=\"0 0 %d %d\">\n<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n",
            w, h, w, h);
    fprintf(f, "<text x=\"%d\" y=\"%.0f\" font-family=\"sans-serif\" font-size=\"%.0f\">",
            MARGIN, 0.73 * fr.title, 0.53 * fr.title);
    write_escaped(f, title ? title : inst->name);
    fputs("</text>\n", f);
    if (tour) write_tour_path(f, &fr, tour, n, open, width);
    if (n <= MAX_DOTS) write_dots(f, &fr, n, radius);
    if (tour && open) write_path_ends(f, &fr, tour, n, radius);
    fputs("</svg>\n", f);
    int bad = ferror(f);
    if (fclose(f) != 0 || bad)
        return wt_fail(err, WT_STATUS_IO, "%s: write failed: %s", path, strerror(errno));
    return WT_OK;
}

wt_status wt_tour_write_svg(const char *path, const wt_instance *inst, const int32_t *tour,
                            const char *title, wt_error *err)
{
    return write_svg(path, inst, tour, false, title, err);
}

wt_status wt_open_path_write_svg(const char *path, const wt_instance *inst, const int32_t *order,
                                 const char *title, wt_error *err)
{
    if (!order)
        return wt_fail(err, WT_STATUS_INVALID_ARGUMENT, "wt_open_path_write_svg: need the "
                       "path's cities");
    return write_svg(path, inst, order, true, title, err);
}
