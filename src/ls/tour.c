/*
 * tour.c - the engine's tour (tour.h): the log, the undo of flips and
 * reversals, and the list's opening and closing.
 */
#include "ls/tour.h"

#include <stdlib.h>
#include <string.h>

void wt_ls_tour_log(wt_ls_tour *t, int32_t x, int32_t y)
{
    if (t->log_len + 2 > t->log_cap) {
        size_t cap = t->log_cap ? 2 * t->log_cap : 1024;
        int32_t *bigger = realloc(t->log, cap * sizeof *bigger);
        if (!bigger) {
            t->log_failed = true;
            return;
        }
        t->log = bigger;
        t->log_cap = cap;
    }
    t->log[t->log_len++] = x;
    t->log[t->log_len++] = y;
}

/* Drops the last `entries` ints of the log, the entry of a change just
 * undone (kept as it is when the log had failed: undo is inexact then). */
static void drop_logged(wt_ls_tour *t, bool logging, size_t entries)
{
    if (logging && !t->log_failed && t->log_len >= entries) t->log_len -= entries;
}

void wt_ls_tour_unflip(wt_ls_tour *t, int a, int b, int c, int d)
{
    bool logging = t->logging;
    t->logging = false;
    /* (a c) (b d) back to (a b) (c d).  On the array the two edges keep
     * their positions, so the same range turns back. */
    wt_ls_tour_flip(t, a, c, b, d);
    t->logging = logging;
    drop_logged(t, logging, t->list ? 4 : 2);
}

void wt_ls_tour_unreverse(wt_ls_tour *t, int from, int len)
{
    bool logging = t->logging;
    t->logging = false;
    wt_ls_tour_reverse(t, from, len);
    t->logging = logging;
    drop_logged(t, logging, 2);
}

void wt_ls_tour_undo(wt_ls_tour *t)
{
    bool logging = t->logging;
    t->logging = false; /* a change undone is not logged again */
    while (t->list && t->log_len >= 4) { /* (a b) (c d) -> (a c) (b d), back */
        int d = t->log[--t->log_len], c = t->log[--t->log_len];
        int b = t->log[--t->log_len], a = t->log[--t->log_len];
        wt_ls_tour_flip(t, a, c, b, d);
    }
    while (!t->list && t->log_len > 0) { /* a reversal is its own inverse */
        int len = t->log[--t->log_len];
        int from = t->log[--t->log_len];
        wt_ls_tour_reverse(t, from, len);
    }
    t->logging = logging;
}

wt_status wt_ls_tour_list_open(wt_ls_tour *t, wt_error *err)
{
    wt_status st = wt_tour_list_create(t->order, t->n, 0, &t->list, err);
    t->log_len = 0; /* committed: the log holds list flips from here */
    return st;
}

void wt_ls_tour_list_close(wt_ls_tour *t)
{
    if (!t->list) return;
    wt_tour_list_walk(t->list, t->order[0], t->order);
    for (int i = 0; i < t->n; i++) t->pos[t->order[i]] = i;
    wt_tour_list_free(t->list);
    t->list = NULL;
    t->log_len = 0; /* committed: the log's list flips are gone */
}

void wt_ls_tour_walk(const wt_ls_tour *t, int32_t *out)
{
    if (t->list) wt_tour_list_walk(t->list, t->order[0], out);
    else memcpy(out, t->order, (size_t)t->n * sizeof *out);
}

void wt_ls_tour_release(wt_ls_tour *t)
{
    wt_tour_list_free(t->list);
    t->list = NULL;
    free(t->log);
    t->log = NULL;
    t->log_len = t->log_cap = 0;
}
