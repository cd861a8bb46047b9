/*
 * batch.cu - the batch search on the GPU (batch.h).
 *
 * A group of G threads holds one instance in shared memory and runs the
 * Iterated Local Search of core/batch_search.h on it: the coordinates (in
 * double, for exact distances), the tour with its positions and edge
 * lengths, the kept tour the kicks start from, and the active cities.
 * Groups are warps (G = 32, four to a block) for small instances and whole
 * blocks (64 to 256 threads) for larger ones; a fixed set of resident
 * blocks takes instances from an atomic counter, so a part of any size runs
 * in a bounded set of groups (Robinson et al. 2018's work queue, as the
 * multistart kernels).  The best tour of an instance is written to global
 * memory when it improves, over its start tour, so an instance a stop
 * never reached keeps that.
 *
 * A step of a descent: every thread of the group evaluates its share of
 * the active cities' items (the only loop written by hand: one item is a
 * plan, one or two exact distances and a compare); CUB reduces the
 * (delta, number) pairs to the least, and compacts the active list with a
 * scan; the move's reversals are done by the whole group.  Distances are
 * computed in double exactly as the host's wt_dist computes them (IEEE
 * operations without contraction, correctly rounded square root), so every
 * delta is the host's, and the group takes the CPU's steps exactly (GEO
 * aside: the device's cosines).
 *
 * The host cuts the job into parts that fit the device memory (or
 * job->part_bytes), each part one kernel launch on the search's context
 * (context.cuh), which it waits for as every search does: cuda_wait polls,
 * copies the counters back for progress reports, and raises the stop flag.
 */
#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>
#include <cub/warp/warp_reduce.cuh>
#include <cub/warp/warp_scan.cuh>
#include <algorithm>
#include <type_traits>
#include <climits>
#include <cmath>
#include <new>
#include <cstdio>
#include <cstring>
#include <vector>

#include "backend/cuda/batch.h"
#include "backend/cuda/context.cuh"
#include "backend/cuda/device_instance.cuh"
#include "core/batch_search.h"
#include "core/instance.h"

namespace {

/* How the GPU runs a job: the job's device shape and whether its instances
 * are windows (paths with fixed ends: the windows slot). */
struct BatchOpts {
    int device;        /* CUDA device ordinal (wt_device.index) */
    int threads;       /* threads per instance; 0: by n (32, 64, 128 or 256) */
    size_t part_bytes; /* most device memory a part takes; 0: free memory decides */
    bool fixed_ends;
};

/* One instance of a part, as the kernel finds it. */
struct BatchDesc {
    int n;
    wt_edge_weight_type type;
    long long coord;  /* offset of its x[n], y[n] (z[n]) in the part's doubles */
    long long cities; /* offset of its tour in the part's tours */
    long long lists;  /* offset of its n * k list entries (and their lengths) */
    long long matrix; /* EXPLICIT: offset of its n * n matrix */
    unsigned long long index, budget, rank;
};

/* The device-resident state of one launch. */
struct BatchRun {
    unsigned long long next;  /* the work queue */
    unsigned long long done;  /* instances finished */
    unsigned long long kicks; /* kicks made */
    unsigned long long t0;    /* %globaltimer when the first block started */
    int stop;                 /* set by the host */
};

struct BatchArgs {
    const BatchDesc *desc;
    int count;
    const double *coords;
    const int32_t *matrix;
    int32_t *tours;           /* start tours in, best tours out */
    const int32_t *nb;
    long long *nbd;           /* lengths of the list entries, filled here */
    long long *length;        /* out: -1 for an instance never reached */
    unsigned long long *kicks;
    BatchRun *run;
    int k, breadth, breadth_from, kick_edges, window, slack, n_max, dims;
    bool accept_equal;
    bool fixed_ends;          /* job.fixed_ends */
    unsigned long long seed, ranked, slots;
    long long budget_ns;      /* time left at launch; < 0: no limit */
};

/* Bytes of one group's arrays for n cities with dims coordinate arrays. */
__host__ __device__ size_t group_bytes(int n, int dims)
{
    size_t b = (size_t)n * ((size_t)(dims + 2) * 8 + 4 * 4 + 2);
    return (b + 15) / 16 * 16;
}

/* One group's arrays, laid out in its slice of shared memory. */
struct View {
    double *x, *y, *z;
    long long *e, *kept_e;
    int32_t *tour, *pos, *kept, *act;
    unsigned char *in_act, *improving;
};

__device__ View view_of(unsigned char *base, int n_max, int dims)
{
    View v;
    double *d = (double *)base;
    v.x = d;
    v.y = d + n_max;
    v.z = dims == 3 ? d + 2 * n_max : nullptr;
    v.e = (long long *)(d + dims * n_max);
    v.kept_e = v.e + n_max;
    v.tour = (int32_t *)(v.kept_e + n_max);
    v.pos = v.tour + n_max;
    v.kept = v.pos + n_max;
    v.act = v.kept + n_max;
    v.in_act = (unsigned char *)(v.act + n_max);
    v.improving = v.in_act + n_max;
    return v;
}

/* A step's candidate: delta, then item number. */
struct Key {
    long long d;
    int id;
};

struct KeyMin {
    __device__ Key operator()(const Key &a, const Key &b) const
    {
        return wt_bs_before(a.d, a.id, b.d, b.id) ? a : b;
    }
};

/*
 * A group: a warp among the four of a block (G = 32), or a whole block.
 * CUB's warp or block collectives reduce and scan within it.
 */
template <int G>
struct Group {
    static constexpr int P = G == 32 ? 4 : 1; /* groups a block */
    static constexpr int BLOCK = G * P;
    /* Blocks an SM must hold by registers: warp groups at 96 registers (20
     * an SM; at 64, 32 of them spilled 280 bytes a thread), larger groups
     * unbounded (a part of large instances has few). */
    static constexpr int MIN_BLOCKS = G == 32 ? 5 : 1;
    typedef typename std::conditional<G == 32, cub::WarpReduce<Key>, cub::BlockReduce<Key, G>>::type
        ReduceKey;
    typedef typename std::conditional<G == 32, cub::WarpReduce<long long>,
                                      cub::BlockReduce<long long, G>>::type ReduceSum;
    typedef typename std::conditional<G == 32, cub::WarpScan<int>, cub::BlockScan<int, G>>::type
        Scan;
    union Temp {
        typename ReduceKey::TempStorage key;
        typename ReduceSum::TempStorage sum;
        typename Scan::TempStorage scan;
    };

