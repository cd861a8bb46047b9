#!/usr/bin/env python3
"""CLI tests: run the warptour binary and check only stdout, stderr and the exit
status, as a user or a script would see them.

Usage: test_cli.py PATH/TO/warptour   (ctest passes it; WT_DATA points at data/)
"""
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import unittest

WARPTOUR = None
DATA = os.environ.get("WT_DATA", os.path.join(os.path.dirname(__file__), "..", "..", "data"))
BERLIN = os.path.join(DATA, "berlin52.tsp")
A280 = os.path.join(DATA, "a280.tsp")  # its Held-Karp bound (2566) is below its optimum


def run(*args, **kw):
    """Runs warptour; a solve that names no algorithm runs 2opt, which most
    tests here were written against (the default, ils, has tests of its own:
    run_default)."""
    if args and args[0] == "solve" and "--algorithm" not in args and "-h" not in args \
            and "--help" not in args:
        args = (*args, "--algorithm", "2opt")
    return run_default(*args, **kw)


def run_default(*args, **kw):
    return subprocess.run([WARPTOUR, *args], capture_output=True, text=True, timeout=300, **kw)


class Cli(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()

    def tearDown(self):
        self.tmp.cleanup()

    def path(self, name):
        return os.path.join(self.tmp.name, name)

    def write(self, name, text):
        p = self.path(name)
        with open(p, "w") as f:
            f.write(text)
        return p

    def test_help_for_every_command(self):
        r = run("--help")
        self.assertEqual(r.returncode, 0)
        self.assertIn("Exit status", r.stdout)
        for cmd in ["solve", "check", "info", "gen", "devices"]:
            r = run(cmd, "--help")
            self.assertEqual(r.returncode, 0, cmd)
            self.assertIn("Usage: warptour " + cmd, r.stdout)

    def test_usage_errors(self):
        for args in [[], ["frobnicate"], ["solve"], ["solve", BERLIN, "--seed", "x"],
                     ["solve", BERLIN, "--init", "magic"], ["solve", BERLIN, "--bogus"],
                     ["solve", BERLIN, "--time-limit", "-1"], ["check", BERLIN],
                     ["gen", "uniform", "2"], ["gen", "spiral", "10"], ["solve", BERLIN, "--seed"],
                     ["solve", BERLIN, "--swaps", "0"], ["solve", BERLIN, "--swaps", "many"],
                     ["solve", BERLIN, "--nested", "maybe"], ["solve", BERLIN, "--band", "-1"],
                     ["bench", "pass"], ["solve", BERLIN, "--seed", " -1"],
                     ["solve", BERLIN, "--kicks", " -1"], ["gen", "uniform", "10", "--seed", "-1"],
                     ["solve", BERLIN, "--prune", "yes"]]:
            r = run(*args)
            self.assertEqual(r.returncode, 2, args)
            self.assertTrue(r.stderr.strip(), args)
            self.assertNotIn("Traceback", r.stderr)

    def test_solve_writes_tour_that_check_accepts(self):
        tour, svg = self.path("b.tour"), self.path("b.svg")
        r = run("solve", BERLIN, "--output", tour, "--svg", svg)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("length", r.stdout)
        self.assertIn("gap", r.stdout)
        r = run("check", BERLIN, tour, "--json")
        self.assertEqual(r.returncode, 0, r.stderr)
        j = json.loads(r.stdout)
        self.assertTrue(j["valid"])
        self.assertEqual(j["n"], 52)
        self.assertEqual(j["optimum"], 7542)
        self.assertGreaterEqual(j["length"], 7542)
        with open(svg) as f:
            self.assertIn("<svg", f.read(200))

    def test_solve_json_has_the_documented_fields(self):
        tour = self.path("b.tour")
        r = run("solve", BERLIN, "--json", "--seed", "5", "--init", "random", "--output", tour)
        self.assertEqual(r.returncode, 0, r.stderr)
        j = json.loads(r.stdout)
        for key in ["instance", "n", "algorithm", "backend", "device", "seed", "init_length",
                    "length", "optimum", "gap_percent", "time_s", "search_time_s",
                    "scan_time_s", "output", "prune", "passes"]:
            self.assertIn(key, j)
        self.assertGreater(j["scan_time_s"], 0)  # 2opt: the scans are timed
        self.assertLessEqual(j["scan_time_s"], j["search_time_s"])
        self.assertEqual(j["instance"], "berlin52")
        self.assertEqual(j["seed"], 5)
        self.assertEqual(j["output"], tour)
        self.assertLessEqual(j["length"], j["init_length"])
        self.assertAlmostEqual(j["gap_percent"], 100.0 * (j["length"] - 7542) / 7542, places=6)
        r2 = run("check", BERLIN, tour, "--json")
        self.assertEqual(json.loads(r2.stdout)["length"], j["length"])

    def test_prune_finds_the_same_tour_with_fewer_checks(self):
        inst = self.big_instance()
        runs = {}
        for prune in ["on", "off"]:
            t = self.path("p_%s.tour" % prune)
            r = run("solve", inst, "--backend", "cpu", "--prune", prune, "--json", "--output", t)
            self.assertEqual(r.returncode, 0, r.stderr)
            j = json.loads(r.stdout)
            self.assertEqual(j["prune"], prune == "on")
            with open(t) as f:
                runs[prune] = (j, f.read())
        on, off = runs["on"][0], runs["off"][0]
        self.assertEqual(runs["on"][1], runs["off"][1])
        self.assertEqual(on["length"], off["length"])
        self.assertEqual(on["passes"], off["passes"])
        self.assertEqual(off["moves_evaluated"], off["passes"] * 2999 * 2998 // 2)
        self.assertLess(on["moves_evaluated"], off["moves_evaluated"] // 3)

    def test_same_seed_same_tour(self):
        outs = []
        for _ in range(2):
            t = self.path("s.tour")
            r = run("solve", BERLIN, "--init", "random", "--seed", "9", "--output", t, "--quiet")
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertEqual(r.stdout, "")
            with open(t) as f:
                outs.append(f.read())
        self.assertEqual(outs[0], outs[1])

    def test_swaps_one_and_all_reach_local_optima(self):
        for swaps in ["1", "5", "all"]:
            r = run("solve", BERLIN, "--init", "random", "--swaps", swaps, "--json")
            self.assertEqual(r.returncode, 0, r.stderr)
            j = json.loads(r.stdout)
            self.assertEqual(j["swaps"], 0 if swaps == "all" else int(swaps))
            self.assertEqual((j["nested"], j["band"]), (True, 64))  # the defaults
            self.assertLess(j["length"], j["init_length"])

    def test_kswap_rule_and_band_options(self):
        lengths = {}
        for nested in ["on", "off"]:
            for band in ["0", "8"]:
                r = run("solve", BERLIN, "--init", "random", "--nested", nested, "--band", band,
                        "--backend", "cpu", "--json")
                self.assertEqual(r.returncode, 0, r.stderr)
                j = json.loads(r.stdout)
                self.assertEqual((j["nested"], j["band"]), (nested == "on", int(band)))
                self.assertLess(j["length"], j["init_length"])
                lengths[nested, band] = j["length"]
        # --swaps 1 is plain best improvement whatever the k-swap options say.
        ones = set()
        for args in [["--nested", "on", "--band", "8"], ["--nested", "off", "--band", "0"]]:
            r = run("solve", BERLIN, "--init", "random", "--swaps", "1", "--backend", "cpu",
                    "--json", *args)
            ones.add(json.loads(r.stdout)["length"])
        self.assertEqual(len(ones), 1)

    def test_ils(self):
        tour = self.path("ils.tour")
        r = run("solve", A280, "--algorithm", "ils", "--kicks", "50", "--json", "--output", tour)
        self.assertEqual(r.returncode, 0, r.stderr)
        j = json.loads(r.stdout)
        self.assertEqual(j["algorithm"], "ils")
        self.assertEqual(j["kicks"], 50)
        self.assertLessEqual(j["kicks_accepted"], 50)
        self.assertEqual(json.loads(run("check", A280, tour, "--json").stdout)["length"],
                         j["length"])
        # The proven bound: at most the optimum, the gap to it as reported.
        self.assertLessEqual(j["lower_bound"], 2579)
        self.assertAlmostEqual(j["gap_to_bound_percent"],
                               100 * (j["length"] - j["lower_bound"]) / j["lower_bound"])
        # Its ascent: on the host here, on the GPU where one has the ascent.
        self.assertRegex(j["ascent_device"], r"^(cpu|cuda:0)$")
        self.assertGreater(j["ascent_iterations"], 0)
        self.assertGreater(j["ascent_time_s"], 0)
        # The limit is ILS's normal end once the first descent is done: one
        # thread and a second, so that a loaded machine still gets there.
        r = run("solve", A280, "--algorithm", "ils", "--time-limit", "1", "--threads", "1",
                "--json")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertGreater(json.loads(r.stdout)["kicks"], 0)
        self.assertEqual(run("solve", BERLIN, "--algorithm", "ils", "--accept", "maybe").returncode,
                         2)
        # Local descents: on the host, exact lengths; seed 1 reaches the optimum of berlin52.
        r = run("solve", BERLIN, "--algorithm", "ils", "--ils-descent", "local", "--kicks", "2000",
                "--threads", "1", "--backend", "cpu", "--json", "--output", tour)
        self.assertEqual(r.returncode, 0, r.stderr)
        j = json.loads(r.stdout)
        self.assertEqual((j["ils_descent"], j["backend"], j["kicks"]), ("local", "cpu", 2000))
        self.assertEqual(j["length"], 7542)
        self.assertEqual(json.loads(run("check", BERLIN, tour, "--json").stdout)["length"],
                         j["length"])
        self.assertEqual(run("solve", BERLIN, "--algorithm", "ils", "--ils-descent",
                             "some").returncode, 2)
        r = run("solve", BERLIN, "--algorithm", "ils", "--ils-descent", "full", "--kicks", "5",
                "--json")
        self.assertEqual(json.loads(r.stdout)["ils_descent"], "full")
        # auto is lk up to 20,000 cities (on cuda after a first descent on the GPU).
        r = run("solve", BERLIN, "--algorithm", "ils", "--kicks", "5", "--json")
        self.assertEqual(json.loads(r.stdout)["ils_descent"], "lk")
        r = run("solve", BERLIN, "--algorithm", "ils", "--ils-descent", "lk", "--kicks", "300",
                "--threads", "1", "--backend", "cpu", "--json", "--output", tour)
        j = json.loads(r.stdout)
        # It reaches the optimum, which is berlin52's proven bound: the end,
        # whatever is left of the kicks.
        self.assertEqual(j["ils_descent"], "lk")
        self.assertLessEqual(j["kicks"], 300)
        self.assertEqual((j["length"], j["lower_bound"], j["gap_to_bound_percent"]), (7542, 7542, 0))
        self.assertEqual(json.loads(run("check", BERLIN, tour, "--json").stdout)["length"], 7542)
        # No concurrent windows here; gpu_span_s is its old name (docs/json.md).
        self.assertEqual((j["gpu_time_s"], j["concurrent_windows_s"], j["gpu_span_s"]), (0, 0, 0))

    def test_tune_takes_the_new_names_and_the_old_ones(self):
        # A tuning field by its name, or for one release by its name of 0.1.0: the same run.
        tours = []
        for name in ["ils_round_kicks", "ils_epoch"]:
            t = self.path(name + ".tour")
            r = run("solve", BERLIN, "--algorithm", "ils", "--kicks", "400", "--threads", "2",
                    "--backend", "cpu", "--tune", name + "=50", "--output", t, "--quiet")
            self.assertEqual(r.returncode, 0, r.stderr)
            with open(t) as f:
                tours.append(f.read())
        self.assertEqual(tours[0], tours[1])
        r = run("solve", BERLIN, "--tune", "ils_beside_ms=99")  # refused by its new name
        self.assertEqual(r.returncode, 2)
        self.assertIn("params.tuning.ils_concurrent_round_ms is 99", r.stderr)
        r = run("solve", BERLIN, "--tune", "ils_mix=never")
        self.assertEqual(r.returncode, 2)
        self.assertIn("--tune ils_mix: bad value 'never'", r.stderr)
        self.assertIn("ils_epoch", run("solve", "--help").stdout)

    def test_no_options_runs_ils_with_lk_to_its_budget(self):
        tour = self.path("default.tour")
        r = run_default("solve", BERLIN, "--json", "--output", tour, "--backend", "cpu")
        self.assertEqual(r.returncode, 0, r.stderr)
        j = json.loads(r.stdout)
        self.assertEqual((j["algorithm"], j["ils_descent"], j["stop"]), ("ils", "lk", "done"))
        # berlin52's Held-Karp bound is its optimum (the ascent's 1-tree is a
        # tour), so the search ends when it reaches it, before its budget
        # of one kick a city, at least 10,000.
        self.assertEqual((j["length"], j["lower_bound"]), (7542, 7542))
        self.assertLess(j["kicks"], 10000)
        r = run_default("solve", A280, "--json", "--backend", "cpu")
        self.assertEqual(json.loads(r.stdout)["kicks"], 10000)
        self.assertEqual(json.loads(run("check", BERLIN, tour, "--json").stdout)["length"], 7542)
        # An option of another algorithm than the default one is refused.
        r = run_default("solve", BERLIN, "--restarts", "5")
        self.assertEqual(r.returncode, 2)
        self.assertIn("multistart", r.stderr)

    def test_sa(self):
        tour = self.path("sa.tour")
        for scheme in ["sspm", "pssm"]:
            r = run("solve", BERLIN, "--algorithm", "sa", "--backend", "cpu", "--sa-cpu", scheme,
                    "--threads", "2", "--t-start", "1000", "--t-end", "1", "--alpha", "0.95",
                    "--sweeps", "5", "--exchange", "20", "--seed", "3", "--json",
                    "--output", tour)
            self.assertEqual(r.returncode, 0, r.stderr)
            j = json.loads(r.stdout)
            self.assertEqual(j["algorithm"], "sa")
            self.assertEqual(j["sa_cpu"], scheme)
            self.assertEqual([j["searches"], j["moves_per_search"]],
                             [1, 2] if scheme == "sspm" else [2, 1])
            self.assertEqual(j["stop"], "done")
            self.assertLessEqual(j["temperature_final"], 1)
            self.assertEqual(j["moves_evaluated"], j["iterations"] * j["moves_per_search"])
            self.assertLessEqual(j["accepted"], j["iterations"])
            c = run("check", BERLIN, tour, "--json")
            self.assertEqual(c.returncode, 0, c.stderr)
            self.assertEqual(json.loads(c.stdout)["length"], j["length"])
        r = run("solve", BERLIN, "--algorithm", "sa", "--t-start", "50", "--t-end", "1")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("anneal", r.stdout)
        self.assertIn("polish", r.stdout)
        # The polish: on by default, reported before and after; off leaves the anneal's tour.
        lengths = {}
        for polish in ["on", "off"]:
            r = run("solve", BERLIN, "--algorithm", "sa", "--backend", "cpu", "--t-start", "50",
                    "--t-end", "1", "--threads", "2", "--seed", "4", "--polish", polish, "--json")
            self.assertEqual(r.returncode, 0, r.stderr)
            j = json.loads(r.stdout)
            self.assertEqual(j["polish"], polish == "on")
            self.assertLessEqual(j["length"], j["sa_unpolished_length"])
            if polish == "off":
                self.assertEqual(j["length"], j["sa_unpolished_length"])
                self.assertEqual(j["polish_moves"], 0)
            lengths[polish] = (j["length"], j["sa_unpolished_length"])
        self.assertEqual(lengths["on"][1], lengths["off"][0])
        self.assertLessEqual(lengths["on"][0], lengths["off"][0])
        for bad in [["--alpha", "1"], ["--alpha", "0"], ["--alpha", "x"], ["--t-start", "0"],
                    ["--t-end", "-1"], ["--t-start", "1", "--t-end", "2"], ["--sweeps", "0"],
                    ["--exchange", "1.5"], ["--searches", "0"], ["--moves", "-2"],
                    ["--sa-cpu", "gpu"], ["--t-start", "nan"], ["--moves"], ["--polish", "yes"]]:
            r = run("solve", BERLIN, "--algorithm", "sa", *bad)
            self.assertEqual(r.returncode, 2, bad)
            self.assertTrue(r.stderr.strip(), bad)

    def test_unknown_optimum_gives_null_gap(self):
        inst = self.write("x.tsp", "NAME: x\nTYPE: TSP\nDIMENSION: 5\nEDGE_WEIGHT_TYPE: EUC_2D\n"
                          "NODE_COORD_SECTION\n1 0 0\n2 5 0\n3 5 5\n4 0 5\n5 2 9\nEOF\n")
        j = json.loads(run("solve", inst, "--json").stdout)
        self.assertIsNone(j["optimum"])
        self.assertIsNone(j["gap_percent"])
        j = json.loads(run("solve", inst, "--json", "--optimum", "20").stdout)
        self.assertEqual(j["optimum"], 20)

    def test_odd_valid_instances_solve(self):
        cases = {
            "three": "1 0 0\n2 1 1\n3 2 0\n",
            "onepoint": "".join(f"{i} 7 7\n" for i in range(1, 9)),
            "line": "".join(f"{i} {i * 3} {i * 3}\n" for i in range(1, 30)),
            "huge": "1 -1e12 5e11\n2 1e12 -3e11\n3 0 0\n4 123456789012 -98765\n",
        }
        for name, nodes in cases.items():
            n = nodes.count("\n")
            inst = self.write(name + ".tsp", f"NAME: {name}\nTYPE: TSP\nDIMENSION: {n}\n"
                              f"EDGE_WEIGHT_TYPE: EUC_2D\nNODE_COORD_SECTION\n{nodes}EOF\n")
            tour = self.path(name + ".tour")
            r = run("solve", inst, "--output", tour, "--quiet")
            self.assertEqual(r.returncode, 0, name + r.stderr)
            r = run("check", inst, tour)
            self.assertEqual(r.returncode, 0, name + r.stderr)

    def test_bad_instance_names_file_and_line(self):
        bad = self.write("bad.tsp", "NAME: bad\nTYPE: TSP\nDIMENSION: 3\nEDGE_WEIGHT_TYPE: EUC_2D\n"
                         "NODE_COORD_SECTION\n1 0 0\n2 zero 1\n3 1 1\nEOF\n")
        for cmd in [["solve", bad], ["info", bad], ["check", bad, bad]]:
            r = run(*cmd)
            self.assertEqual(r.returncode, 3, cmd)
            self.assertIn("bad.tsp:7:", r.stderr)
            self.assertEqual(len(r.stderr.strip().splitlines()), 1, r.stderr)
        r = run("solve", self.path("missing.tsp"))
        self.assertEqual(r.returncode, 1)
        self.assertIn("missing.tsp", r.stderr)
        huge = self.write("huge.tsp", "NAME: h\nTYPE: TSP\nDIMENSION: 2000000000\n"
                          "EDGE_WEIGHT_TYPE: EUC_2D\nNODE_COORD_SECTION\n"
                          + "".join(f"{i} 0 {i}\n" for i in range(1, 6)) + "EOF\n")
        t0 = time.time()
        r = run("solve", huge)
        self.assertEqual(r.returncode, 3)
        self.assertLess(time.time() - t0, 5)
        self.assertIn("huge.tsp:", r.stderr)
        # The file's NAME stays out of messages: a long one once hid the reason.
        wide = self.write("wide.tsp", "NAME: " + "n" * 600 + "\nTYPE: TSP\nDIMENSION: 3\n"
                          "EDGE_WEIGHT_TYPE: EUC_2D\nNODE_COORD_SECTION\n"
                          "1 0 0\n2 1e300 0\n3 -1e300 1\nEOF\n")
        r = run("info", wide)
        self.assertEqual(r.returncode, 3)
        self.assertIn("wide.tsp:5: coordinates span too wide", r.stderr)
        self.assertNotIn("nnnn", r.stderr)

    def test_check_rejects_invalid_tour(self):
        t = self.write("bad.tour", "TYPE: TOUR\nDIMENSION: 52\nTOUR_SECTION\n"
                       + "\n".join(str(i) for i in [1] * 52) + "\n-1\nEOF\n")
        r = run("check", BERLIN, t)
        self.assertEqual(r.returncode, 4)
        self.assertIn("bad.tour:5: city 1 repeats", r.stderr)
        # A malformed header is a malformed file (3), named at its line; a
        # city on the TOUR_SECTION line is refused, not dropped; bytes are quoted.
        for name, text, message in [
                ("dim.tour", "NAME: x\nDIMENSION: 52x\nTOUR_SECTION\n1\n-1\n",
                 "dim.tour:2: tour DIMENSION '52x'"),
                ("type.tour", "TYPE: TOUR\x1b[2J\nTOUR_SECTION : 1\n-1\n",
                 "type.tour:1: TYPE is 'TOUR\\x1b[2J'"),
                ("sec.tour", "TYPE: TOUR\nTOUR_SECTION : 1\n-1\n",
                 "sec.tour:2: TOUR_SECTION has data '1'")]:
            r = run("check", BERLIN, self.write(name, text))
            self.assertEqual(r.returncode, 3, name)
            self.assertIn(message, r.stderr)
        r = run("check", BERLIN, t, "--json")
        self.assertEqual(r.returncode, 4)
        self.assertFalse(json.loads(r.stdout)["valid"])

    def test_unwritable_stdout_is_a_failure(self):
        # A report lost to a full disk must not look like success.
        if not os.path.exists("/dev/full"):
            self.skipTest("no /dev/full")
        for args in [["info", BERLIN], ["solve", BERLIN, "--algorithm", "ils", "--kicks", "1"],
                     ["gen", "uniform", "10"]]:
            with open("/dev/full", "w") as full:
                r = subprocess.run([WARPTOUR, *args], stdout=full, stderr=subprocess.PIPE,
                                   text=True, timeout=300)
            self.assertEqual(r.returncode, 1, args)
            self.assertIn("warptour", r.stderr)
        # The JSON too, and the message says what could not be written.
        for args in [["solve", BERLIN, "--algorithm", "2opt", "--json"],
                     ["solve-batch", "--gen-uniform", "20", "--kicks", "10", "--backend", "cpu",
                      "--json"], ["info", BERLIN, "--json"]]:
            with open("/dev/full", "w") as full:
                r = subprocess.run([WARPTOUR, *args], stdout=full, stderr=subprocess.PIPE,
                                   text=True, timeout=300)
            self.assertEqual(r.returncode, 1, args)
            self.assertEqual(r.stderr, "warptour: cannot write to standard output: "
                             "No space left on device\n", args)

    def test_option_without_its_value(self):
        # Every command says which option lacks its value, and which is unknown.
        for args in (["check", BERLIN, "x.tour", "--optimum"], ["gen", "uniform", "10", "--seed"],
                     ["info", BERLIN, "--metric"], ["solve-batch", BERLIN, "--kicks"],
                     ["solve", BERLIN, "--kicks"]):
            r = run_default(*args)
            self.assertEqual(r.returncode, 2, args)
            self.assertIn("option '%s' needs a value" % args[-1], r.stderr)
            r = run_default(*args[:-1], "--bogus")
            self.assertEqual(r.returncode, 2, args)
            self.assertIn("unknown option '--bogus'", r.stderr)

    def test_check_time_limit_goes_with_bound(self):
        # --time-limit times --bound's ascent: alone it is refused, not ignored.
        tour = self.path("b.tour")
        self.assertEqual(run("solve", BERLIN, "--output", tour).returncode, 0)
        r = run("check", BERLIN, tour, "--time-limit", "5")
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertIn("--bound", r.stderr)
        r = run("check", BERLIN, tour, "--time-limit", "60", "--bound")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("lower bound", r.stdout)
        # A limit that ends the ascent before its first step still proves a
        # bound: the last tree is made from the penalties reached.
        r = run("check", BERLIN, tour, "--time-limit", "1e-9", "--bound", "--json")
        self.assertEqual(r.returncode, 0, r.stderr)
        bound = json.loads(r.stdout)["lower_bound"]
        self.assertTrue(0 < bound <= 7542, r.stdout)

    def test_check_devices_go_with_bound(self):
        # --devices picks --bound's GPUs: alone it is refused, a bad list
        # too; with --bound the bound is the same whatever runs it (the
        # host, where there is no GPU).
        tour = self.path("b.tour")
        self.assertEqual(run("solve", BERLIN, "--output", tour).returncode, 0)
        r = run("check", BERLIN, tour, "--devices", "0,1")
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertIn("--bound", r.stderr)
        r = run("check", BERLIN, tour, "--bound", "--devices", "0,x")
        self.assertEqual(r.returncode, 2, r.stderr)
        bounds = []
        for extra in ([], ["--devices", "0"], ["--devices", "all"]):
            r = run("check", BERLIN, tour, "--bound", "--json", *extra)
            self.assertEqual(r.returncode, 0, r.stderr)
            bounds.append(json.loads(r.stdout)["lower_bound"])
        self.assertEqual(bounds, [7542] * 3)

    def test_gen_is_reproducible_and_readable(self):
        a, b = self.path("a.tsp"), self.path("b.tsp")
        for kind in ["uniform", "clustered"]:
            self.assertEqual(run("gen", kind, "1000", "--seed", "3", "--output", a).returncode, 0)
            self.assertEqual(run("gen", kind, "1000", "--seed", "3", "--output", b).returncode, 0)
            with open(a) as fa, open(b) as fb:
                self.assertEqual(fa.read(), fb.read())
            j = json.loads(run("info", a, "--json").stdout)
            self.assertEqual(j["n"], 1000)
            self.assertEqual(j["edge_weight_type"], "EUC_2D")
        r = run("gen", "uniform", "10", "--seed", "3")
        self.assertIn("NODE_COORD_SECTION", r.stdout)
        # '-' is standard output, as for solve's --output (no file named '-')
        dash = run("gen", "uniform", "10", "--seed", "3", "--output", "-", cwd=self.tmp.name)
        self.assertEqual((dash.returncode, dash.stdout), (0, r.stdout))
        self.assertFalse(os.path.exists(self.path("-")))
        # a path that cannot be written is found before the instance is made
        for bad, code in (("", 2), (self.tmp.name, 1), (self.path("no/such.tsp"), 1)):
            r = run("gen", "uniform", "10", "--output", bad)
            self.assertEqual(r.returncode, code, (bad, r.stderr))
            self.assertEqual(r.stdout, "")
            self.assertTrue(r.stderr.strip(), bad)

    def test_json_is_utf8_whatever_the_file_says(self):
        # A Latin-1 name and comment (bytes that are not UTF-8) come out as U+FFFD.
        inst = self.path("latin1.tsp")
        with open(inst, "wb") as f:
            f.write(b"NAME: caf\xe9\nCOMMENT: Br\xfcssel \xe2\x82\xac\nTYPE: TSP\nDIMENSION: 4\n"
                    b"EDGE_WEIGHT_TYPE: EUC_2D\nNODE_COORD_SECTION\n"
                    b"1 0 0\n2 0 3\n3 4 3\n4 4 0\nEOF\n")
        for args in (["info", inst, "--json"], ["solve", inst, "--json"]):
            r = subprocess.run([WARPTOUR, *args], capture_output=True, timeout=60)
            self.assertEqual(r.returncode, 0, r.stderr)
            j = json.loads(r.stdout.decode("utf-8"))  # strict: fails on stray bytes
            self.assertEqual(j["instance"], "caf\ufffd")
        self.assertEqual(j["length"], 14)
        r = subprocess.run([WARPTOUR, "info", inst, "--json"], capture_output=True, timeout=60)
        self.assertEqual(json.loads(r.stdout.decode("utf-8"))["comment"], "Br\ufffdssel \u20ac")

    def test_info(self):
        r = run("info", BERLIN)
        self.assertEqual(r.returncode, 0)
        self.assertIn("berlin52", r.stdout)
        self.assertIn("7542", r.stdout)
        j = json.loads(run("info", BERLIN, "--json").stdout)
        self.assertEqual(j["n"], 52)
        self.assertEqual(j["optimum"], 7542)

    def test_devices(self):
        # One line a backend: the CPU one with the cores this process may run
        # on (OpenMP's count: the affinity mask, not OMP_NUM_THREADS), the
        # CUDA one available with its device, or not with the reason.
        def lines(**kw):
            r = run("devices", **kw)
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertEqual(r.stderr, "")
            out = r.stdout.splitlines()
            # More GPUs than one: "cuda:1", "cuda:2", ... after "cuda".
            self.assertEqual([l.split()[0] for l in out],
                             ["cpu", "cuda"] + ["cuda:%d" % k for k in range(1, len(out) - 1)],
                             r.stdout)
            return out[:2]
        cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
        env = dict(os.environ, OMP_NUM_THREADS="1")
        for kw in ({}, {"env": env}):
            cpu, cuda = lines(**kw)
            self.assertEqual(cpu.split(None, 1)[1], "available (%d cores)" % cores)
            state, _, what = cuda.split(None, 1)[1].partition(": ")
            self.assertIn(state, ("available", "not available"), cuda)
            self.assertTrue(what.strip(), cuda)  # the device, or why not
            if state == "not available":
                self.assertRegex(what, r"built without CUDA \(.+\)|no usable CUDA driver"
                                       r"|no CUDA device")
        if hasattr(os, "sched_setaffinity") and cores > 1:
            one = min(os.sched_getaffinity(0))
            cpu, _ = lines(preexec_fn=lambda: os.sched_setaffinity(0, {one}))
            self.assertEqual(cpu, "cpu    available (1 cores)")
        r = run("devices", "extra")
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertIn("devices", r.stderr)

    def big_instance(self):
        inst = self.path("u3000.tsp")
        self.assertEqual(run("gen", "uniform", "3000", "--seed", "1", "--output", inst).returncode,
                         0)
        return inst

    def test_output_paths_checked_before_the_search(self):
        # Each run would search for 60 s if it got that far.
        matrix = self.write("m.tsp", "NAME: m\nTYPE: TSP\nDIMENSION: 4\n"
                            "EDGE_WEIGHT_TYPE: EXPLICIT\n"
                            "EDGE_WEIGHT_FORMAT: FULL_MATRIX\nEDGE_WEIGHT_SECTION\n"
                            "0 1 2 3\n1 0 4 5\n2 4 0 6\n3 5 6 0\nEOF\n")
        cases = [(BERLIN, ["--output", self.path("nofolder/x.tour")], 1, "nofolder"),
                 (BERLIN, ["--output", self.tmp.name], 1, "folder"),
                 (BERLIN, ["--svg", self.path("nofolder/x.svg")], 1, "nofolder"),
                 (matrix, ["--svg", self.path("m.svg")], 3, "no coordinates")]
        for inst, args, code, words in cases:
            t0 = time.monotonic()
            r = run("solve", inst, "--algorithm", "ils", "--backend", "cpu", "--time-limit", "60",
                    *args)
            self.assertEqual(r.returncode, code, r.stderr)
            self.assertIn(words, r.stderr)
            self.assertLess(time.monotonic() - t0, 30, args)
        # A tour is written whole under its own name, with nothing left beside it.
        tour = self.path("whole.tour")
        self.assertEqual(run("solve", BERLIN, "--output", tour, "--quiet").returncode, 0)
        self.assertEqual(sorted(os.listdir(self.tmp.name)), ["m.tsp", "whole.tour"])
        self.assertEqual(run("check", BERLIN, tour).returncode, 0)

    def test_time_limit_writes_best_tour(self):
        inst, tour = self.big_instance(), self.path("t.tour")
        # On the CPU, every pair checked, one move a pass from a random tour:
        # thousands of passes, over 20 s on two cores (a GPU, k-swap or
        # pruned passes finish before the limit).
        r = run("solve", inst, "--init", "random", "--backend", "cpu", "--prune", "off",
                "--swaps", "1", "--time-limit", "0.5", "--json", "--output", tour)
        self.assertEqual(r.returncode, 5, r.stderr)
        j = json.loads(r.stdout)
        self.assertEqual(j["stop"], "time-limit")
        self.assertLess(j["length"], j["init_length"])
        r = run("check", inst, tour, "--json")
        self.assertEqual(r.returncode, 0)
        self.assertEqual(json.loads(r.stdout)["length"], j["length"])
        self.assertEqual((j["init_cut"], j["init_made"]), (False, "random"))
        # A limit that comes while greedy builds cuts the build short too.
        big = self.path("u70k.tsp")
        self.assertEqual(run("gen", "uniform", "70000", "--seed", "2", "--output", big).returncode,
                         0)
        r = run("solve", big, "--backend", "cpu", "--time-limit", "0.000001", "--json",
                "--output", tour)
        self.assertEqual(r.returncode, 5, r.stderr)
        j = json.loads(r.stdout)
        self.assertEqual((j["stop"], j["init_cut"], j["init_made"]),
                         ("time-limit", True, "spacefill"))
        self.assertEqual(json.loads(run("check", big, tour, "--json").stdout)["length"],
                         j["length"])

    def test_interrupt_writes_best_tour(self):
        inst, tour = self.big_instance(), self.path("i.tour")
        # Ctrl-C, and the SIGTERM of kill, timeout and batch schedulers, and
        # SIGHUP: each exits 128 + the signal, best tour written.
        for sig, want in ((signal.SIGINT, 130), (signal.SIGTERM, 143), (signal.SIGHUP, 129)):
            # Climbs until told to stop, however fast the machine.
            p = subprocess.Popen([WARPTOUR, "solve", inst, "--algorithm", "multistart",
                                  "--backend", "cpu", "--time-limit", "600", "--json",
                                  "--output", tour],
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            time.sleep(1.0)
            p.send_signal(sig)
            out, err = p.communicate(timeout=60)
            self.assertEqual(p.returncode, want, err)
            j = json.loads(out)
            self.assertEqual(j["stop"], "interrupted")
            r = run("check", inst, tour, "--json")
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertEqual(json.loads(r.stdout)["length"], j["length"])
        # timeout(1) sends SIGTERM twice (the program, then its group): the
        # second must not kill the program before it writes the tour.
        if shutil.which("timeout"):
            os.remove(tour)
            r = subprocess.run(["timeout", "-s", "TERM", "1", WARPTOUR, "solve", inst,
                                "--algorithm", "multistart", "--backend", "cpu", "--time-limit",
                                "600", "--json", "--output", tour],
                               capture_output=True, text=True, timeout=60)
            self.assertEqual(r.returncode, 124, r.stderr)  # timeout's own status
            self.assertEqual(json.loads(r.stdout)["stop"], "interrupted")
            self.assertEqual(run("check", inst, tour).returncode, 0)

    def test_option_of_another_algorithm_is_refused(self):
        for args, owner in [(["--kicks", "5"], "--kicks belongs to --algorithm ils"),
                            (["--algorithm", "sa", "--swaps", "1"],
                             "--swaps belongs to --algorithm 2opt, ils"),
                            (["--algorithm", "multistart", "--init", "greedy"], "--init belongs"),
                            (["--algorithm", "ils", "--restarts", "3"],
                             "--restarts belongs to --algorithm multistart"),
                            (["--algorithm", "2opt", "--t-start", "5"],
                             "--t-start belongs to --algorithm sa")]:
            r = run("solve", BERLIN, *args)
            self.assertEqual(r.returncode, 2, args)
            self.assertIn(owner, r.stderr)
        r = run("solve", BERLIN, "--algorithm", "multistart", "--start-tour", BERLIN)
        self.assertEqual(r.returncode, 2)
        self.assertIn("--start-tour belongs to --algorithm 2opt, ils, sa", r.stderr)

    def test_output_refused_before_search(self):
        inst = self.path("b.tsp")
        shutil.copy(BERLIN, inst)
        ro = self.write("ro.tour", "keep\n")
        os.chmod(ro, 0o444)
        for args in [["--output", ""], ["--output", inst], ["--svg", inst],
                     ["--output", self.path("x"), "--svg", self.path("x")],
                     ["--output", os.path.join(self.tmp.name, ".", "b.tsp")]]:
            r = run("solve", inst, "--quiet", *args)
            self.assertEqual(r.returncode, 2, (args, r.stderr))
            self.assertTrue(r.stderr.strip())
        if os.geteuid() != 0:  # root writes read-only files anyway
            r = run("solve", inst, "--quiet", "--output", ro)
            self.assertEqual(r.returncode, 2, r.stderr)
            with open(ro) as f:
                self.assertEqual(f.read(), "keep\n")
        with open(inst) as f, open(BERLIN) as g:
            self.assertEqual(f.read(), g.read())
        # '-' is standard output for --output only: --svg - is refused, no file '-'.
        r = run("solve", inst, "--quiet", "--svg", "-", cwd=self.tmp.name)
        self.assertEqual(r.returncode, 2, r.stderr)
        self.assertIn("--svg writes a file; '-' (standard output) is for --output", r.stderr)
        self.assertFalse(os.path.exists(os.path.join(self.tmp.name, "-")))

    def test_failed_write_still_reports(self):
        if not os.path.exists("/dev/full"):
            self.skipTest("no /dev/full")
        r = run("solve", BERLIN, "--output", "/dev/full")
        self.assertEqual(r.returncode, 1)
        self.assertIn("length", r.stdout)
        self.assertIn("/dev/full", r.stderr)
        r = run("solve", BERLIN, "--output", "/dev/full", "--json")
        self.assertEqual(r.returncode, 1)
        j = json.loads(r.stdout)
        self.assertGreater(j["length"], 0)
        self.assertIn("/dev/full", j["write_error"])

    def test_output_through_symlink_and_devices(self):
        target, link = self.path("t.tour"), self.path("l.tour")
        os.symlink(target, link)
        self.assertEqual(run("solve", BERLIN, "--quiet", "--output", link).returncode, 0)
        self.assertTrue(os.path.islink(link))
        self.assertEqual(run("check", BERLIN, target).returncode, 0)
        r = run("solve", BERLIN, "--quiet", "--output", "/dev/stdout")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("TOUR_SECTION", r.stdout)

    def test_init_made_and_tour_name(self):
        r = run("solve", BERLIN, "--algorithm", "multistart", "--restarts", "3", "--json")
        self.assertEqual(json.loads(r.stdout)["init_made"], "random")
        tour = self.path("b.tour")
        self.assertEqual(run("solve", BERLIN, "--quiet", "--output", tour).returncode, 0)
        r = run("solve", BERLIN, "--start-tour", tour, "--json")
        self.assertEqual(json.loads(r.stdout)["init_made"], "start-tour")
        r = run("check", BERLIN, tour)
        self.assertEqual((r.returncode, r.stderr), (0, ""))
        with open(tour) as f:
            text = f.read().replace("NAME : berlin52", "NAME : other52")
        other = self.write("o.tour", "\ufeff" + text)  # a byte order mark too
        r = run("check", BERLIN, other)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("warning", r.stderr)
        self.assertIn("other52", r.stderr)
        lower = self.write("l.tour", text.replace("TOUR_SECTION", "tour_section"))
        r = run("check", BERLIN, lower)
        self.assertEqual(r.returncode, 3)
        self.assertIn("tour_section", r.stderr)

    def test_endless_input_is_refused_early(self):
        # Random bytes and an endless pipe of comment lines stop after a MiB.
        if os.path.exists("/dev/urandom"):
            r = run("info", "/dev/urandom")
            self.assertEqual(r.returncode, 3, r.stderr)
        p = subprocess.Popen([WARPTOUR, "info", "/dev/stdin"], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        try:
            for _ in range(100000):  # far more than a MiB, unless refused first
                p.stdin.write(b"NAME : x\n" + b"COMMENT : " + b"c" * 100 + b"\n" * 1)
        except BrokenPipeError:
            pass
        try:
            p.stdin.close()
        except BrokenPipeError:
            pass
        p.wait(timeout=60)
        err = p.stderr.read()
        p.stdout.close()
        p.stderr.close()
        self.assertEqual(p.returncode, 3)
        self.assertIn(b"_SECTION", err)


if __name__ == "__main__":
    WARPTOUR = os.path.abspath(sys.argv.pop(1))
    unittest.main(verbosity=2)
