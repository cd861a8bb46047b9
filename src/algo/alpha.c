/*
 * alpha.c - the ascent's graph (its neighbour lists from the device's
 * neighbours slot where it has one, else the host's), the choice of the
 * device whose ascent slot runs it (the GPU's where one can, the host's as
 * the fallback), the call, and the candidate lists the LK searches take
 * from it (alpha.h).
 *
 * Every backend's slot gives the same pi, bound and lists bit for bit
 * (backend.h, wt_ascent_job), so the device changes how many steps fit a
 * time share, never what a given number of steps gives.
 */
#include "algo/alpha.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "algo/devices.h"
#include "core/error.h"
#include "core/instance.h"
#include "core/neighbours.h"
#include "core/onetree.h"

static bool ctl_stop_asked(void *ctl) { return wt_ctl_expired(ctl); }

/* The root of c's set in the forest of parent links.  Links only ever
 * point from a higher city to a lower one, and the halving below only
 * skips a link to a lower city of the same set, so threads may find and
 * halve at once (atomic loads and stores, no lost set). */
static int32_t find_root(int32_t *parent, int32_t c)
{
    for (;;) {
        int32_t p = __atomic_load_n(&parent[c], __ATOMIC_RELAXED);
        if (p == c) return c;
        int32_t gp = __atomic_load_n(&parent[p], __ATOMIC_RELAXED);
        if (gp != p) __atomic_store_n(&parent[c], gp, __ATOMIC_RELAXED);
        c = gp;
    }
}

/* Joins the sets of a and b: the higher root is linked to the lower by a
 * compare-and-swap, retried when another thread linked it first.  Every
 * set's root ends as its lowest city, whatever the order of the joins. */
static void join(int32_t *parent, int32_t a, int32_t b)
{
    for (;;) {
        a = find_root(parent, a);
        b = find_root(parent, b);
        if (a == b) return;
        int32_t hi = a > b ? a : b, lo = a < b ? a : b, expect = hi;
        if (__atomic_compare_exchange_n(&parent[hi], &expect, lo, false, __ATOMIC_RELAXED,
                                        __ATOMIC_RELAXED))
            return;
    }
}

/* Joins the graph's components, if it has several, by a chain through
 * each one's lowest city, in the spare last column of width-wide rows:
 * the ascent needs a connected graph, and quadrant neighbours leave
 * far-apart clusters unjoined only in rare layouts, so the chain's edges
 * (long, but few) matter little.  The components come from a union-find
 * that up to `threads` threads fill at once: its roots are the lowest
 * cities whatever the threads, so the chain is too.  parent: n entries of
 * scratch. */
static void connect_components(int32_t *graph, int n, int width, int threads, int32_t *parent)
{
#pragma omp parallel num_threads(threads) if (n > 4096)
    {
#pragma omp for schedule(static)
        for (int c = 0; c < n; c++) parent[c] = c;
#pragma omp for schedule(static, 1024)
        for (int c = 0; c < n; c++)
            for (int j = 0; j < width - 1; j++) {
                int d = graph[(size_t)c * (size_t)width + (size_t)j];
                if (d < 0) break;
                join(parent, c, d);
            }
    }
    int prev = -1; /* the lowest city of the last component met */
    for (int c = 0; c < n; c++) {
        if (parent[c] != c) continue; /* roots are their component's lowest city */
        if (prev >= 0) graph[(size_t)prev * (size_t)width + (size_t)(width - 1)] = c;
        prev = c;
    }
}

/* Whether a device's slot failed in a way the host answers: an
 * instance or a metric the device cannot take (its memory, its kernels). */
static bool host_answers(wt_status st)
{
    return st == WT_STATUS_UNSUPPORTED || st == WT_STATUS_OUT_OF_MEMORY;
}

/* Whether dev lists candidates in place of the host: a device backend
 * with the slot (backend.h, neighbours). */
static bool lists_on(const wt_device *dev)
{
    return dev && !dev->backend->host && dev->backend->neighbours;
}

/* k quadrant (for a matrix, nearest) neighbours a city into lists: on
 * device on where it lists them (*on_device), else, or where it answers
 * as host_answers says, on the host's threads; the same lists either way. */
