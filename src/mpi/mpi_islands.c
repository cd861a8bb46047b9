/*
 * mpi_islands.c - island searches of one instance over the ranks of a
 * communicator (WT_MPI_ISLANDS of wt_mpi_solve, warptour_mpi.h).
 *
 * The distributed chained Lin-Kernighan of Fischer & Merz (IPDPS 2005):
 * every rank runs its own iterated local search (wt_solve's ILS) for an
 * epoch, then the tours meet.  Instead of taking only the shortest, the
 * root folds every rank's tour into the best so far by partition crossover
 * (ls/merge.h), whose child is never longer than the shorter parent and is
 * shorter wherever two islands improved different parts of the tour.  The
 * child is every rank's next start; a rank other than the root kicks it
 * once (a double bridge within a short stretch of the tour, at a place of
 * its own) and searches with a seed of its own, so the islands keep
 * searching apart while the root's search goes on from the best itself.
 * Each rank's searches keep their set-up from epoch to epoch
 * (algo/ils_keep.h, wt_solve_kept): the candidate lists of the first, and
 * a later epoch's first descent starts only from the cities whose tour
 * neighbours differ from the rank's last tour.
 *
 * Each meeting is a point where all ranks agree on the outcome
 * (mpi_agree.h) and on whether another epoch follows (the root decides, by
 * the kicks left, the time left and whether any rank was stopped), so a
 * failure or a stop on one rank ends every rank's run at the same meeting.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/error.h"
#include "algo/ils_keep.h"
#include "core/rng.h"
#include "ls/merge.h"
#include "mpi/mpi_agree.h"
#include "mpi/mpi_modes.h"
#include "mpi/mpi_share.h"
#include "mpi/mpi_schedule.h"
#include "warptour_experimental.h"
#include "warptour_mpi.h"

/* Seconds a meeting is expected to take before the first one is measured
 * (with a time limit in epochs of seconds, the first meeting is often the
 * last): a base, and costs a city for each of the P - 1 tours the root
 * merges in (GPX of n cities: about 0.12 us a city on one free core of the
 * 2-core development VM, 1,000,000 cities, bench/RESULTS.md; this allows
 * 2.5 times that for a loaded machine), for each of the P tours moved
 * (gather and broadcast) and for the root's final tour (rotated, its length
 * checked).  Ranks that share cores (more on a machine than it has cores)
 * slow the root's merges by that share: the waiting ranks poll for the
 * broadcast. */
#define MEET_BASE_S 0.05
#define MEET_MERGE_CITY_S 3e-7
#define MEET_MOVE_CITY_S 2e-8
#define MEET_FINISH_CITY_S 5e-8
/* Positions a diversifying kick's three cuts lie within. */
#define KICK_WINDOW 64

/* What every rank knows of the run. */
typedef struct run {
    MPI_Comm comm;
    int rank, size, root, n;
    const wt_instance *inst;
    const wt_params *params;
    wt_mpi_schedule sched;  /* the epochs' budgets (MPI_Wtime); neither kicks nor a
                               time limit: one epoch */
    int32_t *best;          /* the best tour so far (every rank: the next start) */
    int64_t best_len;       /* -1 before the first meeting */
    int32_t *start;         /* this rank's start: best, kicked off the root */
    uint64_t kicks, kept, steps; /* root: summed over ranks and epochs */
    uint64_t passes;        /* root: the GPUs' full passes, summed so */
    double scan_s, gpu_s;   /* root: their seconds, and the windows' kernels', summed so */
    int64_t init_length;    /* root: its first epoch's start tour's length */
    double init_time_s;     /* root: its first epoch's start tour's time */
    wt_progress_fn progress; /* the caller's, wrapped (on_progress) */
    void *progress_user;
    uint64_t my_kicks, my_steps; /* this rank's epochs before the current one */
    wt_tuning tuning;       /* the epochs' searches' (wt_mpi_no_bound) */
    wt_ils_keep *keep;      /* this rank's searches' lists and last tour, kept from
                               epoch to epoch (algo/ils_keep.h) */
} run;

/* The caller's progress callback, seeing the whole run rather than the
 * epoch's wt_solve. */
static int on_progress(const wt_progress *p, void *user)
{
    const run *r = user;
    wt_progress q = *p;
    q.elapsed_s = MPI_Wtime() - r->sched.t0;
    q.kicks += r->my_kicks;
    q.steps += r->my_steps;
    if (r->best_len >= 0 && r->best_len < q.best_length) q.best_length = r->best_len;
    return r->progress(&q, r->progress_user);
}

