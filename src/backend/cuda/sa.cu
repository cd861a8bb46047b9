/*
 * sa.cu - simulated annealing on the GPU: Lam et al.'s parallel search
 * parallel move (PSPM) scheme, §3.2 and §4.2.
 *
 * Each thread block is one search (a light weight SA, Algorithm 2) holding
 * one current tour as a doubly linked list (prev/next indexed by city): in
 * shared memory, beside a copy of the coordinates, when they fit in the
 * block's opt-in shared memory, else in the block's slice of global memory,
 * so there is no size cap.  At every iteration the block's threads draw the
 * search's `moves` candidate relocations, candidate j from stream 1 + j
 * exactly as the CPU does (core/sa_moves.h), and compute their exact cost changes;
 * cub::BlockReduce picks the least (ties to the lower candidate).  Every
 * thread holds a copy of the search's Metropolis stream (stream 0) and the
 * search's lengths, so all of them take the same decision without waiting
 * for one another; one thread commits an accepted move in O(1).  The best
 * tour is stored lazily, when a worsening move is about to be accepted
 * while the current tour beats it (Algorithm 2, line 12).
 *
 * Local moves (job->near = k > 0, not the paper's) insert the moved city
 * next to one of its k nearest cities: the host builds the n x k lists
 * exactly as cpu_sa.c does (wt_neighbour_lists, k clamped to n - 1) and
 * uploads them once per run; both kernels read them from global memory (a
 * row is one short random read per draw, and in shared memory they would
 * cost the warp kernel its searches per SM) and draw with wt_sa_draw_near,
 * or its look-ahead twin, so the moves are still the CPU's.
 *
 * Exchanges need every search at the same point, i.e. a grid-wide barrier,
 * so, as in the paper's §4.2 pseudo code, one launch runs all searches
 * through one epoch of `exchange` temperature steps.  Between launches the
 * host picks the best search (ties to the lower index), copies its tour to
 * d_global and the next launch starts every block from it; the host also
 * follows the time limit and the stop flag there and, within long epochs,
 * raises a stop flag in device memory that blocks read every SA_POLL
 * iterations (never host-mapped memory: see ms_run.cuh).
 *
 * Cost changes are exact int64 sums of dev_exact_dist, the host's TSPLIB
 * arithmetic in double, not the float "magic form" of the 2-opt kernels:
 * float is exact only for small integer coordinates, and the searches and
 * their best lengths must be exact everywhere.  The Metropolis test is
 * wt_sa_accept itself.  So for the same seed, searches and moves the GPU
 * computes the CPU's run move for move (the device's exp may differ from
 * the host's libm in the last bit, which changes a decision with
 * probability about 2^-52 per worsening move; GEO's cos/acos may differ
 * likewise: device_instance.cuh).
 *
 * Two kernels.  EUC_2D runs of at most 32 moves whose lists and coordinates
 * fit in shared memory (all of the paper's instances) take sa_warp_kernel:
 * one warp per search, no block barrier, one REDUX for the best candidate,
 * distances without the double sqrt's branchy sequence (sa_euc_fast); it
 * is latency bound, so by default it runs SA_WARP_PER_SM searches per SM
 * rather than the occupancy limit.  Everything else takes sa_kernel, the
 * general block kernel.  Both compute the same exact integer deltas and the
 * same decisions, so both equal the CPU move for move (the tests check the
 * two kernels against each other and against the CPU).
 *
 * Runs may be made from several host threads at once (bench sa overlaps an
 * instance's runs, since one run leaves most of the GPU idle).  A run has
 * no static state, uses only its own two non-blocking streams, its own
 * stream-ordered buffers (SaResources) and, for the block kernel, its own
 * upload of the instance; it waits only on its streams, never on the
 * device; and the one process-wide setting it touches, a kernel's dynamic
 * shared-memory limit, is set to the same value by every run (sa_plan).
 */
#include <cub/block/block_reduce.cuh>

#include <climits>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "core/sa_moves.h"
#include "backend/cuda/context.cuh"
#include "backend/cuda/device_instance.cuh"
#include "backend/cuda/sa.h"
#include "backend/cuda/sa_look.h"
#include "core/neighbours.h"

