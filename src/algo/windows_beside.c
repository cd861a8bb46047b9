/*
 * windows_beside.c - the GPU's window searches beside the host's searches
 * (windows_beside.h).
 *
 * An epoch runs on a thread of its own, which spends it waiting for the
 * GPU (cuda_wait sleeps between polls), so the host's threads keep their
 * cores.  It searches a copy of the tour (work) against the tour it started
 * from (snap), position for position: windows.c puts every window's path
 * back at the positions it was cut from.  The difference of the two is then
 * cut into pieces at every position p where work's first p cities (from
 * the epoch's first window on) are snap's first p and the city after them
 * kept its place: each piece is a path between two cities that kept their
 * places, through the same cities as before, so any set of pieces can go
 * into a tour that still holds the old paths, and each one's gain is its
 * own.  A piece goes into the merged tour where every edge of its old path
 * is still there: then that path is whole in the tour (its inner cities
 * have no other neighbours), whatever the host's merges changed around it.
 */
#include "algo/windows_beside.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "algo/windows.h"
#include "core/error.h"
#include "core/instance.h"
#include "core/tour_ops.h"

/* A piece: the path at positions from .. to (counted from the epoch's
 * offset) of work replaces snap's; from and to kept their cities. */
typedef struct piece {
    int from, to;
    int64_t gain;
} piece;

struct wt_beside {
    const wt_instance *inst;
    int n, cuda_device;
    wt_backend_kind backend;
    uint64_t seed, epochs_started, epochs_taken;
    int32_t *snap, *work; /* n each: the tour at the epoch's start, its windows' result */
    int32_t *pos;         /* n: each city's position in snap, from the offset */
    int32_t *saved;       /* 2 n: adj before the pieces, should they break it */
    piece *pieces;
    int count;
    wt_windows_opts opts;
    pthread_t thread;
    bool running, failed;
    atomic_int done;
    volatile int stop;
    double gpu_s, epoch_gpu_s;
};

wt_status wt_beside_open(const wt_instance *inst, wt_backend_kind backend, int cuda_device,
                         uint64_t seed, wt_beside **out, wt_error *err)
{
    *out = NULL;
    if (!inst || inst->n < 8 || (backend != WT_BACKEND_CPU && backend != WT_BACKEND_CUDA))
        return wt_fail(err, WT_STATUS_INVALID_ARGUMENT, "wt_beside_open: need an instance of "
                       "at least 8 cities and the cpu or cuda backend");
    size_t n = (size_t)inst->n;
    wt_beside *b = calloc(1, sizeof *b);
    if (b) {
        b->snap = malloc(n * sizeof *b->snap);
        b->work = malloc(n * sizeof *b->work);
        b->pos = malloc(n * sizeof *b->pos);
        b->saved = malloc(2 * n * sizeof *b->saved);
        b->pieces = malloc(n / 2 * sizeof *b->pieces);
    }
    if (!b || !b->snap || !b->work || !b->pos || !b->saved || !b->pieces) {
        wt_beside_close(b);
        return wt_fail(err, WT_STATUS_OUT_OF_MEMORY, "out of memory for window searches beside "
                       "the host's");
    }
    b->inst = inst;
    b->n = inst->n;
    b->backend = backend;
    b->cuda_device = cuda_device;
    b->seed = seed;
    *out = b;
    return WT_OK;
}

/* City at position q of snap or work, counted from the epoch's offset. */
static int32_t at(const wt_beside *b, const int32_t *t, int q)
{
    return t[(b->opts.offset + q) % b->n];
}

static int64_t path_length(const wt_beside *b, const int32_t *t, int from, int to)
{
    int64_t len = 0;
    for (int q = from; q < to; q++) len += wt_dist(b->inst, at(b, t, q), at(b, t, q + 1));
    return len;
}

/* The pieces of work against snap (see the top of the file); position 0 is
 * a window's first city and n - 1 a window's last, which keep their places. */
static void find_pieces(wt_beside *b)
{
    int n = b->n;
    b->count = 0;
    for (int q = 0; q < n; q++) b->pos[at(b, b->snap, q)] = q;
    for (int q = 1; q < n - 1; q++) {
        if (at(b, b->work, q) == at(b, b->snap, q)) continue;
        int a = q, last = a, far = b->pos[at(b, b->work, a)];
        while (last + 1 < n - 1 &&
               !(far == last && at(b, b->work, last + 1) == at(b, b->snap, last + 1))) {
            last++;
            int p = b->pos[at(b, b->work, last)];
            if (p > far) far = p;
        }
        if (!(far == last && at(b, b->work, last + 1) == at(b, b->snap, last + 1))) return;
        int64_t gain = path_length(b, b->snap, a - 1, last + 1) -
                       path_length(b, b->work, a - 1, last + 1);
        if (gain > 0) b->pieces[b->count++] = (piece){a - 1, last + 1, gain};
        q = last + 1;
    }
}

