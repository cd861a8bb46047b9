/*
 * bench_quality.c - `warptour-bench quality`: gap to the optimum of
 * multistart on the TSPLIB instances up to a size, binned by size (O'Neil &
 * Burtscher 2015, Figure 7).
 */
#include <dirent.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

/* Size bins of the paper's Figure 7, and one beyond it for --max-n > 2000. */
static const struct {
    int lo, hi;
    const char *label;
} q_bins[] = {{1, 250, "1-250"},       {251, 500, "251-500"},     {501, 1000, "501-1000"},
              {1001, 1500, "1001-1500"}, {1501, 2000, "1501-2000"}, {2001, WT_MAX_CITIES, "2001+"}};
enum { Q_N_BINS = sizeof q_bins / sizeof q_bins[0] };

typedef struct q_entry {
    char *path;
    wt_instance *inst;
} q_entry;

static int q_entry_cmp(const void *a, const void *b)
{
    const q_entry *x = a, *y = b;
    int nx = wt_instance_n(x->inst), ny = wt_instance_n(y->inst);
    if (nx != ny) return nx < ny ? -1 : 1;
    return strcmp(wt_instance_name(x->inst), wt_instance_name(y->inst));
}

/* Reads the instances of dir that the quality benchmark takes (coordinates,
 * min_n <= n <= max_n, known optimum), sorted by size.  Notes the others it skips. */
static int q_collect(const char *dir, int64_t min_n, int64_t max_n, q_entry **out, int *count)
{
    DIR *d = opendir(dir);
    if (!d) {
        fprintf(stderr, "warptour-bench: cannot open folder %s\n", dir);
        return EXIT_FAILURE_RUN;
    }
    q_entry *list = NULL;
    int n = 0, cap = 0, status = EXIT_OK;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (!bench_has_suffix(e->d_name, ".tsp")) continue;
        size_t len = strlen(dir) + strlen(e->d_name) + 2;
        char *path = malloc(len);
        if (!path) {
            status = EXIT_FAILURE_RUN;
            break;
        }
        snprintf(path, len, "%s/%s", dir, e->d_name);
        wt_instance *inst = NULL;
        wt_error err = {0};
        const char *why = NULL;
        if (wt_instance_read_tsplib(path, &inst, &err) != WT_OK) why = err.message;
        else if (wt_instance_n(inst) > max_n || wt_instance_n(inst) < min_n) why = "";
        else if (wt_instance_type(inst) == WT_EXPLICIT) why = "EXPLICIT (no coordinates)";
        else if (wt_instance_known_optimum(inst) <= 0) why = "no known optimum";
        if (why) {
            if (why[0]) printf("# skipped %s: %s\n", e->d_name, why);
            wt_instance_free(inst);
            free(path);
            continue;
        }
        if (n == cap) {
            cap = cap ? 2 * cap : 64;
            q_entry *grown = realloc(list, (size_t)cap * sizeof *list);
            if (!grown) {
                wt_instance_free(inst);
                free(path);
                status = EXIT_FAILURE_RUN;
                break;
            }
            list = grown;
        }
        list[n].path = path;
        list[n].inst = inst;
        n++;
    }
    closedir(d);
    if (n > 1) qsort(list, (size_t)n, sizeof *list, q_entry_cmp);
    *out = list;
    *count = n;
    return status;
}

int bench_quality(const bench_opts *o)
{
    char dir[4096];
    if (o->dir) snprintf(dir, sizeof dir, "%s", o->dir);
    else if (!bench_find_tsplib(NULL, dir, sizeof dir))
        return bench_tsplib_not_found("the TSPLIB folder", "--dir DIR");
    printf("# instances: %s/*.tsp with coordinates, %" PRId64 " to %" PRId64 " cities; %" PRIu64
           " climbs each, --backend %s, seed %" PRIu64 "\n",
           dir, o->min_n > 0 ? o->min_n : 1, o->max_n, o->climbs, wt_backend_name(o->backend),
           o->seed);
    fflush(stdout);
    q_entry *list = NULL;
    int count = 0;
    int status = q_collect(dir, o->min_n, o->max_n, &list, &count);
    if (status == EXIT_OK && count == 0) {
        fprintf(stderr, "warptour-bench: no instance in %s has %" PRId64 " to %" PRId64
                " cities (--min-n, --max-n)\n", dir, o->min_n > 0 ? o->min_n : 1, o->max_n);
        status = EXIT_FAILURE_RUN;
    }
    struct {
        int count;
        double gap_sum, gap_max, seconds;
    } bins[Q_N_BINS];
    memset(bins, 0, sizeof bins);
    double t_all = 0;
    int measured = 0;
    for (int i = 0; i < count && status == EXIT_OK; i++) {
        const wt_instance *inst = list[i].inst;
        wt_params p;
        bench_params_defaults(o, &p);
        p.algorithm = WT_ALGO_MULTISTART;
        p.backend = o->backend;
        p.restarts = o->climbs;
        p.seed = o->seed;
        wt_result res;
        wt_error err = {0};
        if (wt_solve(inst, &p, &res, &err) != WT_OK) {
            printf("# %s failed: %s\n", wt_instance_name(inst), err.message);
            status = cli_report_error(&err);
            break;
        }
        int n = wt_instance_n(inst);
        int64_t opt = wt_instance_known_optimum(inst);
        double gap = cli_gap_percent(res.length, opt);
        printf("bench=quality instance=%s n=%d type=%s backend=%s climbs=%" PRIu64
               " best_climb=%" PRIu64 " length=%" PRId64 " optimum=%" PRId64
               " gap_percent=%.3f seconds=%.3f\n",
               wt_instance_name(inst), n, wt_edge_weight_type_name(wt_instance_type(inst)),
               res.backend, res.multistart.climbs, res.multistart.best_climb, res.length, opt,
               gap, res.time_s);
        fflush(stdout);
        t_all += res.time_s;
        measured++;
        for (int b = 0; b < Q_N_BINS; b++)
            if (n >= q_bins[b].lo && n <= q_bins[b].hi) {
                bins[b].count++;
                bins[b].gap_sum += gap;
                if (gap > bins[b].gap_max) bins[b].gap_max = gap;
                bins[b].seconds += res.time_s;
            }
        wt_result_free(&res);
    }
    if (measured > 0) {
        printf("\n# multistart quality, %" PRIu64 " climbs per instance (bins of the paper's "
               "Figure 7)\n", o->climbs);
        printf("%10s | %9s | %10s | %9s | %9s\n", "cities", "instances", "mean gap %",
               "max gap %", "seconds");
        printf("-----------+-----------+------------+-----------+----------\n");
        for (int b = 0; b < Q_N_BINS; b++) {
            if (!bins[b].count) continue;
            printf("%10s | %9d | %10.3f | %9.3f | %9.2f\n", q_bins[b].label, bins[b].count,
                   bins[b].gap_sum / bins[b].count, bins[b].gap_max, bins[b].seconds);
        }
        printf("%10s | %9d | %10s | %9s | %9.2f\n", "all", measured, "", "", t_all);
    }
    for (int i = 0; i < count; i++) {
        free(list[i].path);
        wt_instance_free(list[i].inst);
    }
    free(list);
    return status;
}
