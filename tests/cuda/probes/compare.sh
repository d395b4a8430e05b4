#!/bin/sh
# Run one probe and compare its stdout with what the GPU printed.
# Usage: compare.sh <test> <expected dir> <known differences file> <program> [args...]
# Lines starting with "info " hold values that may differ (timings, register counts) and
# are skipped on both sides; known_differences.txt may rewrite or drop more, per test.
set -u
test=$1 expected=$2/$1.out known=$3 prog=$4
shift 4
work=$(mktemp -d) || exit 2
trap 'rm -rf "$work"' EXIT
"$prog" "$@" > "$work/actual" 2> "$work/stderr"
rc=$?
if [ $rc -ne 0 ]; then
    echo "$prog exited with status $rc" >&2
    cat "$work/stderr" >&2
    exit 1
fi
# sed expressions for this test: the second field up to the comment.
sed -n "s/^$test[[:space:]][[:space:]]*\\(.*[^[:space:]]\\)[[:space:]]*#.*$/\\1/p" "$known" > "$work/sed"
filter() {
    grep -v '^info ' "$1" > "$work/f" || true
    if [ -s "$work/sed" ]; then sed -E -f "$work/sed" "$work/f"; else cat "$work/f"; fi
}
filter "$expected" > "$work/want"
filter "$work/actual" > "$work/got"
if ! diff -u "$work/want" "$work/got"; then
    echo "--- stderr of $prog:" >&2
    head -40 "$work/stderr" >&2
    exit 1
fi
exit 0
