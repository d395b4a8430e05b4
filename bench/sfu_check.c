/* bench/sfu_check.c — compares vcuda's special-function-unit emulation (exec/alu_sfu.c)
 * with what an H200 computed, input by input, and prints the match rate per function.
 *
 * Usage: sfu_check CAPTURE_DIR [PROBE3_DIR] [--sums]
 * CAPTURE_DIR holds the exhaustive tables sfu_a..d.i8 that probe.cu writes (per input,
 * the GPU's result minus the correctly rounded one, as int8, saturated at +-127);
 * PROBE3_DIR what probe3.cu writes (raw results on a sample of every exponent, div, the
 * 16-bit forms, dense sin, strided tanh). --sums prints the FNV-1a hashes of the GPU's
 * results that tests/unit/test_sfu.c compares with the model's: per exhaustive range every
 * SFU_STRIDE-th input (where the GPU's delta saturated, which hides its result, the
 * model's result, once this tool has checked that its delta saturates the same way), and
 * per probe3 set all of it. The tables are too big for the repository; the probes that
 * make them are under tests/sfu/. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../exec/alu_sfu.h"
#include "../tests/sfu/probe_functions.h"

static float fb(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static uint32_t bf(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }

static void *slurp(const char *dir, const char *name, size_t *n) {
    char p[4096];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    FILE *f = fopen(p, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    void *b = malloc((size_t)len);
    if (!b || fread(b, 1, (size_t)len, f) != (size_t)len) { fprintf(stderr, "%s: read error\n", p); exit(1); }
    fclose(f);
    *n = (size_t)len;
    return b;
}

/* correctly rounded references, as probe.cu computed them (in double, then to float) */
static double ref(int fn, float x) {
    switch (fn) {
    case 0: return 1.0 / x;
    case 1: return 1.0 / sqrt((double)x);
    case 2: return exp2((double)x);
    case 3: return log2((double)x);
    case 4: return sin((double)x);
    case 5: return cos((double)x);
    case 6: return sqrt((double)x);
    default: return tanh((double)x);
    }
}
static const char *fname[] = {"rcp.approx.ftz", "rsqrt.approx.ftz", "ex2.approx.ftz", "lg2.approx.ftz",
                              "sin.approx.ftz", "cos.approx.ftz", "sqrt.approx.ftz", "tanh.approx"};

/* one exhaustive range of probe.cu: fn, first input, count, file, offset */
struct range { int fn; uint32_t first, n; const char *file; size_t off; };
static const struct range ranges[] = {
    {0, 0x3f800000u, 1u << 23, "sfu_a.i8", 0},
    {1, 0x3f800000u, 1u << 24, "sfu_a.i8", 1u << 23},
    {2, 0x3f800000u, 1u << 23, "sfu_b.i8", 0},
    {2, 0xbf800000u, 1u << 23, "sfu_b.i8", 1u << 23},
    {3, 0x3f800000u, 1u << 23, "sfu_b.i8", 2u << 23},
    {4, 0x3f800000u, 1u << 23, "sfu_c.i8", 0},
    {5, 0x3f800000u, 1u << 23, "sfu_c.i8", 1u << 23},
    {6, 0x3f800000u, 1u << 24, "sfu_d.i8", 0},
    {7, 0x3e800000u, 1u << 23, "sfu_d.i8", 1u << 24},
};

#define SFU_STRIDE 13
static uint64_t fnv(uint64_t h, uint32_t v) {
    for (int i = 0; i < 4; i++) { h ^= (v >> (8 * i)) & 0xffu; h *= 0x100000001b3ull; }
    return h;
}

/* the PTX instruction k of probe3.cu's sample kernel */
static uint32_t sample_model(int k, uint32_t x) {
    switch (k) {
    case 0: case 1: return alu_sfu_ptx_rcp(x, k == 0);
    case 2: case 3: return alu_sfu_ptx_rsqrt(x, k == 2);
    case 4: case 5: return alu_sfu_ptx_sqrt(x, k == 4);
    case 6: case 7: return alu_sfu_ptx_ex2(x, k == 6);
    case 8: case 9: return alu_sfu_ptx_lg2(x, k == 8);
    case 10: case 11: return alu_sfu_ptx_sin(x, false);
    case 12: case 13: return alu_sfu_ptx_sin(x, true);
    default: return alu_sfu_tanh(x);
    }
}
static const char *sname[] = {"rcp.approx.ftz", "rcp.approx", "rsqrt.approx.ftz", "rsqrt.approx",
    "sqrt.approx.ftz", "sqrt.approx", "ex2.approx.ftz", "ex2.approx", "lg2.approx.ftz", "lg2.approx",
    "sin.approx.ftz", "sin.approx", "cos.approx.ftz", "cos.approx", "tanh.approx"};

