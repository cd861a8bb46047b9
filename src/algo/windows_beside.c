/*
 * windows_beside.c - the GPU's window searches beside the host's searches
 * (windows_beside.h).
 *
 * The epochs run one after another on a thread of their own, which spends
 * them waiting for the GPU (cuda_wait sleeps between polls), so the host's
 * threads keep their cores.  An epoch searches a copy of the tour (work)
 * against the tour it started from (snap), position for position:
 * windows.c puts every window's path back at the positions it was cut
 * from.  The difference of the two is then cut into pieces at every
 * position p where work's first p cities (from the epoch's first window
 * on) are snap's first p and the city after them kept its place: each
 * piece is a path between two cities that kept their places, through the
 * same cities as before, and no two pieces share an inner city.  A piece
 * goes into a tour where its inner cities still lie between its two end
 * cities as one path, in whatever order the host's merges left them, and
 * where it is shorter than that path: the tour's positions between the
 * two ends then take the piece's cities, which keeps one cycle through the
 * same cities, and the gain is the difference of the two paths' lengths,
 * exactly.  So any set of pieces can go in, each on its own, in time
 * proportional to its length: no walk of the whole tour (at a million
 * cities one took about 0.05 s, several a take, while the host's threads
 * waited).
 *
 * With o.alternate an epoch searches every other window (the next epoch
 * the others) and publishes their cities, from which the host's kicks
 * keep off while it runs (wt_beside_free): the two then search different
 * places, rather than the same ones twice.
 *
 * So that the GPU does not wait for the host's next merge between epochs,
 * the thread starts the next epoch at once, from the tour of the host's
 * last merge (published at every take) with the finished epoch's pieces
 * in; the host takes those pieces into its own tour at its next merge.
 * An epoch waits only where the host has not yet taken the one before it.
 */
#include "algo/windows_beside.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "algo/windows.h"
#include "core/error.h"
#include "core/instance.h"

/* A piece: the path at positions from .. to (counted from the epoch's
 * offset) of work replaces snap's; from and to kept their cities. */
typedef struct piece {
    int from, to;
    int64_t gain; /* against snap's path */
    int64_t len;  /* of work's path */
} piece;

/* Stamps of the cities of one piece's inside at a time (n entries). */
typedef struct marks {
    uint32_t *stamp;
    uint32_t now;
} marks;

/* One epoch's tours and pieces; two of them take turns. */
typedef struct epoch {
    int32_t *snap, *work; /* n each: the tour at the epoch's start, its windows' result */
    piece *pieces;
    int count, offset;
    bool ready; /* searched, pieces found, not yet taken in */
    double gpu_s;
} epoch;

struct wt_beside {
    const wt_instance *inst;
    int n;
    wt_beside_opts o;
    uint64_t epochs_started, epochs_taken;
    double deadline, started_at;
    double setup_s; /* the last epoch's seconds off the GPU's kernels */
    epoch ep[2];
    int32_t *pos;       /* n: each city's position in snap, from the offset */
    int32_t *host_pos;  /* n: each city's position in the tour of a take */
    int32_t *next_pos;  /* n: each city's position in the next epoch's snap */
    marks host_marks, thread_marks; /* for the takes, for the next epoch's start */
    uint8_t *owned[2];  /* n each, with o.alternate: the cities of the running
                           epoch's windows (owned[0]), the next epoch's made
                           in owned[1] */
    bool owning;        /* owned[0] holds a running epoch's */
    int32_t *published; /* n: the tour of the host's last take */
    pthread_t thread;
    pthread_mutex_t lock;
    pthread_cond_t changed;
    bool thread_on, failed;
    volatile int stop; /* read by the epoch's search too */
    double gpu_s;
};

static void free_epoch(epoch *e)
{
    free(e->snap);
    free(e->work);
    free(e->pieces);
}

static bool alloc_epoch(epoch *e, size_t n)
{
    e->snap = malloc(n * sizeof *e->snap);
    e->work = malloc(n * sizeof *e->work);
    e->pieces = malloc((n / 2 + 1) * sizeof *e->pieces);
    return e->snap && e->work && e->pieces;
}

