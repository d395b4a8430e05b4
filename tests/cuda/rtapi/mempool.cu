// mempool.cu — stream-ordered allocation through memory pools: the device's default pool
// and its attributes, used and reserved memory across allocations, frees and trims, the
// release threshold, high-water marks and their reset, reuse of freed memory in stream
// order, an explicit pool (cudaMemPoolCreate, cudaMallocFromPoolAsync, access
// descriptors), the device's current pool, and the errors of bad arguments.
#include "../streams/streams_test.h"

__global__ void fill(int *p, int n, int v) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        p[i] = v + i;
}

__global__ void sum(const int *p, int n, long long *out) {
    long long s = 0;
    for (int i = 0; i < n; i++) s += p[i];
    *out = s;
}

static unsigned long long attr64(cudaMemPool_t pool, cudaMemPoolAttr a) {
    unsigned long long v = 0;
    OK(cudaMemPoolGetAttribute(pool, a, &v));
    return v;
}

static int attr32(cudaMemPool_t pool, cudaMemPoolAttr a) {
    int v = -1;
    OK(cudaMemPoolGetAttribute(pool, a, &v));
    return v;
}

static void stats(const char *when, cudaMemPool_t pool) {
    printf("%s: reserved %llu (high %llu), used %llu (high %llu)\n", when,
           attr64(pool, cudaMemPoolAttrReservedMemCurrent),
           attr64(pool, cudaMemPoolAttrReservedMemHigh),
           attr64(pool, cudaMemPoolAttrUsedMemCurrent),
           attr64(pool, cudaMemPoolAttrUsedMemHigh));
}

