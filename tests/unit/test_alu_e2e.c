/* tests/unit/test_alu_e2e.c — the ALU conformance cases end to end: the PTX that nvcc
 * made of tests/ptx/alu/alu_cases.cu (every case as inline PTX) is parsed, lowered and
 * run by the SIMT core on the inputs of alu_cases.txt, and every result is compared with
 * what an H100 returned for the same inputs (alu_cases.expected; see gen_cases.py for
 * how all three files were made).
 *
 * Results must match bit for bit, the f32, f16 and bf16 .approx instructions and div.full
 * included (vcuda's special function unit is the H100's, exec/alu_sfu.c), except for the
 * gross f64 approximations (rcp/rsqrt.approx.ftz.f64): there both results must be within
 * the ISA's error bound of each other, and special values must agree exactly.
 *
 *   test_alu_e2e [substring]   runs only the cases whose text contains substring, -v
 *                              lists every mismatch instead of the first few per case.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exec/alu_internal.h"
#include "exec/exec.h"
#include "mem/mem.h"
#include "ptx/ir.h"
#include "test_files.h"

typedef struct tcase {
    char kind;          /* 'S' scalar, 'W' warp */
    char *name;
    size_t first, n;    /* scalar: input vectors [first, first+n); warp: index of the case */
    uint32_t active;
} tcase;

static void dev_free(mem_table *mem, void *p) {
    mem_alloc a;
    mem_table_remove(mem, (uint64_t)(uintptr_t)p, &a);
    free(p);
}

static void *dev_alloc(mem_table *mem, size_t size) {
    size_t sz = (size + 255) & ~(size_t)255;
    void *p = aligned_alloc(256, sz ? sz : 256);
    if (!p) abort();
    memset(p, 0, sz ? sz : 256);
    if (!mem_table_add(mem, (uint64_t)(uintptr_t)p, size ? size : 1, MEM_KIND_DEVICE, 0)) abort();
    return p;
}

/* Run every block of kernel name over grid x block; false on a load/lookup failure or
 * a device fault. */
static bool run_kernel(exec_program *prog, mem_table *mem, exec_worker *w, const char *name,
                       uint32_t grid, uint32_t block, void **args) {
    const exec_kernel *k = exec_program_kernel(prog, name);
    if (!k) { fprintf(stderr, "no kernel %s\n", name); return false; }
    const exec_kernel_info *ki = exec_kernel_get_info(k);
    uint8_t *params = calloc(1, ki->param_size + 16);
    for (uint32_t i = 0; i < ki->nparams; i++)
        memcpy(params + ki->param_offsets[i], args[i], ki->param_sizes[i]);
    exec_launch L;
    memset(&L, 0, sizeof L);
    L.kernel = k;
    L.grid.x = grid; L.grid.y = L.grid.z = 1;
    L.block.x = block; L.block.y = L.block.z = 1;
    L.params = params;
    L.mem = mem;
    L.num_sms = 132;
    L.clock_khz = 1755000;
    L.grid_id = 1;
    exec_output out;
    memset(&out, 0, sizeof out);
    bool ok = true;
    for (uint32_t x = 0; x < grid && ok; x++) {
        exec_fault fault;
        exec_dim3 c = { x, 0, 0 };
        if (exec_run_block(w, &L, c, x % 132, &out, &fault) != EXEC_OK) {
            fprintf(stderr, "%s block %u: %s\n", name, x, fault.msg);
            ok = false;
        }
    }
    free(out.data);
    free(params);
    return ok;
}

/* ---- tolerance for approximations ---- */
typedef enum { TOL_EXACT, TOL_F64 } tol_kind;

typedef struct tolerance {
    tol_kind kind;
    double rel;           /* allowed |mine - gpu| <= rel * |gpu| */
} tolerance;

static tolerance case_tolerance(const char *name) {
    tolerance t = { TOL_EXACT, 0 };
    if (!strstr(name, ".approx.ftz.f64")) return t;
    t.kind = TOL_F64;
    t.rel = 0x1p-17;                     /* the gross f64 approximations */
    return t;
}

