/*
 * devices.c - the device list of the parameters, checked, and the set of
 * devices it names (devices.h).
 *
 * A device of the set is checked as the entry checks its first (the
 * backend's available slot: on a GPU a probe kernel), so a GPU that cannot
 * run is found before any work is dealt to it.  Only its name goes into
 * the set's description: the GPUs of one machine are usually alike, and
 * "2 GPUs: NVIDIA H200 ×2" says so in the 128 characters a result has.
 */
#include "algo/devices.h"

#include <stdio.h>
#include <string.h>

#include "core/error.h"

wt_status wt_devices_check(const int *devices, int count, const char *who, wt_error *err)
{
    if (count == 0 || count == WT_DEVICES_ALL) return WT_OK;
    if (count < 0 || count > WT_MAX_DEVICES)
        return wt_fail(err, WT_STATUS_INVALID_ARGUMENT, "%s: params.device_count is %d; "
                       "expected 0 (cuda_device alone), WT_DEVICES_ALL or 1..%d", who, count,
                       WT_MAX_DEVICES);
    for (int i = 0; i < count; i++) {
        if (devices[i] < 0)
            return wt_fail(err, WT_STATUS_INVALID_ARGUMENT, "%s: params.devices[%d] is %d; "
                           "expected a GPU's number, 0 or more", who, i, devices[i]);
        for (int j = 0; j < i; j++)
            if (devices[j] == devices[i])
                return wt_fail(err, WT_STATUS_INVALID_ARGUMENT, "%s: params.devices[%d] and "
                               "devices[%d] are both %d; a GPU is listed once", who, j, i,
                               devices[i]);
    }
    return WT_OK;
}

int wt_devices_first(const int *devices, int count, int cuda_device)
{
    if (count == WT_DEVICES_ALL) return 0;
    return count > 0 ? devices[0] : cuda_device;
}

wt_status wt_devices_in_range(const wt_backend *b, const int *devices, int count,
                              const char *who, wt_error *err)
{
    /* No list, nothing to check: asking the backend how many devices it
     * has starts its driver (a quarter of a second on a GPU machine), which
     * a run that leaves the GPU out must not pay. */
    if (count <= 0) return WT_OK;
    int have = wt_backend_devices(b);
    if (have <= 0) return WT_OK;
    for (int i = 0; i < count; i++)
        if (devices[i] >= have)
            return wt_fail(err, WT_STATUS_NO_DEVICE, "%s: params.devices[%d] is %s:%d; this "
                           "machine has %d %s device%s (0..%d)", who, i, b->name, devices[i],
                           have, b->name, have == 1 ? "" : "s", have - 1);
    return WT_OK;
}

wt_status wt_devices_for_backend(wt_backend_kind backend, const int *devices, int count,
                                 const char *who, wt_error *err)
{
    const wt_backend *b;
    for (int i = 0; backend != WT_BACKEND_CPU && (b = wt_backend_at(i)) != NULL; i++) {
        if (b->host || (backend != WT_BACKEND_AUTO && b->kind != backend)) continue;
        wt_status st = wt_devices_in_range(b, devices, count, who, err);
        if (st != WT_OK) return st;
    }
    return WT_OK;
}

void wt_devices_one(const wt_device *d, wt_device_set *out)
{
    out->count = 1;
    out->at[0] = *d;
}

/* The name part of a device's description: up to " (", where the
 * figures begin ("NVIDIA H200 (sm_90, ...)"). */
static void name_of(const char *desc, char *name, size_t size)
{
    const char *cut = strstr(desc, " (");
    size_t len = cut ? (size_t)(cut - desc) : strlen(desc);
    if (len >= size) len = size - 1;
    memcpy(name, desc, len);
    name[len] = '\0';
}

/* "2 GPUs: A ×2" when every name is the same, else "2 GPUs: A, B". */
static void describe_set(int count, char names[][48], char *desc, size_t size)
{
    bool same = true;
    for (int i = 1; i < count; i++) same = same && strcmp(names[i], names[0]) == 0;
    if (same) {
        snprintf(desc, size, "%d GPUs: %s \u00d7%d", count, names[0], count);
        return;
    }
    size_t used = (size_t)snprintf(desc, size, "%d GPUs: %s", count, names[0]);
    for (int i = 1; i < count && used < size; i++)
        used += (size_t)snprintf(desc + used, size - used, ", %s", names[i]);
}

/* Adds device number index of first's backend to out unless it is there:
 * false (with strict, the failure in err) where it is not usable. */
static wt_status add_device(const wt_device *first, int index, bool strict, wt_device_set *out,
                            char names[][48], wt_error *err)
{
    for (int k = 0; k < out->count; k++)
        if (out->at[k].index == index) return WT_OK;
    if (out->count == WT_MAX_DEVICES) return WT_OK;
    wt_device d;
    char why[160];
    wt_device_of(first->backend, index, &d);
    if (!wt_device_usable(&d, why, sizeof why)) {
        if (!strict) return WT_OK;
        return wt_fail(err, WT_STATUS_NO_DEVICE, "device %s is not usable: %s", d.name, why);
    }
    name_of(why, names[out->count], 48);
    out->at[out->count++] = d;
    return WT_OK;
}

int wt_devices_cuda_count(void)
{
    const wt_backend *cuda = wt_backend_of(WT_BACKEND_CUDA);
    return cuda ? wt_backend_devices(cuda) : 0;
}

wt_status wt_devices_expand(const wt_device *first, const int *devices, int count, bool strict,
                            wt_device_set *out, char *desc, size_t desc_size, wt_error *err)
{
    wt_devices_one(first, out);
    if (first->backend->host || count == 0 || count == 1) return WT_OK;
    char names[WT_MAX_DEVICES][48];
    name_of(desc, names[0], sizeof names[0]);
    int listed = count == WT_DEVICES_ALL ? wt_backend_devices(first->backend) : count;
    for (int i = 0; i < listed; i++) {
        wt_status st = add_device(first, count == WT_DEVICES_ALL ? i : devices[i], strict, out,
                                  names, err);
        if (st != WT_OK) return st;
    }
    if (out->count > 1) describe_set(out->count, names, desc, desc_size);
    return WT_OK;
}
