/* fault.cu — device faults: the error each kind gives and how it sticks.
 * Usage: fault <mode> [sync|memcpy]; mode is one of oob (4 GiB past a 256-byte
 * allocation), oob_64k, oob_4m, oob_256m, null, misaligned, trap, assert, brkpt. The
 * second argument picks the first call after the faulting launch. */
#include "probe.h"
#include <cassert>
#include <cstdlib>

__global__ void k_ok(int *p) { p[threadIdx.x] = (int)threadIdx.x + 7; }
__global__ void k_oob(int *p, unsigned long long words) { if (threadIdx.x == 0) p[words] = 1; }
__global__ void k_null(int *p) { if (threadIdx.x == 0) *(volatile int *)(p) = 1; }
__global__ void k_misaligned(int *p) { if (threadIdx.x == 0) *(volatile int *)((char *)p + 1) = 1; }
__global__ void k_trap(int *p) { if (threadIdx.x == 0) asm volatile("trap;"); p[threadIdx.x] = 3; }
__global__ void k_assert(int *p) { assert(p[threadIdx.x] == 12345); }
__global__ void k_brkpt(int *p) { if (threadIdx.x == 0) asm volatile("brkpt;"); p[threadIdx.x] = 4; }

int main(int argc, char **argv) {
    const char *mode = argc > 1 ? argv[1] : "oob";
    const char *first = argc > 2 ? argv[2] : "sync";
    int *d = nullptr, h[32];
    memset(h, 0, sizeof h);
    SHOW("cudaMalloc", cudaMalloc(&d, 256));
    SHOW("cudaMemset", cudaMemset(d, 0, 256));
    int *target = d;
    if (!strcmp(mode, "null")) target = nullptr;
    if (!strcmp(mode, "oob")) k_oob<<<1, 32>>>(target, 1ull << 30);
    else if (!strcmp(mode, "oob_64k")) k_oob<<<1, 32>>>(target, 1ull << 14);
    else if (!strcmp(mode, "oob_4m")) k_oob<<<1, 32>>>(target, 1ull << 20);
    else if (!strcmp(mode, "oob_256m")) k_oob<<<1, 32>>>(target, 1ull << 26);
    else if (!strcmp(mode, "null")) k_null<<<1, 32>>>(target);
    else if (!strcmp(mode, "misaligned")) k_misaligned<<<1, 32>>>(target);
    else if (!strcmp(mode, "trap")) k_trap<<<1, 32>>>(target);
    else if (!strcmp(mode, "assert")) k_assert<<<1, 32>>>(target);
    else if (!strcmp(mode, "brkpt")) k_brkpt<<<1, 32>>>(target);
    else { printf("unknown mode\n"); return 2; }
    printf("mode %s, first call %s\n", mode, first);
    SHOW_LAST("right after launch");
    if (!strcmp(first, "memcpy"))
        SHOW("cudaMemcpy D2H (first)", cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    else
        SHOW("cudaDeviceSynchronize (first)", cudaDeviceSynchronize());
    SHOW_LAST("after first sync");
    SHOW("cudaDeviceSynchronize", cudaDeviceSynchronize());
    SHOW_LAST("after second sync");
    int *d2 = nullptr;
    SHOW("cudaMalloc after fault", cudaMalloc(&d2, 64));
    SHOW("cudaMemcpy H2D after fault", cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice));
    SHOW("cudaMemset after fault", cudaMemset(d, 0, 16));
    SHOW("cudaFree after fault", cudaFree(d));
    k_ok<<<1, 32>>>(d);
    SHOW_LAST("launch after fault");
    cudaStream_t s;
    SHOW("cudaStreamCreate after fault", cudaStreamCreate(&s));
    cudaEvent_t ev;
    SHOW("cudaEventCreate after fault", cudaEventCreate(&ev));
    int dev = -1;
    SHOW("cudaGetDevice after fault", cudaGetDevice(&dev));
    int count = -1;
    SHOW("cudaGetDeviceCount after fault", cudaGetDeviceCount(&count));
    cudaDeviceProp prop;
    SHOW("cudaGetDeviceProperties after fault", cudaGetDeviceProperties(&prop, 0));
    size_t fr, tot;
    SHOW("cudaMemGetInfo after fault", cudaMemGetInfo(&fr, &tot));
    SHOW_LAST("before reset");
    SHOW("cudaDeviceReset", cudaDeviceReset());
    SHOW_LAST("after reset");
    SHOW("cudaMalloc after reset", cudaMalloc(&d, 256));
    k_ok<<<1, 32>>>(d);
    SHOW_LAST("launch after reset");
    SHOW("cudaMemcpy after reset", cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    printf("h[0]=%d h[31]=%d\n", h[0], h[31]);
    SHOW("cudaFree after reset", cudaFree(d));
    SHOW("cudaGetDeviceCount after reset", cudaGetDeviceCount(&count));
    SHOW("cudaSetDevice(0) after reset", cudaSetDevice(0));
    SHOW("cudaGetDeviceProperties after reset", cudaGetDeviceProperties(&prop, 0));
    SHOW("cudaDeviceSynchronize after reset", cudaDeviceSynchronize());
    SHOW("cudaDeviceReset again", cudaDeviceReset());
    SHOW("cudaMalloc after second reset", cudaMalloc(&d, 256));
    SHOW_LAST("end");
    return 0;
}
