/*
 * policy.h - the automatic choices and defaults of the solver, in one
 * table: which method runs at which size, and with what settings.  Each
 * constant says what it decides; the measurements behind the values are in
 * bench/RESULTS.md, whose "Why ..." sections the comments name, not here.
 * The fields of wt_tuning (warptour_experimental.h) and the experimental
 * fields of wt_batch_params (warptour.h) override some of them for
 * measurements: a field that is 0 keeps the value below.  The rules that
 * are small functions of the tour's size and the time limit are the
 * wt_policy_* functions (policy.c); the others are named where they are
 * applied.
 *
 * The defaults of the fields a user sets (wt_params_defaults,
 * wt_batch_params_defaults, WT_BATCH_DEFAULT_KICKS) are the public
 * header's, which documents each; the choices of the GPU's kernels (their
 * shapes, the pruned pass's size) are the CUDA backend's (src/backend/cuda).
 */
#ifndef WT_ALGO_POLICY_H
#define WT_ALGO_POLICY_H

#include <stdbool.h>
#include <stdint.h>

#include "ls/engine.h"
#include "warptour.h"

/* ======================================== local search and the ILS drivers
 * The local-search engine (src/ls) as SA's polish and ILS on the host use
 * it (algo/polish.c, algo/ils_local.c and the drivers ils_replicas.c,
 * ils_segments.c, ils_merged.c, ils_first.c).  A tuning field named in
 * brackets overrides the value.  The engine's own limits, which define its
 * moves (WT_LS_OR_MAX, LK's breadth cap and alternate-step chain, the
 * long-edge pass's rounds, the segment-restricted kick's window), stay in
 * src/ls. */

/* Candidate cities a city in the polish's and the 2-opt + Or-opt descents. */
#define WT_POLISH_NEIGHBOURS 10
/* Largest tour whose polish ends with full-neighbourhood sweeps (O(n^2) each). */
#define WT_POLISH_FULL_MAX 5000

/* LK's step and kick: bench/RESULTS.md, "Why walks of 25 steps and chains 25
 * deep (LK)", "Why broader kick repairs from 50,000 cities (LK)" and "Why the
 * alternate step is off (LK)". */
/* Candidate cities a city of the LK descents, quadrant neighbours [lk_candidates]. */
#define WT_LK_CANDIDATES 8
/* Most flips (levels) of one LK step [lk_depth]. */
#define WT_LK_DEPTH 25
/* Alternatives an LK step tries at levels 1, 2, 3 [lk_breadth1..3]. */
#define WT_LK_BREADTH1 3
#define WT_LK_BREADTH2 2
#define WT_LK_BREADTH3 1
/* ... and at levels 4, 5 [lk_breadth4, lk_breadth5]. */
#define WT_LK_BREADTH4 1
#define WT_LK_BREADTH5 1
/* The LK step's basic move by default [lk_kopt]: LKH's sequential 5-opt
 * move (ls/kopt.c) on the ascent's alpha-nearness lists (WT_ALPHA_LISTS
 * below, the ascent before the first descent, the gains under its
 * penalties), shorter than the flip chain on its lists at 1, 10 and 30 s
 * (bench/RESULTS.md, "Why the k-opt step stalled on pr2392" and "The
 * 5-opt step on alpha lists as the default (LK)"); 0 is the flip chain
 * (ls/lk.c), which asymmetric instances' transformations keep (their
 * moves are direction-keeping exchanges, which no step changes). */
#define WT_LK_KOPT_DEFAULT 5
/* Tours from which the default takes the k-opt step, the flip chain below:
 * from 200 to 1,000 cities neither was shorter at 0.2, 0.5 and 1 s, and
 * with a kick budget both ended at the same tours up to 500 cities, the
 * 5-opt step's kicks costing 1.5 to 2.5 times as much (bench/RESULTS.md,
 * "The 5-opt step on alpha lists as the default (LK)"). */
#define WT_LK_KOPT_MIN_CITIES 1000
/* Under a time limit, the default takes the k-opt step from this many
 * seconds a city of the limit, the flip chain below: the ascent and the
 * k-opt step's first descent must end within the limit.  The first
 * descent runs on one thread below 5,000 cities a thread, so more threads
 * do not shorten it, and on the H200 machine's cores (slower than the
 * development VM's, where 50 µs sufficed) it did not end in 1 s on
 * usa13509, brd14051, d15112 and d18512 (54-74 µs a city; 16 threads: 0.45
 * to 4.7% above the optimum, most runs without a kick), where the flip
 * chain reached 0.51-0.79% (bench/RESULTS.md, "At 1 s on 16 cores
 * (H200)"); */
#define WT_LK_KOPT_S_PER_CITY 80e-6
/* above WT_ILS_LK_REPLICAS_MAX cities, where the first descent runs on
 * lists or segments, slower a city, from this many (one thread on the
 * development VM: pla33810 and pla85900). */
#define WT_LK_KOPT_LARGE_S_PER_CITY 80e-6
/* There, with the ascent on a GPU (its alpha lists of a million cities in
 * about a second), from this many: the k-opt step's first descent on
 * segments, all threads, then takes the time the host's ascent took.  At
 * 60 s on a million uniform cities (60 us a city; H200 machine, 16 cores)
 * the 5-opt step reached 0.366% above BHH where the flip chain reached
 * 0.564-0.589% (bench/RESULTS.md, "The 5-opt step at a million cities").
 * Above WT_AUTO_LK_MAX_CITIES, where the alternative is auto's local
 * descents, from WT_AUTO_LK_DEVICE_THREAD_S_PER_CITY thread-seconds. */
#define WT_LK_KOPT_DEVICE_S_PER_CITY 50e-6
/* Tours up to which the k-opt step's first descent (of a large tour, above
 * WT_ILS_LK_REPLICAS_MAX cities) is the list descent on one thread, above
 * which one on segments, on all threads: at a million cities the list
 * descent with the 5-opt step did not end within 60 s (16 cores), where
 * the segments' left 40 s of kicks; ara238025 keeps the list descent, as
 * measured at 60 s (the same section). */
#define WT_ILS_KOPT_LIST_DESCENT_MAX 250000
/* Under a time limit, the default takes the flip chain from this many
 * thread-seconds a city (threads times the limit, over n), the k-opt step
 * below: where the budget allows many kicks a city the k-opt step on five
 * alpha candidates stalls at a longer tour than the flip chain reaches.
 * H200 machine, 16 threads (bench/RESULTS.md, "The k-opt step on 16
 * cores"): pr2392 at 10 s (67 ms a city) 0.245% against the flip chain's
 * 0.011%, and at 60 s 0.126% against 0.006%; at 10 s on usa13509, d18512,
 * brd14051 and 10,000 uniform cities (9 to 16 ms a city) the k-opt step
 * was as short or shorter, as on one thread at 1 s and 10 s; */
#define WT_LK_KOPT_MAX_THREAD_S_PER_CITY 30e-3
/* below this many cities: on usa13509 at 60 s (71 ms a city) the k-opt step
 * was the shorter, 0.088% against the flip chain's 0.136% (bench/RESULTS.md,
 * "The k-opt step on 16 cores"). */
#define WT_LK_KOPT_RICH_MAX_CITIES 5000
/* The k-opt step's non-gaining basic moves before one that gains, at most
 * [lk_kopt_submoves]: long chains, as LKH's, which only the gain criterion
 * ends (bench/RESULTS.md, "Why the k-opt step stalled on pr2392"). */
