#!/usr/bin/env python3
"""CLI tests of point files: `warptour solve/info/check` on files of
real-valued points (x y, x y z, CSV), told from TSPLIB files by their first
line; only stdout, stderr and the exit status are checked.

Usage: test_points.py PATH/TO/warptour   (ctest passes it; WT_DATA points at data/)
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
DATA = os.environ.get("WT_DATA", os.path.join(os.path.dirname(__file__), "..", "..", "data"))
BERLIN = os.path.join(DATA, "berlin52.tsp")


def run(*args, **kw):
    return subprocess.run([WARPTOUR, *args], capture_output=True, text=True, timeout=300, **kw)


def read_tour(path):
    """The city numbers of a TSPLIB TOUR file, 1-based as written."""
    cities, in_section = [], False
    with open(path) as f:
        for line in f:
            t = line.strip()
            if t == "TOUR_SECTION":
                in_section = True
            elif in_section:
                if t in ("-1", "EOF"):
                    break
                cities.append(int(t))
    return cities


class Points(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        rng = random.Random(5)
        self.pts = [(rng.random(), rng.random()) for _ in range(200)]

    def tearDown(self):
        self.tmp.cleanup()

    def path(self, name):
        return os.path.join(self.tmp.name, name)

    def write(self, name, text):
        p = self.path(name)
        with open(p, "w") as f:
            f.write(text)
        return p

    def length(self, cities):
        pts = [self.pts[c - 1] for c in cities]
        return sum(math.dist(pts[i], pts[(i + 1) % len(pts)]) for i in range(len(pts)))

    def test_solve_points_file_real_length(self):
        body = "# two hundred points in the unit square\n\n" + "".join(
            f"{x!r} {y!r}\n" for x, y in self.pts)
        pts = self.write("unit.txt", body)
        tour = self.path("unit.tour")
        r = run("solve", pts, "--threads", "2", "--output", tour)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("EUC_2D_REAL", r.stdout)
        cities = read_tour(tour)
        self.assertEqual(sorted(cities), list(range(1, 201)))  # point line numbers
        line = [l for l in r.stdout.splitlines() if l.startswith("length")][0]
        reported = float(line.split()[1])
        self.assertAlmostEqual(reported, self.length(cities), places=6)
        self.assertTrue(5 < reported < 20, line)  # not TSPLIB's rounded length
        # check --bound: the bound in the points' unit, as the length.
        r = run("check", pts, tour, "--bound")
        self.assertEqual(r.returncode, 0, r.stderr)
        bound = float(r.stdout.split("lower bound ")[1].split()[0])
        self.assertTrue(0.9 * reported < bound <= reported, r.stdout)

    def test_json_and_csv_with_header(self):
        body = "x,y\n" + "".join(f"{x!r},{y!r}\n" for x, y in self.pts)
        pts = self.write("unit.csv", body)
        r = run("solve", pts, "--json", "--threads", "2", "--algorithm", "ils", "--kicks", "50")
        self.assertEqual(r.returncode, 0, r.stderr)
        j = json.loads(r.stdout)
        self.assertEqual(j["n"], 200)
        self.assertTrue(5 < j["length_real"] < 20)
        self.assertIsNone(j["optimum"])

    def test_info_and_check(self):
        pts = self.write("p3.txt", "0 0 0\n3 4 0\n3 4 12\n0 0 1\n")
        r = run("info", pts)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("EUC_3D_REAL", r.stdout)
        self.assertIn("cities    4", r.stdout)
        j = json.loads(run("info", pts, "--json").stdout)
        self.assertEqual(j["edge_weight_type"], "EUC_3D_REAL")
        tour = self.write("p3.tour",
                          "TYPE : TOUR\nDIMENSION : 4\nTOUR_SECTION\n1\n2\n3\n4\n-1\nEOF\n")
        r = run("check", pts, tour)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("valid", r.stdout)
        self.assertIn(f"{5 + 12 + math.sqrt(9 + 16 + 121) + 1:.6f}"[:8], r.stdout)
        # --bound where the ascent proves none (4 cities): said, and null.
        r = run("check", pts, tour, "--bound", "--json")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("no bound: the ascent needs 8 cities or more", r.stderr)
        j = json.loads(r.stdout)
        self.assertIsNone(j["lower_bound"])
        self.assertIsNone(j["gap_to_bound_percent"])

    def test_tsplib_still_tsplib(self):
        r = run("info", BERLIN)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("EDGE_WEIGHT_TYPE EUC_2D", r.stdout)
        self.assertNotIn("REAL", r.stdout)

    def test_errors_name_file_and_line(self):
        cases = [
            ("nan.txt", "0 0\n1 1\nnan 2\n", ":3:", "finite"),
            ("word.txt", "0 0\n1 1\n2 two\n", ":3:", "number"),
            ("mixed.txt", "0 0\n1 1 1\n2 2\n", ":2:", "coordinates"),
            ("few.txt", "0 0\n1 1\n", "few.txt", "at least 3"),
        ]
        for name, text, where, word in cases:
            p = self.write(name, text)
            r = run("solve", p)
            self.assertNotEqual(r.returncode, 0, name)
            self.assertIn(name + where if where.startswith(":") else where, r.stderr)
            self.assertIn(word, r.stderr)


if __name__ == "__main__":
    WARPTOUR = os.path.abspath(sys.argv.pop(1))
    unittest.main(verbosity=2)
