/* devvars.cu — what each device has of its own: a module's __device__ and __constant__
 * variables (each device's copy starts from the initialiser; a kernel, the symbol copies
 * and cudaGetSymbolAddress act on the current device's copy), while a __managed__ variable
 * is one copy every device sees; limits, flags, cache configuration and memory pools are
 * per device too. A kernel reaches another device's variables not even as its peer. */
#include "mgpu_test.h"

__device__ int counter = 5;
__device__ int table[4] = {1, 2, 3, 4};
__constant__ int scale = 3;
__managed__ int shared_total = 100;

__global__ void bump(int *out) {
    int i = threadIdx.x;
    if (i < 4) table[i] += scale * (i + 1);
    if (i == 0) {
        counter += 1;
        out[0] = counter * scale;
        atomicAdd(&shared_total, 1);
    }
}

__global__ void poke(int *p, int v) { *p = v; }

static void show_vars(int dev) {
    OK(cudaSetDevice(dev));
    int c = 0, s = 0, t[4];
    OK(cudaMemcpyFromSymbol(&c, counter, sizeof c));
    OK(cudaMemcpyFromSymbol(&s, scale, sizeof s));
    OK(cudaMemcpyFromSymbol(t, table, sizeof t));
    printf("device %d: counter %d scale %d table %d %d %d %d\n", dev, c, s, t[0], t[1], t[2], t[3]);
}

static void run_bump(int dev) {
    OK(cudaSetDevice(dev));
    int *out, h = 0;
    OK(cudaMalloc(&out, sizeof(int)));
    bump<<<1, 32>>>(out);
    OK(cudaGetLastError());
    OK(cudaMemcpy(&h, out, sizeof h, cudaMemcpyDeviceToHost));
    OK(cudaFree(out));
    printf("bump on device %d: counter * scale = %d\n", dev, h);
}

static const char *cache_name(cudaFuncCache c) {
    switch (c) {
    case cudaFuncCachePreferNone: return "PreferNone";
    case cudaFuncCachePreferShared: return "PreferShared";
    case cudaFuncCachePreferL1: return "PreferL1";
    case cudaFuncCachePreferEqual: return "PreferEqual";
    }
    return "?";
}

