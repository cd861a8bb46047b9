/*
 * sa_job.c - the one check of a simulated annealing job, made by wt_solve
 * on its parameters and by each backend's sa slot on the job it is given.
 */
#include <math.h>

#include "backend/backend.h"
#include "core/error.h"

/* Whether t is a finite temperature above 0. */
static bool temperature(double t) { return isfinite(t) && t > 0; }

wt_status wt_sa_job_check(const wt_sa_job *job, const char *who, wt_error *err)
{
#define BAD(...) wt_fail(err, WT_STATUS_INVALID_ARGUMENT, __VA_ARGS__)
    if (job->searches < 0)
        return BAD("%s: sa: params.sa_searches is %d; expected 0 (the backend's choice) or more",
                   who, job->searches);
    if (job->moves < 0)
        return BAD("%s: sa: params.sa_moves is %d; expected 0 (the backend's choice) or more",
                   who, job->moves);
    if (!temperature(job->t_start))
        return BAD("%s: sa: params.sa_t_start must be a finite temperature above 0", who);
    if (!temperature(job->t_end))
        return BAD("%s: sa: params.sa_t_end must be a finite temperature above 0", who);
    if (!(job->alpha > 0 && job->alpha < 1))
        return BAD("%s: sa: params.sa_alpha must lie in (0, 1)", who);
    if (job->sweeps < 1)
        return BAD("%s: sa: params.sa_sweeps is %d; expected 1 or more", who, job->sweeps);
    if (job->exchange < 1)
        return BAD("%s: sa: params.sa_exchange is %d; expected 1 or more", who, job->exchange);
    if (job->cpu != WT_SA_SSPM && job->cpu != WT_SA_PSSM)
        return BAD("%s: sa: params.sa_cpu %d is no wt_sa_cpu_scheme", who, (int)job->cpu);
    if (job->near < 0 || job->near == 1)
        return BAD("%s: sa: params.sa_near is %d; expected 0 (off) or at least 2", who,
                   job->near);
    return WT_OK;
#undef BAD
}
