/*
 * cmd_batch.c - `warptour solve-batch`: many small instances at once.
 *
 * Reads the instances (files, the files of folders, a list of files, or a
 * generated set), hands them to wt_solve_batch in one call, and prints a
 * line an instance and a summary (or one JSON object).  An instance that
 * cannot be read or solved is reported on its own line; the others are
 * solved all the same, and the exit status says that some failed.
 */
#include <cjson/cJSON.h>
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "mpi/cli_mpi.h"

static const char batch_help[] =
    "Usage: warptour solve-batch [INPUT...] [OPTIONS]\n"
    "\n"
    "Solves many small instances at once, each by an Iterated Local Search of its\n"
    "own (2-opt and Or-opt moves to the 8 nearest cities, and sequential 3-opt\n"
    "moves from 1000 cities; random double-bridge kicks; exact integer lengths):\n"
    "one instance a thread block or warp on the GPU, one a thread on the CPU, the\n"
    "same tours on both for the same seed and kicks.  Under a time limit, the\n"
    "host's LK search of 'warptour solve' instead, one thread an instance (with a\n"
    "GPU, the GPU's search on the same instances too: each keeps the shorter).\n"
    "For large instances use 'warptour solve'.\n"
    "\n"
    "Input (any mix):\n"
    "  INPUT               an instance file (TSPLIB or points, gzip too), or a folder:\n"
    "                      its *.tsp and *.tsp.gz files, in name order\n"
    "  --list FILE         a file naming one instance file a line ('#' comments)\n"
    "  --gen-uniform N     generated instances of N cities, uniform in [0, 1000000)^2\n"
    "  --count B           how many (default 1): instance i is what\n"
    "                      'warptour gen uniform N --seed S+i' writes, S = --gen-seed;\n"
    "                      N x B up to 1073741824 cities\n"
    "  --gen-seed S        the first generated instance's seed (default: --seed)\n"
    "  --metric M          point files: auto (default: haversine when a header line\n"
    "                      names lat and lon columns, else euclidean), euclidean, or\n"
    "                      haversine (alias geo-degrees: latitude, longitude in\n"
    "                      decimal degrees; great-circle metres on the mean Earth\n"
    "                      radius); a note on stderr says which column is the latitude\n"
    "\n"
    "Search:\n"
    "  --time-limit T      seconds for the whole batch, the files' reading and the\n"
    "                      start tours included; instances share it evenly (without\n"
    "                      --kicks: as many kicks as each share allows)\n"
    "  --kicks K           kicks an instance (default: 10 a city, at least 1000,\n"
    "                      or as the time limit allows)\n"
    "  --seed S            seed (default 1); instance i draws from (S, i)\n"
    "  --threads N         CPU threads (default: all cores)\n"
    "  --backend B         auto (default: the GPU when usable), cpu, cuda\n"
    "  --device D          the GPU to use (default 0; see 'warptour devices')\n"
    "  --devices L         several GPUs: 'all' or a list such as 0,1; the instances\n"
    "                      are dealt over them, the same tours as on one GPU\n"
    "                      (docs/devices.md)\n"
    "  --search S          auto (default: LK under a time limit of at least 1e-5\n"
    "                      core-seconds a city an instance, else batch), batch (the\n"
    "                      search above), lk (the host's LK search alone, every\n"
    "                      instance; --kicks counts its kicks)\n"
    "  --candidates C      the cities a city's moves join it to: nearest, alpha (its\n"
    "                      best by alpha-nearness: a short Held-Karp ascent of each\n"
    "                      instance on the host first), auto (default: nearest)\n"
    "  --tune NAME=VALUE   experimental: neighbours, kick_window, accept_slack (off:\n"
    "                      none), three_opt, kick_edges, gpu_threads, gpu_part_bytes,\n"
    "                      alpha_steps, alpha_period (docs/batch.md)\n"
    "\n"
    "Output:\n"
    "  --output DIR        write each tour as DIR/NAME.tour (TSPLIB TOUR files; DIR is\n"
    "                      made when missing); NAME is the file's name without its\n"
    "                      extension, or the generated instance's name; two inputs\n"
    "                      of one NAME (x.tsp and x.tsp.gz) are refused (exit 2)\n"
    "  --optima FILE       known lengths, lines 'NAME LENGTH' (more columns are\n"
    "                      ignored; a '# name n length' header line takes the\n"
    "                      length from the column it names, as in\n"
    "                      bench/batch/refs-N.tsv): gaps for instances the\n"
    "                      built-in table lacks\n"
    "  --json              print one JSON object instead of the report: every\n"
    "                      instance (name, n, length, optimum, gap_percent, kicks,\n"
    "                      status, message) and the summary\n"
    "  --json-tours        with --json: each tour too, as 1-based cities\n"
    "  --quiet             print the summary only (errors still go to stderr; no\n"
    "                      notes)\n"
    "  -h, --help          show this help\n"
    "\n"
    "The report prints a line an instance (index, name, cities, length, gap to the\n"
    "known optimum, kicks, where it ran) and a summary: instances solved, mean\n"
    "length, mean gap, kicks, wall time.\n"
    "\n"
    "Exit status: 0 all solved; 1 run-time failure; 2 bad command line; 3 some\n"
    "instances could not be read or solved (the others' tours are still written);\n"
    "5 the time limit stopped the kicks of --kicks early, or came before some\n"
    "instances were searched (they keep their start tours); 130 Ctrl-C (tours\n"
    "still written).  Both stops are honoured within about 0.2 s.\n"
    "\n"
    "Under 'mpirun -np P' (a build with MPI: 'warptour --help' says) every rank\n"
    "reads the files and solves instance i where i mod P is its rank; rank 0 prints\n"
    "the report and writes the tours, one process's for the same --seed and --kicks\n"
    "(docs/mpi.md).\n"
    "\n"
    "Examples:\n"
    "  warptour solve-batch --gen-uniform 100 --count 10000 --time-limit 10\n"
    "  warptour solve-batch instances/ --kicks 5000 --output tours/ --json\n";

