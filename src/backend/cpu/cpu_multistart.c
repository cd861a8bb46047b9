/*
 * cpu_multistart.c - random-restart 2-opt hill climbing on the CPU.
 *
 * O'Neil & Burtscher (2015), Section 5.8 ("OpenMP (cpu)"): independent
 * climbers, one per OpenMP thread, each running best-improvement 2-opt
 * serially from its own random start tour; a critical section at the end of
 * a climb keeps the best tour.  Climb numbers come from a shared counter, so
 * a thread that draws short climbs simply runs more of them, and the winner
 * (least exact length, ties to the lower climb number) does not depend on
 * the schedule.
 *
 * Each climb must end in exactly the tour the reference (cpu_2opt.c) reaches
 * from the same start: the same pair space, the most negative exact delta,
 * ties to the lowest (i, j).  What makes it fast without changing a single
 * decision:
 *  - Coordinates are kept in tour order (permuted with the city numbers on
 *    every move), with a copy of position 0 at position n, so a row of
 *    distances is a unit-stride loop over plain arrays.
 *  - Rows are scanned from i = n-3 down to 0.  Row i needs D(i, j) and
 *    D(i+1, j+1); the latter is row i+1's own row, kept in a second buffer,
 *    so every scan computes one distance per move instead of two.  Row i
 *    also yields the tour edge e[i] = D(i, i+1), and e[j] for j > i was
 *    produced by an earlier row of the same scan.
 *  - TSPLIB rounding is done in double arithmetic (no floor/ceil/lrint
 *    calls, no integer conversions), so the row loops can be vectorized.
 *    Every value is an integer below 2^50, so deltas are exact in doubles.
 * GEO and EXPLICIT distances go through wt_dist on city numbers (same row
 * scheme, scalar); coordinates so large that a distance could reach 2^50
 * fall back to the reference scan itself.
 */
#include "backend/cpu/cpu_multistart.h"

#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "backend/cpu/cpu_2opt.h"
#include "backend/cpu/cpu_round.h"
#include "core/climb_start.h"
#include "core/error.h"
#include "core/instance.h"

/* Rows between two looks at the deadline and stop requests. */
#define MS_POLL_ROWS 64

typedef struct ms_climber ms_climber;

/* Fills out[k] = D(i, k) for positions k in [lo, hi] of the current tour. */
typedef void (*ms_row_fn)(const ms_climber *c, int i, int lo, int hi, double *restrict out);

/* One thread's climb: the tour and everything kept in tour order.  O(n). */
struct ms_climber {
    const wt_instance *inst;
    int n;
    int tid;            /* OpenMP thread number; 0 reports progress */
    ms_row_fn row;      /* NULL: climb with the reference scan instead */
    int32_t *ids;       /* n + 1 city numbers, ids[n] = ids[0] */
    int dims;           /* coordinate arrays the rows read: 0, 2 or 3 */
    double *block;      /* the one allocation behind the arrays below */
    double *e;          /* n tour edges, e[k] = D(k, k+1) */
    double *cur, *prev; /* n + 1: D(i, .) of the row being scanned and of row i+1 */
    double *x, *y, *z;  /* n + 1 coordinates in tour order, as dims says */
    int64_t len;        /* exact length of the current tour */
    uint64_t rows;      /* rows scanned in this climb, for polling */
    uint64_t steps;     /* improving moves of this climb */
    uint64_t scans;     /* complete scans of this climb */
};

/* What the threads share; every field after best_tour is read and written
 * with OpenMP atomics or inside the critical section. */
typedef struct ms_shared {
    const wt_instance *inst;
    const wt_multistart_job *job;
    wt_search_ctl *ctl;
    int32_t *best_tour;
    uint64_t next;       /* next climb number to hand out */
    int climbing;        /* threads inside a climb right now */
    int stop;            /* someone saw ctl expire: everyone stops */
    int oom;             /* a thread could not allocate: nobody climbs */
    int64_t best_len;    /* INT64_MAX until a climb offered its tour */
    uint64_t best_climb;
    uint64_t climbs, steps, scans; /* totals over all threads */
} ms_shared;

