/*
 * windows_beside.h - the GPU's window searches beside the host's searches
 * of one large tour (issue 25, part 1).
 *
 * While the host's threads kick copies of the whole tour (ils_local.c), the
 * GPU searches windows of the tour as it was at the start of its epoch
 * (windows.h), a second or so at a time.  The windows' changes are cut into
 * independent pieces: a piece replaces the path between two cities that
 * kept their places with a shorter path through the same cities.  At the
 * host's merges, the pieces of a finished epoch whose old paths the merges
 * have left whole go into the tour beside the host's changes, and the next
 * epoch starts from the merged tour.  So the GPU never waits for the
 * host's epochs, nor they for it, and a piece never undoes the host's
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

/* Windows beside the host's searches for tours of inst (n >= 8 cities),
 * searched on backend (WT_BACKEND_CUDA: the GPU cuda_device; WT_BACKEND_CPU:
 * one host thread, the same search, for tests); epochs seeded from seed.
 * *out NULL on failure. */
wt_status wt_beside_open(const wt_instance *inst, wt_backend_kind backend, int cuda_device,
                         uint64_t seed, wt_beside **out, wt_error *err);

/* Starts an epoch from tour (valid, n cities) unless one runs: its search
 * ends after the epoch's length (WT_BESIDE_EPOCH_S) or at deadline
 * (monotonic seconds, wt_now), whichever comes first.  An epoch that would
 * be shorter than a tenth of a second is not started. */
void wt_beside_start(wt_beside *b, const int32_t *tour, double deadline);

/* Whether an epoch was started and has not been taken in (wt_beside_take). */
bool wt_beside_running(const wt_beside *b);

/* If the epoch has ended (wait: asks it to end and waits for it), its
 * pieces whose old paths are whole in adj (the tour's two neighbours of
 * every city, 2 n entries, one cycle through all cities, and still so
 * after) go into it, and their exact gain is added to *gain.  Returns
 * false where nothing was taken in: no epoch ended, or it failed (on the
 * GPU: out of memory, a device error), after which no epoch starts again
 * and the host's searches go on alone. */
bool wt_beside_take(wt_beside *b, int32_t *adj, bool wait, int64_t *gain);

/* Seconds the GPU's kernels ran, and epochs taken in, so far. */
double wt_beside_gpu_s(const wt_beside *b);
uint64_t wt_beside_epochs(const wt_beside *b);

/* Ends a running epoch (its work is lost) and frees b; NULL is fine. */
void wt_beside_close(wt_beside *b);

/* An epoch's seconds: long enough that its set-up and the putting back take
 * a small share of it (the GPU idles then), short enough that the host's
 * merges change few of its windows' cities meanwhile. */
#define WT_BESIDE_EPOCH_S 1.0

#endif
