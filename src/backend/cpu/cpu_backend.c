/*
 * cpu_backend.c - the CPU backend: OpenMP implementations of the searches.
 *
 * Always built, always available, and the reference the CUDA backend is
 * tested against.
 */
#include <stdio.h>
#include <stdlib.h>

#include "backend/backend.h"
#include "backend/cpu/cpu_2opt.h"
#include "backend/cpu/cpu_multistart.h"
#include "core/error.h"

/* Backend slot: descend to a local optimum.  Each pass takes the best move
 * of every row and applies up to ctl->params->swaps of them that are
 * independent (k-swap, algo/kswap.h); swaps = 1 is plain best improvement,
 * the same move Listing 1 picks. */
static wt_status cpu_twoopt_descend(const wt_instance *inst, int32_t *tour, wt_search_ctl *ctl,
                                    wt_search_stats *stats, wt_error *err)
{
    int n = inst->n;
    wt_kswap_move *moves = malloc((size_t)n * sizeof *moves);
    wt_kswap_move *scratch = malloc((size_t)n * sizeof *scratch);
    wt_status st = WT_OK;
    if (!moves || !scratch) st = wt_fail(err, WT_STATUS_OUT_OF_MEMORY, "2opt: out of memory");
    int64_t length = wt_tour_length(inst, tour);
    while (st == WT_OK && !wt_ctl_report(ctl, length, stats->steps, false)) {
        int found = wt_2opt_row_bests(inst, tour, ctl->threads, ctl, moves);
        if (found == -2) st = wt_fail(err, WT_STATUS_OUT_OF_MEMORY, "2opt: out of memory");
        if (found < 0) break;
        stats->moves_evaluated += wt_2opt_moves_per_scan(n);
        int kept = wt_kswap_select(moves, found, ctl->params->swaps, scratch);
        if (kept == 0) break;
        length += wt_kswap_apply(tour, moves, kept);
        stats->steps += (uint64_t)kept;
    }
    free(moves);
    free(scratch);
    return st;
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