#define WT_LK_KOPT_SUBMOVES 50
/* The basic move of LK searches on n cities under a time limit of
 * time_limit_s seconds (<= 0: none), as the tuning t sets lk_kopt (0: the
 * default, WT_TUNING_OFF: the flip chain, 3 to 5: that k-opt move), for
 * an asymmetric instance's transformation where directed: 0 for the flip
 * chain, else the k of the k-opt move.  The default: WT_LK_KOPT_DEFAULT,
 * with the alpha lists it is measured on; the flip chain where the tuning
 * takes the lists away (lk_alpha WT_TUNING_OFF or 2: on quadrant
 * neighbours the 5-opt step made a third of the flip chain's kicks and
 * was no shorter, bench/RESULTS.md, "The k-opt step against the flip
 * chain (LK)"), where directed, below WT_LK_KOPT_MIN_CITIES cities,
 * under a limit shorter than WT_LK_KOPT_S_PER_CITY
 * (WT_LK_KOPT_LARGE_S_PER_CITY above WT_ILS_LK_REPLICAS_MAX cities, or
 * WT_LK_KOPT_DEVICE_S_PER_CITY there where a GPU runs the ascent:
 * device_ascent) a city, and where `threads` threads under the limit have
 * WT_LK_KOPT_MAX_THREAD_S_PER_CITY a city or more. */
int wt_policy_lk_kopt(const wt_tuning *t, int n, bool directed, double time_limit_s, int threads,
                      bool device_ascent);
/* Above this many cities, where ties abound (the instance's own measure,
 * ils_instance_tied), the default basic move is the flip chain: on
 * pla85900 (66% of the cities with their two nearest at one length) the
 * 5-opt step made 0.37 times the flip chain's kicks in 60 s and lost at 10
 * and 60 s on 16 threads and at 10 s on 2, while on pla33810 it made a
 * ninth of them and still won at 10 and 60 s on 16 threads and at 10 s on
 * 2; the bar lies between the two (bench/RESULTS.md, "The 5-opt step
 * where ties abound"). */
#define WT_LK_KOPT_TIED_MAX_CITIES 50000
/* Whether a run of n cities whose lk_kopt is tuned as `tuned` takes the
 * flip chain where the instance is mostly tied (above). */
bool wt_policy_lk_kopt_tied_off(int tuned, int n);
/* Whether the first LK descent of a large tour (above
 * WT_ILS_LK_REPLICAS_MAX cities) of n cities on T threads is the list
 * descent, its basic move the k-opt step's kopt (0: the flip chain), as
 * the tuning sets ils_list_descent_min (tuned; 0: the default, always
 * for the flip chain, for the k-opt step up to
 * WT_ILS_KOPT_LIST_DESCENT_MAX cities; WT_TUNING_OFF: never; else from
 * that many cities a thread). */
bool wt_policy_lk_list_descent(int64_t tuned, int n, int T, int kopt);
/* Tours from which the kicks' repairs take the deeper LK step below. */
#define WT_ILS_LK_DEEP_MIN 50000
/* The deeper LK step: candidates, depth, and breadth at levels 1, 2, 3. */
#define WT_ILS_LK_DEEP_CANDIDATES 12
#define WT_ILS_LK_DEEP_DEPTH 50
/* Under a time limit on fewer threads than this, the deeper step's flip
 * chain keeps WT_LK_DEPTH (wt_policy_lk_deep_depth): on two threads chains
 * 25 deep made half as many kicks again and won everywhere measured
 * (development VM, 10 s: pla85900 0.389 / 0.388 / 0.399% against 0.484 /
 * 0.486 / 0.502%, seeds 1-3; ara238025 1.611 against 1.662%, venus140K
 * 0.357 against 0.428%; 60 s: pla85900 0.266 / 0.266% against 0.301 /
 * 0.321%, seeds 1-2), where sixteen threads took the deeper step, depth 50
 * with it, at 10 and 60 s (bench/RESULTS.md, "Why broader kick repairs
 * from 50,000 cities (LK)"; depth alone was not measured there; between 2
 * and 16 threads nothing was).  A kick budget keeps depth 50 on any thread
 * count, so that its tour does not depend on the threads. */
#define WT_ILS_LK_DEEP_DEPTH_MIN_THREADS 8
/* The deeper step's depth for a search on `threads` threads under a time
 * limit of time_limit_s seconds (0: none): above. */
int wt_policy_lk_deep_depth(int threads, double time_limit_s);
#define WT_ILS_LK_DEEP_BREADTH1 5
#define WT_ILS_LK_DEEP_BREADTH2 3
#define WT_ILS_LK_DEEP_BREADTH3 2
#define WT_ILS_LK_DEEP_BREADTH4 1
#define WT_ILS_LK_DEEP_BREADTH5 1
/* The LK moves m of a search of n cities on `threads` threads under a time
 * limit of time_limit_s seconds (0: none), from WT_ILS_LK_DEEP_MIN cities
 * the deeper step above (candidates, depth, breadth); below, m as given. */
wt_ls_moves wt_policy_lk_deep_moves(wt_ls_moves m, int n, int threads, double time_limit_s);
/* LK searches' candidates by alpha-nearness from a Held-Karp ascent
 * (algo/alpha.h) [lk_alpha]: how many a city, and the ascent's share of
 * the time left after the start tour at most [ascent_share_pct]; without
 * a time limit its steps are capped (below). */
#define WT_LK_ALPHA_CANDIDATES 5
#define WT_ASCENT_SHARE 0.1
/* The first period of the search's ascent [ascent_period]: LKH's
 * INITIAL_PERIOD of the settings it is measured with (../shared/peers),
 * a few hundred steps where Held & Karp's n / 2 takes n. */
#define WT_ASCENT_PERIOD 100
/* The same two on a device's ascent slot (the GPU's; alpha.h,
 * wt_alpha_device), which makes a step many times faster than the host's
 * threads, so that a longer ascent (a longer first period, a larger
 * share), and with it a better bound and better lists, costs the search
 * less.  Not measured yet: the host's values, until `warptour-bench
 * ascent` and the timeline measure the GPU's (the tunings ascent_period
 * and ascent_share_pct set both devices' for that). */
#define WT_ASCENT_DEVICE_SHARE 0.1
#define WT_ASCENT_DEVICE_PERIOD 100
/* The search's ascent on the host (on_host) or on a device: its share of
 * the time left at most and its first period, the tuning's where it sets
 * them [ascent_share_pct, ascent_period]. */
typedef struct wt_ascent_plan {
    double share; /* of the time left after the first descent, 0..1 */
    int period;   /* steps of the first period */
} wt_ascent_plan;
wt_ascent_plan wt_policy_ascent(const wt_tuning *t, bool on_host);
/* The host's ascent after the first descent whose bound alone the search
 * takes (WT_ALPHA_BOUND) in a short run for its size (under
 * WT_LK_KICK_SHORT_THREAD_S_PER_CITY thread-seconds a city) takes this
 * share at most: its bound gains little from more steps there, and the
 * kicks lose the time.  pla85900, 2 threads, 10 s (development VM, seeds
 * 1-2): 0.374 / 0.377% against 0.413 / 0.399% at WT_ASCENT_SHARE, the
 * bound 2.244 / 2.231% below the tour against 2.236 / 2.223%
 * (bench/RESULTS.md, "Two cores against one linkern core"). */
#define WT_ASCENT_BOUND_SHORT_SHARE 0.03
/* Its plan after the first descent: wt_policy_ascent's, with the share
 * above where it applies (on_host, bound_only, a short run for n cities
 * on `threads` threads under time_limit_s) and the tuning sets none. */
wt_ascent_plan wt_policy_ascent_after(const wt_tuning *t, bool on_host, bool bound_only, int n,
                                      double time_limit_s, int threads);
