#!/usr/bin/env python3
"""bench/book_sizes.py — the examples at the book's own problem sizes, each kernel's time
against the program's own CPU reference.

Builds every program of examples/ that times a kernel with `vcuda cc`, runs it at the size
of the book (and of the seeds' listings) with EXAMPLE_TIMING=1 in two modes, one after the
other: VCUDA_JIT=always with a warm cache (a first run fills the cache; the second is the
one measured) and VCUDA_JIT=0 (the interpreter). Prints one table: each kernel's time as
the program prints it (wall time from launch to synchronisation) against the program's
host reference computation as it prints it, and their ratio (the goal: within 3x); then
each kernel's host time and warp-instructions from VCUDA_REPORT, which tier ran it, and
the process's CPU time (user + sys) next to its wall time, since a loaded machine
stretches wall times.

Usage: bench/book_sizes.py [build-dir] [program ...]    (after `make build`)
Environment: VCUDA_THREADS as for any run (default: one worker per core).
"""
import os
import re
import resource
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# program, arguments at the book's size, and the line that prints the host reference.
# reduceInteger/reduceFloat: 2^24 elements, 512-thread blocks (chapter 3); sumArraysOnGPU:
# 2^24 floats (chapter 2's timed version); sumMatrixOnGPU2D/1D: 2^14 x 2^14 with the
# book's first block shape (32x32, and 32 wide); matMult: 1024 x 1024 (the seeds' listing);
# reduceTwoPhase: 2^24 ints (its largest), 256 blocks of 256; simpleDivergence: the book's
# 64 elements in blocks of 64 (no host reference); incr: 16 M floats (the seeds' listing;
# no host reference).
PROGRAMS = [
    ("reduceInteger", ["512", str(1 << 24)], r"^cpu reduce"),
    ("reduceFloat", ["512", str(1 << 24)], r"^cpu reduce"),
    ("sumArraysOnGPU", [str(1 << 24), "1024"], r"^sumArraysOnHost"),
    ("sumMatrixOnGPU2D", ["32", "32", str(1 << 14), str(1 << 14)], r"^sumMatrixOnHost"),
    ("sumMatrixOnGPU1D", ["32", str(1 << 14), str(1 << 14)], r"^sumMatrixOnHost"),
    ("matMult", ["1024"], r"^matMultOnHost"),
    ("reduceTwoPhase", [str(1 << 24), "256", "256"], r"^host reduce"),
    ("simpleDivergence", ["64", "64"], None),
    ("incr", [str(1 << 24), "512"], None),
]

# programs whose kernel times are CUDA events (the timing model's device time, not host time)
EVENT_TIMED = {"matMult", "incr"}

TIME_RE = re.compile(r"elapsed ([0-9.]+) sec|\(([0-9.]+) ms\)")


