/*
 * cli_mpi.c - cli_mpi.h with MPI: the program as one of several ranks.
 *
 * The program keeps its MPI state here (the library keeps none): whether
 * MPI runs, this rank, and whether the ranks already agreed on a failure,
 * after which no rank may wait for another in a collective call again.
 */
#define _GNU_SOURCE /* sched_getaffinity, sched_setaffinity, CPU_SET */
#include "cli_mpi.h"

#include <mpi.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli_common.h"
#include "cli_mpi_opts.h"
#include "warptour_mpi.h"

static bool mpi_on;          /* MPI started, several ranks */
static int mpi_rank, mpi_size = 1;
static bool mpi_settled;     /* a failure was agreed: no more collectives */
static FILE *kept_stderr;    /* ranks other than 0: their standard error */
static cli_mpi_opts opts;    /* solve's --mpi-mode, --epoch, --epoch-kicks */

/* The number of ranks a launcher announces, 1 when none. */
static long launched_size(void)
{
    const char *names[] = {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE"};
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) {
        const char *v = getenv(names[k]);
        if (v && *v) return strtol(v, NULL, 10);
    }
    return 1;
}

/* This process's rank as the launcher announces it, 0 when none. */
static long launched_rank(void)
{
    const char *names[] = {"OMPI_COMM_WORLD_RANK", "PMI_RANK"};
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) {
        const char *v = getenv(names[k]);
        if (v && *v) return strtol(v, NULL, 10);
    }
    return 0;
}

/* Ranks other than 0 print nothing: their standard output goes nowhere,
 * their standard error to a file of their own, read back when they fail. */
static void silence(void)
{
    fflush(stdout);
    fflush(stderr);
    if (!freopen("/dev/null", "w", stdout)) fclose(stdout);
    kept_stderr = tmpfile();
    if (kept_stderr) dup2(fileno(kept_stderr), STDERR_FILENO);
    else if (!freopen("/dev/null", "w", stderr)) fclose(stderr);
}

/* Spreads this rank over its share of its machine's cores where the
 * launcher bound it to fewer: Open MPI binds each of one or two ranks to
 * one core by default, where the library gives a rank cores / S threads
 * (S ranks on the machine, warptour_mpi.h), which would then share that
 * core.  The share is the L-th of S equal runs of the machine's CPUs (L
 * the rank's place there), as `--bind-to none` would leave them to the
 * system; a binding as wide as the share, or wider, is kept.  Collective
 * over MPI_COMM_WORLD. */
static void spread_over_share(void)
{
    MPI_Comm here;
    int local = 0, count = 1;
    if (MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &here) !=
        MPI_SUCCESS)
        return;
    MPI_Comm_rank(here, &local);
    MPI_Comm_size(here, &count);
    MPI_Comm_free(&here);
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    if (cpus > CPU_SETSIZE) cpus = CPU_SETSIZE;
    long from = local * cpus / count, to = (local + 1) * cpus / count;
    cpu_set_t bound, share;
    if (to - from < 2 || sched_getaffinity(0, sizeof bound, &bound) != 0 ||
        CPU_COUNT(&bound) >= to - from)
        return;
    CPU_ZERO(&share);
    for (long c = from; c < to; c++) CPU_SET((int)c, &share);
    sched_setaffinity(0, sizeof share, &share); /* the threads to come inherit it */
}

int cli_mpi_start(int *argc, char ***argv, const char *command)
{
    bool solve = strcmp(command, "solve") == 0;
    if (!solve && strcmp(command, "solve-batch") != 0) return -1;
    long size = launched_size();
    bool first = launched_rank() == 0; /* every rank parses; one speaks */
    if (solve) {
        int st = cli_mpi_take_options(argc, *argv, first, &opts);
        if (st >= 0) return st;
        if (opts.given && size <= 1)
            return first ? cli_usage_error("solve", "%s is for several MPI ranks (mpirun -np "
                                           "P, P > 1); this is one process", opts.given)
                         : EXIT_USAGE;
    }
    if (size <= 1) return -1;
    int provided = 0;
    /* The library's threads never call MPI: only the main one does. */
    if (MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS) {
        fprintf(stderr, "%s: MPI could not start\n", cli_program());
        return EXIT_FAILURE_RUN;
    }
    /* Failures come back as codes, so a rank can say what went wrong. */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_rank(MPI_COMM_WORLD, &mpi_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &mpi_size);
    mpi_on = mpi_size > 1;
    if (mpi_on) spread_over_share();
    if (mpi_on && mpi_rank != 0) silence();
    return -1;
}

