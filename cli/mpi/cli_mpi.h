/*
 * cli_mpi.h - the warptour program as one of several MPI ranks.
 *
 * Under mpirun -np P (P > 1), solve and solve-batch run on every rank:
 * each reads the instances and searches its part through the library's
 * MPI entry points (warptour_mpi.h), and rank 0 alone prints and writes
 * files.  The other ranks' standard output is discarded and their
 * standard error kept aside, so that a rank that fails before the search
 * can tell rank 0 why (cli_mpi_agree).  Built with MPI from cli_mpi.c,
 * else from cli_mpi_absent.c, where every function behaves as one process
 * does.  docs/mpi.md.
 */
#ifndef WT_CLI_MPI_H
#define WT_CLI_MPI_H

#include <stdbool.h>
#include <stdint.h>

#include "warptour.h"

/* Starts MPI when command (solve, solve-batch) runs as one of several
 * ranks that a launcher started (Open MPI's OMPI_COMM_WORLD_SIZE or
 * PMI_SIZE above 1); otherwise nothing happens.  For solve, first takes
 * --mpi-mode, --epoch and --epoch-kicks out of the command line
 * (cli_mpi_opts.h), which need several ranks: a usage error in one
 * process.  Returns -1 to go on, else the exit status (after a message:
 * rank 0's alone): EXIT_USAGE, or EXIT_FAILURE_RUN when MPI could not
 * start. */
int cli_mpi_start(int *argc, char ***argv, const char *command);

/* Refuses --epoch and --epoch-kicks where the run's budget leaves them
 * nothing to do (the library ignores them there): --epoch-kicks without
 * --kicks, --epoch with --kicks or without --time-limit.  kicks and
 * time_limit_s: solve's params (0: not given).  Returns -1 to go on, else
 * EXIT_USAGE after a message (rank 0's alone). */
int cli_mpi_check_epochs(uint64_t kicks, double time_limit_s);

/* Whether this process is one of several ranks; this rank and how many. */
bool cli_mpi_on(void);
int cli_mpi_rank(void);
int cli_mpi_size(void);

/* Collective (every rank calls it at the same point, or cli_mpi_finish):
 * every rank's exit status so far; the lowest failing rank's wins, and
 * rank 0 prints that rank's last message when it is another's.  Returns
 * the agreed status (status itself without ranks). */
int cli_mpi_agree(int status);

/* The largest of the ranks' values of v (collective); v in one process. */
double cli_mpi_max(double v);

/* Ends MPI after a command (agreeing first where no failure was agreed
 * yet); returns the process's exit status: rank 0's status, 0 on the other
 * ranks (mpirun exits with rank 0's then). */
int cli_mpi_finish(int status);

/* wt_solve and wt_solve_batch, over the ranks when cli_mpi_on (rank 0 gets
 * the result; the others a zeroed one). */
wt_status cli_mpi_solve(const wt_instance *inst, const wt_params *params, wt_result *res,
                        wt_error *err);
wt_status cli_mpi_solve_batch(const wt_instance *const *insts, int count,
                              const wt_batch_params *params, wt_batch_result *res,
                              wt_error *err);

#endif
