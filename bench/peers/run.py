#!/usr/bin/env python3
"""bench/peers/run.py — vcuda against its peers on the seed kernels, in one run.

The seed kernels (every reduction of examples/reduceInteger.cu, those of reduceTwoPhase.cu,
sumMatrixOnGPU2D, matMult naive and tiled) run, at fixed sizes, under
  - vcuda: peers_cuda.cu built with `vcuda cc`, for each VCUDA_JIT mode (0: interpreter,
    1: the compiled tier) on 1 and 2 host threads (VCUDA_THREADS);
  - PoCL: the same kernels in OpenCL C (kernels.cl, host peers_ocl.c) on 1 and 2 threads
    (POCL_MAX_PTHREAD_COUNT for PoCL 3.x's pthread device, POCL_CPU_MAX_CU_NUM for later
    ones; the compute units the device reports are checked against the request);
  - plain C: the straightforward CPU loop per kernel (peers_c.c, gcc -O2, one core).
Each runner is one process per round that warms each kernel up, then times one run with
the host clock (launch to synchronisation) and checks it against the exact answer. Rounds
interleave the runners (their order rotating), so a change in the machine's load hits all
of them alike; the table gives each kernel's median over the rounds and the ratios of
vcuda's medians to PoCL's (same thread count) and to plain C's. A wrong result is shown as
WRONG, never dropped: PoCL's on the warp-synchronous reductions, for one. The table also
gives each kernel's warp-instructions (the interpreter's count) and the rate each mode ran
them at on one host thread, in CPU time; a second table gives the one-thread runs in CPU
time, which other work on the machine does not inflate as it does wall time, and a third
how two threads scale against one, in wall time and on cores of their own (wall time less
the time the threads waited for a core while other work ran, from Linux's per-thread
scheduler statistics), which tells a runner that does not scale from a machine too busy to
let it.

The compiled tier may be tiered (VCUDA_JIT=1: a kernel's first launches interpreted while
it compiles): the warm-up run must then have given it time to switch, or the timed run is
the interpreter's. `--warmup N` gives it more runs; `--modes 0,1,always` adds a column of
kernels compiled before their first launch.

PoCL is installed with apt-get (as root or through sudo) if it is missing, unless
--no-install; without it the PoCL columns are skipped with a message. vcuda or plain C
giving a wrong result (or failing) makes the exit status 1.

Usage: bench/peers/run.py [--quick] [--rounds N] [--build-dir build] [--no-install]
       [--modes 0,1] [--threads 1,2] [--markdown FILE]
"""
import argparse
import json
import math
import os
import platform
import shutil
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

# Rows in order: (kernel, warp-synchronous: relies on a warp's lanes running together).
KERNELS = [
    ("reduceNeighbored", False),
    ("reduceNeighboredLess", False),
    ("reduceInterleaved", False),
    ("reduceUnrolling2", False),
    ("reduceUnrolling4", False),
    ("reduceUnrolling8", False),
    ("reduceUnrolling8Loop", False),
    ("reduceUnrolling16", False),
    ("reduceUnrollWarps8", True),
    ("reduceCompleteUnrollWarps8", True),
    ("reduceCompleteUnrollWarps8Sync", False),
    ("reduceCompleteUnroll<512>", True),
    ("reduceGridStride", False),
    ("reduceGridStrideWarp", True),
    ("reduceGridStrideT<512>", True),
    ("reduceGridStrideShfl", False),
    ("reduceOnePhaseAtomic", False),
    ("sumMatrixOnGPU2D", False),
    ("matMultNaive", False),
    ("matMultTiled", False),
]

# (ints reduced, matrix-sum side, matrix-product side)
FULL_SIZES = (1 << 22, 2048, 512)
QUICK_SIZES = (16384, 128, 64)

POCL_PACKAGES = ["pocl-opencl-icd", "ocl-icd-opencl-dev", "opencl-headers"]


def say(msg):
    print("peers: " + msg, flush=True)


# ---------------------------------------------------------------- PoCL


def pocl_present():
    """The OpenCL headers, the ICD loader to link with, and PoCL registered as an ICD."""
    vendors = "/etc/OpenCL/vendors"
    icd = os.path.isdir(vendors) and any("pocl" in f for f in os.listdir(vendors))
    header = os.path.exists("/usr/include/CL/cl.h")
    loader = any(os.path.exists(os.path.join(d, "libOpenCL.so"))
                 for d in ("/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu",
                           "/usr/lib64", "/usr/lib", "/usr/local/lib"))
    return icd and header and loader


