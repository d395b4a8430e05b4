// tests/driver/vmm.cu — virtual memory management as the vectorAddMMAP and memMapIPC
// programs use it: the granularity, a reservation holding two physical allocations side
// by side (a kernel and a copy crossing from one into the other), one allocation mapped
// at two addresses (a write through one is read through the other), the access query,
// the handle taken back from an address and its properties, a POSIX descriptor exported
// and imported again, and the errors of misaligned sizes, overlapping maps, partial
// unmaps, cudaFree of mapped memory and a release of a released handle.
#include <cuda.h>
#include <cuda_runtime.h>
#include <stdio.h>
#include <unistd.h>

static void show(const char *what, CUresult r) {
    const char *name = NULL;
    cuGetErrorName(r, &name);
    printf("%s: %s\n", what, name ? name : "?");
}

__global__ void fill(int *p, size_t n, int base) {
    for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        p[i] = base + (int)(i % 1000);
}

__global__ void sum(const int *p, size_t n, unsigned long long *out) {
    unsigned long long s = 0;
    for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        s += (unsigned)p[i];
    atomicAdd(out, s);
}

int main() {
    cuInit(0);
    CUdevice dev;
    cuDeviceGet(&dev, 0);
    CUcontext ctx;
    cuDevicePrimaryCtxRetain(&ctx, dev);
    cuCtxSetCurrent(ctx);
    int vmm = 0, fd_ok = 0;
    cuDeviceGetAttribute(&vmm, CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED, dev);
    cuDeviceGetAttribute(&fd_ok, CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR_SUPPORTED, dev);
    printf("virtual memory management %d, POSIX descriptors %d\n", vmm, fd_ok);

    CUmemAllocationProp prop = {};
    prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
    prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    prop.location.id = dev;
    prop.requestedHandleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
    size_t gmin = 0, grec = 0;
    show("granularity", cuMemGetAllocationGranularity(&gmin, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM));
    cuMemGetAllocationGranularity(&grec, &prop, CU_MEM_ALLOC_GRANULARITY_RECOMMENDED);
    printf("minimum %zu, recommended %zu\n", gmin, grec);
    CUmemAllocationProp bad = prop;
    bad.location.id = 7;
    show("granularity of device 7", cuMemGetAllocationGranularity(&gmin, &bad, CU_MEM_ALLOC_GRANULARITY_MINIMUM));

    size_t g = gmin, size = 2 * g;
    CUmemGenericAllocationHandle h1, h2, odd;
    show("create of half a granule", cuMemCreate(&odd, g / 2, &prop, 0));
    show("create 1", cuMemCreate(&h1, size, &prop, 0));
    show("create 2", cuMemCreate(&h2, size, &prop, 0));
    CUdeviceptr va, alias;
    show("reserve of half a granule", cuMemAddressReserve(&va, g / 2, 0, 0, 0));
    show("reserve", cuMemAddressReserve(&va, 2 * size, 0, 0, 0));
    show("reserve alias", cuMemAddressReserve(&alias, size, 0, 0, 0));
    printf("aligned to the granularity: %d %d\n", (int)(va % g == 0), (int)(alias % g == 0));
    show("map 1", cuMemMap(va, size, 0, h1, 0));
    show("map 2", cuMemMap(va + size, size, 0, h2, 0));
    show("map over map 1", cuMemMap(va, g, 0, h2, 0));
    show("map 1 again, elsewhere", cuMemMap(alias, size, 0, h1, 0));
    show("release 1 (mapped)", cuMemRelease(h1));
    show("release 2 (mapped)", cuMemRelease(h2));

    CUmemAccessDesc acc = {};
    acc.location = prop.location;
    acc.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
    unsigned long long flags = 99;
    show("access query before", cuMemGetAccess(&flags, &prop.location, va));
    printf("flags %llu\n", flags);
    show("set access", cuMemSetAccess(va, 2 * size, &acc, 1));
    show("set access alias", cuMemSetAccess(alias, size, &acc, 1));
    show("access query after", cuMemGetAccess(&flags, &prop.location, va + size));
    printf("flags %llu\n", flags);

    size_t n = 2 * size / sizeof(int);
    int *p = (int *)va;
    fill<<<64, 256>>>(p, n, 5);
    printf("fill across both: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
    unsigned long long *d_sum, h_sum = 0;
    cudaMalloc(&d_sum, sizeof *d_sum);
    cudaMemset(d_sum, 0, sizeof *d_sum);
    sum<<<64, 256>>>(p, n, d_sum);
    cudaMemcpy(&h_sum, d_sum, sizeof h_sum, cudaMemcpyDeviceToHost);
    printf("sum %llu\n", h_sum);
    int probe[2] = {0, 0};
    show("copy crossing the seam", cuMemcpyDtoH(probe, va + size - sizeof(int), sizeof probe));
    printf("at the seam %d %d\n", probe[0], probe[1]);
    int v = 0;
    cuMemcpyDtoH(&v, alias + 40 * sizeof(int), sizeof v);
    printf("through the alias %d\n", v);
    fill<<<8, 128>>>((int *)alias, size / sizeof(int), 7000);
    cudaDeviceSynchronize();
    cudaMemcpy(&v, p + 40, sizeof v, cudaMemcpyDeviceToHost);
    printf("written through the alias, read through the first %d\n", v);

    cudaPointerAttributes pa;
    cudaError_t e = cudaPointerGetAttributes(&pa, p + 3);
    printf("pointer attributes: %s, type %d, device %d\n", cudaGetErrorString(e), (int)pa.type,
           pa.device);
    e = cudaFree(p);
    printf("cudaFree of mapped memory: %s\n", cudaGetErrorName(e));
    cudaGetLastError();

    CUmemGenericAllocationHandle back;
    show("retain from address", cuMemRetainAllocationHandle(&back, (void *)(va + size + 64)));
    printf("same handle: %d\n", (int)(back == h2));
    CUmemAllocationProp got = {};
    show("properties", cuMemGetAllocationPropertiesFromHandle(&got, back));
    printf("type %d, location %d/%d, handle types %d\n", (int)got.type, (int)got.location.type,
           got.location.id, (int)got.requestedHandleTypes);
    int fd = -1;
    show("export", cuMemExportToShareableHandle(&fd, back, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0));
    CUmemGenericAllocationHandle imported;
    show("import", cuMemImportFromShareableHandle(&imported, (void *)(intptr_t)fd,
                                                  CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR));
    close(fd);
    CUdeviceptr third;
    cuMemAddressReserve(&third, size, 0, 0, 0);
    show("map imported", cuMemMap(third, size, 0, imported, 0));
    cuMemSetAccess(third, size, &acc, 1);
    cuMemcpyDtoH(&v, third + 4, sizeof v);
    printf("imported sees %d\n", v);
    show("release retained", cuMemRelease(back));
    show("release imported", cuMemRelease(imported));

    show("unmap half of map 1", cuMemUnmap(va, g));
    show("unmap both", cuMemUnmap(va, 2 * size));
    show("copy after unmap", cuMemcpyDtoH(&v, va, sizeof v));
    show("unmap alias", cuMemUnmap(alias, size));
    show("unmap imported", cuMemUnmap(third, size));
    show("free reservation", cuMemAddressFree(va, 2 * size));
    show("free alias reservation", cuMemAddressFree(alias, size));
    show("free third", cuMemAddressFree(third, size));
    show("release again", cuMemRelease(h1));
    cudaFree(d_sum);
    return 0;
}
