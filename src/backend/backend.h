/*
 * backend.h - the interface every compute backend implements.
 *
 * The search algorithms (src/algo) are written once against this struct of
 * function pointers; src/backend/cpu (OpenMP, always built, the reference)
 * and src/backend/cuda implement it.  Optional slots may be NULL when a
 * backend has no implementation of that search yet: callers check first.
 * No CUDA type appears here.
 */
#ifndef WT_BACKEND_BACKEND_H
#define WT_BACKEND_BACKEND_H

#include <stddef.h>
#include <stdint.h>

#include "algo/search_ctl.h"
#include "warptour.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct wt_backend {
    const char *name; /* "cpu", "cuda": the value of --backend */

    /* Required.  Whether the backend can run here; writes a description of
     * the device (or of why not) into device. */
    bool (*available)(char *device, size_t device_size);

    /* Optional.  Best-improvement 2-opt (O'Neil & Burtscher, Listing 1) on
     * tour, in place, until no improving move remains or ctl expires; ties
     * between equal gains go to the lowest (i, j).  The tour stays valid at
     * every moment it is observable, so a stopped search still returns a
     * tour, and it never gets longer. */
    wt_status (*twoopt_descend)(const wt_instance *inst, int32_t *tour, wt_search_ctl *ctl,
                                wt_search_stats *stats, wt_error *err);
} wt_backend;

extern const wt_backend wt_backend_cpu;
extern const wt_backend wt_backend_cuda;

#ifdef __cplusplus
}
#endif

#endif