static wt_status lists_of(const wt_instance *inst, const wt_device *on, wt_search_ctl *ctl,
                          int k, int32_t *lists, bool *on_device, bool *stopped, wt_error *err)
{
    int threads = ctl->threads > 0 ? ctl->threads : 1;
    *on_device = false;
    if (lists_on(on) && inst->type != WT_EXPLICIT) {
        wt_error device_err = {0};
        wt_status st = on->backend->neighbours(on, inst, k, true, lists, ctl, stopped,
                                               &device_err);
        *on_device = st == WT_OK;
        if (!host_answers(st)) {
            if (st != WT_OK && err) *err = device_err;
            return st;
        }
    }
    wt_init_stop stop = {ctl_stop_asked, ctl};
    return inst->type == WT_EXPLICIT
               ? wt_neighbour_lists_until(inst, k, threads, &stop, lists, stopped, err)
               : wt_quadrant_lists_until(inst, k, threads, &stop, lists, stopped, err);
}

/* The sparse graph: k quadrant (or, for a matrix, nearest) neighbours a
 * city (lists_of) and a spare column, connected.  NULL with *stopped when
 * ctl stopped its build. */
static int32_t *graph_of(const wt_instance *inst, const wt_device *on, wt_search_ctl *ctl, int k,
                         bool *on_device, bool *stopped, wt_status *st, wt_error *err)
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
    *st = lists_of(inst, on, ctl, k, lists, on_device, stopped, err);
    if (*st != WT_OK || *stopped) {
        free(lists);
        free(graph);
        return NULL;
    }
#pragma omp parallel for num_threads(threads) schedule(static) if (n > 65536)
    for (int c = 0; c < n; c++) {
        for (size_t j = 0; j < (size_t)k; j++)
            graph[(size_t)c * (size_t)width + j] = lists[(size_t)c * (size_t)k + j];
        graph[(size_t)c * (size_t)width + (size_t)k] = -1;
    }
    connect_components(graph, n, width, threads, lists); /* lists: the scratch now */
    free(lists);
    return graph;
}

