#!/usr/bin/env python3
"""bench/timing/import_ext.py — file the instruction-cache, DRAM-pattern and managed
host-touch runs (run_ext.sh).

usage: import_ext.py OUT
OUT: the folder of a run_ext.sh call: ext.ncu.csv and ext.out (suite_ext.cu under Nsight
Compute), ext_sizes.txt (SASS instructions per kernel), mmback.out (suite_mmback.cu timed
with CUDA events).

suite_ext's launches go into data/h100.csv as program "ext" (the rows it had are
replaced), measured as the suite's were; the warp-stall ratios that explain instruction
fetch ("no instruction", "imc miss") and the DRAM sectors go into data/ext_stalls.csv, and
ext_sizes.txt is kept as data/ext_sizes.txt. suite_mmback's launches go into
data/h100_events.csv (rows of program "mmback" replaced): the event time less the events'
own overhead, the median of (event time of mmb_device_*, the saxpy on cudaMalloc memory)
less (Nsight Compute's duration of the same saxpy, data/h100.csv), as import_extra.py
does for suite_mm. Class managed_back: the launches after the host touched the arrays;
managed_back_ref (resident and cudaMalloc references) is left out of the comparison.
"""
import csv, os, shutil, sys

from import_ncu import (ncu_rows, manifest, ncu_row, num, replace_rows, event_times,
                        event_overhead, event_row)

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "data")
STALLS = ["smsp__average_warps_issue_stalled_no_instruction_per_issue_active.ratio",
          "smsp__average_warps_issue_stalled_imc_miss_per_issue_active.ratio",
          "smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio",
          "smsp__average_warps_issue_stalled_lg_throttle_per_issue_active.ratio",
          "dram__sectors_read.sum", "dram__sectors_write.sum",
          "dram__throughput.avg.pct_of_peak_sustained_elapsed"]


def import_ext(out):
    rows = ncu_rows(os.path.join(out, "ext.ncu.csv"))
    man = manifest(os.path.join(out, "ext.out"))
    replace_rows(os.path.join(DATA, "h100.csv"), "ext",
                 [ncu_row("ext", i, *man[i], r) for i, r in enumerate(rows)])
    with open(os.path.join(DATA, "ext_stalls.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["launch", "class", "case"] + STALLS)
        w.writerows([i, *man[i]] + [num(r.get(k, "")) for k in STALLS]
                    for i, r in enumerate(rows))
    shutil.copy(os.path.join(out, "ext_sizes.txt"), os.path.join(DATA, "ext_sizes.txt"))


def import_mmback(out):
    src = os.path.join(out, "mmback.out")
    shutil.copy(src, os.path.join(DATA, "suite_mmback.out"))
    launches, ev = event_times(src)
    overhead, n_ref = event_overhead(launches, ev, "mmb_device_")
    rows = []
    for i in sorted(launches):
        cls, case = launches[i]
        if case.startswith(("mmb_resident", "mmb_device_")):
            cls = "managed_back_ref"
        rows.append(event_row("mmback", i, cls, case, "k_saxpy", int(case.split("_n")[-1]),
                              ev[i], overhead))
    replace_rows(os.path.join(DATA, "h100_events.csv"), "mmback", rows)
    print(f"event overhead {overhead:.0f} ns from {n_ref} launches")


if __name__ == "__main__":
    import_ext(sys.argv[1])
    import_mmback(sys.argv[1])
