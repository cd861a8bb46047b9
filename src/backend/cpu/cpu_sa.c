/*
 * cpu_sa.c - simulated annealing on the CPU (Lam et al., §4.3).
 *
 * The algorithm is the paper's parallel simulated annealing with a light
 * weight SA (Algorithm 2) in every search: `searches` (TB) searches, each
 * keeping one current tour as a doubly linked list.  At every iteration a
 * search evaluates `moves` (TPB) candidate relocations (core/sa_moves.h); the one
 * of least delta (ties to the lower candidate) faces the Metropolis test,
 * and only an accepted move touches the list.  A search's best tour is
 * copied lazily: only when a worsening move is about to be accepted while
 * the current tour beats the stored best (Algorithm 2, line 12); so the
 * current tour may be better than the stored best, and both are looked at
 * whenever the best is wanted.  The temperature drops by alpha every
 * n * sweeps iterations (the paper's Nd * Sp, Nd the number of cities), and
 * every `exchange` steps all searches restart from the best tour among them.
 *
 * The CPU spreads this over its threads in one of the paper's two ways:
 *  - SSPM (single search parallel move): the threads form a team that runs
 *    one search at a time.  Each thread evaluates a fixed block of the
 *    candidates and publishes its best one; every thread keeps its own copy
 *    of the list and, once it has read all the teammates' picks of the
 *    iteration, applies the winner itself if its own copy of the search's
 *    Metropolis stream accepts it.  All decide alike from the same data, so
 *    the picks are the only exchange, and no thread waits for more than
 *    the picks it needs.  Default: one search, one candidate per thread
 *    (the paper's Pm = 12 moves on 12 cores).
 *  - PSSM (parallel search single move): one search per thread, each run
 *    alone for an epoch of `exchange` steps; threads meet only at the
 *    exchanges.  Default: one search per thread (Ps = 12 on 12 cores) and
 *    one candidate per iteration.
 * Candidate j of search s always draws from stream 1 + j of s and the
 * Metropolis test from stream 0 (core/sa_moves.h), so both schemes, with any
 * number of threads, compute exactly the same run for the same searches,
 * moves and seed: the scheme only decides which thread computes what.
 */
#include "backend/cpu/cpu_sa.h"

#include <omp.h>
#include <pthread.h>
#include <stdalign.h>
#include <stdlib.h>
#include <string.h>

#include "core/sa_moves.h"
#include "core/error.h"
#include "core/instance.h"
#include "core/neighbours.h"

/* Iterations between looks at the deadline, the stop flag and progress. */
#define SA_POLL 1024

/* A candidate stream, alone on its cache line: the threads of an SSPM team
 * draw from neighbouring streams at every iteration. */
typedef struct sa_stream {
    alignas(64) wt_rng rng;
} sa_stream;

/* One thread's best candidate of an SSPM iteration, alone on its cache
 * line: one line transfer carries both the data and the news that it is
 * there.  Each thread has two, used at alternate iterations: a thread
 * rewrites a pick only after reading its teammates' picks of the iteration
 * after, which they publish only once done with the one before. */
typedef struct sa_pick {
    alignas(64) uint64_t tick; /* the team's iteration count when written */
    int64_t delta;
    wt_sa_move move;
    int stop;                  /* thread 0's: the run must stop now */
} sa_pick;

/* Where SSPM threads sleep when a teammate's pick is long in coming.  A
 * team meets at every iteration, a fraction of a microsecond, so a thread
 * waits by spinning (libgomp's barrier soon sleeps in the kernel, which
 * costs many times an iteration at every meeting); it sleeps
 * only after SA_SPINS pauses, so that a teammate that lost its core to
 * other work can have it back. */
typedef struct sa_wake {
    alignas(64) int sleepers; /* threads asleep, or about to be */
    pthread_mutex_t lock;
    pthread_cond_t cond;
} sa_wake;

/* Pauses before a waiting thread sleeps: together far longer than an
 * iteration. */
#define SA_SPINS 1024

/* What a search shows the reporting thread (relaxed atomics, as in
 * core/search_ctl.c). */
