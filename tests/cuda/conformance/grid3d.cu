// 3D grids and blocks: every thread computes its global (x, y, z) and linear index from
// blockIdx/blockDim/threadIdx in three dimensions and writes it; a 3D volume is smoothed
// with a 3D grid whose sizes do not divide the volume; gridDim and blockDim values are
// checked; grid-stride loops in 1D (more elements than threads) and 2D.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK(call) do { cudaError_t e = (call); if (e != cudaSuccess) { \
    printf("CUDA error %s at line %d\n", cudaGetErrorName(e), __LINE__); exit(1); } } while (0)

__global__ void coords(int *out, int nx, int ny, int nz)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    int z = blockIdx.z * blockDim.z + threadIdx.z;
    if (x >= nx || y >= ny || z >= nz) return;
    int tid = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
    int bid = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
    int idx = (z * ny + y) * nx + x;
    out[idx * 2] = bid * (blockDim.x * blockDim.y * blockDim.z) + tid;
    out[idx * 2 + 1] = (gridDim.x << 20) | (gridDim.y << 10) | gridDim.z;
}

__global__ void smooth3d(const float *in, float *out, int nx, int ny, int nz)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y, z = blockIdx.z * blockDim.z + threadIdx.z;
    if (x >= nx || y >= ny || z >= nz) return;
    float s = 0; int c = 0;
    for (int dz = -1; dz <= 1; dz++)
        for (int dy = -1; dy <= 1; dy++)
            for (int dx = -1; dx <= 1; dx++) {
                int xx = x + dx, yy = y + dy, zz = z + dz;
                if (xx < 0 || yy < 0 || zz < 0 || xx >= nx || yy >= ny || zz >= nz) continue;
                s += in[(zz * ny + yy) * nx + xx]; c++;
            }
    out[(z * ny + y) * nx + x] = s / c;
}

__global__ void strideLoop(unsigned long long *out, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        out[i] = (unsigned long long)i * i + (blockIdx.x * blockDim.x + threadIdx.x);
}

__global__ void strideLoop2d(int *m, int w, int h)
{
    for (int y = blockIdx.y * blockDim.y + threadIdx.y; y < h; y += blockDim.y * gridDim.y)
        for (int x = blockIdx.x * blockDim.x + threadIdx.x; x < w; x += blockDim.x * gridDim.x)
            m[y * w + x] += x * 1000 + y;
}

int main()
{
    int bad = 0;
    const int nx = 37, ny = 19, nz = 11;
    dim3 block(8, 4, 2), grid((nx + 7) / 8, (ny + 3) / 4, (nz + 1) / 2);
    int *d, *h = (int *)malloc(nx * ny * nz * 2 * sizeof(int));
    CHECK(cudaMalloc(&d, nx * ny * nz * 2 * sizeof(int)));
    coords<<<grid, block>>>(d, nx, ny, nz);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(h, d, nx * ny * nz * 2 * sizeof(int), cudaMemcpyDeviceToHost));
    for (int z = 0; z < nz; z++)
        for (int y = 0; y < ny; y++)
            for (int x = 0; x < nx; x++) {
                int bx = x / 8, by = y / 4, bz = z / 2, tx = x % 8, ty = y % 4, tz = z % 2;
                int want = (bx + grid.x * (by + grid.y * bz)) * 64 + tx + 8 * (ty + 4 * tz);
                int idx = (z * ny + y) * nx + x;
                if (h[idx * 2] != want || h[idx * 2 + 1] != (int)((grid.x << 20) | (grid.y << 10) | grid.z)) bad++;
            }
    printf("grid (%u,%u,%u) block (%u,%u,%u): id[1]=%d id[last]=%d\n", grid.x, grid.y, grid.z, block.x, block.y, block.z,
           h[2], h[(nx * ny * nz - 1) * 2]);

    float *vin = (float *)malloc(nx * ny * nz * 4), *vout = (float *)malloc(nx * ny * nz * 4), *dvin, *dvout;
    for (int i = 0; i < nx * ny * nz; i++) vin[i] = (float)((i * 7) % 13);
    CHECK(cudaMalloc(&dvin, nx * ny * nz * 4)); CHECK(cudaMalloc(&dvout, nx * ny * nz * 4));
    CHECK(cudaMemcpy(dvin, vin, nx * ny * nz * 4, cudaMemcpyHostToDevice));
    dim3 b2(4, 4, 4), g2((nx + 3) / 4, (ny + 3) / 4, (nz + 3) / 4);
    smooth3d<<<g2, b2>>>(dvin, dvout, nx, ny, nz);
    CHECK(cudaMemcpy(vout, dvout, nx * ny * nz * 4, cudaMemcpyDeviceToHost));
    double tot = 0;
    for (int z = 0; z < nz; z++)
        for (int y = 0; y < ny; y++)
            for (int x = 0; x < nx; x++) {
                float s = 0; int c = 0;
                for (int dz = -1; dz <= 1; dz++) for (int dy = -1; dy <= 1; dy++) for (int dx = -1; dx <= 1; dx++) {
                    int xx = x + dx, yy = y + dy, zz = z + dz;
                    if (xx < 0 || yy < 0 || zz < 0 || xx >= nx || yy >= ny || zz >= nz) continue;
                    s += vin[(zz * ny + yy) * nx + xx]; c++;
                }
                if (vout[(z * ny + y) * nx + x] != s / c) bad++;
                tot += vout[(z * ny + y) * nx + x];
            }
    printf("smooth3d: v[0]=%.9g v[1000]=%.9g total=%.6f\n", vout[0], vout[1000], tot);

    const int n = 1000003;
    unsigned long long *ds, *hs = (unsigned long long *)malloc(n * 8);
    CHECK(cudaMalloc(&ds, n * 8));
    strideLoop<<<40, 128>>>(ds, n);
    CHECK(cudaMemcpy(hs, ds, n * 8, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++) if (hs[i] != (unsigned long long)i * i + (i % (40 * 128))) bad++;
    printf("1D grid-stride: out[5119]=%llu out[5120]=%llu out[%d]=%llu\n", hs[5119], hs[5120], n - 1, hs[n - 1]);

    const int w = 1000, hgt = 700;
    int *dm, *hm = (int *)malloc(w * hgt * 4);
    CHECK(cudaMalloc(&dm, w * hgt * 4));
    CHECK(cudaMemset(dm, 0, w * hgt * 4));
    strideLoop2d<<<dim3(4, 3), dim3(32, 8)>>>(dm, w, hgt);
    strideLoop2d<<<dim3(7, 2), dim3(16, 16)>>>(dm, w, hgt);
    CHECK(cudaMemcpy(hm, dm, w * hgt * 4, cudaMemcpyDeviceToHost));
    for (int y = 0; y < hgt; y++) for (int x = 0; x < w; x++) if (hm[y * w + x] != 2 * (x * 1000 + y)) bad++;
    printf("2D grid-stride: m[0][999]=%d m[699][0]=%d\n", hm[999], hm[699 * w]);
    printf("%s (%d mismatches)\n", bad ? "FAIL" : "PASS", bad);
    return bad ? 1 : 0;
}
