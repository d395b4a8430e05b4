/* tests/unit/test_exec_mma.c — wmma.load/.store/.mma, mma.sync, ldmatrix, stmatrix and
 * movmatrix run end to end through the SIMT core (kernels: tests/ptx/exec/mma.cu). Inputs
 * are small integers, so every product is exact in every format and the host computes
 * the expected matrices; a load past the end of an allocation is a device fault. */
#include "exec_harness.h"

#include <stdint.h>

static uint32_t rng = 2024;
static uint32_t rnd32(void) {
    rng = rng * 1664525u + 1013904223u;
    return rng ^ (rng >> 15) * 2246822519u;
}
static int rnd(int lo, int hi) {
    rng = rng * 1664525u + 1013904223u;
    return lo + (int)((rng >> 8) % (uint32_t)(hi - lo + 1));
}

/* The bit pattern of a small integer as f16 (exact below 2048). */
static uint16_t f16_bits(int v) {
    if (!v) return 0;
    unsigned s = v < 0, m = (unsigned)(v < 0 ? -v : v), e = 31 - (unsigned)__builtin_clz(m);
    return (uint16_t)(s << 15 | (e + 15) << 10 | ((m << (10 - e)) & 0x3ff));
}
static uint32_t f32_bits(float f) { uint32_t b; memcpy(&b, &f, 4); return b; }
static uint16_t bf16_bits(int v) { return (uint16_t)(f32_bits((float)v) >> 16); }

enum { T_F16, T_BF16, T_TF32, T_F64, T_S8, T_U8, T_F32, T_S32 };
static const unsigned tsize[] = {2, 2, 4, 8, 1, 1, 4, 4};

/* Store integer v at element i of buf in type t. */
static void put(void *buf, int t, size_t i, int v) {
    uint8_t *p = (uint8_t *)buf + i * tsize[t];
    uint16_t h;
    uint32_t w;
    double d = v;
    switch (t) {
    case T_F16: h = f16_bits(v); memcpy(p, &h, 2); break;
    case T_BF16: h = bf16_bits(v); memcpy(p, &h, 2); break;
    case T_TF32: case T_F32: w = f32_bits((float)v); memcpy(p, &w, 4); break;
    case T_F64: memcpy(p, &d, 8); break;
    case T_S8: case T_U8: *p = (uint8_t)v; break;
    default: w = (uint32_t)v; memcpy(p, &w, 4); break;
    }
}

/* The element i of buf in type t, as bits. */
static uint64_t get_bits(const void *buf, int t, size_t i) {
    uint64_t v = 0;
    memcpy(&v, (const uint8_t *)buf + i * tsize[t], tsize[t]);
    return v;
}

static uint64_t int_bits(int t, int v) {
    uint8_t tmp[8] = {0};
    put(tmp, t, 0, v);
    return get_bits(tmp, t, 0);
}

typedef struct wcase {
    const char *kernel;
    unsigned M, N, K;
    int in, acc;
    bool arow, brow, dcol;
} wcase;

static const wcase wcases[] = {
    {"wmma_f16_f32", 16, 16, 16, T_F16, T_F32, true, false, false},
    {"wmma_f16_f16_colstore", 16, 16, 16, T_F16, T_F16, false, true, true},
    {"wmma_f16_m32n8", 32, 8, 16, T_F16, T_F32, true, true, false},
    {"wmma_f16_m8n32", 8, 32, 16, T_F16, T_F16, false, false, false},
    {"wmma_bf16_m32n8", 32, 8, 16, T_BF16, T_F32, false, true, false},
    {"wmma_bf16_m8n32", 8, 32, 16, T_BF16, T_F32, true, false, false},
    {"wmma_tf32", 16, 16, 8, T_TF32, T_F32, true, false, false},
    {"wmma_f64", 8, 8, 4, T_F64, T_F64, false, true, false},
    {"wmma_s8", 16, 16, 16, T_S8, T_S32, true, false, false},
    {"wmma_u8_m8n32", 8, 32, 16, T_U8, T_S32, false, true, false},
    {"wmma_shared", 16, 16, 16, T_F16, T_F32, true, false, false},
};

