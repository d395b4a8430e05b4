#!/usr/bin/env bash
# bench/timing/run_ext.sh — measure suite_ext.cu under Nsight Compute (as run_gpu.sh
# measures the suite, plus the warp-stall reasons: an instruction-cache miss shows as
# "no instruction" and "imc miss") and suite_mmback.cu with CUDA events, outside any
# profiler (Nsight Compute's replay would hide the page faults). usage: bash run_ext.sh
# OUT_DIR, from the folder holding both sources and suite_events.h. Writes env.txt,
# ext.ncu.csv, ext.out, ext_sizes.txt (each kernel's SASS instructions), mmback.out;
# import_ext.py files them.
set -u
out=${1:?}; cd "$(dirname "$0")"
{ nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv; nvcc --version | tail -2; ncu --version | tail -1; } > "$out/env.txt" 2>&1
nvcc -O2 -arch=sm_90 -o /tmp/ext suite_ext.cu > "$out/build.txt" 2>&1 || { cat "$out/build.txt"; exit 1; }
nvcc -O2 -arch=sm_90 -o /tmp/mmback suite_mmback.cu >> "$out/build.txt" 2>&1 || cat "$out/build.txt"
# SASS instructions per kernel (16 bytes each)
cuobjdump -sass /tmp/ext | awk '/Function :/{if(f)print f, c; f=$3; c=0; next} /^ +\/\*[0-9a-f]+\*\//{c++} END{print f, c}' > "$out/ext_sizes.txt"
t0=$(date +%s)
CUDA_MODULE_LOADING=EAGER timeout 120 /tmp/mmback 2 24 > "$out/mmback.out" 2>&1
echo "mmback rc=$? $(( $(date +%s) - t0 ))s" | tee -a "$out/env.txt"
list="gpu__time_duration.sum,sm__cycles_elapsed.max,sm__cycles_elapsed.avg.per_second,smsp__cycles_active.avg,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum,smsp__inst_executed_pipe_fp64.sum,smsp__inst_executed_pipe_xu.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sector_hit_rate.pct,l1tex__t_sector_hit_rate.pct,lts__t_sectors_op_read.sum,lts__t_sectors_op_write.sum,lts__t_sectors_op_atom.sum,lts__t_sectors_op_red.sum,lts__t_sectors_aperture_sysmem.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,launch__registers_per_thread,launch__grid_size,launch__block_size,launch__waves_per_multiprocessor,launch__shared_mem_per_block,launch__occupancy_limit_registers,launch__occupancy_limit_shared_mem,profiler__replayer_passes,dram__throughput.avg.pct_of_peak_sustained_elapsed,dram__sectors_read.sum,dram__sectors_write.sum"
t0=$(date +%s)
timeout 240 ncu --csv --page raw --print-units base --clock-control none --metrics "$list" --section WarpStateStats \
  --log-file "$out/ext.ncu.csv" /tmp/ext 2 > "$out/ext.out" 2> "$out/ext.err"
echo "ext rc=$? $(( $(date +%s) - t0 ))s rows=$(grep -c '^"[0-9]' "$out/ext.ncu.csv")" | tee -a "$out/env.txt"
tail -n 3 "$out/ext.out" "$out/ext.err" "$out/mmback.out"
cat "$out/ext_sizes.txt"
