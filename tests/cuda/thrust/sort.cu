/* sort.cu — Thrust's and CUB's sorts: radix sort (single tile and onesweep) of keys and of
 * key-value pairs, 8- to 64-bit integer keys, float and double keys with -0.0, infinities
 * and NaNs, descending order, bit ranges, merge sort with custom comparators (stable sort
 * by key), segmented sorts (cub::DeviceSegmentedRadixSort, cub::DeviceSegmentedSort),
 * cub::DeviceMergeSort, and the empty and one-element sorts. Every result is compared with
 * the host's std::stable_sort and printed as a hash plus a few elements. */
#include "thrust_test.h"
#include <algorithm>
#include <thrust/device_vector.h>
#include <thrust/host_vector.h>
#include <thrust/sort.h>
#include <thrust/functional.h>
#include <thrust/execution_policy.h>
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_segmented_radix_sort.cuh>
#include <cub/device/device_segmented_sort.cuh>
#include <cub/device/device_merge_sort.cuh>

template <class T> static std::vector<T> random_keys(size_t n, uint64_t seed, unsigned shift = 0) {
    tt_rng r(seed);
    std::vector<T> v(n);
    for (size_t i = 0; i < n; i++) v[i] = (T)(r.next() >> shift);
    return v;
}

template <class T> static std::vector<T> to_host(const thrust::device_vector<T> &d) {
    std::vector<T> h(d.size());
    if (!h.empty()) thrust::copy(d.begin(), d.end(), h.begin());
    return h;
}

template <class T> static void sort_ints(const char *name, size_t n, uint64_t seed) {
    std::vector<T> h = random_keys<T>(n, seed);
    thrust::device_vector<T> d(h.begin(), h.end());
    thrust::sort(d.begin(), d.end());
    std::vector<T> want = h;
    std::stable_sort(want.begin(), want.end());
    char label[64];
    snprintf(label, sizeof label, "sort/%s", name);
    tt_report(label, to_host(d), want);
    /* descending through thrust::greater (radix sort, descending) */
    thrust::copy(h.begin(), h.end(), d.begin());
    thrust::sort(d.begin(), d.end(), thrust::greater<T>());
    std::reverse(want.begin(), want.end());
    snprintf(label, sizeof label, "sort_desc/%s", name);
    tt_report(label, to_host(d), want);
}

/* The radix order of floating-point keys: -0.0 equals +0.0, negative NaNs first, positive
 * NaNs last; sorting is stable. */
template <class T, class U> static U radix_bits(T x) {
    U u;
    memcpy(&u, &x, sizeof u);
    const U sign = (U)1 << (sizeof(U) * 8 - 1);
    if (u == sign) u = 0;
    return (u & sign) ? (U)~u : (U)(u | sign);
}

template <class T, class U> static std::vector<T> float_keys(size_t n, uint64_t seed) {
    tt_rng r(seed);
    std::vector<T> v(n);
    const T specials[] = {(T)0.0, -(T)0.0, (T)1.0 / (T)0.0, -(T)1.0 / (T)0.0,
                          std::numeric_limits<T>::quiet_NaN(), -std::numeric_limits<T>::quiet_NaN(),
                          std::numeric_limits<T>::denorm_min(), -std::numeric_limits<T>::denorm_min(),
                          std::numeric_limits<T>::max(), std::numeric_limits<T>::lowest()};
    for (size_t i = 0; i < n; i++) {
        uint64_t x = r.next();
        if (x % 7 == 0) v[i] = specials[(x >> 8) % 10];
        else v[i] = (T)((int64_t)(x >> 20) % 200000) / (T)64;
    }
    return v;
}

