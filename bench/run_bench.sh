#!/usr/bin/env bash
# bench/run_bench.sh — how fast the virtual GPU runs the reduction and matrix-product
# examples, measured in one run:
#   - warp-instructions per second on one host core (VCUDA_THREADS=1) and on all cores,
#   - the slowdown of each kernel against a plain C loop (gcc -O2, bench/cpu_baseline.c)
#     doing the same work on one core.
# Usage: bench/run_bench.sh [build-dir]   (after `make build`)
# Figures are ratios of times taken in this one run; record them in bench/RESULTS.md.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${1:-build}
VCUDA="$BUILD/bin/vcuda"
OUT="$BUILD/bench"
mkdir -p "$OUT"
[ -x "$VCUDA" ] && [ -x "$OUT/cpu_baseline" ] || { echo "run 'make build' first" >&2; exit 2; }

REDUCE_N=${REDUCE_N:-4194304}
MATMUL_N=${MATMUL_N:-256}
CORES=$(nproc)

for ex in reduceInteger matMult; do
  [ "$OUT/$ex" -nt "examples/$ex.cu" ] || "$VCUDA" cc -O2 -arch=sm_90 -o "$OUT/$ex" "examples/$ex.cu"
done

# run <threads> <program> <args...>: prints "kernel<TAB>warp_insns<TAB>host_ms" per kernel
run() {
  local threads=$1; shift
  VCUDA_REPORT=1 VCUDA_THREADS=$threads "$@" 2>&1 >/dev/null |
    awk '$1 == "vcuda:" && $2 ~ /^[0-9.]+%$/ && NF >= 8 {
           name = $8; for (i = 9; i <= NF; i++) name = name " " $i;
           sub(/\(.*/, "", name); sub(/^void /, "", name);
           printf "%s\t%s\t%s\t%s\n", name, $7, $3, $4 }'
}

cpu_reduce=$("$OUT/cpu_baseline" reduce "$REDUCE_N")
cpu_matmul=$("$OUT/cpu_baseline" matmul "$MATMUL_N")

echo "vcuda benchmark on $(uname -m), $CORES cores ($(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | cut -d: -f2 | sed 's/^ //'))"
echo "plain C, one core, gcc -O2: sum of $REDUCE_N ints ${cpu_reduce} ms; naive ${MATMUL_N}x${MATMUL_N} matmul ${cpu_matmul} ms"
echo
printf "%-36s %14s %12s %14s %12s %10s\n" kernel "warp insns" "1-core ms" "Mwinst/s/core" "${CORES}-core ms" "slowdown"

report() {  # report <cpu_ms> <program> <args...>
  local cpu_ms=$1; shift
  join -t $'\t' <(run 1 "$@" | sort) <(run "$CORES" "$@" | sort) |
    awk -F'\t' -v cpu="$cpu_ms" '{
        calls = $4; insns = $2 / calls; ms1 = $3 / calls; msn = $6 / calls;
        printf "%-36s %14d %12.2f %14.1f %12.2f %9.1fx\n", $1, insns, ms1,
               (ms1 > 0 ? insns / ms1 / 1e3 : 0), msn, (cpu > 0 ? ms1 / cpu : 0)
        tot_i += insns; tot_ms += ms1 }
      END { if (tot_ms > 0) printf "%-36s %14d %12.2f %14.1f\n", "(all kernels above)", tot_i, tot_ms, tot_i / tot_ms / 1e3 }'
}

echo "-- reduction of $REDUCE_N ints (reduceInteger 512 $REDUCE_N); slowdown vs the C sum"
report "$cpu_reduce" "$OUT/reduceInteger" 512 "$REDUCE_N"
echo "-- ${MATMUL_N}x${MATMUL_N} matrix product (matMult $MATMUL_N); slowdown vs the C triple loop"
report "$cpu_matmul" "$OUT/matMult" "$MATMUL_N"
echo
echo "slowdown = kernel time on one host core / plain C loop time on one host core"
