/*
 * backend.h - the interface every compute backend implements.
 *
 * The search algorithms (src/algo) are written once against this struct of
 * function pointers; src/backend/cpu (OpenMP, always built, the reference
 * implementation of every slot) and src/backend/cuda implement it.
 * Optional slots may be NULL when a backend has no implementation of that
 * search yet: callers check first.  Every compute job of algo/ enters
 * through a slot here; algo/ includes no file of backend/cpu or
 * backend/cuda.
 *
 * The registry (registry.c, at the end) has three levels, as ggml's
 * reg -> device -> backend: the backends of this build, the devices of
 * each (`cpu`, `cuda:0`, `cuda:1`, ...), and the slots a search calls on
 * the device it was handed.  wt_solve and wt_solve_batch choose the device
 * once, at their entry, from params.backend and params.cuda_device; the
 * searches below are handed that device, never a device number.  No CUDA
 * type appears here.
 */
#ifndef WT_BACKEND_BACKEND_H
#define WT_BACKEND_BACKEND_H

#include <stddef.h>
#include <stdint.h>

#include "backend/batch_run.h"
#include "core/kswap.h"
#include "core/search_ctl.h"
#include "warptour.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct wt_backend wt_backend;

/* One device of a backend: where a search runs.  A small value that the
 * registry fills (wt_device_at, wt_device_of) and the caller owns; a
 * search is handed a pointer to it and reads it only while it runs. */
typedef struct wt_device {
    const wt_backend *backend; /* the backend whose slots run on it */
    int index;                 /* its number among the backend's devices (the CUDA
                                  device ordinal; 0 for the host) */
    char name[16];             /* "cpu", "cuda:0", "cuda:1", ... */
} wt_device;

/* Which GPU kernel runs multistart climbs (the CPU backend ignores it).
 * Not in the public header: the thread-per-climber baseline is for
 * benchmarks and tests, which reach it through algo/bench_hooks.h. */
typedef enum wt_multistart_kernel {
    WT_MS_KERNEL_BLOCK = 0, /* one climber per thread block, register-tiled (wt_solve's) */
    WT_MS_KERNEL_THREAD     /* one climber per thread: the prior-art baseline */
} wt_multistart_kernel;

/* What a multistart run is asked to do. */
typedef struct wt_multistart_job {
    uint64_t seed;               /* climb r starts from wt_climb_start_tour(seed, r) */
    uint64_t restarts;           /* climbs to run; 0 = until ctl expires */
    wt_multistart_kernel kernel; /* GPU kernel variant; the CPU backend ignores it */
} wt_multistart_job;

/* What a simulated annealing run is asked to do (Lam et al. 2012; the
 * moves, random streams and schedule are in core/sa_moves.h). */
typedef struct wt_sa_job {
    uint64_t seed;            /* random streams: wt_sa_rng(seed, search, stream) */
    int searches;             /* TB >= 1, or 0: the backend picks; set to the value used */
    int moves;                /* TPB >= 1, or 0: the backend picks; set to the value used */
    double t_start, t_end;    /* Ts, Te > 0 */
    double alpha;             /* cooling factor in (0, 1) */
    int sweeps;               /* Sp >= 1: the temperature drops every n * Sp iterations */
    int exchange;             /* Se >= 1: temperature steps between restarts from the
                                 global best */
    wt_sa_cpu_scheme cpu;     /* CPU thread mapping; other backends ignore it */
    int near;                 /* 0: insertion points uniform (wt_sa_draw, the paper's
                                 moves); k >= 2: next to one of c's k nearest cities
                                 (wt_sa_draw_near, lists of core/neighbours.h); k above
                                 n - 1 is set to n - 1; only backends with sa_near */
} wt_sa_job;

/* WT_OK when every field of job holds a value the sa slot takes (0 for
 * searches and moves: the backend picks); else WT_STATUS_INVALID_ARGUMENT
 * with a message that starts with who and names the wt_params field the
 * job's comes from (sa_job.c).  wt_solve checks its parameters with it,
 * and each sa slot the job it gets. */
