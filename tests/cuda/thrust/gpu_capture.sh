#!/usr/bin/env bash
# tests/cuda/thrust/gpu_capture.sh — record what the Thrust/CUB/libcu++ programs print on
# a real GPU.
#
# Builds every *.cu here with plain nvcc (-O2 -arch=sm_90), all at once, runs each three
# times, and packs into <out>/thrust.tar.gz (folder thrust/): <test>.out (run 1's stdout), <test>.rc (its exit status),
# summary.txt saying per test whether the three runs printed the same ("stable") or not
# ("VARIES"), the build and run times, and environment.txt (card, driver, nvcc). Extra
# programs to build and run once (a benchmark) may follow as "<source> [args...]".
#
# Usage: gpu_capture.sh <folder holding the tests> <out dir> [<extra source> [args...]]
set -u
for d in /usr/local/cuda/bin; do [ -d "$d" ] && PATH=$PATH:$d; done
SRC=$(cd "$1" && pwd)
OUTDIR=$(mkdir -p "$2" && cd "$2" && pwd)
shift 2
BIN=/tmp/thrust-bin
R=/tmp/thrust-capture/thrust
mkdir -p "$BIN" "$R"
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nvcc --version | tail -2; } > "$R/environment.txt" 2>&1

start=$(date +%s)
for src in "$SRC"/*.cu "$@"; do
    case $src in *.cu) ;; *) continue ;; esac
    name=$(basename "$src" .cu)
    ( t0=$(date +%s)
      nvcc -O2 -arch=sm_90 -o "$BIN/$name" "$src" > "$BIN/build-$name.log" 2>&1 || echo "BUILD FAILED: $name"
      echo "$name build $(( $(date +%s) - t0 )) s" >> "$R/times.txt" ) &
done
wait
echo "all builds $(( $(date +%s) - start )) s" >> "$R/times.txt"
cat "$BIN"/build-*.log > "$R/builds.log"

for src in "$SRC"/*.cu; do
    name=$(basename "$src" .cu)
    [ -x "$BIN/$name" ] || { echo "$name: not built" >> "$R/summary.txt"; continue; }
    for run in 1 2 3; do
        t0=$(date +%s.%N)
        timeout 60 "$BIN/$name" > "$BIN/$name.run$run" 2> "$BIN/$name.err$run"
        echo $? > "$BIN/$name.rc$run"
        echo "$name run $run $(echo "$(date +%s.%N) - $t0" | bc) s" >> "$R/times.txt"
    done
    cp "$BIN/$name.run1" "$R/$name.out"
    cp "$BIN/$name.rc1" "$R/$name.rc"
    if cmp -s "$BIN/$name.run1" "$BIN/$name.run2" && cmp -s "$BIN/$name.run1" "$BIN/$name.run3"; then
        echo "$name: stable, exit $(cat "$R/$name.rc")" >> "$R/summary.txt"
    else
        echo "$name: VARIES, exit $(cat "$R/$name.rc")" >> "$R/summary.txt"
        diff "$BIN/$name.run1" "$BIN/$name.run2" | head -20 >> "$R/summary.txt"
    fi
    head -c 2000 "$BIN/$name.err1" >> "$R/summary.txt"
done
# extra programs: <source> [args...], run once, their output appended to extra.txt
if [ $# -gt 0 ]; then
    name=$(basename "$1" .cu)
    shift
    { echo "== $name $*"; timeout 120 "$BIN/$name" "$@"; echo "exit $?"; } >> "$R/extra.txt" 2>&1
fi
tar czf "$OUTDIR/thrust.tar.gz" -C /tmp/thrust-capture thrust
cat "$R/summary.txt" "$R/times.txt" "$R/extra.txt"