/* ------------------------------------------------ exact TSPLIB distances */

/* The rows repeat wt_dist's operations in its order, so that sqrt and the
 * division see bit-identical arguments.
 *
 * Rows with a square root take two passes: the roots, then the rounding.
 * gcc keeps sqrt() a call that may set errno, so that loop vectorizes only
 * under -fno-math-errno; apart from it the rounding pass vectorizes anyway,
 * and the root pass has no data-dependent branch (fused and scalar, the
 * rounding's comparison becomes a branch that mispredicts half the time). */
#define MS_ROW_SQRT_2D(name, radicand, rounding)                                             \
    static void name(const ms_climber *c, int i, int lo, int hi, double *restrict out)      \
    {                                                                                        \
        const double *restrict x = c->x, *restrict y = c->y;                                 \
        double xi = x[i], yi = y[i];                                                         \
        for (int k = lo; k <= hi; k++) {                                                     \
            double dx = xi - x[k], dy = yi - y[k];                                           \
            out[k] = sqrt(radicand);                                                         \
        }                                                                                    \
        for (int k = lo; k <= hi; k++) out[k] = rounding(out[k]);                            \
    }

MS_ROW_SQRT_2D(ms_row_euc_2d, dx * dx + dy * dy, cpu_nint)
MS_ROW_SQRT_2D(ms_row_ceil_2d, dx * dx + dy * dy, cpu_ceil)
/* TSPLIB's ATT rule, t = nint(r) plus one if t < r, is ceil(r). */
MS_ROW_SQRT_2D(ms_row_att, (dx * dx + dy * dy) / 10.0, cpu_ceil)

static void ms_row_euc_3d(const ms_climber *c, int i, int lo, int hi, double *restrict out)
{
    const double *restrict x = c->x, *restrict y = c->y, *restrict z = c->z;
    double xi = x[i], yi = y[i], zi = z[i];
    for (int k = lo; k <= hi; k++) {
        double dx = xi - x[k], dy = yi - y[k], dz = zi - z[k];
        out[k] = sqrt(dx * dx + dy * dy + dz * dz);
    }
    for (int k = lo; k <= hi; k++) out[k] = cpu_nint(out[k]);
}

static void ms_row_man_2d(const ms_climber *c, int i, int lo, int hi, double *restrict out)
{
    const double *restrict x = c->x, *restrict y = c->y;
    double xi = x[i], yi = y[i];
    for (int k = lo; k <= hi; k++) out[k] = cpu_nint(fabs(xi - x[k]) + fabs(yi - y[k]));
}

static void ms_row_max_2d(const ms_climber *c, int i, int lo, int hi, double *restrict out)
{
    const double *restrict x = c->x, *restrict y = c->y;
    double xi = x[i], yi = y[i];
    for (int k = lo; k <= hi; k++) {
        double a = cpu_nint(fabs(xi - x[k])), b = cpu_nint(fabs(yi - y[k]));
        out[k] = a > b ? a : b;
    }
}

/* GEO and EXPLICIT: the instance's own distance on city numbers. */
static void ms_row_scalar(const ms_climber *c, int i, int lo, int hi, double *restrict out)
{
    int a = c->ids[i];
    for (int k = lo; k <= hi; k++) out[k] = (double)wt_dist(c->inst, a, c->ids[k]);
}

static ms_row_fn ms_row_for(const wt_instance *inst)
{
    if (inst->type == WT_GEO || inst->type == WT_HAVERSINE || inst->type == WT_EXPLICIT)
        return ms_row_scalar;
    if (!cpu_coords_small(inst)) return NULL;
    switch (inst->type) {
    case WT_EUC_2D: return ms_row_euc_2d;
    case WT_CEIL_2D: return ms_row_ceil_2d;
    case WT_ATT: return ms_row_att;
    case WT_MAN_2D: return ms_row_man_2d;
    case WT_MAX_2D: return ms_row_max_2d;
    case WT_EUC_3D: return ms_row_euc_3d;
    default: return NULL;
    }
}

