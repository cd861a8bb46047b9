#!/bin/sh
# same-tours.sh - prints the exact length and a digest of the tour of a set
# of seeded, budgeted (kicks, climbs, restarts) CPU runs, one line each.
#
# A change meant to keep behaviour (a refactor, a rename) must leave this
# output the same: run it before and after and diff the two.  Every run is
# bounded by work, never by time, so the output depends only on the build.
#
#   scripts/same-tours.sh [WARPTOUR [WORKDIR]] > after.txt
set -e
wt=${1:-build/warptour}
dir=${2:-$(mktemp -d)}
mkdir -p "$dir"
root=$(cd "$(dirname "$0")/.." && pwd)
data=$root/tests/data
"$wt" gen uniform 60000 --seed 3 --output "$dir/u60k.tsp" >/dev/null
gunzip -c "$data/pla33810.tsp.gz" >"$dir/pla33810.tsp"

solve_run() { # name, file, solve's options
    name=$1; file=$2; shift 2
    "$wt" solve "$file" "$@" --backend cpu --seed 7 --output "$dir/$name.tour" >/dev/null 2>&1 ||
        { echo "$name failed"; return 0; }
    printf '%-22s %s %s\n' "$name" \
        "$("$wt" check "$file" "$dir/$name.tour" --json 2>/dev/null |
            python3 -c 'import json,sys; print(json.load(sys.stdin)["length"])')" \
        "$(grep -v '^[A-Z]' "$dir/$name.tour" | md5sum | cut -c1-12)"
}

solve_run a280-lk-t2 "$data/a280.tsp" --algorithm ils --ils-descent lk --kicks 3000 --threads 2
solve_run a280-lk-t1 "$data/a280.tsp" --algorithm ils --ils-descent lk --kicks 3000 --threads 1
solve_run pr1002-lk "$data/pr1002.tsp" --algorithm ils --ils-descent lk --kicks 4000 --threads 2
solve_run pr1002-local "$data/pr1002.tsp" --algorithm ils --ils-descent local --kicks 6000 \
    --threads 2
solve_run pr1002-full "$data/pr1002.tsp" --algorithm ils --ils-descent full --kicks 30
solve_run pr1002-windows "$data/pr1002.tsp" --algorithm ils --ils-descent windows --kicks 3000 \
    --threads 2
solve_run pr1002-auto "$data/pr1002.tsp" --kicks 3000 --threads 2
solve_run pr1002-2opt "$data/pr1002.tsp" --algorithm 2opt
solve_run pr1002-2opt-sw "$data/pr1002.tsp" --algorithm 2opt --swaps all --init random
solve_run pr1002-ms "$data/pr1002.tsp" --algorithm multistart --restarts 8 --threads 2
solve_run a280-sa "$data/a280.tsp" --algorithm sa --searches 4 --moves 8 --t-end 1 --alpha 0.9
solve_run a280-sa-near "$data/a280.tsp" --algorithm sa --searches 2 --moves 8 --t-end 1 \
    --alpha 0.9 --near 8
solve_run pla33810-lk "$dir/pla33810.tsp" --algorithm ils --ils-descent lk --kicks 40000 \
    --threads 2
solve_run pla33810-local "$dir/pla33810.tsp" --algorithm ils --ils-descent local \
    --kicks 40000 --threads 2
solve_run pla33810-windows "$dir/pla33810.tsp" --algorithm ils --ils-descent windows \
    --kicks 20000 --threads 2
solve_run u60k-lk "$dir/u60k.tsp" --algorithm ils --ils-descent lk --kicks 30000 --threads 2
solve_run u60k-lk-t1 "$dir/u60k.tsp" --algorithm ils --ils-descent lk --kicks 10000 \
    --threads 1
solve_run u60k-local "$dir/u60k.tsp" --algorithm ils --ils-descent local --kicks 30000 \
    --threads 2

batch() { # name, solve-batch's options
    name=$1; shift
    mkdir -p "$dir/$name"
    "$wt" solve-batch "$@" --backend cpu --seed 7 --output "$dir/$name" >/dev/null 2>&1 ||
        { echo "$name failed"; return 0; }
    printf '%-22s %s\n' "$name" "$(cat "$dir/$name"/* | md5sum | cut -c1-12)"
}
batch batch-100 --gen-uniform 100 --count 20 --kicks 500 --threads 2
batch batch-1000 --gen-uniform 1000 --count 3 --kicks 2000 --threads 2
batch batch-files "$data/a280.tsp" "$data/berlin52.tsp" "$data/gr96.tsp" --kicks 800
