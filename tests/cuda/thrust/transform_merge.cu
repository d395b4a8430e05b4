/* transform_merge.cu — Thrust's element-wise and ordered-range algorithms and its fancy
 * iterators: transform (unary, binary, with a stencil), sequence, tabulate, fill, replace,
 * reverse, adjacent_difference, gather and scatter (plain and _if), merge and merge_by_key,
 * set_union / intersection / difference / symmetric_difference (and _by_key),
 * lower_bound / upper_bound / binary_search, find_if, mismatch, equal, is_sorted,
 * counting, constant, transform, zip, permutation, reverse and discard iterators, and
 * execution on a stream (thrust::cuda::par.on) with a custom allocator. Each result is
 * compared with the host's std:: algorithms and printed as a hash plus a few elements. */
#include "thrust_test.h"
#include <algorithm>
#include <numeric>
#include <thrust/device_vector.h>
#include <thrust/transform.h>
#include <thrust/sequence.h>
#include <thrust/tabulate.h>
#include <thrust/fill.h>
#include <thrust/replace.h>
#include <thrust/reverse.h>
#include <thrust/adjacent_difference.h>
#include <thrust/gather.h>
#include <thrust/scatter.h>
#include <thrust/merge.h>
#include <thrust/set_operations.h>
#include <thrust/binary_search.h>
#include <thrust/find.h>
#include <thrust/mismatch.h>
#include <thrust/equal.h>
#include <thrust/count.h>
#include <thrust/sort.h>
#include <thrust/reduce.h>
#include <thrust/scan.h>
#include <thrust/copy.h>
#include <thrust/functional.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/constant_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/iterator/zip_iterator.h>
#include <thrust/iterator/permutation_iterator.h>
#include <thrust/iterator/reverse_iterator.h>
#include <thrust/iterator/discard_iterator.h>
#include <thrust/system/cuda/execution_policy.h>
#include <thrust/system/cuda/memory_resource.h>

template <class T> static std::vector<T> to_host(const thrust::device_vector<T> &d) {
    std::vector<T> h(d.size());
    if (!h.empty()) thrust::copy(d.begin(), d.end(), h.begin());
    return h;
}

static std::vector<int> rand_ints(size_t n, uint64_t seed, int mod) {
    tt_rng r(seed);
    std::vector<int> v(n);
    for (auto &x : v) x = (int)(r.next() % (uint64_t)mod);
    return v;
}

struct saxpy {
    float a;
    __host__ __device__ float operator()(float x, float y) const { return a * x + y; }
};
struct poly {
    __host__ __device__ int operator()(int i) const { return (i * i * 7 + 3 * i) % 1001; }
};
struct is_odd {
    __host__ __device__ bool operator()(int x) const { return x & 1; }
};
struct zip_op {
    __host__ __device__ long long operator()(const thrust::tuple<int, float, char> &t) const {
        return (long long)thrust::get<0>(t) * 3 + (long long)thrust::get<1>(t) - thrust::get<2>(t);
    }
};
struct gt {
    int t;
    __host__ __device__ bool operator()(int x) const { return x > t; }
};

