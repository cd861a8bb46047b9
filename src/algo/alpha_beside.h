/*
 * alpha_beside.h - the Held-Karp ascent on a GPU's ascent slot in a
 * thread of its own while the search goes on: for its bound alone, or for
 * its alpha lists while the host's threads run a descent that needs none.
 *
 * Where the search keeps its own lists and wants only the proven bound
 * (WT_ALPHA_BOUND, and the local descents of large tours), waiting for
 * the ascent would idle every host thread for its length (1.3 s at a
 * million cities on the GPU), and the GPU sits idle while the host's
 * first descent runs.  Here the ascent runs beside: one host thread
 * drives the GPU's slot (it mostly waits on the device), with its own
 * search control, so that it never calls the search's progress callback;
 * it stops at the search's deadline, or when the search ends and asks it
 * to (the search's stop flag ends the search, which then asks).  For the
 * bound alone its candidate lists are not kept; for the lists (the k-opt
 * step's on a large tour, whose 2-opt + Or-opt first descent needs none)
 * the caller takes the whole ascent when it needs it
 * (wt_alpha_beside_take).  Where the GPU's slot refuses the
 * instance (too little free memory), the host's ascent runs in its place
 * on the thread's few host threads, as wt_alpha_run falls back, where the
 * caller gives a host plan; without one, no bound.
 */
#ifndef WT_ALGO_ALPHA_BESIDE_H
#define WT_ALGO_ALPHA_BESIDE_H

#include "algo/alpha.h"
#include "backend/backend.h"
#include "core/search_ctl.h"

typedef struct wt_alpha_beside wt_alpha_beside;

/* Starts the ascent of inst on device dev (a GPU's, not the host's) as
 * *plan says (*host_plan on the host, where the GPU refuses it; NULL:
 * none), k alpha-nearness candidates a city (1 <= k < n; 0: for the bound
 * alone), with `threads` host threads for its graph, stopping at ctl's
 * deadline at the latest; *out the running ascent, or NULL where it could
 * not start (no memory, no thread): the search then has no bound (nor
 * lists).  inst, dev and ctl->params must outlive it. */
void wt_alpha_beside_start(const wt_instance *inst, const wt_device *dev,
                           const wt_search_ctl *ctl, const wt_alpha_plan *plan,
                           const wt_alpha_plan *host_plan, int k, int threads,
                           wt_alpha_beside **out);

/* The bound b has proven so far (0: none yet), from any thread: a
 * wt_search_ctl.bound_source for the search's reports. */
int64_t wt_alpha_beside_bound(const void *b);

/* Stops the ascent where it still runs (stop; else lets it end by its
 * plan, its deadline or the search's stop flag), waits for its thread, and
 * puts what it completed into stats (its bound, device, steps and seconds;
 * nothing where it was stopped before its bound or failed); frees it.
 * NULL is a no-op. */
void wt_alpha_beside_end(wt_alpha_beside *b, bool stop, wt_search_stats *stats);

/* Stops the ascent where it still runs (stop; else waits for it to end by
 * its plan, its deadline or the search's stop flag), waits for its thread
 * and hands what it completed to *out, as wt_alpha_run would have (its
 * lists NULL and lower_bound -1 where it was stopped before them); frees
 * b.  Its status: WT_OK, or the error wt_alpha_run met (in *err). */
wt_status wt_alpha_beside_take(wt_alpha_beside *b, bool stop, wt_alpha *out, wt_error *err);

#endif
