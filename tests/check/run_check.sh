#!/bin/sh
# tests/check/run_check.sh — run `vcuda check` on one program and compare its report.
#
# Usage: run_check.sh <expected report> <expected status> <vcuda> [check options] -- <program> [args]
#
# The whole stdout (the program's lines and the "========= " report lines, in the order
# they came) is compared with the expected file after the parts that change from run to
# run are masked: host addresses (9 or more hex digits: heap and stack) become 0x?, and "Host Frame"
# lines (offsets into the program binary, which depend on the compiler) are dropped.
# The exit status must equal the expected one. On a mismatch a unified diff is printed
# (expected first). With CHECK_REGENERATE=1 in the environment the expected file is
# written instead (review it before committing).
set -u
if [ $# -lt 5 ]; then
    echo "usage: $0 <expected report> <expected status> <vcuda> [options] -- <program> [args]" >&2
    exit 2
fi
expected=$1
expected_rc=$2
shift 2

tmp=${TMPDIR:-/tmp}/run_check.$$
mkdir -p "$tmp" || exit 2
trap 'rm -rf "$tmp"' EXIT INT TERM

"$@" > "$tmp/raw" 2> "$tmp/stderr"
rc=$?
sed -E -e '/^=========  +Host Frame:/d' -e 's/0x[0-9a-f]{9,}/0x?/g' "$tmp/raw" > "$tmp/actual"

if [ "${CHECK_REGENERATE:-0}" = 1 ]; then
    cp "$tmp/actual" "$expected"
    echo "wrote $expected (status $rc)"
    exit 0
fi
status=0
if ! diff -u "$expected" "$tmp/actual"; then
    echo "report differs from $expected"
    status=1
fi
if [ "$rc" != "$expected_rc" ]; then
    echo "exit status $rc, expected $expected_rc"
    echo "--- stderr:"
    cat "$tmp/stderr"
    status=1
fi
exit $status
