/*
 * instance_subset.h - the instance of some of an instance's cities: a
 * window of a large tour (algo/windows.c) or a rank's path of it
 * (mpi/mpi_parts.c), searched as an instance of its own.
 */
#ifndef WT_CORE_INSTANCE_SUBSET_H
#define WT_CORE_INSTANCE_SUBSET_H

#include <stdint.h>

#include "core/instance.h"

/* The instance named name of the m cities cities[0..m) of inst (m >= 1),
 * its city i being cities[i]: the same coordinates (or matrix entries, m^2
 * of them), so the same exact distances, and no fixed edges, no known
 * optimum.  NULL when out of memory; free with wt_instance_free. */
wt_instance *wt_instance_subset(const wt_instance *inst, const char *name,
                                const int32_t *cities, int m);

#endif