/* Do mine and gpu agree under tolerance t? NaN and infinite results must be equal bit for
 * bit; finite ones within the tolerance. */
static bool results_agree(const tolerance *t, uint64_t mine, uint64_t gpu) {
    if (mine == gpu) return true;
    if (t->kind == TOL_EXACT) return false;
    double m = alu_f64(mine), g = alu_f64(gpu);
    if (isnan(g) || isinf(g) || isnan(m) || isinf(m)) return false;
    double err = fabs(m - g);
    /* results near the subnormal range may differ by flushing */
    return err <= t->rel * fabs(g) || (fabs(g) < 0x1p-1020 && fabs(m) < 0x1p-1020);
}

int main(int argc, char **argv) {
    const char *filter = NULL;
    bool verbose = false;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-v")) verbose = true;
        else filter = argv[i];
    }
    char path[1024];
    snprintf(path, sizeof path, "%s/ptx/alu/alu_cases.ptx", VCUDA_TEST_DIR);
    size_t ptx_len;
    char *ptx = test_read_file(path, &ptx_len);
    snprintf(path, sizeof path, "%s/ptx/alu/alu_cases.txt", VCUDA_TEST_DIR);
    char *txt = test_read_file(path, NULL);
    snprintf(path, sizeof path, "%s/ptx/alu/alu_cases.expected", VCUDA_TEST_DIR);
    char *expf = test_read_file(path, NULL);
    if (!ptx || !txt || !expf) return 1;

    /* inputs */
    size_t ncases = 0, capc = 1024, ns = 0, caps = 1 << 16, nw = 0, capw = 1024;
    tcase *cases = malloc(capc * sizeof *cases);
    uint64_t *sin_ = malloc(caps * 4 * sizeof *sin_);
    uint64_t *win = malloc(capw * 66 * sizeof *win);
    int wl = 0;
    for (char *line = strtok(txt, "\n"); line; line = strtok(NULL, "\n")) {
        if (line[0] == '#') continue;
        if (line[0] == 'S' || line[0] == 'W') {
            if (ncases == capc) cases = realloc(cases, (capc *= 2) * sizeof *cases);
            tcase *c = &cases[ncases++];
            c->kind = line[0];
            long id = strtol(line + 2, NULL, 10);
            c->name = strchr(line + 2, ' ') + 1;
            c->first = c->kind == 'S' ? ns : nw;
            c->n = 0;
            c->active = 0;
            if (c->kind == 'W') {
                char *sp = strrchr(line, ' ');
                c->active = (uint32_t)strtoul(sp + 1, NULL, 16);
                *sp = 0;
                if (nw == capw) win = realloc(win, (capw *= 2) * 66 * sizeof *win);
                win[nw * 66] = (uint64_t)id;
                win[nw * 66 + 1] = c->active;
                nw++;
                wl = 0;
            }
            c->n = 0;
            (void)id;
            continue;
        }
        tcase *c = &cases[ncases - 1];
        if (c->kind == 'S') {
            unsigned long long a, b, cc;
            sscanf(line, "%llx %llx %llx", &a, &b, &cc);
            if (ns == caps) sin_ = realloc(sin_, (caps *= 2) * 4 * sizeof *sin_);
            sin_[ns * 4] = 0; /* the case id, filled in below */
            sin_[ns * 4 + 1] = a; sin_[ns * 4 + 2] = b; sin_[ns * 4 + 3] = cc;
            ns++;
            c->n++;
        } else {
            unsigned long long a, b;
            sscanf(line, "%llx %llx", &a, &b);
            win[(nw - 1) * 66 + 2 + wl] = a;
            win[(nw - 1) * 66 + 34 + wl] = b;
            wl++;
        }
    }
    /* case ids of the scalar inputs */
    size_t sid = 0;
    for (size_t i = 0; i < ncases; i++)
        if (cases[i].kind == 'S') {
            for (size_t k = 0; k < cases[i].n; k++) sin_[(cases[i].first + k) * 4] = sid;
            sid++;
        }
    /* expected results */
    size_t nexp = 0;
    uint64_t *exp = malloc((ns + nw * 32 + 1) * sizeof *exp);
    for (char *line = strtok(expf, "\n"); line; line = strtok(NULL, "\n")) {
        if (line[0] == '#') continue;
        if (nexp < ns + nw * 32) exp[nexp] = strtoull(line, NULL, 16);
        nexp++;
    }
    if (nexp != ns + nw * 32) {
        fprintf(stderr, "expected %zu results, the file has %zu\n", ns + nw * 32, nexp);
        return 1;
    }

    /* load and run */
    char err[1024];
    ptx_module *m = ptx_parse(ptx, ptx_len, "alu_cases.ptx", err, sizeof err);
    if (!m) { fprintf(stderr, "parse: %s\n", err); return 1; }
    mem_table *mem = mem_table_new();
    exec_program *prog = exec_program_load(m, mem, err, sizeof err);
    if (!prog) { fprintf(stderr, "load: %s\n", err); return 1; }
    exec_worker *worker = exec_worker_new();

    uint64_t *d_in = dev_alloc(mem, ns * 32), *d_out = dev_alloc(mem, ns * 8);
    memcpy(d_in, sin_, ns * 32);
    int n = (int)ns;
    void *args1[] = { &d_in, &d_out, &n };
    bool ok = run_kernel(prog, mem, worker, "_Z16alu_scalar_casesPKyPyi",
                         (uint32_t)((ns + 127) / 128), 128, args1);
    uint64_t *w_in = dev_alloc(mem, nw * 66 * 8), *w_out = dev_alloc(mem, nw * 32 * 8);
    memcpy(w_in, win, nw * 66 * 8);
    void *args2[] = { &w_in, &w_out };
    ok = run_kernel(prog, mem, worker, "_Z14alu_warp_casesPKyPy", (uint32_t)nw, 32, args2) && ok;
    if (!ok) return 1;

    /* compare */
    int bad_cases = 0, checked = 0;
    for (size_t i = 0; i < ncases; i++) {
        const tcase *c = &cases[i];
        if (filter && !strstr(c->name, filter)) continue;
        checked++;
        tolerance tol = case_tolerance(c->name);
        int shown = 0, bad = 0;
        size_t nv = c->kind == 'S' ? c->n : 32;
        for (size_t k = 0; k < nv; k++) {
            uint64_t mine, gpu, a, b, cc = 0;
            if (c->kind == 'S') {
                size_t j = c->first + k;
                mine = d_out[j]; gpu = exp[j];
                a = sin_[j * 4 + 1]; b = sin_[j * 4 + 2]; cc = sin_[j * 4 + 3];
            } else {
                size_t j = c->first * 32 + k;
                mine = w_out[j]; gpu = exp[ns + j];
                a = win[c->first * 66 + 2 + k]; b = win[c->first * 66 + 34 + k];
            }
            if (results_agree(&tol, mine, gpu)) continue;
            bad++;
            if (verbose || shown < 4) {
                fprintf(stderr, "  %s: %s %" PRIx64 " %" PRIx64 " %" PRIx64
                        " -> vcuda %" PRIx64 ", H100 %" PRIx64 "\n", c->name,
                        c->kind == 'W' ? "lane" : "in", c->kind == 'W' ? (uint64_t)k : a,
                        c->kind == 'W' ? a : b, c->kind == 'W' ? b : cc, mine, gpu);
                shown++;
            }
        }
        if (bad) {
            fprintf(stderr, "MISMATCH %s: %d of %zu\n", c->name, bad, nv);
            bad_cases++;
        }
    }
    printf("test_alu_e2e: %d cases checked, %d with mismatches\n", checked, bad_cases);
    dev_free(mem, d_in);
    dev_free(mem, d_out);
    dev_free(mem, w_in);
    dev_free(mem, w_out);
    exec_worker_free(worker);
    exec_program_free(prog, mem);
    mem_table_free(mem);
    free(cases);
    free(sin_);
    free(win);
    free(exp);
    free(ptx);
    free(txt);
    free(expf);
    return bad_cases != 0;
}
