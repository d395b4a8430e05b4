#!/bin/sh
# tests/check/run_example.sh — a correct program under a checker.
#
# Usage: run_example.sh <expected stdout> <expected errors> <vcuda> [check options] -- <program> [args]
#
# Passes when the program's own stdout (the lines without the "========= " prefix) is
# byte for byte the expected one — the checker changed nothing the program printed — and
# the checker's ERROR SUMMARY counts exactly <expected errors>. An expected stdout of "-"
# skips the comparison (another device prints another name).
set -u
if [ $# -lt 5 ]; then
    echo "usage: $0 <expected stdout> <expected errors> <vcuda> [options] -- <program> [args]" >&2
    exit 2
fi
expected=$1
errors=$2
shift 2
tmp=${TMPDIR:-/tmp}/run_example.$$
mkdir -p "$tmp" || exit 2
trap 'rm -rf "$tmp"' EXIT INT TERM

"$@" > "$tmp/raw" 2> "$tmp/stderr"
status=0
grep -v '^========= ' "$tmp/raw" > "$tmp/program"
if [ "$expected" != - ] && ! diff -u "$expected" "$tmp/program"; then
    echo "the program's stdout differs from $expected"
    status=1
fi
summary=$(grep '^========= ERROR SUMMARY: [0-9]* error' "$tmp/raw" | head -1)
if [ "$summary" != "========= ERROR SUMMARY: $errors error$([ "$errors" = 1 ] || echo s)" ]; then
    echo "expected $errors errors, the checker said: ${summary:-nothing}"
    grep '^=========' "$tmp/raw" | head -60
    status=1
fi
exit $status
