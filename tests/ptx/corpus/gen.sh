#!/bin/sh
# Regenerate the PTX of the .cu files named (default: all here) with CUDA 13.0.88: sm_90,
# sm_80 and sm_75, -G for sm_90, and -use_fast_math for fastmath.cu. Run in this directory.
set -e
[ $# -gt 0 ] || set -- *.cu
for cu in "$@"; do
    b=${cu%.cu}
    for sm in 90 80 75; do
        nvcc -arch=sm_$sm -ptx "$cu" -o "$b.sm$sm.ptx"
    done
    nvcc -arch=sm_90 -G -ptx "$cu" -o "$b.G.ptx"
    [ "$b" != fastmath ] || nvcc -arch=sm_90 -use_fast_math -ptx fastmath.cu -o fastmath.fast.sm90.ptx
done
