#!/bin/sh
# tests/cache/cache_stress.sh VCUDA PROGRAM EXPECTED — vcuda's on-disk cache under stress.
#
# Everything vcuda caches (ptxas register reports, compiled kernels) lives in
# $XDG_CACHE_HOME/vcuda. Eight processes run PROGRAM at once on an empty cache (half under
# `vcuda prof`, which reads register counts, half plainly), a ninth is killed while it
# runs; every run that finished must print EXPECTED. Then every entry is damaged (cut in
# half, or swapped for another entry's bytes) and a stray temporary file is left behind:
# the next runs must still print EXPECTED and leave whole entries in place of the damaged
# ones. Needs no GPU; a few seconds.
set -eu
vcuda=$1; prog=$2; expected=$3
cache=$(mktemp -d)
trap 'rm -rf "$cache"' EXIT
export XDG_CACHE_HOME="$cache"
unset VCUDA_CACHE_DIR || true

fail() { echo "cache_stress: $*" >&2; exit 1; }

run_one() { # index mode
  if [ "$2" = prof ]; then
    "$vcuda" prof "$prog" > "$cache/out.$1" 2> "$cache/err.$1"
  else
    "$prog" > "$cache/out.$1" 2> "$cache/err.$1"
  fi
}

check_outputs() { # label
  for f in "$cache"/out.*; do
    cmp -s "$f" "$expected" || { diff "$expected" "$f" | head -20 >&2; fail "$1: $(basename "$f") differs"; }
  done
  rm -f "$cache"/out.* "$cache"/err.*
}

# 1. eight at once on an empty cache, and one killed mid-run
pids=""
for i in 1 2 3 4 5 6 7 8; do
  if [ $((i % 2)) -eq 0 ]; then mode=prof; else mode=plain; fi
  run_one "$i" "$mode" &
  pids="$pids $!"
done
"$vcuda" prof "$prog" > /dev/null 2>&1 &
victim=$!
sleep 0.3
kill -9 "$victim" 2>/dev/null || true
for p in $pids; do wait "$p" || fail "a concurrent run failed"; done
wait "$victim" 2>/dev/null || true
check_outputs "concurrent runs"
entries=$(find "$cache/vcuda" -type f ! -name '*.tmp' 2>/dev/null | wc -l)
[ "$entries" -gt 0 ] || fail "no cache entry was written"

# 2. every entry damaged: cut in half, or another entry's bytes; plus a stray temporary
first=""
n=0
for f in $(find "$cache/vcuda" -type f ! -name '*.tmp' | sort); do
  n=$((n + 1))
  if [ -z "$first" ]; then first=$f; fi
  if [ $((n % 2)) -eq 1 ]; then
    size=$(wc -c < "$f")
    head -c $((size / 2)) "$f" > "$f.cut" && mv "$f.cut" "$f"
  elif [ "$f" != "$first" ]; then
    cp "$first" "$f"
  else
    printf 'not a cache entry' > "$f"
  fi
done
printf 'half-written' > "$cache/vcuda/stray.12345.tmp"
damaged=$(cd "$cache/vcuda" && cksum $(ls | sort) | sort)
run_one 1 plain
run_one 2 prof
check_outputs "runs over a damaged cache"
# the damaged entries were replaced, not kept
after=$(cd "$cache/vcuda" && cksum $(ls | sort) | sort)
[ "$damaged" != "$after" ] || fail "the damaged entries were left as they were"
run_one 3 prof
check_outputs "run after the repair"
echo "cache_stress: $entries entries; concurrent, killed and damaged runs all printed the expected output"
