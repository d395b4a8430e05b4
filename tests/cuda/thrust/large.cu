/* large.cu — the suite's largest size, 2^24 = 16,777,216 elements (the other programs stop
 * at 2^20): thrust::sort of 32-bit keys (CUB's onesweep radix sort, 4 passes), an inclusive
 * scan, copy_if (CUB's select), reduce and count_if. Each result is compared with the
 * host's std:: algorithm and printed as a hash plus a few elements. */
#include "thrust_test.h"
#include <algorithm>
#include <numeric>
#include <thrust/device_vector.h>
#include <thrust/sort.h>
#include <thrust/scan.h>
#include <thrust/copy.h>
#include <thrust/reduce.h>
#include <thrust/count.h>
#include <thrust/functional.h>

template <class T> static std::vector<T> to_host(const thrust::device_vector<T> &d) {
    std::vector<T> h(d.size());
    if (!h.empty()) thrust::copy(d.begin(), d.end(), h.begin());
    return h;
}

struct is_odd {
    __host__ __device__ bool operator()(int x) const { return (x & 1) != 0; }
};

int main() {
    const size_t n = size_t(1) << 24;

    /* sort: every bit of the keys random, so all four digit passes move them */
    {
        tt_rng r(24);
        std::vector<unsigned> keys(n);
        for (auto &k : keys) k = (unsigned)r.next();
        thrust::device_vector<unsigned> d(keys.begin(), keys.end());
        thrust::sort(d.begin(), d.end());
        std::sort(keys.begin(), keys.end());
        tt_report("sort.u32", to_host(d), keys);
    }

    /* small signed values: the scan and the sum stay far from overflow */
    tt_rng r(25);
    std::vector<int> v(n);
    for (auto &x : v) x = (int)(r.next() % 2001) - 1000;
    thrust::device_vector<int> d(v.begin(), v.end());

    thrust::device_vector<int> s(n);
    thrust::inclusive_scan(d.begin(), d.end(), s.begin());
    std::vector<int> hs(n);
    std::partial_sum(v.begin(), v.end(), hs.begin());
    tt_report("inclusive_scan.int", to_host(s), hs);

    thrust::device_vector<int> sel(n);
    size_t kept = thrust::copy_if(d.begin(), d.end(), sel.begin(), is_odd()) - sel.begin();
    sel.resize(kept);
    std::vector<int> hsel;
    std::copy_if(v.begin(), v.end(), std::back_inserter(hsel), is_odd());
    tt_report("copy_if.odd", to_host(sel), hsel);

    long long sum = thrust::reduce(d.begin(), d.end(), 0ll, thrust::plus<long long>());
    tt_scalar("reduce.sum", sum, std::accumulate(v.begin(), v.end(), 0ll));
    long long odd = thrust::count_if(d.begin(), d.end(), is_odd());
    tt_scalar("count_if.odd", odd, (long long)std::count_if(v.begin(), v.end(), is_odd()));
    return tt_finish();
}
