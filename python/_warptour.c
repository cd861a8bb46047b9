/*
 * _warptour.c - the Python package's extension module: one call that builds
 * an instance (points, matrix or file), runs wt_solve without the GIL and
 * returns the result as a dict.  warptour/__init__.py gives it its API.
 * The tuning keyword's dict maps onto the experimental wt_tuning by field
 * name (the library's table, wt_tuning_field_named, which also takes the
 * names of version 0.1.0 for one release); the library checks the values.
 * The result's dict is flat: wt_result's groups (scan, multistart, ils,
 * sa) under the names of `warptour solve --json`.
 *
 * Written against the CPython C API and the buffer protocol alone, so the
 * build needs no NumPy headers: the package hands over C-contiguous float64
 * buffers and reads the tour back from a bytearray (numpy.frombuffer).
 *
 * Ctrl-C and the progress callback: the library calls progress_cb from the
 * solving thread every interval; it takes the GIL, runs pending signal
 * handlers (PyErr_CheckSignals: SIGINT raises KeyboardInterrupt there) and
 * the user's callback.  An exception from either, or a true return of the
 * callback, stops the search; the best tour so far still comes back, and an
 * exception is returned beside the result for the package to raise.
 *
 * The progress callback alone comes too late at a million points: the start
 * tour, the k-d tree and the first descents run for seconds without one.  So
 * while wt_solve runs on the main thread under Python's default SIGINT
 * handler, a handler of ours sets the library's stop flag, which those
 * phases poll as they poll the CLI's, and passes the signal on to Python's;
 * KeyboardInterrupt is raised once wt_solve returns with its tour.
 *
 * MPI (built with WT_PY_MPI, where CMake found MPI): solve's keyword comm
 * is a communicator's Fortran handle (mpi4py's comm.py2f()), which
 * MPI_Comm_f2c turns into the library's MPI_Comm, so the build needs no
 * mpi4py headers; wt_mpi_solve then runs on every rank of it, and ranks
 * other than the root return None for the result.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "warptour.h"
#include "warptour_experimental.h"
#ifdef WT_PY_MPI
#include "warptour_mpi.h"
#endif

/* ------------------------------------------------------------- Ctrl-C */

/* A signal handler reaches its flag only through a static: one solve at a
 * time installs it (the main thread's, which holds the GIL until then). */
static volatile int *volatile sigint_flag;
static struct sigaction python_sigint; /* the handler ours passes SIGINT to */

static void on_sigint(int sig, siginfo_t *info, void *uc)
{
    volatile int *flag = sigint_flag;
    if (flag) *flag = 1;
    if (python_sigint.sa_flags & SA_SIGINFO)
        python_sigint.sa_sigaction(sig, info, uc);
    else if (python_sigint.sa_handler != SIG_DFL && python_sigint.sa_handler != SIG_IGN)
        python_sigint.sa_handler(sig);
}

/* Routes SIGINT to *flag as well as to Python's handler; false (and nothing
 * changed) when SIGINT cannot be taken over. */
static bool sigint_watch(volatile int *flag)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_sigint;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&sa.sa_mask);
    sigint_flag = flag;
    if (sigaction(SIGINT, &sa, &python_sigint) != 0) {
        sigint_flag = NULL;
        return false;
    }
    return true;
}

static void sigint_unwatch(void)
{
    sigaction(SIGINT, &python_sigint, NULL);
    sigint_flag = NULL;
}

static double wt_now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* What the progress callback needs; lives on solve()'s stack. */
typedef struct progress_ctx {
    PyObject *callable; /* the user's callback or NULL; borrowed */
    PyObject *exc;      /* the exception that stopped the search, owned */
    const wt_instance *inst;
    double last_call;   /* monotonic seconds of the last call (the GIL guards it) */
    int stopped;        /* a call asked to stop: no more calls (the GIL guards it) */
    wt_progress shown;  /* wt_solve's last figures, which the ticker repeats (GIL) */
    wt_batch_progress shown_batch; /* wt_solve_batch's, for a batch (GIL) */
} progress_ctx;

/* Moves the pending exception into ctx->exc, with its traceback attached. */
static void keep_exception(progress_ctx *ctx)
{
    PyObject *type, *value, *tb;
    PyErr_Fetch(&type, &value, &tb);
    PyErr_NormalizeException(&type, &value, &tb);
    if (value && tb) PyException_SetTraceback(value, tb);
    Py_XDECREF(type);
    Py_XDECREF(tb);
    if (ctx->exc) Py_XDECREF(value);
    else ctx->exc = value;
}

/* Runs pending signal handlers, then the user's callback on the dict that
 * make builds from p; nonzero asks the search to stop, and no call follows
 * one that did.  Called without the GIL from the solving thread or the
 * ticker's (where PyErr_CheckSignals does nothing: the stop flag answers
 * Ctrl-C there). */
static int progress_call(progress_ctx *ctx,
                         PyObject *(*make)(const void *p, progress_ctx *ctx),
                         const void *p)
{
    PyGILState_STATE gil = PyGILState_Ensure();
    int stop = ctx->exc != NULL || ctx->stopped;
    if (!stop && PyErr_CheckSignals() < 0) stop = 1;
    if (!stop && ctx->callable) {
        ctx->last_call = wt_now_s();
        PyObject *info = make(p, ctx);
        PyObject *ret = info ? PyObject_CallOneArg(ctx->callable, info) : NULL;
        Py_XDECREF(info);
        if (!ret) {
            stop = 1;
        } else {
            stop = PyObject_IsTrue(ret);
            Py_DECREF(ret);
            if (stop < 0) stop = 1;
        }
    }
    if (PyErr_Occurred()) keep_exception(ctx);
    ctx->stopped = stop;
    PyGILState_Release(gil);
    return stop;
}

static PyObject *solve_progress_info(const void *pv, progress_ctx *ctx)
{
    const wt_progress *p = pv;
    ctx->shown = *p;
    return Py_BuildValue(
        "{s:d,s:L,s:d,s:L,s:K,s:K,s:K,s:d,s:L}", "elapsed_s", p->elapsed_s, "best_length",
        (long long)p->best_length, "best_length_real", wt_length_real(ctx->inst, p->best_length),
        "init_length", (long long)p->init_length, "steps", (unsigned long long)p->steps,
        "climbs", (unsigned long long)p->climbs, "kicks", (unsigned long long)p->kicks,
        "temperature", p->temperature, "lower_bound", (long long)p->lower_bound);
}

static int progress_cb(const wt_progress *p, void *user)
{
    return progress_call(user, solve_progress_info, p);
}

/* The ticker's call for a solve: the library's last figures, elapsed now. */
static int solve_tick(progress_ctx *ctx, double elapsed)
{
    wt_progress p = ctx->shown;
    p.elapsed_s = elapsed;
    p.pass_done = WT_NOT_IN_PASS;
    return progress_call(ctx, solve_progress_info, &p);
}

static PyObject *batch_progress_info(const void *pv, progress_ctx *ctx)
{
    const wt_batch_progress *p = pv;
    ctx->shown_batch = *p;
    return Py_BuildValue("{s:d,s:i,s:i,s:K}", "elapsed_s", p->elapsed_s, "done", p->done,
                         "count", p->count, "kicks", (unsigned long long)p->kicks);
}

