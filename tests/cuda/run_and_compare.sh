#!/bin/sh
# tests/cuda/run_and_compare.sh — run one program and compare it with what a GPU did.
#
# Passes when the program's stdout equals the expected file byte for byte and its exit
# status equals the number in the expected status file (0 when that file is absent). On a
# mismatch it prints a unified diff (expected first) and/or both statuses.
# If <expected stdout>'s name with ".out" replaced by ".unordered" exists, the GPU's line
# order was seen to vary between runs (printf from concurrent grids): lines are then
# compared after sorting. If ".mask" exists, it holds sed -E commands that replace the
# parts of lines whose content varied on the GPU (a sum that depends on timing), applied
# to both sides before comparing.
#
# Usage: run_and_compare.sh <expected stdout> <expected status file> <program> [args...]
set -u
if [ $# -lt 3 ]; then
    echo "usage: $0 <expected stdout> <expected status file> <program> [args...]" >&2
    exit 2
fi
expected_out=$1
expected_rc_file=$2
shift 2

expected_rc=0
if [ -f "$expected_rc_file" ]; then
    expected_rc=$(tr -d ' \n' < "$expected_rc_file")
fi

tmp=${TMPDIR:-/tmp}/run_and_compare.$$
mkdir -p "$tmp" || exit 2
trap 'rm -rf "$tmp"' EXIT INT TERM

"$@" > "$tmp/actual"
rc=$?

status=0
unordered="${expected_out%.out}.unordered"
mask="${expected_out%.out}.mask"
if [ -f "$mask" ]; then
    sed -E -f "$mask" "$expected_out" > "$tmp/expected.masked"
    sed -E -f "$mask" "$tmp/actual" > "$tmp/actual.masked"
    expected_out="$tmp/expected.masked"
    mv "$tmp/actual.masked" "$tmp/actual"
fi
if [ -f "$unordered" ]; then
    sort "$expected_out" > "$tmp/expected.sorted"
    sort "$tmp/actual" > "$tmp/actual.sorted"
    if ! diff -u "$tmp/expected.sorted" "$tmp/actual.sorted"; then
        echo "stdout differs from $expected_out (lines compared sorted)"
        status=1
    fi
elif ! diff -u "$expected_out" "$tmp/actual"; then
    echo "stdout differs from $expected_out"
    status=1
fi
if [ "$rc" != "$expected_rc" ]; then
    echo "exit status $rc, expected $expected_rc"
    status=1
fi
exit $status
