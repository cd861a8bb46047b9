/*
 * fuzz_points.c - libFuzzer harness for the point-file reader and for
 * wt_instance_read, which tells TSPLIB from point files by the first line.
 *
 * Each input is parsed as a point file from memory (wt_instance_parse_points,
 * an exactly-sized copy so a read past the end is caught), again as places
 * on the Earth (wt_instance_parse_points_as, WT_POINTS_HAVERSINE), and read
 * from a file through wt_instance_read (the file loader and the choice of
 * reader, which takes a 'lat,lon' header as places on the Earth).
 * A parsed instance must have finite coordinates and a valid identity tour
 * of non-negative length; every failure must be one non-empty line.  Built
 * by `make fuzz` (the Makefile's FUZZ_SRC), seeds in tests/fuzz/seeds-points
 * (latlon.csv, lonlat.csv: headers of places on the Earth), dictionary
 * tests/fuzz/points.dict (the header words).
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz_util.h"
#include "warptour.h"

static void check_failure(wt_status st, const wt_error *err)
{
    if (st != WT_OK && (!err->message[0] || strchr(err->message, '\n'))) abort();
}

/* A parsed instance: finite coordinates, and the identity tour's length. */
static void check_instance(const wt_instance *inst)
{
    int n = wt_instance_n(inst);
    if (n < 3) abort();
    const double *x, *y;
    if (wt_instance_coords(inst, &x, &y))
        for (int i = 0; i < n && i < 4096; i++)
            if (!isfinite(x[i]) || !isfinite(y[i])) abort();
    if (n > 4096) return;
    int32_t *tour = malloc((size_t)n * sizeof *tour);
    if (!tour) return;
    for (int i = 0; i < n; i++) tour[i] = i;
    if (wt_tour_length(inst, tour) < 0) abort();
    free(tour);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *copy = malloc(size ? size : 1);
    if (!copy) return 0;
    memcpy(copy, data, size);
    wt_instance *inst = NULL;
    wt_error err = {0};
    wt_status st = wt_instance_parse_points(copy, size, "fuzz", &inst, &err);
    free(copy);
    check_failure(st, &err);
    if (inst) check_instance(inst);
    wt_instance_free(inst);

    /* The same bytes as places on the Earth: degrees in range, the
     * latitude's column told. */
    copy = malloc(size ? size : 1);
    if (!copy) return 0;
    memcpy(copy, data, size);
    wt_points_info info = {0, 0, false};
    inst = NULL;
    st = wt_instance_parse_points_as(copy, size, "fuzz", WT_POINTS_HAVERSINE, &info, &inst, &err);
    free(copy);
    check_failure(st, &err);
    if (inst) {
        if (info.lat_column != 1 && info.lat_column != 2) abort();
        check_instance(inst);
    }
    wt_instance_free(inst);

    char path[256];
    if (fuzz_write_temp("fuzz_points", data, size, path, sizeof path) == 0) {
        wt_instance *again = NULL;
        wt_error err2 = {0};
        wt_status st2 = wt_instance_read(path, &again, &err2);
        check_failure(st2, &err2);
        if (again) check_instance(again);
        wt_instance_free(again);
        unlink(path);
    }
    return 0;
}
