/*
 * mpi_parts.c - one large instance over the ranks of a communicator, each
 * rank searching its share of the tour (WT_MPI_PARTS of wt_mpi_solve,
 * warptour_mpi.h).
 *
 * The root holds the whole tour.  Each epoch it cuts the tour into k
 * consecutive paths, one a rank, and each rank searches its path as an
 * instance of its own (core/instance_subset.h) with both ends fixed: wt_solve's
 * open path from the path's first city to its last, started from the path
 * as it is, so the path that comes back is never longer.  A path with the
 * same ends over the same cities fits back where it was cut out: the tour
 * stays one cycle and its length changes by exactly the paths' differences,
 * so the root checks each path (ends, cities) and splices it in without
 * searching anything itself beyond its own path.
 *
 * The cuts move from epoch to epoch: epoch e cuts at offset frac(e / phi)
 * of a path's length (phi the golden ratio), so the offsets spread evenly
 * over a path's length and no cut lies near a recent one (the three-distance
 * theorem); what lay across a cut is inside a path later.  The same
 * decomposition, with windows of a few hundred cities inside one process,
 * is algo/windows.c's.
 *
 * Each meeting is a point where all ranks agree on the outcome
 * (mpi_agree.h) and on whether another epoch follows (the root decides),
 * as in the island searches (mpi_islands.c), with the same epoch budgets
 * (mpi_schedule.h).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/init.h"
#include "core/instance_subset.h"
#include "mpi/mpi_agree.h"
#include "mpi/mpi_modes.h"
#include "mpi/mpi_schedule.h"
#include "warptour_experimental.h"

/* Seconds a meeting is expected to take before the first one is measured:
 * a base and a cost a city (the paths' transfers, the root's checks). */
#define MEET_BASE_S 0.05
#define MEET_CITY_S 1e-7
/* The fewest cities a path: smaller instances get fewer paths than ranks. */
#define PART_MIN_CITIES 8
/* Epochs without a kick budget or a time limit. */
#define UNTIMED_EPOCHS 4
/* 1 / phi: successive multiples spread evenly over [0, 1). */
#define GOLDEN_STEP 0.6180339887498949

bool wt_mpi_parts_can_run(const wt_instance *inst, const wt_params *params, char *why,
                          size_t why_size)
{
    const char *no = NULL;
    if (wt_instance_fixed_edges(inst, NULL) > 0)
        no = "cannot keep an instance's fixed edges";
    else if (params->ils_descent != WT_ILS_AUTO && params->ils_descent != WT_ILS_LK &&
             params->ils_descent != WT_ILS_LOCAL)
        no = "searches its paths with lk or local descents, not the one asked for";
    else if (params->backend != WT_BACKEND_AUTO && params->backend != WT_BACKEND_CPU)
        no = "searches its paths on the host, not on the backend asked for";
    if (no && why_size > 0) snprintf(why, why_size, "%s", no);
    return no == NULL;
}

/* What every rank knows of the run (the root also holds the tour). */
typedef struct parts {
    MPI_Comm comm;
    int rank, size, root, n;
    int k;                   /* paths an epoch: ranks root, root + 1, ... (mod size) */
    const wt_instance *inst;
    const wt_params *params;
    wt_mpi_schedule sched;   /* the epochs' budgets (MPI_Wtime) */
    int *counts, *displs;    /* by rank: its path's cities and first position in
                                the cut tour (0, 0 for a rank without a path) */
    int64_t length;          /* the whole tour's, as of the last meeting */
    int64_t init_length;     /* the start tour's */
    int32_t *path, *order;   /* this rank's path: as cut, as searched */
    int64_t path_closed;     /* the path as cut, closed: its search's start length */
    uint64_t my_kicks, my_steps; /* this rank's epochs before the current one */
    wt_progress_fn progress; /* the caller's, wrapped (on_progress) */
    void *progress_user;
    /* The root's. */
    int32_t *tour;           /* the whole tour */
    int32_t *cut;            /* the tour from the epoch's offset, then the paths
                                as the ranks sent them back */
    int32_t *owner;          /* the rank whose path holds each city this epoch */
    int32_t *seen;           /* the epoch (+ 1) a city was last met in a path sent back */
    int offset;              /* this epoch's cut */
    uint64_t kicks, kept, steps; /* summed over ranks and epochs */
    uint64_t passes;         /* the GPUs' first descents' full passes, summed so */
    double scan_s, gpu_s;    /* their seconds, and the windows' kernels', summed so */
    double init_time_s;
    bool init_cut;
    wt_init_method init_made;
    wt_result mine;          /* the root's last epoch's result */
    wt_tuning tuning;        /* the paths' searches' (wt_mpi_no_bound) */
} parts;

