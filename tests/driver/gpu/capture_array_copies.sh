#!/bin/bash
# Record tests/driver/expected/array_copies.out: build array_copies.cu with nvcc against the
# real driver and run it three times (identical output required). Recorded on an NVIDIA
# H200 (driver 580.159.04, CUDA 13.0.88), compute capability 9.0 as an H100, 2026-11-27.
set -u
export PATH=$PATH:/usr/local/cuda/bin
D=$(cd "$(dirname "$0")/.." && pwd)
cd /tmp
{ nvidia-smi --query-gpu=name,driver_version --format=csv; nvcc --version | tail -2; } > $OUT/environment.txt 2>&1
nvcc -O2 -arch=sm_90 -o array_copies $D/array_copies.cu -lcuda > $OUT/build.log 2>&1 || { cat $OUT/build.log; exit 1; }
for k in 1 2 3; do timeout 60 ./array_copies > $OUT/array_copies.out.$k 2> $OUT/array_copies.err.$k; echo $? > $OUT/array_copies.rc.$k; done
cat $OUT/environment.txt
cmp $OUT/array_copies.out.1 $OUT/array_copies.out.2 && cmp $OUT/array_copies.out.1 $OUT/array_copies.out.3 && echo IDENTICAL
cat $OUT/array_copies.rc.1 $OUT/array_copies.out.1 $OUT/array_copies.err.1
