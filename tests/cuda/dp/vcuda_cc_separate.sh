#!/bin/sh
# tests/cuda/dp/vcuda_cc_separate.sh — separate compilation with `vcuda cc`: each
# translation unit compiled alone (-dc), one of them put in a static library, the program
# linked from the object and the library (tools/rdc.c finds the objects' device-link
# registrations in both), then run and compared with the H100's output.
#
# Usage: vcuda_cc_separate.sh <vcuda> <expected stdout> [VAR=value...]
#   the VAR=value pairs are the environment the program runs in
set -eu
vcuda=$1
expected=$2
shift 2
src=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/vcuda_cc_separate.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
cd "$tmp"
"$vcuda" cc -O2 -arch=sm_90 -dc "$src/rdcMain.cu" -o main.o
"$vcuda" cc -O2 -arch=sm_90 -dc "$src/rdcLib.cu" -o lib.o
ar rcs liblib.a lib.o
"$vcuda" cc -arch=sm_90 main.o -L. -llib liblib.a -o prog -lcudadevrt
env "$@" ./prog > out.txt
diff -u "$expected" out.txt
