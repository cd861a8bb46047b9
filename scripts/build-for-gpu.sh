#!/bin/bash
# Here, before a device call: builds the CUDA binaries for sm_90 in
# build-gpu/ and packs warptour and the GPU tests into
# gpu-data/prebuilt.tar.xz, with the commit in gpu-data/prebuilt.commit.
# scripts/gpu-check.sh uses them when WT_PREBUILT=1, which spares the device
# the CUDA build (a minute and a half of its time).  Uncommitted changes are marked
# "-dirty" in the commit.
set -eu -o pipefail
cd "$(dirname "$0")/.."
mkdir -p gpu-data
cmake -S . -B build-gpu -DWT_CUDA=ON -DWT_CUDA_ARCH="${CUDA_ARCH:-90}" >/dev/null
# A failed build packs nothing: a stale binary must not travel as the new one.
if ! cmake --build build-gpu -j "$(nproc)" >build-gpu/build.log 2>&1; then
    grep -iE "warning|error" build-gpu/build.log
    echo "the build failed (build-gpu/build.log); nothing packed" >&2
    exit 1
fi
grep -iE "warning" build-gpu/build.log || true
git describe --always --dirty --abbrev=10 >gpu-data/prebuilt.commit
# One thread, -9: xz's 64 MiB window finds each binary's copy of the
# library in the one before it (24 MB packed; -6 or several threads: 330 MB).
(cd build-gpu && tar cf - warptour warptour-bench wt-limit-* tests/test_gpu_* tests/test_sa tests/test_ils tests/test_params) | xz -T1 -9 >gpu-data/prebuilt.tar.xz
echo "gpu-data/prebuilt.tar.xz: $(du -h gpu-data/prebuilt.tar.xz | cut -f1), commit $(cat gpu-data/prebuilt.commit)"
