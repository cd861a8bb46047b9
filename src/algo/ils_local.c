/*
 * ils_local.c - Iterated Local Search with local descents on the host
 * (params.ils_descent = WT_ILS_LOCAL), on all CPU threads: the entry,
 * which picks the first descent and the way the threads share the kicks.
 *
 * The full descent (the backends' sessions, ils.c) scans all n^2/2 pairs at
 * least once after every kick: on the GPU microseconds for a few thousand
 * cities, on CPU cores milliseconds to seconds.  After a kick only a few
 * cities have new neighbours, and the don't-look bits of all others stay
 * set: the local-search engine's neighbour-list descent (ls/engine.h),
 * started from those, repairs a kick in about the moves it makes (Johnson &
 * McGeoch's practice for ILS), so a kick costs about the same at any n.
 * A rejected kick is undone from the engine's log.  The optimum reached is
 * one of the candidate lists' moves only.
 *
 * First the descent from every city of the start tour (ils_first.c), then
 * kicks, T = ctl->threads searches, in one of three ways (ils_common.h):
 *  - merged replicas (LK searches from WT_ILS_MERGED_MIN cities,
 *    ils_merged.c);
 *  - segments (from WT_ILS_SEGMENT_MIN cities a thread, or
 *    WT_ILS_LK_SEGMENT_MIN for LK searches, and for LK above
 *    WT_ILS_LK_REPLICAS_MAX cities; ils_segments.c);
 *  - replicas otherwise (ils_replicas.c).
 * The thresholds are algo/policy.h's.  A round's work depends only on the
 * tour at its start, so a run is the same for the same seed and kick
 * budget on any thread count: T is the number of searches, which a kick
 * budget fixes (wt_policy_ils_searches), and fewer threads take turns at
 * them (ils_team).  Under a time limit alone T is the thread count, and
 * the kicks' searches may be more (wt_policy_ils_kick_searches).
 */
#include "algo/ils_local.h"

#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "algo/alpha.h"
#include "algo/alpha_beside.h"
#include "algo/descent_split.h"
#include "algo/ils_common.h"
#include "algo/ils_keep.h"
#include "algo/policy.h"
#include "algo/windows.h"
#include "algo/windows_concurrent.h"
#include "core/error.h"
#include "core/instance.h"
#include "ls/engine.h"

/* The descents' moves on `threads` threads: the defaults (for LK from
 * WT_ILS_LK_DEEP_MIN cities the deeper kick repairs, as deep as
 * wt_policy_lk_deep_depth says, the basic move by
 * wt_policy_lk_kopt, the flip chain on mostly tied instances above
 * WT_LK_KOPT_TIED_MAX_CITIES), less what the tuning sets for LK. */
static wt_ls_moves search_moves(bool lk, const wt_params *p, const wt_instance *inst, int threads)
{
    const wt_tuning *t = wt_tuning_of(p);
    int n = inst->n;
    wt_ls_moves m = wt_policy_ls_moves(lk);
    if (!lk) return m;
    m = wt_policy_lk_deep_moves(m, n, threads, p->time_limit_s);
    if (t->lk_candidates) m.candidates = t->lk_candidates;
    if (t->lk_depth) m.depth = t->lk_depth;
    wt_device ascent_on;
    wt_alpha_device(p, &ascent_on);
    m.kopt = wt_policy_lk_kopt(t, n, inst->directed, p->time_limit_s, threads,
                               !ascent_on.backend->host);
    if (m.kopt && wt_policy_lk_kopt_tied_off(t->lk_kopt, n) && ils_instance_tied(inst, threads))
        m.kopt = 0;
    m.nonseq = m.kopt && (t->lk_nonseq ? t->lk_nonseq == 1 : WT_LK_NONSEQ_DEFAULT);
    m.kopt_lkh_chains = wt_policy_lk_kopt_chains(t->lk_kopt_chains, true, n, p->time_limit_s);
    if (t->lk_kopt_submoves)
        m.kopt_submoves = t->lk_kopt_submoves == WT_TUNING_OFF ? 0 : t->lk_kopt_submoves;
    const int set[WT_LK_LEVELS] = {t->lk_breadth1, t->lk_breadth2, t->lk_breadth3,
                                   t->lk_breadth4, t->lk_breadth5};
    for (int i = 0; i < WT_LK_LEVELS; i++)
        if (set[i]) m.breadth[i] = set[i];
    return m;
}

