/* tests/unit/test_exec_mma_layout.c — wmma fragment geometry (exec/mma_layout.c) against
 * the layouts a GPU showed: tests/data/h100/wmma_layouts.txt lists, for every wmma shape,
 * matrix, element type and memory layout, the (row, col) each element of each lane's
 * fragment held. Also checks mma.sync's geometry against the PTX ISA's formulas for
 * m16n8k16 (f16), m16n8k8 (tf32) and m16n8k32 (s8). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exec/mma_internal.h"

static int failures;

#define CHECK(c) do { if (!(c)) { fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #c); failures++; } } while (0)

static int fmt_of(const char *s) {
    if (!strcmp(s, "f16")) return EXEC_MMA_F16;
    if (!strcmp(s, "bf16")) return EXEC_MMA_BF16;
    if (!strcmp(s, "tf32")) return EXEC_MMA_TF32;
    if (!strcmp(s, "f32") || !strcmp(s, "tf32f32")) return EXEC_MMA_F32;
    if (!strcmp(s, "f64")) return EXEC_MMA_F64;
    if (!strcmp(s, "u8")) return EXEC_MMA_U8;
    if (!strcmp(s, "s8")) return EXEC_MMA_S8;
    if (!strcmp(s, "s32")) return EXEC_MMA_S32;
    return EXEC_MMA_NONE;
}

/* Elements a lane's fragment has (wmma's f16 A and B repeat theirs to fill 8 registers). */
static unsigned frag_elems(unsigned M, unsigned N, unsigned K, int which, int fmt) {
    if (fmt == EXEC_MMA_F16 && which != EXEC_MMA_C) return 16;
    return exec_mma_frag_unique(M, N, K, which);
}

static void check_file(void) {
    char path[600];
    snprintf(path, sizeof path, "%s/data/h100/wmma_layouts.txt", VCUDA_TEST_DIR);
    FILE *f = fopen(path, "r");
    if (!f) { fprintf(stderr, "cannot read %s\n", path); failures++; return; }
    char line[4096];
    unsigned fragments = 0;
    while (fgets(line, sizeof line, f)) {
        char mat, ty[16], lay[8];
        unsigned M, N, K, ne;
        if (sscanf(line, "%c m%un%uk%u %15s %7s ne=%u", &mat, &M, &N, &K, ty, lay, &ne) != 7) continue;
        int which = mat == 'a' ? EXEC_MMA_A : mat == 'b' ? EXEC_MMA_B : EXEC_MMA_C;
        int fmt = fmt_of(ty);
        CHECK(fmt != EXEC_MMA_NONE);
        unsigned bits = exec_mma_fmt_bits(fmt), total = frag_elems(M, N, K, which, fmt);
        /* the lines list the warp's elements in order, ne per line (see the file's header) */
        unsigned k = 0, bad = 0;
        for (unsigned l = 0; l < 32; l++) {
            if (!fgets(line, sizeof line, f)) { failures++; return; }
            char *p = strchr(line, ':');
            for (unsigned i = 0; p && i < ne; i++, k++) {
                unsigned r, c, mr = 99, mc = 99;
                if (sscanf(p + 1, " %u,%u", &r, &c) != 2) { failures++; break; }
                p = strchr(p + 2, ' ');
                unsigned lane = k / total, e = k % total;
                if (!exec_mma_frag_rc(true, M, N, K, which, bits, lane, e, &mr, &mc) || mr != r ||
                    mc != c) {
                    if (bad++ < 3)
                        fprintf(stderr, "%c m%un%uk%u %s %s lane %u element %u: (%u,%u), GPU (%u,%u)\n",
                                mat, M, N, K, ty, lay, lane, e, mr, mc, r, c);
                }
            }
        }
        failures += bad != 0;
        fragments++;
    }
    fclose(f);
    printf("%u wmma fragments checked\n", fragments);
    CHECK(fragments >= 70);
}

/* mma.sync: the PTX ISA's formulas (groupID g, threadID_in_group t). */
static void check_mma(void) {
    for (unsigned lane = 0; lane < 32; lane++) {
        unsigned g = lane >> 2, t = lane & 3, r, c;
        for (unsigned i = 0; i < 8; i++) { /* m16n8k16 f16 A */
            CHECK(exec_mma_frag_rc(false, 16, 8, 16, EXEC_MMA_A, 16, lane, i, &r, &c));
            CHECK(r == ((i < 2 || (i >= 4 && i < 6)) ? g : g + 8));
            CHECK(c == t * 2 + (i & 1) + (i >= 4 ? 8 : 0));
        }
        for (unsigned i = 0; i < 4; i++) { /* m16n8k16 f16 B, C */
            CHECK(exec_mma_frag_rc(false, 16, 8, 16, EXEC_MMA_B, 16, lane, i, &r, &c));
            CHECK(r == t * 2 + (i & 1) + (i >= 2 ? 8 : 0) && c == g);
            CHECK(exec_mma_frag_rc(false, 16, 8, 16, EXEC_MMA_C, 32, lane, i, &r, &c));
            CHECK(r == (i < 2 ? g : g + 8) && c == t * 2 + (i & 1));
        }
        for (unsigned i = 0; i < 4; i++) { /* m16n8k8 tf32 A */
            CHECK(exec_mma_frag_rc(false, 16, 8, 8, EXEC_MMA_A, 32, lane, i, &r, &c));
            CHECK(r == ((i == 0 || i == 2) ? g : g + 8) && c == (i < 2 ? t : t + 4));
        }
        for (unsigned i = 0; i < 16; i++) { /* m16n8k32 s8 A */
            CHECK(exec_mma_frag_rc(false, 16, 8, 32, EXEC_MMA_A, 8, lane, i, &r, &c));
            CHECK(r == ((i < 4 || (i >= 8 && i < 12)) ? g : g + 8));
            CHECK(c == t * 4 + (i & 3) + (i >= 8 ? 16 : 0));
        }
        for (unsigned i = 0; i < 8; i++) { /* m16n8k32 s8 B */
            CHECK(exec_mma_frag_rc(false, 16, 8, 32, EXEC_MMA_B, 8, lane, i, &r, &c));
            CHECK(r == t * 4 + (i & 3) + (i >= 4 ? 16 : 0) && c == g);
        }
    }
}

int main(void) {
    check_file();
    check_mma();
    return failures ? 1 : 0;
}
