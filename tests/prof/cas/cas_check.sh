#!/bin/sh
# The timing model's compare-and-swap retry loops, end to end: under `vcuda prof` (h100
# preset) a CAS loop with 256 contenders per address is bound by "atomics" and estimated
# far longer (tens of times) than the same loop with one thread per address, which is not.
# usage: cas_check.sh VCUDA PROGRAM (tests/prof/cas/cas_loop.cu, built)
set -eu
vcuda=$1 prog=$2
work=$(dirname "$prog")
out=$(VCUDA_DEVICE=h100 "$vcuda" prof --csv --print-gpu-trace --log-file "$work/cas.csv" \
      "$prog")
[ "$out" = "counter 0: 257" ] || { echo "program printed: $out"; exit 1; }
python3 - "$work/cas.csv" <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
h = rows[0]
d, l, nm = h.index("Duration"), h.index("Limiter"), h.index("Name")
runs = [(float(r[d]), r[l]) for r in rows[2:] if r[nm].startswith("cas_inc")]
assert len(runs) == 2, "expected 2 launches, got %d" % len(runs)
(dc, lc), (du, lu) = runs
print("contended: %.2f us (%s); uncontended: %.2f us (%s)" % (dc, lc, du, lu))
assert lc == "atomics", "contended loop not bound by atomics"
assert lu != "atomics", "uncontended loop bound by atomics"
assert dc > 20 * du, "contention not modelled"
PY
