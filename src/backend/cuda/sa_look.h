/*
 * sa_look.h - the random streams of sa.cu's warp kernel, which read their
 * numbers one iteration ahead, and the moves drawn from them.
 *
 * sa_warp_kernel keeps each stream's next two outputs in registers, so the
 * xoshiro step that refills them overlaps the iteration's shared-memory
 * latency instead of waiting for it.  The draws here take their numbers
 * from that look-ahead in the order, and with the bounds, of wt_rng_below,
 * wt_sa_draw and wt_sa_draw_near (core/sa_moves.h): so they return the very
 * moves of those functions, rejected draws and redrawn slots included, and
 * leave the stream where those leave it.  That is what makes the warp
 * kernel's run the CPU's, move for move.
 *
 * Plain C (WT_HD) rather than CUDA, so that a host unit test checks the
 * equivalence on a machine without a GPU (tests/unit/test_sa.c).
 */
#ifndef WT_BACKEND_CUDA_SA_LOOK_H
#define WT_BACKEND_CUDA_SA_LOOK_H

#include <stdint.h>

#include "core/sa_moves.h"
#include "core/rng.h"

/* A stream and its next two outputs: r itself is two outputs ahead. */
typedef struct sa_look {
    wt_rng r;
    uint64_t x0, x1; /* the next output, then the one after */
} sa_look;

/* The look-ahead stream that gives the outputs r would give. */
static inline WT_HD sa_look sa_look_from(wt_rng r)
{
    sa_look g;
    g.r = r;
    g.x0 = wt_rng_next(&g.r);
    g.x1 = wt_rng_next(&g.r);
    return g;
}

/* The next output (wt_rng_next). */
static inline WT_HD uint64_t sa_look_take(sa_look *g)
{
    uint64_t x = g->x0;
    g->x0 = g->x1;
    g->x1 = wt_rng_next(&g->r);
    return x;
}

/* wt_rng_below on a look-ahead stream: the same numbers, the same draws
 * rejected.  bound > 0. */
static inline WT_HD uint64_t sa_look_below(sa_look *g, uint64_t bound)
{
    uint64_t x = sa_look_take(g), lo = x * bound;
    if (lo < bound) {
        uint64_t threshold = (0 - bound) % bound;
        while (lo < threshold) {
            x = sa_look_take(g);
            lo = x * bound;
        }
    }
    return wt_mulhi64(x, bound);
}

/* wt_sa_draw on a look-ahead stream: c, then a among the n - 2 cities
 * other than c and prev[c].  Never a null move. */
static inline WT_HD wt_sa_move sa_look_draw(sa_look *g, int n, const int32_t *prev)
{
    wt_sa_move m;
    m.c = (int32_t)sa_look_below(g, (uint64_t)n);
    int32_t p = prev[m.c];
    int32_t a = (int32_t)sa_look_below(g, (uint64_t)n - 2);
    int32_t lo = m.c < p ? m.c : p, hi = m.c < p ? p : m.c;
    a += a >= lo;
    a += a >= hi;
    m.a = a;
    return m;
}

/* wt_sa_draw_near on a look-ahead stream: c, then slots among the 2k next
 * to c's k nearest cities (nb, k per city) until one moves c.  Never a
 * null move, as wt_sa_draw_near, which draws again where this does. */
static inline WT_HD wt_sa_move sa_look_draw_near(sa_look *g, int n, const int32_t *prev,
                                                 const int32_t *nb, int k)
{
    wt_sa_move m;
    m.c = (int32_t)sa_look_below(g, (uint64_t)n);
    const int32_t *row = nb + (size_t)m.c * (size_t)k;
    int32_t p = prev[m.c];
    for (;;) {
        uint64_t j = sa_look_below(g, 2 * (uint64_t)k);
        int32_t d = row[j >> 1];
        m.a = (j & 1) ? prev[d] : d;
        if (m.a != m.c && m.a != p) return m;
    }
}

#endif
