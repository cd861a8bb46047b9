/*
 * mpi_batch.c - a batch dealt to the ranks of a communicator
 * (wt_mpi_solve_batch, warptour_mpi.h).
 *
 * Instance i goes to rank i mod P, which solves its share as one batch in
 * which each instance keeps its number in the whole (wt_batch_from.index):
 * its random stream is (seed, i) as in one process, so a kick budget gives
 * the same tours however many ranks there are.  Then the root gathers each
 * rank's share, a fixed-size record an instance followed by the tours'
 * cities, and puts the instances back in their order.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "algo/batch.h"
#include "algo/batch_lk.h"
#include "core/error.h"
#include "mpi/mpi_agree.h"
#include "mpi/mpi_share.h"
#include "warptour_mpi.h"

int wt_mpi_batch_owner(int i, int size) { return size > 0 ? i % size : 0; }

/* One instance's outcome as it travels (wt_batch_tour without its tour). */
typedef struct sent_tour {
    int32_t status, n, on_gpu;
    int64_t length, init_length;
    double length_real;
    uint64_t kicks;
    char message[256];
} sent_tour;

/* A rank's totals as they travel. */
typedef struct sent_totals {
    int32_t count, stop;
    uint64_t kicks;
    double gpu_time_s;
    char backend[16];
    char device[128];
} sent_totals;

/* The instances of this rank: their numbers in the batch. */
typedef struct share {
    int count;
    uint64_t *index;
    const wt_instance **inst;
} share;

static void share_free(share *s)
{
    free(s->index);
    free(s->inst);
}

static wt_status share_of(const wt_instance *const *insts, int count, int rank, int size,
                          share *s, wt_error *err)
{
    s->count = count / size + (rank < count % size);
    s->index = calloc((size_t)s->count + 1, sizeof *s->index);
    s->inst = calloc((size_t)s->count + 1, sizeof *s->inst);
    if (!s->index || !s->inst) return wt_fail(err, WT_STATUS_OUT_OF_MEMORY, "out of memory");
    for (int j = 0; j < s->count; j++) {
        int i = rank + j * size;
        s->index[j] = (uint64_t)i;
        s->inst[j] = insts[i];
    }
    return WT_OK;
}

/* The share's records, totals and cities, packed to be sent. */
typedef struct packed {
    sent_totals totals;
    sent_tour *rec;
    int32_t *cities;
    int n_cities;
} packed;

static wt_status pack_share(const wt_batch_result *r, int count, packed *p, wt_error *err)
{
    memset(p, 0, sizeof *p);
    p->totals.count = count;
    p->rec = calloc((size_t)count + 1, sizeof *p->rec);
    int64_t cities = 0;
    for (int j = 0; j < count; j++) cities += r->tours[j].status == WT_OK ? r->tours[j].n : 0;
    if (cities > INT_MAX)
        return wt_fail(err, WT_STATUS_TOO_LARGE, "a rank's share of the batch has more than "
                       "%d cities in all; use more ranks", INT_MAX);
    p->cities = malloc(((size_t)cities + 1) * sizeof *p->cities);
    if (!p->rec || !p->cities) return wt_fail(err, WT_STATUS_OUT_OF_MEMORY, "out of memory");
    if (count == 0) return WT_OK;
    p->totals.stop = (int32_t)r->stop;
    p->totals.kicks = r->kicks;
    p->totals.gpu_time_s = r->gpu_time_s;
    memcpy(p->totals.backend, r->backend, sizeof p->totals.backend);
    memcpy(p->totals.device, r->device, sizeof p->totals.device);
    for (int j = 0; j < count; j++) {
        const wt_batch_tour *t = &r->tours[j];
        sent_tour *s = &p->rec[j];
        *s = (sent_tour){(int32_t)t->status, t->n, t->on_gpu, t->length, t->init_length,
                         t->length_real, t->kicks, ""};
        memcpy(s->message, t->message, sizeof s->message);
        if (t->status != WT_OK) continue;
        memcpy(p->cities + p->n_cities, t->tour, (size_t)t->n * sizeof *t->tour);
        p->n_cities += t->n;
    }
    return WT_OK;
}

static void packed_free(packed *p)
{
    free(p->rec);
    free(p->cities);
}

/* What the root receives: every rank's totals, records and cities. */
typedef struct gathered {
    sent_totals *totals;
    sent_tour *rec;
    int32_t *cities;
    int *rec_counts, *rec_displs, *city_counts, *city_displs;
} gathered;

static void gathered_free(gathered *g)
{
    free(g->totals);
    free(g->rec);
    free(g->cities);
    free(g->rec_counts);
    free(g->rec_displs);
    free(g->city_counts);
    free(g->city_displs);
}

/* Displacements from counts; false when they overflow an int. */
static bool displacements(const int *counts, int *displs, int size, int64_t *total)
{
    *total = 0;
    for (int r = 0; r < size; r++) {
        displs[r] = (int)*total;
        *total += counts[r];
        if (*total > INT_MAX) return false;
    }
    return true;
}

