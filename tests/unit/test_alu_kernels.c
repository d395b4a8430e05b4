/* tests/unit/test_alu_kernels.c — small kernels (tests/ptx/alu/kernels.cu, compiled by
 * nvcc to kernels.ptx) run end to end through the parser, the lowering and the SIMT core,
 * each result checked against the same computation written in C here: integer mixing,
 * exactly rounded float/double arithmetic and conversions, warp collectives (shuffle
 * reduction and scan, ballot compaction, match, redux), half precision against the host
 * compiler's _Float16. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exec/exec.h"
#include "mem/mem.h"
#include "ptx/ir.h"

static int failures;

#define CHECK_EQ_AT(what, i, got, want)                                                  \
    do {                                                                                 \
        unsigned long long g_ = (unsigned long long)(got), w_ = (unsigned long long)(want); \
        if (g_ != w_ && failures++ < 20)                                                 \
            fprintf(stderr, "%s[%d]: vcuda 0x%llx, host 0x%llx\n", what, (int)(i), g_, w_); \
    } while (0)

typedef struct env {
    mem_table *mem;
    exec_program *prog;
    exec_worker *worker;
} env;

static void *dev_alloc(env *e, size_t size) {
    size_t sz = (size + 255) & ~(size_t)255;
    void *p = aligned_alloc(256, sz);
    if (!p) abort();
    memset(p, 0, sz);
    if (!mem_table_add(e->mem, (uint64_t)(uintptr_t)p, size, MEM_KIND_DEVICE, 0)) abort();
    return p;
}
static void dev_free(env *e, void *p) {
    mem_alloc a;
    mem_table_remove(e->mem, (uint64_t)(uintptr_t)p, &a);
    free(p);
}

static bool launch(env *e, const char *name, uint32_t grid, uint32_t block, void **args) {
    const exec_kernel *k = exec_program_kernel(e->prog, name);
    if (!k) { fprintf(stderr, "no kernel %s\n", name); failures++; return false; }
    const exec_kernel_info *ki = exec_kernel_get_info(k);
    uint8_t *params = calloc(1, ki->param_size + 16);
    for (uint32_t i = 0; i < ki->nparams; i++)
        memcpy(params + ki->param_offsets[i], args[i], ki->param_sizes[i]);
    exec_launch L;
    memset(&L, 0, sizeof L);
    L.kernel = k;
    L.grid.x = grid; L.grid.y = L.grid.z = 1;
    L.block.x = block; L.block.y = L.block.z = 1;
    L.params = params;
    L.mem = e->mem;
    L.num_sms = 132;
    L.clock_khz = 1755000;
    exec_output out;
    memset(&out, 0, sizeof out);
    bool ok = true;
    for (uint32_t x = 0; x < grid && ok; x++) {
        exec_fault f;
        exec_dim3 c = { x, 0, 0 };
        if (exec_run_block(e->worker, &L, c, 0, &out, &f) != EXEC_OK) {
            fprintf(stderr, "%s: %s\n", name, f.msg);
            failures++;
            ok = false;
        }
    }
    free(out.data);
    free(params);
    return ok;
}

static uint32_t rng_state = 2024;
static uint32_t rnd32(void) {
    rng_state ^= rng_state << 13; rng_state ^= rng_state >> 17; rng_state ^= rng_state << 5;
    return rng_state;
}

/* ---- int_mix ---- */
static uint32_t funnel_l(uint32_t lo, uint32_t hi, uint32_t s) {
    s &= 31;
    return s ? (hi << s) | (lo >> (32 - s)) : hi;
}
static uint32_t byte_perm(uint32_t a, uint32_t b, uint32_t s) {
    uint64_t v = ((uint64_t)b << 32) | a;
    uint32_t r = 0;
    for (int k = 0; k < 4; k++)
        r |= (uint32_t)((v >> (8 * ((s >> (4 * k)) & 7))) & 0xff) << (8 * k);
    return r;
}
static uint32_t brev32(uint32_t v) {
    uint32_t r = 0;
    for (int k = 0; k < 32; k++) r |= ((v >> k) & 1u) << (31 - k);
    return r;
}
static int32_t sdiv(int32_t a, int32_t b) { return b == -1 ? (int32_t)(0u - (uint32_t)a) : a / b; }
static int32_t sabs(int32_t a) { return a < 0 ? (int32_t)(0u - (uint32_t)a) : a; }