/* The caller's progress callback, seeing the whole run: the whole tour as
 * of the last meeting with this rank's path as its search has it now. */
static int on_progress(const wt_progress *pp, void *user)
{
    const parts *p = user;
    wt_progress q = *pp;
    q.elapsed_s = MPI_Wtime() - p->sched.t0;
    q.kicks += p->my_kicks;
    q.steps += p->my_steps;
    q.best_length = p->length + (pp->best_length - p->path_closed);
    q.init_length = p->init_length;
    q.lower_bound = 0; /* a path's bound is not the tour's */
    return p->progress(&q, p->progress_user);
}

/* Root: a last report, of the result: the last meeting's splices came
 * after the root's last path search reported, so that the caller's last
 * report is the tour returned. */
static void final_report(const parts *p, const wt_result *out)
{
    if (!p->progress) return;
    wt_progress q = {.elapsed_s = MPI_Wtime() - p->sched.t0, .best_length = out->length,
                     .init_length = p->init_length, .steps = p->my_steps, .kicks = p->my_kicks,
                     .pass_done = WT_NOT_IN_PASS};
    (void)p->progress(&q, p->progress_user); /* the run is over: nothing left to stop */
}

static wt_status parts_open(parts *p, MPI_Comm comm, const wt_instance *inst,
                            const wt_params *params, const wt_mpi_params *mp, wt_error *err)
{
    memset(p, 0, sizeof *p);
    p->comm = comm;
    MPI_Comm_rank(comm, &p->rank);
    MPI_Comm_size(comm, &p->size);
    p->root = mp->root;
    p->inst = inst;
    p->params = params;
    p->n = wt_instance_n(inst);
    int most = p->n / PART_MIN_CITIES;
    p->k = most < 1 ? 1 : most < p->size ? most : p->size;
    wt_mpi_schedule_open(&p->sched, params, mp, MEET_BASE_S + MEET_CITY_S * p->n,
                         UNTIMED_EPOCHS);
    p->progress = params->progress;
    p->progress_user = params->progress_user;
    wt_mpi_no_bound(params->tuning, &p->tuning);
    p->counts = calloc((size_t)p->size, sizeof *p->counts);
    p->displs = calloc((size_t)p->size, sizeof *p->displs);
    bool ok = p->counts && p->displs;
    for (int j = 0; ok && j < p->k; j++) {
        int r = (p->root + j) % p->size;
        int64_t first = (int64_t)j * p->n / p->k, next = (int64_t)(j + 1) * p->n / p->k;
        p->displs[r] = (int)first;
        p->counts[r] = (int)(next - first);
    }
    int m = ok ? p->counts[p->rank] : 0;
    if (ok && m > 0) {
        p->path = malloc((size_t)m * sizeof *p->path);
        p->order = malloc((size_t)m * sizeof *p->order);
        ok = p->path && p->order;
    }
    if (ok && p->rank == p->root) {
        size_t n = (size_t)p->n;
        p->tour = malloc(n * sizeof *p->tour);
        p->cut = malloc(n * sizeof *p->cut);
        p->owner = malloc(n * sizeof *p->owner);
        p->seen = calloc(n, sizeof *p->seen);
        ok = p->tour && p->cut && p->owner && p->seen;
    }
    if (!ok) return wt_fail(err, WT_STATUS_OUT_OF_MEMORY, "out of memory for a tour of %d "
                            "cities", p->n);
    return WT_OK;
}

static void parts_close(parts *p)
{
    free(p->counts);
    free(p->displs);
    free(p->path);
    free(p->order);
    free(p->tour);
    free(p->cut);
    free(p->owner);
    free(p->seen);
    wt_result_free(&p->mine);
}

/* The start tour's stop: the time limit (less a meeting) or the stop flag. */
static bool init_should_stop(void *user)
{
    const parts *p = user;
    const wt_params *q = p->params;
    if (q->stop_flag && *q->stop_flag) return true;
    return q->time_limit_s > 0 &&
           MPI_Wtime() > p->sched.t0 + q->time_limit_s - p->sched.meet_s;
}