    static __device__ int rank() { return (int)threadIdx.x % G; }
    static __device__ int group() { return (int)threadIdx.x / G; }
    static __device__ void sync()
    {
        if constexpr (G == 32) __syncwarp();
        else __syncthreads();
    }
};

/* What a group shares besides its arrays. */
struct Shared {
    Key best;
    int n_act;
    int stop;
    unsigned long long q;
};

__device__ __forceinline__ unsigned long long global_ns()
{
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

/* Exact distances over the group's coordinates.  EUC_2D, the common case,
 * is inlined without dev_exact_dist's switch (the same operations). */
template <bool EUC>
struct Dist {
    DevInst I;
    __device__ __forceinline__ long long operator()(int a, int b) const
    {
        if constexpr (EUC) {
            double dx = __dsub_rn(I.xd[a], I.xd[b]), dy = __dsub_rn(I.yd[a], I.yd[b]);
            return (long long)__dadd_rn(__dsqrt_rn(__dadd_rn(__dmul_rn(dx, dx), __dmul_rn(dy, dy))),
                                        0.5);
        } else {
            return dev_exact_dist(I, a, b);
        }
    }
};

/* One group's search of one instance. */
template <int G, bool EUC>
struct Search {
    typedef Group<G> Gr;
    const BatchArgs &a;
    const BatchDesc &d;
    View v;
    Shared &sh;
    typename Gr::Temp &temp;
    Dist<EUC> dist;
    int n, t;
    const int32_t *nb;
    long long *nbd;
    int32_t *best_out;
    long long length, kept_length, best_length;

    /* Activates both ends of the edges at positions rem[0..count), count <= 4 (rank 0;
     * the caller syncs). */
    __device__ void activate_edges(const int *rem, int count)
    {
        if (t != 0) return;
#pragma unroll
        for (int q = 0; q < 4; q++)
            for (int s = 0; s < 2 && q < count; s++) {
                int c = v.tour[wt_bs_wrap(rem[q] + s, n)];
                if (v.in_act[c]) continue;
                v.in_act[c] = 1;
                v.act[sh.n_act++] = c;
            }
    }

    /* Reverses the cyclic range r of positions with its edges (group-wide). */
    __device__ void reverse(wt_bs_reversal r)
    {
        if (r.len < 2) return;
        for (int q = t; q < r.len / 2; q += G) {
            int p1 = wt_bs_wrap(r.from + q, n), p2 = wt_bs_wrap(r.from + r.len - 1 - q, n);
            int32_t c1 = v.tour[p1], c2 = v.tour[p2];
            v.tour[p1] = c2;
            v.tour[p2] = c1;
            v.pos[c2] = p1;
            v.pos[c1] = p2;
        }
        for (int q = t; q < (r.len - 1) / 2; q += G) {
            int p1 = wt_bs_wrap(r.from + q, n), p2 = wt_bs_wrap(r.from + r.len - 2 - q, n);
            long long x = v.e[p1];
            v.e[p1] = v.e[p2];
            v.e[p2] = x;
        }
        Gr::sync();
        if (t < 2) {
            int p = t == 0 ? wt_bs_wrap(r.from - 1, n) : wt_bs_wrap(r.from + r.len - 1, n);
            v.e[p] = dist(v.tour[p], v.tour[wt_bs_wrap(p + 1, n)]);
        }
        Gr::sync();
    }

    /* The instance's lists, with its 3-opt breadth. */
    __device__ wt_bs_lists lists() const
    {
        return wt_bs_lists{nb, (const int64_t *)nbd, a.k, breadth()};
    }

    __device__ int breadth() const { return wt_bs_breadth_of(n, a.breadth, a.breadth_from); }

    /* This thread's least (delta, number) over its share of the items;
     * marks the active cities that have an improving move. */
    __device__ Key scan_items(int n_act) const
    {
        const int k = a.k, vars = wt_bs_variants(breadth()), per = k * vars;
        const wt_bs_lists L = lists();
        Key mine = {LLONG_MAX, INT_MAX};
        const int fixed = a.fixed_ends ? wt_bs_fixed_at(v.pos, n) : -1;
        for (int it = t; it < n_act * per; it += G) {
            int q = it / per, r = it - q * per;
            int s = r / vars, var = r - s * vars;
            int ca = v.act[q];
            wt_bs_move m;
            if (!wt_bs_plan_item(v.tour, v.pos, (const int64_t *)v.e, n, &L, ca, s, var, &m) ||
                !wt_bs_keeps(&m, fixed))
                continue;
            long long delta = nbd[ca * k + s];
            if (!wt_bs_gain_ok(&m, (const int64_t *)v.e, delta)) continue;
            /* Constant trip counts keep m in registers. */
#pragma unroll
            for (int u = 0; u < 2; u++)
                if (u < m.n_add) delta += dist(m.add_u[u], m.add_w[u]);
#pragma unroll
            for (int u = 0; u < 3; u++)
                if (u < m.n_rem) delta -= v.e[m.rem[u]];
            if (delta >= 0) continue;
            v.improving[ca] = 1;
            int id = wt_bs_item_id(ca, s, var, k, vars);
            if (wt_bs_before(delta, id, mine.d, mine.id)) mine = {delta, id};
        }
        return mine;
    }

    /* The group's least key, in every thread. */
    __device__ Key reduce(Key mine)
    {
        Key best = typename Gr::ReduceKey(temp.key).Reduce(mine, KeyMin());
        if (t == 0) sh.best = best;
        Gr::sync();
        best = sh.best;
        Gr::sync();
        return best;
    }

    /* Keeps the active cities with an improving move, in order (a scan a
     * chunk of G), and clears the marks. */
    __device__ void compact(int n_act)
    {
        int out = 0;
        for (int base = 0; base < n_act; base += G) {
            int q = base + t, city = q < n_act ? v.act[q] : -1;
            int stays = city >= 0 && v.improving[city], at = 0, total = 0;
            typename Gr::Scan(temp.scan).ExclusiveSum(stays, at, total);
            if (stays) {
                v.act[out + at] = city;
                v.improving[city] = 0;
            } else if (city >= 0) {
                v.in_act[city] = 0;
            }
            out += total;
            Gr::sync();
        }
        if (t == 0) sh.n_act = out;
        Gr::sync();
    }

    /* Best-improvement steps until no active city has an improving move. */
    __device__ void descend()
    {
        const int k = a.k;
        for (;;) {
            int n_act = sh.n_act;
            if (n_act == 0) return;
            Key best = reduce(scan_items(n_act));
            if (best.d >= 0) { /* none: every active city goes idle */
                for (int q = t; q < n_act; q += G) v.in_act[v.act[q]] = 0;
                Gr::sync();
                if (t == 0) sh.n_act = 0;
                Gr::sync();
                return;
            }
            compact(n_act);
            const int vars = wt_bs_variants(breadth());
            int s = best.id / vars % k, var = best.id % vars;
            int ca = best.id / vars / k;
            const wt_bs_lists L = lists();
            wt_bs_move m;
            wt_bs_plan_item(v.tour, v.pos, (const int64_t *)v.e, n, &L, ca, s, var, &m);
            activate_edges(m.rem, m.n_rem);
            Gr::sync();
            wt_bs_reversal r[3];
            int count = wt_bs_reversals(&m, n, r);
#pragma unroll
            for (int q = 0; q < 3; q++)
                if (q < count) reverse(r[q]);
            length += best.d;
        }
    }

    /* Kick number kick_no: applied, the ends of its edges active. */
    __device__ void kick(unsigned long long kick_no)
    {
        wt_bs_kick_cut cut = wt_bs_kick(a.seed, d.index, kick_no, n, a.window,
                                        a.fixed_ends ? wt_bs_fixed_at(v.pos, n) : -1,
                                        wt_bs_kick_edges_of(breadth(), a.kick_edges));
        int before[4], after[4];
        const int edges = wt_bs_kick_edges(cut, n, false, before);
#pragma unroll
        for (int q = 0; q < 4; q++)
            if (q < edges) length -= v.e[before[q]];
        activate_edges(before, edges);
        Gr::sync();
        wt_bs_reversal r[4];
        const int count = wt_bs_kick_reversals(cut, n, r);
#pragma unroll
        for (int q = 0; q < 4; q++)
            if (q < count) reverse(r[q]);
        wt_bs_kick_edges(cut, n, true, after);
#pragma unroll
        for (int q = 0; q < 4; q++)
            if (q < edges) length += v.e[after[q]];
    }

    /* The tour becomes the kept one, and the best (in global memory) when
     * it is. */
    __device__ void keep()
    {
        bool better = length < best_length;
        for (int p = t; p < n; p += G) {
            v.kept[p] = v.tour[p];
            v.kept_e[p] = v.e[p];
            if (better) best_out[p] = v.tour[p];
        }
        kept_length = length;
        if (better) best_length = length;
        Gr::sync();
    }

    __device__ void revert()
    {
        for (int p = t; p < n; p += G) {
            v.tour[p] = v.kept[p];
            v.e[p] = v.kept_e[p];
        }
        Gr::sync();
        for (int p = t; p < n; p += G) v.pos[v.tour[p]] = p;
        length = kept_length;
        Gr::sync();
    }

    /* Loads the instance and its start tour, every city active; fills the
     * lengths of its list entries. */
    __device__ void load()
    {
        const double *c = a.coords + d.coord;
        for (int i = t; i < n; i += G) {
            v.x[i] = c[i];
            v.y[i] = c[n + i];
            if (a.dims == 3) v.z[i] = c[2 * n + i];
            v.tour[i] = best_out[i];
            v.act[i] = i;
            v.in_act[i] = 1;
            v.improving[i] = 0;
        }
        Gr::sync();
        long long part = 0;
        for (int p = t; p < n; p += G) {
            v.pos[v.tour[p]] = p;
            v.e[p] = dist(v.tour[p], v.tour[p + 1 < n ? p + 1 : 0]);
            part += v.e[p];
        }
        for (int q = t; q < n * a.k; q += G) nbd[q] = nb[q] < 0 ? 0 : dist(q / a.k, nb[q]);
        if (t == 0) sh.n_act = n;
        long long sum = typename Gr::ReduceSum(temp.sum).Sum(part);
        if (t == 0) sh.best.d = sum;
        Gr::sync();
        length = sh.best.d;
        Gr::sync();
    }

    /* Whether the kicks must end (group-wide). */
    __device__ bool must_stop(unsigned long long until, unsigned long long deadline, bool shared)
    {
        if (t == 0) {
            unsigned long long now = global_ns();
            sh.stop = *(volatile int *)&a.run->stop || now >= deadline || (shared && now >= until);
        }
        Gr::sync();
        bool stop = sh.stop;
        Gr::sync();
        return stop;
    }

    __device__ void run(unsigned long long deadline)
    {
        load();
        descend();
        best_length = LLONG_MAX;
        keep();
        /* A time share (batch_run.h) when the budget is the time. */
        const bool shared = d.budget == 0;
        unsigned long long now = global_ns(), until = deadline;
        if (shared && deadline != ULLONG_MAX && now < deadline) {
            unsigned long long rounds = (a.ranked - d.rank + a.slots - 1) / a.slots;
            until = now + (deadline - now) / (rounds ? rounds : 1);
        }
        unsigned long long kicks = 0, told = 0;
        while (n >= WT_BS_MIN_KICK_CITIES && (shared || kicks < d.budget)) {
            if (must_stop(until, deadline, shared)) break;
            kick(kicks);
            descend();
            long long slack = wt_bs_accept_slack(a.seed, d.index, kicks, kept_length, n, a.slack);
            kicks++;
            if (t == 0 && kicks - told >= 256) {
                atomicAdd(&a.run->kicks, kicks - told);
                told = kicks;
            }
            if (length < kept_length + slack || (a.accept_equal && length == kept_length)) keep();
            else revert();
        }
        if (t == 0) {
            atomicAdd(&a.run->kicks, kicks - told);
            a.kicks[&d - a.desc] = kicks;
            a.length[&d - a.desc] = best_length;
        }
    }
};

template <int G, bool EUC>
__global__ void __launch_bounds__(Group<G>::BLOCK, Group<G>::MIN_BLOCKS)
    batch_kernel(const __grid_constant__ BatchArgs a)
{
    typedef Group<G> Gr;
    extern __shared__ __align__(16) unsigned char smem[];
    __shared__ typename Gr::Temp temp[Gr::P];
    __shared__ Shared shared[Gr::P];
    const int g = Gr::group(), t = Gr::rank();
    Shared &sh = shared[g];
    if (threadIdx.x == 0) atomicCAS(&a.run->t0, 0ULL, global_ns());
    __syncthreads();
    unsigned long long t0 = *(volatile unsigned long long *)&a.run->t0;
    unsigned long long deadline =
        a.budget_ns < 0 ? ULLONG_MAX : t0 + (unsigned long long)a.budget_ns;
    View v = view_of(smem + (size_t)g * group_bytes(a.n_max, a.dims), a.n_max, a.dims);
    for (;;) {
        if (t == 0)
            sh.q = *(volatile int *)&a.run->stop ? ULLONG_MAX : atomicAdd(&a.run->next, 1ULL);
        Gr::sync();
        unsigned long long q = sh.q;
        Gr::sync();
        if (q >= (unsigned long long)a.count) return;
        const BatchDesc &d = a.desc[q];
        Search<G, EUC> s{a, d, v, sh, temp[g], {}, d.n, t, a.nb + d.lists, a.nbd + d.lists,
                         a.tours + d.cities, 0, 0, 0};
        s.dist.I = {d.n, d.type, nullptr, nullptr, nullptr, v.x, v.y, v.z, a.matrix + d.matrix};
        s.run(deadline);
        if (t == 0) atomicAdd(&a.run->done, 1ULL);
    }
}

/* ------------------------------------------------------------------ host */

/* Threads a group for instances of up to n cities: measured guesses, to be
 * tuned on the device (params.gpu_threads). */
int group_threads(int n, int asked)
{
    if (asked) return asked;
    return n <= 200 ? 32 : n <= 500 ? 128 : 256;
}

/* Coordinate arrays an instance of type needs on the device. */
int dims_of(wt_edge_weight_type type)
{
    return wt_has_z(type) ? 3 : type == WT_EXPLICIT ? 0 : 2;
}

/* The kernel of group size G and class euc. */
template <int G>
void *kernel_of(bool euc)
{
    return euc ? (void *)batch_kernel<G, true> : (void *)batch_kernel<G, false>;
}

void *kernel_for(int G, bool euc)
{
    switch (G) {
    case 32: return kernel_of<32>(euc);
    case 64: return kernel_of<64>(euc);
    case 128: return kernel_of<128>(euc);
    default: return kernel_of<256>(euc);
    }
}

int groups_a_block(int G) { return G == 32 ? Group<32>::P : 1; }

/* Static shared memory of the kernel (its CUB storage and Shared). */
size_t static_smem(int G, bool euc)
{
    cudaFuncAttributes attr;
    if (cudaFuncGetAttributes(&attr, kernel_for(G, euc)) != cudaSuccess) {
        (void)cudaGetLastError();
        return 0;
    }
    return attr.sharedSizeBytes;
}

/* Device memory one instance takes in a part of dims coordinate arrays. */
size_t instance_bytes(const wt_instance *inst, int k, int dims)
{
    size_t n = (size_t)inst->n;
    size_t b = sizeof(BatchDesc) + n * (size_t)dims * sizeof(double) +
               n * sizeof(int32_t) + n * (size_t)k * (sizeof(int32_t) + sizeof(long long)) +
               2 * sizeof(long long);
    if (inst->type == WT_EXPLICIT) b += n * n * sizeof(int32_t);
    return b;
}

/* Everything a part allocates on the device and the host. */
struct Part {
    std::vector<int> q;                /* the job's entries in this part */
    std::vector<BatchDesc> desc;
    std::vector<double> coords;
    std::vector<int32_t> tours, nb, matrix;
    std::vector<long long> length;
    std::vector<unsigned long long> kicks;
    int n_max = 0, dims = 2;
    bool euc = true;
};

struct DeviceBuffers {
    void *p[9] = {};
    BatchRun *h_run = nullptr;  /* pinned: progress snapshots */
    int *h_one = nullptr;       /* pinned: the stop value */
    ~DeviceBuffers()
    {
        for (void *x : p) cudaFree(x);
        cudaFreeHost(h_run);
        cudaFreeHost(h_one);
    }
};

/* Packs instance q of job into part. */
void pack(const wt_batch_job *job, int q, Part &part)
{
    const wt_instance *inst = job->inst[q];
    size_t n = (size_t)inst->n, k = (size_t)job->k;
    BatchDesc d = {};
    d.n = inst->n;
    d.type = inst->type;
    d.coord = (long long)part.coords.size();
    d.cities = (long long)part.tours.size();
    d.lists = (long long)part.nb.size();
    d.matrix = (long long)part.matrix.size();
    d.index = job->index[q];
    d.budget = job->budget[q];
    d.rank = job->rank[q];
    const double *axes[3] = {inst->type == WT_GEO ? inst->lat : inst->x,
                             inst->type == WT_GEO ? inst->lon : inst->y, inst->z};
    for (int a = 0; a < part.dims; a++)
        if (a < dims_of(inst->type)) part.coords.insert(part.coords.end(), axes[a], axes[a] + n);
        else part.coords.resize(part.coords.size() + n, 0.0);
    part.tours.insert(part.tours.end(), job->tour[q], job->tour[q] + n);
    part.nb.insert(part.nb.end(), job->nb[q], job->nb[q] + n * k);
    if (inst->type == WT_EXPLICIT)
        part.matrix.insert(part.matrix.end(), inst->matrix, inst->matrix + n * n);
    part.desc.push_back(d);
    part.q.push_back(q);
}

template <class T>
wt_status upload(void *&dst, const std::vector<T> &src, cudaStream_t s, wt_error *err)
{
    size_t bytes = (src.empty() ? 1 : src.size()) * sizeof(T);
    WT_CUDA_CHECK(err, cudaMalloc(&dst, bytes));
    if (!src.empty())
        WT_CUDA_CHECK(err, cudaMemcpyAsync(dst, src.data(), src.size() * sizeof(T),
                                           cudaMemcpyHostToDevice, s));
    return WT_OK;
}

template <class T>
wt_status download(std::vector<T> &dst, const void *src, cudaStream_t s, wt_error *err)
{
    if (!dst.empty())
        WT_CUDA_CHECK(err, cudaMemcpyAsync(dst.data(), src, dst.size() * sizeof(T),
                                           cudaMemcpyDeviceToHost, s));
    return WT_OK;
}

/* The kernel's arguments that a job's settings give (the arrays, count,
 * n_max and dims are the caller's). */
BatchArgs args_of(const wt_batch_job *job, bool fixed_ends)
{
    BatchArgs a = {};
    a.k = job->k;
    a.breadth = job->breadth;
    a.breadth_from = job->breadth_from;
    a.kick_edges = job->kick_edges;
    a.window = job->window;
    a.slack = job->slack;
    a.accept_equal = job->accept_equal;
    a.fixed_ends = fixed_ends;
    a.seed = job->seed;
    a.ranked = job->ranked;
    return a;
}

/* What cuda_wait's look needs while a part runs. */
struct BatchWatch {
    const CudaContext *ctx;
    BatchRun *h_run;          /* pinned: the snapshot */
    const BatchRun *d_run;    /* the launch's state */
    wt_batch_counters *counters;
    uint64_t done_before, kicks_before;
    wt_search_ctl *ctl;
    double next_snapshot;
};

/* cuda_wait's look: the run's counters copied back at most every 50 ms
 * (into the job's counters, which the other side's progress reads), a
 * progress report (which says whether to stop) at every poll. */
wt_status look_at_part(void *p, double waited_s, bool *stop, wt_error *err)
{
    (void)waited_s;
    BatchWatch *w = (BatchWatch *)p;
    double now = wt_now();
    if (now >= w->next_snapshot) {
        WT_CUDA_CHECK(err, cudaMemcpyAsync(w->h_run, w->d_run, sizeof(BatchRun),
                                           cudaMemcpyDeviceToHost, w->ctx->control));
        WT_CUDA_CHECK(err, cudaStreamSynchronize(w->ctx->control));
        w->next_snapshot = now + 0.05;
        __atomic_store_n(&w->counters->done, w->done_before + w->h_run->done, __ATOMIC_RELAXED);
        __atomic_store_n(&w->counters->kicks, w->kicks_before + w->h_run->kicks,
                         __ATOMIC_RELAXED);
    }
    w->ctl->kicks = w->kicks_before + w->h_run->kicks;
    *stop = wt_ctl_report_climbs(w->ctl, 0, 0, w->done_before + w->h_run->done, false);
    return WT_OK;
}

/* Launches the batch kernel on a's arrays (on ctx's stream, after what is
 * queued there: the uploads, which end first, since the kernel's deadline
 * counts from its launch) with groups of `threads` threads (0: by
 * a.n_max) and as many groups as fit, under ctl's deadline, and waits for
 * it as every search does; the kernel's seconds and the run's counts go to
 * counters, the run's final state into *run.  h_run, h_one: pinned. */
wt_status launch_and_wait(const CudaContext &ctx, BatchArgs &a, int threads, bool euc,
                          wt_batch_counters *counters, BatchRun *h_run, int *h_one,
                          wt_search_ctl *ctl, BatchRun *run, wt_error *err)
{
    const int G = group_threads(a.n_max, threads), P = groups_a_block(G);
    void *kernel = kernel_for(G, euc);
    cudaStream_t stream = ctx.stream;
    size_t dyn = (size_t)P * group_bytes(a.n_max, a.dims);
    int per_sm = 0;
    WT_CUDA_CHECK(err, cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                            (int)dyn));
    WT_CUDA_CHECK(err, cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, G * P, dyn));
    if (per_sm < 1)
        return wt_fail(err, WT_STATUS_DEVICE, "solve-batch: no block of %d threads with %zu bytes "
                       "of shared memory fits on this GPU", G * P, dyn);
    unsigned long long groups = ((unsigned long long)a.count + P - 1) / P;
    unsigned long long grid = (unsigned long long)ctx.sms * per_sm;
    if (groups < grid) grid = groups;
    a.slots = grid * (unsigned long long)P;
    /* The uploads first: the kernel's deadline counts from its launch, so
     * time spent copying must come off it: a large batch uploads enough to
     * end the call past its limit otherwise (bench/RESULTS.md, "Batches:
     * solve-batch on issue 25's sets (bench batch)"). */
    WT_CUDA_CHECK(err, cudaStreamSynchronize(stream));
    double left = ctl->deadline - wt_now();
    a.budget_ns = std::isfinite(ctl->deadline) ? (long long)(std::max(left, 0.0) * 1e9) : -1;
    if (wt_ctl_expired(ctl))
        WT_CUDA_CHECK(err, cudaMemcpyAsync(&a.run->stop, h_one, sizeof(int),
                                           cudaMemcpyHostToDevice, stream));
    cudaEvent_t began = nullptr, ended = nullptr;
    WT_CUDA_CHECK(err, cudaEventCreate(&began));
    wt_status st = WT_OK;
    if (cudaEventCreate(&ended) != cudaSuccess) {
        (void)cudaGetLastError();
        cudaEventDestroy(began);
        return wt_fail(err, WT_STATUS_DEVICE, "cudaEventCreate failed");
    }
    void *params[] = {&a};
    uint64_t done_before = __atomic_load_n(&counters->done, __ATOMIC_RELAXED);
    uint64_t kicks_before = __atomic_load_n(&counters->kicks, __ATOMIC_RELAXED);
    BatchWatch w = {&ctx, h_run, a.run, counters, done_before, kicks_before, ctl, 0.0};
    CudaWatch watch = {"solve-batch kernel", &a.run->stop, 0.0, 500, look_at_part, &w};
    bool stopped = false;
    float ms = 0;
    if (cudaEventRecord(began, stream) != cudaSuccess ||
        cudaLaunchKernel(kernel, dim3((unsigned)grid), dim3((unsigned)(G * P)), params, dyn,
                         stream) != cudaSuccess ||
        cudaEventRecord(ended, stream) != cudaSuccess) {
        cudaError_t e = cudaGetLastError();
        st = wt_fail(err, WT_STATUS_DEVICE, "the batch kernel's launch failed: %s",
                     cudaGetErrorString(e));
    }
    if (st == WT_OK) st = cuda_wait(ctx, watch, &stopped, err);
    if (st == WT_OK &&
        (cudaMemcpyAsync(run, a.run, sizeof(BatchRun), cudaMemcpyDeviceToHost, stream) !=
             cudaSuccess ||
         cudaStreamSynchronize(stream) != cudaSuccess ||
         cudaEventElapsedTime(&ms, began, ended) != cudaSuccess)) {
        cudaError_t e = cudaGetLastError();
        st = wt_fail(err, WT_STATUS_DEVICE, "the batch kernel's results: %s",
                     cudaGetErrorString(e));
    }
    cudaEventDestroy(began);
    cudaEventDestroy(ended);
    if (st != WT_OK) return st;
    counters->gpu_s += ms / 1e3;
    __atomic_store_n(&counters->done, done_before + run->done, __ATOMIC_RELAXED);
    __atomic_store_n(&counters->kicks, kicks_before + run->kicks, __ATOMIC_RELAXED);
    return WT_OK;
}

