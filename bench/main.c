/*
 * main.c - warptour-bench, the benchmarks: measurements, printed as plain
 * lines.
 *
 * Benchmarks are a program of their own, beside the warptour program and
 * built against the same library (public header, plus the internal hook of
 * src/algo/bench_hooks.h for the thread-per-climber baseline of bench
 * multistart).  Each mode has fixed seeds and prints what it measured,
 * the machine, the commit and the command, one "key=value" result per line
 * so that scripts can collect them (zstd's -b mode is the model).  They are
 * never pass/fail tests.  bench/README.md says how to run them and how to
 * record results in bench/RESULTS.md.
 *
 *   io-init            reading a TSPLIB file and building each start tour
 *                      (bench_io_init.c)
 *   multistart         random-restart 2-opt throughput, O'Neil & Burtscher
 *                      2015, Figure 6 (bench_multistart.c)
 *   quality            multistart's gap to the optimum by size, their
 *                      Figure 7 (bench_quality.c)
 *   pass               one full 2-opt pass, Rocki & Suda 2013, Table II
 *                      (bench_pass.c)
 *   ls                 greedy tour to the first 2-opt local minimum, same
 *                      table (bench_ls.c)
 *   kswap              k-swap speedup over k = 1, Robinson et al. 2018,
 *                      Figure 6 (bench_kswap.c)
 *   ils                Iterated Local Search's gap over time (bench_ils.c)
 *   sa                 simulated annealing, Lam et al. Tables 2-4
 *                      (bench_sa.c)
 *   timeline           best length against wall-clock time from process
 *                      start, beside peer programs (bench_timeline.c,
 *                      which parses its own options; timeline_proc.c,
 *                      timeline_peers.c)
 *   batch              solve-batch on issue 25's sets (bench_batch.c, which
 *                      parses its own options)
 *   ascent             the Held-Karp ascent of each backend on the same
 *                      graph, time and equality (bench_ascent.c, which
 *                      parses its own options)
 *
 * This file parses the command line, prints the header and dispatches.  It
 * alone includes the commit (WT_GIT_COMMIT, in the build folder's wt_commit.h,
 * written at every build by bench/commit.cmake), so the header is printed
 * here.  The options that set wt_params (seed, backend, threads, time limit,
 * k-swap, ILS and SA options, --device, --tune) are solve's, from the shared
 * table (cli/common/cli_common.h).
 */
#include <getopt.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"
#include "wt_commit.h"

