/*
 * mpi_agree.c - the ranks' agreement on a collective call's outcome
 * (mpi_agree.h).
 */
#include "mpi/mpi_agree.h"

#include <stdio.h>
#include <string.h>

#include "core/error.h"

wt_status wt_mpi_fail(wt_error *err, int rc, const char *call)
{
    char text[MPI_MAX_ERROR_STRING] = "";
    int len = 0;
    if (MPI_Error_string(rc, text, &len) != MPI_SUCCESS) snprintf(text, sizeof text, "code %d", rc);
    return wt_fail(err, WT_STATUS_IO, "%s failed: %s", call, text);
}

wt_status wt_mpi_agree(MPI_Comm comm, wt_status st, wt_error *err)
{
    int rank = 0, size = 1;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    int mine = st != WT_OK ? rank : size, first = size;
    int rc = MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, comm);
    if (rc != MPI_SUCCESS) return wt_mpi_fail(err, rc, "MPI_Allreduce");
    if (first == size) return WT_OK;
    /* The failing rank's status and message, as it wrote them. */
    struct {
        int status;
        char message[sizeof err->message];
    } what = {(int)st, ""};
    if (rank == first && err) snprintf(what.message, sizeof what.message, "%s", err->message);
    rc = MPI_Bcast(&what, (int)sizeof what, MPI_BYTE, first, comm);
    if (rc != MPI_SUCCESS) return wt_mpi_fail(err, rc, "MPI_Bcast");
    /* A failure agreed on before (every rank then calls again with it) is
     * already "rank R of P: ...", R the rank that failed first. */
    int named_rank, named_size, named = 0;
    if (size == 1 || (sscanf(what.message, "rank %d of %d: %n", &named_rank, &named_size,
                             &named) == 2 && named > 0 && named_size == size))
        return wt_fail(err, (wt_status)what.status, "%s", what.message);
    return wt_fail(err, (wt_status)what.status, "rank %d of %d: %s", first, size, what.message);
}
