/*
 * instance_read.c - wt_instance_read: a file read as TSPLIB or as points,
 * whichever its first line says (wt_looks_like_tsplib, textfile.c).
 *
 * It sits above both readers (tsplib_read.c, points_read.c), which share
 * textfile.c below them and never call each other.
 */
#include <stdlib.h>

#include "core/error.h"
#include "core/textfile.h"

wt_status wt_instance_read(const char *path, wt_instance **out, wt_error *err)
{
    if (!path || !out)
        return wt_fail(err, WT_STATUS_INVALID_ARGUMENT,
                       "wt_instance_read: need a path and an output pointer");
    char *data = NULL;
    size_t len = 0;
    wt_status st = wt_file_load(path, &data, &len, err);
    if (st != WT_OK) return st;
    if (wt_looks_like_tsplib(data, len))
        st = wt_instance_parse_tsplib(data, len, path, out, err);
    else
        st = wt_instance_parse_points(data, len, path, out, err);
    free(data);
    return st;
}
