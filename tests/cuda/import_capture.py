#!/usr/bin/env python3
"""tests/cuda/import_capture.py — file a gpu_capture.sh result into the source tree.

Copies what the GPU printed (tests/cuda/expected/<test>.out and .rc), the broken programs'
plain runs and sanitizer reports (tests/cuda/broken/h100/), the machine description and
run summary (tests/cuda/h100/), and the Nsight Compute results (tests/data/ncu/<test>.csv).

The ncu CSVs are trimmed: ncu's raw page carries every device attribute and the profiled
process's id and host name; only the launch identity (ID, kernel, block, grid) and the
requested metrics are kept, in the order of metrics.txt. The second row holds the units.
Thousands separators are removed from numbers, so every value parses as a plain number.

Usage: import_capture.py <capture dir (holds expected/, ncu/, broken/, logs/)> <repo root>
"""
import csv
import os
import shutil
import sys

IDENTITY = ["ID", "Kernel Name", "Block Size", "Grid Size"]


def plain_number(text):
    """'1,046,528' -> '1046528'; anything that is not a number is left alone."""
    stripped = text.replace(",", "")
    try:
        float(stripped)
    except ValueError:
        return text
    return stripped


def trim_ncu_csv(src, dst, metrics):
    with open(src, newline="") as f:
        rows = list(csv.reader(line for line in f if not line.startswith("==")))
    if not rows:
        raise SystemExit(f"{src}: no CSV rows")
    header = rows[0]
    columns = IDENTITY + [m for m in metrics if m in header]
    index = [header.index(c) for c in columns]
    with open(dst, "w", newline="") as f:
        out = csv.writer(f, lineterminator="\n")
        out.writerow(columns)
        for n, row in enumerate(rows[1:]):
            values = [row[i] for i in index]
            if n > 0:   # row 0 is the units row
                values = values[:len(IDENTITY)] + [plain_number(v) for v in values[len(IDENTITY):]]
            out.writerow(values)
    return len(rows) - 2


def main():
    if len(sys.argv) != 3:
        raise SystemExit(__doc__)
    cap, root = sys.argv[1], sys.argv[2]
    expected = os.path.join(root, "tests/cuda/expected")
    broken = os.path.join(root, "tests/cuda/broken/h100")
    machine = os.path.join(root, "tests/cuda/h100")
    ncu = os.path.join(root, "tests/data/ncu")
    for d in (expected, broken, machine, ncu):
        os.makedirs(d, exist_ok=True)

    for name in sorted(os.listdir(os.path.join(cap, "expected"))):
        shutil.copyfile(os.path.join(cap, "expected", name), os.path.join(expected, name))
    for name in sorted(os.listdir(os.path.join(cap, "broken"))):
        if name.endswith(".stderr") and os.path.getsize(os.path.join(cap, "broken", name)) == 0:
            continue
        shutil.copyfile(os.path.join(cap, "broken", name), os.path.join(broken, name))
    shutil.copyfile(os.path.join(cap, "environment.txt"), os.path.join(machine, "environment.txt"))
    shutil.copyfile(os.path.join(cap, "summary.txt"), os.path.join(machine, "summary.txt"))
    shutil.copyfile(os.path.join(cap, "logs/res-usage.txt"), os.path.join(machine, "res-usage.txt"))
    shutil.copyfile(os.path.join(cap, "logs/reduceInteger.timing.stdout"),
                    os.path.join(machine, "reduceInteger.timing.txt"))

    with open(os.path.join(cap, "ncu/metrics-used.txt")) as f:
        metrics = [line.strip() for line in f if line.strip()]
    with open(os.path.join(ncu, "metrics.txt"), "w") as f:
        f.write("\n".join(metrics) + "\n")
    for name in sorted(os.listdir(os.path.join(cap, "ncu"))):
        if name.endswith(".csv"):
            launches = trim_ncu_csv(os.path.join(cap, "ncu", name), os.path.join(ncu, name), metrics)
            print(f"{name}: {launches} launches")


if __name__ == "__main__":
    main()
