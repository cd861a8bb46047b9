"""warptour: a symmetric TSP solver (2-opt, ILS, multistart, simulated
annealing) on NVIDIA GPUs and CPU cores, from Python.

    import numpy as np, warptour
    pts = np.random.default_rng(1).random((1000, 2))
    r = warptour.solve(pts, time_limit=2, algorithm="ils")
    r.tour      # 0-based city order, numpy int32 array
    r.length    # the tour's length in the points' units

solve(points) takes real-valued points (Euclidean metric without TSPLIB's
rounding), solve_matrix(d) a symmetric distance matrix, solve_file(path) a
TSPLIB file or a point file; solve_batch(points) many instances at once, a
(batch, n, 2) array.  The search runs without the GIL.  Ctrl-C (or
any exception raised by the progress callback) stops it; the exception is
then raised with the best tour found so far in its ``result`` attribute.
"""

import operator as _operator
import os as _os
import signal as _signal
import threading as _threading

import numpy as _np

from . import _warptour
from .batch import BatchResult, solve_batch

__all__ = ["solve", "solve_matrix", "solve_file", "solve_batch", "Result", "BatchResult",
           "cuda_available", "mpi_available", "__version__"]
__version__ = _warptour.version


class Result:
    """The outcome of a solve.

    tour          numpy int32 array of the n cities (0-based) in visiting order
    length        the tour's length: a float in the points' (or matrix's) units
                  for real-valued points and non-integer matrices, else the exact
                  integer TSPLIB length
    length_units  the exact integer length the library computed (length is
                  length_units * length_unit)
    length_unit   what one integer unit measures (1.0 for TSPLIB instances)
    optimum       the known optimal length (TSPLIB instances the built-in table
                  knows), else None
    gap           100 * (length - optimum) / optimum, percent, or None
    lower_bound   a proven lower bound on every tour's length, in length_units
                  (the Held-Karp bound of the ascent behind the LK searches'
                  candidates), or None where none was computed
    lower_bound_real
                  the bound in length's units (lower_bound * length_unit where
                  length is a float, else lower_bound), or None
    gap_to_bound_percent
                  100 * (length_units - lower_bound) / lower_bound: the tour
                  is at most this much above the optimum; or None
    stats         dict of the run's statistics (the C library's wt_result
                  fields, its groups flattened under the names of solve
                  --json: stop, time_s, init_length, steps, passes, kicks,
                  concurrent_windows_s, backend, device, ascent_device,
                  ascent_iterations, ascent_time_s, ...); each is also an
                  attribute
    """

    def __init__(self, d):
        d = dict(d)
        self.tour = _np.frombuffer(d.pop("tour"), dtype=_np.int32)
        self.length_units = d.pop("length_units")
        self.length_unit = d.pop("length_unit")
        real = d["real"] or self.length_unit != 1.0
        length_real = d.pop("length_real")
        self.length = length_real if real else self.length_units
        self.optimum = d.pop("optimum")
        self.gap = (
            None
            if self.optimum is None or self.optimum <= 0
            else 100.0 * (self.length_units - self.optimum) / self.optimum
        )
        self.lower_bound = d.pop("lower_bound", None)
        self.lower_bound_real = (
            None if self.lower_bound is None
            else self.lower_bound * self.length_unit if real else self.lower_bound
        )
        self.gap_to_bound_percent = d.pop("gap_to_bound_percent", None)
        self.stats = d

    def __getattr__(self, name):
        stats = self.__dict__.get("stats", {})
        if name in stats:
            return stats[name]
        raise AttributeError(name)

    def __len__(self):
        return len(self.tour)

    def __repr__(self):
        gap = "" if self.gap is None else f", gap={self.gap:.3f}%"
        return (
            f"Result(n={len(self.tour)}, length={self.length!r}{gap}, "
            f"stop={self.stats.get('stop')!r}, backend={self.stats.get('backend')!r})"
        )


def cuda_available():
    """(True, GPU name) when a CUDA GPU is usable by this build, else
    (False, why not)."""
    return _warptour.cuda_available()


def mpi_available():
    """Whether this build takes comm= (it was built with MPI: docs/mpi.md)."""
    return bool(_warptour.mpi)


