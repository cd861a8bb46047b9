/*
 * cuda_bound.cu - the complete graph's minimum 1-tree under penalties on
 * the GPU (cuda_bound.h): the ascent's proven bound, equal to the host's
 * (core/onetree_complete.c) bit for bit.
 *
 * The host's tree is THE minimum spanning tree under the total order
 * (c_pi, lower city, higher city), c_pi(i, j) = 100 d(i, j) + pi[i] +
 * pi[j]; its special edge the dearest of the leaves' second cheapest
 * edges.  Boruvka's rounds under the same order give the same tree:
 *   1. each city, a thread a city in the grid's order, reads rings of
 *      cells around its own for its cheapest edge to another component,
 *      skipping cells whose cities all share its component and cells whose
 *      lower bound (100 times the distance across the cells' gap, its own
 *      pi and the cell's least pi) cannot beat the best it knows: its own,
 *      or its component's best so far, which every city publishes by a
 *      64-bit atomicMin of the cost as it finds it.  It stops once no
 *      farther ring can beat that.  A first pass reads up to NEAR_RINGS
 *      rings, so that the components' bests are known before the cities
 *      far inside a component, which the first pass left undecided, read
 *      up to FAR_RINGS in a second; a city still undecided then (a
 *      component whose cheapest edge lies farther: far-apart clusters)
 *      makes the bound UNSUPPORTED, and the host's k-d tree answers.
 *   2. each component's winner by the whole order: the least cost (step
 *      1's atomics), then among the cities at that cost the least
 *      (lower city, higher city) pair by a second 64-bit atomicMin;
 *   3. each component hooks onto the component at its winner's other end
 *      (of two that chose the same edge, the lower stays a root and the
 *      higher adds the edge), the tree's weight summed by an integer
 *      atomic (exact in any order), each end's degree counted, and each
 *      old root walks its hooks up to its new root; the cities relabelled.
 *   Until one component is left, about log2 n rounds, the host reading a
 *   few integers a round.  Then each leaf's second cheapest edge (the same
 *   ring search, any city but itself and its tree neighbour) and the
 *   dearest of them by a 64-bit atomicMax.
 * Hand-written: the search of a varying neighbourhood against a bound that
 * other threads lower has no library primitive (the grid itself is CUB's
 * sort and scan, cuda_grid.cu).  The distances are the host's formulas in
 * the same IEEE operations (dev_planar_dist), so every cost is the host's.
 *
 * Memory on the GPU: the grid's (48 bytes a city, 8 a cell) and 72 bytes
 * a city (penalties, components, answers, winners, hooks, degrees) and 8
 * a cell (labels, least penalties); checked against cudaMemGetInfo first.
 */
#include <cstdint>
#include <new>

#include "backend/cuda/cuda_bound.h"
#include "backend/cuda/cuda_common.cuh"
#include "backend/cuda/cuda_grid.cuh"
#include "backend/cuda/device_arena.cuh"
#include "backend/cuda/device_instance.cuh"
#include "core/onetree.h"

