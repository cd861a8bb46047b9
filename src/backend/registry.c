/*
 * registry.c - the backends of this build and what each can do.
 *
 * wt_solve chooses its backend here and `warptour devices` (wt_devices)
 * lists them from here, so a new backend joins by an entry in `backends`
 * and the slots it fills: nothing else names a backend or compares one.
 */
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
    d->usable = b->available(index, d->description, sizeof d->description);
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
