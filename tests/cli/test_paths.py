#!/usr/bin/env python3
"""CLI tests of open paths, fixed ends and FIXED_EDGES_SECTION (issue 42):
--open, --start, --end give valid paths (lengths recomputed here with the
TSPLIB EUC_2D rounding), ends where asked, never longer than the closed tour
less its longest edge; the tour file lists the path from its start to its
end; fixed edges are kept by ils (lk, local) and refused by the others with
a message and exit 3; a bad section is refused with file:line, exit 3.
Kick budgets only, no time limits.

Usage: test_paths.py PATH/TO/warptour   (ctest passes it; WT_DATA points at data/)
"""
import json
import math
import os
import subprocess
import sys
import tempfile
import unittest

WARPTOUR = None
DATA = os.environ.get("WT_DATA", os.path.join(os.path.dirname(__file__), "..", "..", "data"))
BERLIN = os.path.join(DATA, "berlin52.tsp")
FIXED = [(1, 2), (2, 3), (10, 40), (52, 1), (7, 30)]


def read(path):
    with open(path) as f:
        return f.read()


def run(*args):
    r = subprocess.run([WARPTOUR, *args], capture_output=True, timeout=300, stdin=subprocess.DEVNULL)
    r.out = r.stdout.decode("utf-8", "replace")
    r.err = r.stderr.decode("utf-8", "replace")
    return r


def coords(path):
    pts, on = {}, False
    with open(path) as f:
        for line in f:
            w = line.split()
            if not w:
                continue
            if w[0] == "NODE_COORD_SECTION":
                on = True
            elif w[0] == "EOF":
                break
            elif on:
                pts[int(w[0])] = (float(w[1]), float(w[2]))
    return pts


PTS = None


def dist(a, b):
    (xa, ya), (xb, yb) = PTS[a], PTS[b]
    return int(math.sqrt((xa - xb) ** 2 + (ya - yb) ** 2) + 0.5)


def path_length(tour):
    return sum(dist(tour[i], tour[i + 1]) for i in range(len(tour) - 1))


def tour_length(tour):
    return path_length(tour) + dist(tour[-1], tour[0])


def neighbours(tour, a, b, open_):
    n = len(tour)
    pairs = [(tour[i], tour[i + 1]) for i in range(n - 1)]
    if not open_:
        pairs.append((tour[-1], tour[0]))
    return (a, b) in pairs or (b, a) in pairs


