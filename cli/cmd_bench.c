/*
 * cmd_bench.c - `warptour bench`: measurements, printed as plain lines.
 *
 * Benchmarks are CLI modes with fixed seeds that print what they measured,
 * the machine, the commit and the command, one "key=value" result per line
 * so that scripts can collect them (zstd's -b mode is the model).  They are
 * never pass/fail tests.
 *
 *   bench io-init   reading a TSPLIB file of n cities and building each
 *                   start tour (single thread, as the start tours are)
 */
#include <getopt.h>
#include <inttypes.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"

#ifndef WT_GIT_COMMIT
#define WT_GIT_COMMIT "unknown"
#endif

static const char bench_help[] =
    "Usage: warptour bench io-init [--n N] [--seed S] [--repeat R]\n"
    "\n"
    "io-init: writes a uniform random instance of N cities (default 1000000) to a\n"
    "temporary file, times reading it back, then times each start tour (random,\n"
    "spacefill, nearest, greedy) on it; best of R runs (default 3).  Prints the\n"
    "commit, the machine and the command first, then one line per result.\n";

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void print_header(int argc, char **argv)
{
    char host[128] = "?";
    gethostname(host, sizeof host);
    char gpu[160];
    bool has_gpu = wt_cuda_available(gpu, sizeof gpu);
    printf("# warptour %s, commit %s\n", WT_VERSION, WT_GIT_COMMIT);
    printf("# machine: %s, %d CPU cores; GPU: %s\n", host, omp_get_num_procs(),
           has_gpu ? gpu : "none");
    printf("# command: warptour");
    for (int i = 0; i < argc; i++) printf(" %s", argv[i]);
    printf("\n");
}

/* Best-of-repeat seconds to read path; keeps the last instance in *out. */
static int time_read(const char *path, int repeat, double *best, wt_instance **out)
{
    *best = 1e300;
    for (int r = 0; r < repeat; r++) {
        wt_instance *inst = NULL;
        wt_error err = {0};
        double t0 = now_s();
        if (wt_instance_read_tsplib(path, &inst, &err) != WT_OK) return cli_report_error(&err);
        double dt = now_s() - t0;
        if (dt < *best) *best = dt;
        wt_instance_free(*out);
        *out = inst;
    }
    return EXIT_OK;
}

static int bench_io_init(int64_t n, uint64_t seed, int repeat)
{
    char path[] = "/tmp/warptour-bench-XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0) return EXIT_FAILURE_RUN;
    FILE *f = fdopen(fd, "w");
    wt_instance *gen = NULL, *inst = NULL;
    wt_error err = {0};
    int status = EXIT_OK;
    if (wt_instance_generate(WT_GEN_UNIFORM, (int)n, seed, &gen, &err) != WT_OK ||
        wt_instance_write_tsplib(gen, f, &err) != WT_OK)
        status = cli_report_error(&err);
    fclose(f);
    wt_instance_free(gen);
    double best;
    if (status == EXIT_OK) status = time_read(path, repeat, &best, &inst);
    unlink(path);
    if (status != EXIT_OK) return status;
    printf("bench=io-init n=%" PRId64 " step=read seconds=%.4f\n", n, best);
    int32_t *tour = malloc((size_t)n * sizeof *tour);
    const wt_init_method methods[] = {WT_INIT_RANDOM, WT_INIT_SPACEFILL, WT_INIT_NEAREST,
                                      WT_INIT_GREEDY};
    for (size_t m = 0; tour && m < sizeof methods / sizeof methods[0]; m++) {
        best = 1e300;
        for (int r = 0; r < repeat && status == EXIT_OK; r++) {
            double t0 = now_s();
            if (wt_tour_init(inst, methods[m], seed, tour, &err) != WT_OK)
                status = cli_report_error(&err);
            double dt = now_s() - t0;
            if (dt < best) best = dt;
        }
        if (status != EXIT_OK) break;
        printf("bench=io-init n=%" PRId64 " step=init-%s seconds=%.4f length=%" PRId64 "\n", n,
               wt_init_method_name(methods[m]), best, wt_tour_length(inst, tour));
        fflush(stdout);
    }
    if (!tour) status = EXIT_FAILURE_RUN;
    free(tour);
    wt_instance_free(inst);
    return status;
}

int cmd_bench(int argc, char **argv)
{
    static const struct option longopts[] = {{"n", required_argument, 0, 'n'},
                                             {"seed", required_argument, 0, 's'},
                                             {"repeat", required_argument, 0, 'r'},
                                             {"help", no_argument, 0, 'h'},
                                             {0, 0, 0, 0}};
    int64_t n = 1000000, repeat = 3;
    uint64_t seed = 1;
    optind = 1;
    opterr = 0;
    int c;
    while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
        if (c == 'h') {
            fputs(bench_help, stdout);
            return EXIT_OK;
        } else if (c == 'n') {
            if (!cli_parse_int64(optarg, 3, WT_MAX_CITIES, &n))
                return cli_usage_error("bench", "--n needs an integer >= 3");
        } else if (c == 's') {
            if (!cli_parse_uint64(optarg, &seed))
                return cli_usage_error("bench", "--seed needs a non-negative integer");
        } else if (c == 'r') {
            if (!cli_parse_int64(optarg, 1, 1000, &repeat))
                return cli_usage_error("bench", "--repeat needs an integer in 1..1000");
        } else {
            return cli_usage_error("bench", "bad option '%s'", argv[optind - 1]);
        }
    }
    if (argc - optind != 1 || strcmp(argv[optind], "io-init") != 0)
        return cli_usage_error("bench", "expected a benchmark name: io-init");
    print_header(argc, argv);
    return bench_io_init(n, seed, (int)repeat);
}
