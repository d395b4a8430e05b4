/* libcudacxx.cu — libcu++ in device code: cuda::std::atomic and cuda::atomic with thread
 * scopes (fetch_add, fetch_max/min, exchange, compare_exchange, wait-free counters),
 * cuda::atomic_ref on global and shared memory, cuda::barrier (arrive_and_wait, split
 * arrive/wait with tokens, arrive_and_drop, a completion function), cuda::pipeline with
 * cuda::memcpy_async (double-buffered staging through shared memory), cuda::std::complex
 * arithmetic and functions, <cuda/std/cmath>, <cuda/std/bit>, <cuda/std/limits>,
 * <cuda/std/array>, <cuda/std/tuple>, <cuda/std/optional>, <cuda/std/span> and
 * cuda::std::numeric algorithms. Each result is compared with the host's and printed. */
#include "thrust_test.h"
#include <cmath>
#include <complex>
#include <numeric>
#include <cuda/atomic>
#include <cuda/barrier>
#include <cuda/pipeline>
#include <cuda/std/atomic>
#include <cuda/std/complex>
#include <cuda/std/cmath>
#include <cuda/std/bit>
#include <cuda/std/limits>
#include <cuda/std/array>
#include <cuda/std/tuple>
#include <cuda/std/optional>
#include <cuda/std/span>
#include <cuda/std/functional>
#include <cuda/std/numeric>
#include <cooperative_groups.h>

namespace cg = cooperative_groups;

/* A __shared__ pipeline state is constructed by the pipeline itself (as CUDA's samples do). */
#pragma nv_diag_suppress static_var_with_dynamic_init

/* ---- atomics ---- */
__global__ void atomics(unsigned long long *out, int n) {
    __shared__ cuda::atomic<int, cuda::thread_scope_block> block_count;
    __shared__ int shared_max;
    if (threadIdx.x == 0) {
        block_count.store(0, cuda::std::memory_order_relaxed);
        shared_max = -1;
    }
    __syncthreads();
    cuda::atomic_ref<unsigned long long, cuda::thread_scope_device> sum(out[0]);
    cuda::atomic_ref<unsigned long long, cuda::thread_scope_device> mx(out[1]);
    cuda::atomic_ref<unsigned long long, cuda::thread_scope_device> mn(out[2]);
    cuda::atomic_ref<unsigned long long, cuda::thread_scope_device> cas(out[3]);
    cuda::atomic_ref<unsigned long long, cuda::thread_scope_system> xo(out[4]);
    cuda::atomic_ref<int, cuda::thread_scope_block> smax(shared_max);
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        unsigned long long v = (unsigned long long)i * 2654435761ull % 1000003ull;
        sum.fetch_add(v, cuda::std::memory_order_relaxed);
        mx.fetch_max(v);
        mn.fetch_min(v);
        /* a CAS loop adding i*i */
        unsigned long long old = cas.load();
        while (!cas.compare_exchange_weak(old, old + (unsigned long long)i * i)) {}
        xo.fetch_xor(v << 7);
        smax.fetch_max((int)(v & 0xffff));
        block_count.fetch_add(1);
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        cuda::atomic_ref<unsigned long long, cuda::thread_scope_device> bc(out[5]);
        bc.fetch_add((unsigned long long)block_count.load() * 1000 + (unsigned long long)(shared_max & 0xff));
    }
}

