/*
 * kswap.c - greedy selection of independent 2-opt moves (see kswap.h).
 */
#include "algo/kswap.h"

#include "core/tour_ops.h"

#include <stdlib.h>
#include <string.h>

static int move_order(const void *pa, const void *pb)
{
    const wt_kswap_move *a = pa, *b = pb;
    if (a->delta != b->delta) return a->delta < b->delta ? -1 : 1;
    if (a->i != b->i) return a->i < b->i ? -1 : 1;
    return (a->j > b->j) - (a->j < b->j);
}

/* Index of the first kept interval starting after pos (kept sorted by i). */
static int first_after(const wt_kswap_move *kept, int nkept, int32_t pos)
{
    int lo = 0, hi = nkept;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (kept[mid].i > pos) hi = mid;
        else lo = mid + 1;
    }
    return lo;
}

int wt_kswap_select(wt_kswap_move *moves, int count, int k, wt_kswap_move *scratch)
{
    qsort(moves, (size_t)count, sizeof *moves, move_order);
    int nkept = 0;
    for (int c = 0; c < count && moves[c].delta < 0 && (k <= 0 || nkept < k); c++) {
        wt_kswap_move m = moves[c];
        /* Kept intervals are disjoint, so sorted by start they are sorted by
         * end too: only the last one starting at or before m.j can reach m. */
        int p = first_after(scratch, nkept, m.j);
        if (p > 0 && scratch[p - 1].j >= m.i) continue;
        memmove(scratch + p + 1, scratch + p, (size_t)(nkept - p) * sizeof *scratch);
        scratch[p] = m;
        nkept++;
    }
    memcpy(moves, scratch, (size_t)nkept * sizeof *moves);
    return nkept;
}

int64_t wt_kswap_apply(int32_t *tour, const wt_kswap_move *moves, int count)
{
    int64_t total = 0;
    for (int c = 0; c < count; c++) {
        wt_tour_reverse_segment(tour, moves[c].i + 1, moves[c].j);
        total += moves[c].delta;
    }
    return total;
}
