// txq on texture objects: a kernel querying a 2D array's, a 3D array's, linear memory's
// and pitched memory's texture object. On the GPU (CUDA 13, driver 580) such a kernel
// does not load: its first launch fails with cudaErrorSymbolNotFound, later ones with
// cudaErrorUnknown, and nothing is written.
#include "common_tex.h"

__global__ void query(cudaTextureObject_t t, int *out)
{
    int v;
    asm("txq.width.b32 %0, [%1];" : "=r"(v) : "l"(t)); out[0] = v;
    asm("txq.height.b32 %0, [%1];" : "=r"(v) : "l"(t)); out[1] = v;
    asm("txq.depth.b32 %0, [%1];" : "=r"(v) : "l"(t)); out[2] = v;
    asm("txq.normalized_coords.b32 %0, [%1];" : "=r"(v) : "l"(t)); out[3] = v;
    asm("txq.filter_mode.b32 %0, [%1];" : "=r"(v) : "l"(t)); out[4] = v;
    asm("txq.addr_mode_0.b32 %0, [%1];" : "=r"(v) : "l"(t)); out[5] = v;
    asm("txq.addr_mode_1.b32 %0, [%1];" : "=r"(v) : "l"(t)); out[6] = v;
    asm("txq.num_mipmap_levels.b32 %0, [%1];" : "=r"(v) : "l"(t)); out[7] = v;
}

int main()
{
    cudaChannelFormatDesc fd = cudaCreateChannelDesc<float>();
    cudaArray_t a2, a3;
    CHECK(cudaMallocArray(&a2, &fd, 5, 4));
    CHECK(cudaMalloc3DArray(&a3, &fd, make_cudaExtent(4, 3, 2)));
    float *lin, *pitched;
    size_t pitch;
    CHECK(cudaMalloc(&lin, 640));
    CHECK(cudaMallocPitch(&pitched, &pitch, 5 * sizeof(float), 4));
    cudaResourceDesc r[4] = {};
    r[0].resType = cudaResourceTypeArray;
    r[0].res.array.array = a2;
    r[1].resType = cudaResourceTypeArray;
    r[1].res.array.array = a3;
    r[2].resType = cudaResourceTypeLinear;
    r[2].res.linear.devPtr = lin;
    r[2].res.linear.desc = cudaCreateChannelDesc<float4>();
    r[2].res.linear.sizeInBytes = 640;
    r[3].resType = cudaResourceTypePitch2D;
    r[3].res.pitch2D.devPtr = pitched;
    r[3].res.pitch2D.desc = fd;
    r[3].res.pitch2D.width = 5;
    r[3].res.pitch2D.height = 4;
    r[3].res.pitch2D.pitchInBytes = pitch;
    cudaTextureDesc td[4] = {};
    td[0].addressMode[0] = td[0].addressMode[1] = cudaAddressModeMirror;
    td[0].filterMode = cudaFilterModeLinear;
    td[0].normalizedCoords = 1;
    td[1].addressMode[0] = td[1].addressMode[1] = td[1].addressMode[2] = cudaAddressModeClamp;
    td[3].addressMode[0] = td[3].addressMode[1] = cudaAddressModeClamp;
    int *oi, q[8];
    CHECK(cudaMalloc(&oi, sizeof q));
    for (int k = 0; k < 4; k++) {
        cudaTextureObject_t t;
        CHECK(cudaCreateTextureObject(&t, &r[k], &td[k], NULL));
        CHECK(cudaMemset(oi, 0xff, sizeof q));
        query<<<1, 1>>>(t, oi);
        printf("txq %d launch: %s\n", k, cudaGetErrorName(cudaGetLastError()));
        CHECK(cudaMemcpy(q, oi, sizeof q, cudaMemcpyDeviceToHost));
        printf("txq %d: width=%d height=%d depth=%d normalized=%d filter=%d addr0=%d addr1=%d levels=%d\n",
               k, q[0], q[1], q[2], q[3], q[4], q[5], q[6], q[7]);
    }
    return 0;
}