int32_t *wt_alpha_graph(const wt_instance *inst, const wt_device *on, wt_search_ctl *ctl,
                        int *width, bool *on_device, bool *stopped, wt_status *st, wt_error *err)
{
    int gk = WT_ALPHA_GRAPH_K < inst->n - 1 ? WT_ALPHA_GRAPH_K : inst->n - 1;
    bool ignored;
    *width = gk + 1;
    *stopped = false;
    *st = WT_OK;
    return graph_of(inst, on, ctl, gk, on_device ? on_device : &ignored, stopped, st, err);
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

void wt_alpha_device(const wt_params *p, wt_device *out)
{
    wt_device_host(out);
    if (p->backend == WT_BACKEND_CPU) return;
    const wt_backend *b;
    for (int i = 0; (b = wt_backend_at(i)) != NULL; i++) {
        if (b->host || !b->ascent) continue;
        if (p->backend != WT_BACKEND_AUTO && b->kind != p->backend) continue;
        if (p->cuda_device >= wt_backend_devices(b)) continue;
        wt_device dev;
        char desc[128];
        wt_device_of(b, p->cuda_device, &dev);
        if (wt_device_usable(&dev, desc, sizeof desc)) {
            *out = dev;
            return;
        }
    }
}

/* The second device of the search's device list beside dev (set holds
 * it), which dev's slot may share its steps with: NULL where the list
 * names no other usable device of dev's backend. */
static const wt_device *split_device(const wt_search_ctl *ctl, const wt_device *dev,
                                     wt_device_set *set)
{
    if (!ctl || !ctl->params || dev->backend->host) return NULL;
    const wt_params *p = ctl->params;
    char desc[160] = "";
    if (wt_devices_expand(dev, p->devices, p->device_count, false, set, desc, sizeof desc,
                          NULL) != WT_OK ||
        set->count < 2)
        return NULL;
    return &set->at[1];
}

/* One run of dev's slot, as plan says, on a job whose outputs start
 * afresh, from the penalties start (NULL: all 0, as an ascent starts);
 * the device that ran it into name ("cuda:0", "cuda:0+cuda:1" where the
 * list's second GPU shared its steps). */
static wt_status run_slot(const wt_device *dev, const wt_instance *inst,
                          const wt_alpha_plan *plan, const int32_t *start, wt_ascent_job *job,
                          wt_search_ctl *ctl, char name[16], wt_error *err)
{
    wt_device_set set;
    job->split_with = split_device(ctl, dev, &set);
    job->split_done = false;
    job->until = plan->until;
    job->iterations = plan->iterations;
    job->period = plan->period;
    if (start)
        memcpy(job->pi, start, (size_t)inst->n * sizeof *job->pi);
    else
        memset(job->pi, 0, (size_t)inst->n * sizeof *job->pi);
    job->graph_bound = 0;
    job->lower_bound = -1;
    job->iterations_done = 0;
    job->stopped = false;
    wt_status st = dev->backend->ascent(dev, inst, job, ctl, err);
    if (job->split_done)
        snprintf(name, 16, "%.7s+%.7s", dev->name, job->split_with->name);
    else
        snprintf(name, 16, "%s", dev->name);
    job->split_with = NULL; /* set's, which ends here */
    return st;
}

/* The slot of on where it has one, as plan says, else, or where it
 * answers as host_answers says, the host's, as host_plan says;
 * out->device and out->fallback say which ran and why.
 * WT_STATUS_UNSUPPORTED from the host: no ascent. */
static wt_status run_on_device(const wt_device *on, const wt_instance *inst,
                               const wt_alpha_plan *plan, const wt_alpha_plan *host_plan,
                               const int32_t *start, wt_ascent_job *job, wt_search_ctl *ctl,
                               wt_alpha *out, wt_error *err)
{
    wt_device host;
    wt_device_host(&host);
    wt_status st = WT_STATUS_UNSUPPORTED;
    if (on && !on->backend->host && on->backend->ascent) {
        wt_error device_err = {0};
        st = run_slot(on, inst, plan, start, job, ctl, out->device, &device_err);
        if (!host_answers(st)) {
            if (st != WT_OK && err) *err = device_err;
            return st;
        }
        snprintf(out->fallback, sizeof out->fallback, "%.127s", device_err.message);
    }
    if (!host.backend->ascent || host_plan->iterations < 0) return WT_STATUS_UNSUPPORTED;
    return run_slot(&host, inst, host_plan, start, job, ctl, out->device, err);
}

/* Whether row i of rows (width wide) holds city j before its first
 * negative entry (where wt_sgraph_create stops reading it). */
static bool row_holds(const int32_t *rows, int width, int i, int j)
{
    const int32_t *row = rows + (size_t)i * (size_t)width;
    for (int x = 0; x < width && row[x] >= 0; x++)
        if (row[x] == j) return true;
    return false;
}

/* graph's n rows (width wide) with the edges of ends (n - 1 pairs) that
 * neither end's row holds, each in the row of the end with fewer added so
 * far: n rows of *out_width, *added the edges added.  NULL where none is
 * missing, where a row would more than double, or out of memory (the
 * repair is then left out).  The rows'
 * order does not matter: the graph is the set of their edges. */
static int32_t *repaired_rows(const int32_t *graph, int n, int width, const int32_t *ends,
                              int *out_width, int *added)
{
    int32_t *extra = calloc((size_t)n, sizeof *extra);
    int32_t *owner = malloc((size_t)(n - 1) * sizeof *owner); /* the row, or -1: held */
    int32_t *rows = NULL;
    int most = 0, count = 0;
    if (!extra || !owner) goto out;
    for (size_t e = 0; e < (size_t)(n - 1); e++) {
        int u = ends[2 * e], v = ends[2 * e + 1];
        owner[e] = -1;
        if (row_holds(graph, width, u, v) || row_holds(graph, width, v, u)) continue;
        int at = extra[v] < extra[u] ? v : u;
        owner[e] = at;
        if (++extra[at] > most) most = extra[at];
        count++;
    }
    if (count == 0 || most > width) goto out; /* at most twice the graph's rows */
    int w2 = width + most;
    rows = malloc((size_t)n * (size_t)w2 * sizeof *rows);
    if (!rows) goto out;
    for (size_t i = 0; i < (size_t)n; i++) {
        int32_t *row = rows + i * (size_t)w2;
        const int32_t *old = graph + i * (size_t)width;
        int len = 0;
        for (; len < width && old[len] >= 0; len++) row[len] = old[len];
        extra[i] = len; /* now the row's next free place */
        for (int x = len; x < w2; x++) row[x] = -1;
    }
    for (size_t e = 0; e < (size_t)(n - 1); e++) {
        int at = owner[e];
        if (at < 0) continue;
        rows[(size_t)at * (size_t)w2 + (size_t)extra[at]++] = ends[2 * e] == at ? ends[2 * e + 1]
                                                                               : ends[2 * e];
    }
    *out_width = w2;
    *added = count;
out:
    free(extra);
    free(owner);
    return rows;
}

/* Whether the ascent's graph lacks edges that matter: its best 1-tree
 * weighs more than the complete graph's under the same penalties by over
 * a WT_ALPHA_REPAIR_SHARE-th. */
static bool graph_too_sparse(const wt_ascent_job *job)
{
    if (job->lower_bound < 0 || job->graph_bound <= 0) return false;
    int64_t loss = job->graph_bound - job->lower_bound * WT_ASCENT_SCALE;
    return loss > job->graph_bound / WT_ALPHA_REPAIR_SHARE;
}

/* p less the steps done; false when it has none left. */
static bool rest_of(wt_alpha_plan *p, int done)
{
    if (p->iterations <= 0) return true; /* no cap */
    if (done >= p->iterations) return false;
    p->iterations -= done;
    return true;
}

/* The graph's repair, after a completed run `job` on *graph (n rows of
 * *width) whose graph graph_too_sparse finds lacking: the edges of the
 * complete graph's minimum spanning tree under the run's best penalties
 * that the graph lacks are added to it, and the slot that ran (ran) runs
 * again from those penalties, within what is left of the plans.  When the
 * second run completes, *graph, *width and job's penalties, lists, graph
 * bound and steps become its (the proven bound the higher of the two) and
 * ran->repair_edges the edges added; otherwise everything stays the
 * first run's.  Errors: the second run's. */
static wt_status repair(const wt_instance *inst, const wt_device *on, wt_search_ctl *ctl,
                        const wt_alpha_plan *plan, const wt_alpha_plan *host_plan,
                        int32_t **graph, int *width, wt_ascent_job *job, wt_alpha *ran,
                        wt_error *err)
{
    int n = inst->n;
    bool tried_device = on && !on->backend->host && on->backend->ascent;
    bool on_host = !tried_device || ran->fallback[0];
    wt_alpha_plan again = *plan, host_again = *host_plan;
    if (!graph_too_sparse(job) || !rest_of(&again, job->iterations_done) ||
        !rest_of(&host_again, job->iterations_done) ||
        wt_now() >= (on_host ? host_again.until : again.until))
        return WT_OK;
    int32_t *ends = malloc(2 * (size_t)(n - 1) * sizeof *ends);
    if (!ends) return WT_OK;
    int64_t tree_bound = 0;
    bool stopped = false;
    wt_error ignored;
    wt_init_stop stop = {ctl_stop_asked, ctl};
    int threads = ctl->threads > 0 ? ctl->threads : 1;
    wt_status st = wt_onetree_complete_tree(inst, job->pi, NULL, threads, &stop, &tree_bound,
                                            ends, &stopped, &ignored);
    int w2 = 0, added = 0;
    int32_t *g2 = st == WT_OK && !stopped
                      ? repaired_rows(*graph, n, *width, ends, &w2, &added)
                      : NULL;
    free(ends);
    int32_t *pi2 = g2 ? malloc((size_t)n * sizeof *pi2) : NULL;
    int32_t *cand2 = pi2 ? malloc((size_t)n * (size_t)job->candidates_k * sizeof *cand2) : NULL;
    if (!cand2) { /* nothing missing, stopped, or out of memory: the first run's */
        free(g2);
        free(pi2);
        return WT_OK;
    }
    wt_ascent_job job2 = {.lower_bound = -1, .graph = g2, .graph_k = w2, .pi = pi2,
                          .candidates = cand2, .candidates_k = job->candidates_k};
    st = run_on_device(on_host ? NULL : on, inst, &again, &host_again, job->pi, &job2, ctl,
                       ran, err);
    if (st == WT_OK && !job2.stopped) {
        memcpy(job->pi, pi2, (size_t)n * sizeof *pi2);
        memcpy(job->candidates, cand2, (size_t)n * (size_t)job->candidates_k * sizeof *cand2);
        if (job2.lower_bound > job->lower_bound) job->lower_bound = job2.lower_bound;
        job->graph_bound = job2.graph_bound;
        job->iterations_done += job2.iterations_done;
        free(*graph);
        *graph = g2;
        *width = w2;
        g2 = NULL;
        ran->repair_edges = added;
    }
    free(g2);
    free(pi2);
    free(cand2);
    return st;
}

/* wt_alpha_run on an instance the ascent takes as it is. */
static wt_status alpha_of(const wt_instance *inst, const wt_device *on, wt_search_ctl *ctl,
                          const wt_alpha_plan *plan, const wt_alpha_plan *host_plan, int k,
                          wt_alpha *out, wt_error *err)
{
    *out = (wt_alpha){.lower_bound = -1};
    double t0 = wt_now();
    int n = inst->n;
    if (n < 8 || k < 1 || k >= n) return WT_OK;
    int width = 0;
    bool stopped = false;
    wt_status st = WT_OK;
    bool graph_on_device = false;
    int32_t *graph = wt_alpha_graph(inst, on, ctl, &width, &graph_on_device, &stopped, &st, err);
    if (!graph) return st;
    double graph_s = wt_now() - t0;
    int32_t *pi = calloc((size_t)n, sizeof *pi);
    int32_t *cand = malloc((size_t)n * (size_t)k * sizeof *cand);
    if (!pi || !cand) {
        free(graph);
        free(pi);
        free(cand);
        return wt_fail(err, WT_STATUS_OUT_OF_MEMORY, "out of memory for the ascent");
    }
    wt_ascent_job job = {.lower_bound = -1, .graph = graph, .graph_k = width, .pi = pi,
                         .candidates = cand, .candidates_k = k};
    wt_alpha ran = {.lower_bound = -1};
    double t1 = wt_now();
    st = run_on_device(on, inst, plan, host_plan, NULL, &job, ctl, &ran, err);
    if (st == WT_STATUS_UNSUPPORTED) { /* no ascent for this metric: the usual lists */
        job.stopped = true;
        st = WT_OK;
    }
    if (st == WT_OK && !job.stopped)
        st = repair(inst, on, ctl, plan, host_plan, &graph, &width, &job, &ran, err);
    double ascent_s = wt_now() - t1;
    if (st != WT_OK || job.stopped) {
        free(pi);
        free(graph);
        free(cand);
        return st;
    }
    fill_rows(cand, k, graph, width, n);
    free(graph);
    ran.candidates = cand;
    ran.pi = pi;
    ran.k = k;
    ran.lower_bound = job.lower_bound;
    ran.graph_bound = job.graph_bound;
    ran.iterations = job.iterations_done;
    ran.graph_s = graph_s;
    ran.graph_on_device = graph_on_device;
    ran.ascent_s = ascent_s;
    ran.seconds = wt_now() - t0;
    *out = ran;
    return WT_OK;
}

/* The L1 extent of the scaled copy's points, at most: its longest
 * distance stays within the ascent's fixed point (onetree.h,
 * wt_onetree_check_lengths: 2^30 / WT_ASCENT_SCALE units) with room. */
#define SCALED_EXTENT 0x1p23

/* The instance whose ascent stands for inst's: inst itself, or, for a
 * plane or space instance whose distances are too long for the ascent's
 * fixed point (a real-valued one, whose unit puts them near 2^40 units;
 * coordinates in the tens of millions), a copy of the same type with
 * every coordinate times 2^-*shift, the smallest power of two that brings
 * the L1 extent within SCALED_EXTENT.  A power of two keeps the scaling
 * exact; the copy's distances are nint(D 2^-shift) where inst's are
 * nint(D), D the Euclidean distance of the stored points, so its lists
 * are inst's up to that rounding and its bound maps back (unscaled_bound).
 * *copy: the copy to free, or NULL; NULL returned when out of memory. */
static const wt_instance *ascent_instance(const wt_instance *inst, wt_instance **copy,
                                          int *shift, wt_status *st, wt_error *err)
{
    *copy = NULL;
    *shift = 0;
    *st = WT_OK;
    double lo[3], hi[3];
    bool plane = inst->type == WT_EUC_2D || inst->type == WT_EUC_3D;
    if (!plane || !inst->x || !inst->y || inst->n < 8 || inst->n >= (1 << 28) ||
        wt_onetree_check_lengths(inst, NULL) == WT_OK || !wt_instance_bbox(inst, lo, hi))
        return inst;
    /* The points keep their place (no shift to the box's corner), so every
     * difference of the copy is inst's times 2^-shift exactly. */
    double extent = (hi[0] - lo[0]) + (hi[1] - lo[1]) + (hi[2] - lo[2]);
    while (ldexp(extent, -*shift) > SCALED_EXTENT && *shift < 1000) (*shift)++;
    int n = inst->n, dims = inst->z ? 3 : 2;
    double *xyz = malloc((size_t)dims * (size_t)n * sizeof *xyz);
    if (!xyz) {
        *st = wt_fail(err, WT_STATUS_OUT_OF_MEMORY, "out of memory for the ascent");
        return NULL;
    }
    const double *from[3] = {inst->x, inst->y, inst->z};
    for (int d = 0; d < dims; d++)
        for (int c = 0; c < n; c++)
            xyz[(size_t)d * (size_t)n + (size_t)c] = ldexp(from[d][c], -*shift);
    *st = wt_instance_from_coords(inst->name, n, inst->type, xyz, xyz + n,
                                  dims == 3 ? xyz + 2 * (size_t)n : NULL, copy, err);
    free(xyz);
    return *st == WT_OK ? *copy : NULL;
}

/* A bound on inst's tours from the bound b of its copy scaled by
 * 2^-shift (ascent_instance), or -1.  Edge by edge the copy's distance is
 * at most (d + 1/2) 2^-shift + 1/2 for inst's d (both round the same D to
 * the nearest integer), so every tour of inst is at least
 * 2^shift (L' - n/2) - n/2 long, L' the copy's length of it, and L' is at
 * least b.  0.51 instead of 1/2 covers the doubles' rounding of D (far
 * below a hundredth of a unit at these magnitudes), and 2^-40 of the
 * result the rounding of the product. */
static int64_t unscaled_bound(int64_t b, int shift, int n)
{
    if (b <= 0) return -1;
    double v = ldexp((double)b - 0.51 * n, shift) - 0.51 * n;
    v -= ldexp(v, -40) + 1.0;
    return v > 0 && v < 0x1p62 ? (int64_t)floor(v) : -1;
}

wt_status wt_alpha_run(const wt_instance *inst, const wt_device *on, wt_search_ctl *ctl,
                       const wt_alpha_plan *plan, const wt_alpha_plan *host_plan, int k,
                       wt_alpha *out, wt_error *err)
{
    if (!host_plan) host_plan = plan;
    wt_instance *copy;
    int shift;
    wt_status st;
    const wt_instance *of = ascent_instance(inst, &copy, &shift, &st, err);
    if (!of) return st;
    st = alpha_of(of, on, ctl, plan, host_plan, k, out, err);
    wt_instance_free(copy);
    if (st == WT_OK && copy) {
        out->lower_bound = unscaled_bound(out->lower_bound, shift, inst->n);
        out->graph_bound = -1; /* in the copy's unit: no figure of inst's */
        free(out->pi);        /* the copy's distances' penalties */
        out->pi = NULL;
    }
    return st;
}

void wt_alpha_stats(const wt_alpha *a, wt_search_stats *stats)
{
    if (!a->candidates) return;
    snprintf(stats->ascent_device, sizeof stats->ascent_device, "%s", a->device);
    stats->ascent_iterations = a->iterations;
    stats->ascent_s = a->seconds;
}

void wt_alpha_free(wt_alpha *a)
{
    if (!a) return;
    free(a->candidates);
    a->candidates = NULL;
    free(a->pi);
    a->pi = NULL;
}
