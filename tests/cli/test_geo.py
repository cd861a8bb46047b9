#!/usr/bin/env python3
"""CLI tests of places on the Earth (issue 42): point files of decimal
degrees solved under the haversine metric (--metric, a lat/lon header), the
note of the latitude column (silenced by --quiet), lengths in metres checked
against a haversine written here, solve-batch's --metric, and TSPLIB GEO
files of decimal degrees refused.

Usage: test_geo.py PATH/TO/warptour   (ctest passes it)
"""
import json
import math
import os
import random
import subprocess
import sys
import tempfile
import unittest

WARPTOUR = None
R = 6371008.8


def run(*args):
    return subprocess.run([WARPTOUR, *args], capture_output=True, text=True, timeout=300)


def metres(a, b):
    """The haversine formula on (lat, lon) degrees, rounded to the metre."""
    p1, p2 = math.radians(a[0]), math.radians(b[0])
    dp, dl = p2 - p1, math.radians(b[1] - a[1])
    h = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return int(math.floor(2 * R * math.asin(min(1.0, math.sqrt(h))) + 0.5))


def read_tour(path):
    cities, on = [], False
    with open(path) as f:
        for line in f:
            t = line.strip()
            if t == "TOUR_SECTION":
                on = True
            elif on:
                if t in ("-1", "EOF"):
                    break
                cities.append(int(t) - 1)
    return cities


def length_of(report):
    for line in report.splitlines():
        if line.startswith("length"):
            return int(line.split()[1])
    raise AssertionError("no length line in " + report)


