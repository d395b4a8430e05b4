// tests/sfu/probe_tables.cu — the exhaustive special-function-unit tables vcuda's
// emulation was fitted to (exec/alu_sfu.c), as an H200 made them: per input of a binade
// (or two), the GPU's result minus the correctly rounded one, as int8 saturated at +-127.
// Run on the GPU: nvcc -arch=sm_90 -o probe_tables probe_tables.cu && ./probe_tables DIR
// (about 100 MB of output; bench/sfu_fit and bench/sfu_check read DIR).
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <cmath>
#include <vector>
#include <string>
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { fprintf(stderr, "%s: %s\n", #x, cudaGetErrorString(e_)); exit(1); } } while (0)

__global__ void sfu_k(int fn, uint32_t first, uint32_t step, int8_t *delta, uint32_t *raw, uint32_t n) {
    uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    uint32_t xb = first + i * step;
    float x = __uint_as_float(xb), y;
    double r;
    switch (fn) {
    case 0: asm("rcp.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x)); r = 1.0 / x; break;
    case 1: asm("rsqrt.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x)); r = 1.0 / sqrt((double)x); break;
    case 2: asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x)); r = exp2((double)x); break;
    case 3: asm("lg2.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x)); r = log2((double)x); break;
    case 4: asm("sin.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x)); r = sin((double)x); break;
    case 5: asm("cos.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x)); r = cos((double)x); break;
    case 6: asm("sqrt.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x)); r = sqrt((double)x); break;
    default: asm("tanh.approx.f32 %0, %1;" : "=f"(y) : "f"(x)); r = tanh((double)x); break;
    }
    int d = (int)__float_as_uint(y) - (int)__float_as_uint((float)r);
    delta[i] = d > 127 ? 127 : d < -127 ? -127 : d;
    if (raw) raw[i] = __float_as_uint(y);
}

static void sfu(const char *path, int fn, uint32_t first, uint32_t step, uint32_t n, FILE *sum) {
    int8_t *dd; CK(cudaMalloc(&dd, n));
    sfu_k<<<(n + 255) / 256, 256>>>(fn, first, step, dd, nullptr, n);
    CK(cudaDeviceSynchronize());
    std::vector<int8_t> h(n);
    CK(cudaMemcpy(h.data(), dd, n, cudaMemcpyDeviceToHost));
    FILE *f = fopen(path, "ab"); fwrite(h.data(), 1, n, f); fclose(f);
    long hist[5] = {0}; int mn = 0, mx = 0;
    for (uint32_t i = 0; i < n; i++) { int d = h[i]; if (d < mn) mn = d; if (d > mx) mx = d; if (d >= -2 && d <= 2) hist[d + 2]++; }
    fprintf(sum, "sfu fn %d first %08x step %u n %u: min %d max %d  -2:%ld -1:%ld 0:%ld 1:%ld 2:%ld\n",
            fn, first, step, n, mn, mx, hist[0], hist[1], hist[2], hist[3], hist[4]);
    cudaFree(dd);
}

int main(int argc, char **argv) {
    std::string o(argc > 1 ? argv[1] : ".");
    cudaDeviceProp p; CK(cudaGetDeviceProperties(&p, 0));
    FILE *sum = fopen((o + "/summary.txt").c_str(), "w");
    fprintf(sum, "device: %s cc %d.%d\n", p.name, p.major, p.minor);
    sfu((o + "/sfu_a.i8").c_str(), 0, 0x3f800000u, 1, 1u << 23, sum);   // rcp [1,2)
    sfu((o + "/sfu_a.i8").c_str(), 1, 0x3f800000u, 1, 1u << 24, sum);   // rsqrt [1,4)
    sfu((o + "/sfu_b.i8").c_str(), 2, 0x3f800000u, 1, 1u << 23, sum);   // ex2 [1,2)
    sfu((o + "/sfu_b.i8").c_str(), 2, 0xbf800000u, 1, 1u << 23, sum);   // ex2 (-2,-1]
    sfu((o + "/sfu_b.i8").c_str(), 3, 0x3f800000u, 1, 1u << 23, sum);   // lg2 [1,2)
    sfu((o + "/sfu_c.i8").c_str(), 4, 0x3f800000u, 1, 1u << 23, sum);   // sin [1,2)
    sfu((o + "/sfu_c.i8").c_str(), 5, 0x3f800000u, 1, 1u << 23, sum);   // cos [1,2)
    sfu((o + "/sfu_d.i8").c_str(), 6, 0x3f800000u, 1, 1u << 24, sum);   // sqrt [1,4)
    sfu((o + "/sfu_d.i8").c_str(), 7, 0x3e800000u, 1, 1u << 23, sum);   // tanh [0.25,0.5)
    fclose(sum);
    return 0;
}
