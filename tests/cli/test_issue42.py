#!/usr/bin/env python3
"""CLI tests of issue 42, item 7 (reading a result): one rule for exit 5,
the same for every algorithm (exit 5 exactly when the stop is
"time-limit"); the progress line (elapsed / limit, best length in the
instance's units, a moves count that never goes back); the SVG title, the
tour's comment and the report of a point file in the points' own units.

Behaviour only: the runs cut by their time limit have budgets far beyond
what any machine makes in it (1e9 kicks, 1e9 climbs), and no test asserts
that a time-limited run got any work done.

Usage: test_issue42.py PATH/TO/warptour   (ctest passes it)
"""
import json
import os
import pty
import random
import re
import subprocess
import sys
import tempfile
import unittest

WARPTOUR = None


def run(*args, **kw):
    return subprocess.run([WARPTOUR, *args], capture_output=True, text=True, timeout=300, **kw)


def progress_lines(*args):
    """The progress lines a solve run shows on a terminal (stderr a pty),
    and its exit status."""
    master, slave = pty.openpty()
    try:
        p = subprocess.run([WARPTOUR, "solve", *args], stdout=subprocess.PIPE, stderr=slave,
                           timeout=300)
        os.close(slave)
        slave = None
        err = b""
        while True:
            try:
                chunk = os.read(master, 65536)
            except OSError:
                break
            if not chunk:
                break
            err += chunk
    finally:
        if slave is not None:
            os.close(slave)
        os.close(master)
    return [l for l in err.decode().replace("\r", "\n").split("\n") if "best" in l], p.returncode


class Issue42(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.inst = os.path.join(cls.tmp.name, "u1000.tsp")
        r = run("gen", "uniform", "1000", "--seed", "5", "--output", cls.inst)
        assert r.returncode == 0, r.stderr
        rng = random.Random(3)
        cls.points = os.path.join(cls.tmp.name, "pts.txt")
        with open(cls.points, "w") as f:
            for _ in range(300):
                f.write(f"{rng.uniform(0, 1000):.6f} {rng.uniform(0, 1000):.6f}\n")

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def solve_json(self, *args):
        r = run("solve", self.inst, "--backend", "cpu", "--threads", "2", "--json", *args)
        self.assertIn(r.returncode, (0, 5), r.stderr)
        return r.returncode, json.loads(r.stdout)

    def test_exit_5_is_stop_time_limit_for_every_algorithm(self):
        # Whatever a short limit leaves each algorithm, the status follows the stop.
        for algo in ("2opt", "ils", "multistart", "sa"):
            rc, j = self.solve_json("--algorithm", algo, "--time-limit", "0.3")
            self.assertEqual(rc, 5 if j["stop"] == "time-limit" else 0, (algo, j["stop"]))
            self.assertIn(j["stop"], ("done", "time-limit"))

    def test_budgets_cut_by_the_limit_exit_5(self):
        for args in (("--algorithm", "ils", "--kicks", "1000000000"),
                     ("--algorithm", "multistart", "--restarts", "1000000000"),
                     ("--algorithm", "sa", "--alpha", "0.999999", "--t-end", "0.000001")):
            rc, j = self.solve_json("--time-limit", "0.5", *args)
            self.assertEqual((rc, j["stop"]), (5, "time-limit"), args)

    def test_budget_spent_exits_0(self):
        rc, j = self.solve_json("--kicks", "50")
        self.assertEqual((rc, j["stop"]), (0, "done"))
        rc, j = self.solve_json("--algorithm", "2opt")
        self.assertEqual((rc, j["stop"]), (0, "done"))

    def test_help_states_the_rule(self):
        out = run("solve", "--help").stdout
        self.assertIn("Exit status 5, for every algorithm", out)
        self.assertIn("time-limit", out)

    def test_progress_line(self):
        master, slave = pty.openpty()
        try:
            p = subprocess.run([WARPTOUR, "solve", self.inst, "--backend", "cpu", "--threads",
                                "2", "--kicks", "20000", "--time-limit", "60"],
                               stdout=subprocess.PIPE, stderr=slave, timeout=300)
            os.close(slave)
            slave = None
            err = b""
            while True:
                try:
                    chunk = os.read(master, 65536)
                except OSError:
                    break
                if not chunk:
                    break
                err += chunk
        finally:
            if slave is not None:
                os.close(slave)
            os.close(master)
        self.assertIn(p.returncode, (0, 5))
        lines = [l for l in err.decode().replace("\r", "\n").split("\n") if "best" in l]
        self.assertTrue(lines, err)
        moves = []
        for line in lines:
            self.assertRegex(line, r"\[ *\d+\.\d s / 60 s\] best \d+")
            m = re.search(r"moves (\d+)", line)
            self.assertTrue(m, line)
            moves.append(int(m.group(1)))
            b = re.search(r"at most (\d+\.\d+)% above optimal", line)
            if b:
                self.assertGreaterEqual(float(b.group(1)), 0.0)
        self.assertEqual(moves, sorted(moves), "the moves count went back")

    def test_progress_line_of_an_open_path(self):
        # An open path is searched as closed tours, in two phases: the line
        # says so, shows no bound on tours, and its time and counts go on.
        lines, rc = progress_lines(self.inst, "--open", "--backend", "cpu", "--threads", "2",
                                   "--kicks", "3000")
        self.assertEqual(rc, 0)
        self.assertTrue(lines)
        seconds, moves = [], []
        for line in lines:
            self.assertRegex(line, r"\[ *\d+\.\d s\] best closed tour \d+")
            self.assertNotIn("above optimal", line)
            seconds.append(float(re.search(r"\[ *(\d+\.\d) s", line).group(1)))
            moves.append(int(re.search(r"moves (\d+)", line).group(1)))
        self.assertEqual(seconds, sorted(seconds), "the time went back")
        self.assertEqual(moves, sorted(moves), "the moves count went back")
        closed, _ = progress_lines(self.inst, "--backend", "cpu", "--threads", "2", "--kicks", "50")
        self.assertTrue(closed)
        self.assertNotIn("closed tour", closed[0])

    def test_point_file_in_its_units(self):
        svg = os.path.join(self.tmp.name, "p.svg")
        tour = os.path.join(self.tmp.name, "p.tour")
        r = run("solve", self.points, "--kicks", "100", "--threads", "2", "--svg", svg,
                "--output", tour, "--json")
        self.assertEqual(r.returncode, 0, r.stderr)
        j = json.loads(r.stdout)
        real = j["length_real"]
        shown = "%.10g" % real
        with open(svg) as f:
            title = f.read()
        self.assertIn(f"300 cities, length {shown}", title)
        self.assertNotIn(str(j["length"]), title)
        with open(tour) as f:
            self.assertIn(f"length {shown} by warptour", f.read())
        report = run("solve", self.points, "--kicks", "100", "--threads", "2").stdout
        self.assertRegex(report, r"start     greedy: length \d+\.\d+ in")


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit("usage: test_issue42.py PATH/TO/warptour")
    WARPTOUR = os.path.abspath(sys.argv.pop(1))
    unittest.main()
