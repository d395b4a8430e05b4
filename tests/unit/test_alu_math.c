/* tests/unit/test_alu_math.c — the CUDA math library end to end: the PTX nvcc made of
 * tests/ptx/alu/math_cases.cu (40 float and 30 double libdevice functions) runs through
 * vcuda on the inputs math_cases.cu generates, and the results are compared with what an
 * H100 returned (math_cases.expected). Every result must match bit for bit, those of
 * the functions that start from a hardware approximation (ex2/rcp/rsqrt/lg2 .approx:
 * expf, exp2f, rsqrtf, tanhf, rsqrt, ...) included: vcuda's .approx instructions are the
 * H100's special function unit (exec/alu_sfu.c).
 *   test_alu_math [-v]    -v lists every difference */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exec/exec.h"
#include "mem/mem.h"
#include "ptx/ir.h"
#include "test_files.h"

#define N 512
#define NF32 40
#define NF64 30

static const char *const names32[NF32] = {
    "sinf", "cosf", "tanf", "expf", "exp2f", "exp10f", "expm1f", "logf", "log2f", "log10f",
    "log1pf", "powf", "sqrtf", "rsqrtf", "cbrtf", "erff", "erfcf", "erfinvf", "lgammaf",
    "tgammaf", "atanf", "atan2f", "asinf", "acosf", "sinhf", "coshf", "tanhf", "asinhf",
    "acoshf", "atanhf", "hypotf", "fmodf", "remainderf", "roundf", "truncf", "fdiv",
    "sinpif", "normcdff", "j0f", "fmaf" };
static const char *const names64[NF64] = {
    "sin", "cos", "tan", "exp", "exp2", "expm1", "log", "log2", "log1p", "pow", "sqrt",
    "rsqrt", "cbrt", "erf", "erfc", "lgamma", "tgamma", "atan", "atan2", "asin", "sinh",
    "tanh", "asinh", "hypot", "fmod", "remainder", "ddiv", "sinpi", "erfinv", "fma" };

/* the inputs, exactly as math_cases.cu makes them */
static unsigned long long lcg(unsigned long long *s) {
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return *s >> 11;
}
static void inputs(float *f, double *d, int n) {
    unsigned long long s = 7;
    for (int i = 0; i < n; i++) {
        double u = (double)lcg(&s) / 9007199254740992.0;
        int e = (int)(lcg(&s) % 24) - 12;
        double v = (u * 2.0 - 1.0) * (double)(1 << (e + 12)) / 4096.0;
        f[i] = (float)v;
        d[i] = v * (1.0 + u * 1e-9);
    }
    f[0] = 0.0f; f[1] = -0.0f; f[2] = 1.0f; f[3] = -1.0f; f[4] = 0.5f; f[5] = 1e-40f;
    d[0] = 0.0; d[1] = -0.0; d[2] = 1.0; d[3] = -1.0; d[4] = 0.5; d[5] = 1e-310;
}

static char *read_file(const char *name, size_t *len) {
    char path[1024];
    snprintf(path, sizeof path, "%s/ptx/alu/%s", VCUDA_TEST_DIR, name);
    return test_read_file(path, len);
}

static void *dev_alloc(mem_table *mem, size_t size) {
    void *p = aligned_alloc(256, (size + 255) & ~(size_t)255);
    if (!p) abort();
    if (!mem_table_add(mem, (uint64_t)(uintptr_t)p, size, MEM_KIND_DEVICE, 0)) abort();
    return p;
}
static void dev_free(mem_table *mem, void *p) {
    mem_alloc a;
    mem_table_remove(mem, (uint64_t)(uintptr_t)p, &a);
    free(p);
}

