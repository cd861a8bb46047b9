/*
 * names.c - the user-facing names of algorithms, backends and stop reasons.
 *
 * These strings are what the CLI accepts (--algorithm, --backend) and what
 * it prints in reports and JSON; keeping them here keeps the two in step.
 */
#include <stddef.h>
#include <string.h>

#include "backend/backend.h"
#include "core/error.h"

static const char *const algorithm_names[] = {[WT_ALGO_2OPT] = "2opt",
                                              [WT_ALGO_MULTISTART] = "multistart",
                                              [WT_ALGO_ILS] = "ils",
                                              [WT_ALGO_SA] = "sa"};
static const char *const backend_names[] = {
    [WT_BACKEND_AUTO] = "auto", [WT_BACKEND_CPU] = "cpu", [WT_BACKEND_CUDA] = "cuda"};
static const char *const ils_descent_names[] = {
    [WT_ILS_AUTO] = "auto", [WT_ILS_FULL] = "full", [WT_ILS_LOCAL] = "local",
    [WT_ILS_LK] = "lk", [WT_ILS_WINDOWS] = "windows"};
static const char *const stop_names[] = {
    [WT_STOP_DONE] = "done", [WT_STOP_TIME_LIMIT] = "time-limit",
    [WT_STOP_INTERRUPTED] = "interrupted"};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* Index of name in names[0..count), or -1 (a NULL name included). */
static int find_name(const char *const *names, size_t count, const char *name)
{
    for (size_t i = 0; name && i < count; i++)
        if (names[i] && strcmp(names[i], name) == 0) return (int)i;
    return -1;
}

const char *wt_algorithm_name(wt_algorithm a)
{
    return (unsigned)a < COUNT(algorithm_names) ? algorithm_names[a] : NULL;
}

wt_status wt_algorithm_parse(const char *name, wt_algorithm *out)
{
    int i = find_name(algorithm_names, COUNT(algorithm_names), name);
    if (i < 0 || !out) return WT_STATUS_INVALID_ARGUMENT;
    *out = (wt_algorithm)i;
    return WT_OK;
}

const char *wt_backend_name(wt_backend_kind b)
{
    return (unsigned)b < COUNT(backend_names) ? backend_names[b] : NULL;
}

wt_status wt_backend_parse(const char *name, wt_backend_kind *out)
{
    int i = find_name(backend_names, COUNT(backend_names), name);
    if (i < 0 || !out) return WT_STATUS_INVALID_ARGUMENT;
    *out = (wt_backend_kind)i;
    return WT_OK;
}

const char *wt_ils_descent_name(wt_ils_descent d)
{
    return (unsigned)d < COUNT(ils_descent_names) ? ils_descent_names[d] : NULL;
}

wt_status wt_ils_descent_parse(const char *name, wt_ils_descent *out)
{
    int i = find_name(ils_descent_names, COUNT(ils_descent_names), name);
    if (i < 0 || !out) return WT_STATUS_INVALID_ARGUMENT;
    *out = (wt_ils_descent)i;
    return WT_OK;
}

const char *wt_stop_reason_name(wt_stop_reason r)
{
    return (unsigned)r < COUNT(stop_names) ? stop_names[r] : "unknown";
}

bool wt_cuda_available(char *device, size_t device_size)
{
    char unused[1];
    wt_device gpu;
    wt_device_of(wt_backend_of(WT_BACKEND_CUDA), 0, &gpu);
    if (!device) /* the caller wants the answer only */
        return wt_device_usable(&gpu, unused, sizeof unused);
    return wt_device_usable(&gpu, device, device_size);
}