def install_pocl(log_path):
    """apt-get install the PoCL packages, as root or through sudo. True on success."""
    if os.geteuid() == 0:
        prefix = []
    elif shutil.which("sudo") and subprocess.run(
            ["sudo", "-n", "true"], stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL).returncode == 0:
        prefix = ["sudo", "-n"]
    else:
        say("PoCL is missing and there is neither root nor sudo to install it: "
            "PoCL columns skipped")
        return False
    if not shutil.which("apt-get"):
        say("PoCL is missing and this machine has no apt-get: PoCL columns skipped")
        return False
    say("installing PoCL (%s) with apt-get%s" % (" ".join(POCL_PACKAGES),
                                                 " through sudo" if prefix else ""))
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    install = prefix + ["apt-get", "install", "-y", "-q", "--no-install-recommends"] + POCL_PACKAGES
    with open(log_path, "w") as log:
        ok = subprocess.run(install, stdout=log, stderr=log, env=env).returncode == 0
        if not ok:  # a fresh machine may have no package lists yet
            subprocess.run(prefix + ["apt-get", "update", "-q"], stdout=log, stderr=log, env=env)
            ok = subprocess.run(install, stdout=log, stderr=log, env=env).returncode == 0
    if not ok or not pocl_present():
        say("installing PoCL failed (see %s): PoCL columns skipped" % log_path)
        return False
    return True


# ---------------------------------------------------------------- building


def newer(target, sources):
    """Whether target exists and is newer than every source."""
    if not os.path.exists(target):
        return False
    t = os.path.getmtime(target)
    return all(os.path.getmtime(s) <= t for s in sources)


def build(cmd, target, sources, what):
    if newer(target, sources):
        return True
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if r.returncode != 0:
        say("building %s failed:\n%s" % (what, r.stdout))
        return False
    if r.stdout.strip():
        print(r.stdout, end="")
    return True


def c_compiler():
    return shutil.which("gcc") or shutil.which("cc") or "cc"


# ---------------------------------------------------------------- running


class Runner:
    """One column: a program and its environment."""

    def __init__(self, key, label, argv, env, threads=None, runs_per_kernel=None):
        self.key, self.label, self.argv, self.env, self.threads = key, label, argv, env, threads
        # vcuda runners whose VCUDA_REPORT is read: each kernel runs this many times per
        # process (warm-up and timed), and insns gets the warp-instructions of one run.
        self.runs_per_kernel = runs_per_kernel
        self.insns = {}
        self.times = {}      # kernel -> [wall ms per round]
        self.cpu = {}        # kernel -> [CPU ms per round] (the process's, all threads)
        self.free = {}       # kernel -> [ms per round on cores of its own: wall less the
                             # threads' wait for a core, spread over the threads]
        self.status = {}     # kernel -> "ok" | "WRONG" | "n/a" (WRONG sticks)
        self.detail = {}     # kernel -> the first wrong result's detail
        self.failure = None  # why the program failed, if it did
        self.device = None   # PoCL: (name, compute units)

    def run_round(self, timeout):
        try:
            r = subprocess.run(self.argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True, env=self.env, timeout=timeout)
        except subprocess.TimeoutExpired:
            self.failure = "timed out after %d s" % timeout
            return
        if r.returncode != 0:
            tail = (r.stdout + r.stderr).strip().splitlines()[-5:]
            self.failure = "exit status %d: %s" % (r.returncode, " | ".join(tail))
            return
        seen = set()
        for line in r.stdout.splitlines():
            if line.startswith("#device "):
                name, units = line[len("#device "):].rsplit("\t", 1)
                self.device = (name, int(units))
                continue
            fields = line.split("\t")
            if len(fields) == 5:  # (a runner built before the wait column)
                fields.insert(3, "0")
            if len(fields) != 6:
                continue
            kernel, wall, cpu, wait, status, detail = fields
            seen.add(kernel)
            if status != "n/a":
                self.times.setdefault(kernel, []).append(float(wall))
                self.cpu.setdefault(kernel, []).append(float(cpu))
                free = float(wall) - float(wait) / (self.threads or 1)
                self.free.setdefault(kernel, []).append(max(free, float(cpu) / (self.threads or 1)))
            if status == "WRONG" and self.status.get(kernel) != "WRONG":
                self.detail[kernel] = detail
            if self.status.get(kernel) != "WRONG":
                self.status[kernel] = status
        if self.runs_per_kernel:
            self.read_report(r.stderr)
        missing = [k for k, _ in KERNELS if k not in seen]
        if missing:
            self.failure = "no result for " + ", ".join(missing)

    def read_report(self, text):
        """Warp-instructions per kernel from VCUDA_REPORT's table (runtime/report.c):
        'vcuda: <time%> <host ms> <calls> <grid> <block> <warp insns> <kernel(args)>'."""
        for line in text.splitlines():
            f = line.split()
            if len(f) < 8 or f[0] != "vcuda:" or not f[1].endswith("%") or not f[6].isdigit():
                continue
            name = " ".join(f[7:])
            name = name[5:] if name.startswith("void ") else name
            name = name.split("(", 1)[0].split("::")[-1].replace("u>", ">")
            self.insns[name] = int(f[6]) // self.runs_per_kernel

    def median(self, kernel, cpu=False, free=False):
        t = (self.free if free else self.cpu if cpu else self.times).get(kernel)
        return statistics.median(t) if t else None


