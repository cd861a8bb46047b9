#!/usr/bin/env python3
"""Plots the machine-readable lines of warptour-bench.

Reads the output of one or more warptour-bench runs (files, or standard
input) and draws what its bench= lines hold:

  bench=ils-trace   the gap to the optimum against time (log scale), one line
                    per instance and backend (warptour-bench ils)
  bench=timeline    the gap at each --at time, one line per instance and
                    backend (warptour-bench timeline)

Lines whose gap is "unknown" (no known optimum) are left out.  The picture's
format follows the --output name's extension (.svg, .png, .pdf).

Needs matplotlib (pip install matplotlib; Debian: python3-matplotlib), an
optional dependency: nothing else in warptour uses it.

Usage: scripts/plot_bench.py [FILE...] [-o OUT.svg] [--kind ils-trace|timeline]
       [--title TEXT]
Example:
  build/warptour-bench ils --instances pr2392,pcb3038 --seconds 3 > ils.txt
  scripts/plot_bench.py ils.txt -o ils.svg
"""
import argparse
import sys
from collections import OrderedDict


def parse_line(line):
    """The key=value fields of a bench= line, or None for any other line."""
    if not line.startswith("bench="):
        return None
    fields = {}
    for item in line.split():
        key, sep, value = item.partition("=")
        if sep:
            fields[key] = value
    return fields


def read_series(lines, kind):
    """{(instance, backend): [(x, gap_percent), ...]} for the lines of kind."""
    series = OrderedDict()
    x_key = "elapsed_s" if kind == "ils-trace" else "t"
    for line in lines:
        f = parse_line(line.strip())
        if not f or f.get("bench") != kind:
            continue
        gap = f.get("gap_percent", "unknown")
        if gap in ("unknown", "none") or f.get(x_key) is None:
            continue
        try:
            point = (float(f[x_key]), float(gap))
        except ValueError:
            continue
        series.setdefault((f.get("instance", "?"), f.get("backend", "?")), []).append(point)
    return series


def main(argv):
    ap = argparse.ArgumentParser(description="Plot warptour-bench's bench= lines.")
    ap.add_argument("files", nargs="*", help="warptour-bench output (default: standard input)")
    ap.add_argument("-o", "--output", default="bench.svg",
                    help="picture to write (default bench.svg)")
    ap.add_argument("--kind", choices=["ils-trace", "timeline"],
                    help="which lines to draw (default: the first kind found)")
    ap.add_argument("--title", help="the picture's title")
    args = ap.parse_args(argv)

    lines = []
    if args.files:
        for path in args.files:
            with open(path) as f:
                lines.extend(f)
    else:
        lines = sys.stdin.readlines()
    kind = args.kind
    if kind is None:
        for line in lines:
            f = parse_line(line)
            if f and f.get("bench") in ("ils-trace", "timeline"):
                kind = f["bench"]
                break
    if kind is None:
        sys.exit("plot_bench.py: no bench=ils-trace or bench=timeline lines in the input")
    series = read_series(lines, kind)
    if not series:
        sys.exit("plot_bench.py: no bench=%s line with a known gap" % kind)

    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        sys.exit("plot_bench.py needs matplotlib (pip install matplotlib; "
                 "Debian: apt-get install python3-matplotlib)")

    fig, ax = plt.subplots(figsize=(9.6, 6.0))
    for (instance, backend), points in series.items():
        points.sort()
        xs = [max(x, 1e-3) for x, _ in points]
        ys = [y for _, y in points]
        style = "-" if kind == "ils-trace" else "-o"
        drawn = ax.step(xs, ys, where="post") if kind == "ils-trace" else ax.plot(xs, ys, style)
        drawn[0].set_label("%s (%s)" % (instance, backend))
    ax.set_xscale("log")
    ax.set_xlabel("seconds since the start" if kind == "ils-trace"
                  else "wall-clock seconds from process start")
    ax.set_ylabel("gap to the optimum (%)" if kind == "ils-trace"
                  else "gap (%) to the optimum or the BHH estimate")
    ax.set_ylim(bottom=0)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize="small")
    ax.set_title(args.title or ("Iterated Local Search: gap over time" if kind == "ils-trace"
                                else "Best tour against wall-clock time"))
    fig.tight_layout()
    fig.savefig(args.output)
    print("plot_bench.py: %s (%d line%s)" % (args.output, len(series),
                                             "" if len(series) == 1 else "s"))


if __name__ == "__main__":
    main(sys.argv[1:])
