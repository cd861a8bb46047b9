/*
 * bench_batch.c - `warptour-bench batch`: solve-batch on the issues' two
 * sets: 10,000 uniform instances of 100 cities in 10 s (issue 25), and 128
 * of 1,000 cities in 60 s (issue 41; issue 25 gave them 20 s: --seconds
 * 20), each instance `gen uniform N --seed 1+i`.  --search picks the
 * instances' search (wt_batch_params.search: auto, batch or lk).
 *
 * Prints, per set, the wall time of the whole call (start tours included),
 * the kicks made, and the mean and largest gap to the reference lengths
 * that scripts/batch_refs.py computed once (bench/batch/refs-N.tsv: the
 * best of Concorde's linkern runs), beside the issue's target.  It parses
 * its own options (argv[0] is "batch").
 *
 * --set N with another N than the issue's runs --count instances of N
 * cities (default 1,000) for --seconds (default 10 s), without a target.
 * --devices may be given up to four times (issue 43: several GPUs): each
 * set then runs once per device list, on the same instances, and each run
 * after the first prints a line comparing it with the first: the ratio of
 * kicks per second (the throughput at equal time), of wall times (at equal
 * kicks, with --kicks) and of mean lengths, and both mean gaps where the
 * set has reference lengths.
 */
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

/* The issue's sets and targets. */
typedef struct batch_set_spec {
    int n, count;
    double seconds, target_gap; /* percent */
} batch_set_spec;

static const batch_set_spec issue_sets[] = {{100, 10000, 10.0, 0.01}, {1000, 128, 60.0, 0.05}};

enum { BB_MAX_LISTS = 4 };

typedef struct bb_opts {
    batch_set_spec sets[2];    /* issue_sets' or --set N's */
    int n_sets;
    int lists[BB_MAX_LISTS][WT_MAX_DEVICES], list_counts[BB_MAX_LISTS], n_lists; /* --devices */
    int64_t count;             /* 0: the set's */
    double seconds;            /* 0: the set's */
    uint64_t kicks;            /* 0: as the time allows */
    const char *refs;          /* folder of refs-N.tsv */
    wt_batch_params params;
} bb_opts;

/* Sets each instance's reference length from refs/refs-N.tsv; returns how
 * many got one. */
static int read_refs(const char *dir, int n, wt_instance **in, int count)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/refs-%d.tsv", dir, n);
    FILE *f = fopen(path, "r");
    if (!f) {
        printf("# no reference lengths: %s (scripts/batch_refs.py makes it)\n", path);
        return 0;
    }
    char line[512], name[256];
    long long length;
    int found = 0, seed;
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#' || sscanf(line, "%255s %*d %lld", name, &length) != 2) continue;
        /* uniform-N-sS is instance S - 1 of the set. */
        int nn;
        if (sscanf(name, "uniform-%d-s%d", &nn, &seed) != 2 || nn != n || seed < 1 || seed > count)
            continue;
        wt_instance_set_known_optimum(in[seed - 1], length);
        found++;
    }
    fclose(f);
    return found;
}

/* The gaps of r to the reference lengths. */
typedef struct bb_gaps {
    int with_ref, at_ref;
    double mean, max, length;
} bb_gaps;

static bb_gaps gaps_of(wt_instance **in, const wt_batch_result *r)
{
    bb_gaps g = {0, 0, 0, 0, 0};
    for (int i = 0; i < r->count; i++) {
        g.length += (double)r->tours[i].length / r->count;
        int64_t ref = wt_instance_known_optimum(in[i]);
        if (ref <= 0 || r->tours[i].status != WT_OK) continue;
        double gap = 100.0 * (double)(r->tours[i].length - ref) / (double)ref;
        g.with_ref++;
        g.at_ref += r->tours[i].length <= ref;
        g.mean += gap;
        if (gap > g.max) g.max = gap;
    }
    if (g.with_ref) g.mean /= g.with_ref;
    return g;
}

/* What one run of a set gave, for the comparison of device lists. */
typedef struct bb_run {
    double wall_s, kicks_per_s, mean_length, mean_gap;
    bool gaps; /* mean_gap from every instance's reference */
} bb_run;

/* "0,1", "all" or "" (the params' cuda_device alone) for a device list. */
static void list_name(const wt_batch_params *p, char *out, size_t size)
{
    out[0] = '\0';
    if (p->device_count == WT_DEVICES_ALL) snprintf(out, size, "all");
    for (int d = 0; d < p->device_count; d++)
        snprintf(out + strlen(out), size - strlen(out), "%s%d", d ? "," : "", p->devices[d]);
}

/* Runs one set on the instances in (count), with p; prints its line; fills
 * row for the table and *run. */
