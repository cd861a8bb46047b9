#!/usr/bin/env python3
"""CLI tests of warptour under mpirun (docs/mpi.md): batches dealt to ranks
give the tours of one process, island searches and the parts mode give a
valid tour with its exact length within the time limit (the same tour again
for a kick budget), SIGTERM still writes the tour, solve's MPI options are
refused where they cannot apply, and a rank that fails or is killed ends
the run with a message naming it instead of a hang.

Registered only in a build with MPI (tests/CMakeLists.txt).  Every mpirun
runs in a session of its own under a timeout, so that a hang fails the test
(the whole group is killed) instead of blocking the suite.  The instances
are small and the budgets kicks, so the whole takes seconds; the wall-time
bounds are loose (CI's two cores are shared): they catch a stop that waits
for a whole search, not a slow machine.

Usage: test_mpi.py PATH/TO/warptour MPIEXEC
"""
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
import unittest

WARPTOUR = None
MPIEXEC = None
DATA = os.environ.get("WT_TEST_DATA", os.path.join(os.path.dirname(__file__), "..", "data"))
HANG_S = 60  # a run still going after this long is a hang
# mpirun refuses root without these (CI runs as root); harmless otherwise.
ENV = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")


def mpirun(ranks, *args, wrap=None, signal_after=None):
    """Runs warptour (through `sh -c wrap` when given: $0 is warptour, $1...
    its args) on `ranks` ranks ("4" oversubscribes); returns (returncode,
    stdout, stderr, seconds after signal_after's SIGTERM, or in all)."""
    cmd = [MPIEXEC, "-np", str(ranks)]
    if ranks > 2:
        cmd.append("--oversubscribe")
    cmd += ["sh", "-c", wrap, WARPTOUR, *args] if wrap else [WARPTOUR, *args]
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         env=ENV, start_new_session=True)
    t0 = time.monotonic()
    if signal_after is not None:
        time.sleep(signal_after)
        t0 = time.monotonic()
        p.send_signal(signal.SIGTERM)
    try:
        out, err = p.communicate(timeout=HANG_S)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        p.communicate()
        raise AssertionError(f"{' '.join(cmd)}: no end within {HANG_S} s (a hang)")
    return p.returncode, out, err, time.monotonic() - t0


def alone(*args):
    r = subprocess.run([WARPTOUR, *args], capture_output=True, text=True, timeout=HANG_S)
    return r.returncode, r.stdout, r.stderr


class Batches(unittest.TestCase):
    ARGS = ("solve-batch", "--gen-uniform", "60", "--count", "7", "--kicks", "300", "--seed",
            "5", "--threads", "1", "--json", "--json-tours")

    def test_ranks_give_one_process_tours(self):
        rc, out, err = alone(*self.ARGS)
        self.assertEqual(rc, 0, err)
        one = json.loads(out)
        for ranks in (2, 4):
            with self.subTest(ranks=ranks):
                rc, out, err, _ = mpirun(ranks, *self.ARGS)
                self.assertEqual(rc, 0, err)
                many = json.loads(out)  # one JSON object: rank 0 alone prints
                self.assertEqual([i["tour"] for i in many["instances"]],
                                 [i["tour"] for i in one["instances"]])
                self.assertEqual(many["kicks"], one["kicks"])
                self.assertTrue(many["device"].startswith(f"{ranks} ranks: "), many["device"])

    def test_rank_0_writes_the_tours(self):
        with tempfile.TemporaryDirectory() as tmp:
            out_dir = os.path.join(tmp, "tours")
            # br17 (an ATSP: refused by batches) is rank 0's second
            # instance, the batch's third: its message numbers it so.
            rc, _, err, _ = mpirun(2, "solve-batch", os.path.join(DATA, "berlin52.tsp"),
                                   os.path.join(DATA, "att48.tsp"),
                                   os.path.join(DATA, "atsp", "br17.atsp"), "--kicks", "200",
                                   "--output", out_dir, "--quiet")
            self.assertEqual(rc, 3, err)
            self.assertIn("instance 2 (br17): an asymmetric instance", err)
            self.assertEqual(sorted(os.listdir(out_dir)), ["att48.tour", "berlin52.tour"])


class OneInstance(unittest.TestCase):
    """`solve` of one instance under mpirun."""
    INST = os.path.join(DATA, "a280.tsp")

    def solve(self, ranks, *args, **kw):
        tmp = tempfile.TemporaryDirectory()
        self.addCleanup(tmp.cleanup)
        tour = os.path.join(tmp.name, "a280.tour")
        rc, out, err, secs = mpirun(ranks, "solve", self.INST, "--output", tour, "--json",
                                    "--threads", "1", *args, **kw)
        return rc, out, err, secs, tour

    def check(self, tour):
        rc, out, err = alone("check", self.INST, tour, "--json")
        self.assertEqual(rc, 0, err)
        return json.loads(out)["length"]


