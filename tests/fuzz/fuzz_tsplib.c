/*
 * fuzz_tsplib.c - libFuzzer harness for the readers of untrusted input: the
 * TSPLIB instance reader and the TOUR reader.
 *
 * Each input is parsed as an instance from memory (wt_instance_parse_tsplib,
 * an exactly-sized copy so a read past the end is caught) and from a file
 * (wt_instance_read_tsplib, which adds the file loader).  The same bytes are
 * then read as a TOUR file, for the parsed instance's n when it parsed and
 * for a small n taken from the input's length otherwise, so the tour reader
 * is exercised on every input.  Built and run by `make fuzz-readers` (the
 * Makefile's FUZZ_SRC and FUZZ_CFLAGS), not by CMake.
 *
 * tests/fuzz/seeds holds tiny instances of every EDGE_WEIGHT_TYPE and matrix
 * format, a TOUR file, both.tsp, an instance with a TOUR_SECTION (which
 * the instance reader skips), so that tours of parsed instances are reached,
 * and fixed.tsp, whose FIXED_EDGES_SECTION's edges are checked (in range,
 * the same from memory and from the file).
 * A few small files of ../shared/tsplib (burma14, gr17, bayg29, bays29,
 * their .opt.tour files) make good extra seeds.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz_util.h"
#include "warptour.h"

/* Reads path as a tour of n cities (of inst, when not NULL); a success must
 * be a permutation, and its length is taken as `check` does. */
static void try_tour(const char *path, const wt_instance *inst, int n)
{
    int32_t *tour = NULL;
    wt_error err = {0};
    if (wt_tour_read_tsplib(path, n, &tour, &err) == WT_OK) {
        if (wt_tour_validate(tour, n, &err) != WT_OK) abort();
        if (inst && wt_tour_length(inst, tour) < 0) abort();
        free(tour);
    } else if (!err.message[0] || strchr(err.message, '\n')) {
        abort(); /* every failure is one non-empty line */
    }
}

/* An instance's fixed edges (FIXED_EDGES_SECTION): ends in range and
 * distinct, the same from memory (a) and from the file (b). */
static void check_fixed(const wt_instance *a, const wt_instance *b)
{
    const int32_t *pa = NULL, *pb = NULL;
    int n = wt_instance_n(a), count = wt_instance_fixed_edges(a, &pa);
    if (count < 0 || count > n || wt_instance_fixed_edges(b, &pb) != count) abort();
    for (int i = 0; i < 2 * count; i++) {
        if (pa[i] < 0 || pa[i] >= n || pa[i] != pb[i]) abort();
        if (i % 2 && pa[i] == pa[i - 1]) abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *copy = malloc(size ? size : 1);
    if (!copy) return 0;
    memcpy(copy, data, size);
    wt_instance *inst = NULL;
    wt_error err = {0};
    wt_status st = wt_instance_parse_tsplib(copy, size, "fuzz", &inst, &err);
    free(copy);
    if (st != WT_OK && (!err.message[0] || strchr(err.message, '\n'))) abort();

    char path[256];
    if (fuzz_write_temp("fuzz_tsplib", data, size, path, sizeof path) == 0) {
        wt_instance *again = NULL;
        wt_error err2 = {0};
        wt_status st2 = wt_instance_read_tsplib(path, &again, &err2);
        if (st2 != st) abort(); /* file and memory readers must agree */
        if (again && inst) {
            check_fixed(inst, again);
            int n = wt_instance_n(inst);
            /* Touch every distance of a small instance: UBSan checks them. */
            for (int a = 0; a < n && a < 64; a++)
                for (int b = 0; b < n && b < 64; b++) (void)wt_instance_dist(inst, a, b);
        }
        wt_instance_free(again);
        try_tour(path, inst, inst ? wt_instance_n(inst) : 1 + (int)(size % 13));
        unlink(path);
    }
    wt_instance_free(inst);
    return 0;
}
