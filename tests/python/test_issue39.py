"""Issue 39's Python faults: Ctrl-C and progress while a million points get
their start tour and first descent (once seconds late: the library called
back only between search steps), solve_matrix checking a matrix's size
before its float64 copy, and arguments refused by name (complex values,
non-integer seeds, threads beyond an int).  Runs against the module the
build puts in <build>/python (PYTHONPATH, set by ctest)."""
import os
import selectors
import signal
import subprocess
import sys
import time

import numpy as np
import pytest

import warptour

# The child solves a million random points from the greedy start tour on two
# threads (about 5 s to the start tour on a loaded two-core machine, before
# the first descent), printing a line a progress call, and "ki STOP N" with
# the result's stop reason and whether its tour is a permutation when
# KeyboardInterrupt comes.
CHILD = r"""
import signal, sys, time
import numpy as np, warptour
signal.signal(signal.SIGINT, signal.default_int_handler)
pts = np.random.default_rng(1).random((1_000_000, 2))
t0 = time.monotonic()
print("ready", flush=True)
def cb(info):
    print("progress %.3f" % (time.monotonic() - t0), flush=True)
try:
    r = warptour.solve(pts, init="greedy", algorithm="ils", threads=2, time_limit=60,
                       progress=cb, progress_interval=0.1)
    print("done", r.stop, flush=True)
except KeyboardInterrupt as e:
    r = e.result
    ok = np.array_equal(np.sort(r.tour), np.arange(len(pts)))
    print("ki", r.stop, int(ok), flush=True)
"""

# Once seconds late; a loose bound for a loaded machine.
SIGINT_BOUND_S = 2.0


def lines_until(proc, word, timeout):
    """The child's lines, each with the time it was read, up to and with the
    first that starts with word (or all until timeout or the end)."""
    sel = selectors.DefaultSelector()
    sel.register(proc.stdout, selectors.EVENT_READ)
    got, end = [], time.monotonic() + timeout
    while time.monotonic() < end:
        if not sel.select(timeout=end - time.monotonic()):
            break
        line = proc.stdout.readline()
        if not line:
            break
        got.append((time.monotonic(), line.split()))
        if got[-1][1] and got[-1][1][0] == word:
            break
    sel.close()
    return got


