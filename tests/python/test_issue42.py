"""Issue 42, item 6: Python's parity with the CLI's --kicks and --start-tour.
kicks= gives ILS a kick budget (a run that repeats: same seed, backend,
thread count and kicks, no time limit); start_tour= starts from a given
permutation (a warm start), on solve, solve_matrix and solve_file.  Runs
against the module the build puts in <build>/python (PYTHONPATH, set by
ctest)."""
import os

import numpy as np
import pytest

import warptour

DATA = os.environ.get("WT_DATA", os.path.join(os.path.dirname(__file__), "..", "..", "data"))
BERLIN = os.path.join(DATA, "berlin52.tsp")


def points(n, seed):
    return np.random.default_rng(seed).random((n, 2))


def is_permutation(tour, n):
    return np.array_equal(np.sort(tour), np.arange(n))


def test_kicks_is_the_budget_and_repeats():
    pts = points(300, 2)
    kw = dict(kicks=500, seed=5, threads=2, backend="cpu")
    a = warptour.solve(pts, **kw)
    b = warptour.solve(pts, **kw)
    assert a.stop == "done" and a.kicks == 500 and b.kicks == 500
    assert np.array_equal(a.tour, b.tour) and a.length == b.length
    assert is_permutation(a.tour, 300)
    c = warptour.solve(pts, kicks=20, seed=5, threads=2, backend="cpu")
    assert c.kicks == 20


def test_kicks_on_matrix_and_file():
    pts = points(60, 3) * 1000
    d = np.rint(np.hypot(*(pts[:, None, :] - pts[None, :, :]).transpose(2, 0, 1)))
    r = warptour.solve_matrix(d.astype(np.int64), kicks=30, threads=1, backend="cpu")
    assert r.kicks == 30 and r.stop == "done"
    f = warptour.solve_file(BERLIN, kicks=40, threads=1, backend="cpu")
    # At most the budget: the kicks end early once the tour meets the proven
    # bound (berlin52's greedy tour descends to it).
    assert f.kicks <= 40 and f.stop == "done" and is_permutation(f.tour, 52)


def test_kicks_refused():
    pts = points(20, 1)
    for bad in (0, -1, 2**64):
        with pytest.raises(ValueError, match="kicks"):
            warptour.solve(pts, kicks=bad)
    with pytest.raises(TypeError, match="kicks"):
        warptour.solve(pts, kicks=1.5)
    with pytest.raises(ValueError, match="kicks belongs to algorithm 'ils'"):
        warptour.solve(pts, kicks=10, algorithm="2opt")


def test_start_tour_warm_start():
    pts = points(200, 4)
    first = warptour.solve(pts, algorithm="2opt", threads=2, backend="cpu")
    # A 2-opt local optimum given back to 2opt: nothing left to improve.
    again = warptour.solve(pts, algorithm="2opt", start_tour=first.tour, threads=2,
                           backend="cpu")
    assert again.init_given and again.steps == 0
    assert np.array_equal(again.tour, first.tour)
    assert again.init_length == first.length_units
    # Continued by ILS: never longer than where it started.
    more = warptour.solve(pts, start_tour=first.tour, kicks=200, threads=2, backend="cpu")
    assert more.init_given and more.init_length == first.length_units
    assert more.length_units <= first.length_units
    # Any integer sequence; the given order is the start tour.
    order = list(range(200))[::-1]
    r = warptour.solve(pts, algorithm="2opt", start_tour=order, threads=1, backend="cpu")
    rev = pts[order]
    expected = np.hypot(*(rev - np.roll(rev, -1, axis=0)).T).sum()
    assert r.init_given and abs(r.init_length * r.length_unit - expected) < 1e-6 * expected


def test_start_tour_on_matrix_and_file():
    f = warptour.solve_file(BERLIN, kicks=100, threads=1, backend="cpu")
    g = warptour.solve_file(BERLIN, start_tour=f.tour, kicks=10, threads=1, backend="cpu")
    assert g.init_given and g.init_length == f.length and g.length <= f.length
    d = np.array([[0, 1, 2, 1], [1, 0, 1, 2], [2, 1, 0, 1], [1, 2, 1, 0]])
    m = warptour.solve_matrix(d, algorithm="2opt", start_tour=[0, 2, 1, 3], backend="cpu")
    assert m.init_given and m.init_length == 6 and m.length == 4


def test_start_tour_refused():
    pts = points(10, 1)
    with pytest.raises(ValueError, match="start_tour has 9 cities, the instance 10"):
        warptour.solve(pts, start_tour=np.arange(9))
    with pytest.raises(ValueError):  # the library's check: not a permutation
        warptour.solve(pts, start_tour=[0] * 10)
    with pytest.raises(ValueError, match="0 .. n-1"):
        warptour.solve(pts, start_tour=np.arange(10) - 1)
    with pytest.raises(ValueError, match="1-D"):
        warptour.solve(pts, start_tour=np.arange(10).reshape(2, 5))
    with pytest.raises(TypeError, match="integers"):
        warptour.solve(pts, start_tour=np.arange(10) + 0.5)
    with pytest.raises(ValueError, match="multistart"):
        warptour.solve(pts, start_tour=np.arange(10), algorithm="multistart")


def test_progress_reports_bound_and_steps_that_never_go_back():
    seen = []
    warptour.solve(points(400, 6), kicks=300, threads=2, backend="cpu",
                   progress=lambda info: seen.append(dict(info)), progress_interval=0.01)
    assert all("lower_bound" in i and i["lower_bound"] >= 0 for i in seen)
    steps = [i["steps"] for i in seen]
    assert steps == sorted(steps)
