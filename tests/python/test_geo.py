"""Python tests of places on the Earth (issue 42): solve(points,
metric="haversine"), solve_file(path, metric=...) and solve_batch(points,
metric="haversine"), lengths in metres against a haversine written here."""
import math
import os

import numpy as np
import pytest

import warptour

R = 6371008.8


def metres(a, b):
    p1, p2 = math.radians(a[0]), math.radians(b[0])
    dp, dl = p2 - p1, math.radians(b[1] - a[1])
    h = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return int(math.floor(2 * R * math.asin(min(1.0, math.sqrt(h))) + 0.5))


def places(n=150, seed=2):
    rng = np.random.default_rng(seed)
    lat = np.degrees(np.arcsin(rng.uniform(-1, 1, n)))
    lon = rng.uniform(-180, 180, n)
    lon[: n // 4] = rng.uniform(179.5, 180.5, n // 4)  # across the date line, as > 180
    lat[n // 4: n // 3] = rng.choice([-1, 1], n // 3 - n // 4) * rng.uniform(89.5, 90, n // 3 - n // 4)
    return np.column_stack([lat, lon])


def tour_metres(p, tour):
    return sum(metres(p[tour[i]], p[tour[(i + 1) % len(tour)]]) for i in range(len(tour)))


@pytest.mark.parametrize("metric", ["haversine", "geo-degrees"])
def test_solve_haversine(metric):
    p = places()
    r = warptour.solve(p, metric=metric, backend="cpu", threads=2, time_limit=None,
                       algorithm="2opt")
    assert sorted(r.tour.tolist()) == list(range(len(p)))
    assert isinstance(r.length, int)
    assert r.length == tour_metres(p, r.tour)
    assert r.length_unit == 1.0


def test_solve_haversine_refusals():
    with pytest.raises(ValueError, match="latitude"):
        warptour.solve([[0, 0], [10, 10], [91, 0]], metric="haversine")
    with pytest.raises(ValueError):
        warptour.solve([[0, 0, 0], [10, 10, 0], [20, 0, 0]], metric="haversine")
    with pytest.raises(ValueError, match="metric"):
        warptour.solve([[0, 0], [10, 10], [20, 0]], metric="sphere")


def test_solve_file_metric(tmp_path):
    p = places(60, 4)
    lonlat = tmp_path / "places.csv"
    lonlat.write_text("lon,lat\n" + "".join(f"{b:.17g},{a:.17g}\n" for a, b in p))
    r = warptour.solve_file(lonlat, backend="cpu", threads=2, algorithm="2opt")
    assert r.length == tour_metres(p, r.tour)
    plain = tmp_path / "places.txt"
    plain.write_text("".join(f"{a:.17g} {b:.17g}\n" for a, b in p))
    r = warptour.solve_file(plain, metric="haversine", backend="cpu", threads=2, algorithm="2opt")
    assert r.length == tour_metres(p, r.tour)
    r = warptour.solve_file(plain, backend="cpu", threads=2, algorithm="2opt")  # planar
    assert isinstance(r.length, float)
    r = warptour.solve_file(lonlat, metric="euclidean", backend="cpu", threads=2, algorithm="2opt")
    assert isinstance(r.length, float)
    berlin = os.path.join(os.environ.get("WT_DATA", "data"), "berlin52.tsp")
    if os.path.exists(berlin):
        with pytest.raises(ValueError, match="point files"):
            warptour.solve_file(berlin, metric="haversine")


def test_solve_batch_haversine():
    batch = np.stack([places(60, 5), places(60, 6)])
    r = warptour.solve_batch(batch, metric="haversine", kicks=200, backend="cpu", threads=2)
    assert r.ok.all()
    for b in range(2):
        assert sorted(r.tours[b].tolist()) == list(range(60))
        assert r.lengths_units[b] == tour_metres(batch[b], r.tours[b])
        assert r.lengths[b] == r.lengths_units[b]
    bad = batch.copy()
    bad[1, 3, 0] = 91.0  # a latitude out of range: that instance only
    r = warptour.solve_batch(bad, metric="geo-degrees", kicks=50, backend="cpu", threads=2)
    assert r.ok.tolist() == [True, False]
    assert "latitude" in r.errors[1]
    with pytest.raises(ValueError, match="metric"):
        warptour.solve_batch(batch, metric="manhattan")