/* The concurrent windows as the tuning sets them, on the GPU or (tests)
 * the host, their lists cut from whole's, their size by the host's
 * descents (lk or local); every other window a round with merged
 * replicas (the segments' kicks have places of their own); the splices on
 * the host's threads, keeping the fixed edges (NULL: none). */
static wt_concurrent_opts concurrent_opts(const wt_device *on, const wt_params *p, int n,
                                          int threads, const wt_ls *whole, bool lk, bool merged,
                                          const int32_t *fixed)
{
    const wt_tuning *t = wt_tuning_of(p);
    int three_opt = n > WT_CONCURRENT_THREE_OPT_ABOVE ? WT_CONCURRENT_THREE_OPT : 0;
    wt_concurrent_opts o = {
        .device = on,
        .seed = p->seed,
        .round_s = t->ils_concurrent_round_ms ? t->ils_concurrent_round_ms / 1000.0
                                              : WT_CONCURRENT_ROUND_S,
        .window = wt_policy_concurrent_window(t->ils_window, lk),
        .three_opt = t->ils_window_3opt ? t->ils_window_3opt : three_opt,
        .alternate = merged,
        .devices = p->devices, /* the rounds' windows over the list's GPUs */
        .device_count = p->device_count,
        .ahead = t->ils_concurrent_ahead,
        .host_threads = threads,
        .resident = t->ils_window_resident != WT_TUNING_OFF,
    };
    o.candidates = wt_ls_candidates(whole, &o.candidates_k);
    o.fixed = fixed;
    return o;
}

/* An ascent on the host or a device as plan says: its share of the time
 * left (without a limit, the steps wt_policy_ascent_steps allows) and its
 * first period. */
static wt_alpha_plan plan_of(const wt_tuning *t, const wt_search_ctl *ctl, bool on_host, int n,
                             wt_ascent_plan plan)
{
    double now = wt_now();
    bool timed = isfinite(ctl->deadline);
    return (wt_alpha_plan){
        .until = timed ? now + plan.share * (ctl->deadline - now) : INFINITY,
        .iterations = wt_policy_ascent_steps(t, on_host, n, timed),
        .period = plan.period,
    };
}

/* The search's ascent before the first descent (first) or after it
 * (bound_only: for its bound alone). */
static wt_alpha_plan ascent_plan(const wt_tuning *t, const wt_search_ctl *ctl, bool on_host,
                                 int n, bool first, bool bound_only)
{
    wt_ascent_plan plan = first ? wt_policy_ascent_first(t, on_host, n)
                                : wt_policy_ascent_after(t, on_host, bound_only, n,
                                                         ctl->params->time_limit_s, ctl->threads);
    return plan_of(t, ctl, on_host, n, plan);
}

/* What a completed ascent gives the search: its figures and bound in
 * stats and ctl; with alpha lists (use), *m the moves on them. */
static void take_ascent(const wt_alpha *alpha, wt_alpha_use use, wt_search_ctl *ctl,
                        wt_ls_moves *m, wt_search_stats *stats)
{
    wt_alpha_stats(alpha, stats);
    if (alpha->lower_bound > 0) stats->lower_bound = ctl->bound = alpha->lower_bound;
    if (alpha->candidates && use == WT_ALPHA_LISTS) {
        m->given = alpha->candidates;
        m->given_by_distance = false;
        m->candidates = alpha->k;
        m->quadrant = false;
        /* The k-opt step's gains under the ascent's penalties, as LKH's
         * (bench/RESULTS.md, "The k-opt step against the flip chain (LK)"). */
        if (m->kopt && alpha->pi) {
            m->pi = alpha->pi;
            m->pi_scale = WT_ASCENT_SCALE;
        }
    }
}

/* The Held-Karp ascent where the tuning and policy want it, before the
 * first descent (first) or after it, taking at most its share of the time
 * left (without a limit, the steps wt_policy_ascent_steps allows); its
 * bound goes into stats and ends a search that reaches it.  With alpha
 * lists, *m becomes the moves on the alpha-nearness candidates (alpha's).
 * Stopped, or a metric without an ascent: everything stays as it was
 * (alpha->candidates NULL). */
