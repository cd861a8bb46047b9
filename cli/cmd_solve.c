/*
 * cmd_solve.c - `warptour solve`: read, search, write the tour, report.
 *
 * The search may be cut short by --time-limit or Ctrl-C; the library then
 * still returns its best tour, which is written and reported like a finished
 * one, and the exit status says why it stopped early.  SIGTERM and SIGHUP
 * stop it the same way.  Until the tour is written, further stop signals
 * only stop the search too: a second Ctrl-C must not lose the tour found.
 */
#include <getopt.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "mpi/cli_mpi.h"

static const char solve_help[] =
    "Usage: warptour solve INSTANCE [OPTIONS]\n"
    "\n"
    "Builds a start tour for the TSPLIB instance and improves it by local search.\n"
    "INSTANCE '-' reads standard input; gzip-compressed instances are read as they are.\n"
    "\n"
    "Options:\n"
    "  --algorithm A     search to run (default ils):\n"
    "                      2opt        best-improvement 2-opt from the start tour to\n"
    "                                  a local optimum\n"
    "                      multistart  random-restart hill climbing: independent 2-opt\n"
    "                                  climbs from seeded random tours, best kept\n"
    "                      ils         Iterated Local Search: a descent, then repeated\n"
    "                                  double-bridge kick + descent, keeping improvements\n"
    "                                  (Lin-Kernighan descents by default: the best tours)\n"
    "                      sa          simulated annealing (Lam et al.): city relocation\n"
    "                                  moves, cooling from --t-start to --t-end\n"
    "  --kicks K         ils: number of kicks (default: as many as --time-limit\n"
    "                    allows; without one, one per city and at least 10,000\n"
    "                    (1000 with --ils-descent full))\n"
    "  --accept RULE     ils: keep a kicked tour if it is 'better' (default) or\n"
    "                    'equal' (not longer) than the best\n"
    "  --ils-descent D   ils: after each kick, 'full': 2-opt over all pairs to a\n"
    "                    local optimum, on the backend (the papers' way); 'local':\n"
    "                    on the host, 2-opt and Or-opt moves to the 10 nearest\n"
    "                    cities, only around the cities the kick moved (100,000\n"
    "                    kicks a second per core; --threads searches, on\n"
    "                    replicas of the tour that take up the best every 2000\n"
    "                    kicks, or from 6000 cities a thread each on a segment\n"
    "                    of the tour), after a first descent on the GPU when the\n"
    "                    backend is cuda; 'lk': as local, with Lin-Kernighan\n"
    "                    steps (variable depth, to 8 quadrant neighbours; from\n"
    "                    50,000 cities broader and deeper after a kick, to 12)\n"
    "                    and Or-opt moves, kicked by random-walk double\n"
    "                    bridges; from 2000 cities each thread kicks its own\n"
    "                    region of a replica of the whole tour, the replicas'\n"
    "                    changes merged into one tour every 250 kicks a thread\n"
    "                    (merged replicas; not in runs under 10 ms a city of\n"
    "                    thread time where most cities' two nearest lie at one\n"
    "                    length, whose kicks walk further); above 20,000\n"
    "                    cities (to 250,000) where most cities' two nearest\n"
    "                    lie at one length (grids of lines), the first\n"
    "                    descent runs from one start tour a thread (--init's,\n"
    "                    and Quick-Boruvka tours built in sweeps at other\n"
    "                    angles), the shortest kept;\n"
    "                    'windows': the tour cut into windows of 1000\n"
    "                    consecutive positions searched side by side (kicks,\n"
    "                    2-opt, Or-opt, 3-opt; on the GPU with cuda), the cuts\n"
    "                    moving between rounds, then the host's descents once\n"
    "                    their gains dry up (docs/batch.md);\n"
    "                    'auto' (default): lk up to 250,000 cities, local\n"
    "                    beyond (its cheaper kicks get closer there), but lk\n"
    "                    up to 1,000,000 under a time limit of 45 us a city\n"
    "                    or more (45 s at a million); lk runs\n"
    "                    on the host; with --backend auto, a time limit\n"
    "                    and 10,000 cities or more a usable GPU runs\n"
    "                    concurrent windows: window searches of the tour\n"
    "                    while the host's lk or local descents run\n"
    "                    (docs/batch.md)\n"
    "  --swaps k|all     2opt: improving moves applied per pass, the best ones whose\n"
    "                    reversals are independent (k-swap); 1 = best improvement\n"
    "                    only; all (default) = every independent improving move\n"
    "  --nested on|off   2opt, ils with --swaps other than 1: also apply moves lying\n"
    "                    strictly inside another applied move's reversed segment,\n"
    "                    innermost first (on, default), or only moves with disjoint\n"
    "                    segments (off)\n"
    "  --band W          2opt, ils with --swaps other than 1: each row i also offers\n"
    "                    its best move with j in i+2..i+W, a short one that long\n"
    "                    moves do not block; 0 = off (default 64)\n"
    "  --prune on|off    2opt, ils with full descents: skip the pairs of tour segments\n"
    "                    (32 cities each) whose bounding boxes lie too far apart for\n"
    "                    any move between them to shorten the tour: the same moves\n"
    "                    with fewer checks on a good tour (on, default; 2D metrics\n"
    "                    but GEO), or check every pair as the papers do (off)\n"
    "  --restarts R      multistart: number of climbs (default: as many as --time-limit\n"
    "                    allows, or 100 without one)\n"
    "  --searches TB     sa: concurrent searches, restarted from the best every\n"
    "                    --exchange steps (default: 1 for sspm, one per thread for pssm)\n"
    "  --moves TPB       sa: candidate moves per search and iteration, the best of\n"
    "                    which faces the Metropolis test (default: one per thread for\n"
    "                    sspm, 1 for pssm)\n"
    "  --t-start T       sa: starting temperature (default 10000)\n"
    "  --t-end T         sa: the run ends once the temperature is no longer above T\n"
    "                    (default 0.1)\n"
    "  --alpha A         sa: cooling factor in (0, 1) (default 0.99)\n"
    "  --sweeps SP       sa: the temperature drops every SP x n iterations (default 10)\n"
    "  --exchange SE     sa: temperature steps between restarts of all searches from\n"
    "                    the best tour among them (default 100)\n"
    "  --sa-cpu S        sa on the CPU: sspm (default: the threads evaluate the moves\n"
    "                    of one search) or pssm (one search per thread)\n"
    "  --polish on|off   sa: end with a 2-opt + Or-opt descent of the annealed tour to a\n"
    "                    local optimum of both (default on; not after an early stop)\n"
    "  --near K          sa: insert the moved city next to one of its K nearest cities\n"
    "                    instead of anywhere (local moves; K >= 2, e.g. 40; default 0:\n"
    "                    anywhere, as the paper); the same run on the CPU and the GPU\n"
    "  --backend B       auto (default: the GPU when usable, else the CPU), cpu, cuda\n"
    "  --device N        cuda: the GPU to use, as 'warptour devices' numbers them\n"
    "                    (default 0)\n"
    "  --devices L       several GPUs: 'all' or a list such as 0,1 (the first in\n"
    "                    --device's stead); the window searches of a large tour are\n"
    "                    dealt over them, and from 2,000,000 cities its first descent\n"
    "                    (a region of the plane a GPU); the rest runs on the first\n"
    "                    (docs/devices.md)\n"
    "  --init M          start tour: greedy (default), boruvka, nearest, spacefill,\n"
    "                    random\n"
    "  --start-tour FILE start from this TSPLIB tour instead (overrides --init)\n"
    CLI_METRIC_HELP
    "  --open            a shortest Hamiltonian path instead of a tour: no closing\n"
    "                    edge counted; the ends are chosen unless --start/--end\n"
    "                    give them (ils with lk or local descents, on the host)\n"
    "  --start CITY      the tour (or open path) begins at CITY (1-based); alone on a\n"
    "                    closed tour it only rotates the tour (any algorithm)\n"
    "  --end CITY        the open path ends at CITY (implies --open)\n"
    "  --seed S          seed for every random choice (default 1); without --time-limit\n"
    "                    the same seed and backend give the same tour (on any\n"
    "                    --threads; sa: the same --threads too)\n"
    "  --time-limit SEC  stop after SEC seconds with the best tour so far (exit status\n"
    "                    5 when it cut the search short: below); reading the\n"
    "                    instance counts, writing the tour comes after\n"
    "  --threads N       CPU threads (default: all cores)\n"
    "  --optimum L       known optimal length, for the gap (the built-in table knows\n"
    "                    all TSPLIB instances)\n"
    "  --output FILE     write the best tour to FILE; '-' writes it to stdout, and\n"
    "                    the report then goes to stderr (not with --json: use\n"
    "                    --json-tour)\n"
    "  --output-format F the tour's format: tsplib (default: a TSPLIB TOUR file),\n"
    "                    list (one city a line, 1-based, in visiting order) or csv\n"
    "                    (a header line 'city', then the same lines)\n"
    "  --svg FILE        draw the cities and the tour as an SVG picture (a file:\n"
    "                    not '-'); an open path without its closing edge, its start\n"
    "                    a green circle, its end a dark square\n"
    "  --json            print the result as one JSON object on stdout\n"
    "  --json-tour       with --json: add \"tour\", the array of 1-based cities\n"
    "  --quiet           print nothing but errors (no progress line, no report, no\n"
    "                    note of which column is the latitude)\n"
    "  --tune NAME=VALUE experimental: a kernel shape or round length of the\n"
    "                    library's wt_tuning, for measurements (docs/library.md);\n"
    "                    repeatable.  For one release the names of 0.1.0 still\n"
    "                    work: ils_epoch, ils_stretch, ils_mix, ils_listed,\n"
    "                    ils_whole, ils_beside, ils_beside_ms (now ils_round_kicks,\n"
    "                    ils_segment_min, ils_replica_every, ils_list_descent_min,\n"
    "                    ils_merged_min, ils_concurrent_min,\n"
    "                    ils_concurrent_round_ms)\n"
    "  --mpi-mode M      under mpirun with several ranks (docs/mpi.md): islands (each\n"
    "                    rank the whole tour, the tours merged), parts (each rank a\n"
    "                    share of it) or auto (default: parts from 500,000 cities)\n"
    "  --epoch S         under mpirun with --time-limit and no --kicks: seconds\n"
    "                    between the ranks' meetings (default: an eighth of the\n"
    "                    limit); --epoch-kicks K, with --kicks: kicks between them\n"
    "                    (default: a quarter of --kicks)\n"
    "  -h, --help        show this help\n"
    "\n"
    "A progress line (elapsed time / --time-limit, best length in the instance's\n"
    "units, gap to the optimum when known, else how far above optimal the tour is at\n"
    "most once a lower bound is proven; kicks or climbs, the improving moves so far;\n"
    "for sa also the temperature; inside a long 2-opt pass how much of it is\n"
    "scanned) is shown on stderr when it is a terminal; an open path's shows the\n"
    "closed tour it is cut from (\"best closed tour\": the path is that less one edge).\n"
    "Ctrl-C stops the search; the best tour is still written (exit 130); so do\n"
    "SIGTERM (exit 143: kill, timeout, batch schedulers) and SIGHUP (129).  A second\n"
    "such signal does not end the program before the tour is written (Ctrl-\\ does).\n"
    "\n"
    "Exit status 5, for every algorithm: the time limit cut the search short of its\n"
    "own end (the report's \"stopped by the time limit\", --json's \"stop\":\"time-limit\"):\n"
    "2opt before its local optimum, ils before its --kicks, sa before --t-end,\n"
    "multistart before its --restarts, or before a first descent or climb ended.\n"
    "Where no --kicks (ils) or --restarts (multistart) is given, the time limit is\n"
    "the run's budget: using it all is the natural end (exit 0, stop \"done\").\n"
    "\n"
    "Examples:\n"
    "  warptour solve data/berlin52.tsp --output berlin52.tour --svg berlin52.svg\n"
    "  warptour solve big.tsp --init spacefill --time-limit 60 --output big.tour --json\n";

