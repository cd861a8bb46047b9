#!/usr/bin/env python3
"""CLI tests of warptour-bench (but timeline: test_bench_timeline.py): its
help, usage errors and small runs of the benchmarks on bundled instances,
checking only stdout, stderr and the exit status.

Usage: test_bench.py PATH/TO/warptour-bench   (ctest passes it; WT_DATA points at data/)
"""
import os
import subprocess
import sys
import unittest

BENCH = None
DATA = os.environ.get("WT_DATA", os.path.join(os.path.dirname(__file__), "..", "..", "data"))
BERLIN = os.path.join(DATA, "berlin52.tsp")


def run(*args):
    return subprocess.run([BENCH, *args], capture_output=True, text=True, timeout=300)


class Bench(unittest.TestCase):
    def test_help(self):
        r = run("--help")
        self.assertEqual(r.returncode, 0)
        self.assertIn("Usage: warptour-bench NAME", r.stdout)
        self.assertIn("timeline [PATH...]", r.stdout)
        self.assertNotIn("--svg", r.stdout)

    def test_usage_errors(self):
        # The shared options are checked as solve checks them; an option of
        # another benchmark is refused.
        for args, says in [([], "expected one benchmark name"), (["frobnicate"], "expected"),
                           (["pass", "--band", "8"], "--band does not apply to pass"),
                           (["sa", "--prune", "on"], "--prune does not apply to sa"),
                           (["pass", "--seed", "x"], "--seed needs a non-negative integer"),
                           (["ls", "--time-limit", "-1"], "--time-limit needs a positive"),
                           (["ils", "--ils-descent", "deep"], "--ils-descent is"),
                           (["ils", "--svg", "x.svg"], "bad option '--svg'"),
                           (["kswap", "--nested", "maybe"], "--nested is 'on' or 'off'"),
                           # list options: a bad item, too many items, too long a list
                           (["ls", "--swaps", "1,x"], "--swaps needs a comma-separated list"),
                           (["pass", "--instances", ",".join(["a"] * 65)],
                            "--instances needs a comma-separated list of at most 64 names"),
                           (["ascent", BERLIN, "--gpu-steps", ",".join(["plain"] * 50)],
                            "ascent --gpu-steps is too long")]:
            r = run(*args)
            self.assertEqual(r.returncode, 2, args)
            self.assertIn("warptour-bench: ", r.stderr, args)
            self.assertIn(says, r.stderr, args)
            self.assertNotIn("Traceback", r.stderr)

    def test_bench_sa_smoke(self):
        # The CPU variants on a bundled instance, cut to 0.3 s a run: the
        # header, one bench= line per run and the table with the paper's figures.
        r = run("sa", "--instances", BERLIN, "--runs", "2", "--seconds", "0.3",
                "--variants", "cpu-sspm,cpu-pssm", "--threads", "2")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("# command: warptour-bench sa", r.stdout)
        lines = [l for l in r.stdout.splitlines() if l.startswith("bench=sa ")]
        self.assertEqual(len(lines), 4, r.stdout)
        for l in lines:
            self.assertIn("instance=berlin52", l)
            self.assertRegex(l, r"sses=[0-9.e+]+ length=[0-9]+ sec_percent=[0-9.]+")
        self.assertRegex(r.stdout, r"average\s+cpu-pssm.*\|\s+12\.8\s+50\.90")
        r = run("sa", "--variants", "gpu")
        self.assertEqual(r.returncode, 2)
        r = run("sa", "--runs", "0")
        self.assertEqual(r.returncode, 2)
        self.assertEqual(run("sa", "--parallel-runs", "0").returncode, 2)
        self.assertEqual(run("ls", "--parallel-runs", "2").returncode, 2)

    def test_bench_sa_parallel_runs(self):
        # Complete anneals (no time limit) are the same whether the runs go one
        # at a time or together: run r has seed 1 + r, lines in run order, and
        # SEC is given before (raw) and after the polish.
        def results(parallel):
            r = run("sa", "--instances", BERLIN, "--runs", "3", "--variants", "cpu-pssm",
                    "--threads", "1", "--parallel-runs", parallel)
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertIn("wall", r.stdout)
            self.assertRegex(r.stdout, r"instance\s+variant\s+TBxTPB\s+SSES M/s\s+raw %\s+SEC %")
            out = []
            for l in r.stdout.splitlines():
                if not l.startswith("bench=sa "):
                    continue
                f = dict(kv.split("=", 1) for kv in l.split())
                self.assertEqual(f["parallel"], parallel)
                self.assertLessEqual(int(f["length"]), int(f["unpolished_length"]))
                out.append((f["seed"], f["length"], f["unpolished_length"], f["moves_evaluated"]))
            return out
        one, three = results("1"), results("3")
        self.assertEqual([x[0] for x in one], ["1", "2", "3"])
        self.assertEqual(one, three)

    def test_bench_time_limit(self):
        # A run cut by --time-limit says so: stop=time-limit and a '>' time.
        r = run("ls", "--instances", "uniform3000", "--variants", "cpu", "--init", "random",
                "--swaps", "1", "--time-limit", "0.05", "--threads", "1")
        self.assertEqual(r.returncode, 0, r.stderr)
        lines = [l for l in r.stdout.splitlines() if l.startswith("bench=ls ")]
        self.assertEqual(len(lines), 1, r.stdout)
        self.assertIn("stop=time-limit", lines[0])
        self.assertRegex(r.stdout, r"\| +>[0-9.]+ ms \|")
        r = run("pass", "--instances", BERLIN, "--time-limit", "1")
        self.assertEqual(r.returncode, 2, r.stdout)

    def test_bench_pass_smoke(self):
        # One CPU pass of a bundled instance: scan time and the time with copies.
        r = run("pass", "--instances", BERLIN, "--variants", "cpu", "--repeat", "1",
                "--threads", "2")
        self.assertEqual(r.returncode, 0, r.stderr)
        lines = [l for l in r.stdout.splitlines() if l.startswith("bench=pass ")]
        self.assertEqual(len(lines), 1, r.stdout)
        self.assertRegex(lines[0], r"scans=1 checks=1275 seconds=[0-9.e+-]+ checks_per_s=[0-9.e+]+ "
                         r"with_copies_seconds=[0-9.e+-]+ with_copies_checks_per_s=[0-9.e+]+")
        self.assertRegex(r.stdout, r"berlin52\s+\|\s+52 \|.*\|\s+20\.0 us \|\s+0\.064")

    def test_bench_ascent(self):
        # The host's ascent on a bundled instance for 60 steps: its line, the
        # time a step alone, the bound recomputed from its pi, and the table.
        # cuda beside it where this build has a GPU's ascent: bit for bit the
        # host's (equal=yes); elsewhere a note, and cuda alone fails with
        # exit 1.
        r = run("ascent", BERLIN, "--backends", "cpu,cuda", "--iterations", "60",
                "--period", "30", "--threads", "2", "--step-time")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("# command: warptour-bench ascent", r.stdout)
        lines = [l for l in r.stdout.splitlines() if l.startswith("bench=ascent ")]
        f = dict(kv.split("=", 1) for kv in lines[0].split())
        self.assertEqual((f["instance"], f["backend"], f["iterations"]), ("berlin52", "cpu", "60"))
        self.assertLessEqual(int(f["lower_bound"]), 7542)
        self.assertLess(float(f["bound_gap_percent"]), 5.0)
        self.assertIn("same_bound=yes", r.stdout)
        self.assertRegex(r.stdout, r"bench=ascent-step instance=berlin52 backend=cpu iterations=60 "
                         r"ascent_s=[0-9.]+ one_step_s=[0-9.]+ per_step_ms=")
        self.assertRegex(r.stdout, r"\| berlin52 \| 52 \| cpu \|")
        cuda = "no ascent on cuda" not in r.stdout
        if cuda:
            self.assertIn("bench=ascent-compare instance=berlin52 base=cpu other=cuda", r.stdout)
            self.assertIn(" equal=yes", r.stdout)
        r = run("ascent", BERLIN, "--backends", "cuda", "--iterations", "5")
        if cuda:
            self.assertEqual(r.returncode, 0, r.stderr)
        else:
            self.assertEqual(r.returncode, 1, r.stdout)
            self.assertIn("# note: no ascent on cuda", r.stdout)
            self.assertIn("no backend of --backends can run the ascent", r.stderr)
        # --stop-after: the stop flag set at once; the line says how soon
        # the slot returned after it (or that the ascent ended first).
        r = run("ascent", BERLIN, "--backends", "cpu", "--period", "0", "--threads", "2",
                "--stop-after", "0")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertRegex(r.stdout, r"bench=ascent-stop instance=berlin52 n=52 backend=cpu "
                         r"device=cpu threads=2 stop_after_s=0.000 flag_set=(yes|no) "
                         r"ascent_s=[0-9.]+ returned_after_stop_s=([0-9.]+|-) iterations=[0-9]+ "
                         r"stopped=(yes|no) lower_bound=")
        self.assertRegex(r.stdout, r"\| berlin52 \| 52 \| cpu \| 0.000 s \|")
        self.assertNotIn("bench=ascent-compare", r.stdout)
        for args in (["ascent"], ["ascent", BERLIN, "--backends", "gpu"],
                     ["ascent", BERLIN, "--iterations", "-1"],
                     ["ascent", BERLIN, "--stop-after", "-1"]):
            r = run(*args)
            self.assertEqual(r.returncode, 2, args)
            self.assertIn("warptour-bench: ", r.stderr)

    def test_bench_quality_size_range(self):
        # --min-n and --max-n pick the bundled instances by size: only berlin52
        # (52 cities) of data/ (22, 48, 52, 280 cities) lies in 50..100.
        r = run("quality", "--dir", DATA, "--min-n", "50", "--max-n", "100",
                "--climbs", "20", "--backend", "cpu")
        self.assertEqual(r.returncode, 0, r.stderr)
        lines = [l for l in r.stdout.splitlines() if l.startswith("bench=quality ")]
        self.assertEqual(len(lines), 1, r.stdout)
        self.assertIn("berlin52", lines[0])
        r = run("quality", "--dir", DATA, "--min-n", "300", "--max-n", "400",
                "--climbs", "20", "--backend", "cpu")
        self.assertNotEqual(r.returncode, 0)
        self.assertIn("--min-n", r.stderr)

    def test_kswap_rule_and_band(self):
        r = run("kswap", "--instances", BERLIN, "--variants", "cpu", "--ks", "1,all",
                "--starts", "random", "--nested", "off", "--band", "16", "--threads", "1")
        self.assertEqual(r.returncode, 0, r.stderr)
        lines = [l for l in r.stdout.splitlines() if l.startswith("bench=kswap ")]
        self.assertEqual(len(lines), 2, r.stdout)
        self.assertIn("nested=off band=16", lines[1])


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit("usage: test_bench.py PATH/TO/warptour-bench")
    BENCH = os.path.abspath(sys.argv.pop(1))
    unittest.main(verbosity=2)