namespace {

/* Iterations between looks at the stop flag (and progress publications). */
constexpr unsigned long long SA_POLL = 1024;

/* A search's state between launches. */
struct SaSearch {
    long long cur_len, best_len;        /* exact */
    unsigned long long iterations, accepted, improved;
    unsigned long long worsened;        /* accepted moves that lengthened the tour */
    double t;                           /* temperature of the last step run */
};

/* What one launch (one epoch) is told, passed by value. */
struct SaArgs {
    DevInst inst;
    int n, moves;
    unsigned long long step_iters;      /* iterations per temperature step: n * sweeps */
    unsigned long long steps;           /* temperature steps of this epoch */
    double t0, alpha;                   /* temperature of the first step; cooling */
    int restart;                        /* every search starts from global first */
    int lists_shared, coords_shared;
    long long global_len;               /* exact length of global */
    int32_t *cur;                       /* searches x 2n: prev, next (global lists) */
    int32_t *best;                      /* searches x n: successors of the stored best */
    const int32_t *global;              /* n successors: the tour to restart from */
    SaSearch *search;                   /* searches */
    wt_rng *rng;                        /* searches x (1 + moves): Metropolis, candidates */
    long long *key;                     /* searches: min(cur, best), for progress */
    const int *stop;                    /* raised by the host */
    const double2 *xy;                  /* warp kernel: n interleaved coordinates */
    sa_look *look;                      /* warp kernel: searches x (1 + moves) streams */
    const int32_t *near_nb;             /* local moves: n x near_k nearest cities */
    int near_k;                         /* local moves' k (job->near); 0: uniform moves */
};

/* A thread's best candidate; the move travels with it through the reduction. */
struct SaPick {
    long long delta;
    int j, c, a;
};

/* Least delta, ties to the lower candidate: the CPU's rule. */
struct SaPickMin {
    __device__ __forceinline__ SaPick operator()(const SaPick &x, const SaPick &y) const
    {
        return (y.delta < x.delta || (y.delta == x.delta && y.j < x.j)) ? y : x;
    }
};

/* The block's verdict of one iteration, written by thread 0. */
struct SaWin {
    long long delta;
    wt_sa_move move;
    int stop;
};

/* Exact cost change of move m: wt_sa_delta's six distances on the device. */
__device__ __forceinline__ long long sa_delta(const DevInst &I, const int32_t *prev,
                                              const int32_t *next, wt_sa_move m)
{
    if (wt_sa_move_is_null(prev, m)) return 0;
    int c = m.c, a = m.a, p = prev[c], q = next[c], b = next[a];
    return dev_exact_dist(I, p, q) + dev_exact_dist(I, a, c) + dev_exact_dist(I, c, b) -
           dev_exact_dist(I, p, c) - dev_exact_dist(I, c, q) - dev_exact_dist(I, a, b);
}

/* Draws candidate j from its stream (NEAR: a local move) and keeps it if
 * it beats pick. */
template <bool NEAR>
__device__ __forceinline__ void sa_try(const DevInst &I, int n, const int32_t *prev,
                                       const int32_t *next, const int32_t *near_nb, int near_k,
                                       wt_rng *rng, int j, SaPick &pick)
{
    wt_sa_move m = NEAR ? wt_sa_draw_near(rng, n, prev, near_nb, near_k)
                        : wt_sa_draw(rng, n, prev);
    long long d = sa_delta(I, prev, next, m);
    if (d < pick.delta) pick = SaPick{d, j, m.c, m.a};
}

/* Copies n doubles to shared memory at p, advancing p; returns the copy. */
template <int BLOCK>
__device__ __forceinline__ const double *sa_share(const double *src, int n, unsigned char *&p)
{
    double *dst = (double *)p;
    p += (size_t)n * sizeof(double);
    for (int c = threadIdx.x; c < n; c += BLOCK) dst[c] = src[c];
    return dst;
}

/* Points prev/next at the block's lists and, when they are shared, copies
 * the coordinates there and points I at them.  Layout of the dynamic shared
 * memory: coordinates (doubles) first, for alignment, then prev, next. */
template <int BLOCK>
__device__ void sa_place(const SaArgs &A, unsigned char *dyn, DevInst &I, int32_t *&prev,
                         int32_t *&next)
{
    const int n = A.n;
    unsigned char *p = dyn;
    if (A.coords_shared) {
        I.xd = sa_share<BLOCK>(A.inst.xd, n, p);
        I.yd = sa_share<BLOCK>(A.inst.yd, n, p);
        if (A.inst.zd) I.zd = sa_share<BLOCK>(A.inst.zd, n, p);
    }
    if (A.lists_shared) {
        prev = (int32_t *)p;
        next = prev + n;
    } else {
        prev = A.cur + (size_t)blockIdx.x * 2 * (size_t)n;
        next = prev + n;
    }
}

/* Loads the block's current tour: the global best (which also becomes its
 * stored best) at a restart, else its own lists from the previous epoch. */
template <int BLOCK>
__device__ void sa_load(const SaArgs &A, int32_t *prev, int32_t *next, int32_t *best)
{
    const int n = A.n;
    if (A.restart) {
        for (int c = threadIdx.x; c < n; c += BLOCK) {
            int32_t d = A.global[c];
            next[c] = d;
            prev[d] = c;
            best[c] = d;
        }
    } else if (A.lists_shared) {
        const int32_t *mine = A.cur + (size_t)blockIdx.x * 2 * (size_t)n;
        for (int c = threadIdx.x; c < 2 * n; c += BLOCK) prev[c] = mine[c];
    }
}

/* One epoch of every search: A.steps temperature steps of A.step_iters
 * iterations each (the paper's kernel_function).  NEAR: local moves
 * (A.near_k > 0), a kernel of its own so that the uniform draw's code and
 * registers stay as they were. */
template <int BLOCK, bool NEAR>
__global__ void __launch_bounds__(BLOCK) sa_kernel(SaArgs A)
{
    typedef cub::BlockReduce<SaPick, BLOCK> Reduce;
    __shared__ typename Reduce::TempStorage s_reduce;
    /* Alternate iterations use alternate verdicts: a thread that runs ahead
     * into the next iteration cannot overwrite the one others still read. */
    __shared__ SaWin s_win[2];
    extern __shared__ __align__(16) unsigned char s_dyn[];

    const int n = A.n, s = blockIdx.x, tid = threadIdx.x;
    DevInst I = A.inst;
    int32_t *prev, *next, *best = A.best + (size_t)s * (size_t)n;
    sa_place<BLOCK>(A, s_dyn, I, prev, next);
    sa_load<BLOCK>(A, prev, next, best);
    SaSearch st = A.search[s];
    if (A.restart) st.cur_len = st.best_len = A.global_len;
    wt_rng *streams = A.rng + (size_t)s * (size_t)(1 + A.moves);
    wt_rng accept = streams[0]; /* every thread draws the same u */
    const bool one = A.moves <= BLOCK; /* one candidate per thread: its stream in registers */
    wt_rng mine = streams[1 + (one && tid < A.moves ? tid : 0)];
    __syncthreads();

    double t = A.t0;
    unsigned long long it = 0;
    bool stopped = false;
    for (unsigned long long k = 0; !stopped && k < A.steps; k++, t *= A.alpha) {
        st.t = t;
        for (unsigned long long i = 0; i < A.step_iters; i++, it++) {
            SaPick pick = {LLONG_MAX, INT_MAX, 0, 0};
            if (one) {
                if (tid < A.moves)
                    sa_try<NEAR>(I, n, prev, next, A.near_nb, A.near_k, &mine, tid, pick);
            } else {
                for (int j = tid; j < A.moves; j += BLOCK)
                    sa_try<NEAR>(I, n, prev, next, A.near_nb, A.near_k, &streams[1 + j], j,
                                 pick);
            }
            SaPick win = Reduce(s_reduce).Reduce(pick, SaPickMin());
            SaWin *w = &s_win[it & 1];
            if (tid == 0) {
                bool poll = (it & (SA_POLL - 1)) == 0;
                w->delta = win.delta;
                w->move = wt_sa_move{win.c, win.a};
                w->stop = poll && *(volatile const int *)A.stop;
                if (poll) A.key[s] = st.cur_len < st.best_len ? st.cur_len : st.best_len;
            }
            __syncthreads();
            if (w->stop) {
                stopped = true;
                break;
            }
            long long delta = w->delta;
            st.iterations++;
            if (!wt_sa_accept(delta, t, wt_rng_uniform(&accept))) continue;
            if (delta > 0 && st.cur_len < st.best_len) { /* Algorithm 2, line 12 */
                for (int c = tid; c < n; c += BLOCK) best[c] = next[c];
                st.best_len = st.cur_len;
                __syncthreads(); /* the copy reads next before the commit writes it */
            }
            st.cur_len += delta;
            st.accepted++;
            st.improved += delta < 0;
            st.worsened += delta > 0;
            if (tid == 0) wt_sa_commit(prev, next, w->move);
            __syncthreads();
        }
    }

    if (tid == 0) {
        A.search[s] = st;
        A.key[s] = st.cur_len < st.best_len ? st.cur_len : st.best_len;
        streams[0] = accept;
    }
    if (one && tid < A.moves) streams[1 + tid] = mine;
    if (A.lists_shared) {
        int32_t *mine_lists = A.cur + (size_t)s * 2 * (size_t)n;
        for (int c = tid; c < 2 * n; c += BLOCK) mine_lists[c] = prev[c];
    }
}


/* ------------------------------------------------------------------------
 * The warp kernel: EUC_2D, at most 32 moves, lists and coordinates in
 * shared memory.  One warp is one search, so an iteration needs no block
 * barrier: the candidates' exact deltas, packed with their lane into one
 * 32-bit key, meet in a single __reduce_min_sync (least delta, ties to the
 * lower candidate: the CPU's rule); every lane then takes the same
 * Metropolis decision, and the winning lane, which already read p, q and b
 * while evaluating, commits with six independent shared stores.  The
 * distances are specialised to EUC_2D (no switch over the metrics) and
 * computed with the host's IEEE double operations (sub, mul, add, the
 * correctly rounded sqrt), so they equal wt_dist bit for bit on any
 * coordinates.  Random numbers are drawn one iteration ahead (sa_look.h),
 * so the xoshiro steps overlap the iteration's shared-memory latency.  The
 * Metropolis test decides from a float exp when u lies more than 1e-4
 * (relative) away from it, far above that exp's error (below 1e-5 for
 * delta / t < 40), and calls wt_sa_accept otherwise: the very decisions of
 * the double test.
 * --------------------------------------------------------------------- */

/* Bias of the packed delta: key = (delta + SA_KEY_BIAS) << 5 | lane must fit
 * in 32 bits, so |delta| < 2^26; sa_plan checks 3 x the longest possible
 * edge against it before it picks this kernel. */
constexpr int SA_KEY_BIAS = 1 << 26;

/* wt_dist for EUC_2D: the host's operations, no FMA contraction. */
__device__ __forceinline__ int sa_euc(double2 a, double2 b)
{
    double dx = __dsub_rn(a.x, b.x), dy = __dsub_rn(a.y, b.y);
    double s = __dadd_rn(__dmul_rn(dx, dx), __dmul_rn(dy, dy));
    return (int)__dadd_rn(__dsqrt_rn(s), 0.5);
}

/* sa_euc without the double square root, whose correctly rounded library
 * sequence ends in a branch that keeps the six distances of a move from
 * overlapping.  s = dx^2 + dy^2 is the host's double; k, the float root
 * rounded, is within one of nint(sqrt(s)), and the exact double signs of
 * s - (k - 1/2)^2 and (k + 1/2)^2 - s (the squares are exact for k < 2^25,
 * one rounding each in the FMA) tell which of k - 1, k, k + 1 it is
 * (for s < 2^40 the float root is within 1/4 of sqrt(s)).  The
 * host rounds sqrt(s) and sqrt(s) + 1/2, so within a relative 2^-48 of a
 * half-integer those signs cannot be trusted (and for k = 0 the lower
 * one means nothing): *unsure is raised and the
 * caller recomputes with sa_euc (odds about 1e-13 per distance). */
__device__ __forceinline__ int sa_euc_fast(double2 a, double2 b, bool &unsure)
{
    double dx = __dsub_rn(a.x, b.x), dy = __dsub_rn(a.y, b.y);
    double s = __dadd_rn(__dmul_rn(dx, dx), __dmul_rn(dy, dy));
    float k = rintf(sqrt_approx(__double2float_rn(s)));
    double lo = (double)k - 0.5, hi = (double)k + 0.5;
    double below = __fma_rn(-lo, lo, s), above = __fma_rn(hi, hi, -s);
    double margin = hi * hi * 0x1p-48;
    unsure |= (fabs(below) <= margin) | (fabs(above) <= margin) | !(s < 0x1p40);
    return (int)k - ((below < 0.0) & (lo > 0.0)) + (above < 0.0);
}

/* wt_sa_accept, deciding from a float exp where that is safe. */
__device__ __forceinline__ bool sa_accept_fast(int delta, double t, double t40, float inv_t,
                                               double u)
{
    if (delta <= 0) return true;
    if ((double)delta >= t40) return false;
    double e = (double)__expf(-(float)delta * inv_t);
    if (u < e * (1.0 - 1e-4)) return true;
    if (u >= e * (1.0 + 1e-4)) return false;
    return wt_sa_accept(delta, t, u);
}

__device__ __forceinline__ unsigned sa_key_min(unsigned key)
{
#if __CUDA_ARCH__ >= 800
    return __reduce_min_sync(0xffffffffu, key);
#else
    for (int o = 16; o > 0; o >>= 1) key = min(key, __shfl_xor_sync(0xffffffffu, key, o));
    return key;
#endif
}

/* NEAR: local moves (A.near_k > 0), a separate kernel so that the uniform
 * draw's hot loop stays as it was. */
template <bool NEAR>
__global__ void __launch_bounds__(32) sa_warp_kernel(SaArgs A)
{
    extern __shared__ __align__(16) unsigned char s_dyn[];
    const int n = A.n, s = blockIdx.x, lane = threadIdx.x;
    double2 *xy = (double2 *)s_dyn;
    int32_t *prev = (int32_t *)(xy + n), *next = prev + n;
    int32_t *best = A.best + (size_t)s * (size_t)n;
    for (int c = lane; c < n; c += 32) xy[c] = A.xy[c];
    sa_load<32>(A, prev, next, best);
    SaSearch st = A.search[s];
    if (A.restart) st.cur_len = st.best_len = A.global_len;
    sa_look *streams = A.look + (size_t)s * (size_t)(1 + A.moves);
    sa_look accept = streams[0]; /* every lane draws the same u */
    const bool live = lane < A.moves;
    sa_look mine = streams[1 + (live ? lane : 0)];
    __syncwarp();

    double t = A.t0;
    unsigned long long it = 0;
    bool stopped = false;
    for (unsigned long long k = 0; !stopped && k < A.steps; k++, t *= A.alpha) {
        st.t = t;
        const double t40 = 40.0 * t;
        const float inv_t = (float)(1.0 / t);
        for (unsigned long long i = 0; i < A.step_iters; i++, it++) {
            if ((it & (SA_POLL - 1)) == 0) {
                int stop = 0;
                if (lane == 0) {
                    stop = *(volatile const int *)A.stop;
                    A.key[s] = st.cur_len < st.best_len ? st.cur_len : st.best_len;
                }
                if (__shfl_sync(0xffffffffu, stop, 0)) {
                    stopped = true;
                    break;
                }
            }
            unsigned key = 0xffffffffu;
            int32_t c = 0, a = 0, p = 0, q = 0, b = 0;
            if (live) {
                /* No draw gives a null move (a is never c nor p; the near
                 * draw draws again), so the delta needs no null case and
                 * the commit below writes six distinct slots. */
                wt_sa_move m = NEAR ? sa_look_draw_near(&mine, n, prev, A.near_nb, A.near_k)
                                    : sa_look_draw(&mine, n, prev);
                c = m.c;
                a = m.a;
                p = prev[c];
                q = next[c];
                b = next[a];
                double2 pc = xy[c], pp = xy[p], pq = xy[q], pa = xy[a], pb = xy[b];
                bool unsure = false;
                int delta = sa_euc_fast(pp, pq, unsure) + sa_euc_fast(pa, pc, unsure) +
                            sa_euc_fast(pc, pb, unsure) - sa_euc_fast(pp, pc, unsure) -
                            sa_euc_fast(pc, pq, unsure) - sa_euc_fast(pa, pb, unsure);
                if (unsure)
                    delta = sa_euc(pp, pq) + sa_euc(pa, pc) + sa_euc(pc, pb) - sa_euc(pp, pc) -
                            sa_euc(pc, pq) - sa_euc(pa, pb);
                key = ((unsigned)(delta + SA_KEY_BIAS) << 5) | (unsigned)lane;
            }
            key = sa_key_min(key);
            const int w = (int)(key & 31u), delta = (int)(key >> 5) - SA_KEY_BIAS;
            /* wt_rng_uniform */
            const double u = (double)(sa_look_take(&accept) >> 11) * 0x1.0p-53;
            st.iterations++;
            if (!sa_accept_fast(delta, t, t40, inv_t, u)) continue;
            if (delta > 0 && st.cur_len < st.best_len) { /* Algorithm 2, line 12 */
                for (int x = lane; x < n; x += 32) best[x] = next[x];
                st.best_len = st.cur_len;
                __syncwarp(); /* the copy reads next before the commit writes it */
            }
            st.cur_len += delta;
            st.accepted++;
            st.improved += delta < 0;
            st.worsened += delta > 0;
            if (lane == w) { /* wt_sa_commit: six distinct slots, any order */
                next[p] = q;
                prev[q] = p;
                next[a] = c;
                prev[c] = a;
                next[c] = b;
                prev[b] = c;
            }
            __syncwarp();
        }
    }

    if (lane == 0) {
        A.search[s] = st;
        A.key[s] = st.cur_len < st.best_len ? st.cur_len : st.best_len;
        streams[0] = accept;
    }
    if (live) streams[1 + lane] = mine;
    int32_t *mine_lists = A.cur + (size_t)s * 2 * (size_t)n;
    for (int x = lane; x < 2 * n; x += 32) mine_lists[x] = prev[x];
}

typedef void (*SaKernel)(SaArgs);

/* The kernel for `moves` candidates: a block of the next size up, up to 256
 * threads, beyond which each thread evaluates several. */
template <bool NEAR>
SaKernel sa_kernel_sized(int block)
{
    switch (block) {
    case 32: return sa_kernel<32, NEAR>;
    case 64: return sa_kernel<64, NEAR>;
    case 128: return sa_kernel<128, NEAR>;
    default: return sa_kernel<256, NEAR>;
    }
}

SaKernel sa_kernel_for(int moves, bool near, int *block)
{
    *block = moves <= 32 ? 32 : moves <= 64 ? 64 : moves <= 128 ? 128 : 256;
    return near ? sa_kernel_sized<true>(*block) : sa_kernel_sized<false>(*block);
}

/* How a run is laid out on the device. */
struct SaPlan {
    SaKernel kernel;
    int block, searches, moves;
    bool warp;                    /* sa_warp_kernel */
    bool lists_shared, coords_shared;
    size_t smem; /* dynamic shared memory per block */
};

/* Everything a run allocates, released in one place.
 *
 * Runs may go on concurrently, from several host threads (bench sa runs an
 * instance's runs together: one run leaves the GPU mostly idle), so a run
 * keeps to its own two non-blocking streams and waits only on them, never
 * on the device or the legacy default stream, and its buffers are
 * stream-ordered (cudaMallocAsync / cudaFreeAsync on `stream`): cudaFree
 * and cudaFreeHost would wait for the whole device, i.e. for the other
 * runs' kernels too.  Devices without memory pools get cudaMalloc. */
struct SaResources {
    DevInstBuffers inst = {};   /* block kernel only: the warp kernel has d_xy */
    bool inst_loaded = false;
    CudaContext ctx = {};       /* the device and the run's two streams */
    bool pooled = false;        /* buffers from cudaMallocAsync on ctx.stream */
    int32_t *d_cur = nullptr, *d_best = nullptr, *d_global = nullptr;
    SaSearch *d_search = nullptr;
    wt_rng *d_rng = nullptr;
    sa_look *d_look = nullptr;  /* warp kernel: its streams instead of d_rng */
    double2 *d_xy = nullptr;    /* warp kernel: interleaved coordinates */
    int32_t *d_near = nullptr;  /* local moves: n x k nearest cities */
    long long *d_key = nullptr;
    int *d_stop = nullptr;
    std::vector<long long> h_key; /* progress snapshots of d_key */

