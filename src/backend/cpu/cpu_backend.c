/*
 * cpu_backend.c - the CPU backend: OpenMP implementations of the searches.
 *
 * Always built, always available, and the reference the CUDA backend is
 * tested against.
 */
#include <stdio.h>

#include "backend/backend.h"
#include "backend/cpu/cpu_2opt.h"
#include "backend/cpu/cpu_multistart.h"

/* Backend slot: climb to a local optimum, one best move per scan. */
static wt_status cpu_twoopt_descend(const wt_instance *inst, int32_t *tour, wt_search_ctl *ctl,
                                    wt_search_stats *stats, wt_error *err)
{
    (void)err;
    int64_t length = wt_tour_length(inst, tour);
    while (!wt_ctl_report(ctl, length, stats->steps, false)) {
        wt_2opt_move m;
        if (!wt_2opt_best_move(inst, tour, ctl->threads, ctl, &m)) break;
        stats->moves_evaluated += wt_2opt_moves_per_scan(inst->n);
        if (m.delta >= 0) break;
        wt_2opt_apply(tour, m.i, m.j);
        length += m.delta;
        stats->steps++;
    }
    return WT_OK;
}

static bool cpu_available(char *device, size_t size)
{
    snprintf(device, size, "CPU");
    return true;
}

const wt_backend wt_backend_cpu = {
    .name = "cpu",
    .available = cpu_available,
    .twoopt_descend = cpu_twoopt_descend,
    .multistart = wt_cpu_multistart,
};
