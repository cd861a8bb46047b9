/*
 * instance.c - building, inspecting and freeing wt_instance objects.
 *
 * The TSPLIB reader (tsplib_read.c) and the generator (gen.c) both end here:
 * wt_instance_alloc() gives an empty shell, wt_instance_finish() derives what
 * depends on the coordinates (GEO radians, the real types' unit, the known
 * optimum) and checks that no tour length can overflow 64 bits.
 */
#include "core/instance_build.h"

#include <float.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"

static const char *const type_names[] = {
    [WT_EUC_2D] = "EUC_2D", [WT_CEIL_2D] = "CEIL_2D", [WT_ATT] = "ATT",
    [WT_GEO] = "GEO",       [WT_MAN_2D] = "MAN_2D",   [WT_MAX_2D] = "MAX_2D",
    [WT_EUC_3D] = "EUC_3D", [WT_EXPLICIT] = "EXPLICIT",
    [WT_EUC_2D_REAL] = "EUC_2D_REAL", [WT_EUC_3D_REAL] = "EUC_3D_REAL",
    [WT_HAVERSINE] = "HAVERSINE",
};

const char *wt_edge_weight_type_name(wt_edge_weight_type type)
{
    if ((unsigned)type >= sizeof type_names / sizeof type_names[0]) return NULL;
    return type_names[type];
}

char *wt_strdup(const char *s)
{
    size_t len = strlen(s) + 1;
    char *p = malloc(len);
    if (p) memcpy(p, s, len);
    return p;
}

wt_instance *wt_instance_alloc(const char *name, int n, wt_edge_weight_type type)
{
    wt_instance *inst = calloc(1, sizeof *inst);
    if (!inst) return NULL;
    inst->name = wt_strdup(name ? name : "");
    inst->comment = wt_strdup("");
    inst->n = n;
    inst->real = type == WT_EUC_2D_REAL || type == WT_EUC_3D_REAL;
    inst->type = type == WT_EUC_2D_REAL ? WT_EUC_2D : type == WT_EUC_3D_REAL ? WT_EUC_3D : type;
    inst->known_optimum = -1;
    if (!inst->name || !inst->comment) {
        wt_instance_free(inst);
        return NULL;
    }
    return inst;
}

bool wt_instance_alloc_coords(wt_instance *inst, bool with_z)
{
    size_t n = (size_t)inst->n;
    inst->x = malloc(n * sizeof(double));
    inst->y = malloc(n * sizeof(double));
    if (with_z) inst->z = malloc(n * sizeof(double));
    return inst->x && inst->y && (!with_z || inst->z);
}

/* TSPLIB GEO: DDD.MM to radians, degrees truncated toward zero (see
 * ../shared/tsplib/README.md: rounding them does not reproduce the optima). */
static double geo_radians(double v)
{
    const double pi = 3.141592;
    double deg = trunc(v);
    double min = v - deg;
    return pi * (deg + 5.0 * min / 3.0) / 180.0;
}

/* Largest distance any two cities can have, bounded from the bounding box;
 * used only to refuse instances whose tour lengths could overflow int64. */
static double max_distance_bound(const wt_instance *inst)
{
    double lo[3], hi[3];
    if (inst->type == WT_GEO) return 6378.388 * 3.15 + 2.0;
    if (inst->type == WT_HAVERSINE) return WT_EARTH_RADIUS_M * 3.15 + 2.0;
    if (inst->type == WT_EXPLICIT) return (double)INT32_MAX;
    if (!wt_instance_bbox(inst, lo, hi)) return 0.0;
    double sum = 0.0;
    for (int k = 0; k < 3; k++) sum += (hi[k] - lo[k]);
    return sum + 2.0; /* L1 bounds L2, L-inf and the ATT and rounding variants */
}

