/*
 * cuda_ascent_finish.cu - the alpha-values and the candidate lists of the
 * GPU ascent's finish (cuda_ascent_finish.cuh), equal to the host's
 * (core/ascent_finish.h) bit for bit.
 *
 * Alpha-nearness (Helsgaun 2000, section 4.1; core/onetree.h states the
 * rules) needs the dearest edge on the tree's path between the ends of
 * every graph edge.  The host walks the tree depth first from city 0 and
 * answers the paths by binary lifting; a walk is sequential, so here the
 * tree is rooted by the Euler tour technique instead (Tarjan & Vishkin
 * 1985): the tree's edges both ways sorted by their source
 * (cub::DeviceRadixSort), each arc's successor in the tour, the tour's
 * order by Wyllie's pointer jumping (log2 of 2 n rounds), each arc down
 * or up by which of it and its twin comes first, and the depths by
 * cub::DeviceScan over +1 and -1 in the tour's order.  Then the lifting
 * tables level by level and one thread an edge for its alpha-value, the
 * host's rules and climb (cuda_ascent_finish_steps.h: the steps each
 * thread runs, shared with a host test).  A path maximum does not depend
 * on the root or the walk, so the values are the host's.
 *
 * The lists: each city's graph edges by (alpha, c_pi, other city), the
 * first k.  Each edge at each of its two ends is one thread that counts
 * the city's edges that come before it (a row has about 10 to 22 edges,
 * so the count is cheaper than a segmented sort over 2 m entries, and
 * needs no scratch); its count is its place in the row.  A city's edges
 * are two ranges: those where it is the lower end (the edges are sorted by
 * (eu, ev)), and those where it is the higher, in the edges sorted by ev
 * (cub::DeviceRadixSort, stable).
 *
 * Hand-written: the per-element steps (CUB has no Euler tour, no pointer
 * jumping and no path maxima), and the offsets by binary search (one
 * search a city over a sorted array; a run-length encoding would skip the
 * cities that have no edge on one side).
 */
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>

#include "backend/cuda/cuda_ascent_finish.cuh"
#include "backend/cuda/cuda_ascent_finish_steps.h"
#include "backend/cuda/cuda_common.cuh"

