#!/usr/bin/env python3
"""tests/prof/timeline/timeline_check.py — `vcuda prof --timeline` on one program.

  timeline_check.py json VCUDA OUTDIR PROGRAM [--expect cat=N,...]
      runs PROGRAM under `vcuda prof --timeline OUTDIR/<name>.json` and checks that the file
      is valid Chrome trace-event JSON: every event well formed, every track named, every
      operation on the device (kernel, copy, set, host function) exactly once and joined by
      one flow to the API call that issued it; the kernels are as many as the launches that
      `vcuda prof --print-gpu-trace` lists; with --expect, the counts per category are those
      given (known from the program's source).
  timeline_check.py html VCUDA OUTDIR PROGRAM
      writes OUTDIR/<name>.html and loads it in headless Chromium (installing Debian's
      chromium when it is missing and the machine allows; else the test is skipped, exit
      77): the page must load without script errors and show one bar per launch, copy, set
      and host function of the JSON timeline.
"""
import csv
import io
import json
import os
import re
import shutil
import subprocess
import sys

DEVICE_CATS = ("kernel", "memcpy", "memset", "host function")
SKIP = 77


def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)


def run_prof(vcuda, program, *opts):
    r = subprocess.run([vcuda, "prof", *opts, program], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, timeout=300)
    return r.returncode


def check_json(doc, expect):
    if not isinstance(doc, dict) or not isinstance(doc.get("traceEvents"), list):
        fail("no traceEvents array")
    events = doc["traceEvents"]
    named, counts, dev_ids, flow_s, flow_f = set(), {}, [], [], []
    for e in events:
        ph = e.get("ph")
        if ph not in ("M", "X", "i", "s", "f"):
            fail("unexpected phase %r in %r" % (ph, e))
        for key in ("pid", "name"):
            if key not in e:
                fail("event without %s: %r" % (key, e))
        if ph == "M":
            if e["name"] == "thread_name":
                named.add((e["pid"], e["tid"]))
            continue
        if not isinstance(e.get("ts"), (int, float)) or e["ts"] < 0:
            fail("bad ts in %r" % e)
        if ph == "X" and (not isinstance(e.get("dur"), (int, float)) or e["dur"] < 0):
            fail("bad dur in %r" % e)
        if ph == "s":
            flow_s.append(e["id"])
            continue
        if ph == "f":
            flow_f.append(e["id"])
            continue
        if (e["pid"], e["tid"]) not in named:
            fail("event on an unnamed track: %r" % e)
        cat = e.get("cat")
        counts[cat] = counts.get(cat, 0) + 1
        if cat in DEVICE_CATS + ("load",):
            if ph != "X" or e["pid"] != 1:
                fail("device operation not a complete event of the device: %r" % e)
            dev_ids.append(e["args"]["id"])
            if cat == "kernel":
                for key in ("grid", "block", "registers per thread", "estimated duration (us)"):
                    if key not in e["args"]:
                        fail("kernel without %r: %r" % (key, e))
            if cat in ("memcpy", "memset") and e["args"].get("bytes", 0) <= 0:
                fail("copy or set without bytes: %r" % e)
    if len(set(dev_ids)) != len(dev_ids):
        fail("an operation appears twice")
    if sorted(flow_s) != sorted(set(flow_s)) or sorted(flow_f) != sorted(set(flow_f)):
        fail("a flow starts or ends twice")
    if sorted(dev_ids) != sorted(flow_f) or sorted(flow_f) != sorted(flow_s):
        missing = set(dev_ids) ^ set(flow_s)
        fail("operations and the API calls that issued them differ: ids %s" % sorted(missing)[:10])
    if expect:
        for cat, n in expect.items():
            if counts.get(cat, 0) != n:
                fail("%d %s events, expected %d (all: %s)" % (counts.get(cat, 0), cat, n, counts))
    return counts


