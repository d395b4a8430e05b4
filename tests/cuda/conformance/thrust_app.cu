// Thrust as an application uses it: word-frequency style counting with sort_by_key and
// reduce_by_key, a transform_reduce with a user functor, zip iterators, a stable partition,
// unique, lower_bound on sorted data, inclusive_scan_by_key, a gather through a
// permutation iterator and a device lambda.
// no-jit-twin: compiling the generated C of every Thrust kernel instance takes minutes
#include <cstdio>
#include <thrust/device_vector.h>
#include <thrust/host_vector.h>
#include <thrust/sort.h>
#include <thrust/reduce.h>
#include <thrust/scan.h>
#include <thrust/transform.h>
#include <thrust/transform_reduce.h>
#include <thrust/iterator/zip_iterator.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/permutation_iterator.h>
#include <thrust/iterator/constant_iterator.h>
#include <thrust/partition.h>
#include <thrust/unique.h>
#include <thrust/binary_search.h>
#include <thrust/sequence.h>
#include <thrust/functional.h>
#include <thrust/count.h>
#include <thrust/extrema.h>
#include <thrust/inner_product.h>

struct Square {
    __host__ __device__ double operator()(float x) const { return (double)x * x; }
};

struct Keep {
    __host__ __device__ bool operator()(int x) const { return x % 3 != 0; }
};

struct Dist {
    __host__ __device__ float operator()(const thrust::tuple<float, float> &t) const
    {
        float a = thrust::get<0>(t), b = thrust::get<1>(t);
        return a > b ? a - b : b - a;
    }
};

int main()
{
    const int n = 20000;
    thrust::host_vector<int> hk(n);
    thrust::host_vector<float> hv(n);
    unsigned s = 4242;
    for (int i = 0; i < n; i++) {
        s = s * 1664525u + 1013904223u;
        hk[i] = (int)((s >> 10) % 97);
        hv[i] = (float)((s >> 4) % 1000) / 16.0f;
    }
    thrust::device_vector<int> keys = hk;
    thrust::device_vector<float> vals = hv;

    // count and sum per key
    thrust::device_vector<int> k2 = keys;
    thrust::device_vector<float> v2 = vals;
    thrust::sort_by_key(k2.begin(), k2.end(), v2.begin());
    thrust::device_vector<int> uk(n), cnt(n);
    thrust::device_vector<float> sums(n);
    auto e1 = thrust::reduce_by_key(k2.begin(), k2.end(), thrust::constant_iterator<int>(1), uk.begin(), cnt.begin());
    int groups = (int)(e1.first - uk.begin());
    thrust::reduce_by_key(k2.begin(), k2.end(), v2.begin(), uk.begin(), sums.begin());
    printf("%d distinct keys\n", groups);
    for (int g = 0; g < groups; g += 12)
        printf("  key %2d: count %3d sum %.4f\n", (int)uk[g], (int)cnt[g], (float)sums[g]);

    double sq = thrust::transform_reduce(vals.begin(), vals.end(), Square(), 0.0, thrust::plus<double>());
    printf("sum of squares %.6f\n", sq);

    thrust::device_vector<float> shifted(n);
    thrust::transform(vals.begin(), vals.end(), shifted.begin(), [] __device__(float x) { return x * 0.5f + 1.0f; });
    float l1 = thrust::transform_reduce(thrust::make_zip_iterator(thrust::make_tuple(vals.begin(), shifted.begin())),
                                        thrust::make_zip_iterator(thrust::make_tuple(vals.end(), shifted.end())),
                                        Dist(), 0.0f, thrust::plus<float>());
    printf("L1 distance %.3f\n", l1);
    float ip = thrust::inner_product(vals.begin(), vals.begin() + 1000, shifted.begin(), 0.0f);
    printf("inner product of the first 1000: %.3f\n", ip);

    thrust::device_vector<int> part = keys;
    auto mid = thrust::stable_partition(part.begin(), part.end(), Keep());
    printf("stable_partition: %d kept, first %d %d %d, first rejected %d\n", (int)(mid - part.begin()),
           (int)part[0], (int)part[1], (int)part[2], (int)*mid);

    thrust::device_vector<int> u = keys;
    thrust::sort(u.begin(), u.end(), thrust::greater<int>());
    auto ue = thrust::unique(u.begin(), u.end());
    printf("unique descending: %d values, %d..%d\n", (int)(ue - u.begin()), (int)u[0], (int)*(ue - 1));

    thrust::device_vector<int> probes(5);
    thrust::sequence(probes.begin(), probes.end(), -5, 25);
    thrust::device_vector<int> pos(5);
    thrust::lower_bound(k2.begin(), k2.end(), probes.begin(), probes.end(), pos.begin());
    printf("lower_bound:");
    for (int i = 0; i < 5; i++) printf(" %d->%d", (int)probes[i], (int)pos[i]);
    printf("\n");

    thrust::device_vector<int> seg(n);
    thrust::inclusive_scan_by_key(k2.begin(), k2.end(), thrust::constant_iterator<int>(1), seg.begin());
    printf("rank within key at 0, 100, n-1: %d %d %d\n", (int)seg[0], (int)seg[100], (int)seg[n - 1]);

    thrust::device_vector<int> perm(10);
    thrust::sequence(perm.begin(), perm.end(), 0, 1999);
    thrust::device_vector<float> picked(10);
    thrust::copy(thrust::make_permutation_iterator(vals.begin(), perm.begin()),
                 thrust::make_permutation_iterator(vals.begin(), perm.end()), picked.begin());
    printf("gathered:");
    for (int i = 0; i < 10; i++) printf(" %.4f", (float)picked[i]);
    printf("\n");
    auto mm = thrust::minmax_element(vals.begin(), vals.end());
    printf("min %.4f at %d, max %.4f at %d\n", (float)*mm.first, (int)(mm.first - vals.begin()), (float)*mm.second,
           (int)(mm.second - vals.begin()));
    int big = thrust::count_if(vals.begin(), vals.end(), [] __device__(float x) { return x > 50.0f; });
    printf("count above 50: %d\n", big);
    return 0;
}
