/* tests/unit/test_jit_rows.c — the vector tier's loads of warps that hold two rows of 16
 * threads (jit/vemit_mem.c) against the interpreter: the kernels of
 * tests/unit/data/jit_rows.cu run in both tiers over blocks 16 threads wide (2-D and 3-D),
 * 8 and 32 wide, with addresses consecutive, equal, strided and mixed within a half-warp,
 * from global and shared memory, some lanes only; and loads that leave their allocation or
 * are misaligned, whose fault (kind and message: thread, instruction) must be the same.
 */
#include "jit_tier_compare.h"

#define A_FLOATS 8192u

static void run_all(harness *h, tier_outcome *o) {
    memset(o, 0, sizeof *o);
    float *abase = harness_alloc(h, A_FLOATS * 4), *out = harness_alloc(h, A_FLOATS * 4);
    int32_t *aibase = harness_alloc(h, A_FLOATS * 4), *outi = harness_alloc(h, A_FLOATS * 4);
    for (uint32_t i = 0; i < A_FLOATS; i++) {
        abase[i] = (float)((i * 2654435761u) >> 20) * 0.25f - 500.0f;
        aibase[i] = (int32_t)((i * 40503u) >> 3) - 20000;
    }
    /* a[-1] and a little past the last row stay inside the allocation */
    float *a = abase + 64;
    int32_t *ai = aibase + 64;

    /* jr_loads: {block x, y, z, grid x, grid y} */
    static const uint32_t shapes[][5] = {{16, 4, 1, 2, 2}, {16, 2, 2, 2, 1}, {16, 16, 1, 2, 2},
                                         {8, 4, 1, 3, 2}, {32, 2, 1, 2, 2}, {16, 1, 1, 3, 1}};
    for (size_t c = 0; c < sizeof shapes / sizeof shapes[0]; c++) {
        const uint32_t *sh = shapes[c];
        int n = (int)(sh[0] * sh[3]) + 40, off = 3 + (int)c;
        memset(out, 0x55, A_FLOATS * 4);
        memset(outi, 0x55, A_FLOATS * 4);
        void *args[] = {&a, &ai, &out, &outi, &n, &off};
        tier_launch(h, o, "jr_loads", dim(sh[3], sh[4], 1), dim(sh[0], sh[1], sh[2]), args, a);
        tier_keep(o, out, 4096 * 4);
        tier_keep(o, outi, 4096 * 4);
    }

    /* jr_fault: rows of 16 over a 64-float allocation; past its end, before its start,
     * misaligned, and in range */
    float *small = harness_alloc(h, 64 * 4);
    for (uint32_t i = 0; i < 64; i++) small[i] = (float)i;
    static const struct { int base, byte; } faults[] = {{40, 0}, {-16, 0}, {0, 2}, {32, 0}};
    for (size_t c = 0; c < sizeof faults / sizeof faults[0]; c++) {
        int base = faults[c].base, byte = faults[c].byte;
        memset(out, 0x66, 64 * 4);
        void *args[] = {&small, &out, &base, &byte};
        tier_launch(h, o, "jr_fault", dim(1, 1, 1), dim(16, 2, 1), args, small);
        tier_keep(o, out, 64 * 4);
    }
    harness_dealloc(h, small);
    harness_dealloc(h, outi);
    harness_dealloc(h, aibase);
    harness_dealloc(h, out);
    harness_dealloc(h, abase);
}

/* the loads' launches run, the first three fault cases fault */
static void check_ref(const tier_outcome *ref) {
    CHECK_EQ_U64(ref->nkinds, 10);
    for (unsigned k = 0; k < ref->nkinds; k++)
        CHECK_EQ_U64(ref->kinds[k] == EXEC_OK, k < 6 || k == 9);
}

int main(void) { return tier_compare_main("test_jit_rows", "jit_rows.ptx", run_all, check_ref); }
