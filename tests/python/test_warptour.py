"""The Python package warptour: shapes and errors, reproducibility, valid
tours, time limits, real lengths, matrices, files, the progress callback,
KeyboardInterrupt and the GIL.  Runs against the module the build puts in
<build>/python (PYTHONPATH, set by ctest) or an installed package."""
import math
import os
import threading
import time
import _thread

import numpy as np
import pytest

import warptour

DATA = os.environ.get("WT_DATA", os.path.join(os.path.dirname(__file__), "..", "..", "data"))
BERLIN = os.path.join(DATA, "berlin52.tsp")


def rand_points(n, dims=2, seed=1):
    return np.random.default_rng(seed).random((n, dims))


def is_perm(tour, n):
    return tour.shape == (n,) and np.array_equal(np.sort(tour), np.arange(n))


def tour_length(points, tour):
    p = points[tour]
    return float(np.sum(np.linalg.norm(p - np.roll(p, -1, axis=0), axis=1)))


# ------------------------------------------------------------ points


def test_points_2d_valid_and_real_length():
    pts = rand_points(300)
    r = warptour.solve(pts, threads=2)
    assert is_perm(r.tour, 300)
    assert r.tour.dtype == np.int32
    assert isinstance(r.length, float)
    # Points in [0, 1]: a real length (TSPLIB rounding would say tens or 0).
    assert abs(r.length - tour_length(pts, r.tour)) < 1e-6
    assert 10 < r.length < 20
    assert r.optimum is None and r.gap is None
    assert r.stats["edge_weight_type"] == "EUC_2D_REAL"
    assert r.stop == "done" and r.backend in ("cpu", "cuda")
    assert r.length_units * r.length_unit == pytest.approx(r.length, rel=1e-15)
    # wt_result's groups, flat under solve --json's names
    for key in ("passes", "scan_time_s", "climbs", "best_climb", "ils_descent", "kicks",
                "kicks_accepted", "gpu_time_s", "concurrent_windows_s", "searches",
                "iterations", "sa_unpolished_length", "polish_moves", "polish_time_s",
                "ascent_device", "ascent_iterations", "ascent_time_s"):
        assert key in r.stats, key
    assert r.ils_descent == "lk" and r.kicks == 10000 and r.climbs == 0
    # Real-valued points have a proven bound too, in length's units as well.
    assert r.lower_bound is not None and 0 < r.lower_bound <= r.length_units
    assert r.lower_bound_real == pytest.approx(r.lower_bound * r.length_unit, rel=1e-15)
    assert 0.9 * r.length < r.lower_bound_real <= r.length


def test_points_3d_and_lists():
    pts = rand_points(100, dims=3)
    r = warptour.solve(pts.tolist(), threads=2)
    assert is_perm(r.tour, 100)
    assert r.stats["edge_weight_type"] == "EUC_3D_REAL"
    assert abs(r.length - tour_length(pts, r.tour)) < 1e-6


def test_unit_square_exact():
    pts = np.array([[0, 0], [1, 0], [1, 1], [0, 1], [0.5, 0.5]])
    r = warptour.solve(pts, algorithm="2opt", threads=1)
    assert r.length == pytest.approx(3 + math.sqrt(2), abs=1e-9)


def test_float32_and_fortran_order_accepted():
    pts = np.asfortranarray(rand_points(50).astype(np.float32))
    r = warptour.solve(pts, threads=1)
    assert is_perm(r.tour, 50)


@pytest.mark.parametrize(
    "bad",
    [np.zeros((5,)), np.zeros((5, 4)), np.zeros((5, 1)), np.zeros((2, 5, 2)), [[1, 2], [3]]],
)
def test_bad_shapes(bad):
    with pytest.raises(ValueError):
        warptour.solve(bad)