/* The signals that stop a search but still write its best tour: Ctrl-C,
 * and the SIGTERM of `kill`, `timeout` and batch schedulers at their time
 * limit, and SIGHUP (the terminal went away). */
static const int stop_signals[] = {SIGINT, SIGTERM, SIGHUP};
#define N_STOP_SIGNALS (sizeof stop_signals / sizeof stop_signals[0])

/* The first stop signal that came (0: none), polled by the library
 * through params.stop_flag; it sets the exit status. */
static volatile sig_atomic_t interrupted;

static void on_stop_signal(int sig)
{
    if (!interrupted) interrupted = sig;
}

static void install_stop_handlers(void)
{
    for (size_t k = 0; k < N_STOP_SIGNALS; k++) {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_stop_signal;
        /* No SA_RESETHAND: a second signal (a second Ctrl-C, or timeout(1)'s
         * signal to the process group after the one to the program) would
         * otherwise kill the program while it writes the tour.  SIGQUIT
         * and SIGKILL still end it at once. */
        sa.sa_flags = 0;
        sigemptyset(&sa.sa_mask);
        sigaction(stop_signals[k], &sa, NULL);
    }
}

static void remove_stop_handlers(void)
{
    for (size_t k = 0; k < N_STOP_SIGNALS; k++) signal(stop_signals[k], SIG_DFL);
}

