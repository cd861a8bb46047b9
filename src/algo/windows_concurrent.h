/*
 * windows_concurrent.h - concurrent windows: a device's window searches of
 * one large tour, running while the host's threads search it.
 *
 * While the host's threads kick copies of the whole tour (ils_local.c), a
 * device (the GPU) searches windows of the tour (windows.h), a second or
 * so at a time, round after round on a thread of its own.  A round's
 * changes are cut into independent improved paths: each replaces the path
 * between two cities that kept their places with a shorter path through
 * the same cities.  At the host's merges, the improved paths of the
 * finished rounds are spliced into the tour alongside the host's changes,
 * each where its inner cities still lie between its two ends as one path
 * (in any order) longer than the improved one.  The next round starts as
 * soon as one ends, from the tour of the host's last merge with the
 * improved paths of the rounds it has not spliced yet.  So the device waits
 * for the host's merges only where several rounds wait for them (o.ahead),
 * they never for it, and a splice never undoes the host's work: an improved
 * path is dropped where the two met.
 *
 * A round's work depends on when it starts, so runs with concurrent
 * windows are not reproducible; the caller uses them under a time limit
 * only.
 */
#ifndef WT_ALGO_WINDOWS_CONCURRENT_H
#define WT_ALGO_WINDOWS_CONCURRENT_H

#include <stdbool.h>
#include <stdint.h>

#include "algo/policy.h" /* the defaults: WT_CONCURRENT_ROUND_S, ... */
#include "backend/backend.h"
#include "core/search_ctl.h"
#include "warptour.h"

typedef struct wt_concurrent_windows wt_concurrent_windows;

typedef struct wt_concurrent_opts {
    const wt_device *device; /* where the windows are searched: a usable GPU, or
                                the host's device (one host thread, the same
                                search, for tests); copied at open */
    uint64_t seed;   /* the rounds' cuts and kicks are drawn from it */
    double round_s;  /* a round's seconds, > 0 (WT_CONCURRENT_ROUND_S) */
    int window;      /* cities a window, >= 8 (WT_WINDOW_CITIES) */
    int three_opt;   /* the windows' 3-opt moves (wt_windows_opts;
                        WT_CONCURRENT_THREE_OPT) */
    const int32_t *candidates; /* optional: the host's candidate lists (n rows of
                                  candidates_k, read while the rounds run), which
                                  the windows' lists are cut from (windows.h);
                                  NULL: each window's nearest cities, computed on
                                  the rounds' thread */
    int candidates_k;
    bool alternate;  /* every other window a round (the others the next), and
                        the host's kicks kept off them meanwhile
                        (wt_concurrent_host_cities); else every window */
    const int *devices; /* optional: params.devices and params.device_count
                           (copied at open): with device a GPU, each round's
                           windows are dealt over the list's usable GPUs
                           (algo/devices.h; device first), all searching at
                           once; count 0: device alone */
    int device_count;
    int host_threads; /* the host's threads, which its splices (between its
                        rounds: they wait meanwhile) run on; 0 or 1: one */
    bool resident;   /* on a GPU with candidates: the rounds on resident
                        windows (windows.h) where the GPUs keep them */
    int ahead;       /* rounds searched and not yet spliced by the host, at
                        most, after which the rounds wait for its splice: 0
                        the default (WT_CONCURRENT_AHEAD), else 1 to
                        WT_CONCURRENT_AHEAD_MAX */
    const int32_t *fixed; /* optional: the fixed edges as two cities a city
                        (-1: none; core/fixed_edges.h), which no splice
                        removes: a path that would is dropped; NULL: none */
    int64_t ahead_cities; /* and no round starts while the improved paths of
                        those rounds hold this many cities or more: 0 the
                        default (WT_CONCURRENT_AHEAD_TOURS tours' cities),
                        else >= 1; so the records' memory stays a few tours'
                        worth however many rounds may wait */
} wt_concurrent_opts;

/* Concurrent windows for tours of inst (n >= 8 cities), as o says.  *out
 * NULL on failure. */
wt_status wt_concurrent_open(const wt_instance *inst, const wt_concurrent_opts *o,
                             wt_concurrent_windows **out, wt_error *err);

/* Starts the rounds from tour (valid, n cities) unless they were started:
 * each search ends after the round's length (longer where its set-up would
 * leave the device less than half of it) or at deadline (monotonic
 * seconds, wt_now), whichever comes first, and none starts with less than
 * WT_CONCURRENT_MIN_LEFT_S and its set-up (as long as the last one's)
 * left. */
void wt_concurrent_start(wt_concurrent_windows *cw, const int32_t *tour, double deadline);

/* Whether the rounds run, or one ended that has not been spliced. */
bool wt_concurrent_running(wt_concurrent_windows *cw);

/* Splices the improved paths of the rounds that have ended and were not
 * spliced (wait: asks the rounds to end and waits for them) into tour (n
 * cities in tour order, a valid tour, and still so after; any rotation)
 * where they fit and gain (above), the older round's first, and adds
 * their exact gain to *gain; tour is then the one the next round starts
 * from.  Returns false where nothing was spliced: no round ended, or one
 * failed (on the GPU: out of memory, a device error), after which no round
 * starts again and the host's searches go on alone. */
bool wt_concurrent_splice(wt_concurrent_windows *cw, int32_t *tour, bool wait, int64_t *gain);

/* With o->alternate, while a round runs: the cities of tour (n) outside
 * its windows, in tour order, into out (n entries), for the host's kicks;
 * returns how many, 0 when no round runs (the whole tour is the host's). */
int wt_concurrent_host_cities(wt_concurrent_windows *cw, const int32_t *tour, int32_t *out);

/* Seconds the device's kernels ran, and rounds spliced, so far; when the
 * first round started (wt_now's clock; 0 before). */
double wt_concurrent_gpu_s(const wt_concurrent_windows *cw);
uint64_t wt_concurrent_rounds(const wt_concurrent_windows *cw);
double wt_concurrent_started_at(const wt_concurrent_windows *cw);

/* Rounds so far that started from the last round's result while that
 * round's improved paths were cut (above: the device does not wait for
 * the cut). */
uint64_t wt_concurrent_chained(wt_concurrent_windows *cw);

/* The GPUs the rounds are dealt over, as wt_devices_expand describes them
 * ("2 GPUs: NVIDIA H200 ×2"), into out; empty where they run on one device
 * or have not begun. */
void wt_concurrent_devices_named(wt_concurrent_windows *cw, char *out, size_t size);

/* Ends the rounds (a running one's work is lost) and frees cw; NULL is
 * fine. */
void wt_concurrent_close(wt_concurrent_windows *cw);

#endif
