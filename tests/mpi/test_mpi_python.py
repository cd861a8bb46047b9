#!/usr/bin/env python3
"""The Python package's MPI entry (docs/mpi.md, "From Python"):
warptour.solve_file(..., comm=MPI.COMM_WORLD) under `mpirun -np 2` gives
rank 0 the tour that `mpirun -np 2 warptour solve` gives for the same kick
budget and seed, valid and of its exact length, and the other rank None;
warptour.solve_batch(..., comm=) gives rank 0 the tours (and failures) of
one process's solve_batch for the same seed and kicks, the other None;
a rank that fails before the search (a file it lacks) raises its error and
the others raise it too, naming the rank, instead of waiting for it;
in the parts mode, rank 0's progress callback sees best lengths that
never increase and end at the result's.

Registered only in a build with MPI and the Python module
(tests/python/CMakeLists.txt); skipped (exit 77) where mpi4py cannot be
imported.  Each mpirun runs in a session of its own under a timeout, so a
hang fails the test.  Under the sanitizers, LD_PRELOAD (the sanitizer
runtimes) goes to the ranks through mpirun's -x, not to mpirun itself.

Usage: test_mpi_python.py PATH/TO/warptour MPIEXEC   (PYTHONPATH: the module)
"""
import json
import os
import signal
import subprocess
import sys
import tempfile
import unittest

WARPTOUR = None
MPIEXEC = None
DATA = os.environ.get("WT_TEST_DATA", os.path.join(os.path.dirname(__file__), "..", "data"))
HANG_S = 60
INST = os.path.join(DATA, "a280.tsp")

# Every rank: solve with comm, rank 0 writes the tour and the figures to
# argv[2], every rank whether it got None to argv[2].rankR.
RANK_SCRIPT = """
import json, sys
from mpi4py import MPI
import warptour
comm = MPI.COMM_WORLD
r = warptour.solve_file(sys.argv[1], kicks=200, seed=3, threads=1, comm=comm)
with open(f"{sys.argv[2]}.rank{comm.Get_rank()}", "w") as f:
    f.write("none" if r is None else "result")
if r is not None:
    with open(sys.argv[2], "w") as f:
        json.dump({"tour": [int(c) for c in r.tour], "length": int(r.length),
                   "kicks": int(r.kicks), "device": r.device}, f)
"""

# solve_batch: every rank the same points (instance 3 has a NaN), rank 0
# the tours and failures to argv[1], every rank whether it got None to
# argv[1].rankR; without MPI in argv (one process), the same to argv[1].
BATCH_SCRIPT = """
import json, sys
import numpy as np
import warptour
pts = np.random.default_rng(5).random((7, 40, 2))
pts[3, 2, 0] = np.nan
comm = None
if "mpi" in sys.argv:
    from mpi4py import MPI
    comm = MPI.COMM_WORLD
r = warptour.solve_batch(pts, kicks=60, seed=4, threads=1, comm=comm)
if comm is not None:
    with open(f"{sys.argv[1]}.rank{comm.Get_rank()}", "w") as f:
        f.write("none" if r is None else "result")
if r is not None:
    with open(sys.argv[1], "w") as f:
        json.dump({"tours": r.tours.tolist(), "lengths": r.lengths_units.tolist(),
                   "errors": {str(k): v for k, v in r.errors.items()},
                   "kicks": r.kicks.tolist(), "device": r.device}, f)
if comm is not None:  # faults: what each rank raises, to argv[1].faultsR
    faults = []
    # An instance file that rank 1 lacks: every rank raises, none waits.
    inst = sys.argv[3] if comm.Get_rank() == 0 else sys.argv[3] + ".absent"
    for call in (lambda: warptour.solve_file(inst, kicks=1, threads=1, comm=comm),
                 lambda: warptour.solve_batch(pts, kicks=1, devices=[0, 0], comm=comm)):
        try:
            call()
            faults.append("no exception")
        except Exception as e:
            faults.append(f"{type(e).__name__}: {e}")
    with open(f"{sys.argv[1]}.faults{comm.Get_rank()}", "w") as f:
        json.dump(faults, f)
"""

# The parts mode with a progress callback: rank 0's best lengths (0, the
# ticker's before the library's first report, left out) and the result's.
PARTS_SCRIPT = """
import json, sys
from mpi4py import MPI
import warptour
seen = []
r = warptour.solve_file(sys.argv[1], kicks=400, seed=2, threads=1, comm=MPI.COMM_WORLD,
                        mpi_mode="parts", progress=lambda p: seen.append(p["best_length"]),
                        progress_interval=1e-6)
if r is not None:
    with open(sys.argv[2], "w") as f:
        json.dump({"seen": [b for b in seen if b > 0], "length": int(r.length)}, f)
"""


