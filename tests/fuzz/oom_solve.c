/*
 * oom_solve.c - out-of-memory injection for wt_solve on the CPU backend.
 *
 * For each configuration below (every algorithm of the CPU backend: 2opt
 * from each start heuristic, with and without k-swaps and pruning,
 * multistart, ils with full, local and LK descents, on replicas and on
 * segments, sa with and without near lists and polish, SSPM and PSSM), on
 * random instances of 60 to 200 cities (EUC_2D, and some as an EXPLICIT
 * matrix, GEO or EUC_3D; one LK run on 20,001 cities, where LK works on
 * segments from one thread on; one LK run renumbered by place) with small budgets (few restarts, kicks and
 * temperature steps; tuning.ils_segment_min, ils_round_kicks and
 * ils_replica_every bring the segments and rounds down to 200 cities), it
 * first counts the allocations one run makes (malloc, calloc and realloc,
 * wrapped by the linker), then runs it again failing allocation k: every k
 * up to 200, then a stride through the rest that tries about 400 more, and
 * the last one.  Each run must:
 *  - return WT_OK with a valid tour whose length is res.length exactly (an
 *    allocation the library can do without, such as the one that reports
 *    multistart's start length, may fail silently), or
 *    WT_STATUS_OUT_OF_MEMORY with err filled and res untouched (byte for
 *    byte), never another status;
 *  - leak nothing: LeakSanitizer checks after every run
 *    (__lsan_do_recoverable_leak_check), so a leak names its k;
 *  - not crash (AddressSanitizer, UndefinedBehaviorSanitizer) and not hang
 *    (alarm: 60 s a run, where one takes well under a second).
 * Every configuration runs with 1 thread, where a run is deterministic and
 * allocation k is the same one each time, then with 2, where allocations
 * made inside parallel regions fail on either thread (the counter is
 * atomic; the count of the first run is then a guide, not exact: k goes
 * on past it until a run reaches no failure).  The whole takes over ten
 * minutes on two cores.
 *
 * -max_total_time=S (as libFuzzer's; `make fuzz` passes FUZZ_SECONDS) bounds
 * the whole to about S seconds: the configurations (each thread count one,
 * each of the Python entry points' instances one) share S evenly, a configuration passing on
 * what it did not use to the next, and each tries its allocations coarse to
 * fine (every 64th of the planned ones first, then the ones between, ...),
 * so that a cut run has spread its failures over the whole run; each line
 * then says how many of its planned failures it tried.  A configuration's
 * counting run and first failure run whatever the budget, so S below the
 * counting runs' time (about 20 s on two cores) ends later than S.
 *
 * OpenMP: clang links LLVM's libomp, a shared library; --wrap applies only
 * to the objects linked here, so the runtime's own allocations never fail,
 * and its thread pool stays reachable from its globals (no suppression has
 * been needed; should a libomp or libgomp version report one, run with
 * LSAN_OPTIONS=suppressions=FILE and a line "leak:libomp" or "leak:libgomp").
 *
 * Built and run by `make fuzz`; by hand:
 *
 *   clang -std=c11 -g -O1 -fopenmp -fsanitize=address,undefined \
 *     -D_POSIX_C_SOURCE=200809L -Iinclude -Isrc tests/fuzz/oom_solve.c \
 *     src/core/?*.c src/algo/?*.c src/backend/cpu/?*.c \
 *     src/backend/cuda/cuda_absent.c -lm -lz \
 *     -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc -o /tmp/oom_solve
 *   ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1 /tmp/oom_solve \
 *     [-max_total_time=S] [FILTER]
 *
 * FILTER, when given, runs only the configurations whose name contains it;
 * OOM_SOLVE_VERBOSE=1 prints every run's status and message.
 * Exit status 0 when every run passed, 1 at the first failure (with what
 * failed and the k that made it fail).
 */
#include <signal.h>
#include <stdatomic.h>
#include <time.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sanitizer/lsan_interface.h>

#include "warptour.h"
#include "warptour_experimental.h"

void *__real_malloc(size_t n);
void *__real_calloc(size_t count, size_t size);
void *__real_realloc(void *p, size_t n);

/* Allocations left before the failing one; -1: none fails. */
static atomic_long countdown = -1;
/* Allocations made since the last reset (counting run). */
static atomic_long made = 0;

