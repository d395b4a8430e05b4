#!/usr/bin/env bash
# bench/prof_overhead.sh — what `vcuda prof` costs: for every example test, the program run
# plainly and under the profiler (the default summary, and --metrics all), each on one host
# core (VCUDA_THREADS=1), the best CPU time (user+sys) of N runs; and a check that the
# program's stdout is the same both ways.
# Usage: bench/prof_overhead.sh [build-dir] [runs]   (examples built: --target cuda_examples)
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${1:-build}
RUNS=${2:-3}
VCUDA="$BUILD/bin/vcuda"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

best() {  # best <runs> <cmd...>: least user+sys seconds
  local b=999
  for _ in $(seq "$1"); do
    /usr/bin/time -o "$tmp/t" -f "%U %S" "${@:2}" > /dev/null 2>&1 || true
    b=$(awk -v b="$b" '{t = $1 + $2; print (t < b) ? t : b}' "$tmp/t")
  done
  echo "$b"
}

printf "%-22s %9s %9s %7s %9s %7s  %s\n" test "plain s" "prof s" ratio "all s" ratio "stdout"
grep -v '^#' tests/cuda/examples.list | while read -r t ex args; do
  [ -n "$t" ] || continue
  prog="$BUILD/examples/$ex"
  [ -x "$prog" ] || continue
  # shellcheck disable=SC2086
  VCUDA_THREADS=1 "$prog" $args > "$tmp/plain.out" 2>/dev/null || true
  # shellcheck disable=SC2086
  VCUDA_THREADS=1 "$VCUDA" prof --log-file "$tmp/log" "$prog" $args > "$tmp/prof.out" 2>/dev/null || true
  same=$(cmp -s "$tmp/plain.out" "$tmp/prof.out" && echo same || echo DIFFERS)
  # shellcheck disable=SC2086
  p=$(best "$RUNS" env VCUDA_THREADS=1 "$prog" $args)
  # shellcheck disable=SC2086
  q=$(best "$RUNS" env VCUDA_THREADS=1 "$VCUDA" prof --log-file "$tmp/log" "$prog" $args)
  # shellcheck disable=SC2086
  a=$(best "$RUNS" env VCUDA_THREADS=1 "$VCUDA" prof --metrics all --log-file "$tmp/log" "$prog" $args)
  awk -v t="$t" -v p="$p" -v q="$q" -v a="$a" -v s="$same" 'BEGIN {
      printf "%-22s %9.2f %9.2f %6.2fx %9.2f %6.2fx  %s\n", t, p, q, (p > 0 ? q / p : 0), a,
             (p > 0 ? a / p : 0), s }'
done
