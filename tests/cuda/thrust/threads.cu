/* threads.cu — Thrust from several host threads at once: each thread sorts and reduces its
 * own thrust::device_vector on its own stream (thrust::cuda::par.on), all of them count in
 * one shared device_vector, and one thread's vector is handed to another thread to finish.
 * Results are collected per thread and printed in thread order, each checked against the
 * host's std:: algorithms, so the output does not depend on scheduling. */
#include "thrust_test.h"
#include <algorithm>
#include <numeric>
#include <thread>
#include <thrust/device_vector.h>
#include <thrust/sort.h>
#include <thrust/reduce.h>
#include <thrust/count.h>
#include <thrust/copy.h>
#include <thrust/system/cuda/execution_policy.h>

struct above {
    int t;
    __host__ __device__ bool operator()(int x) const { return x > t; }
};

struct result {
    std::vector<int> sorted, want;
    long long sum = 0, want_sum = 0;
    long shared_count = 0, want_count = 0;
};

static std::vector<int> keys(size_t n, uint64_t seed) {
    tt_rng r(seed);
    std::vector<int> v(n);
    for (auto &x : v) x = (int)(r.next() % 2000001) - 1000000;
    return v;
}

int main() {
    const int nthreads = 4;
    std::vector<int> shared_h = keys(50000, 99);
    thrust::device_vector<int> shared_d(shared_h.begin(), shared_h.end());
    std::vector<result> res(nthreads);
    std::vector<std::thread> pool;
    for (int t = 0; t < nthreads; t++) {
        pool.emplace_back([&, t] {
            cudaStream_t s;
            CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
            std::vector<int> h = keys(20000 + 1000 * t, t);
            thrust::device_vector<int> d(h.begin(), h.end());
            thrust::sort(thrust::cuda::par.on(s), d.begin(), d.end());
            res[t].sum = thrust::reduce(thrust::cuda::par.on(s), d.begin(), d.end(), 0LL);
            res[t].shared_count = thrust::count_if(thrust::cuda::par.on(s), shared_d.begin(), shared_d.end(),
                                                   above{250000 * (t - 2)});
            CK(cudaStreamSynchronize(s));
            res[t].sorted.resize(h.size());
            thrust::copy(d.begin(), d.end(), res[t].sorted.begin());
            res[t].want = h;
            std::sort(res[t].want.begin(), res[t].want.end());
            res[t].want_sum = std::accumulate(h.begin(), h.end(), 0LL);
            res[t].want_count = std::count_if(shared_h.begin(), shared_h.end(),
                                              [&](int x) { return x > 250000 * (t - 2); });
            CK(cudaStreamDestroy(s));
        });
    }
    for (auto &th : pool) th.join();
    for (int t = 0; t < nthreads; t++) {
        char label[64];
        snprintf(label, sizeof label, "thread%d.sort", t);
        tt_report(label, res[t].sorted, res[t].want);
        snprintf(label, sizeof label, "thread%d.reduce", t);
        tt_scalar(label, res[t].sum, res[t].want_sum);
        snprintf(label, sizeof label, "thread%d.shared_count_if", t);
        tt_scalar(label, res[t].shared_count, res[t].want_count);
    }

    /* a vector made in one thread, sorted descending in another, read back in a third */
    thrust::device_vector<int> *handed = nullptr;
    std::vector<int> src = keys(30000, 7);
    std::thread([&] { handed = new thrust::device_vector<int>(src.begin(), src.end()); }).join();
    std::thread([&] { thrust::sort(handed->begin(), handed->end(), thrust::greater<int>()); }).join();
    std::vector<int> back(src.size());
    std::thread([&] {
        thrust::copy(handed->begin(), handed->end(), back.begin());
        delete handed;
    }).join();
    std::sort(src.begin(), src.end(), std::greater<int>());
    tt_report("handed_between_threads.sort_desc", back, src);
    return tt_finish();
}