static const char bench_help[] =
    "Usage: warptour-bench NAME [OPTIONS]\n"
    "\n"
    "Benchmarks (NAME): io-init, multistart, quality, pass, ls, kswap, ils, sa,\n"
    "timeline, batch, ascent (the last three: options after the name).\n"
    "Each prints the commit, the machine and the command first, then one\n"
    "'bench=NAME key=value ...' line per result, then (all but io-init) a summary\n"
    "table.  Lines starting with '#' are notes.  Every run uses fixed seeds.\n"
    "\n"
    "io-init [--n N] [--seed S] [--repeat R]\n"
    "  Writes a uniform random instance of N cities (default 1000000) to a temporary\n"
    "  file, times reading it back, then times each start tour (random, spacefill,\n"
    "  nearest, greedy) and the local searches' candidate lists (the 10 nearest\n"
    "  cities a city, the 8 quadrant neighbours) on it, one thread; best of R runs\n"
    "  (default 3).\n"
    "\n"
    "multistart [--instance PATH] [--sizes LIST] [--variants LIST] [--seconds S]\n"
    "           [--repeat R] [--seed S]\n"
    "  Throughput of random-restart 2-opt hill climbing, in 2-opt moves evaluated\n"
    "  per second ((n-1)(n-2)/2 per improving move), on the first n cities of d18512\n"
    "  (O'Neil & Burtscher 2015, Figure 6).  Variants: cuda (one climber per thread\n"
    "  block: ours), cuda-thread (one climber per thread: the prior-art baseline),\n"
    "  cpu (one climber per core).  The number of climbs is calibrated so that a\n"
    "  run fills the device and lasts about S seconds (default 1.2; the cpu variant\n"
    "  aims at min(S, 1)); best of R runs (default 3).  CUDA variants are skipped\n"
    "  with a note when no GPU is usable.\n"
    "  --instance PATH   default: d18512.tsp in the TSPLIB folder (see --dir)\n"
    "  --sizes LIST      city counts, comma-separated (default 100,200,500,1000,2000,5000)\n"
    "  --variants LIST   default cuda,cuda-thread,cpu\n"
    "\n"
    "quality [--dir DIR] [--min-n N] [--max-n N] [--climbs C] [--backend B] [--seed S]\n"
    "  Runs multistart with C climbs (default 100000) on every TSPLIB instance in DIR\n"
    "  with --min-n (default 1) to --max-n (default 2000) cities and coordinates\n"
    "  (EXPLICIT ones are left out), and reports the gap of the best tour to the known optimum "
    "and the wall\n"
    "  time, per instance and per size bin (1-250, 251-500, 501-1000, 1001-1500,\n"
    "  1501-2000, as in Figure 7 of the paper; 2001+ above).  --backend: auto\n"
    "  (default), cpu, cuda.  DIR: the TSPLIB folder, by default the first of\n"
    "  $WT_TSPLIB_DIR, ../shared/tsplib and gpu-data/tsplib (relative to the\n"
    "  current folder: a checkout's neighbour, or what scripts/fetch-gpu-deps.sh\n"
    "  prepares) that exists.\n"
    "\n"
    "pass [--instances LIST] [--max-n N] [--variants LIST] [--init M] [--repeat R]\n"
    "     [--threads T] [--dir DIR] [--seed S] [--prune on|off]\n"
    "  Time of one full 2-opt pass (all (n-1)(n-2)/2 moves checked once) and checks\n"
    "  per second, per instance, beside the GTX 680 figures of Rocki & Suda 2013,\n"
    "  Table II: a 2opt run with --swaps 1 from the start tour M (default greedy,\n"
    "  built once), stopped by its progress callback after the first scan.  The\n"
    "  time is the scan's (cuda: the pass kernel's, from CUDA events; cpu: its wall\n"
    "  time); \"with copies\" beside it is the whole search per pass (uploads,\n"
    "  candidates, the move applied).  Best of R runs (default 3; a pass over 1 s\n"
    "  runs once).  Variants: cuda, cpu (default both; cuda is skipped with a note\n"
    "  where no GPU is usable).  --max-n: largest instance\n"
    "  (default 20000 on the cpu, none on cuda).\n"
    "  --instances LIST  default berlin52,kroA100,ch150,kroA200,lin318,pcb442,rat783,\n"
    "                    pr1002,pr2392,fnl4461,usa13509,d18512,pla33810,pla85900,\n"
    "                    sra104815,usa115475,ara238025,uniform1M.  A name is read\n"
    "                    from NAME.tsp in DIR, else DIR/large; a name with a '/' is\n"
    "                    a path; uniformN is a generated uniform instance of N\n"
    "                    cities (K, M suffixes allowed).  Missing ones are skipped.\n"
    "  --dir DIR         the TSPLIB folder (default as quality's)\n"
    "  --threads T       CPU threads (default: all cores)\n"
    "  --prune on|off    off (default): every pair checked, as the paper's pass;\n"
    "                    on: the pass skips what the segment bound rules out (as\n"
    "                    solve does); checked= and share= say how many it checked\n"
    "\n"
    "ls [--instances LIST] [--swaps LIST] [--max-n N] [--variants LIST] [--init M]\n"
    "   [--time-limit S] [--threads T] [--dir DIR] [--seed S]\n"
    "  Time from the start tour M (default greedy) to the first 2-opt local minimum,\n"
    "  for each --swaps value (default 1,all), with the start and final gap to the\n"
    "  optimum, beside Rocki & Suda's GTX 680 time to the first minimum (one move\n"
    "  per pass, Table II).  Instances as pass; --max-n default 5000 on the cpu,\n"
    "  40000 on cuda.  --time-limit S stops each run after S seconds: its time\n"
    "  is shown as >S and its gap is where it stood.  --nested and --band as\n"
    "  kswap's.  --prune on|off (ls, kswap, ils): as solve's (default on).\n"
    "\n"
    "kswap [--instances LIST] [--ks LIST] [--starts LIST] [--max-n N]\n"
    "      [--max-n-random N] [--variants LIST] [--nested on|off] [--band W]\n"
    "      [--time-limit S] [--threads T] [--dir DIR] [--seed S]\n"
    "  k-swap against best improvement (Robinson et al. 2018, Figure 6): time from\n"
    "  the start tour to the 2-opt local minimum for each k of --ks (default\n"
    "  1,8,64,512,all), the speedup over k = 1 and the tour length relative to k = 1,\n"
    "  from a random and a greedy start tour (--starts, default random,greedy).\n"
    "  Instances default fl1400,fl3795,fnl4461,pla7397,usa13509,pla33810.  --max-n:\n"
    "  largest instance from greedy starts (default 5000 on the cpu, none on cuda);\n"
    "  --max-n-random: from random starts, which take about n passes (default 2000\n"
    "  on the cpu, 15000 on cuda).  --time-limit S stops each run after S seconds\n"
    "  (shown as >S; a speedup over a k = 1 run that was stopped is a lower bound,\n"
    "  shown as >Nx).  --nested and --band choose the k-swap candidates and rule\n"
    "  for k > 1 as solve's options do (defaults: the library's, --nested on,\n"
    "  --band 64); k = 1 is plain best improvement whatever they say.\n"
    "\n"
    "ils [--instances LIST] [--seconds S] [--backend B] [--ils-descent D] [--interval I]\n"
    "    [--threads T] [--dir DIR] [--seed S]\n"
    "  Iterated Local Search for S seconds per instance (default 10, the greedy start\n"
    "  tour included), the best length sampled every I seconds (default 0.05) through\n"
    "  the progress callback: one line per sample, then per instance the final gap\n"
    "  and whether it was at most 3% above the optimum within 10 s (plot the lines\n"
    "  with scripts/plot_bench.py).  Instances\n"
    "  default pr2392,pcb3038,fnl4461,usa13509,d18512,pla85900.  --backend: auto\n"
    "  (default), cpu, cuda.  --ils-descent as solve's: auto (default: local), full\n"
    "  (the backend's 2-opt over all pairs after each kick), local (on the host,\n"
    "  --threads searches; with cuda the first descent on the GPU).  The backend\n"
    "  column says both: cpu/local, cuda/local, cuda/full, cpu/full.\n"
    "\n"
    "sa [--instances LIST] [--runs R] [--variants LIST] [--seconds S] [--searches TB]\n"
    "   [--moves TPB] [--tpb-sweep] [--parallel-runs P] [--near K] [--threads T]\n"
    "   [--dir DIR] [--seed S]\n"
    "  Simulated annealing from Ts = 10000 to Te = 0.1 (Lam et al., Table 1), R runs\n"
    "  (default 10, seeds S, S+1, ...) per instance and variant: mean SSES (moves\n"
    "  explored per second, equation 4) and SEC (% above optimal, equation 5) of the\n"
    "  annealed tour (\"raw %\") and after the 2-opt + Or-opt polish, as in\n"
    "  Table 2, and the mean time to reach the shortest cpu-sspm length of the same\n"
    "  invocation (Table 3's threshold; the paper does not list its values), beside\n"
    "  the paper's C2050 and Xeon X5650 figures.  Variants: cuda (PSPM: TB searches\n"
    "  of TPB moves, default from the device), cpu-sspm (one search, Pm moves, one\n"
    "  per thread), cpu-pssm (one search per thread, one move); default all three,\n"
    "  cuda skipped with a note when no GPU is usable.  --seconds: time limit per run\n"
    "  (default none).  --tpb-sweep: Table 4 instead, cuda TPB = cpu-sspm Pm = 4, 8,\n"
    "  12, 24, 32, 48, mean over the instances.  --parallel-runs P: the R runs of an\n"
    "  instance run P at a time, each in its own host thread (default: all R at once\n"
    "  for cuda, where one run leaves the GPU mostly idle; 1 for the cpu variants,\n"
    "  whose runs use every core); run r always has seed S + r, and the bench= lines\n"
    "  come in run order.  With P > 1 the runs share the device, so a run's SSES is\n"
    "  its share.  The table ends with the whole table's search time per variant\n"
    "  (\"whole table: X s of GPU time\") and its wall time.  --near K: every variant\n"
    "  draws local moves (solve --near; not the paper's).\n"
    "  Instances default to the paper's 20:\n"
    "  rd100,eil101,bier127,ch150,kroA150,pr152,u159,rat195,ts225,tsp225,gil262,\n"
    "  pr264,a280,pr299,lin318,rd400,fl417,pr439,pcb442,d493.\n"
    "\n"
    "timeline [PATH...] [--instances LIST] [--gen-uniform N] [--at LIST]\n"
    "         [--algorithm A] [--ils-descent D] [--backends LIST] [--threads T]\n"
    "         [--seed S] [--init M] [--tune NAME=VALUE]...\n"
    "         [--peer linkern=PATH] [--peer lkh=PATH] [--peer-runs N[,N...]]\n"
    "  The best tour length at the wall-clock times of --at (default 1,10,60 s) from\n"
    "  process start, the reading of the instance included: each run is a fresh\n"
    "  process (this program, re-executed) that lasts until max(--at), one per\n"
    "  instance and backend of --backends (default auto; e.g. auto,cpu), one at a\n"
    "  time.  --algorithm, --ils-descent: as solve's (default: ils, auto).\n"
    "  --gen-uniform N\n"
    "  adds `gen uniform N --seed 1` (in a temporary file).  --peer NAME=PATH\n"
    "  (repeatable) then runs a peer on each instance, after ours and alone:\n"
    "  linkern (Concorde's) as `PATH -s S -t MAX -R 1000000000 -o TMP FILE`, lkh\n"
    "  (LKH-3) as `PATH TMP.par` with RUNS = 1, SEED = S, TIME_LIMIT = MAX (and\n"
    "  POPMUSIC candidates from 3000 cities on); their length lines timestamped\n"
    "  as they arrive.  --peer-runs N runs N processes of each peer at once,\n"
    "  seeds S..S+N-1, the best of them at each time (column \"N linkerns\");\n"
    "  a list (1,16) runs each count in turn.  A run still going 2 s after\n"
    "  max(--at) is stopped (SIGTERM, then SIGKILL).  One 'bench=timeline' line\n"
    "  per run and time; gap_ref=optimum (known optimum) or bhh (uniform random\n"
    "  instances: 0.7124 sqrt(n A), A the bounding box's area), and the gap to\n"
    "  the lower bound our runs proved (none yet: bound=none); then a table with\n"
    "  ours/peer gap ratios and which tour is shorter.  Linux only.\n"
    "  --algorithm, --ils-descent, --threads, --seed, --init, --tune: solve's\n"
    "  options, passed on to each of our runs (the header names the start tour and\n"
    "  tunings): to compare start tours or tunings side by side, run it once for\n"
    "  each, e.g. --init greedy, then --init boruvka.\n"
    "\n"
    "batch [--set 100|1000|N] [--count B] [--seconds T] [--kicks K] [--refs DIR]\n"
    "      [--backend B] [--threads T] [--seed S] [--device N] [--gpu-threads G]\n"
    "      [--search auto|batch|lk] [--devices LIST]...\n"
    "  solve-batch on the sets of issues 25 and 41: 10,000 instances of 100 cities\n"
    "  in 10 s, 128 of 1,000 in 60 s (default both; --count the first B, --seconds\n"
    "  another limit, --kicks a fixed budget instead; --set N: B (default 1,000)\n"
    "  instances of N cities in T (default 10) s), instance i being `gen uniform N\n"
    "  --seed 1+i`; --search the instances' search; wall time, kicks, mean and\n"
    "  largest gap to the lengths of DIR/refs-N.tsv (default bench/batch;\n"
    "  scripts/batch_refs.py), and whether the target is met.\n"
    "  --devices up to four times (e.g. --devices 0 --devices 0,1): each set once per\n"
    "  GPU list, and a line of ratios (kicks per second, wall time, mean length) of\n"
    "  each list against the first.  Its options come after its name.\n"
    "\n"
    "ascent FILE... [--backends LIST] [--iterations N] [--period P] [--candidates K]\n"
    "       [--threads T] [--device N] [--seed S] [--step-time] [--stop-after S]\n"
    "       [--finish gpu|host|both] [--gpu-steps plain,compact,blocksN,splitN]\n"
    "       [--gpu-profile]\n"
    "  The Held-Karp ascent (the bound and the alpha candidates of the LK searches)\n"
    "  of each backend of --backends (default cpu,cuda) on the same sparse graph,\n"
    "  for the same steps: --iterations N (default 0: until the step rule ends),\n"
    "  first period P (default 100, the search's; 0: max(n / 2, 100)), K\n"
    "  candidates a city (default 5).  Per instance and backend: the graph's build\n"
    "  time, the ascent's wall time, steps, time a step, the graph's bound, the\n"
    "  proven bound and its gap below the known optimum; per instance the proven\n"
    "  bound's time alone (recomputed on the host), the first backend's time over\n"
    "  each other's (ratio) and whether their pi, bounds and candidate lists are\n"
    "  equal (equal=yes: bit for bit, as they must be).  FILE: a path, a TSPLIB name\n"
    "  (as --instances), or uniformN (N cities, --seed S).  A backend without the\n"
    "  ascent here is noted and left out; none left: exit 1.  --stop-after S: each\n"
    "  run's stop flag set S seconds into the whole ascent, and how long after it\n"
    "  the ascent returned.  --finish: where a GPU does the finish (both: twice).\n"
    "  --gpu-steps: each GPU backend once more for each variant of its Boruvka\n"
    "  rounds (plain: every round reads the graph; compact: the later rounds\n"
    "  read a list of the edges between components, at any size; blocksN: the\n"
    "  fused kernel at N blocks an SM; splitN: the steps shared with GPU N).\n"
    "  --gpu-profile: a GPU run's device time a tree by phase, and its rounds; and its\n"
    "    slot's wall clock by part (graph, open, steps, finish, bound wait, close).\n"
    "  Options after the name.\n"
    "\n"
    "Options shared with 'warptour solve' (the same names, values and checks):\n"
    "--seed, --backend, --threads, --time-limit, --init, --nested, --band,\n"
    "--prune, --ils-descent, --searches, --moves, --near, and where they apply\n"
    "(not io-init; --device not timeline, --tune not batch; ascent: --seed,\n"
    "--threads and --device only):\n"
    "  --device N        the GPU to use, as 'warptour devices' numbers them (default 0)\n"
    "  --tune NAME=VALUE experimental: a kernel shape or round length of the\n"
    "                    library's wt_tuning (docs/library.md; e.g. pass_rows=16,\n"
    "                    ms_block=64, ils_round_kicks=off; for one release also the\n"
    "                    names of 0.1.0, such as ils_epoch); repeatable\n"
    "\n"
    "Examples:\n"
    "  warptour-bench multistart\n"
    "  warptour-bench multistart --variants cpu --sizes 100,200 --seconds 0.3\n"
    "  warptour-bench quality --max-n 200 --climbs 1000\n"
    "  warptour-bench pass --instances berlin52,pr2392\n"
    "  warptour-bench ls --max-n 1000\n"
    "  warptour-bench kswap --max-n 1500 --ks 1,8,all\n"
    "  warptour-bench ils --instances pr2392 --seconds 3 > ils.txt\n"
    "  scripts/plot_bench.py ils.txt -o ils.svg\n"
    "  warptour-bench sa --instances rd100,eil101 --runs 1 --variants cpu-sspm,cpu-pssm\n"
    "  warptour-bench timeline pr2392.tsp --gen-uniform 100000 --at 1,10 \\\n"
    "      --peer linkern=../shared/peers/linkern\n"
    "  warptour-bench ascent pr1002 pla85900 uniform1M --backends cpu,cuda\n"
    "  warptour-bench timeline usa13509.tsp --at 1,10,60 --peer-runs 16 \\\n"
    "      --peer linkern=../shared/peers/linkern --peer lkh=../shared/peers/lkh\n";