static int fails(void)
{
    atomic_fetch_add(&made, 1);
    if (atomic_load(&countdown) < 0) return 0;
    return atomic_fetch_sub(&countdown, 1) == 0;
}
void *__wrap_malloc(size_t n) { return fails() ? NULL : __real_malloc(n); }
void *__wrap_calloc(size_t count, size_t size)
{
    return fails() ? NULL : __real_calloc(count, size);
}
void *__wrap_realloc(void *p, size_t n) { return fails() ? NULL : __real_realloc(p, n); }

typedef struct config {
    const char *name;
    int n;                 /* cities */
    wt_algorithm algorithm;
    wt_init_method init;
    wt_ils_descent descent; /* ils (default auto) */
    uint64_t restarts, kicks;
    int sa_near;
    bool sa_polish;
    wt_sa_cpu_scheme sa_cpu;
    int swaps;             /* 2opt, ils full: params.swaps */
    bool no_prune;         /* 2opt: params.prune off */
    /* ils local and lk: tuning.ils_segment_min, ils_round_kicks and
     * ils_replica_every (0: the default), which bring the segments, their
     * replica rounds and several rounds down to 200 cities on 2 threads. */
    int segment_min, round_kicks, replica_every;
    /* tuning.renumber_min (0: the default): 2 renumbers a small instance by
     * place, WT_TUNING_OFF keeps a large one's numbers. */
    int renumber_min;
    /* The instance: uniform EUC_2D points (default), or the same points
     * as an EXPLICIT matrix, as GEO coordinates, or with a z as EUC_3D. */
    enum { POINTS = 0, MATRIX, GEO, SPACE } kind;
} config;

#define G .init = WT_INIT_GREEDY
static const config configs[] = {
    {"2opt-greedy", 200, WT_ALGO_2OPT, G},
    {"2opt-nearest", 200, WT_ALGO_2OPT, .init = WT_INIT_NEAREST},
    {"2opt-spacefill", 200, WT_ALGO_2OPT, .init = WT_INIT_SPACEFILL},
    {"2opt-random", 150, WT_ALGO_2OPT, .init = WT_INIT_RANDOM},
    {"2opt-swaps1-noprune", 150, WT_ALGO_2OPT, .init = WT_INIT_RANDOM, .swaps = 1,
     .no_prune = true},
    {"multistart", 100, WT_ALGO_MULTISTART, G, .restarts = 8},
    {"ils-full", 150, WT_ALGO_ILS, G, .descent = WT_ILS_FULL, .kicks = 20},
    {"ils-local", 200, WT_ALGO_ILS, G, .descent = WT_ILS_LOCAL, .kicks = 200},
    {"ils-lk", 200, WT_ALGO_ILS, G, .descent = WT_ILS_LK, .kicks = 200},
    {"ils-lk-rounds", 200, WT_ALGO_ILS, G, .descent = WT_ILS_LK, .kicks = 300, .round_kicks = 40},
    {"ils-local-segments", 200, WT_ALGO_ILS, G, .descent = WT_ILS_LOCAL, .kicks = 300,
     .segment_min = 50, .round_kicks = 40, .replica_every = 2},
    {"ils-lk-segments", 200, WT_ALGO_ILS, G, .descent = WT_ILS_LK, .kicks = 300,
     .segment_min = 50, .round_kicks = 40, .replica_every = 2},
    {"2opt-matrix", 100, WT_ALGO_2OPT, G, .kind = MATRIX},
    {"2opt-geo", 100, WT_ALGO_2OPT, G, .kind = GEO},
    {"multistart-matrix", 60, WT_ALGO_MULTISTART, G, .restarts = 4, .kind = MATRIX},
    {"multistart-3d", 60, WT_ALGO_MULTISTART, G, .restarts = 4, .kind = SPACE},
    {"ils-lk-matrix", 100, WT_ALGO_ILS, G, .descent = WT_ILS_LK, .kicks = 100,
     .segment_min = 20, .kind = MATRIX},
    {"ils-lk-geo", 100, WT_ALGO_ILS, G, .descent = WT_ILS_LK, .kicks = 100, .segment_min = 20,
     .kind = GEO},
    {"ils-local-3d", 100, WT_ALGO_ILS, G, .descent = WT_ILS_LOCAL, .kicks = 100,
     .segment_min = 20, .kind = SPACE},
    /* Above 20,000 cities LK kicks on segments even on one thread, after a
     * 2-opt + Or-opt first descent of the whole tour (in the instance's own
     * numbers: the renumbering's failures are the next configuration's,
     * where a run that ends OK after one costs far less). */
    {"ils-lk-large", 20001, WT_ALGO_ILS, G, .descent = WT_ILS_LK, .kicks = 20,
     .renumber_min = WT_TUNING_OFF},
    {"ils-lk-renumbered", 200, WT_ALGO_ILS, G, .descent = WT_ILS_LK, .kicks = 100,
     .renumber_min = 2},
    {"sa", 60, WT_ALGO_SA, G},
    {"sa-polish", 60, WT_ALGO_SA, G, .sa_polish = true},
    {"sa-near", 60, WT_ALGO_SA, G, .sa_near = 8},
    {"sa-near-polish", 60, WT_ALGO_SA, G, .sa_near = 8, .sa_polish = true},
    {"sa-pssm-near-polish", 60, WT_ALGO_SA, G, .sa_near = 8, .sa_polish = true,
     .sa_cpu = WT_SA_PSSM},
    {"sa-near-polish-matrix", 60, WT_ALGO_SA, G, .sa_near = 8, .sa_polish = true,
     .kind = MATRIX},
    {"sa-near-polish-geo", 60, WT_ALGO_SA, G, .sa_near = 8, .sa_polish = true, .kind = GEO},
};
#undef G

