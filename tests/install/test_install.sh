#!/bin/sh
# tests/install: installs a built warptour into a temporary prefix
# (cmake --install), checks what is there, then builds
# tests/install/consumer/solve.c against it and runs it on data/berlin52.tsp
# three times: through pkg-config with the shared library (the README's
# line), through pkg-config with the static library (Libs.private), and
# through the CMake package (find_package(warptour CONFIG), the static
# target).
#
# usage: test_install.sh CMAKE BUILD_DIR SOURCE_DIR CC [FLAGS]
#   FLAGS go to every compile and link of the program (the sanitizer build
#   passes its -fsanitize options: its library needs their runtime).
set -eu
cmake=$1 build=$2 src=$3 cc=$4 flags=${5:-}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/warptour-install.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
prefix=$tmp/prefix
program=$src/tests/install/consumer/solve.c
data=$src/data/berlin52.tsp

fail() { echo "test_install: $*" >&2; exit 1; }

"$cmake" --install "$build" --prefix "$prefix" >/dev/null
pc=$(find "$prefix" -name warptour.pc)
[ -n "$pc" ] || fail "no warptour.pc under $prefix"
command -v pkg-config >/dev/null || fail "pkg-config is not installed"
export PKG_CONFIG_PATH="$(dirname "$pc")"
libdir=$(pkg-config --variable=libdir warptour)
includedir=$(pkg-config --variable=includedir warptour)
for f in "$includedir/warptour.h" "$libdir/libwarptour.a" "$libdir/libwarptour.so" \
         "$libdir/libwarptour.so.0" "$libdir/cmake/warptour/warptourConfig.cmake"; do
    [ -e "$f" ] || fail "not installed: $f"
done
# The shared library exports the header's functions and nothing else.
if command -v nm >/dev/null; then
    nm -D --defined-only "$libdir/libwarptour.so" | grep -q ' T wt_solve$' ||
        fail "libwarptour.so does not export wt_solve"
    extra=$(nm -D --defined-only "$libdir/libwarptour.so" |
            awk '$2 ~ /^[TDBRVW]$/ && $3 !~ /^wt_/ { print $3 }')
    [ -z "$extra" ] || fail "libwarptour.so exports more than wt_ names: $extra"
fi

echo "== pkg-config, shared"
# shellcheck disable=SC2086  # pkg-config's output and FLAGS are word lists
"$cc" $flags "$program" $(pkg-config --cflags --libs warptour) \
    -Wl,-rpath,"$libdir" -o "$tmp/solve_shared"
readelf -d "$tmp/solve_shared" | grep -q 'NEEDED.*libwarptour\.so\.0' ||
    fail "solve_shared does not load libwarptour.so.0"
"$tmp/solve_shared" "$data"

echo "== pkg-config, static"
libs=""
for w in $(pkg-config --static --libs warptour); do
    [ "$w" = -lwarptour ] || libs="$libs $w"
done
# shellcheck disable=SC2086
"$cc" $flags "$program" $(pkg-config --cflags warptour) "$libdir/libwarptour.a" $libs \
    -o "$tmp/solve_static"
! readelf -d "$tmp/solve_static" | grep -q libwarptour || fail "solve_static loads libwarptour.so"
"$tmp/solve_static" "$data"

echo "== CMake package"
"$cmake" -S "$src/tests/install/consumer" -B "$tmp/cmake" -DCMAKE_PREFIX_PATH="$prefix" \
    -DCMAKE_C_COMPILER="$cc" -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_FLAGS="$flags" -DCMAKE_EXE_LINKER_FLAGS="$flags" >/dev/null
"$cmake" --build "$tmp/cmake" >/dev/null
! readelf -d "$tmp/cmake/solve" | grep -q libwarptour ||
    fail "warptour::warptour is not the static library"
"$tmp/cmake/solve" "$data"
