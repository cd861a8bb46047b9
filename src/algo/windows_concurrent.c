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
 * wait; whether a path fits is read from its own cities' positions alone,
 * so a round's paths splice side by side on the host's threads.  With
 * resident windows (windows.h) the windows are made and put back on the
 * GPUs, and only the tour crosses.
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
 * So that the device waits neither for the host's merges nor for the cut
 * of a round into improved paths, the thread starts the next round at
 * once: where the host has not spliced since the last round started, from
 * that round's result, its improved paths cut meanwhile on a thread of
 * their own (about 0.15 s at ten million cities); else, once the
 * round is cut, from the tour of the host's last splice (published at every
 * splice) with the improved paths of every round it has not yet spliced.
 * The rounds' improved paths are kept (their cities, not whole tours) until
 * the host splices them, the older round's first, at its next merge; a
 * round waits only where o.ahead rounds already wait for it (or their
 * paths hold o.ahead_cities cities), which happens where the host's merges
 * come several rounds apart (its rounds on segments of millions of cities
 * take seconds).
 */
#include "algo/windows_concurrent.h"

#include <assert.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "algo/policy.h"
#include "algo/windows.h"
#include "core/error.h"
#include "core/instance.h"

/* An improved path of a round: cities[first .. first + inner + 1] of its
 * record, in their new order; its two ends kept their places, and its inner
 * cities are the ones of the path it replaces. */
typedef struct improved_path {
    size_t first;
    int inner;
    int from;    /* its first city's position in the round's tour, from the offset */
    int64_t len; /* of the new order, end to end */
} improved_path;

/* A searched round's improved paths, kept until the host splices them. */
typedef struct round_paths {
    int offset;   /* the round's: its paths' positions count from it */
    improved_path *paths;
    int count, paths_cap;
    int32_t *cities;
    size_t used, cities_cap;
    double gpu_s;
} round_paths;