/* c's parameters into p, its tuning into *t, at which p points. */
static void params_for(const config *c, int threads, wt_params *p, wt_tuning *t)
{
    wt_params_defaults(p);
    p->algorithm = c->algorithm;
    p->backend = WT_BACKEND_CPU;
    p->init = c->init;
    p->seed = 7;
    p->threads = threads;
    p->restarts = c->restarts;
    p->kicks = c->kicks;
    p->ils_descent = c->descent;
    /* sa: 10 temperature steps of one sweep, a restart from the best every 3. */
    p->sa_t_start = 1000;
    p->sa_t_end = 300;
    p->sa_alpha = 0.9;
    p->sa_sweeps = 1;
    p->sa_exchange = 3;
    p->sa_near = c->sa_near;
    p->sa_polish = c->sa_polish;
    p->sa_cpu = c->sa_cpu;
    p->swaps = c->swaps;
    p->prune = !c->no_prune;
    *t = (wt_tuning){.ils_segment_min = c->segment_min, .ils_round_kicks = c->round_kicks,
                     .ils_replica_every = c->replica_every, .renumber_min = c->renumber_min};
    p->tuning = t;
}

/* The instance of configuration c (number i), made before any allocation
 * fails. */
static wt_status make_instance(const config *c, size_t i, wt_instance **out, wt_error *err)
{
    wt_instance *pts = NULL;
    wt_status st = wt_instance_generate(WT_GEN_UNIFORM, c->n, 1000 + i, &pts, err);
    if (st != WT_OK || c->kind == POINTS) {
        *out = pts;
        return st;
    }
    int n = c->n;
    const double *x, *y;
    wt_instance_coords(pts, &x, &y);
    double *a = malloc((size_t)n * (size_t)n * sizeof *a), *b = malloc((size_t)n * sizeof *b),
           *z = malloc((size_t)n * sizeof *z);
    if (!a || !b || !z) {
        st = WT_STATUS_OUT_OF_MEMORY;
    } else if (c->kind == MATRIX) {
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++) a[(size_t)i * n + j] = (double)wt_instance_dist(pts, i, j);
        st = wt_instance_from_matrix("matrix", n, a, out, err);
    } else if (c->kind == GEO) {
        /* DDD.MM: latitudes -60..60, longitudes -150..150 degrees. */
        for (int i = 0; i < n; i++) {
            a[i] = (int)(x[i] / 1e6 * 120 - 60) + 0.01 * (int)(y[i] / 1e4 * 0.59);
            b[i] = (int)(y[i] / 1e6 * 300 - 150) + 0.01 * (int)(x[i] / 1e4 * 0.59);
        }
        st = wt_instance_from_coords("geo", n, WT_GEO, a, b, NULL, out, err);
    } else {
        for (int i = 0; i < n; i++) z[i] = (double)((i * 7919) % 1000) * 1000;
        st = wt_instance_from_coords("space", n, WT_EUC_3D, x, y, z, out, err);
    }
    free(a);
    free(b);
    free(z);
    wt_instance_free(pts);
    return st;
}

