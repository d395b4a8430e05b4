// __fdividef(a, b) is div.approx.f32: ptxas computes it as a * rcp(b), and that product,
// like a plain mul.f32's, is fused with an add or sub that reads it into one fma (the
// PTX ISA lets the assembler contract mul/add sequences without rounding modifiers).
// A GPU so rounds __fdividef(a, b) - c once. Cases: divisor a constant and from memory,
// the quotient added and subtracted, used twice (not fused), and stored (not fused).
#include <cstdio>
#include <cuda_runtime.h>

__global__ void quotients(const float *a, const float *b, const float *c, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float x = a[i], y = b[i], z = c[i];
    out[8 * i + 0] = __fdividef(x, 3.3f) - x / 3.3f;    // constant divisor, minus the exact quotient
    out[8 * i + 1] = __fdividef(x, y) - z;               // divisor from memory
    out[8 * i + 2] = z + __fdividef(x, y);
    out[8 * i + 3] = z - __fdividef(x, y);
    float q = __fdividef(z, y);
    out[8 * i + 4] = q;                                  // stored: not fused anywhere
    out[8 * i + 5] = q - x;
    out[8 * i + 6] = __fdividef(y, x) * z + 1.0f;        // a mul of the quotient: plain
    out[8 * i + 7] = __fdividef(x, 7.0f) + __fdividef(z, y);
}

int main()
{
    const int n = 64;
    float ha[n], hb[n], hc[n], ho[8 * n];
    for (int i = 0; i < n; i++) {
        ha[i] = 0.01f + i * 37.13f;
        hb[i] = 0.7f + i * 0.91f;
        hc[i] = ha[i] / hb[i] * (1.0f + i * 1e-7f);
    }
    float *a, *b, *c, *o;
    cudaMalloc(&a, sizeof ha); cudaMalloc(&b, sizeof hb); cudaMalloc(&c, sizeof hc); cudaMalloc(&o, sizeof ho);
    cudaMemcpy(a, ha, sizeof ha, cudaMemcpyHostToDevice);
    cudaMemcpy(b, hb, sizeof hb, cudaMemcpyHostToDevice);
    cudaMemcpy(c, hc, sizeof hc, cudaMemcpyHostToDevice);
    quotients<<<2, 32>>>(a, b, c, o, n);
    cudaMemcpy(ho, o, sizeof ho, cudaMemcpyDeviceToHost);
    for (int i = 0; i < n; i += 3) {
        printf("%2d", i);
        for (int k = 0; k < 8; k++) printf(" %a", ho[8 * i + k]);
        printf("\n");
    }
    printf("%s\n", cudaGetErrorString(cudaGetLastError()));
    return 0;
}