/* solve's own long options without a short letter; the rest of its
 * options are the shared table's (cli_common.h: CLI_OPT_*). */
enum { OPT_OUTPUT_FORMAT = 256, OPT_JSON_TOUR, OPT_METRIC, OPT_OPEN, OPT_START, OPT_END };

/* The shared options solve takes: all of them. */
#define SOLVE_PARAMS CLI_PARAM_ALL

typedef struct solve_opts {
    const char *instance, *output, *svg, *start_tour;
    bool given[CLI_OPT_PARAM_END]; /* by option code: which options the command line had */
    bool json, quiet;
    bool json_tour;            /* --json-tour: the tour in the JSON */
    cli_tour_format format;    /* --output-format */
    wt_points_metric metric;   /* --metric: a point file's */
    int64_t optimum; /* -1: from the built-in table */
    int64_t start_city, end_city; /* --start, --end: 1-based; 0 when not given */
    wt_params params;
    wt_tuning tuning;          /* --tune's, where params.tuning points once given */
} solve_opts;

/* length in the instance's own units into buf: the points' units (to 10
 * digits) for real-valued points, else the exact integer. */
static const char *length_text(const wt_instance *inst, int64_t length, char *buf, size_t size)
{
    if (wt_instance_is_real(inst) || wt_instance_length_unit(inst) != 1.0) snprintf(buf, size, "%.10g", wt_length_real(inst, length));
    else snprintf(buf, size, "%" PRId64, length);
    return buf;
}

typedef struct progress_state {
    int64_t optimum;
    bool shown; /* a progress line is on the terminal and needs clearing */
    const wt_instance *inst; /* lengths in its units (real-valued points) */
    double limit;            /* --time-limit, 0: none */
    /* An open path is searched as closed tours (the tour its ends are
     * chosen from, then tours holding the edge from its end back to its
     * start), each phase with its own clock and counters: the line says
     * "closed tour" and adds the phases up, so that time and counts never
     * go back. */
    bool open;
    double t0;                        /* when the instance's reading began (cli_now) */
    double before_s;                  /* seconds from t0 to wt_solve's call */
    double last_elapsed;              /* the phase's, at the last report */
    uint64_t steps_before, kicks_before; /* the phases before this one */
    uint64_t last_steps, last_kicks;  /* this phase's, at the last report */
} progress_state;

/* The time limit left to the search once the instance is read (t_read:
 * before reading; under mpirun the slowest rank's reading counts for all,
 * so that every rank searches to the same limit), at least a millisecond
 * (a valid tour is still made); ps's clock then starts at t_read, so that
 * the progress line counts against the whole limit. */
static void limit_after_reading(wt_params *p, double t_read, progress_state *ps)
{
    double read_s = cli_mpi_max(cli_now() - t_read);
    ps->t0 = t_read;
    ps->before_s = read_s;
    p->time_limit_s = cli_limit_left(p->time_limit_s, read_s);
}

static int show_progress(const wt_progress *given, void *user)
{
    progress_state *ps = user;
    wt_progress q = *given, *p = &q;
    double search_s = given->elapsed_s;
    p->elapsed_s += ps->before_s; /* the library counts from its call */
    if (ps->open) {
        /* A phase's clock and counters start from 0: one going back is a new phase. */
        if (p->elapsed_s < ps->last_elapsed || p->steps < ps->last_steps ||
            p->kicks < ps->last_kicks) {
            ps->steps_before += ps->last_steps;
            ps->kicks_before += ps->last_kicks;
        }
        ps->last_elapsed = p->elapsed_s;
        ps->last_steps = p->steps;
        ps->last_kicks = p->kicks;
        p->elapsed_s = cli_now() - ps->t0;
        p->steps += ps->steps_before;
        p->kicks += ps->kicks_before;
        p->lower_bound = 0; /* a bound on tours, not on the path */
    }
    char limit[32] = ""; /* elapsed / limit */
    if (ps->limit > 0) snprintf(limit, sizeof limit, " / %g s", ps->limit);
    char best[48]; /* in the instance's units */
    length_text(ps->inst, p->best_length, best, sizeof best);
    char gap[48] = ""; /* to the optimum when known, else to the proven bound */
    if (ps->optimum > 0)
        snprintf(gap, sizeof gap, "  gap %.2f%%", cli_gap_percent(p->best_length, ps->optimum));
    else if (p->lower_bound > 0)
        snprintf(gap, sizeof gap, "  at most %.2f%% above optimal",
                 cli_gap_percent(p->best_length, p->lower_bound));
    char climbs[64] = "";
    if (p->climbs) snprintf(climbs, sizeof climbs, "  climbs %" PRIu64, p->climbs);
    if (p->kicks)
        snprintf(climbs, sizeof climbs, "  kicks %" PRIu64 " (%.0f/s)", p->kicks,
                 search_s > 0 ? (double)p->kicks / search_s : 0.0);
    char temp[32] = "";
    if (p->temperature > 0) snprintf(temp, sizeof temp, " T %.4g", p->temperature);
    char pass[32] = ""; /* inside a long pass: how far it got, when known */
    if (p->pass_done >= 0)
        snprintf(pass, sizeof pass, "  (pass %.0f%% scanned)", 100 * p->pass_done);
    else if (p->pass_done == WT_PASS_SHARE_UNKNOWN)
        snprintf(pass, sizeof pass, "  (in a pass)");
    /* \033[K clears what a longer line before left on the terminal. */
    fprintf(stderr, "\r\033[K[%7.1f s%s]%s best %s%s%s%s  moves %" PRIu64 "%s", p->elapsed_s,
            limit, temp, ps->open ? "closed tour " : "", best, gap, climbs, p->steps, pass);
    fflush(stderr);
    ps->shown = true;
    return 0;
}

#define ALGO(a) (1u << (a))
#define ALGO_DESCENTS (ALGO(WT_ALGO_2OPT) | ALGO(WT_ALGO_ILS))

/* The options that belong to some algorithms only, and to which: one given
 * with another algorithm is refused rather than silently ignored (the
 * others apply to every algorithm). */
