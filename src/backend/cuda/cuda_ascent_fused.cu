/*
 * cuda_ascent_fused.cu - the GPU ascent's steps in cooperative kernels
 * (cuda_ascent_fused.cuh): the same trees, special nodes, figures and
 * steps as the launch-a-phase path of cuda_ascent.cu, bit for bit.
 *
 * Why: at 100,000 cities a tree is a few megabytes of work, which an H200
 * does in microseconds, but as separate launches it is 5 R + 16 launches
 * and copies and R + 1 host synchronisations for R Boruvka rounds (each
 * round asks how many edges it added), which cost far more than the work.
 * Here the grid stays resident and the phases are separated by grid-wide
 * barriers (cooperative_groups::this_grid().sync(), which need every block
 * resident: the grid is sized by the occupancy query).  fused_tree is one
 * tree a launch (the first, whose figures start the rule on the host);
 * fused_steps runs many steps a launch, the step rule (core/ascent_rule.h,
 * the host's code, compiled for the device too) run by thread 0 after each
 * tree on the StepsBox in device memory, so that the host waits for the
 * device only once a launch.
 *
 * A step's phases, each a grid-stride loop, a barrier after each:
 *   start:    the pi update (wt_ascent_pi_next, the host's), the best pi's
 *             copy when asked, every city its own component, no degree,
 *             no cheapest edge, the figures zeroed.
 *   a round of Boruvka (until n - 1 edges, or a round that adds none: the
 *             graph is not connected):
 *     cheapest: each component's cheapest outgoing key by atomicMin; the
 *             first round, where every city is a component, also writes
 *             the keys (pi has just changed); compacting (from
 *             COMPACT_EDGES graph edges, cuda_ascent.cu), the second
 *             round lists the edges still between two components, and
 *             each later round reads only the last round's list and lists
 *             what it still finds between two;
 *     hook:     as cuda_ascent.cu's hook_kernel;
 *     root:     every label jumps to its root (jump_to_root in
 *             cuda_ascent_state.cuh says why racing jumps still end
 *             there), and the cheapest keys are reset for the next round.
 *             Every thread then reads the tree's edge count, written
 *             before the barrier, so all leave the loop together.
 *   second:   each leaf's second cheapest graph edge.
 *   sums:     per block the tree's weight, sum pi, sum (degree - 2)^2 and
 *             the dearest leaf key (cub::BlockReduce), then one atomic a
 *             block; integer sums are exact in any order.
 *   special:  one thread: the special node and edge, the two degrees it
 *             raises and the norm's change, (v + 1)^2 - v^2 = 2 v + 1 for
 *             each (the edge's ends differ), which saves a barrier and a
 *             second pass over the cities.
 *   rule:     (fused_steps) the same thread records the tree in the rule
 *             and decides the next step; every thread reads that after
 *             the barrier.
 * So 3 barriers a Boruvka round and 4 more a step.  With
 * wt_cuda_ascent_tuning.profile, thread 0 reads the global timer after
 * each barrier and adds each phase's time to its slot (PhaseClock).
 *
 * Split over two devices (SplitLink, fused_steps only): both grids run
 * every phase, each over every city but over its own half of the edges
 * in the two edge phases (cheapest, second).  After each of those the
 * grids meet (cross_barrier: one thread of each writes its count into the
 * other's memory and waits for the other's) and each takes the least of
 * its own and the other's key for every component (every leaf), read from
 * the other's memory over the devices' link (merge_phase).  From the same
 * keys both then compute the same hooks, labels, degrees and figures, and
 * run the same step rule, so both end every launch in the same state as
 * one device alone, bit for bit.  A step gains half of its edge phases
 * less the exchanges' reads and two more barriers a round and two a step.
 * A device computes the keys of its own half of the edges only, so the
 * tree's weight is summed from the edges' lengths and penalties instead.
 */
#include <cooperative_groups.h>
#include <cub/block/block_reduce.cuh>

#include "backend/cuda/cuda_ascent_fused.cuh"
#include "backend/cuda/cuda_common.cuh"
#include "core/ascent_rule.h"

