// Memory management API: cudaMallocPitch + cudaMemcpy2D (host <-> pitched device, device
// to device between different pitches), cudaMemset and cudaMemset2D, cudaMallocManaged
// and a __managed__ variable touched by host and device, pinned host memory
// (cudaMallocHost) and mapped zero-copy memory (cudaHostAlloc + cudaHostGetDevicePointer)
// written directly by a kernel, cudaMemGetInfo (only coarse facts are printed),
// cudaPointerGetAttributes for each kind of pointer, and cudaMemcpy with
// cudaMemcpyDefault.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>

#define CHECK(call) do { cudaError_t e = (call); if (e != cudaSuccess) { \
    printf("CUDA error %s at line %d\n", cudaGetErrorName(e), __LINE__); exit(1); } } while (0)

__managed__ int mCounter = 5;

__global__ void scale2d(float *p, size_t pitch, int w, int h, float s)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < w && y < h) {
        float *row = (float *)((char *)p + y * pitch);
        row[x] = row[x] * s + y;
    }
}

__global__ void touch(int *m, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) m[i] = m[i] * 2 + 1;
    if (i == 0) mCounter += 10;
}

__global__ void zeroCopyWrite(int *p, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] = i * i;
}

static const char *typeName(cudaMemoryType t)
{
    switch (t) {
    case cudaMemoryTypeUnregistered: return "unregistered";
    case cudaMemoryTypeHost: return "host";
    case cudaMemoryTypeDevice: return "device";
    case cudaMemoryTypeManaged: return "managed";
    }
    return "?";
}