/* Ctrl-C, SIGTERM and SIGHUP stop the search; the tours are still written. */
static volatile sig_atomic_t batch_interrupted;

static void on_batch_signal(int sig)
{
    if (!batch_interrupted) batch_interrupted = sig; /* the first sets the exit status */
}

/* Installs handler or the default.  The handler stays for later signals
 * too (no SA_RESETHAND) until the program ends: a second Ctrl-C, or
 * timeout(1)'s signal to the process group after the one to the program,
 * must not kill the program while it writes them. */
static void batch_signals(void (*handler)(int))
{
    const int sigs[] = {SIGINT, SIGTERM, SIGHUP};
    for (size_t k = 0; k < sizeof sigs / sizeof sigs[0]; k++) {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = handler;
        sa.sa_flags = 0;
        sigemptyset(&sa.sa_mask);
        sigaction(sigs[k], &sa, NULL);
    }
}

/* solve-batch's own options; --seed, --time-limit, --kicks, --threads,
 * --backend, --device, --devices and --tune are solve's, from the shared table
 * (CLI_BATCH_PARAMS), stored into wt_batch_params.  Codes below the
 * shared table's. */
enum {
    OPT_LIST = 300,
    OPT_GEN,
    OPT_COUNT,
    OPT_GEN_SEED,
    OPT_OPTIMA,
    OPT_JSON_TOURS,
    OPT_METRIC,
    OPT_CANDIDATES,
    OPT_SEARCH
};

/* What the command line asks for. */
typedef struct batch_opts {
    const char *list, *output, *optima;
    int64_t gen_n, count;
    uint64_t gen_seed;
    bool gen_seed_given, json, json_tours, quiet;
    bool device_given, devices_given; /* --device, --devices */
    const char *alpha_tune;           /* the first --tune alpha_*: NAME=VALUE */
    wt_points_metric metric; /* --metric: the point files' */
    wt_batch_params params;
} batch_opts;

/* An instance's names and what reading it said. */
typedef struct batch_entry {
    char *name;       /* output name: DIR/NAME.tour */
    char *source;     /* where it came from: the file as given, or the generated name */
    char *error;      /* why it could not be read (NULL: read) */
    wt_status status; /* the reader's status when it could not be read */
} batch_entry;

/* The instances and what reading them said. */
typedef struct batch_set {
    int count, cap;
    wt_instance **inst; /* as wt_solve_batch takes them; NULL where not read */
    batch_entry *entry;
    wt_points_metric metric; /* how point files are read (--metric) */
    bool note;               /* a note of the latitude column on stderr (no --quiet) */
} batch_set;

static void set_free(batch_set *s)
{
    for (int i = 0; i < s->count; i++) {
        wt_instance_free(s->inst[i]);
        free(s->entry[i].name);
        free(s->entry[i].source);
        free(s->entry[i].error);
    }
    free(s->inst);
    free(s->entry);
}

