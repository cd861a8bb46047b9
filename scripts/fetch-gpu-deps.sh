#!/bin/sh
# Prepares what a GPU run through the device tool carries along (both folders
# are git-ignored): .deb/ with the Debian packages of cJSON, cmocka and zlib's
# headers (the build requires zlib.h and libz.so; the runtime libz.so.1 comes
# with zlib1g, which every Debian or Ubuntu image has, but the -dev package's
# libz.so names this release's file, so zlib1g is carried too), which the GPU
# image cannot download, and gpu-data/tsplib/ with the instances the
# GPU tests and benchmarks read (from ../shared/tsplib or $WT_TSPLIB_DIR):
# every TSPLIB file under 1.5 MB, which covers `bench quality` (up to 2000
# cities) and d18512.tsp, the instance of `bench multistart`.
#
# It also records the commit of the working tree in gpu-data/COMMIT: the copy
# on the GPU machine has no .git, and benchmark results must name their
# commit.  Run it again before each GPU check (after the first time it only
# copies files) so that the recorded commit, "-dirty" included, is current.
set -e
cd "$(dirname "$0")/.."
mkdir -p .deb gpu-data
if [ "$(ls .deb/*.deb 2>/dev/null | wc -l)" -lt 6 ]; then
    (cd .deb && apt-get download libcjson1 libcjson-dev libcmocka0 libcmocka-dev zlib1g \
        zlib1g-dev >/dev/null)
fi
# Open MPI 4.1 and the libraries it loads, for MPI runs on the GPU machine,
# whose image has no MPI: scripts/gpu-mpi-env.sh unpacks them there (7 MB).
mkdir -p gpu-data/ompi-deb
if [ "$(ls gpu-data/ompi-deb/*.deb 2>/dev/null | wc -l)" -lt 21 ]; then
    (cd gpu-data/ompi-deb && apt-get download openmpi-bin openmpi-common libopenmpi3 \
        libopenmpi-dev libpmix2 libevent-2.1-7 libevent-core-2.1-7 libevent-pthreads-2.1-7 \
        libhwloc15 libhwloc-plugins libfabric1 libibverbs1 ibverbs-providers librdmacm1 \
        libucx0 libpsm2-2 libpsm-infinipath1 libnuma1 libmunge2 libnl-3-200 \
        libnl-route-3-200 >/dev/null)
fi
commit=$(git describe --always --dirty --abbrev=10 2>/dev/null || echo unknown)
echo "$commit" >gpu-data/COMMIT
echo "commit $commit recorded in gpu-data/COMMIT"
src=${WT_TSPLIB_DIR:-../shared/tsplib}
if [ -d "$src" ]; then
    mkdir -p gpu-data/tsplib
    # Small and mid-size TSPLIB files only: the carried tree is limited to 64 MiB.
    find "$src" -maxdepth 1 -name '*.tsp' -size -1500k -exec cp {} gpu-data/tsplib/ \;
    cp "$src"/*.opt.tour "$src"/SOLUTIONS.tsv gpu-data/tsplib/
    # The benchmarks' larger instances, whatever the size rule above: d18512
    # (bench multistart), pla85900 and the large/ ones of Rocki & Suda's
    # Table II (bench pass, ls), about 12 MB in all.
    cp "$src/d18512.tsp" "$src/pla85900.tsp" gpu-data/tsplib/
    mkdir -p gpu-data/tsplib/large
    for f in sra104815 usa115475 ara238025; do
        [ -f "$src/large/$f.tsp" ] && cp "$src/large/$f.tsp" gpu-data/tsplib/large/
    done
    echo "gpu-data/tsplib: $(ls gpu-data/tsplib/*.tsp | wc -l) instances"
else
    echo "warning: no TSPLIB folder at $src: gpu-data/tsplib not filled;" \
         "the benchmarks and TSPLIB tests will not find their instances" >&2
fi
du -sh .deb gpu-data 2>/dev/null