template <class T, class U> static void sort_floats(const char *name, size_t n, uint64_t seed) {
    std::vector<T> h = float_keys<T, U>(n, seed);
    std::vector<T> want = h;
    std::stable_sort(want.begin(), want.end(),
                     [](T a, T b) { return radix_bits<T, U>(a) < radix_bits<T, U>(b); });
    thrust::device_vector<T> d(h.begin(), h.end());
    thrust::sort(d.begin(), d.end());
    char label[64];
    snprintf(label, sizeof label, "sort/%s", name);
    tt_report(label, to_host(d), want);

    /* pairs: values are the input positions, so the stability of equal keys shows */
    std::vector<int> idx(n);
    for (size_t i = 0; i < n; i++) idx[i] = (int)i;
    std::vector<int> want_idx = idx;
    std::stable_sort(want_idx.begin(), want_idx.end(),
                     [&](int a, int b) { return radix_bits<T, U>(h[a]) > radix_bits<T, U>(h[b]); });
    thrust::copy(h.begin(), h.end(), d.begin());
    thrust::device_vector<int> dv(idx.begin(), idx.end());
    thrust::sort_by_key(d.begin(), d.end(), dv.begin(), thrust::greater<T>());
    snprintf(label, sizeof label, "sort_by_key_desc/%s.values", name);
    tt_report(label, to_host(dv), want_idx);
}

struct by_tens {
    __host__ __device__ bool operator()(int a, int b) const { return a / 10 < b / 10; }
};

struct rec {
    int key;
    float weight;
    short tag;
};
struct rec_less {
    __host__ __device__ bool operator()(const rec &a, const rec &b) const {
        if (a.key != b.key) return a.key < b.key;
        return a.tag > b.tag;
    }
};

static void merge_sorts(size_t n) {
    /* stable_sort_by_key with a custom comparator: merge sort, ties keep their order */
    std::vector<int> k = random_keys<int>(n, 11, 40);
    for (auto &x : k) x %= 5000;
    std::vector<unsigned> v(n);
    for (size_t i = 0; i < n; i++) v[i] = (unsigned)i * 2654435761u;
    std::vector<size_t> order(n);
    for (size_t i = 0; i < n; i++) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return by_tens()(k[a], k[b]); });
    std::vector<int> wk(n);
    std::vector<unsigned> wv(n);
    for (size_t i = 0; i < n; i++) { wk[i] = k[order[i]]; wv[i] = v[order[i]]; }
    thrust::device_vector<int> dk(k.begin(), k.end());
    thrust::device_vector<unsigned> dv(v.begin(), v.end());
    thrust::stable_sort_by_key(dk.begin(), dk.end(), dv.begin(), by_tens());
    tt_report("stable_sort_by_key/by_tens.keys", to_host(dk), wk);
    tt_report("stable_sort_by_key/by_tens.values", to_host(dv), wv);

    /* a struct sorted with a comparator (merge sort of non-arithmetic keys) */
    std::vector<rec> r(n);
    tt_rng g(12);
    for (size_t i = 0; i < n; i++) {
        uint64_t x = g.next();
        r[i].key = (int)(x % 1000);
        r[i].weight = (float)i;
        r[i].tag = (short)((x >> 20) % 7);
    }
    std::vector<rec> wr = r;
    std::stable_sort(wr.begin(), wr.end(), rec_less());
    thrust::device_vector<rec> dr(r.begin(), r.end());
    thrust::stable_sort(dr.begin(), dr.end(), rec_less());
    std::vector<rec> gr(n);
    thrust::copy(dr.begin(), dr.end(), gr.begin());
    std::vector<float> gw(n), ww(n);
    for (size_t i = 0; i < n; i++) { gw[i] = gr[i].weight; ww[i] = wr[i].weight; }
    tt_report("stable_sort/struct.weights", gw, ww);

    /* thrust::sort with a comparator on the host path too (thrust::host) */
    std::vector<int> hk = k;
    thrust::sort(thrust::host, hk.begin(), hk.end(), thrust::greater<int>());
    std::vector<int> wk2 = k;
    std::sort(wk2.begin(), wk2.end(), std::greater<int>());
    tt_report("sort/host_policy", hk, wk2);
}

