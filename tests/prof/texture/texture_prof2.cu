// Texture kernels of the other shapes whose L1TEX traffic Nsight Compute measured on an
// H100-class GPU (ncu_prof2_h200.csv beside this file): 1D arrays (point and linear), 3D arrays
// (point and linear), 1D and 2D layered arrays, mipmapped arrays read with tex2DLod at a
// whole level and between two, and with tex2DGrad, and a cube map. Each kernel's results
// are summed and printed, so that the program also says whether the lookups were right.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { \
    printf("CUDA error %s at line %d\n", cudaGetErrorName(e_), __LINE__); exit(1); } } while (0)

enum { N1 = 4096, W = 64, H = 64, D = 8, LAYERS = 4, CUBE = 16 };

__global__ void arr1D(cudaTextureObject_t t, float *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = tex1D<float>(t, i + 0.5f);
}

__global__ void arr1DLinear(cudaTextureObject_t t, float *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = tex1D<float>(t, (i + 0.25f) / N1);
}

__global__ void point3D(cudaTextureObject_t t, float *out)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y, z = blockIdx.z;
    out[(z * H + y) * W + x] = tex3D<float>(t, x + 0.5f, y + 0.5f, z + 0.5f);
}

__global__ void linear3D(cudaTextureObject_t t, float *out)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y, z = blockIdx.z;
    out[(z * H + y) * W + x] = tex3D<float>(t, x + 0.75f, y + 0.25f, z + 0.5f);
}

__global__ void layered1D(cudaTextureObject_t t, float *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x, l = blockIdx.y;
    out[l * N1 + i] = tex1DLayered<float>(t, i + 0.5f, l);
}

__global__ void layered2D(cudaTextureObject_t t, float *out)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y, l = blockIdx.z;
    out[(l * H + y) * W + x] = tex2DLayered<float>(t, x + 0.5f, y + 0.5f, l);
}

// a 64x64 mipmapped array read at level 1 (32x32 texels, one thread each)
__global__ void mipLevel(cudaTextureObject_t t, float *out)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    out[y * 32 + x] = tex2DLod<float>(t, (x + 0.5f) / 32, (y + 0.5f) / 32, 1.0f);
}

// between levels 0 and 1: both levels' texels
__global__ void mipBetween(cudaTextureObject_t t, float *out)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    out[y * 32 + x] = tex2DLod<float>(t, (x + 0.5f) / 32, (y + 0.5f) / 32, 0.5f);
}

__global__ void mipGrad(cudaTextureObject_t t, float *out)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    out[y * 32 + x] = tex2DGrad<float>(t, (x + 0.5f) / 32, (y + 0.5f) / 32, make_float2(3.0f / W, 0),
                                       make_float2(0, 3.0f / H));
}

// the +z face of a cube map, one thread a texel
__global__ void cube(cudaTextureObject_t t, float *out)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    float u = (x + 0.5f) / CUBE * 2 - 1, v = (y + 0.5f) / CUBE * 2 - 1;
    out[y * CUBE + x] = texCubemap<float>(t, u, -v, 1.0f);
}

static cudaTextureObject_t tex_of(const cudaResourceDesc *rd, cudaTextureFilterMode f, int norm,
                                  cudaTextureFilterMode mf = cudaFilterModePoint)
{
    cudaTextureDesc td = {};
    td.addressMode[0] = td.addressMode[1] = td.addressMode[2] = cudaAddressModeClamp;
    td.filterMode = f;
    td.mipmapFilterMode = mf;
    td.maxMipmapLevelClamp = 6;
    td.readMode = cudaReadModeElementType;
    td.normalizedCoords = norm;
    cudaTextureObject_t t;
    CHECK(cudaCreateTextureObject(&t, rd, &td, NULL));
    return t;
}

static cudaArray_t array3(int w, int h, int d, unsigned flags, const float *v)
{
    cudaChannelFormatDesc cd = cudaCreateChannelDesc<float>();
    cudaArray_t a;
    CHECK(cudaMalloc3DArray(&a, &cd, make_cudaExtent(w, h, d), flags));
    cudaMemcpy3DParms p = {};
    p.srcPtr = make_cudaPitchedPtr((void *)v, w * sizeof(float), w, h ? h : 1);
    p.dstArray = a;
    p.extent = make_cudaExtent(w, h ? h : 1, d ? d : 1);
    p.kind = cudaMemcpyHostToDevice;
    CHECK(cudaMemcpy3D(&p));
    return a;
}

