/*
 * fixed_edges.c - fixed edges: their check, their adjacency, start tours
 * that hold them (fixed_edges.h), and the public accessors of warptour.h.
 */
#include "core/fixed_edges.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/instance.h"

static int find_root(int32_t *up, int c)
{
    while (up[c] != c) {
        up[c] = up[up[c]];
        c = up[c];
    }
    return c;
}

int wt_fixed_edges_check(const int32_t *pairs, int count, int n, char *why, size_t why_size)
{
    char dummy[1];
    if (why_size == 0) {
        why = dummy;
        why_size = sizeof dummy;
    }
    why[0] = '\0';
    if (count <= 0) return -1;
    int32_t *adj = malloc(2 * (size_t)n * sizeof *adj), *up = malloc((size_t)n * sizeof *up),
            *size = malloc((size_t)n * sizeof *size);
    if (!adj || !up || !size) {
        free(adj);
        free(up);
        free(size);
        snprintf(why, why_size, "out of memory");
        return WT_FIXED_EDGES_NO_MEMORY;
    }
    for (int c = 0; c < n; c++) {
        adj[2 * c] = adj[2 * c + 1] = -1;
        up[c] = c;
        size[c] = 1;
    }
    int bad = -1;
    for (int i = 0; i < count && bad < 0; i++) {
        int a = pairs[2 * i], b = pairs[2 * i + 1];
        if (a < 0 || a >= n || b < 0 || b >= n) {
            snprintf(why, why_size, "city %d is not one of the %d cities",
                     (a < 0 || a >= n ? a : b) + 1, n);
            bad = i;
        } else if (a == b) {
            snprintf(why, why_size, "the edge joins city %d to itself", a + 1);
            bad = i;
        } else if (adj[2 * a] == b || adj[2 * a + 1] == b) {
            snprintf(why, why_size, "the edge %d-%d is fixed twice", a + 1, b + 1);
            bad = i;
        } else if (adj[2 * a + 1] >= 0 || adj[2 * b + 1] >= 0) {
            snprintf(why, why_size, "city %d is in a third fixed edge; a tour has two edges "
                     "a city", (adj[2 * a + 1] >= 0 ? a : b) + 1);
            bad = i;
        } else {
            int ra = find_root(up, a), rb = find_root(up, b);
            if (ra == rb && size[ra] < n) {
                snprintf(why, why_size, "the edge %d-%d closes a cycle of %d cities, not "
                         "through all %d", a + 1, b + 1, size[ra], n);
                bad = i;
            } else {
                if (ra != rb) {
                    up[ra] = rb;
                    size[rb] += size[ra];
                }
                adj[2 * a + (adj[2 * a] >= 0)] = b;
                adj[2 * b + (adj[2 * b] >= 0)] = a;
            }
        }
    }
    free(adj);
    free(up);
    free(size);
    return bad;
}

void wt_fixed_adjacency(const int32_t *pairs, int count, int n, int32_t *adj)
{
    for (int c = 0; c < 2 * n; c++) adj[c] = -1;
    for (int i = 0; i < count; i++) {
        int a = pairs[2 * i], b = pairs[2 * i + 1];
        adj[2 * a + (adj[2 * a] >= 0)] = b;
        adj[2 * b + (adj[2 * b] >= 0)] = a;
    }
}

static bool is_fixed(const int32_t *adj, int a, int b)
{
    return adj[2 * a] == b || adj[2 * a + 1] == b;
}

bool wt_tour_holds_fixed(const int32_t *tour, int n, const int32_t *adj)
{
    int32_t *pos = malloc((size_t)n * sizeof *pos);
    if (!pos) return false;
    for (int i = 0; i < n; i++) pos[tour[i]] = i;
    bool ok = true;
    for (int c = 0; c < n && ok; c++)
        for (int s = 0; s < 2 && ok; s++) {
            int d = adj[2 * c + s];
            if (d < 0) continue;
            int gap = pos[c] - pos[d];
            ok = gap == 1 || gap == -1 || gap == n - 1 || gap == 1 - n;
        }
    free(pos);
    return ok;
}

