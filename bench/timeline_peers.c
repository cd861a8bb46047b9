/*
 * timeline_peers.c - the peer programs `warptour-bench timeline` runs beside
 * ours: Concorde's linkern and Keld Helsgaun's LKH-3 (../shared/peers; its
 * README says how each is run, and that neither is ever copied into the
 * project or shipped: they are only measured, from their paths as given).
 *
 * For each: the command line (LKH: a parameter file written into the
 * bench's temporary folder), and which of its lines carry a tour length.
 * A peer runs as N processes at once with seeds S .. S+N-1 (--peer-runs):
 * what a user with N cores can do with a single-threaded solver; the run's
 * length at t is the best any of them had by t.
 */
/* realpath() and symlink() are XSI, beyond the _POSIX_C_SOURCE the build sets. */
#define _XOPEN_SOURCE 700
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "timeline.h"

/* From this many cities on LKH gets POPMUSIC candidate sets and a short
 * ascent period (../shared/peers/README.md): its default alpha-nearness
 * ascent on the complete graph grows about cubically, a few seconds at
 * 2,392 cities and minutes at 10,000, during which it has no tour. */
#define TL_LKH_POPMUSIC_N 3000

static const char *const peer_names[TL_N_PEER_KINDS] = {"linkern", "lkh"};

const char *tl_peer_name(tl_peer_kind kind) { return peer_names[kind]; }

bool tl_peer_parse(const char *arg, tl_peer *p)
{
    for (int k = 0; k < TL_N_PEER_KINDS; k++) {
        size_t len = strlen(peer_names[k]);
        if (strncmp(arg, peer_names[k], len) == 0 && arg[len] == '=' && arg[len + 1]) {
            p->kind = (tl_peer_kind)k;
            p->path = arg + len + 1;
            return true;
        }
    }
    return false;
}

bool tl_peer_check(const tl_peer *p)
{
    if (access(p->path, X_OK) == 0) return true;
    fprintf(stderr, "warptour-bench: --peer %s=%s: cannot run %s: %s\n",
            peer_names[p->kind], p->path, p->path, strerror(errno));
    return false;
}

void tl_peer_names(const tl_peer *p, int runs, char *key, size_t key_size, char *label,
                   size_t label_size)
{
    const char *name = peer_names[p->kind];
    if (runs == 1) {
        snprintf(key, key_size, "%s", name);
        snprintf(label, label_size, "%s", name);
    } else {
        snprintf(key, key_size, "%s-x%d", name, runs);
        snprintf(label, label_size, "%d %ss", runs, name);
    }
}

void tl_peer_describe(const tl_peer *p)
{
    if (p->kind == TL_PEER_LINKERN) {
        printf("# peer: linkern = %s, as `linkern -s SEED -t MAX -R 1000000000 -o TOUR FILE`; "
               "its \"Best:\" and \"Final Cycle:\" lengths\n", p->path);
    } else {
        printf("# peer: lkh = %s, as `lkh FILE.par` with PROBLEM_FILE, RUNS = 1, SEED, "
               "TIME_LIMIT = MAX, MAX_TRIALS = 1000000000, TRACE_LEVEL = 1, OUTPUT_TOUR_FILE, "
               "and from %d cities on CANDIDATE_SET_TYPE = POPMUSIC, INITIAL_PERIOD = 100, "
               "MAX_CANDIDATES = 5; its \"* K: Cost =\", \"Run K: Cost =\" and "
               "\"Cost.min =\" lengths\n",
               p->path, TL_LKH_POPMUSIC_N);
    }
}

/* ------------------------------------------------------------- the lines */

/* linkern: "N Steps   Best: LENGTH   T seconds" and "Final Cycle: LENGTH". */
static void linkern_line(tl_run *r, double t, char *line)
{
    const char *keys[] = {"Best: ", "Final Cycle: "};
    for (int k = 0; k < 2; k++) {
        char *at = strstr(line, keys[k]);
        if (!at) continue;
        char *end;
        double len = strtod(at + strlen(keys[k]), &end);
        if (end != at + strlen(keys[k]) && len > 0) tl_run_add(r, t, llround(len));
        return;
    }
}

/* LKH: "* K: Cost = LENGTH, Time = S sec." at each improvement of a run,
 * "Run K: Cost = LENGTH, ..." at its end and "Cost.min = LENGTH, ..." in the
 * summary of all runs.  The last is the only one where the ascent's 1-tree
 * already was a tour (berlin52: the optimum, no trial run at all).  LKH-3
 * writes the cost of a problem with side constraints as PENALTY_LENGTH; a
 * plain TSP has no penalty, and a nonzero one would be no tour's length, so
 * such a line is skipped.  Its "Lower bound = " (the ascent's) is not read:
 * the bench's bound is ours, and an ascent on a POPMUSIC graph proves
 * nothing about the complete one. */