namespace {

using wt_grid::Grid;
using wt_grid::GridBuffers;

constexpr int NEAR_RINGS = 3, FAR_RINGS = 48, THREADS = 128;
constexpr int64_t NONE = INT64_MAX;
/* A city's `reached` before its first pass: below every cost, which
 * penalties can make negative. */
constexpr int64_t UNREAD = INT64_MIN;
constexpr int CELL_EMPTY = -2, CELL_MIXED = -1;

/* The device state of one bound, by the grid's sorted places: a city's
 * component is the sorted place of its root. */
struct Bound {
    int n = 0, cells = 0;
    int32_t *pi = nullptr, *comp = nullptr, *best_v = nullptr, *win_u = nullptr;
    int32_t *win_v = nullptr, *hook = nullptr, *root_of = nullptr, *deg = nullptr;
    int32_t *nbr = nullptr, *cell_label = nullptr, *cell_min_pi = nullptr;
    int64_t *best_c = nullptr, *reached = nullptr, *comp_cost = nullptr;
    uint64_t *comp_pair = nullptr;
    long long *figs = nullptr; /* weight, special, roots, undecided */
    int32_t *pi_in = nullptr;  /* the penalties as given, in the instance's numbering */
    void *block = nullptr;     /* the one allocation of the arrays above */
    long long h_figs[4] = {0, 0, 0, 0};
};

enum { FIG_WEIGHT, FIG_SPECIAL, FIG_ROOTS, FIG_UNDECIDED };

/* What the ring search of one city needs. */
struct Search {
    const double *sx, *sy;
    const int32_t *scity, *skey, *start;
    Grid g;
    wt_edge_weight_type type;
    int32_t min_pi; /* the least penalty of all */
};

__device__ __forceinline__ int64_t cost_of(const Search &s, const Bound &b, int p, int q)
{
    int64_t d = dev_planar_dist(s.type, __dsub_rn(s.sx[p], s.sx[q]), __dsub_rn(s.sy[p], s.sy[q]));
    return WT_ONETREE_SCALE * d + b.pi[p] + b.pi[q];
}

/* The edge's place in the host's order among equal costs: (lower city,
 * higher city) of the instance's numbering. */
__device__ __forceinline__ uint64_t pair_of(const Search &s, int p, int q)
{
    uint64_t a = (uint64_t)s.scity[p], c = (uint64_t)s.scity[q];
    return a < c ? a << 32 | c : c << 32 | a;
}

__device__ __forceinline__ bool edge_less(int64_t c1, uint64_t k1, int64_t c2, uint64_t k2)
{
    return c1 < c2 || (c1 == c2 && k1 < k2);
}

/* The least cost of an edge from p to a city r + 1 cells away or more. */
__device__ __forceinline__ int64_t ring_floor(const Search &s, const Bound &b, int p, int r)
{
    double gap = r * s.g.side - 2 * wt_grid::GRID_DELTA * s.g.side;
    int64_t d = gap > 0 ? dev_planar_dist(s.type, gap, 0.0) : 0;
    return WT_ONETREE_SCALE * d + b.pi[p] + s.min_pi;
}

/* The ring search of sorted place p for its cheapest edge by the order,
 * over cities that are not p or `skip` and (own >= 0) not of component
 * own, up to `rings` rings; *cost, *q its best (NONE, -1: none found).
 * Returns the least cost an unread city may have: NONE when the search
 * is decided (no unread city can beat its best, or its component's best
 * in *bar where bar is not NULL, which it lowers as it finds better). */
__device__ int64_t ring_search(const Search &s, const Bound &b, int p, int skip, int own,
                               int rings, long long *bar, int64_t *cost, int *q)
{
    int64_t best = NONE;
    uint64_t best_k = UINT64_MAX;
    int best_q = -1;
    const int cell = s.skey[p], cx = cell % s.g.gx, cy = cell / s.g.gx;
    const int last = wt_grid::last_ring(s.g, cx, cy);
    int64_t left = NONE;
    for (int r = 0;; r++) {
        int64_t limit = best;
        if (bar) {
            int64_t shared = *(volatile long long *)bar;
            if (shared < limit) limit = shared;
        }
        wt_grid::ring_cells(s.g, cx, cy, r, [&](int c, int dx, int dy) {
            int label = b.cell_label[c];
            if (label == CELL_EMPTY || (own >= 0 && label == own)) return;
            int64_t cell_floor =
                WT_ONETREE_SCALE * dev_planar_dist(s.type, wt_grid::cells_gap(s.g, dx),
                                                   wt_grid::cells_gap(s.g, dy)) +
                b.pi[p] + b.cell_min_pi[c];
            if (cell_floor > limit) return;
            for (int j = s.start[c]; j < s.start[c + 1]; j++) {
                if (j == p || j == skip || (own >= 0 && b.comp[j] == own)) continue;
                int64_t e = cost_of(s, b, p, j);
                if (e > limit) continue; /* neither its best nor its component's */
                uint64_t k = pair_of(s, p, j);
                if (!edge_less(e, k, best, best_k)) continue;
                best = e;
                best_k = k;
                best_q = j;
                if (bar && e < limit) atomicMin(bar, (long long)e);
                if (e < limit) limit = e;
            }
        });
        if (bar) {
            int64_t shared = *(volatile long long *)bar;
            if (shared < limit) limit = shared;
        }
        int64_t floor_r = ring_floor(s, b, p, r);
        if (r >= last || floor_r > limit) break; /* decided */
        if (r + 1 >= rings) {
            left = floor_r;
            break;
        }
    }
    *cost = best;
    *q = best_q;
    return left;
}

/* Each cell's label (its cities' component where they share one) and, the
 * first time (min_pi), its least penalty. */
__global__ void cells_kernel(Search s, Bound b, bool min_pi)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (c >= b.cells) return;
    int lo = s.start[c], hi = s.start[c + 1];
    if (lo == hi) {
        b.cell_label[c] = CELL_EMPTY;
        if (min_pi) b.cell_min_pi[c] = INT32_MAX;
        return;
    }
    int label = b.comp[lo];
    int32_t least = b.pi[lo];
    for (int j = lo + 1; j < hi; j++) {
        if (b.comp[j] != label) label = CELL_MIXED;
        if (b.pi[j] < least) least = b.pi[j];
    }
    b.cell_label[c] = label;
    if (min_pi) b.cell_min_pi[c] = least;
}

