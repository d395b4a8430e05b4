/* scan_reduce.cu — Thrust's and CUB's scans, reductions, histograms, selection and
 * run-length encoding: inclusive and exclusive scans (plus, max, by key), reduce,
 * transform_reduce, inner_product, min/max_element, reduce_by_key, count, copy_if,
 * partition and stable_partition, unique and unique_by_key, cub::DeviceScan,
 * cub::DeviceReduce (Sum, Min, ArgMax, Reduce), cub::DeviceHistogram (HistogramEven,
 * HistogramRange), cub::DeviceSelect (If, Flagged, Unique), cub::DevicePartition::If and
 * cub::DeviceRunLengthEncode (Encode, NonTrivialRuns), at several sizes. Each result is
 * compared with the host's std:: algorithms and printed as a hash plus a few elements. */
#include "thrust_test.h"
#include <algorithm>
#include <numeric>
#include <thrust/device_vector.h>
#include <thrust/scan.h>
#include <thrust/reduce.h>
#include <thrust/transform_reduce.h>
#include <thrust/inner_product.h>
#include <thrust/extrema.h>
#include <thrust/count.h>
#include <thrust/copy.h>
#include <thrust/partition.h>
#include <thrust/unique.h>
#include <thrust/functional.h>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_histogram.cuh>
#include <cub/device/device_select.cuh>
#include <cub/device/device_partition.cuh>
#include <cub/device/device_run_length_encode.cuh>

template <class T> static std::vector<T> to_host(const thrust::device_vector<T> &d) {
    std::vector<T> h(d.size());
    if (!h.empty()) thrust::copy(d.begin(), d.end(), h.begin());
    return h;
}

static std::vector<int> small_ints(size_t n, uint64_t seed, int mod) {
    tt_rng r(seed);
    std::vector<int> v(n);
    for (auto &x : v) x = (int)(r.next() % (uint64_t)(2 * mod)) - mod;
    return v;
}

struct is_even {
    __host__ __device__ bool operator()(int x) const { return (x & 1) == 0; }
};
struct min_op {
    __host__ __device__ int operator()(int a, int b) const { return b < a ? b : a; }
};
struct max_op {
    __host__ __device__ int operator()(int a, int b) const { return a < b ? b : a; }
};
struct square {
    __host__ __device__ long long operator()(int x) const { return (long long)x * x; }
};
struct less_than {
    int t;
    __host__ __device__ bool operator()(int x) const { return x < t; }
};