static wt_status run_ascent(const wt_instance *inst, wt_search_ctl *ctl, bool first,
                            wt_ls_moves *m, wt_alpha *alpha, wt_search_stats *stats,
                            wt_error *err)
{
    const wt_tuning *t = wt_tuning_of(ctl->params);
    wt_alpha_use use = wt_policy_lk_alpha(t->lk_alpha, inst->n, m->kopt);
    if (!m->lk || use == WT_ALPHA_NONE || wt_ctl_expired(ctl)) return WT_OK;
    wt_device dev; /* the GPU's slot where one runs it: its share and period */
    wt_alpha_device(ctl->params, &dev);
    bool bound_only = use == WT_ALPHA_BOUND;
    wt_alpha_plan on_dev = ascent_plan(t, ctl, dev.backend->host, inst->n, first, bound_only);
    wt_alpha_plan on_host = ascent_plan(t, ctl, true, inst->n, first, bound_only);
    int k = t->lk_candidates ? t->lk_candidates : WT_LK_ALPHA_CANDIDATES;
    if (k > inst->n - 1) k = inst->n - 1;
    wt_status st = wt_alpha_run(inst, &dev, ctl, &on_dev, &on_host, k, alpha, err);
    if (st == WT_OK) take_ascent(alpha, use, ctl, m, stats);
    return st;
}

/* Whether the ascent runs before the first descent, whose LK steps then
 * take the alpha lists too: for the k-opt step on alpha lists, where the
 * first descent on them ends far shorter than on quadrant neighbours
 * (bench/RESULTS.md, "The k-opt step against the flip chain (LK)"), so
 * that the kicks start from a better tour for the ascent's time.  A kept
 * search (ctl->keep) descends from where its tour changed, with its
 * lists; an asymmetric instance's transformation keeps its moves. */
static bool ascent_first(const wt_instance *inst, const wt_search_ctl *ctl,
                         const wt_ls_moves *m)
{
    const wt_tuning *t = wt_tuning_of(ctl->params);
    return m->lk && m->kopt && !ctl->keep && !inst->directed &&
           wt_policy_lk_alpha(t->lk_alpha, inst->n, m->kopt) == WT_ALPHA_LISTS;
}

/* Host threads that the bound's ascent beside the search takes for its
 * graph (the GPU does the rest), and for the host's ascent where the GPU
 * refuses it: a few, beside the search's. */
#define BESIDE_THREADS 4

/* The bound's ascent beside the search (algo/alpha_beside.h), where the
 * search wants the bound alone (LK's WT_ALPHA_BOUND, local descents up to
 * WT_ASCENT_BESIDE_LOCAL_MAX_CITIES) and a GPU runs the ascent: it starts
 * before the first descent, which the host's threads run meanwhile; where
 * the GPU refuses it, LK's takes the host's (local descents: no bound).
 * NULL where it does not run: an LK search then runs the ascent on the
 * host after its first descent (ascent_after_descent). */
static wt_alpha_beside *bound_beside(const wt_instance *inst, wt_search_ctl *ctl,
                                     const wt_ls_moves *m)
{
    const wt_tuning *t = wt_tuning_of(ctl->params);
    if (inst->directed || wt_ctl_expired(ctl)) return NULL;
    wt_alpha_use use = m->lk ? wt_policy_lk_alpha(t->lk_alpha, inst->n, m->kopt)
                             : wt_policy_local_alpha(t->lk_alpha, inst->n);
    if (use != WT_ALPHA_BOUND || (!m->lk && inst->n > WT_ASCENT_BESIDE_LOCAL_MAX_CITIES))
        return NULL;
    wt_device dev;
    wt_alpha_device(ctl->params, &dev);
    if (dev.backend->host) return NULL;
    wt_alpha_plan on_dev = plan_of(t, ctl, false, inst->n, wt_policy_ascent_beside(t));
    wt_alpha_plan on_host = ascent_plan(t, ctl, true, inst->n, false, true);
    int threads = ctl->threads < BESIDE_THREADS ? ctl->threads : BESIDE_THREADS;
    wt_alpha_beside *b = NULL;
    wt_alpha_beside_start(inst, &dev, ctl, &on_dev, m->lk ? &on_host : NULL, 0, threads, &b);
    return b;
}

/* Whether the start tour is remade from the alpha lists of an ascent run
 * first (tuning.lk_alpha_start): not for a given start tour, which the
 * caller asked for, nor with fixed edges, which greedy would not hold. */
static bool alpha_start(const wt_search_ctl *ctl)
{
    return wt_tuning_of(ctl->params)->lk_alpha_start == 1 && !ctl->params->start_tour &&
           !ctl->fixed;
}

/* Whether the GPU of the concurrent windows (on) makes the 2-opt +
 * Or-opt first optimum of a large tour whose LK search would begin with
 * the host's (ils_plain_first_descent): the host's segments cannot mend a
 * greedy tour (a segment's candidates lie mostly in other segments), so
 * its whole tour's descent on one thread did most of it, seconds at a
 * million cities where the GPU takes a fraction of one.  Not for fixed
 * edges (the GPU's passes would not keep them), a kept search, the list
 * descent, or the start tour remade from the lists; not where the tuning
 * says ils_lk_device_first off. */