class Paths(unittest.TestCase):
    def solve(self, path, *args):
        r = run("solve", path, "--kicks", "150", "--threads", "2", "--json", "--json-tour", *args)
        self.assertEqual(r.returncode, 0, r.err)
        j = json.loads(r.out)
        self.assertEqual(sorted(j["tour"]), list(range(1, 53)))
        return j

    def test_open_paths(self):
        closed = self.solve(BERLIN)
        self.assertFalse(closed["open"])
        t = closed["tour"]
        longest = max(dist(t[i], t[(i + 1) % 52]) for i in range(52))
        j = self.solve(BERLIN, "--open")
        self.assertTrue(j["open"])
        self.assertEqual(j["length"], path_length(j["tour"]))
        self.assertLessEqual(j["length"], closed["length"] - longest)
        self.assertEqual((j["path_start"], j["path_end"]), (j["tour"][0], j["tour"][-1]))
        self.assertIsNone(j["optimum"])  # a tour's optimum says nothing of a path
        j = self.solve(BERLIN, "--start", "5", "--end", "17")
        self.assertEqual((j["tour"][0], j["tour"][-1]), (5, 17))
        self.assertEqual(j["length"], path_length(j["tour"]))
        j = self.solve(BERLIN, "--open", "--start", "5")
        self.assertEqual(j["tour"][0], 5)
        self.assertEqual(j["length"], path_length(j["tour"]))
        j = self.solve(BERLIN, "--end", "9")
        self.assertTrue(j["open"])
        self.assertEqual(j["tour"][-1], 9)
        # --start alone: the closed tour, rotated
        j = self.solve(BERLIN, "--start", "5")
        self.assertFalse(j["open"])
        self.assertEqual(j["tour"][0], 5)
        self.assertEqual(j["length"], closed["length"])
        self.assertEqual(j["length"], tour_length(j["tour"]))

    def test_tour_file_of_a_path(self):
        with tempfile.TemporaryDirectory() as d:
            out = os.path.join(d, "p.tour")
            r = run("solve", BERLIN, "--kicks", "50", "--start", "3", "--end", "4",
                    "--output", out)
            self.assertEqual(r.returncode, 0, r.err)
            self.assertIn("open path from city 3 to city 4", r.out)
            text = read(out)
            self.assertIn("open path", text)
            cities = [int(w) for w in text.split("TOUR_SECTION")[1].split() if w.lstrip("-").isdigit()]
            cities = cities[:cities.index(-1)]
            self.assertEqual((cities[0], cities[-1]), (3, 4))
            self.assertIn(f"length    {path_length(cities)}", r.out)

    def test_svg_of_a_path(self):
        # the picture of an open path: n - 1 edges, no closing 'Z', its ends marked
        with tempfile.TemporaryDirectory() as d:
            svg = os.path.join(d, "p.svg")
            r = run("solve", BERLIN, "--kicks", "50", "--start", "3", "--end", "4", "--svg", svg)
            self.assertEqual(r.returncode, 0, r.err)
            text = read(svg)
            drawn = "".join(part.split('"')[0] for part in text.split(' d="')[1:])
            self.assertEqual(drawn.count("L"), 51)
            self.assertNotIn("Z", drawn)
            self.assertIn("<title>start: city 3</title>", text)
            self.assertIn("<title>end: city 4</title>", text)
            self.assertIn("open path", text)
            r = run("solve", BERLIN, "--kicks", "50", "--svg", svg)  # a tour: closed
            self.assertEqual(r.returncode, 0, r.err)
            text = read(svg)
            drawn = "".join(part.split('"')[0] for part in text.split(' d="')[1:])
            self.assertEqual((drawn.count("L"), drawn.count("Z")), (51, 1))
            self.assertNotIn("path-start", text)

    def test_bad_ends(self):
        r = run("solve", BERLIN, "--start", "53")
        self.assertEqual(r.returncode, 2, r.err)
        self.assertIn("--start 53", r.err)
        r = run("solve", BERLIN, "--start", "4", "--end", "4")
        self.assertEqual(r.returncode, 2, r.err)
        r = run("solve", BERLIN, "--open", "--algorithm", "2opt")
        self.assertEqual(r.returncode, 3, r.err)
        self.assertIn("only --algorithm ils", r.err)

    def fixed_file(self, d, section):
        text = read(BERLIN).replace("EOF", "").rstrip() + "\n" + section + "EOF\n"
        path = os.path.join(d, "fixed.tsp")
        with open(path, "w") as f:
            f.write(text)
        return path

    def test_fixed_edges_kept_or_refused(self):
        section = "FIXED_EDGES_SECTION\n" + "".join(f"{a} {b}\n" for a, b in FIXED) + "-1\n"
        with tempfile.TemporaryDirectory() as d:
            path = self.fixed_file(d, section)
            for args in ([], ["--ils-descent", "lk"], ["--ils-descent", "local"],
                         ["--backend", "cpu"], ["--open"], ["--start", "3", "--end", "8"]):
                j = self.solve(path, *args)
                self.assertEqual(j["fixed_edges"], len(FIXED))
                for a, b in FIXED:
                    self.assertTrue(neighbours(j["tour"], a, b, j["open"]), (args, a, b))
                want = path_length(j["tour"]) if j["open"] else tour_length(j["tour"])
                self.assertEqual(j["length"], want)
            for args in (["--algorithm", "2opt"], ["--algorithm", "multistart", "--restarts", "2"],
                         ["--algorithm", "sa"], ["--ils-descent", "full"],
                         ["--ils-descent", "windows"], ["--backend", "cuda"]):
                r = run("solve", path, *args)
                self.assertEqual(r.returncode, 3, (args, r.err))
                self.assertIn("fixed edges", r.err)
            # an end in two fixed edges
            r = run("solve", path, "--start", "2", "--end", "9")
            self.assertEqual(r.returncode, 2, r.err)
            self.assertIn("third fixed edge", r.err)

    def test_fixed_edges_on_segments(self):
        # 3,000 cities, two searches (a kick budget alone runs one): the
        # first descent and the kicks run on segments of the tour (from 500
        # cities a thread), whose engines keep the fixed edges in their own
        # numbering, an open path's search too.
        with tempfile.TemporaryDirectory() as d:
            src = os.path.join(d, "u3k.tsp")
            r = run("gen", "uniform", "3000", "--seed", "5", "--output", src)
            self.assertEqual(r.returncode, 0, r.err)
            fixed = [(a, a + 1500) for a in range(1, 1501, 7)]  # far apart in a good tour
            text = read(src).replace("EOF", "").rstrip() + "\nFIXED_EDGES_SECTION\n"
            text += "".join(f"{a} {b}\n" for a, b in fixed) + "-1\nEOF\n"
            path = os.path.join(d, "fixed3k.tsp")
            with open(path, "w") as f:
                f.write(text)
            pts = coords(src)

            def length(t, open_):
                n = len(t)
                return sum(int(math.dist(pts[t[i]], pts[t[(i + 1) % n]]) + 0.5)
                           for i in range(n - 1 if open_ else n))

            for args in ([], ["--start", "10", "--end", "20"]):
                r = run("solve", path, "--kicks", "600", "--threads", "2", "--backend", "cpu",
                        "--tune", "ils_searches=2", "--json", "--json-tour", *args)
                self.assertEqual(r.returncode, 0, r.err)
                j = json.loads(r.out)
                self.assertEqual(sorted(j["tour"]), list(range(1, 3001)))
                for a, b in fixed:
                    self.assertTrue(neighbours(j["tour"], a, b, j["open"]), (args, a, b))
                self.assertEqual(j["length"], length(j["tour"], j["open"]))
                if args:
                    self.assertEqual((j["tour"][0], j["tour"][-1]), (10, 20))

    def test_check_wants_the_fixed_edges(self):
        section = "FIXED_EDGES_SECTION\n" + "".join(f"{a} {b}\n" for a, b in FIXED) + "-1\n"
        with tempfile.TemporaryDirectory() as d:
            path = self.fixed_file(d, section)
            lacking = os.path.join(d, "lacking.tour")  # 1..52 lacks 10-40 and 7-30
            with open(lacking, "w") as f:
                f.write("TYPE : TOUR\nDIMENSION : 52\nTOUR_SECTION\n" +
                        "".join(f"{c}\n" for c in range(1, 53)) + "-1\nEOF\n")
            r = run("check", path, lacking)
            self.assertEqual(r.returncode, 4, r.err)
            self.assertIn("lacks the fixed edge 10-40", r.err)
            kept = os.path.join(d, "kept.tour")
            r = run("solve", path, "--kicks", "50", "--output", kept, "--quiet")
            self.assertEqual(r.returncode, 0, r.err)
            r = run("check", path, kept, "--json")
            self.assertEqual(r.returncode, 0, r.err)
            self.assertTrue(json.loads(r.out)["valid"])

    def test_fixed_edges_parse_errors(self):
        lines = len(read(BERLIN).replace("EOF", "").rstrip().split("\n"))
        with tempfile.TemporaryDirectory() as d:
            for section, offset, words in (
                    ("FIXED_EDGES_SECTION\n1 2\n2 99\n-1\n", 3, "city 99 is not one"),
                    ("FIXED_EDGES_SECTION\n1 2\n1 3\n1 4\n-1\n", 4, "third fixed edge"),
                    ("FIXED_EDGES_SECTION\n1 2 3\n-1\n", 2, "expected a fixed edge"),
                    ("FIXED_EDGES_SECTION\n1 2\n", 3, "does not end with -1")):
                path = self.fixed_file(d, section)
                r = run("info", path)
                self.assertEqual(r.returncode, 3, r.err)
                self.assertIn(f"{path}:{lines + offset}: ", r.err)
                self.assertIn(words, r.err)


if __name__ == "__main__":
    WARPTOUR = sys.argv.pop(1)
    PTS = coords(BERLIN)
    unittest.main(verbosity=2)
