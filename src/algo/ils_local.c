/*
 * ils_local.c - Iterated Local Search with local descents on the host
 * (params.ils_descent = WT_ILS_LOCAL), on all CPU threads.
 *
 * The full descent (the backends' sessions, ils.c) scans all n^2/2 pairs at
 * least once after every kick: on the GPU microseconds for a few thousand
 * cities, on CPU cores milliseconds to seconds.  After a segment-restricted
 * double bridge only six cities have new neighbours, and the don't-look bits
 * of all others stay set: the neighbour-list 2-opt + Or-opt descent of
 * polish.c (wt_polisher), started from those six, repairs a kick in about
 * the moves it makes (Johnson & McGeoch's practice for ILS), so one core
 * makes a hundred thousand kicks a second at any n.  A rejected kick is
 * undone from the polisher's log of reversals.  The optimum reached is one
 * of the neighbour lists' moves only (10 nearest cities; see polish.h).
 *
 * Threads: T searches (T = ctl->threads), each a polisher of its own with
 * its own stream of kicks, run in epochs of LOCAL_EPOCH kicks each; at the
 * end of an epoch every search takes up the best tour among them (ties to
 * the lowest search), as Lam et al.'s searches meet at their exchanges.  An
 * epoch's work depends only on the tours at its start, so a run is the same
 * for the same seed, kick budget and thread count (the thread count changes
 * the run, as it does for sa's pssm).  The first descent, from every city,
 * is search 0's before the others are cloned from it.
 */
#include "algo/ils_local.h"

#include <assert.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "algo/ils.h"
#include "algo/polish.h"
#include "core/error.h"
#include "core/instance.h"

/* Kicks of each search between exchanges: milliseconds of work, so the
 * exchange (a copy of the best tour into every search) stays cheap.
 * WT_ILS_EPOCH=K sets another count, for measurements (0: never). */
enum { LOCAL_EPOCH = 2000 };

static uint64_t epoch_kicks(void)
{
    const char *v = getenv("WT_ILS_EPOCH");
    if (!v || !*v) return LOCAL_EPOCH;
    char *end;
    unsigned long long k = strtoull(v, &end, 10);
    if (*end || v[0] == '-') return LOCAL_EPOCH;
    return k == 0 || k > (1ULL << 40) ? 1ULL << 40 : (uint64_t)k; /* T * k must fit */
}
/* Kicks between looks at the clock and the progress callback. */
enum { LOCAL_POLL = 64 };

typedef struct local_search {
    wt_polisher *w;
    uint64_t seed;     /* its kick stream */
    uint64_t next;     /* its next kick number */
    int64_t best_len;  /* length of the committed tour */
    int64_t shown;     /* the same, for the progress report (atomic access) */
    uint64_t kicks, kept, moves;
    wt_status st;
    wt_error err;
} local_search;

/* One kick and its repair; keeps or undoes it.  false when a descent failed. */
static bool kick_and_repair(local_search *s, int n, bool accept_equal)
{
    int p[3];
    if (!wt_ils_kick_points(s->seed, s->next++, n, p)) return true;
    wt_polisher_double_bridge(s->w, p[0], p[1], p[2]);
    s->st = wt_polisher_descend(s->w, &s->moves, &s->err);
    if (s->st != WT_OK) return false;
    int64_t len = wt_polisher_length(s->w);
    s->kicks++;
    if (len < s->best_len || (accept_equal && len == s->best_len)) {
        wt_polisher_commit(s->w);
        s->best_len = len;
        s->kept++;
#pragma omp atomic write
        s->shown = len;
    } else {
        wt_polisher_undo(s->w, s->best_len);
    }
    return true;
}

/* The flag that ends an epoch early (time limit, Ctrl-C, a failure), set and
 * read by every thread. */
static void set_halt(int *halt)
{
#pragma omp atomic write
    *halt = 1;
}

static bool halted(int *halt)
{
    int h;
#pragma omp atomic read
    h = *halt;
    return h != 0;
}

/* The shortest tour among the searches, as they run. */
static int64_t shortest_shown(local_search *all, int T)
{
    int64_t best = INT64_MAX;
    for (int u = 0; u < T; u++) {
        int64_t v;
#pragma omp atomic read
        v = all[u].shown;
        if (v < best) best = v;
    }
    return best;
}

/* Search t's share of an epoch of `quota` kicks over T searches.  Thread 0
 * (the solving thread) also reports progress; every thread watches ctl. */
