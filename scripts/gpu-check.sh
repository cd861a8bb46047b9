#!/bin/bash
# One call on a GPU machine: build with CUDA, run the test suite (GPU tests
# included), run the benchmarks, and print the summary tables last.
#
# Used through the device tool (see docs/development.md):
#   run: scripts/gpu-check.sh      carry: [".deb", "gpu-data"]
# .deb holds Debian packages of cJSON, cmocka and zlib's headers (the GPU
# image cannot fetch them): scripts/fetch-gpu-deps.sh fills it.  gpu-data/ holds the instances
# the GPU tests and benchmarks read (scripts/fetch-gpu-deps.sh copies them,
# d18512.tsp included).
#
# Everything goes to $OUT (build.log, ctest.log, ctest_last.log,
# bench_multistart.txt, bench_quality.txt, bench_pass.txt, bench_ls.txt,
# bench_kswap.txt, bench_ils.txt, ...; scripts/plot_bench.py draws
# bench_ils.txt where matplotlib is); only the tail of
# stdout comes back from the device tool, so the tables and the summary are
# printed last.  The stages share a budget of WT_CHECK_BUDGET seconds
# (default 540, under the tool's 10 minutes): each benchmark gets a timeout
# from what is left.  WT_BUILD_DIR names the build folder (default
# build-gpu); WT_GIT_COMMIT the commit, where the tree has no .git and
# gpu-data/COMMIT is stale.  WT_CUDA=OFF builds without CUDA: the same
# stages on a machine without a GPU, to check this script.
# WT_CHECK_STAGES picks stages (default "ctest multistart quality small";
# also pass, ls, kswap, ils, sa, batch: the full benchmarks, one stage each;
# limits: the chip-limit microbenchmarks of bench/limits; the
# build always runs); WT_CTEST_ARGS replaces the ctest selection (e.g.
# "-L gpu"); WT_BENCH_MS_ARGS adds arguments to bench multistart;
# WT_ARGS_<bench> replaces a benchmark's arguments, WT_CAP_<bench> its
# timeout.
set -u -o pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp/wt-out}
mkdir -p "$OUT"
budget=${WT_CHECK_BUDGET:-540}
build=${WT_BUILD_DIR:-build-gpu} # the CUDA build (relative to the repository root)
summary=()
timings=()
note() { summary+=("$(printf '%-28s %s' "$1" "$2")"); }
now() { date +%s.%N; }
t_all=$(now)
elapsed() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }
# Seconds left of the budget, minus a reserve for what comes after.
left() { awk -v a="$t_all" -v b="$(now)" -v B="$budget" -v r="$1" 'BEGIN { x = int(B - (b - a) - r); print (x > 0 ? x : 1) }'; }
stage_t0=
stage_begin() { stage_t0=$(now); echo; echo "== $1 (at $(elapsed "$t_all") s)"; }
stage_end() { timings+=("$(printf '%-20s %7s s' "$1" "$(elapsed "$stage_t0")")"); }

