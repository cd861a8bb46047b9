/*
 * multistart.cu - running a multistart search on the GPU, host side.
 *
 * Uploads the instance, sets up the run state (work queue, best tour), a
 * stop flag and a status block in host-mapped memory, launches the chosen
 * kernel and, while it runs, polls: the host reports progress from the
 * mapped status and raises the stop flag when the time limit passes or the
 * caller asks to stop.  The whole search stays on the GPU; only the best
 * tour comes back, once.
 */
#include <climits>
#include <cstring>
#include <unistd.h>

#include "backend/cpu/cpu_2opt.h"
#include "backend/cuda/multistart.h"
#include "backend/cuda/multistart_kernels.cuh"

namespace {

/* Everything a run allocates, released in one place. */
struct MsResources {
    DevInstBuffers inst;
    MsRun *d_run = nullptr;
    int32_t *d_best = nullptr;
    int *h_stop = nullptr;
    MsStatus *h_status = nullptr;
    cudaStream_t stream = nullptr;
    bool inst_loaded = false;

    ~MsResources()
    {
        if (inst_loaded) dev_instance_free(&inst);
        cudaFree(d_run);
        cudaFree(d_best);
        cudaFreeHost(h_stop);
        cudaFreeHost(h_status);
        if (stream) cudaStreamDestroy(stream);
    }
};

struct WaitCtx {
    wt_search_ctl *ctl;
    MsResources *res;
};

/* Polls the running kernel, reporting progress and forwarding stop requests. */
wt_status wait_for_run(void *p, wt_error *err)
{
    WaitCtx *w = (WaitCtx *)p;
    volatile MsStatus *status = w->res->h_status;
    volatile int *stop = w->res->h_stop;
    for (;;) {
        cudaError_t e = cudaStreamQuery(w->res->stream);
        if (e == cudaSuccess) return WT_OK;
        if (e != cudaErrorNotReady)
            return wt_fail(err, WT_STATUS_DEVICE, "multistart kernel failed: %s",
                           cudaGetErrorString(e));
        long long best = status->best_len;
        if (best == LLONG_MAX) best = w->ctl->init_length;
        if (!*stop && wt_ctl_report_climbs(w->ctl, best, 0, status->climbs, false)) *stop = 1;
        usleep(500);
    }
}

wt_status prepare(const wt_instance *inst, MsResources &r, wt_error *err)
{
    WT_CUDA_CHECK(err, cudaSetDevice(0));
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
    WT_CUDA_CHECK(err, cudaHostAlloc(&r.h_stop, sizeof(int), cudaHostAllocMapped));
    WT_CUDA_CHECK(err, cudaHostAlloc(&r.h_status, sizeof(MsStatus), cudaHostAllocMapped));
    *r.h_stop = 0;
    r.h_status->best_len = LLONG_MAX;
    r.h_status->climbs = 0;
    WT_CUDA_CHECK(err, cudaStreamCreateWithFlags(&r.stream, cudaStreamNonBlocking));
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
    return WT_OK;
}

} // namespace

extern "C" wt_status wt_cuda_multistart(const wt_instance *inst, const wt_multistart_job *job,
                                        wt_search_ctl *ctl, int32_t *best_tour,
                                        wt_search_stats *stats, wt_error *err)
{
    MsResources r;
    wt_status st = prepare(inst, r, err);
    if (st != WT_OK) return st;
    MsArgs args;
    memset(&args, 0, sizeof args);
    args.inst = r.inst.inst;
    args.seed = job->seed;
    args.restarts = job->restarts;
    args.run = r.d_run;
    args.best_tour = r.d_best;
    int *d_stop = nullptr;
    MsStatus *d_status = nullptr;
    WT_CUDA_CHECK(err, cudaHostGetDevicePointer((void **)&d_stop, r.h_stop, 0));
    WT_CUDA_CHECK(err, cudaHostGetDevicePointer((void **)&d_status, r.h_status, 0));
    args.stop = d_stop;
    args.status = d_status;
    WaitCtx w = {ctl, &r};
    MsLaunch L = {inst->n, job->restarts, r.stream, wait_for_run, &w};
    if (wt_ctl_expired(ctl)) *r.h_stop = 1;
    st = job->kernel == WT_MS_KERNEL_THREAD ? ms_launch_thread(L, args, err)
                                            : ms_launch_block(L, args, err);
    if (st != WT_OK) return st;
    return collect(inst, r, best_tour, stats, err);
}
