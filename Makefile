# warptour - top-level Makefile.  CMake does the work underneath (build/).
#
#   make          build build/warptour, build/warptour-bench (the
#                 benchmarks) and build/libwarptour.a (installs
#                 nothing: make deps, demo and test install what is missing)
#   make demo     install missing packages, build, then solve a bundled
#                 instance: 1000 random-restart 2-opt climbs, on the GPU if
#                 one is usable, else on the CPU
#   make test     install missing packages, build and run all tests, then
#                 again under ASan + UBSan
#   make test-load  after make test: the tests that watch the clock (time
#                 limits, stops, signals) again while a busy loop runs on
#                 every core (scripts/under-load.sh; CI runs it)
#   make install  build, then install into PREFIX: the warptour program,
#                 libwarptour (static and shared), warptour.h, the CMake
#                 package and warptour.pc (nothing of Python: pip install .
#                 installs the Python package)
#   make deps     install the build dependencies (Debian packages)
#   make fuzz     fuzz the readers (clang, libFuzzer) for FUZZ_SECONDS each,
#                 then inject allocation failures into them and into wt_solve
#                 (FUZZ_SECONDS too; CI runs it)
#   make fuzz-readers  the same without wt_solve's
#
# Variables: CUDA_ARCH=90 (GPU architectures, CMake syntax: "80;90", "89"),
#            CUDA=AUTO|ON|OFF (build the CUDA backend: AUTO where nvcc is
#            found and a GPU driver is present, ON wherever nvcc is),
#            MPI=AUTO|ON|OFF (mpirun support and libwarptour_mpi: AUTO where
#            MPI is found; docs/mpi.md), JOBS=N,
#            PREFIX=/usr/local (make install; DESTDIR is honoured too),
#            WERROR=OFF|ON (ON: compiler warnings are errors; CI's setting).

CUDA_ARCH ?= 90
CUDA      ?= AUTO
MPI       ?= AUTO
JOBS      ?= $(shell nproc 2>/dev/null || echo 2)
BUILD     ?= build
ASAN_BUILD ?= build-asan
PREFIX    ?= /usr/local
WERROR    ?= OFF

# CUDA=AUTO: compiling the CUDA backend takes minutes, worth it only where it
# can run, so AUTO leaves it out unless a GPU driver is present (its device
# node or nvidia-smi); then CMake's AUTO builds it where it finds nvcc.
# CUDA=ON builds it wherever nvcc is (CI: it has nvcc and no GPU).
ifeq ($(CUDA),AUTO)
  GPU_DRIVER := $(shell { [ -e /dev/nvidia0 ] || nvidia-smi -L; } >/dev/null 2>&1 && echo yes)
  WT_CUDA := $(if $(GPU_DRIVER),AUTO,OFF)
  WT_CUDA_WHY := no GPU driver when make ran with CUDA=AUTO: make CUDA=ON builds it
else
  WT_CUDA := $(CUDA)
  WT_CUDA_WHY := make CUDA=$(CUDA)
endif
CMAKE_FLAGS = -DWT_CUDA=$(WT_CUDA) -DWT_CUDA_ARCH="$(CUDA_ARCH)" -DWT_CUDA_OFF_WHY="$(WT_CUDA_WHY)" \
              -DWT_WERROR=$(WERROR) -DWT_MPI=$(MPI)

# Only deps, demo and test install packages (apt-get); plain make does not.
# Where a goal asks for them, they come before any build (also under -j).
DEPS_FIRST := $(if $(filter deps demo test,$(MAKECMDGOALS)),deps)

.PHONY: all deps configure demo test test-quick test-asan test-load install fuzz fuzz-readers bench-check gpu-check clean

all: | $(DEPS_FIRST)
	cmake -S . -B $(BUILD) $(CMAKE_FLAGS) -DCMAKE_BUILD_TYPE=Release >/dev/null
	cmake --build $(BUILD) -j $(JOBS)

deps:
	@scripts/install-deps.sh

demo: all
	@mkdir -p $(BUILD)/demo
	$(BUILD)/warptour devices
	$(BUILD)/warptour solve data/berlin52.tsp --algorithm multistart --restarts 1000 --seed 1 \
	    --output $(BUILD)/demo/berlin52.tour --svg $(BUILD)/demo/berlin52.svg
	$(BUILD)/warptour check data/berlin52.tsp $(BUILD)/demo/berlin52.tour
	@echo "Tour: $(BUILD)/demo/berlin52.tour   Picture: $(BUILD)/demo/berlin52.svg"

test: test-quick test-asan

# OpenMP's threads sleep while they wait: spinning, two test programs side
# by side on two cores (ctest -j 2) slow each other's parallel regions
# several times over (test_ls_lk: about 42 s passive, 100-250 s spinning on
# a loaded 2-core machine).  Only the tests' runs: the library, the
# demo and every user keep the runtime's default.
test-quick test-asan test-load: export OMP_WAIT_POLICY ?= passive

test-quick: all
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

# The sanitized build leaves the CUDA backend out: the first build already
# compiled it, and sanitizers check host code only.
test-asan: | $(DEPS_FIRST)
	cmake -S . -B $(ASAN_BUILD) -DWT_SANITIZE=ON -DWT_CUDA=OFF -DWT_WERROR=$(WERROR) \
	    -DCMAKE_BUILD_TYPE=Debug >/dev/null
	cmake --build $(ASAN_BUILD) -j $(JOBS)
	cd $(ASAN_BUILD) && ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
	    UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	    ctest --output-on-failure -j $(JOBS)

