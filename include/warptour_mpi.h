/*
 * warptour_mpi.h - warptour over several processes and machines (MPI).
 *
 * The entry points below take an MPI communicator and are collective: every
 * rank of it calls the same function with the same arguments (but where
 * said otherwise), and every rank returns the same status.  They live in
 * libwarptour_mpi (built where CMake finds MPI: WT_MPI=AUTO or ON), beside
 * libwarptour, so that a program without MPI never needs mpi.h; the
 * library's conventions (warptour.h) hold here too.  docs/mpi.md says when
 * ranks help and how to run them.
 *
 * Failures: a rank whose part fails makes every rank return that failure,
 * the message beginning "rank R of P: " (the lowest failing rank's); no
 * rank waits for one that failed.  A rank that dies (killed, crashed) is
 * MPI's to report: Open MPI's mpirun then ends the whole job, naming the
 * rank.  The ranks are expected to be alike (the same byte order and type
 * sizes): tours and results travel as bytes.
 *
 * One machine, several ranks: mpirun gives every rank the same arguments,
 * so each entry point shares a machine out among the ranks of comm that run
 * on it.  Of S such ranks, the one of local index L (MPI's shared-memory
 * split) runs threads 0 (all cores) as cores / S threads (at least 1), and,
 * where the parameters name no device list (device_count 0), on GPU
 * (cuda_device + L) mod the machine's GPUs: one GPU a rank.  A thread count
 * or a device list given is kept as given.
 */
#ifndef WARPTOUR_MPI_H
#define WARPTOUR_MPI_H

#include <mpi.h>

#include "warptour.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ----------------------------------------------------------------- batches */

/* The rank of comm (of size ranks) that solves instance i of a batch:
 * i mod size, so that a batch sorted by size still spreads its large
 * instances evenly. */
int wt_mpi_batch_owner(int i, int size);

/* wt_solve_batch over the ranks of comm: instance i is solved on rank
 * wt_mpi_batch_owner(i, size), with params as given (each rank its own
 * threads and GPU, params.cuda_device its own), as instance i of the whole
 * batch: its random stream is (seed, i), so the tours are those one
 * process gives for the same seed and kick budget.  insts[i] need only be
 * given (non-NULL) on the rank that owns it; an owned NULL entry gets its
 * failure as in wt_solve_batch.  params.time_limit_s bounds each rank's
 * share (the ranks start together); params.stop_flag and the progress
 * callback are each rank's own (a rank's instances then keep their best
 * tours so far).  On rank root, res receives every instance's tour in the
 * instances' order and the totals (kicks, failed, on_gpu; stop: the most
 * severe of the ranks'; time_s: root's whole call; device: "P ranks: "
 * and the first solving rank's device); on the other ranks res is zeroed
 * (count 0).  Errors as wt_solve_batch's, agreed by every rank; count,
 * root and comm must be the same on every rank
 * (WT_STATUS_INVALID_ARGUMENT where a rank sees them wrong). */
wt_status wt_mpi_solve_batch(MPI_Comm comm, int root, const wt_instance *const *insts, int count,
                             const wt_batch_params *params, wt_batch_result *res, wt_error *err);

/* ------------------------------------------------------- one instance */

/* How the ranks share the search of one instance (wt_mpi_solve). */
typedef enum wt_mpi_mode {
    WT_MPI_AUTO = 0,  /* parts from WT_MPI_PARTS_CITIES cities on (from
                         WT_MPI_PARTS_GPU_CITIES where a GPU would serve
                         the root's search), where the parts' searches can
                         run; islands otherwise */
    WT_MPI_ISLANDS,   /* every rank searches the whole tour; the tours merge */
    WT_MPI_PARTS      /* every rank searches its share of the tour */
} wt_mpi_mode;

/* WT_MPI_AUTO's threshold: parts from this many cities on.  A policy from
 * two measurements (docs/mpi.md, "Which mode"): at 200,000 cities islands
 * gave the shorter tour (each rank got well past its first descent, and
 * the merges of several local optima gain much), at 1,000,000 parts (no
 * island finished its first descent); this lies between, unmeasured. */
#define WT_MPI_PARTS_CITIES 500000
/* ... and from this many where a GPU serves each rank (islands descend
 * the whole tour on every rank).  Measured at ten million cities on two
 * H200s (docs/mpi.md): parts 0.90% above the BHH estimate at 120 s,
 * islands 1.22%.  Where the two cross below that is not measured; this is
 * the size from which the GPU's first descent splits
 * (WT_DESCENT_SPLIT_CITIES), taken for it. */
#define WT_MPI_PARTS_GPU_CITIES 2000000