static void run_epoch(local_search *all, int t, int T, uint64_t quota, int n,
                      wt_search_ctl *ctl, uint64_t done_before, int *halt)
{
    local_search *s = &all[t];
    uint64_t mine = quota / (uint64_t)T + ((uint64_t)t < quota % (uint64_t)T);
    bool accept_equal = ctl->params->accept_equal;
    for (uint64_t k = 0; k < mine; k++) {
        if (k % LOCAL_POLL == 0) {
            bool stop;
            if (t == 0) {
                ctl->kicks = done_before + k * (uint64_t)T;
                stop = wt_ctl_report(ctl, shortest_shown(all, T), s->moves, false);
            } else {
                stop = wt_ctl_expired(ctl);
            }
            if (stop) set_halt(halt);
            if (halted(halt)) return;
        }
        if (!kick_and_repair(s, n, accept_equal)) {
            set_halt(halt);
            return;
        }
    }
}

/* The search with the shortest committed tour (the lowest on ties). */
static int best_search(const local_search *s, int T)
{
    int b = 0;
    for (int t = 1; t < T; t++)
        if (s[t].best_len < s[b].best_len) b = t;
    return b;
}

static void free_searches(local_search *s, int T)
{
    for (int t = T - 1; t >= 0 && s; t--) wt_polisher_free(s[t].w); /* clones before s[0] */
    free(s);
}

/* The searches, all on the tour of the first descent.  On failure frees
 * them and returns the status. */
static wt_status open_searches(const wt_instance *inst, const int32_t *tour, wt_search_ctl *ctl,
                               int T, local_search **out, wt_search_stats *stats, wt_error *err)
{
    local_search *s = calloc((size_t)T, sizeof *s);
    if (!s) return wt_fail(err, WT_STATUS_OUT_OF_MEMORY, "out of memory for %d searches", T);
    wt_status st = wt_polisher_create(inst, tour, ctl, &s[0].w, err);
    if (st == WT_OK) {
        wt_polisher_touch_all(s[0].w);
        st = wt_polisher_descend(s[0].w, &stats->steps, err);
    }
    for (int t = 1; t < T && st == WT_OK; t++) st = wt_polisher_clone(s[0].w, &s[t].w, err);
    if (st != WT_OK) {
        free_searches(s, T);
        return st;
    }
    wt_polisher_commit(s[0].w);
    for (int t = 0; t < T; t++) {
        s[t].seed = ctl->params->seed + (uint64_t)t * 0x9E3779B97F4A7C15ULL;
        s[t].best_len = s[t].shown = wt_polisher_length(s[0].w);
    }
    *out = s;
    return WT_OK;
}

wt_status wt_ils_local_run(const wt_instance *inst, int32_t *tour, wt_search_ctl *ctl,
                           uint64_t kicks, wt_search_stats *stats, wt_error *err)
{
    int n = inst->n, T = ctl->threads > 0 ? ctl->threads : 1;
    local_search *s = NULL;
    wt_status st = open_searches(inst, tour, ctl, T, &s, stats, err);
    if (st != WT_OK) return st;
    bool at_optimum = ctl->stop == WT_STOP_DONE; /* the first descent was not cut short */
    int halt = ctl->stop != WT_STOP_DONE;
    uint64_t done = 0, epoch = epoch_kicks();
    while (!halt && (kicks == 0 || done < kicks)) {
        uint64_t quota = (uint64_t)T * epoch;
        if (kicks > 0 && kicks - done < quota) quota = kicks - done;
#pragma omp parallel for num_threads(T) schedule(static, 1)
        for (int t = 0; t < T; t++) run_epoch(s, t, T, quota, n, ctl, done, &halt);
        done = 0;
        for (int t = 0; t < T; t++) done += s[t].kicks;
        for (int t = 0; t < T; t++)
            if (s[t].st != WT_OK) {
                *err = s[t].err;
                st = s[t].st;
            }
        if (st != WT_OK) break;
        int b = best_search(s, T);
        for (int t = 0; t < T; t++)
            if (t != b && s[t].best_len != s[b].best_len) {
                wt_polisher_adopt(s[t].w, wt_polisher_tour(s[b].w), s[b].best_len);
                s[t].best_len = s[t].shown = s[b].best_len;
            }
    }
    for (int t = 0; t < T; t++) {
        stats->kicks += s[t].kicks;
        stats->kicks_accepted += s[t].kept;
        stats->steps += s[t].moves;
    }
    ctl->kicks = stats->kicks;
    /* The bookkeeping's invariant (checked in debug builds, the sanitizer
     * tests among them): a search's committed length is its tour's. */
    for (int t = 0; t < T && st == WT_OK; t++)
        assert(s[t].best_len == wt_tour_length(inst, wt_polisher_tour(s[t].w)));
    if (st == WT_OK)
        memcpy(tour, wt_polisher_tour(s[best_search(s, T)].w), (size_t)n * sizeof *tour);
    /* As ils.c: kicking until the time limit ends normally there. */
    if (kicks == 0 && at_optimum && ctl->stop == WT_STOP_TIME_LIMIT) ctl->stop = WT_STOP_DONE;
    free_searches(s, T);
    return st;
}
