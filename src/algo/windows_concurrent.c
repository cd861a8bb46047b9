/*
 * windows_concurrent.c - the window search of a device running
 * concurrently with the host's searches (windows_concurrent.h).
 *
 * The rounds run one after another on a thread of their own, which spends
 * them waiting for the GPU (cuda_wait sleeps between polls), so the host's
 * threads keep their cores.  A round searches a copy of the tour (work)
 * against the tour it started from (snap), position for position:
 * windows.c puts every window's path back at the positions it was cut
 * from.  The difference of the two is then cut into improved paths at
 * every position p where work's first p cities (from the round's first
 * window on) are snap's first p and the city after them kept its place:
 * each improved path runs between two cities that kept their places,
 * through the same cities as before, and no two improved paths share an
 * inner city.  An improved path is spliced into a tour where its inner
 * cities still lie between its two end cities as one path, in whatever
 * order the host's merges left them, and where it is shorter than that
 * path: the tour's positions between the two ends then take the improved
 * path's cities, which keeps one cycle through the same cities, and the
 * gain is the difference of the two paths' lengths, exactly.  So any set
 * of improved paths can be spliced, each on its own, in time proportional
 * to its length, with no walk of the whole tour while the host's threads
 * wait.
 *
 * With a device list (o.devices) the rounds' thread finds the list's
 * usable GPUs when it starts (a probe kernel on each: not on the host's
 * time), and each round's windows are dealt over them (windows.c, through
 * the batch): the same round in the same time, on more GPUs.  The Held-Karp
 * ascent and the first descent stay on the first GPU (solve.c).
 *
 * With o.alternate a round searches every other window (the next round
 * the others) and publishes their cities, from which the host's kicks
 * keep off while it runs (wt_concurrent_host_cities): the two then search
 * different places, rather than the same ones twice.
 *
 * So that the device does not wait for the host's next merge between
 * rounds, the thread starts the next round at once, from the tour of the
 * host's last merge (published at every splice) with the finished round's
 * improved paths spliced in; the host splices those into its own tour at
 * its next merge.  A round waits only where the host has not yet spliced
 * the one before it.
 */
#include "algo/windows_concurrent.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "algo/policy.h"
#include "algo/windows.h"
#include "core/error.h"
#include "core/instance.h"

/* An improved path: the path at positions from .. to (counted from the
 * round's offset) of work replaces snap's; from and to kept their cities. */
typedef struct improved_path {
    int from, to;
    int64_t gain; /* against snap's path */
    int64_t len;  /* of work's path */
} improved_path;

/* Stamps of the inner cities of one improved path at a time (n entries). */
typedef struct marks {
    uint32_t *stamp;
    uint32_t now;
} marks;

/* One round's tours and improved paths; two of them take turns. */
typedef struct round_buf {
    int32_t *snap, *work; /* n each: the tour at the round's start, its windows' result */
    improved_path *paths;
    int count, offset;
    bool ready; /* searched, improved paths found, not yet spliced */
    double gpu_s;
} round_buf;

struct wt_concurrent_windows {
    const wt_instance *inst;
    int n;
    wt_concurrent_opts o;
    uint64_t rounds_started, rounds_spliced;
    double deadline, started_at;
    double setup_s; /* the last round's seconds off the device's kernels */
    round_buf buf[2];
    wt_device device;   /* o.device's copy */
    int listed[WT_MAX_DEVICES], listed_count; /* o.devices' copy */
    wt_device_set devices; /* device and the list's other usable GPUs, found
                              by the rounds' thread when it starts */
    char devices_named[128]; /* devices' description once found (under lock) */
    int32_t *pos;       /* n: each city's position in snap, from the offset */
    int32_t *host_pos;  /* n: each city's position in the tour of a splice */
    int32_t *next_pos;  /* n: each city's position in the next round's snap */
    marks host_marks, thread_marks; /* for the splices, for the next round's start */
    uint8_t *owned[2];  /* n each, with o.alternate: the cities of the running
                           round's windows (owned[0]), the next round's made
                           in owned[1] */
    bool owning;        /* owned[0] holds a running round's */
    int32_t *published; /* n: the tour of the host's last splice */
    pthread_t thread;
    pthread_mutex_t lock;
    pthread_cond_t changed;
    bool thread_on, failed;
    volatile int stop; /* read by the round's search too */
    double gpu_s;
};

static void free_round(round_buf *rd)
{
    free(rd->snap);
    free(rd->work);
    free(rd->paths);
}