typedef struct sa_pub {
    alignas(64) int64_t len; /* min(current, stored best) at its last poll */
    uint64_t improved;
} sa_pub;

typedef struct sa_search {
    int32_t *prev, *next;  /* the current tour */
    int32_t *best_next;    /* the stored best tour: each city's successor */
    int64_t cur_len, best_len;
    wt_rng accept;         /* stream 0: Metropolis draws */
    sa_stream *streams;    /* streams 1..moves: candidate draws */
    double t;              /* temperature of the step in progress */
    uint64_t iterations, accepted, improved;
} sa_search;

typedef struct sa_run {
    const wt_instance *inst;
    const wt_sa_job *job;
    wt_search_ctl *ctl;
    int n;
    int32_t *near;         /* job->near > 0: n x job->near nearest cities */
    uint64_t step_iters;   /* iterations per temperature step: n * sweeps */
    int threads;           /* asked of OpenMP */
    sa_search *searches;   /* job->searches */
    sa_stream *streams;    /* job->searches * job->moves */
    sa_pub *pub;           /* one per search */
    sa_pick *picks;        /* SSPM: 2 per thread, alternating */
    sa_wake wake;          /* SSPM: threads tired of waiting for a pick */
    int32_t *copies;       /* SSPM: prev and next of threads 1.. */
    int32_t *lists;        /* prev, next, best_next of every search */
    int stop;              /* a thread saw ctl expire; atomics */
    int epoch_stop;        /* PSSM: the run ends after this epoch */
    double t_after;        /* the schedule's next temperature at the end */
} sa_run;

/* One thread's view of the search it works on. */
typedef struct sa_worker {
    int tid;              /* within the team, 0 .. team - 1; 0 keeps the books */
    int team;             /* threads on one search: 1 in PSSM */
    bool reporter;        /* OpenMP thread 0: may call the progress callback */
    int first, last;      /* the candidates it evaluates, [first, last) */
    int32_t *prev, *next; /* its list: the search's own for tid 0, else a copy */
    wt_rng accept;        /* its copy of the search's Metropolis stream */
    uint64_t tick;        /* SSPM: iterations of the team so far (all alike) */
} sa_worker;

/* ------------------------------------------------------------- lists */

static void sa_list_from_tour(const int32_t *tour, int n, int32_t *prev, int32_t *next)
{
    for (int i = 0; i < n; i++) {
        int32_t c = tour[i], d = tour[i + 1 < n ? i + 1 : 0];
        next[c] = d;
        prev[d] = c;
    }
}

static void sa_prev_from_next(const int32_t *next, int n, int32_t *prev)
{
    for (int c = 0; c < n; c++) prev[next[c]] = c;
}

/* The tour of a successor array, from city 0. */
static void sa_tour_from_next(const int32_t *next, int n, int32_t *tour)
{
    int32_t c = 0;
    for (int i = 0; i < n; i++) {
        tour[i] = c;
        c = next[c];
    }
}

/* ------------------------------------------------------------ stopping */

static bool sa_stopped(sa_run *r)
{
    int stop;
#pragma omp atomic read
    stop = r->stop;
    return stop != 0;
}

static void sa_set_stop(sa_run *r)
{
#pragma omp atomic write
    r->stop = 1;
}

/* Publishes search s's state and says whether the run must stop.  Called by
 * the thread keeping s's books; OpenMP thread 0 also reports progress. */
static bool sa_poll(sa_run *r, int s, const sa_worker *w)
{
    sa_search *se = &r->searches[s];
    int64_t mine = se->cur_len < se->best_len ? se->cur_len : se->best_len;
    __atomic_store_n(&r->pub[s].len, mine, __ATOMIC_RELAXED);
    __atomic_store_n(&r->pub[s].improved, se->improved, __ATOMIC_RELAXED);
    if (sa_stopped(r)) return true;
    bool expired;
    if (w->reporter) {
        int64_t best = INT64_MAX;
        uint64_t improved = 0;
        for (int k = 0; k < r->job->searches; k++) {
            int64_t len = __atomic_load_n(&r->pub[k].len, __ATOMIC_RELAXED);
            best = len < best ? len : best;
            improved += __atomic_load_n(&r->pub[k].improved, __ATOMIC_RELAXED);
        }
        r->ctl->temperature = se->t;
        expired = wt_ctl_report(r->ctl, best, improved, false);
    } else {
        expired = wt_ctl_expired(r->ctl);
    }
    if (expired) sa_set_stop(r);
    return expired;
}

