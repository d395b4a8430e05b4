// Fast-math intrinsics (also compiled with -use_fast_math).
extern "C" __global__ void fast_math(float *f, double *d) {
    int t = threadIdx.x;
    float x = f[t], y = f[t + 32];
    f[t] = __fdividef(x, y) + __expf(x) + __logf(y) + __sinf(x) + __cosf(y) + __tanf(x) +
           __powf(x, y) + __exp10f(x) + __log2f(y) + __log10f(x) + __saturatef(x) +
           __fadd_rz(x, y) + __fmul_ru(x, y) + __fmaf_rd(x, y, x) + __frcp_rn(x) +
           __fsqrt_rz(y) + __frsqrt_rn(x) + __fdiv_ru(x, y) + x / y + sqrtf(y) + expf(x) +
           sinf(x) + logf(y) + powf(x, y) + rsqrtf(x) + exp2f(x) + tanhf(x) + erff(x) +
           normcdff(y) + lgammaf(x) + tgammaf(y) + cbrtf(x) + hypotf(x, y) + atan2f(x, y) +
           fmodf(x, y) + remainderf(x, y) + ldexpf(x, 3) + scalbnf(y, 2) + sinpif(x) + cospif(y);
    double a = d[t], b = d[t + 32];
    d[t] = __dadd_rn(a, b) + __dmul_rz(a, b) + __fma_rd(a, b, a) + __drcp_rn(a) + __dsqrt_ru(b) +
           __ddiv_rz(a, b) + exp(a) + log(b) + sin(a) + pow(a, b) + rsqrt(a) + erfc(b) +
           cbrt(a) + atan2(a, b) + fmod(a, b) + j0(a) + lgamma(b) + rhypot(a, b) + norm3d(a, b, a);
}
