# Top-level entry points; CMake does the building.
BUILD ?= build
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
EXAMPLE ?= reduceInteger

.PHONY: all build run test test-sanitize bench clean

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
	
bench: build
	bench/run_bench.sh $(BUILD)

clean:
	rm -rf build build-san