wt_status wt_beside_open(const wt_instance *inst, const wt_beside_opts *o, wt_beside **out,
                         wt_error *err)
{
    *out = NULL;
    if (!inst || inst->n < 8 || !o ||
        (o->backend != WT_BACKEND_CPU && o->backend != WT_BACKEND_CUDA) || !(o->epoch_s > 0) ||
        o->window < 8 || (o->candidates && o->candidates_k < 1))
        return wt_fail(err, WT_STATUS_INVALID_ARGUMENT, "wt_beside_open: need an instance of "
                       "at least 8 cities, the cpu or cuda backend, an epoch of more than 0 s, "
                       "windows of at least 8 cities and candidate lists of at least 1 city "
                       "if any");
    size_t n = (size_t)inst->n;
    wt_beside *b = calloc(1, sizeof *b);
    bool ok = b && alloc_epoch(&b->ep[0], n) && alloc_epoch(&b->ep[1], n);
    if (ok) {
        b->pos = malloc(n * sizeof *b->pos);
        b->host_pos = malloc(n * sizeof *b->host_pos);
        b->next_pos = malloc(n * sizeof *b->next_pos);
        b->published = malloc(n * sizeof *b->published);
        b->host_marks.stamp = calloc(n, sizeof *b->host_marks.stamp);
        b->thread_marks.stamp = calloc(n, sizeof *b->thread_marks.stamp);
        ok = b->pos && b->host_pos && b->next_pos && b->published && b->host_marks.stamp &&
             b->thread_marks.stamp;
        for (int i = 0; ok && o->alternate && i < 2; i++)
            ok = (b->owned[i] = malloc(n)) != NULL;
    }
    if (ok) {
        ok = pthread_mutex_init(&b->lock, NULL) == 0;
        if (ok && pthread_cond_init(&b->changed, NULL) != 0) {
            pthread_mutex_destroy(&b->lock);
            ok = false;
        }
    }
    if (!ok) {
        wt_beside_close(b);
        return wt_fail(err, WT_STATUS_OUT_OF_MEMORY, "out of memory for window searches beside "
                       "the host's");
    }
    b->inst = inst;
    b->n = inst->n;
    b->o = *o;
    *out = b;
    return WT_OK;
}

/* City at position q of t (an epoch's snap or work), counted from its offset. */
static int32_t at(const wt_beside *b, const epoch *e, const int32_t *t, int q)
{
    return t[(e->offset + q) % b->n];
}

static int64_t path_length(const wt_beside *b, const epoch *e, const int32_t *t, int from,
                           int to)
{
    int64_t len = 0;
    for (int q = from; q < to; q++)
        len += wt_dist(b->inst, at(b, e, t, q), at(b, e, t, q + 1));
    return len;
}

/* The pieces of e's work against its snap (see the top of the file);
 * position 0 is a window's first city and n - 1 a window's last, which
 * keep their places. */
static void find_pieces(wt_beside *b, epoch *e)
{
    int n = b->n;
    const int32_t *snap = e->snap, *work = e->work;
    e->count = 0;
    for (int q = 0; q < n; q++) b->pos[at(b, e, snap, q)] = q;
    for (int q = 1; q < n - 1; q++) {
        if (at(b, e, work, q) == at(b, e, snap, q)) continue;
        int a = q, last = a, far = b->pos[at(b, e, work, a)];
        while (last + 1 < n - 1 &&
               !(far == last && at(b, e, work, last + 1) == at(b, e, snap, last + 1))) {
            last++;
            int p = b->pos[at(b, e, work, last)];
            if (p > far) far = p;
        }
        if (!(far == last && at(b, e, work, last + 1) == at(b, e, snap, last + 1))) return;
        int64_t len = path_length(b, e, work, a - 1, last + 1);
        int64_t gain = path_length(b, e, snap, a - 1, last + 1) - len;
        if (gain > 0) e->pieces[e->count++] = (piece){a - 1, last + 1, gain, len};
        q = last + 1;
    }
}