static bool alloc_round(round_buf *rd, size_t n)
{
    rd->snap = malloc(n * sizeof *rd->snap);
    rd->work = malloc(n * sizeof *rd->work);
    rd->paths = malloc((n / 2 + 1) * sizeof *rd->paths);
    return rd->snap && rd->work && rd->paths;
}

wt_status wt_concurrent_open(const wt_instance *inst, const wt_concurrent_opts *o,
                             wt_concurrent_windows **out, wt_error *err)
{
    *out = NULL;
    if (!inst || inst->n < 8 || !o || !o->device || !o->device->backend->windows ||
        !(o->round_s > 0) || o->window < 8 || (o->candidates && o->candidates_k < 1) ||
        wt_devices_check(o->devices, o->device_count, "wt_concurrent_open", NULL) != WT_OK)
        return wt_fail(err, WT_STATUS_INVALID_ARGUMENT, "wt_concurrent_open: need an instance "
                       "of at least 8 cities, a device with a window search, a round of more "
                       "than 0 s, windows of at least 8 cities, candidate lists of at "
                       "least 1 city if any and a device list as warptour.h's");
    size_t n = (size_t)inst->n;
    wt_concurrent_windows *cw = calloc(1, sizeof *cw);
    bool ok = cw && alloc_round(&cw->buf[0], n) && alloc_round(&cw->buf[1], n);
    if (ok) {
        cw->pos = malloc(n * sizeof *cw->pos);
        cw->host_pos = malloc(n * sizeof *cw->host_pos);
        cw->next_pos = malloc(n * sizeof *cw->next_pos);
        cw->published = malloc(n * sizeof *cw->published);
        cw->host_marks.stamp = calloc(n, sizeof *cw->host_marks.stamp);
        cw->thread_marks.stamp = calloc(n, sizeof *cw->thread_marks.stamp);
        ok = cw->pos && cw->host_pos && cw->next_pos && cw->published && cw->host_marks.stamp &&
             cw->thread_marks.stamp;
        for (int i = 0; ok && o->alternate && i < 2; i++)
            ok = (cw->owned[i] = malloc(n)) != NULL;
    }
    if (ok) {
        ok = pthread_mutex_init(&cw->lock, NULL) == 0;
        if (ok && pthread_cond_init(&cw->changed, NULL) != 0) {
            pthread_mutex_destroy(&cw->lock);
            ok = false;
        }
    }
    if (!ok) {
        wt_concurrent_close(cw);
        return wt_fail(err, WT_STATUS_OUT_OF_MEMORY, "out of memory for window searches "
                       "concurrent with the host's");
    }
    cw->inst = inst;
    cw->n = inst->n;
    cw->o = *o;
    cw->device = *o->device;
    cw->o.device = &cw->device;
    cw->listed_count = o->device_count;
    if (o->device_count > 0)
        memcpy(cw->listed, o->devices, (size_t)o->device_count * sizeof *cw->listed);
    cw->o.devices = cw->listed;
    wt_devices_one(&cw->device, &cw->devices);
    *out = cw;
    return WT_OK;
}

/* City at position q of t (a round's snap or work), counted from its offset. */
static int32_t at(const wt_concurrent_windows *cw, const round_buf *rd, const int32_t *t, int q)
{
    return t[(rd->offset + q) % cw->n];
}

static int64_t path_length(const wt_concurrent_windows *cw, const round_buf *rd,
                           const int32_t *t, int from, int to)
{
    int64_t len = 0;
    for (int q = from; q < to; q++)
        len += wt_dist(cw->inst, at(cw, rd, t, q), at(cw, rd, t, q + 1));
    return len;
}

/* The improved paths of rd's work against its snap (see the top of the file);
 * position 0 is a window's first city and n - 1 a window's last, which
 * keep their places. */
