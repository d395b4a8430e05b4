#!/usr/bin/env python3
"""bench/prof_peers.py — what `vcuda prof` costs over a plain compiled run, per kernel of
the peers benchmark (bench/peers: every reduction of reduceInteger, reduceTwoPhase,
sumMatrixOnGPU2D, matMult naive and tiled), for one or more build trees in one run.

Each tree's `vcuda cc` builds bench/peers/peers_cuda.cu; then, round by round, for each
tree in turn: a plain run and a `vcuda prof` run of it (VCUDA_JIT=always, one host core:
VCUDA_THREADS=1, a warm cache: a run of each kind fills it first). peers_cuda warms each
kernel up and then times one run of it, printing its host CPU time (launch to
synchronisation): the ratio of a kernel is the median over the rounds of its profiled
time over the same round's plain one, so trees measured in the same rounds (a baseline
build of main beside the tree changed: A/B, interleaved) see the machine's load alike.

Usage: bench/prof_peers.py [--rounds N] [--sizes R S M] BUILD [BUILD...]
A BUILD may carry environment settings of its own after commas (BUILD,VAR=VALUE,...): the
same tree twice, with a setting and without, is an A/B in one tree (VCUDA_PROF_VECTOR=0:
profiled blocks run the per-warp instrumented code, not the vector tier's).
"""
import argparse
import os
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def run_peers(cmd, env):
    """Per kernel: CPU milliseconds of its timed run; and whether every result was right."""
    out = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                         text=True)
    times, ok = {}, out.returncode == 0
    for line in out.stdout.splitlines():
        f = line.split("\t")
        if len(f) >= 5:  # kernel, wall ms, CPU ms, wait ms, ok|WRONG|n/a (peers_common.h)
            times[f[0]] = float(f[2])
            ok = ok and f[4] == "ok"
    return times, ok


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("builds", nargs="+")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--sizes", nargs=3, type=int, default=[1 << 22, 2048, 512])
    args = ap.parse_args()
    env = dict(os.environ, VCUDA_THREADS="1", VCUDA_JIT="always")
    env.pop("VCUDA_PROF_JIT", None)
    size_args = [str(s) for s in args.sizes] + ["1"]
    cmds = []
    envs = {}
    for spec in args.builds:
        b, *settings = spec.split(",")
        # each tree's own library first (a copy of a build tree keeps its first path)
        envs[spec] = dict(env, LD_LIBRARY_PATH=os.path.join(os.path.abspath(b), "lib"),
                          **dict(x.split("=", 1) for x in settings))
        vcuda = os.path.join(b, "bin", "vcuda")
        exe = os.path.join(b, "prof_peers_cuda")
        subprocess.run([vcuda, "cc", "-O2", "-arch=sm_90", "-o", exe,
                        os.path.join(HERE, "peers", "peers_cuda.cu")], env=envs[spec],
                       check=True)
        log = os.path.join(b, "prof_peers.log")
        plain = [exe] + size_args
        prof = [vcuda, "prof", "--log-file", log] + plain
        for c in (plain, prof):  # warm-up: each kind's compiled code into the cache
            subprocess.run(c, env=envs[spec], stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL)
        cmds.append((spec, plain, prof))
    ratios = {b: {} for b in args.builds}
    least = {b: {} for b in args.builds}
    wrong = set()
    for _ in range(args.rounds):
        for b, plain, prof in cmds:
            tp, okp = run_peers(plain, envs[b])
            tq, okq = run_peers(prof, envs[b])
            if not (okp and okq):
                wrong.add(b)
            for k in tp:
                if k in tq and tp[k] > 0:
                    ratios[b].setdefault(k, []).append(tq[k] / tp[k])
                    lp, lq = least[b].get(k, (tp[k], tq[k]))
                    least[b][k] = (min(lp, tp[k]), min(lq, tq[k]))
    kernels = list(ratios[args.builds[0]])
    head = f"{'kernel':32s}" + "".join(
        f" {'plain ms':>9s} {'prof ms':>9s} {'ratio':>6s}" for _ in args.builds)
    print("builds: " + ", ".join(f"{i + 1}: {b}" for i, b in enumerate(args.builds)))
    print(head)
    for k in kernels:
        row = f"{k:32s}"
        for b in args.builds:
            if k in ratios[b]:
                lp, lq = least[b][k]
                row += f" {lp:9.1f} {lq:9.1f} {statistics.median(ratios[b][k]):5.2f}x"
            else:
                row += f" {'-':>9s} {'-':>9s} {'-':>6s}"
        print(row)
    for b in args.builds:
        r = sorted(statistics.median(v) for v in ratios[b].values())
        if r:
            print(f"{b}: ratio median {r[len(r) // 2]:.2f}x, highest {r[-1]:.2f}x"
                  f"{'' if b not in wrong else ', SOME RESULT WRONG'}")
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
