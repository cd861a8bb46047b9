/*
 * policy.c - the rules of policy.h that are small functions of a tour's
 * size and the time limit: what auto picks, read from policy.h's
 * constants, so that every automatic choice is read in one place and
 * tested at its boundaries (tests/unit/test_policy.c).
 */
#include "algo/policy.h"

#include <stdlib.h>

/* Whether a limit of time_limit_s seconds on `threads` host threads
 * lets LK's first descent of n cities end with the GPU's ascent and first
 * optimum (WT_AUTO_LK_DEVICE_THREAD_S_PER_CITY). */
static bool device_lk_limit(int n, double time_limit_s, int threads)
{
    double rest = time_limit_s - WT_AUTO_LK_DEVICE_FIXED_S;
    return time_limit_s > 0 && threads * rest >= WT_AUTO_LK_DEVICE_THREAD_S_PER_CITY * n;
}

wt_ils_descent wt_policy_ils_descent(wt_ils_descent asked, int n, double time_limit_s,
                                     int device_threads)
{
    if (asked != WT_ILS_AUTO) return asked;
    if (n <= WT_AUTO_LK_MAX_CITIES) return WT_ILS_LK;
    bool long_limit = time_limit_s > 0 &&
                      (time_limit_s >= WT_AUTO_LK_LONG_S_PER_CITY * n ||
                       device_lk_limit(n, time_limit_s, device_threads));
    return n <= WT_AUTO_LK_LONG_MAX_CITIES && long_limit ? WT_ILS_LK : WT_ILS_LOCAL;
}

bool wt_policy_lk_after_windows(int n) { return n <= WT_AUTO_LK_MAX_CITIES; }

uint64_t wt_policy_ils_kicks(bool full, int n)
{
    if (full) return WT_ILS_FULL_KICKS;
    return n > WT_ILS_MIN_KICKS ? (uint64_t)n : WT_ILS_MIN_KICKS;
}

int wt_policy_ils_searches(int tuned, int threads, uint64_t kicks)
{
    if (tuned > 0) return tuned;
    if (kicks == 0) return threads > 0 ? threads : 1;
    uint64_t s = kicks / WT_ILS_KICKS_A_SEARCH;
    return s < 1 ? 1 : s > WT_ILS_BUDGET_SEARCHES_MAX ? WT_ILS_BUDGET_SEARCHES_MAX : (int)s;
}

int wt_policy_ils_kick_searches(int T, int tuned, uint64_t kicks, bool tied_short)
{
    if (tuned > 0 || kicks > 0 || !tied_short) return T;
    return T < WT_ILS_TIED_SHORT_SEARCHES ? WT_ILS_TIED_SHORT_SEARCHES : T;
}

int wt_policy_device_stall_passes(int n)
{
    return n >= WT_DEVICE_STALL_CITIES ? WT_DEVICE_STALL_PASSES : 0;
}

bool wt_policy_concurrent_windows_size(int n, int64_t tuned)
{
    int64_t from = tuned ? tuned : WT_CONCURRENT_MIN_CITIES;
    return tuned != WT_TUNING_OFF && n >= from;
}

bool wt_policy_device_lists(int64_t tuned, int n)
{
    int64_t from = tuned ? tuned : WT_ILS_DEVICE_LISTS_CITIES;
    return tuned != WT_TUNING_OFF && n >= from;
}

bool wt_policy_renumber(int64_t tuned, int n)
{
    int64_t from = tuned ? tuned : WT_RENUMBER_MIN_CITIES;
    return tuned != WT_TUNING_OFF && n >= from;
}

bool wt_policy_renumber_scattered(bool tuned, const int32_t *order, int n)
{
    if (tuned) return true;
    long far = 0;
    for (int i = 1; i < n; i++) far += abs(order[i] - order[i - 1]) > WT_RENUMBER_JUMP;
    return 2 * far > n - 1;
}

int wt_policy_concurrent_window(int tuned, bool lk)
{
    if (tuned) return tuned;
    return lk ? WT_WINDOW_CITIES : WT_CONCURRENT_LOCAL_WINDOW;
}

