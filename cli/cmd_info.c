/*
 * cmd_info.c - `warptour info`: what was read from an instance file.
 */
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>

#include "cli.h"

static const char info_help[] =
    "Usage: warptour info INSTANCE [--json]\n"
    "\n"
    "Reads a TSPLIB file or a point file (lines of x y or x y z) and prints its\n"
    "name, comment, edge weight type, number of cities, bounding box of the\n"
    "coordinates (point files: their extent and the length unit) and the known\n"
    "optimal length.  INSTANCE '-' reads standard input (shown as <stdin>); a\n"
    "gzip-compressed file is read as it is.\n"
    "\n"
    "  --json      print one JSON object instead\n"
    CLI_METRIC_HELP
    "  -h, --help  show this help\n";

static void print_text(const wt_instance *inst, const char *path)
{
    double lo[3], hi[3];
    int64_t opt = wt_instance_known_optimum(inst);
    printf("file      %s\n", path);
    printf("name      %s\n", wt_instance_name(inst));
    if (wt_instance_comment(inst)[0]) printf("comment   %s\n", wt_instance_comment(inst));
    printf("type      %s, EDGE_WEIGHT_TYPE %s\n", wt_instance_is_asymmetric(inst) ? "ATSP" : "TSP",
           wt_edge_weight_type_name(wt_instance_type(inst)));
    printf("cities    %d\n", wt_instance_n(inst));
    const double *lat, *lon;
    if (wt_instance_type(inst) == WT_HAVERSINE && wt_instance_coords(inst, &lat, &lon)) {
        double a0 = lat[0], a1 = lat[0], o0 = lon[0], o1 = lon[0];
        for (int i = 1; i < wt_instance_n(inst); i++) {
            a0 = fmin(a0, lat[i]), a1 = fmax(a1, lat[i]);
            o0 = fmin(o0, lon[i]), o1 = fmax(o1, lon[i]);
        }
        printf("places    latitude %.10g .. %.10g, longitude %.10g .. %.10g (decimal degrees); "
               "lengths in metres on a sphere of radius %.1f m\n", a0, a1, o0, o1,
               WT_EARTH_RADIUS_M);
    } else if (wt_instance_is_real(inst) && wt_instance_bbox(inst, lo, hi)) {
        /* Held shifted and scaled to length units: extents are what is left. */
        double u = wt_instance_length_unit(inst);
        printf("points    real-valued, extent x %.10g, y %.10g", (hi[0] - lo[0]) * u,
               (hi[1] - lo[1]) * u);
        if (wt_instance_type(inst) == WT_EUC_3D_REAL) printf(", z %.10g", (hi[2] - lo[2]) * u);
        printf("; lengths in units of %.6g\n", u);
    } else if (wt_instance_bbox(inst, lo, hi)) {
        printf("bbox      x %.10g .. %.10g, y %.10g .. %.10g", lo[0], hi[0], lo[1], hi[1]);
        if (wt_instance_type(inst) == WT_EUC_3D) printf(", z %.10g .. %.10g", lo[2], hi[2]);
        printf("%s\n", wt_instance_type(inst) == WT_EXPLICIT ? " (display data)" : "");
    } else {
        printf("bbox      none (explicit distances, no display data)\n");
    }
    if (opt > 0)
        printf("optimum   %" PRId64 " (%s)\n", opt,
               wt_instance_optimum_is_proven(inst) ? "proven optimal" : "best known");
    else
        printf("optimum   unknown\n");
}

static void print_json(const wt_instance *inst, const char *path)
{
    double lo[3], hi[3];
    int64_t opt = wt_instance_known_optimum(inst);
    cJSON *j = cJSON_CreateObject();
    cli_json_add_text(j, "file", path);
    cli_json_add_text(j, "instance", wt_instance_name(inst));
    cli_json_add_text(j, "comment", wt_instance_comment(inst));
    cJSON_AddStringToObject(j, "edge_weight_type",
                            wt_edge_weight_type_name(wt_instance_type(inst)));
    cJSON_AddNumberToObject(j, "n", wt_instance_n(inst));
    cJSON_AddBoolToObject(j, "asymmetric", wt_instance_is_asymmetric(inst));
    if (wt_instance_is_real(inst)) {
        double u = wt_instance_length_unit(inst);
        cJSON_AddNumberToObject(j, "length_unit", u);
        if (wt_instance_bbox(inst, lo, hi)) {
            cJSON *e = cJSON_AddObjectToObject(j, "extent");
            cJSON_AddNumberToObject(e, "x", (hi[0] - lo[0]) * u);
            cJSON_AddNumberToObject(e, "y", (hi[1] - lo[1]) * u);
            cJSON_AddNumberToObject(e, "z", (hi[2] - lo[2]) * u);
        }
        cJSON_AddNullToObject(j, "bbox");
    } else if (wt_instance_bbox(inst, lo, hi)) {
        cJSON *b = cJSON_AddObjectToObject(j, "bbox");
        cJSON_AddNumberToObject(b, "min_x", lo[0]);
        cJSON_AddNumberToObject(b, "max_x", hi[0]);
        cJSON_AddNumberToObject(b, "min_y", lo[1]);
        cJSON_AddNumberToObject(b, "max_y", hi[1]);
    } else {
        cJSON_AddNullToObject(j, "bbox");
    }
    if (opt > 0) cli_json_add_int64(j, "optimum", opt);
    else cJSON_AddNullToObject(j, "optimum");
    cJSON_AddBoolToObject(j, "optimum_proven", wt_instance_optimum_is_proven(inst));
    cli_json_print(j);
}

int cmd_info(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"json", no_argument, 0, 'J'}, {"metric", required_argument, 0, 'M'},
        {"help", no_argument, 0, 'h'}, {0, 0, 0, 0}};
    bool json = false;
    wt_points_metric metric = WT_POINTS_AUTO;
    optind = 1;
    opterr = 0;
    int c;
    while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
        if (c == 'h') {
            fputs(info_help, stdout);
            return EXIT_OK;
        }
        if (c == 'M') {
            if (!cli_metric_parse(optarg, &metric))
                return cli_usage_error("info", "--metric is 'auto', 'euclidean' or "
                                       "'haversine', got '%s'", optarg);
            continue;
        }
        if (c != 'J') return cli_option_error("info", c, argv, optind);
        json = true;
    }
    if (argc - optind != 1) return cli_usage_error("info", "expected one INSTANCE");
    int status;
    wt_instance *inst = cli_read_instance_as(argv[optind], metric, &status);
    if (!inst) return status;
    const char *shown = cli_source_name(argv[optind]);
    if (json) print_json(inst, shown);
    else print_text(inst, shown);
    wt_instance_free(inst);
    return EXIT_OK;
}