static const struct {
    int code;
    const char *name;
    unsigned algorithms; /* ALGO() bits */
} owned_options[] = {
    {CLI_OPT_KICKS, "--kicks", ALGO(WT_ALGO_ILS)},
    {CLI_OPT_ACCEPT, "--accept", ALGO(WT_ALGO_ILS)},
    {CLI_OPT_ILS_DESCENT, "--ils-descent", ALGO(WT_ALGO_ILS)},
    {CLI_OPT_SWAPS, "--swaps", ALGO_DESCENTS},
    {CLI_OPT_NESTED, "--nested", ALGO_DESCENTS},
    {CLI_OPT_BAND, "--band", ALGO_DESCENTS},
    {CLI_OPT_PRUNE, "--prune", ALGO_DESCENTS},
    {CLI_OPT_RESTARTS, "--restarts", ALGO(WT_ALGO_MULTISTART)},
    {CLI_OPT_INIT, "--init", ALGO_DESCENTS | ALGO(WT_ALGO_SA)},
    {'S', "--start-tour", ALGO_DESCENTS | ALGO(WT_ALGO_SA)},
    {CLI_OPT_SEARCHES, "--searches", ALGO(WT_ALGO_SA)},
    {CLI_OPT_MOVES, "--moves", ALGO(WT_ALGO_SA)},
    {CLI_OPT_T_START, "--t-start", ALGO(WT_ALGO_SA)},
    {CLI_OPT_T_END, "--t-end", ALGO(WT_ALGO_SA)},
    {CLI_OPT_ALPHA, "--alpha", ALGO(WT_ALGO_SA)},
    {CLI_OPT_SWEEPS, "--sweeps", ALGO(WT_ALGO_SA)},
    {CLI_OPT_EXCHANGE, "--exchange", ALGO(WT_ALGO_SA)},
    {CLI_OPT_SA_CPU, "--sa-cpu", ALGO(WT_ALGO_SA)},
    {CLI_OPT_POLISH, "--polish", ALGO(WT_ALGO_SA)},
    {CLI_OPT_NEAR, "--near", ALGO(WT_ALGO_SA)},
};

/* Refuses an option given for an algorithm it does not belong to, naming
 * the ones it does; returns -1 when all fit, else the exit status. */
static int check_option_algorithms(const solve_opts *o)
{
    wt_algorithm running = o->params.algorithm;
    for (size_t k = 0; k < sizeof owned_options / sizeof owned_options[0]; k++) {
        if (!o->given[owned_options[k].code] || owned_options[k].algorithms & ALGO(running))
            continue;
        char owners[64] = "";
        for (int a = WT_ALGO_2OPT; wt_algorithm_name((wt_algorithm)a); a++) {
            if (!(owned_options[k].algorithms & ALGO(a))) continue;
            size_t used = strlen(owners);
            snprintf(owners + used, sizeof owners - used, "%s%s", used ? ", " : "",
                     wt_algorithm_name((wt_algorithm)a));
        }
        return cli_usage_error("solve", "%s belongs to --algorithm %s, not to %s (the "
                               "algorithm selected)", owned_options[k].name, owners,
                               wt_algorithm_name(running));
    }
    return -1;
}

/* Parses one of solve's own options, or hands a shared one to the table;
 * returns -1 when fine, else an exit status. */
static int parse_option(int c, const char *arg, solve_opts *o)
{
    switch (c) {
    case 'O':
        if (!cli_parse_int64(arg, 1, INT64_MAX, &o->optimum))
            return cli_usage_error("solve", "--optimum needs a positive integer, got '%s'", arg);
        break;
    case 'o': o->output = arg; break;
    case 'g': o->svg = arg; break;
    case 'S': o->start_tour = arg; break;
    case 'J': o->json = true; break;
    case 'q': o->quiet = true; break;
    case OPT_JSON_TOUR: o->json_tour = true; break;
    case OPT_METRIC:
        if (!cli_metric_parse(arg, &o->metric))
            return cli_usage_error("solve", "--metric is 'auto', 'euclidean' or 'haversine' "
                                   "(alias 'geo-degrees'), got '%s'", arg);
        break;
    case OPT_OPEN: o->params.open = true; break;
    case OPT_START:
    case OPT_END:
        if (!cli_parse_int64(arg, 1, INT32_MAX, c == OPT_START ? &o->start_city : &o->end_city))
            return cli_usage_error("solve", "%s needs a city number, 1 to the number of cities; "
                                   "got '%s'", c == OPT_START ? "--start" : "--end", arg);
        break;
    case OPT_OUTPUT_FORMAT:
        if (!cli_tour_format_parse(arg, &o->format))
            return cli_usage_error("solve", "--output-format is 'tsplib', 'list' or 'csv', got "
                                   "'%s'", arg);
        break;
    default: return cli_parse_param("solve", c, arg, &o->params, &o->tuning);
    }
    return -1;
}

static int parse_args(int argc, char **argv, solve_opts *o)
{
    static const struct option own[] = {
        {"optimum", required_argument, 0, 'O'},   {"output", required_argument, 0, 'o'},
        {"svg", required_argument, 0, 'g'},       {"start-tour", required_argument, 0, 'S'},
        {"json", no_argument, 0, 'J'},            {"quiet", no_argument, 0, 'q'},
        {"output-format", required_argument, 0, OPT_OUTPUT_FORMAT},
        {"json-tour", no_argument, 0, OPT_JSON_TOUR},
        {"metric", required_argument, 0, OPT_METRIC},
        {"open", no_argument, 0, OPT_OPEN},       {"start", required_argument, 0, OPT_START},
        {"end", required_argument, 0, OPT_END},
        {"help", no_argument, 0, 'h'},            {0, 0, 0, 0}};
    struct option longopts[sizeof own / sizeof own[0] + CLI_N_PARAM_OPTS];
    cli_options_build(longopts, sizeof longopts / sizeof longopts[0], own, SOLVE_PARAMS);
    memset(o, 0, sizeof *o);
    o->optimum = -1;
    wt_params_defaults(&o->params);
    /* With no options, the best tours we know how to make. */
    o->params.algorithm = WT_ALGO_ILS;
    optind = 1;
    opterr = 0;
    int c;
    while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
        if (c == 'h') {
            fputs(solve_help, stdout);
            return EXIT_OK;
        }
        if (c == ':' || c == '?') return cli_option_error("solve", c, argv, optind);
        int st = parse_option(c, optarg, o);
        if (st >= 0) return st;
        if (c >= 0 && c < CLI_OPT_PARAM_END) o->given[c] = true;
    }
    int owned = check_option_algorithms(o);
    if (owned >= 0) return owned;
    int devices = cli_check_device_choice("solve", o->given[CLI_OPT_DEVICE],
                                          o->given[CLI_OPT_DEVICES]);
    if (devices >= 0) return devices;
    if (o->output && !o->output[0]) return cli_usage_error("solve", "--output needs a file name");
    if (o->svg && !o->svg[0]) return cli_usage_error("solve", "--svg needs a file name");
    /* Standard output carries the report or the tour, not a picture. */
    if (o->svg && cli_is_stdin(o->svg))
        return cli_usage_error("solve", "--svg writes a file; '-' (standard output) is for "
                               "--output; give the picture a file name");
    /* Both on stdout would mix the tour into the JSON; the JSON can carry it. */
    if (o->json && o->output && cli_is_stdin(o->output))
        return cli_usage_error("solve", "--json and --output - would both write to stdout; "
                               "--json --json-tour puts the tour in the JSON");
    if (o->json_tour && !o->json)
        return cli_usage_error("solve", "--json-tour adds the tour to --json's output; give "
                               "--json too");
    if (o->given[OPT_OUTPUT_FORMAT] && !o->output)
        return cli_usage_error("solve", "--output-format formats the --output tour; give "
                               "--output too");
    if (o->params.sa_t_end > o->params.sa_t_start)
        return cli_usage_error("solve", "--t-end (%g) must not exceed --t-start (%g)",
                               o->params.sa_t_end, o->params.sa_t_start);
    int epochs = cli_mpi_check_epochs(o->params.kicks, o->params.time_limit_s);
    if (epochs >= 0) return epochs;
    if (optind != argc - 1)
        return cli_usage_error("solve", optind >= argc ? "missing INSTANCE"
                                                       : "expected one INSTANCE, got more");
    o->instance = argv[optind];
    return -1;
}

