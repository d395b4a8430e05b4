#!/usr/bin/env python3
"""Join the launch listing written by patterns.cu with the raw CSV page of ncu into
h100_ncu.csv: one line per launch, pattern first, then the counters the tests compare.
usage: join.py listing.txt ncu_stdout.txt > h100_ncu.csv"""
import csv
import sys

COLUMNS = [
    ("g_ld_req", "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"),
    ("g_ld_sec", "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"),
    ("g_ld_eff", "smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.pct"),
    ("g_st_req", "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum"),
    ("g_st_sec", "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"),
    ("g_st_eff", "smsp__sass_average_data_bytes_per_sector_mem_global_op_st.pct"),
    ("atom_req", "l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum"),
    ("atom_sec", "l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum"),
    ("atom_set", "l1tex__t_set_accesses_pipe_lsu_mem_global_op_atom.sum"),
    ("red_req", "l1tex__t_requests_pipe_lsu_mem_global_op_red.sum"),
    ("red_sec", "l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum"),
    ("red_set", "l1tex__t_set_accesses_pipe_lsu_mem_global_op_red.sum"),
    ("l_ld_req", "l1tex__t_requests_pipe_lsu_mem_local_op_ld.sum"),
    ("l_ld_sec", "l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum"),
    ("l_st_req", "l1tex__t_requests_pipe_lsu_mem_local_op_st.sum"),
    ("l_st_sec", "l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum"),
    ("s_ld_inst", "smsp__inst_executed_op_shared_ld.sum"),
    ("s_ld_wf", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"),
    ("s_ld_bc", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"),
    ("s_ld_sass_wf", "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"),
    ("s_st_inst", "smsp__inst_executed_op_shared_st.sum"),
    ("s_st_wf", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"),
    ("s_st_bc", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"),
    ("s_st_sass_wf", "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum"),
    ("s_atom_wf", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum"),
    ("s_atom_bc", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_atom.sum"),
    ("s_atom_sass_wf", "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_atom.sum"),
    ("s_eff", "smsp__sass_average_data_bytes_per_wavefront_mem_shared.pct"),
    ("br_targets", "smsp__sass_branch_targets.sum"),
    ("br_div", "smsp__sass_branch_targets_threads_divergent.sum"),
    ("br_uni", "smsp__sass_branch_targets_threads_uniform.sum"),
    ("br_pct", "smsp__sass_average_branch_targets_threads_uniform.pct"),
    ("br_inst", "smsp__inst_executed_op_branch.sum"),
    ("inst", "smsp__inst_executed.sum"),
    ("thr_inst", "smsp__thread_inst_executed.sum"),
    ("thr_pred_on", "smsp__thread_inst_executed_pred_on.sum"),
    ("thr_ratio", "smsp__thread_inst_executed_per_inst_executed.ratio"),
    ("thr_pct", "smsp__thread_inst_executed_per_inst_executed.pct"),
]


def main():
    listing = [line.split() for line in open(sys.argv[1]) if line.strip()]
    rows = list(csv.reader(line for line in open(sys.argv[2]) if line.startswith('"')))
    header, data = rows[0], rows[2:]  # rows[1] holds the units
    index = {name: i for i, name in enumerate(header)}
    cols = [(short, index.get(full)) for short, full in COLUMNS]
    out = csv.writer(sys.stdout, lineterminator="\n")
    out.writerow(["id", "kernel", "size", "mask", "offsets"] + [c for c, _ in cols])
    for row in data:
        launch = listing[int(row[index["ID"]])]
        values = [row[i].replace(",", "") if i is not None else "" for _, i in cols]
        out.writerow([launch[0], launch[1], launch[2], launch[3], " ".join(launch[4:])] + values)


main()
