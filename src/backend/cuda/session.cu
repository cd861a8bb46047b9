/*
 * session.cu - tour sessions on the GPU (backend.h's wt_session_ops): the
 * tour stays in device memory from open to read_best.
 *
 * A scan is a whole-GPU pass (twoopt_pass.cuh; with wt_params.prune the
 * pruned one where the plan allows it, with the same row bests) that leaves
 * each row's best float move, and with a band a small kernel that adds
 * each row's best float move within the band; the exact delta
 * of each is computed on the device and only exactly improving moves are
 * compacted (cub::DeviceSelect), so every applied move strictly shortens
 * the exact tour and descent always ends, whatever float does with large
 * coordinates.  The candidates go to the host, where algo/descent.c's
 * wt_kswap_choose (the CPU backend's own choice, so both backends choose
 * alike) keeps moves that go together, in groups of disjoint moves (one
 * group under the disjoint rule; one per nesting depth under the laminar
 * rule, deepest first).  apply sends them back and applies each group at
 * once, one thread
 * per swap of its reversals, laid out by the exclusive prefix sum of the
 * half-lengths within the group (computed on the host, which has the moves
 * anyway): two kernels per group.  The current length is kept on the host
 * by adding the kept exact deltas (they add up exactly under both rules);
 * open and kick recompute it on the device (CUB sum).
 *
 * While a pass runs the host polls the search controller and, when it
 * expires, raises a flag in device memory that ends the pass early
 * (context.cuh's cuda_wait); the incomplete pass is discarded, so the tour
 * stays as it was.
 */
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_select.cuh>

#include <cstdlib>
#include <cstring>

#include "core/kswap.h"
#include "core/search_ctl.h"
#include "core/tour_ops.h"
#include "backend/cuda/context.cuh"
#include "backend/cuda/pass_apply.cuh"
#include "backend/cuda/pass_band.cuh"
#include "backend/cuda/pass_recover.cuh"
#include "backend/cuda/pass_tour.cuh"
#include "backend/cuda/session.h"
#include "backend/cuda/twoopt_pass.cuh"
#include "backend/cuda/twoopt_pass.h"

#define SPIN_S 0.002 /* poll a pass without sleeping for this long (short passes) */

struct wt_tour_session {
    const wt_instance *inst;
    wt_search_ctl *ctl;            /* may be NULL (wt_cuda_2opt_scan) */
    int n;
    DevInstBuffers dinst;
    bool inst_loaded;
    CudaContext ctx;               /* the device; the work's stream, the stop flag's beside it */
    DevTour cur, best;
    unsigned long long *d_rowkey;  /* n: per-row best keys of a pass */
    wt_kswap_move *d_cand, *d_moves; /* 2n each: every row (then its band best); the
                                      compacted ones, later the kept ones */
    long long *d_offs;             /* 2n: kept moves' first swap within their group */
    long long *d_exact, *d_len;    /* n edge lengths; their sum */
    int *d_count, *d_stop;
    void *d_temp;                  /* CUB scratch, sized once at open */
    size_t temp_bytes;
    int *h_count;                  /* pinned: the candidates of the last pass */
    PassBoxes boxes;               /* the pruned pass's boxes (plan.prune) */
    unsigned long long *h_checked; /* pinned: pairs the last pruned pass evaluated */
    bool prune;                    /* ctl->params->prune (the plan may still not prune) */
    int device;                    /* the GPU it runs on (the device it was opened on) */
    wt_tuning tuning;              /* *wt_tuning_of(ctl->params): the pass's shape */
    wt_kswap_move *h_moves;        /* pinned, 2n: candidates, then the kept moves */
    long long *h_offs;             /* pinned, 2n: d_offs before upload */
    bool stop_raised;              /* d_stop may be nonzero: reset before the next pass */
    PassPlan plan;
    cudaEvent_t ev[2];             /* around each pass kernel: its time */
    bool hold;                     /* hold the stream before each timed pass (see hold_kernel) */
    int64_t cur_len, best_len;
    cudaError_t deferred;          /* a keep/revert failure, reported by the next call */
};