static int batch_progress_cb(const wt_batch_progress *p, void *user)
{
    return progress_call(user, batch_progress_info, p);
}

/* The ticker's call for a batch. */
static int batch_tick(progress_ctx *ctx, double elapsed)
{
    wt_batch_progress p = ctx->shown_batch;
    p.elapsed_s = elapsed;
    return progress_call(ctx, batch_progress_info, &p);
}

/* ------------------------------------------------------------- ticker */

/* The library reports progress between the steps of a search, but not
 * while the start tour, the neighbour lists and the first descent are built:
 * seconds at a million points.  While the library is silent for an
 * interval, a thread of the module calls the user's callback itself, with
 * the elapsed time and the library's last figures (0 before its first
 * report: no tour yet); its true return or exception stops the search
 * through the stop flag, as the library's own call would.  Joined before
 * solve() takes the GIL back (the thread may be waiting for it). */
typedef struct ticker {
    progress_ctx *ctx;
    int (*tick)(progress_ctx *ctx, double elapsed); /* solve_tick or batch_tick */
    volatile int *stop; /* the search's stop flag */
    double t0, interval;
    bool done;          /* the search ended: guarded by mu */
    pthread_mutex_t mu;
    pthread_cond_t cv;
    pthread_t thread;
} ticker;

static void *ticker_main(void *arg)
{
    ticker *tk = arg;
    pthread_mutex_lock(&tk->mu);
    while (!tk->done) {
        struct timespec until; /* half an interval on: no call is later than 1.5 */
        clock_gettime(CLOCK_REALTIME, &until);
        double at = (double)until.tv_sec + 1e-9 * (double)until.tv_nsec + tk->interval / 2;
        until.tv_sec = (time_t)at;
        until.tv_nsec = (long)((at - (double)until.tv_sec) * 1e9);
        pthread_cond_timedwait(&tk->cv, &tk->mu, &until);
        if (tk->done) continue;
        pthread_mutex_unlock(&tk->mu);
        PyGILState_STATE gil = PyGILState_Ensure();
        double now = wt_now_s();
        int stop = 0;
        if (!tk->ctx->exc && now - tk->ctx->last_call >= tk->interval)
            stop = tk->tick(tk->ctx, now - tk->t0);
        PyGILState_Release(gil);
        if (stop) *tk->stop = 1;
        pthread_mutex_lock(&tk->mu);
    }
    pthread_mutex_unlock(&tk->mu);
    return NULL;
}

/* Starts tk's thread; false (no thread) when it cannot be had. */
static bool ticker_start(ticker *tk, progress_ctx *ctx,
                         int (*tick)(progress_ctx *ctx, double elapsed), volatile int *stop,
                         double interval)
{
    *tk = (ticker){.ctx = ctx, .tick = tick, .stop = stop, .t0 = wt_now_s(),
                   .interval = interval};
    pthread_mutex_init(&tk->mu, NULL);
    pthread_cond_init(&tk->cv, NULL);
    if (pthread_create(&tk->thread, NULL, ticker_main, tk) == 0) return true;
    pthread_mutex_destroy(&tk->mu);
    pthread_cond_destroy(&tk->cv);
    return false;
}

/* Ends tk's thread; called without the GIL. */
static void ticker_stop(ticker *tk)
{
    pthread_mutex_lock(&tk->mu);
    tk->done = true;
    pthread_cond_signal(&tk->cv);
    pthread_mutex_unlock(&tk->mu);
    pthread_join(tk->thread, NULL);
    pthread_mutex_destroy(&tk->mu);
    pthread_cond_destroy(&tk->cv);
}

/* Raises the Python exception that matches a failed call's status. */
static PyObject *raise_status(const wt_error *err)
{
    PyObject *type;
    switch (err->status) {
    case WT_STATUS_OUT_OF_MEMORY: type = PyExc_MemoryError; break;
    case WT_STATUS_IO: type = PyExc_OSError; break;
    case WT_STATUS_NO_DEVICE:
    case WT_STATUS_DEVICE: type = PyExc_RuntimeError; break;
    default: type = PyExc_ValueError; break;
    }
    PyErr_SetString(type, err->message[0] ? err->message : wt_status_str(err->status));
    return NULL;
}

