#!/usr/bin/env python3
"""bench/timing/import_ncu.py — file what run_gpu.sh measured as bench/timing/data/h100.csv.

usage: import_ncu.py OUT1 [OUT2 FROM]
OUT1: the folder of a run_gpu.sh call (suite.ncu.csv, suite.out, suite_dp.ncu.csv);
OUT2, FROM: a second call made with FROM=<n> (launches from n on), whose rows replace
those of OUT1 from n on (the first call's program stopped at launch n).

Keeps, per launch: its number, class and case (from the program's manifest lines
"L <n> <class> <case>"), the kernel, grid and block, and the metrics run_gpu.sh asked for,
as plain numbers (ncu prints thousands separators even with --print-units base).
The device-launch program's launches are numbered after the suite's, with program "dp".
"""
import csv, os, statistics, sys

HERE = os.path.dirname(os.path.abspath(__file__))
KEEP = ["gpu__time_duration.sum", "sm__cycles_elapsed.max", "sm__cycles_elapsed.avg.per_second",
        "smsp__cycles_active.avg", "sm__warps_active.avg.pct_of_peak_sustained_active",
        "smsp__inst_executed.sum", "smsp__inst_executed_pipe_fp64.sum",
        "smsp__inst_executed_pipe_xu.sum", "dram__bytes_read.sum", "dram__bytes_write.sum",
        "lts__t_sector_hit_rate.pct", "l1tex__t_sector_hit_rate.pct",
        "lts__t_sectors_op_read.sum", "lts__t_sectors_op_write.sum",
        "lts__t_sectors_op_atom.sum", "lts__t_sectors_op_red.sum",
        "lts__t_sectors_aperture_sysmem.sum",
        "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
        "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
        "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
        "l1tex__data_pipe_lsu_wavefronts_mem_shared.sum",
        "launch__registers_per_thread", "launch__shared_mem_per_block",
        "launch__occupancy_limit_registers", "launch__occupancy_limit_shared_mem",
        "launch__waves_per_multiprocessor", "profiler__replayer_passes"]


def ncu_rows(path):
    with open(path) as f:
        rows = [r for r in csv.reader(f) if r and not r[0].startswith("==")]
    h = rows[0]
    return [dict(zip(h, r)) for r in rows[2:]]


def manifest(path):
    out = {}
    with open(path) as f:
        for line in f:
            p = line.split()
            if len(p) == 4 and p[0] == "L":
                out[int(p[1])] = (p[2], p[3])
    return out


def num(s):
    s = s.replace(",", "")
    try:
        return float(s)
    except ValueError:
        return ""


def ncu_row(program, i, cls, case, r):
    """Launch i of program, measured by Nsight Compute as r (ncu_rows), as a row of h100.csv."""
    kernel = r["Kernel Name"].split("(")[0].replace("void ", "")
    return [program, i, cls, case, kernel, r["Grid Size"].replace(" ", ""),
            r["Block Size"].replace(" ", "")] + [num(r.get(k, "")) for k in KEEP]


def replace_rows(path, program, rows):
    """Rewrite the table at path with program's rows replaced by rows (put last)."""
    with open(path) as f:
        old = list(csv.reader(f))
    head, body = old[0], [r for r in old[1:] if r[0] != program] + rows
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(head)
        w.writerows(body)


# The card of the event-timed runs, and how data/h100_events.csv's times were taken.
EVENT_CARD = "NVIDIA H100 80GB HBM3 (driver 580.159.04, CUDA 13.0.88)"
EVENT_METHOD = "cudaEvent (no profiler: page faults as a program sees them)"


def event_times(path):
    """A program timed with CUDA events: its manifest ("L <n> <class> <case>") and each
    launch's event time in ns ("T <n> <ns>")."""
    launches, ev = {}, {}
    with open(path) as f:
        for line in f:
            p = line.split()
            if len(p) == 4 and p[0] == "L":
                launches[int(p[1])] = (p[2], p[3])
            elif len(p) == 3 and p[0] == "T":
                ev[int(p[1])] = float(p[2])
    return launches, ev


def event_overhead(launches, ev, device_prefix):
    """The events' own overhead, and over how many launches: the median of (event time of
    the saxpy on cudaMalloc memory, cases device_prefix<...>_n<size>) less (Nsight
    Compute's duration of the same saxpy at that size, data/h100.csv)."""
    with open(os.path.join(HERE, "data", "h100.csv")) as f:
        ncu = {}
        for r in csv.DictReader(f):
            if r["kernel"] == "k_saxpy" and r["class"] in ("mem_coalesced", "managed"):
                n = int(r["case"].split("_n")[-1])
                ncu.setdefault(n, []).append(float(r["gpu__time_duration.sum"]))
    diffs = [ev[i] - statistics.median(ncu[int(c.split("_n")[-1])])
             for i, (_, c) in launches.items()
             if c.startswith(device_prefix) and int(c.split("_n")[-1]) in ncu]
    return statistics.median(diffs), len(diffs)


def event_row(program, i, cls, case, kernel, n, ev_ns, overhead):
    """An event-timed launch of 256-thread blocks over n elements as a row of
    data/h100_events.csv: its duration is the event time less the events' overhead."""
    return [program, i, cls, case, kernel, f"({n // 256},1,1)", "(256,1,1)",
            f"{max(ev_ns - overhead, 0):.0f}", f"{ev_ns:.0f}", f"{overhead:.0f}",
            EVENT_METHOD, EVENT_CARD]


def main():
    out1 = sys.argv[1]
    rows = ncu_rows(os.path.join(out1, "suite.ncu.csv"))
    man = manifest(os.path.join(out1, "suite.out"))
    if len(sys.argv) > 3:
        out2, start = sys.argv[2], int(sys.argv[3])
        rows = rows[:start] + ncu_rows(os.path.join(out2, "suite.ncu.csv"))
        man.update(manifest(os.path.join(out2, "suite.out")))
    dp = ncu_rows(os.path.join(sys.argv[2] if len(sys.argv) > 3 else out1, "suite_dp.ncu.csv"))
    dp_man = manifest(os.path.join(HERE, "data", "dp_manifest.txt"))
    table = []
    for i, r in enumerate(rows):
        table.append(("suite", i) + man[i] + (r,))
    for i, r in enumerate(dp):
        table.append(("dp", i) + dp_man[i] + (r,))
    with open(os.path.join(HERE, "data", "h100.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["program", "launch", "class", "case", "kernel", "grid", "block"] + KEEP)
        for prog, i, cls, case, r in table:
            w.writerow(ncu_row(prog, i, cls, case, r))
    print(f"{len(table)} launches")


if __name__ == "__main__":
    main()
