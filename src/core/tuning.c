/*
 * tuning.c - the experimental tuning's default, its accessor and its table
 * of fields by name (warptour_experimental.h).
 */
#include "core/tuning.h"

#include <stddef.h>
#include <string.h>

/* The default tuning: every field 0, the library's default. */
static const wt_tuning default_tuning;

const wt_tuning *wt_tuning_of(const wt_params *p)
{
    return p->tuning ? p->tuning : &default_tuning;
}

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))
#define FIELD(member, kind) {#member, kind, offsetof(wt_tuning, member), NULL}
/* A field renamed since 0.1.0: its old name still finds it, for one release. */
#define RENAMED(member, kind, old) {#member, kind, offsetof(wt_tuning, member), old}

static const wt_tuning_field tuning_fields[] = {
    RENAMED(ils_round_kicks, WT_TUNING_I64, "ils_epoch"),
    RENAMED(ils_segment_min, WT_TUNING_I64, "ils_stretch"),
    FIELD(ils_segment_max, WT_TUNING_I64),
    FIELD(ils_share_round_every, WT_TUNING_INT),
    FIELD(ils_window, WT_TUNING_INT),
    FIELD(ils_window_3opt, WT_TUNING_INT),
    RENAMED(ils_replica_every, WT_TUNING_INT, "ils_mix"),
    RENAMED(ils_list_descent_min, WT_TUNING_I64, "ils_listed"),
    RENAMED(ils_merged_min, WT_TUNING_I64, "ils_whole"),
    FIELD(ils_starts, WT_TUNING_INT),
    RENAMED(ils_concurrent_min, WT_TUNING_I64, "ils_beside"),
    FIELD(auto_device_min_ms, WT_TUNING_INT),
    RENAMED(ils_concurrent_round_ms, WT_TUNING_INT, "ils_beside_ms"),
    FIELD(ils_concurrent_ahead, WT_TUNING_INT),
    FIELD(renumber_min, WT_TUNING_I64),
    FIELD(ils_lk_large_min, WT_TUNING_I64),
    FIELD(ils_plain_list_min, WT_TUNING_I64),
    FIELD(ils_window_resident, WT_TUNING_INT),
    FIELD(ils_device_lists_min, WT_TUNING_I64),
    FIELD(ils_merge, WT_TUNING_INT),
    FIELD(ils_searches, WT_TUNING_INT),
    FIELD(lk_candidates, WT_TUNING_INT),
    FIELD(lk_depth, WT_TUNING_INT),
    FIELD(lk_breadth1, WT_TUNING_INT),
    FIELD(lk_breadth2, WT_TUNING_INT),
    FIELD(lk_breadth3, WT_TUNING_INT),
    FIELD(lk_breadth4, WT_TUNING_INT),
    FIELD(lk_breadth5, WT_TUNING_INT),
    FIELD(lk_walk, WT_TUNING_INT),
    FIELD(lk_kopt, WT_TUNING_INT),
    FIELD(lk_kopt_submoves, WT_TUNING_INT),
    FIELD(lk_kopt_chains, WT_TUNING_INT),
    FIELD(lk_nonseq, WT_TUNING_INT),
    FIELD(lk_kick_candidates, WT_TUNING_INT),
    FIELD(lk_kick_pi, WT_TUNING_INT),
    FIELD(lk_alpha, WT_TUNING_INT),
    FIELD(lk_alpha_start, WT_TUNING_INT),
    FIELD(lk_alpha_beside, WT_TUNING_INT),
    FIELD(ils_lk_device_first, WT_TUNING_INT),
    FIELD(ascent_iterations, WT_TUNING_INT),
    FIELD(ascent_period, WT_TUNING_INT),
    FIELD(ascent_share_pct, WT_TUNING_INT),
    FIELD(pass_rows, WT_TUNING_INT),
    FIELD(pass_block, WT_TUNING_INT),
    FIELD(pass_piece, WT_TUNING_INT),
    FIELD(pass_period, WT_TUNING_INT),
    FIELD(pass_float_loop, WT_TUNING_FLAG),
    FIELD(pass_unchained, WT_TUNING_FLAG),
    FIELD(pass_prune_min, WT_TUNING_INT),
    FIELD(ms_block, WT_TUNING_INT),
    FIELD(ms_tc, WT_TUNING_INT),
    FIELD(ms_scan, WT_TUNING_SCAN),
    FIELD(ms_gap_c, WT_TUNING_INT),
};

const wt_tuning_field *wt_tuning_fields(size_t *count)
{
    if (count) *count = COUNT(tuning_fields);
    return tuning_fields;
}

const wt_tuning_field *wt_tuning_field_named(const char *name)
{
    if (!name) return NULL;
    for (size_t k = 0; k < COUNT(tuning_fields); k++) {
        const wt_tuning_field *f = &tuning_fields[k];
        if (strcmp(f->name, name) == 0 || (f->old_name && strcmp(f->old_name, name) == 0))
            return f;
    }
    return NULL;
}

static const char *const ms_scan_names[] = {
    [WT_MS_SCAN_AUTO] = "auto", [WT_MS_SCAN_SQUARES] = "squares", [WT_MS_SCAN_GAPS] = "gaps",
    [WT_MS_SCAN_ROUNDS] = "rounds"};

const char *wt_ms_scan_name(wt_ms_scan s)
{
    return (unsigned)s < COUNT(ms_scan_names) ? ms_scan_names[s] : NULL;
}