/* A C-contiguous float64 buffer of exactly count doubles. */
static int get_doubles(PyObject *obj, Py_buffer *view, Py_ssize_t count)
{
    if (PyObject_GetBuffer(obj, view, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0) return -1;
    if (view->itemsize != (Py_ssize_t)sizeof(double) || !view->format ||
        strcmp(view->format, "d") != 0 || view->len != count * (Py_ssize_t)sizeof(double)) {
        PyBuffer_Release(view);
        PyErr_SetString(PyExc_ValueError, "expected a C-contiguous float64 buffer");
        return -1;
    }
    return 0;
}

/* The instance that kind ("points", "matrix", "file") describes. */
static wt_instance *make_instance(const char *kind, PyObject *source, int n, int dims)
{
    wt_instance *inst = NULL;
    wt_error err = {0};
    wt_status st = WT_OK;
    Py_buffer view;
    bool places = strcmp(kind, "places") == 0;
    /* "file", or "file:euclidean" / "file:haversine" with a point file's
     * metric (solve_file's metric=). */
    if (strncmp(kind, "file", 4) == 0 && (kind[4] == '\0' || kind[4] == ':')) {
        wt_points_metric metric = WT_POINTS_AUTO;
        if (strcmp(kind, "file:euclidean") == 0) metric = WT_POINTS_EUCLIDEAN;
        else if (strcmp(kind, "file:haversine") == 0) metric = WT_POINTS_HAVERSINE;
        else if (kind[4] == ':') {
            PyErr_SetString(PyExc_ValueError, "unknown instance kind");
            return NULL;
        }
        PyObject *bytes = NULL;
        if (!PyUnicode_FSConverter(source, &bytes)) return NULL;
        const char *path = PyBytes_AS_STRING(bytes);
        Py_BEGIN_ALLOW_THREADS
        st = wt_instance_read_as(path, metric, NULL, &inst, &err);
        Py_END_ALLOW_THREADS
        Py_DECREF(bytes);
    } else if (strcmp(kind, "matrix") == 0 || strcmp(kind, "asymmetric matrix") == 0) {
        bool asym = kind[0] == 'a';
        int most = asym ? WT_MAX_EXPLICIT_CITIES / 2 : WT_MAX_EXPLICIT_CITIES;
        if (n < 0 || n > most) {
            PyErr_Format(PyExc_ValueError, "a%s distance matrix may have at most %d cities",
                         asym ? "n asymmetric" : "", most);
            return NULL;
        }
        if (get_doubles(source, &view, (Py_ssize_t)n * n) < 0) return NULL;
        Py_BEGIN_ALLOW_THREADS
        st = asym ? wt_instance_from_asymmetric_matrix("matrix", n, view.buf, &inst, &err)
                  : wt_instance_from_matrix("matrix", n, view.buf, &inst, &err);
        Py_END_ALLOW_THREADS
        PyBuffer_Release(&view);
    } else if (((strcmp(kind, "points") == 0 && (dims == 2 || dims == 3)) ||
                (places && dims == 2)) && n >= 0) {
        /* places: (latitude, longitude) rows in decimal degrees, WT_HAVERSINE. */
        wt_edge_weight_type type = places      ? WT_HAVERSINE
                                   : dims == 3 ? WT_EUC_3D_REAL
                                               : WT_EUC_2D_REAL;
        if (get_doubles(source, &view, (Py_ssize_t)n * dims) < 0) return NULL;
        double *c = malloc((size_t)(n ? n : 1) * 3 * sizeof(double));
        if (!c) {
            PyBuffer_Release(&view);
            PyErr_NoMemory();
            return NULL;
        }
        Py_BEGIN_ALLOW_THREADS
        const double *pt = view.buf;
        for (int i = 0; i < n; i++)
            for (int k = 0; k < dims; k++)
                c[(size_t)k * (size_t)n + (size_t)i] = pt[(size_t)i * (size_t)dims + (size_t)k];
        st = wt_instance_from_coords(places ? "places" : "points", n, type, c, c + n,
                                     dims == 3 ? c + 2 * (size_t)n : NULL, &inst, &err);
        Py_END_ALLOW_THREADS
        free(c);
        PyBuffer_Release(&view);
    } else {
        PyErr_SetString(PyExc_ValueError, "unknown instance kind");
        return NULL;
    }
    if (st != WT_OK) {
        raise_status(&err);
        return NULL;
    }
    return inst;
}

/* ------------------------------------------------------------- tuning */

/* The fields of the experimental wt_tuning by name, for the tuning
 * keyword: the library's table (warptour_experimental.h; docs/library.md
 * lists them with their values).  The module only stores a value; wt_solve
 * checks it and names the field it refuses. */

/* Stores value into field f of t: an int ("off" or None: WT_TUNING_OFF),
 * a bool for the flags, a scan's name (or its number) for ms_scan.  -1 with
 * ValueError or TypeError naming the field when it cannot be stored. */
static int tune_store(const wt_tuning_field *f, PyObject *value, wt_tuning *t)
{
    char *at = (char *)t + f->offset;
    if (f->kind == WT_TUNING_FLAG) {
        if (!PyBool_Check(value) && !PyLong_Check(value)) {
            PyErr_Format(PyExc_TypeError, "tuning %s takes True or False, got %R", f->name,
                         value);
            return -1;
        }
        int b = PyObject_IsTrue(value);
        if (b < 0) return -1;
        *(bool *)at = b;
        return 0;
    }
    if (PyUnicode_Check(value)) {
        const char *s = PyUnicode_AsUTF8(value);
        if (!s) return -1;
        if (f->kind == WT_TUNING_SCAN) {
            for (int k = 0; wt_ms_scan_name((wt_ms_scan)k); k++)
                if (strcmp(s, wt_ms_scan_name((wt_ms_scan)k)) == 0) {
                    *(wt_ms_scan *)at = (wt_ms_scan)k;
                    return 0;
                }
            PyErr_Format(PyExc_ValueError, "tuning ms_scan is 'auto', 'squares', 'gaps' or "
                         "'rounds', got '%s'", s);
            return -1;
        }
        if (strcmp(s, "off") != 0) {
            PyErr_Format(PyExc_ValueError, "tuning %s takes an integer or 'off', got '%s'",
                         f->name, s);
            return -1;
        }
        if (f->kind == WT_TUNING_INT) *(int *)at = WT_TUNING_OFF;
        else *(int64_t *)at = WT_TUNING_OFF;
        return 0;
    }
    if (PyBool_Check(value) || !PyLong_Check(value)) {
        PyErr_Format(PyExc_TypeError, "tuning %s takes an integer%s, got %R", f->name,
                     f->kind == WT_TUNING_SCAN ? " or a scan's name" : " or 'off'", value);
        return -1;
    }
    int overflow = 0;
    long long v = PyLong_AsLongLongAndOverflow(value, &overflow);
    if (v == -1 && PyErr_Occurred()) return -1;
    if (overflow || (f->kind != WT_TUNING_I64 && (v < INT_MIN || v > INT_MAX))) {
        PyErr_Format(PyExc_ValueError, "tuning %s: %R is out of range", f->name, value);
        return -1;
    }
    if (f->kind == WT_TUNING_I64) *(int64_t *)at = (int64_t)v;
    else if (f->kind == WT_TUNING_INT) *(int *)at = (int)v;
    else *(wt_ms_scan *)at = (wt_ms_scan)v; /* the library checks the range */
    return 0;
}

/* Fills t from a dict of field names and values (None: the defaults).
 * Unknown names raise ValueError naming every one of them. */
static int set_tuning(PyObject *dict, wt_tuning *t)
{
    memset(t, 0, sizeof *t);
    if (dict == Py_None) return 0;
    if (!PyDict_Check(dict)) {
        PyErr_SetString(PyExc_TypeError, "tuning must be a dict of wt_tuning field names "
                        "and values");
        return -1;
    }
    PyObject *key, *value, *unknown = PyList_New(0);
    if (!unknown) return -1;
    Py_ssize_t pos = 0;
    int st = 0;
    while (st == 0 && PyDict_Next(dict, &pos, &key, &value)) {
        const char *name = PyUnicode_Check(key) ? PyUnicode_AsUTF8(key) : NULL;
        if (!name && PyErr_Occurred()) st = -1;
        const wt_tuning_field *f = name ? wt_tuning_field_named(name) : NULL;
        if (st == 0 && f) st = tune_store(f, value, t);
        else if (st == 0) {
            PyObject *shown = PyObject_Repr(key);
            st = shown ? PyList_Append(unknown, shown) : -1;
            Py_XDECREF(shown);
        }
    }
    if (st == 0 && PyList_GET_SIZE(unknown) > 0) {
        char known[800] = "";
        size_t count;
        const wt_tuning_field *fields = wt_tuning_fields(&count);
        for (size_t k = 0; k < count; k++) {
            size_t used = strlen(known);
            snprintf(known + used, sizeof known - used, "%s%s", k ? ", " : "", fields[k].name);
        }
        PyObject *sep = PyUnicode_FromString(", ");
        PyObject *names = sep ? PyUnicode_Join(sep, unknown) : NULL;
        if (names)
            PyErr_Format(PyExc_ValueError, "unknown tuning field%s %U (wt_tuning has %s)",
                         PyList_GET_SIZE(unknown) == 1 ? "" : "s", names, known);
        Py_XDECREF(names);
        Py_XDECREF(sep);
        st = -1;
    }
    Py_DECREF(unknown);
    return st;
}

/* Fills p from the arguments; -1 with ValueError for an unknown name. */
static int set_params(wt_params *p, const char *algorithm, const char *backend, const char *init)
{
    p->algorithm = WT_ALGO_ILS; /* as the CLI: the best tours by default */
    if (algorithm && wt_algorithm_parse(algorithm, &p->algorithm) != WT_OK) {
        PyErr_Format(PyExc_ValueError, "unknown algorithm '%s' (2opt, multistart, ils, sa)",
                     algorithm);
        return -1;
    }
    if (backend && wt_backend_parse(backend, &p->backend) != WT_OK) {
        PyErr_Format(PyExc_ValueError, "unknown backend '%s' (auto, cpu, cuda)", backend);
        return -1;
    }
    if (init && wt_init_method_parse(init, &p->init) != WT_OK) {
        PyErr_Format(PyExc_ValueError,
                     "unknown init '%s' (greedy, boruvka, nearest, spacefill, random)", init);
        return -1;
    }
    return 0;
}

/* wt_result's groups, flattened under the names of solve --json. */
static PyObject *group_dict(const wt_result *r)
{
    const wt_result_ils *ils = &r->ils;
    const wt_result_sa *sa = &r->sa;
    return Py_BuildValue(
        "{s:K,s:d,s:K,s:K,s:s,s:K,s:K,s:d,s:d,s:i,s:i,s:K,s:K,s:d,s:L,s:K,s:d,s:z,s:i,s:d}",
        "passes", (unsigned long long)r->scan.passes, "scan_time_s", r->scan.time_s,
        "climbs", (unsigned long long)r->multistart.climbs, "best_climb",
        (unsigned long long)r->multistart.best_climb, "ils_descent",
        wt_ils_descent_name(ils->descent), "kicks", (unsigned long long)ils->kicks,
        "kicks_accepted", (unsigned long long)ils->kicks_accepted, "gpu_time_s", ils->gpu_time_s,
        "concurrent_windows_s", ils->concurrent_windows_s, "searches", sa->searches,
        "moves_per_search", sa->moves_per_search, "iterations",
        (unsigned long long)sa->iterations, "accepted", (unsigned long long)sa->accepted,
        "temperature_final", sa->temperature_final, "sa_unpolished_length",
        (long long)sa->unpolished_length, "polish_moves", (unsigned long long)sa->polish_moves,
        "polish_time_s", sa->polish_time_s, "ascent_device",
        r->ascent.device[0] ? r->ascent.device : NULL, "ascent_iterations", r->ascent.iterations,
        "ascent_time_s", r->ascent.time_s);
}

/* lower_bound and gap_to_bound_percent into d: None without a bound. */
static int add_bound(PyObject *d, const wt_result *r)
{
    bool has = r->lower_bound > 0;
    PyObject *bound = has ? PyLong_FromLongLong((long long)r->lower_bound) : Py_NewRef(Py_None);
    PyObject *gap = has ? PyFloat_FromDouble(r->gap_to_bound_percent) : Py_NewRef(Py_None);
    int rc = bound && gap && PyDict_SetItemString(d, "lower_bound", bound) == 0 &&
                     PyDict_SetItemString(d, "gap_to_bound_percent", gap) == 0
                 ? 0
                 : -1;
    Py_XDECREF(bound);
    Py_XDECREF(gap);
    return rc;
}

static PyObject *result_dict(const wt_instance *inst, const wt_result *r)
{
    int64_t opt = wt_instance_known_optimum(inst);
    PyObject *tour = PyByteArray_FromStringAndSize((const char *)r->tour,
                                                   (Py_ssize_t)r->n * (Py_ssize_t)sizeof(int32_t));
    if (!tour) return NULL;
    PyObject *optimum = opt >= 0 ? PyLong_FromLongLong((long long)opt) : Py_NewRef(Py_None);
    if (!optimum) {
        Py_DECREF(tour);
        return NULL;
    }
    PyObject *d = Py_BuildValue(
        "{s:N,s:i,s:O,s:L,s:d,s:d,s:O,s:N,s:O,s:s,s:L,s:s,s:d,s:d,s:O,s:s,s:K,s:K,s:d,s:s,s:s}",
        "tour", tour, "n", r->n, "asymmetric",
        wt_instance_is_asymmetric(inst) ? Py_True : Py_False, "length_units", (long long)r->length, "length_real",
        r->length_real, "length_unit", wt_instance_length_unit(inst), "real",
        wt_instance_is_real(inst) ? Py_True : Py_False, "optimum", optimum, "optimum_proven",
        wt_instance_optimum_is_proven(inst) ? Py_True : Py_False, "edge_weight_type",
        wt_edge_weight_type_name(wt_instance_type(inst)), "init_length", (long long)r->init_length,
        "stop", wt_stop_reason_name(r->stop), "time_s", r->time_s, "init_time_s", r->init_time_s,
        "init_cut", r->init_cut ? Py_True : Py_False, "init_made",
        wt_init_method_name(r->init_made), "steps", (unsigned long long)r->steps, "moves_evaluated",
        (unsigned long long)r->moves_evaluated, "search_time_s", r->search_time_s, "backend",
        r->backend, "device", r->device);
    PyObject *groups = d ? group_dict(r) : NULL;
    if (!groups || PyDict_Update(d, groups) < 0 || add_bound(d, r) < 0 ||
        PyDict_SetItemString(d, "init_given", r->init_given ? Py_True : Py_False) < 0)
        Py_CLEAR(d);
    Py_XDECREF(groups);
    return d;
}

/* ------------------------------------------------------------- MPI */

/* solve's MPI keywords: comm (None, or a communicator's Fortran handle)
 * and mpi_mode ("auto", "islands", "parts"). */
typedef struct mpi_run {
    bool on;          /* comm given: wt_mpi_solve */
    bool is_root;     /* this rank returns the result */
#ifdef WT_PY_MPI
    MPI_Comm comm;
    wt_mpi_params mp;
#endif
} mpi_run;

#ifdef WT_PY_MPI
/* The communicator whose Fortran handle is comm (an int) into *out; -1
 * with an exception set when it is none or MPI is not running. */
static int comm_of(PyObject *comm, MPI_Comm *out)
{
    if (!PyLong_Check(comm) || PyBool_Check(comm)) {
        PyErr_SetString(PyExc_TypeError, "comm must be a communicator's Fortran handle (an int)");
        return -1;
    }
    long handle = PyLong_AsLong(comm);
    if (handle == -1 && PyErr_Occurred()) return -1;
    int initialized = 0, finalized = 0;
    MPI_Initialized(&initialized);
    MPI_Finalized(&finalized);
    if (!initialized || finalized) {
        PyErr_SetString(PyExc_RuntimeError, "comm: MPI is not initialized (import mpi4py's MPI "
                                            "first) or already finalized");
        return -1;
    }
    *out = MPI_Comm_f2c((MPI_Fint)handle);
    int rank = -1;
    if (*out == MPI_COMM_NULL || MPI_Comm_rank(*out, &rank) != MPI_SUCCESS) {
        PyErr_SetString(PyExc_ValueError, "comm is not a valid communicator");
        return -1;
    }
    return 0;
}
#endif

/* Reads comm and mpi_mode from kw (may be NULL) into m; -1 with an
 * exception set when they are bad or the build has no MPI. */
static int get_mpi_run(PyObject *kw, mpi_run *m)
{
    memset(m, 0, sizeof *m);
    PyObject *comm = kw ? PyDict_GetItemString(kw, "comm") : NULL; /* borrowed */
    PyObject *mode = kw ? PyDict_GetItemString(kw, "mpi_mode") : NULL;
    if (!comm || comm == Py_None) {
        if (mode && mode != Py_None) {
            PyErr_SetString(PyExc_ValueError, "mpi_mode needs comm (an MPI communicator)");
            return -1;
        }
        return 0;
    }
#ifdef WT_PY_MPI
    if (comm_of(comm, &m->comm) < 0) return -1;
    wt_mpi_params_defaults(&m->mp);
    if (mode && mode != Py_None) {
        const char *name = PyUnicode_Check(mode) ? PyUnicode_AsUTF8(mode) : NULL;
        int k = WT_MPI_AUTO;
        while (name && wt_mpi_mode_name((wt_mpi_mode)k) &&
               strcmp(wt_mpi_mode_name((wt_mpi_mode)k), name) != 0)
            k++;
        if (!name || !wt_mpi_mode_name((wt_mpi_mode)k)) {
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_ValueError, "mpi_mode must be 'auto', 'islands' or "
                                                  "'parts'");
            return -1;
        }
        m->mp.mode = (wt_mpi_mode)k;
    }
    int rank = -1;
    MPI_Comm_rank(m->comm, &rank);
    m->on = true;
    m->is_root = rank == m->mp.root;
    return 0;
#else
    PyErr_SetString(PyExc_RuntimeError, "comm: this build of warptour has no MPI (it was built "
                                        "where CMake found none, or with WT_MPI=OFF)");
    return -1;
#endif
}