    void release(void *p)
    {
        if (!p) return;
        if (pooled) cudaFreeAsync(p, ctx.stream);
        else cudaFree(p);
    }

    ~SaResources()
    {
        if (inst_loaded) dev_instance_free(&inst);
        release(d_cur);
        release(d_best);
        release(d_global);
        release(d_search);
        release(d_rng);
        release(d_look);
        release(d_xy);
        release(d_near);
        release(d_key);
        release(d_stop);
        /* Returns at once; the frees queued on the stream still happen. */
        cuda_context_close(&ctx);
    }
};

/* A device buffer of `bytes` for one of r's pointers. */
template <typename T>
wt_status sa_malloc(SaResources &r, T **p, size_t bytes, wt_error *err)
{
    void *v = nullptr;
    if (r.pooled) WT_CUDA_CHECK(err, cudaMallocAsync(&v, bytes, r.ctx.stream));
    else WT_CUDA_CHECK(err, cudaMalloc(&v, bytes));
    *p = (T *)v;
    return WT_OK;
}

/* Searches per SM of the warp kernel when TB is not given: one warp per
 * scheduler of an SM with four (Volta to Hopper). */
constexpr int SA_WARP_PER_SM = 4;

/* Whether every EUC_2D delta fits the warp kernel's key: three edges no
 * longer than the bounding box's diagonal (rounded up), with room. */
bool sa_warp_fits(const wt_instance *inst)
{
    double x0 = inst->x[0], x1 = x0, y0 = inst->y[0], y1 = y0;
    for (int i = 1; i < inst->n; i++) {
        x0 = fmin(x0, inst->x[i]);
        x1 = fmax(x1, inst->x[i]);
        y0 = fmin(y0, inst->y[i]);
        y1 = fmax(y1, inst->y[i]);
    }
    double diag = sqrt((x1 - x0) * (x1 - x0) + (y1 - y0) * (y1 - y0));
    return isfinite(diag) && 3.0 * (diag + 2.0) < (double)(SA_KEY_BIAS - 64);
}

/* Where the lists go and how many searches run: the paper's equation 3,
 * TB = floor(Ms / bytes per block) * Nsm, computed by the occupancy API
 * from this kernel's real shared memory (lists, coordinates, reduction),
 * registers and threads.  TPB defaults to the warp size, where the paper's
 * Table 4 finds the GPU fastest. */
wt_status sa_plan(const wt_instance *inst, const wt_sa_job *job, const CudaContext &ctx,
                  bool force_global, bool opts_block, SaPlan *P, wt_error *err)
{
    const size_t n = (size_t)inst->n;
    P->moves = job->moves > 0 ? job->moves : ctx.warp_size;
    P->kernel = sa_kernel_for(P->moves, job->near > 0, &P->block);
    cudaFuncAttributes fa;
    WT_CUDA_CHECK(err, cudaFuncGetAttributes(&fa, P->kernel));
    size_t optin = (size_t)ctx.smem_optin;
    size_t avail = optin > fa.sharedSizeBytes ? optin - fa.sharedSizeBytes : 0;
    size_t axes = inst->type == WT_EXPLICIT ? 0 : wt_has_z(inst->type) ? 3 : 2;
    size_t coords = axes * n * sizeof(double), lists = 2 * n * sizeof(int32_t);
    P->coords_shared = !force_global && axes > 0 && coords + lists <= avail;
    P->lists_shared = !force_global && lists <= avail;
    P->smem = (P->coords_shared ? coords : 0) + (P->lists_shared ? lists : 0);
    P->warp = false;
    if (!force_global && !opts_block && inst->type == WT_EUC_2D && P->moves <= 32 &&
        sa_warp_fits(inst)) {
        SaKernel warp = job->near > 0 ? sa_warp_kernel<true> : sa_warp_kernel<false>;
        WT_CUDA_CHECK(err, cudaFuncGetAttributes(&fa, warp));
        avail = optin > fa.sharedSizeBytes ? optin - fa.sharedSizeBytes : 0;
        size_t bytes = n * sizeof(double2) + lists;
        if (bytes <= avail) {
            P->warp = true;
            P->kernel = warp;
            P->block = 32;
            P->lists_shared = P->coords_shared = true;
            P->smem = bytes;
        }
    }
    /* The limit is set to the kernel's whole opt-in shared memory, not to
     * this run's need: the attribute belongs to the kernel, process-wide, so
     * a run that lowered it could make a concurrent run's launch fail.  Every
     * run sets the same value; a launch still takes only P->smem. */
    WT_CUDA_CHECK(err, cudaFuncGetAttributes(&fa, P->kernel));
    size_t limit = optin > fa.sharedSizeBytes ? optin - fa.sharedSizeBytes : 0;
    WT_CUDA_CHECK(err, cudaFuncSetAttribute(P->kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                            (int)limit));
    P->searches = job->searches;
    if (P->searches == 0) {
        int per_sm = 0;
        WT_CUDA_CHECK(err, cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, P->kernel,
                                                                         P->block, P->smem));
        if (per_sm < 1) per_sm = 1;
        /* The warp kernel is latency bound with about one warp per
         * scheduler: more searches share the issue slots and make every
         * iteration, hence the run, slower (header). */
        if (P->warp && per_sm > SA_WARP_PER_SM) per_sm = SA_WARP_PER_SM;
        P->searches = per_sm * ctx.sms;
        /* Global lists of huge instances: keep the searches' state within
         * half of the free memory. */
        size_t free_b = 0, total_b = 0;
        WT_CUDA_CHECK(err, cudaMemGetInfo(&free_b, &total_b));
        size_t per = 3 * n * sizeof(int32_t) + (size_t)(1 + P->moves) * sizeof(sa_look) + 64;
        size_t cap = free_b / 2 / per;
        if ((size_t)P->searches > cap) P->searches = cap > 0 ? (int)cap : 1;
    }
    return WT_OK;
}