/* Root: the whole start tour, params.start_tour or params.init's. */
static wt_status start_tour(parts *p, wt_error *err)
{
    const wt_params *q = p->params;
    double started = MPI_Wtime();
    wt_status st;
    p->init_made = q->init;
    if (q->start_tour) {
        st = wt_tour_validate(q->start_tour, p->n, err);
        if (st == WT_OK) memcpy(p->tour, q->start_tour, (size_t)p->n * sizeof *p->tour);
    } else {
        wt_init_stop stop = {init_should_stop, p};
        wt_init_cut cut = WT_INIT_WHOLE;
        st = wt_tour_init_until(p->inst, q->init, q->seed, q->threads, &stop, p->tour, &cut, err);
        p->init_cut = cut != WT_INIT_WHOLE;
        if (cut == WT_INIT_CUT_SPACEFILL) p->init_made = WT_INIT_SPACEFILL;
    }
    if (st == WT_OK) p->length = p->init_length = wt_tour_length(p->inst, p->tour);
    p->init_time_s = MPI_Wtime() - started;
    return st;
}

/* Exact length of the path of m cities from position at of tour (n cities,
 * wrapping round). */
static int64_t path_length(const wt_instance *inst, const int32_t *tour, int n, int at, int m)
{
    int64_t len = 0;
    for (int i = 0; i + 1 < m; i++)
        len += wt_instance_dist(inst, tour[(at + i) % n], tour[(at + i + 1) % n]);
    return len;
}

/* Root: the tour cut at epoch's offset into cut, each city marked with the
 * rank whose path holds it. */
static void cut_tour(parts *p, int epoch)
{
    int share = p->n / p->k;
    double f = fmod((double)epoch * GOLDEN_STEP, 1.0);
    p->offset = (int)(f * share) % p->n;
    for (int i = 0; i < p->n; i++) p->cut[i] = p->tour[(p->offset + i) % p->n];
    for (int r = 0; r < p->size; r++)
        for (int i = 0; i < p->counts[r]; i++) p->owner[p->cut[p->displs[r] + i]] = r;
}

/* The parameters of this rank's search of its path (m cities) in epoch. */
static void path_params(parts *p, int epoch, int32_t *identity, int m, wt_params *q)
{
    *q = *p->params;
    q->seed = wt_mpi_epoch_seed(p->params->seed, p->rank, epoch);
    q->tuning = &p->tuning;
    for (int i = 0; i < m; i++) identity[i] = i;
    q->start_tour = identity;
    q->open = true;
    q->start_city = 0;
    q->end_city = m - 1;
    /* By time the first epoch ends with its paths' first descents: the
     * later ones then start from local optima. */
    wt_mpi_schedule_epoch(&p->sched, epoch, MPI_Wtime(), &q->kicks, &q->time_limit_s);
    q->progress = p->progress ? on_progress : NULL;
    q->progress_user = p->progress ? p : NULL;
}

/* This rank's search of its path (p->path, m cities) into p->order; res
 * gets the search's result (zeroed where a path is too short to search). */
static wt_status search_path(parts *p, int epoch, int m, wt_result *res, wt_error *err)
{
    memcpy(p->order, p->path, (size_t)m * sizeof *p->order);
    if (m < PART_MIN_CITIES) return WT_OK; /* nothing to move with both ends fixed */
    wt_instance *sub = wt_instance_subset(p->inst, "part", p->path, m);
    int32_t *identity = malloc((size_t)m * sizeof *identity);
    if (!sub || !identity) {
        wt_instance_free(sub);
        free(identity);
        return wt_fail(err, WT_STATUS_OUT_OF_MEMORY, "out of memory for a path of %d cities", m);
    }
    wt_params q;
    path_params(p, epoch, identity, m, &q);
    p->path_closed = wt_tour_length(sub, identity);
    wt_status st = wt_solve(sub, &q, res, err);
    if (st == WT_OK)
        for (int i = 0; i < m; i++) p->order[i] = p->path[res->tour[i]];
    wt_instance_free(sub);
    free(identity);
    return st;
}

/* Root: puts back the paths the ranks sent (in p->cut): each over the
 * cities it was given, with the same ends, no longer than before; a path
 * that breaks this is a bug, reported. */
static wt_status splice(parts *p, int epoch, wt_error *err)
{
    int n = p->n;
    int32_t stamp = (int32_t)epoch + 1;
    for (int r = 0; r < p->size; r++) {
        int m = p->counts[r], at = (p->offset + p->displs[r]) % n;
        if (m == 0) continue;
        const int32_t *path = p->cut + p->displs[r];
        bool same = path[0] == p->tour[at] && path[m - 1] == p->tour[(at + m - 1) % n];
        for (int i = 0; same && i < m; i++) {
            int c = path[i];
            same = c >= 0 && c < n && p->owner[c] == r && p->seen[c] != stamp;
            if (same) p->seen[c] = stamp;
        }
        if (!same)
            return wt_fail(err, WT_STATUS_INVALID_TOUR, "rank %d's path is not its cities "
                           "between its ends (a bug)", r);
        int64_t before = path_length(p->inst, p->tour, n, at, m);
        int64_t after = path_length(p->inst, path, m, 0, m);
        if (after > before) continue;
        for (int i = 0; i < m; i++) p->tour[(at + i) % n] = path[i];
        p->length += after - before;
    }
    return WT_OK;
}