/* Uploads part, runs it, and writes its tours back into the job. */
wt_status run_part(const CudaContext &ctx, const wt_batch_job *job,
                   const BatchOpts *opts, Part &part, wt_search_ctl *ctl, wt_error *err)
{
    cudaStream_t stream = ctx.stream;
    DeviceBuffers b;
    WT_CUDA_CHECK(err, cudaMallocHost(&b.h_run, sizeof(BatchRun)));
    WT_CUDA_CHECK(err, cudaMallocHost(&b.h_one, sizeof(int)));
    memset(b.h_run, 0, sizeof *b.h_run);
    *b.h_one = 1;
    part.length.assign(part.q.size(), -1);
    part.kicks.assign(part.q.size(), 0);
    std::vector<BatchRun> run(1);
    memset(run.data(), 0, sizeof(BatchRun));
    wt_status st = upload(b.p[0], part.desc, stream, err);
    if (st == WT_OK) st = upload(b.p[1], part.coords, stream, err);
    if (st == WT_OK) st = upload(b.p[2], part.matrix, stream, err);
    if (st == WT_OK) st = upload(b.p[3], part.tours, stream, err);
    if (st == WT_OK) st = upload(b.p[4], part.nb, stream, err);
    if (st == WT_OK) /* the lists' lengths: filled by the kernel */
        WT_CUDA_CHECK(err, cudaMalloc(&b.p[5], (part.nb.size() + 1) * sizeof(long long)));
    if (st == WT_OK) st = upload(b.p[6], part.length, stream, err);
    if (st == WT_OK) st = upload(b.p[7], part.kicks, stream, err);
    if (st == WT_OK) st = upload(b.p[8], run, stream, err);
    if (st != WT_OK) return st;

    BatchArgs a = args_of(job, opts->fixed_ends);
    a.desc = (const BatchDesc *)b.p[0];
    a.count = (int)part.q.size();
    a.coords = (const double *)b.p[1];
    a.matrix = (const int32_t *)b.p[2];
    a.tours = (int32_t *)b.p[3];
    a.nb = (const int32_t *)b.p[4];
    a.nbd = (long long *)b.p[5];
    a.length = (long long *)b.p[6];
    a.kicks = (unsigned long long *)b.p[7];
    a.run = (BatchRun *)b.p[8];
    a.n_max = part.n_max;
    a.dims = part.dims;
    st = launch_and_wait(ctx, a, opts->threads, part.euc, job->counters, b.h_run, b.h_one, ctl,
                         run.data(), err);
    if (st != WT_OK) return st;
    st = download(part.tours, b.p[3], stream, err);
    if (st == WT_OK) st = download(part.length, b.p[6], stream, err);
    if (st == WT_OK) st = download(part.kicks, b.p[7], stream, err);
    if (st != WT_OK) return st;
    WT_CUDA_CHECK(err, cudaStreamSynchronize(stream));
    for (size_t i = 0; i < part.q.size(); i++) {
        int q = part.q[i];
        const BatchDesc &d = part.desc[i];
        memcpy(job->tour[q], part.tours.data() + d.cities, (size_t)d.n * sizeof(int32_t));
        job->length[q] = part.length[i];
        job->kicks[q] = part.kicks[i];
    }
    return WT_OK;
}

