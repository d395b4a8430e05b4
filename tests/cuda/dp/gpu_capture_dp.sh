#!/bin/bash
# tests/cuda/dp/gpu_capture_dp.sh — record on a GPU machine what the dynamic-parallelism
# test programs (tests/cuda/dp/*.cu) and a few extra runs of examples/dp print.
#
# Usage: gpu_capture_dp.sh <tree> <out dir>
#   <tree> holds examples/ (common.h, dp/*.cu) and tests/cuda/dp/ as in the repository.
# Every program is built with plain nvcc (-O2 -arch=sm_90 -rdc=true ... -lcudadevrt) and
# every run is made three times; <out dir>/capture.tar.gz holds, per run <name>, the
# files <name>.<i>.out, .err and .rc, the build logs, and environment.txt.
set -u
tree=$1
out=$2
work=$(mktemp -d)
mkdir -p "$work/bin" "$work/runs"
dp="$tree/tests/cuda/dp"
ex="$tree/examples/dp"

{
    nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
    nvcc --version | tail -2
    compute-sanitizer --version 2>/dev/null | head -2
} > "$work/runs/environment.txt" 2>&1

build() {
    local name=$1
    shift
    nvcc -O2 -arch=sm_90 -rdc=true -o "$work/bin/$name" "$@" -lcudadevrt \
        > "$work/runs/$name.build.txt" 2>&1 || echo "build of $name failed" >> "$work/runs/summary.txt"
}

build dpOrder "$dp/dpOrder.cu"
build dpMemory "$dp/dpMemory.cu"
build dpApi "$dp/dpApi.cu"
build dpLimits "$dp/dpLimits.cu"
build dpBadPointer "$dp/dpBadPointer.cu"
build rdcMain "$dp/rdcMain.cu" "$dp/rdcLib.cu"
build nestedHelloWorld "$ex/nestedHelloWorld.cu"
build nestedHelloWorldBlocks "$ex/nestedHelloWorldBlocks.cu"
build nestedHelloWorldLimited "$ex/nestedHelloWorldLimited.cu"

# run <name> <binary> [args...]: three runs, kept as <name>.<i>.{out,err,rc}
run() {
    local name=$1 bin=$2
    shift 2
    for i in 1 2 3; do
        timeout 120 "$work/bin/$bin" "$@" > "$work/runs/$name.$i.out" 2> "$work/runs/$name.$i.err"
        echo $? > "$work/runs/$name.$i.rc"
    done
    if cmp -s "$work/runs/$name.1.out" "$work/runs/$name.2.out" &&
       cmp -s "$work/runs/$name.1.out" "$work/runs/$name.3.out"; then
        echo "$name stable" >> "$work/runs/summary.txt"
    else
        echo "$name VARIES" >> "$work/runs/summary.txt"
    fi
}

run dpOrder dpOrder
run dpMemory dpMemory
run dpApi dpApi
run dpLimits dpLimits
run dpLimits_pending dpLimits pending
run dpLimits_2048 dpLimits 2048
run dpLimits_2049 dpLimits 2049
run dpLimits_4096 dpLimits 4096
run dpBadPointer_shared dpBadPointer shared
run dpBadPointer_local dpBadPointer local
run dpBadPointer_global dpBadPointer global
run rdcMain rdcMain
run nestedHelloWorldBlocks_3x8 nestedHelloWorldBlocks 3 8
run nestedHelloWorldBlocks_2x64 nestedHelloWorldBlocks 2 64
run nestedHelloWorldBlocks_4x4 nestedHelloWorldBlocks 4 4
run nestedHelloWorldLimited_3x2 nestedHelloWorldLimited 3 2
run nestedHelloWorld_3 nestedHelloWorld 3
for mode in shared local; do
    compute-sanitizer --tool memcheck "$work/bin/dpBadPointer" $mode \
        > "$work/runs/dpBadPointer_$mode.memcheck.txt" 2>&1
    echo $? > "$work/runs/dpBadPointer_$mode.memcheck.rc"
done

tar czf "$out/capture.tar.gz" -C "$work" runs