static void sa_cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

/* Publishes a thread's pick.  The tick is stored sequentially consistent,
 * as `sleepers` is read and written: either the publisher sees a sleeper
 * and wakes it, or the sleeper sees the tick before it sleeps. */
static void sa_publish(sa_run *r, sa_pick *pick, uint64_t tick)
{
    __atomic_store_n(&pick->tick, tick, __ATOMIC_SEQ_CST);
    if (__atomic_load_n(&r->wake.sleepers, __ATOMIC_SEQ_CST) > 0) {
        pthread_mutex_lock(&r->wake.lock);
        pthread_cond_broadcast(&r->wake.cond);
        pthread_mutex_unlock(&r->wake.lock);
    }
}

/* Waits until a teammate's pick of iteration `tick` is there (acquire: its
 * contents are then visible). */
static void sa_await(sa_run *r, const sa_pick *pick, uint64_t tick)
{
    for (int spins = 0; spins < SA_SPINS; spins++) {
        if (__atomic_load_n(&pick->tick, __ATOMIC_ACQUIRE) == tick) return;
        sa_cpu_relax();
    }
    pthread_mutex_lock(&r->wake.lock);
    __atomic_add_fetch(&r->wake.sleepers, 1, __ATOMIC_SEQ_CST);
    while (__atomic_load_n(&pick->tick, __ATOMIC_SEQ_CST) != tick)
        pthread_cond_wait(&r->wake.cond, &r->wake.lock);
    __atomic_sub_fetch(&r->wake.sleepers, 1, __ATOMIC_SEQ_CST);
    pthread_mutex_unlock(&r->wake.lock);
}

/* ---------------------------------------------------------- the search */

/* Runs search s through `steps` temperature steps from temperature t
 * (Algorithm 2 with `moves` candidates per iteration).  The members of an
 * SSPM team call it together.  Returns false when the run must stop; the
 * whole team then returns at the same iteration. */
static bool sa_segment(sa_run *r, int s, sa_worker *w, double t, uint64_t steps)
{
    sa_search *se = &r->searches[s];
    const wt_instance *inst = r->inst;
    const int n = r->n;
    const bool books = w->tid == 0;
    int32_t *prev = w->prev, *next = w->next;
    if (!books) { /* the team's thread 0 commits to the search's own list */
        memcpy(prev, se->prev, (size_t)n * sizeof *prev);
        memcpy(next, se->next, (size_t)n * sizeof *next);
    }
    w->accept = se->accept;
    uint64_t it = 0;
    bool go = true;
    for (uint64_t k = 0; go && k < steps; k++, t *= r->job->alpha) {
        if (books) se->t = t;
        for (uint64_t i = 0; i < r->step_iters; i++, it++) {
            int stop = books && it % SA_POLL == 0 && sa_poll(r, s, w);
            if (stop && w->team == 1) {
                go = false;
                break;
            }
            int64_t delta = INT64_MAX;
            wt_sa_move move = {0, 0};
            for (int j = w->first; j < w->last; j++) {
                wt_sa_move m = r->near ? wt_sa_draw_near(&se->streams[j].rng, n, prev, r->near,
                                                         r->job->near)
                                       : wt_sa_draw(&se->streams[j].rng, n, prev);
                int64_t d = wt_sa_delta(inst, prev, next, m);
                if (d < delta) {
                    delta = d;
                    move = m;
                }
            }
            if (w->team > 1) {
                uint64_t tick = ++w->tick;
                sa_pick *row = r->picks + (tick & 1) * (size_t)w->team, *mine = &row[w->tid];
                mine->delta = delta;
                mine->move = move;
                mine->stop = stop;
                sa_publish(r, mine, tick);
                /* Blocks of candidates go up with tid: among equal deltas
                 * the lowest tid has the lowest candidate. */
                int from = w->tid;
                for (int q = 0; q < w->team; q++) {
                    if (q == w->tid) continue;
                    sa_await(r, &row[q], tick);
                    if (row[q].delta < delta || (row[q].delta == delta && q < from)) {
                        delta = row[q].delta;
                        move = row[q].move;
                        from = q;
                    }
                }
                if (row[0].stop) {
                    go = false;
                    break;
                }
            }
            if (books) se->iterations++;
            if (!wt_sa_accept(delta, t, wt_rng_uniform(&w->accept))) continue;
            if (books) {
                /* Algorithm 2, line 12: store the best lazily, just before
                 * the current tour gets worse. */
                if (delta > 0 && se->cur_len < se->best_len) {
                    memcpy(se->best_next, next, (size_t)n * sizeof *next);
                    se->best_len = se->cur_len;
                }
                se->cur_len += delta;
                se->accepted++;
                se->improved += delta < 0;
            }
            wt_sa_commit(prev, next, move);
        }
    }
    if (books) se->accept = w->accept;
    return go;
}

