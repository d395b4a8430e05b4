#!/usr/bin/env python3
"""bench/timing/compare.py — the timing model against the H100, on the timing suite.

usage: bench/timing/compare.py [--build DIR] [--reuse | --estimates DIR]
                               [--half tune|validation|all]
                               [--check] [--list] [--by-limiter] [--programs P,...]

Builds bench/timing/suite.cu, suite_dp.cu, suite_occ.cu and suite_mm.cu with `vcuda cc`,
runs them under
`vcuda prof --csv --print-gpu-trace` on the h100 preset (the estimates go to
DIR/timing-suite/), and compares each launch's estimated duration with the
gpu__time_duration.sum Nsight Compute measured (bench/timing/data/h100.csv, recorded by
run_gpu.sh on an H100 80GB HBM3, see bench/timing/README.md), or, for suite_mm's page
faults, the CUDA-event time less the events' overhead (data/h100_events.csv; its method
column says so). The class "managed" (measured under Nsight Compute, whose replay hides page
faults) is left out of the comparison. --reuse takes the estimates
of the last run instead of running again; --estimates DIR takes them from DIR (suite.csv,
dp.csv: bench/timing/data/estimates/ holds those bench/RESULTS.md reports).

The split: within each class, the distinct cases in name order alternate between the
tuning half (even positions) and the validation half (odd positions); every launch of a case
goes with it. The model's constants were tuned looking at the tuning half only;
bench/RESULTS.md reports the validation half. bench/timing/data/split.txt records it.

A device-launching parent is compared with its own row: on the GPU its time includes its
children's (a parent grid ends when they have), and `vcuda prof` reports it so too.

Prints per class: launches, median and mean |error|, median signed error, within 25%; then
the totals. With --list, one line per launch (and the limiter vcuda named); with
--by-limiter, the median |error| of the launches each limiter bound. With --check, the exit status is 1 when the
validation half's median |error| exceeds 10% or a class's median |error| exceeds 25%.
"""
import csv, os, statistics, subprocess, sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def arg(name, default=None):
    a = sys.argv[1:]
    return a[a.index(name) + 1] if name in a and a.index(name) + 1 < len(a) else default


BUILD = os.path.abspath(arg("--build", os.path.join(ROOT, "build")))
HALF = arg("--half", "validation")
WORK = os.path.abspath(arg("--estimates", os.path.join(BUILD, "timing-suite")))
REUSE = "--reuse" in sys.argv or "--estimates" in sys.argv
# program: source, nvcc flags, arguments under vcuda
PROGRAMS = {"suite": ("suite.cu", [], ["1"]), "dp": ("suite_dp.cu", ["-rdc=true"], ["1"]),
            "occ": ("suite_occ.cu", [], ["1"]), "mm": ("suite_mm.cu", [], ["1", "24"]),
            "ext": ("suite_ext.cu", [], ["1"]), "mmback": ("suite_mmback.cu", [], ["1", "24"])}
# Measured under Nsight Compute, whose replay hides page faults over managed memory (it
# runs a kernel again over memory already migrated): not what a program sees. The class
# managed_ev (suite_mm.cu, timed with CUDA events) measures them instead.
LEFT_OUT = ("managed",)
# Measured, split and listed, but not in the figures: the model does not see the host
# touching managed memory the device had (a GPU migrates it back on the host's fault, and
# the next kernel's faults bring it back again); runtime/memrange.c says why.
NOT_MODELLED = ()
HOST_KERNELS_DP = ("k_parent_",)  # the dp program's host-launched kernels
# The GPU ran each case twice (run_gpu.sh); the model's estimate of a case does not change
# from one launch to the next, so vcuda runs each once and both launches take its estimate.
GPU_REPS, REPS = 2, 1


def measured():
    with open(os.path.join(HERE, "data", "h100.csv")) as f:
        rows = [r for r in csv.DictReader(f) if r["class"] not in LEFT_OUT]
    # suite_mm's faulting launches (data/h100_events.csv: the references are left out)
    with open(os.path.join(HERE, "data", "h100_events.csv")) as f:
        rows += [r for r in csv.DictReader(f) if r["class"] in ("managed_ev", "managed_back")]
    return rows


