#!/usr/bin/env python3
"""bench_peers.py: warptour beside the Python TSP packages a user would try
instead (issue 23): elkai, fast-tsp and python-tsp from the package index.

What it measures.  For each n of --sizes (default 1000,10000,100000), n
uniform random points in the unit square (numpy default_rng(--seed), float64),
and each solver, the call a user would write:

  warptour       warptour.solve(points, time_limit=T)            (all cores)
  warptour-1t    warptour.solve(points, time_limit=T, threads=1) (one core,
                 as the peers, which are single-threaded as called here)
  fast-tsp       fast_tsp.find_tour(M, duration_seconds=T)
                 M: the n x n matrix of distances * S rounded to uint16,
                 S = floor(65535 / the points' bounding-box diagonal):
                 fast-tsp takes integers up to 65,535 only
  python-tsp-ls  solve_tsp_local_search(D, max_processing_time=T)
  python-tsp-sa  solve_tsp_simulated_annealing(D, max_processing_time=T)
                 D: python_tsp.distances.euclidean_distance_matrix(points),
                 float64 n x n
  elkai          elkai.Coordinates2D({i: (x*1e6, y*1e6)}).solve_tsp(runs=R)
                 (LKH-3 with EUC_2D, i.e. distances rounded to integers,
                 hence the 1e6 scale; R = --elkai-runs, default 1, the least)
  warptour@elkai warptour.solve(points, time_limit=<elkai's time>)

Fairness.  Every solver with a time limit (warptour, fast-tsp, python-tsp's
heuristics) gets the same budget T per size (--budgets, default 1000:5,
10000:20, 100000:60 seconds).  elkai has no time limit, only `runs`, so it
runs with R runs and warptour then gets elkai's measured time
(warptour@elkai).  time_s is the wall time of the solver call alone; the time
to build the matrix a peer needs is reported apart (prep_s), because a user
pays it too but it is not the solver's search.  The tour's length is computed
here from the returned order, in float64 from the original points, with the
same function for every solver (elkai's closing repeat of the first city is
dropped first); valid=yes when the order is a permutation of 0..n-1.

Each run is a forked child process (one at a time, never two at once), so a
run that goes past --cap seconds (default 300) is killed and reported, and
its memory is returned.  A peer is not run where its dense matrix would take
more than half of the machine's available memory (the line says how much),
and elkai (no time limit) is not run above --elkai-max-n (default 20000).
python-tsp's Lin-Kernighan (no time limit either) runs only with
--with-pytsp-lk, up to 2000 points.

Output: a header (machine, warptour version and commit, the command), one
`bench=py-peers solver=... n=... time_s=... length=... valid=...` line per
run, `# note:` lines for what was not run, then a table.  The machine's other
load shows in these times.  Nothing passes or fails.

Run (from the repository root, with warptour and the peers installed):

    python3 -m venv /tmp/pyb && /tmp/pyb/bin/pip install . elkai fast-tsp python-tsp
    /tmp/pyb/bin/python bench/python/bench_peers.py --sizes 1000,10000
    /tmp/pyb/bin/python bench/python/bench_peers.py --sizes 1000 --budgets 1000:2 \
        --solvers warptour,fast-tsp
"""

import argparse
import math
import multiprocessing as mp
import os
import platform
import shlex
import subprocess
import sys
import time

import numpy as np

SOLVERS = ["warptour", "warptour-1t", "fast-tsp", "python-tsp-ls", "python-tsp-sa", "elkai",
           "warptour@elkai", "python-tsp-lk"]
DEFAULT_BUDGETS = {1000: 5.0, 10000: 20.0, 100000: 60.0}


def points_for(n, seed):
    return np.random.default_rng(seed).random((n, 2))


def tour_length(points, order):
    """The closed tour's Euclidean length in float64 (the same for all)."""
    p = points[order]
    d = p - np.roll(p, -1, axis=0)
    return float(np.sqrt((d * d).sum(axis=1)).sum())