static void scans(size_t n) {
    char label[96];
    std::vector<int> h = small_ints(n, n, 1000);
    thrust::device_vector<int> d(h.begin(), h.end()), o(n);
    std::vector<int> w(n);

    thrust::inclusive_scan(d.begin(), d.end(), o.begin());
    std::partial_sum(h.begin(), h.end(), w.begin());
    snprintf(label, sizeof label, "inclusive_scan/plus.%zu", n);
    tt_report(label, to_host(o), w);

    thrust::exclusive_scan(d.begin(), d.end(), o.begin(), 7);
    std::exclusive_scan(h.begin(), h.end(), w.begin(), 7);
    snprintf(label, sizeof label, "exclusive_scan/plus7.%zu", n);
    tt_report(label, to_host(o), w);

    thrust::inclusive_scan(d.begin(), d.end(), o.begin(), thrust::maximum<int>());
    std::inclusive_scan(h.begin(), h.end(), w.begin(), [](int a, int b) { return std::max(a, b); });
    snprintf(label, sizeof label, "inclusive_scan/max.%zu", n);
    tt_report(label, to_host(o), w);

    /* by key: keys in runs of 1..9 */
    std::vector<int> k(n);
    tt_rng r(77);
    int key = 0, left = 0;
    for (size_t i = 0; i < n; i++) {
        if (left == 0) { key++; left = 1 + (int)(r.next() % 9); }
        k[i] = key;
        left--;
    }
    thrust::device_vector<int> dk(k.begin(), k.end());
    thrust::inclusive_scan_by_key(dk.begin(), dk.end(), d.begin(), o.begin());
    for (size_t i = 0; i < n; i++) w[i] = (i && k[i] == k[i - 1]) ? w[i - 1] + h[i] : h[i];
    snprintf(label, sizeof label, "inclusive_scan_by_key.%zu", n);
    tt_report(label, to_host(o), w);
    thrust::exclusive_scan_by_key(dk.begin(), dk.end(), d.begin(), o.begin(), 100);
    for (size_t i = 0; i < n; i++) w[i] = (i && k[i] == k[i - 1]) ? w[i - 1] + h[i - 1] : 100;
    snprintf(label, sizeof label, "exclusive_scan_by_key.%zu", n);
    tt_report(label, to_host(o), w);

    /* reduce_by_key over the same runs */
    thrust::device_vector<int> ok(n), ov(n);
    auto ends = thrust::reduce_by_key(dk.begin(), dk.end(), d.begin(), ok.begin(), ov.begin());
    size_t runs = ends.first - ok.begin();
    std::vector<int> wk, wv;
    for (size_t i = 0; i < n; i++) {
        if (i == 0 || k[i] != k[i - 1]) { wk.push_back(k[i]); wv.push_back(h[i]); }
        else wv.back() += h[i];
    }
    ok.resize(runs);
    ov.resize(runs);
    snprintf(label, sizeof label, "reduce_by_key.%zu.keys", n);
    tt_report(label, to_host(ok), wk);
    snprintf(label, sizeof label, "reduce_by_key.%zu.values", n);
    tt_report(label, to_host(ov), wv);

    /* reductions */
    long long s = thrust::reduce(d.begin(), d.end(), 0LL);
    snprintf(label, sizeof label, "reduce/sum.%zu", n);
    tt_scalar(label, s, std::accumulate(h.begin(), h.end(), 0LL));
    long long sq = thrust::transform_reduce(d.begin(), d.end(), square(), 0LL, thrust::plus<long long>());
    long long wsq = 0;
    for (int x : h) wsq += (long long)x * x;
    snprintf(label, sizeof label, "transform_reduce/squares.%zu", n);
    tt_scalar(label, sq, wsq);
    if (n) {
        int ip = thrust::inner_product(d.begin(), d.end(), dk.begin(), 0);
        snprintf(label, sizeof label, "inner_product.%zu", n);
        tt_scalar(label, ip, std::inner_product(h.begin(), h.end(), k.begin(), 0));
        long mi = thrust::min_element(d.begin(), d.end()) - d.begin();
        long ma = thrust::max_element(d.begin(), d.end()) - d.begin();
        snprintf(label, sizeof label, "min_element.%zu", n);
        tt_scalar(label, mi, (long)(std::min_element(h.begin(), h.end()) - h.begin()));
        snprintf(label, sizeof label, "max_element.%zu", n);
        tt_scalar(label, ma, (long)(std::max_element(h.begin(), h.end()) - h.begin()));
    }
    long c = thrust::count_if(d.begin(), d.end(), is_even());
    snprintf(label, sizeof label, "count_if/even.%zu", n);
    tt_scalar(label, c, (long)std::count_if(h.begin(), h.end(), [](int x) { return (x & 1) == 0; }));
    c = thrust::count(d.begin(), d.end(), 5);
    snprintf(label, sizeof label, "count/5.%zu", n);
    tt_scalar(label, c, (long)std::count(h.begin(), h.end(), 5));
    thrust::device_vector<float> df(h.begin(), h.end());
    float fs = thrust::reduce(df.begin(), df.end());
    snprintf(label, sizeof label, "reduce/float.%zu", n);
    printf("%s = %a\n", label, (double)fs);
}