#ifdef WT_PY_MPI
/* The exception types a rank's failure before the search is raised as on
 * the other ranks; any other type is raised as RuntimeError there. */
static PyObject *const *failure_type_at(int code)
{
    static PyObject *const *types[] = {&PyExc_RuntimeError, &PyExc_ValueError, &PyExc_OSError,
                                       &PyExc_MemoryError, &PyExc_TypeError};
    return types[code >= 0 && code < (int)(sizeof types / sizeof types[0]) ? code : 0];
}

/* The pending exception's type (as failure_type_at's code) and message
 * into what, the exception left pending. */
static void describe_failure(int *code, char *message, size_t size)
{
    PyObject *type, *value, *tb;
    PyErr_Fetch(&type, &value, &tb);
    *code = 0;
    for (int k = 1; k < 5; k++)
        if (type && PyErr_GivenExceptionMatches(type, *failure_type_at(k))) *code = k;
    PyObject *text = value ? PyObject_Str(value) : NULL;
    const char *utf8 = text ? PyUnicode_AsUTF8(text) : NULL;
    snprintf(message, size, "%s", utf8 ? utf8 : "failed before the search");
    Py_XDECREF(text);
    PyErr_Clear();
    PyErr_Restore(type, value, tb);
}
#endif

/* Under comm, the ranks agree that every one is ready to search (its
 * instance built: a file that one machine lacks fails there alone) before
 * any enters wt_mpi_solve, which would wait for a rank that raised instead.
 * ready: this rank is (else its exception is pending).  Returns 0 when all
 * are; -1 with an exception set otherwise: this rank's own where it failed,
 * else the lowest failing rank's, "rank R of P: ...", of the same type
 * (RuntimeError for a type other than ValueError, OSError, MemoryError,
 * TypeError).  Without comm, returns ready ? 0 : -1. */
