#!/usr/bin/env python3
"""CLI tests of `warptour-bench timeline`: its sample lines, the peers' runs
(a fake linkern and a fake LKH written to a temporary folder: the real ones
are not in CI), a best-of-N peer, and the summary table.

Usage: test_bench_timeline.py PATH/TO/warptour-bench   (ctest passes it; WT_DATA points at data/)
"""
import os
import re
import stat
import subprocess
import sys
import tempfile
import time
import unittest

BENCH = None
DATA = os.environ.get("WT_DATA", os.path.join(os.path.dirname(__file__), "..", "..", "data"))
BERLIN = os.path.join(DATA, "berlin52.tsp")
BERLIN_OPT = 7542

# A stand-in for linkern: records its arguments, prints two improvements the
# way linkern does (the second 0.35 s later) and its final line.
FAKE_PEER = """#!/bin/sh
echo "$@" > "$(dirname "$0")/args"
echo "   0 Steps   Best: 7700   0.01 seconds"
sleep 0.35
echo "  12 Steps   Best: 7600   0.1 seconds"
echo "Best cycle length: 7600"
echo "Final Cycle: 7600"
"""

# A peer that ignores SIGTERM and never ends: the bench must kill it.
STUCK_PEER = """#!/bin/sh
trap '' TERM
echo "   0 Steps   Best: 7800   0.01 seconds"
while :; do sleep 0.05; done
"""

# A stand-in for LKH-3: keeps its parameter file and the folder it ran in,
# prints the improvement lines LKH prints under TRACE_LEVEL = 1 (the second
# 0.35 s later), its run's end and its summary.
FAKE_LKH = """#!/bin/sh
here="$(dirname "$0")"
cp "$1" "$here/par"
pwd > "$here/cwd"
test -r lkh.tsp && echo yes > "$here/readable"
echo "Lower bound = 7000.0, Ascent time = 0.00 sec."
echo "* 1: Cost = 7700, Time = 0.00 sec. "
sleep 0.35
echo "* 3: Cost = 7600, Time = 0.30 sec. "
echo "Run 1: Cost = 7600, Time = 0.30 sec. "
echo "Cost.min = 7600, Cost.avg = 7600.00, Cost.max = 7600"
"""

# LKH in its ascent past the time: no tour by then, stopped by the bench.
SLOW_LKH = """#!/bin/sh
echo "Reading PROBLEM_FILE: \\"lkh.tsp\\" ... done"
exec sleep 30
"""

# A linkern whose length depends on its seed (-s): seed 2 finds the better
# tour, 0.3 s in, so that the best of two runs is seed 2's.
SEEDED_PEER = """#!/bin/sh
echo "$2" >> "$(dirname "$0")/seeds"
echo "   0 Steps   Best: 7800   0.01 seconds"
sleep 0.3
if [ "$2" = 2 ]; then echo "   9 Steps   Best: 7600   0.3 seconds"; fi
"""

LINE = re.compile(r"^bench=timeline instance=(\S+) n=(\d+) backend=(\S+) t=(\S+) "
                  r"length=(\S+) gap_percent=(\S+) gap_ref=(\S+) bound=(\S+) "
                  r"gap_to_bound_percent=(\S+)$")


def run(*args):
    return subprocess.run([BENCH, *args], capture_output=True, text=True, timeout=120)


