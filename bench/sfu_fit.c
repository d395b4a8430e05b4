/* bench/sfu_fit.c — derives the special function unit's interpolation tables
 * (exec/alu_sfu_tab.c) from an H200's exhaustive tables, and prints them in that file's
 * form.
 *
 * Usage: sfu_fit CAPTURE_DIR PROBE3_DIR > alu_sfu_tab.rows
 * (CAPTURE_DIR: what tests/sfu/probe_tables.cu writes; PROBE3_DIR: tests/sfu/probe3.cu.)
 *
 * Per interval, each measured result y bounds the unit's fixed-point sum S = A + C1 x +
 * C2 sq(x) (sq: the truncated squarer of exec/alu_sfu.c) to [lo, hi): the values that
 * truncate to y. A least-squares fit of the midpoints gives C1 and C2 to within a few
 * units; around it the search takes the (C1, C2) that leaves the widest range of A
 * satisfying every bound, and A the lowest of that range. An interval with no such A is
 * reported: the datapath model is then wrong. Every table row is exact for every input
 * the GPU was given (bench/sfu_check confirms, tests/unit/test_sfu.c keeps it so). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>

static float fb(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static uint32_t bf(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static uint32_t sq17(uint32_t x) {
    uint32_t r = 0;
    for (int i = 0; i < 17; i++)
        if (x & (1u << i)) r += x >> (18 - i);
    return r >> 1;
}
static void *slurp(const char *dir, const char *name, size_t off, size_t n) {
    char p[4096];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    FILE *f = fopen(p, "rb");
    void *b = malloc(n);
    if (!f || !b || fseek(f, (long)off, SEEK_SET) || fread(b, 1, n, f) != n) {
        fprintf(stderr, "cannot read %zu bytes of %s\n", n, p);
        exit(1);
    }
    fclose(f);
    return b;
}

typedef struct { int64_t x, s, lo, hi; } bound;
static bound *pts[256];
static int npts[256], cap[256];
static void add(int idx, int64_t x, int64_t s, int64_t lo, int64_t hi) {
    if (npts[idx] == cap[idx]) {
        cap[idx] = cap[idx] ? 2 * cap[idx] : 4096;
        pts[idx] = realloc(pts[idx], sizeof(bound) * (size_t)cap[idx]);
    }
    pts[idx][npts[idx]++] = (bound){x, s, lo, hi};
}
static void reset(void) {
    for (int i = 0; i < 256; i++) { free(pts[i]); pts[i] = NULL; npts[i] = cap[i] = 0; }
}

/* Width of the feasible range of A for (c1, c2), its lowest value in *a. */
static int64_t width(int idx, int64_t c1, int64_t c2, int c2s, int64_t *a) {
    int64_t mx = INT64_MIN, mn = INT64_MAX;
    for (int i = 0; i < npts[idx]; i++) {
        const bound *p = &pts[idx][i];
        int64_t v = c1 * p->x + c2 * p->s * ((int64_t)1 << c2s);
        if (p->lo - v > mx) mx = p->lo - v;
        if (p->hi - v < mn) mn = p->hi - v;
    }
    *a = mx;
    return mn - mx;
}

