#!/usr/bin/env bash
# tests/cuda/gpu_capture.sh — record the ground truth of the examples on a real GPU.
#
# Builds every example with plain nvcc, runs each test of examples.list and dp.list three
# times (stdout, stderr, exit status; the three stdouts must agree for the output to be
# usable as an exact expectation), profiles every examples.list test with Nsight Compute
# (one CSV row per kernel launch), and runs the programs of broken.list plainly and under
# the compute-sanitizer tool named there. Results go to <out>/capture/ and, packed, to
# <out>/capture.tar.gz; import_capture.sh files them into the source tree.
#
# Usage: gpu_capture.sh <source root (holds examples/ and tests/cuda/)> <out dir>
#        [prebuilt binary dir]   (binaries named as the examples; built here when absent)
set -u

# The toolkit's tools, wherever this machine keeps them.
for d in /usr/local/cuda/bin /usr/local/cuda/compute-sanitizer /opt/nvidia/nsight-compute/*; do
    [ -d "$d" ] && PATH=$PATH:$d
done
export PATH

SRC=$(cd "$1" && pwd)
OUTDIR=$(mkdir -p "$2" && cd "$2" && pwd)
PREBUILT=${3:-}
R=$OUTDIR/capture
BIN=/tmp/vcuda-capture-bin
WORK=/tmp/vcuda-capture-work
mkdir -p "$R/expected" "$R/ncu" "$R/broken" "$R/logs" "$BIN" "$WORK"
: > "$R/logs/build-failures.txt"
: > "$R/ncu/rejected-metrics.txt"
T0=$(date +%s)
elapsed() { echo $(($(date +%s) - T0)); }
note() { echo "[$(elapsed)s] $*" | tee -a "$R/summary.txt"; }

# Manifest lines without comments or blank lines.
entries() { grep -v '^[[:space:]]*#' "$1" | grep -v '^[[:space:]]*$'; }

# ---- environment -----------------------------------------------------------------------
{
    echo "== date"; date -u
    echo "== uname"; uname -a
    echo "== nvidia-smi"; nvidia-smi
    echo "== nvidia-smi -q (head)"; nvidia-smi -q | head -60
    echo "== nvcc"; nvcc --version
    echo "== ncu"; ncu --version
    echo "== compute-sanitizer"; compute-sanitizer --version
} > "$R/environment.txt" 2>&1
note "environment recorded"

# ---- build -----------------------------------------------------------------------------
# The same flags the project's tests use for vcuda (-O2 -arch=sm_90), with nvcc and its own
# runtime instead. Broken programs get -lineinfo so the sanitizer names source lines.
build() { # <name> <flags...> -- <source> [trailing flags]
    local name=$1; shift
    if [ -n "$PREBUILT" ] && [ -x "$PREBUILT/$name" ]; then
        cp "$PREBUILT/$name" "$BIN/$name"
        return 0
    fi
    nvcc "$@" -o "$BIN/$name" > "$R/logs/build-$name.log" 2>&1 || echo "BUILD FAILED: $name" >> "$R/logs/build-failures.txt"
}
for src in "$SRC"/examples/*.cu; do
    n=$(basename "$src" .cu)
    build "$n" -O2 -arch=sm_90 "$src" &
done
while read -r n model; do
    if [ "$model" = cdp1 ]; then
        build "$n" -O2 -arch=sm_80 -DCUDA_FORCE_CDP1_IF_SUPPORTED -rdc=true "$SRC/examples/dp/$n.cu" -lcudadevrt &
    else
        build "$n" -O2 -arch=sm_90 -rdc=true "$SRC/examples/dp/$n.cu" -lcudadevrt &
    fi
done < <(entries "$SRC/tests/cuda/dp.list" | awk '{print $2, $3}' | sort -u)
for src in "$SRC"/tests/cuda/broken/*.cu; do
    n=$(basename "$src" .cu)
    build "$n" -arch=sm_90 -lineinfo "$src" &
done
wait
(cd "$BIN" && md5sum -- * > "$R/logs/binaries.md5")
for b in "$BIN"/*; do echo "== $(basename "$b")"; cuobjdump -res-usage "$b" 2>&1; done > "$R/logs/res-usage.txt"
note "build done: $(find "$BIN" -type f | wc -l) binaries; failures: $(wc -l < "$R/logs/build-failures.txt")"

# ---- plain runs, three times each ----------------------------------------------------------
run_test() { # <test> <binary> [args...]
    local t=$1 b=$2; shift 2
    local i
    for i in 1 2 3; do
        (cd "$WORK" && timeout 30 "$BIN/$b" "$@" > "$R/logs/$t.stdout$i" 2> "$R/logs/$t.stderr$i")
        echo $? > "$R/logs/$t.rc$i"
    done
    cp "$R/logs/$t.stdout1" "$R/expected/$t.out"
    cp "$R/logs/$t.rc1" "$R/expected/$t.rc"
    local stable=stable
    if ! cmp -s "$R/logs/$t.stdout1" "$R/logs/$t.stdout2" || ! cmp -s "$R/logs/$t.stdout1" "$R/logs/$t.stdout3" \
        || ! cmp -s "$R/logs/$t.rc1" "$R/logs/$t.rc2" || ! cmp -s "$R/logs/$t.rc1" "$R/logs/$t.rc3"; then
        stable=VARIES
    fi
    note "run $t ($b $*): rc=$(cat "$R/logs/$t.rc1") $stable lines=$(wc -l < "$R/expected/$t.out")"
}
while read -r t b args; do
    # shellcheck disable=SC2086
    run_test "$t" "$b" $args
done < <(entries "$SRC/tests/cuda/examples.list")
while read -r t b model args; do
    # shellcheck disable=SC2086
    run_test "$t" "$b" $args
done < <(entries "$SRC/tests/cuda/dp.list")

# One run with timings switched on, to show that path works (kept in the logs only).
(cd "$WORK" && EXAMPLE_TIMING=1 timeout 30 "$BIN/reduceInteger" > "$R/logs/reduceInteger.timing.stdout" 2>&1)

# ---- broken programs: plain run and sanitizer report ----------------------------------------
while read -r t b tool args; do
    # shellcheck disable=SC2086
    (cd "$WORK" && timeout 30 "$BIN/$b" $args > "$R/broken/$t.out" 2> "$R/broken/$t.stderr")
    echo $? > "$R/broken/$t.rc"
    # shellcheck disable=SC2086
    (cd "$WORK" && timeout 120 compute-sanitizer --tool "$tool" "$BIN/$b" $args > "$R/broken/$t.$tool.txt" 2>&1)
    echo $? > "$R/broken/$t.$tool.rc"
    note "broken $t: plain rc=$(cat "$R/broken/$t.rc"), $tool rc=$(cat "$R/broken/$t.$tool.rc"), $(grep -c 'Invalid\|Race\|Error' "$R/broken/$t.$tool.txt") report lines"
done < <(entries "$SRC/tests/cuda/broken.list")

# ---- Nsight Compute: which metrics this ncu accepts -----------------------------------------
# Metric groups, checked one group at a time so that a name this ncu rejects costs one
# group's retries, not the whole capture.
METRIC_GROUPS=(
"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum l1tex__t_requests_pipe_lsu_mem_global_op_st.sum l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"
"smsp__sass_average_branch_targets_threads_uniform.pct smsp__thread_inst_executed_per_inst_executed.ratio smsp__inst_executed.sum smsp__thread_inst_executed.sum"
"sm__warps_active.avg.pct_of_peak_sustained_active launch__registers_per_thread launch__occupancy_limit_registers sm__maximum_warps_per_active_cycle_pct gpu__time_duration.sum"
"smsp__sass_inst_executed_op_global_ld.sum smsp__sass_inst_executed_op_global_st.sum smsp__sass_inst_executed_op_shared_ld.sum smsp__sass_inst_executed_op_shared_st.sum"
"launch__grid_size launch__block_size launch__shared_mem_per_block_static launch__shared_mem_per_block_dynamic launch__occupancy_limit_shared_mem launch__occupancy_limit_warps launch__occupancy_limit_blocks launch__waves_per_multiprocessor"
"sm__ctas_launched.sum smsp__warps_launched.sum smsp__sass_branch_targets.sum smsp__sass_branch_targets_threads_divergent.sum smsp__sass_branch_targets_threads_uniform.sum smsp__thread_inst_executed_pred_on.sum smsp__sass_thread_inst_executed.sum"
"smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct smsp__sass_average_data_bytes_per_sector_mem_global_op_st.pct l1tex__t_sector_hit_rate.pct l1tex__t_requests_pipe_lsu_mem_global_op_red.sum l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum smsp__sass_inst_executed_op_global_red.sum smsp__sass_inst_executed_op_global_atom.sum smsp__sass_inst_executed_op_local_ld.sum smsp__sass_inst_executed_op_local_st.sum"
"smsp__inst_executed_op_branch.sum smsp__inst_executed_op_global_ld.sum smsp__inst_executed_op_global_st.sum smsp__inst_executed_op_shared_ld.sum smsp__inst_executed_op_shared_st.sum smsp__inst_executed_op_global_red.sum smsp__inst_executed_op_shared_atom.sum smsp__warp_issue_stalled_barrier_per_warp_active.pct"
"lts__t_sectors_op_read.sum lts__t_sectors_op_write.sum lts__t_sectors_op_red.sum lts__t_sectors_op_atom.sum dram__bytes_read.sum dram__bytes_write.sum sm__cycles_elapsed.max smsp__cycles_active.avg sm__throughput.avg.pct_of_peak_sustained_elapsed gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed"
)
NCU_OPTS=(--csv --page raw --print-units base --clock-control none)
ncu --query-metrics --chip gh100 > "$R/ncu/query-metrics.txt" 2>&1

# ncu_accepts <metric list, comma-separated>: profile incr once with it.
ncu_accepts() {
    (cd "$WORK" && timeout 60 ncu "${NCU_OPTS[@]}" --metrics "$1" --log-file "$R/logs/ncu-probe.log" "$BIN/incr" 4096 > /dev/null 2>&1) || return 1
    ! grep -q '==ERROR==' "$R/logs/ncu-probe.log"
}
# Keep a group whole if ncu takes it, else keep the metrics it takes one by one.
validate_group() {
    local list; list=$(echo "$1" | tr ' ' ',')
    if ncu_accepts "$list"; then echo "$list"; return; fi
    local m kept=""
    for m in $1; do
        if ncu_accepts "$m"; then kept="$kept,$m"; else echo "$m" >> "$R/ncu/rejected-metrics.txt"; fi
    done
    echo "${kept#,}"
}
METRICS=""
for g in "${METRIC_GROUPS[@]}"; do
    kept=$(validate_group "$g")
    [ -n "$kept" ] && METRICS="$METRICS,$kept"
done
METRICS=${METRICS#,}
echo "$METRICS" | tr ',' '\n' > "$R/ncu/metrics-used.txt"
note "ncu metrics: $(wc -l < "$R/ncu/metrics-used.txt") accepted, $(wc -l < "$R/ncu/rejected-metrics.txt") rejected"

# ---- Nsight Compute: one CSV per test -------------------------------------------------------
while read -r t b args; do
    case "$b" in deviceQuery|checkDeviceInfo) continue ;; esac   # no kernels
    if [ "$(elapsed)" -gt 400 ]; then note "ncu $t skipped: time"; continue; fi
    # shellcheck disable=SC2086
    (cd "$WORK" && timeout 120 ncu "${NCU_OPTS[@]}" --metrics "$METRICS" --log-file "$R/ncu/$t.csv" "$BIN/$b" $args \
        > "$R/logs/$t.ncu.stdout" 2>&1)
    echo $? > "$R/logs/$t.ncu.rc"
    note "ncu $t: rc=$(cat "$R/logs/$t.ncu.rc"), $(grep -c '^"[0-9]' "$R/ncu/$t.csv" 2>/dev/null) launches"
done < <(entries "$SRC/tests/cuda/examples.list")

# ---- memcheck over the examples themselves (they must be clean) -----------------------------
while read -r t b args; do
    if [ "$(elapsed)" -gt 480 ]; then note "memcheck $t skipped: time"; continue; fi
    # shellcheck disable=SC2086
    (cd "$WORK" && timeout 60 compute-sanitizer --tool memcheck "$BIN/$b" $args > "$R/logs/$t.memcheck.txt" 2>&1)
    rc=$?
    note "memcheck $t: rc=$rc $(grep 'ERROR SUMMARY' "$R/logs/$t.memcheck.txt")"
done < <(entries "$SRC/tests/cuda/examples.list" | awk '!seen[$2]++')

tar czf "$OUTDIR/capture.tar.gz" -C "$OUTDIR" capture
cp "$R/summary.txt" "$OUTDIR/summary.txt"
note "packed $(du -h "$OUTDIR/capture.tar.gz" | cut -f1)"
