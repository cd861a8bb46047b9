/*
 * cuda_ascent.cu - the Held-Karp ascent's subgradient steps on the GPU
 * (the cuda backend's ascent slot), equal to the cpu backend's bit for bit.
 *
 * The sparse graph's edges in (eu, ev) order, those of core/onetree.h's
 * wt_sgraph_create: built on the GPU from the job's rows for planar points
 * (cuda_ascent_graph.cu), else by the host and uploaded; then every step
 * runs on the GPU, and the host reads a few bytes back a step to drive the
 * step rule (core/ascent_rule.h), the cpu backend's code:
 *   1. keys: each edge's (c_pi + 2^31) << 31 | e, where c_pi = 100 d +
 *      pi[u] + pi[v] lies in [-2^31, 2^32 + 2^30] (penalties within +-2^30,
 *      scaled lengths within 2^30) and e < 2^31: the keys' order is the
 *      total order (c_pi, edge index), and edge index order is (eu, ev)
 *      order, that of the host's Kruskal (onetree.h): the minimum spanning
 *      tree is the host's, edge for edge.
 *   2. Boruvka (1926): each component's cheapest outgoing edge by a 64-bit
 *      atomicMin of the keys of the edges that join two components; each
 *      component hooks onto the component at that edge's other end (of two
 *      that chose the same edge, the lower label stays a root and adds the
 *      edge once), each city's label jumps up to its new root; until n - 1 edges,
 *      about log2 n rounds.  Hand-written: CUB has no "minimum of each
 *      segment" for segments (the components) that change every round over
 *      an unsorted edge list, and a sort of the edges by component each
 *      round would cost far more than these atomics.
 *   3. the special node: each leaf's second-cheapest graph edge (the
 *      minimum key over the edges at a leaf but its tree edge: at a city,
 *      edge index order is the other city's order, the host's tie), then
 *      the leaf whose second edge is dearest, ties to the lower city, by
 *      cub::DeviceReduce::Max over (cost, -city) packed in a uint64.
 *   4. the figures: the tree's weight, sum pi and sum (degree - 2)^2 by
 *      cub::DeviceReduce::Sum in int64, exact (integer sums do not depend
 *      on their order), read back with the special edge's cost.
 *   5. the pi update (wt_ascent_pi_next, the host's function), and a
 *      device copy of pi when the rule says it is the best.
 * Those phases run one of two ways.  Where the device can launch
 * cooperative kernels (cuda_ascent_fused.cu), the first tree is one launch
 * and the steps run many to a launch, the step rule (the host's code) run
 * by one device thread between them; the host polls the stops and reads
 * the rule's state between launches of about 10 ms: 1 launch, 1 copy and
 * 1 host synchronisation per launch, none per step, and 3 R + 4 grid-wide
 * barriers a step on the device for R Boruvka rounds.  Elsewhere (or when
 * wt_cuda_ascent_tuning says so) the kernels below, a launch a phase and
 * the rule on the host: 5 R + 16 launches and copies a step (CUB's
 * reductions are two launches each) and R + 1 host synchronisations, since
 * the host reads the tree's edge count after each round.  Both give the
 * same trees (a minimum spanning tree under a total order is unique), the
 * same integer sums and the same rule.
 * Then the finish, the host's results (core/ascent_finish.h) under the
 * best pi: the best pi comes back to the host, and
 *   - on the GPU (wt_cuda_ascent_tuning.finish_on_gpu, the default): the
 *     minimum 1-tree under the best pi (one_tree again: its bound is the
 *     graph's), then cuda_ascent_finish.cu: the alpha-value of every graph
 *     edge and each city's candidates by (alpha, c_pi, city); meanwhile a
 *     host thread has the complete graph's bound computed from the best
 *     pi: above WT_ONETREE_DENSE_MAX cities on the GPU, on a stream of its
 *     own (cuda_bound.cu, wt_cuda_ascent_tuning.bound_on_gpu), where the
 *     GPU takes the instance, else on the host (wt_ascent_finish_bound,
 *     the k-d Boruvka or dense Prim), so the finish takes the longer of
 *     the two, not their sum; the thread starts with the steps and builds
 *     the GPU bound's grid while they run, so that only its rounds wait
 *     for the best pi;
 *   - or all of it on the host after the steps (wt_ascent_finish), the cpu
 *     backend's code: the fallback, and the reference the test compares.
 *
 * Memory on the GPU: 20 bytes an edge (eu, ev, 100 d as int32; the key as
 * uint64) and 40 bytes a city (pi, best pi, v_prev, degree, two component
 * labels, a leaf's tree edge, the tree's edge list as int32; a component's
 * cheapest key as uint64), plus CUB's scratch (with the finish, its sort of the
 * edges: about 8 bytes an edge more); with the finish on the GPU
 * (cuda_ascent_finish.cuh, DeviceFinish) 20 bytes more an edge (its alpha
 * as int64; the edges sorted by their higher end, with their indices and
 * an index sequence as int32) and 80 + 12 L + 4 k bytes more a city for
 * L = ceil(log2 n) lifting levels (an ancestor as int32 and a path maximum
 * as int64 a level) and rows of k candidates (eight int32 arrays of the
 * tree's 2 (n - 1) arcs, a city's depth, its first arc and two offsets).
 * The graph of 10 quadrant neighbours and a spare column has at most 11 n
 * edges: at most 260 bytes a city for the steps, 2.6 GB at 10,000,000
 * cities, and 260 + 220 + 80 + 12 * 24 + 4 k = 848 + 4 k bytes a city with
 * the finish, 8.7 GB at 10,000,000 cities and the search's k = 5.
 * Building the graph on the GPU takes 20 bytes a row entry (the rows, two
 * key buffers) and 16 a city more until the edges are in place (none
 * where the host builds it; the GPU's free memory short for it: the
 * host's).
 * Checked against cudaMemGetInfo before anything is allocated: where the
 * steps fit but not the finish, the finish runs on the host; where the
 * steps do not fit, OUT_OF_MEMORY names the steps' bytes.  From
 * COMPACT_EDGES graph edges the fused path's two edge lists take 32 bytes
 * an edge more where the memory left takes them (at ten million cities
 * 1.9 GB), else the rounds read the whole graph.
 *
 * Split (job->split_with names a second device of this backend, the graph
 * has wt_cuda_ascent_tuning.split_edges edges or more, the two devices
 * have peer access and both launch the fused kernel): after the first
 * tree, the steps run on both devices at once, each reading half of the
 * edges (cuda_ascent_fused.cu says how); the second device holds the
 * steps' arrays and a copy of the graph (260 bytes a city, as above) and
 * each device 8 bytes a city more for the second buffer of cheapest keys.
 * The finish stays on the first device.  Where the second device cannot
 * take its part, the first runs the steps alone.
 *
 * Stops: job->until and ctl are polled between steps, or between launches
 * of about 10 ms of steps on the fused path (a step is one tree:
 * milliseconds at most, tens of them at ten million cities); the finish
 * polls ctl as the host's does (on the GPU: between its tree, its
 * alpha-values and its lists; the bound's thread polls it as the host's).
 */
#include <cub/device/device_reduce.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <pthread.h>

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "backend/cuda/cuda_ascent.h"
#include "backend/cuda/cuda_bound.h"
#include "backend/cuda/cuda_ascent_finish.cuh"
#include "backend/cuda/cuda_ascent_graph.cuh"
#include "backend/cuda/cuda_ascent_fused.cuh"
#include "backend/cuda/cuda_ascent_state.cuh"
#include "backend/cuda/cuda_common.cuh"
#include "backend/cuda/device_arena.cuh"
#include "core/ascent_finish.h"
#include "core/ascent_rule.h"
#include "core/onetree.h"
#include "core/search_ctl.h"

static_assert(WT_ASCENT_SCALE == WT_ONETREE_SCALE, "one fixed point for the ascent");

