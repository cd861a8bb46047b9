/*
 * cpu_backend.c - the CPU backend: OpenMP implementations of the searches.
 *
 * Always built, always available, and the reference implementation of
 * every slot of backend.h that any backend fills, which the CUDA backend
 * is tested against.  Its one device is the host (`cpu`).
 */
#include <omp.h>
#include <stdio.h>

#include "backend/backend.h"
#include "backend/cpu/cpu_ascent.h"
#include "backend/cpu/cpu_batch.h"
#include "backend/cpu/cpu_multistart.h"
#include "backend/cpu/cpu_sa.h"
#include "backend/cpu/cpu_session.h"

static bool cpu_available(const wt_device *dev, char *desc, size_t size)
{
    (void)dev;
    snprintf(desc, size, "%d cores", omp_get_num_procs());
    return true;
}

/* The host's searches ignore the device: there is one. */
static wt_status cpu_multistart(const wt_device *dev, const wt_instance *inst,
                                const wt_multistart_job *job, wt_search_ctl *ctl,
                                int32_t *best_tour, wt_search_stats *stats, wt_error *err)
{
    (void)dev;
    return wt_cpu_multistart(inst, job, ctl, best_tour, stats, err);
}

static wt_status cpu_sa(const wt_device *dev, const wt_instance *inst, wt_sa_job *job,
                        wt_search_ctl *ctl, int32_t *tour, wt_search_stats *stats, wt_error *err)
{
    (void)dev;
    return wt_cpu_sa(inst, job, ctl, tour, stats, err);
}

static wt_status cpu_batch(const wt_device *dev, const wt_batch_job *job, wt_search_ctl *ctl,
                           wt_error *err)
{
    (void)dev;
    return wt_cpu_batch_run(job, false, ctl, err);
}

static wt_status cpu_windows(const wt_device *dev, const wt_batch_job *job, wt_search_ctl *ctl,
                             wt_error *err)
{
    (void)dev;
    return wt_cpu_batch_run(job, true, ctl, err);
}

static wt_status cpu_ascent(const wt_device *dev, const wt_instance *inst, wt_ascent_job *job,
                            wt_search_ctl *ctl, wt_error *err)
{
    (void)dev;
    return wt_cpu_ascent(inst, job, ctl, err);
}

const wt_backend wt_backend_cpu = {
    .name = "cpu",
    .kind = WT_BACKEND_CPU,
    .host = true,
    .available = cpu_available,
    .multistart = cpu_multistart,
    .session = &wt_cpu_session_ops,
    .sa = cpu_sa,
    .sa_near = true,
    .batch = cpu_batch,
    .batch_place = NULL, /* every instance fits the host */
    .windows = cpu_windows,
    .ascent = cpu_ascent,
};
