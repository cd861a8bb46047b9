/*
 * cpu_backend.c - the CPU backend: OpenMP implementations of the searches.
 *
 * Always built, always available, and the reference the CUDA backend is
 * tested against.
 */
#include <omp.h>
#include <stdio.h>

#include "backend/backend.h"
#include "backend/cpu/cpu_2opt.h"
#include "backend/cpu/cpu_multistart.h"
#include "backend/cpu/cpu_sa.h"
#include "backend/cpu/cpu_session.h"

/* Backend slot: descend to a local optimum, through a tour session. */
static wt_status cpu_twoopt_descend(const wt_instance *inst, int32_t *tour, wt_search_ctl *ctl,
                                    wt_search_stats *stats, wt_error *err)
{
    if (wt_ctl_expired(ctl)) return WT_OK; /* stopped already: not even the set-up */
    const wt_session_ops *ops = &wt_cpu_session_ops;
    wt_tour_session *s = NULL;
    wt_status st = ops->open(inst, tour, ctl, &s, err);
    if (st != WT_OK) return st;
    st = ops->descend(s, ctl->params->swaps, stats, err);
    ops->keep(s);
    if (st == WT_OK) st = ops->read_best(s, tour, err);
    ops->close(s);
    return st;
}

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
    .twoopt_descend = cpu_twoopt_descend,
    .multistart = wt_cpu_multistart,
    .session = &wt_cpu_session_ops,
    .sa = wt_cpu_sa,
    .sa_near = true,
};
