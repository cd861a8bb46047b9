#!/bin/bash
# Ours beside LKH-3 and the best of 16 linkerns, instance by instance, with
# `warptour-bench timeline` (bench/README.md): for each instance two
# invocations, each a fresh process per run, wall clock from process start:
#   A  ours on --backends $BACKENDS, then 16 linkerns at once (seeds 1..16);
#   B  ours on cpu with a tuning to compare ($TUNE_B, default lk_alpha=off:
#      the quadrant candidates), then one LKH-3 process.
# Usage: scripts/peer-compare.sh BENCH PEERS_DIR OUT_DIR INSTANCE...
#   BENCH: the warptour-bench binary; PEERS_DIR holds linkern and lkh
#   (../shared/peers; never copy them into the project); an INSTANCE is a
#   .tsp path or uniformN (a uniform random instance of N cities, seed 1).
# Environment: AT (default 1,10), BACKENDS (default cpu,auto), RUNS_A
#   (default 16), TUNE_B (default lk_alpha=off; empty: no B run of ours
#   beyond the default), SKIP_B=1 to leave out B.
# Each invocation's whole output goes to OUT_DIR/NAME.A.txt, NAME.B.txt;
# the tables are printed at the end.
set -u
bench=$1 peers=$2 out=$3
shift 3
at=${AT:-1,10}
backends=${BACKENDS:-cpu,auto}
runs=${RUNS_A:-16}
tune_b=${TUNE_B-lk_alpha=off}
mkdir -p "$out"
for inst in "$@"; do
    case $inst in
    uniform*) src=(--gen-uniform "${inst#uniform}") name=$inst ;;
    *) src=("$inst") name=$(basename "$inst" .tsp) ;;
    esac
    "$bench" timeline "${src[@]}" --at "$at" --backends "$backends" \
        --peer "linkern=$peers/linkern" --peer-runs "$runs" >"$out/$name.A.txt" 2>&1
    if [ "${SKIP_B:-0}" != 1 ]; then
        tune=()
        [ -n "$tune_b" ] && tune=(--tune "$tune_b")
        "$bench" timeline "${src[@]}" --at "$at" --backends cpu "${tune[@]}" \
            --peer "lkh=$peers/lkh" >"$out/$name.B.txt" 2>&1
    fi
done
for f in "$out"/*.txt; do
    echo "== $(basename "$f")"
    grep -v '^bench=\|^# run:' "$f" | tail -n 12
done
