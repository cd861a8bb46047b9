/*
 * polish.c - the polish of SA's tour (polish.h): the local-search layer's
 * polish with the policy's defaults.
 */
#include "algo/polish.h"

#include "algo/policy.h"

wt_status wt_polish(const wt_instance *inst, int32_t *tour, wt_search_ctl *ctl,
                    wt_polish_stats *stats, wt_error *err)
{
    return wt_ls_polish(inst, tour, WT_POLISH_NEIGHBOURS, WT_POLISH_FULL_MAX, ctl, stats, err);
}