namespace wt_ascent_gpu {
namespace {

/* Pointer-jumping rounds for `arcs`: the least R with 2^R >= arcs. */
static int rank_rounds(int64_t arcs)
{
    int r = 0;
    while (((int64_t)1 << r) < arcs) r++;
    return r;
}

/* ------------------------------------------------------------- kernels */

static __global__ void cost_kernel(uint64_t *key, int64_t m)
{
    int64_t *cost = (int64_t *)key; /* in place: each thread reads its own key first */
    for (int64_t e = thread_index(); e < m; e += thread_stride()) cost[e] = key_cost(key[e]);
}

static __global__ void arc_keys_kernel(const int32_t *tree_list, const int32_t *eu,
                                       const int32_t *ev, int32_t *src, int32_t *arc, int64_t arcs)
{
    for (int64_t a = thread_index(); a < arcs; a += thread_stride())
        wt_fin_arc_keys(a, tree_list, eu, ev, src, arc);
}

static __global__ void arc_place_kernel(const int32_t *s_src, const int32_t *s_arc, int32_t *pos,
                                        int32_t *first, int64_t arcs)
{
    for (int64_t p = thread_index(); p < arcs; p += thread_stride())
        wt_fin_arc_place(p, s_src, s_arc, pos, first);
}

static __global__ void tour_next_kernel(const int32_t *s_src, const int32_t *s_arc,
                                        const int32_t *pos, const int32_t *first, int32_t *twin,
                                        int32_t *succ, int32_t *dist, int64_t arcs)
{
    for (int64_t p = thread_index(); p < arcs; p += thread_stride())
        wt_fin_tour_next(p, arcs, s_src, s_arc, pos, first, twin, succ, dist);
}

static __global__ void rank_round_kernel(const int32_t *succ, const int32_t *dist, int32_t *succ2,
                                         int32_t *dist2, int64_t arcs)
{
    for (int64_t p = thread_index(); p < arcs; p += thread_stride())
        wt_fin_rank_round(p, succ, dist, succ2, dist2);
}

static __global__ void orient_kernel(const int32_t *dist, const int32_t *twin,
                                     const int32_t *s_src, const int32_t *s_arc,
                                     const int32_t *tree_list, const int64_t *cost,
                                     int32_t *parent, int64_t *cost_up, int32_t *down_at,
                                     int32_t *step, int64_t arcs)
{
    for (int64_t p = thread_index(); p < arcs; p += thread_stride())
        wt_fin_orient(p, arcs, dist, twin, s_src, s_arc, tree_list, cost, parent, cost_up,
                      down_at, step);
}

static __global__ void depth_kernel(const int32_t *down_at, const int32_t *scan, int32_t *depth,
                                    int n)
{
    for (int64_t v = thread_index(); v < n; v += thread_stride())
        wt_fin_depth(v, down_at, scan, depth);
}

static __global__ void lift_kernel(const int32_t *up0, const int64_t *mx0, int32_t *up1,
                                   int64_t *mx1, int n)
{
    for (int64_t v = thread_index(); v < n; v += thread_stride())
        wt_fin_lift(v, up0, mx0, up1, mx1);
}

static __global__ void alpha_kernel(wt_fin_tree t, const int32_t *eu, const int32_t *ev,
                                    const int64_t *cost, int64_t *alpha, int64_t m)
{
    for (int64_t e = thread_index(); e < m; e += thread_stride())
        alpha[e] = wt_fin_alpha(&t, e, eu[e], ev[e], cost[e]);
}

static __global__ void sequence_kernel(int32_t *seq, int64_t m)
{
    for (int64_t e = thread_index(); e < m; e += thread_stride()) seq[e] = (int32_t)e;
}

/* out_off[i] and in_off[i] for i in 0..n: the first edge whose lower
 * (higher) end is i or more. */
static __global__ void offsets_kernel(const int32_t *eu, const int32_t *in_city, int64_t m,
                                      int32_t *out_off, int32_t *in_off, int n)
{
    for (int64_t i = thread_index(); i <= n; i += thread_stride()) {
        out_off[i] = wt_fin_lower_bound(eu, m, (int32_t)i);
        in_off[i] = wt_fin_lower_bound(in_city, m, (int32_t)i);
    }
}

static __global__ void list_kernel(wt_fin_graph g, int k, int32_t *cand)
{
    for (int64_t x = thread_index(); x < 2 * g.m; x += thread_stride())
        wt_fin_list_arc(x, &g, k, cand);
}

/* ------------------------------------------------------------- phases */

/* The sorts' keys are cities, non-negative: sorted as uint32 on their
 * low `bits` bits (a city of n fits wt_fin_levels(n) bits). */
static cudaError_t sort_by_city(void *temp, size_t &bytes, const int32_t *keys, int32_t *keys_out,
                                const int32_t *values, int32_t *values_out, int64_t count,
                                int bits, cudaStream_t stream)
{
    return cub::DeviceRadixSort::SortPairs(temp, bytes, (const uint32_t *)keys,
                                           (uint32_t *)keys_out, values, values_out, (int)count, 0,
                                           bits, stream);
}

/* The tree rooted at city 0: level 0 of d_up (the parent) and d_mx (the
 * cost of the edge up), and d_depth. */
static wt_status root_tree(DeviceAscent &d, DeviceFinish &f, const int64_t *cost, wt_error *err)
{
    int64_t arcs = f.arcs;
    int ab = blocks_for(arcs), nb = blocks_for(f.n);
    cudaStream_t s = d.stream;
    arc_keys_kernel<<<ab, BLOCK, 0, s>>>(d.d_tree_list, d.d_eu, d.d_ev, f.d_src, f.d_arc, arcs);
    WT_CUDA_CHECK(err, cudaGetLastError());
    size_t tb = d.temp_bytes;
    WT_CUDA_CHECK(err, sort_by_city(d.d_temp, tb, f.d_src, f.d_s_src, f.d_arc, f.d_s_arc, arcs,
                                    f.levels, s));
    int32_t *pos = f.d_src, *twin = f.d_arc; /* the sort's inputs are free now */
    arc_place_kernel<<<ab, BLOCK, 0, s>>>(f.d_s_src, f.d_s_arc, pos, f.d_first, arcs);
    WT_CUDA_CHECK(err, cudaGetLastError());
    tour_next_kernel<<<ab, BLOCK, 0, s>>>(f.d_s_src, f.d_s_arc, pos, f.d_first, twin,
                                           f.d_succ[0], f.d_dist[0], arcs);
    WT_CUDA_CHECK(err, cudaGetLastError());
    int at = 0;
    for (int r = rank_rounds(arcs); r > 0; r--, at ^= 1) {
        rank_round_kernel<<<ab, BLOCK, 0, s>>>(f.d_succ[at], f.d_dist[at], f.d_succ[at ^ 1],
                                                f.d_dist[at ^ 1], arcs);
        WT_CUDA_CHECK(err, cudaGetLastError());
    }
    const int32_t *dist = f.d_dist[at];
    int32_t *step = f.d_succ[0], *scan = f.d_succ[1]; /* the pointers are spent */
    int32_t *down_at = f.d_first;                     /* the blocks' firsts are spent */
    orient_kernel<<<ab, BLOCK, 0, s>>>(dist, twin, f.d_s_src, f.d_s_arc, d.d_tree_list, cost,
                                        f.d_up, f.d_mx, down_at, step, arcs);
    WT_CUDA_CHECK(err, cudaGetLastError());
    tb = d.temp_bytes;
    WT_CUDA_CHECK(err, cub::DeviceScan::InclusiveSum(d.d_temp, tb, step, scan, (int)arcs, s));
    depth_kernel<<<nb, BLOCK, 0, s>>>(down_at, scan, f.d_depth, f.n);
    WT_CUDA_CHECK(err, cudaGetLastError());
    return WT_OK;
}

/* Every graph edge's alpha-value into f.d_alpha. */
static wt_status alpha_values(DeviceAscent &d, DeviceFinish &f, const int64_t *cost,
                              int32_t special, int64_t special_edge, int64_t special_cost,
                              wt_error *err)
{
    int64_t n = f.n;
    int nb = blocks_for(n);
    for (int j = 1; j < f.levels; j++) {
        lift_kernel<<<nb, BLOCK, 0, d.stream>>>(f.d_up + (j - 1) * n, f.d_mx + (j - 1) * n,
                                                 f.d_up + j * n, f.d_mx + j * n, f.n);
        WT_CUDA_CHECK(err, cudaGetLastError());
    }
    wt_fin_tree t = {n, f.levels, f.d_up, f.d_mx, f.d_depth, special, special_edge, special_cost};
    alpha_kernel<<<blocks_for(f.m), BLOCK, 0, d.stream>>>(t, d.d_eu, d.d_ev, cost, f.d_alpha, f.m);
    WT_CUDA_CHECK(err, cudaGetLastError());
    return WT_OK;
}

/* The rows into f.d_cand. */
static wt_status lists(DeviceAscent &d, DeviceFinish &f, const int64_t *cost, wt_error *err)
{
    int64_t m = f.m;
    cudaStream_t s = d.stream;
    sequence_kernel<<<blocks_for(m), BLOCK, 0, s>>>(f.d_seq, m);
    WT_CUDA_CHECK(err, cudaGetLastError());
    size_t tb = d.temp_bytes;
    WT_CUDA_CHECK(err, sort_by_city(d.d_temp, tb, d.d_ev, f.d_in_city, f.d_seq, f.d_in_edge, m,
                                    f.levels, s));
    offsets_kernel<<<blocks_for((int64_t)f.n + 1), BLOCK, 0, s>>>(d.d_eu, f.d_in_city, m,
                                                                   f.d_out_off, f.d_in_off, f.n);
    WT_CUDA_CHECK(err, cudaGetLastError());
    WT_CUDA_CHECK(err, cudaMemsetAsync(f.d_cand, 0xff, (size_t)f.n * (size_t)f.k * sizeof(int32_t),
                                       s));
    wt_fin_graph g = {m, d.d_eu, d.d_ev, f.d_in_edge, f.d_out_off, f.d_in_off, f.d_alpha, cost};
    list_kernel<<<blocks_for(2 * m), BLOCK, 0, s>>>(g, f.k, f.d_cand);
    WT_CUDA_CHECK(err, cudaGetLastError());
    return WT_OK;
}

/* Waits for the stream, then asks stop. */
static wt_status poll(cudaStream_t s, bool (*stop)(void *), void *user, bool *stopped,
                      wt_error *err)
{
    WT_CUDA_CHECK(err, cudaStreamSynchronize(s));
    *stopped = stop && stop(user);
    return WT_OK;
}

} // namespace

void finish_load_kernels()
{
    const void *kernels[] = {(const void *)cost_kernel,       (const void *)arc_keys_kernel,
                             (const void *)arc_place_kernel,  (const void *)tour_next_kernel,
                             (const void *)rank_round_kernel, (const void *)orient_kernel,
                             (const void *)depth_kernel,      (const void *)lift_kernel,
                             (const void *)alpha_kernel,      (const void *)sequence_kernel,
                             (const void *)offsets_kernel,    (const void *)list_kernel};
    wt_cuda_load_kernels(kernels, sizeof kernels / sizeof *kernels);
}

wt_status finish_temp_bytes(int n, int64_t m, cudaStream_t stream, size_t *bytes, wt_error *err)
{
    size_t b[3] = {0, 0, 0};
    int64_t arcs = 2 * ((int64_t)n - 1);
    int bits = wt_fin_levels(n);
    WT_CUDA_CHECK(err, sort_by_city(nullptr, b[0], nullptr, nullptr, nullptr, nullptr, arcs, bits,
                                    stream));
    WT_CUDA_CHECK(err, sort_by_city(nullptr, b[1], nullptr, nullptr, nullptr, nullptr, m, bits,
                                    stream));
    int32_t *none = nullptr; /* the types of root_tree's call: the same scratch size */
    WT_CUDA_CHECK(err, cub::DeviceScan::InclusiveSum(nullptr, b[2], none, none, (int)arcs, stream));
    *bytes = 1;
    for (size_t x : b)
        if (x > *bytes) *bytes = x;
    return WT_OK;
}

void finish_plan(DeviceFinish &f, int n, int64_t m, int k, wt_cuda::ArenaPlan &plan)
{
    f.n = n;
    f.m = m;
    f.k = k;
    f.levels = wt_fin_levels(n);
    f.arcs = 2 * ((int64_t)n - 1);
    int32_t **arc_arrays[] = {&f.d_src,     &f.d_arc,     &f.d_s_src,   &f.d_s_arc,
                              &f.d_succ[0], &f.d_succ[1], &f.d_dist[0], &f.d_dist[1]};
    for (int32_t **a : arc_arrays) plan.add(a, f.arcs);
    plan.add(&f.d_first, n);
    plan.add(&f.d_depth, n);
    plan.add(&f.d_up, (int64_t)f.levels * n);
    plan.add(&f.d_mx, (int64_t)f.levels * n);
    plan.add(&f.d_alpha, m);
    plan.add(&f.d_seq, m);
    plan.add(&f.d_in_city, m);
    plan.add(&f.d_in_edge, m);
    plan.add(&f.d_out_off, (int64_t)n + 1);
    plan.add(&f.d_in_off, (int64_t)n + 1);
    plan.add(&f.d_cand, (int64_t)n * k);
}

wt_status finish_candidates(DeviceAscent &d, DeviceFinish &f, int32_t special,
                            bool (*stop)(void *), void *stop_user, int32_t *candidates,
                            bool *stopped, wt_error *err)
{
    *stopped = false;
    /* The special edge: the special node's second cheapest, which the
     * tree's last phase left in d_cheapest. */
    uint64_t second = 0;
    WT_CUDA_CHECK(err, cudaMemcpyAsync(&second, d.d_cheapest + special, sizeof second,
                                       cudaMemcpyDeviceToHost, d.stream));
    WT_CUDA_CHECK(err, cudaStreamSynchronize(d.stream));
    int64_t special_edge = (int64_t)(second & EDGE_MASK), special_cost = key_cost(second);
    cost_kernel<<<blocks_for(d.m), BLOCK, 0, d.stream>>>(d.d_key, d.m);
    WT_CUDA_CHECK(err, cudaGetLastError());
    const int64_t *cost = (const int64_t *)d.d_key;
    wt_status st = root_tree(d, f, cost, err);
    if (st == WT_OK) st = poll(d.stream, stop, stop_user, stopped, err);
    if (st != WT_OK || *stopped) return st;
    st = alpha_values(d, f, cost, special, special_edge, special_cost, err);
    if (st == WT_OK) st = poll(d.stream, stop, stop_user, stopped, err);
    if (st != WT_OK || *stopped) return st;
    st = lists(d, f, cost, err);
    if (st != WT_OK) return st;
    WT_CUDA_CHECK(err, cudaMemcpyAsync(candidates, f.d_cand,
                                       (size_t)f.n * (size_t)f.k * sizeof(int32_t),
                                       cudaMemcpyDeviceToHost, d.stream));
    WT_CUDA_CHECK(err, cudaStreamSynchronize(d.stream)); /* complete: no stop after this */
    return WT_OK;
}

} // namespace wt_ascent_gpu
