// Trilinear lookups of a 3D float array (64x64x8, clamped) whose L1TEX traffic Nsight
// Compute measured on an H100-class GPU (ncu_prof3_h200.csv beside this file): each
// kernel reads tex3D at (x + ox, y + oy, z + oz) with linear filtering over the grid of
// texture_prof2's linear3D, some with every fraction nonzero, some with one or more
// fractions zero (a weight of 0 on a slice, row or column), some with only chosen lanes
// of each warp (one lane, pairs, a quad, lanes four apart), so that the counts say how
// many sectors and cache sets one trilinear lookup and a group of lanes touch.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { \
    printf("CUDA error %s at line %d\n", cudaGetErrorName(e_), __LINE__); exit(1); } } while (0)

enum { W = 64, H = 64, D = 8 };

#define LOOKUP(name, ox, oy, oz, lanes)                                                     \
    __global__ void name(cudaTextureObject_t t, float *out)                                  \
    {                                                                                        \
        int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y; \
        int z = blockIdx.z;                                                                  \
        if (!((lanes) >> (threadIdx.x & 31) & 1u)) return;                                   \
        out[(z * H + y) * W + x] = tex3D<float>(t, x + (ox), y + (oy), z + (oz));            \
    }

LOOKUP(tri_xyz0, 0.75f, 0.25f, 0.5f, 0xffffffffu)   /* texture_prof2's linear3D */
LOOKUP(tri_xyz, 0.75f, 0.25f, 0.75f, 0xffffffffu)   /* every fraction nonzero */
LOOKUP(tri_none, 0.5f, 0.5f, 0.5f, 0xffffffffu)     /* every fraction zero */
LOOKUP(tri_x, 0.75f, 0.5f, 0.5f, 0xffffffffu)       /* x alone */
LOOKUP(tri_z, 0.5f, 0.5f, 0.75f, 0xffffffffu)       /* z alone */
LOOKUP(tri_xz, 0.75f, 0.5f, 0.75f, 0xffffffffu)     /* x and z */
LOOKUP(tri_l1, 0.75f, 0.25f, 0.75f, 0x1u)           /* lane 0 of each warp */
LOOKUP(tri_l01, 0.75f, 0.25f, 0.75f, 0x3u)          /* lanes 0, 1 */
LOOKUP(tri_l02, 0.75f, 0.25f, 0.75f, 0x5u)          /* lanes 0, 2 */
LOOKUP(tri_l04, 0.75f, 0.25f, 0.75f, 0x11u)         /* lanes 0, 4 */
LOOKUP(tri_l0123, 0.75f, 0.25f, 0.75f, 0xfu)        /* a quad */
LOOKUP(tri_l8, 0.75f, 0.25f, 0.75f, 0xffu)          /* eight lanes */
LOOKUP(tri_even, 0.75f, 0.25f, 0.75f, 0x55555555u)  /* even lanes */
LOOKUP(tri_z0_l1, 0.75f, 0.25f, 0.5f, 0x1u)         /* lane 0, slice weight 0 */
LOOKUP(tri_z0_l01, 0.75f, 0.25f, 0.5f, 0x3u)        /* lanes 0, 1, slice weight 0 */
LOOKUP(tri_z0_l02, 0.75f, 0.25f, 0.5f, 0x5u)        /* lanes 0, 2, slice weight 0 */

static float *out, *h;
static void report(const char *name)
{
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(h, out, W * H * D * sizeof(float), cudaMemcpyDeviceToHost));
    double s = 0;
    for (int i = 0; i < W * H * D; i++) s += h[i];
    printf("%s: sum %.4f\n", name, s);
}

int main(void)
{
    h = (float *)malloc(W * H * D * sizeof(float));
    CHECK(cudaMalloc(&out, W * H * D * sizeof(float)));
    for (int i = 0; i < W * H * D; i++) h[i] = (float)(i % 97) * 0.25f;
    cudaChannelFormatDesc cd = cudaCreateChannelDesc<float>();
    cudaArray_t a;
    CHECK(cudaMalloc3DArray(&a, &cd, make_cudaExtent(W, H, D), 0));
    cudaMemcpy3DParms p = {};
    p.srcPtr = make_cudaPitchedPtr((void *)h, W * sizeof(float), W, H);
    p.dstArray = a;
    p.extent = make_cudaExtent(W, H, D);
    p.kind = cudaMemcpyHostToDevice;
    CHECK(cudaMemcpy3D(&p));
    cudaResourceDesc rd = {};
    rd.resType = cudaResourceTypeArray;
    rd.res.array.array = a;
    cudaTextureDesc td = {};
    td.addressMode[0] = td.addressMode[1] = td.addressMode[2] = cudaAddressModeClamp;
    td.filterMode = cudaFilterModeLinear;
    td.readMode = cudaReadModeElementType;
    cudaTextureObject_t t;
    CHECK(cudaCreateTextureObject(&t, &rd, &td, NULL));

    dim3 b(32, 4), g(W / 32, H / 4, D);
#define RUN(k) do { CHECK(cudaMemset(out, 0, W * H * D * sizeof(float))); k<<<g, b>>>(t, out); report(#k); } while (0)
    RUN(tri_xyz0);
    RUN(tri_xyz);
    RUN(tri_none);
    RUN(tri_x);
    RUN(tri_z);
    RUN(tri_xz);
    RUN(tri_l1);
    RUN(tri_l01);
    RUN(tri_l02);
    RUN(tri_l04);
    RUN(tri_l0123);
    RUN(tri_l8);
    RUN(tri_even);
    RUN(tri_z0_l1);
    RUN(tri_z0_l01);
    RUN(tri_z0_l02);
    return 0;
}