wt_status wt_sa_job_check(const wt_sa_job *job, const char *who, wt_error *err);

/* What a Held-Karp ascent is asked to do (Held & Karp 1971; the subgradient
 * ascent over 1-trees of a sparse candidate graph and the alpha-nearness
 * of its result as Helsgaun 2000, sections 4.1 and 4.2, use them): find
 * node penalties pi that raise the 1-tree bound, then order each city's
 * candidates by alpha-nearness under those penalties.
 *
 * Exact and deterministic: penalties and transformed lengths are integers
 * in units of 1 / WT_ASCENT_SCALE of the instance's length unit,
 *   c_pi(i, j) = WT_ASCENT_SCALE * d(i, j) + pi[i] + pi[j],
 * ties between equal c_pi broken by the edge's cities, so that every
 * backend's trees, bound and lists are equal bit for bit for the same
 * iterations. */
#define WT_ASCENT_SCALE 100

typedef struct wt_ascent_job {
    const int32_t *graph;   /* the sparse graph the 1-trees are taken in: n rows
                               of graph_k cities, -1 after a row's last; the
                               graph must be connected (its edges are taken
                               both ways: j in i's row is the edge {i, j}) */
    int graph_k;            /* >= 1 */
    int iterations;         /* subgradient steps at most; 0: the backend's default */
    int period;             /* steps of the first period of the step rule; 0:
                               max(n / 2, 100) (Held & Karp's, as Helsgaun's);
                               shorter ascents (LKH's INITIAL_PERIOD) end
                               sooner with a slightly weaker bound */
    double until;           /* monotonic seconds (wt_now) at which the ascent
                               ends with what it has, without stopping the
                               search; INFINITY: none (ctl still stops it) */
    int32_t *pi;            /* out: n penalties (in: a start, or all 0) */
    int64_t graph_bound;    /* out: the best 1-tree bound found in the graph,
                               scaled: c_pi(T) - 2 sum pi; not a proof (a
                               sparse graph's 1-tree may be heavier than the
                               complete graph's) */
    int64_t lower_bound;    /* out: the proven bound, in the instance's unit:
                               the minimum 1-tree of the complete graph under
                               the final pi, c_pi(T) - 2 sum pi, divided by
                               WT_ASCENT_SCALE and rounded up (tour lengths
                               are integers); -1 where it was not computed
                               (stopped first, or a metric without an exact
                               complete-graph tree at this size) */
    int32_t *candidates;    /* out: n rows of candidates_k cities, by increasing
                               alpha under pi (ties: smaller c_pi, then lower
                               city), -1 after a row's last */
    int candidates_k;       /* >= 1 */
    int iterations_done;    /* out: subgradient steps made */
    bool stopped;           /* out: ctl stopped it (time limit, stop flag) before
                               the candidates were complete; candidates and
                               lower_bound are then not to be used */
    const struct wt_device *split_with; /* a second device of the slot's backend
                               that its steps may be shared with, where the
                               backend can and the graph is large enough to
                               gain (the results are the same); NULL: none */
    bool split_done;        /* out: the steps were shared with split_with's device */
} wt_ascent_job;

/* The one check of an ascent job on inst, made by each backend's ascent
 * slot (ascent_job.c): NULL arrays, k < 1, iterations < 0, a NaN until,
 * start penalties beyond +-2^30 (INVALID_ARGUMENT), lengths the fixed
 * point cannot take (wt_onetree_check_lengths: UNSUPPORTED). */
wt_status wt_ascent_job_check(const wt_instance *inst, const wt_ascent_job *job, wt_error *err);

/* A tour held by a backend (on the GPU: in device memory) for searches that
 * transform one tour step by step, such as Iterated Local Search.  The
 * algorithm layer drives it and sees only lengths; the tour itself leaves
 * the device only through read_best.  A session keeps a current tour and a
 * best one, both valid at every moment. */
typedef struct wt_tour_session wt_tour_session;

