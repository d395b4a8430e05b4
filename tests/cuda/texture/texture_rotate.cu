// An image rotated through a texture, in the manner of the CUDA samples' simpleTexture:
// a 64x48 float image in a CUDA array, read with normalized wrapped coordinates and
// bilinear filtering by a kernel that rotates it by 0.5 rad; the result is compared with
// a CPU bilinear reference (within the hardware's 8-bit weight precision) and summarised
// by exact bit patterns of sample pixels and a checksum of all of them.
#include "common_tex.h"
#include <cmath>

__global__ void rotate(float *out, int w, int h, float theta, cudaTextureObject_t t)
{
    unsigned x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= (unsigned)w || y >= (unsigned)h) return;
    float u = (float)x - (float)w / 2, v = (float)y - (float)h / 2;
    float tu = u * cosf(theta) - v * sinf(theta), tv = v * cosf(theta) + u * sinf(theta);
    tu /= (float)w;
    tv /= (float)h;
    out[y * w + x] = tex2D<float>(t, tu + 0.5f, tv + 0.5f);
}

static float texel(const float *img, int w, int h, int x, int y)
{
    x = ((x % w) + w) % w;
    y = ((y % h) + h) % h;
    return img[y * w + x];
}

int main()
{
    const int W = 64, H = 48;
    const float theta = 0.5f;
    float *img = (float *)malloc(W * H * sizeof(float)), *res = (float *)malloc(W * H * sizeof(float));
    for (int y = 0; y < H; y++) for (int x = 0; x < W; x++)
        img[y * W + x] = ((x / 8 + y / 8) & 1) ? 1.0f : (float)(x * y % 17) / 16.0f;
    cudaChannelFormatDesc fd = cudaCreateChannelDesc<float>();
    cudaArray_t a;
    CHECK(cudaMallocArray(&a, &fd, W, H));
    CHECK(cudaMemcpy2DToArray(a, 0, 0, img, W * sizeof(float), W * sizeof(float), H, cudaMemcpyHostToDevice));
    cudaResourceDesc r = {};
    r.resType = cudaResourceTypeArray;
    r.res.array.array = a;
    cudaTextureDesc td = {};
    td.addressMode[0] = td.addressMode[1] = cudaAddressModeWrap;
    td.filterMode = cudaFilterModeLinear;
    td.readMode = cudaReadModeElementType;
    td.normalizedCoords = 1;
    cudaTextureObject_t t;
    CHECK(cudaCreateTextureObject(&t, &r, &td, NULL));
    float *d;
    CHECK(cudaMalloc(&d, W * H * sizeof(float)));
    rotate<<<dim3(W / 16, H / 16), dim3(16, 16)>>>(d, W, H, theta, t);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(res, d, W * H * sizeof(float), cudaMemcpyDeviceToHost));

    int bad = 0;
    double maxerr = 0, sum = 0;
    unsigned hash = 2166136261u;
    for (int y = 0; y < H; y++) for (int x = 0; x < W; x++) {
        float u = (float)x - W / 2.0f, v = (float)y - H / 2.0f;
        float tu = (u * cosf(theta) - v * sinf(theta)) / W + 0.5f, tv = (v * cosf(theta) + u * sinf(theta)) / H + 0.5f;
        float fx = tu * W - 0.5f, fy = tv * H - 0.5f;
        int x0 = (int)floorf(fx), y0 = (int)floorf(fy);
        float ax = fx - x0, ay = fy - y0;
        float ref = (1 - ax) * (1 - ay) * texel(img, W, H, x0, y0) + ax * (1 - ay) * texel(img, W, H, x0 + 1, y0) +
                    (1 - ax) * ay * texel(img, W, H, x0, y0 + 1) + ax * ay * texel(img, W, H, x0 + 1, y0 + 1);
        double err = fabs(ref - res[y * W + x]);
        if (err > maxerr) maxerr = err;
        if (err > 1.0 / 256) bad++;
        sum += res[y * W + x];
        hash = (hash ^ fbits(res[y * W + x])) * 16777619u;
    }
    printf("pixels off by more than 1/256: %d\n", bad);
    printf("max error below 1/256: %s\n", maxerr <= 1.0 / 256 ? "yes" : "no");
    printf("sum %.6f hash %08x\n", sum, hash);
    for (int i = 0; i < W * H; i += 97) printf("%s%08x", i % (97 * 8) ? " " : (i ? "\n" : ""), fbits(res[i]));
    printf("\n%s\n", bad ? "FAILED" : "PASSED");
    CHECK(cudaDestroyTextureObject(t));
    CHECK(cudaFreeArray(a));
    CHECK(cudaFree(d));
    free(img);
    free(res);
    return bad ? 1 : 0;
}