static int agree_ready(const mpi_run *m, bool ready)
{
#ifdef WT_PY_MPI
    if (!m->on) return ready ? 0 : -1;
    int rank = 0, size = 1, first = 0, rc;
    MPI_Comm_rank(m->comm, &rank);
    MPI_Comm_size(m->comm, &size);
    int mine = ready ? size : rank;
    struct {
        int code;
        char message[480];
    } what = {0, ""};
    if (!ready) describe_failure(&what.code, what.message, sizeof what.message);
    Py_BEGIN_ALLOW_THREADS
    rc = MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, m->comm);
    if (rc == MPI_SUCCESS && first < size)
        rc = MPI_Bcast(&what, (int)sizeof what, MPI_BYTE, first, m->comm);
    Py_END_ALLOW_THREADS
    if (!ready) return -1; /* this rank's own exception */
    if (rc != MPI_SUCCESS) {
        PyErr_SetString(PyExc_RuntimeError, "comm: the ranks could not agree that every one "
                                            "is ready (MPI_Allreduce or MPI_Bcast failed)");
        return -1;
    }
    if (first == size) return 0;
    what.message[sizeof what.message - 1] = '\0';
    PyErr_Format(*failure_type_at(what.code), "rank %d of %d: %s", first, size, what.message);
    return -1;
#else
    (void)m;
    return ready ? 0 : -1;
#endif
}

/* The largest of the ranks' v with comm (collective), v without: the
 * slowest rank's seconds, so that every rank searches to the same limit.
 * On a failure of MPI's, v. */
static double slowest(const mpi_run *m, double v)
{
#ifdef WT_PY_MPI
    if (!m->on) return v;
    double most = v;
    int rc;
    Py_BEGIN_ALLOW_THREADS
    rc = MPI_Allreduce(&v, &most, 1, MPI_DOUBLE, MPI_MAX, m->comm);
    Py_END_ALLOW_THREADS
    return rc == MPI_SUCCESS ? most : v;
#else
    (void)m;
    return v;
#endif
}

/* wt_mpi_solve over m's communicator where m->on, else wt_solve (a build
 * without MPI never has m->on: get_mpi_run refuses comm there). */
static wt_status solve_on(const mpi_run *m, const wt_instance *inst, const wt_params *params,
                          wt_result *res, wt_error *err)
{
#ifdef WT_PY_MPI
    if (m->on) return wt_mpi_solve(m->comm, inst, params, &m->mp, res, err);
#else
    (void)m;
#endif
    return wt_solve(inst, params, res, err);
}

PyDoc_STRVAR(solve_doc,
             "solve(kind, source, n, dims, seed, time_limit, algorithm, backend, threads, init,\n"
             "      progress, interval, cuda_device, tuning[, watch_sigint[, kicks[, start_tour]]],\n"
             "      *, open=False, start=None, end=None, devices=None, comm=None,\n"
             "      mpi_mode=None)\n"
             "      -> (dict, exception or None)\n\n"
             "Internal: warptour.solve, solve_matrix and solve_file call this.  watch_sigint:\n"
             "the caller is the main thread and SIGINT's handler is Python's default one.\n"
             "kicks: wt_params.kicks (0: the default); start_tour: None or bytes of n\n"
             "native int32 cities (wt_params.start_tour, checked by the library);\n"
             "devices: None, 'all' or a sequence of GPU numbers (wt_params.devices);\n"
             "comm: None or an MPI communicator's Fortran handle (wt_mpi_solve; the\n"
             "dict is then None on ranks other than 0), mpi_mode: its mode's name.");

/* The keywords open, start and end of _warptour.solve (kw may be NULL)
 * into params; -1 with an exception set when one is bad. */