static void run_wmma(harness *h, const wcase *c) {
    unsigned M = c->M, N = c->N, K = c->K;
    int lo = c->in == T_U8 ? 0 : -3, hi = c->in == T_U8 ? 9 : 3;
    int *a = malloc(M * K * sizeof(int)), *b = malloc(K * N * sizeof(int)), *cc = malloc(M * N * sizeof(int));
    void *A = harness_alloc(h, M * K * tsize[c->in]), *B = harness_alloc(h, K * N * tsize[c->in]);
    void *C = harness_alloc(h, M * N * tsize[c->acc]), *D = harness_alloc(h, M * N * tsize[c->acc]);
    for (unsigned i = 0; i < M; i++)
        for (unsigned k = 0; k < K; k++) {
            a[i * K + k] = rnd(lo, hi);
            put(A, c->in, c->arow ? i * K + k : k * M + i, a[i * K + k]);
        }
    for (unsigned k = 0; k < K; k++)
        for (unsigned j = 0; j < N; j++) {
            b[k * N + j] = rnd(lo, hi);
            put(B, c->in, c->brow ? k * N + j : j * K + k, b[k * N + j]);
        }
    for (unsigned i = 0; i < M * N; i++) {
        cc[i] = rnd(-8, 8);
        put(C, c->acc, i, cc[i]);
    }
    void *args[] = {&A, &B, &C, &D};
    harness_run r = harness_launch(h, c->kernel, dim(1, 1, 1), dim(32, 1, 1), 0, args);
    CHECK_EQ_U64(r.kind, EXEC_OK);
    if (r.kind) fprintf(stderr, "%s: %s\n", c->kernel, r.fault.msg);
    unsigned bad = 0;
    for (unsigned i = 0; i < M; i++)
        for (unsigned j = 0; j < N; j++) {
            int s = cc[i * N + j];
            for (unsigned k = 0; k < K; k++) s += a[i * K + k] * b[k * N + j];
            uint64_t got = get_bits(D, c->acc, c->dcol ? j * M + i : i * N + j);
            if (got != int_bits(c->acc, s) && bad++ < 3)
                fprintf(stderr, "%s: d[%u][%u] = %#llx, expected %d\n", c->kernel, i, j,
                        (unsigned long long)got, s);
        }
    CHECK_EQ_U64(bad, 0);
    harness_dealloc(h, A);
    harness_dealloc(h, B);
    harness_dealloc(h, C);
    harness_dealloc(h, D);
    free(a);
    free(b);
    free(cc);
}

static void run_ldmatrix(harness *h) {
    int a[256], bt[128], bk[128], c[128];
    uint16_t *A = harness_alloc(h, 512), *Bt = harness_alloc(h, 256), *Bk = harness_alloc(h, 256);
    float *C = harness_alloc(h, 512), *D = harness_alloc(h, 512), *E = harness_alloc(h, 512);
    uint16_t *Dh = harness_alloc(h, 256), *DhT = harness_alloc(h, 256);
    for (int i = 0; i < 256; i++) { a[i] = rnd(-3, 3); A[i] = f16_bits(a[i]); }
    for (int i = 0; i < 128; i++) {
        bt[i] = rnd(-3, 3); Bt[i] = f16_bits(bt[i]);
        bk[i] = rnd(-3, 3); Bk[i] = f16_bits(bk[i]);
        c[i] = rnd(-8, 8); C[i] = (float)c[i];
    }
    void *args[] = {&A, &Bt, &Bk, &C, &D, &E, &Dh, &DhT};
    harness_run r = harness_launch(h, "mma_ldmatrix", dim(1, 1, 1), dim(32, 1, 1), 0, args);
    CHECK_EQ_U64(r.kind, EXEC_OK);
    if (r.kind) fprintf(stderr, "mma_ldmatrix: %s\n", r.fault.msg);
    unsigned bad = 0;
    for (int i = 0; i < 16; i++)
        for (int j = 0; j < 8; j++) {
            int d = c[i * 8 + j], e = 0;
            for (int k = 0; k < 16; k++) {
                d += a[i * 16 + k] * bt[j * 16 + k];  /* B given transposed */
                e += a[i * 16 + k] * bk[k * 8 + j];   /* B row-major, ldmatrix.trans */
            }
            bad += D[i * 8 + j] != (float)d;
            bad += E[i * 8 + j] != (float)e;
            bad += Dh[i * 8 + j] != f16_bits(d);
            bad += DhT[i * 8 + j] != f16_bits(d);
        }
    CHECK_EQ_U64(bad, 0);
    harness_dealloc(h, A); harness_dealloc(h, Bt); harness_dealloc(h, Bk); harness_dealloc(h, C);
    harness_dealloc(h, D); harness_dealloc(h, E); harness_dealloc(h, Dh); harness_dealloc(h, DhT);
}