/* Copies bytes from host memory to dst on r's stream and waits for it, so
 * the (pageable) source may go at once. */
wt_status sa_upload(SaResources &r, void *dst, const void *src, size_t bytes, wt_error *err)
{
    WT_CUDA_CHECK(err, cudaMemcpyAsync(dst, src, bytes, cudaMemcpyHostToDevice, r.ctx.stream));
    WT_CUDA_CHECK(err, cudaStreamSynchronize(r.ctx.stream));
    return WT_OK;
}

/* Every search's streams, seeded on the host (a few per search). */
wt_status sa_seed(const wt_sa_job *job, const SaPlan &P, SaResources &r, wt_error *err)
{
    size_t per = (size_t)(1 + P.moves), count = (size_t)P.searches * per;
    std::vector<wt_rng> h(count);
    for (size_t s = 0; s < (size_t)P.searches; s++)
        for (size_t k = 0; k < per; k++) wt_sa_rng(&h[s * per + k], job->seed, s, k);
    if (!P.warp) return sa_upload(r, r.d_rng, h.data(), count * sizeof(wt_rng), err);
    std::vector<sa_look> look(count);
    for (size_t k = 0; k < count; k++) look[k] = sa_look_from(h[k]);
    return sa_upload(r, r.d_look, look.data(), count * sizeof(sa_look), err);
}