typedef struct wt_session_ops {
    /* Starts a session on device dev (of this backend) on a copy of tour;
     * current = best = tour. */
    wt_status (*open)(const wt_device *dev, const wt_instance *inst, const int32_t *tour,
                      wt_search_ctl *ctl, wt_tour_session **out, wt_error *err);
    void (*close)(wt_tour_session *s); /* NULL is a no-op */
    /* One full 2-opt pass over the current tour: the candidates of a k-swap
     * descent (core/kswap.h) with their exact deltas, the improving ones
     * only, into an array of the session's (*moves, valid until the next
     * scan), *count of them, in the order of the CPU's wt_2opt_candidates:
     * each row's best move (lowest j among equal deltas), then, with
     * band > 0, each row's best move with j in [i+2, i+band] that is not
     * its best already.  *count is -1 when ctl stopped the pass (the tour
     * is as it was).  *checked: the pairs the scan evaluated (fewer than
     * all with ctl->params->prune, read at open); *seconds: the scan's
     * time.  algo/descent.c drives scan and apply. */
    wt_status (*scan)(wt_tour_session *s, int band, wt_kswap_move **moves, int *count,
                      uint64_t *checked, double *seconds, wt_error *err);
    /* Applies the moves the last scan's array holds first, as choice
     * (wt_kswap_choose's on that array) groups them, to the current tour,
     * whose length follows. */
    wt_status (*apply)(wt_tour_session *s, const wt_kswap_choice *choice, wt_error *err);
    /* Double-bridge kick of the current tour at positions 0 < p1 < p2 < p3 < n:
     * A B C D becomes A C B D. */
    wt_status (*kick)(wt_tour_session *s, int p1, int p2, int p3, wt_error *err);
    int64_t (*length)(const wt_tour_session *s);      /* exact, current tour */
    void (*keep)(wt_tour_session *s);                 /* best := current */
    void (*revert)(wt_tour_session *s);               /* current := best */
    wt_status (*read_best)(const wt_tour_session *s, int32_t *tour, wt_error *err);
} wt_session_ops;

