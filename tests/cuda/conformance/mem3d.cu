// Pitched and 3D memory: cudaMalloc3D and cudaMemset3D, cudaMemcpy3D between host,
// pitched device memory and a CUDA array (whole volumes and sub-boxes with offsets),
// cudaMemcpy2DAsync of a sub-rectangle, cudaMemcpy2DToArray/FromArray, and a kernel that
// walks the pitched volume.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("%s:%d %s -> %s\n", __FILE__, __LINE__, #x, cudaGetErrorName(e_)); exit(1); } } while (0)

__global__ void addCoords(cudaPitchedPtr p, int nx, int ny, int nz)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y, z = blockIdx.z;
    if (x >= nx) return;
    char *slice = (char *)p.ptr + (size_t)z * p.pitch * ny;
    float *row = (float *)(slice + (size_t)y * p.pitch);
    row[x] += (float)(x + 100 * y + 10000 * z);
}

static unsigned long long hashf(const float *v, size_t n)
{
    unsigned long long h = 1469598103934665603ULL;
    for (size_t i = 0; i < n; i++) {
        unsigned u;
        memcpy(&u, &v[i], 4);
        h = (h ^ u) * 1099511628211ULL;
    }
    return h;
}

int main()
{
    const int nx = 37, ny = 19, nz = 11;
    cudaExtent ext = make_cudaExtent(nx * sizeof(float), ny, nz);
    cudaPitchedPtr dp;
    CK(cudaMalloc3D(&dp, ext));
    printf("pitch is a multiple of 128: %s, pitch >= row: %s, xsize=%zu ysize=%zu\n",
           dp.pitch % 128 == 0 ? "yes" : "no", dp.pitch >= nx * sizeof(float) ? "yes" : "no", dp.xsize, dp.ysize);
    CK(cudaMemset3D(dp, 0, ext));
    addCoords<<<dim3(1, ny, nz), 64>>>(dp, nx, ny, nz);
    CK(cudaGetLastError());

    float *h = (float *)calloc(nx * ny * nz, sizeof(float));
    cudaMemcpy3DParms cp = {};
    cp.srcPtr = dp;
    cp.dstPtr = make_cudaPitchedPtr(h, nx * sizeof(float), nx, ny);
    cp.extent = ext;
    cp.kind = cudaMemcpyDeviceToHost;
    CK(cudaMemcpy3D(&cp));
    int bad = 0;
    for (int z = 0; z < nz; z++)
        for (int y = 0; y < ny; y++)
            for (int x = 0; x < nx; x++) bad += h[(z * ny + y) * nx + x] != (float)(x + 100 * y + 10000 * z);
    printf("volume after the kernel: %d wrong, hash %016llx\n", bad, hashf(h, nx * ny * nz));

    // a sub-box of the device volume into the middle of a host volume
    float *h2 = (float *)calloc(nx * ny * nz, sizeof(float));
    cudaMemcpy3DParms sub = {};
    sub.srcPtr = dp;
    sub.srcPos = make_cudaPos(3 * sizeof(float), 2, 1);
    sub.dstPtr = make_cudaPitchedPtr(h2, nx * sizeof(float), nx, ny);
    sub.dstPos = make_cudaPos(5 * sizeof(float), 4, 6);
    sub.extent = make_cudaExtent(10 * sizeof(float), 7, 4);
    sub.kind = cudaMemcpyDeviceToHost;
    CK(cudaMemcpy3D(&sub));
    printf("sub-box: h2[6][4][5]=%g h2[9][10][14]=%g h2[5][4][5]=%g hash %016llx\n",
           h2[(6 * ny + 4) * nx + 5], h2[(9 * ny + 10) * nx + 14], h2[(5 * ny + 4) * nx + 5],
           hashf(h2, nx * ny * nz));

    // through a 3D CUDA array and back
    cudaChannelFormatDesc fd = cudaCreateChannelDesc<float>();
    cudaArray_t arr;
    CK(cudaMalloc3DArray(&arr, &fd, make_cudaExtent(nx, ny, nz)));
    cudaMemcpy3DParms toA = {};
    toA.srcPtr = dp;
    toA.dstArray = arr;
    toA.extent = make_cudaExtent(nx, ny, nz);
    toA.kind = cudaMemcpyDeviceToDevice;
    CK(cudaMemcpy3D(&toA));
    float *h3 = (float *)calloc(nx * ny * nz, sizeof(float));
    cudaMemcpy3DParms fromA = {};
    fromA.srcArray = arr;
    fromA.srcPos = make_cudaPos(1, 1, 1);
    fromA.dstPtr = make_cudaPitchedPtr(h3, nx * sizeof(float), nx, ny);
    fromA.extent = make_cudaExtent(nx - 1, ny - 1, nz - 1);
    fromA.kind = cudaMemcpyDeviceToHost;
    CK(cudaMemcpy3D(&fromA));
    printf("array round trip shifted by (1,1,1): h3[0]=%g h3[last]=%g hash %016llx\n", h3[0],
           h3[((nz - 2) * ny + ny - 2) * nx + nx - 2], hashf(h3, nx * ny * nz));
    cudaExtent ae;
    cudaChannelFormatDesc ad;
    unsigned int af;
    CK(cudaArrayGetInfo(&ad, &ae, &af, arr));
    printf("array info: %zu x %zu x %zu, x bits %d, flags %u\n", ae.width, ae.height, ae.depth, ad.x, af);

    // 2D: pitched allocation, an asynchronous sub-rectangle copy, a 2D array
    size_t pitch;
    int *d2;
    const int w = 50, hgt = 30;
    CK(cudaMallocPitch(&d2, &pitch, w * sizeof(int), hgt));
    int *hi = (int *)malloc(w * hgt * sizeof(int)), *ho = (int *)calloc(w * hgt, sizeof(int));
    for (int i = 0; i < w * hgt; i++) hi[i] = i;
    CK(cudaMemset2D(d2, pitch, 0xff, w * sizeof(int), hgt));
    cudaStream_t s;
    CK(cudaStreamCreate(&s));
    CK(cudaMemcpy2DAsync((char *)d2 + 2 * pitch + 3 * sizeof(int), pitch, hi, w * sizeof(int),
                         10 * sizeof(int), 5, cudaMemcpyHostToDevice, s));
    CK(cudaMemcpy2DAsync(ho, w * sizeof(int), d2, pitch, w * sizeof(int), hgt, cudaMemcpyDeviceToHost, s));
    CK(cudaStreamSynchronize(s));
    long long sum = 0;
    for (int i = 0; i < w * hgt; i++) sum += ho[i];
    printf("2D async: ho[2][3]=%d ho[6][12]=%d ho[0][0]=%d sum=%lld\n", ho[2 * w + 3], ho[6 * w + 12], ho[0], sum);
    cudaArray_t a2;
    cudaChannelFormatDesc id = cudaCreateChannelDesc<int>();
    CK(cudaMallocArray(&a2, &id, w, hgt));
    CK(cudaMemcpy2DToArray(a2, 0, 0, hi, w * sizeof(int), w * sizeof(int), hgt, cudaMemcpyHostToDevice));
    int *hb = (int *)calloc(w * hgt, sizeof(int));
    CK(cudaMemcpy2DFromArray(hb, 8 * sizeof(int), a2, 4 * sizeof(int), 3, 8 * sizeof(int), 6, cudaMemcpyDeviceToHost));
    printf("2D array window: %d %d %d %d\n", hb[0], hb[7], hb[8], hb[47]);
    cudaError_t e = cudaMemcpy2DFromArray(hb, 8 * sizeof(int), a2, 45 * sizeof(int), 0, 8 * sizeof(int), 1,
                                          cudaMemcpyDeviceToHost);
    printf("window past the array's edge: %s\n", cudaGetErrorName(e));
    cudaGetLastError();
    CK(cudaFreeArray(a2));
    CK(cudaFreeArray(arr));
    CK(cudaFree(d2));
    CK(cudaFree(dp.ptr));
    CK(cudaStreamDestroy(s));
    return bad != 0;
}
