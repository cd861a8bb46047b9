/*
 * bench_batch.c - `warptour-bench batch`: solve-batch on the issue's two
 * sets (issue 25): 10,000 uniform instances of 100 cities in 10 s, and 128
 * of 1,000 cities in 20 s, each instance `gen uniform N --seed 1+i`.
 *
 * Prints, per set, the wall time of the whole call (start tours included),
 * the kicks made, and the mean and largest gap to the reference lengths
 * that scripts/batch_refs.py computed once (bench/batch/refs-N.tsv: the
 * best of Concorde's linkern runs), beside the issue's target.  It parses
 * its own options (argv[0] is "batch").
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

static const batch_set_spec issue_sets[] = {{100, 10000, 10.0, 0.01}, {1000, 128, 20.0, 0.2}};

typedef struct bb_opts {
    int sets[2], n_sets;       /* indices into issue_sets */
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

/* Runs one set; prints its line; fills row for the table. */
static int run_set(const bb_opts *o, const batch_set_spec *spec, char *row, size_t row_size)
{
    int count = o->count ? (int)o->count : spec->count;
    double seconds = o->seconds > 0 ? o->seconds : spec->seconds;
    wt_instance **in = calloc((size_t)count, sizeof *in);
    if (!in) return EXIT_FAILURE_RUN;
    for (int i = 0; i < count; i++)
        if (wt_instance_generate(WT_GEN_UNIFORM, spec->n, 1 + (uint64_t)i, &in[i], NULL) != WT_OK)
            return EXIT_FAILURE_RUN;
    int refs = read_refs(o->refs, spec->n, in, count);
    wt_batch_params p = o->params;
    p.time_limit_s = o->kicks ? 0 : seconds;
    p.kicks = o->kicks;
    wt_batch_result r;
    wt_error err = {0};
    wt_status st = wt_solve_batch((const wt_instance *const *)in, count, &p, &r, &err);
    if (st == WT_OK) {
        bb_gaps g = gaps_of(in, &r);
        bool met = g.with_ref == count && r.time_s <= spec->seconds &&
                   g.mean <= spec->target_gap;
        printf("bench=batch n=%d count=%d seconds=%g kicks_per_instance=%" PRIu64 " backend=%s "
               "on_gpu=%d wall_s=%.3f gpu_kernel_s=%.3f kicks=%" PRIu64 " kicks_per_s=%.0f "
               "mean_length=%.1f refs=%d mean_gap_percent=%.5f max_gap_percent=%.4f at_ref=%d "
               "target_gap_percent=%g target_s=%g target_met=%s device=\"%s\"\n",
               spec->n, count, seconds, o->kicks, r.backend, r.on_gpu, r.time_s, r.gpu_time_s,
               r.kicks, r.kicks / (r.time_s > 0 ? r.time_s : 1), g.length, refs, g.mean, g.max,
               g.at_ref, spec->target_gap, spec->seconds, met ? "yes" : "no", r.device);
        snprintf(row, row_size, "| %d x %d | %.2f s | %.4f%% | %.4f%% | %d/%d | %.0f | %s |",
                 count, spec->n, r.time_s, g.mean, g.max, g.at_ref, g.with_ref,
                 (double)r.kicks / count, met ? "yes" : "no");
        wt_batch_result_free(&r);
    } else {
        fprintf(stderr, "warptour-bench: %s\n", err.message);
    }
    for (int i = 0; i < count; i++) wt_instance_free(in[i]);
    free(in);
    fflush(stdout);
    return st == WT_OK ? EXIT_OK : cli_exit_status(st);
}

/* batch's own options; --backend, --seed and --device are solve's, from the
 * shared table (BB_PARAMS), stored into wt_batch_params.  --threads stays
 * its own, as solve-batch's: 0 is all cores. */
static const struct option bb_own_opts[] = {
    {"set", required_argument, 0, 'S'},     {"count", required_argument, 0, 'c'},
    {"seconds", required_argument, 0, 't'}, {"kicks", required_argument, 0, 'k'},
    {"refs", required_argument, 0, 'r'},    {"threads", required_argument, 0, 'j'},
    {"gpu-threads", required_argument, 0, 'g'},
    {0, 0, 0, 0}};

#define BB_PARAMS                                                                       \
    (CLI_PARAM(CLI_OPT_BACKEND) | CLI_PARAM(CLI_OPT_SEED) | CLI_PARAM(CLI_OPT_DEVICE))

static int bb_option(int c, const char *arg, bb_opts *o)
{
    int64_t v;
    switch (c) {
    case 'S':
        if (strcmp(arg, "100") == 0) o->sets[o->n_sets++] = 0;
        else if (strcmp(arg, "1000") == 0) o->sets[o->n_sets++] = 1;
        else return cli_usage_error(NULL, "batch --set is 100 or 1000");
        if (o->n_sets > 1 && o->sets[0] == o->sets[1]) o->n_sets = 1;
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
    case 'j':
    case 'g':
        if (!cli_parse_int64(arg, 0, WT_MAX_THREADS, &v))
            return cli_usage_error(NULL, "bad number '%s'", arg);
        if (c == 'j') o->params.threads = (int)v;
        else o->params.gpu_threads = (int)v;
        return -1;
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
        o.sets[0] = 0;
        o.sets[1] = 1;
        o.n_sets = 2;
    }
    print_header();
    char rows[2][256];
    int status = EXIT_OK;
    for (int s = 0; s < o.n_sets && status == EXIT_OK; s++)
        status = run_set(&o, &issue_sets[o.sets[s]], rows[s], sizeof rows[s]);
    if (status != EXIT_OK) return status;
    printf("\n| set | wall | mean gap | max gap | at reference | kicks an instance | target met |\n"
           "| --- | --- | --- | --- | --- | --- | --- |\n");
    for (int s = 0; s < o.n_sets; s++) printf("%s\n", rows[s]);
    return EXIT_OK;
}
