/*
 * instance_build.h - what the readers and generators of instances share.
 *
 * Internal to the library: tsplib_read.c and gen.c build a wt_instance with
 * these and hand it to wt_instance_finish() before returning it.
 */
#ifndef WT_CORE_INSTANCE_BUILD_H
#define WT_CORE_INSTANCE_BUILD_H

#include "core/instance.h"
#include "core/textfile.h"

/* malloc'ed copy of s, NULL when out of memory. */
char *wt_strdup(const char *s);

/* An instance with name, n and type set, no arrays; NULL when out of memory. */
wt_instance *wt_instance_alloc(const char *name, int n, wt_edge_weight_type type);

/* Allocates inst->x, inst->y (and inst->z); false when out of memory (the
 * caller then frees inst). */
bool wt_instance_alloc_coords(wt_instance *inst, bool with_z);

/* Derives GEO radians and the known optimum, and refuses coordinates whose
 * tour lengths could overflow int64.  Call once all data is in.  The message
 * does not name the instance: a file's NAME is untrusted text, so callers
 * put their own context (file:line, the caller's name) in front. */
wt_status wt_instance_finish(wt_instance *inst, wt_error *err);

/* The readers over a stream (textfile.h), from the start of its window
 * (instance_read.c picks one by the first window): as
 * wt_instance_parse_tsplib and wt_instance_parse_points, parsing the text
 * as it arrives; errors name source:line.  The stream stays the caller's. */
wt_status wt_instance_parse_tsplib_stream(wt_stream *in, const char *source,
                                          wt_instance **out, wt_error *err);
wt_status wt_instance_parse_points_stream(wt_stream *in, const char *source,
                                          wt_instance **out, wt_error *err);
wt_status wt_instance_parse_points_stream_as(wt_stream *in, const char *source,
                                             wt_points_metric metric, wt_points_info *info,
                                             wt_instance **out, wt_error *err);

/* Whether a latitude and a longitude in degrees are in range: [-90, 90]
 * and [-180, 360) (WT_HAVERSINE, TSPLIB GEO). */
static inline bool wt_degrees_ok(double lat, double lon)
{
    return lat >= -90.0 && lat <= 90.0 && lon >= -180.0 && lon < 360.0;
}

/* The first city of n whose (lat, lon) degrees are out of range, or -1. */
int wt_degrees_bad(const double *lat, const double *lon, int n);

#endif
