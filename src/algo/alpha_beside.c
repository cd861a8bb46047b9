/*
 * alpha_beside.c - the bound's ascent in a thread beside the search
 * (alpha_beside.h).
 */
#include "algo/alpha_beside.h"

#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "core/error.h"
#include "core/instance.h"

/* Rows of candidates the slot makes beside the bound alone (unused; the
 * slot's finish makes them anyway). */
#define BESIDE_CANDIDATES 5

struct wt_alpha_beside {
    const wt_instance *inst;
    wt_device dev;
    wt_params params; /* the search's, with this ascent's stop flag and no progress */
    wt_search_ctl ctl;
    wt_alpha_plan plan, host_plan;
    int k; /* candidates a city */
    volatile int stop;
    pthread_t thread;
    wt_alpha alpha;
    wt_status status;
    wt_error err;
    _Atomic int64_t bound; /* alpha.lower_bound once the thread has it; 0 before */
};

static void *beside_main(void *user)
{
    wt_alpha_beside *b = user;
    b->status = wt_alpha_run(b->inst, &b->dev, &b->ctl, &b->plan, &b->host_plan, b->k,
                             &b->alpha, &b->err);
    if (b->status == WT_OK && b->alpha.candidates && b->alpha.lower_bound > 0)
        atomic_store(&b->bound, b->alpha.lower_bound);
    return NULL;
}

int64_t wt_alpha_beside_bound(const void *b)
{
    return b ? atomic_load(&((wt_alpha_beside *)b)->bound) : 0;
}

void wt_alpha_beside_start(const wt_instance *inst, const wt_device *dev,
                           const wt_search_ctl *ctl, const wt_alpha_plan *plan,
                           const wt_alpha_plan *host_plan, int k, int threads,
                           wt_alpha_beside **out)
{
    *out = NULL;
    wt_alpha_beside *b = calloc(1, sizeof *b);
    if (!b) return;
    b->inst = inst;
    b->dev = *dev;
    b->params = *ctl->params;
    b->params.progress = NULL;
    b->params.progress_user = NULL;
    b->params.stop_flag = &b->stop;
    b->params.threads = threads > 0 ? threads : 1;
    wt_ctl_init(&b->ctl, &b->params);
    b->ctl.t_start = ctl->t_start;
    b->ctl.deadline = ctl->deadline;
    b->ctl.next_report = INFINITY;
    b->plan = *plan;
    b->k = k > 0 ? k : BESIDE_CANDIDATES;
    if (b->k > inst->n - 1) b->k = inst->n - 1;
    /* negative iterations: no host ascent (alpha.h) */
    b->host_plan = host_plan ? *host_plan : (wt_alpha_plan){.until = plan->until, .iterations = -1};
    b->alpha.lower_bound = -1;
    atomic_init(&b->bound, 0);
    if (pthread_create(&b->thread, NULL, beside_main, b) != 0) {
        free(b);
        return;
    }
    *out = b;
}

wt_status wt_alpha_beside_take(wt_alpha_beside *b, bool stop, wt_alpha *out, wt_error *err)
{
    if (stop) b->stop = 1;
    pthread_join(b->thread, NULL);
    wt_status st = b->status;
    if (st == WT_OK) {
        *out = b->alpha;
    } else {
        *out = (wt_alpha){.lower_bound = -1};
        wt_alpha_free(&b->alpha);
        if (err) *err = b->err;
    }
    free(b);
    return st;
}

void wt_alpha_beside_end(wt_alpha_beside *b, bool stop, wt_search_stats *stats)
{
    if (!b) return;
    wt_alpha alpha;
    if (wt_alpha_beside_take(b, stop, &alpha, NULL) == WT_OK && alpha.candidates) {
        wt_alpha_stats(&alpha, stats);
        if (alpha.lower_bound > 0) stats->lower_bound = alpha.lower_bound;
    }
    wt_alpha_free(&alpha);
}
