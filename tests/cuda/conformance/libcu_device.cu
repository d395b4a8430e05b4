// libcu++ device pieces and warp intrinsics in divergent code: cuda::barrier with arrive /
// wait / arrive_and_wait / arrive_and_drop (and the phase tokens), a block-scope
// cuda::pipeline of several stages fed by cuda::memcpy_async (producer/consumer roles),
// cuda::atomic_ref and cuda::std::atomic with memory orders and thread scopes (fetch_*,
// exchange, compare_exchange, wait-free flags), cuda::std::array / tuple / complex /
// numeric_limits / bit functions, __nanosleep, __reduce_{add,min,max,and,or,xor}_sync,
// __match_any_sync / __match_all_sync and __activemask in divergent branches.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cooperative_groups.h>
#include <cuda/barrier>
#include <cuda/pipeline>
#include <cuda/atomic>
#include <cuda/std/array>
#include <cuda/std/tuple>
#include <cuda/std/complex>
#include <cuda/std/limits>
#include <cuda/std/bit>
#include <cuda_runtime.h>

#pragma nv_diag_suppress static_var_with_dynamic_init
namespace cg = cooperative_groups;

#define CHECK(call) do { cudaError_t e = (call); if (e != cudaSuccess) { \
    printf("CUDA error %s at line %d\n", cudaGetErrorName(e), __LINE__); exit(1); } } while (0)

#define THREADS 128

static unsigned long long hashWords(const unsigned *w, size_t n)
{
    unsigned long long h = 1469598103934665603ull;
    for (size_t i = 0; i < n; i++) { h ^= w[i]; h *= 1099511628211ull; }
    return h;
}

static void show(const char *name, const unsigned *w, size_t n, size_t first)
{
    printf("%-18s hash=%016llx", name, hashWords(w, n));
    for (size_t i = 0; i < first && i < n; i++) printf(" %x", w[i]);
    printf("\n");
}

// cuda::barrier: phases with arrive + wait, arrive_and_wait, and arrive_and_drop by
// the upper half of the block (the expected count shrinks for later phases).
__global__ void barrierKernel(unsigned *out)
{
    using barrier_t = cuda::barrier<cuda::thread_scope_block>;
    __shared__ barrier_t bar;
    __shared__ int data[THREADS];
    __shared__ int sums[8];
    unsigned tid = threadIdx.x;
    if (tid == 0) init(&bar, blockDim.x);
    __syncthreads();
    data[tid] = (int)(tid * 37 % 101);
    barrier_t::arrival_token tok = bar.arrive();
    int mine = data[tid];                 // own slot, no wait needed
    bar.wait(cuda::std::move(tok));
    int left = data[(tid + THREADS - 1) % THREADS];
    bar.arrive_and_wait();
    data[tid] = left * 2 + mine;
    bar.arrive_and_wait();
    int phase2 = data[(tid + 5) % THREADS];
    if (tid >= THREADS / 2) {
        bar.arrive_and_drop();            // leaves: later phases expect half the threads
        out[tid] = (unsigned)phase2;
        return;
    }
    for (int round = 0; round < 4; round++) {
        if (tid < 8) sums[tid] = round;
        bar.arrive_and_wait();
        if (tid < 8) atomicAdd(&sums[tid], data[tid * 8 + round]);
        bar.arrive_and_wait();
        phase2 += sums[tid % 8];
        bar.arrive_and_wait();
    }
    out[tid] = (unsigned)phase2;
}

// A four-stage pipeline: the first warp produces (copies tiles in), the others consume.
#define STAGES 4
#define TILE 64
__global__ void pipelineKernel(const int *in, unsigned *out, int tiles)
{
    __shared__ int buf[STAGES][TILE];
    __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, STAGES> state;
    cg::thread_block block = cg::this_thread_block();
    unsigned tid = block.thread_rank();
    const int producers = 32;
    const auto role = tid < producers ? cuda::pipeline_role::producer : cuda::pipeline_role::consumer;
    auto pipe = cuda::make_pipeline(block, &state, role);
    unsigned acc = 0;
    if (role == cuda::pipeline_role::producer) {
        for (int t = 0; t < tiles; t++) {
            pipe.producer_acquire();
            for (int i = tid; i < TILE; i += producers)
                cuda::memcpy_async(&buf[t % STAGES][i], &in[t * TILE + i], sizeof(int), pipe);
            pipe.producer_commit();
        }
    } else {
        unsigned c = tid - producers, nc = block.size() - producers;
        for (int t = 0; t < tiles; t++) {
            pipe.consumer_wait();
            for (unsigned i = c; i < TILE; i += nc) acc = acc * 33 + (unsigned)buf[t % STAGES][i] + t;
            pipe.consumer_release();
        }
    }
    out[tid] = acc;
}