def gpu_trace_launches(vcuda, program, outdir, name):
    log = os.path.join(outdir, name + ".gputrace.csv")
    run_prof(vcuda, program, "--print-gpu-trace", "--csv", "--log-file", log)
    with open(log) as f:
        rows = list(csv.reader(f))
    # header, units, then one row per launch
    return max(0, len([r for r in rows if r]) - 2)


def tool_env():
    """The environment for programs other than vcuda's: a sanitizer build's preloaded
    runtimes (VCUDA_PROGRAM_ENV) are for CUDA programs only."""
    env = dict(os.environ)
    env.pop("LD_PRELOAD", None)
    return env


def find_chromium():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    if os.geteuid() != 0 or not shutil.which("apt-get"):
        return None
    print("installing Debian's chromium for the headless-browser test (apt-get install chromium)")
    try:
        subprocess.run(["apt-get", "install", "-y", "--no-install-recommends", "chromium"],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=240,
                       env=dict(tool_env(), DEBIAN_FRONTEND="noninteractive"))
    except (subprocess.TimeoutExpired, OSError):
        return None
    return shutil.which("chromium")


def main():
    if len(sys.argv) < 5 or sys.argv[1] not in ("json", "html"):
        print(__doc__)
        return 2
    mode, vcuda, outdir, program = sys.argv[1:5]
    expect = {}
    if len(sys.argv) > 6 and sys.argv[5] == "--expect":
        for item in sys.argv[6].split(","):
            cat, n = item.rsplit("=", 1)
            expect[cat] = int(n)
    os.makedirs(outdir, exist_ok=True)
    name = os.path.basename(program)
    out = os.path.join(outdir, name + ".json")
    run_prof(vcuda, program, "--timeline", out)
    with open(out) as f:
        doc = json.load(f)
    counts = check_json(doc, expect)

    if mode == "json":
        launches = gpu_trace_launches(vcuda, program, outdir, name)
        if counts.get("kernel", 0) != launches:
            fail("%d kernel events, --print-gpu-trace lists %d launches"
                 % (counts.get("kernel", 0), launches))
        print("%s: valid trace-event JSON: %s" % (name, ", ".join(
            "%d %s" % (counts.get(c, 0), c) for c in DEVICE_CATS + ("api",))))
        return 0

    page = os.path.join(outdir, name + ".html")
    run_prof(vcuda, program, "--timeline", page)
    chromium = find_chromium()
    if not chromium:
        print("SKIP: no chromium (Debian's chromium package could not be installed here)")
        return SKIP
    r = subprocess.run([chromium, "--headless", "--no-sandbox", "--disable-gpu",
                        "--virtual-time-budget=5000", "--dump-dom", "file://" + os.path.abspath(page)],
                       stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, timeout=120,
                       env=tool_env())
    dom = r.stdout.decode("utf-8", "replace")
    if 'data-ready="1"' not in dom:
        fail("the page did not finish drawing (a script error?)")
    errors = re.search(r'<div id="errors">(.*?)</div>', dom, re.S)
    if errors is None or errors.group(1).strip():
        fail("script errors: %s" % (errors.group(1) if errors else "no #errors element"))
    css = {"kernel": "kernel", "memcpy": "memcpy", "memset": "memset", "host function": "hostfn"}
    for cat, cls in css.items():
        bars = len(re.findall(r'class="bar %s"' % cls, dom))
        if bars != counts.get(cat, 0):
            fail("%d %s bars on the page, %d in the timeline" % (bars, cat, counts.get(cat, 0)))
    kernels = {e["name"] for e in doc["traceEvents"] if e.get("cat") == "kernel"}
    charts = len(re.findall(r'class="occ-chart"', dom))
    if charts != 3 * len(kernels):
        fail("%d occupancy charts for %d kernels" % (charts, len(kernels)))
    print("%s: the page loads without script errors: %d kernel bars, %d copy bars, %d set bars, "
          "%d host-function bars, %d occupancy charts" % (
              name, counts.get("kernel", 0), counts.get("memcpy", 0), counts.get("memset", 0),
              counts.get("host function", 0), charts))
    return 0


if __name__ == "__main__":
    sys.exit(main())