/* ------------------------------------------------------------ climbers */

static void ms_climber_free(ms_climber *c)
{
    free(c->ids);
    free(c->block);
    c->ids = NULL;
    c->block = NULL;
}

/* Allocates a climber's arrays; false (nothing held) when memory is short. */
static bool ms_climber_init(ms_climber *c, const wt_instance *inst, int tid)
{
    size_t m = (size_t)inst->n + 1;
    memset(c, 0, sizeof *c);
    c->inst = inst;
    c->n = inst->n;
    c->tid = tid;
    c->row = ms_row_for(inst);
    if (c->row && c->row != ms_row_scalar) c->dims = inst->type == WT_EUC_3D ? 3 : 2;
    c->ids = malloc(m * sizeof *c->ids);
    c->block = malloc((3 + (size_t)c->dims) * m * sizeof *c->block);
    if (!c->ids || !c->block) {
        ms_climber_free(c);
        return false;
    }
    c->e = c->block;
    c->cur = c->e + m;
    c->prev = c->cur + m;
    if (c->dims >= 2) {
        c->x = c->prev + m;
        c->y = c->x + m;
    }
    if (c->dims == 3) c->z = c->y + m;
    return true;
}

/* Sets up climb r: its start tour, coordinates in tour order, counters. */
static void ms_climber_start(ms_climber *c, uint64_t seed, uint64_t r)
{
    const wt_instance *inst = c->inst;
    int n = c->n;
    wt_climb_start_tour(seed, r, n, c->ids);
    c->ids[n] = c->ids[0];
    for (int k = 0; k <= n && c->dims >= 2; k++) {
        c->x[k] = inst->x[c->ids[k]];
        c->y[k] = inst->y[c->ids[k]];
    }
    for (int k = 0; k <= n && c->dims == 3; k++) c->z[k] = inst->z[c->ids[k]];
    c->len = wt_tour_length(inst, c->ids);
    c->rows = c->steps = c->scans = 0;
}

static void ms_reverse(double *a, int lo, int hi)
{
    for (; lo < hi; lo++, hi--) {
        double t = a[lo];
        a[lo] = a[hi];
        a[hi] = t;
    }
}

/* Reverses positions i+1..j of the tour and of everything kept in its order. */
static void ms_climber_apply(ms_climber *c, int i, int j)
{
    wt_2opt_apply(c->ids, i, j);
    if (c->dims >= 2) {
        ms_reverse(c->x, i + 1, j);
        ms_reverse(c->y, i + 1, j);
    }
    if (c->dims == 3) ms_reverse(c->z, i + 1, j);
}

/* ------------------------------------------------------------ stopping */

static bool ms_stopped(ms_shared *sh)
{
    int stop;
#pragma omp atomic read
    stop = sh->stop;
    return stop != 0;
}

static void ms_set_stop(ms_shared *sh)
{
#pragma omp atomic write
    sh->stop = 1;
}

/* Whether the run must stop now.  Thread 0 is the thread that called
 * wt_cpu_multistart, the only one allowed to call the progress callback. */
static bool ms_must_stop(ms_climber *c, ms_shared *sh)
{
    if (ms_stopped(sh)) return true;
    bool expired;
    if (c->tid == 0) {
        int64_t best;
        uint64_t steps, climbs;
#pragma omp atomic read
        best = sh->best_len;
#pragma omp atomic read
        steps = sh->steps;
#pragma omp atomic read
        climbs = sh->climbs;
        if (c->len < best) best = c->len;
        expired = wt_ctl_report_climbs(sh->ctl, best, steps + c->steps, climbs, false);
    } else {
        expired = wt_ctl_expired(sh->ctl);
    }
    if (expired) ms_set_stop(sh);
    return expired;
}

/* ---------------------------------------------------------------- scans */

/* Least delta of row i, D(i,j) + D(i+1,j+1) - e[i] - e[j] over j in
 * [i+2, n-1], or 0 when none is negative.  Four running minima hide the
 * latency of each comparison; a vector reduction would need -ffast-math. */
