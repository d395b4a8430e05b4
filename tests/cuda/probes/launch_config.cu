/* launch_config.cu — which error each bad launch configuration gives, and whether it sticks. */
#include "probe.h"

__global__ void k_plain(int *p) { if (p) p[threadIdx.x] = 1; }
extern __shared__ char dyn_smem[];
__global__ void k_dyn(int *p) { dyn_smem[threadIdx.x] = 1; __syncthreads(); if (p) p[0] = dyn_smem[0]; }
__global__ void __launch_bounds__(64) k_bounded(int *p) { if (p) p[threadIdx.x] = 2; }
__global__ void k_static_smem(int *p) {
    __shared__ int s[10240]; /* 40 KiB */
    s[threadIdx.x] = threadIdx.x; __syncthreads();
    if (p) p[0] = s[5];
}

static void after(const char *label) {
    cudaError_t peek = cudaPeekAtLastError();
    cudaError_t get = cudaGetLastError();
    cudaError_t again = cudaGetLastError();
    cudaError_t sync = cudaDeviceSynchronize();
    printf("%-34s peek=%s get=%s again=%s sync=%s\n", label, en(peek), en(get), en(again), en(sync));
    fflush(stdout);
}

int main() {
    k_plain<<<1, 1>>>(nullptr);                     after("ok <<<1,1>>>");
    k_plain<<<1, 1025>>>(nullptr);                  after("block x 1025");
    k_plain<<<1, 1024>>>(nullptr);                  after("block x 1024");
    k_plain<<<1, dim3(32, 32, 2)>>>(nullptr);       after("block 32x32x2 (2048 threads)");
    k_plain<<<1, dim3(1, 1, 64)>>>(nullptr);        after("block z 64");
    k_plain<<<1, dim3(1, 1, 65)>>>(nullptr);        after("block z 65");
    k_plain<<<1, dim3(1, 1025, 1)>>>(nullptr);      after("block y 1025");
    k_plain<<<1, dim3(0, 1, 1)>>>(nullptr);         after("block x 0");
    k_plain<<<1, dim3(1, 0, 1)>>>(nullptr);         after("block y 0");
    k_plain<<<0, 1>>>(nullptr);                     after("grid x 0");
    k_plain<<<dim3(1, 0, 1), 1>>>(nullptr);         after("grid y 0");
    k_plain<<<dim3(1, 1, 0), 1>>>(nullptr);         after("grid z 0");
    k_plain<<<dim3(1, 65535, 1), 1>>>(nullptr);     after("grid y 65535");
    k_plain<<<dim3(1, 65536, 1), 1>>>(nullptr);     after("grid y 65536");
    k_plain<<<dim3(1, 1, 65536), 1>>>(nullptr);     after("grid z 65536");
    k_plain<<<dim3(2147483648u, 1, 1), 1>>>(nullptr); after("grid x 2^31");
    k_plain<<<dim3(1, 1, 0), 0>>>(nullptr);         after("grid z 0 and block 0");
    k_plain<<<1, 1025, 1 << 20>>>(nullptr);         after("block 1025 and 1MiB dyn smem");

    k_dyn<<<1, 32, 49152>>>(nullptr);               after("dyn smem 48KiB");
    k_dyn<<<1, 32, 49153>>>(nullptr);               after("dyn smem 48KiB+1");
    k_dyn<<<1, 32, 232448>>>(nullptr);              after("dyn smem 227KiB no attr");
    SHOW("set max dyn 227KiB", cudaFuncSetAttribute(k_dyn, cudaFuncAttributeMaxDynamicSharedMemorySize, 232448));
    after("after set max dyn 227KiB");
    k_dyn<<<1, 32, 232448>>>(nullptr);              after("dyn smem 227KiB with attr");
    k_dyn<<<1, 32, 232449>>>(nullptr);              after("dyn smem 227KiB+1 with attr");
    SHOW("set max dyn 227KiB+1", cudaFuncSetAttribute(k_dyn, cudaFuncAttributeMaxDynamicSharedMemorySize, 232449));
    after("after set max dyn 227KiB+1");
    SHOW("set max dyn -1", cudaFuncSetAttribute(k_dyn, cudaFuncAttributeMaxDynamicSharedMemorySize, -1));
    after("after set max dyn -1");
    k_static_smem<<<1, 32, 8192>>>(nullptr);        after("static 40KiB + dyn 8KiB");
    k_static_smem<<<1, 32, 8193>>>(nullptr);        after("static 40KiB + dyn 8KiB+1");
    SHOW("static: set max dyn 187KiB", cudaFuncSetAttribute(k_static_smem, cudaFuncAttributeMaxDynamicSharedMemorySize, 232448 - 40960));
    SHOW("static: set max dyn 187KiB+1", cudaFuncSetAttribute(k_static_smem, cudaFuncAttributeMaxDynamicSharedMemorySize, 232448 - 40960 + 1));
    after("after static set");

    k_bounded<<<1, 64>>>(nullptr);                  after("launch_bounds(64) with 64");
    k_bounded<<<1, 65>>>(nullptr);                  after("launch_bounds(64) with 65");

    void *args[1]; int *nullp = nullptr; args[0] = &nullp;
    SHOW("cudaLaunchKernel(NULL func)", cudaLaunchKernel((const void *)nullptr, dim3(1), dim3(1), args, 0, 0));
    after("after NULL func");
    SHOW("cudaLaunchKernel(host func)", cudaLaunchKernel((const void *)&after, dim3(1), dim3(1), args, 0, 0));
    after("after host func");
    SHOW("cudaLaunchKernel(ok)", cudaLaunchKernel((const void *)k_plain, dim3(1), dim3(1), args, 0, 0));
    after("after ok");
    SHOW("cudaLaunchKernel(block 0)", cudaLaunchKernel((const void *)k_plain, dim3(1), dim3(0), args, 0, 0));
    after("after block 0");

    /* Two bad launches in a row: which one does cudaGetLastError report? */
    k_plain<<<1, 1025>>>(nullptr);
    k_dyn<<<1, 32, 49153>>>(nullptr);
    after("1025 then 48KiB+1");
    return 0;
}
