#!/bin/sh
# tests/cuda/jit_cache.sh — the compiled tier's cache across runs of a program.
#
# In a fresh cache directory: the first run (VCUDA_JIT=always) compiles the program's
# kernels; a second run with the default tier (VCUDA_JIT=1) must find them in the cache,
# run every kernel compiled from its first launch (VCUDA_REPORT's tier lines), add nothing
# to the cache, and print what the first run and the interpreter (VCUDA_JIT=0) printed.
#
# Usage: jit_cache.sh <program> [args...]
set -u
tmp=${TMPDIR:-/tmp}/jit_cache.$$
mkdir -p "$tmp/cache" || exit 2
trap 'rm -rf "$tmp"' EXIT INT TERM
export VCUDA_CACHE_DIR="$tmp/cache"
fail=0

VCUDA_JIT=0 "$@" > "$tmp/interp.out" 2>/dev/null
VCUDA_JIT=always "$@" > "$tmp/first.out" 2>/dev/null || { echo "first run failed"; fail=1; }
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
tiers=$(grep -c '^vcuda: tier: ' "$tmp/second.err")
compiled=$(grep -c '^vcuda: tier: .*: compiled$' "$tmp/second.err")
if [ "$tiers" -lt 1 ] || [ "$tiers" != "$compiled" ]; then
    echo "second run: not every kernel ran compiled:"
    grep '^vcuda: tier: ' "$tmp/second.err"
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