def test_bad_values():
    pts = rand_points(10)
    pts[3, 1] = np.nan
    with pytest.raises(ValueError, match="not finite"):
        warptour.solve(pts)
    pts[3, 1] = np.inf
    with pytest.raises(ValueError, match="not finite"):
        warptour.solve(pts)
    with pytest.raises(ValueError, match="n >= 3"):
        warptour.solve(rand_points(2))
    with pytest.raises(ValueError, match="algorithm"):
        warptour.solve(rand_points(10), algorithm="lkh")
    with pytest.raises(ValueError, match="backend"):
        warptour.solve(rand_points(10), backend="tpu")
    with pytest.raises(ValueError, match="init"):
        warptour.solve(rand_points(10), init="best")
    with pytest.raises(ValueError):
        warptour.solve(rand_points(10), time_limit=-1)
    with pytest.raises(ValueError):
        warptour.solve(rand_points(10), threads=0)
    with pytest.raises(TypeError):
        warptour.solve(rand_points(10), progress=5)


@pytest.mark.parametrize("algorithm", ["2opt", "ils", "multistart"])
def test_same_seed_same_tour(algorithm):
    pts = rand_points(150, seed=4)
    kw = dict(algorithm=algorithm, threads=2, init="random")
    a = warptour.solve(pts, seed=7, **kw)
    b = warptour.solve(pts, seed=7, **kw)
    assert is_perm(a.tour, 150)
    assert np.array_equal(a.tour, b.tour) and a.length == b.length


def test_time_limit_honoured():
    pts = rand_points(3000)
    t0 = time.monotonic()
    r = warptour.solve(pts, algorithm="ils", time_limit=0.5, threads=2)
    took = time.monotonic() - t0
    assert took < 3.0
    assert r.time_s < 1.5
    assert is_perm(r.tour, 3000)


# ------------------------------------------------------------ matrices


def test_time_limit_counts_the_reading(tmp_path):
    # solve_file's instance arrives through a pipe 1.5 s late under a 1 s
    # limit: the search gets what is left (a millisecond), not a second
    # more, and still returns a valid tour.
    pts = rand_points(3000, seed=8) * 1000
    fifo = tmp_path / "late.tsp"
    os.mkfifo(fifo)
    text = "TYPE : TSP\nDIMENSION : 3000\nEDGE_WEIGHT_TYPE : EUC_2D\nNODE_COORD_SECTION\n"
    text += "".join(f"{i + 1} {x:.3f} {y:.3f}\n" for i, (x, y) in enumerate(pts)) + "EOF\n"

    def write_late():
        time.sleep(1.5)
        with open(fifo, "w") as f:
            f.write(text)

    writer = threading.Thread(target=write_late)
    writer.start()
    r = warptour.solve_file(fifo, time_limit=1, backend="cpu")
    writer.join()
    assert is_perm(r.tour, 3000)
    assert r.stop == "time-limit"
    assert r.kicks == 0  # a millisecond left: no kick (a second would make thousands)


def test_matrix_integer_exact():
    pts = rand_points(40, seed=3) * 1000
    d = np.rint(np.linalg.norm(pts[:, None, :] - pts[None, :, :], axis=2))
    r = warptour.solve_matrix(d, algorithm="ils", threads=2)
    assert is_perm(r.tour, 40)
    assert isinstance(r.length, int)
    assert r.length == int(sum(d[r.tour[i], r.tour[(i + 1) % 40]] for i in range(40)))
    assert r.stats["edge_weight_type"] == "EXPLICIT"


def test_matrix_real_fixed_point():
    pts = rand_points(40, seed=3)
    d = np.linalg.norm(pts[:, None, :] - pts[None, :, :], axis=2)
    r = warptour.solve_matrix(d, threads=2)
    assert isinstance(r.length, float)
    exact = sum(d[r.tour[i], r.tour[(i + 1) % 40]] for i in range(40))
    assert abs(r.length - exact) <= 40 * r.length_unit
    assert r.length_unit < 1e-8