static void cub_radix(size_t n) {
    /* keys and values with a bit range, then descending, with DoubleBuffer */
    std::vector<uint32_t> k = random_keys<uint32_t>(n, 21);
    std::vector<uint64_t> v(n);
    for (size_t i = 0; i < n; i++) v[i] = (uint64_t)i << 20 | (i & 0xfffff);
    uint32_t *dk_in, *dk_out;
    uint64_t *dv_in, *dv_out;
    CK(cudaMalloc(&dk_in, n * 4));
    CK(cudaMalloc(&dk_out, n * 4));
    CK(cudaMalloc(&dv_in, n * 8));
    CK(cudaMalloc(&dv_out, n * 8));
    CK(cudaMemcpy(dk_in, k.data(), n * 4, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dv_in, v.data(), n * 8, cudaMemcpyHostToDevice));
    size_t temp_bytes = 0;
    CK(cub::DeviceRadixSort::SortPairs(nullptr, temp_bytes, dk_in, dk_out, dv_in, dv_out, (int)n, 4, 20));
    void *temp;
    CK(cudaMalloc(&temp, temp_bytes));
    CK(cub::DeviceRadixSort::SortPairs(temp, temp_bytes, dk_in, dk_out, dv_in, dv_out, (int)n, 4, 20));
    std::vector<size_t> order(n);
    for (size_t i = 0; i < n; i++) order[i] = i;
    std::stable_sort(order.begin(), order.end(),
                     [&](size_t a, size_t b) { return ((k[a] >> 4) & 0xffff) < ((k[b] >> 4) & 0xffff); });
    std::vector<uint32_t> wk(n), gk(n);
    std::vector<uint64_t> wv(n), gv(n);
    for (size_t i = 0; i < n; i++) { wk[i] = k[order[i]]; wv[i] = v[order[i]]; }
    CK(cudaMemcpy(gk.data(), dk_out, n * 4, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(gv.data(), dv_out, n * 8, cudaMemcpyDeviceToHost));
    tt_report("cub::SortPairs/bits4-20.keys", gk, wk);
    tt_report("cub::SortPairs/bits4-20.values", gv, wv);
    CK(cudaFree(temp));

    cub::DoubleBuffer<uint32_t> keys(dk_in, dk_out);
    cub::DoubleBuffer<uint64_t> vals(dv_in, dv_out);
    CK(cudaMemcpy(dk_in, k.data(), n * 4, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dv_in, v.data(), n * 8, cudaMemcpyHostToDevice));
    temp_bytes = 0;
    CK(cub::DeviceRadixSort::SortPairsDescending(nullptr, temp_bytes, keys, vals, (int)n));
    CK(cudaMalloc(&temp, temp_bytes));
    CK(cub::DeviceRadixSort::SortPairsDescending(temp, temp_bytes, keys, vals, (int)n));
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return k[a] > k[b]; });
    for (size_t i = 0; i < n; i++) { wk[i] = k[order[i]]; wv[i] = v[order[i]]; }
    CK(cudaMemcpy(gk.data(), keys.Current(), n * 4, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(gv.data(), vals.Current(), n * 8, cudaMemcpyDeviceToHost));
    printf("cub::SortPairsDescending selector=%d\n", keys.selector);
    tt_report("cub::SortPairsDescending.keys", gk, wk);
    tt_report("cub::SortPairsDescending.values", gv, wv);
    CK(cudaFree(temp));
    CK(cudaFree(dk_in)); CK(cudaFree(dk_out)); CK(cudaFree(dv_in)); CK(cudaFree(dv_out));
}

