/*
 * device_instance.cuh - an instance on the GPU, and its distances there.
 *
 * Searches evaluate moves in float, in the integer-valued form of TSPLIB
 * distances: every distance is rounded as TSPLIB rounds it before it is
 * combined, so a move's delta is the exact integer delta whenever float
 * computes the distance exactly (integer coordinates below about 2^11; see
 * docs/precision.md).  Rounding uses the magic constant 1.5 * 2^23: adding
 * it to s in [0, 2^22) leaves M + rint(s) exactly, two FADDs instead of a
 * conversion through the quarter-rate unit.  The search works on X = M + d,
 * "distances in magic form", and subtracts M-offset edge terms directly, so
 * the un-magic subtraction costs nothing (multistart_block.cuh).
 *
 * Each metric gives raw(a, b) as well: a float that becomes the rounded
 * distance when add() adds it to a magic-form value (an integer of
 * magnitude about M, whose ulp is 1), so the rounding and the FADD that
 * combines the distance with other terms are one instruction.  For metrics
 * that round to nearest raw is the unrounded distance and add() rounds to
 * nearest; CEIL_2D and ATT take the unrounded root too, and add()
 * scales it and rounds up (FFMA.RP); GEO's raw is the rounded
 * distance, an exact integer.  x(a, b) is add(M, raw(a, b)).
 *
 * Exact lengths are computed in double with the same IEEE operations as the
 * host's wt_dist (no FMA contraction), so tour lengths agree with the CPU.
 *
 * The real-valued types arrive as EUC_2D / EUC_3D over coordinates scaled
 * to up to 2^40 length units (core/instance.h), and run as those: their
 * distances lie far above 2^22, where magic form no longer rounds, so the
 * float deltas are approximations (relative error about 2^-22 of the
 * distances) and the exact check of every applied move decides, as for any
 * instance with large coordinates (docs/precision.md).
 */
#ifndef WT_BACKEND_CUDA_DEVICE_INSTANCE_CUH
#define WT_BACKEND_CUDA_DEVICE_INSTANCE_CUH

#include <cstdint>

#include "backend/cuda/cuda_common.cuh"
#include "core/instance.h"

#define WT_MAGIC 12582912.0f /* 1.5 * 2^23 */

/* Everything a kernel needs to know about the instance, passed by value. */
struct DevInst {
    int n;
    wt_edge_weight_type type;
    const float *xf, *yf, *zf;   /* float coordinates (GEO: lat, lon radians;
                                    HAVERSINE: unit vectors) */
    const double *xd, *yd, *zd;  /* double coordinates for exact lengths (GEO: radians) */
    const int32_t *matrix;       /* EXPLICIT: n x n */
};

/* Device copies owned by the host side; dev_instance_free releases them. */
struct DevInstBuffers {
    DevInst inst;
    void *allocs[7];
};

/* Uploads inst; on failure frees what it allocated and returns the status. */
wt_status dev_instance_upload(const wt_instance *inst, DevInstBuffers *buf, wt_error *err);
void dev_instance_free(DevInstBuffers *buf);

