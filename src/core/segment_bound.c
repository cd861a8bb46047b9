/*
 * segment_bound.c - boxes of tour segments and the least distance between
 * two boxes (segment_bound.h says why a pass may skip them).
 */
#include "core/segment_bound.h"

#include <math.h>
#include <stdlib.h>

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

/* The gap between intervals [a0, a1] and [b0, b1], 0 if they overlap.
 * Plain comparisons, not fmax: coordinates are finite, and fmax is a
 * library call without -ffast-math, in a test made millions of times a
 * pass. */
static inline double gap_1d(double a0, double a1, double b0, double b1)
{
    double g = b0 - a1 > a0 - b1 ? b0 - a1 : a0 - b1;
    return g > 0.0 ? g : 0.0;
}

double wt_segment_gap_bound(const wt_instance *inst, const wt_segment_box *a,
                            const wt_segment_box *b)
{
    double gx = gap_1d(a->x0, a->x1, b->x0, b->x1);
    double gy = gap_1d(a->y0, a->y1, b->y0, b->y1);
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

/* ------------------------------------------------------------ the index */

/* A segment's place along the axis of the index. */
typedef struct axis_entry {
    double lo;
    int seg;
} axis_entry;

struct wt_segment_index {
    const wt_instance *inst;
    const wt_segment_box *box;
    int segs;
    bool along_y;             /* the axis: y when the instance is taller than wide */
    axis_entry *order;        /* the ordinary segments by lo */
    int ordinary;             /* entries of order */
    double widest;            /* largest hi - lo of an ordinary segment */
    int64_t longest_ordinary; /* no ordinary segment has a longer edge */
    int *wide;                /* the other segments, ascending */
    int wides;
    double per_gap;           /* every metric's bound L >= gap along the axis * per_gap - 0.5 */
};

static double box_lo(const wt_segment_index *ix, int s)
{
    return ix->along_y ? ix->box[s].y0 : ix->box[s].x0;
}

static double box_hi(const wt_segment_index *ix, int s)
{
    return ix->along_y ? ix->box[s].y1 : ix->box[s].x1;
}

static int cmp_entry(const void *a, const void *b)
{
    const axis_entry *x = a, *y = b;
    return (x->lo > y->lo) - (x->lo < y->lo);
}

static int cmp_int64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* The longest edge that still counts as ordinary: all but about 1/128 of
 * the segments have none longer. */
static bool ordinary_limit(const wt_segment_box *box, int segs, int64_t *limit)
{
    int64_t *e = malloc((size_t)segs * sizeof *e);
    if (!e) return false;
    for (int s = 0; s < segs; s++) e[s] = box[s].longest;
    qsort(e, (size_t)segs, sizeof *e, cmp_int64);
    *limit = e[segs - 1 - segs / 128];
    free(e);
    return true;
}

wt_segment_index *wt_segment_index_build(const wt_instance *inst, const wt_segment_box *box,
                                         int segs)
{
    wt_segment_index *ix = calloc(1, sizeof *ix);
    if (!ix) return NULL;
    ix->inst = inst;
    ix->box = box;
    ix->segs = segs;
    ix->order = malloc((size_t)segs * sizeof *ix->order);
    ix->wide = malloc((size_t)segs * sizeof *ix->wide);
    if (!ix->order || !ix->wide || segs < 1 ||
        !ordinary_limit(box, segs, &ix->longest_ordinary)) {
        wt_segment_index_free(ix);
        return NULL;
    }
    double x0 = INFINITY, x1 = -INFINITY, y0 = INFINITY, y1 = -INFINITY;
    for (int s = 0; s < segs; s++) {
        x0 = fmin(x0, box[s].x0), x1 = fmax(x1, box[s].x1);
        y0 = fmin(y0, box[s].y0), y1 = fmax(y1, box[s].y1);
    }
    ix->along_y = y1 - y0 > x1 - x0;
    for (int s = 0; s < segs; s++) {
        if (box[s].longest > ix->longest_ordinary) {
            ix->wide[ix->wides++] = s;
            continue;
        }
        ix->order[ix->ordinary++] = (axis_entry){box_lo(ix, s), s};
        ix->widest = fmax(ix->widest, box_hi(ix, s) - box_lo(ix, s));
    }
    qsort(ix->order, (size_t)ix->ordinary, sizeof *ix->order, cmp_entry);
    /* segment_bound.c's formulas: the Euclidean ones, MAN_2D and MAX_2D
     * are at least the gap along either axis (less 0.5 for those that
     * round to nearest); ATT's is that over sqrt(10). */
    ix->per_gap = (inst->type == WT_ATT ? 1.0 / sqrt(10.0) : 1.0) * GAP_SHRINK;
    return ix;
}

void wt_segment_index_free(wt_segment_index *ix)
{
    if (!ix) return;
    free(ix->order);
    free(ix->wide);
    free(ix);
}

/* The first entry of order with lo >= v. */
static int first_at_least(const wt_segment_index *ix, double v)
{
    int lo = 0, hi = ix->ordinary;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (ix->order[mid].lo < v) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

/* Every s >= g that may improve with g, tested one by one. */
static int partners_by_scan(const wt_segment_index *ix, int g, int *out)
{
    int count = 0;
    for (int s = g; s < ix->segs; s++)
        if (wt_segment_may_improve(ix->inst, &ix->box[g], &ix->box[s])) out[count++] = s;
    return count;
}

int wt_segment_index_partners(const wt_segment_index *ix, int g, int *out)
{
    const wt_segment_box *bg = &ix->box[g];
    /* An ordinary partner s has 2L < E_g + E_s <= E_g + longest_ordinary,
     * and L >= gap * per_gap - 0.5, so its gap along the axis is below
     * reach: its lo lies within reach of g's box, or within reach and the
     * widest box below it. */
    double reach = (0.5 * (double)(bg->longest + ix->longest_ordinary) + 0.5) / ix->per_gap;
    double lo = box_lo(ix, g), hi = box_hi(ix, g);
    /* A margin far above the rounding of these sums and of the bound's own
     * arithmetic: the window may hold more than the partners, never less. */
    double margin = 1e-9 * (fabs(lo) + fabs(hi) + reach + ix->widest) + 1e-9;
    double top = hi + reach + margin;
    int a = first_at_least(ix, lo - reach - ix->widest - margin);
    int b = first_at_least(ix, top);
    while (b < ix->ordinary && ix->order[b].lo <= top) b++;
    /* A window over much of the segments saves nothing on a scan in order
     * (a random tour's boxes span the plane), and its sort would cost. */
    if (4 * (b - a + ix->wides) > ix->segs - g) return partners_by_scan(ix, g, out);
    int count = 0;
    for (int k = a; k < b; k++) {
        int s = ix->order[k].seg;
        if (s >= g && wt_segment_may_improve(ix->inst, bg, &ix->box[s])) out[count++] = s;
    }
    for (int k = 0; k < ix->wides; k++) {
        int s = ix->wide[k];
        if (s >= g && wt_segment_may_improve(ix->inst, bg, &ix->box[s])) out[count++] = s;
    }
    qsort(out, (size_t)count, sizeof *out, cmp_int);
    return count;
}