static int run_set(const bb_opts *o, const batch_set_spec *spec, wt_instance **in, int count,
                   int refs, wt_batch_params p, char *row, size_t row_size, bb_run *run)
{
    double seconds = o->seconds > 0 ? o->seconds : spec->seconds;
    p.time_limit_s = o->kicks ? 0 : seconds;
    p.kicks = o->kicks;
    char devices[64];
    list_name(&p, devices, sizeof devices);
    wt_batch_result r;
    wt_error err = {0};
    wt_status st = wt_solve_batch((const wt_instance *const *)in, count, &p, &r, &err);
    if (st == WT_OK) {
        bb_gaps g = gaps_of(in, &r);
        bool met = spec->target_gap > 0 && g.with_ref == count && r.time_s <= spec->seconds &&
                   g.mean <= spec->target_gap;
        static const char *const searches[] = {"auto", "batch", "lk"};
        printf("bench=batch n=%d count=%d seconds=%g kicks_per_instance=%" PRIu64 " search=%s "
               "threads=%d backend=%s "
               "devices=%s on_gpu=%d wall_s=%.3f gpu_kernel_s=%.3f kicks=%" PRIu64
               " kicks_per_s=%.0f mean_length=%.1f refs=%d mean_gap_percent=%.5f "
               "max_gap_percent=%.4f at_ref=%d target_gap_percent=%g target_s=%g "
               "target_met=%s device=\"%s\"\n",
               spec->n, count, seconds, o->kicks, searches[p.search], p.threads, r.backend,
               devices[0] ? devices : "-",
               r.on_gpu, r.time_s, r.gpu_time_s, r.kicks,
               r.kicks / (r.time_s > 0 ? r.time_s : 1), g.length, refs, g.mean, g.max,
               g.at_ref, spec->target_gap, spec->seconds, met ? "yes" : "no", r.device);
        snprintf(row, row_size, "| %d x %d | %s | %.2f s | %.4f%% | %.4f%% | %d/%d | %.0f | %s |",
                 count, spec->n, devices[0] ? devices : "-", r.time_s, g.mean, g.max, g.at_ref,
                 g.with_ref, (double)r.kicks / count, met ? "yes" : "no");
        *run = (bb_run){r.time_s, r.kicks / (r.time_s > 0 ? r.time_s : 1), g.length, g.mean,
                        g.with_ref == count};
        wt_batch_result_free(&r);
    } else {
        fprintf(stderr, "warptour-bench: %s\n", err.message);
    }
    fflush(stdout);
    return st == WT_OK ? EXIT_OK : cli_exit_status(st);
}

/* The line comparing run b (device list `b_name`) with run a. */
static void print_ratio(const batch_set_spec *spec, int count, const char *a_name,
                        const bb_run *a, const char *b_name, const bb_run *b)
{
    printf("bench=batch-devices n=%d count=%d devices=%s against=%s kicks_per_s_ratio=%.3f "
           "wall_ratio=%.3f mean_length_ratio=%.5f", spec->n, count, b_name, a_name,
           a->kicks_per_s > 0 ? b->kicks_per_s / a->kicks_per_s : 0,
           b->wall_s > 0 ? a->wall_s / b->wall_s : 0,
           a->mean_length > 0 ? b->mean_length / a->mean_length : 0);
    if (a->gaps && b->gaps)
        printf(" mean_gap_percent=%.5f against_mean_gap_percent=%.5f", b->mean_gap, a->mean_gap);
    printf("\n");
    fflush(stdout);
}

/* Runs one set once per device list (once with none), on the same
 * instances; rows gets a row per run. */
static int run_lists(const bb_opts *o, const batch_set_spec *spec, char rows[][256], int *n_rows)
{
    int count = o->count ? (int)o->count : spec->count;
    wt_instance **in = calloc((size_t)count, sizeof *in);
    if (!in) return EXIT_FAILURE_RUN;
    int status = EXIT_OK;
    for (int i = 0; i < count && status == EXIT_OK; i++)
        if (wt_instance_generate(WT_GEN_UNIFORM, spec->n, 1 + (uint64_t)i, &in[i], NULL) != WT_OK)
            status = EXIT_FAILURE_RUN;
    int refs = status == EXIT_OK ? read_refs(o->refs, spec->n, in, count) : 0;
    int lists = o->n_lists > 0 ? o->n_lists : 1;
    bb_run runs[BB_MAX_LISTS];
    char names[BB_MAX_LISTS][64];
    for (int l = 0; l < lists && status == EXIT_OK; l++) {
        wt_batch_params p = o->params;
        if (o->n_lists > 0) {
            p.device_count = o->list_counts[l];
            if (p.device_count > 0)
                memcpy(p.devices, o->lists[l], (size_t)p.device_count * sizeof *p.devices);
        }
        list_name(&p, names[l], sizeof names[l]);
        status = run_set(o, spec, in, count, refs, p, rows[(*n_rows)++], 256, &runs[l]);
        if (status == EXIT_OK && l > 0)
            print_ratio(spec, count, names[0], &runs[0], names[l], &runs[l]);
    }
    for (int i = 0; i < count; i++) wt_instance_free(in[i]);
    free(in);
    return status;
}

/* batch's own options; --backend, --seed and --device are solve's, from the
 * shared table (BB_PARAMS), stored into wt_batch_params.  --threads stays
 * its own, as solve-batch's: 0 is all cores. */