static int set_path_params(PyObject *kw, wt_params *params)
{
    if (!kw) return 0;
    PyObject *v = PyDict_GetItemString(kw, "open"); /* borrowed */
    if (v) {
        int t = PyObject_IsTrue(v);
        if (t < 0) return -1;
        params->open = t != 0;
    }
    const char *names[2] = {"start", "end"};
    int *fields[2] = {&params->start_city, &params->end_city};
    for (int k = 0; k < 2; k++) {
        v = PyDict_GetItemString(kw, names[k]);
        if (!v || v == Py_None) continue;
        if (!PyLong_Check(v) || PyBool_Check(v)) {
            PyErr_Format(PyExc_TypeError, "%s must be a city (an int, 0-based) or None",
                         names[k]);
            return -1;
        }
        long c = PyLong_AsLong(v);
        if (c == -1 && PyErr_Occurred()) return -1;
        if (c < 0 || c > INT32_MAX) {
            PyErr_Format(PyExc_ValueError, "%s is %ld; expected a city, 0 to n - 1", names[k], c);
            return -1;
        }
        *fields[k] = (int)c;
    }
    return 0;
}

/* devices (None, "all" or a sequence of ints, as warptour._devices makes
 * it) into a device list; -1 with an exception set when it is none.  The
 * library checks the numbers themselves (negative, twice, past the
 * machine's). */
static int set_devices(PyObject *v, int *devices, int *count)
{
    if (!v || v == Py_None) return 0;
    if (PyUnicode_Check(v) && PyUnicode_CompareWithASCIIString(v, "all") == 0) {
        *count = WT_DEVICES_ALL;
        return 0;
    }
    PyObject *seq = PySequence_Check(v) && !PyUnicode_Check(v)
                        ? PySequence_Fast(v, "devices must be 'all' or a sequence of ints")
                        : NULL;
    if (!seq) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_TypeError, "devices must be None, 'all' or a sequence of "
                            "GPU numbers (ints)");
        return -1;
    }
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    if (n < 1 || n > WT_MAX_DEVICES) {
        Py_DECREF(seq);
        PyErr_Format(PyExc_ValueError, "devices lists %zd GPUs; expected 1 to %d", n,
                     WT_MAX_DEVICES);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *x = PySequence_Fast_GET_ITEM(seq, i); /* borrowed */
        if (!PyLong_Check(x) || PyBool_Check(x)) {
            Py_DECREF(seq);
            PyErr_Format(PyExc_TypeError, "devices[%zd] must be a GPU's number (an int)", i);
            return -1;
        }
        long d = PyLong_AsLong(x);
        if ((d == -1 && PyErr_Occurred()) || d < INT_MIN || d > INT_MAX) {
            Py_DECREF(seq);
            PyErr_Clear();
            PyErr_Format(PyExc_ValueError, "devices[%zd] is no GPU's number", i);
            return -1;
        }
        devices[i] = (int)d;
    }
    *count = (int)n;
    Py_DECREF(seq);
    return 0;
}

/* Whether start_tour (None, or bytes) has inst's number of cities; false
 * with ValueError set otherwise. */
static bool fits_start_tour(PyObject *start_tour, const wt_instance *inst)
{
    if (start_tour == Py_None) return true;
    Py_ssize_t size = PyBytes_GET_SIZE(start_tour);
    if (size == (Py_ssize_t)wt_instance_n(inst) * (Py_ssize_t)sizeof(int32_t)) return true;
    PyErr_Format(PyExc_ValueError, "start_tour has %zd cities, the instance %d",
                 size / (Py_ssize_t)sizeof(int32_t), wt_instance_n(inst));
    return false;
}

static PyObject *py_solve(PyObject *self, PyObject *args, PyObject *kw)
{
    (void)self;
    const char *kind, *algorithm, *backend, *init;
    PyObject *source, *progress, *tuning;
    int n, dims, threads, cuda_device;
    unsigned long long seed;
    double time_limit, interval;
    int watch_sigint = 0;
    unsigned long long kicks = 0;
    PyObject *start_tour = Py_None;
    if (!PyArg_ParseTuple(args, "sOiiKdzzizOdiO|pKO", &kind, &source, &n, &dims, &seed,
                          &time_limit, &algorithm, &backend, &threads, &init, &progress,
                          &interval, &cuda_device, &tuning, &watch_sigint, &kicks, &start_tour))
        return NULL;
    if (start_tour != Py_None && !PyBytes_Check(start_tour)) {
        PyErr_SetString(PyExc_TypeError, "start_tour must be bytes of int32 cities");
        return NULL;
    }
    wt_params params;
    wt_params_defaults(&params);
    if (set_params(&params, algorithm, backend, init) < 0) return NULL;
    wt_tuning tuning_set;
    if (set_tuning(tuning, &tuning_set) < 0) return NULL;
    params.tuning = tuning == Py_None ? NULL : &tuning_set;
    params.cuda_device = cuda_device;
    if (set_path_params(kw, &params) < 0) return NULL;
    if (kw && set_devices(PyDict_GetItemString(kw, "devices"), params.devices,
                          &params.device_count) < 0)
        return NULL;
    if (progress != Py_None && !PyCallable_Check(progress)) {
        PyErr_SetString(PyExc_TypeError, "progress must be callable");
        return NULL;
    }
    mpi_run mpi;
    if (get_mpi_run(kw, &mpi) < 0) return NULL;
    double t_build = wt_now_s(); /* time_limit counts the instance's reading or build */
    wt_instance *inst = make_instance(kind, source, n, dims);
    bool ready = inst && fits_start_tour(start_tour, inst);
    if (agree_ready(&mpi, ready) < 0) {
        wt_instance_free(inst);
        return NULL;
    }
    double built_s = slowest(&mpi, wt_now_s() - t_build);
    progress_ctx ctx = {.callable = progress == Py_None ? NULL : progress, .inst = inst,
                        .last_call = wt_now_s()};
    params.seed = seed;
    params.time_limit_s = time_limit;
    if (time_limit > 0) /* at least a millisecond: a spent limit still gets its tour */
        params.time_limit_s = time_limit - built_s > 1e-3 ? time_limit - built_s : 1e-3;
    params.threads = threads;
    params.kicks = kicks;
    if (start_tour != Py_None) params.start_tour = (const int32_t *)PyBytes_AS_STRING(start_tour);
    params.progress = progress_cb;
    params.progress_user = &ctx;
    params.progress_interval_s = interval;
    wt_result res;
    wt_error err = {0};
    wt_status st;
    volatile int stop = 0;
    params.stop_flag = &stop;
    bool watching = watch_sigint && sigint_watch(&stop);
    ticker tk;
    Py_BEGIN_ALLOW_THREADS
    bool ticking = ctx.callable && ticker_start(&tk, &ctx, solve_tick, &stop, interval);
    st = solve_on(&mpi, inst, &params, &res, &err);
    if (ticking) ticker_stop(&tk);
    Py_END_ALLOW_THREADS
    if (watching) {
        sigint_unwatch();
        /* A SIGINT after the last progress report raises here, with the tour. */
        if (!ctx.exc && PyErr_CheckSignals() < 0) keep_exception(&ctx);
    }
    if (st != WT_OK) {
        wt_instance_free(inst);
        Py_XDECREF(ctx.exc);
        return raise_status(&err);
    }
    if (mpi.on && !mpi.is_root) { /* the root holds the tour */
        wt_instance_free(inst);
        return Py_BuildValue("(ON)", Py_None, ctx.exc ? ctx.exc : Py_NewRef(Py_None));
    }
    PyObject *dict = result_dict(inst, &res);
    /* An open path: no tour's optimum to compare with. */
    if (dict && (PyDict_SetItemString(dict, "open", res.open ? Py_True : Py_False) < 0 ||
                 (res.open && PyDict_SetItemString(dict, "optimum", Py_None) < 0)))
        Py_CLEAR(dict);
    wt_result_free(&res);
    wt_instance_free(inst);
    if (!dict) {
        Py_XDECREF(ctx.exc);
        return NULL;
    }
    return Py_BuildValue("(NN)", dict, ctx.exc ? ctx.exc : Py_NewRef(Py_None));
}

