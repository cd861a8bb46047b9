#!/usr/bin/env python3
"""CLI tests of prompt stops: a time limit or Ctrl-C ends `solve` soon, in
every phase, with a valid tour written.

A generated 200,000-city instance: a 2-opt pass from a random tour checks
2e10 pairs (tens of seconds on CI's two cores) and simulated annealing's
40-nearest lists take about a second, so a run that honours the stop only
between passes or after its set-up would end late.  The bounds on the wall
time are loose (CI machines are slow and shared, the sanitizer build slower
still): they catch a stop that waits for a whole pass, not a slow machine.
Timings are measured by `bench timeline` and in the commits, not here.

Usage: test_stops.py PATH/TO/warptour   (ctest passes it)
"""
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
import unittest

WARPTOUR = None
N = 200000
WALL_BOUND_S = 4.0  # from the start of the process, reading included


def run(*args, **kw):
    return subprocess.run([WARPTOUR, *args], capture_output=True, text=True, timeout=300, **kw)


def interrupt_after(test, delay, *args):
    """Runs warptour with args, sends SIGINT after delay seconds and waits
    for the end (a test failure after 120 s); returns the process, its
    output, its errors and the seconds from the signal to the end."""
    p = subprocess.Popen([WARPTOUR, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True)
    time.sleep(delay)
    t0 = time.monotonic()
    p.send_signal(signal.SIGINT)
    try:
        out, err = p.communicate(timeout=120)
    except subprocess.TimeoutExpired:
        p.kill()
        p.communicate()
        test.fail("no exit within 120 s of SIGINT")
    return p, out, err, time.monotonic() - t0


class Stops(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.inst = os.path.join(cls.tmp.name, "u200k.tsp")
        r = run("gen", "uniform", str(N), "--seed", "1", "--output", cls.inst)
        assert r.returncode == 0, r.stderr

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def check_tour(self, tour):
        r = run("check", self.inst, tour)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)

    def solve_limited(self, name, *args):
        tour = os.path.join(self.tmp.name, name + ".tour")
        t0 = time.monotonic()
        r = run("solve", self.inst, "--backend", "cpu", "--time-limit", "0.5", "--output", tour,
                "--quiet", *args)
        wall = time.monotonic() - t0
        self.assertEqual(r.returncode, 5, r.stderr)  # stopped by the time limit
        self.assertLess(wall, WALL_BOUND_S, name)
        self.check_tour(tour)

    def test_2opt_from_random_tour(self):
        # Inside the first 2-opt pass (the CPU's pruned scan).
        self.solve_limited("2opt", "--algorithm", "2opt", "--init", "random")

    def test_sa_near_lists(self):
        # While simulated annealing's 40-nearest lists are built.
        self.solve_limited("sa", "--algorithm", "sa", "--near", "40", "--init", "random")

    def test_ctrl_c_inside_a_pass(self):
        tour = os.path.join(self.tmp.name, "int.tour")
        # reading done after 1 s, well inside the first pass
        p, out, err, after = interrupt_after(self, 1.0, "solve", self.inst, "--backend", "cpu",
                                             "--algorithm", "2opt", "--init", "random",
                                             "--output", tour, "--quiet")
        self.assertEqual(p.returncode, 130, err)
        self.assertLess(after, WALL_BOUND_S - 1.0)
        self.check_tour(tour)


class SecondSignal(unittest.TestCase):
    """Issue 39: a second stop signal, while the search winds down or the
    tour of a million cities is written, must not kill the program: the
    tour is written whole, the report printed, no `.part` file left."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.inst = os.path.join(cls.tmp.name, "u1m.tsp")
        r = run("gen", "uniform", "1000000", "--seed", "3", "--output", cls.inst)
        assert r.returncode == 0, r.stderr

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def start(self, tour):
        # start_new_session: a group of its own, as timeout(1) signals it.
        return subprocess.Popen([WARPTOUR, "solve", self.inst, "--backend", "cpu", "--algorithm",
                                 "2opt", "--output", tour, "--json"],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                start_new_session=True)

    def finish(self, p, tour):
        try:
            out, err = p.communicate(timeout=240)
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)
            p.communicate()
            self.fail("no exit within 240 s of the signals")
        self.assertEqual(p.returncode, 130, err)
        self.assertEqual(json.loads(out)["stop"], "interrupted")
        self.assertEqual(os.listdir(os.path.dirname(tour)).count(os.path.basename(tour) +
                                                                 ".part"), 0)
        r = run("check", self.inst, tour, "--json")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(json.loads(r.stdout)["length"], json.loads(out)["length"])

    def test_double_sigint(self):
        tour = os.path.join(self.tmp.name, "double.tour")
        p = self.start(tour)
        time.sleep(1.5)
        p.send_signal(signal.SIGINT)
        time.sleep(0.05)
        p.send_signal(signal.SIGINT)
        self.finish(p, tour)

    def test_sigint_to_process_and_group(self):
        # What `timeout -s INT` does: the signal to the program, then to its
        # process group (the program again).  Sent at once, the second is
        # merged into the first while that one is pending; on a loaded
        # machine timeout's two sends can be milliseconds apart, as here.
        tour = os.path.join(self.tmp.name, "group.tour")
        p = self.start(tour)
        time.sleep(1.5)
        p.send_signal(signal.SIGINT)
        time.sleep(0.01)
        os.killpg(p.pid, signal.SIGINT)
        self.finish(p, tour)


class GreedyStartOfAMillion(unittest.TestCase):
    """Issue 39: Ctrl-C while the greedy start tour of a million real-valued
    points is built (their candidate edges, their sort: keys too long for
    the radix sort, once one qsort of seconds without a poll) ends the run
    soon, with a valid tour written (the spacefill tour when it was cut)."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.inst = os.path.join(cls.tmp.name, "p1m.txt")
        rng = random.Random(39)
        with open(cls.inst, "w") as f:
            f.writelines("%.9f %.9f\n" % (rng.random(), rng.random()) for _ in range(1000000))

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_ctrl_c_in_the_greedy_start(self):
        tour = os.path.join(self.tmp.name, "g.tour")
        # after 2 s: the file read (about 1 s), inside the start tour (seconds)
        p, out, err, after = interrupt_after(self, 2.0, "solve", self.inst, "--backend", "cpu",
                                             "--threads", "2", "--init", "greedy",
                                             "--output", tour, "--json")
        self.assertEqual(p.returncode, 130, err)
        # Mostly inside the start tour; on an idle machine it may be built by
        # then, and the first descent must stop as soon.
        self.assertEqual(json.loads(out)["stop"], "interrupted")
        self.assertLess(after, WALL_BOUND_S - 1.0)  # the million-line tour written included
        r = run("check", self.inst, tour)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)