int main() {
    mgpu_devices();
    /* both contexts exist from here on */
    OK(cudaSetDevice(0));
    OK(cudaFree(0));
    OK(cudaSetDevice(1));
    OK(cudaFree(0));

    printf("-- module variables\n");
    show_vars(0);
    show_vars(1);
    OK(cudaSetDevice(0));
    int ten = 10;
    OK(cudaMemcpyToSymbol(scale, &ten, sizeof ten));
    run_bump(0);
    run_bump(0);
    show_vars(0);
    show_vars(1);
    run_bump(1);
    show_vars(1);
    show_vars(0);
    printf("managed total %d\n", shared_total);

    void *a0, *a1, *m0, *m1;
    OK(cudaSetDevice(0));
    OK(cudaGetSymbolAddress(&a0, counter));
    OK(cudaGetSymbolAddress(&m0, shared_total));
    OK(cudaSetDevice(1));
    OK(cudaGetSymbolAddress(&a1, counter));
    OK(cudaGetSymbolAddress(&m1, shared_total));
    printf("counter's addresses differ: %s\n", a0 != a1 ? "yes" : "no");
    printf("managed addresses differ: %s\n", m0 != m1 ? "yes" : "no");
    cudaPointerAttributes pa;
    OK(cudaPointerGetAttributes(&pa, a0));
    printf("device 0's counter: type %d device %d\n", (int)pa.type, pa.device);
    OK(cudaPointerGetAttributes(&pa, a1));
    printf("device 1's counter: type %d device %d\n", (int)pa.type, pa.device);
    size_t sz = 0;
    OK(cudaGetSymbolSize(&sz, table));
    printf("table size %zu\n", sz);

    /* a copy between the two copies */
    OK(cudaSetDevice(1));
    int seventy = 77;
    OK(cudaMemcpy(a1, &seventy, sizeof(int), cudaMemcpyHostToDevice));
    OK(cudaMemcpy(a0, a1, sizeof(int), cudaMemcpyDefault));
    show_vars(0);
    show_vars(1);

    printf("-- limits\n");
    OK(cudaSetDevice(0));
    OK(cudaDeviceSetLimit(cudaLimitStackSize, 4000));
    OK(cudaDeviceSetLimit(cudaLimitMallocHeapSize, 32 << 20));
    OK(cudaDeviceSetLimit(cudaLimitPrintfFifoSize, 2 << 20));
    OK(cudaSetDevice(1));
    OK(cudaDeviceSetLimit(cudaLimitDevRuntimePendingLaunchCount, 4096));
    for (int d = 0; d < 2; d++) {
        OK(cudaSetDevice(d));
        size_t st, hp, pf, pl;
        OK(cudaDeviceGetLimit(&st, cudaLimitStackSize));
        OK(cudaDeviceGetLimit(&hp, cudaLimitMallocHeapSize));
        OK(cudaDeviceGetLimit(&pf, cudaLimitPrintfFifoSize));
        OK(cudaDeviceGetLimit(&pl, cudaLimitDevRuntimePendingLaunchCount));
        printf("device %d: stack %zu heap %zu printf fifo %zu pending launches %zu\n", d, st, hp,
               pf, pl);
    }

    printf("-- flags\n");
    OK(cudaSetDevice(1));
    OK(cudaSetDeviceFlags(cudaDeviceScheduleBlockingSync));
    for (int d = 0; d < 2; d++) {
        OK(cudaSetDevice(d));
        unsigned f = 0;
        OK(cudaGetDeviceFlags(&f));
        printf("device %d flags 0x%x\n", d, f);
    }

    printf("-- cache configuration\n");
    OK(cudaSetDevice(0));
    OK(cudaDeviceSetCacheConfig(cudaFuncCachePreferShared));
    OK(cudaSetDevice(1));
    OK(cudaDeviceSetCacheConfig(cudaFuncCachePreferL1));
    for (int d = 0; d < 2; d++) {
        OK(cudaSetDevice(d));
        cudaFuncCache cc;
        OK(cudaDeviceGetCacheConfig(&cc));
        printf("device %d cache config %s\n", d, cache_name(cc));
    }

    printf("-- memory pools\n");
    cudaMemPool_t def0, def1, cur0, cur1, mine;
    OK(cudaDeviceGetDefaultMemPool(&def0, 0));
    OK(cudaDeviceGetDefaultMemPool(&def1, 1));
    printf("default pools differ: %s\n", def0 != def1 ? "yes" : "no");
    OK(cudaSetDevice(0));
    OK(cudaDeviceGetMemPool(&cur0, 0));
    OK(cudaDeviceGetMemPool(&cur1, 1));
    printf("current pools are the defaults: %s %s\n", cur0 == def0 ? "yes" : "no",
           cur1 == def1 ? "yes" : "no");
    cudaMemPoolProps props;
    memset(&props, 0, sizeof props);
    props.allocType = cudaMemAllocationTypePinned;
    props.location.type = cudaMemLocationTypeDevice;
    props.location.id = 1;
    OK(cudaMemPoolCreate(&mine, &props));
    SHOW("set device 0's pool to device 1's", cudaDeviceSetMemPool(0, mine));
    SHOW("set device 1's pool", cudaDeviceSetMemPool(1, mine));
    OK(cudaDeviceGetMemPool(&cur0, 0));
    OK(cudaDeviceGetMemPool(&cur1, 1));
    printf("device 0 current is its default: %s, device 1 current is the new pool: %s\n",
           cur0 == def0 ? "yes" : "no", cur1 == mine ? "yes" : "no");
    SHOW("default pool of device 2", cudaDeviceGetDefaultMemPool(&cur0, 2));
    SHOW("set pool of device -1", cudaDeviceSetMemPool(-1, mine));
    /* stream-ordered allocations come from the current device's current pool */
    for (int d = 0; d < 2; d++) {
        OK(cudaSetDevice(d));
        cudaStream_t s;
        OK(cudaStreamCreate(&s));
        int *p;
        OK(cudaMallocAsync(&p, 1 << 20, s));
        poke<<<1, 1, 0, s>>>(p, 40 + d);
        int h = 0;
        OK(cudaMemcpyAsync(&h, p, sizeof h, cudaMemcpyDeviceToHost, s));
        OK(cudaStreamSynchronize(s));
        OK(cudaPointerGetAttributes(&pa, p));
        cudaMemPool_t pools[3] = {def0, def1, mine};
        const char *names[3] = {"device 0's default", "device 1's default", "the new pool"};
        for (int i = 0; i < 3; i++) {
            size_t used = 0;
            OK(cudaMemPoolGetAttribute(pools[i], cudaMemPoolAttrUsedMemCurrent, &used));
            printf("device %d allocation (value %d, on device %d): %s uses %zu\n", d, h,
                   pa.device, names[i], used);
        }
        OK(cudaFreeAsync(p, s));
        OK(cudaStreamSynchronize(s));
        OK(cudaStreamDestroy(s));
    }
    OK(cudaSetDevice(1));
    OK(cudaDeviceSetMemPool(1, def1));
    OK(cudaMemPoolDestroy(mine));

    /* peer access reaches the peer's allocations, not its module variables: a kernel on
     * device 0 writing device 1's copy faults (last: the fault is the process's) */
    printf("-- another device's variable\n");
    OK(cudaSetDevice(0));
    OK(cudaDeviceEnablePeerAccess(1, 0));
    poke<<<1, 1>>>((int *)a1, 99);
    SHOW("device 0 writes device 1's counter", cudaDeviceSynchronize());
    printf("done\n");
    return 0;
}
