/*
 * tune.c - --tune NAME=VALUE and --device N (solve, solve-batch,
 * warptour-bench): the library's experimental wt_tuning, the experimental
 * fields of wt_batch_params, and params.cuda_device from the command line.
 *
 * NAME is a field of wt_tuning (warptour_experimental.h lists each with its
 * values; the library's table gives the names, and for one release the
 * names of version 0.1.0 of the fields renamed since), or for a batch one
 * of wt_batch_params' experimental fields; VALUE a number,
 * "off" (WT_TUNING_OFF) where the field allows it, on or off for the
 * flags, and auto, squares, gaps or rounds for ms_scan.  The CLI only
 * reads the syntax: the library checks the values and names the field it
 * refuses.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "cli_common.h"

typedef enum tune_kind { TUNE_I64, TUNE_INT, TUNE_FLAG, TUNE_SCAN, TUNE_SIZE } tune_kind;

struct tune_field {
    const char *name;
    tune_kind kind;
    size_t at; /* offsetof(wt_tuning, field), or of wt_batch_params */
};

/* wt_batch_params' experimental fields (solve-batch, warptour-bench batch). */
static const struct tune_field batch_fields[] = {
    {"neighbours", TUNE_INT, offsetof(wt_batch_params, neighbours)},
    {"kick_window", TUNE_INT, offsetof(wt_batch_params, kick_window)},
    {"accept_slack", TUNE_INT, offsetof(wt_batch_params, accept_slack)},
    {"three_opt", TUNE_INT, offsetof(wt_batch_params, three_opt)},
    {"kick_edges", TUNE_INT, offsetof(wt_batch_params, kick_edges)},
    {"gpu_threads", TUNE_INT, offsetof(wt_batch_params, gpu_threads)},
    {"gpu_part_bytes", TUNE_SIZE, offsetof(wt_batch_params, gpu_part_bytes)},
    {"alpha_steps", TUNE_INT, offsetof(wt_batch_params, alpha_steps)},
    {"alpha_period", TUNE_INT, offsetof(wt_batch_params, alpha_period)},
};

/* Stores value (text) into field f of the struct at base; false when it
 * does not parse. */
static bool tune_store(const struct tune_field *f, const char *value, void *base)
{
    void *at = (char *)base + f->at;
    int64_t v;
    uint64_t u;
    switch (f->kind) {
    case TUNE_SIZE:
        if (!cli_parse_uint64(value, &u) || u > SIZE_MAX) return false;
        *(size_t *)at = (size_t)u;
        return true;
    case TUNE_FLAG:
        if (strcmp(value, "on") != 0 && strcmp(value, "off") != 0) return false;
        *(bool *)at = strcmp(value, "on") == 0;
        return true;
    case TUNE_SCAN:
        for (int k = 0; wt_ms_scan_name((wt_ms_scan)k); k++)
            if (strcmp(value, wt_ms_scan_name((wt_ms_scan)k)) == 0) {
                *(wt_ms_scan *)at = (wt_ms_scan)k;
                return true;
            }
        return false;
    case TUNE_I64:
    case TUNE_INT:
        if (strcmp(value, "off") == 0) v = WT_TUNING_OFF;
        else if (!cli_parse_int64(value, INT32_MIN, f->kind == TUNE_INT ? INT32_MAX : INT64_MAX,
                                  &v))
            return false;
        if (f->kind == TUNE_INT) *(int *)at = (int)v;
        else *(int64_t *)at = v;
        return true;
    }
    return false;
}

/* NAME=VALUE into the field NAME of fields[] in the struct at base; what
 * says in a usage error which names there are. */