class ReadingCounts(unittest.TestCase):
    """--time-limit counts the reading: an instance that arrives 1.5 s late
    under a 1 s limit leaves the search a millisecond, too little for a
    single kick (a second from when reading ended would leave thousands),
    and a valid tour is still written."""

    def instance(self, n, seed):
        tmp = tempfile.TemporaryDirectory()
        self.addCleanup(tmp.cleanup)
        path = os.path.join(tmp.name, f"u{n}.tsp")
        r = run("gen", "uniform", str(n), "--seed", str(seed), "--output", path)
        self.assertEqual(r.returncode, 0, r.stderr)
        return tmp.name, path

    def run_late(self, argv, late):
        """Runs warptour argv while late() delivers an instance after 1.5 s;
        returns its --json report, checked as cut short by the limit."""
        p = subprocess.Popen([WARPTOUR, *argv, "--time-limit", "1", "--json", "--backend",
                              "cpu"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
        time.sleep(1.5)
        out, err = late(p)
        self.assertEqual(p.returncode, 5, err)
        res = json.loads(out)
        self.assertEqual(res["stop"], "time-limit")
        self.assertEqual(res["kicks"], 0)
        return res

    def test_time_limit_counts_the_reading(self):
        # solve, the instance (5,000 cities, no known optimum) on stdin
        folder, inst = self.instance(5000, 3)
        tour = os.path.join(folder, "late.tour")
        with open(inst) as f:
            text = f.read()
        self.run_late(["solve", "-", "--output", tour],
                      lambda p: p.communicate(text, timeout=120))
        r = run("check", inst, tour)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)

    def test_batch_time_limit_counts_the_reading(self):
        # solve-batch, one of its instances a pipe
        folder, src = self.instance(500, 4)
        fifo = os.path.join(folder, "late.tsp")
        os.mkfifo(fifo)

        def late(p):
            with open(src) as f, open(fifo, "w") as w:
                w.write(f.read())
            return p.communicate(timeout=120)

        self.run_late(["solve-batch", src, fifo], late)

if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit("usage: test_stops.py PATH/TO/warptour")
    WARPTOUR = os.path.abspath(sys.argv.pop(1))
    unittest.main()
