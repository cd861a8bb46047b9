/*
 * cpu_round.h - TSPLIB's roundings in plain double arithmetic, for the CPU
 * loops that must vectorize (the climbers' distance rows, the 2-opt scan's
 * columns).
 *
 * A call to floor(), ceil() or lrint(), or a conversion to an integer type,
 * keeps gcc from vectorizing a loop on the baseline x86-64 target; these
 * give the same integers, as doubles, by additions and a select.  They hold
 * for 0 <= v < 2^51, and every distance below CPU_EXACT_LIMIT keeps its sums
 * of a few distances exact in a double.  The build never uses -ffast-math,
 * which would fold the additions away.
 */
#ifndef WT_BACKEND_CPU_ROUND_H
#define WT_BACKEND_CPU_ROUND_H

#include <stdbool.h>

#include "core/instance.h"

/* Above this a distance, or a move's sum of them, might not be exact in a
 * double. */
#define CPU_EXACT_LIMIT 0x1p50

/* Adding 1.5 * 2^52 leaves no bits below the unit, so for 0 <= v < 2^51
 * this is rint(v) (ties to even). */
static inline double cpu_rint(double v)
{
    const double magic = 0x1.8p52;
    return (v + magic) - magic;
}

/* floor and ceil from rint.  Both candidates are computed before the
 * comparison (which reads t1 + 1.0, exactly t) so that the choice is a plain
 * select: with "t > v ? t - 1.0 : t" gcc moves the subtraction into a branch
 * and, FP arithmetic being able to trap by default, will not vectorize. */
static inline double cpu_floor(double v)
{
    double t = cpu_rint(v), t1 = t - 1.0;
    return v < t1 + 1.0 ? t1 : t;
}

static inline double cpu_ceil(double v)
{
    double t = cpu_rint(v), t1 = t + 1.0;
    return v > t1 - 1.0 ? t1 : t;
}

/* TSPLIB's nint, (int)(v + 0.5), for v >= 0. */
static inline double cpu_nint(double v) { return cpu_floor(v + 0.5); }

/* Whether every distance of inst stays below CPU_EXACT_LIMIT (the L1 extent
 * of the bounding box bounds every coordinate metric). */
bool cpu_coords_small(const wt_instance *inst);

#endif
