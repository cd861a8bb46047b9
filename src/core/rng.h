/*
 * rng.h - a small, seedable, allocation-free random number generator.
 *
 * xoshiro256** (Blackman & Vigna) seeded through splitmix64.  Every random
 * choice in the library goes through a wt_rng that the caller seeds
 * explicitly, so a seed reproduces a run.  Not for cryptography.
 */
#ifndef WT_CORE_RNG_H
#define WT_CORE_RNG_H

#include <stdint.h>

typedef struct wt_rng {
    uint64_t s[4];
} wt_rng;

static inline uint64_t wt_splitmix64(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static inline void wt_rng_seed(wt_rng *r, uint64_t seed)
{
    uint64_t st = seed;
    for (int i = 0; i < 4; i++) r->s[i] = wt_splitmix64(&st);
}

static inline uint64_t wt_rng_rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

static inline uint64_t wt_rng_next(wt_rng *r)
{
    uint64_t *s = r->s;
    uint64_t result = wt_rng_rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = wt_rng_rotl(s[3], 45);
    return result;
}

/* Uniform integer in [0, bound), bound > 0, without modulo bias (Lemire). */
static inline uint64_t wt_rng_below(wt_rng *r, uint64_t bound)
{
    uint64_t threshold = (0 - bound) % bound;
    for (;;) {
        uint64_t x = wt_rng_next(r);
        unsigned __int128 m = (unsigned __int128)x * bound;
        if ((uint64_t)m >= threshold) return (uint64_t)(m >> 64);
    }
}

/* Uniform double in [0, 1). */
static inline double wt_rng_uniform(wt_rng *r)
{
    return (double)(wt_rng_next(r) >> 11) * 0x1.0p-53;
}

#endif
