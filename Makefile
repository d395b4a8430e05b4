# Top-level entry points; CMake does the building.
BUILD ?= build
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
EXAMPLE ?= reduceInteger

.PHONY: all build run test test-sanitize test-tsan bench clean

all: build

build:
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo $(CMAKE_ARGS) >/dev/null
	cmake --build $(BUILD) -j $(JOBS)

# The main job: build vcuda, compile an example with `vcuda cc`, run it on the virtual GPU
# and show its metrics.
run: build
	$(BUILD)/bin/vcuda cc -O2 -o $(BUILD)/$(EXAMPLE) examples/$(EXAMPLE).cu
	$(BUILD)/bin/vcuda run $(BUILD)/$(EXAMPLE)

test: build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

# The same tests with AddressSanitizer and UndefinedBehaviorSanitizer.
test-sanitize:
	$(MAKE) test BUILD=build-san CMAKE_ARGS=-DVCUDA_SANITIZE=ON
	
# The multi-threaded stream stress test under ThreadSanitizer: right results, no races.
test-tsan:
	cmake -S . -B build-tsan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DVCUDA_TSAN=ON $(CMAKE_ARGS) >/dev/null
	cmake --build build-tsan -j $(JOBS) --target test_streams_stress
	cd build-tsan && ctest --output-on-failure -R '^unit/test_streams_stress$$'

bench: build
	bench/run_bench.sh $(BUILD)

clean:
	rm -rf build build-san build-tsan
