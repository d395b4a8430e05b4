// Complex arithmetic with cuComplex.h: a direct DFT of 256 points in single and double
// precision (twiddles from sincospi, which is exact at these angles' multiples of pi/128),
// its inverse, the magnitude spectrum with cuCabs, and complex multiply/divide of
// special values.
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <cuComplex.h>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("%s:%d %s -> %s\n", __FILE__, __LINE__, #x, cudaGetErrorName(e_)); exit(1); } } while (0)

#define N 256

__global__ void dftF(const cuFloatComplex *in, cuFloatComplex *out, int sign)
{
    int k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k >= N) return;
    cuFloatComplex acc = make_cuFloatComplex(0, 0);
    for (int t = 0; t < N; t++) {
        float s, c;
        sincospif(sign * 2.0f * (float)((k * t) % N) / N, &s, &c);
        acc = cuCaddf(acc, cuCmulf(in[t], make_cuFloatComplex(c, s)));
    }
    out[k] = sign > 0 ? make_cuFloatComplex(cuCrealf(acc) / N, cuCimagf(acc) / N) : acc;
}

__global__ void dftD(const cuDoubleComplex *in, cuDoubleComplex *out, double *mag)
{
    int k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k >= N) return;
    cuDoubleComplex acc = make_cuDoubleComplex(0, 0);
    for (int t = 0; t < N; t++) {
        double s, c;
        sincospi(-2.0 * (double)((k * t) % N) / N, &s, &c);
        acc = cuCfma(in[t], make_cuDoubleComplex(c, s), acc);
    }
    out[k] = acc;
    mag[k] = cuCabs(acc);
}

__global__ void special(cuFloatComplex *o)
{
    cuFloatComplex a = make_cuFloatComplex(1e20f, 1e20f), b = make_cuFloatComplex(3e19f, -4e19f);
    o[0] = cuCdivf(a, b);
    o[1] = cuCmulf(make_cuFloatComplex(1.5f, -2.25f), cuConjf(make_cuFloatComplex(0.5f, 4.0f)));
    o[2] = cuCdivf(make_cuFloatComplex(1.0f, 0.0f), make_cuFloatComplex(0.0f, 1e-30f));
    o[3] = make_cuFloatComplex(cuCabsf(make_cuFloatComplex(3e30f, 4e30f)), cuCabsf(make_cuFloatComplex(3e-30f, -4e-30f)));
    o[4] = cuComplexDoubleToFloat(cuCdiv(make_cuDoubleComplex(2, 3), make_cuDoubleComplex(-1, 0.5)));
}

int main()
{
    cuFloatComplex hf[N], rf[N], back[N];
    cuDoubleComplex hd[N], rd[N];
    for (int t = 0; t < N; t++) {
        // a few tones plus a step
        double v = ((t * 3) % N < 64 ? 1.0 : 0.0) + (t % 16 == 0 ? 2.0 : 0.0);
        hf[t] = make_cuFloatComplex((float)v, (float)(t % 5) * 0.25f);
        hd[t] = make_cuDoubleComplex(v, (t % 5) * 0.25);
    }
    cuFloatComplex *di, *dout, *dback;
    cuDoubleComplex *ddi, *ddo;
    double *dmag, mag[N];
    CK(cudaMalloc(&di, sizeof hf)); CK(cudaMalloc(&dout, sizeof hf)); CK(cudaMalloc(&dback, sizeof hf));
    CK(cudaMalloc(&ddi, sizeof hd)); CK(cudaMalloc(&ddo, sizeof hd)); CK(cudaMalloc(&dmag, sizeof mag));
    CK(cudaMemcpy(di, hf, sizeof hf, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(ddi, hd, sizeof hd, cudaMemcpyHostToDevice));
    dftF<<<N / 64, 64>>>(di, dout, -1);
    dftF<<<N / 64, 64>>>(dout, dback, 1);
    dftD<<<N / 64, 64>>>(ddi, ddo, dmag);
    CK(cudaGetLastError());
    CK(cudaMemcpy(rf, dout, sizeof rf, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(back, dback, sizeof back, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(rd, ddo, sizeof rd, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(mag, dmag, sizeof mag, cudaMemcpyDeviceToHost));
    for (int k = 0; k < N; k += 17)
        printf("X[%3d] float (%.6e, %.6e) double (%.15e, %.15e) |X| %.12g\n", k, cuCrealf(rf[k]), cuCimagf(rf[k]),
               cuCreal(rd[k]), cuCimag(rd[k]), mag[k]);
    double err = 0;
    for (int t = 0; t < N; t++) {
        double e = fabs(cuCrealf(back[t]) - cuCrealf(hf[t])) + fabs(cuCimagf(back[t]) - cuCimagf(hf[t]));
        err = e > err ? e : err;
    }
    printf("round trip max error %.6e, back[1] = (%.9g, %.9g)\n", err, cuCrealf(back[1]), cuCimagf(back[1]));
    cuFloatComplex sp[5], *dsp;
    CK(cudaMalloc(&dsp, sizeof sp));
    special<<<1, 1>>>(dsp);
    CK(cudaMemcpy(sp, dsp, sizeof sp, cudaMemcpyDeviceToHost));
    for (int i = 0; i < 5; i++) printf("special %d: (%.9g, %.9g)\n", i, cuCrealf(sp[i]), cuCimagf(sp[i]));
    return 0;
}