static void ref_int_mix(const uint32_t *in, int n, int i, uint32_t *ox, uint64_t *ow) {
    uint32_t x = in[i], y = in[(i * 7 + 3) % n] | 1u;
    uint64_t w = (uint64_t)x * 0x9e3779b97f4a7c15ull + y;
    for (int k = 0; k < 4; k++) {
        x ^= x << 13; x ^= x >> 17; x ^= x << 5;
        x += funnel_l(x, y, (uint32_t)(k * 7 + 3));
        x ^= (uint32_t)(((uint64_t)x * 0x85ebca6bu) >> 32) +
             (uint32_t)(((int64_t)(int32_t)x * -1640531535LL) >> 32);
        x += byte_perm(x, y, 0x3175) + (uint32_t)__builtin_popcount(x & y) +
             (uint32_t)__builtin_clz(x | 1u) + brev32(y >> 3);
        x += (x / y) + (x % (y | 7u)) + (uint32_t)sdiv((int32_t)x, (int32_t)(y | 3)) +
             (uint32_t)((int32_t)x % 11);
        x += (uint32_t)((int32_t)x < (int32_t)y ? (int32_t)x : (int32_t)y) + (x > y ? x : y) +
             (uint32_t)sabs((int32_t)(x - y));
        x += (x >> (y & 31)) + (uint32_t)((int32_t)x >> (k + 3)) + ((x >> 8) & 0xfffu);
        w ^= (uint64_t)(((unsigned __int128)w * 0xc2b2ae3d27d4eb4full) >> 64) +
             ((uint64_t)x << 32) + (w >> 29);
        w += (uint64_t)((int64_t)w / (int64_t)(uint64_t)(y | 1)) +
             (uint64_t)__builtin_popcountll(w) + (uint64_t)__builtin_clzll(w | 1ull);
    }
    *ox = x;
    *ow = w;
}

static void test_int_mix(env *e) {
    const int n = 1000;
    uint32_t *in = dev_alloc(e, n * 4), *out = dev_alloc(e, n * 4);
    uint64_t *out64 = dev_alloc(e, n * 8);
    for (int i = 0; i < n; i++) in[i] = i < 8 ? (uint32_t[]){ 0, 1, 0xffffffff, 0x80000000,
                                                               0x7fffffff, 2, 3, 0xfffffffd }[i]
                                              : rnd32();
    int nn = n;
    void *args[] = { &in, &out, &out64, &nn };
    if (launch(e, "int_mix", (n + 127) / 128, 128, args))
        for (int i = 0; i < n; i++) {
            uint32_t x; uint64_t w;
            ref_int_mix(in, n, i, &x, &w);
            CHECK_EQ_AT("int_mix x", i, out[i], x);
            CHECK_EQ_AT("int_mix w", i, out64[i], w);
        }
    dev_free(e, in); dev_free(e, out); dev_free(e, out64);
}

/* ---- float_mix ---- */
static int32_t f2i_rn(float f) {            /* cvt.rni.s32.f32: saturating, NaN -> 0 */
    double r = nearbyint((double)f);
    return f != f ? 0 : r >= 2147483647.0 ? INT32_MAX : r <= -2147483648.0 ? INT32_MIN : (int32_t)r;
}
static int32_t f2i_rz(float f) {
    double r = trunc((double)f);
    return f != f ? 0 : r >= 2147483647.0 ? INT32_MAX : r <= -2147483648.0 ? INT32_MIN : (int32_t)r;
}
static int64_t d2ll_rd(double d) {
    double r = floor(d);
    return d != d ? INT64_MIN : r >= 0x1p63 ? INT64_MAX : r <= -0x1p63 ? INT64_MIN : (int64_t)r;
}
static uint32_t f2u_ru(float f) {
    double r = ceil((double)f);
    return f != f ? 0 : r >= 4294967295.0 ? UINT32_MAX : r <= 0 ? 0 : (uint32_t)r;
}

static void test_float_mix(env *e) {
    const int n = 777;
    float *in = dev_alloc(e, n * 4), *out = dev_alloc(e, n * 4);
    double *outd = dev_alloc(e, n * 8);
    int32_t *outi = dev_alloc(e, n * 4);
    for (int i = 0; i < n; i++) in[i] = ((float)(int32_t)rnd32() / 2147483648.0f) * 8.0f;
    in[0] = 0.0f; in[1] = -0.0f; in[2] = 1e-40f; in[3] = 3.0f;
    int nn = n;
    void *args[] = { &in, &out, &outd, &outi, &nn };
    if (launch(e, "float_mix", (n + 63) / 64, 64, args))
        for (int i = 0; i < n; i++) {
            float x = in[i], y = in[(i * 5 + 1) % n];
            double d = (double)x * 1.000001;
            for (int k = 0; k < 6; k++) {
                float t = fmaf(x, y, 0.5f);
                x = t * 0.75f + y / (fabsf(t) + 1.0f);
                y = sqrtf(fabsf(x) + 2.0f) - fminf(x, y) + fmaxf(x, -y);
                d = fma(d, (double)y, sqrt(fabs(d) + 1.0)) / (1.0 + fabs((double)x));
            }
            int32_t oi = (int32_t)((uint32_t)f2i_rn(x * 100.0f) + (uint32_t)f2i_rz(y * 10.0f) +
                                   (uint32_t)d2ll_rd(d * 1e3) + f2u_ru(fabsf(y)));
            uint32_t xb, ob; memcpy(&xb, &x, 4); memcpy(&ob, &out[i], 4);
            uint64_t db_, odb; memcpy(&db_, &d, 8); memcpy(&odb, &outd[i], 8);
            CHECK_EQ_AT("float_mix x", i, ob, xb);
            CHECK_EQ_AT("float_mix d", i, odb, db_);
            CHECK_EQ_AT("float_mix i", i, (uint32_t)outi[i], (uint32_t)oi);
        }
    dev_free(e, in); dev_free(e, out); dev_free(e, outd); dev_free(e, outi);
}