class Islands(OneInstance):
    def test_kick_budget_valid_exact_and_repeats(self):
        for ranks in (2, 4):
            with self.subTest(ranks=ranks):
                lengths = []
                for _ in range(2):
                    rc, out, err, _, tour = self.solve(ranks, "--kicks", "200", "--seed", "3")
                    self.assertEqual(rc, 0, err)
                    res = json.loads(out)
                    self.assertEqual(self.check(tour), res["length"])
                    self.assertEqual(res["kicks"], 200 * ranks)
                    # auto, below WT_MPI_PARTS_CITIES
                    self.assertTrue(res["device"].startswith(f"{ranks} ranks, islands: "))
                    lengths.append(res["length"])
                self.assertEqual(lengths[0], lengths[1])

    def test_time_limit_honoured(self):
        rc, out, err, secs, tour = self.solve(2, "--time-limit", "1.5")
        self.assertIn(rc, (0, 5), err)
        res = json.loads(out)
        self.assertLessEqual(res["time_s"], 3.0)  # not a further epoch (1 s)
        self.assertLess(secs, 10)  # mpirun's start and end included
        self.assertEqual(self.check(tour), res["length"])

    def test_sigterm_stops_every_rank_and_writes_the_tour(self):
        rc, out, err, after, tour = self.solve(2, "--time-limit", "50", signal_after=2.0)
        # mpirun passes SIGTERM on to every rank and ends with its own status.
        self.assertNotEqual(rc, 0)
        self.assertLess(after, 10)
        self.assertEqual(json.loads(out)["stop"], "interrupted")
        self.check(tour)

    def test_other_algorithms_refused(self):
        rc, _, err, _, _ = self.solve(2, "--algorithm", "2opt")
        self.assertEqual(rc, 3, err)
        self.assertIn("searches over MPI ranks run ils", err)


class SharedMachine(unittest.TestCase):
    """Ranks on one machine split its cores (warptour_mpi.h, "One machine,
    several ranks"): all cores asked for, each of P ranks takes cores / P
    threads; a thread count given is kept."""
    INST = os.path.join(DATA, "a280.tsp")

    def device(self, *args):
        rc, out, err, _ = mpirun(2, "solve", self.INST, "--kicks", "50", "--json", *args)
        self.assertEqual(rc, 0, err)
        return json.loads(out)["device"]

    def test_cores_split_between_the_ranks(self):
        each = max(1, (os.cpu_count() or 1) // 2)
        plural = "thread" if each == 1 else "threads"
        self.assertIn(f" {each} {plural},", self.device())

    def test_threads_given_are_kept(self):
        self.assertIn(" 3 threads,", self.device("--threads", "3"))


class Parts(OneInstance):
    """The parts mode: each rank searches a path of the tour with its ends
    fixed, the root splices them back."""

    def test_kick_budget_valid_exact_repeats(self):
        tours = {}
        for ranks, run in ((2, 0), (4, 0), (4, 1)):
            rc, out, err, _, tour = self.solve(ranks, "--mpi-mode", "parts", "--kicks", "200",
                                               "--seed", "3", "--json-tour")
            self.assertEqual(rc, 0, err)
            res = json.loads(out)
            self.assertTrue(res["device"].startswith(f"{ranks} ranks, parts: "))
            self.assertEqual(self.check(tour), res["length"])
            self.assertLessEqual(res["length"], res["init_length"])
            self.assertEqual(res["kicks"], 200 * ranks)
            tours[ranks, run] = res["tour"]
        self.assertEqual(tours[4, 0], tours[4, 1])

    def test_time_limit_honoured(self):
        rc, out, err, secs, tour = self.solve(4, "--mpi-mode", "parts", "--time-limit", "1.5",
                                              "--epoch", "0.3")
        self.assertIn(rc, (0, 5), err)
        res = json.loads(out)
        self.assertLessEqual(res["time_s"], 3.0)
        self.assertLess(secs, 12)
        self.assertEqual(self.check(tour), res["length"])
        self.assertLessEqual(res["length"], res["init_length"])  # a time limit promises no work


class Options(unittest.TestCase):
    INST = os.path.join(DATA, "berlin52.tsp")

    def test_one_process_refuses_them(self):
        for opt in (["--epoch", "2"], ["--epoch-kicks=5"], ["--mpi-mode", "parts"]):
            with self.subTest(opt=opt):
                rc, _, err = alone("solve", self.INST, *opt)
                self.assertEqual(rc, 2, err)
                self.assertIn("is for several MPI ranks", err)

    def test_bad_values(self):
        for opt, what in ((["--mpi-mode", "ring"], "--mpi-mode is 'islands', 'parts' or"),
                          (["--epoch", "-1"], "--epoch needs a positive number"),
                          (["--epoch-kicks", "x"], "--epoch-kicks needs a positive whole"),
                          (["--epoch"], "option '--epoch' needs a value")):
            with self.subTest(opt=opt):
                rc, _, err = alone("solve", self.INST, *opt)
                self.assertEqual(rc, 2, err)
                self.assertIn(what, err)

    def test_epochs_of_a_budget_that_has_none(self):
        # --epoch-kicks splits --kicks, --epoch a time limit without
        # --kicks: elsewhere they would do nothing, so are refused.
        for opt, what in ((["--time-limit", "1", "--epoch-kicks", "5"], "give --kicks too"),
                          (["--kicks", "20", "--epoch", "1"], "give --time-limit and no")):
            with self.subTest(opt=opt):
                rc, _, err, _ = mpirun(2, "solve", self.INST, *opt)
                self.assertEqual(rc, 2, err)
                self.assertIn(what, err)

    def test_epoch_kicks_set_the_meetings(self):
        # A quarter of --kicks is the default: the same run as without it.
        tours = []
        for extra in ((), ("--epoch-kicks", "50")):
            rc, out, err, _ = mpirun(2, "solve", self.INST, "--kicks", "200", "--seed", "4",
                                     "--threads", "1", "--json", "--json-tour", *extra)
            self.assertEqual(rc, 0, err)
            tours.append(json.loads(out)["tour"])
        self.assertEqual(tours[0], tours[1])

if __name__ == "__main__":
    WARPTOUR, MPIEXEC = sys.argv[1], sys.argv[2]
    unittest.main(argv=sys.argv[:1], verbosity=2)