/* Makes every search's stored best its true best (the current tour may be
 * better, the best being stored lazily); returns the search with the least,
 * ties to the lower index. */
static int sa_settle(sa_run *r)
{
    int win = 0;
    for (int s = 0; s < r->job->searches; s++) {
        sa_search *se = &r->searches[s];
        if (se->cur_len < se->best_len) {
            memcpy(se->best_next, se->next, (size_t)r->n * sizeof *se->next);
            se->best_len = se->cur_len;
        }
        if (se->best_len < r->searches[win].best_len) win = s;
    }
    return win;
}

/* The periodic coordination: every search restarts from the best tour
 * among them, which becomes its stored best too. */
static void sa_exchange(sa_run *r)
{
    int n = r->n, win = sa_settle(r);
    const sa_search *w = &r->searches[win];
    for (int s = 0; s < r->job->searches; s++) {
        sa_search *se = &r->searches[s];
        if (s != win) memcpy(se->best_next, w->best_next, (size_t)n * sizeof *se->best_next);
        se->best_len = w->best_len;
        memcpy(se->next, se->best_next, (size_t)n * sizeof *se->next);
        sa_prev_from_next(se->next, n, se->prev);
        se->cur_len = se->best_len;
    }
}

/* ------------------------------------------------------------ the runs */

/* SSPM: the whole team on one search after the other, each for an epoch. */
static void sa_run_sspm(sa_run *r)
{
    const wt_sa_job *job = r->job;
    pthread_mutex_init(&r->wake.lock, NULL);
    pthread_cond_init(&r->wake.cond, NULL);
#pragma omp parallel num_threads(r->threads)
    {
        int tid = omp_get_thread_num(), team = omp_get_num_threads();
        sa_worker w = {
            .tid = tid, .team = team, .reporter = tid == 0,
            .first = (int)((int64_t)job->moves * tid / team),
            .last = (int)((int64_t)job->moves * (tid + 1) / team),
        };
        int32_t *copy = tid > 0 ? r->copies + (size_t)(tid - 1) * 2 * (size_t)r->n : NULL;
        double t = job->t_start;
        uint64_t step = 0;
        for (;;) {
            double t0 = t;
            uint64_t m = wt_sa_schedule(&t, &step, job->t_end, job->alpha,
                                        (uint64_t)job->exchange);
            if (m == 0) break;
            bool go = true;
            for (int s = 0; go && s < job->searches; s++) {
                /* The lists are final: previous search, exchange. */
#pragma omp barrier
                w.prev = copy ? copy : r->searches[s].prev;
                w.next = copy ? copy + r->n : r->searches[s].next;
                go = sa_segment(r, s, &w, t0, m);
            }
            if (!go) break;
            if (job->searches > 1 && t > job->t_end) {
#pragma omp barrier
                if (tid == 0) sa_exchange(r);
            }
        }
        if (tid == 0) r->t_after = t;
    }
    pthread_cond_destroy(&r->wake.cond);
    pthread_mutex_destroy(&r->wake.lock);
}

