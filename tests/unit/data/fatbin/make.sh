#!/bin/sh
# Regenerates the fatbins from kernel.cu with nvcc 13 (each is the .nv_fatbin section of
# the object nvcc makes):
#   sm90_zstd.fatbin   -arch=sm_90                 SASS sm_90 + PTX compute_90, zstd
#   multi.fatbin       PTX compute_75, compute_80, compute_90 (zstd) + SASS sm_90
#   sm90_raw.fatbin    -arch=sm_90 -no-compress    PTX stored as plain text
#   sm90_lz4.fatbin    -arch=sm_90 --compress-mode=speed   PTX as an LZ4 block
#   sass_only.fatbin   -gencode arch=compute_90,code=sm_90 SASS only
set -e
cd "$(dirname "$0")"
t=$(mktemp -d)
build() { out=$1; shift; nvcc -cudart none "$@" -c kernel.cu -o "$t/k.o"; objcopy -O binary --only-section=.nv_fatbin "$t/k.o" "$out"; }
build sm90_zstd.fatbin -arch=sm_90
build multi.fatbin -gencode arch=compute_75,code=compute_75 -gencode arch=compute_80,code=compute_80 -gencode arch=compute_90,code=sm_90 -gencode arch=compute_90,code=compute_90
build sm90_raw.fatbin -arch=sm_90 -no-compress
build sm90_lz4.fatbin -arch=sm_90 --compress-mode=speed
build sass_only.fatbin -gencode arch=compute_90,code=sm_90
rm -rf "$t"