prefix=/tmp/wt-deps
if [ -d .deb ]; then
    for f in .deb/*.deb; do dpkg -x "$f" "$prefix"; done
    # A -dev package's libX.so may point at /lib/...: point it into the
    # prefix (else CMake passes over it, to libz.a, which is no PIC).
    for l in "$prefix"/usr/lib/x86_64-linux-gnu/*.so; do
        t=$(readlink "$l") || continue
        case $t in /*) [ -e "$prefix$t" ] && ln -sf "$prefix$t" "$l" ;; esac
    done
fi
export CMAKE_PREFIX_PATH="$prefix/usr${CMAKE_PREFIX_PATH:+:$CMAKE_PREFIX_PATH}"
export LD_LIBRARY_PATH="$prefix/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
tsplib=${WT_TSPLIB_DIR:-$PWD/gpu-data/tsplib}
export WT_TSPLIB_DIR="$tsplib" # where `warptour-bench` looks first
[ -f "$tsplib/d18512.tsp" ] || echo "warning: $tsplib/d18512.tsp is missing (run scripts/fetch-gpu-deps.sh)"

nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader 2>&1 | tee "$OUT/gpu.txt"
# The commit: from git where the tree is a checkout, else the one the caller
# names in $WT_GIT_COMMIT, else the one scripts/fetch-gpu-deps.sh recorded
# (the device tool's copy of the tree has no usable .git).  `warptour-bench`
# prints it in its header.
# The caller's WT_GIT_COMMIT comes first: the device copy may carry a stale
# .git whose describe names an old commit.
commit=${WT_GIT_COMMIT:-}
# Prebuilt binaries name the commit they were built from; the tree's .git
# here may be the stale one.
if [ -z "$commit" ] && [ "${WT_PREBUILT:-0}" = 1 ] && [ -s gpu-data/prebuilt.commit ]; then
    commit="$(cat gpu-data/prebuilt.commit) (prebuilt)"
fi
[ -z "$commit" ] && commit=$(git describe --always --dirty --abbrev=10 2>/dev/null)
[ -z "$commit" ] && [ -s gpu-data/COMMIT ] && commit="$(cat gpu-data/COMMIT) (recorded by fetch-gpu-deps.sh)"
[ -z "$commit" ] && commit=unknown
export WT_GIT_COMMIT="$commit"
echo "commit $commit" | tee -a "$OUT/gpu.txt"

stage_begin build
# WT_PREBUILT=1: use the binaries scripts/build-for-gpu.sh packed into
# gpu-data/prebuilt.tar.xz here (saves the device the 80 s of a CUDA
# build); if they do not run there, build after all.
prebuilt=no
if [ "${WT_PREBUILT:-0}" = 1 ] && [ -f gpu-data/prebuilt.tar.xz ]; then
    mkdir -p "$build" && tar xJf gpu-data/prebuilt.tar.xz -C "$build" &&
        "$build"/warptour --version >/dev/null 2>&1 && prebuilt=yes
    echo "prebuilt binaries: $prebuilt ($(cat gpu-data/prebuilt.commit 2>/dev/null))"
fi
if [ $prebuilt = yes ]; then
    note build "prebuilt ($(cat gpu-data/prebuilt.commit 2>/dev/null))"
elif cmake -S . -B "$build" -DWT_CUDA="${WT_CUDA:-ON}" -DWT_CUDA_ARCH="${CUDA_ARCH:-90}" \
        -DWT_TSPLIB_DIR="$tsplib" -DWT_WERROR="${WT_WERROR:-OFF}" >"$OUT/build.log" 2>&1 &&
   cmake --build "$build" -j "$(nproc)" >>"$OUT/build.log" 2>&1; then
    note build ok
else
    tail -30 "$OUT/build.log"; note build FAILED
    printf '%s\n' "${summary[@]}"; exit 1
fi
grep -iE "warning" "$OUT/build.log" | head -5
stage_end build

"$build"/warptour devices | tee "$OUT/devices.txt"
grep -q "cuda   available" "$OUT/devices.txt" && note "cuda detected" yes || note "cuda detected" NO

stages=" ${WT_CHECK_STAGES:-ctest multistart quality small} "
want() { [[ "$stages" == *" $1 "* ]]; }

if want ctest; then
stage_begin ctest
# test_tsplib_all reads every file of the whole collection (large/ too, 57 MB),
# more than gpu-data carries; it checks the reader, not the GPU.
ctest_args=()
if [ -n "${WT_CTEST_ARGS:-}" ]; then
    read -r -a ctest_args <<<"$WT_CTEST_ARGS"
elif [ ! -f "$tsplib/large/xqf131.tsp" ]; then # a file only the whole collection has
    ctest_args=(-E '^test_tsplib_all$')
    note "test_tsplib_all" "left out ($tsplib holds a subset of TSPLIB)"
fi
if [ $prebuilt = yes ]; then
    # Only the GPU tests (and test_ils and test_params, whose cuda cases
    # need a GPU) travel prebuilt; ctest's files name paths of the machine
    # that built them, so each test runs directly, logged as ctest would.
    : >"$OUT/ctest_last.log"
    : >"$OUT/ctest.log"
    for t in "$build"/tests/test_gpu_* "$build"/tests/test_ils "$build"/tests/test_params; do
        [ -x "$t" ] || continue
        name=$(basename "$t")
        echo "Testing: $name" >>"$OUT/ctest_last.log"
        WT_TEST_DATA=$PWD/tests/data WT_DATA=$PWD/data "$t" >>"$OUT/ctest_last.log" 2>&1
        rc=$?
        echo "<end of output>" >>"$OUT/ctest_last.log"
        case $rc in 0) r=passed ;; 77) r="passed (skipped)" ;; *) r="FAILED (exit $rc)" ;; esac
        echo "$name $r" | tee -a "$OUT/ctest.log"
    done
    note ctest "GPU tests only (prebuilt): $(grep -c passed "$OUT/ctest.log") passed, $(grep -c FAILED "$OUT/ctest.log") failed"
else
(cd "$build" && ctest --output-on-failure -j 8 "${ctest_args[@]}") >"$OUT/ctest.log" 2>&1
cp "$build"/Testing/Temporary/LastTest.log "$OUT/ctest_last.log" 2>/dev/null
note ctest "$(grep -E 'tests passed|tests failed' "$OUT/ctest.log" | tail -1)"
fi
tail -15 "$OUT/ctest.log"
stage_end ctest
fi

"$build"/warptour solve data/berlin52.tsp --backend auto --json >"$OUT/demo.json" 2>&1
note "demo (auto backend)" "$(head -c 300 "$OUT/demo.json")"

# The small 2-opt and ILS benchmarks after quality keep this much of the
# budget (their timeouts below add up to it).
small_reserve=50

# Throughput (Figure 6 of the paper): default sizes and variants, best of 3.
# The quality run, the small benchmarks and the summary keep a reserve.
if want multistart; then
stage_begin "bench multistart"
limit=$(left $((120 + small_reserve)))
# shellcheck disable=SC2086 # WT_BENCH_MS_ARGS is a list of words
timeout "$limit" "$build"/warptour-bench multistart ${WT_BENCH_MS_ARGS:-} >"$OUT/bench_multistart.txt" 2>&1
rc=$?
[ $rc -eq 124 ] && echo "bench multistart: stopped by its ${limit} s timeout"
note "bench multistart" "exit $rc, $(grep -c '^bench=multistart' "$OUT/bench_multistart.txt") results (timeout ${limit} s)"
stage_end "bench multistart"
fi

# Quality (Figure 7), a small subset by default: up to 500 cities, 5000
# climbs each, on the GPU (--backend cuda fails at once rather than running
# for long on the CPU).  WT_ARGS_quality replaces the arguments.
if want quality; then
stage_begin "bench quality"
limit=$(left $((15 + small_reserve)))
[ "$limit" -gt "${WT_CAP_quality:-120}" ] && limit=${WT_CAP_quality:-120}
# shellcheck disable=SC2086 # a list of words
timeout "$limit" "$build"/warptour-bench quality ${WT_ARGS_quality:---max-n 500 --climbs 5000} \
    --backend cuda >"$OUT/bench_quality.txt" 2>&1
rc=$?
[ $rc -eq 124 ] && echo "bench quality: stopped by its ${limit} s timeout"
note "bench quality" "exit $rc, $(grep -c '^bench=quality' "$OUT/bench_quality.txt") instances (timeout ${limit} s)"
stage_end "bench quality"
fi

# Rocki & Suda's Table II, Robinson et al.'s Figure 6, ILS over time and
# Lam et al.'s Tables 2-3.  Stage "small" runs short versions of all of them
# (the default); stages pass, ls, kswap, ils, sa run one each, with the
# arguments in WT_ARGS_<name> when set and a timeout of WT_CAP_<name>.
small_bench() { # NAME CAP-SECONDS ARGS...: one benchmark into $OUT/bench_NAME.txt
    local name=$1 cap=$2 lim args_var="WT_ARGS_$1" cap_var="WT_CAP_$1"
    shift 2
    [ -n "${!cap_var:-}" ] && cap=${!cap_var}
    # shellcheck disable=SC2206 # a list of words
    [ -n "${!args_var:-}" ] && set -- ${!args_var}
    stage_begin "bench $name"
    lim=$(left 10)
    [ "$lim" -gt "$cap" ] && lim=$cap
    timeout "$lim" "$build"/warptour-bench "$name" "$@" >"$OUT/bench_$name.txt" 2>&1
    rc=$?
    [ $rc -eq 124 ] && echo "bench $name: stopped by its ${lim} s timeout"
    note "bench $name" "exit $rc, $(grep -c "^bench=$name " "$OUT/bench_$name.txt") results (timeout ${lim} s)"
    stage_end "bench $name"
}
if want small; then
    small_bench pass 10
    small_bench ls 10 --max-n 2000
    small_bench kswap 15 --max-n 1500 --max-n-random 1500 --ks 1,8,64,all
    small_bench ils 15 --instances pr2392,fnl4461 --seconds 5
    small_bench sa 15 --instances rd100,eil101 --runs 1 --variants cuda
fi
want pass && small_bench pass 120
want ls && small_bench ls 150 --time-limit 20
want kswap && small_bench kswap 200 --time-limit 20
want ils && small_bench ils 200 --instances pr2392,pcb3038,fnl4461 --seconds 10
want sa && small_bench sa 200
# solve-batch on issue 25's sets (10 s and 20 s, start tours included).
want batch && small_bench batch 150
# The chip's ceilings for the pass (bench/limits): a few seconds.
if want limits; then
    stage_begin limits
    for t in mufu pass-loop; do
        timeout 60 "$build/wt-limit-$t" >"$OUT/limit_$t.txt" 2>&1
        note "limit $t" "exit $?"
    done
    stage_end limits
fi

# ------------------------------------------------------------ the tail
# Printed first, as the least important: the device tool returns the last
# 12000 characters of stdout (the files in $OUT come back whole).
for t in mufu pass-loop; do
    [ -f "$OUT/limit_$t.txt" ] || continue
    echo
    echo "== wt-limit-$t ($OUT/limit_$t.txt)"
    cat "$OUT/limit_$t.txt"
done
for name in pass ls kswap ils sa batch; do
    [ -f "$OUT/bench_$name.txt" ] || continue
    echo
    echo "== bench $name ($OUT/bench_$name.txt)"
    grep -E '^# note: cuda|failed|^warptour' "$OUT/bench_$name.txt" | head -5
    # The tables: from the first blank line on.
    sed -n '/^$/,$p' "$OUT/bench_$name.txt"
done
echo
echo "== GPU tests (tests/gpu; full output in $OUT/ctest_last.log)"
awk '/Testing: test_gpu/ { on = 1 } on && /<end of output>/ { on = 0 }
     on && (/^\[ *(RUN|OK|FAILED|PASSED|ERROR)/ || /took|ERROR|skipped|reported|GPU:/)' \
    "$OUT/ctest_last.log" 2>/dev/null | cut -c1-400 | head -60
if [ -f "$OUT/bench_multistart.txt" ]; then
    echo
    echo "== bench multistart ($OUT/bench_multistart.txt)"
    grep -E '^# (warptour|machine|command|note)|^bench=|failed' "$OUT/bench_multistart.txt"
    sed -n '/^# multistart throughput/,$p' "$OUT/bench_multistart.txt"
fi
if [ -f "$OUT/bench_quality.txt" ]; then
    echo
    echo "== bench quality ($OUT/bench_quality.txt)"
    grep -E 'failed|^warptour' "$OUT/bench_quality.txt" | head -5
    sed -n '/^# multistart quality/,$p' "$OUT/bench_quality.txt"
fi
echo
echo "== stage times"
printf '%s\n' "${timings[@]}"
printf '%-20s %7s s\n' total "$(elapsed "$t_all")"
echo
echo "== summary (commit $commit)"
printf '%s\n' "${summary[@]}"
