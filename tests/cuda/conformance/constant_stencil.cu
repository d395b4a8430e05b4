// __constant__ memory and symbols: a 2D convolution whose 5x5 mask lives in constant
// memory (cudaMemcpyToSymbol, then changed and copied again with an offset), a 1D stencil
// with a shared-memory halo and radius in constant memory, __device__ global variables
// (a counter updated by kernels, a statically initialised table, an array read back with
// cudaMemcpyFromSymbol), cudaGetSymbolAddress / cudaGetSymbolSize, and a __constant__
// struct.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK(call) do { cudaError_t e = (call); if (e != cudaSuccess) { \
    printf("CUDA error %s at line %d\n", cudaGetErrorName(e), __LINE__); exit(1); } } while (0)

#define MASK 5
#define RADIUS 3
#define BLOCK 128

struct Coeffs { float scale; int bias; short pad[3]; double dscale; };

__constant__ float cMask[MASK * MASK];
__constant__ int cWeights[2 * RADIUS + 1];
__constant__ Coeffs cCoeffs;
__device__ int dCounter;
__device__ int dTable[8] = {1, 1, 2, 3, 5, 8, 13, 21};
__device__ float dResults[16];
__device__ unsigned long long dBig = 0x0123456789abcdefULL;

__global__ void conv2d(const float *in, float *out, int w, int h)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h) return;
    float acc = 0;
    for (int j = 0; j < MASK; j++)
        for (int i = 0; i < MASK; i++) {
            int xx = min(max(x + i - MASK / 2, 0), w - 1), yy = min(max(y + j - MASK / 2, 0), h - 1);
            acc += cMask[j * MASK + i] * in[yy * w + xx];
        }
    out[y * w + x] = acc * cCoeffs.scale + cCoeffs.bias;
    atomicAdd(&dCounter, 1);
}

__global__ void stencil1d(const int *in, int *out, int n)
{
    __shared__ int temp[BLOCK + 2 * RADIUS];
    int g = blockIdx.x * blockDim.x + threadIdx.x, l = threadIdx.x + RADIUS;
    temp[l] = g < n ? in[g] : 0;
    if (threadIdx.x < RADIUS) {
        temp[l - RADIUS] = g - RADIUS >= 0 ? in[g - RADIUS] : 0;
        temp[l + BLOCK] = g + BLOCK < n ? in[g + BLOCK] : 0;
    }
    __syncthreads();
    int r = 0;
    for (int o = -RADIUS; o <= RADIUS; o++) r += cWeights[o + RADIUS] * temp[l + o];
    if (g < n) out[g] = r + dTable[g & 7];
}

__global__ void fillResults()
{
    int t = threadIdx.x;
    dResults[t] = (float)(cCoeffs.dscale * t) + dTable[t & 7];
    if (t == 0) dBig = ~dBig;
}

