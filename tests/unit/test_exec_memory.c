/* test_exec_memory — state spaces (tests/ptx/exec/memory.cu and hand-written PTX): sign
 * and zero extension, .const, pointer-initialised globals, by-value structs indexed at
 * run time, generic pointers into shared/local/global memory, isspacep, vectors, the
 * read-only .const space, and load errors that name the unsupported instruction. */
#include "exec_harness.h"

typedef struct S { long long a[4]; } S;

static void test_spaces(harness *h) {
    long long *out = harness_alloc(h, 80 * 8);
    S s = {{100, -200, 300, -400}};
    int k = 2;
    short *halves = harness_alloc(h, 4);
    halves[0] = 5;
    halves[1] = -3;
    void *args[] = {&out, &s, &k, &halves};
    harness_run r = harness_launch(h, "spaces", dim(1, 1, 1), dim(64, 1, 1), 0, args);
    CHECK_EQ_U64(r.kind, EXEC_OK);
    if (r.kind) fprintf(stderr, "%s\n", r.fault.msg);
    CHECK_EQ_U64(out[0], -1);
    CHECK_EQ_U64(out[1], 255);
    CHECK_EQ_U64(out[2], 40);
    CHECK_EQ_U64(out[3], -4);
    CHECK_EQ_U64(out[4], 300);
    CHECK_EQ_U64(out[5], -3);
    CHECK_EQ_U64(out[6], 65533);
    /* shared 2, local 4, global 1, constant 8 alone: a __constant__ address is not
     * global (__isGlobal false on an H100: tests/cuda/conformance/addr_space) */
    CHECK_EQ_U64(out[7], 2418);
    for (int t = 0; t < 64; t++) {
        long long sum = 0;
        for (int j = 0; j < 8; j++) sum += 3 * ((t + j) % 64) + j;
        CHECK_EQ_U64(out[8 + t], sum);
    }
    size_t size = 0;
    int *gvals = exec_program_var(h->prog, "gvals", &size);
    CHECK(gvals != NULL && size == 16);
    if (gvals) for (int i = 0; i < 4; i++) CHECK_EQ_U64(gvals[i], 0);
    harness_dealloc(h, out);
    harness_dealloc(h, halves);
}

static void test_vectors(harness *h) {
    enum { N = 40 };
    int *in4 = harness_alloc(h, N * 16), *out4 = harness_alloc(h, N * 16);
    double *in2 = harness_alloc(h, N * 16), *out2 = harness_alloc(h, N * 16);
    signed char *inc = harness_alloc(h, N * 4), *outc = harness_alloc(h, N * 4);
    for (int i = 0; i < N * 4; i++) { in4[i] = i * 11 - 7; inc[i] = (signed char)(i * 37); }
    for (int i = 0; i < N * 2; i++) in2[i] = i * 1.5;
    void *args[] = {&in4, &out4, &in2, &out2, &inc, &outc};
    harness_run r = harness_launch(h, "vectors", dim(1, 1, 1), dim(N, 1, 1), 0, args);
    CHECK_EQ_U64(r.kind, EXEC_OK);
    if (r.kind) fprintf(stderr, "%s\n", r.fault.msg);
    for (int t = 0; t < N; t++) {
        for (int c = 0; c < 4; c++) {
            CHECK_EQ_U64(out4[t * 4 + c], in4[t * 4 + 3 - c]);
            CHECK_EQ_U64(outc[t * 4 + c], inc[t * 4 + 3 - c]);
        }
        CHECK(out2[t * 2] == in2[t * 2 + 1] * 2 && out2[t * 2 + 1] == in2[t * 2]);
    }
    harness_dealloc(h, in4); harness_dealloc(h, out4); harness_dealloc(h, in2);
    harness_dealloc(h, out2); harness_dealloc(h, inc); harness_dealloc(h, outc);
}

static void test_const_is_read_only(harness *h) {
    int v = 9;
    void *args[] = {&v};
    harness_run r = harness_launch(h, "write_const", dim(1, 1, 1), dim(1, 1, 1), 0, args);
    CHECK_EQ_U64(r.kind, EXEC_FAULT_ILLEGAL_ADDRESS);
    CHECK(strstr(r.fault.msg, "read-only") != NULL);
    CHECK(strstr(r.fault.msg, "in function '_Z3putPii'") != NULL);
    int *ctab = exec_program_var(h->prog, "ctab", NULL);
    CHECK(ctab && ctab[0] == 10);
}

/* Hand-written PTX: extension of narrow loads into wider registers, and the ld/st
 * forms nvcc rarely produces. */
