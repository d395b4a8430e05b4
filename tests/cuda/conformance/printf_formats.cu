// Device printf with many conversions and flags from one thread: %d %i %u %x %X %o %ld %lld
// %llu %f %e %E %g %G %a %s %c %%, widths, precisions, '-', '0', '+', ' ', '#' flags, '*'
// widths, long strings, many arguments in one call, and several printf calls from the
// lanes of one warp (in lane order) and from a loop. (A precision given as an argument,
// "%.*f", is not implemented by the device printf: the H100 printed it as written, or
// read garbage, depending on the call; it is left out.)
#include <cstdio>
#include <cstdlib>
#include <climits>
#include <cuda_runtime.h>

#define CHECK(call) do { cudaError_t e = (call); if (e != cudaSuccess) { \
    printf("CUDA error %s at line %d\n", cudaGetErrorName(e), __LINE__); exit(1); } } while (0)

__global__ void formats(int i, unsigned u, long long ll, double d, float f, const char *name)
{
    if (threadIdx.x != 0 || blockIdx.x != 0) return;
    printf("ints: %d %i %u %x %X %o\n", i, -i, u, u, u, 8u);
    printf("longs: %ld %lld %llu %llx\n", (long)ll, ll, (unsigned long long)ll * 3, ll);
    printf("limits: %d %d %u %lld %lld\n", INT_MAX, INT_MIN, UINT_MAX, LLONG_MAX, LLONG_MIN);
    printf("floats: %f %e %E %g %G\n", d, d, d, d, d);
    printf("hexfloat: %a %A %a\n", d, 1.0, -0.375);
    printf("small: %f %e %g %.3g %.10g\n", 1e-5, 1e-5, 1e-5, 1.0 / 3.0, 1.0 / 3.0);
    printf("float arg: %f %.2f %g\n", f, f, f);
    printf("widths: [%5d] [%-5d] [%05d] [%+d] [% d] [%8.3f] [%-8.2f] [%08.2f]\n", 42, 42, 42, 42, 42, d, d, -d);
    printf("hex: [%08x] [%#x] [%#o] [%-10x] [%10X]\n", 0xbeefu, 255u, 8u, 0xabcu, 0xabcu);
    printf("precision: [%.0f] [%.1f] [%.15f] [%10.4e] [%.0e]\n", 2.5, 0.05, 0.1, 12345.678, 5e10);
    printf("specials: %f %f %f %e\n", 1.0 / 0.0, -1.0 / 0.0, 0.0 / 0.0 * 0, -0.0);
    printf("string: [%s] [%10s] [%-10s] [%.3s] name=%s\n", "abc", "right", "left", "truncate", name);
    printf("chars: %c%c%c %c [%3c]\n", 'G', 'P', 'U', 65 + i % 26, 'z');
    printf("percent: 100%% done, %d%%\n", 50);
    printf("star: [%*d] [%-*d] [%*.3f]\n", 6, 7, 6, 7, 9, 3.14159265);
    printf("many: %d %d %d %d %d %d %d %d %d %d %d %d %f %f %f %f\n", 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 1.5, 2.5, 3.5, 4.5);
    printf("mixed: %c %d %s %f %llu %x %g\n", 'x', -1, "str", 0.125, 18446744073709551615ULL, 0xdeadu, 1e100);
    printf("no arguments at all\n");
    printf("%s\n", "a long string argument that goes on for a while to check that nothing truncates it at some short internal limit");
}

__global__ void lanes(int base)
{
    int lane = threadIdx.x;
    printf("lane %2d of warp: value %d, square %d\n", lane, base + lane, (base + lane) * (base + lane));
}

__global__ void loop(int n)
{
    for (int k = 0; k < n; k++) printf("loop iteration %d: %.2f\n", k, k * 1.25);
}

int main()
{
    const char *hname = "device-string";
    char *dname;
    CHECK(cudaMalloc(&dname, 32));
    CHECK(cudaMemcpy(dname, hname, 14, cudaMemcpyHostToDevice));
    formats<<<2, 32>>>(12345, 3000000000u, -1234567890123LL, 3.14159265358979, 2.71828f, dname);
    CHECK(cudaDeviceSynchronize());
    printf("host: after formats\n");
    lanes<<<1, 8>>>(100);
    CHECK(cudaDeviceSynchronize());
    printf("host: after lanes\n");
    loop<<<1, 1>>>(5);
    CHECK(cudaDeviceSynchronize());
    printf("host: done\n");
    return 0;
}
