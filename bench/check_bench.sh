#!/usr/bin/env bash
# bench/check_bench.sh — what `vcuda check` costs: the wall time of each example under each
# checker against a plain run of the same program, both on one host core (VCUDA_THREADS=1,
# `vcuda check --threads 1`), best of three runs each, measured in one go.
# Usage: bench/check_bench.sh [build-dir]   (after building the examples:
#        cmake --build build --target cuda_examples)
# Record the table in bench/RESULTS.md ("Checker").
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${1:-build}
VCUDA="$BUILD/bin/vcuda"
EX="$BUILD/examples"
[ -x "$VCUDA" ] && [ -x "$EX/reduceInteger" ] || {
  echo "build the examples first: cmake --build $BUILD --target cuda_examples" >&2; exit 2; }

# best of three wall-clock times of a command, in milliseconds (stdout discarded)
best_ms() {
  local best=
  for _ in 1 2 3; do
    local t0 t1
    t0=$(date +%s%N)
    "$@" > /dev/null 2>&1 || true
    t1=$(date +%s%N)
    local ms=$(( (t1 - t0) / 1000000 ))
    if [ -z "$best" ] || [ "$ms" -lt "$best" ]; then best=$ms; fi
  done
  echo "$best"
}

echo "vcuda check slowdown on $(uname -m), one host core ($(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | cut -d: -f2 | sed 's/^ //'))"
printf "%-34s %9s %11s %11s %11s %11s\n" program "plain ms" memcheck racecheck synccheck initcheck
for run in "reduceInteger" "reduceFloat" "reduceTwoPhase" "matMult" "sumMatrixOnGPU1D" "incr"; do
  set -- $run
  prog=$EX/$1; shift
  plain=$(VCUDA_THREADS=1 best_ms "$prog" "$@")
  line=$(printf "%-34s %9d" "$(basename "$prog") $*" "$plain")
  for tool in memcheck racecheck synccheck initcheck; do
    t=$(best_ms "$VCUDA" check --tool "$tool" --threads 1 --print-limit 1 "$prog" "$@")
    line="$line $(awk -v t="$t" -v p="$plain" 'BEGIN { printf "%6d %4.1fx", t, (p > 0 ? t / p : 0) }')"
  done
  echo "$line"
done
echo
echo "each checker column: checked wall ms and its ratio to the plain run (program start-up included)"
