#!/bin/bash
# Second capture: vectorAdd (exact extra buffer), errors (steps that crash the real driver
# found and left out), attributes.
set -u
D=$(cd "$(dirname "$0")" && pwd)
R=$OUT/driver2
mkdir -p $R /tmp/drv && cd /tmp/drv
export PATH=$PATH:/usr/local/cuda/bin
nvidia-smi --query-gpu=name,driver_version --format=csv > $R/environment.txt 2>&1
nvcc -ptx -arch=compute_90 -o kernels.ptx $D/kernels.cu
for p in vectorAdd.c errors.c attributes.c; do
  nvcc -O2 -arch=sm_90 -o ${p%.*} $D/$p -lcuda 2>> $R/build.log || echo "build $p failed" >> $R/build.log
done
for k in 1 2; do ./vectorAdd kernels.ptx > $R/vectorAdd.out.$k 2>&1; echo $? > $R/vectorAdd.rc.$k; done
./attributes > $R/attributes.out 2>&1
skip=""
for try in 1 2 3 4 5 6 7 8; do
  ERRORS_SKIP=$skip ./errors kernels.ptx > $R/errors.out.1 2> $R/errors.err; rc=$?
  echo "try $try skip '$skip' rc $rc" >> $R/errors.log
  [ $rc -lt 128 ] && break
  s=$(grep '^step' $R/errors.err | tail -1 | cut -d' ' -f2)
  skip="$skip${skip:+,}$s"
done
echo $rc > $R/errors.rc
ERRORS_SKIP=$skip ./errors kernels.ptx > $R/errors.out.2 2>/dev/null
cd $OUT && tar czf driver2.tar.gz driver2 && rm -rf driver2
