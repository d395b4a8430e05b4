/* tests/unit/test_jit_rowform.c — the vector tier's row-affine registers (jit/vemit.c,
 * find_rows; jit/vemit_rows.c) against the interpreter: the kernels of
 * tests/unit/data/jit_rowform.cu run in both tiers over blocks 1, 2, 4, 8, 16 and 32 threads
 * wide, widths that are no power of two (3, 12, 24), 3-D blocks whose warps hold rows of one
 * z or of several, partial warps at a block's end, 4- and 8-byte values, rows read
 * backwards, accesses whose
 * extreme lanes are at their allocation's ends or one element past them, and 32-bit
 * indices whose lanes wrap when widened; the two tiers must leave the same memory and the
 * same faults. The generated code counts the accesses its row path made (VCUDA_JIT_ROWS=
 * count: vr_hits in each compiled unit), which must be some for every launch whose block
 * is made of rows of a power of two below 32 with a full warp, and none for the others.
 */
#include "jit_tier_compare.h"

#include <dirent.h>
#include <dlfcn.h>

#define N 128
#define ELEMS (N * N)

/* The row accesses counted so far by the compiled units in the cache (none interpreted). */
static uint64_t row_hits(void) {
    const char *dir = getenv("VCUDA_CACHE_DIR");
    DIR *d = dir ? opendir(dir) : NULL;
    uint64_t n = 0;
    struct dirent *e;
    while (d && (e = readdir(d)) != NULL) {
        size_t len = strlen(e->d_name);
        if (len < 4 || strcmp(e->d_name + len - 3, ".so")) continue;
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        void *h = dlopen(path, RTLD_NOW | RTLD_NOLOAD);
        if (!h) continue;
        const uint64_t *c = dlsym(h, "vr_hits");
        if (c) n += __atomic_load_n(c, __ATOMIC_RELAXED);
        dlclose(h);
    }
    if (d) closedir(d);
    return n;
}

/* rf_tile's block shapes {x, y, z}, and whether its warps take the row path: a width a
 * power of two below 32, rows of one z in each warp (z 1, or x * y a multiple of 32), and
 * a full warp */
static const struct { uint32_t x, y, z; bool rows; } shapes[] = {
    {1, 32, 1, true},  {2, 16, 1, true},  {4, 8, 1, true},   {8, 4, 1, true},
    {16, 2, 1, true},  {16, 16, 1, true}, {8, 8, 1, true},   {32, 2, 1, false},
    {3, 8, 1, false},  {12, 4, 1, false}, {24, 2, 1, false}, {8, 4, 2, true},
    {16, 2, 2, true},  {8, 2, 4, false},  {4, 4, 4, false},  {16, 3, 1, true},
    {8, 5, 1, true},   {4, 3, 1, false},  {2, 20, 1, true},
};
#define NSHAPES (sizeof shapes / sizeof shapes[0])

/* the row accesses of each launch, in the last pass (the compiled one's) */
static uint64_t hits_tile[NSHAPES], hits_edge[8], hits_wrap[8], hits_wide[4];