def _comm(comm, mpi_mode):
    """comm (an mpi4py communicator, or None) as its Fortran handle for the
    extension; RuntimeError where the build has no MPI."""
    if comm is None:
        if mpi_mode is not None:
            raise ValueError("mpi_mode needs comm (an MPI communicator)")
        return None
    if not _warptour.mpi:
        raise RuntimeError("comm: this build of warptour has no MPI (it was built where CMake "
                           "found none, or with WT_MPI=OFF; docs/mpi.md)")
    if not callable(getattr(comm, "py2f", None)):
        raise TypeError(f"comm must be an mpi4py communicator (such as MPI.COMM_WORLD), "
                        f"got {comm!r}")
    if mpi_mode is not None and mpi_mode not in ("auto", "islands", "parts"):
        raise ValueError(f"mpi_mode must be 'auto', 'islands' or 'parts', got {mpi_mode!r}")
    return comm.py2f()


def _device(cuda_device):
    """cuda_device as an int; the library checks it against the machine's GPUs."""
    try:
        cuda_device = _operator.index(cuda_device)
    except TypeError:
        raise TypeError(f"cuda_device must be an int, got {cuda_device!r}") from None
    if not -2**31 <= cuda_device < 2**31:
        raise ValueError(f"cuda_device is {cuda_device}; expected a GPU's number (0, 1, ...)")
    return cuda_device


def _devices(devices):
    """devices as None, "all" or a tuple of ints, for the library to check
    (a number twice or negative: ValueError; past the machine's GPUs:
    RuntimeError)."""
    if devices is None or (isinstance(devices, str) and devices == "all"):
        return devices
    if isinstance(devices, (str, bytes)):
        raise ValueError(f"devices is {devices!r}; expected 'all' or a list of GPU numbers")
    try:
        listed = tuple(_operator.index(d) for d in devices)
    except TypeError:
        raise TypeError(f"devices must be None, 'all' or a list of GPU numbers (ints), "
                        f"got {devices!r}") from None
    if not 1 <= len(listed) <= 16:
        raise ValueError(f"devices lists {len(listed)} GPUs; expected 1 to 16")
    if any(not -2**31 <= d < 2**31 for d in listed):
        raise ValueError(f"devices is {devices!r}; expected GPU numbers (0, 1, ...)")
    return listed


def _integer(name, value, lo, hi, what):
    """value as an int in lo .. hi-1; TypeError for a non-integer (1.5, "2"),
    ValueError naming the parameter outside the range."""
    try:
        value = _operator.index(value)
    except TypeError:
        raise TypeError(f"{name} must be an integer, got {value!r}") from None
    if not lo <= value < hi:
        raise ValueError(f"{name} must be {what}, got {value}")
    return value


def _options(time_limit, seed, threads, progress_interval):
    if time_limit is None:
        time_limit = 0.0
    else:
        if isinstance(time_limit, complex):
            raise TypeError(f"time_limit must be a real number, got {time_limit!r}")
        time_limit = float(time_limit)
        if not time_limit > 0:
            raise ValueError(f"time_limit must be a positive number of seconds, got {time_limit}")
    seed = _integer("seed", seed, 0, 2**64, "in 0 .. 2^64-1")
    if threads is None:
        threads = 0
    else:
        threads = _integer("threads", threads, 1, 2**31, "in 1 .. 2^31-1")
    if isinstance(progress_interval, complex):
        raise TypeError(f"progress_interval must be a real number, got {progress_interval!r}")
    progress_interval = float(progress_interval)
    if not progress_interval > 0:
        raise ValueError("progress_interval must be positive")
    return time_limit, seed, threads, progress_interval


def _real_array(name, value):
    """value as a NumPy array of real numbers, not yet copied to float64 (the
    caller checks its shape first); TypeError naming name for complex input."""
    arr = _np.asarray(value)
    if arr.dtype.kind == "c":
        raise TypeError(f"{name} must be real numbers, got a complex array")
    if arr.dtype.kind == "O" and any(isinstance(v, complex) for v in arr.flat):
        raise TypeError(f"{name} must be real numbers, got a complex value")
    return arr


def _sigint_watchable():
    """Whether the library may stop on SIGINT itself: on the main thread, with
    Python's default handler (KeyboardInterrupt) in place."""
    return (_threading.current_thread() is _threading.main_thread() and
            _signal.getsignal(_signal.SIGINT) is _signal.default_int_handler)


def _kicks(kicks, algorithm):
    """kicks as the library's wt_params.kicks: 0 for None (the default)."""
    if kicks is None:
        return 0
    if algorithm not in (None, "ils"):
        raise ValueError(f"kicks belongs to algorithm 'ils', not to {algorithm!r}")
    return _integer("kicks", kicks, 1, 2**64, "a positive number of kicks")


