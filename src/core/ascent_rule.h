/*
 * ascent_rule.h - the step rule of the Held-Karp subgradient ascent
 * (Held & Karp 1971; Volgenant & Jonker 1982, as Helsgaun 2000, section
 * 4.2, describes it), one code for every backend's ascent slot.
 *
 * A backend computes the 1-trees (on the host or the GPU); this state
 * machine alone decides how many steps there are, how large each is and
 * which penalties are the best, so that the backends' sequences of steps
 * cannot drift apart.  The loop every backend runs:
 *
 *   tree under the start pi -> wt_ascent_rule_start(bound, norm)
 *   while (wt_ascent_rule_more(&r) && !stop) {
 *       pi[i] = wt_ascent_pi_next(pi[i], v[i], v_prev[i], r.step); v_prev = v
 *       tree under pi, v = degree - 2, norm = sum v^2
 *       if (wt_ascent_rule_record(&r, bound, norm)) best_pi = pi
 *   }
 *
 * The rule: the step size starts at WT_ONETREE_SCALE (one unit of length)
 * and stays the same for a period of max(n / 2, 100) steps (or the job's
 * period); after each period both the period and the step are halved.
 * During the first period the step doubles at every step that raises the
 * best bound (the initial phase).  The phase ends after
 * WT_ASCENT_PATIENCE steps in a row that do not raise it, and the first
 * period then starts again at the step reached; or, at the latest, with
 * the first period.  A period whose last step raised the best bound is
 * doubled, up to the first period's length; a period ends early after
 * WT_ASCENT_STALL steps in a row that do not raise the best bound (only
 * periods longer than that: Held & Karp's n / 2).  The ascent ends when the
 * step or the period reaches 0, when every degree is 2 (norm 0: the 1-tree
 * is a tour), or after the cap of steps (0: none).
 *
 * Why patience, not the first step that fails (Volgenant & Jonker's phase
 * as Helsgaun 2000 describes it): at pi = 0 an instance with many equal
 * lengths (pla85900's cities on lines) has many minimum 1-trees, and a
 * small step can change the tree without raising the bound.  Ending the
 * phase there left the step at one unit of length, a thousandth of
 * pla85900's edges: its bound crept up for 12,700 steps (0.60% below the
 * optimum) where the doubled step reaches 0.60% in 261.  Why the period
 * stays within the first's length: the rule's steps stay a few times the
 * first period.  Why a stalled period ends: a step the doubling found
 * raises the bound fast at first, then only zigzags; kept for a period of
 * n / 2 steps it left pla33810 3.4% below its optimum after 60 s where
 * halving sooner gives 0.9% (bench/RESULTS.md, "The ascent's step rule").
 *
 * Everything is integer: the same bounds and norms give the same steps.
 * The functions are inline and WT_HD so that one code runs on the host and
 * in the GPU's ascent kernel, which drives many steps without the host.
 */
#ifndef WT_CORE_ASCENT_RULE_H
#define WT_CORE_ASCENT_RULE_H

#include <stdbool.h>
#include <stdint.h>

#include "core/onetree.h" /* WT_ONETREE_SCALE */
#include "core/rng.h"     /* WT_HD: the rule runs in device code too */

