/*
 * tune.c - --tune NAME=VALUE and --device N (solve, warptour-bench): the
 * library's experimental wt_tuning and params.cuda_device from the command
 * line.
 *
 * NAME is a field of wt_tuning (warptour.h lists each with its values);
 * VALUE a number, "off" (WT_TUNING_OFF) where the field allows it, on or
 * off for the flags, and auto, squares, gaps or rounds for ms_scan.  The
 * CLI only reads the syntax: wt_solve checks the values and names the
 * field it refuses.
 */
#include <stddef.h>
#include <string.h>

#include "cli_common.h"

typedef enum tune_kind { TUNE_I64, TUNE_INT, TUNE_FLAG, TUNE_SCAN } tune_kind;

static const struct tune_field {
    const char *name;
    tune_kind kind;
    size_t at; /* offsetof(wt_tuning, field) */
} tune_fields[] = {
    {"ils_epoch", TUNE_I64, offsetof(wt_tuning, ils_epoch)},
    {"ils_stretch", TUNE_I64, offsetof(wt_tuning, ils_stretch)},
    {"ils_window", TUNE_INT, offsetof(wt_tuning, ils_window)},
    {"ils_mix", TUNE_INT, offsetof(wt_tuning, ils_mix)},
    {"ils_listed", TUNE_I64, offsetof(wt_tuning, ils_listed)},
    {"pass_rows", TUNE_INT, offsetof(wt_tuning, pass_rows)},
    {"pass_block", TUNE_INT, offsetof(wt_tuning, pass_block)},
    {"pass_piece", TUNE_INT, offsetof(wt_tuning, pass_piece)},
    {"pass_period", TUNE_INT, offsetof(wt_tuning, pass_period)},
    {"pass_float_loop", TUNE_FLAG, offsetof(wt_tuning, pass_float_loop)},
    {"pass_unchained", TUNE_FLAG, offsetof(wt_tuning, pass_unchained)},
    {"pass_prune_min", TUNE_INT, offsetof(wt_tuning, pass_prune_min)},
    {"ms_block", TUNE_INT, offsetof(wt_tuning, ms_block)},
    {"ms_tc", TUNE_INT, offsetof(wt_tuning, ms_tc)},
    {"ms_scan", TUNE_SCAN, offsetof(wt_tuning, ms_scan)},
    {"ms_gap_c", TUNE_INT, offsetof(wt_tuning, ms_gap_c)},
};

static const char *const scan_names[] = {"auto", "squares", "gaps", "rounds"};

/* Stores value (text) into field f of t; false when it does not parse. */
static bool tune_store(const struct tune_field *f, const char *value, wt_tuning *t)
{
    void *at = (char *)t + f->at;
    int64_t v;
    switch (f->kind) {
    case TUNE_FLAG:
        if (strcmp(value, "on") != 0 && strcmp(value, "off") != 0) return false;
        *(bool *)at = strcmp(value, "on") == 0;
        return true;
    case TUNE_SCAN:
        for (size_t k = 0; k < sizeof scan_names / sizeof scan_names[0]; k++)
            if (strcmp(value, scan_names[k]) == 0) {
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

int cli_parse_tune(const char *cmd, const char *arg, wt_tuning *t)
{
    const char *eq = strchr(arg, '=');
    size_t len = eq ? (size_t)(eq - arg) : 0;
    for (size_t k = 0; eq && k < sizeof tune_fields / sizeof tune_fields[0]; k++) {
        const struct tune_field *f = &tune_fields[k];
        if (strlen(f->name) != len || strncmp(arg, f->name, len) != 0) continue;
        if (tune_store(f, eq + 1, t)) return -1;
        return cli_usage_error(cmd, "--tune %s: bad value '%s'", f->name, eq + 1);
    }
    return cli_usage_error(cmd, "--tune needs NAME=VALUE with NAME a field of wt_tuning "
                           "(docs/library.md), got '%s'", arg);
}

int cli_parse_device(const char *cmd, const char *arg, int *device)
{
    int64_t v;
    if (!cli_parse_int64(arg, 0, 1 << 20, &v))
        return cli_usage_error(cmd, "--device needs a GPU number (0, 1, ...), got '%s'", arg);
    *device = (int)v;
    return -1;
}
