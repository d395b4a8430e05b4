/* tests/unit/test_exec_mma_numerics.c — the tensor cores' arithmetic (exec/mma_numerics.c)
 * against what the GPU computed: tests/data/h100/mma_numerics.txt holds random and crafted
 * wmma products (GEMM sections: f16 and bf16 with f32 accumulators, f16 with f16, tf32,
 * f64) and mma.sync products (MMA sections: the shapes and types wmma lacks) with their
 * inputs and results as bit patterns, and wgmma's fp8 products (MMA sections e4m3/e5m2,
 * K = 32); every result must match bit for bit. tests/data/h100/mma_fp8_sync.txt holds
 * fp8 mma.sync products (SYNC sections), checked against exec_mma_matmul_fp8. A path given
 * as the first argument reads another file of the same format (the full capture). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exec/mma_internal.h"

static int failures;

static int fmt_of(const char *s) {
    if (!strcmp(s, "f16")) return EXEC_MMA_F16;
    if (!strcmp(s, "bf16")) return EXEC_MMA_BF16;
    if (!strcmp(s, "tf32")) return EXEC_MMA_TF32;
    if (!strcmp(s, "f32")) return EXEC_MMA_F32;
    if (!strcmp(s, "f64")) return EXEC_MMA_F64;
    if (!strcmp(s, "s32")) return EXEC_MMA_S32;
    if (!strcmp(s, "e4m3")) return EXEC_MMA_E4M3;
    if (!strcmp(s, "e5m2")) return EXEC_MMA_E5M2;
    return EXEC_MMA_NONE;
}

/* Read a line "<tag> hex hex ..." of n values into v. */
static int read_row(FILE *f, const char *tag, unsigned long long *v, unsigned n) {
    char t[8];
    if (fscanf(f, "%7s", t) != 1 || strcmp(t, tag)) return 0;
    for (unsigned i = 0; i < n; i++)
        if (fscanf(f, "%llx", &v[i]) != 1) return 0;
    return 1;
}

/* Check every section of the file at path; returns the number of sections read, or -1
 * for a file that cannot be read or parsed. */
static int check_file(const char *path) {
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "cannot read %s\n", path);
        return -1;
    }
    char line[512];
    unsigned sections = 0, checked = 0;
    static unsigned long long A[1024], B[1024], C[1024], D[1024];
    while (fgets(line, sizeof line, f)) {
        char name[32];
        unsigned M, N, K, cases;
        bool wmma = true, sync_fp8 = false;
        if (sscanf(line, "GEMM %31s m%un%uk%u cases %u", name, &M, &N, &K, &cases) != 5) {
            if (sscanf(line, "MMA %31s m%un%uk%u cases %u", name, &M, &N, &K, &cases) == 5)
                wmma = false;
            else if (sscanf(line, "SYNC %31s m%un%uk%u cases %u", name, &M, &N, &K, &cases) == 5)
                wmma = false, sync_fp8 = true;
            else
                continue;
        }
        char *dot = strchr(name, '.');
        if (!dot || M * K > 1024 || K * N > 1024 || M * N > 1024) return -1;
        *dot = 0;
        int in = fmt_of(name), in_b = in, acc = fmt_of(dot + 1);
        if (!strcmp(name, "s8u8")) { in = EXEC_MMA_S8; in_b = EXEC_MMA_U8; }
        if (!strcmp(name, "e4m3e5m2")) { in = EXEC_MMA_E4M3; in_b = EXEC_MMA_E5M2; }
        if (!strcmp(name, "e5m2e4m3")) { in = EXEC_MMA_E5M2; in_b = EXEC_MMA_E4M3; }
        /* wmma's m16n16k8 tf32 adds its products four at a time; mma.sync all K at once */
        unsigned block = wmma && in == EXEC_MMA_TF32 ? 4 : 0;
        sections++;
        unsigned bad = 0, total = 0;
        for (unsigned c = 0; c < cases; c++) {
            int cn, mode;
            if (fscanf(f, " case %d mode %d", &cn, &mode) != 2 || !read_row(f, "A", A, M * K) ||
                !read_row(f, "B", B, K * N) || !read_row(f, "C", C, M * N) ||
                !read_row(f, "D", D, M * N)) {
                fprintf(stderr, "%s: malformed case %u of %s\n", path, c, name);
                return -1;
            }
            for (unsigned i = 0; i < M; i++)
                for (unsigned j = 0; j < N; j++) {
                    unsigned long long got;
                    /* A is row-major (M x K), B column-major (K x N): row i and column j
                     * are contiguous */
                    if (in == EXEC_MMA_F64) {
                        uint64_t a[64], b[64];
                        for (unsigned k = 0; k < K; k++) { a[k] = A[i * K + k]; b[k] = B[j * K + k]; }
                        got = exec_mma_dot_f64(a, b, K, C[i * N + j]);
                    } else {
                        uint32_t a[64], b[64];
                        for (unsigned k = 0; k < K; k++) {
                            a[k] = (uint32_t)A[i * K + k];
                            b[k] = (uint32_t)B[j * K + k];
                        }
                        uint64_t c1 = C[i * N + j], d1;
                        if (sync_fp8) /* one row of A by one column of B */
                            exec_mma_matmul_fp8(a, b, &c1, &d1, 1, 1, K, in, in_b, acc);
                        else
                            d1 = exec_mma_dot(a, b, K, block, in, in_b, c1, acc, acc, false);
                        got = d1;
                    }
                    total++;
                    if (got != D[i * N + j]) {
                        if (bad < 5)
                            fprintf(stderr, "%s.%s case %u (mode %d) d[%u][%u]: got %llx, GPU %llx\n",
                                    name, dot + 1, c, mode, i, j, got, D[i * N + j]);
                        bad++;
                    }
                }
        }
        printf("%s.%s m%un%uk%u: %u of %u results differ\n", name, dot + 1, M, N, K, bad, total);
        failures += bad != 0;
        checked += total;
    }
    fclose(f);
    if (checked == 0) {
        fprintf(stderr, "%s: no results\n", path);
        return -1;
    }
    return (int)sections;
}

int main(int argc, char **argv) {
    char path[600];
    if (argc > 1) return check_file(argv[1]) > 0 && !failures ? 0 : 1;
    snprintf(path, sizeof path, "%s/data/h100/mma_numerics.txt", VCUDA_TEST_DIR);
    int n = check_file(path);
    if (n < 19) {
        fprintf(stderr, "%s: expected 19 sections of results\n", path);
        failures++;
    }
    snprintf(path, sizeof path, "%s/data/h100/mma_fp8_sync.txt", VCUDA_TEST_DIR);
    n = check_file(path);
    if (n < 2) {
        fprintf(stderr, "%s: expected 2 sections of results\n", path);
        failures++;
    }
    return failures ? 1 : 0;
}
