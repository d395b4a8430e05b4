#!/usr/bin/env python3
"""bench/timing/import_extra.py — file the occupancy sweep and the managed-memory runs.

usage: import_extra.py OUT
OUT: the folder of the run that measured bench/timing/suite_occ.cu under Nsight Compute
(occ.ncu.csv, occ.out: what run_extra.sh writes) and bench/timing/suite_mm.cu with CUDA
events (mm.out, also kept as data/suite_mm.out).

suite_occ's launches go into data/h100.csv as program "occ" (the rows it had are replaced),
measured as the suite's were. suite_mm's go into data/h100_events.csv, one row per launch,
with its event time (event_ns) and the duration compared with vcuda's estimate
(gpu__time_duration.sum): the event time less the events' own overhead, the median of
(event time of the saxpy on cudaMalloc memory) - (Nsight Compute's duration of the same
saxpy at that size, data/h100.csv). Launches over managed memory that fault (after the host
wrote the arrays, after the host read the result, over arrays nobody touched) are class
managed_ev; the others (resident, prefetched, cudaMalloc memory: the references) are
managed_ev_ref, which compare.py leaves out (the events' noise is as large as their time).
"""
import csv, os, statistics, sys

from import_ncu import KEEP, ncu_rows, manifest, num

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "data")
FAULTING = ("mm_hostinit_", "mm_afterhostread_", "mm_gpufirst_")
CARD = "NVIDIA H100 80GB HBM3 (driver 580.159.04, CUDA 13.0.88)"


def import_occ(out):
    rows = ncu_rows(os.path.join(out, "occ.ncu.csv"))
    man = manifest(os.path.join(out, "occ.out"))
    path = os.path.join(DATA, "h100.csv")
    with open(path) as f:
        old = [r for r in csv.reader(f)]
    head, body = old[0], [r for r in old[1:] if r[0] != "occ"]
    for i, r in enumerate(rows):
        cls, case = man[i]
        kernel = r["Kernel Name"].split("(")[0].replace("void ", "")
        body.append(["occ", i, cls, case, kernel, r["Grid Size"].replace(" ", ""),
                     r["Block Size"].replace(" ", "")] + [num(r.get(k, "")) for k in KEEP])
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(head)
        w.writerows(body)


def import_mm(out):
    src = os.path.join(out, "mm.out")
    launches, ev = {}, {}
    with open(src) as f:
        for line in f:
            p = line.split()
            if len(p) == 4 and p[0] == "L":
                launches[int(p[1])] = (p[2], p[3])
            elif len(p) == 3 and p[0] == "T":
                ev[int(p[1])] = float(p[2])
    # the events' overhead: saxpy on cudaMalloc memory, events against Nsight Compute
    with open(os.path.join(DATA, "h100.csv")) as f:
        ncu = {}
        for r in csv.DictReader(f):
            if r["kernel"] == "k_saxpy" and r["class"] in ("mem_coalesced", "managed"):
                n = int(r["case"].split("_n")[-1])
                ncu.setdefault(n, []).append(float(r["gpu__time_duration.sum"]))
    diffs = [ev[i] - statistics.median(ncu[int(c.split("_n")[-1])])
             for i, (_, c) in launches.items()
             if c.startswith("mm_device_") and int(c.split("_n")[-1]) in ncu]
    overhead = statistics.median(diffs)
    with open(os.path.join(DATA, "h100_events.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["program", "launch", "class", "case", "kernel", "grid", "block",
                    "gpu__time_duration.sum", "event_ns", "event_overhead_ns", "method", "card"])
        for i in sorted(launches):
            _, case = launches[i]
            n = int(case.split("_n")[-1])
            cls = "managed_ev" if case.startswith(FAULTING) else "managed_ev_ref"
            kernel = "k_fill" if case.startswith("mm_gpufirst_") else "k_saxpy"
            w.writerow(["mm", i, cls, case, kernel, f"({n // 256},1,1)", "(256,1,1)",
                        f"{max(ev[i] - overhead, 0):.0f}", f"{ev[i]:.0f}", f"{overhead:.0f}",
                        "cudaEvent (no profiler: page faults as a program sees them)", CARD])
    print(f"event overhead {overhead:.0f} ns from {len(diffs)} launches")


if __name__ == "__main__":
    import_occ(sys.argv[1])
    import_mm(sys.argv[1])