static const char *const bench_names[BENCH_COUNT] = {
    "io-init", "multistart", "quality", "pass", "ls", "kswap", "ils", "sa"};

/* Default --instances of pass and ls (Rocki & Suda's Table II sizes, up to
 * a generated million), kswap (Robinson et al.'s Figure 6) and ils. */
static const char two_opt_instances[] =
    "berlin52,kroA100,ch150,kroA200,lin318,pcb442,rat783,pr1002,pr2392,fnl4461,usa13509,"
    "d18512,pla33810,pla85900,sra104815,usa115475,ara238025,uniform1M";
static const char kswap_instances[] = "fl1400,fl3795,fnl4461,pla7397,usa13509,pla33810";
static const char ils_instances[] = "pr2392,pcb3038,fnl4461,usa13509,d18512,pla85900";
/* Lam et al.'s 20 instances (Tables 2 and 3). */
static const char sa_instances[] =
    "rd100,eil101,bier127,ch150,kroA150,pr152,u159,rat195,ts225,tsp225,gil262,pr264,a280,"
    "pr299,lin318,rd400,fl417,pr439,pcb442,d493";

/* The CPU model from /proc/cpuinfo (Linux), or "?". */
static void cpu_model(char *buf, size_t size)
{
    snprintf(buf, size, "?");
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f) return;
    char line[256];
    while (fgets(line, sizeof line, f)) {
        char *colon = strchr(line, ':');
        if (strncmp(line, "model name", 10) == 0 && colon) {
            colon += 1 + (colon[1] == ' ');
            colon[strcspn(colon, "\n")] = '\0';
            snprintf(buf, size, "%s", colon);
            break;
        }
    }
    fclose(f);
}

