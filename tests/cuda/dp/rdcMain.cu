/* rdcMain — relocatable device code across two translation units (with rdcLib.cu).
 *
 * A kernel here calls a __device__ function and writes a __device__ variable that live in
 * rdcLib.cu, and launches rdcLib's kernel from the device; the host launches rdcLib's
 * kernel too and reads rdcLib's variable by symbol.
 *
 * Build: nvcc -arch=sm_90 -rdc=true rdcMain.cu rdcLib.cu -lcudadevrt
 */
#include "../../../examples/common.h"

extern __device__ int libOffset;
extern __device__ int libCalls;
extern __device__ int libScale(int x);
extern __global__ void libChild(int *out, int v);

__global__ void mainKernel(int *out)
{
    if (threadIdx.x == 0) {
        out[0] = libScale(1);   /* 3 + 7 */
        libOffset = 100;
        out[1] = libScale(1);   /* 3 + 100 */
        libChild<<<1, 4>>>(out + 2, 10);
        if (cudaGetLastError() != cudaSuccess)
            out[0] = -1;
    }
}

int main()
{
    int *d_out;
    CHECK(cudaMalloc((void **)&d_out, 16 * sizeof(int)));
    CHECK(cudaMemset(d_out, 0, 16 * sizeof(int)));
    mainKernel<<<1, 32>>>(d_out);
    CHECK(cudaGetLastError());
    libChild<<<1, 4>>>(d_out + 8, 20);
    CHECK(cudaGetLastError());
    int h[16];
    CHECK(cudaMemcpy(h, d_out, sizeof h, cudaMemcpyDeviceToHost));
    int calls = 0, offset = 0;
    CHECK(cudaMemcpyFromSymbol(&calls, libCalls, sizeof calls));
    CHECK(cudaMemcpyFromSymbol(&offset, libOffset, sizeof offset));
    printf("device calls across units: %d %d\n", h[0], h[1]);
    printf("child launched from the device: %d %d %d %d\n", h[2], h[3], h[4], h[5]);
    printf("child launched from the host:   %d %d %d %d\n", h[8], h[9], h[10], h[11]);
    printf("libScale ran %d times; libOffset is %d\n", calls, offset);
    bool ok = h[0] == 10 && h[1] == 103 && h[2] == 130 && h[5] == 139 && h[8] == 160 &&
              h[11] == 169 && calls == 10 && offset == 100;
    CHECK(cudaFree(d_out));
    printf("%s\n", ok ? "Test passed" : "Test failed!");
    return ok ? EXIT_SUCCESS : EXIT_FAILURE;
}