/* The run's buffers; the instance itself for the block kernel. */
wt_status sa_alloc(const wt_instance *inst, const wt_sa_job *job, const SaPlan &P,
                   SaResources &r, wt_error *err)
{
    size_t n = (size_t)inst->n, tb = (size_t)P.searches;
    if (tb > SIZE_MAX / 16 / n || tb > SIZE_MAX / sizeof(sa_look) / (size_t)(1 + P.moves))
        return wt_fail(err, WT_STATUS_OUT_OF_MEMORY, "sa: %d searches of %d cities are too many",
                       P.searches, inst->n);
    r.pooled = r.ctx.pools;
    if (!P.warp) {
        /* dev_instance_upload copies with cudaMemcpy on the default stream,
         * which the non-blocking `stream` does not wait for: an event does. */
        wt_status st = dev_instance_upload(inst, &r.inst, err);
        if (st != WT_OK) return st;
        r.inst_loaded = true;
        cudaEvent_t ev;
        WT_CUDA_CHECK(err, cudaEventCreateWithFlags(&ev, cudaEventDisableTiming));
        cudaError_t e = cudaEventRecord(ev, 0);
        if (e == cudaSuccess) e = cudaStreamWaitEvent(r.ctx.stream, ev, 0);
        cudaEventDestroy(ev);
        WT_CUDA_CHECK(err, e);
    }
    wt_status st = WT_OK;
    size_t streams = tb * (size_t)(1 + P.moves);
    if (st == WT_OK) st = sa_malloc(r, &r.d_cur, tb * 2 * n * sizeof(int32_t), err);
    if (st == WT_OK) st = sa_malloc(r, &r.d_best, tb * n * sizeof(int32_t), err);
    if (st == WT_OK) st = sa_malloc(r, &r.d_global, n * sizeof(int32_t), err);
    if (st == WT_OK) st = sa_malloc(r, &r.d_search, tb * sizeof(SaSearch), err);
    if (st == WT_OK && P.warp) st = sa_malloc(r, &r.d_look, streams * sizeof(sa_look), err);
    if (st == WT_OK && P.warp) st = sa_malloc(r, &r.d_xy, n * sizeof(double2), err);
    if (st == WT_OK && !P.warp) st = sa_malloc(r, &r.d_rng, streams * sizeof(wt_rng), err);
    if (st == WT_OK) st = sa_malloc(r, &r.d_key, tb * sizeof(long long), err);
    if (st == WT_OK) st = sa_malloc(r, &r.d_stop, sizeof(int), err);
    if (st != WT_OK) return st;
    WT_CUDA_CHECK(err, cudaMemsetAsync(r.d_stop, 0, sizeof(int), r.ctx.stream));
    WT_CUDA_CHECK(err, cudaMemsetAsync(r.d_search, 0, tb * sizeof(SaSearch), r.ctx.stream));
    /* 0x7f7f...: above any length, until the searches publish theirs. */
    WT_CUDA_CHECK(err, cudaMemsetAsync(r.d_key, 0x7f, tb * sizeof(long long), r.ctx.stream));
    r.h_key.resize(tb);
    if (P.warp) {
        std::vector<double2> xy(n);
        for (size_t c = 0; c < n; c++) xy[c] = make_double2(inst->x[c], inst->y[c]);
        st = sa_upload(r, r.d_xy, xy.data(), n * sizeof(double2), err);
        if (st != WT_OK) return st;
    }
    return sa_seed(job, P, r, err);
}

