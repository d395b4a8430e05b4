#!/usr/bin/env python3
"""bench/prof_overhead.py — what `vcuda prof` costs over a plain run.

For every example test (tests/cuda/examples.list): the program run plainly, under the
profiler's default summary, and under `--metrics all`, each on one host core
(VCUDA_THREADS=1), in N rounds of the three runs one after the other. Times are CPU time
(user + sys, from the kernel's accounting of the child, microsecond resolution): the
least of the rounds is shown; each ratio is the median over the rounds of the profiled
run's time over the plain run's of the same round, so that a slow spell of a shared
machine, which touches the runs of a round alike, moves it little. Also whether the
program's stdout is the same plainly and under the profiler.

Usage: bench/prof_overhead.py [build-dir] [rounds]   (examples built: --target cuda_examples)
With VCUDA_JIT=always in the environment the plain runs are compiled runs (a warm-up run
of each program first fills the cache, so no round waits for the compiler); the profiled
runs then run the instrumented compiled code (runtime/profile.c; VCUDA_PROF_JIT=0: the
interpreter), whose units are cached by the first round.
"""
import os
import resource
import statistics
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def cpu_seconds(cmd, env):
    """User + sys CPU seconds of one run of cmd, and its stdout."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    out = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL).stdout
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), out


def main():
    build = sys.argv[1] if len(sys.argv) > 1 else "build"
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    vcuda = os.path.join(build, "bin", "vcuda")
    env = dict(os.environ, VCUDA_THREADS="1")
    log = os.path.join(build, "prof_overhead.log")
    print(f"VCUDA_JIT={os.environ.get('VCUDA_JIT', 'unset')} for the plain runs")
    print(f"{'test':22s} {'plain ms':>9s} {'prof ms':>9s} {'ratio':>6s} {'all ms':>9s} "
          f"{'ratio':>6s}  stdout")
    ratios = []
    with open(os.path.join(ROOT, "tests", "cuda", "examples.list")) as f:
        tests = [line.split() for line in f if line.strip() and not line.startswith("#")]
    for name, example, *args in tests:
        prog = os.path.join(build, "examples", example)
        if not os.access(prog, os.X_OK):
            continue
        plain_cmd = [prog] + args
        prof_cmd = [vcuda, "prof", "--log-file", log] + plain_cmd
        all_cmd = [vcuda, "prof", "--metrics", "all", "--log-file", log] + plain_cmd
        subprocess.run(plain_cmd, env=env, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)  # warm-up: the compiled tier's cache
        times = []
        same = True
        for _ in range(rounds):
            round_times = []
            for i, cmd in enumerate((plain_cmd, prof_cmd, all_cmd)):
                t, out = cpu_seconds(cmd, env)
                round_times.append(max(t, 1e-6))
                if i == 0:
                    plain_out = out
                elif out != plain_out:
                    same = False
            times.append(round_times)
        p, q, a = (min(r[i] for r in times) * 1000 for i in range(3))
        rq = statistics.median(r[1] / r[0] for r in times)
        ra = statistics.median(r[2] / r[0] for r in times)
        print(f"{name:22s} {p:9.1f} {q:9.1f} {rq:5.2f}x {a:9.1f} {ra:5.2f}x  "
              f"{'same' if same else 'DIFFERS'}")
        ratios.append((p, rq, ra))
    if os.path.exists(log):
        os.remove(log)
    for floor in (0, 20):
        r = [max(x[1], x[2]) for x in ratios if x[0] >= floor]
        if r:
            r.sort()
            print(f"plain runs of {floor} ms or more: {len(r)}, ratio median {r[len(r) // 2]:.2f}x,"
                  f" highest {r[-1]:.2f}x")


if __name__ == "__main__":
    main()