/* A new stamp for m's cities (all stamps cleared when they run out). */
static uint32_t next_stamp(marks *m, int n)
{
    if (++m->now == 0) {
        memset(m->stamp, 0, (size_t)n * sizeof *m->stamp);
        m->now = 1;
    }
    return m->now;
}

/* Position q of a tour of n cities, q in (-n, 2 n). */
static int wrap(int q, int n) { return q < 0 ? q + n : q >= n ? q - n : q; }

/* The path of tour t from position pu, step dir (+1 or -1), if its next
 * `inner` cities are the stamped ones and the city after them v: its
 * length from t[pu] to v, else -1. */
static int64_t walk_inside(const wt_beside *b, const int32_t *t, const marks *m, int pu,
                           int dir, int32_t v, int inner)
{
    int n = b->n;
    int64_t len = 0;
    int32_t prev = t[pu];
    for (int i = 1; i <= inner; i++) {
        int32_t cur = t[wrap(pu + dir * i, n)];
        if (m->stamp[cur] != m->now) return -1;
        len += wt_dist(b->inst, prev, cur);
        prev = cur;
    }
    if (t[wrap(pu + dir * (inner + 1), n)] != v) return -1;
    return len + wt_dist(b->inst, prev, v);
}

/* p into tour t (n cities, pos its positions) where its inside cities lie
 * between its ends as one path of t, longer than p's: those positions take
 * p's cities.  Returns the exact gain, 0 where p did not go in. */
static int64_t put_piece(const wt_beside *b, const epoch *e, const piece *p, int32_t *t,
                         int32_t *pos, marks *m)
{
    int n = b->n, inner = p->to - p->from - 1;
    int32_t u = at(b, e, e->snap, p->from), v = at(b, e, e->snap, p->to);
    next_stamp(m, n);
    for (int q = p->from + 1; q < p->to; q++) m->stamp[at(b, e, e->snap, q)] = m->now;
    int pu = pos[u], dir = 1;
    int64_t was = walk_inside(b, t, m, pu, dir, v, inner);
    if (was < 0) was = walk_inside(b, t, m, pu, dir = -1, v, inner);
    if (was <= p->len) return 0;
    for (int i = 1; i <= inner; i++) {
        int q = wrap(pu + dir * i, n);
        t[q] = at(b, e, e->work, p->from + i);
        pos[t[q]] = q;
    }
    return was - p->len;
}

/* e's pieces into tour t (n cities, pos its positions), each where it
 * fits and gains; their gain. */
static int64_t put_pieces(const wt_beside *b, const epoch *e, int32_t *t, int32_t *pos, marks *m)
{
    int64_t sum = 0;
    for (int i = 0; i < e->count; i++) sum += put_piece(b, e, &e->pieces[i], t, pos, m);
    return sum;
}

static void fill_positions(const int32_t *t, int n, int32_t *pos)
{
    for (int q = 0; q < n; q++) pos[t[q]] = q;
}

/* The cities of the windows that o searches in e's snap become the owned
 * ones (for the host's kicks to keep off). */
static void own_windows(wt_beside *b, const epoch *e, const wt_windows_opts *o)
{
    int n = b->n, all = wt_windows_count(n, o->window);
    uint8_t *mine = b->owned[1];
    memset(mine, 0, (size_t)n);
    for (int w = 0; w < all; w++) {
        if (!wt_windows_searched(o, w)) continue;
        for (int q = wt_windows_first(n, all, w); q < wt_windows_first(n, all, w + 1); q++)
            mine[at(b, e, e->snap, q)] = 1;
    }
    pthread_mutex_lock(&b->lock);
    b->owned[1] = b->owned[0];
    b->owned[0] = mine;
    b->owning = true;
    pthread_mutex_unlock(&b->lock);
}

int wt_beside_free(wt_beside *b, const int32_t *tour, int32_t *out)
{
    if (!b || !b->o.alternate) return 0;
    int m = 0;
    pthread_mutex_lock(&b->lock);
    if (b->owning)
        for (int i = 0; i < b->n; i++)
            if (!b->owned[0][tour[i]]) out[m++] = tour[i];
    pthread_mutex_unlock(&b->lock);
    return m;
}

/* The most seconds an epoch's set-up adds to its length. */
#define SETUP_MAX_S 10.0