static double moves_per_second(const wt_result *r)
{
    return r->search_time_s > 0 ? (double)r->moves_evaluated / r->search_time_s : 0.0;
}

static double kicks_per_second(const wt_result *r)
{
    return r->search_time_s > 0 ? (double)r->ils.kicks / r->search_time_s : 0.0;
}

static const char *sa_cpu_name(wt_sa_cpu_scheme s)
{
    return s == WT_SA_PSSM ? "pssm" : "sspm";
}

static void print_sa_report(FILE *out, const solve_opts *o, const wt_result *r)
{
    const wt_params *p = &o->params;
    const wt_result_sa *sa = &r->sa;
    fprintf(out, "anneal    %d search%s x %d move%s", sa->searches, sa->searches == 1 ? "" : "es",
            sa->moves_per_search, sa->moves_per_search == 1 ? "" : "s");
    if (r->host) fprintf(out, " (%s)", sa_cpu_name(p->sa_cpu));
    fprintf(out, ", T %g -> %g by %g every %d x n iterations, exchange every %d steps",
            p->sa_t_start, p->sa_t_end, p->sa_alpha, p->sa_sweeps, p->sa_exchange);
    if (p->sa_near > 0) fprintf(out, ", moves next to the %d nearest", p->sa_near);
    fprintf(out, "\n");
    fprintf(out, "moves     %" PRIu64 " iterations, %" PRIu64 " accepted, %.3g moves/s, final T "
            "%.4g\n", sa->iterations, sa->accepted, moves_per_second(r), sa->temperature_final);
    if (!p->sa_polish) return;
    fprintf(out, "polish    final 2-opt/Or-opt descent of the annealed tour (length %" PRId64
            "): %" PRIu64 " improving moves in %.3f s\n", sa->unpolished_length, sa->polish_moves,
            sa->polish_time_s);
}

/* The share of the passes' pair space that was checked (1 without pruning). */
static double pair_share(const wt_result *r)
{
    double space = (double)r->scan.passes * ((double)(r->n - 1) * (double)(r->n - 2) / 2.0);
    return space > 0 ? (double)r->moves_evaluated / space : 0.0;
}

/* What a stop during the start tour's build made of it. */
static const char *init_cut_note(const wt_result *r)
{
    if (!r->init_cut) return "";
    if (r->init_made == WT_INIT_SPACEFILL)
        return " (stopped: the spacefill tour instead)";
    return " (stopped: the cities not yet chained joined in Hilbert-curve order)";
}