static int check_probe3(const char *dir, bool sums) {
    size_t n;
    int bad = 0, verbose = getenv("SFU_VERBOSE") ? atoi(getenv("SFU_VERBOSE")) : 0;
    uint32_t *s = slurp(dir, "sample.bin", &n);
    if (!s) { fprintf(stderr, "no sample.bin in %s\n", dir); return 1; }
    const uint32_t ns = (uint32_t)(n / 4 / 16);
    for (int k = 0; k < 15; k++) {
        uint32_t ok = 0, shown = 0;
        for (uint32_t i = 0; i < ns; i++) {
            uint32_t x = s[i], g = s[(size_t)(k + 1) * ns + i], m = sample_model(k, x);
            if (m == g) ok++;
            else if (shown++ < (uint32_t)verbose) printf("  %s(%08x = %g): gpu %08x (%g) model %08x (%g)\n", sname[k], x, fb(x), g, fb(g), m, fb(m));
        }
        printf("%-18s sample of every exponent: %u/%u exact (%.4f%%)\n", sname[k], ok, ns, 100.0 * ok / ns);
        if (sums) {
            uint64_t h = 0xcbf29ce484222325ull;
            for (uint32_t i = 0; i < ns; i++) h = fnv(h, s[(size_t)(k + 1) * ns + i]);
            printf("    sample %d: 0x%016llxull\n", k, (unsigned long long)h);
        }
        bad += ok != ns;
    }
    free(s);
    uint32_t *dv = slurp(dir, "div.bin", &n);
    if (dv) {
        const uint32_t nd = (uint32_t)(n / 4 / 6);
        static const char *dn[] = {"div.approx", "div.approx.ftz", "div.full", "div.full.ftz"};
        for (int k = 0; k < 4; k++) {
            uint32_t ok = 0, shown = 0;
            for (uint32_t i = 0; i < nd; i++) {
                uint32_t a = dv[i], b = dv[nd + i], g = dv[(size_t)(k + 2) * nd + i];
                uint32_t m = alu_sfu_ptx_div(a, b, k >= 2, k & 1);
                if (m == g) ok++;
                else if (shown++ < (uint32_t)verbose) printf("  %s(%08x, %08x): gpu %08x model %08x\n", dn[k], a, b, g, m);
            }
            printf("%-18s sample: %u/%u exact (%.4f%%)\n", dn[k], ok, nd, 100.0 * ok / nd);
            if (sums) {
                uint64_t h = 0xcbf29ce484222325ull;
                for (uint32_t i = 0; i < nd; i++) h = fnv(h, dv[(size_t)(k + 2) * nd + i]);
                printf("    div %d: 0x%016llxull\n", k, (unsigned long long)h);
            }
            bad += ok != nd;
        }
        free(dv);
    }
    uint16_t *hf = slurp(dir, "half.bin", &n);
    if (hf) {
        /* ex2.f16, tanh.f16, ex2.ftz.bf16, tanh.bf16; then the x2 forms, whose halves must
         * equal the scalar results (the high half's input is the low one's ^ 0x8001) */
        uint32_t same = 0;
        for (uint32_t i = 0; i < 65536; i++)
            for (int k = 0; k < 4; k++)
                same += (hf[(4 + 2 * k) * 65536 + i] == hf[k * 65536 + i]) +
                        (hf[(5 + 2 * k) * 65536 + i] == hf[k * 65536 + (i ^ 0x8001u)]);
        printf("%-18s x2 halves equal to the scalar forms: %u/%u\n", "f16/bf16 x2", same, 8u * 65536);
        bad += same != 8u * 65536;
        if (sums)
            for (int k = 0; k < 4; k++) {
                uint64_t h = 0xcbf29ce484222325ull;
                for (uint32_t i = 0; i < 65536; i++) h = fnv(h, hf[k * 65536 + i]);
                printf("    half %d: 0x%016llxull\n", k, (unsigned long long)h);
            }
        free(hf);
    }
    int8_t *sd = slurp(dir, "sin_dense.i8", &n);
    if (sd) {
        uint32_t ok = 0, sat = 0;
        for (uint32_t i = 0; i < n; i++) {
            uint32_t x = 0x3e800000u + i;
            if (sd[i] == 127 || sd[i] == -127) { sat++; continue; }
            ok += alu_sfu_ptx_sin(x, false) == bf((float)sin((double)fb(x))) + (uint32_t)(int32_t)sd[i];
        }
        if (sums) {
            uint64_t h = 0xcbf29ce484222325ull;
            for (uint32_t i = 0; i < n; i += SFU_STRIDE) {
                uint32_t x = 0x3e800000u + i, m = alu_sfu_ptx_sin(x, false);
                bool s_ = sd[i] == 127 || sd[i] == -127;
                h = fnv(h, s_ ? m : bf((float)sin((double)fb(x))) + (uint32_t)(int32_t)sd[i]);
            }
            printf("    sin dense: 0x%016llxull\n", (unsigned long long)h);
        }
        printf("%-18s from 3e800000 n %zu: %u/%zu exact\n", "sin.approx.ftz", n, ok, n - sat);
        bad += ok != n - sat;
        free(sd);
    }
    uint32_t *th = slurp(dir, "tanh_s.bin", &n);
    if (th) {
        uint32_t ok = 0, nt = (uint32_t)(n / 4);
        for (uint32_t i = 0; i < nt; i++) ok += alu_sfu_tanh((0x73u << 23) + i * 64u) == th[i];
        printf("%-18s every 64th input of [2^-12, 32): %u/%u exact (%.4f%%)\n", "tanh.approx", ok, nt, 100.0 * ok / nt);
        if (sums) {
            uint64_t h = 0xcbf29ce484222325ull;
            for (uint32_t i = 0; i < nt; i++) h = fnv(h, th[i]);
            printf("    tanh strided: 0x%016llxull\n", (unsigned long long)h);
        }
        bad += ok != nt;
        free(th);
    }
    return bad;
}

