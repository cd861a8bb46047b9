/*
 * cli_mpi_opts.c - --mpi-mode, --epoch and --epoch-kicks taken out of a
 * solve command's line (cli_mpi_opts.h).
 */
#include "cli_mpi_opts.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli_common.h"

/* The value of option name at argv[*i] ("--name V" or "--name=V"), moving
 * *i past it; NULL when argv[*i] is not that option.  *missing is set when
 * the option has no value. */
static const char *value_of(int argc, char **argv, int *i, const char *name, bool *missing)
{
    const char *a = argv[*i];
    size_t len = strlen(name);
    if (strncmp(a, "--", 2) != 0 || strncmp(a + 2, name, len) != 0) return NULL;
    if (a[2 + len] == '=') return a + 3 + len;
    if (a[2 + len] != '\0') return NULL;
    if (*i + 1 >= argc) {
        *missing = true;
        return "";
    }
    return argv[++*i];
}

/* Parses one option's value into o; -1, or EXIT_USAGE after a message. */
static int parse(const char *name, const char *v, bool speaks, cli_mpi_opts *o)
{
    char *end = NULL;
    errno = 0;
    if (strcmp(name, "mpi-mode") == 0) {
        if (strcmp(v, "auto") == 0) o->mode = CLI_MPI_AUTO;
        else if (strcmp(v, "islands") == 0) o->mode = CLI_MPI_ISLANDS;
        else if (strcmp(v, "parts") == 0) o->mode = CLI_MPI_PARTS;
        else return speaks ? cli_usage_error("solve", "--mpi-mode is 'islands', 'parts' or "
                                             "'auto', got '%s'", v) : EXIT_USAGE;
    } else if (strcmp(name, "epoch") == 0) {
        double s = strtod(v, &end);
        if (!*v || *end || errno || !isfinite(s) || !(s > 0))
            return speaks ? cli_usage_error("solve", "--epoch needs a positive number of "
                                            "seconds, got '%s'", v) : EXIT_USAGE;
        o->epoch_s = s;
    } else {
        unsigned long long k = strtoull(v, &end, 10);
        if (!*v || *end || errno || k == 0 || v[0] == '-')
            return speaks ? cli_usage_error("solve", "--epoch-kicks needs a positive whole "
                                            "number, got '%s'", v) : EXIT_USAGE;
        o->epoch_kicks = (uint64_t)k;
    }
    return -1;
}

int cli_mpi_take_options(int *argc, char **argv, bool speaks, cli_mpi_opts *o)
{
    static const char *const names[] = {"mpi-mode", "epoch", "epoch-kicks"};
    memset(o, 0, sizeof *o);
    int kept = 2;
    for (int i = 2; i < *argc; i++) {
        if (strcmp(argv[i], "--") == 0) {
            while (i < *argc) argv[kept++] = argv[i++];
            break;
        }
        const char *v = NULL, *name = NULL;
        bool missing = false;
        int at = i;
        for (size_t k = 0; !v && k < sizeof names / sizeof names[0]; k++)
            if ((v = value_of(*argc, argv, &i, names[k], &missing))) name = names[k];
        if (!v) {
            argv[kept++] = argv[i];
            continue;
        }
        if (missing)
            return speaks ? cli_usage_error("solve", "option '--%s' needs a value", name)
                          : EXIT_USAGE;
        if (!o->given) o->given = argv[at];
        int st = parse(name, v, speaks, o);
        if (st >= 0) return st;
    }
    *argc = kept;
    argv[kept] = NULL;
    return -1;
}