def test_matrix_errors():
    d = np.ones((5, 5))
    d[1, 2] = 2
    with pytest.raises(ValueError, match="not symmetric"):
        warptour.solve_matrix(d, asymmetric=False)
    d[1, 2] = 1
    d[3, 4] = d[4, 3] = -1
    with pytest.raises(ValueError, match=">= 0"):
        warptour.solve_matrix(d)
    d[3, 4] = d[4, 3] = np.nan
    with pytest.raises(ValueError, match="finite"):
        warptour.solve_matrix(d)
    with pytest.raises(ValueError, match="square"):
        warptour.solve_matrix(np.ones((4, 5)))
    with pytest.raises(ValueError):
        warptour.solve_matrix(np.ones((2, 2)))


# ------------------------------------------------------------ files


def test_file_berlin52():
    r = warptour.solve_file(BERLIN, algorithm="ils", threads=2)
    assert is_perm(r.tour, 52)
    assert r.optimum == 7542
    assert isinstance(r.length, int) and r.length >= 7542
    assert r.gap == pytest.approx(100 * (r.length - 7542) / 7542)
    r2 = warptour.solve_file(BERLIN, algorithm="2opt", threads=1)
    assert is_perm(r2.tour, 52) and r2.length >= 7542


def test_file_points(tmp_path):
    pts = rand_points(60, seed=9)
    f = tmp_path / "pts.csv"
    f.write_text("x,y\n" + "\n".join(f"{float(x)!r},{float(y)!r}" for x, y in pts) + "\n")
    r = warptour.solve_file(f, threads=1)
    assert is_perm(r.tour, 60)
    assert abs(r.length - tour_length(pts, r.tour)) < 1e-6
    # The same points through solve: the same tour.
    assert np.array_equal(r.tour, warptour.solve(pts, threads=1).tour)


def test_file_errors(tmp_path):
    with pytest.raises(OSError):
        warptour.solve_file(tmp_path / "missing.tsp")
    bad = tmp_path / "bad.txt"
    bad.write_text("0 0\n1 1\n2 oops\n")
    with pytest.raises(ValueError, match="bad.txt:3:"):
        warptour.solve_file(bad)


# ------------------------------------------------------------ progress, interrupts, GIL


def test_progress_called_and_stops():
    calls = []

    # Calls before the first tour (the start tour, the first descent) carry
    # no lengths (0); the callback stops at its third call or the first
    # after them with a length, and is not called again.
    def cb(info):
        calls.append(info)
        return len(calls) >= 3 and info["best_length"] > 0

    pts = rand_points(2000)
    t0 = time.monotonic()
    r = warptour.solve(pts, algorithm="ils", time_limit=30, threads=2, progress=cb,
                       progress_interval=0.05)
    assert time.monotonic() - t0 < 10
    assert len(calls) >= 3
    assert all(c["best_length"] == 0 for c in calls[2:-1])
    assert r.stop == "interrupted"
    assert is_perm(r.tour, 2000)
    info = calls[-1]
    assert info["elapsed_s"] > 0 and info["best_length_real"] > 0


def test_exception_in_progress_carries_result():
    class Boom(Exception):
        pass

    def cb(info):
        raise Boom("stop now")

    with pytest.raises(Boom) as e:
        warptour.solve(rand_points(2000), algorithm="ils", time_limit=30, threads=2,
                       progress=cb, progress_interval=0.05)
    r = e.value.result
    assert r.stop == "interrupted" and is_perm(r.tour, 2000)


def test_keyboard_interrupt_carries_best_tour():
    timer = threading.Timer(0.5, _thread.interrupt_main)
    timer.start()
    t0 = time.monotonic()
    try:
        with pytest.raises(KeyboardInterrupt) as e:
            warptour.solve(rand_points(3000), algorithm="ils", time_limit=30, threads=2)
    finally:
        timer.cancel()
    assert time.monotonic() - t0 < 10
    r = e.value.result
    assert r.stop == "interrupted"
    assert is_perm(r.tour, 3000)
    assert r.length > 0


