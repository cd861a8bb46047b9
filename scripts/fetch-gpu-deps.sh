#!/bin/sh
# Prepares what a GPU run through the device tool carries along (both folders
# are git-ignored): .deb/ with the Debian packages of cJSON and cmocka, which
# the GPU image cannot download, and gpu-data/tsplib/ with the instances the
# GPU tests and benchmarks read (from ../shared/tsplib; large ones left out).
set -e
cd "$(dirname "$0")/.."
mkdir -p .deb
(cd .deb && apt-get download libcjson1 libcjson-dev libcmocka0 libcmocka-dev >/dev/null)
src=${WT_TSPLIB_DIR:-../shared/tsplib}
if [ -d "$src" ]; then
    mkdir -p gpu-data/tsplib
    # Small and mid-size TSPLIB files only: the carried tree is limited to 64 MiB.
    find "$src" -maxdepth 1 -name '*.tsp' -size -1500k -exec cp {} gpu-data/tsplib/ \;
    cp "$src"/*.opt.tour "$src"/SOLUTIONS.tsv gpu-data/tsplib/
fi
du -sh .deb gpu-data 2>/dev/null
