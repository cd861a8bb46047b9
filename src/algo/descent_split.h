/*
 * descent_split.h - the device's first 2-opt descent of a large tour split
 * over several GPUs.
 *
 * At millions of cities the first descent makes most of the tour, and one
 * GPU runs it alone.  With several, the plane is cut into one region a GPU
 * (recursive bisection at the median of the wider side, so that the
 * regions' cities number alike); each region's cities, in the order the
 * start tour visits them, make a tour of their own (the start tour with the
 * other regions' stretches cut out), which its GPU descends as an instance
 * of its own, all regions at once; the regions' tours are then joined into
 * one, each joined to the regions before it by the exchange of one edge of
 * each that costs least, and the whole tour descended on the first GPU to
 * mend the seams.  The result is a 2-opt tour of the whole, as the plain
 * descent's, found in about its time over the number of GPUs.
 */
#ifndef WT_ALGO_DESCENT_SPLIT_H
#define WT_ALGO_DESCENT_SPLIT_H

#include "algo/devices.h"

/* Whether the first descent of inst splits where there are several GPUs: at
 * least WT_DESCENT_SPLIT_CITIES cities, points of the plane (the regions are
 * cut by x and y) and no fixed edges (fixed, as ctl->fixed: a region's tour
 * would break them). */
bool wt_descent_split_wanted(const wt_instance *inst, const int32_t *fixed);

/* The first descent of tour, in place, on device dev (a device backend's,
 * with sessions) and the other usable GPUs of ctl->params's device list:
 * split as above where there are several and wt_descent_split_wanted, else
 * wt_twoopt_descend on dev alone.
 * ctl's stall rule (wt_search_ctl) applies to each region's descent and to
 * the seams' apart.  The tour is valid on return and never longer than it
 * came, stopped or not. */
wt_status wt_descent_first(const wt_device *dev, const wt_instance *inst, int32_t *tour,
                           wt_search_ctl *ctl, wt_search_stats *stats, wt_error *err);

/* The host's ILS's first optimum on device dev, fixed edges aside
 * (ctl->fixed is not passed on): wt_descent_first, which on large tours
 * hands over early once passes in a row gain little
 * (wt_policy_device_stall_passes, WT_DEVICE_STALL_GAIN): the last passes
 * gain little for their time, and what is left the host's segments find
 * on every thread (bench/RESULTS.md, "Why the GPU's first descent hands
 * over on a stall").  ctl's stop and next report are the descent's after
 * it. */
wt_status wt_descent_first_handover(const wt_device *dev, const wt_instance *inst,
                                    int32_t *tour, wt_search_ctl *ctl, wt_search_stats *stats,
                                    wt_error *err);

/* The split descent on the devices of set (count >= 1: one region each),
 * whatever the instance's size (the tests' entry; inst as
 * wt_descent_split_wanted asks).  set->at[0] descends the whole for the
 * seams. */
wt_status wt_descent_split(const wt_device_set *set, const wt_instance *inst, int32_t *tour,
                           wt_search_ctl *ctl, wt_search_stats *stats, wt_error *err);

/* Where regions are cut: the axis (0: x, 1: y) and the coordinate; cities
 * on it lie on either side. */
typedef struct wt_descent_cut {
    int axis;
    double at;
} wt_descent_cut;

/* The regions of the split: cities[0..m) reordered in place so that region
 * r is cities[starts[r] .. starts[r + 1]) (starts: parts + 1 entries,
 * starts[0] = 0, starts[parts] = m), each region in the order the cities
 * came (their start tour's), regions of m / parts cities give or take one,
 * every region's cities on one side of each cut that separates it from
 * another.  The cuts are a bisection: cuts[r] (cuts: parts entries, 1 .. parts
 * - 1 written) separates regions [r0, r) from [r, r1) for the part [r0, r1)
 * that was cut at r (r0 + (r1 - r0) / 2 = r).  keys: m doubles of scratch;
 * scratch: m cities of it; threads >= 1.  parts 1 .. m. */
void wt_descent_split_regions(const wt_instance *inst, int32_t *cities, int m, int parts,
                              int threads, int *starts, wt_descent_cut *cuts, double *keys,
                              int32_t *scratch);

#endif