static void print_report(FILE *out, const solve_opts *o, const wt_instance *inst,
                         const wt_result *r, bool written)
{
    int64_t opt = r->open ? -1 : wt_instance_known_optimum(inst); /* a tour's optimum */
    fprintf(out, "instance  %s (%d cities, %s%s)\n", wt_instance_name(inst), r->n,
            wt_edge_weight_type_name(wt_instance_type(inst)),
            wt_instance_is_asymmetric(inst) ? ", asymmetric: solved as twice as many "
                                              "symmetric cities, the tour in its direction"
                                            : "");
    if (o->params.algorithm == WT_ALGO_MULTISTART) {
        fprintf(out, "search    multistart on %s (%s): %" PRIu64 " climbs, %" PRIu64
                " improving moves\n", r->backend, r->device, r->multistart.climbs, r->steps);
        fprintf(out, "moves     %" PRIu64 " evaluated, %.3g moves/s\n", r->moves_evaluated,
                moves_per_second(r));
        fprintf(out, "best      climb %" PRIu64 " from a random tour of length %" PRId64 "\n",
                r->multistart.best_climb, r->init_length);
    } else {
        char init[48];
        fprintf(out, "start     %s: length %s in %.3f s%s\n",
                o->start_tour                    ? "--start-tour"
                : wt_instance_is_asymmetric(inst) ? "nearest neighbour of the directed costs"
                                                  : wt_init_method_name(o->params.init),
                length_text(inst, r->init_length, init, sizeof init), r->init_time_s,
                init_cut_note(r));
        fprintf(out, "search    %s on %s (%s): %" PRIu64 " improving moves",
                wt_algorithm_name(o->params.algorithm), r->backend, r->device, r->steps);
        /* Local descents look at neighbour lists, not at counted pairs. */
        if (r->moves_evaluated > 0) fprintf(out, ", %" PRIu64 " evaluated", r->moves_evaluated);
        fprintf(out, "\n");
        if (r->scan.passes > 0)
            fprintf(out, "passes    %" PRIu64 " full 2-opt pass%s, %.3g%% of their pairs checked\n",
                    r->scan.passes, r->scan.passes == 1 ? "" : "es", 100.0 * pair_share(r));
        if (o->params.algorithm == WT_ALGO_SA) print_sa_report(out, o, r);
        const wt_result_ils *ils = &r->ils;
        if (o->params.algorithm == WT_ALGO_ILS)
            fprintf(out, "kicks     %" PRIu64 " (%" PRIu64 " kept), %.1f kicks/s\n", ils->kicks,
                    ils->kicks_accepted, kicks_per_second(r));
        if (r->ascent.device[0])
            fprintf(out, "ascent    on %s: %d steps in %.3f s\n",
                    r->ascent.device, r->ascent.iterations, r->ascent.time_s);
        if (ils->gpu_time_s > 0) { /* window searches: how busy the GPU kept */
            fprintf(out, "gpu       window kernels %.3f s, %.0f%% of the search's time",
                    ils->gpu_time_s, 100.0 * ils->gpu_time_s / r->search_time_s);
            if (ils->concurrent_windows_s > 0)
                fprintf(out, ", %.0f%% from the concurrent windows' first round on",
                        100.0 * ils->gpu_time_s / ils->concurrent_windows_s);
            fprintf(out, "\n");
        }
    }
    /* Real-valued points: the length in their units, then the exact integer. */
    if (wt_instance_is_real(inst) || wt_instance_length_unit(inst) != 1.0)
        fprintf(out, "length    %.15g  (%" PRId64 " units of %.6g)", r->length_real, r->length,
                wt_instance_length_unit(inst));
    else if (wt_instance_type(inst) == WT_HAVERSINE)
        fprintf(out, "length    %" PRId64 " m", r->length);
    else
        fprintf(out, "length    %" PRId64, r->length);
    if (opt > 0)
        fprintf(out, "  (optimum %" PRId64 ", gap %.2f%%)", opt, cli_gap_percent(r->length, opt));
    if (r->open)
        fprintf(out, "  (open path from city %d to city %d; no closing edge)", r->tour[0] + 1,
                r->tour[r->n - 1] + 1);
    fprintf(out, "\n");
    char bound[48];
    int fixed = wt_instance_fixed_edges(inst, NULL);
    if (fixed > 0) fprintf(out, "fixed     %d edge%s kept\n", fixed, fixed == 1 ? "" : "s");
    if (r->lower_bound > 0)
        fprintf(out, "bound     %s  (proven: the tour is at most %.3f%% above the optimum)\n",
                length_text(inst, r->lower_bound, bound, sizeof bound), r->gap_to_bound_percent);
    if (r->stop != WT_STOP_DONE)
        fprintf(out, "stopped   %s: the tour is the best found so far\n",
                r->stop == WT_STOP_TIME_LIMIT ? "by the time limit" : "by an interrupt");
    fprintf(out, "time      %.3f s\n", r->time_s);
    if (o->output && written)
        fprintf(out, "tour      %s\n", cli_is_stdin(o->output) ? "<stdout>" : o->output);
    if (o->svg && written) fprintf(out, "picture   %s\n", o->svg);
    if (!written) fprintf(out, "outputs   not all written (below)\n");
}

static void add_sa_json(cJSON *j, const solve_opts *o, const wt_result *r)
{
    const wt_params *p = &o->params;
    if (r->host) cJSON_AddStringToObject(j, "sa_cpu", sa_cpu_name(p->sa_cpu));
    const wt_result_sa *sa = &r->sa;
    cJSON_AddNumberToObject(j, "searches", sa->searches);
    cJSON_AddNumberToObject(j, "moves_per_search", sa->moves_per_search);
    cJSON_AddNumberToObject(j, "t_start", p->sa_t_start);
    cJSON_AddNumberToObject(j, "t_end", p->sa_t_end);
    cJSON_AddNumberToObject(j, "alpha", p->sa_alpha);
    cJSON_AddNumberToObject(j, "sweeps", p->sa_sweeps);
    cJSON_AddNumberToObject(j, "exchange", p->sa_exchange);
    cli_json_add_uint64(j, "iterations", sa->iterations);
    cli_json_add_uint64(j, "accepted", sa->accepted);
    cJSON_AddNumberToObject(j, "temperature_final", sa->temperature_final);
    cJSON_AddNumberToObject(j, "near", p->sa_near);
    cJSON_AddBoolToObject(j, "polish", p->sa_polish);
    cli_json_add_int64(j, "sa_unpolished_length", sa->unpolished_length);
    cli_json_add_uint64(j, "polish_moves", sa->polish_moves);
    cJSON_AddNumberToObject(j, "polish_time_s", sa->polish_time_s);
}