typedef struct wt_backend {
    const char *name;     /* "cpu", "cuda": the value of --backend */
    wt_backend_kind kind; /* what params.backend calls it */
    bool host;            /* runs on the host's CPU threads; false: on a device,
                             which --backend auto prefers, and on which ils with
                             local descents makes its first descent */

    /* Required.  Whether device dev (one of this backend's) can run here;
     * writes a description of it (or of why not) into desc.  On a GPU it
     * launches a tiny kernel, so a build without this GPU's architecture is
     * told so before a search. */
    bool (*available)(const wt_device *dev, char *desc, size_t desc_size);

    /* Optional.  How many devices of this backend the machine has (0: none
     * or no driver); NULL: one. */
    int (*device_count)(void);

    /* Optional.  Random-restart hill climbing (O'Neil & Burtscher 2015) on
     * device dev: climbs r = 0, 1, ... each start from
     * wt_climb_start_tour(job->seed, r) (core/climb_start.h) and descend by
     * exactly the rule of 2opt with swaps = 1 (best improvement, ties to the
     * lowest (i, j)).  Runs job->restarts climbs, or until ctl expires when
     * that is 0.  Writes to best_tour the tour of least exact length, ties to
     * the lower climb index, so a run of R climbs gives the same tour however
     * climbs were scheduled; stats->best_climb names it.  stats->climbs counts
     * completed climbs, stats->steps their improving moves,
     * stats->moves_evaluated (n-1)(n-2)/2 per scan, the final scan of each
     * climb included.  A climb cut short by ctl is not counted, but its
     * (valid) tour competes for best_tour, so a run stopped before any climb
     * finished still returns a tour.  Calls wt_ctl_report_climbs from the
     * calling thread while it runs. */
    wt_status (*multistart)(const wt_device *dev, const wt_instance *inst,
                            const wt_multistart_job *job, wt_search_ctl *ctl, int32_t *best_tour,
                            wt_search_stats *stats, wt_error *err);

    /* Optional.  Tour sessions: 2opt (algo/descent.c) and Iterated Local
     * Search (algo/ils.c), each opened on the device it is handed. */
    const wt_session_ops *session;

    /* Optional.  Simulated annealing (Lam et al. 2012, Algorithm 2, light
     * weight SA) on device dev from tour, in place: job->searches searches
     * start from tour; each keeps one current tour (a doubly linked list)
     * and, at every iteration, evaluates job->moves candidate relocations
     * drawn from its own streams (core/sa_moves.h), of which the least delta
     * (ties to the lower candidate) faces the Metropolis test and is
     * committed only if accepted; a search's best tour is stored lazily, when
     * a worsening move is about to be accepted.  The temperature follows
     * wt_sa_schedule: job->t_start, multiplied by job->alpha every n *
     * job->sweeps iterations, while above job->t_end (at least one
     * step).  Every job->exchange steps, when there are two searches or more,
     * all restart from the best tour among them (ties to the lower search).
     * Writes the best tour found to tour; the result is a function of the job
     * and the instance alone, however the work was scheduled, unless ctl
     * stops the run.  Fills job->searches and job->moves when 0; stats:
     * iterations (summed over searches), moves_evaluated (iterations *
     * moves), accepted, steps (accepted moves that shortened the tour),
     * temperature.  Sets ctl->temperature and reports progress from the
     * calling thread while it runs. */
    wt_status (*sa)(const wt_device *dev, const wt_instance *inst, wt_sa_job *job,
                    wt_search_ctl *ctl, int32_t *tour, wt_search_stats *stats, wt_error *err);

    /* Whether sa draws local moves (job->near > 0); false: it refuses them. */
    bool sa_near;

    /* Optional.  The batch search (core/batch_search.h; batch_run.h says
     * what a job holds): every instance of job with a non-NULL entry is
     * searched on dev, each by an Iterated Local Search of its own, and its
     * best tour, length and kicks written into the job.  An instance's
     * tour is a function of its start tour, its lists, the job's settings
     * and job->index alone, whichever backend ran it, unless the time limit
     * or a stop ends its kicks (time shares: wt_batch_time_share).  Polls
     * ctl and reports progress (ctl's callback, climbs = instances done)
     * from the calling thread.  Every instance must fit dev (batch_place).
     * Errors: WT_STATUS_OUT_OF_MEMORY; on a GPU also WT_STATUS_DEVICE (a
     * CUDA call failed; its message names it), WT_STATUS_NO_DEVICE. */
    wt_status (*batch)(const wt_device *dev, const wt_batch_job *job, wt_search_ctl *ctl,
                       wt_error *err);

    /* Optional (NULL: every instance fits, as on the host).  Which of
     * inst[0..count) (NULL entries: none) dev can run in the batch and
     * window slots, with groups of `threads` threads an instance (0: the
     * default for its n; wt_batch_job.threads): fits[i].  dev must be
     * usable (available). */
    void (*batch_place)(const wt_device *dev, const wt_instance *const *inst, int count,
                        int threads, bool *fits);

    /* Optional.  The window search's job (algo/windows.h): as batch, but
     * every instance is a window of a larger tour, a path whose two ends
     * stay in place: its start tour joins cities 0 and n - 1, and no move
     * and no kick removes that edge (wt_bs_fixed_at), so the best tour
     * found is a path from 0 to n - 1 closed by it. */
    wt_status (*windows)(const wt_device *dev, const wt_batch_job *job, wt_search_ctl *ctl,
                         wt_error *err);

    /* Optional, all three or none.  Resident windows (batch_run.h,
     * wt_windows_job): windows_open keeps inst's coordinates and its
     * candidate lists cand (n rows of ck, -1 for none) on dev for rounds of
     * windows of up to `most` cities; WT_STATUS_UNSUPPORTED where dev does
     * not take them (inst's metric, windows that do not fit its memory for
     * a group), after which the windows slot serves.  windows_round
     * searches job's windows of tour (n cities, its positions from
     * job->offset) and writes each window's best path back in place where
     * it is shorter, as algo/windows.c does with the windows slot's tours;
     * the tour stays valid.  Polls ctl's stop flag and deadline (no
     * progress reports); tally: what the round did.  Errors as batch's. */
    wt_status (*windows_open)(const wt_device *dev, const wt_instance *inst, const int32_t *cand,
                              int ck, int most, wt_windows_resident **out, wt_error *err);
    wt_status (*windows_round)(wt_windows_resident *w, const wt_windows_job *job, int32_t *tour,
                               wt_search_ctl *ctl, wt_windows_tally *tally, wt_error *err);
    void (*windows_close)(wt_windows_resident *w); /* NULL is a no-op */

    /* Optional.  Held-Karp ascent (wt_ascent_job) on dev over the sparse
     * graph job->graph of inst: fills job->pi, job->graph_bound,
     * job->lower_bound and job->candidates; at job->until, or when ctl
     * expires, it ends its steps early and lists candidates under the best
     * penalties found so far (a stop of ctl may end the listing too: then
     * job->stopped).  The cpu backend's is the reference; the LKH-class
     * search checks for NULL before it calls. */
    wt_status (*ascent)(const wt_device *dev, const wt_instance *inst, wt_ascent_job *job,
                        wt_search_ctl *ctl, wt_error *err);

    /* Optional.  Candidate lists on dev: k cities a city of inst into nb (n
     * rows of k), equal bit for bit to core/neighbours.h's
     * wt_quadrant_lists_until (quadrant) or wt_neighbour_lists_until (not).
     * *stopped where ctl stopped it first (nb then unusable).
     * WT_STATUS_UNSUPPORTED where dev does not take inst (its metric, or a
     * layout it would list slowly), WT_STATUS_OUT_OF_MEMORY where dev's
     * memory does not: the host's lists answer then.  The ascent's sparse
     * graph (algo/alpha.c) takes it where the ascent runs on dev. */
    wt_status (*neighbours)(const wt_device *dev, const wt_instance *inst, int k, bool quadrant,
                            int32_t *nb, wt_search_ctl *ctl, bool *stopped, wt_error *err);
} wt_backend;