/* The GPU's ascent for the bound alone beside the search
 * (algo/alpha_beside.h), which no host thread waits for, takes this share
 * of the time left at most: a million cities' local descents at 10 s
 * (H200, seed 1, one run each) ended 1.182% above BHH with 151 steps at
 * the device's 10% (bound 4.41% below the tour), 1.219% at 30% (338
 * steps, 1.84%), 1.199% at 60% (the whole ascent, 667 steps, 1.77%): the
 * tours alike within a run's spread, the bound far better
 * (bench/RESULTS.md, "The bound's ascent beside the search"). */
#define WT_ASCENT_BESIDE_SHARE 0.6
/* Its plan: WT_ASCENT_BESIDE_SHARE and the device's first period, the
 * tuning's where it sets them. */
wt_ascent_plan wt_policy_ascent_beside(const wt_tuning *t);
/* The largest tour whose local descents run it beside them: its GPU memory
 * (about 1.1 kB a city with the graph's build, cuda_ascent.cu) is taken
 * while the GPU's own descent and windows run, which would find the device
 * short of memory at ten million cities on a smaller GPU; up to here it is
 * 2.2 GB at most.  Where the GPU refuses it, local descents take no host
 * ascent in its place (they ran none before): the flip chain's LK runs
 * do, as they did after their first descent. */
#define WT_ASCENT_BESIDE_LOCAL_MAX_CITIES 2000000
/* The ascent that runs before the first descent, whose lists the k-opt
 * step's every descent takes (ils_local.c): on the host, up to
 * WT_ILS_LK_REPLICAS_MAX cities, this share of the time left at most, so
 * that a short run's lists come from an ascent of a hundred steps or more
 * (usa13509 at 1 s, one thread: about 200 steps against 47-49 at
 * WT_ASCENT_SHARE; bench/RESULTS.md, "The 5-opt step on alpha lists as
 * the default (LK)"); a longer run's ascent ends by its own rule before. */
#define WT_LK_ALPHA_FIRST_SHARE 0.3
/* Its plan on a tour of n cities: wt_policy_ascent's, with the share
 * above where it applies and the tuning sets none. */
wt_ascent_plan wt_policy_ascent_first(const wt_tuning *t, bool on_host, int n);
/* Without a time limit (a kick budget) the search's ascent makes at most
 * WT_ASCENT_CITY_STEPS / n steps on the host, WT_ASCENT_DEVICE_CITY_STEPS
 * / n on a device (about 30 times cheaper a step: bench/RESULTS.md, "The
 * Held-Karp ascent on the GPU"), at least WT_ASCENT_MIN_STEPS, so that it
 * costs a share of the run rather than most of it (bench/RESULTS.md, "Why
 * the ascent's steps are capped without a time limit"); a step costs
 * O(n log n).  A count of steps, not of
 * seconds: a kick budget's run repeats.  With a time limit: 0, no cap
 * (the share bounds it).  The tuning's ascent_iterations caps it always. */
#define WT_ASCENT_CITY_STEPS 20000000LL
#define WT_ASCENT_DEVICE_CITY_STEPS 600000000LL
#define WT_ASCENT_MIN_STEPS 10
int wt_policy_ascent_steps(const wt_tuning *t, bool on_host, int n, bool time_limited);
/* What the ascent gives LK searches [lk_alpha]. */
typedef enum wt_alpha_use {
    WT_ALPHA_NONE,  /* no ascent (WT_TUNING_OFF, or below WT_LK_ALPHA_MIN_CITIES) */
    WT_ALPHA_BOUND, /* its bound only; the kicks keep the quadrant neighbours */
    WT_ALPHA_LISTS  /* its bound and its alpha-nearness lists for the kicks */
} wt_alpha_use;
/* Tours from which LK searches run the ascent by default. */
#define WT_LK_ALPHA_MIN_CITIES 8
/* What LK searches on n cities take, lk_alpha as the tuning sets it (0:
 * the default, WT_TUNING_OFF: none, 1: lists, 2: the bound only), with
 * the basic move kopt (wt_policy_lk_kopt): by default the lists with the
 * k-opt step, which pays on them as LKH's does, the bound only with the
 * flip chain, which on five alpha candidates reaches fewer good moves
 * than on eight quadrant neighbours (bench/RESULTS.md, "Why merging
 * meetings and alpha lists are off by default"). */
wt_alpha_use wt_policy_lk_alpha(int tuned, int n, int kopt);
/* What local (2-opt and Or-opt) searches on n cities take, lk_alpha as
 * above: the bound only, where a GPU runs the ascent beside them
 * (algo/alpha_beside.h; never its lists, which these moves do not take),
 * none from WT_TUNING_OFF or below WT_LK_ALPHA_MIN_CITIES. */
wt_alpha_use wt_policy_local_alpha(int tuned, int n);
/* Short runs of the k-opt step on alpha lists (under a time limit of less
 * than WT_LK_KICK_SHORT_THREAD_S_PER_CITY thread-seconds a city: threads
 * times the limit, over n) repair their kicks on the first
 * WT_LK_KOPT_KICK_CANDIDATES of each city's alpha candidates (the best by
 * alpha), the first descent on all WT_LK_ALPHA_CANDIDATES
 * [lk_kick_candidates]: the step searches every candidate at every level,
 * so one fewer makes a repair two to three times cheaper, and where a run
 * has few kicks a city more kicks gained more than each one's broader
 * repair (1 s, one thread, from 2,103 to 14,051 cities); with more time
 * each repair's breadth pays (10 s, two threads, usa13509, d18512 and
 * brd14051: 0.010-0.015 points longer on four candidates).
 * bench/RESULTS.md, "At 1 s against linkern". */
#define WT_LK_KOPT_KICK_CANDIDATES 4
#define WT_LK_KICK_SHORT_THREAD_S_PER_CITY 500e-6
/* Where ties abound (WT_ILS_TIED_SHARE below) a run is short for these
 * rules, and for the penalties' and the walks' below, up to this many
 * thread-seconds a city: the tied rules together (four candidates, no
 * penalties, walks of WT_ILS_LK_TIED_WALK_STEPS) kept paying there.
 * d2103 on two threads at 1 s (0.95 ms a city; seeds 1-6, mean gap):
 * 0.242% against 0.689% under the rules of untied runs; at 1 s on one
 * thread d1291, fl1577 and u1817 (0.55-0.77 ms a city; seeds 1-4):
 * 0.048 / 0.052 / 0.284% against 0.126 / 0.349 / 0.339%, fl1400 even
 * (0.559 / 0.541%); d2103 at 20,000 kicks (about 2.7 ms a city) no
 * shorter either way; at 8 s on two threads (the rules forced by the
 * tuning, seeds 1-3) d2103 (7.6 ms a city) 0.087% against 0.152-0.154%
 * and pla7397 (2.2 ms) 0.019 / 0.441 / 0.220% against 0.117 / 0.758 /
 * 0.246%, fl1577 (10 ms) and u2152 (7.4 ms) even, seed for seed one
 * each way; so 10 ms, which a 1 s run on 16 threads reaches from 1,600
 * cities (bench/RESULTS.md, "Short runs where ties abound (LK)").  Up to
 * WT_ILS_LK_REPLICAS_MAX cities: larger tied tours (pla33810, pla85900)
 * were not measured with these rules and keep those of untied ones. */
#define WT_LK_KICK_SHORT_TIED_THREAD_S_PER_CITY 10e-3
/* The candidates a city of the k-opt step's kick repairs on n cities under
 * a time limit of time_limit_s seconds (<= 0: none) on `threads` threads,
 * the first descent's being descent_k, tied as ils_mostly_tied finds the
 * kicks' lists: WT_LK_KOPT_KICK_CANDIDATES in a short run (above), else
 * descent_k; tuned as lk_kick_candidates sets it (0: that default,
 * WT_TUNING_OFF: descent_k, else that many in any run), at most
 * descent_k; descent_k for the flip chain (kopt 0). */