namespace cg = cooperative_groups;

namespace wt_ascent_gpu {
namespace {

/* The kernels' arrays (DeviceAscent's). */
struct FusedArgs {
    const int32_t *eu, *ev, *d100;
    int64_t m;
    int n;
    int32_t *pi, *best_pi, *v_prev, *degree, *comp, *link, *tree_edge, *tree_list;
    uint64_t *key, *cheapest;
    TreeFigures *fig;
    LiveEdge *live[2]; /* compact: the edges still between components */
    bool compact;      /* later rounds read live, not the graph */
    uint64_t *prof;    /* PROF_SLOTS, or NULL: no phase clock */
    SplitLink split;   /* on: the steps shared with another device */
};

/* The cheapest keys a phase reads and writes: the one buffer, or, split,
 * the buffer of exchange number g (merge_phase says why two). */
__device__ __forceinline__ uint64_t *keys_of(const FusedArgs &a, uint32_t g)
{
    return a.split.on ? a.cheapest + (g & 1) * (int64_t)a.n : a.cheapest;
}

/* Thread 0's phase clock: each phase's time, from the last barrier's exit
 * to the next one's, added to its slot. */
struct PhaseClock {
    uint64_t *prof; /* NULL on every other thread, or when off */
    uint64_t t;
};

__device__ __forceinline__ uint64_t global_ns()
{
    uint64_t t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

__device__ PhaseClock clock_start(const FusedArgs &a)
{
    PhaseClock c = {thread_index() == 0 ? a.prof : nullptr, 0};
    if (c.prof) c.t = global_ns();
    return c;
}

__device__ __forceinline__ void clock_phase(PhaseClock &c, int slot)
{
    if (!c.prof) return;
    uint64_t t = global_ns();
    c.prof[slot] += t - c.t;
    c.t = t;
}

__device__ __forceinline__ void clock_count(PhaseClock &c, int slot)
{
    if (c.prof) c.prof[slot]++;
}

__device__ void start_phase(const FusedArgs &a, const TreeStep &s)
{
    for (int64_t x = thread_index(); x < a.n; x += thread_stride()) {
        int32_t i = (int32_t)x;
        if (s.update_pi) {
            int32_t v = a.degree[i] - 2, v_prev = s.first_step ? v : a.v_prev[i];
            if (s.keep_best) a.best_pi[i] = a.pi[i];
            a.pi[i] = wt_ascent_pi_next(a.pi[i], v, v_prev, s.step);
            a.v_prev[i] = v;
        }
        a.degree[i] = 0;
        a.comp[i] = i;
        if (!a.split.on) a.cheapest[i] = NONE; /* split: the exchanges reset them */
    }
    if (thread_index() == 0) {
        *a.fig = TreeFigures{};
        a.fig->special = -1;
    }
}

/* Appends an edge to list out: a warp's appends take one atomic. */
__device__ void append_live(LiveEdge *out, int32_t *count, uint64_t k, int32_t u, int32_t v)
{
    out[warp_slot(count)] = LiveEdge{k, u, v};
}

/* Round r's cheapest keys.  Round 0 (every city its own component) reads
 * the graph and writes the keys (pi has just changed); round 1 reads the
 * graph and, when compacting, lists the edges still between components in
 * live[0]; round r > 1, when compacting, reads list r & 1 and keeps its
 * edges still between components in the other: an edge inside a
 * component stays inside, so each round reads only what can still join,
 * a fraction of the graph after a few rounds. */
__device__ void cheapest_phase(const FusedArgs &a, const int32_t *comp, int round,
                               uint64_t *cheapest)
{
    if (round > 1 && a.compact) {
        int in = round & 1;
        const LiveEdge *src = a.live[in];
        int32_t count = *(volatile int32_t *)&a.fig->live[in]; /* the last round's appends */
        for (int64_t x = thread_index(); x < count; x += thread_stride()) {
            LiveEdge l = src[x];
            int32_t u = comp[l.u], v = comp[l.v];
            if (u == v) continue;
            atomic_min_key(&cheapest[u], l.key);
            atomic_min_key(&cheapest[v], l.key);
            append_live(a.live[in ^ 1], &a.fig->live[in ^ 1], l.key, u, v);
        }
        return;
    }
    for (int64_t e = a.split.e_lo + thread_index(); e < a.split.e_hi; e += thread_stride()) {
        int32_t u = a.eu[e], v = a.ev[e];
        uint64_t k;
        if (round == 0) { /* every city its own component: comp[c] == c */
            k = edge_key((int64_t)a.d100[e] + a.pi[u] + a.pi[v], e);
            a.key[e] = k;
        } else {
            u = comp[u];
            v = comp[v];
            k = a.key[e];
        }
        if (u == v) continue;
        atomic_min_key(&cheapest[u], k);
        atomic_min_key(&cheapest[v], k);
        if (round == 1 && a.compact) append_live(a.live[0], &a.fig->live[0], k, u, v);
    }
}

/* cuda_ascent.cu's hook_kernel: of two roots that chose the same edge the
 * lower stays a root and adds it. */
__device__ void hook_phase(const FusedArgs &a, const int32_t *comp, int32_t *link, int round,
                           const uint64_t *cheapest)
{
    /* the list this round read is the next round's to fill (its readers
     * are behind the barrier) */
    if (round > 1 && a.compact && thread_index() == 0) a.fig->live[round & 1] = 0;
    for (int64_t x = thread_index(); x < a.n; x += thread_stride()) {
        int32_t i = (int32_t)x, r = comp[i];
        link[i] = r;
        uint64_t k = cheapest[i];
        if (r != i || k == NONE) continue;
        int32_t e = (int32_t)(k & EDGE_MASK), u = a.eu[e], v = a.ev[e];
        int32_t cu = comp[u], cv = comp[v], other = cu == i ? cv : cu;
        bool mutual = cheapest[other] == k;
        if (!mutual || i < other) {
            a.tree_list[warp_slot(&a.fig->tree_edges)] = e;
            atomicAdd(&a.degree[u], 1);
            atomicAdd(&a.degree[v], 1);
            a.tree_edge[u] = e; /* read only at leaves, which have one tree edge */
            a.tree_edge[v] = e;
        }
        if (!mutual || i > other) link[i] = other;
    }
}

/* cuda_ascent.cu's root_kernel, and the cheapest keys reset (hook, their
 * last reader, is behind the barrier; split, the exchanges reset them). */
__device__ void root_phase(const FusedArgs &a, int32_t *link)
{
    for (int64_t i = thread_index(); i < a.n; i += thread_stride()) {
        jump_to_root(link, i);
        if (!a.split.on) a.cheapest[i] = NONE;
    }
}

__device__ void second_phase(const FusedArgs &a, uint64_t *cheapest)
{
    for (int64_t e = a.split.e_lo + thread_index(); e < a.split.e_hi; e += thread_stride()) {
        int32_t u = a.eu[e], v = a.ev[e];
        if (a.degree[u] == 1 && a.tree_edge[u] != e) atomic_min_key(&cheapest[u], a.key[e]);
        if (a.degree[v] == 1 && a.tree_edge[v] != e) atomic_min_key(&cheapest[v], a.key[e]);
    }
}

/* Split: the two grids meet.  Every block of this grid is past its writes
 * (the caller's grid.sync()); thread 0 makes them visible beyond the
 * device, tells the other device this grid's count, waits for the other's,
 * and the barrier after lets every block on.  The host's abort ends the
 * wait where the other device's grid never started (its launch failed):
 * the steps then run on with what this device has, and the host discards
 * them. */
__device__ void cross_barrier(const FusedArgs &a, uint32_t count, cg::grid_group &grid)
{
    if (thread_index() == 0) {
        __threadfence_system();
        *(volatile uint32_t *)a.split.peer_arrive = count;
        while (*(volatile uint32_t *)a.split.arrive < count && !*a.split.abort) {
        }
        __threadfence_system();
    }
    grid.sync();
}

/* Split, exchange number g: each component's (leaves: each leaf's) key
 * becomes the least of this device's and the other's, for the same
 * components on both (the phases between exchanges compute the same
 * labels and degrees on both devices from the same keys).  The other
 * device may read this buffer while it is lowered here, but it sees
 * either key, and takes the least of them and its own anyway.  Buffer
 * g + 1 is reset for the next exchange: the other device read it last at
 * exchange g - 1, before it came to this exchange's barrier, and this
 * device's next writes to it come after the barrier that ends this phase.
 * Peer reads skip the caches (__ldcv), which may still hold the buffer's
 * keys of two exchanges ago. */
__device__ void merge_phase(const FusedArgs &a, const int32_t *comp, uint32_t g, bool leaves)
{
    uint64_t *own = keys_of(a, g), *next = keys_of(a, g + 1);
    const unsigned long long *peer =
        (const unsigned long long *)(a.split.peer_cheapest + (g & 1) * (int64_t)a.n);
    for (int64_t x = thread_index(); x < a.n; x += thread_stride()) {
        int32_t i = (int32_t)x;
        if (leaves ? a.degree[i] == 1 : comp[i] == i) {
            uint64_t k = (uint64_t)__ldcv(peer + i);
            if (k < own[i]) own[i] = k;
        }
        next[i] = NONE;
    }
}

/* Split: the exchange after a phase that wrote keys into buffer g. */
__device__ void exchange(const FusedArgs &a, const int32_t *comp, uint32_t &g, bool leaves,
                         cg::grid_group &grid)
{
    if (!a.split.on) return;
    cross_barrier(a, g + 1, grid);
    merge_phase(a, comp, g, leaves);
    grid.sync();
    g++;
}

struct MaxOf {
    __device__ uint64_t operator()(uint64_t a, uint64_t b) const { return a > b ? a : b; }
};

/* tree_edges: the spanning tree's edges in tree_list (n - 1 unless the
 * graph is not connected). */
__device__ void sums_phase(const FusedArgs &a, int32_t tree_edges, const uint64_t *cheapest)
{
    int64_t weight = 0, sum_pi = 0, norm = 0;
    uint64_t leaf = 0;
    for (int64_t x = thread_index(); x < a.n; x += thread_stride()) {
        int32_t i = (int32_t)x, deg = a.degree[i];
        if (i < tree_edges) {
            /* split: this device computed the keys of its own edges only */
            int32_t e = a.tree_list[i];
            weight += a.split.on ? (int64_t)a.d100[e] + a.pi[a.eu[e]] + a.pi[a.ev[e]]
                                 : key_cost(a.key[e]);
        }
        sum_pi += a.pi[i];
        norm += (int64_t)(deg - 2) * (deg - 2);
        uint64_t lk = leaf_key(deg, cheapest[i], i);
        if (lk > leaf) leaf = lk;
    }
    using SumReduce = cub::BlockReduce<int64_t, BLOCK>;
    using MaxReduce = cub::BlockReduce<uint64_t, BLOCK>;
    __shared__ typename SumReduce::TempStorage sum_tmp;
    __shared__ typename MaxReduce::TempStorage max_tmp;
    weight = SumReduce(sum_tmp).Sum(weight);
    __syncthreads();
    sum_pi = SumReduce(sum_tmp).Sum(sum_pi);
    __syncthreads();
    norm = SumReduce(sum_tmp).Sum(norm);
    leaf = MaxReduce(max_tmp).Reduce(leaf, MaxOf{});
    if (threadIdx.x == 0) {
        /* two's complement: the unsigned sum is the signed one */
        atomicAdd((unsigned long long *)&a.fig->tree_weight, (unsigned long long)weight);
        atomicAdd((unsigned long long *)&a.fig->sum_pi, (unsigned long long)sum_pi);
        atomicAdd((unsigned long long *)&a.fig->norm, (unsigned long long)norm);
        if (leaf) atomicMax((unsigned long long *)&a.fig->leaf_key, (unsigned long long)leaf);
    }
}

/* One thread: the special node from the dearest leaf key, its edge into
 * the degrees, the norm corrected for the two degrees it raises. */
__device__ void special_phase(const FusedArgs &a, const uint64_t *cheapest)
{
    uint64_t lk = *(volatile uint64_t *)&a.fig->leaf_key; /* the blocks' atomics */
    if (lk == 0) return;                                   /* special stays -1 */
    int32_t s = leaf_of(lk);
    uint64_t k = cheapest[s];
    int32_t e = (int32_t)(k & EDGE_MASK), to = a.eu[e] == s ? a.ev[e] : a.eu[e];
    int64_t vs = a.degree[s] - 2, vt = a.degree[to] - 2;
    a.fig->special = s;
    a.fig->special_cost = key_cost(k);
    atomicAdd((unsigned long long *)&a.fig->norm, (unsigned long long)(2 * vs + 1 + 2 * vt + 1));
    a.degree[s]++;
    a.degree[to]++;
}

/* Step s's pi update and the 1-tree: every phase; the special node's
 * thread (thread 0) is the last to write, with no barrier after it. */
__device__ void tree_phases(const FusedArgs &a, const TreeStep &s, cg::grid_group &grid,
                            PhaseClock &clock, uint32_t &g)
{
    start_phase(a, s);
    grid.sync();
    clock_phase(clock, PROF_START);
    clock_count(clock, PROF_TREES);
    int32_t *comp = a.comp, *link = a.link, joined = 0;
    for (int round = 0;; round++) {
        clock_count(clock, PROF_ROUNDS);
        uint64_t *keys = keys_of(a, g);
        cheapest_phase(a, comp, round, keys);
        grid.sync();
        exchange(a, comp, g, false, grid);
        clock_phase(clock, PROF_CHEAPEST);
        hook_phase(a, comp, link, round, keys);
        grid.sync();
        clock_phase(clock, PROF_HOOK);
        root_phase(a, link);
        grid.sync();
        clock_phase(clock, PROF_ROOT);
        int32_t *x = comp;
        comp = link;
        link = x;
        /* volatile: past L1, the count every block's hooks left */
        int32_t now = *(volatile int32_t *)&a.fig->tree_edges;
        if (now == a.n - 1 || now == joined) break; /* done, or not connected */
        joined = now;
    }
    uint64_t *seconds = keys_of(a, g);
    second_phase(a, seconds);
    grid.sync();
    exchange(a, comp, g, true, grid);
    clock_phase(clock, PROF_SECOND);
    sums_phase(a, *(volatile int32_t *)&a.fig->tree_edges, seconds);
    grid.sync();
    if (thread_index() == 0) special_phase(a, seconds);
    clock_phase(clock, PROF_SUMS);
}

/* Thread 0 after a step's tree: the step rule (core/ascent_rule.h, the
 * host's code) records the tree and says whether another step follows. */
__device__ void rule_phase(const FusedArgs &a, StepsBox *box)
{
    volatile TreeFigures *f = a.fig;
    int32_t tree_edges = f->tree_edges;
    if (tree_edges < a.n - 1 || f->special < 0) {
        box->failed = tree_edges < a.n - 1 ? FAILED_DISCONNECTED : FAILED_NO_SPECIAL;
        box->tree_edges = tree_edges;
        box->more = 0;
        return;
    }
    int64_t bound = f->tree_weight + f->special_cost - 2 * f->sum_pi;
    wt_ascent_rule r = box->rule; /* thread 0's alone while the kernel runs */
    box->keep_best = wt_ascent_rule_record(&r, bound, f->norm);
    box->first_step = 0;
    box->more = wt_ascent_rule_more(&r);
    box->rule = r;
}

static __global__ void __launch_bounds__(BLOCK) fused_tree_kernel(FusedArgs a, TreeStep s)
{
    cg::grid_group grid = cg::this_grid();
    PhaseClock clock = clock_start(a);
    uint32_t g = 0; /* never split (fused_tree) */
    tree_phases(a, s, grid, clock, g);
}

/* Up to max_steps steps as the rule in box says; box's flags are read by
 * every thread before the step's first barrier and written by thread 0
 * after its last phase, so each step's readers see the previous step's
 * rule. */
static __global__ void __launch_bounds__(BLOCK) fused_steps_kernel(FusedArgs a, StepsBox *box,
                                                                     int max_steps)
{
    cg::grid_group grid = cg::this_grid();
    volatile StepsBox *b = box;
    PhaseClock clock = clock_start(a);
    uint32_t g = b->merges; /* every thread's count of the split's exchanges */
    for (int k = 0; k < max_steps && b->more; k++) {
        TreeStep s = {b->rule.step, true, b->first_step != 0, b->keep_best != 0};
        tree_phases(a, s, grid, clock, g);
        if (thread_index() == 0) {
            rule_phase(a, box);
            box->merges = g;
        }
        grid.sync();
        clock_phase(clock, PROF_RULE);
    }
}

} // namespace

wt_status fused_grid(int device, int blocks_per_sm, int64_t m, int *blocks, wt_error *err)
{
    *blocks = 0;
    int coop = 0, sms = 0, fit_tree = 0, fit_steps = 0;
    WT_CUDA_CHECK(err, cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, device));
    WT_CUDA_CHECK(err, cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    WT_CUDA_CHECK(err, cudaOccupancyMaxActiveBlocksPerMultiprocessor(&fit_tree, fused_tree_kernel,
                                                                       BLOCK, 0));
    WT_CUDA_CHECK(err, cudaOccupancyMaxActiveBlocksPerMultiprocessor(&fit_steps,
                                                                       fused_steps_kernel, BLOCK, 0));
    int fit = fit_tree < fit_steps ? fit_tree : fit_steps; /* one grid for both kernels */
    if (!coop || fit < 1 || sms < 1) return WT_OK;
    int per_sm = blocks_per_sm > 0 && blocks_per_sm < fit ? blocks_per_sm : fit;
    int64_t most = (int64_t)per_sm * sms, need = (m + BLOCK - 1) / BLOCK;
    *blocks = (int)(need < 1 ? 1 : need < most ? need : most);
    return WT_OK;
}

static FusedArgs args_of(const DeviceAscent &d)
{
    return FusedArgs{d.d_eu,     d.d_ev,      d.d_d100,      d.m,       d.n,
                     d.d_pi,     d.d_best_pi, d.d_v_prev,    d.d_degree, d.d_comp,
                     d.d_link,   d.d_tree_edge, d.d_tree_list, d.d_key, d.d_cheapest,
                     d.d_fig,    {d.d_live[0], d.d_live[1]}, d.compact, d.d_prof, d.split};
}

/* d's arguments for a tree of its own: all the edges, no exchange. */
static FusedArgs whole_args_of(const DeviceAscent &d)
{
    FusedArgs a = args_of(d);
    a.split = SplitLink{};
    a.split.e_hi = d.m;
    return a;
}

cudaError_t fused_tree(DeviceAscent &d, const TreeStep &s)
{
    FusedArgs a = whole_args_of(d);
    TreeStep step = s;
    void *args[] = {&a, &step};
    return cudaLaunchCooperativeKernel((const void *)fused_tree_kernel,
                                       dim3((unsigned)d.fused_blocks), dim3(BLOCK), args, 0,
                                       d.stream);
}

wt_status fused_steps(DeviceAscent &d, int max_steps, wt_error *err)
{
    FusedArgs a = d.split.on ? args_of(d) : whole_args_of(d);
    StepsBox *box = d.d_box;
    void *args[] = {&a, &box, &max_steps};
    WT_CUDA_CHECK(err, cudaLaunchCooperativeKernel((const void *)fused_steps_kernel,
                                                   dim3((unsigned)d.fused_blocks), dim3(BLOCK),
                                                   args, 0, d.stream));
    return WT_OK;
}

} // namespace wt_ascent_gpu
