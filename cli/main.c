/*
 * main.c - the warptour program: subcommand dispatch and top-level help.
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "mpi/cli_mpi.h"

static const char usage_text[] =
    "warptour " WT_VERSION " - parallel local search for the symmetric TSP (GPU and CPU)\n"
    "\n"
    "Usage: warptour COMMAND [OPTIONS]\n"
    "\n"
    "Commands:\n"
    "  solve INSTANCE    build a start tour and improve it by local search\n"
    "  solve-batch ...   solve many small instances at once (files, folders, generated)\n"
    "  check INSTANCE TOUR  validate a tour and print its exact length and gap\n"
    "  info INSTANCE     print what was read from a TSPLIB file\n"
    "  gen KIND N        write a random instance (KIND: uniform, clustered)\n"
    "  devices           list the compute backends usable on this machine\n"
    "\n"
    "Run 'warptour COMMAND --help' for the options of a command.  The benchmarks\n"
    "are a program of their own, warptour-bench (bench/README.md).\n"
    "\n"
    "Exit status:\n"
    "  0    success (check: the tour is valid)\n"
    "  1    run-time failure (cannot write a file, out of memory, GPU error)\n"
    "  2    bad command line\n"
    "  3    malformed or unsupported instance or tour file (the message names file:line)\n"
    "  4    check: the tour is not a valid tour of the instance\n"
    "  5    solve: the time limit cut the search short of its own end (best tour\n"
    "       still written; 'warptour solve --help' says when)\n"
    "  130  solve: interrupted by Ctrl-C (best tour still written)\n"
    "  143  solve: stopped by SIGTERM (best tour still written; SIGHUP: 129)\n"
    "\n"
    "Several processes and machines: a build with MPI runs solve and solve-batch\n"
    "as 'mpirun -np P warptour solve ...', the ranks sharing the work and rank 0\n"
    "writing the result (docs/mpi.md).  This build: " WT_CLI_MPI_NOTE "\n"
    "\n"
    "Example:\n"
    "  warptour solve data/berlin52.tsp --output berlin52.tour --svg berlin52.svg\n";

typedef struct command {
    const char *name;
    int (*run)(int argc, char **argv);
} command;

static const command commands[] = {
    {"solve", cmd_solve}, {"check", cmd_check},     {"info", cmd_info},
    {"gen", cmd_gen},     {"devices", cmd_devices},
    {"solve-batch", cmd_batch},
};

/* A report that could not be written (a full disk, say) is a run-time
 * failure, not a success: stdout is flushed and checked before exiting. */
static int check_stdout(int status)
{
    if (fflush(stdout) == 0 && !ferror(stdout)) return status;
    if (status == EXIT_FAILURE_RUN) return status; /* the command said why */
    cli_report_stdout_failure();
    return status == EXIT_OK ? EXIT_FAILURE_RUN : status;
}

int main(int argc, char **argv)
{
    /* A file-size limit (ulimit -f) then fails the write with EFBIG, which
     * is reported like a full disk (the old file kept, the report printed)
     * instead of killing the program with a half-written file. */
    signal(SIGXFSZ, SIG_IGN);
    if (argc < 2) {
        fputs(usage_text, stderr);
        return EXIT_USAGE;
    }
    const char *name = argv[1];
    if (strcmp(name, "--help") == 0 || strcmp(name, "-h") == 0 || strcmp(name, "help") == 0) {
        fputs(usage_text, stdout);
        return EXIT_OK;
    }
    if (strcmp(name, "--version") == 0) {
        printf("warptour %s\n", WT_VERSION);
        return EXIT_OK;
    }
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++) {
        if (strcmp(name, commands[i].name) != 0) continue;
        /* Under mpirun, solve and solve-batch run on every rank (docs/mpi.md). */
        int early = cli_mpi_start(&argc, &argv, name);
        if (early >= 0) return early;
        return cli_mpi_finish(check_stdout(commands[i].run(argc - 1, argv + 1)));
    }
    fprintf(stderr, "warptour: unknown command '%s'\nTry 'warptour --help'.\n", name);
    return EXIT_USAGE;
}
