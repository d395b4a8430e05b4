#!/usr/bin/env bash
# tests/cuda/conformance/capture.sh — record the conformance programs' ground truth on a
# GPU machine: build each test of conformance.list with plain nvcc (-O2 -arch=sm_90 and
# the test's flags), run it three times (stdout, stderr, exit status), and say whether the
# three runs agreed. Results go to <out>/conformance/ and, packed, to
# <out>/conformance.tar.gz.
#
# Usage: capture.sh <folder holding the programs and conformance.list> <out dir> [list]
#        (list: another list file in the same format, to record only some of the tests)
set -u
for d in /usr/local/cuda/bin; do [ -d "$d" ] && PATH=$PATH:$d; done
SRC=$(cd "$1" && pwd)
OUTDIR=$(mkdir -p "$2" && cd "$2" && pwd)
R=$OUTDIR/conformance
BIN=/tmp/conformance-bin
WORK=/tmp/conformance-work
mkdir -p "$R/expected" "$R/logs" "$BIN" "$WORK"
T0=$(date +%s)
note() { echo "[$(($(date +%s) - T0))s] $*" | tee -a "$R/summary.txt"; }
LIST=${3:-$SRC/conformance.list}
entries() { grep -v '^[[:space:]]*#' "$1" | grep -v '^[[:space:]]*$'; }

{ date -u; nvidia-smi -L; nvidia-smi --query-gpu=driver_version --format=csv,noheader; nvcc --version | tail -2; } > "$R/environment.txt" 2>&1

while read -r t p flags; do
    # shellcheck disable=SC2086
    (nvcc -O2 -arch=sm_90 $flags -o "$BIN/$t" "$SRC/$p.cu" > "$R/logs/build-$t.log" 2>&1 || echo "BUILD FAILED $t" >> "$R/logs/build-failures.txt") &
done < <(entries "$LIST")
wait
note "built $(ls "$BIN" | wc -l) programs"
for b in "$BIN"/*; do echo "== $(basename "$b")"; cuobjdump -res-usage "$b" 2>&1 | grep -v '^$'; done > "$R/logs/res-usage.txt"

while read -r t p flags; do
    for i in 1 2 3; do
        (cd "$WORK" && timeout 60 "$BIN/$t" > "$R/logs/$t.stdout$i" 2> "$R/logs/$t.stderr$i")
        echo $? > "$R/logs/$t.rc$i"
    done
    cp "$R/logs/$t.stdout1" "$R/expected/$t.out"
    cp "$R/logs/$t.rc1" "$R/expected/$t.rc"
    cp "$R/logs/$t.stderr1" "$R/expected/$t.err"
    s=stable
    for i in 2 3; do
        cmp -s "$R/logs/$t.stdout1" "$R/logs/$t.stdout$i" && cmp -s "$R/logs/$t.rc1" "$R/logs/$t.rc$i" || s=VARIES
    done
    note "run $t: rc=$(cat "$R/logs/$t.rc1") $s lines=$(wc -l < "$R/expected/$t.out") $(grep -c -e '^PASS' "$R/expected/$t.out") PASS $(grep -c -e '^FAIL' "$R/expected/$t.out") FAIL"
done < <(entries "$LIST")
(cd "$OUTDIR" && tar czf conformance.tar.gz conformance)
note "done"
