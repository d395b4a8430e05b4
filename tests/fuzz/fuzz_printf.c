/* tests/fuzz/fuzz_printf.c — fuzz target: device printf, its format and its argument buffer.
 *
 * The input is a format string (up to the first NUL byte) and the bytes of the argument
 * buffer nvcc would build (the rest). A one-thread kernel calls vprintf with both from
 * device memory; whatever they hold — bad conversions, '*' widths, %s of wild pointers,
 * too few arguments — must print something or fault cleanly, never crash the host. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exec/exec.h"
#include "mem/mem.h"
#include "ptx/ir.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char kernel_ptx[] =
    ".version 9.0\n.target sm_90\n.address_size 64\n"
    ".extern .func (.param .b32 func_retval0) vprintf (.param .b64 p0, .param .b64 p1);\n"
    ".visible .entry k(.param .u64 k_fmt, .param .u64 k_args)\n{\n"
    "  .reg .b32 %r<2>;\n  .reg .b64 %rd<3>;\n"
    "  ld.param.u64 %rd1, [k_fmt];\n  ld.param.u64 %rd2, [k_args];\n"
    "  {\n  .param .b64 param0;\n  st.param.b64 [param0+0], %rd1;\n"
    "  .param .b64 param1;\n  st.param.b64 [param1+0], %rd2;\n"
    "  .param .b32 retval0;\n  call.uni (retval0), vprintf, (param0, param1);\n"
    "  ld.param.b32 %r1, [retval0+0];\n  }\n  ret;\n}\n";

enum { ARGS_MAX = 512 };

typedef struct fuzz_state {
    mem_table *mem;
    exec_program *prog;
    const exec_kernel *k;
    exec_worker *worker;
} fuzz_state;

static fuzz_state *state(void) {
    static fuzz_state s;
    if (s.prog) return &s;
    char err[512];
    s.mem = mem_table_new();
    s.worker = exec_worker_new();
    ptx_module *m = ptx_parse(kernel_ptx, sizeof kernel_ptx - 1, "printf.ptx", err, sizeof err);
    if (m) s.prog = exec_program_load(m, s.mem, err, sizeof err);
    if (!s.prog) {
        fprintf(stderr, "fuzz_printf: the kernel does not load: %s\n", err);
        abort();
    }
    s.k = exec_program_kernel(s.prog, "k");
    return &s;
}

static void *device_copy(mem_table *mem, const void *src, size_t n) {
    size_t rounded = (n + 255) & ~(size_t)255;
    void *p = aligned_alloc(256, rounded ? rounded : 256);
    if (!p) abort();
    memset(p, 0, rounded ? rounded : 256);
    memcpy(p, src, n);
    if (!mem_table_add(mem, (uint64_t)(uintptr_t)p, n ? n : 1, MEM_KIND_DEVICE, 0)) abort();
    return p;
}

static void device_free(mem_table *mem, void *p) {
    mem_alloc a;
    mem_table_remove(mem, (uint64_t)(uintptr_t)p, &a);
    free(p);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fuzz_state *s = state();
    const uint8_t *nul = memchr(data, 0, size);
    size_t flen = nul ? (size_t)(nul - data) : size;
    size_t alen = nul ? size - flen - 1 : 0;
    if (alen > ARGS_MAX) alen = ARGS_MAX;

    char *fmt_host = malloc(flen + 1);
    if (!fmt_host) return 0;
    memcpy(fmt_host, data, flen);
    fmt_host[flen] = 0;
    void *fmt = device_copy(s->mem, fmt_host, flen + 1);
    void *args = device_copy(s->mem, nul ? nul + 1 : data, alen);
    free(fmt_host);

    uint8_t params[16];
    uint64_t f = (uint64_t)(uintptr_t)fmt, a = (uint64_t)(uintptr_t)args;
    memcpy(params, &f, 8);
    memcpy(params + 8, &a, 8);
    exec_launch L;
    memset(&L, 0, sizeof L);
    L.kernel = s->k;
    L.grid = (exec_dim3){1, 1, 1};
    L.block = (exec_dim3){1, 1, 1};
    L.params = params;
    L.mem = s->mem;
    L.num_sms = 132;
    L.clock_khz = 1755000;
    L.grid_id = 1;
    exec_output out = {0};
    exec_fault fault;
    memset(&fault, 0, sizeof fault);
    exec_fault_kind kind = exec_run_block(s->worker, &L, (exec_dim3){0, 0, 0}, 0, &out, &fault);
    /* FUZZ_VERBOSE=1 shows what each input printed (or how it faulted). */
    if (getenv("FUZZ_VERBOSE")) {
        fwrite(out.data ? out.data : "", 1, out.len, stdout);
        if (kind != EXEC_OK) printf("[fault] %s\n", fault.msg);
    }
    free(out.data);
    free(out.err);
    device_free(s->mem, fmt);
    device_free(s->mem, args);
    return 0;
}