__global__ void round_start_kernel(Bound b)
{
    int p = blockIdx.x * blockDim.x + threadIdx.x;
    if (p >= b.n) return;
    if (b.comp[p] == p) {
        b.comp_cost[p] = NONE;
        b.comp_pair[p] = UINT64_MAX;
        b.win_u[p] = -1;
    }
    b.best_c[p] = NONE;
    b.best_v[p] = -1;
    b.reached[p] = UNREAD; /* every city searches in the first pass */
}

/* One pass of step 1 over the cities still undecided (reached at most
 * their component's best). */
__global__ void cheapest_kernel(Search s, Bound b, int rings)
{
    int p = blockIdx.x * blockDim.x + threadIdx.x;
    if (p >= b.n) return;
    int own = b.comp[p];
    if (b.reached[p] == NONE || b.reached[p] > b.comp_cost[own]) return;
    int64_t cost;
    int q;
    int64_t left = ring_search(s, b, p, -1, own, rings, (long long *)&b.comp_cost[own], &cost, &q);
    if (q >= 0 && (b.best_v[p] < 0 || edge_less(cost, pair_of(s, p, q), b.best_c[p],
                                                  pair_of(s, p, b.best_v[p])))) {
        b.best_c[p] = cost;
        b.best_v[p] = q;
    }
    b.reached[p] = left;
}

/* The cities a pass left undecided that might still win: counted. */
__global__ void undecided_kernel(Bound b)
{
    int p = blockIdx.x * blockDim.x + threadIdx.x;
    if (p >= b.n) return;
    if (b.reached[p] != NONE && b.reached[p] <= b.comp_cost[b.comp[p]])
        atomicAdd((unsigned long long *)&b.figs[FIG_UNDECIDED], 1ull);
}

__global__ void pair_kernel(Search s, Bound b)
{
    int p = blockIdx.x * blockDim.x + threadIdx.x;
    if (p >= b.n || b.best_v[p] < 0) return;
    int own = b.comp[p];
    if (b.best_c[p] == b.comp_cost[own])
        atomicMin((unsigned long long *)&b.comp_pair[own],
                  (unsigned long long)pair_of(s, p, b.best_v[p]));
}

__global__ void winner_kernel(Search s, Bound b)
{
    int p = blockIdx.x * blockDim.x + threadIdx.x;
    if (p >= b.n || b.best_v[p] < 0) return;
    int own = b.comp[p];
    if (b.best_c[p] == b.comp_cost[own] && pair_of(s, p, b.best_v[p]) == b.comp_pair[own]) {
        b.win_u[own] = p;
        b.win_v[own] = b.best_v[p];
    }
}

__global__ void hook_kernel(Bound b)
{
    int p = blockIdx.x * blockDim.x + threadIdx.x;
    if (p >= b.n || b.comp[p] != p) return;
    b.hook[p] = b.win_u[p] < 0 ? p : b.comp[b.win_v[p]];
}

/* Of two roots hooked onto each other (the same edge), the lower stays a
 * root; every other hook adds its edge. */