/* Gathers every rank's share onto root; a collective whose outcome every
 * rank agrees on. */
static wt_status gather_shares(MPI_Comm comm, int root, int rank, int size, const packed *p,
                               gathered *g, wt_error *err)
{
    memset(g, 0, sizeof *g);
    wt_status st = WT_OK;
    if (rank == root) {
        g->totals = calloc((size_t)size, sizeof *g->totals);
        g->rec_counts = calloc((size_t)size, sizeof(int));
        g->rec_displs = calloc((size_t)size, sizeof(int));
        g->city_counts = calloc((size_t)size, sizeof(int));
        g->city_displs = calloc((size_t)size, sizeof(int));
        if (!g->totals || !g->rec_counts || !g->rec_displs || !g->city_counts || !g->city_displs)
            st = wt_fail(err, WT_STATUS_OUT_OF_MEMORY, "out of memory gathering a batch");
    }
    if ((st = wt_mpi_agree(comm, st, err)) != WT_OK) return st;
    int rc = MPI_Gather(&p->totals, (int)sizeof p->totals, MPI_BYTE, g->totals,
                        (int)sizeof p->totals, MPI_BYTE, root, comm);
    if (rc == MPI_SUCCESS)
        rc = MPI_Gather(&p->n_cities, 1, MPI_INT, g->city_counts, 1, MPI_INT, root, comm);
    if (rc != MPI_SUCCESS) return wt_mpi_fail(err, rc, "MPI_Gather");
    if (rank == root) {
        int64_t recs = 0, cities = 0;
        for (int r = 0; r < size; r++)
            g->rec_counts[r] = g->totals[r].count * (int)sizeof(sent_tour);
        if (!displacements(g->rec_counts, g->rec_displs, size, &recs) ||
            !displacements(g->city_counts, g->city_displs, size, &cities))
            st = wt_fail(err, WT_STATUS_TOO_LARGE, "the batch's tours exceed what one "
                         "MPI_Gatherv can carry (%d items)", INT_MAX);
        if (st == WT_OK) {
            g->rec = malloc((size_t)recs + 1);
            g->cities = malloc(((size_t)cities + 1) * sizeof *g->cities);
            if (!g->rec || !g->cities)
                st = wt_fail(err, WT_STATUS_OUT_OF_MEMORY, "out of memory gathering a batch");
        }
    }
    if ((st = wt_mpi_agree(comm, st, err)) != WT_OK) return st;
    rc = MPI_Gatherv(p->rec, p->totals.count * (int)sizeof(sent_tour), MPI_BYTE, g->rec,
                     g->rec_counts, g->rec_displs, MPI_BYTE, root, comm);
    if (rc == MPI_SUCCESS)
        rc = MPI_Gatherv(p->cities, p->n_cities, MPI_INT32_T, g->cities, g->city_counts,
                         g->city_displs, MPI_INT32_T, root, comm);
    return rc == MPI_SUCCESS ? WT_OK : wt_mpi_fail(err, rc, "MPI_Gatherv");
}

/* Rank r's j-th record; *city_at: where its cities begin among rank r's. */
static wt_status unpack_one(const gathered *g, int r, int j, int64_t *city_at, wt_batch_tour *t)
{
    const sent_tour *s = (const sent_tour *)((const char *)g->rec + g->rec_displs[r]) + j;
    *t = (wt_batch_tour){.status = (wt_status)s->status, .n = s->n, .length = s->length,
                         .length_real = s->length_real, .init_length = s->init_length,
                         .kicks = s->kicks, .on_gpu = s->on_gpu != 0};
    memcpy(t->message, s->message, sizeof t->message);
    if (t->status != WT_OK) return WT_OK;
    t->tour = malloc((size_t)t->n * sizeof *t->tour);
    if (!t->tour) return WT_STATUS_OUT_OF_MEMORY;
    memcpy(t->tour, g->cities + g->city_displs[r] + *city_at, (size_t)t->n * sizeof *t->tour);
    *city_at += t->n;
    return WT_OK;
}