static bool device_plain_first(const wt_instance *inst, const wt_search_ctl *ctl,
                               const wt_ls_moves *m, const wt_device *on, bool large_lk,
                               bool two_opted, int T)
{
    const wt_tuning *t = wt_tuning_of(ctl->params);
    return t->ils_lk_device_first != WT_TUNING_OFF && on && !on->backend->host && large_lk &&
           !two_opted && !ctl->fixed && !ctl->keep && !inst->directed &&
           !alpha_start(ctl) &&
           !wt_policy_lk_list_descent(t->ils_list_descent_min, inst->n, T, m->kopt);
}

/* Whether the ascent that ascent_first runs first goes beside the host's
 * 2-opt + Or-opt first descent of a large tour instead
 * (descend_beside_ascent): where the GPU runs it (a thread that mostly
 * waits on the device) and the first descent begins so, which needs no
 * lists (not the list descent, nor from the start tour remade from the
 * lists), unless the tuning says lk_alpha_beside off.  A million cities'
 * ascent takes about a second of the GPU, every host thread idle
 * meanwhile otherwise. */
static bool ascent_beside_plain(const wt_instance *inst, const wt_search_ctl *ctl,
                                const wt_ls_moves *m, bool large_lk, int T)
{
    const wt_tuning *t = wt_tuning_of(ctl->params);
    if (t->lk_alpha_beside == WT_TUNING_OFF || !large_lk || alpha_start(ctl) ||
        wt_policy_lk_list_descent(t->ils_list_descent_min, inst->n, T, m->kopt))
        return false;
    wt_device dev;
    wt_alpha_device(ctl->params, &dev);
    return !dev.backend->host;
}

/* The 2-opt + Or-opt first descent of tour (ils_plain_first_descent; of a
 * 2-opted one, its segments' rounds) on the host's threads while the GPU
 * runs the ascent of alpha lists beside it (alpha_beside.h), its bound in
 * the reports once proven, the descended tour reported; then, as
 * run_ascent would have left them, *alpha the ascent's and *m the moves
 * on its lists (where it completed; else everything as it was).  Where
 * the ascent's thread cannot start, run_ascent after the descent. */
static wt_status descend_beside_ascent(const wt_instance *inst, int32_t *tour, bool two_opted,
                                       wt_search_ctl *ctl, int T, wt_ls_moves *m,
                                       wt_alpha *alpha, wt_search_stats *stats, wt_error *err)
{
    const wt_tuning *t = wt_tuning_of(ctl->params);
    wt_alpha_use use = wt_policy_lk_alpha(t->lk_alpha, inst->n, m->kopt);
    wt_device dev;
    wt_alpha_device(ctl->params, &dev);
    wt_alpha_plan on_dev = ascent_plan(t, ctl, false, inst->n, true, false);
    wt_alpha_plan on_host = ascent_plan(t, ctl, true, inst->n, true, false);
    int k = t->lk_candidates ? t->lk_candidates : WT_LK_ALPHA_CANDIDATES;
    if (k > inst->n - 1) k = inst->n - 1;
    wt_alpha_beside *b = NULL;
    wt_alpha_beside_start(inst, &dev, ctl, &on_dev, &on_host, k, ctl->threads, &b);
    if (b) {
        ctl->bound_source = wt_alpha_beside_bound;
        ctl->bound_user = b;
    }
    wt_status st = ils_plain_first_descent(inst, tour, two_opted, ctl, T, stats, err);
    if (st == WT_OK && !wt_ctl_expired(ctl))
        wt_ctl_report(ctl, wt_tour_length(inst, tour), stats->steps, true);
    ctl->bound_source = NULL;
    ctl->bound_user = NULL;
    if (!b) return st == WT_OK ? run_ascent(inst, ctl, true, m, alpha, stats, err) : st;
    wt_error ascent_err = {0};
    wt_status ascent_st =
        wt_alpha_beside_take(b, st != WT_OK || wt_ctl_expired(ctl), alpha, &ascent_err);
    if (st == WT_OK && ascent_st != WT_OK) {
        *err = ascent_err;
        st = ascent_st;
    }
    if (st == WT_OK) take_ascent(alpha, use, ctl, m, stats);
    return st;
}

/* After the first descent (so that a short run has its descended tour as
 * early as before): the ascent (run_ascent), its bound reported; with
 * alpha lists, the kicks' engine becomes one on the same tour with the
 * alpha-nearness candidates (*whole and *m replaced). */
