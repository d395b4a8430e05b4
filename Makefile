# Top-level entry points; CMake does the building.
BUILD ?= build
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
EXAMPLE ?= reduceInteger

.PHONY: all deps build run test test-sanitize test-thrust test-tsan fuzz bench clean install uninstall

all: build

# Install what a fresh Debian machine lacks (one line says what), find the CUDA toolkit.
deps:
	@tools/ensure-deps.sh

build: deps
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo $(CMAKE_ARGS) >/dev/null
	cmake --build $(BUILD) -j $(JOBS)

METRICS ?= branch_efficiency,warp_execution_efficiency,gld_efficiency,gld_transactions_per_request,shared_load_transactions_per_request,achieved_occupancy

# The main job: build vcuda, compile an example with `vcuda cc`, run it on the virtual GPU
# and show, per kernel, the metrics nvprof would.
run: build
	$(BUILD)/bin/vcuda cc -O2 -arch=sm_90 -o $(BUILD)/$(EXAMPLE) examples/$(EXAMPLE).cu
	$(BUILD)/bin/vcuda prof --metrics $(METRICS) $(BUILD)/$(EXAMPLE)

# Labels left out of `make test` (a ctest -LE pattern; empty: none). Every test runs by
# default, the Thrust/CUB/libcu++ suite (label thrust) included: its builds cost about three
# and a half minutes of nvcc CPU time per build tree and start first, beside the other tests
# (tests/cuda/thrust/CMakeLists.txt); TEST_EXCLUDE='^thrust$$' leaves it out.
TEST_EXCLUDE ?=

test: build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS) $(if $(TEST_EXCLUDE),-LE '$(TEST_EXCLUDE)') $(CTEST_ARGS)

# The same tests with AddressSanitizer and UndefinedBehaviorSanitizer.
# The compiled tier's second pass over the program tests (label jit) is left out here: its
# generated code is not instrumented, and the tier's own tests (unit/test_jit_tiers) run.
# The test programs are not instrumented either: those the $(BUILD) tree holds up to date
# are copied from it rather than compiled again (tests/cc_reuse.sh).
test-sanitize:
	$(MAKE) test BUILD=build-san TEST_EXCLUDE='^(jit|thrust)$$' \
	  CMAKE_ARGS="-DVCUDA_SANITIZE=ON -DVCUDA_REUSE_PROGRAMS_FROM=$(abspath $(BUILD))"

# The Thrust, CUB and libcu++ conformance suite (tests/cuda/thrust; BUILD=build-san for the
# sanitizer tree).
test-thrust: build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS) -L '^thrust$$' $(CTEST_ARGS)
	
# The multi-threaded stream stress test and the compiled tier's test (units installed by
# background threads while kernels run) under ThreadSanitizer: right results, no races.
test-tsan: deps
	cmake -S . -B build-tsan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DVCUDA_TSAN=ON $(CMAKE_ARGS) >/dev/null
	cmake --build build-tsan -j $(JOBS) --target test_streams_stress test_jit_tiers
	cd build-tsan && ctest --output-on-failure -R '^unit/test_(streams_stress|jit_tiers)$$'

# The libFuzzer targets (clang), each for FUZZ_SECONDS; findings stop with the input kept.
FUZZ_SECONDS ?= 30
fuzz: deps
	cmake -S . -B build-fuzz -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=RelWithDebInfo -DVCUDA_FUZZ=ON $(CMAKE_ARGS) >/dev/null
	cmake --build build-fuzz -j $(JOBS) --target fuzz_ptx fuzz_link fuzz_fatbin fuzz_printf fuzz_driver
	tests/fuzz/run.sh build-fuzz $(FUZZ_SECONDS)
# make install [PREFIX=/usr/local]: bin/vcuda, lib/libvcuda.so, lib/cmake/vcuda (the CMake
# package and the toolchain file for CMake CUDA projects), lib/pkgconfig/vcuda.pc.
PREFIX ?= /usr/local
install: build
	cmake --install $(BUILD) --prefix $(PREFIX)
	@cp $(BUILD)/install_manifest.txt $(BUILD)/install_manifest.last

# make uninstall: removes every file the last `make install` from this build tree wrote,
# then the folders of vcuda's own that are left empty.
uninstall:
	@tools/uninstall.sh $(BUILD)/install_manifest.last

bench: build
	bench/run_bench.sh $(BUILD)

clean:
	rm -rf build build-san build-tsan build-fuzz