/* The whole batch's result on root from what it gathered. */
static wt_status unpack(const gathered *g, int count, int size, double t0, wt_batch_result *res,
                        wt_error *err)
{
    memset(res, 0, sizeof *res);
    res->tours = calloc((size_t)count, sizeof *res->tours);
    int64_t *city_at = calloc((size_t)size, sizeof *city_at);
    wt_status st = res->tours && city_at ? WT_OK : WT_STATUS_OUT_OF_MEMORY;
    res->count = count;
    for (int i = 0; i < count && st == WT_OK; i++) {
        int r = wt_mpi_batch_owner(i, size);
        st = unpack_one(g, r, i / size, &city_at[r], &res->tours[i]);
        res->failed += res->tours[i].status != WT_OK;
        res->on_gpu += res->tours[i].on_gpu;
    }
    free(city_at);
    if (st != WT_OK) {
        wt_batch_result_free(res);
        return wt_fail(err, st, "out of memory for a batch's tours");
    }
    int first = -1;
    for (int r = 0; r < size; r++) {
        res->kicks += g->totals[r].kicks;
        res->gpu_time_s += g->totals[r].gpu_time_s;
        if (g->totals[r].count > 0 && (wt_stop_reason)g->totals[r].stop > res->stop)
            res->stop = (wt_stop_reason)g->totals[r].stop;
        if (g->totals[r].count > 0 && first < 0) first = r;
    }
    const sent_totals *f = &g->totals[first < 0 ? 0 : first];
    snprintf(res->backend, sizeof res->backend, "%.*s", (int)sizeof f->backend - 1, f->backend);
    /* The rank count in front leaves room for 100 bytes of the name. */
    snprintf(res->device, sizeof res->device, "%d ranks: %.100s", size, f->device);
    res->time_s = MPI_Wtime() - t0;
    return WT_OK;
}

/* Checks that every rank was given the same count and root. */
static wt_status check_same(MPI_Comm comm, int count, int root, int size, wt_error *err)
{
    int mine[2] = {count, root}, lo[2], hi[2];
    int rc = MPI_Allreduce(mine, lo, 2, MPI_INT, MPI_MIN, comm);
    if (rc == MPI_SUCCESS) rc = MPI_Allreduce(mine, hi, 2, MPI_INT, MPI_MAX, comm);
    if (rc != MPI_SUCCESS) return wt_mpi_fail(err, rc, "MPI_Allreduce");
    if (lo[0] != hi[0] || lo[1] != hi[1])
        return wt_fail(err, WT_STATUS_INVALID_ARGUMENT, "wt_mpi_solve_batch: the ranks were "
                       "given different counts (%d to %d) or roots (%d to %d)", lo[0], hi[0],
                       lo[1], hi[1]);
    if (count < 1 || root < 0 || root >= size)
        return wt_fail(err, WT_STATUS_INVALID_ARGUMENT, "wt_mpi_solve_batch: need count >= 1 "
                       "(got %d) and a root among the %d ranks (got %d)", count, size, root);
    return WT_OK;
}

/* This rank's share solved and packed (count 0: nothing to solve). */
static wt_status solve_share(const share *sh, const wt_batch_params *params, packed *p,
                             wt_error *err)
{
    wt_batch_result r = {0};
    wt_status st = WT_OK;
    if (sh->count > 0) {
        wt_batch_from from = {.index = sh->index, .lk = wt_batch_lk_run};
        st = wt_batch_solve_from(sh->inst, sh->count, params, &from, &r, err);
    }
    if (st == WT_OK) st = pack_share(&r, sh->count, p, err);
    wt_batch_result_free(&r);
    return st;
}

wt_status wt_mpi_solve_batch(MPI_Comm comm, int root, const wt_instance *const *insts, int count,
                             const wt_batch_params *params, wt_batch_result *res, wt_error *err)
{
    int rank = 0, size = 1;
    if (comm == MPI_COMM_NULL || MPI_Comm_rank(comm, &rank) != MPI_SUCCESS ||
        MPI_Comm_size(comm, &size) != MPI_SUCCESS)
        return wt_fail(err, WT_STATUS_INVALID_ARGUMENT, "wt_mpi_solve_batch: not a communicator");
    double t0 = MPI_Wtime();
    wt_status st = check_same(comm, count, root, size, err);
    if (st != WT_OK) return st;
    if (!insts || !params || !res)
        st = wt_fail(err, WT_STATUS_INVALID_ARGUMENT, "wt_mpi_solve_batch: need instances, "
                     "parameters and a result");
    share sh = {0, NULL, NULL};
    packed p = {0};
    wt_mpi_place place = wt_mpi_place_of(comm);
    wt_batch_params mine = {0};
    if (st == WT_OK) {
        mine = *params;
        wt_mpi_share_apply(place, &mine.threads, &mine.cuda_device, mine.device_count);
        st = share_of(insts, count, rank, size, &sh, err);
    }
    if (st == WT_OK) st = solve_share(&sh, &mine, &p, err);
    share_free(&sh);
    gathered g = {0};
    if ((st = wt_mpi_agree(comm, st, err)) == WT_OK)
        st = gather_shares(comm, root, rank, size, &p, &g, err);
    packed_free(&p);
    wt_batch_result out = {0};
    if (st == WT_OK && rank == root) st = unpack(&g, count, size, t0, &out, err);
    gathered_free(&g);
    if ((st = wt_mpi_agree(comm, st, err)) != WT_OK) {
        wt_batch_result_free(&out);
        return st;
    }
    *res = out;
    return WT_OK;
}
