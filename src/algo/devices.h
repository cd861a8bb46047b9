/*
 * devices.h - several GPUs in one process: the device list of wt_params
 * and wt_batch_params (devices, device_count), checked, and the set of
 * devices it names.
 *
 * The entries (wt_solve, wt_solve_batch) check the list and choose their
 * first device as they chose cuda_device's before: the list's first takes
 * cuda_device's place (wt_devices_first).  The work that splits into
 * independent pieces (a batch's instances, a round's windows) is then
 * dealt over the set of the list's devices (wt_devices_expand), each
 * device's share run on a host thread of its own (algo/batch.c); all other
 * work stays on the first device.
 */
#ifndef WT_ALGO_DEVICES_H
#define WT_ALGO_DEVICES_H

#include <stdbool.h>
#include <stddef.h>

#include "backend/backend.h"
#include "warptour.h"

/* Devices a piece of work is dealt over: at[0] is the entry's chosen one,
 * the others of its backend. */
typedef struct wt_device_set {
    int count;                     /* 1 .. WT_MAX_DEVICES */
    wt_device at[WT_MAX_DEVICES];
} wt_device_set;

/* Checks a device list as warptour.h documents it: count WT_DEVICES_ALL, 0
 * or 1..WT_MAX_DEVICES, entries 0 or more and no two the same.
 * WT_STATUS_INVALID_ARGUMENT naming the field ("who: params.devices[1] ..."). */
wt_status wt_devices_check(const int *devices, int count, const char *who, wt_error *err);

/* How many CUDA GPUs the machine has, by the driver's count (no context
 * is made on any): 0 without any, or in a build without CUDA. */
int wt_devices_cuda_count(void);

/* The CUDA device that stands in for cuda_device: the list's first, 0 for
 * every device, cuda_device without a list. */
int wt_devices_first(const int *devices, int count, int cuda_device);

/* Whether every device the list names is one of the machine's devices of
 * backend b (a device backend): WT_STATUS_NO_DEVICE naming the first that
 * is not.  A machine without any (no driver) passes: the entry then falls
 * back on the host, or fails, as it does without a list. */
wt_status wt_devices_in_range(const wt_backend *b, const int *devices, int count,
                              const char *who, wt_error *err);

/* wt_devices_in_range for each device backend that backend (a
 * params.backend) may run on: none for WT_BACKEND_CPU, every device
 * backend for WT_BACKEND_AUTO. */
wt_status wt_devices_for_backend(wt_backend_kind backend, const int *devices, int count,
                                 const char *who, wt_error *err);

/* The set that the list (devices, count) makes with first, a usable device
 * chosen by the entry: first alone when it is the host or the list names
 * at most one device; else first, then the list's other devices in its
 * order, each of first's backend.  A device that is not usable is left out,
 * or with strict fails the call (WT_STATUS_NO_DEVICE naming it and saying
 * why).  desc (desc_size > 0) holds first's description on entry and the
 * set's on return: first's alone, or "2 GPUs: NVIDIA H200 ×2". */
wt_status wt_devices_expand(const wt_device *first, const int *devices, int count, bool strict,
                            wt_device_set *out, char *desc, size_t desc_size, wt_error *err);

/* The set of one device. */
void wt_devices_one(const wt_device *d, wt_device_set *out);

#endif