/* Appends an entry; false when out of memory. */
static bool set_add(batch_set *s, wt_instance *inst, const char *name, const char *source,
                    const wt_error *error)
{
    if (s->count == s->cap) {
        int cap = s->cap ? 2 * s->cap : 64;
        wt_instance **i = realloc(s->inst, (size_t)cap * sizeof *i);
        if (i) s->inst = i;
        batch_entry *e = i ? realloc(s->entry, (size_t)cap * sizeof *e) : NULL;
        if (!e) return false;
        s->entry = e;
        s->cap = cap;
    }
    batch_entry *e = &s->entry[s->count];
    s->inst[s->count] = inst;
    e->name = strdup(name);
    e->source = strdup(source);
    e->error = error ? strdup(error->message) : NULL;
    e->status = error ? error->status : WT_OK;
    s->count++;
    return e->name && e->source && (!error || e->error);
}

/* The file's name without folder and extension (".tsp", ".tsp.gz", ...). */
static void base_name(const char *path, char *out, size_t size)
{
    const char *b = strrchr(path, '/');
    snprintf(out, size, "%s", b ? b + 1 : path);
    char *dot = strchr(out, '.');
    if (dot && dot != out) *dot = '\0';
}

static bool add_file(batch_set *s, const char *path)
{
    wt_instance *inst = NULL;
    wt_error err = {0};
    char name[256];
    base_name(path, name, sizeof name);
    wt_points_info info = {0, 0, false};
    if (wt_instance_read_as(path, s->metric, &info, &inst, &err) != WT_OK)
        return set_add(s, NULL, name, path, &err);
    if (s->note) cli_note_points(path, &info);
    /* Refused here in the words of the batch's documentation. */
    _Static_assert(WT_BATCH_MAX_CITIES == 100000, "the message below says 100,000");
    if (wt_instance_n(inst) > WT_BATCH_MAX_CITIES) {
        snprintf(err.message, sizeof err.message, "%s: %d cities; an instance of a batch may "
                 "have up to 100,000 cities (solve takes more)", path, wt_instance_n(inst));
        err.status = WT_STATUS_TOO_LARGE;
        wt_instance_free(inst);
        return set_add(s, NULL, name, path, &err);
    }
    return set_add(s, inst, name, path, NULL);
}

static bool is_instance_file(const char *name)
{
    size_t len = strlen(name);
    return (len > 4 && strcmp(name + len - 4, ".tsp") == 0) ||
           (len > 7 && strcmp(name + len - 7, ".tsp.gz") == 0);
}

static int compare_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The *.tsp and *.tsp.gz files of dir, in name order. */
static int add_folder(batch_set *s, const char *dir)
{
    DIR *d = opendir(dir);
    if (!d) {
        fprintf(stderr, "warptour: %s: cannot read the folder: %s\n", dir, strerror(errno));
        return EXIT_FAILURE_RUN;
    }
    char **names = NULL;
    size_t count = 0, cap = 0;
    bool oom = false;
    for (struct dirent *e; !oom && (e = readdir(d));) {
        if (!is_instance_file(e->d_name)) continue;
        if (count == cap) {
            cap = cap ? 2 * cap : 64;
            char **grown = realloc(names, cap * sizeof *names);
            if (!grown) oom = true;
            else names = grown;
        }
        if (!oom && !(names[count++] = strdup(e->d_name))) oom = true;
    }
    closedir(d);
    if (names) qsort(names, count, sizeof *names, compare_names);
    for (size_t i = 0; i < count && !oom; i++) {
        size_t len = strlen(dir) + strlen(names[i]) + 2;
        char *path = malloc(len);
        if (!path) oom = true;
        else snprintf(path, len, "%s/%s", dir, names[i]);
        if (path && !add_file(s, path)) oom = true;
        free(path);
    }
    for (size_t i = 0; i < count; i++) free(names[i]);
    free(names);
    if (oom) fprintf(stderr, "warptour: out of memory reading %s\n", dir);
    return oom ? EXIT_FAILURE_RUN : EXIT_OK;
}

static int add_input(batch_set *s, const char *path)
{
    struct stat st;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) return add_folder(s, path);
    return add_file(s, path) ? EXIT_OK : EXIT_FAILURE_RUN;
}

