#!/bin/bash
# Build every probe with plain nvcc and run it on the GPU; stdout and stderr of each run go
# to expected/<name>.out and expected/<name>.err. Usage: run_probes.sh <probe dir> <out dir>
set -u
src=${1:-.}; out=${2:-expected}
mkdir -p "$out" /tmp/probes
nvidia-smi -L > "$out/device.txt" 2>&1
nvcc --version | tail -1 >> "$out/device.txt"
for f in "$src"/*.cu; do
    n=$(basename "$f" .cu)
    (nvcc -arch=sm_90 -o /tmp/probes/$n "$f" 2> /tmp/probes/$n.build || echo "BUILD FAILED $n") &
done
wait
run() { # name args...
    local name=$1; shift
    local bin=$1; shift
    timeout 120 /tmp/probes/$bin "$@" > "$out/$name.out" 2> "$out/$name.err"
    echo "exit $?" >> "$out/$name.err"
}
for n in launch_config memory_api pitch device_api events_streams error_strings props func_attrs symbols printf_order printf_flush sticky; do
    run $n $n
done
for m in oob oob_64k oob_4m oob_256m null misaligned trap assert brkpt; do run fault_${m} fault $m sync; done
run fault_oob_memcpy fault oob memcpy
run fault_assert_memcpy fault assert memcpy