static void run_atomics(void) {
    const int n = 100000, threads = 256;
    unsigned long long init[6] = {0, 0, ~0ull, 0, 0, 0}, got[6], want[6] = {0, 0, ~0ull, 0, 0, 0};
    unsigned long long *d;
    CK(cudaMalloc(&d, sizeof init));
    CK(cudaMemcpy(d, init, sizeof init, cudaMemcpyHostToDevice));
    atomics<<<(n + threads - 1) / threads, threads>>>(d, n);
    CK(cudaGetLastError());
    CK(cudaMemcpy(got, d, sizeof got, cudaMemcpyDeviceToHost));
    for (int b = 0; b * threads < n; b++) {
        int cnt = 0, smax = -1;
        for (int t = 0; t < threads && b * threads + t < n; t++) {
            int i = b * threads + t;
            unsigned long long v = (unsigned long long)i * 2654435761ull % 1000003ull;
            want[0] += v;
            want[1] = std::max(want[1], v);
            want[2] = std::min(want[2], v);
            want[3] += (unsigned long long)i * i;
            want[4] ^= v << 7;
            smax = std::max(smax, (int)(v & 0xffff));
            cnt++;
        }
        want[5] += (unsigned long long)cnt * 1000 + (unsigned long long)(smax & 0xff);
    }
    const char *names[6] = {"fetch_add", "fetch_max", "fetch_min", "compare_exchange", "fetch_xor/system", "block_scope"};
    for (int k = 0; k < 6; k++) {
        char label[64];
        snprintf(label, sizeof label, "atomic_ref.%s", names[k]);
        tt_scalar(label, got[k], want[k]);
    }
    CK(cudaFree(d));

}

__global__ void ticket_kernel(cuda::std::atomic<int> *t, int *seen) {
    int k = t->fetch_add(1, cuda::std::memory_order_acq_rel);
    atomicAdd(&seen[k - 5], 1);
    int e = 1000;
    t[1].exchange(e);
}

static void run_tickets(void) {
    cuda::std::atomic<int> *t;
    int *seen;
    CK(cudaMalloc(&t, 2 * sizeof *t));
    int init[2] = {5, 0};
    CK(cudaMemcpy(t, init, sizeof init, cudaMemcpyHostToDevice));
    CK(cudaMalloc(&seen, 4096 * 4));
    CK(cudaMemset(seen, 0, 4096 * 4));
    ticket_kernel<<<16, 256>>>(t, seen);
    CK(cudaGetLastError());
    std::vector<int> g(4096), w(4096, 0);
    CK(cudaMemcpy(g.data(), seen, 4096 * 4, cudaMemcpyDeviceToHost));
    for (int i = 0; i < 4096; i++) w[i] = i < 16 * 256;
    tt_report("atomic.tickets", g, w);
    int fin[2];
    CK(cudaMemcpy(fin, t, sizeof fin, cudaMemcpyDeviceToHost));
    tt_scalar("atomic.tickets.final", fin[0], 5 + 16 * 256);
    tt_scalar("atomic.exchange", fin[1], 1000);
    CK(cudaFree(t)); CK(cudaFree(seen));
}

/* ---- cuda::barrier: phases of a block-wide stencil; split arrive/wait; drop ---- */
struct completion {
    int *phases;
    __device__ void operator()() noexcept { (*phases)++; }
};

__global__ void barrier_kernel(int *data, int *out, int *phase_count, int rounds) {
    __shared__ cuda::barrier<cuda::thread_scope_block, completion> bar;
    __shared__ int phases;
    __shared__ int buf[2][256];
    auto block = cg::this_thread_block();
    if (block.thread_rank() == 0) {
        phases = 0;
        init(&bar, block.size(), completion{&phases});
    }
    block.sync();
    int t = threadIdx.x, n = blockDim.x;
    buf[0][t] = data[blockIdx.x * n + t];
    bar.arrive_and_wait();
    for (int r = 0; r < rounds; r++) {
        int src = r & 1;
        int v = buf[src][(t + n - 1) % n] + buf[src][t] * 2 + buf[src][(t + 1) % n];
        buf[src ^ 1][t] = v % 100003;
        /* split: arrive, do unrelated work, then wait */
        auto token = bar.arrive();
        int local = v * 3;
        bar.wait(cuda::std::move(token));
        out[gridDim.x * n + blockIdx.x * n + t] = local;
    }
    out[blockIdx.x * n + t] = buf[rounds & 1][t];
    /* the upper half leaves the barrier for good; the rest sync once more */
    if (t >= n / 2) {
        bar.arrive_and_drop();
        return;
    }
    bar.arrive_and_wait();
    if (t == 0) phase_count[blockIdx.x] = phases;
}

