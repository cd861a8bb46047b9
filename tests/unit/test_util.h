/*
 * test_util.h - shared helpers for the cmocka unit tests.
 *
 * Tests that read ../shared/tsplib find it through WT_TSPLIB_DIR (set by
 * ctest); when the folder is absent they skip (exit 77), so a checkout
 * without the shared data still builds and runs the self-contained tests.
 */
#ifndef WT_TEST_UTIL_H
#define WT_TEST_UTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/rng.h"
#include "warptour.h"

#define WT_TEST_SKIP_CODE 77

/* The folders the build names (tests/CMakeLists.txt), for a test program
 * built some other way: relative to the repository's root. */
#ifndef WT_TEST_DATA_DIR
#define WT_TEST_DATA_DIR "tests/data"
#endif
#ifndef WT_DATA_DIR
#define WT_DATA_DIR "data"
#endif
#ifndef WT_TSPLIB_DEFAULT_DIR
#define WT_TSPLIB_DEFAULT_DIR "../shared/tsplib"
#endif

/* Folder of the shared TSPLIB copy, or NULL when it is not there. */
static inline const char *wt_test_tsplib_dir(void)
{
    const char *d = getenv("WT_TSPLIB_DIR");
    if (!d) d = WT_TSPLIB_DEFAULT_DIR;
    struct stat st;
    if (!d || stat(d, &st) != 0 || !S_ISDIR(st.st_mode)) return NULL;
    return d;
}

/* Folder of tests/data (the tests' own small files). */
static inline const char *wt_test_data_dir(void)
{
    const char *d = getenv("WT_TEST_DATA");
    return d ? d : WT_TEST_DATA_DIR;
}

/* Folder of data/ (the instances the product ships). */
static inline const char *wt_test_shipped_dir(void)
{
    const char *d = getenv("WT_DATA");
    return d ? d : WT_DATA_DIR;
}

/* Joins a folder and a file name into a static-free buffer the caller frees. */
static inline char *wt_test_path(const char *dir, const char *file)
{
    size_t len = strlen(dir) + strlen(file) + 2;
    char *p = malloc(len);
    snprintf(p, len, "%s/%s", dir, file);
    return p;
}

/* Parses a TSPLIB text held in a C string; asserts success. */
static inline wt_instance *wt_test_parse(const char *text)
{
    wt_instance *inst = NULL;
    wt_error err = {0};
    wt_status st = wt_instance_parse_tsplib(text, strlen(text), "test", &inst, &err);
    if (st != WT_OK) fail_msg("parse failed: %s", err.message);
    return inst;
}

/* A random instance of n cities of each type: coordinates in [0, 1000)
 * (GEO: DDD.MM), EXPLICIT as a random symmetric matrix
 * (no triangle inequality) parsed from TSPLIB text; asserts success. */
static inline wt_instance *wt_test_typed_instance(wt_edge_weight_type type, int n,
                                                  uint64_t seed)
{
    wt_rng rng;
    wt_rng_seed(&rng, seed);
    wt_instance *inst = NULL;
    wt_error err = {0};
    if (type == WT_EXPLICIT) {
        size_t cap = 128 + (size_t)n * (size_t)n * 8;
        char *text = malloc(cap);
        size_t len = (size_t)snprintf(text, cap,
                                      "NAME: m\nTYPE: TSP\nDIMENSION: %d\nEDGE_WEIGHT_TYPE: "
                                      "EXPLICIT\nEDGE_WEIGHT_FORMAT: UPPER_ROW\n"
                                      "EDGE_WEIGHT_SECTION\n", n);
        for (int i = 0; i < n; i++)
            for (int j = i + 1; j < n; j++)
                len += (size_t)snprintf(text + len, cap - len, "%d ",
                                        1 + (int)wt_rng_below(&rng, 999));
        len += (size_t)snprintf(text + len, cap - len, "\nEOF\n");
        if (wt_instance_parse_tsplib(text, len, "m", &inst, &err) != WT_OK)
            fail_msg("parse: %s", err.message);
        free(text);
        return inst;
    }
    double *x = malloc(3 * (size_t)n * sizeof *x), *y = x + n, *z = y + n;
    for (int i = 0; i < n; i++) {
        if (type == WT_GEO) { /* DDD.MM */
            x[i] = (double)wt_rng_below(&rng, 80) + (double)wt_rng_below(&rng, 60) / 100.0;
            y[i] = (double)wt_rng_below(&rng, 170) + (double)wt_rng_below(&rng, 60) / 100.0;
        } else {
            x[i] = (double)wt_rng_below(&rng, 1000);
            y[i] = (double)wt_rng_below(&rng, 1000);
        }
        z[i] = (double)wt_rng_below(&rng, 1000);
    }
    if (wt_instance_from_coords("p", n, type, x, y, z, &inst, &err) != WT_OK)
        fail_msg("from_coords: %s", err.message);
    free(x);
    return inst;
}

/* A random uniform instance of n cities (EUC_2D), for property tests. */
static inline wt_instance *wt_test_random_instance(int n, uint64_t seed)
{
    wt_instance *inst = NULL;
    wt_error err = {0};
    if (wt_instance_generate(WT_GEN_UNIFORM, n, seed, &inst, &err) != WT_OK)
        fail_msg("generate failed: %s", err.message);
    return inst;
}

/* A uniform random permutation of 0..n-1 (Fisher-Yates), from seed. */
static inline void wt_test_random_tour(int n, uint64_t seed, int32_t *tour)
{
    wt_rng rng;
    wt_rng_seed(&rng, seed);
    for (int i = 0; i < n; i++) tour[i] = i;
    for (int i = n - 1; i > 0; i--) {
        int k = (int)wt_rng_below(&rng, (uint64_t)i + 1);
        int32_t t = tour[i];
        tour[i] = tour[k];
        tour[k] = t;
    }
}

#endif
