# warptour - top-level Makefile.  CMake does the work underneath (build/).
#
#   make          build build/warptour and build/libwarptour.a
#   make demo     build, then solve a bundled instance: 1000 random-restart 2-opt
#                 climbs, on the GPU if one is usable, else on the CPU
#   make test     build and run all tests, then again under ASan + UBSan
#   make deps     install the build dependencies (Debian packages)
#
# Variables: CUDA_ARCH=90 (GPU architectures, CMake syntax: "80;90", "89"),
#            CUDA=AUTO|ON|OFF (build the CUDA backend), JOBS=N.

CUDA_ARCH ?= 90
CUDA      ?= AUTO
JOBS      ?= $(shell nproc 2>/dev/null || echo 2)
BUILD     ?= build
ASAN_BUILD ?= build-asan

CMAKE_FLAGS = -DWT_CUDA=$(CUDA) -DWT_CUDA_ARCH="$(CUDA_ARCH)"

.PHONY: all deps configure demo test test-quick test-asan bench-check gpu-check clean

all: deps
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

test-quick: all
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

# The sanitized build leaves the CUDA backend out: the first build already
# compiled it, and sanitizers check host code only.
test-asan: deps
	cmake -S . -B $(ASAN_BUILD) -DWT_SANITIZE=ON -DWT_CUDA=OFF -DCMAKE_BUILD_TYPE=Debug >/dev/null
	cmake --build $(ASAN_BUILD) -j $(JOBS)
	cd $(ASAN_BUILD) && ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
	    UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	    ctest --output-on-failure -j $(JOBS)

# On a machine with a GPU: build, GPU tests, benchmarks, summary table.
gpu-check:
	scripts/gpu-check.sh

clean:
	rm -rf $(BUILD) $(ASAN_BUILD)