/* Rank's seed for epoch: params.seed for the root's first, else a mix. */
static uint64_t epoch_seed(uint64_t seed, int rank, int root, int epoch)
{
    return rank == root && epoch == 0 ? seed : wt_mpi_epoch_seed(seed, rank, epoch);
}

/* A double bridge (A B C D -> A C B D) with its three cuts within
 * KICK_WINDOW positions at a random place; nothing for tiny tours. */
static void kick(int32_t *tour, int n, uint64_t seed)
{
    if (n < 8) return;
    wt_rng g;
    wt_rng_seed(&g, seed);
    int w = n - 1 < KICK_WINDOW ? n - 1 : KICK_WINDOW;
    int p1 = 1 + (int)(wt_rng_next(&g) % (uint64_t)(n - w));
    int a = 1 + (int)(wt_rng_next(&g) % (uint64_t)(w - 2));
    int b = a + 1 + (int)(wt_rng_next(&g) % (uint64_t)(w - 1 - a));
    int p2 = p1 + a, p3 = p1 + b; /* B = [p1, p2), C = [p2, p3) */
    int32_t tmp[KICK_WINDOW];
    int len_b = p2 - p1, len_c = p3 - p2;
    memcpy(tmp, tour + p1, (size_t)len_b * sizeof *tour);
    memmove(tour + p1, tour + p2, (size_t)len_c * sizeof *tour);
    memcpy(tour + p1 + len_c, tmp, (size_t)len_b * sizeof *tour);
}

/* How many ranks of comm share each core of this machine, at least 1. */
static double core_share(MPI_Comm comm)
{
    int here = wt_mpi_place_of(comm).here;
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    return cores > 0 && here > cores ? (double)here / (double)cores : 1.0;
}

/* The first guess of a meeting's seconds (MEET_BASE_S above), for n cities
 * on size ranks that share each core share ways. */
static double meet_guess_s(int n, int size, double share)
{
    double per_city = MEET_MERGE_CITY_S * (size - 1) + MEET_MOVE_CITY_S * size +
                      MEET_FINISH_CITY_S;
    return MEET_BASE_S + (double)n * per_city * share;
}

static wt_status run_open(run *r, MPI_Comm comm, const wt_instance *inst, const wt_params *params,
                          const wt_mpi_params *mp, wt_error *err)
{
    memset(r, 0, sizeof *r);
    r->comm = comm;
    MPI_Comm_rank(comm, &r->rank);
    MPI_Comm_size(comm, &r->size);
    r->root = mp->root;
    r->inst = inst;
    r->params = params;
    r->n = wt_instance_n(inst);
    wt_mpi_schedule_open(&r->sched, params, mp, meet_guess_s(r->n, r->size, core_share(comm)),
                         1);
    r->best_len = -1;
    r->progress = params->progress;
    r->progress_user = params->progress_user;
    wt_mpi_no_bound(params->tuning, &r->tuning);
    r->best = malloc((size_t)r->n * sizeof *r->best);
    r->start = malloc((size_t)r->n * sizeof *r->start);
    if (!r->best || !r->start) return wt_fail(err, WT_STATUS_OUT_OF_MEMORY, "out of memory");
    return wt_ils_keep_open(r->n, &r->keep, err);
}

static void run_close(run *r)
{
    free(r->best);
    free(r->start);
    wt_ils_keep_free(r->keep);
}

/* The parameters of this rank's epoch. */
static void epoch_params(run *r, int epoch, wt_params *q)
{
    *q = *r->params;
    q->seed = epoch_seed(r->params->seed, r->rank, r->root, epoch);
    q->tuning = &r->tuning;
    q->start_city = -1; /* the final tour is rotated once (finish) */
    if (epoch > 0) {
        memcpy(r->start, r->best, (size_t)r->n * sizeof *r->start);
        if (r->rank != r->root && wt_instance_fixed_edges(r->inst, NULL) == 0)
            kick(r->start, r->n, q->seed);
        q->start_tour = r->start;
    }
    /* By time the first epoch ends with its first descent: cut short, the
     * next epoch's search (whose keep then has no finished tour) would
     * descend from every city again. */
    wt_mpi_schedule_epoch(&r->sched, epoch, MPI_Wtime(), &q->kicks, &q->time_limit_s);
    if (r->progress) {
        q->progress = on_progress;
        q->progress_user = r;
    }
}

/* A rank's epoch as the root learns it. */
typedef struct epoch_report {
    int64_t length;
    uint64_t kicks, kept, steps, passes;
    double scan_s, gpu_s;
    int32_t stop;
} epoch_report;

/* What the root tells every rank after a meeting. */
typedef struct meeting {
    int32_t more;   /* another epoch follows */
    int32_t stop;   /* wt_stop_reason of the run so far */
    int64_t best_len;
    double epoch_s; /* by time: the later epochs' seconds */
    double meet_s;  /* the root's schedule's meet_s */
} meeting;