def test_gil_released():
    ticks = [0]
    done = threading.Event()

    def count():
        while not done.is_set():
            ticks[0] += 1
            time.sleep(0.001)

    t = threading.Thread(target=count)
    t.start()
    try:
        before = ticks[0]
        r = warptour.solve(rand_points(3000), algorithm="ils", time_limit=1.0, threads=1,
                           progress_interval=5)
    finally:
        done.set()
        t.join()
    assert is_perm(r.tour, 3000)
    # Held GIL for a second: the thread would not tick at all.
    assert ticks[0] - before > 100


def test_cuda_available_reports():
    ok, why = warptour.cuda_available()
    assert isinstance(ok, bool) and isinstance(why, str) and why
    r = warptour.solve(rand_points(50), backend="cpu", threads=1)
    assert r.backend == "cpu"


# ------------------------------------------------------------ tuning and devices


def small_matrix(n=30):
    p = rand_points(n, seed=9)
    return np.rint(100 * np.linalg.norm(p[:, None] - p[None], axis=2))


# Every field at a value the library takes (test_params.c's tuning, and ils_window).
EVERY_FIELD = {"ils_round_kicks": "off", "ils_segment_min": 50, "ils_segment_max": 60,
               "ils_share_round_every": 3,
               "ils_window": 8,
               "ils_replica_every": 2, "ils_list_descent_min": 9, "ils_merged_min": 9,
               "ils_starts": 3, "ils_concurrent_min": 9, "ils_concurrent_round_ms": 500,
               "ils_merge": 2, "ils_device_lists_min": 9,
               "lk_candidates": 12, "lk_depth": 50, "lk_breadth1": 5,
               "lk_breadth2": 3, "lk_breadth3": 2, "lk_walk": 50, "pass_rows": 16,
               "pass_block": 256, "pass_piece": 1024,
               "pass_period": 4, "pass_float_loop": True, "pass_unchained": True,
               "pass_prune_min": 1, "ms_block": 64, "ms_tc": 4, "ms_scan": "rounds",
               "ms_gap_c": 10, "lk_kopt": 3}


def test_tuning_defaults_and_every_field():
    pts = rand_points(200, seed=5)
    # 500 kicks: the default's 10,000 (test_points_2d_valid_and_real_length)
    # would be nine tenths of this test's time, which is about the tuning
    kw = dict(algorithm="ils", threads=2, seed=3, backend="cpu", kicks=500)
    a = warptour.solve(pts, **kw)
    for zero in ({}, {"ils_round_kicks": 0, "pass_rows": 0, "pass_float_loop": False,
                      "ms_scan": "auto"}):
        b = warptour.solve(pts, tuning=zero, **kw)  # 0 in a field: the library's default
        assert np.array_equal(a.tour, b.tour)
    for algorithm, kicks in (("ils", 500), ("2opt", None)):
        r = warptour.solve(pts, algorithm=algorithm, threads=1, backend="cpu", kicks=kicks,
                           tuning=EVERY_FIELD)
        assert is_perm(r.tour, 200)
    r = warptour.solve_file(BERLIN, threads=1, backend="cpu", tuning={"ils_round_kicks": 100})
    assert is_perm(r.tour, 52)
    # For one release a field's name of 0.1.0 sets it too.
    old = warptour.solve(pts, tuning={"ils_epoch": 7, "ils_stretch": 50}, **kw)
    new = warptour.solve(pts, tuning={"ils_round_kicks": 7, "ils_segment_min": 50}, **kw)
    assert np.array_equal(old.tour, new.tour)


