/* tests/unit/test_alu_decode.c — exec_decode_alu through the whole loader: hand-written
 * PTX with the operand shapes that need care (p|q and d|p destinations, '_' sinks,
 * negated predicate sources, vector pack/unpack, lop3's table, a signed cvt result in a
 * wider register, implicit membermasks of the old shfl/vote), run and checked; and
 * unsupported type/modifier combinations rejected with a message naming the instruction. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exec/exec.h"
#include "mem/mem.h"
#include "ptx/ir.h"

static int failures;

#define CHECK(cond)                                                                     \
    do {                                                                                \
        if (!(cond)) {                                                                  \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);   \
            failures++;                                                                 \
        }                                                                               \
    } while (0)

static const char *HEAD = ".version 8.0\n.target sm_90\n.address_size 64\n";

/* Load the kernel body (one thread block of 32) with a u64* param "out"; on success run
 * it and copy 32 x nout u64 results to res. Returns the loader's error text ("" if ok). */
static const char *run_body(const char *regs, const char *body, unsigned nout, uint64_t *res) {
    static char err[1024];
    static char text[16384];
    snprintf(text, sizeof text,
             "%s.visible .entry k(.param .u64 out)\n{\n%s"
             " .reg .b64 %%out, %%addr; .reg .b32 %%lane, %%tmp;\n"
             " ld.param.u64 %%out, [out];\n mov.u32 %%lane, %%tid.x;\n"
             " mul.wide.u32 %%addr, %%lane, %u;\n add.s64 %%out, %%out, %%addr;\n%s\n ret;\n}\n",
             HEAD, regs, nout * 8, body);
    err[0] = 0;
    ptx_module *m = ptx_parse(text, strlen(text), "t.ptx", err, sizeof err);
    if (!m) return err;
    mem_table *mem = mem_table_new();
    exec_program *p = exec_program_load(m, mem, err, sizeof err);
    if (!p) { mem_table_free(mem); return err; }
    const exec_kernel *k = exec_program_kernel(p, "k");
    size_t sz = 32 * nout * 8 + 256;
    uint64_t *buf = aligned_alloc(256, (sz + 255) & ~(size_t)255);
    memset(buf, 0, sz);
    mem_table_add(mem, (uint64_t)(uintptr_t)buf, sz, MEM_KIND_DEVICE, 0);
    const exec_kernel_info *ki = exec_kernel_get_info(k);
    uint8_t params[64] = { 0 };
    memcpy(params + ki->param_offsets[0], &buf, 8);
    exec_launch L;
    memset(&L, 0, sizeof L);
    L.kernel = k;
    L.grid.x = L.grid.y = L.grid.z = 1;
    L.block.x = 32; L.block.y = L.block.z = 1;
    L.params = params;
    L.mem = mem;
    L.num_sms = 1;
    exec_worker *w = exec_worker_new();
    exec_output out;
    memset(&out, 0, sizeof out);
    exec_fault f;
    exec_dim3 c = { 0, 0, 0 };
    if (exec_run_block(w, &L, c, 0, &out, &f) != EXEC_OK) {
        snprintf(err, sizeof err, "fault: %s", f.msg);
    } else {
        memcpy(res, buf, 32 * nout * 8);
    }
    free(out.data);
    exec_worker_free(w);
    mem_alloc a;
    mem_table_remove(mem, (uint64_t)(uintptr_t)buf, &a);
    free(buf);
    exec_program_free(p, mem);
    mem_table_free(mem);
    return err;
}

static void test_shapes(void) {
    uint64_t r[32 * 8];
    const char *e = run_body(
        " .reg .pred %p<4>; .reg .b32 %r<10>; .reg .b64 %rd<4>; .reg .b16 %h<4>;\n",
        /* setp p|q with a negated combining predicate */
        " setp.gt.u32 %p3, %lane, 15;\n"
        " setp.lt.and.u32 %p1|%p2, %lane, 8, !%p3;\n"
        " selp.u32 %r1, 1, 0, %p1;\n selp.u32 %r2, 2, 0, %p2;\n add.u32 %r1, %r1, %r2;\n"
        " cvt.u64.u32 %rd1, %r1;\n st.global.u64 [%out], %rd1;\n"
        /* shfl d|p with a register membermask */
        " mov.u32 %r3, -1;\n"
        " shfl.sync.up.b32 %r4|%p1, %lane, 3, 0, %r3;\n"
        " selp.u32 %r5, 100, 0, %p1;\n add.u32 %r4, %r4, %r5;\n"
        " cvt.u64.u32 %rd1, %r4;\n st.global.u64 [%out+8], %rd1;\n"
        /* vote with a negated source, elect with a sink */
        " vote.sync.ballot.b32 %r6, !%p3, %r3;\n"
        " elect.sync %r7|%p2, 0xffffffff;\n selp.u32 %r7, 1000, %r7, %p2;\n"
        " add.u32 %r6, %r6, %r7;\n"
        " cvt.u64.u32 %rd1, %r6;\n st.global.u64 [%out+16], %rd1;\n"
        /* pack / unpack */
        " mov.b64 %rd2, {%lane, %r6};\n st.global.u64 [%out+24], %rd2;\n"
        " mov.b64 {%r8, %r9}, %rd2;\n sub.u32 %r8, %r9, %r8;\n"
        " cvt.u64.u32 %rd1, %r8;\n st.global.u64 [%out+32], %rd1;\n"
        " mov.b32 {%h1, %h2}, 0x00050007;\n mov.b32 %r9, {%h2, %h1};\n"
        " cvt.u64.u32 %rd1, %r9;\n st.global.u64 [%out+40], %rd1;\n"
        /* lop3's table from the immediate; selp with a negated predicate swaps */
        " lop3.b32 %r1, %lane, 0xf0f0, 0xff00, 0x96;\n"
        " cvt.u64.u32 %rd1, %r1;\n st.global.u64 [%out+48], %rd1;\n"
        /* cvt.s8 into a 32-bit register: sign-extended to 32 bits */
        " cvt.s8.s32 %r2, 0x80;\n cvt.u64.u32 %rd1, %r2;\n st.global.u64 [%out+56], %rd1;\n",
        8, r);
    CHECK(e[0] == 0);
    if (e[0]) { fprintf(stderr, "%s\n", e); return; }
    for (unsigned l = 0; l < 32; l++) {
        const uint64_t *o = &r[l * 8];
        unsigned t = l < 8, p3 = l > 15;
        CHECK(o[0] == (t && !p3 ? 1u : 0u) + (!t && !p3 ? 2u : 0u));
        CHECK(o[1] == (l >= 3 ? (l - 3) + 100 : l));
        CHECK(o[2] == 0x0000ffffu + (l == 0 ? 1000 : 0));
        CHECK(o[3] == ((uint64_t)o[2] << 32 | l));
        CHECK(o[4] == (uint32_t)(o[2] - l));
        CHECK(o[5] == 0x00070005);
        CHECK(o[6] == ((l ^ 0xf0f0 ^ 0xff00) & 0xffffffffu));
        CHECK(o[7] == 0xffffff80u);
    }
}