static void run_misc(harness *h) {
    int8_t *As8 = harness_alloc(h, 512), *Bs8 = harness_alloc(h, 256);
    uint8_t *Au8 = harness_alloc(h, 128);
    float *Atf = harness_alloc(h, 512), *Btf = harness_alloc(h, 256);
    double *Af = harness_alloc(h, 256), *Bf = harness_alloc(h, 256);
    int *Ds8 = harness_alloc(h, 512), *Dk16 = harness_alloc(h, 256);
    float *Dtf = harness_alloc(h, 512);
    double *Df = harness_alloc(h, 512);
    for (int i = 0; i < 512; i++) As8[i] = (int8_t)rnd(-128, 127);
    for (int i = 0; i < 256; i++) Bs8[i] = (int8_t)rnd(-128, 127);
    for (int i = 0; i < 128; i++) Au8[i] = (uint8_t)rnd(0, 255);
    for (int i = 0; i < 128; i++) Atf[i] = (float)rnd(-3, 3);
    for (int i = 0; i < 64; i++) Btf[i] = (float)rnd(-3, 3);
    for (int i = 0; i < 32; i++) { Af[i] = rnd(-9, 9); Bf[i] = rnd(-9, 9); }
    void *args[] = {&As8, &Bs8, &Au8, &Atf, &Btf, &Af, &Bf, &Ds8, &Dk16, &Dtf, &Df};
    harness_run r = harness_launch(h, "mma_misc", dim(1, 1, 1), dim(32, 1, 1), 0, args);
    CHECK_EQ_U64(r.kind, EXEC_OK);
    if (r.kind) fprintf(stderr, "mma_misc: %s\n", r.fault.msg);
    unsigned bad = 0;
    for (int i = 0; i < 16; i++)
        for (int j = 0; j < 8; j++) {
            int lane = (i % 8) * 4 + j / 2, idx = (i / 8) * 2 + (j & 1);
            long long s = idx == 0 ? 2147483000LL : idx == 1 ? -2147483000LL : idx == 2 ? lane : -lane;
            int t = -1;
            for (int k = 0; k < 32; k++) s += As8[i * 32 + k] * Bs8[k * 8 + j];
            for (int k = 0; k < 8; k++) t += (int)(Atf[i * 8 + k] * Btf[k * 8 + j]);
            if (s > INT32_MAX) s = INT32_MAX; /* .satfinite */
            if (s < INT32_MIN) s = INT32_MIN;
            bad += Ds8[i * 8 + j] != (int)s;
            bad += Dtf[i * 8 + j] != (float)t;
        }
    for (int i = 0; i < 8; i++)
        for (int j = 0; j < 8; j++) {
            int s = (j & 1) ? -7 : 7;
            double f = (j & 1) ? -1 : 1;
            for (int k = 0; k < 16; k++) s += Au8[i * 16 + k] * Bs8[k * 8 + j];
            for (int k = 0; k < 4; k++) f += Af[i * 4 + k] * Bf[k * 8 + j];
            bad += Dk16[i * 8 + j] != s;
            bad += Df[i * 8 + j] != f;
        }
    CHECK_EQ_U64(bad, 0);
    /* the saturation was reached */
    CHECK(Ds8[0] == INT32_MAX || Ds8[1] == INT32_MIN || Ds8[8 * 8] == INT32_MAX || Ds8[8 * 8 + 1] == INT32_MIN);
    void *bufs[] = {As8, Bs8, Au8, Atf, Btf, Af, Bf, Ds8, Dk16, Dtf, Df};
    for (unsigned i = 0; i < sizeof bufs / sizeof bufs[0]; i++) harness_dealloc(h, bufs[i]);
}