def fmt_ms(ms):
    if ms is None:
        return "—"
    if ms >= 100:
        return "%.0f" % ms
    if ms >= 10:
        return "%.1f" % ms
    if ms >= 1:
        return "%.2f" % ms
    return "%.3f" % ms


def fmt_ratio(r):
    if r is None:
        return "—"
    return ("%.0fx" if r >= 100 else "%.1fx" if r >= 10 else "%.2fx") % r


def cell(runner, kernel, cpu=False):
    """A column's text for a kernel: median ms, and WRONG / n/a / FAIL as it happened."""
    if runner.failure and kernel not in runner.times:
        return "FAIL"
    status = runner.status.get(kernel)
    if status == "n/a":
        return "n/a"
    text = fmt_ms(runner.median(kernel, cpu))
    return text + " **WRONG**" if status == "WRONG" else text


def ratio(a, b):
    return a / b if a is not None and b not in (None, 0) else None


def geomean(values):
    values = [v for v in values if v is not None and v > 0]
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else None


def table(kernels, plain, pocl, vcuda, insns, cpu=False):
    """The markdown table: plain C, PoCL per thread count, vcuda per mode and thread count
    (median ms, then in parentheses ÷ PoCL on as many threads and ÷ plain C); then each
    kernel's warp-instructions and, per vcuda runner on one thread, the rate they ran at.
    cpu: the times are the processes' CPU times instead of wall times."""
    cols = [plain] + pocl + vcuda
    one_thread = [r for r in vcuda if r.threads == 1]
    head = ["kernel"] + [r.label for r in cols]
    if insns:
        head += ["warp insns"] + ["G/s " + r.label.replace("vcuda ", "") for r in one_thread]
    rows = [head, ["---"] + ["---:"] * (len(head) - 1)]
    pocl_by_threads = {r.threads: r for r in pocl}
    ratios = {r.key: ([], []) for r in vcuda}
    for kernel, warp_sync in kernels:
        row = [kernel + (" (warp-sync)" if warp_sync else "")]
        row += [cell(r, kernel, cpu) for r in [plain] + pocl]
        for r in vcuda:
            text = cell(r, kernel, cpu)
            ms = r.median(kernel, cpu) if r.status.get(kernel) == "ok" else None
            p = pocl_by_threads.get(r.threads)
            vs_pocl = (ratio(ms, p.median(kernel, cpu))
                       if p and p.status.get(kernel) in ("ok", "WRONG") else None)
            vs_c = ratio(ms, plain.median(kernel, cpu)) if plain.status.get(kernel) == "ok" else None
            if ms is not None and (vs_pocl is not None or vs_c is not None):
                text += " (%s / %s)" % (fmt_ratio(vs_pocl), fmt_ratio(vs_c))
            ratios[r.key][0].append(vs_pocl)
            ratios[r.key][1].append(vs_c)
            row.append(text)
        if insns:
            n = insns.get(kernel)
            row.append("{:,}".format(n) if n else "—")
            for r in one_thread:
                ms = r.median(kernel, cpu=True) if r.status.get(kernel) == "ok" else None
                row.append("%.3f" % (n / ms / 1e6) if n and ms else "—")
        rows.append(row)
    gm = ["geometric mean of ratios"] + [""] * (1 + len(pocl))
    for r in vcuda:
        gp, gc = geomean(ratios[r.key][0]), geomean(ratios[r.key][1])
        gm.append("(%s / %s)" % (fmt_ratio(gp), fmt_ratio(gc)) if gp or gc else "")
    gm += [""] * (len(head) - len(gm))
    rows.append(gm)
    return "\n".join("| " + " | ".join(row) + " |" for row in rows)