static void lkh_line(tl_run *r, double t, char *line)
{
    const char *s;
    if (strncmp(line, "Cost.min = ", 11) == 0) {
        s = line + 11;
    } else if (strncmp(line, "* ", 2) == 0 || strncmp(line, "Run ", 4) == 0) {
        const char *at = strstr(line, ": Cost = ");
        if (!at) return;
        s = at + strlen(": Cost = ");
    } else {
        return;
    }
    char *end;
    long long v = strtoll(s, &end, 10);
    if (end == s) return;
    if (*end == '_') { /* PENALTY_LENGTH */
        if (v != 0) return;
        s = end + 1;
        v = strtoll(s, &end, 10);
        if (end == s) return;
    }
    if (v > 0) tl_run_add(r, t, (int64_t)v);
}

/* ----------------------------------------------------------- the commands */

/* The argument strings of one process; argv points into them. */
typedef struct peer_cmd {
    char seed[32], secs[32], file[64];
    char *argv[12];
} peer_cmd;

/* LKH's parameter file for process i, dir/lkh-i.par, naming files relative
 * to dir: LKH reads a file name as the token after '=' up to a space, ':'
 * or '=', so the process runs in dir (which the bench made, without such
 * characters in the names it adds) and reads the instance through the
 * link dir/lkh.tsp. */
static bool write_lkh_par(const char *dir, int i, uint64_t seed, double max_s, int n,
                          char *name, size_t size)
{
    snprintf(name, size, "lkh-%d.par", i);
    char path[PATH_MAX + 64];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "warptour-bench: cannot write %s: %s\n", path, strerror(errno));
        return false;
    }
    fprintf(f, "PROBLEM_FILE = lkh.tsp\nRUNS = 1\nSEED = %" PRIu64 "\nTIME_LIMIT = %g\n"
            "MAX_TRIALS = 1000000000\nTRACE_LEVEL = 1\nOUTPUT_TOUR_FILE = lkh-%d.tour\n",
            seed, max_s, i);
    if (n >= TL_LKH_POPMUSIC_N)
        fprintf(f, "CANDIDATE_SET_TYPE = POPMUSIC\nINITIAL_PERIOD = 100\nMAX_CANDIDATES = 5\n");
    if (fclose(f) != 0) {
        fprintf(stderr, "warptour-bench: cannot write %s: %s\n", path, strerror(errno));
        return false;
    }
    return true;
}

/* Removes what the peer's processes left in dir: tours, parameter files,
 * the instance's link. */
static void clean_up(const char *dir, int runs)
{
    char path[PATH_MAX + 64];
    const char *patterns[] = {"%s/peer-%d.tour", "%s/lkh-%d.par", "%s/lkh-%d.tour"};
    for (int i = 0; i < runs; i++)
        for (size_t k = 0; k < sizeof patterns / sizeof patterns[0]; k++) {
            snprintf(path, sizeof path, patterns[k], dir, i);
            unlink(path);
        }
    snprintf(path, sizeof path, "%s/lkh.tsp", dir);
    unlink(path);
}

bool tl_peer_run(const tl_peer *p, int runs, uint64_t seed, double max_s, double stop_at,
                 const char *dir, const char *path, int n, tl_run *r)
{
    peer_cmd *cmd = calloc((size_t)runs, sizeof *cmd);
    char ***argvs = calloc((size_t)runs, sizeof *argvs);
    char (*tours)[PATH_MAX + 64] = calloc((size_t)runs, sizeof *tours);
    char prog[PATH_MAX], problem[PATH_MAX], link[PATH_MAX + 64];
    bool ok = cmd && argvs && tours;
    if (!ok) fprintf(stderr, "warptour-bench: out of memory\n");
    const char *cwd = NULL;
    if (ok && p->kind == TL_PEER_LKH) {
        /* LKH runs in dir (write_lkh_par says why), so both its program and
         * its instance are named by absolute paths. */
        snprintf(link, sizeof link, "%s/lkh.tsp", dir);
        ok = realpath(p->path, prog) && realpath(path, problem) && symlink(problem, link) == 0;
        if (!ok)
            fprintf(stderr, "warptour-bench: lkh on %s: cannot link it into %s: %s\n", path,
                    dir, strerror(errno));
        cwd = dir;
    }
    for (int i = 0; ok && i < runs; i++) {
        peer_cmd *c = &cmd[i];
        snprintf(c->seed, sizeof c->seed, "%" PRIu64, seed + (uint64_t)i);
        snprintf(c->secs, sizeof c->secs, "%g", max_s);
        if (p->kind == TL_PEER_LINKERN) {
            snprintf(tours[i], sizeof tours[i], "%s/peer-%d.tour", dir, i);
            char *argv[] = {(char *)p->path, "-s", c->seed, "-t", c->secs, "-R", "1000000000",
                            "-o", tours[i], (char *)path, NULL};
            memcpy(c->argv, argv, sizeof argv);
        } else {
            ok = write_lkh_par(dir, i, seed + (uint64_t)i, max_s, n, c->file, sizeof c->file);
            char *argv[] = {prog, c->file, NULL};
            memcpy(c->argv, argv, sizeof argv);
        }
        argvs[i] = c->argv;
    }
    if (ok)
        ok = tl_run_processes(argvs, runs, cwd, stop_at,
                              p->kind == TL_PEER_LINKERN ? linkern_line : lkh_line, r);
    clean_up(dir, runs);
    free(cmd);
    free(argvs);
    free(tours);
    return ok;
}
