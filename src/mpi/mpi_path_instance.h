/*
 * mpi_path_instance.h - the instance of one path of a large tour, which a
 * rank of the parts mode (mpi_parts.c) searches as an instance of its own.
 */
#ifndef WT_MPI_PATH_INSTANCE_H
#define WT_MPI_PATH_INSTANCE_H

#include <stdint.h>

#include "warptour.h"

/* The instance of the m cities cities[0..m) of inst (m >= 1), city i of it
 * being cities[i]: the same coordinates (or matrix entries, m^2 of them),
 * so the same exact distances, and no fixed edges, no known optimum.  NULL
 * when out of memory; free with wt_instance_free. */
wt_instance *wt_mpi_path_instance(const wt_instance *inst, const int32_t *cities, int m);

#endif
