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
import csv, os, sys

from import_ncu import (ncu_rows, manifest, ncu_row, replace_rows, event_times,
                        event_overhead, event_row)

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "data")
FAULTING = ("mm_hostinit_", "mm_afterhostread_", "mm_gpufirst_")


def import_occ(out):
    rows = ncu_rows(os.path.join(out, "occ.ncu.csv"))
    man = manifest(os.path.join(out, "occ.out"))
    replace_rows(os.path.join(DATA, "h100.csv"), "occ",
                 [ncu_row("occ", i, *man[i], r) for i, r in enumerate(rows)])


def import_mm(out):
    launches, ev = event_times(os.path.join(out, "mm.out"))
    # the events' overhead: saxpy on cudaMalloc memory, events against Nsight Compute
    overhead, n_ref = event_overhead(launches, ev, "mm_device_")
    with open(os.path.join(DATA, "h100_events.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["program", "launch", "class", "case", "kernel", "grid", "block",
                    "gpu__time_duration.sum", "event_ns", "event_overhead_ns", "method", "card"])
        for i in sorted(launches):
            _, case = launches[i]
            n = int(case.split("_n")[-1])
            cls = "managed_ev" if case.startswith(FAULTING) else "managed_ev_ref"
            kernel = "k_fill" if case.startswith("mm_gpufirst_") else "k_saxpy"
            w.writerow(event_row("mm", i, cls, case, kernel, n, ev[i], overhead))
    print(f"event overhead {overhead:.0f} ns from {n_ref} launches")


if __name__ == "__main__":
    import_occ(sys.argv[1])
    import_mm(sys.argv[1])
