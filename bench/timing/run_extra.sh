#!/usr/bin/env bash
# bench/timing/run_extra.sh — measure suite_occ.cu under Nsight Compute (as run_gpu.sh
# measures the suite) and suite_mm.cu with CUDA events, outside any profiler (Nsight
# Compute's replay hides page faults). usage: bash run_extra.sh OUT_DIR, from the folder
# holding both sources and suite_events.h. Writes env.txt, occ.ncu.csv, occ.out, mm.out
# (import_extra.py files them).
set -u
out=${1:?}; src=$(dirname "$0"); cd "$src"
{ nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv; nvcc --version | tail -2; ncu --version | tail -1; nvidia-smi -q | grep -i -E "addressing|product name" ; } > "$out/env.txt" 2>&1
nvcc -O2 -arch=sm_90 -o /tmp/occ suite_occ.cu > "$out/build.txt" 2>&1 || cat "$out/build.txt"
nvcc -O2 -arch=sm_90 -o /tmp/mm suite_mm.cu >> "$out/build.txt" 2>&1 || cat "$out/build.txt"
t0=$(date +%s)
CUDA_MODULE_LOADING=EAGER timeout 100 /tmp/mm 2 24 > "$out/mm.out" 2>&1
echo "mm rc=$? $(( $(date +%s) - t0 ))s" | tee -a "$out/env.txt"
t0=$(date +%s)
list="gpu__time_duration.sum,sm__cycles_elapsed.max,sm__cycles_elapsed.avg.per_second,smsp__cycles_active.avg,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum,smsp__inst_executed_pipe_fp64.sum,smsp__inst_executed_pipe_xu.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sector_hit_rate.pct,l1tex__t_sector_hit_rate.pct,lts__t_sectors_op_read.sum,lts__t_sectors_op_write.sum,lts__t_sectors_op_atom.sum,lts__t_sectors_op_red.sum,lts__t_sectors_aperture_sysmem.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,launch__registers_per_thread,launch__grid_size,launch__block_size,launch__waves_per_multiprocessor,launch__shared_mem_per_block,launch__occupancy_limit_registers,launch__occupancy_limit_shared_mem,launch__shared_mem_config_size"
timeout 150 ncu --csv --page raw --print-units base --clock-control none --metrics "$list" \
  --log-file "$out/occ.ncu.csv" /tmp/occ 2 > "$out/occ.out" 2> "$out/occ.err"
echo "occ rc=$? $(( $(date +%s) - t0 ))s rows=$(grep -c '^"[0-9]' "$out/occ.ncu.csv")" | tee -a "$out/env.txt"
tail -n 3 "$out/occ.out" "$out/occ.err" "$out/mm.out"