/* PSSM: each thread runs its searches alone through an epoch; the threads
 * meet at the exchanges. */
static void sa_run_pssm(sa_run *r)
{
    const wt_sa_job *job = r->job;
#pragma omp parallel num_threads(r->threads)
    {
        sa_worker w = {.tid = 0, .team = 1, .reporter = omp_get_thread_num() == 0,
                       .first = 0, .last = job->moves};
        double t = job->t_start;
        uint64_t step = 0;
        for (;;) {
            double t0 = t;
            uint64_t m = wt_sa_schedule(&t, &step, job->t_end, job->alpha,
                                        (uint64_t)job->exchange);
            if (m == 0) break;
#pragma omp for schedule(static)
            for (int s = 0; s < job->searches; s++) {
                w.prev = r->searches[s].prev;
                w.next = r->searches[s].next;
                if (!sa_stopped(r)) sa_segment(r, s, &w, t0, m);
            }
            /* epoch_stop is written here only, between two barriers, so
             * every thread reads the same value. */
#pragma omp single
            {
                int stop = sa_stopped(r);
                if (!stop && job->searches > 1 && t > job->t_end) sa_exchange(r);
#pragma omp atomic write
                r->epoch_stop = stop;
            }
            int stop;
#pragma omp atomic read
            stop = r->epoch_stop;
            if (stop) break;
        }
        if (omp_get_thread_num() == 0) r->t_after = t;
    }
}

/* ------------------------------------------------------------- set-up */

static void sa_free(sa_run *r)
{
    free(r->searches);
    free(r->streams);
    free(r->pub);
    free(r->picks);
    free(r->copies);
    free(r->lists);
    free(r->near);
}

/* Allocates everything; false (nothing held) when memory is short. */
static bool sa_alloc(sa_run *r, bool sspm)
{
    size_t n = (size_t)r->n, tb = (size_t)r->job->searches, tpb = (size_t)r->job->moves;
    size_t threads = (size_t)r->threads;
    if (tb > SIZE_MAX / sizeof(sa_stream) / tpb || tb > SIZE_MAX / 3 / sizeof(int32_t) / n)
        return false;
    r->searches = calloc(tb, sizeof *r->searches);
    r->streams = aligned_alloc(alignof(sa_stream), tb * tpb * sizeof *r->streams);
    r->pub = aligned_alloc(alignof(sa_pub), tb * sizeof *r->pub);
    r->lists = malloc(3 * n * tb * sizeof *r->lists);
    bool ok = r->searches && r->streams && r->pub && r->lists;
    if (sspm && threads > 1) {
        r->picks = aligned_alloc(alignof(sa_pick), 2 * threads * sizeof *r->picks);
        for (size_t k = 0; r->picks && k < 2 * threads; k++) r->picks[k].tick = 0;
        r->copies = malloc(2 * n * (threads - 1) * sizeof *r->copies);
        ok = ok && r->picks && r->copies;
    }
    if (!ok) sa_free(r);
    return ok;
}

/* Every search starts from tour with its own streams. */
static void sa_init_searches(sa_run *r, const int32_t *tour)
{
    const wt_sa_job *job = r->job;
    int n = r->n;
    int64_t len = wt_tour_length(r->inst, tour);
    for (int s = 0; s < job->searches; s++) {
        sa_search *se = &r->searches[s];
        se->prev = r->lists + 3 * (size_t)n * (size_t)s;
        se->next = se->prev + n;
        se->best_next = se->next + n;
        if (s == 0) sa_list_from_tour(tour, n, se->prev, se->next);
        else memcpy(se->prev, r->searches[0].prev, 2 * (size_t)n * sizeof *se->prev);
        memcpy(se->best_next, se->next, (size_t)n * sizeof *se->next);
        se->cur_len = se->best_len = len;
        se->t = job->t_start;
        wt_sa_rng(&se->accept, job->seed, (uint64_t)s, 0);
        se->streams = r->streams + (size_t)s * (size_t)job->moves;
        for (int j = 0; j < job->moves; j++)
            wt_sa_rng(&se->streams[j].rng, job->seed, (uint64_t)s, 1 + (uint64_t)j);
        r->pub[s].len = len;
        r->pub[s].improved = 0;
    }
}