// The unified pipeline in one thread's hands: cuda::make_pipeline() of thread scope, with
// several batches in flight and cuda::pipeline_consumer_wait_prior.
__global__ void threadPipelineKernel(const int *in, unsigned *out)
{
    __shared__ int s[THREADS * 4];
    unsigned tid = threadIdx.x;
    cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
    for (int k = 0; k < 4; k++) {
        pipe.producer_acquire();
        cuda::memcpy_async(&s[k * THREADS + tid], &in[k * THREADS + (tid * 5) % THREADS],
                           sizeof(int), pipe);
        pipe.producer_commit();
    }
    unsigned acc = 0;
    cuda::pipeline_consumer_wait_prior<3>(pipe);
    acc += s[tid];
    pipe.consumer_release();
    pipe.consumer_wait();
    acc = acc * 3 + s[THREADS + tid];
    pipe.consumer_release();
    pipe.consumer_wait();
    acc = acc * 3 + s[2 * THREADS + tid];
    pipe.consumer_release();
    pipe.consumer_wait();
    acc = acc * 3 + s[3 * THREADS + tid];
    pipe.consumer_release();
    out[tid] = acc;
}

// Atomics through cuda::atomic_ref and cuda::std::atomic / cuda::atomic.
__device__ cuda::atomic<int, cuda::thread_scope_device> gCounter;
__device__ cuda::std::atomic<unsigned long long> gMask;
__device__ cuda::atomic<float, cuda::thread_scope_device> gFloat;

__global__ void atomicKernel(int *cells, unsigned *out, int *flag, int *payload)
{
    unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;
    cuda::atomic_ref<int, cuda::thread_scope_device> c0(cells[0]);
    cuda::atomic_ref<int, cuda::thread_scope_device> c1(cells[1]);
    cuda::atomic_ref<int, cuda::thread_scope_system> c2(cells[2]);
    cuda::atomic_ref<int, cuda::thread_scope_device> c3(cells[3]);
    cuda::atomic_ref<unsigned, cuda::thread_scope_device> c4(*(unsigned *)&cells[4]);
    c0.fetch_add(1, cuda::std::memory_order_relaxed);
    c1.fetch_max((int)(gid * 2654435761u % 9973), cuda::std::memory_order_acq_rel);
    c2.fetch_min(-(int)(gid % 777), cuda::std::memory_order_seq_cst);
    c3.fetch_xor((int)(gid * 0x9e3779b9u), cuda::std::memory_order_release);
    c4.fetch_or(1u << (gid % 32), cuda::std::memory_order_relaxed);
    cuda::atomic_ref<unsigned, cuda::thread_scope_device> c8(*(unsigned *)&cells[8]);
    c8.fetch_and(gid % 64 == 0 ? ~(1u << (gid / 64 * 3)) : ~0u, cuda::std::memory_order_relaxed);
    gCounter.fetch_add(2);
    gCounter.fetch_sub(1, cuda::std::memory_order_relaxed);
    gMask.fetch_or(1ull << (gid % 64));
    gFloat.fetch_add(0.5f);
    // a CAS-loop multiply through compare_exchange_weak / strong
    cuda::atomic_ref<int, cuda::thread_scope_device> c5(cells[5]);
    int expected = c5.load(cuda::std::memory_order_relaxed);
    while (!c5.compare_exchange_weak(expected, (expected * 3 + 1) & 0xffffff,
                                     cuda::std::memory_order_acq_rel,
                                     cuda::std::memory_order_relaxed)) {}
    // block-scope atomic on shared memory
    __shared__ int sh;
    if (threadIdx.x == 0) sh = 0;
    __syncthreads();
    cuda::atomic_ref<int, cuda::thread_scope_block> s(sh);
    int ticket = s.fetch_add(1);
    __syncthreads();
    int old = s.exchange(-1);
    (void)old;
    // message passing: block 0 publishes with release, the last block reads with acquire
    cuda::atomic_ref<int, cuda::thread_scope_device> f(*flag);
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        payload[0] = 4242;
        f.store(1, cuda::std::memory_order_release);
    }
    if (blockIdx.x == gridDim.x - 1 && threadIdx.x == 0) {
        while (f.load(cuda::std::memory_order_acquire) == 0) __nanosleep(100);
        out[gridDim.x * blockDim.x] = payload[0];
    }
    out[gid] = (unsigned)(ticket < (int)blockDim.x) | (c0.is_lock_free() << 1);
}

