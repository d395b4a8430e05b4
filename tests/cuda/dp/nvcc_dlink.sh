#!/bin/sh
# tests/cuda/dp/nvcc_dlink.sh — a program device-linked by nvcc itself runs on libvcuda.
#
# nvcc's own separate-compilation steps (nvcc -dc, nvcc -dlink: nvlink plus crt/link.stub)
# register the objects through one device-linked fatbin wrapper (version 2) listing every
# object's fatbin, libcudadevrt's included; vcuda cc does the device link differently
# (tools/rdc.c). Both must work: this builds rdcMain + rdcLib the nvcc way, links the host
# code against libvcuda and compares the output with the H100's.
#
# Usage: nvcc_dlink.sh <nvcc> <libvcuda dir> <expected stdout> [VAR=value...]
#   the VAR=value pairs are the environment the program runs in
set -eu
nvcc=$1
libdir=$2
expected=$3
shift 3
src=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/nvcc_dlink.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
cd "$tmp"
"$nvcc" -cudart none -arch=sm_90 -dc "$src/rdcMain.cu" "$src/rdcLib.cu"
"$nvcc" -arch=sm_90 -dlink rdcMain.o rdcLib.o -o dlink.o -lcudadevrt
"$nvcc" -cudart none rdcMain.o rdcLib.o dlink.o -o prog -L"$libdir" -lvcuda \
    -Xlinker -rpath,"$libdir" -lcudadevrt
env "$@" ./prog > out.txt
diff -u "$expected" out.txt