void wt_tour_force_fixed(int32_t *tour, int n, const int32_t *adj, int32_t *out,
                         unsigned char *placed)
{
    if (n < 1) return;
    /* Begin where the tour crosses no fixed edge: a chain that lies whole
     * in the tour is then met at an end and copied as it lies. */
    int begin = -1;
    for (int i = 0; i < n && begin < 0; i++)
        if (!is_fixed(adj, tour[(i + n - 1) % n], tour[i])) begin = i;
    memset(placed, 0, (size_t)n);
    int m = 0;
    if (begin < 0) { /* every edge fixed: one cycle through all cities */
        for (int prev = -1, c = 0; m < n;) {
            out[m++] = c;
            int next = adj[2 * c] != prev ? adj[2 * c] : adj[2 * c + 1];
            prev = c;
            c = next;
        }
        memcpy(tour, out, (size_t)n * sizeof *tour);
        return;
    }
    for (int k = 0; k < n; k++) {
        int c = tour[(begin + k) % n];
        if (placed[c]) continue;
        /* c's chain from one end (c itself when it is one). */
        int end = c;
        if (adj[2 * c] >= 0 && adj[2 * c + 1] >= 0)
            for (int from = c, x = adj[2 * c];;) {
                int next = adj[2 * x] != from ? adj[2 * x] : adj[2 * x + 1];
                end = x;
                if (next < 0) break;
                from = x;
                x = next;
            }
        for (int prev = -1, x = end; x >= 0;) {
            out[m++] = x;
            placed[x] = 1;
            int next = adj[2 * x] >= 0 && adj[2 * x] != prev ? adj[2 * x]
                       : adj[2 * x + 1] >= 0 && adj[2 * x + 1] != prev ? adj[2 * x + 1]
                                                                        : -1;
            prev = x;
            x = next;
        }
    }
    memcpy(tour, out, (size_t)n * sizeof *tour);
}

int wt_instance_fixed_edges(const wt_instance *inst, const int32_t **pairs)
{
    if (pairs) *pairs = inst ? inst->fixed : NULL;
    return inst ? inst->fixed_count : 0;
}

wt_status wt_instance_set_fixed_edges(wt_instance *inst, const int32_t *pairs, int count,
                                      wt_error *err)
{
    if (!inst || count < 0 || (count > 0 && !pairs))
        return wt_fail(err, WT_STATUS_INVALID_ARGUMENT, "wt_instance_set_fixed_edges: need "
                       "an instance and count >= 0 pairs of cities");
    char why[160];
    int bad = wt_fixed_edges_check(pairs, count, inst->n, why, sizeof why);
    if (bad == WT_FIXED_EDGES_NO_MEMORY)
        return wt_fail(err, WT_STATUS_OUT_OF_MEMORY, "out of memory checking %d fixed edges",
                       count);
    if (bad >= 0)
        return wt_fail(err, WT_STATUS_INVALID_ARGUMENT, "wt_instance_set_fixed_edges: edge %d "
                       "(%d-%d): %s", bad + 1, pairs[2 * bad] + 1, pairs[2 * bad + 1] + 1, why);
    int32_t *copy = NULL;
    if (count > 0) {
        copy = malloc(2 * (size_t)count * sizeof *copy);
        if (!copy)
            return wt_fail(err, WT_STATUS_OUT_OF_MEMORY, "out of memory for %d fixed edges",
                           count);
        memcpy(copy, pairs, 2 * (size_t)count * sizeof *copy);
    }
    free(inst->fixed);
    inst->fixed = copy;
    inst->fixed_count = count;
    return WT_OK;
}

void wt_tour_make_neighbours(const wt_instance *inst, int32_t *tour, int n, int a, int b)
{
    int pa = 0, pb = 0;
    for (int q = 0; q < n; q++) {
        if (tour[q] == a) pa = q;
        if (tour[q] == b) pb = q;
    }
    int k = (pb - pa + n) % n; /* b's place counted on from a */
    if (k == 1 || k == n - 1) return;
#define AT(i) tour[(pa + (i)) % n]
    /* Reverse the places k .. n-1 (from b to a's predecessor) or 1 .. k
     * (from a's successor to b), whichever costs less. */
    int64_t tail = wt_dist(inst, AT(k - 1), AT(n - 1)) - wt_dist(inst, AT(k - 1), AT(k)) -
                   wt_dist(inst, AT(n - 1), AT(0));
    int64_t head = wt_dist(inst, AT(1), AT(k + 1)) - wt_dist(inst, AT(0), AT(1)) -
                   wt_dist(inst, AT(k), AT(k + 1));
    int i = tail <= head ? k : 1, j = tail <= head ? n - 1 : k;
    for (; i < j; i++, j--) {
        int32_t t = AT(i);
        AT(i) = AT(j);
        AT(j) = t;
    }
#undef AT
}
