#!/bin/sh
# tests/check/compare_h100.sh — does `vcuda check` say what compute-sanitizer said on an H100?
#
# Usage: compare_h100.sh <compute-sanitizer report> <vcuda> [check options] -- <program> [args]
#
# Both reports are reduced to the facts they share: report lines only ("========= "),
# without the banner, host backtraces and blank lines; SASS offsets (+0x60) and vcuda's
# PTX lines are removed, addresses masked, spacing collapsed. Every line the H100 printed
# must then appear in vcuda's report, in the same order (vcuda may say more: the PTX
# line, which threads race, why an API call failed).
set -u
if [ $# -lt 4 ]; then
    echo "usage: $0 <h100 report> <vcuda> [options] -- <program> [args]" >&2
    exit 2
fi
h100=$1
shift

tmp=${TMPDIR:-/tmp}/compare_h100.$$
mkdir -p "$tmp" || exit 2
trap 'rm -rf "$tmp"' EXIT INT TERM

reduce() {
    grep '^=========' "$1" |
        grep -v -e 'COMPUTE-SANITIZER' -e 'VCUDA CHECK' -e 'Saved host backtrace' \
                -e 'Host Frame' -e '^========= *$' |
        sed -E -e 's/\+0x[0-9a-f]+//g' -e 's/ \(PTX line [^)]*\)//g' -e 's/0x[0-9a-f]+/0x?/g' \
               -e 's/[[:space:]]+/ /g' -e 's/ $//'
}

"$@" > "$tmp/raw" 2> "$tmp/stderr"
reduce "$h100" > "$tmp/h100"
reduce "$tmp/raw" > "$tmp/vcuda"
# each H100 line, in order, somewhere after the previous match
awk 'NR == FNR { want[++n] = $0; next }
     k < n && $0 == want[k + 1] { k++ }
     END {
         if (k == n) exit 0
         printf "missing from vcuda'"'"'s report (in order), from line %d of %d:\n", k + 1, n
         for (i = k + 1; i <= n && i <= k + 5; i++) print "  " want[i]
         exit 1
     }' "$tmp/h100" "$tmp/vcuda"
status=$?
if [ $status != 0 ]; then
    echo "--- vcuda's report, reduced:"
    cat "$tmp/vcuda"
fi
exit $status
