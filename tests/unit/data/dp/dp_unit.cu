/* Kernels for tests/unit/test_gpu_dp.c (dynamic parallelism below the runtime). The PTX
 * next to this file is nvcc 13.0's:
 *   nvcc -arch=sm_90 -rdc=true -ptx dp_unit.cu -o dp_unit.ptx
 *   nvcc -arch=sm_80 -rdc=true -DCUDA_FORCE_CDP1_IF_SUPPORTED -ptx dp_unit.cu -o dp_unit_cdp1.ptx
 */
#include <cstdio>

/* log[0] counts entries; entries follow */
__device__ void note(int *log, int value)
{
    int at = atomicAdd(&log[0], 1);
    log[1 + at] = value;
}

__global__ void leaf(int *log, int value)
{
    if (threadIdx.x == 0)
        note(log, value);
}

/* a chain of grids max deep; each notes its depth when it starts */
__global__ void chain(int *log, int depth, int max)
{
    if (threadIdx.x != 0)
        return;
    note(log, depth);
    if (depth < max) {
        chain<<<1, 1>>>(log, depth + 1, max);
        cudaError_t e = cudaGetLastError();
        if (e != cudaSuccess)
            note(log, -(int)e);
    }
}

/* every block launches a leaf noting its block index */
__global__ void fan(int *log)
{
    if (threadIdx.x == 0) {
        leaf<<<1, 32>>>(log, (int)blockIdx.x);
        cudaError_t e = cudaGetLastError();
        if (e != cudaSuccess)
            note(log, -(int)e);
    }
}

#ifndef CUDA_FORCE_CDP1_IF_SUPPORTED
/* A (NULL stream), T (tail stream), B (NULL stream), F (fire and forget) */
__global__ void tails(int *log)
{
    if (threadIdx.x == 0) {
        leaf<<<1, 1>>>(log, 1);
        leaf<<<1, 1, 0, cudaStreamTailLaunch>>>(log, 3);
        leaf<<<1, 1>>>(log, 2);
        leaf<<<1, 1, 0, cudaStreamFireAndForget>>>(log, 4);
    }
}
#endif

/* n launches by one thread; the errors are noted */
__global__ void many(int *log, int n)
{
    if (threadIdx.x == 0)
        for (int i = 0; i < n; i++) {
            leaf<<<1, 1>>>(log, 100 + i);
            cudaError_t e = cudaGetLastError();
            if (e != cudaSuccess)
                note(log, -(int)e);
        }
}

__global__ void faulty(int *p)
{
    p[threadIdx.x] = 1;
}

/* launches a child that writes through p */
__global__ void launchFaulty(int *p)
{
    if (threadIdx.x == 0)
        faulty<<<1, 32>>>(p);
}

#ifndef CUDA_FORCE_CDP1_IF_SUPPORTED
__global__ void writer(int *p)
{
    p[threadIdx.x] = (int)threadIdx.x + 1;
}

/* device-side allocation, and copies and sets ordered with a launch in the NULL stream:
 * log[100..115] = 1..16, log[200] = 0x07070707; an invalid copy is refused */
__global__ void copier(int *log)
{
    if (threadIdx.x != 0)
        return;
    int *tmp = NULL;
    if (cudaMalloc((void **)&tmp, 16 * sizeof(int)) != cudaSuccess || !tmp)
        return;
    cudaMemsetAsync(tmp, 0xff, 16 * sizeof(int), 0);
    writer<<<1, 16>>>(tmp);
    cudaMemcpyAsync(log + 100, tmp, 16 * sizeof(int), cudaMemcpyDeviceToDevice, 0);
    cudaMemsetAsync(log + 200, 7, sizeof(int), 0);
    note(log, cudaMemcpyAsync(log, (int *)16, 4, cudaMemcpyDeviceToDevice, 0));
    note(log, cudaFree((void *)log));
}
#endif

/* printf order: block 0 prints "a", launches, prints "b"; block 1 prints "c" */
__global__ void printer(int *log)
{
    if (threadIdx.x != 0)
        return;
    if (blockIdx.x == 0) {
        printf("a\n");
        leaf<<<1, 1>>>(log, 7);
        printf("b\n");
    } else {
        printf("c\n");
    }
}

#ifdef CUDA_FORCE_CDP1_IF_SUPPORTED
/* CDP1: wait for the child, then read what it wrote */
__global__ void syncParent(int *log, int depth, int max)
{
    if (threadIdx.x != 0)
        return;
    if (depth < max) {
        syncParent<<<1, 1>>>(log, depth + 1, max);
        cudaError_t e = cudaDeviceSynchronize();
        note(log, e == cudaSuccess ? 1000 + depth : -(int)e);
    } else {
        note(log, depth);
    }
}
#endif