int main()
{
    int bad = 0;
    // ---- pitched 2D ----
    const int w = 100, h = 37;
    float *hm = (float *)malloc(w * h * sizeof(float));
    for (int i = 0; i < w * h; i++) hm[i] = (float)(i % 97);
    float *dp; size_t pitch;
    CHECK(cudaMallocPitch(&dp, &pitch, w * sizeof(float), h));
    printf("pitch >= row bytes: %s, pitch multiple of 128: %s\n", pitch >= w * sizeof(float) ? "yes" : "no", pitch % 128 == 0 ? "yes" : "no");
    CHECK(cudaMemcpy2D(dp, pitch, hm, w * sizeof(float), w * sizeof(float), h, cudaMemcpyHostToDevice));
    scale2d<<<dim3((w + 15) / 16, (h + 15) / 16), dim3(16, 16)>>>(dp, pitch, w, h, 2.0f);
    CHECK(cudaGetLastError());
    float *back = (float *)malloc(w * h * sizeof(float));
    CHECK(cudaMemcpy2D(back, w * sizeof(float), dp, pitch, w * sizeof(float), h, cudaMemcpyDeviceToHost));
    for (int y = 0; y < h; y++) for (int x = 0; x < w; x++) if (back[y * w + x] != hm[y * w + x] * 2.0f + y) bad++;
    // copy a 10x5 sub-rectangle into a tightly packed device buffer and back
    float *dsub, sub[50];
    CHECK(cudaMalloc(&dsub, 50 * sizeof(float)));
    CHECK(cudaMemcpy2D(dsub, 10 * sizeof(float), (char *)dp + 3 * pitch + 20 * sizeof(float), pitch, 10 * sizeof(float), 5, cudaMemcpyDeviceToDevice));
    CHECK(cudaMemcpy(sub, dsub, sizeof sub, cudaMemcpyDeviceToHost));
    for (int y = 0; y < 5; y++) for (int x = 0; x < 10; x++) if (sub[y * 10 + x] != back[(y + 3) * w + 20 + x]) bad++;
    printf("2D: back[0]=%g back[w*h-1]=%g sub[0]=%g sub[49]=%g\n", back[0], back[w * h - 1], sub[0], sub[49]);
    CHECK(cudaMemset2D(dp, pitch, 0x3f, 8 * sizeof(float), 4));    // bytes 0x3f -> 0.747059f
    CHECK(cudaMemcpy2D(back, w * sizeof(float), dp, pitch, w * sizeof(float), h, cudaMemcpyDeviceToHost));
    printf("memset2D: [0][0]=%.9g [3][7]=%.9g [3][8]=%g [4][0]=%g\n", back[0], back[3 * w + 7], back[3 * w + 8], back[4 * w]);
    if (back[3 * w + 8] != hm[3 * w + 8] * 2.0f + 3) bad++;

    // ---- cudaMemset ----
    int *dm, hmem[64];
    CHECK(cudaMalloc(&dm, sizeof hmem));
    CHECK(cudaMemset(dm, 0, sizeof hmem));
    CHECK(cudaMemset(dm + 8, 0xab, 5));      // partial word
    CHECK(cudaMemset(dm + 20, 0xff, 4 * 4));
    CHECK(cudaMemcpy(hmem, dm, sizeof hmem, cudaMemcpyDeviceToHost));
    printf("memset: %08x %08x %08x %08x %d\n", hmem[7], hmem[8], hmem[9], hmem[10], hmem[20]);
    if (hmem[8] != (int)0xabababab || hmem[9] != 0xab || hmem[20] != -1 || hmem[24] != 0) bad++;

    // ---- managed ----
    const int n = 1000;
    int *mm;
    CHECK(cudaMallocManaged(&mm, n * sizeof(int)));
    for (int i = 0; i < n; i++) mm[i] = i;
    touch<<<(n + 255) / 256, 256>>>(mm, n);
    CHECK(cudaDeviceSynchronize());
    long long msum = 0;
    for (int i = 0; i < n; i++) { if (mm[i] != 2 * i + 1) bad++; msum += mm[i]; }
    printf("managed: sum=%lld mCounter=%d\n", msum, mCounter);
    if (mCounter != 15) bad++;
    mCounter = 100;
    touch<<<1, 1>>>(mm, 1);
    CHECK(cudaDeviceSynchronize());
    printf("managed after host write: mCounter=%d mm[0]=%d\n", mCounter, mm[0]);

    // ---- pinned and mapped host memory ----
    int *pinned;
    CHECK(cudaMallocHost(&pinned, n * sizeof(int)));
    for (int i = 0; i < n; i++) pinned[i] = -i;
    int *dbuf;
    CHECK(cudaMalloc(&dbuf, n * sizeof(int)));
    CHECK(cudaMemcpy(dbuf, pinned, n * sizeof(int), cudaMemcpyHostToDevice));
    CHECK(cudaMemset(pinned, 0, 0));   // a zero-byte memset is fine anywhere
    int *mapped, *dmapped;
    CHECK(cudaHostAlloc(&mapped, n * sizeof(int), cudaHostAllocMapped));
    CHECK(cudaHostGetDevicePointer(&dmapped, mapped, 0));
    memset(mapped, 0, n * sizeof(int));
    zeroCopyWrite<<<4, 256>>>(dmapped, n);
    CHECK(cudaDeviceSynchronize());
    long long zsum = 0;
    for (int i = 0; i < n; i++) { if (mapped[i] != i * i) bad++; zsum += mapped[i]; }
    printf("zero-copy: mapped[999]=%d sum=%lld\n", mapped[999], zsum);
    // cudaMemcpyDefault infers directions from the pointers
    int tmp[4] = {0};
    CHECK(cudaMemcpy(tmp, dbuf + 10, sizeof tmp, cudaMemcpyDefault));
    CHECK(cudaMemcpy(pinned, dbuf + 500, 4 * sizeof(int), cudaMemcpyDefault));
    printf("memcpyDefault: %d %d %d %d / %d %d\n", tmp[0], tmp[1], tmp[2], tmp[3], pinned[0], pinned[3]);
    if (tmp[3] != -13 || pinned[3] != -503) bad++;

    // ---- pointer attributes ----
    int stackVar = 0, *heap = (int *)malloc(16);
    void *ptrs[6] = {dbuf, mm, pinned, mapped, heap, &stackVar};
    const char *names[6] = {"cudaMalloc", "cudaMallocManaged", "cudaMallocHost", "cudaHostAlloc(mapped)", "malloc", "stack"};
    for (int i = 0; i < 6; i++) {
        cudaPointerAttributes a;
        cudaError_t e = cudaPointerGetAttributes(&a, ptrs[i]);
        printf("attributes of %-22s: %s type=%s device=%d devicePointer %s hostPointer %s\n", names[i], cudaGetErrorName(e),
               typeName(a.type), a.device, a.devicePointer == nullptr ? "null" : (a.devicePointer == ptrs[i] ? "same" : "other"),
               a.hostPointer == nullptr ? "null" : (a.hostPointer == ptrs[i] ? "same" : "other"));
    }
    cudaPointerAttributes a;
    CHECK(cudaPointerGetAttributes(&a, dbuf + 17));   // interior pointer
    printf("interior device pointer: type=%s offset ok=%s\n", typeName(a.type), a.devicePointer == (void *)(dbuf + 17) ? "yes" : "no");

    // ---- memory info ----
    size_t freeB, totalB;
    CHECK(cudaMemGetInfo(&freeB, &totalB));
    printf("cudaMemGetInfo: free <= total: %s, total > 16 GiB: %s, free > 1 GiB: %s\n", freeB <= totalB ? "yes" : "no",
           totalB > (16ULL << 30) ? "yes" : "no", freeB > (1ULL << 30) ? "yes" : "no");
    void *bigAlloc;
    CHECK(cudaMalloc(&bigAlloc, 256 << 20));
    size_t free2;
    CHECK(cudaMemGetInfo(&free2, &totalB));
    printf("after a 256 MiB cudaMalloc, free dropped by at least 256 MiB: %s\n", freeB - free2 >= (256u << 20) ? "yes" : "no");
    CHECK(cudaFree(bigAlloc));
    CHECK(cudaFreeHost(pinned)); CHECK(cudaFreeHost(mapped)); CHECK(cudaFree(mm)); CHECK(cudaFree(dp));
    cudaError_t e = cudaFree(dp);   // double free
    printf("double cudaFree: %s; then cudaGetLastError: %s\n", cudaGetErrorName(e), cudaGetErrorName(cudaGetLastError()));
    printf("cudaFree(nullptr): %s\n", cudaGetErrorName(cudaFree(nullptr)));
    printf("%s (%d mismatches)\n", bad ? "FAIL" : "PASS", bad);
    return bad ? 1 : 0;
}
