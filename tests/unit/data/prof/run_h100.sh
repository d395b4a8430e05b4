#!/usr/bin/env bash
# Collect the Nsight Compute figures that h100_ncu.csv holds, on a machine with an H100,
# the CUDA toolkit and ncu: bash tests/unit/data/prof/run_h100.sh OUTDIR
# Writes OUTDIR/listing.txt (launch id -> pattern), OUTDIR/ncu_stdout.txt (ncu's raw page
# as CSV), OUTDIR/sass.txt (the kernels' machine code) and the metric names ncu offered;
# then: python3 join.py OUTDIR/listing.txt OUTDIR/ncu_stdout.txt > h100_ncu.csv
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:?output folder}
mkdir -p "$out"
nvcc -arch=sm_90 -O2 -o "$out/patterns" "$here/patterns.cu"
cuobjdump -sass "$out/patterns" > "$out/sass.txt"
ncu --version > "$out/ncu_version.txt"
nvidia-smi --query-gpu=name,driver_version --format=csv >> "$out/ncu_version.txt"
ncu --query-metrics > "$out/metrics_all.txt" 2>&1 || true  # names and descriptions
grep -E 'mem_shared|mem_global|mem_local|branch|thread_inst_executed|inst_executed_op|warps_active|maximum_warps|sass_data_bytes|sass_sectors|sass_inst_executed_op_(shared|global|local)' \
    "$out/metrics_all.txt" > "$out/metrics_query.txt" || true
want="l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum
l1tex__t_requests_pipe_lsu_mem_global_op_st.sum l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum
l1tex__t_bytes_pipe_lsu_mem_global_op_ld.sum l1tex__t_bytes_pipe_lsu_mem_global_op_st.sum
smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct smsp__sass_average_data_bytes_per_sector_mem_global_op_st.pct
smsp__sass_data_bytes_mem_global_op_ld.sum smsp__sass_data_bytes_mem_global_op_st.sum
smsp__sass_sectors_mem_global_op_ld.sum smsp__sass_sectors_mem_global_op_st.sum
smsp__inst_executed_op_global_ld.sum smsp__inst_executed_op_global_st.sum
l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum l1tex__t_set_accesses_pipe_lsu_mem_global_op_atom.sum
l1tex__t_requests_pipe_lsu_mem_global_op_red.sum l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum l1tex__t_set_accesses_pipe_lsu_mem_global_op_red.sum
l1tex__t_requests_pipe_lsu_mem_local_op_ld.sum l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum
l1tex__t_requests_pipe_lsu_mem_local_op_st.sum l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum
l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum
l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum
smsp__sass_data_bytes_mem_shared_op_ld.sum smsp__sass_data_bytes_mem_shared_op_st.sum
smsp__sass_average_data_bytes_per_wavefront_mem_shared.pct
smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum
smsp__inst_executed_op_shared_ld.sum smsp__inst_executed_op_shared_st.sum
l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_atom.sum
smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_atom.sum smsp__sass_inst_executed_op_shared_atom.sum
smsp__sass_branch_targets.sum smsp__sass_branch_targets_threads_divergent.sum smsp__sass_branch_targets_threads_uniform.sum
smsp__sass_average_branch_targets_threads_uniform.pct smsp__inst_executed_op_branch.sum
smsp__inst_executed.sum smsp__thread_inst_executed.sum smsp__thread_inst_executed_pred_on.sum
smsp__thread_inst_executed_per_inst_executed.ratio smsp__thread_inst_executed_per_inst_executed.pct
smsp__sass_thread_inst_executed.sum smsp__sass_inst_executed.sum
launch__registers_per_thread"
list=""
for m in $want; do
  base=${m%.*}
  if grep -q "^$base\b\|[[:space:]]$base[[:space:]]" "$out/metrics_all.txt"; then list="$list,$m"; else echo "not offered: $m" >> "$out/metrics_missing.txt"; fi
done
list=${list#,}
echo "$list" > "$out/metrics_used.txt"
ncu --csv --page raw --print-units base --metrics "$list" "$out/patterns" "$out/listing.txt" > "$out/ncu_stdout.txt" 2> "$out/ncu_stderr.txt" || { tail -30 "$out/ncu_stderr.txt"; tail -30 "$out/ncu_stdout.txt"; exit 1; }
rm -f "$out/patterns" "$out/metrics_all.txt" "$out/metrics_query.txt"
grep -c '^"' "$out/ncu_stdout.txt"
wc -l "$out/listing.txt"
