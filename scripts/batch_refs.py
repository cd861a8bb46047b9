#!/usr/bin/env python3
"""Reference lengths for `warptour-bench batch` (docs/batch.md).

The benchmark's sets are generated instances: instance i of the set of N
cities is what `warptour gen uniform N --seed 1+i` writes (name
uniform-N-s<1+i>).  This script computes, once, a best-known length for
each and writes them to a TSV file the benchmark reads:

    name<TAB>n<TAB>length<TAB>source

The length of an instance is the least of the runs asked for:
  - Concorde's linkern (chained Lin-Kernighan), --linkern PATH, one run per
    seed of --linkern-seeds with --linkern-kicks kicks (-R) and at most
    --linkern-seconds (-t).  linkern is a peer program used only to compute
    references; it is never shipped.
  - warptour's strongest search, `warptour solve` (ILS with Lin-Kernighan
    descents, one thread) for --solve-seconds seconds (0: skipped).
The file is appended to and instances already in it are skipped, so an
interrupted run resumes.  --jobs runs instances in parallel.

Usage:
  scripts/batch_refs.py --n 100 --count 10000 --out bench/batch/refs-100.tsv \\
      --linkern ../shared/peers/linkern --linkern-kicks 1000 --solve-seconds 0
  scripts/batch_refs.py --n 1000 --count 128 --out bench/batch/refs-1000.tsv \\
      --linkern ../shared/peers/linkern --linkern-seconds 8 --linkern-seeds 1,2 \\
      --solve-seconds 10
"""
import argparse
import concurrent.futures
import json
import os
import re
import subprocess
import sys
import tempfile


def linkern_length(linkern, path, seed, kicks, seconds):
    args = [linkern, "-Q", "-s", str(seed), "-R", str(kicks)]
    if seconds > 0:
        args += ["-t", str(seconds)]
    r = subprocess.run(args + [path], capture_output=True, text=True, timeout=3600)
    m = re.search(r"Final Cycle:\s*(\d+)", r.stdout + r.stderr)
    if not m:
        raise RuntimeError(f"linkern on {path}: no 'Final Cycle' in its output")
    return int(m.group(1))


def solve_length(warptour, path, seconds):
    r = subprocess.run([warptour, "solve", path, "--backend", "cpu", "--threads", "1",
                        "--time-limit", str(seconds), "--seed", "1", "--quiet", "--json"],
                       capture_output=True, text=True, timeout=3600)
    if r.returncode not in (0, 5):
        raise RuntimeError(f"warptour solve {path}: {r.stderr.strip()}")
    return json.loads(r.stdout)["length"]


def reference(a, tmp, i):
    """(name, length, source) of instance i."""
    seed = a.first_seed + i
    name = f"uniform-{a.n}-s{seed}"
    path = os.path.join(tmp, name + ".tsp")
    subprocess.run([a.warptour, "gen", "uniform", str(a.n), "--seed", str(seed), "--output", path],
                   check=True)
    runs = []
    if a.linkern:
        for s in a.linkern_seeds:
            runs.append((linkern_length(a.linkern, path, s, a.linkern_kicks, a.linkern_seconds),
                         f"linkern-s{s}"))
    if a.solve_seconds > 0:
        runs.append((solve_length(a.warptour, path, a.solve_seconds), "warptour-lk"))
    os.remove(path)
    length, source = min(runs)
    return name, length, source


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--n", type=int, required=True, help="cities an instance")
    p.add_argument("--count", type=int, required=True, help="instances")
    p.add_argument("--first-seed", type=int, default=1, help="seed of instance 0 (default 1)")
    p.add_argument("--out", required=True, help="the TSV file (appended to)")
    p.add_argument("--warptour", default="build/warptour", help="the warptour program")
    p.add_argument("--linkern", default=None, help="Concorde's linkern (none: not run)")
    p.add_argument("--linkern-kicks", type=int, default=1000000000, help="linkern -R")
    p.add_argument("--linkern-seconds", type=float, default=0, help="linkern -t (0: none)")
    p.add_argument("--linkern-seeds", default="1", help="comma-separated linkern seeds")
    p.add_argument("--solve-seconds", type=float, default=0,
                   help="warptour solve's time limit (0: not run)")
    p.add_argument("--jobs", type=int, default=os.cpu_count(), help="instances at once")
    a = p.parse_args()
    a.linkern_seeds = [int(s) for s in a.linkern_seeds.split(",") if s]
    if not a.linkern and a.solve_seconds <= 0:
        sys.exit("batch_refs.py: give --linkern or --solve-seconds")
    done = set()
    if os.path.exists(a.out):
        with open(a.out) as f:
            done = {l.split("\t")[0] for l in f if l.strip() and not l.startswith("#")}
    os.makedirs(os.path.dirname(os.path.abspath(a.out)), exist_ok=True)
    todo = [i for i in range(a.count) if f"uniform-{a.n}-s{a.first_seed + i}" not in done]
    with open(a.out, "a") as out, tempfile.TemporaryDirectory() as tmp:
        if not done:
            out.write("# name\tn\tlength\tsource (scripts/batch_refs.py: "
                      + " ".join(sys.argv[1:]) + ")\n")
        with concurrent.futures.ThreadPoolExecutor(a.jobs) as pool:
            results = pool.map(lambda i: reference(a, tmp, i), todo)
            for k, (name, length, source) in enumerate(results):
                out.write(f"{name}\t{a.n}\t{length}\t{source}\n")
                out.flush()
                if (k + 1) % 100 == 0:
                    print(f"{k + 1}/{len(todo)}", file=sys.stderr)


if __name__ == "__main__":
    main()