def run(cmd, env):
    """Run once: (stdout, stderr, wall s, CPU s of the child)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.monotonic()
    p = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True, timeout=900)
    wall = time.monotonic() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if p.returncode != 0:
        sys.stderr.write(f"{' '.join(cmd)} failed ({p.returncode}):\n{p.stdout[-2000:]}"
                         f"{p.stderr[-2000:]}\n")
    return p.stdout, p.stderr, wall, cpu


def timed_lines(out):
    """(label, ms) of every line printing a time, in order."""
    rows = []
    for line in out.splitlines():
        m = TIME_RE.search(line)
        if not m:
            continue
        ms = float(m.group(1)) * 1e3 if m.group(1) else float(m.group(2))
        label = line[:m.start()].strip()
        label = re.sub(r"\s+", " ", label)
        rows.append((label, ms, line))
    return rows


def report(err):
    """From VCUDA_REPORT: {kernel: (host ms, launches, warp insns)}, tiers, program notes."""
    kernels, tiers, notes = {}, {}, []
    for line in err.splitlines():
        m = re.match(r"vcuda:\s+[0-9.]+%\s+([0-9.]+)\s+(\d+)\s+\S+\s+\S+\s+(\d+)\s+(.*)$", line)
        if m:
            name = re.sub(r"\(.*", "", m.group(4)).replace("void ", "").strip()
            kernels[name] = (float(m.group(1)), int(m.group(2)), int(m.group(3)))
            continue
        m = re.match(r"vcuda: tier: (.*?): (.*)$", line)
        if m:
            tiers[re.sub(r"\(.*", "", m.group(1)).replace("void ", "").strip()] = m.group(2)
            continue
        if line.startswith("vcuda: compiled code:"):
            notes.append(line[len("vcuda: "):])
    return kernels, tiers, notes


def main():
    args = sys.argv[1:]
    build = args.pop(0) if args and os.path.isdir(args[0]) else "build"
    wanted = set(args)
    vcuda = os.path.join(build, "bin", "vcuda")
    bindir = os.path.join(build, "book_sizes")
    os.makedirs(bindir, exist_ok=True)
    cache = os.path.abspath(os.path.join(bindir, "cache"))
    base = dict(os.environ, EXAMPLE_TIMING="1", VCUDA_REPORT="1", VCUDA_PROGRESS="0",
                VCUDA_CACHE_DIR=cache)
    load = os.getloadavg()
    print(f"book sizes: {os.uname().machine}, {os.cpu_count()} cores, load average "
          f"{load[0]:.2f} {load[1]:.2f} {load[2]:.2f}, VCUDA_THREADS="
          f"{os.environ.get('VCUDA_THREADS', 'default')}, "
          f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}")
    table, details = [], []
    for prog, pargs, ref_re in PROGRAMS:
        if wanted and prog not in wanted:
            continue
        exe = os.path.join(bindir, prog)
        src = os.path.join(ROOT, "examples", prog + ".cu")
        if not os.path.exists(exe) or os.path.getmtime(exe) < os.path.getmtime(src):
            subprocess.run([vcuda, "cc", "-O2", "-arch=sm_90", "-I", os.path.join(ROOT, "examples"),
                            "-o", exe, src], check=True)
        cmd = [exe] + pargs
        run(cmd, dict(base, VCUDA_JIT="always"))  # fills the cache
        res = {}
        for mode in ("always", "0"):
            res[mode] = run(cmd, dict(base, VCUDA_JIT=mode))
        rows = {mode: timed_lines(res[mode][0]) for mode in res}
        ref = None
        for mode in ("always", "0"):
            for label, ms, _ in rows[mode]:
                if ref_re and re.match(ref_re, label):
                    ref = ms if ref is None else min(ref, ms)
        kern = {m: report(res[m][1]) for m in res}
        gpu_rows = [(l, ms) for l, ms, _ in rows["always"] if not (ref_re and re.match(ref_re, l))]
        interp = {l: ms for l, ms, _ in rows["0"]}
        if prog in EVENT_TIMED:
            # the program prints cudaEventElapsedTime, the virtual GPU's modelled time:
            # its kernels' host time comes from the report instead
            gpu_rows = [(k + " (host ms, report)", v[0]) for k, v in kern["always"][0].items()]
            interp = {k + " (host ms, report)": v[0] for k, v in kern["0"][0].items()}
        for label, ms in gpu_rows:
            i_ms = interp.get(label)
            table.append((prog, label, ref, ms, i_ms))
        k_always, tiers, notes = kern["always"]
        k_interp = kern["0"][0]
        details.append((prog, " ".join(pargs), res["always"][2:], res["0"][2:], k_always,
                        k_interp, tiers, notes))

    def f(x):
        return "—" if x is None else (f"{x:.1f}" if x >= 10 else f"{x:.2f}")

    def r(a, b):
        return "—" if a is None or b is None or b <= 0 else f"{a / b:.2f}x"

    print()
    print("Times as the programs print them (wall, ms); ratio = kernel / host reference.")
    print()
    print("| program | kernel (as printed) | host reference ms | JIT=always ms | ratio | "
          "JIT=0 ms | ratio |")
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: |")
    for prog, label, ref, ms, i_ms in table:
        print(f"| {prog} | {label} | {f(ref)} | {f(ms)} | {r(ms, ref)} | {f(i_ms)} | "
              f"{r(i_ms, ref)} |")
    print()
    print("Per kernel from VCUDA_REPORT (host ms over all launches; warp-instructions; "
          "G warp-insn/s of host time), and the whole process's wall and CPU seconds:")
    print()
    print("| program | args | kernel | launches | warp insns | JIT=always ms | G/s | "
          "JIT=0 ms | G/s | tier (JIT=always) |")
    print("| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |")
    for prog, pargs, (aw, ac), (iw, ic), ka, ki, tiers, notes in details:
        for name, (ms, calls, insns) in sorted(ka.items(), key=lambda kv: -kv[1][0]):
            ims = ki.get(name, (None,))[0]
            g = lambda t: "—" if not t else f"{insns / (t * 1e-3) / 1e9:.2f}"
            print(f"| {prog} | {pargs} | {name} | {calls} | {insns:,} | {f(ms)} | {g(ms)} | "
                  f"{f(ims)} | {g(ims)} | {tiers.get(name, '?')} |")
        print(f"| {prog} | {pargs} | (process) | | | wall {aw:.2f} s, CPU {ac:.2f} s | | "
              f"wall {iw:.2f} s, CPU {ic:.2f} s | | |")
    print()
    for prog, *_, notes in details:
        for n in notes:
            print(f"{prog}: {n}")


if __name__ == "__main__":
    main()