/* Root: folds tour (of length len) into r->best by partition crossover. */
static wt_status fold(run *r, wt_merge *m, const int32_t *tour, int64_t len, wt_error *err)
{
    if (r->best_len < 0) {
        memcpy(r->best, tour, (size_t)r->n * sizeof *tour);
        r->best_len = len;
        return WT_OK;
    }
    return wt_merge_tours(m, r->inst, r->best, r->best_len, tour, len, r->best, &r->best_len,
                          NULL, err);
}

/* Root: receives the other ranks' tours one by one and folds them in,
 * its own (mine) first. */
static wt_status collect(run *r, wt_merge *m, const int32_t *mine, const epoch_report *reports,
                         int32_t *buf, wt_error *err)
{
    wt_status st = fold(r, m, mine, reports[r->root].length, err);
    for (int k = 0; k < r->size; k++) {
        if (k == r->root) continue;
        int rc = MPI_Recv(buf, r->n, MPI_INT32_T, k, 0, r->comm, MPI_STATUS_IGNORE);
        if (rc != MPI_SUCCESS) return wt_mpi_fail(err, rc, "MPI_Recv");
        if (st == WT_OK) st = fold(r, m, buf, reports[k].length, err);
    }
    return st;
}

/* Root: whether another epoch follows, and the run's stop so far.  By
 * time, an epoch lasts at least as long as the first (a start tour, its
 * lists and a descent from every city), so that the meetings, whose merges
 * cost about as much at any epoch length, take a small share. */
static meeting decide(run *r, const epoch_report *reports, double meet_started)
{
    meeting mt = {0, WT_STOP_DONE, r->best_len, 0, 0};
    for (int k = 0; k < r->size; k++)
        if (reports[k].stop > mt.stop) mt.stop = reports[k].stop;
    mt.more = wt_mpi_schedule_decide(&r->sched, mt.stop, meet_started, MPI_Wtime());
    mt.epoch_s = r->sched.epoch_s;
    mt.meet_s = r->sched.meet_s;
    return mt;
}

/* One meeting after an epoch whose result on this rank is res. */
static wt_status meet(run *r, wt_merge *m, const wt_result *res, int32_t *buf, meeting *mt,
                      wt_error *err)
{
    double started = MPI_Wtime();
    epoch_report mine = {res->length,      res->ils.kicks,   res->ils.kicks_accepted,
                         res->steps,       res->scan.passes, res->scan.time_s,
                         res->ils.gpu_time_s, (int32_t)res->stop};
    epoch_report *reports = NULL;
    wt_status st = WT_OK;
    if (r->rank == r->root && !(reports = calloc((size_t)r->size, sizeof *reports)))
        st = wt_fail(err, WT_STATUS_OUT_OF_MEMORY, "out of memory");
    if ((st = wt_mpi_agree(r->comm, st, err)) != WT_OK) return st;
    int rc = MPI_Gather(&mine, (int)sizeof mine, MPI_BYTE, reports, (int)sizeof mine, MPI_BYTE,
                        r->root, r->comm);
    if (rc != MPI_SUCCESS) st = wt_mpi_fail(err, rc, "MPI_Gather");
    if (st == WT_OK && r->rank != r->root) {
        rc = MPI_Send(res->tour, r->n, MPI_INT32_T, r->root, 0, r->comm);
        if (rc != MPI_SUCCESS) st = wt_mpi_fail(err, rc, "MPI_Send");
    }
    if (st == WT_OK && r->rank == r->root) {
        st = collect(r, m, res->tour, reports, buf, err);
        for (int k = 0; k < r->size; k++) {
            r->kicks += reports[k].kicks;
            r->kept += reports[k].kept;
            r->steps += reports[k].steps;
            r->passes += reports[k].passes;
            r->scan_s += reports[k].scan_s;
            r->gpu_s += reports[k].gpu_s;
        }
        *mt = decide(r, reports, started);
    }
    free(reports);
    if ((st = wt_mpi_agree(r->comm, st, err)) != WT_OK) return st;
    rc = MPI_Bcast(mt, (int)sizeof *mt, MPI_BYTE, r->root, r->comm);
    if (rc == MPI_SUCCESS) rc = MPI_Bcast(r->best, r->n, MPI_INT32_T, r->root, r->comm);
    st = rc == MPI_SUCCESS ? WT_OK : wt_mpi_fail(err, rc, "MPI_Bcast");
    if ((st = wt_mpi_agree(r->comm, st, err)) != WT_OK) return st;
    r->best_len = mt->best_len;
    r->sched.epoch_s = mt->epoch_s;
    r->sched.meet_s = mt->meet_s;
    return WT_OK;
}

