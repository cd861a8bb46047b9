/*
 * atsp.c - asymmetric instances through the symmetric transformation of
 * Jonker & Volgenant (1983).
 *
 * An asymmetric instance of n cities keeps its directed costs c(a, b) in
 * its own n x n matrix, which is what every public function reads
 * (wt_instance_dist, wt_tour_length: a tour's length in its direction).
 * The searches solve the symmetric instance of 2n cities attached to it:
 * city i (0 <= i < n) and its twin n + i, with
 *
 *   d'(i, n + j) = d'(n + j, i) = c(i, j)      i != j
 *   d'(i, n + i) = 0                           the twin edge, fixed
 *   d'(i, j) = d'(n + i, n + j) = M            i != j
 *
 * M = n * (largest cost) + 1.  Every tour that holds the n fixed twin
 * edges and no edge of cost M alternates twin edges with edges (i, n + j),
 * and read as ... n+i, i, n+j, j, ... it is the asymmetric tour i -> j ->
 * ..., of exactly the same length: the twin edges cost 0, so no offset is
 * needed and every entry is a non-negative int32 (the -M twin cost of the
 * original paper would need negative entries and an offset of n * M in
 * every length).  Any tour with an edge of cost M is longer than every
 * asymmetric tour, so a search that starts from an asymmetric tour and
 * keeps its best never ends on one (solve.c).
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/instance_build.h"

/* TSPLIB's asymmetric instances and their published optima
 * (../shared/tsplib/atsp/README.md), matched by NAME and DIMENSION. */
static const struct {
    const char *name;
    int n;
    int64_t optimum;
} atsp_optima[] = {
    {"br17", 17, 39},         {"ftv33", 34, 1286}, {"ftv38", 39, 1530},
    {"ftv47", 48, 1776},      {"ft53", 53, 6905},  {"ftv55", 56, 1608},
    {"ftv64", 65, 1839},      {"ft70", 70, 38673}, {"ftv70", 71, 1950},
    {"kro124p", 100, 36230},  {"ftv170", 171, 2755},
};

wt_status wt_atsp_attach(wt_instance *inst, wt_error *err)
{
    int n = inst->n;
    size_t un = (size_t)n;
    if (n > WT_MAX_EXPLICIT_CITIES / 2)
        return wt_fail(err, WT_STATUS_TOO_LARGE, "an asymmetric instance of %d cities is too "
                       "large: it is solved as %d symmetric cities, at most %d (at most %d "
                       "asymmetric cities)", n, 2 * n, WT_MAX_EXPLICIT_CITIES,
                       WT_MAX_EXPLICIT_CITIES / 2);
    int32_t *c = inst->matrix;
    int64_t max = 0;
    for (size_t i = 0; i < un; i++) {
        c[i * un + i] = 0; /* TSPLIB puts 9999 or 1e8 there: not a cost */
        for (size_t j = 0; j < un; j++)
            if (c[i * un + j] > max) max = c[i * un + j];
    }
    int64_t big = (int64_t)n * max + 1;
    if (big > INT32_MAX)
        return wt_fail(err, WT_STATUS_TOO_LARGE, "asymmetric costs up to %lld over %d cities: "
                       "n times the largest cost must stay below %d (the symmetric "
                       "transformation's large cost)", (long long)max, n, INT32_MAX);
    size_t un2 = 2 * un;
    wt_instance *sym = wt_instance_alloc(inst->name, 2 * n, WT_EXPLICIT);
    if (sym) {
        sym->matrix = malloc(un2 * un2 * sizeof *sym->matrix);
        sym->fixed = malloc(2 * un * sizeof *sym->fixed);
    }
    if (!sym || !sym->matrix || !sym->fixed) {
        wt_instance_free(sym);
        return wt_fail(err, WT_STATUS_OUT_OF_MEMORY, "out of memory for the %d x %d symmetric "
                       "matrix of %d asymmetric cities", 2 * n, 2 * n, n);
    }
    int32_t *m = sym->matrix;
    for (size_t i = 0; i < un2; i++)
        for (size_t j = 0; j < un2; j++) {
            int32_t v;
            if (i == j) v = 0;
            else if ((i < un) == (j < un)) v = (int32_t)big; /* city-city, twin-twin */
            else if (i < un) v = c[i * un + (j - un)];       /* i -> j - n */
            else v = c[j * un + (i - un)];                    /* j -> i - n */
            m[i * un2 + j] = v;
        }
    for (size_t i = 0; i < un; i++) {
        sym->fixed[2 * i] = (int32_t)i;
        sym->fixed[2 * i + 1] = (int32_t)(un + i);
    }
    sym->fixed_count = n;
    sym->directed = true;
    sym->unit_exp = inst->unit_exp;
    inst->known_optimum = -1;
    inst->optimum_proven = false;
    if (inst->unit_exp == 0)
        for (size_t k = 0; k < sizeof atsp_optima / sizeof atsp_optima[0]; k++)
            if (atsp_optima[k].n == n && strcmp(atsp_optima[k].name, inst->name) == 0) {
                inst->known_optimum = atsp_optima[k].optimum;
                inst->optimum_proven = true;
            }
    sym->known_optimum = inst->known_optimum;
    sym->optimum_proven = inst->optimum_proven;
    wt_instance_free(inst->sym);
    inst->sym = sym;
    return WT_OK;
}

bool wt_instance_is_asymmetric(const wt_instance *inst) { return inst && inst->sym; }
