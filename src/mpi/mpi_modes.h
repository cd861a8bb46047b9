/*
 * mpi_modes.h - the two ways wt_mpi_solve's ranks share one instance
 * (warptour_mpi.h): islands (mpi_islands.c) and parts (mpi_parts.c).
 *
 * wt_mpi_solve (mpi_solve.c) checks what both need and picks the mode;
 * each mode is then called on every rank with the same arguments, and
 * returns as wt_mpi_solve documents.
 */
#ifndef WT_MPI_MODES_H
#define WT_MPI_MODES_H

#include <stdbool.h>
#include <stddef.h>

#include "warptour_mpi.h"

/* The modes' runs: comm, inst, params, res not NULL, mp not NULL and
 * checked (epoch_s, root), params checked as both modes need (ILS, a
 * symmetric instance, no open path). */
wt_status wt_mpi_islands(MPI_Comm comm, const wt_instance *inst, const wt_params *params,
                         const wt_mpi_params *mp, wt_result *res, wt_error *err);
wt_status wt_mpi_parts(MPI_Comm comm, const wt_instance *inst, const wt_params *params,
                       const wt_mpi_params *mp, wt_result *res, wt_error *err);

/* Whether the parts' searches can run with params on inst; if not, why
 * (a phrase, into why). */
bool wt_mpi_parts_can_run(const wt_instance *inst, const wt_params *params, char *why,
                          size_t why_size);

/* The tuning of an epoch's searches: the caller's (NULL: the library's),
 * without the Held-Karp ascent that LK searches run by default (lk_alpha
 * 0 becomes WT_TUNING_OFF, and with it the default step the flip chain,
 * src/algo/policy.h): the run's result has no
 * bound (a path's bound is not the tour's, and an epoch's is no more than
 * one search's), and every epoch would run it again, for seconds at a
 * hundred thousand cities. */
void wt_mpi_no_bound(const wt_tuning *given, wt_tuning *out);

/* "P ranks, MODE: " and device (cut to fit) into out, of out_size bytes. */
void wt_mpi_device_name(char *out, size_t out_size, int ranks, wt_mpi_mode mode,
                        const char *device);

#endif