static void find_improved_paths(wt_concurrent_windows *cw, round_buf *rd)
{
    int n = cw->n;
    const int32_t *snap = rd->snap, *work = rd->work;
    rd->count = 0;
    for (int q = 0; q < n; q++) cw->pos[at(cw, rd, snap, q)] = q;
    for (int q = 1; q < n - 1; q++) {
        if (at(cw, rd, work, q) == at(cw, rd, snap, q)) continue;
        int a = q, last = a, far = cw->pos[at(cw, rd, work, a)];
        while (last + 1 < n - 1 &&
               !(far == last && at(cw, rd, work, last + 1) == at(cw, rd, snap, last + 1))) {
            last++;
            int p = cw->pos[at(cw, rd, work, last)];
            if (p > far) far = p;
        }
        if (!(far == last && at(cw, rd, work, last + 1) == at(cw, rd, snap, last + 1))) return;
        int64_t len = path_length(cw, rd, work, a - 1, last + 1);
        int64_t gain = path_length(cw, rd, snap, a - 1, last + 1) - len;
        if (gain > 0) rd->paths[rd->count++] = (improved_path){a - 1, last + 1, gain, len};
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
static int64_t walk_inside(const wt_concurrent_windows *cw, const int32_t *t, const marks *m,
                           int pu, int dir, int32_t v, int inner)
{
    int n = cw->n;
    int64_t len = 0;
    int32_t prev = t[pu];
    for (int i = 1; i <= inner; i++) {
        int32_t cur = t[wrap(pu + dir * i, n)];
        if (m->stamp[cur] != m->now) return -1;
        len += wt_dist(cw->inst, prev, cur);
        prev = cur;
    }
    if (t[wrap(pu + dir * (inner + 1), n)] != v) return -1;
    return len + wt_dist(cw->inst, prev, v);
}

/* Splices p into tour t (n cities, pos its positions) where its inner
 * cities lie between its ends as one path of t, longer than p: those
 * positions take p's cities.  Returns the exact gain, 0 where p was not
 * spliced. */
static int64_t splice_path(const wt_concurrent_windows *cw, const round_buf *rd,
                           const improved_path *p, int32_t *t, int32_t *pos, marks *m)
{
    int n = cw->n, inner = p->to - p->from - 1;
    int32_t u = at(cw, rd, rd->snap, p->from), v = at(cw, rd, rd->snap, p->to);
    next_stamp(m, n);
    for (int q = p->from + 1; q < p->to; q++) m->stamp[at(cw, rd, rd->snap, q)] = m->now;
    int pu = pos[u], dir = 1;
    int64_t was = walk_inside(cw, t, m, pu, dir, v, inner);
    if (was < 0) was = walk_inside(cw, t, m, pu, dir = -1, v, inner);
    if (was <= p->len) return 0;
    for (int i = 1; i <= inner; i++) {
        int q = wrap(pu + dir * i, n);
        t[q] = at(cw, rd, rd->work, p->from + i);
        pos[t[q]] = q;
    }
    return was - p->len;
}

/* Splices rd's improved paths into tour t (n cities, pos its positions),
 * each where it fits and gains; their gain. */
static int64_t splice_paths(const wt_concurrent_windows *cw, const round_buf *rd, int32_t *t,
                            int32_t *pos, marks *m)
{
    int64_t sum = 0;
    for (int i = 0; i < rd->count; i++) sum += splice_path(cw, rd, &rd->paths[i], t, pos, m);
    return sum;
}

static void fill_positions(const int32_t *t, int n, int32_t *pos)
{
    for (int q = 0; q < n; q++) pos[t[q]] = q;
}

/* The cities of the windows that o searches in rd's snap become the owned
 * ones (for the host's kicks to keep off). */
static void own_windows(wt_concurrent_windows *cw, const round_buf *rd,
                        const wt_windows_opts *o)
{
    int n = cw->n, all = wt_windows_count(n, o->window);
    uint8_t *mine = cw->owned[1];
    memset(mine, 0, (size_t)n);
    for (int w = 0; w < all; w++) {
        if (!wt_windows_searched(o, w)) continue;
        for (int q = wt_windows_first(n, all, w); q < wt_windows_first(n, all, w + 1); q++)
            mine[at(cw, rd, rd->snap, q)] = 1;
    }
    pthread_mutex_lock(&cw->lock);
    cw->owned[1] = cw->owned[0];
    cw->owned[0] = mine;
    cw->owning = true;
    pthread_mutex_unlock(&cw->lock);
}

int wt_concurrent_host_cities(wt_concurrent_windows *cw, const int32_t *tour, int32_t *out)
{
    if (!cw || !cw->o.alternate) return 0;
    int m = 0;
    pthread_mutex_lock(&cw->lock);
    if (cw->owning)
        for (int i = 0; i < cw->n; i++)
            if (!cw->owned[0][tour[i]]) out[m++] = tour[i];
    pthread_mutex_unlock(&cw->lock);
    return m;
}

/* Searches rd's work from its snap (set by the caller) for the round's
 * length, or until the deadline; false where the search failed.  The
 * batch's time limit includes its set-up (cutting the windows and their
 * lists, the copies to and from the GPU), so a round whose set-up (as
 * long as the last one's) would leave the GPU less than half its length
 * lasts that much longer (WT_CONCURRENT_SETUP_MAX_S at most).  Longer
 * rounds than that gave longer tours: their improved paths meet more of
 * the host's changes (bench/RESULTS.md, "Why rounds of 1 s and windows of
 * 1,000 cities (concurrent windows)"). */
static bool search_round(wt_concurrent_windows *cw, round_buf *rd, uint64_t number)
{
    double left = cw->deadline - wt_now(), want = cw->setup_s + cw->o.round_s / 2;
    if (want < cw->o.round_s) want = cw->o.round_s;
    bool cpu = cw->device.backend->host;
    wt_windows_opts o = {
        .window = cw->o.window,
        .three_opt = cw->o.three_opt,
        .offset = wt_windows_offset(cw->o.seed, number, cw->n),
        .time_limit_s = left < want ? left : want,
        .seed = cw->o.seed ^ (number * 0x9e3779b97f4a7c15ULL),
        .replicas = cpu ? 1 : 0, /* one thread: no use */
        .candidates = cw->o.candidates,
        .candidates_k = cw->o.candidates_k,
        .device = &cw->device,
        .devices = cw->devices.count > 1 ? &cw->devices : NULL,
        /* the set-up's threads; on the CPU the rounds' one thread */
        .threads = cpu ? 1 : WT_CONCURRENT_SETUP_THREADS,
        .stop_flag = &cw->stop,
    };
    rd->offset = o.offset;
    rd->count = 0;
    rd->gpu_s = 0;
    memcpy(rd->work, rd->snap, (size_t)cw->n * sizeof *rd->work);
    if (!(o.time_limit_s > 0)) return true; /* the deadline came meanwhile */
    if (cw->o.alternate) {
        o.stride = 2;
        o.phase = (int)(number % 2);
        own_windows(cw, rd, &o);
    }
    wt_windows_round done;
    wt_error err;
    if (wt_windows_round_run(cw->inst, rd->work, &o, &done, &err) != WT_OK) return false;
    rd->gpu_s = done.gpu_s;
    /* The CPU's search has no kernels; several GPUs' kernel seconds add up
     * over the same wall time. */
    double off = cpu ? 0 : done.wall_s - done.gpu_s / cw->devices.count;
    cw->setup_s = off < 0 ? 0 : off > WT_CONCURRENT_SETUP_MAX_S ? WT_CONCURRENT_SETUP_MAX_S : off;
    find_improved_paths(cw, rd);
    return true;
}

/* The next round's start: the tour of the host's last splice with rd's
 * improved paths spliced in. */
static void next_start(wt_concurrent_windows *cw, const round_buf *rd, int32_t *snap)
{
    pthread_mutex_lock(&cw->lock);
    memcpy(snap, cw->published, (size_t)cw->n * sizeof *snap);
    pthread_mutex_unlock(&cw->lock);
    fill_positions(snap, cw->n, cw->next_pos);
    splice_paths(cw, rd, snap, cw->next_pos, &cw->thread_marks);
}

/* Whether the thread should start no further round (under the lock): not
 * one whose set-up (as long as the last one's, which no stop interrupts)
 * would end near the deadline (WT_CONCURRENT_MIN_LEFT_S). */
static bool ending(const wt_concurrent_windows *cw)
{
    return cw->stop || cw->failed ||
           cw->deadline - wt_now() < WT_CONCURRENT_MIN_LEFT_S + cw->setup_s;
}

static void *run_rounds(void *arg)
{
    wt_concurrent_windows *cw = arg;
    char names[128] = "";
    if (cw->listed_count != 0) /* the set's description begins with this device's */
        (void)wt_device_usable(&cw->device, names, sizeof names);
    (void)wt_devices_expand(&cw->device, cw->listed, cw->listed_count, false, &cw->devices,
                            names, sizeof names, NULL); /* lenient: never fails */
    pthread_mutex_lock(&cw->lock);
    if (cw->devices.count > 1) snprintf(cw->devices_named, sizeof cw->devices_named, "%s", names);
    pthread_mutex_unlock(&cw->lock);
    for (int i = 0;; i = 1 - i) {
        round_buf *rd = &cw->buf[i], *other = &cw->buf[1 - i];
        bool ok = search_round(cw, rd, cw->rounds_started - 1);
        pthread_mutex_lock(&cw->lock);
        if (ok)
            rd->ready = true;
        else
            cw->failed = true;
        pthread_cond_broadcast(&cw->changed);
        /* The next round's buffers are the one before's: spliced first. */
        while (other->ready && !ending(cw)) pthread_cond_wait(&cw->changed, &cw->lock);
        bool end = ending(cw);
        if (!end) cw->rounds_started++;
        if (end) cw->owning = false; /* the host's kicks may go anywhere again */
        pthread_mutex_unlock(&cw->lock);
        if (end) return NULL;
        next_start(cw, rd, other->snap);
    }
}

void wt_concurrent_start(wt_concurrent_windows *cw, const int32_t *tour, double deadline)
{
    if (cw->thread_on || cw->failed || cw->rounds_started > 0) return;
    if (deadline - wt_now() < WT_CONCURRENT_MIN_LEFT_S) return;
    size_t n = (size_t)cw->n;
    cw->deadline = deadline;
    memcpy(cw->buf[0].snap, tour, n * sizeof *tour);
    memcpy(cw->published, tour, n * sizeof *tour);
    cw->stop = 0;
    cw->rounds_started = 1;
    cw->started_at = wt_now();
    if (pthread_create(&cw->thread, NULL, run_rounds, cw) != 0) {
        cw->failed = true;
        return;
    }
    cw->thread_on = true;
}

bool wt_concurrent_running(wt_concurrent_windows *cw)
{
    if (!cw || cw->started_at == 0) return false;
    pthread_mutex_lock(&cw->lock);
    bool ready = cw->buf[0].ready || cw->buf[1].ready;
    pthread_mutex_unlock(&cw->lock);
    return cw->thread_on || ready;
}

/* The ready rounds, the older first. */
static int ready_order(wt_concurrent_windows *cw, round_buf **order)
{
    int k = 0;
    /* Round j (from 0) ran in buf[j % 2]; the older of two ready ones is
     * the one after the newest started. */
    int newest = (int)((cw->rounds_started - 1) % 2);
    for (int i = 1; i <= 2; i++) {
        round_buf *rd = &cw->buf[(newest + i) % 2];
        if (rd->ready) order[k++] = rd;
    }
    return k;
}

bool wt_concurrent_splice(wt_concurrent_windows *cw, int32_t *tour, bool wait, int64_t *gain)
{
    if (!cw || cw->started_at == 0) return false; /* not started (the caller's fields) */
    if (wait && cw->thread_on) {
        pthread_mutex_lock(&cw->lock);
        cw->stop = 1;
        pthread_cond_broadcast(&cw->changed);
        pthread_mutex_unlock(&cw->lock);
        pthread_join(cw->thread, NULL);
        cw->thread_on = false;
    }
    pthread_mutex_lock(&cw->lock);
    round_buf *order[2];
    int k = cw->failed ? 0 : ready_order(cw, order);
    int64_t sum = 0;
    if (k > 0) fill_positions(tour, cw->n, cw->host_pos);
    for (int i = 0; i < k; i++) {
        sum += splice_paths(cw, order[i], tour, cw->host_pos, &cw->host_marks);
        order[i]->ready = false;
        cw->gpu_s += order[i]->gpu_s;
        cw->rounds_spliced++;
    }
    memcpy(cw->published, tour, (size_t)cw->n * sizeof *tour);
    pthread_cond_broadcast(&cw->changed);
    pthread_mutex_unlock(&cw->lock);
    *gain += sum;
    return k > 0;
}

double wt_concurrent_gpu_s(const wt_concurrent_windows *cw) { return cw ? cw->gpu_s : 0; }

uint64_t wt_concurrent_rounds(const wt_concurrent_windows *cw)
{
    return cw ? cw->rounds_spliced : 0;
}

double wt_concurrent_started_at(const wt_concurrent_windows *cw) { return cw ? cw->started_at : 0; }

void wt_concurrent_devices_named(wt_concurrent_windows *cw, char *out, size_t size)
{
    if (size == 0) return;
    out[0] = '\0';
    if (!cw || cw->started_at == 0) return; /* named by the rounds' thread, even once joined */
    pthread_mutex_lock(&cw->lock);
    snprintf(out, size, "%s", cw->devices_named);
    pthread_mutex_unlock(&cw->lock);
}

void wt_concurrent_close(wt_concurrent_windows *cw)
{
    if (!cw) return;
    if (cw->thread_on) {
        pthread_mutex_lock(&cw->lock);
        cw->stop = 1;
        pthread_cond_broadcast(&cw->changed);
        pthread_mutex_unlock(&cw->lock);
        pthread_join(cw->thread, NULL);
    }
    if (cw->inst) { /* opened: the lock and condition exist */
        pthread_cond_destroy(&cw->changed);
        pthread_mutex_destroy(&cw->lock);
    }
    free_round(&cw->buf[0]);
    free_round(&cw->buf[1]);
    free(cw->pos);
    free(cw->owned[0]);
    free(cw->owned[1]);
    free(cw->host_marks.stamp);
    free(cw->thread_marks.stamp);
    free(cw->host_pos);
    free(cw->next_pos);
    free(cw->published);
    free(cw);
}