static cudaResourceDesc res_array(cudaArray_t a)
{
    cudaResourceDesc rd = {};
    rd.resType = cudaResourceTypeArray;
    rd.res.array.array = a;
    return rd;
}

static float *out, *h;
static void report(const char *name, int n)
{
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(h, out, n * sizeof(float), cudaMemcpyDeviceToHost));
    double s = 0;
    for (int i = 0; i < n; i++) s += h[i];
    printf("%s: sum %.4f\n", name, s);
}

int main(void)
{
    const int MAX = W * H * D > N1 * LAYERS ? W * H * D : N1 * LAYERS;
    h = (float *)malloc(MAX * sizeof(float));
    CHECK(cudaMalloc(&out, MAX * sizeof(float)));
    for (int i = 0; i < MAX; i++) h[i] = (float)(i % 97) * 0.25f;

    cudaResourceDesc r1 = res_array(array3(N1, 0, 0, 0, h));
    arr1D<<<N1 / 128, 128>>>(tex_of(&r1, cudaFilterModePoint, 0), out);
    report("arr1D", N1);
    arr1DLinear<<<N1 / 128, 128>>>(tex_of(&r1, cudaFilterModeLinear, 1), out);
    report("arr1DLinear", N1);

    cudaResourceDesc r3 = res_array(array3(W, H, D, 0, h));
    dim3 b2(32, 4), g3(W / 32, H / 4, D);
    point3D<<<g3, b2>>>(tex_of(&r3, cudaFilterModePoint, 0), out);
    report("point3D", W * H * D);
    linear3D<<<g3, b2>>>(tex_of(&r3, cudaFilterModeLinear, 0), out);
    report("linear3D", W * H * D);

    cudaResourceDesc rl1 = res_array(array3(N1, 0, LAYERS, cudaArrayLayered, h));
    layered1D<<<dim3(N1 / 128, LAYERS), 128>>>(tex_of(&rl1, cudaFilterModePoint, 0), out);
    report("layered1D", N1 * LAYERS);
    cudaResourceDesc rl2 = res_array(array3(W, H, LAYERS, cudaArrayLayered, h));
    layered2D<<<dim3(W / 32, H / 4, LAYERS), b2>>>(tex_of(&rl2, cudaFilterModePoint, 0), out);
    report("layered2D", W * H * LAYERS);

    cudaChannelFormatDesc cd = cudaCreateChannelDesc<float>();
    cudaMipmappedArray_t mm;
    CHECK(cudaMallocMipmappedArray(&mm, &cd, make_cudaExtent(W, H, 0), 7));
    for (int L = 0; L < 7; L++) {
        cudaArray_t lev;
        CHECK(cudaGetMipmappedArrayLevel(&lev, mm, L));
        int w = W >> L, hh = H >> L;
        CHECK(cudaMemcpy2DToArray(lev, 0, 0, h + L * 7, w * sizeof(float), w * sizeof(float), hh,
                                  cudaMemcpyHostToDevice));
    }
    cudaResourceDesc rm = {};
    rm.resType = cudaResourceTypeMipmappedArray;
    rm.res.mipmap.mipmap = mm;
    dim3 gm(1, 8);
    mipLevel<<<gm, b2>>>(tex_of(&rm, cudaFilterModePoint, 1), out);
    report("mipLevel", 1024);
    mipBetween<<<gm, b2>>>(tex_of(&rm, cudaFilterModeLinear, 1, cudaFilterModeLinear), out);
    report("mipBetween", 1024);
    mipGrad<<<gm, b2>>>(tex_of(&rm, cudaFilterModeLinear, 1, cudaFilterModeLinear), out);
    report("mipGrad", 1024);

    cudaResourceDesc rc = res_array(array3(CUBE, CUBE, 6, cudaArrayCubemap, h));
    cube<<<dim3(1, CUBE / 4), dim3(CUBE, 4)>>>(tex_of(&rc, cudaFilterModePoint, 1), out);
    report("cube", CUBE * CUBE);
    return 0;
}