__global__ void atomicReport(const int *cells, unsigned *out)
{
    for (int i = 0; i < 6; i++) out[i] = (unsigned)cells[i];
    out[10] = (unsigned)cells[8];
    out[6] = gCounter.load();
    unsigned long long m = gMask.load();
    out[7] = (unsigned)m; out[8] = (unsigned)(m >> 32);
    out[9] = __float_as_uint(gFloat.load());
}

// cuda::std containers, complex, limits and bit functions on the device.
__global__ void stdKernel(unsigned *out)
{
    unsigned tid = threadIdx.x;
    unsigned *o = out + tid * 16;
    cuda::std::array<int, 5> a = {{(int)tid, 3, 1, 4, 1}};
    int s = 0;
    for (int x : a) s += x;
    o[0] = s | (a.size() << 16);
    o[1] = a.back() + a[2] * 10 + (a.front() << 8);
    cuda::std::tuple<int, float, unsigned char> t(tid, tid * 0.25f, (unsigned char)(tid * 3));
    auto t2 = cuda::std::make_tuple(cuda::std::get<0>(t) + 1, cuda::std::get<2>(t));
    o[2] = cuda::std::get<0>(t2) * 1000 + cuda::std::get<1>(t2) + __float_as_uint(cuda::std::get<1>(t)) % 97;
    cuda::std::complex<float> z(1.0f + tid * 0.125f, -0.5f * tid);
    cuda::std::complex<float> w = z * z + cuda::std::complex<float>(2.0f, 1.0f) / z;
    o[3] = __float_as_uint(w.real());
    o[4] = __float_as_uint(w.imag());
    o[5] = __float_as_uint(cuda::std::abs(z));
    cuda::std::complex<double> zd(tid * 0.5, 1.0);
    cuda::std::complex<double> ed = zd * cuda::std::conj(zd);
    o[6] = (unsigned)(long long)(ed.real() * 1024.0);
    o[7] = (unsigned)cuda::std::numeric_limits<int>::max() ^ (unsigned)cuda::std::numeric_limits<short>::min();
    o[8] = __float_as_uint(cuda::std::numeric_limits<float>::epsilon()) ^ __float_as_uint(cuda::std::numeric_limits<float>::denorm_min());
    o[9] = cuda::std::numeric_limits<double>::digits | (cuda::std::numeric_limits<float>::max_exponent << 8)
         | (cuda::std::numeric_limits<unsigned char>::digits << 20);
    unsigned x = tid * 0x01010101u + 5;
    o[10] = cuda::std::popcount(x) | (cuda::std::countl_zero(x) << 8) | (cuda::std::countr_zero(x) << 16)
          | (cuda::std::countl_one(~x) << 24);
    o[11] = cuda::std::rotl(x, (int)tid % 32) ^ cuda::std::rotr(x, 5);
    o[12] = cuda::std::bit_ceil(tid + 1) | (cuda::std::bit_floor(tid + 1) << 16);
    o[13] = cuda::std::bit_width(x) | (cuda::std::has_single_bit(tid) << 8) | (cuda::std::countr_one(tid) << 16);
    o[14] = cuda::std::bit_cast<unsigned>(1.5f + tid);
    unsigned long long y = 0x0123456789abcdefull * (tid + 1);
    o[15] = cuda::std::popcount(y) | (cuda::std::countl_zero(y >> (tid % 64)) << 8) | (cuda::std::countr_zero(y) << 16);
}