def run_vcuda(prog):
    src, flags, args = PROGRAMS[prog]
    exe = os.path.join(WORK, prog)
    vcuda = os.path.join(BUILD, "bin", "vcuda")
    log = os.path.join(WORK, prog + ".csv")
    if not REUSE or not os.path.exists(log):
        os.makedirs(WORK, exist_ok=True)
        cmd = [vcuda, "cc", "-O2", "-arch=sm_90"] + flags + ["-o", exe, os.path.join(HERE, src)]
        if flags:
            cmd.append("-lcudadevrt")
        subprocess.run(cmd, check=True)
        env = dict(os.environ, VCUDA_DEVICE="h100")
        with open(os.path.join(WORK, prog + ".out"), "w") as out:
            subprocess.run([vcuda, "prof", "--csv", "--print-gpu-trace", "--log-file", log,
                            exe] + args, env=env, stdout=out, check=True)
    with open(log) as f:
        rows = list(csv.reader(f))
    h = rows[0]
    di, ni = h.index("Duration"), h.index("Name")
    li = h.index("Limiter") if "Limiter" in h else None
    est = []
    for r in rows[2:]:
        name = r[ni]
        if prog == "dp" and not name.startswith(HOST_KERNELS_DP):
            continue  # a child grid: in its parent's time
        if prog in ("mm", "mmback") and name.startswith("k_warm"):
            continue  # the context's warm-up
        est.append((name, float(r[di]) * 1e3, r[li] if li is not None else ""))  # ns
    if prog == "mmback":
        # each size's first saxpy (moving the arrays to the device) is not announced: the
        # first of every 13 launches (12 announced after it)
        est = [e for i, e in enumerate(est) if i % 13]
    if prog in ("mm", "mmback"):
        # one pass of the cases (each on fresh arrays, so a second would be the same):
        # matched by case name, from the manifest vcuda's run printed
        with open(os.path.join(WORK, prog + ".out")) as f:
            names = [p[3] for p in (l.split() for l in f) if len(p) == 4 and p[0] == "L"]
        return dict(zip(names, est))
    return est


def split(rows):
    """case -> 'tune' or 'validation'."""
    by_class = {}
    for r in rows:
        by_class.setdefault(r["class"], set()).add(r["case"])
    half = {}
    for cls, cases in by_class.items():
        for i, c in enumerate(sorted(cases)):
            half[(cls, c)] = "tune" if i % 2 == 0 else "validation"
    return half


def main():
    rows = measured()
    half = split(rows)
    with open(os.path.join(HERE, "data", "split.txt"), "w") as f:
        for (cls, c), h in sorted(half.items()):
            f.write(f"{h} {cls} {c}\n")
    only = arg("--programs")  # a comma-separated subset, to look at a few classes quickly
    if only:
        rows = [r for r in rows if r["program"] in only.split(",")]
    est = {p: run_vcuda(p) for p in {r["program"] for r in rows}}
    results = []
    for r in rows:
        e = est[r["program"]]
        if isinstance(e, dict):
            got = e.get(r["case"])
        else:
            i = int(r["launch"]) * REPS // GPU_REPS
            got = e[i] if i < len(e) else None
        if not got:
            print(f"{r['program']} launch {r['launch']}: no estimate")
            continue
        m = float(r["gpu__time_duration.sum"])
        results.append((r["class"], r["case"], half[(r["class"], r["case"])], m, got[1], got[2]))
    sel = [x for x in results if HALF == "all" or x[2] == HALF]
    unmodelled = [x for x in sel if x[1].startswith(NOT_MODELLED)]
    sel = [x for x in sel if not x[1].startswith(NOT_MODELLED)]
    if "--list" in sys.argv:
        for cls, case, h, m, e, lim in sel:
            print(f"{cls:15s} {case:32s} {h:10s} {m / 1e3:10.2f} {e / 1e3:10.2f} "
                  f"{100 * (e - m) / m:+7.0f}%  {lim}")
    classes = sorted({x[0] for x in sel})
    print(f"{'class':15s} {'launches':>8s} {'median|err|':>11s} {'mean|err|':>9s} {'median err':>10s} {'<=25%':>6s}")
    worst = 0
    for cls in classes + ["ALL"]:
        errs = [(e - m) / m for c, _, _, m, e, _ in sel if c == cls or cls == "ALL"]
        a = [abs(x) for x in errs]
        med = statistics.median(a)
        if cls != "ALL":
            worst = max(worst, med)
        print(f"{cls:15s} {len(errs):8d} {100 * med:10.1f}% {100 * statistics.mean(a):8.1f}% "
              f"{100 * statistics.median(errs):+9.1f}% {sum(1 for x in a if x <= 0.25):6d}")
    total = statistics.median([abs(e - m) / m for _, _, _, m, e, _ in sel])
    print(f"\n{HALF} half: {len(sel)} launches, median |error| {100 * total:.1f}%, "
          f"worst class median |error| {100 * worst:.1f}%")
    if unmodelled:
        print(f"\nnot modelled (left out above): {len(unmodelled)} launches")
        for cls, case, h, m, e, lim in unmodelled:
            print(f"  {cls:15s} {case:32s} {h:10s} {m / 1e3:10.2f} {e / 1e3:10.2f} "
                  f"{100 * (e - m) / m:+7.0f}%  {lim}")
    if "--by-limiter" in sys.argv:
        # how far off the estimates bound by each limiter are: prof/timing.c's uncertainty
        print(f"\n{'limiter':16s} {'launches':>8s} {'median|err|':>11s}")
        for lim in sorted({x[5] for x in sel}):
            a = [abs(e - m) / m for _, _, _, m, e, l in sel if l == lim]
            print(f"{lim:16s} {len(a):8d} {100 * statistics.median(a):10.1f}%")
    if "--check" in sys.argv and (total > 0.10 or worst > 0.25):
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
