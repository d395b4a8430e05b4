// Texture and surface kernels whose L1TEX traffic Nsight Compute measured on an H100-class
// GPU (tests/data/ncu/texture_prof.csv): tex1Dfetch over linear memory (consecutive and
// strided indices), point and linear filtered 2D lookups of a float array, a 2D gather,
// and 2D surface writes and reads. Each kernel checks its own results, so that the
// program also says whether the lookups were right.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { \
    printf("CUDA error %s at line %d\n", cudaGetErrorName(e_), __LINE__); exit(1); } } while (0)

enum { W = 64, H = 64, N = 4096 };

__global__ void fetch1D(cudaTextureObject_t t, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = tex1Dfetch<float>(t, i);
}

__global__ void fetch1DStrided(cudaTextureObject_t t, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = tex1Dfetch<float>(t, (i * 8) % N);
}

__global__ void point2D(cudaTextureObject_t t, float *out)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    out[y * W + x] = tex2D<float>(t, x + 0.5f, y + 0.5f);
}

__global__ void linear2D(cudaTextureObject_t t, float *out)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    out[y * W + x] = tex2D<float>(t, (x + 0.75f) / W, (y + 0.25f) / H);
}

__global__ void gather2D(cudaTextureObject_t t, float *out)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    float4 g = tex2Dgather<float4>(t, x + 0.5f, y + 0.5f, 0);
    out[y * W + x] = g.x + g.y + g.z + g.w;
}

__global__ void surfWrite2D(cudaSurfaceObject_t s)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    surf2Dwrite((float)(y * 1000 + x), s, x * (int)sizeof(float), y);
}

__global__ void surfRead2D(cudaSurfaceObject_t s, float *out)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    out[y * W + x] = surf2Dread<float>(s, x * (int)sizeof(float), y);
}

static cudaTextureObject_t array_tex(cudaArray_t a, cudaTextureFilterMode f, int norm)
{
    cudaResourceDesc rd = {};
    rd.resType = cudaResourceTypeArray;
    rd.res.array.array = a;
    cudaTextureDesc td = {};
    td.addressMode[0] = td.addressMode[1] = cudaAddressModeClamp;
    td.filterMode = f;
    td.readMode = cudaReadModeElementType;
    td.normalizedCoords = norm;
    cudaTextureObject_t t;
    CHECK(cudaCreateTextureObject(&t, &rd, &td, NULL));
    return t;
}

int main(void)
{
    static float h[N], r[N];
    for (int i = 0; i < N; i++) h[i] = (float)(i % 97) * 0.25f;
    float *lin, *out;
    CHECK(cudaMalloc(&lin, N * sizeof(float)));
    CHECK(cudaMalloc(&out, N * sizeof(float)));
    CHECK(cudaMemcpy(lin, h, sizeof h, cudaMemcpyHostToDevice));

    cudaResourceDesc rd = {};
    rd.resType = cudaResourceTypeLinear;
    rd.res.linear.devPtr = lin;
    rd.res.linear.desc = cudaCreateChannelDesc<float>();
    rd.res.linear.sizeInBytes = N * sizeof(float);
    cudaTextureDesc td = {};
    td.readMode = cudaReadModeElementType;
    cudaTextureObject_t t1;
    CHECK(cudaCreateTextureObject(&t1, &rd, &td, NULL));

    cudaChannelFormatDesc cd = cudaCreateChannelDesc<float>();
    cudaArray_t a, sa;
    CHECK(cudaMallocArray(&a, &cd, W, H, cudaArrayTextureGather));
    CHECK(cudaMemcpy2DToArray(a, 0, 0, h, W * sizeof(float), W * sizeof(float), H, cudaMemcpyHostToDevice));
    CHECK(cudaMallocArray(&sa, &cd, W, H, cudaArraySurfaceLoadStore));
    cudaTextureObject_t tp = array_tex(a, cudaFilterModePoint, 0);
    cudaTextureObject_t tl = array_tex(a, cudaFilterModeLinear, 1);
    cudaResourceDesc sd = {};
    sd.resType = cudaResourceTypeArray;
    sd.res.array.array = sa;
    cudaSurfaceObject_t s;
    CHECK(cudaCreateSurfaceObject(&s, &sd));

    dim3 b2(32, 4), g2(W / 32, H / 4);
    double sum;
    fetch1D<<<N / 128, 128>>>(t1, out, N);
    CHECK(cudaMemcpy(r, out, sizeof r, cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int i = 0; i < N; i++) bad += r[i] != h[i];
    printf("fetch1D: %d wrong\n", bad);
    fetch1DStrided<<<N / 128, 128>>>(t1, out, N);
    CHECK(cudaMemcpy(r, out, sizeof r, cudaMemcpyDeviceToHost));
    bad = 0;
    for (int i = 0; i < N; i++) bad += r[i] != h[(i * 8) % N];
    printf("fetch1DStrided: %d wrong\n", bad);
    point2D<<<g2, b2>>>(tp, out);
    CHECK(cudaMemcpy(r, out, sizeof r, cudaMemcpyDeviceToHost));
    bad = 0;
    for (int i = 0; i < N; i++) bad += r[i] != h[i];
    printf("point2D: %d wrong\n", bad);
    linear2D<<<g2, b2>>>(tl, out);
    CHECK(cudaMemcpy(r, out, sizeof r, cudaMemcpyDeviceToHost));
    sum = 0;
    for (int i = 0; i < N; i++) sum += r[i];
    printf("linear2D: sum %.4f\n", sum);
    gather2D<<<g2, b2>>>(tp, out);
    CHECK(cudaMemcpy(r, out, sizeof r, cudaMemcpyDeviceToHost));
    sum = 0;
    for (int i = 0; i < N; i++) sum += r[i];
    printf("gather2D: sum %.4f\n", sum);
    surfWrite2D<<<g2, b2>>>(s);
    surfRead2D<<<g2, b2>>>(s, out);
    CHECK(cudaMemcpy(r, out, sizeof r, cudaMemcpyDeviceToHost));
    bad = 0;
    for (int i = 0; i < N; i++) bad += r[i] != (float)((i / W) * 1000 + i % W);
    printf("surface: %d wrong\n", bad);
    CHECK(cudaDeviceSynchronize());
    return 0;
}