static void test_old_collectives(void) {
    /* shfl and vote without .sync (PTX before 6.0): the whole warp takes part */
    uint64_t r[32 * 2];
    const char *e = run_body(" .reg .pred %p<2>; .reg .b32 %r<4>; .reg .b64 %rd<2>;\n",
                             " shfl.bfly.b32 %r1, %lane, 1, 0x1f;\n"
                             " cvt.u64.u32 %rd1, %r1;\n st.global.u64 [%out], %rd1;\n"
                             " setp.ne.u32 %p1, %lane, 4;\n vote.all.pred %p0, %p1;\n"
                             " selp.u32 %r2, 1, 2, %p0;\n cvt.u64.u32 %rd1, %r2;\n"
                             " st.global.u64 [%out+8], %rd1;\n",
                             2, r);
    CHECK(e[0] == 0);
    if (e[0]) { fprintf(stderr, "%s\n", e); return; }
    for (unsigned l = 0; l < 32; l++) {
        CHECK(r[2 * l] == (l ^ 1));
        CHECK(r[2 * l + 1] == 2);
    }
}

/* Each line must fail to load with an error that names the instruction. */
static void test_rejected(void) {
    static const struct { const char *insn, *name; } bad[] = {
        { "add.sat.u16 %h1, %h2, %h3;", "add.sat.u16" },
        { "mul.wide.u64 %rd1, %rd2, %rd3;", "mul.wide.u64" },
        { "div.rn.s32 %r1, %r2, %r3;", "div.rn.s32" },
        { "sqrt.f32 %f1, %f2;", "sqrt.f32" },               /* needs .approx or a rounding */
        { "sin.f32 %f1, %f2;", "sin.f32" },
        { "add.rz.f16 %h1, %h2, %h3;", "add.rz.f16" },
        { "cvt.s32.f32 %r1, %f2;", "cvt.s32.f32" },          /* needs an integer rounding */
        { "cvt.rn.f32.f16 %f1, %h2;", "cvt.rn.f32.f16" },     /* widening takes none */
        { "setp.lo.s32 %p1, %r1, %r2;", "setp.lo.s32" },
        { "and.s32 %r1, %r2, %r3;", "and.s32" },
        { "min.ftz.f64 %fd1, %fd2, %fd3;", "min.ftz.f64" },
        { "shf.l.b32 %r1, %r2, %r3, %r4;", "shf.l.b32" },     /* needs .wrap or .clamp */
        { "mad.hi.sat.u32 %r1, %r2, %r3, %r4;", "mad.hi.sat.u32" },
        { "popc.b16 %h1, %h2;", "popc.b16" },
        { "redux.sync.add.b32 %r1, %r2, 0xffffffff;", "redux.sync.add.b32" },
        { "testp.normal.f16 %p1, %h1;", "testp.normal.f16" },
    };
    for (unsigned i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char body[256];
        uint64_t r[32];
        snprintf(body, sizeof body, " %s\n", bad[i].insn);
        const char *e = run_body(" .reg .pred %p<2>; .reg .b16 %h<4>; .reg .b32 %r<5>;"
                                 " .reg .f32 %f<3>; .reg .b64 %rd<4>; .reg .f64 %fd<4>;\n",
                                 body, 1, r);
        if (!strstr(e, bad[i].name)) {
            fprintf(stderr, "%s: expected an error naming %s, got \"%s\"\n", bad[i].insn,
                    bad[i].name, e);
            failures++;
        }
    }
}

int main(void) {
    test_shapes();
    test_old_collectives();
    test_rejected();
    if (failures) {
        fprintf(stderr, "test_alu_decode: %d check(s) failed\n", failures);
        return 1;
    }
    printf("test_alu_decode: all checks passed\n");
    return 0;
}