/* The epochs, each followed by a meeting; *last gets the root's last
 * epoch's result (the others' are freed).  A failure is agreed by every
 * rank when it returns. */
static wt_status epochs(run *r, wt_merge *m, int32_t *buf, wt_result *last, meeting *mt,
                        wt_error *err)
{
    for (int epoch = 0;; epoch++) {
        wt_params q;
        r->sched.epoch_started = MPI_Wtime();
        epoch_params(r, epoch, &q);
        wt_result res = {0};
        wt_status st = wt_solve_kept(r->inst, &q, r->keep, &res, err);
        if ((st = wt_mpi_agree(r->comm, st, err)) != WT_OK) {
            wt_result_free(&res);
            return st;
        }
        if (epoch == 0) {
            r->init_length = res.init_length;
            r->init_time_s = res.init_time_s;
        }
        wt_mpi_schedule_spent(&r->sched);
        r->my_kicks += res.ils.kicks;
        r->my_steps += res.steps;
        st = meet(r, m, &res, buf, mt, err);
        wt_result_free(last);
        *last = res;
        if (st != WT_OK || !mt->more) return st;
    }
}

/* Root: the result from the run's best tour and the last epoch's figures. */
static wt_status finish(run *r, wt_result *last, const meeting *mt, wt_result *res,
                        wt_error *err)
{
    int start = r->params->start_city;
    if (start >= 0) {
        int at = 0;
        while (r->best[at] != start) at++;
        for (int i = 0; i < r->n; i++) last->tour[i] = r->best[(at + i) % r->n];
    } else {
        memcpy(last->tour, r->best, (size_t)r->n * sizeof *last->tour);
    }
    last->length = wt_tour_length(r->inst, last->tour);
    if (last->length != mt->best_len)
        return wt_fail(err, WT_STATUS_INVALID_TOUR, "the merged tour's length %lld is not the "
                       "%lld the merges computed (a bug)", (long long)last->length,
                       (long long)mt->best_len);
    last->length_real = wt_length_real(r->inst, last->length);
    last->init_length = r->init_length;
    last->init_given = r->params->start_tour != NULL;
    last->stop = (wt_stop_reason)mt->stop;
    last->time_s = MPI_Wtime() - r->sched.t0;
    last->init_time_s = r->init_time_s;
    last->search_time_s = last->time_s - r->init_time_s;
    last->steps = r->steps;
    last->ils.kicks = r->kicks;
    last->ils.kicks_accepted = r->kept;
    last->ils.gpu_time_s = r->gpu_s; /* every rank's GPU */
    last->scan.passes = r->passes;
    last->scan.time_s = r->scan_s;
    char device[sizeof last->device];
    snprintf(device, sizeof device, "%s", last->device);
    wt_mpi_device_name(last->device, sizeof last->device, r->size, WT_MPI_ISLANDS, device);
    last->lower_bound = -1;
    last->gap_to_bound_percent = -1;
    *res = *last;
    memset(last, 0, sizeof *last);
    return WT_OK;
}

wt_status wt_mpi_islands(MPI_Comm comm, const wt_instance *inst, const wt_params *params,
                         const wt_mpi_params *mp, wt_result *res, wt_error *err)
{
    run r;
    wt_status st = run_open(&r, comm, inst, params, mp, err);
    wt_merge *m = NULL;
    int32_t *buf = NULL;
    if (st == WT_OK && r.rank == r.root) {
        st = wt_merge_open(r.n, &m, err);
        buf = malloc((size_t)r.n * sizeof *buf);
        if (st == WT_OK && !buf) st = wt_fail(err, WT_STATUS_OUT_OF_MEMORY, "out of memory");
    }
    if ((st = wt_mpi_agree(comm, st, err)) == WT_OK) {
        MPI_Barrier(comm); /* the ranks' clocks start together */
        r.sched.t0 = MPI_Wtime();
        wt_result last = {0};
        meeting mt = {0, WT_STOP_DONE, -1, 0, 0};
        st = epochs(&r, m, buf, &last, &mt, err);
        if (st == WT_OK) { /* else agreed already: a second agreement would name rank 0 */
            wt_result out = {0};
            if (r.rank == r.root) st = finish(&r, &last, &mt, &out, err);
            if ((st = wt_mpi_agree(comm, st, err)) == WT_OK) *res = out;
            else wt_result_free(&out);
        }
        wt_result_free(&last);
    }
    wt_merge_free(m);
    free(buf);
    run_close(&r);
    return st;
}
