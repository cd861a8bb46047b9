/*
 * mpi_share.h - ranks that share one machine split its cores and GPUs
 * (warptour_mpi.h, "One machine, several ranks").
 *
 * mpirun starts one process a GPU (or several a machine) with the same
 * arguments, so every rank would otherwise take every core and the same
 * GPU.  Each entry point therefore gives its rank a share of the machine
 * before it searches: of the S ranks of the communicator that run on this
 * machine, the one of local index L takes cores / S threads where the
 * caller asked for all cores, and GPU (cuda_device + L) mod G where the
 * caller named no device list, G the machine's GPUs.  An explicit thread
 * count or device list is kept as given.
 */
#ifndef WT_MPI_SHARE_H
#define WT_MPI_SHARE_H

#include <mpi.h>

/* A rank's place on its machine: local of here ranks (0 of 1 alone). */
typedef struct wt_mpi_place {
    int local, here;
} wt_mpi_place;

/* This rank's place among comm's ranks on its machine (MPI's shared-memory
 * split); 0 of 1 where MPI cannot say.  Collective over comm. */
wt_mpi_place wt_mpi_place_of(MPI_Comm comm);

/* The share of this machine (place) applied to one rank's fields: threads
 * (0: all cores) becomes cores / here, at least 1; where device_count is 0,
 * cuda_device becomes (cuda_device + local) mod the machine's GPUs (kept
 * with fewer than two).  Nothing changes for a rank alone on its machine. */
void wt_mpi_share_apply(wt_mpi_place place, int *threads, int *cuda_device, int device_count);

#endif