__device__ __forceinline__ float sqrt_approx(float v)
{
    float r;
    asm("sqrt.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(v));
    return r;
}

/* M + rint(s), exact for 0 <= s < 2^22. */
__device__ __forceinline__ float magic_rint(float s) { return s + WT_MAGIC; }

/* M + floor(s), s >= 0. */
__device__ __forceinline__ float magic_floor(float s)
{
    float t = s + WT_MAGIC;
    return (t - WT_MAGIC > s) ? t - 1.0f : t;
}

/* One metric per EDGE_WEIGHT_TYPE: the point a tour position holds, and
 * the distance between two points in magic form. */
/* The metrics that round to nearest combine raw distances so. */
struct RoundNearest {
    static __device__ __forceinline__ float add(float magic, float raw)
    {
        return __fadd_rn(magic, raw);
    }
};

/* CEIL_2D and ATT round up: FFMA.RP of the raw root times a scale, added
 * to an integer-valued magic-form value, adds ceil(scale * root) in one
 * instruction (the product is exact inside the FMA).  The square root is
 * the approximate one, a few ulp from the true root; an exact integer
 * distance (dx or dy zero, Pythagorean triples: common on grid instances
 * such as pla*) could then come out a hair above the integer and round one
 * too high.  So the scale carries a shrink of 2^-21 (CEIL_2D: 1 - 2^-21;
 * ATT: sqrt(1/10) (1 - 2^-21), rounded to float), which puts the product
 * about 2^-21 (relative) below the true distance, more than the
 * approximation's error: exact integers stay put, and a true root that
 * exceeds its integer k by at least 1/(2k+1) (every non-square under
 * integer coordinates) still rounds up while 2k^2 < 2^20, i.e. for
 * distances below about 700 (ATT: the distance in its own units, below
 * about 250).  Beyond that a distance may be one unit short, within README
 * "Precision"'s tolerance.  Against EUC_2D this costs nothing per distance:
 * the FFMA takes the place of the FADD.  (Before: the square shrunk by an
 * FMUL, then FADD.RP; one instruction more per distance.) */
#define CEIL_ROOT_SCALE 0.999999523162841796875f /* 1 - 2^-21, exact in float */
#define ATT_ROOT_SCALE 0.3162276148796081543f    /* sqrt(0.1) (1 - 2^-21) */

struct MetricEuc2D : RoundNearest {
    typedef float2 Pt;
    static __device__ __forceinline__ Pt point(const DevInst &I, int c)
    {
        return make_float2(I.xf[c], I.yf[c]);
    }
    static __device__ __forceinline__ float raw(Pt a, Pt b)
    {
        float dx = __fsub_rn(a.x, b.x), dy = __fsub_rn(a.y, b.y);
        return sqrt_approx(__fmaf_rn(dx, dx, __fmul_rn(dy, dy)));
    }
    static __device__ __forceinline__ float x(Pt a, Pt b) { return add(WT_MAGIC, raw(a, b)); }
};

struct MetricCeil2D {
    typedef float2 Pt;
    static __device__ __forceinline__ Pt point(const DevInst &I, int c)
    {
        return MetricEuc2D::point(I, c);
    }
    static __device__ __forceinline__ float raw(Pt a, Pt b) { return MetricEuc2D::raw(a, b); }
    static __device__ __forceinline__ float add(float magic, float raw)
    {
        return __fmaf_ru(raw, CEIL_ROOT_SCALE, magic);
    }
    static __device__ __forceinline__ float x(Pt a, Pt b) { return add(WT_MAGIC, raw(a, b)); }
};

/* TSPLIB's ATT rule (nint, then +1 when below) equals ceil(sqrt(d^2 / 10));
 * raw is the plain root d, and add() scales it by sqrt(1/10). */
struct MetricAtt {
    typedef float2 Pt;
    static __device__ __forceinline__ Pt point(const DevInst &I, int c)
    {
        return MetricEuc2D::point(I, c);
    }
    static __device__ __forceinline__ float raw(Pt a, Pt b) { return MetricEuc2D::raw(a, b); }
    static __device__ __forceinline__ float add(float magic, float raw)
    {
        return __fmaf_ru(raw, ATT_ROOT_SCALE, magic);
    }
    static __device__ __forceinline__ float x(Pt a, Pt b) { return add(WT_MAGIC, raw(a, b)); }
};

struct MetricMan2D : RoundNearest {
    typedef float2 Pt;
    static __device__ __forceinline__ Pt point(const DevInst &I, int c)
    {
        return MetricEuc2D::point(I, c);
    }
    static __device__ __forceinline__ float raw(Pt a, Pt b)
    {
        return __fadd_rn(fabsf(__fsub_rn(a.x, b.x)), fabsf(__fsub_rn(a.y, b.y)));
    }
    static __device__ __forceinline__ float x(Pt a, Pt b) { return magic_rint(raw(a, b)); }
};

/* max(nint|dx|, nint|dy|) = nint(max(|dx|, |dy|)): rounding is monotone. */
struct MetricMax2D : RoundNearest {
    typedef float2 Pt;
    static __device__ __forceinline__ Pt point(const DevInst &I, int c)
    {
        return MetricEuc2D::point(I, c);
    }
    static __device__ __forceinline__ float raw(Pt a, Pt b)
    {
        return fmaxf(fabsf(__fsub_rn(a.x, b.x)), fabsf(__fsub_rn(a.y, b.y)));
    }
    static __device__ __forceinline__ float x(Pt a, Pt b) { return magic_rint(raw(a, b)); }
};

struct MetricEuc3D : RoundNearest {
    typedef float4 Pt;
    static __device__ __forceinline__ Pt point(const DevInst &I, int c)
    {
        return make_float4(I.xf[c], I.yf[c], I.zf[c], 0.0f);
    }
    static __device__ __forceinline__ float raw(Pt a, Pt b)
    {
        float dx = __fsub_rn(a.x, b.x), dy = __fsub_rn(a.y, b.y), dz = __fsub_rn(a.z, b.z);
        return sqrtf(__fmaf_rn(dx, dx, __fmaf_rn(dy, dy, __fmul_rn(dz, dz))));
    }
    static __device__ __forceinline__ float x(Pt a, Pt b) { return magic_rint(raw(a, b)); }
};

/* TSPLIB's GEO distance is floor(RRR * theta + 1), theta the central angle
 * of the two points (its cos/acos formula is the spherical law of
 * cosines).  On the GPU a point is its unit vector, computed once per
 * point, and theta comes from the chord between the vectors:
 * theta = 2 asin(|a - b| / 2), or pi - 2 asin(|a + b| / 2) past a right
 * angle, where the first loses precision.  No cosine per distance (three
 * cosf and an acosf cost many EUC_2D distances: bench/RESULTS.md,
 * "Multistart: solution quality (bench quality)"), and the chord
 * keeps short distances accurate where acos of a cosine near 1 does not. */
struct MetricGeo : RoundNearest {
    typedef float4 Pt; /* unit vector (x, y, z), w unused */
    static __device__ __forceinline__ Pt point(const DevInst &I, int c)
    {
        float slat, clat, slon, clon;
        sincosf(I.xf[c], &slat, &clat); /* xf: latitude, yf: longitude (radians) */
        sincosf(I.yf[c], &slon, &clon);
        return make_float4(clat * clon, clat * slon, slat, 0.0f);
    }
    static __device__ __forceinline__ float x(Pt a, Pt b)
    {
        float dx = a.x - b.x, dy = a.y - b.y, dz = a.z - b.z;
        float sx = a.x + b.x, sy = a.y + b.y, sz = a.z + b.z;
        float d2 = dx * dx + dy * dy + dz * dz, s2 = sx * sx + sy * sy + sz * sz;
        float theta = d2 <= s2 ? 2.0f * asinf(0.5f * sqrtf(d2))
                               : 3.14159265358979f - 2.0f * asinf(0.5f * sqrtf(s2));
        return magic_floor(6378.388f * theta + 1.0f);
    }
    static __device__ __forceinline__ float raw(Pt a, Pt b) { return x(a, b) - WT_MAGIC; }
};

/* HAVERSINE: the instance's unit vectors come as x, y, z (no sincos here);
 * the central angle from the chord, or past a right angle from the chord to
 * the antipode, as the host's wt_dist_haversine.  Distances reach 2e7 m,
 * beyond float's integers (2^24): the float value is an approximation, as
 * for real-valued points, and the exact check of every applied move
 * (dev_exact_dist, the host's double formula) keeps the searches exact. */
struct MetricHaversine : RoundNearest {
    typedef float4 Pt;
    static __device__ __forceinline__ Pt point(const DevInst &I, int c)
    {
        return make_float4(I.xf[c], I.yf[c], I.zf[c], 0.0f);
    }
    static __device__ __forceinline__ float raw(Pt a, Pt b)
    {
        float dx = a.x - b.x, dy = a.y - b.y, dz = a.z - b.z;
        float d2 = dx * dx + dy * dy + dz * dz;
        float theta;
        if (d2 <= 2.0f) {
            theta = 2.0f * asinf(0.5f * sqrtf(d2));
        } else {
            float sx = a.x + b.x, sy = a.y + b.y, sz = a.z + b.z;
            theta = 3.14159265358979f - 2.0f * asinf(0.5f * sqrtf(sx * sx + sy * sy + sz * sz));
        }
        return 6371008.8f * theta;
    }
    static __device__ __forceinline__ float x(Pt a, Pt b) { return magic_rint(raw(a, b)); }
};

/* EXPLICIT: the point is the city itself; distances come from the matrix.
 * Pt is a struct so the kernels can treat every metric alike. */
struct MetricExplicit {
    struct Pt {
        int city;
        const int32_t *row; /* matrix row of city */
        int n;
    };
    static __device__ __forceinline__ Pt point(const DevInst &I, int c)
    {
        Pt p = {c, I.matrix + (size_t)c * (size_t)I.n, I.n};
        return p;
    }
    static __device__ __forceinline__ float raw(Pt a, Pt b) { return (float)a.row[b.city]; }
    static __device__ __forceinline__ float x(Pt a, Pt b) { return raw(a, b) + WT_MAGIC; }
    static __device__ __forceinline__ float add(float magic, float raw)
    {
        return __fadd_rn(magic, raw);
    }
};

/* Exact distance of a planar type from the differences dx, dy, bit for
 * bit the host's wt_dist_planar; nondecreasing in |dx| and |dy|, so that
 * gaps give a lower bound of every distance across them. */
__device__ __forceinline__ int64_t dev_planar_dist(wt_edge_weight_type type, double dx, double dy)
{
    double s;
    switch (type) {
    case WT_EUC_2D:
    case WT_CEIL_2D:
    case WT_ATT:
        s = __dadd_rn(__dmul_rn(dx, dx), __dmul_rn(dy, dy));
        if (type == WT_EUC_2D) return (int64_t)__dadd_rn(sqrt(s), 0.5);
        if (type == WT_CEIL_2D) return (int64_t)ceil(sqrt(s));
        {
            double r = sqrt(__ddiv_rn(s, 10.0));
            int64_t t = (int64_t)__dadd_rn(r, 0.5);
            return (double)t < r ? t + 1 : t;
        }
    case WT_MAN_2D: return (int64_t)__dadd_rn(__dadd_rn(fabs(dx), fabs(dy)), 0.5);
    case WT_MAX_2D: {
        int64_t ddx = (int64_t)__dadd_rn(fabs(dx), 0.5);
        int64_t ddy = (int64_t)__dadd_rn(fabs(dy), 0.5);
        return ddx > ddy ? ddx : ddy;
    }
    default: return 0;
    }
}

/* Exact TSPLIB distance, bit-for-bit the host's wt_dist except GEO and
 * HAVERSINE, whose cos/acos and asin may differ from the host's libm in
 * the last bit. */
__device__ __forceinline__ int64_t dev_exact_dist(const DevInst &I, int a, int b)
{
    double dx, dy, dz, s;
    switch (I.type) {
    case WT_EUC_2D:
    case WT_CEIL_2D:
    case WT_ATT:
    case WT_MAN_2D:
    case WT_MAX_2D:
        return dev_planar_dist(I.type, __dsub_rn(I.xd[a], I.xd[b]), __dsub_rn(I.yd[a], I.yd[b]));
    case WT_EUC_3D:
        dx = __dsub_rn(I.xd[a], I.xd[b]);
        dy = __dsub_rn(I.yd[a], I.yd[b]);
        dz = __dsub_rn(I.zd[a], I.zd[b]);
        s = __dadd_rn(__dadd_rn(__dmul_rn(dx, dx), __dmul_rn(dy, dy)), __dmul_rn(dz, dz));
        return (int64_t)__dadd_rn(sqrt(s), 0.5);
    case WT_GEO: {
        double q1 = cos(__dsub_rn(I.yd[a], I.yd[b]));
        double q2 = cos(__dsub_rn(I.xd[a], I.xd[b]));
        double q3 = cos(__dadd_rn(I.xd[a], I.xd[b]));
        double c = 0.5 * ((1.0 + q1) * q2 - (1.0 - q1) * q3);
        c = fmin(1.0, fmax(-1.0, c));
        return (int64_t)(6378.388 * acos(c) + 1.0);
    }
    case WT_EXPLICIT:
        return I.matrix[(size_t)a * (size_t)I.n + (size_t)b];
    case WT_HAVERSINE: {
        dx = __dsub_rn(I.xd[a], I.xd[b]);
        dy = __dsub_rn(I.yd[a], I.yd[b]);
        dz = __dsub_rn(I.zd[a], I.zd[b]);
        s = __dadd_rn(__dadd_rn(__dmul_rn(dx, dx), __dmul_rn(dy, dy)), __dmul_rn(dz, dz));
        double theta;
        if (s <= 2.0) {
            theta = 2.0 * asin(0.5 * sqrt(s));
        } else {
            dx = __dadd_rn(I.xd[a], I.xd[b]);
            dy = __dadd_rn(I.yd[a], I.yd[b]);
            dz = __dadd_rn(I.zd[a], I.zd[b]);
            s = __dadd_rn(__dadd_rn(__dmul_rn(dx, dx), __dmul_rn(dy, dy)), __dmul_rn(dz, dz));
            theta = 3.14159265358979323846 - 2.0 * asin(0.5 * sqrt(s));
        }
        return (int64_t)__dadd_rn(__dmul_rn(WT_EARTH_RADIUS_M, theta), 0.5);
    }
    case WT_EUC_2D_REAL: /* kept as EUC_2D / EUC_3D: never an instance's type */
    case WT_EUC_3D_REAL:
        break;
    }
    return 0;
}

/* Exact change of tour length of the 2-opt move that replaces edges (a, b)
 * and (c, d) by (a, c) and (b, d). */
__device__ __forceinline__ int64_t dev_exact_2opt_delta(const DevInst &I, int a, int b, int c,
                                                        int d)
{
    return dev_exact_dist(I, a, c) + dev_exact_dist(I, b, d) - dev_exact_dist(I, a, b) -
           dev_exact_dist(I, c, d);
}

/* The same, by a whole warp with the same a, b, c, d in every lane: lanes
 * 0-3 take one distance each, so the warp waits for one exact distance
 * rather than four in a row.  Every lane gets the delta. */
__device__ __forceinline__ int64_t dev_exact_2opt_delta_warp(const DevInst &I, int a, int b, int c,
                                                             int d)
{
    const int lane = threadIdx.x & 31;
    long long term = 0;
    if (lane < 4) {
        int u = lane == 0 ? a : lane == 1 ? b : lane == 2 ? a : c;
        int v = lane == 0 ? c : lane == 1 ? d : lane == 2 ? b : d;
        term = dev_exact_dist(I, u, v);
        if (lane >= 2) term = -term;
    }
    term += __shfl_xor_sync(0xFFFFFFFFu, term, 1);
    term += __shfl_xor_sync(0xFFFFFFFFu, term, 2);
    return term;
}

#endif