def mpirun(*cmd):
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    pre = []
    for name in ("LD_PRELOAD", "ASAN_OPTIONS", "UBSAN_OPTIONS"):
        if name in env:  # the ranks' (the sanitizer runtimes), not mpirun's
            pre += ["-x", f"{name}={env.pop(name)}"]
    full = [MPIEXEC, "-np", "2", "-x", "PYTHONPATH", *pre, *cmd]
    p = subprocess.Popen(full, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         env=env, start_new_session=True)
    try:
        out, err = p.communicate(timeout=HANG_S)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        p.communicate()
        raise AssertionError(f"{' '.join(full)}: no end within {HANG_S} s (a hang)")
    return p.returncode, out, err


class PythonComm(unittest.TestCase):
    def test_same_tour_as_the_cli(self):
        with tempfile.TemporaryDirectory() as tmp:
            got = os.path.join(tmp, "py.json")
            rc, _, err = mpirun(sys.executable, "-c", RANK_SCRIPT, INST, got)
            self.assertEqual(rc, 0, err)
            with open(got) as f:
                py = json.load(f)
            for rank, what in ((0, "result"), (1, "none")):
                with open(f"{got}.rank{rank}") as f:
                    self.assertEqual(f.read(), what)
            tour = os.path.join(tmp, "cli.tour")
            rc, out, err = mpirun(WARPTOUR, "solve", INST, "--kicks", "200", "--seed", "3",
                                  "--threads", "1", "--json", "--json-tour", "--output", tour)
            self.assertEqual(rc, 0, err)
            cli = json.loads(out)
            self.assertEqual(py["tour"], [c - 1 for c in cli["tour"]])
            self.assertEqual((py["length"], py["kicks"]), (cli["length"], cli["kicks"]))
            self.assertEqual(py["kicks"], 400)
            self.assertTrue(py["device"].startswith("2 ranks, "), py["device"])
            r = subprocess.run([WARPTOUR, "check", INST, tour, "--json"], capture_output=True,
                               text=True, timeout=HANG_S)
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertEqual(json.loads(r.stdout)["length"], py["length"])

    def test_batch_same_tours_as_one_process(self):
        with tempfile.TemporaryDirectory() as tmp:
            got = os.path.join(tmp, "mpi.json")
            rc, _, err = mpirun(sys.executable, "-c", BATCH_SCRIPT, got, "mpi", INST)
            self.assertEqual(rc, 0, err)
            for rank, what in ((0, "result"), (1, "none")):
                with open(f"{got}.rank{rank}") as f:
                    self.assertEqual(f.read(), what)
            # A rank's own failure before the search: it raises its own
            # error, the others "rank R of P: " and that error (once).
            faults = []
            for rank in (0, 1):
                with open(f"{got}.faults{rank}") as f:
                    faults.append(json.load(f))
            absent = f"{INST}.absent: cannot open"
            self.assertTrue(faults[1][0].startswith(f"OSError: {absent}"), faults[1][0])
            self.assertTrue(faults[0][0].startswith(f"OSError: rank 1 of 2: {absent}"),
                            faults[0][0])
            for rank in (0, 1):
                self.assertTrue(faults[rank][1].startswith("ValueError: rank 0 of 2: "
                                                           "wt_solve_batch: params.devices"),
                                faults[rank][1])
            one = os.path.join(tmp, "one.json")
            r = subprocess.run([sys.executable, "-c", BATCH_SCRIPT, one], capture_output=True,
                               text=True, timeout=HANG_S)
            self.assertEqual(r.returncode, 0, r.stderr)
            with open(got) as f:
                mpi = json.load(f)
            with open(one) as f:
                alone = json.load(f)
            self.assertTrue(mpi["device"].startswith("2 ranks: "), mpi["device"])
            self.assertEqual(list(mpi["errors"]), ["3"])
            for key in ("tours", "lengths", "errors", "kicks"):
                self.assertEqual(mpi[key], alone[key], key)

    def test_parts_progress_never_rises_and_ends_at_the_result(self):
        with tempfile.TemporaryDirectory() as tmp:
            got = os.path.join(tmp, "parts.json")
            rc, _, err = mpirun(sys.executable, "-c", PARTS_SCRIPT, INST, got)
            self.assertEqual(rc, 0, err)
            with open(got) as f:
                d = json.load(f)
            seen = d["seen"]
            self.assertGreater(len(seen), 2)
            rises = [(a, b) for a, b in zip(seen, seen[1:]) if b > a]
            self.assertEqual(rises, [])
            self.assertEqual(seen[-1], d["length"])


if __name__ == "__main__":
    WARPTOUR, MPIEXEC = sys.argv[1], sys.argv[2]
    del sys.argv[1:3]
    try:
        import mpi4py  # noqa: F401  (the ranks import it; here only whether they can)
    except ImportError:
        print("mpi4py is not installed (scripts/install-deps.sh installs it): skipped")
        sys.exit(77)
    unittest.main()