static void elementwise(size_t n) {
    char label[96];
    std::vector<float> x(n), y(n), w(n);
    for (size_t i = 0; i < n; i++) { x[i] = (float)i * 0.25f; y[i] = (float)(n - i) * 0.5f; }
    thrust::device_vector<float> dx(x.begin(), x.end()), dy(y.begin(), y.end());
    thrust::transform(dx.begin(), dx.end(), dy.begin(), dy.begin(), saxpy{1.5f});
    for (size_t i = 0; i < n; i++) w[i] = 1.5f * x[i] + y[i];
    snprintf(label, sizeof label, "transform/saxpy.%zu", n);
    tt_report(label, to_host(dy), w);

    thrust::device_vector<int> d(n);
    thrust::sequence(d.begin(), d.end(), 10, 3);
    std::vector<int> wi(n);
    for (size_t i = 0; i < n; i++) wi[i] = 10 + 3 * (int)i;
    snprintf(label, sizeof label, "sequence/10+3i.%zu", n);
    tt_report(label, to_host(d), wi);

    thrust::tabulate(d.begin(), d.end(), poly());
    for (size_t i = 0; i < n; i++) wi[i] = poly()((int)i);
    snprintf(label, sizeof label, "tabulate.%zu", n);
    tt_report(label, to_host(d), wi);

    thrust::replace_if(d.begin(), d.end(), is_odd(), -1);
    std::replace_if(wi.begin(), wi.end(), [](int v) { return v & 1; }, -1);
    snprintf(label, sizeof label, "replace_if.%zu", n);
    tt_report(label, to_host(d), wi);

    thrust::reverse(d.begin(), d.end());
    std::reverse(wi.begin(), wi.end());
    snprintf(label, sizeof label, "reverse.%zu", n);
    tt_report(label, to_host(d), wi);

    thrust::device_vector<int> ad(n);
    thrust::adjacent_difference(d.begin(), d.end(), ad.begin());
    std::vector<int> wad(n);
    std::adjacent_difference(wi.begin(), wi.end(), wad.begin());
    snprintf(label, sizeof label, "adjacent_difference.%zu", n);
    tt_report(label, to_host(ad), wad);

    thrust::fill(d.begin(), d.begin() + n / 2, 42);
    std::fill(wi.begin(), wi.begin() + n / 2, 42);
    snprintf(label, sizeof label, "fill.%zu", n);
    tt_report(label, to_host(d), wi);

    /* transform with a stencil and transform_if through a counting iterator */
    thrust::device_vector<int> st(n);
    thrust::sequence(st.begin(), st.end());
    thrust::transform_if(thrust::counting_iterator<int>(0), thrust::counting_iterator<int>((int)n), st.begin(),
                         d.begin(), thrust::negate<int>(), is_odd());
    for (size_t i = 0; i < n; i++)
        if (i & 1) wi[i] = -(int)i;
    snprintf(label, sizeof label, "transform_if/stencil.%zu", n);
    tt_report(label, to_host(d), wi);
}

static void gather_scatter(size_t n) {
    char label[96];
    std::vector<int> src = rand_ints(n, 5, 1 << 30), map(n);
    for (size_t i = 0; i < n; i++) map[i] = (int)((i * 7919) % n);
    thrust::device_vector<int> ds(src.begin(), src.end()), dm(map.begin(), map.end()), o(n, 0);
    thrust::gather(dm.begin(), dm.end(), ds.begin(), o.begin());
    std::vector<int> w(n);
    for (size_t i = 0; i < n; i++) w[i] = src[map[i]];
    snprintf(label, sizeof label, "gather.%zu", n);
    tt_report(label, to_host(o), w);

    thrust::fill(o.begin(), o.end(), 0);
    thrust::scatter(ds.begin(), ds.end(), dm.begin(), o.begin());
    for (size_t i = 0; i < n; i++) w[map[i]] = src[i];
    snprintf(label, sizeof label, "scatter.%zu", n);
    tt_report(label, to_host(o), w);

    thrust::device_vector<int> stencil(n);
    thrust::sequence(stencil.begin(), stencil.end());
    thrust::fill(o.begin(), o.end(), -5);
    thrust::scatter_if(ds.begin(), ds.end(), dm.begin(), stencil.begin(), o.begin(), is_odd());
    std::fill(w.begin(), w.end(), -5);
    for (size_t i = 0; i < n; i++)
        if (i & 1) w[map[i]] = src[i];
    snprintf(label, sizeof label, "scatter_if.%zu", n);
    tt_report(label, to_host(o), w);

    thrust::fill(o.begin(), o.end(), -6);
    thrust::gather_if(dm.begin(), dm.end(), stencil.begin(), ds.begin(), o.begin(), gt{(int)n / 3});
    for (size_t i = 0; i < n; i++) w[i] = (int)i > (int)n / 3 ? src[map[i]] : -6;
    snprintf(label, sizeof label, "gather_if.%zu", n);
    tt_report(label, to_host(o), w);
}