/* Forms vcuda does not run are refused at load time, naming the instruction. */
static void check_refused(const char *insn, const char *regs, const char *expect) {
    char text[1024];
    snprintf(text, sizeof text,
             ".version 8.0\n.target sm_90\n.address_size 64\n"
             ".visible .entry k(.param .u64 p)\n{\n%s\n\t%s;\n\tret;\n}\n", regs, insn);
    harness e = {0};
    bool ok = harness_load(&e, text);
    CHECK(!ok);
    if (!ok && !strstr(e.err, expect)) {
        fprintf(stderr, "refusing '%s': %s\n", insn, e.err);
        harness_failures++;
    }
    harness_free(&e);
}

/* Field k of a packed row or column (bits-wide fields, 32 / bits a word). */
static int field(const uint32_t *words, unsigned k, unsigned bits, bool sign) {
    unsigned per = 32 / bits;
    uint32_t v = (words[k / per] >> (k % per * bits)) & ((1u << bits) - 1);
    return sign && bits > 1 && (v >> (bits - 1)) ? (int)v - (1 << bits) : (int)v;
}

static void run_sub_byte(harness *h) {
    uint32_t *A = harness_alloc(h, 16 * 8 * 4), *B = harness_alloc(h, 8 * 8 * 4);
    uint32_t *A1 = harness_alloc(h, 16 * 8 * 4), *B1 = harness_alloc(h, 8 * 8 * 4);
    int *C = harness_alloc(h, 64 * 4), *D = harness_alloc(h, 64 * 4), *D1 = harness_alloc(h, 128 * 4);
    int *D4 = harness_alloc(h, 128 * 4);
    for (int i = 0; i < 128; i++) { A[i] = rnd32(); A1[i] = A[i] ^ 0x5a5a5a5au; }
    for (int i = 0; i < 64; i++) { B[i] = rnd32(); B1[i] = B[i] * 2654435761u; C[i] = rnd(-50, 50); }
    unsigned bad = 0;
    /* wmma m8n8k32 s4 and m8n8k128 b1 (XOR): rows and columns of 4 words */
    for (int pass = 0; pass < 2; pass++) {
        void *args[] = {&A, &B, &C, &D};
        harness_run r = harness_launch(h, pass ? "wmma_b1" : "wmma_s4", dim(1, 1, 1), dim(32, 1, 1), 0, args);
        CHECK_EQ_U64(r.kind, EXEC_OK);
        for (unsigned i = 0; i < 8; i++)
            for (unsigned j = 0; j < 8; j++) {
                int s = C[i * 8 + j];
                for (unsigned k = 0; k < (pass ? 128u : 32u); k++)
                    s += pass ? field(&A[i * 4], k, 1, false) ^ field(&B[j * 4], k, 1, false)
                              : field(&A[i * 4], k, 4, true) * field(&B[j * 4], k, 4, true);
                bad += D[i * 8 + j] != s;
            }
    }
    /* mma.sync m16n8k64 u4 x s4 and m16n8k256 b1 (AND): rows and columns of 8 words */
    void *args[] = {&A, &B, &A1, &B1, &D4, &D1};
    harness_run r = harness_launch(h, "mma_sub", dim(1, 1, 1), dim(32, 1, 1), 0, args);
    CHECK_EQ_U64(r.kind, EXEC_OK);
    if (r.kind) fprintf(stderr, "mma_sub: %s\n", r.fault.msg);
    for (unsigned i = 0; i < 16; i++)
        for (unsigned j = 0; j < 8; j++) {
            int s4 = 5, s1 = -3;
            for (unsigned k = 0; k < 64; k++) s4 += field(&A[i * 8], k, 4, false) * field(&B[j * 8], k, 4, true);
            for (unsigned k = 0; k < 256; k++) s1 += field(&A1[i * 8], k, 1, false) & field(&B1[j * 8], k, 1, false);
            bad += D4[i * 8 + j] != s4;
            bad += D1[i * 8 + j] != s1;
        }
    CHECK_EQ_U64(bad, 0);
    void *bufs[] = {A, B, A1, B1, C, D, D1, D4};
    for (unsigned i = 0; i < sizeof bufs / sizeof bufs[0]; i++) harness_dealloc(h, bufs[i]);
}