def normalize(order, n):
    """An int64 array of the order, elkai's closing repeat dropped; and valid."""
    t = np.asarray(order, dtype=np.int64).ravel()
    if len(t) == n + 1 and t[0] == t[-1]:
        t = t[:-1]
    valid = len(t) == n and bool(np.array_equal(np.sort(t), np.arange(n)))
    return t, valid


def mem_available():
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return None


def gb(b):
    return f"{b / 1e9:.1f} GB"


def euclid_blocks(points, out, scale=None, block=2048):
    """Fills out (n x n) with the distances (times scale, rounded, when given),
    a block of rows at a time."""
    n = len(points)
    for i in range(0, n, block):
        d = points[i:i + block, None, :] - points[None, :, :]
        d = np.sqrt((d * d).sum(axis=2))
        if scale is not None:
            d = np.rint(d * scale)
        out[i:i + block] = d
    return out


# --- the solvers: each returns (order, prep_s, time_s, extra) ---

def run_warptour(points, T, threads=None):
    import warptour
    t0 = time.perf_counter()
    r = warptour.solve(points, time_limit=T, threads=threads)
    t = time.perf_counter() - t0
    return r.tour, 0.0, t, {"reported_length": r.length, "stop": r.stats.get("stop")}


def fast_tsp_scale(points):
    diag = float(np.hypot(*(points.max(axis=0) - points.min(axis=0))))
    return math.floor(65535 / diag)


def run_fast_tsp(points, T):
    import fast_tsp
    n = len(points)
    t0 = time.perf_counter()
    scale = fast_tsp_scale(points)
    m = euclid_blocks(points, np.empty((n, n), dtype=np.uint16), scale=scale)
    prep = time.perf_counter() - t0
    t0 = time.perf_counter()
    order = fast_tsp.find_tour(m, duration_seconds=T)
    t = time.perf_counter() - t0
    return order, prep, t, {"scale": scale}


def pytsp_matrix(points):
    from python_tsp.distances import euclidean_distance_matrix
    return euclidean_distance_matrix(points)


def run_pytsp(points, T, kind, seed):
    from python_tsp import heuristics
    np.random.seed(seed)  # python-tsp's random start tour
    t0 = time.perf_counter()
    d = pytsp_matrix(points)
    prep = time.perf_counter() - t0
    t0 = time.perf_counter()
    if kind == "ls":
        order, _ = heuristics.solve_tsp_local_search(d, max_processing_time=T)
    elif kind == "sa":
        order, _ = heuristics.solve_tsp_simulated_annealing(d, max_processing_time=T)
    else:
        order, _ = heuristics.solve_tsp_lin_kernighan(d)
    t = time.perf_counter() - t0
    return order, prep, t, {}


def run_elkai(points, runs):
    import elkai
    t0 = time.perf_counter()
    coords = elkai.Coordinates2D({i: (float(x) * 1e6, float(y) * 1e6)
                                  for i, (x, y) in enumerate(points)})
    prep = time.perf_counter() - t0
    t0 = time.perf_counter()
    order = coords.solve_tsp(runs=runs)
    t = time.perf_counter() - t0
    return order, prep, t, {"runs": runs}


def child(conn, fn, args):
    try:
        order, prep, t, extra = fn(*args)
        conn.send(("ok", np.asarray(order, dtype=np.int64), prep, t, extra))
    except BaseException as e:  # report, whatever it is
        conn.send(("error", f"{type(e).__name__}: {e}", 0.0, 0.0, {}))
    conn.close()


def run_isolated(fn, args, cap):
    """Runs fn(*args) in a forked child; (status, order|message, prep, t, extra, wall)."""
    ctx = mp.get_context("fork")
    a, b = ctx.Pipe(duplex=False)
    p = ctx.Process(target=child, args=(b, fn, args))
    t0 = time.perf_counter()
    p.start()
    b.close()
    msg = None
    if a.poll(cap):
        try:
            msg = a.recv()
        except EOFError:
            msg = None
    wall = time.perf_counter() - t0
    if msg is None:
        if p.is_alive():
            p.kill()
            p.join()
            return ("cap", f"stopped by the bench after {cap:g} s", 0.0, wall, {}, wall)
        p.join()
        return ("error", f"child exited with code {p.exitcode} (killed for memory?)", 0.0, wall,
                {}, wall)
    p.join()
    return msg + (wall,)


