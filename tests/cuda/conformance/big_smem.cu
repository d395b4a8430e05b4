// Dynamic shared memory above 48 KB, as a tiled kernel that wants big tiles does it: the
// launch without the opt-in attribute fails, cudaFuncSetAttribute raises the limit (the
// attributes report it), the kernel runs with 96 KB and with the device's opt-in maximum,
// one byte more is refused, and the carveout preference is accepted.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("%s:%d %s -> %s\n", __FILE__, __LINE__, #x, cudaGetErrorName(e_)); exit(1); } } while (0)

// each block stages its whole chunk in shared memory, reverses it, and writes it back
__global__ void reverseChunks(const int *in, int *out, int chunk)
{
    extern __shared__ int buf[];
    const int *src = in + (size_t)blockIdx.x * chunk;
    for (int i = threadIdx.x; i < chunk; i += blockDim.x) buf[i] = src[i];
    __syncthreads();
    int *dst = out + (size_t)blockIdx.x * chunk;
    for (int i = threadIdx.x; i < chunk; i += blockDim.x) dst[i] = buf[chunk - 1 - i] + (int)blockIdx.x;
}

static int check(const int *h, const int *in, int chunk, int blocks)
{
    for (int b = 0; b < blocks; b++)
        for (int i = 0; i < chunk; i++)
            if (h[b * chunk + i] != in[b * chunk + chunk - 1 - i] + b) return 0;
    return 1;
}

int main()
{
    cudaDeviceProp p;
    CK(cudaGetDeviceProperties(&p, 0));
    printf("sharedMemPerBlock=%zu sharedMemPerBlockOptin=%zu reservedSharedMemPerBlock=%zu\n",
           p.sharedMemPerBlock, p.sharedMemPerBlockOptin, p.reservedSharedMemPerBlock);
    const int maxBytes = (int)p.sharedMemPerBlockOptin;
    const int maxChunk = maxBytes / 4, blocks = 6;
    int *in, *out;
    CK(cudaMalloc(&in, (size_t)blocks * maxChunk * 4));
    CK(cudaMalloc(&out, (size_t)blocks * maxChunk * 4));
    int *h = (int *)malloc((size_t)blocks * maxChunk * 4), *r = (int *)malloc((size_t)blocks * maxChunk * 4);
    for (int i = 0; i < blocks * maxChunk; i++) h[i] = i * 7 + 3;
    CK(cudaMemcpy(in, h, (size_t)blocks * maxChunk * 4, cudaMemcpyHostToDevice));

    cudaFuncAttributes fa;
    CK(cudaFuncGetAttributes(&fa, reverseChunks));
    printf("before: maxDynamicSharedSizeBytes=%d preferredShmemCarveout=%d\n",
           fa.maxDynamicSharedSizeBytes, fa.preferredShmemCarveout);

    int chunk = 96 * 1024 / 4;
    reverseChunks<<<blocks, 256, chunk * 4>>>(in, out, chunk);
    cudaError_t e = cudaGetLastError();
    printf("96 KB without the attribute: %s\n", cudaGetErrorName(e));

    CK(cudaFuncSetAttribute(reverseChunks, cudaFuncAttributeMaxDynamicSharedMemorySize, 96 * 1024));
    CK(cudaFuncGetAttributes(&fa, reverseChunks));
    printf("after: maxDynamicSharedSizeBytes=%d\n", fa.maxDynamicSharedSizeBytes);
    reverseChunks<<<blocks, 256, chunk * 4>>>(in, out, chunk);
    CK(cudaGetLastError());
    CK(cudaMemcpy(r, out, (size_t)blocks * chunk * 4, cudaMemcpyDeviceToHost));
    printf("96 KB: %s\n", check(r, h, chunk, blocks) ? "correct" : "WRONG");

    reverseChunks<<<blocks, 256, chunk * 4 + 4>>>(in, out, chunk);
    printf("96 KB + 4 with the limit at 96 KB: %s\n", cudaGetErrorName(cudaGetLastError()));

    e = cudaFuncSetAttribute(reverseChunks, cudaFuncAttributeMaxDynamicSharedMemorySize, maxBytes + 1);
    printf("set the limit to optin+1: %s\n", cudaGetErrorName(e));
    cudaGetLastError();
    CK(cudaFuncSetAttribute(reverseChunks, cudaFuncAttributeMaxDynamicSharedMemorySize, maxBytes));
    chunk = maxChunk;
    reverseChunks<<<blocks, 1024, chunk * 4>>>(in, out, chunk);
    CK(cudaGetLastError());
    CK(cudaMemcpy(r, out, (size_t)blocks * chunk * 4, cudaMemcpyDeviceToHost));
    printf("%d bytes: %s\n", maxBytes, check(r, h, chunk, blocks) ? "correct" : "WRONG");

    int nb = 0;
    CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&nb, reverseChunks, 256, 96 * 1024));
    printf("blocks per SM at 96 KB: %d, at max: ", nb);
    CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&nb, reverseChunks, 256, maxBytes));
    printf("%d\n", nb);

    CK(cudaFuncSetAttribute(reverseChunks, cudaFuncAttributePreferredSharedMemoryCarveout, 50));
    CK(cudaFuncGetAttributes(&fa, reverseChunks));
    printf("carveout now %d\n", fa.preferredShmemCarveout);
    e = cudaFuncSetAttribute(reverseChunks, cudaFuncAttributePreferredSharedMemoryCarveout, 101);
    printf("carveout 101: %s\n", cudaGetErrorName(e));
    cudaGetLastError();
    CK(cudaFuncSetCacheConfig(reverseChunks, cudaFuncCachePreferShared));
    chunk = 1000;
    reverseChunks<<<blocks, 128, chunk * 4>>>(in, out, chunk);
    CK(cudaGetLastError());
    CK(cudaMemcpy(r, out, (size_t)blocks * chunk * 4, cudaMemcpyDeviceToHost));
    printf("small chunk after cache config: %s\n", check(r, h, chunk, blocks) ? "correct" : "WRONG");
    CK(cudaFree(in));
    CK(cudaFree(out));
    free(h);
    free(r);
    return 0;
}
