/*
 * oom_tsplib.c - out-of-memory injection for the two file readers.
 *
 * Reads an instance and then a tour of it, failing the k-th allocation for
 * k = 0, 1, ... until a run needs no failure.  Every run must end in a clean
 * status (WT_STATUS_OUT_OF_MEMORY where an allocation failed, never
 * WT_STATUS_INVALID_TOUR or a crash), and under AddressSanitizer with no
 * leak.  Built by hand; malloc, calloc and realloc are wrapped by the linker:
 *
 *   clang -std=c11 -g -O1 -fsanitize=address,undefined -D_POSIX_C_SOURCE=200809L \
 *     -Iinclude -Isrc tests/fuzz/oom_tsplib.c src/core/tsplib_read.c \
 *     src/core/textfile.c src/core/instance.c src/core/error.c src/core/optima.c \
 *     src/core/tour.c -lm -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc \
 *     -o /tmp/oom_tsplib
 *   ASAN_OPTIONS=allocator_may_return_null=1 /tmp/oom_tsplib INSTANCE TOUR
 */
#include <stdio.h>
#include <stdlib.h>

#include "warptour.h"

void *__real_malloc(size_t n);
void *__real_calloc(size_t count, size_t size);
void *__real_realloc(void *p, size_t n);

static long countdown = -1; /* allocations left before the failing one; -1: none fails */

static int fails(void) { return countdown >= 0 && countdown-- == 0; }
void *__wrap_malloc(size_t n) { return fails() ? NULL : __real_malloc(n); }
void *__wrap_calloc(size_t count, size_t size)
{
    return fails() ? NULL : __real_calloc(count, size);
}
void *__wrap_realloc(void *p, size_t n) { return fails() ? NULL : __real_realloc(p, n); }

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: oom_tsplib INSTANCE TOUR\n");
        return 2;
    }
    for (long k = 0;; k++) {
        wt_instance *inst = NULL;
        int32_t *tour = NULL;
        wt_error ierr = {0}, terr = {0};
        countdown = k;
        wt_status ist = wt_instance_read_tsplib(argv[1], &inst, &ierr);
        wt_status tst = ist == WT_OK
                            ? wt_tour_read_tsplib(argv[2], wt_instance_n(inst), &tour, &terr)
                            : WT_OK;
        bool injected = countdown < 0;
        countdown = -1;
        printf("fail allocation %ld: instance %s (%s), tour %s (%s)\n", k, wt_status_str(ist),
               ierr.message, wt_status_str(tst), terr.message);
        free(tour);
        wt_instance_free(inst);
        if (injected && ist != WT_STATUS_OUT_OF_MEMORY && tst != WT_STATUS_OUT_OF_MEMORY) {
            fprintf(stderr, "allocation %ld failed but no out-of-memory was reported\n", k);
            return 1;
        }
        if (!injected) return 0; /* every allocation of the reads has failed once */
    }
}