__global__ void join_kernel(Bound b)
{
    int p = blockIdx.x * blockDim.x + threadIdx.x;
    if (p >= b.n || b.comp[p] != p) return;
    int to = b.hook[p];
    if (to == p || (b.hook[to] == p && p < to)) {
        b.root_of[p] = p;
        return;
    }
    b.root_of[p] = to;
    int u = b.win_u[p], v = b.win_v[p];
    atomicAdd((unsigned long long *)&b.figs[FIG_WEIGHT], (unsigned long long)b.comp_cost[p]);
    atomicAdd(&b.deg[u], 1);
    atomicAdd(&b.deg[v], 1);
    b.nbr[u] = v;
    b.nbr[v] = u;
}

/* Each old root's new root, by walking the hooks (join_kernel left the
 * roots that stay pointing at themselves). */
__global__ void jump_kernel(Bound b)
{
    int p = blockIdx.x * blockDim.x + threadIdx.x;
    if (p >= b.n || b.comp[p] != p) return;
    int r = p;
    while (b.root_of[r] != r) r = b.root_of[r];
    b.hook[p] = r;
    if (r == p) atomicAdd((unsigned long long *)&b.figs[FIG_ROOTS], 1ull);
}

__global__ void relabel_kernel(Bound b)
{
    int p = blockIdx.x * blockDim.x + threadIdx.x;
    if (p < b.n) b.comp[p] = b.hook[b.comp[p]];
}

/* Each leaf's second cheapest edge; the dearest into FIG_SPECIAL. */
__global__ void special_kernel(Search s, Bound b)
{
    int p = blockIdx.x * blockDim.x + threadIdx.x;
    if (p >= b.n || b.deg[p] != 1) return;
    int64_t cost;
    int q;
    int64_t left = ring_search(s, b, p, b.nbr[p], -1, FAR_RINGS, nullptr, &cost, &q);
    if (left != NONE || q < 0)
        atomicAdd((unsigned long long *)&b.figs[FIG_UNDECIDED], 1ull);
    else
        atomicMax(&b.figs[FIG_SPECIAL], (long long)cost);
}

__global__ void start_kernel(const int32_t *pi, const int32_t *scity, Bound b)
{
    int p = blockIdx.x * blockDim.x + threadIdx.x;
    if (p >= b.n) return;
    b.pi[p] = pi[scity[p]];
    b.comp[p] = p;
    b.deg[p] = 0;
}

/* b's arrays in one block (device_arena.cuh). */
wt_status bound_open(Bound &b, int n, int cells, wt_error *err)
{
    b.n = n;
    b.cells = cells;
    wt_cuda::ArenaPlan plan;
    int32_t **city32[] = {&b.pi,  &b.comp,    &b.best_v, &b.win_u, &b.win_v,
                          &b.hook, &b.root_of, &b.deg,    &b.nbr,   &b.pi_in};
    for (int32_t **a : city32) plan.add(a, n);
    int64_t **city64[] = {&b.best_c, &b.reached, &b.comp_cost};
    for (int64_t **a : city64) plan.add(a, n);
    plan.add(&b.comp_pair, n);
    plan.add(&b.cell_label, cells);
    plan.add(&b.cell_min_pi, cells);
    plan.add(&b.figs, 4);
    WT_CUDA_CHECK(err, plan.allocate(&b.block));
    return WT_OK;
}

void bound_close(Bound &b)
{
    if (b.block) cudaFree(b.block);
    b.block = nullptr;
}

wt_status read_figs(Bound &b, cudaStream_t st, wt_error *err)
{
    WT_CUDA_CHECK(err, cudaMemcpyAsync(b.h_figs, b.figs, sizeof b.h_figs, cudaMemcpyDeviceToHost, st));
    WT_CUDA_CHECK(err, cudaStreamSynchronize(st));
    return WT_OK;
}