int wt_policy_lk_kick_candidates(int tuned, int descent_k, int kopt, bool tied, int n,
                                 double time_limit_s, int threads);
/* Whether the k-opt step's kick repairs measure gains under the ascent's
 * penalties, as its first descent does [lk_kick_pi]: not in a short run
 * (above, tied) where ties abound (WT_ILS_TIED_SHARE below: lines of equally
 * spaced cities), where the penalties made a repair several times as
 * costly for no shorter tour (pla7397 at 1 s, one thread: about 180 kicks
 * against 1,000, 0.86% against 0.58%; bench/RESULTS.md, "At 1 s against
 * linkern"); tuned: 0 that default, 1 always, WT_TUNING_OFF never. */
bool wt_policy_lk_kick_pi(int tuned, bool tied, int n, double time_limit_s, int threads);
/* Steps of the random walks that place an LK search's kicks [lk_walk], */
#define WT_ILS_LK_WALK_STEPS 25
/* and with the k-opt step: kicks that reach further, which it undoes less
 * often (most of its kicked tours came back at the kept length; 1 s, one
 * thread, pr2392, brd14051, usa13509, d18512: shorter in the mean of
 * three seeds on all four, and at 10 s no longer: bench/RESULTS.md, "The
 * 5-opt step on alpha lists as the default (LK)"). */
#define WT_ILS_LK_KOPT_WALK_STEPS 50
/* and in the k-opt step's short runs where ties abound (the runs whose
 * kicks drop the penalties by default, wt_policy_lk_kick_pi): kicks that reach
 * further still.  On lines of equally spaced cities most of a city's
 * alpha candidates lie on its line, a walk of 50 steps ends a few cities
 * from its start, and the repair puts most such kicks back as they were;
 * d2103 at 1 s on one thread (seeds 1-8, mean gap): 1.03% with walks of
 * 50 steps, 0.51% with 100, 0.47% with 200, 0.21% with 400 and 1,000
 * (linkern's 1 s tour: 0.21%); d1291, fl1577, fl1400 and u1817 shorter
 * too (bench/RESULTS.md, "Short runs where ties abound (LK)").  Under a kick
 * budget, whose repairs keep the penalties and all candidates, such a
 * kick cost six times as much (d2103, 20,000 kicks): the rule stays with
 * the short runs. */
#define WT_ILS_LK_TIED_WALK_STEPS 400
/* The steps of an LK search's kick walks on n cities under a time limit
 * of time_limit_s seconds (<= 0: none) on `threads` threads, with the
 * basic move kopt (0: the flip chain), tied as ils_mostly_tied finds the
 * kicks' lists: WT_ILS_LK_TIED_WALK_STEPS for the k-opt step where tied
 * in a short run (WT_LK_KICK_SHORT_TIED_THREAD_S_PER_CITY), else
 * WT_ILS_LK_KOPT_WALK_STEPS for the k-opt step, WT_ILS_LK_WALK_STEPS for
 * the flip chain; tuned (lk_walk) where set. */
int wt_policy_lk_walk(int tuned, int kopt, bool tied, int n, double time_limit_s, int threads);

/* How the threads share the kicks: bench/RESULTS.md, "Why segments from 6,000
 * cities a thread (local descents)", "Why a replica round every 4 below 30,000
 * cities a segment (local descents)", "Why segments from 500 cities a thread, at
 * most 12,000 (LK)" and "Why merged replicas from 2,000 cities, in rounds of 250
 * kicks (LK)". */
/* Kicks of each search a round of replicas, the least of segments [ils_round_kicks]. */
#define WT_ILS_ROUND_KICKS 2000
/* Under a time limit alone, on tours of up to WT_ILS_LK_REPLICAS_MAX
 * cities (larger ones were not measured), the rounds of replicas and of
 * segments start at this many kicks a search and double after every round
 * that took less than half of WT_ILS_TIMED_ROUND_SHARE of the limit, up to
 * their kicks with a budget (WT_ILS_ROUND_KICKS, or half a segment's
 * cities if more); a round that took more than that share halves the
 * next.  At 1 s on two threads (segments of about 500 cities from 1,000
 * cities, passive OpenMP waits), rounds of 2,000 kicks a search ended
 * within the first one or two and left pr1002, d1291 and rl1889 0.551 /
 * 0.344 / 0.409% above the optimum, where one thread reached 0.174 / 0.167
 * / 0.309%; rounds of 200 kicks 0.168 / 0.197 / 0.321% (bench/RESULTS.md,
 * "At 1 s against linkern").  A kick budget's rounds stay as they were,
 * so that its run repeats. */
#define WT_ILS_TIMED_FIRST_ROUND_KICKS 100
#define WT_ILS_TIMED_ROUND_SHARE 0.05
/* The kicks a search of the next such round under a time limit of limit_s
 * seconds (<= 0: none, a kick budget), after a round of `round` kicks a
 * search that took round_s seconds (round 0: none yet): as above, within
 * [WT_ILS_TIMED_FIRST_ROUND_KICKS, most], most being the round's kicks with
 * a budget; most without a limit or where the tuning sets the rounds'
 * kicks (tuned: ils_round_kicks). */
uint64_t wt_policy_timed_round(uint64_t round, double round_s, double limit_s, uint64_t most,
                               bool tuned);
/* Kicks of each search a round of merged replicas [ils_round_kicks]. */
#define WT_ILS_MERGED_ROUND_KICKS 250
/* Merged replicas stop kicking this many last rounds' tails before the deadline. */
#define WT_ILS_MERGED_TAIL_MARGIN 1.2

/* Cities a thread from which 2-opt + Or-opt searches kick segments [ils_segment_min]. */
#define WT_ILS_SEGMENT_MIN 6000
/* Cities a thread from which LK searches kick segments [ils_segment_min]. */
#define WT_ILS_LK_SEGMENT_MIN 500
/* Longest segment of a 2-opt + Or-opt search, which then takes several in
 * turn [ils_segment_max]: a move's reversal on a segment's array costs up to
 * its length, so that a shorter one makes more kicks a second
 * (bench/RESULTS.md, "Why segments of at most 32,768 cities (local
 * descents)"). */
#define WT_ILS_SEGMENT_MAX 32768
/* Every this many rounds of a 2-opt + Or-opt search's kicks on shorter
 * segments, one on its whole share (0: none) [ils_share_round_every]: the
 * moves between cities further apart along the tour than a segment, which
 * the shorter segments' faster kicks miss (the same section). */
#define WT_ILS_SHARE_ROUND_EVERY 4
/* Longest segment of an LK search, which then takes several in turn [ils_segment_max]. */
#define WT_ILS_LK_SEGMENT_MAX 12000
/* Tours above which LK searches use no replicas of the array nor a first array descent. */
#define WT_ILS_LK_REPLICAS_MAX 20000
/* Whether LK searches a tour of n cities as a large one (above
 * WT_ILS_LK_REPLICAS_MAX; tuned: ils_lk_large_min, from that many cities,
 * WT_TUNING_OFF never). */
bool wt_policy_lk_large(int64_t tuned, int n);
/* Tours from which the first descent's 2-opt + Or-opt descent of the whole
 * tour makes its 2-opt moves on the tour held as a two-level list first:
 * on the array a flip between far positions reverses up to half the tour,
 * and from a start tour's segments' optimum most of the whole tour's moves
 * join far positions (bench/RESULTS.md, "Why the whole tour's first 2-opt
 * moves on a list from 250,000 cities"). */
#define WT_ILS_PLAIN_LIST_MIN 250000
/* Whether that descent of n cities takes the list first (tuned:
 * ils_plain_list_min, from that many cities, WT_TUNING_OFF never): not for
 * LK's engines (their list descent is a rule of its own) nor directed
 * costs (their moves work on positions only). */
