// SIMD-within-a-word intrinsics on halfwords and bytes (__vadd2 ... __vsubus4): every one
// of them on 64 operand pairs, each result printed as a hash and for a few inputs in hex,
// with the ones whose meaning is plain (add, sub, saturating forms, abs, neg, min, max,
// absolute differences, sums of them, comparisons, halving add) checked against the host.
// Several compile to the video instructions (vabsdiff4, ...) in inline PTX; the video
// instructions are also used directly, in forms the intrinsics do not emit.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>

#define CHECK(call) do { cudaError_t e = (call); if (e != cudaSuccess) { \
    printf("CUDA error %s at line %d\n", cudaGetErrorName(e), __LINE__); exit(1); } } while (0)

#define UNARY(X) X(vabs2) X(vabsss2) X(vneg2) X(vnegss2) X(vabs4) X(vabsss4) X(vneg4) X(vnegss4)
#define BINARY(X) \
    X(vabsdiffs2) X(vabsdiffu2) X(vadd2) X(vaddss2) X(vaddus2) X(vavgs2) X(vavgu2) X(vcmpeq2) X(vcmpges2) \
    X(vcmpgeu2) X(vcmpgts2) X(vcmpgtu2) X(vcmples2) X(vcmpleu2) X(vcmplts2) X(vcmpltu2) X(vcmpne2) X(vhaddu2) \
    X(vmaxs2) X(vmaxu2) X(vmins2) X(vminu2) X(vsads2) X(vsadu2) X(vseteq2) X(vsetges2) X(vsetgeu2) X(vsetgts2) \
    X(vsetgtu2) X(vsetles2) X(vsetleu2) X(vsetlts2) X(vsetltu2) X(vsetne2) X(vsub2) X(vsubss2) X(vsubus2) \
    X(vabsdiffs4) X(vabsdiffu4) X(vadd4) X(vaddss4) X(vaddus4) X(vavgs4) X(vavgu4) X(vcmpeq4) X(vcmpges4) \
    X(vcmpgeu4) X(vcmpgts4) X(vcmpgtu4) X(vcmples4) X(vcmpleu4) X(vcmplts4) X(vcmpltu4) X(vcmpne4) X(vhaddu4) \
    X(vmaxs4) X(vmaxu4) X(vmins4) X(vminu4) X(vsads4) X(vsadu4) X(vseteq4) X(vsetges4) X(vsetgeu4) X(vsetgts4) \
    X(vsetgtu4) X(vsetles4) X(vsetleu4) X(vsetlts4) X(vsetltu4) X(vsetne4) X(vsub4) X(vsubss4) X(vsubus4)
#define ASM(X) X(vadd4_s_sat, "vadd4.s32.s32.s32.sat") X(vsub2_u_sat, "vsub2.u32.u32.u32.sat") \
    X(vavrg4_s, "vavrg4.s32.s32.s32") X(vmax2_add, "vmax2.s32.s32.s32.add") X(vmin4_us, "vmin4.s32.u32.s32") \
    X(vabsdiff2_s, "vabsdiff2.s32.s32.s32")

enum {
#define E(n) O_##n,
    UNARY(E) BINARY(E)
#undef E
#define EA(n, s) O_##n,
    ASM(EA)
#undef EA
    NOPS
};
static const char *names[NOPS] = {
#define N(n) #n,
    UNARY(N) BINARY(N)
#undef N
#define NA(n, s) s,
    ASM(NA)
#undef NA
};

__global__ void simd(const unsigned *a, const unsigned *b, unsigned *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    unsigned x = a[i], y = b[i], *o = out + i * NOPS, r;
#define DU(n) o[O_##n] = __##n(x);
    UNARY(DU)
#undef DU
#define DB(n) o[O_##n] = __##n(x, y);
    BINARY(DB)
#undef DB
#define DA(n, s) asm(s " %0, %1, %2, %3;" : "=r"(r) : "r"(x), "r"(y), "r"(0x01020304u)); o[O_##n] = r;
    ASM(DA)
#undef DA
}