namespace {

struct IsImproving {
    __device__ __forceinline__ bool operator()(const wt_kswap_move &m) const
    {
        return m.delta < 0;
    }
};

/* A keep/revert failure, which those slots cannot return, surfaces here. */
wt_status check_deferred(wt_tour_session *s, wt_error *err)
{
    if (s->deferred == cudaSuccess) return WT_OK;
    cudaError_t e = s->deferred;
    s->deferred = cudaSuccess;
    return wt_fail(err, WT_STATUS_DEVICE, "copying a tour on the GPU (keep/revert) failed: %s",
                   cudaGetErrorString(e));
}

wt_status alloc_tour(DevTour *t, int n, size_t pt_bytes, cudaStream_t stream, wt_error *err)
{
    size_t pts_bytes = (size_t)(n + 1 + PASS_READ_AHEAD) * pt_bytes;
    size_t me_bytes = (size_t)(n + PASS_READ_AHEAD) * sizeof(float);
    WT_CUDA_CHECK(err, cudaMalloc(&t->pts, pts_bytes));
    WT_CUDA_CHECK(err, cudaMalloc(&t->me, me_bytes));
    WT_CUDA_CHECK(err, cudaMalloc(&t->id, (size_t)n * sizeof(int32_t)));
    /* The spare entries are read, never used: zeroed, so that they are
     * defined (compute-sanitizer's initcheck). */
    WT_CUDA_CHECK(err, cudaMemsetAsync(t->pts, 0, pts_bytes, stream));
    WT_CUDA_CHECK(err, cudaMemsetAsync(t->me, 0, me_bytes, stream));
    return WT_OK;
}

void free_tour(DevTour *t)
{
    cudaFree(t->pts);
    cudaFree(t->me);
    cudaFree(t->id);
}

cudaError_t copy_tour(DevTour to, DevTour from, int n, size_t pt_bytes, cudaStream_t stream)
{
    cudaError_t e = cudaMemcpyAsync(to.pts, from.pts, (size_t)(n + 1) * pt_bytes,
                                    cudaMemcpyDeviceToDevice, stream);
    if (e == cudaSuccess)
        e = cudaMemcpyAsync(to.me, from.me, (size_t)n * sizeof(float), cudaMemcpyDeviceToDevice,
                            stream);
    if (e == cudaSuccess)
        e = cudaMemcpyAsync(to.id, from.id, (size_t)n * sizeof(int32_t),
                            cudaMemcpyDeviceToDevice, stream);
    return e;
}

/* One scratch for every CUB call of the session, sized for the largest. */
wt_status size_cub_temp(wt_tour_session *s, wt_error *err)
{
    size_t a = 0, c = 0;
    WT_CUDA_CHECK(err, cub::DeviceSelect::If(nullptr, a, s->d_cand, s->d_moves, s->d_count,
                                             2 * s->n, IsImproving(), s->ctx.stream));
    WT_CUDA_CHECK(err, cub::DeviceReduce::Sum(nullptr, c, s->d_exact, s->d_len, s->n,
                                              s->ctx.stream));
    s->temp_bytes = a > c ? a : c;
    WT_CUDA_CHECK(err, cudaMalloc(&s->d_temp, s->temp_bytes));
    return WT_OK;
}

wt_status alloc_session(wt_tour_session *s, wt_error *err)
{
    size_t n = (size_t)s->n, pt = pass_point_bytes(s->inst->type);
    WT_CUDA_CHECK(err, cudaEventCreate(&s->ev[0]));
    WT_CUDA_CHECK(err, cudaEventCreate(&s->ev[1]));
    wt_status st = alloc_tour(&s->cur, s->n, pt, s->ctx.stream, err);
    if (st == WT_OK) st = alloc_tour(&s->best, s->n, pt, s->ctx.stream, err);
    if (st != WT_OK) return st;
    WT_CUDA_CHECK(err, cudaMalloc(&s->d_rowkey, n * sizeof *s->d_rowkey));
    WT_CUDA_CHECK(err, cudaMalloc(&s->d_cand, 2 * n * sizeof *s->d_cand));
    WT_CUDA_CHECK(err, cudaMalloc(&s->d_moves, 2 * n * sizeof *s->d_moves));
    WT_CUDA_CHECK(err, cudaMalloc(&s->d_offs, 2 * n * sizeof *s->d_offs));
    WT_CUDA_CHECK(err, cudaMalloc(&s->d_exact, n * sizeof *s->d_exact));
    WT_CUDA_CHECK(err, cudaMalloc(&s->d_len, sizeof *s->d_len));
    WT_CUDA_CHECK(err, cudaMalloc(&s->d_count, sizeof *s->d_count));
    WT_CUDA_CHECK(err, cudaMalloc(&s->d_stop, sizeof *s->d_stop));
    WT_CUDA_CHECK(err, cudaMallocHost(&s->h_count, sizeof *s->h_count));
    WT_CUDA_CHECK(err, cudaMallocHost(&s->h_checked, sizeof *s->h_checked));
    WT_CUDA_CHECK(err, cudaMallocHost(&s->h_moves, 2 * n * sizeof *s->h_moves));
    WT_CUDA_CHECK(err, cudaMallocHost(&s->h_offs, 2 * n * sizeof *s->h_offs));
    return size_cub_temp(s, err);
}

/* Exact length of the current tour, summed on the device. */
wt_status exact_length(wt_tour_session *s, int64_t *len, wt_error *err)
{
    wt_status st = pass_exact_edges(s->dinst.inst, s->cur.id, s->d_exact, s->ctx.stream, err);
    if (st != WT_OK) return st;
    size_t bytes = s->temp_bytes;
    WT_CUDA_CHECK(err, cub::DeviceReduce::Sum(s->d_temp, bytes, s->d_exact, s->d_len, s->n,
                                              s->ctx.stream));
    long long h = 0;
    WT_CUDA_CHECK(err, cudaMemcpyAsync(&h, s->d_len, sizeof h, cudaMemcpyDeviceToHost,
                                       s->ctx.stream));
    WT_CUDA_CHECK(err, cudaStreamSynchronize(s->ctx.stream));
    *len = h;
    return WT_OK;
}

wt_status open_session(wt_tour_session *s, const int32_t *tour, wt_error *err)
{
    wt_status st = cuda_context_open(s->device, &s->ctx, err);
    if (st == WT_OK) st = dev_instance_upload(s->inst, &s->dinst, err);
    if (st != WT_OK) return st;
    s->inst_loaded = true;
    st = alloc_session(s, err);
    if (st != WT_OK) return st;
    size_t n = (size_t)s->n;
    WT_CUDA_CHECK(err, cudaMemsetAsync(s->d_rowkey, 0xFF, n * sizeof *s->d_rowkey, s->ctx.stream));
    WT_CUDA_CHECK(err, cudaMemsetAsync(s->d_stop, 0, sizeof *s->d_stop, s->ctx.stream));
    WT_CUDA_CHECK(err, cudaMemcpyAsync(s->cur.id, tour, n * sizeof *tour, cudaMemcpyHostToDevice,
                                       s->ctx.stream));
    st = pass_refresh_tour(s->dinst.inst, s->cur, s->ctx.stream, err);
    if (st != WT_OK) return st;
    WT_CUDA_CHECK(err, copy_tour(s->best, s->cur, s->n, pass_point_bytes(s->inst->type),
                                 s->ctx.stream));
    st = pass_plan(s->ctx, s->dinst.inst, pass_max_distance(s->inst), s->prune, &s->tuning,
                   &s->plan, err);
    if (st == WT_OK && s->plan.prune) {
        size_t boxes = pass_boxes_count(s->n);
        WT_CUDA_CHECK(err, cudaMalloc(&s->boxes.box, boxes * sizeof *s->boxes.box));
        WT_CUDA_CHECK(err, cudaMalloc(&s->boxes.longest, boxes * sizeof *s->boxes.longest));
        WT_CUDA_CHECK(err, cudaMalloc(&s->boxes.checked, sizeof *s->boxes.checked));
    }
    if (st == WT_OK) st = exact_length(s, &s->cur_len, err);
    s->best_len = s->cur_len;
    return st;
}

/* cuda_wait's look during a pass: stop once ctl expires; a pass longer
 * than SPIN_S (seconds at 10M cities) is reported as under way. */
wt_status look_at_pass(void *p, double waited_s, bool *stop, wt_error *err)
{
    (void)err;
    wt_search_ctl *ctl = (wt_search_ctl *)p;
    *stop = ctl && wt_ctl_expired(ctl);
    if (ctl && waited_s > SPIN_S) wt_ctl_tick(ctl, WT_PASS_SHARE_UNKNOWN);
    return WT_OK;
}

/* Waits for the stream, raising the stop flag if ctl expires meanwhile.
 * *stopped tells whether the flag was raised (the pass is then void). */
wt_status wait_pass(wt_tour_session *s, bool *stopped, wt_error *err)
{
    CudaWatch w = {"2-opt pass", s->d_stop, SPIN_S, 100, look_at_pass, s->ctl};
    *stopped = false;
    wt_status st = cuda_wait(s->ctx, w, stopped, err);
    s->stop_raised = s->stop_raised || *stopped;
    return st;
}

/* Keeps the GPU busy for ns nanoseconds.  A pass timed from an idle
 * stream would count the host's time to launch its kernels too (a few
 * microseconds, a tenth of a pass at 13,000 cities); enqueued behind this,
 * the start event, the pass and the recovery are all queued before the GPU
 * reaches them, so the events time the GPU's work alone.  Only
 * wt_cuda_2opt_scan (the GPU tests) holds. */
__global__ void hold_kernel(unsigned long long ns)
{
    unsigned long long t0, t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
    do {
        __nanosleep(1000);
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    } while (t - t0 < ns);
}

#define HOLD_NS 100000ULL /* enough to enqueue a pass behind it */

/* Enqueues one pass and its exact, compacted candidates (count into
 * h_count): the row bests, then (band > 0) the band bests; the
 * session's events time the pass: its kernel and the recovery of the rows'
 * columns with their exact deltas (pass_collect).  Few operations, no wait:
 * at mid-size n their fixed costs rival the pass. */
wt_status enqueue_pass(wt_tour_session *s, int band, wt_error *err)
{
    const DevInst &I = s->dinst.inst;
    if (s->stop_raised) { /* open cleared it; only a raised flag needs clearing */
        WT_CUDA_CHECK(err, cudaMemsetAsync(s->d_stop, 0, sizeof *s->d_stop, s->ctx.stream));
        s->stop_raised = false;
    }
    if (s->hold) {
        hold_kernel<<<1, 32, 0, s->ctx.stream>>>(HOLD_NS);
        WT_CUDA_CHECK(err, cudaGetLastError());
    }
    WT_CUDA_CHECK(err, cudaEventRecord(s->ev[0], s->ctx.stream));
    wt_status st = pass_launch(I, s->cur, s->plan, s->boxes, s->d_rowkey, s->d_stop, s->ctx.stream,
                               err);
    if (st != WT_OK) return st;
    st = pass_collect(I, s->cur, s->plan, s->d_rowkey, s->d_cand, s->ctx.stream, err);
    if (st != WT_OK) return st;
    WT_CUDA_CHECK(err, cudaEventRecord(s->ev[1], s->ctx.stream));
    if (st == WT_OK && band > 0) st = pass_band(I, s->cur, band, s->d_cand, s->ctx.stream, err);
    if (st != WT_OK) return st;
    size_t bytes = s->temp_bytes;
    int rows = s->n - 2 > 0 ? s->n - 2 : 0;
    int items = band > 0 ? 2 * rows : rows;
    if (rows > 0) /* writes the count */
        WT_CUDA_CHECK(err, cub::DeviceSelect::If(s->d_temp, bytes, s->d_cand, s->d_moves,
                                                 s->d_count, items, IsImproving(), s->ctx.stream));
    else
        WT_CUDA_CHECK(err, cudaMemsetAsync(s->d_count, 0, sizeof *s->d_count, s->ctx.stream));
    WT_CUDA_CHECK(err, cudaMemcpyAsync(s->h_count, s->d_count, sizeof(int),
                                       cudaMemcpyDeviceToHost, s->ctx.stream));
    if (s->plan.prune)
        WT_CUDA_CHECK(err, cudaMemcpyAsync(s->h_checked, s->boxes.checked, sizeof *s->h_checked,
                                           cudaMemcpyDeviceToHost, s->ctx.stream));
    return WT_OK;
}

/* One pass (band as enqueue_pass): *count candidates in h_moves, or -1 if
 * ctl stopped it; *seconds: the pass kernel's time. */
wt_status pass_candidates(wt_tour_session *s, int band, int *count, double *seconds,
                          wt_error *err)
{
    bool stopped = false;
    wt_status st = enqueue_pass(s, band, err);
    if (st == WT_OK) st = wait_pass(s, &stopped, err);
    if (st != WT_OK) return st;
    float ms = 0;
    WT_CUDA_CHECK(err, cudaEventElapsedTime(&ms, s->ev[0], s->ev[1]));
    *seconds = ms * 1e-3;
    *count = stopped ? -1 : *s->h_count;
    if (*count > 0) {
        WT_CUDA_CHECK(err, cudaMemcpyAsync(s->h_moves, s->d_moves,
                                           (size_t)*count * sizeof *s->h_moves,
                                           cudaMemcpyDeviceToHost, s->ctx.stream));
        WT_CUDA_CHECK(err, cudaStreamSynchronize(s->ctx.stream));
    }
    return WT_OK;
}

/* Pairs the last pass evaluated: all, or what the pruned pass counted
 * (rows x columns of its rectangles, at most all). */
uint64_t pass_checked(const wt_tour_session *s)
{
    uint64_t all = wt_2opt_moves_per_scan(s->n);
    if (!s->plan.prune) return all;
    return *s->h_checked < all ? *s->h_checked : all;
}

/* Applies the kept moves h_moves[0..ch.kept) on the device, group after
 * group in the order of ch (deepest nesting first), each group's disjoint
 * moves at once. */
wt_status apply_kept(wt_tour_session *s, const wt_kswap_choice &ch, wt_error *err)
{
    for (int g = 0; g < ch.levels; g++) { /* swaps before each move, within its group */
        long long sum = 0;
        for (int c = ch.level_start[g]; c < ch.level_start[g + 1]; c++) {
            s->h_offs[c] = sum;
            sum += (s->h_moves[c].j - s->h_moves[c].i) / 2;
        }
    }
    size_t kept = (size_t)ch.kept;
    WT_CUDA_CHECK(err, cudaMemcpyAsync(s->d_moves, s->h_moves, kept * sizeof *s->h_moves,
                                       cudaMemcpyHostToDevice, s->ctx.stream));
    WT_CUDA_CHECK(err, cudaMemcpyAsync(s->d_offs, s->h_offs, kept * sizeof *s->h_offs,
                                       cudaMemcpyHostToDevice, s->ctx.stream));
    /* No wait: h_moves and h_offs are pinned, and the next pass's copy into
     * h_moves comes after these in the stream; the host writes either only
     * after that pass, which it waits for. */
    for (int g = 0; g < ch.levels; g++) {
        int first = ch.level_start[g], last = ch.level_start[g + 1] - 1;
        long long swaps = s->h_offs[last] + (s->h_moves[last].j - s->h_moves[last].i) / 2;
        wt_status st = pass_apply(s->dinst.inst, s->cur, s->d_moves + first, s->d_offs + first,
                                  last - first + 1, swaps, s->ctx.stream, err);
        if (st != WT_OK) return st;
    }
    return WT_OK;
}

void cuda_session_close(wt_tour_session *s)
{
    if (!s) return;
    if (s->ctx.stream) cudaStreamSynchronize(s->ctx.stream);
    free_tour(&s->cur);
    free_tour(&s->best);
    cudaFree(s->d_rowkey);
    cudaFree(s->d_cand);
    cudaFree(s->d_moves);
    cudaFree(s->d_offs);
    cudaFree(s->d_exact);
    cudaFree(s->d_len);
    cudaFree(s->d_count);
    cudaFree(s->d_stop);
    cudaFree(s->d_temp);
    cudaFreeHost(s->h_count);
    cudaFreeHost(s->h_checked);
    cudaFree(s->boxes.box);
    cudaFree(s->boxes.longest);
    cudaFree(s->boxes.checked);
    if (s->ev[0]) cudaEventDestroy(s->ev[0]);
    if (s->ev[1]) cudaEventDestroy(s->ev[1]);
    cudaFreeHost(s->h_moves);
    cudaFreeHost(s->h_offs);
    if (s->inst_loaded) dev_instance_free(&s->dinst);
    cuda_context_close(&s->ctx);
    (void)cudaGetLastError(); /* a failed session must not leave its error behind */
    free(s);
}

/* A session on GPU number device; ctl's parameters (none: the defaults)
 * give the pass's pruning and tuning. */
static wt_status open_on(int device, const wt_instance *inst, const int32_t *tour,
                         wt_search_ctl *ctl, wt_tour_session **out, wt_error *err)
{
    wt_tour_session *s = (wt_tour_session *)calloc(1, sizeof *s);
    if (!s) return wt_fail(err, WT_STATUS_OUT_OF_MEMORY, "out of memory for a GPU tour session");
    s->inst = inst;
    s->ctl = ctl;
    s->n = inst->n;
    s->deferred = cudaSuccess;
    /* Without parameters: the tuning's defaults (all 0) and the pruned
     * pass, as wt_params_defaults sets them. */
    const wt_params *p = ctl ? ctl->params : nullptr;
    s->prune = p ? p->prune : true;
    s->device = device;
    if (p) s->tuning = *wt_tuning_of(p);
    wt_status st = open_session(s, tour, err);
    if (st != WT_OK) {
        cuda_session_close(s);
        return st;
    }
    *out = s;
    return WT_OK;
}

wt_status cuda_session_scan(wt_tour_session *s, int band, wt_kswap_move **moves, int *count,
                            uint64_t *checked, double *seconds, wt_error *err)
{
    wt_status st = check_deferred(s, err);
    if (st == WT_OK) st = pass_candidates(s, band, count, seconds, err);
    *moves = s->h_moves;
    *checked = pass_checked(s);
    return st;
}

wt_status cuda_session_apply(wt_tour_session *s, const wt_kswap_choice *choice, wt_error *err)
{
    wt_status st = apply_kept(s, *choice, err);
    if (st != WT_OK) return st;
    for (int c = 0; c < choice->kept; c++) s->cur_len += s->h_moves[c].delta;
    return WT_OK;
}

/* A B C D -> A C B D on the city ids through d_cand as scratch; points
 * and edges are then rebuilt from the ids. */
wt_status cuda_session_kick(wt_tour_session *s, int p1, int p2, int p3, wt_error *err)
{
    if (!(0 < p1 && p1 < p2 && p2 < p3 && p3 < s->n))
        return wt_fail(err, WT_STATUS_INVALID_ARGUMENT, "double bridge needs 0 < p1 < p2 < p3 < n");
    wt_status st = check_deferred(s, err);
    if (st != WT_OK) return st;
    size_t lb = (size_t)(p2 - p1), lc = (size_t)(p3 - p2), w = sizeof(int32_t);
    int32_t *buf = (int32_t *)s->d_cand, *id = s->cur.id;
    WT_CUDA_CHECK(err, cudaMemcpyAsync(buf, id + p2, lc * w, cudaMemcpyDeviceToDevice,
                                       s->ctx.stream));
    WT_CUDA_CHECK(err, cudaMemcpyAsync(buf + lc, id + p1, lb * w, cudaMemcpyDeviceToDevice,
                                       s->ctx.stream));
    WT_CUDA_CHECK(err, cudaMemcpyAsync(id + p1, buf, (lb + lc) * w, cudaMemcpyDeviceToDevice,
                                       s->ctx.stream));
    st = pass_refresh_tour(s->dinst.inst, s->cur, s->ctx.stream, err);
    if (st == WT_OK) st = exact_length(s, &s->cur_len, err);
    return st;
}

int64_t cuda_session_length(const wt_tour_session *s) { return s->cur_len; }

void cuda_session_keep(wt_tour_session *s)
{
    cudaError_t e = copy_tour(s->best, s->cur, s->n, pass_point_bytes(s->inst->type),
                              s->ctx.stream);
    if (e != cudaSuccess && s->deferred == cudaSuccess) s->deferred = e;
    s->best_len = s->cur_len;
}

void cuda_session_revert(wt_tour_session *s)
{
    cudaError_t e = copy_tour(s->cur, s->best, s->n, pass_point_bytes(s->inst->type),
                              s->ctx.stream);
    if (e != cudaSuccess && s->deferred == cudaSuccess) s->deferred = e;
    s->cur_len = s->best_len;
}

wt_status cuda_session_read_best(const wt_tour_session *s, int32_t *tour, wt_error *err)
{
    if (s->deferred != cudaSuccess)
        return wt_fail(err, WT_STATUS_DEVICE, "copying a tour on the GPU failed: %s",
                       cudaGetErrorString(s->deferred));
    WT_CUDA_CHECK(err, cudaStreamSynchronize(s->ctx.stream));
    WT_CUDA_CHECK(err, cudaMemcpy(tour, s->best.id, (size_t)s->n * sizeof *tour,
                                  cudaMemcpyDeviceToHost));
    return WT_OK;
}

/* One pass, its kernel timed with events; candidates into out. */
wt_status timed_candidates(wt_tour_session *s, int band, wt_kswap_move *out, int *count,
                           double *pass_seconds, wt_error *err)
{
    double seconds = 0;
    wt_status st = pass_candidates(s, band, count, &seconds, err);
    if (st != WT_OK) return st;
    if (pass_seconds) *pass_seconds = seconds;
    memcpy(out, s->h_moves, (size_t)*count * sizeof *out);
    return WT_OK;
}

} // namespace