bool wt_policy_plain_list_descent(int64_t tuned, int n, bool lk, bool directed);
/* Tours from which a host ILS with a GPU beside it (its concurrent windows'
 * device) takes the whole tour's candidate lists from the GPU's neighbours
 * slot, the same lists as the host's: below, the host's threads list them
 * in a few hundredths of a second. */
#define WT_ILS_DEVICE_LISTS_CITIES 200000
/* Cities a segment below which every few rounds of segments is one of replicas. */
#define WT_ILS_REPLICA_EVERY_BELOW 30000
/* Tours from which wt_solve's ILS searches the cities renumbered in the
 * Hilbert curve's order [renumber_min]: a city's coordinates, candidate
 * list and places in the tour's structures then lie near those of the
 * cities it meets, where the instance's own numbering (a generator's, or
 * arbitrary) scatters them over memory far larger than the caches. */
#define WT_RENUMBER_MIN_CITIES 20000
/* ... where the numbering scatters them: where more than half of the
 * cities that follow each other on the Hilbert curve lie more than this
 * many numbers apart.  A generator's random order leaves 96% of them so
 * far apart (200,000 uniform cities); the TSPLIB and national instances
 * number their cities by place already (pla85900 3%, usa115475 4%,
 * ara238025 0.2%), and there the curve's numbers only break the ties of
 * equal lengths another way: pla85900 at 60 s (H200 machine, 16 cores)
 * ended 0.202% above the optimum renumbered against 0.132% in its own
 * numbers (bench/RESULTS.md, "The cities renumbered by place"). */
#define WT_RENUMBER_JUMP 4096
/* Every this many rounds of segments, one of replicas, there [ils_replica_every]. */
#define WT_ILS_REPLICA_EVERY 4
/* Tours from which LK searches kick merged replicas [ils_merged_min], */
#define WT_ILS_MERGED_MIN 2000
/* but not the k-opt step's short runs where ties abound (below), whose
 * searches kick segments or replicas as on smaller tours, unless the
 * tuning sets ils_merged_min: their kicks' long walks
 * (WT_ILS_LK_TIED_WALK_STEPS) leave a search's region of the tour.  At
 * 1 s on two threads (seeds 1-8, mean gap; two runs of d2103): d2103
 * 0.164 / 0.108% against 0.264 / 0.261%; pla7397 within its seeds'
 * spread (0.436% against 0.491%, the other way in a later run); on one
 * thread even (d2103 0.233 / 0.211%; bench/RESULTS.md, "Short runs where
 * ties abound (LK)"). */
/* Whether an LK search with the basic move kopt (0: the flip chain) on n
 * cities under a time limit of time_limit_s seconds (<= 0: none) on
 * `threads` threads, tied as ils_mostly_tied finds its lists, is such a
 * run: the k-opt step, tied, up to WT_ILS_LK_REPLICAS_MAX cities, and
 * under WT_LK_KICK_SHORT_TIED_THREAD_S_PER_CITY thread-seconds a city. */
bool wt_policy_lk_tied_short(int kopt, bool tied, int n, double time_limit_s, int threads);
/* The merging meetings of replicas and merged replicas (ils_combine.c,
 * issue 40): rounds without a shorter tour after which all searches but
 * the first start their rounds with a diversification [ils_merge], */
#define WT_ILS_MERGE_STALL 3
/* By default the meetings of merged replicas merge on tours of up to
 * WT_ILS_MERGE_MAX_CITIES cities with at least WT_ILS_MERGE_MIN_SEARCHES
 * searches, without a time limit or under one of at least
 * WT_ILS_MERGE_THREAD_S_PER_CITY thread-seconds a city: on 16 threads
 * (H200 machine, seed 1, auto) at 60 s (52-400 ms a city) usa13509
 * 0.0088% against 0.0387%, d18512 0.0215 against 0.0298%, brd14051 0.0166
 * against 0.0202%, pr2392 the optimum against 0.0058%, u10k 0.02% shorter;
 * at 10 s pr2392 (67 ms a city) the optimum against 0.011%, but usa13509,
 * d18512 and u10k (9-16 ms a city) up to 0.01% longer (brd14051 0.003%
 * shorter).  On two threads no better (10 s: 5 of 8 runs a little
 * longer), nor on pla85900 at 60 s in an earlier measurement (0.156-0.161%
 * against 0.132%) (bench/RESULTS.md, "Merging meetings on 16 threads"). */
#define WT_ILS_MERGE_MAX_CITIES 20000
#define WT_ILS_MERGE_MIN_SEARCHES 8
#define WT_ILS_MERGE_THREAD_S_PER_CITY 20e-3

/* The rounds without a shorter tour after which the meetings of T
 * searches on a tour of n cities diversify, merging (0: they do not
 * merge; tuned as tuning.ils_merge); merged: merged replicas' meetings
 * (else replicas'); under a time limit of time_limit_s (<= 0: none) on
 * `threads` threads. */
static inline int wt_policy_ils_merge_stall(int tuned, int T, int n, bool merged,
                                            double time_limit_s, int threads)
{
    if (T < 2 || tuned == WT_TUNING_OFF) return 0;
    if (tuned) return tuned;
    double thread_s = (threads > 1 ? threads : 1) * time_limit_s;
    bool time_enough = time_limit_s <= 0 || thread_s >= WT_ILS_MERGE_THREAD_S_PER_CITY * n;
    return merged && n <= WT_ILS_MERGE_MAX_CITIES && T >= WT_ILS_MERGE_MIN_SEARCHES &&
                   time_enough
               ? WT_ILS_MERGE_STALL
               : 0;
}

/* The k-opt step's chains of submoves [lk_kopt_chains] (src/ls/kopt.c):
 * by default restricted as LKH's (longer, slower steps to shorter tours)
 * in the first descent of a tour of at most WT_LK_KOPT_CHAINS_MAX_CITIES
 * cities, without a time limit or under one of at least
 * WT_LK_KOPT_CHAINS_S_PER_CITY seconds a city, and as Lin & Kernighan's in
 * the kicks' repairs (bench/RESULTS.md, "LKH-3's LK against ours"): the
 * first descent of usa13509 then takes about 180 µs a city on one thread
 * of the development VM, four times the other's, and pla33810's did not
 * end within 10 s on two threads. */
#define WT_LK_KOPT_CHAINS_MAX_CITIES 20000
#define WT_LK_KOPT_CHAINS_S_PER_CITY 500e-6

/* Whether the first descent's (first) or the kicks' k-opt steps on a tour
 * of n cities under a time limit of limit_s (0: none) chain their
 * submoves as LKH's (tuning.lk_kopt_chains, as tuned: 1 both, 2 the first
 * descent's, WT_TUNING_OFF neither). */
static inline bool wt_policy_lk_kopt_chains(int tuned, bool first, int n, double limit_s)
{
    if (tuned) return tuned == 1 || (tuned == 2 && first);
    return first && n <= WT_LK_KOPT_CHAINS_MAX_CITIES &&
           (limit_s <= 0 || limit_s >= WT_LK_KOPT_CHAINS_S_PER_CITY * n);
}

/* Whether the k-opt step looks for an improving double bridge where it
 * finds nothing [lk_nonseq] (src/ls/kopt_nonseq.c): 0, not. */
#define WT_LK_NONSEQ_DEFAULT 0
/* whose kicks, all kept, are one for every this many cities, */
#define WT_ILS_SHAKE_CITIES 500
/* at least this many. */
#define WT_ILS_SHAKE_MIN 4