/* One Boruvka round (steps 1 to 3); *roots: the components left. */
wt_status round(const Search &s, Bound &b, cudaStream_t st, long long *roots, wt_error *err)
{
    int blocks = (b.n + THREADS - 1) / THREADS, cell_blocks = (b.cells + THREADS - 1) / THREADS;
    long long zero[2] = {0, 0};
    cells_kernel<<<cell_blocks, THREADS, 0, st>>>(s, b, false);
    round_start_kernel<<<blocks, THREADS, 0, st>>>(b);
    cheapest_kernel<<<blocks, THREADS, 0, st>>>(s, b, NEAR_RINGS);
    cheapest_kernel<<<blocks, THREADS, 0, st>>>(s, b, FAR_RINGS);
    WT_CUDA_CHECK(err, cudaMemcpyAsync(&b.figs[FIG_ROOTS], zero, sizeof zero, cudaMemcpyHostToDevice, st));
    undecided_kernel<<<blocks, THREADS, 0, st>>>(b);
    pair_kernel<<<blocks, THREADS, 0, st>>>(s, b);
    winner_kernel<<<blocks, THREADS, 0, st>>>(s, b);
    hook_kernel<<<blocks, THREADS, 0, st>>>(b);
    join_kernel<<<blocks, THREADS, 0, st>>>(b);
    jump_kernel<<<blocks, THREADS, 0, st>>>(b);
    relabel_kernel<<<blocks, THREADS, 0, st>>>(b);
    WT_CUDA_CHECK(err, cudaGetLastError());
    wt_status status = read_figs(b, st, err);
    if (status != WT_OK) return status;
    *roots = b.h_figs[FIG_ROOTS];
    if (b.h_figs[FIG_UNDECIDED] > 0)
        return wt_fail(err, WT_STATUS_UNSUPPORTED,
                       "complete bound: %lld cities' cheapest edges lie beyond %d rings of the "
                       "GPU's grid",
                       b.h_figs[FIG_UNDECIDED], FAR_RINGS);
    return WT_OK;
}

bool asked(const wt_init_stop *stop) { return stop && stop->should_stop && stop->should_stop(stop->user); }

/* The bound's kernels loaded now (wt_cuda_load_kernels). */
void load_kernels()
{
    const void *kernels[] = {(const void *)cells_kernel,   (const void *)round_start_kernel,
                             (const void *)cheapest_kernel, (const void *)undecided_kernel,
                             (const void *)pair_kernel,     (const void *)winner_kernel,
                             (const void *)hook_kernel,     (const void *)join_kernel,
                             (const void *)jump_kernel,     (const void *)relabel_kernel,
                             (const void *)special_kernel,  (const void *)start_kernel};
    wt_cuda_load_kernels(kernels, sizeof kernels / sizeof *kernels);
}

wt_status bound_on(const wt_instance *inst, const int32_t *pi, const wt_init_stop *stop,
                   GridBuffers &gb, Bound &b, int64_t *bound, bool *stopped, wt_error *err)
{
    int n = inst->n, blocks = (n + THREADS - 1) / THREADS;
    int cells = gb.g.gx * gb.g.gy;
    cudaStream_t st = gb.stream;
    int32_t min_pi = pi[0];
    int64_t sum_pi = 0;
    for (int i = 0; i < n; i++) {
        if (pi[i] < min_pi) min_pi = pi[i];
        sum_pi += pi[i];
    }
    Search s{gb.sx, gb.sy, gb.scity, gb.skey, gb.start, gb.g, inst->type, min_pi};
    WT_CUDA_CHECK(err, cudaMemcpyAsync(b.pi_in, pi, (size_t)n * sizeof(int32_t),
                                       cudaMemcpyHostToDevice, st));
    long long init[4] = {0, INT64_MIN, 0, 0};
    WT_CUDA_CHECK(err, cudaMemcpyAsync(b.figs, init, sizeof init, cudaMemcpyHostToDevice, st));
    start_kernel<<<blocks, THREADS, 0, st>>>(b.pi_in, gb.scity, b);
    cells_kernel<<<(cells + THREADS - 1) / THREADS, THREADS, 0, st>>>(s, b, true);
    WT_CUDA_CHECK(err, cudaGetLastError());
    wt_status status = WT_OK;
    for (long long roots = n; roots > 1;) {
        if (asked(stop)) {
            *stopped = true;
            return WT_OK;
        }
        long long before = roots;
        status = round(s, b, st, &roots, err);
        if (status != WT_OK) return status;
        if (roots >= before)
            return wt_fail(err, WT_STATUS_DEVICE, "complete bound: a Boruvka round joined nothing");
    }
    special_kernel<<<blocks, THREADS, 0, st>>>(s, b);
    WT_CUDA_CHECK(err, cudaGetLastError());
    status = read_figs(b, st, err);
    if (status != WT_OK) return status;
    if (b.h_figs[FIG_UNDECIDED] > 0 || b.h_figs[FIG_SPECIAL] == INT64_MIN)
        return wt_fail(err, WT_STATUS_UNSUPPORTED,
                       "complete bound: a leaf's second edge lies beyond %d rings of the GPU's grid",
                       FAR_RINGS);
    *bound = b.h_figs[FIG_WEIGHT] + b.h_figs[FIG_SPECIAL] - 2 * sum_pi;
    return WT_OK;
}

} // namespace

