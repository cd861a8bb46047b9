"""solve_batch: many small instances at once, on the GPU or the CPU cores.

    import numpy as np, warptour
    pts = np.random.default_rng(1).random((10000, 100, 2))
    r = warptour.solve_batch(pts, time_limit=10)
    r.tours      # (10000, 100) int32, 0-based
    r.lengths    # (10000,) float64, in the points' units

Each instance is solved by an Iterated Local Search of its own (the C
library's wt_solve_batch_points; docs/batch.md): the same tours on the GPU
and on the CPU for the same seed and kick budget.
"""

import numpy as _np

from . import _warptour

__all__ = ["solve_batch", "BatchResult"]


class BatchResult:
    """The outcome of a batch of B instances of n points each.

    tours          (B, n) int32 array, 0-based city orders; a row of -1 where
                   the instance has no tour (see ok and errors)
    lengths        (B,) float64, each tour's length in the points' units
                   (NaN without a tour)
    lengths_units  (B,) int64, the exact integer lengths the library computed
                   (-1 without a tour)
    ok             (B,) bool, whether each instance has its tour
    errors         {index: message} of the instances without a tour (points
                   that are not finite)
    kicks          (B,) uint64, kicks made on each
    on_gpu         (B,) bool, where each ran
    stats          dict: stop, time_s, gpu_time_s (the kernels' time), total_kicks,
                   failed, solved_on_gpu, backend, device (each also an attribute)
    """

    def __init__(self, d, count, n):
        d = dict(d)
        self.tours = _np.frombuffer(d.pop("tours"), dtype=_np.int32).reshape(count, n)
        self.lengths = _np.array(d.pop("lengths"), dtype=_np.float64)
        self.lengths_units = _np.array(d.pop("lengths_units"), dtype=_np.int64)
        status = d.pop("status")
        messages = d.pop("messages")
        self.ok = _np.array([s == "ok" for s in status], dtype=bool)
        self.errors = {i: messages[i] for i in range(count) if status[i] != "ok"}
        self.kicks = _np.array(d.pop("kicks"), dtype=_np.uint64)
        self.on_gpu = _np.array(d.pop("on_gpu"), dtype=bool)
        self.stats = d

    def __getattr__(self, name):  # the stats as attributes: r.stop, r.time_s, ...
        try:
            return self.__dict__["stats"][name]
        except KeyError:
            raise AttributeError(name) from None

    def __len__(self):
        return len(self.tours)

    def __repr__(self):
        return (f"BatchResult(count={len(self.tours)}, n={self.tours.shape[1]}, "
                f"mean_length={_np.nanmean(self.lengths) if self.ok.any() else None!r}, "
                f"failed={self.stats.get('failed')}, backend={self.stats.get('backend')!r})")


def solve_batch(points, *, time_limit=None, seed=1, kicks=None, backend="auto", threads=None,
                progress=None, progress_interval=0.1, cuda_device=0, metric="euclidean",
                devices=None, candidates="auto", comm=None, search="auto"):
    """Solves B instances of n real-valued points each, given as a (B, n, 2)
    array-like of floats (n >= 3; Euclidean distances without rounding, each
    instance in its own length unit, as solve()).

    metric="haversine" (alias "geo-degrees"): places on the Earth, each row
    (latitude, longitude) in decimal degrees, distances in great-circle
    metres rounded to the metre, as solve(metric="haversine"); an instance
    with a place out of range gets no tour (result.errors says why).

    time_limit  seconds for the whole batch; without kicks, the instances
                share it evenly and each kicks as long as its share allows
    seed        the same seed and kicks give the same tours, on either backend
                and for any thread count; instance i draws from (seed, i)
    kicks       kicks an instance (None: 10 a city, at least 1000, or as the
                time limit allows)
    backend     "auto" (the GPU when usable), "cpu", "cuda"
    cuda_device the GPU to run on, as `warptour devices` numbers them (default 0)
    devices     several GPUs: "all" or a list such as [0, 1] (the first in
                cuda_device's stead): the instances are dealt over them, with
                the same tours as on one GPU; None (default): cuda_device
                alone.  A number twice or negative raises ValueError, one
                past the machine's GPUs RuntimeError
    threads     CPU threads (None: all cores; each rank's, with comm)
    candidates  the cities each city's moves join it to: "nearest", "alpha"
                (its best by alpha-nearness, from a short Held-Karp ascent of
                each instance on the host before the search), or "auto"
                (default: nearest, which measured as good a kick)
    search      each instance's search: "lk" (solve()'s ILS with LK descents on
                the host, one thread an instance), "batch" (the batch search:
                2-opt, Or-opt and 3-opt moves and kicks, on the GPU or the host's
                threads) or "auto" (default: lk where a time limit gives each
                instance enough of the host's time, with a GPU's batch search
                beside it on the same instances, each keeping the shorter tour;
                the batch search otherwise: docs/batch.md)
    comm        an mpi4py communicator (MPI.COMM_WORLD): every rank of it calls
                solve_batch with the same points and options, instance i is
                solved on rank i mod P (each rank builds only its own), and
                rank 0 gets the whole BatchResult in the instances' order, the
                other ranks None; the same tours as one process for the same
                seed and kicks (docs/mpi.md; mpi_available()).  None (default):
                this process alone
    progress    optional callable, called about every progress_interval
                seconds with a dict (elapsed_s, done, count, kicks); a true
                return stops the kicks (every instance keeps its best tour);
                an exception it raises (or Ctrl-C) stops them too and is
                raised, with the result in its ``result`` attribute

    Returns a BatchResult (None on the ranks of comm other than 0).  An instance whose points are not finite gets no
    tour (result.errors says why); the others are solved all the same.
"""
    # solve's checks; imported here: the package imports this module
    from . import (_comm, _device, _devices, _integer, _metric, _options, _real_array,
                   _sigint_watchable)
    places = _metric(metric, False) == "haversine"
    arr = _real_array("points", points)
    if arr.ndim != 3 or arr.shape[2] != 2:
        raise ValueError(f"points must be a (batch, n, 2) array, got shape {arr.shape}")
    count, n = arr.shape[0], arr.shape[1]
    if count < 1 or n < 3:
        raise ValueError("a batch needs at least one instance of 3 points or more, "
                         f"got {arr.shape}")
    arr = _np.ascontiguousarray(arr, dtype=_np.float64)

    time_limit, seed, threads, progress_interval = _options(time_limit, seed, threads,
                                                            progress_interval)
    kicks = 0 if kicks is None else _integer("kicks", kicks, 1, 2**64,
                                             "a positive number of kicks")
    if candidates is not None and not isinstance(candidates, str):
        raise TypeError(f"candidates must be 'auto', 'nearest' or 'alpha', got {candidates!r}")
    if search is not None and not isinstance(search, str):
        raise TypeError(f"search must be 'auto', 'batch' or 'lk', got {search!r}")
    if progress is not None and not callable(progress):
        raise TypeError("progress must be callable")
    d, exc = _warptour.solve_batch(arr, count, n, seed, time_limit, kicks, backend, threads,
                                   progress, progress_interval, _device(cuda_device),
                                   _sigint_watchable(), places, _devices(devices),
                                   candidates, _comm(comm, None), search)
    if d is None:  # a rank of comm other than the root
        if exc is not None:
            exc.result = None
            raise exc
        return None
    result = BatchResult(d, count, n)
    if exc is not None:
        exc.result = result
        raise exc
    return result
