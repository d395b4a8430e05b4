#!/bin/bash
# Record tests/driver/expected/textures.out: build textures.cu with nvcc against the real
# driver and run it three times (identical output required). Recorded on an NVIDIA H200
# (driver 580.159.04, CUDA 13.0.88), compute capability 9.0 as an H100.
set -u
export PATH=$PATH:/usr/local/cuda/bin
D=$(cd "$(dirname "$0")" && pwd)
cd /tmp
{ nvidia-smi --query-gpu=name,driver_version --format=csv; nvcc --version | tail -2; } > $OUT/environment.txt 2>&1
nvcc -O2 -arch=sm_90 -o textures $D/textures.cu -lcuda > $OUT/build.log 2>&1 || { cat $OUT/build.log; exit 1; }
for k in 1 2 3; do ./textures > $OUT/textures.out.$k 2> $OUT/textures.err.$k; echo $? > $OUT/textures.rc.$k; done
cat $OUT/environment.txt; cmp $OUT/textures.out.1 $OUT/textures.out.2 && cmp $OUT/textures.out.1 $OUT/textures.out.3 && echo IDENTICAL
cat $OUT/textures.rc.*; cat $OUT/textures.out.1; cat $OUT/textures.err.1
