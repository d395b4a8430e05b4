// Shared memory is allocated, and bounds-checked, in whole allocation units (128 bytes on
// sm_90): a block may touch the bytes between the end of its shared variables and the end
// of the last unit, and only an access past that unit faults. Programs that overrun a
// shared array by a few words (a warp writing 32 partial sums into room for blockDim/32)
// run on a GPU and must run here; compute-sanitizer (and `vcuda check`) still report them.
#include <cstdio>

// Each thread writes one int at byte offset `first + 4 * tid` of the dynamic buffer, then
// reads back its neighbour's: the slack holds what was written like any other shared byte.
__global__ void slack_dynamic(int first, int *out) {
    extern __shared__ unsigned char dyn[];
    volatile int *p = (volatile int *)(dyn + first);
    p[threadIdx.x] = 1000 + (int)threadIdx.x;
    __syncthreads();
    out[threadIdx.x] = p[(threadIdx.x + 1) % blockDim.x];
}

// A static array of 25 ints (100 bytes): ints 25..31 lie in the same 128-byte unit.
__global__ void slack_static(int *out) {
    __shared__ int a[25];
    volatile int *p = a;
    p[threadIdx.x] = 3 * (int)threadIdx.x;
    __syncthreads();
    out[threadIdx.x] = p[31 - threadIdx.x];
}

// The classic bug: the warp sums of a block of 256 are 8 ints, but warp 0 writes 32.
__global__ void warp_sums(const int *in, int *out) {
    extern __shared__ int sums[];
    int v = in[blockIdx.x * blockDim.x + threadIdx.x];
    for (int d = 16; d > 0; d /= 2) v += __shfl_down_sync(0xffffffffu, v, d);
    if (threadIdx.x % 32 == 0) sums[threadIdx.x / 32] = v;
    __syncthreads();
    if (threadIdx.x < 32) {
        int s = threadIdx.x < blockDim.x / 32 ? sums[threadIdx.x] : 0;
        for (int d = 16; d > 0; d /= 2) s += __shfl_down_sync(0xffffffffu, s, d);
        sums[threadIdx.x] = s; /* lanes 8..31 write past the 8 ints */
        if (threadIdx.x == 0) out[blockIdx.x] = s;
    }
}

__global__ void write_at(int byte, int *out) {
    extern __shared__ unsigned char dyn[];
    *(volatile int *)(dyn + byte) = 7;
    out[0] = 1;
}

static int check(const char *what, cudaError_t e) {
    printf("%-44s %s\n", what, cudaGetErrorName(e));
    return e == cudaSuccess;
}

int main() {
    int *out, *in, h[32];
    cudaMalloc(&out, 4096);
    cudaMalloc(&in, 4096 * sizeof(int));
    int hin[4096];
    for (int i = 0; i < 4096; ++i) hin[i] = (i * 37) % 101 - 50;
    cudaMemcpy(in, hin, sizeof hin, cudaMemcpyHostToDevice);

    /* 1,000 bytes: bytes 1,000-1,023 are in the last unit */
    slack_dynamic<<<2, 6, 1000>>>(1000, out);
    if (check("1000 dynamic bytes, ints at 1000..1020", cudaDeviceSynchronize())) {
        cudaMemcpy(h, out, 6 * sizeof(int), cudaMemcpyDeviceToHost);
        printf("  read back %d %d %d %d %d %d\n", h[0], h[1], h[2], h[3], h[4], h[5]);
    }
    /* 4 bytes: one unit of 128 */
    slack_dynamic<<<1, 32, 4>>>(0, out);
    if (check("4 dynamic bytes, ints at 0..124", cudaDeviceSynchronize())) {
        cudaMemcpy(h, out, 32 * sizeof(int), cudaMemcpyDeviceToHost);
        printf("  read back %d .. %d\n", h[0], h[31]);
    }
    slack_static<<<3, 32>>>(out);
    if (check("static int[25], ints 0..31", cudaDeviceSynchronize())) {
        cudaMemcpy(h, out, 32 * sizeof(int), cudaMemcpyDeviceToHost);
        printf("  read back %d %d %d\n", h[0], h[6], h[31]);
    }
    warp_sums<<<16, 256, 8 * sizeof(int)>>>(in, out);
    if (check("warp sums, 32 ints written into 8", cudaDeviceSynchronize())) {
        cudaMemcpy(h, out, 16 * sizeof(int), cudaMemcpyDeviceToHost);
        int bad = 0;
        for (int b = 0; b < 16; ++b) {
            int s = 0;
            for (int i = 0; i < 256; ++i) s += hin[b * 256 + i];
            bad += s != h[b];
        }
        printf("  block sums wrong: %d, block 0: %d\n", bad, h[0]);
    }
    /* the first byte past the last unit faults (the context is lost from here) */
    write_at<<<1, 1, 1000>>>(1024, out);
    check("1000 dynamic bytes, an int at byte 1024", cudaDeviceSynchronize());
    return 0;
}
