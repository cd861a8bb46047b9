/*
 * context.cuh - one GPU as a search uses it: the device's properties, read
 * once when the search opens it, the search's two streams, and the one
 * wait every search makes for its kernels.
 *
 * A search (multistart.cu, session.cu, sa.cu) opens a context on
 * params.cuda_device, queues its work on `stream` and waits for it with
 * cuda_wait: that polls the stream, lets the search look at how it goes
 * (copies of its counters, progress reports) and, once the search must
 * stop (time limit, stop flag, progress callback), raises the search's
 * stop flag in device memory, which its kernels read and end early.  The
 * copies and the flag go through `control`, beside the work, so they
 * never wait for it.
 */
#ifndef WT_BACKEND_CUDA_CONTEXT_CUH
#define WT_BACKEND_CUDA_CONTEXT_CUH

#include "backend/cuda/cuda_common.cuh"
#include "warptour.h"

struct CudaContext {
    int device;           /* params.cuda_device */
    int sms;              /* streaming multiprocessors */
    int smem_optin;       /* shared memory one block may opt in to, bytes */
    int warp_size;
    bool pools;           /* stream-ordered allocations (cudaMallocAsync) */
    cudaStream_t stream;  /* the search's work */
    cudaStream_t control; /* progress copies and the stop flag, beside it */
};

/* Makes device current on the calling thread, reads its properties and
 * creates the streams (non-blocking).  On failure *c is left for
 * cuda_context_close. */
wt_status cuda_context_open(int device, CudaContext *c, wt_error *err);

/* Destroys the streams (work queued on them still completes); a zeroed or
 * failed context is fine. */
void cuda_context_close(CudaContext *c);

/* Sets the kernels' stop flag *d_stop through the control stream. */
wt_status cuda_stop(const CudaContext &c, int *d_stop, wt_error *err);

/* What a search does while cuda_wait waits for its work. */
struct CudaWatch {
    const char *what;  /* the work, for a failure's message ("2-opt pass") */
    int *d_stop;       /* the flag its kernels read: set nonzero to stop them */
    double spin_s;     /* polls without sleeping for this long (short work) */
    unsigned sleep_us; /* then sleeps this long between polls */
    /* Called at every poll with the seconds waited: reads the search's
     * progress, reports it, and sets *stop when the search must stop. */
    wt_status (*look)(void *user, double waited_s, bool *stop, wt_error *err);
    void *user;
};

/* Waits until c.stream has done its work, calling w.look while it has not.
 * The first time look says stop, raises *w.d_stop and sets *stopped; after
 * that (and when *stopped is true on entry) it only waits. */
wt_status cuda_wait(const CudaContext &c, const CudaWatch &w, bool *stopped, wt_error *err);

#endif
