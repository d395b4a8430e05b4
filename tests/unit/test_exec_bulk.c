/* tests/unit/test_exec_bulk.c — bulk asynchronous copies and wgmma at the PTX level: what is
 * refused at load time (naming it), the faults the hardware raises (misaligned bulk copies,
 * a shared->shared::cluster copy without a cluster launch), the fault for what vcuda does
 * not run (a wgmma descriptor with a base offset), an mbarrier whose bytes complete before
 * the arrive that expects them, and labels local to { } blocks (inline assembly pasted
 * twice into one function). The end-to-end programs with the GPU's output are
 * tests/cuda/conformance/bulk_copy.cu and tests/cuda/hopper. */
#include "exec_harness.h"

#include <stdint.h>

#define HDR ".version 8.0\n.target sm_90a\n.address_size 64\n"

static void check_refused(const char *insn, const char *regs, const char *expect) {
    char text[2048];
    snprintf(text, sizeof text, HDR ".visible .entry k(.param .u64 p)\n{\n%s\n\t%s;\n\tret;\n}\n",
             regs, insn);
    harness e = {0};
    bool ok = harness_load(&e, text);
    if (ok) {
        fprintf(stderr, "'%s' loaded; expected a refusal naming '%s'\n", insn, expect);
        harness_failures++;
    } else if (!strstr(e.err, expect)) {
        fprintf(stderr, "refusing '%s': %s\n", insn, e.err);
        harness_failures++;
    }
    harness_free(&e);
}

/* g2s: copies n bytes from p to shared memory (expecting them only after the copy), waits
 * on the mbarrier, and writes the shared words back to p + 256 with a bulk store. s2s:
 * a shared->shared::cluster copy. wait2: the same wait loop pasted twice (labels W). */
static const char *kernels =
    HDR
    ".visible .entry g2s(.param .u64 p, .param .u32 n)\n{\n"
    "\t.reg .pred %q<2>;\n\t.reg .b32 %r<8>;\n\t.reg .b64 %rd<4>;\n"
    "\t.shared .align 128 .b8 buf[256];\n\t.shared .align 8 .b64 bar;\n"
    "\tld.param.u64 %rd1, [p];\n\tld.param.u32 %r1, [n];\n"
    "\tmov.u32 %r2, buf;\n\tmov.u32 %r3, bar;\n"
    "\tmbarrier.init.shared::cta.b64 [%r3], 1;\n"
    "\tcp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%r2], [%rd1], %r1, [%r3];\n"
    "\tmbarrier.arrive.expect_tx.shared::cta.b64 %rd2, [%r3], %r1;\n"
    "\t{\n\t.reg .pred p;\nW:\tmbarrier.try_wait.parity.shared::cta.b64 p, [%r3], 0;\n\t@!p bra W;\n\t}\n"
    "\t{\n\t.reg .pred p;\nW:\tmbarrier.try_wait.parity.shared::cta.b64 p, [%r3], 0;\n\t@!p bra W;\n\t}\n"
    "\tfence.proxy.async.shared::cta;\n"
    "\tadd.u64 %rd3, %rd1, 256;\n"
    "\tcp.async.bulk.global.shared::cta.bulk_group [%rd3], [%r2], %r1;\n"
    "\tcp.async.bulk.commit_group;\n\tcp.async.bulk.wait_group.read 0;\n"
    "\tbra.uni W;\nW:\tret;\n}\n"
    ".visible .entry s2s(.param .u64 p)\n{\n"
    "\t.reg .b32 %r<4>;\n\t.shared .align 128 .b8 a[64];\n\t.shared .align 128 .b8 b[64];\n"
    "\t.shared .align 8 .b64 bar;\n"
    "\tmov.u32 %r1, a;\n\tmov.u32 %r2, b;\n\tmov.u32 %r3, bar;\n"
    "\tmbarrier.init.shared::cta.b64 [%r3], 1;\n"
    "\tcp.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes [%r2], [%r1], 64, [%r3];\n"
    "\tret;\n}\n"
    ".visible .entry wg(.param .u64 p)\n{\n"
    "\t.reg .f32 %f<4>;\n\t.reg .b64 %rd<3>;\n\t.shared .align 128 .b8 s[2048];\n"
    "\tmov.u64 %rd1, 0x4002000000000000;\n"
    "\twgmma.fence.sync.aligned;\n"
    "\twgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%f0,%f1,%f2,%f3}, %rd1, %rd1, 1, 1, 1, 0, 0;\n"
    "\twgmma.commit_group.sync.aligned;\n\twgmma.wait_group.sync.aligned 0;\n"
    "\tret;\n}\n"
    /* wgmma with A in registers (7 operands: no transpose of A): A all 2.0, B all 1.0 from a
     * descriptor, D starting at 1.0, so every element is 1 + 16 * 2 whatever the layouts */
    ".visible .entry wga(.param .u64 out)\n{\n"
    "\t.reg .f32 %f<4>;\n\t.reg .b32 %r<8>;\n\t.reg .b64 %rd<4>;\n\t.reg .pred %p<2>;\n"
    "\t.shared .align 128 .b8 s[1024];\n"
    "\tmov.u32 %r1, %tid.x;\n\tmov.u32 %r2, s;\n\tshl.b32 %r3, %r1, 3;\n\tadd.u32 %r3, %r2, %r3;\n"
    "\tmov.b32 %r4, 0x3C003C00;\n\tst.shared.v2.b32 [%r3], {%r4, %r4};\n\tbar.sync 0;\n"
    "\tbfe.u32 %r5, %r2, 4, 14;\n\tcvt.u64.u32 %rd1, %r5;\n\tor.b64 %rd1, %rd1, 0x0000001000080000;\n"
    "\tmov.b32 %r6, 0x40004000;\n"
    "\tmov.f32 %f0, 0f3F800000;\n\tmov.f32 %f1, %f0;\n\tmov.f32 %f2, %f0;\n\tmov.f32 %f3, %f0;\n"
    "\tsetp.ne.b32 %p1, 1, 0;\n"
    "\twgmma.fence.sync.aligned;\n"
    "\twgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%f0,%f1,%f2,%f3}, {%r6,%r6,%r6,%r6}, %rd1, %p1, 1, 1, 0;\n"
    "\twgmma.commit_group.sync.aligned;\n\twgmma.wait_group.sync.aligned 0;\n"
    "\tld.param.u64 %rd2, [out];\n\tmul.wide.u32 %rd3, %r1, 16;\n\tadd.u64 %rd2, %rd2, %rd3;\n"
    "\tst.global.v4.f32 [%rd2], {%f0, %f1, %f2, %f3};\n"
    "\tret;\n}\n";

