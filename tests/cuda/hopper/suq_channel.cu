// suq.channel_order / suq.channel_data_type on surface objects and txq.channel_order /
// txq.channel_data_type on texture objects, for arrays of 1, 2 and 4 channels of 8, 16 and
// 32 bits (signed, unsigned, float), textures read as elements and as normalized floats, and
// a texture over linear memory. expected/suq_channel.out was printed by an H200.
// nvcc-flags: -arch=sm_90
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdint>
#include <cstring>

__global__ void query(unsigned long long surf, unsigned long long tex, int *out) {
    int a = -1, b = -1, c = -1, d = -1;
    if (surf) {
        asm volatile("suq.channel_order.b32 %0, [%1];" : "=r"(a) : "l"(surf));
        asm volatile("suq.channel_data_type.b32 %0, [%1];" : "=r"(b) : "l"(surf));
    }
    if (tex) {
        asm volatile("txq.channel_order.b32 %0, [%1];" : "=r"(c) : "l"(tex));
        asm volatile("txq.channel_data_type.b32 %0, [%1];" : "=r"(d) : "l"(tex));
    }
    out[0] = a; out[1] = b; out[2] = c; out[3] = d;
}

int main() {
    int *dout, h[4];
    cudaMalloc(&dout, 16);
    static const char *kinds[3] = {"signed", "unsigned", "float"};
    for (int kind = 0; kind < 3; kind++)
        for (int bits = 8; bits <= 32; bits *= 2)
            for (int nc = 1; nc <= 4; nc *= 2) {
                if (kind == 2 && bits == 8) continue;
                cudaChannelFormatKind k = kind == 0 ? cudaChannelFormatKindSigned : kind == 1 ? cudaChannelFormatKindUnsigned : cudaChannelFormatKindFloat;
                cudaChannelFormatDesc f = cudaCreateChannelDesc(bits, nc > 1 ? bits : 0, nc > 2 ? bits : 0, nc > 2 ? bits : 0, k);
                cudaArray_t arr;
                cudaError_t e = cudaMallocArray(&arr, &f, 16, 4, cudaArraySurfaceLoadStore);
                if (e != cudaSuccess) { printf("%s %d x%d: %s\n", kinds[kind], bits, nc, cudaGetErrorString(e)); continue; }
                cudaResourceDesc rd;
                memset(&rd, 0, sizeof rd);
                rd.resType = cudaResourceTypeArray;
                rd.res.array.array = arr;
                cudaSurfaceObject_t s = 0;
                cudaCreateSurfaceObject(&s, &rd);
                for (int norm = 0; norm < (kind < 2 && bits < 32 ? 2 : 1); norm++) {
                    cudaTextureDesc td;
                    memset(&td, 0, sizeof td);
                    td.readMode = norm ? cudaReadModeNormalizedFloat : cudaReadModeElementType;
                    cudaTextureObject_t t = 0;
                    cudaCreateTextureObject(&t, &rd, &td, nullptr);
                    query<<<1, 1>>>(s, t, dout);
                    e = cudaDeviceSynchronize();
                    cudaMemcpy(h, dout, sizeof h, cudaMemcpyDeviceToHost);
                    printf("%-8s %2d x%d%s: %s, suq order %d type %d, txq order %d type %d\n", kinds[kind], bits, nc,
                           norm ? " (normalized)" : "", cudaGetErrorString(e), h[0], h[1], h[2], h[3]);
                    cudaDestroyTextureObject(t);
                }
                cudaDestroySurfaceObject(s);
                cudaFreeArray(arr);
            }
    // a texture over linear memory (float4) and over 2D pitched memory (uchar2, normalized)
    void *lin;
    size_t pitch;
    cudaMalloc(&lin, 4096);
    for (int i = 0; i < 2; i++) {
        cudaResourceDesc rd;
        memset(&rd, 0, sizeof rd);
        cudaTextureDesc td;
        memset(&td, 0, sizeof td);
        if (i == 0) {
            rd.resType = cudaResourceTypeLinear;
            rd.res.linear.devPtr = lin;
            rd.res.linear.desc = cudaCreateChannelDesc<float4>();
            rd.res.linear.sizeInBytes = 4096;
        } else {
            void *p2;
            cudaMallocPitch(&p2, &pitch, 64, 8);
            rd.resType = cudaResourceTypePitch2D;
            rd.res.pitch2D.devPtr = p2;
            rd.res.pitch2D.desc = cudaCreateChannelDesc<uchar2>();
            rd.res.pitch2D.width = 32;
            rd.res.pitch2D.height = 8;
            rd.res.pitch2D.pitchInBytes = pitch;
            td.readMode = cudaReadModeNormalizedFloat;
        }
        cudaTextureObject_t t = 0;
        cudaError_t e = cudaCreateTextureObject(&t, &rd, &td, nullptr);
        query<<<1, 1>>>(0, t, dout);
        cudaError_t e2 = cudaDeviceSynchronize();
        cudaMemcpy(h, dout, sizeof h, cudaMemcpyDeviceToHost);
        printf("%s: %s, %s, txq order %d type %d\n", i ? "pitch2D uchar2 (normalized)" : "linear float4",
               cudaGetErrorString(e), cudaGetErrorString(e2), h[2], h[3]);
    }
    return 0;
}
