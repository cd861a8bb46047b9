/*
 * mpi_schedule.h - the epochs' budgets of wt_mpi_solve's two modes
 * (islands, mpi_islands.c; parts, mpi_parts.c): how much of the run's
 * kicks or seconds an epoch's search gets, each rank's seed for it, and
 * the root's decision at a meeting whether another epoch follows.
 *
 * A run is split by kicks (params.kicks > 0: epochs of epoch_kicks kicks,
 * wt_mpi_params.epoch_kicks or a quarter of the kicks), else by time
 * (a time limit: epochs of wt_mpi_params.epoch_s seconds, or an eighth of
 * the limit and at least 1 s), else into a fixed number of epochs.  The
 * functions take the clock's readings (MPI_Wtime) as arguments and call no
 * MPI themselves.
 */
#ifndef WT_MPI_SCHEDULE_H
#define WT_MPI_SCHEDULE_H

#include <stdbool.h>
#include <stdint.h>

#include "warptour_mpi.h"

/* The shortest epoch worth starting under a time limit. */
#define WT_MPI_MIN_EPOCH_S 0.05

typedef struct wt_mpi_schedule {
    bool by_kicks;          /* params.kicks > 0: epochs of epoch_kicks kicks */
    uint64_t epoch_kicks, kicks_left;
    int untimed_left;       /* neither kicks nor a time limit: epochs left */
    double time_limit_s;    /* params.time_limit_s; <= 0: none */
    double epoch_s;         /* by time: an epoch's seconds; 0: not by time */
    double epoch_started;   /* clock at the current epoch's start */
    double epoch_limit_s;   /* the current epoch's search's time limit; 0: none */
    double t0;              /* clock at the run's start */
    double meet_s;          /* what an epoch's end needs before the deadline:
                               the next meeting, and how far a search ran
                               past its limit */
} wt_mpi_schedule;

/* s for a run of params with mp's epochs: meet_s the first guess of a
 * meeting's seconds, untimed_epochs the epochs of a run with neither kicks
 * nor a time limit (at least 1).  s->t0 is left 0 for the caller to set
 * when the ranks' clocks start together. */
void wt_mpi_schedule_open(wt_mpi_schedule *s, const wt_params *params,
                          const wt_mpi_params *mp, double meet_s, int untimed_epochs);

/* A rank's seed for an epoch: a mix of the run's seed, the rank and the
 * epoch, so that the ranks' searches go apart. */
uint64_t wt_mpi_epoch_seed(uint64_t seed, int rank, int epoch);

/* The kicks and the time limit (into *kicks, *time_limit_s) of a rank's
 * search in epoch, started at clock now (kept in s->epoch_limit_s).  By
 * time the first epoch ends with its first descent (and one kick): cut
 * short, the next epoch's search would descend from every city again; a
 * later one lasts at least as long (wt_mpi_schedule_decide), so the set-up
 * stays a small part. */
void wt_mpi_schedule_epoch(wt_mpi_schedule *s, int epoch, double now, uint64_t *kicks,
                           double *time_limit_s);

/* Counts an epoch as done on every rank: its kicks off the budget. */
void wt_mpi_schedule_spent(wt_mpi_schedule *s);

/* Root at a meeting that started at clock meet_started and decides at
 * clock now, the worst of the ranks' stops (wt_stop_reason) being stop:
 * whether another epoch follows.  Updates s->epoch_s (by time: at least as
 * long as the epoch just ended, so that the meetings take a small share)
 * and s->meet_s (at least twice the meeting's seconds so far, plus how far
 * the root's search ran past its limit: a search returns a little after
 * it, and the last meeting comes after that).  Both go to every rank with
 * the decision, so that the ranks' last epochs end alike. */
bool wt_mpi_schedule_decide(wt_mpi_schedule *s, int32_t stop, double meet_started, double now);

#endif