/* The job's GPU instances, in the order parts take them: by class (EUC_2D
 * or not), then by size, so a part's groups are sized for like instances. */
std::vector<int> part_order(const wt_batch_job *job)
{
    std::vector<int> order;
    for (int q = 0; q < job->count; q++)
        if (job->inst[q]) order.push_back(q);
    std::stable_sort(order.begin(), order.end(), [job](int x, int y) {
        bool ex = job->inst[x]->type == WT_EUC_2D, ey = job->inst[y]->type == WT_EUC_2D;
        if (ex != ey) return ex;
        return job->inst[x]->n < job->inst[y]->n;
    });
    return order;
}

/* Device memory a part may take. */
wt_status part_budget(const BatchOpts *opts, size_t *bytes, wt_error *err)
{
    size_t free_b = 0, total = 0;
    WT_CUDA_CHECK(err, cudaMemGetInfo(&free_b, &total));
    size_t room = free_b / 10 * 7; /* room for the runtime and CUB */
    *bytes = opts->part_bytes && opts->part_bytes < room ? opts->part_bytes : room;
    return WT_OK;
}

/* ------------------------------------------------------ resident windows */

/* A window of a round: its first position (from the round's offset) and
 * its cities. */
struct WinDesc {
    int start, size;
};

/* The round's positions: cities[p] = tour[(offset + p) % n] and
 * at[cities[p]] = p. */
