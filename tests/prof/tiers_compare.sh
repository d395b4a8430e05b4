#!/bin/sh
# tests/prof/tiers_compare.sh — `vcuda prof` counts the same whether the profiled launches
# run in the interpreter (VCUDA_JIT=0) or in the compiled tier's instrumented code
# (VCUDA_JIT=always, which compiles every function before the first launch, so no launch
# runs interpreted): every metric of every launch, and the program's output, must be
# byte for byte the same. Its ncu comparison (prof/ncu/*) runs the interpreter.
# usage: tiers_compare.sh VCUDA OUTDIR TEST OPT PROGRAM [ARGS...]
# OPT: the compiled code's VCUDA_JIT_OPT (0-2), or - for the default.
set -e
vcuda=$1 outdir=$2 test=$3 opt=$4
shift 4
[ "$opt" = - ] && opt=
export VCUDA_JIT_OPT="$opt"
mkdir -p "$outdir"
for mode in 0 always; do
    VCUDA_JIT=$mode VCUDA_REPORT=0 "$vcuda" prof --csv --print-gpu-trace --metrics all \
        --log-file "$outdir/$test.$mode.csv" "$@" > "$outdir/$test.$mode.out"
    # (the first lines name the process)
    sed -e 's/==[0-9]*==/==PID==/' "$outdir/$test.$mode.csv" > "$outdir/$test.$mode.cmp"
done
if ! cmp -s "$outdir/$test.0.cmp" "$outdir/$test.always.cmp"; then
    echo "$test: the profile differs between the interpreter and the compiled tier:"
    diff "$outdir/$test.0.cmp" "$outdir/$test.always.cmp" | head -40
    exit 1
fi
if ! cmp -s "$outdir/$test.0.out" "$outdir/$test.always.out"; then
    echo "$test: the program's output differs between the tiers under the profiler"
    exit 1
fi
# the compiled run did run compiled: its report says the kernels ran compiled
VCUDA_JIT=always VCUDA_REPORT=1 "$vcuda" prof --log-file "$outdir/$test.report.log" "$@" \
    > /dev/null 2> "$outdir/$test.report"
if grep -q "interpreted" "$outdir/$test.report"; then
    echo "$test: some profiled launches ran interpreted under VCUDA_JIT=always:"
    grep "interpreted" "$outdir/$test.report"
    exit 1
fi
lines=$(grep -c . "$outdir/$test.0.cmp")
echo "$test: $lines lines of the profile the same in both tiers"
