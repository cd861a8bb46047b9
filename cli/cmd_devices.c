/*
 * cmd_devices.c - `warptour devices`: which backends can run here.
 */
#include <omp.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"

int cmd_devices(int argc, char **argv)
{
    if (argc > 1 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
        puts("Usage: warptour devices\n\nLists the compute backends and whether each can run "
             "on this machine.\nThe CUDA check launches a tiny kernel, so it also catches a "
             "build for\nthe wrong GPU architecture (see WT_CUDA_ARCH in the README).");
        return EXIT_OK;
    }
    if (argc > 1) return cli_usage_error("devices", "takes no arguments");
    char device[160];
    printf("cpu    available (%d cores)\n", omp_get_num_procs());
    bool gpu = wt_cuda_available(device, sizeof device);
    printf("cuda   %s%s\n", gpu ? "available: " : "not available: ", device);
    return EXIT_OK;
}
