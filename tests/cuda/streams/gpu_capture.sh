#!/usr/bin/env bash
# tests/cuda/streams/gpu_capture.sh — record what the stream tests print on a real GPU.
#
# Builds every *.cu here with plain nvcc (-O2 -arch=sm_90, plus the flags a file names on
# a line "nvcc-flags: ..."), runs each three times, and writes to <out>/streams/:
# <test>.out (run 1's stdout), <test>.rc (its exit status), and summary.txt saying per
# test whether the three runs printed the same ("stable") or not ("VARIES"); then packs
# it as <out>/streams.tar.gz.
#
# Usage: gpu_capture.sh <folder holding the tests> <out dir>
set -u
for d in /usr/local/cuda/bin; do [ -d "$d" ] && PATH=$PATH:$d; done
SRC=$(cd "$1" && pwd)
OUTDIR=$(mkdir -p "$2" && cd "$2" && pwd)
R=$OUTDIR/streams
BIN=/tmp/streams-bin
mkdir -p "$R" "$BIN"
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nvcc --version | tail -2; } > "$R/environment.txt" 2>&1

for src in "$SRC"/*.cu; do
    name=$(basename "$src" .cu)
    flags=$(sed -n 's/.*nvcc-flags: *\(.*\)$/\1/p' "$src" | head -1)
    ( nvcc -O2 -arch=sm_90 $flags -o "$BIN/$name" "$src" > "$R/build-$name.log" 2>&1 \
        || echo "BUILD FAILED: $name" >> "$R/summary.txt" ) &
done
wait

for src in "$SRC"/*.cu; do
    name=$(basename "$src" .cu)
    [ -x "$BIN/$name" ] || continue
    for run in 1 2 3; do
        timeout 120 "$BIN/$name" > "$R/$name.run$run" 2> "$R/$name.err$run"
        echo $? > "$R/$name.rc$run"
    done
    cp "$R/$name.run1" "$R/$name.out"
    cp "$R/$name.rc1" "$R/$name.rc"
    if cmp -s "$R/$name.run1" "$R/$name.run2" && cmp -s "$R/$name.run1" "$R/$name.run3"; then
        echo "$name: stable, exit $(cat "$R/$name.rc")" >> "$R/summary.txt"
    else
        echo "$name: VARIES, exit $(cat "$R/$name.rc")" >> "$R/summary.txt"
    fi
done
tar czf "$OUTDIR/streams.tar.gz" -C "$OUTDIR" streams
cat "$R/summary.txt"