static void selections(size_t n) {
    char label[96];
    std::vector<int> h = small_ints(n, n + 5, 50);
    thrust::device_vector<int> d(h.begin(), h.end()), o(n);
    std::vector<int> w;

    auto e = thrust::copy_if(d.begin(), d.end(), o.begin(), is_even());
    std::copy_if(h.begin(), h.end(), std::back_inserter(w), [](int x) { return (x & 1) == 0; });
    snprintf(label, sizeof label, "copy_if/even.%zu", n);
    std::vector<int> go = to_host(o);
    go.resize(e - o.begin());
    tt_report(label, go, w);

    thrust::device_vector<int> p = d;
    auto mid = thrust::stable_partition(p.begin(), p.end(), less_than{0});
    std::vector<int> wp = h;
    auto wmid = std::stable_partition(wp.begin(), wp.end(), [](int x) { return x < 0; });
    snprintf(label, sizeof label, "stable_partition.%zu", n);
    tt_report(label, to_host(p), wp);
    snprintf(label, sizeof label, "stable_partition.%zu.point", n);
    tt_scalar(label, (long)(mid - p.begin()), (long)(wmid - wp.begin()));

    p = d;
    mid = thrust::partition(p.begin(), p.end(), is_even());
    std::vector<int> gp = to_host(p);
    bool good = std::all_of(gp.begin(), gp.begin() + (mid - p.begin()), [](int x) { return (x & 1) == 0; }) &&
                std::none_of(gp.begin() + (mid - p.begin()), gp.end(), [](int x) { return (x & 1) == 0; });
    snprintf(label, sizeof label, "partition.%zu", n);
    tt_report(label, gp, (const std::vector<int> *)nullptr);
    printf("partition.%zu.valid %s\n", n, good ? "yes" : "no");
    if (!good) tt_failures++;

    /* unique over runs of equal values */
    std::vector<int> runs(n);
    for (size_t i = 0; i < n; i++) runs[i] = h[i / 4] / 10;
    thrust::device_vector<int> du(runs.begin(), runs.end());
    auto ue = thrust::unique(du.begin(), du.end());
    du.resize(ue - du.begin());
    std::vector<int> wu = runs;
    wu.erase(std::unique(wu.begin(), wu.end()), wu.end());
    snprintf(label, sizeof label, "unique.%zu", n);
    tt_report(label, to_host(du), wu);

    thrust::device_vector<int> uk(runs.begin(), runs.end()), uv(h.begin(), h.end());
    auto ube = thrust::unique_by_key(uk.begin(), uk.end(), uv.begin());
    uv.resize(ube.second - uv.begin());
    std::vector<int> wuv;
    for (size_t i = 0; i < n; i++)
        if (i == 0 || runs[i] != runs[i - 1]) wuv.push_back(h[i]);
    snprintf(label, sizeof label, "unique_by_key.%zu.values", n);
    tt_report(label, to_host(uv), wuv);
}

