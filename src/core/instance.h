/*
 * instance.h - the inside of a wt_instance, and its exact distance function.
 *
 * A coordinate instance keeps only its coordinates (O(n) memory) and computes
 * every distance on demand, exactly as TSPLIB95 defines it (double arithmetic,
 * then the type's rounding).  Only EXPLICIT instances hold an n x n matrix.
 * The distance is inline here because every search's inner loop calls it.
 *
 * The real-valued types (WT_EUC_2D_REAL, WT_EUC_3D_REAL) are kept as
 * EUC_2D / EUC_3D over the points times 2^unit_exp: that is exactly their
 * metric (the nearest integer to the scaled Euclidean distance), so every
 * search, bound, index and GPU kernel written for EUC_2D / EUC_3D serves
 * them unchanged.  `type` is that internal type; `real` says the public
 * one (wt_instance_type) is its _REAL variant.
 *
 * WT_HAVERSINE (places in decimal degrees) keeps the cities' unit vectors
 * in x, y, z, as an EUC_3D instance would, so that the k-d tree, the
 * neighbour lists, the windows' copies and the GPU's uploads take them as
 * 3-D points (the chord orders pairs as the great circle does); lat and lon
 * keep the degrees as given, for pictures and wt_instance_coords.
 */
#ifndef WT_CORE_INSTANCE_H
#define WT_CORE_INSTANCE_H

#include <math.h>
#include <stdint.h>

#include "warptour.h"

struct wt_instance {
    char *name;               /* NAME, without a trailing ".tsp"; never NULL */
    char *comment;            /* COMMENT lines joined by "; "; never NULL */
    int n;                    /* DIMENSION */
    wt_edge_weight_type type; /* never a _REAL type (see above) */
    bool real;                /* public type is the _REAL variant of type */
    int unit_exp;             /* real: coordinates are the points times
                                 2^unit_exp; a fixed-point EXPLICIT matrix
                                 (wt_instance_from_matrix): entries times
                                 2^unit_exp; 0 otherwise */
    double *x, *y, *z;        /* coordinates; z only for EUC_3D and HAVERSINE
                                 (its unit vectors); x,y may be DISPLAY_DATA
                                 for EXPLICIT, or NULL */
    double *lat, *lon;        /* GEO: radians, TSPLIB's PI = 3.141592;
                                 HAVERSINE: degrees as given */
    int32_t *matrix;          /* EXPLICIT only: full n x n, row-major */
    int64_t known_optimum;    /* -1 when unknown */
    bool optimum_proven;
    int fixed_count;          /* fixed edges (FIXED_EDGES_SECTION), checked by */
    int32_t *fixed;           /* wt_fixed_edges_check: their ends, in pairs */
    /* Asymmetric (TYPE: ATSP, wt_instance_from_asymmetric_matrix): n, matrix
     * and every public function speak of the n original cities and their
     * directed costs (matrix[a * n + b] the cost from a to b, diagonal 0);
     * sym is the 2n-city symmetric instance of Jonker & Volgenant that the
     * searches solve (atsp.c), its n twin edges fixed.  NULL otherwise. */
    struct wt_instance *sym;
    bool directed;            /* this is such a sym: every tour that keeps its
                                 fixed edges alternates them with real ones,
                                 and reversing any path of it costs an edge of
                                 cost M (atsp.c), so only moves that keep every
                                 path's direction can shorten it */
};

/* TSPLIB's nint(): add 0.5 and truncate. */
static inline int64_t wt_nint(double v) { return (int64_t)(v + 0.5); }

static inline int64_t wt_dist_geo(const struct wt_instance *in, int a, int b)
{
    const double rrr = 6378.388;
    double q1 = cos(in->lon[a] - in->lon[b]);
    double q2 = cos(in->lat[a] - in->lat[b]);
    double q3 = cos(in->lat[a] + in->lat[b]);
    double c = 0.5 * ((1.0 + q1) * q2 - (1.0 - q1) * q3);
    /* Rounding can push c a hair past +-1 for coincident or antipodal
     * points; acos would then return NaN. */
    if (c > 1.0) c = 1.0;
    if (c < -1.0) c = -1.0;
    return (int64_t)(rrr * acos(c) + 1.0);
}

/* WT_HAVERSINE: the great-circle distance in metres, rounded to nearest,
 * from the unit vectors.  The haversine of the central angle theta is
 * (c / 2)^2, c the chord, so theta = 2 asin(c / 2): the haversine formula.
 * Past a right angle the chord to the antipode (|u + v|) takes over, where
 * asin stays well conditioned: every distance is within about 1e-8 m of the
 * sphere's before the rounding. */
static inline int64_t wt_dist_haversine(const struct wt_instance *in, int a, int b)
{
    double dx = in->x[a] - in->x[b], dy = in->y[a] - in->y[b], dz = in->z[a] - in->z[b];
    double d2 = dx * dx + dy * dy + dz * dz;
    double theta;
    if (d2 <= 2.0) {
        theta = 2.0 * asin(0.5 * sqrt(d2));
    } else {
        double sx = in->x[a] + in->x[b], sy = in->y[a] + in->y[b], sz = in->z[a] + in->z[b];
        double s2 = sx * sx + sy * sy + sz * sz;
        theta = 3.14159265358979323846 - 2.0 * asin(0.5 * sqrt(s2));
    }
    return wt_nint(WT_EARTH_RADIUS_M * theta);
}