static int bad_intervals;
/* Fit intervals [0, n) and print them as rows of table name. */
static void fit(const char *name, int n, int c2s, int r1, int r2) {
    printf("const alu_sfu_coef %s[%d] = {\n", name, n);
    for (int idx = 0; idx < n; idx++) {
        double m[3][4] = {{0}};
        for (int i = 0; i < npts[idx]; i++) {
            const bound *p = &pts[idx][i];
            double ph[3] = {1, (double)p->x, (double)(p->s << c2s)}, y = (p->lo + p->hi) / 2.0;
            for (int a = 0; a < 3; a++) {
                for (int b = 0; b < 3; b++) m[a][b] += ph[a] * ph[b];
                m[a][3] += ph[a] * y;
            }
        }
        for (int a = 0; a < 3; a++) {   /* Gauss-Jordan with partial pivoting */
            int pv = a;
            for (int r = a + 1; r < 3; r++) if (fabs(m[r][a]) > fabs(m[pv][a])) pv = r;
            for (int k = 0; k < 4; k++) { double t = m[a][k]; m[a][k] = m[pv][k]; m[pv][k] = t; }
            for (int r = 0; r < 3; r++)
                if (r != a) {
                    double q = m[r][a] / m[a][a];
                    for (int k = 0; k < 4; k++) m[r][k] -= q * m[a][k];
                }
        }
        int64_t c1 = llround(m[1][3] / m[1][1]), c2 = llround(m[2][3] / m[2][2]);
        int64_t bw = INT64_MIN, b1 = 0, b2 = 0, ba = 0;
        for (int64_t C1 = c1 - r1; C1 <= c1 + r1; C1++)
            for (int64_t C2 = c2 - r2; C2 <= c2 + r2; C2++) {
                int64_t a, w = width(idx, C1, C2, c2s, &a);
                if (w > bw) { bw = w; b1 = C1; b2 = C2; ba = a; }
            }
        if (bw <= 0) {
            fprintf(stderr, "%s interval %d: no exact coefficients (best width %lld)\n", name, idx, (long long)bw);
            bad_intervals++;
        }
        printf("    {%lldll, %lld, %lld},\n", (long long)ba, (long long)b1, (long long)b2);
    }
    printf("};\n");
}

/* y's bounds on a fixed-point value with fb fraction bits that the unit truncated to y */
static void trunc_bounds(uint32_t yb, int fbits, int64_t *lo, int64_t *hi) {
    double y = fabs((double)fb(yb)), ulp = ldexp(1, (int)((yb >> 23) & 0xff) - 127 - 23);
    *lo = (int64_t)ceil(ldexp(y, fbits));
    *hi = (int64_t)ceil(ldexp(y + ulp, fbits));
}

