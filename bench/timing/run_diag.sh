#!/usr/bin/env bash
# bench/timing/run_diag.sh — what ran on the GPU for suite_diag.cu: its SASS, a plain run
# (the blocks' %clock64 durations), Nsight Compute's durations and warp-state counters for
# every launch, and the per-instruction stall samples of the L1-reuse kernel and of a lone
# block of k_occ_smem. usage: bash run_diag.sh OUT_DIR, from the folder holding suite_diag.cu.
set -u
out=${1:?}; cd "$(dirname "$0")"
{ nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv; nvcc --version | tail -2; ncu --version | tail -1; } > "$out/env.txt" 2>&1
nvcc -O2 -arch=sm_90 -o /tmp/diag suite_diag.cu > "$out/build.txt" 2>&1 || { cat "$out/build.txt"; exit 1; }
cuobjdump -sass /tmp/diag > "$out/diag.sass" 2>&1
t0=$(date +%s); timeout 60 /tmp/diag 2 > "$out/diag.out" 2>&1; echo "plain rc=$? $(( $(date +%s) - t0 ))s" | tee -a "$out/env.txt"
list="gpu__time_duration.sum,sm__cycles_elapsed.max,smsp__cycles_active.avg,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum,l1tex__t_sector_hit_rate.pct,lts__t_sector_hit_rate.pct,lts__t_sectors_op_read.sum,dram__bytes_read.sum,launch__registers_per_thread,launch__grid_size,launch__shared_mem_config_size"
t0=$(date +%s)
timeout 150 ncu --csv --page raw --print-units base --clock-control none --metrics "$list" --section WarpStateStats --section SchedulerStats \
  --log-file "$out/diag.ncu.csv" /tmp/diag 2 > "$out/diag_ncu.out" 2> "$out/diag_ncu.err"
echo "ncu rc=$? $(( $(date +%s) - t0 ))s rows=$(grep -c '^"[0-9]' "$out/diag.ncu.csv")" | tee -a "$out/env.txt"
t0=$(date +%s)
timeout 60 ncu --set full --import-source no --clock-control none -k regex:'^k_l1reuse$' --launch-count 1 -o /tmp/l1r /tmp/diag 1 > /dev/null 2>> "$out/env.txt"
timeout 60 ncu --set full --import-source no --clock-control none -k regex:'^k_occ_smem$' --launch-skip 8 --launch-count 1 -o /tmp/lone /tmp/diag 1 > /dev/null 2>> "$out/env.txt"
{ ncu -i /tmp/l1r.ncu-rep --page source --csv --print-source sass; echo "=== lone k_occ_smem"; ncu -i /tmp/lone.ncu-rep --page source --csv --print-source sass; } > "$out/source.csv" 2>&1
echo "source $(( $(date +%s) - t0 ))s" | tee -a "$out/env.txt"
tail -n 4 "$out/diag.out" "$out/diag_ncu.err"
