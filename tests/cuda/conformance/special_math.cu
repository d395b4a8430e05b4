// Double-precision special functions of the CUDA math library that scientific codes call
// (Bessel functions of the first and second kind, modified Bessel functions, erfcx,
// normcdf and its inverse, erfcinv, lgamma with its sign, rcbrt, sinpi/cospi, the norm
// family, remquo, frexp/ilogb/logb/scalbn, fdim), printed with %a so every bit shows.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("%s:%d %s -> %s\n", __FILE__, __LINE__, #x, cudaGetErrorName(e_)); exit(1); } } while (0)

#define NF 28
#define NX 12

__global__ void eval(const double *xs, double *out)
{
    int i = threadIdx.x;
    double x = xs[i];
    double *o = out + i * NF;
    int k = 0, q = 0, ex = 0;
    o[k++] = j0(x);
    o[k++] = j1(x);
    o[k++] = jn(3, x);
    o[k++] = y0(fabs(x));
    o[k++] = y1(fabs(x));
    o[k++] = yn(2, fabs(x));
    o[k++] = cyl_bessel_i0(x);
    o[k++] = cyl_bessel_i1(x);
    o[k++] = erfcx(x);
    o[k++] = normcdf(x);
    o[k++] = normcdfinv(fmod(fabs(x), 1.0));
    o[k++] = erfcinv(fmod(fabs(x), 2.0));
    o[k++] = lgamma(x);
    o[k++] = rcbrt(x);
    o[k++] = sinpi(x);
    o[k++] = cospi(x);
    o[k++] = rhypot(x, 3.0);
    o[k++] = norm3d(x, -2.0, 0.5);
    o[k++] = rnorm4d(x, 1.0, 2.0, 3.0);
    double v[5] = {x, 1.0, -x, 2.5, 1e-3};
    o[k++] = norm(5, v);
    o[k++] = rnorm(5, v);
    o[k++] = remquo(x, 0.75, &q);
    o[k++] = (double)q;
    o[k++] = frexp(x, &ex) + 1000.0 * ex;
    o[k++] = (double)ilogb(x);
    o[k++] = logb(x);
    o[k++] = scalbn(x, -1030);
    o[k++] = fdim(x, 1.5);
}

int main()
{
    double h[NX] = {0.5, 1.0, 2.404825557695773, 3.75, 10.0, 25.5, -1.25, 1e-5, 100.25, 7e-310, -30.0, 0.999};
    double *d, *o, out[NX * NF];
    CK(cudaMalloc(&d, sizeof h));
    CK(cudaMalloc(&o, sizeof out));
    CK(cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice));
    eval<<<1, NX>>>(d, o);
    CK(cudaGetLastError());
    CK(cudaMemcpy(out, o, sizeof out, cudaMemcpyDeviceToHost));
    const char *names[NF] = {"j0", "j1", "jn3", "y0", "y1", "yn2", "i0", "i1", "erfcx", "normcdf", "normcdfinv",
                             "erfcinv", "lgamma", "rcbrt", "sinpi", "cospi", "rhypot", "norm3d", "rnorm4d", "norm",
                             "rnorm", "remquo", "quo", "frexp", "ilogb", "logb", "scalbn", "fdim"};
    for (int f = 0; f < NF; f++) {
        printf("%-10s", names[f]);
        for (int i = 0; i < NX; i++) printf(" %a", out[i * NF + f]);
        printf("\n");
    }
    return 0;
}