static bool launch(exec_program *prog, mem_table *mem, exec_worker *w, const char *name,
                   void **args) {
    const exec_kernel *k = exec_program_kernel(prog, name);
    if (!k) { fprintf(stderr, "no kernel %s\n", name); return false; }
    const exec_kernel_info *ki = exec_kernel_get_info(k);
    uint8_t *params = calloc(1, ki->param_size + 16);
    for (uint32_t i = 0; i < ki->nparams; i++)
        memcpy(params + ki->param_offsets[i], args[i], ki->param_sizes[i]);
    exec_launch L;
    memset(&L, 0, sizeof L);
    L.kernel = k;
    L.grid.x = N / 128; L.grid.y = L.grid.z = 1;
    L.block.x = 128; L.block.y = L.block.z = 1;
    L.params = params;
    L.mem = mem;
    L.num_sms = 132;
    exec_output out;
    memset(&out, 0, sizeof out);
    bool ok = true;
    for (uint32_t x = 0; x < L.grid.x && ok; x++) {
        exec_fault f;
        exec_dim3 c = { x, 0, 0 };
        if (exec_run_block(w, &L, c, 0, &out, &f) != EXEC_OK) {
            fprintf(stderr, "%s: %s\n", name, f.msg);
            ok = false;
        }
    }
    free(out.data);
    free(params);
    return ok;
}

int main(int argc, char **argv) {
    const bool verbose = argc > 1 && !strcmp(argv[1], "-v");
    size_t len;
    char *ptx = read_file("math_cases.ptx", &len), *expf = read_file("math_cases.expected", NULL);
    if (!ptx || !expf) return 1;
    uint64_t *want = malloc((N * NF32 + N * NF64) * sizeof *want);
    size_t nexp = 0;
    for (char *line = strtok(expf, "\n"); line; line = strtok(NULL, "\n"))
        if (line[0] != '#' && nexp < (size_t)(N * NF32 + N * NF64))
            want[nexp++] = strtoull(line, NULL, 16);
    if (nexp != (size_t)(N * NF32 + N * NF64)) {
        fprintf(stderr, "math_cases.expected has %zu results\n", nexp);
        return 1;
    }

    char err[1024];
    ptx_module *m = ptx_parse(ptx, len, "math_cases.ptx", err, sizeof err);
    if (!m) { fprintf(stderr, "%s\n", err); return 1; }
    mem_table *mem = mem_table_new();
    exec_program *prog = exec_program_load(m, mem, err, sizeof err);
    if (!prog) { fprintf(stderr, "%s\n", err); return 1; }
    exec_worker *w = exec_worker_new();
    float *fin = dev_alloc(mem, N * 4);
    double *din = dev_alloc(mem, N * 8);
    uint32_t *o32 = dev_alloc(mem, N * NF32 * 4);
    uint64_t *o64 = dev_alloc(mem, N * NF64 * 8);
    inputs(fin, din, N);
    int n = N;
    void *a32[] = { &fin, &o32, &n }, *a64[] = { &din, &o64, &n };
    int bad_fns = 0;
    if (!launch(prog, mem, w, "math_f32", a32) || !launch(prog, mem, w, "math_f64", a64)) {
        bad_fns = 1;
    } else {
        for (int k = 0; k < NF32 + NF64; k++) {
            const bool f64 = k >= NF32;
            const int fn = f64 ? k - NF32 : k, nf = f64 ? NF64 : NF32;
            const char *name = f64 ? names64[fn] : names32[fn];
            int bad = 0;
            for (int i = 0; i < N; i++) {
                const uint64_t got = f64 ? o64[i * nf + fn] : o32[i * nf + fn];
                const uint64_t exp = want[(f64 ? N * NF32 : 0) + i * nf + fn];
                if (got == exp) continue;
                if (verbose || bad < 3) {
                    if (f64)
                        fprintf(stderr, "  %s(%a): vcuda %016" PRIx64 ", H100 %016" PRIx64 "\n",
                                names64[fn], din[i], got, exp);
                    else
                        fprintf(stderr, "  %s(%a): vcuda %08" PRIx64 ", H100 %08" PRIx64 "\n",
                                names32[fn], (double)fin[i], got, exp);
                }
                bad++;
            }
            if (bad) {
                fprintf(stderr, "MISMATCH %s: %d of %d\n", name, bad, N);
                bad_fns++;
            }
        }
    }
    printf("test_alu_math: %d functions, %d with mismatches\n", NF32 + NF64, bad_fns);
    dev_free(mem, fin); dev_free(mem, din); dev_free(mem, o32); dev_free(mem, o64);
    exec_worker_free(w);
    exec_program_free(prog, mem);
    mem_table_free(mem);
    free(want); free(ptx); free(expf);
    return bad_fns != 0;
}
