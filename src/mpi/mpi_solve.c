/*
 * mpi_solve.c - wt_mpi_solve (warptour_mpi.h): the checks both ways of
 * sharing one instance need, and which of them runs.
 *
 * The mode must be the same on every rank, so the root picks it (AUTO
 * looks at its own GPU) and tells the others; each mode then runs on every
 * rank with the same arguments (mpi_modes.h).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/error.h"
#include "mpi/mpi_agree.h"
#include "mpi/mpi_modes.h"
#include "mpi/mpi_share.h"
#include "warptour_experimental.h"

void wt_mpi_params_defaults(wt_mpi_params *p)
{
    if (!p) return;
    memset(p, 0, sizeof *p);
    p->mode = WT_MPI_AUTO;
}

const char *wt_mpi_mode_name(wt_mpi_mode mode)
{
    switch (mode) {
    case WT_MPI_AUTO: return "auto";
    case WT_MPI_ISLANDS: return "islands";
    case WT_MPI_PARTS: return "parts";
    }
    return NULL;
}

void wt_mpi_device_name(char *out, size_t out_size, int ranks, wt_mpi_mode mode,
                        const char *device)
{
    /* The rank count and mode in front leave room for 100 bytes of the name. */
    snprintf(out, out_size, "%d ranks, %s: %.100s", ranks, wt_mpi_mode_name(mode), device);
}

void wt_mpi_no_bound(const wt_tuning *given, wt_tuning *out)
{
    if (given) *out = *given;
    else memset(out, 0, sizeof *out);
    if (out->lk_alpha == 0) out->lk_alpha = WT_TUNING_OFF;
}

/* The refusals of warptour_mpi.h that hold for both modes, before any
 * search. */
static wt_status check_args(const wt_instance *inst, const wt_params *params, wt_result *res,
                            const wt_mpi_params *mp, int size, wt_error *err)
{
    if (!inst || !params || !res)
        return wt_fail(err, WT_STATUS_INVALID_ARGUMENT, "wt_mpi_solve: need an instance, "
                       "parameters and a result");
    if (params->algorithm != WT_ALGO_ILS)
        return wt_fail(err, WT_STATUS_UNSUPPORTED, "searches over MPI ranks run ils, not %s; "
                       "run one rank", wt_algorithm_name(params->algorithm));
    if (params->open || params->end_city >= 0)
        return wt_fail(err, WT_STATUS_UNSUPPORTED, "searches over MPI ranks cannot keep an "
                       "open path's ends; run one rank");
    if (wt_instance_is_asymmetric(inst))
        return wt_fail(err, WT_STATUS_UNSUPPORTED, "searches over MPI ranks take symmetric "
                       "instances only; run one rank");
    if (!wt_mpi_mode_name(mp->mode))
        return wt_fail(err, WT_STATUS_INVALID_ARGUMENT, "wt_mpi_solve: mode %d is none of "
                       "auto, islands and parts", (int)mp->mode);
    if (!(mp->epoch_s >= 0) || !isfinite(mp->epoch_s) || mp->root < 0 || mp->root >= size)
        return wt_fail(err, WT_STATUS_INVALID_ARGUMENT, "wt_mpi_solve: epoch_s must be finite "
                       "and not negative, root one of the %d ranks", size);
    return WT_OK;
}

/* Whether the root's own search would run on a GPU, where islands keep
 * the lead to larger tours (WT_MPI_PARTS_GPU_CITIES). */
static bool gpu_would_serve(const wt_params *params)
{
    if (params->backend == WT_BACKEND_CUDA) return true;
    return params->backend == WT_BACKEND_AUTO && wt_cuda_available(NULL, 0);
}

/* Root: the mode mp asks for, AUTO resolved; WT_MPI_AUTO when forced
 * parts cannot run (why says why). */
static wt_mpi_mode pick(const wt_instance *inst, const wt_params *params,
                        const wt_mpi_params *mp, char *why, size_t why_size)
{
    bool parts_ok = wt_mpi_parts_can_run(inst, params, why, why_size);
    if (mp->mode == WT_MPI_PARTS) return parts_ok ? WT_MPI_PARTS : WT_MPI_AUTO;
    if (mp->mode == WT_MPI_ISLANDS) return WT_MPI_ISLANDS;
    int from = gpu_would_serve(params) ? WT_MPI_PARTS_GPU_CITIES : WT_MPI_PARTS_CITIES;
    return wt_instance_n(inst) >= from && parts_ok ? WT_MPI_PARTS : WT_MPI_ISLANDS;
}

wt_status wt_mpi_solve(MPI_Comm comm, const wt_instance *inst, const wt_params *params,
                       const wt_mpi_params *mp, wt_result *res, wt_error *err)
{
    int size = 1, rank = 0;
    if (comm == MPI_COMM_NULL || MPI_Comm_size(comm, &size) != MPI_SUCCESS ||
        MPI_Comm_rank(comm, &rank) != MPI_SUCCESS)
        return wt_fail(err, WT_STATUS_INVALID_ARGUMENT, "wt_mpi_solve: not a communicator");
    wt_mpi_params d;
    wt_mpi_params_defaults(&d);
    if (!mp) mp = &d;
    wt_status st = check_args(inst, params, res, mp, size, err);
    wt_mpi_place place = wt_mpi_place_of(comm);
    wt_params mine;
    if (st == WT_OK) {
        mine = *params;
        wt_mpi_share_apply(place, &mine.threads, &mine.cuda_device, mine.device_count);
        params = &mine;
    }
    int mode = WT_MPI_ISLANDS;
    if (st == WT_OK && rank == mp->root) {
        char why[160] = "";
        mode = (int)pick(inst, params, mp, why, sizeof why);
        if (mode == WT_MPI_AUTO)
            st = wt_fail(err, WT_STATUS_UNSUPPORTED, "the parts mode over MPI ranks %s; run "
                         "the islands mode or one rank", why);
    }
    if ((st = wt_mpi_agree(comm, st, err)) != WT_OK) return st;
    int rc = MPI_Bcast(&mode, 1, MPI_INT, mp->root, comm);
    if ((st = wt_mpi_agree(comm, rc == MPI_SUCCESS ? WT_OK : wt_mpi_fail(err, rc, "MPI_Bcast"),
                           err)) != WT_OK)
        return st;
    if (mode == WT_MPI_PARTS) return wt_mpi_parts(comm, inst, params, mp, res, err);
    return wt_mpi_islands(comm, inst, params, mp, res, err);
}