/* "auto", "islands", "parts"; NULL for an out-of-range value. */
const char *wt_mpi_mode_name(wt_mpi_mode mode);

/* How wt_mpi_solve's ranks meet. */
typedef struct wt_mpi_params {
    wt_mpi_mode mode;      /* default WT_MPI_AUTO */
    double epoch_s;        /* seconds of search between meetings, where
                              params.kicks is 0 and a time limit is set;
                              0 (default): an eighth of the time limit, at least
                              1 s.  The first epoch lasts until its first
                              descent ended (and one kick), the later ones at
                              least as long as the first */
    uint64_t epoch_kicks;  /* kicks each rank makes between meetings, where
                              params.kicks is set; 0 (default): a quarter of
                              params.kicks (at least 1) */
    int root;              /* the rank that merges and returns the tour (default 0) */
} wt_mpi_params;

/* Fills p with the defaults above; NULL is a no-op. */
void wt_mpi_params_defaults(wt_mpi_params *p);

/* One instance searched by every rank of comm, in epochs between which the
 * ranks meet; mp->mode says how they share it.
 *
 * Islands (WT_MPI_ISLANDS): every rank runs wt_solve's ILS for an epoch
 * from the same start tour with a seed of its own (rank 0's first epoch:
 * params.seed).  At the end of each epoch the root gathers the ranks'
 * tours and merges them into the best so far by partition crossover (GPX:
 * a child never longer than the shorter parent, often shorter), which
 * becomes every rank's next start; each rank other than the root first
 * kicks it (a random double bridge of its own), so that the islands search
 * apart.  Each rank builds its candidate lists once, in its first epoch, and
 * a later epoch's first descent starts from the cities whose tour
 * neighbours differ from the rank's last tour alone.
 *
 * Parts (WT_MPI_PARTS): the root holds the whole tour (params.start_tour,
 * else params.init's start tour, built on the root); each epoch it cuts the
 * tour into as many consecutive paths as there are ranks (fewer, of at
 * least 8 cities each, for small instances), and each rank searches its
 * path with both ends fixed (wt_solve's open path from its first city to
 * its last: ILS with LK or local descents on the host, with its GPU's
 * concurrent windows where a closed tour's search would have them) as an
 * instance of its own.  The root puts the paths back (each over the same cities with
 * the same ends: the tour stays one cycle, its length changes by the
 * paths' exact differences; a path that came back longer is not taken).
 * The cuts move every epoch (by the golden ratio of a path's length, so
 * that no cut lies near a recent one), so what lay across a cut is inside
 * a path later.  The ranks' work is 1/P of the tour each, which islands
 * cannot give, but no move joins two parts of the tour that never share a
 * path (cities near in the plane, far apart in the tour).
 *
 * Epochs: with params.kicks > 0, each rank makes params.kicks kicks in all,
 * mp->epoch_kicks an epoch, and without a time limit the run repeats
 * exactly for the same seed, ranks and threads; with params.kicks 0 and a
 * time limit, epochs of mp->epoch_s seconds; with neither, islands run one
 * epoch of wt_solve's own budget, parts four (each path wt_solve's own
 * budget for its cities).  params.time_limit_s is the whole call's, every
 * epoch, meeting and (parts) the root's start tour included (the ranks
 * start together); a rank's stop flag or progress callback ending its
 * epoch ends the run at the next meeting (stop WT_STOP_INTERRUPTED).  The
 * progress callback sees the whole run's elapsed time, kicks (this rank's)
 * and a best length: islands the best tour so far, parts the whole tour's
 * length as of the last meeting with this rank's path as it is now (never
 * rising; the root's last report, after the final meeting, is the
 * result's length).
 *
 * On the root, res gets the best tour with its exact length (lower_bound -1,
 * steps and ils.kicks summed over ranks and epochs, stop the most severe of
 * the ranks' last epochs, time_s the whole call; device "P ranks, MODE: "
 * and the root's device, MODE the mode that ran); elsewhere res is zeroed.
 * mp may be NULL (the defaults).  Refused with WT_STATUS_UNSUPPORTED: other
 * algorithms than ILS, open paths (params.open, end_city) and asymmetric
 * instances; parts also refuse what an open path's search refuses (other
 * descents than auto, lk and local, the cuda backend) and instances with
 * fixed edges.  params.start_city rotates the final tour.  Otherwise
 * errors as wt_solve's, agreed by every rank; mp->mode and mp->root must
 * be the same on every rank. */
wt_status wt_mpi_solve(MPI_Comm comm, const wt_instance *inst, const wt_params *params,
                       const wt_mpi_params *mp, wt_result *res, wt_error *err);

#ifdef __cplusplus
}
#endif
#endif /* WARPTOUR_MPI_H */
