"""Open paths and fixed ends from Python (issue 42): open=, start=, end= on
solve, solve_matrix and solve_file give valid paths whose length, recomputed
here, leaves out the closing edge, ends where asked, never longer than the
closed tour less its longest edge; start= alone rotates a closed tour; bad
ends and algorithms that cannot keep a path raise ValueError.  No time
limits: the default budget of kicks."""
import os

import numpy as np
import pytest

import warptour

DATA = os.environ.get("WT_DATA", os.path.join(os.path.dirname(__file__), "..", "..", "data"))


def points(n=60, seed=3):
    return np.random.default_rng(seed).integers(0, 1000, size=(n, 2)).astype(float)


def matrix(p):
    return np.rint(np.sqrt(((p[:, None, :] - p[None, :, :]) ** 2).sum(-1))).astype(np.int64)


def path_len(d, t):
    return int(sum(d[t[i], t[i + 1]] for i in range(len(t) - 1)))


def test_open_paths_on_a_matrix():
    d = matrix(points())
    n = len(d)
    closed = warptour.solve_matrix(d, threads=2)
    assert not closed.open
    t = closed.tour
    longest = max(d[t[i], t[(i + 1) % n]] for i in range(n))
    r = warptour.solve_matrix(d, threads=2, open=True)
    assert r.open and sorted(r.tour) == list(range(n))
    assert r.length == path_len(d, r.tour)
    assert r.length <= closed.length - longest
    assert r.optimum is None
    r = warptour.solve_matrix(d, threads=2, start=4, end=9)
    assert (r.tour[0], r.tour[-1]) == (4, 9)
    assert r.length == path_len(d, r.tour)
    r = warptour.solve_matrix(d, threads=2, end=11)
    assert r.open and r.tour[-1] == 11
    r = warptour.solve_matrix(d, threads=2, start=6)
    assert not r.open and r.tour[0] == 6 and r.length == closed.length


def test_open_path_of_points_and_files():
    p = points(80, 5)
    r = warptour.solve(p, threads=2, open=True, start=0)
    assert r.open and r.tour[0] == 0
    seg = np.diff(p[r.tour], axis=0)
    assert r.length == pytest.approx(np.sqrt((seg ** 2).sum(1)).sum(), rel=1e-9)
    f = warptour.solve_file(os.path.join(DATA, "berlin52.tsp"), threads=2, start=1, end=2)
    assert (f.tour[0], f.tour[-1]) == (1, 2) and f.open


def test_bad_ends_and_algorithms():
    p = points(20, 7)
    with pytest.raises(ValueError, match="start_city"):
        warptour.solve(p, start=20)
    with pytest.raises(ValueError):
        warptour.solve(p, start=3, end=3)
    with pytest.raises(ValueError):
        warptour.solve(p, start=-1)
    with pytest.raises(TypeError):
        warptour.solve(p, start="3")
    with pytest.raises(ValueError, match="only --algorithm ils"):
        warptour.solve(p, open=True, algorithm="2opt")
