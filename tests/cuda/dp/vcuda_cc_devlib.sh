#!/bin/sh
# tests/cuda/dp/vcuda_cc_devlib.sh — a static library of device functions only
# (devLibFns.cu) linked with `vcuda cc` the two ways programs do it: the library made by
# `vcuda cc -lib` and given as an input, and made by `ar` from a -dc object and found
# through -L/-l (and -l:<file>). Each program runs and is compared with what the program printed on an
# H200 (built there with nvcc -rdc=true -lib and the library as an input; three runs alike).
#
# Usage: vcuda_cc_devlib.sh <vcuda> <expected stdout> [VAR=value...]
#   the VAR=value pairs are the environment the programs run in
set -eu
vcuda=$1
expected=$2
shift 2
src=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/vcuda_cc_devlib.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
cd "$tmp"
"$vcuda" cc -O2 -arch=sm_90 -rdc=true -lib "$src/devLibFns.cu" -o libdevfns.a
"$vcuda" cc -O2 -arch=sm_90 -rdc=true "$src/devLibMain.cu" libdevfns.a -o prog_input
env "$@" ./prog_input > out_input.txt
diff -u "$expected" out_input.txt
"$vcuda" cc -O2 -arch=sm_90 -dc "$src/devLibFns.cu" -o fns.o
ar rcs libfns.a fns.o
"$vcuda" cc -O2 -arch=sm_90 -dc "$src/devLibMain.cu" -o main.o
"$vcuda" cc -arch=sm_90 main.o -L. -lfns -o prog_l
env "$@" ./prog_l > out_l.txt
diff -u "$expected" out_l.txt
"$vcuda" cc -arch=sm_90 main.o -L. -l:libfns.a -o prog_file
env "$@" ./prog_file > out_file.txt
diff -u "$expected" out_file.txt