static const char *current = "";
static bool verbose; /* OOM_SOLVE_VERBOSE set: a line for every run */

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The time budget (-max_total_time): the end of the current configuration's
 * share; INFINITY-like (0: none) without one. */
static double budget_start, budget_s;
static int budget_units, budget_unit;

/* Whether the current configuration's share is spent: configuration u of
 * `units` may run until start + budget * (u + 1) / units. */
static bool out_of_time(void)
{
    if (budget_s <= 0) return false;
    return now_s() > budget_start + budget_s * (double)(budget_unit + 1) / (double)budget_units;
}

static void on_alarm(int sig)
{
    (void)sig;
    static const char msg[] = "oom_solve: a run took over 60 s (a hang?)\n";
    if (write(2, msg, sizeof msg - 1) < 0) _exit(3);
    _exit(3);
}

/* One run failing allocation k (-1: none).  Returns 0 when it passed;
 * *injected: whether allocation k was reached; *allocations: how many the
 * run made; *status: what wt_solve returned. */
static int run_one(const wt_instance *inst, const wt_params *p, long k, bool *injected,
                   long *allocations, wt_status *status)
{
    wt_result res;
    memset(&res, 0x5a, sizeof res);
    wt_result before;
    memcpy(&before, &res, sizeof res);
    wt_error err = {0};
    alarm(60);
    atomic_store(&made, 0);
    atomic_store(&countdown, k);
    wt_status st = wt_solve(inst, p, &res, &err);
    *injected = k >= 0 && atomic_load(&countdown) < 0;
    atomic_store(&countdown, -1);
    *allocations = atomic_load(&made);
    alarm(0);
    *status = st;
    if (verbose)
        printf("  fail allocation %ld: %s%s%s\n", k, wt_status_str(st), err.message[0] ? ": " : "",
               err.message);
    int bad = 0;
    if (st == WT_OK) {
        int n = wt_instance_n(inst);
        wt_error terr = {0};
        if (res.n != n || wt_tour_validate(res.tour, n, &terr) != WT_OK) {
            fprintf(stderr, "%s k=%ld: WT_OK with an invalid tour: %s\n", current, k,
                    terr.message);
            bad = 1;
        } else if (wt_tour_length(inst, res.tour) != res.length) {
            fprintf(stderr, "%s k=%ld: WT_OK with length %lld for a tour of %lld\n", current, k,
                    (long long)res.length, (long long)wt_tour_length(inst, res.tour));
            bad = 1;
        }
        wt_result_free(&res);
    } else if (st == WT_STATUS_OUT_OF_MEMORY) {
        if (!*injected) {
            fprintf(stderr, "%s k=%ld: out of memory where no allocation failed\n", current, k);
            bad = 1;
        }
        if (err.status != WT_STATUS_OUT_OF_MEMORY || !err.message[0]) {
            fprintf(stderr, "%s k=%ld: out of memory, err not filled (%d, '%s')\n", current, k,
                    (int)err.status, err.message);
            bad = 1;
        }
        if (memcmp(&res, &before, sizeof res) != 0) {
            fprintf(stderr, "%s k=%ld: out of memory and res was touched\n", current, k);
            bad = 1;
        }
    } else {
        fprintf(stderr, "%s k=%ld: status %s (%s), expected ok or out of memory\n", current, k,
                wt_status_str(st), err.message);
        bad = 1;
    }
    if (__lsan_do_recoverable_leak_check()) {
        fprintf(stderr, "%s k=%ld: leak (LeakSanitizer's report above)\n", current, k);
        bad = 1;
    }
    return bad;
}

/* Whether allocation k is tried out of total: the first 200 each, then a
 * stride of about 400 more, and the last. */
static bool tried(long k, long total)
{
    enum { FIRST = 200, MORE = 400 };
    if (k < FIRST || k == total - 1) return true;
    long stride = (total - FIRST) / MORE + 1;
    return (k - FIRST) % stride == 0;
}

/* The instances the Python entry points build (python/_warptour.c): real
 * points (solve), a real matrix (solve_matrix), a point file and a TSPLIB
 * file (solve_file).  Constructor c with allocation k failed: WT_OK, or out
 * of memory with *out untouched; never a leak. */