static int parse_tune_into(const char *cmd, const char *arg, const struct tune_field *fields,
                           size_t count, const char *what, void *base)
{
    const char *eq = strchr(arg, '=');
    size_t len = eq ? (size_t)(eq - arg) : 0;
    for (size_t k = 0; eq && k < count; k++) {
        const struct tune_field *f = &fields[k];
        if (strlen(f->name) != len || strncmp(arg, f->name, len) != 0) continue;
        if (tune_store(f, eq + 1, base)) return -1;
        return cli_usage_error(cmd, "--tune %s: bad value '%s'", f->name, eq + 1);
    }
    return cli_usage_error(cmd, "--tune needs NAME=VALUE with NAME %s, got '%s'", what, arg);
}

int cli_parse_tune(const char *cmd, const char *arg, wt_tuning *t)
{
    /* The library's kinds, in this file's terms. */
    static const tune_kind kinds[] = {[WT_TUNING_I64] = TUNE_I64, [WT_TUNING_INT] = TUNE_INT,
                                      [WT_TUNING_FLAG] = TUNE_FLAG, [WT_TUNING_SCAN] = TUNE_SCAN};
    const char *eq = strchr(arg, '=');
    size_t len = eq ? (size_t)(eq - arg) : 0;
    char name[64];
    const wt_tuning_field *lib = NULL;
    if (eq && len < sizeof name) {
        memcpy(name, arg, len);
        name[len] = '\0';
        lib = wt_tuning_field_named(name); /* a name, or an old name */
    }
    if (!lib)
        return cli_usage_error(cmd, "--tune needs NAME=VALUE with NAME a field of wt_tuning "
                               "(docs/library.md), got '%s'", arg);
    struct tune_field f = {lib->name, kinds[lib->kind], lib->offset};
    if (tune_store(&f, eq + 1, t)) return -1;
    return cli_usage_error(cmd, "--tune %s: bad value '%s'", name, eq + 1);
}

int cli_parse_batch_tune(const char *cmd, const char *arg, wt_batch_params *p)
{
    return parse_tune_into(cmd, arg, batch_fields, sizeof batch_fields / sizeof batch_fields[0],
                           "neighbours, kick_window, accept_slack, three_opt, kick_edges, "
                           "gpu_threads, "
                           "gpu_part_bytes, alpha_steps or alpha_period (docs/batch.md)", p);
}

int cli_parse_device(const char *cmd, const char *arg, int *device)
{
    int64_t v;
    if (!cli_parse_int64(arg, 0, 1 << 20, &v))
        return cli_usage_error(cmd, "--device needs a GPU number (0, 1, ...), got '%s'", arg);
    *device = (int)v;
    return -1;
}

int cli_parse_devices(const char *cmd, const char *arg, int *devices, int *count)
{
    if (strcmp(arg, "all") == 0) {
        *count = WT_DEVICES_ALL;
        return -1;
    }
    int list[WT_MAX_DEVICES], n = 0;
    const char *at = arg;
    for (;;) {
        char item[32];
        size_t len = strcspn(at, ",");
        int64_t v;
        /* Digits only: no blanks, signs or empty items. */
        bool ok = len > 0 && len < sizeof item && n < WT_MAX_DEVICES &&
                  strspn(at, "0123456789") == len;
        if (ok) {
            memcpy(item, at, len);
            item[len] = '\0';
            ok = cli_parse_int64(item, 0, 1 << 20, &v);
        }
        for (int j = 0; ok && j < n; j++) ok = list[j] != (int)v;
        if (!ok)
            return cli_usage_error(cmd, "--devices needs 'all' or up to %d different GPU "
                                   "numbers separated by commas, no blanks (0,1,...), got "
                                   "'%s'", WT_MAX_DEVICES, arg);
        list[n++] = (int)v;
        if (at[len] == '\0') break;
        at += len + 1;
    }
    memcpy(devices, list, (size_t)n * sizeof *list);
    *count = n;
    return -1;
}

int cli_check_device_choice(const char *cmd, bool device, bool devices)
{
    if (!device || !devices) return -1;
    return cli_usage_error(cmd, "--device and --devices both choose the GPUs: give one (--devices "
                           "lists every GPU to use, the first in --device's stead)");
}
