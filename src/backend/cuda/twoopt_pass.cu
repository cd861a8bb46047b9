/*
 * twoopt_pass.cu - a full 2-opt pass of one tour spread over the whole GPU
 * (Rocki & Suda 2013), register-tiled (Lee 2014), with the per-row bests
 * that k-swap selection needs (Robinson et al. 2018, §3.4).
 *
 * Work division (Rocki's scheme, any n): the triangular pair space
 * 0 <= i < n-2, i+2 <= j < n is cut into tiles of B = 2048 rows by W columns
 * (W = B / splits, splits chosen so that small tours still give every
 * resident block several tiles).  Tiles are numbered row block by row
 * block, and a fixed grid of resident blocks takes tiles k, k + grid, ...,
 * so every block gets the same work whatever n is; full tiles all cost the
 * same, only those touching the diagonal are cheaper.
 *
 * Inside a tile each of the 128 threads keeps TR = 16 consecutive rows in
 * registers (TR+1 points: rows i and i+1 are both needed) and streams the
 * tile's columns from shared memory.  Move (i, j) is
 *     (d(p_i, q_j) - e_i) + (d(p_i+1, q_j+1) - e_j)
 * and the distance d(p_r, q_c) serves as the second term of row r-1's
 * move at column c-1 and as the first term of row r's move at column c: each
 * distance is computed once and used twice, (TR+1)/TR square roots per
 * move.  Distances are in magic form (M + d), edge terms stored as M + e, so
 * each term is one FADD; the best is tracked as a plain fminf per row,
 * without index bookkeeping.  At the end of a tile a row whose minimum
 * could beat the row's best so far (read from rowkey) re-evaluates its
 * segment with the same float operations to recover the lowest j, and
 * offers (delta, j) with a 64-bit atomicMin on an order-preserving key.
 * This loop is written by hand because its speed is the register layout
 * and the once-computed, twice-used distances: no library primitive
 * expresses that.  The compaction, scans and sums around it are CUB's.
 */
#include "backend/cuda/twoopt_pass.cuh"

