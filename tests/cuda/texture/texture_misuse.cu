// Texture objects misused from a kernel: with -DDESTROYED a kernel fetches through a
// texture object already destroyed; without, through one whose array was freed. Prints
// what the launch returns (and the value the fetch gave when it did not fail).
#include "common_tex.h"

__global__ void fetch(cudaTextureObject_t t, float *out)
{
    out[threadIdx.x] = tex2D<float>(t, threadIdx.x + 0.5f, 0.5f);
}

int main()
{
    float v[4] = {1, 2, 3, 4};
    cudaChannelFormatDesc fd = cudaCreateChannelDesc<float>();
    cudaArray_t a;
    CHECK(cudaMallocArray(&a, &fd, 4, 1));
    CHECK(cudaMemcpy2DToArray(a, 0, 0, v, 16, 16, 1, cudaMemcpyHostToDevice));
    cudaResourceDesc r = {};
    r.resType = cudaResourceTypeArray;
    r.res.array.array = a;
    cudaTextureDesc td = {};
    cudaTextureObject_t t;
    CHECK(cudaCreateTextureObject(&t, &r, &td, NULL));
    float *d;
    CHECK(cudaMalloc(&d, 4 * sizeof(float)));
    fetch<<<1, 4>>>(t, d);
    CHECK(cudaMemcpy(v, d, sizeof v, cudaMemcpyDeviceToHost));
    printf("before: %g %g %g %g\n", v[0], v[1], v[2], v[3]);
#ifdef DESTROYED
    CHECK(cudaDestroyTextureObject(t));
    cudaResourceDesc g;
    printf("resource desc of destroyed: %s\n", cudaGetErrorName(cudaGetTextureObjectResourceDesc(&g, t)));
#else
    CHECK(cudaFreeArray(a));
#endif
    fetch<<<1, 4>>>(t, d);
    cudaError_t e = cudaDeviceSynchronize();
    printf("launch after: %s\n", cudaGetErrorName(e));
    return 0;
}