int wt_policy_lk_kopt(const wt_tuning *t, int n, bool directed, double time_limit_s, int threads,
                      bool device_ascent)
{
    if (t->lk_kopt == WT_TUNING_OFF) return 0;
    if (t->lk_kopt) return t->lk_kopt;
    bool no_lists = t->lk_alpha == WT_TUNING_OFF || t->lk_alpha == 2;
    double large = device_ascent ? WT_LK_KOPT_DEVICE_S_PER_CITY : WT_LK_KOPT_LARGE_S_PER_CITY;
    double s_per_city = n > WT_ILS_LK_REPLICAS_MAX ? large : WT_LK_KOPT_S_PER_CITY;
    bool short_limit = time_limit_s > 0 && time_limit_s < s_per_city * n;
    int team = threads > 1 ? threads : 1;
    double thread_s = team * time_limit_s;
    if (device_ascent && n > WT_AUTO_LK_MAX_CITIES)
        short_limit = time_limit_s > 0 && !device_lk_limit(n, time_limit_s, team);
    bool rich_limit = time_limit_s > 0 && n < WT_LK_KOPT_RICH_MAX_CITIES &&
                      thread_s >= WT_LK_KOPT_MAX_THREAD_S_PER_CITY * n;
    bool small = n < WT_LK_KOPT_MIN_CITIES;
    return no_lists || directed || small || short_limit || rich_limit ? 0 : WT_LK_KOPT_DEFAULT;
}

int wt_policy_lk_deep_depth(int threads, double time_limit_s)
{
    bool few = time_limit_s > 0 && threads < WT_ILS_LK_DEEP_DEPTH_MIN_THREADS;
    return few ? WT_LK_DEPTH : WT_ILS_LK_DEEP_DEPTH;
}

wt_ls_moves wt_policy_lk_deep_moves(wt_ls_moves m, int n, int threads, double time_limit_s)
{
    if (n < WT_ILS_LK_DEEP_MIN) return m;
    m.candidates = WT_ILS_LK_DEEP_CANDIDATES;
    m.depth = wt_policy_lk_deep_depth(threads, time_limit_s);
    const int breadth[WT_LK_LEVELS] = {WT_ILS_LK_DEEP_BREADTH1, WT_ILS_LK_DEEP_BREADTH2,
                                       WT_ILS_LK_DEEP_BREADTH3, WT_ILS_LK_DEEP_BREADTH4,
                                       WT_ILS_LK_DEEP_BREADTH5};
    for (int i = 0; i < WT_LK_LEVELS; i++) m.breadth[i] = breadth[i];
    return m;
}

bool wt_policy_lk_list_descent(int64_t tuned, int n, int T, int kopt)
{
    if (tuned == WT_TUNING_OFF) return false;
    if (tuned) return (long long)n / (T > 0 ? T : 1) >= tuned;
    return !kopt || n <= WT_ILS_KOPT_LIST_DESCENT_MAX;
}

bool wt_policy_lk_large(int64_t tuned, int n)
{
    if (tuned == WT_TUNING_OFF) return false;
    return tuned ? n >= tuned : n > WT_ILS_LK_REPLICAS_MAX;
}

bool wt_policy_plain_list_descent(int64_t tuned, int n, bool lk, bool directed)
{
    if (tuned == WT_TUNING_OFF || lk || directed) return false;
    return n >= (tuned ? tuned : WT_ILS_PLAIN_LIST_MIN);
}

bool wt_policy_lk_kopt_tied_off(int tuned, int n)
{
    return tuned == 0 && n > WT_LK_KOPT_TIED_MAX_CITIES;
}

wt_alpha_use wt_policy_lk_alpha(int tuned, int n, int kopt)
{
    if (tuned == WT_TUNING_OFF) return WT_ALPHA_NONE;
    if (tuned == 1) return WT_ALPHA_LISTS;
    if (tuned == 2) return WT_ALPHA_BOUND;
    if (n < WT_LK_ALPHA_MIN_CITIES) return WT_ALPHA_NONE;
    return kopt ? WT_ALPHA_LISTS : WT_ALPHA_BOUND;
}

wt_alpha_use wt_policy_local_alpha(int tuned, int n)
{
    if (tuned == WT_TUNING_OFF || n < WT_LK_ALPHA_MIN_CITIES) return WT_ALPHA_NONE;
    return WT_ALPHA_BOUND;
}

int wt_policy_ascent_steps(const wt_tuning *t, bool on_host, int n, bool time_limited)
{
    if (t->ascent_iterations) return t->ascent_iterations;
    if (time_limited) return 0;
    long long steps = (on_host ? WT_ASCENT_CITY_STEPS : WT_ASCENT_DEVICE_CITY_STEPS) /
                      (n > 0 ? n : 1);
    return steps < WT_ASCENT_MIN_STEPS ? WT_ASCENT_MIN_STEPS
           : steps > 1000000           ? 1000000
                                       : (int)steps;
}

wt_ascent_plan wt_policy_ascent(const wt_tuning *t, bool on_host)
{
    wt_ascent_plan plan = {on_host ? WT_ASCENT_SHARE : WT_ASCENT_DEVICE_SHARE,
                           on_host ? WT_ASCENT_PERIOD : WT_ASCENT_DEVICE_PERIOD};
    if (t->ascent_share_pct) plan.share = t->ascent_share_pct / 100.0;
    if (t->ascent_period) plan.period = t->ascent_period;
    return plan;
}