static void run_barrier(void) {
    const int blocks = 3, n = 256, rounds = 5;
    std::vector<int> h(blocks * n);
    for (int i = 0; i < blocks * n; i++) h[i] = (i * 37) % 1000;
    std::vector<int> w(blocks * n), wp(blocks, rounds + 2);
    for (int b = 0; b < blocks; b++) {
        std::vector<int> cur(h.begin() + b * n, h.begin() + (b + 1) * n), nxt(n);
        for (int r = 0; r < rounds; r++) {
            for (int t = 0; t < n; t++) nxt[t] = (cur[(t + n - 1) % n] + cur[t] * 2 + cur[(t + 1) % n]) % 100003;
            cur = nxt;
        }
        std::copy(cur.begin(), cur.end(), w.begin() + b * n);
    }
    int *din, *dout, *dp;
    CK(cudaMalloc(&din, blocks * n * 4));
    CK(cudaMalloc(&dout, 2 * blocks * n * 4));
    CK(cudaMalloc(&dp, blocks * 4));
    CK(cudaMemcpy(din, h.data(), blocks * n * 4, cudaMemcpyHostToDevice));
    barrier_kernel<<<blocks, n>>>(din, dout, dp, rounds);
    CK(cudaGetLastError());
    std::vector<int> g(blocks * n), gp(blocks);
    CK(cudaMemcpy(g.data(), dout, blocks * n * 4, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(gp.data(), dp, blocks * 4, cudaMemcpyDeviceToHost));
    tt_report("barrier.stencil", g, w);
    tt_report("barrier.completions", gp, wp);
    CK(cudaFree(din)); CK(cudaFree(dout)); CK(cudaFree(dp));
}

/* ---- cuda::pipeline + memcpy_async: a block sums tiles staged through shared memory ---- */
__global__ void pipeline_kernel(const float *in, float *out, int tiles) {
    const int T = 128;
    __shared__ float stage[2][T];
    __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, 2> state;
    auto block = cg::this_thread_block();
    auto pipe = cuda::make_pipeline(block, &state);
    float acc = 0.0f;
    int fetch = 0;
    for (int t = 0; t < tiles; t++) {
        for (; fetch < tiles && fetch < t + 2; fetch++) {
            pipe.producer_acquire();
            cuda::memcpy_async(block, stage[fetch & 1], in + (size_t)fetch * T, sizeof(float) * T, pipe);
            pipe.producer_commit();
        }
        pipe.consumer_wait();
        acc += stage[t & 1][threadIdx.x] * (float)(t + 1);
        block.sync();
        pipe.consumer_release();
    }
    out[threadIdx.x] = acc;
}

static void run_pipeline(void) {
    const int T = 128, tiles = 9;
    std::vector<float> h(T * tiles), w(T, 0.0f);
    for (int i = 0; i < T * tiles; i++) h[i] = (float)(i % 97) * 0.125f;
    for (int t = 0; t < tiles; t++)
        for (int j = 0; j < T; j++) w[j] += h[t * T + j] * (float)(t + 1);
    float *din, *dout;
    CK(cudaMalloc(&din, T * tiles * 4));
    CK(cudaMalloc(&dout, T * 4));
    CK(cudaMemcpy(din, h.data(), T * tiles * 4, cudaMemcpyHostToDevice));
    pipeline_kernel<<<1, T>>>(din, dout, tiles);
    CK(cudaGetLastError());
    std::vector<float> g(T);
    CK(cudaMemcpy(g.data(), dout, T * 4, cudaMemcpyDeviceToHost));
    tt_report("pipeline.memcpy_async", g, w);
    CK(cudaFree(din)); CK(cudaFree(dout));
}

/* ---- cuda::std::complex and numerics ---- */
__global__ void numerics(double *outd, float *outf, unsigned long long *outu, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    double x = (i - n / 2) * 0.37;
    cuda::std::complex<double> z(x, 1.0 - 0.0625 * i);
    cuda::std::complex<double> a = z * z + cuda::std::complex<double>(2.0, -1.0) / (z + 3.0);
    outd[8 * i + 0] = a.real();
    outd[8 * i + 1] = a.imag();
    outd[8 * i + 2] = cuda::std::abs(z);
    outd[8 * i + 3] = cuda::std::arg(z);
    outd[8 * i + 4] = cuda::std::norm(z);
    outd[8 * i + 5] = cuda::std::conj(z).imag();
    outd[8 * i + 6] = cuda::std::hypot(x, 2.5);
    outd[8 * i + 7] = cuda::std::fma(x, 1.5, -0.25);
    float f = (float)x;
    cuda::std::complex<float> zf(f, 0.5f);
    cuda::std::complex<float> p = cuda::std::polar(2.0f, f * 0.1f);
    outf[6 * i + 0] = (zf * p).real();
    outf[6 * i + 1] = (zf * p).imag();
    outf[6 * i + 2] = cuda::std::fmax(f, 0.0f);
    outf[6 * i + 3] = cuda::std::copysign(1.0f, f);
    outf[6 * i + 4] = cuda::std::trunc(f * 3.3f);
    outf[6 * i + 5] = cuda::std::isnan(f / (f - f)) ? 1.0f : 0.0f;
    unsigned u = 0x9E3779B9u * (unsigned)(i + 1);
    unsigned long long q = 0xFEDCBA9876543210ull >> (i % 64);
    outu[6 * i + 0] = cuda::std::popcount(u);
    outu[6 * i + 1] = cuda::std::countl_zero(u >> (i % 32));
    outu[6 * i + 2] = cuda::std::countr_zero(q | (1ull << 63));
    outu[6 * i + 3] = cuda::std::rotl(u, i % 32);
    outu[6 * i + 4] = cuda::std::bit_ceil((unsigned)(i + 1));
    outu[6 * i + 5] = cuda::std::bit_width(q);
}

static void run_numerics(void) {
    const int n = 200;
    double *dd;
    float *df;
    unsigned long long *du;
    CK(cudaMalloc(&dd, 8 * n * 8)); CK(cudaMalloc(&df, 6 * n * 4)); CK(cudaMalloc(&du, 6 * n * 8));
    numerics<<<(n + 63) / 64, 64>>>(dd, df, du, n);
    CK(cudaGetLastError());
    std::vector<double> gd(8 * n);
    std::vector<float> gf(6 * n);
    std::vector<unsigned long long> gu(6 * n), wu(6 * n);
    CK(cudaMemcpy(gd.data(), dd, 8 * n * 8, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(gf.data(), df, 6 * n * 4, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(gu.data(), du, 6 * n * 8, cudaMemcpyDeviceToHost));
    /* the exact functions are compared exactly; the rest within a few ulps of the host */
    int off = 0;
    for (int i = 0; i < n; i++) {
        double x = (i - n / 2) * 0.37;
        std::complex<double> z(x, 1.0 - 0.0625 * i);
        std::complex<double> a = z * z + std::complex<double>(2.0, -1.0) / (z + 3.0);
        double want[8] = {a.real(), a.imag(), std::abs(z), std::arg(z), std::norm(z), -z.imag(),
                          std::hypot(x, 2.5), std::fma(x, 1.5, -0.25)};
        for (int k = 0; k < 8; k++)
            if (std::fabs(gd[8 * i + k] - want[k]) > 1e-12 * std::max(1.0, std::fabs(want[k])) && off++ < 3)
                printf("complex_cmath.double[%d][%d] %a host %a\n", i, k, gd[8 * i + k], want[k]);
        unsigned u = 0x9E3779B9u * (unsigned)(i + 1);
        unsigned long long q = 0xFEDCBA9876543210ull >> (i % 64);
        unsigned s = u >> (i % 32);
        unsigned r = i % 32;
        unsigned bc = 1;
        while (bc < (unsigned)(i + 1)) bc <<= 1;
        unsigned long long qq = q | (1ull << 63);
        int tz = 0;
        while (!((qq >> tz) & 1)) tz++;
        wu[6 * i + 0] = (unsigned long long)__builtin_popcount(u);
        wu[6 * i + 1] = s ? (unsigned long long)__builtin_clz(s) : 32;
        wu[6 * i + 2] = (unsigned long long)tz;
        wu[6 * i + 3] = r ? (u << r | u >> (32 - r)) : u;
        wu[6 * i + 4] = bc;
        wu[6 * i + 5] = q ? 64 - (unsigned long long)__builtin_clzll(q) : 0;
    }
    tt_report("complex_cmath.double", gd, (const std::vector<double> *)nullptr);
    printf("complex_cmath.double.within_1e-12 %s\n", off ? "no" : "yes");
    if (off) tt_failures++;
    tt_report("complex_cmath.float", gf, (const std::vector<float> *)nullptr);
    tt_report("bit", gu, wu);
    CK(cudaFree(dd)); CK(cudaFree(df)); CK(cudaFree(du));
}

/* ---- containers and utilities in device code ---- */
__global__ void containers(long long *out) {
    cuda::std::array<int, 6> a{5, 3, 9, 1, 7, 2};
    long long s = 0;
    for (int v : a) s = s * 10 + v;
    out[0] = s;
    cuda::std::tuple<int, double, char> t{4, 2.5, 'x'};
    out[1] = cuda::std::get<0>(t) * 1000 + (long long)(cuda::std::get<1>(t) * 10) + cuda::std::get<2>(t);
    auto [p, q, r] = t;
    out[2] = p + (long long)q + r;
    cuda::std::optional<int> none, some = 17;
    out[3] = none.value_or(-1) * 100 + some.value_or(-1);
    out[4] = none.has_value() * 10 + some.has_value();
    int buf[5] = {1, 2, 3, 4, 5};
    cuda::std::span<int> sp(buf, 5);
    auto sub = sp.subspan(1, 3);
    long long ss = 0;
    for (int v : sub) ss += v;
    out[5] = ss * 100 + (long long)sp.size();
    out[6] = cuda::std::numeric_limits<int>::max() + (long long)cuda::std::numeric_limits<short>::min();
    out[7] = cuda::std::numeric_limits<double>::digits * 1000 + cuda::std::numeric_limits<float>::max_exponent;
    out[8] = cuda::std::plus<int>()(20, 22) * 100 + cuda::std::less<int>()(1, 2);
    out[9] = (long long)cuda::std::gcd(84, 36) * 1000 + cuda::std::lcm(4, 6);
}

static void run_containers(void) {
    long long *d, g[10];
    CK(cudaMalloc(&d, sizeof g));
    containers<<<1, 1>>>(d);
    CK(cudaGetLastError());
    CK(cudaMemcpy(g, d, sizeof g, cudaMemcpyDeviceToHost));
    const long long w[10] = {539172, 4000 + 25 + 'x', 4 + 2 + 'x', -100 + 17, 1, 900 + 5,
                             2147483647LL - 32768, 53 * 1000 + 128, 4201, 12 * 1000 + 12};
    std::vector<long long> gv(g, g + 10), wv(w, w + 10);
    tt_report("containers", gv, wv);
    CK(cudaFree(d));
}

int main() {
    run_atomics();
    run_tickets();
    run_barrier();
    run_pipeline();
    run_numerics();
    run_containers();
    return tt_finish();
}
