#!/usr/bin/env python3
"""tests/prof/texture/check_texture.py: runs texture_prof under `vcuda prof` and compares
its texture-pipe counts per kernel with what Nsight Compute measured on an H200
(ncu_h200.csv beside this script, environment.txt says how): requests, sectors and cache
set accesses of texture lookups, requests and sectors of surface loads and stores, and
texture instructions. They must be equal, but for the counts the CSV's known-differences
file names (KNOWN, "<kernel> <metric>" lines, '#' comments), which are printed.

usage: check_texture.py VCUDA PROGRAM [CSV [KNOWN]]   (CSV: ncu_h200.csv by default)"""
import csv
import io
import os
import subprocess
import sys

METRICS = [
    "l1tex__t_requests_pipe_tex_mem_texture.sum",
    "l1tex__t_sectors_pipe_tex_mem_texture.sum",
    "l1tex__t_set_accesses_pipe_tex_mem_texture.sum",
    "l1tex__t_requests_pipe_tex_mem_surface_op_ld.sum",
    "l1tex__t_sectors_pipe_tex_mem_surface_op_ld.sum",
    "l1tex__t_requests_pipe_tex_mem_surface_op_st.sum",
    "l1tex__t_sectors_pipe_tex_mem_surface_op_st.sum",
    "smsp__inst_executed_op_texture.sum",
    "smsp__inst_executed_op_surface_ld.sum",
    "smsp__inst_executed_op_surface_st.sum",
]


def kernel_name(full):
    return full.split("(")[0]


def main():
    vcuda, program = sys.argv[1], sys.argv[2]
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, sys.argv[3] if len(sys.argv) > 3 else "ncu_h200.csv")) as f:
        truth = {kernel_name(r["Kernel Name"]): r for r in csv.DictReader(f)}
    known = set()
    if len(sys.argv) > 4:
        with open(os.path.join(here, sys.argv[4])) as f:
            known = {tuple(l.split()[:2]) for l in f if l.strip() and not l.startswith("#")}
    out = subprocess.run([vcuda, "prof", "--csv", "--print-gpu-trace", "--metrics",
                          ",".join(METRICS), program], capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit("vcuda prof failed:\n" + out.stdout + out.stderr)
    text = out.stderr[out.stderr.index('"Device"'):]
    rows = list(csv.DictReader(io.StringIO(text)))
    bad = 0
    for r in rows:
        name = kernel_name(r["Kernel"])
        gpu = truth[name]
        for m in METRICS:
            if float(r[m]) != float(gpu[m]):
                print(f"{name}: {m} is {r[m]}, the H200 counted {gpu[m]}"
                      + (" (known difference)" if (name, m) in known else ""))
                bad += (name, m) not in known
    if len(rows) != len(truth):
        print(f"{len(rows)} launches profiled, the H200 profiled {len(truth)}")
        bad += 1
    if bad:
        sys.exit(1)
    print(f"{len(rows)} kernels x {len(METRICS)} counts as on the H200")


main()
