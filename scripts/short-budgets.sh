#!/bin/bash
# Short budgets against linkern (issue 40's 1 s and 2-core targets), with
# `warptour-bench timeline` (bench/README.md): wall clock from process start,
# reading included, gap to the optimum (SOLUTIONS.tsv, which the bench reads)
# or, for the uniform instance (`gen uniform 10000 --seed 1`), to the BHH
# estimate.
#   1 s, all cores: pr2392, usa13509, d18512 and uniform 10,000, seeds $SEEDS,
#     ours with --backend auto and cpu, then linkern (one process, after ours,
#     alone), then auto again with `--tune auto_device_min_ms=off` (the GPU
#     from any limit: auto before the short-limit policy of algo/policy.h).
#   10 s, 2 cores: usa13509, seeds 1-3 at once on disjoint cores: ours on two
#     (`taskset -c 2i,2i+1 ... --backends cpu --threads 2`), ours with
#     $TUNE_2CORE on two more, and linkern on one (its bench runs a 1-thread
#     run of ours first, for 10 s, then linkern alone on that core).  Needs 15
#     cores; with fewer every run goes one after another, unpinned (a sanity
#     check only: the 2-core VM then takes about 3 minutes for these).
# Usage: scripts/short-budgets.sh BENCH TSPLIB_DIR PEERS_DIR [OUT_DIR]
#   BENCH: the warptour-bench binary; TSPLIB_DIR holds the .tsp files and
#   SOLUTIONS.tsv; PEERS_DIR holds linkern (../shared/peers; never copy it
#   into the project).  OUT_DIR (default a temporary folder) keeps each
#   bench's whole output.
# Environment: SEEDS (default "1 2 3") for the 1 s runs; TUNE_2CORE (default
#   lk_alpha=off: no ascent, the time of its bound given to the kicks; empty:
#   no such column).  About 3 minutes on a 16-core machine.
set -u
if [ $# -lt 3 ]; then
    echo "usage: $0 BENCH TSPLIB_DIR PEERS_DIR [OUT_DIR]" >&2
    exit 2
fi
bench=$1 tsp=$2 peers=$3
out=${4:-$(mktemp -d)}
seeds=${SEEDS:-1 2 3}
tune2=${TUNE_2CORE-lk_alpha=off}
mkdir -p "$out"
export WT_TSPLIB_DIR=$tsp
one_s=("$tsp/pr2392.tsp" "$tsp/usa13509.tsp" "$tsp/d18512.tsp" --gen-uniform 10000)

for s in $seeds; do
    "$bench" timeline "${one_s[@]}" --at 1 --backends auto,cpu --seed "$s" \
        --peer "linkern=$peers/linkern" >"$out/one.s$s.txt" 2>&1
    "$bench" timeline "${one_s[@]}" --at 1 --backends auto --seed "$s" \
        --tune auto_device_min_ms=off >"$out/one-gpu.s$s.txt" 2>&1
done

# Runs "$@" on cores $1 (a taskset list) when the seeds run at once, in the
# background; else in the foreground, one run after another, unpinned.
pinned() {
    local cores=$1
    shift
    if [ "$parallel" = 1 ]; then taskset -c "$cores" "$@" & else "$@"; fi
}
two_core() { # seed, slot (0..2): its cores
    local s=$1 k=$2
    pinned "$((2 * k)),$((2 * k + 1))" "$bench" timeline "$tsp/usa13509.tsp" --at 10 \
        --backends cpu --threads 2 --seed "$s" >"$out/two.s$s.txt" 2>&1
    if [ -n "$tune2" ]; then
        pinned "$((6 + 2 * k)),$((7 + 2 * k))" "$bench" timeline "$tsp/usa13509.tsp" --at 10 \
            --backends cpu --threads 2 --seed "$s" --tune "$tune2" >"$out/two-tuned.s$s.txt" 2>&1
    fi
    pinned "$((12 + k))" "$bench" timeline "$tsp/usa13509.tsp" --at 10 --backends cpu \
        --threads 1 --seed "$s" --peer "linkern=$peers/linkern" >"$out/two-linkern.s$s.txt" 2>&1
}
parallel=0
[ "$(nproc)" -ge 15 ] && parallel=1
for k in 0 1 2; do two_core $((k + 1)) "$k"; done
wait

# The gap of each column: file prefix, backend name in the bench's lines.
gap() { # file, instance, backend
    [ -f "$1" ] || { echo none; return; }
    awk -v inst="$2" -v be="$3" '
        /^bench=timeline/ {
            i = ""; b = ""; g = "";
            for (f = 1; f <= NF; f++) {
                split($f, kv, "=");
                if (kv[1] == "instance") i = kv[2];
                else if (kv[1] == "backend") b = kv[2];
                else if (kv[1] == "gap_percent") g = kv[2];
            }
            if (i == inst && b == be) { print g; found = 1; exit }
        }
        END { if (!found) print "none" }' "$1"
}
instances=$(awk '/^bench=timeline/ { for (f = 1; f <= NF; f++) if ($f ~ /^instance=/)
             { sub(/^instance=/, "", $f); print $f } }' "$out"/one.s*.txt | awk '!seen[$0]++')

echo "gap % at t (wall clock from process start); auto: --backend auto; auto, GPU always:"
echo "--tune auto_device_min_ms=off; 2-core rows: taskset on 2 cores, --threads 2"
printf '%-18s %4s %4s | %8s %8s %8s %8s\n' instance t seed auto "auto,GPU" cpu linkern
for i in $instances; do
    for s in $seeds; do
        printf '%-18s %4s %4s | %8s %8s %8s %8s\n' "$i" 1 "$s" \
            "$(gap "$out/one.s$s.txt" "$i" auto)" "$(gap "$out/one-gpu.s$s.txt" "$i" auto)" \
            "$(gap "$out/one.s$s.txt" "$i" cpu)" "$(gap "$out/one.s$s.txt" "$i" linkern)"
    done
done
echo
printf '%-18s %4s %4s | %8s %8s %8s\n' instance t seed "cpu 2c" "${tune2:-(none)}" linkern
for s in 1 2 3; do
    printf '%-18s %4s %4s | %8s %8s %8s\n' usa13509 10 "$s" \
        "$(gap "$out/two.s$s.txt" usa13509 cpu)" "$(gap "$out/two-tuned.s$s.txt" usa13509 cpu)" \
        "$(gap "$out/two-linkern.s$s.txt" usa13509 linkern)"
done
echo "outputs: $out"