static void cub_device(size_t n) {
    char label[96];
    std::vector<int> h = small_ints(n, 3 * n + 1, 300);
    int *din, *dout, *dnum;
    CK(cudaMalloc(&din, (n + 1) * 4));
    CK(cudaMalloc(&dout, (n + 1) * 4));
    CK(cudaMalloc(&dnum, 16));
    CK(cudaMemcpy(din, h.data(), n * 4, cudaMemcpyHostToDevice));
    void *temp = nullptr;
    size_t tb = 0;
    std::vector<int> g(n), w(n);

    /* first call sizes temp (temp == nullptr), second runs it */
#define CUB_RUN(f, ...)                                                                   \
    do {                                                                                  \
        temp = nullptr;                                                                   \
        tb = 0;                                                                           \
        CK(f(temp, tb, __VA_ARGS__));                                                     \
        CK(cudaMalloc(&temp, tb ? tb : 1));                                               \
        CK(f(temp, tb, __VA_ARGS__));                                                     \
        CK(cudaFree(temp));                                                               \
    } while (0)

    CUB_RUN(cub::DeviceScan::ExclusiveSum, din, dout, (int)n);
    CK(cudaMemcpy(g.data(), dout, n * 4, cudaMemcpyDeviceToHost));
    std::exclusive_scan(h.begin(), h.end(), w.begin(), 0);
    snprintf(label, sizeof label, "cub::DeviceScan::ExclusiveSum.%zu", n);
    tt_report(label, g, w);

    CUB_RUN(cub::DeviceScan::InclusiveScan, din, dout, min_op(), (int)n);
    CK(cudaMemcpy(g.data(), dout, n * 4, cudaMemcpyDeviceToHost));
    std::inclusive_scan(h.begin(), h.end(), w.begin(), [](int a, int b) { return std::min(a, b); });
    snprintf(label, sizeof label, "cub::DeviceScan::InclusiveScan/min.%zu", n);
    tt_report(label, g, w);

    CUB_RUN(cub::DeviceReduce::Sum, din, dnum, (int)n);
    int gs;
    CK(cudaMemcpy(&gs, dnum, 4, cudaMemcpyDeviceToHost));
    snprintf(label, sizeof label, "cub::DeviceReduce::Sum.%zu", n);
    tt_scalar(label, gs, std::accumulate(h.begin(), h.end(), 0));
    if (n) {
        CUB_RUN(cub::DeviceReduce::Min, din, dnum, (int)n);
        CK(cudaMemcpy(&gs, dnum, 4, cudaMemcpyDeviceToHost));
        snprintf(label, sizeof label, "cub::DeviceReduce::Min.%zu", n);
        tt_scalar(label, gs, *std::min_element(h.begin(), h.end()));
        int *dmax;
        long long *didx, hidx;
        CK(cudaMalloc(&dmax, 4));
        CK(cudaMalloc(&didx, 8));
        CUB_RUN(cub::DeviceReduce::ArgMax, din, dmax, didx, (long long)n);
        CK(cudaMemcpy(&hidx, didx, 8, cudaMemcpyDeviceToHost));
        CK(cudaMemcpy(&gs, dmax, 4, cudaMemcpyDeviceToHost));
        snprintf(label, sizeof label, "cub::DeviceReduce::ArgMax.%zu.index", n);
        tt_scalar(label, hidx, (long long)(std::max_element(h.begin(), h.end()) - h.begin()));
        snprintf(label, sizeof label, "cub::DeviceReduce::ArgMax.%zu.value", n);
        tt_scalar(label, gs, *std::max_element(h.begin(), h.end()));
        CK(cudaFree(dmax));
        CK(cudaFree(didx));
    }
    CUB_RUN(cub::DeviceReduce::Reduce, din, dnum, (int)n, max_op(), -1000000);
    CK(cudaMemcpy(&gs, dnum, 4, cudaMemcpyDeviceToHost));
    snprintf(label, sizeof label, "cub::DeviceReduce::Reduce/max.%zu", n);
    tt_scalar(label, gs, n ? *std::max_element(h.begin(), h.end()) : -1000000);

    /* histograms: 30 even bins over [-300, 300), and bins with uneven edges */
    int *dhist;
    CK(cudaMalloc(&dhist, 64 * 4));
    CUB_RUN(cub::DeviceHistogram::HistogramEven, din, dhist, 31, -300, 300, (int)n);
    std::vector<int> gh(30), wh(30, 0);
    CK(cudaMemcpy(gh.data(), dhist, 30 * 4, cudaMemcpyDeviceToHost));
    for (int x : h) wh[(x + 300) / 20]++;
    snprintf(label, sizeof label, "cub::DeviceHistogram::HistogramEven.%zu", n);
    tt_report(label, gh, wh);
    const int lv[] = {-300, -200, -50, -10, 0, 1, 2, 40, 100, 299};
    int *dlv;
    CK(cudaMalloc(&dlv, sizeof lv));
    CK(cudaMemcpy(dlv, lv, sizeof lv, cudaMemcpyHostToDevice));
    CUB_RUN(cub::DeviceHistogram::HistogramRange, din, dhist, 10, dlv, (int)n);
    std::vector<int> gr(9), wr(9, 0);
    CK(cudaMemcpy(gr.data(), dhist, 9 * 4, cudaMemcpyDeviceToHost));
    for (int x : h)
        for (int b = 0; b < 9; b++)
            if (x >= lv[b] && x < lv[b + 1]) wr[b]++;
    snprintf(label, sizeof label, "cub::DeviceHistogram::HistogramRange.%zu", n);
    tt_report(label, gr, wr);
    CK(cudaFree(dlv));
    CK(cudaFree(dhist));

    /* selection */
    int nsel;
    CUB_RUN(cub::DeviceSelect::If, din, dout, dnum, (int)n, less_than{-100});
    CK(cudaMemcpy(&nsel, dnum, 4, cudaMemcpyDeviceToHost));
    g.assign(nsel, 0);
    CK(cudaMemcpy(g.data(), dout, nsel * 4, cudaMemcpyDeviceToHost));
    w.clear();
    std::copy_if(h.begin(), h.end(), std::back_inserter(w), [](int x) { return x < -100; });
    snprintf(label, sizeof label, "cub::DeviceSelect::If.%zu", n);
    tt_report(label, g, w);

    std::vector<char> flags(n);
    for (size_t i = 0; i < n; i++) flags[i] = (char)(i % 3 == 0);
    char *dflags;
    CK(cudaMalloc(&dflags, n + 1));
    CK(cudaMemcpy(dflags, flags.data(), n, cudaMemcpyHostToDevice));
    CUB_RUN(cub::DeviceSelect::Flagged, din, dflags, dout, dnum, (int)n);
    CK(cudaMemcpy(&nsel, dnum, 4, cudaMemcpyDeviceToHost));
    g.assign(nsel, 0);
    CK(cudaMemcpy(g.data(), dout, nsel * 4, cudaMemcpyDeviceToHost));
    w.clear();
    for (size_t i = 0; i < n; i++)
        if (flags[i]) w.push_back(h[i]);
    snprintf(label, sizeof label, "cub::DeviceSelect::Flagged.%zu", n);
    tt_report(label, g, w);
    CK(cudaFree(dflags));

    CUB_RUN(cub::DevicePartition::If, din, dout, dnum, (int)n, is_even());
    CK(cudaMemcpy(&nsel, dnum, 4, cudaMemcpyDeviceToHost));
    g.assign(n, 0);
    CK(cudaMemcpy(g.data(), dout, n * 4, cudaMemcpyDeviceToHost));
    w.clear();
    std::copy_if(h.begin(), h.end(), std::back_inserter(w), [](int x) { return (x & 1) == 0; });
    for (auto it = h.rbegin(); it != h.rend(); ++it)
        if (*it & 1) w.push_back(*it);
    snprintf(label, sizeof label, "cub::DevicePartition::If.%zu", n);
    tt_report(label, g, w);

    /* runs: values repeated 1..5 times */
    std::vector<int> runs;
    for (size_t i = 0; runs.size() < n; i++)
        for (int j = 0; j <= (int)(i % 5) && runs.size() < n; j++) runs.push_back(h[i] / 50);
    CK(cudaMemcpy(din, runs.data(), n * 4, cudaMemcpyHostToDevice));
    CUB_RUN(cub::DeviceSelect::Unique, din, dout, dnum, (int)n);
    CK(cudaMemcpy(&nsel, dnum, 4, cudaMemcpyDeviceToHost));
    g.assign(nsel, 0);
    CK(cudaMemcpy(g.data(), dout, nsel * 4, cudaMemcpyDeviceToHost));
    w = runs;
    w.erase(std::unique(w.begin(), w.end()), w.end());
    snprintf(label, sizeof label, "cub::DeviceSelect::Unique.%zu", n);
    tt_report(label, g, w);

    int *dcounts;
    CK(cudaMalloc(&dcounts, (n + 1) * 4));
    CUB_RUN(cub::DeviceRunLengthEncode::Encode, din, dout, dcounts, dnum, (int)n);
    CK(cudaMemcpy(&nsel, dnum, 4, cudaMemcpyDeviceToHost));
    std::vector<int> gc(nsel), wc;
    CK(cudaMemcpy(gc.data(), dcounts, nsel * 4, cudaMemcpyDeviceToHost));
    for (size_t i = 0; i < n; i++) {
        if (i == 0 || runs[i] != runs[i - 1]) wc.push_back(1);
        else wc.back()++;
    }
    snprintf(label, sizeof label, "cub::DeviceRunLengthEncode::Encode.%zu.counts", n);
    tt_report(label, gc, wc);

    CUB_RUN(cub::DeviceRunLengthEncode::NonTrivialRuns, din, dout, dcounts, dnum, (int)n);
    CK(cudaMemcpy(&nsel, dnum, 4, cudaMemcpyDeviceToHost));
    std::vector<int> go(nsel), wo, gl(nsel), wl;
    CK(cudaMemcpy(go.data(), dout, nsel * 4, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(gl.data(), dcounts, nsel * 4, cudaMemcpyDeviceToHost));
    for (size_t i = 0, start = 0; i <= n; i++) {
        if (i == n || (i > 0 && runs[i] != runs[i - 1])) {
            if (i - start > 1) { wo.push_back((int)start); wl.push_back((int)(i - start)); }
            start = i;
        }
    }
    snprintf(label, sizeof label, "cub::DeviceRunLengthEncode::NonTrivialRuns.%zu.offsets", n);
    tt_report(label, go, wo);
    snprintf(label, sizeof label, "cub::DeviceRunLengthEncode::NonTrivialRuns.%zu.lengths", n);
    tt_report(label, gl, wl);
    CK(cudaFree(dcounts));
    CK(cudaFree(din)); CK(cudaFree(dout)); CK(cudaFree(dnum));
}

int main() {
    const size_t sizes[] = {0, 1, 1000, 65537, 500000};
    for (size_t n : sizes) scans(n);
    for (size_t n : sizes) selections(n);
    for (size_t n : sizes) cub_device(n);
    return tt_finish();
}
