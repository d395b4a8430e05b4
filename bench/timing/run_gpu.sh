#!/usr/bin/env bash
# bench/timing/run_gpu.sh — measure the timing suite on a GPU with Nsight Compute.
# usage: bash run_gpu.sh SRC_DIR OUT_DIR   (SRC_DIR holds suite.cu and suite_dp.cu)
# Writes OUT_DIR/suite.ncu.csv and suite_dp.ncu.csv (ncu's raw page: one row per launch),
# suite.out / suite_dp.out (the programs' stdout: the launch manifest), env.txt (card,
# driver, ncu version) and metrics.txt (the metrics asked for and those ncu offered).
# One ncu process per program; the metric list is cut to what this ncu offers first, so a
# name it does not know cannot cost the run. Clocks as the card runs them, caches flushed
# before each launch (ncu's default), as tests/data/ncu was recorded.
set -u
src=${1:?source folder} out=${2:?output folder}
cd "$src"
{ nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv; nvcc --version | tail -2; ncu --version; } > "$out/env.txt" 2>&1
nvcc -O2 -arch=sm_90 -o /tmp/suite suite.cu > "$out/build.txt" 2>&1 || { cat "$out/build.txt"; exit 1; }
nvcc -O2 -arch=sm_90 -rdc=true -o /tmp/suite_dp suite_dp.cu -lcudadevrt >> "$out/build.txt" 2>&1 || cat "$out/build.txt"
want="gpu__time_duration.sum sm__cycles_elapsed.max sm__cycles_elapsed.avg.per_second smsp__cycles_active.avg
sm__warps_active.avg.pct_of_peak_sustained_active sm__maximum_warps_per_active_cycle_pct
smsp__inst_executed.sum smsp__inst_executed_pipe_fp64.sum smsp__inst_executed_pipe_xu.sum
dram__bytes_read.sum dram__bytes_write.sum lts__t_sector_hit_rate.pct l1tex__t_sector_hit_rate.pct
lts__t_sectors_op_read.sum lts__t_sectors_op_write.sum lts__t_sectors_op_atom.sum lts__t_sectors_op_red.sum
lts__t_sectors_aperture_sysmem.sum
l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum
l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum l1tex__data_pipe_lsu_wavefronts_mem_shared.sum
launch__registers_per_thread launch__grid_size launch__block_size launch__waves_per_multiprocessor"
ncu --query-metrics --chip gh100 > /tmp/qm.txt 2>&1
list=""
for m in $want; do
  base=${m%%.*}
  if grep -q "^$base[[:space:]]" /tmp/qm.txt; then list="$list,$m"; else echo "not offered: $m" >> "$out/metrics.txt"; fi
done
list=${list#,}
# a query this ncu did not answer: ask for everything (and keep the time at least)
[ "$(wc -l < /tmp/qm.txt)" -gt 100 ] || list=$(echo $want | tr ' ' ',')
case ",$list," in *,gpu__time_duration.sum,*) ;; *) list="gpu__time_duration.sum,$list" ;; esac
echo "used: $list" >> "$out/metrics.txt"
t0=$(date +%s)
timeout 330 ncu --csv --page raw --print-units base --clock-control none --metrics "$list" \
  --log-file "$out/suite.ncu.csv" /tmp/suite 2 ${FROM:-0} > "$out/suite.out" 2> "$out/suite.err"
echo "suite rc=$? $(( $(date +%s) - t0 ))s rows=$(grep -c '^"[0-9]' "$out/suite.ncu.csv")" | tee -a "$out/env.txt"
t0=$(date +%s)
timeout 90 ncu --csv --page raw --print-units base --clock-control none --metrics "$list" \
  --log-file "$out/suite_dp.ncu.csv" /tmp/suite_dp 2 > "$out/suite_dp.out" 2> "$out/suite_dp.err"
echo "dp rc=$? $(( $(date +%s) - t0 ))s rows=$(grep -c '^"[0-9]' "$out/suite_dp.ncu.csv")" | tee -a "$out/env.txt"
tail -3 "$out/suite.out" "$out/suite_dp.out" "$out/suite.err" "$out/suite_dp.err"
cat "$out/metrics.txt"
