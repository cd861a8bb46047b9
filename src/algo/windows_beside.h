/*
 * windows_beside.h - the GPU's window searches beside the host's searches
 * of one large tour (issue 25, part 1).
 *
 * While the host's threads kick copies of the whole tour (ils_local.c), the
 * GPU searches windows of the tour (windows.h), a second or so at a time,
 * epoch after epoch on a thread of its own.  An epoch's changes are cut
 * into independent pieces: a piece replaces the path between two cities
 * that kept their places with a shorter path through the same cities.  At
 * the host's merges, the pieces of the finished epochs go into the tour
 * beside the host's changes, each where its inside still lies between its
 * two ends as one path (in any order) longer than the piece's.  The
 * next epoch starts as soon as one ends, from the tour of the host's last
 * merge with the finished epoch's pieces in.  So the GPU never waits for
 * the host's merges, nor they for it, and a piece never undoes the host's
 * work: it is dropped where the two met.
 *
 * An epoch's work depends on when it starts, so runs with windows beside
 * are not reproducible; the caller uses them under a time limit only.
 */
#ifndef WT_ALGO_WINDOWS_BESIDE_H
#define WT_ALGO_WINDOWS_BESIDE_H

#include <stdbool.h>
#include <stdint.h>

#include "core/search_ctl.h"
#include "warptour.h"

typedef struct wt_beside wt_beside;

typedef struct wt_beside_opts {
    wt_backend_kind backend; /* WT_BACKEND_CUDA: on the GPU cuda_device; WT_BACKEND_CPU:
                                one host thread, the same search (for tests) */
    int cuda_device;
    uint64_t seed;   /* the epochs' cuts and kicks are drawn from it */
    double epoch_s;  /* an epoch's seconds, > 0 (WT_BESIDE_EPOCH_S) */
    int window;      /* cities a window, >= 8 (WT_WINDOW_CITIES) */
    int three_opt;   /* the windows' 3-opt moves (wt_windows_opts) */
    const int32_t *candidates; /* optional: the host's candidate lists (n rows of
                                  candidates_k, read while the epochs run), which
                                  the windows' lists are cut from (windows.h);
                                  NULL: each window's nearest cities, computed on
                                  the epochs' thread */
    int candidates_k;
    bool alternate;  /* every other window an epoch (the others the next), and
                        the host's kicks kept off them meanwhile
                        (wt_beside_free); else every window */
} wt_beside_opts;

/* Windows beside the host's searches for tours of inst (n >= 8 cities), as
 * o says.  *out NULL on failure. */
wt_status wt_beside_open(const wt_instance *inst, const wt_beside_opts *o, wt_beside **out,
                         wt_error *err);

/* Starts the epochs from tour (valid, n cities) unless they were started:
 * each search ends after the epoch's length (longer where its set-up would
 * leave the GPU less than half of it) or at deadline (monotonic seconds,
 * wt_now), whichever comes first, and none starts with less than a tenth
 * of a second and its set-up (as long as the last one's) left. */
void wt_beside_start(wt_beside *b, const int32_t *tour, double deadline);

/* Whether the epochs run, or one ended that has not been taken in. */
bool wt_beside_running(wt_beside *b);

/* The pieces of the epochs that have ended and were not taken in (wait:
 * asks the epochs to end and waits for them) go into tour (n cities in
 * tour order, a valid tour, and still so after; any rotation) where they
 * fit and gain (above), the older epoch's first, and their exact gain is
 * added to *gain; tour is then the one the next epoch starts from.
 * Returns false where nothing was taken in: no epoch ended, or one failed
 * (on the GPU: out of memory, a device error), after which no epoch starts
 * again and the host's searches go on alone. */
bool wt_beside_take(wt_beside *b, int32_t *tour, bool wait, int64_t *gain);

/* With o->alternate, while an epoch runs: the cities of tour (n) outside
 * its windows, in tour order, into out (n entries); returns how many, 0
 * when no epoch runs (the whole tour is the host's). */
int wt_beside_free(wt_beside *b, const int32_t *tour, int32_t *out);

/* Seconds the GPU's kernels ran, and epochs taken in, so far; when the
 * first epoch started (wt_now's clock; 0 before). */
double wt_beside_gpu_s(const wt_beside *b);
uint64_t wt_beside_epochs(const wt_beside *b);
double wt_beside_started_at(const wt_beside *b);

/* Ends the epochs (a running one's work is lost) and frees b; NULL is fine. */
void wt_beside_close(wt_beside *b);

/* An epoch's seconds: long enough that its set-up and the cutting into
 * pieces take a small share of it (the GPU idles then), short enough that
 * the host's merges change few of its windows' cities meanwhile. */
#define WT_BESIDE_EPOCH_S 1.0

/* The windows' 3-opt breadth by default (wt_windows_opts.three_opt), on
 * tours of more than WT_BESIDE_THREE_OPT_ABOVE cities: a million cities at
 * 10, 30 and 60 s, 7 runs of 7, 0.005-0.064% shorter; on pla85900,
 * usa115475 and ara238025 at 10 s, no shorter (bench/RESULTS.md). */
enum { WT_BESIDE_THREE_OPT = 5, WT_BESIDE_THREE_OPT_ABOVE = 250000 };

#endif
