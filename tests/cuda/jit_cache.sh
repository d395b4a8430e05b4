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
# The compiler is a wrapper that logs each time it runs: the first run asks it who it is
# (`--version`) and whether it takes the AVX2 move widths once each, and records both
# beside the cache; the second run, with every unit cached, must start no compiler at all.
# Once the compiler's file changes (touched), the next run asks it again, and builds
# nothing (the same compiler, the same keys); that run compiles before its first launch
# (VCUDA_JIT=always), so the question is asked whole before the program ends (tiered, the
# job's threads ask it while the program runs, and a short program may end first).
#
# Usage: jit_cache.sh <program> [args...]
set -u
tmp=${TMPDIR:-/tmp}/jit_cache.$$
mkdir -p "$tmp/cache" || exit 2
trap 'rm -rf "$tmp"' EXIT INT TERM
export VCUDA_CACHE_DIR="$tmp/cache"
fail=0
real_cc=${VCUDA_JIT_CC:-cc}
cat > "$tmp/cc" <<EOF || exit 2
#!/bin/sh
echo "\$*" >> "$tmp/cc.log"
exec "$real_cc" "\$@"
EOF
chmod +x "$tmp/cc" || exit 2
: > "$tmp/cc.log"
export VCUDA_JIT_CC="$tmp/cc"
# runs of the compiler since the last call, and how many of them were each kind
cc_runs() {
    runs=$(wc -l < "$tmp/cc.log")
    asked=$(grep -c -- '--version' "$tmp/cc.log")
    probed=$(grep -c -- '-mmove-max=256 -mstore-max=256 -x c -c -o /dev/null /dev/null' "$tmp/cc.log")
    : > "$tmp/cc.log"
}

VCUDA_JIT=0 "$@" > "$tmp/interp.out" 2>/dev/null
VCUDA_JIT=always VCUDA_REPORT=1 "$@" > "$tmp/first.out" 2> "$tmp/first.err" ||
    { echo "first run failed"; fail=1; }
entries=$(ls "$VCUDA_CACHE_DIR" | grep -c '\.so$')
cc_runs
if [ "$asked" != 1 ] || [ "$probed" != 1 ] || [ "$runs" -le 2 ]; then
    echo "first run: the compiler ran $runs times, asked who it is $asked times, probed $probed times (expected once each, and some compiles)"
    fail=1
fi
if [ "$entries" -lt 1 ]; then
    echo "the first run left no compiled code in the cache"
    fail=1
fi
VCUDA_JIT=1 VCUDA_REPORT=1 "$@" > "$tmp/second.out" 2> "$tmp/second.err" ||
    { echo "second run failed"; fail=1; }
after=$(ls "$VCUDA_CACHE_DIR" | grep -c '\.so$')
cc_runs
if [ "$runs" != 0 ]; then
    echo "second run: the compiler ran $runs times (expected none, everything cached)"
    fail=1
fi
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
# a changed compiler file is asked again, once; the same answers give the same keys
sleep 1
touch "$tmp/cc"
VCUDA_JIT=always "$@" > "$tmp/third.out" 2>/dev/null || { echo "third run failed"; fail=1; }
cc_runs
if [ "$asked" != 1 ] || [ "$probed" != 1 ] || [ "$runs" != 2 ]; then
    echo "after the compiler changed: it ran $runs times, asked $asked, probed $probed (expected 2, 1, 1)"
    fail=1
fi
for run in first second third; do
    if ! cmp -s "$tmp/interp.out" "$tmp/$run.out"; then
        echo "the $run run printed something else than the interpreter:"
        diff "$tmp/interp.out" "$tmp/$run.out" | head -20
        fail=1
    fi
done
exit $fail
