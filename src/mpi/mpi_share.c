/*
 * mpi_share.c - ranks that share one machine split its cores and GPUs
 * (mpi_share.h).
 */
#include <unistd.h>

#include "algo/devices.h"
#include "mpi/mpi_share.h"
#include "warptour.h"

wt_mpi_place wt_mpi_place_of(MPI_Comm comm)
{
    wt_mpi_place p = {0, 1};
    MPI_Comm local;
    if (MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &local) !=
        MPI_SUCCESS)
        return p;
    int rank = 0, size = 1;
    if (MPI_Comm_rank(local, &rank) == MPI_SUCCESS && MPI_Comm_size(local, &size) == MPI_SUCCESS &&
        size >= 1 && rank >= 0 && rank < size)
        p = (wt_mpi_place){rank, size};
    MPI_Comm_free(&local);
    return p;
}

/* threads asked (0: all cores) on a machine of cores cores. */
static int share_threads(int threads, wt_mpi_place place, long cores)
{
    if (threads > 0 || place.here <= 1) return threads;
    long each = cores / place.here;
    if (each > WT_MAX_THREADS) each = WT_MAX_THREADS;
    return each >= 1 ? (int)each : 1;
}

/* cuda_device without a device list, on a machine of gpus GPUs. */
static int share_device(int cuda_device, wt_mpi_place place, int gpus)
{
    if (gpus < 2 || cuda_device < 0) return cuda_device;
    return (int)(((long)cuda_device + place.local) % gpus);
}

void wt_mpi_share_apply(wt_mpi_place place, int *threads, int *cuda_device, int device_count)
{
    if (place.here <= 1) return;
    *threads = share_threads(*threads, place, sysconf(_SC_NPROCESSORS_ONLN));
    if (device_count == 0)
        *cuda_device = share_device(*cuda_device, place, wt_devices_cuda_count());
}