static wt_status ascent_after_descent(const wt_instance *inst, const int32_t *tour,
                                      wt_search_ctl *ctl, wt_ls_moves *m, wt_alpha *alpha,
                                      wt_search_stats *stats, wt_ls **whole, wt_error *err)
{
    const wt_tuning *t = wt_tuning_of(ctl->params);
    if (!m->lk || wt_policy_lk_alpha(t->lk_alpha, inst->n, m->kopt) == WT_ALPHA_NONE ||
        wt_ctl_expired(ctl))
        return WT_OK;
    wt_ctl_report(ctl, wt_ls_length(*whole), stats->steps, true); /* the descended tour */
    wt_ls_moves am = *m;
    wt_status st = run_ascent(inst, ctl, false, &am, alpha, stats, err);
    if (st != WT_OK || am.given == m->given) return st;
    wt_ls *w = NULL;
    st = wt_ls_create(inst, tour, ctl, &am, &w, err);
    if (st != WT_OK) return st;
    wt_ls_free(*whole);
    *whole = w;
    *m = am;
    return WT_OK;
}

/* The kicks' engine of the k-opt step on alpha lists, after its first
 * descent (on all of *m's candidates, under the ascent's penalties): on
 * the first wt_policy_lk_kick_candidates of each row, and without the
 * penalties where wt_policy_lk_kick_pi says so (bench/RESULTS.md, "At 1 s
 * against linkern"); tied: as ils_mostly_tied finds the first descent's
 * lists.  *lists: the rows it takes (to free after the search), NULL
 * where *whole and *m stay as they are. */
static wt_status kick_engine(const wt_instance *inst, const int32_t *tour, wt_search_ctl *ctl,
                             bool tied, wt_ls_moves *m, wt_ls **whole, int32_t **lists,
                             wt_error *err)
{
    const wt_tuning *t = wt_tuning_of(ctl->params);
    int n = inst->n, width = m->candidates;
    *lists = NULL;
    if (!m->kopt || !m->given) return WT_OK;
    double limit = ctl->params->time_limit_s;
    int k = wt_policy_lk_kick_candidates(t->lk_kick_candidates, width, m->kopt, tied, n, limit,
                                         ctl->threads);
    bool pi = m->pi && wt_policy_lk_kick_pi(t->lk_kick_pi, tied, n, limit, ctl->threads);
    if (k == width && pi == (m->pi != NULL)) return WT_OK;
    int32_t *rows = malloc((size_t)n * (size_t)k * sizeof *rows);
    if (!rows) return wt_fail(err, WT_STATUS_OUT_OF_MEMORY, "out of memory for the kicks' lists");
    for (size_t c = 0; c < (size_t)n; c++)
        memcpy(rows + c * (size_t)k, m->given + c * (size_t)width, (size_t)k * sizeof *rows);
    wt_ls_moves km = *m;
    km.given = rows;
    km.candidates = k;
    if (!pi) km.pi = NULL;
    wt_ls *w = NULL;
    wt_status st = wt_ls_create(inst, tour, ctl, &km, &w, err);
    if (st != WT_OK) {
        free(rows);
        return st;
    }
    wt_ls_free(*whole);
    *whole = w;
    *m = km;
    *lists = rows;
    return WT_OK;
}

/* A kept search's first descent (ils_keep.h): from the cities whose tour
 * neighbours differ from the last search's tour, on the two-level list
 * for large tours; *kept false (nothing done) where the keep has no last
 * tour or no memory for the cities. */
static wt_status kept_first_descent(wt_ls *whole, int32_t *tour, bool on_list,
                                    wt_search_ctl *ctl, wt_search_stats *stats, bool *kept,
                                    wt_error *err)
{
    int n = wt_ls_instance(whole)->n;
    int32_t *cities = malloc((size_t)n * sizeof *cities);
    int count = cities ? wt_ils_keep_changed(ctl->keep, tour, cities) : -1;
    *kept = count >= 0;
    if (*kept) wt_ls_touch(whole, cities, count);
    free(cities);
    if (!*kept) return WT_OK;
    wt_status st = on_list ? wt_ls_descend_list(whole, true, &stats->steps, err)
                           : wt_ls_descend(whole, &stats->steps, err);
    if (st != WT_OK) return st;
    wt_ls_commit(whole);
    memcpy(tour, wt_ls_order(whole), (size_t)n * sizeof *tour);
    return WT_OK;
}

