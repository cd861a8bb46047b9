/*
 * ils_keep.c - the keep of ils_keep.h: the kept candidate lists and the
 * last tour's neighbours.  wt_solve_kept is solve.c's (it runs wt_solve's
 * path with the keep in its control).
 */
#include "algo/ils_keep.h"

#include <stdlib.h>
#include <string.h>

#include "core/error.h"

struct wt_ils_keep {
    int n;
    int32_t *lists;     /* n rows of `candidates`, -1 after a shorter row's last; NULL: none */
    bool lk;            /* the moves the lists were built for */
    int candidates;
    int32_t *adj;       /* 2n: the last tour's neighbours of each city */
    bool has_last;
};

wt_status wt_ils_keep_open(int n, wt_ils_keep **out, wt_error *err)
{
    wt_ils_keep *k = calloc(1, sizeof *k);
    if (k) k->adj = malloc(2 * ((size_t)n + 1) * sizeof *k->adj);
    if (!k || !k->adj || n < 1) {
        wt_ils_keep_free(k);
        return n < 1 ? wt_fail(err, WT_STATUS_INVALID_ARGUMENT, "wt_ils_keep_open: n is %d", n)
                     : wt_fail(err, WT_STATUS_OUT_OF_MEMORY, "out of memory for a search's "
                               "keep of %d cities", n);
    }
    k->n = n;
    *out = k;
    return WT_OK;
}

void wt_ils_keep_free(wt_ils_keep *k)
{
    if (!k) return;
    free(k->lists);
    free(k->adj);
    free(k);
}

int wt_ils_keep_n(const wt_ils_keep *k) { return k->n; }

const int32_t *wt_ils_keep_lists(const wt_ils_keep *k, bool lk, int candidates)
{
    return k && k->lists && k->lk == lk && k->candidates == candidates ? k->lists : NULL;
}

void wt_ils_keep_set_lists(wt_ils_keep *k, bool lk, int candidates, const int32_t *nb,
                           int width)
{
    if (!k || !nb || width < 1 || width > candidates || nb[0] < 0) return;
    int32_t *rows = malloc((size_t)k->n * (size_t)candidates * sizeof *rows);
    if (!rows) return; /* the next search builds its own */
    for (size_t c = 0; c < (size_t)k->n; c++) {
        int32_t *row = rows + c * (size_t)candidates;
        memcpy(row, nb + c * (size_t)width, (size_t)width * sizeof *row);
        for (int x = width; x < candidates; x++) row[x] = -1;
    }
    free(k->lists);
    k->lists = rows;
    k->lk = lk;
    k->candidates = candidates;
}

static bool same_pair(const int32_t *a, int32_t x, int32_t y)
{
    return (a[0] == x && a[1] == y) || (a[0] == y && a[1] == x);
}

int wt_ils_keep_changed(const wt_ils_keep *k, const int32_t *tour, int32_t *cities)
{
    if (!k || !k->has_last) return -1;
    int n = k->n, count = 0;
    for (int i = 0; i < n; i++) {
        int32_t c = tour[i], a = tour[i == 0 ? n - 1 : i - 1], b = tour[i == n - 1 ? 0 : i + 1];
        if (!same_pair(k->adj + 2 * (size_t)c, a, b)) cities[count++] = c;
    }
    return count;
}

void wt_ils_keep_set_last(wt_ils_keep *k, const int32_t *tour, bool done)
{
    if (!k) return;
    k->has_last = done;
    if (!done) return;
    int n = k->n;
    for (int i = 0; i < n; i++) {
        int32_t *a = k->adj + 2 * (size_t)tour[i];
        a[0] = tour[i == 0 ? n - 1 : i - 1];
        a[1] = tour[i == n - 1 ? 0 : i + 1];
    }
}