int main(int argc, char **argv) {
    if (argc < 2) { fprintf(stderr, "usage: %s CAPTURE_DIR [PROBE3_DIR] [--sums]\n", argv[0]); return 2; }
    bool sums = argc > 2 && !strcmp(argv[argc - 1], "--sums");
    int bad_total = 0;
    for (size_t r = 0; r < sizeof ranges / sizeof ranges[0]; r++) {
        const struct range *g = &ranges[r];
        size_t n;
        int8_t *d = slurp(argv[1], g->file, &n);
        if (!d) { fprintf(stderr, "no %s in %s\n", g->file, argv[1]); return 2; }
        uint64_t ok = 0, sat = 0, satok = 0, hg = 0xcbf29ce484222325ull;
        for (uint32_t i = 0; i < g->n; i++) {
            uint32_t x = g->first + i, m = sfu_probe_model(g->fn, x);
            int dd = d[g->off + i];
            uint32_t c = bf((float)ref(g->fn, fb(x)));
            int dm = (int)m - (int)c;
            if (dm > 127) dm = 127;
            if (dm < -127) dm = -127;
            bool s_ = dd == 127 || dd == -127;
            if (i % SFU_STRIDE == 0) hg = fnv(hg, s_ && dm == dd ? m : c + (uint32_t)(int32_t)dd);
            if (s_) { sat++; satok += dm == dd; continue; }
            ok += dm == dd;
        }
        uint64_t cnt = g->n - sat;
        printf("%-18s from %08x n %u: %llu/%llu exact (%.6f%%), saturated deltas %llu (model agrees on %llu)\n",
               fname[g->fn], g->first, g->n, (unsigned long long)ok, (unsigned long long)cnt,
               100.0 * (double)ok / (double)cnt, (unsigned long long)sat, (unsigned long long)satok);
        if (sums) printf("    {%d, 0x%08xu, %uu, 0x%016llxull},\n", g->fn, g->first, g->n, (unsigned long long)hg);
        bad_total += ok != cnt;
        free(d);
    }
    if (argc > 2 && strcmp(argv[2], "--sums")) bad_total += check_probe3(argv[2], sums);
    return bad_total ? 1 : 0;
}
