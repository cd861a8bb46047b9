/*
 * alpha.c - the ascent's graph, the call of the host backend's ascent
 * slot, and the candidate lists the LK searches take from it (alpha.h).
 */
#include "algo/alpha.h"

#include <math.h>
#include <stdlib.h>

#include "backend/backend.h"
#include "core/error.h"
#include "core/instance.h"
#include "core/neighbours.h"
#include "ls/engine.h"

static bool ctl_stop_asked(void *ctl) { return wt_ctl_expired(ctl); }

static int find_root(int32_t *parent, int c)
{
    while (parent[c] != c) {
        parent[c] = parent[parent[c]];
        c = parent[c];
    }
    return c;
}

/* Joins the graph's components, if it has several, by a chain through
 * each one's lowest city, in the spare last column of width-wide rows:
 * the ascent needs a connected graph, and quadrant neighbours leave
 * far-apart clusters unjoined only in rare layouts, so the chain's edges
 * (long, but few) matter little.  parent: n entries of scratch. */
static void connect_components(int32_t *graph, int n, int width, int32_t *parent)
{
    for (int c = 0; c < n; c++) parent[c] = c;
    for (int c = 0; c < n; c++)
        for (int j = 0; j < width - 1; j++) {
            int d = graph[(size_t)c * (size_t)width + (size_t)j];
            if (d < 0) break;
            int a = find_root(parent, c), b = find_root(parent, d);
            if (a != b) parent[a > b ? a : b] = a < b ? a : b;
        }
    int prev = -1; /* the lowest city of the last component met */
    for (int c = 0; c < n; c++) {
        if (find_root(parent, c) != c) continue; /* roots are their component's lowest city */
        if (prev >= 0) graph[(size_t)prev * (size_t)width + (size_t)(width - 1)] = c;
        prev = c;
    }
}

/* The sparse graph: k quadrant (or, for a matrix, nearest) neighbours a
 * city and a spare column, connected.  NULL with *stopped when ctl
 * stopped its build. */
static int32_t *ascent_graph(const wt_instance *inst, wt_search_ctl *ctl, int k, bool *stopped,
                             wt_status *st, wt_error *err)
{
    int n = inst->n, width = k + 1, threads = ctl->threads > 0 ? ctl->threads : 1;
    int32_t *lists = malloc((size_t)n * (size_t)k * sizeof *lists);
    int32_t *graph = malloc((size_t)n * (size_t)width * sizeof *graph);
    if (!lists || !graph) {
        free(lists);
        free(graph);
        *st = wt_fail(err, WT_STATUS_OUT_OF_MEMORY, "out of memory for the ascent's graph");
        return NULL;
    }
    wt_init_stop stop = {ctl_stop_asked, ctl};
    *st = inst->type == WT_EXPLICIT
              ? wt_neighbour_lists_until(inst, k, threads, &stop, lists, stopped, err)
              : wt_ls_quadrant_lists(inst, k, threads, &stop, lists, stopped, err);
    if (*st != WT_OK || *stopped) {
        free(lists);
        free(graph);
        return NULL;
    }
    for (size_t c = 0; c < (size_t)n; c++) {
        for (size_t j = 0; j < (size_t)k; j++) graph[c * (size_t)width + j] = lists[c * (size_t)k + j];
        graph[c * (size_t)width + (size_t)k] = -1;
    }
    connect_components(graph, n, width, lists); /* lists: the scratch now */
    free(lists);
    return graph;
}

/* Rows the ascent left short (a city with fewer than k graph
 * neighbours by alpha) are filled from the graph's row, so that every
 * list is full as the window searches expect. */
static void fill_rows(int32_t *cand, int k, const int32_t *graph, int width, int n)
{
    for (size_t c = 0; c < (size_t)n; c++) {
        int32_t *row = cand + c * (size_t)k;
        int have = 0;
        while (have < k && row[have] >= 0) have++;
        for (int j = 0; j < width && have < k; j++) {
            int d = graph[c * (size_t)width + (size_t)j];
            if (d < 0) continue;
            bool there = false;
            for (int x = 0; x < have && !there; x++) there = row[x] == d;
            if (!there) row[have++] = d;
        }
        for (int x = have; x < k; x++) row[x] = row[0]; /* a city of < k neighbours */
    }
}

wt_status wt_alpha_run(const wt_instance *inst, wt_search_ctl *ctl, double until, int iterations,
                       int period, int k, wt_alpha *out, wt_error *err)
{
    *out = (wt_alpha){.lower_bound = -1};
    double t0 = wt_now();
    wt_device host;
    wt_device_host(&host);
    int n = inst->n;
    if (n < 8 || k < 1 || k >= n || !host.backend->ascent) return WT_OK;
    int gk = WT_ALPHA_GRAPH_K < n - 1 ? WT_ALPHA_GRAPH_K : n - 1;
    bool stopped = false;
    wt_status st = WT_OK;
    int32_t *graph = ascent_graph(inst, ctl, gk, &stopped, &st, err);
    if (!graph) return st;
    int32_t *pi = calloc((size_t)n, sizeof *pi);
    int32_t *cand = malloc((size_t)n * (size_t)k * sizeof *cand);
    if (!pi || !cand) {
        free(graph);
        free(pi);
        free(cand);
        return wt_fail(err, WT_STATUS_OUT_OF_MEMORY, "out of memory for the ascent");
    }
    wt_ascent_job job = {.lower_bound = -1, .graph = graph, .graph_k = gk + 1, .iterations = iterations,
                         .period = period,
                         .until = until, .pi = pi, .candidates = cand, .candidates_k = k};
    st = host.backend->ascent(&host, inst, &job, ctl, err);
    free(pi);
    if (st == WT_STATUS_UNSUPPORTED) { /* no ascent for this metric: the usual lists */
        job.stopped = true;
        st = WT_OK;
    }
    if (st != WT_OK || job.stopped) {
        free(graph);
        free(cand);
        return st;
    }
    fill_rows(cand, k, graph, gk + 1, n);
    free(graph);
    *out = (wt_alpha){.candidates = cand, .k = k, .lower_bound = job.lower_bound,
                      .graph_bound = job.graph_bound, .iterations = job.iterations_done,
                      .seconds = wt_now() - t0};
    return WT_OK;
}

void wt_alpha_free(wt_alpha *a)
{
    if (!a) return;
    free(a->candidates);
    a->candidates = NULL;
}
