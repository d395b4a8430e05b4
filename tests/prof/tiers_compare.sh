#!/bin/sh
# tests/prof/tiers_compare.sh — `vcuda prof` counts the same whether the profiled launches
# run in the interpreter (VCUDA_JIT=0) or in the compiled tier's instrumented code
# (VCUDA_JIT=always, which compiles every function before the first launch, so no launch
# runs interpreted): every metric of every launch, and the program's output, must be
# byte for byte the same. Its ncu comparison (prof/ncu/*) runs the interpreter. Where a
# kernel is in the vector tier, the blocks the profiler does not time run that tier's
# instrumented code (jit/vemit_prof.c): the report must say some did.
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
# the kernels of the vector tier ran their instrumented whole-block code in the blocks the
# profiler does not time (no silent fall-back to the per-warp code): some blocks ran it
# to their end
vector=$(sed -n 's/.*; \([0-9]*\) of [0-9]* kernels in the vector tier.*/\1/p' \
         "$outdir/$test.report" | head -1)
whole=$(sed -n 's/.*profiled blocks in the vector tier: \([0-9]*\) run to their end.*/\1/p' \
        "$outdir/$test.report")
if [ "${vector:-0}" -gt 0 ] && [ "${whole:-0}" -eq 0 ]; then
    echo "$test: $vector kernels in the vector tier, yet no profiled block ran its code:"
    grep "vcuda:" "$outdir/$test.report" | tail -5
    exit 1
fi
# ... and told their loads and stores of uniform or affine addresses by base and step, the
# profiler counting their repeats from that alone (prof/session.c on_mem_affine)
compact=$(sed -n 's/.*; \([0-9]*\) accesses counted from base and step.*/\1/p' \
          "$outdir/$test.report")
if [ "${whole:-0}" -gt 0 ] && [ "${compact:-0}" -eq 0 ]; then
    echo "$test: $whole profiled blocks ran the vector tier's code, yet no access of theirs"
    echo "was counted from its base and step:"
    grep "vcuda:" "$outdir/$test.report" | tail -5
    exit 1
fi
[ "${vector:-0}" -gt 0 ] && echo "$test: $whole profiled blocks ran the vector tier's code," \
    "${compact:-0} accesses counted from base and step"
lines=$(grep -c . "$outdir/$test.0.cmp")
echo "$test: $lines lines of the profile the same in both tiers"
