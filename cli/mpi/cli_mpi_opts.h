/*
 * cli_mpi_opts.h - the options of `warptour solve` that say how MPI ranks
 * share one instance: --mpi-mode, --epoch, --epoch-kicks (docs/mpi.md).
 *
 * They are taken out of the command line before the command reads it
 * (cli_mpi_start), so that the commands need not know about MPI; built
 * into both the MPI and the one-process program, which refuses them.
 */
#ifndef WT_CLI_MPI_OPTS_H
#define WT_CLI_MPI_OPTS_H

#include <stdbool.h>
#include <stdint.h>

/* As warptour_mpi.h's wt_mpi_mode, which a build without MPI cannot include. */
typedef enum cli_mpi_mode { CLI_MPI_AUTO = 0, CLI_MPI_ISLANDS, CLI_MPI_PARTS } cli_mpi_mode;

typedef struct cli_mpi_opts {
    cli_mpi_mode mode;     /* --mpi-mode (default auto) */
    double epoch_s;        /* --epoch SECONDS; 0: the library's default */
    uint64_t epoch_kicks;  /* --epoch-kicks K; 0: the library's default */
    const char *given;     /* the first of them given, as written; NULL: none */
} cli_mpi_opts;

/* Removes the options above (as "--opt VALUE" or "--opt=VALUE", up to a
 * "--") from argv[2 ..] of a command's line (argv[1] the command), into o.
 * Returns -1, or EXIT_USAGE after printing a usage error (when speaks) for
 * a bad value. */
int cli_mpi_take_options(int *argc, char **argv, bool speaks, cli_mpi_opts *o);

#endif
