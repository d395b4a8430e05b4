// An image pipeline on RGBA pixels (uchar4): grayscale with the BT.601 weights, a 5x5 box
// blur through a shared-memory tile with a clamped apron, a Sobel edge magnitude, a
// threshold to a binary mask, and a 256-bin histogram of the gray image; each stage
// checked by a hash of its bytes.
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("%s:%d %s -> %s\n", __FILE__, __LINE__, #x, cudaGetErrorName(e_)); exit(1); } } while (0)

#define TW 16
#define R 2

__global__ void toGray(const uchar4 *in, unsigned char *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    uchar4 p = in[i];
    out[i] = (unsigned char)__float2int_rn(0.299f * p.x + 0.587f * p.y + 0.114f * p.z);
}

__global__ void boxBlur(const unsigned char *in, unsigned char *out, int w, int h)
{
    __shared__ unsigned char tile[TW + 2 * R][TW + 2 * R];
    int bx = blockIdx.x * TW, by = blockIdx.y * TW;
    for (int idx = threadIdx.y * TW + threadIdx.x; idx < (TW + 2 * R) * (TW + 2 * R); idx += TW * TW) {
        int ty = idx / (TW + 2 * R), tx = idx % (TW + 2 * R);
        int gx = min(max(bx + tx - R, 0), w - 1), gy = min(max(by + ty - R, 0), h - 1);
        tile[ty][tx] = in[gy * w + gx];
    }
    __syncthreads();
    int x = bx + threadIdx.x, y = by + threadIdx.y;
    if (x >= w || y >= h) return;
    int s = 0;
    for (int dy = 0; dy <= 2 * R; dy++)
        for (int dx = 0; dx <= 2 * R; dx++) s += tile[threadIdx.y + dy][threadIdx.x + dx];
    out[y * w + x] = (unsigned char)((s + 12) / 25);
}

__global__ void sobel(const unsigned char *in, unsigned char *out, int w, int h)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h) return;
    if (x == 0 || y == 0 || x == w - 1 || y == h - 1) { out[y * w + x] = 0; return; }
    auto P = [&](int dx, int dy) { return (int)__ldg(&in[(y + dy) * w + x + dx]); };
    int gx = -P(-1, -1) - 2 * P(-1, 0) - P(-1, 1) + P(1, -1) + 2 * P(1, 0) + P(1, 1);
    int gy = -P(-1, -1) - 2 * P(0, -1) - P(1, -1) + P(-1, 1) + 2 * P(0, 1) + P(1, 1);
    float m = sqrtf((float)(gx * gx + gy * gy));
    out[y * w + x] = (unsigned char)fminf(m, 255.0f);
}

__global__ void threshold(const unsigned char *in, unsigned char *out, int n, unsigned char t)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[i] > t ? 255 : 0;
}

__global__ void hist256(const unsigned char *in, int n, unsigned *bins)
{
    __shared__ unsigned s[256];
    s[threadIdx.x] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) atomicAdd(&s[in[i]], 1u);
    __syncthreads();
    atomicAdd(&bins[threadIdx.x], s[threadIdx.x]);
}

static unsigned long long fnv(const unsigned char *p, int n)
{
    unsigned long long h = 1469598103934665603ULL;
    for (int i = 0; i < n; i++) h = (h ^ p[i]) * 1099511628211ULL;
    return h;
}

int main()
{
    const int w = 300, h = 200, n = w * h;
    uchar4 *img = (uchar4 *)malloc(n * sizeof(uchar4));
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            int cx = x - 150, cy = y - 100;
            unsigned char ring = (cx * cx + cy * cy) % 2000 < 1000 ? 200 : 40;
            img[y * w + x] = make_uchar4((unsigned char)(x * 255 / w), ring, (unsigned char)((x ^ y) & 255), 255);
        }
    uchar4 *dimg;
    unsigned char *g, *b, *e, *m, *hg = (unsigned char *)malloc(n);
    unsigned *bins, hb[256];
    CK(cudaMalloc(&dimg, n * sizeof(uchar4)));
    CK(cudaMalloc(&g, n)); CK(cudaMalloc(&b, n)); CK(cudaMalloc(&e, n)); CK(cudaMalloc(&m, n));
    CK(cudaMalloc(&bins, sizeof hb));
    CK(cudaMemcpy(dimg, img, n * sizeof(uchar4), cudaMemcpyHostToDevice));
    toGray<<<(n + 255) / 256, 256>>>(dimg, g, n);
    dim3 blk(TW, TW), grd((w + TW - 1) / TW, (h + TW - 1) / TW);
    boxBlur<<<grd, blk>>>(g, b, w, h);
    sobel<<<grd, blk>>>(b, e, w, h);
    threshold<<<(n + 255) / 256, 256>>>(e, m, n, 60);
    CK(cudaMemset(bins, 0, sizeof hb));
    hist256<<<32, 256>>>(g, n, bins);
    CK(cudaGetLastError());
    const char *names[4] = {"gray", "blur", "edges", "mask"};
    unsigned char *stages[4] = {g, b, e, m};
    for (int s = 0; s < 4; s++) {
        CK(cudaMemcpy(hg, stages[s], n, cudaMemcpyDeviceToHost));
        long long sum = 0;
        for (int i = 0; i < n; i++) sum += hg[i];
        printf("%-5s hash %016llx sum %lld px(10,10)=%d px(150,100)=%d px(299,199)=%d\n", names[s], fnv(hg, n), sum,
               hg[10 * w + 10], hg[100 * w + 150], hg[199 * w + 299]);
    }
    CK(cudaMemcpy(hb, bins, sizeof hb, cudaMemcpyDeviceToHost));
    int mode = 0;
    for (int i = 1; i < 256; i++) if (hb[i] > hb[mode]) mode = i;
    printf("histogram: mode %d (%u pixels), bins 0..7: %u %u %u %u %u %u %u %u\n", mode, hb[mode], hb[0], hb[1], hb[2],
           hb[3], hb[4], hb[5], hb[6], hb[7]);
    // the mask, coarsely
    CK(cudaMemcpy(hg, m, n, cudaMemcpyDeviceToHost));
    for (int y = 0; y < h; y += 10) {
        for (int x = 0; x < w; x += 5) putchar(hg[y * w + x] ? '#' : '.');
        putchar('\n');
    }
    return 0;
}
