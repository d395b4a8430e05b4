/* symbols.cu — __device__/__constant__ variables through the symbol calls. */
#include "probe.h"

__device__ int dv[4];
__constant__ float cv[8];
__device__ int dv_init[3] = {10, 20, 30};
int host_var[4];
__managed__ int mcount = 5;

__global__ void k_use(int *out) {
    out[threadIdx.x] = dv[threadIdx.x] + (int)cv[threadIdx.x] + dv_init[threadIdx.x % 3];
    dv[threadIdx.x] += 100;
    if (threadIdx.x == 0) mcount += 1;
}

int main() {
    int src[8] = {1, 2, 3, 4, 5, 6, 7, 8}, back[8] = {0};
    float fsrc[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    SHOW("ToSymbol dv", cudaMemcpyToSymbol(dv, src, 16));
    SHOW("ToSymbol dv size 17", cudaMemcpyToSymbol(dv, src, 17));
    SHOW_LAST("  last");
    SHOW("ToSymbol dv offset 8 size 8", cudaMemcpyToSymbol(dv, src, 8, 8));
    SHOW("ToSymbol dv offset 8 size 12", cudaMemcpyToSymbol(dv, src, 12, 8));
    SHOW("ToSymbol dv offset 16 size 0", cudaMemcpyToSymbol(dv, src, 0, 16));
    SHOW("ToSymbol dv offset 17 size 0", cudaMemcpyToSymbol(dv, src, 0, 17));
    SHOW("ToSymbol cv", cudaMemcpyToSymbol(cv, fsrc, sizeof fsrc));
    SHOW("ToSymbol host_var", cudaMemcpyToSymbol(host_var, src, 16));
    SHOW_LAST("  last");
    SHOW("ToSymbol NULL", cudaMemcpyToSymbol((const void *)nullptr, src, 16));
    SHOW("ToSymbol kind D2H", cudaMemcpyToSymbol(dv, src, 16, 0, cudaMemcpyDeviceToHost));
    SHOW_LAST("  last");
    SHOW("ToSymbol kind Default", cudaMemcpyToSymbol(dv, src, 16, 0, cudaMemcpyDefault));
    int *dbuf = nullptr;
    cudaMalloc(&dbuf, 64);
    cudaMemcpy(dbuf, src, 32, cudaMemcpyHostToDevice);
    SHOW("ToSymbol kind D2D", cudaMemcpyToSymbol(dv, dbuf, 16, 0, cudaMemcpyDeviceToDevice));
    SHOW("FromSymbol dv", cudaMemcpyFromSymbol(back, dv, 16));
    printf("dv = %d %d %d %d\n", back[0], back[1], back[2], back[3]);
    SHOW("FromSymbol dv_init", cudaMemcpyFromSymbol(back, dv_init, 12));
    printf("dv_init = %d %d %d\n", back[0], back[1], back[2]);
    SHOW("FromSymbol offset 4", cudaMemcpyFromSymbol(back, dv_init, 8, 4));
    printf("dv_init+1 = %d %d\n", back[0], back[1]);
    SHOW("FromSymbol too big", cudaMemcpyFromSymbol(back, dv_init, 16));
    SHOW("FromSymbol kind H2D", cudaMemcpyFromSymbol(back, dv, 16, 0, cudaMemcpyHostToDevice));
    SHOW("FromSymbol host_var", cudaMemcpyFromSymbol(back, host_var, 16));
    SHOW("ToSymbolAsync", cudaMemcpyToSymbolAsync(dv, src, 16, 0, cudaMemcpyHostToDevice, 0));
    SHOW("FromSymbolAsync", cudaMemcpyFromSymbolAsync(back, dv, 16, 0, cudaMemcpyDeviceToHost, 0));
    SHOW("ToSymbolAsync too big", cudaMemcpyToSymbolAsync(dv, src, 20, 0, cudaMemcpyHostToDevice, 0));
    cudaDeviceSynchronize();

    void *addr = nullptr;
    size_t size = 0;
    SHOW("GetSymbolAddress dv", cudaGetSymbolAddress(&addr, dv));
    SHOW("GetSymbolSize dv", cudaGetSymbolSize(&size, dv));
    printf("size %zu\n", size);
    SHOW("GetSymbolSize cv", cudaGetSymbolSize(&size, cv));
    printf("size %zu\n", size);
    SHOW("GetSymbolAddress host_var", cudaGetSymbolAddress(&addr, host_var));
    SHOW("GetSymbolSize host_var", cudaGetSymbolSize(&size, host_var));
    /* cudaGetSymbolAddress(nullptr, dv) crashes CUDA's own runtime: not probed. */
    void *caddr = nullptr;
    SHOW("GetSymbolAddress cv", cudaGetSymbolAddress(&caddr, cv));
    cudaPointerAttributes pa;
    SHOW("attributes of dv", cudaPointerGetAttributes(&pa, addr));
    printf("type %d\n", (int)pa.type);
    SHOW("attributes of cv", cudaPointerGetAttributes(&pa, caddr));
    printf("type %d\n", (int)pa.type);
    SHOW("memcpy D2H from symbol address", cudaMemcpy(back, addr, 16, cudaMemcpyDeviceToHost));
    printf("dv = %d %d %d %d\n", back[0], back[1], back[2], back[3]);
    SHOW("memcpy H2D to const address", cudaMemcpy(caddr, fsrc, 4, cudaMemcpyHostToDevice));
    SHOW("memcpy past symbol end", cudaMemcpy(back, addr, 20, cudaMemcpyDeviceToHost));

    k_use<<<1, 4>>>(dbuf);
    SHOW("sync", cudaDeviceSynchronize());
    cudaMemcpy(back, dbuf, 16, cudaMemcpyDeviceToHost);
    printf("out = %d %d %d %d\n", back[0], back[1], back[2], back[3]);
    cudaMemcpyFromSymbol(back, dv, 16);
    printf("dv = %d %d %d %d\n", back[0], back[1], back[2], back[3]);
    printf("mcount = %d\n", mcount);
    mcount = 40;
    k_use<<<1, 4>>>(dbuf);
    cudaDeviceSynchronize();
    printf("mcount = %d\n", mcount);
    void *maddr = nullptr;
    SHOW("GetSymbolAddress mcount", cudaGetSymbolAddress(&maddr, mcount));
    printf("managed address is host address: %d\n", maddr == (void *)&mcount);
    SHOW("attributes of mcount", cudaPointerGetAttributes(&pa, maddr));
    printf("type %d\n", (int)pa.type);
    SHOW_LAST("end");
    return 0;
}
