#!/bin/sh
# Installs what the build needs, from Debian's packages, when it is missing:
#   cmake, gcc, make, pkg-config  the build itself
#   libcjson-dev                  JSON output of the CLI (--json)
#   zlib1g-dev                    gzip-compressed instances and tours
#   libcmocka-dev                 the unit-test framework
#   python3                       the CLI tests
#   libopenmpi-dev, openmpi-bin   several processes and machines (mpirun;
#                                 optional: CMake's WT_MPI=AUTO builds
#                                 without it where it is missing)
#   python3-dev (headers)         the Python package's extension module
#   numpy, pytest                 the Python package's tests, for the python3
#                                 on PATH (the one CMake finds): pip first,
#                                 Debian's python3-numpy/-pytest where pip
#                                 may not install (an externally managed one)
#   mpi4py                        the Python package's MPI entry
#                                 (solve(comm=MPI.COMM_WORLD)) and its test;
#                                 pip first, Debian's python3-mpi4py as above
# The CUDA toolkit (nvcc) is optional and not installed here.
set -e
need=""
command -v cmake >/dev/null 2>&1 || need="$need cmake"
command -v cc >/dev/null 2>&1 || need="$need gcc"
command -v pkg-config >/dev/null 2>&1 || need="$need pkg-config"
command -v python3 >/dev/null 2>&1 || need="$need python3"
pkg-config --exists libcjson 2>/dev/null || need="$need libcjson-dev"
pkg-config --exists zlib 2>/dev/null || need="$need zlib1g-dev"
pkg-config --exists cmocka 2>/dev/null || need="$need libcmocka-dev"
command -v mpicc >/dev/null 2>&1 || need="$need libopenmpi-dev"
command -v mpirun >/dev/null 2>&1 || need="$need openmpi-bin"
if command -v python3 >/dev/null 2>&1; then
    python3 -c 'import sysconfig, os, sys; sys.exit(not os.path.exists(os.path.join(sysconfig.get_paths()["include"], "Python.h")))' \
        2>/dev/null || need="$need python3-dev"
    if ! python3 -c 'import numpy, pytest' >/dev/null 2>&1; then
        echo "warptour: installing numpy and pytest for $(command -v python3)"
        python3 -m pip install --quiet numpy pytest >/dev/null 2>&1 ||
            need="$need python3-numpy python3-pytest"
    fi
    if ! python3 -c 'import mpi4py' >/dev/null 2>&1; then
        echo "warptour: installing mpi4py for $(command -v python3)"
        python3 -m pip install --quiet mpi4py >/dev/null 2>&1 || need="$need python3-mpi4py"
    fi
else
    need="$need python3-dev python3-numpy python3-pytest python3-mpi4py"
fi
[ -z "$need" ] && exit 0
echo "warptour: installing build dependencies:$need"
if [ "$(id -u)" = 0 ]; then sudo=""; elif command -v sudo >/dev/null 2>&1; then sudo="sudo"; else
    echo "warptour: please install as root: apt-get install$need" >&2; exit 1
fi
$sudo apt-get install -y --no-install-recommends $need >/dev/null 2>&1 ||
    { $sudo apt-get update >/dev/null && $sudo apt-get install -y --no-install-recommends $need; }
