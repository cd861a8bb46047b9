/*
 * mpi_schedule.c - the epochs' budgets and the meetings' decision that
 * both modes of wt_mpi_solve share (mpi_schedule.h).
 */
#include "mpi/mpi_schedule.h"

#include <math.h>
#include <string.h>

#include "core/rng.h"

void wt_mpi_schedule_open(wt_mpi_schedule *s, const wt_params *params,
                          const wt_mpi_params *mp, double meet_s, int untimed_epochs)
{
    memset(s, 0, sizeof *s);
    s->by_kicks = params->kicks > 0;
    s->kicks_left = params->kicks;
    s->epoch_kicks = mp->epoch_kicks ? mp->epoch_kicks : params->kicks / 4;
    if (s->epoch_kicks == 0) s->epoch_kicks = 1;
    s->time_limit_s = params->time_limit_s > 0 ? params->time_limit_s : 0;
    if (!s->by_kicks && s->time_limit_s > 0)
        s->epoch_s = mp->epoch_s > 0 ? mp->epoch_s : fmax(1, s->time_limit_s / 8);
    s->untimed_left = !s->by_kicks && !(s->time_limit_s > 0) ? untimed_epochs : 0;
    s->meet_s = meet_s;
}

uint64_t wt_mpi_epoch_seed(uint64_t seed, int rank, int epoch)
{
    uint64_t s = seed ^ ((uint64_t)(unsigned)rank << 40) ^ (uint64_t)(unsigned)epoch;
    return wt_splitmix64(&s);
}

/* The kicks an epoch takes off the budget: epoch_kicks, or what is left. */
static uint64_t epoch_share(const wt_mpi_schedule *s)
{
    if (!s->by_kicks) return 0;
    return s->kicks_left < s->epoch_kicks ? s->kicks_left : s->epoch_kicks;
}

void wt_mpi_schedule_epoch(wt_mpi_schedule *s, int epoch, double now, uint64_t *kicks,
                           double *time_limit_s)
{
    bool first_descent = !s->by_kicks && s->epoch_s > 0 && epoch == 0;
    *kicks = first_descent ? 1 : epoch_share(s);
    *time_limit_s = 0;
    if (s->time_limit_s > 0) {
        double left = s->t0 + s->time_limit_s - now - s->meet_s;
        if (!first_descent && s->epoch_s > 0 && s->epoch_s < left) left = s->epoch_s;
        *time_limit_s = fmax(left, 1e-3);
    }
    s->epoch_limit_s = *time_limit_s;
}

void wt_mpi_schedule_spent(wt_mpi_schedule *s)
{
    s->kicks_left -= epoch_share(s);
    if (s->untimed_left > 0) s->untimed_left--;
}

bool wt_mpi_schedule_decide(wt_mpi_schedule *s, int32_t stop, double meet_started, double now)
{
    if (s->epoch_s > 0) s->epoch_s = fmax(s->epoch_s, meet_started - s->epoch_started);
    double overrun = s->epoch_limit_s > 0 ? meet_started - s->epoch_started - s->epoch_limit_s : 0;
    s->meet_s = fmax(s->meet_s, 2 * (now - meet_started) + fmax(overrun, 0));
    bool stopped = stop == WT_STOP_INTERRUPTED || (s->by_kicks && stop == WT_STOP_TIME_LIMIT);
    bool time_left = !(s->time_limit_s > 0) ||
                     s->t0 + s->time_limit_s - now - s->meet_s > WT_MPI_MIN_EPOCH_S;
    bool work_left = s->by_kicks ? s->kicks_left > 0 : s->epoch_s > 0 || s->untimed_left > 0;
    return !stopped && time_left && work_left;
}