/* The k nearest cities of every city, for local moves: built on the host
 * by the very call of cpu_sa.c (so the same lists, ties and all) and
 * uploaded to r.d_near.  k is job->near clamped to n - 1, as the CPU
 * clamps it. */
wt_status sa_upload_near(const wt_instance *inst, int k, SaResources &r, wt_error *err)
{
    size_t count = (size_t)inst->n * (size_t)k;
    int32_t *h_near = (int32_t *)malloc(count * sizeof *h_near);
    if (!h_near) return wt_fail(err, WT_STATUS_OUT_OF_MEMORY, "sa: out of memory");
    wt_status st = wt_neighbour_lists(inst, k, h_near, err);
    if (st == WT_OK) st = sa_malloc(r, &r.d_near, count * sizeof *h_near, err);
    if (st == WT_OK) st = sa_upload(r, r.d_near, h_near, count * sizeof *h_near, err);
    free(h_near);
    return st;
}

/* Uploads the start tour as the tour every search restarts from.  The
 * upload waits for `stream`, so every allocation and set-up copy before it
 * is complete: from then on `control` may touch the buffers too. */
wt_status sa_upload_start(const int32_t *tour, int n, SaResources &r, wt_error *err)
{
    std::vector<int32_t> next((size_t)n);
    for (int i = 0; i < n; i++) next[(size_t)tour[i]] = tour[i + 1 < n ? i + 1 : 0];
    return sa_upload(r, r.d_global, next.data(), (size_t)n * sizeof(int32_t), err);
}