def test_ctrl_c_and_progress_during_the_start_tour_of_a_million_points():
    proc = subprocess.Popen([sys.executable, "-c", CHILD], stdout=subprocess.PIPE, text=True,
                            env=dict(os.environ))
    try:
        assert lines_until(proc, "ready", 120)[-1][1] == ["ready"]
        # The greedy start tour's candidate edges and their sort, which the
        # library once did not poll.
        before = lines_until(proc, "never", 1.5)
        sent = time.monotonic()
        proc.send_signal(signal.SIGINT)
        after = lines_until(proc, "ki", 60)
        proc.wait(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert after and after[-1][1][0] == "ki", after[-5:]
    assert after[-1][1][1:] == ["interrupted", "1"]  # a valid tour comes back
    assert after[-1][0] - sent < SIGINT_BOUND_S
    # Progress about every 0.1 s before any tour exists (once: none in 8 s).
    assert sum(1 for _, w in before if w[0] == "progress") >= 5


def test_progress_before_the_start_tour_can_stop_it():
    calls = []

    def cb(info):
        calls.append(info)
        return True

    pts = np.random.default_rng(2).random((400_000, 2))
    r = warptour.solve(pts, init="greedy", threads=2, time_limit=60, progress=cb,
                       progress_interval=0.02)
    assert r.stop == "interrupted"
    assert np.array_equal(np.sort(r.tour), np.arange(len(pts)))
    assert calls and calls[0]["elapsed_s"] > 0


def test_complex_input_refused_by_name():
    pts = np.random.default_rng(3).random((20, 2)) + 1j
    with pytest.raises(TypeError, match="points"):
        warptour.solve(pts)
    with pytest.raises(TypeError, match="points"):
        warptour.solve([[0, 0], [1, 1j], [2, 0]])
    with pytest.raises(TypeError, match="d "):
        warptour.solve_matrix(np.ones((4, 4), dtype=complex))
    with pytest.raises(TypeError, match="points"):
        warptour.solve_batch(np.ones((2, 5, 2), dtype=complex))
    with pytest.raises(TypeError, match="time_limit"):
        warptour.solve(np.random.default_rng(3).random((20, 2)), time_limit=1 + 0j)


def test_seed_and_threads_must_be_integers_in_range():
    pts = np.random.default_rng(4).random((20, 2))
    with pytest.raises(TypeError, match="seed"):
        warptour.solve(pts, seed=1.5)
    with pytest.raises(TypeError, match="seed"):
        warptour.solve(pts, seed=1.0)
    with pytest.raises(TypeError, match="threads"):
        warptour.solve(pts, threads=2.5)
    with pytest.raises(ValueError, match="threads"):
        warptour.solve(pts, threads=2**40)
    with pytest.raises(ValueError, match="seed"):
        warptour.solve(pts, seed=2**64)
    with pytest.raises(ValueError, match="seed"):
        warptour.solve_batch(np.ones((1, 5, 2)), seed=-1)
    # NumPy integers are integers.
    a = warptour.solve(pts, seed=np.uint64(7), threads=np.int32(1))
    b = warptour.solve(pts, seed=7, threads=1)
    assert np.array_equal(a.tour, b.tour)


def test_matrix_too_large_refused_before_any_copy():
    # A float32 view of 46341^2 entries that holds one number: the float64
    # copy that came before the size check needed 16 GiB and 73 s.
    d = np.broadcast_to(np.float32(1), (46341, 46341))
    t0 = time.monotonic()
    with pytest.raises(ValueError, match="46340"):
        warptour.solve_matrix(d)
    assert time.monotonic() - t0 < 1.0


def test_matrix_diagonal_ignored():
    pts = np.random.default_rng(5).random((12, 2)) * 100
    d = np.rint(np.linalg.norm(pts[:, None, :] - pts[None, :, :], axis=2))
    want = warptour.solve_matrix(d, threads=1)
    bad = d.copy()
    np.fill_diagonal(bad, np.nan)
    bad[3, 3] = -1
    bad[4, 4] = np.inf
    bad[5, 5] = 0.5  # would have made the matrix fixed point
    got = warptour.solve_matrix(bad, threads=1)
    assert got.length == want.length and np.array_equal(got.tour, want.tour)
    assert np.isnan(bad[0, 0])  # the caller's array is left as it was


def test_matrix_entries_above_int32_refused_as_documented():
    d = np.ones((4, 4)) * 2.0**31
    with pytest.raises(ValueError, match="2147483647"):
        warptour.solve_matrix(d)


# The child runs a batch of 200 x 1,000 random points on the CPU (500 kicks
# each: about 10 s on two idle cores) with the library's progress calls
# further apart than that: Ctrl-C can only stop it through the stop flag
# that the module's SIGINT handler sets (before, it was seen at the next
# progress call only: the batch ran to its end, "done", and KeyboardInterrupt
# came after it without the tours).
BATCH_CHILD = r"""
import signal, sys
import numpy as np, warptour
signal.signal(signal.SIGINT, signal.default_int_handler)
pts = np.random.default_rng(3).random((200, 1000, 2))
print("ready", flush=True)
try:
    r = warptour.solve_batch(pts, threads=2, backend="cpu", kicks=500, progress_interval=1000)
    print("done", r.stop, flush=True)
except KeyboardInterrupt as e:
    r = getattr(e, "result", None)
    if r is None:
        print("ki none 0", flush=True)
    else:
        ok = r.ok.all() and all(np.array_equal(np.sort(t), np.arange(1000)) for t in r.tours)
        print("ki", r.stop, int(ok), flush=True)
"""


def test_ctrl_c_stops_a_batch_and_returns_its_tours():
    proc = subprocess.Popen([sys.executable, "-c", BATCH_CHILD], stdout=subprocess.PIPE,
                            text=True, env=dict(os.environ))
    try:
        assert lines_until(proc, "ready", 120)[-1][1] == ["ready"]
        time.sleep(1.0)  # into the start tours or the searches
        proc.send_signal(signal.SIGINT)
        after = lines_until(proc, "ki", 300)
        proc.wait(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert after and after[-1][1][0] == "ki", after[-5:]
    # The batch stopped, and every instance has a tour (searched or its start).
    assert after[-1][1][1:] == ["interrupted", "1"]
