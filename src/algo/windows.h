/*
 * windows.h - the window search of one large tour.
 *
 * The tour is cut into windows of consecutive positions; each window is a
 * path whose two ends stay in place, searched as a small instance of its
 * own by the batch search (core/batch_search.h) with its ends joined by a
 * fixed edge that no move and no kick removes.  The windows of a round are
 * one batch: on the GPU thousands run at once, on the CPU one a thread;
 * both take the same steps, so a window's path is the same on either (for
 * the same seed and kick budget).  The improved paths are put back, and
 * the next round cuts the tour elsewhere, so that what lay across a cut is
 * inside a window then.
 */
#ifndef WT_ALGO_WINDOWS_H
#define WT_ALGO_WINDOWS_H

#include <stdbool.h>
#include <stdint.h>

#include "algo/devices.h"
#include "algo/policy.h" /* the defaults: WT_WINDOW_CITIES, ... */
#include "backend/backend.h"
#include "core/search_ctl.h"
#include "warptour.h"

/* What one round is asked to do. */
/* Resident windows: the instance and its candidate lists kept on each
 * GPU of a round (the backends' windows_open), so that a round makes its
 * windows there instead of cutting them into instances on the host
 * (bench/RESULTS.md, "Resident windows (concurrent windows)"). */
typedef struct wt_windows_resident_set wt_windows_resident_set;

typedef struct wt_windows_opts {
    int window;               /* cities a window, >= 8 (the last windows take
                                 the remainder: each has window .. 2 window - 1
                                 cities; a tour of fewer is one window) */
    int offset;               /* the position where the first window starts,
                                 0 .. n - 1 */
    uint64_t kicks;           /* kicks a window; 0: until time_limit_s */
    double time_limit_s;      /* with kicks 0: the round's seconds, > 0 */
    uint64_t seed;            /* the windows' random streams */
    int replicas;             /* searches of each window, each with its own
                                 kicks, the shortest put back; 0: enough for
                                 WT_WINDOW_FILL searches in all (a GPU holds
                                 hundreds at once), at most
                                 WT_WINDOW_MAX_REPLICAS (wt_windows_replicas) */
    int stride, phase;        /* the windows searched: those w with w % stride
                                 == phase (0 <= phase < stride); stride 0 or
                                 1: all; the others stay as they are */
    int kick_window;          /* positions a kick's cuts lie within (>= 3); 0: the
                                 whole window (the callers' choice) */
    int three_opt;            /* the windows' sequential 3-opt moves, with
                                 kicks of four edges (wt_batch_params.three_opt):
                                 0 or WT_TUNING_OFF: none; else 1..8 (the
                                 callers' defaults: WT_WINDOW_THREE_OPT,
                                 WT_CONCURRENT_THREE_OPT) */
    const int32_t *candidates; /* optional: the large instance's candidate
                                 lists, n rows of candidates_k cities, the
                                 better first, -1 for none; a window's lists
                                 are then its cities' entries that lie in the
                                 window, the first WT_BATCH_NEIGHBOURS of
                                 each row.  NULL: each window computes its
                                 own nearest cities, more slowly
                                 (bench/RESULTS.md, "Why the windows' neighbour
                                 lists are cut from the host's candidates") */
    int candidates_k;
    const wt_device *device;  /* where the windows are searched (the host
                                 takes those that do not fit it), chosen and
                                 checked by the caller: the host's device
                                 (wt_device_host) or a usable GPU */
    const wt_device_set *devices; /* optional: several GPUs (algo/devices.h,
                                 device the first) that the round's windows
                                 are dealt over, all searching at once, and
                                 that WT_WINDOW_FILL fills each; NULL: device
                                 alone */
    int threads;              /* CPU threads; 0: all cores */
    const volatile int *stop_flag; /* optional */
    wt_windows_resident_set *resident; /* optional, with candidates: the round
                                 runs on these resident windows (opened for
                                 this instance, these candidates and o's
                                 devices), none of its windows cut on the
                                 host; the same tours as without */
} wt_windows_opts;

