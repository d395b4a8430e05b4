// SIMD video intrinsics (CUDA Math API "SIMD intrinsics"): one output per intrinsic.
#define SIMD_LIST(X) \
    X(vabs2) X(vabs4) X(vabsdiffs2) X(vabsdiffs4) X(vabsdiffu2) X(vabsdiffu4) X(vabsss2) X(vabsss4) \
    X(vadd2) X(vadd4) X(vaddss2) X(vaddss4) X(vaddus2) X(vaddus4) X(vavgs2) X(vavgs4) X(vavgu2)   \
    X(vavgu4) X(vcmpeq2) X(vcmpeq4) X(vcmpges2) X(vcmpges4) X(vcmpgeu2) X(vcmpgeu4) X(vcmpgts2)    \
    X(vcmpgts4) X(vcmpgtu2) X(vcmpgtu4) X(vcmples2) X(vcmples4) X(vcmpleu2) X(vcmpleu4)          \
    X(vcmplts2) X(vcmplts4) X(vcmpltu2) X(vcmpltu4) X(vcmpne2) X(vcmpne4) X(vhaddu2) X(vhaddu4)   \
    X(vmaxs2) X(vmaxs4) X(vmaxu2) X(vmaxu4) X(vmins2) X(vmins4) X(vminu2) X(vminu4) X(vneg2)     \
    X(vneg4) X(vnegss2) X(vnegss4) X(vsads2) X(vsads4) X(vsadu2) X(vsadu4) X(vseteq2) X(vseteq4) \
    X(vsetges2) X(vsetges4) X(vsetgeu2) X(vsetgeu4) X(vsetgts2) X(vsetgts4) X(vsetgtu2)          \
    X(vsetgtu4) X(vsetles2) X(vsetles4) X(vsetleu2) X(vsetleu4) X(vsetlts2) X(vsetlts4)          \
    X(vsetltu2) X(vsetltu4) X(vsetne2) X(vsetne4) X(vsub2) X(vsub4) X(vsubss2) X(vsubss4)        \
    X(vsubus2) X(vsubus4)

// out[k * n + i] = __<intrinsic k>(a[i], b[i]); unary intrinsics take a[i] only.
__device__ __forceinline__ unsigned call1(unsigned (*f)(unsigned), unsigned a, unsigned) { return f(a); }
__device__ __forceinline__ unsigned call1(unsigned (*f)(unsigned, unsigned), unsigned a, unsigned b) { return f(a, b); }

extern "C" __global__ void simd(const unsigned *a, const unsigned *b, unsigned *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    unsigned x = a[i], y = b[i];
    int k = 0;
#define X(name) out[(k++) * n + i] = call1(__##name, x, y);
    SIMD_LIST(X)
#undef X
}