static const char *narrow_ptx =
    ".version 8.0\n.target sm_90\n.address_size 64\n"
    ".global .align 4 .b8 bytes[8] = {128, 127, 255, 1, 0x34, 0x12, 0xfe, 0xff};\n"
    ".visible .entry narrow(.param .u64 out)\n{\n"
    "  .reg .b16 %h<3>;\n  .reg .b32 %r<6>;\n  .reg .b64 %rd<8>;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  ld.global.s8 %r1, [bytes];\n"          /* 0xffffff80 */
    "  ld.global.u8 %r2, [bytes];\n"          /* 0x80 */
    "  ld.global.s8 %rd2, [bytes+2];\n"       /* all ones */
    "  ld.global.s16 %r3, [bytes+6];\n"       /* 0xfffffffe */
    "  ld.global.u16 %rd3, [bytes+6];\n"      /* 0xfffe */
    "  ld.global.s8 %h1, [bytes];\n"          /* 0xff80 in a 16-bit register */
    "  ld.global.b8 %r4, [bytes+1];\n"        /* 0x7f */
    "  ld.global.s32 %rd4, [bytes+4];\n"      /* 0xfffffffffffe1234 */
    "  ld.global.u32 %rd5, [bytes+4];\n"      /* 0xfffe1234 */
    "  ld.global.v2.u16 {%h2, _}, [bytes+4];\n"
    "  st.global.u32 [%rd1], %r1;\n  st.global.u32 [%rd1+4], %r2;\n"
    "  st.global.u64 [%rd1+8], %rd2;\n  st.global.u32 [%rd1+16], %r3;\n"
    "  st.global.u64 [%rd1+24], %rd3;\n  st.global.u16 [%rd1+32], %h1;\n"
    "  st.global.u32 [%rd1+36], %r4;\n  st.global.u64 [%rd1+40], %rd4;\n"
    "  st.global.u64 [%rd1+48], %rd5;\n  st.global.b16 [%rd1+56], %h2;\n"
    "  st.global.v2.u8 [%rd1+58], {%h1, 7};\n"
    "  st.global.u32 [%rd1+60], %rd4;\n"  /* truncating store from a 64-bit register */
    "  ret;\n}\n";

static void test_narrow(void) {
    harness h = {0};
    if (!harness_load(&h, narrow_ptx)) {
        fprintf(stderr, "load narrow: %s\n", h.err);
        harness_failures++;
        return;
    }
    uint8_t *out = harness_alloc(&h, 64);
    void *args[] = {&out};
    harness_run r = harness_launch(&h, "narrow", dim(1, 1, 1), dim(1, 1, 1), 0, args);
    CHECK_EQ_U64(r.kind, EXEC_OK);
    uint32_t u32; uint64_t u64; uint16_t u16;
    memcpy(&u32, out, 4); CHECK_EQ_U64(u32, 0xffffff80u);
    memcpy(&u32, out + 4, 4); CHECK_EQ_U64(u32, 0x80);
    memcpy(&u64, out + 8, 8); CHECK_EQ_U64(u64, ~0ull);
    memcpy(&u32, out + 16, 4); CHECK_EQ_U64(u32, 0xfffffffeu);
    memcpy(&u64, out + 24, 8); CHECK_EQ_U64(u64, 0xfffe);
    memcpy(&u16, out + 32, 2); CHECK_EQ_U64(u16, 0xff80);
    memcpy(&u32, out + 36, 4); CHECK_EQ_U64(u32, 0x7f);
    memcpy(&u64, out + 40, 8); CHECK_EQ_U64(u64, 0xfffffffffffe1234ull);
    memcpy(&u64, out + 48, 8); CHECK_EQ_U64(u64, 0xfffe1234ull);
    memcpy(&u16, out + 56, 2); CHECK_EQ_U64(u16, 0x1234);
    CHECK_EQ_U64(out[58], 0x80);
    CHECK_EQ_U64(out[59], 7);
    memcpy(&u32, out + 60, 4); CHECK_EQ_U64(u32, 0xfffe1234u);
    harness_dealloc(&h, out);
    harness_free(&h);
}

/* A shared address is 32 bits: a register holding 0xfffffffc plus an offset of 4 is
 * address 0, as on the GPU (nvcc's unrolled loops over a shared array at offset 0 make
 * such addresses: [%r - 4] with the offset +4 added back). */
static const char *wrap_ptx =
    ".version 8.0\n.target sm_90\n.address_size 64\n"
    ".visible .entry wrap(.param .u64 out)\n{\n"
    "  .shared .align 4 .b8 sh[16];\n"
    "  .reg .b32 %r<4>;\n  .reg .b64 %rd<2>;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  mov.u32 %r1, sh;\n  add.s32 %r1, %r1, -4;\n"
    "  st.shared.u32 [%r1+4], 0x12345678;\n"
    "  st.shared.u8 [%r1+9], 0x5a;\n"
    "  ld.shared.u32 %r2, [sh];\n  ld.shared.u8 %r3, [sh+5];\n"
    "  st.global.u32 [%rd1], %r2;\n  st.global.u32 [%rd1+4], %r3;\n"
    "  ret;\n}\n";