/* The searches that share the kicks of a host ILS run [ils_searches]:
 * under a time limit alone, one a thread; with a kick budget, one for
 * every WT_ILS_KICKS_A_SEARCH kicks of it, at least one, at most
 * WT_ILS_BUDGET_SEARCHES_MAX, whatever the thread count, so that the same
 * seed and budget give the same tour on any machine (on fewer threads the
 * searches take turns).  Fewer, longer searches make shorter tours for
 * the same kicks; more finish sooner on more cores. */
#define WT_ILS_KICKS_A_SEARCH 5000
#define WT_ILS_BUDGET_SEARCHES_MAX 16
int wt_policy_ils_searches(int tuned, int threads, uint64_t kicks);
/* Under a time limit alone, a tied short run (wt_policy_lk_tied_short)
 * kicks with this many searches at least, taking turns where the threads
 * are fewer: on one thread two searches kick segments of the tour (from
 * 1,000 cities, WT_ILS_LK_SEGMENT_MIN a search) where one search kicked
 * the whole.  d2103 at 1 s on one thread (seeds 1-8, mean gap): 0.113%
 * against 0.233%, every seed within 0.21% (linkern's 1 s tours: 0.199 to
 * 0.222%); pla7397 and u2152 even (0.650 / 0.664%, seeds 1-16; 0.429 /
 * 0.412%, seeds 1-8); on two threads the searches kick segments already
 * (bench/RESULTS.md, "Short runs where ties abound (LK)"). */
#define WT_ILS_TIED_SHORT_SEARCHES 2
/* The searches that kick after the first descent, T = wt_policy_ils_searches
 * searches having run it: T, or WT_ILS_TIED_SHORT_SEARCHES at least in a
 * tied short run (tied_short) under a time limit alone (kicks 0) where
 * the tuning sets no ils_searches (tuned 0). */
int wt_policy_ils_kick_searches(int T, int tuned, uint64_t kicks, bool tied_short);

/* The first descent: bench/RESULTS.md, "Why 2-opt over the 50 longest edges
 * after the first descent (LK)", "Why several start tours where ties abound
 * (LK)" and "Why LK up to 250,000 cities, and the list descent above 20,000
 * (auto)". */
/* Cities a thread from which the first descent starts on segments. */
#define WT_ILS_SEGMENT_DESCENT_MIN 5000
/* Longest edges the first descent revisits over all pairs (wt_ls_long_edges). */
#define WT_ILS_LONG_EDGES 50
/* Passes of the first descent over the longest edges. */
#define WT_ILS_LONG_EDGE_PASSES 3
/* Largest tour whose first list descent tries other start tours [ils_starts]. */
#define WT_ILS_STARTS_MAX_CITIES 250000
/* Percentage of cities with two equidistant nearest from which other starts run. */
#define WT_ILS_TIED_SHARE 45
/* Cities whose two nearest ils_instance_tied looks at. */
#define WT_ILS_TIED_SAMPLE 4096
/* Most start tours of the first list descent by default. */
#define WT_ILS_STARTS_MAX 16
/* The k-opt step's short runs where ties abound (wt_policy_lk_tied_short)
 * descend first from one start tour a search side by side, the shortest
 * kept (ils_tied_first_descent), with at most this many searches.  On two
 * threads at 1 s (development VM, seeds 1-6, mean gap) pla7397 0.411%
 * against 0.489% from the greedy start alone, d2103 0.070% against
 * 0.175%, fl3795 even (1.500 / 1.466%), fl1577 and d1291 the same tours.
 * On 16 threads (H200 machine, seeds 1-3) the sixteen descents side by
 * side cost the kicks more than they gave: d2103 0.199% against 0.126%,
 * fl3795 1.46 against 1.30%, pla7397 no kick and 0.1 s over its 1 s (u2152
 * 0.074 against 0.328%, the one gain) (bench/RESULTS.md, "Short runs where
 * ties abound (LK)"). */
#define WT_ILS_TIED_STARTS_SEARCHES_MAX 2

/* The array's first descent of a tour from this many cities whose k-opt
 * step chains its submoves as LKH's (wt_policy_lk_kopt_chains) runs from
 * one start tour a search side by side, and their tours are merged
 * (ils_merged_first_descent): the threads would otherwise wait for one
 * thread's descent.  On 16 threads (H200 machine, cpu backend, seeds 1-2)
 * at 10 s usa13509 0.060% against 0.064-0.107%, rl11849 0.11-0.12%
 * against 0.33-0.35%, brd14051 0.030% against 0.033-0.234%, d18512
 * 0.046-0.063% against 0.038-0.052%; at 60 s usa13509 0.041 against
 * 0.086%.  pr2392 (two starts as the other 2,392-city runs) was far
 * worse: 0.27-0.31% against 0.01-0.19% (bench/RESULTS.md, "Merged start
 * tours"). */
#define WT_ILS_MERGED_STARTS_MIN 5000

/* How many start tours the array's first descent of a tour of n cities
 * merges with T searches: tuned as tuning.ils_starts (0 the default,
 * WT_TUNING_OFF none, else at most that many and one a search); chains:
 * the first descent's k-opt step chains as LKH's.  1: the one start
 * alone. */
static inline int wt_policy_ils_merged_starts(int tuned, bool chains, int n, int T)
{
    if (tuned == WT_TUNING_OFF || T < 2) return 1;
    if (tuned > 0) return tuned < T ? tuned : T;
    if (!chains || n < WT_ILS_MERGED_STARTS_MIN) return 1;
    return T < WT_ILS_STARTS_MAX ? T : WT_ILS_STARTS_MAX;
}

/* The moves of the engine's descents by default: 2-opt and Or-opt on
 * WT_POLISH_NEIGHBOURS candidates, or (lk) the LK step above. */
static inline wt_ls_moves wt_policy_ls_moves(bool lk)
{
    if (!lk) return (wt_ls_moves){.candidates = WT_POLISH_NEIGHBOURS};
    return (wt_ls_moves){.lk = true, .candidates = WT_LK_CANDIDATES, .quadrant = true,
                         .depth = WT_LK_DEPTH,
                         .breadth = {WT_LK_BREADTH1, WT_LK_BREADTH2, WT_LK_BREADTH3,
                                     WT_LK_BREADTH4, WT_LK_BREADTH5},
                         .kopt_submoves = WT_LK_KOPT_SUBMOVES, .alternate = false};
}

/* The moves on an asymmetric instance's transformation (wt_instance.
 * directed): direction-keeping exchanges only, on WT_DIRECTED_CANDIDATES
 * candidates unless the tuning sets lk_candidates (tuned): 12 reached the
 * ATSP optima sooner than 8, 10 or 16 (bench/RESULTS.md, "Why
 * direction-keeping exchanges"). */
#define WT_DIRECTED_CANDIDATES 12
static inline wt_ls_moves wt_policy_directed_moves(wt_ls_moves m, int tuned)
{
    m.directed = true;
    m.candidates = tuned ? tuned : WT_DIRECTED_CANDIDATES;
    return m;
}

/* ================================================ what auto picks (solve.c)
 * wt_solve's automatic choices: the descent of ILS's --ils-descent auto,
 * whether --backend auto runs it on the host alone and whether the GPU
 * searches concurrent windows meanwhile (below), the kicks and climbs of a
 * run given neither a time limit nor a budget, and the hand-over of the
 * GPU's first descent.  The rules are the functions at the end of this
 * section; solve.c asks them. */

/* Largest tour on which auto takes LK descents under any time limit; local
 * descents beyond, whose cheaper kicks get further in a short time
 * (bench/RESULTS.md, "Why LK up to 250,000 cities, and the list descent above
 * 20,000 (auto)"). */
#define WT_AUTO_LK_MAX_CITIES 250000
/* Largest tour on which auto takes LK under a long time limit (below); larger
 * tours were not measured and stay local. */