/* Threads of an epoch's set-up on the GPU (cutting the windows and their
 * lists, packing them for the GPU and back), beside the host's threads,
 * whose cores they share for a few hundredths of a second an epoch: at a
 * million cities (H100 machine, 16 cores, 10 s) the GPU's kernels ran
 * 0.80 of the time from its first epoch on, against 0.76 on one thread. */
enum { SETUP_THREADS = 4 };

/* Searches e's work from its snap (set by the caller) for the epoch's
 * length, or until the deadline; false where the search failed.  The
 * batch's time limit includes its set-up (cutting the windows and their
 * lists, the copies to and from the GPU), so an epoch
 * whose set-up (as long as the last one's) would leave the GPU less than
 * half its length lasts that much longer.  Longer epochs than that gave
 * longer tours: their pieces meet more of the host's changes
 * (bench/RESULTS.md). */
static bool search_epoch(wt_beside *b, epoch *e, uint64_t number)
{
    double left = b->deadline - wt_now(), want = b->setup_s + b->o.epoch_s / 2;
    if (want < b->o.epoch_s) want = b->o.epoch_s;
    bool cpu = b->o.backend == WT_BACKEND_CPU;
    wt_windows_opts o = {
        .window = b->o.window,
        .three_opt = b->o.three_opt,
        .offset = wt_windows_offset(b->o.seed, number, b->n),
        .time_limit_s = left < want ? left : want,
        .seed = b->o.seed ^ (number * 0x9e3779b97f4a7c15ULL),
        .replicas = cpu ? 1 : 0, /* one thread: no use */
        .candidates = b->o.candidates,
        .candidates_k = b->o.candidates_k,
        .backend = b->o.backend,
        .threads = cpu ? 1 : SETUP_THREADS, /* on the CPU: the epochs' one thread */
        .cuda_device = b->o.cuda_device,
        .stop_flag = &b->stop,
    };
    e->offset = o.offset;
    e->count = 0;
    e->gpu_s = 0;
    memcpy(e->work, e->snap, (size_t)b->n * sizeof *e->work);
    if (!(o.time_limit_s > 0)) return true; /* the deadline came meanwhile */
    if (b->o.alternate) {
        o.stride = 2;
        o.phase = (int)(number % 2);
        own_windows(b, e, &o);
    }
    wt_windows_epoch ep;
    wt_error err;
    if (wt_windows_epoch_run(b->inst, e->work, &o, &ep, &err) != WT_OK) return false;
    e->gpu_s = ep.gpu_s;
    double off = cpu ? 0 : ep.wall_s - ep.gpu_s; /* the CPU's search has no kernels */
    b->setup_s = off < 0 ? 0 : off > SETUP_MAX_S ? SETUP_MAX_S : off;
    find_pieces(b, e);
    return true;
}

/* The next epoch's start: the tour of the host's last take with e's
 * pieces in. */
static void next_start(wt_beside *b, const epoch *e, int32_t *snap)
{
    pthread_mutex_lock(&b->lock);
    memcpy(snap, b->published, (size_t)b->n * sizeof *snap);
    pthread_mutex_unlock(&b->lock);
    fill_positions(snap, b->n, b->next_pos);
    put_pieces(b, e, snap, b->next_pos, &b->thread_marks);
}

/* Whether the thread should start no further epoch (under the lock): not
 * one whose set-up (as long as the last one's, which no stop interrupts)
 * would end near the deadline. */
static bool ending(const wt_beside *b)
{
    return b->stop || b->failed || b->deadline - wt_now() < 0.1 + b->setup_s;
}

static void *run_epochs(void *arg)
{
    wt_beside *b = arg;
    for (int i = 0;; i = 1 - i) {
        epoch *e = &b->ep[i], *other = &b->ep[1 - i];
        bool ok = search_epoch(b, e, b->epochs_started - 1);
        pthread_mutex_lock(&b->lock);
        if (ok)
            e->ready = true;
        else
            b->failed = true;
        pthread_cond_broadcast(&b->changed);
        /* The next epoch's buffers are the one before's: taken in first. */
        while (other->ready && !ending(b)) pthread_cond_wait(&b->changed, &b->lock);
        bool end = ending(b);
        if (!end) b->epochs_started++;
        if (end) b->owning = false; /* the host's kicks may go anywhere again */
        pthread_mutex_unlock(&b->lock);
        if (end) return NULL;
        next_start(b, e, other->snap);
    }
}