// ---- host reference for the plain ones: op on each element ----
static long long el(unsigned v, int k, int bits, bool s)
{
    long long e = (v >> (k * bits)) & ((1u << bits) - 1);
    return s && e >= (1ll << (bits - 1)) ? e - (1ll << bits) : e;
}
static bool reference(const char *n, unsigned x, unsigned y, unsigned *r)
{
    int len = (int)strlen(n), lanes = n[len - 1] == '4' ? 4 : 2, bits = 32 / lanes;
    char op[16];
    memcpy(op, n + 1, len - 2); op[len - 2] = 0;   // "vaddss2" -> "addss"
    long long lo_s = -(1ll << (bits - 1)), hi_s = (1ll << (bits - 1)) - 1, hi_u = (1ll << bits) - 1;
    unsigned res = 0, sum = 0;
    bool sad = !strcmp(op, "sads") || !strcmp(op, "sadu");
    for (int k = 0; k < lanes; k++) {
        long long xs = el(x, k, bits, true), ys = el(y, k, bits, true), xu = el(x, k, bits, false), yu = el(y, k, bits, false), t;
        if (!strcmp(op, "add")) t = xu + yu;
        else if (!strcmp(op, "sub")) t = xu - yu;
        else if (!strcmp(op, "addss")) { t = xs + ys; t = t < lo_s ? lo_s : t > hi_s ? hi_s : t; }
        else if (!strcmp(op, "subss")) { t = xs - ys; t = t < lo_s ? lo_s : t > hi_s ? hi_s : t; }
        else if (!strcmp(op, "addus")) { t = xu + yu; t = t > hi_u ? hi_u : t; }
        else if (!strcmp(op, "subus")) { t = xu - yu; t = t < 0 ? 0 : t; }
        else if (!strcmp(op, "abs")) t = xs < 0 ? -xs : xs;
        else if (!strcmp(op, "absss")) { t = xs < 0 ? -xs : xs; t = t > hi_s ? hi_s : t; }
        else if (!strcmp(op, "neg")) t = -xs;
        else if (!strcmp(op, "negss")) { t = -xs; t = t > hi_s ? hi_s : t; }
        else if (!strcmp(op, "absdiffs") || !strcmp(op, "sads")) t = xs > ys ? xs - ys : ys - xs;
        else if (!strcmp(op, "absdiffu") || !strcmp(op, "sadu")) t = xu > yu ? xu - yu : yu - xu;
        else if (!strcmp(op, "maxs")) t = xs > ys ? xs : ys;
        else if (!strcmp(op, "maxu")) t = xu > yu ? xu : yu;
        else if (!strcmp(op, "mins")) t = xs < ys ? xs : ys;
        else if (!strcmp(op, "minu")) t = xu < yu ? xu : yu;
        else if (!strcmp(op, "haddu")) t = (xu + yu) >> 1;
        else if (!strncmp(op, "cmp", 3) || !strncmp(op, "set", 3)) {
            const char *c = op + 3;
            bool s = c[2] == 's';
            long long p = s ? xs : xu, q = s ? ys : yu;
            bool v = !strncmp(c, "eq", 2) ? p == q : !strncmp(c, "ne", 2) ? p != q : !strncmp(c, "ge", 2) ? p >= q
                   : !strncmp(c, "gt", 2) ? p > q : !strncmp(c, "le", 2) ? p <= q : p < q;
            t = v ? (op[0] == 'c' ? hi_u : 1) : 0;
        } else return false;                           // averages: printed, not checked
        sum += (unsigned)t;
        res |= ((unsigned)t & (unsigned)hi_u) << (k * bits);
    }
    *r = sad ? sum : res;
    return true;
}

int main()
{
    const int n = 64;
    unsigned ha[n], hb[n];
    const unsigned special[8][2] = {{0, 0}, {0xffffffffu, 0x00000001u}, {0x80008000u, 0x7fff7fffu}, {0x80808080u, 0x7f7f7f7fu},
                                    {0x01020304u, 0x04030201u}, {0xff00ff00u, 0x00ff00ffu}, {0x7fff0001u, 0x0001ffffu}, {0x12345678u, 0x12345678u}};
    unsigned s = 2024;
    for (int i = 0; i < n; i++) {
        if (i < 8) { ha[i] = special[i][0]; hb[i] = special[i][1]; continue; }
        s = s * 1664525u + 1013904223u; ha[i] = s;
        s = s * 1664525u + 1013904223u; hb[i] = i % 5 ? s : ha[i] ^ 0x00ff0000u;
    }
    unsigned *da, *db, *dout;
    CHECK(cudaMalloc(&da, sizeof ha)); CHECK(cudaMalloc(&db, sizeof hb)); CHECK(cudaMalloc(&dout, n * NOPS * 4));
    CHECK(cudaMemcpy(da, ha, sizeof ha, cudaMemcpyHostToDevice)); CHECK(cudaMemcpy(db, hb, sizeof hb, cudaMemcpyHostToDevice));
    simd<<<2, 32>>>(da, db, dout, n);
    CHECK(cudaGetLastError());
    unsigned *h = (unsigned *)malloc(n * NOPS * 4);
    CHECK(cudaMemcpy(h, dout, n * NOPS * 4, cudaMemcpyDeviceToHost));
    int bad = 0, checked = 0;
    for (int k = 0; k < NOPS; k++) {
        unsigned long long hash = 0;
        for (int i = 0; i < n; i++) {
            unsigned g = h[i * NOPS + k], r;
            hash = hash * 1000003ULL + g;
            if (k < O_vadd4_s_sat && reference(names[k], ha[i], hb[i], &r)) {
                checked++;
                if (g != r) { if (bad < 10) printf("mismatch %s(%08x, %08x): gpu %08x host %08x\n", names[k], ha[i], hb[i], g, r); bad++; }
            }
        }
        printf("%-24s %016llx:", names[k], hash);
        for (int i = 0; i < 8; i++) printf(" %08x", h[i * NOPS + k]);
        printf("\n");
    }
    printf("%d results checked against the host\n", checked);
    printf("%s (%d mismatches)\n", bad ? "FAIL" : "PASS", bad);
    return bad ? 1 : 0;
}
