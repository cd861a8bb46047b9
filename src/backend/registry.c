/*
 * registry.c - the backends of this build, their devices, and what each
 * can do.
 *
 * wt_solve and wt_solve_batch choose their device here and `warptour
 * devices` (wt_device_list) lists them from here, so a new backend joins by
 * an entry in `backends` and the slots it fills: nothing else names a
 * backend or compares one.  A device is a value (backend, index, name)
 * made on demand, so the registry keeps no state of its own.
 */
#include <stdio.h>
#include <string.h>

#include "backend/backend.h"
#include "core/error.h"

extern const wt_backend wt_backend_cpu;
extern const wt_backend wt_backend_cuda;

/* In the order `warptour devices` lists them. */
static const wt_backend *const backends[] = {&wt_backend_cpu, &wt_backend_cuda};

enum { BACKEND_COUNT = sizeof backends / sizeof backends[0] };

const wt_backend *wt_backend_at(int index)
{
    return index >= 0 && index < BACKEND_COUNT ? backends[index] : NULL;
}

const wt_backend *wt_backend_of(wt_backend_kind kind)
{
    for (int i = 0; i < BACKEND_COUNT; i++)
        if (backends[i]->kind == kind) return backends[i];
    return NULL;
}

bool wt_backend_has(const wt_backend *b, wt_algorithm a)
{
    switch (a) {
    case WT_ALGO_2OPT: /* algo/descent.c, over sessions */
    case WT_ALGO_ILS: return b->session != NULL;
    case WT_ALGO_MULTISTART: return b->multistart != NULL;
    case WT_ALGO_SA: return b->sa != NULL;
    }
    return false;
}

bool wt_backend_runs(const wt_backend *b, const wt_params *p)
{
    if (!wt_backend_has(b, p->algorithm)) return false;
    return p->algorithm != WT_ALGO_SA || p->sa_near == 0 || b->sa_near;
}

int wt_backend_devices(const wt_backend *b)
{
    return b->device_count ? b->device_count() : 1;
}

void wt_device_of(const wt_backend *b, int index, wt_device *out)
{
    memset(out, 0, sizeof *out);
    out->backend = b;
    out->index = index;
    if (b->host)
        snprintf(out->name, sizeof out->name, "%s", b->name);
    else
        snprintf(out->name, sizeof out->name, "%s:%d", b->name, index);
}

bool wt_device_at(int i, wt_device *out)
{
    for (int k = 0; k < BACKEND_COUNT && i >= 0; k++) {
        int devices = wt_backend_devices(backends[k]);
        if (i < devices) {
            wt_device_of(backends[k], i, out);
            return true;
        }
        i -= devices;
    }
    return false;
}

void wt_device_host(wt_device *out)
{
    for (int k = 0; k < BACKEND_COUNT; k++)
        if (backends[k]->host) {
            wt_device_of(backends[k], 0, out);
            return;
        }
}

bool wt_device_usable(const wt_device *d, char *desc, size_t desc_size)
{
    return d->backend->available(d, desc, desc_size);
}

/* Fills d with device `index` of b. */
static void describe(const wt_backend *b, int index, wt_device_info *d)
{
    memset(d, 0, sizeof *d);
    d->backend = b->kind;
    d->backend_name = b->name;
    d->index = index;
    d->host = b->host;
    for (int a = WT_ALGO_2OPT; a <= WT_ALGO_SA; a++)
        if (wt_backend_has(b, (wt_algorithm)a)) d->algorithms |= 1u << a;
    wt_device dev;
    wt_device_of(b, index, &dev);
    d->usable = b->available(&dev, d->description, sizeof d->description);
}

int wt_device_list(wt_device_info *out, int max)
{
    int count = 0;
    for (int i = 0; i < BACKEND_COUNT; i++) {
        const wt_backend *b = backends[i];
        int devices = wt_backend_devices(b);
        for (int k = 0; k < (devices > 0 ? devices : 1); k++, count++)
            if (count < max) describe(b, k, &out[count]);
    }
    return count;
}