__global__ void round_positions(const int32_t *tour, int n, int offset, int32_t *cities,
                                int32_t *at)
{
    for (long long p = blockIdx.x * (long long)blockDim.x + threadIdx.x; p < n;
         p += (long long)gridDim.x * blockDim.x) {
        long long q = offset + p;
        int32_t c = tour[q >= n ? q - n : q];
        cities[p] = c;
        at[c] = (int32_t)p;
    }
}

/* Window blockIdx.x's instance: its coordinates at coords + 2 start (x,
 * then y), and for each of its replicas (slot: slots[i] + r m) the start
 * tour 0 .. m - 1 at tours + slot and the lists at nb + slot k: each
 * city's entries of its row in cand that lie in the window, the first k,
 * -1 after them, as algo/windows.c's window_lists cuts them. */
__global__ void make_windows(const WinDesc *win, const long long *slots, int replicas,
                             const double *x, const double *y, const int32_t *cand, int ck, int k,
                             int n, const int32_t *cities, const int32_t *at, double *coords,
                             int32_t *nb, int32_t *tours)
{
    const WinDesc d = win[blockIdx.x];
    const int lo = d.start, m = d.size;
    const long long slot = slots[blockIdx.x];
    for (int j = threadIdx.x; j < m; j += blockDim.x) {
        int32_t c = cities[lo + j];
        coords[2LL * lo + j] = x[c];
        coords[2LL * lo + m + j] = y[c];
        const int32_t *row = cand + (long long)c * ck;
        int32_t list[32]; /* k <= 32: wt_cuda_windows_round checks */
        int got = 0;
        for (int e = 0; e < ck && got < k; e++) {
            int32_t r = row[e];
            int p = r < 0 || r >= n ? -1 : at[r];
            if (p >= lo && p < lo + m && p != lo + j) list[got++] = p - lo;
        }
        while (got < k) list[got++] = -1;
        for (int r = 0; r < replicas; r++) {
            long long s = slot + (long long)r * m;
            tours[s + j] = j;
            for (int e = 0; e < k; e++) nb[(s + j) * k + e] = list[e];
        }
    }
}