/* The files --list names, one a line. */
static int add_list(batch_set *s, const char *list)
{
    FILE *f = fopen(list, "r");
    if (!f) {
        fprintf(stderr, "warptour: %s: cannot open: %s\n", list, strerror(errno));
        return EXIT_FAILURE_RUN;
    }
    char line[4096];
    int status = EXIT_OK;
    while (status == EXIT_OK && fgets(line, sizeof line, f)) {
        line[strcspn(line, "\r\n")] = '\0';
        char *p = line;
        while (*p == ' ' || *p == '\t') p++;
        if (*p && *p != '#') status = add_input(s, p);
    }
    fclose(f);
    return status;
}

static int add_generated(batch_set *s, const batch_opts *o)
{
    for (int64_t i = 0; i < o->count; i++) {
        wt_instance *inst = NULL;
        wt_error err = {0};
        if (wt_instance_generate(WT_GEN_UNIFORM, (int)o->gen_n, o->gen_seed + (uint64_t)i, &inst,
                                 &err) != WT_OK)
            return cli_report_error(&err);
        if (!set_add(s, inst, wt_instance_name(inst), wt_instance_name(inst), NULL)) {
            wt_instance_free(inst);
            return EXIT_FAILURE_RUN;
        }
    }
    return EXIT_OK;
}

/* The column (0: the name's) a "# name ... length ..." header line names
 * for the length, else -1. */
static int length_column(const char *header)
{
    char copy[1024];
    snprintf(copy, sizeof copy, "%s", header + 1); /* past the '#' */
    int col = 0;
    for (char *tok = strtok(copy, " \t\r\n"); tok; tok = strtok(NULL, " \t\r\n"), col++)
        if (strcmp(tok, "length") == 0) return col;
    return -1;
}

/* Reads --optima: "NAME LENGTH" lines set the optimum of the instances of
 * that name; a "# name n length ..." header line (bench/batch/refs-N.tsv)
 * moves the length to the column it names. */
static int read_optima(batch_set *s, const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "warptour: %s: cannot open: %s\n", path, strerror(errno));
        return EXIT_FAILURE_RUN;
    }
    char line[1024];
    int col = 1;
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#') {
            int named = length_column(line);
            if (named > 0) col = named;
            continue;
        }
        char *name = strtok(line, " \t\r\n"), *tok = name;
        for (int c = 0; tok && c < col; c++) tok = strtok(NULL, " \t\r\n");
        char *end = NULL;
        long long length = tok ? strtoll(tok, &end, 10) : 0;
        if (!name || !tok || end == tok || *end != '\0') continue;
        for (int i = 0; i < s->count; i++)
            if (s->inst[i] && strcmp(wt_instance_name(s->inst[i]), name) == 0)
                wt_instance_set_known_optimum(s->inst[i], length);
    }
    fclose(f);
    return EXIT_OK;
}

static int parse_option(int c, const char *arg, batch_opts *o)
{
    switch (c) {
    case OPT_LIST: o->list = arg; break;
    case OPT_GEN:
        if (!cli_parse_int64(arg, 3, WT_BATCH_MAX_CITIES, &o->gen_n))
            return cli_usage_error("solve-batch", "--gen-uniform needs 3..%d cities",
                                   WT_BATCH_MAX_CITIES);
        break;
    case OPT_COUNT:
        if (!cli_parse_int64(arg, 1, INT32_MAX / 2, &o->count))
            return cli_usage_error("solve-batch", "--count needs a positive integer");
        break;
    case OPT_GEN_SEED:
        if (!cli_parse_uint64(arg, &o->gen_seed))
            return cli_usage_error("solve-batch", "--gen-seed needs a non-negative integer");
        o->gen_seed_given = true;
        break;
    case 'o': o->output = arg; break;
    case OPT_OPTIMA: o->optima = arg; break;
    case 'J': o->json = true; break;
    case OPT_JSON_TOURS: o->json_tours = true; break;
    case 'q': o->quiet = true; break;
    case OPT_METRIC:
        if (!cli_metric_parse(arg, &o->metric))
            return cli_usage_error("solve-batch", "--metric is 'auto', 'euclidean' or "
                                   "'haversine' (alias 'geo-degrees'), got '%s'", arg);
        break;
    case OPT_CANDIDATES:
        if (strcmp(arg, "auto") == 0) o->params.candidates = WT_BATCH_CANDIDATES_AUTO;
        else if (strcmp(arg, "nearest") == 0) o->params.candidates = WT_BATCH_CANDIDATES_NEAREST;
        else if (strcmp(arg, "alpha") == 0) o->params.candidates = WT_BATCH_CANDIDATES_ALPHA;
        else
            return cli_usage_error("solve-batch", "--candidates is 'auto', 'nearest' or "
                                   "'alpha', got '%s'", arg);
        break;
    case OPT_SEARCH:
        if (strcmp(arg, "auto") == 0) o->params.search = WT_BATCH_SEARCH_AUTO;
        else if (strcmp(arg, "batch") == 0) o->params.search = WT_BATCH_SEARCH_BATCH;
        else if (strcmp(arg, "lk") == 0) o->params.search = WT_BATCH_SEARCH_LK;
        else
            return cli_usage_error("solve-batch", "--search is 'auto', 'batch' or 'lk', "
                                   "got '%s'", arg);
        break;
    default: {
        int st = cli_parse_batch_param("solve-batch", c, arg, &o->params);
        if (st >= 0) return st;
        if (c == CLI_OPT_DEVICE) o->device_given = true;
        if (c == CLI_OPT_DEVICES) o->devices_given = true;
        if (c == CLI_OPT_TUNE && !o->alpha_tune && strncmp(arg, "alpha_", 6) == 0)
            o->alpha_tune = arg;
        return EXIT_OK;
    }
    }
    return EXIT_OK;
}

