#!/bin/sh
# Grids launched from device code are profiled like host launches: nestedHelloWorld with
# 8 threads launches itself with 4, 2 and 1, so the GPU trace must list four launches of
# the kernel, the host's first, each starting after the one before, and the program must
# print under the profiler what it prints without it.
# Usage: dp_trace.sh <vcuda> <nestedHelloWorld binary>
set -eu
vcuda=$1
prog=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$prog" > "$tmp/plain.out"
"$vcuda" prof --print-gpu-trace --csv --log-file "$tmp/trace.csv" "$prog" > "$tmp/prof.out"
cmp "$tmp/plain.out" "$tmp/prof.out" || { echo "output differs under the profiler"; exit 1; }
# Block X (column 6) and Start (column 1) of the kernel's rows, in trace order
grep 'nestedHelloWorld' "$tmp/trace.csv" | awk -F, '
    { blocks = blocks (n ? " " : "") $6; if (n && $1 + 0 <= prev) bad = 1; prev = $1 + 0; n++ }
    END {
        if (blocks != "8 4 2 1") { print "launches by block size: \"" blocks "\", expected \"8 4 2 1\""; exit 1 }
        if (bad) { print "launch start times do not increase"; exit 1 }
        print "4 launches, host first, in order"
    }'
