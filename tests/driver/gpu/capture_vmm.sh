#!/bin/bash
# Record tests/driver/vmm.cu on a GPU (expected/vmm.out): built with the toolkit's nvcc
# against the real libcuda, run three times (the output must not vary).
set -u
D=$(cd "$(dirname "$0")/.." && pwd)
R=$OUT/vmm
mkdir -p $R /tmp/vmm && cd /tmp/vmm
nvidia-smi --query-gpu=name,driver_version --format=csv > $R/environment.txt
nvcc -O2 -arch=sm_90 -o vmm $D/vmm.cu -lcuda
for i in 1 2 3; do ./vmm > $R/vmm.$i.out; echo $? > $R/vmm.$i.rc; done