/* Refuses what the options ask for together that no run does: -1 when
 * they fit, else the exit status. */
static int check_combinations(const batch_opts *o)
{
    if (o->count != 1 && !o->gen_n)
        return cli_usage_error("solve-batch", "--count goes with --gen-uniform");
    /* The instances are all made before the search: a set past what one
     * instance may hold is refused before it fills the memory. */
    _Static_assert(WT_MAX_CITIES == 1073741824, "--help says 1073741824");
    if (o->gen_n * o->count > WT_MAX_CITIES)
        return cli_usage_error("solve-batch", "--gen-uniform %" PRId64 " --count %" PRId64
                               " makes %" PRId64 " cities; a generated set may have up to %d",
                               o->gen_n, o->count, o->gen_n * o->count, WT_MAX_CITIES);
    if (o->json_tours && !o->json)
        return cli_usage_error("solve-batch", "--json-tours goes with --json");
    int st = cli_check_device_choice("solve-batch", o->device_given, o->devices_given);
    if (st >= 0) return st;
    /* The ascent runs for alpha candidates only (auto takes the nearest
     * cities at every size): refused rather than ignored, as solve refuses
     * an option of another algorithm. */
    if (o->alpha_tune && o->params.candidates != WT_BATCH_CANDIDATES_ALPHA)
        return cli_usage_error("solve-batch", "--tune %s sets the Held-Karp ascent of "
                               "--candidates alpha, which this run does not make: give "
                               "--candidates alpha too", o->alpha_tune);
    return -1;
}

static int parse_args(int argc, char **argv, batch_opts *o, batch_set *s)
{
    static const struct option own[] = {
        {"list", required_argument, 0, OPT_LIST},
        {"gen-uniform", required_argument, 0, OPT_GEN},
        {"count", required_argument, 0, OPT_COUNT},
        {"gen-seed", required_argument, 0, OPT_GEN_SEED},
        {"output", required_argument, 0, 'o'},
        {"optima", required_argument, 0, OPT_OPTIMA},
        {"json", no_argument, 0, 'J'},
        {"json-tours", no_argument, 0, OPT_JSON_TOURS},
        {"quiet", no_argument, 0, 'q'},
        {"metric", required_argument, 0, OPT_METRIC},
        {"candidates", required_argument, 0, OPT_CANDIDATES},
        {"search", required_argument, 0, OPT_SEARCH},
        {"help", no_argument, 0, 'h'},
        {0, 0, 0, 0}};
    struct option longopts[sizeof own / sizeof own[0] + CLI_N_PARAM_OPTS];
    cli_options_build(longopts, sizeof longopts / sizeof longopts[0], own, CLI_BATCH_PARAMS);
    optind = 1;
    opterr = 0;
    int c;
    while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
        if (c == 'h') {
            fputs(batch_help, stdout);
            return -1;
        }
        if (c == '?' || c == ':')
            return cli_option_error("solve-batch", c, argv, optind);
        int st = parse_option(c, optarg, o);
        if (st != EXIT_OK) return st;
    }
    int combined = check_combinations(o);
    if (combined >= 0) return combined;
    if (!o->gen_seed_given) o->gen_seed = o->params.seed;
    s->metric = o->metric;
    s->note = !o->quiet;
    int st = EXIT_OK;
    for (int i = optind; st == EXIT_OK && i < argc; i++) st = add_input(s, argv[i]);
    if (st == EXIT_OK && o->list) st = add_list(s, o->list);
    if (st == EXIT_OK && o->gen_n) st = add_generated(s, o);
    if (st == EXIT_OK && s->count == 0)
        return cli_usage_error("solve-batch", "no instances (give files, folders, --list or "
                               "--gen-uniform)");
    if (st == EXIT_OK && o->optima) st = read_optima(s, o->optima);
    return st;
}

