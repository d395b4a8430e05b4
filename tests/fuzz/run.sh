#!/usr/bin/env bash
# tests/fuzz/run.sh BUILD SECONDS [TARGET...] — run the libFuzzer targets of a
# -DVCUDA_FUZZ=ON build for SECONDS each (all of them by default).
#
# Each target grows its corpus in BUILD/fuzz-corpus/<target> from the seeds in
# tests/fuzz/seeds/<target> (and every PTX file of tests/ptx for the PTX targets). A
# finding stops the run: the input is kept in BUILD/fuzz-artifacts/<target>/, and belongs,
# once fixed, in tests/fuzz/regressions/<target>/ so that `make test` replays it forever.
set -euo pipefail
build=$1; seconds=$2; shift 2
here=$(cd "$(dirname "$0")" && pwd)
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(ptx link fatbin printf driver)

# A dictionary of PTX words for the PTX targets, made from the parser's own tables (so it
# never falls behind them): opcodes, modifiers and types, and the directives.
ptx_dict=$build/ptx.dict
{
  sed -n 's/^OP([^,]*, *"\([^"]*\)".*/"\1"/p' "$here/../../ptx/opcodes.def"
  grep -o 'MOD([^,]*, *"[^"]*")' "$here/../../ptx/modifiers.def" | sed 's/.*"\([^"]*\)")/".\1"/'
  sed -n 's/^TY([^,]*, *"\([^"]*\)".*/".\1"/p' "$here/../../ptx/types.def"
  for d in version target address_size entry func visible extern weak reg param local shared \
           global const align file loc maxntid reqntid minnctapersm maxnreg pragma callprototype \
           calltargets branchtargets section; do echo "\".$d\""; done
  printf '"%s"\n' '%r1' '%rd1' '%p1' '%f1' '%tid.x' '%ctaid.x' '$L__BB0_1' '{' '}' ';' ','
} | sort -u > "$ptx_dict"

status=0
for t in "${targets[@]}"; do
  corpus=$build/fuzz-corpus/$t
  artifacts=$build/fuzz-artifacts/$t
  mkdir -p "$corpus" "$artifacts"
  seeds=("$here/seeds/$t")
  [ -d "$here/regressions/$t" ] && seeds+=("$here/regressions/$t")
  [ "$t" = ptx ] && seeds+=("$here/../ptx")
  dict=()
  case $t in ptx|link|driver) dict=(-dict="$ptx_dict") ;; esac
  echo "fuzz: $t for ${seconds}s"
  if ! ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1 \
       "$build/fuzz/fuzz_$t" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=4096 \
       -max_len=262144 -print_final_stats=1 "${dict[@]}" -artifact_prefix="$artifacts/" \
       "$corpus" "${seeds[@]}" >"$build/fuzz-$t.log" 2>&1; then
    echo "fuzz: $t found a failure (input in $artifacts/):"
    tail -40 "$build/fuzz-$t.log"
    status=1
  else
    grep -E '^stat::number_of_executed_units|^stat::peak_rss_mb|^#[0-9]+ *DONE' "$build/fuzz-$t.log" | sed "s/^/fuzz: $t: /" || true
  fi
done
exit $status
