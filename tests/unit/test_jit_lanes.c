/* tests/unit/test_jit_lanes.c — the vector tier's stores of some lanes of a warp
 * (jit/vemit_lanes.c: whole chunks as vectors, the rest lane by lane, or masked stores
 * beyond 16 lanes; strided stores from a copy of the register, or of a whole warp from the
 * register; loads of lanes two words apart as two loads and a shuffle) and the divergent trees of
 * reduceInteger against the interpreter: the kernels of tests/unit/data/jit_lanes.cu run in
 * both tiers, which must leave the same memory. The interpreter's pass is checked against
 * the values the kernels must store (and the words they must not touch), and the generated
 * code of each kernel must hold the forms the test is for.
 */
#include "jit_tier_compare.h"
#include "jit/internal.h"

#define WARPS 40u
#define N (WARPS * 32u)
#define SENTINEL 0x5a5a5a5a

/* each warp's lanes that store: every p-th lane from several offsets, single lanes at
 * the edges of 8- and 16-lane chunks, whole chunks with lanes beside them, more than 16
 * lanes outside whole chunks, all and none */
static const uint32_t masks[WARPS] = {
    0x55555555u, 0xaaaaaaaau, 0x11111111u, 0x88888888u, 0x01010101u, 0x80808080u, 0x00010001u,
    0x80008000u, 0x00000001u, 0x80000000u, 0x00000080u, 0x00000100u, 0x00008000u, 0x00010000u,
    0x00800000u, 0x01000000u, 0x00000180u, 0x01818000u, 0x000000ffu, 0x0000ffffu, 0xffff0000u,
    0x00ffff00u, 0x0000ff01u, 0x7fffffffu, 0xfffffffeu, 0xeeeeeeeeu, 0xfefefefeu, 0x7f7f7f7fu,
    0xffffffffu, 0x00000000u, 0x0f0f0f0fu, 0xf0f0f0f0u, 0x12345678u, 0x9abcdef0u, 0x0001ffffu,
    0xffff8000u, 0xc0000003u, 0x00ff00ffu, 0x33333333u, 0x40000002u};

static int32_t input(uint32_t i) { return (int32_t)((i * 2654435761u) >> 11) - 700000; }

static const uint32_t tree_blocks[] = {64, 128, 512, 1024};

static void run_all(harness *h, tier_outcome *o) {
    memset(o, 0, sizeof *o);
    int32_t *in = harness_alloc(h, N * 4), *out = harness_alloc(h, N * 4);
    int64_t *out64 = harness_alloc(h, N * 8);
    uint32_t *out32 = harness_alloc(h, N * 4), *outs32 = harness_alloc(h, 2 * N * 4);
    int32_t *outs = harness_alloc(h, 2 * N * 4);
    uint32_t *m = harness_alloc(h, WARPS * 4);
    for (uint32_t i = 0; i < N; i++) in[i] = input(i);
    memcpy(m, masks, sizeof masks);
    /* blocks of 128 (four warps), and of 160 (five: warps of one block in several
     * chunks of masks[]) */
    static const uint32_t blocks[] = {128, 160};
    for (size_t c = 0; c < sizeof blocks / sizeof blocks[0]; c++) {
        memset(out, 0x5a, N * 4);
        memset(out64, 0x5a, N * 8);
        memset(out32, 0x5a, N * 4);
        memset(outs, 0x5a, 2 * N * 4);
        memset(outs32, 0x5a, 2 * N * 4);
        void *a[] = {&in, &out, &out64, &out32, &outs, &outs32, &m};
        tier_launch(h, o, "jl_store", dim(N / blocks[c], 1, 1), dim(blocks[c], 1, 1), a, NULL);
        tier_keep(o, out, N * 4);
        tier_keep(o, out64, N * 8);
        tier_keep(o, out32, N * 4);
        tier_keep(o, outs, 2 * N * 4);
        tier_keep(o, outs32, 2 * N * 4);
    }
    /* the trees over blocks of 64 to 1024 threads, two blocks each */
    int32_t *data = harness_alloc(h, 2048 * 4), *sums = harness_alloc(h, 2 * 4);
    for (size_t c = 0; c < sizeof tree_blocks / sizeof tree_blocks[0]; c++)
        for (int less = 0; less < 2; less++) {
            uint32_t b = tree_blocks[c];
            for (uint32_t i = 0; i < 2 * b; i++) data[i] = input(i + 7 * b);
            memset(sums, 0, 8);
            void *a[] = {&data, &sums};
            tier_launch(h, o, less ? "jl_tree_less" : "jl_tree", dim(2, 1, 1), dim(b, 1, 1), a,
                        NULL);
            tier_keep(o, data, 2 * b * 4);
            tier_keep(o, sums, 8);
        }
    harness_dealloc(h, sums);
    harness_dealloc(h, data);
    harness_dealloc(h, m);
    harness_dealloc(h, outs);
    harness_dealloc(h, outs32);
    harness_dealloc(h, out32);
    harness_dealloc(h, out64);
    harness_dealloc(h, out);
    harness_dealloc(h, in);
}