/* The whole tour's candidate lists (moves' kind and count) from device
 * on's neighbours slot, which lists a million cities in a twentieth of a
 * second where the host's four threads take a second and a half, the same
 * lists bit for bit (backend.h); NULL where on is no such device, the tour
 * is smaller than wt_policy_device_lists takes, or the slot declines (a
 * metric or layout it does not take, its memory) or is stopped: the
 * engine then builds its own. */
static int32_t *device_lists(const wt_instance *inst, const wt_device *on, wt_search_ctl *ctl,
                             const wt_ls_moves *m)
{
    if (!on || on->backend->host || !on->backend->neighbours || m->given || m->directed ||
        !wt_policy_device_lists(wt_tuning_of(ctl->params)->ils_device_lists_min, inst->n) ||
        inst->n <= m->candidates)
        return NULL;
    int32_t *nb = malloc((size_t)inst->n * (size_t)m->candidates * sizeof *nb);
    if (!nb) return NULL;
    bool stopped = false;
    wt_error ignored = {0};
    /* the engine's choice (ls_lk_candidates): quadrant lists for LK that
     * asks for them, the nearest cities otherwise */
    bool quadrant = m->lk && m->quadrant;
    if (on->backend->neighbours(on, inst, m->candidates, quadrant, nb, ctl, &stopped, &ignored) !=
            WT_OK ||
        stopped) {
        free(nb);
        return NULL;
    }
    return nb;
}

/* The engine of the whole tour, on the keep's lists where it has them for
 * these moves (and keeping its lists where it has none), else on device
 * on's lists where it makes them (*device_nb, the caller's to free after
 * the engine and its clones). */
static wt_status whole_engine(const wt_instance *inst, const int32_t *tour, wt_search_ctl *ctl,
                              const wt_ls_moves *moves, const wt_device *on, int32_t **device_nb,
                              wt_ls **whole, wt_error *err)
{
    wt_ls_moves m = *moves;
    const int32_t *kept = m.given ? NULL : wt_ils_keep_lists(ctl->keep, m.lk, m.candidates);
    *device_nb = kept ? NULL : device_lists(inst, on, ctl, &m);
    if (kept || *device_nb) { /* the engine's own kind of lists, made elsewhere */
        m.given = kept ? kept : *device_nb;
        m.given_by_distance = true;
    }
    wt_status st = wt_ls_create(inst, tour, ctl, &m, whole, err);
    if (st != WT_OK || kept || !ctl->keep || moves->given) return st;
    /* the keep takes the lists the engine has, built here or on the device */
    int width;
    const int32_t *nb = wt_ls_candidates(*whole, &width);
    wt_ils_keep_set_lists(ctl->keep, m.lk, m.candidates, nb, width);
    return WT_OK;
}

/* Whether the first descent runs from one start tour a search
 * (ils_tied_first_descent): the k-opt step's short runs where ties abound
 * (wt_policy_lk_tied_short), with 2 to WT_ILS_TIED_STARTS_SEARCHES_MAX
 * searches, neither a large tour nor a 2-opted one (other_first: those
 * descend their own ways), no fixed edges. */
static bool tied_starts(const wt_ls *whole, const wt_instance *inst, const wt_search_ctl *ctl,
                        const wt_ls_moves *moves, bool other_first, int T)
{
    if (T < 2 || T > WT_ILS_TIED_STARTS_SEARCHES_MAX || other_first || ctl->fixed ||
        !moves->kopt)
        return false;
    bool tied = ils_mostly_tied(whole, inst);
    return wt_policy_lk_tied_short(moves->kopt, tied, inst->n, ctl->params->time_limit_s,
                                   ctl->threads);
}

/* How many start tours the first descent runs from side by side and
 * merges (ils_merged_first_descent; 1: the one start alone): the policy's
 * count for LK descents on the array (other_first: neither a large tour
 * nor a 2-opted one, which descend their own ways), from points (the
 * sweeps' start tours), no start tour given and no fixed edges, which
 * the sweeps would not hold. */
static int merged_starts(const wt_instance *inst, const wt_search_ctl *ctl,
                         const wt_ls_moves *m, bool other_first, int T)
{
    if (!m->lk || other_first || ctl->fixed || ctl->params->start_tour ||
        inst->type == WT_EXPLICIT || inst->directed)
        return 1;
    return wt_policy_ils_merged_starts(wt_tuning_of(ctl->params)->ils_starts,
                                       m->kopt && m->kopt_lkh_chains, inst->n, T);
}

