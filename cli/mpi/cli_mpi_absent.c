/*
 * cli_mpi_absent.c - cli_mpi.h in a build without MPI: one process.
 */
#include "cli_mpi.h"

bool cli_mpi_start(int *argc, char ***argv, const char *command)
{
    (void)argc;
    (void)argv;
    (void)command;
    return true;
}

bool cli_mpi_on(void) { return false; }
int cli_mpi_rank(void) { return 0; }
int cli_mpi_size(void) { return 1; }
int cli_mpi_agree(int status) { return status; }
int cli_mpi_finish(int status) { return status; }

wt_status cli_mpi_solve(const wt_instance *inst, const wt_params *params, wt_result *res,
                        wt_error *err)
{
    return wt_solve(inst, params, res, err);
}

wt_status cli_mpi_solve_batch(const wt_instance *const *insts, int count,
                              const wt_batch_params *params, wt_batch_result *res,
                              wt_error *err)
{
    return wt_solve_batch(insts, count, params, res, err);
}