/* What a round did. */
typedef struct wt_windows_round {
    int windows;              /* windows searched (o->stride's share) */
    int improved;             /* windows whose path got shorter */
    int64_t gain;             /* exact: the tour's length before minus after */
    uint64_t kicks;           /* all windows */
    int on_gpu;               /* windows the GPU searched */
    int replicas;             /* searches of each window */
    double gpu_s;             /* seconds the GPU's kernels ran (CUDA events) */
    double search_s;          /* seconds of the batch call */
    double wall_s;            /* seconds of the whole round (cutting and
                                 putting back too) */
} wt_windows_round;

/* The windows a round cuts a tour of n cities into with windows of
 * `window` cities (window .. 2 window - 1 each, at least one window), and
 * the first position of window w counted from the offset (w = count: n). */
int wt_windows_count(int n, int window);
int wt_windows_first(int n, int count, int w);
/* Whether a round as o asks searches window w (o->stride, o->phase). */
bool wt_windows_searched(const wt_windows_opts *o, int w);

/* One round on tour (n cities of inst, changed in place): the windows cut
 * at o->offset are searched and each path that got shorter is put back, its
 * ends where they were.  The tour stays valid whatever happens; on failure
 * it is unchanged.  EXPLICIT instances are searched with sub-matrices of
 * window^2 entries. */
wt_status wt_windows_round_run(const wt_instance *inst, int32_t *tour, const wt_windows_opts *o,
                               wt_windows_round *out, wt_error *err);

/* Resident windows for rounds on device (and the other GPUs of devices,
 * if given, as wt_windows_opts's) of tours of inst with windows of up to
 * `most` cities, their lists cut from cand (n rows of ck, the
 * wt_windows_opts candidates the rounds will name).  WT_STATUS_UNSUPPORTED
 * where a device has none or refuses them (its metric, its memory): the
 * rounds then cut their windows on the host.  *out NULL on failure. */
wt_status wt_windows_resident_open(const wt_instance *inst, const wt_device *device,
                                   const wt_device_set *devices, const int32_t *cand, int ck,
                                   int most, wt_windows_resident_set **out, wt_error *err);
void wt_windows_resident_close(wt_windows_resident_set *r); /* NULL is fine */

/* Searches of each window of a tour of n cities that o asks for. */
int wt_windows_replicas(const wt_windows_opts *o, int n);

/* The position where round e of a search seeded with seed cuts a tour of n
 * cities: uniform over the tour, from (seed, e) alone. */
int wt_windows_offset(uint64_t seed, uint64_t e, int n);

/* The window search of a whole run (ILS with window descents): rounds from
 * random cuts (wt_windows_offset of params.seed and the round), each as
 * long as WT_WINDOW_MIN_ROUND_S or WT_WINDOW_ROUND_OVERHEADS times the last
 * round's cutting and putting back, until ctl's deadline or stop; without
 * a time limit WT_WINDOW_UNTIMED_ROUNDS rounds of window /
 * WT_WINDOW_UNTIMED_CITIES_PER_KICK kicks a window (window 0:
 * WT_WINDOW_CITIES cities).  tour (valid, changed in place) is the result
 * at every point.  With a time limit and handover > 0 (the caller's:
 * WT_WINDOW_HANDOVER), the search ends early, *handed_over set, once a
 * round gains less than handover times the tour's length a second of the
 * round: the moves left lie between windows (parts of the tour far apart
 * in it but near in the plane never share a window), for the host's
 * searches to make.  With a device list in ctl->params (params.devices)
 * and a GPU as device, each round's windows are dealt over the list's
 * usable GPUs (wt_devices_expand; device is the first).
 * stats: kicks, steps (windows improved), passes (rounds), gpu_time_s. */
wt_status wt_windows_search(const wt_instance *inst, int32_t *tour, wt_search_ctl *ctl,
                            const wt_device *device, int window, double handover,
                            bool *handed_over, wt_search_stats *stats, wt_error *err);

#endif