wt_status wt_ils_local_run(const wt_instance *inst, int32_t *tour, wt_search_ctl *ctl,
                           bool two_opted, bool lk, const wt_device *on,
                           const wt_device *lists_on, uint64_t kicks, wt_search_stats *stats,
                           wt_error *err)
{
    int n = inst->n, T = wt_policy_ils_searches(wt_tuning_of(ctl->params)->ils_searches,
                                                ctl->threads, kicks);
    wt_ls *whole = NULL;
    wt_ls_moves moves = search_moves(lk, ctl->params, inst, ctl->threads);
    if (inst->directed) /* an asymmetric instance's transformation */
        moves = wt_policy_directed_moves(moves, wt_tuning_of(ctl->params)->lk_candidates);
    wt_alpha alpha = {0};
    bool large_lk = lk && wt_policy_lk_large(wt_tuning_of(ctl->params)->ils_lk_large_min, n) &&
                    inst->type != WT_EXPLICIT;
    bool alpha_first = ascent_first(inst, ctl, &moves);
    wt_status st = WT_OK;
    if (device_plain_first(inst, ctl, &moves, on, large_lk, two_opted, T)) {
        st = wt_descent_first_handover(on, inst, tour, ctl, stats, err);
        if (st != WT_OK || wt_ctl_expired(ctl)) {
            wt_alpha_free(&alpha);
            return st;
        }
        two_opted = true;
    }
    /* the 2-opt + Or-opt first descent of a large tour, done beside the ascent */
    bool plain_done = alpha_first && ascent_beside_plain(inst, ctl, &moves, large_lk, T);
    if (plain_done)
        st = descend_beside_ascent(inst, tour, two_opted, ctl, T, &moves, &alpha, stats, err);
    else if (alpha_first)
        st = run_ascent(inst, ctl, true, &moves, &alpha, stats, err);
    if (st == WT_OK && alpha.candidates && alpha_start(ctl))
        st = ils_alpha_start_tour(inst, &alpha, ctl, tour, err);
    int32_t *device_nb = NULL;
    if (st == WT_OK)
        st = whole_engine(inst, tour, ctl, &moves, lists_on, &device_nb, &whole, err);
    if (st != WT_OK) {
        wt_ls_free(whole);
        free(device_nb);
        wt_alpha_free(&alpha);
        return st;
    }
    wt_alpha_beside *beside = alpha_first ? NULL : bound_beside(inst, ctl, &moves);
    if (beside) { /* its bound in the reports (and the stop at it) once proven */
        ctl->bound_source = wt_alpha_beside_bound;
        ctl->bound_user = beside;
    }
    /* The first descent with the default breadth: a broader one is slower
     * from a start tour and pays only in the kicks' repairs. */
    if (lk) wt_ls_set_breadth(whole, wt_policy_ls_moves(true).breadth);
    /* Paths keep copies of coordinates: no segments for a matrix. */
    /* Fixed edges (ctl->fixed): the whole tour's engines and the segments'
     * keep them (a segment in its own numbering); merged replicas do not
     * (below). */
    bool segmentable = (T > 1 || large_lk) && inst->type != WT_EXPLICIT;
    bool kept = false;
    int starts = merged_starts(inst, ctl, &moves, large_lk || two_opted, T);
    if (ctl->keep && !ctl->fixed)
        st = kept_first_descent(whole, tour, large_lk, ctl, stats, &kept, err);
    if (kept) {
        /* descended from where the tour changed */
    } else if (large_lk && !two_opted &&
               wt_policy_lk_list_descent(wt_tuning_of(ctl->params)->ils_list_descent_min, n, T,
                                         moves.kopt)) {
        st = ils_list_first_descent(whole, tour, inst, ctl, T, stats, err);
    } else {
        if (large_lk && !two_opted && !plain_done) {
            st = ils_plain_first_descent(inst, tour, false, ctl, T, stats, err);
            if (st == WT_OK) wt_ls_adopt(whole, tour, wt_tour_length(inst, tour));
        }
        if (st == WT_OK && tied_starts(whole, inst, ctl, &moves, large_lk || two_opted, T))
            st = ils_tied_first_descent(whole, tour, inst, ctl, T, stats, err);
        else if (st == WT_OK && starts > 1)
            st = ils_merged_first_descent(whole, tour, inst, ctl, starts, stats, err);
        else if (st == WT_OK)
            st = ils_first_descent(whole, tour, segmentable, two_opted, large_lk, n, ctl, T,
                                   stats, err);
    }
    if (st == WT_OK && !alpha_first && !beside)
        st = ascent_after_descent(inst, tour, ctl, &moves, &alpha, stats, &whole, err);
    else if (st == WT_OK && !wt_ctl_expired(ctl)) /* the descended tour, as shown after it */
        wt_ctl_report(ctl, wt_ls_length(whole), stats->steps, true);
    /* Ties, counted on the first descent's lists, for the k-opt step's
     * short-run rules (policy.h). */
    bool tied = st == WT_OK && moves.kopt && ils_mostly_tied(whole, inst);
    bool tied_short = wt_policy_lk_tied_short(moves.kopt, tied, n, ctl->params->time_limit_s,
                                              ctl->threads);
    /* The kicks' searches: T, or more in a tied short run (policy.h). */
    int S = wt_policy_ils_kick_searches(T, wt_tuning_of(ctl->params)->ils_searches, kicks,
                                        tied_short);
    if (S > T) segmentable = inst->type != WT_EXPLICIT;
    int32_t *kick_lists = NULL;
    moves.kopt_lkh_chains = wt_policy_lk_kopt_chains(wt_tuning_of(ctl->params)->lk_kopt_chains,
                                                     false, n, ctl->params->time_limit_s);
    if (st == WT_OK && alpha_first)
        st = kick_engine(inst, tour, ctl, tied, &moves, &whole, &kick_lists, err);
    if (lk) wt_ls_set_breadth(whole, moves.breadth); /* the kicks' */
    wt_ls_set_kopt_chains(whole, moves.kopt_lkh_chains);
    int64_t length = wt_ls_length(whole);
    ctl->kicks = 0;
    ctl->steps_before = stats->steps; /* the kicks' reports count on from here */
    bool halt = st != WT_OK || wt_ctl_report(ctl, length, stats->steps, false);
    bool at_optimum = ctl->stop == WT_STOP_DONE; /* the first descent was not cut short */
    const wt_tuning *tune = wt_tuning_of(ctl->params);
    bool merged = lk && ils_merged_on(tune, n, tied_short) && !ctl->fixed;
    bool on_segments = segmentable && (n / S >= ils_segment_min(tune, lk) || large_lk);
    /* Concurrent windows with the searches whose rounds end in the whole
     * tour. */
    wt_concurrent_windows *concurrent = NULL;
    wt_concurrent_opts bo =
        concurrent_opts(on, ctl->params, inst->n, ctl->threads, whole, lk, merged, ctl->fixed);
    if (!halt && on && kicks == 0 && S > 1 &&
        (merged || on_segments))
        st = wt_concurrent_open(inst, &bo, &concurrent, err);
    if (!halt && st == WT_OK) {
        if (merged)
            st = ils_kick_merged(whole, tour, n, ctl, S, kicks, concurrent, &length, stats, err);
        else if (on_segments)
            st = ils_kick_segments(whole, tour, n, ctl, S, kicks, large_lk, concurrent, &length,
                                   stats, err);
        else
            st = ils_kick_replicas(whole, tour, n, ctl, S, kicks, &length, stats, err);
    }
    stats->gpu_time_s += wt_concurrent_gpu_s(concurrent);
    if (wt_concurrent_started_at(concurrent) > 0)
        stats->concurrent_windows_s = wt_now() - wt_concurrent_started_at(concurrent);
    wt_concurrent_devices_named(concurrent, stats->windows_devices,
                                sizeof stats->windows_devices);
    wt_concurrent_close(concurrent);
    ctl->kicks = stats->kicks;
    /* A later kept search descends from where its start differs from this
     * tour: every city of it has been descended from, unless the first
     * descent was cut short. */
    if (ctl->keep) wt_ils_keep_set_last(ctl->keep, tour, st == WT_OK && at_optimum);
    /* The bookkeeping's invariant (checked in debug builds, the sanitizer
     * tests among them): the length kept is the tour's. */
    assert(st != WT_OK || length == wt_tour_length(inst, tour));
    /* As ils.c: kicking until the time limit ends normally there. */
    if (kicks == 0 && at_optimum && ctl->stop == WT_STOP_TIME_LIMIT) ctl->stop = WT_STOP_DONE;
    /* Without a time limit the kicks' end does not cut the ascent short
     * (its steps are capped then): the same bound for the same run.  A
     * limit or a stop ends it with the search. */
    ctl->bound_source = NULL;
    ctl->bound_user = NULL;
    wt_alpha_beside_end(beside, isfinite(ctl->deadline) || ctl->stop != WT_STOP_DONE, stats);
    wt_ls_free(whole);
    free(kick_lists);
    free(device_nb);
    wt_alpha_free(&alpha);
    return st;
}