def scaling_table(kernels, runners):
    """Two threads against one, per runner kind (PoCL, each vcuda mode): the wall-time
    ratio 1t / 2t, and the same on cores of their own (wall less the time the threads waited
    for a core while other work ran, spread over the threads; never less than CPU time over
    threads), which the machine's other load does not move as much."""
    pairs = []
    by = {}
    for r in runners:
        by.setdefault(r.label.rsplit(" ", 1)[0], {})[r.threads] = r
    for name, rs in by.items():
        if 1 in rs and 2 in rs:
            pairs.append((name, rs[1], rs[2]))
    head = ["kernel"] + ["%s %s" % (n, w) for n, _, _ in pairs for w in ("wall", "own cores")]
    rows = [head, ["---"] + ["---:"] * (len(head) - 1)]
    for kernel, _ in kernels:
        row = [kernel]
        for _, one, two in pairs:
            for free in (False, True):
                a, b = one.median(kernel, free=free), two.median(kernel, free=free)
                ok = one.status.get(kernel) not in (None, "n/a") and \
                    two.status.get(kernel) not in (None, "n/a")
                row.append(fmt_ratio(ratio(a, b)) if ok else "—")
        rows.append(row)
    return "\n".join("| " + " | ".join(row) + " |" for row in rows)


def machine():
    model = ""
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return "%s, %d cores, %s" % (model or platform.processor() or "unknown CPU",
                                os.cpu_count() or 0, platform.machine())


def load():
    try:
        return "%.2f %.2f %.2f" % os.getloadavg()
    except OSError:
        return "?"


