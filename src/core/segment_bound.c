/*
 * segment_bound.c - boxes of tour segments and the least distance between
 * two boxes (segment_bound.h says why a pass may skip them).
 */
#include "core/segment_bound.h"

#include <math.h>

bool wt_segment_bound_supported(const wt_instance *inst)
{
    switch (inst->type) {
    case WT_EUC_2D:
    case WT_CEIL_2D:
    case WT_ATT:
    case WT_MAN_2D:
    case WT_MAX_2D: return inst->x && inst->y;
    default: return false;
    }
}

void wt_segment_boxes(const wt_instance *inst, const int32_t *tour, int len,
                      wt_segment_box *box)
{
    int n = inst->n;
    for (int s = 0; s * len < n; s++) {
        int first = s * len, last = first + len < n ? first + len : n; /* points first..last */
        wt_segment_box b = {INFINITY, INFINITY, -INFINITY, -INFINITY, 0};
        for (int k = first; k <= last; k++) {
            int c = tour[k < n ? k : 0];
            b.x0 = fmin(b.x0, inst->x[c]);
            b.x1 = fmax(b.x1, inst->x[c]);
            b.y0 = fmin(b.y0, inst->y[c]);
            b.y1 = fmax(b.y1, inst->y[c]);
            if (k < last) {
                int64_t e = wt_dist(inst, c, tour[k + 1 < n ? k + 1 : 0]);
                if (e > b.longest) b.longest = e;
            }
        }
        box[s] = b;
    }
}

/* Slack for the last bits of the double arithmetic in wt_dist: a bound
 * that is a hair too high could skip an improving move. */
#define GAP_SHRINK (1.0 - 1e-9)

double wt_segment_gap_bound(const wt_instance *inst, const wt_segment_box *a,
                            const wt_segment_box *b)
{
    double gx = fmax(0.0, fmax(b->x0 - a->x1, a->x0 - b->x1));
    double gy = fmax(0.0, fmax(b->y0 - a->y1, a->y0 - b->y1));
    double l;
    switch (inst->type) {
    case WT_EUC_2D: l = sqrt(gx * gx + gy * gy) * GAP_SHRINK - 0.5; break; /* nint */
    case WT_CEIL_2D: l = sqrt(gx * gx + gy * gy) * GAP_SHRINK; break;
    case WT_ATT: l = sqrt((gx * gx + gy * gy) / 10.0) * GAP_SHRINK; break; /* rounds up */
    case WT_MAN_2D: l = (gx + gy) * GAP_SHRINK - 0.5; break;
    case WT_MAX_2D: l = fmax(gx, gy) * GAP_SHRINK - 0.5; break;
    default: return 0.0;
    }
    return l > 0.0 ? l : 0.0;
}
