#!/bin/bash
# One call on a GPU machine: build with CUDA, run the test suite (GPU tests
# included), time the benchmarks, and print a short summary table last.
#
# Used through the device tool (see README "GPU checks"):
#   run: scripts/gpu-check.sh      carry: [".deb", "gpu-data"]
# .deb holds Debian packages of cJSON and cmocka (the GPU image cannot fetch
# them): scripts/fetch-gpu-deps.sh fills it.  gpu-data/ holds the instances
# the GPU tests and benchmarks read (scripts/fetch-gpu-deps.sh copies them).
set -u -o pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp/wt-out}
mkdir -p "$OUT"
summary=()
note() { summary+=("$(printf '%-28s %s' "$1" "$2")"); }

prefix=/tmp/wt-deps
if [ -d .deb ]; then
    for f in .deb/*.deb; do dpkg -x "$f" "$prefix"; done
fi
export CMAKE_PREFIX_PATH="$prefix/usr${CMAKE_PREFIX_PATH:+:$CMAKE_PREFIX_PATH}"
export LD_LIBRARY_PATH="$prefix/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
tsplib=${WT_TSPLIB_DIR:-$PWD/gpu-data/tsplib}

nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader 2>&1 | tee "$OUT/gpu.txt"
echo "commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown)$(git diff --quiet 2>/dev/null || echo '+dirty')" | tee -a "$OUT/gpu.txt"

if cmake -S . -B build-gpu -DWT_CUDA=ON -DWT_CUDA_ARCH="${CUDA_ARCH:-90}" \
        -DWT_TSPLIB_DIR="$tsplib" >"$OUT/build.log" 2>&1 &&
   cmake --build build-gpu -j 16 >>"$OUT/build.log" 2>&1; then
    note build ok
else
    tail -30 "$OUT/build.log"; note build FAILED
    printf '%s\n' "${summary[@]}"; exit 1
fi
grep -iE "warning" "$OUT/build.log" | head -5

./build-gpu/warptour devices | tee "$OUT/devices.txt"
grep -q "cuda   available" "$OUT/devices.txt" && note "cuda detected" yes || note "cuda detected" NO

(cd build-gpu && ctest --output-on-failure -j 8) >"$OUT/ctest.log" 2>&1
note ctest "$(grep -E 'tests passed|tests failed' "$OUT/ctest.log" | tail -1)"
tail -15 "$OUT/ctest.log"

./build-gpu/warptour solve data/berlin52.tsp --backend auto --json >"$OUT/demo.json" 2>&1
note "demo (auto backend)" "$(head -c 300 "$OUT/demo.json")"

# Benchmarks join here as they are written (bench/).
echo
echo "== summary =="
printf '%s\n' "${summary[@]}"