int main(int argc, char **argv) {
    if (argc < 3) { fprintf(stderr, "usage: %s CAPTURE_DIR PROBE3_DIR\n", argv[0]); return 2; }
    const char *cap_dir = argv[1], *p3 = argv[2];
    int8_t *d;
    /* rcp: 128 intervals, x the low 16 bits, the square of 2x, >> 15 */
    d = slurp(cap_dir, "sfu_a.i8", 0, 1u << 23);
    for (uint32_t f = 1; f < (1u << 23); f++) {
        uint32_t yb = bf((float)(1.0 / fb(0x3f800000u + f))) + (uint32_t)(int32_t)d[f], x = f & 0xffff;
        int64_t y = (yb & 0x7fffff) | 0x800000;
        add(f >> 16, x, sq17(x << 1), y << 15, (y + 1) << 15);
    }
    free(d);
    fit("alu_sfu_rcp_tab", 128, 0, 4, 4);
    reset();
    /* rsqrt and sqrt on [1, 4): parity and 6 fraction bits, x 17 bits, C2 sq * 4 */
    for (int rs = 1; rs >= 0; rs--) {
        d = rs ? slurp(cap_dir, "sfu_a.i8", 1u << 23, 1u << 24) : slurp(cap_dir, "sfu_d.i8", 0, 1u << 24);
        const int sh = rs ? 16 : 18;
        for (uint32_t i = 1; i < (1u << 24); i++) {
            float xv = fb(0x3f800000u + i);
            uint32_t yb = bf(rs ? (float)(1.0 / sqrt((double)xv)) : (float)sqrt((double)xv)) + (uint32_t)(int32_t)d[i];
            int64_t y = (yb & 0x7fffff) | 0x800000;
            add(i >> 17, i & 0x1ffff, sq17(i & 0x1ffff), y << sh, (y + 1) << sh);
        }
        free(d);
        if (rs) fit("alu_sfu_rsq_tab", 128, 2, 4, 4);
        else fit("alu_sfu_sqrt_tab", 128, 2, 12, 3);
        reset();
    }
    /* ex2 on [1, 2) and (-2, -1]: 64 intervals of the fixed-point fraction */
    d = slurp(cap_dir, "sfu_b.i8", 0, 1u << 24);
    for (uint32_t i = 0; i < (1u << 24); i++) {
        int neg = i >> 23;
        uint32_t f = i & 0x7fffff;
        if (neg && !f) continue;
        uint32_t yb = bf((float)exp2((double)fb((neg ? 0xbf800000u : 0x3f800000u) + f))) + (uint32_t)(int32_t)d[i];
        uint32_t fr = neg ? (~f & 0x7fffff) : f;
        int64_t y = (yb & 0x7fffff) | 0x800000;
        add(fr >> 17, fr & 0x1ffff, sq17(fr & 0x1ffff), y << 15, (y + 1) << 15);
    }
    free(d);
    fit("alu_sfu_ex2_tab", 64, 0, 4, 4);
    reset();
    /* lg2 on [1, 2): a fixed-point result with 36 fraction bits (38 before >> 2) */
    d = slurp(cap_dir, "sfu_b.i8", 2u << 23, 1u << 23);
    for (uint32_t f = 1; f < (1u << 23); f++) {
        if (d[f] == 127 || d[f] == -127) continue;
        uint32_t yb = bf((float)log2((double)fb(0x3f800000u + f))) + (uint32_t)(int32_t)d[f];
        int64_t lo, hi;
        trunc_bounds(yb, 36, &lo, &hi);
        add(f >> 17, f & 0x1ffff, sq17(f & 0x1ffff), lo << 2, hi << 2);
    }
    free(d);
    fit("alu_sfu_lg2_tab", 64, 1, 6, 4);
    reset();
    /* sin: quarter-turn positions from sin and cos on [1, 2) and sin on [0.25, 1) */
    for (int src = 0; src < 3; src++) {
        const int isc = src == 1;
        const uint32_t base = src == 2 ? 0x3e800000u : 0x3f800000u, n = src == 2 ? 1u << 24 : 1u << 23;
        d = src == 2 ? slurp(p3, "sin_dense.i8", 0, n) : slurp(cap_dir, "sfu_c.i8", isc ? 1u << 23 : 0, n);
        for (uint32_t f = 0; f < n; f++) {
            if (d[f] == 127 || d[f] == -127) continue;
            float xv = fb(base + f);
            uint32_t yb = bf((float)(isc ? cos((double)xv) : sin((double)xv))) + (uint32_t)(int32_t)d[f];
            double pr = (double)xv * (double)fb(0x3e22f983u);
            float t = (float)pr;
            if (fabs((double)t) > fabs(pr)) t = nextafterf(t, 0.0f);
            double q = (double)t * 4.0 + isc;
            int quad = (int)floor(q);
            int64_t pos = (int64_t)floor((q - quad) * 8388608.0);
            if (quad & 1) pos = ~pos & 0x7fffff;
            if ((fb(yb) < 0) != ((quad >> 1) & 1) && fb(yb) != 0) continue;
            int64_t lo, hi;
            trunc_bounds(yb, 37, &lo, &hi);
            add((int)(pos >> 17), pos & 0x1ffff, sq17((uint32_t)pos & 0x1ffff), lo, hi);
        }
        free(d);
    }
    fit("alu_sfu_sin_tab", 64, 0, 6, 6);
    reset();
    /* tanh: per binade 2^M intervals, x the 17 bits below them, units 2^-SH of its ulp */
    static const int tm[12] = {0, 0, 0, 1, 1, 2, 2, 2, 3, 4, 3, 2};
    uint32_t *th = slurp(p3, "tanh_s.bin", 0, (size_t)(17u << 17) * 4);
    int rows = 0;
    for (int b = 0; b < 12; b++) {
        const int e = 0x77 + b, m = tm[b], sh = e == 0x80 ? 17 : 16;
        for (uint32_t k = 0; k < (1u << 17); k++) {
            uint32_t i = (uint32_t)(e - 0x73) * (1u << 17) + k, f = ((0x73u << 23) + i * 64u) & 0x7fffff;
            uint32_t yb = th[i], x = (f >> (6 - m)) & 0x1ffff;
            int es = sh + (int)((yb >> 23) & 0xff) - e;
            int64_t y = (yb & 0x7fffff) | 0x800000;
            if (es >= 0) add(rows + (int)(f >> (23 - m)), x, sq17(x), y << es, (y + 1) << es);
        }
        rows += 1 << m;
    }
    free(th);
    fit("alu_sfu_tanh_tab", rows, 0, 12, 12);
    return bad_intervals ? 1 : 0;
}