/* The interpreter's pass stores what the kernels say, where they say, and nothing else. */
static void check_ref(const tier_outcome *ref) {
    CHECK_EQ_U64(ref->nkinds, 2 + 8);
    for (unsigned k = 0; k < ref->nkinds; k++) CHECK_EQ_U64(ref->kinds[k], EXEC_OK);
    const int32_t *w = ref->words;
    size_t bad = 0;
    for (int c = 0; c < 2; c++) {
        const int32_t *out = w, *out64 = w + N, *out32 = w + 3 * N, *outs = w + 4 * N,
                      *outs32 = w + 6 * N;
        for (uint32_t t = 0; t < N; t++) {
            bool on = (masks[t / 32] >> (t % 32)) & 1u;
            int64_t x = (int64_t)input(t) * 1000003ll + t;
            int32_t v = (int32_t)((uint32_t)input(t) * 3u + t), y = (int32_t)(uint32_t)(x >> 7);
            int64_t got64;
            memcpy(&got64, out64 + 2 * t, 8);
            bool ok = out[t] == (on ? v : SENTINEL) && got64 == (on ? x : 0x5a5a5a5a5a5a5a5all) &&
                      out32[t] == (on ? y : SENTINEL) && outs[2 * t + 1] == (on ? v : SENTINEL) &&
                      outs[2 * t] == SENTINEL && outs32[2 * t] == (on ? y : SENTINEL) &&
                      outs32[2 * t + 1] == SENTINEL;
            if (!ok && bad++ < 4) fprintf(stderr, "jl_store (block %d): thread %u wrong\n", c, t);
        }
        w += 8 * N;
    }
    CHECK(bad == 0);
    for (size_t c = 0; c < sizeof tree_blocks / sizeof tree_blocks[0]; c++)
        for (int less = 0; less < 2; less++) {
            uint32_t b = tree_blocks[c];
            for (uint32_t k = 0; k < 2; k++) {
                uint32_t sum = 0;
                for (uint32_t i = 0; i < b; i++) sum += (uint32_t)input(k * b + i + 7 * b);
                CHECK_EQ_U64((uint32_t)w[2 * b + k], sum);
            }
            w += 2 * b + 2;
        }
}

/* The generated code of kernel name holds every one of forms[] (the paths under test). */
static void check_forms(harness *h, const char *name, const char *const *forms, size_t n) {
    for (uint32_t i = 0; i < exec_program_nfuncs(h->prog); i++) {
        const exec_func *f = exec_program_func(h->prog, i);
        if (!f->code || strcmp(f->pf->name, name)) continue;
        jit_buf b = {0};
        char why[256] = "";
        CHECK(jit_vemit_func(f, &b, why, sizeof why));
        for (size_t k = 0; k < n; k++) {
            bool has = b.s && strstr(b.s, forms[k]);
            if (!has) fprintf(stderr, "%s: no '%s' in its code\n", name, forms[k]);
            CHECK(has);
        }
        jit_buf_free(&b);
        return;
    }
    CHECK(!"kernel not found");
}

int main(void) {
    int rc = tier_compare_main("test_jit_lanes", "jit_lanes.ptx", run_all, check_ref);
    char path[512];
    snprintf(path, sizeof path, "%s/unit/data/jit_lanes.ptx", VCUDA_TEST_DIR);
    char *text = test_read_file(path, NULL);
    harness h = {0};
    CHECK(text && harness_load(&h, text));
    /* contiguous stores of 32-bit lanes and of 64-bit slots (4 and 8 bytes): whole
     * chunks, lanes one by one, the masked stores; strided ones from the lane copy */
    static const char *const store[] = {
        "rest_ &= ~(((1u << WL) - 1u) << (WL * j_))", "KW(rest_)",
        "rest_ &= ~(((1u << QL) - 1u) << (QL * k_))", "STCQ4(base + a0 + k_ * (4u * QL), KQ(rest_)",
        "STCQ8(base + a0 + k_ * (8u * QL), KQ(rest_)", "u64 la_[32]; __builtin_memcpy(la_, &d_, 256)",
        "u32 y_ = (u32)(la_[l0_])", "u64 la_[32]; __builtin_memcpy(la_, &r"};
    check_forms(&h, "jl_store", store, sizeof store / sizeof store[0]);
    static const char *const tree[] = {"0x55555555u, 0x11111111u", "u32 la_[32]; __builtin_memcpy(la_, &r"};
    check_forms(&h, "jl_tree", tree, sizeof tree / sizeof tree[0]);
    /* (and its pairs two words apart: the chunk's two loads and shuffle, and the whole
     * warp's store from the register) */
    static const char *const less[] = {"u32 la_[32]; __builtin_memcpy(la_, &r", "u32 y_ = (u32)(la_[l0_])",
                                       "if (!(fm_ & (fm_ + 1u)))", "sst_ == 8 ? SL2W(sp_",
                                       "if (m == FULL) { XW(STSW(base + ef_"};
    check_forms(&h, "jl_tree_less", less, sizeof less / sizeof less[0]);
    harness_free(&h);
    free(text);
    int rc2 = harness_report("test_jit_lanes (generated forms)");
    return rc || rc2;
}
