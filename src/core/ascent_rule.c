/*
 * ascent_rule.c - the subgradient ascent's step rule (ascent_rule.h).
 */
#include "core/ascent_rule.h"

#include "core/onetree.h"

enum {
    MIN_PERIOD = 100,
    MAX_PERIOD = 1 << 29 /* a period doubles only below it: int stays safe */
};

void wt_ascent_rule_start(wt_ascent_rule *r, int n, int period, int iterations, int64_t bound,
                          int64_t norm)
{
    r->step = WT_ONETREE_SCALE;
    r->period = period > 0 ? period : n / 2 > MIN_PERIOD ? n / 2 : MIN_PERIOD;
    r->p = 1;
    r->initial = true;
    r->cap = iterations > 0 ? iterations : WT_ASCENT_DEFAULT_ITERATIONS;
    r->best_bound = bound;
    r->norm = norm;
    r->iterations_done = 0;
}

bool wt_ascent_rule_more(wt_ascent_rule *r)
{
    for (;;) {
        if (r->period <= 0 || r->step <= 0 || r->norm == 0) return false;
        if (r->cap > 0 && r->iterations_done >= r->cap) return false;
        if (r->p <= r->period) return true;
        r->period /= 2;
        r->step /= 2;
        r->p = 1;
    }
}

bool wt_ascent_rule_record(wt_ascent_rule *r, int64_t bound, int64_t norm)
{
    r->iterations_done++;
    r->norm = norm;
    /* A tour (norm 0) as good as the best ends the ascent on its pi. */
    bool better = bound > r->best_bound || (norm == 0 && bound >= r->best_bound);
    if (better) {
        r->best_bound = bound;
        if (r->initial && r->step < WT_ASCENT_PI_LIMIT) r->step *= 2;
        if (r->p == r->period && r->period < MAX_PERIOD) r->period *= 2;
    } else if (r->initial) {
        r->initial = false;
    }
    r->p++;
    return better;
}
