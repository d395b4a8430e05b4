/* tests/unit/test_jit_barriers.c — the vector tier's barriers against the interpreter:
 * the kernels of tests/unit/data/jit_barriers.cu run in both tiers and must leave the same
 * memory: a tree reduction with a barrier after each step and uniform, affine (a step of
 * the run too), vector and predicate values live across them; the warp-synchronous tail
 * written with a barrier every few instructions; blocks that leave the compiled code while
 * some warps wait at a later barrier than others (a loop whose lanes part, a shuffle with
 * lanes apart), so that what each warp kept across its barriers must reach the
 * interpreter's registers; block sizes of 1 to 32 warps, partial ones included. Registers
 * a warp defines once before its barriers are stashed where they are defined (jb_stash:
 * its generated code must do so, and the block must still reach the interpreter whole).
 */
#include "jit_tier_compare.h"
#include "jit/internal.h"

#define N_INTS 16384u

static void run_all(harness *h, tier_outcome *o) {
    memset(o, 0, sizeof *o);
    int32_t *in = harness_alloc(h, N_INTS * 4), *out = harness_alloc(h, N_INTS * 4);
    int32_t *trace = harness_alloc(h, N_INTS * 4);
    for (uint32_t i = 0; i < N_INTS; i++) in[i] = (int32_t)((i * 2654435761u) >> 11) - 700000;

    /* jb_tree: {block, grid, sel} (blocks of a power of two threads, 1 to 32 warps) */
    static const int tree[][3] = {{512, 4, 0}, {1024, 2, 64}, {64, 8, 1}, {32, 5, 4},
                                  {256, 3, 128}};
    for (size_t c = 0; c < sizeof tree / sizeof tree[0]; c++) {
        memset(out, 0x11, 64 * 4);
        memset(trace, 0x22, N_INTS * 4);
        int sel = tree[c][2];
        void *a[] = {&in, &out, &trace, &sel};
        tier_launch(h, o, "jb_tree", dim((uint32_t)tree[c][1], 1, 1), dim((uint32_t)tree[c][0], 1, 1),
                    a, NULL);
        tier_keep(o, out, 64 * 4);
        tier_keep(o, trace, (size_t)tree[c][0] * (size_t)tree[c][1] * 4);
    }

    /* jb_sync_tail: 512, 256 and 128 threads */
    static const uint32_t tails[] = {512, 256, 128, 64};
    for (size_t c = 0; c < sizeof tails / sizeof tails[0]; c++) {
        memset(out, 0x33, 64 * 4);
        void *a[] = {&in, &out};
        tier_launch(h, o, "jb_sync_tail", dim(6, 1, 1), dim(tails[c], 1, 1), a, NULL);
        tier_keep(o, out, 64 * 4);
    }

    /* jb_bail: {block, split (the first warp's thread that loops), step}; split past the
     * block: no warp loops */
    static const int bails[][3] = {{256, 224, 3}, {256, 96, -5}, {512, 0, 7}, {96, 64, 1},
                                   {80, 64, 2}, {256, 4096, 3}, {1024, 992, -1}};
    for (size_t c = 0; c < sizeof bails / sizeof bails[0]; c++) {
        memset(out, 0x44, N_INTS * 4);
        int split = bails[c][1], step = bails[c][2];
        void *a[] = {&in, &out, &split, &step};
        tier_launch(h, o, "jb_bail", dim(3, 1, 1), dim((uint32_t)bails[c][0], 1, 1), a, NULL);
        tier_keep(o, out, (size_t)bails[c][0] * 3 * 4);
    }

    /* jb_shfl: all lanes (the compiled shuffle), some (the interpreter's) */
    static const int lims[] = {32, 17, 1};
    for (size_t c = 0; c < sizeof lims / sizeof lims[0]; c++) {
        memset(out, 0x55, 1024 * 4);
        int lim = lims[c];
        void *a[] = {&in, &out, &lim};
        tier_launch(h, o, "jb_shfl", dim(4, 1, 1), dim(256, 1, 1), a, NULL);
        tier_keep(o, out, 1024 * 4);
    }
    /* jb_stash: {block, grid, threads short of the grid's, sel, lim}: warps that leave,
     * the value set on one path (odd sel), a shuffle with lanes apart (stride == sel and
     * lim < 32: the interpreter takes the block) or whole (lim 32) */
    static const int stash[][5] = {{512, 4, 100, 0, 32}, {256, 3, 0, 64, 17}, {1024, 2, 0, 3, 32},
                                   {96, 3, 40, 3, 1}, {64, 5, 0, 1, 32}};
    for (size_t c = 0; c < sizeof stash / sizeof stash[0]; c++) {
        uint32_t nb = (uint32_t)stash[c][0], ng = (uint32_t)stash[c][1];
        memset(out, 0x66, (size_t)nb * ng * 4);
        unsigned n = nb * ng - (unsigned)stash[c][2];
        int sel = stash[c][3], lim = stash[c][4];
        void *a[] = {&in, &out, &n, &sel, &lim};
        tier_launch(h, o, "jb_stash", dim(ng, 1, 1), dim(nb, 1, 1), a, NULL);
        tier_keep(o, out, (size_t)nb * ng * 4);
    }
    harness_dealloc(h, trace);
    harness_dealloc(h, out);
    harness_dealloc(h, in);
}

/* every launch runs */
static void check_ref(const tier_outcome *ref) {
    CHECK_EQ_U64(ref->nkinds, 24);
    for (unsigned k = 0; k < ref->nkinds; k++) CHECK_EQ_U64(ref->kinds[k], EXEC_OK);
}

/* jb_stash's whole-block function writes a register into the stash before its first
 * barrier (where the register is defined), not only at the barriers */
static void check_stash_at_def(void) {
    char path[512];
    snprintf(path, sizeof path, "%s/unit/data/jit_barriers.ptx", VCUDA_TEST_DIR);
    char *text = test_read_file(path, NULL);
    harness h = {0};
    CHECK(text && harness_load(&h, text));
    bool found = false;
    for (uint32_t i = 0; text && i < exec_program_nfuncs(h.prog); i++) {
        const exec_func *f = exec_program_func(h.prog, i);
        if (!f->code || strcmp(f->pf->name, "jb_stash")) continue;
        found = true;
        jit_buf b = {0};
        char why[256] = "";
        CHECK(jit_vemit_func(f, &b, why, sizeof why));
        const char *fn = b.s ? strstr(b.s, "int vb_f") : NULL;
        const char *bar = fn ? strstr(fn, "nwait++") : NULL;
        const char *st = fn ? strstr(fn, "    SV_[wi * ") : NULL;
        if (!(st && bar && st < bar)) fprintf(stderr, "jb_stash: no stash store before its first barrier\n");
        CHECK(st && bar && st < bar);
        jit_buf_free(&b);
    }
    CHECK(found);
    harness_free(&h);
    free(text);
}

int main(void) {
    check_stash_at_def();
    return tier_compare_main("test_jit_barriers", "jit_barriers.ptx", run_all, check_ref);
}