@pytest.mark.parametrize("kind", ["points", "matrix", "file"])
def test_tuning_errors(kind):
    solve, arg = {"points": (warptour.solve, rand_points(20)),
                  "matrix": (warptour.solve_matrix, small_matrix()),
                  "file": (warptour.solve_file, BERLIN)}[kind]
    # Values are the library's to check: its message, naming the field.
    with pytest.raises(ValueError, match=r"tuning\.pass_rows is 7; expected"):
        solve(arg, tuning={"pass_rows": 7})
    with pytest.raises(ValueError, match=r"tuning\.ils_window is 3"):
        solve(arg, tuning={"ils_window": 3})
    with pytest.raises(ValueError, match=r"ms_scan 9 is no wt_ms_scan"):
        solve(arg, tuning={"ms_scan": 9})
    # Names the module checks: every unknown one is named.
    with pytest.raises(ValueError, match=r"unknown tuning fields 'epoch', 'rows' \(wt_tuning "
                                         r"has ils_round_kicks, "):
        solve(arg, tuning={"epoch": 1, "ils_replica_every": 2, "rows": 8})
    with pytest.raises(ValueError, match=r"unknown tuning field 3 "):
        solve(arg, tuning={3: 1})
    with pytest.raises(ValueError, match="ms_scan is 'auto', 'squares'"):
        solve(arg, tuning={"ms_scan": "diagonal"})
    with pytest.raises(ValueError, match="ils_replica_every takes an integer or 'off'"):
        solve(arg, tuning={"ils_replica_every": "never"})
    with pytest.raises(ValueError, match="pass_block: 1099511627776 is out of range"):
        solve(arg, tuning={"pass_block": 2**40})
    with pytest.raises(TypeError, match="pass_rows"):
        solve(arg, tuning={"pass_rows": 8.0})
    with pytest.raises(TypeError, match="pass_float_loop takes True or False"):
        solve(arg, tuning={"pass_float_loop": "yes"})
    with pytest.raises(TypeError):
        solve(arg, tuning=5)


@pytest.mark.parametrize("kind", ["points", "matrix", "file"])
def test_cuda_device(kind):
    solve, arg = {"points": (warptour.solve, rand_points(30)),
                  "matrix": (warptour.solve_matrix, small_matrix()),
                  "file": (warptour.solve_file, BERLIN)}[kind]
    kw = dict(algorithm="2opt", threads=1)
    with pytest.raises(ValueError, match=r"params\.cuda_device is -1; expected 0 or more"):
        solve(arg, cuda_device=-1, **kw)
    with pytest.raises(TypeError, match="cuda_device must be an int"):
        solve(arg, cuda_device="0", **kw)
    # Not a GPU's number: refused wherever the cuda backend may run (test_params.c).
    beyond = 1 << 20
    assert solve(arg, backend="cpu", cuda_device=beyond, **kw).backend == "cpu"
    if warptour.cuda_available()[0]:
        # auto looks at the GPU only where it runs the search (2opt on points does)
        for backend in ("auto", "cuda") if kind == "points" else ("cuda",):
            with pytest.raises(ValueError, match=r"params\.cuda_device is 1048576; this "
                                                 r"machine has \d+ cuda device"):
                solve(arg, backend=backend, cuda_device=beyond, **kw)
    else:
        assert solve(arg, cuda_device=beyond, **kw).backend == "cpu"  # auto, no GPU: the CPU


def test_batch_cuda_device():
    pts = np.random.default_rng(2).random((2, 12, 2))
    r = warptour.solve_batch(pts, kicks=50, backend="cpu", threads=1, cuda_device=1 << 20)
    assert r.ok.all() and r.backend == "cpu"
    with pytest.raises(ValueError, match="cuda_device is -1"):
        warptour.solve_batch(pts, kicks=50, cuda_device=-1)


def test_comm_refused_where_it_cannot_run():
    """comm= (docs/mpi.md): without MPI in the build a RuntimeError saying so;
    with it, something that is no communicator is a TypeError; mpi_mode
    alone is a ValueError."""
    pts = np.random.default_rng(3).random((20, 2))
    if warptour.mpi_available():
        with pytest.raises(TypeError, match="communicator"):
            warptour.solve(pts, kicks=5, comm=object())
    else:
        with pytest.raises(RuntimeError, match="no MPI"):
            warptour.solve(pts, kicks=5, comm=object())
    with pytest.raises(ValueError, match="mpi_mode needs comm"):
        warptour.solve(pts, kicks=5, mpi_mode="islands")
