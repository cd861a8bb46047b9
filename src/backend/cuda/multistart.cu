/*
 * multistart.cu - running a multistart search on the GPU, host side.
 *
 * Uploads the instance, sets up the run state (work queue, best tour, stop
 * flag) in device memory, launches the chosen kernel and, while it runs,
 * polls on a second stream: it copies the run's counters back for progress
 * reports and raises the stop flag when the time limit passes or the caller
 * asks to stop.  The whole search stays on the GPU; only the best tour comes
 * back, once.
 */
#include <climits>
#include <cstring>
#include <unistd.h>

#include "core/search_ctl.h"
#include "core/tour_ops.h"
#include "backend/cuda/multistart.h"
#include "backend/cuda/multistart_kernels.cuh"

namespace {

/* Everything a run allocates, released in one place. */
struct MsResources {
    DevInstBuffers inst;
    MsRun *d_run = nullptr;
    int32_t *d_best = nullptr;
    MsRun *h_run = nullptr;   /* pinned: progress snapshots of *d_run */
    int *h_one = nullptr;     /* pinned: the value written to d_run->stop */
    cudaStream_t stream = nullptr;  /* the kernel's */
    cudaStream_t control = nullptr; /* progress reads and the stop write, beside it */
    bool inst_loaded = false;

    ~MsResources()
    {
        if (inst_loaded) dev_instance_free(&inst);
        cudaFree(d_run);
        cudaFree(d_best);
        cudaFreeHost(h_run);
        cudaFreeHost(h_one);
        if (stream) cudaStreamDestroy(stream);
        if (control) cudaStreamDestroy(control);
    }
};

struct WaitCtx {
    wt_search_ctl *ctl;
    MsResources *res;
};

/* Asks every block to stop: one 4-byte copy on the control stream, which
 * runs while the kernel does. */
wt_status request_stop(MsResources &r, wt_error *err)
{
    WT_CUDA_CHECK(err, cudaMemcpyAsync(&r.d_run->stop, r.h_one, sizeof(int),
                                       cudaMemcpyHostToDevice, r.control));
    WT_CUDA_CHECK(err, cudaStreamSynchronize(r.control));
    return WT_OK;
}

/* Copies the run's counters into r.h_run for a progress report. */
wt_status snapshot(MsResources &r, wt_error *err)
{
    WT_CUDA_CHECK(err, cudaMemcpyAsync(r.h_run, r.d_run, sizeof(MsRun), cudaMemcpyDeviceToHost,
                                       r.control));
    WT_CUDA_CHECK(err, cudaStreamSynchronize(r.control));
    return WT_OK;
}

/* Polls the running kernel, reporting progress and forwarding stop requests. */
wt_status wait_for_run(void *p, wt_error *err)
{
    WaitCtx *w = (WaitCtx *)p;
    MsResources &r = *w->res;
    bool stop_sent = false;
    double next_snapshot = 0;
    for (;;) {
        cudaError_t e = cudaStreamQuery(r.stream);
        if (e == cudaSuccess) return WT_OK;
        if (e != cudaErrorNotReady)
            return wt_fail(err, WT_STATUS_DEVICE, "multistart kernel failed: %s",
                           cudaGetErrorString(e));
        /* Counters are copied back at most every 50 ms; the stop check is
         * cheap and runs every poll. */
        double now = wt_now();
        if (now >= next_snapshot) {
            wt_status st = snapshot(r, err);
            if (st != WT_OK) return st;
            next_snapshot = now + 0.05;
        }
        long long best = r.h_run->best_len;
        if (best == LLONG_MAX) best = w->ctl->init_length;
        if (!stop_sent && wt_ctl_report_climbs(w->ctl, best, r.h_run->steps, r.h_run->climbs, false)) {
            wt_status st = request_stop(r, err);
            if (st != WT_OK) return st;
            stop_sent = true;
        }
        usleep(500);
    }
}

wt_status prepare(const wt_instance *inst, int device, MsResources &r, wt_error *err)
{
    WT_CUDA_CHECK(err, cudaSetDevice(device));
    wt_status st = dev_instance_upload(inst, &r.inst, err);
    if (st != WT_OK) return st;
    r.inst_loaded = true;
    WT_CUDA_CHECK(err, cudaMalloc(&r.d_run, sizeof(MsRun)));
    WT_CUDA_CHECK(err, cudaMalloc(&r.d_best, (size_t)inst->n * sizeof(int32_t)));
    MsRun init;
    memset(&init, 0, sizeof init);
    init.best_len = LLONG_MAX;
    init.best_climb = ULLONG_MAX;
    WT_CUDA_CHECK(err, cudaMemcpy(r.d_run, &init, sizeof init, cudaMemcpyHostToDevice));
    WT_CUDA_CHECK(err, cudaMallocHost(&r.h_run, sizeof(MsRun)));
    WT_CUDA_CHECK(err, cudaMallocHost(&r.h_one, sizeof(int)));
    *r.h_run = init;
    *r.h_one = 1;
    WT_CUDA_CHECK(err, cudaStreamCreateWithFlags(&r.stream, cudaStreamNonBlocking));
    WT_CUDA_CHECK(err, cudaStreamCreateWithFlags(&r.control, cudaStreamNonBlocking));
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

extern "C" wt_status wt_cuda_multistart(const wt_instance *inst, const wt_multistart_job *job,
                                        wt_search_ctl *ctl, int32_t *best_tour,
                                        wt_search_stats *stats, wt_error *err)
{
    MsResources r;
    wt_status st = prepare(inst, ctl->params->cuda_device, r, err);
    if (st != WT_OK) return st;
    MsArgs args;
    memset(&args, 0, sizeof args);
    args.inst = r.inst.inst;
    args.seed = job->seed;
    args.restarts = job->restarts;
    args.run = r.d_run;
    args.best_tour = r.d_best;
    WaitCtx w = {ctl, &r};
    MsLaunch L = {inst->n, job->restarts, r.stream, wait_for_run, &w, &ctl->params->tuning};
    if (wt_ctl_expired(ctl)) {
        st = request_stop(r, err);
        if (st != WT_OK) return st;
    }
    st = job->kernel == WT_MS_KERNEL_THREAD ? ms_launch_thread(L, args, err)
                                            : ms_launch_block(L, args, err);
    if (st != WT_OK) return st;
    return collect(inst, r, best_tour, stats, err);
}