static const struct option bb_own_opts[] = {
    {"set", required_argument, 0, 'S'},     {"count", required_argument, 0, 'c'},
    {"seconds", required_argument, 0, 't'}, {"kicks", required_argument, 0, 'k'},
    {"refs", required_argument, 0, 'r'},    {"threads", required_argument, 0, 'j'},
    {"gpu-threads", required_argument, 0, 'g'}, {"search", required_argument, 0, 'L'},
    {0, 0, 0, 0}};

#define BB_PARAMS                                                                       \
    (CLI_PARAM(CLI_OPT_BACKEND) | CLI_PARAM(CLI_OPT_SEED) | CLI_PARAM(CLI_OPT_DEVICE) |  \
     CLI_PARAM(CLI_OPT_DEVICES))

static int bb_option(int c, const char *arg, bb_opts *o)
{
    int64_t v;
    switch (c) {
    case 'S':
        if (!cli_parse_int64(arg, 3, WT_BATCH_MAX_CITIES, &v))
            return cli_usage_error(NULL, "batch --set is 100, 1000 (the issue's) or another "
                                   "number of cities, 3..%d", WT_BATCH_MAX_CITIES);
        if (o->n_sets == 2) return cli_usage_error(NULL, "batch takes two --set at most");
        o->sets[o->n_sets++] = v == 100    ? issue_sets[0]
                               : v == 1000 ? issue_sets[1]
                                           : (batch_set_spec){(int)v, 1000, 10.0, 0};
        if (o->n_sets > 1 && o->sets[0].n == o->sets[1].n) o->n_sets = 1;
        return -1;
    case 'c':
        if (!cli_parse_int64(arg, 1, 1000000, &o->count))
            return cli_usage_error(NULL, "batch --count needs 1..1000000");
        return -1;
    case 't':
        if (!cli_parse_double(arg, 0, 1e6, &o->seconds) || o->seconds <= 0)
            return cli_usage_error(NULL, "batch --seconds needs a positive number");
        return -1;
    case 'k':
        if (!cli_parse_uint64(arg, &o->kicks))
            return cli_usage_error(NULL, "batch --kicks needs a non-negative integer");
        return -1;
    case 'r': o->refs = arg; return -1;
    case 'L':
        if (strcmp(arg, "auto") == 0) o->params.search = WT_BATCH_SEARCH_AUTO;
        else if (strcmp(arg, "batch") == 0) o->params.search = WT_BATCH_SEARCH_BATCH;
        else if (strcmp(arg, "lk") == 0) o->params.search = WT_BATCH_SEARCH_LK;
        else return cli_usage_error(NULL, "batch --search is auto, batch or lk");
        return -1;
    case 'j':
    case 'g':
        if (!cli_parse_int64(arg, 0, WT_MAX_THREADS, &v))
            return cli_usage_error(NULL, "bad number '%s'", arg);
        if (c == 'j') o->params.threads = (int)v;
        else o->params.gpu_threads = (int)v;
        return -1;
    }
    if (c == CLI_OPT_DEVICES) { /* up to four lists, each run in turn */
        if (o->n_lists == BB_MAX_LISTS)
            return cli_usage_error(NULL, "batch takes %d --devices at most", BB_MAX_LISTS);
        int l = o->n_lists++;
        return cli_parse_devices(NULL, arg, o->lists[l], &o->list_counts[l]);
    }
    if (!cli_is_param(c)) return cli_usage_error(NULL, "bad option for batch");
    return cli_parse_batch_param(NULL, c, arg, &o->params);
}

int bench_batch(int argc, char **argv, void (*print_header)(void))
{
    bb_opts o = {.refs = "bench/batch"};
    wt_batch_params_defaults(&o.params);
    struct option bb_longopts[sizeof bb_own_opts / sizeof bb_own_opts[0] + CLI_N_PARAM_OPTS];
    cli_options_build(bb_longopts, sizeof bb_longopts / sizeof bb_longopts[0], bb_own_opts,
                      BB_PARAMS);
    optind = 1;
    opterr = 0;
    int c;
    while ((c = getopt_long(argc, argv, ":", bb_longopts, NULL)) != -1) {
        if (c == ':') return cli_usage_error(NULL, "option '%s' needs a value", argv[optind - 1]);
        if (c == '?')
            return cli_usage_error(NULL, "bad option '%s' for batch", argv[optind - 1]);
        int st = bb_option(c, optarg, &o);
        if (st >= 0) return st;
    }
    if (optind != argc) return cli_usage_error(NULL, "batch takes no instances");
    if (o.n_sets == 0) {
        o.sets[0] = issue_sets[0];
        o.sets[1] = issue_sets[1];
        o.n_sets = 2;
    }
    print_header();
    char rows[2 * BB_MAX_LISTS][256];
    int status = EXIT_OK, n_rows = 0;
    for (int s = 0; s < o.n_sets && status == EXIT_OK; s++)
        status = run_lists(&o, &o.sets[s], rows, &n_rows);
    if (status != EXIT_OK) return status;
    printf("\n| set | devices | wall | mean gap | max gap | at reference | kicks an instance | "
           "target met |\n| --- | --- | --- | --- | --- | --- | --- | --- |\n");
    for (int r = 0; r < n_rows; r++) printf("%s\n", rows[r]);
    return EXIT_OK;
}
