/*
 * cuda_absent.c - the CUDA backend of a build without nvcc: never available.
 */
#include <stdio.h>

#include "backend/backend.h"

static bool cuda_absent_available(char *device, size_t size)
{
    snprintf(device, size, "built without CUDA (no nvcc at build time)");
    return false;
}

const wt_backend wt_backend_cuda = {
    .name = "cuda",
    .available = cuda_absent_available,
    .twoopt_descend = NULL,
    .multistart = NULL,
    .session = NULL,
    .sa = NULL,
};
