#!/bin/bash
# Collect H100 ground truth into $OUT.
cd "$(dirname "$0")"
{
  nvidia-smi -q
  echo "=== nvcc"; nvcc --version
  echo "=== uname"; uname -a
} > "$OUT/env.txt" 2>&1
if nvcc -arch=sm_90 -O2 -o gt ground_truth.cu > "$OUT/log.txt" 2>&1; then
  echo "built on device" >> "$OUT/log.txt"
else
  echo "build failed" >> "$OUT/log.txt"; exit 1
fi
./gt props > "$OUT/props.txt" 2>&1
./gt devicequery > "$OUT/devicequery.txt" 2>&1
timeout 200 ./gt occupancy > "$OUT/occupancy.txt" 2>&1
echo "occupancy rc $?" >> "$OUT/log.txt"
dq=$(find /usr/local /opt -name deviceQuery -type f -perm -u+x 2>/dev/null | head -1)
echo "deviceQuery binary: ${dq:-none}" >> "$OUT/log.txt"
if [ -n "$dq" ]; then "$dq" > "$OUT/devicequery-real.txt" 2>&1; fi
wc -l "$OUT"/*.txt >> "$OUT/log.txt"
cat "$OUT/log.txt"
head -40 "$OUT/devicequery.txt"