/* The command as typed: getopt_long reorders argv, so it is kept first. */
static char command_line[1024];

static void save_command(int argc, char **argv)
{
    size_t used = 0;
    command_line[0] = '\0';
    for (int i = 0; i < argc && used < sizeof command_line; i++)
        used += (size_t)snprintf(command_line + used, sizeof command_line - used, " %s", argv[i]);
}

/* The commit built, or where the build could not ask git (a copy of the
 * working tree on a GPU machine), the one $WT_GIT_COMMIT names. */
static const char *bench_commit(void)
{
    const char *env = getenv("WT_GIT_COMMIT");
    if (strcmp(WT_GIT_COMMIT, "unknown") == 0 && env && env[0]) return env;
    return WT_GIT_COMMIT;
}

static void print_header(void)
{
    char host[128] = "?", cpu[128];
    gethostname(host, sizeof host);
    cpu_model(cpu, sizeof cpu);
    char gpu[160];
    bool has_gpu = wt_cuda_available(gpu, sizeof gpu);
    printf("# warptour %s, commit %s\n", WT_VERSION, bench_commit());
    printf("# machine: %s, %s, %d CPU cores; GPU: %s\n", host, cpu, omp_get_num_procs(),
           has_gpu ? gpu : "none");
    printf("# command: warptour-bench%s\n", command_line);
    fflush(stdout);
}

