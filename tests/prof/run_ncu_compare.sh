#!/bin/sh
# tests/prof/run_ncu_compare.sh — profile one example with `vcuda prof` and compare its
# per-launch counts with what Nsight Compute measured on an H100.
# usage: run_ncu_compare.sh VCUDA NCU_COMPARE NCU_CSV TEST KNOWN OUTDIR PROGRAM [ARGS...]
set -e
vcuda=$1 compare=$2 ncu_csv=$3 test=$4 known=$5 outdir=$6
shift 6
metrics=l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum
metrics=$metrics,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum
metrics=$metrics,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum
metrics=$metrics,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum
metrics=$metrics,l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum,l1tex__t_requests_pipe_lsu_mem_global_op_red.sum
metrics=$metrics,smsp__sass_average_branch_targets_threads_uniform.pct,smsp__thread_inst_executed_per_inst_executed.ratio
mkdir -p "$outdir"
out="$outdir/$test.csv"
"$vcuda" prof --csv --print-gpu-trace --metrics "$metrics" --log-file "$out" "$@" > /dev/null
"$compare" "$ncu_csv" "$out" "$test" "$known"