def machine():
    cpu = platform.processor() or "?"
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    mem = mem_available()
    return (f"{cpu}, {os.cpu_count()} cores, {gb(mem) if mem else '?'} available, "
            f"{platform.system()} {platform.release()}, Python {platform.python_version()}")


def git_describe():
    here = os.path.dirname(os.path.abspath(__file__))
    try:
        return subprocess.run(["git", "describe", "--always", "--dirty", "--tags"], cwd=here,
                              capture_output=True, text=True, timeout=20).stdout.strip() or "?"
    except (OSError, subprocess.SubprocessError):
        return "?"


def versions():
    out = []
    for mod, name in (("warptour", "warptour"), ("fast_tsp", "fast-tsp"), ("elkai", "elkai"),
                      ("python_tsp", "python-tsp")):
        try:
            from importlib import metadata
            out.append(f"{name} {metadata.version(name)}")
        except Exception:
            out.append(f"{name} not installed")
    return ", ".join(out)


def parse_budgets(s):
    b = dict(DEFAULT_BUDGETS)
    if s:
        for item in s.split(","):
            k, v = item.split(":")
            b[int(k)] = float(v)
    return b


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", default="1000,10000,100000")
    ap.add_argument("--budgets", default="",
                    help="n:seconds,... (default 1000:5,10000:20,100000:60; other n: 0.002 n s)")
    ap.add_argument("--solvers", default=",".join(s for s in SOLVERS if s != "python-tsp-lk"),
                    help="comma list of " + ",".join(SOLVERS))
    ap.add_argument("--with-pytsp-lk", action="store_true",
                    help="also python-tsp's Lin-Kernighan (no time limit), up to 2000 points")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--elkai-runs", type=int, default=1)
    ap.add_argument("--elkai-max-n", type=int, default=20000)
    ap.add_argument("--cap", type=float, default=300.0,
                    help="seconds after which a run is stopped (default 300)")
    args = ap.parse_args()

    sizes = [int(x) for x in args.sizes.split(",") if x]
    budgets = parse_budgets(args.budgets)
    solvers = [s for s in args.solvers.split(",") if s]
    if args.with_pytsp_lk and "python-tsp-lk" not in solvers:
        solvers.append("python-tsp-lk")
    for s in solvers:
        if s not in SOLVERS:
            ap.error(f"unknown solver {s}")

    print(f"# bench py-peers, warptour commit {git_describe()}")
    print(f"# machine: {machine()}")
    print(f"# packages: {versions()}")
    try:
        import warptour
        print(f"# warptour module: {warptour.__file__} (the commit above is the checkout's)")
    except ImportError:
        print("# warptour module: not importable")
    print("# command: " + " ".join(shlex.quote(a) for a in [sys.executable] + sys.argv))
    print(f"# points: uniform in the unit square, numpy default_rng({args.seed}); "
          "length: float64 Euclidean, computed here from the returned order")
    print("# the machine's other load shows in these times", flush=True)

    rows = []
    for n in sizes:
        T = budgets.get(n, 0.002 * n)
        pts = points_for(n, args.seed)
        avail = mem_available() or 0
        elkai_time = None
        print(f"# n={n}: budget T={T:g} s", flush=True)
        for s in solvers:
            if s == "warptour@elkai" and "elkai" not in solvers:
                continue
            note = None
            if s == "fast-tsp" and 2 * n * n > avail / 2:
                note = (f"n x n uint16 matrix of {n:,}^2 = {gb(2 * n * n)}, more than half of "
                        f"the {gb(avail)} available")
            elif s.startswith("python-tsp") and 8 * n * n > avail / 2:
                note = (f"n x n matrix of {n:,}^2 doubles = {gb(8 * n * n)}, more than half of "
                        f"the {gb(avail)} available")
            elif s == "python-tsp-lk" and n > 2000:
                note = "python-tsp's Lin-Kernighan has no time limit; run up to 2000 points only"
            elif s == "elkai" and n > args.elkai_max_n:
                note = (f"elkai has no time limit (runs={args.elkai_runs}) and LKH's O(n^2) "
                        f"preprocessing; run up to --elkai-max-n {args.elkai_max_n}")
            elif s == "warptour@elkai" and elkai_time is None:
                note = "elkai gave no time to match"
            if note:
                print(f"# note: solver={s} n={n} not run: {note}", flush=True)
                rows.append((s, n, None, None, None, None, "not run"))
                continue

            if s == "warptour":
                fn, fargs, budget = run_warptour, (pts, T), T
            elif s == "warptour-1t":
                fn, fargs, budget = run_warptour, (pts, T, 1), T
            elif s == "warptour@elkai":
                fn, fargs, budget = run_warptour, (pts, elkai_time), elkai_time
            elif s == "fast-tsp":
                fn, fargs, budget = run_fast_tsp, (pts, T), T
            elif s == "python-tsp-ls":
                fn, fargs, budget = run_pytsp, (pts, T, "ls", args.seed), T
            elif s == "python-tsp-sa":
                fn, fargs, budget = run_pytsp, (pts, T, "sa", args.seed), T
            elif s == "python-tsp-lk":
                fn, fargs, budget = run_pytsp, (pts, None, "lk", args.seed), None
            else:
                fn, fargs, budget = run_elkai, (pts, args.elkai_runs), None

            status, res, prep, t, extra, wall = run_isolated(fn, fargs, args.cap)
            bstr = "none" if budget is None else f"{budget:.3f}"
            if status != "ok":
                print(f"bench=py-peers solver={s} n={n} budget_s={bstr} status={status} "
                      f"wall_s={wall:.3f} message={res!r}", flush=True)
                rows.append((s, n, budget, None, None, None, res))
                continue
            order, valid = normalize(res, n)
            length = tour_length(pts, order) if valid else float("nan")
            if s == "elkai":
                elkai_time = t
            ext = " ".join(f"{k}={v}" for k, v in extra.items())
            print(f"bench=py-peers solver={s} n={n} budget_s={bstr} time_s={t:.3f} "
                  f"prep_s={prep:.3f} length={length:.6f} valid={'yes' if valid else 'no'} "
                  f"{ext}".rstrip(), flush=True)
            rows.append((s, n, budget, t, prep, length, "yes" if valid else "no"))

    # the table: length relative to warptour's at the same budget
    print()
    print("# table: time_s = the solver call; prep_s = building its input; "
          "ratio = length / warptour's length at the same budget")
    print(f"{'n':>7} {'solver':<15} {'budget_s':>9} {'time_s':>9} {'prep_s':>8} "
          f"{'length':>12} {'ratio':>7}  valid")
    ref = {}
    for s, n, budget, t, prep, length, v in rows:
        if s == "warptour" and length is not None:
            ref[n] = length
        if s == "warptour@elkai" and length is not None:
            ref[(n, "elkai")] = length
    for s, n, budget, t, prep, length, v in rows:
        if length is None:
            print(f"{n:>7} {s:<15} {'-' if budget is None else f'{budget:.2f}':>9} "
                  f"{'-':>9} {'-':>8} {'-':>12} {'-':>7}  {v}")
            continue
        r = ref.get((n, "elkai")) if s == "elkai" else ref.get(n)
        ratio = f"{length / r:.4f}" if r else "-"
        print(f"{n:>7} {s:<15} {'-' if budget is None else f'{budget:.2f}':>9} {t:>9.3f} "
              f"{prep:>8.3f} {length:>12.4f} {ratio:>7}  {v}")
    print("# ratio: elkai against warptour@elkai (same time), the others against warptour "
          "(same budget T)")


if __name__ == "__main__":
    main()
