/*
 * cmd_check.c - `warptour check`: is this a tour of that instance, how long?
 */
#include <getopt.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char check_help[] =
    "Usage: warptour check INSTANCE TOUR [--json] [--optimum L]\n"
    "                      [--bound [--time-limit S] [--devices L]]\n"
    "\n"
    "Validates that TOUR (a TSPLIB TOUR file) visits every city of INSTANCE exactly\n"
    "once (and keeps its FIXED_EDGES_SECTION, where it has one), and prints its\n"
    "exact TSPLIB length and the gap to the known optimum.\n"
    "INSTANCE '-' reads standard input; gzip-compressed files are read as they are.\n"
    "\n"
    "  --json        print one JSON object: instance, n, valid, length, optimum,\n"
    "                gap_percent (and error when the tour is invalid)\n"
    "  --optimum L   known optimal length, when the built-in table lacks it\n"
    "  --bound       also prove a lower bound on every tour of INSTANCE (the\n"
    "                Held-Karp bound of a subgradient ascent, on the GPU where\n"
    "                one can run it, else on all cores) and\n"
    "                print how far above it the tour is at most: a gap to the\n"
    "                optimum for instances whose optimum nobody knows;\n"
    "                Ctrl-C during the ascent ends it with no bound\n"
    "  --time-limit S  end the bound's ascent steps after S seconds (default:\n"
    "                  none); the bound is then proven from the penalties they\n"
    "                  reached, by one more tree after the limit\n"
    "  --devices L   the GPUs of --bound's ascent: 'all' or a list such as 0,1;\n"
    "                the first runs it, and on millions of cities the second\n"
    "                shares its steps (the same bound; default: GPU 0 alone)\n"
    CLI_METRIC_HELP
    "  -h, --help    show this help\n"
    "\n"
    "A tour whose NAME is not the instance's (nor the instance's followed by '.',\n"
    "as in berlin52.opt.tour) is checked all the same, with a warning on stderr.\n"
    "\n"
    "Exit status: 0 valid, 4 not a valid tour of the instance, 3 malformed file.\n";

/* Warns on stderr when the tour file's NAME names another instance: a tour
 * of the same size for another instance is valid yet meaningless.  The
 * name is shown with bytes outside printable ASCII as '?'. */
static void warn_other_name(const wt_instance *inst, const char *tour_path, const char *name)
{
    const char *mine = wt_instance_name(inst);
    size_t k = strlen(mine);
    if (!name[0] || strcmp(name, mine) == 0 || (strncmp(name, mine, k) == 0 && name[k] == '.'))
        return;
    char shown[80];
    size_t i = 0;
    for (; name[i] && i + 1 < sizeof shown; i++)
        shown[i] = name[i] >= 0x20 && name[i] < 0x7f ? name[i] : '?';
    shown[i] = '\0';
    fprintf(stderr, "warptour: warning: %s is named '%s', not '%s'\n", tour_path, shown, mine);
}

static int print_invalid(bool json, const wt_instance *inst, const char *tour_path,
                         const wt_error *err)
{
    if (!json) return cli_report_error(err);
    cJSON *j = cJSON_CreateObject();
    cli_json_add_text(j, "instance", wt_instance_name(inst));
    cli_json_add_text(j, "tour", tour_path);
    cJSON_AddNumberToObject(j, "n", wt_instance_n(inst));
    cJSON_AddBoolToObject(j, "valid", false);
    cJSON_AddNullToObject(j, "length");
    cli_json_add_optimum_and_gap(j, 0, -1);
    cli_json_add_text(j, "error", err->message);
    cli_json_print(j);
    return cli_exit_status(err->status);
}

/* Whether tour (n cities, read and valid as a permutation) holds every
 * fixed edge of inst (FIXED_EDGES_SECTION): a tour without one is no
 * solution of the instance.  The first missing edge into err, 1-based as
 * the file numbers cities. */