def _start_tour(start_tour, algorithm):
    """start_tour as bytes of int32 cities, or None; the library checks that
    it is a permutation of the instance's n cities (ValueError otherwise)."""
    if start_tour is None:
        return None
    if algorithm == "multistart":
        raise ValueError("start_tour does not apply to 'multistart': its climbs start "
                         "from random tours")
    arr = _np.asarray(start_tour)
    if arr.ndim != 1:
        raise ValueError(f"start_tour must be a 1-D sequence of cities, got shape {arr.shape}")
    if arr.size and arr.dtype.kind not in "iu":
        raise TypeError(f"start_tour must be integers (0-based cities), got {arr.dtype}")
    if arr.size and (arr.min() < 0 or arr.max() >= 2**31):
        raise ValueError("start_tour must be 0-based cities, 0 .. n-1")
    return _np.ascontiguousarray(arr, dtype=_np.int32).tobytes()


def _path(open_, start, end):
    """The open path's keywords for _warptour.solve (open=, start=, end=)."""
    return {"open": bool(open_), "start": start, "end": end}


def _run(kind, source, n, dims, time_limit, seed, algorithm, backend, threads, init, progress,
         progress_interval, cuda_device, tuning, kicks=None, start_tour=None, path=None,
         devices=None, comm=None, mpi_mode=None):
    time_limit, seed, threads, progress_interval = _options(time_limit, seed, threads,
                                                            progress_interval)
    if progress is not None and not callable(progress):
        raise TypeError("progress must be callable")
    if tuning is not None:
        tuning = dict(tuning)
    kicks = _kicks(kicks, algorithm)
    start_tour = _start_tour(start_tour, algorithm)
    d, exc = _warptour.solve(kind, source, n, dims, seed, time_limit, algorithm, backend,
                             threads, init, progress, progress_interval, _device(cuda_device),
                             tuning, _sigint_watchable(), kicks, start_tour, **(path or {}),
                             devices=_devices(devices), comm=_comm(comm, mpi_mode),
                             mpi_mode=mpi_mode)
    if d is None:  # a rank of comm other than the root
        if exc is not None:
            exc.result = None
            raise exc
        return None
    result = Result(d)
    if exc is not None:
        exc.result = result
        raise exc
    return result


_DOC_COMMON = """
    time_limit  seconds from the call, the instance's reading (solve_file) or
                build and the start tour included; None: until the
                algorithm's natural end
    seed        seed of every random choice: a run without time_limit gives
                the same tour again for the same seed, backend and kicks (on
                any thread count; sa's: the same thread count too); a
                time-limited run does not repeat (how far it gets depends on
                the machine's speed and load)
    kicks       ils: the number of kicks (a budget, for repeatable runs);
                None: as many as time_limit allows, or without one one per
                city, at least 10,000 (as the CLI's --kicks)
    start_tour  a permutation of the n cities (0-based, e.g. a previous
                Result.tour) to start from instead of init: a warm start
                (2opt, ils, sa; as the CLI's --start-tour)
    algorithm   "ils" (default: Iterated Local Search with Lin-Kernighan
                descents, one kick a city without a time limit), "2opt" (2-opt
                to a local optimum), "multistart", "sa"
    backend     "auto" (the GPU when this build has CUDA and one is usable),
                "cpu", "cuda"
    cuda_device the GPU to run on, as `warptour devices` numbers them (default
                0); a number beyond the machine's GPUs raises ValueError where
                the cuda backend may run (backend "auto" or "cuda" on a machine
                with a usable GPU)
    devices     several GPUs: "all" or a list such as [0, 1] (the first in
                cuda_device's stead); the window searches of a large tour are
                dealt over them, and from 2,000,000 cities its first descent
                (a region of the plane a GPU); the rest runs on the first
                (docs/devices.md);
                None (default): cuda_device alone.  A number twice or
                negative raises ValueError, one past the machine's GPUs
                RuntimeError
    threads     CPU threads (None: all cores)
    init        start tour: "greedy" (default), "boruvka", "nearest", "spacefill",
                "random"
    tuning      EXPERIMENTAL: a dict of the C library's wt_tuning fields and
                values (kernel shapes and search round lengths, for
                measurements: docs/library.md lists them), e.g.
                {"ils_round_kicks": "off", "pass_rows": 16} (for one release
                the names of 0.1.0, such as "ils_epoch", are taken too);
                ints, "off" for WT_TUNING_OFF, True/False for
                the flags, "auto"/"squares"/"gaps"/"rounds" for ms_scan.  An
                unknown name or a value the library refuses raises ValueError
                naming it; a tuning may change the tour a seed gives
    open        True: a shortest Hamiltonian path instead of a tour (Result.tour
                runs from one end to the other, Result.length leaves out the
                closing edge, Result.open is True); "ils" (LK or local
                descents) on the host only, other algorithms raise ValueError
    start       None, or the city (0-based) the tour or path begins at; alone
                on a closed tour it only rotates the tour
    end         None, or the city (0-based) the open path ends at (implies
                open=True)
    comm        an mpi4py communicator (MPI.COMM_WORLD): every rank of it calls
                the same solve with the same arguments, and the ranks search
                the instance together (docs/mpi.md: islands or parts, "ils"
                only, closed tours only); rank 0 gets the Result, the other
                ranks None.  With kicks and no time_limit, each rank makes
                that many kicks and the run repeats for the same seed, ranks
                and threads (the tour of `mpirun -np P warptour solve
                --kicks K`).  RuntimeError where the build has no MPI
                (mpi_available()); None (default): this process alone
    mpi_mode    with comm: "auto" (default), "islands" or "parts"
    progress    optional callable, called about every progress_interval seconds
                with a dict (elapsed_s, best_length, best_length_real: 0
                until the first tour exists, steps, kicks, climbs,
                temperature, lower_bound: 0 until a bound is proven); a true
                return stops the search
                and the best tour so far is returned (stats["stop"] ==
                "interrupted"); an exception it raises stops the search and is
                raised, with the best tour in its ``result`` attribute, as
                KeyboardInterrupt (Ctrl-C) is

    Returns a Result.  Bad input raises ValueError with the library's message.
"""