/* The real types' unit: coordinates become (p - lo) * 2^k, lo the bounding
 * box's low corner, with the largest k for which the box's L1 extent (a
 * bound on every distance) stays within 2^40 units and n times it within
 * 2^61.  The shift costs nothing measurable: |p - lo| <= extent, so it
 * rounds by at most 2^-53 of the extent, about 2^-13 units; the scaling by
 * a power of two is exact.  Shifted coordinates also keep the GPU's float
 * copies as precise as the spread of the points allows. */
static wt_status scale_real(wt_instance *inst, wt_error *err)
{
    double lo[3], hi[3], extent = 0.0;
    wt_instance_bbox(inst, lo, hi);
    for (int k = 0; k < 3; k++) extent += hi[k] - lo[k];
    if (!isfinite(extent))
        return wt_fail(err, WT_STATUS_TOO_LARGE, "points span too wide a range for doubles");
    double target = fmin(0x1p40, 0x1p61 / (double)inst->n);
    int k = 0;
    if (extent > 0.0) {
        double ratio = target / extent;
        if (!(ratio < 0x1p900))
            return wt_fail(err, WT_STATUS_TOO_LARGE,
                           "points lie too close together (extent %g) for a length unit",
                           extent);
        frexp(ratio, &k); /* 2^(k-1) <= ratio < 2^k */
        k -= 1;
    }
    inst->unit_exp = k;
    double *c[3] = {inst->x, inst->y, inst->z};
    for (int a = 0; a < 3; a++) {
        if (!c[a]) continue;
        for (int i = 0; i < inst->n; i++) c[a][i] = ldexp(c[a][i] - lo[a], k);
    }
    return WT_OK;
}

/* The first city of a WT_HAVERSINE instance whose degrees (x latitude, y
 * longitude) are out of range, or -1. */
int wt_degrees_bad(const double *lat, const double *lon, int n)
{
    for (int i = 0; i < n; i++)
        if (!wt_degrees_ok(lat[i], lon[i])) return i;
    return -1;
}

/* WT_HAVERSINE: the degrees move to lat/lon, x/y/z become unit vectors. */
static wt_status haversine_vectors(wt_instance *inst, wt_error *err)
{
    size_t n = (size_t)inst->n;
    int bad = wt_degrees_bad(inst->x, inst->y, inst->n);
    if (bad >= 0)
        return wt_fail(err, WT_STATUS_INVALID_ARGUMENT,
                       "city %d: latitude %g, longitude %g: a latitude is in [-90, 90] and a "
                       "longitude in [-180, 360), in decimal degrees", bad + 1, inst->x[bad],
                       inst->y[bad]);
    free(inst->lat);
    free(inst->lon);
    free(inst->z);
    inst->lat = inst->x;
    inst->lon = inst->y;
    inst->x = inst->y = inst->z = NULL;
    if (!wt_instance_alloc_coords(inst, true))
        return wt_fail(err, WT_STATUS_OUT_OF_MEMORY, "out of memory");
    const double rad = 3.14159265358979323846 / 180.0;
    for (size_t i = 0; i < n; i++) {
        double la = inst->lat[i] * rad, lo = inst->lon[i] * rad, cl = cos(la);
        inst->x[i] = cl * cos(lo);
        inst->y[i] = cl * sin(lo);
        inst->z[i] = sin(la);
    }
    return WT_OK;
}

wt_status wt_instance_finish(wt_instance *inst, wt_error *err)
{
    if (inst->type == WT_HAVERSINE) {
        wt_status st = haversine_vectors(inst, err);
        if (st != WT_OK) return st;
    }
    if (inst->real) {
        wt_status st = scale_real(inst, err);
        if (st != WT_OK) return st;
    }
    if (inst->type == WT_GEO) {
        size_t n = (size_t)inst->n;
        inst->lat = malloc(n * sizeof(double));
        inst->lon = malloc(n * sizeof(double));
        if (!inst->lat || !inst->lon)
            return wt_fail(err, WT_STATUS_OUT_OF_MEMORY, "out of memory");
        for (size_t i = 0; i < n; i++) {
            inst->lat[i] = geo_radians(inst->x[i]);
            inst->lon[i] = geo_radians(inst->y[i]);
        }
    }
    double bound = max_distance_bound(inst) * (double)inst->n;
    if (!(bound < 0x1p62))
        return wt_fail(err, WT_STATUS_TOO_LARGE,
                       "coordinates span too wide a range: a tour length could "
                       "exceed 2^62 and overflow 64-bit integers");
    /* The table's optima are TSPLIB lengths, never in a real type's unit. */
    if (!inst->real && inst->unit_exp == 0)
        inst->known_optimum = wt_optima_lookup(inst->name, inst->n, &inst->optimum_proven);
    return WT_OK;
}