namespace {

constexpr int PASS_THREADS = 128;
constexpr int TR = 16;                    /* rows per thread */
constexpr int B = PASS_THREADS * TR;      /* rows (and widest columns) per tile */
constexpr int MAX_SPLITS = 64;            /* narrowest column chunk: B / 64 */
constexpr int MIN_TILES_PER_BLOCK = 4;

/* Widest column chunk whose points fit the 48 KB of static shared memory
 * (EXPLICIT's points are 24 bytes). */
template <class M>
__host__ __device__ constexpr int max_cols()
{
    return sizeof(typename M::Pt) <= 16 ? B : B / 2;
}

/* Order-preserving bits: a < b as floats iff ord(a) < ord(b). */
__device__ __forceinline__ unsigned ord_bits(float f)
{
    unsigned u = __float_as_uint(f);
    return (u & 0x80000000u) ? ~u : (u | 0x80000000u);
}

__device__ __forceinline__ unsigned long long row_key(float d, int j)
{
    return ((unsigned long long)ord_bits(d) << 32) | (unsigned)j;
}

struct PassGeom {
    int n, splits, w, nrb, nc; /* w: chunk width; nrb row blocks; nc column chunks */
    long long tiles;
};

/* Tiles of row blocks [0, I): row block I spans chunks I*splits .. nc-1. */
__host__ __device__ __forceinline__ long long tiles_before(const PassGeom &g, long long I)
{
    return I * g.nc - (long long)g.splits * I * (I - 1) / 2;
}

PassGeom make_geom(int n, int splits)
{
    PassGeom g;
    g.n = n;
    g.splits = splits;
    g.w = B / splits;
    g.nrb = (n + B - 1) / B;
    g.nc = (n + g.w - 1) / g.w;
    g.tiles = tiles_before(g, g.nrb);
    return g;
}

/* Row block and first column of tile t. */
__device__ __forceinline__ void tile_at(const PassGeom &g, long long t, int *I, int *j0)
{
    int lo = 0, hi = g.nrb - 1;
    while (lo < hi) {
        int mid = (lo + hi + 1) / 2;
        if (tiles_before(g, mid) <= t) lo = mid;
        else hi = mid - 1;
    }
    *I = lo;
    long long chunk = (long long)lo * g.splits + (t - tiles_before(g, lo));
    *j0 = (int)(chunk * g.w);
}

template <class M>
struct PassArgs {
    DevInst inst;
    const typename M::Pt *pts;
    const float *me;
    unsigned long long *rowkey;
    const int *stop;
    PassGeom g;
};

/* Row minima of one thread's TR rows over columns j0 .. j0+len-1, in the
 * form M + delta + e_r (see pass_row_term).  MASK: moves left of the
 * diagonal (j < i+2) do not count. */
template <class M, bool MASK>
__device__ __forceinline__ void tile_rows(const typename M::Pt p[TR + 1],
                                          const typename M::Pt *s_q, const float *s_e, int i0,
                                          int j0, int len, float mn[TR])
{
    float a[TR]; /* first terms d(p_r, q_j) - e_j of the previous column j */
    typename M::Pt q = s_q[0];
    float ec = s_e[0];
#pragma unroll
    for (int r = 0; r < TR; r++) a[r] = M::x(p[r], q) - ec;
    for (int c = 1; c <= len; c++) {
        q = s_q[c];
        ec = c < len ? s_e[c] : 0.0f; /* the last column's first terms go unused */
        int j = j0 + c - 1;
        float xcur = M::x(p[0], q);
#pragma unroll
        for (int r = 0; r < TR; r++) {
            float xn = M::x(p[r + 1], q);
            float d = a[r] + xn;
            if (MASK && j < i0 + r + 2) d = INFINITY;
            mn[r] = fminf(mn[r], d);
            a[r] = xcur - ec;
            xcur = xn;
        }
    }
}

/* The term of move (i, j) that the tile loop minimizes over j:
 * (M + d(p_i, q_j) - (M + e_j)) + (M + d(p_i+1, q_j+1)) = M + delta + e_i.
 * The first difference is an exact small integer and the sum stays in
 * [2^23, 2^24), where floats are exact integers, whenever distances are:
 * so e_i can be subtracted once per row, after the minimum, which saves
 * one FADD per move. */
template <class M>
__device__ __forceinline__ float pass_row_term(typename M::Pt pi, typename M::Pt pn,
                                               typename M::Pt qj, typename M::Pt qn, float mej)
{
    return (M::x(pi, qj) - mej) + M::x(pn, qn);
}

/* Lowest-j best move of row i within the tile, by the same float
 * operations as tile_rows; offered to rowkey[i]. */
template <class M>
__device__ void offer_row(const PassArgs<M> &a, const typename M::Pt *s_q, const float *s_e,
                          int i, int j0, int len, float mei)
{
    typename M::Pt pi = a.pts[i], pn = a.pts[i + 1];
    float best = INFINITY;
    int bj = -1;
    for (int c = max(i + 2 - j0, 0); c < len; c++) {
        float d = pass_row_term<M>(pi, pn, s_q[c], s_q[c + 1], s_e[c]);
        if (d < best) {
            best = d;
            bj = j0 + c;
        }
    }
    best -= mei;
    if (bj >= 0 && best < 0.0f) atomicMin(a.rowkey + i, row_key(best, bj));
}

/* Loads the tile's columns j0 .. j0+len (points) and their edge terms. */
template <class M>
__device__ __forceinline__ void load_columns(const PassArgs<M> &a, typename M::Pt *s_q,
                                             float *s_e, int j0, int len)
{
    for (int c = threadIdx.x; c <= len; c += PASS_THREADS) {
        s_q[c] = a.pts[j0 + c];
        if (c < len) s_e[c] = a.me[j0 + c];
    }
}

template <class M>
__device__ __forceinline__ void run_tile(const PassArgs<M> &a, const typename M::Pt *s_q,
                                         const float *s_e, int I, int j0, int len)
{
    const int n = a.g.n;
    int i0 = I * B + threadIdx.x * TR;
    if (i0 >= n - 2 || j0 + len <= i0 + 2) return; /* no move of these rows here */
    typename M::Pt p[TR + 1];
    float mn[TR];
#pragma unroll
    for (int r = 0; r <= TR; r++) p[r] = a.pts[min(i0 + r, n)];
#pragma unroll
    for (int r = 0; r < TR; r++) mn[r] = INFINITY;
    if (j0 >= i0 + TR + 1) tile_rows<M, false>(p, s_q, s_e, i0, j0, len, mn);
    else tile_rows<M, true>(p, s_q, s_e, i0, j0, len, mn);
#pragma unroll
    for (int r = 0; r < TR; r++) {
        int i = i0 + r;
        if (i >= n - 2 || mn[r] == INFINITY) continue;
        float mei = a.me[i];
        float delta = mn[r] - mei;
        /* Only a segment that could win pays for finding its column. */
        if (delta < 0.0f && row_key(delta, 0) < __ldcg(a.rowkey + i))
            offer_row<M>(a, s_q, s_e, i, j0, len, mei);
    }
}

template <class M>
__global__ void __launch_bounds__(PASS_THREADS) pass_kernel(PassArgs<M> a)
{
    __shared__ typename M::Pt s_q[max_cols<M>() + 1];
    __shared__ float s_e[max_cols<M>()];
    __shared__ int s_stop;
    for (long long t = blockIdx.x; t < a.g.tiles; t += gridDim.x) {
        int I, j0;
        tile_at(a.g, t, &I, &j0);
        int len = min(j0 + a.g.w, a.g.n) - j0;
        __syncthreads(); /* the previous tile is done with shared memory */
        if (threadIdx.x == 0) s_stop = *(volatile const int *)a.stop;
        load_columns<M>(a, s_q, s_e, j0, len);
        __syncthreads();
        if (s_stop) return;
        run_tile<M>(a, s_q, s_e, I, j0, len);
    }
}

/* Calls f(M()) with the metric of type. */
template <class F>
wt_status with_metric(wt_edge_weight_type type, wt_error *err, F &&f)
{
    switch (type) {
    case WT_EUC_2D: return f(MetricEuc2D());
    case WT_CEIL_2D: return f(MetricCeil2D());
    case WT_ATT: return f(MetricAtt());
    case WT_GEO: return f(MetricGeo());
    case WT_MAN_2D: return f(MetricMan2D());
    case WT_MAX_2D: return f(MetricMax2D());
    case WT_EUC_3D: return f(MetricEuc3D());
    case WT_EXPLICIT: return f(MetricExplicit());
    }
    return wt_fail(err, WT_STATUS_UNSUPPORTED, "2-opt pass: unknown edge weight type");
}

/* Checks a launch; names the kernel in the message. */
wt_status launched(const char *what, wt_error *err)
{
    cudaError_t e = cudaGetLastError();
    if (e == cudaSuccess) return WT_OK;
    return wt_fail(err, WT_STATUS_DEVICE, "%s kernel launch failed: %s", what,
                   cudaGetErrorString(e));
}

unsigned grid_for(long long items)
{
    long long blocks = (items + 255) / 256;
    return (unsigned)(blocks < 1 ? 1 : blocks > 65535 ? 65535 : blocks);
}

template <class M>
__global__ void refresh_kernel(DevInst I, typename M::Pt *pts, float *me, const int32_t *id)
{
    int n = I.n;
    for (long long k = blockIdx.x * (long long)blockDim.x + threadIdx.x; k <= n;
         k += (long long)gridDim.x * blockDim.x) {
        typename M::Pt a = M::point(I, id[k < n ? k : 0]);
        pts[k] = a;
        if (k < n) me[k] = M::x(a, M::point(I, id[k + 1 < n ? k + 1 : 0]));
    }
}

__global__ void collect_kernel(DevInst I, const int32_t *id, unsigned long long *rowkey,
                               wt_kswap_move *cand)
{
    int n = I.n;
    for (long long k = blockIdx.x * (long long)blockDim.x + threadIdx.x; k < n - 2;
         k += (long long)gridDim.x * blockDim.x) {
        int i = (int)k;
        unsigned long long key = rowkey[i];
        wt_kswap_move m = {0, i, -1};
        if (key != PASS_NO_MOVE) {
            rowkey[i] = PASS_NO_MOVE;
            int j = (int)(unsigned)(key & 0xFFFFFFFFu);
            int a = id[i], b = id[i + 1], c = id[j], d = id[j + 1 < n ? j + 1 : 0];
            m.delta = dev_exact_dist(I, a, c) + dev_exact_dist(I, b, d) -
                      dev_exact_dist(I, a, b) - dev_exact_dist(I, c, d);
            m.j = j;
        }
        cand[i] = m;
    }
}

/* The move holding swap s: the last c with offs[c] <= s. */
__device__ __forceinline__ int move_of(const long long *offs, int count, long long s)
{
    int lo = 0, hi = count - 1;
    while (lo < hi) {
        int mid = (lo + hi + 1) / 2;
        if (offs[mid] <= s) lo = mid;
        else hi = mid - 1;
    }
    return lo;
}

/* One swap per thread: reversing i+1..j swaps positions i+1+k and j-k. */
template <class M>
__global__ void swap_kernel(typename M::Pt *pts, int32_t *id, const wt_kswap_move *moves,
                            const long long *offs, int count, long long swaps)
{
    for (long long s = blockIdx.x * (long long)blockDim.x + threadIdx.x; s < swaps;
         s += (long long)gridDim.x * blockDim.x) {
        int c = move_of(offs, count, s);
        int k = (int)(s - offs[c]);
        int p = moves[c].i + 1 + k, q = moves[c].j - k;
        typename M::Pt tp = pts[p];
        pts[p] = pts[q];
        pts[q] = tp;
        int32_t ti = id[p];
        id[p] = id[q];
        id[q] = ti;
    }
}

/* Edges i..j of each applied move: swap k refreshes edges i+k and j-k;
 * swap 0 also the one or two in the middle. */
template <class M>
__global__ void edge_kernel(typename M::Pt *pts, float *me, const wt_kswap_move *moves,
                            const long long *offs, int count, long long swaps)
{
    for (long long s = blockIdx.x * (long long)blockDim.x + threadIdx.x; s < swaps;
         s += (long long)gridDim.x * blockDim.x) {
        int c = move_of(offs, count, s);
        int k = (int)(s - offs[c]);
        int i = moves[c].i, j = moves[c].j;
        me[i + k] = M::x(pts[i + k], pts[i + k + 1]);
        me[j - k] = M::x(pts[j - k], pts[j - k + 1]);
        if (k == 0) {
            int h = (j - i) / 2;
            me[i + h] = M::x(pts[i + h], pts[i + h + 1]);
            me[j - h] = M::x(pts[j - h], pts[j - h + 1]);
        }
    }
}

__global__ void half_kernel(const wt_kswap_move *moves, int count, long long *half)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (c < count) half[c] = (moves[c].j - moves[c].i) / 2;
}

