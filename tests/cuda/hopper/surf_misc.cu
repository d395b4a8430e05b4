// Surface reductions (sured.b: add, min, max, and, or on u32, s32, u64, s64, b32, 1D and 2D,
// 32 lanes on a few texels, .zero and .clamp out of range), istypep on texture, surface and
// other handles, and min/max.xorsign.abs on f16x2 and bf16x2.
// expected/surf_misc.out was printed by an H200.
// nvcc-flags: -arch=sm_90
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdint>

__global__ void reduce2d(cudaSurfaceObject_t s, cudaSurfaceObject_t s64) {
    int t = threadIdx.x;
    int x = (t % 4) * 4, y = t % 3;
    asm volatile("sured.b.add.2d.trap.u32 [%0, {%1, %2}], %3;" ::"l"(s), "r"(x), "r"(y), "r"(t + 1) : "memory");
    asm volatile("sured.b.min.2d.trap.s32 [%0, {%1, %2}], %3;" ::"l"(s), "r"(x + 16), "r"(y), "r"(5 - t * 3) : "memory");
    asm volatile("sured.b.max.2d.trap.u32 [%0, {%1, %2}], %3;" ::"l"(s), "r"(x + 32), "r"(y), "r"(t * 2654435761u) : "memory");
    asm volatile("sured.b.and.2d.trap.b32 [%0, {%1, %2}], %3;" ::"l"(s), "r"(x + 48), "r"(y), "r"(~(1u << t)) : "memory");
    asm volatile("sured.b.or.2d.trap.b32 [%0, {%1, %2}], %3;" ::"l"(s), "r"(x + 64), "r"(y), "r"(1u << t) : "memory");
    asm volatile("sured.b.max.2d.trap.s32 [%0, {%1, %2}], %3;" ::"l"(s), "r"(x + 80), "r"(y), "r"(t * 77 - 1000) : "memory");
    /* out of range: dropped with .zero, clamped to the edge with .clamp */
    asm volatile("sured.b.add.2d.zero.u32 [%0, {%1, %2}], %3;" ::"l"(s), "r"(4096), "r"(y), "r"(1000) : "memory");
    asm volatile("sured.b.add.2d.clamp.u32 [%0, {%1, %2}], %3;" ::"l"(s), "r"(-8), "r"(3), "r"(1) : "memory");
    asm volatile("sured.b.add.2d.trap.u64 [%0, {%1, %2}], %3;" ::"l"(s64), "r"((t % 2) * 8), "r"(0), "l"(0xffffffffull + t) : "memory");
    asm volatile("sured.b.min.2d.trap.s64 [%0, {%1, %2}], %3;" ::"l"(s64), "r"(16), "r"(0), "l"(-(long long)t * 0x100000001ll) : "memory");
}

__global__ void reduce1d(cudaSurfaceObject_t s) {
    int t = threadIdx.x;
    asm volatile("sured.b.add.1d.trap.u32 [%0, {%1}], %2;" ::"l"(s), "r"((t % 8) * 4), "r"(t) : "memory");
}

__global__ void types(unsigned long long tex, unsigned long long surf, unsigned *out) {
    unsigned long long h[4] = {tex, surf, 0, 12345};
    for (int i = 0; i < 4; i++) {
        unsigned a, b, c;
        asm("{ .reg .pred p; istypep.texref p, %3; selp.u32 %0, 1, 0, p;\n"
            "  istypep.samplerref p, %3; selp.u32 %1, 1, 0, p;\n"
            "  istypep.surfref p, %3; selp.u32 %2, 1, 0, p; }"
            : "=r"(a), "=r"(b), "=r"(c) : "l"(h[i]));
        out[i * 3] = a; out[i * 3 + 1] = b; out[i * 3 + 2] = c;
    }
}

__global__ void xorsign(const unsigned *in, unsigned *out) {
    int t = threadIdx.x;
    unsigned a = in[t], b = in[t + 32], r[4];
    asm("max.xorsign.abs.f16x2 %0, %1, %2;" : "=r"(r[0]) : "r"(a), "r"(b));
    asm("min.xorsign.abs.f16x2 %0, %1, %2;" : "=r"(r[1]) : "r"(a), "r"(b));
    asm("max.xorsign.abs.bf16x2 %0, %1, %2;" : "=r"(r[2]) : "r"(a), "r"(b));
    asm("min.NaN.xorsign.abs.bf16x2 %0, %1, %2;" : "=r"(r[3]) : "r"(a), "r"(b));
    for (int i = 0; i < 4; i++) out[t * 4 + i] = r[i];
}

