#!/usr/bin/env python3
"""bench/timing_model.py — the timing model against measured H100 kernel times.

For every example test with Nsight Compute data (tests/data/ncu/<test>.csv, whose
gpu__time_duration.sum is the kernel's measured time), run the example under
`vcuda prof --csv --print-gpu-trace` (device h100) and compare the estimated duration of
each launch with the measured one. Prints one line per kernel (launches of one kernel in
one test averaged), the error statistics, and for each block size of reduceInteger whether
the estimates rank the reduction variants as the H100 did.

Usage: bench/timing_model.py [--check-ranking] [build-dir]
       (examples built first: cmake --build build --target cuda_examples)
With --check-ranking, the exit status is 1 when, for block sizes 128 to 1024 of
reduceInteger, a pair of variants that the H100 ran more than 10% apart is ordered the
other way by the estimates (ctest runs it so).
"""
import csv, io, math, os, subprocess, sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ARGS = [a for a in sys.argv[1:] if not a.startswith("--")]
CHECK = "--check-ranking" in sys.argv[1:]
BUILD = ARGS[0] if ARGS else os.path.join(ROOT, "build")
CHECKED_TESTS = ("reduceInteger_b128", "reduceInteger_b256", "reduceInteger",
                 "reduceInteger_b1024")  # block sizes 128, 256, 512, 1024
# a launch this much faster than another on the H100 must be estimated faster too
RANK_MARGIN = 0.10


def tests():
    with open(os.path.join(ROOT, "tests/cuda/examples.list")) as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            t, ex, *args = line.split()
            if os.path.exists(os.path.join(ROOT, "tests/data/ncu", t + ".csv")):
                yield t, ex, args


def measured(test):
    with open(os.path.join(ROOT, "tests/data/ncu", test + ".csv")) as f:
        rows = list(csv.reader(f))
    h = rows[0]
    ti, ki = h.index("gpu__time_duration.sum"), h.index("Kernel Name")
    return [(r[ki], float(r[ti]) * 1e-3) for r in rows[2:]]  # us


def estimated(ex, args):
    env = dict(os.environ, VCUDA_DEVICE="h100")
    log = os.path.join(BUILD, "prof", "timing_model.csv")
    os.makedirs(os.path.dirname(log), exist_ok=True)
    subprocess.run([os.path.join(BUILD, "bin/vcuda"), "prof", "--csv", "--print-gpu-trace",
                    "--log-file", log, os.path.join(BUILD, "examples", ex)] + args,
                   env=env, stdout=subprocess.DEVNULL, check=True)
    with open(log) as f:
        rows = list(csv.reader(f))
    h = rows[0]
    di, ni = h.index("Duration"), h.index("Name")
    return [(r[ni], float(r[di])) for r in rows[2:]]


def short(name):
    name = name.replace("void ", "")
    return name[:name.index("(")] if "(" in name else name


def main():
    per_kernel = []
    rank_report = []
    for t, ex, args in tests():
        meas, est = measured(t), estimated(ex, args)
        if len(meas) != len(est):
            print(f"{t}: {len(meas)} launches measured, {len(est)} estimated; skipped")
            continue
        groups = {}
        for (name, m), (_, e) in zip(meas, est):
            g = groups.setdefault(short(name), [0, 0.0, 0.0])
            g[0] += 1
            g[1] += m
            g[2] += e
        rows = []
        for k, (n, m, e) in groups.items():
            rows.append((k, m / n, e / n))
            per_kernel.append((t, k, m / n, e / n))
        if t.startswith("reduceInteger"):
            rank_report.append((t, rows))
    print(f"{'test':22s} {'kernel':30s} {'H100 us':>9s} {'model us':>9s} {'error':>7s}")
    errs = []
    for t, k, m, e in per_kernel:
        err = (e - m) / m
        errs.append(err)
        print(f"{t:22s} {k:30s} {m:9.2f} {e:9.2f} {100 * err:+6.0f}%")
    abs_errs = sorted(abs(x) for x in errs)
    n = len(abs_errs)
    geo = math.exp(sum(math.log(1 + x) if x > -1 else 0 for x in abs_errs) / n) - 1
    print(f"\n{n} kernels: median |error| {100 * abs_errs[n // 2]:.0f}%, "
          f"mean |error| {100 * sum(abs_errs) / n:.0f}%, within 25%: "
          f"{sum(1 for x in abs_errs if x <= 0.25)}, within 50%: "
          f"{sum(1 for x in abs_errs if x <= 0.5)}")
    print(f"\nranking of the reduction variants (pairs whose H100 times differ by more than "
          f"{100 * RANK_MARGIN:.0f}% must be ordered the same):")
    misordered = 0
    for t, rows in rank_report:
        pairs = bad = 0
        for i in range(len(rows)):
            for j in range(len(rows)):
                a, b = rows[i], rows[j]
                if a[1] < b[1] * (1 - RANK_MARGIN):
                    pairs += 1
                    if not a[2] < b[2]:
                        bad += 1
                        print(f"  {t}: H100 {a[0]} {a[1]:.2f} < {b[0]} {b[1]:.2f}, "
                              f"model {a[2]:.2f} vs {b[2]:.2f}")
        order_m = [r[0] for r in sorted(rows, key=lambda r: r[1])]
        order_e = [r[0] for r in sorted(rows, key=lambda r: r[2])]
        # Spearman rank correlation
        rm = {k: i for i, k in enumerate(order_m)}
        re_ = {k: i for i, k in enumerate(order_e)}
        nn = len(rows)
        rho = 1 - 6 * sum((rm[k] - re_[k]) ** 2 for k in rm) / (nn * (nn * nn - 1)) if nn > 1 else 1
        print(f"  {t}: {pairs - bad}/{pairs} clear pairs ordered as on the H100, "
              f"Spearman rho {rho:.2f}")
        if t in CHECKED_TESTS:
            misordered += bad
    return 1 if CHECK and misordered else 0


if __name__ == "__main__":
    sys.exit(main())