static void test_shared_wrap(void) {
    harness h = {0};
    if (!harness_load(&h, wrap_ptx)) {
        fprintf(stderr, "load wrap: %s\n", h.err);
        harness_failures++;
        return;
    }
    uint32_t *out = harness_alloc(&h, 8);
    void *args[] = {&out};
    harness_run r = harness_launch(&h, "wrap", dim(1, 1, 1), dim(1, 1, 1), 0, args);
    CHECK_EQ_U64(r.kind, EXEC_OK);
    if (r.kind) fprintf(stderr, "wrap: %s\n", r.fault.msg);
    CHECK_EQ_U64(out[0], 0x12345678u);
    CHECK_EQ_U64(out[1], 0x5a);
    harness_dealloc(&h, out);
    harness_free(&h);
}

static void expect_load_error(const char *text, const char *part) {
    harness h = {0};
    CHECK(!harness_load(&h, text));
    if (!strstr(h.err, part)) {
        fprintf(stderr, "load error lacks \"%s\": %s\n", part, h.err);
        harness_failures++;
    }
    harness_free(&h);
}

static void test_load_errors(void) {
    expect_load_error(".version 8.0\n.target sm_90\n.address_size 64\n"
                      ".visible .entry k()\n{\n  .reg .b64 %rd<2>;\n"
                      "  tensormap.replace.tile.swizzle_atomicity.global.b1024.b32 [%rd1], 1;\n"
                      "  ret;\n}\n",
                      "test.ptx:7:3: error: tensormap.replace .swizzle_atomicity is not an sm_90 "
                      "field");
    /* an enumerated field's code is a constant in the PTX ISA's range (ptxas checks it) */
    expect_load_error(".version 8.0\n.target sm_90a\n.address_size 64\n"
                      ".visible .entry k()\n{\n  .reg .b64 %rd<2>;\n"
                      "  tensormap.replace.tile.elemtype.global.b1024.b32 [%rd1], 13;\n  ret;\n}\n",
                      "tensormap.replace .elemtype takes a constant from 0 to 12");
    expect_load_error(".version 8.0\n.target sm_90\n.address_size 64\n"
                      ".extern .func ext_fn(.param .b32 p);\n"
                      ".visible .entry k()\n{\n"
                      "  { .param .b32 param0;\n  st.param.b32 [param0], 1;\n"
                      "  call.uni ext_fn, (param0);\n  }\n  ret;\n}\n",
                      "test.ptx:9:3: error: unsupported callee 'ext_fn'");
    expect_load_error(".version 8.0\n.target sm_90\n.address_size 64\n"
                      ".visible .entry k(.param .u32 a)\n{\n"
                      "  st.param.u32 [a], 1;\n  ret;\n}\n",
                      "store to a kernel parameter");
    /* formatted surface accesses: the GPU's ptxas refuses suld.p on sm_90 */
    expect_load_error(".version 8.0\n.target sm_90\n.address_size 64\n"
                      ".visible .entry k(.param .u64 s)\n{\n  .reg .b32 %r<6>;\n"
                      "  .reg .b64 %rd<2>;\n  ld.param.u64 %rd1, [s];\n  mov.u32 %r1, 0;\n"
                      "  suld.p.2d.v4.b32.trap {%r2, %r3, %r4, %r5}, [%rd1, {%r1, %r1}];\n"
                      "  ret;\n}\n",
                      "suld.p (formatted surface load) is not a known instruction on sm_90");
    expect_load_error(".version 8.0\n.target sm_90\n.address_size 64\n"
                      ".visible .entry k(.param .u64 s)\n{\n  .reg .b32 %r<6>;\n"
                      "  .reg .b64 %rd<2>;\n  ld.param.u64 %rd1, [s];\n  mov.u32 %r1, 0;\n"
                      "  sust.p.2d.v4.b32.trap [%rd1, {%r1, %r1}], {%r1, %r1, %r1, %r1};\n"
                      "  ret;\n}\n",
                      "sust.p (formatted surface store) is not supported");
}

int main(void) {
    harness h = {0};
    if (harness_load_file(&h, "exec/memory.ptx")) {
        test_spaces(&h);
        test_vectors(&h);
        test_const_is_read_only(&h);
    } else {
        fprintf(stderr, "load: %s\n", h.err);
        harness_failures++;
    }
    harness_free(&h);
    test_narrow();
    test_shared_wrap();
    test_load_errors();
    return harness_report("test_exec_memory");
}
