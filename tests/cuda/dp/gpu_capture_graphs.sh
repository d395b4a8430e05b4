#!/bin/bash
# tests/cuda/dp/gpu_capture_graphs.sh — record on a GPU machine what dpGraphHost.cu,
# dpGraphRules.cu, ../rtapi/graph_child_update.cu and an external-semaphore probe print
# (copied with the headers they include, dp_graph_test.h, ../rtapi/graph_test.h and
# ../streams/streams_test.h, keeping their relative places). Each program
# is built with plain nvcc and run three times (every mode of dpGraphHost alone);
# $OUT/capture.tar.gz holds the outputs, their statuses, summary.txt and environment.txt.
set -u
here=$(cd "$(dirname "$0")" && pwd)
w=/tmp/g6w
mkdir -p $w/bin $w/runs
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nvcc --version | tail -2; } > $w/runs/environment.txt 2>&1
nvcc -O2 -arch=sm_90 -rdc=true -o $w/bin/dpGraphHost $here/dpGraphHost.cu -lcudadevrt > $w/runs/build_host.txt 2>&1 &
nvcc -O2 -arch=sm_90 -rdc=true -o $w/bin/dpGraphRules $here/dpGraphRules.cu -lcudadevrt > $w/runs/build_rules.txt 2>&1 &
nvcc -O2 -arch=sm_90 -o $w/bin/graph_child_update $here/graph_child_update.cu > $w/runs/build_child.txt 2>&1 &
nvcc -O2 -arch=sm_90 -o $w/bin/extsem_probe $here/extsem_probe.cu > $w/runs/build_extsem.txt 2>&1 &
wait
run() {
    local name=$1 bin=$2; shift 2
    for i in 1 2 3; do
        timeout 30 $w/bin/$bin "$@" > $w/runs/$name.$i.out 2> $w/runs/$name.$i.err
        echo $? > $w/runs/$name.$i.rc
    done
    if cmp -s $w/runs/$name.1.out $w/runs/$name.2.out && cmp -s $w/runs/$name.1.out $w/runs/$name.3.out; then
        echo "$name stable" >> $w/runs/summary.txt
    else
        echo "$name VARIES" >> $w/runs/summary.txt
    fi
}
run dpGraphHost dpGraphHost
for m in ff,ff tail,tail ff,tail tail,ff sib,sib ff,sib sib,ff selfff selfsib selftail; do
    run dpGraphHost_$(echo $m | tr , _) dpGraphHost $m
done
run dpGraphRules dpGraphRules
run graph_child_update graph_child_update
run extsem_probe extsem_probe
tar czf $OUT/capture.tar.gz -C $w runs
cat $w/runs/summary.txt
for f in $w/runs/dpGraphHost.1.out $w/runs/dpGraphHost_*.1.out $w/runs/dpGraphRules.1.out $w/runs/graph_child_update.1.out $w/runs/extsem_probe.1.out; do echo "== $f"; cat $f; done