int cli_mpi_check_epochs(uint64_t kicks, double time_limit_s)
{
    bool speaks = mpi_rank == 0;
    if (opts.epoch_kicks > 0 && kicks == 0)
        return speaks ? cli_usage_error("solve", "--epoch-kicks splits --kicks into the ranks' "
                                        "epochs: give --kicks too (under --time-limit alone: "
                                        "--epoch)") : EXIT_USAGE;
    if (opts.epoch_s > 0 && (kicks > 0 || !(time_limit_s > 0)))
        return speaks ? cli_usage_error("solve", "--epoch splits --time-limit into the ranks' "
                                        "epochs: give --time-limit and no --kicks (with "
                                        "--kicks: --epoch-kicks)") : EXIT_USAGE;
    return -1;
}

bool cli_mpi_on(void) { return mpi_on; }
int cli_mpi_rank(void) { return mpi_rank; }
int cli_mpi_size(void) { return mpi_size; }

/* The last line this rank wrote to its standard error, without the
 * program's name in front, into buf. */
static void last_message(char *buf, size_t size)
{
    snprintf(buf, size, "failed (exit status) without a message");
    if (!kept_stderr) return;
    fflush(stderr);
    char text[1024];
    long end = lseek(STDERR_FILENO, 0, SEEK_END);
    long from = end > (long)sizeof text - 1 ? end - (long)sizeof text + 1 : 0;
    ssize_t got = pread(STDERR_FILENO, text, sizeof text - 1, from);
    if (got <= 0) return;
    text[got] = '\0';
    while (got > 0 && (text[got - 1] == '\n' || text[got - 1] == '\r')) text[--got] = '\0';
    char *line = strrchr(text, '\n');
    line = line ? line + 1 : text;
    size_t prog = strlen(cli_program());
    if (strncmp(line, cli_program(), prog) == 0 && strncmp(line + prog, ": ", 2) == 0)
        line += prog + 2;
    if (*line) snprintf(buf, size, "%.400s", line);
}

int cli_mpi_agree(int status)
{
    if (!mpi_on || mpi_settled) return status;
    int mine = status != 0 ? mpi_rank : mpi_size, first = mpi_size;
    if (MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD) != MPI_SUCCESS) {
        fprintf(stderr, "%s: rank %d: the ranks could not agree (MPI_Allreduce failed)\n",
                cli_program(), mpi_rank);
        MPI_Abort(MPI_COMM_WORLD, EXIT_FAILURE_RUN);
    }
    if (first == mpi_size) return status;
    mpi_settled = true;
    struct {
        int status;
        char message[480];
    } what = {status, ""};
    if (mpi_rank == first && first != 0) last_message(what.message, sizeof what.message);
    if (MPI_Bcast(&what, (int)sizeof what, MPI_BYTE, first, MPI_COMM_WORLD) != MPI_SUCCESS)
        MPI_Abort(MPI_COMM_WORLD, EXIT_FAILURE_RUN);
    if (mpi_rank == 0 && first != 0)
        fprintf(stderr, "%s: rank %d of %d: %s\n", cli_program(), first, mpi_size, what.message);
    return what.status;
}

int cli_mpi_finish(int status)
{
    if (!mpi_on) return status;
    status = cli_mpi_agree(status);
    fflush(stdout);
    fflush(stderr);
    MPI_Finalize();
    return mpi_rank == 0 ? status : 0;
}

double cli_mpi_max(double v)
{
    double most = v;
    if (mpi_on && MPI_Allreduce(&v, &most, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD) != MPI_SUCCESS) {
        fprintf(stderr, "%s: rank %d: the ranks could not agree (MPI_Allreduce failed)\n",
                cli_program(), mpi_rank);
        MPI_Abort(MPI_COMM_WORLD, EXIT_FAILURE_RUN);
    }
    return most;
}

wt_status cli_mpi_solve(const wt_instance *inst, const wt_params *params, wt_result *res,
                        wt_error *err)
{
    if (!mpi_on) return wt_solve(inst, params, res, err);
    wt_mpi_params mp;
    wt_mpi_params_defaults(&mp);
    mp.mode = opts.mode == CLI_MPI_PARTS ? WT_MPI_PARTS
            : opts.mode == CLI_MPI_ISLANDS ? WT_MPI_ISLANDS : WT_MPI_AUTO;
    mp.epoch_s = opts.epoch_s;
    mp.epoch_kicks = opts.epoch_kicks;
    return wt_mpi_solve(MPI_COMM_WORLD, inst, params, &mp, res, err);
}

wt_status cli_mpi_solve_batch(const wt_instance *const *insts, int count,
                              const wt_batch_params *params, wt_batch_result *res,
                              wt_error *err)
{
    if (!mpi_on) return wt_solve_batch(insts, count, params, res, err);
    return wt_mpi_solve_batch(MPI_COMM_WORLD, 0, insts, count, params, res, err);
}