static void merges_and_sets(size_t na, size_t nb) {
    char label[96];
    std::vector<int> a = rand_ints(na, na + 1, 3000), b = rand_ints(nb, nb + 2, 3000);
    std::sort(a.begin(), a.end());
    std::sort(b.begin(), b.end());
    thrust::device_vector<int> da(a.begin(), a.end()), db(b.begin(), b.end()), o(na + nb);
    std::vector<int> w(na + nb);

    thrust::merge(da.begin(), da.end(), db.begin(), db.end(), o.begin());
    std::merge(a.begin(), a.end(), b.begin(), b.end(), w.begin());
    snprintf(label, sizeof label, "merge.%zu+%zu", na, nb);
    tt_report(label, to_host(o), w);

    /* merge_by_key: values tell from which input each key came, so stability shows */
    std::vector<int> va(na), vb(nb);
    for (size_t i = 0; i < na; i++) va[i] = (int)i;
    for (size_t i = 0; i < nb; i++) vb[i] = -1 - (int)i;
    thrust::device_vector<int> dva(va.begin(), va.end()), dvb(vb.begin(), vb.end()), ok(na + nb), ov(na + nb);
    thrust::merge_by_key(da.begin(), da.end(), db.begin(), db.end(), dva.begin(), dvb.begin(), ok.begin(),
                         ov.begin());
    std::vector<int> wv;
    for (size_t i = 0, j = 0; i < na || j < nb;) {
        if (j == nb || (i < na && !(b[j] < a[i]))) wv.push_back(va[i++]);
        else wv.push_back(vb[j++]);
    }
    snprintf(label, sizeof label, "merge_by_key.%zu+%zu.values", na, nb);
    tt_report(label, to_host(ov), wv);

#define SET_OP(name)                                                                      \
    do {                                                                                  \
        auto e = thrust::name(da.begin(), da.end(), db.begin(), db.end(), o.begin());     \
        std::vector<int> g = to_host(o);                                                  \
        g.resize(e - o.begin());                                                          \
        w.clear();                                                                        \
        std::name(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(w));         \
        snprintf(label, sizeof label, #name ".%zu+%zu", na, nb);                          \
        tt_report(label, g, w);                                                           \
    } while (0)
    SET_OP(set_union);
    SET_OP(set_intersection);
    SET_OP(set_difference);
    SET_OP(set_symmetric_difference);

    /* set_intersection_by_key: the values of the first range */
    auto e = thrust::set_intersection_by_key(da.begin(), da.end(), db.begin(), db.end(), dva.begin(), ok.begin(),
                                             ov.begin());
    std::vector<int> g = to_host(ov);
    g.resize(e.second - ov.begin());
    w.clear();
    for (size_t i = 0, j = 0; i < na && j < nb;) {
        if (a[i] < b[j]) i++;
        else if (b[j] < a[i]) j++;
        else { w.push_back(va[i]); i++; j++; }
    }
    snprintf(label, sizeof label, "set_intersection_by_key.%zu+%zu.values", na, nb);
    tt_report(label, g, w);

    /* searches of b's elements in a */
    thrust::device_vector<int> pos(nb);
    thrust::lower_bound(da.begin(), da.end(), db.begin(), db.end(), pos.begin());
    std::vector<int> wp(nb);
    for (size_t j = 0; j < nb; j++) wp[j] = (int)(std::lower_bound(a.begin(), a.end(), b[j]) - a.begin());
    snprintf(label, sizeof label, "lower_bound.%zu+%zu", na, nb);
    tt_report(label, to_host(pos), wp);
    thrust::upper_bound(da.begin(), da.end(), db.begin(), db.end(), pos.begin());
    for (size_t j = 0; j < nb; j++) wp[j] = (int)(std::upper_bound(a.begin(), a.end(), b[j]) - a.begin());
    snprintf(label, sizeof label, "upper_bound.%zu+%zu", na, nb);
    tt_report(label, to_host(pos), wp);
    thrust::device_vector<bool> found(nb);
    thrust::binary_search(da.begin(), da.end(), db.begin(), db.end(), found.begin());
    int nfound = (int)thrust::count(found.begin(), found.end(), true);
    int wfound = 0;
    for (size_t j = 0; j < nb; j++) wfound += std::binary_search(a.begin(), a.end(), b[j]);
    snprintf(label, sizeof label, "binary_search.%zu+%zu.found", na, nb);
    tt_scalar(label, nfound, wfound);

    snprintf(label, sizeof label, "is_sorted.%zu", na);
    tt_scalar(label, (int)thrust::is_sorted(da.begin(), da.end()), 1);
    long f = thrust::find_if(da.begin(), da.end(), gt{1500}) - da.begin();
    snprintf(label, sizeof label, "find_if.%zu", na);
    tt_scalar(label, f, (long)(std::find_if(a.begin(), a.end(), [](int x) { return x > 1500; }) - a.begin()));
    size_t m = std::min(na, nb);
    long mm = thrust::mismatch(da.begin(), da.begin() + m, db.begin()).first - da.begin();
    snprintf(label, sizeof label, "mismatch.%zu+%zu", na, nb);
    tt_scalar(label, mm, (long)(std::mismatch(a.begin(), a.begin() + m, b.begin()).first - a.begin()));
    snprintf(label, sizeof label, "equal/self.%zu", na);
    tt_scalar(label, (int)thrust::equal(da.begin(), da.end(), da.begin()), 1);
}

static void iterators(size_t n) {
    char label[96];
    /* reduce over a transform of a counting iterator */
    long long s = thrust::transform_reduce(thrust::counting_iterator<int>(0), thrust::counting_iterator<int>((int)n),
                                           poly(), 0LL, thrust::plus<long long>());
    long long ws = 0;
    for (size_t i = 0; i < n; i++) ws += poly()((int)i);
    snprintf(label, sizeof label, "counting+transform_reduce.%zu", n);
    tt_scalar(label, s, ws);

    /* constant iterator: a scan of ones */
    thrust::device_vector<int> o(n);
    thrust::inclusive_scan(thrust::constant_iterator<int>(2), thrust::constant_iterator<int>(2) + n, o.begin());
    std::vector<int> w(n);
    for (size_t i = 0; i < n; i++) w[i] = 2 * (int)(i + 1);
    snprintf(label, sizeof label, "constant+inclusive_scan.%zu", n);
    tt_report(label, to_host(o), w);

    /* zip of three vectors through a transform */
    std::vector<int> a = rand_ints(n, 61, 1000);
    std::vector<float> b(n);
    std::vector<char> c(n);
    for (size_t i = 0; i < n; i++) { b[i] = (float)(i % 17) * 0.5f; c[i] = (char)(i % 100); }
    thrust::device_vector<int> da(a.begin(), a.end());
    thrust::device_vector<float> db(b.begin(), b.end());
    thrust::device_vector<char> dc(c.begin(), c.end());
    thrust::device_vector<long long> dz(n);
    auto zb = thrust::make_zip_iterator(thrust::make_tuple(da.begin(), db.begin(), dc.begin()));
    thrust::transform(zb, zb + n, dz.begin(), zip_op());
    std::vector<long long> wz(n);
    for (size_t i = 0; i < n; i++) wz[i] = zip_op()(thrust::make_tuple(a[i], b[i], c[i]));
    snprintf(label, sizeof label, "zip+transform.%zu", n);
    tt_report(label, to_host(dz), wz);

    /* sort a zip by the first key: the others follow */
    thrust::device_vector<int> ka(a.begin(), a.end());
    thrust::device_vector<float> kb(b.begin(), b.end());
    thrust::stable_sort_by_key(ka.begin(), ka.end(), thrust::make_zip_iterator(thrust::make_tuple(kb.begin(), dc.begin())));
    std::vector<size_t> order(n);
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](size_t x, size_t y) { return a[x] < a[y]; });
    std::vector<float> wb(n);
    for (size_t i = 0; i < n; i++) wb[i] = b[order[i]];
    snprintf(label, sizeof label, "sort_by_key+zip.%zu.second", n);
    tt_report(label, to_host(kb), wb);

    /* permutation iterator: sum of a through a map */
    std::vector<int> map(n / 2);
    for (size_t i = 0; i < map.size(); i++) map[i] = (int)((i * 31) % n);
    thrust::device_vector<int> dm(map.begin(), map.end());
    int ps = thrust::reduce(thrust::make_permutation_iterator(da.begin(), dm.begin()),
                            thrust::make_permutation_iterator(da.begin(), dm.end()));
    int wps = 0;
    for (int i : map) wps += a[i];
    snprintf(label, sizeof label, "permutation+reduce.%zu", n);
    tt_scalar(label, ps, wps);

    /* reverse iterator and a discard iterator */
    thrust::device_vector<int> r(n);
    thrust::copy(thrust::make_reverse_iterator(da.end()), thrust::make_reverse_iterator(da.begin()), r.begin());
    std::vector<int> wr(a.rbegin(), a.rend());
    snprintf(label, sizeof label, "reverse_iterator+copy.%zu", n);
    tt_report(label, to_host(r), wr);
    std::vector<int> keys(n);
    for (size_t i = 0; i < n; i++) keys[i] = (int)(i / 3);
    thrust::device_vector<int> dk(keys.begin(), keys.end()), sums(n);
    auto ends = thrust::reduce_by_key(dk.begin(), dk.end(), da.begin(), thrust::make_discard_iterator(), sums.begin());
    long nsum = ends.second - sums.begin();
    snprintf(label, sizeof label, "discard+reduce_by_key.%zu.count", n);
    tt_scalar(label, nsum, (long)((n + 2) / 3));
}