// Warp intrinsics in divergent code.
__global__ void warpKernel(const int *in, unsigned *out)
{
    unsigned tid = threadIdx.x;
    unsigned *o = out + tid * 16;
    for (int k = 0; k < 16; k++) o[k] = 0xdddddddd;
    int v = in[tid];
    unsigned full = 0xffffffffu;
    o[0] = __reduce_add_sync(full, (unsigned)v);
    o[1] = __reduce_min_sync(full, (unsigned)v) | (__reduce_max_sync(full, (unsigned)v) << 16);
    o[2] = (unsigned)__reduce_min_sync(full, v - 500) ^ (unsigned)__reduce_max_sync(full, 500 - v);
    o[3] = __reduce_and_sync(full, (unsigned)v | 0x400) ^ __reduce_or_sync(full, (unsigned)v) ^ (__reduce_xor_sync(full, (unsigned)v) << 12);
    if (v & 1) {
        unsigned m = __activemask();
        o[4] = m;
        o[5] = __reduce_add_sync(m, (unsigned)v);
        o[6] = __match_any_sync(m, v % 4);
        int pred;
        o[7] = __match_all_sync(m, v & 1, &pred) | pred;
        o[8] = __ballot_sync(m, v > 500);
        o[9] = __shfl_sync(m, v, __ffs(m) - 1);
        if (v > 300) {
            unsigned m2 = __activemask();
            o[10] = m2;
            o[11] = __reduce_max_sync(m2, (unsigned)v) ^ __popc(m2);
        }
    } else {
        unsigned m = __activemask();
        o[4] = m;
        o[12] = __match_any_sync(m, (unsigned long long)v % 3ull << 40);
        o[13] = __reduce_xor_sync(m, (unsigned)v);
    }
    __syncwarp();
    o[14] = __activemask();
    unsigned long long t0 = clock64();
    __nanosleep(tid * 10);
    o[15] = clock64() >= t0;
}

int main()
{
    unsigned *d, *h = (unsigned *)malloc(THREADS * 64 * 4);
    CHECK(cudaMalloc(&d, THREADS * 64 * 4));
    int hin[THREADS * 32];
    for (int i = 0; i < THREADS * 32; i++) hin[i] = (i * 7919 + 13) % 1000;
    int *din;
    CHECK(cudaMalloc(&din, sizeof hin));
    CHECK(cudaMemcpy(din, hin, sizeof hin, cudaMemcpyHostToDevice));

    barrierKernel<<<1, THREADS>>>(d);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(h, d, THREADS * 4, cudaMemcpyDeviceToHost));
    show("barrier", h, THREADS, 8);
    printf("  upper:");
    for (int i = 60; i < 70; i++) printf(" %u", h[i]);
    printf("\n");

    pipelineKernel<<<1, THREADS>>>(din, d, 20);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(h, d, THREADS * 4, cudaMemcpyDeviceToHost));
    show("pipeline", h, THREADS, 0);
    printf("  consumers:");
    for (int i = 32; i < 40; i++) printf(" %x", h[i]);
    printf("\n");

    threadPipelineKernel<<<1, THREADS>>>(din, d);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(h, d, THREADS * 4, cudaMemcpyDeviceToHost));
    show("thread pipeline", h, THREADS, 8);

    int cells[10] = {0, -1, 0, 0, 0, 1, 0, 0, -1, 0};
    int *dcells;
    CHECK(cudaMalloc(&dcells, sizeof cells));
    CHECK(cudaMemcpy(dcells, cells, sizeof cells, cudaMemcpyHostToDevice));
    int *dflag = dcells + 6, *dpay = dcells + 7;
    atomicKernel<<<4, THREADS>>>(dcells, d, dflag, dpay);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(h, d, (4 * THREADS + 1) * 4, cudaMemcpyDeviceToHost));
    show("atomic flags", h, 4 * THREADS, 4);
    printf("  message %u\n", h[4 * THREADS]);
    atomicReport<<<1, 1>>>(dcells, d);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(h, d, 11 * 4, cudaMemcpyDeviceToHost));
    printf("atomics           ");
    for (int i = 0; i < 11; i++) printf(" %x", h[i]);
    printf("\n");

    stdKernel<<<1, THREADS>>>(d);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(h, d, THREADS * 64, cudaMemcpyDeviceToHost));
    show("cuda::std", h, THREADS * 16, 0);
    for (int t = 0; t < 3; t++) {
        printf("  t%d:", t * 37);
        for (int k = 0; k < 16; k++) printf(" %x", h[t * 37 * 16 + k]);
        printf("\n");
    }

    warpKernel<<<1, THREADS>>>(din, d);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(h, d, THREADS * 64, cudaMemcpyDeviceToHost));
    show("warp", h, THREADS * 16, 0);
    for (int t = 0; t < 3; t++) {
        printf("  t%d:", t * 45);
        for (int k = 0; k < 16; k++) printf(" %x", h[t * 45 * 16 + k]);
        printf("\n");
    }

    CHECK(cudaFree(dcells));
    CHECK(cudaFree(din));
    CHECK(cudaFree(d));
    free(h);
    printf("done\n");
    return 0;
}