static void run_all(harness *h, tier_outcome *o) {
    memset(o, 0, sizeof *o);
    float *a = harness_alloc(h, ELEMS * 4), *out = harness_alloc(h, ELEMS * 4);
    int32_t *b = harness_alloc(h, ELEMS * 4), *outi = harness_alloc(h, ELEMS * 4);
    for (uint32_t i = 0; i < ELEMS; i++) {
        a[i] = (float)((i * 2654435761u) >> 22) * 0.5f - 300.0f;
        b[i] = (int32_t)((i * 40503u) >> 4) - 1000;
    }
    int n = N;
    for (size_t c = 0; c < NSHAPES; c++) {
        uint32_t bx = shapes[c].x, by = shapes[c].y, bz = shapes[c].z;
        memset(out, 0x55, ELEMS * 4);
        memset(outi, 0x55, ELEMS * 4);
        void *args[] = {&a, &b, &out, &outi, &n};
        uint64_t h0 = row_hits();
        /* (grids within the N x N matrix) */
        tier_launch(h, o, "rf_tile", dim(N / 32 * 32 / bx / 2, N / (by * bz) / 2, 1),
                    dim(bx, by, bz), args, a);
        hits_tile[c] = row_hits() - h0;
        tier_keep(o, out, ELEMS * 4);
        tier_keep(o, outi, ELEMS * 4);
    }

    /* rf_edge over 16 x 2 blocks on 256 floats, rows 16 apart read backwards: base the
     * first row's start, obase the store's; the last cases one element past an end */
    float *small = harness_alloc(h, 256 * 4), *sout = harness_alloc(h, 256 * 4);
    for (uint32_t i = 0; i < 256; i++) small[i] = (float)i * 3.0f;
    /* (the first launch finds no allocation in the instructions' range caches, which
     * the general path fills: a launch to warm them) */
    static const struct { int base, obase, n; } edges[] = {
        {16, 0, 16},    /* (warm) */
        {16, 0, 16},    /* rows at [16, 32) and [0, 16): from the allocation's start */
        {240, 224, 16}, /* the load's first row and the store's last at the end */
        {255, 0, 239},  /* rows 239 apart: lanes 255 - 239 .. 255 + 15: past the end */
        {10, 0, 16},    /* the second row from -6: before the start */
        {240, 225, 16}, /* the store one element past the end */
        {100, 50, -16}, /* rows read forwards, stored backwards */
    };
    for (size_t c = 0; c < sizeof edges / sizeof edges[0]; c++) {
        memset(sout, 0x66, 256 * 4);
        int base = edges[c].base, obase = edges[c].obase, en = edges[c].n;
        void *args[] = {&small, &sout, &base, &obase, &en};
        uint64_t h0 = row_hits();
        /* (a fault's address told from the allocation it misses: the two passes place
         * the allocations apart differently) */
        tier_launch(h, o, "rf_edge", dim(1, 1, 1), dim(16, 2, 1), args, c == 5 ? sout : small);
        hits_edge[c] = row_hits() - h0;
        tier_keep(o, sout, 256 * 4);
    }

    /* rf_wrap over 8 x 4 blocks (the first to warm the range caches): no lane wraps (a
     * load in range), the row step wraps
     * backwards without a lane leaving 32 bits, and lanes that wrap (values only; then a
     * load, which faults) */
    static const struct { uint32_t base, k; int load; } wraps[] = {
        {0, 8, 1}, {0, 8, 1}, {200, 0xfffffff8u, 1}, {0xfffffff0u, 8, 0}, {0xfffffff0u, 8, 1}};
    for (size_t c = 0; c < sizeof wraps / sizeof wraps[0]; c++) {
        memset(sout, 0x77, 256 * 4);
        uint32_t base = wraps[c].base, k = wraps[c].k;
        int load = wraps[c].load;
        void *args[] = {&small, &sout, &base, &k, &load};
        uint64_t h0 = row_hits();
        tier_launch(h, o, "rf_wrap", dim(1, 1, 1), dim(8, 4, 1), args, small);
        hits_wrap[c] = row_hits() - h0;
        tier_keep(o, sout, 256 * 4);
    }

    /* rf_wide: 8-byte rows (long long, double) over 64 x 64, blocks 8, 4, 16 and 2 wide */
    int64_t *w8 = harness_alloc(h, 64 * 64 * 8), *wout = harness_alloc(h, 64 * 64 * 8);
    for (uint32_t i = 0; i < 64 * 64; i++) w8[i] = (int64_t)(i * 2654435761u) - (1ll << 31);
    static const uint32_t wshapes[][2] = {{8, 4}, {4, 8}, {16, 2}, {2, 16}};
    for (size_t c = 0; c < 4; c++) {
        memset(wout, 0x44, 64 * 64 * 8);
        int wn = 64;
        void *args[] = {&w8, &wout, &wn};
        uint64_t h0 = row_hits();
        tier_launch(h, o, "rf_wide", dim(64 / wshapes[c][0] / 2, 64 / wshapes[c][1] / 2, 1),
                    dim(wshapes[c][0], wshapes[c][1], 1), args, w8);
        hits_wide[c] = row_hits() - h0;
        tier_keep(o, wout, 64 * 64 * 8);
    }
    harness_dealloc(h, wout);
    harness_dealloc(h, w8);
    harness_dealloc(h, sout);
    harness_dealloc(h, small);
    harness_dealloc(h, outi);
    harness_dealloc(h, b);
    harness_dealloc(h, out);
    harness_dealloc(h, a);
}

/* which launches fault: rf_edge's past-the-end and before-the-start cases, rf_wrap's load
 * of wrapped lanes */
static void check_ref(const tier_outcome *ref) {
    CHECK_EQ_U64(ref->nkinds, NSHAPES + 7 + 5 + 4);
    for (unsigned k = 0; k < ref->nkinds; k++) {
        bool fault = k == NSHAPES + 3 || k == NSHAPES + 4 || k == NSHAPES + 5 ||
                     k == NSHAPES + 7 + 4;
        if ((ref->kinds[k] != EXEC_OK) != fault) fprintf(stderr, "launch %u: kind %d\n", k, ref->kinds[k]);
        CHECK_EQ_U64(ref->kinds[k] != EXEC_OK, fault);
    }
}

int main(void) {
    setenv("VCUDA_JIT_ROWS", "count", 1);
    int rc = tier_compare_main("test_jit_rowform", "jit_rowform.ptx", run_all, check_ref);
    /* the compiled pass ran last: its row accesses, launch by launch */
    for (size_t c = 0; c < NSHAPES; c++) {
        if ((hits_tile[c] != 0) != shapes[c].rows)
            fprintf(stderr, "rf_tile %ux%ux%u: %llu row accesses\n", shapes[c].x, shapes[c].y,
                    shapes[c].z, (unsigned long long)hits_tile[c]);
        CHECK((hits_tile[c] != 0) == shapes[c].rows);
    }
    /* rf_edge: its in-range cases go the row path, load and store; past an end, the
     * general path reports the fault */
    CHECK(hits_edge[1] == 2 && hits_edge[2] == 2 && hits_edge[6] == 2);
    CHECK(hits_edge[3] == 0 && hits_edge[4] == 0);
    CHECK(hits_edge[5] == 1); /* (the load; the store past the end faults) */
    /* rf_wrap: where no lane wraps, its two stores and its load; where some do, none
     * (the widening finds it and hands the block to the interpreter) */
    CHECK(hits_wrap[1] == 3 && hits_wrap[2] == 3);
    CHECK(hits_wrap[3] == 0 && hits_wrap[4] == 0);
    /* rf_wide: its 8-byte rows */
    for (unsigned c = 0; c < 4; c++) CHECK(hits_wide[c] != 0);
    return rc || harness_failures ? harness_report("test_jit_rowform") : 0;
}