/* Thrust on a stream, with a custom allocator for its temporary storage. */
struct counting_alloc {
    typedef char value_type;
    size_t *bytes;
    char *allocate(std::ptrdiff_t n) {
        char *p;
        CK(cudaMalloc(&p, n));
        *bytes += n;
        return p;
    }
    void deallocate(char *p, size_t) { CK(cudaFree(p)); }
};

static void streams(size_t n) {
    cudaStream_t s;
    CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    size_t bytes = 0;
    counting_alloc alloc{&bytes};
    std::vector<int> h = rand_ints(n, 71, 1 << 20);
    thrust::device_vector<int> d(h.begin(), h.end());
    thrust::sort(thrust::cuda::par(alloc).on(s), d.begin(), d.end());
    long long sum = thrust::reduce(thrust::cuda::par.on(s), d.begin(), d.end(), 0LL);
    CK(cudaStreamSynchronize(s));
    std::vector<int> w = h;
    std::sort(w.begin(), w.end());
    tt_report("par(alloc).on(stream)/sort", to_host(d), w);
    tt_scalar("par.on(stream)/reduce", sum, std::accumulate(h.begin(), h.end(), 0LL));
    printf("custom allocator used: %s\n", bytes > 0 ? "yes" : "no");
    if (!bytes) tt_failures++;
    CK(cudaStreamDestroy(s));
}

int main() {
    const size_t sizes[] = {0, 1, 777, 100000};
    for (size_t n : sizes) elementwise(n);
    for (size_t n : sizes) gather_scatter(n);
    merges_and_sets(0, 10);
    merges_and_sets(1000, 1);
    merges_and_sets(5000, 3333);
    merges_and_sets(70000, 50000);
    for (size_t n : sizes) iterators(n);
    streams(50000);
    return tt_finish();
}