__global__ void exact_edge_kernel(DevInst I, const int32_t *id, long long *exact)
{
    int n = I.n;
    for (long long k = blockIdx.x * (long long)blockDim.x + threadIdx.x; k < n;
         k += (long long)gridDim.x * blockDim.x)
        exact[k] = dev_exact_dist(I, id[k], id[k + 1 < n ? k + 1 : 0]);
}

} // namespace

size_t pass_point_bytes(wt_edge_weight_type type)
{
    size_t bytes = 0;
    with_metric(type, nullptr, [&](auto m) {
        bytes = sizeof(typename decltype(m)::Pt);
        return WT_OK;
    });
    return bytes;
}

wt_status pass_refresh_tour(const DevInst &I, DevTour t, cudaStream_t stream, wt_error *err)
{
    return with_metric(I.type, err, [&](auto m) {
        using M = decltype(m);
        refresh_kernel<M><<<grid_for(I.n + 1), 256, 0, stream>>>(I, (typename M::Pt *)t.pts,
                                                                 t.me, t.id);
        return launched("tour refresh", err);
    });
}

wt_status pass_plan(const DevInst &I, PassPlan *plan, wt_error *err)
{
    return with_metric(I.type, err, [&](auto m) {
        using M = decltype(m);
        int dev = 0, sms = 0, per_sm = 0;
        WT_CUDA_CHECK(err, cudaGetDevice(&dev));
        WT_CUDA_CHECK(err, cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
        WT_CUDA_CHECK(err, cudaOccupancyMaxActiveBlocksPerMultiprocessor(
                               &per_sm, pass_kernel<M>, PASS_THREADS, 0));
        if (per_sm < 1)
            return wt_fail(err, WT_STATUS_DEVICE, "2-opt pass: no block of %d threads fits "
                           "on this GPU", PASS_THREADS);
        plan->grid = sms * per_sm;
        /* Narrower chunks until every block has a few tiles (small n). */
        int splits = B / max_cols<M>();
        while (splits < MAX_SPLITS &&
               make_geom(I.n, splits).tiles < (long long)MIN_TILES_PER_BLOCK * plan->grid)
            splits *= 2;
        plan->splits = splits;
        plan->tiles = make_geom(I.n, splits).tiles;
        if (plan->tiles < plan->grid) plan->grid = (int)plan->tiles;
        return WT_OK;
    });
}

wt_status pass_launch(const DevInst &I, DevTour t, const PassPlan &plan,
                      unsigned long long *rowkey, const int *d_stop, cudaStream_t stream,
                      wt_error *err)
{
    if (I.n < 4) return WT_OK; /* no pair of non-adjacent edges */
    return with_metric(I.type, err, [&](auto m) {
        using M = decltype(m);
        PassArgs<M> a;
        a.inst = I;
        a.pts = (const typename M::Pt *)t.pts;
        a.me = t.me;
        a.rowkey = rowkey;
        a.stop = d_stop;
        a.g = make_geom(I.n, plan.splits);
        pass_kernel<M><<<plan.grid, PASS_THREADS, 0, stream>>>(a);
        return launched("2-opt pass", err);
    });
}

wt_status pass_collect(const DevInst &I, const int32_t *id, unsigned long long *rowkey,
                       wt_kswap_move *cand, cudaStream_t stream, wt_error *err)
{
    if (I.n < 3) return WT_OK;
    collect_kernel<<<grid_for(I.n), 256, 0, stream>>>(I, id, rowkey, cand);
    return launched("2-opt candidates", err);
}

wt_status pass_apply(const DevInst &I, DevTour t, const wt_kswap_move *moves,
                     const long long *offs, int count, long long swaps, cudaStream_t stream,
                     wt_error *err)
{
    if (count == 0 || swaps == 0) return WT_OK;
    return with_metric(I.type, err, [&](auto m) {
        using M = decltype(m);
        typename M::Pt *pts = (typename M::Pt *)t.pts;
        swap_kernel<M><<<grid_for(swaps), 256, 0, stream>>>(pts, t.id, moves, offs, count, swaps);
        wt_status st = launched("k-swap reversal", err);
        if (st != WT_OK) return st;
        edge_kernel<M><<<grid_for(swaps), 256, 0, stream>>>(pts, t.me, moves, offs, count, swaps);
        return launched("k-swap edge refresh", err);
    });
}

wt_status pass_half_lengths(const wt_kswap_move *moves, int count, long long *half,
                            cudaStream_t stream, wt_error *err)
{
    if (count == 0) return WT_OK;
    half_kernel<<<(count + 255) / 256, 256, 0, stream>>>(moves, count, half);
    return launched("k-swap half lengths", err);
}

wt_status pass_exact_edges(const DevInst &I, const int32_t *id, long long *exact,
                           cudaStream_t stream, wt_error *err)
{
    exact_edge_kernel<<<grid_for(I.n), 256, 0, stream>>>(I, id, exact);
    return launched("exact edge lengths", err);
}