wt_status wt_instance_from_coords(const char *name, int n, wt_edge_weight_type type,
                                  const double *x, const double *y, const double *z,
                                  wt_instance **out, wt_error *err)
{
    if (!out || !x || !y || n < 3 || n > WT_MAX_CITIES || type == WT_EXPLICIT ||
        !wt_edge_weight_type_name(type) ||
        ((type == WT_EUC_3D || type == WT_EUC_3D_REAL) && !z))
        return wt_fail(err, WT_STATUS_INVALID_ARGUMENT,
                       "wt_instance_from_coords: need n >= 3 coordinates of a coordinate type");
    bool with_z = type == WT_EUC_3D || type == WT_EUC_3D_REAL;
    for (int i = 0; i < n; i++) {
        if (!isfinite(x[i]) || !isfinite(y[i]) || (with_z && !isfinite(z[i])))
            return wt_fail(err, WT_STATUS_INVALID_ARGUMENT,
                           "wt_instance_from_coords: coordinate %d is not finite", i);
    }
    int bad = type == WT_HAVERSINE ? wt_degrees_bad(x, y, n) : -1;
    if (bad >= 0)
        return wt_fail(err, WT_STATUS_INVALID_ARGUMENT,
                       "wt_instance_from_coords: point %d: latitude %g, longitude %g: a "
                       "latitude is in [-90, 90] and a longitude in [-180, 360), in decimal "
                       "degrees", bad, x[bad], y[bad]);
    wt_instance *inst = wt_instance_alloc(name, n, type);
    if (!inst || !wt_instance_alloc_coords(inst, with_z)) {
        wt_instance_free(inst);
        return wt_fail(err, WT_STATUS_OUT_OF_MEMORY, "out of memory for %d cities", n);
    }
    memcpy(inst->x, x, (size_t)n * sizeof(double));
    memcpy(inst->y, y, (size_t)n * sizeof(double));
    if (with_z) memcpy(inst->z, z, (size_t)n * sizeof(double));
    wt_error why = {0};
    wt_status st = wt_instance_finish(inst, &why);
    if (st != WT_OK) {
        wt_fail(err, st, "%s: %s", inst->name, why.message);
        wt_instance_free(inst);
        return st;
    }
    *out = inst;
    return WT_OK;
}

void wt_instance_free(wt_instance *inst)
{
    if (!inst) return;
    free(inst->name);
    free(inst->comment);
    free(inst->x);
    free(inst->y);
    free(inst->z);
    free(inst->lat);
    free(inst->lon);
    free(inst->matrix);
    free(inst->fixed);
    wt_instance_free(inst->sym);
    free(inst);
}

int wt_instance_n(const wt_instance *inst) { return inst->n; }
const char *wt_instance_name(const wt_instance *inst) { return inst->name; }
const char *wt_instance_comment(const wt_instance *inst) { return inst->comment; }
wt_edge_weight_type wt_instance_type(const wt_instance *inst)
{
    if (inst->real) return inst->type == WT_EUC_3D ? WT_EUC_3D_REAL : WT_EUC_2D_REAL;
    return inst->type;
}

bool wt_instance_is_real(const wt_instance *inst) { return inst->real; }

double wt_instance_length_unit(const wt_instance *inst) { return ldexp(1.0, -inst->unit_exp); }

