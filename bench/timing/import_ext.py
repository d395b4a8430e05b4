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
import csv, os, shutil, statistics, sys

from import_ncu import KEEP, ncu_rows, manifest, num

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "data")
CARD = "NVIDIA H100 80GB HBM3 (driver 580.159.04, CUDA 13.0.88)"
STALLS = ["smsp__average_warps_issue_stalled_no_instruction_per_issue_active.ratio",
          "smsp__average_warps_issue_stalled_imc_miss_per_issue_active.ratio",
          "smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio",
          "smsp__average_warps_issue_stalled_lg_throttle_per_issue_active.ratio",
          "dram__sectors_read.sum", "dram__sectors_write.sum",
          "dram__throughput.avg.pct_of_peak_sustained_elapsed"]


def import_ext(out):
    rows = ncu_rows(os.path.join(out, "ext.ncu.csv"))
    man = manifest(os.path.join(out, "ext.out"))
    path = os.path.join(DATA, "h100.csv")
    with open(path) as f:
        old = list(csv.reader(f))
    head, body = old[0], [r for r in old[1:] if r[0] != "ext"]
    extra = []
    for i, r in enumerate(rows):
        cls, case = man[i]
        kernel = r["Kernel Name"].split("(")[0].replace("void ", "")
        body.append(["ext", i, cls, case, kernel, r["Grid Size"].replace(" ", ""),
                     r["Block Size"].replace(" ", "")] + [num(r.get(k, "")) for k in KEEP])
        extra.append([i, cls, case] + [num(r.get(k, "")) for k in STALLS])
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(head)
        w.writerows(body)
    with open(os.path.join(DATA, "ext_stalls.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["launch", "class", "case"] + STALLS)
        w.writerows(extra)
    shutil.copy(os.path.join(out, "ext_sizes.txt"), os.path.join(DATA, "ext_sizes.txt"))


def import_mmback(out):
    src = os.path.join(out, "mmback.out")
    shutil.copy(src, os.path.join(DATA, "suite_mmback.out"))
    launches, ev = {}, {}
    with open(src) as f:
        for line in f:
            p = line.split()
            if len(p) == 4 and p[0] == "L":
                launches[int(p[1])] = (p[2], p[3])
            elif len(p) == 3 and p[0] == "T":
                ev[int(p[1])] = float(p[2])
    with open(os.path.join(DATA, "h100.csv")) as f:
        ncu = {}
        for r in csv.DictReader(f):
            if r["kernel"] == "k_saxpy" and r["class"] in ("mem_coalesced", "managed"):
                n = int(r["case"].split("_n")[-1])
                ncu.setdefault(n, []).append(float(r["gpu__time_duration.sum"]))
    diffs = [ev[i] - statistics.median(ncu[int(c.split("_n")[-1])])
             for i, (_, c) in launches.items()
             if c.startswith("mmb_device_") and int(c.split("_n")[-1]) in ncu]
    overhead = statistics.median(diffs)
    path = os.path.join(DATA, "h100_events.csv")
    with open(path) as f:
        old = list(csv.reader(f))
    head, body = old[0], [r for r in old[1:] if r[0] != "mmback"]
    for i in sorted(launches):
        cls, case = launches[i]
        n = int(case.split("_n")[-1])
        if case.startswith(("mmb_resident", "mmb_device_")):
            cls = "managed_back_ref"
        body.append(["mmback", i, cls, case, "k_saxpy", f"({n // 256},1,1)", "(256,1,1)",
                     f"{max(ev[i] - overhead, 0):.0f}", f"{ev[i]:.0f}", f"{overhead:.0f}",
                     "cudaEvent (no profiler: page faults as a program sees them)", CARD])
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(head)
        w.writerows(body)
    print(f"event overhead {overhead:.0f} ns from {len(diffs)} launches")


if __name__ == "__main__":
    import_ext(sys.argv[1])
    import_mmback(sys.argv[1])