static bool holds_fixed_edges(const wt_instance *inst, const int32_t *tour,
                              const char *tour_path, wt_error *err)
{
    const int32_t *pairs;
    int count = wt_instance_fixed_edges(inst, &pairs), n = wt_instance_n(inst);
    if (count <= 0) return true;
    int32_t *pos = malloc((size_t)n * sizeof *pos);
    if (!pos) { /* the check is skipped, never a false verdict */
        fprintf(stderr, "warptour: out of memory: the fixed edges were not checked\n");
        return true;
    }
    for (int i = 0; i < n; i++) pos[tour[i]] = i;
    bool ok = true;
    for (int e = 0; e < count && ok; e++) {
        int gap = abs(pos[pairs[2 * e]] - pos[pairs[2 * e + 1]]);
        if (gap != 1 && gap != n - 1) {
            ok = false;
            err->status = WT_STATUS_INVALID_TOUR;
            snprintf(err->message, sizeof err->message,
                     "%.200s: the tour lacks the fixed edge %d-%d of the instance's "
                     "FIXED_EDGES_SECTION", tour_path, pairs[2 * e] + 1, pairs[2 * e + 1] + 1);
        }
    }
    free(pos);
    return ok;
}

/* Ctrl-C during --bound's ascent: ends it with the bound it has. */
static volatile sig_atomic_t bound_interrupted;
static void on_interrupt(int sig)
{
    (void)sig;
    bound_interrupted = 1;
}

/* The proven bound of --bound, or -1 (none, or it failed: said on stderr);
 * the device whose ascent proved it into device (empty: none). */
static int64_t prove_bound(const wt_instance *inst, double time_limit, const int *devices,
                           int device_count, char device[16])
{
    device[0] = '\0';
    wt_params p;
    wt_params_defaults(&p);
    p.time_limit_s = time_limit;
    p.device_count = device_count;
    for (int i = 0; i < device_count; i++) p.devices[i] = devices[i];
    p.stop_flag = (const volatile int *)&bound_interrupted;
    struct sigaction sa, old;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_interrupt;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &old);
    wt_bound b;
    wt_error err = {0};
    wt_status st = wt_lower_bound(inst, &p, &b, &err);
    sigaction(SIGINT, &old, NULL);
    if (st != WT_OK) {
        fprintf(stderr, "warptour: no bound: %s\n", err.message);
        return -1;
    }
    snprintf(device, 16, "%s", b.device);
    if (b.lower_bound < 0)
        fprintf(stderr, "warptour: no bound: %s\n",
                wt_instance_n(inst) < 8 ? "the ascent needs 8 cities or more"
                : b.stop != WT_STOP_DONE ? "the ascent was interrupted before its last "
                                           "tree, which proves the bound"
                                         : "the ascent proves none for this instance");
    return b.lower_bound;
}

/* bound: the proven bound, -1 for none (asked: --bound was given). */
static void print_valid(bool json, const wt_instance *inst, const char *tour_path, int64_t len,
                        bool asked, int64_t bound, const char *bound_device)
{
    int64_t opt = wt_instance_known_optimum(inst);
    double to_bound = bound > 0 ? 100.0 * (double)(len - bound) / (double)bound : -1;
    if (json) {
        cJSON *j = cJSON_CreateObject();
        cli_json_add_text(j, "instance", wt_instance_name(inst));
        cli_json_add_text(j, "tour", tour_path);
        cJSON_AddNumberToObject(j, "n", wt_instance_n(inst));
        cJSON_AddBoolToObject(j, "valid", true);
        cli_json_add_int64(j, "length", len);
        if (wt_instance_is_real(inst))
            cJSON_AddNumberToObject(j, "length_real", wt_length_real(inst, len));
        cli_json_add_optimum_and_gap(j, len, opt);
        if (bound > 0) {
            cli_json_add_int64(j, "lower_bound", bound);
            if (wt_instance_is_real(inst))
                cJSON_AddNumberToObject(j, "lower_bound_real", wt_length_real(inst, bound));
            cJSON_AddNumberToObject(j, "gap_to_bound_percent", to_bound);
            cJSON_AddStringToObject(j, "ascent_device", bound_device);
        } else if (asked) {
            cJSON_AddNullToObject(j, "lower_bound");
            cJSON_AddNullToObject(j, "gap_to_bound_percent");
        }
        cli_json_print(j);
        return;
    }
    printf("%s: valid tour of %s (%d cities), length ", tour_path, wt_instance_name(inst),
           wt_instance_n(inst));
    /* Real-valued points: the length in their units, then the exact integer. */
    if (wt_instance_is_real(inst))
        printf("%.15g (%" PRId64 " units of %.6g)", wt_length_real(inst, len), len,
               wt_instance_length_unit(inst));
    else if (wt_instance_type(inst) == WT_HAVERSINE)
        printf("%" PRId64 " m", len);
    else
        printf("%" PRId64, len);
    if (opt > 0) printf(", optimum %" PRId64 ", gap %.2f%%", opt, cli_gap_percent(len, opt));
    if (bound > 0 && wt_instance_is_real(inst))
        printf(", lower bound %.15g", wt_length_real(inst, bound));
    else if (bound > 0)
        printf(", lower bound %" PRId64 "%s", bound,
               wt_instance_type(inst) == WT_HAVERSINE ? " m" : "");
    if (bound > 0) printf(" (at most %.3f%% above the optimum)", to_bound);
    printf("\n");
}