/* Segments of varied length (empty ones, one element, large), sorted each on its own. */
static void segmented(void) {
    const int nseg = 40;
    std::vector<int> offs(nseg + 1);
    tt_rng g(31);
    offs[0] = 0;
    for (int s = 0; s < nseg; s++) {
        uint64_t x = g.next();
        int len = (s % 9 == 0) ? 0 : (s % 13 == 1) ? 1 : (s == 17) ? 5000 : (int)(x % 700);
        offs[s + 1] = offs[s] + len;
    }
    int n = offs[nseg];
    std::vector<int> k = random_keys<int>(n, 32, 40);
    for (auto &x : k) x %= 100;
    std::vector<int> v(n);
    for (int i = 0; i < n; i++) v[i] = i;
    std::vector<int> wk(n), wv(n), wk_desc(n), wv_desc(n);
    for (int s = 0; s < nseg; s++) {
        std::vector<int> o;
        for (int i = offs[s]; i < offs[s + 1]; i++) o.push_back(i);
        std::stable_sort(o.begin(), o.end(), [&](int a, int b) { return k[a] < k[b]; });
        for (size_t j = 0; j < o.size(); j++) { wk[offs[s] + j] = k[o[j]]; wv[offs[s] + j] = v[o[j]]; }
        std::stable_sort(o.begin(), o.end(), [&](int a, int b) { return k[a] > k[b]; });
        for (size_t j = 0; j < o.size(); j++) { wk_desc[offs[s] + j] = k[o[j]]; wv_desc[offs[s] + j] = v[o[j]]; }
    }
    int *dk, *dv, *dk2, *dv2, *doff;
    CK(cudaMalloc(&dk, n * 4)); CK(cudaMalloc(&dv, n * 4));
    CK(cudaMalloc(&dk2, n * 4)); CK(cudaMalloc(&dv2, n * 4));
    CK(cudaMalloc(&doff, (nseg + 1) * 4));
    CK(cudaMemcpy(dk, k.data(), n * 4, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dv, v.data(), n * 4, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(doff, offs.data(), (nseg + 1) * 4, cudaMemcpyHostToDevice));
    std::vector<int> gk(n), gv(n);
    size_t tb = 0;
    void *temp;

    CK(cub::DeviceSegmentedRadixSort::SortPairs(nullptr, tb, dk, dk2, dv, dv2, n, nseg, doff, doff + 1));
    CK(cudaMalloc(&temp, tb));
    CK(cub::DeviceSegmentedRadixSort::SortPairs(temp, tb, dk, dk2, dv, dv2, n, nseg, doff, doff + 1));
    CK(cudaMemcpy(gk.data(), dk2, n * 4, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(gv.data(), dv2, n * 4, cudaMemcpyDeviceToHost));
    printf("segments %d items %d\n", nseg, n);
    tt_report("cub::SegmentedRadixSort::SortPairs.keys", gk, wk);
    tt_report("cub::SegmentedRadixSort::SortPairs.values", gv, wv);
    CK(cudaFree(temp));

    tb = 0;
    CK(cub::DeviceSegmentedSort::StableSortPairsDescending(nullptr, tb, dk, dk2, dv, dv2, n, nseg, doff, doff + 1));
    CK(cudaMalloc(&temp, tb));
    CK(cub::DeviceSegmentedSort::StableSortPairsDescending(temp, tb, dk, dk2, dv, dv2, n, nseg, doff, doff + 1));
    CK(cudaMemcpy(gk.data(), dk2, n * 4, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(gv.data(), dv2, n * 4, cudaMemcpyDeviceToHost));
    tt_report("cub::SegmentedSort::StableSortPairsDescending.keys", gk, wk_desc);
    tt_report("cub::SegmentedSort::StableSortPairsDescending.values", gv, wv_desc);
    CK(cudaFree(temp));

    tb = 0;
    CK(cub::DeviceSegmentedSort::SortKeys(nullptr, tb, dk, dk2, n, nseg, doff, doff + 1));
    CK(cudaMalloc(&temp, tb));
    CK(cub::DeviceSegmentedSort::SortKeys(temp, tb, dk, dk2, n, nseg, doff, doff + 1));
    CK(cudaMemcpy(gk.data(), dk2, n * 4, cudaMemcpyDeviceToHost));
    tt_report("cub::SegmentedSort::SortKeys", gk, wk);
    CK(cudaFree(temp));
    CK(cudaFree(dk)); CK(cudaFree(dv)); CK(cudaFree(dk2)); CK(cudaFree(dv2)); CK(cudaFree(doff));
}

struct abs_less {
    __host__ __device__ bool operator()(long long a, long long b) const {
        return (a < 0 ? -a : a) < (b < 0 ? -b : b);
    }
};

static void cub_merge(size_t n) {
    std::vector<long long> k = random_keys<long long>(n, 41, 30);
    for (auto &x : k) x %= 100000;
    std::vector<short> v(n);
    for (size_t i = 0; i < n; i++) v[i] = (short)(i * 7);
    std::vector<size_t> order(n);
    for (size_t i = 0; i < n; i++) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return abs_less()(k[a], k[b]); });
    std::vector<long long> wk(n), gk(n);
    std::vector<short> wv(n), gv(n);
    for (size_t i = 0; i < n; i++) { wk[i] = k[order[i]]; wv[i] = v[order[i]]; }
    long long *dk;
    short *dv;
    CK(cudaMalloc(&dk, n * 8)); CK(cudaMalloc(&dv, n * 2));
    CK(cudaMemcpy(dk, k.data(), n * 8, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dv, v.data(), n * 2, cudaMemcpyHostToDevice));
    size_t tb = 0;
    CK(cub::DeviceMergeSort::StableSortPairs(nullptr, tb, dk, dv, (int)n, abs_less()));
    void *temp;
    CK(cudaMalloc(&temp, tb));
    CK(cub::DeviceMergeSort::StableSortPairs(temp, tb, dk, dv, (int)n, abs_less()));
    CK(cudaMemcpy(gk.data(), dk, n * 8, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(gv.data(), dv, n * 2, cudaMemcpyDeviceToHost));
    tt_report("cub::DeviceMergeSort::StableSortPairs.keys", gk, wk);
    tt_report("cub::DeviceMergeSort::StableSortPairs.values", gv, wv);
    CK(cudaFree(temp)); CK(cudaFree(dk)); CK(cudaFree(dv));
}

int main() {
    const size_t n = 30011;
    sort_ints<int8_t>("int8", n, 1);
    sort_ints<uint8_t>("uint8", n, 2);
    sort_ints<int16_t>("int16", n, 3);
    sort_ints<uint16_t>("uint16", n, 4);
    sort_ints<int32_t>("int32", n, 5);
    sort_ints<uint32_t>("uint32", n, 6);
    sort_ints<int64_t>("int64", n, 7);
    sort_ints<uint64_t>("uint64", n, 8);
    /* small sizes: empty, one element, one tile */
    sort_ints<int32_t>("int32.0", 0, 9);
    sort_ints<int32_t>("int32.1", 1, 9);
    sort_ints<int32_t>("int32.1000", 1000, 9);
    sort_floats<float, uint32_t>("float", n, 10);
    sort_floats<double, uint64_t>("double", n, 11);

    /* pairs, large enough for the onesweep kernels */
    {
        const size_t m = 1 << 20;
        std::vector<uint32_t> k = random_keys<uint32_t>(m, 50);
        std::vector<int> v(m);
        for (size_t i = 0; i < m; i++) v[i] = (int)i;
        thrust::device_vector<uint32_t> dk(k.begin(), k.end());
        thrust::device_vector<int> dv(v.begin(), v.end());
        thrust::sort_by_key(dk.begin(), dk.end(), dv.begin());
        std::vector<size_t> order(m);
        for (size_t i = 0; i < m; i++) order[i] = i;
        std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return k[a] < k[b]; });
        std::vector<uint32_t> wk(m);
        std::vector<int> wv(m);
        for (size_t i = 0; i < m; i++) { wk[i] = k[order[i]]; wv[i] = v[order[i]]; }
        tt_report("sort_by_key/uint32.1M.keys", to_host(dk), wk);
        tt_report("sort_by_key/uint32.1M.values", to_host(dv), wv);
    }
    merge_sorts(20000);
    cub_radix(100000);
    segmented();
    cub_merge(25000);
    return tt_finish();
}