bool wt_policy_auto_device(double time_limit_s, int tuned_ms)
{
    if (time_limit_s <= 0 || tuned_ms == WT_TUNING_OFF) return true;
    double from = tuned_ms > 0 ? tuned_ms / 1000.0 : WT_AUTO_DEVICE_MIN_S;
    return time_limit_s >= from;
}

wt_ascent_plan wt_policy_ascent_first(const wt_tuning *t, bool on_host, int n)
{
    wt_ascent_plan plan = wt_policy_ascent(t, on_host);
    if (on_host && !t->ascent_share_pct && n <= WT_ILS_LK_REPLICAS_MAX)
        plan.share = WT_LK_ALPHA_FIRST_SHARE;
    return plan;
}

/* Whether a run of `threads` threads on n cities under a limit of
 * time_limit_s seconds is short for the kicks' repairs (policy.h), tied
 * or not. */
static bool short_kick_run(bool tied, int n, double time_limit_s, int threads)
{
    double thread_s = (threads > 1 ? threads : 1) * time_limit_s;
    bool tied_rule = tied && n <= WT_ILS_LK_REPLICAS_MAX;
    double per_city = tied_rule ? WT_LK_KICK_SHORT_TIED_THREAD_S_PER_CITY
                                : WT_LK_KICK_SHORT_THREAD_S_PER_CITY;
    return time_limit_s > 0 && thread_s < per_city * n;
}

wt_ascent_plan wt_policy_ascent_after(const wt_tuning *t, bool on_host, bool bound_only, int n,
                                      double time_limit_s, int threads)
{
    wt_ascent_plan plan = wt_policy_ascent(t, on_host);
    if (on_host && bound_only && !t->ascent_share_pct &&
        short_kick_run(false, n, time_limit_s, threads))
        plan.share = WT_ASCENT_BOUND_SHORT_SHARE;
    return plan;
}

wt_ascent_plan wt_policy_ascent_beside(const wt_tuning *t)
{
    wt_ascent_plan plan = wt_policy_ascent(t, false);
    if (!t->ascent_share_pct) plan.share = WT_ASCENT_BESIDE_SHARE;
    return plan;
}

int wt_policy_lk_kick_candidates(int tuned, int descent_k, int kopt, bool tied, int n,
                                 double time_limit_s, int threads)
{
    if (!kopt || tuned == WT_TUNING_OFF) return descent_k;
    if (!tuned && !short_kick_run(tied, n, time_limit_s, threads)) return descent_k;
    int k = tuned > 0 ? tuned : WT_LK_KOPT_KICK_CANDIDATES;
    return k < descent_k ? k : descent_k;
}

bool wt_policy_lk_kick_pi(int tuned, bool tied, int n, double time_limit_s, int threads)
{
    if (tuned == WT_TUNING_OFF) return false;
    return tuned > 0 || !tied || !short_kick_run(true, n, time_limit_s, threads);
}

bool wt_policy_lk_tied_short(int kopt, bool tied, int n, double time_limit_s, int threads)
{
    return kopt && tied && n <= WT_ILS_LK_REPLICAS_MAX &&
           short_kick_run(true, n, time_limit_s, threads);
}

int wt_policy_lk_walk(int tuned, int kopt, bool tied, int n, double time_limit_s, int threads)
{
    if (tuned) return tuned;
    if (!kopt) return WT_ILS_LK_WALK_STEPS;
    return wt_policy_lk_tied_short(kopt, tied, n, time_limit_s, threads)
               ? WT_ILS_LK_TIED_WALK_STEPS
               : WT_ILS_LK_KOPT_WALK_STEPS;
}

uint64_t wt_policy_timed_round(uint64_t round, double round_s, double limit_s, uint64_t most,
                               bool tuned)
{
    uint64_t least = WT_ILS_TIMED_FIRST_ROUND_KICKS < most ? WT_ILS_TIMED_FIRST_ROUND_KICKS : most;
    if (tuned || limit_s <= 0) return most;
    if (round == 0) return least;
    double slice = WT_ILS_TIMED_ROUND_SHARE * limit_s;
    uint64_t next = round_s < slice / 2 ? 2 * round : round_s > slice ? round / 2 : round;
    return next < least ? least : next > most ? most : next;
}

int wt_policy_bound_period(int n, double seconds_left, double step_s)
{
    if (!(seconds_left > 0) || !(step_s > 0)) return 0;
    double period = seconds_left / step_s / WT_BOUND_STEPS_PER_PERIOD;
    int most = n / 2 > WT_ASCENT_PERIOD ? n / 2 : WT_ASCENT_PERIOD;
    return period >= most ? most : (int)period;
}