static wt_status python_instance(int c, const char *dir, wt_instance **out, wt_error *err)
{
    enum { N = 40 };
    double x[N], y[N], m[N * N];
    for (int i = 0; i < N; i++) {
        x[i] = (i * 37 % 101) / 101.0;
        y[i] = (i * 53 % 103) / 103.0;
    }
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) m[i * N + j] = i == j ? 0 : 0.5 + (double)(i + j) / 7.0;
    char path[512];
    switch (c) {
    case 0: return wt_instance_from_coords("points", N, WT_EUC_2D_REAL, x, y, NULL, out, err);
    case 1: return wt_instance_from_matrix("matrix", N, m, out, err);
    case 2:
        snprintf(path, sizeof path, "%s/points.txt", dir);
        return wt_instance_read(path, out, err);
    default:
        snprintf(path, sizeof path, "%s/berlin52.tsp", dir);
        return wt_instance_read(path, out, err);
    }
}

/* The Python entry points' library calls under every allocation failure:
 * the instance's construction, then an ILS solve of it. */
static int python_entry_points(void)
{
    char dir[] = "/tmp/oom_solve_XXXXXX";
    if (!mkdtemp(dir)) return 2;
    char path[512];
    snprintf(path, sizeof path, "%s/points.txt", dir);
    FILE *f = fopen(path, "w");
    for (int i = 0; f && i < 30; i++) fprintf(f, "%g,%g\n", (i * 37 % 101) / 10.1, i * 0.25);
    if (f) fclose(f);
    snprintf(path, sizeof path, "%s/berlin52.tsp", dir);
    const char *data = getenv("WT_DATA");
    char src[512];
    snprintf(src, sizeof src, "%s/berlin52.tsp", data ? data : "data");
    FILE *in = fopen(src, "r"), *out = fopen(path, "w");
    for (int ch; in && out && (ch = fgetc(in)) != EOF;) fputc(ch, out);
    if (in) fclose(in);
    if (out) fclose(out);
    static const char *names[] = {"python-points", "python-matrix", "python-point-file",
                                  "python-tsplib-file"};
    int bad = 0;
    for (int c = 0; c < 4 && !bad; c++) {
        current = names[c];
        long total = -1;
        bool cut = false;
        for (long k = -1;; k++) {
            wt_instance *inst = (wt_instance *)&total; /* a sentinel: untouched on failure */
            wt_error err = {0};
            atomic_store(&made, 0);
            atomic_store(&countdown, k);
            wt_status st = python_instance(c, dir, &inst, &err);
            bool injected = k >= 0 && atomic_load(&countdown) < 0;
            atomic_store(&countdown, -1);
            if (k < 0) total = atomic_load(&made);
            if (st == WT_OK) {
                wt_params p;
                wt_params_defaults(&p);
                p.algorithm = WT_ALGO_ILS; /* the Python default */
                p.kicks = 50;
                p.threads = 1;
                p.backend = WT_BACKEND_CPU;
                bool inj;
                long allocations;
                wt_status s2;
                bad |= run_one(inst, &p, injected ? -1 : k - total, &inj, &allocations, &s2);
                wt_instance_free(inst);
            } else if (st != WT_STATUS_OUT_OF_MEMORY || !injected ||
                       inst != (wt_instance *)&total) {
                fprintf(stderr, "%s k=%ld: status %s (%s), out %s\n", current, k,
                        wt_status_str(st), err.message,
                        inst != (wt_instance *)&total ? "touched" : "untouched");
                bad = 1;
            }
            if (__lsan_do_recoverable_leak_check()) {
                fprintf(stderr, "%s k=%ld: leak (LeakSanitizer's report above)\n", current, k);
                bad = 1;
            }
            if (bad || (k >= 0 && !injected && k > total + 400)) break;
            if (k >= 0 && out_of_time()) {
                cut = true;
                break;
            }
        }
        printf("%-42s %6ld allocations to build, then an ILS solve%s\n", names[c], total,
               cut ? " (cut by the time budget)" : "");
        budget_unit++;
    }
    snprintf(path, sizeof path, "%s/points.txt", dir);
    remove(path);
    snprintf(path, sizeof path, "%s/berlin52.tsp", dir);
    remove(path);
    rmdir(dir);
    return bad;
}

/* Allocation failures to try for a run of total allocations: the
 * planned ones (tried), coarse to fine: every 64th of them first, then
 * those halfway between, and so on.  Returns how many; *out (freed by the
 * caller) lists them. */
