/*
 * cmd_gen.c - `warptour gen`: random instances of any size, as TSPLIB files.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"

static const char gen_help[] =
    "Usage: warptour gen uniform|clustered N [--seed S] [--output FILE]\n"
    "\n"
    "Writes a random EUC_2D instance of N cities in TSPLIB format, made like the\n"
    "DIMACS TSP challenge generators: 'uniform' draws integer points uniformly in\n"
    "[0, 1000000)^2 (portgen); 'clustered' puts N/10 centres uniformly in that\n"
    "square and each city normally distributed around a random centre with standard\n"
    "deviation 1000000/sqrt(N) (portcgen).  The same seed gives the same file.\n"
    "\n"
    "  --seed S       seed (default 1)\n"
    "  --output FILE  write to FILE instead of stdout ('-': stdout)\n"
    "  -h, --help     show this help\n"
    "\n"
    "Example:\n"
    "  warptour gen uniform 1000000 --seed 7 --output u1M.tsp\n";

int cmd_gen(int argc, char **argv)
{
    static const struct option longopts[] = {{"seed", required_argument, 0, 's'},
                                             {"output", required_argument, 0, 'o'},
                                             {"help", no_argument, 0, 'h'},
                                             {0, 0, 0, 0}};
    uint64_t seed = 1;
    const char *output = NULL;
    optind = 1;
    opterr = 0;
    int c;
    while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
        if (c == 'h') {
            fputs(gen_help, stdout);
            return EXIT_OK;
        } else if (c == 's') {
            if (!cli_parse_uint64(optarg, &seed))
                return cli_usage_error("gen", "--seed needs a non-negative integer");
        } else if (c == 'o') {
            output = optarg;
        } else {
            return cli_option_error("gen", c, argv, optind);
        }
    }
    if (argc - optind != 2) return cli_usage_error("gen", "expected KIND and N");
    if (output && !output[0]) return cli_usage_error("gen", "--output needs a file name");
    if (output && cli_is_stdin(output)) output = NULL; /* '-': standard output, as solve's */
    wt_gen_kind kind;
    if (strcmp(argv[optind], "uniform") == 0) kind = WT_GEN_UNIFORM;
    else if (strcmp(argv[optind], "clustered") == 0) kind = WT_GEN_CLUSTERED;
    else return cli_usage_error("gen", "unknown KIND '%s' (expected uniform or clustered)",
                                argv[optind]);
    int64_t n;
    if (!cli_parse_int64(argv[optind + 1], 3, WT_MAX_CITIES, &n))
        return cli_usage_error("gen", "N must be an integer in 3..%d", WT_MAX_CITIES);

    /* A wrong path is found before a large instance is made. */
    int writable = output ? cli_check_writable(output) : EXIT_OK;
    if (writable != EXIT_OK) return writable;
    wt_instance *inst = NULL;
    wt_error err = {0};
    if (wt_instance_generate(kind, (int)n, seed, &inst, &err) != WT_OK)
        return cli_report_error(&err);
    FILE *f = output ? fopen(output, "w") : stdout;
    int status = EXIT_OK;
    if (!f) {
        fprintf(stderr, "warptour: %s: cannot open for writing: %s\n", output, strerror(errno));
        status = EXIT_FAILURE_RUN;
    } else if (wt_instance_write_tsplib(inst, f, &err) != WT_OK) {
        status = cli_report_error(&err);
    }
    if (f && f != stdout && fclose(f) != 0 && status == EXIT_OK) {
        fprintf(stderr, "warptour: %s: write failed\n", output);
        status = EXIT_FAILURE_RUN;
    }
    wt_instance_free(inst);
    return status;
}