int main(void) {
    const char *r = "\t.reg .b32 %r<8>;\n\t.reg .b64 %rd<4>;\n\t.reg .f32 %f<8>;";
    check_refused("cp.async.bulk.tensor.2d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes "
                  "[%r1], [%rd1, {%r2, %r3}], [%r4], {%r5}", r, "im2col copies are 3d, 4d or 5d");
    check_refused("cp.reduce.async.bulk.tensor.2d.shared::cluster.global.add.tile."
                  "mbarrier::complete_tx::bytes [%r1], [%rd1, {%r2, %r3}], [%r4]", r,
                  "cp.reduce.async.bulk.tensor reduces shared memory into global memory");
    check_refused("cp.reduce.async.bulk.global.shared::cta.bulk_group.add.noftz.f16 [%rd1], [%r1], 64",
                  r, "f16/bf16 reductions are not supported");
    check_refused("cp.async.bulk.shared::cluster.global [%r1], [%rd1], 64", r,
                  "completes on an mbarrier");
    check_refused("wgmma.mma_async.sync.aligned.m64n8k16.s32.s8.s8 {%r0,%r1,%r2,%r3}, %rd1, %rd2, 1, 1, 1, 0, 0",
                  r, "unsupported wgmma");
    check_refused("wgmma.mma_async.sync.aligned.m64n40k32.s32.s8.s8 {%r0,%r1,%r2,%r3}, %rd1, %rd2, 1",
                  r, "s8/u8 operands take N = 8, 24 or a multiple of 16");

    harness h = {0};
    if (!harness_load(&h, kernels)) {
        fprintf(stderr, "load: %s\n", h.err);
        return 1;
    }
    uint32_t *buf = harness_alloc(&h, 512);
    for (uint32_t i = 0; i < 64; i++) buf[i] = i * 2654435761u;
    uint32_t n = 256;
    void *args[] = {&buf, &n};
    harness_run run = harness_launch(&h, "g2s", dim(1, 1, 1), dim(1, 1, 1), 0, args);
    CHECK(run.kind == EXEC_OK);
    for (uint32_t i = 0; i < 64; i++) CHECK(buf[64 + i] == i * 2654435761u);
    /* a size that is no multiple of 16 faults as misaligned */
    n = 40;
    run = harness_launch(&h, "g2s", dim(1, 1, 1), dim(1, 1, 1), 0, args);
    CHECK(run.kind == EXEC_FAULT_MISALIGNED);
    CHECK(strstr(run.fault.msg, "multiples of 16") != NULL);
    void *args1[] = {&buf};
    run = harness_launch(&h, "s2s", dim(1, 1, 1), dim(1, 1, 1), 0, args1);
    CHECK(run.kind == EXEC_FAULT_ILLEGAL_INSTRUCTION);
    CHECK(strstr(run.fault.msg, "launched as a cluster") != NULL);
    run = harness_launch(&h, "wg", dim(1, 1, 1), dim(128, 1, 1), 0, args1);
    CHECK(run.kind == EXEC_FAULT_ILLEGAL_INSTRUCTION);
    CHECK(strstr(run.fault.msg, "base offset") != NULL);
    float *d = harness_alloc(&h, 128 * 16);
    void *args2[] = {&d};
    run = harness_launch(&h, "wga", dim(1, 1, 1), dim(128, 1, 1), 0, args2);
    CHECK(run.kind == EXEC_OK);
    if (run.kind) fprintf(stderr, "%s\n", run.fault.msg);
    for (int i = 0; i < 128 * 4; i++) CHECK(d[i] == 33.0f);
    harness_dealloc(&h, d);
    harness_dealloc(&h, buf);
    harness_free(&h);
    return harness_report("test_exec_bulk");
}
