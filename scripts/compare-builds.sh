#!/bin/bash
# compare-builds.sh - two builds of warptour side by side on one machine:
# the same budgeted GPU runs (kicks, restarts: their tours must be equal),
# then the same timed runs (quality per time, wall clock from process start).
#
#   scripts/compare-builds.sh OLD_WARPTOUR NEW_WARPTOUR TSPLIB_DIR [SECONDS]
#
# SEEDS="1 2 3" repeats the timed runs with each seed (default 1), the two
# builds alternating, so that run-to-run noise shows beside any difference;
# STAGES="budgeted timed" picks the parts (default both).
# Prints one line a run: name, each build's exact length (and for budgeted
# runs whether the tours are the same), then for timed runs the gap to the
# optimum or to the BHH estimate and the wall time.  Meant for the device
# tool (docs/development.md); without a GPU the cuda runs fail and say so.
set -u
old=$1 new=$2 tsplib=$3 secs=${4:-10}
dir=$(mktemp -d)
"$new" gen uniform 1000000 --seed 7 --output "$dir/u1M.tsp" >/dev/null
"$new" gen uniform 10000 --seed 7 --output "$dir/u10k.tsp" >/dev/null

length() { # instance tour
    "$new" check "$1" "$2" --json 2>/dev/null |
        python3 -c 'import json,sys; print(json.load(sys.stdin)["length"])' 2>/dev/null ||
        echo none
}
digest() { grep -v '^[A-Z]' "$1" 2>/dev/null | md5sum | cut -c1-10; }

budgeted() { # name instance options...
    name=$1 inst=$2; shift 2
    for b in old new; do
        bin=$old; [ $b = new ] && bin=$new
        "$bin" solve "$inst" "$@" --seed 3 --output "$dir/$name.$b.tour" >/dev/null 2>&1
    done
    lo=$(length "$inst" "$dir/$name.old.tour") ln=$(length "$inst" "$dir/$name.new.tour")
    same=differ
    [ "$(digest "$dir/$name.old.tour")" = "$(digest "$dir/$name.new.tour")" ] && same=same
    [ -s "$dir/$name.old.tour" ] && [ -s "$dir/$name.new.tour" ] || same=missing
    printf '%-26s %14s %14s  %s\n' "$name" "$lo" "$ln" "$same"
}

timed() { # name instance reference(optimum or bhh:AREA) options...
    name=$1 inst=$2 ref=$3; shift 3
    for seed in ${SEEDS:-1}; do timed_seed "$seed" "$name" "$inst" "$ref" "$@"; done
}

timed_seed() { # seed name instance reference options...
    seed=$1 name=$2 inst=$3 ref=$4; shift 4
    line=$(printf '%-20s %4s' "$name" "$seed")
    for b in old new; do
        bin=$old; [ $b = new ] && bin=$new
        t0=$(date +%s.%N)
        "$bin" solve "$inst" "$@" --seed "$seed" --time-limit "$secs" \
            --output "$dir/$name.$b.tour" >/dev/null 2>&1
        t1=$(date +%s.%N)
        len=$(length "$inst" "$dir/$name.$b.tour")
        line+=$(python3 - "$len" "$ref" "$t0" "$t1" "$inst" <<'EOF'
import math, sys
length, ref, t0, t1, inst = sys.argv[1:]
if ref.startswith("bhh:"):
    n = sum(1 for l in open(inst) if l[:1].isdigit())
    best = 0.7124 * math.sqrt(n * float(ref[4:]))
else:
    best = float(ref)
gap = (float(length) / best - 1) * 100 if length != "none" else float("nan")
print(f"  {length:>12} {gap:7.3f}% {float(t1) - float(t0):6.2f}s", end="")
EOF
)
    done
    echo "$line"
}

opt() { awk -F'\t' -v n="$1" '$1 == n { print $4 }' "$tsplib/SOLUTIONS.tsv" | head -1; }

stages=" ${STAGES:-budgeted timed} "
if [[ $stages == *" budgeted "* ]]; then
echo "budgeted runs (seed 3): old length, new length, tours"
budgeted pr1002-ils-cuda "$tsplib/pr1002.tsp" --algorithm ils --backend cuda --kicks 200
budgeted pr1002-windows-cuda "$tsplib/pr1002.tsp" --algorithm ils --ils-descent windows \
    --backend cuda --kicks 3000
budgeted pr1002-2opt-cuda "$tsplib/pr1002.tsp" --algorithm 2opt --backend cuda
budgeted d18512-2opt-cuda "$tsplib/d18512.tsp" --algorithm 2opt --backend cuda --init random
budgeted pr1002-ms-cuda "$tsplib/pr1002.tsp" --algorithm multistart --backend cuda \
    --restarts 500
budgeted a280-sa-cuda "$tsplib/a280.tsp" --algorithm sa --backend cuda --t-end 1
budgeted pr1002-lk-cpu "$tsplib/pr1002.tsp" --backend cpu --kicks 20000
for b in old new; do
    bin=$old; [ $b = new ] && bin=$new
    mkdir -p "$dir/batch.$b"
    "$bin" solve-batch --gen-uniform 200 --count 2000 --kicks 1000 --seed 3 --backend cuda \
        --output "$dir/batch.$b" >/dev/null 2>&1
done
same=differ
sum_old=$(cat "$dir"/batch.old/* 2>/dev/null | md5sum)
[ "$sum_old" = "$(cat "$dir"/batch.new/* 2>/dev/null | md5sum)" ] && same=same
[ -n "$(ls "$dir/batch.old")" ] && [ -n "$(ls "$dir/batch.new")" ] || same=missing
printf '%-26s %29s  %s\n' batch-2000x200-cuda "" "$same"
fi

[[ $stages == *" timed "* ]] || { rm -rf "$dir"; exit 0; }
echo
echo "timed runs, $secs s, defaults: seed, old length gap time, new length gap time"
for name in usa13509 pla85900; do
    f=$tsplib/$name.tsp
    [ -f "$f" ] || f=$tsplib/large/$name.tsp
    [ -f "$f" ] && timed "$name" "$f" "$(opt "$name")"
done
timed u10k "$dir/u10k.tsp" bhh:1e12
timed u1M "$dir/u1M.tsp" bhh:1e12
rm -rf "$dir"