static void *run_epoch(void *arg)
{
    wt_beside *b = arg;
    wt_windows_epoch ep;
    wt_error err;
    if (wt_windows_epoch_run(b->inst, b->work, &b->opts, &ep, &err) == WT_OK) {
        b->epoch_gpu_s = ep.gpu_s;
        find_pieces(b);
    } else {
        b->failed = true;
    }
    atomic_store(&b->done, 1);
    return NULL;
}

void wt_beside_start(wt_beside *b, const int32_t *tour, double deadline)
{
    if (b->running || b->failed) return;
    double left = deadline - wt_now();
    if (left < 0.1) return;
    size_t n = (size_t)b->n;
    memcpy(b->snap, tour, n * sizeof *tour);
    memcpy(b->work, tour, n * sizeof *tour);
    uint64_t e = b->epochs_started;
    b->opts = (wt_windows_opts){
        .window = WT_WINDOW_CITIES,
        .offset = wt_windows_offset(b->seed, e, b->n),
        .time_limit_s = left < WT_BESIDE_EPOCH_S ? left : WT_BESIDE_EPOCH_S,
        .seed = b->seed ^ (e * 0x9e3779b97f4a7c15ULL),
        .backend = b->backend,
        .threads = 1,
        .cuda_device = b->cuda_device,
        .stop_flag = &b->stop,
    };
    b->stop = 0;
    atomic_store(&b->done, 0);
    if (pthread_create(&b->thread, NULL, run_epoch, b) != 0) {
        b->failed = true;
        return;
    }
    b->running = true;
    b->epochs_started++;
}

bool wt_beside_running(const wt_beside *b) { return b && b->running; }

/* In adj's pair for city c, neighbour `was` becomes `now`. */
static void replace_neighbour(int32_t *adj, int32_t c, int32_t was, int32_t now)
{
    if (adj[2 * c] == was)
        adj[2 * c] = now;
    else if (adj[2 * c + 1] == was)
        adj[2 * c + 1] = now;
}

/* Whether every edge of p's old path is in adj. */
static bool old_path_whole(const wt_beside *b, const piece *p, const int32_t *adj)
{
    for (int q = p->from; q < p->to; q++) {
        int32_t u = at(b, b->snap, q), v = at(b, b->snap, q + 1);
        if (adj[2 * u] != v && adj[2 * u + 1] != v) return false;
    }
    return true;
}

static void put_piece(const wt_beside *b, const piece *p, int32_t *adj)
{
    for (int q = p->from + 1; q < p->to; q++) {
        int32_t c = at(b, b->work, q);
        adj[2 * c] = at(b, b->work, q - 1);
        adj[2 * c + 1] = at(b, b->work, q + 1);
    }
    replace_neighbour(adj, at(b, b->snap, p->from), at(b, b->snap, p->from + 1),
                      at(b, b->work, p->from + 1));
    replace_neighbour(adj, at(b, b->snap, p->to), at(b, b->snap, p->to - 1),
                      at(b, b->work, p->to - 1));
}

bool wt_beside_take(wt_beside *b, int32_t *adj, bool wait, int64_t *gain)
{
    if (!b || !b->running) return false;
    if (!atomic_load(&b->done)) {
        if (!wait) return false;
        b->stop = 1;
    }
    pthread_join(b->thread, NULL);
    b->running = false;
    if (b->failed) return false;
    b->gpu_s += b->epoch_gpu_s;
    b->epochs_taken++;
    size_t n = (size_t)b->n;
    memcpy(b->saved, adj, 2 * n * sizeof *adj);
    int64_t sum = 0;
    for (int i = 0; i < b->count; i++)
        if (old_path_whole(b, &b->pieces[i], adj)) {
            put_piece(b, &b->pieces[i], adj);
            sum += b->pieces[i].gain;
        }
    /* The pieces keep one cycle by construction; the check costs a walk of
     * the tour a second and guards the tour against a mistake in them. */
    if (!wt_tour_of_neighbours(adj, b->n, 0, NULL)) {
        memcpy(adj, b->saved, 2 * n * sizeof *adj);
        return false;
    }
    *gain += sum;
    return true;
}

double wt_beside_gpu_s(const wt_beside *b) { return b ? b->gpu_s : 0; }

uint64_t wt_beside_epochs(const wt_beside *b) { return b ? b->epochs_taken : 0; }

void wt_beside_close(wt_beside *b)
{
    if (!b) return;
    if (b->running) {
        b->stop = 1;
        pthread_join(b->thread, NULL);
    }
    free(b->snap);
    free(b->work);
    free(b->pos);
    free(b->saved);
    free(b->pieces);
    free(b);
}