namespace wt_ascent_gpu {
namespace {

/* wt_cuda_ascent_tuning.compact_edges' default: the graph's edges from
 * which the fused path's rounds read lists.  The lists' writes cost more
 * than they save at a million cities (5.9 million edges: 5.4 ms a step
 * against 5.2 without, H200) and less at ten million (59 million edges:
 * 42.7 ms against 44.2); between, not measured. */
constexpr long long COMPACT_EDGES = 1ll << 24;

/* wt_cuda_ascent_tuning.split_edges' default: the graph's edges from
 * which the steps split over two devices where the job names a second. */
constexpr long long SPLIT_EDGES = 1ll << 24;

/* ------------------------------------------------------------- kernels */

static __global__ void keys_kernel(const int32_t *eu, const int32_t *ev, const int32_t *d100,
                                   const int32_t *pi, uint64_t *key, int64_t m)
{
    for (int64_t e = thread_index(); e < m; e += thread_stride()) {
        key[e] = edge_key((int64_t)d100[e] + pi[eu[e]] + pi[ev[e]], e);
    }
}

static __global__ void tree_start_kernel(int32_t *comp, int32_t *degree, int n)
{
    for (int64_t i = thread_index(); i < n; i += thread_stride()) {
        comp[i] = (int32_t)i;
        degree[i] = 0;
    }
}

static __global__ void cheapest_kernel(const int32_t *eu, const int32_t *ev, const uint64_t *key,
                                       const int32_t *comp, uint64_t *cheapest, int64_t m)
{
    for (int64_t e = thread_index(); e < m; e += thread_stride()) {
        int32_t a = comp[eu[e]], b = comp[ev[e]];
        if (a == b) continue;
        uint64_t k = key[e];
        atomic_min_key(&cheapest[a], k);
        atomic_min_key(&cheapest[b], k);
    }
}

/* Each root with an outgoing edge hooks onto the other end's component
 * and adds the edge to the tree; of two roots that chose the same edge
 * (the total order allows no other cycle), the lower stays a root and
 * adds the edge, the higher hooks without.  link: the labels next round
 * (before the jumps: a root's parent). */
static __global__ void hook_kernel(const int32_t *eu, const int32_t *ev, const int32_t *comp,
                                   const uint64_t *cheapest, int32_t *link, int32_t *degree,
                                   int32_t *tree_edge, int32_t *tree_list, TreeFigures *fig, int n)
{
    for (int64_t x = thread_index(); x < n; x += thread_stride()) {
        int32_t i = (int32_t)x, r = comp[i];
        link[i] = r;
        uint64_t k = cheapest[i];
        if (r != i || k == NONE) continue;
        int32_t e = (int32_t)(k & EDGE_MASK), u = eu[e], v = ev[e];
        int32_t a = comp[u], b = comp[v], other = a == i ? b : a;
        bool mutual = cheapest[other] == k;
        if (!mutual || i < other) {
            tree_list[warp_slot(&fig->tree_edges)] = e;
            atomicAdd(&degree[u], 1);
            atomicAdd(&degree[v], 1);
            tree_edge[u] = e; /* read only at leaves, which have one tree edge */
            tree_edge[v] = e;
        }
        if (!mutual || i > other) link[i] = other;
    }
}

/* Every label to its root (jump_to_root), in one launch instead of rounds
 * of pointer jumping, each of which would need the host to ask whether a
 * label moved. */
static __global__ void root_kernel(int32_t *link, int n)
{
    for (int64_t i = thread_index(); i < n; i += thread_stride()) jump_to_root(link, i);
}

/* Each leaf's cheapest graph edge but its tree edge: its second cheapest. */
static __global__ void second_kernel(const int32_t *eu, const int32_t *ev, const uint64_t *key,
                                     const int32_t *degree, const int32_t *tree_edge,
                                     uint64_t *second, int64_t m)
{
    for (int64_t e = thread_index(); e < m; e += thread_stride()) {
        int32_t u = eu[e], v = ev[e];
        if (degree[u] == 1 && tree_edge[u] != e) atomic_min_key(&second[u], key[e]);
        if (degree[v] == 1 && tree_edge[v] != e) atomic_min_key(&second[v], key[e]);
    }
}

/* The special node from the largest leaf key: its edge joins the tree. */
static __global__ void special_kernel(const int32_t *eu, const int32_t *ev, const uint64_t *second,
                                      int32_t *degree, TreeFigures *fig)
{
    uint64_t lk = fig->leaf_key;
    if (lk == 0) {
        fig->special = -1;
        return;
    }
    int32_t s = leaf_of(lk);
    uint64_t k = second[s];
    int32_t e = (int32_t)(k & EDGE_MASK), to = eu[e] == s ? ev[e] : eu[e];
    fig->special = s;
    fig->special_cost = key_cost(k);
    degree[s]++;
    degree[to]++;
}

static __global__ void excess_kernel(const int32_t *degree, int32_t *v_prev, int n)
{
    for (int64_t i = thread_index(); i < n; i += thread_stride()) v_prev[i] = degree[i] - 2;
}

static __global__ void pi_kernel(int32_t *pi, const int32_t *degree, int32_t *v_prev, int64_t step,
                                 int n)
{
    for (int64_t i = thread_index(); i < n; i += thread_stride()) {
        int32_t v = degree[i] - 2;
        pi[i] = wt_ascent_pi_next(pi[i], v, v_prev[i], step);
        v_prev[i] = v;
    }
}

/* ------------------------------------------------ reductions' operands */

struct TreeEdgeCost {
    const int32_t *list;
    const uint64_t *key;
    __host__ __device__ int64_t operator()(int i) const
    {
        return key_cost(key[list[i]]);
    }
};

struct Widened {
    const int32_t *a;
    __host__ __device__ int64_t operator()(int i) const { return a[i]; }
};

struct ExcessSquared {
    const int32_t *degree;
    __host__ __device__ int64_t operator()(int i) const
    {
        int64_t v = degree[i] - 2;
        return v * v;
    }
};

/* (second edge's cost + 1, 2^28 - 1 - city) of a leaf with a second edge,
 * else 0: the maximum is the dearest second edge, ties to the lower city. */
struct LeafKey {
    const int32_t *degree;
    const uint64_t *second;
    __host__ __device__ uint64_t operator()(int i) const
    {
        return leaf_key(degree[i], second[i], i);
    }
};

template <typename F> thrust::transform_iterator<F, thrust::counting_iterator<int>> over(F f)
{
    return thrust::make_transform_iterator(thrust::counting_iterator<int>(0), f);
}

/* CUB's scratch for the four reductions: the largest of their sizes. */
static wt_status reduce_bytes(const DeviceAscent &d, size_t *bytes, wt_error *err)
{
    size_t b[4] = {0, 0, 0, 0};
    int64_t *sum = nullptr; /* the queries' output types; nothing is written */
    uint64_t *max = nullptr;
    WT_CUDA_CHECK(err, cub::DeviceReduce::Sum(nullptr, b[0], over(TreeEdgeCost{nullptr, nullptr}),
                                              sum, d.n - 1, d.stream));
    WT_CUDA_CHECK(err, cub::DeviceReduce::Sum(nullptr, b[1], over(Widened{nullptr}), sum, d.n,
                                              d.stream));
    WT_CUDA_CHECK(err, cub::DeviceReduce::Sum(nullptr, b[2], over(ExcessSquared{nullptr}), sum,
                                              d.n, d.stream));
    WT_CUDA_CHECK(err, cub::DeviceReduce::Max(nullptr, b[3], over(LeafKey{nullptr, nullptr}),
                                              max, d.n, d.stream));
    *bytes = 1;
    for (size_t x : b)
        if (x > *bytes) *bytes = x;
    return WT_OK;
}

/* ------------------------------------------------------------ one tree */

/* Boruvka's rounds: the minimum spanning tree under the keys into
 * d_tree_list, d_degree and d_tree_edge. */
static wt_status spanning_tree(DeviceAscent &d, wt_error *err)
{
    int n = d.n, nb = blocks_for(n), mb = blocks_for(d.m);
    tree_start_kernel<<<nb, BLOCK, 0, d.stream>>>(d.d_comp, d.d_degree, n);
    WT_CUDA_CHECK(err, cudaGetLastError());
    WT_CUDA_CHECK(err, cudaMemsetAsync(&d.d_fig->tree_edges, 0, sizeof(int32_t), d.stream));
    int joined = 0;
    while (joined < n - 1) {
        WT_CUDA_CHECK(err, cudaMemsetAsync(d.d_cheapest, 0xff, (size_t)n * sizeof(uint64_t),
                                           d.stream));
        cheapest_kernel<<<mb, BLOCK, 0, d.stream>>>(d.d_eu, d.d_ev, d.d_key, d.d_comp,
                                                     d.d_cheapest, d.m);
        WT_CUDA_CHECK(err, cudaGetLastError());
        hook_kernel<<<nb, BLOCK, 0, d.stream>>>(d.d_eu, d.d_ev, d.d_comp, d.d_cheapest, d.d_link,
                                                 d.d_degree, d.d_tree_edge, d.d_tree_list,
                                                 d.d_fig, n);
        WT_CUDA_CHECK(err, cudaGetLastError());
        root_kernel<<<nb, BLOCK, 0, d.stream>>>(d.d_link, n);
        WT_CUDA_CHECK(err, cudaGetLastError());
        int32_t back[1] = {0}; /* tree_edges */
        WT_CUDA_CHECK(err, cudaMemcpyAsync(back, &d.d_fig->tree_edges, sizeof back,
                                           cudaMemcpyDeviceToHost, d.stream));
        WT_CUDA_CHECK(err, cudaStreamSynchronize(d.stream));
        int32_t *x = d.d_comp;
        d.d_comp = d.d_link;
        d.d_link = x;
        if (back[0] == joined)
            return wt_fail(err, WT_STATUS_INVALID_ARGUMENT,
                           "ascent: the graph is not connected (%d components)", n - joined);
        joined = back[0];
    }
    return WT_OK;
}

/* Step s's pi update and the minimum 1-tree under the new pi (onetree.h's)
 * into d_fig, a launch a phase. */
static wt_status launched_tree(DeviceAscent &d, const TreeStep &s, wt_error *err)
{
    int n = d.n, nb = blocks_for(n), mb = blocks_for(d.m);
    if (s.keep_best)
        WT_CUDA_CHECK(err, cudaMemcpyAsync(d.d_best_pi, d.d_pi, (size_t)n * sizeof(int32_t),
                                           cudaMemcpyDeviceToDevice, d.stream));
    if (s.update_pi) {
        if (s.first_step) {
            excess_kernel<<<nb, BLOCK, 0, d.stream>>>(d.d_degree, d.d_v_prev, n);
            WT_CUDA_CHECK(err, cudaGetLastError());
        }
        pi_kernel<<<nb, BLOCK, 0, d.stream>>>(d.d_pi, d.d_degree, d.d_v_prev, s.step, n);
        WT_CUDA_CHECK(err, cudaGetLastError());
    }
    keys_kernel<<<mb, BLOCK, 0, d.stream>>>(d.d_eu, d.d_ev, d.d_d100, d.d_pi, d.d_key, d.m);
    WT_CUDA_CHECK(err, cudaGetLastError());
    wt_status st = spanning_tree(d, err);
    if (st != WT_OK) return st;
    WT_CUDA_CHECK(err, cudaMemsetAsync(d.d_cheapest, 0xff, (size_t)n * sizeof(uint64_t), d.stream));
    second_kernel<<<mb, BLOCK, 0, d.stream>>>(d.d_eu, d.d_ev, d.d_key, d.d_degree, d.d_tree_edge,
                                               d.d_cheapest, d.m);
    WT_CUDA_CHECK(err, cudaGetLastError());
    TreeFigures *f = d.d_fig;
    size_t tb = d.temp_bytes;
    WT_CUDA_CHECK(err, cub::DeviceReduce::Max(d.d_temp, tb, over(LeafKey{d.d_degree, d.d_cheapest}),
                                              &f->leaf_key, n, d.stream));
    special_kernel<<<1, 1, 0, d.stream>>>(d.d_eu, d.d_ev, d.d_cheapest, d.d_degree, f);
    WT_CUDA_CHECK(err, cudaGetLastError());
    tb = d.temp_bytes;
    WT_CUDA_CHECK(err, cub::DeviceReduce::Sum(d.d_temp, tb,
                                              over(TreeEdgeCost{d.d_tree_list, d.d_key}),
                                              &f->tree_weight, n - 1, d.stream));
    tb = d.temp_bytes;
    WT_CUDA_CHECK(err, cub::DeviceReduce::Sum(d.d_temp, tb, over(Widened{d.d_pi}), &f->sum_pi, n,
                                              d.stream));
    tb = d.temp_bytes;
    WT_CUDA_CHECK(err, cub::DeviceReduce::Sum(d.d_temp, tb, over(ExcessSquared{d.d_degree}),
                                              &f->norm, n, d.stream));
    return WT_OK;
}

/* Step s and its 1-tree, by the fused kernel where the device runs it:
 * *bound and *norm, read back with the one synchronisation of a step. */
static wt_status one_tree(DeviceAscent &d, const TreeStep &s, int64_t *bound, int64_t *norm,
                          wt_error *err)
{
    if (d.fused_blocks > 0) {
        cudaError_t e = fused_tree(d, s);
        if (e == cudaErrorCooperativeLaunchTooLarge) {
            /* the occupancy query promised more than this device grants
             * now: a launch a phase from here on (nothing ran) */
            (void)cudaGetLastError();
            d.fused_blocks = 0;
        } else {
            WT_CUDA_CHECK(err, e);
        }
    }
    if (d.fused_blocks == 0) {
        wt_status st = launched_tree(d, s, err);
        if (st != WT_OK) return st;
    }
    TreeFigures &h = *d.h_fig;
    WT_CUDA_CHECK(err, cudaMemcpyAsync(&h, d.d_fig, sizeof h, cudaMemcpyDeviceToHost, d.stream));
    WT_CUDA_CHECK(err, cudaStreamSynchronize(d.stream));
    if (h.tree_edges < d.n - 1) /* the fused kernel's sign; launched_tree stops earlier */
        return wt_fail(err, WT_STATUS_INVALID_ARGUMENT,
                       "ascent: the graph is not connected (%d components)", d.n - h.tree_edges);
    if (h.special < 0)
        return wt_fail(err, WT_STATUS_INVALID_ARGUMENT,
                       "ascent: no leaf of the graph's spanning tree has a second edge");
    *bound = h.tree_weight + h.special_cost - 2 * h.sum_pi;
    *norm = h.norm;
    return WT_OK;
}

/* ------------------------------------------------------ memory, upload */

static void device_close(DeviceAscent &d)
{
    for (LiveEdge *list : d.d_live)
        if (list) cudaFree(list);
    if (d.d_prof) cudaFree(d.d_prof);
    if (d.d_block) cudaFree(d.d_block);
    if (d.h_block) cudaFreeHost(d.h_block);
    if (d.stream) cudaStreamDestroy(d.stream);
    (void)cudaGetLastError(); /* a failure while freeing is no later call's */
    d = DeviceAscent{};
}

template <typename T> static cudaError_t alloc(T **p, int64_t count)
{
    return cudaMalloc((void **)p, (size_t)(count > 0 ? count : 1) * sizeof(T));
}

/* The phase clock's slots, zeroed. */
static wt_status profile_open(DeviceAscent &d, wt_error *err)
{
    WT_CUDA_CHECK(err, alloc(&d.d_prof, PROF_SLOTS));
    WT_CUDA_CHECK(err, cudaMemsetAsync(d.d_prof, 0, PROF_SLOTS * sizeof(uint64_t), d.stream));
    return WT_OK;
}

/* The phase clock into *p (zero where the fused path did not run). */
static wt_status profile_read(DeviceAscent &d, wt_cuda_ascent_profile *p, wt_error *err)
{
    uint64_t slot[PROF_SLOTS] = {0};
    if (d.d_prof) {
        WT_CUDA_CHECK(err, cudaMemcpyAsync(slot, d.d_prof, sizeof slot, cudaMemcpyDeviceToHost,
                                           d.stream));
        WT_CUDA_CHECK(err, cudaStreamSynchronize(d.stream));
    }
    double *phase[PROF_PHASES] = {&p->start_s,  &p->cheapest_s, &p->hook_s, &p->root_s,
                                  &p->second_s, &p->sums_s,     &p->rule_s};
    for (int i = 0; i < PROF_PHASES; i++) *phase[i] = (double)slot[i] * 1e-9;
    p->rounds = (long long)slot[PROF_ROUNDS];
    p->trees = (long long)slot[PROF_TREES];
    return WT_OK;
}

/* The fused path's two edge lists (d.compact) where the GPU's free memory
 * takes them beside everything else; without them the rounds read the
 * whole graph, with the same trees. */
static wt_status lists_open(DeviceAscent &d, wt_error *err)
{
    size_t bytes = 2 * (size_t)(d.m > 0 ? d.m : 1) * sizeof(LiveEdge), free_b = 0, total_b = 0;
    WT_CUDA_CHECK(err, cudaMemGetInfo(&free_b, &total_b));
    if (bytes > free_b) return WT_OK;
    for (LiveEdge *&list : d.d_live) WT_CUDA_CHECK(err, alloc(&list, d.m));
    d.compact = true;
    return WT_OK;
}

/* The ascent's graph: built on the GPU (keys: cuda_ascent_graph.cuh; the
 * host's wt_sgraph made only where the host finishes), or the host's
 * (host), uploaded. */
struct Graph {
    const wt_instance *inst;
    int n;
    int64_t m;
    const GraphKeys *keys; /* NULL: host */
    const wt_sgraph *host; /* NULL: keys */
};

static wt_status upload_edges(const wt_sgraph &g, DeviceAscent &d, wt_error *err);

/* What the host reads back, in one pinned allocation. */
struct PinnedFigures {
    TreeFigures fig;
    StepsBox box;
};

/* The steps' arrays for g into plan (CUB's scratch not yet); split: the
 * cheapest keys' two buffers and the barrier's count (SplitLink). */
static void steps_plan(DeviceAscent &d, bool split, wt_cuda::ArenaPlan &plan)
{
    int64_t n = d.n, m = d.m;
    plan.add(&d.d_eu, m);
    plan.add(&d.d_ev, m);
    plan.add(&d.d_d100, m);
    plan.add(&d.d_key, m);
    int32_t **city_arrays[] = {&d.d_pi,   &d.d_best_pi, &d.d_v_prev,    &d.d_degree,
                               &d.d_comp, &d.d_link,    &d.d_tree_edge, &d.d_tree_list};
    for (int32_t **a : city_arrays) plan.add(a, n);
    plan.add(&d.d_cheapest, split ? 2 * n : n);
    plan.add(&d.d_fig, 1);
    plan.add(&d.d_box, 1);
    if (split) plan.add(&d.d_arrive, 1);
}

/* The device's memory for g, and f's for rows of *k candidates (*k 0: no
 * finish on the GPU), in one block (device_arena.cuh) checked against
 * what is free first; the edges and the start pi uploaded.  Where the
 * steps fit but not the finish beside them, *k becomes 0: the steps run
 * on the GPU and the finish on the host, rather than the whole ascent on
 * the host.  device_close frees it, also after a failure. */
static wt_status device_open(int device, const Graph &g, const int32_t *pi, bool split, int *k,
                             DeviceAscent &d, DeviceFinish &f, wt_error *err)
{
    d.device = device;
    d.n = g.n;
    d.m = g.m;
    int64_t n = g.n, m = g.m;
    WT_CUDA_CHECK(err, cudaSetDevice(device));
    WT_CUDA_CHECK(err, cudaStreamCreateWithFlags(&d.stream, cudaStreamNonBlocking));
    WT_CUDA_CHECK(err, cudaMallocHost(&d.h_block, sizeof(PinnedFigures)));
    d.h_fig = &((PinnedFigures *)d.h_block)->fig;
    d.h_box = &((PinnedFigures *)d.h_block)->box;
    wt_status st = reduce_bytes(d, &d.temp_bytes, err);
    if (st != WT_OK) return st;
    wt_cuda::ArenaPlan plan;
    steps_plan(d, split, plan);
    size_t free_b = 0, total_b = 0;
    WT_CUDA_CHECK(err, cudaMemGetInfo(&free_b, &total_b));
    if (*k > 0) {
        size_t finish_temp = 0;
        st = finish_temp_bytes(g.n, m, d.stream, &finish_temp, err);
        if (st != WT_OK) return st;
        size_t temp = finish_temp > d.temp_bytes ? finish_temp : d.temp_bytes; /* one scratch */
        wt_cuda::ArenaPlan with = plan;
        finish_plan(f, g.n, m, *k, with);
        with.add_bytes(&d.d_temp, temp);
        if (with.bytes() <= free_b) {
            d.temp_bytes = temp;
            plan = with;
        } else {
            *k = 0;
            f = DeviceFinish{};
        }
    }
    if (*k == 0) plan.add_bytes(&d.d_temp, d.temp_bytes);
    if (plan.bytes() > free_b)
        return wt_fail(err, WT_STATUS_OUT_OF_MEMORY,
                       "ascent: %d cities and %lld graph edges need %zu bytes of GPU memory; "
                       "%zu of %zu are free",
                       g.n, (long long)m, plan.bytes(), free_b, total_b);
    WT_CUDA_CHECK(err, plan.allocate(&d.d_block));
    WT_CUDA_CHECK(err, cudaMemcpy(d.d_pi, pi, (size_t)n * sizeof(int32_t), cudaMemcpyHostToDevice));
    WT_CUDA_CHECK(err, cudaMemcpy(d.d_best_pi, pi, (size_t)n * sizeof(int32_t),
                                  cudaMemcpyHostToDevice));
    st = g.keys ? graph_edges(g.inst, *g.keys, d.d_eu, d.d_ev, d.d_d100, d.stream, err)
                : upload_edges(*g.host, d, err);
    if (st != WT_OK) return st;
    /* cudaMemcpy from pageable memory may return before its DMA lands, and
     * d.stream (non-blocking) is not ordered after the legacy stream's
     * copies: the kernels must not start before the uploads end. */
    WT_CUDA_CHECK(err, cudaDeviceSynchronize());
    return WT_OK;
}

/* The host graph's edges into d (its ends and 100 d, narrowed to int32). */
static wt_status upload_edges(const wt_sgraph &g, DeviceAscent &d, wt_error *err)
{
    int64_t m = g.m;
    WT_CUDA_CHECK(err, cudaMemcpy(d.d_eu, g.eu, (size_t)m * sizeof(int32_t), cudaMemcpyHostToDevice));
    WT_CUDA_CHECK(err, cudaMemcpy(d.d_ev, g.ev, (size_t)m * sizeof(int32_t), cudaMemcpyHostToDevice));
    /* 100 d fits int32 (wt_sgraph_create keeps it within 2^30): half the
     * bytes of the host's int64, narrowed in slices. */
    const int64_t SLICE = 1 << 20;
    int32_t *h = (int32_t *)malloc((size_t)(m < SLICE ? m : SLICE) * sizeof *h + 1);
    if (!h) return wt_fail(err, WT_STATUS_OUT_OF_MEMORY, "out of memory for the ascent's upload");
    for (int64_t base = 0; base < m; base += SLICE) {
        int64_t end = base + SLICE < m ? base + SLICE : m;
        for (int64_t e = base; e < end; e++) h[e - base] = (int32_t)g.d100[e];
        cudaError_t ce = cudaMemcpy(d.d_d100 + base, h, (size_t)(end - base) * sizeof *h,
                                    cudaMemcpyHostToDevice);
        if (ce != cudaSuccess) {
            free(h);
            WT_CUDA_CHECK(err, ce);
        }
    }
    free(h);
    return WT_OK;
}

/* ------------------------------------------------------ the steps split */

/* Whether devices a and b read each other's memory: peer access turned on
 * both ways (it stays on for the process, as the driver keeps it). */
static bool peers_enabled(int a, int b)
{
    int ab = 0, ba = 0;
    if (cudaDeviceCanAccessPeer(&ab, a, b) != cudaSuccess ||
        cudaDeviceCanAccessPeer(&ba, b, a) != cudaSuccess || !ab || !ba) {
        (void)cudaGetLastError();
        return false;
    }
    for (int x = 0; x < 2; x++) {
        int from = x ? b : a, to = x ? a : b;
        cudaError_t e = cudaSetDevice(from);
        if (e == cudaSuccess) e = cudaDeviceEnablePeerAccess(to, 0);
        (void)cudaGetLastError(); /* AlreadyEnabled is a success here */
        if (e != cudaSuccess && e != cudaErrorPeerAccessAlreadyEnabled) return false;
    }
    return true;
}

/* The split's second half: on device2, d2 gets every array of the steps
 * and a copy of d's graph (peer to peer), then the two are linked, d the
 * first half of the edges and d2 the second.  Where device2 cannot take
 * its half (no cooperative launch, too little free memory) d2 stays
 * closed and the steps run on d alone: WT_OK either way, errors only for
 * failed CUDA calls.  *abort: the host-mapped flag both grids poll while
 * they wait for each other (freed by split_close). */
static wt_status split_open(int device2, int blocks_per_sm, DeviceAscent &d, DeviceAscent &d2,
                            int32_t **abort, wt_error *err)
{
    d2.device = device2;
    d2.n = d.n;
    d2.m = d.m;
    WT_CUDA_CHECK(err, cudaSetDevice(device2));
    wt_status st = fused_grid(device2, blocks_per_sm, d.m, &d2.fused_blocks, err);
    if (st != WT_OK || d2.fused_blocks == 0) return st;
    WT_CUDA_CHECK(err, cudaStreamCreateWithFlags(&d2.stream, cudaStreamNonBlocking));
    WT_CUDA_CHECK(err, cudaMallocHost(&d2.h_block, sizeof(PinnedFigures)));
    d2.h_fig = &((PinnedFigures *)d2.h_block)->fig;
    d2.h_box = &((PinnedFigures *)d2.h_block)->box;
    wt_cuda::ArenaPlan plan;
    steps_plan(d2, true, plan);
    size_t free_b = 0, total_b = 0;
    WT_CUDA_CHECK(err, cudaMemGetInfo(&free_b, &total_b));
    if (plan.bytes() > free_b) {
        d2.fused_blocks = 0;
        return WT_OK;
    }
    WT_CUDA_CHECK(err, plan.allocate(&d2.d_block));
    size_t edge_bytes = (size_t)d.m * sizeof(int32_t);
    WT_CUDA_CHECK(err, cudaMemcpyPeerAsync(d2.d_eu, device2, d.d_eu, d.device, edge_bytes, d2.stream));
    WT_CUDA_CHECK(err, cudaMemcpyPeerAsync(d2.d_ev, device2, d.d_ev, d.device, edge_bytes, d2.stream));
    WT_CUDA_CHECK(err, cudaMemcpyPeerAsync(d2.d_d100, device2, d.d_d100, d.device, edge_bytes,
                                           d2.stream));
    if (d.compact) {
        st = lists_open(d2, err);
        if (st != WT_OK) return st;
    }
    WT_CUDA_CHECK(err, cudaStreamSynchronize(d2.stream));
    WT_CUDA_CHECK(err, cudaHostAlloc((void **)abort, sizeof(int32_t),
                                     cudaHostAllocMapped | cudaHostAllocPortable));
    **abort = 0;
    int64_t half = d.m / 2;
    d.split = SplitLink{true, 0, half, d2.d_cheapest, d.d_arrive, d2.d_arrive, *abort};
    d2.split = SplitLink{true, half, d.m, d.d_cheapest, d2.d_arrive, d.d_arrive, *abort};
    WT_CUDA_CHECK(err, cudaSetDevice(d.device));
    return WT_OK;
}

static void split_close(DeviceAscent &d, DeviceAscent &d2, int32_t *abort)
{
    if (d2.stream || d2.d_block) {
        (void)cudaSetDevice(d2.device);
        device_close(d2);
    }
    if (abort) cudaFreeHost(abort);
    d.split = SplitLink{};
    (void)cudaSetDevice(d.device);
    (void)cudaGetLastError();
}

/* Before the split steps: d2 takes the state d's first tree left (pi, the
 * best pi, the degrees), both devices' key buffers emptied and their
 * barrier counts zeroed. */
static wt_status split_start(DeviceAscent &d, DeviceAscent &d2, wt_error *err)
{
    size_t city = (size_t)d.n * sizeof(int32_t), keys = 2 * (size_t)d.n * sizeof(uint64_t);
    WT_CUDA_CHECK(err, cudaMemcpyPeerAsync(d2.d_pi, d2.device, d.d_pi, d.device, city, d.stream));
    WT_CUDA_CHECK(err, cudaMemcpyPeerAsync(d2.d_best_pi, d2.device, d.d_best_pi, d.device, city,
                                           d.stream));
    WT_CUDA_CHECK(err, cudaMemcpyPeerAsync(d2.d_degree, d2.device, d.d_degree, d.device, city,
                                           d.stream));
    for (DeviceAscent *x : {&d, &d2}) {
        WT_CUDA_CHECK(err, cudaSetDevice(x->device));
        WT_CUDA_CHECK(err, cudaMemsetAsync(x->d_cheapest, 0xff, keys, x->stream));
        WT_CUDA_CHECK(err, cudaMemsetAsync(x->d_arrive, 0, sizeof(uint32_t), x->stream));
    }
    WT_CUDA_CHECK(err, cudaStreamSynchronize(d.stream));
    WT_CUDA_CHECK(err, cudaStreamSynchronize(d2.stream));
    WT_CUDA_CHECK(err, cudaSetDevice(d.device));
    return WT_OK;
}

/* ----------------------------------------------------------- the steps */

struct AscentStop {
    wt_search_ctl *ctl;
    double until; /* INFINITY: only ctl */
};

static bool stop_asked(void *user)
{
    const AscentStop *s = (const AscentStop *)user;
    if (s->ctl && wt_ctl_expired(s->ctl)) return true;
    return s->until < INFINITY && wt_now() >= s->until;
}

/* The steps after the first tree, a step a loop with the rule on the
 * host (the launch-a-phase path): *r as the rule ends or a stop leaves it;
 * *keep_best: the last step's pi is the best and not yet kept. */
static wt_status host_ruled_steps(DeviceAscent &d, wt_ascent_job *job, wt_search_ctl *ctl,
                                  const AscentStop &stop, wt_ascent_rule *r, bool *keep_best,
                                  wt_error *err)
{
    TreeStep s = {0, true, true, false};
    while (wt_ascent_rule_more(r) && !stop_asked((void *)&stop)) {
        int64_t bound = 0, norm = 0;
        s.step = r->step;
        wt_status st = one_tree(d, s, &bound, &norm, err);
        if (st != WT_OK) return st;
        wt_ctl_tick(ctl, WT_NOT_IN_PASS); /* the progress callback, when due */
        job->iterations_done = r->iterations_done + 1;
        s.keep_best = wt_ascent_rule_record(r, bound, norm);
        s.first_step = false;
    }
    *keep_best = s.keep_best;
    return WT_OK;
}

/* The next launch's steps: as many as take about LAUNCH_SECONDS at the
 * last launch's pace (per_step seconds), so that stops are polled that
 * often whatever a step costs; 1 to MAX_LAUNCH_STEPS. */
static int launch_steps(double per_step)
{
    const double LAUNCH_SECONDS = 0.01;
    const int MAX_LAUNCH_STEPS = 4096;
    if (!(per_step > 0)) return MAX_LAUNCH_STEPS;
    double k = LAUNCH_SECONDS / per_step;
    return k < 1 ? 1 : k > MAX_LAUNCH_STEPS ? MAX_LAUNCH_STEPS : (int)k;
}

/* Split: d2's launch of the same steps beside d's, which is already
 * queued; where it fails, d's grid is told to stop waiting for it. */
static wt_status split_launch(DeviceAscent &d, DeviceAscent &d2, int steps, wt_error *err)
{
    WT_CUDA_CHECK(err, cudaSetDevice(d2.device));
    wt_status st = fused_steps(d2, steps, err);
    if (st != WT_OK) {
        *(volatile int32_t *)d.split.abort = 1;
        (void)cudaSetDevice(d.device);
        (void)cudaStreamSynchronize(d.stream);
        return st;
    }
    WT_CUDA_CHECK(err, cudaMemcpyAsync(d2.h_box, d2.d_box, sizeof *d2.h_box,
                                       cudaMemcpyDeviceToHost, d2.stream));
    WT_CUDA_CHECK(err, cudaSetDevice(d.device));
    return WT_OK;
}

/* Split: d2's steps ended where d's did (the same rule on the same
 * figures); anything else is a fault of the exchange. */
static wt_status split_agree(const DeviceAscent &d, DeviceAscent &d2, wt_error *err)
{
    WT_CUDA_CHECK(err, cudaStreamSynchronize(d2.stream));
    const StepsBox &a = *d.h_box, &b = *d2.h_box;
    if (a.more != b.more || a.failed != b.failed || a.merges != b.merges ||
        a.rule.iterations_done != b.rule.iterations_done || a.rule.best_bound != b.rule.best_bound)
        return wt_fail(err, WT_STATUS_DEVICE,
                       "ascent: the steps split over devices %d and %d disagree after %d steps",
                       d.device, d2.device, a.rule.iterations_done);
    return WT_OK;
}

/* The steps after the first tree with the rule on the device (fused_steps,
 * launch_steps or fixed_steps a launch), stops polled between launches;
 * d2 (NULL: none) the split's second device, whose grid runs the same
 * steps beside d's. */
static wt_status device_ruled_steps(DeviceAscent &d, DeviceAscent *d2, wt_ascent_job *job,
                                    wt_search_ctl *ctl, const AscentStop &stop, int fixed_steps,
                                    wt_ascent_rule *r, bool *keep_best, wt_error *err)
{
    StepsBox &box = *d.h_box;
    box = StepsBox{};
    box.rule = *r;
    box.more = wt_ascent_rule_more(&box.rule);
    box.first_step = 1;
    WT_CUDA_CHECK(err, cudaMemcpyAsync(d.d_box, &box, sizeof box, cudaMemcpyHostToDevice,
                                       d.stream));
    if (d2) {
        *d2->h_box = box;
        WT_CUDA_CHECK(err, cudaSetDevice(d2->device));
        WT_CUDA_CHECK(err, cudaMemcpyAsync(d2->d_box, d2->h_box, sizeof box,
                                           cudaMemcpyHostToDevice, d2->stream));
        WT_CUDA_CHECK(err, cudaSetDevice(d.device));
    }
    int steps = fixed_steps > 0 ? fixed_steps : 1; /* the first launch measures the pace */
    while (box.more && !stop_asked((void *)&stop)) {
        int done = box.rule.iterations_done;
        double t0 = wt_now();
        wt_status st = fused_steps(d, steps, err);
        if (st == WT_OK && d2) st = split_launch(d, *d2, steps, err);
        if (st != WT_OK) return st;
        WT_CUDA_CHECK(err, cudaMemcpyAsync(&box, d.d_box, sizeof box, cudaMemcpyDeviceToHost,
                                           d.stream));
        WT_CUDA_CHECK(err, cudaStreamSynchronize(d.stream));
        if (d2) {
            st = split_agree(d, *d2, err);
            if (st != WT_OK) return st;
        }
        if (box.failed == FAILED_DISCONNECTED)
            return wt_fail(err, WT_STATUS_INVALID_ARGUMENT,
                           "ascent: the graph is not connected (%d components)",
                           d.n - box.tree_edges);
        if (box.failed)
            return wt_fail(err, WT_STATUS_INVALID_ARGUMENT,
                           "ascent: no leaf of the graph's spanning tree has a second edge");
        wt_ctl_tick(ctl, WT_NOT_IN_PASS); /* the progress callback, when due */
        job->iterations_done = box.rule.iterations_done;
        int made = box.rule.iterations_done - done;
        if (fixed_steps <= 0 && made > 0) steps = launch_steps((wt_now() - t0) / made);
    }
    *r = box.rule;
    *keep_best = box.keep_best != 0;
    return WT_OK;
}

/* The first tree and the steps (the cpu backend's loop, cpu_ascent.c):
 * best_pi (host, n) gets the best pi, *graph_bound its bound (INT64_MIN
 * when a stop came before the first tree).  The copy of a best pi waits
 * for the next step's tree (TreeStep.keep_best: its pi is still the one
 * the rule judged), or for the loop's end. */
static wt_status ascend(DeviceAscent &d, DeviceAscent *d2, wt_ascent_job *job,
                        wt_search_ctl *ctl, int fixed_steps, int32_t *best_pi,
                        int64_t *graph_bound, wt_error *err)
{
    int n = d.n;
    AscentStop stop = {ctl, job->until};
    *graph_bound = INT64_MIN;
    if (!stop_asked(&stop)) {
        int64_t bound = 0, norm = 0;
        wt_status st = one_tree(d, TreeStep{0, false, false, false}, &bound, &norm, err);
        if (st != WT_OK) return st;
        wt_ascent_rule r;
        wt_ascent_rule_start(&r, n, job->period, job->iterations, bound, norm);
        bool keep_best = false;
        if (d.fused_blocks == 0) d2 = nullptr; /* the first tree found no cooperative launch */
        if (d2) st = split_start(d, *d2, err);
        if (st == WT_OK)
            st = d.fused_blocks > 0
                     ? device_ruled_steps(d, d2, job, ctl, stop, fixed_steps, &r, &keep_best, err)
                     : host_ruled_steps(d, job, ctl, stop, &r, &keep_best, err);
        if (st != WT_OK) return st;
        if (keep_best)
            WT_CUDA_CHECK(err, cudaMemcpyAsync(d.d_best_pi, d.d_pi, (size_t)n * sizeof(int32_t),
                                               cudaMemcpyDeviceToDevice, d.stream));
        *graph_bound = r.best_bound;
    }
    WT_CUDA_CHECK(err, cudaMemcpyAsync(best_pi, d.d_best_pi, (size_t)n * sizeof(int32_t),
                                       cudaMemcpyDeviceToHost, d.stream));
    WT_CUDA_CHECK(err, cudaStreamSynchronize(d.stream));
    return WT_OK;
}

static bool ctl_stop_asked(void *ctl) { return wt_ctl_expired((wt_search_ctl *)ctl); }

/* ---------------------------------------------------------- the finish */

/* The complete graph's bound on a host thread beside the GPU's finish:
 * on the GPU (cuda_bound.cu) where bound_on_gpu and the GPU takes the
 * instance, else the host's (wt_ascent_finish_bound).  The thread starts
 * with the slot and prepares the GPU's bound (its grid, its arrays, its
 * kernels) while the steps run; it computes once the best pi is there
 * (pi_ready), or ends at `abandon`.  Meanwhile it loads the finish's
 * kernels too. */
struct BoundRun {
    int device = -1;            /* the GPU's bound: its device; -1: the host's */
    int finish_device = 0;      /* the GPU's finish, whose kernels the thread loads */
    const wt_instance *inst = nullptr;
    const wt_sgraph *g = nullptr;
    const int32_t *pi = nullptr;
    int threads = 1;
    wt_search_ctl *ctl = nullptr;    /* NULL: no stop but abandon */
    std::atomic<bool> abandon{false}; /* no bound wanted (the finish failed, stopped, or
                                         ran on the host) */
    std::mutex lock;
    std::condition_variable wake;    /* pi_ready or abandon */
    bool pi_ready = false;
    int64_t lower_bound = -1;        /* -1 until computed */
    bool cut = false;                /* a stop came before it was computed */
    double seconds = 0;              /* the bound's own wall clock, from pi_ready */
    pthread_t thread{};
    bool started = false;
};

static bool bound_stop_asked(void *user)
{
    BoundRun *b = (BoundRun *)user;
    return b->abandon.load(std::memory_order_relaxed) || (b->ctl && wt_ctl_expired(b->ctl));
}

/* ceil(a / b) for b > 0: the bound in the instance's unit, rounded up
 * as the host's finish rounds it (tour lengths are integers). */
static int64_t ceil_div(int64_t a, int64_t b) { return a >= 0 ? (a + b - 1) / b : -((-a) / b); }

/* The bound under b->pi: the prepared GPU bound's (NULL: none), else,
 * where it fails, the host's. */
static void bound_compute(BoundRun *b, wt_cuda_bound *prepared)
{
    double t0 = wt_now();
    wt_init_stop stop = {bound_stop_asked, b};
    if (prepared) {
        int64_t bound = 0;
        bool cut = false;
        wt_error ignored;
        if (wt_cuda_bound_compute(prepared, b->pi, &stop, &bound, &cut, &ignored) == WT_OK) {
            b->cut = cut;
            if (!cut) b->lower_bound = ceil_div(bound, WT_ONETREE_SCALE);
            b->seconds = wt_now() - t0;
            return;
        }
    }
    b->cut = wt_ascent_finish_bound(b->inst, b->g, b->pi, b->threads, &stop, &b->lower_bound);
    b->seconds = wt_now() - t0;
}

static void *bound_thread(void *user)
{
    BoundRun *b = (BoundRun *)user;
    wt_cuda_bound *prepared = nullptr;
    wt_error ignored;
    if (b->device >= 0 && wt_cuda_bound_open(b->device, b->inst, &prepared, &ignored) != WT_OK)
        prepared = nullptr;
    if (cudaSetDevice(b->finish_device) == cudaSuccess) finish_load_kernels();
    (void)cudaGetLastError();
    {
        std::unique_lock<std::mutex> hold(b->lock);
        b->wake.wait(hold, [b] { return b->pi_ready || b->abandon.load(); });
    }
    if (!b->abandon.load()) bound_compute(b, prepared);
    wt_cuda_bound_close(prepared);
    return nullptr;
}

/* Starts the bound's thread for the finish on the GPU (none where the
 * instance has no complete bound; where no thread starts, bound_finish
 * computes it on the caller's). */
static void bound_start(BoundRun &b, int device, const wt_instance *inst, const wt_sgraph *g,
                        const int32_t *pi, int threads, wt_search_ctl *ctl, bool bound_on_gpu)
{
    b.device = bound_on_gpu && inst->n > WT_ONETREE_DENSE_MAX ? device : -1;
    b.finish_device = device;
    b.inst = inst;
    b.g = g;
    b.pi = pi;
    b.threads = threads;
    b.ctl = ctl;
    if (wt_onetree_complete_supported(inst))
        b.started = pthread_create(&b.thread, nullptr, bound_thread, &b) == 0;
}

/* The best pi is in b.pi: the thread computes the bound. */
static void bound_release(BoundRun &b)
{
    std::lock_guard<std::mutex> hold(b.lock);
    b.pi_ready = true;
    b.wake.notify_one();
}

/* Ends the thread: with `wanted` it has computed the bound (or, with no
 * thread, the bound is computed here); without, it stops. */
static void bound_finish(BoundRun &b, bool wanted)
{
    if (!b.started) {
        if (wanted && wt_onetree_complete_supported(b.inst)) bound_compute(&b, nullptr);
        return;
    }
    if (!wanted) {
        std::lock_guard<std::mutex> hold(b.lock);
        b.abandon.store(true);
        b.wake.notify_one();
    }
    pthread_join(b.thread, nullptr);
    b.started = false;
}

/* The GPU's part of the finish: the minimum 1-tree under the best pi
 * (d_best_pi) into job->graph_bound, then the candidates into
 * job->candidates; *stopped as wt_ascent_finish's. */
static wt_status finish_steps(DeviceAscent &d, DeviceFinish &f, wt_ascent_job *job,
                              wt_search_ctl *ctl, bool *stopped, wt_error *err)
{
    *stopped = false;
    WT_CUDA_CHECK(err, cudaMemcpyAsync(d.d_pi, d.d_best_pi, (size_t)d.n * sizeof(int32_t),
                                       cudaMemcpyDeviceToDevice, d.stream));
    int64_t bound = 0, norm = 0;
    wt_status st = one_tree(d, TreeStep{0, false, false, false}, &bound, &norm, err);
    if (st != WT_OK) return st;
    if (ctl && wt_ctl_expired(ctl)) {
        *stopped = true;
        return WT_OK;
    }
    job->graph_bound = bound;
    return finish_candidates(d, f, d.h_fig->special, ctl ? ctl_stop_asked : nullptr, ctl,
                             job->candidates, stopped, err);
}

/* The finish with the GPU's part and the bound's thread side by side.
 * The bound is kept only when the candidates are complete, as on the
 * host. */
static wt_status finish_on_device(DeviceAscent &d, DeviceFinish &f, wt_ascent_job *job,
                                  wt_search_ctl *ctl, BoundRun &b, wt_cuda_ascent_profile *prof,
                                  wt_error *err)
{
    bound_release(b);
    bool stopped = false;
    double t0 = wt_now();
    wt_status st = finish_steps(d, f, job, ctl, &stopped, err);
    double t1 = wt_now();
    bound_finish(b, st == WT_OK && !stopped);
    if (prof) {
        prof->finish_s = t1 - t0;
        prof->bound_wait_s = wt_now() - t1;
        prof->bound_s = b.seconds;
    }
    if (st != WT_OK) return st;
    if (stopped || b.cut) /* as the host's finish: a stop cut one of its parts */
        job->stopped = true;
    else
        job->lower_bound = b.lower_bound;
    return WT_OK;
}

/* The steps on the device, and the finish there when tuning says so and
 * its memory fits (*finished: it ran there); the memory freed on every
 * path. */
static wt_status ascend_on_device(int device, int split_device, const Graph &g,
                                  wt_ascent_job *job, wt_search_ctl *ctl, int threads,
                                  const wt_cuda_ascent_tuning *tuning, bool *finished,
                                  wt_error *err)
{
    DeviceAscent d, d2;
    DeviceFinish f;
    int32_t *abort = nullptr;
    wt_cuda_ascent_profile *prof = tuning->profile;
    int k = tuning->finish_on_gpu ? job->candidates_k : 0;
    bool split = split_device >= 0 && tuning->fused && tuning->split_edges >= 0 &&
                 g.m >= tuning->split_edges && peers_enabled(device, split_device);
    *finished = false;
    double t0 = wt_now();
    wt_status st = device_open(device, g, job->pi, split, &k, d, f, err);
    if (st == WT_OK && tuning->fused)
        st = fused_grid(device, tuning->blocks_per_sm, g.m, &d.fused_blocks, err);
    if (st == WT_OK && d.fused_blocks > 0 && tuning->compact_edges >= 0 &&
        g.m >= tuning->compact_edges)
        st = lists_open(d, err);
    if (st == WT_OK && d.fused_blocks > 0 && split)
        st = split_open(split_device, tuning->blocks_per_sm, d, d2, &abort, err);
    if (st == WT_OK && d.fused_blocks > 0 && prof) st = profile_open(d, err);
    /* After the slot's memory, so that the bound's never takes it. */
    BoundRun b;
    if (st == WT_OK && k > 0)
        bound_start(b, device, g.inst, g.host, job->pi, threads, ctl, tuning->bound_on_gpu);
    double t1 = wt_now();
    if (st == WT_OK)
        st = ascend(d, d.split.on ? &d2 : nullptr, job, ctl, tuning->steps_per_launch, job->pi,
                    &job->graph_bound, err);
    job->split_done = st == WT_OK && d.split.on;
    if (prof) prof->split = d.split.on;
    split_close(d, d2, abort);
    double t2 = wt_now();
    if (st == WT_OK && k > 0) {
        st = finish_on_device(d, f, job, ctl, b, prof, err);
        *finished = true;
    }
    bound_finish(b, false); /* the finish did not run here: its thread ends */
    if (st == WT_OK && prof) st = profile_read(d, prof, err);
    double t3 = wt_now();
    device_close(d);
    if (prof) {
        prof->open_s = t1 - t0;
        prof->steps_s = t2 - t1;
        prof->close_s = wt_now() - t3;
    }
    return st;
}

/* The host's graph of the job's rows into *g (*stopped where ctl stopped
 * its build). */
static wt_status host_graph(const wt_instance *inst, const wt_ascent_job *job, wt_search_ctl *ctl,
                            int threads, wt_sgraph *g, bool *stopped, wt_error *err)
{
    wt_init_stop graph_stop = {ctl_stop_asked, ctl};
    return wt_sgraph_create(inst, job->graph, job->graph_k, threads, ctl ? &graph_stop : nullptr,
                            g, stopped, err);
}

/* The ascent's graph: its keys on the GPU where tuning allows and the
 * GPU builds it and has the memory (*on_gpu), else the host's in *g;
 * job->stopped where ctl stopped the host's build. */
static wt_status make_graph(int device, const wt_instance *inst, wt_ascent_job *job,
                            wt_search_ctl *ctl, int threads, bool allowed, wt_sgraph *g,
                            GraphKeys &keys, bool *on_gpu, wt_error *err)
{
    *on_gpu = false;
    if (allowed && graph_on_gpu(inst)) {
        cudaStream_t s = nullptr;
        WT_CUDA_CHECK(err, cudaSetDevice(device));
        WT_CUDA_CHECK(err, cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
        wt_status st = graph_keys(inst, job->graph, job->graph_k, s, keys, err);
        cudaStreamDestroy(s);
        if (st == WT_OK) {
            *on_gpu = true;
            return WT_OK;
        }
        graph_keys_free(keys);
        if (st != WT_STATUS_OUT_OF_MEMORY) return st;
    }
    bool stopped = false;
    wt_status st = host_graph(inst, job, ctl, threads, g, &stopped, err);
    job->stopped = stopped;
    return st;
}

/* The finish on the host (wt_ascent_finish) where the GPU did not run it:
 * the host's graph built first where the GPU built its own. */
static wt_status host_finish(const wt_instance *inst, wt_ascent_job *job, wt_search_ctl *ctl,
                             int threads, wt_sgraph *g, wt_error *err)
{
    if (!g->eu) {
        bool stopped = false;
        wt_status st = host_graph(inst, job, ctl, threads, g, &stopped, err);
        if (st != WT_OK || stopped) {
            job->stopped = stopped;
            return st;
        }
    }
    wt_onetree t;
    wt_status st = wt_onetree_alloc(g, &t, err);
    if (st != WT_OK) return st;
    /* The candidates and the bound under the best pi; ctl alone stops them. */
    wt_init_stop final_stop = {ctl_stop_asked, ctl};
    bool stopped = false;
    st = wt_ascent_finish(inst, g, job->pi, job->candidates_k, threads,
                          ctl ? &final_stop : nullptr, &t, job->candidates, &job->graph_bound,
                          &job->lower_bound, &stopped, err);
    if (st == WT_OK && stopped) job->stopped = true;
    wt_onetree_free(&t);
    return st;
}

} // namespace
} // namespace wt_ascent_gpu

using namespace wt_ascent_gpu;

extern "C" void wt_cuda_ascent_tuning_defaults(wt_cuda_ascent_tuning *t)
{
    t->fused = true;
    t->blocks_per_sm = 0;
    t->steps_per_launch = 0;
    t->finish_on_gpu = true;
    t->bound_on_gpu = true;
    t->graph_on_gpu = true;
    t->compact_edges = COMPACT_EDGES;
    t->split_edges = SPLIT_EDGES;
    t->profile = nullptr;
}

extern "C" wt_status wt_cuda_ascent(const wt_device *dev, const wt_instance *inst,
                                    wt_ascent_job *job, wt_search_ctl *ctl, wt_error *err)
{
    wt_cuda_ascent_tuning t;
    wt_cuda_ascent_tuning_defaults(&t);
    return wt_cuda_ascent_tuned(dev, inst, job, ctl, &t, err);
}

extern "C" wt_status wt_cuda_ascent_tuned(const wt_device *dev, const wt_instance *inst,
                                          wt_ascent_job *job, wt_search_ctl *ctl,
                                          const wt_cuda_ascent_tuning *tuning, wt_error *err)
{
    if (!dev) return wt_fail(err, WT_STATUS_INVALID_ARGUMENT, "ascent: NULL device");
    if (!tuning) return wt_fail(err, WT_STATUS_INVALID_ARGUMENT, "ascent: NULL tuning");
    if (tuning->blocks_per_sm < 0 || tuning->steps_per_launch < 0 ||
        tuning->compact_edges < -1 || tuning->split_edges < -1)
        return wt_fail(err, WT_STATUS_INVALID_ARGUMENT,
                       "ascent: blocks_per_sm %d and steps_per_launch %d must be >= 0, "
                       "compact_edges %lld and split_edges %lld >= -1",
                       tuning->blocks_per_sm, tuning->steps_per_launch, tuning->compact_edges,
                       tuning->split_edges);
    wt_status st = wt_ascent_job_check(inst, job, err);
    if (st != WT_OK) return st;
    job->lower_bound = -1;
    job->iterations_done = 0;
    job->stopped = false;
    job->split_done = false;
    int threads = ctl && ctl->threads > 0 ? ctl->threads : 1;
    if (tuning->profile) *tuning->profile = wt_cuda_ascent_profile{};
    double t0 = wt_now();
    wt_sgraph g = {};
    GraphKeys keys;
    bool on_gpu = false;
    st = make_graph(dev->index, inst, job, ctl, threads, tuning->graph_on_gpu, &g, keys, &on_gpu,
                    err);
    if (st != WT_OK || job->stopped) return st;
    if (tuning->profile) tuning->profile->graph_s = wt_now() - t0;
    Graph graph = {inst, inst->n, on_gpu ? keys.m : g.m, on_gpu ? &keys : nullptr,
                   on_gpu ? nullptr : &g};
    if (graph.m > (int64_t)EDGE_MASK) {
        st = wt_fail(err, WT_STATUS_UNSUPPORTED,
                     "ascent: the graph has %lld edges; the GPU's ascent takes fewer than 2^31",
                     (long long)graph.m);
    } else {
        /* job->pi: the start pi in, the best pi out. */
        bool finished = false;
        const wt_device *with = job->split_with;
        int split_device = with && with->backend == dev->backend && with->index != dev->index
                               ? with->index
                               : -1;
        st = ascend_on_device(dev->index, split_device, graph, job, ctl, threads, tuning,
                              &finished, err);
        graph_keys_free(keys);
        if (st == WT_OK && !finished) st = host_finish(inst, job, ctl, threads, &g, err);
    }
    graph_keys_free(keys);
    wt_sgraph_free(&g);
    return st;
}