/* The near lists' stop: the run's deadline and stop flag. */
static bool sa_ctl_expired(void *ctl) { return wt_ctl_expired(ctl); }

wt_status wt_cpu_sa(const wt_instance *inst, wt_sa_job *job, wt_search_ctl *ctl, int32_t *tour,
                    wt_search_stats *stats, wt_error *err)
{
    if (!inst || !job || !ctl || !tour || !stats)
        return wt_fail(err, WT_STATUS_INVALID_ARGUMENT, "wt_cpu_sa: bad arguments");
    wt_status valid = wt_sa_job_check(job, "wt_cpu_sa", err);
    if (valid != WT_OK) return valid;
    bool sspm = job->cpu == WT_SA_SSPM;
    /* The paper's CPU baselines on its 12 cores: SSPM evaluates Pm = 12
     * moves of one search, PSSM runs Ps = 12 searches of one move. */
    if (job->searches == 0) job->searches = sspm ? 1 : ctl->threads;
    if (job->moves == 0) job->moves = sspm ? ctl->threads : 1;
    /* Threads beyond the work are idle; an SSPM team, which meets at every
     * iteration, also gets no more threads than there are cores: a team
     * member without a core of its own stalls the others at each iteration.
     * Neither changes the result. */
    int width = sspm ? job->moves : job->searches, threads = ctl->threads;
    if (sspm && threads > omp_get_num_procs()) threads = omp_get_num_procs();
    sa_run r = {
        .inst = inst, .job = job, .ctl = ctl, .n = inst->n,
        .step_iters = (uint64_t)inst->n * (uint64_t)job->sweeps,
        .threads = threads < width ? threads : width,
    };
    if (!sa_alloc(&r, sspm))
        return wt_fail(err, WT_STATUS_OUT_OF_MEMORY, "sa: out of memory for %d searches of %d "
                       "cities", job->searches, inst->n);
    if (job->near > 0) {
        /* The lists take seconds at a million cities: they are built on all
         * the run's threads (the same lists for any count) and give up at
         * the deadline or stop flag, when the run returns its start tour,
         * not annealed, as it does when stopped before the first step. */
        int k = job->near < inst->n - 1 ? job->near : inst->n - 1;
        wt_init_stop stop = {sa_ctl_expired, ctl};
        bool stopped = false;
        r.near = malloc((size_t)inst->n * (size_t)k * sizeof *r.near);
        wt_status st = r.near ? wt_neighbour_lists_until(inst, k, ctl->threads, &stop, r.near,
                                                         &stopped, err)
                              : wt_fail(err, WT_STATUS_OUT_OF_MEMORY, "sa: out of memory");
        if (st != WT_OK || stopped) {
            sa_free(&r);
            stats->temperature = ctl->temperature = job->t_start;
            return st;
        }
        job->near = k;
    }
    sa_init_searches(&r, tour);
    if (sspm) sa_run_sspm(&r);
    else sa_run_pssm(&r);

    uint64_t iterations = 0, accepted = 0, improved = 0;
    double t_reached = r.searches[0].t;
    for (int s = 0; s < job->searches; s++) {
        const sa_search *se = &r.searches[s];
        iterations += se->iterations;
        accepted += se->accepted;
        improved += se->improved;
        t_reached = se->t < t_reached ? se->t : t_reached;
    }
    stats->iterations += iterations;
    stats->moves_evaluated += iterations * (uint64_t)job->moves;
    stats->accepted += accepted;
    stats->steps += improved;
    stats->temperature = r.stop ? t_reached : r.t_after;
    ctl->temperature = stats->temperature;
    sa_tour_from_next(r.searches[sa_settle(&r)].best_next, r.n, tour);
    sa_free(&r);
    return WT_OK;
}