MAX_MATRIX_CITIES = 46340  # WT_MAX_EXPLICIT_CITIES: the most cities solve_matrix takes


_METRICS = {"euclidean": "euclidean", "haversine": "haversine", "geo-degrees": "haversine"}


def _metric(metric, auto):
    if auto and metric in (None, "auto"):
        return None
    if metric not in _METRICS:
        names = ("'auto', " if auto else "") + "'euclidean', 'haversine' or 'geo-degrees'"
        raise ValueError(f"metric must be {names}, got {metric!r}")
    return _METRICS[metric]


def solve(points, *, time_limit=None, seed=1, algorithm=None, backend="auto", threads=None,
          init=None, progress=None, progress_interval=0.1, cuda_device=0, tuning=None,
          kicks=None, start_tour=None, metric="euclidean", open=False, start=None, end=None,
          devices=None, comm=None, mpi_mode=None):
    """Solves the TSP of real-valued points: an (n, 2) or (n, 3) array-like of
    floats, n >= 3, Euclidean distances without rounding (EUC_2D_REAL,
    EUC_3D_REAL: lengths exact to about 2^-40 of the points' extent per
    edge).  Result.length is the tour's length in the points' units.

    metric="haversine" (alias "geo-degrees"): places on the Earth, an (n, 2)
    array of (latitude, longitude) in decimal degrees (latitude in [-90, 90],
    longitude in [-180, 360)); distances are great-circle metres on a sphere
    of the mean Earth radius, 6,371,008.8 m, each rounded to the nearest
    metre, and Result.length is the exact int sum of them.
"""
    places = _metric(metric, False) == "haversine"
    arr = _real_array("points", points)
    if arr.ndim != 2 or arr.shape[1] not in ((2,) if places else (2, 3)):
        shape = "(n, 2) array of (latitude, longitude)" if places else "(n, 2) or (n, 3) array"
        raise ValueError(f"points must be an {shape}, got shape {arr.shape}")
    arr = _np.ascontiguousarray(arr, dtype=_np.float64)
    return _run("places" if places else "points", arr, arr.shape[0], arr.shape[1], time_limit,
                seed, algorithm, backend, threads, init, progress, progress_interval, cuda_device,
                tuning, kicks=kicks, start_tour=start_tour, path=_path(open, start, end),
                devices=devices, comm=comm, mpi_mode=mpi_mode)