#define WT_AUTO_LK_LONG_MAX_CITIES 1000000
/* Seconds a city of time limit from which auto takes LK up to that size: time
 * for LK's first descent of the whole tour to pay (bench/RESULTS.md, "Why LK up
 * to a million cities from 45 µs a city (auto)"). */
#define WT_AUTO_LK_LONG_S_PER_CITY 45e-6
/* With the ascent on a GPU, from WT_AUTO_LK_DEVICE_FIXED_S seconds plus
 * this many thread-seconds a city (threads times the rest of the limit,
 * over n): the 5-opt step on the GPU's alpha lists (wt_policy_lk_kopt's
 * rule there too), its first descent on segments on all threads after the
 * GPU's 2-opt + Or-opt first optimum (the ascent beside the host's
 * segments), which must end within the limit; the fixed part is the set-up
 * (the start tour, the GPU's context and first optimum) that more threads
 * do not shorten.  H200 machine, 16 cores, uniform cities, gaps above BHH,
 * LK against local descents: a million at 6 s 1.262% (the first descent
 * cut) against 1.375%, at 7 s 1.042 against 1.263%, at 10 s 0.744 and
 * 0.800% (seeds 1, 2) against 1.157 and 1.103%; 500,000 at 4 s 1.462%
 * (cut) against 1.341%, at 5 s 1.181 against 1.208%; 300,000 at 2 s
 * 1.542% (cut) against 1.440%, at 3 s 1.208 against 1.308%: here from 7,
 * 4.5 and 3.5 s (bench/RESULTS.md, "The million at 10, 15 and 30 s"). */
#define WT_AUTO_LK_DEVICE_THREAD_S_PER_CITY 80e-6
#define WT_AUTO_LK_DEVICE_FIXED_S 2.0

/* The shortest time limit, in seconds, from which auto's ILS with LK
 * descents (on the host) lets a usable GPU take part: its ascent, and
 * concurrent windows from WT_CONCURRENT_MIN_CITIES cities
 * [auto_device_min_ms].  Under it the run never touches the GPU: the
 * context's creation (0.2 s of a 1 s run on the H200 machine, waited for
 * after the start tour) and the GPU's ascent cost a short run more than
 * the windows' rounds (WT_CONCURRENT_ROUND_S) or a faster ascent give back:
 * auto with the GPU was behind the host alone at 1, 2 and 3 s and even
 * with it at 5 s (bench/RESULTS.md, "Why auto leaves the GPU out under 5 s
 * (LK)"; scripts/short-budgets.sh measures it again).  Without a time
 * limit the GPU's ascent stays. */
#define WT_AUTO_DEVICE_MIN_S 5.0

/* Kicks of an ILS run with local or LK descents and neither a time limit nor a
 * kick count: as many as cities (linkern's default), at least this many. */
#define WT_ILS_MIN_KICKS 10000
/* Kicks of such a run with full descents, each of which scans the whole tour. */
#define WT_ILS_FULL_KICKS 1000
/* Climbs of a multistart run with neither a time limit nor a climb count. */
#define WT_MULTISTART_RESTARTS 100

/* Tours from which the device's 2-opt descent before local ILS hands over to
 * the host's threads on a stall, below which it runs to its optimum
 * (bench/RESULTS.md, "Why the GPU's first descent hands over on a stall"). */
#define WT_DEVICE_STALL_CITIES 1000000
/* Passes in a row that make a stall, */
#define WT_DEVICE_STALL_PASSES 16
/* when together they shorten the tour by less than this share of it. */
#define WT_DEVICE_STALL_GAIN 1e-4

/* Tours from which the device's first descent, given several GPUs, runs as
 * one region of the plane a GPU side by side, the regions then joined and
 * the whole descended for the seams (algo/descent_split.h; bench/RESULTS.md,
 * "Ten million cities on one and two GPUs"): a million cities a GPU at
 * least, where a region's descent takes seconds. */
#define WT_DESCENT_SPLIT_CITIES 2000000

/* The descent ILS runs after each kick: asked, or for WT_ILS_AUTO the one
 * auto takes on a tour of n cities under a time limit of time_limit_s seconds
 * (<= 0: none): LK up to WT_AUTO_LK_MAX_CITIES, up to
 * WT_AUTO_LK_LONG_MAX_CITIES under a limit of WT_AUTO_LK_LONG_S_PER_CITY a
 * city or more (or WT_AUTO_LK_DEVICE_FIXED_S plus
 * WT_AUTO_LK_DEVICE_THREAD_S_PER_CITY thread-seconds a city where a GPU
 * runs the ascent for alpha lists beside device_threads host threads; 0:
 * no GPU), local beyond. */
wt_ils_descent wt_policy_ils_descent(wt_ils_descent asked, int n, double time_limit_s,
                                     int device_threads);

/* Whether auto's ILS with LK descents may use a GPU under a time limit of
 * time_limit_s seconds (<= 0: none): without a limit, and from
 * WT_AUTO_DEVICE_MIN_S (tuned_ms milliseconds where the tuning sets
 * auto_device_min_ms; WT_TUNING_OFF: from any limit). */
bool wt_policy_auto_device(double time_limit_s, int tuned_ms);

/* Whether the host's descents, once window descents hand over, are LK (else
 * local) on a tour of n cities: LK up to WT_AUTO_LK_MAX_CITIES. */
bool wt_policy_lk_after_windows(int n);

/* Kicks of an ILS run on n cities given neither a time limit nor a kick
 * count: WT_ILS_FULL_KICKS with full descents (full), else n, at least
 * WT_ILS_MIN_KICKS. */
uint64_t wt_policy_ils_kicks(bool full, int n);

/* Passes of the device's first descent of n cities that make a stall, on
 * which it hands over: WT_DEVICE_STALL_PASSES from WT_DEVICE_STALL_CITIES
 * cities, else 0 (none: the descent runs to its optimum). */
int wt_policy_device_stall_passes(int n);

/* ================================= the window search (windows.c, windows.h)
 * ILS with window descents (--ils-descent windows): rounds of windows of
 * the tour searched as a batch (algo/windows.h). */

/* Cities a window, for window descents and concurrent windows [ils_window]
 * (bench/RESULTS.md, "Why rounds of 1 s and windows of 1,000 cities
 * (concurrent windows)"). */
#define WT_WINDOW_CITIES 1000
/* Searches a round holds in all, by default: each window gets enough replicas
 * (searches of its own, the shortest kept) to make up this many, */
#define WT_WINDOW_FILL 512
/* and at most this many. */
#define WT_WINDOW_MAX_REPLICAS 64
/* The windows' 3-opt breadth with window descents [ils_window_3opt]
 * (bench/RESULTS.md, "Why 3-opt items in the concurrent windows above 250,000
 * cities"). */
#define WT_WINDOW_THREE_OPT 5
/* Shortest round of window descents under a time limit, in seconds, */
#define WT_WINDOW_MIN_ROUND_S 0.25
/* and at least this many times the last round's cutting and putting back
 * (the GPU idles meanwhile). */
#define WT_WINDOW_ROUND_OVERHEADS 6
/* Window descents hand over to the host's descents once a round gains less
 * than this share of the tour a second (wt_windows_search). */
#define WT_WINDOW_HANDOVER 1e-4
/* Rounds of window descents without a time limit, */
#define WT_WINDOW_UNTIMED_ROUNDS 8
/* each with a window's cities over this many kicks a window. */
#define WT_WINDOW_UNTIMED_CITIES_PER_KICK 10

/* ========================= concurrent windows (windows_concurrent.{c,h})
 * The GPU's window searches while the host's threads search the tour
 * (bench/RESULTS.md, "ILS on large instances: concurrent windows (bench
 * timeline)"). */

/* Tours from which auto's ILS under a time limit runs concurrent windows,
 * where a GPU is usable [ils_concurrent_min] (bench/RESULTS.md, "What windows
 * alone add to an LK tour"). */
