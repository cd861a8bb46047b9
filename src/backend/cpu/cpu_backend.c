/*
 * cpu_backend.c - the CPU backend: OpenMP implementations of the searches.
 *
 * Always built, always available, and the reference the CUDA backend is
 * tested against.
 */
#include <omp.h>
#include <stdio.h>

#include "backend/backend.h"
#include "backend/cpu/cpu_multistart.h"
#include "backend/cpu/cpu_sa.h"
#include "backend/cpu/cpu_session.h"

static bool cpu_available(int device, char *desc, size_t size)
{
    (void)device;
    snprintf(desc, size, "%d cores", omp_get_num_procs());
    return true;
}

const wt_backend wt_backend_cpu = {
    .name = "cpu",
    .kind = WT_BACKEND_CPU,
    .host = true,
    .available = cpu_available,
    .multistart = wt_cpu_multistart,
    .session = &wt_cpu_session_ops,
    .sa = wt_cpu_sa,
    .sa_near = true,
};
