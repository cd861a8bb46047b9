/*
 * ascent_job.c - the one check of a Held-Karp ascent job, made by each
 * backend's ascent slot on the job it is given (backend.h).
 */
#include <math.h>

#include "backend/backend.h"
#include "core/ascent_rule.h"
#include "core/error.h"
#include "core/onetree.h"

wt_status wt_ascent_job_check(const wt_instance *inst, const wt_ascent_job *job, wt_error *err)
{
    if (!inst || !job)
        return wt_fail(err, WT_STATUS_INVALID_ARGUMENT, "ascent: NULL instance or job");
    if (!job->graph || !job->pi || !job->candidates)
        return wt_fail(err, WT_STATUS_INVALID_ARGUMENT,
                       "ascent: the job's graph, pi and candidates must not be NULL");
    if (job->graph_k < 1 || job->candidates_k < 1)
        return wt_fail(err, WT_STATUS_INVALID_ARGUMENT,
                       "ascent: graph_k (%d) and candidates_k (%d) must be >= 1", job->graph_k,
                       job->candidates_k);
    if (job->iterations < 0)
        return wt_fail(err, WT_STATUS_INVALID_ARGUMENT, "ascent: iterations %d < 0",
                       job->iterations);
    if (isnan(job->until))
        return wt_fail(err, WT_STATUS_INVALID_ARGUMENT, "ascent: until is NaN");
    wt_status st = wt_onetree_check_lengths(inst, err);
    if (st != WT_OK) return st;
    for (int i = 0; i < inst->n; i++)
        if (job->pi[i] > WT_ASCENT_PI_LIMIT || job->pi[i] < -WT_ASCENT_PI_LIMIT)
            return wt_fail(err, WT_STATUS_INVALID_ARGUMENT,
                           "ascent: start penalty pi[%d] = %d beyond +-2^30", i,
                           (int)job->pi[i]);
    return WT_OK;
}
