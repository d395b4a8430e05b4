#!/bin/bash
# gpu_capture.sh — record the multi-GPU tests' ground truth on a machine with two GPUs:
# build each program with plain nvcc, run it three times, keep each run's stdout and exit
# status and whether the runs agreed; plus the machine's description. Usage:
#   bash gpu_capture.sh <folder holding the .cu files> <output folder>
src=$1 out=$2
mkdir -p "$out/cap"
{
    nvidia-smi -L
    nvidia-smi --query-gpu=name,driver_version,pci.bus_id,memory.total --format=csv
    nvidia-smi topo -m
    nvcc --version | tail -2
} > "$out/cap/environment.txt" 2>&1
# build every program at once (the machine has the cores), then run them one by one
for f in "$src"/*.cu; do
    name=$(basename "$f" .cu)
    flags=$(sed -n 's/.*nvcc-flags:[ ]*//p' "$f")
    nvcc -O2 -arch=sm_90 -o "/tmp/$name" "$f" $flags -lpthread > "$out/cap/$name.build" 2>&1 &
done
wait
for f in "$src"/*.cu; do
    name=$(basename "$f" .cu)
    if [ ! -x "/tmp/$name" ]; then
        echo "$name: build failed" >> "$out/cap/summary.txt"
        continue
    fi
    for run in 1 2 3; do
        timeout 30 "/tmp/$name" > "$out/cap/$name.$run.out" 2> "$out/cap/$name.$run.err"
        echo $? > "$out/cap/$name.$run.rc"
    done
    same=yes
    for run in 2 3; do
        cmp -s "$out/cap/$name.1.out" "$out/cap/$name.$run.out" || same=no
    done
    echo "$name: rc $(cat "$out/cap/$name.1.rc"), three runs identical: $same" >> "$out/cap/summary.txt"
done
# with CUDA_VISIBLE_DEVICES: one device, and the two swapped
CUDA_VISIBLE_DEVICES=1 /tmp/devices > "$out/cap/visible1.out" 2>&1; echo $? >> "$out/cap/visible1.out"
CUDA_VISIBLE_DEVICES=1,0 /tmp/split > "$out/cap/visible10.out" 2>&1; echo $? >> "$out/cap/visible10.out"
tar czf "$out/capture.tar.gz" -C "$out" cap && rm -rf "$out/cap"