struct wt_concurrent_windows {
    const wt_instance *inst;
    int n;
    wt_concurrent_opts o;
    int ahead; /* rounds searched and not yet spliced, at most (the records) */
    size_t ahead_cities; /* and the cities their records hold, at most before
                            a round starts */
    round_paths *rec; /* ahead records: round j's in rec[j % ahead] */
    /* Rounds started, searched (their paths recorded) and spliced: the
     * records of rounds spliced .. done - 1 wait for the host's splice. */
    uint64_t rounds_started, rounds_done, rounds_spliced;
    uint64_t publishes, publishes_seen; /* the host's splices; as of snap's start */
    double deadline, started_at;
    double setup_s; /* the last round's seconds off the device's kernels */
    wt_device device;   /* o.device's copy */
    int listed[WT_MAX_DEVICES], listed_count; /* o.devices' copy */
    wt_device_set devices; /* device and the list's other usable GPUs, found
                              by the rounds' thread when it starts */
    wt_windows_resident_set *resident; /* on them, where they keep windows
                                          (opened by the rounds' thread) */
    char devices_named[128]; /* devices' description once found (under lock) */
    /* The rounds' thread's: the tour the next round starts from (snap), its
     * positions while the rounds' paths are spliced into it (snap_pos: in a
     * rebase onto the host's tour), the round's copy of it (work), and the
     * tour a round whose paths are cut while the next one runs started from
     * (prev). */
    int32_t *snap, *snap_pos, *work, *prev;
    int32_t *pos;       /* n: each city's position in a cut round's start,
                           from its offset */
    uint64_t chained;   /* rounds started while the last one's paths were cut */
    int32_t *host_pos;  /* n: each city's position in the tour of a splice */
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

static void free_records(wt_concurrent_windows *cw)
{
    for (int i = 0; cw->rec && i < cw->ahead; i++) {
        free(cw->rec[i].paths);
        free(cw->rec[i].cities);
    }
    free(cw->rec);
}

/* The rounds that may wait for the host's splices: tuned, else the policy's. */
static int rounds_ahead(int tuned)
{
    return tuned > 0 ? tuned : WT_CONCURRENT_AHEAD;
}

wt_status wt_concurrent_open(const wt_instance *inst, const wt_concurrent_opts *o,
                             wt_concurrent_windows **out, wt_error *err)
{
    *out = NULL;
    if (!inst || inst->n < 8 || !o || !o->device || !o->device->backend->windows ||
        !(o->round_s > 0) || o->window < 8 || (o->candidates && o->candidates_k < 1) ||
        o->ahead < 0 || o->ahead > WT_CONCURRENT_AHEAD_MAX || o->ahead_cities < 0 ||
        wt_devices_check(o->devices, o->device_count, "wt_concurrent_open", NULL) != WT_OK)
        return wt_fail(err, WT_STATUS_INVALID_ARGUMENT, "wt_concurrent_open: need an instance "
                       "of at least 8 cities, a device with a window search, a round of more "
                       "than 0 s, windows of at least 8 cities, candidate lists of at "
                       "least 1 city if any, rounds ahead of the host's splices 0 to %d, their "
                       "cities 0 or more and a device list as warptour.h's",
                       WT_CONCURRENT_AHEAD_MAX);
    size_t n = (size_t)inst->n;
    wt_concurrent_windows *cw = calloc(1, sizeof *cw);
    bool ok = cw != NULL;
    if (ok) {
        cw->ahead = rounds_ahead(o->ahead);
        cw->ahead_cities = o->ahead_cities ? (size_t)o->ahead_cities
                                           : (size_t)WT_CONCURRENT_AHEAD_TOURS * n;
        cw->rec = calloc((size_t)cw->ahead, sizeof *cw->rec);
        cw->snap = malloc(n * sizeof *cw->snap);
        cw->snap_pos = malloc(n * sizeof *cw->snap_pos);
        cw->work = malloc(n * sizeof *cw->work);
        cw->prev = malloc(n * sizeof *cw->prev);
        cw->pos = malloc(n * sizeof *cw->pos);
        cw->host_pos = malloc(n * sizeof *cw->host_pos);
        cw->published = malloc(n * sizeof *cw->published);
        ok = cw->rec && cw->snap && cw->snap_pos && cw->work && cw->prev && cw->pos &&
             cw->host_pos && cw->published;
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

/* A searched round whose improved paths are cut: the tour it started
 * from, the one it ended with, and the record they go to (its offset). */
typedef struct round_cut {
    wt_concurrent_windows *cw;
    const int32_t *start, *result;
    round_paths *rec;
    bool ok; /* false where memory ran out */
} round_cut;

/* City at position q of t (n cities), counted from offset. */
static int32_t at(int n, int offset, const int32_t *t, int q)
{
    int head = n - offset; /* positions before the wrap; no division */
    return t[q < head ? offset + q : q - head];
}

static int64_t path_length(const round_cut *r, const int32_t *t, int from, int to)
{
    int n = r->cw->n, offset = r->rec->offset;
    int64_t len = 0;
    for (int q = from; q < to; q++)
        len += wt_dist(r->cw->inst, at(n, offset, t, q), at(n, offset, t, q + 1));
    return len;
}

/* Appends the result's path at positions from .. to (from the offset) to
 * the record; false where memory ran out. */
static bool record_path(const round_cut *r, int from, int to, int64_t len)
{
    round_paths *rec = r->rec;
    size_t need = rec->used + (size_t)(to - from + 1);
    if (rec->count == rec->paths_cap) {
        int cap = rec->paths_cap ? 2 * rec->paths_cap : 1024;
        improved_path *grown = realloc(rec->paths, (size_t)cap * sizeof *grown);
        if (!grown) return false;
        rec->paths = grown;
        rec->paths_cap = cap;
    }
    if (need > rec->cities_cap) {
        size_t cap = rec->cities_cap ? 2 * rec->cities_cap : 16384;
        while (cap < need) cap *= 2;
        int32_t *grown = realloc(rec->cities, cap * sizeof *grown);
        if (!grown) return false;
        rec->cities = grown;
        rec->cities_cap = cap;
    }
    rec->paths[rec->count++] = (improved_path){rec->used, to - from - 1, from, len};
    for (int q = from; q <= to; q++)
        rec->cities[rec->used++] = at(r->cw->n, rec->offset, r->result, q);
    return true;
}

/* The improved paths of the round's result against its start (see the
 * top of the file) in positions from .. hi - 2 into the record, whose
 * cities' positions in the start cw->pos holds: the positions before from
 * and hi - 1 kept their cities.  False where memory ran out. */
static bool find_in(const round_cut *r, int from, int hi)
{
    const int32_t *start = r->start, *result = r->result, *pos = r->cw->pos;
    int n = r->cw->n, off = r->rec->offset;
    for (int q = from; q < hi - 1; q++) {
        if (at(n, off, result, q) == at(n, off, start, q)) continue;
        int a = q, last = a, far = pos[at(n, off, result, a)];
        while (last + 1 < hi - 1 &&
               !(far == last && at(n, off, result, last + 1) == at(n, off, start, last + 1))) {
            last++;
            int p = pos[at(n, off, result, last)];
            if (p > far) far = p;
        }
        if (!(far == last && at(n, off, result, last + 1) == at(n, off, start, last + 1)))
            return true;
        int64_t len = path_length(r, result, a - 1, last + 1);
        int64_t gain = path_length(r, start, a - 1, last + 1) - len;
        if (gain > 0 && !record_path(r, a - 1, last + 1, len)) return false;
        q = last + 1;
    }
    return true;
}

/* The improved paths of the round's result against its start into its
 * record, window by window: a window's path keeps its two ends and its
 * cities, so only the windows that changed are looked into, and only their
 * cities' positions taken.  r->ok false where memory ran out. */
static void cut_round(round_cut *r)
{
    int n = r->cw->n, all = wt_windows_count(n, r->cw->o.window), off = r->rec->offset;
    r->rec->count = 0;
    r->rec->used = 0;
    r->ok = true;
    for (int w = 0; w < all && r->ok; w++) {
        int lo = wt_windows_first(n, all, w), hi = wt_windows_first(n, all, w + 1), q = lo;
        while (q < hi && at(n, off, r->result, q) == at(n, off, r->start, q)) q++;
        if (q == hi) continue;
        for (int p = lo; p < hi; p++) r->cw->pos[at(n, off, r->start, p)] = p;
        r->ok = find_in(r, q, hi); /* q > lo: a window's ends stay */
    }
}

static void *cut_round_run(void *arg)
{
    cut_round(arg);
    return NULL;
}

/* Position q of a tour of n cities, q in (-n, 2 n). */
static int wrap(int q, int n) { return q < 0 ? q + n : q >= n ? q - n : q; }

/* Whether the cities c[1 .. inner] lie at the `inner` positions after pu,
 * step dir (+1 or -1), of a tour whose positions pos gives, and c[inner +
 * 1] right after them.  The cities are distinct, so lying there they fill
 * those positions; only their own positions are read. */
static bool fills(const int32_t *pos, int n, const int32_t *c, int inner, int pu, int dir)
{
    for (int j = 1; j <= inner + 1; j++) {
        int off = dir > 0 ? pos[c[j]] - pu : pu - pos[c[j]];
        if (off <= 0) off += n;
        if (j <= inner ? off > inner : off != inner + 1) return false;
    }
    return true;
}

/* The length of tour t's path from position pu, step dir, over `inner`
 * cities and the one after them. */
static int64_t walk_length(const wt_concurrent_windows *cw, const int32_t *t, int pu, int dir,
                           int inner)
{
    int64_t len = 0;
    for (int i = 0; i <= inner; i++)
        len += wt_dist(cw->inst, t[wrap(pu + dir * i, cw->n)], t[wrap(pu + dir * (i + 1), cw->n)]);
    return len;
}

/* Whether the path of cities c[0 .. inner + 1] keeps every fixed edge
 * (o.fixed) of its inner cities: the tour it goes into holds them, so
 * each joins an inner city to another or to an end, and must stay
 * between neighbours of c. */
static bool keeps_fixed(const int32_t *fixed, const int32_t *c, int inner)
{
    if (!fixed) return true;
    for (int i = 1; i <= inner; i++)
        for (int side = 0; side < 2; side++) {
            int32_t f = fixed[2 * c[i] + side];
            if (f >= 0 && f != c[i - 1] && f != c[i + 1]) return false;
        }
    return true;
}

/* Splices p (of rec) into tour t (n cities, pos its positions) where its
 * inner cities lie between its ends as one path of t, longer than p, and
 * it keeps the fixed edges: those
 * positions take p's cities.  Returns the exact gain, 0 where p was not
 * spliced.  Reads and writes only the positions of p's own cities and the
 * tour's entries between p's ends, so the paths of one round (no two share
 * an inner city, nor one's inner city another's end) splice side by side. */
static int64_t splice_path(const wt_concurrent_windows *cw, const round_paths *rec,
                           const improved_path *p, int32_t *t, int32_t *pos)
{
    const int32_t *c = rec->cities + p->first;
    int n = cw->n, inner = p->inner, pu = pos[c[0]], dir = 1;
    if (!keeps_fixed(cw->o.fixed, c, inner)) return 0;
    if (!fills(pos, n, c, inner, pu, dir) && !fills(pos, n, c, inner, pu, dir = -1)) return 0;
    int64_t was = walk_length(cw, t, pu, dir, inner);
    if (was <= p->len) return 0;
    for (int i = 1; i <= inner; i++) {
        int q = wrap(pu + dir * i, n);
        t[q] = c[i];
        pos[t[q]] = q;
    }
    return was - p->len;
}

/* Splices rec's improved paths into tour t (n cities, pos its positions),
 * each where it fits and gains, on `threads` threads; their gain. */
static int64_t splice_paths(const wt_concurrent_windows *cw, const round_paths *rec,
                            int32_t *t, int32_t *pos, int threads)
{
    int64_t sum = 0;
    if (threads < 1) threads = 1;
#pragma omp parallel for num_threads(threads) schedule(dynamic, 64) reduction(+ : sum) \
    if (threads > 1 && rec->count >= 64)
    for (int i = 0; i < rec->count; i++) sum += splice_path(cw, rec, &rec->paths[i], t, pos);
    return sum;
}

static void fill_positions(const int32_t *t, int n, int32_t *pos, int threads)
{
    if (threads < 1) threads = 1;
#pragma omp parallel for num_threads(threads) schedule(static) if (threads > 1 && n > 100000)
    for (int q = 0; q < n; q++) pos[t[q]] = q;
}

/* The cities of the windows that o searches in snap become the owned ones
 * (for the host's kicks to keep off). */
static void own_windows(wt_concurrent_windows *cw, const wt_windows_opts *o)
{
    int n = cw->n, all = wt_windows_count(n, o->window);
    uint8_t *mine = cw->owned[1];
    memset(mine, 0, (size_t)n);
    for (int w = 0; w < all; w++) {
        if (!wt_windows_searched(o, w)) continue;
        for (int q = wt_windows_first(n, all, w); q < wt_windows_first(n, all, w + 1); q++)
            mine[at(n, o->offset, cw->snap, q)] = 1;
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

/* A record taken up again gives back memory above its share of
 * ahead_cities (a round of many improved paths grew it), so that the
 * records' memory stays within a few tours' worth: the waiting ones' by
 * ahead_cities, the others' by their shares. */
static void shrink_record(const wt_concurrent_windows *cw, round_paths *rec)
{
    size_t share = cw->ahead_cities / (size_t)cw->ahead;
    if (share < 16384) share = 16384; /* record_path's first size: no churn */
    if (rec->cities_cap > share) {
        free(rec->cities);
        rec->cities = NULL;
        rec->cities_cap = 0;
    }
    if ((size_t)rec->paths_cap > share / 4) {
        free(rec->paths);
        rec->paths = NULL;
        rec->paths_cap = 0;
    }
}

/* Searches the round's work from snap for the round's length, or until
 * the deadline, and notes its offset and kernel seconds in rec (its paths
 * are cut later: cut_round); false where the search failed.  The batch's
 * time limit includes its set-up (cutting the windows and their lists, the
 * copies to and from the GPU), so a round
 * whose set-up (as long as the last one's) would leave the GPU less than
 * half its length lasts that much longer (WT_CONCURRENT_SETUP_MAX_S at
 * most).  Longer rounds than that gave longer tours: their improved paths
 * meet more of the host's changes (bench/RESULTS.md, "Why rounds of 1 s and
 * windows of 1,000 cities (concurrent windows)"). */
static bool search_round(wt_concurrent_windows *cw, round_paths *rec, uint64_t number)
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
        .resident = cw->resident,
    };
    rec->offset = o.offset;
    rec->count = 0;
    rec->used = 0;
    rec->gpu_s = 0;
    shrink_record(cw, rec);
    memcpy(cw->work, cw->snap, (size_t)cw->n * sizeof *cw->work);
    if (!(o.time_limit_s > 0)) return true; /* the deadline came meanwhile */
    if (cw->o.alternate) {
        o.stride = 2;
        o.phase = (int)(number % 2);
        own_windows(cw, &o);
    }
    wt_windows_round done;
    wt_error err;
    if (wt_windows_round_run(cw->inst, cw->work, &o, &done, &err) != WT_OK) return false;
    rec->gpu_s = done.gpu_s;
    /* The CPU's search has no kernels; several GPUs' kernel seconds add up
     * over the same wall time. */
    double off = cpu ? 0 : done.wall_s - done.gpu_s / cw->devices.count;
    cw->setup_s = off < 0 ? 0 : off > WT_CONCURRENT_SETUP_MAX_S ? WT_CONCURRENT_SETUP_MAX_S : off;
    return true;
}

/* Whether the thread should start no further round (under the lock): not
 * one whose set-up (as long as the last one's, which no stop interrupts)
 * would end near the deadline (WT_CONCURRENT_MIN_LEFT_S). */
static bool ending(const wt_concurrent_windows *cw)
{
    return cw->stop || cw->failed ||
           cw->deadline - wt_now() < WT_CONCURRENT_MIN_LEFT_S + cw->setup_s;
}

/* Writes rec's improved paths into snap, whose round they came from, at
 * their positions: they fit there, as found (no check, no lengths). */
static void apply_to_snap(wt_concurrent_windows *cw, const round_paths *rec)
{
    int n = cw->n;
    for (int i = 0; i < rec->count; i++) {
        const improved_path *p = &rec->paths[i];
        const int32_t *c = rec->cities + p->first;
        int q = (int)(((int64_t)rec->offset + p->from) % n);
        assert(cw->snap[q] == c[0]);
        for (int j = 1; j <= p->inner; j++) {
            if (++q == n) q = 0;
            cw->snap[q] = c[j];
        }
        assert(cw->snap[q == n - 1 ? 0 : q + 1] == c[p->inner + 1]);
    }
}

/* The next round's start after round `done` (recorded, counted in
 * rounds_done), under the lock on entry and on return: where the host has
 * not spliced since snap's start, snap with the round's improved paths
 * written in (they fit it all); else the tour of the host's last splice
 * with every round's improved paths that it has not spliced, the older
 * first, on the set-up's threads.  Records are written by this thread alone, so those it splices
 * stay as they are while the lock is let go. */
static void next_start(wt_concurrent_windows *cw, const round_paths *done)
{
    int n = cw->n;
    if (cw->publishes == cw->publishes_seen) {
        pthread_mutex_unlock(&cw->lock);
        apply_to_snap(cw, done);
        pthread_mutex_lock(&cw->lock);
        return;
    }
    memcpy(cw->snap, cw->published, (size_t)n * sizeof *cw->snap);
    cw->publishes_seen = cw->publishes;
    uint64_t from = cw->rounds_spliced, to = cw->rounds_done;
    pthread_mutex_unlock(&cw->lock);
    /* The device idles meanwhile: the round's set-up threads (on the CPU
     * the rounds' one thread). */
    int threads = cw->device.backend->host ? 1 : WT_CONCURRENT_SETUP_THREADS;
    fill_positions(cw->snap, n, cw->snap_pos, threads);
    for (uint64_t j = from; j < to; j++)
        splice_paths(cw, &cw->rec[j % (uint64_t)cw->ahead], cw->snap, cw->snap_pos, threads);
    pthread_mutex_lock(&cw->lock);
}

/* Resident windows on the rounds' GPUs where they keep them and the host's
 * candidate lists are given (o.resident): windows of up to 2 window - 1
 * cities (wt_windows_count), the whole tour where it is shorter. */
static void open_resident(wt_concurrent_windows *cw)
{
    if (cw->device.backend->host || !cw->o.candidates || !cw->o.resident) return;
    int most = 2 * cw->o.window - 1 < cw->n ? 2 * cw->o.window - 1 : cw->n;
    (void)wt_windows_resident_open(cw->inst, &cw->device,
                                   cw->devices.count > 1 ? &cw->devices : NULL,
                                   cw->o.candidates, cw->o.candidates_k, most, &cw->resident,
                                   NULL);
}

/* Whether a round may start after `rounds` searched (under the lock): its
 * record is free (fewer than ahead wait for the host's splice, the
 * searched ones counted), and the waiting ones' improved paths hold fewer
 * than ahead_cities cities. */
static bool room_after(const wt_concurrent_windows *cw, uint64_t rounds)
{
    if (rounds - cw->rounds_spliced >= (uint64_t)cw->ahead) return false;
    size_t cities = 0;
    for (uint64_t j = cw->rounds_spliced; j < cw->rounds_done; j++)
        cities += cw->rec[j % (uint64_t)cw->ahead].used;
    return cities < cw->ahead_cities;
}

/* Whether the round after `round` (searched, not yet cut) may start from
 * its result at once, its paths cut meanwhile (under the lock): where the
 * host has not spliced since the round's start, there is room for it
 * (room_after), and the rounds go on.  Counts it as started. */
static bool chain_next(wt_concurrent_windows *cw, uint64_t round)
{
    bool chain = cw->publishes == cw->publishes_seen && room_after(cw, round + 1) && !ending(cw);
    if (chain) {
        cw->rounds_started++;
        cw->chained++;
    }
    return chain;
}

/* Counts a round's cut (ok) or the rounds' failure, under the lock. */
static void count_cut(wt_concurrent_windows *cw, bool ok)
{
    if (ok)
        cw->rounds_done++;
    else
        cw->failed = true;
    pthread_cond_broadcast(&cw->changed);
}

/* Cuts the paths of the round just searched (its start snap, its result
 * work) on a thread of its own while the next round searches from that
 * result: snap becomes the result, work the buffer of the round's start
 * before the last (prev, read by the cut).  Returns whether both went
 * well; the cut is counted. */
static bool search_while_cut(wt_concurrent_windows *cw, round_paths *rec, round_paths *next,
                             uint64_t number)
{
    int32_t *start = cw->snap;
    cw->snap = cw->work;
    cw->work = cw->prev;
    cw->prev = start;
    round_cut cut = {cw, cw->prev, cw->snap, rec, false};
    pthread_t thread;
    bool threaded = pthread_create(&thread, NULL, cut_round_run, &cut) == 0;
    if (!threaded) cut_round(&cut);
    bool searched = search_round(cw, next, number);
    if (threaded) pthread_join(thread, NULL);
    pthread_mutex_lock(&cw->lock);
    count_cut(cw, cut.ok);
    pthread_mutex_unlock(&cw->lock);
    return searched && cut.ok;
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
    open_resident(cw);
    /* Round `round` has been searched (ok) when an iteration begins; its
     * record is free: rounds start only while fewer than ahead wait. */
    bool ok = search_round(cw, &cw->rec[0], 0);
    for (uint64_t round = 0;; round++) {
        round_paths *rec = &cw->rec[round % (uint64_t)cw->ahead];
        round_paths *next = &cw->rec[(round + 1) % (uint64_t)cw->ahead];
        pthread_mutex_lock(&cw->lock);
        bool chain = ok && chain_next(cw, round);
        pthread_mutex_unlock(&cw->lock);
        if (chain) {
            ok = search_while_cut(cw, rec, next, round + 1);
            continue;
        }
        round_cut cut = {cw, cw->snap, cw->work, rec, false};
        if (ok) cut_round(&cut);
        pthread_mutex_lock(&cw->lock);
        count_cut(cw, ok && cut.ok);
        if (ok && cut.ok) next_start(cw, rec);
        while (!room_after(cw, cw->rounds_done) && !ending(cw))
            pthread_cond_wait(&cw->changed, &cw->lock);
        bool end = ending(cw);
        if (!end) cw->rounds_started++;
        if (end) cw->owning = false; /* the host's kicks may go anywhere again */
        pthread_mutex_unlock(&cw->lock);
        if (end) {
            wt_windows_resident_close(cw->resident); /* on the thread that opened it */
            cw->resident = NULL;
            return NULL;
        }
        ok = search_round(cw, next, round + 1);
    }
}

void wt_concurrent_start(wt_concurrent_windows *cw, const int32_t *tour, double deadline)
{
    if (cw->thread_on || cw->failed || cw->rounds_started > 0) return;
    if (deadline - wt_now() < WT_CONCURRENT_MIN_LEFT_S) return;
    size_t n = (size_t)cw->n;
    cw->deadline = deadline;
    memcpy(cw->snap, tour, n * sizeof *tour);
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
    bool ready = cw->rounds_done > cw->rounds_spliced;
    pthread_mutex_unlock(&cw->lock);
    return cw->thread_on || ready;
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
    uint64_t from = cw->rounds_spliced, to = cw->failed ? from : cw->rounds_done;
    int64_t sum = 0;
    if (to > from) fill_positions(tour, cw->n, cw->host_pos, cw->o.host_threads);
    for (uint64_t j = from; j < to; j++) {
        const round_paths *rec = &cw->rec[j % (uint64_t)cw->ahead];
        sum += splice_paths(cw, rec, tour, cw->host_pos, cw->o.host_threads);
        cw->gpu_s += rec->gpu_s;
    }
    cw->rounds_spliced = to;
    memcpy(cw->published, tour, (size_t)cw->n * sizeof *tour);
    cw->publishes++;
    pthread_cond_broadcast(&cw->changed);
    pthread_mutex_unlock(&cw->lock);
    *gain += sum;
    return to > from;
}

double wt_concurrent_gpu_s(const wt_concurrent_windows *cw) { return cw ? cw->gpu_s : 0; }

uint64_t wt_concurrent_rounds(const wt_concurrent_windows *cw)
{
    return cw ? cw->rounds_spliced : 0;
}

double wt_concurrent_started_at(const wt_concurrent_windows *cw) { return cw ? cw->started_at : 0; }

uint64_t wt_concurrent_chained(wt_concurrent_windows *cw)
{
    if (!cw) return 0;
    pthread_mutex_lock(&cw->lock);
    uint64_t chained = cw->chained;
    pthread_mutex_unlock(&cw->lock);
    return chained;
}

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
    free_records(cw);
    free(cw->snap);
    free(cw->snap_pos);
    free(cw->work);
    free(cw->prev);
    free(cw->pos);
    free(cw->owned[0]);
    free(cw->owned[1]);
    free(cw->host_pos);
    free(cw->published);
    free(cw);
}