/* ------------------------------------------------------------ arguments */

/* Hands each item of the list s (at most 1023 characters) to take; false
 * when s is too long, names no item, or take refuses one. */
static bool each_listed(const char *s, bench_take_fn *take, void *user)
{
    char buf[1024];
    return bench_each_listed(s, buf, sizeof buf, take, user) > 0;
}

static bool take_size(const char *item, void *user)
{
    bench_opts *o = user;
    if (o->n_sizes == BENCH_MAX_LIST) return false;
    if (!cli_parse_int64(item, 5, WT_MAX_CITIES, &o->sizes[o->n_sizes])) return false;
    o->n_sizes++;
    return true;
}

/* Parses "a,b,c" into sizes; false on junk, sizes < 5 or too many. */
static bool parse_sizes(const char *s, bench_opts *o)
{
    o->n_sizes = 0;
    return each_listed(s, take_size, o);
}

/* Names of --variants for a benchmark, and how many; on[] the ones given. */
typedef struct name_set {
    const char *const *names;
    int count;
    bool *on;
    int given; /* items of the list so far, repeats included */
} name_set;

enum { MAX_NAMES_GIVEN = 32 }; /* items of a list of names, repeats included */

static bool take_name(const char *item, void *user)
{
    name_set *set = user;
    if (set->given == MAX_NAMES_GIVEN) return false;
    set->given++;
    for (int v = 0; v < set->count; v++)
        if (strcmp(item, set->names[v]) == 0) {
            set->on[v] = true;
            return true;
        }
    return false;
}

static bool parse_names(const char *s, const char *const *names, int count, bool *on)
{
    for (int v = 0; v < count; v++) on[v] = false;
    name_set set = {names, count, on, 0};
    return each_listed(s, take_name, &set);
}

static const char *const ms_variant_names[MS_N_VARIANTS] = {"cuda", "cuda-thread", "cpu"};
static const char *const start_names[KS_N_STARTS] = {"random", "greedy"};
static const char *const sa_variant_names[SA_N_VARIANTS] = {"cuda", "cpu-sspm", "cpu-pssm"};

/* The ks of --swaps or --ks read so far. */
typedef struct k_list {
    int *ks;
    int n;
} k_list;

/* A k of --swaps or --ks: a positive integer or "all" (0). */
static bool take_k(const char *item, void *user)
{
    k_list *list = user;
    int64_t v;
    if (list->n == BENCH_MAX_LIST) return false;
    if (strcmp(item, "all") == 0) v = 0;
    else if (!cli_parse_int64(item, 1, 1 << 30, &v)) return false;
    list->ks[list->n++] = (int)v;
    return true;
}

/* Ascending, "all" (0) last, duplicates dropped. */
static int cmp_k(const void *a, const void *b)
{
    unsigned x = (unsigned)*(const int *)a - 1u, y = (unsigned)*(const int *)b - 1u;
    return x < y ? -1 : x > y;
}

static bool parse_ks(const char *s, int *ks, int *count)
{
    k_list list = {ks, 0};
    if (!each_listed(s, take_k, &list)) return false;
    qsort(ks, (size_t)list.n, sizeof *ks, cmp_k);
    int kept = 0;
    for (int i = 0; i < list.n; i++)
        if (kept == 0 || ks[kept - 1] != ks[i]) ks[kept++] = ks[i];
    *count = kept;
    return true;
}

static bool take_instance(const char *item, void *user)
{
    bench_opts *o = user;
    if (o->n_instances == BENCH_MAX_LIST) return false;
    o->instances[o->n_instances++] = item;
    return true;
}

/* --instances: the names are kept in o->names_buf. */
static bool parse_instances(const char *s, bench_opts *o)
{
    o->n_instances = 0;
    return bench_each_listed(s, o->names_buf, sizeof o->names_buf, take_instance, o) > 0;
}

/* The benchmarks' own options without a one-letter form; the ones that set
 * wt_params are the shared table's (CLI_OPT_*, BENCH_PARAMS). */