int main() {
    cudaChannelFormatDesc f32 = cudaCreateChannelDesc(32, 0, 0, 0, cudaChannelFormatKindUnsigned);
    cudaChannelFormatDesc f64 = cudaCreateChannelDesc(32, 32, 0, 0, cudaChannelFormatKindUnsigned);
    cudaArray_t arr, arr64, arr1;
    cudaMallocArray(&arr, &f32, 32, 4, cudaArraySurfaceLoadStore);
    cudaMallocArray(&arr64, &f64, 4, 1, cudaArraySurfaceLoadStore);
    cudaMallocArray(&arr1, &f32, 8, 0, cudaArraySurfaceLoadStore);
    static unsigned init[32 * 4], init64[8], init1[8];
    for (int i = 0; i < 32 * 4; i++) init[i] = (i % 32) >= 12 && (i % 32) < 16 ? 0xffffffffu : (i % 32) >= 4 && (i % 32) < 8 ? 1000 : 0;
    for (int i = 0; i < 8; i++) init64[i] = 0xffffffffu, init1[i] = i;
    cudaMemcpy2DToArray(arr, 0, 0, init, 32 * 4, 32 * 4, 4, cudaMemcpyHostToDevice);
    cudaMemcpy2DToArray(arr64, 0, 0, init64, 32, 32, 1, cudaMemcpyHostToDevice);
    cudaMemcpy2DToArray(arr1, 0, 0, init1, 32, 32, 1, cudaMemcpyHostToDevice);
    cudaResourceDesc rd = {};
    rd.resType = cudaResourceTypeArray;
    cudaSurfaceObject_t s, s64, s1;
    rd.res.array.array = arr; cudaCreateSurfaceObject(&s, &rd);
    rd.res.array.array = arr64; cudaCreateSurfaceObject(&s64, &rd);
    rd.res.array.array = arr1; cudaCreateSurfaceObject(&s1, &rd);
    reduce2d<<<1, 32>>>(s, s64);
    cudaError_t e = cudaDeviceSynchronize();
    printf("sured 2d: %s\n", cudaGetErrorString(e));
    static unsigned back[32 * 4], back64[8], back1[8];
    cudaMemcpy2DFromArray(back, 32 * 4, arr, 0, 0, 32 * 4, 4, cudaMemcpyDeviceToHost);
    cudaMemcpy2DFromArray(back64, 32, arr64, 0, 0, 32, 1, cudaMemcpyDeviceToHost);
    for (int y = 0; y < 4; y++) {
        printf("  row %d:", y);
        for (int x = 0; x < 32; x++) printf("%s%08x", x % 8 ? " " : (x ? "\n        " : " "), back[y * 32 + x]);
        printf("\n");
    }
    printf("  u64:");
    for (int i = 0; i < 8; i++) printf(" %08x", back64[i]);
    printf("\n");
    reduce1d<<<1, 32>>>(s1);
    e = cudaDeviceSynchronize();
    cudaMemcpy2DFromArray(back1, 32, arr1, 0, 0, 32, 1, cudaMemcpyDeviceToHost);
    printf("sured 1d: %s\n ", cudaGetErrorString(e));
    for (int i = 0; i < 8; i++) printf(" %u", back1[i]);
    printf("\n");

    cudaTextureDesc td = {};
    td.readMode = cudaReadModeElementType;
    rd.res.array.array = arr1;
    cudaTextureObject_t tex;
    cudaCreateTextureObject(&tex, &rd, &td, NULL);
    unsigned *dq, hq[12];
    cudaMalloc(&dq, sizeof hq);
    types<<<1, 1>>>(tex, s1, dq);
    e = cudaDeviceSynchronize();
    cudaMemcpy(hq, dq, sizeof hq, cudaMemcpyDeviceToHost);
    printf("istypep: %s\n", cudaGetErrorString(e));
    static const char *names[] = {"texture object", "surface object", "0", "12345"};
    for (int i = 0; i < 4; i++) printf("  %s: texref %u samplerref %u surfref %u\n", names[i], hq[i * 3], hq[i * 3 + 1], hq[i * 3 + 2]);

    static const unsigned short hv[] = {0x3c00, 0xbc00, 0x0000, 0x8000, 0x7c00, 0xfc00, 0x7e00, 0xfe01,
                                        0x0001, 0x8001, 0x3555, 0xc000, 0x7bff, 0x0400, 0x83ff, 0x4248};
    static const unsigned short bv[] = {0x3f80, 0xbf80, 0x0000, 0x8000, 0x7f80, 0xff80, 0x7fc0, 0xffc1,
                                        0x0001, 0x8001, 0x3eab, 0xc000, 0x7f7f, 0x0080, 0x807f, 0x4049};
    unsigned xi[64], xo[128];
    for (int i = 0; i < 32; i++) {
        int j = i % 16, k = (i * 5 + 3) % 16;
        xi[i] = (unsigned)hv[j] | (unsigned)hv[k] << 16;
        xi[32 + i] = (unsigned)hv[(j + i / 16 * 3 + 1) % 16] | (unsigned)hv[(k + 7) % 16] << 16;
        if (i >= 16) { xi[i] = (unsigned)bv[j] | (unsigned)bv[k] << 16; xi[32 + i] = (unsigned)bv[(j + 4) % 16] | (unsigned)bv[(k + 9) % 16] << 16; }
    }
    unsigned *dx, *dxo;
    cudaMalloc(&dx, sizeof xi);
    cudaMalloc(&dxo, sizeof xo);
    cudaMemcpy(dx, xi, sizeof xi, cudaMemcpyHostToDevice);
    xorsign<<<1, 32>>>(dx, dxo);
    e = cudaDeviceSynchronize();
    cudaMemcpy(xo, dxo, sizeof xo, cudaMemcpyDeviceToHost);
    printf("xorsign: %s\n", cudaGetErrorString(e));
    for (int t = 0; t < 32; t++)
        printf("  %08x %08x: %08x %08x %08x %08x\n", xi[t], xi[32 + t], xo[t * 4], xo[t * 4 + 1], xo[t * 4 + 2], xo[t * 4 + 3]);
    return 0;
}
