/* tests/cuda/hopper/video_report.h — what the video test programs share: run the kernel
 * (one thread per input triple a, b, c; each writes one word per form) and print, per form,
 * an FNV-1a hash of its results over every input and its results at eight chosen inputs,
 * the lines the GPU's recordings hold. */
#include <cuda_runtime.h>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

static int video_run_and_report(void (*kernel)(const uint32_t *, uint32_t *), const uint32_t *in,
                                 int T, int block, const char *const *forms, int nforms,
                                 const int show[8]) {
    size_t in_bytes = 3 * sizeof(uint32_t) * T, out_bytes = sizeof(uint32_t) * T * nforms;
    uint32_t *out = (uint32_t *)calloc(1, out_bytes);
    uint32_t *di, *dout;
    cudaMalloc(&di, in_bytes); cudaMalloc(&dout, out_bytes);
    cudaMemcpy(di, in, in_bytes, cudaMemcpyHostToDevice);
    kernel<<<(T + block - 1) / block, block>>>(di, dout);
    cudaError_t e = cudaDeviceSynchronize();
    cudaMemcpy(out, dout, out_bytes, cudaMemcpyDeviceToHost);
    printf("video: %s, %d inputs\n", cudaGetErrorString(e), T);
    for (int i = 0; i < nforms; i++) {
        uint32_t h = 2166136261u;
        for (int t = 0; t < T; t++)
            for (int k = 0; k < 4; k++) h = (h ^ (out[t * nforms + i] >> (8 * k) & 0xff)) * 16777619u;
        printf("%2d %-48s %08x:", i, forms[i], h);
        for (int k = 0; k < 8; k++) printf(" %08x", out[show[k] * nforms + i]);
        printf("\n");
    }
    free(out);
    return 0;
}