static bool print_json(const solve_opts *o, const wt_instance *inst, const wt_result *r,
                       const char *write_error)
{
    cJSON *j = cJSON_CreateObject();
    cli_json_add_text(j, "instance", wt_instance_name(inst));
    cli_json_add_text(j, "file", cli_source_name(o->instance));
    cJSON_AddNumberToObject(j, "n", r->n);
    cJSON_AddStringToObject(j, "edge_weight_type",
                            wt_edge_weight_type_name(wt_instance_type(inst)));
    cJSON_AddStringToObject(j, "algorithm", wt_algorithm_name(o->params.algorithm));
    cJSON_AddStringToObject(j, "backend", r->backend);
    cJSON_AddStringToObject(j, "device", r->device);
    cli_json_add_uint64(j, "seed", o->params.seed);
    const char *init = o->start_tour ? "file" : wt_init_method_name(o->params.init);
    if (o->params.algorithm == WT_ALGO_MULTISTART) init = "random";
    cJSON_AddStringToObject(j, "init", init);
    const char *made = r->init_given ? "start-tour" : wt_init_method_name(r->init_made);
    cli_json_add_int64(j, "init_length", r->init_length);
    cli_json_add_int64(j, "length", r->length);
    cJSON_AddBoolToObject(j, "asymmetric", wt_instance_is_asymmetric(inst));
    if (wt_instance_is_real(inst) || wt_instance_length_unit(inst) != 1.0) {
        cJSON_AddNumberToObject(j, "length_real", r->length_real);
        cJSON_AddNumberToObject(j, "length_unit", wt_instance_length_unit(inst));
    }
    cli_json_add_optimum_and_gap(j, r->length, r->open ? -1 : wt_instance_known_optimum(inst));
    cJSON_AddBoolToObject(j, "open", r->open);
    if (r->open) {
        cJSON_AddNumberToObject(j, "path_start", r->tour[0] + 1);
        cJSON_AddNumberToObject(j, "path_end", r->tour[r->n - 1] + 1);
    }
    cJSON_AddNumberToObject(j, "fixed_edges", wt_instance_fixed_edges(inst, NULL));
    if (r->lower_bound > 0) {
        cli_json_add_int64(j, "lower_bound", r->lower_bound);
        if (wt_instance_is_real(inst) || wt_instance_length_unit(inst) != 1.0)
            cJSON_AddNumberToObject(j, "lower_bound_real", wt_length_real(inst, r->lower_bound));
        cJSON_AddNumberToObject(j, "gap_to_bound_percent", r->gap_to_bound_percent);
    } else {
        cJSON_AddNullToObject(j, "lower_bound");
        cJSON_AddNullToObject(j, "gap_to_bound_percent");
    }
    cJSON_AddStringToObject(j, "stop", wt_stop_reason_name(r->stop));
    cJSON_AddNumberToObject(j, "time_s", r->time_s);
    cJSON_AddNumberToObject(j, "init_time_s", r->init_time_s);
    cJSON_AddBoolToObject(j, "init_cut", r->init_cut);
    cJSON_AddStringToObject(j, "init_made", made);
    cli_json_add_uint64(j, "steps", r->steps);
    cli_json_add_uint64(j, "moves_evaluated", r->moves_evaluated);
    cJSON_AddNumberToObject(j, "search_time_s", r->search_time_s);
    cJSON_AddNumberToObject(j, "scan_time_s", r->scan.time_s);
    cJSON_AddNumberToObject(j, "moves_per_s", moves_per_second(r));
    if (o->params.algorithm != WT_ALGO_MULTISTART && o->params.algorithm != WT_ALGO_SA) {
        cJSON_AddNumberToObject(j, "swaps", o->params.swaps);
        cJSON_AddBoolToObject(j, "nested", o->params.kswap_nested);
        cJSON_AddNumberToObject(j, "band", o->params.kswap_band);
        cJSON_AddBoolToObject(j, "prune", o->params.prune);
        cli_json_add_uint64(j, "passes", r->scan.passes);
    }
    if (o->params.algorithm == WT_ALGO_SA) add_sa_json(j, o, r);
    if (o->params.algorithm == WT_ALGO_ILS) {
        cli_json_add_uint64(j, "kicks", r->ils.kicks);
        cli_json_add_uint64(j, "kicks_accepted", r->ils.kicks_accepted);
        cJSON_AddNumberToObject(j, "kicks_per_s", kicks_per_second(r));
        cJSON_AddNumberToObject(j, "gpu_time_s", r->ils.gpu_time_s);
        cJSON_AddNumberToObject(j, "concurrent_windows_s", r->ils.concurrent_windows_s);
        /* its name of 0.1.0, kept for one release (docs/json.md) */
        cJSON_AddNumberToObject(j, "gpu_span_s", r->ils.concurrent_windows_s);
        cJSON_AddStringToObject(j, "ils_descent", wt_ils_descent_name(r->ils.descent));
        cli_json_add_string_or_null(j, "ascent_device",
                                    r->ascent.device[0] ? r->ascent.device : NULL);
        cJSON_AddNumberToObject(j, "ascent_iterations", r->ascent.iterations);
        cJSON_AddNumberToObject(j, "ascent_time_s", r->ascent.time_s);
    }
    if (o->params.algorithm == WT_ALGO_MULTISTART) {
        cli_json_add_uint64(j, "restarts", o->params.restarts);
        cli_json_add_uint64(j, "climbs", r->multistart.climbs);
        cli_json_add_uint64(j, "best_climb", r->multistart.best_climb);
    }
    cli_json_add_string_or_null(j, "output", o->output);
    cli_json_add_string_or_null(j, "svg", o->svg);
    cli_json_add_string_or_null(j, "write_error", write_error);
    if (o->json_tour && !cli_json_add_tour(j, "tour", r->tour, r->n)) {
        cJSON_Delete(j);
        fprintf(stderr, "warptour: out of memory writing the tour into the JSON\n");
        return false;
    }
    return cli_json_print(j);
}

/* Writes the tour and the picture, the picture even when the tour failed;
 * returns an exit status (0 when fine) and leaves the last failure in err. */
static int write_outputs(const solve_opts *o, const wt_instance *inst, const wt_result *r,
                         wt_error *err)
{
    int status = EXIT_OK;
    char comment[160], length[48];
    length_text(inst, r->length, length, sizeof length); /* in the instance's units */
    snprintf(comment, sizeof comment, "%slength %s by warptour %s (%s, seed %" PRIu64 ")",
             r->open ? "open path (no closing edge) of " : "", length, WT_VERSION,
             wt_algorithm_name(o->params.algorithm), o->params.seed);
    if (o->output && cli_write_tour(o->output, o->format, wt_instance_name(inst), comment,
                                    r->tour, r->n, err) != WT_OK)
        status = EXIT_FAILURE_RUN;
    if (o->svg) {
        char title[256];
        int64_t opt = r->open ? -1 : wt_instance_known_optimum(inst);
        int k = snprintf(title, sizeof title, "%s: %d cities, %slength %s",
                         wt_instance_name(inst), r->n, r->open ? "open path " : "", length);
        if (opt > 0 && k > 0 && (size_t)k < sizeof title)
            snprintf(title + k, sizeof title - (size_t)k, " (%.2f%% above optimum)",
                     cli_gap_percent(r->length, opt));
        else if (r->lower_bound > 0 && k > 0 && (size_t)k < sizeof title)
            snprintf(title + k, sizeof title - (size_t)k, " (at most %.2f%% above optimum)",
                     r->gap_to_bound_percent);
        wt_error svg_err = {0};
        wt_status drawn = r->open ? wt_open_path_write_svg(o->svg, inst, r->tour, title, &svg_err)
                                  : wt_tour_write_svg(o->svg, inst, r->tour, title, &svg_err);
        if (drawn != WT_OK) {
            if (status != EXIT_OK) fprintf(stderr, "warptour: %s\n", err->message);
            *err = svg_err;
            status = EXIT_FAILURE_RUN;
        }
    }
    return status;
}

/* Reads --start-tour into *tour; returns an exit status (0 when fine). */
static int load_start_tour(const solve_opts *o, const wt_instance *inst, int32_t **tour)
{
    wt_error err = {0};
    if (!o->start_tour) return EXIT_OK;
    if (wt_tour_read_tsplib(o->start_tour, wt_instance_n(inst), tour, &err) != WT_OK)
        return cli_report_error(&err);
    return EXIT_OK;
}

static int stop_exit_status(wt_stop_reason r)
{
    switch (r) {
    case WT_STOP_DONE: return EXIT_OK;
    case WT_STOP_TIME_LIMIT: return EXIT_TIME_LIMIT;
    case WT_STOP_INTERRUPTED: /* the shell's way: 128 + the signal (130 for Ctrl-C) */
        return interrupted > 0 ? 128 + interrupted : EXIT_INTERRUPTED;
    }
    return EXIT_FAILURE_RUN;
}

