/*
 * cli_mpi_absent.c - cli_mpi.h in a build without MPI: one process.
 */
#include "cli_mpi.h"

#include <string.h>

#include "cli_common.h"
#include "cli_mpi_opts.h"

int cli_mpi_start(int *argc, char ***argv, const char *command)
{
    if (strcmp(command, "solve") != 0) return -1;
    cli_mpi_opts opts;
    int st = cli_mpi_take_options(argc, *argv, true, &opts);
    if (st >= 0) return st;
    if (opts.given)
        return cli_usage_error("solve", "%s is for several MPI ranks (mpirun -np P), and this "
                               "build has no MPI", opts.given);
    return -1;
}

int cli_mpi_check_epochs(uint64_t kicks, double time_limit_s)
{
    (void)kicks;
    (void)time_limit_s;
    return -1; /* cli_mpi_start refused the options */
}

bool cli_mpi_on(void) { return false; }
int cli_mpi_rank(void) { return 0; }
int cli_mpi_size(void) { return 1; }
int cli_mpi_agree(int status) { return status; }
double cli_mpi_max(double v) { return v; }
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