/* A rank's epoch as the root learns it. */
typedef struct epoch_report {
    uint64_t kicks, kept, steps, passes;
    double scan_s, gpu_s;
    int32_t stop;
} epoch_report;

/* What the root tells every rank at a meeting. */
typedef struct meeting {
    int32_t more;   /* another epoch follows */
    int32_t stop;   /* wt_stop_reason of the run so far */
    int64_t length; /* the whole tour's */
    int64_t init_length;
    double epoch_s; /* by time: the later epochs' seconds */
    double meet_s;  /* the root's schedule's meet_s */
} meeting;

/* Root: whether another epoch follows, and the run's stop so far. */
static meeting decide(parts *p, const epoch_report *reports, double meet_started)
{
    meeting mt = {0, WT_STOP_DONE, p->length, p->init_length, 0, 0};
    for (int r = 0; r < p->size; r++)
        if (reports[r].stop > mt.stop) mt.stop = reports[r].stop;
    mt.more = wt_mpi_schedule_decide(&p->sched, mt.stop, meet_started, MPI_Wtime());
    mt.epoch_s = p->sched.epoch_s;
    mt.meet_s = p->sched.meet_s;
    return mt;
}

/* The meeting after an epoch whose result on this rank is res: the paths
 * go back to the root, which splices them and decides. */
static wt_status meet(parts *p, int epoch, const wt_result *res, meeting *mt, wt_error *err)
{
    double started = MPI_Wtime();
    epoch_report mine = {res->ils.kicks,    res->ils.kicks_accepted, res->steps,
                         res->scan.passes,  res->scan.time_s,        res->ils.gpu_time_s,
                         (int32_t)res->stop};
    epoch_report *reports = NULL;
    wt_status st = WT_OK;
    if (p->rank == p->root && !(reports = calloc((size_t)p->size, sizeof *reports)))
        st = wt_fail(err, WT_STATUS_OUT_OF_MEMORY, "out of memory");
    if ((st = wt_mpi_agree(p->comm, st, err)) != WT_OK) return st;
    int rc = MPI_Gather(&mine, (int)sizeof mine, MPI_BYTE, reports, (int)sizeof mine, MPI_BYTE,
                        p->root, p->comm);
    if (rc == MPI_SUCCESS)
        rc = MPI_Gatherv(p->order, p->counts[p->rank], MPI_INT32_T, p->cut, p->counts,
                         p->displs, MPI_INT32_T, p->root, p->comm);
    if (rc != MPI_SUCCESS) st = wt_mpi_fail(err, rc, "MPI_Gather");
    if (st == WT_OK && p->rank == p->root) {
        st = splice(p, epoch, err);
        for (int r = 0; r < p->size; r++) {
            p->kicks += reports[r].kicks;
            p->kept += reports[r].kept;
            p->steps += reports[r].steps;
            p->passes += reports[r].passes;
            p->scan_s += reports[r].scan_s;
            p->gpu_s += reports[r].gpu_s;
        }
        *mt = decide(p, reports, started);
    }
    free(reports);
    if ((st = wt_mpi_agree(p->comm, st, err)) != WT_OK) return st;
    rc = MPI_Bcast(mt, (int)sizeof *mt, MPI_BYTE, p->root, p->comm);
    st = rc == MPI_SUCCESS ? WT_OK : wt_mpi_fail(err, rc, "MPI_Bcast");
    if ((st = wt_mpi_agree(p->comm, st, err)) != WT_OK) return st;
    p->length = mt->length;
    p->sched.epoch_s = mt->epoch_s;
    p->sched.meet_s = mt->meet_s;
    return WT_OK;
}

/* The epochs, each followed by a meeting; a failure is agreed by every
 * rank when it returns. */
