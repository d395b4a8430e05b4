#!/usr/bin/env python3
"""tests/terminal/progress_check.py PROGRAM — the progress line of long grids.

PROGRAM (progress.cu) keeps one grid on the device for a second (its block 0 waits for the
host), then a graph of 6 such grids for 1.2 s. With stderr on a terminal (a pseudo-terminal here) and VCUDA_PROGRESS_DELAY=0.2, the
terminal must show the progress line (the kernel's name and blocks done of 48, or the
graph's nodes done of 6; the time elapsed) and the line must be erased when the work ends:
what follows the last line is the erase sequence, and the program's own output comes
after it on a clean line. With stderr a pipe, or VCUDA_PROGRESS=0, no progress text may
appear.
"""
import os
import pty
import re
import select
import subprocess
import sys
import time

def run_on_pty(program, env, *args):
    """Run with stdout and stderr on one pseudo-terminal; return what it showed and the status."""
    master, slave = pty.openpty()
    p = subprocess.Popen([program, *args], stdin=subprocess.DEVNULL, stdout=slave, stderr=slave,
                         env=env, close_fds=True)
    os.close(slave)
    out = b""
    deadline = time.time() + 240
    while time.time() < deadline:
        r, _, _ = select.select([master], [], [], 0.5)
        if r:
            try:
                chunk = os.read(master, 65536)
            except OSError:
                break
            if not chunk:
                break
            out += chunk
        elif p.poll() is not None:
            break
    p.wait(timeout=60)
    os.close(master)
    return out.decode("utf-8", "replace"), p.returncode


def fail(msg, text=""):
    print("FAIL:", msg)
    if text:
        print(repr(text[-2000:]))
    sys.exit(1)


def check_lines(text, what):
    """The progress lines matching what (its group: the count done), in order, shown after
    the delay, the last one erased before the program's result."""
    lines = re.findall(r"\rvcuda: " + what + r", ([0-9.]+) s, ", text)
    if not lines:
        fail("no progress line on the terminal", text)
    done = [int(d) for d, _ in lines]
    if done != sorted(done) or any(float(s) < 0.2 for _, s in lines):
        fail("progress lines out of order or shown too early: %s" % lines, text)
    last = text.rfind("\rvcuda: ")
    erase = text.find("\r\x1b[K", last + 1)
    result = text.find("progress: 0 of", last)
    if erase < 0 or result < erase:
        fail("the progress line was not erased before the program's output", text)
    return done


def main():
    program = sys.argv[1]
    base = dict(os.environ, VCUDA_PROGRESS_DELAY="0.2")
    base.pop("VCUDA_PROGRESS", None)

    text, rc = run_on_pty(program, base)
    if rc != 0 or "progress: 0 of 3072 results wrong" not in text:
        fail("the program failed on the terminal (status %s)" % rc, text)
    lines = check_lines(text, r"wait_then_iterate\(int volatile\*, int, float\*, int\): (\d+)/48 blocks")

    gtext, rc = run_on_pty(program, base, "graph")
    if rc != 0 or "progress: 0 of 3072 results wrong" not in gtext:
        fail("the graph failed on the terminal (status %s)" % rc, gtext)
    glines = check_lines(gtext, r"graph: (\d+)/6 nodes")

    env = dict(base)
    r = subprocess.run([program], stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
                       timeout=240)
    if r.returncode != 0 or r.stderr:
        fail("stderr not a terminal: expected no progress, got %r" % r.stderr[:200])

    env["VCUDA_PROGRESS"] = "0"
    text, rc = run_on_pty(program, env)
    if rc != 0 or "vcuda:" in text or "\x1b[K" in text:
        fail("VCUDA_PROGRESS=0 on a terminal: expected no progress", text)
    print("progress line: a grid's %d updates (last %d/48 blocks), a graph's %d (last %d/6 "
          "nodes), erased at the end; none on a pipe or with VCUDA_PROGRESS=0"
          % (len(lines), lines[-1], len(glines), glines[-1]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