static int compare_entries(const void *a, const void *b)
{
    const batch_entry *x = *(const batch_entry *const *)a, *y = *(const batch_entry *const *)b;
    int c = strcmp(x->name, y->name);
    return c ? c : (x > y) - (x < y); /* equal names: in the order given */
}

/* With --output, two inputs of one output name (x.tsp and x.tsp.gz, one
 * file given twice) would write one tour over the other: refused before
 * the search, naming both. */
static int check_names(const batch_opts *o, const batch_set *s)
{
    if (!o->output || s->count < 2) return EXIT_OK;
    const batch_entry **e = malloc((size_t)s->count * sizeof *e);
    if (!e) {
        fprintf(stderr, "warptour: out of memory\n");
        return EXIT_FAILURE_RUN;
    }
    for (int i = 0; i < s->count; i++) e[i] = &s->entry[i];
    qsort(e, (size_t)s->count, sizeof *e, compare_entries);
    int st = EXIT_OK;
    for (int i = 1; i < s->count && st == EXIT_OK; i++)
        if (strcmp(e[i - 1]->name, e[i]->name) == 0)
            st = cli_usage_error("solve-batch", "%s and %s would both be written as %s/%s.tour; "
                                 "give inputs of different names", e[i - 1]->source,
                                 e[i]->source, o->output, e[i]->name);
    free(e);
    return st;
}

/* Makes the --output folder when missing and checks that it takes files,
 * before the search: its tours are not to be lost to a bad path. */
static int prepare_output(const char *dir)
{
    struct stat st;
    if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
        fprintf(stderr, "warptour: %s: cannot make the folder: %s\n", dir, strerror(errno));
        return EXIT_FAILURE_RUN;
    }
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
        fprintf(stderr, "warptour: %s: cannot write tours into it: not a folder\n", dir);
        return EXIT_FAILURE_RUN;
    }
    if (access(dir, W_OK | X_OK) != 0) {
        fprintf(stderr, "warptour: %s: cannot write tours into it: %s\n", dir, strerror(errno));
        return EXIT_FAILURE_RUN;
    }
    return EXIT_OK;
}

/* Progress on stderr when it is a terminal. */
static int show_progress(const wt_batch_progress *p, void *user)
{
    (void)user;
    fprintf(stderr, "\r\033[K[%7.1f s] %d/%d instances, %" PRIu64 " kicks", p->elapsed_s, p->done,
            p->count, p->kicks);
    fflush(stderr);
    return 0;
}

/* Writes every solved tour into o->output; the number that failed. */
static int write_tours(const batch_opts *o, const batch_set *s, const wt_batch_result *r)
{
    if (mkdir(o->output, 0777) != 0 && errno != EEXIST) {
        fprintf(stderr, "warptour: %s: cannot make the folder: %s\n", o->output, strerror(errno));
        return r->count;
    }
    int failed = 0;
    for (int i = 0; i < r->count; i++) {
        const wt_batch_tour *t = &r->tours[i];
        if (t->status != WT_OK) continue;
        const char *name = s->entry[i].name;
        size_t len = strlen(o->output) + strlen(name) + 8;
        char *path = malloc(len);
        wt_error err = {0};
        if (path) snprintf(path, len, "%s/%s.tour", o->output, name);
        if (!path || wt_tour_write_tsplib(path, name, "warptour solve-batch", t->tour, t->n,
                                          &err) != WT_OK) {
            fprintf(stderr, "warptour: %s\n", path ? err.message : "out of memory");
            failed++;
        }
        free(path);
    }
    return failed;
}