static double ms_row_min(const double *restrict cur, const double *restrict prev,
                         const double *restrict e, int i, int n)
{
    double ei = e[i], m[4] = {0.0, 0.0, 0.0, 0.0};
    int j = i + 2;
    for (; j + 3 < n; j += 4)
        for (int l = 0; l < 4; l++) {
            double d = cur[j + l] + prev[j + l + 1] - ei - e[j + l];
            m[l] = d < m[l] ? d : m[l];
        }
    for (; j < n; j++) {
        double d = cur[j] + prev[j + 1] - ei - e[j];
        m[0] = d < m[0] ? d : m[0];
    }
    double a = m[0] < m[1] ? m[0] : m[1], b = m[2] < m[3] ? m[2] : m[3];
    return a < b ? a : b;
}

/* First j of row i whose delta is `delta` (the same arithmetic as above). */
static int ms_row_first(const double *cur, const double *prev, const double *e, int i, int n,
                        double delta)
{
    for (int j = i + 2; j < n; j++)
        if (cur[j] + prev[j + 1] - e[i] - e[j] == delta) return j;
    return -1; /* unreachable: delta came from this row */
}

/* One full scan: the best move (delta < 0, lowest (i, j) among equals) in
 * *best, or best->i = -1 when none improves.  False if the run must stop. */
static bool ms_scan(ms_climber *c, ms_shared *sh, wt_2opt_move *best)
{
    int n = c->n;
    double *cur = c->cur, *prev = c->prev, *e = c->e;
    *best = (wt_2opt_move){0, -1, -1};
    if (n < 3) return true;
    c->row(c, n - 1, n, n, cur);
    e[n - 1] = cur[n];
    c->row(c, n - 2, n - 1, n, prev);
    e[n - 2] = prev[n - 1];
    double best_delta = 0.0;
    for (int i = n - 3; i >= 0; i--) {
        if (c->rows++ % MS_POLL_ROWS == 0 && ms_must_stop(c, sh)) return false;
        /* Row 0's D(0, n) would be a city's distance to itself: not needed. */
        c->row(c, i, i + 1, i > 0 ? n : n - 1, cur);
        e[i] = cur[i + 1];
        double m = ms_row_min(cur, prev, e, i, n);
        /* Rows go downward, so "<=" lets the lowest i win a tie. */
        if (m < 0.0 && m <= best_delta) {
            best_delta = m;
            best->i = i;
            best->j = ms_row_first(cur, prev, e, i, n, m);
        }
        double *t = cur;
        cur = prev;
        prev = t;
    }
    best->delta = (int64_t)best_delta;
    return true;
}

/* The reference scan, for coordinates too large for the fast one. */
static bool ms_scan_reference(ms_climber *c, ms_shared *sh, wt_2opt_move *best)
{
    if (ms_must_stop(c, sh)) return false;
    if (!wt_2opt_best_move(c->inst, c->ids, 1, sh->ctl, best)) {
        ms_set_stop(sh);
        return false;
    }
    if (best->delta >= 0) best->i = best->j = -1;
    return true;
}

/* Climbs from the current tour to a local optimum; false when cut short. */
static bool ms_climb(ms_climber *c, ms_shared *sh)
{
    for (;;) {
        wt_2opt_move m;
        bool done = c->row ? ms_scan(c, sh, &m) : ms_scan_reference(c, sh, &m);
        if (!done) return false;
        c->scans++;
        if (m.i < 0) return true;
        ms_climber_apply(c, m.i, m.j);
        c->len += m.delta;
        c->steps++;
    }
}

/* ------------------------------------------------------------- the run */

/* Offers climb r's tour (finished or cut short) as the best so far. */
static void ms_offer(ms_shared *sh, ms_climber *c, uint64_t r)
{
    c->len = wt_tour_length(c->inst, c->ids);
#pragma omp critical(wt_ms_best)
    if (c->len < sh->best_len || (c->len == sh->best_len && r < sh->best_climb)) {
        memcpy(sh->best_tour, c->ids, (size_t)c->n * sizeof *c->ids);
#pragma omp atomic write
        sh->best_len = c->len;
        sh->best_climb = r;
    }
}

