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

/* The generator runs on the host and, for the GPU searches, in device code:
 * both sides then draw the same numbers from the same seed. */
#ifdef __CUDACC__
#define WT_HD __host__ __device__
#else
#define WT_HD
#endif

typedef struct wt_rng {
    uint64_t s[4];
} wt_rng;

static inline WT_HD uint64_t wt_splitmix64(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static inline WT_HD void wt_rng_seed(wt_rng *r, uint64_t seed)
{
    uint64_t st = seed;
    for (int i = 0; i < 4; i++) r->s[i] = wt_splitmix64(&st);
}

static inline WT_HD uint64_t wt_rng_rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

static inline WT_HD uint64_t wt_rng_next(wt_rng *r)
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

/* High 64 bits of the 128-bit product a * b. */
static inline WT_HD uint64_t wt_mulhi64(uint64_t a, uint64_t b)
{
#ifdef __CUDA_ARCH__
    return __umul64hi(a, b);
#else
    return (uint64_t)(((unsigned __int128)a * b) >> 64);
#endif
}

/* Uniform integer in [0, bound), bound > 0, without modulo bias (Lemire).
 * A draw whose low product lo is at least the threshold (2^64 mod bound)
 * is accepted; the threshold is below bound, so lo >= bound accepts without
 * the 64-bit modulo, which is dear on a GPU (a 100-city start tour on one
 * thread spent most of its time there). */
static inline WT_HD uint64_t wt_rng_below(wt_rng *r, uint64_t bound)
{
    uint64_t x = wt_rng_next(r), lo = x * bound;
    if (lo < bound) {
        uint64_t threshold = (0 - bound) % bound;
        while (lo < threshold) {
            x = wt_rng_next(r);
            lo = x * bound;
        }
    }
    return wt_mulhi64(x, bound);
}

/* Uniform double in [0, 1). */
static inline WT_HD double wt_rng_uniform(wt_rng *r)
{
    return (double)(wt_rng_next(r) >> 11) * 0x1.0p-53;
}

#endif
