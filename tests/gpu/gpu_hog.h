/*
 * gpu_hog.h - a GPU made short of memory for real, for the tests of what
 * the library does then: gpu_hog_take fills the device's free memory with
 * the test's own cudaMalloc blocks but about `leave` bytes, gpu_hog_give
 * frees them.  The CUDA runtime comes with the warptour target (the test
 * programs of tests/gpu link it).
 */
#ifndef WT_TESTS_GPU_HOG_H
#define WT_TESTS_GPU_HOG_H

#include <stddef.h>

#include <cuda_runtime_api.h>

enum { GPU_HOG_MAX = 4096 };

typedef struct gpu_hog {
    void *block[GPU_HOG_MAX];
    size_t bytes[GPU_HOG_MAX];
    int count;
    size_t left; /* device bytes free once filled; (size_t)-1 unknown */
} gpu_hog;

/* Takes all but about `leave` bytes of the current device's memory, in
 * halving chunks from 1 GiB down to 1 MiB. */
static void gpu_hog_take(gpu_hog *h, size_t leave)
{
    size_t chunk = (size_t)1 << 30, free_b = 0, total_b = 0;
    h->count = 0;
    while (h->count < GPU_HOG_MAX && chunk >= ((size_t)1 << 20)) {
        if (cudaMemGetInfo(&free_b, &total_b) != cudaSuccess) break;
        if (free_b <= leave + chunk) {
            chunk /= 2;
            continue;
        }
        if (cudaMalloc(&h->block[h->count], chunk) == cudaSuccess) h->bytes[h->count++] = chunk;
        else chunk /= 2;
    }
    (void)cudaGetLastError(); /* failed cudaMalloc calls leave an error behind */
    h->left = cudaMemGetInfo(&free_b, &total_b) == cudaSuccess ? free_b : (size_t)-1;
}

static void gpu_hog_give(gpu_hog *h)
{
    for (int i = 0; i < h->count; i++) cudaFree(h->block[i]);
    h->count = 0;
    (void)cudaGetLastError();
}

#endif
