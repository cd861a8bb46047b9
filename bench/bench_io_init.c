/*
 * bench_io_init.c - `warptour-bench io-init`: reading a TSPLIB file of n
 * cities, building each start tour (single thread, as the start tours
 * are) and the local searches' candidate lists (core/neighbours.h: the 10
 * nearest cities a city, the 8 quadrant neighbours; single thread too).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "bench.h"
#include "core/neighbours.h"

/* Best-of-repeat seconds of the lists of inst: k nearest (quadrant false)
 * or quadrant neighbours a city, one thread. */
static int time_lists(const wt_instance *inst, int k, bool quadrant, int repeat, double *best)
{
    int32_t *nb = malloc((size_t)wt_instance_n(inst) * (size_t)k * sizeof *nb);
    if (!nb) return EXIT_FAILURE_RUN;
    *best = 1e300;
    for (int r = 0; r < repeat; r++) {
        bool stopped = false;
        wt_error err = {0};
        double t0 = bench_now();
        wt_status st = quadrant ? wt_quadrant_lists_until(inst, k, 1, NULL, nb, &stopped, &err)
                                : wt_neighbour_lists_until(inst, k, 1, NULL, nb, &stopped, &err);
        double dt = bench_now() - t0;
        if (st != WT_OK) {
            free(nb);
            return cli_report_error(&err);
        }
        if (dt < *best) *best = dt;
    }
    free(nb);
    return EXIT_OK;
}

/* Best-of-repeat seconds to read path; keeps the last instance in *out. */
static int time_read(const char *path, int repeat, double *best, wt_instance **out)
{
    *best = 1e300;
    for (int r = 0; r < repeat; r++) {
        wt_instance *inst = NULL;
        wt_error err = {0};
        double t0 = bench_now();
        if (wt_instance_read_tsplib(path, &inst, &err) != WT_OK) return cli_report_error(&err);
        double dt = bench_now() - t0;
        if (dt < *best) *best = dt;
        wt_instance_free(*out);
        *out = inst;
    }
    return EXIT_OK;
}

int bench_io_init(const bench_opts *o)
{
    int64_t n = o->n;
    uint64_t seed = o->seed;
    int repeat = (int)o->repeat;
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
            double t0 = bench_now();
            if (wt_tour_init(inst, methods[m], seed, tour, &err) != WT_OK)
                status = cli_report_error(&err);
            double dt = bench_now() - t0;
            if (dt < best) best = dt;
        }
        if (status != EXIT_OK) break;
        printf("bench=io-init n=%" PRId64 " step=init-%s seconds=%.4f length=%" PRId64 "\n", n,
               wt_init_method_name(methods[m]), best, wt_tour_length(inst, tour));
        fflush(stdout);
    }
    if (!tour) status = EXIT_FAILURE_RUN;
    free(tour);
    const struct { const char *name; int k; bool quadrant; } lists[] = {{"nearest10", 10, false},
                                                                         {"quadrant8", 8, true}};
    for (size_t l = 0; status == EXIT_OK && n > 10 && l < sizeof lists / sizeof lists[0]; l++) {
        status = time_lists(inst, lists[l].k, lists[l].quadrant, repeat, &best);
        if (status == EXIT_OK)
            printf("bench=io-init n=%" PRId64 " step=lists-%s seconds=%.4f\n", n, lists[l].name,
                   best);
    }
    wt_instance_free(inst);
    return status;
}