void wt_beside_start(wt_beside *b, const int32_t *tour, double deadline)
{
    if (b->thread_on || b->failed || b->epochs_started > 0) return;
    if (deadline - wt_now() < 0.1) return;
    size_t n = (size_t)b->n;
    b->deadline = deadline;
    memcpy(b->ep[0].snap, tour, n * sizeof *tour);
    memcpy(b->published, tour, n * sizeof *tour);
    b->stop = 0;
    b->epochs_started = 1;
    b->started_at = wt_now();
    if (pthread_create(&b->thread, NULL, run_epochs, b) != 0) {
        b->failed = true;
        return;
    }
    b->thread_on = true;
}

bool wt_beside_running(wt_beside *b)
{
    if (!b || b->started_at == 0) return false;
    pthread_mutex_lock(&b->lock);
    bool ready = b->ep[0].ready || b->ep[1].ready;
    pthread_mutex_unlock(&b->lock);
    return b->thread_on || ready;
}

/* The ready epochs, the older first. */
static int ready_order(wt_beside *b, epoch **order)
{
    int k = 0;
    /* Epoch j (from 0) ran in ep[j % 2]; the older of two ready ones is
     * the one after the newest started. */
    int newest = (int)((b->epochs_started - 1) % 2);
    for (int i = 1; i <= 2; i++) {
        epoch *e = &b->ep[(newest + i) % 2];
        if (e->ready) order[k++] = e;
    }
    return k;
}

bool wt_beside_take(wt_beside *b, int32_t *tour, bool wait, int64_t *gain)
{
    if (!b || b->started_at == 0) return false; /* not started (the caller's fields) */
    if (wait && b->thread_on) {
        pthread_mutex_lock(&b->lock);
        b->stop = 1;
        pthread_cond_broadcast(&b->changed);
        pthread_mutex_unlock(&b->lock);
        pthread_join(b->thread, NULL);
        b->thread_on = false;
    }
    pthread_mutex_lock(&b->lock);
    epoch *order[2];
    int k = b->failed ? 0 : ready_order(b, order);
    int64_t sum = 0;
    if (k > 0) fill_positions(tour, b->n, b->host_pos);
    for (int i = 0; i < k; i++) {
        sum += put_pieces(b, order[i], tour, b->host_pos, &b->host_marks);
        order[i]->ready = false;
        b->gpu_s += order[i]->gpu_s;
        b->epochs_taken++;
    }
    memcpy(b->published, tour, (size_t)b->n * sizeof *tour);
    pthread_cond_broadcast(&b->changed);
    pthread_mutex_unlock(&b->lock);
    *gain += sum;
    return k > 0;
}

double wt_beside_gpu_s(const wt_beside *b) { return b ? b->gpu_s : 0; }

uint64_t wt_beside_epochs(const wt_beside *b) { return b ? b->epochs_taken : 0; }

double wt_beside_started_at(const wt_beside *b) { return b ? b->started_at : 0; }

void wt_beside_close(wt_beside *b)
{
    if (!b) return;
    if (b->thread_on) {
        pthread_mutex_lock(&b->lock);
        b->stop = 1;
        pthread_cond_broadcast(&b->changed);
        pthread_mutex_unlock(&b->lock);
        pthread_join(b->thread, NULL);
    }
    if (b->inst) { /* opened: the lock and condition exist */
        pthread_cond_destroy(&b->changed);
        pthread_mutex_destroy(&b->lock);
    }
    free_epoch(&b->ep[0]);
    free_epoch(&b->ep[1]);
    free(b->pos);
    free(b->owned[0]);
    free(b->owned[1]);
    free(b->host_marks.stamp);
    free(b->thread_marks.stamp);
    free(b->host_pos);
    free(b->next_pos);
    free(b->published);
    free(b);
}