/* Why instance i has no tour: the reader's message, else the library's. */
static const char *failure(const batch_set *s, const wt_batch_result *r, int i)
{
    return s->entry[i].error ? s->entry[i].error : r->tours[i].message;
}

/* The summary's figures. */
typedef struct batch_sums {
    int solved, with_optimum;
    double length, gap;
} batch_sums;

static batch_sums sums_of(const batch_set *s, const wt_batch_result *r)
{
    batch_sums m = {0, 0, 0, 0};
    for (int i = 0; i < r->count; i++) {
        const wt_batch_tour *t = &r->tours[i];
        if (t->status != WT_OK) continue;
        m.solved++;
        m.length += t->length_real;
        int64_t opt = wt_instance_known_optimum(s->inst[i]);
        if (opt > 0) {
            m.with_optimum++;
            m.gap += cli_gap_percent(t->length, opt);
        }
    }
    return m;
}

static void print_report(const batch_opts *o, const batch_set *s, const wt_batch_result *r)
{
    for (int i = 0; i < r->count && !o->quiet; i++) {
        const wt_batch_tour *t = &r->tours[i];
        if (t->status != WT_OK) {
            printf("%6d  %-24s  failed: %s\n", i, s->entry[i].name, failure(s, r, i));
            continue;
        }
        int64_t opt = wt_instance_known_optimum(s->inst[i]);
        char gap[32] = "";
        if (opt > 0) snprintf(gap, sizeof gap, "  gap %.4f%%", cli_gap_percent(t->length, opt));
        printf("%6d  %-24s  n %-6d  length %.15g%s  kicks %" PRIu64 "  %s\n", i,
               s->entry[i].name, t->n, t->length_real, gap, t->kicks, t->on_gpu ? "gpu" : "cpu");
    }
    batch_sums m = sums_of(s, r);
    printf("solved %d of %d (%d failed) on %s (%s)\n", m.solved, r->count, r->failed, r->backend,
           r->device);
    if (m.solved) printf("mean length %.15g\n", m.length / m.solved);
    if (m.with_optimum)
        printf("mean gap %.4f%% over %d instances with a known optimum\n",
               m.gap / m.with_optimum, m.with_optimum);
    char kernels[48] = ""; /* only where some instance ran on a GPU */
    if (r->on_gpu > 0) snprintf(kernels, sizeof kernels, " (GPU kernels %.3f s)", r->gpu_time_s);
    printf("kicks %" PRIu64 " (%.0f/s), wall time %.3f s%s, stop %s\n", r->kicks,
           r->time_s > 0 ? (double)r->kicks / r->time_s : 0.0, r->time_s, kernels,
           wt_stop_reason_name(r->stop));
}

/* One JSON object for instance i. */
static cJSON *instance_json(const batch_opts *o, const batch_set *s, const wt_batch_result *r,
                            int i)
{
    const wt_batch_tour *t = &r->tours[i];
    cJSON *j = cJSON_CreateObject();
    cli_json_add_text(j, "name", s->entry[i].name);
    cJSON_AddNumberToObject(j, "n", t->n);
    /* An instance not read has the reader's status; the library saw NULL. */
    wt_status status = s->entry[i].error ? s->entry[i].status : t->status;
    cJSON_AddStringToObject(j, "status", status == WT_OK ? "ok" : wt_status_str(status));
    cli_json_add_string_or_null(j, "message", t->status == WT_OK ? NULL : failure(s, r, i));
    if (t->status != WT_OK) return j;
    cli_json_add_int64(j, "length", t->length);
    cJSON_AddNumberToObject(j, "length_real", t->length_real);
    cli_json_add_int64(j, "init_length", t->init_length);
    cli_json_add_optimum_and_gap(j, t->length, wt_instance_known_optimum(s->inst[i]));
    cli_json_add_uint64(j, "kicks", t->kicks);
    cJSON_AddBoolToObject(j, "on_gpu", t->on_gpu);
    if (o->json_tours) cli_json_add_tour(j, "tour", t->tour, t->n);
    return j;
}