/* ------------------------------------------------ registry (registry.c) */

/* Backend number index of this build, in the order `warptour devices`
 * lists them; NULL past the last. */
const wt_backend *wt_backend_at(int index);

/* The backend that kind names (not WT_BACKEND_AUTO); NULL if none. */
const wt_backend *wt_backend_of(wt_backend_kind kind);

/* Whether b has a slot for algorithm a. */
bool wt_backend_has(const wt_backend *b, wt_algorithm a);

/* Whether b can run what p asks: the algorithm's slot, and sa's local
 * moves (sa_near). */
bool wt_backend_runs(const wt_backend *b, const wt_params *p);

/* How many devices of b the machine has (device_count; one without it). */
int wt_backend_devices(const wt_backend *b);

/* Device number i of this build into *out, in the order `warptour devices`
 * lists them: the host's (`cpu`) first, then each device backend's
 * (`cuda:0`, `cuda:1`, ...); false past the last.  A backend the machine
 * has no device of (device_count 0) has none here. */
bool wt_device_at(int i, wt_device *out);

/* Device number `index` of b into *out (named "cpu" for a host backend,
 * "<backend>:<index>" otherwise), whether or not the machine has it: see
 * wt_device_usable. */
void wt_device_of(const wt_backend *b, int index, wt_device *out);

/* The host's device: the first host backend's (`cpu`), into *out. */
void wt_device_host(wt_device *out);

/* Whether d is a device of this machine that can run searches now (its
 * backend's available slot); a description of it, or why not (a number
 * past the backend's devices among the reasons), into desc. */
bool wt_device_usable(const wt_device *d, char *desc, size_t desc_size);

#ifdef __cplusplus
}
#endif

#endif