enum {
    OPT_INSTANCES = 256, OPT_MAX_N_RANDOM, OPT_SWAPS, OPT_KS, OPT_STARTS, OPT_INTERVAL,
    OPT_RUNS, OPT_TPB_SWEEP, OPT_PARALLEL_RUNS, OPT_MIN_N
};

/* The shared options the benchmarks (but timeline, batch and ascent) take. */
#define BENCH_PARAMS                                                                       \
    (CLI_PARAM(CLI_OPT_SEED) | CLI_PARAM(CLI_OPT_BACKEND) | CLI_PARAM(CLI_OPT_THREADS) |    \
     CLI_PARAM(CLI_OPT_TIME_LIMIT) | CLI_PARAM(CLI_OPT_INIT) | CLI_PARAM(CLI_OPT_NESTED) |  \
     CLI_PARAM(CLI_OPT_BAND) | CLI_PARAM(CLI_OPT_PRUNE) | CLI_PARAM(CLI_OPT_ILS_DESCENT) |  \
     CLI_PARAM(CLI_OPT_SEARCHES) | CLI_PARAM(CLI_OPT_MOVES) | CLI_PARAM(CLI_OPT_NEAR) |     \
     CLI_PARAM(CLI_OPT_DEVICE) | CLI_PARAM(CLI_OPT_TUNE))

static const struct option bench_own_opts[] = {
    {"n", required_argument, 0, 'n'},        {"repeat", required_argument, 0, 'r'},
    {"instance", required_argument, 0, 'I'}, {"sizes", required_argument, 0, 'z'},
    {"variants", required_argument, 0, 'v'}, {"seconds", required_argument, 0, 'S'},
    {"dir", required_argument, 0, 'd'},      {"max-n", required_argument, 0, 'm'},
    {"climbs", required_argument, 0, 'c'},   {"help", no_argument, 0, 'h'},
    {"instances", required_argument, 0, OPT_INSTANCES},
    {"max-n-random", required_argument, 0, OPT_MAX_N_RANDOM},
    {"swaps", required_argument, 0, OPT_SWAPS},
    {"ks", required_argument, 0, OPT_KS},
    {"starts", required_argument, 0, OPT_STARTS},
    {"interval", required_argument, 0, OPT_INTERVAL},
    {"runs", required_argument, 0, OPT_RUNS},
    {"tpb-sweep", no_argument, 0, OPT_TPB_SWEEP},
    {"parallel-runs", required_argument, 0, OPT_PARALLEL_RUNS},
    {"min-n", required_argument, 0, OPT_MIN_N},
    {0, 0, 0, 0}};

#define FOR(b) (1u << (b))
/* The benchmarks an option applies to (bits FOR(BENCH_*)). */
static unsigned option_owners(int c)
{
    const unsigned two_opt = FOR(BENCH_PASS) | FOR(BENCH_LS) | FOR(BENCH_KSWAP);
    switch (c) {
    case 'n': return FOR(BENCH_IO_INIT);
    case CLI_OPT_SEED: return ~0u;
    case CLI_OPT_DEVICE: case CLI_OPT_TUNE: return ~FOR(BENCH_IO_INIT);
    case 'r': return FOR(BENCH_IO_INIT) | FOR(BENCH_MULTISTART) | FOR(BENCH_PASS);
    case 'I': case 'z': return FOR(BENCH_MULTISTART);
    case 'v': return FOR(BENCH_MULTISTART) | two_opt | FOR(BENCH_SA);
    case 'S': return FOR(BENCH_MULTISTART) | FOR(BENCH_ILS) | FOR(BENCH_SA);
    case 'd': return FOR(BENCH_QUALITY) | two_opt | FOR(BENCH_ILS) | FOR(BENCH_SA);
    case 'm': return FOR(BENCH_QUALITY) | two_opt;
    case 'c': case OPT_MIN_N: return FOR(BENCH_QUALITY);
    case CLI_OPT_BACKEND: return FOR(BENCH_QUALITY) | FOR(BENCH_ILS);
    case OPT_INSTANCES: case CLI_OPT_THREADS: return two_opt | FOR(BENCH_ILS) | FOR(BENCH_SA);
    case OPT_RUNS: case OPT_TPB_SWEEP: case CLI_OPT_SEARCHES: case CLI_OPT_MOVES:
    case OPT_PARALLEL_RUNS: case CLI_OPT_NEAR: return FOR(BENCH_SA);
    case OPT_MAX_N_RANDOM: case OPT_KS: case OPT_STARTS: return FOR(BENCH_KSWAP);
    case CLI_OPT_INIT: return FOR(BENCH_PASS) | FOR(BENCH_LS);
    case OPT_SWAPS: return FOR(BENCH_LS);
    case CLI_OPT_TIME_LIMIT: case CLI_OPT_NESTED: case CLI_OPT_BAND:
        return FOR(BENCH_LS) | FOR(BENCH_KSWAP);
    case CLI_OPT_PRUNE: return two_opt | FOR(BENCH_ILS);
    default: return FOR(BENCH_ILS); /* interval, ils-descent */
    }
}

/* Parses one of the benchmarks' own options into o, or a shared one into
 * shared; -1 when fine, else an exit status.  --variants is only kept: its
 * names depend on the benchmark. */
