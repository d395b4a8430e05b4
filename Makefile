# Top-level entry points; CMake does the building.
BUILD ?= build
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
EXAMPLE ?= reduceInteger

.PHONY: all build run test test-sanitize bench clean

all: build

build:
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo $(CMAKE_ARGS) >/dev/null
	cmake --build $(BUILD) -j $(JOBS)

METRICS ?= branch_efficiency,warp_execution_efficiency,gld_efficiency,gld_transactions_per_request,shared_load_transactions_per_request,achieved_occupancy

# The main job: build vcuda, compile an example with `vcuda cc`, run it on the virtual GPU
# and show, per kernel, the metrics nvprof would.
run: build
	$(BUILD)/bin/vcuda cc -O2 -arch=sm_90 -o $(BUILD)/$(EXAMPLE) examples/$(EXAMPLE).cu
	$(BUILD)/bin/vcuda prof --metrics $(METRICS) $(BUILD)/$(EXAMPLE)

test: build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

# The same tests with AddressSanitizer and UndefinedBehaviorSanitizer.
test-sanitize:
	$(MAKE) test BUILD=build-san CMAKE_ARGS=-DVCUDA_SANITIZE=ON
	
bench: build
	bench/run_bench.sh $(BUILD)

clean:
	rm -rf build build-san