static wt_status epochs(parts *p, meeting *mt, wt_error *err)
{
    for (int epoch = 0;; epoch++) {
        p->sched.epoch_started = MPI_Wtime();
        if (p->rank == p->root) cut_tour(p, epoch);
        int m = p->counts[p->rank];
        int rc = MPI_Scatterv(p->cut, p->counts, p->displs, MPI_INT32_T, p->path, m,
                              MPI_INT32_T, p->root, p->comm);
        wt_result res = {0};
        wt_status st = rc == MPI_SUCCESS ? WT_OK : wt_mpi_fail(err, rc, "MPI_Scatterv");
        if (st == WT_OK && m > 0) st = search_path(p, epoch, m, &res, err);
        if ((st = wt_mpi_agree(p->comm, st, err)) != WT_OK) {
            wt_result_free(&res);
            return st;
        }
        wt_mpi_schedule_spent(&p->sched);
        p->my_kicks += res.ils.kicks;
        p->my_steps += res.steps;
        st = meet(p, epoch, &res, mt, err);
        if (p->rank == p->root && res.tour) {
            wt_result_free(&p->mine);
            p->mine = res;
        } else {
            wt_result_free(&res);
        }
        if (st != WT_OK || !mt->more) return st;
    }
}

/* Root: the result from the whole tour and the run's figures. */
static wt_status finish(parts *p, const meeting *mt, wt_result *res, wt_error *err)
{
    int n = p->n, start = p->params->start_city, at = 0;
    if (wt_tour_length(p->inst, p->tour) != p->length)
        return wt_fail(err, WT_STATUS_INVALID_TOUR, "the spliced tour's length %lld is not the "
                       "%lld the paths added up to (a bug)",
                       (long long)wt_tour_length(p->inst, p->tour), (long long)p->length);
    wt_result out = {0};
    out.tour = malloc((size_t)n * sizeof *out.tour);
    if (!out.tour) return wt_fail(err, WT_STATUS_OUT_OF_MEMORY, "out of memory");
    if (start >= 0)
        while (p->tour[at] != start) at++;
    for (int i = 0; i < n; i++) out.tour[i] = p->tour[(at + i) % n];
    out.n = n;
    out.length = p->length;
    out.length_real = wt_length_real(p->inst, p->length);
    out.init_length = p->init_length;
    out.stop = (wt_stop_reason)mt->stop;
    out.time_s = MPI_Wtime() - p->sched.t0;
    out.init_time_s = p->init_time_s;
    out.init_cut = p->init_cut;
    out.init_made = p->init_made;
    out.init_given = p->params->start_tour != NULL;
    out.search_time_s = out.time_s - p->init_time_s;
    out.steps = p->steps;
    out.ils.kicks = p->kicks;
    out.ils.kicks_accepted = p->kept;
    out.ils.gpu_time_s = p->gpu_s; /* every rank's GPU */
    out.scan.passes = p->passes;
    out.scan.time_s = p->scan_s;
    out.ils.descent = p->mine.tour ? p->mine.ils.descent : WT_ILS_AUTO;
    snprintf(out.backend, sizeof out.backend, "%s", p->mine.tour ? p->mine.backend : "cpu");
    out.host = p->mine.tour ? p->mine.host : true;
    wt_mpi_device_name(out.device, sizeof out.device, p->size, WT_MPI_PARTS,
                       p->mine.tour ? p->mine.device : "host");
    out.lower_bound = -1;
    out.gap_to_bound_percent = -1;
    *res = out;
    return WT_OK;
}

wt_status wt_mpi_parts(MPI_Comm comm, const wt_instance *inst, const wt_params *params,
                       const wt_mpi_params *mp, wt_result *res, wt_error *err)
{
    parts p;
    wt_status st = parts_open(&p, comm, inst, params, mp, err);
    if ((st = wt_mpi_agree(comm, st, err)) == WT_OK) {
        MPI_Barrier(comm); /* the ranks' clocks start together */
        p.sched.t0 = MPI_Wtime();
        meeting mt = {1, WT_STOP_DONE, -1, -1, p.sched.epoch_s, p.sched.meet_s};
        if (p.rank == p.root) {
            st = start_tour(&p, err);
            mt.length = p.length;
            mt.init_length = p.init_length;
        }
        if ((st = wt_mpi_agree(comm, st, err)) == WT_OK) {
            int rc = MPI_Bcast(&mt, (int)sizeof mt, MPI_BYTE, p.root, comm);
            st = rc == MPI_SUCCESS ? WT_OK : wt_mpi_fail(err, rc, "MPI_Bcast");
            p.length = mt.length;
            p.init_length = mt.init_length;
            if ((st = wt_mpi_agree(comm, st, err)) == WT_OK) st = epochs(&p, &mt, err);
        }
        if (st == WT_OK) { /* else agreed already: a second agreement would name rank 0 */
            wt_result out = {0};
            if (p.rank == p.root) st = finish(&p, &mt, &out, err);
            if (st == WT_OK && p.rank == p.root) final_report(&p, &out);
            if ((st = wt_mpi_agree(comm, st, err)) == WT_OK) *res = out;
            else wt_result_free(&out);
        }
    }
    parts_close(&p);
    return st;
}
