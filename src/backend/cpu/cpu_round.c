/*
 * cpu_round.c - the range check of cpu_round.h.
 */
#include "backend/cpu/cpu_round.h"

bool cpu_coords_small(const wt_instance *inst)
{
    double lo[3], hi[3];
    if (!wt_instance_bbox(inst, lo, hi)) return false;
    double sum = 0.0;
    for (int k = 0; k < 3; k++) sum += hi[k] - lo[k];
    return sum + 2.0 < CPU_EXACT_LIMIT;
}