static wt_status cuda_session_open(const wt_device *dev, const wt_instance *inst,
                                   const int32_t *tour, wt_search_ctl *ctl,
                                   wt_tour_session **out, wt_error *err)
{
    return open_on(dev ? dev->index : 0, inst, tour, ctl, out, err);
}

extern "C" const wt_session_ops wt_cuda_session_ops = {
    /* .open = */ cuda_session_open,
    /* .close = */ cuda_session_close,
    /* .scan = */ cuda_session_scan,
    /* .apply = */ cuda_session_apply,
    /* .kick = */ cuda_session_kick,
    /* .length = */ cuda_session_length,
    /* .keep = */ cuda_session_keep,
    /* .revert = */ cuda_session_revert,
    /* .read_best = */ cuda_session_read_best,
};

extern "C" wt_status wt_cuda_2opt_scan(const wt_instance *inst, const int32_t *tour, int band,
                                       const wt_params *params, wt_kswap_move *out, int *count,
                                       double *pass_seconds, uint64_t *checked, wt_error *err)
{
    if (band < 0) return wt_fail(err, WT_STATUS_INVALID_ARGUMENT, "band must not be negative");
    wt_params defaults = {}; /* device 0, the tuning's defaults, no pruning */
    wt_search_ctl ctl = {};
    ctl.params = params ? params : &defaults;
    ctl.threads = 1;
    wt_tour_session *s = nullptr;
    wt_status st = open_on(ctl.params->cuda_device, inst, tour, &ctl, &s, err);
    if (st != WT_OK) return st;
    s->ctl = nullptr; /* no stop: the pass runs whole */
    s->hold = pass_seconds != nullptr;
    st = timed_candidates(s, band, out, count, pass_seconds, err);
    if (st == WT_OK && checked) *checked = pass_checked(s);
    cuda_session_close(s);
    return st;
}
