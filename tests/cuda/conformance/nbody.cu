// An all-pairs n-body step as GPU Gems 3 writes it: positions and masses in float4, the
// bodies staged tile by tile in shared memory, softened gravity, leapfrog integration over
// several steps; energies and a few bodies printed. The inverse distance uses
// 1.0f / sqrtf (correctly rounded), not rsqrtf.
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("%s:%d %s -> %s\n", __FILE__, __LINE__, #x, cudaGetErrorName(e_)); exit(1); } } while (0)

#define TILE 128
#define EPS2 0.01f

__device__ float3 interact(float4 bi, float4 bj, float3 a)
{
    float3 r = make_float3(bj.x - bi.x, bj.y - bi.y, bj.z - bi.z);
    float d2 = r.x * r.x + r.y * r.y + r.z * r.z + EPS2;
    float inv = 1.0f / sqrtf(d2);
    float s = bj.w * inv * inv * inv;
    a.x += r.x * s;
    a.y += r.y * s;
    a.z += r.z * s;
    return a;
}

__global__ void accel(const float4 *pos, float3 *acc, int n)
{
    __shared__ float4 sh[TILE];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float4 me = i < n ? pos[i] : make_float4(0, 0, 0, 0);
    float3 a = make_float3(0, 0, 0);
    for (int t = 0; t < (n + TILE - 1) / TILE; t++) {
        int j = t * TILE + threadIdx.x;
        sh[threadIdx.x] = j < n ? pos[j] : make_float4(0, 0, 0, 0);
        __syncthreads();
#pragma unroll 8
        for (int k = 0; k < TILE; k++) a = interact(me, sh[k], a);
        __syncthreads();
    }
    if (i < n) acc[i] = a;
}

__global__ void integrate(float4 *pos, float4 *vel, const float3 *acc, int n, float dt)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float4 v = vel[i], p = pos[i];
    float3 a = acc[i];
    v.x += a.x * dt; v.y += a.y * dt; v.z += a.z * dt;
    p.x += v.x * dt; p.y += v.y * dt; p.z += v.z * dt;
    vel[i] = v;
    pos[i] = p;
}

int main()
{
    const int n = 1024, steps = 10;
    float4 *hp = (float4 *)malloc(n * sizeof(float4)), *hv = (float4 *)malloc(n * sizeof(float4));
    unsigned s = 7;
    auto rnd = [&]() { s = s * 1103515245u + 12345u; return (float)((s >> 8) & 0xffff) / 65536.0f - 0.5f; };
    for (int i = 0; i < n; i++) {
        hp[i] = make_float4(rnd() * 10, rnd() * 10, rnd() * 10, 0.5f + rnd() * 0.5f);
        hv[i] = make_float4(rnd() * 0.1f, rnd() * 0.1f, rnd() * 0.1f, 0);
    }
    float4 *dp, *dv;
    float3 *da;
    CK(cudaMalloc(&dp, n * sizeof(float4)));
    CK(cudaMalloc(&dv, n * sizeof(float4)));
    CK(cudaMalloc(&da, n * sizeof(float3)));
    CK(cudaMemcpy(dp, hp, n * sizeof(float4), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dv, hv, n * sizeof(float4), cudaMemcpyHostToDevice));
    for (int st = 0; st < steps; st++) {
        accel<<<n / TILE, TILE>>>(dp, da, n);
        integrate<<<n / 256, 256>>>(dp, dv, da, n, 0.01f);
    }
    CK(cudaGetLastError());
    CK(cudaMemcpy(hp, dp, n * sizeof(float4), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(hv, dv, n * sizeof(float4), cudaMemcpyDeviceToHost));
    double ke = 0, px = 0, py = 0, pz = 0;
    for (int i = 0; i < n; i++) {
        ke += 0.5 * hp[i].w * (hv[i].x * hv[i].x + hv[i].y * hv[i].y + hv[i].z * hv[i].z);
        px += hp[i].w * hv[i].x; py += hp[i].w * hv[i].y; pz += hp[i].w * hv[i].z;
    }
    printf("kinetic energy %.9e momentum %.6e %.6e %.6e\n", ke, px, py, pz);
    for (int i = 0; i < n; i += 255)
        printf("body %4d: pos %.8f %.8f %.8f vel %.8f %.8f %.8f\n", i, hp[i].x, hp[i].y, hp[i].z, hv[i].x, hv[i].y, hv[i].z);
    CK(cudaFree(dp)); CK(cudaFree(dv)); CK(cudaFree(da));
    return 0;
}
