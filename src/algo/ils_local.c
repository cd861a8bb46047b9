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
 * The first descent, from every city of the start tour: from STRETCH_DESCENT
 * cities a thread, each thread first descends on a stretch of the tour (see
 * below), then one descent of the whole tour from every city finds what
 * lies between stretches; otherwise the whole tour's descent alone.
 *
 * Kicks, T = ctl->threads searches, in one of three ways:
 *  - Whole-tour copies (LK searches from WHOLE_MIN cities, kick_whole):
 *    each search kicks its own copy of the whole tour held as a two-level
 *    list, from the cities of its own part of the tour, and the copies'
 *    changes are merged into one tour every epoch.  The other two ways
 *    follow; LK searches below WHOLE_MIN cities take them too.
 *  - Copies (n < T * STRETCH_MIN, see below): each search a polisher of its own on a
 *    copy of the whole tour, with its own stream of kicks, run in epochs of
 *    LOCAL_EPOCH kicks each; at the end of an epoch every search takes up
 *    the best tour among them (ties to the lowest search), as Lam et al.'s
 *    searches meet at their exchanges.
 *  - Stretches (n >= T * STRETCH_MIN): on a large tour the copies would
 *    throw away the work of all but one search at every meeting (their
 *    kicks land far apart and improve different places) and copy n cities
 *    into each.  So the tour is cut into T stretches of consecutive
 *    positions instead, one per search, each searched as a path whose two
 *    ends stay in place (wt_polisher_adopt_path): every search's gains are
 *    kept, and the stretches go back into the tour's positions side by
 *    side.  Every epoch cuts the tour at an offset drawn from the seed, so
 *    that moves across one epoch's cuts are found in another's.  A move
 *    between cities that never share a stretch (far apart along the tour,
 *    side by side in the plane) is never made, which costs more than the
 *    few such neighbour pairs suggest (the improving moves are often those):
 *    below about 6000 cities a stretch the copies end closer to the optimum
 *    in the same time, above it the stretches (bench/RESULTS.md); for LK
 *    searches, whose flips cost more on longer tours, from 500.  Below
 *    MIX_BELOW cities a stretch, every MIX_PERIOD-th epoch is one of copies,
 *    which make those moves.
 * An epoch's work depends only on the tour at its start, so a run is the
 * same for the same seed, kick budget and thread count (the thread count
 * changes the run, as it does for sa's pssm).
 */
#include "algo/ils_local.h"

#include <assert.h>
#include <limits.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "core/climb_start.h"
#include "algo/ils.h"
#include "algo/polish.h"
#include "algo/windows.h"
#include "algo/windows_concurrent.h"
#include "core/error.h"
#include "core/init.h"
#include "core/instance.h"
#include "core/tour_changes.h"
#include "core/tour_ops.h"

/* Kicks of each search between exchanges: milliseconds of work, so the
 * exchange (a copy of the best tour into every search) stays cheap.
 * tuning.ils_epoch sets another count, for measurements. */
enum { LOCAL_EPOCH = 2000 };

static uint64_t epoch_kicks(const wt_tuning *t)
{
    if (t->ils_epoch == 0) return LOCAL_EPOCH;
    if (t->ils_epoch == WT_TUNING_OFF || t->ils_epoch > (1LL << 40))
        return 1ULL << 40; /* never; T * k must fit */
    return (uint64_t)t->ils_epoch;
}
/* Kicks between looks at the clock and the progress callback. */
enum { LOCAL_POLL = 64 };

/* Cities per stretch from which the searches kick on stretches (see
 * above; pla85900 on 16 threads, 5368 a stretch, ends closer with copies,
 * usa115475, 7217, with stretches); tuning.ils_stretch sets another, for
 * measurements. */
enum { STRETCH_MIN = 6000 };
/* The same for LK searches, whose flips on a copy of the whole tour cost
 * up to half of it each: on 16 threads, 10 s, d18512 (1157 cities a
 * stretch) ended 0.22-0.29% above the optimum on stretches and 0.57% on
 * copies, usa13509 (844) 0.28-0.30% against 0.35-0.42%, but pr2392 (150)
 * 0.14% on stretches and 0.01% on copies (bench/RESULTS.md). */
enum { LK_STRETCH_MIN = 500 };
/* Cities per stretch from which the first descent starts on stretches. */
enum { STRETCH_DESCENT = 5000 };

static long long stretch_min(const wt_tuning *t, bool lk)
{
    if (t->ils_stretch == 0) return lk ? LK_STRETCH_MIN : STRETCH_MIN;
    return t->ils_stretch == WT_TUNING_OFF ? LLONG_MAX : t->ils_stretch;
}

typedef struct local_search {
    wt_polisher *w;
    uint64_t seed;     /* its kick stream */
    int walk;          /* > 0: random-walk kicks of this many steps, else
                          segment-restricted ones (wt_ils_kick_points) */
    uint64_t next;     /* its next kick number */
    int64_t best_len;  /* length of the committed tour (or closed path) */
    int64_t base;      /* stretches: the closed path's length at the epoch's start, else 0 */
    int64_t shown;     /* best_len - base (+ acc), for the progress report (atomic access) */
    int64_t acc;       /* stretches: the gains of this epoch's earlier stretches (<= 0) */
    int start, m;      /* stretches: the path's first position in the tour, its cities */
    const int32_t *region; /* whole-tour copies: its kicks start at these cities */
    int region_m;          /* (that many; region NULL: any city) */
    double until;          /* > 0: no kick after this time (wt_now), so that what
                              follows the epoch ends by the deadline */
    double kicked;         /* whole-tour copies: when its last epoch's kicks ended */
    uint64_t kicks, kept, moves;
    wt_status st;
    wt_error err;
} local_search;

/* One kick and its repair; keeps or undoes it.  false when a descent failed. */
static bool kick_and_repair(local_search *s, int n, bool accept_equal)
{
    if (s->walk > 0) {
        if (!wt_polisher_walk_kick_among(s->w, s->seed, s->next++, s->walk, s->region,
                                         s->region_m))
            return true;
    } else {
        int p[3];
        if (!wt_ils_kick_points(s->seed, s->next++, n, p)) return true;
        wt_polisher_double_bridge(s->w, p[0], p[1], p[2]);
    }
    s->st = wt_polisher_descend(s->w, &s->moves, &s->err);
    if (s->st != WT_OK) return false;
    int64_t len = wt_polisher_length(s->w);
    s->kicks++;
    if (len < s->best_len || (accept_equal && len == s->best_len)) {
        wt_polisher_commit(s->w);
        s->best_len = len;
        s->kept++;
#pragma omp atomic write
        s->shown = len - s->base + s->acc;
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

/* The best length so far, as the searches run: the shortest of their
 * tours, or with stretches (*tour_len: the tour's length at the epoch's
 * start) that length plus every stretch's gain. */
static int64_t shown_length(local_search *all, int T, const int64_t *tour_len)
{
    int64_t best = INT64_MAX, sum = tour_len ? *tour_len : 0;
    for (int u = 0; u < T; u++) {
        int64_t v;
#pragma omp atomic read
        v = all[u].shown;
        if (v < best) best = v;
        sum += v;
    }
    return tour_len ? sum : best;
}

/* Search t's share of an epoch of `quota` kicks over `parts` parts (T
 * searches, or with stretches T searches times their rounds), part u's. */
static uint64_t share(uint64_t quota, uint64_t parts, uint64_t u)
{
    return quota / parts + (u < quota % parts);
}

/* `mine` kicks of search t of T, on a tour (or path) of n cities.  Thread 0
 * (the solving thread) also reports progress; every thread watches ctl. */
static void run_epoch(local_search *all, int t, int T, uint64_t mine, int n,
                      wt_search_ctl *ctl, uint64_t done_before, const int64_t *tour_len,
                      int *halt)
{
    local_search *s = &all[t];
    bool accept_equal = ctl->params->accept_equal;
    for (uint64_t k = 0; k < mine; k++) {
        if (k % LOCAL_POLL == 0) {
            bool stop;
            if (t == 0) {
                ctl->kicks = done_before + k * (uint64_t)T;
                stop = wt_ctl_report(ctl, shown_length(all, T, tour_len), s->moves, false);
            } else {
                stop = wt_ctl_expired(ctl);
            }
            if (s->until > 0 && wt_now() >= s->until) stop = true;
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

/* The T searches' kicks, kept kicks and moves, added to stats. */
static void add_stats(wt_search_stats *stats, const local_search *s, int T)
{
    for (int t = 0; t < T; t++) {
        stats->kicks += s[t].kicks;
        stats->kicks_accepted += s[t].kept;
        stats->steps += s[t].moves;
    }
}

static void free_searches(local_search *s, int T)
{
    for (int t = T - 1; t >= 0 && s; t--) wt_polisher_free(s[t].w);
    free(s);
}

/* Steps of the random walks that place an LK search's kicks (the
 * 2-opt + Or-opt searches make segment-restricted kicks).  One chain on
 * pr2392, 3 s, four seeds, ended 0.61% above the optimum with walks of 8
 * steps, 0.32% with 25, 0.27% with 50, 0.30% with 100; on 16 threads, 10 s,
 * 25 steps ended as close as 50 on pr2392 and closer on usa13509 and
 * d18512, from half again as many kicks (bench/RESULTS.md). */
enum { LK_WALK_STEPS = 25 };

/* T searches, kicking as suits the moves of proto's descents. */
static local_search *new_searches(const wt_polisher *proto, wt_search_ctl *ctl, int T,
                                  wt_error *err)
{
    int steps = ctl->params->tuning.lk_walk ? ctl->params->tuning.lk_walk : LK_WALK_STEPS;
    int walk = wt_polisher_moves(proto)->lk ? steps : 0;
    local_search *s = calloc((size_t)T, sizeof *s);
    if (!s) {
        wt_fail(err, WT_STATUS_OUT_OF_MEMORY, "out of memory for %d searches", T);
        return NULL;
    }
    for (int t = 0; t < T; t++) {
        s[t].seed = ctl->params->seed + (uint64_t)t * 0x9E3779B97F4A7C15ULL;
        s[t].walk = walk;
    }
    return s;
}

/* ------------------------------------------------------------ stretches */

/* Kicks of each stretch's search per epoch: about one for every two of its
 * cities (a tenth of a second or more), so that the epoch's fixed work (the
 * descent from every city of the stretch) stays small beside it. */
static uint64_t stretch_epoch_kicks(const wt_tuning *t, int cap)
{
    if (t->ils_epoch != 0) return epoch_kicks(t);
    return (uint64_t)cap / 2 > LOCAL_EPOCH ? (uint64_t)cap / 2 : LOCAL_EPOCH;
}

/* Where epoch e cuts the tour: 0 for the first descent, then drawn. */
static int stretch_offset(uint64_t seed, uint64_t e, int n)
{
    if (e == 0) return 0;
    wt_rng rng;
    wt_climb_rng(&rng, seed ^ 0x2545F4914F6CDD1DULL, e);
    return (int)wt_rng_below(&rng, (uint64_t)n);
}

/* Search t's epoch on stretch j of `count`: takes up the path, descends
 * from every city, makes `mine` kicks, and puts the path back. */
static void run_stretch(local_search *all, int t, int T, int j, int count, int32_t *tour,
                        const int32_t *where, int n, int offset, uint64_t mine,
                        wt_search_ctl *ctl, uint64_t done_before, const int64_t *tour_len,
                        int *halt)
{
    local_search *s = &all[t];
    long long lo = (long long)j * n / count, hi = (long long)(j + 1) * n / count;
    s->start = (int)((offset + lo) % n);
    s->m = (int)(hi - lo);
    wt_polisher_adopt_path(s->w, tour, where, n, s->start, s->m);
    s->base = s->best_len = wt_polisher_length(s->w);
#pragma omp atomic write
    s->shown = s->acc;
    wt_polisher_touch_all(s->w);
    s->st = wt_polisher_descend(s->w, &s->moves, &s->err);
    if (s->st == WT_OK) {
        wt_polisher_commit(s->w);
        s->best_len = wt_polisher_length(s->w);
#pragma omp atomic write
        s->shown = s->best_len - s->base + s->acc;
        run_epoch(all, t, T, mine, s->m, ctl, done_before, tour_len, halt);
    } else {
        set_halt(halt);
    }
    /* Committed or undone after every kick: the path is the best one. */
    wt_polisher_store_path(s->w, tour, n);
    s->acc += s->best_len - s->base;
}

/* Search t's epoch on its `rounds` stretches (t, t + T, ...), one after
 * another; stops after the first one that a halt cut short. */
static void run_stretches(local_search *all, int t, int T, int rounds, int32_t *tour,
                          const int32_t *where, int n, int offset, uint64_t quota,
                          wt_search_ctl *ctl, uint64_t done_before, const int64_t *tour_len,
                          int *halt)
{
    uint64_t parts = (uint64_t)T * (uint64_t)rounds, mine_before = all[t].kicks;
    all[t].acc = 0;
    for (int r = 0; r < rounds && !halted(halt); r++) {
        /* A first descent makes no kicks, whose polls would see a stop. */
        if (wt_ctl_expired(ctl)) {
            set_halt(halt);
            break;
        }
        int j = r * T + t;
        /* The progress line's count: this epoch's earlier rounds, T times. */
        uint64_t done = done_before + (all[t].kicks - mine_before) * (uint64_t)T;
        run_stretch(all, t, T, j, T * rounds, tour, where, n, offset,
                    share(quota, parts, (uint64_t)j), ctl, done, tour_len, halt);
    }
}

/* The searches of T * rounds stretches (each search takes `rounds` of
 * them one after another) and the tour's inverse they share. */
typedef struct stretches {
    local_search *s;
    int32_t *where; /* where[tour[x]] = x, refreshed at every epoch */
    int rounds;
} stretches;

static void close_stretches(stretches *k, int T)
{
    free_searches(k->s, T);
    free(k->where);
}

/* Stretches of at most this many cities for LK searches, whose flips cost
 * up to a stretch's length; the 2-opt + Or-opt searches take one stretch a
 * thread whatever its length.  On 16 threads (H100 machine, CPU backend),
 * one stretch a thread (pla85900: 5368 cities, usa115475: 7217) ended
 * closer than two at most 5000 long: pla85900 0.935% / 0.886% against
 * 1.060% / 0.977% at 10 s (seeds 1 / 2), usa115475 0.573% / 0.522% against
 * 0.616% / 0.616% at 10 s and 0.376% against 0.473% at 60 s; 2000 lost
 * (bench/RESULTS.md). */
enum { LK_STRETCH_MAX = 12000 };
/* Above this many cities, LK searches kick on stretches only, whatever the
 * thread count. */
enum { LK_COPIES_MAX = 20000 };

/* Stretches each search takes in turn, for tours of n cities on T. */
static int stretch_rounds(const wt_polisher *whole, int n, int T)
{
    if (!wt_polisher_moves(whole)->lk) return 1;
    long long per = ((long long)n + T - 1) / T;
    return (int)((per + LK_STRETCH_MAX - 1) / LK_STRETCH_MAX);
}

/* Path polishers for the stretches of the tour, with lists from whole's. */
static wt_status open_stretches(const wt_polisher *whole, int n, wt_search_ctl *ctl, int T,
                                stretches *out, wt_error *err)
{
    int rounds = stretch_rounds(whole, n, T);
    long long count = (long long)T * rounds;
    int cap = (int)(((long long)n + count - 1) / count);
    *out = (stretches){new_searches(whole, ctl, T, err), malloc((size_t)n * sizeof(int32_t)),
                       rounds};
    if (!out->s || !out->where) {
        close_stretches(out, T);
        return wt_fail(err, WT_STATUS_OUT_OF_MEMORY, "out of memory for %d searches", T);
    }
    wt_status st = WT_OK;
    for (int t = 0; t < T && st == WT_OK; t++)
        st = wt_polisher_create_paths(whole, cap, &out->s[t].w, err);
    if (st != WT_OK) close_stretches(out, T);
    return st;
}

/* One epoch on every stretch (epoch 0: the descents alone); adds the
 * stretches' gains to *length.  A failed search's status is returned. */
static wt_status stretch_epoch(stretches *k, int T, int32_t *tour, int n, int offset,
                               uint64_t quota, wt_search_ctl *ctl, uint64_t *done,
                               int64_t *length, int *halt, wt_error *err)
{
    local_search *s = k->s;
    int32_t *where = k->where;
#pragma omp parallel for num_threads(T) schedule(static)
    for (int x = 0; x < n; x++) where[tour[x]] = x;
    int rounds = k->rounds;
#pragma omp parallel for num_threads(T) schedule(static, 1)
    for (int t = 0; t < T; t++)
        run_stretches(s, t, T, rounds, tour, where, n, offset, quota, ctl, *done, length, halt);
    wt_status st = WT_OK;
    *done = 0;
    for (int t = 0; t < T; t++) {
        *done += s[t].kicks;
        *length += s[t].acc;
        if (s[t].st != WT_OK) {
            *err = s[t].err;
            st = s[t].st;
        }
    }
    return st;
}

/* ----------------------------------------------------------- first descent */

/* The longest edges the first descent revisits over all pairs, and how
 * many times it does (each pass LONG_EDGES * n distances, at most four
 * rounds). */
enum { LONG_EDGES = 50, LONG_EDGE_PASSES = 3 };

/* The descent from every city of the start tour, in whole (whose tour is
 * the start tour) and copied back into tour.  From STRETCH_DESCENT cities
 * a thread, the stretches' descents run first, side by side, and the
 * descent of the whole tour after them finds what lies between stretches
 * (the start tour's long edges above all: a greedy tour keeps 2-3% more
 * without it); most cities have nothing left to do by then, so at 200,000
 * cities it takes a third of a descent on one thread and ends 0.2% shorter
 * (development machine, one thread, from greedy).  A 2-opted tour has no
 * long edges left, and the whole tour's descent, on one thread, took
 * seconds at two million cities: a second round of stretches, cut half a
 * stretch further, takes its place (at 200,000 cities from a 2-opt
 * optimum, 16 stretches: 0.03% longer than with the whole descent). */
static wt_status first_descent(wt_polisher *whole, int32_t *tour, bool on_stretches,
                               bool two_opted, bool large_lk, int n, wt_search_ctl *ctl, int T,
                               wt_search_stats *stats, wt_error *err)
{
    int64_t length = wt_polisher_length(whole);
    /* Large tours with LK descents: stretches too, two rounds of them, as
     * for a 2-opted tour: LK's flips on the whole tour would cost up to
     * half of it each. */
    two_opted = two_opted || large_lk;
    if (on_stretches && (n / T >= STRETCH_DESCENT || large_lk)) {
        stretches k;
        wt_status st = open_stretches(whole, n, ctl, T, &k, err);
        if (st != WT_OK) return st;
        int halt = 0;
        uint64_t done = 0;
        st = stretch_epoch(&k, T, tour, n, 0, 0, ctl, &done, &length, &halt, err);
        if (st == WT_OK && two_opted && !halt)
            st = stretch_epoch(&k, T, tour, n, n / (2 * T * k.rounds), 0, ctl, &done, &length,
                               &halt, err);
        for (int t = 0; t < T; t++) stats->steps += k.s[t].moves;
        close_stretches(&k, T);
        if (st != WT_OK) return st;
        wt_polisher_adopt(whole, tour, length);
        if (two_opted) return WT_OK;
    }
    wt_polisher_touch_all(whole);
    wt_status st = wt_polisher_descend(whole, &stats->steps, err);
    /* The longest edges, which the lists may have no shorter edge to
     * replace with (wt_polisher_long_edges), then a descent from the new
     * ends: from the greedy tour with LK, pla7397 3.24% -> 2.10% above the
     * optimum, usa13509 2.13% -> 1.89%, in milliseconds. */
    for (int r = 0; st == WT_OK && r < LONG_EDGE_PASSES && !two_opted && !wt_ctl_expired(ctl) &&
                    wt_polisher_long_edges(whole, LONG_EDGES, T) > 0;
         r++)
        st = wt_polisher_descend(whole, &stats->steps, err);
    if (st != WT_OK) return st;
    wt_polisher_commit(whole);
    memcpy(tour, wt_polisher_tour(whole), (size_t)n * sizeof *tour);
    return WT_OK;
}

/* Whether the first LK descent of a large tour runs on the whole tour held
 * as a two-level list (wt_polisher_descend_listed) on one thread, instead
 * of 2-opt + Or-opt then LK on stretches side by side (plain_first_descent,
 * first_descent): by default always.  After 10 s on 16 threads (H100
 * machine), pla85900 ended 1.03% above the optimum so and 1.26% from the
 * stretches, usa115475 0.57% and 0.70%; on two threads the stretches'
 * descents of usa115475 had not ended by then (bench/RESULTS.md).
 * tuning.ils_listed asks for n / T cities a thread at least. */
static bool listed_first(const wt_tuning *t, int n, int T)
{
    return t->ils_listed != WT_TUNING_OFF && (long long)n / T >= t->ils_listed;
}

/* The first descent of a large tour with LK on the whole tour as a list,
 * then the longest edges' moves (first_descent says why); report: through
 * ctl, as the solving thread does. */
static wt_status listed_descent(wt_polisher *w, bool report, int threads, wt_search_ctl *ctl,
                                uint64_t *moves, wt_error *err)
{
    wt_polisher_touch_all(w);
    wt_status st = wt_polisher_descend_listed(w, report, moves, err);
    for (int r = 0; st == WT_OK && r < LONG_EDGE_PASSES && !wt_ctl_expired(ctl) &&
                    wt_polisher_long_edges(w, LONG_EDGES, threads) > 0;
         r++)
        st = wt_polisher_descend_listed(w, report, moves, err);
    return st;
}

/* Up to this many cities the listed first descent tries other start tours
 * on the threads that would wait for it (the lists of sixteen copies of a
 * larger tour, and one thread's descent of it, cost more). */
enum { STARTS_MAX_N = 250000 };

/* Start tours whose listed first descents run side by side, one a thread,
 * the shortest result kept: the given start tour and S - 1 Quick-Boruvka
 * tours swept at evenly spaced angles (wt_tour_init_sweep).  From LK's
 * first descent the chain keeps much of its start on some instances: on
 * pla85900 (one thread, 30 s) first descents that ended 1.18 / 1.32 /
 * 1.52 / 1.78% above the optimum led to 0.36 / 0.34 / 0.48 / 0.64%, and
 * the sweeps' descents ranged from 1.21% to 1.98% (bench/RESULTS.md).
 * But a sweep's descent beat the greedy start's only where most cities
 * have their two nearest at one length (grids of lines: pla85900 and
 * pla33810 66% of the cities, vm22775 49%); on sra104815 (40%), ara238025,
 * bm33708, fht47608, xib32892, rbz43748, mona-lisa100K and usa115475 (3%)
 * greedy's won, and the other descents only slowed it (sixteen at once
 * share the memory bus).  So by default the sweeps run where at least
 * TIED_SHARE percent of the cities are so tied.  A start tour the caller
 * gave is kept as given.  tuning.ils_starts: 0, that default (one a
 * thread, at most STARTS_MAX); else at most that many starts, tied or
 * not, and one a thread. */
enum { TIED_SHARE = 45 };

/* Most starts by default: as many as were measured (16 threads); more
 * would hold more copies of the tour and share the memory bus more. */
enum { STARTS_MAX = 16 };

/* Whether at least TIED_SHARE percent of the cities have their two
 * nearest candidates at one length. */
static bool mostly_tied(const wt_polisher *w, const wt_instance *inst)
{
    int k, n = inst->n;
    const int32_t *nb = wt_polisher_candidates(w, &k);
    long long tied = 0;
    for (int c = 0; k >= 2 && c < n; c++) {
        const int32_t *row = nb + (size_t)c * (size_t)k;
        tied += row[1] >= 0 && wt_dist(inst, c, row[0]) == wt_dist(inst, c, row[1]);
    }
    return tied * 100 >= (long long)TIED_SHARE * n;
}

static int start_count(const wt_polisher *whole, const wt_search_ctl *ctl,
                       const wt_instance *inst, int T)
{
    int want = ctl->params->tuning.ils_starts;
    if (want == WT_TUNING_OFF || ctl->params->start_tour || inst->n > STARTS_MAX_N) return 1;
    if (want > 0) return want < T ? want : T;
    if (!mostly_tied(whole, inst)) return 1;
    return T < STARTS_MAX ? T : STARTS_MAX;
}

static bool ctl_stop_asked(void *ctl) { return wt_ctl_expired(ctl); }

/* Start i of S > 1 (i >= 1) in *w, a clone of the solving polisher: the
 * sweep's tour and its listed descent.  Where it fails (out of memory),
 * *w is freed and NULL: that start is left out. */
static void other_start(wt_polisher **w, const wt_instance *inst, int i, int S,
                        wt_search_ctl *ctl, uint64_t *moves)
{
    const double two_pi = 6.283185307179586;
    wt_error e;
    wt_init_stop stop = {ctl_stop_asked, ctl};
    int32_t *tour = malloc((size_t)inst->n * sizeof *tour);
    wt_status st = tour ? WT_OK : WT_STATUS_OUT_OF_MEMORY;
    if (st == WT_OK)
        st = wt_tour_init_sweep(inst, two_pi * (i - 1) / (S - 1), 1, &stop, tour, NULL, &e);
    if (st == WT_OK) {
        wt_polisher_adopt(*w, tour, wt_tour_length(inst, tour));
        st = listed_descent(*w, false, 1, ctl, moves, &e);
    }
    free(tour);
    if (st != WT_OK) {
        wt_polisher_free(*w);
        *w = NULL;
    }
}

/* The listed first descent from start_count's start tours; whole ends on
 * the shortest result (ties: the given start, then the lowest angle), which
 * is copied into tour. */
static wt_status listed_first_descent(wt_polisher *whole, int32_t *tour, const wt_instance *inst,
                                      wt_search_ctl *ctl, int T, wt_search_stats *stats,
                                      wt_error *err)
{
    int n = inst->n, S = start_count(whole, ctl, inst, T);
    wt_polisher **other = calloc((size_t)S, sizeof *other);
    uint64_t *moves = calloc((size_t)S, sizeof *moves);
    if (!other || !moves) S = 1; /* the given start alone */
    for (int i = 1; i < S; i++) {
        wt_error e;
        if (wt_polisher_clone(whole, &other[i], &e) != WT_OK) other[i] = NULL;
    }
    wt_status st = WT_OK;
    if (S == 1) {
        st = listed_descent(whole, true, T, ctl, &stats->steps, err);
    } else {
#pragma omp parallel num_threads(S)
        {
            int i = omp_get_thread_num();
            if (i == 0) st = listed_descent(whole, true, 1, ctl, &moves[0], err);
            else if (other[i]) other_start(&other[i], inst, i, S, ctl, &moves[i]);
        }
        int best = 0;
        int64_t best_len = wt_polisher_length(whole);
        for (int i = 1; i < S; i++) {
            stats->steps += moves[i];
            if (other[i] && wt_polisher_length(other[i]) < best_len) {
                best = i;
                best_len = wt_polisher_length(other[i]);
            }
        }
        stats->steps += moves[0];
        if (st == WT_OK && best > 0)
            wt_polisher_adopt(whole, wt_polisher_tour(other[best]), best_len);
        for (int i = 1; i < S; i++) wt_polisher_free(other[i]);
    }
    free(other);
    free(moves);
    if (st != WT_OK) return st;
    memcpy(tour, wt_polisher_tour(whole), (size_t)n * sizeof *tour);
    return WT_OK;
}

/* The 2-opt + Or-opt first descent of a large tour that LK searches take
 * up next: its descent of the whole tour removes the start tour's long
 * edges, which LK's stretches cannot reach (from the greedy tour of 200,000
 * uniform cities, on stretches alone, LK ended 7.3% above the BHH
 * estimate). */
static wt_status plain_first_descent(const wt_instance *inst, int32_t *tour, wt_search_ctl *ctl,
                                     int T, wt_search_stats *stats, wt_error *err)
{
    wt_polisher *plain = NULL;
    wt_status st = wt_polisher_create(inst, tour, ctl, NULL, &plain, err);
    if (st != WT_OK) return st;
    st = first_descent(plain, tour, T > 1, false, false, inst->n, ctl, T, stats, err);
    wt_polisher_free(plain);
    return st;
}

/* ------------------------------------------------------------------ kicks */

/* The searches on copies of the whole tour; whole becomes search 0. */
static wt_status open_copies(wt_polisher *whole, int64_t length, wt_search_ctl *ctl, int T,
                             local_search **out, wt_error *err)
{
    local_search *s = new_searches(whole, ctl, T, err);
    if (!s) return WT_STATUS_OUT_OF_MEMORY;
    s[0].w = whole;
    wt_status st = WT_OK;
    for (int t = 1; t < T && st == WT_OK; t++) st = wt_polisher_clone(whole, &s[t].w, err);
    if (st != WT_OK) {
        s[0].w = NULL; /* whole is the caller's */
        free_searches(s, T);
        return st;
    }
    for (int t = 0; t < T; t++) s[t].best_len = s[t].shown = length;
    *out = s;
    return WT_OK;
}

static void close_copies(local_search *s, int T)
{
    if (!s) return;
    s[0].w = NULL; /* whole is the caller's */
    free_searches(s, T);
}

static uint64_t kicks_of(const local_search *s, int T)
{
    uint64_t k = 0;
    for (int t = 0; t < T; t++) k += s[t].kicks;
    return k;
}

/* Every search takes up search b's tour (or tour, when b < 0), each on its
 * own thread. */
static void copies_meet(local_search *s, int T, int b, const int32_t *tour, int64_t length)
{
    const int32_t *from = b < 0 ? tour : wt_polisher_tour(s[b].w);
    int64_t len = b < 0 ? length : s[b].best_len;
#pragma omp parallel for num_threads(T) schedule(static, 1)
    for (int t = 0; t < T; t++)
        if (t != b && (b < 0 || s[t].best_len != len)) {
            wt_polisher_adopt(s[t].w, from, len);
            s[t].best_len = s[t].shown = len;
        }
}

/* One epoch of the copies (see the top of the file), `done` kicks made
 * before it; then all take up the best, which also goes to tour and
 * *length. */
static wt_status copies_epoch(local_search *s, int T, int32_t *tour, int n, uint64_t quota,
                              wt_search_ctl *ctl, uint64_t done, int64_t *length, int *halt,
                              wt_error *err)
{
#pragma omp parallel for num_threads(T) schedule(static, 1)
    for (int t = 0; t < T; t++)
        run_epoch(s, t, T, share(quota, (uint64_t)T, (uint64_t)t), n, ctl, done, NULL, halt);
    wt_status st = WT_OK;
    for (int t = 0; t < T; t++)
        if (s[t].st != WT_OK) {
            *err = s[t].err;
            st = s[t].st;
        }
    int b = best_search(s, T);
    copies_meet(s, T, b, tour, *length);
    *length = s[b].best_len;
    memcpy(tour, wt_polisher_tour(s[b].w), (size_t)n * sizeof *tour);
    return st;
}

/* Every mix-th epoch of the stretches is a copies epoch instead, below
 * MIX_BELOW cities a stretch: there the moves that no stretch can make
 * (see the top of the file) are worth a few short epochs of copies, which
 * can (16 threads, 10 s: usa115475 0.71-0.75% against 0.91% with
 * stretches alone, ara238025 1.54-1.55% against 1.60%; at 1M and 2M
 * cities no gain).  tuning.ils_mix sets another period, for
 * measurements. */
enum { MIX_PERIOD = 4, MIX_BELOW = 30000 };

static int mix_period(const wt_tuning *t, int cap)
{
    if (t->ils_mix != 0) return t->ils_mix == WT_TUNING_OFF ? 0 : t->ils_mix;
    return cap < MIX_BELOW ? MIX_PERIOD : 0;
}

/* The pieces of the windows beside that have ended go into tour (length
 * *length), which the next epoch then starts from (wait: the last epoch,
 * asked to end). */
static void take_beside(wt_concurrent_windows *beside, int32_t *tour, int64_t *length, bool wait)
{
    int64_t gain = 0;
    wt_concurrent_splice(beside, tour, wait, &gain);
    *length -= gain;
}

/* The kicks on stretches (with copies epochs among them when mixed), from
 * the tour of length *length; the tour and *length follow. */
static wt_status kick_stretches(wt_polisher *whole, int32_t *tour, int n, wt_search_ctl *ctl,
                                int T, uint64_t kicks, bool large_lk,
                                wt_concurrent_windows *beside, int64_t *length,
                                wt_search_stats *stats, wt_error *err)
{
    stretches k;
    local_search *c = NULL;
    const wt_tuning *tune = &ctl->params->tuning;
    /* No copies of a large tour for LK searches (flips on the whole tour). */
    int mix = large_lk ? 0 : mix_period(tune, (n + T - 1) / T);
    wt_status st = open_stretches(whole, n, ctl, T, &k, err);
    if (st != WT_OK) return st;
    if (mix > 0) st = open_copies(whole, *length, ctl, T, &c, err);
    if (beside) wt_concurrent_start(beside, tour, ctl->deadline);
    uint64_t done = 0, per = stretch_epoch_kicks(tune, (n + T - 1) / T), on_copies = 0;
    int halt = 0;
    for (uint64_t e = 1; st == WT_OK && !halt && (kicks == 0 || done < kicks); e++) {
        bool copies = mix > 0 && e % (uint64_t)mix == 0;
        uint64_t quota = (uint64_t)T * (copies ? epoch_kicks(tune) : per);
        if (kicks > 0 && kicks - done < quota) quota = kicks - done;
        uint64_t on_stretches = kicks_of(k.s, T);
        if (copies) {
            copies_meet(c, T, -1, tour, *length);
            st = copies_epoch(c, T, tour, n, quota, ctl, done, length, &halt, err);
            on_copies = kicks_of(c, T);
        } else {
            int offset = stretch_offset(ctl->params->seed, e, n);
            uint64_t d = done; /* in: for the progress report; out: the stretches' kicks */
            st = stretch_epoch(&k, T, tour, n, offset, quota, ctl, &d, length, &halt, err);
            on_stretches = d;
        }
        done = on_stretches + on_copies;
        if (beside && st == WT_OK) take_beside(beside, tour, length, false);
    }
    if (beside && st == WT_OK) take_beside(beside, tour, length, true);
    add_stats(stats, k.s, T);
    if (c) add_stats(stats, c, T);
    close_copies(c, T);
    close_stretches(&k, T);
    return st;
}

/* The kicks of T searches on copies of the whole tour, meeting every epoch
 * (see the top of the file). */
static wt_status kick_copies(wt_polisher *whole, int32_t *tour, int n, wt_search_ctl *ctl, int T,
                             uint64_t kicks, int64_t *length, wt_search_stats *stats,
                             wt_error *err)
{
    local_search *s = NULL;
    wt_status st = open_copies(whole, *length, ctl, T, &s, err);
    if (st != WT_OK) return st;
    int halt = 0;
    uint64_t done = 0, epoch = epoch_kicks(&ctl->params->tuning);
    while (st == WT_OK && !halt && (kicks == 0 || done < kicks)) {
        uint64_t quota = (uint64_t)T * epoch;
        if (kicks > 0 && kicks - done < quota) quota = kicks - done;
        st = copies_epoch(s, T, tour, n, quota, ctl, done, length, &halt, err);
        done = kicks_of(s, T);
    }
    add_stats(stats, s, T);
    close_copies(s, T);
    return st;
}

/* ---------------------------------------------------------- whole tour */

/* Cities from which LK searches kick copies of the whole tour on lists
 * (kick_whole) instead of stretches or copies on arrays: on 16 threads
 * (H100 machine, 10 s, the default LK step throughout) pla85900 ended
 * 0.66% above the optimum against 0.94% on stretches, usa115475 0.46%
 * against 0.55%, ara238025 0.87% against 0.94%, d18512 0.15% against
 * 0.24%, usa13509 0.17% against 0.27% and pr2392 0.011% against 0.025% on
 * copies (bench/RESULTS.md); smaller
 * tours were not measured and keep the copies.  tuning.ils_whole sets
 * another. */
enum { WHOLE_MIN = 2000 };

static bool kick_whole_tour(const wt_tuning *t, int n)
{
    if (t->ils_whole == WT_TUNING_OFF) return false;
    return n >= (t->ils_whole ? t->ils_whole : WHOLE_MIN);
}

/* Kicks of each search between merges of the copies of the whole tour: a
 * fifth of a second or so.  Longer epochs lose more of the copies' work at
 * the merge, where two copies' changes touch a city (a copy's changes of
 * the epoch are then dropped whole): on 16 threads, 10 s (the default LK
 * step throughout), epochs of 250
 * kicks ended at 0.66% / 0.46% / 0.87% above the optimum on pla85900 /
 * usa115475 / ara238025, of 1000 at 0.67% / 0.53% / 0.94%, of 4000 at
 * 0.78% / 0.75% / 1.43%. */
enum { WHOLE_EPOCH = 250 };

/* The copies' tours and the scratch of their merge. */
typedef struct whole_merge {
    int32_t *adj;     /* T + 1 blocks of 2 n: each search's tour's neighbours, then the merge's */
    int32_t *touched; /* T blocks of n: the cities whose neighbours a search changed */
    int *count;       /* how many each */
    uint8_t *used;    /* n: a city an applied change touched */
    wt_tour_changes *cycle; /* whether the applied changes keep one cycle */
} whole_merge;

static void close_merge(whole_merge *g)
{
    free(g->adj);
    free(g->touched);
    free(g->count);
    free(g->used);
    wt_tour_changes_close(g->cycle);
}

static bool open_merge(whole_merge *g, int n, int T)
{
    *g = (whole_merge){malloc((size_t)(T + 1) * 2 * (size_t)n * sizeof(int32_t)),
                       malloc((size_t)T * (size_t)n * sizeof(int32_t)),
                       malloc((size_t)T * sizeof(int)), malloc((size_t)n),
                       wt_tour_changes_open(n)};
    if (g->adj && g->touched && g->count && g->used && g->cycle) return true;
    close_merge(g);
    return false;
}

static bool same_neighbours(const int32_t *a, const int32_t *b)
{
    return (a[0] == b[0] && a[1] == b[1]) || (a[0] == b[1] && a[1] == b[0]);
}

static void swap_neighbours(int32_t *a, int32_t *b)
{
    for (int i = 0; i < 2; i++) {
        int32_t x = a[i];
        a[i] = b[i];
        b[i] = x;
    }
}

/* The tour of n cities (tour, *length), whose copies the T searches
 * improved, gets their changes: each search's, the largest gain first,
 * where it touches no city an earlier one touched and the tour stays one
 * cycle.  A search's changes lie around the cities its kicks started from
 * (its region), so that most go in side by side.  The tour is then written
 * from city `from`. */
static void merge_copies(local_search *s, int T, whole_merge *g, int32_t *tour, int n,
                         int64_t *length, int from, wt_concurrent_windows *beside)
{
    int32_t *base = g->adj + (size_t)T * 2 * (size_t)n;
    wt_tour_neighbours(tour, n, base);
    wt_tour_changes_begin(g->cycle, tour, T);
#pragma omp parallel for num_threads(T) schedule(static, 1)
    for (int t = 0; t < T; t++) {
        int32_t *adj = g->adj + (size_t)t * 2 * (size_t)n, *touched = g->touched + (size_t)t * n;
        g->count[t] = 0;
        if (s[t].best_len >= *length) continue;
        wt_tour_neighbours(wt_polisher_tour(s[t].w), n, adj);
        for (int c = 0; c < n; c++)
            if (!same_neighbours(adj + 2 * c, base + 2 * c)) touched[g->count[t]++] = c;
    }
    memset(g->used, 0, (size_t)n);
    int64_t before = *length, gain = 0;
    for (int k = 0; k < T; k++) {
        int t = -1; /* the largest gain left */
        for (int u = 0; u < T; u++)
            if (g->count[u] > 0 && (t < 0 || s[u].best_len < s[t].best_len)) t = u;
        if (t < 0) break;
        int32_t *adj = g->adj + (size_t)t * 2 * (size_t)n;
        const int32_t *touched = g->touched + (size_t)t * n;
        int m = g->count[t];
        g->count[t] = 0;
        bool clash = false;
        for (int i = 0; i < m && !clash; i++) clash = g->used[touched[i]];
        if (clash) continue;
        /* The search's neighbours into the merge; adj keeps the merge's old. */
        for (int i = 0; i < m; i++) swap_neighbours(base + 2 * touched[i], adj + 2 * touched[i]);
        if (wt_tour_changes_try(g->cycle, base, touched, m)) {
            for (int i = 0; i < m; i++) g->used[touched[i]] = 1;
            gain += before - s[t].best_len; /* its edges are its cities' alone */
        } else {
            for (int i = 0; i < m; i++)
                swap_neighbours(base + 2 * touched[i], adj + 2 * touched[i]);
        }
    }
    wt_tour_of_neighbours(base, n, from, tour);
    /* The GPU's pieces where the host's changes left their insides between
     * their ends. */
    if (beside) wt_concurrent_splice(beside, tour, false, &gain);
    *length = before - gain;
}

/* One epoch of the T searches on copies of the tour (length `length`),
 * each on a list, search t kicking from the cities of the t-th part of
 * kick_from (m cities of the tour, in its order, at least T). */
static void whole_epoch(local_search *s, int T, const int32_t *tour, int n,
                        const int32_t *kick_from, int m, uint64_t quota, wt_search_ctl *ctl,
                        uint64_t done, int64_t length, bool adopt, int *halt)
{
#pragma omp parallel for num_threads(T) schedule(static, 1)
    for (int t = 0; t < T; t++) {
        local_search *x = &s[t];
        if (adopt) wt_polisher_adopt(x->w, tour, length);
        x->best_len = x->shown = length;
        long long lo = (long long)t * m / T, hi = (long long)(t + 1) * m / T;
        x->region = T > 1 ? kick_from + lo : NULL;
        x->region_m = (int)(hi - lo);
        x->st = wt_polisher_list_open(x->w, &x->err);
        if (x->st == WT_OK)
            run_epoch(s, t, T, share(quota, (uint64_t)T, (uint64_t)t), n, ctl, done, NULL, halt);
        else
            set_halt(halt);
        x->kicked = wt_now();
        wt_polisher_list_close(x->w); /* committed or undone after every kick */
    }
}

/* The kicks on whole-tour copies end this many times the last epoch's
 * tail (from its first search's last kick to its merge's end: the lists
 * walked back into arrays, the merge, the windows' pieces) before the
 * deadline, so that the last tail ends by it: at a million cities a tail
 * took 0.3 s on the development machine's two threads (0.15 s to walk a
 * list, as long to merge), and runs ended 0.26-0.35 s after a 60 s limit
 * on 16 threads (H100 machine) when the kicks went on to the deadline. */
#define TAIL_MARGIN 1.2

/* The kicks of T searches on copies of the whole tour held as two-level
 * lists (wt_polisher_list_open), where a flip costs O(sqrt n) wherever its
 * ends lie and a kick's repair can reach the whole tour, as in Applegate,
 * Cook & Rohe's chained LK.  With T > 1 each search kicks one part of the
 * tour, and every WHOLE_EPOCH kicks the copies' changes are merged into
 * one tour (merge_copies); the parts move with the tour's rotation, drawn
 * from the seed every epoch.  beside (NULL, or with T > 1): windows searched
 * beside, whose pieces go in at the merges. */
static wt_status kick_whole(wt_polisher *whole, int32_t *tour, int n, wt_search_ctl *ctl, int T,
                            uint64_t kicks, wt_concurrent_windows *beside, int64_t *length,
                            wt_search_stats *stats, wt_error *err)
{
    local_search *s = NULL;
    wt_status st = open_copies(whole, *length, ctl, T, &s, err);
    if (st != WT_OK) return st;
    whole_merge g = {0};
    if (T > 1 && !open_merge(&g, n, T)) {
        close_copies(s, T);
        return wt_fail(err, WT_STATUS_OUT_OF_MEMORY, "out of memory for %d copies' merge", T);
    }
    const wt_tuning *tune = &ctl->params->tuning;
    uint64_t per = tune->ils_epoch ? epoch_kicks(tune) : WHOLE_EPOCH, done = 0;
    int halt = 0;
    /* Out of memory for it: the kicks go anywhere. */
    int32_t *free_cities = beside ? malloc((size_t)n * sizeof *free_cities) : NULL;
    double tail = 0; /* the last epoch's seconds from its first search's last kick to its
                        merge's end: the last epoch ends that much earlier */
    for (uint64_t e = 1; st == WT_OK && !halt && (kicks == 0 || done < kicks); e++) {
        uint64_t quota = T == 1 ? UINT64_MAX : (uint64_t)T * per;
        if (kicks > 0 && kicks - done < quota) quota = kicks - done;
        if (beside) wt_concurrent_start(beside, tour, ctl->deadline);
        /* The kicks keep off the windows the GPU searches meanwhile. */
        int m = free_cities ? wt_concurrent_host_cities(beside, tour, free_cities) : 0;
        double until = kicks == 0 ? ctl->deadline - TAIL_MARGIN * tail : 0;
        for (int t = 0; t < T; t++) s[t].until = until;
        whole_epoch(s, T, tour, n, m >= T ? free_cities : tour, m >= T ? m : n, quota, ctl,
                    done, *length, e > 1, &halt);
        for (int t = 0; t < T; t++)
            if (s[t].st != WT_OK) {
                *err = s[t].err;
                st = s[t].st;
            }
        done = kicks_of(s, T);
        if (T > 1) {
            merge_copies(s, T, &g, tour, n, length, tour[stretch_offset(ctl->params->seed, e, n)],
                         beside);
        } else {
            memcpy(tour, wt_polisher_tour(s[0].w), (size_t)n * sizeof *tour);
            *length = s[0].best_len;
        }
        double first = s[0].kicked;
        for (int t = 1; t < T; t++) first = s[t].kicked < first ? s[t].kicked : first;
        tail = wt_now() - first;
    }
    /* The last epoch's pieces: its search ends at the deadline too. */
    if (beside && st == WT_OK)
        take_beside(beside, tour, length, true);
    add_stats(stats, s, T);
    free(free_cities);
    close_merge(&g);
    close_copies(s, T);
    return st;
}

/* ------------------------------------------------------------- entry */

/* From this many cities the LK searches repair their kicks with a broader
 * and deeper step on more candidates: breadth (5,3,2), depth 50, 12
 * candidates, the first descent with the same lists and depth but breadth
 * (3,2,1).  On 16 threads (H100 machine) pla85900 ended 2.19% / 0.60% /
 * 0.30% above the optimum at 1 / 10 / 60 s against 3.16% / 0.66% / 0.55%
 * with the default step, usa115475 4.63% / 0.47% / 0.19% against 4.11% /
 * 0.47% / 0.27%; on d18512 and usa13509 it lost at every time (0.98% /
 * 0.17% / 0.11% against 0.51% / 0.15% / 0.11%, 1.10% / 0.20% / 0.17%
 * against 0.52% / 0.17% / 0.13%; bench/RESULTS.md). */
enum { LK_DEEP_MIN = 50000 };

/* The descents' moves: the defaults (for LK from LK_DEEP_MIN cities the
 * deeper kick repairs), less what the tuning sets for LK. */
static wt_polish_moves search_moves(bool lk, const wt_tuning *t, int n)
{
    wt_polish_moves m = wt_polish_moves_default(lk);
    if (!lk) return m;
    if (n >= LK_DEEP_MIN) {
        m.candidates = 12;
        m.depth = 50;
        m.breadth[0] = 5;
        m.breadth[1] = 3;
        m.breadth[2] = 2;
    }
    if (t->lk_candidates) m.candidates = t->lk_candidates;
    if (t->lk_depth) m.depth = t->lk_depth;
    const int set[WT_LK_LEVELS] = {t->lk_breadth1, t->lk_breadth2, t->lk_breadth3};
    for (int i = 0; i < WT_LK_LEVELS; i++)
        if (set[i]) m.breadth[i] = set[i];
    return m;
}

/* The windows beside as the tuning sets them, on the GPU or (tests) the
 * host, their lists cut from whole's; every other window an epoch beside
 * searches on copies of the whole tour (the stretches' kicks have places
 * of their own). */
static wt_concurrent_opts beside_opts(const wt_device *on, const wt_params *p, int n,
                                      const wt_polisher *whole, bool whole_kicks)
{
    const wt_tuning *t = &p->tuning;
    int three_opt = n > WT_CONCURRENT_THREE_OPT_ABOVE ? WT_CONCURRENT_THREE_OPT : 0;
    wt_concurrent_opts o = {
        .device = on,
        .seed = p->seed,
        .round_s = t->ils_beside_ms ? t->ils_beside_ms / 1000.0 : WT_CONCURRENT_ROUND_S,
        .window = t->ils_window ? t->ils_window : WT_WINDOW_CITIES,
        .three_opt = t->ils_window_3opt ? t->ils_window_3opt : three_opt,
        .alternate = whole_kicks,
    };
    o.candidates = wt_polisher_candidates(whole, &o.candidates_k);
    return o;
}

wt_status wt_ils_local_run(const wt_instance *inst, int32_t *tour, wt_search_ctl *ctl,
                           bool two_opted, bool lk, const wt_device *on, uint64_t kicks,
                           wt_search_stats *stats, wt_error *err)
{
    int n = inst->n, T = ctl->threads > 0 ? ctl->threads : 1;
    wt_polisher *whole = NULL;
    wt_polish_moves moves = search_moves(lk, &ctl->params->tuning, n);
    wt_status st = wt_polisher_create(inst, tour, ctl, &moves, &whole, err);
    if (st != WT_OK) return st;
    /* The first descent with the default breadth: a broader one is slower
     * from a start tour and pays only in the kicks' repairs. */
    if (lk) wt_polisher_set_breadth(whole, wt_polish_moves_default(true).breadth);
    /* Paths keep copies of coordinates: no stretches for a matrix. */
    bool large_lk = lk && n > LK_COPIES_MAX && inst->type != WT_EXPLICIT;
    bool stretchable = (T > 1 || large_lk) && inst->type != WT_EXPLICIT;
    if (large_lk && !two_opted && listed_first(&ctl->params->tuning, n, T)) {
        st = listed_first_descent(whole, tour, inst, ctl, T, stats, err);
    } else {
        if (large_lk && !two_opted) {
            st = plain_first_descent(inst, tour, ctl, T, stats, err);
            if (st == WT_OK) wt_polisher_adopt(whole, tour, wt_tour_length(inst, tour));
        }
        if (st == WT_OK)
            st = first_descent(whole, tour, stretchable, two_opted, large_lk, n, ctl, T, stats,
                               err);
    }
    if (lk) wt_polisher_set_breadth(whole, moves.breadth); /* the kicks' */
    int64_t length = wt_polisher_length(whole);
    ctl->kicks = 0;
    bool halt = st != WT_OK || wt_ctl_report(ctl, length, stats->steps, false);
    bool at_optimum = ctl->stop == WT_STOP_DONE; /* the first descent was not cut short */
    const wt_tuning *tune = &ctl->params->tuning;
    bool whole_kicks = lk && kick_whole_tour(tune, n);
    bool on_stretches = stretchable && (n / T >= stretch_min(tune, lk) || large_lk);
    /* Windows beside the searches whose epochs end in the whole tour. */
    wt_concurrent_windows *beside = NULL;
    wt_concurrent_opts bo = beside_opts(on, ctl->params, inst->n, whole, whole_kicks);
    if (!halt && on && kicks == 0 && T > 1 &&
        (whole_kicks || on_stretches))
        st = wt_concurrent_open(inst, &bo, &beside, err);
    if (!halt && st == WT_OK) {
        if (whole_kicks)
            st = kick_whole(whole, tour, n, ctl, T, kicks, beside, &length, stats, err);
        else if (on_stretches)
            st = kick_stretches(whole, tour, n, ctl, T, kicks, large_lk, beside, &length, stats,
                                err);
        else
            st = kick_copies(whole, tour, n, ctl, T, kicks, &length, stats, err);
    }
    stats->gpu_time_s += wt_concurrent_gpu_s(beside);
    if (wt_concurrent_started_at(beside) > 0)
        stats->gpu_span_s = wt_now() - wt_concurrent_started_at(beside);
    wt_concurrent_close(beside);
    ctl->kicks = stats->kicks;
    /* The bookkeeping's invariant (checked in debug builds, the sanitizer
     * tests among them): the length kept is the tour's. */
    assert(st != WT_OK || length == wt_tour_length(inst, tour));
    /* As ils.c: kicking until the time limit ends normally there. */
    if (kicks == 0 && at_optimum && ctl->stop == WT_STOP_TIME_LIMIT) ctl->stop = WT_STOP_DONE;
    wt_polisher_free(whole);
    return st;
}