/* ------------------------------------------------------------- batches */

/* The result of a batch: the tours as one bytearray of count x n int32
 * (-1 for an instance without a tour), the rest as lists and fields. */
static PyObject *batch_dict(const wt_batch_result *r, int n)
{
    Py_ssize_t cells = (Py_ssize_t)r->count * n;
    PyObject *tours = PyByteArray_FromStringAndSize(NULL, cells * (Py_ssize_t)sizeof(int32_t));
    PyObject *lists[6] = {PyList_New(r->count), PyList_New(r->count), PyList_New(r->count),
                          PyList_New(r->count), PyList_New(r->count), PyList_New(r->count)};
    bool ok = tours != NULL;
    for (int k = 0; k < 6; k++) ok = ok && lists[k];
    for (int i = 0; ok && i < r->count; i++) {
        const wt_batch_tour *t = &r->tours[i];
        int32_t *row = (int32_t *)PyByteArray_AS_STRING(tours) + (size_t)i * (size_t)n;
        if (t->status == WT_OK) memcpy(row, t->tour, (size_t)n * sizeof *row);
        else for (int c = 0; c < n; c++) row[c] = -1;
        PyObject *items[6] = {PyLong_FromLongLong((long long)t->length),
                              PyFloat_FromDouble(t->status == WT_OK ? t->length_real : NAN),
                              PyUnicode_FromString(t->status == WT_OK ? "ok"
                                                                      : wt_status_str(t->status)),
                              PyUnicode_FromString(t->message),
                              PyLong_FromUnsignedLongLong((unsigned long long)t->kicks),
                              PyBool_FromLong(t->on_gpu)};
        for (int k = 0; k < 6; k++) {
            if (items[k]) PyList_SET_ITEM(lists[k], i, items[k]);
            else ok = false;
        }
    }
    if (!ok) {
        Py_XDECREF(tours);
        for (int k = 0; k < 6; k++) Py_XDECREF(lists[k]);
        return NULL;
    }
    return Py_BuildValue("{s:N,s:N,s:N,s:N,s:N,s:N,s:N,s:i,s:i,s:s,s:K,s:d,s:d,s:s,s:s}", "tours",
                         tours, "lengths_units", lists[0], "lengths", lists[1], "status", lists[2],
                         "messages", lists[3], "kicks", lists[4], "on_gpu", lists[5], "failed",
                         r->failed, "solved_on_gpu", r->on_gpu, "stop",
                         wt_stop_reason_name(r->stop), "total_kicks", (unsigned long long)r->kicks,
                         "time_s", r->time_s, "gpu_time_s", r->gpu_time_s,
                         "backend", r->backend, "device", r->device);
}

#ifdef WT_PY_MPI
/* Instance i of a points batch (named as wt_solve_batch_points names it),
 * or NULL with its failure in e. */
static wt_instance *batch_instance(const double *xy, int i, int n, wt_edge_weight_type type,
                                   double *x, wt_error *e)
{
    const double *pt = xy + (size_t)i * (size_t)n * 2;
    for (int c = 0; c < n; c++) {
        x[c] = pt[2 * c];
        x[n + c] = pt[2 * c + 1];
    }
    char name[32];
    snprintf(name, sizeof name, "points%d", i);
    wt_instance *inst = NULL;
    return wt_instance_from_coords(name, n, type, x, x + n, NULL, &inst, e) == WT_OK ? inst
                                                                                   : NULL;
}

/* wt_solve_batch_points over the ranks of comm (wt_mpi_solve_batch, root
 * 0): each rank builds the instances it owns from xy, which every rank
 * holds alike.  An owned instance whose points make none goes in as NULL;
 * rank 0 then names its failure as wt_solve_batch_points does (batch.c's
 * words), from its own copy of the points. */
static wt_status mpi_batch_points(MPI_Comm comm, const double *xy, int count, int n,
                                  wt_edge_weight_type type, const wt_batch_params *params,
                                  wt_batch_result *res, wt_error *err)
{
    if (n > WT_BATCH_MAX_CITIES) /* every rank alike, as wt_solve_batch_points refuses it */
        return wt_solve_batch_points(xy, count, n, type, params, res, err);
    int rank = 0, size = 1;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    wt_instance **insts = calloc((size_t)count, sizeof *insts);
    double *x = malloc(2 * (size_t)n * sizeof *x);
    for (int i = 0; insts && x && i < count; i++) {
        wt_error e = {0};
        if (wt_mpi_batch_owner(i, size) == rank) insts[i] = batch_instance(xy, i, n, type, x, &e);
    }
    /* Without memory, insts NULL: every rank returns the refusal. */
    wt_status st = wt_mpi_solve_batch(comm, 0, x ? (const wt_instance *const *)insts : NULL,
                                      count, params, res, err);
    for (int i = 0; insts && i < count; i++) wt_instance_free(insts[i]);
    free(insts);
    for (int i = 0; st == WT_OK && x && rank == 0 && i < res->count; i++) {
        wt_batch_tour *t = &res->tours[i];
        if (t->status == WT_OK) continue;
        wt_error e = {0};
        wt_instance *inst = batch_instance(xy, i, n, type, x, &e);
        if (inst) {
            wt_instance_free(inst); /* it failed in the search, as it says */
            continue;
        }
        t->status = e.status;
        snprintf(t->message, sizeof t->message, "instance %d: %.160s", i, e.message);
    }
    free(x);
    return st;
}
#endif

/* The batch: over m's communicator where m->on (root 0), else this
 * process's wt_solve_batch_points. */
static wt_status batch_on(const mpi_run *m, const double *xy, int count, int n,
                          wt_edge_weight_type type, const wt_batch_params *params,
                          wt_batch_result *res, wt_error *err)
{
#ifdef WT_PY_MPI
    if (m->on) return mpi_batch_points(m->comm, xy, count, n, type, params, res, err);
#else
    (void)m;
#endif
    return wt_solve_batch_points(xy, count, n, type, params, res, err);
}