/* ---- warp_mix ---- */
static void test_warp_mix(env *e) {
    const int n = 1000, threads = 1024;
    int32_t *in = dev_alloc(e, n * 4), *out = dev_alloc(e, n * 16);
    for (int i = 0; i < n; i++) in[i] = (int32_t)(rnd32() % 2001) - 1000;
    int nn = n;
    void *args[] = { &in, &out, &nn };
    if (launch(e, "warp_mix", threads / 128, 128, args))
        for (int w0 = 0; w0 < threads; w0 += 32) {
            int32_t v[32], sum = 0, mx = INT32_MIN;
            uint32_t keep = 0;
            for (int l = 0; l < 32; l++) {
                v[l] = w0 + l < n ? in[w0 + l] : 0;
                sum += v[l];
                mx = v[l] > mx ? v[l] : mx;
                if (v[l] & 1) keep |= 1u << l;
            }
            int32_t scan = 0;
            for (int l = 0; l < 32 && w0 + l < n; l++) {
                const int i = w0 + l;
                scan += v[l];
                uint32_t same = 0;
                for (int o = 0; o < 32; o++) if ((v[o] & 7) == (v[l] & 7)) same |= 1u << o;
                CHECK_EQ_AT("warp_mix sum", i, (uint32_t)out[4 * i], (uint32_t)sum);
                const int idx = __builtin_popcount(keep & ((1u << l) - 1));
                CHECK_EQ_AT("warp_mix idx", i, (uint32_t)out[4 * i + 1],
                            (uint32_t)((v[l] & 1) ? idx : -1));
                CHECK_EQ_AT("warp_mix match", i, (uint32_t)out[4 * i + 2], same + (uint32_t)mx);
                CHECK_EQ_AT("warp_mix scan", i, (uint32_t)out[4 * i + 3],
                            (uint32_t)scan + (uint32_t)v[l ^ 5]);
            }
        }
    dev_free(e, in); dev_free(e, out);
}

/* ---- half_mix (needs a host compiler with _Float16, as GCC 12 has on x86-64) ---- */
#ifdef __FLT16_MANT_DIG__
static void test_half_mix(env *e) {
    const int n = 4096;
    uint16_t *a = dev_alloc(e, n * 2), *b = dev_alloc(e, n * 2), *out = dev_alloc(e, n * 6);
    for (int i = 0; i < n; i++) {
        a[i] = (uint16_t)rnd32();
        b[i] = (uint16_t)rnd32();
        if ((a[i] & 0x7c00) == 0x7c00) a[i] ^= 0x4000;   /* keep to numbers */
        if ((b[i] & 0x7c00) == 0x7c00) b[i] ^= 0x4000;
    }
    int nn = n;
    void *args[] = { &a, &b, &out, &nn };
    if (launch(e, "half_mix", n / 128, 128, args))
        for (int i = 0; i < n; i++) {
            _Float16 x, y, r[3];
            memcpy(&x, &a[i], 2);
            memcpy(&y, &b[i], 2);
            r[0] = x + y; r[1] = x - y; r[2] = x * y;
            for (int k = 0; k < 3; k++) {
                uint16_t want;
                memcpy(&want, &r[k], 2);
                if ((want & 0x7fff) > 0x7c00) want = 0x7fff;  /* the GPU's NaN */
                CHECK_EQ_AT("half_mix", 3 * i + k, out[3 * i + k], want);
            }
        }
    dev_free(e, a); dev_free(e, b); dev_free(e, out);
}
#else
static void test_half_mix(env *e) {
    (void)e;
    printf("test_alu_kernels: half_mix skipped (the host compiler has no _Float16)\n");
}
#endif

int main(void) {
    char path[1024], err[1024];
    snprintf(path, sizeof path, "%s/ptx/alu/kernels.ptx", VCUDA_TEST_DIR);
    FILE *f = fopen(path, "rb");
    if (!f) { perror(path); return 1; }
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *text = malloc((size_t)len + 1);
    if (fread(text, 1, (size_t)len, f) != (size_t)len) return 1;
    text[len] = 0;
    fclose(f);
    env e;
    memset(&e, 0, sizeof e);
    ptx_module *m = ptx_parse(text, (size_t)len, "kernels.ptx", err, sizeof err);
    if (!m) { fprintf(stderr, "%s\n", err); return 1; }
    e.mem = mem_table_new();
    e.prog = exec_program_load(m, e.mem, err, sizeof err);
    if (!e.prog) { fprintf(stderr, "%s\n", err); return 1; }
    e.worker = exec_worker_new();
    test_int_mix(&e);
    test_float_mix(&e);
    test_warp_mix(&e);
    test_half_mix(&e);
    exec_worker_free(e.worker);
    exec_program_free(e.prog, e.mem);
    mem_table_free(e.mem);
    free(text);
    if (failures) {
        fprintf(stderr, "test_alu_kernels: %d mismatch(es)\n", failures);
        return 1;
    }
    printf("test_alu_kernels: all results match the host\n");
    return 0;
}