def solve_matrix(d, *, time_limit=None, seed=1, algorithm=None, backend="auto", threads=None,
                 init=None, progress=None, progress_interval=0.1, cuda_device=0,
                 tuning=None, kicks=None, start_tour=None, open=False, start=None, end=None,
                 asymmetric=None, devices=None, comm=None, mpi_mode=None):
    """Solves the TSP of an n x n distance matrix (EXPLICIT): finite, not
    negative; the diagonal is ignored.

    asymmetric  None (default): asymmetric exactly when some d[i][j] !=
                d[j][i]; True: read d[i][j] as the cost from i to j even if
                the matrix is symmetric; False: refuse an asymmetric matrix.
                An asymmetric matrix (an ATSP) is solved as the symmetric
                instance of 2n cities of Jonker & Volgenant (each city and a
                twin joined by a fixed edge), by ils with lk or local
                descents on the host only (other algorithms, backend="cuda"
                and open paths raise RuntimeError); Result.tour is the tour
                of the n cities in its direction, Result.length its exact
                asymmetric length (sum of d[tour[k]][tour[k+1]] and
                d[tour[-1]][tour[0]]), Result.asymmetric True.  Integers are
                exact while n times the largest entry stays below 2^31 - 1;
                any other matrix is held in fixed point so that n times the
                largest entry stays below 2^30 units.

    A symmetric matrix of
    integers (up to 2^31 - 1) is solved exactly and Result.length is an int.
    Any other is rounded to fixed point: every entry to the nearest multiple
    of 2^-k, k the largest that keeps the largest entry below 2^30 units
    (Result.length_unit), and Result.length is a float; entries far smaller
    than the largest may then round to 0.  An entry above 2^31 - 1 raises
    ValueError.  Complex entries raise TypeError.
"""
    arr = _real_array("d", d)
    if arr.ndim != 2 or arr.shape[0] != arr.shape[1]:
        raise ValueError(f"the distance matrix must be square, got shape {arr.shape}")
    if arr.shape[0] > MAX_MATRIX_CITIES:  # before any float64 copy (46341^2: 16 GiB)
        raise ValueError(f"a distance matrix may have at most {MAX_MATRIX_CITIES} cities, "
                         f"got {arr.shape[0]}")
    arr = _np.ascontiguousarray(arr, dtype=_np.float64)
    if (arr.diagonal() != 0).any():  # ignored: NaN, or 0.5 that would make it fixed point
        arr = arr.copy()
        _np.fill_diagonal(arr, 0.0)
    if asymmetric is None:
        asymmetric = not _np.array_equal(arr, arr.T)
    elif not asymmetric and not _np.array_equal(arr, arr.T):
        i, j = _np.argwhere(arr != arr.T)[0]
        raise ValueError(f"asymmetric=False but the matrix is not symmetric: d[{i}][{j}] = "
                         f"{arr[i, j]!r}, d[{j}][{i}] = {arr[j, i]!r}")
    kind = "asymmetric matrix" if asymmetric else "matrix"
    return _run(kind, arr, arr.shape[0], 0, time_limit, seed, algorithm, backend, threads,
                init, progress, progress_interval, cuda_device, tuning,
                kicks=kicks, start_tour=start_tour, path=_path(open, start, end),
                devices=devices, comm=comm, mpi_mode=mpi_mode)


def solve_file(path, *, time_limit=None, seed=1, algorithm=None, backend="auto", threads=None,
               init=None, progress=None, progress_interval=0.1, cuda_device=0, tuning=None,
               kicks=None, start_tour=None, metric=None, open=False, start=None, end=None,
               devices=None, comm=None, mpi_mode=None):
    """Solves a TSPLIB file, or a point file (lines of "x y" or "x y z",
    blanks or commas, optional header row, '#' comments), told apart by the
    first line.  Result.optimum is known for TSPLIB instances of the built-in
    table (berlin52: 7542).

    metric, for point files: None or "auto" (haversine when a header line
    names latitude and longitude columns, "lat,lon" or "lon,lat", else
    Euclidean), "euclidean", or "haversine" (alias "geo-degrees": lines of
    latitude and longitude in decimal degrees, in the header's order,
    latitude first without one; lengths in metres as solve's).  A TSPLIB file
    with a metric other than None/"auto" raises ValueError.
"""
    m = _metric(metric, True)
    return _run("file" if m is None else "file:" + m, _os.fspath(path), 0, 0, time_limit, seed,
                algorithm, backend, threads, init, progress, progress_interval, cuda_device,
                tuning, kicks=kicks, start_tour=start_tour, path=_path(open, start, end),
                devices=devices, comm=comm, mpi_mode=mpi_mode)


for _f in (solve, solve_matrix, solve_file):
    _f.__doc__ += _DOC_COMMON
del _f
