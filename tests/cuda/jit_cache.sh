#!/bin/sh
# tests/cuda/jit_cache.sh — the compiled tier's cache across runs of a program.
#
# In a fresh cache directory: the first run (VCUDA_JIT=always) compiles the program's
# functions, one compile unit (and cache entry) each; a second run with the default tier
# (VCUDA_JIT=1) must find every unit in the cache and compile nothing (VCUDA_REPORT's
# "compiled code" line), run every kernel compiled once its unit was found (its tier
# lines: launches before that only while the job looked in the cache),
# add nothing to the cache, and print what the first run and the interpreter
# (VCUDA_JIT=0) printed. The program should have several kernels.
#
# Usage: jit_cache.sh <program> [args...]
set -u
tmp=${TMPDIR:-/tmp}/jit_cache.$$
mkdir -p "$tmp/cache" || exit 2
trap 'rm -rf "$tmp"' EXIT INT TERM
export VCUDA_CACHE_DIR="$tmp/cache"
fail=0

VCUDA_JIT=0 "$@" > "$tmp/interp.out" 2>/dev/null
VCUDA_JIT=always VCUDA_REPORT=1 "$@" > "$tmp/first.out" 2> "$tmp/first.err" ||
    { echo "first run failed"; fail=1; }
entries=$(ls "$VCUDA_CACHE_DIR" | grep -c '\.so$')
if [ "$entries" -lt 1 ]; then
    echo "the first run left no compiled code in the cache"
    fail=1
fi
VCUDA_JIT=1 VCUDA_REPORT=1 "$@" > "$tmp/second.out" 2> "$tmp/second.err" ||
    { echo "second run failed"; fail=1; }
after=$(ls "$VCUDA_CACHE_DIR" | grep -c '\.so$')
if [ "$after" != "$entries" ]; then
    echo "the second run compiled again ($entries entries, then $after)"
    fail=1
fi
# (a launch that met the job still looking in the cache ran interpreted: the first
# program of a process leaves that to the job's threads, which ask the compiler its
# identity first, and the launches do not wait for it; none waited for a compile)
tiers=$(grep -c '^vcuda: tier: ' "$tmp/second.err")
compiled=$(grep -c -e '^vcuda: tier: .*: compiled$' \
    -e '^vcuda: tier: .* launches interpreted (looking in the cache: [0-9]* of [0-9]* units ready ([0-9]* found in the cache, 0 compiled))$' \
    "$tmp/second.err")
if [ "$tiers" -lt 1 ] || [ "$tiers" != "$compiled" ]; then
    echo "second run: not every kernel ran compiled once found in the cache:"
    grep '^vcuda: tier: ' "$tmp/second.err"
    fail=1
fi
# the report's line per program: one unit per function, every one built by the first run
# and found in the cache by the second ("N units: N found in the cache, 0 compiled")
units=$(sed -n 's/^vcuda: compiled code: .*: \([0-9]*\) units: .*/\1/p' "$tmp/first.err" | head -1)
if [ -z "$units" ] || [ "$units" -lt 2 ]; then
    echo "first run: no report of several compile units:"
    grep '^vcuda: compiled code: ' "$tmp/first.err"
    fail=1
elif ! grep -q "^vcuda: compiled code: .*: $units units: 0 found in the cache, $units compiled in " \
        "$tmp/first.err"; then
    echo "first run: not every unit was compiled:"
    grep '^vcuda: compiled code: ' "$tmp/first.err"
    fail=1
elif [ "$entries" != "$units" ]; then
    echo "the first run left $entries entries in the cache for $units units"
    fail=1
fi
if ! grep -q "^vcuda: compiled code: .*: $units units: $units found in the cache, 0 compiled" \
        "$tmp/second.err"; then
    echo "second run: compiled something (or found less than $units units in the cache):"
    grep '^vcuda: compiled code: ' "$tmp/second.err"
    fail=1
fi
for run in first second; do
    if ! cmp -s "$tmp/interp.out" "$tmp/$run.out"; then
        echo "the $run run printed something else than the interpreter:"
        diff "$tmp/interp.out" "$tmp/$run.out" | head -20
        fail=1
    fi
done
exit $fail
