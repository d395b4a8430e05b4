/* test_exec_gaps — forms nvcc emits that vcuda once failed to parse or load, run and
 * checked (tests/ptx/exec/gaps.cu, optimised and -G): elect.sync _|p, prefetch cache
 * levels, every cvt.pack.sat form against a C model, 16- and 128-bit atomic CAS and
 * exchange, mov.pred from -1, barrier.cluster and mapa for a cluster of one block, and
 * cuda::memcpy_async completing on a cuda::barrier (cp.async.mbarrier.arrive), 128-bit
 * division (carry chains mixing subtraction and addc: the flag is the carry-out, 1 when
 * a subtraction does not borrow); and
 * redux.sync on f32 (sm_100a) from hand-written PTX. */
#include "exec_harness.h"

#include <math.h>

static void test_elect(harness *h) {
    enum { N = 96 };
    unsigned *masks = harness_alloc(h, N * 4), *out = harness_alloc(h, N * 4);
    for (int t = 0; t < N; t++) {
        int w = t / 32;
        /* warp 0: everyone; warp 1: the odd lanes; warp 2: lanes 5..12 */
        masks[t] = w == 0 ? 0xffffffffu : w == 1 ? 0xaaaaaaaau : 0x1fe0u;
    }
    void *args[] = { &masks, &out };
    harness_run r = harness_launch(h, "elect_prefetch", dim(1, 1, 1), dim(N, 1, 1), 0, args);
    CHECK_EQ_U64(r.kind, EXEC_OK);
    if (r.kind) fprintf(stderr, "%s\n", r.fault.msg);
    for (int t = 0; t < N; t++) {
        unsigned m = masks[t], lane = (unsigned)t % 32;
        unsigned want = !((m >> lane) & 1u) ? 7 : 1000 + (lane == (unsigned)__builtin_ctz(m));
        CHECK_EQ_U64(out[t], want);
    }
    free(r.out.data);
    harness_dealloc(h, masks);
    harness_dealloc(h, out);
}

/* cvt.pack.sat: a and b clamped to the convert type, b in the low bits and a above it,
 * then c's low bits above both (8-, 4- and 2-bit types). */
static uint32_t pack_model(int32_t a, int32_t b, uint32_t c, unsigned bits, bool sgn) {
    int64_t lo = sgn ? -((int64_t)1 << (bits - 1)) : 0;
    int64_t hi = sgn ? ((int64_t)1 << (bits - 1)) - 1 : ((int64_t)1 << bits) - 1;
    int64_t x = a < lo ? lo : a > hi ? hi : a, y = b < lo ? lo : b > hi ? hi : b;
    uint32_t m = (uint32_t)(((uint64_t)1 << bits) - 1);
    uint32_t d = ((uint32_t)y & m) | (((uint32_t)x & m) << bits);
    if (bits < 16) d |= (uint32_t)((uint64_t)c << (2 * bits));
    return d;
}

static void test_cvt_pack(harness *h) {
    enum { N = 64 };
    static const int32_t vals[] = { 0, 1, -1, 2, -2, 3, -3, 7, -8, 8, -9, 15, 16, 127, -128, 128,
                                    -129, 255, 256, 32767, -32768, 32768, 65535, 65536,
                                    INT32_MAX, INT32_MIN, 100000, -100000, 5, -5, 42, -42 };
    const int nv = (int)(sizeof vals / sizeof vals[0]);
    int *a = harness_alloc(h, N * 4), *b = harness_alloc(h, N * 4);
    unsigned *c = harness_alloc(h, N * 4), *out = harness_alloc(h, N * 8 * 4);
    for (int t = 0; t < N; t++) {
        a[t] = vals[t % nv];
        b[t] = vals[(t * 7 + 3) % nv];
        c[t] = 0x9e3779b9u * (unsigned)(t + 1);
    }
    void *args[] = { &a, &b, &c, &out };
    harness_run r = harness_launch(h, "cvt_pack", dim(1, 1, 1), dim(N, 1, 1), 0, args);
    CHECK_EQ_U64(r.kind, EXEC_OK);
    static const unsigned bits[8] = { 16, 16, 8, 8, 4, 4, 2, 2 };
    for (int t = 0; t < N; t++)
        for (int k = 0; k < 8; k++)
            CHECK_EQ_U64(out[8 * t + k], pack_model(a[t], b[t], c[t], bits[k], k & 1));
    /* spot values worked out by hand */
    CHECK_EQ_U64(pack_model(300, -5, 0, 16, false), 0x012c0000u);
    CHECK_EQ_U64(pack_model(300, -5, 0xabcd, 8, true), 0xabcd7ffbu);
    CHECK_EQ_U64(pack_model(-9, 9, 0x1, 4, true), 0x187u);
    free(r.out.data);
    harness_dealloc(h, a);
    harness_dealloc(h, b);
    harness_dealloc(h, c);
    harness_dealloc(h, out);
}