/* The prepared bound of cuda_bound.h: the grid and the arrays. */
struct wt_cuda_bound {
    int device = 0;
    const wt_instance *inst = nullptr;
    GridBuffers gb;
    Bound b;
};

extern "C" wt_status wt_cuda_bound_open(int device, const wt_instance *inst, wt_cuda_bound **out,
                                        wt_error *err)
{
    if (!inst || !out || inst->n < 3)
        return wt_fail(err, WT_STATUS_INVALID_ARGUMENT, "complete bound: bad arguments");
    *out = nullptr;
    if (!wt_is_planar(inst->type) || !inst->x || !inst->y)
        return wt_fail(err, WT_STATUS_UNSUPPORTED,
                       "complete bound: the GPU takes planar coordinates only");
    Grid g;
    if (!wt_grid::grid_of(inst, &g))
        return wt_fail(err, WT_STATUS_UNSUPPORTED,
                       "complete bound: no grid fits the points' extent");
    if (cudaSetDevice(device) != cudaSuccess) {
        (void)cudaGetLastError();
        return wt_fail(err, WT_STATUS_DEVICE, "complete bound: no CUDA device %d", device);
    }
    wt_cuda_bound *h = new (std::nothrow) wt_cuda_bound;
    if (!h) return wt_fail(err, WT_STATUS_OUT_OF_MEMORY, "complete bound: out of host memory");
    h->device = device;
    h->inst = inst;
    int n = inst->n;
    size_t cells = (size_t)g.gx * (size_t)g.gy, extra = (size_t)n * 72 + cells * 8;
    wt_status st = wt_grid::grid_open(inst, g, extra, "complete bound", h->gb, err);
    if (st == WT_OK && h->gb.most > WT_CUDA_BOUND_CELL_MAX)
        st = wt_fail(err, WT_STATUS_UNSUPPORTED,
                     "complete bound: a grid cell holds %d cities (more than %d)", h->gb.most,
                     WT_CUDA_BOUND_CELL_MAX);
    if (st == WT_OK) st = bound_open(h->b, n, (int)cells, err);
    if (st != WT_OK) {
        wt_cuda_bound_close(h);
        return st;
    }
    load_kernels();
    *out = h;
    return WT_OK;
}

extern "C" wt_status wt_cuda_bound_compute(wt_cuda_bound *h, const int32_t *pi,
                                           const wt_init_stop *stop, int64_t *bound,
                                           bool *stopped, wt_error *err)
{
    if (!h || !pi || !bound || !stopped)
        return wt_fail(err, WT_STATUS_INVALID_ARGUMENT, "complete bound: bad arguments");
    *stopped = false;
    if (cudaSetDevice(h->device) != cudaSuccess) {
        (void)cudaGetLastError();
        return wt_fail(err, WT_STATUS_DEVICE, "complete bound: no CUDA device %d", h->device);
    }
    return bound_on(h->inst, pi, stop, h->gb, h->b, bound, stopped, err);
}

extern "C" void wt_cuda_bound_close(wt_cuda_bound *h)
{
    if (!h) return;
    (void)cudaSetDevice(h->device);
    bound_close(h->b);
    wt_grid::grid_close(h->gb);
    delete h;
}

extern "C" wt_status wt_cuda_complete_bound(int device, const wt_instance *inst,
                                            const int32_t *pi, const wt_init_stop *stop,
                                            int64_t *bound, bool *stopped, wt_error *err)
{
    if (!inst || !pi || !bound || !stopped || inst->n < 3)
        return wt_fail(err, WT_STATUS_INVALID_ARGUMENT, "complete bound: bad arguments");
    *stopped = false;
    wt_cuda_bound *h = nullptr;
    wt_status st = wt_cuda_bound_open(device, inst, &h, err);
    if (st == WT_OK) st = wt_cuda_bound_compute(h, pi, stop, bound, stopped, err);
    wt_cuda_bound_close(h);
    return st;
}