/* What a round's windows gained, and how many of them. */
struct RoundTally {
    unsigned long long gain; /* non-negative: a window is put back only where shorter */
    unsigned improved;
};

/* Window blockIdx.x's best replica (the shortest, ties to the first), put
 * back at its positions of out (a copy of cities) where it is shorter than
 * the window's path was: as the path from its city 0 to its city m - 1
 * (algo/windows.c's path_of); the gain and the window counted in tally. */
template <bool EUC>
__global__ void __launch_bounds__(256)
    put_back(const WinDesc *win, const long long *slots, int replicas, wt_edge_weight_type type,
             const double *coords, const int32_t *tours, const int32_t *cities, int32_t *out,
             RoundTally *tally)
{
    typedef cub::BlockReduce<long long, 256> Sum;
    __shared__ typename Sum::TempStorage temp;
    __shared__ long long total;
    __shared__ int first_at;
    const WinDesc d = win[blockIdx.x];
    const int lo = d.start, m = d.size, t = threadIdx.x;
    Dist<EUC> dist;
    dist.I = {m, type, nullptr, nullptr, nullptr, coords + 2LL * lo, coords + 2LL * lo + m,
              nullptr, nullptr};
    long long best = 0, was = 0;
    int chosen = -1;
    for (int r = -1; r < replicas; r++) { /* -1: the window's own path */
        const int32_t *T = tours + slots[blockIdx.x] + (long long)(r < 0 ? 0 : r) * m;
        long long part = 0;
        for (int j = t; j < m; j += 256) {
            int a = r < 0 ? j : T[j], b = r < 0 ? (j + 1) % m : T[(j + 1) % m];
            part += dist(a, b);
        }
        long long sum = Sum(temp).Sum(part);
        if (t == 0) total = sum;
        __syncthreads();
        if (r < 0) was = best = total;
        else if (total < best) {
            best = total;
            chosen = r;
        }
        __syncthreads();
    }
    if (chosen < 0) return; /* block-uniform: every thread saw the same totals */
    const int32_t *T = tours + slots[blockIdx.x] + (long long)chosen * m;
    for (int j = t; j < m; j += 256)
        if (T[j] == 0) first_at = j;
    __syncthreads();
    const int p0 = first_at;
    const bool back = T[(p0 + 1) % m] == m - 1;
    for (int i = t; i < m; i += 256)
        out[lo + i] = cities[lo + T[back ? (p0 - i + m) % m : (p0 + i) % m]];
    if (t == 0) {
        atomicAdd(&tally->gain, (unsigned long long)(was - best));
        atomicAdd(&tally->improved, 1u);
    }
}

/* A device buffer that grows to what a round needs. */
template <class T>
struct Grown {
    T *p = nullptr;
    size_t cap = 0;
    wt_status ensure(size_t count, wt_error *err)
    {
        if (count <= cap) return WT_OK;
        cudaFree(p);
        p = nullptr;
        cap = 0;
        WT_CUDA_CHECK(err, cudaMalloc(&p, count * sizeof(T)));
        cap = count;
        return WT_OK;
    }
    ~Grown() { cudaFree(p); }
};

} // namespace

extern "C" void wt_cuda_batch_place(const wt_device *dev, const wt_instance *const *inst,
                                    int count, int threads, bool *fits)
{
    int optin = 0;
    if (cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev->index) !=
        cudaSuccess)
        (void)cudaGetLastError();
    /* static_smem asks the current device, which with several GPUs may be
     * another than dev (the GPUs of a machine may differ). */
    if (cudaSetDevice(dev->index) != cudaSuccess) (void)cudaGetLastError();
    /* The kernels' static shared memory, by group size and class, asked once. */
    const int sizes[] = {32, 64, 128, 256};
    size_t fixed[4][2];
    for (int g = 0; g < 4; g++)
        for (int e = 0; e < 2; e++) fixed[g][e] = static_smem(sizes[g], e == 1);
    for (int i = 0; i < count; i++) {
        fits[i] = false;
        if (!inst[i] || optin == 0) continue;
        bool euc = inst[i]->type == WT_EUC_2D;
        int G = group_threads(inst[i]->n, threads);
        int g = G == 32 ? 0 : G == 64 ? 1 : G == 128 ? 2 : 3;
        size_t need = (size_t)groups_a_block(G) * group_bytes(inst[i]->n, euc ? 2 : 3) +
                      fixed[g][euc];
        fits[i] = need <= (size_t)optin;
    }
}