double wt_length_real(const wt_instance *inst, int64_t length)
{
    return ldexp((double)length, -inst->unit_exp);
}

int64_t wt_instance_dist(const wt_instance *inst, int a, int b)
{
    if (!inst || a < 0 || b < 0 || a >= inst->n || b >= inst->n) return -1;
    if (a == b) return 0; /* TSPLIB's GEO formula would give 1 */
    return wt_dist(inst, a, b);
}

bool wt_instance_coords(const wt_instance *inst, const double **x, const double **y)
{
    if (!inst || !x || !y || !inst->x || !inst->y) return false;
    if (inst->type == WT_HAVERSINE) {
        *x = inst->lat;
        *y = inst->lon;
        return true;
    }
    *x = inst->x;
    *y = inst->y;
    return true;
}

bool wt_instance_bbox(const wt_instance *inst, double min[3], double max[3])
{
    if (!inst || !min || !max || !inst->x || !inst->y) return false;
    const double *c[3] = {inst->x, inst->y, inst->z};
    for (int k = 0; k < 3; k++) {
        min[k] = max[k] = 0.0;
        if (!c[k]) continue;
        min[k] = DBL_MAX;
        max[k] = -DBL_MAX;
        for (int i = 0; i < inst->n; i++) {
            if (c[k][i] < min[k]) min[k] = c[k][i];
            if (c[k][i] > max[k]) max[k] = c[k][i];
        }
    }
    return true;
}

int64_t wt_instance_known_optimum(const wt_instance *inst) { return inst->known_optimum; }
bool wt_instance_optimum_is_proven(const wt_instance *inst)
{
    return inst->known_optimum >= 0 && inst->optimum_proven;
}

void wt_instance_set_known_optimum(wt_instance *inst, int64_t length)
{
    inst->known_optimum = length < 0 ? -1 : length;
    inst->optimum_proven = false;
}

wt_status wt_instance_write_tsplib(const wt_instance *inst, FILE *out, wt_error *err)
{
    if (!inst || !out)
        return wt_fail(err, WT_STATUS_INVALID_ARGUMENT,
                       "wt_instance_write_tsplib: need an instance and a stream");
    if (!inst->x || inst->type == WT_EXPLICIT)
        return wt_fail(err, WT_STATUS_UNSUPPORTED,
                       "%s: only coordinate instances can be written", inst->name);
    if (inst->type == WT_HAVERSINE)
        return wt_fail(err, WT_STATUS_UNSUPPORTED,
                       "%s: TSPLIB has no great-circle metric on decimal degrees (HAVERSINE): "
                       "keep such places as a point file", inst->name);
    bool with_z = inst->type == WT_EUC_3D;
    fprintf(out, "NAME : %s\n", inst->name);
    if (inst->comment[0]) fprintf(out, "COMMENT : %s\n", inst->comment);
    if (inst->real)
        fprintf(out, "COMMENT : %s points in units of 2^%d: lengths are exactly %s's\n",
                wt_edge_weight_type_name(wt_instance_type(inst)), -inst->unit_exp,
                wt_edge_weight_type_name(wt_instance_type(inst)));
    fprintf(out, "TYPE : TSP\nDIMENSION : %d\nEDGE_WEIGHT_TYPE : %s\nNODE_COORD_SECTION\n",
            inst->n, wt_edge_weight_type_name(inst->type));
    /* %.17g reads back to the same double; integers print as integers. */
    for (int i = 0; i < inst->n; i++) {
        if (with_z)
            fprintf(out, "%d %.17g %.17g %.17g\n", i + 1, inst->x[i], inst->y[i], inst->z[i]);
        else
            fprintf(out, "%d %.17g %.17g\n", i + 1, inst->x[i], inst->y[i]);
    }
    fprintf(out, "EOF\n");
    if (fflush(out) != 0 || ferror(out))
        return wt_fail(err, WT_STATUS_IO, "%s: write failed", inst->name);
    return WT_OK;
}