#define WT_CONCURRENT_MIN_CITIES 10000
/* A round's seconds [ils_concurrent_round_ms]: long enough that its set-up
 * and the cutting into improved paths take a small share of it, short enough
 * that the host's merges change few of its windows' cities meanwhile
 * (bench/RESULTS.md, "Why rounds of 1 s and windows of 1,000 cities
 * (concurrent windows)"). */
#define WT_CONCURRENT_ROUND_S 1.0
/* The windows' 3-opt breadth [ils_window_3opt], */
#define WT_CONCURRENT_THREE_OPT 5
/* on tours of more than this many cities; none on smaller ones
 * (bench/RESULTS.md, "Why 3-opt items in the concurrent windows above 250,000
 * cities"). */
#define WT_CONCURRENT_THREE_OPT_ABOVE 250000
/* Threads of a round's set-up on a GPU (cutting the windows and their lists,
 * packing them, where they are not resident; the next round's start from
 * the host's tour), which share the host's cores for a small share of a round
 * (bench/RESULTS.md, "Splices, set-up threads and merges (concurrent
 * windows)"). */
#define WT_CONCURRENT_SETUP_THREADS 4
/* Rounds searched and not yet spliced into the host's tour, at most
 * [ils_concurrent_ahead]: the host's rounds on segments of millions of
 * cities take several seconds (fifteen and more on 16 slower cores at ten
 * million cities), and the GPU would wait for them (bench/RESULTS.md, "Why
 * rounds ahead of the host's merges (concurrent windows)"). */
#define WT_CONCURRENT_AHEAD 32
#define WT_CONCURRENT_AHEAD_MAX 64
/* and no round starts while those rounds' improved paths hold this many
 * tours' cities: their records' memory stays bounded however many may wait
 * (16 bytes a city; a hundred million cities take 21.6 GB of the host
 * besides).  A round after the first descent holds some tenths of a tour's
 * cities; the bound is not measured on a GPU (bench/RESULTS.md, "Why rounds
 * ahead of the host's merges (concurrent windows)"). */
#define WT_CONCURRENT_AHEAD_TOURS 4
/* Most seconds a round's set-up adds to its length. */
#define WT_CONCURRENT_SETUP_MAX_S 10.0
/* Fewest seconds before the deadline (besides a set-up as long as the last
 * one's) that a round starts with. */
#define WT_CONCURRENT_MIN_LEFT_S 0.1

/* Whether a tour of n cities is large enough for concurrent windows: from
 * tuned cities (tuning.ils_concurrent_min), 0: from WT_CONCURRENT_MIN_CITIES,
 * WT_TUNING_OFF: never. */
bool wt_policy_concurrent_windows_size(int n, int64_t tuned);

/* Whether a host ILS of n cities with a GPU beside it takes its candidate
 * lists from the GPU: from tuned cities (tuning.ils_device_lists_min), 0:
 * from WT_ILS_DEVICE_LISTS_CITIES, WT_TUNING_OFF: never. */
bool wt_policy_device_lists(int64_t tuned, int n);

/* Whether wt_solve's search takes the cities renumbered by place: from
 * WT_RENUMBER_MIN_CITIES (tuned: renumber_min, WT_TUNING_OFF never). */
bool wt_policy_renumber(int64_t tuned, int n);
/* Whether the instance's numbering scatters its cities (above), from the
 * cities in the order of the Hilbert curve, order[0..n); tuned (a
 * renumber_min set): always. */
bool wt_policy_renumber_scattered(bool tuned, const int32_t *order, int n);

/* Cities a concurrent window beside the host's local descents (2-opt and
 * Or-opt: tours too large for LK in the time); beside LK descents
 * WT_WINDOW_CITIES (bench/RESULTS.md, "Why windows of 500 cities beside
 * local descents"). */
#define WT_CONCURRENT_LOCAL_WINDOW 500

/* The concurrent windows' cities: tuned (tuning.ils_window) where set,
 * else by the host's descents, lk or local. */
int wt_policy_concurrent_window(int tuned, bool lk);

/* ====================================== batches (batch.c, solve-batch)
 * wt_solve_batch's defaults for its experimental fields (warptour.h,
 * wt_batch_params; the field in brackets, 0 keeps the value), which the
 * window searches above share (bench/RESULTS.md, "Batches: solve-batch on
 * issue 25's sets (bench batch)"). */

/* Nearest cities a city that the moves join to [neighbours]. */
#define WT_BATCH_NEIGHBOURS 8
/* Slack of the acceptance of a longer kicked tour, in thousandths of a mean
 * edge [accept_slack] (core/batch_search.h, wt_bs_accept_slack). */
#define WT_BATCH_ACCEPT_SLACK 1000
/* The 3-opt items' breadth [three_opt], */
#define WT_BATCH_THREE_OPT 5
/* on instances of this many cities or more; none below (bench/RESULTS.md,
 * "Why 3-opt items with four-edge kicks from 1,000 cities (batch)"). */
#define WT_BATCH_THREE_OPT_FROM 1000
/* Candidates by alpha-nearness [candidates auto] for instances of this many
 * cities or more, nearest cities below: none, since at equal kicks the
 * alpha lists of a short ascent measured no better than the nearest at
 * 100, 200 and 1,000 cities (bench/RESULTS.md, "Batches with alpha
 * candidates"); */
#define WT_BATCH_ALPHA_FROM (WT_BATCH_MAX_CITIES + 1)
/* each instance's ascent: at most this many subgradient steps [alpha_steps], */
#define WT_BATCH_ALPHA_STEPS 300
/* its first period this long [alpha_period]. */
#define WT_BATCH_ALPHA_PERIOD 100
/* Seconds a solve's search ends before its time limit a city, for what
 * follows a stop and cannot be cut short (a search's set-up begun just
 * before the deadline, the final tour's assembly and length, freeing the
 * search's memory): measured after the deadline at 50 ns a city on 10
 * million cities on the development VM's host search and on 100 million
 * with the GPU (bench/RESULTS.md, "A hundred million cities"). */
#define WT_SOLVE_FINISH_S_PER_CITY 50e-9

/* Seconds a batch's search ends before its time limit, for the tours to come
 * back from the GPU and their lengths to be recomputed: this much, */
#define WT_BATCH_FINISH_S 2e-3
/* and this much more a city. */
#define WT_BATCH_FINISH_S_PER_CITY 20e-9
/* A round of resident windows (algo/windows.c) ends its search this much a
 * city of the tour before its limit: the windows put back on the GPU, the
 * tour's copy down and into place. */
#define WT_WINDOWS_RESIDENT_FINISH_S_PER_CITY 5e-9

/* wt_lower_bound under a time limit that its tuning leaves the ascent to
 * (solve.c): Held & Karp's first period of max(n / 2, 100) steps ends far
 * below its bound when the limit cuts it (rl11849 at 1 s on one thread:
 * 2.8% below the optimum, against 1.2% with WT_ASCENT_PERIOD), so an
 * ascent of WT_ASCENT_PERIOD comes first, then one from pi = 0 whose first
 * period is the longest whose schedule fits the time left (seconds_left,
 * at step_s a step, the first ascent's), at most max(n / 2, 100); the
 * higher bound is kept.  A first period of P takes about
 * WT_BOUND_STEPS_PER_PERIOD P steps: on rl11849, 3.2 P for 100, 2.5 P
 * for 1,000, 0.8 P for n / 2 (bench/RESULTS.md, "check --bound under a
 * time limit").  At most WT_ASCENT_PERIOD: no second ascent. */
#define WT_BOUND_STEPS_PER_PERIOD 3.0
int wt_policy_bound_period(int n, double seconds_left, double step_s);

#endif