/* The host's side of a run. */
struct SaHost {
    const wt_instance *inst;
    wt_search_ctl *ctl;
    SaResources *r;
    const SaPlan *P;
    std::vector<SaSearch> search; /* after the last launch */
    long long best;               /* least min(cur, best) known */
    unsigned long long improved;  /* summed at the last epoch's end */
    bool stop_sent;
    double next_snapshot;         /* when the wait copies d_key back next */
};

/* The least length the searches published, for a progress report. */
wt_status sa_snapshot(SaHost &h, wt_error *err)
{
    size_t tb = (size_t)h.P->searches;
    WT_CUDA_CHECK(err, cudaMemcpyAsync(h.r->h_key.data(), h.r->d_key, tb * sizeof(long long),
                                       cudaMemcpyDeviceToHost, h.r->ctx.control));
    WT_CUDA_CHECK(err, cudaStreamSynchronize(h.r->ctx.control));
    for (size_t s = 0; s < tb; s++)
        if (h.r->h_key[s] < h.best) h.best = h.r->h_key[s];
    return WT_OK;
}

/* cuda_wait's look: the searches' published lengths copied back every
 * 50 ms, a progress report (which says whether to stop) at every poll. */
wt_status look_at_searches(void *p, double waited_s, bool *stop, wt_error *err)
{
    (void)waited_s;
    SaHost &h = *(SaHost *)p;
    double now = wt_now();
    if (now >= h.next_snapshot) {
        wt_status st = sa_snapshot(h, err);
        if (st != WT_OK) return st;
        h.next_snapshot = now + 0.05;
    }
    *stop = wt_ctl_report(h.ctl, h.best, h.improved, false);
    return WT_OK;
}

/* Waits for a launch, reporting progress and forwarding stop requests. */
wt_status sa_wait(SaHost &h, wt_error *err)
{
    h.next_snapshot = wt_now() + 0.05;
    CudaWatch w = {"sa kernel", h.r->d_stop, 0.0, 200, look_at_searches, &h};
    return cuda_wait(h.r->ctx, w, &h.stop_sent, err);
}

/* Reads the searches back; returns the best one (least min(cur, best),
 * ties to the lower index: cpu_sa.c's sa_settle). */
wt_status sa_collect(SaHost &h, int *win, wt_error *err)
{
    size_t tb = (size_t)h.P->searches;
    WT_CUDA_CHECK(err, cudaMemcpyAsync(h.search.data(), h.r->d_search, tb * sizeof(SaSearch),
                                       cudaMemcpyDeviceToHost, h.r->ctx.stream));
    WT_CUDA_CHECK(err, cudaStreamSynchronize(h.r->ctx.stream));
    int w = 0;
    long long wl = LLONG_MAX;
    unsigned long long improved = 0;
    for (size_t s = 0; s < tb; s++) {
        const SaSearch &se = h.search[s];
        long long l = se.cur_len < se.best_len ? se.cur_len : se.best_len;
        if (l < wl) {
            wl = l;
            w = (int)s;
        }
        improved += se.improved;
    }
    h.best = wl;
    h.improved = improved;
    *win = w;
    return WT_OK;
}

/* Successors of search w's best tour, on the device. */
const int32_t *sa_winner_next(const SaHost &h, int w)
{
    size_t n = (size_t)h.inst->n;
    const SaSearch &se = h.search[(size_t)w];
    if (se.cur_len < se.best_len) return h.r->d_cur + (size_t)w * 2 * n + n;
    return h.r->d_best + (size_t)w * n;
}

wt_status sa_launch(const SaHost &h, const SaArgs &a, wt_error *err)
{
    const SaPlan &P = *h.P;
    P.kernel<<<P.searches, P.block, P.smem, h.r->ctx.stream>>>(a);
    WT_CUDA_CHECK(err, cudaGetLastError());
    return WT_OK;
}