int cmd_check(int argc, char **argv)
{
    static const struct option longopts[] = {{"json", no_argument, 0, 'J'},
                                             {"optimum", required_argument, 0, 'O'},
                                             {"bound", no_argument, 0, 'B'},
                                             {"time-limit", required_argument, 0, 'T'},
                                             {"metric", required_argument, 0, 'M'},
                                             {"devices", required_argument, 0, 'D'},
                                             {"help", no_argument, 0, 'h'},
                                             {0, 0, 0, 0}};
    bool json = false, bound = false;
    double time_limit = 0; /* 0: none given */
    int64_t optimum = -1;
    wt_points_metric metric = WT_POINTS_AUTO;
    int devices[WT_MAX_DEVICES], device_count = 0;
    optind = 1;
    opterr = 0;
    int c;
    while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
        if (c == 'h') {
            fputs(check_help, stdout);
            return EXIT_OK;
        } else if (c == 'J') {
            json = true;
        } else if (c == 'B') {
            bound = true;
        } else if (c == 'T') {
            if (!cli_parse_double(optarg, 1e-9, 1e9, &time_limit))
                return cli_usage_error("check", "--time-limit needs a positive number of "
                                       "seconds up to 1e9, got '%s'", optarg);
        } else if (c == 'M') {
            if (!cli_metric_parse(optarg, &metric))
                return cli_usage_error("check", "--metric is 'auto', 'euclidean' or "
                                       "'haversine', got '%s'", optarg);
        } else if (c == 'D') {
            int st = cli_parse_devices("check", optarg, devices, &device_count);
            if (st >= 0) return st;
        } else if (c == 'O') {
            if (!cli_parse_int64(optarg, 1, INT64_MAX, &optimum))
                return cli_usage_error("check", "--optimum needs a positive integer, got '%s'",
                                       optarg);
        } else {
            return cli_option_error("check", c, argv, optind);
        }
    }
    if (argc - optind != 2) return cli_usage_error("check", "expected INSTANCE and TOUR");
    /* Refused rather than ignored, as solve refuses an option of another
     * algorithm: a check without --bound has nothing to time. */
    if (time_limit > 0 && !bound)
        return cli_usage_error("check", "--time-limit ends --bound's ascent: give --bound too");
    if (device_count != 0 && !bound)
        return cli_usage_error("check", "--devices picks --bound's GPUs: give --bound too");
    int status;
    wt_instance *inst = cli_read_instance_as(argv[optind], metric, &status);
    if (!inst) return status;
    if (optimum > 0) wt_instance_set_known_optimum(inst, optimum);
    const char *tour_path = argv[optind + 1];
    int32_t *tour = NULL;
    wt_error err = {0};
    char tour_name[256];
    if (wt_tour_read_tsplib_named(tour_path, wt_instance_n(inst), &tour, tour_name,
                                  sizeof tour_name, &err) != WT_OK) {
        status = err.status == WT_STATUS_INVALID_TOUR ? print_invalid(json, inst, tour_path, &err)
                                                      : cli_report_error(&err);
    } else if (!holds_fixed_edges(inst, tour, tour_path, &err)) {
        status = print_invalid(json, inst, tour_path, &err);
    } else {
        warn_other_name(inst, tour_path, tour_name);
        char bound_device[16] = "";
        int64_t proven = bound ? prove_bound(inst, time_limit, devices, device_count, bound_device) : -1;
        print_valid(json, inst, tour_path, wt_tour_length(inst, tour), bound, proven,
                    bound_device);
        status = EXIT_OK;
    }
    free(tour);
    wt_instance_free(inst);
    return status;
}
