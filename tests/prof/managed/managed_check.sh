#!/bin/sh
# The timing model's page faults over managed memory, end to end: under `vcuda prof` (h100
# preset) a grid over managed arrays the host wrote is bound by "page faults" and far longer
# than the same grid once they are on the device, prefetched or not; one over an array
# nobody touched faults too, more cheaply a byte (pages made, not moved), and again after
# the array was prefetched to the host, and after the host read arrays a grid had (all of
# one, one float of every 4 KiB of the other: their pages come back). usage: managed_check.sh VCUDA PROGRAM (built)
set -eu
vcuda=$1 prog=$2
work=$(dirname "$prog")
out=$(VCUDA_DEVICE=h100 "$vcuda" prof --csv --print-gpu-trace --log-file "$work/managed.csv" \
      "$prog")
[ "$out" = "no error no error y 14.0 z 5.0 s 5243904" ] || { echo "program printed: $out"; exit 1; }
python3 - "$work/managed.csv" <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
h = rows[0]
d, l, nm = h.index("Duration"), h.index("Limiter"), h.index("Name")
runs = [(float(r[d]), r[l]) for r in rows[2:] if r[nm].startswith(("saxpy", "fill"))]
assert len(runs) == 8, "expected 8 launches, got %d" % len(runs)
for name, (t, lim) in zip("ABCDEFGH", runs):
    print("%s: %.2f us (%s)" % (name, t, lim))
(a, la), (b, lb), (c, lc), (dd, ld), (e, le), (f, lf), (g, lg), (hh, lh) = runs
assert la == "page faults" and ld == "page faults" and le == "page faults", "faults not modelled"
assert lb != "page faults" and lc != "page faults", "resident or prefetched memory faulted"
assert a > 20 * b and a > 20 * c, "migration not modelled"
assert 20 * c < dd < a, "pages made on the device: cheaper than moved ones"
assert e > dd, "pages prefetched to the host move back"
assert lf == "page faults" and lh == "page faults", "the host taking pages back not modelled"
assert f > 20 * b and hh > 20 * b and f < a, "pages back from the host: one array, faster"
assert lg != "page faults" and g < 2 * b, "pages back on the device fault again"
PY