#ifdef __cplusplus
extern "C" {
#endif

/* Penalties stay within +-2^30: with scaled distances up to 2^30
 * (wt_onetree_check_lengths) every c_pi fits in 33 bits. */
#define WT_ASCENT_PI_LIMIT ((int64_t)1 << 30)

/* The steps at most when a job asks for 0: none (the rule alone ends the
 * ascent, as LKH's does; a deadline or a stop still do). */
#define WT_ASCENT_DEFAULT_ITERATIONS 0

typedef struct wt_ascent_rule {
    int64_t step;        /* the step size t, in units of 1 / WT_ONETREE_SCALE */
    int period;          /* steps of the current period */
    int first_period;    /* steps of the first: the longest a period doubles to */
    int p;               /* the next step's place in its period, 1..period */
    bool initial;        /* still in the initial phase (t doubles on a rise) */
    int misses;          /* steps in a row of this period (or of the initial
                            phase) that did not raise the best bound */
    int cap;             /* steps at most; 0: no cap */
    int64_t best_bound;  /* the best 1-tree bound so far (scaled) */
    int64_t norm;        /* sum of v^2 of the last tree */
    int iterations_done; /* steps recorded */
} wt_ascent_rule;

/* The shortest first period when the job gives none. */
#define WT_ASCENT_MIN_PERIOD 100

/* Steps in a row that do not raise the best bound which end the initial
 * phase, and which end a period (bench/RESULTS.md, "The ascent's step
 * rule"). */
#define WT_ASCENT_PATIENCE 10
#define WT_ASCENT_STALL 200

/* Starts the rule for n cities after the tree under the start pi, whose
 * bound and norm are given; period and iterations as wt_ascent_job's (0:
 * the defaults). */
static inline WT_HD void wt_ascent_rule_start(wt_ascent_rule *r, int n, int period, int iterations,
                                              int64_t bound, int64_t norm)
{
    r->step = WT_ONETREE_SCALE;
    r->period = period > 0                      ? period
                : n / 2 > WT_ASCENT_MIN_PERIOD ? n / 2
                                               : WT_ASCENT_MIN_PERIOD;
    r->first_period = r->period;
    r->p = 1;
    r->initial = true;
    r->misses = 0;
    r->cap = iterations > 0 ? iterations : WT_ASCENT_DEFAULT_ITERATIONS;
    r->best_bound = bound;
    r->norm = norm;
    r->iterations_done = 0;
}

/* Whether the rule takes another step (its size then r->step); moves to
 * the next period when the current one is over. */
static inline WT_HD bool wt_ascent_rule_more(wt_ascent_rule *r)
{
    for (;;) {
        if (r->period <= 0 || r->step <= 0 || r->norm == 0) return false;
        if (r->cap > 0 && r->iterations_done >= r->cap) return false;
        if (r->p <= r->period) return true;
        r->period /= 2;
        r->step /= 2;
        r->p = 1;
        r->initial = false;
        r->misses = 0;
    }
}

/* Records the step just taken: the new tree's bound and norm.  Returns
 * whether its pi is the new best (the caller keeps a copy). */
static inline WT_HD bool wt_ascent_rule_record(wt_ascent_rule *r, int64_t bound, int64_t norm)
{
    r->iterations_done++;
    r->norm = norm;
    /* A tour (norm 0) as good as the best ends the ascent on its pi. */
    bool better = bound > r->best_bound || (norm == 0 && bound >= r->best_bound);
    if (better) {
        r->best_bound = bound;
        r->misses = 0;
        if (r->initial && r->step < WT_ASCENT_PI_LIMIT) r->step *= 2;
        if (r->p == r->period)
            r->period = r->period > r->first_period / 2 ? r->first_period : 2 * r->period;
    } else if (r->initial) {
        if (++r->misses >= WT_ASCENT_PATIENCE) {
            r->initial = false;
            r->misses = 0;
            r->p = 0; /* the first period again, at the step the phase reached */
        }
    } else if (++r->misses >= WT_ASCENT_STALL) {
        r->p = r->period; /* the period ends with this step */
    }
    r->p++;
    return better;
}

#ifdef __cplusplus
}
#endif

/* One city's new penalty: pi + step * (7 v + 3 v_prev) / 10 (C's integer
 * division, toward 0), clamped to +-WT_ASCENT_PI_LIMIT; v_prev is the
 * previous step's degree excess (the mix damps the zigzag of plain
 * subgradient steps). */
static inline WT_HD int32_t wt_ascent_pi_next(int32_t pi, int32_t v, int32_t v_prev, int64_t step)
{
    int64_t d = step * (7 * (int64_t)v + 3 * (int64_t)v_prev) / 10;
    int64_t x = pi + d;
    if (x > WT_ASCENT_PI_LIMIT) x = WT_ASCENT_PI_LIMIT;
    if (x < -WT_ASCENT_PI_LIMIT) x = -WT_ASCENT_PI_LIMIT;
    return (int32_t)x;
}

#endif