class Geo(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        rng = random.Random(5)
        self.places = [(rng.uniform(-85, 85), rng.uniform(-180, 180)) for _ in range(120)]
        self.places += [(89.99, 10.0), (-89.99, -170.0), (0.0, 179.99), (0.0, -179.99)]

    def tearDown(self):
        self.dir.cleanup()

    def write(self, name, text):
        p = os.path.join(self.dir.name, name)
        with open(p, "w") as f:
            f.write(text)
        return p

    def solve_places(self, path, *extra):
        tour = os.path.join(self.dir.name, "t.tour")
        r = run("solve", path, "--kicks", "100", "--output", tour, *extra)
        self.assertEqual(r.returncode, 0, r.stderr)
        t = read_tour(tour)
        self.assertEqual(sorted(t), list(range(len(self.places))))
        want = sum(metres(self.places[t[i]], self.places[t[(i + 1) % len(t)]])
                   for i in range(len(t)))
        self.assertEqual(length_of(r.stdout), want)
        self.assertIn(" m", [l for l in r.stdout.splitlines() if l.startswith("length")][0])
        return r

    def test_header_lat_lon(self):
        p = self.write("ll.csv", "lat,lon\n" + "".join(f"{a!r},{b!r}\n" for a, b in self.places))
        r = self.solve_places(p)
        self.assertIn("latitude in column 1", r.stderr)
        self.assertIn("HAVERSINE", r.stdout)

    def test_header_lon_lat(self):
        p = self.write("ll.csv", "longitude,latitude\n" +
                       "".join(f"{b!r},{a!r}\n" for a, b in self.places))
        r = self.solve_places(p)
        self.assertIn("latitude in column 2", r.stderr)

    def test_metric_option(self):
        p = self.write("ll.txt", "".join(f"{a!r} {b!r}\n" for a, b in self.places))
        r = self.solve_places(p, "--metric", "haversine")
        self.assertIn("latitude in column 1", r.stderr)
        self.solve_places(p, "--metric", "geo-degrees")
        r = run("info", p)  # no header, no option: planar points
        self.assertIn("EUC_2D_REAL", r.stdout)
        r = run("info", p, "--metric", "haversine")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("HAVERSINE", r.stdout)
        self.assertIn("6371008.8", r.stdout)
        r = run("solve", p, "--metric", "spherical")
        self.assertEqual(r.returncode, 2)
        self.assertIn("--metric", r.stderr)

    def test_euclidean_forced(self):
        p = self.write("ll.csv", "lat,lon\n" + "".join(f"{a!r},{b!r}\n" for a, b in self.places))
        r = run("info", p, "--metric", "euclidean")
        self.assertIn("EUC_2D_REAL", r.stdout)
        self.assertNotIn("note", r.stderr)

    def test_ranges(self):
        p = self.write("bad.csv", "lat,lon\n10,20\n20,30\n95,20\n")
        r = run("solve", p)
        self.assertEqual(r.returncode, 3)
        self.assertIn("bad.csv:4:", r.stderr)
        self.assertIn("[-90, 90]", r.stderr)
        p = self.write("bad2.txt", "10 20\n20 360\n30 40\n")
        r = run("solve", p, "--metric", "haversine")
        self.assertEqual(r.returncode, 3)
        self.assertIn("bad2.txt:2:", r.stderr)
        self.assertIn("[-180, 360)", r.stderr)

    def test_check(self):
        p = self.write("ll.csv", "lat,lon\n" + "".join(f"{a!r},{b!r}\n" for a, b in self.places))
        tour = os.path.join(self.dir.name, "c.tour")
        r = run("solve", p, "--algorithm", "2opt", "--output", tour)
        self.assertEqual(r.returncode, 0, r.stderr)
        c = run("check", p, tour)
        self.assertEqual(c.returncode, 0, c.stderr)
        self.assertIn(f"length {length_of(r.stdout)} m", c.stdout)

    def test_quiet_silences_the_note(self):
        p = self.write("ll.csv", "lat,lon\n" + "".join(f"{a!r},{b!r}\n" for a, b in self.places))
        r = run("solve", p, "--kicks", "20", "--quiet")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual((r.stdout, r.stderr), ("", ""))
        r = run("solve", p, "--kicks", "20", "--json")  # --json keeps the note on stderr
        self.assertIn("latitude in column 1", r.stderr)

    def batch(self, *args):
        r = run("solve-batch", "--kicks", "50", "--json", "--json-tours", *args)
        self.assertEqual(r.returncode, 0, r.stderr)
        return json.loads(r.stdout)["instances"], r.stderr

    def test_batch_metric(self):
        plain = self.write("ll.txt", "".join(f"{a!r} {b!r}\n" for a, b in self.places))
        header = self.write("lonlat.csv", "lon,lat\n" +
                            "".join(f"{b!r},{a!r}\n" for a, b in self.places))
        got, err = self.batch(plain, header, "--metric", "haversine")
        self.assertIn("ll.txt: places on the Earth", err)
        self.assertIn("lonlat.csv: places on the Earth", err)
        self.assertIn("latitude in column 2", err)  # the header's order
        for inst in got:
            t = [c - 1 for c in inst["tour"]]
            self.assertEqual(sorted(t), list(range(len(self.places))))
            want = sum(metres(self.places[t[i]], self.places[t[(i + 1) % len(t)]])
                       for i in range(len(t)))
            self.assertEqual(inst["length"], want)
        got, err = self.batch(plain, header, "--metric", "geo-degrees", "--quiet")
        self.assertEqual(err, "")
        # auto: the header file on the Earth, the plain one planar
        got, err = self.batch(plain, header)
        self.assertNotIn("ll.txt", err)
        self.assertIn("lonlat.csv: places on the Earth", err)
        self.assertLess(got[0]["length_real"], 10 ** 5)  # degrees, not metres
        got, err = self.batch(header, "--metric", "euclidean")
        self.assertEqual(err, "")
        r = run("solve-batch", plain, "--metric", "spherical")
        self.assertEqual(r.returncode, 2)
        self.assertIn("--metric", r.stderr)
        self.assertIn("--metric M", run("solve-batch", "--help").stdout)

    def test_tsplib_refuses_metric(self):
        p = self.write("g.tsp", "NAME : g\nTYPE : TSP\nDIMENSION : 3\nEDGE_WEIGHT_TYPE : GEO\n"
                       "NODE_COORD_SECTION\n1 10.10 20.20\n2 11.11 21.21\n3 12.12 22.22\nEOF\n")
        r = run("solve", p, "--metric", "haversine")
        self.assertNotEqual(r.returncode, 0)
        self.assertIn("point files", r.stderr)

    def test_geo_decimal_degrees_refused(self):
        text = ("NAME : cities\nTYPE : TSP\nDIMENSION : 4\nEDGE_WEIGHT_TYPE : GEO\n"
                "NODE_COORD_SECTION\n1 48.8566 2.3522\n2 51.5074 -0.1278\n"
                "3 40.4168 -3.7038\n4 52.5200 13.4050\nEOF\n")
        p = self.write("dec.tsp", text)
        r = run("solve", p)
        self.assertEqual(r.returncode, 3)
        self.assertIn("dec.tsp:6:", r.stderr)
        self.assertIn("DDD.MM", r.stderr)
        self.assertIn("--metric haversine", r.stderr)


if __name__ == "__main__":
    WARPTOUR = os.path.abspath(sys.argv.pop(1))
    unittest.main(verbosity=2)