/* The files the run will write, checked before it starts: a long search
 * should not end in "cannot write".  hold[0] and hold[1] get the FIFOs of
 * --output and --svg held open (cli_check_output), else -1.  Returns an
 * exit status (0 when fine). */
static int check_outputs(const solve_opts *o, const wt_instance *inst, int hold[2])
{
    hold[0] = hold[1] = -1;
    double lo[3], hi[3];
    bool to_stdout = o->output && cli_is_stdin(o->output);
    if (o->output && !to_stdout && cli_same_file(o->output, o->instance))
        return cli_usage_error("solve", "--output %s is the instance file; writing the tour "
                               "there would destroy it", o->output);
    if (o->svg && !cli_is_stdin(o->instance) && cli_same_file(o->svg, o->instance))
        return cli_usage_error("solve", "--svg %s is the instance file", o->svg);
    if (o->output && o->svg && cli_same_file(o->output, o->svg))
        return cli_usage_error("solve", "--output and --svg name the same file %s", o->output);
    int st;
    if (o->output && !to_stdout && (st = cli_check_output(o->output, true, &hold[0])) != EXIT_OK)
        return st;
    if (!o->svg) return EXIT_OK;
    if (!wt_instance_bbox(inst, lo, hi)) {
        fprintf(stderr, "warptour: %s: cannot draw %s: the instance has no coordinates\n", o->svg,
                wt_instance_name(inst));
        return EXIT_BAD_INPUT;
    }
    return cli_check_output(o->svg, false, &hold[1]);
}

/* --start and --end, checked against the instance's cities, into
 * params (0-based); returns an exit status (0 when fine). */
static int apply_path_ends(solve_opts *o, const wt_instance *inst)
{
    int n = wt_instance_n(inst);
    const char *names[2] = {"--start", "--end"};
    int64_t given[2] = {o->start_city, o->end_city};
    for (int k = 0; k < 2; k++)
        if (given[k] > n)
            return cli_usage_error("solve", "%s %" PRId64 ": %s has %d cities (1 to %d)",
                                   names[k], given[k], wt_instance_name(inst), n, n);
    if (given[0] > 0 && given[0] == given[1])
        return cli_usage_error("solve", "--start and --end are both city %" PRId64 "; an open "
                               "path's ends are two cities", given[0]);
    o->params.start_city = (int)given[0] - 1;
    o->params.end_city = (int)given[1] - 1;
    return EXIT_OK;
}

static void release(int hold[2])
{
    for (int k = 0; k < 2; k++)
        if (hold[k] >= 0) close(hold[k]);
}

int cmd_solve(int argc, char **argv)
{
    solve_opts o;
    int status = parse_args(argc, argv, &o);
    if (status >= 0) return status;
    /* From here on a stop signal stops the search, not the program: one
     * that comes while a large file is read, or while the GPU starts up
     * (seconds on a machine whose driver is not loaded yet), is seen by
     * wt_solve at its start, which then still writes a tour. */
    install_stop_handlers();
    double t_read = cli_now(); /* --time-limit counts from here: reading is the user's wait too */
    wt_instance *inst = cli_read_instance_noted(o.instance, o.metric, !o.quiet, &status);
    if (!inst) {
        remove_stop_handlers();
        return status;
    }
    if (o.optimum > 0) wt_instance_set_known_optimum(inst, o.optimum);
    int hold[2] = {-1, -1};
    /* Under mpirun, rank 0 alone writes the files. */
    bool speaks = cli_mpi_rank() == 0;
    if (!speaks) o.output = o.svg = NULL;
    status = apply_path_ends(&o, inst);
    if (status == EXIT_OK) status = check_outputs(&o, inst, hold);
    if (status != EXIT_OK) {
        release(hold);
        remove_stop_handlers();
        wt_instance_free(inst);
        return status;
    }

    int32_t *start = NULL;
    status = load_start_tour(&o, inst, &start);
    status = cli_mpi_agree(status); /* no rank searches while another failed */
    bool open = o.params.open || o.params.end_city >= 0; /* the optimum is a tour's */
    progress_state ps = {.optimum = open ? -1 : wt_instance_known_optimum(inst), .inst = inst,
                         .limit = o.params.time_limit_s > 0 ? o.params.time_limit_s : 0,
                         .open = open};
    wt_result res = {0};
    if (status == EXIT_OK) {
        o.params.start_tour = start;
        limit_after_reading(&o.params, t_read, &ps);
        if (!o.quiet && !o.json && isatty(STDERR_FILENO)) {
            o.params.progress = show_progress;
            o.params.progress_user = &ps;
            /* Seconds at millions of cities before the first progress line:
             * say what is going on (the progress line overwrites it). */
            if (!start && wt_instance_n(inst) >= 100000 &&
                o.params.algorithm != WT_ALGO_MULTISTART) {
                fprintf(stderr, "building the %s start tour of %d cities ...",
                        wt_init_method_name(o.params.init), wt_instance_n(inst));
                fflush(stderr);
                ps.shown = true;
            }
        }
        o.params.stop_flag = (const volatile int *)&interrupted;
        wt_error err = {0};
        if (cli_mpi_solve(inst, &o.params, &res, &err) != WT_OK) status = cli_report_error(&err);
        if (ps.shown) fputc('\n', stderr);
    }
    /* The handler stays until the program ends: a second Ctrl-C then
     * cannot leave a half-written tour file behind, nor, after a fast
     * write, turn the first's exit status into a death by signal (as in
     * solve-batch).  A tour that cannot be
     * written (a full disk, a folder deleted meanwhile) still has its report,
     * so the search's result is not lost; the error comes last, exit 1. */
    wt_error write_err = {0};
    int write_status =
        status == EXIT_OK && speaks ? write_outputs(&o, inst, &res, &write_err) : EXIT_OK;
    release(hold);
    if (status == EXIT_OK && speaks) {
        const char *why = write_status != EXIT_OK ? write_err.message : NULL;
        if (o.json) {
            if (!print_json(&o, inst, &res, why)) status = EXIT_FAILURE_RUN;
        } else if (!o.quiet) {
            /* A tour on stdout keeps stdout for itself. */
            FILE *out = o.output && cli_is_stdin(o.output) ? stderr : stdout;
            print_report(out, &o, inst, &res, write_status == EXIT_OK);
        }
        if (why) {
            fflush(stdout);
            fprintf(stderr, "warptour: %s\n", why);
            status = EXIT_FAILURE_RUN;
        }
        if (status == EXIT_OK) status = stop_exit_status(res.stop);
    }
    wt_result_free(&res);
    free(start);
    wt_instance_free(inst);
    return status;
}