int main(void) {
    /* the ordered-metadata form parses and reaches the sparse decoder, which names what
     * it runs; a selector out of range is refused */
    check_refused("mma.sp::ordered_metadata.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32 "
                  "{%f0,%f1,%f2,%f3}, {%r0,%r1}, {%r4,%r5}, {%f0,%f1,%f2,%f3}, %r8, 0x0",
                  "\t.reg .f32 %f<4>;\n\t.reg .b32 %r<9>;", "unsupported sparse mma shape or types");
    check_refused("mma.sp.sync.aligned.m16n8k128.row.col.s32.s4.s4.s32 {%r0,%r1,%r2,%r3}, "
                  "{%r4,%r5,%r6,%r7}, {%r4,%r5,%r6,%r7}, {%r0,%r1,%r2,%r3}, %r8, 0x1",
                  "\t.reg .b32 %r<9>;", "sparsity selector must be a constant from 0 to 0");
    check_refused("mma.sp::ordered_metadata.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 "
                  "{%f0,%f1,%f2,%f3}, {%r0,%r1}, {%r4,%r5}, {%f0,%f1,%f2,%f3}, %r8, 0x2",
                  "\t.reg .f32 %f<4>;\n\t.reg .b32 %r<9>;", "sparsity selector must be a constant from 0 to 1");
    check_refused("mma.sp.sync.aligned.m16n8k32.row.col.f32.f16.f16.f32 {%f0,%f1,%f2,%f3}, "
                  "{%r0,%r1,%r2,%r3}, {%r4,%r5,%r6,%r7}, {%f0,%f1,%f2,%f3}, %r8, 0x2",
                  "\t.reg .f32 %f<4>;\n\t.reg .b32 %r<9>;", "sparsity selector must be a constant from 0 to 1");
    check_refused("mma.sync.aligned.m8n8k4.row.col.f32.f16.f16.f16 {%f0,%f1,%f2,%f3,%f4,%f5,%f6,%f7}, "
                  "{%r0,%r1}, {%r2,%r3}, {%r4,%r5,%r6,%r7}",
                  "\t.reg .f32 %f<8>;\n\t.reg .b32 %r<8>;", "unsupported m8n8k4 form");
    check_refused("mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f16 {%f0,%f1,%f2,%f3}, "
                  "{%r0,%r1,%r2,%r3}, {%r4,%r5}, {%r0,%r1}",
                  "\t.reg .f32 %f<4>;\n\t.reg .b32 %r<6>;", "fp8 mma: D and C must have one type");
    check_refused("mma.sync.aligned.m8n8k128.row.col.s32.b1.b1.s32 {%r0,%r1}, {%r2}, {%r3}, {%r0,%r1}",
                  "\t.reg .b32 %r<4>;", ".xor.popc or .and.popc");
    check_refused("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%f0,%f1,%f2,%f3}, "
                  "{%r0,%r1,%r2}, {%r4,%r5}, {%f0,%f1,%f2,%f3}",
                  "\t.reg .f32 %f<4>;\n\t.reg .b32 %r<6>;", "A fragment needs 4 registers");
    harness h = {0};
    if (!harness_load_file(&h, "exec/mma.ptx")) {
        fprintf(stderr, "load: %s\n", h.err);
        return 1;
    }
    for (unsigned i = 0; i < sizeof wcases / sizeof wcases[0]; i++) run_wmma(&h, &wcases[i]);
    run_ldmatrix(&h);
    run_misc(&h);
    run_sub_byte(&h);
    /* a fragment load past the end of its allocation */
    uint16_t *A = harness_alloc(&h, 256 * 2);
    float *D = harness_alloc(&h, 32 * 4);
    void *args[] = {&A, &D};
    harness_run r = harness_launch(&h, "wmma_oob", dim(1, 1, 1), dim(32, 1, 1), 0, args);
    CHECK(r.kind != EXEC_OK);
    CHECK(strstr(r.fault.msg, "wmma") != NULL);
    harness_dealloc(&h, A);
    harness_dealloc(&h, D);
    harness_free(&h);
    return harness_report("test_exec_mma");
}
