/*
 * sa_moves.h - the moves, random streams and cooling schedule of simulated
 * annealing, shared by the backends.
 *
 * Lam, Tsoi & Luk, "Parallel neighbourhood search on many-core platforms"
 * (the PSPM paper), §3.3 and §4: a search holds one tour as a doubly linked
 * list (prev/next arrays indexed by city) and a move relocates one city c:
 * c is taken out from between its neighbours p = prev[c] and q = next[c] and
 * put back between a city a and its successor b = next[a].  A move is
 * described by the pair (c, a), so a candidate costs no copy of the tour
 * (Algorithm 2's "relocate info"); it changes six edges, so its cost is six
 * distances, and it is committed in O(1) only when it is accepted.
 *
 * Random numbers come from independent streams: stream 0 of search s gives
 * its Metropolis draws, stream 1 + j the draws of its candidate move j.
 * Each stream advances by the same amount at every iteration of its search,
 * so the run depends only on the seed, the number of searches and of moves
 * per search, never on which thread or GPU lane evaluated which candidate.
 * Everything here is WT_HD, so device code draws the same moves.
 */
#ifndef WT_CORE_SA_MOVES_H
#define WT_CORE_SA_MOVES_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>

#include "core/instance.h"
#include "core/rng.h"

/* A relocation: city c goes between city a and a's successor. */
typedef struct wt_sa_move {
    int32_t c, a;
} wt_sa_move;

/* Seeds stream `stream` of search `search` of a run seeded with seed
 * (stream 0: Metropolis draws; stream 1 + j: candidate move j). */
static inline WT_HD void wt_sa_rng(wt_rng *rng, uint64_t seed, uint64_t search, uint64_t stream)
{
    uint64_t st = seed ^ 0x2545f4914f6cdd1dULL;
    uint64_t h = wt_splitmix64(&st);
    st = h ^ (0x9e6c63d0676a9a99ULL * (search + 1));
    h = wt_splitmix64(&st);
    st = h ^ (0xd1342543de82ef95ULL * (stream + 1));
    wt_rng_seed(rng, wt_splitmix64(&st));
}

/* Draws a candidate move of a tour of n >= 3 cities: c uniform among the
 * cities, a uniform among the n - 2 cities other than c and prev[c] (the two
 * choices that would leave the tour as it is).  Two draws. */
static inline WT_HD wt_sa_move wt_sa_draw(wt_rng *rng, int n, const int32_t *prev)
{
    wt_sa_move m;
    m.c = (int32_t)wt_rng_below(rng, (uint64_t)n);
    int32_t p = prev[m.c];
    int32_t a = (int32_t)wt_rng_below(rng, (uint64_t)n - 2);
    int32_t lo = m.c < p ? m.c : p, hi = m.c < p ? p : m.c;
    if (a >= lo) a++;
    if (a >= hi) a++;
    m.a = a;
    return m;
}

/* Draws a local candidate move (wt_sa_job.near = k >= 2): c uniform among
 * the cities, then one of the 2k insertion slots next to c's k nearest
 * cities d (nb, k per city, algo/.. core/neighbours.h): right after d
 * (a = d) or right before it (a = prev[d]).  The two slots that leave the
 * tour as it is (after prev[c], before next[c]) are drawn again, so the
 * move is never null.  Two draws or a few more. */
static inline WT_HD wt_sa_move wt_sa_draw_near(wt_rng *rng, int n, const int32_t *prev,
                                               const int32_t *nb, int k)
{
    wt_sa_move m;
    m.c = (int32_t)wt_rng_below(rng, (uint64_t)n);
    const int32_t *row = nb + (size_t)m.c * (size_t)k;
    int32_t p = prev[m.c];
    for (;;) {
        uint64_t j = wt_rng_below(rng, 2 * (uint64_t)k);
        int32_t d = row[j >> 1];
        m.a = (j & 1) ? prev[d] : d;
        if (m.a != m.c && m.a != p) return m;
    }
}

/* Whether move m leaves the tour as it is (a is c or c's predecessor). */
static inline WT_HD bool wt_sa_move_is_null(const int32_t *prev, wt_sa_move m)
{
    return m.a == m.c || m.a == prev[m.c];
}

/* Applies move m to the list in O(1); a null move changes nothing. */
static inline WT_HD void wt_sa_commit(int32_t *prev, int32_t *next, wt_sa_move m)
{
    if (wt_sa_move_is_null(prev, m)) return;
    int32_t c = m.c, p = prev[c], q = next[c];
    next[p] = q;
    prev[q] = p;
    int32_t b = next[m.a]; /* unchanged by the unlinking, since a != p */
    next[m.a] = c;
    prev[c] = m.a;
    next[c] = b;
    prev[b] = c;
}

/* The Metropolis criterion (equation 1): a move of cost change delta at
 * temperature t > 0 is accepted when u < exp(-delta / t), u uniform in
 * [0, 1); so always when delta <= 0.  A worsening move with delta >= 40 t,
 * whose probability e^-40 (4e-18) is below the resolution of u (2^-53), is
 * rejected without calling exp: near zero temperature that is nearly every
 * move, and exp is slow exactly there, where it underflows. */
static inline WT_HD bool wt_sa_accept(int64_t delta, double t, double u)
{
    return delta <= 0 || ((double)delta < 40.0 * t && u < exp(-(double)delta / t));
}

/* The cooling schedule, one epoch at a time.  Temperature step k has
 * temperature t_start * alpha^k (computed by repeated multiplication, so
 * every search and backend sees the same values) and lasts n * sweeps
 * iterations; steps run while the temperature is above t_end, and step 0
 * always runs.  An epoch is the run between two exchanges: up to `exchange`
 * steps.  Given *t, the temperature of step *step, returns the number of
 * steps of the next epoch and advances *t and *step past them; 0 once the
 * schedule is over. */
static inline WT_HD uint64_t wt_sa_schedule(double *t, uint64_t *step, double t_end,
                                            double alpha, uint64_t exchange)
{
    uint64_t m = 0;
    while (m < exchange && (*step == 0 || *t > t_end)) {
        *t *= alpha;
        (*step)++;
        m++;
    }
    return m;
}

/* Exact cost change of move m on the host: the six distances of the edges
 * it removes (p c, c q, a b) and adds (p q, a c, c b); 0 for a null move. */
static inline int64_t wt_sa_delta(const struct wt_instance *inst, const int32_t *prev,
                                  const int32_t *next, wt_sa_move m)
{
    if (wt_sa_move_is_null(prev, m)) return 0;
    int c = m.c, a = m.a, p = prev[c], q = next[c], b = next[a];
    return wt_dist(inst, p, q) + wt_dist(inst, a, c) + wt_dist(inst, c, b) -
           wt_dist(inst, p, c) - wt_dist(inst, c, q) - wt_dist(inst, a, b);
}

#endif
