/* Smoke test: a kernel using only mov/add and memory. */
#include "exec_harness.h"

static const char *k_tid =
    ".version 8.0\n.target sm_90\n.address_size 64\n"
    ".visible .entry k_tid(.param .u64 out)\n{\n"
    "  .local .align 8 .b8 depot[8];\n  .reg .b32 %r<4>;\n  .reg .b64 %rd<5>;\n"
    "  ld.param.u64 %rd1, [out];\n  mov.u32 %r1, %tid.x;\n"
    "  add.u32 %r2, %r1, %r1;\n  add.u32 %r2, %r2, %r2;\n"
    "  st.local.u32 [depot], %r2;\n  st.local.u32 [depot+4], 0;\n"
    "  ld.local.u64 %rd2, [depot];\n  add.u64 %rd3, %rd1, %rd2;\n"
    "  add.u32 %r3, %r1, 100;\n  st.global.u32 [%rd3], %r3;\n  ret;\n}\n";

int main(void) {
    harness h = {0};
    if (!harness_load(&h, k_tid)) { fprintf(stderr, "load: %s\n", h.err); return 1; }
    uint32_t *out = harness_alloc(&h, 100 * 4);
    void *args[] = {&out};
    harness_run r = harness_launch(&h, "k_tid", dim(1, 1, 1), dim(70, 1, 1), 0, args);
    CHECK_EQ_U64(r.kind, EXEC_OK);
    if (r.kind) fprintf(stderr, "%s\n", r.fault.msg);
    for (int i = 0; i < 70; i++) CHECK_EQ_U64(out[i], 100 + i);
    CHECK_EQ_U64(out[70], 0);
    harness_dealloc(&h, out);
    free(r.out.data);
    harness_free(&h);
    return harness_report("test_exec_smoke");
}