PyDoc_STRVAR(solve_batch_doc,
             "solve_batch(points, count, n, seed, time_limit, kicks, backend, threads,\n"
             "            progress, interval, cuda_device[, watch_sigint, places, devices,\n"
             "            candidates, comm, search]) -> (dict or None, exception or None)\n\n"
             "Internal: warptour.solve_batch calls this.  watch_sigint: as solve's;\n"
             "places: (latitude, longitude) rows in decimal degrees (WT_HAVERSINE);\n"
             "devices: as solve's (wt_batch_params.devices); candidates: 'auto',\n"
             "'nearest' or 'alpha' (wt_batch_params.candidates); comm: None or an MPI\n"
             "communicator's Fortran handle (wt_mpi_solve_batch from the points, root\n"
             "0: the dict is then None on the other ranks); search: 'auto', 'batch'\n"
             "or 'lk' (wt_batch_params.search).");

static PyObject *py_solve_batch(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *source, *progress;
    const char *backend;
    int count, n, threads, cuda_device;
    unsigned long long seed, kicks;
    double time_limit, interval;
    int watch_sigint = 0, places = 0;
    PyObject *devices = Py_None, *comm = Py_None;
    const char *candidates = NULL, *search = NULL;
    if (!PyArg_ParseTuple(args, "OiiKdKziOdi|ppOzOz", &source, &count, &n, &seed, &time_limit,
                          &kicks, &backend, &threads, &progress, &interval, &cuda_device,
                          &watch_sigint, &places, &devices, &candidates, &comm, &search))
        return NULL;
    mpi_run mpi;
    memset(&mpi, 0, sizeof mpi);
    mpi.is_root = true;
    if (comm != Py_None) {
#ifdef WT_PY_MPI
        int rank = 0;
        if (comm_of(comm, &mpi.comm) < 0) return NULL;
        MPI_Comm_rank(mpi.comm, &rank);
        mpi.on = true;
        mpi.is_root = rank == 0;
#else
        PyErr_SetString(PyExc_RuntimeError, "comm: this build of warptour has no MPI (it was "
                                            "built where CMake found none, or with WT_MPI=OFF)");
        return NULL;
#endif
    }
    wt_batch_params params;
    wt_batch_params_defaults(&params);
    if (!candidates || strcmp(candidates, "auto") == 0)
        params.candidates = WT_BATCH_CANDIDATES_AUTO;
    else if (strcmp(candidates, "nearest") == 0)
        params.candidates = WT_BATCH_CANDIDATES_NEAREST;
    else if (strcmp(candidates, "alpha") == 0)
        params.candidates = WT_BATCH_CANDIDATES_ALPHA;
    else
        return PyErr_Format(PyExc_ValueError, "candidates must be 'auto', 'nearest' or "
                            "'alpha', got '%s'", candidates);
    if (!search || strcmp(search, "auto") == 0)
        params.search = WT_BATCH_SEARCH_AUTO;
    else if (strcmp(search, "batch") == 0)
        params.search = WT_BATCH_SEARCH_BATCH;
    else if (strcmp(search, "lk") == 0)
        params.search = WT_BATCH_SEARCH_LK;
    else
        return PyErr_Format(PyExc_ValueError, "search must be 'auto', 'batch' or 'lk', got "
                            "'%s'", search);
    params.cuda_device = cuda_device;
    if (set_devices(devices, params.devices, &params.device_count) < 0) return NULL;
    if (backend && wt_backend_parse(backend, &params.backend) != WT_OK)
        return PyErr_Format(PyExc_ValueError, "unknown backend '%s' (auto, cpu, cuda)", backend);
    if (count < 1 || n < 3 || (Py_ssize_t)count * n > PY_SSIZE_T_MAX / 16)
        return PyErr_Format(PyExc_ValueError, "a batch needs at least one instance of 3 points "
                            "or more (got %d of %d)", count, n);
    Py_buffer view;
    if (get_doubles(source, &view, (Py_ssize_t)count * n * 2) < 0) return NULL;
    progress_ctx ctx = {.callable = progress == Py_None ? NULL : progress,
                        .last_call = wt_now_s(),
                        .shown_batch = {.count = count}};
    params.seed = seed;
    params.time_limit_s = time_limit;
    params.kicks = kicks;
    params.threads = threads;
    params.progress = batch_progress_cb;
    params.progress_user = &ctx;
    params.progress_interval_s = interval;
    wt_batch_result res;
    wt_error err = {0};
    wt_status st;
    /* As solve's: SIGINT sets the stop flag, which the start tours, the
     * neighbour lists and the searches poll between progress calls, and the
     * ticker calls progress while the library is silent. */
    volatile int stop = 0;
    params.stop_flag = &stop;
    bool watching = watch_sigint && sigint_watch(&stop);
    ticker tk;
    Py_BEGIN_ALLOW_THREADS
    bool ticking = ctx.callable && ticker_start(&tk, &ctx, batch_tick, &stop, interval);
    st = batch_on(&mpi, view.buf, count, n, places ? WT_HAVERSINE : WT_EUC_2D_REAL, &params,
                  &res, &err);
    if (ticking) ticker_stop(&tk);
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&view);
    if (watching) {
        sigint_unwatch();
        /* A SIGINT after the last progress call raises here, with the tours. */
        if (!ctx.exc && PyErr_CheckSignals() < 0) keep_exception(&ctx);
    }
    if (st != WT_OK) {
        Py_XDECREF(ctx.exc);
        return raise_status(&err);
    }
    if (!mpi.is_root) /* a rank of comm other than the root */
        return Py_BuildValue("(ON)", Py_None, ctx.exc ? ctx.exc : Py_NewRef(Py_None));
    PyObject *dict = batch_dict(&res, n);
    wt_batch_result_free(&res);
    if (!dict) {
        Py_XDECREF(ctx.exc);
        return NULL;
    }
    return Py_BuildValue("(NN)", dict, ctx.exc ? ctx.exc : Py_NewRef(Py_None));
}

PyDoc_STRVAR(cuda_doc, "cuda_available() -> (bool, str): whether a CUDA GPU is usable, and "
                       "its name or why not.");

static PyObject *py_cuda_available(PyObject *self, PyObject *args)
{
    (void)self;
    (void)args;
    char device[256] = "";
    bool ok;
    Py_BEGIN_ALLOW_THREADS
    ok = wt_cuda_available(device, sizeof device);
    Py_END_ALLOW_THREADS
    return Py_BuildValue("(Os)", ok ? Py_True : Py_False, device);
}

static PyMethodDef methods[] = {
    {"solve", (PyCFunction)(void (*)(void))py_solve, METH_VARARGS | METH_KEYWORDS, solve_doc},
    {"solve_batch", py_solve_batch, METH_VARARGS, solve_batch_doc},
    {"cuda_available", py_cuda_available, METH_NOARGS, cuda_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_warptour",
    "The C part of the warptour package (use the warptour module instead).", -1, methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__warptour(void)
{
    PyObject *m = PyModule_Create(&module);
#ifdef WT_PY_MPI
    PyObject *has_mpi = Py_True;
#else
    PyObject *has_mpi = Py_False;
#endif
    if (m && (PyModule_AddStringConstant(m, "version", WT_VERSION) < 0 ||
              PyModule_AddObjectRef(m, "mpi", has_mpi) < 0)) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
