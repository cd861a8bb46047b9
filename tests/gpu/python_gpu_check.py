"""The Python package on a GPU, beside the CPU reference (run by hand or by
the GPU check script: PYTHONPATH=<build>/python python3 this-file DATA_DIR).

Needs numpy only (no pytest, which a GPU machine's image may lack).  Exit 77
(skipped) when the module has no usable GPU.  Checks, on TSPLIB files whose
exact lengths Python recomputes (EUC_2D: nint of the Euclidean distance):
  - 2opt on cuda gives the tour of 2opt on cpu (best improvement from the
    same start; the metric is exact in float at these coordinates);
  - ils on cuda and real-valued points on cuda give valid tours whose
    lengths are the recomputed ones, and ils honours a 1 s time limit.
"""
import math
import os
import sys
import time

import numpy as np

import warptour


def read_euc2d(path):
    pts, on = [], False
    with open(path) as f:
        for line in f:
            if line.startswith("NODE_COORD_SECTION"):
                on = True
            elif line.startswith("EOF"):
                break
            elif on and line.strip():
                _, x, y = line.split()[:3]
                pts.append((float(x), float(y)))
    return pts


def euc2d_length(pts, tour):
    n = len(tour)
    return sum(
        int(math.hypot(pts[tour[i]][0] - pts[tour[(i + 1) % n]][0],
                       pts[tour[i]][1] - pts[tour[(i + 1) % n]][1]) + 0.5)
        for i in range(n))


def check(cond, what):
    print(("ok    " if cond else "FAIL  ") + what)
    return cond


def main():
    data = sys.argv[1] if len(sys.argv) > 1 else "data"
    ok, why = warptour.cuda_available()
    print(f"warptour {warptour.__version__}, cuda_available: {ok} ({why})")
    if not ok:
        return 77
    good = True
    for name in ("berlin52", "a280"):
        path = os.path.join(data, name + ".tsp")
        pts = read_euc2d(path)
        n = len(pts)
        cpu = warptour.solve_file(path, algorithm="2opt", backend="cpu", seed=3)
        gpu = warptour.solve_file(path, algorithm="2opt", backend="cuda", seed=3)
        good &= check(gpu.backend == "cuda", f"{name}: 2opt ran on {gpu.backend}")
        good &= check(np.array_equal(cpu.tour, gpu.tour), f"{name}: 2opt cuda tour == cpu tour")
        good &= check(gpu.length == euc2d_length(pts, list(gpu.tour)),
                      f"{name}: 2opt cuda length {gpu.length} exact")
        t0 = time.time()
        ils = warptour.solve_file(path, algorithm="ils", backend="cuda", seed=1, time_limit=1)
        took = time.time() - t0
        good &= check(sorted(ils.tour.tolist()) == list(range(n)), f"{name}: ils cuda tour valid")
        good &= check(ils.length == euc2d_length(pts, list(ils.tour)),
                      f"{name}: ils cuda length {ils.length} exact (gap {ils.gap:.3f}%)")
        good &= check(took < 1.5, f"{name}: ils with time_limit=1 took {took:.2f} s")
    rng = np.random.default_rng(5)
    p = rng.random((3000, 2))
    r = warptour.solve(p, algorithm="2opt", backend="cuda", seed=1)
    c = warptour.solve(p, algorithm="2opt", backend="cpu", seed=1)
    good &= check(r.backend == "cuda" and sorted(r.tour.tolist()) == list(range(3000)),
                  "3000 real points: 2opt cuda tour valid")
    closed = np.vstack([p[r.tour], p[r.tour[:1]]])
    real = float(np.sum(np.hypot(*np.diff(closed, axis=0).T)))
    good &= check(abs(real - r.length) < 1e-6 * real,
                  f"3000 real points: length {r.length:.6f} == recomputed {real:.6f}")
    good &= check(np.array_equal(r.tour, c.tour), "3000 real points: 2opt cuda tour == cpu tour")
    return 0 if good else 1


if __name__ == "__main__":
    sys.exit(main())