/* Whether type keeps a z coordinate (EUC_3D; HAVERSINE's unit vectors). */
static inline bool wt_has_z(wt_edge_weight_type type)
{
    return type == WT_EUC_3D || type == WT_HAVERSINE;
}

static inline int64_t wt_dist_att(double dx, double dy)
{
    double r = sqrt((dx * dx + dy * dy) / 10.0);
    int64_t t = wt_nint(r);
    return (double)t < r ? t + 1 : t;
}

/* ceil(r) for r >= 0, as a truncation and a compare: libm's ceil is a
 * call where the build targets no SSE4.1, and CEIL_2D's search loops make
 * it for every candidate they weigh. */
static inline int64_t wt_ceil_nonneg(double r)
{
    int64_t t = (int64_t)r;
    return (double)t < r ? t + 1 : t;
}

/* Whether type's distance is a function of the two coordinate differences
 * alone (wt_dist_planar). */
static inline bool wt_is_planar(wt_edge_weight_type type)
{
    return type == WT_EUC_2D || type == WT_CEIL_2D || type == WT_ATT || type == WT_MAN_2D ||
           type == WT_MAX_2D;
}

/* Exact distance of a planar type from dx = x[a] - x[b], dy = y[a] - y[b]:
 * what wt_dist computes, for loops that keep coordinates of their own (in
 * tour order, say) and pass the type as a constant. */
static inline int64_t wt_dist_planar(wt_edge_weight_type type, double dx, double dy)
{
    switch (type) {
    case WT_EUC_2D: return wt_nint(sqrt(dx * dx + dy * dy));
    case WT_CEIL_2D: return wt_ceil_nonneg(sqrt(dx * dx + dy * dy));
    case WT_ATT: return wt_dist_att(dx, dy);
    case WT_MAN_2D: return wt_nint(fabs(dx) + fabs(dy));
    case WT_MAX_2D: {
        int64_t ddx = wt_nint(fabs(dx)), ddy = wt_nint(fabs(dy));
        return ddx > ddy ? ddx : ddy;
    }
    default: return 0;
    }
}

/* Exact TSPLIB95 distance between cities a and b of in. */
static inline int64_t wt_dist(const struct wt_instance *in, int a, int b)
{
    double dx, dy, dz;
    switch (in->type) {
    case WT_EUC_2D:
    case WT_CEIL_2D:
    case WT_ATT:
    case WT_MAN_2D:
    case WT_MAX_2D:
        return wt_dist_planar(in->type, in->x[a] - in->x[b], in->y[a] - in->y[b]);
    case WT_GEO:
        return wt_dist_geo(in, a, b);
    case WT_EUC_3D:
        dx = in->x[a] - in->x[b];
        dy = in->y[a] - in->y[b];
        dz = in->z[a] - in->z[b];
        return wt_nint(sqrt(dx * dx + dy * dy + dz * dz));
    case WT_EXPLICIT:
        return in->matrix[(size_t)a * (size_t)in->n + (size_t)b];
    case WT_HAVERSINE:
        return wt_dist_haversine(in, a, b);
    case WT_EUC_2D_REAL: /* kept as EUC_2D / EUC_3D, never an instance's type */
    case WT_EUC_3D_REAL:
        break;
    }
    return 0;
}

/* Makes inst (n cities, an EXPLICIT n x n matrix read as directed costs,
 * its diagonal ignored) asymmetric: the diagonal becomes 0 and inst->sym
 * the 2n-city symmetric instance (atsp.c).  WT_STATUS_TOO_LARGE when 2n
 * exceeds WT_MAX_EXPLICIT_CITIES or n times the largest cost reaches
 * INT32_MAX; the message names no instance. */
wt_status wt_atsp_attach(wt_instance *inst, wt_error *err);

/* The exponent k that holds the n x n matrix d (diagonal ignored) in
 * fixed point, entries times 2^k rounded to int32 (instance.c): 0 for
 * integers whose largest (times n when asymmetric: the symmetric
 * transformation's large cost) stays below INT32_MAX, else the largest k
 * that keeps it below 2^30 units.  INT_MIN when an entry exceeds INT32_MAX
 * (symmetric only). */
int wt_matrix_unit_exp(int n, const double *d, bool asymmetric);

/* Fills inst->matrix (n x n int32, diagonal 0) and inst->unit_exp from the
 * double matrix d, as wt_matrix_unit_exp says (instance.c). */
wt_status wt_instance_set_matrix(wt_instance *inst, const double *d, bool asymmetric,
                                 wt_error *err);

/* Looks up name/n in the built-in table of known optima (optima.c).
 * Returns -1 when absent; *proven says whether it is a proven optimum. */
int64_t wt_optima_lookup(const char *name, int n, bool *proven);

#endif