int main()
{
    int bad = 0;
    const int w = 67, h = 45;
    float hm[MASK * MASK];
    for (int i = 0; i < MASK * MASK; i++) hm[i] = (float)((i % 5) - 2) * 0.25f + (i == 12 ? 1.0f : 0.0f);
    Coeffs hc = {2.0f, -3, {0, 0, 0}, 1.5};
    CHECK(cudaMemcpyToSymbol(cMask, hm, sizeof hm));
    CHECK(cudaMemcpyToSymbol(cCoeffs, &hc, sizeof hc));
    int zero = 0;
    CHECK(cudaMemcpyToSymbol(dCounter, &zero, sizeof zero));
    float *hin = (float *)malloc(w * h * 4), *hout = (float *)malloc(w * h * 4);
    for (int i = 0; i < w * h; i++) hin[i] = (float)((i * 37) % 23);
    float *din, *dout;
    CHECK(cudaMalloc(&din, w * h * 4)); CHECK(cudaMalloc(&dout, w * h * 4));
    CHECK(cudaMemcpy(din, hin, w * h * 4, cudaMemcpyHostToDevice));
    dim3 block(16, 16), grid((w + 15) / 16, (h + 15) / 16);
    for (int pass = 0; pass < 2; pass++) {
        conv2d<<<grid, block>>>(din, dout, w, h);
        CHECK(cudaGetLastError());
        CHECK(cudaMemcpy(hout, dout, w * h * 4, cudaMemcpyDeviceToHost));
        double sum = 0; int b = 0;
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) {
                float acc = 0;
                for (int j = 0; j < MASK; j++)
                    for (int i = 0; i < MASK; i++) {
                        int xx = x + i - 2, yy = y + j - 2;
                        xx = xx < 0 ? 0 : xx >= w ? w - 1 : xx; yy = yy < 0 ? 0 : yy >= h ? h - 1 : yy;
                        acc += hm[j * MASK + i] * hin[yy * w + xx];
                    }
                float want = acc * hc.scale + hc.bias;
                if (hout[y * w + x] != want) b++;
                sum += hout[y * w + x];
            }
        printf("conv2d pass %d: out[0]=%g out[%d]=%g sum=%.2f %s\n", pass, hout[0], w * h / 2, hout[w * h / 2], sum, b ? "WRONG" : "ok");
        bad += b;
        // change the centre row of the mask only: copy 5 floats at an offset
        float row[MASK] = {0.5f, 0.5f, -1.0f, 0.5f, 0.5f};
        for (int i = 0; i < MASK; i++) hm[2 * MASK + i] = row[i];
        CHECK(cudaMemcpyToSymbol(cMask, row, sizeof row, 2 * MASK * sizeof(float)));
    }
    int counter;
    CHECK(cudaMemcpyFromSymbol(&counter, dCounter, sizeof counter));
    printf("dCounter after two passes: %d\n", counter);
    if (counter != 2 * w * h) bad++;

    const int n = 1000;
    int weights[2 * RADIUS + 1] = {1, -2, 3, 10, 3, -2, 1};
    CHECK(cudaMemcpyToSymbol(cWeights, weights, sizeof weights));
    int *hi = (int *)malloc(n * 4), *ho = (int *)malloc(n * 4), *di, *dO;
    for (int i = 0; i < n; i++) hi[i] = (i * 13) % 31 - 15;
    CHECK(cudaMalloc(&di, n * 4)); CHECK(cudaMalloc(&dO, n * 4));
    CHECK(cudaMemcpy(di, hi, n * 4, cudaMemcpyHostToDevice));
    stencil1d<<<(n + BLOCK - 1) / BLOCK, BLOCK>>>(di, dO, n);
    CHECK(cudaMemcpy(ho, dO, n * 4, cudaMemcpyDeviceToHost));
    const int fibs[8] = {1, 1, 2, 3, 5, 8, 13, 21};
    long long ssum = 0;
    for (int i = 0; i < n; i++) {
        int r = 0;
        for (int o = -RADIUS; o <= RADIUS; o++) r += weights[o + RADIUS] * (i + o >= 0 && i + o < n ? hi[i + o] : 0);
        if (ho[i] != r + fibs[i & 7]) bad++;
        ssum += ho[i];
    }
    printf("stencil1d: out[0]=%d out[127]=%d out[128]=%d out[999]=%d sum=%lld\n", ho[0], ho[127], ho[128], ho[999], ssum);

    fillResults<<<1, 16>>>();
    float res[16]; unsigned long long big;
    CHECK(cudaMemcpyFromSymbol(res, dResults, sizeof res));
    CHECK(cudaMemcpyFromSymbol(&big, dBig, sizeof big));
    for (int t = 0; t < 16; t++) if (res[t] != (float)(1.5 * t) + fibs[t & 7]) bad++;
    printf("dResults: %g %g %g %g dBig=%016llx\n", res[0], res[1], res[7], res[15], big);
    if (big != ~0x0123456789abcdefULL) bad++;
    // read part of an array symbol at an offset
    int part[3];
    CHECK(cudaMemcpyFromSymbol(part, dTable, sizeof part, 4 * sizeof(int)));
    printf("dTable[4..6] = %d %d %d\n", part[0], part[1], part[2]);
    if (part[0] != 5 || part[1] != 8 || part[2] != 13) bad++;
    void *addr; size_t size;
    CHECK(cudaGetSymbolAddress(&addr, dTable));
    CHECK(cudaGetSymbolSize(&size, dTable));
    int viaPtr[8];
    CHECK(cudaMemcpy(viaPtr, addr, sizeof viaPtr, cudaMemcpyDeviceToHost));
    printf("dTable via cudaGetSymbolAddress: size %zu, [7]=%d\n", size, viaPtr[7]);
    if (size != sizeof viaPtr || viaPtr[7] != 21) bad++;
    CHECK(cudaGetSymbolSize(&size, cMask));
    printf("cMask size %zu, cCoeffs size %zu\n", size, sizeof(Coeffs));
    printf("%s (%d mismatches)\n", bad ? "FAIL" : "PASS", bad);
    return bad ? 1 : 0;
}