static void test_atomics_wide(harness *h) {
    enum { BLOCKS = 3, THREADS = 64, N = BLOCKS * THREADS };
    uint64_t *slot = harness_alloc(h, 4 * 8), *old = harness_alloc(h, N * 16);
    unsigned short *s16 = harness_alloc(h, 8);
    unsigned *wins = harness_alloc(h, 4);
    s16[0] = 65500; /* counts up through the wrap */
    s16[1] = 0x5a5a; /* its neighbour is left alone */
    void *args[] = { &slot, &old, &s16, &wins };
    harness_run r = harness_launch(h, "atomics_wide", dim(BLOCKS, 1, 1), dim(THREADS, 1, 1), 0, args);
    CHECK_EQ_U64(r.kind, EXEC_OK);
    if (r.kind) fprintf(stderr, "%s\n", r.fault.msg);
    CHECK_EQ_U64(*wins, 1); /* exactly one CAS found the slot empty, and mov.pred -1 held */
    /* the winner's pair is intact */
    CHECK(slot[0] >= 1 && slot[0] <= N && slot[1] == ~(slot[0] - 1));
    /* the exchange chain: each thread got a distinct previous value, the first one zero */
    int zeros = 0;
    unsigned char *seen = calloc(N + 1, 1);
    for (int t = 0; t < N; t++) {
        uint64_t lo = old[2 * t], hi = old[2 * t + 1];
        if (lo == 0 && hi == 0) { zeros++; continue; }
        CHECK(lo >= 1 && lo <= N && hi == ~(lo - 1) && lo != (uint64_t)t + 1);
        if (lo >= 1 && lo <= N) { CHECK(!seen[lo]); seen[lo] = 1; }
    }
    CHECK_EQ_U64(zeros, 1);
    /* the last one exchanged in is still in slot 1 and no one saw it */
    CHECK(slot[2] >= 1 && slot[2] <= N && !seen[slot[2]] && slot[3] == ~(slot[2] - 1));
    CHECK_EQ_U64(s16[0], (65500 + N) & 0xffff);
    CHECK_EQ_U64(s16[1], 0x5a5a);
    free(seen);
    free(r.out.data);
    harness_dealloc(h, slot);
    harness_dealloc(h, old);
    harness_dealloc(h, s16);
    harness_dealloc(h, wins);
}

static void test_cluster_one(harness *h) {
    enum { N = 256 };
    int *out = harness_alloc(h, N * 4);
    void *args[] = { &out };
    harness_run r = harness_launch(h, "cluster_one", dim(2, 1, 1), dim(N, 1, 1), 0, args);
    CHECK_EQ_U64(r.kind, EXEC_OK);
    if (r.kind) fprintf(stderr, "%s\n", r.fault.msg);
    for (int t = 0; t < N; t++) CHECK_EQ_U64(out[t], ((t + 1) % N) * 3 + 100000);
    free(r.out.data);
    harness_dealloc(h, out);
}

static void test_async_copy(harness *h) {
    enum { N = 256 };
    int *in = harness_alloc(h, N * 4), *out = harness_alloc(h, N * 4);
    for (int i = 0; i < N; i++) in[i] = i * i - 77;
    void *args[] = { &in, &out };
    harness_run r = harness_launch(h, "async_copy_barrier", dim(1, 1, 1), dim(N, 1, 1), 0, args);
    CHECK_EQ_U64(r.kind, EXEC_OK);
    if (r.kind) fprintf(stderr, "%s\n", r.fault.msg);
    for (int t = 0; t < N; t++) CHECK_EQ_U64((uint32_t)out[t], (uint32_t)(in[N - 1 - t] * 2));
    free(r.out.data);
    harness_dealloc(h, in);
    harness_dealloc(h, out);
}

static void test_int128_div(harness *h) {
    enum { N = 8 };
    static const uint64_t in[2 * N] = {
        0, 9, 0, 1000000008ull, 0, ~0ull, 1, 0, 12345, 678910, ~0ull, ~0ull,
        0x8000000000000000ull, 3, 0x00000000ffffffffull, 0xfffffffffffffff0ull };
    uint64_t *a = harness_alloc(h, sizeof in), *out = harness_alloc(h, N * 10 * 8);
    memcpy(a, in, sizeof in);
    void *args[] = { &a, &out };
    harness_run r = harness_launch(h, "int128_div", dim(1, 1, 1), dim(N, 1, 1), 0, args);
    CHECK_EQ_U64(r.kind, EXEC_OK);
    for (int t = 0; t < N; t++) {
        unsigned __int128 y = ((unsigned __int128)a[2 * t] << 64) | a[2 * t + 1];
        __int128 s = (__int128)y;
        unsigned __int128 q = y / 3, rem = y % 1000000007u, q2 = y / ((unsigned __int128)a[1] + 5);
        __int128 sq = s / -7, sr = s % 1000003;
        const uint64_t *o = out + 10 * t;
        CHECK_EQ_U64(o[0], (uint64_t)q);
        CHECK_EQ_U64(o[1], (uint64_t)(q >> 64));
        CHECK_EQ_U64(o[2], (uint64_t)rem);
        CHECK_EQ_U64(o[3], (uint64_t)q2);
        CHECK_EQ_U64(o[4], (uint64_t)(q2 >> 64));
        CHECK_EQ_U64(o[5], (uint64_t)sq);
        CHECK_EQ_U64(o[6], (uint64_t)((unsigned __int128)sq >> 64));
        CHECK_EQ_U64(o[7], (uint64_t)sr);
        uint32_t x = (uint32_t)a[2 * t + 1], z = (uint32_t)a[2 * t];
        CHECK_EQ_U64(o[8], x >= z);                     /* carry-out of x - z: no borrow */
        CHECK_EQ_U64(o[9], 10 - 3 - !((uint64_t)x + z > 0xffffffffull)); /* 10 - 3 - !carry */
    }
    free(r.out.data);
    harness_dealloc(h, a);
    harness_dealloc(h, out);
}

