/*
 * mpi_agree.h - how the ranks of a collective call agree on its outcome.
 *
 * Each rank reaches a meeting point with its own status; all must leave it
 * with the same one, or one rank would wait forever in the next collective
 * call for a rank that has given up.  The lowest failing rank's status and
 * message win; the message is prefixed "rank R of P: ".
 */
#ifndef WT_MPI_AGREE_H
#define WT_MPI_AGREE_H

#include <mpi.h>

#include "warptour.h"

/* Collective over comm: WT_OK when every rank passed WT_OK, else the lowest
 * failing rank's status, its message (from err there) copied into err on
 * every rank as "rank R of P: message" (err may be NULL); a message that
 * already names its rank so (a failure agreed on before, passed again) is
 * copied as it is. */
wt_status wt_mpi_agree(MPI_Comm comm, wt_status st, wt_error *err);

/* The MPI call's failure rc as a wt_status with a message naming call. */
wt_status wt_mpi_fail(wt_error *err, int rc, const char *call);

#endif