int main() {
    cudaStream_t s;
    OK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    int supported = 0;
    OK(cudaDeviceGetAttribute(&supported, cudaDevAttrMemoryPoolsSupported, 0));
    printf("memory pools supported: %d\n", supported);

    cudaMemPool_t pool, current;
    OK(cudaDeviceGetDefaultMemPool(&pool, 0));
    OK(cudaDeviceGetMemPool(&current, 0));
    printf("the current pool is the default pool: %d\n", pool == current);
    printf("default pool: release threshold %llu, follow event deps %d, opportunistic %d, "
           "internal deps %d\n",
           attr64(pool, cudaMemPoolAttrReleaseThreshold),
           attr32(pool, cudaMemPoolReuseFollowEventDependencies),
           attr32(pool, cudaMemPoolReuseAllowOpportunistic),
           attr32(pool, cudaMemPoolReuseAllowInternalDependencies));
    stats("at start", pool);

    // allocations in stream order, used by kernels in the same stream
    int *a = nullptr, *b = nullptr;
    long long *d_sum = nullptr, h_sum = 0;
    const int na = 1 << 18, nb = 1000;
    OK(cudaMallocAsync(&a, na * sizeof(int), s));
    OK(cudaMallocAsync(&b, nb * sizeof(int), s));
    OK(cudaMallocAsync(&d_sum, sizeof(long long), s));
    fill<<<64, 256, 0, s>>>(a, na, 1);
    fill<<<4, 256, 0, s>>>(b, nb, -5);
    sum<<<1, 1, 0, s>>>(a, na, d_sum);
    OK(cudaMemcpyAsync(&h_sum, d_sum, sizeof h_sum, cudaMemcpyDeviceToHost, s));
    OK(cudaStreamSynchronize(s));
    long long want = 0;
    for (int i = 0; i < na; i++) want += 1 + i;
    printf("sum over a pool allocation: %lld (host %lld)\n", h_sum, want);
    stats("after 3 allocations", pool);

    // freed in stream order; with a release threshold of 0 the memory goes back to the
    // device when the stream is synchronised
    OK(cudaFreeAsync(a, s));
    stats("after cudaFreeAsync(a), before synchronising", pool);
    OK(cudaStreamSynchronize(s));
    stats("after synchronising", pool);

    // keep what is freed: release threshold above everything
    unsigned long long big = ~0ull;
    OK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &big));
    printf("release threshold now %llu\n", attr64(pool, cudaMemPoolAttrReleaseThreshold));
    int *c = nullptr, *c2 = nullptr;
    OK(cudaMallocAsync(&c, 8 << 20, s));
    stats("after an 8 MiB allocation", pool);
    OK(cudaFreeAsync(c, s));
    OK(cudaStreamSynchronize(s));
    stats("after freeing it and synchronising", pool);
    OK(cudaMallocAsync(&c2, 8 << 20, s));
    printf("the same stream gets the freed memory again: %d\n", c2 == c);
    stats("after allocating 8 MiB again", pool);
    OK(cudaFreeAsync(c2, s));
    OK(cudaStreamSynchronize(s));

    // trimming releases what is not in use, down to what the call keeps
    OK(cudaMemPoolTrimTo(pool, 4 << 20));
    stats("after cudaMemPoolTrimTo(4 MiB)", pool);
    OK(cudaMemPoolTrimTo(pool, 0));
    stats("after cudaMemPoolTrimTo(0)", pool);

    // the high-water marks can be reset to 0 (to the current value)
    unsigned long long zero = 0;
    OK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReservedMemHigh, &zero));
    OK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrUsedMemHigh, &zero));
    stats("after resetting the high-water marks", pool);
    SHOW("set a nonzero high-water mark",
         cudaMemPoolSetAttribute(pool, cudaMemPoolAttrUsedMemHigh, &big));
    SHOW("set the used memory", cudaMemPoolSetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &zero));
    SHOW("cudaGetLastError", cudaGetLastError());

    OK(cudaFreeAsync(b, s));
    OK(cudaFreeAsync(d_sum, s));
    OK(cudaStreamSynchronize(s));
    stats("after freeing everything", pool);
    OK(cudaMemPoolTrimTo(pool, 0));
    stats("after trimming everything", pool);

    // an explicit pool
    cudaMemPoolProps props = {};
    props.allocType = cudaMemAllocationTypePinned;
    props.location.type = cudaMemLocationTypeDevice;
    props.location.id = 0;
    cudaMemPool_t mine;
    OK(cudaMemPoolCreate(&mine, &props));
    printf("explicit pool differs from the default: %d\n", mine != pool);
    printf("explicit pool: release threshold %llu\n",
           attr64(mine, cudaMemPoolAttrReleaseThreshold));
    cudaMemLocation loc = {};
    loc.type = cudaMemLocationTypeDevice;
    loc.id = 0;
    cudaMemAccessFlags flags = cudaMemAccessFlagsProtNone;
    OK(cudaMemPoolGetAccess(&flags, mine, &loc));
    printf("explicit pool's access from device 0: %d\n", (int)flags);
    cudaMemAccessDesc desc = {};
    desc.location = loc;
    desc.flags = cudaMemAccessFlagsProtReadWrite;
    SHOW("cudaMemPoolSetAccess device 0 read-write", cudaMemPoolSetAccess(mine, &desc, 1));
    int *e = nullptr;
    long long *e_sum = nullptr;
    OK(cudaMallocFromPoolAsync(&e, 3 << 20, mine, s));
    OK(cudaMallocFromPoolAsync(&e_sum, sizeof(long long), mine, s));
    fill<<<32, 256, 0, s>>>(e, 1000, 7);
    sum<<<1, 1, 0, s>>>(e, 1000, e_sum);
    OK(cudaMemcpyAsync(&h_sum, e_sum, sizeof h_sum, cudaMemcpyDeviceToHost, s));
    OK(cudaStreamSynchronize(s));
    printf("sum over the explicit pool's allocation: %lld\n", h_sum);
    stats("explicit pool after 2 allocations", mine);
    stats("default pool meanwhile", pool);
    cudaPointerAttributes pa;
    OK(cudaPointerGetAttributes(&pa, e));
    printf("pool allocation: type %d, device %d\n", (int)pa.type, pa.device);

    // the explicit pool as the device's current pool: cudaMallocAsync takes from it
    OK(cudaDeviceSetMemPool(0, mine));
    OK(cudaDeviceGetMemPool(&current, 0));
    printf("the current pool is the explicit pool: %d\n", current == mine);
    int *f = nullptr;
    OK(cudaMallocAsync(&f, 1 << 20, s));
    OK(cudaStreamSynchronize(s));
    stats("explicit pool after cudaMallocAsync", mine);
    OK(cudaFreeAsync(f, s));
    OK(cudaFreeAsync(e, s));
    OK(cudaFreeAsync(e_sum, s));
    OK(cudaStreamSynchronize(s));
    stats("explicit pool after freeing", mine);
    OK(cudaDeviceSetMemPool(0, pool));

    // bad arguments
    SHOW("cudaMallocAsync(NULL)", cudaMallocAsync(nullptr, 16, s));
    SHOW("cudaFreeAsync of a pointer never allocated", cudaFreeAsync((void *)0x1000, s));
    SHOW("cudaMallocFromPoolAsync(NULL pool)", cudaMallocFromPoolAsync(&e, 16, nullptr, s));
    SHOW("cudaMemPoolGetAttribute(bad attribute)",
         cudaMemPoolGetAttribute(pool, (cudaMemPoolAttr)99, &big));
    SHOW("cudaMemPoolDestroy(default pool)", cudaMemPoolDestroy(pool));
    SHOW("cudaMemPoolDestroy(explicit pool)", cudaMemPoolDestroy(mine));
    SHOW("cudaGetLastError", cudaGetLastError());
    SHOW("cudaDeviceSynchronize", cudaDeviceSynchronize());
    OK(cudaStreamDestroy(s));
    return 0;
}