/* Adds one climb's counters to the totals.  A climb cut short adds its
 * steps and complete scans (work done) but does not count as a climb. */
static void ms_account(ms_shared *sh, const ms_climber *c, bool finished)
{
#pragma omp atomic
    sh->steps += c->steps;
#pragma omp atomic
    sh->scans += c->scans;
    if (finished) {
#pragma omp atomic
        sh->climbs += 1;
    }
}

/* One thread's share: climbs drawn from the shared counter until none are
 * left or the run must stop.  `climbing` goes up before a climb is drawn,
 * so that thread 0, once it drew none, sees every climb still running. */
static void ms_thread(ms_shared *sh, ms_climber *c)
{
    uint64_t restarts = sh->job->restarts;
    while (!ms_stopped(sh)) {
        uint64_t r;
#pragma omp atomic update seq_cst
        sh->climbing += 1;
#pragma omp atomic capture seq_cst
        r = sh->next++;
        if (restarts == 0 || r < restarts) {
            ms_climber_start(c, sh->job->seed, r);
            bool finished = ms_climb(c, sh);
            ms_offer(sh, c, r);
            ms_account(sh, c, finished);
        }
#pragma omp atomic update seq_cst
        sh->climbing -= 1;
        if (restarts > 0 && r >= restarts) return;
    }
}

/* Thread 0 out of climbs keeps reporting progress (and so keeps the
 * callback able to stop the run) while other threads still climb. */
static void ms_wait_others(ms_shared *sh, ms_climber *c)
{
    c->steps = 0;          /* already in the totals */
    c->len = INT64_MAX;    /* no climb of its own in progress */
    for (;;) {
        int climbing;
#pragma omp atomic read seq_cst
        climbing = sh->climbing;
        if (climbing == 0 || ms_must_stop(c, sh)) return;
        struct timespec pause = {0, 1000000};
        nanosleep(&pause, NULL);
    }
}

wt_status wt_cpu_multistart(const wt_instance *inst, const wt_multistart_job *job,
                            wt_search_ctl *ctl, int32_t *best_tour, wt_search_stats *stats,
                            wt_error *err)
{
    if (!inst || !job || !ctl || !best_tour || !stats)
        return wt_fail(err, WT_STATUS_INVALID_ARGUMENT, "wt_cpu_multistart: bad arguments");
    ms_shared sh = {
        .inst = inst, .job = job, .ctl = ctl, .best_tour = best_tour,
        .best_len = INT64_MAX, .best_climb = UINT64_MAX,
    };
#pragma omp parallel num_threads(ctl->threads)
    {
        ms_climber c;
        if (!ms_climber_init(&c, inst, omp_get_thread_num())) {
#pragma omp atomic write
            sh.oom = 1;
        }
        /* Nobody touches best_tour unless every thread has its memory. */
#pragma omp barrier
        int oom;
#pragma omp atomic read
        oom = sh.oom;
        if (!oom) ms_thread(&sh, &c);
        if (!oom && c.tid == 0) ms_wait_others(&sh, &c);
        ms_climber_free(&c);
    }
    if (sh.oom)
        return wt_fail(err, WT_STATUS_OUT_OF_MEMORY, "multistart: out of memory for %d cities",
                       inst->n);
    if (sh.best_climb == UINT64_MAX) { /* no climb ran: keep the contract anyway */
        wt_climb_start_tour(job->seed, 0, inst->n, best_tour);
        sh.best_climb = 0;
    }
    stats->climbs += sh.climbs;
    stats->steps += sh.steps;
    stats->moves_evaluated += sh.scans * wt_2opt_moves_per_scan(inst->n);
    stats->passes += sh.scans;
    stats->best_climb = sh.best_climb;
    return WT_OK;
}
