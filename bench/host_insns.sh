#!/usr/bin/env bash
# bench/host_insns.sh — host instructions per warp-instruction for each kernel of the
# reduction and matrix-product examples, counted by valgrind's callgrind: a figure that
# does not depend on the machine's load (unlike times), for comparing executor changes.
# Usage: bench/host_insns.sh [build-dir]   (after `make build`; needs valgrind and nvcc)
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${1:-build}
OUT="$BUILD/bench"
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
REDUCE_N=${REDUCE_N:-262144}
MATMUL_N=${MATMUL_N:-64}
[ -x "$OUT/exec_bench" ] || { echo "run 'make build' first" >&2; exit 2; }
for ex in reduceInteger matMult; do
  [ "$OUT/$ex.ptx" -nt "examples/$ex.cu" ] ||
    "$NVCC" -O2 -arch=sm_90 -ptx -Iexamples -o "$OUT/$ex.ptx" "examples/$ex.cu"
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
count() {  # count <tag> <exec_bench args...>
  local tag=$1; shift
  valgrind --tool=callgrind --collect-atstart=no --callgrind-out-file="$tmp/$tag.%p" \
    "$OUT/exec_bench" -r 1 "$@" >"$tmp/$tag.txt" 2>"$tmp/$tag.err" || { cat "$tmp/$tag.err" >&2; exit 1; }
  for f in "$tmp/$tag".*.*; do
    printf '%s\t%s\n' "$(grep -m1 '^desc: Trigger' "$f" | sed 's/.*Client Request: //')" \
      "$(grep -m1 '^totals:' "$f" | awk '{print $2}')"
  done | sort >"$tmp/$tag.ir"
  sort "$tmp/$tag.txt" | join -t $'\t' - "$tmp/$tag.ir" |
    awk -F'\t' '{ printf "%-34s %12d %14d %10.1f\n", $1, $2, $7, $7 / $2 }'
}
printf "%-34s %12s %14s %10s\n" kernel "warp insns" "host insns" "per winst"
count reduce "$OUT/reduceInteger.ptx" reduce "$REDUCE_N" 512
count matmul "$OUT/matMult.ptx" matmul "$MATMUL_N"
