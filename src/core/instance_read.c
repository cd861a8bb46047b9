/*
 * instance_read.c - wt_instance_read: a file read as TSPLIB or as points,
 * whichever its first line says (wt_looks_like_tsplib, textfile.c).
 *
 * It sits above both readers (tsplib_read.c, points_read.c), which share
 * textfile.c below them and never call each other.  The choice is made on
 * the stream's first window (the first MiB at least, or the whole file),
 * then the chosen reader parses the text as it arrives.
 */
#include <stdlib.h>

#include "core/error.h"
#include "core/instance_build.h"
#include "core/textfile.h"

wt_status wt_instance_read(const char *path, wt_instance **out, wt_error *err)
{
    if (!path || !out)
        return wt_fail(err, WT_STATUS_INVALID_ARGUMENT,
                       "wt_instance_read: need a path and an output pointer");
    return wt_instance_read_as(path, WT_POINTS_AUTO, NULL, out, err);
}

wt_status wt_instance_read_as(const char *path, wt_points_metric metric, wt_points_info *info,
                              wt_instance **out, wt_error *err)
{
    if (!path || !out)
        return wt_fail(err, WT_STATUS_INVALID_ARGUMENT,
                       "wt_instance_read_as: need a path and an output pointer");
    if (metric != WT_POINTS_AUTO && metric != WT_POINTS_EUCLIDEAN &&
        metric != WT_POINTS_HAVERSINE)
        return wt_fail(err, WT_STATUS_INVALID_ARGUMENT, "wt_instance_read_as: unknown metric %d",
                       (int)metric);
    wt_stream in;
    wt_status st = wt_stream_open(&in, path, false, 0, err);
    if (st != WT_OK) return st;
    wt_points_info told = {0, 0, false};
    if (wt_looks_like_tsplib(in.buf, in.len)) {
        if (metric != WT_POINTS_AUTO)
            st = wt_fail(err, WT_STATUS_INVALID_ARGUMENT,
                         "%s: a TSPLIB file has its own EDGE_WEIGHT_TYPE; a metric is chosen "
                         "for point files only", path);
        else
            st = wt_instance_parse_tsplib_stream(&in, path, out, err);
    } else {
        st = wt_instance_parse_points_stream_as(&in, path, metric, &told, out, err);
    }
    if (st == WT_OK && info) *info = told;
    wt_stream_close(&in);
    return st;
}