static int parse_bench_option(int c, const char *arg, bench_opts *o, wt_params *shared,
                              const char **variants)
{
    int64_t v;
    switch (c) {
    case 'n':
        if (!cli_parse_int64(arg, 3, WT_MAX_CITIES, &o->n))
            return cli_usage_error(NULL, "--n needs an integer >= 3");
        break;
    case 'r':
        if (!cli_parse_int64(arg, 1, 1000, &o->repeat))
            return cli_usage_error(NULL, "--repeat needs an integer in 1..1000");
        break;
    case 'I': o->instance = arg; break;
    case 'z':
        if (!parse_sizes(arg, o))
            return cli_usage_error(NULL, "--sizes needs a comma-separated list of at most "
                                   "%d city counts >= 5, got '%s'", BENCH_MAX_LIST, arg);
        break;
    case 'v': *variants = arg; break;
    case 'S':
        if (!cli_parse_double(arg, 0.01, 3600, &o->seconds))
            return cli_usage_error(NULL, "--seconds needs a number in 0.01..3600, got '%s'",
                                   arg);
        break;
    case 'd': o->dir = arg; break;
    case 'm':
        if (!cli_parse_int64(arg, 3, WT_MAX_CITIES, &o->max_n))
            return cli_usage_error(NULL, "--max-n needs an integer >= 3, got '%s'", arg);
        break;
    case 'c':
        if (!cli_parse_uint64(arg, &o->climbs) || o->climbs == 0)
            return cli_usage_error(NULL, "--climbs needs a positive integer, got '%s'", arg);
        break;
    case OPT_INSTANCES:
        if (!parse_instances(arg, o))
            return cli_usage_error(NULL, "--instances needs a comma-separated list of at "
                                   "most %d names, got '%s'", BENCH_MAX_LIST, arg);
        break;
    case OPT_MIN_N:
        if (!cli_parse_int64(arg, 1, WT_MAX_CITIES, &o->min_n))
            return cli_usage_error(NULL, "--min-n needs an integer >= 1, got '%s'", arg);
        break;
    case OPT_MAX_N_RANDOM:
        if (!cli_parse_int64(arg, 3, WT_MAX_CITIES, &o->max_n_random))
            return cli_usage_error(NULL, "--max-n-random needs an integer >= 3, got '%s'",
                                   arg);
        break;
    case OPT_SWAPS:
        if (!parse_ks(arg, o->swaps, &o->n_swaps))
            return cli_usage_error(NULL, "--swaps needs a comma-separated list of positive "
                                   "integers and 'all', got '%s'", arg);
        break;
    case OPT_KS:
        if (!parse_ks(arg, o->ks, &o->n_ks))
            return cli_usage_error(NULL, "--ks needs a comma-separated list of positive "
                                   "integers and 'all', got '%s'", arg);
        break;
    case OPT_STARTS:
        if (!parse_names(arg, start_names, KS_N_STARTS, o->start_on))
            return cli_usage_error(NULL, "--starts needs a comma-separated list of random, "
                                   "greedy, got '%s'", arg);
        break;
    case OPT_RUNS:
        if (!cli_parse_int64(arg, 1, 1000, &o->runs))
            return cli_usage_error(NULL, "--runs needs an integer in 1..1000, got '%s'", arg);
        break;
    case OPT_TPB_SWEEP: o->tpb_sweep = true; break;
    case OPT_PARALLEL_RUNS:
        if (!cli_parse_int64(arg, 1, 1000, &v))
            return cli_usage_error(NULL, "--parallel-runs needs an integer in 1..1000, got "
                                   "'%s'", arg);
        o->parallel_runs = (int)v;
        break;
    case OPT_INTERVAL:
        if (!cli_parse_double(arg, 0.001, 60, &o->interval))
            return cli_usage_error(NULL, "--interval needs a number in 0.001..60, got '%s'",
                                   arg);
        break;
    default: return cli_parse_param(NULL, c, arg, shared, &o->tuning);
    }
    return -1;
}

static const char *option_name(const struct option *longopts, int c)
{
    for (const struct option *lo = longopts; lo->name; lo++)
        if (lo->val == c) return lo->name;
    return "?";
}

static bool option_given(const int *given, int n_given, int c)
{
    for (int i = 0; i < n_given; i++)
        if (given[i] == c) return true;
    return false;
}

/* The shared options, parsed into a wt_params, onto o's fields; its
 * defaults are the benchmarks' (those of wt_params_defaults) but for
 * --prune, whose default is the benchmark's own (-1). */
static void take_shared(const wt_params *p, const int *given, int n_given, bench_opts *o)
{
    o->seed = p->seed;
    o->backend = p->backend;
    o->threads = p->threads;
    o->time_limit = p->time_limit_s;
    o->init = p->init;
    o->nested = p->kswap_nested;
    o->band = p->kswap_band;
    if (option_given(given, n_given, CLI_OPT_PRUNE)) o->prune = p->prune;
    o->ils_descent = p->ils_descent;
    o->sa_searches = p->sa_searches;
    o->sa_moves = p->sa_moves;
    o->sa_near = p->sa_near;
    o->device = p->cuda_device; /* --tune went into o->tuning itself */
}

/* Defaults that depend on the benchmark, for the options not given, and
 * --variants (given or not); -1 when fine, else an exit status. */