/* redux.sync.min/max{.abs}{.NaN}.f32 (sm_100a; nvcc emits it only from inline PTX). */
static const char redux_f32_ptx[] =
    ".version 8.6\n.target sm_100a\n.address_size 64\n"
    ".visible .entry redux_f32(.param .u64 pin, .param .u64 pout)\n{\n"
    "  .reg .b32 %r<8>;\n  .reg .b64 %rd<6>;\n"
    "  ld.param.u64 %rd1, [pin];\n  ld.param.u64 %rd2, [pout];\n"
    "  mov.u32 %r1, %tid.x;\n  mul.wide.u32 %rd3, %r1, 4;\n  add.s64 %rd4, %rd1, %rd3;\n"
    "  ld.global.b32 %r2, [%rd4];\n  mul.wide.u32 %rd3, %r1, 16;\n  add.s64 %rd5, %rd2, %rd3;\n"
    "  redux.sync.min.f32 %r3, %r2, 0xffffffff;\n"
    "  redux.sync.max.abs.f32 %r4, %r2, 0xffffffff;\n"
    "  redux.sync.max.NaN.f32 %r5, %r2, 0xffffffff;\n"
    "  redux.sync.min.abs.NaN.f32 %r6, %r2, 0xffffffff;\n"
    "  st.global.v4.b32 [%rd5], {%r3, %r4, %r5, %r6};\n  ret;\n}\n";

static uint32_t fbits(float f) { uint32_t b; memcpy(&b, &f, 4); return b; }

static void test_redux_f32(void) {
    harness h = {0};
    if (!harness_load(&h, redux_f32_ptx)) {
        fprintf(stderr, "redux_f32: %s\n", h.err);
        harness_failures++;
        return;
    }
    uint32_t *in = harness_alloc(&h, 64 * 4), *out = harness_alloc(&h, 64 * 16);
    for (int t = 0; t < 64; t++) in[t] = fbits((float)((t * 37) % 50) - 20.5f);
    in[3] = fbits(-0.0f);  /* warp 0: a NaN in the upper half, -0 */
    in[20] = 0x7fc00000u;
    in[33] = fbits(-1000.0f); /* warp 1: no NaN, a large negative */
    void *args[] = { &in, &out };
    harness_run r = harness_launch(&h, "redux_f32", dim(1, 1, 1), dim(64, 1, 1), 0, args);
    CHECK_EQ_U64(r.kind, EXEC_OK);
    for (int w = 0; w < 2; w++) {
        float mn = INFINITY, mxa = 0, mx = -INFINITY, mna = INFINITY;
        bool nan = false;
        for (int l = 0; l < 32; l++) {
            float v;
            memcpy(&v, &in[32 * w + l], 4);
            if (isnan(v)) { nan = true; continue; }
            mn = fminf(mn, v);
            mx = fmaxf(mx, v);
            mxa = fmaxf(mxa, fabsf(v));
            mna = fminf(mna, fabsf(v));
        }
        for (int l = 0; l < 32; l++) {
            const uint32_t *o = &out[4 * (32 * w + l)];
            CHECK_EQ_U64(o[0], fbits(mn));
            CHECK_EQ_U64(o[1], fbits(mxa));
            CHECK_EQ_U64(o[2], nan ? 0x7fffffffu : fbits(mx));
            CHECK_EQ_U64(o[3], nan ? 0x7fffffffu : fbits(mna));
        }
    }
    free(r.out.data);
    harness_dealloc(&h, in);
    harness_dealloc(&h, out);
    harness_free(&h);
}

int main(void) {
    test_redux_f32();
    static const char *const files[] = { "exec/gaps.ptx", "exec/gaps.G.ptx" };
    for (unsigned f = 0; f < 2; f++) {
        harness h = {0};
        if (!harness_load_file(&h, files[f])) {
            fprintf(stderr, "load %s: %s\n", files[f], h.err);
            return 1;
        }
        int before = harness_failures;
        test_elect(&h);
        test_cvt_pack(&h);
        test_atomics_wide(&h);
        test_cluster_one(&h);
        test_async_copy(&h);
        test_int128_div(&h);
        if (harness_failures != before) fprintf(stderr, "(failures above: %s)\n", files[f]);
        harness_free(&h);
    }
    return harness_report("test_exec_gaps");
}