extern "C" wt_status wt_cuda_batch_run(const wt_device *dev, const wt_batch_job *job,
                                       bool fixed_ends, wt_search_ctl *ctl, wt_error *err)
{
    const BatchOpts o = {dev->index, job->threads, job->part_bytes, fixed_ends};
    const BatchOpts *opts = &o;
    CudaContext ctx;
    wt_status st = cuda_context_open(opts->device, &ctx, err);
    size_t budget = 0; /* set by part_budget; read only when it succeeded */
    if (st == WT_OK) st = part_budget(opts, &budget, err);
    std::vector<int> order = part_order(job);
    for (size_t at = 0; st == WT_OK && at < order.size();) {
        Part part;
        size_t used = 0;
        part.euc = job->inst[order[at]]->type == WT_EUC_2D;
        part.dims = part.euc ? 2 : 3;
        /* Instances in order while they fit the budget and the group size
         * and class stay those of the part's first (at least one a part). */
        int G = group_threads(job->inst[order[at]]->n, opts->threads);
        while (at < order.size()) {
            const wt_instance *inst = job->inst[order[at]];
            size_t b = instance_bytes(inst, job->k, part.dims);
            if (!part.q.empty() && (used + b > budget || (inst->type == WT_EUC_2D) != part.euc ||
                                    group_threads(inst->n, opts->threads) != G))
                break;
            used += b;
            part.n_max = std::max(part.n_max, inst->n);
            pack(job, order[at++], part);
        }
        st = run_part(ctx, job, opts, part, ctl, err);
    }
    cuda_context_close(&ctx);
    return st;
}

/* The resident windows of one large instance on one GPU (batch.h). */
struct wt_windows_resident {
    CudaContext ctx;
    int n, ck, most;
    wt_edge_weight_type type;
    bool euc;
    Grown<double> x, y, coords;
    Grown<int32_t> cand, tour, cities, at, out, nb, tours;
    Grown<long long> nbd, slots, length;
    Grown<unsigned long long> kicks;
    Grown<WinDesc> win;
    Grown<BatchDesc> desc;
    Grown<BatchRun> run;
    Grown<RoundTally> tally;
    BatchRun *h_run = nullptr; /* pinned */
    int *h_one = nullptr;      /* pinned: the stop value */
    ~wt_windows_resident()
    {
        cudaFreeHost(h_run);
        cudaFreeHost(h_one);
        cuda_context_close(&ctx);
    }
};

extern "C" void wt_cuda_windows_close(wt_windows_resident *w)
{
    if (!w) return;
    if (cudaSetDevice(w->ctx.device) != cudaSuccess) (void)cudaGetLastError();
    delete w;
}

/* Uploads src (count entries) to the start of dst. */
template <class T>
static wt_status put(Grown<T> &dst, const T *src, size_t count, cudaStream_t s, wt_error *err)
{
    wt_status st = dst.ensure(count ? count : 1, err);
    if (st == WT_OK && count)
        WT_CUDA_CHECK(err, cudaMemcpyAsync(dst.p, src, count * sizeof(T), cudaMemcpyHostToDevice, s));
    return st;
}

static wt_status resident_open(const wt_device *dev, const wt_instance *inst, const int32_t *cand,
                               int ck, int most, wt_windows_resident *w, wt_error *err)
{
    wt_status st = cuda_context_open(dev->index, &w->ctx, err);
    if (st != WT_OK) return st;
    bool fits = false;
    wt_instance probe = *inst; /* a window of `most` cities, for the shared memory */
    probe.n = most;
    const wt_instance *one = &probe;
    wt_cuda_batch_place(dev, &one, 1, 0, &fits);
    if (!fits)
        return wt_fail(err, WT_STATUS_UNSUPPORTED, "windows of %d cities do not fit a group's "
                       "shared memory on %s", most, dev->name);
    size_t n = (size_t)inst->n;
    const double *x = inst->type == WT_GEO ? inst->lat : inst->x;
    const double *y = inst->type == WT_GEO ? inst->lon : inst->y;
    cudaStream_t s = w->ctx.stream;
    st = put(w->x, x, n, s, err);
    if (st == WT_OK) st = put(w->y, y, n, s, err);
    if (st == WT_OK) st = put(w->cand, cand, n * (size_t)ck, s, err);
    if (st == WT_OK) st = w->tour.ensure(n, err);
    if (st == WT_OK) st = w->cities.ensure(n, err);
    if (st == WT_OK) st = w->at.ensure(n, err);
    if (st == WT_OK) st = w->out.ensure(n, err);
    if (st == WT_OK) st = w->coords.ensure(2 * n, err);
    if (st == WT_OK) st = w->run.ensure(1, err);
    if (st == WT_OK) st = w->tally.ensure(1, err);
    if (st != WT_OK) return st;
    WT_CUDA_CHECK(err, cudaMallocHost(&w->h_run, sizeof(BatchRun)));
    WT_CUDA_CHECK(err, cudaMallocHost(&w->h_one, sizeof(int)));
    memset(w->h_run, 0, sizeof *w->h_run);
    *w->h_one = 1;
    WT_CUDA_CHECK(err, cudaStreamSynchronize(s));
    return WT_OK;
}

extern "C" wt_status wt_cuda_windows_open(const wt_device *dev, const wt_instance *inst,
                                          const int32_t *cand, int ck, int most,
                                          wt_windows_resident **out, wt_error *err)
{
    *out = nullptr;
    if (!inst || !cand || ck < 1 || most < 3 || inst->n < 3)
        return wt_fail(err, WT_STATUS_INVALID_ARGUMENT, "wt_cuda_windows_open: need an "
                       "instance, candidate lists and windows of at least 3 cities");
    if (dims_of(inst->type) != 2)
        return wt_fail(err, WT_STATUS_UNSUPPORTED, "resident windows take two coordinates a "
                       "city");
    wt_windows_resident *w = new (std::nothrow) wt_windows_resident();
    if (!w) return wt_fail(err, WT_STATUS_OUT_OF_MEMORY, "out of memory for resident windows");
    w->n = inst->n;
    w->ck = ck;
    w->most = most;
    w->type = inst->type;
    w->euc = inst->type == WT_EUC_2D;
    wt_status st = resident_open(dev, inst, cand, ck, most, w, err);
    if (st != WT_OK) {
        wt_cuda_windows_close(w);
        return st;
    }
    *out = w;
    return WT_OK;
}

/* The round's windows and searches on the host: each window's slot (its
 * searches' tours and lists), each search's descriptor. */
