"""solve_matrix with an asymmetric matrix (issue 42, item 3): solved through
the symmetric transformation, the tour of the n cities in its direction
with its exact asymmetric length (recomputed here), asymmetric=True on a
symmetric matrix, asymmetric=False refusing, real entries in fixed point,
and the refusal of the algorithms that cannot keep fixed edges.  Kick
budgets only."""
import numpy as np
import pytest

import warptour


def directed(d, tour):
    return sum(d[tour[k], tour[(k + 1) % len(tour)]] for k in range(len(tour)))


def random_costs(n, seed, real=False):
    rng = np.random.default_rng(seed)
    d = rng.uniform(1, 100, (n, n)) if real else rng.integers(1, 100, (n, n))
    np.fill_diagonal(d, 9999)
    return d


def test_asymmetric_integer_matrix():
    d = random_costs(30, 1)
    r = warptour.solve_matrix(d, kicks=300, threads=1)
    assert r.asymmetric
    assert r.n == 30
    assert sorted(r.tour.tolist()) == list(range(30))
    assert isinstance(r.length, int)
    assert r.length == directed(d, r.tour)
    assert r.length != directed(d, r.tour[::-1])  # the direction is the tour's


def test_forced_and_refused():
    d = random_costs(12, 2)
    sym = np.minimum(d, d.T)
    r = warptour.solve_matrix(sym, asymmetric=True, kicks=100, threads=1)
    assert r.asymmetric and r.length == directed(sym, r.tour)
    assert not warptour.solve_matrix(sym, kicks=100, threads=1).asymmetric
    with pytest.raises(ValueError, match="not symmetric"):
        warptour.solve_matrix(d, asymmetric=False)


def test_asymmetric_real_matrix():
    d = random_costs(20, 3, real=True)
    r = warptour.solve_matrix(d, kicks=200, threads=1)
    assert r.asymmetric and r.length_unit < 1
    assert abs(r.length - directed(d, r.tour)) <= 20 * r.length_unit


def test_other_algorithms_refuse():
    d = random_costs(10, 4)
    for kw in ({"algorithm": "2opt"}, {"algorithm": "sa"}, {"open": True}):
        with pytest.raises(Exception, match="asymmetric"):
            warptour.solve_matrix(d, **kw)
