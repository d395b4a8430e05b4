/* test_exec_simd — CUDA's 82 SIMD intrinsics (__vadd2 ... __vsubus4; the CUDA Math API's
 * "SIMD intrinsics") as nvcc compiles them for sm_90, sm_80, sm_75 and with -G
 * (tests/ptx/corpus/simd.cu: plain bit tricks, add/min/max.u16x2/.s16x2, vabsdiff2/4
 * with and without .add), run on edge and pseudo-random inputs and checked against a C
 * model of each intrinsic's documented semantics. The signed rounded average
 * (__vavgs2/4) rounds halves away from zero, as the H100 does. */
#include "exec_harness.h"

#include "../cuda/conformance/simd_model.h"

static void test_file(const char *file) {
    harness h = {0};
    if (!harness_load_file(&h, file)) {
        fprintf(stderr, "load %s: %s\n", file, h.err);
        harness_failures++;
        return;
    }
    uint32_t *a = harness_alloc(&h, N * 4), *b = harness_alloc(&h, N * 4);
    uint32_t *out = harness_alloc(&h, (size_t)N * NLIST * 4);
    make_inputs(a, b);
    int n = N;
    void *args[] = { &a, &b, &out, &n };
    harness_run r = harness_launch(&h, "simd", dim((N + 127) / 128, 1, 1), dim(128, 1, 1), 0, args);
    CHECK_EQ_U64(r.kind, EXEC_OK);
    if (r.kind) fprintf(stderr, "%s\n", r.fault.msg);
    for (unsigned k = 0; k < NLIST; k++) {
        int bad = 0;
        for (int i = 0; i < N; i++) {
            uint32_t want = simd_model(list[k].op, list[k].n, list[k].sgn, a[i], b[i]);
            uint32_t got = out[(size_t)k * N + (size_t)i];
            if (got != want && bad++ < 3)
                fprintf(stderr, "%s: __%s(0x%08x, 0x%08x) = 0x%08x, expected 0x%08x\n", file,
                        list[k].name, a[i], b[i], got, want);
        }
        if (bad) harness_failures++;
    }
    free(r.out.data);
    harness_dealloc(&h, a);
    harness_dealloc(&h, b);
    harness_dealloc(&h, out);
    harness_free(&h);
}

int main(void) {
    /* the model itself, on the examples of the CUDA documentation and by hand */
    CHECK_EQ_U64(simd_model(S_CMPEQ, 2, false, 0x1234aba5u, 0x1234aba6u), 0xffff0000u);
    CHECK_EQ_U64(simd_model(S_CMPGE, 2, true, 0x1234aba5u, 0x1234aba6u), 0xffff0000u);
    CHECK_EQ_U64(simd_model(S_AVG, 2, true, 0xfffd0003u, 0x00000000u), 0xfffe0002u);
    CHECK_EQ_U64(simd_model(S_SAD, 4, false, 0x01020304u, 0x04030201u), 8);
    CHECK_EQ_U64(simd_model(S_ABSSS, 2, true, 0x80008001u, 0), 0x7fff7fffu);
    static const char *const files[] = { "corpus/simd.sm90.ptx", "corpus/simd.sm80.ptx",
                                         "corpus/simd.sm75.ptx", "corpus/simd.G.ptx" };
    for (unsigned f = 0; f < sizeof files / sizeof files[0]; f++) test_file(files[f]);
    return harness_report("test_exec_simd");
}
