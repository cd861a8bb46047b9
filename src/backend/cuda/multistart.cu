/*
 * multistart.cu - running a multistart search on the GPU, host side.
 *
 * Uploads the instance, sets up the run state (work queue, best tour, stop
 * flag) in device memory, launches the chosen kernel and, while it runs,
 * waits for it (context.cuh's cuda_wait): the run's counters come back on
 * the control stream for progress reports, and the stop flag goes up when
 * the time limit passes or the caller asks to stop.  The whole search stays
 * on the GPU; only the best tour comes back, once.
 */
#include <climits>
#include <cstring>

#include "core/search_ctl.h"
#include "core/tour_ops.h"
#include "backend/cuda/multistart.h"
#include "backend/cuda/multistart_kernels.cuh"

namespace {

/* Everything a run allocates, released in one place. */
struct MsResources {
    CudaContext ctx = {};
    DevInstBuffers inst;
    MsRun *d_run = nullptr;
    int32_t *d_best = nullptr;
    MsRun *h_run = nullptr;   /* pinned: progress snapshots of *d_run */
    bool inst_loaded = false;

    ~MsResources()
    {
        if (inst_loaded) dev_instance_free(&inst);
        cudaFree(d_run);
        cudaFree(d_best);
        cudaFreeHost(h_run);
        cuda_context_close(&ctx);
    }
};

/* What the wait for a run looks at. */
struct MsWatch {
    wt_search_ctl *ctl;
    MsResources *res;
    double next_snapshot;
};

/* Copies the run's counters into r.h_run for a progress report. */
wt_status snapshot(MsResources &r, wt_error *err)
{
    WT_CUDA_CHECK(err, cudaMemcpyAsync(r.h_run, r.d_run, sizeof(MsRun), cudaMemcpyDeviceToHost,
                                       r.ctx.control));
    WT_CUDA_CHECK(err, cudaStreamSynchronize(r.ctx.control));
    return WT_OK;
}

/* cuda_wait's look: counters copied back at most every 50 ms, a progress
 * report (which says whether to stop) at every poll. */
wt_status look_at_run(void *p, double waited_s, bool *stop, wt_error *err)
{
    (void)waited_s;
    MsWatch *w = (MsWatch *)p;
    MsResources &r = *w->res;
    double now = wt_now();
    if (now >= w->next_snapshot) {
        wt_status st = snapshot(r, err);
        if (st != WT_OK) return st;
        w->next_snapshot = now + 0.05;
    }
    long long best = r.h_run->best_len;
    if (best == LLONG_MAX) best = w->ctl->init_length;
    *stop = wt_ctl_report_climbs(w->ctl, best, r.h_run->steps, r.h_run->climbs, false);
    return WT_OK;
}

/* Polls the running kernel, reporting progress and forwarding stop requests. */
wt_status wait_for_run(void *p, wt_error *err)
{
    MsWatch *w = (MsWatch *)p;
    MsResources &r = *w->res;
    CudaWatch watch = {"multistart kernel", &r.d_run->stop, 0.0, 500, look_at_run, w};
    bool stopped = false;
    return cuda_wait(r.ctx, watch, &stopped, err);
}

wt_status prepare(const wt_instance *inst, int device, MsResources &r, wt_error *err)
{
    wt_status st = cuda_context_open(device, &r.ctx, err);
    if (st == WT_OK) st = dev_instance_upload(inst, &r.inst, err);
    if (st != WT_OK) return st;
    r.inst_loaded = true;
    WT_CUDA_CHECK(err, cudaMalloc(&r.d_run, sizeof(MsRun)));
    WT_CUDA_CHECK(err, cudaMalloc(&r.d_best, (size_t)inst->n * sizeof(int32_t)));
    MsRun init;
    memset(&init, 0, sizeof init);
    init.best_len = LLONG_MAX;
    init.best_climb = ULLONG_MAX;
    WT_CUDA_CHECK(err, cudaMemcpy(r.d_run, &init, sizeof init, cudaMemcpyHostToDevice));
    /* a pageable cudaMemcpy may return before its DMA lands, and the
     * context's streams (non-blocking) do not wait for the legacy stream */
    WT_CUDA_CHECK(err, cudaDeviceSynchronize());
    WT_CUDA_CHECK(err, cudaMallocHost(&r.h_run, sizeof(MsRun)));
    *r.h_run = init;
    return WT_OK;
}

wt_status collect(const wt_instance *inst, MsResources &r, int32_t *best_tour,
                  wt_search_stats *stats, wt_error *err)
{
    MsRun run;
    WT_CUDA_CHECK(err, cudaMemcpy(&run, r.d_run, sizeof run, cudaMemcpyDeviceToHost));
    if (run.best_len != LLONG_MAX) {
        WT_CUDA_CHECK(err, cudaMemcpy(best_tour, r.d_best, (size_t)inst->n * sizeof(int32_t),
                                      cudaMemcpyDeviceToHost));
        stats->best_climb = run.best_climb;
    }
    stats->climbs += run.climbs;
    stats->steps += run.steps;
    stats->moves_evaluated += run.scans * wt_2opt_moves_per_scan(inst->n);
    stats->passes += run.scans;
    return WT_OK;
}

} // namespace

extern "C" wt_status wt_cuda_multistart(const wt_device *dev, const wt_instance *inst,
                                        const wt_multistart_job *job, wt_search_ctl *ctl,
                                        int32_t *best_tour, wt_search_stats *stats,
                                        wt_error *err)
{
    MsResources r;
    wt_status st = prepare(inst, dev->index, r, err);
    if (st != WT_OK) return st;
    MsArgs args;
    memset(&args, 0, sizeof args);
    args.inst = r.inst.inst;
    args.seed = job->seed;
    args.restarts = job->restarts;
    args.run = r.d_run;
    args.best_tour = r.d_best;
    MsWatch w = {ctl, &r, 0.0};
    MsLaunch L = {inst->n, job->restarts, &r.ctx, wait_for_run, &w, wt_tuning_of(ctl->params)};
    if (wt_ctl_expired(ctl)) {
        st = cuda_stop(r.ctx, &r.d_run->stop, err);
        if (st != WT_OK) return st;
    }
    st = job->kernel == WT_MS_KERNEL_THREAD ? ms_launch_thread(L, args, err)
                                            : ms_launch_block(L, args, err);
    if (st != WT_OK) return st;
    return collect(inst, r, best_tour, stats, err);
}
