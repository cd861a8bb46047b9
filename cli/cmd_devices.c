/*
 * cmd_devices.c - `warptour devices`: which backends can run here.
 *
 * One line a device of each backend, as the library lists them
 * (wt_device_list): the CPU's with its cores, then each GPU's, the first
 * named by its backend ("cuda"), the others with their number ("cuda:1"),
 * the number --device takes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

int cmd_devices(int argc, char **argv)
{
    if (argc > 1 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
        puts("Usage: warptour devices\n\nLists the compute backends and whether each can run "
             "on this machine,\none line a GPU ('cuda', 'cuda:1', ...: the number of "
             "--device).\nThe CUDA check launches a tiny kernel, so it also catches a "
             "build for\nthe wrong GPU architecture (see WT_CUDA_ARCH in the README).");
        return EXIT_OK;
    }
    if (argc > 1) return cli_usage_error("devices", "takes no arguments");
    int count = wt_device_list(NULL, 0);
    wt_device_info *d = calloc((size_t)count, sizeof *d);
    if (!d) {
        fprintf(stderr, "warptour: out of memory\n");
        return EXIT_FAILURE_RUN;
    }
    int listed = wt_device_list(d, count);
    if (listed < count) count = listed;
    for (int i = 0; i < count; i++) {
        char name[32];
        if (d[i].index == 0) snprintf(name, sizeof name, "%s", d[i].backend_name);
        else snprintf(name, sizeof name, "%s:%d", d[i].backend_name, d[i].index);
        if (d[i].host && d[i].usable) printf("%-6s available (%s)\n", name, d[i].description);
        else printf("%-6s %s%s\n", name, d[i].usable ? "available: " : "not available: ",
                    d[i].description);
    }
    free(d);
    return EXIT_OK;
}