class Timeline(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()

    def tearDown(self):
        self.tmp.cleanup()

    def script(self, name, text):
        path = os.path.join(self.tmp.name, name)
        with open(path, "w") as f:
            f.write(text)
        os.chmod(path, os.stat(path).st_mode | stat.S_IXUSR)
        return path

    def samples(self, out):
        got = {}
        for line in out.splitlines():
            m = LINE.match(line)
            if m:
                got[(m.group(3), float(m.group(4)))] = m.groups()
        return got

    def table(self, out):
        """The table's rows as lists of cells, after its header row."""
        lines = out.splitlines()
        head = next(i for i, l in enumerate(lines) if l.startswith("instance "))
        cols = [c.strip() for c in lines[head].split("|")]
        rows = [[c.strip() for c in l.split("|")] for l in lines[head + 1:] if "|" in l]
        return cols, rows

    def test_samples_peer_and_table(self):
        peer = self.script("linkern", FAKE_PEER)
        r = run("timeline", BERLIN, "--at", "0.5,0.2", "--backends", "cpu",
                "--threads", "1", "--algorithm", "ils", "--tune", "lk_alpha=off",
                "--peer", "linkern=" + peer)
        self.assertEqual(r.returncode, 0, r.stderr + r.stdout)
        self.assertIn("# command: warptour-bench timeline", r.stdout)
        self.assertRegex(r.stdout, r"# machine: .*CPU cores")
        s = self.samples(r.stdout)
        self.assertEqual(sorted(s), [("cpu", 0.2), ("cpu", 0.5), ("linkern", 0.2),
                                     ("linkern", 0.5)], r.stdout)
        for key, (inst, n, backend, t, length, gap, ref, bound, gapb) in s.items():
            self.assertEqual((inst, n, ref), ("berlin52", "52", "optimum"))
            # Without the ascent (lk_alpha off) no lower bound: none, and no
            # table column (test_bound_columns has them).
            self.assertEqual((bound, gapb), ("none", "none"))
        # Ours: a tour by 0.5 s (ILS on 52 cities), its gap to the optimum.
        length = s[("cpu", 0.5)][4]
        self.assertNotEqual(length, "none", r.stdout)
        self.assertAlmostEqual(float(s[("cpu", 0.5)][5]),
                               100.0 * (int(length) - BERLIN_OPT) / BERLIN_OPT, places=2)
        # The peer: called as linkern is, timed by the bench's clock.
        with open(os.path.join(self.tmp.name, "args")) as f:
            args = f.read().split()
        self.assertEqual(args[:6], ["-s", "1", "-t", "0.5", "-R", "1000000000"])
        self.assertEqual(args[6], "-o")
        self.assertEqual(args[8], BERLIN)
        self.assertIn(s[("linkern", 0.2)][4], ("7700", "none"))  # slow starts happen
        self.assertIn(s[("linkern", 0.5)][4], ("7600", "7700"))
        self.assertRegex(r.stdout, r"# run: instance=berlin52 backend=cpu ran=cpu/ils "
                                   r"init=greedy stop=\S+ returned_s=[0-9.]+ "
                                   r"ended_s=[0-9.]+ exit=0")
        # The table: one row per time, ratio = ours / peer gap, the shorter named.
        cols, rows = self.table(r.stdout)
        self.assertEqual(cols, ["instance", "t", "ref", "cpu", "linkern", "ratio cpu/linkern",
                                "shorter"])
        self.assertEqual([row[:3] for row in rows], [["berlin52", "0.2", "optimum"],
                                                     ["berlin52", "0.5", "optimum"]])
        for row in rows:
            ours, theirs = row[3], row[4]
            if ours != "none" and theirs != "none":
                self.assertAlmostEqual(float(row[5]), float(ours) / float(theirs), delta=0.01)
                self.assertEqual(row[6], "cpu" if float(ours) < float(theirs) else "linkern")

    def test_bound_columns(self):
        # ILS's ascent proves a lower bound: each column's gap to it, and an
        # "lb" column beside each in the table.
        peer = self.script("linkern", FAKE_PEER)
        r = run("timeline", BERLIN, "--at", "0.5", "--backends", "cpu", "--threads", "1",
                "--peer", "linkern=" + peer)
        self.assertEqual(r.returncode, 0, r.stderr + r.stdout)
        s = self.samples(r.stdout)
        for key, (inst, n, backend, t, length, gap, ref, bound, gapb) in s.items():
            self.assertNotEqual(bound, "none", r.stdout)
            self.assertLessEqual(int(bound), BERLIN_OPT)
            if length != "none":
                self.assertAlmostEqual(float(gapb),
                                       100.0 * (int(length) - int(bound)) / int(bound), places=2)
        cols, _ = self.table(r.stdout)
        self.assertEqual(cols[3:7], ["cpu", "cpu lb", "linkern", "linkern lb"])

    def test_stuck_peer_is_stopped(self):
        # A peer past max(--at) + 2 s gets SIGTERM, then SIGKILL a second later.
        peer = self.script("linkern", STUCK_PEER)
        t0 = time.monotonic()
        r = run("timeline", "--instances", BERLIN, "--at", "0.1", "--backends", "cpu",
                "--threads", "1", "--peer", "linkern=" + peer)
        wall = time.monotonic() - t0
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertLess(wall, 30)
        self.assertRegex(r.stdout, r"# run: instance=berlin52 backend=linkern ended_s=2\.[0-9]+ "
                                   r"\(stopped by the bench\)")
        self.assertIn("backend=linkern t=0.1 length=7800", r.stdout)

    def test_instances_repeated(self):
        # Each --instances adds its paths to the earlier ones' (the store
        # is shared: a later list must not overwrite the earlier paths).
        r = run("timeline", "--instances", BERLIN, "--instances", os.path.join(DATA, "att48.tsp"),
                "--at", "0.05", "--backends", "cpu", "--threads", "1")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("instance=berlin52 ", r.stdout)
        self.assertIn("instance=att48 ", r.stdout)

    def test_lkh_from_a_parameter_file(self):
        lkh = self.script("lkh", FAKE_LKH)
        r = run("timeline", BERLIN, "--at", "0.2,0.6", "--backends", "cpu", "--threads", "1",
                "--seed", "7", "--tune", "lk_alpha=off", "--peer", "lkh=" + lkh)
        self.assertEqual(r.returncode, 0, r.stderr + r.stdout)
        self.assertIn("# peer: lkh = " + lkh, r.stdout)
        # Its parameter file holds the README's settings (no POPMUSIC at 52
        # cities), relative names, and it ran in the bench's temporary folder,
        # which is gone afterwards.
        with open(os.path.join(self.tmp.name, "par")) as f:
            par = dict(line.split(" = ", 1) for line in f.read().splitlines())
        self.assertEqual(par, {"PROBLEM_FILE": "lkh.tsp", "RUNS": "1", "SEED": "7",
                               "TIME_LIMIT": "0.6",
                               "MAX_TRIALS": "1000000000", "TRACE_LEVEL": "1",
                               "OUTPUT_TOUR_FILE": "lkh-0.tour"})
        self.assertTrue(os.path.exists(os.path.join(self.tmp.name, "readable")))
        with open(os.path.join(self.tmp.name, "cwd")) as f:
            cwd = f.read().strip()
        self.assertIn("warptour-timeline-", cwd)
        self.assertFalse(os.path.exists(cwd))
        s = self.samples(r.stdout)
        self.assertIn(s[("lkh", 0.2)][4], ("7700", "none"))  # slow starts happen
        self.assertIn(s[("lkh", 0.6)][4], ("7600", "7700"))
        cols, rows = self.table(r.stdout)
        self.assertEqual(cols, ["instance", "t", "ref", "cpu", "lkh", "ratio cpu/lkh",
                                "shorter"])

    def test_lkh_without_a_tour_by_the_time(self):
        lkh = self.script("lkh", SLOW_LKH)
        r = run("timeline", BERLIN, "--at", "0.1", "--backends", "cpu", "--threads", "1",
                "--peer", "lkh=" + lkh)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(self.samples(r.stdout)[("lkh", 0.1)][4:6], ("none", "none"))
        self.assertRegex(r.stdout, r"# run: instance=berlin52 backend=lkh ended_s=2\.[0-9]+ "
                                   r"\(stopped by the bench\)")
        cols, rows = self.table(r.stdout)
        self.assertEqual(rows[0][cols.index("lkh")], "none")
        self.assertEqual(rows[0][cols.index("shorter")], "cpu")

    def test_best_of_n_peer_and_several_peers(self):
        # --peer-runs 1,2: each peer alone, then two at once with seeds 1 and 2;
        # the pair's length at t is the best either had.
        peer = self.script("linkern", SEEDED_PEER)
        lkh = self.script("lkh", FAKE_LKH)
        # (no bound without the ascent: no "lb" columns)
        r = run("timeline", BERLIN, "--at", "0.1,0.8", "--backends", "cpu", "--threads", "1",
                "--tune", "lk_alpha=off",
                "--peer", "linkern=" + peer, "--peer", "lkh=" + lkh, "--peer-runs", "1,2")
        self.assertEqual(r.returncode, 0, r.stderr + r.stdout)
        with open(os.path.join(self.tmp.name, "seeds")) as f:
            self.assertEqual(sorted(f.read().split()), ["1", "1", "2"])
        s = self.samples(r.stdout)
        self.assertEqual(sorted({k[0] for k in s}), ["cpu", "linkern", "linkern-x2", "lkh",
                                                     "lkh-x2"])
        self.assertEqual(s[("linkern", 0.8)][4], "7800")
        self.assertEqual(s[("linkern-x2", 0.8)][4], "7600")
        self.assertRegex(r.stdout, r"# run: instance=berlin52 backend=linkern-x2 seeds=1\.\.2 "
                                   r"ended_s=[0-9.]+ exit=0")
        cols, rows = self.table(r.stdout)
        self.assertEqual(cols, ["instance", "t", "ref", "cpu", "linkern", "2 linkerns", "lkh",
                                "2 lkhs", "ratio cpu/linkern", "ratio cpu/2 linkerns",
                                "ratio cpu/lkh", "ratio cpu/2 lkhs", "shorter"])

    def test_missing_peer_is_named(self):
        missing = os.path.join(self.tmp.name, "no-such-lkh")
        t0 = time.monotonic()
        r = run("timeline", BERLIN, "--at", "5", "--peer", "lkh=" + missing)
        self.assertEqual(r.returncode, 2)
        self.assertLess(time.monotonic() - t0, 4)  # before any run
        self.assertIn("cannot run " + missing, r.stderr)
        self.assertNotIn("bench=timeline", r.stdout)

    def test_generated_uniform_uses_bhh(self):
        r = run("timeline", "--gen-uniform", "200", "--at", "0.3", "--backends", "cpu",
                "--threads", "1", "--algorithm", "2opt")
        self.assertEqual(r.returncode, 0, r.stderr)
        s = self.samples(r.stdout)
        inst, n, backend, t, length, gap, ref, bound, gapb = s[("cpu", 0.3)]
        self.assertEqual((inst, n, ref), ("uniform-200-s1", "200", "bhh"))
        self.assertNotEqual(length, "none")

    def test_init_and_tune_reach_the_runs(self):
        # --init and --tune (repeatable) go to every run of ours: its # run: line
        # names the start tour it made, and a value the library refuses fails the
        # run with the library's message naming the field.
        args = ["timeline", BERLIN, "--at", "0.2", "--backends", "cpu", "--threads", "1"]
        r = run(*args, "--init", "boruvka", "--tune", "ils_round_kicks=50", "--tune",
                "ils_replica_every=off")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("init boruvka, tune ils_round_kicks=50, tune ils_replica_every=off, "
                      "at 0.2 s", r.stdout)
        self.assertRegex(r.stdout, r"# run: instance=berlin52 backend=cpu ran=cpu/ils "
                                   r"init=boruvka stop=")
        self.assertNotEqual(self.samples(r.stdout)[("cpu", 0.2)][4], "none")
        r = run(*args, "--init", "random", "--algorithm", "2opt", "--tune", "pass_rows=7")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("# note: cpu on berlin52 failed (exit 2)", r.stdout)
        self.assertIn("params.tuning.pass_rows is 7", r.stderr)
        for bad, says in ((["--tune", "rows=8"], "NAME a field of wt_tuning"),
                          (["--init", "best"], "unknown --init 'best'")):
            r = run(*args, *bad)
            self.assertEqual(r.returncode, 2, bad)
            self.assertIn(says, r.stderr)
        self.assertIn("[--seed S] [--init M] [--tune NAME=VALUE]...", run("--help").stdout)

    def test_bad_command_lines(self):
        for args in (["--at", "0.2"],                                   # no instance
                     [BERLIN, "--peer", "concorde=/bin/true"],         # unknown peer
                     [BERLIN, "--peer", "lkh="],
                     [BERLIN, "--peer-runs", "0"],
                     [BERLIN, "--peer-runs", "1,2,3,4,5"],
                     [BERLIN, "--at", "soon"],
                     [BERLIN, "--backends", "gpu"],
                     [BERLIN, "--gen-uniform", "2"]):
            r = run("timeline", *args)
            self.assertEqual(r.returncode, 2, args)
            self.assertIn("warptour-bench:", r.stderr)
        r = run("--help")
        self.assertIn("timeline [PATH...]", r.stdout)


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit("usage: test_bench_timeline.py PATH/TO/warptour-bench")
    BENCH = os.path.abspath(sys.argv.pop(1))
    unittest.main()