def pocl_version():
    try:
        return subprocess.run(["dpkg-query", "-W", "-f", "${Version}", "pocl-opencl-icd"],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                              text=True).stdout.strip() or "?"
    except OSError:
        return "?"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true",
                    help="tiny sizes, one round: a smoke test of every runner (seconds)")
    ap.add_argument("--rounds", type=int, help="rounds (default 5; 1 with --quick)")
    ap.add_argument("--warmup", type=int, default=1, help="untimed runs per kernel (default 1)")
    ap.add_argument("--build-dir", default=os.path.join(ROOT, "build"),
                    help="vcuda's build tree (default: build/); outputs go to <it>/bench/peers")
    ap.add_argument("--no-install", action="store_true",
                    help="do not install PoCL if it is missing (its columns are skipped)")
    ap.add_argument("--no-pocl", action="store_true", help="skip the PoCL columns")
    ap.add_argument("--modes", default="0,1", help="VCUDA_JIT modes (default 0,1)")
    ap.add_argument("--threads", default="1,2", help="thread counts (default 1,2)")
    ap.add_argument("--vcuda-env", action="append", default=[], metavar="NAME=VALUE",
                    help="extra environment for the vcuda runs only (e.g. a sanitizer's "
                         "LD_PRELOAD)")
    ap.add_argument("--timeout", type=int, help="seconds a runner may take per round")
    ap.add_argument("--markdown", help="also write the report (markdown) to this file")
    args = ap.parse_args()

    sizes = QUICK_SIZES if args.quick else FULL_SIZES
    rounds = args.rounds or (1 if args.quick else 5)
    timeout = args.timeout or (120 if args.quick else 1200)
    modes = [m for m in args.modes.split(",") if m]
    threads = [int(t) for t in args.threads.split(",") if t]
    build_dir = os.path.abspath(args.build_dir)
    out = os.path.join(build_dir, "bench", "peers")
    os.makedirs(out, exist_ok=True)

    # ---- PoCL
    use_pocl, no_pocl_why = not args.no_pocl, "--no-pocl"
    if use_pocl and not pocl_present():
        no_pocl_why = "PoCL is not installed"
        if args.no_install:
            say("PoCL is not installed (--no-install): PoCL columns skipped")
            use_pocl = False
        else:
            use_pocl = install_pocl(os.path.join(out, "pocl-install.log"))

    # ---- build
    vcuda = os.path.join(build_dir, "bin", "vcuda")
    if not os.path.exists(vcuda):
        say("no %s: building vcuda (make build)" % vcuda)
        if subprocess.run(["make", "-C", ROOT, "build", "BUILD=" + build_dir]).returncode != 0:
            return 2
    cc = c_compiler()
    common = os.path.join(HERE, "peers_common.h")
    examples = [os.path.join(ROOT, "examples", e) for e in
                ("common.h", "reduceInteger.cu", "reduceTwoPhase.cu", "sumMatrixOnGPU2D.cu",
                 "matMult.cu")]
    exe_cuda = os.path.join(out, "peers_cuda")
    exe_c = os.path.join(out, "peers_c")
    exe_ocl = os.path.join(out, "peers_ocl")
    src_cuda = os.path.join(HERE, "peers_cuda.cu")
    if not build([vcuda, "cc", "-O2", "-arch=sm_90", "-o", exe_cuda, src_cuda], exe_cuda,
                 [src_cuda, common, vcuda] + examples, "the vcuda runner"):
        return 2
    src_c = os.path.join(HERE, "peers_c.c")
    if not build([cc, "-std=c11", "-O2", "-Wall", "-Wextra", "-o", exe_c, src_c], exe_c,
                 [src_c, common], "the plain C runner"):
        return 2
    src_ocl = os.path.join(HERE, "peers_ocl.c")
    if use_pocl and not build([cc, "-std=c11", "-O2", "-Wall", "-Wextra", "-o", exe_ocl, src_ocl,
                               "-lOpenCL"], exe_ocl, [src_ocl, common], "the PoCL runner"):
        say("PoCL columns skipped")
        use_pocl, no_pocl_why = False, "its runner does not build"

    # ---- the runners
    size_args = [str(s) for s in sizes] + [str(args.warmup)]
    base = dict(os.environ)
    for k in ("VCUDA_JIT", "VCUDA_THREADS", "VCUDA_REPORT", "POCL_MAX_PTHREAD_COUNT",
              "POCL_CPU_MAX_CU_NUM"):
        base.pop(k, None)
    plain = Runner("c", "C -O2 1t", [exe_c] + size_args, base, 1)
    pocl = []
    if use_pocl:
        for t in threads:
            env = dict(base, POCL_MAX_PTHREAD_COUNT=str(t), POCL_CPU_MAX_CU_NUM=str(t))
            pocl.append(Runner("pocl%d" % t, "PoCL %dt" % t,
                               [exe_ocl, os.path.join(HERE, "kernels.cl")] + size_args, env, t))
    vcuda_env = dict(base)
    for kv in args.vcuda_env:
        k, _, v = kv.partition("=")
        vcuda_env[k] = v
    vruns = []
    for m in modes:
        for t in threads:
            env = dict(vcuda_env, VCUDA_JIT=m, VCUDA_THREADS=str(t))
            # The interpreter counts warp-instructions whether or not they are reported;
            # its runs report them (the compiled tier's are not asked, lest it count only
            # when asked and the timing pay for it).
            counted = None
            if m == "0":
                env["VCUDA_REPORT"] = "1"
                counted = args.warmup + 1
            vruns.append(Runner("vcuda%s_%d" % (m, t), "vcuda JIT=%s %dt" % (m, t),
                                [exe_cuda] + size_args, env, t, counted))
    runners = [plain] + pocl + vruns

    started = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    load_before = load()
    say("%d round(s) of %d runners; reductions over %d ints (512-thread blocks), %dx%d matrix "
        "sum, %dx%d products%s" % (rounds, len(runners), sizes[0], sizes[1], sizes[1],
                                   sizes[2], sizes[2], " (quick)" if args.quick else ""))
    for rnd in range(rounds):
        order = runners[rnd % len(runners):] + runners[:rnd % len(runners)]
        t0 = time.time()
        for r in order:
            if not r.failure:
                r.run_round(timeout)
        say("round %d/%d done in %.0f s (load %s)" % (rnd + 1, rounds, time.time() - t0, load()))
    load_after = load()

    # ---- report
    lines = []
    lines.append("Machine: %s; load average %s before, %s after; %s." %
                 (machine(), load_before, load_after, started))
    lines.append("Sizes: reductions over %d ints, 512-thread blocks (reduceTwoPhase: %d blocks "
                 "then 1); sumMatrixOnGPU2D %dx%d, 32x32 blocks; matMult %dx%d, 16x16 tiles. "
                 "Median of %d round(s), %d warm-up run(s) per kernel per round." %
                 (sizes[0], 256, sizes[1], sizes[1], sizes[2], sizes[2], rounds, args.warmup))
    if use_pocl:
        devs = ", ".join("%s: %s, %d compute units" % (r.label, r.device[0], r.device[1])
                         for r in pocl if r.device)
        lines.append("PoCL %s (%s)." % (pocl_version(), devs))
        for r in pocl:
            if r.device and r.device[1] != r.threads:
                lines.append("WARNING: %s asked for %d threads but the device reports %d compute "
                             "units." % (r.label, r.threads, r.device[1]))
    else:
        lines.append("PoCL: not run (%s)." % no_pocl_why)
    lines.append("")
    lines.append("Times in ms (host clock, launch to synchronisation). vcuda cells: median "
                 "(÷ PoCL on as many threads / ÷ plain C); WRONG: the result differs from the "
                 "exact answer; warp-sync: the kernel relies on a warp's 32 lanes running "
                 "together.")
    lines.append("")
    insns = {}
    for r in vruns:
        for k, n in r.insns.items():
            insns.setdefault(k, n)
    if insns:
        lines.append("warp insns: the kernel's warp-instructions per run (the interpreter's "
                     "count, VCUDA_REPORT); G/s: billions of them per second on one host "
                     "thread, in CPU time (the median of the process's CPU time over the "
                     "kernel, so the machine's other load does not count).")
        lines.append("")
    lines.append(table(KERNELS, plain, pocl, vruns, insns))
    # On a machine shared with other work, wall times of one thread mostly measure the
    # load; the CPU time a one-thread run took does not. (With two threads, only wall time
    # shows whether they ran side by side.)
    lines.append("")
    lines.append("The one-thread runs in CPU time (the process's, median ms; vcuda cells: "
                 "÷ PoCL 1t / ÷ plain C):")
    lines.append("")
    lines.append(table(KERNELS, plain, [r for r in pocl if r.threads == 1],
                       [r for r in vruns if r.threads == 1], {}, cpu=True))
    lines.append("")
    lines.append("Two host threads against one (1t ÷ 2t: 2.00x is perfect scaling), in wall "
                 "time and on cores of their own (wall less the threads' time waiting for a "
                 "core while the machine's other work ran, /proc/self/task/*/schedstat, "
                 "spread over the threads):")
    lines.append("")
    lines.append(scaling_table(KERNELS, pocl + vruns))
    failures = ["%s: %s" % (r.label, r.failure) for r in runners if r.failure]
    wrong = ["%s: %s (%s)" % (r.label, k, r.detail.get(k, "")) for r in runners
             for k, _ in KERNELS if r.status.get(k) == "WRONG"]
    if failures or wrong:
        lines.append("")
        lines.extend("- " + x for x in failures + wrong)
    report = "\n".join(lines)
    print()
    print(report)
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write(report + "\n")
    with open(os.path.join(out, "results.json"), "w") as f:
        json.dump({"sizes": sizes, "rounds": rounds, "started": started,
                   "warp_insns": insns,
                   "runners": {r.label: {"times": r.times, "cpu": r.cpu, "free": r.free,
                                         "status": r.status,
                                         "failure": r.failure} for r in runners}}, f, indent=1)

    # vcuda and plain C must be right; PoCL's wrong sums, and PoCL failing, are its own
    # (reported above, they do not fail a smoke test of vcuda).
    bad = [r for r in [plain] + vruns
           if r.failure or any(s == "WRONG" for s in r.status.values())]
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