static long planned_failures(long total, long **out)
{
    long count = 0;
    for (long k = 0; k < total; k++) count += tried(k, total);
    long *plan = __real_malloc((size_t)(count > 0 ? count : 1) * sizeof *plan);
    long *order = __real_malloc((size_t)(count > 0 ? count : 1) * sizeof *order);
    if (!plan || !order) {
        fprintf(stderr, "oom_solve: out of memory for the plan\n");
        exit(2);
    }
    long j = 0;
    for (long k = 0; k < total; k++)
        if (tried(k, total)) plan[j++] = k;
    long m = 0;
    for (long stride = 64; stride >= 1; stride /= 2)
        for (long i = 0; i < count; i += stride)
            if (stride == 64 || i % (2 * stride) != 0) order[m++] = plan[i];
    free(plan);
    *out = order;
    return m;
}

int main(int argc, char **argv)
{
    const char *filter = NULL;
    for (int a = 1; a < argc; a++) {
        if (strncmp(argv[a], "-max_total_time=", 16) == 0) budget_s = atof(argv[a] + 16);
        else filter = argv[a];
    }
    verbose = getenv("OOM_SOLVE_VERBOSE") != NULL;
    budget_start = now_s();
    budget_units = !filter || strstr("python", filter) ? 4 : 0; /* a unit a constructor */
    for (size_t c = 0; c < sizeof configs / sizeof *configs; c++)
        if (!filter || strstr(configs[c].name, filter)) budget_units += 2;
    if (budget_units < 1) budget_units = 1;
    signal(SIGALRM, on_alarm);
    setvbuf(stdout, NULL, _IOLBF, 0);
    int ran = 0;
    if (!filter || strstr("python", filter)) {
        if (python_entry_points()) {
            fprintf(stderr, "oom_solve: FAILED: the Python entry points\n");
            return 1;
        }
        ran++;
    }
    for (size_t c = 0; c < sizeof configs / sizeof *configs; c++) {
        const config *cf = &configs[c];
        if (filter && !strstr(cf->name, filter)) continue;
        wt_instance *inst = NULL;
        wt_error err = {0};
        if (make_instance(cf, c, &inst, &err) != WT_OK) {
            fprintf(stderr, "oom_solve: cannot make an instance: %s\n", err.message);
            return 2;
        }
        for (int threads = 1; threads <= 2; threads++) {
            char name[96];
            snprintf(name, sizeof name, "%s, %d cities, %d thread%s", cf->name, cf->n, threads,
                     threads == 1 ? "" : "s");
            current = name;
            wt_params p;
            wt_tuning tuning;
            params_for(cf, threads, &p, &tuning);
            bool injected;
            long total;
            wt_status st0;
            if (run_one(inst, &p, -1, &injected, &total, &st0) || st0 != WT_OK) return 1;
            long tries = 0, oom = 0;
            long *plan;
            long planned = planned_failures(total, &plan);
            bool cut = false;
            /* The planned failures, coarse to fine; then, with 2 threads,
             * whose count may vary a little, on past the count until a run
             * reaches no failure. */
            for (long i = 0;; i++) {
                long k = i < planned ? plan[i] : total + (i - planned);
                if (tries > 0 && out_of_time()) {
                    cut = true;
                    break;
                }
                long made_k;
                bool inj = false;
                wt_status st;
                if (run_one(inst, &p, k, &inj, &made_k, &st)) {
                    fprintf(stderr, "oom_solve: FAILED: %s, failing allocation %ld of %ld\n",
                            name, k, total);
                    free(plan);
                    wt_instance_free(inst);
                    return 1;
                }
                tries++;
                oom += st == WT_STATUS_OUT_OF_MEMORY;
                if (i >= planned && (!inj || k > total + 1000)) break;
            }
            free(plan);
            if (cut)
                printf("%-42s %6ld allocations, %4ld runs of %ld planned (time budget): %4ld "
                       "out of memory, %4ld ok\n", name, total, tries, planned, oom, tries - oom);
            else
                printf("%-42s %6ld allocations, %4ld runs: %4ld out of memory, %4ld ok\n", name,
                       total, tries, oom, tries - oom);
            ran++;
            budget_unit++;
        }
        wt_instance_free(inst);
    }
    if (!ran) {
        fprintf(stderr, "oom_solve: no configuration matches '%s'\n", filter ? filter : "");
        return 2;
    }
    return 0;
}