/* The epochs: launch, wait, pick the best, restart everyone from it. */
wt_status sa_epochs(SaHost &h, const wt_sa_job *job, SaArgs &a, double *t_after, bool *ran,
                    int *win, wt_error *err)
{
    double t = job->t_start;
    uint64_t step = 0;
    *ran = false;
    for (;;) {
        double t0 = t;
        uint64_t m = wt_sa_schedule(&t, &step, job->t_end, job->alpha, (uint64_t)job->exchange);
        if (m == 0) break;
        h.ctl->temperature = t0;
        if (h.stop_sent || wt_ctl_report(h.ctl, h.best, h.improved, false)) break;
        a.t0 = t0;
        a.steps = m;
        wt_status st = sa_launch(h, a, err);
        if (st == WT_OK) st = sa_wait(h, err);
        if (st == WT_OK) st = sa_collect(h, win, err);
        if (st != WT_OK) return st;
        *ran = true;
        a.restart = 0;
        if (h.stop_sent) break;
        if (job->searches > 1 && t > job->t_end) {
            size_t n = (size_t)h.inst->n;
            WT_CUDA_CHECK(err, cudaMemcpyAsync(h.r->d_global, sa_winner_next(h, *win),
                                               n * sizeof(int32_t), cudaMemcpyDeviceToDevice,
                                               h.r->ctx.stream));
            a.restart = 1;
            a.global_len = h.best;
        }
    }
    *t_after = t;
    return WT_OK;
}

/* The tour of search w's best, from city 0, and the run's counters. */
wt_status sa_finish(SaHost &h, int w, bool stopped, double t_after, int32_t *tour,
                    wt_search_stats *stats, const wt_sa_job *job, wt_cuda_sa_opts *opts,
                    wt_error *err)
{
    int n = h.inst->n;
    std::vector<int32_t> next((size_t)n);
    WT_CUDA_CHECK(err, cudaMemcpyAsync(next.data(), sa_winner_next(h, w),
                                       (size_t)n * sizeof(int32_t), cudaMemcpyDeviceToHost,
                                       h.r->ctx.stream));
    WT_CUDA_CHECK(err, cudaStreamSynchronize(h.r->ctx.stream));
    int32_t c = 0;
    for (int i = 0; i < n; i++, c = next[(size_t)c]) tour[i] = c;
    uint64_t iterations = 0, accepted = 0, improved = 0;
    double t_reached = h.search[0].t;
    for (const SaSearch &se : h.search) {
        iterations += se.iterations;
        accepted += se.accepted;
        improved += se.improved;
        opts->worsened += se.worsened;
        t_reached = se.t < t_reached ? se.t : t_reached;
    }
    stats->iterations += iterations;
    stats->moves_evaluated += iterations * (uint64_t)job->moves;
    stats->accepted += accepted;
    stats->steps += improved;
    stats->temperature = stopped ? t_reached : t_after;
    return WT_OK;
}

} // namespace

extern "C" wt_status wt_cuda_sa_run(const wt_instance *inst, wt_sa_job *job, wt_search_ctl *ctl,
                                    int32_t *tour, wt_search_stats *stats, wt_cuda_sa_opts *opts,
                                    wt_error *err)
{
    if (!inst || !job || !ctl || !tour || !stats || !opts || inst->n < 3)
        return wt_fail(err, WT_STATUS_INVALID_ARGUMENT, "wt_cuda_sa: bad arguments");
    wt_status valid = wt_sa_job_check(job, "wt_cuda_sa", err);
    if (valid != WT_OK) return valid;
    opts->device_best = -1;
    opts->worsened = 0;
    SaResources r;
    SaPlan P;
    wt_status st = cuda_context_open(opts->device, &r.ctx, err);
    if (st == WT_OK) st = sa_plan(inst, job, r.ctx, opts->force_global, opts->force_block, &P, err);
    if (st != WT_OK) return st;
    /* Local moves: cpu_sa.c's clamp, so that the lists are the same. */
    int near_k = job->near < inst->n - 1 ? job->near : inst->n - 1;
    opts->warp_kernel = P.warp;
    job->searches = P.searches;
    job->moves = P.moves;
    job->near = near_k;
    opts->lists_shared = P.lists_shared;
    opts->coords_shared = P.coords_shared;
    st = sa_alloc(inst, job, P, r, err);
    if (st == WT_OK && near_k > 0) st = sa_upload_near(inst, near_k, r, err);
    if (st == WT_OK) st = sa_upload_start(tour, inst->n, r, err);
    if (st != WT_OK) return st;

    SaArgs a;
    memset(&a, 0, sizeof a);
    a.inst = r.inst.inst;
    a.n = inst->n;
    a.moves = P.moves;
    a.step_iters = (unsigned long long)inst->n * (unsigned long long)job->sweeps;
    a.alpha = job->alpha;
    a.restart = 1;
    a.lists_shared = P.lists_shared;
    a.coords_shared = P.coords_shared;
    a.global_len = wt_tour_length(inst, tour);
    a.cur = r.d_cur;
    a.best = r.d_best;
    a.global = r.d_global;
    a.search = r.d_search;
    a.rng = r.d_rng;
    a.key = r.d_key;
    a.stop = r.d_stop;
    a.xy = r.d_xy;
    a.look = r.d_look;
    a.near_nb = r.d_near;
    a.near_k = near_k;

    SaHost h = {inst, ctl, &r, &P, std::vector<SaSearch>((size_t)P.searches), a.global_len, 0,
                false, 0.0};
    double t_after = job->t_start;
    bool ran = false;
    int win = 0;
    st = sa_epochs(h, job, a, &t_after, &ran, &win, err);
    if (st != WT_OK) return st;
    bool stopped = h.stop_sent || ctl->stop != WT_STOP_DONE;
    if (!ran) { /* stopped before the first launch: the start tour stands */
        stats->temperature = job->t_start;
        ctl->temperature = job->t_start;
        return WT_OK;
    }
    st = sa_finish(h, win, stopped, t_after, tour, stats, job, opts, err);
    if (st != WT_OK) return st;
    ctl->temperature = stats->temperature;
    opts->device_best = h.best;
    return WT_OK;
}

extern "C" wt_status wt_cuda_sa(const wt_device *dev, const wt_instance *inst, wt_sa_job *job,
                                wt_search_ctl *ctl, int32_t *tour, wt_search_stats *stats,
                                wt_error *err)
{
    wt_cuda_sa_opts opts;
    memset(&opts, 0, sizeof opts);
    opts.device = dev->index;
    return wt_cuda_sa_run(inst, job, ctl, tour, stats, &opts, err);
}