static bool print_json(const batch_opts *o, const batch_set *s, const wt_batch_result *r)
{
    cJSON *j = cJSON_CreateObject(), *list = cJSON_AddArrayToObject(j, "instances");
    for (int i = 0; i < r->count; i++) cJSON_AddItemToArray(list, instance_json(o, s, r, i));
    batch_sums m = sums_of(s, r);
    cJSON_AddNumberToObject(j, "count", r->count);
    cJSON_AddNumberToObject(j, "solved", m.solved);
    cJSON_AddNumberToObject(j, "failed", r->failed);
    cJSON_AddNumberToObject(j, "on_gpu", r->on_gpu);
    if (m.solved) cJSON_AddNumberToObject(j, "mean_length", m.length / m.solved);
    else cJSON_AddNullToObject(j, "mean_length");
    if (m.with_optimum) cJSON_AddNumberToObject(j, "mean_gap_percent", m.gap / m.with_optimum);
    else cJSON_AddNullToObject(j, "mean_gap_percent");
    cli_json_add_uint64(j, "seed", o->params.seed);
    cli_json_add_uint64(j, "kicks", r->kicks);
    cJSON_AddNumberToObject(j, "time_s", r->time_s);
    cJSON_AddNumberToObject(j, "gpu_time_s", r->gpu_time_s);
    cJSON_AddStringToObject(j, "stop", wt_stop_reason_name(r->stop));
    cJSON_AddStringToObject(j, "backend", r->backend);
    cli_json_add_text(j, "device", r->device);
    cli_json_add_string_or_null(j, "output", o->output);
    return cli_json_print(j);
}

/* The exit status of a finished batch. */
static int batch_status(const wt_batch_result *r, int unwritten)
{
    if (unwritten) return EXIT_FAILURE_RUN;
    if (r->stop == WT_STOP_INTERRUPTED)
        return batch_interrupted > 0 ? 128 + batch_interrupted : EXIT_INTERRUPTED;
    if (r->failed) return EXIT_BAD_INPUT;
    return r->stop == WT_STOP_TIME_LIMIT ? EXIT_TIME_LIMIT : EXIT_OK;
}

int cmd_batch(int argc, char **argv)
{
    /* From here on a stop signal stops the search, not the program: one
     * that comes while the instances are read or generated (seconds for
     * thousands of them) is seen by the batch at its start, which then
     * still writes every instance's start tour. */
    batch_signals(on_batch_signal);
    double t_read = cli_now(); /* --time-limit counts the reading of the instances */
    batch_opts o = {.count = 1};
    wt_batch_params_defaults(&o.params);
    batch_set s = {0};
    int st = parse_args(argc, argv, &o, &s);
    if (st != EXIT_OK) {
        set_free(&s);
        return st < 0 ? EXIT_OK : st;
    }
    st = check_names(&o, &s);
    /* Under mpirun, rank 0 alone writes the tours. */
    bool speaks = cli_mpi_rank() == 0;
    if (!speaks) o.output = NULL;
    if (st == EXIT_OK && o.output) st = prepare_output(o.output);
    st = cli_mpi_agree(st); /* no rank searches while another failed */
    if (st != EXIT_OK) {
        set_free(&s);
        return st;
    }
    if (!o.quiet && !o.json && isatty(STDERR_FILENO)) o.params.progress = show_progress;
    o.params.stop_flag = (const volatile int *)&batch_interrupted;
    /* the slowest rank's reading under mpirun: every rank to the same limit */
    o.params.time_limit_s = cli_limit_left(o.params.time_limit_s,
                                           cli_mpi_max(cli_now() - t_read));
    wt_batch_result r;
    wt_error err = {0};
    st = cli_mpi_solve_batch((const wt_instance *const *)s.inst, s.count, &o.params, &r, &err);
    if (o.params.progress) fputs("\r\033[K", stderr);
    if (st != WT_OK || !speaks) {
        batch_signals(SIG_DFL);
        set_free(&s);
        if (st == WT_OK) wt_batch_result_free(&r);
        return st == WT_OK ? EXIT_OK : cli_report_error(&err);
    }
    for (int i = 0; i < r.count; i++)
        if (r.tours[i].status != WT_OK)
            fprintf(stderr, "warptour: %s: %s\n", s.entry[i].name, failure(&s, &r, i));
    /* The handler stays until the program ends: a second Ctrl-C that comes
     * after the tours are written (a fast write) must not turn the exit
     * status of the first into a death by signal. */
    int unwritten = o.output ? write_tours(&o, &s, &r) : 0;
    bool printed = o.json ? print_json(&o, &s, &r) : (print_report(&o, &s, &r), true);
    st = printed ? batch_status(&r, unwritten) : EXIT_FAILURE_RUN;
    wt_batch_result_free(&r);
    set_free(&s);
    return st;
}
