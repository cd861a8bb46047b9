/*
 * solve.c - a program built against an installed warptour (tests/install):
 * the README's library example with checks added.  Solves the TSPLIB file
 * named by its argument and fails unless the tour is valid and its length
 * positive and equal to the tour's recomputed length.  It also reaches the
 * experimental header (a tuning, its table of fields) and the version, so
 * that both headers and their functions are checked as installed.
 */
#include <stdio.h>
#include <warptour.h>
#include <warptour_experimental.h>

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: solve FILE.tsp\n");
        return 2;
    }
    wt_instance *inst;
    wt_error err;
    if (wt_instance_read_tsplib(argv[1], &inst, &err) != WT_OK) {
        fprintf(stderr, "%s\n", err.message);
        return 1;
    }
    if (wt_version_number() != WT_VERSION_NUMBER || !wt_tuning_field_named("ils_round_kicks")) {
        fprintf(stderr, "version %u (header %d) or the tuning's fields are wrong\n",
                wt_version_number(), WT_VERSION_NUMBER);
        wt_instance_free(inst);
        return 1;
    }
    wt_tuning tuning = {0}; /* every field its default, as NULL would give */
    wt_params p;
    wt_params_defaults(&p);
    p.kicks = 1000; /* ils, the default: a kick budget, no time limit */
    p.tuning = &tuning;
    wt_result res;
    if (wt_solve(inst, &p, &res, &err) != WT_OK) {
        fprintf(stderr, "%s\n", err.message);
        wt_instance_free(inst);
        return 1;
    }
    int n = wt_instance_n(inst);
    int ok = res.length > 0 && wt_tour_validate(res.tour, n, &err) == WT_OK &&
             wt_tour_length(inst, res.tour) == res.length;
    printf("%s: %d cities, length %lld (%s)%s\n", argv[1], n, (long long)res.length,
           res.backend, ok ? "" : ": INVALID");
    wt_result_free(&res);
    wt_instance_free(inst);
    return ok ? 0 : 1;
}
