#!/bin/bash
# Build the driver-API tests with the toolkit's nvcc against the real driver and record
# what they print (stdout) and their exit status, for tests/driver/expected/.
set -u
D=$(cd "$(dirname "$0")" && pwd)
R=$OUT/driver
mkdir -p $R /tmp/drv && cd /tmp/drv
export PATH=$PATH:/usr/local/cuda/bin
nvidia-smi --query-gpu=name,driver_version --format=csv > $R/environment.txt 2>&1
nvcc --version >> $R/environment.txt 2>&1
nvcc -ptx -arch=compute_90 -o kernels.ptx $D/kernels.cu
nvcc -fatbin -gencode arch=compute_90,code=compute_90 -o kernels.fatbin $D/kernels.cu
nvcc -cubin -arch=sm_90 -o kernels.cubin $D/kernels.cu
nvcc -ptx -rdc=true -arch=compute_90 -o link_main.ptx $D/link_main.cu
nvcc -ptx -rdc=true -arch=compute_90 -o link_lib.ptx $D/link_lib.cu
for p in vectorAdd.c modules.c errors.c nvrtc.c probe.c mixed.cu; do
  n=${p%.*}
  nvcc -O2 -arch=sm_90 -o $n $D/$p -lcuda -lnvrtc -ldl 2>> $R/build.log || echo "build $n failed" >> $R/build.log
done
run() { t=$1; shift; for k in 1 2; do ./"$@" > $R/$t.out.$k 2> $R/$t.err.$k; echo $? > $R/$t.rc.$k; done; }
run vectorAdd vectorAdd kernels.ptx
run modules modules
run mixed mixed kernels.ptx
run errors errors kernels.ptx
run nvrtc nvrtc
./probe kernels.ptx > $R/probe.out 2>&1
./modules > /dev/null 2>&1
cat > cubin.c <<'X'
#include <cuda.h>
#include <stdio.h>
#include <stdlib.h>
int main(void){cuInit(0);CUcontext c;cuCtxCreate(&c,NULL,0,0);FILE*f=fopen("kernels.cubin","rb");char*b=malloc(1<<20);fread(b,1,1<<20,f);CUmodule m;printf("cubin load: %d\n",(int)cuModuleLoadData(&m,b));return 0;}
X
nvcc -o cubin cubin.c -lcuda && ./cubin >> $R/probe.out 2>&1
cd $OUT && tar czf driver.tar.gz driver && rm -rf driver
