/*
 * cuda_ascent_state.cuh - what the GPU ascent's two ways of computing a
 * 1-tree share (cuda_ascent.cu: a launch a phase; cuda_ascent_fused.cu:
 * one cooperative kernel a tree): the device memory, the figures a tree
 * leaves for the host, and the packing of edge keys and leaf keys whose
 * orders make both trees the host's bit for bit (cuda_ascent.cu says why).
 */
#ifndef WT_BACKEND_CUDA_ASCENT_STATE_CUH
#define WT_BACKEND_CUDA_ASCENT_STATE_CUH

#include <cstdint>

#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include "core/ascent_rule.h"

namespace wt_ascent_gpu {

constexpr int BLOCK = 256;
constexpr int64_t MAX_BLOCKS = 1 << 16; /* launched kernels: grid-stride loops beyond */

/* A grid-stride loop's start and stride. */
__device__ __forceinline__ int64_t thread_index()
{
    return blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
}
__device__ __forceinline__ int64_t thread_stride() { return (int64_t)gridDim.x * blockDim.x; }

/* Label i up to its root, after a round's hooks have made the labels a
 * forest whose roots are the next round's components: pointer jumping,
 * each step pointing i at what its target points at now.  The targets'
 * threads jump at the same time, so a chain of d labels takes about
 * log2 d steps, not the d of a walk (chains of hundreds where ties make
 * each city hook onto its lowest neighbour, as on pla85900).  Labels only
 * ever move up the forest, so one read while another thread rewrites it
 * still leads upward, and the jumps end at the root; the reads and writes
 * go through L2 (ld/st.cg), where the other SMs' jumps are seen, not
 * through this SM's L1. */
__device__ __forceinline__ void jump_to_root(int32_t *link, int64_t i)
{
    int32_t p = __ldcg(&link[i]);
    for (int32_t up = __ldcg(&link[p]); up != p; up = __ldcg(&link[p])) {
        p = up;
        __stcg(&link[i], p);
    }
}

/* The next free slot of a list whose length is *count, for each calling
 * thread: one atomic for the warp's threads that call it together, not one
 * each, since every appending thread of the grid hits the same counter
 * (the tree's edges: half a million appends in a million cities' first
 * Boruvka round, which one address takes one at a time). */
__device__ __forceinline__ int32_t warp_slot(int32_t *count)
{
    cooperative_groups::coalesced_group g = cooperative_groups::coalesced_threads();
    int32_t base = 0;
    if (g.thread_rank() == 0) base = atomicAdd(count, (int32_t)g.size());
    return g.shfl(base, 0) + (int32_t)g.thread_rank();
}

/* The blocks of BLOCK threads a launch over count items takes, at most
 * MAX_BLOCKS. */
inline int blocks_for(int64_t count)
{
    int64_t b = (count + BLOCK - 1) / BLOCK;
    return (int)(b < 1 ? 1 : b > MAX_BLOCKS ? MAX_BLOCKS : b);
}
constexpr uint64_t NONE = ~0ull; /* no key: no edge found */
constexpr int EDGE_BITS = 31;
constexpr uint64_t EDGE_MASK = (1ull << EDGE_BITS) - 1;
constexpr int64_t COST_OFFSET = (int64_t)1 << 31; /* c_pi + it >= 0 */
constexpr int CITY_BITS = 28;                      /* n < 2^28: wt_onetree_check_lengths */
constexpr uint64_t CITY_MASK = (1ull << CITY_BITS) - 1;

/* What a tree's kernels leave for the host; read back in one copy. */
struct TreeFigures {
    uint64_t leaf_key;    /* the special leaf's packed (cost + 1, -city); 0: none */
    int64_t tree_weight;  /* c_pi of the spanning tree's edges */
    int64_t sum_pi;
    int64_t norm;         /* sum (degree - 2)^2 of the 1-tree */
    int64_t special_cost; /* c_pi of the special edge */
    int32_t special;      /* the special node; -1: no leaf has a second edge */
    int32_t tree_edges;   /* spanning tree edges so far (Boruvka) */
    int32_t live[2];      /* the fused path's two edge lists' lengths (LiveEdge) */
};

/* An edge between two components on the fused path's lists: its key and
 * the labels of its ends' components when it was listed (a label's
 * component label is its root's after every later round, as a city's). */
struct alignas(16) LiveEdge {
    uint64_t key;
    int32_t u, v;
};

/* The step rule's state while the fused kernel drives the steps on the
 * device (one thread runs core/ascent_rule.h's code after each tree): the
 * host writes it before the first launch and reads it after each. */
struct StepsBox {
    wt_ascent_rule rule;
    int32_t more;       /* the rule takes another step */
    int32_t keep_best;  /* the last step's pi is the best: kept before the next update */
    int32_t first_step; /* the next step is the first (TreeStep.first_step) */
    int32_t failed;     /* 0; FAILED_DISCONNECTED; FAILED_NO_SPECIAL */
    int32_t tree_edges; /* the spanning tree's edges when the graph is not connected */
    uint32_t merges;    /* split steps: the exchanges of cheapest keys so far (SplitLink) */
};
constexpr int32_t FAILED_DISCONNECTED = 1;
constexpr int32_t FAILED_NO_SPECIAL = 2;

/* The steps split over two devices (cuda_ascent_fused.cu says how): each
 * device holds the whole graph and every city's state, but reads only its
 * own range of the edges for the cheapest and second-cheapest keys; after
 * each such phase the two exchange their keys through peer memory, behind
 * a barrier of the two grids.  Each device's d_cheapest then holds two
 * buffers of n keys, taken in turn by the exchanges. */
struct SplitLink {
    bool on = false;
    int64_t e_lo = 0, e_hi = 0;           /* this device's edges */
    const uint64_t *peer_cheapest = nullptr; /* the other device's two buffers (2 n) */
    uint32_t *arrive = nullptr;      /* this device's: the other writes its barrier count here */
    uint32_t *peer_arrive = nullptr; /* the other device's */
    const volatile int32_t *abort = nullptr; /* host-mapped: the host gave up on the other */
};

/* The fused path's phase clock (wt_cuda_ascent_profile): device time
 * summed per phase in ns, then the Boruvka rounds and the trees. */
enum ProfileSlot {
    PROF_START, PROF_CHEAPEST, PROF_HOOK, PROF_ROOT, PROF_SECOND, PROF_SUMS,
    PROF_RULE, PROF_PHASES, PROF_ROUNDS = PROF_PHASES, PROF_TREES, PROF_SLOTS
};

/* The ascent's device memory (d_ pointers) and stream. */
struct DeviceAscent {
    int device = 0; /* the CUDA device of everything below */
    int n = 0;
    int64_t m = 0;
    cudaStream_t stream = nullptr;
    int32_t *d_eu = nullptr, *d_ev = nullptr, *d_d100 = nullptr; /* m */
    uint64_t *d_key = nullptr;                                   /* m */
    int32_t *d_pi = nullptr, *d_best_pi = nullptr, *d_v_prev = nullptr, *d_degree = nullptr;
    int32_t *d_comp = nullptr, *d_link = nullptr; /* component labels: this round's, the next */
    int32_t *d_tree_edge = nullptr;               /* a leaf's tree edge */
    int32_t *d_tree_list = nullptr;               /* the spanning tree's n - 1 edges */
    uint64_t *d_cheapest = nullptr; /* a component's cheapest outgoing key; a leaf's second
                                       (n; 2 n with split: its two buffers) */
    LiveEdge *d_live[2] = {nullptr, nullptr}; /* m each: the fused path's edge lists */
    bool compact = false; /* the fused path's rounds read d_live (allocated) */
    uint64_t *d_prof = nullptr; /* PROF_SLOTS: the fused path's phase clock; NULL: off */
    TreeFigures *d_fig = nullptr;
    TreeFigures *h_fig = nullptr; /* pinned: the figures' read-back */
    StepsBox *d_box = nullptr, *h_box = nullptr; /* the fused steps' rule; h_ pinned */
    void *d_temp = nullptr;       /* CUB's scratch */
    size_t temp_bytes = 0;
    void *d_block = nullptr; /* one allocation (device_arena.cuh) for every d_ array above
                                but d_live and d_prof, and for the finish's */
    void *h_block = nullptr; /* one pinned allocation for h_fig and h_box */
    int fused_blocks = 0; /* the cooperative kernel's grid; 0: a launch a phase */
    SplitLink split;      /* the steps split with a second device (on) */
    uint32_t *d_arrive = nullptr; /* split: the barrier count the other device writes */
};

/* What a tree is asked for before it is computed: the pi update that
 * leads to it (none for the first tree) and the copy of the penalties that
 * the step rule just called the best. */
struct TreeStep {
    int64_t step;    /* the pi update's step size (ascent_rule.h) */
    bool update_pi;  /* pi = wt_ascent_pi_next(pi, v, v_prev, step) first */
    bool first_step; /* the first update: v_prev is v (no earlier tree) */
    bool keep_best;  /* best pi = pi before the update */
};


/* Edge e's key: (c_pi + 2^31) << 31 | e, in the total order (c_pi, e). */
__host__ __device__ __forceinline__ uint64_t edge_key(int64_t c_pi, int64_t e)
{
    return ((uint64_t)(c_pi + COST_OFFSET) << EDGE_BITS) | (uint64_t)e;
}

__host__ __device__ __forceinline__ int64_t key_cost(uint64_t key)
{
    return (int64_t)(key >> EDGE_BITS) - COST_OFFSET;
}

__device__ __forceinline__ void atomic_min_key(uint64_t *at, uint64_t key)
{
    if (key < *at) /* a stale read is only larger: skips most atomics */
        atomicMin((unsigned long long *)at, (unsigned long long)key);
}

/* (second edge's cost + 1, 2^28 - 1 - city) of a leaf with a second edge,
 * else 0: the maximum is the dearest second edge, ties to the lower city. */
__host__ __device__ __forceinline__ uint64_t leaf_key(int32_t degree, uint64_t second, int i)
{
    if (degree != 1 || second == NONE) return 0;
    return (((second >> EDGE_BITS) + 1) << CITY_BITS) | (CITY_MASK - (uint64_t)i);
}

__host__ __device__ __forceinline__ int32_t leaf_of(uint64_t leaf_key)
{
    return (int32_t)(CITY_MASK - (leaf_key & CITY_MASK));
}

} // namespace wt_ascent_gpu

#endif
