// cuda::std::complex and cuComplex arithmetic.
#include <cuda/std/complex>
#include <cuComplex.h>

extern "C" __global__ void complex_math(cuda::std::complex<float> *cf, cuda::std::complex<double> *cd,
                                        cuFloatComplex *uf, cuDoubleComplex *ud) {
    int t = threadIdx.x;
    cuda::std::complex<float> a = cf[t], b = cf[t + 32];
    cf[t] = a * b + a / b + cuda::std::exp(a) + cuda::std::sqrt(b) + cuda::std::log(a) +
            cuda::std::pow(a, b) + cuda::std::conj(a) * cuda::std::abs(b) + cuda::std::sin(a) +
            cuda::std::polar(1.0f, cuda::std::arg(b));
    cuda::std::complex<double> c = cd[t], d = cd[t + 32];
    cd[t] = c * d + c / d + cuda::std::exp(c) + cuda::std::tanh(d) + cuda::std::norm(c);
    uf[t] = cuCaddf(cuCmulf(uf[t], uf[t + 32]), cuCdivf(uf[t], uf[t + 32]));
    ud[t] = cuCfma(ud[t], ud[t + 32], make_cuDoubleComplex(cuCabs(ud[t]), 1.0));
}
