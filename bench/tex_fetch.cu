// Texture fetch speed: the shape of NVIDIA's simplePitchLinearTexture sample (a 2D kernel
// reading tex2D of a 2048x2048 float texture with normalized, wrapped coordinates), point
// and bilinear filtering, a few iterations each. Prints a checksum of each output (so the
// compiled tier and the interpreter can be compared) and the time of each filter (wall and
// process CPU time, the second steadier on a shared machine).
// Build: vcuda cc -O2 -arch=sm_90 bench/tex_fetch.cu -o tex_fetch; run: ./tex_fetch [iters]
#include <cstdio>
#include <cstdlib>
#include <chrono>
#include <ctime>
#include <cuda_runtime.h>

#define CHECK(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { \
    printf("CUDA error %s at line %d\n", cudaGetErrorName(e_), __LINE__); exit(1); } } while (0)

__global__ void shift(float *out, int pitch, int w, int h, float shx, float shy, cudaTextureObject_t t)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    float u = (x + shx) / (float)w, v = (y + shy) / (float)h;
    if (x < w && y < h) out[y * pitch + x] = tex2D<float>(t, u, v);
}

int main(int argc, char **argv)
{
    const int w = 2048, h = 2048;
    int iters = argc > 1 ? atoi(argv[1]) : 4;
    float *hin = (float *)malloc(sizeof(float) * w * h), *hout = (float *)malloc(sizeof(float) * w * h);
    for (int i = 0; i < w * h; i++) hin[i] = (float)((i * 2654435761u) >> 8) / 16777216.0f;
    cudaChannelFormatDesc fd = cudaCreateChannelDesc<float>();
    cudaArray_t a;
    CHECK(cudaMallocArray(&a, &fd, w, h));
    CHECK(cudaMemcpy2DToArray(a, 0, 0, hin, w * sizeof(float), w * sizeof(float), h, cudaMemcpyHostToDevice));
    float *d;
    CHECK(cudaMalloc(&d, sizeof(float) * w * h));
    for (int lin = 0; lin < 2; lin++) {
        cudaResourceDesc r = {};
        r.resType = cudaResourceTypeArray;
        r.res.array.array = a;
        cudaTextureDesc td = {};
        td.addressMode[0] = td.addressMode[1] = cudaAddressModeWrap;
        td.filterMode = lin ? cudaFilterModeLinear : cudaFilterModePoint;
        td.normalizedCoords = 1;
        cudaTextureObject_t t;
        CHECK(cudaCreateTextureObject(&t, &r, &td, NULL));
        dim3 block(16, 16), grid(w / 16, h / 16);
        double sum = 0;
        auto t0 = std::chrono::steady_clock::now();
        std::clock_t c0 = std::clock();
        for (int it = 0; it < iters; it++) {
            shift<<<grid, block>>>(d, w, w, h, 7.25f + it, 3.5f + 2 * it, t);
            CHECK(cudaMemcpy(hout, d, sizeof(float) * w * h, cudaMemcpyDeviceToHost));
            for (int i = 0; i < w * h; i += 97) sum += hout[i];
        }
        double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        double cpu = (double)(std::clock() - c0) / CLOCKS_PER_SEC;
        printf("%s: checksum %.9g\n", lin ? "bilinear" : "point", sum);
        fprintf(stderr, "%s: %d x %d fetches in %.3f s wall, %.3f s CPU (%.1f M/s of CPU)\n",
                lin ? "bilinear" : "point", iters, w * h, s, cpu, iters * (double)w * h / cpu / 1e6);
        CHECK(cudaDestroyTextureObject(t));
    }
    return 0;
}
