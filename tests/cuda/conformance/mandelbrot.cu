// The Mandelbrot set in float and double, one thread a pixel, escape counts turned into a
// histogram with shared-memory atomics, an ASCII picture and an FNV hash of the counts;
// plus a zoom where float and double disagree.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("%s:%d %s -> %s\n", __FILE__, __LINE__, #x, cudaGetErrorName(e_)); exit(1); } } while (0)

template <typename T>
__global__ void mandel(int *iters, int w, int h, T x0, T y0, T dx, T dy, int maxIt)
{
    int px = blockIdx.x * blockDim.x + threadIdx.x, py = blockIdx.y * blockDim.y + threadIdx.y;
    if (px >= w || py >= h) return;
    T cr = x0 + px * dx, ci = y0 + py * dy, zr = 0, zi = 0;
    int it = 0;
    while (it < maxIt && zr * zr + zi * zi <= (T)4) {
        T t = zr * zr - zi * zi + cr;
        zi = 2 * zr * zi + ci;
        zr = t;
        it++;
    }
    iters[py * w + px] = it;
}

__global__ void histo(const int *iters, int n, int maxIt, unsigned *bins)
{
    __shared__ unsigned s[64];
    if (threadIdx.x < 64) s[threadIdx.x] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        atomicAdd(&s[iters[i] == maxIt ? 63 : iters[i] % 63], 1u);
    __syncthreads();
    if (threadIdx.x < 64) atomicAdd(&bins[threadIdx.x], s[threadIdx.x]);
}

static unsigned long long fnv(const int *v, int n)
{
    unsigned long long h = 1469598103934665603ULL;
    for (int i = 0; i < n; i++) h = (h ^ (unsigned)v[i]) * 1099511628211ULL;
    return h;
}

int main()
{
    const int w = 320, h = 200, maxIt = 500;
    int *d, *hi = (int *)malloc(w * h * sizeof(int)), *hd = (int *)malloc(w * h * sizeof(int));
    unsigned *bins, hb[64];
    CK(cudaMalloc(&d, w * h * sizeof(int)));
    CK(cudaMalloc(&bins, sizeof hb));
    dim3 blk(16, 16), grd((w + 15) / 16, (h + 15) / 16);
    mandel<float><<<grd, blk>>>(d, w, h, -2.2f, -1.2f, 3.2f / w, 2.4f / h, maxIt);
    CK(cudaGetLastError());
    CK(cudaMemcpy(hi, d, w * h * sizeof(int), cudaMemcpyDeviceToHost));
    CK(cudaMemset(bins, 0, sizeof hb));
    histo<<<40, 256>>>(d, w * h, maxIt, bins);
    CK(cudaMemcpy(hb, bins, sizeof hb, cudaMemcpyDeviceToHost));
    long long total = 0;
    for (int i = 0; i < w * h; i++) total += hi[i];
    printf("float: total iterations %lld, inside %u, hash %016llx\n", total, hb[63], fnv(hi, w * h));
    for (int b = 0; b < 63; b += 9) printf("  bins %2d..%2d: %u %u %u %u %u %u %u %u %u\n", b, b + 8, hb[b], hb[b + 1],
                                          hb[b + 2], hb[b + 3], hb[b + 4], hb[b + 5], hb[b + 6], hb[b + 7], hb[b + 8]);
    const char *shade = " .:-=+*#%@";
    for (int y = 0; y < h; y += 10) {
        for (int x = 0; x < w; x += 4) {
            int it = hi[y * w + x];
            putchar(it == maxIt ? '@' : shade[it < 9 ? it : 8]);
        }
        putchar('\n');
    }
    mandel<double><<<grd, blk>>>(d, w, h, -2.2, -1.2, 3.2 / w, 2.4 / h, maxIt);
    CK(cudaMemcpy(hd, d, w * h * sizeof(int), cudaMemcpyDeviceToHost));
    int diff = 0;
    for (int i = 0; i < w * h; i++) diff += hi[i] != hd[i];
    printf("double: hash %016llx, %d pixels differ from float\n", fnv(hd, w * h), diff);
    // deep zoom: float runs out of precision
    double cx = -0.743643887037151, cy = 0.131825904205330, span = 2e-7;
    mandel<float><<<grd, blk>>>(d, w, h, (float)(cx - span / 2), (float)(cy - span / 2), (float)(span / w), (float)(span / h), 2000);
    CK(cudaMemcpy(hi, d, w * h * sizeof(int), cudaMemcpyDeviceToHost));
    mandel<double><<<grd, blk>>>(d, w, h, cx - span / 2, cy - span / 2, span / w, span / h, 2000);
    CK(cudaMemcpy(hd, d, w * h * sizeof(int), cudaMemcpyDeviceToHost));
    diff = 0;
    for (int i = 0; i < w * h; i++) diff += hi[i] != hd[i];
    printf("zoom: float hash %016llx, double hash %016llx, %d pixels differ\n", fnv(hi, w * h), fnv(hd, w * h), diff);
    CK(cudaFree(d));
    CK(cudaFree(bins));
    return 0;
}
