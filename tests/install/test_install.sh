#!/bin/sh
# tests/install: installs a built warptour into a temporary prefix
# (cmake --install), checks what is there, then builds
# tests/install/consumer/solve.c against it and runs it on data/berlin52.tsp
# three times: through the CMake package (find_package(warptour CONFIG), the
# static target), through pkg-config with the shared library (the README's
# line) and through pkg-config with the static library (Libs.private).
# Then the README's own steps: its library program (the ```c block of "The
# library") built with its PKG_CONFIG_PATH and cc lines, as they stand,
# against an install into $HOME/.local (HOME a temporary folder), run
# without LD_LIBRARY_PATH (the rpath of warptour.pc's Libs), printing the
# length the README says.  Nothing of Python may be installed.
# Without pkg-config (the GPU machines) the last three are skipped (exit 77).
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
# loads_libwarptour BINARY: whether it loads libwarptour.so at run time
loads_libwarptour() { readelf -d "$1" | grep -q 'NEEDED.*libwarptour\.so'; }

"$cmake" --install "$build" --prefix "$prefix" >/dev/null
header=$(find "$prefix" -name warptour.h)
archive=$(find "$prefix" -name libwarptour.a)
if [ -z "$header" ] || [ -z "$archive" ]; then
    fail "warptour.h or libwarptour.a not installed"
fi
[ -e "$(dirname "$header")/warptour_experimental.h" ] ||
    fail "warptour_experimental.h is not installed beside warptour.h"
libdir=$(dirname "$archive")
for f in libwarptour.so libwarptour.so.0 pkgconfig/warptour.pc \
         cmake/warptour/warptourConfig.cmake cmake/warptour/warptourConfigVersion.cmake; do
    [ -e "$libdir/$f" ] || fail "not installed: $libdir/$f"
done
# The shared library exports the headers' functions and nothing else.
for f in wt_solve wt_version_number wt_tuning_fields; do
    nm -D --defined-only "$libdir/libwarptour.so" | grep -q " T $f\$" ||
        fail "libwarptour.so does not export $f"
done
extra=$(nm -D --defined-only "$libdir/libwarptour.so" |
        awk '$2 ~ /^[TDBRVWi]$/ && $3 !~ /^wt_/ { print $3 }')
[ -z "$extra" ] || fail "libwarptour.so exports more than wt_ names: $extra"
# make install installs nothing of Python (pip install . does).
python=$(find "$prefix" -name '_warptour*' -o -name '*.py')
[ -z "$python" ] && [ ! -e "$prefix/warptour" ] ||
    fail "Python files installed under the prefix: $python"

echo "== CMake package"
"$cmake" -S "$src/tests/install/consumer" -B "$tmp/cmake" -DCMAKE_PREFIX_PATH="$prefix" \
    -DCMAKE_C_COMPILER="$cc" -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_FLAGS="$flags" -DCMAKE_EXE_LINKER_FLAGS="$flags" >"$tmp/cmake.log" 2>&1 ||
    { cat "$tmp/cmake.log"; fail "configuring the CMake consumer failed"; }
"$cmake" --build "$tmp/cmake" >"$tmp/build.log" 2>&1 ||
    { cat "$tmp/build.log"; fail "building the CMake consumer failed"; }
! loads_libwarptour "$tmp/cmake/solve" || fail "warptour::warptour is not the static library"
"$tmp/cmake/solve" "$data"

if ! command -v pkg-config >/dev/null; then
    echo "test_install: pkg-config is not installed: its two builds skipped"
    exit 77
fi
export PKG_CONFIG_PATH="$libdir/pkgconfig"
[ "$(cd "$(pkg-config --variable=includedir warptour)" && pwd -P)" = \
  "$(cd "$(dirname "$header")" && pwd -P)" ] ||
    fail "warptour.pc's includedir is not where warptour.h is"

echo "== pkg-config, shared"
# pkg-config's output and FLAGS are word lists:
# shellcheck disable=SC2046,SC2086
"$cc" $flags "$program" $(pkg-config --cflags --libs warptour) \
    -Wl,-rpath,"$(pkg-config --variable=libdir warptour)" -o "$tmp/solve_shared"
loads_libwarptour "$tmp/solve_shared" || fail "solve_shared does not load libwarptour.so"
"$tmp/solve_shared" "$data"

echo "== pkg-config, static"
libs=""
for w in $(pkg-config --static --libs warptour); do
    [ "$w" = -lwarptour ] || libs="$libs $w"
done
# shellcheck disable=SC2046,SC2086
"$cc" $flags "$program" $(pkg-config --cflags warptour) "$archive" $libs -o "$tmp/solve_static"
! loads_libwarptour "$tmp/solve_static" || fail "solve_static loads libwarptour.so"
"$tmp/solve_static" "$data"

echo "== the README's program, from the README's prefix"
unset PKG_CONFIG_PATH LD_LIBRARY_PATH
home=$tmp/home readme=$src/README.md
mkdir -p "$home" "$tmp/readme"
"$cmake" --install "$build" --prefix "$home/.local" >/dev/null
# The first ```c block after "## The library", and the two lines that build it.
awk '/^## The library/ { lib = 1 } lib && /^```c$/ { c = 1; next } c && /^```$/ { exit } c' \
    "$readme" >"$tmp/readme/solve.c"
steps=$(awk '/^## The library/ { lib = 1 } lib && /^(export PKG_CONFIG_PATH|cc solve\.c)/' "$readme")
[ -s "$tmp/readme/solve.c" ] && [ "$(printf '%s\n' "$steps" | wc -l)" -eq 2 ] ||
    fail "README.md: no library program or build lines under \"The library\""
said=$(sed -n 's/^It prints \([0-9][0-9]*\),.*/\1/p' "$readme")
ln -s "$(cd "$src/data" && pwd)" "$tmp/readme/data"
# cc is the compiler under test, with FLAGS (the sanitizers' runtime).
got=$(cd "$tmp/readme" && HOME=$home CC_UNDER_TEST=$cc FLAGS=$flags sh -c \
      'cc() { command "$CC_UNDER_TEST" $FLAGS "$@"; }
       '"$steps") || fail "the README's library steps failed"
[ "$got" = "$said" ] || fail "the README's program printed '$got', the README says '$said'"
readelf -d "$tmp/readme/solve" | grep -q 'R.*PATH.*\.local/lib' ||
    fail "the README's program has no rpath to the prefix's lib"
echo "README's program: $got"