static int bench_defaults(bench_id which, const int *given, int n_given, const char *variants,
                          bench_opts *o)
{
    if (!option_given(given, n_given, 'S'))
        o->seconds = which == BENCH_ILS ? 10.0 : which == BENCH_SA ? 0 : 1.2;
    if (!option_given(given, n_given, 'm') && which == BENCH_QUALITY) o->max_n = 2000;
    if (!option_given(given, n_given, OPT_INSTANCES)) {
        const char *list = which == BENCH_KSWAP ? kswap_instances
                           : which == BENCH_ILS ? ils_instances
                           : which == BENCH_SA  ? sa_instances : two_opt_instances;
        parse_instances(list, o);
    }
    if (which == BENCH_SA) {
        if (!parse_names(variants ? variants : "cuda,cpu-sspm,cpu-pssm", sa_variant_names,
                         SA_N_VARIANTS, o->variant_on))
            return cli_usage_error(NULL, "--variants needs a comma-separated list of "
                                   "cuda, cpu-sspm, cpu-pssm, got '%s'", variants);
    } else if (which == BENCH_MULTISTART) {
        if (!parse_names(variants ? variants : "cuda,cuda-thread,cpu", ms_variant_names,
                         MS_N_VARIANTS, o->variant_on))
            return cli_usage_error(NULL, "--variants needs a comma-separated list of "
                                   "cuda, cuda-thread, cpu, got '%s'", variants);
    } else if (!parse_names(variants ? variants : "cuda,cpu", bench_two_names, TWO_N_VARIANTS,
                            o->variant_on)) {
        return cli_usage_error(NULL, "--variants needs a comma-separated list of cuda, cpu, "
                               "got '%s'", variants);
    }
    return -1;
}

/* The benchmarks but timeline, batch and ascent: options, then one name. */
static int run_bench(int argc, char **argv)
{
    bench_opts o = {.n = 1000000, .repeat = 3, .climbs = 100000, .interval = 0.05,
                    .start_on = {true, true}, .runs = 10, .prune = -1};
    parse_sizes("100,200,500,1000,2000,5000", &o);
    parse_ks("1,all", o.swaps, &o.n_swaps);
    parse_ks("1,8,64,512,all", o.ks, &o.n_ks);
    wt_params shared;
    wt_params_defaults(&shared);
    const char *variants = NULL;
    int given[64], n_given = 0; /* options seen, checked against the benchmark below */
    struct option longopts[sizeof bench_own_opts / sizeof bench_own_opts[0] + CLI_N_PARAM_OPTS];
    cli_options_build(longopts, sizeof longopts / sizeof longopts[0], bench_own_opts,
                      BENCH_PARAMS);
    optind = 1;
    opterr = 0;
    int c;
    while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
        if (c == 'h') {
            fputs(bench_help, stdout);
            return EXIT_OK;
        }
        if (c == ':') return cli_usage_error(NULL, "option '%s' needs a value", argv[optind - 1]);
        if (c == '?') return cli_usage_error(NULL, "bad option '%s'", argv[optind - 1]);
        int st = parse_bench_option(c, optarg, &o, &shared, &variants);
        if (st >= 0) return st;
        if (n_given < 64) given[n_given++] = c;
    }
    take_shared(&shared, given, n_given, &o);
    int which = -1;
    if (argc - optind == 1)
        for (int k = 0; k < BENCH_COUNT; k++)
            if (strcmp(argv[optind], bench_names[k]) == 0) which = k;
    if (which < 0)
        return cli_usage_error(NULL, "expected one benchmark name: io-init, multistart, "
                               "quality, pass, ls, kswap, ils, sa, timeline, batch or "
                               "ascent (the last three first, before their options)");
    for (int i = 0; i < n_given; i++)
        if (!(option_owners(given[i]) & FOR(which)))
            return cli_usage_error(NULL, "--%s does not apply to %s",
                                   option_name(longopts, given[i]), bench_names[which]);
    int st = bench_defaults((bench_id)which, given, n_given, variants, &o);
    if (st >= 0) return st;
    print_header();
    switch ((bench_id)which) {
    case BENCH_IO_INIT: return bench_io_init(&o);
    case BENCH_MULTISTART: return bench_multistart(&o);
    case BENCH_QUALITY: return bench_quality(&o);
    case BENCH_PASS: return bench_pass(&o);
    case BENCH_LS: return bench_ls(&o);
    case BENCH_KSWAP: return bench_kswap(&o);
    case BENCH_ILS: return bench_ils(&o);
    case BENCH_SA: return bench_sa(&o);
    case BENCH_COUNT: break;
    }
    return EXIT_USAGE;
}

/* A report that could not be written (a full disk, say) is a run-time
 * failure, not a success: stdout is flushed and checked before exiting. */
static int check_stdout(int status)
{
    if (fflush(stdout) == 0 && !ferror(stdout)) return status;
    if (status == EXIT_FAILURE_RUN) return status; /* the benchmark said why */
    fprintf(stderr, "warptour-bench: cannot write to standard output\n");
    return status == EXIT_OK ? EXIT_FAILURE_RUN : status;
}

int main(int argc, char **argv)
{
    cli_set_program("warptour-bench");
    if (argc >= 2 && strcmp(argv[1], "--version") == 0) {
        printf("warptour-bench %s\n", WT_VERSION);
        return EXIT_OK;
    }
    save_command(argc - 1, argv + 1);
    int status;
    if (argc >= 2 && strcmp(argv[1], "timeline") == 0)
        status = bench_timeline(argc - 1, argv + 1, print_header);
    else if (argc >= 2 && strcmp(argv[1], "batch") == 0)
        status = bench_batch(argc - 1, argv + 1, print_header);
    else if (argc >= 2 && strcmp(argv[1], "ascent") == 0)
        status = bench_ascent(argc - 1, argv + 1, print_header);
    else status = run_bench(argc, argv);
    return check_stdout(status);
}