static void describe(const wt_windows_resident *w, const wt_windows_job *job,
                     std::vector<WinDesc> &win, std::vector<long long> &slots,
                     std::vector<BatchDesc> &desc, int *n_max)
{
    long long slot = 0;
    *n_max = 0;
    for (int i = 0; i < job->count; i++) {
        int m = job->size[i];
        win[i] = {job->start[i], m};
        slots[i] = slot;
        *n_max = std::max(*n_max, m);
        for (int r = 0; r < job->replicas; r++) {
            BatchDesc d = {};
            d.n = m;
            d.type = w->type;
            d.coord = 2LL * job->start[i];
            d.cities = slot + (long long)r * m;
            d.lists = d.cities * job->settings->k;
            d.index = (job->index_from + (unsigned long long)i) * (unsigned long long)job->replicas +
                      (unsigned long long)r;
            d.budget = job->budget;
            d.rank = (unsigned long long)i * (unsigned long long)job->replicas + (unsigned long long)r;
            desc[(size_t)i * (size_t)job->replicas + (size_t)r] = d;
        }
        slot += (long long)m * job->replicas;
    }
}

/* Writes the positions lo .. hi (from job->offset) of the device's out
 * into tour. */
static wt_status bring_back(wt_windows_resident *w, const wt_windows_job *job, int lo, int hi,
                            int32_t *tour, wt_error *err)
{
    std::vector<int32_t> got((size_t)(hi - lo));
    WT_CUDA_CHECK(err, cudaMemcpyAsync(got.data(), w->out.p + lo, got.size() * sizeof(int32_t),
                                       cudaMemcpyDeviceToHost, w->ctx.stream));
    WT_CUDA_CHECK(err, cudaStreamSynchronize(w->ctx.stream));
    for (int p = lo, q = (int)(((long long)job->offset + lo) % w->n); p < hi; p++) {
        tour[q] = got[(size_t)(p - lo)];
        if (++q == w->n) q = 0;
    }
    return WT_OK;
}

extern "C" wt_status wt_cuda_windows_round(wt_windows_resident *w, const wt_windows_job *job,
                                           int32_t *tour, wt_search_ctl *ctl,
                                           wt_windows_tally *tally, wt_error *err)
{
    memset(tally, 0, sizeof *tally);
    const wt_batch_job *set = job->settings;
    if (job->count < 1 || job->replicas < 1 || set->k < 1 || set->k > 32 ||
        job->offset < 0 || job->offset >= w->n)
        return wt_fail(err, WT_STATUS_INVALID_ARGUMENT, "wt_cuda_windows_round: need windows, "
                       "replicas, 1 to 32 neighbours and an offset in the tour");
    WT_CUDA_CHECK(err, cudaSetDevice(w->ctx.device));
    size_t count = (size_t)job->count, searches = count * (size_t)job->replicas;
    std::vector<WinDesc> win(count);
    std::vector<long long> slots(count);
    std::vector<BatchDesc> desc(searches);
    int n_max = 0;
    describe(w, job, win, slots, desc, &n_max);
    if (n_max > w->most)
        return wt_fail(err, WT_STATUS_INVALID_ARGUMENT, "wt_cuda_windows_round: a window of %d "
                       "cities, above the %d it was opened for", n_max, w->most);
    size_t cities = (size_t)(slots[count - 1] + (long long)win[count - 1].size * job->replicas);
    size_t k = (size_t)set->k, n = (size_t)w->n;
    cudaStream_t s = w->ctx.stream;
    wt_status st = put(w->tour, tour, n, s, err);
    if (st == WT_OK) st = put(w->win, win.data(), count, s, err);
    if (st == WT_OK) st = put(w->slots, slots.data(), count, s, err);
    if (st == WT_OK) st = put(w->desc, desc.data(), searches, s, err);
    if (st == WT_OK) st = w->tours.ensure(cities, err);
    if (st == WT_OK) st = w->nb.ensure(cities * k, err);
    if (st == WT_OK) st = w->nbd.ensure(cities * k + 1, err);
    if (st == WT_OK) st = w->length.ensure(searches, err);
    if (st == WT_OK) st = w->kicks.ensure(searches, err);
    if (st != WT_OK) return st;
    WT_CUDA_CHECK(err, cudaMemsetAsync(w->length.p, 0xff, searches * sizeof(long long), s));
    WT_CUDA_CHECK(err, cudaMemsetAsync(w->kicks.p, 0, searches * sizeof(unsigned long long), s));
    WT_CUDA_CHECK(err, cudaMemsetAsync(w->run.p, 0, sizeof(BatchRun), s));
    WT_CUDA_CHECK(err, cudaMemsetAsync(w->tally.p, 0, sizeof(RoundTally), s));
    round_positions<<<(unsigned)std::min<size_t>((n + 255) / 256, 65535), 256, 0, s>>>(
        w->tour.p, w->n, job->offset, w->cities.p, w->at.p);
    make_windows<<<(unsigned)count, 256, 0, s>>>(w->win.p, w->slots.p, job->replicas, w->x.p,
                                                 w->y.p, w->cand.p, w->ck, set->k, w->n,
                                                 w->cities.p, w->at.p, w->coords.p, w->nb.p,
                                                 w->tours.p);
    WT_CUDA_CHECK(err, cudaGetLastError());
    BatchArgs a = args_of(set, true);
    a.desc = w->desc.p;
    a.count = (int)searches;
    a.coords = w->coords.p;
    a.matrix = nullptr;
    a.tours = w->tours.p;
    a.nb = w->nb.p;
    a.nbd = w->nbd.p;
    a.length = w->length.p;
    a.kicks = w->kicks.p;
    a.run = w->run.p;
    a.n_max = n_max;
    a.dims = 2;
    a.ranked = searches;
    wt_batch_counters own = {0, 0, 0};
    wt_batch_counters *counters = set->counters ? set->counters : &own;
    double gpu_before = counters->gpu_s;
    BatchRun run;
    st = launch_and_wait(w->ctx, a, set->threads, w->euc, counters, w->h_run, w->h_one, ctl, &run,
                         err);
    if (st != WT_OK) return st;
    WT_CUDA_CHECK(err, cudaMemcpyAsync(w->out.p, w->cities.p, n * sizeof(int32_t),
                                       cudaMemcpyDeviceToDevice, s));
    if (w->euc)
        put_back<true><<<(unsigned)count, 256, 0, s>>>(w->win.p, w->slots.p, job->replicas,
                                                        w->type, w->coords.p, w->tours.p,
                                                        w->cities.p, w->out.p, w->tally.p);
    else
        put_back<false><<<(unsigned)count, 256, 0, s>>>(w->win.p, w->slots.p, job->replicas,
                                                         w->type, w->coords.p, w->tours.p,
                                                         w->cities.p, w->out.p, w->tally.p);
    WT_CUDA_CHECK(err, cudaGetLastError());
    RoundTally t;
    WT_CUDA_CHECK(err, cudaMemcpyAsync(&t, w->tally.p, sizeof t, cudaMemcpyDeviceToHost, s));
    st = bring_back(w, job, win[0].start, win[count - 1].start + win[count - 1].size, tour, err);
    if (st != WT_OK) return st;
    tally->improved = (int)t.improved;
    tally->gain = (int64_t)t.gain;
    tally->kicks = run.kicks;
    tally->gpu_s = counters->gpu_s - gpu_before;
    return WT_OK;
}