# The tests whose runs take time limits, stops and signals, which a busy
# machine delays: they must hold under load too (a user's first make test
# runs on a laptop doing other work).  Uses the build make test made.
LOAD_TESTS ?= test_batch|test_multistart|test_sa|test_windows|python_test_batch|python_test_issue39|cli_test_stops
test-load:
	scripts/under-load.sh $(JOBS) sh -c 'cd $(BUILD) && ctest --output-on-failure -j $(JOBS) -R "^($(LOAD_TESTS))$$"'

install: all
	cmake --install $(BUILD) --prefix "$(PREFIX)"

# make fuzz: the readers of untrusted input (TSPLIB and TOUR files, point
# files) under libFuzzer, FUZZ_SECONDS each, allocation failures injected
# into the readers (oom_tsplib), then into wt_solve's algorithms on the CPU
# backend under LeakSanitizer for FUZZ_SECONDS too (oom_solve: the whole
# takes over ten minutes on two cores, so its -max_total_time spreads the
# failures it tries over every configuration; run it by hand without one
# for all of them) (tests/fuzz says how the harnesses work); CI runs it
# (.ci/run).  make fuzz-readers: all but oom_solve's run, which it only
# builds.  Not part of `make test`: they want clang.  Each harness is a
# target of its own and each run a goal of its own, so that make -j N
# builds and runs N at a time (each is one thread; CI: make -j 2).
FUZZ_SECONDS ?= 120
FUZZ_SRC = src/core/tsplib_read.c src/core/points_read.c src/core/instance_read.c \
           src/core/textfile.c src/core/instance.c src/core/error.c src/core/optima.c src/core/tour.c \
           src/core/fixed_edges.c src/core/atsp.c src/core/instance_matrix.c
FUZZ_CFLAGS = -std=c11 -g -O1 -D_POSIX_C_SOURCE=200809L -Iinclude -Isrc
FUZZ_DIR = $(BUILD)/fuzz
# oom_solve: wt_solve on the CPU backend, the whole library but CUDA.
OOM_SOLVE_SRC = $(wildcard src/core/*.c src/ls/*.c src/algo/*.c src/backend/*.c \
                          src/backend/cpu/*.c) src/backend/cuda/cuda_absent.c
FUZZ_HDR = $(wildcard include/*.h src/*/*.h src/backend/*/*.h tests/fuzz/*.h)

.PHONY: fuzz-run-tsplib fuzz-run-points fuzz-run-oom-tsplib fuzz-run-oom-solve

$(FUZZ_DIR)/fuzz_%: tests/fuzz/fuzz_%.c $(FUZZ_SRC) $(FUZZ_HDR)
	@mkdir -p $(FUZZ_DIR)
	clang $(FUZZ_CFLAGS) -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
	    $< $(FUZZ_SRC) -lm -lz -o $@
$(FUZZ_DIR)/oom_tsplib: tests/fuzz/oom_tsplib.c $(FUZZ_SRC) $(FUZZ_HDR)
	@mkdir -p $(FUZZ_DIR)
	clang $(FUZZ_CFLAGS) -fsanitize=address,undefined $< $(FUZZ_SRC) -lm -lz \
	    -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc -o $@
$(FUZZ_DIR)/oom_solve: tests/fuzz/oom_solve.c $(OOM_SOLVE_SRC) $(FUZZ_HDR)
	@mkdir -p $(FUZZ_DIR)
	clang $(FUZZ_CFLAGS) -fopenmp -fsanitize=address,undefined -Wno-pass-failed \
	    $< $(OOM_SOLVE_SRC) -lm -lz \
	    -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc -o $@

fuzz-run-tsplib: $(FUZZ_DIR)/fuzz_tsplib
	@mkdir -p $(FUZZ_DIR)/corpus
	$< -timeout=5 -rss_limit_mb=2048 -max_total_time=$(FUZZ_SECONDS) \
	    -dict=tests/fuzz/tsplib.dict $(FUZZ_DIR)/corpus tests/fuzz/seeds data
fuzz-run-points: $(FUZZ_DIR)/fuzz_points
	@mkdir -p $(FUZZ_DIR)/corpus-points
	$< -timeout=5 -rss_limit_mb=2048 -max_total_time=$(FUZZ_SECONDS) \
	    -dict=tests/fuzz/points.dict $(FUZZ_DIR)/corpus-points tests/fuzz/seeds-points
fuzz-run-oom-tsplib: $(FUZZ_DIR)/oom_tsplib
	ASAN_OPTIONS=allocator_may_return_null=1 $< tests/fuzz/seeds/both.tsp tests/fuzz/seeds/both.tsp
fuzz-run-oom-solve: $(FUZZ_DIR)/oom_solve
	ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1 $< -max_total_time=$(FUZZ_SECONDS)

fuzz-readers: fuzz-run-tsplib fuzz-run-points fuzz-run-oom-tsplib $(FUZZ_DIR)/oom_solve

# oom_solve's run first: its build is the longest, and make -j starts the
# readers' builds and runs beside it.
fuzz: fuzz-run-oom-solve fuzz-readers

# On a machine with a GPU: build, GPU tests, benchmarks, summary table.
gpu-check:
	scripts/gpu-check.sh

clean:
	rm -rf $(BUILD) $(ASAN_BUILD)
